//! Search speed on small, fixed workloads.
//!
//! `cargo bench --bench engine`. The full FFO #40-#49 benchmark takes minutes and is run by
//! `othello solve --bench` instead (see DESIGN.md).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use othello::{Dimensions, Engine, EngineConfig, Game, Limits, RuleSet, Scoring, Setup, Square};

/// FFO #40 (20 empties) after the first `plies` moves of its principal variation.
fn ffo_40_after(plies: usize) -> Game {
    let data = include_str!("../fixtures/ffo/ffo-40-59.txt");
    let line = data.lines().find(|line| line.starts_with("40 ")).unwrap();
    let mut game = othello::ffo::parse_line(line).unwrap().unwrap().game();
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

criterion_group!(benches, engine);
criterion_main!(benches);
