//! The search engine against brute force, known results and its limits.

use std::sync::atomic::AtomicBool;

use othello::{
    Color, Dimensions, Engine, EngineConfig, EngineError, Game, Limits, RuleSet, Scoring, Setup,
    Square, WinRule,
};

/// A small deterministic generator (SplitMix64) for picking random moves.
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

/// The final margin for the player to move of a finished game, discs only.
fn final_margin(game: &Game, mover: Color) -> i32 {
    let score = game.score();
    let margin = score[mover] as i32 - score[mover.opponent()] as i32;
    match game.win_rule() {
        WinRule::MostDiscs => margin,
        WinRule::FewestDiscs => -margin,
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
            None => final_margin(&child, mover),
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
                        None => final_margin(&child, mover),
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
    assert_eq!(final_margin(&end, Color::Black), -8);
}

/// Reads an FFO line of `shared/data/ffo-40-59.txt` into a game.
fn ffo_game(line: &str) -> (Game, Vec<Square>, i32) {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mut text = String::from("8\n8\n");
    text.push_str(if fields[2] == "X" { "B\n>\n" } else { "W\n>\n" });
    for row in fields[1].as_bytes().chunks(8) {
        let cells: Vec<&str> = row
            .iter()
            .map(|&c| match c {
                b'X' => "B",
                b'O' => "W",
                _ => ".",
            })
            .collect();
        text.push_str(&cells.join(" "));
        text.push('\n');
    }
    let game = Game::new(Setup::from_protocol(&text).unwrap(), RuleSet::Full);
    let best = fields[4]
        .split(',')
        .map(|name| {
            let b = name.as_bytes();
            Square::new(b[1] - b'1', b[0].to_ascii_lowercase() - b'a')
        })
        .collect();
    (game, best, fields[5].parse().unwrap())
}

fn solve_ffo(id: &str) {
    let data = include_str!("../../fixtures/ffo/ffo-40-59.txt");
    let line = data
        .lines()
        .find(|line| line.split_whitespace().next() == Some(id))
        .unwrap();
    let (game, best, score) = ffo_game(line);
    let mut engine = Engine::new(EngineConfig::default());
    engine.set_scoring(Scoring::EmptiesToWinner);
    let report = engine.search(&game, &Limits::default()).unwrap();
    assert!(report.exact);
    assert_eq!(report.score, score, "FFO #{id}");
    assert!(
        best.contains(&report.best_move),
        "FFO #{id}: {}",
        report.best_move
    );
}

#[test]
fn ffo_40() {
    solve_ffo("40");
}

#[test]
fn ffo_41() {
    solve_ffo("41");
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
        report.elapsed = Default::default();
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
