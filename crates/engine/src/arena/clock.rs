//! A match's clock: each player's time for a game and what each move adds to it (Fischer's
//! increment), the time the player on turn has left, and how long this engine thinks over a
//! move with it (as its GTP session does by `time_settings` and `time_left`).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use othello::{ByColor, Color};

use super::Fault;
use crate::clock::{hard_limit, share_of};

/// The longest time a clock may give, in seconds: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// Each player's time for a game, and the time each of its moves adds once played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time each player starts a game with (above zero).
    pub main: Duration,
    /// Added to a player's time after each of its moves.
    pub increment: Duration,
}

impl FromStr for TimeControl {
    type Err = String;

    /// `SECONDS` or `SECONDS+SECONDS` (`60`, `10+0.1`): the time for a game, above 0, and the
    /// increment a move, each at most a day, to the millisecond.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let error = |problem: String| {
            format!("expected SECONDS[+SECONDS] (as 60 or 10+0.1), found {text:?}: {problem}")
        };
        let (main, increment) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let seconds = |part: &str, what: &str| {
            part.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && (0.0..=MAX_SECONDS).contains(s))
                .map(|s| Duration::from_millis((s * 1000.0).round() as u64))
                .ok_or_else(|| error(format!("{what} is not seconds from 0 to {MAX_SECONDS}")))
        };
        let main = seconds(main, "the time for a game")?;
        let increment = seconds(increment, "the increment")?;
        if main.is_zero() {
            return Err(error("the time for a game must be above 0".to_owned()));
        }
        Ok(TimeControl { main, increment })
    }
}

impl fmt::Display for TimeControl {
    /// As it is read: `60`, `10+0.1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", seconds_text(self.main))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", seconds_text(self.increment))?;
        }
        Ok(())
    }
}

/// Seconds to the millisecond, without trailing zeros: `10`, `0.1`, `9.875`.
#[must_use]
pub fn seconds_text(time: Duration) -> String {
    let text = format!("{:.3}", time.as_secs_f64());
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// The clock of the player on turn: its time left for this move and the rest of the game, and
/// the increment its move will add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeLeft {
    /// The time left; a move that takes longer loses the game on time.
    pub left: Duration,
    /// Added once the move is played.
    pub increment: Duration,
}

impl TimeLeft {
    /// How long this engine thinks over a move with `empties` empty squares: the time to aim
    /// at (its share of the time left, with the increment) and the time at which a search
    /// stops, both at most half the time left.
    #[must_use]
    pub fn budget(&self, empties: u32) -> (Duration, Duration) {
        let share = (share_of(self.left, empties) + self.increment).min(self.left / 2);
        (share, hard_limit(share, self.left))
    }
}

/// Both players' clocks in a game.
#[derive(Clone, Copy, Debug)]
pub(super) struct Clocks {
    control: TimeControl,
    left: ByColor<Duration>,
}

impl Clocks {
    /// The clocks at the start of a game.
    pub(super) fn new(control: TimeControl) -> Clocks {
        Clocks {
            control,
            left: ByColor::new_with(|_| control.main),
        }
    }

    /// The clock of `color`, on turn.
    pub(super) fn on_turn(&self, color: Color) -> TimeLeft {
        TimeLeft {
            left: self.left[color],
            increment: self.control.increment,
        }
    }

    /// Charges `color` with a move that took `took`: the fault of running out of time, or its
    /// time less the move's, plus the increment.
    pub(super) fn charge(&mut self, color: Color, took: Duration) -> Result<(), Fault> {
        let left = self.left[color];
        let rest = left
            .checked_sub(took)
            .ok_or(Fault::OutOfTime { took, left })?;
        self.left[color] = rest + self.control.increment;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluation;
    use crate::arena::spec::{Budget, EngineSpec};
    use crate::arena::{Contestant, EnginePlayer, GameSoFar, Opening, play_game};
    use othello::Square;

    /// Plays this engine's move after sleeping `sleep` (as a slow engine would).
    struct Slow {
        player: EnginePlayer,
        sleep: Duration,
        told: Vec<Option<TimeLeft>>,
    }

    impl Contestant for Slow {
        fn choose(&mut self, game: &GameSoFar) -> Result<Square, Fault> {
            self.told.push(game.clock);
            std::thread::sleep(self.sleep);
            self.player.choose(game)
        }
    }

    fn slow(sleep: Duration) -> Slow {
        let spec = EngineSpec {
            budget: Budget::Nodes(50),
            ..EngineSpec::default()
        };
        Slow {
            player: EnginePlayer::new(&spec, Evaluation::Classic),
            sleep,
            told: Vec::new(),
        }
    }

    #[test]
    fn a_player_is_told_its_time_and_loses_the_game_when_it_runs_out() {
        let start = Opening::new(Vec::new()).unwrap();
        let control: TimeControl = "0.5+0.01".parse().unwrap();
        let (mut quick, mut sleepy) = (slow(Duration::ZERO), slow(ms(60)));
        let finished = play_game(&start, Color::Black, &mut quick, &mut sleepy, Some(control));
        let forfeit = finished.forfeit.expect("white ran out of time");
        assert_eq!(forfeit.color, Color::White);
        let Fault::OutOfTime { took, left } = forfeit.fault else {
            panic!("{:?}", forfeit.fault);
        };
        assert!(took > left && took >= ms(60), "{took:?} {left:?}");
        // White's clock went down by at least 50 ms a move (60 less the increment) from 0.5 s.
        let told: Vec<Duration> = sleepy.told.iter().map(|t| t.unwrap().left).collect();
        assert_eq!(told[0], ms(500));
        assert!(told.windows(2).all(|w| w[1] + ms(50) <= w[0]), "{told:?}");
        assert!((8..=10).contains(&told.len()), "{told:?}");
        assert!(quick.told.iter().all(|t| t.unwrap().increment == ms(10)));
        // Without a clock, nobody is told one and the game is played out.
        let (mut a, mut b) = (slow(Duration::ZERO), slow(Duration::ZERO));
        let finished = play_game(&start, Color::Black, &mut a, &mut b, None);
        assert!(finished.forfeit.is_none() && finished.end.is_over());
        assert!(a.told.iter().chain(&b.told).all(Option::is_none));
    }

    #[test]
    fn this_engine_thinks_by_the_clock_instead_of_its_share() {
        let spec = EngineSpec {
            budget: Budget::Nodes(5000),
            share: Some(Duration::from_secs(6)),
            ..EngineSpec::default()
        };
        let player = EnginePlayer::new(&spec, Evaluation::Classic);
        let game = crate::arena::openings::standard_start();
        let clock = TimeLeft {
            left: ms(60_000),
            increment: Duration::ZERO,
        };
        let limits = player.limits(&game, Some(clock));
        assert_eq!(
            (limits.target, limits.time),
            (Some(ms(3750)), Some(ms(7500)))
        );
        assert_eq!(limits.nodes, Some(5000));
    }

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    #[test]
    fn a_time_control_reads_as_it_is_written() {
        let control: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((control.main, control.increment), (ms(10_000), ms(100)));
        assert_eq!(control.to_string(), "10+0.1");
        let control: TimeControl = " 60 ".parse().unwrap();
        assert_eq!((control.main, control.increment), (ms(60_000), ms(0)));
        assert_eq!(control.to_string(), "60");
        for bad in [
            "", "0", "0+1", "-1", "1+-1", "ten", "1+", "+1", "nan", "90000", "1+2+3",
        ] {
            let error = bad.parse::<TimeControl>().unwrap_err();
            assert!(error.contains(&format!("found {bad:?}")), "{bad}: {error}");
        }
        assert!(
            "0+1"
                .parse::<TimeControl>()
                .unwrap_err()
                .ends_with("must be above 0"),
            "the time for a game is needed"
        );
    }

    #[test]
    fn seconds_are_written_to_the_millisecond_without_trailing_zeros() {
        assert_eq!(seconds_text(ms(10_000)), "10");
        assert_eq!(seconds_text(ms(100)), "0.1");
        assert_eq!(seconds_text(ms(9_875)), "9.875");
        assert_eq!(seconds_text(Duration::ZERO), "0");
    }

    #[test]
    fn a_move_is_charged_and_given_the_increment_or_loses_on_time() {
        let mut clocks = Clocks::new("1+0.25".parse().unwrap());
        clocks.charge(Color::Black, ms(400)).unwrap();
        assert_eq!(clocks.on_turn(Color::Black).left, ms(850));
        assert_eq!(clocks.on_turn(Color::White).left, ms(1000));
        assert_eq!(
            clocks.charge(Color::White, ms(1001)),
            Err(Fault::OutOfTime {
                took: ms(1001),
                left: ms(1000)
            })
        );
    }

    #[test]
    fn the_budget_shares_the_time_left_and_never_passes_half_of_it() {
        let clock = TimeLeft {
            left: ms(60_000),
            increment: Duration::ZERO,
        };
        // 24 moves to come at 60 empties before the last 12: 1.5 * 60 s / 24.
        assert_eq!(clock.budget(60), (ms(3750), ms(7500)));
        let with_increment = TimeLeft {
            increment: ms(250),
            ..clock
        };
        assert_eq!(with_increment.budget(60), (ms(4000), ms(8000)));
        // From 14 empties on, one move to come: at most half the time left.
        assert_eq!(clock.budget(14), (ms(30_000), ms(30_000)));
        // Little time left: both at half of it, whatever the increment.
        let short = TimeLeft {
            left: ms(100),
            increment: ms(500),
        };
        assert_eq!(short.budget(20), (ms(50), ms(50)));
    }
}
