//! Both rule sets through the public API, at every edge and corner, in all 8 directions, on
//! square and non-square boards and at every bit width a board fits; and the game around them:
//! passing, the end, the win rules and move errors.

use othello::bitboard::{Bits, Geometry, U256};
use othello::{
    Board, Color, Dimensions, Full, Game, MoveError, Outcome, RuleSet, Rules, Setup, Simple,
    Square, WinRule,
};

use crate::reference::DIRECTIONS;

const B: Color = Color::Black;
const W: Color = Color::White;

/// Square and non-square boards, the smallest and the largest, at each bit width.
const SIZES: [(usize, usize); 9] = [
    (4, 4),
    (4, 16),
    (16, 4),
    (6, 10),
    (10, 6),
    (8, 8),
    (8, 16),
    (12, 12),
    (16, 16),
];

fn dims(rows: usize, cols: usize) -> Dimensions {
    Dimensions::new(rows, cols).unwrap()
}

fn sq(row: usize, col: usize) -> Square {
    Square::new(row, col)
}

/// The square `steps` steps from `from` in direction `(dr, dc)`, if it is on the board.
fn step(dims: Dimensions, from: Square, (dr, dc): (i32, i32), steps: i32) -> Option<Square> {
    let row = from.row() as i32 + dr * steps;
    let col = from.col() as i32 + dc * steps;
    let on = (0..dims.rows() as i32).contains(&row) && (0..dims.cols() as i32).contains(&col);
    on.then(|| sq(row as usize, col as usize))
}

/// `rules.flips` and `rules.legal_moves` at width `B`, or `None` if the board does not fit.
/// Checks that the move is in the legal set exactly when it flips something.
fn flips_at<Set: Bits>(
    rules: RuleSet,
    board: &Board,
    mover: Color,
    mv: Square,
) -> Option<Vec<Square>> {
    let geo = Geometry::<Set>::new(board.dims())?;
    let me = Set::from_wide(board.discs(mover));
    let opp = Set::from_wide(board.discs(mover.opponent()));
    let flipped = rules.flips(&geo, me, opp, geo.bit(mv));
    let legal = rules.legal_moves(&geo, me, opp) & geo.bit(mv);
    assert_eq!(
        legal.is_empty(),
        flipped.is_empty(),
        "{rules} {mover} at {mv}: legal set and flips disagree on\n{board}"
    );
    Some(geo.squares(flipped).collect())
}

/// The flips of `mv` at every width the board fits (they must agree), sorted row by row.
fn flips(rules: RuleSet, board: &Board, mover: Color, mv: Square) -> Vec<Square> {
    let wide = flips_at::<U256>(rules, board, mover, mv).unwrap();
    for narrow in [
        flips_at::<u64>(rules, board, mover, mv),
        flips_at::<u128>(rules, board, mover, mv),
    ]
    .into_iter()
    .flatten()
    {
        assert_eq!(
            narrow, wide,
            "{rules} {mover} at {mv}: widths disagree on\n{board}"
        );
    }
    wide
}

fn sorted(mut squares: Vec<Square>) -> Vec<Square> {
    squares.sort_by_key(|s| (s.row(), s.col()));
    squares
}

/// A board from a picture in the protocol's grid format.
fn board(picture: &[&str]) -> Board {
    setup(picture, B, WinRule::MostDiscs).board
}

fn setup(picture: &[&str], first: Color, win: WinRule) -> Setup {
    let text = format!(
        "{}\n{}\n{}\n{}\n{}\n",
        picture.len(),
        picture[0].split_whitespace().count(),
        first.letter(),
        win.symbol(),
        picture.join("\n")
    );
    Setup::from_protocol(&text).unwrap()
}

/// What fills the cells off the line under test.
#[derive(Clone, Copy, Debug)]
enum Background {
    Empty,
    /// The mover's discs everywhere else: a run that wrapped from one row into the next, or
    /// off the board and back, would find a closing disc.
    Mover,
}

/// FULL, from every square of every size, in each of the 8 directions, for every run length:
/// a run of opponent discs closed by a mover's disc flips exactly that run; a run that reaches
/// the edge of the board unclosed flips nothing (and the move is illegal).
#[test]
fn full_single_runs_in_every_direction_from_every_square() {
    let mut checked = 0;
    for (rows, cols) in SIZES {
        let dims = dims(rows, cols);
        let filled_with = |color| {
            let mut board = Board::empty(dims);
            for cell in dims.squares() {
                board.set(cell, Some(color)).unwrap();
            }
            board
        };
        let filled = [filled_with(B), filled_with(W)];
        for mv in dims.squares() {
            for direction in DIRECTIONS {
                let room = (1..=16)
                    .take_while(|&k| step(dims, mv, direction, k).is_some())
                    .count();
                for len in 1..=room {
                    // Both colours move, alternating by square and length. The filled
                    // background for every run; the empty one for the shortest run and the
                    // run to the edge.
                    let mover = [B, W][(mv.row() + mv.col() + len) % 2];
                    let mut backgrounds = vec![Background::Mover];
                    if len == 1 || len == room {
                        backgrounds.push(Background::Empty);
                    }
                    for background in backgrounds {
                        let mut position = match background {
                            Background::Empty => Board::empty(dims),
                            Background::Mover => filled[usize::from(mover == W)],
                        };
                        position.set(mv, None).unwrap();
                        let run: Vec<Square> = (1..=len as i32)
                            .map(|k| step(dims, mv, direction, k).unwrap())
                            .collect();
                        for &cell in &run {
                            position.set(cell, Some(mover.opponent())).unwrap();
                        }
                        let closer = step(dims, mv, direction, len as i32 + 1);
                        if let Some(closer) = closer {
                            position.set(closer, Some(mover)).unwrap();
                        }
                        let expected = if closer.is_some() {
                            sorted(run)
                        } else {
                            vec![]
                        };
                        assert_eq!(
                            flips(RuleSet::Full, &position, mover, mv),
                            expected,
                            "{dims} {mover} at {mv} towards {direction:?}, run {len}, \
                             {background:?}:\n{position}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 30_000, "{checked}");
}

/// The runs that shifts would wrap: from the last column into the next row's first column
/// (and back), on every size. The only "closing" disc sits where a wrapped shift lands.
#[test]
fn full_runs_do_not_wrap_around_the_row_ends() {
    for (rows, cols) in SIZES {
        let dims = dims(rows, cols);
        let (last, r) = (cols - 1, rows / 2 - 1);
        // East: move, then opponent discs to the last column; bit index + 1 is (r + 1, 0).
        // South-east from next to the last column; index + cols + 1 lands on (r + 2, 0).
        // West and south-west mirror them at the first column.
        let traps = [
            (sq(r, last - 1), vec![sq(r, last)], sq(r + 1, 0)),
            (
                sq(r, last - 2),
                vec![sq(r, last - 1), sq(r, last)],
                sq(r + 1, 0),
            ),
            (
                sq(r, 1),
                vec![sq(r, 0)],
                sq(r - 1 + usize::from(r == 0), last),
            ),
            (sq(r, last - 1), vec![sq(r + 1, last)], sq(r + 2, 0)),
            (sq(r, 1), vec![sq(r + 1, 0)], sq(r + 1, last)),
            (
                sq(r + 1, 1),
                vec![sq(r, 0)],
                sq(r - 1 + usize::from(r == 0), last),
            ),
        ];
        for (mv, run, wrapped) in traps {
            if run.contains(&wrapped) || wrapped == mv {
                continue;
            }
            let mut position = Board::empty(dims);
            for &cell in &run {
                position.set(cell, Some(W)).unwrap();
            }
            position.set(wrapped, Some(B)).unwrap();
            assert_eq!(
                flips(RuleSet::Full, &position, B, mv),
                vec![],
                "{dims}: B at {mv} must not flip through the edge to {wrapped}:\n{position}"
            );
        }
    }
}

#[test]
fn full_flips_in_several_directions_at_once() {
    let position = board(&[
        "B . B . B .",
        ". W W W . .",
        "B W . W B .",
        ". W W W . .",
        "B . W . B .",
        ". . B . . .",
    ]);
    // From c3: N, S, E, W, and all four diagonals are closed except S (c4 W, c5 W, c6 B) which
    // is closed two long.
    let expected = sorted(vec![
        sq(1, 1),
        sq(1, 2),
        sq(1, 3),
        sq(2, 1),
        sq(2, 3),
        sq(3, 1),
        sq(3, 2),
        sq(3, 3),
        sq(4, 2),
    ]);
    assert_eq!(flips(RuleSet::Full, &position, B, sq(2, 2)), expected);
    // With the far end of the southern run removed, that run no longer flips.
    let mut open = position;
    open.set(sq(5, 2), None).unwrap();
    let expected_open: Vec<Square> = expected
        .into_iter()
        .filter(|&s| s != sq(3, 2) && s != sq(4, 2))
        .collect();
    assert_eq!(flips(RuleSet::Full, &open, B, sq(2, 2)), expected_open);
}

#[test]
fn full_corners_flip_along_the_edges_and_the_diagonal() {
    for (rows, cols) in SIZES {
        let dims = dims(rows, cols);
        let (lr, lc) = (rows - 1, cols - 1);
        let corners = [
            (sq(0, 0), (1, 1)),
            (sq(0, lc), (1, -1)),
            (sq(lr, 0), (-1, 1)),
            (sq(lr, lc), (-1, -1)),
        ];
        for (corner, (dr, dc)) in corners {
            let mut position = Board::empty(dims);
            let mut expected = Vec::new();
            for direction in [(dr, 0), (0, dc), (dr, dc)] {
                let first = step(dims, corner, direction, 1).unwrap();
                let second = step(dims, corner, direction, 2).unwrap();
                position.set(first, Some(W)).unwrap();
                position.set(second, Some(B)).unwrap();
                expected.push(first);
            }
            assert_eq!(
                flips(RuleSet::Full, &position, B, corner),
                sorted(expected),
                "{dims} corner {corner}"
            );
        }
    }
}

/// SIMPLE, from every square of every size: every opponent disc among the on-board
/// neighbours flips, whatever lies beyond; nothing else does, even where a shift would wrap.
#[test]
fn simple_flips_exactly_the_neighbours_at_every_square() {
    for (rows, cols) in SIZES {
        let dims = dims(rows, cols);
        for mv in dims.squares() {
            let neighbours: Vec<Square> = DIRECTIONS
                .iter()
                .filter_map(|&d| step(dims, mv, d, 1))
                .collect();
            // All opponent discs: exactly the neighbours flip.
            let mut all_white = Board::empty(dims);
            for cell in dims.squares() {
                all_white.set(cell, Some(W)).unwrap();
            }
            all_white.set(mv, None).unwrap();
            assert_eq!(
                flips(RuleSet::Simple, &all_white, B, mv),
                sorted(neighbours.clone()),
                "{dims} at {mv}"
            );
            // Opponent discs everywhere but next to the move: illegal.
            let mut ring = all_white;
            for &cell in &neighbours {
                ring.set(cell, Some(B)).unwrap();
            }
            assert_eq!(
                flips(RuleSet::Simple, &ring, B, mv),
                vec![],
                "{dims} at {mv}"
            );
            // One opponent neighbour at a time, in each direction.
            for &cell in &neighbours {
                let mut one = Board::empty(dims);
                one.set(cell, Some(W)).unwrap();
                assert_eq!(flips(RuleSet::Simple, &one, B, mv), vec![cell]);
                assert_eq!(flips(RuleSet::Simple, &one, W, mv), vec![]);
            }
        }
    }
}

#[test]
fn simple_does_not_need_a_closing_disc_and_flips_only_distance_one() {
    let position = board(&["W W W .", "W . . .", ". . . .", ". . . ."]);
    assert_eq!(
        flips(RuleSet::Simple, &position, B, sq(1, 1)),
        vec![sq(0, 0), sq(0, 1), sq(0, 2), sq(1, 0)]
    );
    // Under FULL the same move flips nothing: no black disc closes a run.
    assert_eq!(flips(RuleSet::Full, &position, B, sq(1, 1)), vec![]);
    // An occupied square is never a move.
    assert_eq!(flips(RuleSet::Simple, &position, B, sq(0, 0)), vec![]);
}

#[test]
fn rule_set_forwards_to_the_rule_types() {
    let geo = Geometry::<u64>::new(Dimensions::STANDARD).unwrap();
    let start = Board::standard(Dimensions::STANDARD);
    let (me, opp) = (
        u64::from_wide(start.discs(B)),
        u64::from_wide(start.discs(W)),
    );
    assert_eq!(
        RuleSet::Full.legal_moves(&geo, me, opp),
        Full::legal_moves(&geo, me, opp)
    );
    assert_eq!(
        RuleSet::Simple.legal_moves(&geo, me, opp),
        Simple::legal_moves(&geo, me, opp)
    );
    assert_eq!(Full::RULE_SET, RuleSet::Full);
    assert_eq!(Simple::RULE_SET, RuleSet::Simple);
    assert_eq!(Full::legal_moves(&geo, me, opp).count(), 4);
    assert_eq!(Simple::legal_moves(&geo, me, opp).count(), 10);
}

// --- the game ------------------------------------------------------------------------------

fn game(picture: &[&str], first: Color, win: WinRule, rules: RuleSet) -> Game {
    Game::new(setup(picture, first, win), rules)
}

#[test]
fn a_player_without_a_move_passes_and_the_mover_moves_again() {
    let mut position = game(
        &["B B B B", "W B W .", ". W W .", "W . W B"],
        B,
        WinRule::MostDiscs,
        RuleSet::Full,
    );
    assert_eq!(position.turn(), Some(B));
    let played = position.play(sq(2, 0)).unwrap();
    assert_eq!(played.flipped, 1);
    assert_eq!(played.passed, Some(W));
    assert_eq!(position.turn(), Some(B));
    assert!(position.moves_of(W).is_empty());
    assert!(!position.legal_moves().is_empty());
}

#[test]
fn the_other_player_starts_when_the_first_cannot_move() {
    let picture = ["W B . .", ". . . .", ". . . .", ". . . ."];
    let position = game(&picture, B, WinRule::MostDiscs, RuleSet::Full);
    assert_eq!(position.first_player(), B);
    assert_eq!(position.turn(), Some(W));
    assert_eq!(position.legal_moves(), vec![sq(0, 2)]);
    // Under SIMPLE black can move (next to the white disc).
    let simple = game(&picture, B, WinRule::MostDiscs, RuleSet::Simple);
    assert_eq!(simple.turn(), Some(B));
}

#[test]
fn a_game_where_nobody_can_move_is_over_at_the_start() {
    let only_black = [". . . .", ". B B .", ". B B .", ". . . ."];
    let most = game(&only_black, W, WinRule::MostDiscs, RuleSet::Full);
    assert!(most.is_over());
    assert_eq!(most.turn(), None);
    assert!(most.legal_moves().is_empty());
    assert_eq!(most.outcome(), Some(Outcome::Win(B)));
    let fewest = game(&only_black, W, WinRule::FewestDiscs, RuleSet::Full);
    assert_eq!(fewest.outcome(), Some(Outcome::Win(W)));
    // Under SIMPLE white could play next to a black disc: not over.
    assert!(!game(&only_black, W, WinRule::MostDiscs, RuleSet::Simple).is_over());
    // The empty board: over for both rule sets, a draw.
    for rules in RuleSet::ALL {
        let empty = Game::new(
            Setup {
                board: Board::empty(dims(6, 10)),
                first: B,
                win: WinRule::MostDiscs,
            },
            rules,
        );
        assert_eq!(empty.outcome(), Some(Outcome::Draw));
        assert_eq!(empty.outcome().unwrap().protocol_name(), "NONE");
    }
}

#[test]
fn fewest_discs_wins_under_the_less_than_rule_and_equal_counts_tie() {
    use othello::ByColor;
    let counts = |black, white| ByColor { black, white };
    assert_eq!(
        Outcome::from_counts(counts(10, 6), WinRule::MostDiscs),
        Outcome::Win(B)
    );
    assert_eq!(
        Outcome::from_counts(counts(10, 6), WinRule::FewestDiscs),
        Outcome::Win(W)
    );
    assert_eq!(
        Outcome::from_counts(counts(0, 1), WinRule::FewestDiscs),
        Outcome::Win(B)
    );
    for win in [WinRule::MostDiscs, WinRule::FewestDiscs] {
        assert_eq!(Outcome::from_counts(counts(8, 8), win), Outcome::Draw);
        assert_eq!(Outcome::from_counts(counts(8, 8), win).winner(), None);
    }
    assert_eq!(Outcome::Win(W).protocol_name(), "W");
    // A game that ends full under `<`.
    let mut position = game(
        &["B B B B", "B B B B", "B B B B", "B B B ."],
        W,
        WinRule::FewestDiscs,
        RuleSet::Simple,
    );
    position.play(sq(3, 3)).unwrap();
    assert_eq!(position.score(), counts(12, 4));
    assert_eq!(position.outcome(), Some(Outcome::Win(W)));
}

#[test]
fn move_errors_leave_the_game_unchanged() {
    for rules in RuleSet::ALL {
        let mut position = Game::new(Setup::standard(dims(4, 6)), rules);
        let before = position.clone();
        let out_of_bounds = [sq(4, 0), sq(0, 6), sq(15, 0), sq(15, 15)];
        for square in out_of_bounds {
            assert!(
                matches!(position.play(square), Err(MoveError::OutOfBounds(e)) if e.square == square),
                "{square}"
            );
            assert!(!position.is_legal(square));
            assert!(position.flips(square).is_err());
        }
        assert_eq!(
            position.play(sq(1, 2)),
            Err(MoveError::Occupied { square: sq(1, 2) })
        );
        assert_eq!(
            position.play(sq(3, 5)),
            Err(MoveError::Illegal {
                square: sq(3, 5),
                player: B
            })
        );
        assert_eq!(position, before);
        let message = position.play(sq(3, 5)).unwrap_err().to_string();
        assert!(
            message.contains("f4") && message.contains("black"),
            "{message}"
        );
    }
    let mut over = game(
        &["B B B B", "B B B B", "B B B B", "B B B B"],
        B,
        WinRule::MostDiscs,
        RuleSet::Full,
    );
    let before = over.clone();
    assert_eq!(over.play(sq(0, 0)), Err(MoveError::GameOver));
    assert_eq!(over.play(sq(9, 9)), Err(MoveError::GameOver));
    assert_eq!(over, before);
}

#[test]
fn playing_flips_what_flips_said_and_counts_them() {
    let mut position = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let d3 = sq(2, 3);
    assert_eq!(position.flips(d3), Ok(vec![sq(3, 3)]));
    let played = position.play(d3).unwrap();
    assert_eq!((played.square, played.player, played.flipped), (d3, B, 1));
    assert_eq!(played.passed, None);
    assert_eq!(position.board().get(sq(3, 3)), Ok(Some(B)));
    assert_eq!(position.score().black, 4);
    assert_eq!(position.turn(), Some(W));
}
