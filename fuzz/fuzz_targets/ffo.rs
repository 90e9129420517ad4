//! FFO position lines: never panics, and a position read has 64 cells and a playable game.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello_records::ffo::parse_line;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Some(Ok(position)) = parse_line(&text) {
        let game = position.game();
        assert_eq!(game.board().dims().cells(), 64);
        for square in game.legal_moves() {
            let mut next = game.clone();
            next.play(square).expect("a legal move plays");
        }
    }
});
