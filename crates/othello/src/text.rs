//! Words shared by the library's messages and its front ends' output.

use std::fmt::Display;

/// A count and its noun, the singular for exactly one: `counted(1, "game", "games")` is
/// `1 game`, `counted(3, "game", "games")` is `3 games`, `counted(-1, "disc", "discs")` is
/// `-1 discs`.
#[must_use]
pub fn counted(count: impl Display, one: &str, many: &str) -> String {
    let count = count.to_string();
    let noun = if count == "1" { one } else { many };
    format!("{count} {noun}")
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(counted(1, "game", "games"), "1 game");
        assert_eq!(counted(0u64, "game", "games"), "0 games");
        assert_eq!(counted(11usize, "leaf", "leaves"), "11 leaves");
        assert_eq!(counted(-1, "disc", "discs"), "-1 discs");
        assert_eq!(counted(1u8, "more byte", "more bytes"), "1 more byte");
    }
}
