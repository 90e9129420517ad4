//! The clocks of a GTP session, as `time_settings` and `time_left` describe them, and how long
//! a move may take by them.

use std::time::Duration;

use othello::{ByColor, Color};

/// The clocks as `time_settings` and `time_left` describe them.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Clock {
    /// `main_time`, `byo_yomi_time`, `byo_yomi_stones`, if `time_settings` was given.
    pub(super) settings: Option<(Duration, Duration, u32)>,
    /// Each player's time left and stones left in the period (0 in main time).
    pub(super) left: ByColor<Option<(Duration, u32)>>,
}

impl Clock {
    /// How long `player` may think over a move with `empties` empty squares left: in main time,
    /// its share of the time left ([`crate::clock::share_of`]) plus the byo-yomi time of
    /// one stone; in a byo-yomi period, the period's time left over its stones left, a tenth
    /// kept in reserve; `None` without time limits.
    pub(super) fn budget(&self, player: Color, empties: u32) -> Option<Duration> {
        let (main, byo_time, byo_stones) = self.settings?;
        if byo_stones == 0 && !byo_time.is_zero() {
            return None; // "no time limits" in GTP's terms
        }
        if main.is_zero() && byo_time.is_zero() {
            return None;
        }
        let (left, stones) = self.time_left(player);
        let per_stone = if byo_stones > 0 {
            byo_time / byo_stones
        } else {
            Duration::ZERO
        };
        let share = if stones > 0 {
            // In a byo-yomi period: its time left over its stones left, a tenth in reserve.
            left.mul_f64(0.9) / stones
        } else {
            crate::clock::share_of(left, empties) + per_stone
        };
        Some(share.max(Duration::from_millis(10)))
    }

    /// The longest `player` may think over a move whose share is `share`: twice the share, but
    /// never more than half the time left (nor less than the share).
    pub(super) fn hard_limit(&self, player: Color, share: Duration) -> Duration {
        crate::clock::hard_limit(share, self.time_left(player).0)
    }

    /// `player`'s time left and stones left in its byo-yomi period: as `time_left` last said,
    /// else the main time (and no period).
    fn time_left(&self, player: Color) -> (Duration, u32) {
        let main = self.settings.map_or(Duration::ZERO, |(main, _, _)| main);
        self.left[player].unwrap_or((main, 0))
    }
}
