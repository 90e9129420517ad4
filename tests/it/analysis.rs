//! `othello_engine::analysis` and `othello analyze`: every value and loss of short games checked
//! against a brute-force minimax written here, independent of the engine.

use othello::{Color, Game, WinRule};
use othello_engine::analysis::{AnalysisOptions, analyze};
use othello_engine::{Engine, EngineConfig};
use othello_records::{self as record, GameRecord, ReadOptions, movelist};

use crate::support::othello;

/// A whole 4x4 game with a pass and a draw at the end.
const GAME_4X4: &str = "4x4 b1a1a2c1d1d3d2a3d4c4a4b4";

/// The value of `game` for `player` with perfect play by both sides: plain minimax over every
/// legal move, no pruning, no table.
fn minimax(game: &Game, player: Color) -> i32 {
    let Some(turn) = game.turn() else {
        return game.margin(player);
    };
    let values = game.legal_moves().into_iter().map(|square| {
        let mut child = game.clone();
        child.play(square).unwrap();
        minimax(&child, player)
    });
    if turn == player {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

fn check_exact_moves(record: &GameRecord, options: AnalysisOptions) -> usize {
    let mut engine = Engine::new(EngineConfig::default());
    let analysis = analyze(record, &options, &mut engine, &mut |_, _| {}).unwrap();
    let positions = record.positions();
    assert_eq!(analysis.moves.len(), positions.len());
    let mut checked = 0;
    for (analysed, (game, played)) in analysis.moves.iter().zip(&positions) {
        assert_eq!(analysed.played, *played);
        assert_eq!(analysed.player, game.turn().unwrap());
        assert_eq!(analysed.empties, game.board().empties());
        assert_eq!(analysed.exact, analysed.empties <= options.exact_from);
        if !analysed.exact {
            continue;
        }
        let player = analysed.player;
        let value_after = |square| {
            let mut child = game.clone();
            child.play(square).unwrap();
            minimax(&child, player)
        };
        let best_value = minimax(game, player);
        assert_eq!(analysed.best_value, best_value, "move {}", analysed.number);
        assert_eq!(
            value_after(analysed.best),
            best_value,
            "move {}",
            analysed.number
        );
        assert_eq!(
            value_after(*played),
            analysed.played_value,
            "move {}",
            analysed.number
        );
        assert_eq!(analysed.loss, best_value - analysed.played_value);
        assert_eq!(analysed.is_mistake(), analysed.loss > 0);
        // The second-best: the best of the moves other than the engine's.
        let second = game
            .legal_moves()
            .into_iter()
            .filter(|&square| square != analysed.best)
            .map(value_after)
            .max();
        assert_eq!(analysed.second_value, second, "move {}", analysed.number);
        let others_best = game
            .legal_moves()
            .into_iter()
            .filter(|square| square != played)
            .map(value_after)
            .max();
        assert_eq!(
            analysed.gain(),
            others_best.map(|others| analysed.played_value - others),
            "move {}",
            analysed.number
        );
        assert_eq!(
            analysed.is_only_good_move(),
            analysed.gain().is_some_and(|gain| gain > 0)
        );
        checked += 1;
    }
    // The summary adds up the moves.
    for color in Color::ALL {
        let mine: Vec<_> = analysis
            .moves
            .iter()
            .filter(|m| m.player == color)
            .collect();
        let summary = &analysis.summary[color];
        assert_eq!(summary.moves, mine.len());
        assert_eq!(summary.total_loss, mine.iter().map(|m| m.loss).sum::<i32>());
        assert_eq!(
            summary.mistakes,
            mine.iter().filter(|m| m.is_mistake()).count()
        );
        assert_eq!(
            summary.worst.map_or(0, |w| w.2),
            mine.iter().map(|m| m.loss).max().unwrap_or(0)
        );
        let best = mine
            .iter()
            .filter(|m| m.is_only_good_move())
            .filter_map(|m| m.gain())
            .max();
        assert_eq!(summary.best.map(|b| b.2), best);
    }
    let first_exact = analysis.moves.iter().find(|m| m.exact).unwrap();
    let theoretical = analysis.theoretical.unwrap();
    assert_eq!(theoretical.from_move, first_exact.number);
    let (game, _) = &positions[first_exact.number - 1];
    assert_eq!(theoretical.black_margin, minimax(game, Color::Black));
    assert_eq!(
        analysis.final_black_margin,
        record.final_game().margin(Color::Black)
    );
    checked
}

#[test]
fn a_4x4_game_solved_from_the_first_move() {
    let record = &movelist::read(GAME_4X4, &ReadOptions::default()).unwrap()[0];
    let options = AnalysisOptions::for_board(record.dims());
    assert_eq!(check_exact_moves(record, options), 12);
}

#[test]
fn a_6x6_fewest_discs_game_exact_over_its_last_10_empties() {
    let text = include_str!("../../fixtures/records/two-games.ggf");
    let record = &record::read(text.as_bytes(), &ReadOptions::default()).unwrap()[1];
    assert_eq!(record.setup().win, WinRule::FewestDiscs);
    let options = AnalysisOptions {
        exact_from: 10,
        depth: 4,
    };
    assert_eq!(check_exact_moves(record, options), 10);
}

#[test]
fn the_table_reports_every_move_and_the_summary() {
    let output = othello()
        .args(["analyze", "-"])
        .write_stdin(GAME_4X4)
        .assert()
        .success()
        .get_output()
        .clone();
    assert!(output.stderr.is_empty(), "no progress bar off a terminal");
    insta::assert_snapshot!(String::from_utf8(output.stdout).unwrap());
}

#[test]
fn json_holds_the_same_values() {
    let output = othello()
        .args(["analyze", "--json", "-"])
        .write_stdin(GAME_4X4)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let json: serde_json::Value = serde_json::from_slice(&output).unwrap();
    let game = &json["games"][0];
    assert_eq!(game["board"], "4x4");
    let moves = game["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 12);
    assert_eq!(moves[5]["player"], "white");
    assert_eq!(moves[5]["played"], "d3");
    assert_eq!(moves[5]["loss"], 11);
    assert_eq!(moves[5]["best"], "a3");
    assert_eq!(game["theoretical"]["black_margin"], -8);
    assert_eq!(game["summary"]["white"]["total_loss"], 11);
    assert_eq!(moves[5]["second_value"], 6);
    assert_eq!(moves[5]["gain"], -11);
    assert_eq!(moves[1]["only_good_move"], true);
    assert_eq!(moves[1]["gain"], 16);
    assert_eq!(moves[11]["second_value"], serde_json::Value::Null);
    assert_eq!(game["summary"]["white"]["best"]["square"], "a1");
    assert_eq!(game["summary"]["white"]["best"]["gain"], 16);
    assert_eq!(game["final"]["black_margin"], 0);
}

#[test]
fn bad_records_and_options_are_refused() {
    othello()
        .args(["analyze", "-"])
        .write_stdin("4x4 b1 b1")
        .assert()
        .code(2)
        .stderr("othello: standard input: line 1, column 8: move 2: b1 is already occupied\n");
    othello()
        .args(["analyze", "-", "--depth", "0"])
        .write_stdin(GAME_4X4)
        .assert()
        .code(2);
}

#[test]
fn solve_takes_the_position_after_the_last_move_of_each_game() {
    let record = &movelist::read("4x4 b1 a1", &ReadOptions::default()).unwrap()[0];
    let value = minimax(record.final_game(), Color::Black);
    othello()
        .args(["solve", "-", "--verbose"])
        .write_stdin("4x4 b1 a1\n4x4 b1\n")
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "game 1: 4x4 FULL, most discs wins, black to move, 10 empties\n",
        ))
        .stdout(predicates::str::contains(format!(
            "  best move  a2\n  score      {value:+} (exact)"
        )))
        .stdout(predicates::str::contains(
            "game 2: 4x4 FULL, most discs wins, white to move, 11 empties",
        ));
    othello()
        .args(["solve", "-", "--verbose"])
        .write_stdin("(;GM[Othello]TY[4]B[b1];)")
        .assert()
        .success()
        .stdout(predicates::str::contains("score      +8 (exact)"));
    othello()
        .args(["solve", "-"])
        .write_stdin("f5 f5\n")
        .assert()
        .code(2)
        .stderr("othello: standard input: line 1, column 4: move 2: f5 is already occupied\n");
}
