//! The board and the score as people read them, with optional colour.

use std::fmt::Write as _;

use anstyle::{AnsiColor, Color as Paint, Style};

use othello::{ByColor, Color, Game, Played, Square, WinRule};

use othello::text::counted;
use othello_session::Player;

/// The character for each kind of cell; the same with or without colour.
pub const BLACK: char = 'X';
/// A white disc.
pub const WHITE: char = 'O';
/// An empty cell.
pub const EMPTY: char = '.';
/// An empty cell where the player to move may play.
pub const LEGAL: char = '*';

/// The glyph of a player's discs.
pub fn glyph(color: Color) -> char {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// A player as the board shows them: `Alice (X)`, the name and the glyph of their discs.
pub fn label(player: &Player) -> String {
    format!("{} ({})", player.name, glyph(player.color))
}

/// `"black"` as `"Black"`.
pub fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Styles for the parts of the display; all plain when colour is off.
#[derive(Clone, Copy, Debug, Default)]
pub struct Palette {
    black: Style,
    white: Style,
    empty: Style,
    legal: Style,
    marker: Style,
    cell: Style,
    /// Names, scores and other emphasis.
    pub strong: Style,
    /// Messages about something that went wrong.
    pub warning: Style,
}

impl Palette {
    /// Colours when `colour` is true, plain text otherwise.
    pub fn new(colour: bool) -> Palette {
        if !colour {
            return Palette::default();
        }
        let board = Style::new().bg_color(Some(Paint::Ansi(AnsiColor::Green)));
        Palette {
            black: board.fg_color(Some(Paint::Ansi(AnsiColor::Black))).bold(),
            white: board
                .fg_color(Some(Paint::Ansi(AnsiColor::BrightWhite)))
                .bold(),
            empty: board.fg_color(Some(Paint::Ansi(AnsiColor::BrightGreen))),
            legal: board
                .fg_color(Some(Paint::Ansi(AnsiColor::BrightYellow)))
                .bold(),
            marker: board.fg_color(Some(Paint::Ansi(AnsiColor::Red))).bold(),
            cell: board,
            strong: Style::new().bold(),
            warning: Style::new().fg_color(Some(Paint::Ansi(AnsiColor::Yellow))),
        }
    }

    /// `text` in `style`.
    pub fn paint(style: Style, text: impl std::fmt::Display) -> String {
        format!("{style}{text}{style:#}")
    }
}

/// The board with column letters above and below and row numbers on both sides. Legal moves of
/// the player to move are marked when `show_legal` is set; the last move is bracketed: `[X]`.
pub fn board(game: &Game, last: Option<Square>, show_legal: bool, palette: &Palette) -> String {
    let dims = game.board().dims();
    let legal = if show_legal {
        game.legal_moves()
    } else {
        Vec::new()
    };
    let mut letters = String::from("   ");
    for col in 0..dims.cols() {
        letters.push(' ');
        letters.push(Square::new(0, col).file_letter());
    }
    letters.push('\n');

    let mut out = letters.clone();
    for row in 0..dims.rows() {
        let _ = write!(out, "{:>3}", row + 1);
        // One separator before each square and one after the last: `[` before the last move,
        // `]` after it.
        for col in 0..=dims.cols() {
            let square = (col < dims.cols()).then(|| Square::new(row, col));
            let left = col.checked_sub(1).map(|c| Square::new(row, c));
            let separator = if last.is_some() && last == square {
                Palette::paint(palette.marker, '[')
            } else if last.is_some() && last == left {
                Palette::paint(palette.marker, ']')
            } else {
                Palette::paint(palette.cell, ' ')
            };
            out.push_str(&separator);
            let Some(square) = square else { break };
            let (style, ch) = match game.board().get(square).ok().flatten() {
                Some(Color::Black) => (palette.black, BLACK),
                Some(Color::White) => (palette.white, WHITE),
                None if legal.contains(&square) => (palette.legal, LEGAL),
                None => (palette.empty, EMPTY),
            };
            out.push_str(&Palette::paint(style, ch));
        }
        let _ = writeln!(out, "{}", row + 1);
    }
    out.push_str(&letters);
    out
}

/// How `winner` won a finished game: `by 6 discs`, or `with 6 fewer (fewest discs wins)`.
pub fn win_phrase(game: &Game, winner: Color) -> String {
    let score = game.score();
    let margin = score[winner].abs_diff(score[winner.opponent()]);
    match game.win_rule() {
        WinRule::MostDiscs => format!("by {}", counted(margin, "disc", "discs")),
        WinRule::FewestDiscs => {
            format!(
                "with {} fewer (fewest discs wins)",
                counted(margin, "disc", "discs")
            )
        }
    }
}

/// `c4 d3 e6 f5`, or `none`.
pub fn squares(moves: &[Square]) -> String {
    if moves.is_empty() {
        return "none".to_owned();
    }
    moves
        .iter()
        .map(Square::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a move says, as both front ends print it: who played where and how many discs it
/// flipped, then, if it forced a pass, who passes and who moves again.
pub fn move_sentences(players: &ByColor<Player>, played: Played) -> (String, Option<String>) {
    let mover = label(&players[played.player]);
    let move_sentence = format!(
        "{mover} plays {}, flipping {}.",
        played.square,
        counted(played.flipped, "disc", "discs")
    );
    let pass_sentence = played.passed.map(|passer| {
        format!(
            "{} has no legal move and passes; {mover} moves again.",
            label(&players[passer])
        )
    });
    (move_sentence, pass_sentence)
}

#[cfg(test)]
mod tests {
    use othello::{Dimensions, RuleSet, Setup};

    use super::*;

    #[test]
    fn plain_board_marks_legal_moves_and_the_last_move() {
        let mut game = Game::new(
            Setup::standard(Dimensions::new(4, 6).unwrap()),
            RuleSet::Full,
        );
        let plain = Palette::new(false);
        assert_eq!(
            board(&game, None, true, &plain),
            concat!(
                "    a b c d e f\n",
                "  1 . . * . . . 1\n",
                "  2 . * O X . . 2\n",
                "  3 . . X O * . 3\n",
                "  4 . . . * . . 4\n",
                "    a b c d e f\n",
            )
        );
        let c1 = Square::new(0, 2);
        game.play(c1).unwrap();
        assert_eq!(
            board(&game, Some(c1), false, &plain),
            concat!(
                "    a b c d e f\n",
                "  1 . .[X]. . . 1\n",
                "  2 . . X X . . 2\n",
                "  3 . . X O . . 3\n",
                "  4 . . . . . . 4\n",
                "    a b c d e f\n",
            )
        );
        // At the right edge, the closing bracket takes the place of the last space.
        let f4 = Square::new(3, 5);
        assert!(board(&game, Some(f4), false, &plain).contains("  4 . . . . .[.]4\n"));
    }

    #[test]
    fn colour_adds_escapes_without_changing_the_text() {
        let game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
        let coloured = board(&game, Some(Square::new(3, 3)), true, &Palette::new(true));
        assert!(coloured.contains('\u{1b}'));
        let plain = board(&game, Some(Square::new(3, 3)), true, &Palette::new(false));
        assert_eq!(anstream::adapter::strip_str(&coloured).to_string(), plain);
    }
}
