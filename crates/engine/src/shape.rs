//! Everything the search needs to know about one board size, rule set and win rule: masks for
//! stability and the evaluation, and how a finished game is scored.

use std::sync::Arc;

use super::patterns::{WEIGHTS, Weights};
use super::probcut::{self, ProbCut};
use super::stability;
use othello::Dimensions;
use othello::RuleSet;
use othello::WinRule;
use othello::bitboard::{Bits, Geometry};

/// One of the four line directions, for spreading along lines without wrapping.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Direction<B> {
    shift: u32,
    /// Cells whose neighbour `index - shift` along this direction is on the board.
    has_low: B,
    /// Cells whose neighbour `index + shift` along this direction is on the board.
    has_high: B,
    /// Doubling steps that cross the longest line in this direction.
    steps: u32,
}

impl<B: Bits> Direction<B> {
    /// Cells sharing a line (in this direction) with some member of `seeds`.
    #[inline]
    fn spread(&self, seeds: B) -> B {
        let (mut up, mut down) = (seeds, seeds);
        let (mut low, mut high) = (self.has_low, self.has_high);
        let mut shift = self.shift;
        for i in 0..self.steps {
            up |= low & (up << shift);
            down |= high & (down >> shift);
            if i + 1 < self.steps {
                low &= low << shift;
                high &= high >> shift;
                shift *= 2;
            }
        }
        up | down
    }
}

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Discs only, as the protocol counts them: empty squares left at the end count for nobody.
    #[default]
    DiscsOnly,
    /// The FFO / Edax convention: empty squares left at the end go to the winner.
    EmptiesToWinner,
}

/// How a finished game scores: the board's size, the win rule and the scoring convention.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FinalScoring {
    cells: i32,
    /// +1 when most discs wins, -1 when fewest discs wins.
    sign: i32,
    scoring: Scoring,
}

impl FinalScoring {
    /// +1 when most discs wins, -1 when fewest discs wins.
    #[inline(always)]
    pub(crate) fn sign(self) -> i32 {
        self.sign
    }

    /// The final score for the side owning `mine` discs, the other side owning `theirs`.
    #[inline(always)]
    pub(crate) fn score(self, mine: i32, theirs: i32) -> i32 {
        let margin = (mine - theirs) * self.sign;
        self.scoring.score(margin, self.cells - mine - theirs)
    }
}

/// Which evaluation the midgame search uses. Cheap to clone: weights read from a file are shared
/// through an [`Arc`], and a search borrows them for its whole length.
#[derive(Clone, Default)]
pub enum Evaluation {
    /// The trained pattern evaluation on 8x8 under FULL rules with "most discs wins"
    /// ([`super::patterns`]); the classic one everywhere else.
    #[default]
    Trained,
    /// The hand-made evaluation of a few features, on every board.
    Classic,
    /// Pattern weights other than the compiled-in ones (for example a weights file of
    /// `othello train fit` read with [`Weights::from_bytes`]), where [`Evaluation::Trained`]
    /// would use those; the classic evaluation everywhere else.
    Weights(Arc<Weights>),
}

impl Evaluation {
    /// The pattern weights used on a board of `dims` under `rule_set` and `win`, if any.
    pub(crate) fn patterns(
        &self,
        dims: Dimensions,
        rule_set: RuleSet,
        win: WinRule,
    ) -> Option<&Weights> {
        let weights = match self {
            Evaluation::Trained => &*WEIGHTS,
            Evaluation::Classic => return None,
            Evaluation::Weights(weights) => weights,
        };
        (dims == Dimensions::STANDARD && rule_set == RuleSet::Full && win == WinRule::MostDiscs)
            .then_some(weights)
    }
}

impl Evaluation {
    /// The cut-off model fitted for these weights: the compiled-in weights have theirs
    /// ([`probcut::TRAINED`]); weights from elsewhere have none (a model fitted for other
    /// weights would cut wrongly), so a search with them makes no probabilistic cut-offs.
    fn probcut(&self) -> Option<ProbCut> {
        match self {
            Evaluation::Trained => Some(probcut::TRAINED),
            Evaluation::Classic | Evaluation::Weights(_) => None,
        }
    }

    /// The selective solver's cut-off model fitted for these weights
    /// ([`probcut::TRAINED_ENDGAME`] for the compiled-in ones), as for [`Evaluation::probcut`].
    fn endcut(&self) -> Option<ProbCut> {
        match self {
            Evaluation::Trained => Some(probcut::TRAINED_ENDGAME),
            Evaluation::Classic | Evaluation::Weights(_) => None,
        }
    }
}

impl PartialEq for Evaluation {
    /// Two evaluations are equal when they are the same kind and, for
    /// [`Evaluation::Weights`], the same weights in memory.
    fn eq(&self, other: &Evaluation) -> bool {
        match (self, other) {
            (Evaluation::Trained, Evaluation::Trained)
            | (Evaluation::Classic, Evaluation::Classic) => true,
            (Evaluation::Weights(a), Evaluation::Weights(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl Eq for Evaluation {}

impl std::fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Evaluation::Trained => f.write_str("Trained"),
            Evaluation::Classic => f.write_str("Classic"),
            Evaluation::Weights(_) => f.write_str("Weights(..)"),
        }
    }
}

/// A corner and the squares next to it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CornerZone<B> {
    pub corner: B,
    /// The diagonal neighbour.
    pub x_square: B,
    /// The two orthogonal neighbours.
    pub c_squares: B,
}

/// The masks of one board size, the win rule and the scoring, for one search: the pattern
/// weights are borrowed (for `'w`) from the search's [`Evaluation`].
#[derive(Clone, Debug)]
pub(crate) struct Shape<'w, B> {
    pub geo: Geometry<B>,
    pub cells: i32,
    /// +1 when most discs wins, -1 when fewest discs wins.
    pub sign: i32,
    pub scoring: Scoring,
    pub directions: [Direction<B>; 4],
    pub corners: B,
    pub corner_zones: [CornerZone<B>; 4],
    pub edges: B,
    /// The board cut in four quarters, for parity.
    pub quadrants: [B; 4],
    /// The 8 neighbours of each cell.
    pub neighbours: Vec<B>,
    pub rule_set: RuleSet,
    /// The standard 8x8 board under FULL in `u64`, whose stable discs
    /// ([`Shape::stability_bound`]) come from [`stability::stable`]'s edge table.
    pub edge_table: bool,
    /// The pattern weights, when the trained evaluation applies.
    pub patterns: Option<&'w Weights>,
    /// The cut-off model of the midgame search, when it is selective (only with pattern
    /// weights).
    pub probcut: Option<ProbCut>,
    /// The cut-off model of the selective solver, when the search is selective (only with
    /// pattern weights).
    pub endcut: Option<ProbCut>,
}

fn steps_to_cross(distance: u32) -> u32 {
    let mut steps = 0;
    while (1u32 << steps) - 1 < distance {
        steps += 1;
    }
    steps.max(1)
}

impl<'w, B: Bits> Shape<'w, B> {
    /// The shape of `dims`, which must fit width `B`.
    pub(crate) fn new(
        dims: Dimensions,
        rule_set: RuleSet,
        win: WinRule,
        scoring: Scoring,
        evaluation: &'w Evaluation,
        selective: bool,
    ) -> Shape<'w, B> {
        let geo = Geometry::<B>::new(dims).expect("the width was chosen to fit the board");
        let (rows, cols) = (dims.rows() as i32, dims.cols() as i32);
        let bit = |r: i32, c: i32| B::single((r * cols + c) as u32);
        let set_where = |keep: &dyn Fn(i32, i32) -> bool| {
            let mut set = B::ZERO;
            for r in 0..rows {
                for c in 0..cols {
                    if keep(r, c) {
                        set |= bit(r, c);
                    }
                }
            }
            set
        };
        // (row step, column step) of E, S, SE, SW.
        let steps = [(0, 1), (1, 0), (1, 1), (1, -1)];
        let longest = [cols, rows, rows.min(cols), rows.min(cols)];
        let directions = std::array::from_fn(|k| {
            let (dr, dc) = steps[k];
            let on = |r: i32, c: i32| (0..rows).contains(&r) && (0..cols).contains(&c);
            Direction {
                shift: (dr * cols + dc) as u32,
                has_low: set_where(&|r, c| on(r - dr, c - dc)),
                has_high: set_where(&|r, c| on(r + dr, c + dc)),
                steps: steps_to_cross(longest[k] as u32 - 1),
            }
        });
        let corner_list = [(0, 0), (0, cols - 1), (rows - 1, 0), (rows - 1, cols - 1)];
        let corner_zones = corner_list.map(|(r, c)| {
            let (dr, dc) = (if r == 0 { 1 } else { -1 }, if c == 0 { 1 } else { -1 });
            CornerZone {
                corner: bit(r, c),
                x_square: bit(r + dr, c + dc),
                c_squares: bit(r + dr, c) | bit(r, c + dc),
            }
        });
        let patterns = evaluation.patterns(dims, rule_set, win);
        let (half_r, half_c) = (rows / 2, cols / 2);
        let quadrants = [(false, false), (false, true), (true, false), (true, true)]
            .map(|(low, right)| set_where(&|r, c| (r >= half_r) == low && (c >= half_c) == right));
        Shape {
            cells: (rows * cols),
            sign: match win {
                WinRule::MostDiscs => 1,
                WinRule::FewestDiscs => -1,
            },
            scoring,
            directions,
            corners: corner_zones
                .iter()
                .fold(B::ZERO, |acc, zone| acc | zone.corner),
            corner_zones,
            edges: set_where(&|r, c| r == 0 || c == 0 || r == rows - 1 || c == cols - 1),
            quadrants,
            geo,
            neighbours: (0..rows * cols)
                .map(|i| geo.dilate(B::single(i as u32)) & !B::single(i as u32))
                .collect(),
            rule_set,
            edge_table: B::WIDTH == 64 && rule_set == RuleSet::Full && geo.is_standard(),
            patterns,
            probcut: patterns.and(evaluation.probcut()).filter(|_| selective),
            endcut: patterns.and(evaluation.endcut()).filter(|_| selective),
        }
    }

    /// How finished games on this board score.
    #[inline(always)]
    pub(crate) fn final_scoring(&self) -> FinalScoring {
        FinalScoring {
            cells: self.cells,
            sign: self.sign,
            scoring: self.scoring,
        }
    }

    /// The final score of a finished game, for the side owning `me`.
    #[inline]
    pub(crate) fn final_score(&self, me: B, opp: B) -> i32 {
        self.final_scoring()
            .score(me.count() as i32, opp.count() as i32)
    }

    /// Cells on lines (in every direction) that hold no empty cell.
    #[inline]
    fn full_lines(&self, empties: B) -> [B; 4] {
        self.directions
            .map(|dir| self.geo.board & !dir.spread(empties))
    }

    /// The discs of `discs` (one colour) that can never be flipped again, or a subset of them.
    #[inline(always)]
    pub(crate) fn stable(&self, discs: B, empties: B) -> B {
        match self.rule_set {
            // Only moves next to a disc flip it.
            RuleSet::Simple => discs & !self.geo.dilate(empties),
            RuleSet::Full => {
                let full = self.full_lines(empties);
                let protected_by_lines: [B; 4] = std::array::from_fn(|k| {
                    let dir = &self.directions[k];
                    full[k] | !dir.has_low | !dir.has_high
                });
                let mut stable = discs & full[0] & full[1] & full[2] & full[3];
                loop {
                    let mut next = discs;
                    for (k, dir) in self.directions.iter().enumerate() {
                        next &= protected_by_lines[k]
                            | ((stable << dir.shift) & dir.has_low)
                            | ((stable >> dir.shift) & dir.has_high);
                    }
                    next |= stable;
                    if next == stable {
                        return stable;
                    }
                    stable = next;
                }
            }
        }
    }

    /// An upper bound of the final score for the side owning `me`, from stable discs: the
    /// discs that count against the mover and can never change colour (on the standard board
    /// those of [`stability::stable`], edges from a table; elsewhere those of
    /// [`Shape::stable`]).
    #[inline]
    pub(crate) fn stability_bound(&self, me: B, opp: B) -> i32 {
        if self.edge_table {
            return stability::bound(me.low_u64(), opp.low_u64(), self.sign);
        }
        let against = if self.sign > 0 { opp } else { me };
        self.cells - 2 * self.stable(against, self.geo.board & !(me | opp)).count() as i32
    }

    /// Parity regions with an odd number of empties.
    #[inline]
    pub(crate) fn odd_regions(&self, empties: B) -> B {
        let mut odd = B::ZERO;
        for quadrant in self.quadrants {
            let inside = empties & quadrant;
            if inside.count() & 1 == 1 {
                odd |= inside;
            }
        }
        odd
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns::TRAINED;
    use crate::{Engine, EngineConfig, Limits};
    use othello::Game;
    use othello::Setup;

    fn read_weights() -> Evaluation {
        Evaluation::Weights(Arc::new(Weights::from_bytes(TRAINED).unwrap()))
    }

    #[test]
    fn weights_read_at_run_time_are_owned_shared_and_compared_by_identity() {
        let read = read_weights();
        let shared = read.clone();
        assert_eq!(read, shared);
        assert_ne!(read, read_weights());
        // The same weights as the compiled-in ones evaluate the same; an engine keeps its own
        // share, so nothing has to live for the whole program.
        let game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let search = |evaluation: Evaluation| {
            let mut engine = Engine::new(EngineConfig::default());
            engine.set_evaluation(evaluation);
            engine.set_selective(false);
            engine.search(&game, &limits).unwrap()
        };
        let (owned, compiled) = (search(read), search(Evaluation::Trained));
        assert_eq!((owned.score, owned.nodes), (compiled.score, compiled.nodes));
        // The engine gave its share back when it was dropped.
        let Evaluation::Weights(weights) = &shared else {
            unreachable!("read as weights")
        };
        assert_eq!(Arc::strong_count(weights), 1);
    }
}
