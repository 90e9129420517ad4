//! Game records: round trips of every format on random games of every board size and both
//! rule sets, the hand-written fixtures of `fixtures/records/`, and a WTHOR file built byte by
//! byte.

use std::path::Path;

use othello::{Color, Dimensions, Game, RuleSet, Setup, Square, WinRule};
use othello_records::{
    self as record, Format, GameRecord, Location, Metadata, ReadOptions, RecordErrorKind,
    RecordMove, ggf, movelist, obf, protocol_input, wthor,
};
use proptest::prelude::*;

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

/// A new user's round: a game played with `othello play` is saved, reloaded, converted to GGF
/// and to a protocol test input (which the protocol plays to the same end), and analysed.
#[test]
fn a_played_game_is_saved_reloaded_converted_and_analysed() {
    use crate::support::othello;

    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("game.txt");
    let saved_arg = saved.to_str().unwrap();
    let played = othello()
        .args([
            "play",
            "--size",
            "6x6",
            "--black",
            "computer:1",
            "--white",
            "computer:1",
        ])
        .args(["--seed", "11", "--save", saved_arg])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let played = String::from_utf8(played).unwrap();
    let moves_line = played
        .lines()
        .find_map(|line| line.strip_prefix("Moves: "))
        .unwrap()
        .to_owned();
    let file = std::fs::read_to_string(&saved).unwrap();
    assert_eq!(file, format!("{moves_line}\n"));
    let record = &record::read(file.as_bytes(), &ReadOptions::default()).unwrap()[0];
    let end = record.final_game();
    assert!(end.is_over());

    // Reloaded, the game is over at once and says so with the same score.
    let score = format!(
        "Black (X) {} - {} White (O)",
        end.score().black,
        end.score().white
    );
    othello()
        .args([
            "play", "--black", "human", "--white", "human", "--load", saved_arg,
        ])
        .write_stdin("quit\n")
        .assert()
        .success()
        .stdout(predicates::str::contains(score.as_str()))
        .stdout(predicates::str::contains("Game over."));

    let ggf = othello()
        .args(["convert", saved_arg, "--to", "ggf"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert!(String::from_utf8_lossy(&ggf).starts_with("(;GM[Othello]TY[6]BO[6 "));
    let case = othello()
        .args(["convert", saved_arg, "--to", "protocol"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let winner = match end.outcome().unwrap().winner() {
        Some(Color::Black) => "B",
        Some(Color::White) => "W",
        None => "NONE",
    };
    othello()
        .write_stdin(case)
        .assert()
        .success()
        .stdout(predicates::str::ends_with(format!("WINNER: {winner}\n")));

    let json = othello()
        .args([
            "analyze",
            "--json",
            "--exact-from",
            "8",
            "--depth",
            "2",
            saved_arg,
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    let analysed = json["games"][0]["moves"].as_array().unwrap();
    assert_eq!(analysed.len(), record.squares().count());
    assert!(analysed.iter().all(|m| m["loss"].as_i64().unwrap() >= 0));
}

/// A real file of `shared/data/real/`, read.
fn real(name: &str) -> Vec<u8> {
    std::fs::read(crate::support::real_file(name)).unwrap()
}

#[test]
fn edax_obf_problem_file_reads_and_writes_back_byte_for_byte() {
    let original = real("fforum-1-19.obf");
    let records = record::read(&original, &ReadOptions::default()).unwrap();
    assert_eq!(records.len(), 19);
    let listed = records[0].metadata().listed.as_ref().unwrap();
    assert_eq!((listed.score, listed.moves.len()), (18, 8));
    assert_eq!(listed.best, [Square::new(7, 6)]);
    assert_eq!(record::write(&records, Format::Obf).unwrap(), original);
    crate::support::othello()
        .args(["convert", "--to", "obf"])
        .arg(crate::support::real_file("fforum-1-19.obf"))
        .assert()
        .success()
        .stdout(original);
}

#[test]
fn an_obf_error_points_at_the_token() {
    let text = String::from_utf8(real("fforum-1-19.obf")).unwrap();
    let second = text.lines().nth(1).unwrap();
    let bad = text.replacen(second, &second.replace("A3:-6;", "A3:-6x;"), 1);
    crate::support::othello()
        .args(["convert", "--to", "obf", "-"])
        .write_stdin(bad)
        .assert()
        .code(2)
        .stderr(
            "othello: standard input: line 2, column 84: expected a move and its score such as \
             A2:+38, found \"A3:-6x\"\n",
        );
}

/// The real GGF files, their number of games and the board types they hold (in order, a type
/// repeated by the next game listed once).
const REAL_GGF: [(&str, usize, &[&str]); 7] = [
    ("ntest-TestGames.ggf", 12, &["8"]),
    ("nboard-test.ggf", 1, &["8"]),
    ("nboard-test2.ggf", 3, &["4", "8kr20", "8"]),
    ("novello-komi-8k.ggf", 1, &["8k"]),
    ("novello-saio-pass.ggf", 1, &["8"]),
    ("novello-white-starts-s8r19.ggf", 1, &["s8r19"]),
    ("welty-othello-synchro-match.ggf", 2, &["s8r18"]),
];

#[test]
fn every_real_ggf_game_reads_and_writes_back_what_it_holds() {
    for (name, games, types) in REAL_GGF {
        let records = record::read(&real(name), &ReadOptions::default()).unwrap();
        assert_eq!(records.len(), games, "{name}");
        let written = String::from_utf8(record::write(&records, Format::Ggf).unwrap()).unwrap();
        for (record, line) in records.iter().zip(written.lines()) {
            let kept: Vec<&(String, String)> = record.metadata().properties.iter().collect();
            for (property, value) in kept {
                assert!(
                    line.contains(&format!("{property}[{value}]")),
                    "{name}: {line}"
                );
            }
        }
        let mut board_types: Vec<&str> = written
            .lines()
            .map(|line| line.split("TY[").nth(1).unwrap().split(']').next().unwrap())
            .collect();
        board_types.dedup();
        assert_eq!(board_types, types, "{name}");
        // Read again, the same games with the same properties.
        assert_eq!(
            record::read(written.as_bytes(), &ReadOptions::default()).unwrap(),
            records,
            "{name}"
        );
    }
    // A komi game keeps its bids and komi.
    let komi = String::from_utf8(
        record::write(
            &record::read(&real("novello-komi-8k.ggf"), &ReadOptions::default()).unwrap(),
            Format::Ggf,
        )
        .unwrap(),
    )
    .unwrap();
    assert!(
        komi.contains("TY[8k]KB[e6//0.90]KW[f5/-1.00]KM[-0.500]"),
        "{komi}"
    );
}

#[test]
fn an_unreadable_game_is_skipped_with_a_warning_naming_it() {
    use predicates::prelude::*;

    let mut text = real("nboard-test2.ggf");
    text.extend_from_slice(b"(;GM[Othello]TY[88]B[f5];)\n");
    text.extend_from_slice(&real("novello-komi-8k.ggf"));
    let output = crate::support::othello()
        .args(["convert", "--to", "ggf", "-"])
        .write_stdin(text.clone())
        .assert()
        .success()
        .get_output()
        .clone();
    assert_eq!(String::from_utf8(output.stdout).unwrap().lines().count(), 4);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("othello: standard input: game 4 of 5 skipped: line 4, column 17: expected a square board type: the octagon, TY[88], is not played here"),
        "{stderr}"
    );
    // --game names it: refused; the games after it are there.
    crate::support::othello()
        .args(["convert", "--to", "movelist", "--game", "4", "-"])
        .write_stdin(text.clone())
        .assert()
        .code(2);
    crate::support::othello()
        .args(["convert", "--to", "ggf", "--game", "5", "-"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout(predicates::str::contains("PB[ming1014]").and(predicates::str::contains("TY[8k]")));
}

/// Standard output of `othello convert ARGS` with `input` on standard input, which must succeed.
fn converted(args: &[&str], input: Vec<u8>) -> Vec<u8> {
    crate::support::othello()
        .timeout(std::time::Duration::from_secs(600))
        .arg("convert")
        .args(args)
        .write_stdin(input)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone()
}

/// Converts the WTHOR file `name` (its names files beside it) to GGF and back to WTHOR, and
/// checks that nothing is lost: the same bytes, the names in the GGF.
fn wthor_round_trip(name: &str) {
    let path = crate::support::real_file(&format!("wthor/{name}"));
    let original = std::fs::read(&path).unwrap();
    let ggf = converted(&["--to", "ggf", path.to_str().unwrap()], Vec::new());
    let records = record::read(&original, &ReadOptions::default()).unwrap();
    let text = String::from_utf8(ggf.clone()).unwrap();
    assert_eq!(text.lines().count(), records.len(), "{name}");
    for (record, line) in records.iter().zip(text.lines()) {
        let info = record.metadata().wthor.unwrap();
        assert!(
            line.contains(&format!("C[{}]", wthor::comment(&info))),
            "{name}: {line}"
        );
        let margin = 2 * i32::from(info.black_discs) - 64;
        assert!(
            line.contains(&format!("RE[{margin:+}.000]")),
            "{name}: {line}"
        );
        if name.starts_with("WTH_") {
            assert!(
                line.contains("PB[") && line.contains("PW[") && line.contains("PC["),
                "{name}: {line}"
            );
        }
    }
    let back = converted(&["--to", "wthor", "-"], ggf);
    assert!(
        back == original,
        "{name}: the WTHOR file written back differs"
    );
}

#[test]
fn wthor_to_ggf_and_back_keeps_every_field_of_a_few_years() {
    for name in [
        "WTH_1977.wtb",
        "WTH_1978.wtb",
        "WTH_1979.wtb",
        "WTH_1980.wtb",
    ] {
        wthor_round_trip(name);
    }
    // The names come from WTHOR.JOU and WTHOR.TRN beside the file.
    let ggf = crate::support::othello()
        .args(["convert", "--to", "ggf", "--game", "1"])
        .arg(crate::support::real_file("wthor/WTH_1977.wtb"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let ggf = String::from_utf8(ggf).unwrap();
    assert!(
        ggf.starts_with("(;GM[Othello]PC[World Championship]DT[1977]PB[Inoue Hiroshi]PW[Heiberg Thomas]RE[+4.000]C[WTHOR tournament:1 black:346 white:843 score:34 theoretical:41 depth:24 year:1977 created:20.7.5.22 size:8 solitaire:0 reserved:0]TY[8]"),
        "{ggf}"
    );
}

/// Every WTHOR file of `shared/data/real/wthor/` (170,000 games): run by `.ci/run`.
#[test]
#[ignore = "slow (170,000 games): .ci/run runs it (-- --ignored every_wthor_game)"]
fn every_wthor_game_converts_to_ggf_and_back() {
    let dir = crate::support::real_file("wthor");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| {
            Path::new(name)
                .extension()
                .is_some_and(|ext| ext.eq_ignore_ascii_case("wtb"))
        })
        .collect();
    names.sort();
    assert!(names.len() >= 45, "{names:?}");
    for name in names {
        wthor_round_trip(&name);
    }
}

#[test]
fn a_wthor_file_written_without_scores_read_keeps_the_real_score() {
    // A GGF game without WTHOR numbers: its real score comes from RE, the theoretical one is
    // the same (depth 0), and the year from its date.
    let ggf = real("novello-saio-pass.ggf");
    let output = converted(&["--to", "wthor", "-"], ggf);
    let (header, count) = wthor::read_header(&output).unwrap();
    assert_eq!(
        (count, header.games_year, header.depth, header.board_size),
        (1, 2003, 0, 8)
    );
    assert_eq!((output[16 + 6], output[16 + 7]), (32, 32));
}
