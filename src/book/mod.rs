//! `othello book`: the opening book of 8x8 Othello. `build` makes (or continues) a book file,
//! `step` and `merge` do its steps as shards on many machines, `show` prints what a book says of
//! a position, `export` writes a book as text and `import` reads books (text or binary) into
//! one book file.

mod build;

use std::io::{self, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand};
use thiserror::Error;

use build::{BuildArgs, MergeArgs, StepArgs, save};
use othello::text::counted;
use othello::{Dimensions, Game, RuleSet, Setup};
use othello_engine::book::Book;
use othello_records::{ReadOptions, movelist};

use othello_io::atomic::{NotOurs, check_overwrite, write_atomic};
use othello_io::book::{BookFileError, BookSource, MAX_BOOK_BYTES, read_book, source_book};

/// Arguments of `othello book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    #[command(subcommand)]
    action: Action,
}

/// What to do with a book.
#[derive(Debug, Subcommand)]
enum Action {
    /// Build a book file, or continue the one at --out: score the positions of the first
    /// --plies moves, then expand the best lines until the book holds --positions positions.
    /// Ctrl-C saves the book as of its last finished step.
    Build(BuildArgs),
    /// One step of a build, or one shard of it (--shard K/N), for a scheduler to spread over
    /// machines: search the positions the step's leaves lead to, into a part file.
    Step(StepArgs),
    /// Add a step's parts (given in shard order) to the book, once they hold all of the step.
    Merge(MergeArgs),
    /// Show what a book says of the position after some moves: its value, each move's value
    /// and the book's line.
    Show(ShowArgs),
    /// Write a book as text, one position per line, for people to read and edit.
    Export(ExportArgs),
    /// Read books (text as `export` writes it, or binary) into one book file; a position in
    /// several keeps its deepest score.
    Import(ImportArgs),
}

/// Arguments of `othello book show`.
#[derive(Debug, Args)]
struct ShowArgs {
    #[command(flatten)]
    source: BookSource,

    /// Moves from the start, such as f5d6c3 (none: the start).
    #[arg(value_name = "MOVES", default_value = "")]
    moves: String,
}

/// Arguments of `othello book export`.
#[derive(Debug, Args)]
struct ExportArgs {
    #[command(flatten)]
    source: BookSource,

    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,

    /// Replace --out even when it is not a book's text.
    #[arg(long)]
    force: bool,
}

/// Arguments of `othello book import`.
#[derive(Debug, Args)]
struct ImportArgs {
    /// Books to read, text or binary; `-` is standard input.
    #[arg(required = true, value_name = "FILE")]
    inputs: Vec<PathBuf>,

    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace --out even when it is not a book.
    #[arg(long)]
    force: bool,
}

/// Why `othello book` failed.
#[derive(Debug, Error)]
pub enum BookCliError {
    /// A book file could not be read or written.
    #[error(transparent)]
    File(#[from] BookFileError),
    /// The moves of `show` are not a game from the start.
    #[error("moves {moves:?}: {reason}")]
    Moves {
        /// The moves as given.
        moves: String,
        /// What is wrong with them.
        reason: String,
    },
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Stdout(io::Error),
    /// The search's table could not be had.
    #[error("cannot start the engine: {0}; use a smaller --hash")]
    Engine(othello_engine::EngineError),
    /// The build was interrupted (after saving its book).
    #[error("interrupted; {path} holds {positions} positions, and the same command continues it", path = .path.display())]
    Interrupted {
        /// The book file.
        path: PathBuf,
        /// Positions saved.
        positions: usize,
    },
    /// A part of a step is not what the step needs there (`step`'s output, `merge`'s input).
    #[error("{path}: {reason}", path = .path.display())]
    Part {
        /// The part file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// An output file is also an input of the command.
    #[error("{path}: is also {what}; give another --out", path = .path.display())]
    SameFile {
        /// The output file.
        path: PathBuf,
        /// Which input it is.
        what: &'static str,
    },
}

impl BookCliError {
    /// The exit status: 2 for input that is not what it should be (a file that cannot be
    /// read or is not a book, moves that are not a game, an output file not ours or also an
    /// input), 1 for a failed write or a part that is not the step's, 130 for an interrupted
    /// build or step.
    pub fn exit_status(&self) -> u8 {
        match self {
            BookCliError::File(error) => error.exit_status(),
            BookCliError::Moves { .. }
            | BookCliError::Engine(_)
            | BookCliError::SameFile { .. } => 2,
            BookCliError::Stdout(_) | BookCliError::Part { .. } => 1,
            BookCliError::Interrupted { .. } => 130,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, BookCliError::Stdout(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl From<NotOurs> for BookCliError {
    fn from(error: NotOurs) -> BookCliError {
        BookCliError::File(error.into())
    }
}

/// Runs `othello book`.
pub fn run(args: &BookArgs) -> Result<(), BookCliError> {
    match &args.action {
        Action::Build(args) => build::build(args),
        Action::Step(args) => build::step(args),
        Action::Merge(args) => build::merge(args),
        Action::Show(args) => show(args),
        Action::Export(args) => export(args),
        Action::Import(args) => import(args),
    }
}

fn show(args: &ShowArgs) -> Result<(), BookCliError> {
    let book = source_book(&args.source)?;
    let game = game_after(&args.moves)?;
    let mut text = format!(
        "book: {}, {} expanded\n",
        counted(book.len(), "position", "positions"),
        book.expanded()
    );
    let moves_text = if args.moves.trim().is_empty() {
        "the start".to_owned()
    } else {
        args.moves.trim().to_owned()
    };
    match book.get(&game) {
        None => text.push_str(&format!("{moves_text}: not in the book\n")),
        Some(known) => {
            let search = if known.entry.exact {
                format!("exact {:+}", known.entry.score)
            } else {
                format!("{:+} at depth {}", known.entry.score, known.entry.depth)
            };
            text.push_str(&format!(
                "{moves_text}: value {:+} for {} (its search: {search})\n",
                known.value,
                game.turn().map_or("nobody".to_owned(), |c| c.to_string()),
            ));
            match book.moves(&game) {
                Some(moves) => {
                    let list: Vec<String> = moves
                        .iter()
                        .map(|m| format!("{} {:+}", m.square, m.value))
                        .collect();
                    text.push_str(&format!("moves: {}\n", list.join(", ")));
                    let line: Vec<String> =
                        book.line(&game).iter().map(ToString::to_string).collect();
                    text.push_str(&format!("line: {}\n", line.join(" ")));
                }
                None => text.push_str("moves: not all in the book (a leaf)\n"),
            }
        }
    }
    say(&text)
}

/// Writes `text` to standard output and flushes it.
fn say(text: &str) -> Result<(), BookCliError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(BookCliError::Stdout)
}

/// `PATH: N positions, M expanded`: what a book file written holds.
fn held(path: &std::path::Path, book: &Book) -> String {
    format!(
        "{}: {}, {} expanded",
        path.display(),
        counted(book.len(), "position", "positions"),
        book.expanded()
    )
}

/// The 8x8 game after `moves` from the start.
fn game_after(moves: &str) -> Result<Game, BookCliError> {
    let start = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    if moves.trim().is_empty() {
        return Ok(start);
    }
    let bad = |reason: String| BookCliError::Moves {
        moves: moves.to_owned(),
        reason,
    };
    let records =
        movelist::read(moves, &ReadOptions::default()).map_err(|error| bad(error.to_string()))?;
    match &records[..] {
        [record] if record.starts_standard() && record.dims() == Dimensions::STANDARD => {
            Ok(record.final_game().clone())
        }
        _ => Err(bad(
            "expected one game's moves from the 8x8 start".to_owned()
        )),
    }
}

fn export(args: &ExportArgs) -> Result<(), BookCliError> {
    let book = source_book(&args.source)?;
    let text = book.to_text();
    let Some(path) = &args.out else {
        return say(&text);
    };
    check_overwrite(path, args.force, MAX_BOOK_BYTES, |bytes| {
        std::str::from_utf8(bytes)
            .ok()
            .and_then(|text| Book::from_text(text).ok())
            .map(drop)
            .ok_or_else(|| "not a book's text".to_owned())
    })?;
    write_atomic(path, text.as_bytes()).map_err(|source| {
        BookFileError::Write {
            path: path.clone(),
            source,
        }
        .into()
    })
}

fn import(args: &ImportArgs) -> Result<(), BookCliError> {
    let mut book = Book::new();
    for path in &args.inputs {
        book.merge(&read_book(path)?);
    }
    check_overwrite(&args.out, args.force, MAX_BOOK_BYTES, |bytes| {
        Book::from_bytes(bytes)
            .map(drop)
            .map_err(|error| format!("not a book ({error})"))
    })?;
    save(&args.out, &book)?;
    say(&format!("{}\n", held(&args.out, &book)))
}
