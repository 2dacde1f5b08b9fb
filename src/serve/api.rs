//! The JSON API: the games, one position analysed, and the errors every route answers with
//! (`{"error": "…"}` and a 4xx status; the server keeps answering).

use super::{Game, State};
use crate::error::Error;
use crate::game::explore::{Cancel, GameInfo};
use axum::body::{Body, Bytes};
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State as Shared};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use http_body_util::BodyExt;
use serde::Deserialize;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// An error answer: the status and `{"error": message}`.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

/// The status of a library error: malformed text 400, a position refused as too large or too
/// expensive 422, anything else (a game program that failed) 500.
pub fn status_of(error: &Error) -> StatusCode {
    match error {
        Error::Input { .. } => StatusCode::BAD_REQUEST,
        Error::Usage(_) | Error::UnknownGame { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        Error::Malformed { .. } | Error::Io { .. } => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// `GET /api/games`: every game shown, in registry order.
pub async fn games(Shared(state): Shared<Arc<State>>) -> Json<Vec<GameInfo>> {
    Json(state.games.iter().map(|g| g.explorer.info()).collect())
}

/// The body of an analyse request.
#[derive(Deserialize)]
struct Request {
    position: String,
}

/// `POST /api/games/{name}/analyse` with `{"position": "…"}` as `application/json`: the game's
/// analysis as JSON. The connection sets `cancel` when the client leaves ([`super::conn`]):
/// the analysis stops early (the game program's between its batches, the built-in games' in
/// their brute force and octal engine: [`crate::game::explore::Explore::analyse_unless`]).
pub async fn analyse(
    Shared(state): Shared<Arc<State>>,
    name: Result<Path<String>, PathRejection>,
    cancel: Option<Extension<Cancel>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let cancel = cancel.map(|Extension(c)| c).unwrap_or_default();
    let name = path_part(name, "the game name")?;
    let game = find(&state, &name)?;
    refuse_declared_length(&headers)?;
    let body = tokio::time::timeout(state.limits.read, read_body(body)).await.map_err(|_| {
        ApiError(StatusCode::REQUEST_TIMEOUT, format!("the request body was not sent within {} s (--read-timeout)", state.limits.read.as_secs_f64()))
    })??;
    super::origin::require_json(&headers)?;
    let request = parse_request(&body)?;
    check_characters(&request.position)?;
    // One wait for both: a turn of the game's own, when it has turns, then a solver.
    let deadline = tokio::time::Instant::now() + state.queue_wait;
    let turn = match &game.turns {
        Some(turns) => Some(wait_for(turns, deadline, &format!("every turn of {name} ({} analysis at a time)", game.explorer.at_once().unwrap_or(1)), state.queue_wait).await?),
        None => None,
    };
    let solver = wait_for(&state.solving, deadline, "every solver", state.queue_wait).await.map_err(|busy| state.answers.explain(busy))?;
    let started = Instant::now();
    let explorer = game.explorer.clone();
    let solved = tokio::task::spawn_blocking(move || {
        // Held until the analysis ends (early, where the game checks `cancel`, once the client
        // has gone), and then until its answer has room to be sent (below).
        let held = (turn, solver);
        (explorer.analyse_unless(&request.position, &cancel).map(|a| serde_json::to_vec(&a)), held)
    })
    .await;
    // How long the analysis and its JSON took, for clients and the measurements (docs/serve.md).
    let timing = format!("analyse;dur={:.3}", started.elapsed().as_secs_f64() * 1000.0);
    match solved {
        Ok((Ok(Ok(json)), held)) => answer(&state, json, timing, held).await,
        Ok((Ok(Err(e)), _)) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the analysis could not be written as JSON: {e}"))),
        Ok((Err(error), _)) => Err(ApiError(status_of(&error), error.to_string())),
        Err(failed) => Err(ApiError(StatusCode::INTERNAL_SERVER_ERROR, format!("the analysis of {name} failed: {failed}"))),
    }
}

/// The analysis `json` as an answer, once the answers' memory has room for it: until then the
/// solver is `held`, so that at most one waiting answer per solver is in memory.
async fn answer<T>(state: &State, json: Vec<u8>, timing: String, held: T) -> Result<Response, ApiError> {
    let room = state.answers.reserve(json.len(), state.queue_wait).await?;
    drop(held);
    let headers = [(header::CONTENT_TYPE, "application/json".to_string()), (header::HeaderName::from_static("server-timing"), timing)];
    Ok((headers, super::budget::body(json, room)).into_response())
}

/// A permit of `semaphore` once one is free, or 503 at `deadline`, the end of a `wait` (`what`:
/// what was taken all along).
async fn wait_for(semaphore: &Arc<Semaphore>, deadline: tokio::time::Instant, what: &str, wait: std::time::Duration) -> Result<OwnedSemaphorePermit, ApiError> {
    let busy = || ApiError(StatusCode::SERVICE_UNAVAILABLE, format!("busy: {what} was taken for {} s; try again", wait.as_secs_f64()));
    let permit = tokio::time::timeout_at(deadline, semaphore.clone().acquire_owned()).await.map_err(|_| busy())?;
    permit.map_err(|_| busy())
}

/// A path parameter of a route, or 400 naming `what` it is when it cannot be read (percent
/// escapes that decode to bytes that are not UTF-8).
pub fn path_part<T>(extracted: Result<Path<T>, PathRejection>, what: &str) -> Result<T, ApiError> {
    extracted.map(|Path(part)| part).map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("{what} in the path cannot be read: {}", e.body_text())))
}

/// The request of a body that is a JSON object `{"position": "…"}`, read straight into the
/// request so that a repeated key is refused (an array of the same fields, which serde would
/// also take, is refused too); 400 otherwise.
fn parse_request(body: &[u8]) -> Result<Request, ApiError> {
    let refused = |why: String| ApiError(StatusCode::BAD_REQUEST, format!("the body must be JSON {{\"position\": \"…\"}}: {why}"));
    if body.trim_ascii_start().first() == Some(&b'{') {
        return serde_json::from_slice(body).map_err(|e| refused(e.to_string()));
    }
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| refused(e.to_string()))?;
    Err(refused(format!("found {}", kind_of(&value))))
}

/// Refuses (400) a position holding a control character other than the line breaks and tabs
/// of a game's text, naming it and its place (`position:LINE:COL`): a game program would be
/// handed it.
fn check_characters(position: &str) -> Result<(), ApiError> {
    let (mut line, mut col) = (1, 1);
    for c in position.chars() {
        if c.is_control() && !matches!(c, '\n' | '\r' | '\t') {
            let message = format!("position:{line}:{col}: the control character U+{:04X} is not allowed in a position", u32::from(c));
            return Err(ApiError(StatusCode::BAD_REQUEST, message));
        }
        (line, col) = if c == '\n' { (line + 1, 1) } else { (line, col + 1) };
    }
    Ok(())
}

/// What a JSON value is, in words.
fn kind_of(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// 413 at once for a body whose Content-Length is past [`super::BODY_LIMIT`] bytes: nothing
/// of it is waited for (a client sending `Expect: 100-continue` sends none of it).
fn refuse_declared_length(headers: &HeaderMap) -> Result<(), ApiError> {
    let declared = headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
    match declared {
        Some(bytes) if bytes > super::BODY_LIMIT as u64 => Err(ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body ({bytes} bytes, its Content-Length) is over the limit of {} bytes", super::BODY_LIMIT),
        )),
        _ => Ok(()),
    }
}

/// The request body, refused (413) past [`super::BODY_LIMIT`] bytes. A longer body is still
/// read, and dropped, up to [`super::DRAIN_LIMIT`] bytes before the answer: a client that is
/// still sending when the server closes would meet a reset connection instead of the 413.
async fn read_body(mut body: Body) -> Result<Bytes, ApiError> {
    let (mut kept, mut total) = (Vec::new(), 0usize);
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| ApiError(StatusCode::BAD_REQUEST, format!("the request body could not be read: {e}")))?;
        let Ok(data) = frame.into_data() else { continue };
        total += data.len();
        if total <= super::BODY_LIMIT {
            kept.extend_from_slice(&data);
        } else if total > super::DRAIN_LIMIT {
            break;
        }
    }
    if total > super::BODY_LIMIT {
        return Err(ApiError(StatusCode::PAYLOAD_TOO_LARGE, format!("the request body is over the limit of {} bytes", super::BODY_LIMIT)));
    }
    Ok(Bytes::from(kept))
}

/// Game `name`, or 404 naming the games there are.
fn find<'a>(state: &'a State, name: &str) -> Result<&'a Game, ApiError> {
    state.games.iter().find(|g| g.explorer.info().name == name).ok_or_else(|| {
        let names: Vec<&str> = state.games.iter().map(|g| g.explorer.info().name).collect();
        ApiError(StatusCode::NOT_FOUND, format!("no game {name:?} here (games: {})", names.join(", ")))
    })
}

/// Any other path: 404.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError(StatusCode::NOT_FOUND, format!("nothing at {}", uri.path()))
}

/// A known path with the wrong method: 405.
pub async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError(StatusCode::METHOD_NOT_ALLOWED, format!("{method} is not allowed on {} (see docs/serve.md)", uri.path()))
}
