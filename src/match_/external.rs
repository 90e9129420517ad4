//! External engines of `othello match`: a program started from its command line (no shell),
//! spoken to on its standard input and output in GTP or NBoard, every read with a time-out.
//!
//! Each engine runs as a child process: its output is read line by line on a thread of its
//! own into a bounded channel (a line is at most [`MAX_LINE`] bytes), so that the match waits
//! for an answer with a time-out and never hangs. Each engine is started contained
//! (`othello_contain`: a cgroup and a PID namespace of its own where the host allows, else its
//! own process group), so that its CPU time is that of its whole process tree (an engine behind
//! a wrapper script that does not `exec` is counted) and the whole tree is killed when its client
//! is dropped (after a fault, or at the end), by [`kill_all_for_exit`] on Ctrl-C and, on Linux,
//! when the thread that started it ends (`PR_SET_PDEATHSIG`), so that a match leaves no engine
//! process behind. Its standard error goes to `/dev/null`.
//!
//! After any fault (a crash, a time-out, an illegal or unreadable answer) the engine's state
//! is unknown: it is restarted before its next move.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use othello::notation::parse_square;
use othello::{Color, Dimensions, RuleSet, Setup, Square};
use othello_contain::{Containment, Limits, Mode, Running, Tree};
use othello_engine::arena::clock::seconds_text;
use othello_engine::arena::{Contestant, Fault, GameSoFar};
use othello_records::{GameRecord, Metadata, RecordMove, ggf};

/// The longest line read from an engine, and the longest answer (a GTP answer's lines
/// together); a longer one is cut off there and forfeits the game.
pub const MAX_LINE: u64 = 64 * 1024;

/// Lines an engine may write ahead of the match reading them.
const BACKLOG: usize = 1024;

/// The engines running now, each with its whole process tree.
static RUNNING: Running = Running::new();

/// Kills every engine running now, with everything it started, and returns how many there
/// were; none can be started afterwards (the process is about to exit).
pub fn kill_all_for_exit() -> usize {
    RUNNING.kill_all_for_exit()
}

/// How engines are contained, probed at the first start; when it is the fallback, said once
/// on standard error.
fn containment() -> &'static Containment {
    static CONTAINMENT: OnceLock<Containment> = OnceLock::new();
    CONTAINMENT.get_or_init(|| {
        let containment = Containment::probe(false);
        if let (Some(reason), Mode::ProcessGroup) =
            (containment.fallback_reason(), containment.mode())
        {
            let _ = writeln!(
                io::stderr(),
                "othello: {reason}: engines are contained by process group only (what they \
                 start outside it is neither counted nor killed)"
            );
        }
        containment
    })
}

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The Go Text Protocol.
    Gtp,
    /// The NBoard protocol.
    NBoard,
}

/// What the reader thread passes on: a line (without its ending), or why reading stopped.
enum Output {
    Line(String),
    TooLong,
    End,
}

/// A running engine process.
struct Process {
    child: Child,
    /// Everything the engine started.
    tree: Tree,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    /// Its CPU time when last read: what is left once it has been reaped.
    cpu_seen: Duration,
}

impl Process {
    fn spawn(words: &[String]) -> io::Result<Process> {
        let mut command = Command::new(&words[0]);
        command
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
            unsafe {
                command.pre_exec(|| {
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                        return Err(io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let (mut child, tree) = RUNNING.spawn(containment(), &mut command, &Limits::default())?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (sender, lines) = sync_channel(BACKLOG);
        std::thread::Builder::new()
            .name("engine-output".to_owned())
            .spawn(move || read_lines(stdout, &sender))?;
        Ok(Process {
            child,
            tree,
            stdin,
            lines,
            cpu_seen: Duration::ZERO,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.crashed())
    }

    /// The next line, waiting until `deadline` at most.
    fn read_line(&mut self, deadline: Instant, limit: Duration) -> Result<String, Fault> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Output::Line(line)) => Ok(line),
            Ok(Output::TooLong) => Err(Fault::Overlong(MAX_LINE)),
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout(limit)),
        }
    }

    /// How the process ended (waiting a moment for its status), as a fault.
    fn crashed(&mut self) -> Fault {
        // Read while the process can still be seen: reaping it takes its times with it.
        self.cpu();
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Fault::Crashed(describe_exit(status)),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return Fault::Crashed("closed its input or output".to_owned()),
            }
        }
    }

    /// The CPU time of the engine's whole process tree (its cgroup's count); without cgroups,
    /// of the process and its descendants, with what each has waited for, where the system
    /// says (Linux: `/proc`); zero elsewhere. The most seen so far once it has been reaped.
    fn cpu(&mut self) -> Duration {
        if let Some(cpu) = self.tree.cpu_time() {
            self.cpu_seen = self.cpu_seen.max(cpu);
        }
        self.cpu_seen
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        // The whole tree, before the engine is reaped (without cgroups its process group's id
        // is its pid until then); its CPU time read last, with everything ended.
        self.tree.kill();
        let _ = self.child.kill();
        let _ = self.child.wait();
        RUNNING.remove(&self.tree);
    }
}

/// The game so far as NBoard's `set game` needs it: with the pass of a player who has no move
/// written out (`W[PA]`, as NBoard itself writes it) when the one to move now is the one who
/// moved last, so that the engine sees whose move it is.
fn nboard_record(game: &GameSoFar) -> GameRecord {
    let last_mover = game.colored_moves().last().map(|&(color, _)| color);
    let pass = game.now.turn().is_some() && game.now.turn() == last_mover;
    let moves = game.moves.iter().map(|&square| RecordMove::Play(square));
    GameRecord::new(
        Setup::standard(Dimensions::STANDARD),
        RuleSet::Full,
        moves.chain(pass.then_some(RecordMove::Pass)),
        Metadata::default(),
    )
    .expect("the moves were played, and the pass is one the rules force")
}

/// A play as GTP tells it: a colour and its square, or its pass (`None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Play {
    color: Color,
    square: Option<Square>,
}

/// The game so far as GTP's `play` commands tell it: each move, with the pass of a player who
/// had no move written out (`play white pass`) between two moves of the other, and after the
/// last move when its player is on turn again, so that `genmove` asks for the move of the one
/// on turn in the engine's game too.
fn gtp_plays(game: &GameSoFar) -> Vec<Play> {
    let mut plays: Vec<Play> = Vec::new();
    let mut last = None;
    for (color, square) in game.colored_moves() {
        if last == Some(color) {
            plays.push(Play {
                color: color.opponent(),
                square: None,
            });
        }
        plays.push(Play {
            color,
            square: Some(square),
        });
        last = Some(color);
    }
    if let Some(color) = last.filter(|&color| game.now.turn() == Some(color)) {
        plays.push(Play {
            color: color.opponent(),
            square: None,
        });
    }
    plays
}

/// Passes the lines of `stdout` on until it ends, a line is too long, or nobody listens.
fn read_lines(stdout: impl Read, sender: &SyncSender<Output>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut line = Vec::new();
        let output = match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => Output::End,
            Ok(_) if line.last() != Some(&b'\n') && line.len() as u64 >= MAX_LINE => {
                Output::TooLong
            }
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                Output::Line(text.trim_end_matches(['\r', '\n']).to_owned())
            }
        };
        let last = !matches!(output, Output::Line(_));
        if sender.send(output).is_err() || last {
            return;
        }
    }
}

/// "exited with status 3", "killed by signal 9".
fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return format!("killed by signal {signal}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "ended".to_owned(),
    }
}

/// An external engine as a player of a match.
pub struct External {
    words: Vec<String>,
    protocol: Protocol,
    timeout: Duration,
    /// How long the engine may take to answer now: the timeout, or less on a clock.
    limit: Duration,
    process: Option<Process>,
    /// The plays the engine has been told since its board was cleared (GTP, `None` a pass),
    /// or `None` when its board must be set up again.
    told: Option<Vec<Play>>,
    /// Whether the engine refused a pass (GTP): it is told the moves alone.
    refuses_passes: bool,
    /// Whether the engine refused `time_settings` (GTP): it is not told the clock.
    refuses_clock: bool,
    /// CPU time of the processes that have ended.
    spent: Duration,
    /// Numbers `ping` (NBoard).
    pings: u64,
}

impl External {
    /// Starts the engine of `words` and checks that it answers.
    ///
    /// # Errors
    /// A message saying why it cannot be started or does not answer.
    pub fn start(
        words: &[String],
        protocol: Protocol,
        timeout: Duration,
    ) -> Result<External, String> {
        let mut engine = External {
            words: words.to_vec(),
            protocol,
            timeout,
            limit: timeout,
            process: None,
            told: None,
            refuses_passes: false,
            refuses_clock: false,
            spent: Duration::ZERO,
            pings: 0,
        };
        engine
            .launch()
            .map_err(|error| engine.cannot_start(&error))?;
        engine.hello().map_err(|fault| {
            format!(
                "does not answer as {} engine: {fault}",
                match protocol {
                    Protocol::Gtp => "a GTP",
                    Protocol::NBoard => "an NBoard",
                }
            )
        })?;
        Ok(engine)
    }

    fn cannot_start(&self, error: &io::Error) -> String {
        format!("cannot start {}: {error}", self.words[0])
    }

    /// Starts a new process (after ending the old one).
    fn launch(&mut self) -> io::Result<()> {
        self.stop();
        self.told = None;
        self.process = Some(Process::spawn(&self.words)?);
        Ok(())
    }

    /// The first words to a new process: GTP `boardsize 8`, NBoard `nboard 2` and a ping.
    fn hello(&mut self) -> Result<(), Fault> {
        match self.protocol {
            Protocol::Gtp => self.gtp("boardsize 8").map(drop),
            Protocol::NBoard => {
                self.send("nboard 2")?;
                self.sync()
            }
        }
    }

    /// The CPU time the engine's processes have used so far.
    pub fn cpu(&mut self) -> Duration {
        self.spent + self.process.as_mut().map_or(Duration::ZERO, Process::cpu)
    }

    /// Ends the process (counting its CPU time), if it runs.
    fn stop(&mut self) {
        if let Some(mut process) = self.process.take() {
            self.spent += process.cpu();
        }
    }

    /// Starts a new process (after ending the old one) and says hello.
    fn restart(&mut self) -> Result<(), Fault> {
        self.launch()
            .map_err(|error| Fault::Crashed(self.cannot_start(&error)))?;
        self.hello()
    }

    fn process(&mut self) -> Result<&mut Process, Fault> {
        self.process
            .as_mut()
            .ok_or_else(|| Fault::Crashed("not running".to_owned()))
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.process()?.send(line)
    }

    /// Sends a GTP command and reads its answer: the text after `=` (lines joined by
    /// newlines); a `?` answer is an unreadable one.
    fn gtp(&mut self, command: &str) -> Result<String, Fault> {
        let limit = self.limit;
        let deadline = Instant::now() + limit;
        let process = self.process()?;
        process.send(command)?;
        // Blank lines before the answer are skipped; the answer ends at a blank line.
        let first = loop {
            let line = process.read_line(deadline, limit)?;
            if !line.trim().is_empty() {
                break line;
            }
        };
        let mut text = first.clone();
        loop {
            let line = process.read_line(deadline, limit)?;
            if line.trim().is_empty() {
                break;
            }
            if (text.len() + 1 + line.len()) as u64 > MAX_LINE {
                return Err(Fault::Overlong(MAX_LINE));
            }
            text.push('\n');
            text.push_str(&line);
        }
        match first.trim_start().strip_prefix('=') {
            // "=ID text": skip an id the command did not have but an engine may echo.
            Some(rest) => Ok(rest
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim()
                .to_owned()),
            None => Err(Fault::Garbage(format!("{text} (to {command:?})"))),
        }
    }

    /// NBoard: `ping N`, then reads until `pong N`.
    fn sync(&mut self) -> Result<(), Fault> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings))?;
        let limit = self.limit;
        let deadline = Instant::now() + limit;
        let process = self.process()?;
        while process.read_line(deadline, limit)?.trim() != pong {}
        Ok(())
    }

    fn choose_gtp(&mut self, game: &GameSoFar) -> Result<Square, Fault> {
        let plays = gtp_plays(game);
        let told = match &self.told {
            Some(told) if plays.starts_with(told) => told.len(),
            _ => {
                self.gtp("clear_board")?;
                self.told = Some(Vec::new());
                if let Some(clock) = game.clock {
                    self.tell_clock(&format!("time_settings {} 0 0", seconds_text(clock.left)))?;
                }
                0
            }
        };
        for &play in &plays[told..] {
            let color = color_name(play.color);
            match play.square {
                Some(square) => {
                    self.gtp(&format!("play {color} {square}"))?;
                }
                None if self.refuses_passes => {}
                // An engine that refuses a pass (GRhino: "? syntax error") sees whose move it
                // is from the moves alone: it is not sent passes again.
                None => self.refuses_passes = !self.gtp_heard(&format!("play {color} pass"))?,
            }
            self.told.get_or_insert_with(Vec::new).push(play);
        }
        let turn = game.now.turn().expect("a player is on turn");
        if let Some(clock) = game.clock {
            let left = seconds_text(clock.left);
            self.tell_clock(&format!("time_left {} {left} 0", color_name(turn)))?;
        }
        let answer = self.gtp(&format!("genmove {}", color_name(turn)))?;
        let square = read_move(&answer)?;
        self.told.get_or_insert_with(Vec::new).push(Play {
            color: turn,
            square: Some(square),
        });
        Ok(square)
    }

    /// Tells a GTP engine the clock (`time_settings`, `time_left`), unless it refused to hear
    /// it: an engine without clocks plays on, not told.
    fn tell_clock(&mut self, command: &str) -> Result<(), Fault> {
        if !self.refuses_clock {
            self.refuses_clock = !self.gtp_heard(command)?;
        }
        Ok(())
    }

    /// Sends a GTP command the engine may refuse: whether it accepted it (a `?` answer is a
    /// refusal, not a fault).
    fn gtp_heard(&mut self, command: &str) -> Result<bool, Fault> {
        match self.gtp(command) {
            Ok(_) => Ok(true),
            Err(Fault::Garbage(_)) => Ok(false),
            Err(fault) => Err(fault),
        }
    }

    fn choose_nboard(&mut self, game: &GameSoFar) -> Result<Square, Fault> {
        self.send(&format!("set game {}", ggf::game(&nboard_record(game))))?;
        self.sync()?;
        self.send("go")?;
        let limit = self.limit;
        let deadline = Instant::now() + limit;
        let process = self.process()?;
        loop {
            let line = process.read_line(deadline, limit)?;
            if let Some(answer) = line.trim().strip_prefix("===") {
                let answer = answer.trim();
                let answer = answer.split('/').next().unwrap_or(answer);
                return read_move(answer);
            }
        }
    }
}

/// How long after its time has run out an engine's answer is still awaited (the game is lost
/// on time either way).
const CLOCK_GRACE: Duration = Duration::from_secs(1);

impl Contestant for External {
    fn choose(&mut self, game: &GameSoFar) -> Result<Square, Fault> {
        // On a clock, an answer is awaited until a little after the time runs out.
        self.limit = game.clock.map_or(self.timeout, |clock| {
            self.timeout.min(clock.left + CLOCK_GRACE)
        });
        if self.process.is_none() {
            self.restart()?;
        }
        let answer = match self.protocol {
            Protocol::Gtp => self.choose_gtp(game),
            Protocol::NBoard => self.choose_nboard(game),
        };
        if answer.is_err() {
            // Its state is unknown: a new process for its next move.
            self.stop();
        }
        answer
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.stop();
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A square of 8x8 as an engine writes it (`d3`, `D3`); a pass or anything else is not a move.
fn read_move(answer: &str) -> Result<Square, Fault> {
    let answer = answer.trim();
    match answer.to_ascii_lowercase().as_str() {
        "pass" | "pa" => Err(Fault::Illegal(answer.to_owned())),
        _ => parse_square(answer, Dimensions::STANDARD)
            .map_err(|_| Fault::Garbage(answer.to_owned())),
    }
}
