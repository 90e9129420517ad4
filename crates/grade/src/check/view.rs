//! What each program sees of the file system: the case directory and the other submissions
//! hidden, its own submission as it is.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use othello_contain::{Containment, Mode};

use super::judging::Program;

/// Hides the case directory and every submission's from the programs, each program's own
/// submission excepted: the cases are in memory before any program runs, so a program needs
/// nothing of their directory (and must not read the expected outputs there). Where the case
/// directory holds what a program runs (see [`holds_what_programs_run`]) it is read-only
/// instead, and `check` says so once on standard error; as it does, once, where no view can be
/// had and the process-group mode's line has not said so already.
pub(super) fn protect(containment: &Containment, cases: &Path, programs: &mut [Program]) {
    let submissions: Vec<&Path> = programs
        .iter()
        .filter_map(|program| program.directory.as_deref())
        .collect();
    let held = holds_what_programs_run(cases, programs);
    let (read_only, mut hidden) = match held {
        Some(_) => (vec![cases], Vec::new()),
        None => (Vec::new(), vec![cases]),
    };
    hidden.extend(submissions);
    match containment.view(&read_only, &hidden) {
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

/// A path inside the case directory that the programs need, if there is one: a submission's
/// directory, a file or directory their command lines name, a directory of `PATH` (where a
/// command is looked for), or the temporary directory their working directories are made in.
fn holds_what_programs_run(cases: &Path, programs: &[Program]) -> Option<PathBuf> {
    let cases = cases.canonicalize().ok()?;
    let mut needed: Vec<PathBuf> = vec![std::env::temp_dir()];
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
        .find(|path| path.starts_with(&cases))
}
