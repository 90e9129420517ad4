//! `othello nboard`: the NBoard protocol on standard input and output, for the NBoard GUI and
//! the programs that speak its protocol.
//!
//! Three threads: a reader turns standard input into lines, a worker owns the engine and runs
//! one search at a time, and the main thread owns the protocol state and standard output.
//! Both send their news to the main thread over one channel, so every line reaches standard
//! output whole and in order. Commands are answered in the order they came; a command that
//! arrives while a search runs waits for it, except that a `ping` (or `quit`) stops it at once:
//! the reader raises the stop flag as soon as it reads one, so that the `pong`, answered in
//! its turn, follows the search's end. When standard output's reader goes away (the GUI has
//! closed its end or gone), a fourth thread raises the stop flag and the session ends at once.
//! At the end of the input, each search has a moment to finish (`END_GRACE`) after its first
//! answer (a completed iteration, depth 1 the first) before it stops with its best move so
//! far, and the session ends once the commands read are answered.

use std::collections::VecDeque;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;

use clap::Args;

use othello::text::counted;
use othello_engine::Engine;
use othello_engine::nboard::{self, LearntBook, NBoard, Task};

use super::Failure;
use super::gtp::{EndOfInput, EngineArgs, watch_output};
use othello_io::book::save_learnt;
use othello_io::input::{LineError, LineReader};

/// The longest command line read whole (a `set game` with a long GGF game and comments);
/// longer ones are ignored with a note.
const MAX_COMMAND_LEN: usize = 1 << 20;

/// Arguments of `othello nboard`.
#[derive(Debug, Args)]
pub struct NBoardArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// What the main thread hears about.
enum Event {
    /// A line of standard input and its number.
    Line(u64, String),
    /// A line too long to read whole, and its number.
    TooLong(u64),
    /// The end of standard input.
    End,
    /// Standard input could not be read.
    ReadFailed(io::Error),
    /// A line of a search's answer.
    Output(String),
    /// The book a `learn` made (before its `Done`).
    Learnt(LearntBook),
    /// The search has ended.
    Done,
    /// Standard output's reader has gone away.
    OutputGone,
}

/// The stop flag of the searches, raised by the reader when a `ping` or `quit` comes in.
/// A search started for a command that came before the latest interrupting line starts
/// stopped; one started for a later command runs.
struct Interrupt {
    stop: AtomicBool,
    /// The number of the latest interrupting line.
    before: AtomicU64,
    /// The stop flag of a `learn`, which the session's end alone raises (`quit`, standard
    /// output gone): as in Edax, a `ping` waits for the learning, so that no work is lost.
    session_over: AtomicBool,
}

impl Interrupt {
    fn raise(&self, line: u64) {
        self.before.fetch_max(line, Ordering::SeqCst);
        self.stop.store(true, Ordering::SeqCst);
    }

    /// The session ends: every task stops.
    fn end_session(&self) {
        self.session_over.store(true, Ordering::SeqCst);
        self.raise(u64::MAX);
    }

    /// Sets the flag for a search asked for by line `line`. The flag is cleared first and the
    /// line number read after, so a `ping` read meanwhile is never lost.
    fn arm(&self, line: u64) {
        self.stop.store(false, Ordering::SeqCst);
        if self.before.load(Ordering::SeqCst) > line {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

/// Speaks the NBoard protocol on standard input and output until `quit` or the end of the
/// input (once the search under way, if any, has ended).
pub fn run(args: &NBoardArgs) -> Result<(), Failure> {
    if io::stdin().is_terminal() {
        othello_io::warn(format_args!(
            "othello: speaking the NBoard protocol on standard input (nboard 2, set depth N, go, \
             hint N, move F5, ping N; quit or Ctrl-D ends)."
        ));
    }
    let book = args.engine.book.book()?;
    let engine = args.engine.engine()?;
    let interrupt = Arc::new(Interrupt {
        stop: AtomicBool::new(false),
        before: AtomicU64::new(0),
        session_over: AtomicBool::new(false),
    });
    let (events, news) = mpsc::channel::<Event>();

    let end = EndOfInput::new();
    let reader_events = events.clone();
    let reader_interrupt = Arc::clone(&interrupt);
    let reader_end = Arc::clone(&end);
    thread::Builder::new()
        .name("nboard-reader".to_owned())
        .spawn(move || read_lines(&reader_events, &reader_interrupt, &reader_end))
        .map_err(Failure::Thread)?;

    let watch_events = events.clone();
    let watch_interrupt = Arc::clone(&interrupt);
    watch_output(move || {
        watch_interrupt.end_session();
        let _ = watch_events.send(Event::OutputGone);
    })?;

    let tasks = start_worker(engine, Arc::clone(&interrupt), end, events)?;

    let mut nboard = NBoard::new();
    nboard.set_depth(args.engine.depth);
    nboard.set_book(book);
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let mut write = |text: &str| -> Result<(), Failure> {
        writeln!(output, "{text}")
            .and_then(|()| output.flush())
            .map_err(Failure::Write)
    };
    let mut pending: VecDeque<(u64, String)> = VecDeque::new();
    let mut searching = false;
    let mut ended = false;
    loop {
        while !searching {
            let Some((number, line)) = pending.pop_front() else {
                break;
            };
            let reply = nboard.handle(&line);
            for note in &reply.notes {
                othello_io::warn(format_args!("othello: nboard: {note}"));
            }
            for text in &reply.lines {
                write(text)?;
            }
            if reply.quit {
                return Ok(());
            }
            if let Some(task) = reply.task {
                searching = true;
                tasks
                    .send((number, task))
                    .map_err(|_| search_thread_ended())?;
            }
        }
        if ended && !searching && pending.is_empty() {
            return Ok(());
        }
        match news.recv().map_err(|_| search_thread_ended())? {
            Event::Line(number, line) => pending.push_back((number, line)),
            Event::TooLong(number) => othello_io::warn(format_args!(
                "othello: nboard: line {number} is longer than {MAX_COMMAND_LEN} bytes; ignored"
            )),
            Event::End => ended = true,
            Event::ReadFailed(error) => return Err(Failure::Read(error)),
            Event::Output(text) => write(&text)?,
            Event::Learnt(learnt) => {
                // Saved before the answer, so that `learned` means the game is kept.
                othello_io::warn(format_args!(
                    "othello: nboard: learn: {}",
                    keep_learnt(args.engine.book.file(), &learnt)
                ));
                for text in &nboard.learned(learnt.book).lines {
                    write(text)?;
                }
            }
            Event::Done => searching = false,
            Event::OutputGone => {
                return Err(Failure::Write(io::ErrorKind::BrokenPipe.into()));
            }
        }
    }
}

/// Starts the thread that owns the engine and runs the tasks sent to it one at a time, each
/// with its stop flag, sending their lines, a `learn`'s book and the end of each task to
/// `events`.
fn start_worker(
    mut engine: Engine,
    interrupt: Arc<Interrupt>,
    end: Arc<EndOfInput>,
    events: mpsc::Sender<Event>,
) -> Result<mpsc::Sender<(u64, Task)>, Failure> {
    let (tasks, task_queue) = mpsc::channel::<(u64, Task)>();
    thread::Builder::new()
        .name("nboard-search".to_owned())
        .spawn(move || {
            while let Ok((line, task)) = task_queue.recv() {
                end.starting_owed();
                interrupt.arm(line);
                let stop = if task.is_learn() {
                    &interrupt.session_over
                } else {
                    &interrupt.stop
                };
                let learnt = task.run_noting_answers(
                    &mut engine,
                    stop,
                    &mut |text| {
                        let _ = events.send(Event::Output(text));
                    },
                    &mut || end.answered(),
                );
                if let Some(learnt) = learnt {
                    let _ = events.send(Event::Learnt(learnt));
                }
                if events.send(Event::Done).is_err() {
                    break;
                }
            }
        })
        .map_err(Failure::Thread)?;
    Ok(tasks)
}

/// Saves a learnt book in its file, if it came from one, and says what was learnt and where it
/// is kept.
fn keep_learnt(file: Option<&std::path::Path>, learnt: &LearntBook) -> String {
    let learned = &learnt.learned;
    let kept = match file {
        Some(path) => match save_learnt(path, &learnt.book) {
            Ok(()) => format!("saved in {}", path.display()),
            Err(error) => format!("not saved: {error}"),
        },
        None => "kept for this session only (--book FILE keeps what is learnt)".to_owned(),
    };
    format!(
        "{} added, {} expanded{}; {kept}",
        counted(learned.added, "position", "positions"),
        counted(learned.expanded, "position", "positions"),
        if learned.stopped { ", stopped" } else { "" }
    )
}

fn search_thread_ended() -> Failure {
    Failure::Thread(io::Error::other("the search thread ended"))
}

/// Reads standard input line by line into `events`, raising the stop flag at each `ping` or
/// `quit`, and for every search once the end of the input is a moment behind.
fn read_lines(events: &mpsc::Sender<Event>, interrupt: &Arc<Interrupt>, end: &Arc<EndOfInput>) {
    let mut input = LineReader::with_limit(io::stdin().lock(), MAX_COMMAND_LEN);
    let mut number = 0;
    loop {
        let event = match input.next_line(&mut io::sink()) {
            Ok(Some(line)) => {
                number += 1;
                if line.len() > MAX_COMMAND_LEN {
                    Event::TooLong(number)
                } else {
                    let line = String::from_utf8_lossy(line).into_owned();
                    if nboard::is_quit(&line) {
                        interrupt.end_session();
                    } else if nboard::is_interrupt(&line) {
                        interrupt.raise(number);
                    }
                    Event::Line(number, line)
                }
            }
            Ok(None) => {
                // Each search, once it has answered: the flag that `arm` clears for the next.
                let interrupt = Arc::clone(interrupt);
                end.reached(move || interrupt.stop.store(true, Ordering::SeqCst));
                Event::End
            }
            Err(LineError::Read(error) | LineError::Write(error)) => Event::ReadFailed(error),
        };
        let last = matches!(event, Event::End | Event::ReadFailed(_));
        if events.send(event).is_err() || last {
            return;
        }
    }
}
