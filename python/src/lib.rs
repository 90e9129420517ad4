//! The Python module `othello._othello`: the rules, records and engine of the `othello`,
//! `othello-records` and `othello-engine` crates (with `othello-session`'s new-game settings)
//! for Python.
//!
//! This is a front end like the command line: it parses what Python passes, calls the library
//! and presents the results as Python values; every rule is the library's. The pure-Python
//! package `othello` (and the seed's module `Othello`) re-export and adapt these classes.

// PyO3 hands arguments such as `PyRef` over by value.
#![allow(clippy::needless_pass_by_value)]

use pyo3::prelude::*;

mod args;
mod errors;
mod game;
mod moves;
mod names;
mod random;
mod records;
mod search;
mod svg;

/// The native part of the `othello` package.
#[pymodule]
fn _othello(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<game::PyGame>()?;
    m.add_class::<search::PyEngine>()?;
    m.add_class::<search::PySearchResult>()?;
    m.add_class::<search::PyMoveValue>()?;
    m.add_function(wrap_pyfunction!(search::perft, m)?)?;
    m.add_function(wrap_pyfunction!(records::iter_records_bytes, m)?)?;
    m.add_class::<records::PyRecordReader>()?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add(
        "InvalidSquareError",
        py.get_type::<errors::InvalidSquareError>(),
    )?;
    m.add("SetupError", py.get_type::<errors::SetupError>())?;
    m.add("RecordError", py.get_type::<errors::RecordError>())?;
    m.add("InternalError", py.get_type::<errors::InternalError>())?;
    Ok(())
}
