//! What people type in `othello play`: squares and command words on every board size. Never
//! panics; a square it reads is on the board and reads back from its own name.
#![no_main]

use libfuzzer_sys::fuzz_target;
use othello::Dimensions;
use othello::notation::parse_square;
use othello_session::Command;

fuzz_target!(|data: &[u8]| {
    let Some((&size, text)) = data.split_first() else {
        return;
    };
    let rows = 4 + 2 * ((size & 0xf) as usize % 7);
    let cols = 4 + 2 * ((size >> 4) as usize % 7);
    let dims = Dimensions::new(rows, cols).expect("an even size from 4 to 16");
    let text = String::from_utf8_lossy(text);
    if let Ok(square) = parse_square(&text, dims) {
        assert!(square.row() < dims.rows() && square.col() < dims.cols());
        assert_eq!(parse_square(&square.to_string(), dims), Ok(square));
    }
    if let Ok(Command::Play(square)) = Command::parse(&text, dims) {
        assert!(square.row() < dims.rows() && square.col() < dims.cols());
    }
});
