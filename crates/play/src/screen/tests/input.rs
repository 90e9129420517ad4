//! Clicks, cursor keys and the prompt: the square clicked at every size and after a resize,
//! clicks that miss, illegal moves explained, undo and redo, the hint marked on the board.

use othello::Dimensions;
use ratatui::crossterm::event::{Event, KeyCode};

use super::super::app::{Answer, Job, Mode, Tone};
use super::super::layout::Fit;

use super::{
    against_computer, buffer, click, click_square, dims, key, keys, layout, message, settle, sq,
    two_people,
};

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
