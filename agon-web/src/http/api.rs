//! The JSON API's handlers: creating games, moving, the computer's replies, hints, undo,
//! resign, records, any position drawn. Each reads its request ([`super::request`]), calls
//! the service ([`crate::service`]), the one place a game changes, and answers the state
//! as the seat sees it ([`super::state`]).

use std::sync::Arc;

use agon_core::{Move, Side};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub use super::request::{
    parse_clock, parse_name, parse_position, rules_error, JsonBody, MAX_BODY, MAX_CLOCK_INCREMENT,
    MAX_CLOCK_MINUTES, MAX_NAME,
};
pub use crate::game::MAX_PLIES;

use super::names::{GameId, LevelName, OpponentName, SideChoice, SideName};
use super::request::{parse_rules, parse_view, query};
use super::responses::{SeatErrors, UnknownGame, WorkersBusy};
use super::state::{side_name, state_for, GameState};
use crate::error::{ApiError, ErrorBody};
use crate::game::{record_of, Level, Opponent};
use crate::ids;
use crate::limits::Charge;
use crate::service::{self, AppState, NewGame, SeatAction};

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
    pub name: Option<String>,
    /// A start position other than the standard one (read under `rules`).
    #[serde(default)]
    pub position: Option<String>,
    /// The rule set, in its text form (`standard`, `ludii`,
    /// `standard+capture=same-ring+limit=300`); the standard rules when absent.
    #[serde(default)]
    pub rules: Option<String>,
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

/// `POST /api/games/{id}/join`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The joining player's display name: 1 to 24 characters once trimmed, no control
    /// characters.
    #[serde(default)]
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

// Defined with the request readers, which the accounts' handlers (named by this file)
// read too; kept here under its old path.
pub use super::request::TokenRequest;

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
    headers: HeaderMap,
    JsonBody(request): JsonBody<NewGameRequest>,
) -> Result<Response, ApiError> {
    let opponent = match request.opponent.as_deref() {
        None => Opponent::Computer,
        Some(text) => text.parse().map_err(ApiError::invalid_field)?,
    };
    let human = match Side::from_name(&request.side) {
        Some(side) => side,
        None if request.side == "random" => {
            if ids::random_u64()? & 1 == 0 {
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
        // Unused: a game between friends has no computer; a level given must still be one
        // (the document lists the names), so a typo is not silently taken.
        (Opponent::Friend, Some(text)) => {
            text.parse::<Level>().map_err(ApiError::invalid_field)?;
            Level::Easy
        }
        (Opponent::Friend, None) => Level::Easy,
    };
    let rules = parse_rules(request.rules.as_deref())?;
    let start = parse_position(request.position.as_deref(), rules)?;
    let clock = match request.clock.as_deref() {
        None => None,
        Some(text) => parse_clock(text)?,
    };
    let name = request.name.as_deref().map(parse_name).transpose()?;
    let new = NewGame {
        human,
        opponent,
        level,
        start,
        clock,
        name,
        account: super::accounts::account_of(&app, &headers).await?,
    };
    let (token, game) = service::create(&app, new).await?;
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
        UnknownGame,
        (status = 409, description = "refused: `not-a-friend-game`, `seat-taken`, `game-over`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn join(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<JoinRequest>,
) -> Result<Json<JoinResponse>, ApiError> {
    let name = request.name.as_deref().map(parse_name).transpose()?;
    let account = super::accounts::account_of(&app, &headers).await?;
    let (token, game) = service::join(&app, &id, name, account).await?;
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
        UnknownGame,
    )
)]
pub async fn show(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    uri: Uri,
) -> Result<Json<GameState>, ApiError> {
    let view = parse_view(query::<ViewQuery>(&uri)?.view.as_deref())?;
    let game = service::load_game(&app, &id).await?;
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
        SeatErrors,
        (status = 409, description = "refused: `game-over`, `game-too-long`, `not-your-turn`, `conflict` (the game changed meanwhile: reload and retry), or the move is illegal in the game's position: then the error is agon-core's IllegalMove name (not-your-piece, between-enemies, must-return, no-pass, ...)", body = ErrorBody),
    )
)]
pub async fn play(
    State(app): State<Arc<AppState>>,
    Extension(charge): Extension<Charge>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<MoveRequest>,
) -> Result<Json<GameState>, ApiError> {
    let (game, seat) =
        service::play(&app, charge, id, request.token, request.text, request.reply).await?;
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
        SeatErrors,
        (status = 409, description = "refused: `not-against-computer`, `game-over`, `game-too-long`, `not-computer-turn`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
        WorkersBusy,
    )
)]
pub async fn computer(
    State(app): State<Arc<AppState>>,
    Extension(charge): Extension<Charge>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let game = service::computer(&app, &charge, &id, &request.token).await?;
    Ok(Json(state_for(&app, &game, None)))
}

/// How much the engine searches for a hint: a node budget, so that the same position gets
/// the same hint, under a time cap for a busy server.
pub const HINT_NODES: u64 = 200_000;

/// The most time a hint may take, whatever the node budget.
pub const HINT_TIME: std::time::Duration = std::time::Duration::from_millis(1000);

/// What a hint counts for, in milliseconds of a search worker: half its cap, about what
/// [`HINT_NODES`] take (the search workers' queue counts it, and the rate limit charges
/// [`crate::limits::cost`] of it).
///
/// ```
/// assert_eq!(agon_web::api::HINT_COST_MS, 500);
/// ```
pub const HINT_COST_MS: usize = HINT_TIME.as_millis() as usize / 2;

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
        SeatErrors,
        (status = 409, description = "refused: `not-against-computer`, `game-over`, `not-your-turn`", body = ErrorBody),
        WorkersBusy,
    )
)]
pub async fn hint(
    State(app): State<Arc<AppState>>,
    Extension(charge): Extension<Charge>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<Hint>, ApiError> {
    service::hint(&app, &charge, &id, &request.token, HINT_COST_MS, hint_for)
        .await
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
        SeatErrors,
        (status = 409, description = "refused: `not-against-computer`, `nothing-to-undo`, `game-over`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn undo(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let game = service::undo(&app, id, request.token).await?;
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
        SeatErrors,
        (status = 409, description = "refused: `game-over`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn resign(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let (game, seat) = service::seat_action(&app, id, request.token, SeatAction::Resign).await?;
    Ok(Json(state_for(&app, &game, Some(seat))))
}

/// `GET /api/games/{id}/record`: the game record, as a download.
#[utoipa::path(
    get,
    path = "/api/games/{id}/record",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "The game record (agon-core's Record), as a download", body = String, content_type = "text/plain"),
        UnknownGame,
    )
)]
pub async fn record(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = service::load_game(&app, &id).await?;
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
    let position = parse_position(query.position.as_deref(), rules)?;
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

/// `GET /api/games/{id}/board.svg?ply=N&view=white`.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PlyQuery {
    /// The number of moves played in the position drawn: 0 for the start, up to the
    /// game's number of moves (default: all of them).
    #[param(minimum = 0, maximum = 4294967295_u64)]
    pub ply: Option<usize>,
    /// The side at the bottom of the board (default: the creator's).
    #[param(value_type = Option<SideName>)]
    pub view: Option<String>,
}

/// `GET /api/games/{id}/board.svg`: the game's board after its first `ply` moves, the
/// last of them highlighted: what the page shows while stepping through a game (the game
/// does not change).
#[utoipa::path(
    get,
    path = "/api/games/{id}/board.svg",
    tag = "games",
    params(GameId, PlyQuery),
    responses(
        (status = 200, description = "The game's board after `ply` moves", body = String, content_type = "image/svg+xml"),
        (status = 400, description = "the query is wrong: `invalid-field` (an unknown parameter, `view`, a `ply` that is not a number)", body = ErrorBody),
        UnknownGame,
        (status = 409, description = "refused: `no-such-ply` (a `ply` past the game's moves: the game holds fewer)", body = ErrorBody),
    )
)]
pub async fn ply_svg(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    uri: Uri,
) -> Result<Response, ApiError> {
    let query: PlyQuery = query(&uri)?;
    let view = parse_view(query.view.as_deref())?;
    let game = service::load_game(&app, &id).await?;
    let moves = game.game.moves();
    let ply = query.ply.unwrap_or(moves.len());
    if ply > moves.len() {
        // A fact of the game, as it stands (it may hold that many moves later).
        return Err(ApiError::conflict(
            "no-such-ply",
            format!(
                "the game holds {} moves: ply must be 0 to {0}, not {ply}",
                moves.len()
            ),
        ));
    }
    // positions[i] is the position before move i, and the last one the current.
    let positions = game.game.positions();
    let position = positions.get(ply).unwrap_or_else(|| game.game.position());
    let svg = agon_svg::Svg::new(position)
        .size(None)
        .flipped(view.unwrap_or(game.human) == Side::Black)
        .last_move(ply.checked_sub(1).map(|i| moves[i]))
        .to_string();
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}
