//! Fitting the error models of the probabilistic cut-offs ([`crate::probcut`]):
//! self-play positions are searched deeper and deeper without cut-offs, and the difference
//! between the value at each depth and the value at its shallow depth (the midgame's model), or
//! between the exact score and the value at each depth (the selective solver's), is modelled as
//! a normal error whose standard deviation is linear in the plies between the two searches and
//! the empty squares.

use std::sync::atomic::AtomicBool;

use super::Sample;
use super::data::SampleError;
use crate::Engine;
use crate::Limits;
use crate::probcut::{MIN_DEPTH, ProbCut, shallow_depth};

/// One deep search compared with its shallow search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Observation {
    /// Empty squares of the position.
    pub empties: u32,
    /// Depth of the deep search (the empty squares for an exact score).
    pub depth: u32,
    /// Depth of the shallow search.
    pub shallow: u32,
    /// The deep value minus the shallow value, in discs.
    pub error: i32,
}

/// The observations of one position: the values of an iterative deepening to `max_depth`
/// plies with `engine` (which this turns non-selective), each depth from
/// [`MIN_DEPTH`] on compared with its [`shallow_depth`].
///
/// # Errors
/// What is wrong with the sample ([`Sample::check`]).
pub fn observe(
    engine: &mut Engine,
    sample: &Sample,
    max_depth: u32,
) -> Result<Vec<Observation>, SampleError> {
    engine.set_selective(false);
    let mut values: Vec<Option<i32>> = vec![None; max_depth as usize + 1];
    let stop = AtomicBool::new(false);
    engine
        .search_with(
            &sample.game()?,
            &Limits::depth(max_depth),
            &stop,
            &mut |report| {
                if !report.exact && report.depth <= max_depth {
                    values[report.depth as usize] = Some(report.score);
                }
            },
        )
        .map_err(|_| SampleError::NoMove)?;
    Ok((MIN_DEPTH..=max_depth)
        .filter_map(|depth| {
            let deep = values[depth as usize]?;
            let shallow = values[shallow_depth(depth) as usize]?;
            Some(Observation {
                empties: sample.empties(),
                depth,
                shallow: shallow_depth(depth),
                error: deep - shallow,
            })
        })
        .collect())
}

/// The observations of one endgame position: its exact score (the sample's when it has one,
/// else solved by `engine`, which this turns non-selective) against the value of a midgame
/// search of each depth from 1 to `max_depth` (and at least 4 plies short of the end).
///
/// # Errors
/// What is wrong with the sample ([`Sample::check`]).
pub fn observe_endgame(
    engine: &mut Engine,
    sample: &Sample,
    max_depth: u32,
) -> Result<Vec<Observation>, SampleError> {
    engine.set_selective(false);
    let game = sample.game()?;
    let empties = sample.empties();
    let deepest = max_depth.min(empties.saturating_sub(4));
    let mut values: Vec<Option<i32>> = vec![None; deepest as usize + 1];
    let stop = AtomicBool::new(false);
    if deepest >= 1 {
        engine
            .search_with(&game, &Limits::depth(deepest), &stop, &mut |report| {
                if !report.exact && report.depth <= deepest {
                    values[report.depth as usize] = Some(report.score);
                }
            })
            .map_err(|_| SampleError::NoMove)?;
    }
    let exact = if sample.exact {
        i32::from(sample.score)
    } else {
        engine
            .search(&game, &Limits::exact())
            .map_err(|_| SampleError::NoMove)?
            .score
    };
    Ok((1..=deepest)
        .filter_map(|depth| {
            Some(Observation {
                empties,
                depth: empties,
                shallow: depth,
                error: exact - values[depth as usize]?,
            })
        })
        .collect())
}

/// The root mean square error of the observations at one pair of depths and a range of empty
/// squares.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Group {
    /// Depth of the deep search.
    pub depth: u32,
    /// Depth of the shallow search.
    pub shallow: u32,
    /// The lowest empty squares of the group.
    pub empties: u32,
    /// How many values of empty squares the group holds from `empties` on.
    pub width: u32,
    /// Observations in the group.
    pub count: usize,
    /// Their root mean square error, in discs.
    pub rms: f64,
}

/// Empty squares per group of the midgame's observations.
pub const GROUP_EMPTIES: u32 = 5;

/// Groups the observations by their two depths and by `width` values of empty squares.
#[must_use]
pub fn groups(observations: &[Observation], width: u32) -> Vec<Group> {
    let width = width.max(1);
    let mut sums: std::collections::BTreeMap<(u32, u32, u32), (usize, f64)> =
        std::collections::BTreeMap::new();
    for o in observations {
        let key = (o.depth, o.shallow, o.empties / width * width);
        let entry = sums.entry(key).or_default();
        entry.0 += 1;
        entry.1 += f64::from(o.error * o.error);
    }
    sums.into_iter()
        .map(|((depth, shallow, empties), (count, squares))| Group {
            depth,
            shallow,
            empties,
            width,
            count,
            rms: (squares / count as f64).sqrt(),
        })
        .collect()
}

/// The model fitted to the groups: least squares of their errors (weighted by their sizes)
/// on the plies between the two searches and the empty squares (the group's middle), in
/// hundredths of a disc; `None` when the groups cannot tell the three coefficients apart
/// (fewer than two gaps between the depths, or than two ranges of empties).
#[must_use]
pub fn fit(groups: &[Group]) -> Option<ProbCut> {
    // Normal equations of sigma = c0 + c1 * (depth - shallow depth) + c2 * empties.
    let mut a = [[0.0f64; 3]; 3];
    let mut b = [0.0f64; 3];
    for g in groups {
        let x = [
            1.0,
            f64::from(g.depth - g.shallow),
            f64::from(g.empties) + f64::from(g.width - 1) / 2.0,
        ];
        let w = g.count as f64;
        for i in 0..3 {
            for j in 0..3 {
                a[i][j] += w * x[i] * x[j];
            }
            b[i] += w * x[i] * 100.0 * g.rms;
        }
    }
    solve3(a, b).map(|coefficients| ProbCut { coefficients })
}

/// The solution of a 3x3 linear system by Gaussian elimination with partial pivoting, or
/// `None` if it is singular.
fn solve3(mut a: [[f64; 3]; 3], mut b: [f64; 3]) -> Option<[f64; 3]> {
    for col in 0..3 {
        let pivot = (col..3).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let pivot_row = a[col];
        for row in col + 1..3 {
            let factor = a[row][col] / pivot_row[col];
            for (value, pivot) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *value -= factor * pivot;
            }
            b[row] -= factor * b[col];
        }
    }
    let mut x = [0.0; 3];
    for row in (0..3).rev() {
        let rest: f64 = (row + 1..3).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::SelfPlay;

    #[test]
    fn a_linear_error_is_fitted_back() {
        let groups: Vec<Group> = (3..=10)
            .flat_map(|depth| {
                (4..12).map(move |g| {
                    let empties = g * GROUP_EMPTIES;
                    let middle = f64::from(empties) + 2.0;
                    let gap = f64::from(depth - shallow_depth(depth));
                    Group {
                        depth,
                        shallow: shallow_depth(depth),
                        empties,
                        width: GROUP_EMPTIES,
                        count: 10,
                        rms: (150.0 + 20.0 * gap + 3.0 * middle) / 100.0,
                    }
                })
            })
            .collect();
        let [c0, c1, c2] = fit(&groups).unwrap().coefficients;
        assert!(
            (c0 - 150.0).abs() < 1e-6 && (c1 - 20.0).abs() < 1e-6,
            "{c0} {c1}"
        );
        assert!((c2 - 3.0).abs() < 1e-6, "{c2}");
    }

    #[test]
    fn one_gap_between_the_depths_determines_no_model() {
        // Depths 3 and 4 are both 2 plies beyond their shallow searches.
        let groups: Vec<Group> = (3..=4)
            .flat_map(|depth| {
                [20, 40].map(|empties| Group {
                    depth,
                    shallow: shallow_depth(depth),
                    empties,
                    width: GROUP_EMPTIES,
                    count: 10,
                    rms: 2.0,
                })
            })
            .collect();
        assert_eq!(fit(&groups), None);
    }

    /// The position of a seeded self-play game at `empties` empty squares, and the engine that
    /// played it.
    fn self_play_sample(empties: u32) -> (Engine, Sample) {
        let mut engine = SelfPlay::engine();
        let game = SelfPlay::default().game(&mut engine, 4);
        let sample = *game
            .iter()
            .find(|s| s.empties() == empties)
            .expect("a position at that many empties");
        (engine, sample)
    }

    #[test]
    fn observations_compare_each_depth_with_its_shallow_depth() {
        let (mut engine, sample) = self_play_sample(40);
        let observations = observe(&mut engine, &sample, 5).unwrap();
        assert!(!engine.selective());
        let values: Vec<i32> = (0..=5)
            .map(|depth| {
                engine
                    .search(&sample.game().unwrap(), &Limits::depth(depth.max(1)))
                    .unwrap()
                    .score
            })
            .collect();
        let expected: Vec<Observation> = (3..=5)
            .map(|depth| Observation {
                empties: 40,
                depth,
                shallow: shallow_depth(depth),
                error: values[depth as usize] - values[shallow_depth(depth) as usize],
            })
            .collect();
        assert_eq!(observations, expected);
        let grouped = groups(&observations, GROUP_EMPTIES);
        assert_eq!(grouped.len(), 3);
        assert!(grouped.iter().all(|g| g.empties == 40 && g.count == 1));
    }

    #[test]
    fn endgame_observations_compare_the_exact_score_with_each_depth() {
        let (mut engine, sample) = self_play_sample(12);
        let position = sample.game().unwrap();
        // Deeper than the position allows: depths 1 to 8, 4 plies short of the end.
        let observations = observe_endgame(&mut engine, &sample, 10).unwrap();
        assert!(!engine.selective());
        let exact = engine.search(&position, &Limits::exact()).unwrap().score;
        let expected: Vec<Observation> = (1..=8)
            .map(|depth| Observation {
                empties: 12,
                depth: 12,
                shallow: depth,
                error: exact
                    - engine
                        .search(&position, &Limits::depth(depth))
                        .unwrap()
                        .score,
            })
            .collect();
        assert_eq!(observations, expected);
        // An exact sample keeps its score: a wrong one shows in every error.
        let mut wrong = sample;
        wrong.exact = true;
        wrong.score = i8::try_from(exact + 2).unwrap();
        let shifted = observe_endgame(&mut engine, &wrong, 3).unwrap();
        assert_eq!(
            shifted.iter().map(|o| o.error).collect::<Vec<_>>(),
            expected[..3]
                .iter()
                .map(|o| o.error + 2)
                .collect::<Vec<_>>()
        );
        let grouped = groups(&observations, 1);
        assert_eq!(grouped.len(), 8);
        assert!(
            grouped
                .iter()
                .all(|g| g.empties == 12 && g.width == 1 && g.count == 1)
        );
    }
}
