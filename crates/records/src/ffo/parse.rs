//! Reading one FFO or OBF line ([`parse_line`], [`parse_line_at`]), and what can be wrong with
//! it ([`FfoError`]).

use thiserror::Error;

use othello::Board;
use othello::Color;
use othello::notation::{NotationError, parse_square};
use othello::text::counted;
use othello::{Dimensions, Square};
use othello::{Setup, WinRule};

use super::position::{FfoPosition, Listed};

/// What is wrong with a line that has an FFO board (or something close to one).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FfoError {
    /// A field that looks like a board has the wrong number of squares.
    #[error("the board has {found} squares, expected 64 (X, O or - for each of a1..h8)")]
    BoardLength {
        /// How many characters the field has.
        found: usize,
    },
    /// A field that looks like a board holds a character that is no square's.
    #[error("the board has {found:?} at {square}, expected X, O or -")]
    BoardCell {
        /// The character.
        found: char,
        /// Where it is.
        square: Square,
    },
    /// Nothing follows the board.
    #[error("expected the side to move (X or O) after the board, found the end of the line")]
    MissingSide,
    /// The side to move is not `X` or `O`.
    #[error("expected the side to move, X or O, found {0:?}")]
    Side(String),
    /// The empties field is not a number.
    #[error("expected the number of empties, found {0:?}")]
    EmptiesField(String),
    /// The empties field disagrees with the board.
    #[error(
        "the line says {} but the board has {actual}",
        counted(listed, "empty", "empties")
    )]
    EmptiesCount {
        /// What the line says.
        listed: String,
        /// What the board has.
        actual: u32,
    },
    /// A best move is not a square.
    #[error("expected a square such as a2, found {found:?}")]
    Square {
        /// The text.
        found: String,
        /// Why it is not a square of the 8x8 board.
        source: NotationError,
    },
    /// Best moves without a score.
    #[error("expected the listed score after the best moves")]
    MissingScore,
    /// The score is not an integer.
    #[error("expected the listed score, found {0:?}")]
    Score(String),
    /// A move score is not `MOVE:SCORE`.
    #[error("expected a move and its score such as A2:+38, found {0:?}")]
    MoveScore(String),
}

/// The characters of an FFO board.
const BOARD_CELLS: &[u8] = b"XxOo-.*";

/// Whether `field` is a 64-character FFO board.
fn is_board(field: &str) -> bool {
    field.len() == 64 && field.bytes().all(|b| BOARD_CELLS.contains(&b))
}

/// Whether `field` looks like an FFO board with a mistake: at least 32 characters, nearly all of
/// them board cells.
fn is_nearly_board(field: &str) -> bool {
    let cells = field.bytes().filter(|b| BOARD_CELLS.contains(b)).count();
    field.len() >= 32 && cells * 10 >= field.len() * 9
}

/// What is wrong with a field that [`is_nearly_board`] but is not a board, and the byte offset
/// in it of the cell at fault (0 for a length that is wrong).
fn board_error(field: &str) -> (usize, FfoError) {
    if field.chars().count() != 64 {
        let found = field.chars().count();
        return (0, FfoError::BoardLength { found });
    }
    let (index, (offset, found)) = field
        .char_indices()
        .enumerate()
        .find(|&(_, (_, c))| !c.is_ascii() || !BOARD_CELLS.contains(&(c as u8)))
        .unwrap_or((0, (0, '?')));
    let square = Square::new(index / 8, index % 8);
    (offset, FfoError::BoardCell { found, square })
}

/// Reads an FFO line: `None` if it is not one (neither of its first two fields is a 64-cell
/// board, or nearly one), else the position or what is wrong with it. A field that is nearly
/// a board (a square too many or too few, a stray character) is reported as such.
#[must_use]
pub fn parse_line(line: &str) -> Option<Result<FfoPosition, FfoError>> {
    parse_line_at(line).map(|result| result.map_err(|located| located.source))
}

/// What is wrong with a line, and the 1-based column (in characters) of the token at fault.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("column {column}: {source}")]
pub struct LineError {
    /// 1-based column, in characters, of the token at fault.
    pub column: usize,
    /// What is wrong.
    pub source: FfoError,
}

/// Reads an FFO or OBF line like [`parse_line`], naming the column of the token at fault.
///
/// Two forms are read. The FFO suite's: whitespace-separated fields, `[id] board side
/// [empties best_moves score move_scores]`. Edax's OBF (its `obftest.c`): fields each ended by
/// `;`, the board and side first, then any number of `move:score` fields (`G8:+18;`, a pass
/// `PS:+0;`) or a bare score (`+38;`), the position's score; `%` starts a comment.
#[must_use]
pub fn parse_line_at(line: &str) -> Option<Result<FfoPosition, LineError>> {
    let line = line.split('%').next().unwrap_or("");
    let fields = fields_with_offsets(line);
    let column = |offset: usize| line[..offset].chars().count() + 1;
    let at = |offset: usize| {
        move |source| LineError {
            column: column(offset),
            source,
        }
    };
    if let Some(board_at) = fields
        .iter()
        .take(2)
        .position(|&(_, field)| is_board(field))
    {
        let board_end = fields[board_at].0 + 64;
        let result = if line[board_end..].contains(';') {
            parse_obf(line, board_end, fields[board_at].1)
                .map_err(|(offset, source)| at(offset)(source))
        } else {
            parse_fields(&fields, board_at).map_err(|(offset, source)| at(offset)(source))
        };
        let result = result.map(|mut position| {
            if board_at == 1 {
                position.id = Some(fields[0].1.trim_start_matches('#').to_owned());
            }
            position
        });
        return Some(result);
    }
    let &(offset, nearly) = fields
        .iter()
        .take(2)
        .find(|&&(_, field)| is_nearly_board(field))?;
    let (within, source) = board_error(nearly);
    Some(Err(at(offset + within)(source)))
}

/// The whitespace-separated fields of `line` with their byte offsets.
fn fields_with_offsets(line: &str) -> Vec<(usize, &str)> {
    let mut fields = Vec::new();
    let mut start = None;
    for (offset, c) in line.char_indices().chain([(line.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                fields.push((from, &line[from..offset]));
                start = None;
            }
            (false, None) => start = Some(offset),
            _ => {}
        }
    }
    fields
}

/// A parse error at a byte offset of the line.
type Located = (usize, FfoError);

/// The board of a 64-character field.
fn read_board(field: &str) -> Board {
    let mut board = Board::empty(Dimensions::STANDARD);
    for (index, cell) in field.bytes().enumerate() {
        let disc = match cell {
            b'X' | b'x' | b'*' => Some(Color::Black),
            b'O' | b'o' => Some(Color::White),
            _ => None,
        };
        board.put(Square::new(index / 8, index % 8), disc);
    }
    board
}

/// The square `name`, a token at byte `at`.
fn square_at(at: usize, name: &str) -> Result<Square, Located> {
    parse_square(name, Dimensions::STANDARD).map_err(|source| {
        let found = name.to_owned();
        (at, FfoError::Square { found, source })
    })
}

/// An 8x8 position read from a line (without its id), most discs winning.
fn position(board: Board, first: Color, listed: Option<Listed>) -> FfoPosition {
    FfoPosition {
        id: None,
        setup: Setup {
            board,
            first,
            win: WinRule::MostDiscs,
        },
        listed,
    }
}

/// The side to move, `X` or `O` (`B` and `W` too).
fn read_side(text: &str) -> Option<Color> {
    match text.to_ascii_uppercase().as_str() {
        "X" | "B" => Some(Color::Black),
        "O" | "W" => Some(Color::White),
        _ => None,
    }
}

/// A signed score such as `+18`, `-4` or `0`.
fn read_score(text: &str) -> Option<i32> {
    text.strip_prefix('+')
        .unwrap_or(text)
        .parse()
        .ok()
        .filter(|_| !text.starts_with("+-"))
}

/// Edax's OBF form: after the board (ending at byte `board_end`), `side;` and then `;`-ended
/// fields, each `move:score` or a bare score.
fn parse_obf(line: &str, board_end: usize, board: &str) -> Result<FfoPosition, Located> {
    let board = read_board(board);
    let mut offset = board_end;
    let mut pieces = Vec::new();
    for piece in line[board_end..].split(';') {
        let trimmed = piece.trim();
        let at = offset + piece.len() - piece.trim_start().len();
        pieces.push((at, trimmed));
        offset += piece.len() + 1;
    }
    let (side_at, side) = pieces[0];
    if side.is_empty() {
        return Err((side_at, FfoError::MissingSide));
    }
    let first = read_side(side).ok_or_else(|| (side_at, FfoError::Side(side.to_owned())))?;
    let mut moves = Vec::new();
    let mut score: Option<i32> = None;
    for &(at, field) in &pieces[1..] {
        if field.is_empty() {
            continue;
        }
        let wrong = || (at, FfoError::MoveScore(field.to_owned()));
        let value = match field.split_once(':') {
            None => read_score(field).ok_or_else(wrong)?,
            Some((name, value)) => {
                let value = read_score(value.trim()).ok_or_else(wrong)?;
                let name = name.trim();
                if !["PS", "PA", "PASS"].contains(&name.to_ascii_uppercase().as_str()) {
                    moves.push((square_at(at, name)?, value));
                }
                value
            }
        };
        score = Some(score.map_or(value, |best: i32| best.max(value)));
    }
    let listed = score.map(|score| Listed {
        best: moves
            .iter()
            .filter(|&&(_, value)| value == score)
            .map(|&(square, _)| square)
            .collect(),
        score,
        moves,
        obf: true,
    });
    Ok(position(board, first, listed))
}

fn parse_fields(fields: &[(usize, &str)], board_at: usize) -> Result<FfoPosition, Located> {
    let board = read_board(fields[board_at].1);
    let end = fields[board_at].0 + 64;
    let &(side_at, side) = fields
        .get(board_at + 1)
        .ok_or((end, FfoError::MissingSide))?;
    let first = read_side(side).ok_or_else(|| (side_at, FfoError::Side(side.to_owned())))?;
    let rest = &fields[board_at + 2..];
    if let Some(&(at, empties)) = rest.first() {
        let count: u32 = empties
            .parse()
            .map_err(|_| (at, FfoError::EmptiesField(empties.to_owned())))?;
        if count != board.empties() {
            return Err((
                at,
                FfoError::EmptiesCount {
                    listed: empties.to_owned(),
                    actual: board.empties(),
                },
            ));
        }
    }
    let listed = match (rest.get(1), rest.get(2)) {
        (Some(&(moves_at, moves)), Some(&(score_at, score))) => Some(Listed {
            best: moves
                .split(',')
                .scan(moves_at, |at, name| {
                    let here = *at;
                    *at += name.len() + 1;
                    Some((here, name))
                })
                .map(|(at, name)| square_at(at, name))
                .collect::<Result<_, _>>()?,
            score: score
                .parse()
                .map_err(|_| (score_at, FfoError::Score(score.to_owned())))?,
            moves: rest
                .get(3)
                .map_or(Ok(Vec::new()), |&(at, field)| move_scores(at, field))?,
            obf: false,
        }),
        (Some(&(at, _)), None) => return Err((at, FfoError::MissingScore)),
        _ => None,
    };
    Ok(position(board, first, listed))
}

/// The move scores of an FFO line, `A2:+38,C7:+36`, starting at byte `at`.
fn move_scores(at: usize, field: &str) -> Result<Vec<(Square, i32)>, Located> {
    let mut offset = at;
    field
        .split(',')
        .map(|pair| {
            let here = offset;
            offset += pair.len() + 1;
            let wrong = || (here, FfoError::MoveScore(pair.to_owned()));
            let (name, score) = pair.split_once(':').ok_or_else(wrong)?;
            let square = parse_square(name, Dimensions::STANDARD).map_err(|_| wrong())?;
            Ok((square, read_score(score).ok_or_else(wrong)?))
        })
        .collect()
}
