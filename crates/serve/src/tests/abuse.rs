//! A server that holds under abuse, on loopback sockets: a slow head is cut off, connections
//! are capped overall and per address, and other sites' requests are refused.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::oneshot;

use super::super::api;
use super::super::connections::{self, ConnectionLimits};
use super::{Client, error_of};

/// A server on a loopback port with `limits`, and what stops it.
async fn listening(
    client: &Client,
    limits: ConnectionLimits,
) -> (SocketAddr, oneshot::Sender<()>, tokio::task::JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = api::router(Arc::clone(&client.server), None);
    let (stop, stopped) = oneshot::channel::<()>();
    let served = tokio::spawn(async move {
        connections::serve(listener, app, limits, async {
            let _ = stopped.await;
        })
        .await
        .unwrap();
    });
    (addr, stop, served)
}

/// A connection to `addr` from the loopback address `from`.
async fn connect_from(from: [u8; 4], addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket
        .bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::from(from)), 0))
        .unwrap();
    socket.connect(addr).await.unwrap()
}

/// Whether the server closes `stream` within `within` (reads nothing more, or an error).
async fn closed_within(stream: &mut TcpStream, within: Duration) -> bool {
    let mut bytes = [0; 256];
    loop {
        match tokio::time::timeout(within, stream.read(&mut bytes)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

/// The status line of the answer to a GET of `path` on `stream`.
async fn get(stream: &mut TcpStream, path: &str) -> String {
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut bytes = vec![0; 4096];
    let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut bytes))
        .await
        .expect("an answer")
        .unwrap();
    let text = String::from_utf8_lossy(&bytes[..read]).into_owned();
    text.lines().next().unwrap_or_default().to_owned()
}

const LIMITS: ConnectionLimits = ConnectionLimits {
    header_timeout: Duration::from_millis(500),
    total: 8,
    per_address: 4,
};

#[tokio::test]
async fn a_head_sent_a_line_at_a_time_is_cut_off_and_does_not_hold_the_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let (addr, stop, served) = listening(&client, LIMITS).await;
    let mut slow = connect_from([127, 0, 0, 1], addr).await;
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let start = Instant::now();
    let mut cut = false;
    for line in 0..20 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let header = format!("X-Slow-{line}: still coming\r\n");
        if slow.write_all(header.as_bytes()).await.is_err() || slow.flush().await.is_err() {
            cut = true;
            break;
        }
        if start.elapsed() > Duration::from_secs(1)
            && closed_within(&mut slow, Duration::from_millis(300)).await
        {
            cut = true;
            break;
        }
    }
    assert!(cut, "a head still coming after 4 s is cut off");
    // An idle kept-alive connection is closed too, and the server stops at once.
    let mut idle = connect_from([127, 0, 0, 1], addr).await;
    assert_eq!(
        get(&mut idle, "/api/nothing").await,
        "HTTP/1.1 404 Not Found"
    );
    assert!(closed_within(&mut idle, Duration::from_secs(3)).await);
    let _open = connect_from([127, 0, 0, 1], addr).await;
    stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(3), served)
        .await
        .expect("the server stops")
        .unwrap();
}

#[tokio::test]
async fn connections_are_capped_per_address_and_in_all() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let limits = ConnectionLimits {
        header_timeout: Duration::from_secs(20),
        ..LIMITS
    };
    let (addr, stop, _served) = listening(&client, limits).await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from([127, 0, 0, 1], addr).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut over = connect_from([127, 0, 0, 1], addr).await;
    assert!(
        closed_within(&mut over, Duration::from_secs(2)).await,
        "one address's fifth"
    );
    // Another address is answered.
    let mut other = connect_from([127, 0, 0, 2], addr).await;
    assert_eq!(
        get(&mut other, "/api/nothing").await,
        "HTTP/1.1 404 Not Found"
    );
    // Eight open in all: the next, from any address, is closed.
    for _ in 0..3 {
        held.push(connect_from([127, 0, 0, 3], addr).await);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut ninth = connect_from([127, 0, 0, 4], addr).await;
    assert!(
        closed_within(&mut ninth, Duration::from_secs(2)).await,
        "the ninth in all"
    );
    // A connection closed frees its place.
    held.truncate(3);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut again = connect_from([127, 0, 0, 1], addr).await;
    assert_eq!(
        get(&mut again, "/api/nothing").await,
        "HTTP/1.1 404 Not Found"
    );
    stop.send(()).unwrap();
}

#[tokio::test]
async fn requests_from_other_sites_and_bodies_not_json_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let client = Client::new(dir.path()).await;
    let (addr, stop, _served) = listening(&client, LIMITS).await;
    let host = addr.to_string();
    let cases = [
        ("http://evil.example", "application/json", "403 Forbidden"),
        ("null", "application/json", "403 Forbidden"),
        (
            &*format!("http://{host}"),
            "text/plain",
            "415 Unsupported Media Type",
        ),
        (
            &*format!("http://{host}"),
            "application/x-www-form-urlencoded",
            "415 Unsupported Media Type",
        ),
        ("", "text/plain", "415 Unsupported Media Type"),
        (
            &*format!("http://{host}"),
            "application/json",
            "201 Created",
        ),
        ("", "application/json", "201 Created"),
    ];
    for (origin, content_type, status) in cases {
        let mut stream = connect_from([127, 0, 0, 1], addr).await;
        let origin_line = if origin.is_empty() {
            String::new()
        } else {
            format!("Origin: {origin}\r\n")
        };
        let request = format!(
            "POST /api/games HTTP/1.1\r\nHost: {host}\r\n{origin_line}Content-Type: {content_type}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut answer = String::new();
        tokio::time::timeout(Duration::from_secs(5), stream.read_to_string(&mut answer))
            .await
            .expect("an answer")
            .unwrap();
        assert!(
            answer.starts_with(&format!("HTTP/1.1 {status}")),
            "{origin} {content_type}: {answer}"
        );
    }
    assert_eq!(
        client.server.store.saved_games(),
        Ok(2),
        "only the two from this site"
    );
    // Without a socket too: a foreign origin's move is refused and not played.
    let game = client.create(json!({})).await;
    let (status, answer) = client
        .call_with(
            "POST",
            &format!("/api/games/{}/play", game["id"].as_str().unwrap()),
            r#"{"square": "d3"}"#,
            &[
                ("origin", "http://evil.example"),
                ("host", "127.0.0.1:8080"),
            ],
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert!(error_of(&answer).starts_with("requests from another site are refused"));
    stop.send(()).unwrap();
}
