//! The names the API's schemas are made of (sides, levels, opponents, answers, a game's
//! id): a leaf that the handlers and the OpenAPI document both read, so that the document
//! ([`super::openapi`]), which lists the handlers, is not imported back by them.

use utoipa::ToSchema;

/// A side: `white` or `black`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum SideName {
    /// White.
    White,
    /// Black.
    Black,
}

/// The side a creator asks for: `white`, `black` or `random`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum SideChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Either, drawn by the server.
    Random,
}

/// The computer's level (its bot and budget: [`crate::Level::spec`], the one home of
/// those, named here only in words).
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum LevelName {
    /// One ply: the move whose result the evaluation likes best.
    Easy,
    /// An alpha-beta search of a few plies.
    Medium,
    /// The engine, searching to a deadline.
    Hard,
}

/// Who plays the other seat: `computer` or `friend`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum OpponentName {
    /// The server's bot.
    Computer,
    /// A second person, who joins with the game's link.
    Friend,
}

/// What a seat says about an offer: `offer`, `accept` or `decline`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum AnswerName {
    /// Offers (or asks for) it.
    Offer,
    /// Accepts the other seat's offer.
    Accept,
    /// Declines the other seat's offer.
    Decline,
}

/// The path parameter of every game's endpoint, `{id}`: one description for all of them.
///
/// ```
/// let doc = agon_web::openapi::document();
/// let id = &doc["paths"]["/api/games/{id}"]["get"]["parameters"][0];
/// assert_eq!((id["name"].as_str(), id["in"].as_str()), (Some("id"), Some("path")));
/// assert_eq!(id["required"], true);
/// assert_eq!(id["schema"]["pattern"], "^[0-9a-f]{16}$");
/// ```
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
pub struct GameId {
    /// The game's id: 16 lowercase hex digits (any other names no game: `404`).
    #[param(pattern = "^[0-9a-f]{16}$")]
    pub id: String,
}
