//! `othello.Game`: a game with its history, over the library's [`Game`].

use othello::bitboard::Bits;
use othello::{Color, Dimensions, Game, Outcome, Played, RuleSet, Setup, Square};
use othello_records::{self as record, Format, GameRecord, Metadata, ReadOptions};
use othello_session::settings::Setting;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use std::sync::Arc;

use crate::args;
use crate::errors::{self, IllegalMoveError};
use crate::moves::MoveLister;
use crate::names;

/// An Othello game: the position, whose turn it is, and every move played since the start.
///
/// Every even board from 4x4 to 16x16, under the standard ("full") or the simplified
/// ("simple") rules, with "most" or "fewest" discs winning. A player without a legal move
/// passes by itself, as in the console protocol: `turn` is always a player who can move, or
/// `None` once neither can. Squares are written ``"d3"`` (column letter, 1-based row) or given
/// as 0-based ``(row, col)`` tuples.
#[pyclass(name = "Game", module = "othello")]
#[derive(Clone)]
pub struct PyGame {
    start: Game,
    game: Game,
    /// Every move played (a position before one is replayed from `start` when needed, so that
    /// a game costs a few bytes a move: records of many games stay small).
    history: Vec<Played>,
    /// Whether the last move left the opponent without a move (a pass that `pass_` may name).
    pass_pending: bool,
    metadata: Metadata,
    /// Lists legal moves for this board size.
    lister: Arc<MoveLister>,
}

impl PyGame {
    /// A game starting at `game`, no moves played.
    pub(crate) fn starting(game: Game) -> PyGame {
        PyGame {
            start: game.clone(),
            lister: MoveLister::shared(game.board().dims()),
            game,
            history: Vec::new(),
            pass_pending: false,
            metadata: Metadata::default(),
        }
    }

    /// The game a record holds, every move replayed.
    pub(crate) fn from_game_record(record: &GameRecord) -> PyGame {
        let mut game = PyGame::starting(record.start_game());
        for square in record.squares() {
            game.play_square(square)
                .expect("a record's moves are legal");
        }
        game.metadata = record.metadata().clone();
        game.history.shrink_to_fit();
        game
    }

    /// The current position.
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// The last move played, if any.
    pub(crate) fn last_square(&self) -> Option<Square> {
        self.history.last().map(|played| played.square)
    }

    fn dims(&self) -> Dimensions {
        self.game.board().dims()
    }

    /// Plays `square` for the player to move, and keeps it in the history.
    fn play_square(&mut self, square: Square) -> Result<Played, othello::MoveError> {
        let played = self.game.play(square)?;
        self.history.push(played);
        self.pass_pending = played.passed.is_some();
        Ok(played)
    }

    /// The square `mv` names: a string in any form people type, or a 0-based `(row, col)`.
    pub(crate) fn square_of(&self, mv: &Bound<'_, PyAny>) -> PyResult<Square> {
        args::square(mv, self.dims())
    }

    /// The record of the game so far.
    fn record(&self) -> GameRecord {
        let squares = self.history.iter().map(|played| played.square);
        GameRecord::from_squares(&self.start, squares, self.metadata.clone())
            .expect("the moves of a game were legal")
    }

    fn write(&self, format: Format) -> PyResult<String> {
        let bytes = record::write(&[self.record()], format).map_err(errors::record)?;
        Ok(String::from_utf8(bytes).expect("text formats write text"))
    }

    /// The board with column letters and row numbers, legal moves as `*`, and a status line.
    fn labelled(&self) -> String {
        let dims = self.dims();
        let legal = self.game.legal_moves();
        let mut text = String::from("  ");
        for col in 0..dims.cols() {
            text.push(' ');
            text.push((b'a' + col as u8) as char);
        }
        text.push('\n');
        for row in 0..dims.rows() {
            text.push_str(&format!("{:>2}", row + 1));
            for col in 0..dims.cols() {
                let square = Square::new(row, col);
                text.push(' ');
                text.push(match self.game.board().get(square).expect("on the board") {
                    Some(color) => color.letter(),
                    None if legal.contains(&square) => '*',
                    None => '.',
                });
            }
            text.push('\n');
        }
        text.push_str(&self.status());
        text
    }

    /// One line: who is to move, or who won, and the disc counts.
    fn status(&self) -> String {
        let score = self.game.score();
        let counts = format!("black {}, white {}", score.black, score.white);
        match (self.game.turn(), self.game.outcome()) {
            (Some(turn), _) => format!("{turn} to move; {counts}"),
            (None, Some(Outcome::Win(winner))) => format!("game over, {winner} wins; {counts}"),
            (None, _) => format!("game over, a draw; {counts}"),
        }
    }
}

/// A whole number as a Python `int`, from the bits of a set (bit `row * cols + col`).
fn bits_to_int<B: Bits>(py: Python<'_>, bits: B) -> PyResult<Py<PyAny>> {
    let (mut low, mut high) = (0u128, 0u128);
    for index in bits.members() {
        if index < 128 {
            low |= 1 << index;
        } else {
            high |= 1 << (index - 128);
        }
    }
    if high == 0 {
        return Ok(low.into_pyobject(py)?.into_any().unbind());
    }
    let value = high
        .into_pyobject(py)?
        .call_method1("__lshift__", (128,))?
        .call_method1("__or__", (low,))?;
    Ok(value.unbind())
}

#[pymethods]
impl PyGame {
    /// A new game from the standard opening of a `rows` x `cols` board.
    ///
    /// ``rules`` is ``"full"`` or ``"simple"``, ``win`` ``"most"`` or ``"fewest"`` (discs
    /// win), ``first`` ``"black"`` or ``"white"``. Raises `SetupError` for anything else, or a
    /// board that is not even and 4 to 16 on each side.
    #[new]
    #[pyo3(signature = (rows = 8, cols = 8, rules = "full", win = "most", first = "black"))]
    fn new(rows: i64, cols: i64, rules: &str, win: &str, first: &str) -> PyResult<PyGame> {
        let settings = args::settings(&[
            (Setting::Size, &format!("{rows}x{cols}")),
            (Setting::First, first),
            (Setting::Win, win),
            (Setting::Rules, rules),
        ])?;
        Ok(PyGame::starting(settings.game()))
    }

    /// The game a console-protocol input describes: header (rows, columns, first player, win
    /// rule), grid, and any ``ROW COL`` move lines after it (played as the protocol plays
    /// them). Raises `SetupError` with the protocol's message for a wrong header or grid.
    #[staticmethod]
    #[pyo3(signature = (text, rules = "full"))]
    fn from_protocol(text: &str, rules: &str) -> PyResult<PyGame> {
        let rules = args::rules(rules)?;
        Setup::from_protocol(text).map_err(errors::setup)?;
        let record =
            record::protocol_input::read(text, &ReadOptions { rules }).map_err(errors::setup)?;
        Ok(PyGame::from_game_record(&record))
    }

    /// The first game of a record in any format `read_records` reads (move list, GGF, OBF,
    /// protocol input, WTHOR bytes), its moves replayed. Raises `RecordError` naming the line
    /// and column of the first problem.
    #[staticmethod]
    #[pyo3(signature = (text, rules = "full"))]
    fn from_record(text: &Bound<'_, PyAny>, rules: &str) -> PyResult<PyGame> {
        let bytes = args::text_or_bytes(text)?;
        let records = crate::records::read(&bytes, rules)?;
        Ok(PyGame::from_game_record(&records[0]))
    }

    /// A game from any position: ``cells`` is a list of rows, each a sequence of ``"B"``
    /// (or ``"X"``), ``"W"`` (or ``"O"``) and ``"."`` (or ``None``); ``first`` is the player
    /// to move (if they can). Raises `SetupError` for a board of an unsupported size or a cell
    /// that is none of these.
    #[staticmethod]
    #[pyo3(signature = (cells, first = "black", rules = "full", win = "most"))]
    fn from_board(
        cells: &Bound<'_, PyAny>,
        first: &str,
        rules: &str,
        win: &str,
    ) -> PyResult<PyGame> {
        let board = args::board(cells)?;
        let settings = args::settings(&[
            (Setting::First, first),
            (Setting::Win, win),
            (Setting::Rules, rules),
        ])?;
        let setup = Setup {
            board,
            first: settings.first,
            win: settings.win,
        };
        Ok(PyGame::starting(Game::new(setup, settings.rules)))
    }

    /// Number of rows.
    #[getter]
    fn rows(&self) -> usize {
        self.dims().rows()
    }

    /// Number of columns.
    #[getter]
    fn cols(&self) -> usize {
        self.dims().cols()
    }

    /// The rule set: ``"full"`` or ``"simple"``.
    #[getter]
    fn rules(&self) -> &'static str {
        match self.game.rules() {
            RuleSet::Full => "full",
            RuleSet::Simple => "simple",
        }
    }

    /// The win rule: ``"most"`` or ``"fewest"`` discs wins.
    #[getter]
    fn win(&self) -> &'static str {
        self.game.win_rule().name()
    }

    /// The player to move, ``"black"`` or ``"white"``, or ``None`` once the game is over.
    #[getter]
    fn turn(&self) -> Option<&'static str> {
        self.game.turn().map(Color::name)
    }

    /// Whether neither player can move.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The disc counts, ``(black, white)``.
    #[getter]
    fn score(&self) -> (u32, u32) {
        let score = self.game.score();
        (score.black, score.white)
    }

    /// ``"black"`` or ``"white"`` once the game is over and won, ``"draw"`` for a draw,
    /// ``None`` while it goes on. The win rule decides: under ``"fewest"`` fewer discs wins.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.game.outcome().map(|outcome| match outcome {
            Outcome::Win(color) => color.name(),
            Outcome::Draw => "draw",
        })
    }

    /// The board as a new list of rows, each a list of ``"B"``, ``"W"`` and ``"."``.
    #[getter]
    fn board(&self) -> Vec<Vec<&'static str>> {
        let board = self.game.board();
        let dims = board.dims();
        (0..dims.rows())
            .map(|row| {
                (0..dims.cols())
                    .map(
                        |col| match board.get(Square::new(row, col)).expect("on the board") {
                            Some(Color::Black) => "B",
                            Some(Color::White) => "W",
                            None => ".",
                        },
                    )
                    .collect()
            })
            .collect()
    }

    /// The board as an immutable, hashable tuple of row tuples of ``"B"``, ``"W"``, ``"."``.
    #[getter]
    fn snapshot<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let rows = self
            .board()
            .into_iter()
            .map(|row| PyTuple::new(py, row))
            .collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, rows)
    }

    /// The discs as two whole numbers ``(black, white)``, bit ``row * cols + col`` set for
    /// each disc.
    fn bitboards(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, Py<PyAny>)> {
        let board = self.game.board();
        Ok((
            bits_to_int(py, board.discs(Color::Black))?,
            bits_to_int(py, board.discs(Color::White))?,
        ))
    }

    /// The squares played so far, in order, as ``"d3"`` strings (passes are not listed).
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let squares: Vec<Square> = self.history.iter().map(|played| played.square).collect();
        names::name_list(py, &squares)
    }

    /// The last square played, or ``None`` before the first move.
    #[getter]
    fn last_move(&self, py: Python<'_>) -> Option<Py<PyString>> {
        self.last_square().map(|square| names::name(py, square))
    }

    /// The legal moves of the player to move as ``"d3"`` strings, row by row; empty once the
    /// game is over.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        names::name_list(py, &self.lister.legal_moves(&self.game))
    }

    /// The legal moves of the player to move as 0-based ``(row, col)`` tuples, row by row.
    fn legal_coords<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        names::coord_list(py, &self.lister.legal_moves(&self.game))
    }

    /// The squares where ``color`` (``"black"`` or ``"white"``) could play now, whether or not
    /// it is their turn, as ``"d3"`` strings.
    fn moves_of<'py>(&self, py: Python<'py>, color: &str) -> PyResult<Bound<'py, PyList>> {
        names::name_list(py, &self.moves_for(color)?)
    }

    /// The squares where ``color`` could play now as 0-based ``(row, col)`` tuples.
    fn coords_of<'py>(&self, py: Python<'py>, color: &str) -> PyResult<Bound<'py, PyList>> {
        names::coord_list(py, &self.moves_for(color)?)
    }

    /// Whether the player to move may play ``move`` (a ``"d3"`` string or ``(row, col)``).
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.game.is_legal(self.square_of(r#move)?))
    }

    /// The discs a move would flip, as ``"d3"`` strings. Raises `IllegalMoveError` for a
    /// move that cannot be played.
    fn flips<'py>(&self, r#move: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
        let square = self.square_of(r#move)?;
        let flipped = self.game.flips(square).map_err(errors::moving)?;
        names::name_list(r#move.py(), &flipped)
    }

    /// Plays ``move`` (``"d3"``, ``"3d"``, ``"3 4"`` or a 0-based ``(row, col)``) for the player
    /// to move and returns the number of discs it flipped. Raises `InvalidSquareError` for a
    /// square off the board or unreadable, `IllegalMoveError` for an occupied square, a move
    /// that flips nothing, or any move once the game is over; the game is then unchanged.
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<u32> {
        let square = self.square_of(r#move)?;
        let played = self.play_square(square).map_err(errors::moving)?;
        Ok(played.flipped)
    }

    /// Plays a legal move chosen uniformly at random and returns it (``"d3"``): the cheap step
    /// of a random playout. ``rng`` (a ``random.Random``) makes the choice reproducible; without
    /// it a fast generator of the module's own is used. Raises `IllegalMoveError` once the game
    /// is over.
    #[pyo3(signature = (rng = None))]
    fn play_random(
        &mut self,
        py: Python<'_>,
        rng: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyString>> {
        let moves = self.lister.legal_moves(&self.game);
        if moves.is_empty() {
            return Err(IllegalMoveError::new_err("the game is over"));
        }
        let pick = match rng {
            Some(rng) => {
                let value = rng.call_method1("randrange", (moves.len(),))?;
                value
                    .extract::<i64>()
                    .ok()
                    .and_then(|pick| usize::try_from(pick).ok())
                    .filter(|&pick| pick < moves.len())
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "rng.randrange({}) returned {}, not a whole number from 0 to {}",
                            moves.len(),
                            value
                                .repr()
                                .map_or_else(|_| "?".to_owned(), |r| r.to_string()),
                            moves.len() - 1
                        ))
                    })?
            }
            None => crate::random::below(moves.len()),
        };
        let square = moves[pick];
        self.play_square(square).map_err(errors::moving)?;
        Ok(names::name(py, square))
    }

    /// The legal moves of the player to move as one whole number, bit ``row * cols + col`` set
    /// for each (0 once the game is over).
    fn legal_mask(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let mut bits = othello::bitboard::U256::ZERO;
        let cols = self.dims().cols();
        for square in self.lister.legal_moves(&self.game) {
            bits |= othello::bitboard::U256::single((square.row() * cols + square.col()) as u32);
        }
        bits_to_int(py, bits)
    }

    /// Names the pass of a player left without a legal move by the last move.
    ///
    /// The game passes by itself (`turn` is already the other player), so this changes
    /// nothing; it lets code that replays passes explicitly, as records do, run unchanged.
    /// Raises `IllegalMoveError` when the player to move has a legal move (or the game is
    /// over).
    fn pass_(&mut self) -> PyResult<()> {
        if self.pass_pending {
            self.pass_pending = false;
            return Ok(());
        }
        Err(match self.game.turn() {
            Some(player) => {
                IllegalMoveError::new_err(format!("{player} has a legal move and cannot pass"))
            }
            None => IllegalMoveError::new_err("the game is over"),
        })
    }

    /// Takes back the last move and returns its square (``"d3"``). Raises `IndexError` when
    /// no move has been played.
    fn undo(&mut self, py: Python<'_>) -> PyResult<Py<PyString>> {
        let played = self
            .history
            .pop()
            .ok_or_else(|| PyIndexError::new_err("no move to take back"))?;
        let mut game = self.start.clone();
        for earlier in &self.history {
            game.play(earlier.square)
                .expect("the moves of a game were legal");
        }
        self.game = game;
        self.pass_pending = false;
        Ok(names::name(py, played.square))
    }

    /// An independent copy of the game, history included.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    /// `copy.copy(game)`: an independent copy, as `copy()`.
    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    /// `copy.deepcopy(game)`: an independent copy, as `copy()`.
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    /// Two games are equal when their positions, players to move and rules are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyGame>>()
            .is_ok_and(|other| other.game == self.game)
    }

    /// The game as a record in the Generic Game Format (square boards only).
    fn to_ggf(&self) -> PyResult<String> {
        self.write(Format::Ggf)
    }

    /// The squares played as one line, ``f5d6c3...`` (standard start only).
    fn to_movelist(&self) -> PyResult<String> {
        self.write(Format::MoveList)
    }

    /// The game as a console-protocol input: header, grid and one ``ROW COL`` line per move.
    fn to_protocol(&self) -> PyResult<String> {
        self.write(Format::Protocol)
    }

    /// The current position as an OBF line (8x8 only), as Edax and the FFO suite write them.
    fn to_obf(&self) -> PyResult<String> {
        let record = GameRecord::from_position(&self.game, Metadata::default());
        let bytes = record::write(&[record], Format::Obf).map_err(errors::record)?;
        Ok(String::from_utf8(bytes).expect("OBF is text"))
    }

    /// The board with coordinates (legal moves as ``*``) and who is to move.
    fn __str__(&self) -> String {
        self.labelled()
    }

    /// One line: ``<othello.Game 8x8 full, most discs win, 5 moves, white to move, 4-3>``
    /// (``str(game)`` draws the board).
    fn __repr__(&self) -> String {
        let score = self.game.score();
        let state = match (self.game.turn(), self.game.outcome()) {
            (Some(turn), _) => format!("{turn} to move"),
            (None, Some(Outcome::Win(winner))) => format!("game over, {winner} wins"),
            (None, _) => "game over, a draw".to_owned(),
        };
        format!(
            "<othello.Game {} {}, {} discs win, {} move{}, {state}, {}-{}>",
            self.dims(),
            self.rules(),
            self.win(),
            self.history.len(),
            if self.history.len() == 1 { "" } else { "s" },
            score.black,
            score.white
        )
    }

    /// The board as an SVG picture, for notebooks: green board, discs, the legal moves as
    /// small dots, the last move marked in red.
    fn _repr_svg_(&self) -> String {
        crate::svg::picture(&self.game, self.last_square())
    }
}

impl PyGame {
    fn moves_for(&self, color: &str) -> PyResult<Vec<Square>> {
        let mut moves = Vec::new();
        self.lister.moves_of(
            &self.game,
            color.parse().map_err(errors::setup)?,
            &mut moves,
        );
        Ok(moves)
    }
}
