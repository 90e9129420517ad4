//! The full-screen board of `othello play` on a terminal: click or tap a square, or move a
//! cursor with the keys.
//!
//! [`layout`] computes where things go from the terminal size alone, [`draw`] paints the
//! state in a frame, [`app`] turns events into state changes, and [`terminal`] takes the
//! terminal over and gives it back. [`run`] is the event loop tying them together: it draws,
//! waits a moment for a key, a click or a resize, hands it to the state, and runs the searches
//! the state asks for on worker threads whose answers come back through a channel.

pub mod app;
pub mod draw;
pub mod form;
pub mod layout;
pub mod terminal;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use ratatui::crossterm::event;
use ratatui::layout::Rect;

use othello::{ByColor, Game, Outcome};
use othello_engine::computer::{Computer, Level};
use othello_records::GameRecord;

use super::results::{self, ResultsFile};
use super::saved;
use super::view::{self, label, move_sentences, squares};
use crate::PlayError;
use app::{Answer, App, Job, SearchTask, Tone};
use othello_session::{self as session, BookChoice, Player};

/// How long the loop waits for an event before it looks at the searches again (and moves
/// the thinking indicator on).
const TICK: Duration = Duration::from_millis(50);

/// The engines: one per computer player, and one for hints.
struct Engines {
    players: ByColor<Option<Arc<Mutex<Computer>>>>,
    adviser: Arc<Mutex<Computer>>,
}

impl Engines {
    fn new(players: &ByColor<Player>, seed: u64, book: &BookChoice) -> Engines {
        let mut computers = session::computers(players, seed, book);
        Engines {
            players: ByColor::new_with(|color| {
                computers[color]
                    .take()
                    .map(|computer| Arc::new(Mutex::new(computer)))
            }),
            adviser: Arc::new(Mutex::new(Computer::new(Level::HINT, seed))),
        }
    }

    fn for_job(&self, job: Job) -> Option<Arc<Mutex<Computer>>> {
        match job {
            Job::Move(color) => self.players[color].clone(),
            Job::Hint => Some(Arc::clone(&self.adviser)),
        }
    }
}

/// How the full screen plays, beside the game and its players.
pub struct Options {
    /// Colours are allowed.
    pub colour: bool,
    /// Seed of the computer players' choices.
    pub seed: u64,
    /// The pause before each move of a game between two computer players.
    pub delay: Duration,
    /// Show the new-game screen first.
    pub ask: bool,
    /// Where the game is written when it ends, and by `save` without a file.
    pub save: Option<PathBuf>,
    /// A saved game to continue, and the name of its file.
    pub loaded: Option<(GameRecord, String)>,
    /// The opening book of the computer players.
    pub book: BookChoice,
}

/// Plays on the full screen until the player quits; the terminal is given back however this
/// ends.
pub fn run(
    game: Game,
    players: ByColor<Player>,
    mut results: Option<ResultsFile>,
    options: Options,
) -> Result<(), PlayError> {
    let Options {
        colour,
        seed,
        delay,
        ask,
        save,
        loaded,
        book,
    } = options;
    let mut engines = Engines::new(&players, seed, &book);
    let signalled = super::tty::termination_flag().map_err(PlayError::Write)?;
    terminal::exit_on_hang_up();
    let mut guard = terminal::Guard::enter().map_err(PlayError::Write)?;
    let size = guard.terminal.size().map_err(PlayError::Write)?;
    let area = Rect::new(0, 0, size.width, size.height);
    let mut app = App::new(game, players, colour, delay, area, ask && loaded.is_none());
    app.set_save_file(save);
    if let Some((record, name)) = loaded {
        app.continue_from(
            session::Session::continuing(&record),
            &saved::continuing(&record, &name),
        );
    }
    let (sender, answers) = mpsc::channel();
    let mut stop = Arc::new(AtomicBool::new(false));
    let result = loop {
        if signalled.load(Ordering::Relaxed) {
            break Ok(());
        }
        if app.take_cancel() {
            stop.store(true, Ordering::Relaxed);
        }
        if let Some(players) = app.take_new_players() {
            engines = Engines::new(players, seed, &book);
        }
        if let Some(task) = app.take_search_task()
            && let Some(engine) = engines.for_job(task.job)
        {
            stop = Arc::new(AtomicBool::new(false));
            start_search(task, engine, Arc::clone(&stop), sender.clone());
        }
        if app.take_finished() {
            log_result(&mut app, results.as_mut());
        }
        if let Some(path) = app.take_save() {
            save_game(&mut app, &path);
        }
        if let Err(error) = guard.terminal.draw(|frame| draw::draw(frame, &app)) {
            break Err(PlayError::Write(error));
        }
        if app.quitting() {
            break Ok(());
        }
        match event::poll(TICK).and_then(|ready| ready.then(event::read).transpose()) {
            Ok(Some(event)) => app.handle(&event),
            Ok(None) => app.tick(),
            Err(error) => break Err(PlayError::Read(error)),
        }
        while let Ok((id, answer)) = answers.try_recv() {
            app.finished(id, answer);
        }
    };
    stop.store(true, Ordering::Relaxed);
    drop(guard);
    result
}

/// Runs `task` on a worker thread after its delay (cut short by `stop`) and sends the answer
/// back with the task's id.
fn start_search(
    task: SearchTask,
    engine: Arc<Mutex<Computer>>,
    stop: Arc<AtomicBool>,
    answers: Sender<(u64, Answer)>,
) {
    thread::spawn(move || {
        let start = Instant::now();
        while start.elapsed() < task.delay {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            thread::sleep(
                TICK.min(
                    task.delay
                        .checked_sub(start.elapsed().min(task.delay))
                        .unwrap(),
                ),
            );
        }
        // A cancelled search may still be stopping: wait for its engine.
        let mut computer = engine.lock().unwrap_or_else(PoisonError::into_inner);
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let answer = match task.job {
            Job::Move(_) => Answer::Move(
                computer
                    .choose(&task.game, &stop)
                    .map(|choice| choice.square),
            ),
            Job::Hint => Answer::Hint(computer.analyse(&task.game, &stop)),
        };
        let _ = answers.send((task.id, answer));
    });
}

/// Appends the finished game to the results file, and says so on the message line.
fn log_result(app: &mut App, results: Option<&mut ResultsFile>) {
    let Some(file) = results else {
        return;
    };
    let line = results::line(&results::now(), app.game(), app.players());
    match file.append(&line) {
        Ok(()) => app.add_note(&format!("Result appended to {}.", file.path().display())),
        Err(error) => app.note(
            format!(
                "Cannot append to results file {}: {error}",
                file.path().display()
            ),
            Tone::Warning,
        ),
    }
}

/// Writes the game to `path`, and says so (or why not) on the message line; the game goes on
/// either way.
fn save_game(app: &mut App, path: &Path) {
    let record = saved::record(app.session(), app.players());
    match saved::save(path, &record) {
        Ok(format) => app.add_note(&saved::saved(path, format, app.session().moves_played())),
        Err(error) => app.note(super::view::capitalized(&error.to_string()), Tone::Warning),
    }
}

/// Who won and by how much, or a draw, once the game is over.
fn result_sentence(game: &Game, players: &ByColor<Player>) -> String {
    let score = game.score();
    match game.outcome() {
        Some(Outcome::Win(color)) => {
            let how = view::win_phrase(game, color);
            format!(
                "{} wins {how}, {} to {}.",
                label(&players[color]),
                score[color],
                score[color.opponent()]
            )
        }
        Some(Outcome::Draw) => format!("a draw, {} to {}.", score.black, score.white),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests;
