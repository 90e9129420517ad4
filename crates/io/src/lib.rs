//! What the othello front ends (the command line, the terminal game, the web server) do at
//! their edge, written once: files a user keeps written atomically and never over a file that is
//! not ours ([`atomic`]), input read with a size cap ([`input`]), game records and opening books
//! read from files ([`records`], [`book`]), the options every command shares ([`options`]), and
//! the progress display of long commands ([`progress`]).

pub mod atomic;
pub mod book;
pub mod input;
pub mod options;
pub mod progress;
pub mod records;
