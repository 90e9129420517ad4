//! GGF, the Generic Game Format of the GGS server (`NBoard` reads and writes it too):
//! `(;GM[Othello]PC[place]DT[date]PB[black]PW[white]RE[+12.000]TI[5:00]TY[8]BO[8 ... *]B[f5]W[d6]...;)`.
//!
//! Properties read: `GM` (must be Othello), `PC` (the place or event), `DT`, `PB`, `PW`, `RE`
//! (black's margin, kept as written), `TY` (the board type, see [`BoardType`]: its size, and
//! `a` for "anti": fewest discs wins), `BO` (the starting board: the side, then the cells row by
//! row, `-` empty, `*` black, `O` white, then the side to move, `*` or `O`; it is authoritative,
//! so random starts and synchro games need nothing else), and the moves `B[..]` and `W[..]`. A
//! move may carry an evaluation and a time after slashes (`B[f5/1.23/0.5]`), which are ignored,
//! and a pass is `PA` (or `pass`); a colour that moves twice in a row means the other passed.
//! Every other property (`TY` as written when it says more than the size and `a`, `KB`, `KW`,
//! `KM`, `TI`, `RB`, `RW`, comments `C[..]`, ...) is kept in [`Metadata::properties`] and
//! written back; a comment `C[WTHOR ...]` written
//! by [`super::wthor::comment`] gives back the WTHOR numbers of the game. Anything between games
//! is skipped; a file holds any number of games, and [`super::games`] reads each on its own.
//! `RU[SIMPLE]` marks a game under the SIMPLE rules (a property of this crate; GGS has only
//! the FULL rules). GGF boards are square.

use othello::Board;
use othello::Color;
use othello::RuleSet;
use othello::notation::parse_square;
use othello::{Dimensions, Square};
use othello::{Setup, WinRule};

use super::{
    Format, FormatSpec, GameRecord, Metadata, ReadOptions, RecordError, RecordErrorKind,
    RecordMove, WriteError, cannot_hold, shown, wthor,
};

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

/// A cursor over the text that knows its line and column.
#[derive(Clone)]
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    /// Bytes of the text before the next character.
    offset: usize,
    line: usize,
    column: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at byte `offset` of `text`, which is at `line` and `column`.
    fn at(text: &'a str, offset: usize, line: usize, column: usize) -> Cursor<'a> {
        Cursor {
            chars: text[offset..].chars().peekable(),
            offset,
            line,
            column,
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.offset += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn error(&self, kind: RecordErrorKind) -> RecordError {
        RecordError::at_text(self.line, self.column, kind)
    }

    fn expected(&mut self, expected: &'static str) -> RecordError {
        let found = match self.peek() {
            None => "the end of the input".to_owned(),
            Some(c) => format!("{c:?}"),
        };
        self.error(RecordErrorKind::Expected { expected, found })
    }
}

/// A property value with where it starts.
struct Value {
    text: String,
    line: usize,
    column: usize,
}

impl Value {
    fn error(&self, kind: RecordErrorKind) -> RecordError {
        RecordError::at_text(self.line, self.column, kind)
    }

    fn expected(&self, expected: &'static str) -> RecordError {
        self.error(RecordErrorKind::Expected {
            expected,
            found: shown(&self.text),
        })
    }
}

/// GGF's entry in the table of formats.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Ggf,
    name: "ggf",
    title: "GGF",
    input: "GGF",
    summary: "The Generic Game Format (GGS, `NBoard`)",
    positions: false,
    extensions: &["ggf"],
    detect: |input| input.windows(2).any(|pair| pair == b"(;"),
    games: |input, _| {
        let text = super::decode(input);
        let (mut offset, mut line, mut column) = (0, 1, 1);
        Box::new(std::iter::from_fn(move || {
            let mut cursor = Cursor::at(&text, offset, line, column);
            let game = next_game(&mut cursor);
            (offset, line, column) = (cursor.offset, cursor.line, cursor.column);
            game
        }))
    },
    reads_past_errors: true,
    write: |records| super::write_each(records, write_game),
    write_game,
};

/// Reads every game of a GGF file.
///
/// # Errors
/// [`RecordError`] with the line and column of the first property that is wrong, of a move
/// that cannot be played, or of the place where a game is cut short.
pub fn read(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    super::read_text_as(Format::Ggf, text, ReadOptions::default())
}

/// The next game after the cursor, read on its own: a game that cannot be read is its error
/// (the line and column of what is wrong), and the cursor is then after its end, where reading
/// goes on. `None` at the end of the text.
fn next_game(cursor: &mut Cursor<'_>) -> Option<Result<GameRecord, RecordError>> {
    while let Some(c) = cursor.bump() {
        if c != '(' {
            continue;
        }
        let start = cursor.clone();
        cursor.skip_space();
        let game = if cursor.peek() == Some(';') {
            cursor.bump();
            read_game(cursor)
        } else {
            Err(cursor.expected("; after ( at the start of a game"))
        };
        if game.is_err() {
            *cursor = start;
            skip_game(cursor);
        }
        return Some(game);
    }
    None
}

/// Moves past the `)` that ends the game whose `(` was just read (or to the end of the text),
/// skipping property values.
fn skip_game(cursor: &mut Cursor<'_>) {
    let mut in_value = false;
    while let Some(c) = cursor.bump() {
        match c {
            '\\' if in_value => {
                cursor.bump();
            }
            '[' => in_value = true,
            ']' => in_value = false,
            ')' if !in_value => return,
            _ => {}
        }
    }
}

/// Reads one game's properties, after its `(;`, up to and including its `;)`.
#[expect(
    clippy::too_many_lines,
    reason = "one match over the format's properties, read top to bottom"
)]
fn read_game(cursor: &mut Cursor<'_>) -> Result<GameRecord, RecordError> {
    let mut metadata = Metadata::default();
    let mut board_type: Option<(BoardType, Value)> = None;
    let mut board: Option<Value> = None;
    let mut rules = RuleSet::Full;
    let mut moves: Vec<(Color, Value)> = Vec::new();
    loop {
        cursor.skip_space();
        match cursor.peek() {
            Some(';') => {
                cursor.bump();
                cursor.skip_space();
                if cursor.peek() == Some(')') {
                    cursor.bump();
                    break;
                }
            }
            Some(')') => {
                cursor.bump();
                break;
            }
            Some(c) if c.is_ascii_uppercase() => {
                let mut name = String::new();
                while let Some(c) = cursor.peek().filter(char::is_ascii_alphanumeric) {
                    name.push(c);
                    cursor.bump();
                }
                cursor.skip_space();
                if cursor.peek() != Some('[') {
                    return Err(cursor.expected("[ after the property name"));
                }
                cursor.bump();
                let value = read_value(cursor)?;
                match name.as_str() {
                    "GM" if !value.text.trim().eq_ignore_ascii_case("othello") => {
                        return Err(value.expected("GM[Othello]"));
                    }
                    "PC" => metadata.event = non_empty(&value.text),
                    "DT" => metadata.date = non_empty(&value.text),
                    "PB" => metadata.black = non_empty(&value.text),
                    "PW" => metadata.white = non_empty(&value.text),
                    "RE" => metadata.result = non_empty(&value.text),
                    "TY" => {
                        let read = BoardType::parse(&value.text)
                            .map_err(|expected| value.expected(expected))?;
                        // Kept when it says more than the writer's `TY[8]` or `TY[8a]`.
                        let plain = format!("{}{}", read.side, if read.anti { "a" } else { "" });
                        if value.text.trim() != plain {
                            metadata
                                .properties
                                .push((name.clone(), value.text.trim().to_owned()));
                        }
                        board_type = Some((read, value));
                    }
                    "BO" => board = Some(value),
                    "RU" => {
                        rules = value
                            .text
                            .trim()
                            .parse()
                            .map_err(|_| value.expected("RU[FULL] or RU[SIMPLE]"))?;
                    }
                    "B" => moves.push((Color::Black, value)),
                    "W" => moves.push((Color::White, value)),
                    "C" if metadata.wthor.is_none()
                        && wthor::parse_comment(&value.text).is_some() =>
                    {
                        metadata.wthor = wthor::parse_comment(&value.text);
                    }
                    "GM" => {}
                    _ => metadata.properties.push((name.clone(), value.text)),
                }
            }
            _ => return Err(cursor.expected("a property such as B[f5], or ;) to end the game")),
        }
    }
    let side_of_type = board_type.as_ref().map(|(read, _)| read.side);
    let mut setup = match &board {
        Some(value) => read_board(value, side_of_type)?,
        None => Setup::standard(square(side_of_type.unwrap_or(8))),
    };
    if board_type.as_ref().is_some_and(|(read, _)| read.anti) {
        setup.win = WinRule::FewestDiscs;
    }
    let dims = setup.board.dims();
    let mut nominal = setup.first;
    let mut sequence = Vec::new();
    let mut at = Vec::new();
    for (color, value) in &moves {
        let square = value.text.split('/').next().unwrap_or("").trim();
        if color != &nominal {
            sequence.push(RecordMove::Pass);
            at.push(value);
        }
        if square.eq_ignore_ascii_case("pa") || square.eq_ignore_ascii_case("pass") {
            sequence.push(RecordMove::Pass);
        } else {
            let square = parse_square(square, dims).map_err(|source| value.error(source.into()))?;
            sequence.push(RecordMove::Play(square));
        }
        at.push(value);
        nominal = color.opponent();
    }
    GameRecord::new(setup, rules, sequence, metadata)
        .map_err(|replay| at[replay.number - 1].error(RecordErrorKind::Replay(replay)))
}

/// Reads a value after its `[`, up to and including its `]`; `\` escapes the next character.
fn read_value(cursor: &mut Cursor<'_>) -> Result<Value, RecordError> {
    let (line, column) = (cursor.line, cursor.column);
    let mut text = String::new();
    loop {
        match cursor.bump() {
            None => return Err(cursor.expected("] to end the property value")),
            Some(']') => break,
            Some('\\') => {
                if let Some(c) = cursor.bump() {
                    text.push(c);
                }
            }
            Some(c) => text.push(c),
        }
    }
    Ok(Value { text, line, column })
}

fn non_empty(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

fn square(side: usize) -> Dimensions {
    Dimensions::new(side, side).expect("the side was checked")
}

/// Reads `BO[8 cells side]`.
fn read_board(value: &Value, side_of_type: Option<usize>) -> Result<Setup, RecordError> {
    const EXPECTED: &str = "a board such as BO[8 ---...--- *]: the side, the cells (-, * or O) row by row, the side to move";
    let mut fields = value.text.split_whitespace();
    let side = fields
        .next()
        .and_then(|side| side.parse::<usize>().ok())
        .filter(|&side| Dimensions::side_ok(side))
        .ok_or_else(|| value.expected(EXPECTED))?;
    if side_of_type.is_some_and(|other| other != side) {
        return Err(value.expected("a board of the size TY gives"));
    }
    let rest: String = fields.collect();
    let dims = square(side);
    if rest.chars().count() != dims.cells() + 1 {
        return Err(value.expected(EXPECTED));
    }
    let mut board = Board::empty(dims);
    let mut chars = rest.chars();
    for square in dims.squares() {
        let disc = match chars.next() {
            Some('-' | '.') => None,
            Some('*' | 'x' | 'X' | '#') => Some(Color::Black),
            Some('O' | 'o') => Some(Color::White),
            _ => return Err(value.expected(EXPECTED)),
        };
        board.put(square, disc);
    }
    let first = match chars.next() {
        Some('*' | 'x' | 'X' | '#') => Color::Black,
        Some('O' | 'o') => Color::White,
        _ => return Err(value.expected(EXPECTED)),
    };
    Ok(Setup {
        board,
        first,
        win: WinRule::MostDiscs,
    })
}

/// Writes every game, one per line.
///
/// # Errors
/// [`WriteError`] for a game on a board that is not square.
pub fn write(records: &[GameRecord]) -> Result<String, WriteError> {
    let bytes = super::write_each(records, write_game)?;
    Ok(String::from_utf8(bytes).expect("text is written as UTF-8"))
}

/// Appends game `index` and a line ending to `out`.
fn write_game(index: usize, record: &GameRecord, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let dims = record.dims();
    if dims.rows() != dims.cols() {
        return Err(cannot_hold(
            index,
            Format::Ggf,
            format!("a {dims} board: its boards are square"),
        ));
    }
    out.extend_from_slice(game(record).as_bytes());
    out.push(b'\n');
    Ok(())
}

/// One game on one line, without a line ending (the board must be square).
#[must_use]
pub fn game(record: &GameRecord) -> String {
    let setup = record.setup();
    let side = record.dims().rows();
    let meta = record.metadata();
    let mut text = String::from("(;GM[Othello]");
    for (name, value) in [
        ("PC", &meta.event),
        ("DT", &meta.date),
        ("PB", &meta.black),
        ("PW", &meta.white),
        ("RE", &meta.result),
    ] {
        if let Some(value) = value {
            text.push_str(&format!("{name}[{}]", escape(value)));
        }
    }
    // The type as read where it agrees with the game (its size and win rule), in its place.
    let anti = setup.win == WinRule::FewestDiscs;
    let board_type = format!("{side}{}", if anti { "a" } else { "" });
    let mut typed = false;
    for (name, value) in &meta.properties {
        if name == "TY" {
            let agrees =
                BoardType::parse(value).is_ok_and(|read| read.side == side && read.anti == anti);
            let value = if agrees { value } else { &board_type };
            text.push_str(&format!("TY[{}]", escape(value)));
            typed = true;
        } else {
            text.push_str(&format!("{name}[{}]", escape(value)));
        }
    }
    if let Some(info) = &meta.wthor {
        text.push_str(&format!("C[{}]", escape(&wthor::comment(info))));
    }
    if !typed {
        text.push_str(&format!("TY[{board_type}]"));
    }
    if record.rules() == RuleSet::Simple {
        text.push_str("RU[SIMPLE]");
    }
    text.push_str(&format!("BO[{side}"));
    for row in 0..side {
        text.push(' ');
        for col in 0..side {
            text.push(cell(setup.board.at(Square::new(row, col))));
        }
    }
    text.push(' ');
    text.push(cell(Some(setup.first)));
    text.push(']');
    let mut color = setup.first;
    for record_move in record.moves() {
        let name = match color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        match record_move {
            RecordMove::Play(square) => text.push_str(&format!("{name}[{square}]")),
            RecordMove::Pass => text.push_str(&format!("{name}[PA]")),
        }
        color = color.opponent();
    }
    text.push_str(";)");
    text
}

fn cell(disc: Option<Color>) -> char {
    match disc {
        None => '-',
        Some(Color::Black) => '*',
        Some(Color::White) => 'O',
    }
}

fn escape(value: &str) -> String {
    value
        .chars()
        .flat_map(|c| match c {
            ']' | '\\' => vec!['\\', c],
            c if c.is_control() => vec![' '],
            c => vec![c],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_game_with_annotations_and_a_comment() {
        let text = "junk before\n(;GM[Othello]PC[NBoard]DT[2024-05-01]PB[Ann]PW[Bob\\]s]RE[+4.000]\n\
                    TI[5:00//2:00]TY[8]C[a comment; with (parens)]\n\
                    BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\n\
                    B[f5/1.23/0.5]W[d6//2.1]B[C3]W[pa];)";
        let error = read(text).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 5, column 32: move 4: white passes but can play d3 (and 3 other moves)"
        );
        let text = text.replace("W[pa]", "");
        let records = read(&text).unwrap();
        assert_eq!(records.len(), 1);
        let record = &records[0];
        assert_eq!(record.metadata().white.as_deref(), Some("Bob]s"));
        assert_eq!(record.metadata().event.as_deref(), Some("NBoard"));
        assert_eq!(record.metadata().result.as_deref(), Some("+4.000"));
        assert_eq!(
            record.squares().map(|s| s.to_string()).collect::<Vec<_>>(),
            ["f5", "d6", "c3"]
        );
        let written = game(record);
        assert_eq!(
            written,
            "(;GM[Othello]PC[NBoard]DT[2024-05-01]PB[Ann]PW[Bob\\]s]RE[+4.000]TI[5:00//2:00]\
             C[a comment; with (parens)]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6]B[c3];)"
        );
        assert_eq!(read(&written).unwrap()[0], *record);
    }

    #[test]
    fn reads_the_board_types_ggs_writes() {
        for (text, side, synchro, komi, anti, random) in [
            ("8", 8, false, false, false, None),
            ("s8r18", 8, true, false, false, Some(18)),
            ("8kr20", 8, false, true, false, Some(20)),
            ("8ar14", 8, false, false, true, Some(14)),
            ("S10", 10, true, false, false, None),
        ] {
            let read = BoardType::parse(text).unwrap();
            assert_eq!(
                (read.side, read.synchro, read.komi, read.anti, read.random),
                (side, synchro, komi, anti, random),
                "{text}"
            );
        }
        assert_eq!(BoardType::parse("8b").unwrap().color, Some(Color::Black));
        assert!(BoardType::parse("8x").is_err());
        assert!(BoardType::parse("r8").is_err());
    }

    #[test]
    fn keeps_what_it_does_not_read_and_skips_a_bad_game() {
        let komi =
            "(;GM[Othello]PB[a]PW[b]TY[8k]KB[e6//0.90]KW[f5/-1.00]KM[-0.500]RE[+8.500]B[f5];)";
        let bad = "(;GM[Othello]TY[8]B[z9];)";
        let anti = "(;GM[Othello]TY[8ar14]B[f5];)";
        let text = format!("{komi}\n{bad}\n{anti}\n");
        let games: Vec<_> = super::super::games(text.as_bytes(), &ReadOptions::default()).collect();
        assert_eq!(games.len(), 3);
        let first = games[0].as_ref().unwrap();
        assert_eq!(
            game(first),
            "(;GM[Othello]PB[a]PW[b]RE[+8.500]TY[8k]KB[e6//0.90]KW[f5/-1.00]KM[-0.500]\
             BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5];)"
        );
        assert_eq!(
            games[1].as_ref().unwrap_err().to_string(),
            "line 2, column 21: column z is off the board: columns are a to h"
        );
        let third = games[2].as_ref().unwrap();
        assert_eq!(third.setup().win, WinRule::FewestDiscs);
        assert!(game(third).contains("TY[8ar14]"));
        assert!(read(bad).is_err());
    }

    #[test]
    fn says_what_is_wrong_and_where() {
        let error = |text: &str| read(text).unwrap_err().to_string();
        assert_eq!(
            error("(;GM[Chess];)"),
            "line 1, column 6: expected GM[Othello], found \"Chess\""
        );
        assert_eq!(
            error("(;GM[Othello]B[f5"),
            "line 1, column 18: expected ] to end the property value, found the end of the input"
        );
        assert_eq!(
            error("(;GM[Othello]\nB[z9];)"),
            "line 2, column 3: column z is off the board: columns are a to h"
        );
        assert_eq!(
            error("(;TY[8]BO[8 --- *];)"),
            "line 1, column 11: expected a board such as BO[8 ---...--- *]: the side, the cells (-, * or O) row by row, the side to move, found \"8 --- *\""
        );
        assert_eq!(
            error("(;TY[7];)"),
            "line 1, column 6: expected a board type such as TY[8], TY[s8r18] or TY[8kr20] (a side from 4 to 16, then k, a, rN, b or w), found \"7\""
        );
        assert_eq!(
            error("(;TY[88];)"),
            "line 1, column 6: expected a square board type: the octagon, TY[88], is not played here, found \"88\""
        );
        assert_eq!(
            error("(;B[f5] = W[d6];)"),
            "line 1, column 9: expected a property such as B[f5], or ;) to end the game, found '='"
        );
    }
}
