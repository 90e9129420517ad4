//! The API without a socket: every route and error through `tower::ServiceExt::oneshot`.
//! Here the client the tests share; the games' routes in `games`, the page's files and the
//! rate limit in `page`, hostile clients in `abuse`, the queue in `pool`, the disk in `store`.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use tower::ServiceExt;

use super::api::{self, Server};
use super::database::Limits;
use super::pool::Pool;
use super::store::Store;

mod abuse;
mod analysis;
mod games;
mod page;
mod pool;
mod store;
mod wasm;

/// The limits of the tests' servers: those of `othello serve`'s defaults.
const LIMITS: Limits = Limits {
    games_per_owner: 1000,
    storage_bytes: 1 << 30,
    max_pages: None,
};

/// A server on a data directory, called without a socket.
struct Client {
    app: Router,
    server: Arc<Server>,
}

impl Client {
    async fn new(dir: &Path) -> Client {
        Client::with_capacity(dir, 100).await
    }

    async fn with_capacity(dir: &Path, capacity: usize) -> Client {
        Client::with_limits(dir, capacity, LIMITS).await
    }

    async fn with_limits(dir: &Path, capacity: usize, limits: Limits) -> Client {
        let server = Arc::new(Server {
            store: Arc::new(Store::open(dir, capacity, limits).await.unwrap()),
            pool: Pool::new(2, 8, 8),
        });
        Client {
            app: api::router(Arc::clone(&server), None),
            server,
        }
    }

    /// The status, headers and body of one request from `client`.
    async fn raw(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        client: [u8; 4],
    ) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
        let mut request = Request::builder().method(method).uri(path);
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let mut request = request
            .body(body.map_or_else(Body::empty, |text| Body::from(text.to_owned())))
            .unwrap();
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from((client, 40000))));
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, headers, bytes.to_vec())
    }

    /// The status and JSON answer of a request with a JSON body and more `headers`.
    async fn call_with(
        &self,
        method: &str,
        path: &str,
        body: &str,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value) {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::CONTENT_TYPE, "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let mut request = request.body(Body::from(body.to_owned())).unwrap();
        request
            .extensions_mut()
            .insert(ConnectInfo(SocketAddr::from(([127, 0, 0, 1], 40000))));
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap();
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    /// The status and JSON answer of one request.
    async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let text = body.map(|body| body.to_string());
        let (status, headers, bytes) = self
            .raw(method, path, text.as_deref(), [127, 0, 0, 1])
            .await;
        assert_eq!(
            headers[header::CONTENT_TYPE],
            "application/json",
            "{method} {path}"
        );
        (status, serde_json::from_slice(&bytes).unwrap())
    }

    async fn create(&self, settings: Value) -> Value {
        let (status, game) = self.call("POST", "/api/games", Some(settings)).await;
        assert_eq!(status, StatusCode::CREATED, "{game}");
        game
    }

    async fn post(&self, id: &Value, action: &str, body: Value) -> (StatusCode, Value) {
        let path = format!("/api/games/{}/{action}", id.as_str().unwrap());
        self.call("POST", &path, Some(body)).await
    }

    async fn play(&self, game: &Value, square: &str) -> Value {
        let (status, answer) = self
            .post(&game["id"], "play", json!({ "square": square }))
            .await;
        assert_eq!(status, StatusCode::OK, "{square}: {answer}");
        answer
    }
}

fn error_of(answer: &Value) -> &str {
    answer["error"].as_str().expect("an error message")
}
