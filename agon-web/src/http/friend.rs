//! What two people ask each other: draw offers, takeback requests and rematches, each
//! offered by one seat and accepted or declined by the other.
//!
//! Each is one endpoint taking `{"token", "answer": "offer" | "accept" | "decline"}`:
//! an `offer` records the offering side in the game (`409 offer-pending` if one is
//! already pending); `accept` and `decline` need an offer by the OTHER side
//! (`409 no-offer`). Any move lets a pending draw or takeback offer lapse. Every answer
//! is a change of the game (a new version, pushed to its streams).
//!
//! And the abort (`POST .../abort`, `{"token"}`): either seat ends the game with no
//! result before each side has made its first move.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::Json;
use serde::Deserialize;
use utoipa::ToSchema;

pub use crate::game::Answer;

use super::api::TokenRequest;
use super::names::{AnswerName, GameId};
use super::request::JsonBody;
use super::responses::{BadAnswer, SeatErrors};
use super::state::{state_for, GameState};
use crate::error::{ApiError, ErrorBody};
use crate::service::{self, AppState, SeatAction};

/// The body of `draw`, `takeback` and `rematch`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnswerRequest {
    /// The token of the seat answering.
    pub token: String,
    /// `offer`, `accept` or `decline`.
    #[schema(value_type = AnswerName)]
    pub answer: String,
}

/// Reads `offer`, `accept` or `decline`; else `400 invalid-field`.
///
/// ```
/// use agon_web::friend::{parse_answer, Answer};
/// assert_eq!(parse_answer("accept"), Ok(Answer::Accept));
/// assert_eq!(parse_answer("yes").unwrap_err().name, "invalid-field");
/// ```
pub fn parse_answer(text: &str) -> Result<Answer, ApiError> {
    text.parse().map_err(ApiError::invalid_field)
}

/// A handler answering an offer: `POST PATH` with an [`AnswerRequest`], the seat's
/// [`SeatAction`] of that answer, answered with the game's state as the seat sees it. The
/// three offers differ only by their path, their action and what they say they answer.
macro_rules! answer_endpoint {
    ($(#[$doc:meta])* $name:ident, $path:literal, $action:ident, ok = $ok:literal,
     refused = $refused:literal) => {
        $(#[$doc])*
        #[utoipa::path(post, path = $path, tag = "friends", params(GameId),
            request_body = AnswerRequest,
            responses(
                (status = 200, description = $ok, body = GameState),
                BadAnswer,
                SeatErrors,
                (status = 409, description = $refused, body = ErrorBody),
            )
        )]
        pub async fn $name(
            State(app): State<Arc<AppState>>,
            Path(id): Path<String>,
            JsonBody(request): JsonBody<AnswerRequest>,
        ) -> Result<Json<GameState>, ApiError> {
            let action = SeatAction::$action(parse_answer(&request.answer)?);
            let (game, seat) = service::seat_action(&app, id, request.token, action).await?;
            Ok(Json(state_for(&app, &game, Some(seat))))
        }
    };
}

answer_endpoint!(
    /// `POST /api/games/{id}/draw`: a draw offered, accepted (the game is drawn by
    /// `agreement`) or declined. Between friends only.
    draw,
    "/api/games/{id}/draw",
    Draw,
    ok = "The state: the draw offered, agreed (the game drawn by `agreement`) or declined",
    refused = "refused: `not-a-friend-game`, `game-over`, `offer-pending`, `no-offer`, `conflict` (the game changed meanwhile: reload and retry)"
);

answer_endpoint!(
    /// `POST /api/games/{id}/takeback`: a seat asks to take back its last action (and the
    /// opponent's reply after it, if any); the other accepts (it is taken back) or declines.
    /// Between friends only: against the computer `POST .../undo` takes back at once.
    takeback,
    "/api/games/{id}/takeback",
    Takeback,
    ok = "The state: the takeback asked, done or declined",
    refused = "refused: `not-a-friend-game`, `game-over`, `offer-pending`, `no-offer`, `nothing-to-undo`, `conflict` (the game changed meanwhile: reload and retry)"
);

answer_endpoint!(
    /// `POST /api/games/{id}/rematch`: once the game is over, a rematch offered (against the
    /// computer: created at once), accepted (created) or declined. The answer is this game's
    /// state, `rematch_game` set once the new game exists.
    rematch,
    "/api/games/{id}/rematch",
    Rematch,
    ok = "This game's state, `rematch_game` set once the rematch exists",
    refused = "refused: `game-not-over`, `rematch-exists`, `offer-pending`, `no-offer`, `game-over` (the clock ran out just now), `conflict` (the game changed meanwhile: reload and retry)"
);

/// `POST /api/games/{id}/abort`: either seat ends a game between people with no result
/// (`aborted`), before each side has made its first move. A side that does not make its
/// first move within 30 seconds (or its clock's time, if less) has the game aborted by the
/// server, not lost on time.
#[utoipa::path(post, path = "/api/games/{id}/abort", tag = "friends", params(GameId),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The state, the game over with no result: the outcome's reason is `aborted`, its score `*`", body = GameState),
        SeatErrors,
        (status = 409, description = "refused: `not-a-friend-game`, `game-over`, `too-late-to-abort` (each side has made its first move: resign instead), `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn abort(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<GameState>, ApiError> {
    let (game, seat) = service::seat_action(&app, id, request.token, SeatAction::Abort).await?;
    Ok(Json(state_for(&app, &game, Some(seat))))
}
