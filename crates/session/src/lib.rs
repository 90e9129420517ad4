//! A game played by people and computers, as every front end (the terminal game, the web
//! server, Python) runs it: the commands people type and a history of positions for `undo` and
//! `new` ([`Session`], [`Command`]); who sits at each side, with their seeded computers
//! ([`Player`], [`computers`]); the new-game settings and their one grammar ([`settings`]); a
//! game with its players as a record and back ([`seats`]); the wording of a hint ([`hint`]); and the
//! position as the web page draws it, for the server and the page's offline game ([`view`]).
//!
//! ```
//! use othello_session::{Command, Session};
//! use othello::{Color, Dimensions, Game, RuleSet, Setup, Square};
//!
//! let dims = Dimensions::STANDARD;
//! let mut session = Session::new(Game::new(Setup::standard(dims), RuleSet::Full));
//! assert_eq!(Command::parse("D3", dims), Ok(Command::Play(Square::new(2, 3))));
//! session.play(Square::new(2, 3))?; // black d3
//! session.play(Square::new(4, 2))?; // white c5
//! // Take back to black's last move: both moves go.
//! assert_eq!(session.undo(|player| player == Color::Black), Some(2));
//! assert_eq!(session.moves_played(), 0);
//! # Ok::<(), othello::MoveError>(())
//! ```

pub mod hint;
mod players;
pub mod seats;
pub mod settings;
pub mod view;

use thiserror::Error;

use othello::Color;
use othello::notation::{NotationError, parse_square};
use othello::{Dimensions, Square};
use othello::{Game, MoveError, Played};
use othello_records::{GameRecord, Metadata};

pub use players::{BookChoice, Controller, ControllerError, Name, NameError, Player, computers};

/// What a player can type at the prompt: the one grammar of every front end (the line dialogue,
/// the full screen, and front ends over the library such as a web page).
///
/// A front end that has no use for a command (`board` where the board is always shown) answers
/// it as an unknown word, with [`CommandError::unknown`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play a move on this square.
    Play(Square),
    /// Ask the computer for the best move.
    Hint,
    /// Take back moves up to the last one played by a person.
    Undo,
    /// Play again the moves taken back last.
    Redo,
    /// Start a new game, changed by the settings typed after `new` (empty: the same game
    /// again), words such as `6x6 white=human` that [`settings::Changes`] reads.
    New(String),
    /// Save the game so far, to the file named after `save` if any.
    Save(Option<String>),
    /// Pass (only allowed with no legal move).
    Pass,
    /// List the legal moves.
    Moves,
    /// Show the board again.
    Board,
    /// Explain the commands.
    Help,
    /// Leave the program.
    Quit,
}

impl Command {
    /// The command words with their one-line descriptions, in the order help lists them.
    pub const HELP: [(&'static str, &'static str); 9] = [
        (
            "d3, 3d, 3 4",
            "play a move: column letter and row, or row and column numbers",
        ),
        ("moves", "list the legal moves"),
        (
            "hint",
            "ask the computer for its best move and its evaluation",
        ),
        ("undo", "take back moves up to your previous move"),
        ("redo", "play again the moves taken back"),
        ("pass", "pass (only when you have no legal move)"),
        ("new", "start a new game"),
        ("help", "show this list"),
        ("quit", "leave (end of input does the same)"),
    ];

    /// Every command word [`Command::parse`] reads (besides the short forms), for Tab
    /// completion.
    pub const WORDS: [&'static str; 10] = [
        "moves", "hint", "undo", "redo", "pass", "new", "save", "board", "help", "quit",
    ];

    /// Reads one typed line: a command word (any case; `p` is short for pass, `q` and `exit`
    /// for quit, `?` for help), `new` or `save` with the rest of the line as their argument, or
    /// a square in any form [`parse_square`] accepts.
    ///
    /// # Errors
    /// [`CommandError`]: an empty line, an unknown word, or a square that cannot be read.
    pub fn parse(text: &str, dims: Dimensions) -> Result<Command, CommandError> {
        let text = text.trim();
        let (first, rest) = text
            .split_once(char::is_whitespace)
            .map_or((text, ""), |(first, rest)| (first, rest.trim()));
        if first.eq_ignore_ascii_case("new") {
            return Ok(Command::New(rest.to_owned()));
        }
        if first.eq_ignore_ascii_case("save") {
            return Ok(Command::Save((!rest.is_empty()).then(|| rest.to_owned())));
        }
        let word = text.to_ascii_lowercase();
        let command = match word.as_str() {
            "" => return Err(CommandError::Empty),
            "hint" => Command::Hint,
            "undo" => Command::Undo,
            "redo" => Command::Redo,
            "pass" | "p" => Command::Pass,
            "moves" => Command::Moves,
            "board" => Command::Board,
            "help" | "?" => Command::Help,
            "quit" | "q" | "exit" => Command::Quit,
            _ if looks_like_a_word(text) => return Err(CommandError::unknown(text)),
            _ => {
                return parse_square(text, dims)
                    .map(Command::Play)
                    .map_err(CommandError::Square);
            }
        };
        Ok(command)
    }
}

/// Two or more letters and nothing else: meant as a command, not a square.
fn looks_like_a_word(text: &str) -> bool {
    text.chars().count() >= 2 && text.chars().all(char::is_alphabetic)
}

/// A typed line that is neither a command nor a square.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// Nothing was typed.
    #[error("type a move such as d3, or help for the commands")]
    Empty,
    /// A word that is no command.
    #[error("unknown command {found:?}: type help for the commands")]
    Unknown {
        /// The word, shortened.
        found: String,
    },
    /// Meant as a square, but not one.
    #[error(transparent)]
    Square(#[from] NotationError),
}

impl CommandError {
    /// The error for `text` taken as an unknown command word (shortened to
    /// [`NotationError::SHOWN`] characters).
    #[must_use]
    pub fn unknown(text: &str) -> CommandError {
        CommandError::Unknown {
            found: text.trim().chars().take(NotationError::SHOWN).collect(),
        }
    }
}

/// A move in the history, with the position before it.
#[derive(Clone, Debug)]
struct Step {
    before: Game,
    played: Played,
}

/// A game with its history: the first position, every move played since, and the positions
/// before them, so that moves can be taken back, played again and the game started again.
#[derive(Clone, Debug)]
pub struct Session {
    start: Game,
    game: Game,
    history: Vec<Step>,
    /// The moves taken back, each [`Session::undo`]'s group in order, the latest group last;
    /// emptied by any other move.
    redo: Vec<Vec<Square>>,
}

impl Session {
    /// A session starting from `game`.
    #[must_use]
    pub fn new(game: Game) -> Session {
        Session {
            start: game.clone(),
            game,
            history: Vec::new(),
            redo: Vec::new(),
        }
    }

    /// A session continuing the game of `record`: its moves are played from its start, so
    /// that undo can take them back.
    #[must_use]
    pub fn continuing(record: &GameRecord) -> Session {
        let mut session = Session::new(record.start_game());
        for square in record.squares() {
            session.play(square).expect("a record's moves are legal");
        }
        session
    }

    /// The current position.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The first position, where `new` starts again.
    #[must_use]
    pub fn start(&self) -> &Game {
        &self.start
    }

    /// The game so far as a record: the first position and every move since.
    #[must_use]
    pub fn record(&self, metadata: Metadata) -> GameRecord {
        GameRecord::from_squares(
            &self.start,
            self.moves().map(|played| played.square),
            metadata,
        )
        .expect("the moves of a session were legal")
    }

    /// Plays `square` for the player to move. The moves taken back by [`Session::undo`] can no
    /// longer be played again with [`Session::redo`].
    ///
    /// # Errors
    /// [`MoveError`] if the move cannot be played; nothing changes then.
    pub fn play(&mut self, square: Square) -> Result<Played, MoveError> {
        let played = self.push(square)?;
        self.redo.clear();
        Ok(played)
    }

    fn push(&mut self, square: Square) -> Result<Played, MoveError> {
        let before = self.game.clone();
        let played = self.game.play(square)?;
        self.history.push(Step { before, played });
        Ok(played)
    }

    /// The last move played, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Played> {
        self.history.last().map(|step| step.played)
    }

    /// Every move played so far, in order.
    #[must_use]
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = Played> + ExactSizeIterator + '_ {
        self.history.iter().map(|step| step.played)
    }

    /// How many moves have been played.
    #[must_use]
    pub fn moves_played(&self) -> usize {
        self.history.len()
    }

    /// Whether moves have been played and the game is not over: starting again would lose
    /// something.
    #[must_use]
    pub fn in_progress(&self) -> bool {
        !self.history.is_empty() && !self.game.is_over()
    }

    /// Takes back moves, the latest first, up to and including the last move played by a
    /// player for whom `takes_back` is true (a person, when the other side is the computer);
    /// that player is then to move again. Returns how many moves were taken back, or `None`
    /// (and changes nothing) when no such player has moved.
    pub fn undo(&mut self, takes_back: impl Fn(Color) -> bool) -> Option<usize> {
        let index = self
            .history
            .iter()
            .rposition(|step| takes_back(step.played.player))?;
        let undone = self.history.len() - index;
        self.game = self.history[index].before.clone();
        let taken: Vec<Square> = self
            .history
            .drain(index..)
            .map(|step| step.played.square)
            .collect();
        self.redo.push(taken);
        Some(undone)
    }

    /// Whether [`Session::redo`] has moves to play again.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// Plays again the moves the last [`Session::undo`] took back (undo after undo, redo after
    /// redo walk the history both ways). Returns the moves played again, or `None` (and changes
    /// nothing) when there is nothing to redo: no undo yet, or a move played since.
    pub fn redo(&mut self) -> Option<Vec<Played>> {
        let group = self.redo.pop()?;
        let played = group
            .into_iter()
            .map(|square| {
                self.push(square)
                    .expect("moves taken back are legal again in the same position")
            })
            .collect();
        Some(played)
    }

    /// Starts again from the first position.
    pub fn restart(&mut self) {
        self.game = self.start.clone();
        self.history.clear();
        self.redo.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::RuleSet;
    use othello::Setup;

    fn standard() -> Session {
        Session::new(Game::new(
            Setup::standard(Dimensions::STANDARD),
            RuleSet::Full,
        ))
    }

    fn sq(text: &str) -> Square {
        parse_square(text, Dimensions::STANDARD).unwrap()
    }

    #[test]
    fn redo_plays_again_what_undo_took_back_until_another_move() {
        let mut session = standard();
        assert!(session.redo().is_none());
        for square in ["d3", "c5", "f6"] {
            session.play(sq(square)).unwrap();
        }
        let after = session.game().clone();
        assert_eq!(session.undo(|player| player == Color::Black), Some(1));
        assert_eq!(session.undo(|player| player == Color::Black), Some(2));
        assert_eq!(session.moves_played(), 0);
        // The latest undo first: d3 and c5, then f6.
        let again: Vec<Square> = session.redo().unwrap().iter().map(|p| p.square).collect();
        assert_eq!(again, [sq("d3"), sq("c5")]);
        assert_eq!(session.redo().unwrap()[0].square, sq("f6"));
        assert_eq!(session.game(), &after);
        assert!(!session.can_redo());
        // A move played after an undo clears what could be played again.
        session.undo(|player| player == Color::Black);
        assert!(session.can_redo());
        session.play(sq("e6")).unwrap();
        assert!(!session.can_redo());
        assert!(session.redo().is_none());
        session.undo(|_| true);
        session.restart();
        assert!(session.redo().is_none());
    }

    #[test]
    fn the_record_holds_every_move_since_the_start() {
        let mut session = standard();
        session.play(sq("d3")).unwrap();
        session.play(sq("c5")).unwrap();
        let record = session.record(Metadata::default());
        assert_eq!(record.squares().collect::<Vec<_>>(), [sq("d3"), sq("c5")]);
        assert_eq!(record.final_game(), session.game());
        assert_eq!(&record.start_game(), session.start());
    }

    #[test]
    fn parses_commands_in_any_case_and_squares() {
        let std = Dimensions::STANDARD;
        let cases = [
            ("hint", Command::Hint),
            ("UNDO", Command::Undo),
            (" New ", Command::New(String::new())),
            (
                "new 6x6  white=human ",
                Command::New("6x6  white=human".to_owned()),
            ),
            ("redo", Command::Redo),
            ("Board", Command::Board),
            ("save", Command::Save(None)),
            (
                "SAVE  My Game.txt ",
                Command::Save(Some("My Game.txt".to_owned())),
            ),
            ("pass", Command::Pass),
            ("p", Command::Pass),
            ("moves", Command::Moves),
            ("help", Command::Help),
            ("?", Command::Help),
            ("quit", Command::Quit),
            ("Q", Command::Quit),
            ("exit", Command::Quit),
            ("d3", Command::Play(sq("d3"))),
            ("3 4", Command::Play(sq("d3"))),
        ];
        for (text, command) in cases {
            assert_eq!(Command::parse(text, std), Ok(command), "{text:?}");
        }
        assert_eq!(
            Command::parse("saved", std),
            Err(CommandError::unknown("saved"))
        );
        assert_eq!(Command::parse("", std), Err(CommandError::Empty));
        assert_eq!(
            Command::parse("resign", std).unwrap_err().to_string(),
            "unknown command \"resign\": type help for the commands"
        );
        assert_eq!(
            Command::parse("z9", std).unwrap_err().to_string(),
            "column z is off the board: columns are a to h"
        );
        assert!(matches!(
            Command::parse("d3!", std),
            Err(CommandError::Square(NotationError::Syntax { .. }))
        ));
    }

    #[test]
    fn undo_takes_back_to_the_chosen_players_last_move() {
        let mut session = standard();
        assert_eq!(session.undo(|_| true), None);
        for mv in ["d3", "c5", "f6"] {
            session.play(sq(mv)).unwrap();
        }
        let after_two = {
            let mut s = standard();
            s.play(sq("d3")).unwrap();
            s.play(sq("c5")).unwrap();
            s.game().clone()
        };
        // White (say, the person) last moved at c5: black's f6 and white's c5 go.
        assert_eq!(session.undo(|p| p == Color::White), Some(2));
        assert_eq!(session.moves_played(), 1);
        assert_eq!(session.game().turn(), Some(Color::White));
        assert_eq!(session.last_move().map(|m| m.square), Some(sq("d3")));
        session.play(sq("c5")).unwrap();
        assert_eq!(session.game(), &after_two);
        // Nobody for whom undo applies has moved: nothing changes.
        assert_eq!(session.undo(|_| false), None);
        assert_eq!(session.moves_played(), 2);
    }

    #[test]
    fn restart_and_in_progress() {
        let mut session = standard();
        assert!(!session.in_progress());
        session.play(sq("d3")).unwrap();
        assert!(session.in_progress());
        assert!(session.play(sq("a1")).is_err());
        assert_eq!(session.moves_played(), 1);
        session.restart();
        assert!(!session.in_progress());
        assert_eq!(session.game(), standard().game());
        assert_eq!(session.last_move(), None);
    }
}
