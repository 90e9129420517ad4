use std::sync::atomic::AtomicBool;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::binary::{ENTRY_LEN, HEADER_LEN, MAGIC, fnv1a};
use super::build::{self, BuildConfig, Builder};
use super::symmetry::Symmetry;
use super::*;
use crate::{Engine, EngineConfig};
use othello::{Dimensions, RuleSet, Setup};

fn start() -> Game {
    Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full)
}

/// A game after `moves` (such as `"f5d6"`) from the start.
fn after(moves: &str) -> Game {
    let mut game = start();
    for pair in moves.as_bytes().chunks(2) {
        let text = std::str::from_utf8(pair).unwrap();
        let square = othello::notation::parse_square(text, Dimensions::STANDARD).unwrap();
        game.play(square).unwrap();
    }
    game
}

/// A small book: the first two moves expanded by depth-2 searches.
fn small_book() -> Book {
    let config = BuildConfig {
        depth: 2,
        plies: 3,
        seed: 1,
        hash_mb: 1,
    };
    let mut builder = Builder::new(Book::new(), config).unwrap();
    let stop = AtomicBool::new(false);
    while builder.step(1, &stop).unwrap().is_some() && builder.book().len() < 40 {}
    builder.into_book()
}

#[test]
fn the_start_is_the_position_of_a_new_game() {
    assert_eq!(BookPosition::of(&start()), Some(BookPosition::START));
    assert_eq!(BookPosition::START.ply(), 0);
    assert_eq!(
        BookPosition::of(&BookPosition::START.game()),
        Some(BookPosition::START)
    );
    // Other boards and rules have no book position.
    let small = Game::new(
        Setup::standard(Dimensions::new(6, 6).unwrap()),
        RuleSet::Full,
    );
    assert_eq!(BookPosition::of(&small), None);
    let simple = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Simple);
    assert_eq!(BookPosition::of(&simple), None);
}

/// The image of a whole game under `symmetry`: every move played on its image square.
fn image(moves: &str, symmetry: Symmetry) -> Game {
    let mut game = start();
    // The start is symmetric under the symmetries that keep or swap its diagonals; others
    // map it to the start with colours swapped, which no game reaches: skip those.
    let start_image = BookPosition {
        player: symmetry.apply(BookPosition::START.player),
        opponent: symmetry.apply(BookPosition::START.opponent),
    };
    assert_eq!(start_image.canonical(), BookPosition::START.canonical());
    for pair in moves.as_bytes().chunks(2) {
        let text = std::str::from_utf8(pair).unwrap();
        let square = othello::notation::parse_square(text, Dimensions::STANDARD).unwrap();
        let index = symmetry.apply_square((square.row() * 8 + square.col()) as u32);
        game.play(Square::new(index as usize / 8, index as usize % 8))
            .unwrap();
    }
    game
}

#[test]
fn a_position_and_its_images_share_a_key_and_book_moves_map_back_to_real_squares() {
    let book = small_book();
    let line = "f5d6";
    let base = after(line);
    let key = BookPosition::of(&base).unwrap().canonical();
    let base_moves = book.moves(&base).expect("ply 2 is expanded");
    for symmetry in Symmetry::all() {
        let start_image = BookPosition {
            player: symmetry.apply(BookPosition::START.player),
            opponent: symmetry.apply(BookPosition::START.opponent),
        };
        if start_image != BookPosition::START {
            continue; // a game from the start never reaches this image
        }
        let game = image(line, symmetry);
        assert_eq!(BookPosition::of(&game).unwrap().canonical(), key);
        let moves = book.moves(&game).unwrap();
        // Each real move is the image of the base game's move, with the same value.
        let mut expected: Vec<BookMove> = base_moves
            .iter()
            .map(|m| {
                let index = symmetry.apply_square((m.square.row() * 8 + m.square.col()) as u32);
                BookMove {
                    square: Square::new(index as usize / 8, index as usize % 8),
                    value: m.value,
                }
            })
            .collect();
        expected.sort_by_key(|m| (std::cmp::Reverse(m.value), m.square));
        assert_eq!(moves, expected, "symmetry {symmetry:?}");
        for m in &moves {
            assert!(game.is_legal(m.square));
        }
    }
}

#[test]
fn book_moves_map_back_under_all_eight_symmetries_of_a_position() {
    // Any position, not only those a game reaches: its eight images and their book moves.
    let book = small_book();
    let base = BookPosition::of(&after("f5d6")).unwrap();
    let (canonical_form, _) = base.oriented();
    for symmetry in Symmetry::all() {
        let position = BookPosition {
            player: symmetry.apply(base.player),
            opponent: symmetry.apply(base.opponent),
        };
        assert_eq!(position.canonical(), canonical_form);
        let game = position.game();
        let moves = book.moves(&game).unwrap();
        for m in &moves {
            assert!(game.is_legal(m.square), "{symmetry:?} {}", m.square);
            // The move's value is the negation of the value of the position after it.
            let mut next = game.clone();
            next.play(m.square).unwrap();
            assert_eq!(book.get(&next).unwrap().value, -m.value);
        }
    }
}

#[test]
fn values_are_derived_by_negamax() {
    let book = small_book();
    let root = book.get(&start()).unwrap();
    assert!(root.expanded);
    let moves = book.moves(&start()).unwrap();
    assert_eq!(root.value, moves[0].value);
    for game in [start(), after("f5"), after("f5d6"), after("f5f6")] {
        let known = book.get(&game).unwrap();
        let moves = book.moves(&game).unwrap();
        assert_eq!(
            known.value,
            moves.iter().map(|m| m.value).max().unwrap(),
            "{game:?}"
        );
    }
    // A leaf keeps its own score.
    let leaf = book
        .iter()
        .find_map(|(position, entry)| {
            let known = book.known(position).unwrap();
            (!known.expanded).then_some((known, entry))
        })
        .unwrap();
    assert_eq!(leaf.0.value, leaf.1.score);
}

#[test]
fn negamax_through_a_hand_made_book() {
    // The start and its four (symmetric) children: the start's value is minus the child's.
    let mut book = Book::new();
    let child = BookPosition::of(&after("f5")).unwrap();
    book.insert(
        child,
        Entry {
            score: 3,
            depth: 10,
            exact: false,
        },
    )
    .unwrap();
    assert_eq!(book.moves(&start()), None);
    book.insert(
        BookPosition::START,
        Entry {
            score: 0,
            depth: 10,
            exact: false,
        },
    )
    .unwrap();
    let root = book.get(&start()).unwrap();
    assert!(root.expanded);
    assert_eq!(root.value, -3);
    assert_eq!(book.line(&start()).len(), 1);
    let moves = book.moves(&start()).unwrap();
    assert_eq!(moves.len(), 4);
    assert!(moves.iter().all(|m| m.value == -3));
}

#[test]
fn choose_stays_within_the_margin() {
    let book = small_book();
    let game = after("f5");
    let moves = book.moves(&game).unwrap();
    let best = moves[0].value;
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..50 {
        let m = book.choose(&game, 2, &mut rng).unwrap();
        assert!(m.value >= best - 2);
        assert!(game.is_legal(m.square));
    }
    let m = book.choose(&game, 0, &mut rng).unwrap();
    assert_eq!(m.value, best);
}

#[test]
fn bytes_and_text_round_trip() {
    let book = small_book();
    assert!(book.len() > 10);
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    let text = book.to_text();
    assert_eq!(Book::from_text(&text).unwrap(), book);
    assert_eq!(
        text.lines().filter(|l| !l.starts_with('#')).count(),
        book.len()
    );
}

#[test]
fn text_accepts_any_orientation_and_names_bad_lines() {
    let line = format!("{} +2 12\n", BookPosition::of(&after("f5d6")).unwrap());
    let book = Book::from_text(&line).unwrap();
    assert_eq!(book.len(), 1);
    let mirrored = BookPosition::of(&image("f5d6", Symmetry(4))).unwrap();
    let book2 = Book::from_text(&format!("# note\n\n{mirrored} +2 12\n")).unwrap();
    assert_eq!(book, book2);
    for (text, expected) in [
        ("XO +1 2", "line 1: expected a board of 64 squares"),
        (
            "x",
            "line 1: expected a board of 64 squares, a score and a depth",
        ),
        (&format!("{} +1", BookPosition::START), "found 2 fields"),
        (
            &format!("{} one 2", BookPosition::START),
            "expected a score",
        ),
        (
            &format!("{} +1 deep", BookPosition::START),
            "expected a depth",
        ),
        (
            &format!("{} +99 3", BookPosition::START),
            "score 99 is beyond",
        ),
        (
            &format!("{} +1 0", BookPosition::START),
            "depth 0 is beyond",
        ),
        (
            &format!("{}Z +1 2", &BookPosition::START.to_string()[..63]),
            "square 64 is 'Z'",
        ),
        (&format!("-Z{} 0 1", "-".repeat(62)), "square 2 is 'Z'"),
        (&format!("{} 0 1", "-".repeat(64)), "no legal move"),
    ] {
        let error = Book::from_text(&format!("# comment\n{text}"))
            .unwrap_err()
            .to_string();
        let expected = expected.replace("line 1", "line 2");
        assert!(error.contains(&expected), "{text:?}: {error}");
    }
}

#[test]
fn garbage_is_refused_with_a_reason() {
    let book = small_book();
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(b"hello"), Err(BookError::Magic));
    assert_eq!(Book::from_bytes(b""), Err(BookError::Magic));
    assert!(matches!(
        Book::from_bytes(&bytes[..bytes.len() - 1]),
        Err(BookError::Length { .. })
    ));
    assert!(matches!(
        Book::from_bytes(&bytes[..10]),
        Err(BookError::Length { .. })
    ));
    let mut damaged = bytes.clone();
    damaged[HEADER_LEN + 3] ^= 1;
    assert_eq!(Book::from_bytes(&damaged), Err(BookError::Checksum));
    let mut later = bytes.clone();
    later[8] = 9;
    assert_eq!(
        Book::from_bytes(&later),
        Err(BookError::Version { found: 9 })
    );
    // An entry that is not canonical, with a valid checksum.
    let mut turned = Book::new().to_bytes();
    turned.truncate(HEADER_LEN);
    turned[12] = 1;
    let position = BookPosition::of(&after("f5")).unwrap();
    let other = Symmetry::all()
        .map(|s| BookPosition {
            player: s.apply(position.player),
            opponent: s.apply(position.opponent),
        })
        .find(|p| *p != position.canonical())
        .unwrap();
    turned.extend_from_slice(&other.player.to_le_bytes());
    turned.extend_from_slice(&other.opponent.to_le_bytes());
    turned.extend_from_slice(&[0, 5]);
    let checksum = fnv1a(&turned);
    turned.extend_from_slice(&checksum.to_le_bytes());
    assert!(matches!(
        Book::from_bytes(&turned),
        Err(BookError::Entry { index: 0, .. })
    ));
}

#[test]
fn the_builtin_book_is_valid_and_every_book_move_is_legal() {
    let book = Book::builtin();
    assert_eq!(Book::from_bytes(&book.to_bytes()).as_ref(), Ok(&*book));
    for (position, _) in book.iter() {
        let game = position.game();
        if let Some(moves) = book.moves(&game) {
            assert_eq!(moves.len(), game.legal_moves().len());
            for m in moves {
                assert!(game.is_legal(m.square));
            }
        }
    }
}

/// The positions of the game `moves` from the start, as `learn` takes them.
fn line(moves: &str) -> Vec<BookPosition> {
    (0..=moves.len() / 2)
        .filter_map(|plies| BookPosition::of(&after(&moves[..2 * plies])))
        .collect()
}

#[test]
fn learning_a_game_expands_its_positions_once() {
    let mut engine = Engine::new(EngineConfig {
        hash_mb: 1,
        ..EngineConfig::default()
    });
    let stop = AtomicBool::new(false);
    let moves = "f5d6c3d3c4f4f6";
    let mut book = small_book();
    assert!(book.moves(&after(moves)).is_none());
    let mut heard = Vec::new();
    let learned = build::learn(
        &mut book,
        &line(moves),
        2,
        &mut engine,
        &stop,
        &mut |done, total| {
            heard.push((done, total));
        },
    );
    assert!(!learned.stopped);
    assert!(learned.expanded >= 3, "{learned:?}");
    assert_eq!(heard.first(), Some(&(0, 8)));
    assert_eq!(heard.last(), Some(&(8, 8)));
    // Every position of the game is expanded: the book plays all of it.
    for plies in 0..=moves.len() / 2 {
        let game = after(&moves[..2 * plies]);
        let book_moves = book.moves(&game).expect("learnt");
        assert_eq!(
            book_moves.len(),
            game.legal_moves().len(),
            "after {plies} moves"
        );
    }
    let added = book.len() - small_book().len();
    assert_eq!(learned.added, added);
    // A second time adds nothing.
    let before = book.clone();
    let again = build::learn(
        &mut book,
        &line(moves),
        2,
        &mut engine,
        &stop,
        &mut |_, _| {},
    );
    assert_eq!((again.added, again.expanded), (0, 0));
    assert_eq!(book, before);
    // Stopped at once, it keeps the book as it was.
    let mut stopped_book = small_book();
    let stopped = build::learn(
        &mut stopped_book,
        &line("f5f6e6f4"),
        2,
        &mut engine,
        &AtomicBool::new(true),
        &mut |_, _| {},
    );
    assert_eq!(
        stopped,
        build::Learned {
            expanded: 0,
            added: 0,
            stopped: true
        }
    );
    assert_eq!(stopped_book, small_book());
}

#[test]
fn a_build_resumed_from_its_book_ends_as_one_run_straight_through() {
    let config = BuildConfig {
        depth: 2,
        plies: 2,
        seed: 3,
        hash_mb: 1,
    };
    let stop = AtomicBool::new(false);
    let run = |book: Book, steps: usize| {
        let mut builder = Builder::new(book, config).unwrap();
        for _ in 0..steps {
            builder.step(1, &stop).unwrap();
        }
        builder.into_book()
    };
    let straight = run(Book::new(), 12);
    let halfway = Book::from_bytes(&run(Book::new(), 5).to_bytes()).unwrap();
    assert_eq!(run(halfway, 7), straight);
    // A stopped step leaves the book as it was.
    let mut builder = Builder::new(straight.clone(), config).unwrap();
    assert!(builder.step(1, &AtomicBool::new(true)).is_err());
    assert_eq!(builder.book(), &straight);
}

/// A step of a batch of leaves scores what its plan lists; the plan's searches scored in parts,
/// in any order and by separate engines, and added, give the book the step gives.
#[test]
fn a_batch_scored_in_parts_by_separate_engines_is_the_step_of_one_builder() {
    let config = BuildConfig {
        depth: 2,
        plies: 2,
        seed: 5,
        hash_mb: 1,
    };
    let stop = AtomicBool::new(false);
    let mut one = Builder::new(Book::new(), config).unwrap();
    let mut parts = Builder::new(Book::new(), config).unwrap();
    let mut batches = Vec::new();
    for round in 0..6 {
        let plan = parts.plan(4).unwrap();
        batches.push(plan.leaves.len());
        assert!(plan.targets.windows(2).all(|pair| pair[0] < pair[1]));
        let expansion = one.step(4, &stop).unwrap().unwrap();
        assert_eq!(
            (expansion.leaves, expansion.added),
            (plan.leaves.len(), plan.targets.len())
        );
        // Three parts, the last first, each searched by its own engine.
        let third = plan.targets.len().div_ceil(3);
        let mut scored = Vec::new();
        for part in plan.targets.chunks(third).rev() {
            let mut engine = Builder::new(parts.book().clone(), config).unwrap();
            for &position in part {
                scored.push((position, engine.score(position, &stop).unwrap()));
            }
        }
        parts.add(scored);
        assert_eq!(parts.book(), one.book(), "round {round}");
    }
    // The start, its one move (under symmetry), then the leaves known: as many as there are.
    assert_eq!(batches, [1, 1, 1, 3, 4, 4]);
    // A batch of one is the step of one leaf, as every build before batches made it.
    let mut single = Builder::new(one.book().clone(), config).unwrap();
    let leaf = single.plan(1).unwrap().leaves;
    assert_eq!(leaf, one.plan(4).unwrap().leaves[..1]);
    assert_eq!(single.step(1, &stop).unwrap().unwrap().leaves, 1);
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        let _ = Book::from_bytes(&bytes);
        let mut with_magic = MAGIC.to_vec();
        with_magic.extend_from_slice(&bytes);
        let _ = Book::from_bytes(&with_magic);
        // Framed as a book, with a right checksum: the entries themselves are checked.
        let count = bytes.len() / ENTRY_LEN;
        let mut framed = MAGIC.to_vec();
        framed.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        framed.extend_from_slice(&(count as u32).to_le_bytes());
        framed.extend_from_slice(&bytes[..count * ENTRY_LEN]);
        let checksum = fnv1a(&framed);
        framed.extend_from_slice(&checksum.to_le_bytes());
        let _ = Book::from_bytes(&framed);
    }

    #[test]
    fn random_text_never_panics(text in "[XO\\- +0-9a-z\n#]{0,300}") {
        let _ = Book::from_text(&text);
    }
}
