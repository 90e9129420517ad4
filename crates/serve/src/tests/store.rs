//! The store: games saved before the answer, read back after a restart, a full disk that
//! changes nothing, and the import of a folder of GGF files.

use axum::http::StatusCode;
use serde_json::{Value, json};

use othello::{Dimensions, Game, RuleSet, Setup};

use super::super::database::Limits;
use super::super::game_id::GameId;
use super::{Client, LIMITS, error_of};

#[tokio::test]
async fn a_restarted_server_reads_the_saved_games() {
    let dir = tempfile::tempdir().unwrap();
    let (game, other) = {
        let client = Client::new(dir.path()).await;
        let game = client
            .create(json!({"white": "computer:4", "black_name": "Ada"}))
            .await;
        let game = client.play(&game, "f5").await;
        let other = client.create(json!({"size": 6})).await;
        let other = client.play(&other, "c2").await;
        (game, other)
    };
    let client = Client::new(dir.path()).await;
    assert_eq!(client.server.store.saved_games(), Ok(2));
    for saved in [game, other] {
        let path = format!("/api/games/{}", saved["id"].as_str().unwrap());
        let (status, read) = client.call("GET", &path, None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(read, saved, "the same game after the restart");
    }
    // A record that is not a game does not stop the server: that game answers an error.
    let broken = "00000000000000000000000000000001";
    client
        .server
        .store
        .database()
        .put_raw(GameId::parse(broken).unwrap(), b"not a game");
    let (status, answer) = client
        .call("GET", &format!("/api/games/{broken}"), None)
        .await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(error_of(&answer).starts_with("the saved game cannot be read"));
}

#[tokio::test]
async fn a_game_saved_by_othello_play_opens_with_its_seats() {
    use othello::ByColor;
    use othello_engine::computer::Level;
    use othello_records::{self as records, Format};
    use othello_session::{Controller, Player, Session, seats};

    let dir = tempfile::tempdir().unwrap();
    let mut session = Session::new(Game::new(
        Setup::standard(Dimensions::new(6, 6).unwrap()),
        RuleSet::Simple,
    ));
    session.play(othello::Square::new(1, 2)).unwrap(); // c2
    let controllers = ByColor {
        black: Controller::Human,
        white: Controller::Computer(Level::new(2).unwrap()),
    };
    let names = ByColor {
        black: Some("Ada".parse().unwrap()),
        white: None,
    };
    // As `othello play` saves it (its date has the time of day).
    let players = Player::pair(controllers, names);
    let record = seats::record(
        &session,
        &players,
        "play",
        Some("2024-05-06 07:08:09 +00:00".to_owned()),
    );
    let id = "0123456789abcdef0123456789abcdef";
    let bytes = records::write(&[record], Format::Ggf).unwrap();
    // Put in the folder as `ID.ggf`, imported on the first start.
    std::fs::write(dir.path().join(format!("{id}.ggf")), bytes).unwrap();
    let client = Client::new(dir.path()).await;
    let (status, game) = client.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK, "{game}");
    assert_eq!(game["moves"], 1);
    assert_eq!(game["turn"], "white");
    assert_eq!(
        game["black"],
        json!({"name": "Ada", "computer": null, "discs": 4})
    );
    assert_eq!(
        game["white"],
        json!({"name": "Computer", "computer": 2, "discs": 1})
    );
}

#[tokio::test]
async fn idle_games_leave_memory_and_come_back_from_disk() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::with_capacity(dir.path(), 2).await;
    let mut games = Vec::new();
    for _ in 0..4 {
        let game = client.create(json!({"size": 4})).await;
        games.push(client.play(&game, "b1").await);
    }
    assert_eq!(client.server.store.in_memory(), 2);
    for game in &games {
        let path = format!("/api/games/{}", game["id"].as_str().unwrap());
        let (status, read) = client.call("GET", &path, None).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(&read, game);
        assert!(client.server.store.in_memory() <= 2);
    }
}

/// The first legal move of `game`.
fn first_legal(game: &Value) -> String {
    game["legal"][0].as_str().expect("a legal move").to_owned()
}

#[tokio::test]
async fn a_full_disk_answers_507_changes_nothing_and_the_games_survive_it() {
    let dir = tempfile::tempdir().unwrap();
    let pages = {
        let client = Client::new(dir.path()).await;
        client.create(json!({"size": 16})).await;
        client.server.store.database().pages()
    };
    // The disk is full: SQLite may not grow the database past the pages it has.
    let full = Limits {
        max_pages: Some(pages),
        ..LIMITS
    };
    let client = Client::with_limits(dir.path(), 100, full).await;
    let mut last = None;
    let mut refused = None;
    for _ in 0..200 {
        let (status, answer) = client
            .call("POST", "/api/games", Some(json!({"size": 16})))
            .await;
        if status == StatusCode::CREATED {
            last = Some(answer);
        } else {
            refused = Some((status, answer));
            break;
        }
    }
    let (status, answer) = refused.expect("the disk fills");
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{answer}");
    assert!(error_of(&answer).starts_with("the server's storage is full"));
    let saved = client.server.store.saved_games().unwrap();

    // The last game made fills its page: its moves grow it until a move cannot be saved.
    let mut game = last.expect("a game made before the disk filled");
    let path = format!("/api/games/{}", game["id"].as_str().unwrap());
    let mut failed = None;
    while game["over"] == false {
        let square = first_legal(&game);
        let (status, answer) = client
            .post(&game["id"], "play", json!({ "square": square }))
            .await;
        if status == StatusCode::OK {
            game = answer;
        } else {
            failed = Some((status, answer, square));
            break;
        }
    }
    let (status, answer, square) = failed.expect("a move that cannot be saved");
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{answer}");
    // Refused moves are not played, again and again, and no game is made.
    for _ in 0..5 {
        let (status, _) = client
            .post(&game["id"], "play", json!({ "square": square }))
            .await;
        assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE);
        let (_, read) = client.call("GET", &path, None).await;
        assert_eq!(read, game, "the game in memory is the game saved");
    }
    let (status, _) = client.call("POST", "/api/games", Some(json!({}))).await;
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE);
    assert_eq!(client.server.store.saved_games(), Ok(saved));
    drop(client);

    // The disk freed and the server started again: every game as last answered, and playing on.
    let client = Client::new(dir.path()).await;
    assert_eq!(client.server.store.saved_games(), Ok(saved));
    let (status, read) = client.call("GET", &path, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read, game);
    let next = client.play(&game, &square).await;
    assert_eq!(next["moves"], game["moves"].as_u64().unwrap() + 1);
}

#[tokio::test]
async fn a_folder_of_ggf_files_and_journals_is_imported_once() {
    let dir = tempfile::tempdir().unwrap();
    // A game as the server saved it before the database, and its later record in a journal.
    let (before, after) = {
        let other = tempfile::tempdir().unwrap();
        let client = Client::new(other.path()).await;
        let game = client.create(json!({"black_name": "Ada"})).await;
        let before = client.play(&game, "d3").await;
        let after = client.play(&before, "c3").await;
        (before, after)
    };
    let id = before["id"].as_str().unwrap().to_owned();
    let ggf = |game: &Value| {
        let mut session = othello_session::Session::new(Game::new(
            Setup::standard(Dimensions::new(8, 8).unwrap()),
            RuleSet::Full,
        ));
        for _ in 0..game["moves"].as_u64().unwrap() {
            let square = if session.moves_played() == 0 {
                "d3"
            } else {
                "c3"
            };
            session
                .play(
                    othello::notation::parse_square(square, session.game().board().dims()).unwrap(),
                )
                .unwrap();
        }
        let players = othello_session::Player::pair(
            othello::ByColor::new_with(|_| othello_session::Controller::Human),
            othello::ByColor {
                black: Some("Ada".parse().unwrap()),
                white: None,
            },
        );
        let record = othello_session::seats::record(&session, &players, "serve", None);
        othello_records::write(&[record], othello_records::Format::Ggf).unwrap()
    };
    let file = dir.path().join(format!("{id}.ggf"));
    std::fs::write(&file, ggf(&before)).unwrap();
    // The journal of the fault: a record cut off by a full disk, a whole one appended after.
    let later = ggf(&after);
    let mut journal = format!("{id}.ggf {}\n", later.len() + 30).into_bytes();
    journal.extend_from_slice(&later[..20]);
    journal.extend_from_slice(format!("{id}.ggf {}\n", later.len()).as_bytes());
    journal.extend_from_slice(&later);
    std::fs::write(dir.path().join("journal-7.log"), &journal).unwrap();
    let second = "0123456789abcdef0123456789abcdef";
    std::fs::write(dir.path().join(format!("{second}.ggf")), ggf(&after)).unwrap();

    let client = Client::new(dir.path()).await;
    assert_eq!(client.server.store.saved_games(), Ok(2));
    let (status, read) = client.call("GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK, "{read}");
    assert_eq!(
        read, before,
        "the cut record and what follows it are not taken"
    );
    let (status, read) = client
        .call("GET", &format!("/api/games/{second}"), None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(read["moves"], 2);
    drop(client);
    // The files stay; a file put there later is not imported.
    assert_eq!(std::fs::read(&file).unwrap(), ggf(&before));
    let third = "fedcba9876543210fedcba9876543210";
    std::fs::write(dir.path().join(format!("{third}.ggf")), ggf(&after)).unwrap();
    let client = Client::new(dir.path()).await;
    assert_eq!(client.server.store.saved_games(), Ok(2));
    let (status, _) = client
        .call("GET", &format!("/api/games/{third}"), None)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn games_per_address_are_capped_and_old_unfinished_games_expire() {
    let dir = tempfile::tempdir().unwrap();
    let few = Limits {
        games_per_owner: 3,
        ..LIMITS
    };
    let client = Client::with_limits(dir.path(), 100, few).await;
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(client.create(json!({"size": 4})).await);
    }
    let (status, answer) = client.call("POST", "/api/games", Some(json!({}))).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{answer}");
    assert!(error_of(&answer).contains("3 saved games"), "{answer}");
    // Another address may still make games.
    let (status, _, _) = client
        .raw("POST", "/api/games", Some("{}"), [10, 0, 0, 9])
        .await;
    assert_eq!(status, StatusCode::CREATED);
    // Nothing is a day old yet; with an age of 0 days, every unfinished game goes.
    assert_eq!(client.server.store.expire(1).await, Ok(0));
    assert_eq!(client.server.store.expire(0).await, Ok(4));
    let path = format!("/api/games/{}", games[0]["id"].as_str().unwrap());
    let (status, _) = client.call("GET", &path, None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    client.create(json!({"size": 4})).await;
    drop(client);
    // Past the storage limit a new game is refused.
    let small = Limits {
        storage_bytes: 1,
        ..LIMITS
    };
    let client = Client::with_limits(dir.path(), 100, small).await;
    let (status, answer) = client.call("POST", "/api/games", Some(json!({}))).await;
    assert_eq!(status, StatusCode::INSUFFICIENT_STORAGE, "{answer}");
    assert!(error_of(&answer).contains("MiB of games"), "{answer}");
}
