//! `POST` and `GET /api/games/{id}/review`: a finished game's review by the engine,
//! computed once on the server's review queue and kept (the service: `service::review`).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::{Extension, Json};

use super::names::GameId;
use super::responses::UnknownGame;
use crate::error::{ApiError, ErrorBody};
use crate::limits::Charge;
use crate::service::review::{self as service, ReviewStatus};
use crate::service::AppState;

/// What requesting a review counts for in the action budget, in milliseconds of search:
/// a review of a game of a hundred plies is a few seconds of a core, once; charged as a
/// hard move (11 tokens), whether it queues the review or joins it, so that one address
/// cannot fill the queue.
pub const REVIEW_COST_MS: usize = 1_500;

/// `POST /api/games/{id}/review`: requests the game's review. Idempotent: the review is
/// queued once, and a second request answers it as it stands (queued, running or done).
#[utoipa::path(
    post,
    path = "/api/games/{id}/review",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "The review as it stands: `queued`, `running` (with `done` of `total` positions evaluated) or `done` with its figures", body = ReviewStatus),
        UnknownGame,
        (status = 409, description = "the game is in progress: `game-not-over`", body = ErrorBody),
        (status = 429, description = "too many actions from this address (a review costs 11 of the budget): `rate-limited`", body = ErrorBody),
        (status = 503, description = "the queue of reviews is full: `review-queue-full`", body = ErrorBody,
            headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))),
    )
)]
pub async fn request_review(
    State(app): State<Arc<AppState>>,
    Extension(charge): Extension<Charge>,
    Path(id): Path<String>,
) -> Result<Json<ReviewStatus>, ApiError> {
    charge.take(crate::limits::cost(REVIEW_COST_MS))?;
    service::request(&app, &id).await.map(Json)
}

/// `GET /api/games/{id}/review`: where the game's review stands (`none` if never
/// requested).
#[utoipa::path(
    get,
    path = "/api/games/{id}/review",
    tag = "games",
    params(GameId),
    responses(
        (status = 200, description = "The review as it stands: `none`, `queued`, `running` (with `done` of `total` positions evaluated) or `done` with its figures", body = ReviewStatus),
        UnknownGame,
    )
)]
pub async fn show_review(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<ReviewStatus>, ApiError> {
    service::status(&app, &id).await.map(Json)
}
