//! `othello book`: the opening book of 8x8 Othello. `build` makes (or continues) a book file,
//! `show` prints what a book says of a position, `export` writes a book as text and `import`
//! reads books (text or binary) into one book file.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use thiserror::Error;

use othello::book::build::{BuildConfig, Builder};
use othello::book::{Book, BookError};
use othello::record::{ReadOptions, movelist};
use othello::session::BookChoice;
use othello::text::counted;
use othello::{Dimensions, Game, RuleSet, Setup};

use super::atomic::{NotOurs, check_overwrite, write_atomic};
use super::progress;

/// The largest book file read (binary or text): far more than any book built in an hour.
const MAX_BOOK_BYTES: usize = 1 << 28;

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
    /// Show what a book says of the position after some moves: its value, each move's value
    /// and the book's line.
    Show(ShowArgs),
    /// Write a book as text, one position per line, for people to read and edit.
    Export(ExportArgs),
    /// Read books (text as `export` writes it, or binary) into one book file; a position in
    /// several keeps its deepest score.
    Import(ImportArgs),
}

/// Arguments of `othello book build`.
#[derive(Debug, Args)]
struct BuildArgs {
    /// The book file to write; a book already there is continued.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace --out, and start afresh, when it is not a book.
    #[arg(long)]
    force: bool,

    /// Depth of each position's search, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = BuildConfig::default().depth, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,

    /// Every position of the first N moves goes into the book.
    #[arg(long, value_name = "N", default_value_t = BuildConfig::default().plies, value_parser = clap::value_parser!(u32).range(0..=8))]
    plies: u32,

    /// Stop once the book holds this many positions.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    positions: u64,

    /// Seed of the search engine.
    #[arg(long, value_name = "N", default_value_t = BuildConfig::default().seed)]
    seed: u64,

    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = super::parse_hash)]
    hash: u32,

    /// Save the book at least this often, in seconds (and at the end).
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    save_every: u64,
}

/// Where a book comes from: the built-in one, or a file.
#[derive(Debug, Args)]
pub struct BookSource {
    /// A book file (binary, or text as `othello book export` writes it) instead of the
    /// built-in book.
    #[arg(long, value_name = "FILE")]
    book: Option<PathBuf>,
}

/// `--book FILE` and `--no-book` of the commands that play (`play`, `nboard`, `gtp`).
#[derive(Debug, Args)]
pub struct UseBookArgs {
    /// Play from this opening book (binary, or text as `othello book export` writes it)
    /// instead of the built-in one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    book: Option<PathBuf>,

    /// Play without an opening book: search every move.
    #[arg(long)]
    no_book: bool,
}

impl UseBookArgs {
    /// The book to play from: the file, the built-in book, or none with `--no-book`.
    pub fn book(&self) -> Result<Option<Arc<Book>>, BookCliError> {
        if self.no_book {
            return Ok(None);
        }
        match &self.book {
            Some(path) => read_book(path).map(|book| Some(Arc::new(book))),
            None => Ok(Some(Book::builtin())),
        }
    }

    /// The book file given (`--book FILE`; not standard input), where learnt games are saved.
    pub fn file(&self) -> Option<&Path> {
        self.book
            .as_deref()
            .filter(|path| !self.no_book && *path != Path::new("-"))
    }

    /// The book of the computer players of `othello play`.
    pub fn choice(&self) -> Result<BookChoice, BookCliError> {
        Ok(match self.book()? {
            None => BookChoice::Off,
            Some(book) if self.book.is_some() => BookChoice::Custom(book),
            Some(_) => BookChoice::Builtin,
        })
    }
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
    /// A book file could not be read.
    #[error("{path}: {source}", path = .path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// A file is not a book, or a damaged one.
    #[error("{path}: {source}", path = .path.display())]
    NotABook {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: BookError,
    },
    /// A file is larger than any book.
    #[error("{path}: larger than {MAX_BOOK_BYTES} bytes; not a book", path = .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The moves of `show` are not a game from the start.
    #[error("moves {moves:?}: {reason}")]
    Moves {
        /// The moves as given.
        moves: String,
        /// What is wrong with them.
        reason: String,
    },
    /// The output file is not one this command writes.
    #[error(transparent)]
    NotOurs(#[from] NotOurs),
    /// The book could not be written.
    #[error("{path}: {source}", path = .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Stdout(io::Error),
    /// The search's table could not be had.
    #[error("cannot start the engine: {0}; use a smaller --hash")]
    Engine(othello::EngineError),
    /// The build was interrupted (after saving its book).
    #[error("interrupted; {path} holds {positions} positions, and the same command continues it", path = .path.display())]
    Interrupted {
        /// The book file.
        path: PathBuf,
        /// Positions saved.
        positions: usize,
    },
}

impl BookCliError {
    /// The exit status: 2 for input that is not what it should be (a file that cannot be
    /// read or is not a book, moves that are not a game, an output file not ours), 1 for a
    /// failed write, 130 for an interrupted build.
    pub fn exit_status(&self) -> u8 {
        match self {
            BookCliError::Open { .. }
            | BookCliError::NotABook { .. }
            | BookCliError::TooLarge { .. }
            | BookCliError::Moves { .. }
            | BookCliError::NotOurs(_)
            | BookCliError::Engine(_) => 2,
            BookCliError::Write { .. } | BookCliError::Stdout(_) => 1,
            BookCliError::Interrupted { .. } => 130,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, BookCliError::Stdout(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Runs `othello book`.
pub fn run(args: &BookArgs) -> Result<(), BookCliError> {
    match &args.action {
        Action::Build(args) => build(args),
        Action::Show(args) => show(args),
        Action::Export(args) => export(args),
        Action::Import(args) => import(args),
    }
}

/// Reads a book file, binary or text (told apart by the binary form's first bytes); `-` is
/// standard input.
pub fn read_book(path: &Path) -> Result<Book, BookCliError> {
    let open = |source| BookCliError::Open {
        path: path.to_owned(),
        source,
    };
    let mut bytes = Vec::new();
    let limit = MAX_BOOK_BYTES as u64 + 1;
    if path == Path::new("-") {
        io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        File::open(path)
            .map_err(open)?
            .take(limit)
            .read_to_end(&mut bytes)
    }
    .map_err(open)?;
    if bytes.len() > MAX_BOOK_BYTES {
        return Err(BookCliError::TooLarge {
            path: path.to_owned(),
        });
    }
    parse_book(&bytes).map_err(|source| BookCliError::NotABook {
        path: path.to_owned(),
        source,
    })
}

/// A book from the bytes of a file: the binary form if it starts like one, else text.
fn parse_book(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.starts_with(b"othbook") {
        return Book::from_bytes(bytes);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Book::from_text(text),
        Err(_) => Err(BookError::Magic),
    }
}

/// Saves a book that learnt a game into the file it was read from, in the file's form (binary,
/// or text as `book export` writes it), atomically.
///
/// # Errors
/// [`BookCliError::NotOurs`] if the file is no longer a book (it is left as it is), or
/// [`BookCliError::Write`].
pub fn save_learnt(path: &Path, book: &Book) -> Result<(), BookCliError> {
    let mut text = false;
    check_overwrite(path, false, MAX_BOOK_BYTES, |bytes| {
        text = !bytes.starts_with(b"othbook");
        parse_book(bytes)
            .map(drop)
            .map_err(|error| format!("no longer a book ({error})"))
    })?;
    let bytes = if text {
        book.to_text().into_bytes()
    } else {
        book.to_bytes()
    };
    write_atomic(path, &bytes).map_err(|source| BookCliError::Write {
        path: path.to_owned(),
        source,
    })
}

/// The book a command uses: `--book FILE`, or the built-in one.
pub fn source_book(source: &BookSource) -> Result<Arc<Book>, BookCliError> {
    match &source.book {
        Some(path) => read_book(path).map(Arc::new),
        None => Ok(Book::builtin()),
    }
}

/// A flag raised by the first Ctrl-C (or SIGTERM), which stops the build's step under way so
/// that the book is saved; a second one ends the program at once.
fn interrupt_flag() -> &'static AtomicBool {
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    &INTERRUPTED
}

fn build(args: &BuildArgs) -> Result<(), BookCliError> {
    check_overwrite(&args.out, args.force, MAX_BOOK_BYTES, |bytes| {
        Book::from_bytes(bytes)
            .map(drop)
            .map_err(|error| format!("not a book ({error})"))
    })?;
    let start = match std::fs::read(&args.out) {
        Ok(bytes) if !bytes.is_empty() => match Book::from_bytes(&bytes) {
            Ok(book) => book,
            Err(_) if args.force => Book::new(),
            Err(source) => {
                return Err(BookCliError::NotABook {
                    path: args.out.clone(),
                    source,
                });
            }
        },
        _ => Book::new(),
    };
    let config = BuildConfig {
        depth: args.depth,
        plies: args.plies,
        seed: args.seed,
        hash_mb: args.hash as usize,
    };
    let mut builder = Builder::new(start, config).map_err(BookCliError::Engine)?;
    let stop = interrupt_flag();
    let began = Instant::now();
    let bar = progress::bar(args.positions, "positions");
    bar.set_position(builder.book().len() as u64);
    let mut saved = Instant::now();
    let mut out = io::stdout().lock();
    let mut unsaved = false;
    let outcome = loop {
        if builder.book().len() as u64 >= args.positions {
            break Ok(());
        }
        match builder.step(stop) {
            Ok(Some(_)) => unsaved = true,
            Ok(None) => break Ok(()),
            Err(_) => break Err(()),
        }
        bar.set_position(builder.book().len() as u64);
        if saved.elapsed() >= Duration::from_secs(args.save_every) {
            save(&args.out, builder.book())?;
            unsaved = false;
            saved = Instant::now();
            bar.suspend(|| status(&mut out, &args.out, builder.book(), began))?;
        }
    };
    bar.finish_and_clear();
    if unsaved || !args.out.exists() {
        save(&args.out, builder.book())?;
    }
    let book = builder.book();
    if outcome.is_err() {
        return Err(BookCliError::Interrupted {
            path: args.out.clone(),
            positions: book.len(),
        });
    }
    status(&mut out, &args.out, book, began)
}

fn save(path: &Path, book: &Book) -> Result<(), BookCliError> {
    write_atomic(path, &book.to_bytes()).map_err(|source| BookCliError::Write {
        path: path.to_owned(),
        source,
    })
}

/// One line on the book saved: its positions and the time so far.
fn status(
    out: &mut impl Write,
    path: &Path,
    book: &Book,
    began: Instant,
) -> Result<(), BookCliError> {
    writeln!(
        out,
        "{}: {}, {} expanded ({:.0} s)",
        path.display(),
        counted(book.len(), "position", "positions"),
        book.expanded(),
        began.elapsed().as_secs_f64()
    )
    .and_then(|()| out.flush())
    .map_err(BookCliError::Stdout)
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
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(BookCliError::Stdout)
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
        let mut out = io::stdout().lock();
        return out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(BookCliError::Stdout);
    };
    check_overwrite(path, args.force, MAX_BOOK_BYTES, |bytes| {
        std::str::from_utf8(bytes)
            .ok()
            .and_then(|text| Book::from_text(text).ok())
            .map(drop)
            .ok_or_else(|| "not a book's text".to_owned())
    })?;
    write_atomic(path, text.as_bytes()).map_err(|source| BookCliError::Write {
        path: path.clone(),
        source,
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
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{}: {}, {} expanded",
        args.out.display(),
        counted(book.len(), "position", "positions"),
        book.expanded()
    )
    .and_then(|()| out.flush())
    .map_err(BookCliError::Stdout)
}
