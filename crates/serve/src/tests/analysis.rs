//! The chart's evaluations run on the search pool: refused with 503 while the pool's queue is
//! full, answered once it has room.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use serde_json::Value;
use tower::ServiceExt;

use othello::{Dimensions, Game, RuleSet, Setup};
use othello_engine::computer::Level;

use super::LIMITS;
use crate::api::{self, Server};
use crate::pool::Pool;
use crate::store::Store;

/// The status, `Retry-After` and JSON answer of one request.
async fn request(app: &Router, method: &str, path: &str) -> (StatusCode, Option<String>, Value) {
    let mut request = Request::builder().method(method).uri(path);
    if method == "POST" {
        request = request.header(header::CONTENT_TYPE, "application/json");
    }
    let body = if method == "POST" {
        Body::from("{}")
    } else {
        Body::empty()
    };
    let mut request = request.body(body).unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let retry = response
        .headers()
        .get(header::RETRY_AFTER)
        .map(|value| value.to_str().unwrap().to_owned());
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
        .await
        .unwrap();
    (status, retry, serde_json::from_slice(&bytes).unwrap())
}

#[tokio::test]
async fn the_analysis_waits_in_the_search_queue_and_is_refused_when_it_is_full() {
    let dir = tempfile::tempdir().unwrap();
    // One search thread, one place in the queue.
    let server = Arc::new(Server {
        store: Arc::new(Store::open(dir.path(), 10, LIMITS).await.unwrap()),
        pool: Pool::new(1, 1, 8),
    });
    let app = api::router(Arc::clone(&server), None);
    let (status, _, game) = request(&app, "POST", "/api/games").await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let path = format!("/api/games/{}/analysis", game["id"].as_str().unwrap());

    // Another address's long search runs, and one more waits: the queue is full.
    let other = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2));
    let big = Game::new(
        Setup::standard(Dimensions::new(16, 16).unwrap()),
        RuleSet::Full,
    );
    let stop = Arc::new(AtomicBool::new(false));
    let running = tokio::spawn({
        let (server, big, stop) = (Arc::clone(&server), big.clone(), Arc::clone(&stop));
        async move { server.pool.choose(other, big, Level::MAX, stop).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let waiting = tokio::spawn({
        let (server, stop) = (Arc::clone(&server), Arc::clone(&stop));
        async move { server.pool.choose(other, big, Level::MAX, stop).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let (status, retry, answer) = request(&app, "GET", &path).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer}");
    assert!(retry.is_some(), "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("busy"),
        "{answer}"
    );

    // The searches end: the analysis is answered.
    stop.store(true, Ordering::Relaxed);
    let _ = running.await;
    let _ = waiting.await;
    let (status, _, answer) = request(&app, "GET", &path).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["points"], serde_json::json!([]), "{answer}");
}
