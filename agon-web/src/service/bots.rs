//! Bots online (issue 33, point 4): an account becomes a bot's (for good, and only while
//! it has played no rated game, as lichess has it), holds API tokens (shown once, kept
//! as digests, named, listed, revoked) and plays through the Bot API
//! (`crate::http::bots`), whose every operation is the lobby's or the game's own
//! ([`super::lobby`], `super::play`, `super::seat_action`): the same refusals, a
//! bot's illegal move refused with agon-core's reason like anyone's.
//!
//! **Bots and bots.** A bot plays people, rated or casual, by its seeks and by the
//! challenges it accepts. Two bots play each other only when both agree: by a direct
//! challenge one sends (from a person's session of its account, or
//! `POST /api/lobby/challenges`) and the other accepts; a bot's open seek is never taken
//! by another bot (`403 bots-need-challenge`, [`super::lobby`]'s).
//!
//! A bot whose program stops loses on time, like a person: its clock runs.

use axum::http::StatusCode;

use super::lobby::Caller;
use super::AppState;
use crate::error::ApiError;
use crate::game::account::{Token, TOKEN_BYTES};
use crate::game::WebGame;
use crate::ids;
use crate::store::{
    Account, ApiToken, BotChange, GameFilter, StoreError, MAX_API_TOKENS, TOUCH_TOKEN_MS,
};

/// `401 bad-token`: no living bot's token in `Authorization: Bearer` (missing, malformed,
/// revoked, or its account no longer a living bot's: one answer for all).
pub(crate) fn bad_token() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "bad-token",
        "the Bot API needs a living API token of a bot account in the header \
         `Authorization: Bearer agon_...` (and never in the address)",
    )
}

/// `403 not-a-bot`: API tokens are a bot account's.
fn not_a_bot() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "not-a-bot",
        "API tokens are for bot accounts: make this account a bot's first (POST /api/account/bot)",
    )
}

/// The store's `NoAccount` as `401 not-signed-in` (the account was deleted meanwhile).
fn gone(e: StoreError) -> ApiError {
    match e {
        StoreError::NoAccount => super::accounts::not_signed_in(),
        e => e.into(),
    }
}

/// Makes `account` a bot's, for good: `409 has-rated-games` once it has played a rated
/// game. Making a bot's account a bot's again changes nothing. Answers the account as it
/// now is.
pub(crate) async fn become_bot(app: &AppState, account: &Account) -> Result<Account, ApiError> {
    match app.store.make_bot(&account.id).await.map_err(gone)? {
        BotChange::Made | BotChange::Already => Ok(Account {
            bot: true,
            ..account.clone()
        }),
        BotChange::RatedGames => Err(ApiError::conflict(
            "has-rated-games",
            "an account that has played rated games stays a person's: make a new account for the bot",
        )),
    }
}

/// A new API token of `account` (a bot's: else `403 not-a-bot`), named `name` (the
/// rules of a passkey's name; `bot` when absent): the token, to show once, and what is
/// kept of it. `409 too-many-tokens` past [`MAX_API_TOKENS`].
pub(crate) async fn new_token(
    app: &AppState,
    account: &Account,
    name: Option<&str>,
) -> Result<(Token, ApiToken), ApiError> {
    if !account.bot {
        return Err(not_a_bot());
    }
    let name = super::accounts::passkey_name(name, "bot")?;
    let token = Token::api(ids::random_bytes::<TOKEN_BYTES>()?);
    let id = ids::random_hex::<8>()?;
    let now = app.store.now_ms();
    let made = app
        .store
        .create_api_token(&token, &id, &account.id, &name, now)
        .await
        .map_err(gone)?;
    if !made {
        return Err(ApiError::conflict(
            "too-many-tokens",
            format!("an account holds at most {MAX_API_TOKENS} API tokens: revoke one first"),
        ));
    }
    let info = ApiToken {
        id,
        account_id: account.id.clone(),
        name,
        created_ms: now,
        last_used_ms: None,
    };
    Ok((token, info))
}

/// Revokes `account`'s token `id`: `404 unknown-token` if it has no living one of this
/// id.
pub(crate) async fn revoke(app: &AppState, account: &Account, id: &str) -> Result<(), ApiError> {
    let revoked = ids::valid_id(id)
        && app
            .store
            .revoke_api_token(&account.id, id, app.store.now_ms())
            .await?;
    match revoked {
        true => Ok(()),
        false => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "unknown-token",
            "this account has no living API token of this id",
        )),
    }
}

/// The bot whose token `bearer` is (the text after `Bearer `), its use recorded (at most
/// once a minute): `401 bad-token` for no living bot account's living token.
pub(crate) async fn bot_of(app: &AppState, bearer: Option<&str>) -> Result<Account, ApiError> {
    let token = bearer
        .and_then(|text| Token::parse_api(text).ok())
        .ok_or_else(bad_token)?;
    let found = app.store.api_token(&token).await?.ok_or_else(bad_token)?;
    let account = app
        .store
        .account(&found.account_id)
        .await?
        .filter(|a| a.deleted_ms.is_none() && a.bot)
        .ok_or_else(bad_token)?;
    // Written at most once a minute: a bot's every move need not write (the store's
    // guard makes two servers' writes in the same minute one).
    let now = app.store.now_ms();
    if found.last_used_ms.is_none_or(|t| now - t >= TOUCH_TOKEN_MS) {
        app.store.touch_api_token(&token, now).await?;
    }
    Ok(account)
}

/// A bot as the lobby's caller: its account, from `address` (as the rate limits key it).
///
/// ```
/// use agon_web::game::lobby::Poster;
/// let bot = agon_web::store::Account { id: "00112233aabbccdd".into(), username: "Robo".into(), user_handle: vec![7; 32], created_ms: 5, bot: true, deleted_ms: None };
/// let caller = agon_web::service::bots::caller(&bot, "V4(127.0.0.1)");
/// assert_eq!(caller.poster(), Some(Poster::Account(bot.id.clone())));
/// ```
pub fn caller(bot: &Account, address: &str) -> Caller {
    Caller {
        account: Some(bot.clone()),
        guest: None,
        address: address.to_string(),
    }
}

/// The games `account` plays now (not over), among its latest ones: what a bot's event
/// stream announces when it opens, so a program that reconnects finds its games again.
pub(crate) async fn games_in_progress(
    app: &AppState,
    account: &Account,
) -> Result<Vec<WebGame>, ApiError> {
    let latest = app
        .store
        .player_games(
            &account.id,
            GameFilter {
                speed: None,
                result: None,
                page: 0,
            },
        )
        .await?;
    let mut games = Vec::new();
    for listed in latest.into_iter().filter(|g| g.result.is_none()) {
        if let Some(game) = app.store.load(&listed.id).await? {
            if !game.is_over() {
                games.push(game);
            }
        }
    }
    Ok(games)
}
