//! The results file: one line per finished game, only ever appended to.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use othello::{ByColor, Color, Game, Outcome};

use othello_session::Player;

/// The results file used by `--log` without a file name.
pub const DEFAULT_FILE: &str = "othello-results.txt";

/// An open results file.
#[derive(Debug)]
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens `path` for appending, creating it if needed; existing lines are kept.
    pub fn open(path: &Path) -> io::Result<ResultsFile> {
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        Ok(ResultsFile {
            path: path.to_owned(),
            file,
        })
    }

    /// Whether the file is non-empty and its last byte is not a line break (someone else wrote
    /// an unfinished line), so that the next record must start on a new line.
    fn ends_mid_line(&mut self) -> io::Result<bool> {
        let length = self.file.seek(SeekFrom::End(0))?;
        if length == 0 {
            return Ok(false);
        }
        self.file.seek(SeekFrom::End(-1))?;
        let mut last = [0];
        self.file.read_exact(&mut last)?;
        Ok(last[0] != b'\n')
    }

    /// Where the results go.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` and a line break in one write (after a line break first if the file ends
    /// in an unfinished line).
    pub fn append(&mut self, line: &str) -> io::Result<()> {
        let mut record = String::with_capacity(line.len() + 2);
        if self.ends_mid_line()? {
            record.push('\n');
        }
        record.push_str(line);
        record.push('\n');
        self.file.write_all(record.as_bytes())?;
        self.file.flush()
    }
}

/// The line for a finished game, e.g.
/// `2025-06-01 14:03:22 +02:00 | 8x8 FULL, most discs wins | Alice (black) 35 - 29 Computer (white) | winner: Alice (black)`.
pub fn line(timestamp: &str, game: &Game, players: &ByColor<Player>) -> String {
    let score = game.score();
    let dims = game.board().dims();
    let winner = match game.outcome() {
        Some(Outcome::Win(color)) => format!("winner: {}", named(&players[color])),
        Some(Outcome::Draw) | None => "draw".to_owned(),
    };
    format!(
        "{timestamp} | {dims} {rules}, {win} discs wins | {black} {b} - {w} {white} | {winner}",
        rules = game.rules(),
        win = game.win_rule(),
        black = named(&players[Color::Black]),
        white = named(&players[Color::White]),
        b = score.black,
        w = score.white,
    )
}

/// `Alice (black)`; in the name, `|` (the field separator) and `\` are escaped with a `\`,
/// and control characters as `\n`, `\u{7f}`..., so that every record is one line of four
/// fields.
fn named(player: &Player) -> String {
    let mut name = String::with_capacity(player.name.len());
    for c in player.name.chars() {
        match c {
            '|' | '\\' => {
                name.push('\\');
                name.push(c);
            }
            c if c.is_control() => name.extend(c.escape_default()),
            c => name.push(c),
        }
    }
    format!("{name} ({})", player.color.name())
}

/// The current local date and time with its offset from UTC, e.g. `2025-06-01 14:03:22 +02:00`.
pub fn now() -> String {
    jiff::Zoned::now()
        .strftime("%Y-%m-%d %H:%M:%S %:z")
        .to_string()
}

#[cfg(test)]
mod tests {
    use othello::{Dimensions, RuleSet, Setup, WinRule};
    use othello_engine::computer::Level;

    use super::*;
    use othello_session::Controller;

    #[test]
    fn a_line_names_everything() {
        let setup = Setup {
            win: WinRule::FewestDiscs,
            ..Setup::standard(Dimensions::new(4, 4).unwrap())
        };
        let mut game = Game::new(setup, RuleSet::Full);
        while let Some(&square) = game.legal_moves().first() {
            game.play(square).unwrap();
        }
        let players = ByColor::new_with(|color| Player {
            name: format!("P{}", color.letter()),
            color,
            controller: Controller::Computer(Level::DEFAULT),
        });
        let score = game.score();
        let line = line("2025-06-01 14:03:22 +02:00", &game, &players);
        assert!(line.starts_with(&format!(
            "2025-06-01 14:03:22 +02:00 | 4x4 FULL, fewest discs wins | PB (black) {} - {} PW (white) | ",
            score.black, score.white
        )), "{line}");
        assert!(
            line.ends_with("draw") || line.contains("winner: P"),
            "{line}"
        );
    }

    #[test]
    fn the_clock_reads_as_a_local_time_with_its_offset() {
        let now = now();
        assert_eq!(now.len(), "2025-06-01 14:03:22 +02:00".len(), "{now}");
        assert!(
            now.as_bytes()[20] == b'+' || now.as_bytes()[20] == b'-',
            "{now}"
        );
    }
}
