//! `othello match` and `othello_engine::arena`: the Elo estimate, the players as named on the command
//! line, matches between this engine and external engines (this binary over GTP and NBoard,
//! fake engines that answer an illegal move, crash or never answer, `GRhino`), the saved games
//! and the errors.
//!
//! Here the Elo estimate and the players; matches through the binary in `external`, `GRhino` and
//! Ctrl-C in `stop`.

use std::time::Duration;

use othello_engine::arena::Elo;
use othello_engine::arena::spec::{BookSpec, Budget, Contender, EngineSpec, EvaluationSpec};
use othello_engine::computer::Level;

mod clock;
mod external;
mod stop;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

#[test]
fn elo_follows_the_logistic_formula_with_the_score_variance_as_error() {
    // 6 won, 2 drawn, 2 lost: 70%, 147.2 Elo; per-game variance 0.16, so the 95% interval
    // of the score is 0.7 +/- 1.96 * 0.1265, 268.7 Elo wide on each side on average.
    let elo = Elo::estimate(6, 2, 2);
    assert!(close(elo.difference, 147.190_714_117_837_8), "{elo:?}");
    assert!(close(elo.margin, 268.716_321_123_325_1), "{elo:?}");
    // The mirror image.
    let mirror = Elo::estimate(2, 2, 6);
    assert!(close(mirror.difference, -elo.difference) && close(mirror.margin, elo.margin));
    // Even: no difference, and not -0.
    let even = Elo::estimate(3, 4, 3);
    assert!(even.difference == 0.0 && even.difference.is_sign_positive());
    // Every draw: no variance, no margin.
    let draws = Elo::estimate(0, 10, 0);
    assert!(draws.difference == 0.0 && draws.margin == 0.0);
    // Every point to one side: unbounded.
    let sweep = Elo::estimate(4, 0, 0);
    assert!(sweep.difference == f64::INFINITY && sweep.margin == f64::INFINITY);
    assert!(Elo::estimate(0, 0, 4).difference == f64::NEG_INFINITY);
    // An interval reaching past 100%: its margin is unbounded, not NaN.
    let wide = Elo::estimate(1, 0, 1);
    assert!(wide.difference == 0.0 && wide.margin == f64::INFINITY);
    // More games, a narrower margin.
    assert!(Elo::estimate(60, 20, 20).margin < elo.margin / 3.0);
}

fn engine(budget: Budget, evaluation: EvaluationSpec, selective: bool) -> Contender {
    Contender::Engine(EngineSpec {
        budget,
        evaluation,
        selective,
        book: BookSpec::Default,
        share: None,
    })
}

fn with_share(contender: Contender, seconds: f64) -> Contender {
    match contender {
        Contender::Engine(spec) => Contender::Engine(EngineSpec {
            share: Some(Duration::from_secs_f64(seconds)),
            ..spec
        }),
        other => other,
    }
}

fn with_book(contender: Contender, book: BookSpec) -> Contender {
    match contender {
        Contender::Engine(spec) => Contender::Engine(EngineSpec { book, ..spec }),
        other => other,
    }
}

#[test]
fn players_are_read_in_every_form() {
    let level = |n| Budget::Level(Level::new(n).unwrap());
    let words = |text: &str| text.split(' ').map(str::to_owned).collect::<Vec<_>>();
    let cases = [
        ("self", engine(level(6), EvaluationSpec::Trained, true)),
        ("self:6", engine(level(6), EvaluationSpec::Trained, true)),
        ("self:1", engine(level(1), EvaluationSpec::Trained, true)),
        (
            "self:level=3",
            engine(level(3), EvaluationSpec::Trained, true),
        ),
        (
            "self:nodes=3000000",
            engine(Budget::Nodes(3_000_000), EvaluationSpec::Trained, true),
        ),
        (
            "self:weights=old.bin",
            engine(level(6), EvaluationSpec::File("old.bin".into()), true),
        ),
        (
            "self:nodes=300000,weights=old.bin",
            engine(
                Budget::Nodes(300_000),
                EvaluationSpec::File("old.bin".into()),
                true,
            ),
        ),
        (
            "self: 4 , classic, no-probcut",
            engine(level(4), EvaluationSpec::Classic, false),
        ),
        (
            "self:nodes=10,trained,noprobcut",
            engine(Budget::Nodes(10), EvaluationSpec::Trained, false),
        ),
        (
            "self:6,no-book",
            with_book(
                engine(level(6), EvaluationSpec::Trained, true),
                BookSpec::Off,
            ),
        ),
        (
            "self:nodes=5000,book",
            with_book(
                engine(Budget::Nodes(5000), EvaluationSpec::Trained, true),
                BookSpec::Builtin,
            ),
        ),
        (
            "self:book=deep.book,4",
            with_book(
                engine(level(4), EvaluationSpec::Trained, true),
                BookSpec::File("deep.book".into()),
            ),
        ),
        (
            "self:6,share=4.5",
            with_share(engine(level(6), EvaluationSpec::Trained, true), 4.5),
        ),
        (
            "self:share=0.25,nodes=1000",
            with_share(
                engine(Budget::Nodes(1000), EvaluationSpec::Trained, true),
                0.25,
            ),
        ),
        (
            "gtp:gtp-rhino -l 4",
            Contender::Gtp(words("gtp-rhino -l 4")),
        ),
        // Quoted whole, as when the quotes reach the program.
        (
            "gtp:\"gtp-rhino -l 4\"",
            Contender::Gtp(words("gtp-rhino -l 4")),
        ),
        (
            "nboard:'/opt/my engine/edax' -nboard",
            Contender::NBoard(vec!["/opt/my engine/edax".into(), "-nboard".into()]),
        ),
        (
            "nboard:othello nboard",
            Contender::NBoard(words("othello nboard")),
        ),
    ];
    for (text, expected) in cases {
        if let Contender::Engine(spec) = &expected {
            // The name a match shows reads back as the same player.
            let name = spec.to_string();
            assert_eq!(name.parse::<Contender>(), Ok(expected.clone()), "{name}");
        }
        assert_eq!(text.parse::<Contender>(), Ok(expected), "{text}");
    }
    let named = |text: &str| match text.parse::<Contender>() {
        Ok(Contender::Engine(spec)) => spec.to_string(),
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(named("self"), "self:6");
    assert_eq!(
        named("self:share=2.5, classic ,nodes=3000"),
        "self:nodes=3000,classic,share=2.5"
    );
}

#[test]
fn the_built_in_book_is_used_as_othello_play_uses_it_unless_named() {
    let cases = [
        ("self", true),
        ("self:3", true),
        ("self:2", false),
        ("self:nodes=1000", false),
        ("self:nodes=1000,book", true),
        ("self:1,book", true),
        ("self:6,no-book", false),
        ("self:6,book=other.book", false),
    ];
    for (text, uses) in cases {
        let Ok(Contender::Engine(spec)) = text.parse::<Contender>() else {
            panic!("{text} is this engine");
        };
        assert_eq!(spec.uses_builtin_book(), uses, "{text}");
    }
}

#[test]
fn bad_players_are_refused_saying_what_is_wrong() {
    let cases = [
        ("engine:6", "expected self:LEVEL"),
        (
            "self:7",
            "expected a computer level from 1 to 6, found \"7\"",
        ),
        ("self:0", "found \"0\""),
        ("self:nodes=0", "nodes: expected a number from 1 up"),
        ("self:nodes=many", "found \"many\""),
        ("self:depth=3", "unknown option \"depth=3\""),
        ("self:weights=", "unknown option \"weights=\""),
        ("self:6,nodes=100", "level 6 and nodes=100 both given"),
        (
            "self:classic,weights=w.bin",
            "classic and weights=w.bin both given",
        ),
        ("self:book,no-book", "book and no-book both given"),
        ("self:book=", "unknown option \"book=\""),
        (
            "self:share=0",
            "share: expected seconds above 0, at most 3600, found \"0\"",
        ),
        ("self:share=-1", "found \"-1\""),
        ("self:share=soon", "found \"soon\""),
        ("self:share=NaN", "found \"NaN\""),
        ("self:share=3601", "at most 3600"),
        ("self:share=2,share=3", "share=2 and share=3 both given"),
        ("gtp:", "no command to start the engine"),
        ("nboard:  ", "no command"),
        ("gtp:\"unclosed", "cannot split the command"),
    ];
    for (text, message) in cases {
        let error = text.parse::<Contender>().expect_err(text);
        let shown = error.to_string();
        assert!(shown.starts_with(&format!("{text:?}: ")), "{text}: {shown}");
        assert!(shown.contains(message), "{text}: {shown}");
    }
}
