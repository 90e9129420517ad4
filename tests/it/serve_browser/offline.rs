//! The page with the server stopped: a whole game against the computer on the device (the
//! WebAssembly build in a Web Worker), and the same from the page exported as static files (a
//! plain static host, no API); run when `OTHELLO_WASM_DIR` names the build.

use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::Client;

use super::{Killed, click, persons_turn, screenshots, script, tap_a_legal_move, text, until};

/// With the server stopped, a new game against the computer (the dialog's default) is played on
/// the device, by the WebAssembly build in a Web Worker, to its end; its chart is drawn.
pub(super) async fn a_game_against_the_computer(client: &Client) {
    click(client, "#new").await;
    script(
        client,
        "document.querySelector(\"select[name='level']\").value = '1'; return true;",
    )
    .await;
    click(client, "#new-start").await;
    until(
        client,
        "return /^#local-[0-9a-f]{16}$/.test(location.hash) && document.querySelectorAll('button.cell').length === 64 && document.getElementById('notice').textContent.includes('played on this device');",
        "a game on the device",
    )
    .await;
    let mut taps = 0;
    while !persons_turn(client, &format!("the person's move {} offline", taps + 1)).await {
        tap_a_legal_move(client, " offline").await;
        taps += 1;
    }
    assert!(
        taps >= 10,
        "a whole game offline: {taps} moves by the person"
    );
    let status = text(client, "#status").await;
    assert!(status.starts_with("Game over: "), "{status}");
    until(
        client,
        "return document.querySelector('#chart svg path.line') !== null;",
        "the chart of the offline game",
    )
    .await;
    std::fs::write(
        screenshots().join("serve-390x844-offline.png"),
        client.screenshot().await.unwrap(),
    )
    .unwrap();
}

/// The page written by `othello serve --wasm DIR --export SITE`, served by a plain static host
/// (Python's `http.server`, which answers the API's POST with 501) under a path of its own
/// (`/othello/`, as a project's pages are served): the first visit and a new game are played on
/// the device.
pub(super) async fn the_exported_site(client: &Client, wasm: &Path) {
    let site = tempfile::tempdir().unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["serve", "--wasm"])
        .arg(wasm)
        .arg("--export")
        .arg(site.path().join("othello"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "the export");
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _host = Killed(
        Command::new("python3")
            .args([
                "-m",
                "http.server",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
            ])
            .current_dir(site.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 -m http.server starts"),
    );
    let url = format!("http://127.0.0.1:{port}/othello/");
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the static host starts"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    client.goto(&url).await.unwrap();
    until(
        client,
        "return /^#local-[0-9a-f]{16}$/.test(location.hash) && document.querySelectorAll('button.cell').length === 64;",
        "the first game on the device, from the exported site",
    )
    .await;
    a_game_against_the_computer(client).await;
}
