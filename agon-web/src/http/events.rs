//! `GET /api/games/{id}/events`: a game's changes as Server-Sent Events.
//!
//! Each stream subscribes to the game's broadcast in the [`Hub`](crate::Hub) FIRST, then
//! reads the game from the database, and sends the state if it is newer than what the
//! page has (`Last-Event-ID`, else `?since=N`): whatever is committed after the read is
//! in the broadcast, whatever before it is in the read, so nothing falls between. It then
//! sends every broadcast version newer than the last it sent (so no version twice, and in
//! order), and when it lagged behind the broadcast it reads the game again.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use agon_core::Side;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use tokio::sync::{broadcast, watch};
use utoipa::IntoParams;

use super::openapi::{GameId, SideName};
use super::request::{parse_view, query};
use super::responses::UnknownGame;
use super::state::state_for;
use crate::error::{ApiError, ErrorBody};
use crate::game::WebGame;
use crate::hub::{HubEvent, StreamPermit, Subscription};
use crate::ids;
use crate::limits::ClientKey;
use crate::service::{self, AppState};

/// How often a stream sends a keep-alive comment.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// The query of `GET /api/games/{id}/events`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct EventsQuery {
    /// The version the page has: the stream sends the state only once newer
    /// (`Last-Event-ID` wins over it).
    #[param(value_type = Option<i64>, minimum = 0)]
    since: Option<String>,
    /// The side at the bottom of the board (default: the creator's).
    #[param(value_type = Option<SideName>)]
    view: Option<String>,
    /// A seat's token: marks that seat present while the stream is open (any other opens
    /// the stream as a watcher's).
    token: Option<String>,
}

/// The version the page has: `Last-Event-ID` (sent by `EventSource` when it reconnects)
/// wins over `?since`; `-1` (send the current state at once) without either.
fn since(request: &Request, query: &EventsQuery) -> Result<i64, ApiError> {
    let header = request
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|&v| v >= 0);
    if let Some(version) = header {
        return Ok(version);
    }
    match query.since.as_deref() {
        None => Ok(-1),
        Some(text) => match text.parse::<i64>() {
            Ok(v) if v >= 0 => Ok(v),
            _ => Err(ApiError::invalid_field(format!(
                "since must be a version (0 or more), not {text:?}"
            ))),
        },
    }
}

/// What one stream holds while it is open.
struct Live {
    app: Arc<AppState>,
    id: String,
    view: Option<Side>,
    subscription: Subscription,
    closed: watch::Receiver<bool>,
    /// The newest version sent.
    sent: i64,
    /// Events ready to go.
    queue: VecDeque<Event>,
    _permit: StreamPermit,
    /// Counts the stream in the metrics while it is open.
    _counted: crate::metrics::StreamGuard,
}

impl Live {
    fn state_event(&mut self, game: &WebGame) {
        if game.version <= self.sent {
            return;
        }
        self.sent = game.version;
        let state = state_for(&self.app, game, self.view);
        let data = serde_json::to_string(&state).unwrap_or_default();
        self.queue.push_back(
            Event::default()
                .event("state")
                .id(game.version.to_string())
                .data(data),
        );
    }

    fn presence_event(&mut self, present: [bool; 2]) {
        let data = serde_json::json!({"white": present[0], "black": present[1]});
        self.queue
            .push_back(Event::default().event("presence").data(data.to_string()));
    }

    /// The game read again (after a lag); `None` when it is gone or unreadable.
    async fn reload(&self) -> Option<WebGame> {
        service::load_game(&self.app, &self.id).await.ok()
    }

    /// The next event, or `None` when the stream ends (server shutting down, game gone).
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(event) = self.queue.pop_front() {
                return Some(event);
            }
            if *self.closed.borrow() {
                return None;
            }
            let received = tokio::select! {
                r = self.subscription.receiver().recv() => r,
                _ = self.closed.changed() => return None,
            };
            match received {
                Ok(HubEvent::State(game)) => self.state_event(&game),
                Ok(HubEvent::Presence(present)) => self.presence_event(present),
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let game = self.reload().await?;
                    self.state_event(&game);
                    let present = self.app.hub.present(&self.id);
                    self.presence_event(present);
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

/// `GET /api/games/{id}/events?since=N&view=white&token=TOKEN`: the game's live events
/// (see the crate README). A token of neither seat opens the stream as a watcher's.
#[utoipa::path(
    get,
    path = "/api/games/{id}/events",
    tag = "games",
    params(GameId, EventsQuery),
    responses(
        (status = 200, description = "Server-Sent Events: `state` (id: the version; data: the state as GET answers it) and `presence` (data: {\"white\": bool, \"black\": bool}), a keep-alive comment every 15 s", body = String, content_type = "text/event-stream"),
        (status = 400, description = "the query is wrong (`since`, `view`): `invalid-field`", body = ErrorBody),
        UnknownGame,
        (status = 429, description = "too many event streams open from this address: `rate-limited`", body = ErrorBody),
        (status = 503, description = "too many event streams open on the server: `too-many-streams`", body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn events(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    request: Request,
) -> Result<Response, ApiError> {
    let query: EventsQuery = query(request.uri())?;
    let since = since(&request, &query)?;
    let view = parse_view(query.view.as_deref())?;
    if !ids::valid_id(&id) {
        return Err(ApiError::unknown_game());
    }
    // The client as the rate limits see it (behind a trusted proxy, the forwarded address).
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    let client = ClientKey::of_request(request.headers(), peer, app.limits.trust_proxy());
    let address = (client != ClientKey::Unknown).then_some(client);
    let permit = app.hub.open_stream(address)?;
    let counted = app.metrics.stream();
    // Subscribed before the read: nothing committed after the read is missed.
    let mut subscription = app.hub.subscribe(&id);
    let game = service::load_game(&app, &id).await?;
    let digest = query.token.as_deref().map(ids::digest);
    if let Some(side) = digest.and_then(|d| game.seat_of(&d)) {
        subscription.mark_present(side);
    }
    let closed = app.hub.closed();
    let mut live = Live {
        app: app.clone(),
        id,
        view,
        subscription,
        closed,
        sent: since,
        queue: VecDeque::new(),
        _permit: permit,
        _counted: counted,
    };
    live.state_event(&game);
    let present = live.app.hub.present(&live.id);
    live.presence_event(present);
    let stream = stream::unfold(live, |mut live| async move {
        let event = live.next().await?;
        Some((Ok::<Event, Infallible>(event), live))
    });
    Ok(sse(stream))
}

fn sse(stream: impl Stream<Item = Result<Event, Infallible>> + Send + 'static) -> Response {
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response();
    // Proxies must not buffer the stream.
    response.headers_mut().insert(
        "x-accel-buffering",
        axum::http::HeaderValue::from_static("no"),
    );
    debug_assert_eq!(response.status(), StatusCode::OK);
    response
}
