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
//! use othello_engine::gtp::Gtp;
//! use othello_engine::{Engine, EngineConfig};
//!
//! let mut gtp = Gtp::new(Engine::new(EngineConfig::default()), 2);
//! assert_eq!(gtp.handle("1 play black d3").unwrap().text, "=1 \n\n");
//! assert_eq!(gtp.handle("play black e6").unwrap().text, "? illegal move: it is white's turn\n\n");
//! let reply = gtp.handle("genmove white").unwrap().text;
//! assert!(reply.starts_with("= ") && reply.ends_with("\n\n"));
//! ```
//!
//! A pure state machine, as [`crate::nboard`]: reading standard input and writing standard
//! output is the front end's part (`othello gtp`). The clocks of `time_settings` and
//! `time_left` are in `clock`, the reading of a command's words and the writing of responses
//! in `text`.

mod clock;
#[cfg(test)]
mod tests;
mod text;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::Engine;
use crate::book::Book;
use crate::depth::{MAX_DEPTH, limits_for_depth};
use othello::Game;
use othello::RuleSet;
use othello::Setup;
use othello::notation::parse_square;
use othello::{ByColor, Color};
use othello::{Dimensions, Square};

use clock::Clock;
use text::{board_text, clean, one, read_color, respond, seconds, vertex_text};

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

/// The response to one command, as GTP writes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The whole response: `=` or `?`, the id if the command had one, the text, and the blank
    /// line that ends it.
    pub text: String,
    /// The command was `quit`: the session ends after this response.
    pub quit: bool,
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
    pub fn handle(&mut self, line: &str) -> Option<Response> {
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
            "showboard" => Ok(format!("\n{}", board_text(&self.game))),
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
}

fn standard(dims: Dimensions) -> Game {
    Game::new(Setup::standard(dims), RuleSet::Full)
}
