//! Output for a person at a terminal: lines longer than the screen are broken at spaces
//! rather than in the middle of a word.

use std::io::{self, Write};

/// Writes through to `inner`, breaking each line longer than `width` visible characters at
/// its last space that fits; continuation lines keep the line's indentation. Escape sequences
/// (colours) take no width. A line still open at a flush (a prompt) is written as it is.
pub struct Wrapping<W: Write> {
    inner: W,
    width: usize,
    line: Vec<u8>,
}

impl<W: Write> Wrapping<W> {
    /// Wraps what is written to `inner` at `width` columns.
    pub fn new(inner: W, width: usize) -> Wrapping<W> {
        Wrapping {
            inner,
            width: width.max(20),
            line: Vec::new(),
        }
    }
}

impl<W: Write> Write for Wrapping<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        for &byte in buf {
            self.line.push(byte);
            if byte == b'\n' {
                let line = String::from_utf8_lossy(&self.line).into_owned();
                self.line.clear();
                self.inner
                    .write_all(wrap_line(&line, self.width).as_bytes())?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.write_all(&self.line)?;
        self.line.clear();
        self.inner.flush()
    }
}

/// How many columns `text` takes: its characters without escape sequences.
fn visible_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        if ch == '\u{1b}' {
            // CSI: ESC [ parameters, then a final byte from @ to ~.
            if chars.next() == Some('[') {
                for next in chars.by_ref() {
                    if ('@'..='~').contains(&next) {
                        break;
                    }
                }
            }
        } else if ch != '\n' && ch != '\r' {
            width += 1;
        }
    }
    width
}

/// Where continuation lines of `line` start: under the second column of an indented table
/// row (`  hint     ask the computer...`), else under the line's own indentation.
fn hanging_indent(line: &str) -> usize {
    let leading = line.len() - line.trim_start_matches(' ').len();
    if leading == 0 || line.contains('\u{1b}') {
        return leading;
    }
    let Some(gap) = line[leading..].find("  ").map(|at| leading + at) else {
        return leading;
    };

    gap + line[gap..].len() - line[gap..].trim_start_matches(' ').len()
}

/// `line` (ending in a line break) broken at spaces into lines of at most `width` columns.
fn wrap_line(line: &str, width: usize) -> String {
    if visible_width(line) <= width {
        return line.to_owned();
    }
    let body = line.trim_end_matches(['\n', '\r']);
    let hanging = hanging_indent(body);
    let indent = " ".repeat(if hanging <= width / 2 { hanging } else { 0 });
    let mut out = String::with_capacity(line.len() + 16);
    let mut current = String::new();
    for word in body.trim_start_matches(' ').split(' ') {
        let fits = visible_width(&current) + 1 + visible_width(word) <= width;
        if !current.is_empty() && !fits {
            out.push_str(&current);
            out.push('\n');
            current.clear();
        }
        if current.is_empty() {
            let leading = if out.is_empty() {
                &body[..body.len() - body.trim_start_matches(' ').len()]
            } else {
                indent.as_str()
            };
            current.push_str(leading);
        } else {
            current.push(' ');
        }
        current.push_str(word);
    }
    out.push_str(&current);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped(text: &str, width: usize) -> String {
        let mut out = Wrapping::new(Vec::new(), width);
        out.write_all(text.as_bytes()).unwrap();
        out.flush().unwrap();
        String::from_utf8(out.inner).unwrap()
    }

    #[test]
    fn long_lines_break_between_words() {
        let text = "Columns a to h, rows 1 to 8; FULL rules, most discs wins. A player without a legal move passes automatically.\nshort\nBlack (X)> ";
        assert_eq!(
            wrapped(text, 40),
            "Columns a to h, rows 1 to 8; FULL rules,\nmost discs wins. A player without a\nlegal move passes automatically.\nshort\nBlack (X)> "
        );
        for line in wrapped(text, 40).lines() {
            assert!(line.chars().count() <= 40, "{line}");
        }
    }

    #[test]
    fn indentation_is_kept_and_colours_take_no_room() {
        assert_eq!(
            wrapped("  hint  ask the computer for its best move\n", 24),
            "  hint  ask the computer\n        for its best\n        move\n"
        );
        assert_eq!(
            wrapped("  a long indented line without a table\n", 20),
            "  a long indented\n  line without a\n  table\n"
        );
        let bold = "\u{1b}[1mAlice\u{1b}[0m wins by 4 discs.\n";
        assert_eq!(wrapped(bold, 24), bold);
    }
}
