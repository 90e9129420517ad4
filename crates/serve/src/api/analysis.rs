//! `GET /api/games/{id}/analysis`: the engine's evaluation after each move of a game, for the
//! page's chart. Each position is searched to a small fixed depth (the last [`EXACT_FROM`]
//! empties solved exactly), on the server's search threads: queued as a search, with the same
//! limits and fairness between addresses, and refused as busy (503) when the queue is full.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::Json;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use othello::{Color, Game};
use othello_engine::{Engine, EngineConfig, EngineError, Limits};

use super::super::pool::PoolError;
use super::{ApiError, Server, entry};

/// Positions with at most this many empty squares are solved exactly.
const EXACT_FROM: u32 = 12;

/// The transposition table of each evaluation, in MiB.
const HASH_MB: usize = 8;

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
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (_, entry) = entry(&server, &id).await?;
    let record = entry.game.lock().await.record(None);
    let depth = depth_for(record.dims().cells());
    let evaluated = server
        .pool
        .evaluate(client.ip().to_canonical(), move |stop| {
            let positions = record.positions();
            let mut afters: Vec<Game> = positions
                .iter()
                .skip(1)
                .map(|(game, _)| game.clone())
                .collect();
            afters.push(record.final_game().clone());
            evaluate(&positions, &afters, depth, stop)
        })
        .await
        .map_err(|error| match error {
            PoolError::Engine(error) => {
                ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string())
            }
            other => other.into(),
        })?;
    Ok(Json(Analysis {
        depth,
        points: evaluated,
    })
    .into_response())
}

/// The points of the moves `positions` (each position before its move) and `afters` (the
/// position after each); those done so far once `stop` rises.
fn evaluate(
    positions: &[(Game, othello::Square)],
    afters: &[Game],
    depth: u32,
    stop: &AtomicBool,
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
        if stop.load(Ordering::Relaxed) {
            break;
        }
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
