//! `POST /api/analysis`: the engine's analysis of any position, for the analysis board.
//!
//! The position is given as its text, as a start and moves, or as a game record (any rule
//! set); the search runs on the search workers (`service::search`) under a budget
//! of time and nodes the request chooses within caps ([`MAX_MS`], [`MAX_NODES`]), is
//! charged to the client's action budget by that budget ([`Budget::cost_ms`]), and always
//! stops at its deadline. A client that stops waiting (the page moved to another position)
//! stops the search too.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agon_bots::{Analysis, Engine, Evaluation, Limits, SearchControl};
use agon_core::{Game, Move, ParseErrorKind, Record, Side};
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::api::{HINT_COST_MS, HINT_NODES};
use super::request::{
    is_rules_fault, parse_position, parse_rules, rules_error, JsonBody, MAX_RECORD_BODY,
};
use super::responses::WorkersBusy;
use super::state::side_name;
use crate::error::{ApiError, ErrorBody};
use crate::limits::Charge;
use crate::service::{self, AppState};

/// The longest search a request may ask for, in milliseconds: also the deadline of a
/// search given only a node budget.
pub const MAX_MS: u64 = 2000;

/// The largest node budget a request may ask for.
pub const MAX_NODES: u64 = 5_000_000;

/// The node budget of a request that sets neither `ms` nor `nodes`: the hint's, so that
/// the same position gets the same lines.
pub const DEFAULT_NODES: u64 = HINT_NODES;

/// The most lines a request may ask for.
pub const MAX_LINES: u64 = 3;

/// `POST /api/analysis`: a position (its text, a start and moves, or a record), the
/// number of lines and the budget.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// The start position's one-line text, read under `rules` (default: the rules'
    /// start). Not with `record`.
    #[serde(default)]
    pub position: Option<String>,
    /// A game record (agon-core's `Record`: tags, numbered moves, result), whose rule set
    /// is its `Rules` tag. Not with `position` or `rules`.
    #[serde(default)]
    pub record: Option<String>,
    /// Moves played from the start position or after the record's moves, in the
    /// notation; the position analysed is the one after them.
    #[serde(default)]
    pub moves: Option<Vec<String>>,
    /// The rule set's text (`standard`, `ludii`, `standard+limit=300`); the standard
    /// rules when absent.
    #[serde(default)]
    pub rules: Option<String>,
    /// How many lines, best first: 1 (the default) to 3; fewer when fewer moves are
    /// legal.
    #[serde(default, deserialize_with = "super::request::optional_whole_number")]
    #[schema(minimum = 1, maximum = 3)]
    pub multipv: Option<i64>,
    /// The most time the search takes, in milliseconds: 1 to 2000 (the deadline of
    /// every search is 2000 ms).
    #[serde(default, deserialize_with = "super::request::optional_whole_number")]
    #[schema(minimum = 1, maximum = 2000)]
    pub ms: Option<i64>,
    /// The most nodes the search visits: 1 to 5,000,000; a node budget alone gives the
    /// same lines every time (unless the deadline comes first). Without `ms` and
    /// `nodes`: 200,000 nodes.
    #[serde(default, deserialize_with = "super::request::optional_whole_number")]
    #[schema(minimum = 1, maximum = 5000000)]
    pub nodes: Option<i64>,
}

/// A line's score for the player to act: exactly one of `cp` (centipoints, see
/// `agon_bots::Evaluation`), `win_in` (a forced win with that player's N-th move from
/// now) or `loss_in` (a forced loss with the opponent's N-th move).
///
/// ```
/// use agon_web::analysis::LineScore;
/// let score = LineScore::from(agon_bots::Evaluation::Win(2));
/// assert_eq!(serde_json::to_value(&score)?, serde_json::json!({"win_in": 2}));
/// let score = LineScore::from(agon_bots::Evaluation::Points(-35));
/// assert_eq!(serde_json::to_value(&score)?, serde_json::json!({"cp": -35}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Serialize, Debug, PartialEq, Eq, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LineScore {
    /// Centipoints for the player to act.
    Cp(i32),
    /// A forced win with the player's N-th move.
    WinIn(u32),
    /// A forced loss with the opponent's N-th move.
    LossIn(u32),
}

impl From<Evaluation> for LineScore {
    fn from(score: Evaluation) -> LineScore {
        match score {
            Evaluation::Points(p) => LineScore::Cp(p),
            Evaluation::Win(n) => LineScore::WinIn(n),
            Evaluation::Loss(n) => LineScore::LossIn(n),
        }
    }
}

/// One line of an analysis.
#[derive(Serialize, Debug, ToSchema)]
pub struct AnalysisLine {
    /// The score for the player to act (`chooser`).
    pub score: LineScore,
    /// White's expected result from 0 to 1 (`agon_bots::Evaluation::expected_score`,
    /// seen from White): 1 for a forced win of White, 0 for one of Black.
    pub white_expected: f64,
    /// The line's moves from the analysed position, its first move first.
    pub pv: Vec<String>,
}

/// The answer of `POST /api/analysis`.
#[derive(Serialize, Debug, ToSchema)]
pub struct AnalysisResponse {
    /// The analysed position's one-line text.
    pub position: String,
    /// Its rule set's text.
    pub rules: String,
    /// The player to act there (the side to move, but for a queen placed by her captor),
    /// for whom the scores are given.
    #[schema(value_type = super::names::SideName)]
    pub chooser: &'static str,
    /// The lines, best first.
    pub lines: Vec<AnalysisLine>,
    /// The deepest iteration the search completed, in plies.
    pub depth: u32,
    /// The positions the search visited.
    pub nodes: u64,
    /// How long the search took, in milliseconds.
    pub ms: u64,
}

/// What a request asks of the engine, checked: the lines, the time and the nodes.
///
/// ```
/// use agon_web::analysis::Budget;
/// let budget = Budget::new(None, Some(100), None)?;
/// assert_eq!((budget.lines, budget.time.as_millis(), budget.nodes), (1, 100, None));
/// // A node budget alone stops at the deadline of every search.
/// assert_eq!(Budget::new(Some(3), None, Some(1000))?.time.as_millis(), 2000);
/// assert_eq!(Budget::new(Some(4), None, None).unwrap_err().name, "invalid-field");
/// assert_eq!(Budget::new(None, Some(2001), None).unwrap_err().name, "invalid-field");
/// # Ok::<(), agon_web::ApiError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The lines asked for, 1 to [`MAX_LINES`].
    pub lines: usize,
    /// The search's deadline, from its start.
    pub time: Duration,
    /// The node budget, if any.
    pub nodes: Option<u64>,
}

impl Budget {
    /// The budget of `multipv`, `ms` and `nodes` as a request gives them, or
    /// `400 invalid-field` naming the one out of its range.
    ///
    /// ```
    /// use agon_web::analysis::{Budget, DEFAULT_NODES, MAX_MS, MAX_NODES};
    /// // Neither time nor nodes: the default node budget, under the deadline.
    /// let budget = Budget::new(None, None, None)?;
    /// assert_eq!(budget.nodes, Some(DEFAULT_NODES));
    /// assert_eq!(budget.time.as_millis(), u128::from(MAX_MS));
    /// assert!(Budget::new(None, None, Some(MAX_NODES as i64)).is_ok());
    /// let e = Budget::new(None, None, Some(MAX_NODES as i64 + 1)).unwrap_err();
    /// assert!(e.message.starts_with("nodes must be 1 to"));
    /// # Ok::<(), agon_web::ApiError>(())
    /// ```
    pub fn new(
        multipv: Option<i64>,
        ms: Option<i64>,
        nodes: Option<i64>,
    ) -> Result<Budget, ApiError> {
        let within = |name: &str, value: Option<i64>, max: u64| match value {
            None => Ok(None),
            Some(v) if v >= 1 && v.unsigned_abs() <= max => Ok(Some(v.unsigned_abs())),
            Some(v) => Err(ApiError::invalid_field(format!(
                "{name} must be 1 to {max}, not {v}"
            ))),
        };
        let lines = within("multipv", multipv, MAX_LINES)?.unwrap_or(1) as usize;
        let ms = within("ms", ms, MAX_MS)?;
        let nodes = within("nodes", nodes, MAX_NODES)?;
        let nodes = match (ms, nodes) {
            (None, None) => Some(DEFAULT_NODES),
            (_, nodes) => nodes,
        };
        Ok(Budget {
            lines,
            time: Duration::from_millis(ms.unwrap_or(MAX_MS)),
            nodes,
        })
    }

    /// What the search counts for, in milliseconds of a worker: its time, or less when
    /// its node budget takes less (at the hint's rate, [`HINT_COST_MS`] for
    /// [`HINT_NODES`]). The search workers' queue counts it, and the rate limit charges
    /// [`crate::limits::cost`] of it.
    ///
    /// ```
    /// use agon_web::analysis::Budget;
    /// assert_eq!(Budget::new(None, Some(2000), None)?.cost_ms(), 2000);
    /// assert_eq!(Budget::new(None, Some(100), None)?.cost_ms(), 100);
    /// assert_eq!(Budget::new(None, None, None)?.cost_ms(), agon_web::api::HINT_COST_MS);
    /// # Ok::<(), agon_web::ApiError>(())
    /// ```
    pub fn cost_ms(&self) -> usize {
        let time = self.time.as_millis() as u64;
        let by_nodes = self
            .nodes
            .map_or(time, |n| n.saturating_mul(HINT_COST_MS as u64) / HINT_NODES);
        time.min(by_nodes).max(1) as usize
    }
}

/// The game of a request: its record or its start, then its moves; refused with the
/// API's names (`invalid-field`, `malformed-record`, `malformed-move`, the rule set's
/// names, agon-core's `IllegalMove` names as `409`, `409 game-over` for a game over).
///
/// ```
/// use agon_web::analysis::game_of;
/// let game = game_of(None, None, &["f1-e1".to_string()], None)?;
/// assert_eq!(game.moves().len(), 1);
/// assert_eq!(game_of(Some("x"), None, &[], None).unwrap_err().name, "invalid-field");
/// assert_eq!(game_of(None, None, &["f1-f5".to_string()], None).unwrap_err().status.as_u16(), 409);
/// # Ok::<(), agon_web::ApiError>(())
/// ```
pub fn game_of(
    position: Option<&str>,
    record: Option<&str>,
    moves: &[String],
    rules: Option<&str>,
) -> Result<Game, ApiError> {
    let game = replay(position, record, moves, rules)?;
    if game.is_over() {
        return Err(game_over(&game));
    }
    Ok(game)
}

/// A record's text read by agon-core, refused with the API's names: agon-core's
/// `IllegalMove` name as `409` for an illegal move, the rule set's names for its
/// `Rules` tag, else `400 malformed-record` with agon-core's reason and byte offset.
///
/// ```
/// let e = agon_web::analysis::read_record("1. f1-e1 (1. f1-g1 *").unwrap_err();
/// assert_eq!((e.name, e.message.as_str()), ("malformed-record", "record: at byte 19: expected a move or ')'"));
/// ```
pub fn read_record(text: &str) -> Result<Record, ApiError> {
    text.parse::<Record>().map_err(|e| match e.kind() {
        ParseErrorKind::IllegalMove { reason, .. } => {
            ApiError::conflict(reason.name(), format!("record: {e}"))
        }
        kind if is_rules_fault(kind) => rules_error(e),
        _ => ApiError::new(
            StatusCode::BAD_REQUEST,
            "malformed-record",
            format!("record: {e}"),
        ),
    })
}

/// [`game_of`], but a game that the position, the record or the moves end is taken
/// (a move after the end is still `409 game-over`).
///
/// ```
/// use agon_web::analysis::replay;
/// let won = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";
/// let game = replay(Some(won), None, &["h5-g6".to_string()], None)?;
/// assert!(game.is_over());
/// let more = ["h5-g6".to_string(), "f11-e10".to_string()];
/// assert_eq!(replay(Some(won), None, &more, None).unwrap_err().name, "game-over");
/// # Ok::<(), agon_web::ApiError>(())
/// ```
pub fn replay(
    position: Option<&str>,
    record: Option<&str>,
    moves: &[String],
    rules: Option<&str>,
) -> Result<Game, ApiError> {
    let mut game = match (record, position, rules) {
        (Some(_), Some(_), _) => {
            return Err(ApiError::invalid_field(
                "give a position or a record, not both",
            ))
        }
        (Some(_), None, Some(_)) => {
            return Err(ApiError::invalid_field(
                "a record carries its rule set (its Rules tag): rules goes with a position",
            ))
        }
        (Some(text), None, None) => read_record(text)?.into_game(),
        (None, position, rules) => {
            let rules = parse_rules(rules)?;
            Game::from_position(parse_position(position, rules)?)
        }
    };
    for (i, text) in moves.iter().enumerate() {
        if game.is_over() {
            return Err(game_over(&game));
        }
        let m: Move = game.position().parse_move(text).map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed-move",
                format!("moves[{i}] {text:?}: {e}"),
            )
        })?;
        game.play(m)
            .map_err(|e| ApiError::conflict(e.name(), format!("moves[{i}] {text}: {e}")))?;
    }
    Ok(game)
}

fn game_over(game: &Game) -> ApiError {
    let how = game.outcome().map(|o| o.to_string()).unwrap_or_default();
    ApiError::conflict(
        "game-over",
        format!("the game is over ({how}): there is nothing to analyse"),
    )
}

/// Raises the search's stop flag when dropped: when the request is answered, or
/// abandoned by its client while it waits or searches.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Analyses `game` under `budget` now, on this thread, stopping when `stop` is raised:
/// what a worker runs.
///
/// ```
/// use std::sync::{atomic::AtomicBool, Arc};
/// use agon_web::analysis::{analyse, game_of, Budget, LineScore};
/// let won: agon_core::Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w".parse().unwrap();
/// let game = agon_core::Game::from_position(won);
/// let budget = Budget::new(None, None, Some(5_000))?;
/// let answer = analyse(&game, budget, Arc::new(AtomicBool::new(false)));
/// assert_eq!(answer.lines[0].pv[0], "h5-g6");
/// assert_eq!(answer.lines[0].score, LineScore::WinIn(1));
/// assert_eq!(answer.lines[0].white_expected, 1.0);
/// # Ok::<(), agon_web::ApiError>(())
/// ```
pub fn analyse(game: &Game, budget: Budget, stop: Arc<AtomicBool>) -> AnalysisResponse {
    let mut control = SearchControl::new()
        .with_stop_flag(stop)
        .with_deadline(Instant::now() + budget.time);
    if let Some(nodes) = budget.nodes {
        control = control.with_nodes(nodes);
    }
    let analysis = Engine::new(Limits::default()).analyse_with(game, &mut control, budget.lines);
    respond(game, analysis.ok())
}

/// The answer for `game` of the engine's `analysis` (`None`: the game was over, which
/// [`game_of`] refuses before).
fn respond(game: &Game, analysis: Option<Analysis>) -> AnalysisResponse {
    let position = game.position();
    let chooser = position.chooser();
    let (lines, depth, nodes, ms) = match analysis {
        Some(a) => {
            let lines = a
                .lines
                .iter()
                .map(|line| {
                    let expected = line.score.expected_score();
                    AnalysisLine {
                        score: line.score.into(),
                        white_expected: match chooser {
                            Side::White => expected,
                            Side::Black => 1.0 - expected,
                        },
                        pv: line.pv.iter().map(Move::to_string).collect(),
                    }
                })
                .collect();
            (lines, a.depth, a.nodes, a.time.as_millis() as u64)
        }
        None => (Vec::new(), 0, 0, 0),
    };
    AnalysisResponse {
        position: position.to_text().to_string(),
        rules: game.rules().to_string(),
        chooser: side_name(chooser),
        lines,
        depth,
        nodes,
        ms,
    }
}

/// `POST /api/analysis`: the engine's best lines in a position.
#[utoipa::path(
    post,
    path = "/api/analysis",
    tag = "analysis",
    request_body = AnalysisRequest,
    responses(
        (status = 200, description = "The analysed position and the engine's lines, best first", body = AnalysisResponse),
        (status = 400, description = "a field is wrong: `invalid-field` (the position's text, both a position and a record, a record with `rules`, `multipv`, `ms` or `nodes` out of range), `malformed-record`, `malformed-move`, `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`, `malformed-rules`", body = ErrorBody),
        (status = 409, description = "refused: `game-over` (the position given, or reached, ends the game), or a move of `moves` or of the record is illegal: then the error is agon-core's IllegalMove name (not-your-piece, between-enemies, must-return, no-pass, ...)", body = ErrorBody),
        WorkersBusy,
    )
)]
pub async fn analysis(
    State(app): State<Arc<AppState>>,
    Extension(charge): Extension<Charge>,
    JsonBody(request): JsonBody<AnalysisRequest, MAX_RECORD_BODY>,
) -> Result<Json<AnalysisResponse>, ApiError> {
    let budget = Budget::new(request.multipv, request.ms, request.nodes)?;
    // Charged before the texts are read, so that bad requests are limited too.
    charge.take(crate::limits::cost(budget.cost_ms()))?;
    let game = game_of(
        request.position.as_deref(),
        request.record.as_deref(),
        request.moves.as_deref().unwrap_or_default(),
        request.rules.as_deref(),
    )?;
    let stop = Arc::new(AtomicBool::new(false));
    let _stop = StopOnDrop(stop.clone());
    let answer = service::search(&app, "analysis", budget.cost_ms(), move || {
        analyse(&game, budget, stop)
    })
    .await?;
    Ok(Json(answer))
}
