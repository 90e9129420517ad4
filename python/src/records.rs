//! Records read for Python: the library's reader over a record's bytes, and the games handed
//! over one at a time (`othello.iter_records`), each `Game` made when it is taken.

use othello_records::{self as record, GameRecord, ReadOptions};
use pyo3::prelude::*;

use crate::args;
use crate::errors;
use crate::game::PyGame;

/// Every game of a record's bytes, in any format the library detects.
pub(crate) fn read(bytes: &[u8], rules: &str) -> PyResult<Vec<GameRecord>> {
    let options = ReadOptions {
        rules: args::rules(rules)?,
    };
    record::read(bytes, &options).map_err(errors::record)
}

/// The games of a record, read whole but replayed one at a time as they are asked for: the
/// records themselves are kept compactly (their moves), and a `Game` exists only once it is
/// taken.
#[pyclass(name = "RecordReader", module = "othello")]
pub struct PyRecordReader {
    records: std::vec::IntoIter<GameRecord>,
}

#[pymethods]
impl PyRecordReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self) -> Option<PyGame> {
        self.records
            .next()
            .map(|record| PyGame::from_game_record(&record))
    }

    /// The games not yet taken.
    fn __len__(&self) -> usize {
        self.records.len()
    }
}

/// The games of a record's bytes as an iterator of `Game`s (see [`PyRecordReader`]).
#[pyfunction]
#[pyo3(signature = (data, rules = "full"))]
pub fn iter_records_bytes(data: &Bound<'_, PyAny>, rules: &str) -> PyResult<PyRecordReader> {
    let bytes = args::text_or_bytes(data)?;
    let records = errors::guarded(|| read(&bytes, rules))?;
    Ok(PyRecordReader {
        records: records.into_iter(),
    })
}
