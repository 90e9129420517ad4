//! Matches between two players on 8x8 (FULL rules, most discs wins), as an engine developer
//! plays them to measure a change: the games of a match, who plays which colour from which
//! opening, the driving of one game, the match's score and the Elo estimate.
//!
//! A player is anything that is given the game so far and answers a move ([`Contestant`]): this
//! engine ([`EnginePlayer`]) or, in a front end, an external program. The library never knows
//! about processes: a player that cannot answer says so with a [`Fault`], and the game is
//! forfeited by that player.
//!
//! ```
//! use othello_engine::arena::{EnginePlayer, Openings, Schedule, play_game};
//! use othello_engine::arena::spec::{Budget, EngineSpec};
//! use othello_engine::Evaluation;
//!
//! let spec = EngineSpec { budget: Budget::Nodes(500), ..EngineSpec::default() };
//! let (mut a, mut b) = (EnginePlayer::new(&spec, Evaluation::Trained), EnginePlayer::new(&spec, Evaluation::Classic));
//! let openings = Openings::random(1, 4);
//! let mut judge = othello_engine::arena::openings::judge();
//! let schedule = Schedule { games: 2 };
//! let (opening, a_color) = schedule.pairing(0);
//! let start = openings.opening(opening, &mut judge);
//! let finished = play_game(&start, a_color, &mut a, &mut b, None);
//! assert!(finished.end.is_over() && finished.forfeit.is_none());
//! ```

pub mod clock;
pub mod openings;
pub mod spec;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::book::Book;
use crate::clock::Instant;
use crate::{Engine, Evaluation, Limits};
use othello::Color;
use othello::Game;
use othello::Square;

use clock::Clocks;
pub use clock::{TimeControl, TimeLeft};
pub use openings::{Opening, Openings};
use spec::{Budget, EngineSpec};

/// The game a player is asked to move in: the moves from the standard start
/// ([`openings::standard_start`]; passes left out) and the position now, with the player to
/// move on turn.
#[derive(Clone, Copy, Debug)]
pub struct GameSoFar<'a> {
    /// The discs placed since the start, in order (the opening's first).
    pub moves: &'a [Square],
    /// The position now.
    pub now: &'a Game,
    /// The clock of the player on turn, in a game played on one.
    pub clock: Option<TimeLeft>,
}

impl GameSoFar<'_> {
    /// The moves with the colour that played each.
    ///
    /// # Panics
    /// Never: the moves were played from the start.
    #[must_use]
    pub fn colored_moves(&self) -> Vec<(Color, Square)> {
        let mut game = openings::standard_start();
        self.moves
            .iter()
            .map(|&square| {
                let color = game.turn().expect("a move was played");
                game.play(square).expect("the move was legal");
                (color, square)
            })
            .collect()
    }
}

/// Why a player could not give a move: the game is forfeited by that player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// It answered a move that is not legal (as written), or a pass while it can move.
    Illegal(String),
    /// It answered something that is not a move (as written, or the protocol's error).
    Garbage(String),
    /// It did not answer in time.
    Timeout(Duration),
    /// Its move took longer than the time it had left on the game's clock.
    OutOfTime {
        /// How long the move took.
        took: Duration,
        /// The time it had left.
        left: Duration,
    },
    /// Its answer went on past this many bytes (it was cut off there).
    Overlong(u64),
    /// It ended, or could not be talked to (how).
    Crashed(String),
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Illegal(answer) => write!(f, "illegal move {answer}"),
            Fault::Garbage(answer) => write!(f, "answered {answer:?}, not a move"),
            Fault::Timeout(limit) => write!(f, "no answer within {} s", limit.as_secs_f64()),
            Fault::OutOfTime { took, left } => write!(
                f,
                "out of time (a move of {} s with {} s left)",
                clock::seconds_text(*took),
                clock::seconds_text(*left)
            ),
            Fault::Overlong(limit) => write!(f, "an answer longer than {limit} bytes, cut off"),
            Fault::Crashed(how) => write!(f, "crashed ({how})"),
        }
    }
}

/// A contestant of a match: given the game so far, answers the move of the player on turn.
pub trait Contestant {
    /// The move to play in `game` (whose turn it is, with a legal move).
    ///
    /// # Errors
    /// [`Fault`] when it cannot answer one; the game is then forfeited.
    fn choose(&mut self, game: &GameSoFar) -> Result<Square, Fault>;
}

/// This engine as a player: the computer of `othello play` at a level (without its random
/// moves) or a node budget a move, one thread and 16 MiB, with an opening book or none.
pub struct EnginePlayer {
    engine: Engine,
    budget: Budget,
    share: Option<Duration>,
    book: Option<Arc<Book>>,
}

impl EnginePlayer {
    /// The player `spec` describes, with `evaluation` (read by the caller from what the spec
    /// names) and the built-in book if the spec uses it ([`EngineSpec::uses_builtin_book`]);
    /// a book file is read by the caller and given with [`EnginePlayer::with_book`].
    #[must_use]
    pub fn new(spec: &EngineSpec, evaluation: Evaluation) -> EnginePlayer {
        // The compiled-in weights are read now, not on the first move's clock.
        if matches!(evaluation, Evaluation::Trained) {
            std::sync::LazyLock::force(&crate::patterns::WEIGHTS);
        }
        let mut engine = openings::match_engine();
        engine.set_evaluation(evaluation);
        engine.set_selective(spec.selective);
        EnginePlayer {
            engine,
            budget: spec.budget,
            share: spec.share,
            book: spec.uses_builtin_book().then(Book::builtin),
        }
    }

    /// The same player with `book` as its opening book, or none.
    #[must_use]
    pub fn with_book(mut self, book: Option<Arc<Book>>) -> EnginePlayer {
        self.book = book;
        self
    }

    /// The limits of its search in `game`: its budget's, with its share of the clock if given,
    /// or its time by the game's clock if it has one.
    fn limits(&self, game: &Game, clock: Option<TimeLeft>) -> Limits {
        let mut limits = match self.budget {
            Budget::Level(level) => level.profile().limits(game),
            Budget::Nodes(nodes) => Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
        };
        if let Some(share) = self.share {
            limits.target = Some(share);
            limits.time = Some(share.mul_f64(spec::CAP_PER_SHARE));
        }
        if let Some(clock) = clock {
            let (share, hard) = clock.budget(game.board().empties());
            limits.target = Some(share);
            limits.time = Some(hard);
        }
        limits
    }
}

impl Contestant for EnginePlayer {
    /// The book's best move where the book holds the position (the first in square order
    /// among equals, so that a match replays the same), else the search's.
    fn choose(&mut self, game: &GameSoFar) -> Result<Square, Fault> {
        if let Some(best) = self
            .book
            .as_ref()
            .and_then(|book| book.moves(game.now))
            .and_then(|moves| moves.first().copied())
        {
            return Ok(best.square);
        }
        self.engine
            .search(game.now, &self.limits(game.now, game.clock))
            .map(|report| report.best_move)
            .map_err(|error| Fault::Crashed(error.to_string()))
    }
}

/// A game that was forfeited: by whom, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The colour of the player that forfeited.
    pub color: Color,
    /// What it did.
    pub fault: Fault,
}

/// A game of a match once over (played out or forfeited).
#[derive(Clone, Debug)]
pub struct Finished {
    /// The discs placed from the standard start, in order, the opening's first.
    pub moves: Vec<Square>,
    /// How many of them are the opening's.
    pub opening_moves: usize,
    /// The last position: over, unless the game was forfeited.
    pub end: Game,
    /// The colour player A had.
    pub a_color: Color,
    /// The forfeit that ended it early, if any.
    pub forfeit: Option<Forfeit>,
}

impl Finished {
    /// The colour that won (the other side of a forfeit), or `None` for a draw.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        match &self.forfeit {
            Some(forfeit) => Some(forfeit.color.opponent()),
            None => match self.end.margin(Color::Black).signum() {
                1 => Some(Color::Black),
                -1 => Some(Color::White),
                _ => None,
            },
        }
    }

    /// Player A's points: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[must_use]
    pub fn a_points(&self) -> f64 {
        match self.winner() {
            Some(color) if color == self.a_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// Plays one game from `opening`, player A with `a_color`, until it is over or a player cannot
/// give a legal move, on `clock` if given. The driver checks every move: an illegal one
/// forfeits the game, as does one that takes longer than its player's time left (timed by the
/// wall clock from the question to the answer).
///
/// # Panics
/// Never: a move is played only once checked legal.
pub fn play_game(
    opening: &Opening,
    a_color: Color,
    a: &mut dyn Contestant,
    b: &mut dyn Contestant,
    clock: Option<TimeControl>,
) -> Finished {
    let mut now = opening.position().clone();
    let mut moves = opening.moves().to_vec();
    let mut forfeit = None;
    let mut clocks = clock.map(Clocks::new);
    while let Some(turn) = now.turn() {
        let player: &mut dyn Contestant = if turn == a_color { &mut *a } else { &mut *b };
        let asked = Instant::now();
        let mut answer = player.choose(&GameSoFar {
            moves: &moves,
            now: &now,
            clock: clocks.map(|clocks| clocks.on_turn(turn)),
        });
        if let Some(clocks) = &mut clocks
            && let Err(fault) = clocks.charge(turn, asked.elapsed())
        {
            answer = Err(fault);
        }
        match answer {
            Ok(square) if now.is_legal(square) => {
                now.play(square).expect("checked legal");
                moves.push(square);
            }
            Ok(square) => {
                forfeit = Some(Forfeit {
                    color: turn,
                    fault: Fault::Illegal(square.to_string()),
                });
                break;
            }
            Err(fault) => {
                forfeit = Some(Forfeit { color: turn, fault });
                break;
            }
        }
    }
    Finished {
        moves,
        opening_moves: opening.moves().len(),
        end: now,
        a_color,
        forfeit,
    }
}

/// The games of a match: each opening is played twice, player A with Black first, then with
/// White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// Games in all.
    pub games: u64,
}

impl Schedule {
    /// Game `index` (from 0): its opening's number and player A's colour.
    #[must_use]
    pub fn pairing(&self, index: u64) -> (u64, Color) {
        let color = if index.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        (index / 2, color)
    }
}

/// Wins, draws and losses of player A over a match's games, with the margins of the games
/// played out and the forfeits of each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchScore {
    /// Games A won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
    /// The sum of A's final disc margins over the games played out.
    pub margin: i64,
    /// Games played out (not forfeited).
    pub played_out: u32,
    /// Games A forfeited.
    pub a_forfeits: u32,
    /// Games B forfeited.
    pub b_forfeits: u32,
}

impl MatchScore {
    /// Counts a game.
    pub fn add(&mut self, game: &Finished) {
        match game.winner() {
            Some(color) if color == game.a_color => self.wins += 1,
            Some(_) => self.losses += 1,
            None => self.draws += 1,
        }
        match &game.forfeit {
            Some(forfeit) if forfeit.color == game.a_color => self.a_forfeits += 1,
            Some(_) => self.b_forfeits += 1,
            None => {
                self.played_out += 1;
                self.margin += i64::from(game.end.margin(game.a_color));
            }
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's share of the points (a draw is half a point), from 0 to 1.
    #[must_use]
    pub fn points(&self) -> f64 {
        let games = f64::from(self.games().max(1));
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / games
    }

    /// A's mean final margin over the games played out, in discs.
    #[must_use]
    pub fn mean_margin(&self) -> f64 {
        self.margin as f64 / f64::from(self.played_out.max(1))
    }

    /// The Elo difference of A over B these games suggest, with its 95% error margin.
    #[must_use]
    pub fn elo(&self) -> Elo {
        Elo::estimate(self.wins, self.draws, self.losses)
    }
}

/// An Elo difference estimated from a match, and its 95% error margin (both infinite when
/// one side scored every point, and NaN before any game), as `cutechess-cli` computes them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    /// The difference in rating that gives the score: `-400 log10(1 / score - 1)`.
    pub difference: f64,
    /// Half the width of the 95% confidence interval of the difference, from the per-game
    /// score's variance (normal approximation).
    pub margin: f64,
}

/// The normal distribution's 97.5% quantile, for a two-sided 95% interval.
const Z_95: f64 = 1.959_963_984_540;

impl Elo {
    /// The estimate from `wins`, `draws` and `losses`.
    #[must_use]
    pub fn estimate(wins: u32, draws: u32, losses: u32) -> Elo {
        let games = f64::from(wins + draws + losses);
        let (win, draw, loss) = (
            f64::from(wins) / games,
            f64::from(draws) / games,
            f64::from(losses) / games,
        );
        let score = win + draw / 2.0;
        let variance = win * (1.0 - score).powi(2)
            + draw * (0.5 - score).powi(2)
            + loss * (0.0 - score).powi(2);
        let deviation = (variance / games).sqrt();
        // Outside 0 to 1 the interval is unbounded: clamped, its end is infinite.
        let low = (score - Z_95 * deviation).max(0.0);
        let high = (score + Z_95 * deviation).min(1.0);
        // + 0.0 turns an even score's -0 into 0.
        let difference = elo_of_score(score) + 0.0;
        Elo {
            difference,
            margin: if difference.is_infinite() {
                f64::INFINITY
            } else {
                (elo_of_score(high) - elo_of_score(low)) / 2.0
            },
        }
    }
}

/// The rating difference at which the stronger side expects `score` of the points.
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Always answers the same square.
    struct Stubborn(Square);

    impl Contestant for Stubborn {
        fn choose(&mut self, _: &GameSoFar) -> Result<Square, Fault> {
            Ok(self.0)
        }
    }

    #[test]
    fn an_illegal_answer_forfeits_the_game_for_its_player() {
        let start = Opening::new(Vec::new()).unwrap();
        let spec = EngineSpec {
            budget: Budget::Nodes(100),
            ..EngineSpec::default()
        };
        let mut engine = EnginePlayer::new(&spec, Evaluation::Classic);
        let mut stubborn = Stubborn(Square::new(0, 0));
        let finished = play_game(&start, Color::White, &mut stubborn, &mut engine, None);
        assert_eq!(finished.moves.len(), 1, "black moved, white forfeited");
        assert_eq!(finished.end.board().empties(), 59);
        assert_eq!(
            finished.forfeit,
            Some(Forfeit {
                color: Color::White,
                fault: Fault::Illegal("a1".to_owned()),
            })
        );
        assert_eq!(finished.winner(), Some(Color::Black));
        assert!(finished.a_points().abs() < 1e-9);
        let mut tally = MatchScore::default();
        tally.add(&finished);
        assert_eq!(
            (tally.losses, tally.a_forfeits, tally.played_out),
            (1, 1, 0)
        );
    }

    #[test]
    fn a_share_of_the_clock_replaces_the_budgets_as_level_6_has_its_own() {
        let game = openings::standard_start();
        let level_6 = crate::computer::Level::MAX.profile();
        let (cap, share) = (level_6.time.unwrap(), level_6.target.unwrap());
        assert!((cap.as_secs_f64() / share.as_secs_f64() - spec::CAP_PER_SHARE).abs() < 1e-9);
        let player = |budget, share| {
            let spec = EngineSpec {
                budget,
                share,
                ..EngineSpec::default()
            };
            EnginePlayer::new(&spec, Evaluation::Classic).limits(&game, None)
        };
        let level = player(Budget::Level(crate::computer::Level::MAX), None);
        assert_eq!((level.target, level.time), (Some(share), Some(cap)));
        let longer = Duration::from_secs(6);
        let level = player(Budget::Level(crate::computer::Level::MAX), Some(longer));
        assert_eq!(
            (level.target, level.time),
            (Some(longer), Some(Duration::from_secs(20)))
        );
        assert_eq!(level.nodes, Some(level_6.nodes));
        let nodes = player(Budget::Nodes(5000), Some(longer));
        assert_eq!(
            (nodes.nodes, nodes.target, nodes.time),
            (Some(5000), Some(longer), Some(Duration::from_secs(20)))
        );
        let nodes = player(Budget::Nodes(5000), None);
        assert_eq!((nodes.target, nodes.time), (None, None));
    }

    #[test]
    fn the_same_player_splits_every_opening_evenly() {
        // Both sides identical and deterministic: each opening gives the same game twice with
        // the colours swapped, so the two margins cancel.
        let openings = Openings::random(1, 8);
        let mut judge = openings::judge();
        for budget in [
            Budget::Nodes(2_000),
            Budget::Level(crate::computer::Level::MIN),
        ] {
            let spec = EngineSpec {
                budget,
                ..EngineSpec::default()
            };
            let mut a = EnginePlayer::new(&spec, Evaluation::Trained);
            let mut b = EnginePlayer::new(&spec, Evaluation::Trained);
            for index in 0..2 {
                let opening = openings.opening(index, &mut judge);
                let first = play_game(&opening, Color::Black, &mut a, &mut b, None);
                let second = play_game(&opening, Color::White, &mut a, &mut b, None);
                assert_eq!(first.moves, second.moves, "opening {index} at {budget:?}");
                assert_eq!(
                    first.end.margin(Color::Black),
                    second.end.margin(Color::Black)
                );
                let mut tally = MatchScore::default();
                tally.add(&first);
                tally.add(&second);
                assert_eq!(tally.margin, 0);
                assert_eq!(tally.wins, tally.losses);
            }
        }
    }

    #[test]
    fn each_opening_is_played_with_both_colours() {
        let schedule = Schedule { games: 4 };
        let pairs: Vec<_> = (0..4).map(|i| schedule.pairing(i)).collect();
        assert_eq!(
            pairs,
            [
                (0, Color::Black),
                (0, Color::White),
                (1, Color::Black),
                (1, Color::White)
            ]
        );
    }
}
