//! `othello play`: a game at the terminal, against a person or the computer.
//!
//! Arguments are checked and turned into the line dialogue (`dialogue::Dialogue`) or the full
//! screen before anything is printed; either then runs the game loop on the terminal or on
//! standard input and output.

mod dialogue;
mod lines;
mod results;
pub mod saved;
mod screen;
mod thinking;
mod tty;
mod view;
mod wrap;

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::ValueEnum;
use thiserror::Error;

use othello::{ByColor, Color, Dimensions, Game, RuleSet, Setup, WinRule};
use othello_records::GameRecord;

use dialogue::Dialogue;
use lines::{Piped, Typed};
use othello_engine::EngineError;
use othello_engine::computer::Level;
use othello_io::book::BookFileError;
use othello_io::input::{SetupFileError, read_setup};
use othello_io::options::RulesArg;
use othello_io::records::{RecordsFile, RecordsFileError};
use othello_session::seats::Seating;
use othello_session::{Controller, Name, Player};
use results::ResultsFile;
use thinking::Thinking;
use view::Palette;
use wrap::Wrapping;

/// Play Othello at the terminal against a person or the computer.
///
/// Moves are typed as d3, D3, 3d or "3 4" (row, column); type help during the game for the
/// commands (moves, hint, undo, pass, new, save, quit).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 when the player quits or the input ends, 1 if standard input or output fails, 2 for bad usage (including an unreadable --from, --load or --log file)."
)]
pub struct PlayArgs {
    /// Board size, rows x columns, each an even number from 4 to 16.
    #[arg(long, value_name = "RxC", default_value = "8x8")]
    size: Dimensions,

    /// Rule set: standard Othello, or flipping only the neighbours of a move.
    #[arg(long, value_enum, ignore_case = true, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    /// Who moves first.
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        value_name = "COLOR",
        default_value_t = ColorArg::Black
    )]
    first: ColorArg,

    /// Whether most or fewest discs wins.
    #[arg(long, value_enum, ignore_case = true, default_value_t = WinArg::Most)]
    win: WinArg,

    /// Who plays black: human, computer, or computer:LEVEL (1 weakest to 6 strongest; 3 by
    /// default). By default human, or who played black in the --load game.
    #[arg(long, value_name = "PLAYER")]
    black: Option<Controller>,

    /// Who plays white: human, computer, or computer:LEVEL. By default the computer, or who
    /// played white in the --load game.
    #[arg(long, value_name = "PLAYER")]
    white: Option<Controller>,

    /// Black's name (by default "Black", or "Computer" against a person).
    #[arg(long, value_name = "NAME")]
    black_name: Option<Name>,

    /// White's name (by default "White", or "Computer" against a person).
    #[arg(long, value_name = "NAME")]
    white_name: Option<Name>,

    /// Start from the position in FILE, written as the protocol's header and grid (rows,
    /// columns, first player B or W, win rule > or <, then the board).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "first", "win"])]
    from: Option<PathBuf>,

    /// Continue the game saved in FILE from its last position (any format `othello convert`
    /// reads; the first game of the file). Undo can take back its moves.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["size", "first", "win", "from"])]
    load: Option<PathBuf>,

    /// Write the game to FILE when it ends (and on the save command): GGF, or by the name's
    /// extension .txt a move list, .in the protocol input, .obf the last position, .wtb WTHOR.
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,

    /// Append one line per finished game to FILE (othello-results.txt if no FILE is given).
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = results::DEFAULT_FILE)]
    log: Option<PathBuf>,

    /// When to colour the board: auto colours only a terminal, and not when `NO_COLOR` is set.
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        value_name = "WHEN",
        default_value_t = ColorChoiceArg::Auto
    )]
    color: ColorChoiceArg,

    /// Seed for the computer's choices, so that a game can be replayed (by default, from the
    /// clock).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,

    /// Use the line dialogue even on a terminal (it is always used when standard input or
    /// output is not a terminal).
    #[arg(long)]
    line: bool,

    /// Pause SECS seconds before each move of a game between two computer players (by
    /// default half a second when the game is shown on a terminal, none otherwise).
    #[arg(long, value_name = "SECS", value_parser = parse_delay)]
    delay: Option<Duration>,

    #[command(flatten)]
    book: othello_io::book::UseBookArgs,
}

/// The pause watched games make by default on a terminal.
const WATCHING_DELAY: Duration = Duration::from_millis(500);

fn parse_delay(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .and_then(|secs| Duration::try_from_secs_f64(secs).ok())
        .filter(|delay| *delay <= Duration::from_secs(3600))
        .ok_or_else(|| format!("expected a number of seconds from 0 to 3600, found {text:?}"))
}

/// A colour as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorArg {
    Black,
    White,
}

impl From<ColorArg> for Color {
    fn from(arg: ColorArg) -> Color {
        match arg {
            ColorArg::Black => Color::Black,
            ColorArg::White => Color::White,
        }
    }
}

/// A win rule as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum WinArg {
    /// Most discs wins.
    Most,
    /// Fewest discs wins.
    Fewest,
}

impl From<WinArg> for WinRule {
    fn from(arg: WinArg) -> WinRule {
        match arg {
            WinArg::Most => WinRule::MostDiscs,
            WinArg::Fewest => WinRule::FewestDiscs,
        }
    }
}

/// When to use colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorChoiceArg {
    Auto,
    Always,
    Never,
}

/// Why `othello play` could not start.
#[derive(Debug, Error)]
pub enum PlayError {
    /// The `--from` file could not be read or is not a setup.
    #[error(transparent)]
    From(#[from] SetupFileError),
    /// The `--load` file could not be read or holds no game.
    #[error(transparent)]
    Load(#[from] RecordsFileError),
    /// The `--book` file could not be read or is not a book.
    #[error(transparent)]
    Book(#[from] BookFileError),
    /// The `--save` file is one no game can be written to.
    #[error("cannot save to {path}: {reason}", path = .path.display())]
    Save {
        /// The file.
        path: PathBuf,
        /// Why not.
        reason: &'static str,
    },
    /// The results file could not be opened for appending.
    #[error("cannot open results file {path}: {error}", path = .path.display())]
    OpenResults {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        error: io::Error,
    },
    /// Standard input (or the terminal) could not be read.
    #[error("cannot read standard input: {0}")]
    Read(io::Error),
    /// Standard output (or the terminal) could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
    /// The game of a match between two computers could not be saved.
    #[error(transparent)]
    SaveGame(saved::SaveError),
    /// The engine could not search (a position without a move).
    #[error("the computer cannot move: {0}")]
    Engine(EngineError),
}

impl PlayError {
    /// The exit status: 2 for what the command line named (a file that cannot be read, a
    /// `--save` file no game can be written to), 1 for a failure while playing.
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        match self {
            PlayError::From(_)
            | PlayError::Load(_)
            | PlayError::Save { .. }
            | PlayError::OpenResults { .. } => 2,
            PlayError::Book(error) => error.exit_status(),
            PlayError::Read(_)
            | PlayError::Write(_)
            | PlayError::SaveGame(_)
            | PlayError::Engine(_) => 1,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    #[must_use]
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, PlayError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Plays games on standard input and output until the player quits or the input ends.
///
/// # Errors
/// [`PlayError`]: a named file that cannot be used, or a failure of the terminal while playing.
pub fn run(args: PlayArgs) -> Result<(), PlayError> {
    let loaded = match &args.load {
        Some(path) => Some(read_record(path, args.rules.into())?),
        None => None,
    };
    if let Some(path) = &args.save {
        check_save_path(path)?;
    }
    let book = args.book.choice()?;
    let settled = settles_the_game(&args);
    let setup = match &args.from {
        Some(path) => read_setup(path, None).map_err(PlayError::From)?,
        None => Setup {
            first: args.first.into(),
            win: args.win.into(),
            ..Setup::standard(args.size)
        },
    };
    let results = match &args.log {
        Some(path) => Some(
            ResultsFile::open(path).map_err(|error| PlayError::OpenResults {
                path: path.clone(),
                error,
            })?,
        ),
        None => None,
    };
    let players = players_of(&args, loaded.as_ref());
    let colour = match args.color {
        ColorChoiceArg::Always => true,
        ColorChoiceArg::Never => false,
        ColorChoiceArg::Auto => {
            anstream::AutoStream::choice(&io::stdout()) != anstream::ColorChoice::Never
        }
    };
    let seed = args.seed.unwrap_or_else(clock_seed);
    let game = match &loaded {
        Some(record) => record.start_game(),
        None => Game::new(setup, args.rules.into()),
    };
    let on_terminal = io::stdout().is_terminal();
    let delay = args.delay.unwrap_or(if on_terminal {
        WATCHING_DELAY
    } else {
        Duration::ZERO
    });
    let full_screen = on_terminal && io::stdin().is_terminal() && !args.line;
    if full_screen {
        let options = screen::Options {
            colour,
            seed,
            delay,
            ask: !settled,
            save: args.save,
            loaded: loaded.zip(args.load.map(|path| path.display().to_string())),
            book,
        };
        return screen::run(game, players, results, options);
    }

    let typed = io::stdin().is_terminal() && on_terminal;
    let thinking = thinking_for(typed)?;
    let stdout = io::stdout();
    let mut output = BufWriter::new(stdout.lock());
    let mut dialogue = Dialogue::new(
        game,
        players,
        Palette::new(colour),
        seed,
        results,
        thinking,
        !io::stdin().is_terminal(),
    )
    .with_delay(delay)
    .with_book(book);
    dialogue.set_save(args.save);
    if let (Some(record), Some(path)) = (&loaded, &args.load) {
        dialogue.continue_from(record, &path.display().to_string());
    }
    let result = if typed {
        // A person types at a terminal: line editing, and lines that fit the screen.
        let width = ratatui::crossterm::terminal::size()
            .map_or(MAX_LINE_WIDTH, |(columns, _)| usize::from(columns))
            .min(MAX_LINE_WIDTH);
        let mut wrapped = Wrapping::new(&mut output, width);
        let result = Typed::new().and_then(|input| dialogue.run(input, &mut wrapped));
        result.and(wrapped.flush().map_err(PlayError::Write))
    } else {
        dialogue.run(Piped::new(io::stdin().lock()), &mut output)
    };
    let flushed = output.flush().map_err(PlayError::Write);
    result.and(flushed)
}

/// Refuses a `--save` file no game can be written to, before the game starts: a directory, a
/// device, or a file in a directory that does not exist.
fn check_save_path(path: &Path) -> Result<(), PlayError> {
    let refuse = |reason| PlayError::Save {
        path: path.to_owned(),
        reason,
    };
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => Err(refuse("it is a directory")),
        Ok(metadata) if !metadata.is_file() => Err(refuse("not a regular file")),
        Ok(_) => Ok(()),
        Err(_) => match path
            .parent()
            .filter(|parent| !parent.as_os_str().is_empty())
        {
            Some(parent) if !parent.is_dir() => Err(refuse("no such directory")),
            _ => Ok(()),
        },
    }
}

/// Who plays each side when neither the options nor a loaded game say: a person against the
/// computer.
const DEFAULT_SEATS: ByColor<Controller> = ByColor {
    black: Controller::Human,
    white: Controller::Computer(Level::DEFAULT),
};

/// The players the options name; a loaded game keeps its players (their names, and who sat at
/// each side when its record says) where the options name no others.
fn players_of(args: &PlayArgs, loaded: Option<&GameRecord>) -> ByColor<Player> {
    let mut seating = loaded.map(Seating::of).unwrap_or_default();
    for (color, controller, name) in [
        (Color::Black, args.black, &args.black_name),
        (Color::White, args.white, &args.white_name),
    ] {
        if controller.is_some() {
            seating.controllers[color] = controller;
        }
        if name.is_some() {
            seating.names[color].clone_from(name);
        }
    }
    seating.players(DEFAULT_SEATS)
}

/// How the line dialogue shows the computer thinking; when a person types at a terminal
/// (`typed`), Ctrl-C stops it and keys typed meanwhile wait quietly for the prompt.
fn thinking_for(typed: bool) -> Result<Thinking, PlayError> {
    let mut thinking = Thinking {
        spinner: io::stderr().is_terminal(),
        ..Thinking::default()
    };
    if typed {
        let interrupt = tty::termination_flag().map_err(PlayError::Write)?;
        tty::save_cooked();
        tty::watch_signals(std::sync::Arc::clone(&interrupt));
        thinking.quiet_keys = true;
        thinking.interrupt = Some(interrupt);
    }
    Ok(thinking)
}

/// The first game of the file at `path`.
fn read_record(path: &Path, rules: RuleSet) -> Result<GameRecord, PlayError> {
    Ok(RecordsFile::open(path, rules)?.first()?)
}

/// The longest line the dialogue writes to a person at a terminal.
const MAX_LINE_WIDTH: usize = 80;

/// Whether the command line chose anything about the game (the board, the rules, the players
/// or their names); if not, the full screen asks first.
fn settles_the_game(args: &PlayArgs) -> bool {
    args.from.is_some()
        || args.size != Dimensions::STANDARD
        || args.rules != RulesArg::Full
        || args.first != ColorArg::Black
        || args.win != WinArg::Most
        || args.black.is_some_and(|black| black != DEFAULT_SEATS.black)
        || args.white.is_some_and(|white| white != DEFAULT_SEATS.white)
        || args.black_name.is_some()
        || args.white_name.is_some()
}

/// A seed that differs from run to run.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as u64)
}
