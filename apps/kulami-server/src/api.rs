//! The HTTP interface of `docs/ONLINE.md`: routes, request bodies and NDJSON streams.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::StreamExt as _;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};
use tokio_stream::wrappers::ReceiverStream;

use crate::auth::{self, Player};
use crate::error::{ApiError, ApiResult};
use crate::hub::{Action, Hub, Line, LiveGame, now_ms};
use crate::limits::{self, Limits, StreamPermit};
use crate::settings::ChallengeRequest;
use crate::store::{Challenge, User};
use crate::views;

/// The largest request body: far more than any settings or move need.
const MAX_BODY_BYTES: usize = 16 * 1024;
/// Streams send an empty line this often when nothing else happens.
const KEEP_ALIVE: Duration = Duration::from_secs(7);

/// What every handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The live state and the database.
    pub hub: Arc<Hub>,
    /// The rate limits, unless turned off.
    pub limits: Option<Arc<Limits>>,
}

/// What an unknown path under `/api` answers.
const NO_ENDPOINT: &str = "no such endpoint (the interface is in docs/ONLINE.md of the Kulami repository)";

/// The server's routes; with `web`, the files of that directory (the browser edition) at `/`.
pub fn router(state: AppState, web: Option<&std::path::Path>) -> Router {
    let api = Router::new()
        .route("/api/account/register", post(register))
        .route("/api/token", post(login).delete(logout))
        .route("/api/account", get(account))
        .route("/api/users/online", get(online))
        .route("/api/users/{name}", get(user))
        .route("/api/challenge", get(challenges))
        .route("/api/challenge/{name}", post(challenge))
        .route("/api/challenge/{id}/accept", post(accept))
        .route("/api/challenge/{id}/decline", post(decline))
        .route("/api/challenge/{id}/cancel", post(cancel))
        .route("/api/stream/event", get(event_stream))
        .route("/api/board/game/stream/{id}", get(game_stream))
        .route("/api/game/{id}", get(game))
        .route("/api/game/{id}/record", get(record))
        .route("/api/board/game/{id}/move/{move}", post(play))
        .route("/api/board/game/{id}/resign", post(resign))
        .route("/api/board/game/{id}/abort", post(abort))
        .route("/api/{*rest}", axum::routing::any(|| async { ApiError::not_found(NO_ENDPOINT) }));
    let site = match web {
        // `cargo xtask web` writes each file's .br and .gz beside it: the smallest the browser
        // accepts is sent as it is, with no compression per request.
        Some(directory) => {
            api.fallback_service(tower_http::services::ServeDir::new(directory).precompressed_br().precompressed_gzip())
        }
        None => api.route("/", get(home)).fallback(|| async { ApiError::not_found(NO_ENDPOINT) }),
    };
    site.layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(state.limits.clone(), limits::per_address))
        .with_state(state)
}

/// A JSON request body; an empty body reads as `{}`. Malformed JSON is a 400 and a body over
/// the limit a 413, each with the `{"error"}` answer.
#[derive(Debug)]
struct JsonBody<T>(T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<JsonBody<T>, ApiError> {
        let bytes = Bytes::from_request(request, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, format!("the body is over {MAX_BODY_BYTES} bytes"))
            } else {
                ApiError::bad_request(format!("the body could not be read: {rejection}"))
            }
        })?;
        parse_body(&bytes).map(JsonBody)
    }
}

/// A request body's JSON as `T`; blank reads as `{}`.
///
/// # Errors
/// 400, saying where the JSON is wrong.
pub fn parse_body<T: DeserializeOwned>(bytes: &[u8]) -> ApiResult<T> {
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { bytes };
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("the body is not the JSON expected: {e}")))
}

fn ok() -> Json<Value> {
    Json(json!({"ok": true}))
}

async fn home() -> Html<&'static str> {
    Html(
        "<!doctype html><title>Kulami server</title><h1>Kulami server</h1>\
         <p>Play from the command line: <code>kulami online register NAME</code>, then \
         <code>kulami online invite FRIEND</code>. Bots and tools: the HTTP interface follows the lichess Board API \
         (docs/ONLINE.md in the Kulami repository).</p>",
    )
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Credentials {
    pub(crate) username: String,
    pub(crate) password: String,
}

/// Counts a sign-in or registration against the caller's address.
fn sign_in(state: &AppState, peer: std::net::SocketAddr) -> ApiResult<()> {
    state.limits.as_ref().map_or(Ok(()), |limits| limits.sign_in(peer.ip()))
}

/// A permit for one more open stream from the caller's address.
fn stream_permit(state: &AppState, peer: std::net::SocketAddr) -> ApiResult<Option<StreamPermit>> {
    state.limits.as_ref().map(|limits| limits.open_stream(peer.ip())).transpose()
}

async fn register(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    JsonBody(body): JsonBody<Credentials>,
) -> ApiResult<Response> {
    sign_in(&state, peer)?;
    auth::check_username(&body.username)?;
    auth::check_password(&body.password)?;
    let password = body.password;
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "hashing the password failed"))?;
    let store = state.hub.store();
    let user = store
        .create_user(&body.username, &hash, false, now_ms())
        .await?
        .ok_or_else(|| ApiError::conflict(format!("the username `{}` is taken", body.username)))?;
    let token = issue_token(&state, &user).await?;
    Ok((StatusCode::CREATED, Json(json!({"username": user.username, "token": token}))).into_response())
}

async fn issue_token(state: &AppState, user: &User) -> ApiResult<String> {
    let token = auth::new_token();
    state.hub.store().insert_token(&auth::token_hash(&token), user.id, now_ms()).await?;
    Ok(token)
}

async fn login(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    JsonBody(body): JsonBody<Credentials>,
) -> ApiResult<Json<Value>> {
    sign_in(&state, peer)?;
    let wrong = || ApiError::unauthorized("wrong username or password");
    let (user, hash) = state.hub.store().credentials(&body.username).await?.ok_or_else(wrong)?;
    let password = body.password;
    let matches = tokio::task::spawn_blocking(move || auth::verify_password(&password, &hash))
        .await
        .map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "checking the password failed"))?;
    if !matches {
        return Err(wrong());
    }
    Ok(Json(json!({"token": issue_token(&state, &user).await?})))
}

async fn logout(State(state): State<AppState>, player: Player) -> ApiResult<Json<Value>> {
    state.hub.store().delete_token(&player.token_hash).await?;
    Ok(ok())
}

/// A player's rating in standard scoring and their results over all scorings, with each
/// scoring's rating beside.
async fn profile(state: &AppState, user: &User) -> ApiResult<Value> {
    let standings = state.hub.store().standings(user.id).await?;
    let standard = standings
        .iter()
        .find(|(scoring, _)| *scoring == kulami_core::Scoring::Standard)
        .map_or_else(|| skillratings::glicko2::Glicko2Rating::default().rating, |(_, s)| s.rating.rating);
    let sum = |count: fn(&crate::store::Standing) -> i64| standings.iter().map(|(_, s)| count(s)).sum::<i64>();
    let ratings: serde_json::Map<String, Value> = standings
        .iter()
        .map(|(scoring, s)| (scoring.to_string(), json!({"rating": s.rating.rating.round(), "games": s.games})))
        .collect();
    Ok(json!({
        "username": user.username,
        "rating": standard.round(),
        "ratings": ratings,
        "games": sum(|s| s.games),
        "wins": sum(|s| s.wins),
        "draws": sum(|s| s.draws),
        "losses": sum(|s| s.losses),
        "bot": user.bot,
    }))
}

async fn account(State(state): State<AppState>, player: Player) -> ApiResult<Json<Value>> {
    profile(&state, &player.user).await.map(Json)
}

async fn find_user(state: &AppState, name: &str) -> ApiResult<User> {
    state
        .hub
        .store()
        .user_by_name(name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no player is called `{name}`")))
}

async fn user(State(state): State<AppState>, Path(name): Path<String>) -> ApiResult<Json<Value>> {
    let user = find_user(&state, &name).await?;
    let mut profile = profile(&state, &user).await?;
    profile["online"] = json!(state.hub.online().await?.iter().any(|online| online.id == user.id));
    profile["playing"] = json!(state.hub.playing().await?.contains(&user.id));
    Ok(Json(profile))
}

async fn online(State(state): State<AppState>) -> ApiResult<Json<Value>> {
    let playing = state.hub.playing().await?;
    let mut users = Vec::new();
    for user in state.hub.online().await? {
        let rating = state.hub.store().rating(user.id, kulami_core::Scoring::Standard).await?;
        users.push(json!({
            "username": user.username,
            "rating": rating.rating.round(),
            "playing": playing.contains(&user.id),
            "bot": user.bot,
        }));
    }
    Ok(Json(json!({"users": users})))
}

async fn challenges(State(state): State<AppState>, player: Player) -> ApiResult<Json<Value>> {
    let open = state.hub.store().open_challenges(player.user.id).await?;
    let (incoming, outgoing): (Vec<_>, Vec<_>) = open.iter().partition(|c| c.to.id == player.user.id);
    Ok(Json(json!({
        "in": incoming.into_iter().map(views::challenge).collect::<Vec<_>>(),
        "out": outgoing.into_iter().map(views::challenge).collect::<Vec<_>>(),
    })))
}

async fn challenge(
    State(state): State<AppState>,
    player: Player,
    Path(name): Path<String>,
    JsonBody(body): JsonBody<ChallengeRequest>,
) -> ApiResult<Response> {
    let to = find_user(&state, &name).await?;
    if to.id == player.user.id {
        return Err(ApiError::bad_request("you cannot invite yourself"));
    }
    let settings = body.resolve().map_err(|e| ApiError::bad_request(e.to_string()))?;
    let challenge = Challenge {
        id: auth::new_id(),
        from: player.user,
        to,
        board: settings.board,
        game: settings.game,
        color: settings.color,
        status: "created".to_owned(),
        reason: None,
        game_id: None,
        created_at: now_ms(),
    };
    state.hub.store().insert_challenge(&challenge).await?;
    state.hub.notify_challenge("challenge", &challenge);
    let answer = views::challenge(&challenge);
    // A house bot answers at once, after the sender has heard of the invite.
    let hub = Arc::clone(&state.hub);
    tokio::spawn(async move { hub.answer_for_bot(&challenge).await });
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// An open invite `id` that `player` may answer as its invitee (`to`) or sender.
async fn open_challenge(state: &AppState, id: &str, player: &Player, invitee: bool) -> ApiResult<Challenge> {
    let challenge = state
        .hub
        .store()
        .challenge(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no invite has id `{id}`")))?;
    // A closed invite is closed to everyone: 409 before asking who may act on an open one.
    if challenge.status != "created" {
        return Err(ApiError::conflict(format!("the invite is no longer open: it was {}", challenge.status)));
    }
    let party = if invitee { &challenge.to } else { &challenge.from };
    if party.id != player.user.id {
        let who = if invitee { "the invited player" } else { "the sender" };
        return Err(ApiError::forbidden(format!("only {who} can do this")));
    }
    Ok(challenge)
}

async fn accept(State(state): State<AppState>, player: Player, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let challenge = open_challenge(&state, &id, &player, true).await?;
    let game = state.hub.accept(&challenge).await?;
    Ok(Json(json!({"game": game})))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Decline {
    #[serde(default)]
    reason: Option<String>,
}

async fn decline(
    State(state): State<AppState>,
    player: Player,
    Path(id): Path<String>,
    JsonBody(body): JsonBody<Decline>,
) -> ApiResult<Json<Value>> {
    let mut challenge = open_challenge(&state, &id, &player, true).await?;
    let reason = body.reason.map(|reason| reason.chars().take(200).collect::<String>());
    close(&state, &mut challenge, "declined", reason, "challengeDeclined").await
}

async fn cancel(State(state): State<AppState>, player: Player, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let mut challenge = open_challenge(&state, &id, &player, false).await?;
    close(&state, &mut challenge, "canceled", None, "challengeCanceled").await
}

async fn close(
    state: &AppState,
    challenge: &mut Challenge,
    status: &str,
    reason: Option<String>,
    event: &str,
) -> ApiResult<Json<Value>> {
    if !state.hub.store().close_challenge(&challenge.id, status, reason.as_deref()).await? {
        return Err(ApiError::conflict("the invite is no longer open"));
    }
    status.clone_into(&mut challenge.status);
    challenge.reason = reason;
    state.hub.notify_challenge(event, challenge);
    Ok(ok())
}

/// An NDJSON response fed by `lines`: `first` lines, then each broadcast line, keep-alive
/// empty lines, until a last line, the client leaving, or shutdown.
fn ndjson(
    state: &AppState,
    first: Vec<Line>,
    updates: Option<broadcast::Receiver<Line>>,
    guard: impl Send + 'static,
) -> Response {
    let (sender, receiver) = mpsc::channel::<Bytes>(32);
    let mut shutdown = state.hub.shutdown();
    tokio::spawn(async move {
        let _guard = guard;
        let line = |line: &Line| Bytes::from(format!("{}\n", line.text));
        for first in &first {
            if sender.send(line(first)).await.is_err() || first.last {
                return;
            }
        }
        let Some(mut updates) = updates else { return };
        let mut keep_alive = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        loop {
            let next = tokio::select! {
                () = sender.closed() => return,
                _ = shutdown.changed() => return,
                _ = keep_alive.tick() => Bytes::from_static(b"\n"),
                update = updates.recv() => match update {
                    Ok(update) if update.last => {
                        let _ = sender.send(line(&update)).await;
                        return;
                    }
                    Ok(update) => line(&update),
                    // Too slow a reader: end the stream; a reconnect gets the full state again.
                    Err(broadcast::error::RecvError::Lagged(_) | broadcast::error::RecvError::Closed) => return,
                },
            };
            if sender.send(next).await.is_err() {
                return;
            }
        }
    });
    let body = Body::from_stream(ReceiverStream::new(receiver).map(Ok::<_, Infallible>));
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

async fn event_stream(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    player: Player,
) -> ApiResult<Response> {
    let permit = stream_permit(&state, peer)?;
    // Opened before the open invites and games are read: nothing falls in between.
    let (events, guard) = state.hub.open_events(&player.user).await;
    let mut first: Vec<Line> = state
        .hub
        .store()
        .open_challenges(player.user.id)
        .await?
        .iter()
        .map(|c| Line { text: views::challenge_event("challenge", c).to_string().into(), last: false })
        .collect();
    first.extend(state.hub.games_in_play(player.user.id).await?);
    Ok(ndjson(&state, first, Some(events), (guard, permit)))
}

async fn live_game(state: &AppState, id: &str) -> ApiResult<Arc<LiveGame>> {
    state.hub.game(id).await?.ok_or_else(|| ApiError::not_found(format!("no game has id `{id}`")))
}

async fn game_stream(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let permit = stream_permit(&state, peer)?;
    let live = live_game(&state, &id).await?;
    let (full, updates) = state.hub.watch_game(&live).await;
    Ok(ndjson(&state, vec![full], updates, permit))
}

async fn game(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let live = live_game(&state, &id).await?;
    Ok(Json(state.hub.snapshot(&live).await))
}

async fn record(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let live = live_game(&state, &id).await?;
    let text = state.hub.record(&live).await;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response())
}

/// The game `id` and the seat `player` has in it.
async fn my_game(state: &AppState, id: &str, player: &Player) -> ApiResult<(Arc<LiveGame>, crate::referee::Seat)> {
    let live = live_game(state, id).await?;
    let seat = live.info.seat_of_user(player.user.id).ok_or_else(|| ApiError::forbidden("this is not your game"))?;
    Ok((live, seat))
}

async fn play(
    State(state): State<AppState>,
    player: Player,
    Path((id, played)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let played = played
        .parse::<kulami_core::Move>()
        .map_err(|e| ApiError::bad_request(format!("`{played}` is not a move: {e}")))?;
    let (live, seat) = my_game(&state, &id, &player).await?;
    state.hub.act(&live, seat, Action::Move(played)).await?;
    Ok(ok())
}

async fn resign(State(state): State<AppState>, player: Player, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let (live, seat) = my_game(&state, &id, &player).await?;
    state.hub.act(&live, seat, Action::Resign).await?;
    Ok(ok())
}

async fn abort(State(state): State<AppState>, player: Player, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let (live, seat) = my_game(&state, &id, &player).await?;
    state.hub.act(&live, seat, Action::Abort).await?;
    Ok(ok())
}
