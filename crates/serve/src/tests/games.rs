//! The games' routes: a new game and its headers, bad settings and bodies, unknown games and
//! routes, moves and refusals, a whole game with a pass, the computer's reply, undo and hint.

use serde_json::{Value, json};

use axum::http::{StatusCode, header};

use othello::{Dimensions, Game, RuleSet, Setup};

use super::super::api::BODY_LIMIT;
use super::super::game_id::GameId;
use super::{Client, error_of};

#[tokio::test]
async fn a_new_game_is_the_standard_start_and_sends_careful_headers() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let (status, headers, bytes) = client
        .raw("POST", "/api/games", Some("{}"), [127, 0, 0, 1])
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let game: Value = serde_json::from_slice(&bytes).unwrap();
    let id = game["id"].as_str().unwrap();
    assert!(GameId::parse(id).is_some(), "{id}");
    assert_eq!(headers[header::LOCATION], format!("/api/games/{id}"));
    assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
    assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY");
    let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"));
    assert!(!csp.contains("unsafe-inline"));
    assert_eq!(game["board"][3], "...wb...");
    assert_eq!(game["turn"], "black");
    assert_eq!(game["legal"], json!(["d3", "c4", "f5", "e6"]));
    assert_eq!(
        game["black"],
        json!({"name": "Black", "computer": null, "discs": 2})
    );
    assert_eq!(game["over"], false);
    assert_eq!(client.server.store.saved_games(), Ok(1), "saved at once");

    let (status, read) = client.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read, game);

    let settings = json!({"size": 6, "rules": "simple", "win": "fewest", "first": "white",
        "black": "computer:2", "white": "human", "white_name": "  Ada "});
    let game = client.create(settings).await;
    assert_eq!(
        (game["rows"].as_u64(), game["cols"].as_u64()),
        (Some(6), Some(6))
    );
    assert_eq!(game["rules"], "simple");
    assert_eq!(game["win"], "fewest");
    assert_eq!(game["turn"], "white");
    assert_eq!(game["white"]["name"], "Ada");
    assert_eq!(
        game["black"],
        json!({"name": "Computer", "computer": 2, "discs": 2})
    );
    // A level alone, as `new white=4` takes it in `othello play`.
    let game = client.create(json!({"white": "4"})).await;
    assert_eq!(game["white"]["computer"], 4);
}

#[tokio::test]
async fn bad_settings_and_bodies_are_refused_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let cases = [
        (json!({"size": 7}), "7x7 board is not supported"),
        (json!({"size": 18}), "18x18"),
        (json!({"rules": "chess"}), "rules: expected full or simple"),
        (json!({"win": "all"}), "win: expected most or fewest"),
        (json!({"first": "red"}), "first: expected black or white"),
        (json!({"black": "robot"}), "black: expected human, computer"),
        (
            json!({"white": "computer:7"}),
            "white: expected a computer level",
        ),
        (
            json!({"black_name": "x".repeat(33)}),
            "at most 32 characters",
        ),
        (json!({"white_name": "a\tb"}), "control characters"),
        (json!({"colour": "red"}), "unknown field `colour`"),
        (json!({"size": "8"}), "invalid type"),
        (json!([1, 2]), "bad request body"),
    ];
    for (settings, message) in cases {
        let (status, answer) = client
            .call("POST", "/api/games", Some(settings.clone()))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{settings}");
        assert!(error_of(&answer).contains(message), "{settings}: {answer}");
    }
    let (status, _, bytes) = client
        .raw("POST", "/api/games", Some("{\"size\": 8"), [127, 0, 0, 1])
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(String::from_utf8_lossy(&bytes).contains("EOF while parsing"));
    let huge = format!("{{\"black_name\": \"{}\"}}", "x".repeat(BODY_LIMIT));
    let (status, _, bytes) = client
        .raw("POST", "/api/games", Some(&huge), [127, 0, 0, 1])
        .await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(error_of(&answer), "the request body is over 4096 bytes");
    assert_eq!(client.server.store.saved_games(), Ok(0), "nothing saved");
}

#[tokio::test]
async fn unknown_games_and_routes_are_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    for path in [
        "/api/games/0123456789abcdef0123456789abcdef",
        "/api/games/0123456789ABCDEF0123456789ABCDEF",
        "/api/games/short",
        "/api/games/..%2F..%2Fetc%2Fpasswd",
        "/api/games/0123456789abcdef0123456789abcdef/ggf",
    ] {
        let (status, answer) = client.call("GET", path, None).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(
            error_of(&answer).starts_with("no such game"),
            "{path}: {answer}"
        );
    }
    let (status, answer) = client.call("DELETE", "/api/games", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(error_of(&answer), "this route does not take that method");
    let (status, answer) = client.call("GET", "/api/players", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_of(&answer), "no such API route");
    let (status, _, _) = client.raw("GET", "/secret.txt", None, [127, 0, 0, 1]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn moves_the_game_refuses_and_malformed_moves() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let game = client.create(json!({})).await;
    let id = &game["id"];
    let refused = [
        (
            json!({"square": "a1"}),
            StatusCode::CONFLICT,
            "a1 is not a legal move for black",
        ),
        (
            json!({"square": "d4"}),
            StatusCode::CONFLICT,
            "d4 is already occupied",
        ),
        (
            json!({"square": "z9"}),
            StatusCode::BAD_REQUEST,
            "column z is off the board",
        ),
        (
            json!({"square": "d3", "player": "white"}),
            StatusCode::BAD_REQUEST,
            "unknown field",
        ),
        (json!({}), StatusCode::BAD_REQUEST, "missing field `square`"),
    ];
    for (body, expected, message) in refused {
        let (status, answer) = client.post(id, "play", body.clone()).await;
        assert_eq!(status, expected, "{body}");
        assert!(error_of(&answer).contains(message), "{body}: {answer}");
    }
    let (status, answer) = client.post(id, "pass", json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(error_of(&answer).starts_with("you cannot pass"));
    let (status, answer) = client.post(id, "undo", json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error_of(&answer),
        "there is no move of a person to take back"
    );
    let (status, answer) = client.post(id, "computer", json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        error_of(&answer),
        "it is a person's turn, not the computer's"
    );
    let (status, answer) = client.post(id, "undo", json!({"moves": 2})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");

    let after = client.play(&game, "D3").await;
    assert_eq!(after["last"], "d3");
    assert_eq!(after["last_player"], "black");
    assert_eq!(after["flipped"], json!(["d4"]));
    assert_eq!(
        (
            after["black"]["discs"].as_u64(),
            after["white"]["discs"].as_u64()
        ),
        (Some(4), Some(1))
    );
    assert_eq!(after["turn"], "white");
    let back = client.post(id, "undo", json!({})).await;
    assert_eq!(back.0, StatusCode::OK);
    assert_eq!(back.1["moves"], 0);
    assert_eq!(back.1["board"], game["board"]);
}

/// A 4x4 game in which a player has to pass: moves chosen by a fixed pseudo-random rule until
/// one such game turns up.
fn a_game_with_a_pass() -> Vec<String> {
    for seed in 1u64.. {
        let mut game = Game::new(
            Setup::standard(Dimensions::new(4, 4).unwrap()),
            RuleSet::Full,
        );
        let mut state = seed;
        let mut moves = Vec::new();
        let mut passed = false;
        while game.turn().is_some() {
            let legal = game.legal_moves();
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let square = legal[(state >> 33) as usize % legal.len()];
            passed |= game.play(square).unwrap().passed.is_some();
            moves.push(square.to_string());
        }
        if passed {
            return moves;
        }
    }
    unreachable!("some game has a pass")
}

#[tokio::test]
async fn a_whole_game_with_a_pass_to_the_winner() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let moves = a_game_with_a_pass();
    let mut game = client.create(json!({"size": 4})).await;
    let mut passes = 0;
    let mut reference = Game::new(
        Setup::standard(Dimensions::new(4, 4).unwrap()),
        RuleSet::Full,
    );
    for square in &moves {
        assert!(game["legal"].as_array().unwrap().contains(&json!(square)));
        game = client.play(&game, square).await;
        let played = reference
            .play(othello::notation::parse_square(square, reference.board().dims()).unwrap())
            .unwrap();
        if let Some(passer) = played.passed {
            passes += 1;
            assert_eq!(game["passed"], passer.name());
            assert_eq!(
                game["turn"],
                passer.opponent().name(),
                "the same player again"
            );
        } else {
            assert_eq!(game["passed"], Value::Null);
        }
    }
    assert!(passes >= 1);
    assert_eq!(game["over"], true);
    assert_eq!(game["turn"], Value::Null);
    assert_eq!(game["legal"], json!([]));
    let score = reference.score();
    assert_eq!(game["black"]["discs"], score.black);
    assert_eq!(game["white"]["discs"], score.white);
    let winner = reference
        .outcome()
        .unwrap()
        .winner()
        .map(othello::Color::name);
    assert_eq!(game["winner"], json!(winner));
    for action in ["pass", "computer"] {
        let (status, answer) = client.post(&game["id"], action, json!({})).await;
        assert_eq!(status, StatusCode::CONFLICT);
        assert_eq!(error_of(&answer), "the game is over", "{action}");
    }
    let (status, answer) = client
        .post(&game["id"], "play", json!({"square": "a1"}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    let (status, answer) = client.post(&game["id"], "hint", json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error_of(&answer), "the game is over");

    let id = game["id"].as_str().unwrap();
    let (status, headers, bytes) = client
        .raw("GET", &format!("/api/games/{id}/ggf"), None, [127, 0, 0, 1])
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"othello-{id}.ggf\"")
    );
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.starts_with("(;GM[Othello]PC[othello serve black=human white=human]"));
    let margin = score.black as i32 - score.white as i32;
    assert!(text.contains(&format!("RE[{margin:+}.000]")), "{text}");
    assert!(text.contains("TY[4]"));
    let passes_recorded = text.matches("[PA]").count();
    assert!(passes_recorded >= 1, "{text}");
    let turns = text.matches("]B[").count() + text.matches("]W[").count();
    assert_eq!(turns - passes_recorded, moves.len(), "{text}");

    // The list of moves, and the chart's evaluation after each: exact on 4x4, the final margin.
    let listed: Vec<&str> = game["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|played| played["square"].as_str().unwrap())
        .collect();
    assert_eq!(listed, moves);
    let (status, analysis) = client
        .call("GET", &format!("/api/games/{id}/analysis"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{analysis}");
    let points = analysis["points"].as_array().unwrap();
    assert_eq!(points.len(), moves.len());
    assert!(
        points.iter().all(|point| point["exact"] == true),
        "{analysis}"
    );
    assert_eq!(points.last().unwrap()["black"], margin);
    assert_eq!(points[0]["square"], moves[0].as_str());
}

#[tokio::test]
async fn the_computer_replies_and_undo_takes_its_reply_back_too() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let game = client.create(json!({"white": "computer:1"})).await;
    assert_eq!(game["white"]["name"], "Computer");
    let id = &game["id"];
    let after = client.play(&game, "d3").await;
    let (status, answer) = client.post(id, "play", json!({"square": "c3"})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(error_of(&answer), "it is the computer's turn");
    let (status, replied) = client.post(id, "computer", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{replied}");
    assert_eq!(replied["moves"], 2);
    assert_eq!(replied["last_player"], "white");
    assert!(
        after["legal"]
            .as_array()
            .unwrap()
            .contains(&replied["last"])
    );
    assert_eq!(replied["turn"], "black");
    assert_eq!(replied["thinking"], false);
    let (status, undone) = client.post(id, "undo", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(undone["moves"], 0, "the person's move and the reply");
    assert_eq!(undone["board"], game["board"]);
    assert_eq!(undone["turn"], "black");
    assert_eq!(undone["can_undo"], false);

    // The computer opens when it moves first.
    let game = client.create(json!({"black": "computer:1"})).await;
    let (status, opened) = client.post(&game["id"], "computer", json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(opened["moves"], 1);
    let (status, answer) = client.post(&game["id"], "undo", json!({})).await;
    assert_eq!(
        status,
        StatusCode::CONFLICT,
        "only the computer has moved: {answer}"
    );
}

#[tokio::test]
async fn a_hint_names_a_legal_move() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let game = client.create(json!({"size": 4})).await;
    let (status, hint) = client.post(&game["id"], "hint", json!({})).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert!(game["legal"].as_array().unwrap().contains(&hint["square"]));
    assert_eq!(hint["exact"], true, "a 4x4 board is solved");
    assert_eq!(hint["score"], -8, "black loses 4x4 by 8 with perfect play");
    assert_eq!(
        hint["text"],
        format!(
            "Hint: {}: you lose by 8 discs with perfect play.",
            hint["square"].as_str().unwrap()
        )
    );
}
