//! The patterns' tests: the compiled-in weights, the file format, the evaluation against its
//! cell-by-cell reference, the features kept move by move.

use super::*;
use othello::Dimensions;
use othello::bitboard::Geometry;
use othello::cpu::Portable;
use othello::{Full, Rules};

const STRIDE: usize = 285_430;

/// One of the cells of `moves` (not empty), picked by the xorshift generator `state`.
fn random_move(state: &mut u64, moves: u64) -> u32 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    let pick = (*state % u64::from(moves.count_ones())) as usize;
    (0..64)
        .filter(|c| moves >> c & 1 == 1)
        .nth(pick)
        .expect("a move")
}

/// Positions of pseudo-random games, a few at every number of empties.
pub(crate) fn positions() -> Vec<(u64, u64)> {
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut found = Vec::new();
    let geo = Geometry::<u64>::new(Dimensions::STANDARD).expect("8x8 fits");
    for _ in 0..12 {
        let (mut me, mut opp) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
        loop {
            let mut moves = Full::legal_moves(&geo, me, opp);
            if moves == 0 {
                (me, opp) = (opp, me);
                moves = Full::legal_moves(&geo, me, opp);
                if moves == 0 {
                    break;
                }
            }
            found.push((me, opp));
            let cell = random_move(&mut state, moves);
            let flipped = Full::flips_at_empty(&geo, me, opp, 1 << cell);
            (me, opp) = (opp & !flipped, me | flipped | 1 << cell);
        }
    }
    found
}

#[test]
fn the_compiled_in_weights_load_with_their_size_and_checksum() {
    let weights = Weights::from_bytes(TRAINED).unwrap();
    assert_eq!(weights.values().len(), PHASES * STRIDE);
    assert_eq!(weights.layout().instances.len(), 54);
    assert_eq!(weights.layout().stride, 167_265 + 2 * 59_049 + 2 * 33 + 1);
    assert_eq!(checksum(TRAINED), TRAINED_CHECKSUM);
    assert!(weights.values().iter().any(|&w| w != 0));
    assert_eq!(
        Weights::from_bytes(&weights.to_bytes()).unwrap().values(),
        weights.values()
    );
}

#[test]
fn a_damaged_weights_file_is_a_clear_error() {
    let mut flipped = TRAINED.to_vec();
    flipped[100] ^= 1;
    let error = Weights::from_bytes(&flipped).unwrap_err();
    assert!(matches!(error, WeightsError::Checksum { .. }));
    assert!(
        error
            .to_string()
            .starts_with("the weights file is corrupted")
    );
    assert!(Weights::from_bytes(&TRAINED[..TRAINED.len() / 2]).is_err());
    assert_eq!(
        Weights::from_bytes(b"PK\x03\x04").unwrap_err().to_string(),
        "not an othello weights file (starts with \"PK\\x03\\x04\")"
    );
    // The largest file: every weight a lone zero (4 bytes) or a value (2), alternating.
    let layout = PatternLayout::new();
    assert!(16 + 3 * PHASES * layout.stride + 8 <= MAX_FILE_BYTES);
    let mut long = TRAINED.to_vec();
    long.resize(MAX_FILE_BYTES + 1, 0);
    assert_eq!(
        Weights::from_bytes(&long).unwrap_err(),
        WeightsError::TooLarge
    );
    // A well-formed file of the wrong size, and one with too few weights.
    let with_checksum = |mut bytes: Vec<u8>| {
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    };
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(&(PHASES as u32).to_le_bytes());
    header.extend_from_slice(&7u32.to_le_bytes());
    assert_eq!(
        Weights::from_bytes(&with_checksum(header)).unwrap_err(),
        WeightsError::Size {
            found: 7,
            expected: STRIDE
        }
    );
    let mut header = MAGIC.to_vec();
    header.extend_from_slice(&(PHASES as u32).to_le_bytes());
    header.extend_from_slice(&(STRIDE as u32).to_le_bytes());
    header.extend_from_slice(&5i16.to_le_bytes());
    assert_eq!(
        Weights::from_bytes(&with_checksum(header)).unwrap_err(),
        WeightsError::Malformed("fewer weights than the tables hold")
    );
}

#[test]
fn the_evaluation_equals_the_cell_by_cell_reference_and_its_symmetric_images() {
    let weights = &*WEIGHTS;
    let positions = positions();
    let mut empties_seen = [false; 61];
    for &(me, opp) in &positions {
        empties_seen[64 - (me | opp).count_ones() as usize] = true;
        let geo = Geometry::<u64>::new(Dimensions::STANDARD).unwrap();
        let my_moves = Full::legal_moves(&geo, me, opp).count_ones();
        let their_moves = Full::legal_moves(&geo, opp, me).count_ones();
        let fast = weights.evaluate(Portable, me, opp, my_moves, their_moves);
        assert_eq!(fast, weights.evaluate_slowly(me, opp));
        #[cfg(target_arch = "x86_64")]
        if let Some(v3) = othello::cpu::X86_64V3::detect() {
            assert_eq!(weights.evaluate(v3, me, opp, my_moves, their_moves), fast);
        }
        for symmetry in 1..8 {
            let (me_image, opp_image) = (symmetric_set(symmetry, me), symmetric_set(symmetry, opp));
            assert_eq!(
                weights.evaluate_slowly(me_image, opp_image),
                fast,
                "symmetry {symmetry}"
            );
        }
    }
    assert!(empties_seen[1..=59].iter().all(|&seen| seen));
}

#[test]
fn features_kept_move_by_move_equal_those_read_from_the_board() {
    let weights = &*WEIGHTS;
    let geo = Geometry::<u64>::new(Dimensions::STANDARD).unwrap();
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let (mut moves_checked, mut passes) = (0, 0);
    for _ in 0..20 {
        let (mut me, mut opp) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
        let mut features = weights.features(Portable, me, opp);
        loop {
            assert_eq!(features, weights.features(Portable, me, opp));
            let my_moves = Full::legal_moves(&geo, me, opp).count_ones();
            let their_moves = Full::legal_moves(&geo, opp, me).count_ones();
            let empties = 64 - (me | opp).count_ones();
            let expected = weights.evaluate(Portable, me, opp, my_moves, their_moves);
            assert_eq!(
                weights.evaluate_features(Portable, &features, empties, my_moves, their_moves),
                expected
            );
            #[cfg(target_arch = "x86_64")]
            if let Some(v3) = othello::cpu::X86_64V3::detect() {
                let gathered =
                    weights.evaluate_features(v3, &features, empties, my_moves, their_moves);
                assert_eq!(gathered, expected);
            }
            let moves = Full::legal_moves(&geo, me, opp);
            if moves == 0 {
                if their_moves == 0 {
                    break;
                }
                (me, opp, features) = (opp, me, features.passed());
                passes += 1;
                continue;
            }
            let cell = random_move(&mut state, moves);
            let flipped = Full::flips_at_empty(&geo, me, opp, 1 << cell);
            features = weights.features_after(&features, cell, flipped);
            (me, opp) = (opp & !flipped, me | flipped | 1 << cell);
            moves_checked += 1;
        }
    }
    assert!(
        moves_checked > 1000 && passes > 0,
        "{moves_checked} moves, {passes} passes"
    );
}

#[test]
fn every_class_covers_its_images_once() {
    let layout = PatternLayout::new();
    let per_class: Vec<usize> = (0..CLASSES.len())
        .map(|class| layout.instances.iter().filter(|i| i.class == class).count())
        .collect();
    assert_eq!(per_class, [4, 4, 4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
    let canonical = layout.canonical();
    assert_eq!(canonical.len(), layout.stride);
    for (index, &shared) in canonical.iter().enumerate() {
        assert!(shared as usize <= index);
        assert_eq!(canonical[shared as usize], shared);
    }
    // One weight per configuration up to the pattern's own symmetry: by Burnside's lemma
    // (3^n + 3^fixed) / 2 for the classes a diagonal or a mirror maps onto themselves.
    let ends = layout.offsets.iter().skip(1).chain([&layout.mobility]);
    let weights: Vec<usize> = layout
        .offsets
        .iter()
        .zip(ends)
        .map(|(&start, &end)| {
            let mut shared = canonical[start..end].to_vec();
            shared.sort_unstable();
            shared.dedup();
            shared.len()
        })
        .collect();
    assert_eq!(
        weights,
        [
            29889, 29646, 10206, 59049, 29646, 3321, 3321, 3321, 3321, 1134, 378, 135, 45
        ]
    );
}
