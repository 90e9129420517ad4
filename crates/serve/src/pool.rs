//! Where the computer thinks: a dedicated thread per core, so that at most one search per core
//! runs at a time and never on the async runtime's threads, and a bounded queue in front of
//! them. (Dedicated threads also keep the memory bounded: each search's transposition table
//! is freed into the same few allocator arenas.)
//!
//! A search stops early when its [`StopOnDrop`] guard is dropped: the request that asked for
//! it ended (the page went away, or started another game); or when the server shuts down.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak, mpsc};

use tokio::sync::oneshot;

use othello::{Game, Square};
use othello_engine::computer::{Computer, Level};
use othello_engine::{EngineError, SearchReport};

/// One search, as the workers run it.
type Job = Box<dyn FnOnce() + Send>;

/// The search threads and their queue.
pub struct Pool {
    /// Where searches are queued; `None` once closed.
    jobs: Mutex<Option<mpsc::Sender<Job>>>,
    queued: Arc<AtomicUsize>,
    max_waiting: usize,
    /// Raised when the server shuts down.
    closing: AtomicBool,
    /// The stop flags of the searches queued or running (those alive).
    searches: Mutex<Vec<Weak<AtomicBool>>>,
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
    /// A pool of `threads` search threads, with at most `max_waiting` searches queued.
    pub fn new(threads: usize, max_waiting: usize) -> Pool {
        let (sender, receiver) = mpsc::channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for index in 0..threads.max(1) {
            let receiver = Arc::clone(&receiver);
            let spawned = std::thread::Builder::new()
                .name(format!("search-{index}"))
                .spawn(move || {
                    loop {
                        let job = receiver
                            .lock()
                            .map_err(drop)
                            .and_then(|queue| queue.recv().map_err(drop));
                        match job {
                            Ok(job) => job(),
                            Err(()) => break,
                        }
                    }
                });
            // Without a thread the queue is never served: searches then wait for none.
            drop(spawned);
        }
        Pool {
            jobs: Mutex::new(Some(sender)),
            queued: Arc::new(AtomicUsize::new(0)),
            max_waiting,
            closing: AtomicBool::new(false),
            searches: Mutex::new(Vec::new()),
        }
    }

    /// Stops every search, running or queued, and refuses new ones.
    pub fn close(&self) {
        self.closing.store(true, Ordering::Relaxed);
        self.jobs.lock().expect("no panic while held").take();
        let searches = self.searches.lock().expect("no panic while held");
        for flag in searches.iter().filter_map(Weak::upgrade) {
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

    /// Queues `search` for a search thread; it stops early when `stop` rises, this future is
    /// dropped or the pool closes.
    async fn run<T: Send + 'static>(
        &self,
        stop: Arc<AtomicBool>,
        search: impl FnOnce(&AtomicBool) -> Result<T, EngineError> + Send + 'static,
    ) -> Result<T, PoolError> {
        let place = Waiting::join(&self.queued, self.max_waiting).ok_or(PoolError::Busy)?;
        // The place is given up when the search starts, or when this request goes first.
        let place = Arc::new(Mutex::new(Some(place)));
        let _leave = GiveUp(Arc::clone(&place));
        let guard = StopOnDrop(Arc::clone(&stop));
        {
            let mut searches = self.searches.lock().expect("no panic while held");
            searches.retain(|flag| flag.strong_count() > 0);
            searches.push(Arc::downgrade(&stop));
        }
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move || {
            drop(GiveUp(place));
            let result = (!stop.load(Ordering::Relaxed)).then(|| search(&stop));
            let _ = answer.send(result);
        });
        let queued = match self.jobs.lock().expect("no panic while held").as_ref() {
            Some(jobs) => jobs.send(job).is_ok(),
            None => false,
        };
        if !queued {
            return Err(PoolError::Stopped);
        }
        let result = answered.await;
        let stopped = guard.0.load(Ordering::Relaxed);
        match result {
            _ if self.closing.load(Ordering::Relaxed) => Err(PoolError::Stopped),
            Ok(Some(_) | None) if stopped => Err(PoolError::Cancelled),
            Ok(Some(Ok(found))) => Ok(found),
            Ok(Some(Err(error))) => Err(PoolError::Engine(error)),
            Ok(None) | Err(_) => Err(PoolError::Stopped),
        }
    }
}

/// A place in the queue, given up when the search starts or is dropped unrun.
struct Waiting(Arc<AtomicUsize>);

impl Waiting {
    /// A place, unless `max` are taken.
    fn join(count: &Arc<AtomicUsize>, max: usize) -> Option<Waiting> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |waiting| {
                (waiting < max).then_some(waiting + 1)
            })
            .ok()
            .map(|_| Waiting(Arc::clone(count)))
    }
}

/// Gives up a place in the queue, if still held, when dropped.
struct GiveUp(Arc<Mutex<Option<Waiting>>>);

impl Drop for GiveUp {
    fn drop(&mut self) {
        if let Ok(mut place) = self.0.lock() {
            place.take();
        }
    }
}

impl Drop for Waiting {
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
