//! `othello convert`: reads game records in any format and writes them in another.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use thiserror::Error;

use othello::Color;
use othello::text::counted;
use othello_engine::{Engine, EngineConfig, Limits, Scoring};
use othello_records::{
    self as record, Format, GameRecord, ReadOptions, WriteError, WthorInfo, wthor,
};

use super::RulesArg;
use othello_io::atomic::{AtomicFile, NotOurs, check_overwrite};
use othello_io::input::MAX_INPUT_BYTES;
use othello_io::records::{RecordsFile, RecordsFileError, read_names};

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
    #[arg(
        long,
        value_name = "FORMAT",
        value_parser = format_parser(),
        ignore_case = true,
        default_value = "ggf"
    )]
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
    #[arg(long, value_enum, ignore_case = true, default_value_t = RulesArg::Full)]
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

/// Runs `othello convert`: the games are read, converted and written one at a time, so that
/// memory stays a small multiple of the input's size whatever the number of games.
pub fn run(args: &ConvertArgs) -> Result<(), ConvertError> {
    let mut file = RecordsFile::open(&args.input, args.rules.into())?;
    file.add_names(wthor::Names {
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
    });
    let game = args.game.map(|n| n as usize);
    let format = args.to;
    // The protocol input holds one game, and WTHOR's header counts them: a first pass counts
    // them (and finds the header WTHOR games were read with) before anything is written.
    let mut wthor = None;
    if matches!(format, Format::Protocol | Format::Wthor) {
        let (count, header) = count_games(&file, game)?;
        if format == Format::Protocol && count > 1 {
            return Err(ConvertError::SeveralGames {
                name: file.name().to_owned(),
                count,
            });
        }
        if format == Format::Wthor {
            let mut header = header;
            if let Some(depth) = args.wthor_solve {
                header.depth = depth;
            }
            wthor = Some(Wthor {
                header,
                count,
                solver: args.wthor_solve.map(|depth| (solver(), u32::from(depth))),
            });
        }
    }
    let Some(path) = &args.output else {
        if format == Format::Wthor && io::stdout().is_terminal() {
            return Err(ConvertError::BinaryToTerminal);
        }
        let mut out = io::BufWriter::new(io::stdout().lock());
        write_games(&file, game, format, wthor, &mut out, ConvertError::Stdout)?;
        return out.flush().map_err(ConvertError::Stdout);
    };
    let old_games = old_games(path, args)?;
    let file_error = |source| ConvertError::WriteFile {
        path: path.clone(),
        source,
    };
    let mut out = AtomicFile::create(path).map_err(file_error)?;
    let written = write_games(&file, game, format, wthor, &mut out, file_error)?;
    if let Some(old) = old_games.filter(|&old| old > written) {
        return Err(ConvertError::NotOurs(NotOurs {
            path: path.clone(),
            found: format!(
                "holds {}, more than the {written} written",
                counted(old, "game", "games")
            ),
            forceable: true,
        }));
    }
    out.commit().map_err(file_error)
}

/// What writing WTHOR needs before the games: the header, the number of games, and the engine
/// that solves each game's theoretical score from the header's depth, when asked.
struct Wthor {
    header: wthor::Header,
    count: usize,
    solver: Option<(Engine, u32)>,
}

/// The games `file.games(game)` gives, counted, and the header of the WTHOR file they were read
/// from, else a new one ([`today`]).
fn count_games(
    file: &RecordsFile,
    game: Option<usize>,
) -> Result<(usize, wthor::Header), ConvertError> {
    let mut games = file.games(game)?;
    let mut count = 0;
    let mut read_with = None;
    let mut first_date = None;
    for record in games.by_ref() {
        if count == 0 {
            first_date.clone_from(&record.metadata().date);
        }
        count += 1;
        read_with = read_with.or(record.metadata().wthor.map(|info| info.header));
    }
    games.finish()?;
    Ok((
        count,
        read_with.unwrap_or_else(|| today(first_date.as_deref())),
    ))
}

/// How many games the file OUT holds, when it is a game record this command may replace by as
/// many games or more (none to compare with `--force`, or when there is no such file).
fn old_games(path: &Path, args: &ConvertArgs) -> Result<Option<usize>, NotOurs> {
    let mut count = None;
    check_overwrite(path, args.force, MAX_INPUT_BYTES, |old| {
        let options = ReadOptions {
            rules: args.rules.into(),
        };
        let mut games = 0;
        for game in record::games(old, &options) {
            game.map_err(|error| format!("not a game record ({error})"))?;
            games += 1;
        }
        count = Some(games);
        Ok(())
    })?;
    Ok(count)
}

/// Writes the games `file.games(game)` gives to `out` in `format` (WTHOR with `wthor`), one at a
/// time; `io_error` says what a failure to write is. Returns the number of games written.
fn write_games(
    file: &RecordsFile,
    game: Option<usize>,
    format: Format,
    mut wthor: Option<Wthor>,
    out: &mut impl Write,
    io_error: impl Fn(io::Error) -> ConvertError,
) -> Result<usize, ConvertError> {
    let mut games = file.games(game)?;
    if let Some(wthor) = &wthor {
        out.write_all(&wthor::header_bytes(&wthor.header, wthor.count))
            .map_err(&io_error)?;
    }
    let mut bytes = Vec::new();
    let mut written = 0;
    for mut record in games.by_ref() {
        if let Some(Wthor {
            header,
            solver: Some((engine, depth)),
            ..
        }) = &mut wthor
        {
            solve_theoretical(engine, &mut record, *header, *depth);
        }
        bytes.clear();
        (format.spec().write_game)(written, &record, &mut bytes).map_err(|source| {
            ConvertError::Unwritable {
                name: file.name().to_owned(),
                source,
            }
        })?;
        out.write_all(&bytes).map_err(&io_error)?;
        written += 1;
    }
    games.finish()?;
    Ok(written)
}

/// The engine that solves games for their theoretical score: empty squares to the winner.
fn solver() -> Engine {
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 64,
        ..EngineConfig::default()
    });
    engine.set_scoring(Scoring::EmptiesToWinner);
    engine
}

/// Gives `record` its theoretical score, solved from `depth` empties (its real score when the
/// game never had so few), and `header`.
fn solve_theoretical(
    engine: &mut Engine,
    record: &mut GameRecord,
    header: wthor::Header,
    depth: u32,
) {
    let real = record
        .metadata()
        .wthor
        .map_or_else(|| wthor::real_black_discs(record), |info| info.black_discs);
    let theoretical = theoretical(engine, record, depth).unwrap_or(real);
    let info = record.metadata().wthor.unwrap_or_default();
    record.metadata_mut().wthor = Some(WthorInfo {
        black_discs: real,
        theoretical_black_discs: theoretical,
        header,
        ..info
    });
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
fn today(first_date: Option<&str>) -> wthor::Header {
    let date = jiff::Zoned::now().date();
    let stated = first_date
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
