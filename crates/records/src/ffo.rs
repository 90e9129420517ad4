//! Positions written as lines of the FFO endgame test suite (as in
//! `fixtures/ffo/ffo-40-59.txt`): `[id] board side [empties best_moves score ...]`.
//!
//! The board is 64 characters, squares a1, b1, ..., h1, a2, ..., h8 (row 1 first), `X` (or `*`)
//! black, `O` white, `-` (or `.`) empty; the side to move is `X` or `O` (`B` and `W` are taken
//! too). The optional fields give the number of empties (checked against the board), the best
//! moves (comma-separated, such as `G3,C7`), the exact score of the side to move, counted
//! the FFO way (empty squares go to the winner), and the exact score of each move
//! (`A2:+38,C7:+36`). Edax's OBF lines end the side with a `;`
//! (`... X;`), which is accepted too; [`to_line`] writes that form.

use thiserror::Error;

use othello::Board;
use othello::Color;
use othello::Game;
use othello::RuleSet;
use othello::notation::{NotationError, parse_square};
use othello::protocol::{self, SetupError, SetupParser};
use othello::text::counted;
use othello::{Dimensions, Square};
use othello::{Setup, WinRule};

/// A position read from an FFO line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FfoPosition {
    /// The id in front of the board (`40` for `40 O--OOOOX...`), without a leading `#`.
    pub id: Option<String>,
    /// The position: 8x8, the side to move first, most discs wins.
    pub setup: Setup,
    /// The best moves and score the line lists, if it lists them.
    pub listed: Option<Listed>,
}

impl FfoPosition {
    /// The position as a game under the FULL rules (the only rules FFO positions are for).
    #[must_use]
    pub fn game(&self) -> Game {
        Game::new(self.setup, RuleSet::Full)
    }
}

/// The result an FFO or OBF line lists.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Listed {
    /// Every optimal move.
    pub best: Vec<Square>,
    /// The exact final disc difference for the side to move, empties to the winner.
    pub score: i32,
    /// The exact score of each move the line lists (`A2:+38,C7:+36`), in its order; empty
    /// when it lists none.
    pub moves: Vec<(Square, i32)>,
    /// Whether the line is in Edax's OBF form (`board side; move:score; ...`), whose move
    /// fields are the point of the line: `othello solve` checks each of them. Its best moves
    /// are the listed moves with the best score (none for a bare score, `board X; +38;`).
    pub obf: bool,
}

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

/// A position to solve, from an input that mixes FFO lines and protocol setups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The FFO line's id, if it has one.
    pub id: Option<String>,
    /// 1-based input line where the position starts.
    pub line: usize,
    /// The position (FFO lines are always under the FULL rules).
    pub game: Game,
    /// The result the FFO line lists, if any.
    pub listed: Option<Listed>,
}

/// A line of a problem input that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ProblemError {
    /// A protocol setup is malformed (its error names the input line).
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// An FFO line is malformed.
    #[error("line {line}, column {column}: {source}")]
    Ffo {
        /// 1-based input line.
        line: usize,
        /// 1-based column, in characters, of the token at fault.
        column: usize,
        /// What is wrong.
        source: FfoError,
    },
}

/// Reads every position of `input`: FFO lines, and protocol setups (header and grid) played
/// under `rules`, in any mix. Blank lines and lines starting with `#` are skipped. A setup may
/// be followed by the protocol's move lines (`ROW COL`, 1-based): the position is then the one
/// after those moves, and lines the protocol would answer `INVALID` are skipped, as a protocol
/// input reads as a game record.
///
/// # Errors
/// [`ProblemError`] for the first malformed FFO line or setup, naming its input line.
pub fn read_problems(input: &[u8], rules: RuleSet) -> Result<Vec<Problem>, ProblemError> {
    let lines: Vec<&[u8]> = protocol::lines(input)
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .collect();
    let mut problems = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let text = String::from_utf8_lossy(lines[i]);
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
            i += 1;
            continue;
        }
        if let Some(result) = parse_line_at(&text) {
            let position = result.map_err(|error| ProblemError::Ffo {
                line: i + 1,
                column: error.column,
                source: error.source,
            })?;
            problems.push(Problem {
                line: i + 1,
                game: position.game(),
                id: position.id,
                listed: position.listed,
            });
            i += 1;
            continue;
        }
        let start = i;
        let mut parser = SetupParser::new();
        let shifted = |error: SetupError| SetupError {
            line: error.line + start,
            kind: error.kind,
        };
        let setup = loop {
            let Some(line) = lines.get(i) else {
                return Err(shifted(parser.end_of_input()).into());
            };
            i += 1;
            if let Some(setup) = parser.push_line(line).map_err(shifted)? {
                break setup;
            }
        };
        let mut game = Game::new(setup, rules);
        // Move lines as the protocol reads them, up to the start of the next position.
        let (_, read) = crate::protocol::play_move_lines(&mut game, &lines[i..], |line| {
            let text = String::from_utf8_lossy(line);
            let trimmed = text.trim();
            let rows = !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit());
            rows || parse_line(trimmed).is_some()
        });
        i += read;
        problems.push(Problem {
            id: None,
            line: start + 1,
            game,
            listed: None,
        });
    }
    Ok(problems)
}

/// The OBF line of an 8x8 position, `board side;` (Edax's form, which [`parse_line`] reads):
/// `None` for another board size.
#[must_use]
pub fn to_line(board: &Board, to_move: Color) -> Option<String> {
    if board.dims() != Dimensions::STANDARD {
        return None;
    }
    let mut line: String = Dimensions::STANDARD
        .squares()
        .map(|square| match board.at(square) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '-',
        })
        .collect();
    line.push(' ');
    line.push(match to_move {
        Color::Black => 'X',
        Color::White => 'O',
    });
    line.push(';');
    Some(line)
}

/// The fields Edax's OBF form writes after `board side;` for what a line lists: each listed
/// move with its score (` G8:+18; H1:+12;`), or the best moves with the score when the line
/// lists no move scores, or the bare score (` +38;`) when it lists no move either.
#[must_use]
pub fn obf_fields(listed: &Listed) -> String {
    let moves: Vec<(Square, i32)> = if listed.moves.is_empty() {
        listed
            .best
            .iter()
            .map(|&square| (square, listed.score))
            .collect()
    } else {
        listed.moves.clone()
    };
    if moves.is_empty() {
        return format!(" {:+};", listed.score);
    }
    let mut text = String::new();
    for (square, score) in moves {
        text.push_str(&format!(
            " {}:{score:+};",
            square.to_string().to_uppercase()
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO_40: &str = "40 O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X 20 A2 +38 A2:+38,C7:+36";

    #[test]
    fn reads_an_ffo_line() {
        let position = parse_line(FFO_40).unwrap().unwrap();
        assert_eq!(position.id.as_deref(), Some("40"));
        assert_eq!(position.setup.first, Color::Black);
        assert_eq!(position.setup.board.empties(), 20);
        assert_eq!(
            position.setup.board.at(Square::new(0, 0)),
            Some(Color::White)
        );
        assert_eq!(
            position.setup.board.at(Square::new(0, 7)),
            Some(Color::Black)
        );
        assert_eq!(
            position.listed,
            Some(Listed {
                best: vec![Square::new(1, 0)],
                score: 38,
                moves: vec![(Square::new(1, 0), 38), (Square::new(6, 2), 36)],
                obf: false,
            })
        );
        assert_eq!(position.game().turn(), Some(Color::Black));
    }

    #[test]
    fn a_bare_board_and_side_is_enough() {
        let board = "-".repeat(27) + "OX------XO" + &"-".repeat(27);
        let position = parse_line(&format!("{board} O")).unwrap().unwrap();
        assert_eq!(position.id, None);
        assert_eq!(position.setup.first, Color::White);
        assert_eq!(position.listed, None);
    }

    #[test]
    fn writes_lines_it_reads_back() {
        let position = parse_line(FFO_40).unwrap().unwrap();
        let line = to_line(&position.setup.board, Color::Black).unwrap();
        assert_eq!(
            line,
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X;"
        );
        let again = parse_line(&line).unwrap().unwrap();
        assert_eq!(again.setup, position.setup);
        let small = Board::standard(Dimensions::new(6, 6).unwrap());
        assert_eq!(to_line(&small, Color::Black), None);
    }

    #[test]
    fn other_lines_are_not_ffo_lines() {
        assert!(parse_line("8").is_none());
        assert!(parse_line(". . . . . . . .").is_none());
        assert!(parse_line("").is_none());
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let board = "-".repeat(64);
        let error = |line: String| parse_line(&line).unwrap().unwrap_err().to_string();
        assert_eq!(
            error(board.clone()),
            "expected the side to move (X or O) after the board, found the end of the line"
        );
        assert_eq!(
            error(format!("{board} Q")),
            "expected the side to move, X or O, found \"Q\""
        );
        assert_eq!(
            error(format!("{board} X 3")),
            "the line says 3 empties but the board has 64"
        );
        assert_eq!(
            error(format!("{board} X many")),
            "expected the number of empties, found \"many\""
        );
        assert_eq!(
            error(format!("{board} X 64 Z9 +2")),
            "expected a square such as a2, found \"Z9\""
        );
        assert_eq!(
            error(format!("{board} X 64 A1")),
            "expected the listed score after the best moves"
        );
        assert_eq!(
            error(format!("{board} X 64 A1 lots")),
            "expected the listed score, found \"lots\""
        );
        assert_eq!(
            error(format!("{board} X 64 A1 +2 A1+2")),
            "expected a move and its score such as A2:+38, found \"A1+2\""
        );
        assert_eq!(
            error(format!("40 {} X", &board[1..])),
            "the board has 63 squares, expected 64 (X, O or - for each of a1..h8)"
        );
        assert_eq!(
            error(format!("{}Z{} X", &board[..9], &board[10..])),
            "the board has 'Z' at b2, expected X, O or -"
        );
    }

    #[test]
    fn reads_edax_obf_lines() {
        let board = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
        let line = format!("{board} X; G8:+18; H1:+12; A2:+6; B1:-4;  % problem 1");
        let position = parse_line(&line).unwrap().unwrap();
        let listed = position.listed.unwrap();
        assert!(listed.obf);
        assert_eq!(listed.score, 18);
        assert_eq!(listed.best, [Square::new(7, 6)]);
        assert_eq!(listed.moves.len(), 4);
        assert_eq!(listed.moves[3], (Square::new(0, 1), -4));
        // Written back the same way.
        let written = to_line(&position.setup.board, Color::Black).unwrap() + &obf_fields(&listed);
        assert_eq!(written, format!("{board} X; G8:+18; H1:+12; A2:+6; B1:-4;"));
        // A bare score is the position's score, with no best move.
        let position = parse_line(&format!("{board} O; +38;")).unwrap().unwrap();
        let listed = position.listed.unwrap();
        assert_eq!(
            (listed.score, listed.best.len(), listed.moves.len()),
            (38, 0, 0)
        );
        assert_eq!(obf_fields(&listed), " +38;");
        assert_eq!(position.setup.first, Color::White);
        // Only the board and side: nothing listed.
        assert_eq!(
            parse_line(&format!("{board} X;")).unwrap().unwrap().listed,
            None
        );
        // Errors name the column of the token at fault.
        let error = |line: String| parse_line_at(&line).unwrap().unwrap_err().to_string();
        assert_eq!(
            error(format!("{board} X; G8:+18; Z9:+2;")),
            "column 77: expected a square such as a2, found \"Z9\""
        );
        assert_eq!(
            error(format!("{board} X; G8:+18; H1:lots;")),
            "column 77: expected a move and its score such as A2:+38, found \"H1:lots\""
        );
        assert_eq!(
            error(format!("{board} Q; G8:+18;")),
            "column 66: expected the side to move, X or O, found \"Q\""
        );
        assert_eq!(
            error(format!("  {} X 14 A2 +38 A2:+38,C7+36", &board)),
            "column 87: expected a move and its score such as A2:+38, found \"C7+36\""
        );
    }

    #[test]
    fn a_setup_with_move_lines_is_the_position_after_them() {
        let input = "4\n4\nB\n>\n. . . .\n. W B .\n. B W .\n. . . .\n1 1\nfoo\n1 2\n\n4\n4\nW\n>\n. . . .\n. W B .\n. B W .\n. . . .\n";
        let problems = read_problems(input.as_bytes(), RuleSet::Full).unwrap();
        assert_eq!(problems.len(), 2);
        // 1 1 is illegal and foo no move: both are skipped; 1 2 (b1) is black's move.
        assert_eq!(problems[0].game.board().empties(), 11);
        assert_eq!(problems[0].game.turn(), Some(Color::White));
        assert_eq!(problems[1].line, 13);
        assert_eq!(problems[1].game.board().empties(), 12);
    }

    #[test]
    fn reads_ffo_lines_and_setups_in_one_input() {
        let input =
            format!("# comment\n\n{FFO_40}\n4\n4\nB\n<\n. . . .\n. W B .\n. B W .\n. . . .\n");
        let problems = read_problems(input.as_bytes(), RuleSet::Simple).unwrap();
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].id.as_deref(), Some("40"));
        assert_eq!(problems[0].line, 3);
        assert_eq!(problems[0].game.board().empties(), 20);
        assert_eq!(problems[0].game.rules(), RuleSet::Full);
        assert_eq!(
            problems[0].listed,
            Some(Listed {
                best: vec![Square::new(1, 0)],
                score: 38,
                moves: vec![(Square::new(1, 0), 38), (Square::new(6, 2), 36)],
                obf: false,
            })
        );
        assert_eq!(problems[1].id, None);
        assert_eq!(problems[1].line, 4);
        assert_eq!(problems[1].game.rules(), RuleSet::Simple);
        assert_eq!(problems[1].game.win_rule(), WinRule::FewestDiscs);
    }

    #[test]
    fn bad_problem_lines_name_their_line() {
        let error = |input: &str| {
            read_problems(input.as_bytes(), RuleSet::Full)
                .unwrap_err()
                .to_string()
        };
        let board = "-".repeat(64);
        assert_eq!(
            error(&format!("\n{board} Q\n")),
            "line 2, column 66: expected the side to move, X or O, found \"Q\""
        );
        assert_eq!(
            error("# x\n4\n4\nB\n>\n. . . .\n"),
            "line 7: input ended where row 2 of the board was expected"
        );
        assert_eq!(
            error("4\n5\n"),
            "line 2: expected the number of columns, an even integer from 4 to 16, found \"5\""
        );
    }
}
