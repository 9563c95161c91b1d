//! The JSON API: creating games, moving, the computer's replies, undo, resign, records.
//!
//! Each handler validates the whole request before it writes anything, and writes in one
//! transaction, so a request that fails changes nothing. The one exception is the clock:
//! an action on a game whose running clock has run out commits the `time-forfeit` it
//! finds (that is a fact of the clock, not of the request) and is refused with
//! `409 game-over`. Every change gives the game its next version in its own transaction
//! ([`Change::save`](crate::store::Change::save)) and is published to the game's event streams in commit order.

use std::sync::Arc;

use agon_core::{
    IllegalMove, Move, ParseError, ParseErrorKind, Position, Record, Rules, Score, Side,
};
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::{IntoParams, ToSchema};

use crate::events::parse_view;
use crate::openapi::GameId;
use crate::openapi::{LevelName, OpponentName, SideChoice, SideName};
use crate::state::{last_human_ply, now_ms, GameState, View};
use crate::store::{Change, Clock, EndKind, Opponent, WebGame};
use crate::{side_name, tasks, ApiError, AppState, ErrorBody, Level};

/// The largest request body accepted, in bytes.
pub const MAX_BODY: usize = 4096;

/// The most moves a game may hold. Every request replays its game, so an endless game
/// would make each request slower; no game between a person and the computer comes near
/// this (random games average under 500 moves). A move past it is refused with
/// `409 game-too-long`.
pub const MAX_PLIES: usize = 10_000;

/// A JSON request body: `application/json`, at most [`MAX_BODY`] bytes, of exactly the
/// expected shape (unknown fields are refused, so a misspelt field is not ignored).
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "the body must be application/json",
            ));
        }
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::new(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        "body-too-large",
                        format!("the body is over {MAX_BODY} bytes"),
                    )
                } else {
                    ApiError::new(StatusCode::BAD_REQUEST, "malformed-json", e.body_text())
                }
            })?;
        // serde would also read a struct from an array of its fields: only objects are asked.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed-json",
                "the body must be a JSON object",
            ));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "malformed-json", e.to_string()))
    }
}

/// `POST /api/games`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    /// The creator's side: `white`, `black` or `random`.
    #[schema(value_type = SideChoice)]
    pub side: String,
    /// `easy`, `medium` or `hard`: required against the computer, ignored for a friend.
    #[serde(default)]
    #[schema(value_type = Option<LevelName>)]
    pub level: Option<String>,
    /// `computer` (the default) or `friend`.
    #[serde(default)]
    #[schema(value_type = Option<OpponentName>)]
    pub opponent: Option<String>,
    /// The clock: `M+S` (minutes 1 to 180, increment seconds 0 to 60), or `none` or absent
    /// for none.
    #[serde(default)]
    #[schema(example = "5+3")]
    pub clock: Option<String>,
    /// The creator's display name: 1 to 24 characters once trimmed, no control characters.
    #[serde(default)]
    #[schema(
        pattern = r"^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u0000-\u001f\u007f-\u009f]([^\u0000-\u001f\u007f-\u009f]{0,22}[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u0000-\u001f\u007f-\u009f])?[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
    )]
    pub name: Option<String>,
    /// A start position other than the standard one (read under `rules`).
    #[serde(default)]
    pub position: Option<String>,
    /// The rule set, in its text form (`standard`, `ludii`,
    /// `standard+capture=same-ring+limit=300`); the standard rules when absent.
    #[serde(default)]
    pub rules: Option<String>,
}

/// The 400 of a rule set's text that does not parse, named by what is wrong:
/// `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`,
/// `duplicate-rule-option`, `limit-out-of-range` (agon-core's names), or
/// `malformed-rules` for any other fault of the text (a missing `=`, an empty option).
///
/// ```
/// let e = agon_web::api::rules_error("chess".parse::<agon_core::Rules>().unwrap_err());
/// assert_eq!((e.status.as_u16(), e.name), (400, "unknown-preset"));
/// let e = agon_web::api::rules_error("standard+limit".parse::<agon_core::Rules>().unwrap_err());
/// assert_eq!(e.name, "malformed-rules");
/// ```
pub fn rules_error(e: ParseError) -> ApiError {
    let name = match e.kind() {
        kind @ (ParseErrorKind::UnknownPreset
        | ParseErrorKind::UnknownRuleOption
        | ParseErrorKind::UnknownRuleValue
        | ParseErrorKind::DuplicateRuleOption
        | ParseErrorKind::LimitOutOfRange) => kind.name(),
        _ => "malformed-rules",
    };
    ApiError::new(StatusCode::BAD_REQUEST, name, format!("rules: {e}"))
}

/// The rule set of a request: its text parsed, or the standard rules.
fn parse_rules(text: Option<&str>) -> Result<Rules, ApiError> {
    match text {
        None => Ok(Rules::STANDARD),
        Some(text) => text.parse().map_err(rules_error),
    }
}

/// The answer of `POST /api/games`.
#[derive(Serialize, ToSchema)]
pub struct NewGameResponse {
    /// The game's public id.
    pub id: String,
    /// The secret that lets its holder play the game.
    pub token: String,
    /// The creator's side.
    #[schema(value_type = SideName)]
    pub side: &'static str,
    /// The game's state.
    pub state: GameState,
}

/// The longest display name, in characters.
pub const MAX_NAME: usize = 24;

/// The most minutes a clock may start with.
pub const MAX_CLOCK_MINUTES: u32 = 180;

/// The largest increment of a clock, in seconds.
pub const MAX_CLOCK_INCREMENT: u32 = 60;

/// Reads a clock's text: `M+S` (whole minutes 1 to 180, plus an increment of 0 to 60
/// seconds a move), or `none` for no clock. Anything else is `400 invalid-clock`.
///
/// ```
/// use agon_web::api::parse_clock;
/// assert_eq!(parse_clock("5+3"), Ok(Some((5, 3))));
/// assert_eq!(parse_clock("none"), Ok(None));
/// for bad in ["5", "0+3", "181+0", "5+61", "5+-1", "5.5+0", " 5+3", "+3", "5+"] {
///     assert_eq!(parse_clock(bad).unwrap_err().name, "invalid-clock", "{bad}");
/// }
/// ```
pub fn parse_clock(text: &str) -> Result<Option<(u32, u32)>, ApiError> {
    if text == "none" {
        return Ok(None);
    }
    let number = |part: &str| -> Option<u32> {
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        part.parse().ok()
    };
    let parsed = text
        .split_once('+')
        .and_then(|(m, s)| Some((number(m)?, number(s)?)))
        .filter(|&(m, s)| (1..=MAX_CLOCK_MINUTES).contains(&m) && s <= MAX_CLOCK_INCREMENT);
    match parsed {
        Some(clock) => Ok(Some(clock)),
        None => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid-clock",
            format!(
                "clock must be none or minutes+seconds like 5+3 (minutes 1 to \
                 {MAX_CLOCK_MINUTES}, increment 0 to {MAX_CLOCK_INCREMENT}), not {text:?}"
            ),
        )),
    }
}

/// Reads a display name: trimmed, 1 to [`MAX_NAME`] characters, no control characters;
/// else `400 invalid-field`.
///
/// ```
/// use agon_web::api::parse_name;
/// assert_eq!(parse_name("  Ada "), Ok("Ada".to_string()));
/// assert!(parse_name("").is_err());
/// assert!(parse_name("a\u{7}b").is_err());
/// assert!(parse_name(&"x".repeat(25)).is_err());
/// ```
pub fn parse_name(text: &str) -> Result<String, ApiError> {
    let name = text.trim();
    let length = name.chars().count();
    if !(1..=MAX_NAME).contains(&length) || name.chars().any(char::is_control) {
        return Err(ApiError::invalid_field(format!(
            "name must be 1 to {MAX_NAME} characters, without control characters"
        )));
    }
    Ok(name.to_string())
}

/// `POST /api/games/{id}/join`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The joining player's display name: 1 to 24 characters once trimmed, no control
    /// characters.
    #[serde(default)]
    #[schema(
        pattern = r"^[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u0000-\u001f\u007f-\u009f]([^\u0000-\u001f\u007f-\u009f]{0,22}[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u0000-\u001f\u007f-\u009f])?[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$"
    )]
    pub name: Option<String>,
}

/// The answer of `POST /api/games/{id}/join`.
#[derive(Serialize, ToSchema)]
pub struct JoinResponse {
    /// The secret of the seat taken.
    pub token: String,
    /// The seat's side.
    #[schema(value_type = SideName)]
    pub side: &'static str,
    /// The game's state.
    pub state: GameState,
}

/// The query of `GET /api/games/{id}`: `?view=white|black`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ViewQuery {
    /// The side at the bottom of the board (default: the creator's).
    #[param(value_type = Option<SideName>)]
    pub view: Option<String>,
}

/// A request that only proves who is asking.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// The game's secret token.
    pub token: String,
}

/// `POST /api/games/{id}/moves`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The game's secret token.
    pub token: String,
    /// The move in the notation: `f1-e1`, `f4>l1`, `f1e1` or `pass`.
    #[serde(rename = "move")]
    #[schema(example = "f1-e1")]
    pub text: String,
    /// Whether the computer answers in the same request (default true).
    #[serde(default = "yes")]
    pub reply: bool,
}

fn yes() -> bool {
    true
}

pub(crate) fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Random bytes as lowercase hex, from the operating system.
/// `N` bytes from the system's randomness (tokens, ids, seeds).
fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("randomness: {e}")))?;
    Ok(bytes)
}

pub(crate) fn random_hex<const N: usize>() -> Result<String, ApiError> {
    Ok(random_bytes::<N>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

pub(crate) fn random_u64() -> Result<u64, ApiError> {
    random_bytes().map(u64::from_le_bytes)
}

/// Game ids are 16 lowercase hex digits; anything else names no game.
pub(crate) fn valid_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The seat of the token in `game` (compared in constant time with both seats'):
/// `403 wrong-token` for neither.
fn seat(game: &WebGame, token: &str) -> Result<Side, ApiError> {
    game.seat_of(&digest(token))
        .ok_or_else(ApiError::wrong_token)
}

/// `409 not-against-computer` in a game between friends.
pub(crate) fn ensure_computer(game: &WebGame) -> Result<(), ApiError> {
    if game.opponent == Opponent::Computer {
        Ok(())
    } else {
        Err(ApiError::conflict(
            "not-against-computer",
            "this game is between friends, not against the computer",
        ))
    }
}

/// `409 not-a-friend-game` in a game against the computer.
pub(crate) fn ensure_friend(game: &WebGame) -> Result<(), ApiError> {
    if game.opponent == Opponent::Friend {
        Ok(())
    } else {
        Err(ApiError::conflict(
            "not-a-friend-game",
            "this game is against the computer",
        ))
    }
}

/// Reads game `id` from the database: `404 unknown-game` if there is none.
pub(crate) async fn load_game(app: &AppState, id: &str) -> Result<WebGame, ApiError> {
    if !valid_id(id) {
        return Err(ApiError::unknown_game());
    }
    app.store.load(id).await?.ok_or_else(ApiError::unknown_game)
}

/// Game `id` against the computer and not over, for the holder of `token` (what asking the
/// computer and asking for a hint both need; they change nothing, so no transaction).
async fn computer_game(app: &AppState, id: &str, token: &str) -> Result<WebGame, ApiError> {
    let game = load_game(app, id).await?;
    seat(&game, token)?;
    ensure_computer(&game)?;
    ensure_not_over(&game)?;
    Ok(game)
}

/// The query of `uri` as `T` (no query: every parameter absent), or `400 invalid-field`
/// naming what is wrong.
pub(crate) fn query<T: serde::de::DeserializeOwned>(uri: &Uri) -> Result<T, ApiError> {
    axum::extract::Query::try_from_uri(uri)
        .map(|query| query.0)
        .map_err(|e| ApiError::invalid_field(e.body_text()))
}

/// The game a change read: `404 unknown-game` if there is none.
fn found(game: Option<WebGame>) -> Result<WebGame, ApiError> {
    game.ok_or_else(ApiError::unknown_game)
}

pub(crate) fn ensure_not_over(game: &WebGame) -> Result<(), ApiError> {
    if game.is_over() {
        Err(game_over())
    } else {
        Ok(())
    }
}

/// `409 game-too-long` once the game holds `max_plies` moves ([`MAX_PLIES`]), for the
/// person's moves and the computer's alike.
fn ensure_room(game: &WebGame, max_plies: usize) -> Result<(), ApiError> {
    if game.plies() >= max_plies {
        Err(ApiError::conflict(
            "game-too-long",
            format!("this game has reached the limit of {max_plies} moves: start a new one"),
        ))
    } else {
        Ok(())
    }
}

/// `409 not-your-turn` while the computer is to move.
fn ensure_persons_turn(game: &WebGame) -> Result<(), ApiError> {
    if game.computer_to_move() {
        Err(ApiError::conflict(
            "not-your-turn",
            "the computer is to move",
        ))
    } else {
        Ok(())
    }
}

/// The 422 of an illegal move, named as agon-core names it.
fn illegal(reason: IllegalMove) -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        reason.name(),
        reason.to_string(),
    )
}

/// Changes game `id` in one database transaction ([`crate::Store::change`]): `f` gets the
/// game as read under the store's lock (`None`: no such game) and says what to write; the
/// game it answers as changed (saved with its next version) is published to this server's
/// streams once committed (with SQLite while the store is still locked, so in commit
/// order; PostgreSQL also notifies the other servers), and its clock's timer is set, both
/// by the store's `after`, which runs even when the request is dropped meanwhile.
pub(crate) async fn commit<T: Send + 'static>(
    app: &Arc<AppState>,
    id: &str,
    f: impl FnOnce(&mut Change, Option<WebGame>) -> Result<(T, Option<WebGame>), ApiError>
        + Send
        + 'static,
) -> Result<(T, Option<WebGame>), ApiError> {
    let after = {
        let app = app.clone();
        move |game: &WebGame| {
            app.hub.publish(game);
            tasks::schedule(&app, game);
        }
    };
    app.store.change(id, f, after).await
}

/// `409 game-over`.
pub(crate) fn game_over() -> ApiError {
    ApiError::conflict("game-over", "the game has ended")
}

/// Runs an action of the holder of `token` on game `id`, in one transaction: loads the
/// game, finds the token's seat, ends the game if the running clock has run out (that is
/// committed, and the action refused with `409 game-over`), runs `f` with the change to
/// write, the game, the seat and the time, and saves the game with its next version. Answers the changed game.
pub(crate) async fn act<T: Send + 'static>(
    app: &Arc<AppState>,
    id: String,
    token: String,
    f: impl FnOnce(&mut Change, &mut WebGame, Side, i64) -> Result<T, ApiError> + Send + 'static,
) -> Result<(WebGame, Side, T), ApiError> {
    if !valid_id(&id) {
        return Err(ApiError::unknown_game());
    }
    let (value, changed) = commit(app, &id, move |tx, game| {
        let mut game = found(game)?;
        let seat = seat(&game, &token)?;
        let now = now_ms();
        if game.flag(now) {
            tx.save(&mut game, now);
            return Ok((None, Some(game)));
        }
        let value = f(tx, &mut game, seat, now)?;
        tx.save(&mut game, now);
        Ok((Some((seat, value)), Some(game)))
    })
    .await?;
    match (value, changed) {
        (Some((seat, value)), Some(game)) => Ok((game, seat, value)),
        _ => Err(game_over()),
    }
}

/// Ends game `id` by `time-forfeit` if its running clock has run out, and publishes it;
/// else sets its timer again (the clock's timer and the server's start call it).
pub(crate) async fn settle_clock(app: &Arc<AppState>, id: String) -> Result<(), ApiError> {
    let (unchanged, _) = commit(app, &id, move |tx, game| {
        let Some(mut game) = game else {
            return Ok((None, None));
        };
        let now = now_ms();
        if game.flag(now) {
            tx.save(&mut game, now);
            Ok((None, Some(game)))
        } else {
            Ok((Some(game), None))
        }
    })
    .await?;
    if let Some(game) = unchanged {
        tasks::schedule(app, &game);
    }
    Ok(())
}

/// The state of `game` for the answer to `view`'s side (or the creator's), with the
/// seats' presence.
pub(crate) fn state_for(app: &AppState, game: &WebGame, view: Option<Side>) -> GameState {
    GameState::view(
        game,
        View {
            side: view.unwrap_or(game.human),
            now_ms: now_ms(),
            present: app.hub.present(&game.id),
            minute_ms: app.clock_minute_ms,
        },
    )
}

/// Lets the computer move in `game` if it is its turn, and stores the move unless the game
/// changed meanwhile (an undo, a second tab); answers the game as it now stands.
/// The computer's reply after a change that is already stored (a new game, a rematch, the
/// person's move): that change stands whatever becomes of the reply, so a failure (a busy
/// server, the move limit, the database) answers the game as stored, still saying
/// `computer_to_move`, and the page asks `POST .../computer` itself. Answering an error
/// instead would make the page send a change that was made again.
pub(crate) async fn reply_to(app: &Arc<AppState>, game: WebGame) -> WebGame {
    computer_reply(app, game.clone()).await.unwrap_or(game)
}

async fn computer_reply(app: &Arc<AppState>, game: WebGame) -> Result<WebGame, ApiError> {
    if !game.computer_to_move() {
        return Ok(game);
    }
    ensure_room(&game, app.max_plies)?;
    let (level, seed) = (game.level, game.seed);
    let position = game.game.clone();
    let metrics = app.metrics.clone();
    let m = app
        .workers
        .run(level.expected_ms(), move || {
            metrics.search(level.name(), || level.choose(&position, seed))
        })
        .await?;
    let Some(m) = m else {
        return Ok(game);
    };
    let (id, base) = (game.id.clone(), game.version);
    let (unchanged, changed) = commit(app, &id, move |tx, stored| {
        let mut stored = found(stored)?;
        if stored.version != base || !stored.computer_to_move() {
            // Someone else changed the game while the computer thought.
            return Ok((Some(stored), None));
        }
        let now = now_ms();
        if !stored.flag(now) {
            let before = stored.plies();
            // The bot returns one of the position's legal moves.
            if stored.play_at(m, now).is_err() {
                unreachable!("the {level} bot chose an illegal move");
            }
            tx.append(&stored, before, now);
        }
        tx.save(&mut stored, now);
        Ok((None, Some(stored)))
    })
    .await?;
    if changed.is_some() {
        app.metrics.computer_moved();
    }
    changed
        .or(unchanged)
        .ok_or_else(|| ApiError::internal("the computer's move was lost"))
}

/// `POST /api/games`: creates a game; when the computer moves first, answers after its move.
#[utoipa::path(
    post,
    path = "/api/games",
    tag = "games",
    request_body = NewGameRequest,
    responses(
        (status = 201, description = "The game, created: its id, the creator's token and side, and its state (after the computer's first move when it opens)", body = NewGameResponse),
        (status = 400, description = "a field is wrong: `invalid-field`, `invalid-clock`, `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`", body = ErrorBody),
    )
)]
pub async fn create(
    State(app): State<Arc<AppState>>,
    JsonBody(request): JsonBody<NewGameRequest>,
) -> Result<Response, ApiError> {
    let opponent = match request.opponent.as_deref() {
        None => Opponent::Computer,
        Some(text) => text.parse().map_err(ApiError::invalid_field)?,
    };
    let human = match Side::from_name(&request.side) {
        Some(side) => side,
        None if request.side == "random" => {
            if random_u64()? & 1 == 0 {
                Side::White
            } else {
                Side::Black
            }
        }
        None => {
            return Err(ApiError::invalid_field(format!(
                "side must be white, black or random, not {:?}",
                request.side
            )))
        }
    };
    let level: Level = match (opponent, request.level.as_deref()) {
        (Opponent::Computer, None) => {
            return Err(ApiError::invalid_field(
                "level (easy, medium or hard) is required against the computer",
            ))
        }
        (Opponent::Computer, Some(text)) => text.parse().map_err(ApiError::invalid_field)?,
        // Unused: a game between friends has no computer.
        (Opponent::Friend, _) => Level::Easy,
    };
    let rules = parse_rules(request.rules.as_deref())?;
    let start = match &request.position {
        None => Position::start_with_rules(rules),
        Some(text) => Position::from_text_with_rules(text, rules)
            .map_err(|e| ApiError::invalid_field(format!("position: {e}")))?,
    };
    let clock = match request.clock.as_deref() {
        None => None,
        Some(text) => parse_clock(text)?,
    };
    let name = request.name.as_deref().map(parse_name).transpose()?;
    let token = random_hex::<16>()?;
    let mut game = WebGame::new(
        random_hex::<8>()?,
        digest(&token),
        human,
        level,
        random_u64()?,
        start,
    );
    game.opponent = opponent;
    game.names[human.index()] = name;
    let minute = app.clock_minute_ms;
    game.clock = clock.map(|(minutes, seconds)| {
        Clock::new(
            i64::from(minutes) * minute,
            i64::from(seconds) * minute / 60,
        )
    });
    app.store.insert(&game, now_ms()).await?;
    app.metrics.game_created(
        opponent.name(),
        match opponent {
            Opponent::Computer => level.name(),
            Opponent::Friend => "none",
        },
    );
    let game = reply_to(&app, game).await;
    let body = NewGameResponse {
        id: game.id.clone(),
        token,
        side: side_name(human),
        state: state_for(&app, &game, None),
    };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `POST /api/games/{id}/join`: takes the free seat of a game between friends.
#[utoipa::path(
    post,
    path = "/api/games/{id}/join",
    tag = "friends",
    params(GameId),
    request_body = JoinRequest,
    responses(
        (status = 200, description = "The free seat taken: its token and side, and the state", body = JoinResponse),
        (status = 400, description = "the name is not 1 to 24 characters without control characters: `invalid-field`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `not-a-friend-game`, `seat-taken`, `game-over`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn join(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<JoinRequest>,
) -> Result<Json<JoinResponse>, ApiError> {
    let name = request.name.as_deref().map(parse_name).transpose()?;
    let token = random_hex::<16>()?;
    let seat_digest = digest(&token);
    if !valid_id(&id) {
        return Err(ApiError::unknown_game());
    }
    let (_, game) = commit(&app, &id, move |tx, game| {
        let mut game = found(game)?;
        ensure_friend(&game)?;
        if game.guest_sha256.is_some() {
            return Err(ApiError::conflict(
                "seat-taken",
                "both seats are taken: you can watch the game",
            ));
        }
        ensure_not_over(&game)?;
        let now = now_ms();
        game.guest_sha256 = Some(seat_digest);
        game.names[game.human.other().index()] = name;
        game.start_clock(now);
        tx.save(&mut game, now);
        Ok(((), Some(game)))
    })
    .await?;
    let game = game.ok_or_else(|| ApiError::internal("the joined game was lost"))?;
    let side = game.human.other();
    Ok(Json(JoinResponse {
        token,
        side: side_name(side),
        state: state_for(&app, &game, Some(side)),
    }))
}

/// `GET /api/games/{id}?view=white|black`.
#[utoipa::path(
    get,
    path = "/api/games/{id}",
    tag = "games",
    params(GameId, ViewQuery),
    responses(
        (status = 200, description = "The game's state", body = GameState),
        (status = 400, description = "the query is wrong (`view` is not white or black): `invalid-field`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
    )
)]
pub async fn show(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    uri: Uri,
) -> Result<Json<GameState>, ApiError> {
    let view = parse_view(query::<ViewQuery>(&uri)?.view.as_deref())?;
    let game = load_game(&app, &id).await?;
    Ok(Json(state_for(&app, &game, view)))
}

/// `POST /api/games/{id}/moves`: the move of the token's seat; against the computer,
/// then (unless `reply` is false) the computer's.
#[utoipa::path(
    post,
    path = "/api/games/{id}/moves",
    tag = "games",
    params(GameId),
    request_body = MoveRequest,
    responses(
        (status = 200, description = "The state after the move and, against the computer (unless `reply` is false), its reply", body = GameState),
        (status = 400, description = "the move does not parse: `malformed-move`", body = ErrorBody),
        (status = 403, description = "the token is not this game's: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `game-over`, `game-too-long`, `not-your-turn`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
        (status = 422, description = "the move is illegal here; the error is agon-core's IllegalMove name (not-your-piece, between-enemies, must-return, no-pass, ...)", body = ErrorBody),
    )
)]
pub async fn play(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Json<GameState>, ApiError> {
    let max_plies = app.max_plies;
    let text = request.text;
    let (game, seat, ()) = act(&app, id, request.token, move |tx, game, seat, now| {
        ensure_not_over(game)?;
        ensure_room(game, max_plies)?;
        if game.game.position().chooser() != seat {
            return Err(ApiError::conflict(
                "not-your-turn",
                match game.opponent {
                    Opponent::Computer => "the computer is to move",
                    Opponent::Friend => "your opponent is to move",
                },
            ));
        }
        let m: Move =
            game.game.position().parse_move(&text).map_err(|e| {
                ApiError::new(StatusCode::BAD_REQUEST, "malformed-move", e.to_string())
            })?;
        let before = game.plies();
        game.play_at(m, now).map_err(illegal)?;
        tx.append(game, before, now);
        Ok(())
    })
    .await?;
    app.metrics.person_moved();
    let game = if request.reply && game.opponent == Opponent::Computer {
        reply_to(&app, game).await
    } else {
        game
    };
    Ok(Json(state_for(&app, &game, Some(seat))))
}

/// `POST /api/games/{id}/computer`: the computer's move, when it is its turn.
#[utoipa::path(
    post,
    path = "/api/games/{id}/computer",
    tag = "games",
    params(GameId),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The state after the computer's move", body = GameState),
        (status = 403, description = "the token is not this game's: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `not-against-computer`, `game-over`, `game-too-long`, `not-computer-turn`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
        (status = 503, description = "every search worker is busy and the queue is full: `server-busy`", body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn computer(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let game = computer_game(&app, &id, &request.token).await?;
    if !game.computer_to_move() {
        return Err(ApiError::conflict(
            "not-computer-turn",
            "it is your turn, not the computer's",
        ));
    }
    let game = computer_reply(&app, game).await?;
    Ok(Json(state_for(&app, &game, None)))
}

/// How much the engine searches for a hint: a node budget, so that the same position gets
/// the same hint, under a time cap for a busy server.
pub const HINT_NODES: u64 = 200_000;

/// The most time a hint may take, whatever the node budget.
pub const HINT_TIME: std::time::Duration = std::time::Duration::from_millis(1000);

/// The answer of `POST /api/games/{id}/hint`: the move the engine suggests to the person.
#[derive(Serialize, Debug, ToSchema)]
pub struct Hint {
    /// The move in the notation (`e5-f5`, `f4>l1`).
    #[serde(rename = "move")]
    pub text: String,
    /// The cell of the piece that moves: the stepping piece, or the captured one returned.
    pub from: Option<String>,
    /// The cell it goes to (`null` for a pass).
    pub to: Option<String>,
    /// The engine's score for the person: `+1.23` (centipoints, see
    /// `agon_bots::Evaluation`), `win in 3` or `loss in 2`.
    pub score: String,
    /// `N` when the engine found that the move forces a win with the person's N-th move
    /// from now (1: this move wins), else `null`.
    pub win_in: Option<u32>,
    /// The line the engine expects, the suggested move first.
    pub pv: Vec<String>,
}

/// The engine's suggestion for the side to move of `game`, or `None` once it is over.
///
/// ```
/// use agon_core::Game;
/// let hint = agon_web::api::hint_for(&Game::new()).unwrap();
/// assert!(Game::new().is_legal(hint.text.parse().unwrap()));
/// assert_eq!(hint.pv[0], hint.text);
/// ```
pub fn hint_for(game: &agon_core::Game) -> Option<Hint> {
    let limits = agon_bots::Limits::nodes(HINT_NODES).with_time(HINT_TIME);
    let analysis = agon_bots::analyse(game, limits, 1).ok()?;
    let best = analysis.best_move();
    Some(Hint {
        text: best.to_string(),
        from: best.from().map(|c| c.to_string()),
        to: best.to().map(|c| c.to_string()),
        score: analysis.score().to_string(),
        win_in: match analysis.score() {
            agon_bots::Evaluation::Win(n) => Some(n),
            _ => None,
        },
        pv: analysis.pv().iter().map(Move::to_string).collect(),
    })
}

/// `POST /api/games/{id}/hint`: the engine's suggestion for the person's move. It changes
/// nothing: the person still plays the move they choose.
#[utoipa::path(
    post,
    path = "/api/games/{id}/hint",
    tag = "games",
    params(GameId),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The engine's suggestion for the person's move; the game does not change", body = Hint),
        (status = 403, description = "the token is not this game's: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `not-against-computer`, `game-over`, `not-your-turn`", body = ErrorBody),
        (status = 503, description = "every search worker is busy and the queue is full: `server-busy`", body = ErrorBody, headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn hint(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<Hint>, ApiError> {
    let game = computer_game(&app, &id, &request.token).await?;
    ensure_persons_turn(&game)?;
    let cost = HINT_TIME.as_millis() as usize / 2;
    let metrics = app.metrics.clone();
    app.workers
        .run(cost, move || {
            metrics.search("hint", || hint_for(&game.game))
        })
        .await?
        // A game that is not over has a legal move, and the engine returns one.
        .ok_or_else(|| ApiError::internal("the engine found no move".to_string()))
        .map(Json)
}

/// `POST /api/games/{id}/undo`: takes back the person's last move and the replies after it
/// (against the computer; between friends a takeback is asked for, see
/// [`crate::friend::takeback`]).
#[utoipa::path(
    post,
    path = "/api/games/{id}/undo",
    tag = "games",
    params(GameId),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The state with the person's last move and the replies after it taken back", body = GameState),
        (status = 403, description = "the token is not this game's: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `not-against-computer`, `nothing-to-undo`, `game-over`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn undo(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let (game, _, ()) = act(&app, id, request.token, |tx, game, _, now| {
        ensure_computer(game)?;
        let keep = match last_human_ply(game) {
            Some(ply) if game.end.is_none() => ply,
            _ => {
                return Err(ApiError::conflict(
                    "nothing-to-undo",
                    "you have no move to take back",
                ))
            }
        };
        tx.truncate(&game.id, keep);
        game.take_back_to(keep, now);
        Ok(())
    })
    .await?;
    Ok(Json(state_for(&app, &game, None)))
}

/// `POST /api/games/{id}/resign`: the token's seat gives the game up.
#[utoipa::path(
    post,
    path = "/api/games/{id}/resign",
    tag = "games",
    params(GameId),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The state, the game lost by the token's seat", body = GameState),
        (status = 403, description = "the token is not this game's: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `game-over`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn resign(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let (game, seat, ()) = act(&app, id, request.token, |_, game, seat, now| {
        ensure_not_over(game)?;
        game.end_with(EndKind::Resignation, Some(seat.other()), now);
        Ok(())
    })
    .await?;
    Ok(Json(state_for(&app, &game, Some(seat))))
}

/// The game record of a web game: its moves, the players and the result (an end outside
/// the rules, like a resignation or a time forfeit, included).
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_web::{api::record_of, store::{End, EndKind, WebGame}, Level};
/// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::Black, Level::Hard, 1, Position::start());
/// game.play("f1-e1".parse()?)?;
/// game.end = Some(End { kind: EndKind::Resignation, winner: Some(Side::White) });
/// let text = record_of(&game).to_string();
/// assert!(text.contains("[White \"computer (hard)\"]"));
/// assert!(text.ends_with("1. f1-e1 1-0\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn record_of(game: &WebGame) -> Record {
    let mut record = Record::new(game.game.clone());
    let player = |side: Side| -> String {
        match game.opponent {
            Opponent::Computer if side == game.human => "you".to_string(),
            Opponent::Computer => format!("computer ({})", game.level),
            Opponent::Friend => game.names[side.index()]
                .clone()
                .unwrap_or_else(|| side_name(side).to_string()),
        }
    };
    let (white, black) = (player(Side::White), player(Side::Black));
    let termination = if let Some(end) = game.end {
        // Only a game still going can end outside the rules, so any result is its to take.
        let set = record.set_result(match end.winner {
            Some(Side::White) => Score::WhiteWins,
            Some(Side::Black) => Score::BlackWins,
            None => Score::Draw,
        });
        debug_assert!(
            set.is_ok(),
            "a game ended outside the rules was over: {set:?}"
        );
        Some(end.kind.name())
    } else {
        game.game.outcome().map(|outcome| outcome.reason.name())
    };
    let tags = [
        ("Event", "agon-web"),
        ("Game", game.id.as_str()),
        ("White", white.as_str()),
        ("Black", black.as_str()),
    ];
    for (name, value) in tags
        .into_iter()
        .chain(termination.map(|t| ("Termination", t)))
    {
        // Fixed names; the values are hex ids, levels and names without control
        // characters (parse_name), so without line breaks.
        let set = record.set_tag(name, value);
        debug_assert!(set.is_ok(), "tag {name}: {set:?}");
    }
    record
}

/// `GET /api/games/{id}/record`: the game record, as a download.
#[utoipa::path(
    get,
    path = "/api/games/{id}/record",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "The game record (agon-core's Record), as a download", body = String, content_type = "text/plain"),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
    )
)]
pub async fn record(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = load_game(&app, &id).await?;
    let disposition = format!("attachment; filename=\"agon-{}.txt\"", game.id);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        record_of(&game).to_string(),
    )
        .into_response())
}

/// `GET /api/board.svg?position=TEXT&flipped=1&last=MOVE&rules=RULES`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct BoardQuery {
    /// The position's text (default: the start).
    pub position: Option<String>,
    /// `1` or `true` to turn the board (Black at the bottom).
    pub flipped: Option<String>,
    /// A move to highlight.
    pub last: Option<String>,
    /// The rule set the position is read under (default standard): under
    /// `between=trapped` both sides may hold captured pieces.
    pub rules: Option<String>,
}

/// `GET /api/board.svg`: any position drawn.
#[utoipa::path(
    get,
    path = "/api/board.svg",
    tag = "games",
    params(BoardQuery),
    responses(
        (status = 200, description = "The position drawn", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "the query is wrong: `invalid-field` (an unknown parameter, the position, `flipped`), `malformed-move` (`last`), `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`", body = ErrorBody),
    )
)]
pub async fn board_svg(uri: Uri) -> Result<Response, ApiError> {
    let query: BoardQuery = query(&uri)?;
    let rules = parse_rules(query.rules.as_deref())?;
    let position: Position = match &query.position {
        None => Position::start_with_rules(rules),
        Some(text) => Position::from_text_with_rules(text, rules)
            .map_err(|e| ApiError::invalid_field(format!("position: {e}")))?,
    };
    let flipped = match query.flipped.as_deref() {
        None | Some("0") | Some("false") => false,
        Some("1") | Some("true") => true,
        Some(other) => {
            return Err(ApiError::invalid_field(format!(
                "flipped must be 0, 1, true or false, not {other:?}"
            )))
        }
    };
    let last = match &query.last {
        None => None,
        Some(text) => Some(position.parse_move(text).map_err(|e| {
            ApiError::new(StatusCode::BAD_REQUEST, "malformed-move", e.to_string())
        })?),
    };
    let svg = agon_svg::Svg::new(&position)
        .size(None)
        .flipped(flipped)
        .last_move(last)
        .to_string();
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

/// The request's `Cookie` and `Accept-Language` headers, as text.
pub(crate) fn language_headers(headers: &HeaderMap) -> (Option<&str>, Option<&str>) {
    let get = |name| {
        headers
            .get(name)
            .and_then(|v: &header::HeaderValue| v.to_str().ok())
    };
    (get(header::COOKIE), get(header::ACCEPT_LANGUAGE))
}
