//! Stable discs of the standard 8x8 board under the FULL rules, as Edax finds them: the discs
//! of each edge that no sequence of moves along that edge can flip (a table of every edge),
//! then the inner discs on lines that are full in all four directions, grown by the usual fix
//! point. The generic [`Shape::stable`](super::shape::Shape::stable) finds the edge discs only
//! through a chain from a corner or a full edge; the table also finds those that every way of
//! filling the edge leaves alone, so the solver's stability cut-off fires more often.
//!
//! An edge disc can only be flipped along its edge (on every other line through it, it is
//! the end of the line), and an empty edge cell may later be taken by either colour (by a
//! move that flips in another direction), so the table considers every order and colour of
//! filling the edge: sound, and exact for the edge alone.

use std::sync::LazyLock;

use othello::bitboard::Bits;

/// Cells of the board that are on no edge.
const INNER: u64 = 0x007e_7e7e_7e7e_7e00;
/// The cells of column a, one per row.
const COLUMN_A: u64 = 0x0101_0101_0101_0101;
const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_AB: u64 = 0xfcfc_fcfc_fcfc_fcfc;
const NOT_A_TO_D: u64 = 0xf0f0_f0f0_f0f0_f0f0;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const NOT_GH: u64 = 0x3f3f_3f3f_3f3f_3f3f;
const NOT_E_TO_H: u64 = 0x0f0f_0f0f_0f0f_0f0f;

/// For each edge, indexed by `mine << 8 | theirs` (a line of 8 cells as the bits of a byte):
/// the discs of `mine` that stay the mover's whatever is played on the line.
static EDGE_STABLE: LazyLock<Box<[u8]>> = LazyLock::new(edge_table);

/// The byte of column a's cells (row `k` as bit `k`) unpacked back onto column a.
static COLUMN_OF_BYTE: [u64; 256] = {
    let mut table = [0; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut row = 0;
        while row < 8 {
            if byte >> row & 1 == 1 {
                table[byte] |= 1 << (8 * row);
            }
            row += 1;
        }
        byte += 1;
    }
    table
};

/// A cut-off from stable discs for the mover `me` against `opp` in the window (`alpha`,
/// `beta`), on a board of `cells` cells where `sign` is +1 when most discs wins and -1 when
/// fewest discs wins: the score cannot exceed `bound(me, opp)`, what the discs that can never
/// be lost allow, nor, when `beta` is given, fall below `-bound(opp, me)`. Each bound is
/// computed only when the cheap one (every disc of the side that counts against it stable)
/// could cut. The generic solver and the 8x8 one ([`super::leaves`]) both cut with it.
///
/// The small solvers try the upper bound alone, as Edax does in its null-window searches: there
/// the lower one (the mover's own stable discs reaching `beta`) was half of the stable-disc
/// computations and cut once in 15-35; the sorting solver tries both, which a wipe-out needs
/// (FFO #59: 345,856 nodes, 301 M without the lower bound at the sorted nodes; docs/engine.md,
/// "Exact solver").
#[inline(always)]
pub(crate) fn cut<B: Bits>(
    me: B,
    opp: B,
    sign: i32,
    cells: i32,
    alpha: i32,
    beta: Option<i32>,
    bound: impl Fn(B, B) -> i32,
) -> Option<i32> {
    let (against, for_me) = if sign > 0 { (opp, me) } else { (me, opp) };
    if cells - 2 * against.count() as i32 <= alpha {
        let upper = bound(me, opp);
        if upper <= alpha {
            return Some(upper);
        }
    }
    if let Some(beta) = beta
        && 2 * for_me.count() as i32 - cells >= beta
    {
        let lower = -bound(opp, me);
        if lower >= beta {
            return Some(lower);
        }
    }
    None
}

/// An upper bound of the final score for the side owning `me` on the 8x8 board, from the discs
/// that count against it (the opponent's when `sign` is +1, most discs wins; its own when -1)
/// and can never flip.
#[inline]
pub(crate) fn bound(me: u64, opp: u64, sign: i32) -> i32 {
    let (against, other) = if sign > 0 { (opp, me) } else { (me, opp) };
    64 - 2 * stable(against, other).count_ones() as i32
}

/// The discs of `me` that can never be flipped, in the position where `me` and `opp` are the
/// two colours' discs (bit `8 * row + column`), whoever moves.
#[inline]
pub(crate) fn stable(me: u64, opp: u64) -> u64 {
    let discs = me | opp;
    let full = full_lines(discs);
    let inner = me & INNER;
    let mut stable = edge_stable(me, opp) | (inner & full[0] & full[1] & full[2] & full[3]);
    if stable == 0 {
        return 0;
    }
    loop {
        let horizontal = (stable >> 1) | (stable << 1) | full[0];
        let vertical = (stable >> 8) | (stable << 8) | full[1];
        let diagonal = (stable >> 9) | (stable << 9) | full[2];
        let anti_diagonal = (stable >> 7) | (stable << 7) | full[3];
        let next = stable | (horizontal & vertical & diagonal & anti_diagonal & inner);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The stable discs of `me` on the four edges, from the table.
#[inline(always)]
fn edge_stable(me: u64, opp: u64) -> u64 {
    let table = &**EDGE_STABLE;
    let line = |mine: u8, theirs: u8| table[usize::from(mine) << 8 | usize::from(theirs)];
    let first_row = u64::from(line(me as u8, opp as u8));
    let last_row = u64::from(line((me >> 56) as u8, (opp >> 56) as u8)) << 56;
    let column_a = COLUMN_OF_BYTE[usize::from(line(column_byte(me), column_byte(opp)))];
    let column_h =
        COLUMN_OF_BYTE[usize::from(line(column_byte(me >> 7), column_byte(opp >> 7)))] << 7;
    first_row | last_row | column_a | column_h
}

/// Column a of `set` as a byte, row `k` as bit `k` (the 64 partial products land on distinct
/// bits, so the multiplication never carries).
#[inline(always)]
pub(crate) fn column_byte(set: u64) -> u8 {
    ((set & COLUMN_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// For each of the four directions (horizontal, vertical, a1-h8 diagonal, h1-a8 diagonal), the
/// cells whose line in that direction holds no empty cell.
#[inline(always)]
fn full_lines(discs: u64) -> [u64; 4] {
    let mut rows = discs;
    rows &= rows >> 4;
    rows &= rows >> 2;
    rows &= rows >> 1;
    let horizontal = (rows & COLUMN_A) * 0xff;
    let mut vertical = discs;
    vertical &= vertical.rotate_right(8);
    vertical &= vertical.rotate_right(16);
    vertical &= vertical.rotate_right(32);
    let empties = !discs;
    // The empties spread along each diagonal both ways, without wrapping round the board.
    let spread = |up_shift: u32, up_masks: [u64; 3], down_masks: [u64; 3]| {
        let (mut up, mut down) = (empties, empties);
        for (step, (up_mask, down_mask)) in up_masks.into_iter().zip(down_masks).enumerate() {
            let shift = up_shift << step;
            up |= (up << shift) & up_mask;
            down |= (down >> shift) & down_mask;
        }
        up | down
    };
    let diagonal = !spread(9, [NOT_A, NOT_AB, NOT_A_TO_D], [NOT_H, NOT_GH, NOT_E_TO_H]);
    let anti_diagonal = !spread(7, [NOT_H, NOT_GH, NOT_E_TO_H], [NOT_A, NOT_AB, NOT_A_TO_D]);
    [horizontal, vertical, diagonal, anti_diagonal]
}

/// The table of [`EDGE_STABLE`], filled from full lines back to empty ones: a disc is stable
/// when it is still the mover's after either colour takes any empty cell, and stable there.
fn edge_table() -> Box<[u8]> {
    let mut table = vec![0u8; 1 << 16].into_boxed_slice();
    // Lines in order of their empty cells, fewest first, so that every child is done.
    let mut lines: Vec<(u8, u8)> = (0..=255u8)
        .flat_map(|mine| (0..=255u8).map(move |theirs| (mine, theirs)))
        .filter(|&(mine, theirs)| mine & theirs == 0)
        .collect();
    lines.sort_by_key(|&(mine, theirs)| (mine | theirs).count_zeros());
    for (mine, theirs) in lines {
        let empty = !(mine | theirs);
        let mut stable = mine;
        for cell in (0..8).filter(|cell| empty >> cell & 1 == 1) {
            let (after_mine, after_theirs) = play_on_line(mine, theirs, cell);
            stable &= table[usize::from(after_mine) << 8 | usize::from(after_theirs)];
            let (after_theirs, after_mine) = play_on_line(theirs, mine, cell);
            stable &= table[usize::from(after_mine) << 8 | usize::from(after_theirs)];
        }
        table[usize::from(mine) << 8 | usize::from(theirs)] = stable;
    }
    table
}

/// The line after the owner of `mover` puts a disc on the empty `cell`, flipping the other
/// colour's discs it brackets on the line: `(mover, other)` after.
fn play_on_line(mover: u8, other: u8, cell: u32) -> (u8, u8) {
    let (mut mover, mut other) = (mover | 1 << cell, other);
    for step in [1i32, -1] {
        let mut flipped = 0u8;
        let mut at = cell as i32 + step;
        while (0..8).contains(&at) && other >> at & 1 == 1 {
            flipped |= 1 << at;
            at += step;
        }
        if (0..8).contains(&at) && mover >> at & 1 == 1 {
            mover |= flipped;
            other &= !flipped;
        }
    }
    (mover, other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluation;
    use crate::shape::{Scoring, Shape};
    use othello::Dimensions;
    use othello::WinRule;
    use othello::bitboard::{Bits, Geometry};
    use othello::position::Position;
    use othello::{Full, RuleSet};
    use proptest::prelude::*;

    fn geometry() -> Geometry<u64> {
        Geometry::<u64>::new(Dimensions::STANDARD).expect("8x8 fits 64 bits")
    }

    /// The boards (black's discs, white's) of a game played on from `pos` (`black` to move
    /// when set), the legal move `choices` picks at each turn (passing when the mover has
    /// none), until the choices or the game run out; the position and mover at its end.
    fn play_out(
        geo: &Geometry<u64>,
        mut pos: Position<u64>,
        mut black: bool,
        choices: &[u8],
    ) -> (Vec<(u64, u64)>, Position<u64>, bool) {
        let colours = |pos: Position<u64>, black: bool| {
            if black {
                (pos.me, pos.opp)
            } else {
                (pos.opp, pos.me)
            }
        };
        let mut boards = vec![colours(pos, black)];
        for &choice in choices {
            let mut moves = pos.moves::<Full>(geo);
            if moves.is_empty() {
                pos = pos.passed();
                black = !black;
                moves = pos.moves::<Full>(geo);
                if moves.is_empty() {
                    break;
                }
            }
            let index = moves
                .members()
                .nth(usize::from(choice) % moves.count() as usize);
            pos = pos.play::<Full>(geo, u64::single(index.expect("a legal move")));
            black = !black;
            boards.push(colours(pos, black));
        }
        (boards, pos, black)
    }

    fn start() -> Position<u64> {
        Position {
            me: 1 << 28 | 1 << 35,
            opp: 1 << 27 | 1 << 36,
        }
    }

    #[test]
    fn column_bytes_round_trip() {
        for byte in 0..=255u8 {
            let column = COLUMN_OF_BYTE[usize::from(byte)];
            assert_eq!(column & !COLUMN_A, 0);
            assert_eq!(column_byte(column), byte);
            assert_eq!(column_byte((column << 7) >> 7), byte);
        }
        assert_eq!(column_byte(1 << 56), 0x80);
        assert_eq!(column_byte(1 | 1 << 63), 1);
    }

    #[test]
    fn edge_table_by_hand() {
        let at = |mine: u8, theirs: u8| EDGE_STABLE[usize::from(mine) << 8 | usize::from(theirs)];
        // A corner alone, and a chain from it.
        assert_eq!(at(0b0000_0001, 0), 0b0000_0001);
        assert_eq!(at(0b0000_0111, 0b0000_1000), 0b0000_0111);
        // A disc between empties can always be flipped.
        assert_eq!(at(0b0001_0000, 0), 0);
        // A full line: nothing can be played on it.
        assert_eq!(at(0b1010_1010, 0b0101_0101), 0b1010_1010);
        // b1 mine, a1 theirs: they bracket b1 by taking c1.
        assert_eq!(at(0b0000_0010, 0b0000_0001), 0);
        // Mine from a1 to g1, h1 empty: nothing of theirs on the line can bracket them.
        assert_eq!(at(0b0111_1111, 0), 0b0111_1111);
        // b1-g1 mine, both corners empty: they take a1, then h1 flips all six.
        assert_eq!(at(0b0111_1110, 0), 0);
        // No corner, yet stable: theirs on a1 and h1 is all of theirs, mine fills b1-g1, and
        // no empty cell is left to play from.
        assert_eq!(at(0b0111_1110, 0b1000_0001), 0b0111_1110);
        // Found by the table, not by a chain from a corner: a1 empty, b1 theirs, c1-h1 mine.
        // Taking a1 brackets nothing of mine; c1-h1 run to the corner h1.
        assert_eq!(at(0b1111_1100, 0b0000_0010), 0b1111_1100);
    }

    #[test]
    fn finds_every_disc_the_generic_rule_finds() {
        let geo = geometry();
        let evaluation = Evaluation::Classic;
        let shape = Shape::<u64>::new(
            Dimensions::STANDARD,
            RuleSet::Full,
            WinRule::MostDiscs,
            Scoring::DiscsOnly,
            &evaluation,
            false,
        );
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut more = 0;
        for _ in 0..300 {
            let choices: Vec<u8> = (0..60)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            for (black, white) in play_out(&geo, start(), true, &choices).0 {
                let empties = !(black | white);
                for (me, opp) in [(black, white), (white, black)] {
                    let generic = shape.stable(me, empties);
                    let found = stable(me, opp);
                    assert_eq!(generic & !found, 0, "{me:016x} {opp:016x}");
                    assert_eq!(found & !me, 0);
                    more += (found & !generic).count_ones();
                }
            }
        }
        // The edge table finds discs the corner chains do not.
        assert!(more > 0);
    }

    proptest! {
        /// No disc found stable changes colour in any game played on from its position.
        #[test]
        fn stable_discs_never_flip(
            opening in proptest::collection::vec(any::<u8>(), 10..60),
            rest in proptest::collection::vec(any::<u8>(), 60),
        ) {
            let geo = geometry();
            let (_, pos, black) = play_out(&geo, start(), true, &opening);
            let (blacks, whites) = if black { (pos.me, pos.opp) } else { (pos.opp, pos.me) };
            let (black_stable, white_stable) = (stable(blacks, whites), stable(whites, blacks));
            for (blacks, whites) in play_out(&geo, pos, black, &rest).0 {
                prop_assert_eq!(black_stable & !blacks, 0);
                prop_assert_eq!(white_stable & !whites, 0);
            }
        }
    }
}
