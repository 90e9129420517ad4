//! `othello match`: two players (this engine at a level or node budget, or external engines
//! speaking GTP or NBoard) play balanced openings with both colours; the score, an Elo estimate
//! and the CPU time of each side are printed as games finish, and every game is saved (GGF).
//!
//! The library (`othello_engine::arena`) schedules the games, plays them and keeps the tally; this
//! front end starts the external engines ([`external`]), measures CPU time, runs one pair of
//! players on each of `--concurrency` threads, prints, and rewrites the saved games after each
//! one (atomically), so that an interrupted match keeps the games it finished.
//!
//! The failures are in `error`, the players and openings read before the match in `load`, the
//! workers and the sides they play with in `worker`, the printed score and the saved games in
//! `report`.

mod error;
mod external;
mod load;
mod report;
mod worker;

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;
use std::time::Duration;

use clap::Args;

use othello::text::counted;
use othello_engine::arena::spec::Contender;
use othello_engine::arena::{Openings, Schedule, TimeControl};
use othello_records::{self as record, ReadOptions};

use super::Failure;
use load::{load_engine, read_openings};
use othello_io::atomic::check_overwrite;
use othello_io::input::MAX_INPUT_BYTES;
use report::Report;
use worker::{Plan, Side, worker};

pub use error::MatchError;

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
runs out of time on the --clock, or crashes is lost by that player (forfeited); an engine is
restarted after such a fault. On a --clock, GTP engines are told it (time_settings at the start
of a game, time_left before each genmove), this engine thinks by it, and NBoard engines, whose
protocol has no clock, play as set.

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

    /// Each player's time for a game and the increment a move (Fischer), in seconds: 60, or
    /// 10+0.1. A move is timed from the question to the answer; a player whose move takes
    /// longer than its time left loses the game.
    #[arg(long, value_name = "SECONDS[+SECONDS]")]
    clock: Option<TimeControl>,

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
        clock: args.clock,
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
