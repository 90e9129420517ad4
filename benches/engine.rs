//! Search speed on small, fixed workloads, and the speed of the static evaluation.
//!
//! `cargo bench --bench engine` (`-- evaluation` for the evaluation alone). The full FFO #40-#49 benchmark takes minutes and is run by
//! `othello solve --bench` instead (see docs/solve.md).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

use othello::{Color, Dimensions, Game, RuleSet, Setup, Square};
use othello_engine::{Engine, EngineConfig, Limits, Scoring};
use othello_engine::{Evaluation, evaluate_standard};

/// FFO #40 (20 empties) after the first `plies` moves of its principal variation.
fn ffo_40_after(plies: usize) -> Game {
    let data = include_str!("../fixtures/ffo/ffo-40-59.txt");
    let line = data.lines().find(|line| line.starts_with("40 ")).unwrap();
    let mut game = othello_records::ffo::parse_line(line)
        .unwrap()
        .unwrap()
        .game();
    // a2 b1 c1 b6: the start of the principal variation.
    for &(row, col) in [(1, 0), (0, 1), (0, 2), (5, 1)].iter().take(plies) {
        game.play(Square::new(row, col)).unwrap();
    }
    game
}

fn engine(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    let endgame = ffo_40_after(4);
    group.bench_function("solve FFO #40 after 4 moves (16 empties)", |b| {
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 16,
            ..EngineConfig::default()
        });
        engine.set_scoring(Scoring::EmptiesToWinner);
        b.iter(|| {
            engine
                .search(black_box(&endgame), &Limits::default())
                .unwrap()
        });
    });
    let start = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    group.bench_function("8x8 start, depth 8", |b| {
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 16,
            ..EngineConfig::default()
        });
        b.iter(|| engine.search(black_box(&start), &Limits::depth(8)).unwrap());
    });
    let big = Game::new(
        Setup::standard(Dimensions::new(16, 16).unwrap()),
        RuleSet::Full,
    );
    group.bench_function("16x16 start, depth 4", |b| {
        let mut engine = Engine::new(EngineConfig {
            hash_mb: 16,
            ..EngineConfig::default()
        });
        b.iter(|| engine.search(black_box(&big), &Limits::depth(4)).unwrap());
    });
    group.finish();
}

/// The positions of 16 pseudo-random 8x8 games, every ply, as (mover's discs, opponent's
/// discs).
fn random_positions() -> Vec<(u64, u64)> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut positions = Vec::new();
    for _ in 0..16 {
        let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
        while let Some(mover) = game.turn() {
            let discs = |color: Color| {
                (0..64).fold(0u64, |set, cell| {
                    let square = Square::new(cell / 8, cell % 8);
                    if game.board().get(square) == Ok(Some(color)) {
                        set | 1 << cell
                    } else {
                        set
                    }
                })
            };
            positions.push((discs(mover), discs(mover.opponent())));
            let moves = game.legal_moves();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let pick = (state >> 33) as usize % moves.len();
            game.play(moves[pick]).unwrap();
        }
    }
    positions
}

/// The static evaluation alone, in positions per second (criterion's throughput).
fn evaluation(c: &mut Criterion) {
    let positions = random_positions();
    let mut group = c.benchmark_group("evaluation");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for (name, evaluation) in [
        ("trained", Evaluation::Trained),
        ("classic", Evaluation::Classic),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|&(me, opp)| evaluate_standard(&evaluation, black_box(me), opp))
                    .fold(0i64, |sum, score| sum + i64::from(score))
            });
        });
    }
    group.finish();
}

criterion_group!(benches, engine, evaluation);
criterion_main!(benches);
