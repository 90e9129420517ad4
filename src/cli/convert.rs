//! `othello convert`: reads game records in any format and writes them in another.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use thiserror::Error;

use othello::record::{self, Format, ReadOptions, WriteError, wthor};

use super::RulesArg;
use super::atomic::{NotOurs, check_overwrite};
use super::input::MAX_INPUT_BYTES;
use super::records::{RecordsFileError, read_records};

/// Arguments of `othello convert`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input formats, recognised from the content: move lists (f5d6c3..., one game per line), GGF
((;GM[Othello]...;), any number of games), OBF/FFO position lines, the console protocol's
input (header, grid, ROW COL lines), WTHOR .wtb files.

Exit status: 0 done, 1 the output could not be written, 2 bad input or usage (a file that
cannot be read, a malformed record, a game the output format cannot hold, or an OUT that is
not a game record or holds more games than are written, without --force).")]
pub struct ConvertArgs {
    /// The file of games; `-` for standard input.
    #[arg(value_name = "IN")]
    input: PathBuf,

    /// The format to write.
    #[arg(long, value_enum, value_name = "FORMAT", default_value_t = FormatArg::Ggf)]
    to: FormatArg,

    /// Write to OUT instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,

    /// Replace OUT even when it is not a game record, or holds more games than are written.
    #[arg(long, requires = "output")]
    force: bool,

    /// Only game N (1-based) of the input.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    game: Option<u32>,

    /// Rule set of inputs that do not name one (move lists without `simple`, protocol
    /// inputs, OBF lines).
    #[arg(long, value_enum, default_value_t = RulesArg::Full)]
    rules: RulesArg,
}

/// A format as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Squares in order, one game per line: f5d6c3d3c4...
    Movelist,
    /// The Generic Game Format (GGS, `NBoard`).
    Ggf,
    /// The position after the last move, one 8x8 OBF line per game.
    Obf,
    /// The console protocol's input: a test case for `othello` (one game).
    Protocol,
    /// A WTHOR .wtb database file (binary; 8x8 standard games).
    Wthor,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Format {
        match arg {
            FormatArg::Movelist => Format::MoveList,
            FormatArg::Ggf => Format::Ggf,
            FormatArg::Obf => Format::Obf,
            FormatArg::Protocol => Format::Protocol,
            FormatArg::Wthor => Format::Wthor,
        }
    }
}

/// Why `othello convert` stopped.
#[derive(Debug, Error)]
pub enum ConvertError {
    /// The input could not be read, or is not a record.
    #[error(transparent)]
    Input(#[from] RecordsFileError),
    /// A game the output format cannot hold.
    #[error("{name}: {source}")]
    Unwritable {
        /// The input's name.
        name: String,
        /// Which game, and what the format cannot hold.
        source: WriteError,
    },
    /// Several games for the protocol input, which holds one.
    #[error("{name}: {count} games, but the protocol input holds one: pick one with --game N")]
    SeveralGames {
        /// The input's name.
        name: String,
        /// How many games it holds.
        count: usize,
    },
    /// WTHOR to a terminal.
    #[error("a WTHOR file is binary: write it with -o FILE or redirect standard output")]
    BinaryToTerminal,
    /// The output file could not be written.
    #[error("cannot write {path}: {source}", path = .path.display())]
    WriteFile {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Stdout(io::Error),
    /// OUT is not a record this command should replace without `--force`.
    #[error(transparent)]
    NotOurs(#[from] NotOurs),
}

impl ConvertError {
    /// 1 for a file that could not be read or written, 2 for bad input or usage.
    pub fn exit_status(&self) -> u8 {
        match self {
            ConvertError::Input(error) => error.exit_status(),
            ConvertError::Unwritable { .. }
            | ConvertError::SeveralGames { .. }
            | ConvertError::BinaryToTerminal
            | ConvertError::NotOurs(_) => 2,
            ConvertError::WriteFile { .. } | ConvertError::Stdout(_) => 1,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, ConvertError::Stdout(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Runs `othello convert`.
pub fn run(args: &ConvertArgs) -> Result<(), ConvertError> {
    let (name, records) = read_records(
        &args.input,
        args.rules.into(),
        args.game.map(|n| n as usize),
    )?;
    let format = Format::from(args.to);
    if format == Format::Protocol && records.len() > 1 {
        return Err(ConvertError::SeveralGames {
            name,
            count: records.len(),
        });
    }
    let bytes = match format {
        Format::Wthor => wthor::write(&records, &today()),
        _ => record::write(&records, format),
    }
    .map_err(|source| ConvertError::Unwritable {
        name: name.clone(),
        source,
    })?;
    if let Some(path) = &args.output {
        check_overwrite(path, args.force, MAX_INPUT_BYTES, |old| match record::read(
            old,
            &ReadOptions {
                rules: args.rules.into(),
            },
        ) {
            Ok(old) if old.len() > records.len() => Err(format!(
                "holds {} games, more than the {} written",
                old.len(),
                records.len()
            )),
            Ok(_) => Ok(()),
            Err(error) => Err(format!("not a game record ({error})")),
        })?;
        crate::cli::atomic::write_atomic(path, &bytes).map_err(|source| ConvertError::WriteFile {
            path: path.clone(),
            source,
        })
    } else {
        if format == Format::Wthor && io::stdout().is_terminal() {
            return Err(ConvertError::BinaryToTerminal);
        }
        let mut out = io::stdout().lock();
        out.write_all(&bytes)
            .and_then(|()| out.flush())
            .map_err(ConvertError::Stdout)
    }
}

/// A WTHOR header dated today; the games' year is this year.
fn today() -> wthor::Header {
    let date = jiff::Zoned::now().date();
    let year = date.year() as u16;
    wthor::Header {
        created: [
            (year / 100) as u8,
            (year % 100) as u8,
            date.month() as u8,
            date.day() as u8,
        ],
        games_year: year,
        depth: 0,
    }
}
