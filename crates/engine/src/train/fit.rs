//! The fit of the pattern weights to self-play samples: for each phase, gradient descent on
//! the squared error between the evaluation and the samples' scores, each weight's step scaled
//! by how often its configuration occurs; the configurations that a symmetry of their pattern
//! exchanges share one weight. Samples of whole games are held out (chosen by the seed) to
//! measure the error on positions the fit has not seen, and each phase keeps the weights of
//! the epoch where that error was lowest (early stopping). The result depends only on the
//! samples and the configuration.

use rayon::prelude::*;

use crate::patterns::{PHASES, PatternLayout, Weights, phase};
use crate::train::Sample;

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitConfig {
    /// Chooses the held-out games.
    pub seed: u64,
    /// Passes over the training samples.
    pub epochs: u32,
    /// Per mille of the games held out.
    pub holdout_per_mille: u32,
    /// A phase's table is also fitted to the positions up to this many empty squares outside
    /// the phase, so that neighbouring tables stay alike.
    pub overlap: u32,
    /// The step: 1 moves a weight by its configuration's mean error at once.
    pub rate: f32,
    /// Occurrences added to every configuration's count, so that rare ones move slowly.
    pub damping: f32,
}

impl Default for FitConfig {
    /// Seed 1, 300 epochs, 10% held out, overlap 3, rate 0.01, damping 10.
    fn default() -> FitConfig {
        FitConfig {
            seed: 1,
            epochs: 300,
            holdout_per_mille: 100,
            overlap: 3,
            rate: 0.01,
            damping: 10.0,
        }
    }
}

/// The mean absolute error of one phase, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhaseError {
    /// The phase.
    pub phase: usize,
    /// Training samples (with those of the overlap).
    pub training: usize,
    /// Held-out samples.
    pub held_out: usize,
    /// On the training samples.
    pub training_error: f64,
    /// On the held-out samples of the phase (0 when there are none).
    pub held_out_error: f64,
}

/// The samples of one phase, as weight indexes.
struct PhaseData {
    training: Vec<u32>,
    training_targets: Vec<f32>,
    held_out: Vec<u32>,
    held_out_targets: Vec<f32>,
    /// Training occurrences of each (canonical) weight.
    counts: Vec<f32>,
    weights: Vec<f32>,
    /// The weights of the epoch with the lowest held-out error so far, and that error.
    best: Vec<f32>,
    best_error: f64,
}

/// Whether a game is held out.
fn held_out(seed: u64, game: u64, per_mille: u32) -> bool {
    let mut x = seed ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    x % 1000 < u64::from(per_mille)
}

/// Fits the weights to `samples` (whole games, in order: a game starts at a sample marked
/// `first`), calling `on_epoch` with the epoch and each phase's errors every `report_every`
/// epochs and after the last.
#[must_use]
pub fn fit(
    samples: &[Sample],
    config: &FitConfig,
    report_every: u32,
    on_epoch: &mut dyn FnMut(u32, &[PhaseError]),
) -> (Weights, Vec<PhaseError>) {
    let layout = PatternLayout::new();
    let features = layout.instances.len() + 2;
    let mut phases: Vec<PhaseData> = (0..PHASES)
        .map(|_| PhaseData {
            training: Vec::new(),
            training_targets: Vec::new(),
            held_out: Vec::new(),
            held_out_targets: Vec::new(),
            counts: vec![0.0; layout.stride],
            weights: vec![0.0; layout.stride],
            best: vec![0.0; layout.stride],
            best_error: f64::INFINITY,
        })
        .collect();
    let mut game = 0u64;
    for (i, sample) in samples.iter().enumerate() {
        if sample.first && i > 0 {
            game += 1;
        }
        let empties = sample.empties();
        let indexes: Vec<u32> = layout
            .indexes(sample.me, sample.opp)
            .iter()
            .map(|&index| layout.canonical[index as usize])
            .collect();
        let target = f32::from(sample.score);
        if held_out(config.seed, game, config.holdout_per_mille) {
            let data = &mut phases[phase(empties)];
            data.held_out.extend_from_slice(&indexes);
            data.held_out_targets.push(target);
            continue;
        }
        for (p, data) in phases.iter_mut().enumerate() {
            let low = (6 * p as u32).saturating_sub(config.overlap);
            let high = if p == PHASES - 1 {
                64
            } else {
                6 * p as u32 + 5 + config.overlap
            };
            if (low..=high).contains(&empties) {
                data.training.extend_from_slice(&indexes);
                data.training_targets.push(target);
                for &index in &indexes {
                    data.counts[index as usize] += 1.0;
                }
            }
        }
    }
    let constant = layout.stride - 1;
    let mut errors = Vec::new();
    for epoch in 1..=config.epochs {
        errors = phases
            .par_iter_mut()
            .enumerate()
            .map(|(p, data)| step(p, data, features, constant, config))
            .collect();
        if epoch % report_every.max(1) == 0 || epoch == config.epochs {
            on_epoch(epoch, &errors);
        }
    }
    let mut values = Vec::with_capacity(PHASES * layout.stride);
    for data in &phases {
        let weights = if data.held_out_targets.is_empty() {
            &data.weights
        } else {
            &data.best
        };
        for &canonical in &layout.canonical {
            let hundredths = (weights[canonical as usize] * 100.0).round();
            values.push(hundredths.clamp(-32000.0, 32000.0) as i16);
        }
    }
    (Weights::new(layout, values), errors)
}

/// One pass of gradient descent over a phase's training samples; the errors before it.
fn step(
    p: usize,
    data: &mut PhaseData,
    features: usize,
    constant: usize,
    config: &FitConfig,
) -> PhaseError {
    let predict = |weights: &[f32], indexes: &[u32]| {
        weights[constant] + indexes.iter().map(|&i| weights[i as usize]).sum::<f32>()
    };
    let mut gradient = vec![0.0f32; data.weights.len()];
    let mut training_error = 0.0f64;
    for (indexes, &target) in data
        .training
        .chunks_exact(features)
        .zip(&data.training_targets)
    {
        let error = target - predict(&data.weights, indexes);
        training_error += f64::from(error.abs());
        for &index in indexes {
            gradient[index as usize] += error;
        }
        gradient[constant] += error;
    }
    let training = data.training_targets.len();
    let mut held_out_error = 0.0f64;
    for (indexes, &target) in data
        .held_out
        .chunks_exact(features)
        .zip(&data.held_out_targets)
    {
        held_out_error += f64::from((target - predict(&data.weights, indexes)).abs());
    }
    let held_out = data.held_out_targets.len();
    let held_out_error = held_out_error / held_out.max(1) as f64;
    if held_out > 0 && held_out_error < data.best_error {
        data.best_error = held_out_error;
        data.best.copy_from_slice(&data.weights);
    }
    for (index, weight) in data.weights.iter_mut().enumerate() {
        if index == constant {
            *weight += config.rate * gradient[index] / (training.max(1) as f32);
        } else if data.counts[index] > 0.0 {
            *weight += config.rate * gradient[index] / (data.counts[index] + config.damping);
        }
    }
    PhaseError {
        phase: p,
        training,
        held_out,
        training_error: training_error / training.max(1) as f64,
        held_out_error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::SelfPlay;

    fn data() -> Vec<Sample> {
        let config = SelfPlay {
            solve_empties: 8,
            depth: 1,
            ..SelfPlay::default()
        };
        let mut engine = SelfPlay::engine();
        (0..24).flat_map(|i| config.game(&mut engine, i)).collect()
    }

    #[test]
    fn the_fit_lowers_the_error_and_depends_on_the_seed_only() {
        let samples = data();
        let config = FitConfig {
            epochs: 40,
            rate: 0.05,
            ..FitConfig::default()
        };
        let mut first_errors = Vec::new();
        let (weights, errors) = fit(&samples, &config, 1, &mut |epoch, errors| {
            if epoch == 1 {
                first_errors = errors.to_vec();
            }
        });
        let total = |errors: &[PhaseError]| errors.iter().map(|e| e.training_error).sum::<f64>();
        assert!(total(&errors) < 0.5 * total(&first_errors));
        let (again, _) = fit(&samples, &config, 10, &mut |_, _| {});
        assert_eq!(weights.values(), again.values());
        let other = FitConfig { seed: 2, ..config };
        let (different, _) = fit(&samples, &other, 10, &mut |_, _| {});
        assert_ne!(weights.values(), different.values());
    }
}
