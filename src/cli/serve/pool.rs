//! Where the computer thinks: at most one search per core at a time, a bounded queue beyond
//! that, and never on the async runtime's threads (each search runs on the blocking pool while
//! it holds a permit).
//!
//! A search stops early when its [`StopOnDrop`] guard is dropped: the request that asked for
//! it ended (the page went away, or started another game) or the server is shutting down.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use tokio::sync::Semaphore;

use othello::computer::{Computer, Level};
use othello::{EngineError, Game, SearchReport, Square};

/// The searches running and waiting.
#[derive(Debug)]
pub struct Pool {
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
    /// Raised when the server shuts down.
    closing: AtomicBool,
    /// The stop flags of the searches started (those still running are alive).
    running: Mutex<Vec<Weak<AtomicBool>>>,
}

/// Why the computer did not answer.
#[derive(Debug)]
pub enum PoolError {
    /// Too many searches are already waiting.
    Busy,
    /// The search was stopped (the server is shutting down).
    Stopped,
    /// The search was stopped because its position was taken back or asked for again.
    Cancelled,
    /// The engine refused the position.
    Engine(EngineError),
}

/// Sets a search's stop flag when dropped, so that a search whose request has gone stops.
pub struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Pool {
    /// A pool running at most `searches` searches at once, with at most `max_waiting` queued.
    pub fn new(searches: usize, max_waiting: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(searches.max(1))),
            waiting: AtomicUsize::new(0),
            max_waiting,
            closing: AtomicBool::new(false),
            running: Mutex::new(Vec::new()),
        }
    }

    /// Stops every search, running or to come.
    pub fn close(&self) {
        self.closing.store(true, Ordering::Relaxed);
        self.permits.close();
        let running = self
            .running
            .lock()
            .expect("no search panics holding the list");
        for flag in running.iter().filter_map(Weak::upgrade) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The computer's move at `level` in `game`; raising `stop` stops the search.
    pub async fn choose(
        &self,
        game: Game,
        level: Level,
        stop: Arc<AtomicBool>,
    ) -> Result<Square, PoolError> {
        self.run(stop, move |stop| choose_move(&game, level, stop))
            .await
    }

    /// The hint for the player to move in `game`.
    pub async fn hint(&self, game: Game) -> Result<SearchReport, PoolError> {
        self.run(Arc::new(AtomicBool::new(false)), move |stop| {
            hint_for(&game, stop)
        })
        .await
    }

    /// Runs `search` on the blocking pool once a permit is free; it stops early when `stop`
    /// rises, this future is dropped or the pool closes.
    async fn run<T: Send + 'static>(
        &self,
        stop: Arc<AtomicBool>,
        search: impl FnOnce(&AtomicBool) -> Result<T, EngineError> + Send + 'static,
    ) -> Result<T, PoolError> {
        let permit = {
            let waiting = Waiting::join(&self.waiting, self.max_waiting).ok_or(PoolError::Busy)?;
            let permit = Arc::clone(&self.permits).acquire_owned().await;
            drop(waiting);
            permit.map_err(|_| PoolError::Stopped)?
        };
        let guard = StopOnDrop(Arc::clone(&stop));
        {
            let mut running = self
                .running
                .lock()
                .expect("no search panics holding the list");
            running.retain(|flag| flag.strong_count() > 0);
            running.push(Arc::downgrade(&stop));
        }
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            search(&stop)
        });
        let stopped = Arc::clone(&guard.0);
        match task.await {
            Ok(_) if self.closing.load(Ordering::Relaxed) => Err(PoolError::Stopped),
            Ok(_) if stopped.load(Ordering::Relaxed) => Err(PoolError::Cancelled),
            Ok(Ok(found)) => Ok(found),
            Ok(Err(error)) => Err(PoolError::Engine(error)),
            Err(_) => Err(PoolError::Stopped),
        }
    }
}

/// A place in the queue, given up when dropped (also when the request waiting goes away).
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    /// A place, unless `max` are taken.
    fn join(count: &'a AtomicUsize, max: usize) -> Option<Waiting<'a>> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |waiting| {
                (waiting < max).then_some(waiting + 1)
            })
            .ok()
            .map(|_| Waiting(count))
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The computer's move: one small function over the library, so that a change of its API is a
/// change here only.
fn choose_move(game: &Game, level: Level, stop: &AtomicBool) -> Result<Square, EngineError> {
    let mut computer = Computer::new(level, rand::random());
    computer.choose(game, stop).map(|choice| choice.square)
}

/// The hint: the best move at the hint level, with its evaluation.
fn hint_for(game: &Game, stop: &AtomicBool) -> Result<SearchReport, EngineError> {
    Computer::new(Level::HINT, 0).analyse(game, stop)
}
