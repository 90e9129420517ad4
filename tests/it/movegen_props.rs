//! Property tests: on random positions of every board size, the bit-set move generator agrees
//! with the cell-by-cell reference model, at every width that holds the board.

use proptest::prelude::*;

use othello::bitboard::{Bits, Geometry, U256};
use othello::{Board, Color, Dimensions, Full, RuleSet, Rules, Simple, Square};

use crate::reference::Model;

/// The sizes checked: square, long and flat, and one per width class.
const SIZES: [(usize, usize); 9] = [
    (4, 4),
    (4, 16),
    (16, 4),
    (6, 10),
    (8, 8),
    (8, 16),
    (10, 10),
    (12, 14),
    (16, 16),
];

/// A random position: a size, then for every cell a roll deciding empty, black or white
/// (with the share of empty cells and of black discs themselves random, so that both sparse
/// boards and long runs of one colour occur), and the side to move.
fn position() -> impl Strategy<Value = (Board, Color)> {
    (0..SIZES.len(), 0u32..100, 0u32..100, any::<bool>()).prop_flat_map(
        |(size, empty_share, black_share, black_moves)| {
            let (rows, cols) = SIZES[size];
            proptest::collection::vec(0u32..10_000, rows * cols).prop_map(move |rolls| {
                let dims = Dimensions::new(rows, cols).unwrap();
                let mut board = Board::empty(dims);
                for (square, roll) in dims.squares().zip(rolls) {
                    let empty = roll % 100 < empty_share;
                    let black = (roll / 100) < black_share;
                    let disc = (!empty).then_some(if black { Color::Black } else { Color::White });
                    board.set(square, disc).unwrap();
                }
                let mover = if black_moves {
                    Color::Black
                } else {
                    Color::White
                };
                (board, mover)
            })
        },
    )
}

fn cells<B: Bits>(geo: &Geometry<B>, set: B) -> Vec<(usize, usize)> {
    let mut found: Vec<(usize, usize)> = set
        .members()
        .map(|index| {
            let square = geo.square(index);
            (square.row(), square.col())
        })
        .collect();
    found.sort();
    found
}

/// The discs of `mover` and of the opponent at width `B`.
fn discs<B: Bits>(board: &Board, mover: Color) -> (B, B) {
    let at_width = |color| B::from_wide(board.discs(color));
    (at_width(mover), at_width(mover.opponent()))
}

/// Moves and the flips of every empty cell at width `B`, or nothing when the board does not
/// fit it.
fn check_width<R: Rules, B: Bits>(board: &Board, mover: Color) -> Result<(), TestCaseError> {
    let Some(geo) = Geometry::<B>::new(board.dims()) else {
        return Ok(());
    };
    let rules = R::RULE_SET;
    let model = Model::from_board(board);
    let (me, opp) = discs::<B>(board, mover);
    let moves = R::legal_moves(&geo, me, opp);
    prop_assert_eq!(
        cells(&geo, moves),
        model.moves(rules, mover),
        "{} moves",
        rules
    );
    for square in board.dims().squares() {
        let (r, c) = (square.row(), square.col());
        let mv = geo.bit(square);
        let flips = R::flips(&geo, me, opp, mv);
        let expected = model.flips(rules, mover, r, c);
        prop_assert_eq!(
            cells(&geo, flips),
            expected,
            "{} flips at {}",
            rules,
            square
        );
        if board.get(square).unwrap().is_none() {
            prop_assert_eq!(R::flips_at_empty(&geo, me, opp, mv), flips);
        }
    }
    Ok(())
}

fn check_every_width<R: Rules>(board: &Board, mover: Color) -> Result<(), TestCaseError> {
    check_width::<R, u64>(board, mover)?;
    check_width::<R, u128>(board, mover)?;
    check_width::<R, U256>(board, mover)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn full_moves_and_flips_match_the_model((board, mover) in position()) {
        check_every_width::<Full>(&board, mover)?;
    }

    #[test]
    fn simple_moves_and_flips_match_the_model((board, mover) in position()) {
        check_every_width::<Simple>(&board, mover)?;
    }

    #[test]
    fn rule_set_forwards_to_the_rules((board, mover) in position()) {
        let geo = Geometry::<U256>::new(board.dims()).unwrap();
        let (me, opp) = discs::<U256>(&board, mover);
        for rules in RuleSet::ALL {
            let moves = rules.legal_moves(&geo, me, opp);
            let expected = match rules {
                RuleSet::Full => Full::legal_moves(&geo, me, opp),
                RuleSet::Simple => Simple::legal_moves(&geo, me, opp),
            };
            prop_assert_eq!(moves, expected);
        }
    }
}

/// Runs of every length along every line: a row, a column and both diagonals full of the
/// opponent's discs, closed by the mover's disc, on the largest board.
#[test]
fn longest_runs_flip_on_the_largest_board() {
    let dims = Dimensions::new(16, 16).unwrap();
    let geo = Geometry::<U256>::new(dims).unwrap();
    for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
        for length in 1..=14 {
            let mut board = Board::empty(dims);
            let start = if dc < 0 { (0, 15) } else { (0, 0) };
            let at = |k: i32| Square::new((start.0 + dr * k) as u8, (start.1 + dc * k) as u8);
            board.set(at(0), Some(Color::Black)).unwrap();
            for k in 1..=length {
                board.set(at(k), Some(Color::White)).unwrap();
            }
            let (me, opp) = discs::<U256>(&board, Color::Black);
            let mv = at(length + 1);
            let flips = Full::flips(&geo, me, opp, geo.bit(mv));
            assert_eq!(
                flips.count(),
                length as u32,
                "direction ({dr},{dc}) length {length}"
            );
            let moves = Full::legal_moves(&geo, me, opp);
            assert_eq!(moves & geo.bit(mv), geo.bit(mv));
        }
    }
}
