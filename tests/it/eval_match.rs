//! The trained evaluation against the classic one: 200 games on 8x8 (100 openings, each played
//! with the colours both ways), both engines searching the same number of nodes per move.
//!
//! Slow in a debug build, so ignored by default; run it with
//! `cargo test --release --test it -- --ignored trained_against_classic --nocapture`.
//! It prints the wins, draws, losses and mean disc margin of the trained evaluation (DESIGN.md
//! quotes them) and fails unless the trained evaluation scores at least half the points.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use othello::{Color, Dimensions, Engine, EngineConfig, Evaluation, Game, Limits, RuleSet, Setup};

/// Openings; each is played twice.
const OPENINGS: u64 = 100;
/// Random moves of an opening.
const OPENING_MOVES: usize = 8;
/// Nodes per move for both sides.
const NODES: u64 = 300_000;

fn engine(evaluation: Evaluation) -> Engine {
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 16,
        threads: 1,
        seed: 0,
    });
    engine.set_evaluation(evaluation);
    engine
}

/// A random opening of [`OPENING_MOVES`] moves whose position the classic evaluation, at
/// depth 6, scores within 4 discs of even.
fn opening(index: u64, judge: &mut Engine) -> Game {
    let mut rng = ChaCha8Rng::seed_from_u64(index);
    loop {
        let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
        for _ in 0..OPENING_MOVES {
            let moves = game.legal_moves();
            if let Some(&square) = moves.choose(&mut rng) {
                game.play(square).expect("a legal move");
            }
        }
        if game.is_over() {
            continue;
        }
        let report = judge.search(&game, &Limits::depth(6)).expect("a move");
        if report.score.abs() <= 4 {
            return game;
        }
    }
}

/// The final margin of the trained side, playing `trained_color` from `game`.
fn play(mut game: Game, trained_color: Color, trained: &mut Engine, classic: &mut Engine) -> i32 {
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    while let Some(turn) = game.turn() {
        let engine = if turn == trained_color {
            &mut *trained
        } else {
            &mut *classic
        };
        let report = engine.search(&game, &limits).expect("a move");
        game.play(report.best_move).expect("a legal move");
    }
    game.margin(trained_color)
}

#[test]
#[ignore = "200 games: run in release with --ignored"]
fn trained_against_classic() {
    let (mut trained, mut classic) = (engine(Evaluation::Trained), engine(Evaluation::Classic));
    let mut judge = engine(Evaluation::Classic);
    let (mut wins, mut draws, mut losses, mut margin) = (0u32, 0u32, 0u32, 0i64);
    for index in 0..OPENINGS {
        let start = opening(index, &mut judge);
        for color in [Color::Black, Color::White] {
            let result = play(start.clone(), color, &mut trained, &mut classic);
            match result.signum() {
                1 => wins += 1,
                0 => draws += 1,
                _ => losses += 1,
            }
            margin += i64::from(result);
        }
    }
    let games = 2 * OPENINGS;
    let points = f64::from(wins) + f64::from(draws) / 2.0;
    println!(
        "trained against classic, {games} games at {NODES} nodes a move: {wins} won, {draws} drawn, {losses} lost ({:.1}% of the points), mean margin {:+.2} discs",
        100.0 * points / games as f64,
        margin as f64 / games as f64
    );
    assert!(points >= games as f64 / 2.0);
}
