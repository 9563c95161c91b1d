//! The lobby's endpoints (issue 33, point 2): seeks and direct challenges, quick pairing,
//! the lobby's event stream, and the games being played now (`/api/tv`).
//!
//! A guest is known to the lobby by a cookie, `agon_lobby` (128 random bits, `HttpOnly`,
//! `SameSite=Lax`, path `/api/lobby`, `Secure` over HTTPS), set by the first seek it posts
//! or by its first lobby stream: never in an address, and only its digest is stored. A
//! signed-in player is known by their session. A seek's poster gets, with the seek, the
//! token of the seat it will hold in the game: when the stream says the seek was
//! accepted (its `gone` event, with the `game`), the page opens the game with it.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{ConnectInfo, FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bytes::Bytes;
use data_encoding::HEXLOWER;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::accounts::session_token;
use super::change::frame;
use super::events::KEEP_ALIVE;
use super::names::{SideChoice, SideName};
use super::request::{cookies, parse_name, parse_rules, JsonBody};
use crate::error::{ApiError, ErrorBody};
use crate::game::account::Username;
use crate::game::lobby::{Colour, RatingRange, TimeControl, SEEN_EVERY_MS};
use crate::game::now_ms;
use crate::ids;
use crate::limits::ClientKey;
use crate::service::lobby::{self, Caller, Quick, SeekParams, SeekView, ViewerRatings};
use crate::service::lobby_feed::{FedEvent, Since};
use crate::service::{accounts as account_service, AppState};
use crate::store::Seek;

/// The guest's lobby cookie.
///
/// ```
/// assert_eq!(agon_web::http::lobby::LOBBY_COOKIE, "agon_lobby");
/// ```
pub const LOBBY_COOKIE: &str = "agon_lobby";

/// The caller of a lobby request: its account, its guest cookie (and whether it was just
/// made, to be set), its address.
pub struct LobbyCaller {
    caller: Caller,
    /// A new guest cookie to set in the answer.
    new_cookie: Option<String>,
    secure: bool,
}

impl FromRequestParts<Arc<AppState>> for LobbyCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<AppState>,
    ) -> Result<LobbyCaller, ApiError> {
        let headers = &parts.headers;
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0);
        let address = ClientKey::of_request(headers, peer, app.limits.trust_proxy());
        let site = app.site();
        let account = match session_token(headers, &site) {
            Some(token) => account_service::caller(app, Some(&token), now_ms())
                .await
                .ok()
                .map(|(account, _)| account),
            None => None,
        };
        let held = cookies(headers, LOBBY_COOKIE)
            .find(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
            .map(str::to_string);
        let (cookie, new_cookie) = match held {
            Some(cookie) => (cookie, None),
            None => {
                let cookie = ids::random_hex::<16>()?;
                (cookie.clone(), Some(cookie))
            }
        };
        Ok(LobbyCaller {
            caller: Caller {
                account,
                guest: Some(HEXLOWER.encode(&ids::digest(&cookie))),
                address: format!("{address:?}"),
            },
            new_cookie,
            secure: site.https(),
        })
    }
}

impl LobbyCaller {
    /// `response` with the new guest cookie set, if one was made.
    fn answer(&self, mut response: Response) -> Response {
        if let Some(cookie) = &self.new_cookie {
            let text = format!(
                "{LOBBY_COOKIE}={cookie}; Path=/api/lobby; Max-Age=2592000; HttpOnly; SameSite=Lax{}",
                if self.secure { "; Secure" } else { "" }
            );
            if let Ok(value) = HeaderValue::from_str(&text) {
                response.headers_mut().append(header::SET_COOKIE, value);
            }
        }
        response
    }

    fn poster(&self) -> Result<crate::game::lobby::Poster, ApiError> {
        self.caller
            .poster()
            .ok_or_else(|| ApiError::internal("a lobby caller without an identity"))
    }
}

/// `POST /api/lobby/seeks`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    /// The time control: `M+S` (minutes 1 to 180, increment 0 to 60 seconds) or
    /// `correspondence`. The quick-pairing controls are 1+0, 3+2, 5+3, 10+5, 15+10 and
    /// correspondence.
    #[schema(example = "5+3")]
    pub control: String,
    /// The rule set, in its text form; the standard rules when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// Rated (both players signed in) or casual (the default).
    #[serde(default)]
    pub rated: bool,
    /// The poster's colour: `white`, `black` or `random` (the default).
    #[serde(default)]
    #[schema(value_type = Option<SideChoice>)]
    pub colour: Option<String>,
    /// A guest's display name (a signed-in player shows their username): 1 to 24
    /// characters once trimmed, no control characters.
    #[serde(default)]
    pub name: Option<String>,
    /// The ratings the seek is for, relative to the poster's rating in its speed (a
    /// signed-in poster only): absent or `null` for everyone.
    #[serde(default)]
    pub rating_range: Option<RatingRangeRequest>,
}

/// A seek's rating range, relative to its poster's rating in the seek's speed category,
/// as lichess's seek form has it: the seek is shown to, and may be accepted by, only the
/// players rated from the poster's rating plus `min` to the poster's rating plus `max`,
/// both inclusive (a guest, who has no rating, never).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingRangeRequest {
    /// Points below the poster's rating: -500 to 0.
    #[schema(minimum = -500, maximum = 0, example = -500)]
    #[serde(deserialize_with = "super::request::whole_number")]
    pub min: i64,
    /// Points above the poster's rating: 0 to 500.
    #[schema(minimum = 0, maximum = 500, example = 500)]
    #[serde(deserialize_with = "super::request::whole_number")]
    pub max: i64,
}

impl SeekRequest {
    /// What the seek asks for, read: `400` for a field that does not.
    pub(crate) fn params(&self) -> Result<SeekParams, ApiError> {
        Ok(SeekParams {
            control: parse_control(&self.control)?,
            rules: parse_rules(self.rules.as_deref())?,
            rated: self.rated,
            colour: parse_colour(self.colour.as_deref())?,
            name: self.name.as_deref().map(parse_name).transpose()?,
            range: self
                .rating_range
                .as_ref()
                .map(|r| {
                    RatingRange::new(r.min, r.max).map_err(|e| {
                        ApiError::new(StatusCode::BAD_REQUEST, "invalid-rating-range", e)
                    })
                })
                .transpose()?,
        })
    }
}

/// `POST /api/lobby/challenges`: a seek for one player.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChallengeRequest {
    /// The player challenged: an account's username.
    pub username: String,
    /// The time control: `M+S` or `correspondence`.
    #[schema(example = "10+5")]
    pub control: String,
    /// The rule set; the standard rules when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// Rated or casual (the default).
    #[serde(default)]
    pub rated: bool,
    /// The challenger's colour: `white`, `black` or `random` (the default).
    #[serde(default)]
    #[schema(value_type = Option<SideChoice>)]
    pub colour: Option<String>,
}

/// A seek or challenge posted.
#[derive(Serialize, ToSchema)]
pub struct PostedSeek {
    /// The seek.
    pub seek: SeekView,
    /// The token of the seat the poster will hold in the game once accepted (keep it:
    /// it is not sent again).
    pub token: String,
}

/// `POST /api/lobby/seeks/{id}/accept` and `POST /api/lobby/quick`'s name.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AcceptRequest {
    /// A guest's display name: 1 to 24 characters once trimmed, no control characters.
    #[serde(default)]
    pub name: Option<String>,
}

/// A game started from the lobby.
#[derive(Serialize, ToSchema)]
pub struct StartedGame {
    /// The game's id: the page is `/g/{game}`.
    pub game: String,
    /// The token of the caller's seat.
    pub token: String,
    /// The caller's side.
    #[schema(value_type = SideName)]
    pub side: &'static str,
}

/// `POST /api/lobby/quick`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuickRequest {
    /// One of the quick-pairing controls: `1+0`, `3+2`, `5+3`, `10+5`, `15+10`,
    /// `correspondence`.
    #[schema(example = "3+2")]
    pub control: String,
    /// Rated (signed-in players only) or casual (the default).
    #[serde(default)]
    pub rated: bool,
    /// A guest's display name.
    #[serde(default)]
    pub name: Option<String>,
}

/// What a quick pairing did: `started` (a waiting seek accepted: `game`, `token`, `side`
/// set) or `waiting` (a seek posted: `seek` and `token` set; the stream says when it is
/// accepted).
#[derive(Serialize, ToSchema)]
pub struct QuickAnswer {
    /// `started` or `waiting`.
    pub status: &'static str,
    /// The game started, or `null`.
    pub game: Option<String>,
    /// The caller's side in it, or `null`.
    #[schema(value_type = Option<SideName>)]
    pub side: Option<&'static str>,
    /// The seek posted, or `null`.
    pub seek: Option<SeekView>,
    /// The caller's seat token: in the game started, or in the seek's game once accepted.
    pub token: String,
}

/// The open seeks and the caller's challenges.
#[derive(Serialize, ToSchema)]
pub struct SeekList {
    /// Oldest first.
    pub seeks: Vec<SeekView>,
    /// The number of the lobby's last event they include (a stream resumes after it).
    pub last_event: i64,
}

/// A game being played now.
#[derive(Serialize, ToSchema)]
pub struct LiveGame {
    /// The game's id.
    pub id: String,
    /// White's name, if given.
    pub white: Option<String>,
    /// Black's name, if given.
    pub black: Option<String>,
    /// Its clock, `M+S` (in the server's minutes), or `null`.
    pub clock: Option<String>,
    /// Its rule set.
    pub rules: String,
    /// The actions played.
    pub plies: usize,
}

/// `GET /api/tv`.
#[derive(Serialize, ToSchema)]
pub struct Tv {
    /// The game on TV: the rated game in progress of the highest mean rating at the start
    /// (while none is rated, the most recently moved one), or `null` when none is played.
    pub tv: Option<String>,
    /// The games being played now, the most recently moved first.
    pub games: Vec<LiveGame>,
}

fn parse_control(text: &str) -> Result<TimeControl, ApiError> {
    text.parse()
        .map_err(|e: String| ApiError::new(StatusCode::BAD_REQUEST, "invalid-clock", e))
}

fn parse_colour(text: Option<&str>) -> Result<Colour, ApiError> {
    text.map_or(Ok(Colour::Random), |t| {
        t.parse().map_err(ApiError::invalid_field)
    })
}

/// `GET /api/lobby/seeks`: the open seeks, and the challenges from and to the caller.
#[utoipa::path(get, path = "/api/lobby/seeks", tag = "lobby",
    responses((status = 200, description = "The open seeks the caller may accept (a seek with a rating range only to the players within it, and to its poster) and the caller's challenges", body = SeekList)))]
pub async fn seeks(
    State(app): State<Arc<AppState>>,
    caller: LobbyCaller,
) -> Result<Json<SeekList>, ApiError> {
    let account = caller.caller.account.as_ref().map(|a| a.id.as_str());
    let viewer = caller.poster()?.key();
    let ratings = ViewerRatings::read(&app, account).await?;
    let (seeks, last_event) = app.store.seeks(account).await?;
    Ok(Json(SeekList {
        seeks: seeks
            .iter()
            .filter(|s| ratings.sees(s, &viewer))
            .map(|s| lobby::view_for(s, &viewer))
            .collect(),
        last_event,
    }))
}

/// `POST /api/lobby/seeks`: posts an open seek; it lives while the poster's lobby stream
/// is open (and a minute after).
#[utoipa::path(post, path = "/api/lobby/seeks", tag = "lobby", request_body = SeekRequest,
    responses(
        (status = 201, description = "The seek, and the poster's seat token for its game", body = PostedSeek),
        (status = 400, description = "a field is wrong: `invalid-field`, `invalid-clock`, `invalid-rating-range`, `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`; rated but not of the standard rules, or by correspondence: `not-ratable`", body = ErrorBody),
        (status = 403, description = "a rated seek by a guest: `rated-needs-account`; a rating range by a guest: `rating-range-needs-account`", body = ErrorBody),
        (status = 409, description = "the poster or the address has as many open seeks and challenges as it may (`--seeks-per-player`, by default 3; `--seeks-per-address`, 6): `too-many-seeks`", body = ErrorBody),
    ))]
pub async fn post_seek(
    State(app): State<Arc<AppState>>,
    caller: LobbyCaller,
    JsonBody(request): JsonBody<SeekRequest>,
) -> Result<Response, ApiError> {
    let params = request.params()?;
    let posted = lobby::post(&app, &caller.caller, &caller.poster()?, &params, None).await?;
    let body = PostedSeek {
        seek: posted.seek,
        token: posted.token,
    };
    Ok(caller.answer((StatusCode::CREATED, Json(body)).into_response()))
}

/// `POST /api/lobby/challenges`: challenges a signed-in player by name; they see it on
/// their lobby stream and accept or decline it.
#[utoipa::path(post, path = "/api/lobby/challenges", tag = "lobby", request_body = ChallengeRequest,
    responses(
        (status = 201, description = "The challenge, and the challenger's seat token for its game", body = PostedSeek),
        (status = 400, description = "a field is wrong: `invalid-field`, `invalid-clock`, `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`; rated but not of the standard rules, or by correspondence: `not-ratable`", body = ErrorBody),
        (status = 401, description = "challenges are sent by signed-in players: `not-signed-in`", body = ErrorBody),
        (status = 404, description = "no such player, or oneself: `unknown-player`", body = ErrorBody),
        (status = 409, description = "too many open seeks and challenges: `too-many-seeks`", body = ErrorBody),
    ))]
pub async fn challenge(
    State(app): State<Arc<AppState>>,
    caller: LobbyCaller,
    JsonBody(request): JsonBody<ChallengeRequest>,
) -> Result<Response, ApiError> {
    let params = SeekParams {
        control: parse_control(&request.control)?,
        rules: parse_rules(request.rules.as_deref())?,
        rated: request.rated,
        colour: parse_colour(request.colour.as_deref())?,
        name: None,
        range: None,
    };
    let account = caller
        .caller
        .account
        .clone()
        .ok_or_else(account_service::not_signed_in)?;
    let unknown = || ApiError::new(StatusCode::NOT_FOUND, "unknown-player", "no such player");
    let key = Username::parse(&request.username)
        .map_err(|_| unknown())?
        .key();
    let target = app
        .store
        .account_by_key(&key)
        .await?
        .filter(|t| t.deleted_ms.is_none() && t.id != account.id)
        .ok_or_else(unknown)?;
    let posted = lobby::post(
        &app,
        &caller.caller,
        &caller.poster()?,
        &params,
        Some(&target),
    )
    .await?;
    let body = PostedSeek {
        seek: posted.seek,
        token: posted.token,
    };
    Ok(caller.answer((StatusCode::CREATED, Json(body)).into_response()))
}

/// `POST /api/lobby/seeks/{id}/accept`: accepts a seek (or a challenge to the caller):
/// the game starts, both seats taken.
#[utoipa::path(post, path = "/api/lobby/seeks/{id}/accept", tag = "lobby",
    params(("id" = String, Path, description = "The seek's id")),
    request_body = AcceptRequest,
    responses(
        (status = 200, description = "The game started: its id, the caller's seat token and side", body = StartedGame),
        (status = 400, description = "the name is wrong: `invalid-field`", body = ErrorBody),
        (status = 403, description = "a rated seek accepted by a guest: `rated-needs-account`; a seek whose rating range leaves the caller out (a guest is never within one): `rating-out-of-range`", body = ErrorBody),
        (status = 404, description = "no such seek (accepted, cancelled or expired already, or a challenge to someone else): `unknown-seek`", body = ErrorBody),
        (status = 409, description = "the caller's own seek: `own-seek`", body = ErrorBody),
    ))]
pub async fn accept(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    caller: LobbyCaller,
    JsonBody(request): JsonBody<AcceptRequest>,
) -> Result<Response, ApiError> {
    let name = request.name.as_deref().map(parse_name).transpose()?;
    let started = lobby::accept(&app, &caller.caller, &id, name).await?;
    let body = StartedGame {
        game: started.game.id.clone(),
        token: started.token,
        side: started.side.name(),
    };
    Ok(caller.answer(Json(body).into_response()))
}

/// What cancel and decline answer.
#[derive(Serialize, ToSchema)]
pub struct Removed {
    /// The seek's id.
    pub id: String,
}

/// `POST /api/lobby/seeks/{id}/cancel`: the poster takes its seek or challenge back.
#[utoipa::path(post, path = "/api/lobby/seeks/{id}/cancel", tag = "lobby",
    params(("id" = String, Path, description = "The seek's id")),
    responses(
        (status = 200, description = "The seek is gone", body = Removed),
        (status = 404, description = "no such seek of the caller's: `unknown-seek`", body = ErrorBody),
    ))]
pub async fn cancel(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    caller: LobbyCaller,
) -> Result<Json<Removed>, ApiError> {
    lobby::remove(&app, &caller.caller, &id, false).await?;
    Ok(Json(Removed { id }))
}

/// `POST /api/lobby/seeks/{id}/decline`: the player challenged declines.
#[utoipa::path(post, path = "/api/lobby/seeks/{id}/decline", tag = "lobby",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge is gone", body = Removed),
        (status = 404, description = "no such challenge to the caller: `unknown-seek`", body = ErrorBody),
    ))]
pub async fn decline(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    caller: LobbyCaller,
) -> Result<Json<Removed>, ApiError> {
    lobby::remove(&app, &caller.caller, &id, true).await?;
    Ok(Json(Removed { id }))
}

/// `POST /api/lobby/quick`: quick pairing: joins the oldest waiting seek of this control
/// (standard rules, same rating, not the caller's), or posts one.
#[utoipa::path(post, path = "/api/lobby/quick", tag = "lobby", request_body = QuickRequest,
    responses(
        (status = 200, description = "`started` (a game) or `waiting` (a seek posted)", body = QuickAnswer),
        (status = 400, description = "a field is wrong: `invalid-field`, `invalid-clock` (not a quick-pairing control); rated by correspondence: `not-ratable`", body = ErrorBody),
        (status = 403, description = "rated by a guest: `rated-needs-account`", body = ErrorBody),
        (status = 409, description = "too many open seeks: `too-many-seeks`; the lobby too busy to pair: `conflict`", body = ErrorBody),
    ))]
pub async fn quick(
    State(app): State<Arc<AppState>>,
    caller: LobbyCaller,
    JsonBody(request): JsonBody<QuickRequest>,
) -> Result<Response, ApiError> {
    let control = parse_control(&request.control)?;
    if !crate::game::lobby::QUICK.contains(&control) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid-clock",
            "quick pairing is for 1+0, 3+2, 5+3, 10+5, 15+10 and correspondence: post a seek for another control",
        ));
    }
    let name = request.name.as_deref().map(parse_name).transpose()?;
    let poster = caller.poster()?;
    let body =
        match lobby::quick(&app, &caller.caller, &poster, control, request.rated, name).await? {
            Quick::Started(started) => QuickAnswer {
                status: "started",
                game: Some(started.game.id.clone()),
                side: Some(started.side.name()),
                seek: None,
                token: started.token,
            },
            Quick::Waiting(posted) => QuickAnswer {
                status: "waiting",
                game: None,
                side: None,
                seek: Some(posted.seek),
                token: posted.token,
            },
        };
    Ok(caller.answer(Json(body).into_response()))
}

/// `GET /api/tv`: the games being played now, and the one on TV.
#[utoipa::path(get, path = "/api/tv", tag = "lobby",
    responses((status = 200, description = "The games being played now", body = Tv)))]
pub async fn tv(State(app): State<Arc<AppState>>) -> Result<Json<Tv>, ApiError> {
    let live = lobby::live_games(&app).await?;
    let tv = crate::game::lobby::on_tv(&live).map(|g| g.id.clone());
    let games: Vec<LiveGame> = live
        .iter()
        .map(|g| LiveGame {
            id: g.id.clone(),
            white: g.names[0].clone(),
            black: g.names[1].clone(),
            clock: g
                .clock
                .as_ref()
                .map(|c| super::state::clock_control(c, app.clock_minute_ms)),
            rules: g.game.rules().to_string(),
            plies: g.plies(),
        })
        .collect();
    Ok(Json(Tv { tv, games }))
}

/// What a stream of the lobby reads: the whole list, or the new events its viewer may see.
pub(crate) enum LobbyRead {
    /// The new events the viewer may see, in order.
    Events(Vec<Arc<FedEvent>>),
    /// The seeks the viewer may see (first, and after a gap), and the number of the last
    /// event they include.
    Whole(Vec<Seek>, i64),
}

/// What woke a stream of the lobby ([`LobbyCursor::wake`]).
pub(crate) enum Woken<T> {
    /// The lobby: what was read (nothing when the read failed: the next wake reads
    /// again), and whether it was the keep-alive's wake.
    Lobby(LobbyRead, bool),
    /// The stream's own other source.
    Other(T),
}

/// A stream's place in the lobby's log and what it holds while open: what the lobby's
/// stream and a bot's event stream share. It reads the log through the server's
/// [`LobbyFeed`](crate::service::lobby_feed::LobbyFeed) (one database read a new event,
/// whatever the number of streams), keeps the events its viewer may see (a direct
/// challenge only to its two accounts), and keeps its poster's seeks alive.
pub(crate) struct LobbyCursor {
    app: Arc<AppState>,
    /// The viewer's account: the challenges it may see.
    account: Option<String>,
    /// The viewer's ratings, read when the stream opened: the seeks with a rating range
    /// it may see.
    ratings: ViewerRatings,
    /// The viewer as a poster ([`crate::game::lobby::Poster::key`]): the seeks its
    /// stream keeps alive.
    poster: String,
    heard: tokio::sync::watch::Receiver<i64>,
    closed: tokio::sync::watch::Receiver<bool>,
    /// The number of the last event read.
    sent: i64,
    /// When the poster's seeks were last marked seen.
    seen: tokio::time::Instant,
    _permit: crate::hub::StreamPermit,
    _counted: crate::metrics::StreamGuard,
}

impl LobbyCursor {
    /// Opens a stream of the lobby from `client` for `account` posting as `poster`:
    /// counted against the streams' bounds (`429`, `503`), the poster's seeks marked
    /// seen, and the first read: the events after number `sent`, or the whole list when
    /// `sent` is `-1` (or too old).
    pub(crate) async fn open(
        app: &Arc<AppState>,
        client: ClientKey,
        account: Option<String>,
        poster: String,
        sent: i64,
    ) -> Result<(LobbyCursor, LobbyRead), ApiError> {
        let permit = app
            .hub
            .open_stream((client != ClientKey::Unknown).then_some(client))?;
        let counted = app.metrics.stream();
        // Subscribed before the first read: nothing logged after it is missed.
        let heard = app.lobby.subscribe();
        app.store.see_seeks(&poster, app.store.now_ms()).await?;
        let ratings = ViewerRatings::read(app, account.as_deref()).await?;
        let mut cursor = LobbyCursor {
            app: app.clone(),
            ratings,
            account,
            poster,
            heard,
            closed: app.hub.closed(),
            sent,
            seen: tokio::time::Instant::now(),
            _permit: permit,
            _counted: counted,
        };
        let first = cursor.read(false).await?;
        Ok((cursor, first))
    }

    /// Reads what follows the last event read (`poll`: a keep-alive's wake).
    async fn read(&mut self, poll: bool) -> Result<LobbyRead, ApiError> {
        let app = &self.app;
        let since = match self.sent {
            s if s < 0 => Since::Gap,
            s => app.lobby.after(&app.store, &app.metrics, s, poll).await?,
        };
        match since {
            Since::Gap => {
                let (mut seeks, last) = app.store.seeks(self.account.as_deref()).await?;
                seeks.retain(|s| self.ratings.sees(s, &self.poster));
                self.sent = last;
                Ok(LobbyRead::Whole(seeks, last))
            }
            Since::Events(mut events) => {
                if let Some(event) = events.last() {
                    self.sent = event.seq;
                }
                // Each stream keeps what its viewer may see: a challenge's two accounts,
                // a seek's rating range.
                events.retain(|e| {
                    let mine = e.data.get(lobby::POSTER_FIELD).and_then(|p| p.as_str())
                        == Some(self.poster.as_str());
                    e.shown_to(self.account.as_deref()) && self.ratings.sees_event(&e.data, mine)
                });
                Ok(LobbyRead::Events(events))
            }
        }
    }

    /// Waits for the lobby's next event, the keep-alive's time or `other`, and reads
    /// the lobby when it woke the stream; `None` when the server stops.
    pub(crate) async fn wake<T>(
        &mut self,
        other: impl std::future::Future<Output = T>,
    ) -> Option<Woken<T>> {
        if *self.closed.borrow() {
            return None;
        }
        let woken = tokio::select! {
            changed = self.heard.changed() => {
                changed.ok()?;
                Err(false)
            }
            value = other => Ok(value),
            _ = self.closed.changed() => return None,
            _ = tokio::time::sleep(KEEP_ALIVE) => Err(true),
        };
        let app = &self.app;
        if self.seen.elapsed() >= Duration::from_millis(SEEN_EVERY_MS as u64) {
            self.seen = tokio::time::Instant::now();
            let _ = app.store.see_seeks(&self.poster, app.store.now_ms()).await;
        }
        match woken {
            Ok(value) => Some(Woken::Other(value)),
            // The keep-alive's wake reads too (if nobody read lately): a notice lost with
            // a connection is caught up.
            Err(keep_alive) => {
                let read = self
                    .read(keep_alive)
                    .await
                    .unwrap_or(LobbyRead::Events(Vec::new()));
                Some(Woken::Lobby(read, keep_alive))
            }
        }
    }
}

/// The texts a lobby stream sends of `read`, each seek marked `mine` when `viewer` (a
/// poster's key) posted it.
fn texts(read: LobbyRead, viewer: &str, out: &mut VecDeque<Bytes>) {
    match read {
        LobbyRead::Whole(seeks, last) => {
            let list = SeekList {
                seeks: seeks.iter().map(|s| lobby::view_for(s, viewer)).collect(),
                last_event: last,
            };
            out.push_back(frame("seeks", Some(last), &list));
        }
        LobbyRead::Events(events) => {
            for event in events {
                // The poster's key is the server's: the viewer learns only whether it is
                // theirs.
                let poster = event.data.get(lobby::POSTER_FIELD);
                let mine = poster.and_then(|p| p.as_str()) == Some(viewer);
                let text = event.text(mine, || {
                    let mut data = event.data.clone();
                    if let Some(fields) = data.as_object_mut() {
                        fields.remove(lobby::POSTER_FIELD);
                        if let Some(seek) = fields.get_mut("seek").and_then(|s| s.as_object_mut()) {
                            seek.insert("mine".into(), mine.into());
                        }
                    }
                    let name = data["type"].as_str().unwrap_or("lobby").to_string();
                    frame(&name, Some(event.seq), &data)
                });
                out.push_back(text);
            }
        }
    }
}

/// `GET /api/lobby/events`: the lobby's live events (Server-Sent Events).
#[utoipa::path(get, path = "/api/lobby/events", tag = "lobby", operation_id = "lobby_events",
    responses(
        (status = 200, description = "Server-Sent Events, each with its number as `id` (`Last-Event-ID` resumes after it): `seeks` (data: the whole list, schema `SeekList`: first, and after a gap), `seek` (data: {\"type\": \"seek\", \"seek\": SeekView}: a seek or a challenge to or from the caller posted, `mine` when the caller posted it), `gone` (data: {\"type\": \"gone\", \"id\", \"reason\": cancelled | declined | expired | accepted, \"game\": the game's id when accepted}); a keep-alive comment every 15 s. While open, it keeps the caller's seeks alive.", body = String, content_type = "text/event-stream"),
        (status = 429, description = "too many event streams open from this address: `rate-limited`", body = ErrorBody),
        (status = 503, description = "too many event streams open on the server: `too-many-streams`", body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    ))]
pub async fn events(
    State(app): State<Arc<AppState>>,
    caller: LobbyCaller,
    request: Request,
) -> Result<Response, ApiError> {
    let sent = last_event_id(request.headers());
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    let client = ClientKey::of_request(request.headers(), peer, app.limits.trust_proxy());
    let account = caller.caller.account.as_ref().map(|a| a.id.clone());
    let poster = caller.poster()?.key();
    let (cursor, first) = LobbyCursor::open(&app, client, account, poster.clone(), sent).await?;
    let mut queue = VecDeque::new();
    texts(first, &poster, &mut queue);
    let live = LobbyStream {
        cursor,
        poster,
        queue,
    };
    let stream = futures_util::stream::unfold(live, |mut live| async move {
        let text = live.next().await?;
        Some((Ok::<Bytes, Infallible>(text), live))
    });
    let response = super::events::event_stream(Body::from_stream(stream));
    Ok(caller.answer(response))
}

/// What one lobby stream holds while it is open.
struct LobbyStream {
    cursor: LobbyCursor,
    /// The viewer as a poster: whose seeks are `mine`.
    poster: String,
    queue: VecDeque<Bytes>,
}

impl LobbyStream {
    /// The next text to send, or `None` when the stream ends (the server stopping).
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(text) = self.queue.pop_front() {
                return Some(text);
            }
            let Woken::Lobby(read, keep_alive) =
                self.cursor.wake(std::future::pending::<()>()).await?
            else {
                continue;
            };
            texts(read, &self.poster, &mut self.queue);
            if keep_alive && self.queue.is_empty() {
                return Some(Bytes::from_static(b":\n\n"));
            }
        }
    }
}

/// The event number a resuming stream had (`Last-Event-ID`), or `-1`.
fn last_event_id(headers: &HeaderMap) -> i64 {
    headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|&v| v >= 0)
        .unwrap_or(-1)
}
