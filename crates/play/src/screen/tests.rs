//! The screen without a terminal: snapshots of what is drawn (over ratatui's test backend) and
//! the effect of keys, clicks and resizes on the state.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use insta::assert_snapshot;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use ratatui::style::Color as Paint;

use othello::notation::parse_square;
use othello::{ByColor, Color, Dimensions, Game, RuleSet, Setup, Square};
use othello_engine::computer::{Computer, Level};

use std::path::PathBuf;

use othello_records::{ReadOptions, movelist};

use super::app::{Answer, App, Job, Mode, Pending, Tone};
use super::draw::draw;
use super::layout::{Fit, ScreenAreas};
use crate::saved;
use othello_session::{Controller, Player, Session};

const HUMAN: Controller = Controller::Human;
const COMPUTER: Controller = Controller::Computer(Level::MIN);

fn dims(rows: usize, cols: usize) -> Dimensions {
    Dimensions::new(rows, cols).unwrap()
}

fn players(black: Controller, white: Controller) -> ByColor<Player> {
    let controllers = ByColor { black, white };
    ByColor::new_with(|color| {
        Player::new(
            color,
            controllers[color],
            None,
            controllers[color.opponent()],
        )
    })
}

/// A new game on a `dims` board between `black` and `white` in a `width` x `height` terminal.
fn app_with(
    dims: Dimensions,
    black: Controller,
    white: Controller,
    colour: bool,
    (width, height): (u16, u16),
) -> App {
    let game = Game::new(Setup::standard(dims), RuleSet::Full);
    App::new(
        game,
        players(black, white),
        colour,
        Duration::ZERO,
        Rect::new(0, 0, width, height),
        false,
    )
}

/// A person (black) against the computer (white) on a standard board at 80x24.
fn against_computer() -> App {
    app_with(Dimensions::STANDARD, HUMAN, COMPUTER, false, (80, 24))
}

/// Two people on a `dims` board.
fn two_people(dims: Dimensions, size: (u16, u16)) -> App {
    app_with(dims, HUMAN, HUMAN, false, size)
}

/// Runs the searches the app asks for, one after the other, as the event loop would.
fn settle(app: &mut App) {
    let stop = AtomicBool::new(false);
    let mut engines = ByColor::new_with(|color| Computer::new(Level::MIN, color as u64));
    let mut adviser = Computer::new(Level::new(2).unwrap(), 7);
    while let Some(task) = app.take_search_task() {
        let answer = match task.job {
            Job::Move(color) => Answer::Move(
                engines[color]
                    .choose(&task.game, &stop)
                    .map(|choice| choice.square),
            ),
            Job::Hint => Answer::Hint(adviser.analyse(&task.game, &stop)),
        };
        app.finished(task.id, answer);
    }
}

/// The screen as text, one line per row, without trailing spaces.
fn screen(app: &App) -> String {
    text_of(&buffer(app))
}

fn buffer(app: &App) -> Buffer {
    let area = app.area;
    let mut terminal = Terminal::new(TestBackend::new(area.width, area.height)).unwrap();
    terminal.draw(|frame| draw(frame, app)).unwrap();
    terminal.backend().buffer().clone()
}

fn text_of(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut text = String::new();
    for y in 0..area.height {
        let line: String = (0..area.width).map(|x| buffer[(x, y)].symbol()).collect();
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

fn key(app: &mut App, code: KeyCode) {
    app.handle(&Event::Key(KeyEvent::from(code)));
}

fn keys(app: &mut App, text: &str) {
    for ch in text.chars() {
        key(app, KeyCode::Char(ch));
    }
}

fn click(app: &mut App, x: u16, y: u16) {
    for kind in [
        MouseEventKind::Down(MouseButton::Left),
        MouseEventKind::Up(MouseButton::Left),
    ] {
        app.handle(&Event::Mouse(MouseEvent {
            kind,
            column: x,
            row: y,
            modifiers: KeyModifiers::NONE,
        }));
    }
}

fn layout(app: &App) -> ScreenAreas {
    match app.layout() {
        Fit::Board(layout) => layout,
        Fit::TooSmall { .. } => panic!("the board does not fit {:?}", app.area),
    }
}

/// Clicks the middle of `square`'s cell.
fn click_square(app: &mut App, square: Square) {
    let cell = layout(app).cell(square);
    click(app, cell.x + cell.width / 2, cell.y + cell.height / 2);
}

fn sq(text: &str) -> Square {
    parse_square(text, dims(16, 16)).unwrap()
}

fn message(app: &App) -> String {
    app.message
        .as_ref()
        .map(|message| message.text.clone())
        .unwrap_or_default()
}

/// Plays the first legal move until the game ends.
fn play_out(app: &mut App) {
    while let Some(&square) = app.game().legal_moves().first() {
        click_square(app, square);
    }
}

#[test]
fn standard_board_at_80x24() {
    assert_snapshot!(screen(&against_computer()));
}

#[test]
fn standard_board_at_200x60_after_a_move() {
    let mut app = app_with(Dimensions::STANDARD, HUMAN, COMPUTER, true, (200, 60));
    click_square(&mut app, sq("d3"));
    settle(&mut app);
    assert_snapshot!(screen(&app));
}

#[test]
fn sixteen_by_sixteen_fits_80x24() {
    let mut app = two_people(dims(16, 16), (80, 24));
    click_square(&mut app, sq("h7"));
    assert_snapshot!(screen(&app));
}

#[test]
fn four_by_sixteen_at_80x24() {
    assert_snapshot!(screen(&two_people(dims(4, 16), (80, 24))));
}

#[test]
fn four_by_four_at_40x12() {
    assert_snapshot!(screen(&two_people(dims(4, 4), (40, 12))));
}

#[test]
fn too_small_says_how_large_to_make_the_window_and_recovers() {
    let mut app = two_people(dims(16, 16), (30, 10));
    let small = screen(&app);
    assert!(small.contains("Make the window at least"), "{small}");
    assert_snapshot!(small);
    // Clicks on a screen too small do nothing.
    click(&mut app, 5, 5);
    assert_eq!(app.session().moves_played(), 0);
    app.handle(&Event::Resize(80, 24));
    assert!(screen(&app).contains(" a b c d e f g h i j k l m n o p"));
}

/// The moves of a game on a `dims` board, taking the first or the last legal move each turn,
/// up to and including the first move that makes the opponent pass.
fn moves_to_a_pass(dims: Dimensions, last: bool) -> Option<Vec<Square>> {
    let mut game = Game::new(Setup::standard(dims), RuleSet::Full);
    let mut moves = Vec::new();
    loop {
        let legal = game.legal_moves();
        let &square = if last { legal.last() } else { legal.first() }?;
        moves.push(square);
        if game.play(square).unwrap().passed.is_some() {
            return Some(moves);
        }
    }
}

#[test]
fn a_forced_pass_is_played_and_announced() {
    let (dims, moves) = [4, 6, 8]
        .into_iter()
        .flat_map(|side| [(side, false), (side, true)])
        .find_map(|(side, last)| {
            let dims = dims(side, side);
            moves_to_a_pass(dims, last).map(|moves| (dims, moves))
        })
        .expect("a game with a pass");
    let mut app = two_people(dims, (80, 24));
    for square in moves {
        click_square(&mut app, square);
    }
    assert!(message(&app).contains("has no legal move and passes"));
    assert_snapshot!(screen(&app));
}

#[test]
fn the_end_names_the_winner() {
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    play_out(&mut app);
    assert!(app.game().is_over());
    assert!(app.take_finished());
    assert!(!app.take_finished(), "the end is reported once");
    let text = screen(&app);
    assert!(text.contains("Game over"), "{text}");
    assert_snapshot!(text);
}

#[test]
fn without_colour_glyphs_alone_tell_things_apart() {
    let mut plain = app_with(Dimensions::STANDARD, HUMAN, HUMAN, false, (80, 24));
    let mut coloured = app_with(Dimensions::STANDARD, HUMAN, HUMAN, true, (80, 24));
    for app in [&mut plain, &mut coloured] {
        click_square(app, sq("d3"));
        click_square(app, sq("c3"));
    }
    let plain_buffer = buffer(&plain);
    let colours = |buffer: &Buffer| {
        buffer
            .content()
            .iter()
            .filter(|cell| cell.fg != Paint::Reset || cell.bg != Paint::Reset)
            .count()
    };
    assert_eq!(colours(&plain_buffer), 0);
    assert!(colours(&buffer(&coloured)) > 0);
    assert_eq!(text_of(&plain_buffer), screen(&coloured));
    let text = text_of(&plain_buffer);
    // The last move is bracketed, the disc it flipped is a small o, legal moves are stars.
    assert!(text.contains("[O]") && text.contains(" o ") && text.contains(" * "));
    assert_snapshot!(text);
}

#[test]
fn a_click_plays_exactly_the_square_clicked_at_every_size() {
    let sizes = [(80, 24), (200, 60), (40, 12), (120, 40), (37, 21)];
    for (rows, cols) in [(4, 4), (8, 8), (4, 16), (16, 16), (6, 10)] {
        let dims = dims(rows, cols);
        for size in sizes {
            let start = two_people(dims, size);
            if let Fit::TooSmall { .. } = start.layout() {
                continue;
            }
            for square in dims.squares() {
                let cell = layout(&start).cell(square);
                // Every corner of the cell plays it.
                for (x, y) in [
                    (cell.x, cell.y),
                    (cell.x + cell.width - 1, cell.y + cell.height - 1),
                ] {
                    let mut app = two_people(dims, size);
                    click(&mut app, x, y);
                    if start.game().is_legal(square) {
                        assert_eq!(
                            app.session().last_move().map(|played| played.square),
                            Some(square),
                            "{dims} at {size:?}"
                        );
                    } else {
                        assert_eq!(app.game(), start.game(), "{dims} at {size:?} {square}");
                        assert!(message(&app).contains("Legal moves"));
                    }
                }
            }
        }
    }
}

#[test]
fn after_a_resize_clicks_follow_the_new_layout() {
    let mut app = two_people(Dimensions::STANDARD, (200, 60));
    let before = layout(&app).cell(sq("d3"));
    app.handle(&Event::Resize(80, 24));
    let after = layout(&app).cell(sq("d3"));
    assert_ne!(before, after);
    // Where d3 was is now nothing, or another square.
    click(&mut app, before.x + before.width / 2, before.y);
    assert_ne!(
        app.session().last_move().map(|played| played.square),
        Some(sq("d3"))
    );
    let mut app = two_people(Dimensions::STANDARD, (200, 60));
    app.handle(&Event::Resize(80, 24));
    click(&mut app, after.x, after.y);
    assert_eq!(app.session().last_move().unwrap().square, sq("d3"));
}

#[test]
fn clicks_between_squares_and_on_the_frame_do_nothing() {
    for (size, dims) in [
        ((80, 24), Dimensions::STANDARD),
        ((80, 24), dims(16, 16)),
        ((200, 60), dims(4, 4)),
    ] {
        let start = two_people(dims, size);
        let layout = layout(&start);
        for y in 0..size.1 {
            if y == layout.keys.y {
                // The key bar is clicked elsewhere.
                continue;
            }
            for x in 0..size.0 {
                if layout.square_at(x, y).is_some() {
                    continue;
                }
                let mut app = two_people(dims, size);
                click(&mut app, x, y);
                assert_eq!(app.game(), start.game());
                assert_eq!(app.message, None, "a click at {x},{y} said something");
            }
        }
    }
}

#[test]
fn cursor_keys_and_enter_play_the_square_under_the_cursor() {
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    assert_eq!(
        app.cursor,
        sq("d3"),
        "the cursor starts on the first legal move"
    );
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Right);
    key(&mut app, KeyCode::Char('l'));
    key(&mut app, KeyCode::Char('h'));
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Char('k'));
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Char('l'));
    key(&mut app, KeyCode::Down);
    // From d3: two down, two right, one left, two up, one left, one down, one right, one down.
    assert_eq!(app.cursor, sq("e5"));
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Char('l'));
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.cursor, sq("f5"));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.session().last_move().unwrap().square, sq("f5"));
    // The cursor stays on the board.
    for _ in 0..20 {
        key(&mut app, KeyCode::Left);
        key(&mut app, KeyCode::Up);
    }
    assert_eq!(app.cursor, sq("a1"));
    // Space plays too; a1 is not legal, so nothing changes.
    let game = app.game().clone();
    key(&mut app, KeyCode::Char(' '));
    assert_eq!(app.game(), &game);
    assert!(message(&app).contains("flips no discs"));
}

#[test]
fn an_illegal_click_changes_nothing_and_explains() {
    let mut app = two_people(Dimensions::STANDARD, (80, 24));
    click_square(&mut app, sq("d4"));
    assert_eq!(app.session().moves_played(), 0);
    assert_eq!(
        message(&app),
        "d4 is already occupied. Legal moves: d3 c4 f5 e6"
    );
    assert_eq!(app.message.as_ref().unwrap().tone, Tone::Warning);
    click_square(&mut app, sq("a1"));
    assert_eq!(app.session().moves_played(), 0);
    assert_eq!(
        message(&app),
        "a1 is not a legal move for black: it flips no discs. Legal moves: d3 c4 f5 e6"
    );
}

#[test]
fn the_prompt_takes_squares_in_every_form_and_commands() {
    let mut app = two_people(dims(10, 10), (80, 24));
    keys(&mut app, ":4e");
    assert_eq!(app.mode, Mode::Prompt("4e".to_owned()));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.session().last_move().unwrap().square, sq("e4"));
    keys(&mut app, ":d4x");
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Play);
    assert_eq!(app.session().moves_played(), 1);
    keys(&mut app, ":undo");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.session().moves_played(), 0);
    keys(&mut app, ":redo");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.session().moves_played(), 1);
    keys(&mut app, ":resign");
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        message(&app),
        "Unknown command \"resign\": type help for the commands"
    );
    keys(&mut app, ":c10");
    key(&mut app, KeyCode::Enter);
    assert!(message(&app).starts_with("c10 is not a legal move"));
}

#[test]
fn undo_goes_back_to_the_persons_move_and_redo_replays() {
    let mut app = against_computer();
    click_square(&mut app, sq("d3"));
    assert!(app.thinking.is_some());
    settle(&mut app);
    assert_eq!(app.session().moves_played(), 2);
    let after_reply = app.game().clone();
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.session().moves_played(), 0);
    assert_eq!(message(&app), "Took back 2 moves.");
    key(&mut app, KeyCode::Char('u'));
    assert!(message(&app).starts_with("Nothing to undo"));
    key(&mut app, KeyCode::Char('r'));
    assert_eq!(app.game(), &after_reply);
    assert!(
        app.take_search_task().is_none(),
        "a person is to move again"
    );
    key(&mut app, KeyCode::Char('r'));
    assert_eq!(message(&app), "Nothing to redo.");
    // Undo while the computer thinks stops the search and drops its answer.
    let square = app.game().legal_moves()[0];
    click_square(&mut app, square);
    let task = app
        .take_search_task()
        .expect("the computer is asked to move");
    key(&mut app, KeyCode::Char('u'));
    assert!(app.take_cancel());
    app.finished(task.id, Answer::Move(Ok(sq("a1"))));
    assert_eq!(app.game(), &after_reply);
}

#[test]
fn a_hint_is_marked_on_the_board_with_its_evaluation() {
    let mut app = against_computer();
    key(&mut app, KeyCode::Char('t'));
    assert_eq!(app.thinking.map(|(_, job)| job), Some(Job::Hint));
    settle(&mut app);
    let hint = app.hint.expect("a hint");
    assert!(app.game().is_legal(hint.square));
    assert!(message(&app).starts_with(&format!("Hint: {}: ", hint.square)));
    assert!(message(&app).contains("discs") || message(&app).contains("even"));
    let cell = layout(&app).cell(hint.square);
    assert_eq!(buffer(&app)[(cell.x + 1, cell.y)].symbol(), "+");
    // Playing a move forgets the hint.
    click_square(&mut app, hint.square);
    assert_eq!(app.hint, None);
}

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
