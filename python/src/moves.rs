//! The legal moves of a position listed cheaply: the library's move generator
//! ([`RuleSet::legal_moves`]) at the narrowest bit width the board fits, its members read with
//! word operations and a table from bit index to square.
//!
//! [`Game::legal_moves`] answers the same, generically at 256 bits; the lists it makes were a
//! quarter of a random playout's time from Python, and this is the one loop Python runs most.

use othello::bitboard::{Bits, Geometry, U256};
use othello::{Color, Dimensions, Game, Square};
use std::sync::{Arc, Mutex, OnceLock};

/// The listers made so far, one a board size.
type Listers = Vec<(Dimensions, Arc<MoveLister>)>;

/// The masks of one board at the narrowest width it fits, and the square of each bit.
#[derive(Clone, Debug)]
pub(crate) struct MoveLister {
    width: Width,
    squares: Vec<Square>,
}

#[derive(Clone, Debug)]
enum Width {
    Narrow(Geometry<u64>),
    Middle(Geometry<u128>),
    Wide(Geometry<U256>),
}

impl MoveLister {
    /// The lister for boards of `dims`.
    pub(crate) fn new(dims: Dimensions) -> MoveLister {
        let width = match dims.cells() {
            0..=64 => Width::Narrow(Geometry::<u64>::new(dims).expect("fits 64 bits")),
            65..=128 => Width::Middle(Geometry::<u128>::new(dims).expect("fits 128 bits")),
            _ => Width::Wide(Geometry::<U256>::new(dims).expect("every board fits 256 bits")),
        };
        MoveLister {
            width,
            squares: dims.squares().collect(),
        }
    }

    /// The one lister of boards of `dims`, made on first use and shared by every game of that
    /// size (a game read from a record of thousands then costs no table of its own).
    pub(crate) fn shared(dims: Dimensions) -> Arc<MoveLister> {
        static LISTERS: OnceLock<Mutex<Listers>> = OnceLock::new();
        let mut listers = LISTERS
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, lister)) = listers.iter().find(|(size, _)| *size == dims) {
            return Arc::clone(lister);
        }
        let lister = Arc::new(MoveLister::new(dims));
        listers.push((dims, Arc::clone(&lister)));
        lister
    }

    /// The squares where `player` may play in `game` (whether or not it is their turn), row by
    /// row, appended to `out`.
    pub(crate) fn moves_of(&self, game: &Game, player: Color, out: &mut Vec<Square>) {
        let board = game.board();
        let (me, opp) = (board.discs(player), board.discs(player.opponent()));
        let rules = game.rules();
        let mut words = [0u64; 4];
        match &self.width {
            Width::Narrow(geo) => {
                words[0] = rules.legal_moves(geo, me.low_u64(), opp.low_u64());
            }
            Width::Middle(geo) => {
                let wide =
                    |set: U256| u128::from(set.low_u64()) | u128::from((set >> 64).low_u64()) << 64;
                let set = rules.legal_moves(geo, wide(me), wide(opp));
                words[0] = set as u64;
                words[1] = (set >> 64) as u64;
            }
            Width::Wide(geo) => {
                let set = rules.legal_moves(geo, me, opp);
                for (index, word) in words.iter_mut().enumerate() {
                    *word = (set >> (64 * index as u32)).low_u64();
                }
            }
        }
        for (index, &word) in words.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                out.push(self.squares[64 * index + bit]);
            }
        }
    }

    /// The legal moves of the player to move in `game`; none once it is over.
    pub(crate) fn legal_moves(&self, game: &Game) -> Vec<Square> {
        let mut moves = Vec::with_capacity(32);
        if let Some(player) = game.turn() {
            self.moves_of(game, player, &mut moves);
        }
        moves
    }
}
