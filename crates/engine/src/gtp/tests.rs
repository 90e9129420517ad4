//! The GTP session's tests: ids and comments, moves, passes and undo, the board and the clocks.

use std::time::Duration;

use othello::{ByColor, Color, Dimensions};

use super::Gtp;
use super::clock::Clock;
use crate::{Engine, EngineConfig};

fn gtp() -> Gtp {
    Gtp::new(
        Engine::new(EngineConfig {
            hash_mb: 1,
            ..EngineConfig::default()
        }),
        2,
    )
}

fn text(gtp: &mut Gtp, line: &str) -> String {
    gtp.handle(line).expect("a command").text
}

#[test]
fn ids_comments_and_blank_lines() {
    let mut gtp = gtp();
    assert_eq!(gtp.handle("   # only a comment"), None);
    assert_eq!(gtp.handle(""), None);
    assert_eq!(text(&mut gtp, "7 name # who"), "=7 othello\n\n");
    assert_eq!(text(&mut gtp, "protocol_version\t"), "= 2\n\n");
    assert_eq!(text(&mut gtp, "known_command genmove"), "= true\n\n");
    assert_eq!(text(&mut gtp, "known_command fly"), "= false\n\n");
    assert_eq!(text(&mut gtp, "12 fly"), "?12 unknown command\n\n");
    assert_eq!(
        text(&mut gtp, "12"),
        "?12 syntax error: a command after the id\n\n"
    );
    assert!(gtp.handle("quit").unwrap().quit);
}

#[test]
fn sizes_moves_passes_and_undo() {
    let mut gtp = gtp();
    assert_eq!(text(&mut gtp, "boardsize 7"), "? unacceptable size\n\n");
    assert_eq!(text(&mut gtp, "boardsize 18"), "? unacceptable size\n\n");
    assert_eq!(text(&mut gtp, "boardsize 4"), "= \n\n");
    assert_eq!(gtp.game().board().dims(), Dimensions::new(4, 4).unwrap());
    assert_eq!(
        text(&mut gtp, "play b pass"),
        "? illegal move: black has a legal move and cannot pass\n\n"
    );
    assert_eq!(
        text(&mut gtp, "play b a1"),
        "? illegal move: a1 is not a legal move for black: it flips no discs\n\n"
    );
    assert_eq!(
        text(&mut gtp, "play b e5"),
        "? syntax error: column e is off the board: columns are a to d\n\n"
    );
    assert_eq!(
        text(&mut gtp, "play red b1"),
        "? syntax error: expected a color (black or white), found \"red\"\n\n"
    );
    assert_eq!(text(&mut gtp, "play B B1"), "= \n\n");
    // White has a move: neither white (to move) nor black (not to move) may pass.
    assert_eq!(
        text(&mut gtp, "play b pass"),
        "? illegal move: it is white's turn, and black has a legal move\n\n"
    );
    assert_eq!(
        text(&mut gtp, "play w pass"),
        "? illegal move: white has a legal move and cannot pass\n\n"
    );
    assert_eq!(gtp.history.len(), 1);
    assert_eq!(text(&mut gtp, "undo"), "= \n\n");
    assert_eq!(text(&mut gtp, "undo"), "? cannot undo\n\n");
    assert_eq!(text(&mut gtp, "final_score"), "? the game is not over\n\n");
    // Play the 4x4 game out between the engine and itself.
    let mut color = "b";
    let mut moves = 0;
    while !gtp.game().is_over() {
        let reply = text(&mut gtp, &format!("genmove {color}"));
        assert!(reply.starts_with("= "), "{reply}");
        color = if color == "b" { "w" } else { "b" };
        moves += 1;
        assert!(moves < 40);
    }
    // Perfect play on 4x4 ends with white 8 discs ahead; depth 2 is exact from 4 empties.
    assert!(text(&mut gtp, "final_score").starts_with("= "));
    assert_eq!(text(&mut gtp, "genmove b"), "= pass\n\n");
}

#[test]
fn passes_take_no_place_in_the_undo_history_and_depths_beyond_the_maximum_are_refused() {
    let mut gtp = gtp();
    // The engine plays 4x4 out against itself; at its passes the front end repeats them.
    assert_eq!(text(&mut gtp, "boardsize 4"), "= \n\n");
    let mut color = "b";
    let mut passed = false;
    while !gtp.game().is_over() {
        let reply = text(&mut gtp, &format!("genmove {color}"));
        if reply == "= pass\n\n" {
            passed = true;
            let before = gtp.history.len();
            for _ in 0..1000 {
                assert_eq!(text(&mut gtp, &format!("play {color} pass")), "= \n\n");
            }
            assert_eq!(gtp.history.len(), before);
        }
        color = if color == "b" { "w" } else { "b" };
    }
    assert!(passed, "the 4x4 game has a pass");
    assert!(gtp.history.len() <= 12);
    for depth in ["0", "61", "99"] {
        assert_eq!(
            text(&mut gtp, &format!("set_depth {depth}")),
            "? syntax error: a depth from 1 to 60\n\n"
        );
    }
    assert_eq!(text(&mut gtp, "set_depth 60"), "= \n\n");
    assert_eq!(gtp.depth, 60);
}

#[test]
fn showboard_and_time_budget() {
    let mut gtp = gtp();
    assert_eq!(
        text(&mut gtp, "showboard"),
        "= \n   A B C D E F G H\n 1 . . . . . . . . 1\n 2 . . . . . . . . 2\n 3 . . . . . . . . 3\n 4 . . . O X . . . 4\n 5 . . . X O . . . 5\n 6 . . . . . . . . 6\n 7 . . . . . . . . 7\n 8 . . . . . . . . 8\n   A B C D E F G H\nBlack (X) 2 - 2 White (O), black to move\n\n"
    );
    let clock = Clock {
        settings: Some((Duration::from_secs(300), Duration::ZERO, 0)),
        left: ByColor::default(),
    };
    // 1.5 times 300 s over the 24 moves before the last 12 empty squares.
    assert_eq!(
        clock.budget(Color::Black, 60),
        Some(Duration::from_millis(18_750))
    );
    let no_limit = Clock {
        settings: Some((Duration::ZERO, Duration::from_secs(1), 0)),
        left: ByColor::default(),
    };
    assert_eq!(no_limit.budget(Color::Black, 60), None);
    assert_eq!(Clock::default().budget(Color::White, 60), None);
    assert_eq!(text(&mut gtp, "time_settings 300 0 0"), "= \n\n");
    assert_eq!(text(&mut gtp, "time_left white 30 5"), "= \n\n");
    assert_eq!(
        gtp.clock.budget(Color::White, 60),
        Some(Duration::from_millis(5400))
    );
    // Twice the share, at most half the time left, at least the share.
    let six = Duration::from_secs(6);
    assert_eq!(
        gtp.clock.hard_limit(Color::White, six),
        Duration::from_secs(12)
    );
    assert_eq!(text(&mut gtp, "time_left white 16 0"), "= \n\n");
    assert_eq!(
        gtp.clock.hard_limit(Color::White, six),
        Duration::from_secs(8)
    );
    assert_eq!(text(&mut gtp, "time_left white 10 0"), "= \n\n");
    assert_eq!(gtp.clock.hard_limit(Color::White, six), six);
    // The last stone of a byo-yomi period: 9 of its 10 s, and never past them.
    assert_eq!(text(&mut gtp, "time_settings 0 10 1"), "= \n\n");
    assert_eq!(text(&mut gtp, "time_left black 10 1"), "= \n\n");
    let nine = Duration::from_secs(9);
    assert_eq!(gtp.clock.budget(Color::Black, 30), Some(nine));
    assert_eq!(gtp.clock.hard_limit(Color::Black, nine), nine);
}
