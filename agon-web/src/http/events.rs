//! `GET /api/games/{id}/events`: a game's changes as Server-Sent Events, and
//! `POST /api/games/{id}/seat`, which lets a seat's stream say who it is without its token
//! in any address.
//!
//! Each stream subscribes to the game's broadcast in the [`Hub`](crate::Hub) FIRST, then
//! reads the game from the database (or takes the hub's newest version of it, when other
//! streams of the game listen: a read of theirs or a version published since, which
//! covers as much, see [`Hub::current`](crate::Hub::current)), and sends the state if it is newer than what the
//! page has (`Last-Event-ID`, else `?since=N`): whatever is committed after the read is
//! in the broadcast, whatever before it is in the read, so nothing falls between. It then
//! sends every broadcast version newer than the last it sent (so no version twice, and in
//! order): as a `change` from the version it sent last when the version was published
//! right after it, else as the whole `state`; when it lagged behind the broadcast it reads
//! the game again. Every text is built once per version and view ([`super::change`]).
//!
//! A seat's stream marks the seat present. It proves the seat by a cookie
//! (`agon_seat_white`, `agon_seat_black`) that `POST /api/games/{id}/seat` sets from the
//! token in its body: a token in the stream's URL would be written in every proxy's and
//! server's access log, and `EventSource` can send no header. The cookie is `HttpOnly`
//! (no script reads it), `SameSite=Strict` (no other site's page sends it), its path is
//! the game's (`/api/games/{id}`, sent to no other game), and `Secure` when the request
//! came over HTTPS (a trusted proxy's `X-Forwarded-Proto`). It grants only presence:
//! every action still needs the token in its body. `?token=` on the stream is refused
//! (`400`), so that a page or a client still sending it learns why.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use agon_core::Side;
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};
use utoipa::{IntoParams, ToSchema};

use super::api::TokenRequest;
use super::change::{change_text, frame, state_text};
use super::names::{GameId, SideName};
use super::request::{cookies, parse_view, query, JsonBody};
use super::responses::{SeatErrors, UnknownGame};
use crate::error::{ApiError, ErrorBody};
use crate::hub::{HubEvent, Published, StreamPermit, Subscription};
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
}

/// The name of the cookie that holds `side`'s seat token for the stream.
///
/// ```
/// assert_eq!(agon_web::events::seat_cookie(agon_core::Side::Black), "agon_seat_black");
/// ```
pub fn seat_cookie(side: Side) -> &'static str {
    match side {
        Side::White => "agon_seat_white",
        Side::Black => "agon_seat_black",
    }
}

/// The seat whose cookie holds one of `game`'s tokens: the one of `view` when both do
/// (one browser holding both seats, in two tabs), else either.
fn seat_of_cookies(
    headers: &HeaderMap,
    game: &crate::game::WebGame,
    view: Option<Side>,
) -> Option<Side> {
    let valid = |side: Side| {
        cookies(headers, seat_cookie(side))
            .any(|token| game.seat_of(&ids::digest(token)) == Some(side))
    };
    let seats: Vec<Side> = [Side::White, Side::Black]
        .into_iter()
        .filter(|&s| valid(s))
        .collect();
    match seats.as_slice() {
        [] => None,
        [one] => Some(*one),
        _ => Some(view.unwrap_or(game.human)),
    }
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

/// The keep-alive comment.
const COMMENT: &[u8] = b":\n\n";

/// What one stream holds while it is open.
struct Live {
    app: Arc<AppState>,
    id: String,
    /// The side at the bottom of the board.
    side: Side,
    subscription: Subscription,
    closed: watch::Receiver<bool>,
    /// The newest version sent.
    sent: i64,
    /// Event texts ready to go.
    queue: VecDeque<Bytes>,
    _permit: StreamPermit,
    /// Counts the stream in the metrics while it is open.
    _counted: crate::metrics::StreamGuard,
}

impl Live {
    /// Queues `published` if newer than what was sent: as a change from the version sent
    /// last if it is its base, else whole. Answers whether it queued the whole state.
    fn version_event(&mut self, published: &Arc<Published>) -> bool {
        let version = published.game.version;
        if version <= self.sent {
            return false;
        }
        let from_sent = published
            .base
            .as_ref()
            .is_some_and(|b| b.version == self.sent);
        let change = from_sent
            .then(|| change_text(&self.app, published, self.side))
            .flatten();
        self.sent = version;
        let whole = change.is_none();
        let text = change.unwrap_or_else(|| state_text(&self.app, published, self.side));
        self.queue.push_back(text);
        whole
    }

    fn presence_event(&mut self) {
        let present = self.app.hub.present(&self.id);
        let data = serde_json::json!({"white": present[0], "black": present[1]});
        self.queue.push_back(frame("presence", None, &data));
    }

    /// The game read again (after a lag); `None` when it is gone or unreadable.
    async fn reload(&self) -> Option<Arc<Published>> {
        let game = service::load_game(&self.app, &self.id).await.ok()?;
        Some(self.app.hub.latest(game))
    }

    /// The next text to send, or `None` when the stream ends (server shutting down, game
    /// gone).
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(text) = self.queue.pop_front() {
                return Some(text);
            }
            if *self.closed.borrow() {
                return None;
            }
            let received = tokio::select! {
                r = self.subscription.receiver().recv() => r,
                _ = self.closed.changed() => return None,
                _ = tokio::time::sleep(KEEP_ALIVE) => return Some(Bytes::from_static(COMMENT)),
            };
            match received {
                Ok(HubEvent::State(published)) => {
                    // A whole state shows the presence as of its building, which may be
                    // older than what the page was told since: the presence follows it.
                    if self.version_event(&published) {
                        self.presence_event();
                    }
                }
                Ok(HubEvent::Presence(present)) => {
                    let data = serde_json::json!({"white": present[0], "black": present[1]});
                    self.queue.push_back(frame("presence", None, &data));
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    // Presence events may have been lost too.
                    let published = self.reload().await?;
                    self.version_event(&published);
                    self.presence_event();
                }
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    }
}

/// `GET /api/games/{id}/events?since=N&view=white`: the game's live events (see the crate
/// README). A seat's stream is known by its cookie (`POST /api/games/{id}/seat`).
#[utoipa::path(
    get,
    path = "/api/games/{id}/events",
    tag = "games",
    params(GameId, EventsQuery),
    responses(
        (status = 200, description = "Server-Sent Events: `state` (id: the version; data: the whole state as GET answers it, schema `GameState`), `change` (id: the version; data: what changed since the version before, schema `GameChange`; sent when the page had that version) and `presence` (data: {\"white\": bool, \"black\": bool}), a keep-alive comment every 15 s. A stream with a seat's cookie (`POST /api/games/{id}/seat`) marks the seat present while open.", body = String, content_type = "text/event-stream"),
        (status = 400, description = "the query is wrong (`since`, `view`), or holds a seat's `token` (refused: an address is logged; use `POST /api/games/{id}/seat`): `invalid-field`", body = ErrorBody),
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
    if token_in_query(request.uri().query()) {
        return Err(ApiError::invalid_field(
            "a seat's token does not go in the stream's address (it would be logged): send it to POST /api/games/{id}/seat, which sets the stream's cookie",
        ));
    }
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
    let headers = request.headers();
    game_stream(&app, id, since, view, client, |game| {
        seat_of_cookies(headers, game, view)
    })
    .await
}

/// The event stream of game `id` for a page that has version `since` (`-1`: none),
/// seen from `view` (the creator's side when `None`), opened by `client` (counted
/// against its streams' bound); `seat` says which seat the stream holds, if any (marked
/// present while it is open). What `GET /api/games/{id}/events` and a bot's game stream
/// (`GET /api/bot/game/stream/{id}`) both answer.
pub(crate) async fn game_stream(
    app: &Arc<AppState>,
    id: String,
    since: i64,
    view: Option<Side>,
    client: ClientKey,
    seat: impl FnOnce(&crate::game::WebGame) -> Option<Side>,
) -> Result<Response, ApiError> {
    let address = (client != ClientKey::Unknown).then_some(client);
    let permit = app.hub.open_stream(address)?;
    let counted = app.metrics.stream();
    // Subscribed before the read: nothing committed after the read is missed. The hub's
    // newest version of the game, when other streams listen to it, is as good as a read.
    let mut subscription = app.hub.subscribe(&id);
    let published = match app.hub.current(&id) {
        Some(published) => published,
        None => app.hub.latest(service::load_game(app, &id).await?),
    };
    let game = &published.game;
    if let Some(side) = seat(game) {
        subscription.mark_present(side);
    }
    let side = view.unwrap_or(game.human);
    let closed = app.hub.closed();
    let mut live = Live {
        app: app.clone(),
        id,
        side,
        subscription,
        closed,
        sent: since,
        queue: VecDeque::new(),
        _permit: permit,
        _counted: counted,
    };
    live.version_event(&published);
    live.presence_event();
    let stream = futures_util::stream::unfold(live, |mut live| async move {
        let text = live.next().await?;
        Some((Ok::<Bytes, Infallible>(text), live))
    });
    Ok(event_stream(Body::from_stream(stream)))
}

/// An answer of Server-Sent Events whose body is `body`: their type, no cache, and no
/// buffering by a proxy.
pub(crate) fn event_stream(body: Body) -> Response {
    let mut response = Response::new(body);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Proxies must not buffer the stream.
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// Whether a query holds a `token` parameter.
pub(crate) fn token_in_query(query: Option<&str>) -> bool {
    query.is_some_and(|q| {
        q.split('&')
            .any(|pair| pair.split('=').next() == Some("token"))
    })
}

/// The answer of `POST /api/games/{id}/seat`.
#[derive(Serialize, ToSchema)]
pub struct SeatResponse {
    /// The token's side: its cookie is set.
    #[schema(value_type = SideName)]
    pub side: &'static str,
}

/// `POST /api/games/{id}/seat`: the token's seat, remembered in a cookie for the game's
/// event stream (see the module's documentation).
#[utoipa::path(
    post,
    path = "/api/games/{id}/seat",
    tag = "games",
    params(GameId),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The token's seat; the answer sets the cookie `agon_seat_white` or `agon_seat_black` (HttpOnly, SameSite=Strict, Path=/api/games/{id}, Secure over HTTPS) that the game's event stream reads to mark the seat present", body = SeatResponse, headers(("Set-Cookie" = String, description = "The seat's cookie"))),
        SeatErrors,
    )
)]
pub async fn seat(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Response, ApiError> {
    let game = service::load_game(&app, &id).await?;
    let side = game
        .seat_of(&ids::digest(&request.token))
        .ok_or_else(ApiError::wrong_token)?;
    let secure = app.limits.trust_proxy() && forwarded_https(&headers);
    let cookie = format!(
        "{}={}; Path=/api/games/{}; HttpOnly; SameSite=Strict{}",
        seat_cookie(side),
        request.token,
        game.id,
        if secure { "; Secure" } else { "" }
    );
    let mut response = Json(SeatResponse { side: side.name() }).into_response();
    let value = HeaderValue::from_str(&cookie).map_err(|_| ApiError::wrong_token())?;
    response.headers_mut().insert(header::SET_COOKIE, value);
    debug_assert_eq!(response.status(), StatusCode::OK);
    Ok(response)
}

/// Whether a proxy says the request came over HTTPS (`X-Forwarded-Proto`, `Forwarded`).
fn forwarded_https(headers: &HeaderMap) -> bool {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let proto = text("x-forwarded-proto")
        .and_then(|v| v.split(',').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"));
    let forwarded = text("forwarded").is_some_and(|v| {
        v.split(',').next().unwrap_or("").split(';').any(|p| {
            p.split_once('=').is_some_and(|(k, v)| {
                k.trim().eq_ignore_ascii_case("proto")
                    && v.trim().trim_matches('"').eq_ignore_ascii_case("https")
            })
        })
    });
    proto || forwarded
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_in_the_query_is_seen_wherever_it_is() {
        assert!(token_in_query(Some("token=abc")));
        assert!(token_in_query(Some("since=3&token=abc&view=white")));
        assert!(token_in_query(Some("token")));
        assert!(!token_in_query(Some("since=3&view=white")));
        assert!(!token_in_query(Some("tokens=1")));
        assert!(!token_in_query(None));
    }

    #[test]
    fn https_is_read_from_the_proxy_headers() {
        let mut headers = HeaderMap::new();
        assert!(!forwarded_https(&headers));
        headers.insert("x-forwarded-proto", HeaderValue::from_static("https"));
        assert!(forwarded_https(&headers));
        let mut headers = HeaderMap::new();
        headers.insert(
            "forwarded",
            HeaderValue::from_static("for=1.2.3.4;proto=https"),
        );
        assert!(forwarded_https(&headers));
        headers.insert(
            "forwarded",
            HeaderValue::from_static("for=1.2.3.4;proto=http"),
        );
        assert!(!forwarded_https(&headers));
    }

    #[test]
    fn cookies_are_found_by_name() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("agon_lang=pl; agon_seat_white=abc ;agon_seat_black=def"),
        );
        assert_eq!(
            cookies(&headers, "agon_seat_white").collect::<Vec<_>>(),
            ["abc"]
        );
        assert_eq!(
            cookies(&headers, "agon_seat_black").collect::<Vec<_>>(),
            ["def"]
        );
        assert_eq!(cookies(&headers, "agon_seat").count(), 0);
    }
}
