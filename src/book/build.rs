//! `othello book build`, `step` and `merge`: a book grown on one machine, or a step at a time
//! with its searches spread over many (`step --shard K/N` on each, then `merge`), with the same
//! book as the result.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Args;

use othello::text::counted;
use othello_engine::book::Book;
use othello_engine::book::BookPosition;
use othello_engine::book::build::{self as book_build, BuildConfig, Builder, Plan};

use othello_io::atomic::{check_overwrite, same_file, write_atomic};
use othello_io::book::{BookFileError, MAX_BOOK_BYTES, read_book};
use othello_io::progress;

use super::{BookCliError, held, say};
use crate::shard::{Shard, parse_shard};

/// How each position is searched: the options of `build` and `step`.
#[derive(Debug, Args)]
pub(super) struct SearchArgs {
    /// Depth of each position's search, in plies.
    #[arg(long, value_name = "PLIES", default_value_t = BuildConfig::default().depth, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,

    /// Seed of the search engine.
    #[arg(long, value_name = "N", default_value_t = BuildConfig::default().seed)]
    seed: u64,

    /// Transposition table size in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = othello_io::options::parse_hash)]
    hash: u32,

    /// Save at least this often, in seconds (and at the end).
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    save_every: u64,
}

/// Which positions the steps search: the options of `build`, `step` and `merge`, which must be
/// the same for the steps of one build.
#[derive(Debug, Args)]
pub(super) struct PlanArgs {
    /// Every position of the first N moves goes into the book.
    #[arg(long, value_name = "N", default_value_t = BuildConfig::default().plies, value_parser = clap::value_parser!(u32).range(0..=8))]
    plies: u32,

    /// Stop once the book holds this many positions.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    positions: u64,

    /// Leaves each step expands, all chosen from the same book (1: the best line first, one
    /// leaf at a time).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    batch: u64,
}

impl PlanArgs {
    /// The next step of a build of `book`, `None` once it holds `--positions` or has no leaf
    /// left.
    fn plan(&self, book: &Book) -> Option<Plan> {
        if book.len() as u64 >= self.positions {
            return None;
        }
        book_build::plan(book, self.plies, self.batch as usize)
    }
}

/// Arguments of `othello book build`.
#[derive(Debug, Args)]
pub(super) struct BuildArgs {
    /// The book file to write; a book already there is continued.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace --out, and start afresh, when it is not a book.
    #[arg(long)]
    force: bool,

    #[command(flatten)]
    search: SearchArgs,

    #[command(flatten)]
    plan: PlanArgs,
}

/// Arguments of `othello book step`.
#[derive(Debug, Args)]
pub(super) struct StepArgs {
    /// The book as it stands (binary or text); a file that does not exist yet is an empty
    /// book, whose first step scores the start.
    #[arg(value_name = "BOOK")]
    book: PathBuf,

    /// The part file to write: the step's positions of this shard, with their scores (a book
    /// file). A part of this shard left by a stopped run is continued; any other file is
    /// refused unless --force.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Search only the K-th of N equal parts of the step's positions.
    #[arg(long, value_name = "K/N", value_parser = parse_shard, default_value = "1/1")]
    shard: Shard,

    /// Replace --out when it is not this shard's part.
    #[arg(long)]
    force: bool,

    #[command(flatten)]
    search: SearchArgs,

    #[command(flatten)]
    plan: PlanArgs,
}

/// Arguments of `othello book merge`.
#[derive(Debug, Args)]
pub(super) struct MergeArgs {
    /// The book the step started from (a file that does not exist yet is an empty book).
    #[arg(value_name = "BOOK")]
    book: PathBuf,

    /// The step's parts, in shard order (1/N first); they are removed once merged.
    #[arg(required = true, value_name = "PART")]
    parts: Vec<PathBuf>,

    /// The book file to write (usually BOOK itself).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,

    /// Replace --out when it is not a book.
    #[arg(long)]
    force: bool,

    #[command(flatten)]
    plan: PlanArgs,
}

/// A flag raised by the first Ctrl-C (or SIGTERM), which stops the search under way so that
/// what is done is saved; a second one ends the program at once.
fn interrupt_flag() -> &'static AtomicBool {
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    &INTERRUPTED
}

/// Refuses to replace `path` unless it is missing, a book, or `force`.
fn check_book_out(path: &Path, force: bool) -> Result<(), BookCliError> {
    check_overwrite(path, force, MAX_BOOK_BYTES, |bytes| {
        othello_io::book::parse_book(bytes)
            .map(drop)
            .map_err(|error| format!("not a book ({error})"))
    })?;
    Ok(())
}

/// The book at `path`: an empty book when no file is there.
fn read_or_empty(path: &Path) -> Result<Book, BookCliError> {
    if !path.exists() {
        return Ok(Book::new());
    }
    Ok(read_book(path)?)
}

fn config(search: &SearchArgs, plan: &PlanArgs) -> BuildConfig {
    BuildConfig {
        depth: search.depth,
        plies: plan.plies,
        seed: search.seed,
        hash_mb: search.hash as usize,
    }
}

pub(super) fn build(args: &BuildArgs) -> Result<(), BookCliError> {
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
                return Err(BookFileError::NotABook {
                    path: args.out.clone(),
                    source,
                }
                .into());
            }
        },
        _ => Book::new(),
    };
    let mut builder =
        Builder::new(start, config(&args.search, &args.plan)).map_err(BookCliError::Engine)?;
    let stop = interrupt_flag();
    let began = Instant::now();
    let bar = progress::bar(args.plan.positions, "positions");
    bar.set_position(builder.book().len() as u64);
    let mut saved = Instant::now();
    let mut unsaved = false;
    let batch = args.plan.batch as usize;
    let outcome = loop {
        if builder.book().len() as u64 >= args.plan.positions {
            break Ok(());
        }
        match builder.step(batch, stop) {
            Ok(Some(_)) => unsaved = true,
            Ok(None) => break Ok(()),
            Err(_) => break Err(()),
        }
        bar.set_position(builder.book().len() as u64);
        if saved.elapsed() >= Duration::from_secs(args.search.save_every) {
            save(&args.out, builder.book())?;
            unsaved = false;
            saved = Instant::now();
            bar.suspend(|| status(&args.out, builder.book(), began))?;
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
    status(&args.out, book, began)
}

/// The positions of `plan` that shard `shard` searches.
fn shard_targets(plan: Option<&Plan>, shard: Shard) -> &[BookPosition] {
    plan.map_or(&[], |plan| {
        let range = shard.games(plan.targets.len() as u64);
        &plan.targets[range.start as usize..range.end as usize]
    })
}

/// A part's positions, canonical, in key order.
fn positions(part: &Book) -> BTreeSet<BookPosition> {
    part.iter().map(|(position, _)| position).collect()
}

pub(super) fn step(args: &StepArgs) -> Result<(), BookCliError> {
    if same_file(&args.book, &args.out) {
        return Err(BookCliError::SameFile {
            path: args.out.clone(),
            what: "the book",
        });
    }
    let book = read_or_empty(&args.book)?;
    let plan = args.plan.plan(&book);
    let targets = shard_targets(plan.as_ref(), args.shard);
    check_book_out(&args.out, args.force)?;
    // A part of this shard left by a stopped run is continued; anything else is refused.
    let mut part = read_book(&args.out).unwrap_or_default();
    let wanted: BTreeSet<BookPosition> = targets.iter().copied().collect();
    if !positions(&part).is_subset(&wanted) {
        if args.force {
            part = Book::new();
        } else {
            return Err(BookCliError::Part {
                path: args.out.clone(),
                reason: format!(
                    "holds positions that are not shard {} of the next step of {} (a part not merged, or another build's); --force replaces it",
                    args.shard,
                    args.book.display()
                ),
            });
        }
    }
    let mut builder =
        Builder::new(book, config(&args.search, &args.plan)).map_err(BookCliError::Engine)?;
    let stop = interrupt_flag();
    let began = Instant::now();
    let bar = progress::bar(targets.len() as u64, "positions");
    let mut saved = Instant::now();
    let mut stopped = false;
    for &position in targets {
        if part.contains(position) {
            bar.inc(1);
            continue;
        }
        let Ok(entry) = builder.score(position, stop) else {
            stopped = true;
            break;
        };
        part.insert(position, entry)
            .expect("a scored book position is valid");
        bar.inc(1);
        if saved.elapsed() >= Duration::from_secs(args.search.save_every) {
            save(&args.out, &part)?;
            saved = Instant::now();
        }
    }
    bar.finish_and_clear();
    save(&args.out, &part)?;
    if stopped {
        return Err(BookCliError::Interrupted {
            path: args.out.clone(),
            positions: part.len(),
        });
    }
    let what = match &plan {
        None => "the book is complete: nothing to search".to_owned(),
        Some(plan) => format!(
            "{} of the step's {} (it expands {})",
            counted(targets.len(), "position", "positions"),
            plan.targets.len(),
            counted(plan.leaves.len(), "leaf", "leaves"),
        ),
    };
    say(&format!(
        "{}: shard {}: {what} ({:.0} s)\n",
        args.out.display(),
        args.shard,
        began.elapsed().as_secs_f64()
    ))
}

pub(super) fn merge(args: &MergeArgs) -> Result<(), BookCliError> {
    for part in &args.parts {
        if same_file(part, &args.out) {
            return Err(BookCliError::SameFile {
                path: args.out.clone(),
                what: "a part",
            });
        }
    }
    let mut book = read_or_empty(&args.book)?;
    let parts = args
        .parts
        .iter()
        .map(|path| read_book(path).map_err(BookCliError::from))
        .collect::<Result<Vec<Book>, _>>()?;
    check_book_out(&args.out, args.force)?;
    // A merge run again after it succeeded finds its parts in the book.
    let already = parts.iter().any(|part| !part.is_empty())
        && parts
            .iter()
            .all(|part| part.iter().all(|(position, _)| book.contains(position)));
    let before = book.len();
    let plan = args.plan.plan(&book);
    if !already {
        let count = args.parts.len() as u64;
        for ((index, path), part) in (1..).zip(&args.parts).zip(&parts) {
            let shard = Shard { index, count };
            let wanted = shard_targets(plan.as_ref(), shard);
            let held = positions(part);
            if held.iter().ne(wanted.iter()) {
                let reason = if held.iter().all(|position| wanted.contains(position)) {
                    format!(
                        "holds {} of the {} of shard {shard} of the step (not finished, or not that shard)",
                        held.len(),
                        counted(wanted.len(), "position", "positions"),
                    )
                } else {
                    format!(
                        "holds positions that are not shard {shard} of the step from {} (another step's part, or not that shard)",
                        args.book.display()
                    )
                };
                return Err(BookCliError::Part {
                    path: path.clone(),
                    reason,
                });
            }
        }
        for part in &parts {
            book.merge(part);
        }
    }
    save(&args.out, &book)?;
    // The parts' positions are in the book for good: the parts go, so that the next step's
    // parts can take their names.
    for path in &args.parts {
        std::fs::remove_file(path).map_err(|source| BookCliError::Part {
            path: path.clone(),
            reason: format!("merged, but cannot be removed: {source}"),
        })?;
    }
    let added = if already {
        "the parts were merged already".to_owned()
    } else if plan.is_none() {
        "the book is complete: nothing added".to_owned()
    } else {
        format!(
            "{} added from {}",
            book.len() - before,
            counted(parts.len(), "part", "parts")
        )
    };
    say(&format!("{} ({added})\n", held(&args.out, &book)))
}

/// Writes `book` to `path` atomically.
pub(super) fn save(path: &Path, book: &Book) -> Result<(), BookCliError> {
    write_atomic(path, &book.to_bytes()).map_err(|source| {
        BookFileError::Write {
            path: path.to_owned(),
            source,
        }
        .into()
    })
}

/// One line on the book saved: its positions and the time so far.
fn status(path: &Path, book: &Book, began: Instant) -> Result<(), BookCliError> {
    say(&format!(
        "{} ({:.0} s)\n",
        held(path, book),
        began.elapsed().as_secs_f64()
    ))
}
