//! Property tests: the library against the naive reference model on random boards of every
//! supported size, random first players and both rule sets; and the protocol against a
//! transcript written from the model.

use othello::bitboard::{Bits, Geometry, U256};
use othello::protocol::{self, EndError};
use othello::{Board, Color, Dimensions, Game, RuleSet, Setup, Square, WinRule};
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
        proptest::collection::vec((0..16u8, 0..16u8, any::<bool>()), 0..6),
        any::<bool>(),
    )
        .prop_map(|(rows, cols, extra, white_first)| {
            let dims = Dimensions::new(rows, cols).unwrap();
            let mut setup = Setup::standard(dims);
            for (row, col, black) in extra {
                let square = Square::new(row % rows as u8, col % cols as u8);
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

/// The flips of a move at one bit width, if the board fits it.
fn flips_at<B: Bits>(
    rules: RuleSet,
    board: &Board,
    mover: Color,
    square: Square,
) -> Option<Vec<(usize, usize)>> {
    let geo = Geometry::<B>::new(board.dims())?;
    let me = B::from_wide(board.discs(mover));
    let opp = B::from_wide(board.discs(mover.opponent()));
    let flipped = rules.flips(&geo, me, opp, geo.bit(square));
    Some(geo.squares(flipped).map(cell).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// (a) Legal moves and the flips of every empty cell agree with the model, for both
    /// players, at every bit width the board fits.
    #[test]
    fn moves_and_flips_match_the_model(setup in setups(), rules in rule_sets()) {
        let game = Game::new(setup, rules);
        let model = Model::from_board(&setup.board);
        for player in Color::ALL {
            let moves: Vec<_> = game.moves_of(player).into_iter().map(cell).collect();
            prop_assert_eq!(&moves, &model.moves(rules, player), "moves of {}", player);
            for square in setup.board.dims().squares() {
                if setup.board.get(square).unwrap().is_some() {
                    continue;
                }
                let expected = model.flips(rules, player, square.row(), square.col());
                for flips in [
                    flips_at::<u64>(rules, &setup.board, player, square),
                    flips_at::<u128>(rules, &setup.board, player, square),
                    flips_at::<U256>(rules, &setup.board, player, square),
                ]
                .into_iter()
                .flatten()
                {
                    prop_assert_eq!(&flips, &expected, "{} at {}", player, square);
                }
            }
        }
        let turn = model.next_turn(rules, setup.first.opponent());
        prop_assert_eq!(game.turn(), turn);
    }
}

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
            .play(Square::new(row as u8, col as u8))
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
        if let (Some(player), Some((row, col))) = (turn, reference_move(&line, &model)) {
            if !model.flips(rules, player, row, col).is_empty() {
                model.play(rules, player, row, col);
                turn = model.next_turn(rules, player);
            }
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
