//! What the othello front ends (the command line, the terminal game, the web server) do at
//! their edge, written once: files a user keeps written atomically and never over a file that is
//! not ours ([`atomic`]), input read with a size cap ([`input`]), game records and opening books
//! read from files ([`records`], [`book`]), the options every command shares ([`options`]), and
//! the progress display of long commands ([`progress`]), and lines for people on standard error
//! that never panic ([`warn`]).

pub mod atomic;
pub mod book;
pub mod input;
pub mod options;
pub mod progress;
pub mod records;

/// Writes one line to standard error, as `eprintln!` does, but never panics: when standard error
/// is closed or full the line is dropped, so that a front end still ends with its own status.
pub fn warn(line: std::fmt::Arguments<'_>) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
