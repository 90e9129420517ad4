//! The counts of how the threads shared a search ([`crate::ThreadCounts`]).

use crate::{Engine, EngineConfig, Limits};
use othello::notation::parse_square;
use othello::{Dimensions, Game, RuleSet, Setup};

/// A midgame position: the standard start after four moves.
fn midgame() -> Game {
    let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    for name in ["f5", "d6", "c3", "d3"] {
        let square = parse_square(name, Dimensions::STANDARD).unwrap();
        game.play(square).unwrap();
    }
    game
}

fn search(threads: usize) -> crate::SearchReport {
    let mut engine = Engine::new(EngineConfig {
        threads,
        hash_mb: 4,
        ..EngineConfig::default()
    });
    engine.search(&midgame(), &Limits::depth(7)).unwrap()
}

#[test]
fn one_thread_shares_nothing() {
    let counts = search(1).threads;
    assert_eq!(counts.helpers, 0);
    assert_eq!(counts.splits, 0);
    assert_eq!(counts.helpers_busy, std::time::Duration::ZERO);
    assert_eq!(counts.waiting, std::time::Duration::ZERO);
    assert_eq!(counts.wasted_nodes, 0);
}

#[test]
fn two_threads_count_their_splits_and_the_helpers_time() {
    let report = search(2);
    let counts = report.threads;
    assert_eq!(counts.helpers, 1);
    // Every iteration shares its root moves.
    assert!(counts.splits >= 7, "{counts:?}");
    assert!(
        counts.helpers_busy > std::time::Duration::ZERO,
        "{counts:?}"
    );
    assert!(counts.helpers_busy <= report.elapsed, "{counts:?}");
    let share = counts.helpers_busy_share(report.elapsed);
    assert!(share > 0.0 && share <= 1.0, "{share}");
    assert!(
        counts.wasted_nodes + counts.researched_nodes < report.nodes,
        "{counts:?}"
    );
}

/// A position `empties` from the end, reached by a seeded pseudo-random game from the start.
fn endgame(empties: u32, mut seed: u64) -> Game {
    let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    while game.board().empties() > empties {
        let moves = game.legal_moves();
        assert!(!moves.is_empty(), "the game ended early");
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        game.play(moves[seed as usize % moves.len()]).unwrap();
    }
    game
}

/// More threads than cores, each a thread the search keeps between its shared nodes: the
/// same exact score as one thread.
#[test]
fn eight_threads_solve_exactly_as_one() {
    let game = endgame(19, 0x2545_f491_4f6c_dd1d);
    let solve = |threads| {
        let mut engine = Engine::new(EngineConfig {
            threads,
            hash_mb: 16,
            ..EngineConfig::default()
        });
        engine.search(&game, &Limits::default()).unwrap()
    };
    let (one, eight) = (solve(1), solve(8));
    assert!(one.exact && eight.exact);
    assert_eq!(one.score, eight.score);
    assert!(game.is_legal(eight.best_move));
    let counts = eight.threads;
    assert_eq!(counts.helpers, 7);
    assert!(counts.splits > 0 && counts.helpers_busy > std::time::Duration::ZERO);
}
