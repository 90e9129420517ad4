//! `othello analyze`: the engine's review of recorded games, move by move.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::path::PathBuf;

use clap::Args;
use indicatif::ProgressBar;
use serde_json::{Value, json};
use thiserror::Error;

use othello::text::counted;
use othello::{Color, WinRule};
use othello_engine::analysis::{
    AnalysisOptions, GameAnalysis, MoveAnalysis, PlayerSummary, analyze,
};
use othello_engine::{Engine, EngineConfig, EngineError};
use othello_records::GameRecord;

use super::RulesArg;
use othello_io::progress;
use othello_io::records::{RecordsFile, RecordsFileError};

/// Arguments of `othello analyze`.
#[derive(Debug, Args)]
#[command(after_help = "\
For every move: the engine's best move and its value, the value of the move played and the
discs it lost, from the mover's point of view, and the value of the second-best move (the best
of the others). Positions with at most --exact-from empties are solved exactly (default 20 up to 8x8, fewer on bigger boards); earlier ones are searched
--depth plies deep (default 10 up to 8x8, 8 beyond). A mistake loses discs against perfect
play, or at least 4 discs by the evaluation (marked ?); the only good move beats every other by
at least 1 disc exactly, or 4 by the evaluation (marked !).

Exit status: 0 done, 1 the output failed, 2 bad input or usage (including a file that cannot be
read).")]
pub struct AnalyzeArgs {
    /// The file of games, in any format `othello convert` reads; `-` for standard input.
    #[arg(value_name = "FILE")]
    file: PathBuf,

    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,

    /// Solve exactly the positions with at most N empty squares.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=256))]
    exact_from: Option<u32>,

    /// Search depth, in plies, before the exact positions.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,

    /// Only game N (1-based) of the file.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    game: Option<u32>,

    /// Rule set of inputs that do not name one (move lists without `simple`, protocol
    /// inputs, OBF lines).
    #[arg(long, value_enum, ignore_case = true, default_value_t = RulesArg::Full)]
    rules: RulesArg,

    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,

    /// Transposition table size in MiB, at most half of the machine's memory.
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = super::parse_hash)]
    hash: u32,
}

/// Why `othello analyze` stopped.
#[derive(Debug, Error)]
pub enum AnalyzeError {
    /// The file could not be read, or is not a record.
    #[error(transparent)]
    Input(#[from] RecordsFileError),
    /// The engine refused a search.
    #[error("the engine cannot search: {0}")]
    Engine(EngineError),
    /// Standard output could not be written.
    #[error("cannot write standard output: {0}")]
    Write(io::Error),
}

impl AnalyzeError {
    /// 1 for a file or output failure, 2 for bad input.
    pub fn exit_status(&self) -> u8 {
        match self {
            AnalyzeError::Input(error) => error.exit_status(),
            AnalyzeError::Engine(_) | AnalyzeError::Write(_) => 1,
        }
    }

    /// Whether standard output was closed by its reader (not worth a message).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, AnalyzeError::Write(error) if error.kind() == io::ErrorKind::BrokenPipe)
    }
}

/// Runs `othello analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<(), AnalyzeError> {
    let file = RecordsFile::open(&args.file, args.rules.into())?;
    let mut records = file.games(args.game.map(|n| n as usize))?;
    let mut engine = Engine::try_new(EngineConfig {
        hash_mb: args.hash as usize,
        threads: args.threads as usize,
        seed: 0,
    })
    .map_err(AnalyzeError::Engine)?;
    let mut out = io::stdout().lock();
    let mut games = Vec::new();
    while let Some(record) = records.next() {
        let record = &record;
        let number = records.number();
        let defaults = AnalysisOptions::for_board(record.dims());
        let options = AnalysisOptions {
            exact_from: args.exact_from.unwrap_or(defaults.exact_from),
            depth: args.depth.unwrap_or(defaults.depth),
        };
        let bar = progress_bar(number, record);
        let analysis = analyze(record, &options, &mut engine, &mut |done, _| {
            bar.set_position(done as u64);
        })
        .map_err(AnalyzeError::Engine)?;
        bar.finish_and_clear();
        if args.json {
            games.push(game_json(number, record, &analysis));
        } else {
            let text = table(number, record, &analysis);
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .map_err(AnalyzeError::Write)?;
        }
    }
    records.finish()?;
    if args.json {
        let text = serde_json::to_string_pretty(&json!({ "games": games }))
            .expect("JSON values always serialise");
        writeln!(out, "{text}")
            .and_then(|()| out.flush())
            .map_err(AnalyzeError::Write)?;
    }
    Ok(())
}

/// The one progress display (on standard error, drawn only when it is a terminal), counting
/// the moves of game `number`.
fn progress_bar(number: usize, record: &GameRecord) -> ProgressBar {
    progress::bar(
        record.squares().count() as u64,
        &format!("moves of game {number}"),
    )
}

/// `Ann (black)`, or `Black` without a name.
fn player(record: &GameRecord, color: Color) -> String {
    let name = match color {
        Color::Black => &record.metadata().black,
        Color::White => &record.metadata().white,
    };
    match name {
        Some(name) => format!("{name} ({})", color.name()),
        None => capitalized(color.name()),
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `black wins by 20`, `white wins with 6 fewer`, `a draw`, from black's margin.
fn verdict(margin: i32, win: WinRule) -> String {
    let winner = if margin > 0 { "black" } else { "white" };
    match (margin, win) {
        (0, _) => "a draw".to_owned(),
        (_, WinRule::MostDiscs) => format!("{winner} wins by {}", margin.abs()),
        (_, WinRule::FewestDiscs) => format!("{winner} wins with {} fewer", margin.abs()),
    }
}

fn table(number: usize, record: &GameRecord, analysis: &GameAnalysis) -> String {
    let setup = record.setup();
    let mut text = format!(
        "Game {number}: {} - {}, {} {} rules, {} discs wins, {}\n",
        player(record, Color::Black),
        player(record, Color::White),
        record.dims(),
        record.rules(),
        setup.win,
        counted(analysis.moves.len(), "move", "moves"),
    );
    let _ = writeln!(
        text,
        "{:>5} {:<6} {:>7}  {:>5} {:>6}  {:>4} {:>6} {:>6} {:>5}  search",
        "#", "player", "empties", "move", "value", "best", "value", "2nd", "loss"
    );
    for analysed in &analysis.moves {
        text.push_str(&row(analysed));
    }
    for color in Color::ALL {
        text.push_str(&summary_line(
            &player(record, color),
            &analysis.summary[color],
        ));
    }
    if let Some(theoretical) = analysis.theoretical {
        let empties = analysis.moves[theoretical.from_move - 1].empties;
        let _ = writeln!(
            text,
            "Perfect play from move {} ({empties} empties): {}.",
            theoretical.from_move,
            verdict(theoretical.black_margin, setup.win)
        );
    }
    let end = record.final_game();
    let score = end.score();
    let how = if end.is_over() {
        verdict(analysis.final_black_margin, setup.win)
    } else {
        "not finished".to_owned()
    };
    let _ = writeln!(
        text,
        "Game result: black {} - {} white, {how}.\n",
        score.black, score.white
    );
    text
}

fn row(analysed: &MoveAnalysis) -> String {
    let search = if analysed.exact {
        "exact".to_owned()
    } else {
        format!("depth {}", analysed.depth)
    };
    let mark = if analysed.is_mistake() {
        "?"
    } else if analysed.is_only_good_move() {
        "!"
    } else {
        " "
    };
    let second = analysed
        .second_value
        .map_or_else(|| "-".to_owned(), |value| format!("{value:+}"));
    format!(
        "{:>5} {:<6} {:>7}  {:>4}{mark} {:>+6}  {:>4} {:>+6} {second:>6} {:>5}  {search}\n",
        analysed.number,
        analysed.player.name(),
        analysed.empties,
        analysed.played.to_string(),
        analysed.played_value,
        analysed.best.to_string(),
        analysed.best_value,
        analysed.loss,
    )
}

fn summary_line(name: &str, summary: &PlayerSummary) -> String {
    let worst = match summary.worst {
        Some((number, square, loss)) => format!("worst move {number}, {square} (-{loss})"),
        None => "no move lost discs".to_owned(),
    };
    let worst = match summary.best {
        Some((number, square, gain)) => {
            format!("best move {number}, {square} (+{gain} over the next best), {worst}")
        }
        None => worst,
    };
    format!(
        "{name}: {}, {} as good as the engine's, {}, {} lost; {worst}.\n",
        counted(summary.moves, "move", "moves"),
        summary.best_moves,
        counted(summary.mistakes, "mistake", "mistakes"),
        counted(summary.total_loss, "disc", "discs"),
    )
}

fn game_json(number: usize, record: &GameRecord, analysis: &GameAnalysis) -> Value {
    let metadata = record.metadata();
    let moves: Vec<Value> = analysis
        .moves
        .iter()
        .map(|analysed| {
            json!({
                "number": analysed.number,
                "player": analysed.player.name(),
                "empties": analysed.empties,
                "played": analysed.played.to_string(),
                "played_value": analysed.played_value,
                "best": analysed.best.to_string(),
                "best_value": analysed.best_value,
                "second_value": analysed.second_value,
                "gain": analysed.gain(),
                "loss": analysed.loss,
                "mistake": analysed.is_mistake(),
                "only_good_move": analysed.is_only_good_move(),
                "exact": analysed.exact,
                "depth": analysed.depth,
            })
        })
        .collect();
    let summary = |color: Color| {
        let summary = &analysis.summary[color];
        json!({
            "moves": summary.moves,
            "best_moves": summary.best_moves,
            "mistakes": summary.mistakes,
            "total_loss": summary.total_loss,
            "worst": summary.worst.map(|(number, square, loss)| json!({
                "number": number,
                "square": square.to_string(),
                "loss": loss,
            })),
            "best": summary.best.map(|(number, square, gain)| json!({
                "number": number,
                "square": square.to_string(),
                "gain": gain,
            })),
        })
    };
    let end = record.final_game();
    json!({
        "game": number,
        "black": metadata.black,
        "white": metadata.white,
        "board": record.dims().to_string(),
        "rules": record.rules().to_string(),
        "win": record.setup().win.name(),
        "moves": moves,
        "summary": { "black": summary(Color::Black), "white": summary(Color::White) },
        "theoretical": analysis.theoretical.map(|theoretical| json!({
            "from_move": theoretical.from_move,
            "black_margin": theoretical.black_margin,
        })),
        "final": {
            "black": end.score().black,
            "white": end.score().white,
            "over": end.is_over(),
            "black_margin": analysis.final_black_margin,
        },
    })
}
