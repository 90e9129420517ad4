//! The results file: one line per finished game, only ever appended to.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use othello::{ByColor, Color, Game, Outcome};

use super::players::Player;

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
        let file = OpenOptions::new().append(true).create(true).open(path)?;
        Ok(ResultsFile {
            path: path.to_owned(),
            file,
        })
    }

    /// Where the results go.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends `line` and a line break in one write.
    pub fn append(&mut self, line: &str) -> io::Result<()> {
        let mut record = String::with_capacity(line.len() + 1);
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

/// `Alice (black)`.
fn named(player: &Player) -> String {
    format!("{} ({})", player.name, player.color.name())
}

/// The current local date and time with its offset from UTC, e.g. `2025-06-01 14:03:22 +02:00`.
pub fn now() -> String {
    jiff::Zoned::now()
        .strftime("%Y-%m-%d %H:%M:%S %:z")
        .to_string()
}

#[cfg(test)]
mod tests {
    use othello::computer::Level;
    use othello::{Dimensions, RuleSet, Setup, WinRule};

    use super::super::players::Controller;
    use super::*;

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
