//! The reference model against hand-counted facts, so that it can be trusted as a yardstick.

use othello::{Board, Color, Dimensions, RuleSet};

use crate::reference::Model;

#[test]
fn model_perft_matches_published_counts_at_small_depths() {
    let model = Model::from_board(&Board::standard(Dimensions::STANDARD));
    let counts: Vec<u64> = (1..=5)
        .map(|d| model.perft(RuleSet::Full, Color::Black, d))
        .collect();
    assert_eq!(counts, vec![4, 12, 56, 244, 1396]);
}

#[test]
fn model_standard_opening_moves() {
    let model = Model::from_board(&Board::standard(Dimensions::STANDARD));
    assert_eq!(
        model.moves(RuleSet::Full, Color::Black),
        vec![(2, 3), (3, 2), (4, 5), (5, 4)]
    );
    // SIMPLE: every empty cell touching a white disc.
    assert_eq!(model.moves(RuleSet::Simple, Color::Black).len(), 10);
}
