//! The options that every command spells the same way: `--rules`, `--threads`, `--hash`.

use clap::ValueEnum;
use thiserror::Error;

use othello::RuleSet;

/// A rule set as named on the command line. Every option that takes it reads it in any case
/// (clap's `ignore_case`): `--rules SIMPLE` as the console protocol prints it, or `simple`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// Standard Othello: flip every closed straight run.
    Full,
    /// Flip the opponent discs next to the move.
    Simple,
}

impl From<RulesArg> for RuleSet {
    fn from(arg: RulesArg) -> RuleSet {
        match arg {
            RulesArg::Full => RuleSet::Full,
            RulesArg::Simple => RuleSet::Simple,
        }
    }
}

/// `--threads N` of every command: 1 to 256.
#[must_use]
pub fn threads_parser() -> clap::builder::RangedI64ValueParser<u16> {
    clap::value_parser!(u16).range(1..=256)
}

/// `--hash MB` of every command: a whole number of MiB from 1 to half of the machine's memory
/// (where the system says how much it has), so that no table takes the memory the rest needs.
///
/// # Errors
/// A message for clap when the text is not a size from 1 MiB to half of the memory.
pub fn parse_hash(text: &str) -> Result<u32, String> {
    let mb = text
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|&mb| mb >= 1)
        .ok_or_else(|| format!("expected a size in MiB from 1 up, found {text:?}"))?;
    match physical_memory_mb() {
        Some(memory) if u64::from(mb) > memory / 2 => Err(format!(
            "more than half of this machine's memory; use at most {}",
            memory / 2
        )),
        _ => Ok(mb),
    }
}

/// The machine's memory in MiB, where the system says.
fn physical_memory_mb() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf has no memory-safety preconditions.
        let (pages, page_size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let pages = u64::try_from(pages).ok()?;
        let page_size = u64::try_from(page_size).ok()?;
        Some(pages.saturating_mul(page_size) >> 20)
    }
    #[cfg(not(unix))]
    None
}

/// The worker threads of a command could not be started.
#[derive(Debug, Error)]
#[error("cannot start {threads} threads: {source}")]
pub struct ThreadsError {
    /// How many were asked for.
    pub threads: u16,
    /// What went wrong.
    pub source: rayon::ThreadPoolBuildError,
}

/// A pool of `threads` workers for `--threads`.
///
/// # Errors
/// The system refused the threads.
pub fn thread_pool(threads: u16) -> Result<rayon::ThreadPool, ThreadsError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(usize::from(threads))
        .build()
        .map_err(|source| ThreadsError { threads, source })
}
