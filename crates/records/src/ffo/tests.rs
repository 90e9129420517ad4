//! The FFO and OBF line reader and writer, and the problem reader, on the suite's lines and
//! hand-made damage.

use othello::{Board, Color, Dimensions, RuleSet, Square, WinRule};

use super::{Listed, obf_fields, parse_line, parse_line_at, read_problems, to_line};

const FFO_40: &str =
    "40 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X 20 A2 +38 A2:+38,C7:+36";

#[test]
fn reads_an_ffo_line() {
    let position = parse_line(FFO_40).unwrap().unwrap();
    assert_eq!(position.id.as_deref(), Some("40"));
    assert_eq!(position.setup.first, Color::Black);
    assert_eq!(position.setup.board.empties(), 20);
    assert_eq!(
        position.setup.board.at(Square::new(0, 0)),
        Some(Color::White)
    );
    assert_eq!(
        position.setup.board.at(Square::new(0, 7)),
        Some(Color::Black)
    );
    assert_eq!(
        position.listed,
        Some(Listed {
            best: vec![Square::new(1, 0)],
            score: 38,
            moves: vec![(Square::new(1, 0), 38), (Square::new(6, 2), 36)],
            obf: false,
        })
    );
    assert_eq!(position.game().turn(), Some(Color::Black));
}

#[test]
fn a_bare_board_and_side_is_enough() {
    let board = "-".repeat(27) + "OX------XO" + &"-".repeat(27);
    let position = parse_line(&format!("{board} O")).unwrap().unwrap();
    assert_eq!(position.id, None);
    assert_eq!(position.setup.first, Color::White);
    assert_eq!(position.listed, None);
}

#[test]
fn writes_lines_it_reads_back() {
    let position = parse_line(FFO_40).unwrap().unwrap();
    let line = to_line(&position.setup.board, Color::Black).unwrap();
    assert_eq!(
        line,
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X;"
    );
    let again = parse_line(&line).unwrap().unwrap();
    assert_eq!(again.setup, position.setup);
    let small = Board::standard(Dimensions::new(6, 6).unwrap());
    assert_eq!(to_line(&small, Color::Black), None);
}

#[test]
fn other_lines_are_not_ffo_lines() {
    assert!(parse_line("8").is_none());
    assert!(parse_line(". . . . . . . .").is_none());
    assert!(parse_line("").is_none());
}

#[test]
fn errors_say_what_is_wrong() {
    let board = "-".repeat(64);
    let error = |line: String| parse_line(&line).unwrap().unwrap_err().to_string();
    assert_eq!(
        error(board.clone()),
        "expected the side to move (X or O) after the board, found the end of the line"
    );
    assert_eq!(
        error(format!("{board} Q")),
        "expected the side to move, X or O, found \"Q\""
    );
    assert_eq!(
        error(format!("{board} X 3")),
        "the line says 3 empties but the board has 64"
    );
    assert_eq!(
        error(format!("{board} X many")),
        "expected the number of empties, found \"many\""
    );
    assert_eq!(
        error(format!("{board} X 64 Z9 +2")),
        "expected a square such as a2, found \"Z9\""
    );
    assert_eq!(
        error(format!("{board} X 64 A1")),
        "expected the listed score after the best moves"
    );
    assert_eq!(
        error(format!("{board} X 64 A1 lots")),
        "expected the listed score, found \"lots\""
    );
    assert_eq!(
        error(format!("{board} X 64 A1 +2 A1+2")),
        "expected a move and its score such as A2:+38, found \"A1+2\""
    );
    assert_eq!(
        error(format!("40 {} X", &board[1..])),
        "the board has 63 squares, expected 64 (X, O or - for each of a1..h8)"
    );
    assert_eq!(
        error(format!("{}Z{} X", &board[..9], &board[10..])),
        "the board has 'Z' at b2, expected X, O or -"
    );
}

#[test]
fn reads_edax_obf_lines() {
    let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
    let line = format!("{board} X; G8:+18; H1:+12; A2:+6; B1:-4;  % problem 1");
    let position = parse_line(&line).unwrap().unwrap();
    let listed = position.listed.unwrap();
    assert!(listed.obf);
    assert_eq!(listed.score, 18);
    assert_eq!(listed.best, [Square::new(7, 6)]);
    assert_eq!(listed.moves.len(), 4);
    assert_eq!(listed.moves[3], (Square::new(0, 1), -4));
    // Written back the same way.
    let written = to_line(&position.setup.board, Color::Black).unwrap() + &obf_fields(&listed);
    assert_eq!(written, format!("{board} X; G8:+18; H1:+12; A2:+6; B1:-4;"));
    // A bare score is the position's score, with no best move.
    let position = parse_line(&format!("{board} O; +38;")).unwrap().unwrap();
    let listed = position.listed.unwrap();
    assert_eq!(
        (listed.score, listed.best.len(), listed.moves.len()),
        (38, 0, 0)
    );
    assert_eq!(obf_fields(&listed), " +38;");
    assert_eq!(position.setup.first, Color::White);
    // Only the board and side: nothing listed.
    assert_eq!(
        parse_line(&format!("{board} X;")).unwrap().unwrap().listed,
        None
    );
    // Errors name the column of the token at fault.
    let error = |line: String| parse_line_at(&line).unwrap().unwrap_err().to_string();
    assert_eq!(
        error(format!("{board} X; G8:+18; Z9:+2;")),
        "column 77: expected a square such as a2, found \"Z9\""
    );
    assert_eq!(
        error(format!("{board} X; G8:+18; H1:lots;")),
        "column 77: expected a move and its score such as A2:+38, found \"H1:lots\""
    );
    assert_eq!(
        error(format!("{board} Q; G8:+18;")),
        "column 66: expected the side to move, X or O, found \"Q\""
    );
    assert_eq!(
        error(format!("  {} X 14 A2 +38 A2:+38,C7+36", &board)),
        "column 87: expected a move and its score such as A2:+38, found \"C7+36\""
    );
}

#[test]
fn a_setup_with_move_lines_is_the_position_after_them() {
    let input = "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n1 1\nfoo\n1 2\n\n4\n4\nW\n>\n. . . .\n. W B .\n. B W .\n. . . .\n";
    let problems = read_problems(input.as_bytes(), RuleSet::Full).unwrap();
    assert_eq!(problems.len(), 2);
    // 1 1 is illegal and foo no move: both are skipped; 1 2 (b1) is black's move.
    assert_eq!(problems[0].game.board().empties(), 11);
    assert_eq!(problems[0].game.turn(), Some(Color::White));
    assert_eq!(problems[1].line, 13);
    assert_eq!(problems[1].game.board().empties(), 12);
}

#[test]
fn reads_ffo_lines_and_setups_in_one_input() {
    let input = format!("# comment\n\n{FFO_40}\n4\n4\nB\n<\n. . . .\n. W B .\n. B W .\n. . . .\n");
    let problems = read_problems(input.as_bytes(), RuleSet::Simple).unwrap();
    assert_eq!(problems.len(), 2);
    assert_eq!(problems[0].id.as_deref(), Some("40"));
    assert_eq!(problems[0].line, 3);
    assert_eq!(problems[0].game.board().empties(), 20);
    assert_eq!(problems[0].game.rules(), RuleSet::Full);
    assert_eq!(
        problems[0].listed,
        Some(Listed {
            best: vec![Square::new(1, 0)],
            score: 38,
            moves: vec![(Square::new(1, 0), 38), (Square::new(6, 2), 36)],
            obf: false,
        })
    );
    assert_eq!(problems[1].id, None);
    assert_eq!(problems[1].line, 4);
    assert_eq!(problems[1].game.rules(), RuleSet::Simple);
    assert_eq!(problems[1].game.win_rule(), WinRule::FewestDiscs);
}

#[test]
fn bad_problem_lines_name_their_line() {
    let error = |input: &str| {
        read_problems(input.as_bytes(), RuleSet::Full)
            .unwrap_err()
            .to_string()
    };
    let board = "-".repeat(64);
    assert_eq!(
        error(&format!("\n{board} Q\n")),
        "line 2, column 66: expected the side to move, X or O, found \"Q\""
    );
    assert_eq!(
        error("# x\n4\n4\nB\n>\n. . . .\n"),
        "line 7: input ended where row 2 of the board was expected"
    );
    assert_eq!(
        error("4\n5\n"),
        "line 2: expected the number of columns, an even integer from 4 to 16, found \"5\""
    );
}
