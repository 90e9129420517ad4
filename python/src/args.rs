//! Python's arguments read into the library's values: squares, boards given cell by cell, a
//! record's text or bytes, and the settings of a game, which go through the settings grammar
//! of every front end ([`othello_session::settings`]).

use othello::notation::parse_square;
use othello::{Board, Color, Dimensions, RuleSet, Square};
use othello_session::settings::{Changes, GameSettings, Problem, Setting, SettingError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::{self, SetupError};
use crate::names;

/// The standard game with the settings Python's arguments give, each the text of a
/// [`Setting`] (`rules="simple"` as `new rules=simple` reads it). Raises `SetupError` with the
/// library's message for a value the setting cannot take.
pub(crate) fn settings(given: &[(Setting, &str)]) -> PyResult<GameSettings> {
    let mut changes = Changes::default();
    for &(setting, value) in given {
        changes.set(setting, value).map_err(setting_error)?;
    }
    Ok(changes.apply(&GameSettings::default()))
}

/// The rule set `text` names: `"full"` or `"simple"`.
pub(crate) fn rules(text: &str) -> PyResult<RuleSet> {
    Ok(settings(&[(Setting::Rules, text)])?.rules)
}

/// A setting that cannot be played as a `SetupError`, with the message of the library's error
/// behind it (`expected a rule set, full or simple, found "fast"`).
fn setting_error(error: SettingError) -> PyErr {
    let message = match &error {
        SettingError::Value { problem, .. } => match problem {
            Problem::Size(error) => error.to_string(),
            Problem::Rules(error) => error.to_string(),
            Problem::Win(error) => error.to_string(),
            Problem::First(error) => error.to_string(),
            Problem::Level(_) | Problem::Seat(_) | Problem::Name(_) => error.to_string(),
        },
        SettingError::Word(_) | SettingError::Size(_) => error.to_string(),
    };
    SetupError::new_err(message)
}

/// A square given as text (`"d3"`, `"3d"`, `"3 4"`) or as a 0-based `(row, col)` pair.
pub(crate) fn square(mv: &Bound<'_, PyAny>, dims: Dimensions) -> PyResult<Square> {
    if let Ok(text) = mv.cast::<PyString>() {
        if let Some(square) = names::lookup(text).filter(|&square| dims.contains(square)) {
            return Ok(square);
        }
        return parse_square(&text.to_cow()?, dims).map_err(errors::square);
    }
    let Ok((row, col)) = mv.extract::<(i64, i64)>() else {
        return Err(errors::square(format!(
            "expected a square such as \"d3\" or a (row, col) pair, found {}",
            mv.repr()?
        )));
    };
    let on_board = |value: i64, limit: usize| usize::try_from(value).ok().filter(|&v| v < limit);
    match (on_board(row, dims.rows()), on_board(col, dims.cols())) {
        (Some(row), Some(col)) => Ok(Square::new(row, col)),
        _ => Err(errors::square(format!(
            "({row}, {col}) is outside the {dims} board: rows are 0 to {}, columns 0 to {}",
            dims.rows() - 1,
            dims.cols() - 1
        ))),
    }
}

/// The board of a list of rows, each a sequence of cells (see [`cell_of`]), of a supported size.
pub(crate) fn board(cells: &Bound<'_, PyAny>) -> PyResult<Board> {
    let rows: Vec<Bound<'_, PyAny>> = cells
        .try_iter()
        .map_err(|_| errors::setup("expected the board as a list of rows"))?
        .collect::<PyResult<_>>()?;
    let mut grid = Vec::with_capacity(rows.len());
    for (r, row) in rows.iter().enumerate() {
        let row_cells: Vec<Bound<'_, PyAny>> = row
            .try_iter()
            .map_err(|_| errors::setup(format!("row {}: expected a sequence of cells", r + 1)))?
            .collect::<PyResult<_>>()?;
        grid.push(
            row_cells
                .iter()
                .enumerate()
                .map(|(c, cell)| cell_of(cell, r, c))
                .collect::<PyResult<Vec<_>>>()?,
        );
    }
    let cols = grid.first().map_or(0, Vec::len);
    if let Some(r) = grid.iter().position(|row| row.len() != cols) {
        return Err(errors::setup(format!(
            "row {} has {} cells, row 1 has {cols}",
            r + 1,
            grid[r].len()
        )));
    }
    let dims = Dimensions::new(grid.len(), cols).map_err(errors::setup)?;
    let mut board = Board::empty(dims);
    for (r, row) in grid.iter().enumerate() {
        for (c, &cell) in row.iter().enumerate() {
            board
                .set(Square::new(r, c), cell)
                .expect("within the checked size");
        }
    }
    Ok(board)
}

/// The colour a board cell holds: `B`/`X` black, `W`/`O` white, `.`/`-`/empty/`None` empty.
fn cell_of(cell: &Bound<'_, PyAny>, row: usize, col: usize) -> PyResult<Option<Color>> {
    if cell.is_none() {
        return Ok(None);
    }
    let text: String = cell.extract().map_err(|_| {
        errors::setup(format!(
            "row {}, column {}: expected a cell B, W or ., found {}",
            row + 1,
            col + 1,
            cell.repr()
                .map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    })?;
    match text.trim() {
        "B" | "b" | "X" | "x" => Ok(Some(Color::Black)),
        "W" | "w" | "O" | "o" => Ok(Some(Color::White)),
        "." | "-" | "" => Ok(None),
        other => Err(errors::setup(format!(
            "row {}, column {}: expected a cell B, W or ., found {other:?}",
            row + 1,
            col + 1
        ))),
    }
}

/// The bytes of a `str` (as UTF-8) or of `bytes`.
pub(crate) fn text_or_bytes(value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(text) = value.cast::<PyString>() {
        return Ok(text.to_cow()?.as_bytes().to_vec());
    }
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    Err(errors::record("expected the record as str or bytes"))
}
