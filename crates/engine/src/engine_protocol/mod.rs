//! The text protocols through which other programs drive the engine: [`nboard`] (the NBoard
//! protocol of Othello GUIs) and [`gtp`] (the Go Text Protocol of Go-style front ends and
//! tournament managers).
//!
//! Both are pure state machines: a command line goes in, the reply comes out as text. Reading
//! standard input, writing standard output and running searches on a worker thread is the
//! binary's part (`othello nboard`, `othello gtp`).
//!
//! What they share: how a search depth becomes the engine's [`Limits`] ([`limits_for_depth`]),
//! and how a line of play is written with its passes ([`line_text`]).

pub mod gtp;
pub mod nboard;

use crate::Limits;
use othello::Game;
use othello::Square;

/// The midgame depth used until a front end sets one: quick (about a second a move on 8x8),
/// and exact from 20 empties.
pub const DEFAULT_DEPTH: u32 = 10;

/// The deepest depth accepted; larger ones are taken as this.
pub const MAX_DEPTH: u32 = 60;

/// With how many empty squares or fewer a search at `depth` solves the rest of the game
/// exactly: Edax's levels, where its endgame search is exact (no selectivity) — twice the
/// depth up to 10, then 21, 24, 27 and 30 by steps, the depth less 6 from 36, and every
/// position from 60.
#[must_use]
pub fn exact_empties(depth: u32) -> u32 {
    match depth {
        0..=10 => 2 * depth,
        11..=18 => 21,
        19..=24 => 24,
        25..=29 => 27,
        30..=35 => 30,
        36..=59 => depth - 6,
        _ => u32::MAX,
    }
}

/// The engine's limits for a search `depth` plies deep from a position with `empties` empty
/// squares: an exact solve when the end is within [`exact_empties`], else `depth` plies (at
/// least 1).
///
/// ```
/// use othello_engine::engine_protocol::limits_for_depth;
/// use othello_engine::Limits;
///
/// assert_eq!(limits_for_depth(10, 40), Limits::depth(10));
/// assert_eq!(limits_for_depth(10, 20), Limits::exact());
/// assert_eq!(limits_for_depth(21, 24), Limits::exact());
/// ```
#[must_use]
pub fn limits_for_depth(depth: u32, empties: u32) -> Limits {
    if empties <= exact_empties(depth) {
        Limits::exact()
    } else {
        Limits::depth(depth.clamp(1, MAX_DEPTH))
    }
}

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

/// An evaluation in discs written as NBoard and GTP front ends read them: `2.00`, `-4.00`.
#[must_use]
pub fn eval_text(score: i32) -> String {
    format!("{:.2}", f64::from(score))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_from_twice_the_depth_then_edax_steps() {
        assert_eq!(exact_empties(1), 2);
        assert_eq!(exact_empties(10), 20);
        assert_eq!(exact_empties(12), 21);
        assert_eq!(exact_empties(21), 24);
        assert_eq!(exact_empties(27), 27);
        assert_eq!(exact_empties(32), 30);
        assert_eq!(exact_empties(40), 34);
        assert_eq!(exact_empties(60), u32::MAX);
        assert_eq!(limits_for_depth(0, 30), Limits::depth(1));
        assert_eq!(limits_for_depth(99, 60), Limits::exact());
    }

    #[test]
    fn lines_show_passes() {
        // The first game of the fixture ends ... W[a2] B[a1] B[g2]: white passes before g2.
        let text = include_str!("../../../../fixtures/records/two-games.ggf");
        let record = &othello_records::ggf::read(text).unwrap()[0];
        let positions = record.positions();
        let (before_a1, a1) = positions[positions.len() - 2].clone();
        let g2 = positions[positions.len() - 1].1;
        assert_eq!(line_text(&before_a1, &[a1, g2]), "a1PAg2");
        let (start, first) = positions[0].clone();
        assert_eq!(line_text(&start, &[first, positions[1].1]), "d3c5");
        // A line that goes wrong stops there.
        assert_eq!(line_text(&start, &[first, first]), "d3");
        assert_eq!(eval_text(-4), "-4.00");
        assert_eq!(eval_text(0), "0.00");
    }
}
