//! Running every case of every program on `--jobs` workers, fairly: each worker takes the next
//! case of the program that has had the least time so far (its finished cases plus the time
//! its running ones have taken until now), so a program that hangs on every case gets one
//! worker for one timeout and then waits its turn while the others run, and never starves them.
//! With one program this is the cases in order, as before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use othello_contain::Containment;

use super::CheckError;
use super::cases::CaseFiles;
use super::judging::{Program, check_case, not_started};
use super::running::Limits;
use crate::GradeError;
use crate::report::CaseOutcome;

/// What to run: every case of `cases` for every one of `programs`.
pub(super) struct Plan<'a> {
    pub programs: &'a [Program],
    pub cases: &'a [CaseFiles],
    pub limits: Limits,
    pub containment: &'a Containment,
    pub jobs: usize,
    /// Whether a program that cannot be started is a crash of its own cases (`--each`) rather
    /// than the end of the run.
    pub tolerate_spawn_errors: bool,
}

/// Who runs next: per program, the next case and the time taken so far.
struct Fairness {
    next: Vec<usize>,
    spent: Vec<Duration>,
    running: Vec<Vec<Instant>>,
    cases: usize,
}

impl Fairness {
    fn new(programs: usize, cases: usize) -> Fairness {
        Fairness {
            next: vec![0; programs],
            spent: vec![Duration::ZERO; programs],
            running: vec![Vec::new(); programs],
            cases,
        }
    }

    /// The next (program, case) to run, and its start time; `None` when all have started.
    fn take(&mut self) -> Option<(usize, usize, Instant)> {
        let now = Instant::now();
        let program = (0..self.next.len())
            .filter(|&program| self.next[program] < self.cases)
            .min_by_key(|&program| {
                self.spent[program]
                    + self.running[program]
                        .iter()
                        .map(|&start| now - start)
                        .sum::<Duration>()
            })?;
        let case = self.next[program];
        self.next[program] += 1;
        self.running[program].push(now);
        Some((program, case, now))
    }

    fn finish(&mut self, program: usize, started: Instant) {
        let running = &mut self.running[program];
        if let Some(at) = running.iter().position(|&start| start == started) {
            running.swap_remove(at);
        }
        self.spent[program] += started.elapsed();
    }
}

/// Runs the plan, handing each outcome to `deliver` on the calling thread as it arrives (any
/// order). Stops at the first error, from a case or from `deliver`.
pub(super) fn run_plan(
    plan: &Plan<'_>,
    mut deliver: impl FnMut(usize, usize, CaseOutcome) -> Result<(), GradeError>,
) -> Result<(), GradeError> {
    let total = plan.programs.len() * plan.cases.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(plan.jobs.min(total))
        .thread_name(|index| format!("case runner {index}"))
        .build()
        .map_err(|error| CheckError::Threads(std::io::Error::other(error)))?;
    let fairness = Mutex::new(Fairness::new(plan.programs.len(), plan.cases.len()));
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    let mut error = None;
    pool.in_place_scope(|scope| {
        for _ in 0..pool.current_num_threads() {
            let sender = sender.clone();
            let (fairness, stop) = (&fairness, &stop);
            scope.spawn(move |_| {
                while !stop.load(Ordering::Relaxed) {
                    let Some((program, case, started)) = lock(fairness).take() else {
                        break;
                    };
                    let files = &plan.cases[case];
                    let checked = check_case(
                        files,
                        &plan.programs[program],
                        &plan.limits,
                        plan.containment,
                    );
                    let result = match checked {
                        Err(error @ CheckError::Spawn { .. }) if plan.tolerate_spawn_errors => {
                            Ok(not_started(files, &error.to_string()))
                        }
                        result => result,
                    };
                    lock(fairness).finish(program, started);
                    if result.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if sender.send((program, case, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (program, case, result) in receiver {
            let delivered = result
                .map_err(GradeError::from)
                .and_then(|outcome| deliver(program, case, outcome));
            if let Err(failure) = delivered {
                stop.store(true, Ordering::Relaxed);
                error.get_or_insert(failure);
            }
        }
    });
    error.map_or(Ok(()), Err)
}

fn lock(fairness: &Mutex<Fairness>) -> std::sync::MutexGuard<'_, Fairness> {
    fairness
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_program_runs_its_cases_in_order() {
        let mut fairness = Fairness::new(1, 3);
        let taken: Vec<usize> =
            std::iter::from_fn(|| fairness.take().map(|(_, case, _)| case)).collect();
        assert_eq!(taken, [0, 1, 2]);
    }

    #[test]
    fn a_slow_program_waits_while_the_others_catch_up() {
        let mut fairness = Fairness::new(3, 4);
        let (slow, first, _) = fairness.take().unwrap();
        assert_eq!((slow, first), (0, 0));
        // Program 0's case takes a long time; the others are then served first.
        fairness.spent[0] = Duration::from_secs(10);
        fairness.running[0].clear();
        let mut order = Vec::new();
        for _ in 0..8 {
            let (program, _, started) = fairness.take().unwrap();
            fairness.finish(program, started);
            order.push(program);
        }
        assert!(!order.contains(&0), "{order:?}");
        assert_eq!(
            fairness.take().map(|(program, case, _)| (program, case)),
            Some((0, 1))
        );
    }
}
