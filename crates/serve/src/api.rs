//! The HTTP routes: the page's files and the JSON API, behind the body limit and timeout, the
//! per-client rate limit, the refusal of other sites' requests and the security headers.
//!
//! | Method and path                  | Body                 | Answer                         |
//! |----------------------------------|----------------------|--------------------------------|
//! | `POST /api/games`                | the new game's settings | 201, the game              |
//! | `GET /api/games/{id}`            |                      | the game                       |
//! | `POST /api/games/{id}/play`      | `{"square": "d3"}`   | the game after the move        |
//! | `POST /api/games/{id}/pass`      | `{}` or none         | 409: the library passes by itself |
//! | `POST /api/games/{id}/undo`      | `{}` or none         | the game after the undo        |
//! | `POST /api/games/{id}/hint`      | `{}` or none         | `{"square", "score", "exact", "depth", "text"}` |
//! | `POST /api/games/{id}/computer`  | `{}` or none         | the game after the computer's move |
//! | `GET /api/games/{id}/ggf`        |                      | the record, as a download      |
//!
//! Errors are `{"error": "message"}` with the status: 400 a malformed request, 404 no such
//! game, 403 a request from another site, 409 a move the game refuses, 413 a body over the
//! limit, 415 a body that is not JSON, 429 too many requests (or games) from one address, 500 a
//! failure of the database, 503 the computer's queue (or the address's share of it) is full,
//! with `Retry-After`, 507 the disk or the storage limit is full. A move that is not saved is not played: the game
//! stays as it was.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tower_governor::GovernorLayer;
use tower_governor::governor::GovernorConfigBuilder;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;

use othello::notation::parse_square;
use othello_session::hint::Suggestion;

mod analysis;

use super::assets;
use super::cross_site::refuse_cross_site;
use super::database::StoreError;
use super::game::{Hosted, NewGame, Refusal};
use super::game_id::GameId;
use super::pool::{Pool, PoolError};
use super::store::{Entry, LoadError, Store};

/// The largest request body accepted, in bytes.
pub const BODY_LIMIT: usize = 4096;

/// The time a client has to send a request's body.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The seconds a client told that the computer is busy is asked to wait.
const RETRY_AFTER_SECONDS: u32 = 5;

/// Requests a client may make in a burst, and how often one more is allowed after it.
pub const RATE_BURST: u32 = 120;
/// One request more every this many milliseconds (20 a second).
pub const RATE_PERIOD_MS: u64 = 50;

/// The page may load its own files (and compile its own WebAssembly) and talk to its own server,
/// nothing else, and no one may frame it.
const CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; \
                   connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; \
                   frame-ancestors 'none'";

/// What every handler shares.
pub struct Server {
    /// The games.
    pub store: Arc<Store>,
    /// The computer's searches.
    pub pool: Pool,
}

/// The application: every route and layer, with the routes of the WebAssembly build when
/// given (under the same layers: security headers, rate limit). The rate limit keys on the
/// client's address, so the router must be served with
/// `into_make_service_with_connect_info::<SocketAddr>()` (tests insert `ConnectInfo`
/// themselves).
pub fn router(server: Arc<Server>, wasm: Option<assets::WasmBuild>) -> Router {
    let governor = GovernorConfigBuilder::default()
        .per_millisecond(RATE_PERIOD_MS)
        .burst_size(RATE_BURST)
        .finish()
        .expect("a positive period and burst");
    let limiter = Arc::clone(governor.limiter());
    // Forget idle clients now and then, so that the limiter's memory stays bounded.
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(async move {
            let mut every = tokio::time::interval(Duration::from_secs(60));
            loop {
                every.tick().await;
                limiter.retain_recent();
            }
        });
    }
    let api = Router::new()
        .route("/games", post(create))
        .route("/games/{id}", get(read))
        .route("/games/{id}/play", post(play))
        .route("/games/{id}/pass", post(pass))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/hint", post(hint))
        .route("/games/{id}/computer", post(computer))
        .route("/games/{id}/ggf", get(download))
        .route("/games/{id}/analysis", get(analysis::analysis))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such API route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this route does not take that method",
            )
        })
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(axum::middleware::from_fn(refuse_cross_site))
        .with_state(server);
    let mut pages = assets::routes();
    if let Some(wasm) = wasm {
        pages = pages.merge(wasm.routes());
    }
    Router::new()
        .nest("/api", api)
        .merge(pages)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(RequestBodyTimeoutLayer::new(BODY_TIMEOUT))
        .layer(GovernorLayer::new(governor).error_handler(|error| {
            let (status, message) = match error {
                tower_governor::GovernorError::TooManyRequests { wait_time, .. } => (
                    StatusCode::TOO_MANY_REQUESTS,
                    format!("too many requests: wait {wait_time} s"),
                ),
                _ => (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "cannot tell who is asking".to_owned(),
                ),
            };
            ApiError::new(status, message).into_response()
        }))
        .layer(security_header(header::CONTENT_SECURITY_POLICY, CSP))
        .layer(security_header(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(security_header(header::X_FRAME_OPTIONS, "DENY"))
        .layer(security_header(header::REFERRER_POLICY, "no-referrer"))
}

fn security_header(
    name: header::HeaderName,
    value: &'static str,
) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value))
}

/// An error as the API answers it: the status and `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// Seconds to wait before asking again (`Retry-After`), if the answer says.
    retry_after: Option<u32>,
}

impl ApiError {
    /// An error of `status` saying `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The error, asking the client to wait `seconds` before asking again.
    fn retry_after(mut self, seconds: u32) -> ApiError {
        self.retry_after = Some(seconds);
        self
    }

    fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(ErrorBody {
                error: &self.message,
            }),
        )
            .into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, refusal.message())
    }
}

impl From<LoadError> for ApiError {
    fn from(error: LoadError) -> ApiError {
        match error {
            LoadError::Missing => ApiError::new(StatusCode::NOT_FOUND, "no such game"),
            LoadError::Unreadable(message) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the saved game cannot be read: {message}"),
            ),
        }
    }
}

impl From<PoolError> for ApiError {
    fn from(error: PoolError) -> ApiError {
        match error {
            PoolError::Busy => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the computer is busy with other games: try again in a moment",
            )
            .retry_after(RETRY_AFTER_SECONDS),
            PoolError::AddressBusy => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the computer already has this address's share of searches waiting: \
                 try again in a moment",
            )
            .retry_after(RETRY_AFTER_SECONDS),
            PoolError::Stopped => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is shutting down",
            ),
            PoolError::Cancelled => ApiError::new(StatusCode::CONFLICT, "the search was cancelled"),
            PoolError::Engine(error) => ApiError::new(StatusCode::CONFLICT, error.to_string()),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::Full(message) => ApiError::new(
                StatusCode::INSUFFICIENT_STORAGE,
                format!("the server's storage is full, so nothing was saved or changed: {message}"),
            ),
            StoreError::TooManyGames(most) => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("this address already has {most} saved games, the most one address keeps"),
            ),
            StoreError::Missing => ApiError::new(StatusCode::NOT_FOUND, "no such game"),
            StoreError::Failed(message) => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the game cannot be saved, so nothing was changed: {message}"),
            ),
        }
    }
}

/// Saves `next` as the game `id` and, once it is durable, puts it in place of `game`: a move
/// that is not saved is not played.
async fn save(
    server: &Server,
    id: GameId,
    game: &mut Hosted,
    next: Hosted,
) -> Result<(), ApiError> {
    server.store.save(id, &next).await?;
    *game = next;
    Ok(())
}

/// A JSON body parsed strictly (unknown fields refused); an empty body reads as `{}`.
struct Strict<T>(T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Strict<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| {
                let status = rejection.status();
                if status == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        status,
                        format!("the request body is over {BODY_LIMIT} bytes"),
                    )
                } else {
                    ApiError::new(status, rejection.body_text())
                }
            })?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(text)
            .map(Strict)
            .map_err(|error| ApiError::bad_request(format!("bad request body: {error}")))
    }
}

/// A body with nothing in it: `{}` or none.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

/// The body of a move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Move {
    square: String,
}

/// The game of the path's id.
async fn entry(server: &Server, id: &str) -> Result<(GameId, Arc<Entry>), ApiError> {
    let id = GameId::parse(id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no such game: a game id is 32 hexadecimal digits",
        )
    })?;
    Ok((id, server.store.get(id).await?))
}

/// The game as the page sees it.
fn answer(id: GameId, entry: &Entry, game: &Hosted) -> Response {
    Json(game.view(&id.to_string(), entry.thinking())).into_response()
}

async fn create(
    State(server): State<Arc<Server>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Strict(settings): Strict<NewGame>,
) -> Result<Response, ApiError> {
    let game = settings.build().map_err(ApiError::bad_request)?;
    let owner = client.ip().to_canonical().to_string();
    let (id, entry) = server.store.create(game, owner).await?;
    let game = entry.game.lock().await;
    let mut response = answer(id, &entry, &game);
    *response.status_mut() = StatusCode::CREATED;
    if let Ok(location) = HeaderValue::from_str(&format!("/api/games/{id}")) {
        response.headers_mut().insert(header::LOCATION, location);
    }
    Ok(response)
}

async fn read(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (id, entry) = entry(&server, &id).await?;
    let game = entry.game.lock().await;
    Ok(answer(id, &entry, &game))
}

async fn play(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    Strict(body): Strict<Move>,
) -> Result<Response, ApiError> {
    let (id, entry) = entry(&server, &id).await?;
    let mut game = entry.game.lock().await;
    let dims = game.game().board().dims();
    let square = parse_square(&body.square, dims)
        .map_err(|error| ApiError::bad_request(error.to_string()))?;
    let mut next = game.clone();
    next.play_person(square)?;
    save(&server, id, &mut game, next).await?;
    Ok(answer(id, &entry, &game))
}

async fn pass(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    Strict(Nothing {}): Strict<Nothing>,
) -> Result<Response, ApiError> {
    let (_, entry) = entry(&server, &id).await?;
    let game = entry.game.lock().await;
    Err(game.pass().into())
}

async fn undo(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    Strict(Nothing {}): Strict<Nothing>,
) -> Result<Response, ApiError> {
    let (id, entry) = entry(&server, &id).await?;
    // A search on the position being taken back is of no more use.
    if let Some((_, stop)) = entry.search.lock().expect("no panic while held").take() {
        stop.store(true, Ordering::Relaxed);
    }
    let mut game = entry.game.lock().await;
    let mut next = game.clone();
    next.undo()?;
    save(&server, id, &mut game, next).await?;
    Ok(answer(id, &entry, &game))
}

/// The hint's answer.
#[derive(Serialize)]
struct Hint {
    /// The best move.
    square: String,
    /// Its value for the player to move, in discs.
    score: i32,
    /// Whether the value is exact (perfect play to the end).
    exact: bool,
    /// Plies searched.
    depth: u32,
    /// The hint in words, as the terminal game says it: `Hint: d3: +2 discs for you (8 moves
    /// ahead).`
    text: String,
}

async fn hint(
    State(server): State<Arc<Server>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    Strict(Nothing {}): Strict<Nothing>,
) -> Result<Response, ApiError> {
    let (_, entry) = entry(&server, &id).await?;
    let position = entry.game.lock().await.game().clone();
    if position.is_over() {
        return Err(Refusal::Over.into());
    }
    let report = server
        .pool
        .hint(client.ip().to_canonical(), position)
        .await?;
    Ok(Json(Hint {
        square: report.best_move.to_string(),
        score: report.score,
        exact: report.exact,
        depth: report.depth,
        text: Suggestion::of(&report).sentence(),
    })
    .into_response())
}

async fn computer(
    State(server): State<Arc<Server>>,
    ConnectInfo(client): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    Strict(Nothing {}): Strict<Nothing>,
) -> Result<Response, ApiError> {
    let (id, entry) = entry(&server, &id).await?;
    let (position, level, version) = {
        let game = entry.game.lock().await;
        (
            game.game().clone(),
            game.computer_to_move()?,
            game.version(),
        )
    };
    let token: u64 = rand::random();
    let stop = Arc::new(AtomicBool::new(false));
    let earlier = entry
        .search
        .lock()
        .expect("no panic while held")
        .replace((token, Arc::clone(&stop)));
    if let Some((_, earlier)) = earlier {
        // The page asked again (a reload): one search per game.
        earlier.store(true, Ordering::Relaxed);
    }
    let finished = SearchDone {
        entry: &entry,
        token,
    };
    let square = server
        .pool
        .choose(client.ip().to_canonical(), position, level, stop)
        .await;
    drop(finished);
    let square = match square {
        Ok(square) => Some(square),
        Err(PoolError::Cancelled) => None,
        Err(error) => return Err(error.into()),
    };
    let mut game = entry.game.lock().await;
    if let Some(square) = square
        && game.version() == version
    {
        let mut next = game.clone();
        next.play_computer(square)?;
        save(&server, id, &mut game, next).await?;
    }
    // Otherwise the position changed meanwhile (an undo), or the page asked again: the move
    // is not played, and the page sees the game as it now is.
    Ok(answer(id, &entry, &game))
}

/// Clears the game's search mark when the search ends or its request goes, unless another
/// search has taken its place.
struct SearchDone<'a> {
    entry: &'a Entry,
    token: u64,
}

impl Drop for SearchDone<'_> {
    fn drop(&mut self) {
        let mut search = self.entry.search.lock().expect("no panic while held");
        if search
            .as_ref()
            .is_some_and(|(token, _)| *token == self.token)
        {
            *search = None;
        }
    }
}

async fn download(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let (id, entry) = entry(&server, &id).await?;
    let game = entry.game.lock().await;
    let bytes = othello_records::write(
        &[game.record(Some(super::store::today()))],
        othello_records::Format::Ggf,
    )
    .map_err(|error| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, error.to_string()))?;
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"othello-{id}.ggf\""),
            ),
        ],
        bytes,
    )
        .into_response())
}
