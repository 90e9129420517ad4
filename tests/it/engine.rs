//! The search engine against brute force, known results and its limits.
//!
//! Here the solver against brute force, FFO positions and the search's limits (and `command`);
//! the end of the game in `endings`.

use std::sync::atomic::AtomicBool;

use othello::{Color, Dimensions, Game, RuleSet, Setup, WinRule};

use othello_engine::{Engine, EngineConfig, EngineError, Limits, Scoring};

mod endings;

/// A small deterministic generator (`SplitMix64`) for picking random moves.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plain minimax over the library's `Game`: the exact score for the player to move.
fn brute_force(game: &Game) -> i32 {
    let mover = game.turn().expect("a game in progress");
    let mut best = i32::MIN;
    for square in game.legal_moves() {
        let mut child = game.clone();
        child.play(square).unwrap();
        let score = match child.turn() {
            None => child.margin(mover),
            Some(next) if next == mover => brute_force(&child),
            Some(_) => -brute_force(&child),
        };
        best = best.max(score);
    }
    best
}

/// Plays random moves from the standard start until `empties` squares are left (or the game
/// ends); `None` if it ended first.
fn random_game(
    dims: Dimensions,
    rules: RuleSet,
    win: WinRule,
    empties: u32,
    rng: &mut SplitMix,
) -> Option<Game> {
    let setup = Setup {
        win,
        ..Setup::standard(dims)
    };
    let mut game = Game::new(setup, rules);
    while game.board().empties() > empties {
        let moves = game.legal_moves();
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len())]).unwrap();
    }
    (!game.is_over()).then_some(game)
}

fn sizes() -> Vec<Dimensions> {
    [
        (4, 4),
        (4, 6),
        (6, 4),
        (6, 6),
        (4, 16),
        (8, 8),
        (10, 10),
        (8, 16),
        (12, 12),
        (16, 16),
    ]
    .iter()
    .map(|&(r, c)| Dimensions::new(r, c).unwrap())
    .collect()
}

#[test]
fn solver_matches_brute_force_on_every_size_rule_set_and_win_rule() {
    let mut rng = SplitMix(2024);
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    let mut checked = 0;
    for dims in sizes() {
        for rules in RuleSet::ALL {
            for win in [WinRule::MostDiscs, WinRule::FewestDiscs] {
                for empties in [1, 2, 3, 5, 7, 9] {
                    let Some(game) = random_game(dims, rules, win, empties, &mut rng) else {
                        continue;
                    };
                    let expected = brute_force(&game);
                    let report = engine.search(&game, &Limits::default()).unwrap();
                    let context = format!("{dims} {rules} {win}\n{}", game.board());
                    assert!(report.exact, "{context}");
                    assert_eq!(report.score, expected, "{context}");
                    // The best move really achieves the score.
                    let mut child = game.clone();
                    child.play(report.best_move).unwrap();
                    let mover = game.turn().unwrap();
                    let achieved = match child.turn() {
                        None => child.margin(mover),
                        Some(next) if next == mover => brute_force(&child),
                        Some(_) => -brute_force(&child),
                    };
                    assert_eq!(
                        achieved, expected,
                        "best move {} {context}",
                        report.best_move
                    );
                    assert_eq!(report.pv.first(), Some(&report.best_move));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 150, "only {checked} positions checked");
}

#[test]
fn four_by_four_from_the_start_is_a_white_win_by_eight() {
    let game = Game::new(
        Setup::standard(Dimensions::new(4, 4).unwrap()),
        RuleSet::Full,
    );
    let report = Engine::new(EngineConfig::default())
        .search(&game, &Limits::default())
        .unwrap();
    assert!(report.exact);
    assert_eq!(game.turn(), Some(Color::Black));
    assert_eq!(report.score, -8);
    assert_eq!(report.depth, 12);
    // Replaying the principal variation ends the game with that margin.
    let mut end = game.clone();
    for &square in &report.pv {
        end.play(square).unwrap();
    }
    assert!(end.is_over(), "the principal variation reaches the end");
    assert_eq!(end.margin(Color::Black), -8);
}

/// FFO position `id` of the fixture (#40-#59).
fn ffo_position(id: &str) -> othello_records::ffo::FfoPosition {
    let data = include_str!("../../fixtures/ffo/ffo-40-59.txt");
    let line = data
        .lines()
        .find(|line| line.split_whitespace().next() == Some(id))
        .unwrap();
    othello_records::ffo::parse_line(line).unwrap().unwrap()
}

fn solve_ffo(id: &str, threads: usize) {
    let position = ffo_position(id);
    let game = position.game();
    let listed = position.listed.unwrap();
    let (best, score) = (listed.best, listed.score);
    let mut engine = Engine::new(EngineConfig {
        threads,
        ..EngineConfig::default()
    });
    engine.set_scoring(Scoring::EmptiesToWinner);
    let report = engine.search(&game, &Limits::default()).unwrap();
    assert!(report.exact);
    assert_eq!(report.score, score, "FFO #{id}");
    assert_eq!(report.pv.first(), Some(&report.best_move));
    assert!(report.pv.len() > 10, "FFO #{id}: {:?}", report.pv);
    assert!(
        best.contains(&report.best_move),
        "FFO #{id}: {}",
        report.best_move
    );
}

#[test]
#[ignore = "an exact 20-22 empties solve: run with --release -- --ignored ffo (.ci/run solves #40 and #41 with the release binary)"]
fn ffo_40() {
    solve_ffo("40", 1);
}

#[test]
#[ignore = "an exact 20-22 empties solve: run with --release -- --ignored ffo (.ci/run solves #40 and #41 with the release binary)"]
fn ffo_41() {
    solve_ffo("41", 1);
}

/// The threads share the root moves and the principal variation's nodes: still exact.
#[test]
#[ignore = "an exact 20-22 empties solve: run with --release -- --ignored ffo (.ci/run solves #40 and #41 with the release binary)"]
fn ffo_40_and_41_on_several_threads() {
    solve_ffo("40", 2);
    solve_ffo("41", 3);
}

#[test]
fn depth_and_node_limits_still_give_a_legal_move() {
    let game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let mut engine = Engine::new(EngineConfig::default());
    let report = engine.search(&game, &Limits::depth(3)).unwrap();
    assert!(!report.exact);
    assert_eq!(report.depth, 3);
    assert!(game.is_legal(report.best_move));
    assert_eq!(report.pv.len(), 3);
    let report = engine
        .search(
            &game,
            &Limits {
                nodes: Some(1),
                ..Limits::default()
            },
        )
        .unwrap();
    assert!(game.is_legal(report.best_move));
    assert_eq!(
        engine.search(&game, &Limits::depth(0)),
        Err(EngineError::ZeroDepth)
    );
}

#[test]
fn a_set_stop_flag_ends_the_search_at_once() {
    let game = Game::new(
        Setup::standard(Dimensions::new(16, 16).unwrap()),
        RuleSet::Full,
    );
    let mut engine = Engine::new(EngineConfig::default());
    let stop = AtomicBool::new(true);
    let report = engine
        .search_with(&game, &Limits::default(), &stop, &mut |_| {})
        .unwrap();
    assert!(!report.exact);
    assert!(game.is_legal(report.best_move));
}

#[test]
fn searches_are_deterministic() {
    let game = Game::new(
        Setup::standard(Dimensions::new(6, 6).unwrap()),
        RuleSet::Full,
    );
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let run = || {
        let mut report = Engine::new(EngineConfig::default())
            .search(&game, &limits)
            .unwrap();
        report.elapsed = std::time::Duration::default();
        report
    };
    assert_eq!(run(), run());
}

#[test]
fn a_finished_game_is_an_error() {
    let setup = Setup::from_protocol("4\n4\nB\n>\nB B B B\nB B B B\nB B B B\nB B B W\n").unwrap();
    let game = Game::new(setup, RuleSet::Full);
    assert!(game.is_over());
    let mut engine = Engine::new(EngineConfig::default());
    assert_eq!(
        engine.search(&game, &Limits::default()),
        Err(EngineError::GameOver)
    );
}

mod command {
    //! `othello solve` as a user meets it.

    use predicates::prelude::*;

    use crate::support::othello;

    const FOUR_BY_FOUR: &str = "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n";

    #[test]
    fn solves_a_protocol_setup_from_standard_input() {
        othello()
            .args(["solve", "--verbose"])
            .write_stdin(FOUR_BY_FOUR)
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "position 1 (line 1): 4x4 FULL, most discs wins, black to move, 12 empties",
            ))
            .stdout(predicate::str::contains("  score      -8 (exact)\n"))
            .stdout(predicate::str::contains("  pv         "));
    }

    /// FFO #40 after the first ten moves of its principal variation (a2 b1 c1 b6 c7 a7 b7 b8
    /// d7 f8): 10 empties, so that the debug binary solves it at once.
    const FFO_40_AFTER_10: &str =
        "4010 OOXXXXXXXOXXXXXXOOXOXOXXOOXXOXXXOOXOXOXX-O-XOOOXXOOOX--X-X---X-- O 10 C6 -38";

    #[test]
    fn checks_ffo_lines_against_their_listed_result() {
        othello()
            .args(["solve", "--empties-to-winner", "--verbose"])
            .write_stdin(format!("# FFO\n{FFO_40_AFTER_10}\n"))
            .assert()
            .success()
            .stdout(predicate::str::contains(
                "#4010 (line 2): 8x8 FULL, most discs wins, white to move, 10 empties\n",
            ))
            .stdout(predicate::str::contains("  best move  c6\n"))
            .stdout(predicate::str::contains("  score      -38 (exact)\n"))
            .stdout(predicate::str::contains("  listed     c6 -38: match\n"));
        // A wrong listed result is reported, and the exit status says so.
        othello()
            .args(["solve", "--empties-to-winner", "--bench", "-"])
            .write_stdin(FFO_40_AFTER_10.replace("-38", "-36"))
            .assert()
            .code(1)
            .stdout(predicate::str::contains("DIFFERENT"))
            .stderr("othello: 1 of 1 results differ from the listed ones\n");
        // FFO lines are scored with the empties to the winner without the flag too.
        othello()
            .args(["solve", "--verbose"])
            .write_stdin(FFO_40_AFTER_10)
            .assert()
            .success()
            .stdout(predicate::str::contains("  listed     c6 -38: match\n"));
        // After a protocol setup (only discs count there) an FFO line's difference comes with a
        // note that says why it may differ.
        othello()
            .arg("solve")
            .write_stdin(format!(
                "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n{}\n",
                FFO_40_AFTER_10.replace("-38", "-36")
            ))
            .assert()
            .code(1)
            .stdout(predicate::str::contains(
                "note: FFO scores count empties for the winner: use --empties-to-winner\n",
            ));
    }

    #[test]
    fn depth_limit_gives_an_evaluation() {
        othello()
            .args(["solve", "--depth", "2", "--rules", "simple", "-v"])
            .write_stdin("6\n6\nW\n<\n. . . . . .\n. . . . . .\n. . W B . .\n. . B W . .\n. . . . . .\n. . . . . .\n")
            .assert()
            .success()
            .stdout(predicate::str::contains("6x6 SIMPLE, fewest discs wins, white to move"))
            .stdout(predicate::str::contains("(evaluation at depth 2)"));
    }

    #[test]
    fn bad_input_is_one_line_naming_the_place() {
        othello()
            .arg("solve")
            .write_stdin("4\n4\nB\n>\n. . . .\n. X . .\n")
            .assert()
            .code(2)
            .stdout("")
            .stderr("othello: standard input: line 6: expected B, W or . at row 2, column 2 of the board, found \"X\"\n");
        othello()
            .arg("solve")
            .write_stdin("# nothing\n\n")
            .assert()
            .code(2)
            .stderr("othello: standard input: no position found (expected protocol setups or FFO lines)\n");
        othello()
            .args(["solve", "--time", "0"])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("positive number of seconds"));
    }

    #[test]
    fn a_finished_game_is_reported_not_searched() {
        othello()
            .args(["solve", "--verbose"])
            .write_stdin("4\n4\nB\n>\nB B B B\nB B B B\nB B B B\nB B B W\n")
            .assert()
            .success()
            .stdout(predicate::str::contains("game over"))
            .stdout(predicate::str::contains("nobody can move: final score +14"));
    }
}
