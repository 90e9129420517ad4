//! The Python objects for squares, made once: the names (`"d3"`) and the 0-based `(row, col)`
//! tuples of every square of the largest board, and a dictionary from name back to square.
//!
//! A move list from `legal_moves()` is then a list of shared references, and `play("d3")` a
//! dictionary look-up, with nothing formatted or parsed on the way (the forms people type
//! otherwise, such as `"D3"` or `"3 4"`, go through the library's notation).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use othello::{MAX_SIDE, Square};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

/// The objects of every square, indexed by `row * MAX_SIDE + col`.
struct Names {
    text: Vec<Py<PyString>>,
    coords: Vec<Py<PyTuple>>,
    /// The square of each of `text`'s objects, by address: the names `legal_moves()` hands out
    /// come back to `play` as the same objects.
    by_address: HashMap<usize, u16, BuildHasherDefault<AddressHasher>>,
    lookup: Py<PyDict>,
}

/// A hasher for object addresses, which are distinct multiples of 8 or 16.
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8 | u64::from(byte)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, address: usize) {
        self.0 = ((address >> 4) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

static NAMES: PyOnceLock<Names> = PyOnceLock::new();

fn names(py: Python<'_>) -> &Names {
    NAMES.get_or_init(py, || {
        let lookup = PyDict::new(py);
        let mut by_address = HashMap::default();
        let mut text = Vec::with_capacity(MAX_SIDE * MAX_SIDE);
        let mut coords = Vec::with_capacity(MAX_SIDE * MAX_SIDE);
        for row in 0..MAX_SIDE {
            for col in 0..MAX_SIDE {
                let square = Square::new(row, col);
                let name = PyString::intern(py, &square.to_string());
                lookup
                    .set_item(&name, row * MAX_SIDE + col)
                    .expect("a dictionary takes a string key");
                by_address.insert(name.as_ptr() as usize, (row * MAX_SIDE + col) as u16);
                text.push(name.unbind());
                coords.push(
                    PyTuple::new(py, [row, col])
                        .expect("a pair of integers")
                        .unbind(),
                );
            }
        }
        Names {
            text,
            coords,
            by_address,
            lookup: lookup.unbind(),
        }
    })
}

fn index(square: Square) -> usize {
    square.row() * MAX_SIDE + square.col()
}

/// The name of `square`, `"d3"`.
pub(crate) fn name(py: Python<'_>, square: Square) -> Py<PyString> {
    names(py).text[index(square)].clone_ref(py)
}

/// The squares as a list of names.
pub(crate) fn name_list<'py>(py: Python<'py>, squares: &[Square]) -> PyResult<Bound<'py, PyList>> {
    let names = names(py);
    PyList::new(py, squares.iter().map(|&s| names.text[index(s)].bind(py)))
}

/// The squares as a list of 0-based `(row, col)` tuples.
pub(crate) fn coord_list<'py>(py: Python<'py>, squares: &[Square]) -> PyResult<Bound<'py, PyList>> {
    let names = names(py);
    PyList::new(py, squares.iter().map(|&s| names.coords[index(s)].bind(py)))
}

/// The square a name in the canonical form (`"d3"`) names, if it is one; it may still be off a
/// smaller board.
pub(crate) fn lookup(text: &Bound<'_, PyString>) -> Option<Square> {
    let py = text.py();
    let names = names(py);
    let at = match names.by_address.get(&(text.as_ptr() as usize)) {
        Some(&at) => usize::from(at),
        None => names
            .lookup
            .bind(py)
            .get_item(text)
            .ok()
            .flatten()?
            .extract()
            .ok()?,
    };
    Some(Square::new(at / MAX_SIDE, at % MAX_SIDE))
}
