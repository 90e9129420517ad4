//! The web page's offline game: the rules and the computer (levels 1-6) for the browser.
//!
//! The page keeps a local game as its settings and its moves; each call here replays them and
//! answers in JSON, in the shape of the server's game view where the two meet, so that the page
//! draws a local game as it draws a server's. Built for `wasm32-unknown-unknown` by
//! `cargo build -p othello-wasm --target wasm32-unknown-unknown --release` and `wasm-bindgen
//! --target web` (see docs/serve.md); it also builds natively, where its tests run.

mod local;

pub use local::{LocalError, LocalSettings, computer_move, evaluations, position};

use wasm_bindgen::prelude::wasm_bindgen;

/// The position after `moves` (squares separated by spaces) from the game `settings` (JSON:
/// `size`, `rules`, `win`, `first`), as JSON; an error names the setting or move that is wrong.
///
/// # Errors
/// A message naming the bad setting or move.
#[wasm_bindgen(js_name = position)]
pub fn position_js(settings: &str, moves: &str) -> Result<String, String> {
    position(settings, moves).map_err(|error| error.to_string())
}

/// The computer's move at `level` (1-6) in the position after `moves`, drawn with `seed`.
///
/// # Errors
/// A message naming the bad setting, move or level, or saying that the game is over.
#[wasm_bindgen(js_name = computerMove)]
pub fn computer_move_js(
    settings: &str,
    moves: &str,
    level: u8,
    seed: u32,
) -> Result<String, String> {
    computer_move(settings, moves, level, u64::from(seed))
        .map(|square| square.to_string())
        .map_err(|error| error.to_string())
}

/// The engine's evaluation, in discs from black's point of view, of the position after each of
/// the first 0, 1, ... all of `moves`, searched `depth` plies deep (exact near the end).
///
/// # Errors
/// A message naming the bad setting or move.
#[wasm_bindgen(js_name = evaluations)]
pub fn evaluations_js(settings: &str, moves: &str, depth: u32) -> Result<Vec<i32>, String> {
    evaluations(settings, moves, depth).map_err(|error| error.to_string())
}
