//! A small, obviously-correct model of the rules, written cell by cell from the protocol text
//! with no bit tricks, to check the library against.

#![allow(dead_code)]

use othello::{Board, Color, RuleSet, Square, WinRule};

/// The 8 directions as (row step, column step).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// A position as a plain grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<Vec<Option<Color>>>,
}

impl Model {
    pub fn from_board(board: &Board) -> Model {
        let (rows, cols) = (board.dims().rows(), board.dims().cols());
        let cells = (0..rows)
            .map(|r| {
                (0..cols)
                    .map(|c| board.get(Square::new(r, c)).unwrap())
                    .collect()
            })
            .collect();
        Model { rows, cols, cells }
    }

    #[expect(
        clippy::option_option,
        reason = "off the board, or a cell empty or not"
    )]
    pub fn get(&self, r: i32, c: i32) -> Option<Option<Color>> {
        if r < 0 || c < 0 || r >= self.rows as i32 || c >= self.cols as i32 {
            None
        } else {
            Some(self.cells[r as usize][c as usize])
        }
    }

    /// The discs a move by `me` at (r, c) flips, sorted; empty if illegal.
    pub fn flips(&self, rules: RuleSet, me: Color, r: usize, c: usize) -> Vec<(usize, usize)> {
        if self.cells[r][c].is_some() {
            return Vec::new();
        }
        let opp = me.opponent();
        let mut flipped = Vec::new();
        for (dr, dc) in DIRECTIONS {
            match rules {
                RuleSet::Simple => {
                    let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                    if self.get(nr, nc) == Some(Some(opp)) {
                        flipped.push((nr as usize, nc as usize));
                    }
                }
                RuleSet::Full => {
                    let mut run = Vec::new();
                    let (mut nr, mut nc) = (r as i32 + dr, c as i32 + dc);
                    while self.get(nr, nc) == Some(Some(opp)) {
                        run.push((nr as usize, nc as usize));
                        nr += dr;
                        nc += dc;
                    }
                    if !run.is_empty() && self.get(nr, nc) == Some(Some(me)) {
                        flipped.extend(run);
                    }
                }
            }
        }
        flipped.sort_unstable();
        flipped
    }

    /// Every legal move of `me`, row by row.
    pub fn moves(&self, rules: RuleSet, me: Color) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if !self.flips(rules, me, r, c).is_empty() {
                    moves.push((r, c));
                }
            }
        }
        moves
    }

    /// Plays a legal move.
    pub fn play(&mut self, rules: RuleSet, me: Color, r: usize, c: usize) {
        let flipped = self.flips(rules, me, r, c);
        assert!(!flipped.is_empty(), "illegal move in the model");
        for (fr, fc) in flipped {
            self.cells[fr][fc] = Some(me);
        }
        self.cells[r][c] = Some(me);
    }

    pub fn count(&self, color: Color) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&cell| cell == Some(color))
            .count()
    }

    /// Who moves after `mover` moved (or at the start, with `mover` = the first player's
    /// opponent): the opponent if possible, else `mover`, else nobody.
    pub fn next_turn(&self, rules: RuleSet, mover: Color) -> Option<Color> {
        [mover.opponent(), mover]
            .into_iter()
            .find(|&p| !self.moves(rules, p).is_empty())
    }

    /// The protocol's winner word for a finished game.
    pub fn winner(&self, win: WinRule) -> &'static str {
        let (b, w) = (self.count(Color::Black), self.count(Color::White));
        match (b.cmp(&w), win) {
            (std::cmp::Ordering::Equal, _) => "NONE",
            (std::cmp::Ordering::Greater, WinRule::MostDiscs)
            | (std::cmp::Ordering::Less, WinRule::FewestDiscs) => "B",
            _ => "W",
        }
    }

    /// Perft under the convention of `shared/data/perft.md`: a pass is a ply, a finished game
    /// is a leaf where it ends.
    pub fn perft(&self, rules: RuleSet, to_move: Color, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(rules, to_move);
        if moves.is_empty() {
            if self.moves(rules, to_move.opponent()).is_empty() {
                return 1;
            }
            return self.perft(rules, to_move.opponent(), depth - 1);
        }
        moves
            .into_iter()
            .map(|(r, c)| {
                let mut child = self.clone();
                child.play(rules, to_move, r, c);
                child.perft(rules, to_move.opponent(), depth - 1)
            })
            .sum()
    }
}
