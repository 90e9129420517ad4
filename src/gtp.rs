//! `othello gtp`: the Go Text Protocol on standard input and output, for Go-style front ends
//! and tournament managers. The protocol is `othello_engine::gtp`; this loop reads
//! lines, answers each in turn (a `genmove` searches before its answer), and flushes. At the
//! end of the input, a search under way has [`END_GRACE`] to finish before it stops with its
//! best move so far; then the program ends.

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use clap::Args;

use othello_engine::depth::{DEFAULT_DEPTH, MAX_DEPTH};
use othello_engine::gtp::Gtp;
use othello_engine::{Engine, EngineConfig};

use super::Failure;
use othello_io::input::{LineError, LineReader};

/// The engine's settings, shared by `othello gtp` and `othello nboard`.
#[derive(Debug, Args)]
pub struct EngineArgs {
    /// Search depth in plies until the front end sets one; the rest of the game is solved
    /// exactly from twice the depth in empty squares up to depth 10, and from 21, 24, 27 or
    /// 30 empties at greater depths (as Edax's levels).
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_DEPTH)))]
    pub depth: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = super::threads_parser())]
    pub threads: u16,
    /// Transposition table size in MiB, at most half of the machine's memory.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = super::parse_hash)]
    pub hash: u32,
    #[command(flatten)]
    pub book: othello_io::book::UseBookArgs,
}

impl EngineArgs {
    /// The engine these settings describe.
    pub fn engine(&self) -> Result<Engine, Failure> {
        Engine::try_new(EngineConfig {
            hash_mb: self.hash as usize,
            threads: usize::from(self.threads),
            seed: 0,
        })
        .map_err(Failure::EngineStart)
    }
}

/// Calls `gone` (on a thread of its own) when standard output's reader has gone away (the
/// read end of a pipe or socket closed, a terminal hung up), so that a search for nobody stops
/// at once: the engine's front end closing its end is how it says it has gone.
///
/// The thread waits in `poll` for an error or hang-up on standard output (a file or
/// `/dev/null` never has one), so it costs nothing while it waits.
pub fn watch_output(gone: impl FnOnce() + Send + 'static) -> Result<(), Failure> {
    #[cfg(unix)]
    std::thread::Builder::new()
        .name("output-watch".to_owned())
        .spawn(move || {
            let mut watched = libc::pollfd {
                fd: libc::STDOUT_FILENO,
                events: 0,
                revents: 0,
            };
            loop {
                // SAFETY: poll reads and writes the one pollfd it is given, which lives on
                // this stack frame for the whole call.
                let ready = unsafe { libc::poll(&raw mut watched, 1, -1) };
                if ready < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                if ready > 0 && watched.revents & (libc::POLLERR | libc::POLLHUP) != 0 {
                    gone();
                }
                return;
            }
        })
        .map_err(Failure::Thread)?;
    #[cfg(not(unix))]
    let _ = gone;
    Ok(())
}

/// How long a search under way may go on after the end of the input (or after its start, if it
/// started later, or after its first answer, if it owes one) before it is stopped: a script's
/// quick searches finish, and a long one ends promptly with its best move so far.
const END_GRACE: Duration = Duration::from_millis(500);

/// How often the end's watch looks again while a search owes its first answer.
const END_POLL: Duration = Duration::from_millis(10);

/// `answered_at` while the latest search owes its first answer.
const NOT_YET: u64 = u64::MAX;

/// The end of the input, as it bears on the searches: once it is read, each search under way
/// (or started later) is stopped [`END_GRACE`] after the latest of the end, its start and, for
/// a search started with [`EndOfInput::starting_owed`], its first answer.
pub struct EndOfInput {
    epoch: Instant,
    /// Milliseconds from `epoch` to the start of the latest search.
    last_start: AtomicU64,
    /// Milliseconds from `epoch` to the first answer of the latest search ([`NOT_YET`]).
    answered_at: AtomicU64,
    /// The searches started so far.
    starts: AtomicU64,
}

impl EndOfInput {
    /// Nothing ended and nothing started yet.
    pub fn new() -> Arc<EndOfInput> {
        Arc::new(EndOfInput {
            epoch: Instant::now(),
            last_start: AtomicU64::new(0),
            answered_at: AtomicU64::new(0),
            starts: AtomicU64::new(0),
        })
    }

    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(NOT_YET - 1)
    }

    /// Notes that a command that may search starts now; the grace runs from its start.
    pub fn starting(&self) {
        let now = self.now();
        self.last_start.store(now, Ordering::SeqCst);
        self.answered_at.store(now, Ordering::SeqCst);
        self.starts.fetch_add(1, Ordering::SeqCst);
    }

    /// Notes that a search starts now that owes its first answer: the grace runs from the
    /// [`EndOfInput::answered`] that follows.
    pub fn starting_owed(&self) {
        self.last_start.store(self.now(), Ordering::SeqCst);
        self.answered_at.store(NOT_YET, Ordering::SeqCst);
        self.starts.fetch_add(1, Ordering::SeqCst);
    }

    /// Notes that the latest search has an answer (only its first counts).
    pub fn answered(&self) {
        let _ = self.answered_at.compare_exchange(
            NOT_YET,
            self.now(),
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// The end of the input was read: calls `stop` (on a thread of its own) for each search,
    /// the one under way and each started later, once [`END_GRACE`] has passed since the
    /// latest of now, its start and its first answer.
    pub fn reached(self: &Arc<Self>, stop: impl Fn() + Send + 'static) {
        let ended = self.epoch.elapsed();
        let this = Arc::clone(self);
        // Without a thread for it, the search simply runs to its end.
        let _ = std::thread::Builder::new()
            .name("end-grace".to_owned())
            .spawn(move || {
                let mut stopped = None;
                loop {
                    let search = this.starts.load(Ordering::SeqCst);
                    let answered = this.answered_at.load(Ordering::SeqCst);
                    if stopped == Some(search) || answered == NOT_YET {
                        std::thread::sleep(END_POLL);
                        continue;
                    }
                    let started = this.last_start.load(Ordering::SeqCst);
                    let from = Duration::from_millis(started.max(answered));
                    let due = ended.max(from) + END_GRACE;
                    match due.checked_sub(this.epoch.elapsed()) {
                        Some(left) if !left.is_zero() => std::thread::sleep(left.min(END_POLL)),
                        _ => {
                            stop();
                            stopped = Some(search);
                        }
                    }
                }
            });
    }
}

/// Arguments of `othello gtp`.
#[derive(Debug, Args)]
pub struct GtpArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// Answers GTP commands from standard input until `quit` or the end of the input.
pub fn run(args: &GtpArgs) -> Result<(), Failure> {
    if io::stdin().is_terminal() {
        othello_io::warn(format_args!(
            "othello: speaking GTP on standard input (list_commands lists the commands, quit or \
             Ctrl-D ends)."
        ));
    }
    let mut gtp = Gtp::new(args.engine.engine()?, args.engine.depth);
    gtp.set_book(args.engine.book.book()?);
    let stop = gtp.stop_flag();
    watch_output(move || stop.store(true, Ordering::SeqCst))?;
    // Lines are read on a thread of their own, so that the end of the input is seen while a
    // `genmove` searches (a few lines ahead at most).
    let (sender, lines) = mpsc::sync_channel::<io::Result<String>>(READ_AHEAD);
    let stop = gtp.stop_flag();
    let end = EndOfInput::new();
    let reader_end = Arc::clone(&end);
    std::thread::Builder::new()
        .name("gtp-reader".to_owned())
        .spawn(move || {
            let mut input = LineReader::new(io::stdin().lock());
            loop {
                let line = match input.next_line(&mut io::sink()) {
                    Ok(Some(line)) => Ok(String::from_utf8_lossy(line).into_owned()),
                    Ok(None) => {
                        reader_end.reached(move || stop.store(true, Ordering::SeqCst));
                        return;
                    }
                    Err(LineError::Read(error) | LineError::Write(error)) => Err(error),
                };
                let failed = line.is_err();
                if sender.send(line).is_err() || failed {
                    return;
                }
            }
        })
        .map_err(Failure::Thread)?;
    let stdout = io::stdout();
    let mut output = stdout.lock();
    while let Ok(line) = lines.recv() {
        let line = line.map_err(Failure::Read)?;
        end.starting();
        let Some(reply) = gtp.handle(&line) else {
            continue;
        };
        output
            .write_all(reply.text.as_bytes())
            .and_then(|()| output.flush())
            .map_err(Failure::Write)?;
        if reply.quit {
            return Ok(());
        }
    }
    Ok(())
}

/// Lines read ahead of the one being answered.
const READ_AHEAD: usize = 256;
