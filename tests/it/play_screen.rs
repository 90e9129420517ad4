//! `othello play` on a real terminal: the full-screen board inside tmux, driven by a mouse
//! click as a terminal encodes it (SGR mouse reports), typed keys and a signal, with checks
//! that the terminal is given back.
//!
//! Without tmux these tests say so and pass, unless `CI` is set: CI must have tmux (`.ci/run`
//! installs it).

use std::path::Path;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

/// A tmux server of its own, killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// A server on a socket named after `test`, or `None` (after saying why) without tmux.
    fn start(test: &str) -> Option<Tmux> {
        let found = Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|output| output.status.success());
        if !found {
            assert!(
                std::env::var_os("CI").is_none_or(|ci| ci != "true"),
                "tmux is needed for the terminal tests on CI"
            );
            eprintln!("skipped {test}: tmux is not installed");
            return None;
        }
        Some(Tmux {
            socket: format!("othello-{test}-{}", std::process::id()),
        })
    }

    fn run(&self, args: &[&str]) -> String {
        let output = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(output.status.success(), "tmux {args:?}: {output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Starts `command` (a shell command line) in an 80x24 window.
    fn open(&self, command: &str) {
        self.run(&[
            "new-session",
            "-d",
            "-x",
            "80",
            "-y",
            "24",
            "-s",
            "play",
            command,
        ]);
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "play"])
    }

    /// Sends `text` as typed, escape sequences included.
    fn type_text(&self, text: &str) {
        self.run(&["send-keys", "-t", "play", "-l", text]);
    }

    /// tmux's view of the terminal modes: alternate screen, mouse reports, SGR mouse encoding.
    fn modes(&self) -> String {
        self.run(&[
            "display-message",
            "-p",
            "-t",
            "play",
            "#{alternate_on} #{mouse_any_flag} #{mouse_sgr_flag}",
        ])
        .trim()
        .to_owned()
    }

    /// Waits until the screen shows `text`, and returns the screen.
    fn wait_for(&self, text: &str) -> String {
        self.wait_until(|screen| screen.contains(text))
    }

    /// Waits until `ready` holds for the screen, and returns the screen.
    fn wait_until(&self, ready: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "waited in vain; the screen shows:\n{screen}"
            );
            thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// The shell command that runs `othello play ARGS`, then shows that it ended and the terminal
/// settings afterwards. Its process id goes to `pid_file`.
fn play_command(args: &str, pid_file: &Path) -> String {
    let binary = env!("CARGO_BIN_EXE_othello");
    format!(
        "sh -c 'echo $$ > \"{pid}\"; exec \"{binary}\" play {args}'; stty -a; echo EXITED; sleep 30",
        pid = pid_file.display()
    )
}

/// Where the centre of square `name` (`d3`) is on the screen, found from the coordinates
/// drawn around the board: 1-based column and line, as mouse reports count.
fn square_position(screen: &str, name: &str) -> (usize, usize) {
    let (letter, row) = name.split_at(1);
    let header = screen
        .lines()
        .find(|line| line.trim_start().starts_with("a   b"))
        .expect("column letters");
    let column = header.find(&format!(" {letter} ")).expect("the column") + 1;
    let line = screen
        .lines()
        .position(|line| line.trim_start().starts_with(&format!("{row} │")))
        .expect("the row");
    (column + 1, line + 1)
}

/// Terminal settings restored: canonical mode and echo on.
fn assert_cooked(screen: &str) {
    let words: Vec<&str> = screen.split_whitespace().collect();
    assert!(words.contains(&"icanon"), "{screen}");
    assert!(words.contains(&"echo"), "{screen}");
}

#[test]
fn a_click_and_a_typed_move_are_played_and_the_terminal_is_given_back() {
    let Some(tmux) = Tmux::start("click") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    tmux.open(&play_command(
        "--white computer:1 --seed 3",
        &dir.path().join("pid"),
    ));
    let screen = tmux.wait_for("Black (X) to move");
    assert_eq!(
        tmux.modes(),
        "1 1 1",
        "alternate screen and mouse reports on"
    );

    // A click on d3: button press and release, as SGR mouse reports.
    let (x, y) = square_position(&screen, "d3");
    tmux.type_text(&format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"));
    let screen = tmux.wait_for("Moves (2):");
    assert!(
        screen.contains("Black (X) plays d3, flipping 1 disc."),
        "{screen}"
    );

    // A typed move: ask for the legal moves, then type the first one at the prompt.
    tmux.type_text("m");
    let screen = tmux.wait_for("Legal moves for Black (X): ");
    let listed = screen
        .split("Legal moves for Black (X): ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();
    tmux.type_text(&format!(":{listed}\r"));
    let screen = tmux.wait_for("Moves (4):");
    let moves: Vec<&str> = screen
        .lines()
        .skip_while(|line| !line.contains("Moves (4):"))
        .nth(1)
        .unwrap()
        .split("  ")
        .last()
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!((moves[0], moves[2]), ("d3", listed.as_str()), "{screen}");

    // Quit, confirmed since the game is in progress.
    tmux.type_text("q");
    tmux.wait_for("Quit anyway?");
    tmux.type_text("y");
    let screen = tmux.wait_for("EXITED");
    assert_eq!(tmux.modes(), "0 0 0", "terminal modes restored");
    assert_cooked(&screen);
    assert!(
        !screen.contains('│'),
        "the board is gone with the alternate screen"
    );
}

#[test]
fn sigterm_and_ctrl_c_give_the_terminal_back() {
    let Some(tmux) = Tmux::start("signals") else {
        return;
    };
    let screen = terminated(&tmux, "--size 6x6", "to move");
    assert_eq!(tmux.modes(), "0 0 0");
    assert_cooked(&screen);

    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let tmux = Tmux::start("ctrl-c").unwrap();
    tmux.open(&play_command("--size 6x6", &pid_file));
    tmux.wait_for("to move");
    tmux.type_text(":d3");
    tmux.run(&["send-keys", "-t", "play", "C-c"]);
    let screen = tmux.wait_for("EXITED");
    assert_eq!(tmux.modes(), "0 0 0");
    assert_cooked(&screen);
}

/// The shell command that runs `othello ARGS` and shows its exit status.
fn othello_command(args: &str) -> String {
    let binary = env!("CARGO_BIN_EXE_othello");
    format!("\"{binary}\" {args}; echo EXITED $?; sleep 30")
}

#[test]
fn the_line_dialogue_on_a_terminal_edits_completes_and_says_goodbye() {
    let Some(tmux) = Tmux::start("line") else {
        return;
    };
    tmux.open(&othello_command("play --line --white computer:1 --seed 3"));
    tmux.wait_for("Black (X)>");
    // Tab completes the only legal move starting with d.
    tmux.type_text("d");
    tmux.run(&["send-keys", "-t", "play", "Tab", "Enter"]);
    tmux.wait_for("Black (X) plays d3, flipping 1 disc.");
    // The next prompt, after the computer's reply.
    tmux.wait_until(|screen| screen.matches("Black (X)>").count() == 2);
    // The up arrow brings d3 back from the history; it is never read as text.
    tmux.run(&["send-keys", "-t", "play", "Up", "Enter"]);
    let screen = tmux.wait_for("d3 is already occupied");
    assert!(!screen.contains("[A"), "{screen}");
    tmux.type_text("board\r");
    tmux.wait_until(|screen| {
        screen.trim_end().ends_with("Black (X)>") && screen.contains("> board")
    });
    tmux.run(&["send-keys", "-t", "play", "C-d"]);
    let screen = tmux.wait_for("EXITED");
    assert!(screen.contains("Goodbye.\nEXITED 0"), "{screen}");
    for line in screen.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }

    let tmux = Tmux::start("line-ctrl-c").unwrap();
    tmux.open(&othello_command("play --line"));
    tmux.wait_for("Black (X)>");
    tmux.run(&["send-keys", "-t", "play", "C-c"]);
    let screen = tmux.wait_for("EXITED");
    assert!(
        screen.contains("Interrupted: the game is left unfinished. Goodbye.\nEXITED 0"),
        "{screen}"
    );
}

#[test]
fn the_protocol_on_a_terminal_says_what_it_waits_for() {
    let Some(tmux) = Tmux::start("front-door") else {
        return;
    };
    tmux.open(&othello_command(""));
    tmux.wait_for("othello: waiting for a protocol game on standard input (Ctrl-D ends it).");
    tmux.wait_for("othello: for a game to play at the terminal, run othello play.");
    // Standard output is the protocol's: its banner, nothing more (it may come a moment after
    // the note on standard error).
    let screen = tmux.wait_for("othello play.\nFULL\n");
    assert!(!screen.contains("FULL\nFULL"), "{screen}");
    tmux.run(&["send-keys", "-t", "play", "C-d"]);
    tmux.wait_for("EXITED 2");
}

#[test]
fn a_watched_game_between_computers_is_logged_and_saved() {
    let Some(tmux) = Tmux::start("log") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("results.txt");
    let saved = dir.path().join("game.txt");
    tmux.open(&play_command(
        &format!(
            "--size 4x4 --black computer:1 --white computer:2 --delay 0.05 --log \"{}\" --save \"{}\"",
            log.display(),
            saved.display()
        ),
        &dir.path().join("pid"),
    ));
    // The message line wraps wherever the words fall.
    let words = |screen: &str| screen.split_whitespace().collect::<Vec<_>>().join(" ");
    let screen = tmux.wait_until(|screen| words(screen).contains("Game saved to"));
    assert!(screen.contains("Game over"), "{screen}");
    assert!(words(&screen).contains("Result appended to"), "{screen}");
    let moves = std::fs::read_to_string(&saved).unwrap();
    assert!(moves.starts_with("4x4 "), "{moves}");
    tmux.type_text("q");
    tmux.wait_for("EXITED");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(logged.lines().count(), 1, "{logged}");
    assert!(
        logged.contains("| 4x4 FULL, most discs wins | Black (black) "),
        "{logged}"
    );
}

#[test]
fn closing_the_terminal_ends_the_game() {
    let Some(tmux) = Tmux::start("hang-up") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    tmux.open(&play_command("--size 6x6", &pid_file));
    tmux.wait_for("to move");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let pid: u32 = pid.trim().parse().unwrap();
    // The window closes: the terminal hangs up under the program.
    drop(tmux);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let gone = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
            stat.rsplit_once(')')
                .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
        });
        if gone {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "othello play {pid} still runs after its terminal closed"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn keys_typed_while_the_computer_thinks_wait_quietly_and_ctrl_c_stops_it() {
    let Some(tmux) = Tmux::start("line-thinking") else {
        return;
    };
    // 31 moves of a 16x16 game: white, at level 6, thinks for seconds (its node budget, or its
    // 10 s cap in a debug build).
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("game.txt");
    let moves = "16x16 h7g7g8i7i6f8j7j8i10h6f7j6e9i11j11d10g6e7h5f9g9i5f6e5i4g5e6f5d9j9d7";
    std::fs::write(&game, moves).unwrap();
    let args = format!(
        "play --line --load {} --white computer:6 --seed 1",
        game.display()
    );
    tmux.open(&format!(
        "{}; stty -a; echo STTY; sleep 30",
        othello_command(&args).replace("; sleep 30", "")
    ));
    tmux.wait_for("Computer (O) is thinking");
    // An arrow and two letters while it thinks: not echoed, and kept for the prompt.
    tmux.run(&["send-keys", "-t", "play", "Left"]);
    tmux.type_text("zz");
    let screen = tmux.wait_until(|screen| screen.trim_end().ends_with("Black (X)> zz"));
    assert!(!screen.contains("^[") && !screen.contains("[D"), "{screen}");
    tmux.run(&["send-keys", "-t", "play", "C-u"]);
    let legal = screen
        .lines()
        .rev()
        .find_map(|line| line.strip_prefix("Legal moves: "))
        .and_then(|moves| moves.split_whitespace().next())
        .expect("the legal moves");
    tmux.type_text(&format!("{legal}\r"));
    tmux.wait_until(|screen| screen.matches("Computer (O) is thinking").count() == 1);
    tmux.run(&["send-keys", "-t", "play", "C-c"]);
    let screen = tmux.wait_for("STTY");
    assert!(
        screen.contains("Interrupted: the game is left unfinished. Goodbye.\nEXITED 0"),
        "{screen}"
    );
    assert_cooked(&screen);
}

#[test]
fn the_full_screen_saves_a_game_and_continues_it() {
    let Some(tmux) = Tmux::start("save-load") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    let file = dir.path().join("game.ggf");
    tmux.open(&play_command("--size 6x6 --white human", &pid_file));
    tmux.wait_for("Black (X) to move");
    // Enter plays the square under the cursor (the first legal move).
    tmux.type_text("\r");
    tmux.wait_for("Moves (1):");
    // A file that cannot be written: the game goes on.
    tmux.type_text(":save /nonexistent/game.ggf\r");
    tmux.wait_for("Cannot write /nonexistent/game.ggf: ");
    tmux.type_text(&format!(":save {}\r", file.display()));
    tmux.wait_for("(GGF, 1 move).");
    tmux.type_text("qy");
    tmux.wait_for("EXITED");
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.starts_with("(;GM[Othello]"), "{saved}");

    let tmux = Tmux::start("load").unwrap();
    tmux.open(&play_command(
        &format!("--white human --load {}", file.display()),
        &pid_file,
    ));
    let screen = tmux.wait_for("Continuing the game of ");
    assert!(screen.contains("after 1 move."), "{screen}");
    assert!(screen.contains("Moves (1):"), "{screen}");
    assert!(screen.contains("White (O) to move"), "{screen}");
    tmux.type_text("\r");
    tmux.wait_for("Moves (2):");
    tmux.type_text("qy");
    let screen = tmux.wait_for("EXITED");
    assert_cooked(&screen);
}

#[test]
fn sigterm_at_the_line_prompt_gives_the_terminal_back() {
    let Some(tmux) = Tmux::start("line-sigterm") else {
        return;
    };
    let screen = terminated(&tmux, "--line", "Black (X)>");
    assert!(
        screen.contains("Interrupted: the game is left unfinished. Goodbye."),
        "{screen}"
    );
    // The line editor's raw mode is undone too.
    assert_cooked(&screen);
}

/// The screen once `othello play ARGS`, opened in `tmux`, showed `prompt`, was sent SIGTERM
/// and exited.
fn terminated(tmux: &Tmux, args: &str, prompt: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("pid");
    tmux.open(&play_command(args, &pid_file));
    tmux.wait_for(prompt);
    terminate(&pid_file);
    tmux.wait_for("EXITED")
}

/// Sends SIGTERM to the program whose process id is in `pid_file`.
fn terminate(pid_file: &Path) {
    let pid = std::fs::read_to_string(pid_file).unwrap();
    let killed = Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .unwrap();
    assert!(killed.success(), "kill -TERM {pid}");
}
