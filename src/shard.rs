//! `--shard K/N`: the K-th of N consecutive, nearly equal parts of a run's work (the games of
//! `othello train selfplay` and `rescore`, the searches of a step of `othello book step`),
//! which a scheduler runs as separate jobs; `othello train merge` and `othello book merge` join
//! their files in shard order into what one run would have written.

use std::ops::Range;

/// The K-th of N parts of a run (1-based, as `--shard K/N` writes it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    /// Which part, 1 to `count`.
    pub(crate) index: u64,
    /// How many parts.
    pub(crate) count: u64,
}

impl Shard {
    /// The numbers of this part's items among `games` (item `i` in shard `K` when
    /// `games * (K - 1) / N <= i < games * K / N`): the parts, in order, are the run.
    pub(crate) fn games(self, games: u64) -> Range<u64> {
        let at = |part: u64| {
            u64::try_from(u128::from(games) * u128::from(part) / u128::from(self.count))
                .expect("at most games")
        };
        at(self.index - 1)..at(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `K/N` with 1 <= K <= N.
pub(crate) fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("expected K/N with 1 <= K <= N (for example 3/8), found {text:?}");
    let (index, count) = text.split_once('/').ok_or_else(bad)?;
    let index: u64 = index.trim().parse().map_err(|_| bad())?;
    let count: u64 = count.trim().parse().map_err(|_| bad())?;
    if index == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shards_in_order_are_the_run() {
        for games in [0, 1, 7, 100, 1001] {
            for count in 1..=9 {
                let mut next = 0;
                for index in 1..=count {
                    let range = Shard { index, count }.games(games);
                    assert_eq!(range.start, next);
                    assert!(range.end - range.start <= games / count + 1);
                    next = range.end;
                }
                assert_eq!(next, games);
            }
        }
    }

    #[test]
    fn shards_are_read_as_k_of_n() {
        assert_eq!(parse_shard(" 3/8"), Ok(Shard { index: 3, count: 8 }));
        for bad in ["0/4", "5/4", "3", "a/b", "1/0", "-1/4"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
