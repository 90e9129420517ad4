//! Where the computer thinks: a dedicated thread per core, so that at most one search per core
//! runs at a time and never on the async runtime's threads, and a bounded queue in front of
//! them. (Dedicated threads also keep the memory bounded: each search's transposition table
//! is freed into the same few allocator arenas.)
//!
//! The queue is fair between client addresses: each address has a queue of its own, holding at
//! most its share of the places, and the threads take the next search from each address in
//! turn, so that one address with many searches waiting delays another's by one search at
//! most per thread, and is refused ([`PoolError::AddressBusy`]) alone once its share is taken.
//!
//! A search stops early when its [`StopOnDrop`] guard is dropped: the request that asked for
//! it ended (the page went away, or started another game); or when the server shuts down.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};

use tokio::sync::oneshot;

use othello::{Game, Square};
use othello_engine::computer::{Computer, Level};
use othello_engine::{EngineError, SearchReport};

/// One search, as the workers run it.
type Job = Box<dyn FnOnce() + Send>;

/// The searches waiting, an address's after another's.
#[derive(Default)]
struct Queues {
    /// The addresses with searches waiting, in the order they are served.
    turn: VecDeque<IpAddr>,
    /// Each address's searches, oldest first.
    jobs: HashMap<IpAddr, VecDeque<Job>>,
    /// No more searches are taken; the threads end once the queues are empty.
    closed: bool,
}

impl Queues {
    /// The next search: the oldest of the address whose turn it is.
    fn next(&mut self) -> Option<Job> {
        let address = self.turn.pop_front()?;
        let jobs = self.jobs.get_mut(&address)?;
        let job = jobs.pop_front();
        if jobs.is_empty() {
            self.jobs.remove(&address);
        } else {
            self.turn.push_back(address);
        }
        job
    }
}

/// The queues and what the threads wait on.
#[derive(Default)]
struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
}

/// The search threads and their queue.
pub struct Pool {
    shared: Arc<Shared>,
    queued: Arc<AtomicUsize>,
    max_waiting: usize,
    /// Searches waiting per address, and the most one address may have.
    queued_by_address: Arc<Mutex<HashMap<IpAddr, usize>>>,
    max_waiting_per_address: usize,
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
    /// The address that asks already has its share of the searches waiting.
    AddressBusy,
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
    /// A pool of `threads` search threads, with at most `max_waiting` searches queued, and at
    /// most `per_address` of them from one client address.
    pub fn new(threads: usize, max_waiting: usize, per_address: usize) -> Pool {
        let shared = Arc::new(Shared::default());
        for index in 0..threads.max(1) {
            let shared = Arc::clone(&shared);
            let spawned = std::thread::Builder::new()
                .name(format!("search-{index}"))
                .spawn(move || {
                    while let Some(job) = next_job(&shared) {
                        job();
                    }
                });
            // Without a thread the queue is never served: searches then wait for none.
            drop(spawned);
        }
        Pool {
            shared,
            queued: Arc::new(AtomicUsize::new(0)),
            max_waiting,
            queued_by_address: Arc::default(),
            max_waiting_per_address: per_address.max(1),
            closing: AtomicBool::new(false),
            searches: Mutex::new(Vec::new()),
        }
    }

    /// Stops every search, running or queued, and refuses new ones.
    pub fn close(&self) {
        self.closing.store(true, Ordering::Relaxed);
        self.shared
            .queues
            .lock()
            .expect("no panic while held")
            .closed = true;
        self.shared.ready.notify_all();
        let searches = self.searches.lock().expect("no panic while held");
        for flag in searches.iter().filter_map(Weak::upgrade) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// The computer's move at `level` in `game`, asked for by `client`; raising `stop` stops
    /// the search.
    pub async fn choose(
        &self,
        client: IpAddr,
        game: Game,
        level: Level,
        stop: Arc<AtomicBool>,
    ) -> Result<Square, PoolError> {
        self.run(client, stop, move |stop| choose_move(&game, level, stop))
            .await
    }

    /// The hint for the player to move in `game`, asked for by `client`.
    pub async fn hint(&self, client: IpAddr, game: Game) -> Result<SearchReport, PoolError> {
        self.run(client, Arc::new(AtomicBool::new(false)), move |stop| {
            hint_for(&game, stop)
        })
        .await
    }

    /// Runs `work` (the chart's evaluations of a game), asked for by `client`, as a search:
    /// in the same queue, with the same limits and fairness; `work` should stop early when its
    /// flag rises (the request went away, or the server shuts down).
    pub async fn evaluate<T: Send + 'static>(
        &self,
        client: IpAddr,
        work: impl FnOnce(&AtomicBool) -> Result<T, EngineError> + Send + 'static,
    ) -> Result<T, PoolError> {
        self.run(client, Arc::new(AtomicBool::new(false)), work)
            .await
    }

    /// Queues `search` for a search thread, in `client`'s queue; it stops early when `stop`
    /// rises, this future is dropped or the pool closes.
    async fn run<T: Send + 'static>(
        &self,
        client: IpAddr,
        stop: Arc<AtomicBool>,
        search: impl FnOnce(&AtomicBool) -> Result<T, EngineError> + Send + 'static,
    ) -> Result<T, PoolError> {
        let own = AddressWaiting::join(
            &self.queued_by_address,
            client,
            self.max_waiting_per_address,
        )
        .ok_or(PoolError::AddressBusy)?;
        let place = Waiting::join(&self.queued, self.max_waiting).ok_or(PoolError::Busy)?;
        let place = (place, own);
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
        {
            let mut queues = self.shared.queues.lock().expect("no panic while held");
            if queues.closed {
                return Err(PoolError::Stopped);
            }
            let jobs = queues.jobs.entry(client).or_default();
            jobs.push_back(job);
            if jobs.len() == 1 {
                queues.turn.push_back(client);
            }
        }
        self.shared.ready.notify_one();
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

/// The next search for a thread, waiting for one; `None` once the pool is closed and its
/// queues are empty.
fn next_job(shared: &Shared) -> Option<Job> {
    let mut queues = shared.queues.lock().ok()?;
    loop {
        if let Some(job) = queues.next() {
            return Some(job);
        }
        if queues.closed {
            return None;
        }
        queues = shared.ready.wait(queues).ok()?;
    }
}

/// A place in the queue, given up when the search starts or is dropped unrun.
struct Waiting(Arc<AtomicUsize>);

/// A place in one address's share of the queue, given up with the place in the queue.
struct AddressWaiting {
    counts: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl AddressWaiting {
    /// A place for `address`, unless it has `max` taken.
    fn join(
        counts: &Arc<Mutex<HashMap<IpAddr, usize>>>,
        address: IpAddr,
        max: usize,
    ) -> Option<AddressWaiting> {
        let mut waiting = counts.lock().expect("no panic while held");
        let count = waiting.entry(address).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(AddressWaiting {
            counts: Arc::clone(counts),
            address,
        })
    }
}

impl Drop for AddressWaiting {
    fn drop(&mut self) {
        if let Ok(mut waiting) = self.counts.lock()
            && let Some(count) = waiting.get_mut(&self.address)
        {
            *count -= 1;
            if *count == 0 {
                waiting.remove(&self.address);
            }
        }
    }
}

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
struct GiveUp(Arc<Mutex<Option<(Waiting, AddressWaiting)>>>);

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
