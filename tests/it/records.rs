//! Game records: round trips of every format on random games of every board size and both
//! rule sets, the hand-written fixtures of `fixtures/records/`, and a WTHOR file built byte by
//! byte.
//!
//! Here the formats and fixtures (and `convert`); a played game's round trip in `played`, the
//! real files in `real`.

use std::path::Path;

use othello::{Color, Dimensions, Game, RuleSet, Setup, Square, WinRule};
use othello_records::{
    self as record, Format, GameRecord, Location, Metadata, ReadOptions, RecordErrorKind,
    RecordMove, ggf, movelist, obf, protocol_input, wthor,
};
use proptest::prelude::*;

mod played;
mod real;

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/records")
        .join(name);
    std::fs::read(path).unwrap()
}

/// The full 8x8 game of `fixtures/records/full-game.txt`.
const FULL_GAME: &str = "d3c5d6e3b5c6b6a5c4b4c3e2f4d2a3a7a6a4a8c7b8d8d1f5b3b2f2f1c8e1e8c1f3b7e6g1c2b1f6d7e7f8f7g5g8g4g3h4g6h6h2h3g7h1h5h8h7a2a1g2";

/// Plays a random game from `setup`: `choices` pick among the legal moves, up to their number
/// of moves.
fn random_record(
    setup: Setup,
    rules: RuleSet,
    choices: &[usize],
    metadata: Metadata,
) -> GameRecord {
    let start = Game::new(setup, rules);
    let mut game = start.clone();
    let mut squares = Vec::new();
    for &choice in choices {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let square = moves[choice % moves.len()];
        game.play(square).unwrap();
        squares.push(square);
    }
    GameRecord::from_squares(&start, squares, metadata).unwrap()
}

fn sides() -> impl Strategy<Value = usize> {
    (2..=8usize).prop_map(|half| 2 * half)
}

fn rule_sets() -> impl Strategy<Value = RuleSet> {
    prop_oneof![Just(RuleSet::Full), Just(RuleSet::Simple)]
}

fn win_rules() -> impl Strategy<Value = WinRule> {
    prop_oneof![Just(WinRule::MostDiscs), Just(WinRule::FewestDiscs)]
}

/// The standard opening of a random size with a few discs added and a random first player.
fn setups(rows: usize, cols: usize) -> impl Strategy<Value = Setup> {
    (
        proptest::collection::vec(
            (0..16usize, 0..16usize, proptest::option::of(any::<bool>())),
            0..6,
        ),
        any::<bool>(),
        win_rules(),
    )
        .prop_map(move |(extra, white_first, win)| {
            let dims = Dimensions::new(rows, cols).unwrap();
            let mut setup = Setup {
                win,
                ..Setup::standard(dims)
            };
            for (row, col, black) in extra {
                let square = Square::new(row % rows, col % cols);
                let disc = black.map(|black| if black { Color::Black } else { Color::White });
                setup.board.set(square, disc).unwrap();
            }
            if white_first {
                setup.first = Color::White;
            }
            setup
        })
}

fn names() -> impl Strategy<Value = Option<String>> {
    proptest::option::of("[A-Za-z0-9 \\]\\[\\\\.:+-]{1,12}")
        .prop_map(|name| name.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()))
}

fn choices() -> impl Strategy<Value = Vec<usize>> {
    proptest::collection::vec(0..64usize, 0..300)
}

fn options(rules: RuleSet) -> ReadOptions {
    ReadOptions { rules }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn move_lists_round_trip(
        rows in sides(), cols in sides(), rules in rule_sets(), win in win_rules(),
        choices in choices(),
    ) {
        let setup = Setup { win, ..Setup::standard(Dimensions::new(rows, cols).unwrap()) };
        let record = random_record(setup, rules, &choices, Metadata::default());
        let text = movelist::write(std::slice::from_ref(&record)).unwrap();
        // The move list names its rules, so the reader's default does not matter.
        let again = record::read(text.as_bytes(), &options(RuleSet::Full)).unwrap();
        prop_assert_eq!(&again, &vec![record.clone()], "{}", text);
        // Passes written out read back the same.
        let with_passes: String = record.moves().iter().map(|m| m.to_string() + " ").collect();
        let head = format!("{} {} {}", record.dims(), record.rules(), record.setup().win);
        let spaced = movelist::read(&format!("{head} {with_passes}"), &options(RuleSet::Full)).unwrap();
        prop_assert_eq!(&spaced, &vec![record]);
    }

    #[test]
    fn ggf_round_trips(
        side in sides(), rules in rule_sets(), choices in choices(),
        setup in sides().prop_flat_map(|side| setups(side, side)),
        black in names(), white in names(), event in names(),
    ) {
        let _ = side;
        let metadata = Metadata { black, white, event, ..Metadata::default() };
        let record = random_record(setup, rules, &choices, metadata);
        let text = ggf::write(std::slice::from_ref(&record)).unwrap();
        let again = record::read(text.as_bytes(), &ReadOptions::default()).unwrap();
        prop_assert_eq!(&again, &vec![record], "{}", text);
    }

    #[test]
    fn protocol_inputs_round_trip(
        setup in (sides(), sides()).prop_flat_map(|(rows, cols)| setups(rows, cols)),
        rules in rule_sets(), choices in choices(),
    ) {
        let record = random_record(setup, rules, &choices, Metadata::default());
        let text = protocol_input::write(&record);
        let again = record::read(text.as_bytes(), &options(rules)).unwrap();
        prop_assert_eq!(&again, &vec![record.clone()], "{}", text);
        // And the protocol itself plays the same game from it.
        let (transcript, _) = othello::protocol::run(rules, text.as_bytes());
        let valid = transcript.lines().filter(|line| *line == "VALID").count();
        prop_assert_eq!(valid, record.squares().count());
    }

    #[test]
    fn obf_lines_round_trip(rules in rule_sets(), choices in choices()) {
        let record = random_record(Setup::standard(Dimensions::STANDARD), rules, &choices, Metadata::default());
        let text = obf::write(std::slice::from_ref(&record)).unwrap();
        let again = record::read(text.as_bytes(), &options(rules)).unwrap();
        prop_assert_eq!(again.len(), 1);
        prop_assert_eq!(again[0].final_game().board(), record.final_game().board());
        prop_assert_eq!(again[0].final_game().turn(), record.final_game().turn());
        prop_assert_eq!(again[0].rules(), rules);
        // Written again, the line is the same.
        prop_assert_eq!(obf::write(&again).unwrap(), text);
    }

    #[test]
    fn wthor_files_round_trip(games in proptest::collection::vec(choices(), 0..5)) {
        let records: Vec<GameRecord> = games
            .iter()
            .map(|choices| random_record(Setup::standard(Dimensions::STANDARD), RuleSet::Full, choices, Metadata::default()))
            .collect();
        let header = wthor::Header { created: [20, 26, 11, 22], games_year: 2026, board_size: 8, depth: 22, ..wthor::Header::default() };
        let bytes = wthor::write(&records, &header).unwrap();
        prop_assert_eq!(bytes.len(), 16 + 68 * records.len());
        prop_assert_eq!(Format::detect(&bytes), Format::Wthor);
        let again = record::read(&bytes, &ReadOptions::default()).unwrap();
        prop_assert_eq!(again.len(), records.len());
        for (a, b) in again.iter().zip(&records) {
            prop_assert_eq!(a.moves(), b.moves());
            prop_assert_eq!(a.metadata().date.as_deref(), Some("2026"));
        }
        // Written again, byte for byte the same file.
        prop_assert_eq!(wthor::write(&again, &header).unwrap(), bytes);
    }

    /// No bytes make a reader panic.
    #[test]
    fn any_bytes_are_read_or_refused(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = record::read(&bytes, &ReadOptions::default());
        for format in Format::ALL {
            let _ = record::read_as(format, &bytes, &ReadOptions::default());
        }
    }

    /// Nor do damaged GGF texts and move lists.
    #[test]
    fn any_text_is_read_or_refused(text in "[(;)\\[\\]A-Za-z0-9 /.\\\\\n*O-]{0,200}") {
        let _ = record::read(text.as_bytes(), &ReadOptions::default());
        for format in Format::ALL {
            let _ = record::read_as(format, text.as_bytes(), &ReadOptions::default());
        }
    }
}

#[test]
fn the_ggf_fixture_holds_two_games_with_passes_and_annotations() {
    let records = record::read(&fixture("two-games.ggf"), &ReadOptions::default()).unwrap();
    assert_eq!(records.len(), 2);
    let full = &records[0];
    assert_eq!(full.metadata().black.as_deref(), Some("Ann"));
    assert_eq!(full.metadata().event.as_deref(), Some("Club night, Lyon"));
    assert_eq!(full.metadata().result.as_deref(), Some("+20.000"));
    let squares: String = full.squares().map(|s| s.to_string()).collect();
    assert_eq!(squares, FULL_GAME);
    // White passes before black's last move.
    assert_eq!(full.moves()[59], RecordMove::Pass);
    assert_eq!(full.moves().len(), 61);
    let end = full.final_game();
    assert!(end.is_over());
    assert_eq!((end.score().black, end.score().white), (42, 22));

    let anti = &records[1];
    assert_eq!(anti.dims(), Dimensions::new(6, 6).unwrap());
    assert_eq!(anti.setup().win, WinRule::FewestDiscs);
    assert!(anti.moves().contains(&RecordMove::Pass));
    let end = anti.final_game();
    assert_eq!((end.score().black, end.score().white), (15, 21));
    assert_eq!(end.outcome().unwrap().winner(), Some(Color::Black));
}

#[test]
fn the_move_list_fixture_is_the_same_game() {
    let records = record::read(&fixture("full-game.txt"), &ReadOptions::default()).unwrap();
    let ggf = record::read(&fixture("two-games.ggf"), &ReadOptions::default()).unwrap();
    assert_eq!(records[0].moves(), ggf[0].moves());
}

#[test]
fn the_obf_fixture_reads_ffo_and_edax_lines() {
    let records = record::read(&fixture("positions.obf"), &ReadOptions::default()).unwrap();
    assert_eq!(records.len(), 4);
    assert_eq!(records[0].metadata().event.as_deref(), Some("40"));
    assert_eq!(records[2].final_game().board().empties(), 22);
    let after_f5_d6 = movelist::read("f5d6", &ReadOptions::default()).unwrap();
    assert_eq!(records[3].final_game(), after_f5_d6[0].final_game());
}

/// A WTHOR file of one game, written byte by byte from the format's description.
fn wthor_bytes() -> Vec<u8> {
    let mut bytes = vec![
        20, 26, 11, 22, // created 2026-11-22
        1, 0, 0, 0, // one game
        0, 0, // no name records
        0xEA, 0x07, // games of 2026
        8, 0, 22, 0, // 8x8, normal games, theoretical scores from 22 empties
        0x2A, 0x00, // tournament 42
        0x39, 0x05, // black: player 1337
        0x07, 0x00, // white: player 7
        42,   // black's discs
        38,   // black's theoretical score
    ];
    for pair in FULL_GAME.as_bytes().chunks(2) {
        let col = pair[0] - b'a' + 1;
        let row = pair[1] - b'0';
        bytes.push(10 * row + col);
    }
    assert_eq!(bytes.len(), 16 + 68);
    bytes
}

#[test]
fn a_wthor_file_built_byte_by_byte_reads_as_the_known_game() {
    let bytes = wthor_bytes();
    let records = record::read(&bytes, &ReadOptions::default()).unwrap();
    assert_eq!(records.len(), 1);
    let game = &records[0];
    let squares: String = game.squares().map(|s| s.to_string()).collect();
    assert_eq!(squares, FULL_GAME);
    let info = game.metadata().wthor.unwrap();
    assert_eq!(
        (info.tournament, info.black_player, info.white_player),
        (42, 1337, 7)
    );
    assert_eq!((info.black_discs, info.theoretical_black_discs), (42, 38));
    assert_eq!(game.final_game().score().black, 42);
    // Written back with the same header, the same bytes.
    let header = wthor::Header {
        created: [20, 26, 11, 22],
        games_year: 2026,
        board_size: 8,
        depth: 22,
        ..wthor::Header::default()
    };
    assert_eq!(wthor::write(&records, &header).unwrap(), bytes);
}

#[test]
fn a_damaged_wthor_file_names_the_byte() {
    let bytes = wthor_bytes();
    let error = |bytes: &[u8]| {
        let error = record::read_as(Format::Wthor, bytes, &ReadOptions::default()).unwrap_err();
        assert!(matches!(error.location, Location::Byte(_)));
        error.to_string()
    };
    assert_eq!(
        error(&bytes[..50]),
        "byte 50: game 1 of 1 is cut short: the file ends 34 bytes early"
    );
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(
        error(&long),
        "byte 84: the header lists 1 game, but 1 more byte follows them"
    );
    let mut bad_square = bytes.clone();
    bad_square[16 + 8 + 5] = 19;
    assert_eq!(
        error(&bad_square),
        "byte 29: game 1: move byte 19 is no square (11 to 88: row, then column)"
    );
    let mut illegal = bytes.clone();
    illegal[16 + 8 + 2] = 11; // a1 as the third move
    assert_eq!(
        error(&illegal),
        "byte 26: game 1: move 3: a1 is not a legal move for black: it flips no discs"
    );
    let mut gap = bytes.clone();
    gap[16 + 8 + 10] = 0;
    assert_eq!(
        error(&gap),
        "byte 35: game 1: a move after the 0 that ends its moves"
    );
    // Cut short, the file is still taken for WTHOR (its header counts more games than it holds)
    // and the offset named.
    let detected = record::read(&bytes[..60], &ReadOptions::default()).unwrap_err();
    assert!(
        matches!(detected.kind, RecordErrorKind::Wthor(_)),
        "{detected}"
    );
}

#[test]
fn formats_refuse_what_they_cannot_hold() {
    let six_by_eight = movelist::read("6x8", &ReadOptions::default()).unwrap();
    assert_eq!(
        record::write(&six_by_eight, Format::Ggf)
            .unwrap_err()
            .to_string(),
        "game 1: GGF cannot hold a 6x8 board: its boards are square"
    );
    assert_eq!(
        record::write(&six_by_eight, Format::Obf)
            .unwrap_err()
            .to_string(),
        "game 1: OBF cannot hold a 6x8 board: it holds 8x8 positions"
    );
    assert!(record::write(&six_by_eight, Format::Wthor).is_err());
    let two = movelist::read("f5\nd3\n", &ReadOptions::default()).unwrap();
    assert_eq!(
        record::write(&two, Format::Protocol)
            .unwrap_err()
            .to_string(),
        "game 2: the protocol input cannot hold 2 games: it holds one"
    );
    let odd_start = protocol_input::read(
        "4\n4\nW\n>\n. . . .\n. W B .\n. B W .\n. . . .\n",
        &ReadOptions::default(),
    )
    .unwrap();
    assert!(record::write(&[odd_start], Format::MoveList).is_err());
}

mod convert {
    use predicates::prelude::*;

    use super::{FULL_GAME, fixture};
    use crate::support::othello;

    fn fixture_path(name: &str) -> String {
        format!("{}/fixtures/records/{name}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn converts_ggf_to_move_lists_and_back() {
        let output = othello()
            .args([
                "convert",
                &fixture_path("two-games.ggf"),
                "--to",
                "movelist",
            ])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(output).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], FULL_GAME);
        assert!(lines[1].starts_with("6x6 fewest e4e5e6"), "{text}");
        // The move lists, read from standard input, convert back to the same moves in GGF.
        othello()
            .args(["convert", "-", "--to", "ggf"])
            .write_stdin(text)
            .assert()
            .success()
            .stdout(predicate::str::contains("W[a2]B[a1]W[PA]B[g2];)"))
            .stdout(predicate::str::contains("TY[6a]"));
    }

    #[test]
    fn converts_one_game_to_a_protocol_test_case_the_protocol_plays() {
        let assert = othello()
            .args([
                "convert",
                &fixture_path("two-games.ggf"),
                "--game",
                "1",
                "--to",
                "protocol",
            ])
            .assert()
            .success();
        let input = assert.get_output().stdout.clone();
        assert!(input.starts_with(b"8\n8\nB\n>\n"));
        othello()
            .write_stdin(input)
            .assert()
            .success()
            .stdout(predicate::str::ends_with("WINNER: B\n"))
            .stdout(predicate::str::contains("INVALID").not());
    }

    #[test]
    fn writes_wthor_to_a_file_and_reads_it_back() {
        let dir = tempfile::tempdir().unwrap();
        let wtb = dir.path().join("games.wtb");
        othello()
            .args([
                "convert",
                &fixture_path("full-game.txt"),
                "--to",
                "wthor",
                "-o",
            ])
            .arg(&wtb)
            .assert()
            .success()
            .stdout("");
        assert_eq!(std::fs::metadata(&wtb).unwrap().len(), 16 + 68);
        othello()
            .args(["convert", "--to", "movelist"])
            .arg(&wtb)
            .assert()
            .success()
            .stdout(format!("{FULL_GAME}\n"));
        let obf = fixture("positions.obf");
        othello()
            .args(["convert", "-", "--to", "obf"])
            .write_stdin(obf)
            .assert()
            .success()
            .stdout(predicate::str::starts_with(
                "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:+34;",
            ));
    }

    #[test]
    fn bad_input_of_every_format_names_the_place() {
        let cases: [(&[u8], &str); 6] = [
            (
                b"f5 d6 zz\n",
                "othello: standard input: line 1, column 7: expected a square such as f5, or -- for a pass, found \"zz\"\n",
            ),
            (
                b"(;GM[Othello]\nB[f5]W[a1];)",
                "othello: standard input: line 2, column 8: move 2: a1 is not a legal move for white: it flips no discs\n",
            ),
            (
                b"%\n---------------------------------------------------------------- Q\n",
                "othello: standard input: line 2, column 66: expected the side to move, X or O, found \"Q\"\n",
            ),
            (
                b"8\n8\nQ\n",
                "othello: standard input: line 3, column 1: expected the first player, B or W, found \"Q\"\n",
            ),
            (
                &[20, 26, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0xff],
                "othello: standard input: byte 19: game 1 of 2 is cut short: the file ends 65 bytes early\n",
            ),
            (
                b"",
                "othello: standard input: line 1, column 1: no game found (expected a move list, GGF, OBF lines, a protocol input or WTHOR)\n",
            ),
        ];
        for (input, message) in cases {
            othello()
                .args(["convert", "-"])
                .write_stdin(input)
                .assert()
                .code(2)
                .stdout("")
                .stderr(message);
        }
    }

    #[test]
    fn refuses_what_the_output_cannot_hold() {
        othello()
            .args(["convert", &fixture_path("two-games.ggf"), "--to", "protocol"])
            .assert()
            .code(2)
            .stderr(predicate::str::ends_with(
                "two-games.ggf: 2 games, but the protocol input holds one: pick one with --game N\n",
            ));
        othello()
            .args(["convert", "-", "--to", "obf"])
            .write_stdin("6x6 c2")
            .assert()
            .code(2)
            .stderr("othello: standard input: game 1: OBF cannot hold a 6x6 board: it holds 8x8 positions\n");
        othello()
            .args(["convert", "no-such-file.ggf"])
            .assert()
            .code(2)
            .stderr(predicate::str::starts_with(
                "othello: cannot read no-such-file.ggf: ",
            ));
        othello()
            .args(["convert", &fixture_path("two-games.ggf"), "--game", "3"])
            .assert()
            .code(2)
            .stderr(predicate::str::ends_with(
                "there is no game 3: the file holds 2\n",
            ));
    }
}
