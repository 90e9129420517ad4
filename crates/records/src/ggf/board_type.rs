//! GGS board types, the value of `TY` ([`BoardType`]).

use othello::Color;
use othello::Dimensions;

/// A GGS board type, the value of `TY`: an optional `s` (a synchro game: each player plays both
/// colours), the board's side (`8`; GGS plays 4 to 14, and `88`, the octagon, which is not read),
/// then any of `k` (komi: the players bid for the colour, `KB`, `KW`, `KM`), `a` (anti: fewest
/// discs wins), `rN` (a random start with N discs), `b` or `w` (the colour asked for). The board
/// itself comes from `BO`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BoardType {
    /// The board's side.
    pub side: usize,
    /// `s`: a synchro game.
    pub synchro: bool,
    /// `k`: a komi game.
    pub komi: bool,
    /// `a`: fewest discs wins.
    pub anti: bool,
    /// `rN`: a random start with this many discs.
    pub random: Option<u32>,
    /// `b` or `w`: the colour asked for.
    pub color: Option<Color>,
}

impl BoardType {
    /// Reads a type such as `8`, `s8r18`, `8kr20` or `8ar14`.
    ///
    /// # Errors
    /// What it expected, for a type it cannot read (the octagon `88` included).
    pub fn parse(text: &str) -> Result<BoardType, &'static str> {
        const EXPECTED: &str = "a board type such as TY[8], TY[s8r18] or TY[8kr20] (a side from 4 to 16, then k, a, rN, b or w)";
        let text = text.trim();
        let mut chars = text.chars().peekable();
        let mut board = BoardType::default();
        if chars.peek().is_some_and(|c| c.eq_ignore_ascii_case(&'s')) {
            board.synchro = true;
            chars.next();
        }
        let digits = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
            let mut number = String::new();
            while let Some(c) = chars.next_if(char::is_ascii_digit) {
                number.push(c);
            }
            number.parse::<u32>().ok()
        };
        let side = digits(&mut chars).ok_or(EXPECTED)?;
        if side == 88 {
            return Err("a square board type: the octagon, TY[88], is not played here");
        }
        board.side = side as usize;
        if !Dimensions::side_ok(board.side) {
            return Err(EXPECTED);
        }
        while let Some(c) = chars.next() {
            match c.to_ascii_lowercase() {
                's' => board.synchro = true,
                'k' => board.komi = true,
                'a' => board.anti = true,
                'b' => board.color = Some(Color::Black),
                'w' => board.color = Some(Color::White),
                'r' => board.random = Some(digits(&mut chars).ok_or(EXPECTED)?),
                _ => return Err(EXPECTED),
            }
        }
        Ok(board)
    }
}
