//! Opening books read from files and saved back: binary or text (as `othello book export`
//! writes it), told apart by the first bytes; and the `--book`/`--no-book` options of the
//! commands that play.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use thiserror::Error;

use othello_engine::book::{Book, BookError};
use othello_session::BookChoice;

use crate::atomic::{NotOurs, check_overwrite, write_atomic};

/// The largest book file read (binary or text): far more than any book built in an hour.
pub const MAX_BOOK_BYTES: usize = 1 << 28;

/// Where a book comes from: the built-in one, or a file.
#[derive(Debug, Args)]
pub struct BookSource {
    /// A book file (binary, or text as `othello book export` writes it) instead of the
    /// built-in book.
    #[arg(long, value_name = "FILE")]
    pub book: Option<PathBuf>,
}

/// `--book FILE` and `--no-book` of the commands that play (`play`, `nboard`, `gtp`).
#[derive(Debug, Args)]
pub struct UseBookArgs {
    /// Play from this opening book (binary, or text as `othello book export` writes it)
    /// instead of the built-in one.
    #[arg(long, value_name = "FILE", conflicts_with = "no_book")]
    book: Option<PathBuf>,

    /// Play without an opening book: search every move.
    #[arg(long)]
    no_book: bool,
}

impl UseBookArgs {
    /// The book to play from: the file, the built-in book, or none with `--no-book`.
    ///
    /// # Errors
    /// The book file cannot be read or is not a book.
    pub fn book(&self) -> Result<Option<Arc<Book>>, BookFileError> {
        if self.no_book {
            return Ok(None);
        }
        match &self.book {
            Some(path) => read_book(path).map(|book| Some(Arc::new(book))),
            None => Ok(Some(Book::builtin())),
        }
    }

    /// The book file given (`--book FILE`; not standard input), where learnt games are saved.
    #[must_use]
    pub fn file(&self) -> Option<&Path> {
        self.book
            .as_deref()
            .filter(|path| !self.no_book && *path != Path::new("-"))
    }

    /// The book of the computer players of `othello play`.
    ///
    /// # Errors
    /// The book file cannot be read or is not a book.
    pub fn choice(&self) -> Result<BookChoice, BookFileError> {
        Ok(match self.book()? {
            None => BookChoice::Off,
            Some(book) if self.book.is_some() => BookChoice::Custom(book),
            Some(_) => BookChoice::Builtin,
        })
    }
}

/// A book file that could not be read or written.
#[derive(Debug, Error)]
pub enum BookFileError {
    /// A book file could not be read.
    #[error("{path}: {source}", path = .path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
    /// A file is not a book, or a damaged one.
    #[error("{path}: {source}", path = .path.display())]
    NotABook {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: BookError,
    },
    /// A file is larger than any book.
    #[error("{path}: larger than {MAX_BOOK_BYTES} bytes; not a book", path = .path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// The output file is not one this command writes.
    #[error(transparent)]
    NotOurs(#[from] NotOurs),
    /// The book could not be written.
    #[error("{path}: {source}", path = .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: io::Error,
    },
}

impl BookFileError {
    /// The exit status: 1 for a failed write, 2 for the rest (a file that cannot be read or is
    /// not a book, an output file not ours).
    #[must_use]
    pub fn exit_status(&self) -> u8 {
        match self {
            BookFileError::Write { .. } => 1,
            _ => 2,
        }
    }
}

/// Reads a book file, binary or text (told apart by the binary form's first bytes); `-` is
/// standard input.
///
/// # Errors
/// The file cannot be read, is larger than [`MAX_BOOK_BYTES`], or is not a book.
pub fn read_book(path: &Path) -> Result<Book, BookFileError> {
    let open = |source| BookFileError::Open {
        path: path.to_owned(),
        source,
    };
    let mut bytes = Vec::new();
    let limit = MAX_BOOK_BYTES as u64 + 1;
    if path == Path::new("-") {
        io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        File::open(path)
            .map_err(open)?
            .take(limit)
            .read_to_end(&mut bytes)
    }
    .map_err(open)?;
    if bytes.len() > MAX_BOOK_BYTES {
        return Err(BookFileError::TooLarge {
            path: path.to_owned(),
        });
    }
    parse_book(&bytes).map_err(|source| BookFileError::NotABook {
        path: path.to_owned(),
        source,
    })
}

/// A book from the bytes of a file: the binary form if it starts like one, else text.
///
/// # Errors
/// The bytes are neither a binary book nor a book's text.
pub fn parse_book(bytes: &[u8]) -> Result<Book, BookError> {
    if bytes.starts_with(b"othbook") {
        return Book::from_bytes(bytes);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => Book::from_text(text),
        Err(_) => Err(BookError::Magic),
    }
}

/// Saves a book that learnt a game into the file it was read from, in the file's form (binary,
/// or text as `book export` writes it), atomically.
///
/// # Errors
/// [`BookFileError::NotOurs`] if the file is no longer a book (it is left as it is), or
/// [`BookFileError::Write`].
pub fn save_learnt(path: &Path, book: &Book) -> Result<(), BookFileError> {
    let mut text = false;
    check_overwrite(path, false, MAX_BOOK_BYTES, |bytes| {
        text = !bytes.starts_with(b"othbook");
        parse_book(bytes)
            .map(drop)
            .map_err(|error| format!("no longer a book ({error})"))
    })?;
    let bytes = if text {
        book.to_text().into_bytes()
    } else {
        book.to_bytes()
    };
    write_atomic(path, &bytes).map_err(|source| BookFileError::Write {
        path: path.to_owned(),
        source,
    })
}

/// The book a command uses: `--book FILE`, or the built-in one.
///
/// # Errors
/// The `--book` file cannot be read or is not a book.
pub fn source_book(source: &BookSource) -> Result<Arc<Book>, BookFileError> {
    match &source.book {
        Some(path) => read_book(path).map(Arc::new),
        None => Ok(Book::builtin()),
    }
}
