//! One game the server hosts: the library's session, the two players (`session::Player`: a
//! name and a person or the computer at a level), and how the game is shown and saved.
//!
//! The rules are the library's: this module only asks the session to play, undo and describe
//! itself, and turns its answers into the JSON the page draws.

use serde::{Deserialize, Serialize};

use othello::{ByColor, Color, Game, Played, Square};
use othello_engine::computer::Level;
use othello_records::GameRecord;
use othello_session::seats::{self, Seating};
use othello_session::settings::{Changes, GameSettings, Problem, Setting, SettingError};
use othello_session::view::PositionView;
use othello_session::{Controller, Player, Session};

/// The front end named in the records the server writes (their event, with the seats).
const FRONT_END: &str = "serve";

/// The settings of a new game, as the page sends them: the settings of `othello play` (board
/// side, rules, win rule, who starts, who plays each colour, names), each field a
/// [`Setting`] and its value. Every field may be left out.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NewGame {
    /// Rows and columns (square boards, which GGF can record): an even number from 4 to 16.
    pub size: Option<u8>,
    /// `full` or `simple`.
    pub rules: Option<String>,
    /// `most` or `fewest`.
    pub win: Option<String>,
    /// `black` or `white`.
    pub first: Option<String>,
    /// `human`, `computer`, `computer:LEVEL` or the level alone.
    pub black: Option<String>,
    /// `human`, `computer`, `computer:LEVEL` or the level alone.
    pub white: Option<String>,
    /// Black's name.
    pub black_name: Option<String>,
    /// White's name.
    pub white_name: Option<String>,
}

impl NewGame {
    /// The game these settings describe (between two people unless they say otherwise), or
    /// what is wrong with them.
    pub fn build(&self) -> Result<Hosted, String> {
        let size = self.size.map(|side| side.to_string());
        let fields = [
            (Setting::Size, size.as_deref()),
            (Setting::Rules, self.rules.as_deref()),
            (Setting::Win, self.win.as_deref()),
            (Setting::First, self.first.as_deref()),
            (Setting::Seat(Color::Black), self.black.as_deref()),
            (Setting::Seat(Color::White), self.white.as_deref()),
            (Setting::Name(Color::Black), self.black_name.as_deref()),
            (Setting::Name(Color::White), self.white_name.as_deref()),
        ];
        let mut changes = Changes::default();
        for (setting, value) in fields {
            if let Some(value) = value {
                changes
                    .set(setting, value)
                    .map_err(|error| message(&error))?;
            }
        }
        let settings = changes.apply(&GameSettings::default());
        Ok(Hosted::new(Session::new(settings.game()), settings.players))
    }
}

/// A setting the page cannot have, worded for a named field: `rules: expected full or simple,
/// found "chess"` (a size says only what is wrong with it).
fn message(error: &SettingError) -> String {
    let SettingError::Value {
        setting,
        value,
        problem,
    } = error
    else {
        return error.to_string();
    };
    let key = setting.key();
    match problem {
        Problem::Size(_) => problem.to_string(),
        Problem::Seat(_) | Problem::Name(_) => format!("{key}: {problem}"),
        Problem::Rules(_) | Problem::Win(_) | Problem::First(_) | Problem::Level(_) => {
            format!("{key}: {problem}, found {value:?}")
        }
    }
}

/// A hosted game: the session, the players, and the discs the last move flipped.
#[derive(Clone, Debug)]
pub struct Hosted {
    session: Session,
    players: ByColor<Player>,
    flipped: Vec<Square>,
    /// Changes with every move and undo, so that a search started on an older position is
    /// not played on a newer one.
    version: u64,
}

/// Why a move or an undo was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    Over,
    /// It is the computer's turn, not a person's.
    ComputersTurn,
    /// It is a person's turn, not the computer's.
    PersonsTurn,
    /// The move is not legal (the message says why).
    Illegal(String),
    /// Passing with a legal move.
    CannotPass,
    /// No move of a person to take back.
    NothingToUndo,
}

impl Refusal {
    /// The message for the page.
    pub fn message(&self) -> String {
        match self {
            Refusal::Over => "the game is over".to_owned(),
            Refusal::ComputersTurn => "it is the computer's turn".to_owned(),
            Refusal::PersonsTurn => "it is a person's turn, not the computer's".to_owned(),
            Refusal::Illegal(message) => message.clone(),
            Refusal::CannotPass => {
                "you cannot pass: you have a legal move (a player without one passes by itself)"
                    .to_owned()
            }
            Refusal::NothingToUndo => "there is no move of a person to take back".to_owned(),
        }
    }
}

impl Hosted {
    fn new(session: Session, players: ByColor<Player>) -> Hosted {
        let flipped = flipped_by_last_move(&session);
        Hosted {
            session,
            players,
            flipped,
            version: 0,
        }
    }

    /// The current position.
    pub fn game(&self) -> &Game {
        self.session.game()
    }

    /// The version of the position (see [`Hosted::version`]).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The computer's level when it is to move, or why it is not.
    pub fn computer_to_move(&self) -> Result<Level, Refusal> {
        let turn = self.game().turn().ok_or(Refusal::Over)?;
        self.players[turn]
            .controller
            .level()
            .ok_or(Refusal::PersonsTurn)
    }

    /// Plays `square` for the person to move.
    pub fn play_person(&mut self, square: Square) -> Result<Played, Refusal> {
        let turn = self.game().turn().ok_or(Refusal::Over)?;
        if !self.players[turn].is_human() {
            return Err(Refusal::ComputersTurn);
        }
        self.play(square)
    }

    /// Plays the computer's `square`.
    pub fn play_computer(&mut self, square: Square) -> Result<Played, Refusal> {
        self.computer_to_move()?;
        self.play(square)
    }

    fn play(&mut self, square: Square) -> Result<Played, Refusal> {
        let flipped = self
            .game()
            .flips(square)
            .map_err(|error| Refusal::Illegal(error.to_string()))?;
        let played = self
            .session
            .play(square)
            .map_err(|error| Refusal::Illegal(error.to_string()))?;
        self.flipped = flipped;
        self.version += 1;
        Ok(played)
    }

    /// A pass: the library passes for a player without a move, so this is only ever refused.
    pub fn pass(&self) -> Refusal {
        if self.game().is_over() {
            Refusal::Over
        } else {
            Refusal::CannotPass
        }
    }

    /// Takes back moves up to and including the last one a person played (the computer's
    /// replies go with it).
    pub fn undo(&mut self) -> Result<usize, Refusal> {
        let players = &self.players;
        let undone = self
            .session
            .undo(|color| players[color].is_human())
            .ok_or(Refusal::NothingToUndo)?;
        self.flipped = flipped_by_last_move(&self.session);
        self.version += 1;
        Ok(undone)
    }

    /// The game as a record: the first position, the moves, the players and their seats
    /// (see [`seats`]), and (once over) black's margin as the result.
    pub fn record(&self, date: Option<String>) -> GameRecord {
        seats::record(&self.session, &self.players, FRONT_END, date)
    }

    /// The game of a record, written by the server or another front end (`othello play`)
    /// with the seats; a record that does not say who sat at a side has a person there.
    pub fn from_record(record: &GameRecord) -> Hosted {
        let people = ByColor::new_with(|_| Controller::Human);
        let players = Seating::of(record).players(people);
        Hosted::new(Session::continuing(record), players)
    }

    /// What the page draws.
    pub fn view(&self, id: &str, thinking: bool) -> View {
        let history: Vec<Played> = self.session.moves().collect();
        let score = self.game().score();
        let players = &self.players;
        let seat_view = |color: Color| PlayerView {
            name: players[color].name.clone(),
            computer: players[color].controller.level().map(Level::number),
            discs: score[color],
        };
        View {
            id: id.to_owned(),
            position: PositionView::new(self.game(), &history, &self.flipped),
            black: seat_view(Color::Black),
            white: seat_view(Color::White),
            can_undo: history
                .iter()
                .any(|played| players[played.player].is_human()),
            thinking,
        }
    }
}

/// The discs the last move of `session` flipped (none before the first move).
fn flipped_by_last_move(session: &Session) -> Vec<Square> {
    let Some(last) = session.last_move() else {
        return Vec::new();
    };
    let mut before = Session::new(session.start().clone());
    for played in session.moves().take(session.moves_played() - 1) {
        before
            .play(played.square)
            .expect("a session's moves are legal");
    }
    before.game().flips(last.square).unwrap_or_default()
}

/// A game as the page sees it: the position (its fields at the top level of the JSON), the
/// id and the seats.
#[derive(Clone, Debug, Serialize)]
pub struct View {
    /// The game's id.
    pub id: String,
    /// The position, as the page's offline game shows it too.
    #[serde(flatten)]
    pub position: PositionView,
    /// Black's name, seat and discs.
    pub black: PlayerView,
    /// White's name, seat and discs.
    pub white: PlayerView,
    /// Whether undo has a person's move to take back.
    pub can_undo: bool,
    /// Whether the computer is thinking about its move.
    pub thinking: bool,
}

/// One player as the page sees them.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// The name.
    pub name: String,
    /// The computer's level, or `null` for a person.
    pub computer: Option<u8>,
    /// Discs on the board.
    pub discs: u32,
}
