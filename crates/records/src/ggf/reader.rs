//! Reading GGF games: each game's properties, its board and its moves.

use othello::Board;
use othello::Color;
use othello::RuleSet;
use othello::notation::parse_square;
use othello::{Dimensions, Setup, WinRule};

use super::board_type::BoardType;
use super::cursor::{Cursor, Value};
use crate::error::{RecordError, RecordErrorKind};
use crate::metadata::Metadata;
use crate::record::{GameRecord, RecordMove};
use crate::wthor;

/// The next game after the cursor, read on its own: a game that cannot be read is its error
/// (the line and column of what is wrong), and the cursor is then after its end, where reading
/// goes on. `None` at the end of the text.
pub(super) fn next_game(cursor: &mut Cursor<'_>) -> Option<Result<GameRecord, RecordError>> {
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
