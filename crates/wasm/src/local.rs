//! A local game replayed from its settings and moves: the position, the computer's move and
//! the evaluation move by move.

use std::sync::atomic::AtomicBool;

use othello::notation::parse_square;
use othello::{Color, Dimensions, Game, Played, RuleSet, Setup, Square, WinRule};
use othello_engine::computer::{Computer, Level};
use othello_engine::depth::limits_for_depth;
use othello_engine::{Engine, EngineConfig};
use othello_session::view::PositionView;
use serde::{Deserialize, Serialize};

/// A local game's settings, as the page's new-game form sends them (each may be left out).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct LocalSettings {
    /// The board's side, 4 to 16 (8).
    pub size: Option<usize>,
    /// `full` or `simple` (full).
    pub rules: Option<String>,
    /// `most` or `fewest` (most).
    pub win: Option<String>,
    /// `black` or `white` (black).
    pub first: Option<String>,
}

/// What is wrong with a local game or a request about it.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// The settings are not JSON of the expected shape, or a value is not understood.
    #[error("settings: {0}")]
    Settings(String),
    /// A move is not a square or not legal where it is played.
    #[error("move {number} ({square}): {problem}")]
    Move {
        /// The move's number, from 1.
        number: usize,
        /// The move as given.
        square: String,
        /// What is wrong with it.
        problem: String,
    },
    /// The level is not 1 to 6.
    #[error("level {0}: expected 1 to 6")]
    Level(u8),
    /// The game is over: nobody moves.
    #[error("the game is over")]
    Over,
    /// The engine failed.
    #[error("engine: {0}")]
    Engine(String),
}

/// A local game after its moves: the game, the moves played and what the last one flipped.
struct Replayed {
    game: Game,
    history: Vec<Played>,
    flipped: Vec<Square>,
}

/// The position as the page draws it: the server's view of the position
/// (`othello_session::view`), with the discs of each side.
#[derive(Serialize)]
struct LocalView {
    #[serde(flatten)]
    position: PositionView,
    discs: Discs,
}

#[derive(Serialize)]
struct Discs {
    black: u32,
    white: u32,
}

fn start(settings: &str) -> Result<Game, LocalError> {
    let settings: LocalSettings = if settings.trim().is_empty() {
        LocalSettings::default()
    } else {
        serde_json::from_str(settings).map_err(|error| LocalError::Settings(error.to_string()))?
    };
    let side = settings.size.unwrap_or(8);
    let dims = Dimensions::new(side, side)
        .map_err(|error| LocalError::Settings(format!("size {side}: {error}")))?;
    let rules: RuleSet = settings
        .rules
        .as_deref()
        .unwrap_or("full")
        .parse()
        .map_err(|error| LocalError::Settings(format!("rules: {error}")))?;
    let mut setup = Setup::standard(dims);
    if let Some(win) = settings.win.as_deref() {
        setup.win = win
            .parse::<WinRule>()
            .map_err(|error| LocalError::Settings(format!("win: {error}")))?;
    }
    if let Some(first) = settings.first.as_deref() {
        setup.first = first
            .parse::<Color>()
            .map_err(|error| LocalError::Settings(format!("first: {error}")))?;
    }
    Ok(Game::new(setup, rules))
}

fn replay(settings: &str, moves: &str) -> Result<Replayed, LocalError> {
    let mut game = start(settings)?;
    let mut flipped = Vec::new();
    let mut history = Vec::new();
    for (index, text) in moves.split_whitespace().enumerate() {
        let bad = |problem: String| LocalError::Move {
            number: index + 1,
            square: text.to_owned(),
            problem,
        };
        let square =
            parse_square(text, game.board().dims()).map_err(|error| bad(error.to_string()))?;
        flipped = game.flips(square).map_err(|error| bad(error.to_string()))?;
        history.push(game.play(square).map_err(|error| bad(error.to_string()))?);
    }
    Ok(Replayed {
        game,
        history,
        flipped,
    })
}

/// The position after `moves` from `settings`, as JSON.
///
/// # Errors
/// [`LocalError`] for bad settings or a move that is not legal.
pub fn position(settings: &str, moves: &str) -> Result<String, LocalError> {
    let replayed = replay(settings, moves)?;
    let score = replayed.game.score();
    let view = LocalView {
        position: PositionView::new(&replayed.game, &replayed.history, &replayed.flipped),
        discs: Discs {
            black: score[Color::Black],
            white: score[Color::White],
        },
    };
    serde_json::to_string(&view).map_err(|error| LocalError::Engine(error.to_string()))
}

/// The computer's move at `level` after `moves`, its random choices drawn with `seed`.
///
/// # Errors
/// [`LocalError`] for bad settings, a bad move or level, or a game that is over.
pub fn computer_move(
    settings: &str,
    moves: &str,
    level: u8,
    seed: u64,
) -> Result<Square, LocalError> {
    let game = replay(settings, moves)?.game;
    if game.is_over() {
        return Err(LocalError::Over);
    }
    let level = Level::new(level).ok_or(LocalError::Level(level))?;
    let mut computer = Computer::new(level, seed);
    let choice = computer
        .choose(&game, &AtomicBool::new(false))
        .map_err(|error| LocalError::Engine(error.to_string()))?;
    Ok(choice.square)
}

/// The evaluation, in discs from black's point of view, after each prefix of `moves` (the
/// start position first), each searched `depth` plies deep; a finished game scores its margin.
///
/// # Errors
/// [`LocalError`] for bad settings or a bad move.
pub fn evaluations(settings: &str, moves: &str, depth: u32) -> Result<Vec<i32>, LocalError> {
    let moves: Vec<&str> = moves.split_whitespace().collect();
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 8,
        threads: 1,
        seed: 1,
    });
    let mut scores = Vec::with_capacity(moves.len() + 1);
    for played in 0..=moves.len() {
        let game = replay(settings, &moves[..played].join(" "))?.game;
        let score = match game.turn() {
            None => game.margin(Color::Black),
            Some(to_move) => {
                let limits = limits_for_depth(depth, game.board().empties());
                let report = engine
                    .search(&game, &limits)
                    .map_err(|error| LocalError::Engine(error.to_string()))?;
                if to_move == Color::Black {
                    report.score
                } else {
                    -report.score
                }
            }
        };
        scores.push(score);
    }
    Ok(scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_four_legal_moves_and_black_to_move() {
        let view: serde_json::Value = serde_json::from_str(&position("{}", "").unwrap()).unwrap();
        assert_eq!(view["turn"], "black");
        assert_eq!(view["legal"], serde_json::json!(["d3", "c4", "f5", "e6"]));
        assert_eq!(view["board"][3], "...wb...");
        assert_eq!(view["moves"], 0);
    }

    #[test]
    fn a_move_flips_and_hands_the_turn_on() {
        let view: serde_json::Value =
            serde_json::from_str(&position(r#"{"size":8}"#, "f5").unwrap()).unwrap();
        assert_eq!(view["turn"], "white");
        assert_eq!(view["last"], "f5");
        assert_eq!(view["history"][0]["square"], "f5");
        assert_eq!(view["history"][0]["player"], "black");
        assert_eq!(view["flipped"], serde_json::json!(["e5"]));
        assert_eq!(view["discs"]["black"], 4);
    }

    #[test]
    fn bad_moves_and_settings_are_named() {
        assert!(
            position("{}", "f5 a1")
                .unwrap_err()
                .to_string()
                .starts_with("move 2 (a1): ")
        );
        assert!(
            position(r#"{"size":3}"#, "")
                .unwrap_err()
                .to_string()
                .starts_with("settings: size 3")
        );
        assert!(
            position(r#"{"rules":"chess"}"#, "")
                .unwrap_err()
                .to_string()
                .starts_with("settings: rules")
        );
        assert!(matches!(
            computer_move("{}", "", 7, 1),
            Err(LocalError::Level(7))
        ));
    }

    #[test]
    fn the_computer_plays_a_legal_move_at_every_level() {
        for level in 1..=6 {
            let square = computer_move("{}", "f5", level, 3).unwrap();
            let view: serde_json::Value =
                serde_json::from_str(&position("{}", "f5").unwrap()).unwrap();
            assert!(
                view["legal"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|legal| legal == &square.to_string())
            );
        }
    }

    #[test]
    fn a_finished_game_is_evaluated_move_by_move_ending_in_its_margin() {
        // A 4x4 game to its end, the computer playing both sides.
        let settings = r#"{"size":4}"#;
        let mut moves = Vec::new();
        while let Ok(square) = computer_move(settings, &moves.join(" "), 2, 1) {
            moves.push(square.to_string());
        }
        let scores = evaluations(settings, &moves.join(" "), 4).unwrap();
        assert_eq!(scores.len(), moves.len() + 1);
        let end: serde_json::Value =
            serde_json::from_str(&position(settings, &moves.join(" ")).unwrap()).unwrap();
        let margin =
            end["discs"]["black"].as_i64().unwrap() - end["discs"]["white"].as_i64().unwrap();
        assert_eq!(i64::from(*scores.last().unwrap()), margin);
    }
}
