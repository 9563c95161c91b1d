//! What two people ask each other: draw offers, takeback requests and rematches, each
//! offered by one seat and accepted or declined by the other.
//!
//! Each is one endpoint taking `{"token", "answer": "offer" | "accept" | "decline"}`:
//! an `offer` records the offering side in the game (`409 offer-pending` if one is
//! already pending); `accept` and `decline` need an offer by the OTHER side
//! (`409 no-offer`). Any move lets a pending draw or takeback offer lapse. Every answer
//! is a change of the game (a new version, pushed to its streams).

use std::sync::Arc;

use agon_core::Side;
use axum::extract::{Path, State};
use axum::Json;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::openapi::AnswerName;
use crate::openapi::GameId;

use crate::api::{act, ensure_friend, ensure_not_over, reply_to, state_for, JsonBody};
use crate::store::{self, EndKind, Opponent, WebGame};
use crate::{ApiError, AppState, ErrorBody, GameState};

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

/// What a seat says to an offer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Offers (or asks for) it.
    Offer,
    /// Accepts the other side's offer.
    Accept,
    /// Declines the other side's offer.
    Decline,
}

impl Answer {
    /// Reads `offer`, `accept` or `decline`; else `400 invalid-field`.
    ///
    /// ```
    /// use agon_web::friend::Answer;
    /// assert_eq!(Answer::parse("accept"), Ok(Answer::Accept));
    /// assert_eq!(Answer::parse("yes").unwrap_err().name, "invalid-field");
    /// ```
    pub fn parse(text: &str) -> Result<Answer, ApiError> {
        match text {
            "offer" => Ok(Answer::Offer),
            "accept" => Ok(Answer::Accept),
            "decline" => Ok(Answer::Decline),
            _ => Err(ApiError::invalid_field(format!(
                "answer must be offer, accept or decline, not {text:?}"
            ))),
        }
    }
}

fn offer_pending() -> ApiError {
    ApiError::conflict("offer-pending", "an offer is already pending")
}

fn no_offer() -> ApiError {
    ApiError::conflict("no-offer", "your opponent has offered nothing to answer")
}

/// Checks an answer against the pending offer of its kind: an offer needs none pending,
/// an accept or a decline needs the other side's.
fn check(pending: Option<Side>, seat: Side, answer: Answer) -> Result<(), ApiError> {
    match (answer, pending) {
        (Answer::Offer, None) => Ok(()),
        (Answer::Offer, Some(_)) => Err(offer_pending()),
        (_, Some(side)) if side == seat.other() => Ok(()),
        _ => Err(no_offer()),
    }
}

/// `POST /api/games/{id}/draw`: a draw offered, accepted (the game is drawn by
/// `agreement`) or declined. Between friends only.
#[utoipa::path(
    post,
    path = "/api/games/{id}/draw",
    tag = "friends",
    params(GameId),
    request_body = AnswerRequest,
    responses(
        (status = 200, description = "The state: the draw offered, agreed (the game drawn by `agreement`) or declined", body = GameState),
        (status = 400, description = "`answer` is not offer, accept or decline: `invalid-field`", body = ErrorBody),
        (status = 403, description = "the token is not this game's: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `not-a-friend-game`, `game-over`, `offer-pending`, `no-offer`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn draw(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<AnswerRequest>,
) -> Result<Json<GameState>, ApiError> {
    let answer = Answer::parse(&request.answer)?;
    let (game, seat, ()) = act(&app, id, request.token, move |_, game, seat, now| {
        ensure_friend(game)?;
        ensure_not_over(game)?;
        check(game.offers.draw, seat, answer)?;
        match answer {
            Answer::Offer => game.offers.draw = Some(seat),
            Answer::Accept => game.end_with(EndKind::Agreement, None, now),
            Answer::Decline => game.offers.draw = None,
        }
        Ok(())
    })
    .await?;
    Ok(Json(state_for(&app, &game, Some(seat))))
}

/// `POST /api/games/{id}/takeback`: a seat asks to take back its last action (and the
/// opponent's reply after it, if any); the other accepts (it is taken back) or declines.
/// Between friends only: against the computer `POST .../undo` takes back at once.
#[utoipa::path(
    post,
    path = "/api/games/{id}/takeback",
    tag = "friends",
    params(GameId),
    request_body = AnswerRequest,
    responses(
        (status = 200, description = "The state: the takeback asked, done or declined", body = GameState),
        (status = 400, description = "`answer` is not offer, accept or decline: `invalid-field`", body = ErrorBody),
        (status = 403, description = "the token is not this game's: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `not-a-friend-game`, `game-over`, `offer-pending`, `no-offer`, `nothing-to-undo`, `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn takeback(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<AnswerRequest>,
) -> Result<Json<GameState>, ApiError> {
    let answer = Answer::parse(&request.answer)?;
    let (game, seat, ()) = act(&app, id, request.token, move |tx, game, seat, now| {
        ensure_friend(game)?;
        ensure_not_over(game)?;
        check(game.offers.takeback, seat, answer)?;
        let nothing = || ApiError::conflict("nothing-to-undo", "there is no move to take back");
        match answer {
            Answer::Offer => {
                game.last_ply_of(seat).ok_or_else(nothing)?;
                game.offers.takeback = Some(seat);
            }
            Answer::Accept => {
                // Any move clears the offer, so the offering side's last action is the
                // one it asked about.
                let keep = game.last_ply_of(seat.other()).ok_or_else(nothing)?;
                tx.truncate(&game.id, keep);
                game.take_back_to(keep, now);
            }
            Answer::Decline => game.offers.takeback = None,
        }
        Ok(())
    })
    .await?;
    Ok(Json(state_for(&app, &game, Some(seat))))
}

/// The rematch of `old` (over): a new game under the same rules, from the same start,
/// with the same clock, colours swapped: each seat keeps its token (its digest) and name.
fn rematch_of(old: &WebGame, id: String, seed: u64) -> WebGame {
    let mut game = WebGame::new(
        id,
        old.token_sha256,
        old.human.other(),
        old.level,
        seed,
        *old.game.start(),
    );
    game.guest_sha256 = old.guest_sha256;
    game.opponent = old.opponent;
    game.names = [old.names[1].clone(), old.names[0].clone()];
    game.clock = old
        .clock
        .map(|c| store::Clock::new(c.initial_ms, c.increment_ms));
    game
}

/// `POST /api/games/{id}/rematch`: once the game is over, a rematch offered (against the
/// computer: created at once), accepted (created) or declined. The answer is this game's
/// state, `rematch_game` set once the new game exists.
#[utoipa::path(
    post,
    path = "/api/games/{id}/rematch",
    tag = "friends",
    params(GameId),
    request_body = AnswerRequest,
    responses(
        (status = 200, description = "This game's state, `rematch_game` set once the rematch exists", body = GameState),
        (status = 400, description = "`answer` is not offer, accept or decline: `invalid-field`", body = ErrorBody),
        (status = 403, description = "the token is not this game's: `wrong-token`", body = ErrorBody),
        (status = 404, description = "no game has this id: `unknown-game`", body = ErrorBody),
        (status = 409, description = "refused: `game-not-over`, `rematch-exists`, `offer-pending`, `no-offer`, `game-over` (the clock ran out just now), `conflict` (the game changed meanwhile: reload and retry)", body = ErrorBody),
    )
)]
pub async fn rematch(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<AnswerRequest>,
) -> Result<Json<GameState>, ApiError> {
    let answer = Answer::parse(&request.answer)?;
    let new_id = crate::api::random_hex::<8>()?;
    let seed = crate::api::random_u64()?;
    let (game, seat, created) = act(&app, id, request.token, move |tx, game, seat, now| {
        if !game.is_over() {
            return Err(ApiError::conflict(
                "game-not-over",
                "a rematch is offered once the game is over",
            ));
        }
        if game.rematch_game.is_some() {
            return Err(ApiError::conflict(
                "rematch-exists",
                "the rematch of this game has been created",
            ));
        }
        let create = match (game.opponent, answer) {
            (Opponent::Computer, Answer::Offer) => true,
            (Opponent::Computer, _) => return Err(no_offer()),
            (Opponent::Friend, _) => {
                check(game.offers.rematch, seat, answer)?;
                match answer {
                    Answer::Offer => game.offers.rematch = Some(seat),
                    Answer::Decline => game.offers.rematch = None,
                    Answer::Accept => {}
                }
                answer == Answer::Accept
            }
        };
        if !create {
            return Ok(None);
        }
        let new = rematch_of(game, new_id.clone(), seed);
        tx.insert(&new, now);
        game.offers.rematch = None;
        game.rematch_game = Some(new_id);
        Ok(Some(new))
    })
    .await?;
    if let Some(new) = created {
        // Against the computer, it may move first.
        reply_to(&app, new).await;
    }
    Ok(Json(state_for(&app, &game, Some(seat))))
}
