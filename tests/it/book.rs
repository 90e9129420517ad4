//! `othello book`: building (and continuing) a book, showing, exporting and importing it, bad
//! book files, and `--book`/`--no-book` of the commands that play.

use std::fs;
use std::path::Path;

use predicates::prelude::*;

use othello::{Dimensions, Game, RuleSet, Setup, Square};
use othello_engine::book::{Book, BookPosition};

use crate::support::{othello, scratch};

/// `othello book build` on a tiny budget: depth 2, the first 2 moves, `positions` positions.
fn build(out: &Path, positions: u32) {
    othello()
        .args([
            "book", "build", "--depth", "2", "--plies", "2", "--hash", "1",
        ])
        .args(["--positions", &positions.to_string(), "--out"])
        .arg(out)
        .assert()
        .success()
        .stdout(predicate::str::contains(" positions, "));
}

#[test]
fn a_build_continued_from_its_file_ends_as_one_run_straight_through() {
    let dir = scratch("book", "resume");
    let straight = dir.join("straight.bin");
    build(&straight, 60);
    let resumed = dir.join("resumed.bin");
    build(&resumed, 25);
    let halfway = Book::from_bytes(&fs::read(&resumed).unwrap()).unwrap();
    assert!((25..60).contains(&halfway.len()), "{}", halfway.len());
    build(&resumed, 60);
    assert_eq!(fs::read(&resumed).unwrap(), fs::read(&straight).unwrap());
    // A finished book is not rebuilt: the same command leaves it as it is.
    build(&resumed, 60);
    assert_eq!(fs::read(&resumed).unwrap(), fs::read(&straight).unwrap());
}

#[test]
fn show_export_and_import_round_trip() {
    let dir = scratch("book", "round-trip");
    let book = dir.join("book.bin");
    build(&book, 40);
    othello()
        .args(["book", "show", "f5", "--book"])
        .arg(&book)
        .assert()
        .success()
        .stdout(predicate::str::is_match("^book: [0-9]+ positions, [0-9]+ expanded\nf5: value [-+][0-9]+ for white \\(its search: [-+][0-9]+ at depth 2\\)\nmoves: ").unwrap());
    let text = dir.join("book.txt");
    othello()
        .args(["book", "export", "--out"])
        .arg(&text)
        .arg("--book")
        .arg(&book)
        .assert()
        .success()
        .stdout("");
    assert!(
        fs::read_to_string(&text)
            .unwrap()
            .starts_with("# othello opening book")
    );
    let again = dir.join("again.bin");
    // The text read back, and a book with itself (binary and text), make the same book.
    for inputs in [&[&text][..], &[&book, &text]] {
        othello()
            .args(["book", "import"])
            .args(inputs)
            .arg("--out")
            .arg(&again)
            .assert()
            .success()
            .stdout(predicate::str::ends_with(" expanded\n"));
        assert_eq!(fs::read(&again).unwrap(), fs::read(&book).unwrap());
    }
}

#[test]
fn the_builtin_book_is_shown_and_exported() {
    othello()
        .args(["book", "show"])
        .assert()
        .success()
        .stdout(predicate::str::contains("the start: value "))
        .stdout(predicate::str::contains("moves: d3 "));
    let output = othello().args(["book", "export"]).output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        Book::from_text(&text).unwrap().to_bytes(),
        Book::builtin().to_bytes()
    );
}

#[test]
fn bad_books_and_moves_are_refused_with_one_line_and_status_2() {
    let dir = scratch("book", "bad");
    let book = dir.join("book.bin");
    build(&book, 20);
    let bytes = fs::read(&book).unwrap();
    let truncated = dir.join("truncated.bin");
    fs::write(&truncated, &bytes[..bytes.len() - 5]).unwrap();
    let damaged = dir.join("damaged.bin");
    let mut flipped = bytes.clone();
    flipped[20] ^= 1;
    fs::write(&damaged, flipped).unwrap();
    let text = dir.join("notes.txt");
    fs::write(&text, "shopping list\n").unwrap();
    for (file, message) in [
        (&truncated, "the book is cut or padded"),
        (&damaged, "its checksum does not match"),
        (&text, "line 1: expected a board of 64 squares"),
        (&dir.join("missing.bin"), "No such file"),
    ] {
        for command in [&["book", "show"][..], &["gtp"], &["nboard"], &["play"]] {
            let assert = othello()
                .args(command)
                .arg("--book")
                .arg(file)
                .write_stdin("")
                .assert()
                .code(2)
                .stdout("");
            let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
            assert!(stderr.contains(message), "{command:?} {file:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }
    othello()
        .args(["book", "show", "f5f5"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with("othello: moves \"f5f5\": "));
    // A file that is not a book is not replaced by a build, nor by an import.
    for command in [
        &["book", "build", "--depth", "1", "--positions", "2"][..],
        &["book", "import", book.to_str().unwrap()],
    ] {
        othello()
            .args(command)
            .arg("--out")
            .arg(&text)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--force overwrites it"));
        assert_eq!(fs::read_to_string(&text).unwrap(), "shopping list\n");
    }
}

fn start() -> Game {
    Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full)
}

/// A hand-made book in text: the position after f5 with its three moves, where the book's
/// values make `best` (one of d6, f4, f6) white's best move by far.
fn hand_made_book(best: &str) -> String {
    let mut game = start();
    game.play(Square::new(4, 5)).unwrap(); // f5
    let mut text = format!("{} +0 10\n", BookPosition::of(&game).unwrap());
    for square in game.legal_moves() {
        let mut after = game.clone();
        after.play(square).unwrap();
        // The score is black's, who moves next: white's move is worth its negation.
        let score = if square.to_string() == best { -20 } else { 5 };
        text.push_str(&format!(
            "{} {score:+} 10\n",
            BookPosition::of(&after).unwrap()
        ));
    }
    text
}

/// The move white's search chooses after f5 at depth 2, without a book.
fn searched_reply() -> String {
    let output = othello()
        .args(["gtp", "--depth", "2", "--hash", "1", "--no-book"])
        .write_stdin("play black f5\ngenmove white\nquit\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout
        .split("\n\n")
        .nth(1)
        .unwrap()
        .trim_start_matches("= ")
        .to_lowercase()
}

#[test]
fn gtp_and_nboard_answer_from_the_book_unless_told_not_to() {
    let dir = scratch("book", "engines");
    let searched = searched_reply();
    let best = ["d6", "f4", "f6"]
        .into_iter()
        .find(|m| *m != searched)
        .unwrap();
    let book = dir.join("hand.txt");
    fs::write(&book, hand_made_book(best)).unwrap();
    let gtp = |extra: &[&str]| {
        let output = othello()
            .args(["gtp", "--depth", "2", "--hash", "1"])
            .args(extra)
            .write_stdin("play black f5\ngenmove white\nquit\n")
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let book_arg = book.to_str().unwrap();
    assert_eq!(
        gtp(&["--book", book_arg]),
        format!("= \n\n= {}\n\n= \n\n", best.to_uppercase())
    );
    othello()
        .args(["gtp", "--no-book", "--book", book_arg])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
    // By default, the built-in book.
    let mut after_f5 = start();
    after_f5.play(Square::new(4, 5)).unwrap();
    let builtin = Book::builtin().moves(&after_f5).unwrap()[0].square;
    assert_eq!(
        gtp(&[]),
        format!("= \n\n= {}\n\n= \n\n", builtin.to_string().to_uppercase())
    );
    let nboard = |extra: &[&str]| {
        let output = othello()
            .args(["nboard", "--hash", "1"])
            .args(extra)
            .write_stdin("nboard 2\nset depth 2\nmove f5\ngo\nhint 2\nquit\n")
            .output()
            .unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let answered = nboard(&["--book", book_arg]);
    assert!(
        answered.contains(&format!("\n=== {best}/20.00/")),
        "{answered}"
    );
    assert!(
        answered.contains(&format!("\nbook {best} 20.00 0 10\nbook ")),
        "{answered}"
    );
    let searched_answer = nboard(&["--no-book"]);
    assert!(
        searched_answer.contains(&format!("\n=== {searched}/")),
        "{searched_answer}"
    );
    assert!(
        searched_answer.contains("\nstatus thinking at depth 2\n"),
        "{searched_answer}"
    );
}
