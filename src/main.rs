//! The `othello` command (package `othello-cli`): the console protocol by default, tools as
//! subcommands, one module a subcommand.
//!
//! Everything here is argument handling, dispatch and I/O: `play`, `serve`, `gen` and `check`
//! are the front-end crates `othello-play`, `othello-serve` and `othello-grade`; the rules,
//! records and engine are the library crates `othello`, `othello-records` and
//! `othello-engine`; what front ends share at their edge (files, options) is `othello-io`.

mod analyze;
mod book;
mod console;
mod convert;
mod gtp;
mod match_;
mod nboard;
mod perft;
mod rate;
mod shard;
mod solve;
mod train;
mod weights;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use thiserror::Error;

use othello::protocol::EndError;
use othello_io::options::{RulesArg, ThreadsError, parse_hash, thread_pool, threads_parser};
use othello_io::progress;

/// Othello on any even board from 4x4 to 16x16.
///
/// With no subcommand, plays the FULL/SIMPLE console protocol: reads the board size, the first
/// player, the win rule and the start position from standard input, then one move per line,
/// and prints the game exactly as the protocol specifies.
#[derive(Debug, Parser)]
#[command(name = "othello", version, args_conflicts_with_subcommands = true)]
#[command(
    after_help = "Exit status: 0 game over (or done), 1 input ended before the game was over, 2 bad setup or usage."
)]
pub struct Args {
    /// Rule set of the console protocol.
    #[arg(long, value_enum, ignore_case = true, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Play a game at the terminal, against a person or the computer.
    Play(othello_play::PlayArgs),
    /// Solve positions exactly (or search them within limits): best move, score, principal
    /// variation, nodes and speed.
    Solve(solve::SolveArgs),
    /// Review recorded games move by move: the engine's best move and value, the value of the
    /// move played and the discs it lost.
    Analyze(analyze::AnalyzeArgs),
    /// Convert game records between formats: move list, GGF, OBF, protocol input, WTHOR.
    Convert(convert::ConvertArgs),
    /// Write protocol test cases (NNNN.in and NNNN.out) to a directory.
    Gen(othello_grade::gen_command::GenArgs),
    /// Run a program on every test case of a directory and compare its output.
    Check(othello_grade::check::CheckArgs),
    /// Count the leaves of the game tree to a given depth (a check of the move generator and a
    /// measure of its speed).
    Perft(perft::PerftArgs),
    /// Make the 8x8 pattern evaluation's weights: self-play data, then the fit.
    Train(train::TrainArgs),
    /// Play a match between two engines (this one at a level or node budget, or external
    /// engines speaking GTP or NBoard) on balanced openings with both colours: score, Elo and
    /// CPU time.
    Match(match_::MatchArgs),
    /// Speak the NBoard protocol on standard input and output, as an engine for the NBoard GUI.
    Nboard(nboard::NBoardArgs),
    /// Speak the Go Text Protocol (GTP) on standard input and output, as an engine for
    /// Go-style front ends and tournament managers.
    Gtp(gtp::GtpArgs),
    /// Serve the board to a browser, to play on a phone or a desktop.
    Serve(othello_serve::ServeArgs),
    /// The opening book of 8x8 Othello: build one (on one machine, or step by step in shards
    /// on many), show what it says of a position, export it as text, import text or books into
    /// a book file.
    Book(book::BookArgs),
}

/// Why a command stopped early.
#[derive(Debug, Error)]
pub enum Failure {
    /// The protocol input was malformed or ended early.
    #[error(transparent)]
    Input(#[from] EndError),
    /// Standard input could not be read.
    #[error("cannot read standard input: {0}")]
    Read(io::Error),
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
    /// Standard output was closed before the program started.
    #[error("standard output is closed")]
    StdoutClosed,
    /// `othello play` failed.
    #[error(transparent)]
    Play(#[from] othello_play::PlayError),
    /// `othello solve` failed.
    #[error(transparent)]
    Solve(#[from] solve::SolveError),
    /// `othello analyze` failed.
    #[error(transparent)]
    Analyze(#[from] analyze::AnalyzeError),
    /// `othello convert` failed.
    #[error(transparent)]
    Convert(#[from] convert::ConvertError),
    /// `othello gen` or `othello check` failed, or some cases of `othello check` did not pass.
    #[error(transparent)]
    Grade(#[from] othello_grade::GradeError),
    /// `othello perft` could not start.
    #[error(transparent)]
    Perft(#[from] perft::PerftError),
    /// `othello train` failed.
    #[error(transparent)]
    Train(#[from] train::TrainError),
    /// `othello match` failed.
    #[error(transparent)]
    Match(#[from] match_::MatchError),
    /// The engine of `othello nboard` or `othello gtp` could not be set up.
    #[error("cannot start the engine: {0}; use a smaller --hash")]
    EngineStart(othello_engine::EngineError),
    /// `othello serve` could not run.
    #[error(transparent)]
    Serve(#[from] othello_serve::ServeError),
    /// `othello book` failed, or a book file could not be read.
    #[error(transparent)]
    Book(#[from] book::BookCliError),
    /// A book file could not be read.
    #[error(transparent)]
    BookFile(#[from] othello_io::book::BookFileError),
    /// A thread could not be started, or ended unexpectedly.
    #[error("cannot run the protocol's threads: {0}")]
    Thread(io::Error),
}

impl Failure {
    /// The process exit status: 1 for input that ended early (or could not be read or
    /// written), 2 for a bad setup; `gen` and `check`: see
    /// [`othello_grade::GradeError::exit_status`]; `perft`: 2 for a bad size or start position.
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        match self {
            Failure::Input(EndError::Setup(_)) | Failure::Perft(_) => 2,
            Failure::Input(EndError::GameNotOver { .. })
            | Failure::Read(_)
            | Failure::Write(_)
            | Failure::StdoutClosed
            | Failure::EngineStart(_)
            | Failure::Thread(_) => 1,
            Failure::Play(error) => error.exit_status(),
            Failure::Serve(error) => error.exit_status(),
            Failure::Solve(error) => error.exit_status(),
            Failure::Convert(error) => error.exit_status(),
            Failure::Analyze(error) => error.exit_status(),
            Failure::Grade(error) => error.exit_status(),
            Failure::Train(error) => error.exit_status(),
            Failure::Match(error) => error.exit_status(),
            Failure::Book(error) => error.exit_status(),
            Failure::BookFile(error) => error.exit_status(),
        }
    }

    /// The message for standard error; `None` when output was closed by its reader, which is
    /// how `othello ... | head` ends and not worth a word.
    #[must_use]
    pub fn message(&self) -> Option<String> {
        match self {
            Failure::Write(error) if error.kind() == io::ErrorKind::BrokenPipe => None,
            Failure::Play(error) if error.is_broken_pipe() => None,
            Failure::Solve(error) if error.is_broken_pipe() => None,
            Failure::Convert(error) if error.is_broken_pipe() => None,
            Failure::Analyze(error) if error.is_broken_pipe() => None,
            Failure::Train(error) if error.is_broken_pipe() => None,
            Failure::Match(error) if error.is_broken_pipe() => None,
            Failure::Book(error) if error.is_broken_pipe() => None,
            Failure::Grade(error) if error.is_broken_pipe() => None,
            // The report's summary line has said it.
            Failure::Grade(othello_grade::GradeError::CasesFailed { .. }) => None,
            failure => Some(failure.to_string()),
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message() {
                othello_io::warn(format_args!("othello: {message}"));
            }
            ExitCode::from(failure.exit_status())
        }
    }
}

/// Runs the command the arguments name.
///
/// # Errors
/// The command's failure, with its exit status.
pub fn run(args: Args) -> Result<(), Failure> {
    check_stdout_open()?;
    // A file size limit (`ulimit -f`) makes a write fail with an error to report, rather than
    // kill the program part-way through it.
    #[cfg(unix)]
    // SAFETY: ignoring a signal has no memory-safety preconditions.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    match args.command {
        None => console::run(args.rules.into()),
        Some(Command::Play(args)) => Ok(othello_play::run(args)?),
        Some(Command::Solve(solve_args)) => Ok(solve::run(&solve_args)?),
        Some(Command::Convert(args)) => Ok(convert::run(&args)?),
        Some(Command::Analyze(args)) => Ok(analyze::run(&args)?),
        Some(Command::Gen(args)) => Ok(othello_grade::gen_command::run(&args)?),
        Some(Command::Check(args)) => Ok(othello_grade::check::run(&args)?),
        Some(Command::Perft(perft_args)) => perft::run(&perft_args),
        Some(Command::Train(args)) => train::run(&args),
        Some(Command::Match(args)) => match_::run(&args),
        Some(Command::Nboard(args)) => nboard::run(&args),
        Some(Command::Gtp(args)) => gtp::run(&args),
        Some(Command::Serve(args)) => Ok(othello_serve::run(&args)?),
        Some(Command::Book(args)) => Ok(book::run(&args)?),
    }
}

/// Fails when standard output is closed (`othello >&-`), rather than writing into nothing.
///
/// The Rust runtime reopens a closed standard descriptor on `/dev/null` for reading and writing
/// before `main`, so that writes to it succeed unseen. A shell's `>/dev/null` opens it for
/// writing only; so standard output on `/dev/null` open for both is taken to be closed.
fn check_stdout_open() -> Result<(), Failure> {
    #[cfg(unix)]
    if stdout_was_closed() {
        return Err(Failure::StdoutClosed);
    }
    Ok(())
}

#[cfg(unix)]
fn stdout_was_closed() -> bool {
    use std::os::unix::fs::MetadataExt;

    // SAFETY: fcntl(F_GETFL) only reads the descriptor's flags; it has no memory-safety
    // preconditions.
    let flags = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFL) };
    if flags == -1 {
        return true;
    }
    if flags & libc::O_ACCMODE != libc::O_RDWR {
        return false;
    }
    let Ok(null) = std::fs::metadata("/dev/null") else {
        return false;
    };
    let Ok(stdout) = std::fs::metadata("/dev/stdout") else {
        return false;
    };
    stdout.rdev() == null.rdev() && stdout.dev() == null.dev() && stdout.ino() == null.ino()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn arguments_are_consistent() {
        Args::command().debug_assert();
    }
}
