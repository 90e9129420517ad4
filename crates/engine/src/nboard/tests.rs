//! The NBoard protocol's tests: the session's commands, its tasks, and the lines they write.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use othello::{Color, Dimensions, Game, RuleSet, Setup, Square};
use othello_records::ggf;

use super::task::TaskKind;
use super::{NBoard, Spot, Task, eval_text, is_interrupt, is_quit, line_text};
use crate::book::Book;
use crate::depth::MAX_DEPTH;
use crate::{Engine, EngineConfig};

fn run(task: &Task) -> Vec<String> {
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    let mut lines = Vec::new();
    task.run(&mut engine, &AtomicBool::new(false), &mut |line| {
        lines.push(line);
    });
    lines
}

#[test]
fn moves_passes_and_refusals() {
    let mut nboard = NBoard::new();
    assert!(nboard.handle("move F5").notes.is_empty());
    assert!(nboard.handle("move d6/0.50/1.2").notes.is_empty());
    let refused = nboard.handle("move a1");
    assert_eq!(
        refused.notes,
        ["move \"a1\": a1 is not a legal move for black: it flips no discs; position kept"]
    );
    assert_eq!(
        nboard.handle("move PA").notes,
        ["move \"PA\": black has a legal move and cannot pass; position kept"]
    );
    assert_eq!(
        nboard.handle("move zz").notes,
        [
            "move \"zz\": expected a square such as d3, 3d or \"3 4\" (row column), found \"zz\"; position kept"
        ]
    );
    assert_eq!(nboard.spots.len(), 3);
    // A bare square is a move, as in version 1.
    assert!(nboard.handle("c3").notes.is_empty());
    assert_eq!(nboard.spots.len(), 4);
    assert_eq!(
        nboard.handle("frobnicate").notes,
        ["unknown command ignored: \"frobnicate\""]
    );
}

#[test]
fn pings_settings_and_learning() {
    let mut nboard = NBoard::new();
    assert_eq!(nboard.handle("ping 7").lines, ["pong 7"]);
    assert!(nboard.handle("ping x").lines.is_empty());
    assert!(nboard.handle("set depth 4").notes.is_empty());
    assert_eq!(nboard.depth(), 4);
    for refused in ["0", "61", "99", "900"] {
        assert_eq!(
            nboard.handle(&format!("set depth {refused}")).notes,
            [format!(
                "set depth: expected a depth from 1 to 60, found \"{refused}\""
            )]
        );
        assert_eq!(nboard.depth(), 4, "set depth {refused}");
    }
    nboard.handle("set depth 60");
    assert_eq!(nboard.depth(), MAX_DEPTH);
    nboard.handle("set contempt 150");
    assert_eq!(nboard.contempt(), 150);
    // Without a book, nothing to learn into.
    let learn = nboard.handle("learn");
    assert_eq!(learn.lines, ["learned"]);
    assert_eq!(
        learn.notes,
        ["learn: no opening book in use; nothing stored"]
    );
    assert!(learn.task.is_none());
    assert!(nboard.handle("quit").quit);
    assert!(is_interrupt("ping 3") && is_interrupt("quit") && !is_interrupt("go"));
    assert!(is_quit(" quit ") && !is_quit("ping 3") && !is_quit("quitting"));
}

#[test]
fn learn_adds_the_game_to_the_book_that_go_and_hint_then_answer_from() {
    let mut nboard = NBoard::new();
    nboard.set_book(Some(Arc::new(Book::new())));
    for command in ["set depth 2", "move f5", "move d6", "move c3"] {
        nboard.handle(command);
    }
    let reply = nboard.handle("learn");
    assert!(
        reply.lines.is_empty() && reply.notes.is_empty(),
        "{reply:?}"
    );
    let task = reply.task.expect("learn is a task");
    assert!(task.is_learn());
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    let mut lines = Vec::new();
    let learnt = task
        .run(&mut engine, &AtomicBool::new(false), &mut |line| {
            lines.push(line);
        })
        .expect("a learn task returns its book");
    assert_eq!(
        lines,
        [
            "status learning the game at depth 2: 0 of 4 positions",
            "status learning the game at depth 2: 1 of 4 positions",
            "status learning the game at depth 2: 2 of 4 positions",
            "status learning the game at depth 2: 3 of 4 positions",
            "status learning the game at depth 2: 4 of 4 positions",
            "status",
        ]
    );
    assert_eq!(learnt.learned.expanded, 4);
    assert_eq!(learnt.learned.added, learnt.book.len());
    // The session's book is the learnt one only once the front end hands it back.
    assert!(nboard.book().unwrap().is_empty());
    assert_eq!(nboard.learned(learnt.book).lines, ["learned"]);
    let hint = nboard.handle("hint 2").task.expect("hint is a task");
    let lines = run(&hint);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].starts_with("book ") && lines[1].starts_with("book "),
        "{lines:?}"
    );
    // A game the book cannot hold is not learnt.
    nboard.handle(
        "set game (;GM[Othello]PC[NBoard]SZ[6]BO[6 ------ ------ --O*-- --*O-- ------ ------ *];)",
    );
    let learn = nboard.handle("learn");
    assert_eq!(learn.lines, ["learned"]);
    assert_eq!(
        learn.notes,
        [
            "learn: the opening book holds 8x8 games under FULL rules, most discs wins; nothing stored"
        ]
    );
}

#[test]
fn hints_agree_with_go_where_both_solve_exactly() {
    // 12 empties before the end of the fixture's first game: depth 6 solves from 12.
    let text = include_str!("../../../../fixtures/records/two-games.ggf");
    let record = &ggf::read(text).unwrap()[0];
    let (game, _) = record.positions()[48].clone();
    assert_eq!(game.board().empties(), 12);
    let mut nboard = NBoard::new();
    let start =
        othello_records::GameRecord::from_position(&game, othello_records::Metadata::default());
    assert!(
        nboard
            .handle(&format!("set game {}", ggf::game(&start)))
            .notes
            .is_empty()
    );
    nboard.handle("set depth 6");
    let moves = game.legal_moves().len();
    let hints = run(&nboard.handle("hint 99").task.unwrap());
    let searched: Vec<&String> = hints
        .iter()
        .filter(|line| line.starts_with("search "))
        .collect();
    assert_eq!(searched.len(), moves, "{hints:?}");
    assert!(
        searched.iter().all(|line| line.ends_with(" 0 100%")),
        "{hints:?}"
    );
    let go = run(&nboard.handle("go").task.unwrap());
    let answer = go.iter().find(|line| line.starts_with("=== ")).unwrap();
    let fields: Vec<&str> = answer[4..].split('/').collect();
    let best: Vec<&str> = searched[0].split(' ').collect();
    // The best hint's value is go's; its move is go's or another as good.
    assert_eq!(best[2], fields[1], "{hints:?} {go:?}");
    assert!(
        searched
            .iter()
            .any(|line| line.starts_with(&format!("search {}", fields[0]))
                && line.split(' ').nth(2) == Some(fields[1]))
    );
    let one = run(&nboard.handle("hint 1").task.unwrap());
    assert!(
        one.iter()
            .any(|line| line.starts_with(&format!("search {}", fields[0]))),
        "{one:?}"
    );
}

/// A session at a position of 18 empties of the fixture's first game, searched to the
/// end: a selective solve, then the exact one.
fn at_18_empties() -> NBoard {
    let text = include_str!("../../../../fixtures/records/two-games.ggf");
    let record = &ggf::read(text).unwrap()[0];
    let (game, _) = record
        .positions()
        .into_iter()
        .find(|(game, _)| game.board().empties() == 18)
        .unwrap();
    let mut nboard = NBoard::new();
    let start =
        othello_records::GameRecord::from_position(&game, othello_records::Metadata::default());
    nboard.handle(&format!("set game {}", ggf::game(&start)));
    nboard.handle("set depth 60");
    nboard
}

#[test]
fn a_hint_stopped_during_the_exact_solve_shows_the_selective_depth() {
    let mut nboard = at_18_empties();
    let task = nboard.handle("hint 1").task.unwrap();
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    // Stopped as soon as the selective solve is reported, as a ping would stop it.
    let stop = AtomicBool::new(false);
    let mut lines = Vec::new();
    task.run(&mut engine, &stop, &mut |line| {
        if line.starts_with("status 18@87%") {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        lines.push(line);
    });
    let searched: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searched.len(), 1, "{lines:?}");
    assert!(searched[0].ends_with(" 0 18@87%"), "{lines:?}");
}

/// A hint of several moves stopped at once (as the end of the input stops it) still values
/// every move, one ply after it (depth 2 with the move), and says it has an answer from the start; a search says so after
/// its first iteration.
#[test]
fn a_hint_stopped_at_once_values_its_moves_one_ply_deep() {
    let mut nboard = NBoard::new();
    nboard.handle("set depth 20");
    nboard.handle("move f5");
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    for (command, searches) in [("hint 2", 2), ("hint 1", 1)] {
        let task = nboard.handle(command).task.unwrap();
        let mut lines = Vec::new();
        let mut answered = 0;
        task.run_noting_answers(
            &mut engine,
            &AtomicBool::new(true),
            &mut |line| lines.push(line),
            &mut || answered += 1,
        );
        let searched: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
        assert_eq!(searched.len(), searches, "{command}: {lines:?}");
        if command == "hint 2" {
            assert_eq!(answered, 1, "{lines:?}");
            assert!(searched.iter().all(|l| l.ends_with(" 0 2")), "{lines:?}");
        }
    }
    let task = nboard.handle("go").task.unwrap();
    let mut answered = 0;
    let mut iterations = 0;
    task.run_noting_answers(
        &mut engine,
        &AtomicBool::new(false),
        &mut |line| iterations += usize::from(line.starts_with("status depth")),
        &mut || answered += 1,
    );
    assert!(answered >= 1);
    assert_eq!(answered, iterations);
}

#[test]
fn a_selective_solve_shows_in_the_status_before_the_exact_one() {
    let mut nboard = at_18_empties();
    let go = run(&nboard.handle("go").task.unwrap());
    let status: Vec<&str> = go
        .iter()
        .filter_map(|line| line.strip_prefix("status "))
        .filter_map(|line| line.split(':').next())
        .collect();
    let selective = status.iter().position(|&s| s == "18@87%");
    let exact = status.iter().position(|&s| s == "exact");
    assert!(selective.is_some() && selective < exact, "{go:?}");
}

#[test]
fn a_pass_nboard_has_not_sent_yet_is_answered_pa() {
    // Black plays a1 in the fixture's first game; white then has no move.
    let text = include_str!("../../../../fixtures/records/two-games.ggf");
    let record = &ggf::read(text).unwrap()[0];
    let ggf_text = ggf::game(record);
    assert!(ggf_text.contains("B[a1]W[PA]B[g2];)"));
    let before_end = ggf_text.replace("W[PA]B[g2]", "");
    let mut nboard = NBoard::new();
    assert!(
        nboard
            .handle(&format!("set game {before_end}"))
            .notes
            .is_empty()
    );
    assert!(nboard.current().must_pass());
    let lines = run(&nboard.handle("go").task.unwrap());
    assert_eq!(lines, ["=== PA", "status"]);
    let lines = run(&nboard.handle("hint 2").task.unwrap());
    assert!(
        lines.iter().any(|line| line.starts_with("search PAg2 ")),
        "{lines:?}"
    );
    assert!(nboard.handle("move PA").notes.is_empty());
    assert!(nboard.handle("move g2").notes.is_empty());
    assert!(nboard.game().is_over());
    let after_end = nboard.handle("go");
    assert!(after_end.task.is_none());
    assert_eq!(after_end.lines, ["=== PA", "status"]);
    // The analysis starts from the end: white, nominally to move, lost by 20.
    nboard.handle("set depth 1");
    let lines = run(&nboard.handle("analyze").task.unwrap());
    assert_eq!(
        lines[..2],
        ["status analyzing at depth 1", "analysis 61 -20.00"]
    );
    assert_eq!(lines.len(), 62 + 2);
    assert_eq!(lines.last().unwrap(), "status");
}

#[test]
fn hint_progress_names_squares_beyond_row_nine_in_full() {
    // 10x10, black to move with two moves, both on row 10: a10 and c10.
    let dims = Dimensions::new(10, 10).unwrap();
    let mut board = othello::Board::empty(dims);
    for (row, col, color) in [
        (7, 0, Color::Black),
        (8, 0, Color::White),
        (7, 2, Color::Black),
        (8, 2, Color::White),
    ] {
        board.set(Square::new(row, col), Some(color)).unwrap();
    }
    let setup = Setup {
        board,
        first: Color::Black,
        win: othello::WinRule::MostDiscs,
    };
    let game = Game::new(setup, RuleSet::Full);
    let legal: Vec<String> = game.legal_moves().iter().map(Square::to_string).collect();
    assert_eq!(legal, ["a10", "c10"]);
    let task = Task {
        kind: TaskKind::Hint(Spot::new(game), 2),
        depth: 2,
        book: None,
    };
    let lines = run(&task);
    let named: Vec<&str> = lines
        .iter()
        .filter_map(|line| line.strip_prefix("status searched "))
        .map(|rest| rest.split(' ').nth(7).unwrap())
        .collect();
    assert_eq!(named.len(), 2, "{lines:?}");
    assert!(
        named.iter().all(|square| legal.iter().any(|m| m == square)),
        "{lines:?}"
    );
}

#[test]
fn lines_show_passes() {
    // The first game of the fixture ends ... W[a2] B[a1] B[g2]: white passes before g2.
    let text = include_str!("../../../../fixtures/records/two-games.ggf");
    let record = &ggf::read(text).unwrap()[0];
    let positions = record.positions();
    let (before_a1, a1) = positions[positions.len() - 2].clone();
    let g2 = positions[positions.len() - 1].1;
    assert_eq!(line_text(&before_a1, &[a1, g2]), "a1PAg2");
    let (start, first) = positions[0].clone();
    assert_eq!(line_text(&start, &[first, positions[1].1]), "d3c5");
    // A line that goes wrong stops there.
    assert_eq!(line_text(&start, &[first, first]), "d3");
    assert_eq!(eval_text(-4), "-4.00");
    assert_eq!(eval_text(0), "0.00");
}
