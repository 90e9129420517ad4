//! Speeds as people read them: a count per second with an SI prefix (`33.2 M`, `812 k`, `950`),
//! and nothing where the time is too short for the clock to say anything about a speed.

use std::time::Duration;

/// Below this, a measured time says nothing about a speed: the speed is shown as `-`.
const SHORTEST: Duration = Duration::from_millis(1);

/// `count` per second over `elapsed`, with an SI prefix and three significant digits (`33.2 M`,
/// `4.07 G`, `812 k`, `950`), or `-` when `elapsed` is under a millisecond.
pub fn per_second(count: u64, elapsed: Duration) -> String {
    if elapsed < SHORTEST {
        return "-".to_owned();
    }
    let rate = count as f64 / elapsed.as_secs_f64();
    let (value, prefix) = [(1e12, " T"), (1e9, " G"), (1e6, " M"), (1e3, " k")]
        .into_iter()
        .find(|&(unit, _)| rate >= unit)
        .map_or((rate, ""), |(unit, prefix)| (rate / unit, prefix));
    let decimals = match value {
        v if v >= 99.95 => 0,
        v if v >= 9.995 => 1,
        _ => 2,
    };
    if prefix.is_empty() {
        format!("{value:.0}")
    } else {
        format!("{value:.decimals$}{prefix}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_read_with_a_prefix() {
        let second = Duration::from_secs(1);
        assert_eq!(per_second(33_200_000, second), "33.2 M");
        assert_eq!(per_second(4_070_000_000, second), "4.07 G");
        assert_eq!(per_second(812_345, second), "812 k");
        assert_eq!(per_second(950, second), "950");
        assert_eq!(per_second(0, second), "0");
        assert_eq!(per_second(1_396, Duration::from_millis(2)), "698 k");
    }

    #[test]
    fn too_short_a_time_gives_no_speed() {
        assert_eq!(per_second(1_396, Duration::from_micros(60)), "-");
        assert_eq!(per_second(4, Duration::ZERO), "-");
    }
}
