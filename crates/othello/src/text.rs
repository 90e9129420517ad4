//! Words shared by the library's messages and its front ends' output.

use std::fmt::Display;

/// A count and its noun, the singular for exactly one, signed or not: `counted(1, "game",
/// "games")` is `1 game`, `counted(3, "game", "games")` is `3 games`, `counted(-1, "disc",
/// "discs")` is `-1 disc` and `counted("+1", "disc", "discs")` is `+1 disc`.
#[must_use]
pub fn counted(count: impl Display, one: &str, many: &str) -> String {
    let count = count.to_string();
    let noun = if matches!(count.as_str(), "1" | "+1" | "-1") {
        one
    } else {
        many
    };
    format!("{count} {noun}")
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_is_singular_signed_or_not_and_every_other_count_plural() {
        assert_eq!(counted(1, "game", "games"), "1 game");
        assert_eq!(counted(0u64, "game", "games"), "0 games");
        assert_eq!(counted(11usize, "leaf", "leaves"), "11 leaves");
        assert_eq!(counted(-1, "disc", "discs"), "-1 disc");
        assert_eq!(counted("+1", "disc", "discs"), "+1 disc");
        assert_eq!(counted(-2, "disc", "discs"), "-2 discs");
        assert_eq!(counted(11, "disc", "discs"), "11 discs");
        assert_eq!(counted(1u8, "more byte", "more bytes"), "1 more byte");
    }
}
