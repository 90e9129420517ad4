//! `GET /api/games/{id}/analysis`: the engine's evaluation after each move of a game, for the
//! page's chart. Each position is searched to a small fixed depth (the last [`EXACT_FROM`]
//! empties solved exactly), on a blocking thread, and at most [`AT_ONCE`] games are evaluated at a time: a
//! request beyond is refused as busy rather than queued.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::Semaphore;

use othello::{Color, Game};
use othello_engine::{Engine, EngineConfig, EngineError, Limits};

use super::{ApiError, Server, entry};

/// Games evaluated at the same time, across all clients.
const AT_ONCE: usize = 2;

/// Positions with at most this many empty squares are solved exactly.
const EXACT_FROM: u32 = 12;

/// The transposition table of each evaluation, in MiB.
const HASH_MB: usize = 8;

static EVALUATING: Semaphore = Semaphore::const_new(AT_ONCE);

/// The chart's data: one point per move.
#[derive(Serialize)]
struct Analysis {
    /// The search depth of positions not solved exactly, in plies.
    depth: u32,
    /// The evaluation after each move.
    points: Vec<Point>,
}

/// The position after one move.
#[derive(Serialize)]
struct Point {
    /// The move's number, from 1.
    #[serde(rename = "move")]
    number: usize,
    /// The square played.
    square: String,
    /// Who played it.
    player: &'static str,
    /// The value for Black in discs (positive: Black ahead): the final margin when the game is
    /// over; an evaluation is kept within the board's squares, as a margin is.
    black: i32,
    /// Whether `black` is exact (the game is over, or solved to its end).
    exact: bool,
}

/// Plies searched from each position: fewer on bigger boards, where each costs more.
fn depth_for(cells: usize) -> u32 {
    match cells {
        0..=64 => 6,
        65..=144 => 4,
        _ => 3,
    }
}

pub(super) async fn analysis(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (_, entry) = entry(&server, &id).await?;
    let record = entry.game.lock().await.record(None);
    let Ok(_permit) = EVALUATING.try_acquire() else {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is evaluating other games: try again in a moment",
        ));
    };
    let depth = depth_for(record.dims().cells());
    let evaluated = tokio::task::spawn_blocking(move || {
        let positions = record.positions();
        let mut afters: Vec<Game> = positions
            .iter()
            .skip(1)
            .map(|(game, _)| game.clone())
            .collect();
        afters.push(record.final_game().clone());
        evaluate(&positions, &afters, depth)
    })
    .await
    .map_err(|error| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()))?
    .map_err(|error| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()))?;
    Ok(Json(Analysis {
        depth,
        points: evaluated,
    })
    .into_response())
}

/// The points of the moves `positions` (each position before its move) and `afters` (the
/// position after each).
fn evaluate(
    positions: &[(Game, othello::Square)],
    afters: &[Game],
    depth: u32,
) -> Result<Vec<Point>, EngineError> {
    let mut engine = Engine::try_new(EngineConfig {
        hash_mb: HASH_MB,
        threads: 1,
        ..EngineConfig::default()
    })?;
    let cells = afters.first().map_or(0, |game| {
        i32::try_from(game.board().dims().cells()).unwrap_or(i32::MAX)
    });
    let mut points = Vec::with_capacity(afters.len());
    for (index, ((before, square), after)) in positions.iter().zip(afters).enumerate() {
        let player = before.turn().unwrap_or(Color::Black);
        let (black, exact) = match after.turn() {
            None => (after.margin(Color::Black), true),
            Some(mover) => {
                let limits = if after.board().empties() <= EXACT_FROM {
                    Limits::exact()
                } else {
                    Limits::depth(depth)
                };
                let report = engine.search(after, &limits)?;
                let value = if mover == Color::Black {
                    report.score
                } else {
                    -report.score
                };
                (value, report.exact)
            }
        };
        points.push(Point {
            number: index + 1,
            square: square.to_string(),
            player: player.name(),
            black: black.clamp(-cells, cells),
            exact,
        });
    }
    Ok(points)
}
