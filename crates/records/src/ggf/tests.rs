//! The GGF reader and writer on hand-made games: annotations, comments, kept properties, board
//! types, and each kind of mistake named at its line and column.

use othello::{Color, WinRule};

use super::{BoardType, game, read};
use crate::registry::games;
use crate::spec::ReadOptions;

#[test]
fn reads_a_game_with_annotations_and_a_comment() {
    let text = "junk before\n(;GM[Othello]PC[NBoard]DT[2024-05-01]PB[Ann]PW[Bob\\]s]RE[+4.000]\n\
                TI[5:00//2:00]TY[8]C[a comment; with (parens)]\n\
                BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\n\
                B[f5/1.23/0.5]W[d6//2.1]B[C3]W[pa];)";
    let error = read(text).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 5, column 32: move 4: white passes but can play d3 (and 3 other moves)"
    );
    let text = text.replace("W[pa]", "");
    let records = read(&text).unwrap();
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert_eq!(record.metadata().white.as_deref(), Some("Bob]s"));
    assert_eq!(record.metadata().event.as_deref(), Some("NBoard"));
    assert_eq!(record.metadata().result.as_deref(), Some("+4.000"));
    assert_eq!(
        record.squares().map(|s| s.to_string()).collect::<Vec<_>>(),
        ["f5", "d6", "c3"]
    );
    let written = game(record);
    assert_eq!(
        written,
        "(;GM[Othello]PC[NBoard]DT[2024-05-01]PB[Ann]PW[Bob\\]s]RE[+4.000]TI[5:00//2:00]\
         C[a comment; with (parens)]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6]B[c3];)"
    );
    assert_eq!(read(&written).unwrap()[0], *record);
}

#[test]
fn reads_the_board_types_ggs_writes() {
    for (text, side, synchro, komi, anti, random) in [
        ("8", 8, false, false, false, None),
        ("s8r18", 8, true, false, false, Some(18)),
        ("8kr20", 8, false, true, false, Some(20)),
        ("8ar14", 8, false, false, true, Some(14)),
        ("S10", 10, true, false, false, None),
    ] {
        let read = BoardType::parse(text).unwrap();
        assert_eq!(
            (read.side, read.synchro, read.komi, read.anti, read.random),
            (side, synchro, komi, anti, random),
            "{text}"
        );
    }
    assert_eq!(BoardType::parse("8b").unwrap().color, Some(Color::Black));
    assert!(BoardType::parse("8x").is_err());
    assert!(BoardType::parse("r8").is_err());
}

#[test]
fn keeps_what_it_does_not_read_and_skips_a_bad_game() {
    let komi = "(;GM[Othello]PB[a]PW[b]TY[8k]KB[e6//0.90]KW[f5/-1.00]KM[-0.500]RE[+8.500]B[f5];)";
    let bad = "(;GM[Othello]TY[8]B[z9];)";
    let anti = "(;GM[Othello]TY[8ar14]B[f5];)";
    let text = format!("{komi}\n{bad}\n{anti}\n");
    let games: Vec<_> = games(text.as_bytes(), &ReadOptions::default()).collect();
    assert_eq!(games.len(), 3);
    let first = games[0].as_ref().unwrap();
    assert_eq!(
        game(first),
        "(;GM[Othello]PB[a]PW[b]RE[+8.500]TY[8k]KB[e6//0.90]KW[f5/-1.00]KM[-0.500]\
         BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5];)"
    );
    assert_eq!(
        games[1].as_ref().unwrap_err().to_string(),
        "line 2, column 21: column z is off the board: columns are a to h"
    );
    let third = games[2].as_ref().unwrap();
    assert_eq!(third.setup().win, WinRule::FewestDiscs);
    assert!(game(third).contains("TY[8ar14]"));
    assert!(read(bad).is_err());
}

#[test]
fn says_what_is_wrong_and_where() {
    let error = |text: &str| read(text).unwrap_err().to_string();
    assert_eq!(
        error("(;GM[Chess];)"),
        "line 1, column 6: expected GM[Othello], found \"Chess\""
    );
    assert_eq!(
        error("(;GM[Othello]B[f5"),
        "line 1, column 18: expected ] to end the property value, found the end of the input"
    );
    assert_eq!(
        error("(;GM[Othello]\nB[z9];)"),
        "line 2, column 3: column z is off the board: columns are a to h"
    );
    assert_eq!(
        error("(;TY[8]BO[8 --- *];)"),
        "line 1, column 11: expected a board such as BO[8 ---...--- *]: the side, the cells (-, * or O) row by row, the side to move, found \"8 --- *\""
    );
    assert_eq!(
        error("(;TY[7];)"),
        "line 1, column 6: expected a board type such as TY[8], TY[s8r18] or TY[8kr20] (a side from 4 to 16, then k, a, rN, b or w), found \"7\""
    );
    assert_eq!(
        error("(;TY[88];)"),
        "line 1, column 6: expected a square board type: the octagon, TY[88], is not played here, found \"88\""
    );
    assert_eq!(
        error("(;B[f5] = W[d6];)"),
        "line 1, column 9: expected a property such as B[f5], or ;) to end the game, found '='"
    );
}
