//! The error responses several operations share, each defined once and named in their
//! `#[utoipa::path]` attributes (an operation's own errors stay in its attribute). The
//! API document adds what every route can answer ([`super::openapi::document`]).

use utoipa::IntoResponses;

use crate::error::ErrorBody;

/// The description of `404 unknown-game`.
const UNKNOWN_GAME: &str = "no game has this id: `unknown-game`";

/// `404 unknown-game`: the operations on a game that need no token.
#[derive(IntoResponses)]
#[response(status = 404, description = UNKNOWN_GAME)]
pub struct UnknownGame(pub ErrorBody);

/// `403 wrong-token` and `404 unknown-game`: the operations of a seat on its game.
#[derive(IntoResponses)]
pub enum SeatErrors {
    /// The token is neither seat's.
    #[response(
        status = 403,
        description = "the token is not this game's: `wrong-token`"
    )]
    WrongToken(ErrorBody),
    /// No such game.
    #[response(status = 404, description = UNKNOWN_GAME)]
    UnknownGame(ErrorBody),
}

/// `503 server-busy` with `Retry-After`: the operations that run a search.
#[derive(IntoResponses)]
#[response(
    status = 503,
    description = "every search worker is busy and the queue is full: `server-busy`",
    headers(("Retry-After" = u32, description = "Seconds to wait before retrying"))
)]
pub struct WorkersBusy(pub ErrorBody);

/// `400 invalid-field` of an answer to an offer: draws, takebacks and rematches.
#[derive(IntoResponses)]
#[response(
    status = 400,
    description = "`answer` is not offer, accept or decline: `invalid-field`"
)]
pub struct BadAnswer(pub ErrorBody);
