//! The module's exceptions (`ValueError`s, and `InternalError` for a fault inside the
//! package), and the library's errors mapped onto them with
//! the library's messages.

use othello::MoveError;
use pyo3::PyErr;
use pyo3::PyResult;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};

create_exception!(
    othello,
    IllegalMoveError,
    PyValueError,
    "A move that cannot be played: an occupied square, a square that flips nothing, a pass with a legal move, or any move once the game is over."
);
create_exception!(
    othello,
    InvalidSquareError,
    PyValueError,
    "A square that is not on the board or cannot be read (\"z9\", (8, 0) on 8x8)."
);
create_exception!(
    othello,
    SetupError,
    PyValueError,
    "Starting conditions that make no game: a board size, rule set, win rule, colour or grid that is not supported."
);
create_exception!(
    othello,
    RecordError,
    PyValueError,
    "A game record that cannot be read or written, with the line and column of the problem."
);

/// A library error as the exception of the kind named, with the library's message.
pub(crate) fn setup(error: impl std::fmt::Display) -> PyErr {
    SetupError::new_err(error.to_string())
}

/// A record error with the library's message.
pub(crate) fn record(error: impl std::fmt::Display) -> PyErr {
    RecordError::new_err(error.to_string())
}

/// A square error with the library's message.
pub(crate) fn square(error: impl std::fmt::Display) -> PyErr {
    InvalidSquareError::new_err(error.to_string())
}

/// A move error: off the board is an invalid square, the rest are illegal moves.
pub(crate) fn moving(error: MoveError) -> PyErr {
    match error {
        MoveError::OutOfBounds(_) => square(error),
        _ => IllegalMoveError::new_err(error.to_string()),
    }
}

/// A search that cannot run, as a `ValueError` with the library's message.
pub(crate) fn engine(error: othello_engine::EngineError) -> PyErr {
    PyValueError::new_err(error.to_string())
}

create_exception!(
    othello,
    InternalError,
    PyRuntimeError,
    "A fault inside the package (a broken invariant of the Rust library), reported instead of a crash; please report it with the call that raised it."
);

/// Runs `work`, turning a panic inside it into `InternalError` with the panic's message, so
/// that no Rust panic reaches Python as `PanicException` (which `except Exception` misses).
pub(crate) fn guarded<T>(work: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let message = panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_owned());
        Err(InternalError::new_err(format!(
            "internal error in the othello package: {message}"
        )))
    })
}
