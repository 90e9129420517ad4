//! The Go Text Protocol (version 2) for Othello, as Go-style front ends and tournament
//! managers speak it: one command per line in, one response out.
//!
//! A response is `= result` or `? message` (`=ID`/`?ID` when the command started with a number),
//! ended by a blank line, exactly as the reference implementation (GNU Go) writes them. Squares
//! are Othello coordinates: a column letter from `A` and a row number from 1 at the top (`D3`,
//! and up to `P16`; the letter `I` is not skipped as in Go); `pass` is a pass. Passes may be
//! sent or left out: a player without a legal move passes by itself.
//!
//! ```
//! use othello_engine::engine_protocol::gtp::Gtp;
//! use othello_engine::{Engine, EngineConfig};
//!
//! let mut gtp = Gtp::new(Engine::new(EngineConfig::default()), 2);
//! assert_eq!(gtp.handle("1 play black d3").unwrap().text, "=1 \n\n");
//! assert_eq!(gtp.handle("play black e6").unwrap().text, "? illegal move: it is white's turn\n\n");
//! let reply = gtp.handle("genmove white").unwrap().text;
//! assert!(reply.starts_with("= ") && reply.ends_with("\n\n"));
//! ```

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::Engine;
use crate::book::Book;
use othello::Game;
use othello::RuleSet;
use othello::Setup;
use othello::notation::parse_square;
use othello::{ByColor, Color};
use othello::{Dimensions, Square};

use super::{MAX_DEPTH, limits_for_depth};

/// Every command answered, as `list_commands` gives them.
pub const COMMANDS: [&str; 19] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "set_game",
    "list_games",
    "set_depth",
];

/// The answer to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The whole response: `=` or `?`, the id if the command had one, the text, and the blank
    /// line that ends it.
    pub text: String,
    /// The command was `quit`: the session ends after this response.
    pub quit: bool,
}

/// The clocks as `time_settings` and `time_left` describe them.
#[derive(Clone, Copy, Debug, Default)]
struct Clock {
    /// `main_time`, `byo_yomi_time`, `byo_yomi_stones`, if `time_settings` was given.
    settings: Option<(Duration, Duration, u32)>,
    /// Each player's time left and stones left in the period (0 in main time).
    left: ByColor<Option<(Duration, u32)>>,
}

impl Clock {
    /// How long `player` may think over a move with `empties` empty squares left: the time left
    /// shared among the moves still to play (or the stones of the byo-yomi period), plus the
    /// byo-yomi time of one stone; `None` without time limits.
    fn budget(&self, player: Color, empties: u32) -> Option<Duration> {
        let (main, byo_time, byo_stones) = self.settings?;
        if byo_stones == 0 && !byo_time.is_zero() {
            return None; // "no time limits" in GTP's terms
        }
        if main.is_zero() && byo_time.is_zero() {
            return None;
        }
        let (left, stones) = self.left[player].unwrap_or((main, 0));
        let per_stone = if byo_stones > 0 {
            byo_time / byo_stones
        } else {
            Duration::ZERO
        };
        let share = if stones > 0 {
            left / stones
        } else {
            // My moves still to come; keep a tenth of the time in reserve.
            left.mul_f64(0.9) / empties.div_ceil(2).max(1)
        };
        Some((share + per_stone).max(Duration::from_millis(10)))
    }

    /// The longest `player` may think over a move whose share is `share`: twice the share, but
    /// never more than half the time left (nor less than the share).
    fn hard_limit(&self, player: Color, share: Duration) -> Duration {
        let main = self.settings.map_or(Duration::ZERO, |(main, _, _)| main);
        let left = self.left[player].map_or(main, |(left, _)| left);
        (share * 2).min(left / 2).max(share)
    }
}

/// The engine's side of a GTP session: the game, the positions before each move for `undo`
/// (one per disc played, so at most the board's squares: passes change nothing and are not
/// kept), the depth and the clocks.
pub struct Gtp {
    engine: Engine,
    game: Game,
    history: Vec<Game>,
    depth: u32,
    clock: Clock,
    /// Stops the searches of `genmove`: see [`Gtp::stop_flag`].
    stop: Arc<AtomicBool>,
    book: Option<Arc<Book>>,
}

impl Gtp {
    /// A session at the standard 8x8 start, searching `depth` plies deep (exact near the end,
    /// see [`limits_for_depth`]).
    #[must_use]
    pub fn new(engine: Engine, depth: u32) -> Gtp {
        Gtp {
            engine,
            game: standard(Dimensions::STANDARD),
            history: Vec::new(),
            depth: depth.clamp(1, MAX_DEPTH),
            clock: Clock::default(),
            stop: Arc::new(AtomicBool::new(false)),
            book: None,
        }
    }

    /// Sets the opening book `genmove` plays from, or none.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book in use, if any.
    #[must_use]
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The flag that stops `genmove`'s search, for another thread to raise when the front end
    /// is gone. It is never lowered: once it is raised, every `genmove` answers at once with
    /// the move that looks best before any search.
    #[must_use]
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// The current position.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Answers one command line; `None` for a line with no command (blank, or only a comment),
    /// which GTP leaves unanswered.
    pub fn handle(&mut self, line: &str) -> Option<Reply> {
        let line = clean(line);
        let mut words = line.split_whitespace();
        let mut command = words.next()?;
        let mut id = None;
        if command.bytes().all(|b| b.is_ascii_digit()) {
            id = Some(command.to_owned());
            command = match words.next() {
                Some(command) => command,
                None => {
                    return Some(respond(
                        id.as_deref(),
                        Err("syntax error: a command after the id".to_owned()),
                    ));
                }
            };
        }
        let args: Vec<&str> = words.collect();
        let result = self.run(command, &args);
        let mut reply = respond(id.as_deref(), result);
        reply.quit = command == "quit";
        Some(reply)
    }

    fn run(&mut self, command: &str, args: &[&str]) -> Result<String, String> {
        match command {
            "protocol_version" => Ok("2".to_owned()),
            "name" => Ok("othello".to_owned()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_owned()),
            "known_command" => {
                let name = one(args, "a command name")?;
                Ok(COMMANDS.contains(&name).to_string())
            }
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" | "komi" => Ok(String::new()),
            "boardsize" => {
                let size = one(args, "a board size")?;
                let dims = size
                    .parse::<usize>()
                    .ok()
                    .and_then(|side| Dimensions::new(side, side).ok())
                    .ok_or_else(|| "unacceptable size".to_owned())?;
                self.new_game(dims);
                Ok(String::new())
            }
            "clear_board" => {
                self.new_game(self.game.board().dims());
                Ok(String::new())
            }
            "play" => self.play(args),
            "genmove" => self.genmove(args),
            "undo" => {
                self.game = self.history.pop().ok_or("cannot undo")?;
                Ok(String::new())
            }
            "showboard" => Ok(format!("\n{}", self.board_text())),
            "final_score" => {
                if !self.game.is_over() {
                    return Err("the game is not over".to_owned());
                }
                // Empty squares go to the winner, as WTHOR, the FFO scores and other Othello
                // engines count (W+64 after a wipe-out by white).
                let margin = self.game.margin(Color::Black);
                let empties = self.game.board().empties() as i32;
                Ok(match margin + margin.signum() * empties {
                    0 => "0".to_owned(),
                    m if m > 0 => format!("B+{m}"),
                    m => format!("W+{}", -m),
                })
            }
            "time_settings" => {
                let [main, byo_time, byo_stones] = args else {
                    return Err(
                        "syntax error: expected main_time byo_yomi_time byo_yomi_stones".to_owned(),
                    );
                };
                let main = seconds(main)?;
                let byo_time = seconds(byo_time)?;
                let byo_stones = byo_stones
                    .parse::<u32>()
                    .map_err(|_| "syntax error: byo_yomi_stones is not a number".to_owned())?;
                self.clock = Clock {
                    settings: Some((main, byo_time, byo_stones)),
                    left: ByColor::default(),
                };
                Ok(String::new())
            }
            "time_left" => {
                let [color, time, stones] = args else {
                    return Err("syntax error: expected color time stones".to_owned());
                };
                let color = read_color(color)?;
                let time = seconds(time)?;
                let stones = stones
                    .parse::<u32>()
                    .map_err(|_| "syntax error: stones is not a number".to_owned())?;
                self.clock.left[color] = Some((time, stones));
                Ok(String::new())
            }
            "set_game" => match args {
                [name] if name.eq_ignore_ascii_case("othello") => Ok(String::new()),
                _ => Err("unsupported game".to_owned()),
            },
            "list_games" => Ok("Othello".to_owned()),
            "set_depth" => {
                let depth = one(args, "a depth")?
                    .parse::<u32>()
                    .ok()
                    .filter(|depth| (1..=MAX_DEPTH).contains(depth))
                    .ok_or_else(|| format!("syntax error: a depth from 1 to {MAX_DEPTH}"))?;
                self.depth = depth;
                Ok(String::new())
            }
            _ => Err("unknown command".to_owned()),
        }
    }

    fn new_game(&mut self, dims: Dimensions) {
        self.game = standard(dims);
        self.history.clear();
    }

    fn play(&mut self, args: &[&str]) -> Result<String, String> {
        let [color, vertex] = args else {
            return Err("syntax error: expected a color and a vertex".to_owned());
        };
        let color = read_color(color)?;
        let square = self.read_vertex(vertex)?;
        match (square, self.game.turn()) {
            (None, Some(turn)) if turn == color => Err(format!(
                "illegal move: {color} has a legal move and cannot pass"
            )),
            (None, Some(turn)) if !self.game.moves_of(color).is_empty() => Err(format!(
                "illegal move: it is {turn}'s turn, and {color} has a legal move"
            )),
            // A pass of a player without a move: the game has made it already, so it changes
            // nothing (and takes no place in the undo history).
            (None, _) => Ok(String::new()),
            (Some(_), None) => Err("illegal move: the game is over".to_owned()),
            (Some(_), Some(turn)) if turn != color => {
                Err(format!("illegal move: it is {turn}'s turn"))
            }
            (Some(square), Some(_)) => {
                let before = self.game.clone();
                self.game
                    .play(square)
                    .map_err(|error| format!("illegal move: {error}"))?;
                self.history.push(before);
                Ok(String::new())
            }
        }
    }

    fn genmove(&mut self, args: &[&str]) -> Result<String, String> {
        let color = read_color(one(args, "a color")?)?;
        match self.game.turn() {
            Some(turn) if turn == color => {}
            Some(turn) if !self.game.moves_of(color).is_empty() => {
                return Err(format!("wrong color: it is {turn}'s turn"));
            }
            // A pass (the game's own, or after the end) takes no place in the history, so that
            // `undo` takes back the last move.
            _ => return Ok("pass".to_owned()),
        }
        let book_move = self
            .book
            .as_ref()
            .and_then(|book| book.moves(&self.game))
            .and_then(|moves| moves.first().map(|m| m.square));
        let square = if let Some(square) = book_move {
            square
        } else {
            let empties = self.game.board().empties();
            let mut limits = limits_for_depth(self.depth, empties);
            // The share of the clock stops the deepening; twice the share stops a search.
            if let Some(share) = self.clock.budget(color, empties) {
                limits.target = Some(share);
                limits.time = Some(self.clock.hard_limit(color, share));
            }
            self.engine
                .search_with(&self.game, &limits, &self.stop, &mut |_| {})
                .map_err(|error| error.to_string())?
                .best_move
        };
        let before = self.game.clone();
        self.game.play(square).map_err(|error| error.to_string())?;
        self.history.push(before);
        Ok(vertex_text(square))
    }

    /// A vertex: `None` for `pass`.
    fn read_vertex(&self, text: &str) -> Result<Option<Square>, String> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(None);
        }
        if !text.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(format!(
                "syntax error: expected a vertex such as D3 or pass, found {text:?}"
            ));
        }
        parse_square(text, self.game.board().dims())
            .map(Some)
            .map_err(|error| format!("syntax error: {error}"))
    }

    /// The board for `showboard`: `X` black, `O` white, `.` empty, with the coordinates, the
    /// disc counts and whose turn it is.
    fn board_text(&self) -> String {
        let board = self.game.board();
        let dims = board.dims();
        let mut letters = String::new();
        for col in 0..dims.cols() {
            letters.push(' ');
            letters.push(Square::new(0, col).file_letter().to_ascii_uppercase());
        }
        let mut text = format!("  {letters}\n");
        for row in 0..dims.rows() {
            text.push_str(&format!("{:>2}", row + 1));
            for col in 0..dims.cols() {
                let cell = match board.get(Square::new(row, col)) {
                    Ok(Some(Color::Black)) => 'X',
                    Ok(Some(Color::White)) => 'O',
                    _ => '.',
                };
                text.push(' ');
                text.push(cell);
            }
            text.push_str(&format!(" {}\n", row + 1));
        }
        text.push_str(&format!("  {letters}\n"));
        let score = self.game.score();
        let turn = match self.game.turn() {
            Some(turn) => format!("{turn} to move"),
            None => "game over".to_owned(),
        };
        text.push_str(&format!(
            "Black (X) {} - {} White (O), {turn}",
            score.black, score.white
        ));
        text
    }
}

fn standard(dims: Dimensions) -> Game {
    Game::new(Setup::standard(dims), RuleSet::Full)
}

/// A vertex as GTP writes it: `D3`.
fn vertex_text(square: Square) -> String {
    square.to_string().to_ascii_uppercase()
}

/// The line as GTP reads it: control characters other than tab dropped, tabs made spaces,
/// and anything from `#` on (a comment) removed.
fn clean(line: &str) -> String {
    let line = line.split('#').next().unwrap_or("");
    line.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

fn respond(id: Option<&str>, result: Result<String, String>) -> Reply {
    let (mark, text) = match result {
        Ok(text) => ('=', text),
        Err(text) => ('?', text),
    };
    Reply {
        text: format!("{mark}{} {text}\n\n", id.unwrap_or("")),
        quit: false,
    }
}

fn one<'a>(args: &[&'a str], what: &str) -> Result<&'a str, String> {
    match args {
        [arg] => Ok(arg),
        _ => Err(format!("syntax error: expected {what}")),
    }
}

fn read_color(text: &str) -> Result<Color, String> {
    text.parse::<Color>()
        .map_err(|_| format!("syntax error: expected a color (black or white), found {text:?}"))
}

fn seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|seconds| seconds.is_finite() && *seconds >= 0.0 && *seconds < 1e9)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("syntax error: expected a time in seconds, found {text:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::EngineConfig;

    fn gtp() -> Gtp {
        Gtp::new(
            Engine::new(EngineConfig {
                hash_mb: 1,
                ..EngineConfig::default()
            }),
            2,
        )
    }

    fn text(gtp: &mut Gtp, line: &str) -> String {
        gtp.handle(line).expect("a command").text
    }

    #[test]
    fn ids_comments_and_blank_lines() {
        let mut gtp = gtp();
        assert_eq!(gtp.handle("   # only a comment"), None);
        assert_eq!(gtp.handle(""), None);
        assert_eq!(text(&mut gtp, "7 name # who"), "=7 othello\n\n");
        assert_eq!(text(&mut gtp, "protocol_version\t"), "= 2\n\n");
        assert_eq!(text(&mut gtp, "known_command genmove"), "= true\n\n");
        assert_eq!(text(&mut gtp, "known_command fly"), "= false\n\n");
        assert_eq!(text(&mut gtp, "12 fly"), "?12 unknown command\n\n");
        assert_eq!(
            text(&mut gtp, "12"),
            "?12 syntax error: a command after the id\n\n"
        );
        assert!(gtp.handle("quit").unwrap().quit);
    }

    #[test]
    fn sizes_moves_passes_and_undo() {
        let mut gtp = gtp();
        assert_eq!(text(&mut gtp, "boardsize 7"), "? unacceptable size\n\n");
        assert_eq!(text(&mut gtp, "boardsize 18"), "? unacceptable size\n\n");
        assert_eq!(text(&mut gtp, "boardsize 4"), "= \n\n");
        assert_eq!(gtp.game().board().dims(), Dimensions::new(4, 4).unwrap());
        assert_eq!(
            text(&mut gtp, "play b pass"),
            "? illegal move: black has a legal move and cannot pass\n\n"
        );
        assert_eq!(
            text(&mut gtp, "play b a1"),
            "? illegal move: a1 is not a legal move for black: it flips no discs\n\n"
        );
        assert_eq!(
            text(&mut gtp, "play b e5"),
            "? syntax error: column e is off the board: columns are a to d\n\n"
        );
        assert_eq!(
            text(&mut gtp, "play red b1"),
            "? syntax error: expected a color (black or white), found \"red\"\n\n"
        );
        assert_eq!(text(&mut gtp, "play B B1"), "= \n\n");
        // White has a move: neither white (to move) nor black (not to move) may pass.
        assert_eq!(
            text(&mut gtp, "play b pass"),
            "? illegal move: it is white's turn, and black has a legal move\n\n"
        );
        assert_eq!(
            text(&mut gtp, "play w pass"),
            "? illegal move: white has a legal move and cannot pass\n\n"
        );
        assert_eq!(gtp.history.len(), 1);
        assert_eq!(text(&mut gtp, "undo"), "= \n\n");
        assert_eq!(text(&mut gtp, "undo"), "? cannot undo\n\n");
        assert_eq!(text(&mut gtp, "final_score"), "? the game is not over\n\n");
        // Play the 4x4 game out between the engine and itself.
        let mut color = "b";
        let mut moves = 0;
        while !gtp.game().is_over() {
            let reply = text(&mut gtp, &format!("genmove {color}"));
            assert!(reply.starts_with("= "), "{reply}");
            color = if color == "b" { "w" } else { "b" };
            moves += 1;
            assert!(moves < 40);
        }
        // Perfect play on 4x4 ends with white 8 discs ahead; depth 2 is exact from 4 empties.
        assert!(text(&mut gtp, "final_score").starts_with("= "));
        assert_eq!(text(&mut gtp, "genmove b"), "= pass\n\n");
    }

    #[test]
    fn passes_take_no_place_in_the_undo_history_and_depths_beyond_the_maximum_are_refused() {
        let mut gtp = gtp();
        // The engine plays 4x4 out against itself; at its passes the front end repeats them.
        assert_eq!(text(&mut gtp, "boardsize 4"), "= \n\n");
        let mut color = "b";
        let mut passed = false;
        while !gtp.game().is_over() {
            let reply = text(&mut gtp, &format!("genmove {color}"));
            if reply == "= pass\n\n" {
                passed = true;
                let before = gtp.history.len();
                for _ in 0..1000 {
                    assert_eq!(text(&mut gtp, &format!("play {color} pass")), "= \n\n");
                }
                assert_eq!(gtp.history.len(), before);
            }
            color = if color == "b" { "w" } else { "b" };
        }
        assert!(passed, "the 4x4 game has a pass");
        assert!(gtp.history.len() <= 12);
        for depth in ["0", "61", "99"] {
            assert_eq!(
                text(&mut gtp, &format!("set_depth {depth}")),
                "? syntax error: a depth from 1 to 60\n\n"
            );
        }
        assert_eq!(text(&mut gtp, "set_depth 60"), "= \n\n");
        assert_eq!(gtp.depth, 60);
    }

    #[test]
    fn showboard_and_time_budget() {
        let mut gtp = gtp();
        assert_eq!(
            text(&mut gtp, "showboard"),
            "= \n   A B C D E F G H\n 1 . . . . . . . . 1\n 2 . . . . . . . . 2\n 3 . . . . . . . . 3\n 4 . . . O X . . . 4\n 5 . . . X O . . . 5\n 6 . . . . . . . . 6\n 7 . . . . . . . . 7\n 8 . . . . . . . . 8\n   A B C D E F G H\nBlack (X) 2 - 2 White (O), black to move\n\n"
        );
        let clock = Clock {
            settings: Some((Duration::from_secs(300), Duration::ZERO, 0)),
            left: ByColor::default(),
        };
        assert_eq!(clock.budget(Color::Black, 60), Some(Duration::from_secs(9)));
        let no_limit = Clock {
            settings: Some((Duration::ZERO, Duration::from_secs(1), 0)),
            left: ByColor::default(),
        };
        assert_eq!(no_limit.budget(Color::Black, 60), None);
        assert_eq!(Clock::default().budget(Color::White, 60), None);
        assert_eq!(text(&mut gtp, "time_settings 300 0 0"), "= \n\n");
        assert_eq!(text(&mut gtp, "time_left white 30 5"), "= \n\n");
        assert_eq!(
            gtp.clock.budget(Color::White, 60),
            Some(Duration::from_secs(6))
        );
        // Twice the share, at most half the time left, at least the share.
        let six = Duration::from_secs(6);
        assert_eq!(
            gtp.clock.hard_limit(Color::White, six),
            Duration::from_secs(12)
        );
        assert_eq!(text(&mut gtp, "time_left white 16 0"), "= \n\n");
        assert_eq!(
            gtp.clock.hard_limit(Color::White, six),
            Duration::from_secs(8)
        );
        assert_eq!(text(&mut gtp, "time_left white 10 0"), "= \n\n");
        assert_eq!(gtp.clock.hard_limit(Color::White, six), six);
    }
}
