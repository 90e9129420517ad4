//! Throughput of the console protocol: a whole 16x16 game, played to the end with INVALID
//! lines mixed in (`fixtures/protocol/full/long-16x16.in`), through `othello::protocol::run`.
//!
//! `cargo bench --bench protocol` reports the time per game and, as throughput, input lines
//! per second ("elements"); the moves per second are printed once at the start.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use othello::RuleSet;
use othello::protocol;

fn long_game() -> (Vec<u8>, Vec<u8>) {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/protocol/full/long-16x16");
    let read = |ext| std::fs::read(base.with_extension(ext)).expect("the long-16x16 fixture");
    (read("in"), read("out"))
}

fn bench_protocol(c: &mut Criterion) {
    let (input, expected) = long_game();
    // The benchmark measures the real thing: the transcript must be the fixture's.
    let (out, end) = protocol::run(RuleSet::Full, &input);
    assert!(
        end.is_ok() && out.as_bytes() == expected,
        "long-16x16 transcript differs"
    );
    let moves = out.matches("VALID\nB:").count() as u64;
    let lines = protocol::lines(&input).count() as u64;
    println!(
        "long-16x16: {lines} input lines, {moves} moves, {} bytes out",
        out.len()
    );

    let mut group = c.benchmark_group("protocol");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("long-16x16 (moves)", |b| {
        b.iter(|| protocol::run(RuleSet::Full, black_box(&input)));
    });
    group.finish();
}

criterion_group!(benches, bench_protocol);
criterion_main!(benches);
