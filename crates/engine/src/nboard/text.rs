//! How NBoard lines write what the engine found: a line of play with its passes
//! ([`line_text`]), an evaluation ([`eval_text`]), a time, and a command quoted in a note.

use std::time::Duration;

use othello::{Game, Square};

/// A line of play from `game`, written without spaces as NBoard wants it (`f5d6c3`), with
/// `PA` where a player has to pass before the next move. The line stops at its first move
/// that cannot be played.
#[must_use]
pub fn line_text(game: &Game, line: &[Square]) -> String {
    let mut game = game.clone();
    let mut text = String::new();
    let mut nominal = game.turn();
    for &square in line {
        let Some(turn) = game.turn() else { break };
        if nominal.is_some_and(|nominal| nominal != turn) {
            text.push_str("PA");
        }
        if game.play(square).is_err() {
            break;
        }
        text.push_str(&square.to_string());
        nominal = Some(turn.opponent());
    }
    text
}

/// An evaluation in discs written as NBoard front ends read it: `2.00`, `-4.00`.
#[must_use]
pub fn eval_text(score: i32) -> String {
    format!("{:.2}", f64::from(score))
}

/// A duration in seconds with `decimals` decimals.
pub(super) fn seconds(elapsed: Duration, decimals: usize) -> String {
    format!("{:.*}", decimals, elapsed.as_secs_f64())
}

/// A command's text for a note: at most 60 characters.
pub(super) fn shorten(text: &str) -> String {
    const SHOWN: usize = 60;
    if text.chars().count() <= SHOWN {
        format!("{text:?}")
    } else {
        let head: String = text.chars().take(SHOWN).collect();
        format!("{head:?}...")
    }
}
