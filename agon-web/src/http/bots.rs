//! Bots online over HTTP (issue 33, point 4): making an account a bot's and managing its
//! API tokens (with the session, from the account page), and the Bot API a bot's program
//! calls with its token, each endpoint a thin handler over the lobby's and the game's own
//! operations (`crate::service::bots`, whose documentation states who plays whom).
//!
//! **The token.** Only in the header `Authorization: Bearer agon_...`: never in an address
//! (a query's `token`, `access_token` or `api_token` is refused with `400`, so that a
//! program still sending one learns why), so no access log holds one. The Bot API's
//! requests are rate-limited per token ([`crate::limits::ClientKey::of_bearer`]).
//!
//! **The bot's event stream** (`GET /api/bot/stream/event`, Server-Sent Events): when it
//! opens, a `gameStart` for each game the bot plays now and a `challenge` for each
//! challenge waiting for it; then `challenge` (a challenge to the bot posted),
//! `challengeGone` (one to or from it cancelled, declined or expired), `gameStart` (a game
//! of the bot's began: its challenge accepted, its seek taken) and `gameFinish` (one of
//! them ended). While it is open the bot's seeks stay in the lobby, as a person's do
//! while their lobby is open.

use std::collections::{HashSet, VecDeque};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use agon_core::Side;
use axum::body::Body;
use axum::extract::{ConnectInfo, Extension, FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bytes::Bytes;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};
use utoipa::ToSchema;

use super::change::frame;
use super::events::{game_stream, token_in_query};
use super::friend::parse_answer;
use super::lobby::{LobbyCursor, LobbyRead, PostedSeek, Removed, SeekRequest, StartedGame, Woken};
use super::names::{AnswerName, GameId, SideName};
use super::request::JsonBody;
use super::state::{clock_control, state_for, GameState, OutcomeState};
use crate::error::{ApiError, ErrorBody};
use crate::game::lobby::Poster;
use crate::game::WebGame;
use crate::hub::HubEvent;
use crate::limits::{bearer, Charge, ClientKey};
use crate::service::lobby::{self as lobby_service, SeekView};
use crate::service::{self, bots as service_bots, AppState, Holder, SeatAction};
use crate::store::{Account, ApiToken};

/// The description of the Bot API's `401`.
const BAD_TOKEN: &str = "no living bot's API token in `Authorization: Bearer`: `bad-token`";

/// The description of the Bot API's `400` for a token in the address.
const TOKEN_IN_ADDRESS: &str =
    "a token in the query (refused: an address is logged; send it in `Authorization: Bearer`): `invalid-field`";

/// A Bot API request's caller: the bot's account (its token checked) and its address.
pub struct BotCaller {
    account: Account,
    address: ClientKey,
}

impl FromRequestParts<Arc<AppState>> for BotCaller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        app: &Arc<AppState>,
    ) -> Result<BotCaller, ApiError> {
        refuse_token_in_query(parts.uri.query())?;
        let account = service_bots::bot_of(app, bearer(&parts.headers)).await?;
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0);
        let address = ClientKey::of_request(&parts.headers, peer, app.limits.trust_proxy());
        Ok(BotCaller { account, address })
    }
}

impl BotCaller {
    fn lobby(&self) -> lobby_service::Caller {
        service_bots::caller(&self.account, &format!("{:?}", self.address))
    }
}

/// `400 invalid-field` for a query holding a token, whatever its name.
fn refuse_token_in_query(query: Option<&str>) -> Result<(), ApiError> {
    let named = |name: &str| {
        query.is_some_and(|q| {
            q.split('&')
                .any(|pair| pair.split('=').next() == Some(name))
        })
    };
    if token_in_query(query) || named("access_token") || named("api_token") {
        return Err(ApiError::invalid_field(
            "a token never goes in an address (it would be logged): send it in the header Authorization: Bearer",
        ));
    }
    Ok(())
}

/// `POST /api/account/bot`'s answer.
#[derive(Serialize, ToSchema)]
pub struct BotAccount {
    /// The account's username.
    pub username: String,
    /// Whether it is a bot's: always `true` here.
    pub bot: bool,
}

/// `POST /api/account/bot`: makes the signed-in account a bot's, for good (its games are
/// then played by a program through the Bot API).
#[utoipa::path(post, path = "/api/account/bot", tag = "bots",
    responses(
        (status = 200, description = "The account is a bot's (making a bot's account a bot's again changes nothing)", body = BotAccount),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
        (status = 409, description = "the account has played rated games: `has-rated-games`", body = ErrorBody),
    ))]
pub async fn become_bot(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<BotAccount>, ApiError> {
    let (account, _, _) = super::accounts::caller(&app, &headers).await?;
    let account = service_bots::become_bot(&app, &account).await?;
    Ok(Json(BotAccount {
        username: account.username,
        bot: account.bot,
    }))
}

/// An API token as its owner sees it.
#[derive(Serialize, ToSchema)]
pub struct TokenView {
    /// Its id (16 hex digits): what revokes it.
    pub id: String,
    /// Its name.
    pub name: String,
    /// When it was made, unix milliseconds.
    pub created_ms: i64,
    /// When it was last used (to the minute), or `null`.
    pub last_used_ms: Option<i64>,
}

impl From<ApiToken> for TokenView {
    fn from(t: ApiToken) -> TokenView {
        TokenView {
            id: t.id,
            name: t.name,
            created_ms: t.created_ms,
            last_used_ms: t.last_used_ms,
        }
    }
}

/// `GET /api/account/tokens`.
#[derive(Serialize, ToSchema)]
pub struct TokenList {
    /// The living tokens, oldest first.
    pub tokens: Vec<TokenView>,
}

/// `POST /api/account/tokens`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewTokenRequest {
    /// Its name, at most 40 characters (`bot` when absent).
    #[serde(default)]
    pub name: Option<String>,
}

/// A token made: its secret, shown this once.
#[derive(Serialize, ToSchema)]
pub struct NewToken {
    /// The token, `agon_` and 32 characters: send it as `Authorization: Bearer TOKEN`. It
    /// is not shown again (only its digest is kept).
    pub token: String,
    /// What the list shows of it.
    #[serde(flatten)]
    pub view: TokenView,
}

/// `GET /api/account/tokens`: the bot account's living API tokens (never their secrets).
#[utoipa::path(get, path = "/api/account/tokens", tag = "bots",
    responses(
        (status = 200, description = "The living tokens, oldest first", body = TokenList),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
    ))]
pub async fn tokens(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<TokenList>, ApiError> {
    let (account, _, _) = super::accounts::caller(&app, &headers).await?;
    let tokens = app.store.api_tokens(&account.id).await?;
    Ok(Json(TokenList {
        tokens: tokens.into_iter().map(TokenView::from).collect(),
    }))
}

/// `POST /api/account/tokens`: a new API token of the bot account.
#[utoipa::path(post, path = "/api/account/tokens", tag = "bots", request_body = NewTokenRequest,
    responses(
        (status = 201, description = "The token, shown once", body = NewToken),
        (status = 400, description = "the name is too long or holds control characters: `invalid-field`", body = ErrorBody),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
        (status = 403, description = "the account is not a bot's: `not-a-bot`", body = ErrorBody),
        (status = 409, description = "the account holds 10 tokens: `too-many-tokens`", body = ErrorBody),
    ))]
pub async fn new_token(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<NewTokenRequest>,
) -> Result<Response, ApiError> {
    let (account, _, _) = super::accounts::caller(&app, &headers).await?;
    let (token, info) = service_bots::new_token(&app, &account, request.name.as_deref()).await?;
    let body = NewToken {
        token: token.as_str().to_string(),
        view: info.into(),
    };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `DELETE /api/account/tokens/{id}`: revokes a token (its program's next request is
/// `401`).
#[utoipa::path(delete, path = "/api/account/tokens/{id}", tag = "bots",
    params(("id" = String, Path, description = "The token's id")),
    responses(
        (status = 204, description = "The token is revoked"),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
        (status = 404, description = "the account has no living token of this id: `unknown-token`", body = ErrorBody),
    ))]
pub async fn revoke_token(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let (account, _, _) = super::accounts::caller(&app, &headers).await?;
    service_bots::revoke(&app, &account, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/challenge/{id}/accept`: the bot accepts a challenge to it (the lobby's
/// accept): the game starts; the bot plays it by its id.
#[utoipa::path(post, path = "/api/challenge/{id}/accept", tag = "bots", operation_id = "bot_accept",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The game started: its id, a seat token (the bot may ignore it: the Bot API knows its seat by its account) and the bot's side", body = StartedGame),
        (status = 400, description = TOKEN_IN_ADDRESS, body = ErrorBody),
        (status = 401, description = BAD_TOKEN, body = ErrorBody),
        (status = 403, description = "a bot's open seek taken by a bot: `bots-need-challenge`", body = ErrorBody),
        (status = 404, description = "no such challenge or seek open to the bot (accepted, cancelled or expired already, or for someone else): `unknown-seek`", body = ErrorBody),
        (status = 409, description = "the bot's own seek: `own-seek`", body = ErrorBody),
    ))]
pub async fn accept(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    bot: BotCaller,
) -> Result<Json<StartedGame>, ApiError> {
    let started = lobby_service::accept(&app, &bot.lobby(), &id, None).await?;
    Ok(Json(StartedGame {
        game: started.game.id.clone(),
        token: started.token,
        side: started.side.name(),
    }))
}

/// `POST /api/challenge/{id}/decline`: the bot declines a challenge to it.
#[utoipa::path(post, path = "/api/challenge/{id}/decline", tag = "bots", operation_id = "bot_decline",
    params(("id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge is gone", body = Removed),
        (status = 400, description = TOKEN_IN_ADDRESS, body = ErrorBody),
        (status = 401, description = BAD_TOKEN, body = ErrorBody),
        (status = 404, description = "no such challenge to the bot: `unknown-seek`", body = ErrorBody),
    ))]
pub async fn decline(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    bot: BotCaller,
) -> Result<Json<Removed>, ApiError> {
    lobby_service::remove(&app, &bot.lobby(), &id, true).await?;
    Ok(Json(Removed { id }))
}

/// `POST /api/bot/seek`: the bot posts an open seek (as `POST /api/lobby/seeks`, with
/// no guest's `name`); it stays while the bot's event stream is open, and the stream
/// says when it is taken (`gameStart`).
#[utoipa::path(post, path = "/api/bot/seek", tag = "bots", operation_id = "bot_seek", request_body = SeekRequest,
    responses(
        (status = 201, description = "The seek (and a seat token the bot may ignore)", body = PostedSeek),
        (status = 400, description = "a field is wrong: `invalid-field`, `invalid-clock`, `invalid-rating-range`, `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`, `not-ratable`; a token in the query: `invalid-field`", body = ErrorBody),
        (status = 401, description = BAD_TOKEN, body = ErrorBody),
        (status = 409, description = "the bot or its address has as many open seeks and challenges as it may (`--seeks-per-player`, by default 3; `--seeks-per-address`, 6): `too-many-seeks`", body = ErrorBody),
    ))]
pub async fn seek(
    State(app): State<Arc<AppState>>,
    bot: BotCaller,
    JsonBody(request): JsonBody<SeekRequest>,
) -> Result<Response, ApiError> {
    if request.name.is_some() {
        return Err(ApiError::invalid_field(
            "a bot's seek shows its username: no name",
        ));
    }
    let params = request.params()?;
    let poster = Poster::Account(bot.account.id.clone());
    let posted = lobby_service::post(&app, &bot.lobby(), &poster, &params, None).await?;
    let body = PostedSeek {
        seek: posted.seek,
        token: posted.token,
    };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `POST /api/bot/game/{id}/move/{move}`: the bot's move (as `POST /api/games/{id}/moves`).
#[utoipa::path(post, path = "/api/bot/game/{id}/move/{move}", tag = "bots", operation_id = "bot_move",
    params(GameId, ("move" = String, Path, description = "The move in agon-core's notation: `f1-e1`, `f4>l1`, `pass`")),
    responses(
        (status = 200, description = "The state after the move, as the bot's side sees it", body = GameState),
        (status = 400, description = "the move does not parse: `malformed-move`; a token in the query: `invalid-field`", body = ErrorBody),
        (status = 401, description = BAD_TOKEN, body = ErrorBody),
        (status = 403, description = "the bot plays no seat of this game: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `game-over`, `game-too-long`, `not-your-turn`, `conflict` (the game changed meanwhile: retry), or the move is illegal in the game's position: then the error is agon-core's IllegalMove name (not-your-piece, between-enemies, must-return, no-pass, ...) and its message the reason", body = ErrorBody),
    ))]
pub async fn play(
    State(app): State<Arc<AppState>>,
    Extension(charge): Extension<Charge>,
    Path((id, text)): Path<(String, String)>,
    bot: BotCaller,
) -> Result<Json<GameState>, ApiError> {
    let holder = Holder::Account(bot.account.id.clone());
    let (game, seat) = service::play(&app, charge, id, holder, text, false).await?;
    Ok(Json(state_for(&app, &game, Some(seat))))
}

/// `POST /api/bot/game/{id}/draw/{answer}`: the bot offers a draw, or accepts or declines
/// its opponent's offer (as `POST /api/games/{id}/draw`).
#[utoipa::path(post, path = "/api/bot/game/{id}/draw/{answer}", tag = "bots", operation_id = "bot_draw",
    params(GameId, ("answer" = AnswerName, Path, description = "`offer`, `accept` or `decline`")),
    responses(
        (status = 200, description = "The state after the answer", body = GameState),
        (status = 400, description = "`answer` is not offer, accept or decline, or a token in the query: `invalid-field`", body = ErrorBody),
        (status = 401, description = BAD_TOKEN, body = ErrorBody),
        (status = 403, description = "the bot plays no seat of this game: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `not-a-friend-game`, `game-over`, `offer-pending`, `no-offer`, `conflict`", body = ErrorBody),
    ))]
pub async fn draw(
    State(app): State<Arc<AppState>>,
    Path((id, answer)): Path<(String, String)>,
    bot: BotCaller,
) -> Result<Json<GameState>, ApiError> {
    let action = SeatAction::Draw(parse_answer(&answer)?);
    let holder = Holder::Account(bot.account.id.clone());
    let (game, seat) = service::seat_action(&app, id, holder, action).await?;
    Ok(Json(state_for(&app, &game, Some(seat))))
}

/// `POST /api/bot/game/{id}/resign`: the bot gives the game up.
#[utoipa::path(post, path = "/api/bot/game/{id}/resign", tag = "bots", operation_id = "bot_resign", params(GameId),
    responses(
        (status = 200, description = "The state, the game lost by the bot", body = GameState),
        (status = 400, description = TOKEN_IN_ADDRESS, body = ErrorBody),
        (status = 401, description = BAD_TOKEN, body = ErrorBody),
        (status = 403, description = "the bot plays no seat of this game: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `game-over`, `conflict`", body = ErrorBody),
    ))]
pub async fn resign(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    bot: BotCaller,
) -> Result<Json<GameState>, ApiError> {
    let holder = Holder::Account(bot.account.id.clone());
    let (game, seat) = service::seat_action(&app, id, holder, SeatAction::Resign).await?;
    Ok(Json(state_for(&app, &game, Some(seat))))
}

/// `GET /api/bot/game/stream/{id}`: one of the bot's games as Server-Sent Events, the
/// game's own stream seen from the bot's side (its seat marked present while open).
#[utoipa::path(get, path = "/api/bot/game/stream/{id}", tag = "bots", operation_id = "bot_game_events", params(GameId),
    responses(
        (status = 200, description = "Server-Sent Events as `GET /api/games/{id}/events` sends them (`state`, `change`, `presence`; `Last-Event-ID` resumes after a version), seen from the bot's side", body = String, content_type = "text/event-stream"),
        (status = 400, description = TOKEN_IN_ADDRESS, body = ErrorBody),
        (status = 401, description = BAD_TOKEN, body = ErrorBody),
        (status = 403, description = "the bot plays no seat of this game: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 429, description = "too many event streams open from this address: `rate-limited`", body = ErrorBody),
        (status = 503, description = "too many event streams open on the server: `too-many-streams`", body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    ))]
pub async fn game_events(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    bot: BotCaller,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let game = service::load_game(&app, &id).await?;
    let side = bot_side(&game, &bot.account).ok_or_else(ApiError::wrong_token)?;
    let since = last_event_id(&headers);
    game_stream(&app, id, since, Some(side), bot.address, |_| Some(side)).await
}

/// The version a resuming stream had (`Last-Event-ID`), or `-1`.
fn last_event_id(headers: &HeaderMap) -> i64 {
    headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|&v| v >= 0)
        .unwrap_or(-1)
}

/// The side `account` plays in `game`, if it plays one.
fn bot_side(game: &WebGame, account: &Account) -> Option<Side> {
    Side::ALL.into_iter().find(|side| {
        game.players[side.index()]
            .as_ref()
            .is_some_and(|p| p.account_id == account.id)
    })
}

/// A game of the bot's as its event stream tells of it.
#[derive(Serialize, ToSchema)]
pub struct BotGame {
    /// The game's id.
    pub id: String,
    /// The bot's side.
    #[schema(value_type = SideName)]
    pub side: &'static str,
    /// Whether it is rated.
    pub rated: bool,
    /// Its speed category.
    pub speed: &'static str,
    /// Its clock, `M+S`, or `null`.
    pub clock: Option<String>,
    /// The opponent's name (an account's username, or a guest's name), if any.
    pub opponent: Option<String>,
    /// Whether the opponent is a bot.
    pub opponent_bot: bool,
    /// How it ended (in `gameFinish`), or `null` while it goes on.
    pub outcome: Option<OutcomeState>,
}

impl BotGame {
    fn of(app: &AppState, game: &WebGame, side: Side) -> BotGame {
        let opponent = side.other().index();
        BotGame {
            id: game.id.clone(),
            side: side.name(),
            rated: game.rated,
            speed: game.speed.name(),
            clock: game
                .clock
                .as_ref()
                .map(|c| clock_control(c, app.clock_minute_ms)),
            opponent: game.names[opponent].clone(),
            opponent_bot: game.players[opponent].as_ref().is_some_and(|p| p.bot),
            outcome: OutcomeState::of(game),
        }
    }
}

/// `GET /api/bot/stream/event`: the bot's events (see the module's documentation).
#[utoipa::path(get, path = "/api/bot/stream/event", tag = "bots", operation_id = "bot_events",
    responses(
        (status = 200, description = "Server-Sent Events: `gameStart` (data: {\"type\": \"gameStart\", \"game\": BotGame}: first for each game the bot plays now, then for each that begins), `gameFinish` (data: {\"type\": \"gameFinish\", \"game\": BotGame} with its `outcome`), `challenge` (data: {\"type\": \"challenge\", \"challenge\": SeekView}: first for each waiting, then for each posted), `challengeGone` (data: {\"type\": \"challengeGone\", \"id\", \"reason\": cancelled | declined | expired}); a keep-alive comment every 15 s. While open, it keeps the bot's seeks alive.", body = String, content_type = "text/event-stream"),
        (status = 400, description = TOKEN_IN_ADDRESS, body = ErrorBody),
        (status = 401, description = BAD_TOKEN, body = ErrorBody),
        (status = 429, description = "too many event streams open from this address: `rate-limited`", body = ErrorBody),
        (status = 503, description = "too many event streams open on the server: `too-many-streams`", body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    ))]
pub async fn events(
    State(app): State<Arc<AppState>>,
    bot: BotCaller,
) -> Result<Response, ApiError> {
    let poster = Poster::Account(bot.account.id.clone()).key();
    let account = Some(bot.account.id.clone());
    // The whole list first (`-1`): the challenges waiting, the bot's own seeks.
    let (cursor, first) = LobbyCursor::open(&app, bot.address, account, poster, -1).await?;
    let (finished_tx, finished) = mpsc::unbounded_channel();
    let mut live = BotStream {
        app: app.clone(),
        bot: bot.account,
        cursor,
        finished,
        finished_tx,
        watching: HashSet::new(),
        own: HashSet::new(),
        queue: VecDeque::new(),
    };
    for game in service_bots::games_in_progress(&app, &live.bot).await? {
        live.started(&game);
    }
    live.read(first).await;
    let stream = futures_util::stream::unfold(live, |mut live| async move {
        let text = live.next().await?;
        Some((Ok::<Bytes, Infallible>(text), live))
    });
    Ok(super::events::event_stream(Body::from_stream(stream)))
}

/// What a bot's event stream holds while it is open.
struct BotStream {
    app: Arc<AppState>,
    bot: Account,
    /// Its place in the lobby's log (the bot's seeks kept alive by it).
    cursor: LobbyCursor,
    /// The bot's games that ended, from their watchers.
    finished: mpsc::UnboundedReceiver<WebGame>,
    finished_tx: mpsc::UnboundedSender<WebGame>,
    /// The games watched (each announced once).
    watching: HashSet<String>,
    /// The bot's open seeks and challenges (whose acceptance starts one of its games).
    own: HashSet<String>,
    queue: VecDeque<Bytes>,
}

impl BotStream {
    /// Announces `game` begun (once) and watches it for its end.
    fn started(&mut self, game: &WebGame) {
        let Some(side) = bot_side(game, &self.bot) else {
            return;
        };
        if !self.watching.insert(game.id.clone()) {
            return;
        }
        let data =
            serde_json::json!({"type": "gameStart", "game": BotGame::of(&self.app, game, side)});
        self.queue.push_back(frame("gameStart", None, &data));
        watch_game(self.app.clone(), game.id.clone(), self.finished_tx.clone());
    }

    fn finished(&mut self, game: &WebGame) {
        let Some(side) = bot_side(game, &self.bot) else {
            return;
        };
        self.watching.remove(&game.id);
        let data =
            serde_json::json!({"type": "gameFinish", "game": BotGame::of(&self.app, game, side)});
        self.queue.push_back(frame("gameFinish", None, &data));
    }

    /// Notes `seek`: the bot's own, or a challenge to it (announced).
    fn seek(&mut self, seek: &SeekView) {
        if seek.account && seek.player.as_deref() == Some(self.bot.username.as_str()) {
            self.own.insert(seek.id.clone());
        } else if seek.to.as_deref() == Some(self.bot.username.as_str()) {
            let data = serde_json::json!({"type": "challenge", "challenge": seek});
            self.queue.push_back(frame("challenge", None, &data));
        }
    }

    /// Queues what the bot is told of the lobby's `read` (the events it may see).
    async fn read(&mut self, read: LobbyRead) {
        let events = match read {
            LobbyRead::Whole(seeks, _) => {
                // The challenges waiting for the bot, its own seeks.
                for seek in seeks.iter().map(lobby_service::view) {
                    self.seek(&seek);
                }
                return;
            }
            LobbyRead::Events(events) => events,
        };
        for event in events {
            let private = event.audience.is_some();
            let data = &event.data;
            match data["type"].as_str() {
                Some("seek") => {
                    if let Ok(seek) = SeekShown::deserialize(&data["seek"]) {
                        self.seek(&seek.view());
                    }
                }
                Some("gone") => {
                    let id = data["id"].as_str().unwrap_or_default().to_string();
                    let mine = self.own.remove(&id) || private;
                    match (data["reason"].as_str(), data["game"].as_str()) {
                        (Some("accepted"), Some(game)) if mine => {
                            if let Ok(game) = service::load_game(&self.app, game).await {
                                self.started(&game);
                            }
                        }
                        (Some(reason), _) if private => {
                            let data = serde_json::json!({"type": "challengeGone", "id": id, "reason": reason});
                            self.queue.push_back(frame("challengeGone", None, &data));
                        }
                        _ => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// The next text to send, or `None` when the stream ends (the server stopping).
    async fn next(&mut self) -> Option<Bytes> {
        loop {
            if let Some(text) = self.queue.pop_front() {
                return Some(text);
            }
            match self.cursor.wake(self.finished.recv()).await? {
                Woken::Other(Some(game)) => self.finished(&game),
                Woken::Other(None) => {}
                Woken::Lobby(read, keep_alive) => {
                    self.read(read).await;
                    if keep_alive && self.queue.is_empty() {
                        return Some(Bytes::from_static(b":\n\n"));
                    }
                }
            }
        }
    }
}

/// A seek as a lobby event shows it (the fields a bot's stream reads).
#[derive(Deserialize)]
struct SeekShown {
    id: String,
    player: Option<String>,
    account: bool,
    #[serde(default)]
    bot: bool,
    control: String,
    speed: String,
    rules: String,
    rated: bool,
    colour: String,
    to: Option<String>,
    created_ms: i64,
    #[serde(default)]
    rating_min: Option<i64>,
    #[serde(default)]
    rating_max: Option<i64>,
}

impl SeekShown {
    fn view(self) -> SeekView {
        SeekView {
            id: self.id,
            player: self.player,
            account: self.account,
            bot: self.bot,
            control: self.control,
            speed: crate::game::speed::Speed::ALL
                .into_iter()
                .find(|s| s.name() == self.speed)
                .map_or("correspondence", |s| s.name()),
            rules: self.rules,
            rated: self.rated,
            colour: self.colour,
            to: self.to,
            created_ms: self.created_ms,
            // Only challenges to the bot are shown to it: never its own.
            mine: false,
            rating_min: self.rating_min,
            rating_max: self.rating_max,
        }
    }
}

/// Watches game `id` until it ends, then sends it to `finished`; stops early when the
/// stream that asked is gone, or the game is.
fn watch_game(app: Arc<AppState>, id: String, finished: mpsc::UnboundedSender<WebGame>) {
    tokio::spawn(async move {
        // Subscribed before the read: an end committed after it is in the broadcast.
        let mut subscription = app.hub.subscribe(&id);
        let Ok(mut game) = service::load_game(&app, &id).await else {
            return;
        };
        loop {
            if game.is_over() {
                let _ = finished.send(game);
                return;
            }
            let received = tokio::select! {
                _ = finished.closed() => return,
                r = subscription.receiver().recv() => r,
            };
            match received {
                Ok(HubEvent::State(published)) => {
                    if published.game.is_over() {
                        game = (*published.game).clone();
                    }
                }
                Ok(HubEvent::Presence(_)) => {}
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    match service::load_game(&app, &id).await {
                        Ok(read) => game = read,
                        Err(_) => return,
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    });
}
