//! The GGF comment that carries a game's WTHOR numbers and its file's header ([`comment`],
//! [`parse_comment`]).

use crate::metadata::WthorInfo;

/// The GGF comment that carries a game's WTHOR numbers and its file's header:
/// `WTHOR tournament:12 black:345 white:678 score:36 theoretical:40 depth:24 year:2020
/// created:20.20.4.27 size:8 solitaire:0 reserved:0` (scores in black's discs).
#[must_use]
pub fn comment(info: &WthorInfo) -> String {
    let header = &info.header;
    let [a, b, c, d] = header.created;
    format!(
        "WTHOR tournament:{} black:{} white:{} score:{} theoretical:{} depth:{} year:{} created:{a}.{b}.{c}.{d} size:{} solitaire:{} reserved:{}",
        info.tournament,
        info.black_player,
        info.white_player,
        info.black_discs,
        info.theoretical_black_discs,
        header.depth,
        header.games_year,
        header.board_size,
        header.solitaire,
        header.reserved,
    )
}

/// Reads a comment written by [`comment`]; `None` for any other text.
#[must_use]
pub fn parse_comment(text: &str) -> Option<WthorInfo> {
    let mut words = text.split_whitespace();
    if words.next()? != "WTHOR" {
        return None;
    }
    let mut info = WthorInfo::default();
    let mut seen = 0;
    for word in words {
        let (key, value) = word.split_once(':')?;
        let number = || value.parse::<u16>().ok();
        let byte = || value.parse::<u8>().ok();
        match key {
            "tournament" => info.tournament = number()?,
            "black" => info.black_player = number()?,
            "white" => info.white_player = number()?,
            "score" => info.black_discs = byte()?,
            "theoretical" => info.theoretical_black_discs = byte()?,
            "depth" => info.header.depth = byte()?,
            "year" => info.header.games_year = number()?,
            "size" => info.header.board_size = byte()?,
            "solitaire" => info.header.solitaire = byte()?,
            "reserved" => info.header.reserved = byte()?,
            "created" => {
                let parts: Vec<u8> = value
                    .split('.')
                    .map(|part| part.parse().ok())
                    .collect::<Option<_>>()?;
                info.header.created = parts.try_into().ok()?;
            }
            _ => return None,
        }
        seen += 1;
    }
    (seen == 11).then_some(info)
}
