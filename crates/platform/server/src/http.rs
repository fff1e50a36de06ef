//! The HTTP and WebSocket API (JSON), mounted under `/api`: `/api/systems`, and each rule
//! system's games under `/api/{system}/games/...` (the first system registered also under
//! `/api/games/...`, the routes of the days when the server hosted ONUS! only).
//!
//! Every refusal is an [`ApiError`] body with a matching status; extractor rejections
//! (oversized or malformed bodies, bad query strings) are turned into the same shape, so a
//! client never has to parse axum's plain-text errors.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::{Instant, MissedTickBehavior};

use axum::Extension;
use axum::body::Bytes;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::sync::mpsc;

use crate::error::{ApiError, QueryError};
use crate::game::TakebackAsk;
use crate::host::{ActionOf, Host};
use crate::net::ClientAddr;
use crate::rate::CreationPace;
use crate::server::{CreateGame, GameServer, Limits};
use crate::system::{HostedSystem, SystemSummary};

type Shared<H> = Arc<GameServer<H>>;

/// A JSON request body whose rejections (not declared JSON, too large, not JSON, wrong shape)
/// are [`ApiError`]s.
///
/// The body must come with `Content-Type: application/json` (or `application/...+json`):
/// a browser sends a cross-site `text/plain` or form POST without asking the server first,
/// but never a JSON one, so requiring it keeps another site from acting through a
/// visitor's browser (creating games, playing with a token it learned).
pub struct JsonBody<T>(pub T);

/// Whether a `Content-Type` value declares JSON (parameters such as `charset` allowed).
fn declares_json(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    essence == "application/json"
        || essence
            .strip_prefix("application/")
            .is_some_and(|sub| sub.ends_with("+json"))
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let content_type = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        if !declares_json(content_type) {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
                format!(
                    "send the body as JSON with Content-Type: application/json (got {:?})",
                    content_type.chars().take(100).collect::<String>()
                ),
            ));
        }
        let deadline = req.extensions().get::<BodyDeadline>().map(|d| d.0);
        let read = Bytes::from_request(req, state);
        let read = match deadline {
            Some(limit) => tokio::time::timeout(limit, read).await.map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "timeout",
                    format!("the request body did not arrive within {limit:?}"),
                )
            })?,
            None => read.await,
        };
        let bytes = read.map_err(|rejection| {
            let status = rejection.status();
            let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
                "too_large"
            } else {
                "bad_request"
            };
            ApiError::new(status, code, rejection.body_text())
        })?;
        serde_json::from_slice(&bytes).map(JsonBody).map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed",
                format!("malformed JSON: {e}"),
            )
        })
    }
}

/// How long a [`JsonBody`] may take to arrive ([`crate::Limits::body_read_timeout`]), set on
/// every API request by [`api_router`].
#[derive(Clone, Copy, Debug)]
struct BodyDeadline(Duration);

fn path_id(path: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    path.map(|Path(id)| id)
        .map_err(|r| ApiError::bad_request(r.body_text()))
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t)
        .map_err(|r| ApiError::bad_request(r.body_text()))
}

/// An empty `token=` is the same as none.
fn token(t: Option<String>) -> Option<String> {
    t.filter(|t| !t.is_empty())
}

fn json_text(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

#[derive(Deserialize)]
struct ReplayQuery {
    token: Option<String>,
    /// The step to show (0: before any action); without it, the list of steps.
    step: Option<u64>,
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
    since: Option<u64>,
    /// The last chat message the client has: the `sync` carries those after it.
    chat: Option<u64>,
}

#[derive(Deserialize)]
struct ListQueryParams {
    /// Comma-separated seat tokens: "my games".
    tokens: Option<String>,
    limit: Option<u32>,
}

/// `POST /api/games/{id}/actions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActionRequest<A> {
    token: String,
    version: u64,
    action: A,
}

/// `POST /api/games/{id}/takeback`: the token's seat takes its last move back.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakebackRequest {
    token: String,
    version: u64,
}

/// `POST /api/games/{id}/takeback/answer`: the other seat accepts or declines.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TakebackAnswer {
    token: String,
    accept: bool,
}

/// `POST /api/games/{id}/chat`: a message of the token's seat.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChatRequest {
    #[serde(default)]
    token: Option<String>,
    text: String,
}

/// `POST /api/my-games`: the seat tokens this client holds.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MyGamesRequest {
    tokens: Vec<String>,
}

/// `POST /api/games/{id}/query`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryRequest {
    #[serde(default)]
    token: Option<String>,
    query: serde_json::Value,
}

/// An action sent over the WebSocket (the seat comes from the connection's token).
#[derive(Deserialize)]
struct WsAction<A> {
    version: u64,
    action: A,
}

/// One system's game routes (mounted at `/api/{system}`, and at `/api` for the first one).
pub(crate) fn game_routes<H: Host>(server: Shared<H>) -> Router {
    Router::new()
        .route("/games", get(list_games::<H>).post(create_game::<H>))
        .route("/games/{id}/view", get(view::<H>))
        .route("/games/{id}/actions", post(act::<H>))
        .route("/games/{id}/ws", get(websocket::<H>))
        .route("/games/{id}/replay", get(replay::<H>))
        .route("/games/{id}/query", post(query_game::<H>))
        .route("/games/{id}/takeback", post(takeback::<H>))
        .route("/games/{id}/takeback/answer", post(takeback_answer::<H>))
        .route("/games/{id}/chat", get(chat_log::<H>).post(chat_post::<H>))
        .with_state(server)
}

/// The API routes (to be nested under `/api`): the systems' list, each system's routes
/// under its id, the first system's game routes at the top as well, and `extra` (paths
/// relative to `/api`, which must not repeat these).
pub fn api_router(
    systems: &[Arc<dyn HostedSystem>],
    extra: Option<Router>,
    limits: Limits,
) -> Router {
    let list: Vec<SystemSummary> = systems.iter().map(|s| s.info().into()).collect();
    let every: Arc<[Arc<dyn HostedSystem>]> = systems.into();
    let max_tokens = limits.max_tokens;
    let mut api = Router::new()
        .route("/systems", get(move || async move { Json(list) }))
        .route(
            "/my-games",
            post(move |body| my_games(every.clone(), max_tokens, body)),
        )
        .route("/echo", post(echo));
    for system in systems {
        let routes = system.clone().game_routes().merge(system.own_routes());
        api = api.nest(&format!("/{}", system.info().id), routes);
    }
    if let Some(first) = systems.first() {
        api = api.merge(first.clone().game_routes());
    }
    if let Some(extra) = extra {
        api = api.merge(extra);
    }
    api.fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limits.max_body_bytes))
        .layer(Extension(BodyDeadline(limits.body_read_timeout)))
        .layer(Extension(Arc::new(CreationPace::new(&limits))))
}

/// The whole application: the API under `/api` (see [`api_router`]), and `ui` (the web
/// client, when there is one) for every other path.
pub fn app(
    systems: &[Arc<dyn HostedSystem>],
    ui: Option<Router>,
    api: Option<Router>,
    limits: Limits,
) -> Router {
    let app = Router::new().nest("/api", api_router(systems, api, limits));
    match ui {
        // As a fallback, the UI cannot shadow an API path.
        Some(ui) => app.fallback_service(ui),
        None => app,
    }
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such API endpoint")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "method not allowed here",
    )
}

/// A trivial endpoint with the same body handling as the game endpoints: the load test's
/// baseline, and a liveness probe.
async fn echo(JsonBody(body): JsonBody<serde_json::Value>) -> Json<serde_json::Value> {
    Json(body)
}

/// `POST /api/my-games`: the games of every system in which the tokens hold seats, with who
/// may act in each; the games where it is one of those seats' move first, then the newest.
async fn my_games(
    systems: Arc<[Arc<dyn HostedSystem>]>,
    max_tokens: usize,
    JsonBody(request): JsonBody<MyGamesRequest>,
) -> Result<Response, ApiError> {
    let mut tokens: Vec<String> = request
        .tokens
        .into_iter()
        .filter(|t| !t.is_empty())
        .collect();
    tokens.sort_unstable();
    tokens.dedup();
    if tokens.len() > max_tokens {
        return Err(ApiError::bad_request(format!(
            "at most {max_tokens} tokens per request"
        )));
    }
    let mut games = Vec::new();
    for system in systems.iter() {
        games.extend(system.my_games(tokens.clone()).await?);
    }
    games.sort_by(|a, b| {
        b.my_move
            .cmp(&a.my_move)
            .then(b.summary.created_at.cmp(&a.summary.created_at))
            .then_with(|| a.summary.game_id.cmp(&b.summary.game_id))
    });
    Ok(Json(serde_json::json!({ "games": games })).into_response())
}

async fn list_games<H: Host>(
    State(server): State<Shared<H>>,
    q: Result<Query<ListQueryParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let tokens: Vec<String> = q
        .tokens
        .as_deref()
        .unwrap_or("")
        .split(',')
        .filter(|t| !t.is_empty())
        // One past the limit is enough for `list_games` to refuse: no more are copied.
        .take(server.limits().max_tokens + 1)
        .map(str::to_owned)
        .collect();
    let games = server.list_games(tokens, q.limit).await?;
    Ok(Json(serde_json::json!({ "games": games })).into_response())
}

/// `POST /api/games`: paced per client address (over every system of the server) before
/// the body is even read.
async fn create_game<H: Host>(
    State(server): State<Shared<H>>,
    client: Option<Extension<ClientAddr>>,
    pace: Option<Extension<Arc<CreationPace>>>,
    req: Request,
) -> Result<Response, ApiError> {
    if let (Some(Extension(ClientAddr(addr))), Some(Extension(pace))) = (client, pace) {
        pace.admit_creation(addr.ip())?;
    }
    let JsonBody(request) = JsonBody::<CreateGame>::from_request(req, &()).await?;
    let created = server.create_game(request).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// What the query's token (a spectator without one) reads of game `id` with `read`, as JSON.
async fn read_game<H: Host, F>(
    server: Shared<H>,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<TokenQuery>, QueryRejection>,
    read: impl FnOnce(Shared<H>, String, Option<String>) -> F,
) -> Result<Response, ApiError>
where
    F: std::future::Future<Output = Result<String, ApiError>>,
{
    let id = path_id(id)?;
    let q = query(q)?;
    let body = read(server, id, token(q.token)).await?;
    Ok(json_text(StatusCode::OK, body))
}

async fn view<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<TokenQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    read_game(server, id, q, |server, id, token| async move {
        server.view(&id, token).await
    })
    .await
}

async fn replay<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<ReplayQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let id = path_id(id)?;
    let q = query(q)?;
    let body = match q.step {
        Some(step) => server.replay_step(&id, token(q.token), step).await?,
        None => server.replay(&id, token(q.token)).await?,
    };
    Ok(json_text(StatusCode::OK, body))
}

async fn act<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    JsonBody(request): JsonBody<ActionRequest<ActionOf<H>>>,
) -> Result<Response, ApiError> {
    let id = path_id(id)?;
    let (_, body) = server
        .act(&id, request.token, request.version, request.action)
        .await?;
    Ok(json_text(StatusCode::OK, body))
}

async fn takeback<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    JsonBody(request): JsonBody<TakebackRequest>,
) -> Result<Response, ApiError> {
    let id = path_id(id)?;
    let ask = TakebackAsk::Takeback {
        version: request.version,
    };
    let body = server.takeback(&id, request.token, ask).await?;
    Ok(json_text(StatusCode::OK, body))
}

async fn takeback_answer<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    JsonBody(request): JsonBody<TakebackAnswer>,
) -> Result<Response, ApiError> {
    let id = path_id(id)?;
    let ask = TakebackAsk::Answer {
        accept: request.accept,
    };
    let body = server.takeback(&id, request.token, ask).await?;
    Ok(json_text(StatusCode::OK, body))
}

async fn chat_log<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<TokenQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    read_game(server, id, q, |server, id, token| async move {
        server.chat_log(&id, token).await
    })
    .await
}

async fn chat_post<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    JsonBody(request): JsonBody<ChatRequest>,
) -> Result<Response, ApiError> {
    let id = path_id(id)?;
    let body = server.chat(&id, token(request.token), request.text).await?;
    Ok(json_text(StatusCode::OK, body))
}

async fn query_game<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    JsonBody(request): JsonBody<QueryRequest>,
) -> Result<Response, QueryError> {
    let id = path_id(id)?;
    let result = server
        .query(&id, token(request.token), request.query)
        .await?;
    Ok(Json(serde_json::json!({ "result": result })).into_response())
}

async fn websocket<H: Host>(
    State(server): State<Shared<H>>,
    id: Result<Path<String>, PathRejection>,
    q: Result<Query<WsQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, axum::extract::ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let id = path_id(id)?;
    let q = query(q)?;
    let upgrade = upgrade.map_err(|r| ApiError::new(r.status(), "not_websocket", r.body_text()))?;
    let token = token(q.token);
    // Refuse forged tokens and unknown games before upgrading, with a proper status.
    server.authorize(&id, token.clone()).await?;
    let limits = server.limits();
    Ok(upgrade
        .max_message_size(limits.max_ws_frame_bytes)
        .max_frame_size(limits.max_ws_frame_bytes)
        .on_upgrade(move |socket| session(server, socket, id, token, (q.since, q.chat))))
}

fn text(s: impl Into<Utf8Bytes>) -> Message {
    Message::Text(s.into())
}

fn close(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// One WebSocket connection: pushes the game's updates (filtered for this viewer by the
/// actor) and plays the actions the client sends.
async fn session<H: Host>(
    server: Shared<H>,
    mut socket: WebSocket,
    id: String,
    token: Option<String>,
    since: (Option<u64>, Option<u64>),
) {
    let limits = server.limits();
    let mut shutdown = server.shutdown_signal();
    let (sink, mut updates) = mpsc::channel(limits.subscriber_buffer);
    if let Err(e) = server.subscribe(&id, token.clone(), since, sink).await {
        let _ = socket.send(text(e.to_ws_json(None))).await;
        let _ = socket
            .send(close(close_code::POLICY, &e.code.replace('_', " ")))
            .await;
        return;
    }
    let mut ping = tokio::time::interval_at(
        Instant::now() + limits.ws_ping_interval,
        limits.ws_ping_interval,
    );
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut heard = Instant::now();
    loop {
        let idle_until = heard + limits.ws_idle_timeout;
        tokio::select! {
            update = updates.recv() => {
                if !forward(&mut socket, update).await {
                    return;
                }
            }
            incoming = socket.recv() => {
                heard = Instant::now();
                if !answer(&server, &mut socket, &id, token.as_deref(), incoming).await {
                    return;
                }
            }
            _ = ping.tick() => {
                if socket.send(Message::Ping(Bytes::new())).await.is_err() {
                    return;
                }
            }
            () = tokio::time::sleep_until(idle_until) => {
                // Nothing arrived, not even a pong: the client is gone or does not read.
                let _ = socket.send(close(close_code::AWAY, "idle: no message or pong")).await;
                return;
            }
            () = async { let _ = shutdown.wait_for(|down| *down).await; } => {
                let _ = socket.send(close(close_code::AWAY, "server shutting down")).await;
                return;
            }
        }
    }
}

/// Sends an update from the game to the client; false when the session is over.
async fn forward(socket: &mut WebSocket, update: Option<Arc<str>>) -> bool {
    match update {
        Some(message) => socket.send(text(message.as_ref())).await.is_ok(),
        None => {
            // The actor dropped us (too slow to read, or the game stopped): the client
            // reconnects with since=<its version> and loses nothing.
            let _ = socket
                .send(close(close_code::AGAIN, "reconnect with since=<version>"))
                .await;
            false
        }
    }
}

/// Answers what the client sent; false when the session is over.
async fn answer<H: Host>(
    server: &GameServer<H>,
    socket: &mut WebSocket,
    id: &str,
    token: Option<&str>,
    incoming: Option<Result<Message, axum::Error>>,
) -> bool {
    let max = server.limits().max_ws_message_bytes;
    let reply = match incoming {
        None | Some(Ok(Message::Close(_))) => return false,
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => return true,
        Some(Ok(Message::Text(t))) => client_message(server, id, token, t.as_str(), max).await,
        Some(Ok(Message::Binary(b))) => match std::str::from_utf8(&b) {
            Ok(t) => client_message(server, id, token, t, max).await,
            Err(_) => ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed",
                "messages are UTF-8 JSON",
            )
            .to_ws_json(None),
        },
        Some(Err(e)) => {
            // Past the hard size limit or broken framing: say why, then hang up.
            let err = ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("connection closed: {e}"),
            );
            let _ = socket.send(text(err.to_ws_json(None))).await;
            let _ = socket
                .send(close(close_code::SIZE, "message too large"))
                .await;
            return false;
        }
    };
    socket.send(text(reply)).await.is_ok()
}

/// Handles one client message; the answer is an `ack` or an `error` message.
async fn client_message<H: Host>(
    server: &GameServer<H>,
    id: &str,
    token: Option<&str>,
    text: &str,
    max_bytes: usize,
) -> String {
    if text.len() > max_bytes {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("message of {} bytes; the limit is {max_bytes}", text.len()),
        )
        .to_ws_json(None);
    }
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed",
                format!("malformed JSON: {e}"),
            )
            .to_ws_json(None);
        }
    };
    // The client's tag for matching answers to requests, echoed back as given.
    let tag = value.get("id").cloned();
    let result = async {
        match value.get("type").and_then(|t| t.as_str()) {
            Some("action") => {}
            other => {
                return Err(ApiError::bad_request(format!(
                    "unknown message type {other:?}; expected \"action\""
                )));
            }
        }
        let Some(token) = token else {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "no_seat",
                "spectators cannot act: connect with a seat's token",
            ));
        };
        let request: WsAction<ActionOf<H>> = serde_json::from_value(value).map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed",
                format!("bad action message: {e}"),
            )
        })?;
        server
            .act(id, token.to_owned(), request.version, request.action)
            .await
    }
    .await;
    match result {
        Ok((version, _)) => {
            let mut ack = serde_json::json!({ "type": "ack", "version": version });
            if let (Some(tag), Some(obj)) = (tag, ack.as_object_mut()) {
                obj.insert("id".into(), tag);
            }
            ack.to_string()
        }
        Err(e) => e.to_ws_json(tag.as_ref()),
    }
}
