//! The position as the web page draws it, serialized as JSON by serde: one shape for the
//! server's games (`othello serve`, which adds the id and the seats) and the page's offline
//! games (`othello-wasm`, which adds the disc counts).

use serde::Serialize;

use othello::{Color, Game, Played, Square};

/// One move of the game's list.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// Who played it: `black` or `white`.
    pub player: &'static str,
    /// The square, as `d3`.
    pub square: String,
    /// Who had to pass after it, if anyone.
    pub passed: Option<&'static str>,
}

impl MoveView {
    /// The move `played`.
    #[must_use]
    pub fn of(played: &Played) -> MoveView {
        MoveView {
            player: played.player.name(),
            square: played.square.to_string(),
            passed: played.passed.map(Color::name),
        }
    }
}

/// A position as the page sees it: what the rules decide.
#[derive(Clone, Debug, Serialize)]
pub struct PositionView {
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// `full` or `simple`.
    pub rules: String,
    /// `most` or `fewest`.
    pub win: &'static str,
    /// The board, top row first: `b` black, `w` white, `.` empty.
    pub board: Vec<String>,
    /// `black` or `white`, or `null` once the game is over.
    pub turn: Option<&'static str>,
    /// The legal moves of the player to move.
    pub legal: Vec<String>,
    /// The last move, if any.
    pub last: Option<String>,
    /// Who played the last move.
    pub last_player: Option<&'static str>,
    /// The discs the last move flipped.
    pub flipped: Vec<String>,
    /// The player who had to pass after the last move, if any.
    pub passed: Option<&'static str>,
    /// Whether the game is over.
    pub over: bool,
    /// The winner once the game is over; `null` for a draw (or a game in progress).
    pub winner: Option<&'static str>,
    /// Moves played.
    pub moves: usize,
    /// The moves played, in order.
    pub history: Vec<MoveView>,
}

impl PositionView {
    /// `game` after the moves `history` (in order), the last of which flipped `flipped`.
    #[must_use]
    pub fn new(game: &Game, history: &[Played], flipped: &[Square]) -> PositionView {
        let board = game.board();
        let dims = board.dims();
        let rows = (0..dims.rows())
            .map(|row| {
                (0..dims.cols())
                    .map(|col| match board.at(Square::new(row, col)) {
                        Some(Color::Black) => 'b',
                        Some(Color::White) => 'w',
                        None => '.',
                    })
                    .collect()
            })
            .collect();
        let last = history.last();
        let outcome = game.outcome();
        PositionView {
            rows: dims.rows(),
            cols: dims.cols(),
            rules: game.rules().to_string().to_ascii_lowercase(),
            win: game.win_rule().name(),
            board: rows,
            turn: game.turn().map(Color::name),
            legal: game.legal_moves().iter().map(ToString::to_string).collect(),
            last: last.map(|played| played.square.to_string()),
            last_player: last.map(|played| played.player.name()),
            flipped: flipped.iter().map(ToString::to_string).collect(),
            passed: last.and_then(|played| played.passed).map(Color::name),
            over: outcome.is_some(),
            winner: outcome.and_then(othello::Outcome::winner).map(Color::name),
            moves: history.len(),
            history: history.iter().map(MoveView::of).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use othello::{Dimensions, RuleSet, Setup};

    use super::*;

    #[test]
    fn a_move_is_seen_with_what_it_flipped_and_the_turn_handed_on() {
        let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
        let f5 = Square::new(4, 5);
        let flipped = game.flips(f5).unwrap();
        let played = game.play(f5).unwrap();
        let view = serde_json::to_value(PositionView::new(&game, &[played], &flipped)).unwrap();
        assert_eq!(view["turn"], "white");
        assert_eq!(view["last"], "f5");
        assert_eq!(view["last_player"], "black");
        assert_eq!(view["flipped"], serde_json::json!(["e5"]));
        assert_eq!(view["board"][4], "...bbb..");
        assert_eq!(
            view["history"],
            serde_json::json!([{"player": "black", "square": "f5", "passed": null}])
        );
        assert_eq!(view["moves"], 1);
        assert_eq!(view["over"], false);
    }
}
