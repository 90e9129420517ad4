//! The random start positions of test cases: discs scattered at random, a position where the
//! first player must pass, and one where the game is already over. Each constructed position is
//! tried [`ATTEMPTS`] times at random, then built by a fixed construction with the same property.

use rand::Rng;

use othello::{Board, Color, Dimensions, Game, RuleSet, Setup, Square, WinRule};

use super::below;

/// How many random candidates a constructed start position may take before the generator falls
/// back to a fixed construction with the same property.
const ATTEMPTS: usize = 32;

/// Whether an event of `percent` in 100 happens.
fn chance(rng: &mut impl Rng, percent: u32) -> bool {
    rng.random_range(0..100u32) < percent
}

fn put(board: &mut Board, square: Square, disc: Option<Color>) {
    board
        .set(square, disc)
        .expect("squares come from the board's own dimensions");
}

/// Discs at a random density (5% to 95% of the cells) and black share (20% to 80%).
pub(super) fn scattered(dims: Dimensions, rng: &mut impl Rng) -> Board {
    let density = rng.random_range(5..=95);
    let black_share = rng.random_range(20..=80);
    let mut board = Board::empty(dims);
    for square in dims.squares() {
        if chance(rng, density) {
            let color = if chance(rng, black_share) {
                Color::Black
            } else {
                Color::White
            };
            put(&mut board, square, Some(color));
        }
    }
    board
}

/// The squares around `square` that are on the board.
fn neighbours(dims: Dimensions, square: Square) -> impl Iterator<Item = Square> {
    let (row, col) = (square.row() as isize, square.col() as isize);
    (-1..=1)
        .flat_map(move |dr| (-1..=1).map(move |dc| (row + dr, col + dc)))
        .filter(move |&(r, c)| {
            (r, c) != (row, col)
                && (0..dims.rows() as isize).contains(&r)
                && (0..dims.cols() as isize).contains(&c)
        })
        .map(|(r, c)| Square::new(r as usize, c as usize))
}

/// A position where `first` cannot move and the opponent can.
///
/// When no empty cell touches an opponent disc, the first player has no move under either rule
/// set (a FULL capture starts next to the move, and so does every SIMPLE one). So: pick empty
/// cells, give their neighbours to the first player, fill the rest at random, and keep the
/// result if the opponent can move.
pub(super) fn first_player_passes(
    dims: Dimensions,
    first: Color,
    rules: RuleSet,
    rng: &mut impl Rng,
) -> Board {
    let passes = |board: &Board| {
        let setup = Setup {
            board: *board,
            first,
            win: WinRule::MostDiscs,
        };
        Game::new(setup, rules).turn() == Some(first.opponent())
    };
    for _ in 0..ATTEMPTS {
        let empty_share = rng.random_range(3..=40);
        let opponent_share = rng.random_range(30..=90);
        let mut empty: Vec<bool> = dims.squares().map(|_| chance(rng, empty_share)).collect();
        if !empty.contains(&true) {
            let cell = below(rng, empty.len());
            empty[cell] = true;
        }
        let mut board = Board::empty(dims);
        for (index, square) in dims.squares().enumerate() {
            if empty[index] {
                continue;
            }
            let touches_empty =
                neighbours(dims, square).any(|n| empty[n.row() * dims.cols() + n.col()]);
            let color = if !touches_empty && chance(rng, opponent_share) {
                first.opponent()
            } else {
                first
            };
            put(&mut board, square, Some(color));
        }
        if passes(&board) {
            return board;
        }
    }
    let board = corner_for_the_opponent(dims, first, rng);
    debug_assert!(passes(&board));
    board
}

/// A full board of `first`'s discs but for an empty corner, with an opponent disc two cells
/// from it along the edge: only the opponent can move (taking the corner), under either rule set.
fn corner_for_the_opponent(dims: Dimensions, first: Color, rng: &mut impl Rng) -> Board {
    let mut board = Board::empty(dims);
    for square in dims.squares() {
        put(&mut board, square, Some(first));
    }
    let (bottom, right) = (rng.random_bool(0.5), rng.random_bool(0.5));
    let row = if bottom { dims.rows() - 1 } else { 0 };
    let col = if right { dims.cols() - 1 } else { 0 };
    let anchor_col = if right { col - 2 } else { col + 2 };
    put(&mut board, Square::new(row, col), None);
    put(
        &mut board,
        Square::new(row, anchor_col),
        Some(first.opponent()),
    );
    board
}

/// A position where neither player can move: a full board (sometimes with equal counts), an
/// empty board, or a random position that happens to be over (FULL rules often allow one with
/// empty cells: one colour only, or a crowded board).
pub(super) fn already_over(dims: Dimensions, rules: RuleSet, rng: &mut impl Rng) -> Board {
    let over = |board: &Board| {
        let setup = Setup {
            board: *board,
            first: Color::Black,
            win: WinRule::MostDiscs,
        };
        Game::new(setup, rules).is_over()
    };
    for _ in 0..ATTEMPTS {
        let board = match rng.random_range(0..20u32) {
            0 => Board::empty(dims),
            1..=8 => full_board(dims, rng),
            9..=12 => {
                let color = if rng.random_bool(0.5) {
                    Color::Black
                } else {
                    Color::White
                };
                let density = rng.random_range(5..=95);
                let mut board = Board::empty(dims);
                for square in dims.squares() {
                    if chance(rng, density) {
                        put(&mut board, square, Some(color));
                    }
                }
                board
            }
            _ => {
                let mut board = scattered(dims, rng);
                for square in dims.squares() {
                    if board.get(square) == Ok(None) && chance(rng, 90) {
                        let color = if rng.random_bool(0.5) {
                            Color::Black
                        } else {
                            Color::White
                        };
                        put(&mut board, square, Some(color));
                    }
                }
                board
            }
        };
        if over(&board) {
            return board;
        }
    }
    full_board(dims, rng)
}

/// Every cell filled; a quarter of the time with exactly as many black discs as white ones.
fn full_board(dims: Dimensions, rng: &mut impl Rng) -> Board {
    let cells = dims.cells();
    let black = if chance(rng, 25) {
        cells / 2
    } else {
        below(rng, cells + 1)
    };
    // The first `black` cells of a shuffled order are black.
    let mut order: Vec<Square> = dims.squares().collect();
    for i in (1..order.len()).rev() {
        order.swap(i, below(rng, i + 1));
    }
    let mut board = Board::empty(dims);
    for (i, square) in order.into_iter().enumerate() {
        let color = if i < black {
            Color::Black
        } else {
            Color::White
        };
        put(&mut board, square, Some(color));
    }
    board
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    use super::*;

    #[test]
    fn constructed_positions_have_their_property_in_both_rule_sets() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for rules in RuleSet::ALL {
            for (rows, cols) in [(4, 4), (4, 16), (16, 4), (8, 10), (16, 16)] {
                let dims = Dimensions::new(rows, cols).unwrap();
                for first in Color::ALL {
                    for _ in 0..10 {
                        for board in [
                            first_player_passes(dims, first, rules, &mut rng),
                            corner_for_the_opponent(dims, first, &mut rng),
                        ] {
                            let setup = Setup {
                                board,
                                first,
                                win: WinRule::MostDiscs,
                            };
                            assert_eq!(Game::new(setup, rules).turn(), Some(first.opponent()));
                        }
                        for board in [
                            already_over(dims, rules, &mut rng),
                            full_board(dims, &mut rng),
                        ] {
                            let setup = Setup {
                                board,
                                first,
                                win: WinRule::MostDiscs,
                            };
                            assert!(Game::new(setup, rules).is_over());
                        }
                    }
                }
            }
        }
    }
}
