//! Move ordering: the keys the searches sort their moves by before searching them, and the
//! weights of those keys. A good order (the best move first) is what makes alpha-beta cut off
//! early; none of this changes a score, only how many nodes it takes to find it.
//!
//! Moves are held as [`Candidate`]s and searched best key first ([`pick_best`]). The midgame
//! orders by [`quick_key`], with the evaluation of the position after the move added
//! ([`midgame_evaluated_key`]) from [`MIDGAME_EVALUATED_MIN`] plies; the solver as
//! [`SolveOrdering::at`] its node's empties says: by a shallow midgame search
//! ([`shallow_key`]) from [`SOLVE_SHALLOW_MIN`] empties, by
//! [`fastest_first_key`] below, with the evaluation of the position after the move added
//! ([`evaluated_key`]) from [`SOLVE_EVALUATED_MIN`]; both put the table's move first.

use super::eval::SCALE;
use super::shape::Shape;
use othello::bitboard::SearchBits;
use othello::position::Position;

/// Empties from which the solver orders moves with a shallow midgame search.
const SOLVE_SHALLOW_MIN: u32 = 16;
/// Empties from which the solver's fastest-first key adds the evaluation of the position
/// after the move ([`evaluated_key`]).
const SOLVE_EVALUATED_MIN: u32 = 12;
/// The solver's key for the table's move: above every other key of the solver.
pub(crate) const SOLVE_TABLE_MOVE: i32 = 1 << 28;
/// What each of the opponent's replies (corners count twice) costs a move in the solver's
/// ordering by a shallow search, in evaluation units: a move that leaves the opponent few
/// replies is searched earlier, as fastest-first does below [`SOLVE_SHALLOW_MIN`].
const WEIGHT_SHALLOW_MOBILITY: i32 = 100;
/// Fastest-first weights: the opponent's replies (corners count twice), the opponent's
/// potential mobility (empty cells next to the mover's discs), playing in a region with an
/// odd number of empties, and the mover's corner stability (its corners and the discs of its
/// own next to them on the edges, as Edax counts it).
const WEIGHT_MOBILITY: i32 = 256;
const WEIGHT_POTENTIAL: i32 = 8;
const WEIGHT_PARITY: i32 = 16;
/// With 16 FFO #40-#49 took 7% fewer nodes than without; 32 and 64 within 1% of 16.
const WEIGHT_CORNER_STABILITY: i32 = 16;

/// How the solver orders the moves of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SolveOrdering {
    /// By a midgame search this many plies deep ([`shallow_key`]).
    Shallow(u32),
    /// Fastest first, with the evaluation of the position after the move ([`evaluated_key`]).
    Evaluated,
    /// Fastest first alone ([`fastest_first_key`]).
    FastestFirst,
}

impl SolveOrdering {
    /// The ordering of a node with `empties` empty squares.
    #[inline(always)]
    pub(crate) fn at(empties: u32) -> SolveOrdering {
        if empties >= SOLVE_SHALLOW_MIN {
            SolveOrdering::Shallow(shallow_depth(empties))
        } else if empties >= SOLVE_EVALUATED_MIN {
            SolveOrdering::Evaluated
        } else {
            SolveOrdering::FastestFirst
        }
    }
}

/// A move to search: its cell and sort key, and the position after the move when the ordering
/// already made it.
#[derive(Clone, Copy)]
pub(crate) struct Candidate<B> {
    /// The sort key in the high half, the cell index in the low half.
    rank: u64,
    /// The position after the move, if made.
    pub child: Option<Position<B>>,
}

impl<B> Candidate<B> {
    /// The move at cell `index` with sort key `key`.
    #[inline(always)]
    pub(crate) fn new(key: i32, index: u32, child: Option<Position<B>>) -> Candidate<B> {
        Candidate {
            rank: ((i64::from(key) + (1 << 31)) as u64) << 32 | u64::from(index),
            child,
        }
    }

    /// The move's cell.
    #[inline(always)]
    pub(crate) fn index(&self) -> u32 {
        self.rank as u32
    }
}

/// Moves the best remaining candidate (highest key) to position `i` and returns it.
#[inline(always)]
pub(crate) fn pick_best<B: Copy>(list: &mut [Candidate<B>], i: usize) -> Candidate<B> {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].rank > list[best].rank {
            best = j;
        }
    }
    list.swap(i, best);
    list[i]
}

/// How good the move at `index` from `pos` looks to the midgame before searching it, the
/// opponent having the moves `replies` after it: few replies for the opponent (corner replies
/// count double), corners, and no X-square next to an empty corner.
#[inline]
pub(crate) fn quick_key<B: SearchBits>(
    shape: &Shape<B>,
    pos: Position<B>,
    index: u32,
    replies: B,
) -> i32 {
    let mv = B::single(index);
    let mut key = -16 * (replies.count() + (replies & shape.corners).count()) as i32;
    if !(mv & shape.corners).is_empty() {
        key += 32;
    }
    let empties = !(pos.me | pos.opp);
    for zone in &shape.corner_zones {
        if !(mv & zone.x_square).is_empty() && !(zone.corner & empties).is_empty() {
            key -= 24;
        }
    }
    key
}

/// Depth from which the midgame adds the evaluation of the position after a move to its
/// [`quick_key`] ([`midgame_evaluated_key`]). On 20 positions of 36 empties searched 16 plies
/// deep it took 27% fewer nodes and 19% less time; from depth 2, 22-27% fewer nodes but more
/// time (an evaluation for every child of the nodes next to the leaves); docs/engine.md, "Midgame
/// search".
pub(crate) const MIDGAME_EVALUATED_MIN: u32 = 3;
/// What a disc of the evaluation after a move is worth in the midgame's key, against 16 for
/// each reply left to the opponent in [`quick_key`].
const WEIGHT_MIDGAME_EVALUATION: i32 = 24;

/// The midgame's key of a move whose [`quick_key`] is `quick` and after which the evaluation
/// (from the opponent's side, in evaluation units) is `evaluation`.
#[inline(always)]
pub(crate) fn midgame_evaluated_key(quick: i32, evaluation: i32) -> i32 {
    quick - WEIGHT_MIDGAME_EVALUATION * evaluation / SCALE
}

/// The opponent's replies `replies` after a move, corners counted twice.
#[inline(always)]
pub(crate) fn mobility<B: SearchBits>(shape: &Shape<B>, replies: B) -> i32 {
    (replies.count() + (replies & shape.corners).count()) as i32
}

/// The solver's key of a move whose position a shallow midgame search scored `score` (from the
/// mover's side), leaving the opponent `mobility` replies.
#[inline(always)]
pub(crate) fn shallow_key(score: i32, mobility: i32) -> i32 {
    score - WEIGHT_SHALLOW_MOBILITY * mobility
}

/// The solver's fastest-first key of the move at `index` to `child`, leaving the opponent
/// `mobility` replies: `empties` and `odd`, the regions with an odd number of them, are those
/// before the move. Few replies first, then the mover's corner stability, then few empty cells
/// next to the mover's discs, then parity.
#[inline(always)]
pub(crate) fn fastest_first_key<B: SearchBits>(
    shape: &Shape<B>,
    child: Position<B>,
    index: u32,
    empties: B,
    odd: B,
    mobility: i32,
) -> i32 {
    let after = empties & !B::single(index);
    let potential = (shape.geo.dilate(child.opp) & after).count() as i32;
    -WEIGHT_MOBILITY * mobility - WEIGHT_POTENTIAL * potential
        + WEIGHT_PARITY * i32::from(odd.has(index))
        + WEIGHT_CORNER_STABILITY * corner_stability(shape, child.opp)
}

/// What a disc of the evaluation of the position after a move is worth in the solver's
/// fastest-first key, against [`WEIGHT_MOBILITY`] for each reply left to the opponent.
const WEIGHT_EVALUATION: i32 = 32;

/// The solver's key of a move whose fastest-first key is `fastest` and after which the
/// evaluation (from the opponent's side, in evaluation units) is `evaluation`.
#[inline(always)]
pub(crate) fn evaluated_key(fastest: i32, evaluation: i32) -> i32 {
    fastest - WEIGHT_EVALUATION * evaluation / SCALE
}

/// The discs of `discs` that are corners or next to a corner of theirs on an edge (the
/// C-squares): stable whatever comes (Edax's corner stability).
#[inline(always)]
fn corner_stability<B: SearchBits>(shape: &Shape<B>, discs: B) -> i32 {
    let mut stable = 0;
    for zone in &shape.corner_zones {
        if !(zone.corner & discs).is_empty() {
            stable += 1 + (zone.c_squares & discs).count() as i32;
        }
    }
    stable
}

/// The depth of the midgame search that orders the moves of a solver's node with `n` empties
/// (from [`SOLVE_SHALLOW_MIN`]). Shallower than the root's ([`root_shallow_depth`]): a
/// midgame node costs several solver nodes, and with 1 ply at 16-17 empties and 3 from 18 (2,
/// 3 and 4 before) FFO #40-#49 took 1.8% fewer nodes and 8-12% less time, back to back
/// (docs/engine.md, "Exact solver").
pub(crate) fn shallow_depth(n: u32) -> u32 {
    match n {
        0..=17 => 1,
        _ => 3,
    }
}

/// The depth of the midgame search that orders the moves of a position to solve with `n`
/// empties, at the root: once a move, so deeper than inside the tree.
pub(crate) fn root_shallow_depth(n: u32) -> u32 {
    match n {
        0..=13 => 1,
        14..=17 => 2,
        18..=21 => 3,
        _ => 4,
    }
}
