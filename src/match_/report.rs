//! What `othello match` prints and saves as games finish: each game's result, the running
//! score, the totals (points, Elo, margins, forfeits, CPU time) and the games as GGF.

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use othello::Color;
use othello::text::counted;
use othello_engine::arena::openings::standard_start;
use othello_engine::arena::{Fault, Finished, MatchScore};
use othello_records::{GameRecord, Metadata, ggf};

use super::{MatchError, SAVING, SO_FAR};
use othello_io::atomic::write_atomic;

/// The running score, the totals, and the games to save.
pub(super) struct Report {
    names: [String; 2],
    save: Option<PathBuf>,
    tally: MatchScore,
    cpu: [Duration; 2],
    /// The games so far by number, as GGF lines.
    saved: BTreeMap<u64, String>,
    out: io::Stdout,
}

impl Report {
    pub(super) fn new(names: [String; 2], save: Option<PathBuf>) -> Report {
        Report {
            names,
            save,
            tally: MatchScore::default(),
            cpu: [Duration::ZERO; 2],
            saved: BTreeMap::new(),
            out: io::stdout(),
        }
    }

    fn say(&mut self, line: std::fmt::Arguments) -> Result<(), MatchError> {
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(MatchError::Write)
    }

    /// Counts, saves and prints a finished game.
    pub(super) fn game(
        &mut self,
        index: u64,
        finished: &Finished,
        cpu: [Duration; 2],
    ) -> Result<(), MatchError> {
        self.tally.add(finished);
        self.cpu[0] += cpu[0];
        self.cpu[1] += cpu[1];
        let [a, b] = &self.names;
        let (black, white) = if finished.a_color == Color::Black {
            (a, b)
        } else {
            (b, a)
        };
        let (result, why) = describe(finished);
        if let Some(path) = self.save.clone() {
            self.saved
                .insert(index, ggf::game(&record_of(finished, black, white)));
            let mut text = String::new();
            for line in self.saved.values() {
                text.push_str(line);
                text.push('\n');
            }
            let saving = SAVING
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            write_atomic(&path, text.as_bytes())
                .map_err(|source| MatchError::Save { path, source })?;
            drop(saving);
        }
        let (black, white) = (black.clone(), white.clone());
        *SO_FAR
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = self.summary_text();
        self.say(format_args!(
            "Finished game {} ({black} vs {white}): {result} {{{why}}}",
            index + 1
        ))?;
        self.score_line()
    }

    /// `Score of A vs B: W - L - D  [points] games`.
    fn score_line(&mut self) -> Result<(), MatchError> {
        let tally = self.tally;
        let [a, b] = self.names.clone();
        self.say(format_args!(
            "Score of {a} vs {b}: {} - {} - {}  [{:.3}] {}",
            tally.wins,
            tally.losses,
            tally.draws,
            tally.points(),
            tally.games()
        ))
    }

    /// The totals at the end.
    pub(super) fn summary(&mut self) -> Result<(), MatchError> {
        let text = self.summary_text();
        write!(self.out, "{text}")
            .and_then(|()| self.out.flush())
            .map_err(MatchError::Write)
    }

    /// The totals of the games so far, as lines.
    fn summary_text(&self) -> String {
        let tally = self.tally;
        let elo = tally.elo();
        let [a, b] = &self.names;
        let games = tally.games();
        let mut text = format!(
            "{a} against {b}: {} won, {} drawn, {} lost of {}: {:.1}% of the points\n",
            tally.wins,
            tally.draws,
            tally.losses,
            counted(games, "game", "games"),
            100.0 * tally.points()
        );
        text.push_str(&format!(
            "Elo difference: {} +/- {} (95%)\n",
            signed_figure(elo.difference),
            figure(elo.margin)
        ));
        if tally.played_out > 0 {
            text.push_str(&format!(
                "Mean margin: {:+.2} discs over the {} played out\n",
                tally.mean_margin(),
                counted(tally.played_out, "game", "games")
            ));
        }
        if tally.a_forfeits + tally.b_forfeits > 0 {
            text.push_str(&format!(
                "Forfeits: {a} {}, {b} {}\n",
                tally.a_forfeits, tally.b_forfeits
            ));
        }
        let per_game = |cpu: Duration| cpu.as_secs_f64() / f64::from(games.max(1));
        let [cpu_a, cpu_b] = self.cpu;
        text.push_str(&format!(
            "CPU time: {a} {:.1} s ({:.2} s a game), {b} {:.1} s ({:.2} s a game)\n",
            cpu_a.as_secs_f64(),
            per_game(cpu_a),
            cpu_b.as_secs_f64(),
            per_game(cpu_b)
        ));
        text
    }
}

/// The result of a game (`40-24`, or `1-0` for a forfeit) and why (`black wins by 16`,
/// `white forfeits: illegal move a1`).
fn describe(finished: &Finished) -> (String, String) {
    if let Some(forfeit) = &finished.forfeit {
        let result = if forfeit.color == Color::Black {
            "0-1"
        } else {
            "1-0"
        };
        return (
            result.to_owned(),
            format!("{} forfeits: {}", forfeit.color, forfeit.fault),
        );
    }
    let score = finished.end.score();
    let margin = finished.end.margin(Color::Black);
    let why = match finished.winner() {
        None => "draw".to_owned(),
        Some(color) => format!("{color} wins by {}", margin.abs()),
    };
    (format!("{}-{}", score.black, score.white), why)
}

/// A number of Elo to one decimal, `inf` when a side took every point, `-` before any game.
fn figure(value: f64) -> String {
    if value.is_nan() {
        "-".to_owned()
    } else if value.is_infinite() {
        "inf".to_owned()
    } else {
        format!("{value:.1}")
    }
}

/// [`figure`] with its sign.
fn signed_figure(value: f64) -> String {
    if value.is_nan() {
        figure(value)
    } else if value.is_infinite() {
        format!("{}inf", if value > 0.0 { '+' } else { '-' })
    } else {
        format!("{value:+.1}")
    }
}

/// The record of a finished game: players, the result from Black's point of view (`:r` for
/// a forfeit, `:t` for a time-out, as GGF writes them) and a comment saying why a game was
/// forfeited.
fn record_of(finished: &Finished, black: &str, white: &str) -> GameRecord {
    let mut metadata = Metadata {
        black: Some(black.to_owned()),
        white: Some(white.to_owned()),
        event: Some("othello match".to_owned()),
        ..Metadata::default()
    };
    metadata.result = Some(match &finished.forfeit {
        None => format!("{:+}.000", finished.end.margin(Color::Black)),
        Some(forfeit) => {
            let sign = if forfeit.color == Color::Black {
                '-'
            } else {
                '+'
            };
            let how = if matches!(forfeit.fault, Fault::Timeout(_) | Fault::OutOfTime { .. }) {
                't'
            } else {
                'r'
            };
            metadata.properties.push((
                "C".to_owned(),
                format!("{} forfeits: {}", forfeit.color, forfeit.fault),
            ));
            format!("{sign}64.000:{how}")
        }
    });
    GameRecord::from_squares(&standard_start(), finished.moves.iter().copied(), metadata)
        .expect("the moves were played")
}
