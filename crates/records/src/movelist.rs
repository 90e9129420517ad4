//! Move lists: the squares of a game in order, `f5d6c3d3c4f4`, one game per line.
//!
//! Squares are a column letter and a 1-based row (`c10` is one move on a big board), in either
//! case, concatenated or separated by spaces or commas. A pass is `--`, `pa` or `pass`, and may
//! be left out. A game starts from the standard opening of its board: 8x8, FULL rules and most
//! discs wins, unless words in front of the moves say otherwise: a size such as `6x6`, `simple`
//! or `full`, `fewest` or `most`. Blank lines and lines starting with `#` are skipped.
//!
//! ```
//! use othello_records::{movelist, ReadOptions};
//!
//! let records = movelist::read("6x6 c2 B4, a5", &ReadOptions::default())?;
//! assert_eq!(records[0].dims().to_string(), "6x6");
//! assert_eq!(movelist::write(&records)?, "6x6 c2b4a5\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use othello::Dimensions;
use othello::RuleSet;
use othello::notation::parse_square;
use othello::{Setup, WinRule};

use crate::error::{RecordError, RecordErrorKind, WriteError, cannot_hold, shown};
use crate::format::Format;
use crate::metadata::Metadata;
use crate::reading::read_text;
use crate::record::{GameRecord, RecordMove};
use crate::spec::{FormatSpec, ReadOptions, write_each};
use crate::text::line_games;

/// The move list's entry in the table of formats.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::MoveList,
    name: "movelist",
    title: "a move list",
    input: "a move list",
    summary: "Squares in order, one game per line: f5d6c3d3c4...",
    positions: false,
    extensions: &["txt"],
    detect: |_| true,
    games: |input, options| {
        let options = *options;
        line_games(input, move |line, number| {
            let trimmed = line.trim();
            (!trimmed.is_empty() && !trimmed.starts_with('#'))
                .then(|| read_line(line, number, &options))
        })
    },
    reads_past_errors: false,
    write: |records| write_each(records, write_game),
    write_game,
};

/// Reads one game per line that holds moves.
///
/// # Errors
/// [`RecordError`] with the line and column of the first token that is not a square, a pass
/// or an option word, or of the first move that cannot be played.
pub fn read(text: &str, options: &ReadOptions) -> Result<Vec<GameRecord>, RecordError> {
    read_text(&SPEC, text, *options)
}

/// Reads the game on one line (`number` is its 1-based line number, for messages).
///
/// # Errors
/// As [`read`].
pub fn read_line(
    line: &str,
    number: usize,
    options: &ReadOptions,
) -> Result<GameRecord, RecordError> {
    let error = |column: usize, kind| RecordError::at_text(number, column, kind);
    let chars: Vec<char> = line.chars().collect();
    let mut dims = Dimensions::STANDARD;
    let mut rules = options.rules;
    let mut win = WinRule::MostDiscs;
    let mut at = 0;
    // Option words, each a whole white-space separated word before the first move.
    loop {
        while at < chars.len() && chars[at].is_whitespace() {
            at += 1;
        }
        let end = (at..chars.len())
            .find(|&i| chars[i].is_whitespace())
            .unwrap_or(chars.len());
        let word: String = chars[at..end]
            .iter()
            .collect::<String>()
            .to_ascii_lowercase();
        match word.as_str() {
            "full" => rules = RuleSet::Full,
            "simple" => rules = RuleSet::Simple,
            "most" => win = WinRule::MostDiscs,
            "fewest" => win = WinRule::FewestDiscs,
            _ if word.contains('x') && word.starts_with(|c: char| c.is_ascii_digit()) => {
                dims = word.parse().map_err(|_| {
                    error(
                        at + 1,
                        RecordErrorKind::Expected {
                            expected: "a board size such as 8x8 (even sides from 4 to 16)",
                            found: shown(&word),
                        },
                    )
                })?;
            }
            _ => break,
        }
        at = end;
    }
    let mut moves = Vec::new();
    let mut columns = Vec::new();
    while at < chars.len() {
        let c = chars[at];
        if c.is_whitespace() || c == ',' {
            at += 1;
            continue;
        }
        let start = at;
        let lower = c.to_ascii_lowercase();
        let next = chars.get(at + 1).map(char::to_ascii_lowercase);
        if c == '-' && next == Some('-') {
            at += 2;
            moves.push(RecordMove::Pass);
        } else if lower == 'p' && next == Some('a') {
            at += 2;
            let rest: String = chars[at..chars.len().min(at + 2)].iter().collect();
            if rest.eq_ignore_ascii_case("ss") {
                at += 2;
            }
            moves.push(RecordMove::Pass);
        } else if c.is_ascii_alphabetic() {
            at += 1;
            while at < chars.len() && chars[at].is_ascii_digit() && at - start <= 2 {
                at += 1;
            }
            let token: String = chars[start..at].iter().collect();
            if at == start + 1 {
                return Err(error(
                    start + 1,
                    RecordErrorKind::Expected {
                        expected: "a square such as f5, or -- for a pass",
                        found: shown(&token_at(&chars, start)),
                    },
                ));
            }
            let square =
                parse_square(&token, dims).map_err(|source| error(start + 1, source.into()))?;
            moves.push(RecordMove::Play(square));
        } else {
            return Err(error(
                start + 1,
                RecordErrorKind::Expected {
                    expected: "a square such as f5, or -- for a pass",
                    found: shown(&token_at(&chars, start)),
                },
            ));
        }
        columns.push(start + 1);
    }
    let setup = Setup {
        win,
        ..Setup::standard(dims)
    };
    GameRecord::new(setup, rules, moves, Metadata::default())
        .map_err(|replay| error(columns[replay.number - 1], RecordErrorKind::Replay(replay)))
}

/// The white-space separated word starting at `start`, for messages.
fn token_at(chars: &[char], start: usize) -> String {
    chars[start..]
        .iter()
        .take_while(|c| !c.is_whitespace())
        .collect()
}

/// Writes one line per game: option words for anything but 8x8, FULL and most discs wins, then
/// the squares in lower case, concatenated, without the passes (a reader puts them back).
///
/// # Errors
/// [`WriteError`] for a game that does not start from its board's standard opening with black
/// to move (GGF and the protocol input can hold those).
pub fn write(records: &[GameRecord]) -> Result<String, WriteError> {
    let bytes = write_each(records, write_game)?;
    Ok(String::from_utf8(bytes).expect("move lists are ASCII"))
}

/// Appends the line of game `index` to `out`.
fn write_game(index: usize, record: &GameRecord, out: &mut Vec<u8>) -> Result<(), WriteError> {
    let line = line(record).ok_or_else(|| {
        cannot_hold(
            index,
            Format::MoveList,
            "a game that does not start from the standard opening with black to move (write ggf or protocol)",
        )
    })?;
    out.extend_from_slice(line.as_bytes());
    out.push(b'\n');
    Ok(())
}

/// The move list of one game, without a line ending; `None` if it does not start from the
/// standard opening with black to move.
#[must_use]
pub fn line(record: &GameRecord) -> Option<String> {
    let setup = record.setup();
    let dims = record.dims();
    let standard = Setup::standard(dims);
    if setup.board != standard.board || setup.first != standard.first {
        return None;
    }
    let mut words = Vec::new();
    // The size is also written for a game without moves, so that its line is not blank.
    if dims != Dimensions::STANDARD || record.moves().is_empty() {
        words.push(dims.to_string());
    }
    if record.rules() == RuleSet::Simple {
        words.push("simple".to_owned());
    }
    if setup.win == WinRule::FewestDiscs {
        words.push("fewest".to_owned());
    }
    words.push(record.squares().map(|square| square.to_string()).collect());
    Some(words.join(" ").trim_end().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_one(text: &str) -> Result<GameRecord, RecordError> {
        read_line(text, 1, &ReadOptions::default())
    }

    #[test]
    fn reads_every_way_of_writing_moves() {
        let plain = read_one("f5d6c3d3c4").unwrap();
        for text in [
            "F5D6C3D3C4",
            "f5 d6 c3 d3 c4",
            " f5, d6, C3 d3c4 ",
            "8x8 full most f5d6c3d3c4",
        ] {
            assert_eq!(read_one(text).unwrap(), plain, "{text:?}");
        }
        for size in ["10x10", "16x16", "4x12"] {
            let dims: Dimensions = size.parse().unwrap();
            let mut game = othello::Game::new(Setup::standard(dims), RuleSet::Full);
            let mut text = format!("{size} ");
            for _ in 0..6 {
                let square = *game.legal_moves().last().unwrap();
                game.play(square).unwrap();
                text.push_str(&square.to_string().to_uppercase());
                text.push(' ');
            }
            let record = read_one(&text).unwrap();
            assert_eq!(record.dims(), dims);
            assert_eq!(record.final_game(), &game, "{text}");
        }
    }

    #[test]
    fn says_where_a_line_goes_wrong() {
        let error = |text: &str| read_one(text).unwrap_err().to_string();
        assert_eq!(
            error("f5 d6 zz"),
            "line 1, column 7: expected a square such as f5, or -- for a pass, found \"zz\""
        );
        assert_eq!(
            error("f5 d6 i3"),
            "line 1, column 7: column i is off the board: columns are a to h"
        );
        assert_eq!(
            error("f5 d6 a1"),
            "line 1, column 7: move 3: a1 is not a legal move for black: it flips no discs"
        );
        assert_eq!(
            error("f5 * d6"),
            "line 1, column 4: expected a square such as f5, or -- for a pass, found \"*\""
        );
        assert_eq!(
            error("7x7 d3"),
            "line 1, column 1: expected a board size such as 8x8 (even sides from 4 to 16), found \"7x7\""
        );
        assert_eq!(
            error("f5 --"),
            "line 1, column 4: move 2: white passes but can play f4 (and 2 other moves)"
        );
        let lines = read("# a game\n\nf5\nf5 d6 d6\n", &ReadOptions::default()).unwrap_err();
        assert_eq!(
            lines.to_string(),
            "line 4, column 7: move 3: d6 is already occupied"
        );
    }
}
