//! What each program sees of the file system: the case directory and the other submissions
//! hidden, its own submission as it is, and the places anyone may write (`/tmp`, `/var/tmp`,
//! `/dev/shm`, the temporary directory) its own, empty and capped, gone with it.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use othello_contain::{Containment, Mode};

use super::judging::Program;

/// Hides the case directory and every submission's from the programs, each program's own
/// submission excepted: the cases are in memory before any program runs, so a program needs
/// nothing of their directory (and must not read the expected outputs there). Where the case
/// directory holds what a program runs (see [`needed_paths`]) or the temporary directory, it
/// is read-only instead, and `check` says so once on standard error; as it does, once, where
/// no view can be had and the process-group mode's line has not said so already. Each program
/// also gets scratch directories of its own ([`SCRATCH`], of `memory_mb` or [`SCRATCH_MB`]
/// each) where they hold nothing that the programs run (said once where one does).
pub(super) fn protect(
    containment: &Containment,
    cases: &Path,
    programs: &mut [Program],
    memory_mb: Option<u64>,
) {
    let submissions: Vec<&Path> = programs
        .iter()
        .filter_map(|program| program.directory.as_deref())
        .collect();
    let needed = needed_paths(programs);
    let temp = std::env::temp_dir().canonicalize().ok();
    let held = first_inside(cases, needed.iter().chain(&temp));
    let (read_only, mut hidden) = match held {
        Some(_) => (vec![cases], Vec::new()),
        None => (Vec::new(), vec![cases]),
    };
    hidden.extend(submissions);
    let mut scratch = Vec::new();
    let mut shared = Vec::new();
    for dir in scratch_directories() {
        match first_inside(&dir, &needed) {
            None => scratch.push(dir),
            Some(path) => shared.push((dir, path)),
        }
    }
    let scratch: Vec<&Path> = scratch.iter().map(PathBuf::as_path).collect();
    let bytes = memory_mb.unwrap_or(SCRATCH_MB).saturating_mul(1024 * 1024);
    match containment.view(&read_only, &hidden, &scratch, bytes) {
        Ok(view) => {
            for program in programs {
                program.view = match &program.directory {
                    Some(own) => view.without(own),
                    None => view.clone(),
                };
            }
            if let Some(path) = held {
                let _ = writeln!(
                    io::stderr(),
                    "othello: the cases are read-only to the programs but not hidden from \
                     them: {} holds {}, which they run",
                    cases.display(),
                    path.display()
                );
            }
            for (dir, path) in shared {
                let _ = writeln!(
                    io::stderr(),
                    "othello: {} is shared with the programs, not their own: it holds {}, \
                     which they run",
                    dir.display(),
                    path.display()
                );
            }
        }
        Err(reason) if containment.mode() != Mode::ProcessGroup => {
            let _ = writeln!(
                io::stderr(),
                "othello: the cases are not hidden from the programs: {reason}"
            );
        }
        Err(_) => {}
    }
}

/// The directories anyone may write, which each program gets its own of.
const SCRATCH: [&str; 3] = ["/tmp", "/var/tmp", "/dev/shm"];

/// The size of each scratch directory without `--memory`, in MiB.
const SCRATCH_MB: u64 = 256;

/// [`SCRATCH`] and the temporary directory, those that exist, canonical, without repeats.
fn scratch_directories() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = SCRATCH
        .iter()
        .map(PathBuf::from)
        .chain([std::env::temp_dir()])
        .filter_map(|dir| dir.canonicalize().ok())
        .filter(|dir| dir.is_dir())
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// What the programs need to reach, canonical: each submission's directory, the files and
/// directories their command lines name, and the directories of `PATH` (where a command is
/// looked for). The temporary directory their working directories are made in counts only for
/// the cases (a scratch directory makes the working directory again inside itself).
fn needed_paths(programs: &[Program]) -> Vec<PathBuf> {
    let mut needed: Vec<PathBuf> = Vec::new();
    for program in programs {
        needed.extend(program.directory.iter().cloned());
        needed.extend(
            program
                .command
                .iter()
                .map(PathBuf::from)
                .filter(|path| path.is_absolute()),
        );
    }
    if let Some(path) = std::env::var_os("PATH") {
        needed.extend(std::env::split_paths(&path).filter(|dir| dir.is_absolute()));
    }
    needed
        .into_iter()
        .filter_map(|path| path.canonicalize().ok())
        .collect()
}

/// The first of `needed` inside `dir`, if any.
fn first_inside<'a>(dir: &Path, needed: impl IntoIterator<Item = &'a PathBuf>) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    needed
        .into_iter()
        .find(|path| path.starts_with(&dir))
        .cloned()
}
