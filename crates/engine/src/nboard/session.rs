//! The engine's side of an NBoard session ([`NBoard`]): the game so far, the settings, and the
//! answer to each command; the searches it asks for are [`Task`]s.

use std::sync::Arc;

use crate::book::{Book, BookPosition};
use crate::depth::{DEFAULT_DEPTH, MAX_DEPTH};
use othello::Game;
use othello::RuleSet;
use othello::Setup;
use othello::notation::parse_square;
use othello::{Dimensions, Square};
use othello_records::{RecordMove, ggf};

use super::task::TaskKind;
use super::text::shorten;
use super::{Outcome, Spot, Task, engine_name};

/// The engine's side of an NBoard session: the game so far and the settings.
#[derive(Clone, Debug)]
pub struct NBoard {
    /// Every position of the game, the start first: index `n` is the position after `n` moves,
    /// passes counted.
    pub(super) spots: Vec<Spot>,
    depth: u32,
    contempt: i32,
    book: Option<Arc<Book>>,
}

impl Default for NBoard {
    fn default() -> NBoard {
        NBoard::new()
    }
}

impl NBoard {
    /// A session at the standard 8x8 start, at depth [`DEFAULT_DEPTH`].
    #[must_use]
    pub fn new() -> NBoard {
        let game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
        NBoard {
            spots: vec![Spot::new(game)],
            depth: DEFAULT_DEPTH,
            contempt: 0,
            book: None,
        }
    }

    /// Sets the opening book `go` and `hint` answer from, or none.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book in use, if any.
    #[must_use]
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// The current position.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.current().game
    }

    /// The search depth in plies.
    #[must_use]
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Sets the search depth in plies (1 to [`MAX_DEPTH`]; larger is taken as the maximum).
    pub fn set_depth(&mut self, depth: u32) {
        self.depth = depth.clamp(1, MAX_DEPTH);
    }

    /// The contempt the GUI set, in hundredths of a disc. The engine scores in whole discs
    /// with a draw worth 0, so it is kept but plays no part in the search.
    #[must_use]
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    pub(super) fn current(&self) -> &Spot {
        self.spots.last().expect("there is always a position")
    }

    /// Answers one command line (without its line ending; surrounding white space is ignored).
    pub fn handle(&mut self, line: &str) -> Outcome {
        let line = line.trim();
        let (command, rest) = match line.split_once(char::is_whitespace) {
            Some((command, rest)) => (command, rest.trim()),
            None => (line, ""),
        };
        match command {
            "" => Outcome::default(),
            "nboard" => match rest.parse::<u32>() {
                Ok(_) => Outcome::line(format!("set myname {}", engine_name())),
                Err(_) => Outcome::note(format!(
                    "nboard: expected a protocol version such as \"nboard 2\", found {line:?}"
                )),
            },
            "set" => self.set(rest),
            "move" => self.play(rest),
            "go" => self.go(),
            "hint" => self.hint(rest),
            "analyze" => Outcome::task(Task {
                kind: TaskKind::Analyze(self.spots.clone()),
                depth: self.depth,
                book: None,
            }),
            "learn" => self.learn(),
            "ping" => match rest.parse::<i64>() {
                Ok(number) => Outcome::line(format!("pong {number}")),
                Err(_) => Outcome::note(format!(
                    "ping: expected a number such as \"ping 1\", found {line:?}"
                )),
            },
            "quit" => Outcome {
                quit: true,
                ..Outcome::default()
            },
            // Version 1 sent moves without the word "move".
            _ if rest.is_empty() && self.read_move(command).is_ok() => self.play(command),
            _ => Outcome::note(format!("unknown command ignored: {}", shorten(line))),
        }
    }

    fn set(&mut self, rest: &str) -> Outcome {
        let (name, value) = match rest.split_once(char::is_whitespace) {
            Some((name, value)) => (name, value.trim()),
            None => (rest, ""),
        };
        match name {
            "depth" => match value.parse::<u32>() {
                Ok(depth) if (1..=MAX_DEPTH).contains(&depth) => {
                    self.set_depth(depth);
                    Outcome::default()
                }
                _ => Outcome::note(format!(
                    "set depth: expected a depth from 1 to {MAX_DEPTH}, found {}",
                    shorten(value)
                )),
            },
            "contempt" => match value.parse::<f64>() {
                Ok(contempt) if contempt.is_finite() && contempt.abs() <= 1e6 => {
                    // Rounded to hundredths of a disc, as NBoard sends it.
                    self.contempt = contempt.round() as i32;
                    Outcome::default()
                }
                _ => Outcome::note(format!(
                    "set contempt: expected a number, found {}",
                    shorten(value)
                )),
            },
            "game" => self.set_game(value),
            _ => Outcome::note(format!("set: unknown setting ignored: {}", shorten(rest))),
        }
    }

    fn set_game(&mut self, text: &str) -> Outcome {
        let records = match ggf::read(text) {
            Ok(records) => records,
            Err(error) => return Outcome::note(format!("set game: {error}; position kept")),
        };
        let [record] = &records[..] else {
            return Outcome::note(format!(
                "set game: expected one GGF game, found {}; position kept",
                records.len()
            ));
        };
        let mut spot = Spot::new(record.start_game());
        spot.nominal = record.setup().first;
        let mut spots = vec![spot.clone()];
        for record_move in record.moves() {
            match record_move {
                RecordMove::Pass => spot.nominal = spot.nominal.opponent(),
                RecordMove::Play(square) => {
                    let mover = spot.game.turn().expect("a record's moves are legal");
                    spot.game.play(*square).expect("a record's moves are legal");
                    spot.nominal = mover.opponent();
                }
            }
            spots.push(spot.clone());
        }
        self.spots = spots;
        Outcome::default()
    }

    /// A move as NBoard writes it (`F5`, `f5/1.23/0.5`, `PA`): `None` for a pass.
    fn read_move(&self, text: &str) -> Result<Option<Square>, String> {
        let square = text.split('/').next().unwrap_or("").trim();
        if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
            return Ok(None);
        }
        if !square.starts_with(|c: char| c.is_ascii_alphabetic()) {
            return Err(format!(
                "expected a move such as F5 or PA, found {}",
                shorten(text)
            ));
        }
        parse_square(square, self.game().board().dims())
            .map(Some)
            .map_err(|error| error.to_string())
    }

    fn play(&mut self, text: &str) -> Outcome {
        let refused =
            |why: String| Outcome::note(format!("move {}: {why}; position kept", shorten(text)));
        let square = match self.read_move(text) {
            Ok(square) => square,
            Err(why) => return refused(why),
        };
        let mut spot = self.current().clone();
        match (square, spot.game.turn()) {
            (_, None) => return refused("the game is over".to_owned()),
            (None, Some(_)) if !spot.must_pass() => {
                return refused(format!("{} has a legal move and cannot pass", spot.nominal));
            }
            (None, Some(_)) => spot.nominal = spot.nominal.opponent(),
            (Some(square), Some(mover)) => {
                if let Err(error) = spot.game.play(square) {
                    return refused(error.to_string());
                }
                spot.nominal = mover.opponent();
            }
        }
        self.spots.push(spot);
        Outcome::default()
    }

    fn go(&self) -> Outcome {
        let spot = self.current();
        if spot.game.is_over() {
            // Every `go` is answered with a move: after the end, a pass.
            return Outcome {
                lines: vec!["=== PA".to_owned(), "status".to_owned()],
                notes: vec!["go: the game is over; answered PA".to_owned()],
                ..Outcome::default()
            };
        }
        Outcome::task(Task {
            kind: TaskKind::Go(spot.clone()),
            depth: self.depth,
            book: self.book.clone(),
        })
    }

    /// `learn`: a task that adds the game to the book
    /// ([`learn`](crate::book::build::learn)); with no book, or a game
    /// the book cannot hold, `learned` at once with a note.
    fn learn(&self) -> Outcome {
        let refused = |why: &str| Outcome {
            lines: vec!["learned".to_owned()],
            notes: vec![format!("learn: {why}; nothing stored")],
            ..Outcome::default()
        };
        if self.book.is_none() {
            return refused("no opening book in use");
        }
        if !Book::applies_to(self.game()) {
            return refused("the opening book holds 8x8 games under FULL rules, most discs wins");
        }
        let line = self
            .spots
            .iter()
            .filter_map(|spot| BookPosition::of(&spot.game))
            .collect();
        Outcome::task(Task {
            kind: TaskKind::Learn(line),
            depth: self.depth,
            book: self.book.clone(),
        })
    }

    /// Takes the book a `learn` task made ([`Task::run`]) as the one `go` and `hint` answer
    /// from, and gives the protocol's answer to `learn`. A front end saves the book first, so
    /// that `learned` means it is kept.
    pub fn learned(&mut self, book: Book) -> Outcome {
        self.book = Some(Arc::new(book));
        Outcome::line("learned".to_owned())
    }

    fn hint(&self, rest: &str) -> Outcome {
        let count = if rest.is_empty() {
            Ok(1)
        } else {
            rest.parse::<usize>()
        };
        let count = match count {
            Ok(count) if count >= 1 => count,
            _ => {
                return Outcome::note(format!(
                    "hint: expected a number of moves such as \"hint 3\", found {}",
                    shorten(rest)
                ));
            }
        };
        let spot = self.current();
        if spot.game.is_over() {
            return Outcome::note("hint: the game is over; no move to evaluate".to_owned());
        }
        Outcome::task(Task {
            kind: TaskKind::Hint(spot.clone(), count),
            depth: self.depth,
            book: self.book.clone(),
        })
    }
}
