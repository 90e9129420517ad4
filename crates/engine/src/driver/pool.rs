//! The helper threads of one search, started when first needed and kept until the search ends:
//! a node that shares its moves hands its job to parked threads instead of starting threads
//! of its own (each start and end of a thread costs system time, and its stack's unmapping
//! interrupts every other thread of the process, which with 16 threads and hundreds of
//! thousands of shared nodes was a measurable share of the time).
//!
//! A job is borrowed from the stack of the thread that shares it, and [`Pool::run`] does not
//! return before every helper that took it has finished with it; a helper that had not yet
//! taken it when the sharing thread's own part is done is withdrawn, since the moves it was
//! claimed for are taken by then.

use std::any::Any;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle, Thread};

/// A job as the helpers see it: called once by each helper that takes it, with the helper's
/// own `T` (what it keeps from one job to the next).
type Job<T> = dyn Fn(&mut T) + Sync;

/// Threads that run jobs shared by the search's threads; each keeps a `T` between jobs.
pub(super) struct Pool<T> {
    state: Arc<Mutex<State<T>>>,
    /// Most threads the pool may start.
    max_threads: usize,
    handles: Mutex<Vec<JoinHandle<()>>>,
}

struct State<T> {
    /// Jobs offered and not yet taken by as many helpers as they asked for.
    offered: VecDeque<Offer<T>>,
    /// Helpers waiting for a job.
    parked: Vec<Parked>,
    /// Threads started.
    threads: usize,
    /// Set when the search ends: parked helpers end.
    closed: bool,
}

/// A job offered to `takers` more helpers.
struct Offer<T> {
    /// The job, its lifetime erased: [`Pool::run`] keeps it alive until `latch` opens.
    job: *const Job<T>,
    latch: Arc<Latch>,
    takers: usize,
}

// SAFETY: the job behind the pointer is `Sync` and outlives every use (see `Offer::job`).
unsafe impl<T> Send for Offer<T> {}

/// A parked helper: its thread, and the flag that says it was woken for a job.
struct Parked {
    thread: Thread,
    woken: Arc<AtomicBool>,
}

/// The helpers still busy with one shared job, and the first panic among them.
struct Latch {
    busy: Mutex<usize>,
    done: Condvar,
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// The value behind `mutex`, even if a thread panicked holding it.
pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<T: Default + 'static> Pool<T> {
    /// A pool that starts at most `max_threads` threads, none until a job asks for them.
    pub fn new(max_threads: usize) -> Pool<T> {
        Pool {
            state: Arc::new(Mutex::new(State {
                offered: VecDeque::new(),
                parked: Vec::new(),
                threads: 0,
                closed: false,
            })),
            max_threads,
            handles: Mutex::new(Vec::new()),
        }
    }

    /// Offers `job` to `helpers` helpers (parked ones first, new threads for the rest while
    /// the pool may start them) and runs `own` on the calling thread meanwhile. Once `own`
    /// has returned, the helpers that have not taken the job are withdrawn, `before_wait` is
    /// told how many, and the call waits for the others to finish. Returns what `own` and
    /// `before_wait` returned; a helper's panic is resumed here.
    pub fn run<R, W>(
        &self,
        job: &(dyn Fn(&mut T) + Sync + '_),
        helpers: usize,
        own: impl FnOnce() -> R,
        before_wait: impl FnOnce(usize) -> W,
    ) -> (R, W) {
        if helpers == 0 {
            let own = own();
            return (own, before_wait(0));
        }
        // SAFETY: only the lifetime is erased. The pointer is read by helpers that take the
        // offer before `Wait` below withdraws it, and `Wait`, made as soon as the offer is
        // made, does not return (also when unwinding) before each of them has finished with it.
        // (A cast may not lengthen a trait object's lifetime; a transmute may.)
        #[allow(clippy::transmute_ptr_to_ptr)]
        let erased: *const Job<T> = unsafe {
            std::mem::transmute::<*const (dyn Fn(&mut T) + Sync + '_), *const Job<T>>(job)
        };
        let latch = Arc::new(Latch {
            busy: Mutex::new(helpers),
            done: Condvar::new(),
            panic: Mutex::new(None),
        });
        let (woken, start) = {
            let mut state = lock(&self.state);
            state.offered.push_back(Offer {
                job: erased,
                latch: Arc::clone(&latch),
                takers: helpers,
            });
            let woken = state.parked.len().min(helpers);
            let at = state.parked.len() - woken;
            let woken: Vec<Parked> = state.parked.drain(at..).collect();
            let start = (helpers - woken.len()).min(self.max_threads - state.threads);
            state.threads += start;
            (woken, start)
        };
        // From here on the offer is withdrawn and its helpers waited for, whatever happens.
        let wait = Wait {
            state: &self.state,
            latch: &latch,
        };
        woken.into_iter().for_each(Parked::wake);
        for _ in 0..start {
            self.start_thread();
        }
        let own = own();
        let withdrawn = wait.withdraw();
        let told = before_wait(withdrawn);
        drop(wait);
        if let Some(panic) = lock(&latch.panic).take() {
            resume_unwind(panic);
        }
        (own, told)
    }

    /// Starts a helper thread; if the system cannot, the pool counts one thread fewer and the
    /// job's offer is withdrawn in time.
    fn start_thread(&self) {
        let state = Arc::clone(&self.state);
        let started = thread::Builder::new()
            .name("othello-helper".to_owned())
            .spawn(move || help(&state));
        match started {
            Ok(handle) => lock(&self.handles).push(handle),
            Err(_) => lock(&self.state).threads -= 1,
        }
    }
}

impl<T> Drop for Pool<T> {
    /// Ends the parked helpers and waits for every thread.
    fn drop(&mut self) {
        let parked = {
            let mut state = lock(&self.state);
            state.closed = true;
            std::mem::take(&mut state.parked)
        };
        parked.into_iter().for_each(Parked::wake);
        for handle in std::mem::take(&mut *lock(&self.handles)) {
            let _ = handle.join();
        }
    }
}

/// A helper's life: the next offered job, else parked until woken, until the pool closes.
fn help<T: Default>(pool: &Mutex<State<T>>) {
    let mut own = T::default();
    let woken = Arc::new(AtomicBool::new(false));
    loop {
        let taken = {
            let mut state = lock(pool);
            let closed = state.closed;
            match state.offered.front_mut() {
                Some(offer) => {
                    offer.takers -= 1;
                    let taken = (offer.job, Arc::clone(&offer.latch));
                    if offer.takers == 0 {
                        state.offered.pop_front();
                    }
                    Some(taken)
                }
                None if closed => return,
                None => {
                    woken.store(false, Ordering::Relaxed);
                    state.parked.push(Parked {
                        thread: thread::current(),
                        woken: Arc::clone(&woken),
                    });
                    None
                }
            }
        };
        let Some((job, latch)) = taken else {
            while !woken.load(Ordering::Acquire) {
                thread::park();
            }
            continue;
        };
        // SAFETY: the offer was taken before it was withdrawn, so `Pool::run` is waiting for
        // this helper's `finish` before the job goes out of scope.
        let job = unsafe { &*job };
        if let Err(panic) = catch_unwind(AssertUnwindSafe(|| job(&mut own))) {
            lock(&latch.panic).get_or_insert(panic);
        }
        latch.finish(1);
    }
}

impl Parked {
    /// Wakes the helper, for a job or for the pool's end.
    fn wake(self) {
        self.woken.store(true, Ordering::Release);
        self.thread.unpark();
    }
}

impl Latch {
    /// Notes that `count` helpers are done with the job.
    fn finish(&self, count: usize) {
        let mut busy = lock(&self.busy);
        *busy -= count;
        if *busy == 0 {
            self.done.notify_all();
        }
    }
}

/// Withdraws a job's offer and waits for its helpers, also when the sharing thread unwinds.
struct Wait<'p, T> {
    state: &'p Mutex<State<T>>,
    latch: &'p Arc<Latch>,
}

impl<T> Wait<'_, T> {
    /// Withdraws what is left of the offer; how many helpers it still asked for.
    fn withdraw(&self) -> usize {
        let mut state = lock(self.state);
        let Some(at) = state
            .offered
            .iter()
            .position(|offer| Arc::ptr_eq(&offer.latch, self.latch))
        else {
            return 0;
        };
        let takers = state.offered.remove(at).map_or(0, |offer| offer.takers);
        drop(state);
        self.latch.finish(takers);
        takers
    }
}

impl<T> Drop for Wait<'_, T> {
    fn drop(&mut self) {
        self.withdraw();
        let mut busy = lock(&self.latch.busy);
        while *busy > 0 {
            busy = self
                .latch
                .done
                .wait(busy)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    #[test]
    fn a_job_runs_once_on_each_helper_that_takes_it_and_they_are_reused() {
        let pool = Pool::<usize>::new(100);
        let runs = AtomicUsize::new(0);
        let mut took = 0;
        for round in 1..=50 {
            // Once the helpers of the last round are parked, this one starts no thread.
            loop {
                let state = lock(&pool.state);
                if state.parked.len() == state.threads {
                    break;
                }
                drop(state);
                thread::yield_now();
            }
            let started = AtomicUsize::new(0);
            let job = |kept: &mut usize| {
                *kept += 1;
                started.fetch_add(1, Ordering::SeqCst);
                runs.fetch_add(1, Ordering::SeqCst);
            };
            let own = || {
                while started.load(Ordering::SeqCst) < 1 {
                    thread::yield_now();
                }
                round
            };
            let (own, withdrawn) = pool.run(&job, 3, own, |withdrawn| withdrawn);
            assert_eq!(own, round);
            assert!(withdrawn <= 2, "one helper took it");
            took += 3 - withdrawn;
            assert_eq!(runs.load(Ordering::SeqCst), took, "once each, all finished");
        }
        assert_eq!(lock(&pool.state).threads, 3, "the same three threads");
    }

    #[test]
    fn helpers_not_started_in_time_are_withdrawn_and_not_waited_for() {
        // No thread may be started: the offer waits for no one once `own` is done.
        let pool = Pool::<()>::new(0);
        let job = |(): &mut ()| panic!("no helper can take it");
        let ((), withdrawn) = pool.run(&job, 2, || (), |withdrawn| withdrawn);
        assert_eq!(withdrawn, 2);
        assert!(lock(&pool.state).offered.is_empty());
    }

    #[test]
    fn no_helpers_asked_for_runs_the_calling_threads_part_alone() {
        let pool = Pool::<()>::new(4);
        let job = |(): &mut ()| panic!("no helper was asked for");
        assert_eq!(pool.run(&job, 0, || 7, |withdrawn| withdrawn), (7, 0));
        assert_eq!(lock(&pool.state).threads, 0);
    }

    #[test]
    fn the_call_waits_for_every_helper_that_took_the_job() {
        let pool = Pool::<()>::new(2);
        let finished = AtomicUsize::new(0);
        let started = AtomicUsize::new(0);
        let job = |(): &mut ()| {
            started.fetch_add(1, Ordering::SeqCst);
            thread::sleep(Duration::from_millis(50));
            finished.fetch_add(1, Ordering::SeqCst);
        };
        // The calling thread's part lasts until both helpers have taken the job.
        let own = || {
            while started.load(Ordering::SeqCst) < 2 {
                thread::yield_now();
            }
        };
        let ((), withdrawn) = pool.run(&job, 2, own, |withdrawn| withdrawn);
        assert_eq!(withdrawn, 0);
        assert_eq!(finished.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn jobs_shared_from_inside_jobs_nest() {
        let pool = Pool::<()>::new(8);
        let (outer_started, leaves) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let inner = |(): &mut ()| {
            leaves.fetch_add(1, Ordering::Relaxed);
        };
        let outer = |(): &mut ()| {
            outer_started.fetch_add(1, Ordering::SeqCst);
            pool.run(&inner, 2, || leaves.fetch_add(1, Ordering::Relaxed), |_| ());
        };
        let own = || {
            while outer_started.load(Ordering::SeqCst) < 1 {
                thread::yield_now();
            }
        };
        let ((), withdrawn) = pool.run(&outer, 3, own, |withdrawn| withdrawn);
        // Each outer helper that ran counts its own part and its inner helpers' that ran.
        let ran_outer = 3 - withdrawn;
        let counted = leaves.load(Ordering::Relaxed);
        assert!(ran_outer >= 1);
        assert!(
            counted >= ran_outer && counted <= 3 * ran_outer,
            "{counted} {ran_outer}"
        );
    }

    #[test]
    fn a_helpers_panic_reaches_the_sharing_thread_after_the_others_finish() {
        let pool = Pool::<()>::new(2);
        let started = AtomicUsize::new(0);
        let job = |(): &mut ()| {
            started.fetch_add(1, Ordering::SeqCst);
            panic!("helper");
        };
        let own = || {
            while started.load(Ordering::SeqCst) < 1 {
                thread::yield_now();
            }
        };
        let result = catch_unwind(AssertUnwindSafe(|| pool.run(&job, 1, own, |_| ())));
        let panic = result.expect_err("the helper's panic is resumed");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"helper"));
        // The pool still works after it.
        let ok = |(): &mut ()| {};
        pool.run(&ok, 2, || (), |_| ());
    }
}
