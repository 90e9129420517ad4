//! The WTHOR reader on damaged headers, the comment that carries a game's numbers, and the names
//! files.

use super::{Header, comment, looks_like, parse_comment, read, read_names};
use crate::metadata::WthorInfo;

#[test]
fn checks_the_header() {
    assert_eq!(
        read(&[0; 10]).unwrap_err().to_string(),
        "byte 10: the file ends inside its 16-byte header"
    );
    let mut header = [0u8; 16];
    header[12] = 10;
    assert_eq!(
        read(&header).unwrap_err().to_string(),
        "byte 12: the board size byte is 10: only 8x8 game files (0 or 8) can be read"
    );
    header[12] = 8;
    header[8] = 3;
    assert_eq!(
        read(&header).unwrap_err().to_string(),
        "byte 8: the header counts 3 name records: this is a player or tournament file, not games"
    );
    header[8] = 0;
    assert_eq!(read(&header).unwrap(), vec![]);
    assert!(looks_like(&header));
}

#[test]
fn the_comment_carries_every_number_back() {
    let info = WthorInfo {
        tournament: 12,
        black_player: 345,
        white_player: 678,
        black_discs: 36,
        theoretical_black_discs: 40,
        header: Header {
            created: [20, 20, 4, 27],
            games_year: 2020,
            board_size: 8,
            solitaire: 0,
            depth: 24,
            reserved: 0,
        },
    };
    let text = comment(&info);
    assert_eq!(
        text,
        "WTHOR tournament:12 black:345 white:678 score:36 theoretical:40 depth:24 year:2020 \
         created:20.20.4.27 size:8 solitaire:0 reserved:0"
    );
    assert_eq!(parse_comment(&text), Some(info));
    assert_eq!(parse_comment("WTHOR is a database"), None);
    assert_eq!(parse_comment("a comment"), None);
}

#[test]
fn reads_names_by_number() {
    let mut file = vec![0u8; 16];
    file[8] = 2;
    file.extend_from_slice(b"???\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0");
    let mut name = b"Tastet Marc".to_vec();
    name.resize(20, 0);
    file.extend_from_slice(&name);
    assert_eq!(read_names(&file).unwrap(), ["???", "Tastet Marc"]);
    file.pop();
    assert_eq!(
        read_names(&file).unwrap_err().to_string(),
        "byte 8: the header counts 2 names, which do not divide the rest of the file"
    );
}
