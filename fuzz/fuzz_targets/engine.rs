//! The engine on random positions of every size and both rule sets: a shallow search with a
//! node limit returns a legal move that starts its principal variation, and with at most 7
//! empties the exact score equals a brute-force solve.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::{Board, Color, Dimensions, Game, RuleSet, Setup, WinRule};
use othello_engine::{Engine, EngineConfig, Limits};

/// The final margin for the player to move with perfect play, by trying every line.
fn brute_force(game: &Game) -> i32 {
    let Some(mover) = game.turn() else {
        return game.margin(Color::Black);
    };
    let mut best = i32::MIN;
    for square in game.legal_moves() {
        let mut next = game.clone();
        next.play(square).expect("a legal move plays");
        let value = brute_force(&next);
        // `value` is black's margin; the mover wants the most of its own.
        let own = if mover == Color::Black { value } else { -value };
        best = best.max(own);
    }
    if mover == Color::Black { best } else { -best }
}

/// A small xorshift generator, so that every input, however short, draws a whole board.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let rows = 4 + 2 * (data[0] as usize % 7);
    let cols = 4 + 2 * (data[1] as usize % 7);
    let flags = data[2];
    // The share of empty cells, from none to all.
    let empty_share = u64::from(data[3]);
    let mut seed = [0u8; 8];
    for (byte, value) in seed.iter_mut().zip(&data[4..]) {
        *byte = *value;
    }
    let mut draw = Draw(u64::from_le_bytes(seed) | 1);
    let dims = Dimensions::new(rows, cols).expect("an even size from 4 to 16");
    let mut board = Board::empty(dims);
    for square in dims.squares() {
        let value = draw.next();
        let disc = if value % 256 < empty_share {
            None
        } else if (value >> 8) & 1 == 0 {
            Some(Color::Black)
        } else {
            Some(Color::White)
        };
        board.set(square, disc).expect("on the board");
    }
    let setup = Setup {
        board,
        first: if flags & 1 == 0 {
            Color::Black
        } else {
            Color::White
        },
        win: if flags & 2 == 0 {
            WinRule::MostDiscs
        } else {
            WinRule::FewestDiscs
        },
    };
    let rules = if flags & 4 == 0 {
        RuleSet::Full
    } else {
        RuleSet::Simple
    };
    let game = Game::new(setup, rules);
    let Some(mover) = game.turn() else {
        return;
    };
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    let limits = Limits {
        depth: Some(1 + u32::from(flags >> 5)),
        nodes: Some(5_000),
        ..Limits::default()
    };
    let report = engine
        .search(&game, &limits)
        .expect("a game with a move searches");
    assert!(game.is_legal(report.best_move), "{report:?}");
    assert_eq!(report.pv.first(), Some(&report.best_move), "{report:?}");

    if game.board().empties() <= 7 {
        let exact = engine.search(&game, &Limits::exact()).expect("searches");
        assert!(exact.exact);
        let black = brute_force(&game);
        let expected = if mover == Color::Black { black } else { -black };
        assert_eq!(exact.score, expected, "{exact:?}");
    }
});
