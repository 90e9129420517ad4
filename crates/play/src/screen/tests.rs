//! The screen without a terminal: snapshots of what is drawn (over ratatui's test backend) and
//! the effect of keys, clicks and resizes on the state.
//!
//! Here the helpers and the snapshots of boards and sizes; clicks, keys and the prompt in
//! `input`, new games, saving and small screens in `games`.

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
use othello::{ByColor, Dimensions, Game, RuleSet, Setup, Square};
use othello_engine::computer::{Computer, Level};

use super::app::{Answer, App, Job};
use super::draw::draw;
use super::layout::{Fit, ScreenAreas};
use othello_session::{Controller, Player};

mod games;
mod input;

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
