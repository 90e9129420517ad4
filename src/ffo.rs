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

use crate::board::Board;
use crate::color::Color;
use crate::game::Game;
use crate::notation::{NotationError, parse_square};
use crate::protocol::{self, SetupError, SetupParser};
use crate::rules::RuleSet;
use crate::setup::{Setup, WinRule};
use crate::square::{Dimensions, Square};

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

/// The result an FFO line lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// Every optimal move.
    pub best: Vec<Square>,
    /// The exact final disc difference for the side to move, empties to the winner.
    pub score: i32,
    /// The exact score of each move the line lists (`A2:+38,C7:+36`), in its order; empty
    /// when it lists none.
    pub moves: Vec<(Square, i32)>,
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
    #[error("the line says {listed} empties but the board has {actual}")]
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

/// What is wrong with a field that [`is_nearly_board`] but is not a board.
fn board_error(field: &str) -> FfoError {
    if field.chars().count() != 64 {
        return FfoError::BoardLength {
            found: field.chars().count(),
        };
    }
    let (index, found) = field
        .chars()
        .enumerate()
        .find(|&(_, c)| !c.is_ascii() || !BOARD_CELLS.contains(&(c as u8)))
        .unwrap_or((0, '?'));
    FfoError::BoardCell {
        found,
        square: Square::new(index / 8, index % 8),
    }
}

/// Reads an FFO line: `None` if it is not one (neither of its first two fields is a 64-cell
/// board, or nearly one), else the position or what is wrong with it. A field that is nearly
/// a board (a square too many or too few, a stray character) is reported as such.
#[must_use]
pub fn parse_line(line: &str) -> Option<Result<FfoPosition, FfoError>> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if let Some(board_at) = fields.iter().take(2).position(|field| is_board(field)) {
        return Some(parse_fields(&fields, board_at));
    }
    let nearly = fields.iter().take(2).find(|field| is_nearly_board(field))?;
    Some(Err(board_error(nearly)))
}

fn parse_fields(fields: &[&str], board_at: usize) -> Result<FfoPosition, FfoError> {
    let id = (board_at == 1).then(|| fields[0].trim_start_matches('#').to_owned());
    let mut board = Board::empty(Dimensions::STANDARD);
    for (index, cell) in fields[board_at].bytes().enumerate() {
        let disc = match cell {
            b'X' | b'x' | b'*' => Some(Color::Black),
            b'O' | b'o' => Some(Color::White),
            _ => None,
        };
        board.put(Square::new(index / 8, index % 8), disc);
    }
    let side = fields.get(board_at + 1).ok_or(FfoError::MissingSide)?;
    let first = match side.trim_end_matches(';').to_ascii_uppercase().as_str() {
        "X" | "B" => Color::Black,
        "O" | "W" => Color::White,
        _ => return Err(FfoError::Side((*side).to_owned())),
    };
    let rest = &fields[board_at + 2..];
    if let Some(&empties) = rest.first() {
        let count: u32 = empties
            .parse()
            .map_err(|_| FfoError::EmptiesField(empties.to_owned()))?;
        if count != board.empties() {
            return Err(FfoError::EmptiesCount {
                listed: empties.to_owned(),
                actual: board.empties(),
            });
        }
    }
    let listed = match (rest.get(1), rest.get(2)) {
        (Some(moves), Some(score)) => Some(Listed {
            best: moves
                .split(',')
                .map(|name| {
                    parse_square(name, Dimensions::STANDARD).map_err(|source| FfoError::Square {
                        found: name.to_owned(),
                        source,
                    })
                })
                .collect::<Result<_, _>>()?,
            score: score
                .parse()
                .map_err(|_| FfoError::Score((*score).to_owned()))?,
            moves: rest
                .get(3)
                .map_or(Ok(Vec::new()), |field| move_scores(field))?,
        }),
        (Some(_), None) => return Err(FfoError::MissingScore),
        _ => None,
    };
    Ok(FfoPosition {
        id,
        setup: Setup {
            board,
            first,
            win: WinRule::MostDiscs,
        },
        listed,
    })
}

/// The move scores of an FFO line, `A2:+38,C7:+36`.
fn move_scores(field: &str) -> Result<Vec<(Square, i32)>, FfoError> {
    field
        .split(',')
        .map(|pair| {
            let wrong = || FfoError::MoveScore(pair.to_owned());
            let (name, score) = pair.split_once(':').ok_or_else(wrong)?;
            let square = parse_square(name, Dimensions::STANDARD).map_err(|_| wrong())?;
            Ok((square, score.parse().map_err(|_| wrong())?))
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
    #[error("line {line}: {source}")]
    Ffo {
        /// 1-based input line.
        line: usize,
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
        if trimmed.is_empty() || trimmed.starts_with('#') {
            i += 1;
            continue;
        }
        if let Some(result) = parse_line(trimmed) {
            let position = result.map_err(|source| ProblemError::Ffo {
                line: i + 1,
                source,
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
        let (_, read) = crate::record::protocol::play_move_lines(&mut game, &lines[i..], |line| {
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
            "line 2: expected the side to move, X or O, found \"Q\""
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
