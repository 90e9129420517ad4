//! What each program sees of the file system: the host read-only but for the directories it is
//! given to write, the case directory and the other submissions hidden, its own submission
//! changed in a layer of its own, and the places anyone may write (`/tmp`, `/var/tmp`,
//! `/dev/shm`, the temporary directory) its own, empty and capped, gone with it; and the
//! containment's lines on standard error where any of it cannot be had.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use othello_contain::{Containment, Mode, View};

use super::judging::Program;

/// Hides the case directory and every submission's from the programs, each program's own
/// submission excepted: the cases are in memory before any program runs, so a program needs
/// nothing of their directory (and must not read the expected outputs there). Where the case
/// directory holds what a program runs (see [`needed_paths`]) or the temporary directory, it
/// is read-only instead, and `check` says so once on standard error; as it does, once, where
/// no view can be had and the process-group mode's line has not said so already. Each program
/// also gets scratch directories of its own ([`SCRATCH`], of `memory_mb` or [`SCRATCH_MB`]
/// each) where they hold nothing that the programs run (said once where one does). The rest of
/// the host is read-only to the programs but `writable` and the scratch directories shared, and
/// each program changes its own submission in a layer of its own of the same size (each said
/// once where it cannot be had).
pub(super) fn protect(
    containment: &Containment,
    cases: &Path,
    programs: &mut [Program],
    memory_mb: Option<u64>,
    writable: &[PathBuf],
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
            let open: Vec<&Path> = writable
                .iter()
                .map(PathBuf::as_path)
                .chain(shared.iter().map(|(dir, _)| dir.as_path()))
                .collect();
            let view = sealed(containment, view, &open);
            give_own_views(containment, &view, programs);
            if let Some(path) = held {
                say(format_args!(
                    "the cases are read-only to the programs but not hidden from them: {} \
                     holds {}, which they run",
                    cases.display(),
                    path.display()
                ));
            }
            for (dir, path) in shared {
                say(format_args!(
                    "{} is shared with the programs, not their own: it holds {}, which they run",
                    dir.display(),
                    path.display()
                ));
            }
        }
        Err(reason) if containment.mode() != Mode::ProcessGroup => {
            say(format_args!(
                "the cases are not hidden from the programs: {reason}"
            ));
        }
        Err(_) => {}
    }
}

/// `view` with the host read-only to the programs but `open`, where that can be had (said
/// once where it cannot: the programs may then write wherever their user may).
fn sealed(containment: &Containment, view: View, open: &[&Path]) -> View {
    let tried = view
        .sealed(open)
        .and_then(|sealed| containment.try_view(&sealed).map(|()| sealed));
    match tried {
        Ok(sealed) => sealed,
        Err(error) => {
            say(format_args!(
                "the programs may write wherever their user may: cannot make the host \
                 read-only to them: {error}"
            ));
            view
        }
    }
}

/// Each program's view: `view` with its own submission changed in a layer of its own (tried
/// with the first; where layers cannot be had, said once, and for every program whose own
/// cannot, its submission as it is: writable where its user may write it).
fn give_own_views(containment: &Containment, view: &View, programs: &mut [Program]) {
    let first = programs
        .iter()
        .find_map(|program| program.directory.as_deref());
    let tried = first.map(|own| {
        view.layered(own)
            .and_then(|layered| containment.try_view(&layered))
    });
    let layers = match tried {
        Some(Err(error)) => {
            say(format_args!(
                "the programs may write their own submissions on the host: cannot layer them: \
                 {error}"
            ));
            false
        }
        _ => true,
    };
    for program in programs {
        program.view = match program.directory.as_deref() {
            None => view.clone(),
            Some(own) if !layers => view.without(own),
            Some(own) => view.layered(own).unwrap_or_else(|error| {
                say(format_args!(
                    "{} may write its own submission on the host: {error}",
                    program.name
                ));
                view.without(own)
            }),
        };
    }
}

/// The containment of this run, said once on standard error where it has no cgroups, with
/// what that leaves out, and where its PID namespaces show the host's processes.
pub(super) fn probe_containment(no_cgroups: bool) -> Containment {
    let containment = Containment::probe(no_cgroups);
    if let Some(reason) = containment.fallback_reason() {
        let how = match containment.mode() {
            Mode::PidNamespace {
                user_namespace: true,
            } => {
                "by PID and user namespaces, without a cgroup (--memory caps each process, not \
                  the whole tree)"
            }
            Mode::PidNamespace {
                user_namespace: false,
            } => {
                "by PID namespace, without a cgroup (--max-processes is not enforced; --memory \
                  caps each process, not the whole tree)"
            }
            _ => {
                "by process group only (what they start outside it is not killed; \
                  --max-processes is not enforced; the cases are not hidden from them; they \
                  can write where their user may and reach the network)"
            }
        };
        say(format_args!("{reason}: programs are contained {how}"));
    }
    if let Some(reason) = containment.host_proc_reason() {
        say(format_args!(
            "the programs see the host's processes in /proc: {reason}"
        ));
    }
    containment
}

/// Whether the programs can be kept off the network; says once on standard error why not,
/// where the process-group mode's line has not said so already.
pub(super) fn offline(containment: &Containment) -> bool {
    match containment.offline() {
        Ok(()) => true,
        Err(reason) => {
            if containment.mode() != Mode::ProcessGroup {
                say(format_args!("the programs can reach the network: {reason}"));
            }
            false
        }
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

/// Says `what` on standard error, after `othello: `.
fn say(what: std::fmt::Arguments) {
    let _ = writeln!(io::stderr(), "othello: {what}");
}
