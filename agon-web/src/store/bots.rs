//! Bot accounts and their API tokens (issue 33, point 4): turning an account into a bot's
//! (once, and only while it has played no rated game, as lichess does), and the tokens a
//! bot's program sends in `Authorization: Bearer`: named, listed, revoked, kept as their
//! SHA-256 digests only ([`Token::digest`]). Each operation is one transaction
//! ([`Store::transact`]), which both stores run alike.

use super::accounts::{bytes, text};
use super::sql::{Cell, Statement, Value};
use super::{Store, StoreError};
use crate::game::account::Token;

/// What the Bot API adds to the tables (issue 33), one text for both dialects: SQLite's
/// migration 10 to 11, PostgreSQL's 8 to 9. An API token gets a public id (16 hex digits:
/// what its owner lists and revokes it by; the digest is never shown), and a seek says
/// whether its poster is a bot (the lobby marks it). Tokens stored before have no id:
/// there were none (nothing made them before this migration).
macro_rules! bots_schema {
    () => {
        "
ALTER TABLE api_tokens ADD COLUMN id TEXT;
CREATE UNIQUE INDEX api_tokens_id ON api_tokens (id);
ALTER TABLE seeks ADD COLUMN bot BOOLEAN NOT NULL DEFAULT FALSE;
"
    };
}

/// The most living API tokens an account holds: a bot's program needs one, a few more
/// let its author rotate them.
///
/// ```
/// assert_eq!(agon_web::store::MAX_API_TOKENS, 10);
/// ```
pub const MAX_API_TOKENS: i64 = 10;

/// How often a token's `last_used_ms` is written at most: every move of a bot is a
/// request, and one write a minute says as much.
///
/// ```
/// assert_eq!(agon_web::store::TOUCH_TOKEN_MS, 60_000);
/// ```
pub const TOUCH_TOKEN_MS: i64 = 60_000;

/// An API token as its owner sees it (never its secret, shown once when made).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiToken {
    /// Its public id: 16 hex digits.
    pub id: String,
    /// Its account.
    pub account_id: String,
    /// Its name, as its owner gave it.
    pub name: String,
    /// When it was made, unix milliseconds.
    pub created_ms: i64,
    /// When it was last used (written at most once a minute), if ever.
    pub last_used_ms: Option<i64>,
}

/// What [`Store::make_bot`] did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BotChange {
    /// The account is a bot's now.
    Made,
    /// It was one already: nothing changed.
    Already,
    /// It has played rated games: it stays a person's (a bot's results would mix with
    /// a person's in one rating).
    RatedGames,
}

const TOKEN: &str = "SELECT id, account_id, name, created_ms, last_used_ms FROM api_tokens";

fn token_of(row: &[Cell]) -> Result<ApiToken, StoreError> {
    Ok(ApiToken {
        id: row[0].text()?,
        account_id: row[1].text()?,
        name: row[2].text()?,
        created_ms: row[3].int()?,
        last_used_ms: match &row[4] {
            Cell::Null => None,
            cell => Some(cell.int()?),
        },
    })
}

impl Store {
    /// Makes account `account_id` a bot's, for good, unless it has played a rated game
    /// (an aborted one does not count). [`StoreError::NoAccount`] for no living account.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::store::BotChange;
    /// assert_eq!(store.make_bot(&zoe.id).await, Ok(BotChange::Made));
    /// assert_eq!(store.make_bot(&zoe.id).await, Ok(BotChange::Already));
    /// assert!(store.account(&zoe.id).await.unwrap().unwrap().bot);
    /// # });
    /// ```
    pub async fn make_bot(&self, account_id: &str) -> Result<BotChange, StoreError> {
        let account = Statement::new(
            "SELECT bot FROM accounts WHERE id = ?1 AND deleted_ms IS NULL FOR UPDATE",
            vec![text(account_id)],
        );
        let rated = Statement::new(
            "SELECT count(*) FROM seat_accounts s JOIN games g ON g.id = s.game_id \
             WHERE s.account_id = ?1 AND g.rated AND NOT g.aborted",
            vec![text(account_id)],
        );
        let make = Statement::new(
            "UPDATE accounts SET bot = TRUE WHERE id = ?1",
            vec![text(account_id)],
        );
        let (change, _) = self
            .transact(vec![account, rated], move |rows| {
                let bot = rows[0].first().ok_or(StoreError::NoAccount)?[0].flag()?;
                let rated = rows[1].first().map_or(Ok(0), |r| r[0].int())?;
                Ok(match (bot, rated) {
                    (true, _) => (Vec::new(), BotChange::Already),
                    (false, 0) => (vec![make], BotChange::Made),
                    (false, _) => (Vec::new(), BotChange::RatedGames),
                })
            })
            .await?;
        Ok(change)
    }

    /// Stores a new API token of `account_id` (a living account: else
    /// [`StoreError::NoAccount`]) under id `id` and `name`, made at `now_ms`; answers
    /// `false` (nothing written) when the account holds [`MAX_API_TOKENS`] already.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::game::account::Token;
    /// let token = Token::api([4; 20]);
    /// assert_eq!(store.create_api_token(&token, "00000000000000f1", &zoe.id, "engine", 7).await, Ok(true));
    /// let found = store.api_token(&token).await.unwrap().unwrap();
    /// assert_eq!((found.id.as_str(), found.name.as_str(), found.created_ms), ("00000000000000f1", "engine", 7));
    /// assert_eq!(store.api_tokens(&zoe.id).await.unwrap(), vec![found]);
    /// assert_eq!(store.revoke_api_token(&zoe.id, "00000000000000f1", 8).await, Ok(true));
    /// assert_eq!(store.api_token(&token).await, Ok(None), "revoked");
    /// assert_eq!(store.api_tokens(&zoe.id).await, Ok(vec![]));
    /// # });
    /// ```
    pub async fn create_api_token(
        &self,
        token: &Token,
        id: &str,
        account_id: &str,
        name: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let account = Statement::new(
            "SELECT id FROM accounts WHERE id = ?1 AND deleted_ms IS NULL FOR UPDATE",
            vec![text(account_id)],
        );
        let count = Statement::new(
            "SELECT count(*) FROM api_tokens WHERE account_id = ?1 AND revoked_ms IS NULL",
            vec![text(account_id)],
        );
        let insert = Statement::new(
            "INSERT INTO api_tokens (digest, id, account_id, name, created_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            vec![
                bytes(&token.digest()),
                text(id),
                text(account_id),
                text(name),
                Value::Int(Some(now_ms)),
            ],
        );
        let (made, _) = self
            .transact(vec![account, count], move |rows| {
                if rows[0].is_empty() {
                    return Err(StoreError::NoAccount);
                }
                let held = rows[1].first().map_or(Ok(0), |r| r[0].int())?;
                Ok(match held < MAX_API_TOKENS {
                    true => (vec![insert], true),
                    false => (Vec::new(), false),
                })
            })
            .await?;
        Ok(made)
    }

    /// The living (not revoked) API tokens of `account_id`, oldest first.
    pub async fn api_tokens(&self, account_id: &str) -> Result<Vec<ApiToken>, StoreError> {
        let read = Statement::new(
            format!("{TOKEN} WHERE account_id = ?1 AND revoked_ms IS NULL ORDER BY created_ms, id"),
            vec![text(account_id)],
        );
        let (tokens, _) = self
            .transact(vec![read], |rows| {
                let tokens = rows[0]
                    .iter()
                    .map(|row| token_of(row))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok((Vec::new(), tokens))
            })
            .await?;
        Ok(tokens)
    }

    /// The living token whose secret is `token` (found by its digest), if any.
    pub async fn api_token(&self, token: &Token) -> Result<Option<ApiToken>, StoreError> {
        let read = Statement::new(
            format!("{TOKEN} WHERE digest = ?1 AND revoked_ms IS NULL"),
            vec![bytes(&token.digest())],
        );
        self.read_one(read, token_of).await
    }

    /// Records that `token` was used at `now_ms`, if its last use was written more than a
    /// minute before (so a bot's moves do not each write).
    pub async fn touch_api_token(&self, token: &Token, now_ms: i64) -> Result<(), StoreError> {
        self.write_count(Statement::new(
            "UPDATE api_tokens SET last_used_ms = ?2 WHERE digest = ?1 AND revoked_ms IS NULL \
             AND (last_used_ms IS NULL OR last_used_ms <= ?3)",
            vec![
                bytes(&token.digest()),
                Value::Int(Some(now_ms)),
                Value::Int(Some(now_ms - TOUCH_TOKEN_MS)),
            ],
        ))
        .await?;
        Ok(())
    }

    /// Revokes token `id` of `account_id` at `now_ms`: answers whether it had a living
    /// token of this id. A revoked token opens nothing any more.
    pub async fn revoke_api_token(
        &self,
        account_id: &str,
        id: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let revoked = self
            .write_count(Statement::new(
                "UPDATE api_tokens SET revoked_ms = ?3 \
                 WHERE account_id = ?1 AND id = ?2 AND revoked_ms IS NULL",
                vec![text(account_id), text(id), Value::Int(Some(now_ms))],
            ))
            .await?;
        Ok(revoked > 0)
    }
}
