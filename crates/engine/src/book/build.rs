//! Building a book: expanding leaves, best lines first, as Edax's book learning does.
//!
//! Each step takes the next leaf (a book position not yet expanded), or the next `batch` of
//! them, and scores every position their moves lead to that the book does not hold yet, by a
//! search of the configured depth (exact when the end is in reach, as [`limits_for_depth`]
//! says); then the book derives its values again. What a step scores ([`plan`]) depends on the
//! book alone, and each search only on its position, so a step's searches can be spread over
//! machines and their results added in any order. Which leaves come next:
//!
//! - first, every leaf fewer than [`BuildConfig::plies`] moves from the start (so that the book
//!   holds every position of the first `plies` moves), fewest moves first;
//! - then the leaf of least *cost*, where a path from the start costs, for each move past the
//!   first `plies`, one disc ([`PLY_COST`]) plus how far the move's value is below the best
//!   move's there (its *deviation*); moves more than [`MAX_DEVIATION`] below the best are not
//!   followed, nor leaves [`MAX_PLY`] moves deep. This is drop-out expansion (Lincke): the
//!   best lines grow deepest, and a line a player can deviate into at small cost is prepared
//!   too.
//!
//! A batch is the first `batch` leaves in that order, all chosen from the same book. Ties go to
//! the least position (canonical form, as a pair of bit sets). With one search
//! thread, each search a fresh table and no time limit, every search, and so the whole book,
//! depends only on the book it starts from, the depth and the seed: a build stopped after any
//! step and started again from its book ends as the same book as one run straight through.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use super::position::{BookPosition, Next};
use super::values::{MAX_DEPTH, MAX_SCORE};
use super::{Book, Entry};
use crate::depth::limits_for_depth;
use crate::{Engine, EngineConfig, EngineError};

/// The cost of a move past the first [`BuildConfig::plies`], in discs of deviation.
pub const PLY_COST: i32 = 1;

/// Moves whose value is more than this many discs below the best are not followed.
pub const MAX_DEVIATION: i32 = 6;

/// Leaves this many moves from the start or more are not expanded.
pub const MAX_PLY: u32 = 40;

/// How a book is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildConfig {
    /// The depth of each position's search, in plies (exact when the end is within reach).
    pub depth: u32,
    /// Every position of the first `plies` moves is in the book.
    pub plies: u32,
    /// The seed of the search engine (its hashing).
    pub seed: u64,
    /// The transposition table, in MiB.
    pub hash_mb: usize,
}

impl Default for BuildConfig {
    /// Depth 12, the first 4 moves, seed 1, 64 MiB.
    fn default() -> BuildConfig {
        BuildConfig {
            depth: 12,
            plies: 4,
            seed: 1,
            hash_mb: 64,
        }
    }
}

/// A build stopped through its stop flag; the book is as it was before the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("the build was stopped")]
pub struct Stopped;

/// One step of a build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expansion {
    /// Leaves expanded (the start counts as one, on the first step of an empty book).
    pub leaves: usize,
    /// Positions scored and added.
    pub added: usize,
}

/// What the next step of a build does: the leaves it expands and the positions it scores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The leaves, in the order chosen (the start alone, when the book does not hold it).
    pub leaves: Vec<BookPosition>,
    /// The positions to score: those the leaves' moves lead to that the book lacks (or the
    /// start), canonical, each once, in key order.
    pub targets: Vec<BookPosition>,
}

/// The next step of a build of `book` that expands up to `batch` leaves (at least one), every
/// position of the first `plies` moves first: `None` when no leaf is left to expand.
#[must_use]
pub fn plan(book: &Book, plies: u32, batch: usize) -> Option<Plan> {
    let start = BookPosition::START.canonical();
    if !book.entries.contains_key(&start) {
        return Some(Plan {
            leaves: vec![start],
            targets: vec![start],
        });
    }
    let leaves = next_leaves(book, plies, batch.max(1));
    if leaves.is_empty() {
        return None;
    }
    let mut targets: Vec<BookPosition> = leaves
        .iter()
        .flat_map(|&leaf| unscored_children(book, leaf))
        .collect();
    targets.sort_unstable();
    targets.dedup();
    Some(Plan { leaves, targets })
}

/// The first `batch` leaves of `book` in the order of the module's documentation (all of them
/// when fewer are left).
fn next_leaves(book: &Book, plies: u32, batch: usize) -> Vec<BookPosition> {
    let start = BookPosition::START.canonical();
    let mut leaves = Vec::new();
    let mut best: HashMap<BookPosition, i32> = HashMap::from([(start, 0)]);
    let mut queue = BinaryHeap::from([Reverse((0, start))]);
    while let Some(Reverse((cost, position))) = queue.pop() {
        if best.get(&position).is_some_and(|&known| known < cost) {
            continue;
        }
        let Some(known) = book.known(position) else {
            continue;
        };
        if !known.expanded {
            if position.ply() < MAX_PLY {
                leaves.push(position);
                if leaves.len() == batch {
                    break;
                }
            }
            continue;
        }
        let free = position.ply() + 1 < plies;
        for (_, next) in position.children() {
            let Next::Position {
                position: child, ..
            } = next
            else {
                continue;
            };
            let deviation = known.value - book.move_value(next).expect("expanded");
            if !free && deviation > MAX_DEVIATION {
                continue;
            }
            let step = if free { 0 } else { PLY_COST + deviation };
            let child = child.canonical();
            let cost = cost + step;
            if best.get(&child).is_none_or(|&known| cost < known) {
                best.insert(child, cost);
                queue.push(Reverse((cost, child)));
            }
        }
    }
    leaves
}

/// A book being built.
pub struct Builder {
    book: Book,
    config: BuildConfig,
    engine: Engine,
}

impl Builder {
    /// A build that continues `book` (an empty one to start afresh).
    ///
    /// # Errors
    /// [`EngineError::TableMemory`] if the search's table cannot be had.
    pub fn new(book: Book, config: BuildConfig) -> Result<Builder, EngineError> {
        let engine = Engine::try_new(EngineConfig {
            hash_mb: config.hash_mb,
            threads: 1,
            seed: config.seed,
        })?;
        Ok(Builder {
            book,
            config,
            engine,
        })
    }

    /// The book so far.
    #[must_use]
    pub fn book(&self) -> &Book {
        &self.book
    }

    /// The book, once built.
    #[must_use]
    pub fn into_book(self) -> Book {
        self.book
    }

    /// The next step that expands up to `batch` leaves ([`plan`]), `None` when no leaf is left.
    #[must_use]
    pub fn plan(&self, batch: usize) -> Option<Plan> {
        plan(&self.book, self.config.plies, batch)
    }

    /// The score of `position` by a search of the build's depth (exact where
    /// [`limits_for_depth`] solves): the same for the same position, depth, table size and
    /// seed, whatever was searched before.
    ///
    /// # Errors
    /// [`Stopped`] once `stop` is set.
    pub fn score(&mut self, position: BookPosition, stop: &AtomicBool) -> Result<Entry, Stopped> {
        score(&mut self.engine, self.config.depth, position, stop)
    }

    /// Adds scored positions to the book and derives its values again.
    pub fn add(&mut self, scored: impl IntoIterator<Item = (BookPosition, Entry)>) {
        self.book.entries.extend(
            scored
                .into_iter()
                .map(|(position, entry)| (position.canonical(), entry)),
        );
        self.book.derive();
    }

    /// Expands the next `batch` leaves (or scores the start of an empty book): `None` when
    /// nothing is left to expand.
    ///
    /// # Errors
    /// [`Stopped`] once `stop` is set: the step's searches are dropped and the book is left as
    /// it was before the step.
    pub fn step(&mut self, batch: usize, stop: &AtomicBool) -> Result<Option<Expansion>, Stopped> {
        let Some(plan) = self.plan(batch) else {
            return Ok(None);
        };
        let mut scored = Vec::with_capacity(plan.targets.len());
        for &position in &plan.targets {
            scored.push((position, self.score(position, stop)?));
        }
        let added = scored.len();
        self.add(scored);
        Ok(Some(Expansion {
            leaves: plan.leaves.len(),
            added,
        }))
    }
}

/// The positions (canonical, each once, in key order) that the moves of `position` lead to
/// and `book` does not hold: what expanding it scores.
fn unscored_children(book: &Book, position: BookPosition) -> Vec<BookPosition> {
    let mut children: Vec<BookPosition> = position
        .children()
        .filter_map(|(_, next)| match next {
            Next::Position { position, .. } => Some(position.canonical()),
            Next::End(_) => None,
        })
        .filter(|child| !book.entries.contains_key(child))
        .collect();
    children.sort_unstable();
    children.dedup();
    children
}

/// The score of `position` by a search of `depth` plies (exact where [`limits_for_depth`]
/// solves).
fn score(
    engine: &mut Engine,
    depth: u32,
    position: BookPosition,
    stop: &AtomicBool,
) -> Result<Entry, Stopped> {
    let game = position.game();
    let limits = limits_for_depth(depth, position.empties());
    let report = engine
        .search_with(&game, &limits, stop, &mut |_| {})
        .expect("a book position has a move and the depth is at least 1");
    if stop.load(Ordering::Relaxed) {
        return Err(Stopped);
    }
    Ok(Entry {
        score: report.score.clamp(-MAX_SCORE, MAX_SCORE),
        depth: report.depth.clamp(1, MAX_DEPTH),
        exact: report.exact,
    })
}

/// What [`learn`] did to a book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Learned {
    /// Positions of the game expanded: each one's moves scored into the book.
    pub expanded: usize,
    /// Positions scored and added to the book.
    pub added: usize,
    /// Whether the stop flag ended the learning before the game's last position.
    pub stopped: bool,
}

/// Learns a game, as NBoard's `learn` asks and Edax's book learning does: every position of
/// `line` (the game's positions in order, as [`BookPosition::of`] gives them) fewer than
/// [`MAX_PLY`] moves from the start is expanded: it is scored if the book lacks it, and so is
/// every position one of its moves leads to, each by a search of `depth` plies with `engine`
/// (exact where [`limits_for_depth`] solves). Then the book derives its values, so that it
/// plays the game's moves where they were best and avoids them where they were not.
///
/// Positions the book has expanded cost nothing, so a game learnt twice adds nothing the
/// second time. `progress` hears, before each position, how many of the line's positions are
/// done and how many there are. Once `stop` is set the search under way is dropped and learning
/// ends: what was scored before it stays in the book ([`Learned::stopped`]).
pub fn learn(
    book: &mut Book,
    line: &[BookPosition],
    depth: u32,
    engine: &mut Engine,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Learned {
    let mut learned = Learned::default();
    for (done, position) in line.iter().enumerate() {
        progress(done, line.len());
        let position = position.canonical();
        if position.ply() >= MAX_PLY || !position.is_playable() {
            continue;
        }
        // A position met again (the same board before and after a pass) finds everything
        // scored the first time.
        let mut targets = unscored_children(book, position);
        if !book.entries.contains_key(&position) {
            targets.insert(0, position);
        }
        if targets.is_empty() {
            continue;
        }
        for target in targets {
            let Ok(entry) = score(engine, depth, target, stop) else {
                learned.stopped = true;
                book.derive();
                return learned;
            };
            book.entries.insert(target, entry);
            learned.added += 1;
        }
        learned.expanded += 1;
    }
    progress(line.len(), line.len());
    book.derive();
    learned
}
