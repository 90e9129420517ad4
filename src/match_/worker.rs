//! The games of `othello match` played on worker threads: each worker's pair of sides (this
//! engine, timed by its thread's CPU clock, or an external engine, timed by its process) and
//! the loop that plays the scheduled games with them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

use othello::Square;
use othello_engine::Evaluation;
use othello_engine::arena::openings;
use othello_engine::arena::spec::Contender;
use othello_engine::arena::{
    Contestant, EnginePlayer, Fault, Finished, GameSoFar, Openings, Schedule, TimeControl,
    play_game,
};

use super::external::{External, Protocol};
use super::load::Loaded;

/// A player as the front end runs it: the library's player and the CPU time it has used.
pub(super) enum Side {
    /// This engine, timed on the thread that runs it.
    Engine { player: EnginePlayer, cpu: Duration },
    /// An external engine, timed by its process.
    External(External),
}

impl Side {
    pub(super) fn start(
        contender: &Contender,
        loaded: Option<&Loaded>,
        timeout: Duration,
    ) -> Result<Side, String> {
        match contender {
            Contender::Engine(spec) => {
                let (evaluation, book) = loaded.map_or((Evaluation::Trained, None), |loaded| {
                    (loaded.evaluation.clone(), loaded.book.clone())
                });
                Ok(Side::Engine {
                    player: EnginePlayer::new(spec, evaluation).with_book(book),
                    cpu: Duration::ZERO,
                })
            }
            Contender::Gtp(words) => {
                External::start(words, Protocol::Gtp, timeout).map(Side::External)
            }
            Contender::NBoard(words) => {
                External::start(words, Protocol::NBoard, timeout).map(Side::External)
            }
        }
    }

    /// CPU time used so far.
    fn cpu(&mut self) -> Duration {
        match self {
            Side::Engine { cpu, .. } => *cpu,
            Side::External(engine) => engine.cpu(),
        }
    }
}

impl Contestant for Side {
    fn choose(&mut self, game: &GameSoFar) -> Result<Square, Fault> {
        match self {
            Side::Engine { player, cpu } => {
                let before = thread_cpu();
                let answer = player.choose(game);
                *cpu += thread_cpu().saturating_sub(before);
                answer
            }
            Side::External(engine) => engine.choose(game),
        }
    }
}

/// The CPU time of the calling thread (zero where the system does not say).
fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut time = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `time` is a valid timespec for clock_gettime to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &raw mut time) } == 0 {
            return Duration::new(
                u64::try_from(time.tv_sec).unwrap_or(0),
                u32::try_from(time.tv_nsec).unwrap_or(0),
            );
        }
    }
    Duration::ZERO
}

/// A game a worker has finished, with the CPU time each side spent on it.
pub(super) struct Played {
    pub(super) index: u64,
    pub(super) finished: Finished,
    pub(super) cpu: [Duration; 2],
}

/// What the workers share.
pub(super) struct Plan {
    pub(super) openings: Openings,
    pub(super) schedule: Schedule,
    pub(super) clock: Option<TimeControl>,
    pub(super) next: AtomicU64,
    pub(super) stop: AtomicBool,
}

/// Plays games with `sides` (A, then B) until none is left (or the match stops), sending each
/// one over `results`.
pub(super) fn worker(plan: &Plan, mut sides: [Side; 2], results: &Sender<Played>) {
    let [a, b] = &mut sides;
    let mut judge = openings::judge();
    while !plan.stop.load(Ordering::Relaxed) {
        let index = plan.next.fetch_add(1, Ordering::Relaxed);
        if index >= plan.schedule.games {
            break;
        }
        let (opening, a_color) = plan.schedule.pairing(index);
        let opening = plan.openings.opening(opening, &mut judge);
        let before = [a.cpu(), b.cpu()];
        let finished = play_game(&opening, a_color, a, b, plan.clock);
        let cpu = [
            a.cpu().saturating_sub(before[0]),
            b.cpu().saturating_sub(before[1]),
        ];
        let played = Played {
            index,
            finished,
            cpu,
        };
        if results.send(played).is_err() {
            break;
        }
    }
}
