//! Where the line dialogue's lines come from: a pipe or file read as it is, or a person at a
//! terminal with line editing, history and Tab completion (rustyline).

use std::io::{Read, Write};

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};

use crate::PlayError;
use othello_io::input::{LineError, LineReader};

/// What reading a line gave: a line, the end of the input, or Ctrl-C.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, without its line ending.
    Line(String),
    /// The end of the input (Ctrl-D at a terminal).
    End,
    /// Ctrl-C at a terminal.
    Interrupted,
}

/// A source of typed lines.
pub trait Lines {
    /// Shows `prompt` and reads a line; `words` are what Tab may complete.
    fn read(
        &mut self,
        prompt: &str,
        words: &[String],
        out: &mut impl Write,
    ) -> Result<LineRead, PlayError>;

    /// Whether a person types the lines at a terminal.
    fn interactive(&self) -> bool;
}

/// Lines read as they come, from a pipe or a file.
pub struct Piped<R> {
    reader: LineReader<R>,
}

impl<R: Read> Piped<R> {
    /// Lines from `input`.
    pub fn new(input: R) -> Piped<R> {
        Piped {
            reader: LineReader::new(input),
        }
    }
}

impl<R: Read> Lines for Piped<R> {
    fn read(
        &mut self,
        prompt: &str,
        _words: &[String],
        out: &mut impl Write,
    ) -> Result<LineRead, PlayError> {
        out.write_all(prompt.as_bytes()).map_err(PlayError::Write)?;
        match self.reader.next_line(out) {
            Ok(Some(line)) => Ok(LineRead::Line(String::from_utf8_lossy(line).into_owned())),
            Ok(None) => Ok(LineRead::End),
            Err(LineError::Read(error)) => Err(PlayError::Read(error)),
            Err(LineError::Write(error)) => Err(PlayError::Write(error)),
        }
    }

    fn interactive(&self) -> bool {
        false
    }
}

/// Lines typed at a terminal, with editing (arrows, Ctrl-A, Ctrl-E, Ctrl-L), history and Tab
/// completion of moves and commands. Keys such as the arrows are never part of the line.
pub struct Typed {
    editor: Editor<Words, DefaultHistory>,
}

impl Typed {
    /// An editor on the terminal.
    pub fn new() -> Result<Typed, PlayError> {
        let mut editor = Editor::new().map_err(|error| PlayError::Read(into_io(error)))?;
        editor.set_helper(Some(Words {
            words: Vec::new(),
            after_new: othello_session::settings::completions(),
        }));
        Ok(Typed { editor })
    }
}

impl Lines for Typed {
    fn read(
        &mut self,
        prompt: &str,
        words: &[String],
        out: &mut impl Write,
    ) -> Result<LineRead, PlayError> {
        out.flush().map_err(PlayError::Write)?;
        if let Some(helper) = self.editor.helper_mut() {
            helper.words = words.to_vec();
        }
        match self.editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = self.editor.add_history_entry(line.as_str());
                }
                Ok(LineRead::Line(line))
            }
            Err(ReadlineError::Eof) => Ok(LineRead::End),
            Err(ReadlineError::Interrupted) => Ok(LineRead::Interrupted),
            Err(error) => Err(PlayError::Read(into_io(error))),
        }
    }

    fn interactive(&self) -> bool {
        true
    }
}

fn into_io(error: ReadlineError) -> std::io::Error {
    match error {
        ReadlineError::Io(error) => error,
        other => std::io::Error::other(other.to_string()),
    }
}

/// Tab completion from a list of words: the moves and commands allowed at the prompt, and the
/// settings after `new`.
#[derive(Default)]
struct Words {
    words: Vec<String>,
    after_new: Vec<String>,
}

impl Words {
    /// The words that start with the word before `pos`, and where that word starts.
    fn matches(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let start = line[..pos]
            .rfind(char::is_whitespace)
            .map_or(0, |at| at + 1);
        let typed = line[start..pos].to_ascii_lowercase();
        let first = line[..start].split_whitespace().next();
        let words = match first {
            Some(word) if word.eq_ignore_ascii_case("new") => &self.after_new,
            _ => &self.words,
        };
        let found = words
            .iter()
            .filter(|word| word.starts_with(&typed))
            .cloned()
            .collect();
        (start, found)
    }
}

impl Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(self.matches(line, pos))
    }
}

impl Hinter for Words {
    type Hint = String;
}

impl Highlighter for Words {}

impl Validator for Words {}

impl Helper for Words {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_completes_the_word_under_the_cursor() {
        let words = Words {
            words: ["d3", "c4", "hint", "help", "undo", "new"]
                .map(str::to_owned)
                .to_vec(),
            after_new: othello_session::settings::completions(),
        };
        assert_eq!(
            words.matches("h", 1),
            (0, vec!["hint".to_owned(), "help".to_owned()])
        );
        assert_eq!(words.matches("HI", 2), (0, vec!["hint".to_owned()]));
        assert_eq!(words.matches("  d", 3), (2, vec!["d3".to_owned()]));
        assert_eq!(words.matches("x", 1), (0, Vec::new()));
        // After new, the settings.
        assert_eq!(words.matches("new 6", 5), (4, vec!["6x6".to_owned()]));
        assert_eq!(
            words.matches("new 6x6 first=", 14),
            (8, vec!["first=black".to_owned(), "first=white".to_owned()])
        );
        assert_eq!(
            words.matches("NEW white=c", 11).1,
            vec!["white=computer".to_owned()]
        );
        assert_eq!(words.matches("ne", 2), (0, vec!["new".to_owned()]));
    }

    #[test]
    fn piped_lines_come_as_they_are() {
        let mut lines = Piped::new(&b"d3\n\x1b[A\n"[..]);
        let mut out = Vec::new();
        assert_eq!(
            lines.read("> ", &[], &mut out).unwrap(),
            LineRead::Line("d3".to_owned())
        );
        assert_eq!(
            lines.read("> ", &[], &mut out).unwrap(),
            LineRead::Line("\u{1b}[A".to_owned())
        );
        assert_eq!(lines.read("> ", &[], &mut out).unwrap(), LineRead::End);
        assert_eq!(out, b"> > > ");
    }
}
