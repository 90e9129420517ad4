//! `othello serve` in a real browser: headless Chromium driven over `WebDriver` (chromedriver),
//! at 320x640, 390x844 (phones) and 1280x800 (a desktop): the coordinates, nothing wider than
//! the screen, a whole game against the computer by taps kept over a reload, the chart after
//! the game, the installable app (manifest, service worker), a stale link, and at 390 a whole
//! game between two people checked move by move against the rules library; last, the page
//! opened again with the server stopped, from its service worker's cache, and (with
//! `OTHELLO_WASM_DIR`, the WebAssembly build) a whole game against the computer played on the
//! device. Ignored by a plain `cargo test` (it needs
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

mod offline;

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The WebAssembly build for offline play, when `OTHELLO_WASM_DIR` names it (`.ci/run` builds
/// it); without it the offline game is left out.
fn wasm_dir() -> Option<PathBuf> {
    std::env::var_os("OTHELLO_WASM_DIR").map(PathBuf::from)
}

/// `othello serve` on a free loopback port (with `--wasm` when there is a build); the address
/// it prints.
fn start_server(games: &Path) -> (Killed, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_othello"));
    command.args(["serve", "--addr", "127.0.0.1:0"]);
    if let Some(wasm) = wasm_dir() {
        command.arg("--wasm").arg(wasm);
    }
    let mut child = command
        .arg("--games-dir")
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

/// Plays the scripted game between two people by taps and checks the page after each move; a
/// screenshot after `shot_at` moves.
async fn play_the_scripted_game(client: &Client, shot: &Path, shot_at: usize) {
    let old = script(client, "return location.hash;").await;
    click(client, "#new").await;
    click(client, "input[name='opponent'][value='people']").await;
    click(client, "#new-start").await;
    until(
        client,
        &format!("return location.hash !== {old} && document.getElementById('white-name').textContent === 'White' && document.querySelectorAll('#moves li').length === 0;"),
        "a game between two people",
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

/// The first visit: a game against the computer (as `othello play`), its level shown, the
/// coordinates around the board, the app installable (a manifest, a service worker running).
async fn the_first_visit(client: &Client, url: &str) {
    client.goto(url).await.unwrap();
    until(
        client,
        "return /^#[0-9a-f]{32}$/.test(location.hash) && document.querySelectorAll('button.cell').length === 64;",
        "a game and its board",
    )
    .await;
    assert_eq!(
        text(client, "#white-name").await.replace('\n', " "),
        "Computer (level 3)"
    );
    let labels = script(
        client,
        "return [...document.querySelectorAll('.files span, .ranks span')].map((label) => label.textContent).join('');",
    )
    .await;
    assert_eq!(labels, "abcdefgh12345678");
    let manifest = script(
        client,
        "return document.querySelector('link[rel=manifest]').getAttribute('href');",
    )
    .await;
    assert_eq!(manifest, "manifest.webmanifest");
    script(
        client,
        "navigator.serviceWorker.ready.then(() => { window.workerReady = true; }); return true;",
    )
    .await;
    until(
        client,
        "return window.workerReady === true;",
        "the service worker",
    )
    .await;
}

/// A reload once the computer has replied: the same game, the same moves.
async fn a_reload_keeps_the_game(client: &Client) {
    persons_turn(client, "the computer's reply").await;
    let (hash, moves) = (
        script(client, "return location.hash;").await,
        script(
            client,
            "return document.querySelectorAll('#moves li').length;",
        )
        .await,
    );
    client.refresh().await.unwrap();
    until(
        client,
        &format!("return location.hash === {hash} && document.querySelectorAll('#moves li').length === {moves};"),
        "the same game after a reload",
    )
    .await;
}

/// Waits until the person (black) may move or the game is over; whether it is over.
/// Taps the first legal move and waits for the move list to show it (`what` ends the message
/// of a wait that fails, as " offline").
async fn tap_a_legal_move(client: &Client, what: &str) {
    let square = script(
        client,
        "return document.querySelector(\"button.cell[aria-label*='legal move']\").dataset.square;",
    )
    .await;
    let before = script(
        client,
        "return document.querySelectorAll('#moves li').length;",
    )
    .await;
    tap(client, square.as_str().unwrap()).await;
    until(
        client,
        &format!("return document.querySelectorAll('#moves li').length > {before};"),
        &format!("{square} played{what}"),
    )
    .await;
}

async fn persons_turn(client: &Client, what: &str) -> bool {
    until(
        client,
        "const main = document.querySelector('main'); return main.dataset.over === 'true' || (main.dataset.turn === 'black' && main.dataset.thinking === 'false' && document.querySelector(\"button.cell[aria-label*='legal move']\") !== null);",
        what,
    )
    .await;
    main_data(client, "over").await == "true"
}

/// A new game against the computer at level 1 from the dialog (its buttons in sight), played to
/// the end by taps on the first legal move; after 10 of the person's moves a reload keeps the
/// game. After the game, the chart of the evaluation; a screenshot of the end.
async fn a_whole_game_against_the_computer(client: &Client, shot: &Path) {
    let old = script(client, "return location.hash;").await;
    click(client, "#new").await;
    let start_bottom = script(
        client,
        "return [document.getElementById('new-start').getBoundingClientRect().bottom, window.innerHeight];",
    )
    .await;
    assert!(
        start_bottom[0].as_f64().unwrap() <= start_bottom[1].as_f64().unwrap(),
        "the dialog's Start button below the fold: {start_bottom}"
    );
    let dialog = shot.with_file_name(
        shot.file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".png", "-new-game.png"),
    );
    std::fs::write(dialog, client.screenshot().await.unwrap()).unwrap();
    click(client, "select[name='level'] option[value='1']").await;
    click(client, "#new-start").await;
    until(
        client,
        &format!("return location.hash !== {old} && document.getElementById('white-name').textContent === 'Computer (level 1)';"),
        "the new game",
    )
    .await;
    let mut taps = 0;
    while !persons_turn(client, &format!("the person's move {}", taps + 1)).await {
        tap_a_legal_move(client, "").await;
        taps += 1;
        if taps == 10 {
            a_reload_keeps_the_game(client).await;
        }
    }
    assert!(taps >= 10, "a whole game: {taps} moves by the person");
    let status = text(client, "#status").await;
    assert!(status.starts_with("Game over: "), "{status}");
    until(
        client,
        "return document.querySelector('#chart svg path.line') !== null;",
        "the chart of the game",
    )
    .await;
    let points = script(
        client,
        "return document.querySelectorAll('#chart circle.dot').length;",
    )
    .await;
    let moves = script(
        client,
        "return document.querySelectorAll('#moves li').length;",
    )
    .await;
    assert_eq!(points, moves, "a point per move");
    std::fs::write(shot, client.screenshot().await.unwrap()).unwrap();
    script(
        client,
        "document.getElementById('chart').scrollIntoView(); return true;",
    )
    .await;
    let chart = shot.with_file_name(
        shot.file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".png", "-chart.png"),
    );
    std::fs::write(chart, client.screenshot().await.unwrap()).unwrap();
    script(client, "window.scrollTo(0, 0); return true;").await;
}

/// A link to a game the server does not have says so and offers a new game.
async fn a_stale_link(client: &Client, url: &str) {
    let stale = format!("{}#{}", url.trim_end_matches('/'), "0".repeat(32));
    client.goto("about:blank").await.unwrap();
    client.goto(&stale).await.unwrap();
    until(
        client,
        "return !document.getElementById('missing').hidden;",
        "the stale link said",
    )
    .await;
    assert!(
        text(client, "#missing-text")
            .await
            .contains("not on this server")
    );
    assert_eq!(
        script(client, "return location.hash;").await,
        json!(format!("#{}", "0".repeat(32)))
    );
    click(client, "#missing-new").await;
    until(
        client,
        "return document.getElementById('missing').hidden && document.querySelectorAll('button.cell').length === 64;",
        "the new game offered",
    )
    .await;
}

/// Nothing on the page reaches past the right edge of the screen.
async fn nothing_wider_than_the_screen(client: &Client) {
    let wide = script(
        client,
        "return [...document.querySelectorAll('body *')].filter((element) => element.getClientRects().length > 0 && element.getBoundingClientRect().right > window.innerWidth + 0.5).map((element) => element.id || element.className || element.tagName);",
    )
    .await;
    assert_eq!(wide, json!([]), "wider than the screen");
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
fn serve_browser_plays_whole_games_by_taps_on_phones_and_a_desktop() {
    let games = tempfile::tempdir().unwrap();
    let (server, url) = start_server(games.path());
    let (_driver, driver) = start_driver();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        for (width, height) in [(320, 640), (390, 844), (1280, 800)] {
            let profile = tempfile::tempdir().unwrap();
            let client = browser(&driver, profile.path(), width, height).await;
            the_first_visit(&client, &url).await;
            no_sideways_scroll(&client, width).await;
            nothing_wider_than_the_screen(&client).await;
            let shot = screenshots().join(format!("serve-{width}x{height}.png"));
            a_whole_game_against_the_computer(&client, &shot).await;
            no_sideways_scroll(&client, width).await;
            nothing_wider_than_the_screen(&client).await;
            if width == 390 {
                let scripted = screenshots().join(format!("serve-{width}x{height}-people.png"));
                play_the_scripted_game(&client, &scripted, 22).await;
                nothing_wider_than_the_screen(&client).await;
            }
            a_stale_link(&client, &url).await;
            client.close().await.unwrap();
        }
        let profile = tempfile::tempdir().unwrap();
        let client = browser(&driver, profile.path(), 390, 844).await;
        the_first_visit(&client, &url).await;
        the_page_opens_without_the_server(&client, server).await;
        if let Some(wasm) = wasm_dir() {
            offline::a_game_against_the_computer(&client).await;
            offline::the_exported_site(&client, &wasm).await;
        }
        client.close().await.unwrap();
    });
}

/// Once the service worker has kept the page's files, the page opens with the server stopped,
/// and says that the server cannot be reached.
async fn the_page_opens_without_the_server(client: &Client, server: Killed) {
    client.refresh().await.unwrap();
    until(
        client,
        "return navigator.serviceWorker.controller !== null && document.querySelectorAll('button.cell').length === 64;",
        "the page under its service worker",
    )
    .await;
    drop(server);
    client.refresh().await.unwrap();
    until(
        client,
        "return document.querySelector('.board-frame') !== null && document.getElementById('notice').textContent.includes('cannot be reached');",
        "the page from the service worker's cache",
    )
    .await;
}
