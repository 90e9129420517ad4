//! The bytes of a text record as text ([`decode`]: UTF-8, or Latin-1), and its lines as the
//! formats of one game or position per line read them.

use std::borrow::Cow;

use crate::error::RecordError;
use crate::record::GameRecord;
use crate::spec::GameIter;

/// The first line of `input` that is text and not blank or a comment (`#`, `%`), trimmed, for
/// the formats' `detect`.
pub(crate) fn first_line(input: &[u8]) -> Option<&str> {
    // Of text that is not UTF-8, the whole lines before the first byte that is not: a first line
    // with such a byte is not one of the ASCII formats that look at it.
    let text = std::str::from_utf8(input).unwrap_or_else(|error| {
        let valid = &input[..error.valid_up_to()];
        let lines = valid
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |at| at + 1);
        std::str::from_utf8(&valid[..lines]).expect("a prefix of valid UTF-8 up to a newline")
    });
    text.lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#') && !line.starts_with('%'))
}

/// A text record's bytes as text: UTF-8 when they are, else Latin-1 (ISO 8859-1, each byte the
/// character of that number), the encoding of old GGS archives and of names such as `M\xfcller`.
/// Every byte sequence decodes, and a Latin-1 name written back out (as UTF-8) reads back the
/// same.
#[must_use]
pub fn decode(input: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(input) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(input.iter().map(|&byte| char::from(byte)).collect()),
    }
}

/// The lines of a text record one at a time, decoded by [`decode`], each with its 1-based
/// number, as [`str::lines`] splits them; `read` makes a game of a line or passes over it
/// (`None`). For the formats of one game or position per line.
pub(crate) fn line_games<'a>(
    input: &'a [u8],
    mut read: impl FnMut(&str, usize) -> Option<Result<GameRecord, RecordError>> + 'a,
) -> GameIter<'a> {
    let text = decode(input);
    let mut at = 0;
    let mut number = 0;
    Box::new(std::iter::from_fn(move || {
        while at < text.len() {
            let rest = &text[at..];
            let end = rest.find('\n').map_or(rest.len(), |newline| newline + 1);
            at += end;
            number += 1;
            let line = match rest[..end].strip_suffix('\n') {
                Some(line) => line.strip_suffix('\r').unwrap_or(line),
                None => &rest[..end],
            };
            if let Some(game) = read(line, number) {
                return Some(game);
            }
        }
        None
    }))
}
