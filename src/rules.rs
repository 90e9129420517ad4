//! The two rule sets, FULL and SIMPLE, behind one trait.
//!
//! Both answer two questions with whole-board bit operations: which empty cells may the mover
//! play, and which discs does a move flip. Everything else (turns, passing, the end, scoring)
//! is shared and lives in [`crate::game`].
//!
//! Hot loops are generic over [`Rules`] so that each rule set compiles to straight code;
//! [`RuleSet`] picks one at run time.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::bitboard::{Bits, Geometry, Line};

mod eight;

/// A rule set: which moves are legal and what a move flips.
///
/// `me` and `opp` are the mover's and the opponent's discs (disjoint, within the board);
/// `mv` is a single empty cell.
pub trait Rules: Copy + Default + Send + Sync + 'static {
    /// The run-time name of this rule set.
    const RULE_SET: RuleSet;

    /// Every empty cell where the mover may play.
    fn legal_moves<B: Bits>(geo: &Geometry<B>, me: B, opp: B) -> B;

    /// The opponent discs a move at `mv` flips; empty exactly when the move is illegal.
    fn flips<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B;

    /// [`Rules::flips`] for a caller that knows `mv` is an empty cell (a member of
    /// [`Rules::legal_moves`], say), without checking it: the answer is meaningless otherwise.
    #[inline]
    fn flips_at_empty<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        Self::flips(geo, me, opp, mv)
    }
}

/// Standard Othello: a move must close at least one straight run of opponent discs, in any of
/// the 8 directions, with a disc of the mover; every such run is flipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Full;

/// The simplified rules: a move must touch an opponent disc; every opponent disc among the 8
/// neighbours of the move is flipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Simple;

/// Occluded fill: `gen` spread along `line` (towards higher indices when `UP`) through the
/// cells of `pro`, by doubling steps.
#[inline(always)]
fn fill<B: Bits, const UP: bool>(line: &Line<B>, gen: B, pro: B) -> B {
    let step = |set: B, n: u32| if UP { set << n } else { set >> n };
    let mut gen = gen;
    let mut pro = pro;
    let mut n = line.shift;
    for i in 0..line.fill_steps {
        gen |= pro & step(gen, n);
        if i + 1 < line.fill_steps {
            pro &= step(pro, n);
            n *= 2;
        }
    }
    gen
}

/// One step along `line`.
#[inline(always)]
fn step<B: Bits, const UP: bool>(line: &Line<B>, set: B) -> B {
    if UP {
        set << line.shift
    } else {
        set >> line.shift
    }
}

impl Rules for Full {
    const RULE_SET: RuleSet = RuleSet::Full;

    #[inline(always)]
    fn legal_moves<B: Bits>(geo: &Geometry<B>, me: B, opp: B) -> B {
        if geo.is_standard() {
            B::from_u64(eight::legal_moves(me.low_u64(), opp.low_u64()))
        } else {
            full_moves(geo, me, opp)
        }
    }

    #[inline]
    fn flips<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        if !(mv & (me | opp)).is_empty() {
            return B::ZERO;
        }
        Self::flips_at_empty(geo, me, opp, mv)
    }

    #[inline(always)]
    fn flips_at_empty<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        if geo.is_standard() {
            let square = mv.low_u64().trailing_zeros();
            B::from_u64(eight::flips(me.low_u64(), opp.low_u64(), square))
        } else {
            full_flips(geo, me, opp, mv)
        }
    }
}

/// [`Full::legal_moves`] on any board.
fn full_moves<B: Bits>(geo: &Geometry<B>, me: B, opp: B) -> B {
    let empty = geo.board & !(me | opp);
    let mut moves = B::ZERO;
    for line in &geo.lines {
        let pro = opp & line.interior;
        let up = fill::<B, true>(line, me, pro) & pro;
        let down = fill::<B, false>(line, me, pro) & pro;
        moves |= step::<B, true>(line, up) | step::<B, false>(line, down);
    }
    moves & empty
}

/// [`Full::flips_at_empty`] on any board.
fn full_flips<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
    let mut flipped = B::ZERO;
    for line in &geo.lines {
        let pro = opp & line.interior;
        let up = fill::<B, true>(line, mv, pro) & pro;
        if !(step::<B, true>(line, up) & me).is_empty() {
            flipped |= up;
        }
        let down = fill::<B, false>(line, mv, pro) & pro;
        if !(step::<B, false>(line, down) & me).is_empty() {
            flipped |= down;
        }
    }
    flipped
}

impl Rules for Simple {
    const RULE_SET: RuleSet = RuleSet::Simple;

    #[inline]
    fn legal_moves<B: Bits>(geo: &Geometry<B>, me: B, opp: B) -> B {
        geo.dilate(opp) & geo.board & !(me | opp)
    }

    #[inline]
    fn flips<B: Bits>(geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        if !(mv & (me | opp)).is_empty() {
            return B::ZERO;
        }
        Self::flips_at_empty(geo, me, opp, mv)
    }

    #[inline]
    fn flips_at_empty<B: Bits>(geo: &Geometry<B>, _me: B, opp: B, mv: B) -> B {
        geo.dilate(mv) & opp
    }
}

/// A rule set chosen at run time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// [`Full`]: standard Othello.
    #[default]
    Full,
    /// [`Simple`]: flip the neighbours.
    Simple,
}

impl RuleSet {
    /// Both rule sets.
    pub const ALL: [RuleSet; 2] = [RuleSet::Full, RuleSet::Simple];

    /// The protocol's name for it: `FULL` or `SIMPLE`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Full => "FULL",
            RuleSet::Simple => "SIMPLE",
        }
    }

    /// [`Rules::legal_moves`] of this rule set.
    #[must_use]
    pub fn legal_moves<B: Bits>(self, geo: &Geometry<B>, me: B, opp: B) -> B {
        match self {
            RuleSet::Full => Full::legal_moves(geo, me, opp),
            RuleSet::Simple => Simple::legal_moves(geo, me, opp),
        }
    }

    /// [`Rules::flips`] of this rule set.
    #[must_use]
    pub fn flips<B: Bits>(self, geo: &Geometry<B>, me: B, opp: B, mv: B) -> B {
        match self {
            RuleSet::Full => Full::flips(geo, me, opp, mv),
            RuleSet::Simple => Simple::flips(geo, me, opp, mv),
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no rule set.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("expected a rule set, full or simple, found {found:?}")]
pub struct ParseRuleSetError {
    /// The text that was not understood.
    pub found: String,
}

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;

    /// Accepts `full` and `simple` in any case.
    fn from_str(text: &str) -> Result<RuleSet, ParseRuleSetError> {
        match text.to_ascii_lowercase().as_str() {
            "full" => Ok(RuleSet::Full),
            "simple" => Ok(RuleSet::Simple),
            _ => Err(ParseRuleSetError {
                found: text.to_owned(),
            }),
        }
    }
}
