//! Move generation and perft speed.
//!
//! `cargo bench --bench perft`; the move generator is measured on every position 4 plies deep
//! from the standard start of an 8x8 (`u64`), 10x10 (`u128`) and 16x16 (`U256`) board.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

use othello::bitboard::{Bits, Geometry, U256};
use othello::perft;
use othello::{Board, Color, Dimensions, Full, RuleSet, Rules, Setup};

/// A position: the mover's discs and the opponent's.
#[derive(Clone, Copy)]
struct Position<B> {
    me: B,
    opp: B,
}

/// Every position `depth` plies below `pos` (passes included, finished games left out).
fn positions<B: Bits>(geo: &Geometry<B>, pos: Position<B>, depth: u32, out: &mut Vec<Position<B>>) {
    out.push(pos);
    if depth == 0 {
        return;
    }
    let passed = Position {
        me: pos.opp,
        opp: pos.me,
    };
    let moves = Full::legal_moves(geo, pos.me, pos.opp);
    if moves.is_empty() {
        if !Full::legal_moves(geo, passed.me, passed.opp).is_empty() {
            positions(geo, passed, depth - 1, out);
        }
        return;
    }
    for index in moves.members() {
        let mv = B::single(index);
        let flipped = Full::flips_at_empty(geo, pos.me, pos.opp, mv);
        let child = Position {
            me: pos.opp & !flipped,
            opp: pos.me | mv | flipped,
        };
        positions(geo, child, depth - 1, out);
    }
}

fn movegen_at<B: Bits>(c: &mut Criterion, rows: usize, cols: usize) {
    let dims = Dimensions::new(rows, cols).unwrap();
    let geo = Geometry::<B>::new(dims).unwrap();
    let board = Board::standard(dims);
    let start = Position {
        me: B::from_wide(board.discs(Color::Black)),
        opp: B::from_wide(board.discs(Color::White)),
    };
    let mut all = Vec::new();
    positions(&geo, start, 4, &mut all);
    let moves: Vec<(Position<B>, B)> = all
        .iter()
        .flat_map(|&pos| {
            Full::legal_moves(&geo, pos.me, pos.opp)
                .members()
                .map(move |index| (pos, B::single(index)))
        })
        .collect();
    let size = format!("{rows}x{cols}");

    let mut group = c.benchmark_group("legal_moves");
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(&size), |b| {
        b.iter(|| {
            let mut found = 0;
            for pos in black_box(&all) {
                found += Full::legal_moves(&geo, pos.me, pos.opp).count();
            }
            found
        });
    });
    group.finish();

    let mut group = c.benchmark_group("flips");
    group.throughput(Throughput::Elements(moves.len() as u64));
    group.bench_function(BenchmarkId::from_parameter(&size), |b| {
        b.iter(|| {
            let mut flipped = 0;
            for &(pos, mv) in black_box(&moves) {
                flipped += Full::flips_at_empty(&geo, pos.me, pos.opp, mv).count();
            }
            flipped
        });
    });
    group.finish();
}

fn movegen(c: &mut Criterion) {
    movegen_at::<u64>(c, 8, 8);
    movegen_at::<u128>(c, 10, 10);
    movegen_at::<U256>(c, 16, 16);
}

fn perft_standard(c: &mut Criterion) {
    let setup = Setup::standard(Dimensions::STANDARD);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (depth, leaves) in [(9, 3_005_288), (11, 212_258_800)] {
        assert_eq!(perft::count(&setup, RuleSet::Full, depth), leaves);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(BenchmarkId::new("8x8", depth), |b| {
            b.iter(|| perft::count(black_box(&setup), RuleSet::Full, depth));
        });
    }
    group.finish();
}

criterion_group!(benches, movegen, perft_standard);
criterion_main!(benches);
