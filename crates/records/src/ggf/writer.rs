//! Writing GGF games, one per line ([`game`]).

use othello::Color;
use othello::RuleSet;
use othello::{Square, WinRule};

use super::board_type::BoardType;
use crate::error::{WriteError, cannot_hold};
use crate::format::Format;
use crate::record::{GameRecord, RecordMove};
use crate::wthor;

/// Appends game `index` and a line ending to `out`.
pub(super) fn write_game(
    index: usize,
    record: &GameRecord,
    out: &mut Vec<u8>,
) -> Result<(), WriteError> {
    let dims = record.dims();
    if dims.rows() != dims.cols() {
        return Err(cannot_hold(
            index,
            Format::Ggf,
            format!("{} board: its boards are square", dims.with_article()),
        ));
    }
    out.extend_from_slice(game(record).as_bytes());
    out.push(b'\n');
    Ok(())
}

/// One game on one line, without a line ending (the board must be square).
#[must_use]
pub fn game(record: &GameRecord) -> String {
    let setup = record.setup();
    let side = record.dims().rows();
    let meta = record.metadata();
    let mut text = String::from("(;GM[Othello]");
    for (name, value) in [
        ("PC", &meta.event),
        ("DT", &meta.date),
        ("PB", &meta.black),
        ("PW", &meta.white),
        ("RE", &meta.result),
    ] {
        if let Some(value) = value {
            text.push_str(&format!("{name}[{}]", escape(value)));
        }
    }
    // The type as read where it agrees with the game (its size and win rule), in its place.
    let anti = setup.win == WinRule::FewestDiscs;
    let board_type = format!("{side}{}", if anti { "a" } else { "" });
    let mut typed = false;
    for (name, value) in &meta.properties {
        if name == "TY" {
            let agrees =
                BoardType::parse(value).is_ok_and(|read| read.side == side && read.anti == anti);
            let value = if agrees { value } else { &board_type };
            text.push_str(&format!("TY[{}]", escape(value)));
            typed = true;
        } else {
            text.push_str(&format!("{name}[{}]", escape(value)));
        }
    }
    if let Some(info) = &meta.wthor {
        text.push_str(&format!("C[{}]", escape(&wthor::comment(info))));
    }
    if !typed {
        text.push_str(&format!("TY[{board_type}]"));
    }
    if record.rules() == RuleSet::Simple {
        text.push_str("RU[SIMPLE]");
    }
    text.push_str(&format!("BO[{side}"));
    for row in 0..side {
        text.push(' ');
        for col in 0..side {
            text.push(cell(setup.board.at(Square::new(row, col))));
        }
    }
    text.push(' ');
    text.push(cell(Some(setup.first)));
    text.push(']');
    let mut color = setup.first;
    for record_move in record.moves() {
        let name = match color {
            Color::Black => 'B',
            Color::White => 'W',
        };
        match record_move {
            RecordMove::Play(square) => text.push_str(&format!("{name}[{square}]")),
            RecordMove::Pass => text.push_str(&format!("{name}[PA]")),
        }
        color = color.opponent();
    }
    text.push_str(";)");
    text
}

fn cell(disc: Option<Color>) -> char {
    match disc {
        None => '-',
        Some(Color::Black) => '*',
        Some(Color::White) => 'O',
    }
}

fn escape(value: &str) -> String {
    value
        .chars()
        .flat_map(|c| match c {
            ']' | '\\' => vec!['\\', c],
            c if c.is_control() => vec![' '],
            c => vec![c],
        })
        .collect()
}
