//! The line dialogue while the computer thinks: the pause of a watched game, the search, the
//! one progress display on standard error once it takes more than a moment, keys typed in the
//! meantime kept quiet for the next prompt, and Ctrl-C (or a termination signal) stopping the
//! search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::tty::QuietKeys;
use othello_io::progress;

/// How long a search may take before the spinner appears.
const QUIET: Duration = Duration::from_millis(300);
/// How often the interruption is looked at.
const TICK: Duration = Duration::from_millis(50);

/// How the computer's thinking is shown and interrupted.
#[derive(Clone, Debug, Default)]
pub struct Thinking {
    /// Show a spinner (on standard error, drawn only when it is a terminal).
    pub spinner: bool,
    /// Hold the keyboard quiet (a person types at a terminal).
    pub quiet_keys: bool,
    /// Raised by Ctrl-C and the termination signals.
    pub interrupt: Option<Arc<AtomicBool>>,
}

impl Thinking {
    /// Waits `delay`, then runs `search`, which is handed the flag that stops it. When the
    /// search takes longer than a moment, a spinner with `label` shows until it returns.
    /// `None` if the wait or the search was interrupted (the interruption is then taken).
    pub fn think<T>(
        &self,
        label: &str,
        delay: Duration,
        search: impl FnOnce(&AtomicBool) -> T,
    ) -> Option<T> {
        let _quiet = self.quiet_keys.then(QuietKeys::hold);
        let start = Instant::now();
        while start.elapsed() < delay {
            if self.take_interrupt() {
                return None;
            }
            thread::sleep(TICK.min(delay.saturating_sub(start.elapsed())));
        }
        let stop = AtomicBool::new(false);
        let (done, finished) = mpsc::channel::<()>();
        let result = thread::scope(|scope| {
            let stop = &stop;
            scope.spawn(move || self.watch(label, &finished, stop));
            let result = search(stop);
            // The watcher stops when the sender sends or is dropped.
            let _ = done.send(());
            result
        });
        (!self.take_interrupt()).then_some(result)
    }

    fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    fn take_interrupt(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|flag| flag.swap(false, Ordering::Relaxed))
    }

    /// Until `finished`: stops the search on an interruption and shows the spinner after a
    /// moment.
    fn watch(&self, label: &str, finished: &mpsc::Receiver<()>, stop: &AtomicBool) {
        let start = Instant::now();
        let mut spinner = None;
        while finished.recv_timeout(TICK) == Err(mpsc::RecvTimeoutError::Timeout) {
            if self.interrupted() {
                stop.store(true, Ordering::Relaxed);
            }
            if self.spinner && spinner.is_none() && start.elapsed() >= QUIET {
                spinner = Some(progress::spinner(label.to_owned()));
            }
        }
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_runs_to_its_end_without_interruption() {
        let thinking = Thinking {
            interrupt: Some(Arc::new(AtomicBool::new(false))),
            ..Thinking::default()
        };
        let answer = thinking.think("", Duration::from_millis(20), |stop| {
            thread::sleep(Duration::from_millis(120));
            stop.load(Ordering::Relaxed)
        });
        assert_eq!(answer, Some(false), "never told to stop");
    }

    #[test]
    fn an_interruption_stops_the_search_and_is_taken() {
        let flag = Arc::new(AtomicBool::new(false));
        let thinking = Thinking {
            interrupt: Some(Arc::clone(&flag)),
            ..Thinking::default()
        };
        let answer = thinking.think("", Duration::ZERO, |stop| {
            flag.store(true, Ordering::Relaxed);
            let start = Instant::now();
            while !stop.load(Ordering::Relaxed) {
                assert!(start.elapsed() < Duration::from_secs(10), "never stopped");
                thread::sleep(Duration::from_millis(5));
            }
        });
        assert_eq!(answer, None);
        assert!(!flag.load(Ordering::Relaxed), "the interruption is taken");
    }

    #[test]
    fn an_interruption_cuts_the_pause_short() {
        let thinking = Thinking {
            interrupt: Some(Arc::new(AtomicBool::new(true))),
            ..Thinking::default()
        };
        let start = Instant::now();
        let answer = thinking.think("", Duration::from_secs(30), |_| unreachable!());
        assert_eq!(answer, None::<()>);
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
