//! The exact solver's last empties on the standard 8x8 board under the FULL rules, where most
//! of its nodes are.
//!
//! The generic solver ([`super::search`]) hands positions with fewer than six empties to
//! [`Leaves::solve`] when the board is 8x8 and the rules FULL (its `Finisher`, picked once per
//! search). It searches the same tree, in
//! the same order, to the same scores and node counts as the generic code, but in plain `u64`
//! code with one function per number of empties, so that the whole subtree is one inlined
//! piece of code with no recursion, no table, no move generator and no budget check: moves are
//! tried on the empty cells directly (skipping cells with no opponent disc next to them), those
//! in quadrants with an odd number of empties first from three empties on, a stability
//! cut-off is tried from three (the stable discs of the edge table, `stability.rs`), and the
//! last empty cell is scored from the mover's disc count and the number of discs it flips.

use std::marker::PhantomData;

use super::bounds::{INFINITY, raise};
use super::shape::FinalScoring;
use super::stability::{self, column_byte};
use othello::bitboard::SearchBits;
use othello::eight::flips;
use othello::{RuleSet, Rules};

/// The 8 neighbours of each cell.
static NEIGHBOURS: [u64; 64] = {
    let mut table = [0; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = ((square / 8) as i32, (square % 8) as i32);
        let mut bits = 0;
        let mut d_row = -1;
        while d_row <= 1 {
            let mut d_col = -1;
            while d_col <= 1 {
                let (r, c) = (row + d_row, col + d_col);
                if (d_row != 0 || d_col != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 {
                    bits |= 1 << (r * 8 + c);
                }
                d_col += 1;
            }
            d_row += 1;
        }
        table[square] = bits;
        square += 1;
    }
    table
};

/// The board's four 4x4 quarters, for parity.
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The diagonal (`[0]`) and the anti-diagonal (`[1]`) through each cell.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut table = [[0; 2]; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = ((square / 8) as i32, (square % 8) as i32);
        let mut cell: usize = 0;
        while cell < 64 {
            let (r, c) = ((cell / 8) as i32, (cell % 8) as i32);
            if r - c == row - col {
                table[square][0] |= 1 << cell;
            }
            if r + c == row + col {
                table[square][1] |= 1 << cell;
            }
            cell += 1;
        }
        square += 1;
    }
    table
};

/// `LINE_FLIPS[p][line]`: the discs a move at cell `p` of a line of 8 flips on that line, when
/// the set bits of `line` are the mover's discs and every other cell an opponent disc.
static LINE_FLIPS: [[u8; 256]; 8] = {
    let mut table = [[0; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut line = 0;
        while line < 256 {
            let mut flips = 0;
            // Towards the higher cells, then the lower ones: the run up to the first disc of
            // the mover, if there is one before the end of the line.
            let mut i = p + 1;
            while i < 8 && line >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                flips += i - p - 1;
            }
            let mut i = p as i32 - 1;
            while i >= 0 && line >> i & 1 == 0 {
                i -= 1;
            }
            if i >= 0 {
                flips += p - i as usize - 1;
            }
            table[p][line] = flips as u8;
            line += 1;
        }
        p += 1;
    }
    table
};

/// The number of discs `me` flips by playing `square`, the board's only empty cell (every
/// other cell not in `me` holds an opponent disc).
///
/// Each of the four lines through the cell is gathered into a byte by a multiplication
/// (indexed by column, or by row for the column itself): distinct cells land on distinct
/// bits, so nothing carries. A diagonal's cells off the board read as opponent discs, which
/// close no run.
#[inline(always)]
fn last_flips(me: u64, square: u32) -> i32 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    let square = square & 63;
    let (row, col) = ((square / 8) as usize, (square % 8) as usize);
    let [diagonal, anti] = DIAGONALS[square as usize];
    let row_bits = (me >> (8 * row)) as u8;
    let col_bits = column_byte(me >> col);
    let diagonal_bits = (me & diagonal).wrapping_mul(FILE_A) >> 56;
    let anti_bits = (me & anti).wrapping_mul(FILE_A) >> 56;
    i32::from(LINE_FLIPS[col][row_bits as usize])
        + i32::from(LINE_FLIPS[row][col_bits as usize])
        + i32::from(LINE_FLIPS[col][diagonal_bits as usize])
        + i32::from(LINE_FLIPS[col][anti_bits as usize])
}

/// No move was found: below every score.
const NO_MOVE: i32 = -INFINITY;

/// The cells of the board this solver is written for.
const CELLS: i32 = 64;

/// The solver of the last empties: how finished games score, and the nodes it has visited.
pub(crate) struct Leaves {
    scoring: FinalScoring,
    /// Positions visited, counted as the generic solver counts them.
    pub nodes: u64,
}

/// The empty cells in quadrants with an odd number of empties.
#[inline(always)]
fn odd_regions(empties: u64) -> u64 {
    let mut odd = 0;
    for quadrant in QUADRANTS {
        let inside = empties & quadrant;
        if inside.count_ones() & 1 == 1 {
            odd |= inside;
        }
    }
    odd
}

/// A position of the last empties, `me` to move, and the window it is searched in.
#[derive(Clone, Copy)]
pub(crate) struct Node {
    /// The mover's discs.
    pub me: u64,
    /// The opponent's discs.
    pub opp: u64,
    /// The empty cells.
    pub empties: u64,
    /// The window, fail-soft.
    pub alpha: i32,
    pub beta: i32,
}

impl Node {
    /// The same position with the other side to move, and the window seen from that side.
    #[inline(always)]
    fn passed(self) -> Node {
        Node {
            me: self.opp,
            opp: self.me,
            empties: self.empties,
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }
}

impl Leaves {
    /// Whether this solver can serve a search at width `B` under rules `R` (known at compile
    /// time); the board must also be the standard 8x8 one.
    #[inline(always)]
    pub(crate) fn fits<B: SearchBits, R: Rules>() -> bool {
        B::WIDTH == 64 && R::RULE_SET == RuleSet::Full
    }

    /// A solver scoring finished games by `scoring`, with no nodes visited yet.
    pub(crate) fn new(scoring: FinalScoring) -> Leaves {
        Leaves { scoring, nodes: 0 }
    }

    /// The exact score of `node` (fewer than six empties), fail-soft; `passed` when the
    /// opponent has just passed, so that no move for either side ends the game.
    #[inline(always)]
    pub(crate) fn solve(&mut self, node: Node, passed: bool) -> i32 {
        match node.empties.count_ones() {
            0 => {
                self.nodes += 1;
                self.final_score(node)
            }
            1 => One::solve(self, node, passed),
            2 => Two::solve(self, node, passed),
            3 => Three::solve(self, node, passed),
            4 => Four::solve(self, node, passed),
            _ => Five::solve(self, node, passed),
        }
    }

    /// The score of a finished game for the mover of `node`.
    #[inline(always)]
    fn final_score(&self, node: Node) -> i32 {
        let (mine, theirs) = (node.me.count_ones(), node.opp.count_ones());
        self.scoring.score(mine as i32, theirs as i32)
    }

    /// A position with two or more empties: the mover's moves, else the opponent's after a
    /// pass, else the end of the game. `C` solves the positions with one empty fewer.
    #[inline(always)]
    fn node<C: Empties>(&mut self, node: Node, passed: bool, parity: bool, stability: bool) -> i32 {
        self.nodes += 1;
        if stability && let Some(cut) = self.stability_cut(node) {
            return cut;
        }
        // One loop for both sides, so that the children's code is inlined once.
        let (mut node, mut sign) = (node, 1);
        loop {
            let best = self.moves::<C>(node, parity);
            if best != NO_MOVE {
                return sign * best;
            }
            if passed || sign < 0 {
                return sign * self.final_score(node);
            }
            self.nodes += 1;
            (node, sign) = (node.passed(), -1);
        }
    }

    /// The best score of the mover's moves (fail-soft), or [`NO_MOVE`] when it has none: the
    /// cells of odd quadrants first when `parity`, each part in cell order. `C` solves the
    /// children.
    #[inline(always)]
    fn moves<C: Empties>(&mut self, node: Node, parity: bool) -> i32 {
        let Node {
            me,
            opp,
            empties,
            mut alpha,
            beta,
        } = node;
        let odd = if parity {
            odd_regions(empties)
        } else {
            empties
        };
        let (mut cells, mut rest) = (odd, empties & !odd);
        let mut best = NO_MOVE;
        // One loop over both parts, so that the children's code is inlined once.
        loop {
            if cells == 0 {
                if rest == 0 {
                    return best;
                }
                (cells, rest) = (rest, 0);
            }
            let square = cells.trailing_zeros();
            cells &= cells - 1;
            if NEIGHBOURS[square as usize] & opp == 0 {
                continue;
            }
            let flipped = flips(me, opp, square);
            if flipped == 0 {
                continue;
            }
            let mv = 1 << square;
            let child = Node {
                me: opp & !flipped,
                opp: me | mv | flipped,
                empties: empties & !mv,
                alpha: -beta,
                beta: -alpha,
            };
            let score = -C::solve(self, child, false);
            if raise(&mut best, &mut alpha, score, beta) {
                return best;
            }
        }
    }

    /// A cut-off from the discs that can never flip, the upper bound alone, as the generic
    /// small solver finds it.
    #[inline(always)]
    fn stability_cut(&self, node: Node) -> Option<i32> {
        let sign = self.scoring.sign();
        stability::cut(
            node.me,
            node.opp,
            sign,
            CELLS,
            node.alpha,
            None,
            |me, opp| stability::bound(me, opp, sign),
        )
    }

    /// The last empty cell, `square`: the mover plays it if they can, else the opponent, else
    /// nobody.
    #[inline(always)]
    fn solve_1(&mut self, me: u64, opp: u64, square: u32) -> i32 {
        self.nodes += 1;
        let around = NEIGHBOURS[square as usize];
        let mine = me.count_ones() as i32;
        if around & opp != 0 {
            let flipped = last_flips(me, square);
            if flipped != 0 {
                let mine = mine + flipped + 1;
                return self.scoring.score(mine, CELLS - mine);
            }
        }
        if around & me != 0 {
            let flipped = last_flips(opp, square);
            if flipped != 0 {
                self.nodes += 1;
                let mine = mine - flipped;
                return self.scoring.score(mine, CELLS - mine);
            }
        }
        self.scoring.score(mine, CELLS - 1 - mine)
    }
}

/// A number of empties, as a type: the solver of the positions with that many.
trait Empties {
    /// [`Leaves::solve`] for positions with this many empties.
    fn solve(leaves: &mut Leaves, node: Node, passed: bool) -> i32;
}

/// One empty cell.
struct One;

impl Empties for One {
    #[inline(always)]
    fn solve(leaves: &mut Leaves, node: Node, _: bool) -> i32 {
        leaves.solve_1(node.me, node.opp, node.empties.trailing_zeros())
    }
}

/// One more empty cell than `C`; moves in odd quadrants first when `PARITY`; a stability
/// cut-off first when `STABILITY`.
struct More<C, const PARITY: bool, const STABILITY: bool = false>(PhantomData<C>);

impl<C: Empties, const PARITY: bool, const STABILITY: bool> Empties for More<C, PARITY, STABILITY> {
    #[inline(always)]
    fn solve(leaves: &mut Leaves, node: Node, passed: bool) -> i32 {
        leaves.node::<C>(node, passed, PARITY, STABILITY)
    }
}

/// Two empties: parity says nothing yet.
type Two = More<One, false>;
type Three = More<Two, true, true>;
type Four = More<Three, true, true>;
type Five = More<Four, true, true>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Evaluation, Scoring, Shape};
    use othello::Dimensions;
    use othello::RuleSet;
    use othello::WinRule;
    use othello::bitboard::Bits;

    #[test]
    fn last_flips_counts_what_the_move_generator_flips() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let square = (state >> 58) as u32;
            let bit = 1 << square;
            let me = (state.rotate_left(17) ^ state.wrapping_mul(0xff51_afd7_ed55_8ccd)) & !bit;
            let opp = !me & !bit;
            for (mover, other) in [(me, opp), (opp, me)] {
                assert_eq!(
                    last_flips(mover, square),
                    flips(mover, other, square).count_ones() as i32,
                    "{mover:#x} at {square}"
                );
            }
        }
    }

    #[test]
    fn tables_match_the_generic_shape() {
        let shape = Shape::<u64>::new(
            Dimensions::new(8, 8).unwrap(),
            RuleSet::Full,
            WinRule::MostDiscs,
            Scoring::DiscsOnly,
            &Evaluation::Classic,
            false,
        );
        for (square, &around) in shape.neighbours.iter().enumerate() {
            assert_eq!(around, NEIGHBOURS[square], "square {square}");
        }
        let mut quadrants = shape.quadrants.map(Bits::low_u64);
        quadrants.sort_unstable();
        assert_eq!(quadrants, QUADRANTS);
    }
}
