//! The page's files with their types, the rate limit per client, and the games' ids.

use serde_json::Value;

use axum::http::{StatusCode, header};

use super::super::api::RATE_BURST;
use super::super::game_id::GameId;
use super::{Client, error_of};

#[tokio::test]
async fn a_client_sending_too_fast_is_held_back_and_others_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let fast = [10, 0, 0, 7];
    // The burst passes (and a few more as time refills it), then the client is held back.
    let mut passed = 0;
    let (status, bytes) = loop {
        let (status, _, bytes) = client.raw("GET", "/api/nothing", None, fast).await;
        if status != StatusCode::NOT_FOUND || passed > 2 * RATE_BURST {
            break (status, bytes);
        }
        passed += 1;
    };
    assert!(passed >= RATE_BURST, "{passed}");
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let answer: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(error_of(&answer).starts_with("too many requests"));
    let (status, _, _) = client.raw("GET", "/api/nothing", None, [10, 0, 0, 8]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "another client");
}

#[tokio::test]
async fn the_page_files_are_served_with_their_types() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    for (path, content_type, contains) in [
        (
            "/",
            "text/html; charset=utf-8",
            "<script type=\"module\" src=\"app.js\">",
        ),
        (
            "/app.js",
            "text/javascript; charset=utf-8",
            "import * as server",
        ),
        (
            "/board.js",
            "text/javascript; charset=utf-8",
            "export function drawBoard",
        ),
        (
            "/api.js",
            "text/javascript; charset=utf-8",
            "export const createGame",
        ),
        ("/style.css", "text/css; charset=utf-8", ".board"),
        ("/icon.svg", "image/svg+xml", "<svg"),
        (
            "/chart.js",
            "text/javascript; charset=utf-8",
            "export function drawChart",
        ),
        ("/sw.js", "text/javascript; charset=utf-8", "caches.open"),
        (
            "/manifest.webmanifest",
            "application/manifest+json",
            "\"standalone\"",
        ),
        ("/icon-192.png", "image/png", "PNG"),
        ("/icon-512.png", "image/png", "PNG"),
        (
            "/local.js",
            "text/javascript; charset=utf-8",
            "localStorage",
        ),
        (
            "/worker.js",
            "text/javascript; charset=utf-8",
            "othello_wasm.js",
        ),
    ] {
        let (status, headers, bytes) = client.raw("GET", path, None, [127, 0, 0, 1]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CONTENT_TYPE], content_type, "{path}");
        assert!(String::from_utf8_lossy(&bytes).contains(contains), "{path}");
    }
    let (_, _, page) = client.raw("GET", "/", None, [127, 0, 0, 1]).await;
    let page = String::from_utf8(page).unwrap();
    assert!(
        !page.contains("<script>") && !page.contains("style="),
        "nothing inline"
    );
}

#[test]
fn game_ids_are_32_lower_case_hex_digits() {
    let id = GameId::random();
    assert_eq!(GameId::parse(&id.to_string()), Some(id));
    assert_ne!(GameId::random(), id);
    for bad in [
        "",
        "0123456789abcdef0123456789abcde",
        "0123456789abcdef0123456789abcdef0",
        "0123456789ABCDEF0123456789abcdef",
        "+123456789abcdef0123456789abcdef",
        "../../../../../../../etc/passwd00",
    ] {
        assert_eq!(GameId::parse(bad), None, "{bad}");
    }
}
