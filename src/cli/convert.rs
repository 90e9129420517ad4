//! `othello convert`: reads game records in any format and writes them in another.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use thiserror::Error;

use othello::record::{self, Format, GameRecord, ReadOptions, WriteError, WthorInfo, wthor};
use othello::{Color, Engine, EngineConfig, Limits, Scoring};

use super::RulesArg;
use super::atomic::{NotOurs, check_overwrite};
use super::input::MAX_INPUT_BYTES;
use super::records::{RecordsFileError, read_names, read_records};

/// Arguments of `othello convert`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input formats, recognised from the content: move lists (f5d6c3..., one game per line), GGF
((;GM[Othello]...;), any number of games), OBF/FFO position lines, the console protocol's
input (header, grid, ROW COL lines), WTHOR .wtb files.

A WTHOR file's games get their players' and tournament's names from WTHOR.JOU and WTHOR.TRN
beside it (or --players, --tournaments); written to GGF they keep every WTHOR number, their
file's header and the theoretical score in a comment, C[WTHOR ...], that reads back.

Exit status: 0 done, 1 the output could not be written, 2 bad input or usage (a file that
cannot be read, a malformed record, a game the output format cannot hold, or an OUT that is
not a game record or holds more games than are written, without --force).")]
pub struct ConvertArgs {
    /// The file of games; `-` for standard input.
    #[arg(value_name = "IN")]
    input: PathBuf,

    /// The format to write.
    #[arg(long, value_name = "FORMAT", value_parser = format_parser(), default_value = "ggf")]
    to: Format,

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

    /// The WTHOR player file (`WTHOR.JOU`) that names the players of a WTHOR input [default:
    /// WTHOR.JOU beside the input].
    #[arg(long, value_name = "FILE")]
    players: Option<PathBuf>,

    /// The WTHOR tournament file (`WTHOR.TRN`) that names the tournaments of a WTHOR input
    /// [default: WTHOR.TRN beside the input].
    #[arg(long, value_name = "FILE")]
    tournaments: Option<PathBuf>,

    /// Writing WTHOR, solve each game exactly from N empties for its theoretical score (and
    /// write N as the file's depth); without it the scores read are kept, and a game with
    /// none gets its real score, as for a game that never reached the file's depth (0).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=30))]
    wthor_solve: Option<u8>,
}

/// `--to`'s parser: the names of [`Format::ALL`], each with its summary for `--help`, read by
/// [`Format`]'s own `FromStr`.
fn format_parser() -> impl TypedValueParser<Value = Format> {
    let names = Format::ALL
        .into_iter()
        .map(|format| PossibleValue::new(format.name()).help(format.spec().summary));
    PossibleValuesParser::new(names).try_map(|name| name.parse::<Format>())
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
    let (name, mut records) = read_records(
        &args.input,
        args.rules.into(),
        args.game.map(|n| n as usize),
    )?;
    let names = wthor::Names {
        players: args
            .players
            .as_deref()
            .map(read_names)
            .transpose()?
            .unwrap_or_default(),
        tournaments: args
            .tournaments
            .as_deref()
            .map(read_names)
            .transpose()?
            .unwrap_or_default(),
    };
    wthor::name_games(&mut records, &names);
    let format = args.to;
    if format == Format::Protocol && records.len() > 1 {
        return Err(ConvertError::SeveralGames {
            name,
            count: records.len(),
        });
    }
    let header = (format == Format::Wthor).then(|| wthor_header(&mut records, args.wthor_solve));
    let bytes = match header {
        Some(header) => wthor::write(&records, &header),
        None => record::write(&records, format),
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

/// The header of the WTHOR file written: the one the games were read with (from WTHOR, or a
/// GGF comment written from it), else a new one ([`today`]). With `solve`, each game's
/// theoretical score is solved from that many empties, which becomes the header's depth.
fn wthor_header(records: &mut [GameRecord], solve: Option<u8>) -> wthor::Header {
    let mut header = records
        .iter()
        .find_map(|record| record.metadata().wthor.map(|info| info.header))
        .unwrap_or_else(|| today(records.first()));
    let Some(depth) = solve else {
        return header;
    };
    header.depth = depth;
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 64,
        ..EngineConfig::default()
    });
    engine.set_scoring(Scoring::EmptiesToWinner);
    for record in records {
        let real = record
            .metadata()
            .wthor
            .map_or_else(|| wthor::real_black_discs(record), |info| info.black_discs);
        let theoretical = theoretical(&mut engine, record, u32::from(depth)).unwrap_or(real);
        let info = record.metadata().wthor.unwrap_or_default();
        record.metadata_mut().wthor = Some(WthorInfo {
            black_discs: real,
            theoretical_black_discs: theoretical,
            header,
            ..info
        });
    }
    header
}

/// Black's discs with perfect play from the position of `record` with `depth` empties (empty
/// squares to the winner); `None` if the game never had so few empties (or is not 8x8).
fn theoretical(engine: &mut Engine, record: &GameRecord, depth: u32) -> Option<u8> {
    let game = record
        .positions()
        .into_iter()
        .map(|(game, _)| game)
        .chain([record.final_game().clone()])
        .find(|game| game.board().empties() <= depth)?;
    let black_margin = match game.turn() {
        None => {
            let margin = game.margin(Color::Black);
            margin + margin.signum() * game.board().empties() as i32
        }
        Some(turn) => {
            let score = engine.search(&game, &Limits::default()).ok()?.score;
            if turn == Color::Black { score } else { -score }
        }
    };
    Some(wthor::discs_of_margin(black_margin))
}

/// A new WTHOR header dated today, depth 0; the games' year is the year the first game's date
/// starts with, else this year.
fn today(first: Option<&GameRecord>) -> wthor::Header {
    let date = jiff::Zoned::now().date();
    let stated = first
        .and_then(|record| record.metadata().date.as_deref())
        .and_then(|date| date.get(..4))
        .and_then(|year| year.parse::<u16>().ok())
        .filter(|year| (1900..=2100).contains(year));
    let year = stated.unwrap_or(date.year() as u16);
    let this_year = date.year() as u16;
    wthor::Header {
        created: [
            (this_year / 100) as u8,
            (this_year % 100) as u8,
            date.month() as u8,
            date.day() as u8,
        ],
        games_year: year,
        board_size: 8,
        ..wthor::Header::default()
    }
}
