//! Property tests against the naive reference model (`reference.rs`), on random boards of every
//! supported size, random first players and both rule sets:
//! - the bit-set move generator, at every width that holds the board;
//! - the game: moves, turns, passes, scores and the winner along random games;
//! - the protocol, against a transcript written from the model.

use othello::bitboard::{Bits, Geometry, U256};
use othello::protocol::{self, EndError};
use othello::{
    Board, Color, Dimensions, Full, Game, RuleSet, Rules, Setup, Simple, Square, WinRule,
};
use proptest::prelude::*;

use crate::reference::Model;

/// A random starting setup: rows and columns even 4..=16 independently, each cell black,
/// white or empty with densities drawn per case (from nearly empty to nearly full).
fn setups() -> impl Strategy<Value = Setup> {
    let side = (2..=8usize).prop_map(|half| 2 * half);
    (
        side.clone(),
        side,
        0..=100u32,
        0..=100u32,
        proptest::collection::vec(0..100u32, 256),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(rows, cols, filled, black_share, dice, white_first, fewest)| {
                let dims = Dimensions::new(rows, cols).unwrap();
                let mut board = Board::empty(dims);
                for (square, &die) in dims.squares().zip(&dice) {
                    let disc = if die >= filled {
                        None
                    } else if die * 100 < filled * black_share {
                        Some(Color::Black)
                    } else {
                        Some(Color::White)
                    };
                    board.set(square, disc).unwrap();
                }
                Setup {
                    board,
                    first: if white_first {
                        Color::White
                    } else {
                        Color::Black
                    },
                    win: if fewest {
                        WinRule::FewestDiscs
                    } else {
                        WinRule::MostDiscs
                    },
                }
            },
        )
}

/// Setups from a fuller family as well: the standard opening of a random size with a few
/// random discs added, so that long games are common.
fn opening_setups() -> impl Strategy<Value = Setup> {
    let side = (2..=8usize).prop_map(|half| 2 * half);
    (
        side.clone(),
        side,
        proptest::collection::vec((0..16usize, 0..16usize, any::<bool>()), 0..6),
        any::<bool>(),
    )
        .prop_map(|(rows, cols, extra, white_first)| {
            let dims = Dimensions::new(rows, cols).unwrap();
            let mut setup = Setup::standard(dims);
            for (row, col, black) in extra {
                let square = Square::new(row % rows, col % cols);
                let color = if black { Color::Black } else { Color::White };
                setup.board.set(square, Some(color)).unwrap();
            }
            if white_first {
                setup.first = Color::White;
            }
            setup
        })
}

fn rule_sets() -> impl Strategy<Value = RuleSet> {
    prop_oneof![Just(RuleSet::Full), Just(RuleSet::Simple)]
}

fn cell(square: Square) -> (usize, usize) {
    (square.row(), square.col())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// (a) The legal moves of both players and the turn agree with the model, and so do the
    /// flips of every cell at every bit width the board fits.
    #[test]
    fn moves_and_flips_match_the_model(setup in setups(), rules in rule_sets()) {
        let game = Game::new(setup, rules);
        let model = Model::from_board(&setup.board);
        for player in Color::ALL {
            let moves: Vec<_> = game.moves_of(player).into_iter().map(cell).collect();
            prop_assert_eq!(&moves, &model.moves(rules, player), "moves of {}", player);
            match rules {
                RuleSet::Full => check_every_width::<Full>(&setup.board, player)?,
                RuleSet::Simple => check_every_width::<Simple>(&setup.board, player)?,
            }
        }
        let turn = model.next_turn(rules, setup.first.opponent());
        prop_assert_eq!(game.turn(), turn);
    }
}

// --- the move generator at every bit width ---------------------------------------------------

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
    found.sort_unstable();
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
    let legal = R::legal_moves(&geo, me, opp);
    prop_assert_eq!(
        cells(&geo, legal),
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
            let at = |k: i32| Square::new((start.0 + dr * k) as usize, (start.1 + dc * k) as usize);
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

// --- the game along random games ------------------------------------------------------------

/// Plays `choices` (indices into the legal moves, taken modulo their number) with the game and
/// the model in lockstep until the game ends, checking every step.
fn play_in_lockstep(setup: Setup, rules: RuleSet, choices: &[usize]) -> Result<(), TestCaseError> {
    let mut game = Game::new(setup, rules);
    let mut model = Model::from_board(&setup.board);
    let dims = setup.board.dims();
    prop_assert_eq!(game.turn(), model.next_turn(rules, setup.first.opponent()));
    let mut moves_played = 0;
    let mut choice = choices.iter().cycle();
    while let Some(player) = game.turn() {
        prop_assert!(moves_played < dims.cells(), "the game outlasts the board");
        let moves = model.moves(rules, player);
        prop_assert!(!moves.is_empty(), "{} to move without a move", player);
        let (row, col) = moves[choice.next().unwrap() % moves.len()];
        let expected_flips = model.flips(rules, player, row, col).len() as u32;
        let before = game.score();
        let played = game
            .play(Square::new(row, col))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        model.play(rules, player, row, col);
        moves_played += 1;

        prop_assert_eq!(played.flipped, expected_flips);
        let after = game.score();
        prop_assert_eq!(after.black + after.white, before.black + before.white + 1);
        prop_assert_eq!(after[player], before[player] + 1 + played.flipped);
        prop_assert_eq!(
            after[player.opponent()],
            before[player.opponent()] - played.flipped
        );
        prop_assert_eq!(&Model::from_board(game.board()), &model);
        let next = model.next_turn(rules, player);
        prop_assert_eq!(game.turn(), next);
        prop_assert_eq!(
            played.passed,
            (next == Some(player)).then_some(player.opponent())
        );
    }
    prop_assert!(game.is_over());
    prop_assert_eq!(
        game.outcome().unwrap().protocol_name(),
        model.winner(setup.win)
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// (b) Random games to the end: same boards, turns and winner as the model; discs are
    /// conserved and the game ends within rows * cols moves.
    #[test]
    fn random_games_match_the_model(
        setup in prop_oneof![setups(), opening_setups()],
        rules in rule_sets(),
        choices in proptest::collection::vec(any::<usize>(), 1..64),
    ) {
        play_in_lockstep(setup, rules, &choices)?;
    }
}

// --- the protocol against a transcript written from the model -------------------------------

/// A move line as generated: a legal move (an index into the moves of the player to move), a
/// cell by 1-based row and column (legal or not, on the board or not), or junk.
#[derive(Clone, Debug)]
enum LineSpec {
    Legal(usize),
    Cell(u8, u8),
    Junk(usize),
}

const JUNK: [&[u8]; 14] = [
    b"",
    b"   ",
    b"1",
    b"1 2 3",
    b"a b",
    b"-1 2",
    b"0 0",
    b"99999999999 1",
    b"\xff\xfe",
    b"2,3",
    b"\t3\t3\t",
    b"  0004  0003 \r",
    b"4 4\r",
    b"1 1 ",
];

fn line_specs() -> impl Strategy<Value = Vec<LineSpec>> {
    let spec = prop_oneof![
        6 => any::<usize>().prop_map(LineSpec::Legal),
        2 => (0..=17u8, 0..=17u8).prop_map(|(r, c)| LineSpec::Cell(r, c)),
        2 => (0..JUNK.len() + 1).prop_map(LineSpec::Junk),
    ];
    proptest::collection::vec(spec, 0..300)
}

/// The header and grid as the protocol reads them, written here from the cells.
fn header(setup: &Setup, model: &Model) -> Vec<u8> {
    let sign = match setup.win {
        WinRule::MostDiscs => '>',
        WinRule::FewestDiscs => '<',
    };
    let mut text = format!(
        "{}\n{}\n{}\n{sign}\n",
        model.rows,
        model.cols,
        setup.first.letter()
    );
    for row in &model.cells {
        let cells: Vec<String> = row
            .iter()
            .map(|cell| cell.map_or(".".to_owned(), |c| c.letter().to_string()))
            .collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    text.into_bytes()
}

/// The move lines for `specs`, choosing the legal ones by replaying them on the model.
fn move_lines(setup: &Setup, rules: RuleSet, specs: &[LineSpec]) -> Vec<Vec<u8>> {
    let mut model = Model::from_board(&setup.board);
    let mut turn = model.next_turn(rules, setup.first.opponent());
    let mut lines = Vec::new();
    for spec in specs {
        let line = match (spec, turn) {
            (LineSpec::Legal(choice), Some(player)) => {
                let moves = model.moves(rules, player);
                let (row, col) = moves[choice % moves.len()];
                format!("{} {}", row + 1, col + 1).into_bytes()
            }
            (LineSpec::Legal(_), None) => b"1 1".to_vec(),
            (LineSpec::Cell(row, col), _) => format!("{row} {col}").into_bytes(),
            (LineSpec::Junk(i), _) if *i == JUNK.len() => vec![b'7'; 5000],
            (LineSpec::Junk(i), _) => JUNK[*i].to_vec(),
        };
        if let (Some(player), Some((row, col))) = (turn, reference_move(&line, &model))
            && !model.flips(rules, player, row, col).is_empty()
        {
            model.play(rules, player, row, col);
            turn = model.next_turn(rules, player);
        }
        lines.push(line);
    }
    lines
}

/// A move line read straight from the protocol text: two runs of ASCII digits separated by
/// white space, naming a cell of this board.
fn reference_move(line: &[u8], model: &Model) -> Option<(usize, usize)> {
    if line.len() > 4096 {
        return None;
    }
    let text = std::str::from_utf8(line).ok()?;
    let fields: Vec<&str> = text
        .split([' ', '\t', '\r', '\n', '\x0c'])
        .filter(|f| !f.is_empty())
        .collect();
    let [row, col] = fields[..] else {
        return None;
    };
    let number = |field: &str| -> Option<usize> {
        let digits = field.trim_start_matches('0');
        if !field.chars().all(|c| c.is_ascii_digit()) || digits.len() > 3 {
            return None;
        }
        Some(digits.parse().unwrap_or(0))
    };
    let (row, col) = (number(row)?, number(col)?);
    ((1..=model.rows).contains(&row) && (1..=model.cols).contains(&col)).then(|| (row - 1, col - 1))
}

/// The protocol's output for `setup` and `lines`, written from the model, and the player
/// still to move when the input runs out (with the missing line's number).
fn reference_transcript(
    setup: &Setup,
    rules: RuleSet,
    lines: &[Vec<u8>],
) -> (String, Option<(usize, Color)>) {
    let mut model = Model::from_board(&setup.board);
    let mut out = format!("{}\n", rules.name());
    let block = |model: &Model, turn: Option<Color>| {
        let mut text = format!(
            "B: {}  W: {}\n",
            model.count(Color::Black),
            model.count(Color::White)
        );
        for row in &model.cells {
            let cells: Vec<char> = row.iter().map(|c| c.map_or('.', Color::letter)).collect();
            let cells: Vec<String> = cells.iter().map(char::to_string).collect();
            text += &cells.join(" ");
            text += "\n";
        }
        match turn {
            Some(player) => text + &format!("TURN: {}\n", player.letter()),
            None => text + &format!("WINNER: {}\n", model.winner(setup.win)),
        }
    };
    let mut turn = model.next_turn(rules, setup.first.opponent());
    out += &block(&model, turn);
    let mut line_number = 4 + model.rows;
    for line in lines {
        let Some(player) = turn else { break };
        line_number += 1;
        match reference_move(line, &model) {
            Some((row, col)) if !model.flips(rules, player, row, col).is_empty() => {
                model.play(rules, player, row, col);
                turn = model.next_turn(rules, player);
                out += "VALID\n";
                out += &block(&model, turn);
            }
            _ => out += "INVALID\n",
        }
    }
    (out, turn.map(|player| (line_number + 1, player)))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// (c) `protocol::run` writes what the model-based transcript writer writes, and ends the
    /// same way.
    #[test]
    fn protocol_transcripts_match_the_model(
        setup in prop_oneof![setups(), opening_setups()],
        rules in rule_sets(),
        specs in line_specs(),
    ) {
        let model = Model::from_board(&setup.board);
        let lines = move_lines(&setup, rules, &specs);
        let mut input = header(&setup, &model);
        for line in &lines {
            input.extend_from_slice(line);
            input.push(b'\n');
        }
        let (out, end) = protocol::run(rules, &input);
        let (expected, unfinished) = reference_transcript(&setup, rules, &lines);
        prop_assert_eq!(out, expected);
        match (end, unfinished) {
            (Ok(()), None) => {}
            (Err(EndError::GameNotOver { line, player }), Some((want_line, want_player))) => {
                prop_assert_eq!((line, player), (want_line, want_player));
            }
            (end, unfinished) => {
                prop_assert!(false, "ended {:?}, expected {:?}", end, unfinished);
            }
        }
    }
}
