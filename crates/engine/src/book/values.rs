//! What the book holds for a position, its search's result ([`Entry`]), and what it derives
//! from them by negamax ([`Known`]): the value of every position whose moves are all in the
//! book.

use std::collections::{BTreeMap, HashMap};

use super::position::{BookPosition, Next};

/// The most a score can be: all 64 discs.
pub(super) const MAX_SCORE: i32 = 64;

/// The deepest search depth stored.
pub(super) const MAX_DEPTH: u32 = 60;

/// What the book holds for one position: its own search's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// In discs, from the point of view of the player to move (positive when ahead), from -64
    /// to 64: the exact final margin with perfect play when `exact`, otherwise an evaluation.
    pub score: i32,
    /// The depth of the search in plies, from 1 to 60 (the empty squares when `exact`).
    pub depth: u32,
    /// Whether `score` is exact (the rest of the game was solved).
    pub exact: bool,
}

impl Entry {
    /// Whether this entry is the better scored of two for one position: exact before not,
    /// then deeper.
    #[must_use]
    pub fn is_better_than(&self, other: &Entry) -> bool {
        (self.exact, self.depth) > (other.exact, other.depth)
    }

    pub(super) fn check(&self) -> Result<(), String> {
        if self.score.abs() > MAX_SCORE {
            return Err(format!(
                "score {} is beyond -{MAX_SCORE}..{MAX_SCORE}",
                self.score
            ));
        }
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(format!("depth {} is beyond 1..{MAX_DEPTH}", self.depth));
        }
        Ok(())
    }
}

/// A position's value as the book derives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Derived {
    pub value: i8,
    pub expanded: bool,
}

/// What the book knows of a position: its stored entry and its derived value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The position's own search result.
    pub entry: Entry,
    /// The position's value for the player to move, in discs: the best of its moves' values
    /// when `expanded`, else the entry's score.
    pub value: i32,
    /// Whether every move of the position leads to a book position or ends the game.
    pub expanded: bool,
}

/// The values of the positions of `entries` into `derived`: positions with more discs first, so
/// that each position's moves are valued before it.
pub(super) fn derive(
    entries: &BTreeMap<BookPosition, Entry>,
    derived: &mut HashMap<BookPosition, Derived>,
) {
    let mut order: Vec<BookPosition> = entries.keys().copied().collect();
    order.sort_by_key(|position| std::cmp::Reverse(position.ply()));
    derived.clear();
    for position in order {
        let entry = entries[&position];
        let best = position
            .children()
            .map(|(_, next)| move_value(derived, next))
            .try_fold(i32::MIN, |best, value| Some(best.max(value?)));
        let value = match best {
            Some(value) => Derived {
                value: value.clamp(-MAX_SCORE, MAX_SCORE) as i8,
                expanded: true,
            },
            None => Derived {
                value: entry.score as i8,
                expanded: false,
            },
        };
        derived.insert(position, value);
    }
}

/// The value of a move that leads to `next`, for the mover, if `derived` knows it.
pub(super) fn move_value(derived: &HashMap<BookPosition, Derived>, next: Next) -> Option<i32> {
    match next {
        Next::End(margin) => Some(margin),
        Next::Position {
            position,
            same_mover,
        } => {
            let value = i32::from(derived.get(&position.canonical())?.value);
            Some(if same_mover { value } else { -value })
        }
    }
}
