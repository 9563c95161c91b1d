//! The players' public record (issue 33): a player's ratings and counts, their games
//! (filterable), their rating history in a speed, and the leaderboard of a speed. Read
//! only, open to anyone: what lichess shows on `/@/name` and its leaderboards.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::Uri;
use axum::Json;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::names::SideName;
use super::request::query;
use crate::error::{ApiError, ErrorBody};
use crate::game::speed::Speed;
use crate::service::{self, AppState};
use crate::store::{GameFilter, PlayerGame, ResultFilter, StoredRating};

/// A speed category's name.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum SpeedName {
    /// Under 2 minutes' estimated length.
    Ultrabullet,
    /// 2 to 11 minutes.
    Bullet,
    /// 11 to 30 minutes.
    Blitz,
    /// 30 to 90 minutes.
    Rapid,
    /// 90 minutes or more.
    Classical,
    /// Days a move (no clock).
    Correspondence,
}

/// A player's name in a path.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
pub struct PlayerName {
    /// The player's username, any case (an unknown or deleted one: `404`).
    pub username: String,
}

/// A speed in a path.
#[derive(IntoParams)]
#[into_params(parameter_in = Path)]
pub struct SpeedParam {
    /// The speed category (another word: `400 invalid-field`).
    #[param(value_type = SpeedName)]
    pub speed: String,
}

/// A rating as the API shows it.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct RatingState {
    /// The rating, rounded.
    pub rating: i64,
    /// The deviation, rounded (widened for the time since the last rated game).
    pub deviation: i64,
    /// Whether it is provisional (deviation above 110): shown with a `?`.
    pub provisional: bool,
    /// The rated games played in this speed.
    pub games: i64,
    /// When the last one was rated, unix milliseconds.
    pub last_game_ms: Option<i64>,
}

impl RatingState {
    fn of(r: &StoredRating) -> RatingState {
        RatingState {
            rating: r.rating.rating.round() as i64,
            deviation: r.rating.deviation.round() as i64,
            provisional: r.rating.is_provisional(),
            games: r.games,
            last_game_ms: r.last_game_ms,
        }
    }
}

/// A player's rating in one speed.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct SpeedRating {
    /// The speed.
    #[schema(value_type = SpeedName)]
    pub speed: &'static str,
    /// The rating in it.
    #[serde(flatten)]
    pub rating: RatingState,
}

/// `GET /api/players/{username}`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerResponse {
    /// The name, as the player wrote it.
    pub username: String,
    /// Whether it is a bot account.
    pub bot: bool,
    /// When the account was created, unix milliseconds.
    pub created_ms: i64,
    /// The ratings, one per speed played rated, fastest first.
    pub ratings: Vec<SpeedRating>,
    /// Games played (aborted ones aside), rated, won, lost, drawn.
    pub counts: CountsState,
}

/// A player's games in numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct CountsState {
    /// Every game (aborted ones aside).
    pub all: i64,
    /// Rated games.
    pub rated: i64,
    /// Won.
    pub wins: i64,
    /// Lost.
    pub losses: i64,
    /// Drawn.
    pub draws: i64,
}

/// The query of a player's games.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GamesQuery {
    /// Only games of this speed.
    #[param(value_type = Option<SpeedName>)]
    pub speed: Option<String>,
    /// Only games the player won, lost or drew: `win`, `loss`, `draw`.
    #[param(pattern = "^(win|loss|draw)$")]
    pub result: Option<String>,
    /// The page, from 0, of 20 games, the latest first.
    #[param(minimum = 0, maximum = 10000)]
    pub page: Option<u32>,
}

/// One of a player's games.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct PlayerGameState {
    /// The game's id (open it at `/g/{id}`).
    pub id: String,
    /// The player's side.
    #[schema(value_type = SideName)]
    pub side: &'static str,
    /// Whether it is rated.
    pub rated: bool,
    /// Its speed.
    #[schema(value_type = SpeedName)]
    pub speed: &'static str,
    /// `win`, `loss`, `draw` from the player's side; `null` while it goes on.
    pub outcome: Option<&'static str>,
    /// When it last changed (ended, once over), unix milliseconds.
    pub at_ms: i64,
    /// The opponent's account name (`null`: a guest, the computer, or a deleted player).
    pub opponent: Option<String>,
    /// Whether the opponent's account was deleted ("deleted player").
    pub opponent_deleted: bool,
    /// The name a guest opponent gave, if any.
    pub opponent_name: Option<String>,
    /// Whether the opponent is the computer.
    pub computer: bool,
    /// In a rated game once rated: the player's rating before it, rounded.
    pub rating_before: Option<i64>,
    /// And after it.
    pub rating_after: Option<i64>,
}

impl PlayerGameState {
    fn of(g: &PlayerGame) -> PlayerGameState {
        PlayerGameState {
            id: g.id.clone(),
            side: g.side.name(),
            rated: g.rated,
            speed: g.speed.name(),
            outcome: g.outcome(),
            at_ms: g.at_ms,
            opponent: g.opponent.clone().filter(|_| !g.opponent_deleted),
            opponent_deleted: g.opponent_deleted,
            opponent_name: g.opponent_name.clone(),
            computer: g.computer,
            rating_before: g.rating.map(|[before, _]| before.round() as i64),
            rating_after: g.rating.map(|[_, after]| after.round() as i64),
        }
    }
}

/// A page of a player's games.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct GamesResponse {
    /// The page asked for.
    pub page: u32,
    /// Its games, the latest first (fewer than 20: the last page).
    pub games: Vec<PlayerGameState>,
}

/// A point of a rating history.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct HistoryPoint {
    /// The rated game.
    pub game: String,
    /// When it was rated, unix milliseconds.
    pub at_ms: i64,
    /// The rating after it, rounded.
    pub rating: i64,
    /// The deviation after it, rounded.
    pub deviation: i64,
}

/// `GET /api/players/{username}/ratings/{speed}/history`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct HistoryResponse {
    /// The speed.
    #[schema(value_type = SpeedName)]
    pub speed: &'static str,
    /// The rating after each rated game, oldest first.
    pub points: Vec<HistoryPoint>,
}

/// A row of a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct LeaderState {
    /// The rank, from 1.
    pub rank: usize,
    /// The player's name.
    pub username: String,
    /// Their rating.
    #[serde(flatten)]
    pub rating: RatingState,
}

/// `GET /api/leaderboard/{speed}`.
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct LeaderboardResponse {
    /// The speed.
    #[schema(value_type = SpeedName)]
    pub speed: &'static str,
    /// The best players whose rating is not provisional as of now (the deviation widened
    /// for the time since their last rated game; at most 100), highest first; bots and
    /// deleted accounts aside.
    pub players: Vec<LeaderState>,
}

/// The speed of a path, or `400 invalid-field`.
fn parse_speed(text: &str) -> Result<Speed, ApiError> {
    Speed::from_name(text).ok_or_else(|| {
        ApiError::invalid_field(format!(
            "speed must be one of ultrabullet, bullet, blitz, rapid, classical, \
             correspondence, not {text:?}"
        ))
    })
}

/// `GET /api/players/{username}`: a player's ratings and counts.
#[utoipa::path(
    get,
    path = "/api/players/{username}",
    tag = "players",
    params(PlayerName),
    responses(
        (status = 200, description = "The player's ratings per speed and game counts", body = PlayerResponse),
        (status = 404, description = "no living account of this name: `unknown-player`", body = ErrorBody),
    )
)]
pub async fn player(
    State(app): State<Arc<AppState>>,
    Path(username): Path<String>,
) -> Result<Json<PlayerResponse>, ApiError> {
    let account = service::ratings::player(&app, &username).await?;
    let (ratings, counts) = service::ratings::profile(&app, &account).await?;
    Ok(Json(PlayerResponse {
        username: account.username,
        bot: account.bot,
        created_ms: account.created_ms,
        ratings: ratings
            .iter()
            .map(|(speed, r)| SpeedRating {
                speed: speed.name(),
                rating: RatingState::of(r),
            })
            .collect(),
        counts: CountsState {
            all: counts.all,
            rated: counts.rated,
            wins: counts.wins,
            losses: counts.losses,
            draws: counts.draws,
        },
    }))
}

/// `GET /api/players/{username}/games?speed=&result=&page=`: a page of a player's games.
#[utoipa::path(
    get,
    path = "/api/players/{username}/games",
    tag = "players",
    params(PlayerName, GamesQuery),
    responses(
        (status = 200, description = "A page of the player's games, the latest first", body = GamesResponse),
        (status = 400, description = "the query is wrong (an unknown speed or result, a page that is not a number): `invalid-field`", body = ErrorBody),
        (status = 404, description = "no living account of this name: `unknown-player`", body = ErrorBody),
    )
)]
pub async fn games(
    State(app): State<Arc<AppState>>,
    Path(username): Path<String>,
    uri: Uri,
) -> Result<Json<GamesResponse>, ApiError> {
    let q = query::<GamesQuery>(&uri)?;
    let speed = q.speed.as_deref().map(parse_speed).transpose()?;
    let result = match q.result.as_deref() {
        None => None,
        Some(text) => Some(ResultFilter::from_name(text).ok_or_else(|| {
            ApiError::invalid_field(format!("result must be win, loss or draw, not {text:?}"))
        })?),
    };
    let page = q.page.unwrap_or(0);
    if page > 10_000 {
        return Err(ApiError::invalid_field("page must be from 0 to 10000"));
    }
    let account = service::ratings::player(&app, &username).await?;
    let filter = GameFilter {
        speed,
        result,
        page,
    };
    let games = service::ratings::games(&app, &account, filter).await?;
    Ok(Json(GamesResponse {
        page,
        games: games.iter().map(PlayerGameState::of).collect(),
    }))
}

/// `GET /api/players/{username}/ratings/{speed}/history`: the rating after each rated
/// game of a speed, for the graph.
#[utoipa::path(
    get,
    path = "/api/players/{username}/ratings/{speed}/history",
    tag = "players",
    params(PlayerName, SpeedParam),
    responses(
        (status = 200, description = "The rating after each rated game, oldest first", body = HistoryResponse),
        (status = 400, description = "not a speed: `invalid-field`", body = ErrorBody),
        (status = 404, description = "no living account of this name: `unknown-player`", body = ErrorBody),
    )
)]
pub async fn history(
    State(app): State<Arc<AppState>>,
    Path((username, speed)): Path<(String, String)>,
) -> Result<Json<HistoryResponse>, ApiError> {
    let speed = parse_speed(&speed)?;
    let account = service::ratings::player(&app, &username).await?;
    let points = service::ratings::history(&app, &account, speed).await?;
    Ok(Json(HistoryResponse {
        speed: speed.name(),
        points: points
            .iter()
            .map(|p| HistoryPoint {
                game: p.game_id.clone(),
                at_ms: p.at_ms,
                rating: p.rating.round() as i64,
                deviation: p.deviation.round() as i64,
            })
            .collect(),
    }))
}

/// `GET /api/leaderboard/{speed}`: the best players of a speed not provisional as of now.
#[utoipa::path(
    get,
    path = "/api/leaderboard/{speed}",
    tag = "players",
    params(SpeedParam),
    responses(
        (status = 200, description = "The best players not provisional as of now (the deviation widened for the time since their last rated game), highest first", body = LeaderboardResponse),
        (status = 400, description = "not a speed: `invalid-field`", body = ErrorBody),
    )
)]
pub async fn leaderboard(
    State(app): State<Arc<AppState>>,
    Path(speed): Path<String>,
) -> Result<Json<LeaderboardResponse>, ApiError> {
    let speed = parse_speed(&speed)?;
    let leaders = service::ratings::leaderboard(&app, speed).await?;
    Ok(Json(LeaderboardResponse {
        speed: speed.name(),
        players: leaders
            .iter()
            .enumerate()
            .map(|(k, l)| LeaderState {
                rank: k + 1,
                username: l.username.clone(),
                rating: RatingState::of(&l.rating),
            })
            .collect(),
    }))
}
