//! `othello serve` in a real browser: headless Chromium driven over `WebDriver` (chromedriver),
//! on a phone-sized and a desktop-sized window. Ignored by a plain `cargo test` (it needs
//! Debian's `chromium` and `chromium-driver`); `.ci/run` installs them and runs
//! `cargo test --test it -- --ignored serve_browser`.
//!
//! Screenshots land in `target/serve-screenshots/`.

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

use othello::{Dimensions, Game, RuleSet, Setup};

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `othello serve` on a free loopback port; the address it prints.
fn start_server(games: &Path) -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["serve", "--addr", "127.0.0.1:0", "--games-dir"])
        .arg(games)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("othello serve starts");
    let stdout = child.stdout.take().unwrap();
    let server = Killed(child);
    for line in BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if let Some(rest) = line.strip_prefix("Open ") {
            let url = rest.split_whitespace().next().unwrap().to_owned();
            return (server, url);
        }
    }
    panic!("othello serve printed no address");
}

/// chromedriver on a free loopback port, once it accepts connections.
fn start_driver() -> (Killed, String) {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver (Debian's chromium-driver) is installed");
    let driver = Killed(child);
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "chromedriver did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    (driver, format!("http://127.0.0.1:{port}"))
}

/// A headless Chromium session whose page is `width` x `height` CSS pixels (device emulation:
/// a window cannot be made narrower than 500 pixels); a phone below 1000 pixels wide.
async fn browser(driver: &str, profile: &Path, width: u32, height: u32) -> Client {
    let phone = width < 1000;
    let mut capabilities = serde_json::Map::new();
    let binary = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .find(|path| Path::new(path).exists());
    let mut options = json!({
        "args": [
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={},{}", width.max(800), height.max(600)),
        ],
        "mobileEmulation": {
            "deviceMetrics": {
                "width": width,
                "height": height,
                "pixelRatio": 1.0,
                "touch": phone,
                "mobile": phone,
            },
        },
    });
    if let Some(binary) = binary {
        options["binary"] = json!(binary);
    }
    capabilities.insert("goog:chromeOptions".to_owned(), options);
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector)
        .capabilities(capabilities)
        .connect(driver)
        .await
        .expect("a WebDriver session")
}

async fn script(client: &Client, code: &str) -> Value {
    client.execute(code, Vec::new()).await.expect(code)
}

/// Waits until `code` returns true.
async fn until(client: &Client, code: &str, what: &str) {
    let start = Instant::now();
    loop {
        if script(client, code).await == json!(true) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn text(client: &Client, css: &str) -> String {
    client
        .find(Locator::Css(css))
        .await
        .expect(css)
        .text()
        .await
        .unwrap()
}

async fn main_data(client: &Client, name: &str) -> String {
    script(
        client,
        &format!("return document.querySelector('main').dataset.{name};"),
    )
    .await
    .as_str()
    .unwrap()
    .to_owned()
}

async fn click(client: &Client, css: &str) {
    client
        .find(Locator::Css(css))
        .await
        .expect(css)
        .click()
        .await
        .expect(css);
}

async fn tap(client: &Client, square: &str) {
    click(client, &format!("button[data-square='{square}']")).await;
}

/// The moves of a whole 8x8 game: each the middle one of the legal moves, so that the game is
/// long and varied.
fn scripted_game() -> Vec<(String, Game)> {
    let mut game = Game::new(Setup::standard(Dimensions::STANDARD), RuleSet::Full);
    let mut moves = Vec::new();
    while game.turn().is_some() {
        let legal = game.legal_moves();
        let square = legal[legal.len() / 2];
        game.play(square).unwrap();
        moves.push((square.to_string(), game.clone()));
    }
    moves
}

fn screenshots() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/serve-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Plays the scripted game by taps and checks the page after each move; a screenshot after
/// `shot_at` moves.
async fn play_the_scripted_game(client: &Client, url: &str, shot: &Path, shot_at: usize) {
    client.goto(url).await.unwrap();
    until(
        client,
        "return /^#[0-9a-f]{32}$/.test(location.hash);",
        "a game id in the address",
    )
    .await;
    until(
        client,
        "return document.querySelectorAll('button.cell').length === 64;",
        "the board",
    )
    .await;
    let label = script(
        client,
        "return document.querySelector(\"button[data-square='d3']\").getAttribute('aria-label');",
    )
    .await;
    assert_eq!(label, "d3, empty, legal move");
    assert_eq!(text(client, "#status").await, "Black to move.");
    for (index, (square, after)) in scripted_game().iter().enumerate() {
        tap(client, square).await;
        until(
            client,
            &format!("return document.querySelector(\"button[data-square='{square}']\").getAttribute('aria-label').includes('last move');"),
            &format!("move {} ({square}) shown", index + 1),
        )
        .await;
        let score = after.score();
        assert_eq!(
            text(client, "#black-count").await,
            score.black.to_string(),
            "after {square}"
        );
        assert_eq!(
            text(client, "#white-count").await,
            score.white.to_string(),
            "after {square}"
        );
        let turn = after.turn().map_or("", othello::Color::name);
        assert_eq!(main_data(client, "turn").await, turn, "after {square}");
        if index + 1 == shot_at {
            let png = client.screenshot().await.unwrap();
            std::fs::write(shot, png).unwrap();
        }
    }
    let last = scripted_game().pop().unwrap().1;
    let score = last.score();
    assert_eq!(main_data(client, "over").await, "true");
    let winner = last.outcome().unwrap().winner();
    assert_eq!(
        main_data(client, "winner").await,
        winner.map_or("", othello::Color::name)
    );
    let status = text(client, "#status").await;
    let expected = match winner {
        Some(color) => {
            let name = if color == othello::Color::Black {
                "Black"
            } else {
                "White"
            };
            format!(
                "Game over: {name} wins, {} to {}.",
                score.black, score.white
            )
        }
        None => format!("Game over: a draw, {} to {}.", score.black, score.white),
    };
    assert_eq!(status, expected);
    let end = shot.with_file_name(
        shot.file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".png", "-end.png"),
    );
    std::fs::write(end, client.screenshot().await.unwrap()).unwrap();
}

/// A new game against the computer at level 1 from the dialog; the computer replies.
async fn the_computer_replies(client: &Client) {
    let old = script(client, "return location.hash;").await;
    click(client, "#new").await;
    click(client, "input[name='opponent'][value='computer']").await;
    click(client, "select[name='level'] option[value='1']").await;
    let size = script(
        client,
        "return [window.innerWidth, window.innerHeight].join('x');",
    )
    .await;
    let dialog = screenshots().join(format!("serve-{}-new-game.png", size.as_str().unwrap()));
    std::fs::write(dialog, client.screenshot().await.unwrap()).unwrap();
    click(client, "#new-start").await;
    until(
        client,
        &format!("return location.hash !== {old} && document.getElementById('white-name').textContent === 'Computer (level 1)';"),
        "the new game",
    )
    .await;
    tap(client, "f5").await;
    until(
        client,
        "return document.querySelectorAll('button.cell[aria-label*=\"last move\"]').length === 1 && document.querySelector('main').dataset.turn === 'black' && document.getElementById('black-count').textContent !== '4';",
        "the computer's reply",
    )
    .await;
    let counts: u32 = text(client, "#black-count").await.parse::<u32>().unwrap()
        + text(client, "#white-count").await.parse::<u32>().unwrap();
    assert_eq!(counts, 6, "two moves played");
    // A reload keeps the game.
    let hash = script(client, "return location.hash;").await;
    client.refresh().await.unwrap();
    until(
        client,
        "return document.getElementById('white-name').textContent === 'Computer (level 1)';",
        "the game after a reload",
    )
    .await;
    assert_eq!(script(client, "return location.hash;").await, hash);
    let counts: u32 = text(client, "#black-count").await.parse::<u32>().unwrap()
        + text(client, "#white-count").await.parse::<u32>().unwrap();
    assert_eq!(counts, 6, "the same game after a reload");
}

async fn no_sideways_scroll(client: &Client, width: u32) {
    let scroll = script(client, "return [document.documentElement.scrollWidth, window.innerWidth, document.getElementById('board').getBoundingClientRect().right];").await;
    let scroll_width = scroll[0].as_f64().unwrap();
    let inner = scroll[1].as_f64().unwrap();
    let board_right = scroll[2].as_f64().unwrap();
    assert!(
        inner <= f64::from(width),
        "window {inner} wide, asked for {width}"
    );
    assert!(
        scroll_width <= inner,
        "the page scrolls sideways: {scroll_width} > {inner}"
    );
    assert!(
        board_right <= inner,
        "the board overflows: {board_right} > {inner}"
    );
}

#[test]
#[ignore = "needs chromium and chromium-driver; .ci/run installs them and runs -- --ignored serve_browser"]
fn serve_browser_plays_a_whole_game_by_taps_on_a_phone_and_a_desktop() {
    let games = tempfile::tempdir().unwrap();
    let (_server, url) = start_server(games.path());
    let (_driver, driver) = start_driver();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        for (width, height, shot_at) in [(390, 844, 22), (1280, 800, 22)] {
            let profile = tempfile::tempdir().unwrap();
            let client = browser(&driver, profile.path(), width, height).await;
            let shot = screenshots().join(format!("serve-{width}x{height}.png"));
            play_the_scripted_game(&client, &url, &shot, shot_at).await;
            no_sideways_scroll(&client, width).await;
            the_computer_replies(&client).await;
            client.close().await.unwrap();
        }
        let profile = tempfile::tempdir().unwrap();
        let client = browser(&driver, profile.path(), 320, 640).await;
        client.goto(&url).await.unwrap();
        until(
            &client,
            "return document.querySelectorAll('button.cell').length === 64;",
            "the board",
        )
        .await;
        no_sideways_scroll(&client, 320).await;
        std::fs::write(
            screenshots().join("serve-320x640.png"),
            client.screenshot().await.unwrap(),
        )
        .unwrap();
        client.close().await.unwrap();
    });
}
