//! A game with its players as a record, and the players of a record: the one way every front
//! end saves a game and opens it again, so that a game saved by one (`othello play`) continues
//! in another (`othello serve`) with the same people and the computer at the same level.
//!
//! The names go where every format that has them puts them (GGF `PB` and `PW`); who sat at
//! each side goes in the event (GGF `PC`) as `othello FRONT_END black=SEAT white=SEAT`, each
//! seat as [`Controller`] writes it (`human`, `computer:3`).

use othello::ByColor;
use othello_records::{GameRecord, Metadata};

use crate::{Controller, Name, Player, Session};

/// The first word of the event of the records written here.
const PROGRAM: &str = "othello";

/// The game of `session` between `players` as a record, written by `front_end` (`play`,
/// `serve`): the names, who sat at each side, the `date`, and, once the game is over, black's
/// margin as the result (`+12.000`).
#[must_use]
pub fn record(
    session: &Session,
    players: &ByColor<Player>,
    front_end: &str,
    date: Option<String>,
) -> GameRecord {
    let game = session.game();
    let result = game.outcome().map(|_| {
        let score = game.score();
        format!("{:+}.000", score.black as i32 - score.white as i32)
    });
    session.record(Metadata {
        black: Some(players.black.name.clone()),
        white: Some(players.white.name.clone()),
        date,
        result,
        event: Some(format!(
            "{PROGRAM} {front_end} black={} white={}",
            players.black.controller, players.white.controller
        )),
        ..Metadata::default()
    })
}

/// Who played a recorded game, as far as its record says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seating {
    /// The players' names, where the record gives names a player can have.
    pub names: ByColor<Option<Name>>,
    /// Who chose each side's moves, where the record says ([`record`] writes it).
    pub controllers: ByColor<Option<Controller>>,
}

impl Seating {
    /// What `record` says of its players.
    #[must_use]
    pub fn of(record: &GameRecord) -> Seating {
        let metadata = record.metadata();
        let mut seating = Seating {
            names: ByColor {
                black: metadata.black.as_deref().and_then(|name| name.parse().ok()),
                white: metadata.white.as_deref().and_then(|name| name.parse().ok()),
            },
            controllers: ByColor::default(),
        };
        let mut words = metadata.event.as_deref().unwrap_or("").split_whitespace();
        if words.next() == Some(PROGRAM) {
            for word in words {
                let (side, seat) = match word.split_once('=') {
                    Some(("black", seat)) => (&mut seating.controllers.black, seat),
                    Some(("white", seat)) => (&mut seating.controllers.white, seat),
                    _ => continue,
                };
                *side = seat.parse().ok();
            }
        }
        seating
    }

    /// The players: the names and seats the record gives, and for what it does not say the
    /// seat of `controllers` and the default name.
    #[must_use]
    pub fn players(&self, controllers: ByColor<Controller>) -> ByColor<Player> {
        let controllers =
            ByColor::new_with(|color| self.controllers[color].unwrap_or(controllers[color]));
        Player::pair(controllers, self.names.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use othello::{Dimensions, Game, RuleSet, Setup, Square};
    use othello_engine::computer::Level;
    use othello_records::{self as records, Format, ReadOptions};

    fn players(white: Controller, white_name: Option<&str>) -> ByColor<Player> {
        let controllers = ByColor {
            black: Controller::Human,
            white,
        };
        let names = ByColor {
            black: Some("Ada".parse().unwrap()),
            white: white_name.map(|name| name.parse().unwrap()),
        };
        Player::pair(controllers, names)
    }

    /// `record` written as GGF and read back.
    fn through_ggf(record: &GameRecord) -> GameRecord {
        let bytes = records::write(std::slice::from_ref(record), Format::Ggf).unwrap();
        records::read_as(Format::Ggf, &bytes, &ReadOptions::default())
            .unwrap()
            .remove(0)
    }

    #[test]
    fn a_game_and_its_players_come_back_from_their_record() {
        let mut session = Session::new(Game::new(
            Setup::standard(Dimensions::STANDARD),
            RuleSet::Full,
        ));
        session.play(Square::new(2, 3)).unwrap();
        let level = Controller::Computer(Level::new(2).unwrap());
        for players in [
            players(level, None),
            players(Controller::Human, Some("Bob")),
        ] {
            let record = record(&session, &players, "play", Some("2024-01-02".to_owned()));
            let text = String::from_utf8(
                records::write(std::slice::from_ref(&record), Format::Ggf).unwrap(),
            )
            .unwrap();
            assert!(
                text.contains("PC[othello play black=human white="),
                "{text}"
            );
            let read = through_ggf(&record);
            assert_eq!(read.squares().collect::<Vec<_>>(), [Square::new(2, 3)]);
            let seating = Seating::of(&read);
            let nobody = ByColor::new_with(|_| Controller::Human);
            assert_eq!(seating.players(nobody), players);
        }
    }

    #[test]
    fn what_a_record_does_not_say_is_left_to_the_caller() {
        let session = Session::new(Game::new(
            Setup::standard(Dimensions::STANDARD),
            RuleSet::Full,
        ));
        let mut record = session.record(Metadata {
            black: Some("not\ta name".to_owned()),
            white: Some("Bob".to_owned()),
            event: Some("othello serve black=robot white=computer:4".to_owned()),
            ..Metadata::default()
        });
        let seating = Seating::of(&record);
        assert_eq!(seating.names.black, None);
        assert_eq!(seating.controllers.black, None);
        let players = seating.players(ByColor::new_with(|_| Controller::Human));
        assert_eq!(players.black.name, "Black");
        assert_eq!(players.white.name, "Bob");
        assert_eq!(
            players.white.controller,
            Controller::Computer(Level::new(4).unwrap())
        );
        // Another program's event says nothing of the seats.
        record = session.record(Metadata {
            event: Some("club black=computer".to_owned()),
            ..Metadata::default()
        });
        assert_eq!(Seating::of(&record), Seating::default());
    }
}
