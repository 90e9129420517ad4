//! `othello gen`: writes protocol test cases, `NNNN.in` and `NNNN.out`, to a directory.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use rayon::prelude::*;
use thiserror::Error;

use othello::RuleSet;
use othello::text::counted;
use othello_io::options::RulesArg;

use crate::GradeError;
use crate::generate::{Generator, Options, Sizes, Start};

/// Writes test cases for the console protocol: NNNN.in (what a grader sends) and NNNN.out
/// (what a correct program prints, byte for byte).
///
/// Cases are random games on boards of random even sizes, with either player first, either win
/// rule, standard or random start positions, played to the end with invalid attempts mixed in.
/// The same seed and options give the same files on every machine.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "DIR may be new, empty, or hold only the NNNN.in/NNNN.out files of an \
earlier `othello gen`, which are replaced. Exit status: 0 done, 1 a file could not be written, \
2 bad usage or a directory holding other files."
)]
pub struct GenArgs {
    /// Directory to write the cases to (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// Rule set the transcripts are played under.
    #[arg(long, value_enum, ignore_case = true, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    /// Number of cases.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    count: u64,

    /// Seed of the random choices.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,

    /// Board sides to draw rows and columns from: MIN..MAX (even, 4 to 16) or one side N.
    #[arg(long, value_name = "MIN..MAX", default_value_t = Sizes::ALL)]
    sizes: Sizes,

    /// Only square boards (otherwise rows and columns are drawn independently).
    #[arg(long)]
    square_only: bool,

    /// Chance that a move line is an invalid attempt (occupied cell, no capture, off the
    /// board), from 0 up to but not including 1.
    #[arg(long, value_name = "P", default_value_t = 0.1, value_parser = parse_rate)]
    invalid_rate: f64,

    /// Start positions: the standard opening, random positions (some where the first player
    /// must pass, some where the game is already over), or half of each.
    #[arg(long, value_enum, ignore_case = true, default_value_t = StartArg::Mixed)]
    start: StartArg,
}

/// `--start` as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum StartArg {
    /// The standard four-disc opening.
    Standard,
    /// Random positions.
    Random,
    /// Half standard, half random.
    Mixed,
}

impl From<StartArg> for Start {
    fn from(arg: StartArg) -> Start {
        match arg {
            StartArg::Standard => Start::Standard,
            StartArg::Random => Start::Random,
            StartArg::Mixed => Start::Mixed,
        }
    }
}

fn parse_rate(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(rate) if (0.0..1.0).contains(&rate) => Ok(rate),
        _ => Err(format!(
            "expected a number from 0 up to but not including 1, found {text:?}"
        )),
    }
}

/// Why `othello gen` stopped.
#[derive(Debug, Error)]
pub enum GenError {
    /// `--out` names something that is not a directory.
    #[error("{}: not a directory", .dir.display())]
    NotADirectory {
        /// The path given.
        dir: PathBuf,
    },
    /// The directory holds files that `othello gen` did not write.
    #[error(
        "{} holds {file:?}, which othello gen did not write; give a new or empty directory",
        .dir.display()
    )]
    ForeignFile {
        /// The directory given.
        dir: PathBuf,
        /// The name of one such file.
        file: String,
    },
    /// The directory could not be created or listed.
    #[error("cannot {action} {}: {source}", .dir.display())]
    Directory {
        /// What was being done: "create directory", "read directory".
        action: &'static str,
        /// The directory given.
        dir: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// A file could not be written or removed.
    #[error("cannot {action} {}: {source}", .path.display())]
    Io {
        /// What was being done: "create directory", "write", ...
        action: &'static str,
        /// The path concerned.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

impl GenError {
    /// 2 for a directory that cannot be used, 1 for a failure while writing.
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        match self {
            GenError::NotADirectory { .. }
            | GenError::ForeignFile { .. }
            | GenError::Directory { .. } => 2,
            GenError::Io { .. } => 1,
        }
    }
}

fn io_error<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> GenError + 'a {
    move |source| GenError::Io {
        action,
        path: path.to_owned(),
        source,
    }
}

fn directory_error<'a>(
    action: &'static str,
    dir: &'a Path,
) -> impl FnOnce(io::Error) -> GenError + 'a {
    move |source| GenError::Directory {
        action,
        dir: dir.to_owned(),
        source,
    }
}

/// Writes the cases and says where.
///
/// # Errors
/// [`GenError`] in a [`GradeError`]: a directory that cannot be used, a file that cannot be
/// written; or standard output that cannot be written.
pub fn run(args: &GenArgs) -> Result<(), GradeError> {
    let rules = RuleSet::from(args.rules);
    let options = Options {
        rules,
        sizes: args.sizes,
        square_only: args.square_only,
        invalid_rate: args.invalid_rate,
        start: args.start.into(),
    };
    let generator = Generator::new(args.seed, options)
        .expect("--invalid-rate is checked when the arguments are parsed");
    prepare_directory(&args.out)?;
    write_cases(&generator, args.count, &args.out)?;
    writeln!(
        io::stdout(),
        "wrote {} ({rules} rules, seed {}) to {}",
        counted(args.count, "case", "cases"),
        args.seed,
        args.out.display()
    )
    .map_err(GradeError::Write)
}

/// Makes and writes cases `0..count` on every core (rayon's pool). Each case depends only on
/// its index, so the files are the same whatever the number of workers or their order.
fn write_cases(generator: &Generator, count: u64, dir: &Path) -> Result<(), GenError> {
    let width = case_name_width(count);
    (0..count).into_par_iter().try_for_each(|index| {
        let case = generator.case(index);
        let stem = format!("{index:0width$}");
        write_case(dir, &stem, &case.input, &case.output)
    })
}

/// Digits in case names: 4, or more when there are more than 10,000 cases.
fn case_name_width(count: u64) -> usize {
    let last = count.saturating_sub(1);
    let digits = last.checked_ilog10().map_or(1, |log| log as usize + 1);
    digits.max(4)
}

/// Whether `name` is a file `othello gen` writes: `NNNN.in`, `NNNN.out`, or the temporary
/// `.NNNN.in.tmp` of an interrupted run.
fn is_generated(name: &str) -> bool {
    let name = match name.strip_prefix('.') {
        Some(rest) => match rest.strip_suffix(".tmp") {
            Some(rest) => rest,
            None => return false,
        },
        None => name,
    };
    let Some((stem, extension)) = name.rsplit_once('.') else {
        return false;
    };
    stem.len() >= 4 && stem.bytes().all(|b| b.is_ascii_digit()) && matches!(extension, "in" | "out")
}

/// Creates `dir`, or empties it of the files of an earlier run; refuses any other content.
fn prepare_directory(dir: &Path) -> Result<(), GenError> {
    match fs::metadata(dir) {
        Ok(meta) if !meta.is_dir() => {
            return Err(GenError::NotADirectory {
                dir: dir.to_owned(),
            });
        }
        Ok(_) => {}
        Err(error) if error.kind() == io::ErrorKind::NotFound => {
            return fs::create_dir_all(dir).map_err(directory_error("create directory", dir));
        }
        Err(error) => return Err(directory_error("use directory", dir)(error)),
    }
    let mut old = Vec::new();
    for entry in fs::read_dir(dir).map_err(directory_error("read directory", dir))? {
        let entry = entry.map_err(directory_error("read directory", dir))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let is_file = entry
            .file_type()
            .map_err(directory_error("read directory", dir))?
            .is_file();
        if !(is_file && is_generated(&name)) {
            return Err(GenError::ForeignFile {
                dir: dir.to_owned(),
                file: name,
            });
        }
        old.push(entry.path());
    }
    for path in old {
        fs::remove_file(&path).map_err(io_error("remove", &path))?;
    }
    Ok(())
}

/// Writes `STEM.out`, then `STEM.in` through a temporary file, so that an interrupted run never
/// leaves an input without its expected output.
fn write_case(dir: &Path, stem: &str, input: &str, output: &str) -> Result<(), GenError> {
    let out_path = dir.join(format!("{stem}.out"));
    fs::write(&out_path, output).map_err(io_error("write", &out_path))?;
    let in_path = dir.join(format!("{stem}.in"));
    let temporary = dir.join(format!(".{stem}.in.tmp"));
    fs::write(&temporary, input).map_err(io_error("write", &temporary))?;
    fs::rename(&temporary, &in_path).map_err(io_error("write", &in_path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_generated_files() {
        for name in ["0000.in", "0042.out", "12345.in", ".0007.in.tmp"] {
            assert!(is_generated(name), "{name}");
        }
        for name in [
            "notes.txt",
            "001.in",
            "0001.txt",
            "0001.in.tmp",
            ".0001.in",
            "abcd.in",
        ] {
            assert!(!is_generated(name), "{name}");
        }
    }

    #[test]
    fn case_names_have_at_least_four_digits() {
        assert_eq!(case_name_width(1), 4);
        assert_eq!(case_name_width(10_000), 4);
        assert_eq!(case_name_width(10_001), 5);
        assert_eq!(case_name_width(1_000_000), 6);
    }
}
