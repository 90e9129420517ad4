//! `--each`: the submissions of a class, from a pattern (`'submissions/*/'`) or a list file, each
//! a directory the program runs in; and the summary table printed for them.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use othello::text::counted;

use super::CheckError;
use super::judging::{Program, resolve_command};
use crate::report::{Points, ProgramOutcome};

/// The submissions `spec` names: the lines of a list file (blank lines and `#` comments
/// skipped), or the directories a pattern matches (`*` any run of characters and `?` one, within
/// a path component; a component starting with `.` only when the pattern's does), sorted.
pub(super) fn submissions(spec: &str, command: &[OsString]) -> Result<Vec<Program>, CheckError> {
    let list = Path::new(spec);
    let directories: Vec<String> = if list.is_file() {
        let text = fs::read_to_string(list).map_err(|source| CheckError::Read {
            path: list.to_owned(),
            source,
        })?;
        text.lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(str::to_owned)
            .collect()
    } else {
        expand(spec)
    };
    if directories.is_empty() {
        return Err(CheckError::NoSubmissions {
            spec: spec.to_owned(),
        });
    }
    let mut programs: Vec<Program> = Vec::with_capacity(directories.len());
    for shown in directories {
        let path = Path::new(&shown);
        let directory = fs::canonicalize(path)
            .ok()
            .filter(|path| path.is_dir())
            .ok_or_else(|| CheckError::NotASubmission {
                directory: shown.clone(),
            })?;
        let name = directory
            .file_name()
            .map_or_else(|| shown.clone(), |name| name.to_string_lossy().into_owned());
        if let Some(other) = programs.iter().find(|program| program.name == name) {
            return Err(CheckError::SameName {
                name,
                first: other.shown_directory.clone().unwrap_or_default(),
                second: shown,
            });
        }
        let command = resolve_command(command, &directory);
        programs.push(Program {
            name,
            shown_directory: Some(shown.trim_end_matches('/').to_owned()),
            directory: Some(directory),
            command,
            view: othello_contain::View::default(),
        });
    }
    Ok(programs)
}

/// The paths matching `pattern`, sorted.
fn expand(pattern: &str) -> Vec<String> {
    let absolute = pattern.starts_with('/');
    let mut found = vec![if absolute {
        PathBuf::from("/")
    } else {
        PathBuf::new()
    }];
    for component in pattern.split('/').filter(|part| !part.is_empty()) {
        let mut next = Vec::new();
        for base in &found {
            if !component.contains(['*', '?']) {
                let path = base.join(component);
                if fs::symlink_metadata(&path).is_ok() {
                    next.push(path);
                }
                continue;
            }
            let listed = if base.as_os_str().is_empty() {
                fs::read_dir(".")
            } else {
                fs::read_dir(base)
            };
            let Ok(entries) = listed else { continue };
            let mut names: Vec<String> = entries
                .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
                .filter(|name| {
                    (!name.starts_with('.') || component.starts_with('.'))
                        && matches(component, name)
                })
                .collect();
            names.sort();
            next.extend(names.into_iter().map(|name| base.join(name)));
        }
        found = next;
    }
    found
        .into_iter()
        .filter(|path| !path.as_os_str().is_empty() && path.is_dir())
        .map(|path| path.to_string_lossy().into_owned())
        .collect()
}

/// Whether `name` matches the pattern component `pattern` (`*` and `?`), in linear time: on a
/// mismatch, the last `*` takes one more character.
fn matches(pattern: &str, name: &str) -> bool {
    let (pattern, name): (Vec<char>, Vec<char>) =
        (pattern.chars().collect(), name.chars().collect());
    let (mut p, mut n) = (0, 0);
    let mut star = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((star_at, taken)) => {
                    p = star_at + 1;
                    n = taken + 1;
                    star = Some((star_at, taken + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

/// The class's summary table: one line per program with its counts, the CPU seconds of all its
/// cases, the wall time of its run, and its score; and a last line saying how many passed every
/// case.
pub(super) fn summary_table(programs: &[ProgramOutcome]) -> String {
    let width = programs
        .iter()
        .map(|program| program.name.chars().count())
        .max()
        .unwrap_or(0)
        .max("program".len());
    let mut text = format!(
        "{:<width$}  passed  failed  timed out  crashed  memory   cpu s  wall s  score\n",
        "program"
    );
    let mut perfect = 0;
    for program in programs {
        let scorecard = program.scorecard();
        if scorecard.passed == scorecard.cases {
            perfect += 1;
        }
        text.push_str(&format!(
            "{:<width$}  {:>6}  {:>6}  {:>9}  {:>7}  {:>6}  {:>6.2}  {:>6.2}  {}/{}\n",
            program.name,
            scorecard.passed,
            scorecard.failed,
            scorecard.timed_out,
            scorecard.crashed,
            scorecard.memory,
            scorecard.cpu_seconds,
            program.wall_seconds,
            Points(scorecard.score),
            Points(scorecard.max_score),
        ));
    }
    text.push_str(&format!(
        "{}, {perfect} passed every case\n",
        counted(programs.len(), "program", "programs")
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_stars_and_question_marks() {
        for (pattern, name, expected) in [
            ("*", "alice", true),
            ("a*", "alice", true),
            ("*e", "alice", true),
            ("a*c*", "alice", true),
            ("?lice", "alice", true),
            ("b*", "alice", false),
            ("alic", "alice", false),
            ("a?", "a", false),
            ("**", "", true),
            ("*b", "aaab", true),
            ("é?", "éa", true),
        ] {
            assert_eq!(matches(pattern, name), expected, "{pattern} {name}");
        }
    }
}
