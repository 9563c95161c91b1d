//! The JSON API: creating games, moving, the computer's replies, undo, resign, records.
//!
//! Each handler validates the whole request before it writes anything, and writes in one
//! transaction, so a request that fails changes nothing.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

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
use subtle::ConstantTimeEq;

use crate::state::{last_human_ply, GameState};
use crate::store::{self, WebGame};
use crate::{ApiError, AppState, Level};

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
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGameRequest {
    /// `white`, `black` or `random`.
    pub side: String,
    /// `easy`, `medium` or `hard`.
    pub level: String,
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
#[derive(Serialize)]
pub struct NewGameResponse {
    /// The game's public id.
    pub id: String,
    /// The secret that lets its holder play the game.
    pub token: String,
    /// The game's state.
    pub state: GameState,
}

/// A request that only proves who is asking.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// The game's secret token.
    pub token: String,
}

/// `POST /api/games/{id}/moves`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The game's secret token.
    pub token: String,
    /// The move in the notation: `f1-e1`, `f4>l1`, `f1e1` or `pass`.
    #[serde(rename = "move")]
    pub text: String,
    /// Whether the computer answers in the same request (default true).
    #[serde(default = "yes")]
    pub reply: bool,
}

fn yes() -> bool {
    true
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Random bytes as lowercase hex, from the operating system.
fn random_hex<const N: usize>() -> Result<String, ApiError> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("randomness: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn random_u64() -> Result<u64, ApiError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|e| ApiError::internal(format!("randomness: {e}")))?;
    Ok(u64::from_le_bytes(bytes))
}

/// Game ids are 16 lowercase hex digits; anything else names no game.
fn valid_id(id: &str) -> bool {
    id.len() == 16 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn now_unix() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Loads a game inside a transaction and checks the token, in constant time.
fn load_owned(tx: &rusqlite::Transaction<'_>, id: &str, token: &str) -> Result<WebGame, ApiError> {
    let game = load_game(tx, id)?;
    if bool::from(game.token_sha256.ct_eq(&digest(token))) {
        Ok(game)
    } else {
        Err(ApiError::wrong_token())
    }
}

fn load_game(tx: &rusqlite::Transaction<'_>, id: &str) -> Result<WebGame, ApiError> {
    if !valid_id(id) {
        return Err(ApiError::unknown_game());
    }
    store::load(tx, id)?.ok_or_else(ApiError::unknown_game)
}

fn ensure_not_over(game: &WebGame) -> Result<(), ApiError> {
    if game.is_over() {
        Err(ApiError::conflict("game-over", "the game has ended"))
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

/// Runs blocking work (the database) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("worker: {e}")))?
}

/// Runs `f` in one database transaction on a blocking thread.
async fn transact<T: Send + 'static>(
    app: &AppState,
    f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let store = app.store.clone();
    blocking(move || store.transaction(f)).await
}

/// Lets the computer move in `game` if it is its turn, and stores the move unless the game
/// changed meanwhile (an undo, a second tab); answers the game as it now stands.
async fn computer_reply(app: &AppState, game: WebGame) -> Result<WebGame, ApiError> {
    if !game.computer_to_move() {
        return Ok(game);
    }
    let (level, seed) = (game.level, game.seed);
    let (metrics, counted) = (app.metrics.clone(), app.metrics.clone());
    let mut game = app
        .workers
        .run(level.expected_ms(), move || {
            let m = metrics.search(level.name(), || level.choose(&game.game, seed));
            (game, m)
        })
        .await
        .map(|(mut game, m)| {
            if let Some(m) = m {
                // The bot returns one of the position's legal moves.
                if game.play(m).is_err() {
                    unreachable!("the {level} bot chose an illegal move");
                }
            }
            game
        })?;
    transact(app, move |tx| {
        let Some(stored) = store::load(tx, &game.id)? else {
            return Err(ApiError::unknown_game());
        };
        if stored.plies() + 1 != game.plies() || stored.resigned {
            // Someone else changed the game while the computer thought.
            return Ok(stored);
        }
        store::append(tx, &game, stored.plies())?;
        counted.computer_moved();
        game.resigned = stored.resigned;
        Ok(game)
    })
    .await
}

/// `POST /api/games`: creates a game; when the computer moves first, answers after its move.
pub async fn create(
    State(app): State<Arc<AppState>>,
    JsonBody(request): JsonBody<NewGameRequest>,
) -> Result<Response, ApiError> {
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
    let level: Level = request.level.parse().map_err(ApiError::invalid_field)?;
    let rules = parse_rules(request.rules.as_deref())?;
    let start = match &request.position {
        None => Position::start_with_rules(rules),
        Some(text) => Position::from_text_with_rules(text, rules)
            .map_err(|e| ApiError::invalid_field(format!("position: {e}")))?,
    };
    let token = random_hex::<16>()?;
    let game = WebGame::new(
        random_hex::<8>()?,
        digest(&token),
        human,
        level,
        random_u64()?,
        start,
    );
    let created = game.clone();
    transact(&app, move |tx| store::insert(tx, &created, now_unix())).await?;
    app.metrics.game_created(level.name());
    let game = computer_reply(&app, game).await?;
    let body = NewGameResponse {
        id: game.id.clone(),
        token,
        state: GameState::of(&game),
    };
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// `GET /api/games/{id}`.
pub async fn show(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<GameState>, ApiError> {
    let game = transact(&app, move |tx| load_game(tx, &id)).await?;
    Ok(Json(GameState::of(&game)))
}

/// `POST /api/games/{id}/moves`: the person's move, then (unless `reply` is false) the
/// computer's.
pub async fn play(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Json<GameState>, ApiError> {
    let max_plies = app.max_plies;
    let game = transact(&app, move |tx| {
        let mut game = load_owned(tx, &id, &request.token)?;
        ensure_not_over(&game)?;
        if game.plies() >= max_plies {
            return Err(ApiError::conflict(
                "game-too-long",
                format!("this game has reached the limit of {max_plies} moves: start a new one"),
            ));
        }
        ensure_persons_turn(&game)?;
        let m: Move = game
            .game
            .position()
            .parse_move(&request.text)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "malformed-move", e.to_string()))?;
        let before = game.plies();
        game.play(m).map_err(illegal)?;
        store::append(tx, &game, before)?;
        Ok((game, request.reply))
    })
    .await;
    let (game, reply) = game?;
    app.metrics.person_moved();
    let game = if reply {
        // A busy server still accepted the move: the state says the computer is to move.
        match computer_reply(&app, game.clone()).await {
            Err(e) if e.name == "server-busy" => game,
            other => other?,
        }
    } else {
        game
    };
    Ok(Json(GameState::of(&game)))
}

/// `POST /api/games/{id}/computer`: the computer's move, when it is its turn.
pub async fn computer(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let game = transact(&app, move |tx| load_owned(tx, &id, &request.token)).await?;
    ensure_not_over(&game)?;
    if !game.computer_to_move() {
        return Err(ApiError::conflict(
            "not-computer-turn",
            "it is your turn, not the computer's",
        ));
    }
    let game = computer_reply(&app, game).await?;
    Ok(Json(GameState::of(&game)))
}

/// How much the engine searches for a hint: a node budget, so that the same position gets
/// the same hint, under a time cap for a busy server.
pub const HINT_NODES: u64 = 200_000;

/// The most time a hint may take, whatever the node budget.
pub const HINT_TIME: std::time::Duration = std::time::Duration::from_millis(1000);

/// The answer of `POST /api/games/{id}/hint`: the move the engine suggests to the person.
#[derive(Serialize, Debug)]
pub struct Hint {
    /// The move in the notation (`e5-f5`, `f4>l1`).
    #[serde(rename = "move")]
    pub text: String,
    /// The cell of the piece that moves: the stepping piece, or the captured one returned.
    pub from: Option<String>,
    /// The cell it goes to (`null` for a pass).
    pub to: Option<String>,
    /// The engine's score for the person: `+1.23` (centipoints, see
    /// `agon_bots::Score`), `win in 3` or `loss in 2`.
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
            agon_bots::Score::Win(n) => Some(n),
            _ => None,
        },
        pv: analysis.pv().iter().map(Move::to_string).collect(),
    })
}

/// `POST /api/games/{id}/hint`: the engine's suggestion for the person's move. It changes
/// nothing: the person still plays the move they choose.
pub async fn hint(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<Hint>, ApiError> {
    let game = transact(&app, move |tx| load_owned(tx, &id, &request.token)).await?;
    ensure_not_over(&game)?;
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

/// `POST /api/games/{id}/undo`: takes back the person's last move and the replies after it.
pub async fn undo(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let game = transact(&app, move |tx| {
        let mut game = load_owned(tx, &id, &request.token)?;
        let keep = match last_human_ply(&game) {
            Some(ply) if !game.resigned => ply,
            _ => {
                return Err(ApiError::conflict(
                    "nothing-to-undo",
                    "you have no move to take back",
                ))
            }
        };
        store::truncate(tx, &id, keep)?;
        while game.plies() > keep {
            game.game.undo();
        }
        // What the move before captured, for the state's last_captures.
        game.last_captures = match (game.game.moves().last(), game.game.positions()) {
            (Some(&m), positions) if positions.len() >= 2 => {
                positions[positions.len() - 2].captures(m)
            }
            _ => agon_core::CellSet::EMPTY,
        };
        Ok(game)
    })
    .await?;
    Ok(Json(GameState::of(&game)))
}

/// `POST /api/games/{id}/resign`: the person gives the game up.
pub async fn resign(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let game = transact(&app, move |tx| {
        let mut game = load_owned(tx, &id, &request.token)?;
        ensure_not_over(&game)?;
        store::resign(tx, &id)?;
        game.resigned = true;
        Ok(game)
    })
    .await?;
    Ok(Json(GameState::of(&game)))
}

/// The game record of a web game: its moves, the players and the result (a resignation
/// included).
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_web::{api::record_of, store::WebGame, Level};
/// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::Black, Level::Hard, 1, Position::start());
/// game.play("f1-e1".parse()?)?;
/// game.resigned = true;
/// let text = record_of(&game).to_string();
/// assert!(text.contains("[White \"computer (hard)\"]"));
/// assert!(text.ends_with("1. f1-e1 1-0\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn record_of(game: &WebGame) -> Record {
    let mut record = Record::new(game.game.clone());
    let computer = format!("computer ({})", game.level);
    let (white, black) = match game.human {
        Side::White => ("you".to_string(), computer),
        Side::Black => (computer, "you".to_string()),
    };
    let termination = if game.resigned {
        // Only a game still going can be resigned, so any result is its to take.
        let set = record.set_result(match game.human {
            Side::White => Score::BlackWins,
            Side::Black => Score::WhiteWins,
        });
        debug_assert!(set.is_ok(), "a resigned game was over: {set:?}");
        Some("resignation")
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
        // Fixed names, and values without line breaks (ids are hex, levels are names).
        let set = record.set_tag(name, value);
        debug_assert!(set.is_ok(), "tag {name}: {set:?}");
    }
    record
}

/// `GET /api/games/{id}/record`: the game record, as a download.
pub async fn record(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = transact(&app, move |tx| load_game(tx, &id)).await?;
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
#[derive(Deserialize)]
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
pub async fn board_svg(uri: Uri) -> Result<Response, ApiError> {
    let query: BoardQuery = axum::extract::Query::try_from_uri(&uri)
        .map_err(|e| ApiError::invalid_field(e.body_text()))?
        .0;
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
