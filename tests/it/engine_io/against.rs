//! An NBoard engine and a GTP engine playing each other, the protocols' timing, and Ctrl-C
//! during a search.

use std::time::{Duration, Instant};

use othello::notation::parse_square;
use othello::{Color, Dimensions, Game, RuleSet, Setup, Square};

use super::{Session, move_of, square};

/// The board as `showboard` draws it, from `game`.
fn board_lines(game: &Game) -> Vec<String> {
    let dims = game.board().dims();
    (0..dims.rows())
        .map(|row| {
            let cells: String = (0..dims.cols())
                .map(
                    |col| match game.board().get(Square::new(row, col)).unwrap() {
                        Some(Color::Black) => " X",
                        Some(Color::White) => " O",
                        None => " .",
                    },
                )
                .collect();
            format!("{:>2}{cells} {}", row + 1, row + 1)
        })
        .collect()
}

/// Plays a whole 8x8 game between an `othello nboard` process (black, at `black_depth`) and an
/// `othello gtp` process (white, at `white_depth`), driven as NBoard and a GTP front end would;
/// checks the end against `Game` and returns the moves and each move's wall-clock time.
fn nboard_against_gtp(black_depth: u32, white_depth: u32) -> (Vec<Square>, Vec<Duration>) {
    let mut black = Session::start(&["nboard", "--no-book", "--hash", "16"]);
    let white_depth = white_depth.to_string();
    let mut white = Session::start(&["gtp", "--no-book", "--depth", &white_depth, "--hash", "16"]);
    black.send("nboard 2");
    black.line();
    black.send(&format!("set depth {black_depth}"));
    let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let mut moves = Vec::new();
    let mut times = Vec::new();
    while let Some(turn) = game.turn() {
        let asked = Instant::now();
        let played = match turn {
            Color::Black => {
                black.send("go");
                let reply = black.until(|line| line.starts_with("=== "));
                let played = square(move_of(reply.last().unwrap()));
                black.until(|line| line == "status");
                // As NBoard does: "go" leaves the board alone until the GUI sends the move.
                black.send(&format!("move {played}"));
                white.send(&format!("play b {played}"));
                assert_eq!(white.line(), "= ");
                assert_eq!(white.line(), "");
                played
            }
            Color::White => {
                white.send("genmove w");
                let reply = white.line();
                assert_eq!(white.line(), "");
                let vertex = reply.strip_prefix("= ").expect("a move");
                let played = parse_square(vertex, Dimensions::STANDARD).unwrap();
                black.send(&format!("move {vertex}"));
                played
            }
        };
        times.push(asked.elapsed());
        let done = game.play(played).expect("both engines play legal moves");
        moves.push(played);
        // NBoard sends passes as moves; GTP's front end may leave them out.
        if done.passed == Some(Color::White) {
            black.send("move PA");
        }
    }
    // Both engines agree that the game is over, and GTP's board is the game's.
    white.send("genmove b");
    assert_eq!(white.line(), "= pass");
    white.line();
    white.send("showboard");
    let board = white.until(str::is_empty);
    assert_eq!(board[2..10], board_lines(&game)[..]);
    white.send("final_score");
    let score = white.line();
    let expected = match game.margin(Color::Black) {
        0 => "= 0".to_owned(),
        m if m > 0 => format!("= B+{m}"),
        m => format!("= W+{}", -m),
    };
    assert_eq!(score, expected);
    black.send("hint 1");
    black.send("ping 9");
    assert_eq!(black.line(), "pong 9");
    // Replaying the moves through Game gives the same position.
    let mut replay = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    for square in &moves {
        replay.play(*square).unwrap();
    }
    assert_eq!(replay.board(), game.board());
    assert!(replay.is_over());
    let (black_status, _) = black.finish();
    let (white_status, _) = white.finish();
    assert_eq!((black_status, white_status), (0, 0));
    (moves, times)
}

#[test]
fn an_nboard_engine_and_a_gtp_engine_play_a_whole_game() {
    let (moves, _) = nboard_against_gtp(2, 3);
    assert!(moves.len() >= 50, "{moves:?}");
}

/// The figures of docs/measurements.md, "Engine protocols": a whole game at depth 10 on each side, and
/// how long a `ping` takes to stop a deep search. Run with
/// `cargo test --release --test it -- --ignored engine_protocol_timing --nocapture`.
#[test]
#[ignore = "timing figures; see the comment for how to run them"]
fn engine_protocol_timing() {
    let (moves, mut times) = nboard_against_gtp(10, 10);
    let total: Duration = times.iter().sum();
    times.sort();
    println!(
        "depth 10 both sides: {} moves, {:.1} s in all, median {:.3} s, slowest {:.3} s",
        moves.len(),
        total.as_secs_f64(),
        times[times.len() / 2].as_secs_f64(),
        times[times.len() - 1].as_secs_f64()
    );
    let mut latencies = Vec::new();
    for _ in 0..5 {
        let mut session = Session::start(&["nboard", "--no-book"]);
        session.send("set depth 40");
        session.send("go");
        let thinking = Instant::now();
        while thinking.elapsed() < Duration::from_secs(1) {
            session.line();
        }
        let asked = Instant::now();
        session.send("ping 1");
        session.until(|line| line == "pong 1");
        latencies.push(asked.elapsed().as_secs_f64() * 1000.0);
        session.send("quit");
        session.finish();
    }
    println!("ping to pong during a depth-40 search, ms: {latencies:.1?}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_ends_nboard_at_once_during_a_search() {
    use std::os::unix::process::ExitStatusExt;

    let mut session = Session::start(&["nboard", "--no-book", "--hash", "1"]);
    session.send("set depth 40");
    session.send("go");
    session.until(|line| line.starts_with("nodestats"));
    let pid = libc::pid_t::try_from(session.child.id()).unwrap();
    // SAFETY: kill only sends a signal to the process this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let status = session.child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGINT));
}
