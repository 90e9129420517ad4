//! Whole games and their files: new game and quit confirmed, the key bar, saving and loading,
//! the prompt's long line, computers playing each other, every screen at small sizes.

use std::time::Duration;

use insta::assert_snapshot;
use othello::{Color, Dimensions, Game, RuleSet, Setup};
use othello_engine::computer::Level;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use std::path::PathBuf;

use othello_records::{ReadOptions, movelist};

use super::super::app::{Answer, App, Job, Mode, Pending};
use crate::saved;

use othello_session::{Controller, Session};

use super::{
    COMPUTER, HUMAN, against_computer, click, click_square, dims, key, keys, layout, message,
    play_out, players, screen, settle, sq, two_people,
};

#[test]
fn a_new_game_is_confirmed_while_one_is_in_progress() {
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    key(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.mode, Mode::Setup(_)), "nothing to lose yet");
    key(&mut app, KeyCode::Enter);
    assert_eq!(message(&app), "New game.");
    click_square(&mut app, sq("d3"));
    key(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.mode, Mode::Confirm(_)));
    assert!(screen(&app).contains("Abandon it and start a new one? y yes  n no"));
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(app.session().moves_played(), 1);
    assert_eq!(message(&app), "Carrying on with this game.");
    key(&mut app, KeyCode::Char('n'));
    key(&mut app, KeyCode::Char('y'));
    assert!(matches!(app.mode, Mode::Setup(_)));
    // Esc leaves the game as it was.
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.session().moves_played(), 1);
    key(&mut app, KeyCode::Char('n'));
    key(&mut app, KeyCode::Char('y'));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.session().moves_played(), 0);
    assert_eq!(app.mode, Mode::Play);
}

#[test]
fn the_new_game_screen_sets_up_the_next_game() {
    let game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let mut app = App::new(
        game,
        players(HUMAN, Controller::Computer(Level::DEFAULT)),
        false,
        Duration::ZERO,
        Rect::new(0, 0, 80, 24),
        true,
    );
    assert!(
        app.take_search_task().is_none(),
        "nobody moves before the game starts"
    );
    let form = screen(&app);
    assert_snapshot!(form);
    // Black's name typed, white made a person, the board 6x6, all with keys.
    key(&mut app, KeyCode::Down);
    keys(&mut app, "Ada");
    for _ in 0..4 {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Left);
    // White's side, by a click on its line: computer 3 -> 4 -> 5 -> 6 -> person.
    let white_line = form
        .lines()
        .position(|line| line.contains("White plays"))
        .unwrap();
    for _ in 0..4 {
        click(&mut app, 30, white_line as u16);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Play);
    assert_eq!(app.game().board().dims(), dims(6, 6));
    assert_eq!(app.players().black.name, "Ada");
    assert!(app.players().white.is_human());
    assert!(app.take_new_players().is_some());
    assert!(app.take_search_task().is_none());
    assert!(screen(&app).contains("Ada (X) to move"));
}

#[test]
fn quitting_is_confirmed_while_a_game_is_in_progress() {
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    click_square(&mut app, sq("d3"));
    key(&mut app, KeyCode::Char('q'));
    assert!(!app.quitting());
    key(&mut app, KeyCode::Esc);
    assert!(!app.quitting());
    key(&mut app, KeyCode::Char('q'));
    key(&mut app, KeyCode::Char('y'));
    assert!(app.quitting());
    // At the start, and on Ctrl-C, at once.
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quitting());
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    click_square(&mut app, sq("d3"));
    app.handle(&Event::Key(KeyEvent::new(
        KeyCode::Char('c'),
        KeyModifiers::CONTROL,
    )));
    assert!(app.quitting());
}

#[test]
fn the_key_bar_can_be_clicked() {
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    click_square(&mut app, sq("d3"));
    let keys_line = layout(&app).keys.y;
    let text = screen(&app);
    let bar = text.lines().nth(usize::from(keys_line)).unwrap();
    let undo = bar.find("u undo").unwrap() as u16;
    click(&mut app, undo + 3, keys_line);
    assert_eq!(app.session().moves_played(), 0);
    let quit = bar.find("q quit").unwrap() as u16;
    click(&mut app, quit, keys_line);
    assert!(app.quitting());
}

#[test]
fn save_asks_the_loop_to_write_the_game_where_it_is_told() {
    let mut app = two_people(dims(6, 6), (80, 24));
    keys(&mut app, "s");
    assert_eq!(app.take_save(), Some(PathBuf::from(saved::DEFAULT_FILE)));
    assert_eq!(app.take_save(), None, "asked once");
    app.set_save_file(Some(PathBuf::from("chosen.txt")));
    key(&mut app, KeyCode::Char(':'));
    keys(&mut app, "save");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.take_save(), Some(PathBuf::from("chosen.txt")));
    key(&mut app, KeyCode::Char(':'));
    keys(&mut app, "SAVE some dir/my game.ggf");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.take_save(), Some(PathBuf::from("some dir/my game.ggf")));
    assert_eq!(app.mode, Mode::Play);
    // The click on the key bar's entry does the same.
    let keys_line = layout(&app).keys.y;
    let bar = screen(&app)
        .lines()
        .nth(keys_line as usize)
        .unwrap()
        .to_owned();
    click(&mut app, bar.find("s save").unwrap() as u16 + 2, keys_line);
    assert_eq!(app.take_save(), Some(PathBuf::from("chosen.txt")));
}

#[test]
fn the_end_of_a_game_saves_it_to_the_save_file_once() {
    let mut app = two_people(dims(4, 4), (80, 24));
    app.set_save_file(Some(PathBuf::from("end.ggf")));
    play_out(&mut app);
    assert!(app.game().is_over());
    assert_eq!(app.take_save(), Some(PathBuf::from("end.ggf")));
    keys(&mut app, "m");
    assert_eq!(app.take_save(), None);
}

#[test]
fn a_saved_game_continues_where_it_stopped() {
    let mut app = against_computer();
    let record = &movelist::read("f5d6c3", &ReadOptions::default()).unwrap()[0];
    app.continue_from(
        Session::continuing(record),
        &saved::continuing(record, "game.txt"),
    );
    assert_eq!(
        message(&app),
        "Continuing the game of game.txt after 3 moves."
    );
    assert_eq!(app.session().moves_played(), 3);
    // White (the computer) is to move.
    assert_eq!(app.game().turn(), Some(Color::White));
    settle(&mut app);
    assert_eq!(app.session().moves_played(), 4);
    // Undo takes back the computer's reply and the loaded move of the person before it.
    keys(&mut app, "u");
    assert_eq!(app.session().moves_played(), 2);
    assert!(screen(&app).contains("Moves (2):"));
}

#[test]
fn a_finished_saved_game_is_not_logged_again() {
    let mut app = two_people(dims(4, 4), (80, 24));
    let record =
        &movelist::read("4x4 b1a1c4d4a2c1d1d3d2b4a4a3", &ReadOptions::default()).unwrap()[0];
    app.set_save_file(Some(PathBuf::from("end.ggf")));
    app.continue_from(Session::continuing(record), "Continuing.");
    assert!(app.game().is_over());
    assert!(!app.take_finished());
    assert_eq!(app.take_save(), None);
    assert_eq!(
        message(&app),
        "Continuing. The game is over: White (O) wins by 8 discs, 12 to 4."
    );
}

#[test]
fn the_prompt_shows_the_end_of_a_long_line() {
    let mut app = two_people(dims(8, 8), (30, 20));
    key(&mut app, KeyCode::Char(':'));
    keys(&mut app, "save a/very/long/path/to/a/game/file.ggf");
    let shown = screen(&app);
    let line = shown.lines().nth(layout(&app).keys.y as usize).unwrap();
    assert_eq!(
        line.chars().count(),
        usize::from(layout(&app).keys.width) - 1
    );
    assert!(
        line.starts_with(':') && line.ends_with("/to/a/game/file.ggf"),
        "{line}"
    );
}

#[test]
fn new_with_settings_at_the_prompt_fills_in_the_new_game_screen() {
    let mut app = against_computer();
    click_square(&mut app, sq("d3"));
    settle(&mut app);
    key(&mut app, KeyCode::Char(':'));
    keys(&mut app, "new 6x6 huge");
    key(&mut app, KeyCode::Enter);
    assert!(
        message(&app).contains("found \"huge\""),
        "{}",
        message(&app)
    );
    assert_eq!(app.mode, Mode::Play);
    key(&mut app, KeyCode::Char(':'));
    keys(&mut app, "NEW 6x6 simple white=human");
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode, Mode::Confirm(_)));
    keys(&mut app, "y");
    let Mode::Setup(form) = &app.mode else {
        panic!("the new-game screen, not {:?}", app.mode);
    };
    assert_eq!((form.rows, form.cols, form.rules), (6, 6, RuleSet::Simple));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game().board().dims(), dims(6, 6));
    assert_eq!(app.game().rules(), RuleSet::Simple);
    assert!(app.players().white.is_human());
    assert_eq!(app.session().moves_played(), 0);
}

#[test]
fn computers_play_each_other_to_the_end_after_their_delay() {
    let game = Game::new(Setup::standard(dims(4, 4)), RuleSet::Full);
    let delay = Duration::from_millis(300);
    let mut app = App::new(
        game,
        players(COMPUTER, COMPUTER),
        false,
        delay,
        Rect::new(0, 0, 80, 24),
        false,
    );
    let task = app.take_search_task().unwrap();
    assert_eq!(task.delay, delay);
    assert_eq!(task.job, Job::Move(Color::Black));
    app.finished(task.id, Answer::Move(Ok(task.game.legal_moves()[0])));
    settle(&mut app);
    assert!(app.game().is_over());
    assert!(screen(&app).contains("Game over"));
}

#[test]
fn every_screen_draws_at_every_small_size_without_panicking() {
    let mut apps = Vec::new();
    for ask in [false, true] {
        let game = Game::new(Setup::standard(dims(16, 16)), RuleSet::Full);
        apps.push(App::new(
            game,
            players(HUMAN, HUMAN),
            true,
            Duration::ZERO,
            Rect::new(0, 0, 80, 24),
            ask,
        ));
    }
    let mut help = two_people(dims(4, 4), (80, 24));
    key(&mut help, KeyCode::Char('?'));
    let mut confirm = two_people(dims(4, 4), (80, 24));
    click_square(&mut confirm, sq("b1"));
    key(&mut confirm, KeyCode::Char('q'));
    let mut prompt = two_people(dims(4, 4), (80, 24));
    keys(&mut prompt, ":a very long line typed at the prompt");
    apps.extend([help, confirm, prompt]);
    for app in &mut apps {
        for width in (1..=60).step_by(3) {
            for height in (1..=25).step_by(2) {
                app.handle(&Event::Resize(width, height));
                let text = screen(app);
                assert_eq!(text.lines().count(), usize::from(height));
            }
        }
    }
}

#[test]
fn save_asks_before_overwriting_a_file_that_is_not_this_game() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "buy milk\n").unwrap();
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    click_square(&mut app, sq("f5"));
    let save = format!(":save {}", notes.display());
    keys(&mut app, &save);
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode, Mode::Confirm(Pending::Overwrite { .. })));
    assert!(
        screen(&app).contains("(not a game record)?"),
        "{}",
        screen(&app)
    );
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(message(&app), "Not saved.");
    assert!(app.take_save().is_none());
    keys(&mut app, &save);
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('y'));
    assert_eq!(app.take_save(), Some(notes.clone()));
    // A file holding just one game (this game's earlier save) is written without a question.
    std::fs::write(&notes, "f5\n").unwrap();
    keys(&mut app, &save);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Play);
    assert_eq!(app.take_save(), Some(notes));
}
