//! Searches at the end of the game: moves that end it, full boards, the clock's share, exact
//! principal variations, selective solves, wipe-outs proven by stable discs.

use std::sync::atomic::AtomicBool;

use othello::{Dimensions, Game, RuleSet, Setup, WinRule};
use othello_engine::{Engine, EngineConfig, Limits};

use super::{SplitMix, brute_force, ffo_position, random_game};

/// The game after `moves` (a move list from the standard 8x8 start).
fn after(moves: &str) -> Game {
    let records =
        othello_records::read(moves.as_bytes(), &othello_records::ReadOptions::default()).unwrap();
    records[0].final_game().clone()
}

#[test]
fn a_move_that_ends_the_game_is_seen_at_every_depth() {
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 4,
        ..EngineConfig::default()
    });
    let search = |engine: &mut Engine, game: &Game, depth: u32| {
        engine
            .search(
                game,
                &Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
            )
            .unwrap()
    };
    // White's g5 wipes black out at once: 14 discs to none.
    let game = after("d3c5d6c3c4e3c6c7f5");
    for depth in 1..=4 {
        let report = search(&mut engine, &game, depth);
        assert_eq!(
            (report.best_move.to_string(), report.score),
            ("g5".to_owned(), 14),
            "depth {depth}"
        );
    }
    // One move earlier black must not play f5, which lets white wipe it out.
    let game = after("d3c5d6c3c4e3c6c7");
    for depth in 2..=4 {
        let report = search(&mut engine, &game, depth);
        assert_ne!(report.best_move.to_string(), "f5", "depth {depth}");
    }
    // Positions of random games, 6x6 and 8x8, where a move ends the game (a wipe-out or a
    // blocked or full board) one move away: at every depth the search scores at least what
    // that move wins, exactly, and a move that ends the game with the best margin of all is
    // never scored above it by the evaluation.
    let mut rng = SplitMix(25);
    let mut checked = 0;
    for attempt in 0..4000 {
        if checked >= 12 {
            break;
        }
        let side = if attempt % 2 == 0 { 6 } else { 8 };
        let mut game = Game::new(
            Setup::standard(Dimensions::new(side, side).unwrap()),
            RuleSet::Full,
        );
        while let Some(mover) = game.turn() {
            let moves = game.legal_moves();
            let ending = moves.iter().copied().find_map(|square| {
                let mut child = game.clone();
                child.play(square).unwrap();
                child.is_over().then(|| (square, child.margin(mover)))
            });
            // With more empties than the depth, the search is not an exact solve.
            if let Some((square, margin)) = ending
                && game.board().empties() >= 2
            {
                for depth in 1..game.board().empties().min(5) {
                    let report = search(&mut engine, &game, depth);
                    assert!(
                        report.score >= margin,
                        "depth {depth}: {square} ends the game {margin:+}, the search says {} {:+}\n{}",
                        report.best_move,
                        report.score,
                        game.board()
                    );
                }
                checked += 1;
                break;
            }
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
    }
    assert!(checked >= 12, "only {checked} positions found");
}

#[test]
fn a_full_board_one_or_two_moves_away_is_scored_exactly() {
    // The 2007 world final, game 1, two and one moves before its end.
    let text = std::fs::read_to_string(crate::support::real_file("woc2007-final-g1.txt")).unwrap();
    let moves = text.split_whitespace().next().unwrap();
    let mut engine = Engine::new(EngineConfig::default());
    for left in [1, 2] {
        let game = after(&moves[..moves.len() - 2 * left]);
        let exact = brute_force(&game);
        for depth in 1..=4 {
            let report = engine
                .search(
                    &game,
                    &Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    },
                )
                .unwrap();
            if depth >= game.board().empties() {
                assert!(report.exact);
            }
            if left == 1 || depth >= 2 {
                assert_eq!(report.score, exact, "{left} moves left, depth {depth}");
            }
        }
    }
}

#[test]
fn a_share_of_the_clock_stops_the_deepening_but_not_the_exact_solve() {
    let mut engine = Engine::new(EngineConfig::default());
    let no_time = Limits {
        target: Some(std::time::Duration::ZERO),
        ..Limits::default()
    };
    // No time at all: the first iteration completes and no other starts.
    let start = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let report = engine.search(&start, &no_time).unwrap();
    assert_eq!((report.depth, report.exact), (1, false));
    assert!(start.is_legal(report.best_move));
    // With 10 empties the exact solve comes first and is not cut short by the share.
    let mut near_end = start.clone();
    while near_end.board().empties() > 10 {
        let quick = engine.search(&near_end, &Limits::depth(1)).unwrap();
        near_end.play(quick.best_move).unwrap();
    }
    assert!(near_end.turn().is_some());
    let report = engine.search(&near_end, &no_time).unwrap();
    assert!(report.exact, "{report:?}");
    let exact = engine.search(&near_end, &Limits::exact()).unwrap();
    assert_eq!(report.score, exact.score);
}

/// Every move of an exact principal variation keeps the score: played out to its end (or to
/// where it stops, then solved afresh), it reaches the margin the solve found. A line taken
/// from a table entry that only bounds its position's score could leave it.
#[test]
fn exact_principal_variations_keep_their_score() {
    let mut rng = SplitMix(77);
    let mut checked = 0;
    while checked < 24 {
        let empties = 13 + rng.below(4) as u32;
        let Some(game) = random_game(
            Dimensions::STANDARD,
            RuleSet::Full,
            WinRule::MostDiscs,
            empties,
            &mut rng,
        ) else {
            continue;
        };
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 4,
            ..EngineConfig::default()
        });
        let report = engine.search(&game, &Limits::default()).unwrap();
        assert!(report.exact);
        let mover = game.turn().unwrap();
        let mut end = game.clone();
        for &square in &report.pv {
            end.play(square).unwrap();
        }
        let reached = match end.turn() {
            None => end.margin(mover),
            Some(next) => {
                let rest = Engine::new(EngineConfig::default())
                    .search(&end, &Limits::default())
                    .unwrap();
                if next == mover {
                    rest.score
                } else {
                    -rest.score
                }
            }
        };
        assert_eq!(
            reached,
            report.score,
            "{}\npv {:?}",
            game.board(),
            report.pv
        );
        checked += 1;
    }
}

/// From 18 empties a selective solve (Edax's `@87%`) reports before the exact one, which it
/// leaves the same score; a search without cut-offs solves exactly at once.
#[test]
fn a_selective_solve_reports_before_the_exact_one() {
    let mut rng = SplitMix(18);
    let game = random_game(
        Dimensions::STANDARD,
        RuleSet::Full,
        WinRule::MostDiscs,
        18,
        &mut rng,
    )
    .expect("a game in progress at 18 empties");
    let reports = |selective: bool| {
        let mut engine = Engine::new(EngineConfig::default());
        engine.set_selective(selective);
        let mut seen = Vec::new();
        let stop = AtomicBool::new(false);
        let last = engine
            .search_with(&game, &Limits::exact(), &stop, &mut |report| {
                seen.push((report.depth, report.exact, report.confidence));
            })
            .unwrap();
        (seen, last)
    };
    let (seen, last) = reports(true);
    let selective: Vec<_> = seen.iter().filter(|r| r.2.is_some()).collect();
    assert_eq!(selective, [&(18, false, Some(87))], "{seen:?}");
    assert_eq!(seen.last(), Some(&(18, true, None)), "{seen:?}");
    let (plain, exact) = reports(false);
    assert!(plain.iter().all(|r| r.2.is_none()), "{plain:?}");
    assert_eq!((last.score, last.exact), (exact.score, true));
}

/// A selective solve whose scores disagree from one window to the next (here it failed low,
/// then high, then low again without end, in a self-play game) widens its window until it
/// settles: the exact solve after it finishes in a few thousand nodes.
#[test]
fn an_unstable_selective_solve_still_ends() {
    let line = "OOOOOOOXOOOOOOOXOOOOOOOXOOOOOOOOOOXXXX--OO------XXXX------------ X";
    let game = othello_records::ffo::parse_line(line)
        .unwrap()
        .unwrap()
        .game();
    let limits = Limits {
        nodes: Some(50_000_000),
        ..Limits::exact()
    };
    let report = Engine::new(EngineConfig::default())
        .search(&game, &limits)
        .unwrap();
    assert!(report.exact, "stopped by the node budget: {report:?}");
    assert_eq!(report.score, -54);
    assert!(report.nodes < 1_000_000, "{} nodes", report.nodes);
}

/// A wipe-out is proven by the mover's own stable discs (the lower stability bound at the
/// sorted nodes): FFO #59 (+64 at 34 empties, an exact solve, which no limit allows that far
/// from the end) in a few hundred thousand nodes; without that bound it takes 300 M and more.
#[test]
fn a_wipe_out_is_proven_by_the_movers_stable_discs() {
    let game = ffo_position("59").game();
    let report = Engine::new(EngineConfig::default())
        .search(&game, &Limits::exact())
        .unwrap();
    assert!(report.exact, "{report:?}");
    assert_eq!(report.score, 64);
    assert!(report.nodes < 2_000_000, "{} nodes", report.nodes);
}
