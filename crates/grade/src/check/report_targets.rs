//! `--report FORMAT=FILE`: which reports to write where, checked before anything runs, and
//! written atomically once their programs are done.

use std::path::{Path, PathBuf};

use othello_io::atomic::write_atomic;

use super::CheckError;
use crate::junit::junit;
use crate::report::{ProgramOutcome, Settings, csv_summary, gradescope, json};

/// The placeholder in a report's file name for the program's name: one file per program.
pub(super) const NAME: &str = "{name}";

/// A report format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    Junit,
    Gradescope,
    Json,
    Csv,
}

/// One `--report FORMAT=FILE`.
#[derive(Clone, Debug)]
pub(super) struct ReportTarget {
    pub format: Format,
    /// The file, possibly with [`NAME`] in it.
    pub file: String,
}

/// Parses `FORMAT=FILE` (the value of `--report`).
pub(super) fn parse_report_target(text: &str) -> Result<ReportTarget, String> {
    let Some((format, file)) = text.split_once('=') else {
        return Err(format!(
            "expected FORMAT=FILE (junit, gradescope, json or csv), found {text:?}"
        ));
    };
    let format = match format.trim().to_ascii_lowercase().as_str() {
        "junit" => Format::Junit,
        "gradescope" => Format::Gradescope,
        "json" => Format::Json,
        "csv" => Format::Csv,
        other => {
            return Err(format!(
                "unknown report format {other:?} (expected junit, gradescope, json or csv)"
            ));
        }
    };
    if file.is_empty() {
        return Err(format!("no file named after {format:?}=").to_lowercase());
    }
    Ok(ReportTarget {
        format,
        file: file.to_owned(),
    })
}

impl ReportTarget {
    /// Whether the report is one file per program.
    pub fn per_program(&self) -> bool {
        self.file.contains(NAME)
    }

    /// The file of program `name` (for a per-program report) or of the whole run.
    pub fn path(&self, name: &str) -> PathBuf {
        PathBuf::from(self.file.replace(NAME, name))
    }

    /// Checks that the report can be written for programs `names` (all of them, with `--each`):
    /// a Gradescope report is one program's, and every file's directory must exist.
    pub fn check(&self, names: &[String], each: bool) -> Result<(), CheckError> {
        if self.format == Format::Gradescope && each && !self.per_program() {
            return Err(CheckError::Report {
                file: self.file.clone(),
                message: format!(
                    "a Gradescope report is one program's: with --each, put {NAME} in its file name"
                ),
            });
        }
        let paths: Vec<PathBuf> = if self.per_program() {
            names.iter().map(|name| self.path(name)).collect()
        } else {
            vec![self.path("")]
        };
        for path in paths {
            let directory = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            if !directory.is_dir() {
                return Err(CheckError::Report {
                    file: path.display().to_string(),
                    message: format!("no directory {}", directory.display()),
                });
            }
            if path.is_dir() {
                return Err(CheckError::Report {
                    file: path.display().to_string(),
                    message: "is a directory".into(),
                });
            }
        }
        Ok(())
    }

    /// The report's text for `programs`.
    pub fn render(&self, settings: &Settings, programs: &[ProgramOutcome]) -> String {
        match self.format {
            Format::Junit => junit(programs),
            Format::Gradescope => programs.first().map(gradescope).unwrap_or_default(),
            Format::Json => json(settings, programs),
            Format::Csv => csv_summary(programs),
        }
    }

    /// Writes the report of `programs` to `path`.
    pub fn write(
        &self,
        path: &Path,
        settings: &Settings,
        programs: &[ProgramOutcome],
    ) -> Result<(), CheckError> {
        write_atomic(path, self.render(settings, programs).as_bytes()).map_err(|source| {
            CheckError::WriteReport {
                path: path.to_owned(),
                source,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_format_and_file() {
        let target = parse_report_target("JUnit=out/{name}.xml").unwrap();
        assert_eq!(target.format, Format::Junit);
        assert!(target.per_program());
        assert_eq!(target.path("alice"), PathBuf::from("out/alice.xml"));
        assert!(parse_report_target("json=report.json").is_ok());
        assert!(
            parse_report_target("xml=a")
                .unwrap_err()
                .contains("unknown report format")
        );
        assert!(
            parse_report_target("report.json")
                .unwrap_err()
                .contains("FORMAT=FILE")
        );
        assert!(parse_report_target("csv=").is_err());
    }
}
