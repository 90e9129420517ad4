//! `othello match`: two players (this engine at a level or node budget, or external engines
//! speaking GTP or NBoard) play balanced openings with both colours; the score, an Elo estimate
//! and the CPU time of each side are printed as games finish, and every game is saved (GGF).
//!
//! The library (`othello_engine::arena`) schedules the games, plays them and keeps the tally; this
//! front end starts the external engines ([`external`]), measures CPU time, runs one pair of
//! players on each of `--concurrency` threads, prints, and rewrites the saved games after each
//! one (atomically), so that an interrupted match keeps the games it finished.

mod external;

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use thiserror::Error;

use othello::text::counted;
use othello::{Color, RuleSet, Square};
use othello_engine::Evaluation;
use othello_engine::arena::openings::{self, standard_start};
use othello_engine::arena::spec::{BookSpec, Contender, EvaluationSpec};
use othello_engine::arena::{
    EnginePlayer, Fault, Finished, GameSoFar, Opening, Openings, Player, Schedule, Tally, play_game,
};
use othello_engine::book::Book;
use othello_records::{self as record, GameRecord, Metadata, ReadOptions, ggf};

use super::Failure;
use super::weights::{WeightsFileError, weights_file};
use external::{External, Protocol};
use othello_io::atomic::{NotOurs, check_overwrite, write_atomic};
use othello_io::book::{BookFileError, read_book};
use othello_io::input::MAX_INPUT_BYTES;
use othello_io::records::{RecordsFile, RecordsFileError};

/// Arguments of `othello match`.
#[derive(Debug, Args)]
#[command(after_help = "\
Players: self:LEVEL (1-6, the computer of `othello play` without its random moves, with the
built-in opening book from level 3), self:nodes=N (N nodes a move, no book), self:share=SECONDS
(a move's share of the clock, level 6's being 3: deepens while the next iteration should end
within it, stops at 10/3 of it), self:weights=FILE (weights of `othello train fit`),
self:classic, self:no-probcut, self:book (the built-in book at any budget), self:no-book,
self:book=FILE, combined with commas (self:6,share=5 or self:nodes=300000,weights=old.bin); a
book move is the book's best. gtp:COMMAND or nboard:COMMAND, an engine started from COMMAND
(split as a shell would, without one) speaking GTP or NBoard, for example
gtp:\"gtp-rhino -l 4\".

A game in which a player answers an illegal move or garbage, does not answer within --timeout,
or crashes is lost by that player (forfeited); an engine is restarted after such a fault.

Exit status: 0 done, 1 a run-time failure (an engine cannot be started, the games cannot be
saved), 2 bad usage (a player, an openings file or a weights file that cannot be used, --save
naming a file that is not a game record).")]
pub struct MatchArgs {
    /// The first player (Black in the first game of each opening).
    #[arg(value_name = "A")]
    a: Contender,

    /// The second player.
    #[arg(value_name = "B")]
    b: Contender,

    /// Games in all; each opening is played twice, with the colours swapped (an odd number
    /// plays the last opening with A as Black only).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games: u64,

    /// Openings from a file: one per line as a move list (f5d6c3), or games in any format
    /// `othello convert` reads, from the standard start; used in turn.
    #[arg(long, value_name = "FILE", conflicts_with = "random_plies")]
    openings: Option<PathBuf>,

    /// Random openings of K moves, kept when a depth-6 search of the classic evaluation scores
    /// them within 4 discs of even.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,

    /// Chooses the random openings: opening i depends only on the seed and i.
    #[arg(long, value_name = "N", default_value_t = 1)]
    seed: u64,

    /// Games played at once, each by a pair of players of its own.
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = super::threads_parser())]
    concurrency: u16,

    /// Seconds an external engine may take to answer (a move or any other command).
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0, value_parser = parse_seconds)]
    timeout: f64,

    /// Save every game (GGF), rewritten as each one finishes.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,

    /// Replace --save even when it is not a game record.
    #[arg(long, requires = "save")]
    force: bool,
}

/// `--timeout`: a number of seconds above 0 and at most a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && *s <= 86_400.0)
        .ok_or_else(|| format!("expected seconds above 0 (at most 86400), found {text:?}"))
}

/// Why `othello match` failed.
#[derive(Debug, Error)]
pub enum MatchError {
    /// A weights file of a player cannot be used.
    #[error(transparent)]
    Weights(WeightsFileError),
    /// A book file of a player cannot be used.
    #[error(transparent)]
    Book(BookFileError),
    /// The openings file cannot be read.
    #[error(transparent)]
    OpeningsFile(#[from] RecordsFileError),
    /// A game of the openings file is not an opening.
    #[error("{name}: game {number}: {problem}")]
    Opening {
        /// The file.
        name: String,
        /// The game's number, from 1.
        number: usize,
        /// What is wrong.
        problem: String,
    },
    /// The openings file holds no game.
    #[error("{name}: no opening in it")]
    NoOpenings {
        /// The file.
        name: String,
    },
    /// `--save` names a file that is not a game record.
    #[error(transparent)]
    NotOurs(#[from] NotOurs),
    /// An engine cannot be started.
    #[error("{name}: {problem}")]
    Start {
        /// The player as named.
        name: String,
        /// Why.
        problem: String,
    },
    /// The games cannot be saved.
    #[error("{path}: {source}", path = .path.display())]
    Save {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
    /// A worker thread could not be started.
    #[error("cannot start the match's threads: {0}")]
    Threads(io::Error),
}

impl MatchError {
    /// 2 for what the command line names and cannot be used, 1 for failures while running.
    pub fn exit_status(&self) -> u8 {
        match self {
            MatchError::Weights(_)
            | MatchError::Book(_)
            | MatchError::OpeningsFile(_)
            | MatchError::Opening { .. }
            | MatchError::NoOpenings { .. }
            | MatchError::NotOurs(_) => 2,
            MatchError::Start { .. }
            | MatchError::Save { .. }
            | MatchError::Write(_)
            | MatchError::Threads(_) => 1,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, MatchError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// A player as the front end runs it: the library's player and the CPU time it has used.
enum Side {
    /// This engine, timed on the thread that runs it.
    Engine { player: EnginePlayer, cpu: Duration },
    /// An external engine, timed by its process.
    External(External),
}

impl Side {
    fn start(
        contender: &Contender,
        loaded: Option<&Loaded>,
        timeout: Duration,
    ) -> Result<Side, String> {
        match contender {
            Contender::Engine(spec) => {
                let (evaluation, book) = loaded.map_or((Evaluation::Trained, None), |loaded| {
                    (loaded.evaluation.clone(), loaded.book.clone())
                });
                Ok(Side::Engine {
                    player: EnginePlayer::new(spec, evaluation).with_book(book),
                    cpu: Duration::ZERO,
                })
            }
            Contender::Gtp(words) => {
                External::start(words, Protocol::Gtp, timeout).map(Side::External)
            }
            Contender::NBoard(words) => {
                External::start(words, Protocol::NBoard, timeout).map(Side::External)
            }
        }
    }

    /// CPU time used so far.
    fn cpu(&mut self) -> Duration {
        match self {
            Side::Engine { cpu, .. } => *cpu,
            Side::External(engine) => engine.cpu(),
        }
    }
}

impl Player for Side {
    fn choose(&mut self, game: &GameSoFar) -> Result<Square, Fault> {
        match self {
            Side::Engine { player, cpu } => {
                let before = thread_cpu();
                let answer = player.choose(game);
                *cpu += thread_cpu().saturating_sub(before);
                answer
            }
            Side::External(engine) => engine.choose(game),
        }
    }
}

/// The CPU time of the calling thread (zero where the system does not say).
fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `time` is a valid timespec for clock_gettime to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut time) } == 0 {
            return Duration::new(
                u64::try_from(time.tv_sec).unwrap_or(0),
                u32::try_from(time.tv_nsec).unwrap_or(0),
            );
        }
    }
    Duration::ZERO
}

/// A game a worker has finished, with the CPU time each side spent on it.
struct Played {
    index: u64,
    finished: Finished,
    cpu: [Duration; 2],
}

/// What the workers share.
struct Plan {
    openings: Openings,
    schedule: Schedule,
    next: AtomicU64,
    stop: AtomicBool,
}

/// Plays games with `sides` (A, then B) until none is left (or the match stops), sending each
/// one over `results`.
fn worker(plan: &Plan, mut sides: [Side; 2], results: &Sender<Played>) {
    let [a, b] = &mut sides;
    let mut judge = openings::judge();
    while !plan.stop.load(Ordering::Relaxed) {
        let index = plan.next.fetch_add(1, Ordering::Relaxed);
        if index >= plan.schedule.games {
            break;
        }
        let (opening, a_color) = plan.schedule.pairing(index);
        let opening = plan.openings.opening(opening, &mut judge);
        let before = [a.cpu(), b.cpu()];
        let finished = play_game(&opening, a_color, a, b);
        let cpu = [
            a.cpu().saturating_sub(before[0]),
            b.cpu().saturating_sub(before[1]),
        ];
        let played = Played {
            index,
            finished,
            cpu,
        };
        if results.send(played).is_err() {
            break;
        }
    }
}

/// Held while the saved games are written, so that Ctrl-C waits for the write to end.
static SAVING: Mutex<()> = Mutex::new(());

/// The totals of the games finished so far, printed on Ctrl-C.
static SO_FAR: Mutex<String> = Mutex::new(String::new());

/// Runs `othello match`.
pub fn run(args: &MatchArgs) -> Result<(), Failure> {
    Ok(play_match(args)?)
}

/// On SIGINT, SIGTERM or SIGHUP: waits for a save under way, kills every engine process,
/// prints the totals of the games finished so far and exits with status 130.
fn stop_engines_on_interrupt() -> Result<(), MatchError> {
    ctrlc::set_handler(|| {
        let saving = SAVING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let engines = external::kill_all_for_exit();
        let so_far = SO_FAR
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // Written without `eprintln!`, which panics when standard error has gone: the exit
        // must come whatever the streams do.
        let mut out = io::stdout();
        let _ = write!(out, "{so_far}").and_then(|()| out.flush());
        let _ = writeln!(
            io::stderr(),
            "\nothello: interrupted; stopped {}",
            counted(engines, "engine process", "engine processes")
        );
        std::mem::forget(saving);
        std::process::exit(130);
    })
    .map_err(|error| MatchError::Threads(io::Error::other(error)))
}

fn play_match(args: &MatchArgs) -> Result<(), MatchError> {
    let names = [name(&args.a), name(&args.b)];
    let loaded = [load_engine(&args.a)?, load_engine(&args.b)?];
    let openings = match &args.openings {
        Some(path) => Openings::List(read_openings(path)?),
        None => Openings::random(args.seed, args.random_plies),
    };
    if let Some(path) = &args.save {
        check_overwrite(path, args.force, MAX_INPUT_BYTES, |old| {
            record::read(old, &ReadOptions::default())
                .map(drop)
                .map_err(|error| format!("not a game record ({error})"))
        })?;
    }
    let plan = Plan {
        openings,
        schedule: Schedule { games: args.games },
        next: AtomicU64::new(0),
        stop: AtomicBool::new(false),
    };
    stop_engines_on_interrupt()?;
    // Every engine is started (and has answered) before the first game: one that cannot be
    // is reported at once.
    let timeout = Duration::from_secs_f64(args.timeout);
    let workers = u64::from(args.concurrency).min(args.games);
    let contenders = [&args.a, &args.b];
    let start = |side: usize| {
        Side::start(contenders[side], loaded[side].as_ref(), timeout).map_err(|problem| {
            MatchError::Start {
                name: names[side].clone(),
                problem,
            }
        })
    };
    let mut pairs = Vec::new();
    for _ in 0..workers {
        pairs.push([start(0)?, start(1)?]);
    }
    let mut report = Report::new(names, args.save.clone());
    std::thread::scope(|scope| {
        let (sender, receiver) = channel();
        for (number, sides) in pairs.into_iter().enumerate() {
            let sender = sender.clone();
            let plan = &plan;
            std::thread::Builder::new()
                .name(format!("match-{number}"))
                .spawn_scoped(scope, move || worker(plan, sides, &sender))
                .map_err(MatchError::Threads)?;
        }
        drop(sender);
        let outcome = receiver
            .iter()
            .try_for_each(|played| report.game(played.index, &played.finished, played.cpu));
        if outcome.is_err() {
            plan.stop.store(true, Ordering::Relaxed);
        }
        outcome
    })?;
    report.summary()
}

/// A player's name in the report and the saved games: as given on the command line.
fn name(contender: &Contender) -> String {
    match contender {
        Contender::Engine(spec) => spec.to_string(),
        Contender::Gtp(words) => format!("gtp:{}", shell_words::join(words)),
        Contender::NBoard(words) => format!("nboard:{}", shell_words::join(words)),
    }
}

/// What a `self` player reads before the match: its evaluation and its opening book.
struct Loaded {
    evaluation: Evaluation,
    book: Option<Arc<Book>>,
}

/// The evaluation and book of a `self` player, the files it names read now; `None` for an
/// external engine.
fn load_engine(contender: &Contender) -> Result<Option<Loaded>, MatchError> {
    let Contender::Engine(spec) = contender else {
        return Ok(None);
    };
    let evaluation = match &spec.evaluation {
        EvaluationSpec::Trained => Evaluation::Trained,
        EvaluationSpec::Classic => Evaluation::Classic,
        EvaluationSpec::File(path) => weights_file(path).map_err(MatchError::Weights)?,
    };
    let book = match &spec.book {
        BookSpec::File(path) => Some(Arc::new(read_book(path).map_err(MatchError::Book)?)),
        _ => spec.uses_builtin_book().then(Book::builtin),
    };
    Ok(Some(Loaded { evaluation, book }))
}

/// The openings of a file: each game's moves from the standard start.
fn read_openings(path: &Path) -> Result<Vec<Opening>, MatchError> {
    let file = RecordsFile::open(path, RuleSet::Full)?;
    let name = file.name().to_owned();
    let mut games = file.games(None)?;
    let records: Vec<_> = games.by_ref().collect();
    games.finish()?;
    if records.is_empty() {
        return Err(MatchError::NoOpenings { name });
    }
    let problem = |number: usize, problem: String| MatchError::Opening {
        name: name.clone(),
        number,
        problem,
    };
    records
        .iter()
        .enumerate()
        .map(|(index, game)| {
            if !game.starts_standard() || game.rules() != RuleSet::Full {
                return Err(problem(
                    index + 1,
                    "does not start from the standard 8x8 position under the FULL rules".to_owned(),
                ));
            }
            Opening::new(game.squares().collect())
                .map_err(|error| problem(index + 1, error.to_string()))
        })
        .collect()
}

/// The running score, the totals, and the games to save.
struct Report {
    names: [String; 2],
    save: Option<PathBuf>,
    tally: Tally,
    cpu: [Duration; 2],
    /// The games so far by number, as GGF lines.
    saved: BTreeMap<u64, String>,
    out: io::Stdout,
}

impl Report {
    fn new(names: [String; 2], save: Option<PathBuf>) -> Report {
        Report {
            names,
            save,
            tally: Tally::default(),
            cpu: [Duration::ZERO; 2],
            saved: BTreeMap::new(),
            out: io::stdout(),
        }
    }

    fn say(&mut self, line: std::fmt::Arguments) -> Result<(), MatchError> {
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(MatchError::Write)
    }

    /// Counts, saves and prints a finished game.
    fn game(
        &mut self,
        index: u64,
        finished: &Finished,
        cpu: [Duration; 2],
    ) -> Result<(), MatchError> {
        self.tally.add(finished);
        self.cpu[0] += cpu[0];
        self.cpu[1] += cpu[1];
        let [a, b] = &self.names;
        let (black, white) = if finished.a_color == Color::Black {
            (a, b)
        } else {
            (b, a)
        };
        let (result, why) = describe(finished);
        if let Some(path) = self.save.clone() {
            self.saved
                .insert(index, ggf::game(&record_of(finished, black, white)));
            let mut text = String::new();
            for line in self.saved.values() {
                text.push_str(line);
                text.push('\n');
            }
            let saving = SAVING
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            write_atomic(&path, text.as_bytes())
                .map_err(|source| MatchError::Save { path, source })?;
            drop(saving);
        }
        let (black, white) = (black.clone(), white.clone());
        *SO_FAR
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = self.summary_text();
        self.say(format_args!(
            "Finished game {} ({black} vs {white}): {result} {{{why}}}",
            index + 1
        ))?;
        self.score_line()
    }

    /// `Score of A vs B: W - L - D  [points] games`.
    fn score_line(&mut self) -> Result<(), MatchError> {
        let tally = self.tally;
        let [a, b] = self.names.clone();
        self.say(format_args!(
            "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}",
            tally.wins,
            tally.losses,
            tally.draws,
            tally.points(),
            tally.games()
        ))
    }

    /// The totals at the end.
    fn summary(&mut self) -> Result<(), MatchError> {
        let text = self.summary_text();
        write!(self.out, "{text}")
            .and_then(|()| self.out.flush())
            .map_err(MatchError::Write)
    }

    /// The totals of the games so far, as lines.
    fn summary_text(&self) -> String {
        let tally = self.tally;
        let elo = tally.elo();
        let [a, b] = &self.names;
        let games = tally.games();
        let mut text = format!(
            "{a} against {b}: {} won, {} drawn, {} lost of {}: {:.1}% of the points\n",
            tally.wins,
            tally.draws,
            tally.losses,
            counted(games, "game", "games"),
            100.0 * tally.points()
        );
        text.push_str(&format!(
            "Elo difference: {} +/- {} (95%)\n",
            signed_figure(elo.difference),
            figure(elo.margin)
        ));
        if tally.played_out > 0 {
            text.push_str(&format!(
                "Mean margin: {:+.2} discs over the {} played out\n",
                tally.mean_margin(),
                counted(tally.played_out, "game", "games")
            ));
        }
        if tally.a_forfeits + tally.b_forfeits > 0 {
            text.push_str(&format!(
                "Forfeits: {a} {}, {b} {}\n",
                tally.a_forfeits, tally.b_forfeits
            ));
        }
        let per_game = |cpu: Duration| cpu.as_secs_f64() / f64::from(games.max(1));
        let [cpu_a, cpu_b] = self.cpu;
        text.push_str(&format!(
            "CPU time: {a} {:.1} s ({:.2} s a game), {b} {:.1} s ({:.2} s a game)\n",
            cpu_a.as_secs_f64(),
            per_game(cpu_a),
            cpu_b.as_secs_f64(),
            per_game(cpu_b)
        ));
        text
    }
}

/// The result of a game (`40-24`, or `1-0` for a forfeit) and why (`black wins by 16`,
/// `white forfeits: illegal move a1`).
fn describe(finished: &Finished) -> (String, String) {
    if let Some(forfeit) = &finished.forfeit {
        let result = if forfeit.color == Color::Black {
            "0-1"
        } else {
            "1-0"
        };
        return (
            result.to_owned(),
            format!("{} forfeits: {}", forfeit.color, forfeit.fault),
        );
    }
    let score = finished.end.score();
    let margin = finished.end.margin(Color::Black);
    let why = match finished.winner() {
        None => "draw".to_owned(),
        Some(color) => format!("{color} wins by {}", margin.abs()),
    };
    (format!("{}-{}", score.black, score.white), why)
}

/// A number of Elo to one decimal, `inf` when a side took every point, `-` before any game.
fn figure(value: f64) -> String {
    if value.is_nan() {
        "-".to_owned()
    } else if value.is_infinite() {
        "inf".to_owned()
    } else {
        format!("{value:.1}")
    }
}

/// [`figure`] with its sign.
fn signed_figure(value: f64) -> String {
    if value.is_nan() {
        figure(value)
    } else if value.is_infinite() {
        format!("{}inf", if value > 0.0 { '+' } else { '-' })
    } else {
        format!("{value:+.1}")
    }
}

/// The record of a finished game: players, the result from Black's point of view (`:r` for
/// a forfeit, `:t` for a time-out, as GGF writes them) and a comment saying why a game was
/// forfeited.
fn record_of(finished: &Finished, black: &str, white: &str) -> GameRecord {
    let mut metadata = Metadata {
        black: Some(black.to_owned()),
        white: Some(white.to_owned()),
        event: Some("othello match".to_owned()),
        ..Metadata::default()
    };
    metadata.result = Some(match &finished.forfeit {
        None => format!("{:+}.000", finished.end.margin(Color::Black)),
        Some(forfeit) => {
            let sign = if forfeit.color == Color::Black {
                '-'
            } else {
                '+'
            };
            let how = if matches!(forfeit.fault, Fault::Timeout(_)) {
                't'
            } else {
                'r'
            };
            metadata.properties.push((
                "C".to_owned(),
                format!("{} forfeits: {}", forfeit.color, forfeit.fault),
            ));
            format!("{sign}64.000:{how}")
        }
    });
    GameRecord::from_squares(&standard_start(), finished.moves.iter().copied(), metadata)
        .expect("the moves were played")
}
