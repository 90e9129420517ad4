//! The searches' node-for-node tests: both compiled copies, and the board-specific solvers of
//! the last empties against the generic code.

use super::*;
use othello::bitboard::U256;
use othello::cpu::{Portable, X86_64V3};
use std::sync::atomic::{AtomicBool, AtomicU64};

use crate::bounds::Window;
use crate::shape::Scoring;
use othello::Dimensions;
use othello::RuleSet;
use othello::WinRule;
use othello::{Full, Simple};

/// Positions `empties` away from the end, reached by pseudo-random games from the start.
fn positions<B: SearchBits, R: Rules>(
    shape: &Shape<B>,
    empties: u32,
    count: usize,
) -> Vec<Position<B>> {
    let geo = &shape.geo;
    let (rows, cols) = (geo.dims().rows() as u32, geo.dims().cols() as u32);
    let at = |r: u32, c: u32| B::single(r * cols + c);
    let (r, c) = (rows / 2 - 1, cols / 2 - 1);
    let start = Position {
        me: at(r, c + 1) | at(r + 1, c),
        opp: at(r, c) | at(r + 1, c + 1),
    };
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut found = Vec::new();
    while found.len() < count {
        let mut pos = start;
        while pos.empties(geo).count() > empties {
            let mut moves = pos.moves::<R>(geo);
            if moves.is_empty() {
                pos = pos.passed();
                moves = pos.moves::<R>(geo);
                if moves.is_empty() {
                    break;
                }
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let index = moves.members().nth(state as usize % moves.count() as usize);
            let index = index.expect("a legal move");
            pos = pos.play::<R>(geo, B::single(index));
        }
        if pos.empties(geo).count() == empties {
            found.push(pos);
        }
    }
    found
}

/// What `run` returns from a searcher with processor `cpu`, no limits and fresh tables, and
/// the nodes it visited.
fn with_searcher<B: SearchBits, R: Rules, C: Cpu, T>(
    shape: &Shape<B>,
    cpu: C,
    run: impl FnOnce(&mut Searcher<'_, B, R, C>) -> T,
) -> (T, u64) {
    with_small_table(shape, cpu, SMALL_TABLE_KIB, run)
}

/// [`with_searcher`] with a small table of `small_kib` KiB.
fn with_small_table<B: SearchBits, R: Rules, C: Cpu, T>(
    shape: &Shape<B>,
    cpu: C,
    small_kib: usize,
    run: impl FnOnce(&mut Searcher<'_, B, R, C>) -> T,
) -> (T, u64) {
    let stop = AtomicBool::new(false);
    let budget = Budget {
        stops: [&stop, &stop],
        deadline: None,
        max_nodes: None,
        visited: &AtomicU64::new(0),
    };
    let table = TranspositionTable::new(1);
    let small_table = TranspositionTable::try_new_kib(small_kib).expect("a small table");
    let mut searcher = Searcher::<B, R, C>::new(shape, &table, &small_table, budget, 7, cpu);
    let result = run(&mut searcher);
    (result, searcher.nodes)
}

/// The solve and then a midgame search of `position` on a fresh table with processor
/// `cpu`: both scores and the nodes visited.
fn search_with<B: SearchBits, R: Rules, C: Cpu>(
    shape: &Shape<B>,
    cpu: C,
    position: Position<B>,
    depth: u32,
) -> (i32, i32, u64) {
    let ((solved, guess), nodes) = with_searcher::<B, R, C, _>(shape, cpu, |searcher| {
        let solved = searcher.solve_child(position, Window::FULL);
        (
            solved,
            searcher.midgame_child(position, Window::FULL, depth + 1),
        )
    });
    (solved, guess, nodes)
}

/// Both compiled copies give the same scores after visiting the same nodes.
fn copies_agree<B: SearchBits, R: Rules>(rows: usize, cols: usize, empties: u32, depth: u32) {
    let Some(v3) = X86_64V3::detect() else {
        return;
    };
    let dims = Dimensions::new(rows, cols).unwrap();
    let shape = Shape::<B>::new(
        dims,
        R::RULE_SET,
        WinRule::MostDiscs,
        Scoring::EmptiesToWinner,
        &crate::Evaluation::Trained,
        true,
    );
    for position in positions::<B, R>(&shape, empties, 6) {
        let portable = search_with::<B, R, _>(&shape, Portable, position, depth);
        let x86_64_v3 = search_with::<B, R, _>(&shape, v3, position, depth);
        assert!(portable.2 > 0);
        assert_eq!(portable, x86_64_v3);
    }
}

/// The 8x8 solver of the last empties (`leaves.rs`, on `u64`) visits the same nodes to the
/// same scores as the generic code on the same board and width, under both win rules and both
/// scorings, with full, narrow and null windows: at every number of empties it takes, and
/// above, where the sorting solver hands it its children (stability cut-offs included: both
/// take the 8x8 board's stable discs from the edge table).
#[test]
fn the_8x8_leaves_search_as_the_generic_code() {
    let dims = Dimensions::STANDARD;
    for win in [WinRule::MostDiscs, WinRule::FewestDiscs] {
        for scoring in [Scoring::DiscsOnly, Scoring::EmptiesToWinner] {
            let classic = crate::Evaluation::Classic;
            let shape = Shape::<u64>::new(dims, RuleSet::Full, win, scoring, &classic, false);
            assert_eq!(Finisher::for_board::<u64, Full>(&shape), Finisher::Standard);
            for empties in 0..=9 {
                let count = if (3..=7).contains(&empties) { 32 } else { 8 };
                for pos in positions::<u64, Full>(&shape, empties, count) {
                    let windows = [
                        Window::FULL,
                        Window { alpha: -2, beta: 4 },
                        Window { alpha: 5, beta: 6 },
                        Window {
                            alpha: -13,
                            beta: -12,
                        },
                    ];
                    for window in windows {
                        let leaves = solve_with(&shape, pos, window, Finisher::Standard);
                        let generic = solve_with(&shape, pos, window, Finisher::Generic);
                        assert!(leaves.1 > 0);
                        assert_eq!(leaves, generic, "{pos:?} {window:?} {win:?} {scoring:?}");
                    }
                }
            }
        }
    }
}

/// The exact score of `position` in `window` on a fresh table, with the solver of the last
/// empties `finisher`, and the nodes visited.
fn solve_with(
    shape: &Shape<u64>,
    position: Position<u64>,
    window: Window,
    finisher: Finisher,
) -> (i32, u64) {
    with_searcher::<u64, Full, _, _>(shape, Portable, |searcher| {
        searcher.finisher = finisher;
        searcher.solve_child(position, window)
    })
}

#[test]
fn portable_and_x86_64_v3_searches_agree() {
    copies_agree::<u64, Full>(8, 8, 14, 5);
    copies_agree::<u64, Simple>(8, 8, 12, 4);
    copies_agree::<u128, Full>(10, 10, 12, 4);
    copies_agree::<U256, Full>(12, 12, 10, 3);
}

/// The solver's small table (positions of 7 and 8 empties) changes no score and saves nodes:
/// with one of a single KiB, which keeps almost nothing, the same positions take more.
#[test]
fn the_small_table_saves_nodes_and_changes_no_score() {
    let classic = crate::Evaluation::Classic;
    let scoring = Scoring::DiscsOnly;
    let shape = Shape::<u64>::new(
        Dimensions::STANDARD,
        RuleSet::Full,
        WinRule::MostDiscs,
        scoring,
        &classic,
        false,
    );
    let solve = |position, small_kib| {
        with_small_table::<u64, Full, _, _>(&shape, Portable, small_kib, |searcher| {
            searcher.solve_child(position, Window::FULL)
        })
    };
    let (mut with, mut without) = (0, 0);
    for position in positions::<u64, Full>(&shape, 13, 8) {
        let (score, nodes) = solve(position, SMALL_TABLE_KIB);
        let (tiny_score, tiny_nodes) = solve(position, 1);
        assert_eq!(score, tiny_score, "{position:?}");
        (with, without) = (with + nodes, without + tiny_nodes);
    }
    assert!(
        with < without,
        "{with} nodes with the small table, {without} without"
    );
}
