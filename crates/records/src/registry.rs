//! The table of formats, and what goes through it: a [`Format`]'s names, extensions and
//! detection ([`Format::detect`]), and reading and writing by format ([`read`], [`games`],
//! [`write()`], ...). Each format's entry is its module's `SPEC`; a new format is a module and a
//! line in [`FORMATS`].

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::error::{RecordError, WriteError, listed};
use crate::format::Format;
use crate::reading::Games;
use crate::record::GameRecord;
use crate::spec::{FormatSpec, ReadOptions};
use crate::{ggf, movelist, obf, protocol_input, wthor};

/// Every format, in the order [`Format::detect`] tries them: a WTHOR header that fits the
/// length, `(;` for GGF, a 64-cell board for OBF, a lone number (the rows) for the
/// protocol, and a move list for anything else.
const FORMATS: [FormatSpec; 5] = [
    wthor::SPEC,
    ggf::SPEC,
    obf::SPEC,
    protocol_input::SPEC,
    movelist::SPEC,
];

impl Format {
    /// Every format, in declaration order.
    pub const ALL: [Format; FORMATS.len()] = {
        let mut all = [Format::MoveList; FORMATS.len()];
        let mut i = 0;
        while i < FORMATS.len() {
            all[FORMATS[i].format as usize] = FORMATS[i].format;
            i += 1;
        }
        all
    };

    /// What the crate knows of this format.
    #[must_use]
    pub fn spec(self) -> &'static FormatSpec {
        static TABLE: [FormatSpec; FORMATS.len()] = FORMATS;
        TABLE
            .iter()
            .find(|spec| spec.format == self)
            .expect("every format is in the table")
    }

    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The format a file extension (without the dot, any case) names, if any.
    #[must_use]
    pub fn for_extension(extension: &str) -> Option<Format> {
        FORMATS
            .iter()
            .find(|spec| {
                spec.extensions
                    .iter()
                    .any(|known| known.eq_ignore_ascii_case(extension))
            })
            .map(|spec| spec.format)
    }

    /// Guesses the format of `input` from its content: the first format of the table whose
    /// `detect` accepts it (a WTHOR header whose game count fits the length; `(;` for GGF; a 64-cell board for OBF; a lone number, the rows, for the
    /// protocol), otherwise a move list.
    #[must_use]
    pub fn detect(input: &[u8]) -> Format {
        FORMATS
            .iter()
            .find(|spec| (spec.detect)(input))
            .map_or(Format::MoveList, |spec| spec.format)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spec().title)
    }
}

/// A name that is no format.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "expected a format, {}, found {found:?}",
    listed(Format::ALL.into_iter().map(Format::name))
)]
pub struct ParseFormatError {
    /// The text.
    pub found: String,
}

impl FromStr for Format {
    type Err = ParseFormatError;

    /// A format by its [`name`](Format::name), in any case.
    fn from_str(text: &str) -> Result<Format, ParseFormatError> {
        Format::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| ParseFormatError {
                found: text.to_owned(),
            })
    }
}

/// Reads every game of `input`, in the format [`Format::detect`] finds.
///
/// # Errors
/// [`RecordError`] naming the line and column (or byte) of the first problem.
pub fn read(input: &[u8], options: &ReadOptions) -> Result<Vec<GameRecord>, RecordError> {
    read_as(Format::detect(input), input, options)
}

/// Reads every game of `input` in `format`.
///
/// # Errors
/// [`RecordError`] naming the line and column (or byte) of the first problem.
pub fn read_as(
    format: Format,
    input: &[u8],
    options: &ReadOptions,
) -> Result<Vec<GameRecord>, RecordError> {
    games_as(format, input, options).collect()
}

/// The games of `input`, in the format [`Format::detect`] finds, read one at a time: see
/// [`Games`].
#[must_use]
pub fn games<'a>(input: &'a [u8], options: &ReadOptions) -> Games<'a> {
    games_as(Format::detect(input), input, options)
}

/// The games of `input` in `format`, read one at a time: see [`Games`].
#[must_use]
pub fn games_as<'a>(format: Format, input: &'a [u8], options: &ReadOptions) -> Games<'a> {
    Games::new(format.spec(), input, *options)
}

/// Writes `records` in `format`: text for every format but WTHOR.
///
/// # Errors
/// [`WriteError`] for the first record the format cannot hold (a board size, a rule set or a
/// start it has no way to write, or several games for the protocol input).
pub fn write(records: &[GameRecord], format: Format) -> Result<Vec<u8>, WriteError> {
    (format.spec().write)(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::decode;

    #[test]
    fn the_table_holds_each_format_once_and_names_it_by_name_and_extension() {
        for (index, format) in Format::ALL.into_iter().enumerate() {
            assert_eq!(format as usize, index);
            assert_eq!(
                FORMATS.iter().filter(|spec| spec.format == format).count(),
                1
            );
            assert_eq!(format.name().parse::<Format>(), Ok(format));
            for extension in format.spec().extensions {
                assert_eq!(Format::for_extension(extension), Some(format));
            }
        }
        assert_eq!(Format::for_extension("GGF"), Some(Format::Ggf));
        assert_eq!(Format::for_extension("png"), None);
        assert_eq!(
            "gif".parse::<Format>().unwrap_err().to_string(),
            "expected a format, movelist, ggf, obf, protocol or wthor, found \"gif\""
        );
        // Only the last format of the detection order takes anything.
        assert_eq!(Format::detect(b""), Format::MoveList);
        assert!(
            FORMATS[..FORMATS.len() - 1]
                .iter()
                .all(|spec| !(spec.detect)(b""))
        );
    }

    #[test]
    fn detects_formats() {
        assert_eq!(Format::detect(b"f5d6c3"), Format::MoveList);
        assert_eq!(Format::detect(b"  (;GM[Othello];)"), Format::Ggf);
        assert_eq!(Format::detect(b"4\n4\nB\n>\n"), Format::Protocol);
        let obf = format!("{} X;\n", "-".repeat(64));
        assert_eq!(Format::detect(obf.as_bytes()), Format::Obf);
        // Bytes that are not UTF-8 are Latin-1 text unless a WTHOR header fits the length.
        assert_eq!(Format::detect(&[0xff, 0xfe]), Format::MoveList);
        assert_eq!(Format::detect(b"(;GM[Othello]PB[M\xfcller];)"), Format::Ggf);
        assert_eq!(Format::detect(b"4\n4\nB\n>\n\xfc"), Format::Protocol);
        assert_eq!(decode(b"M\xfcller"), "M\u{fc}ller");
        assert_eq!(decode("M\u{fc}ller".as_bytes()), "M\u{fc}ller");
        assert_eq!("GGF".parse(), Ok(Format::Ggf));
        assert!("sgf".parse::<Format>().is_err());
    }
}
