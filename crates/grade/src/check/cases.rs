//! The cases of a directory: `NAME.in` with `NAME.out` beside it, in natural order, with the
//! points each is worth. Both files are read into memory before any program runs, so that no
//! program can change what it, or another, is judged against.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use othello::RuleSet;
use othello::protocol::banner;

use super::CheckError;
use crate::report::{parse_points, parse_weights};

/// One case: `NAME.in` and `NAME.out`.
#[derive(Clone, Debug)]
pub(super) struct CaseFiles {
    pub name: String,
    pub input: PathBuf,
    pub output: PathBuf,
    /// What `NAME.in` held when the check started.
    pub stdin: Arc<[u8]>,
    /// What `NAME.out` held when the check started.
    pub expected: Arc<[u8]>,
    /// Points the case is worth (see [`assign_points`]).
    pub points: f64,
}

/// Finds the cases of `dir`, in natural order (numeric names by value).
pub(super) fn find_cases(dir: &Path) -> Result<Vec<CaseFiles>, CheckError> {
    let directory_error = |source| CheckError::Directory {
        dir: dir.to_owned(),
        source,
    };
    let mut cases = Vec::new();
    for entry in fs::read_dir(dir).map_err(directory_error)? {
        let path = entry.map_err(directory_error)?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(stem) = name.strip_suffix(".in") else {
            continue;
        };
        if stem.is_empty() || stem.starts_with('.') || !path.is_file() {
            continue;
        }
        let output = dir.join(format!("{stem}.out"));
        if !output.is_file() {
            return Err(CheckError::MissingOutput {
                input: path,
                output,
            });
        }
        let read = |path: &Path| {
            fs::read(path).map_err(|source| CheckError::Read {
                path: path.to_owned(),
                source,
            })
        };
        cases.push(CaseFiles {
            name: stem.to_owned(),
            stdin: read(&path)?.into(),
            expected: read(&output)?.into(),
            input: path,
            output,
            points: 1.0,
        });
    }
    if cases.is_empty() {
        return Err(CheckError::NoCases {
            dir: dir.to_owned(),
        });
    }
    cases.sort_by(|a, b| natural_key(&a.name).cmp(&natural_key(&b.name)));
    Ok(cases)
}

/// Numeric names first, by value; then the others by name.
fn natural_key(name: &str) -> (bool, usize, &str, &str) {
    let numeric = !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit());
    if numeric {
        let value = name.trim_start_matches('0');
        (false, value.len(), value, name)
    } else {
        (true, 0, "", name)
    }
}

/// Checks that every expected output starts with the banner of `rules`.
pub(super) fn check_rules(cases: &[CaseFiles], rules: RuleSet) -> Result<(), CheckError> {
    let want = banner(rules).as_bytes();
    for case in cases {
        let start = &case.expected[..case.expected.len().min(64)];
        if !start.starts_with(want) {
            let first = start.split(|&b| b == b'\n').next().unwrap_or_default();
            return Err(CheckError::WrongRules {
                output: case.output.clone(),
                expected: rules,
                found: String::from_utf8_lossy(first).into_owned(),
            });
        }
    }
    Ok(())
}

/// Gives every case its points: from the weights CSV `weights` if it lists the case, else from
/// `NAME.points` beside `NAME.in` if there is one, else `per_case`.
pub(super) fn assign_points(
    cases: &mut [CaseFiles],
    per_case: f64,
    weights: Option<&Path>,
) -> Result<(), CheckError> {
    for case in cases.iter_mut() {
        case.points = per_case;
        let file = case.input.with_extension("points");
        match fs::read_to_string(&file) {
            Ok(text) => {
                case.points = parse_points(&text).map_err(|message| CheckError::Points {
                    path: file.clone(),
                    message,
                })?;
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(CheckError::Read { path: file, source }),
        }
    }
    let Some(path) = weights else {
        return Ok(());
    };
    let text = fs::read_to_string(path).map_err(|source| CheckError::Read {
        path: path.to_owned(),
        source,
    })?;
    let weights = parse_weights(&text).map_err(|error| CheckError::Points {
        path: path.to_owned(),
        message: error.to_string(),
    })?;
    for (name, points) in weights {
        let Some(case) = cases.iter_mut().find(|case| case.name == name) else {
            return Err(CheckError::Points {
                path: path.to_owned(),
                message: format!("no case {name:?} in the case directory"),
            });
        };
        case.points = points;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_numeric_names_by_value() {
        let mut names = vec!["b", "10000", "0002", "9999", "a", "0010", "13", "0012"];
        names.sort_by_key(|name| natural_key(name));
        assert_eq!(
            names,
            vec!["0002", "0010", "0012", "13", "9999", "10000", "a", "b"]
        );
    }
}
