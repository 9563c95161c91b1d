//! The accounts of online play (issue 33, `docs/ONLINE-PLAN.md`): accounts, their
//! passkeys, sessions, recovery codes and API tokens, the WebAuthn ceremonies under way,
//! ratings per speed and the rating changes of rated games. Each operation is written once, here, as the reads and writes
//! of one transaction ([`Store::transact`]), which both stores run alike.
//!
//! Secrets are kept as their SHA-256 digests only ([`Token::digest`],
//! [`RecoveryCode::digest`]); the store stores ratings, it does not compute them: a rated
//! game's result goes through [`rate_game`].
//!
//! A deleted account keeps its row ([`Account::deleted_ms`] set), so that its name stays
//! taken and its games and rating history keep their record (shown as "deleted player");
//! its passkeys, sessions, recovery codes and API tokens are deleted with it.

use agon_core::Side;

use super::sql::{Cell, Rows, Statement, Value};
use super::{Store, StoreError};
use crate::game::account::{RecoveryCode, Token, Username};
use crate::game::rating::{rate_game, Rating};
use crate::game::speed::Speed;

/// The tables of accounts, one text for both dialects (SQLite reads PostgreSQL's type
/// names with the affinity they mean: `BYTEA` keeps blobs as they are, `DOUBLE
/// PRECISION` is `REAL`, `BIGINT` `INTEGER`): SQLite's migration 4 to 5, PostgreSQL's 2
/// to 3. Times are unix milliseconds.
///
/// `rating_changes.game_id` names no foreign key: pruning finished games must not fail on
/// their rating history, which outlives them.
macro_rules! accounts_schema {
    () => {
        "
CREATE TABLE accounts (
    id            TEXT PRIMARY KEY,
    username      TEXT NOT NULL,
    username_key  TEXT NOT NULL UNIQUE,
    skeleton      TEXT NOT NULL UNIQUE,
    user_handle   BYTEA NOT NULL UNIQUE,
    created_ms    BIGINT NOT NULL,
    bot           BOOLEAN NOT NULL DEFAULT FALSE,
    deleted_ms    BIGINT
);
CREATE TABLE passkeys (
    credential_id BYTEA PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    passkey       TEXT NOT NULL,
    counter       BIGINT NOT NULL DEFAULT 0,
    name          TEXT NOT NULL,
    created_ms    BIGINT NOT NULL,
    last_used_ms  BIGINT
);
CREATE INDEX passkeys_account ON passkeys (account_id);
CREATE TABLE sessions (
    digest        BYTEA PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    label         TEXT NOT NULL,
    created_ms    BIGINT NOT NULL,
    last_used_ms  BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE TABLE recovery_codes (
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    digest        BYTEA NOT NULL,
    used_ms       BIGINT,
    PRIMARY KEY (account_id, digest)
);
CREATE TABLE api_tokens (
    digest        BYTEA PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    name          TEXT NOT NULL,
    created_ms    BIGINT NOT NULL,
    last_used_ms  BIGINT,
    revoked_ms    BIGINT
);
CREATE INDEX api_tokens_account ON api_tokens (account_id);
CREATE TABLE ratings (
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    speed         TEXT NOT NULL CHECK (speed IN ('ultrabullet', 'bullet', 'blitz', 'rapid',
                      'classical', 'correspondence')),
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    volatility    DOUBLE PRECISION NOT NULL,
    games         BIGINT NOT NULL,
    last_game_ms  BIGINT,
    PRIMARY KEY (account_id, speed)
);
CREATE TABLE rating_changes (
    game_id          TEXT NOT NULL,
    account_id       TEXT NOT NULL REFERENCES accounts(id),
    speed            TEXT NOT NULL,
    before_rating    DOUBLE PRECISION NOT NULL,
    before_deviation DOUBLE PRECISION NOT NULL,
    after_rating     DOUBLE PRECISION NOT NULL,
    after_deviation  DOUBLE PRECISION NOT NULL,
    after_volatility DOUBLE PRECISION NOT NULL,
    at_ms            BIGINT NOT NULL,
    PRIMARY KEY (game_id, account_id)
);
CREATE INDEX rating_changes_account ON rating_changes (account_id, speed, at_ms);
CREATE TABLE ceremonies (
    id            TEXT PRIMARY KEY,
    kind          TEXT NOT NULL CHECK (kind IN ('register', 'authenticate')),
    state         TEXT NOT NULL,
    account_id    TEXT REFERENCES accounts(id),
    expires_ms    BIGINT NOT NULL
);
CREATE INDEX ceremonies_expiry ON ceremonies (expires_ms);
"
    };
}

/// The accounts that claimed a game's seats (a guest who signed in during the game),
/// one text for both dialects: SQLite's migration 5 to 6, PostgreSQL's 3 to 4. A row goes
/// with its game when the game is pruned.
macro_rules! seat_accounts_schema {
    () => {
        "
CREATE TABLE seat_accounts (
    game_id       TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    side          TEXT NOT NULL CHECK (side IN ('white', 'black')),
    account_id    TEXT NOT NULL REFERENCES accounts(id),
    claimed_ms    BIGINT NOT NULL,
    PRIMARY KEY (game_id, side)
);
CREATE INDEX seat_accounts_account ON seat_accounts (account_id);
"
    };
}

/// Rated games and the accounts of their seats (issue 33), one text for both dialects:
/// SQLite's migration 7 to 8, PostgreSQL's 5 to 6. A game says whether it is rated, its
/// speed category (NULL for a game stored before: derived from its clock when read) and
/// its result once it has one (`white`, `black`, `draw`: written with every change, for
/// the lists of a player's games; a game stored before has none until its next change,
/// and none of them is an account's but a claimed seat's, rarely finished).
/// The games stored before get the speed of their clock (`Speed::of_clock` at the
/// time of this migration, frozen here as a migration is). A seat's account row gains
/// the player's rating and deviation at the game's start
/// (NULL in a casual game). The partial index finds the rated games whose end is still to
/// be rated (the sweep of `service::ratings`).
macro_rules! rated_games_schema {
    () => {
        "
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN speed TEXT CHECK (speed IN ('ultrabullet', 'bullet', 'blitz',
    'rapid', 'classical', 'correspondence'));
ALTER TABLE games ADD COLUMN result TEXT CHECK (result IN ('white', 'black', 'draw'));
ALTER TABLE seat_accounts ADD COLUMN rating DOUBLE PRECISION;
ALTER TABLE seat_accounts ADD COLUMN deviation DOUBLE PRECISION;
CREATE INDEX games_rated ON games (touched_ms) WHERE rated;
UPDATE games SET speed = CASE
    WHEN clock_initial_ms IS NULL OR clock_increment_ms IS NULL THEN 'correspondence'
    WHEN clock_initial_ms + 150 * clock_increment_ms < 120000 THEN 'ultrabullet'
    WHEN clock_initial_ms + 150 * clock_increment_ms < 660000 THEN 'bullet'
    WHEN clock_initial_ms + 150 * clock_increment_ms < 1800000 THEN 'blitz'
    WHEN clock_initial_ms + 150 * clock_increment_ms < 5400000 THEN 'rapid'
    ELSE 'classical' END;
"
    };
}

/// How often a session's `last_used_ms` is written at most ([`Store::touch_session`]): a
/// session used by every request costs one write a minute, not one a request.
///
/// ```
/// assert_eq!(agon_web::store::TOUCH_EVERY_MS, 60_000);
/// ```
pub const TOUCH_EVERY_MS: i64 = 60_000;

/// A new account, as sign-up makes it: its id and WebAuthn user handle are random
/// (drawn by the caller from `ids`).
///
/// ```
/// use agon_web::{game::account::Username, store::NewAccount};
/// let new = NewAccount { id: "00112233aabbccdd".into(), username: Username::parse("Zoe")?, user_handle: [7; 32], bot: false };
/// assert_eq!(new.username.key(), "zoe");
/// # Ok::<(), agon_web::game::account::UsernameError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewAccount {
    /// The account's id: 16 hex digits.
    pub id: String,
    /// The name, as typed.
    pub username: Username,
    /// The WebAuthn user handle: 32 random bytes.
    pub user_handle: [u8; 32],
    /// Whether it is a bot account.
    pub bot: bool,
}

/// An account as stored.
///
/// ```
/// use agon_web::store::Account;
/// let a = Account { id: "00112233aabbccdd".into(), username: "Zoe".into(), user_handle: vec![7; 32], created_ms: 5, bot: false, deleted_ms: None };
/// assert!(a.deleted_ms.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The account's id.
    pub id: String,
    /// The name, as typed at sign-up.
    pub username: String,
    /// The WebAuthn user handle.
    pub user_handle: Vec<u8>,
    /// When it was created, unix milliseconds.
    pub created_ms: i64,
    /// Whether it is a bot account.
    pub bot: bool,
    /// When it was deleted (`None`: it was not).
    pub deleted_ms: Option<i64>,
}

/// A passkey of an account. `passkey` is the credential as the WebAuthn crate
/// serialises it (public key, counter, backup flags), opaque to the store.
///
/// ```
/// use agon_web::store::Passkey;
/// let p = Passkey { credential_id: vec![1, 2], account_id: "00112233aabbccdd".into(), passkey: "{}".into(), counter: 0, name: "phone".into(), created_ms: 5, last_used_ms: None };
/// assert_eq!(p.name, "phone");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passkey {
    /// The credential's id, as the authenticator made it.
    pub credential_id: Vec<u8>,
    /// Whose it is.
    pub account_id: String,
    /// The serialised credential.
    pub passkey: String,
    /// The authenticator's signature counter last seen.
    pub counter: i64,
    /// The owner's name for it ("phone").
    pub name: String,
    /// When it was added, unix milliseconds.
    pub created_ms: i64,
    /// When it last signed in (`None`: never).
    pub last_used_ms: Option<i64>,
}

/// What [`Store::remove_passkey_not_last`] did.
///
/// ```
/// assert_ne!(agon_web::store::PasskeyRemoval::Removed, agon_web::store::PasskeyRemoval::Last);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PasskeyRemoval {
    /// The passkey is removed.
    Removed,
    /// The account has no passkey of this id.
    Unknown,
    /// It is the account's only passkey: kept.
    Last,
}

/// A signed-in session (found by its token's digest).
///
/// ```
/// use agon_web::store::Session;
/// let s = Session { account_id: "00112233aabbccdd".into(), label: "Firefox".into(), created_ms: 1, last_used_ms: 2 };
/// assert_eq!(s.label, "Firefox");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// Whose session it is.
    pub account_id: String,
    /// The browser family, for the list of sessions.
    pub label: String,
    /// When it was signed in, unix milliseconds.
    pub created_ms: i64,
    /// When it was last used (written at most once a [`TOUCH_EVERY_MS`]).
    pub last_used_ms: i64,
}

/// A player's rating in one speed, with its count of games and the time of the last.
///
/// ```
/// use agon_web::{game::rating::Rating, store::StoredRating};
/// assert_eq!(StoredRating::NEW, StoredRating { rating: Rating::DEFAULT, games: 0, last_game_ms: None });
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct StoredRating {
    /// The rating.
    pub rating: Rating,
    /// The rated games played in this speed.
    pub games: i64,
    /// When the last one was rated (`None`: none was).
    pub last_game_ms: Option<i64>,
}

impl StoredRating {
    /// A player who has not played this speed: [`Rating::DEFAULT`], no game.
    pub const NEW: StoredRating = StoredRating {
        rating: Rating::DEFAULT,
        games: 0,
        last_game_ms: None,
    };
}

/// A rated game's end, as [`Store::apply_rated_game`] applies it.
///
/// ```
/// use agon_web::{game::speed::Speed, store::RatedGame};
/// let g = RatedGame { game_id: "0011223344556677".into(), players: ["a".into(), "b".into()], speed: Speed::Blitz, winner: None };
/// assert_eq!(g.speed.name(), "blitz");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RatedGame {
    /// The game's id.
    pub game_id: String,
    /// The accounts of White and Black.
    pub players: [String; 2],
    /// The game's speed.
    pub speed: Speed,
    /// Who won (`None`: a draw).
    pub winner: Option<Side>,
}

/// A WebAuthn ceremony under way: sign-up and sign-in each take two requests, which may
/// reach two servers, so the relying party's state between them is kept here, read once.
///
/// ```
/// use agon_web::store::Ceremony;
/// let c = Ceremony { id: "c0ffee".into(), kind: "register".into(), state: "{}".into(), account_id: None, expires_ms: 300_000 };
/// assert_eq!(c.kind, "register");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ceremony {
    /// Its id, random, sent to the browser.
    pub id: String,
    /// `register` or `authenticate` (the table refuses anything else).
    pub kind: String,
    /// The WebAuthn crate's state, serialised, opaque to the store.
    pub state: String,
    /// The account it is for (`None`: a sign-up, or a sign-in without a name).
    pub account_id: Option<String>,
    /// When it stops being usable, unix milliseconds.
    pub expires_ms: i64,
}

const ACCOUNT: &str = "SELECT id, username, user_handle, created_ms, bot, deleted_ms FROM accounts";

fn account_of(row: &[Cell]) -> Result<Account, StoreError> {
    Ok(Account {
        id: row[0].text()?,
        username: row[1].text()?,
        user_handle: row[2].bytes()?,
        created_ms: row[3].int()?,
        bot: row[4].flag()?,
        deleted_ms: row[5].opt_int()?,
    })
}

fn passkey_of(row: &[Cell]) -> Result<Passkey, StoreError> {
    Ok(Passkey {
        credential_id: row[0].bytes()?,
        account_id: row[1].text()?,
        passkey: row[2].text()?,
        counter: row[3].int()?,
        name: row[4].text()?,
        created_ms: row[5].int()?,
        last_used_ms: row[6].opt_int()?,
    })
}

/// A stored rating from `rating, deviation, volatility, games, last_game_ms`, its bounds
/// checked ([`Rating::new`]).
pub(super) fn rating_of(row: &[Cell]) -> Result<StoredRating, StoreError> {
    let rating = Rating::new(row[0].real()?, row[1].real()?, row[2].real()?)
        .map_err(|e| StoreError::Database(format!("database: a stored rating: {e}")))?;
    Ok(StoredRating {
        rating,
        games: row[3].int()?,
        last_game_ms: row[4].opt_int()?,
    })
}

pub(super) fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

pub(super) fn bytes(b: &[u8]) -> Value {
    Value::Bytes(Some(b.to_vec()))
}

/// The read that finds account `?1` if it is not deleted (empty otherwise).
fn alive(id: &str) -> Statement {
    Statement::new(
        "SELECT id FROM accounts WHERE id = ?1 AND deleted_ms IS NULL FOR UPDATE",
        vec![text(id)],
    )
}

/// `NoAccount` unless the read of [`alive`] found the account.
fn must_be_alive(rows: &Rows) -> Result<(), StoreError> {
    if rows.is_empty() {
        Err(StoreError::NoAccount)
    } else {
        Ok(())
    }
}

/// The upsert of a player's rating in a speed.
fn write_rating(account_id: &str, speed: Speed, r: &StoredRating) -> Statement {
    Statement::new(
        "INSERT INTO ratings (account_id, speed, rating, deviation, volatility, games, \
         last_game_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
         ON CONFLICT (account_id, speed) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         games = excluded.games, last_game_ms = excluded.last_game_ms",
        vec![
            text(account_id),
            text(speed.name()),
            Value::Real(r.rating.rating),
            Value::Real(r.rating.deviation),
            Value::Real(r.rating.volatility),
            Value::Int(Some(r.games)),
            Value::Int(r.last_game_ms),
        ],
    )
}

impl Store {
    /// Creates an account at `now_ms`. A name whose skeleton an account has already (a
    /// deleted one's too) is refused with [`StoreError::UsernameTaken`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use agon_web::{game::account::Username, store::{NewAccount, StoreError}};
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// let new = |id: &str, name: &str, handle| NewAccount { id: id.into(), username: Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// assert_eq!((zoe.username.as_str(), zoe.created_ms), ("Zoe", 5));
    /// assert_eq!(store.create_account(&new("00000000000000a2", "z0e", 2), 6).await, Err(StoreError::UsernameTaken));
    /// assert_eq!(store.account_by_key("zoe").await.unwrap(), Some(zoe));
    /// # });
    /// ```
    pub async fn create_account(
        &self,
        new: &NewAccount,
        now_ms: i64,
    ) -> Result<Account, StoreError> {
        let account = Account {
            id: new.id.clone(),
            username: new.username.as_str().to_string(),
            user_handle: new.user_handle.to_vec(),
            created_ms: now_ms,
            bot: new.bot,
            deleted_ms: None,
        };
        // A taken skeleton (the key's too: the same key has the same skeleton) writes
        // nothing, even when two servers create the same name at once.
        let insert = Statement::new(
            "INSERT INTO accounts (id, username, username_key, skeleton, user_handle, \
             created_ms, bot) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (skeleton) DO NOTHING",
            vec![
                text(&new.id),
                text(new.username.as_str()),
                text(&new.username.key()),
                text(&new.username.skeleton()),
                bytes(&new.user_handle),
                Value::Int(Some(now_ms)),
                Value::Bool(new.bot),
            ],
        )
        .one_row(StoreError::UsernameTaken);
        self.transact(Vec::new(), move |_| Ok((vec![insert], account)))
            .await
            .map(|(account, _)| account)
    }

    /// The account whose name's key ([`Username::key`]) is `key`, deleted or not.
    pub async fn account_by_key(&self, key: &str) -> Result<Option<Account>, StoreError> {
        let read = Statement::new(
            format!("{ACCOUNT} WHERE username_key = ?1"),
            vec![text(key)],
        );
        self.read_one(read, account_of).await
    }

    /// Whether a name is taken: an account, deleted or not, has its skeleton
    /// ([`Username::skeleton`]), so it or a look-alike of it.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// use agon_web::game::account::Username;
    /// store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// assert!(store.username_taken(&Username::parse("z0e").unwrap()).await.unwrap());
    /// assert!(!store.username_taken(&Username::parse("Zed").unwrap()).await.unwrap());
    /// # });
    /// ```
    pub async fn username_taken(&self, username: &Username) -> Result<bool, StoreError> {
        let read = Statement::new(
            "SELECT id FROM accounts WHERE skeleton = ?1",
            vec![text(&username.skeleton())],
        );
        Ok(self.read_one(read, |row| row[0].text()).await?.is_some())
    }

    /// The account of this id, deleted or not.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// assert_eq!(store.account("00112233aabbccdd").await, Ok(None));
    /// # });
    /// ```
    pub async fn account(&self, id: &str) -> Result<Option<Account>, StoreError> {
        let read = Statement::new(format!("{ACCOUNT} WHERE id = ?1"), vec![text(id)]);
        self.read_one(read, account_of).await
    }

    /// The first row of `read`, made by `of`, or `None`.
    pub(super) async fn read_one<T: Send + 'static>(
        &self,
        read: Statement,
        of: fn(&[Cell]) -> Result<T, StoreError>,
    ) -> Result<Option<T>, StoreError> {
        let (found, _) = self
            .transact(vec![read], move |rows| {
                let found = rows[0].first().map(|row| of(row)).transpose()?;
                Ok((Vec::new(), found))
            })
            .await?;
        Ok(found)
    }

    /// Marks account `id` deleted at `now_ms` and deletes its passkeys, sessions,
    /// recovery codes, API tokens and ceremonies. Its row stays (its name stays taken), and so do its
    /// ratings and rating changes: its games keep their record, as a deleted player's.
    /// [`StoreError::NoAccount`] if there is no such account, or it was deleted already.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::StoreError;
    /// store.delete_account(&zoe.id, 9).await.unwrap();
    /// assert_eq!(store.account(&zoe.id).await.unwrap().unwrap().deleted_ms, Some(9));
    /// assert_eq!(store.delete_account(&zoe.id, 10).await, Err(StoreError::NoAccount));
    /// # });
    /// ```
    pub async fn delete_account(&self, id: &str, now_ms: i64) -> Result<(), StoreError> {
        let mut writes = vec![Statement::new(
            "UPDATE accounts SET deleted_ms = ?2 WHERE id = ?1 AND deleted_ms IS NULL",
            vec![text(id), Value::Int(Some(now_ms))],
        )
        .one_row(StoreError::NoAccount)];
        for table in [
            "passkeys",
            "sessions",
            "recovery_codes",
            "api_tokens",
            "ceremonies",
        ] {
            writes.push(Statement::new(
                format!("DELETE FROM {table} WHERE account_id = ?1"),
                vec![text(id)],
            ));
        }
        self.transact(Vec::new(), move |_| Ok((writes, ()))).await?;
        Ok(())
    }

    /// Adds a passkey to its account (which must exist, not deleted:
    /// [`StoreError::NoAccount`]). A credential id stored already is refused with
    /// [`StoreError::PasskeyTaken`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::{store::Passkey, StoreError};
    /// let key = Passkey { credential_id: vec![1; 16], account_id: zoe.id.clone(), passkey: "{}".into(), counter: 0, name: "phone".into(), created_ms: 6, last_used_ms: None };
    /// store.add_passkey(&key).await.unwrap();
    /// assert_eq!(store.add_passkey(&key).await, Err(StoreError::PasskeyTaken));
    /// assert_eq!(store.passkeys(&zoe.id).await.unwrap(), [key]);
    /// assert_eq!(store.remove_passkey(&zoe.id, &[1; 16]).await, Ok(true));
    /// assert_eq!(store.passkeys(&zoe.id).await.unwrap(), []);
    /// # });
    /// ```
    pub async fn add_passkey(&self, passkey: &Passkey) -> Result<(), StoreError> {
        // A credential id stored already writes nothing, even when two servers add it
        // at once.
        let insert = Statement::new(
            "INSERT INTO passkeys (credential_id, account_id, passkey, counter, name, \
             created_ms, last_used_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
             ON CONFLICT (credential_id) DO NOTHING",
            vec![
                bytes(&passkey.credential_id),
                text(&passkey.account_id),
                text(&passkey.passkey),
                Value::Int(Some(passkey.counter)),
                text(&passkey.name),
                Value::Int(Some(passkey.created_ms)),
                Value::Int(passkey.last_used_ms),
            ],
        )
        .one_row(StoreError::PasskeyTaken);
        self.transact(vec![alive(&passkey.account_id)], move |rows| {
            must_be_alive(&rows[0])?;
            Ok((vec![insert], ()))
        })
        .await?;
        Ok(())
    }

    /// The passkeys of an account, oldest first.
    pub async fn passkeys(&self, account_id: &str) -> Result<Vec<Passkey>, StoreError> {
        let read = Statement::new(
            "SELECT credential_id, account_id, passkey, counter, name, created_ms, \
             last_used_ms FROM passkeys WHERE account_id = ?1 ORDER BY created_ms, credential_id",
            vec![text(account_id)],
        );
        let (passkeys, _) = self
            .transact(vec![read], |rows| {
                let passkeys = rows[0]
                    .iter()
                    .map(|r| passkey_of(r))
                    .collect::<Result<_, _>>()?;
                Ok((Vec::new(), passkeys))
            })
            .await?;
        Ok(passkeys)
    }

    /// The passkey whose credential id is `credential_id`, whoever's it is (a sign-in
    /// brings the id, not the account).
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::store::Passkey;
    /// let key = Passkey { credential_id: vec![1; 16], account_id: zoe.id.clone(), passkey: "{}".into(), counter: 0, name: "phone".into(), created_ms: 6, last_used_ms: None };
    /// store.add_passkey(&key).await.unwrap();
    /// assert_eq!(store.passkey(&[1; 16]).await.unwrap(), Some(key.clone()));
    /// assert_eq!(store.passkey(&[2; 16]).await.unwrap(), None);
    /// assert_eq!(store.use_passkey(&[1; 16], "{\"n\":1}", 4, 9).await, Ok(true));
    /// let used = store.passkey(&[1; 16]).await.unwrap().unwrap();
    /// assert_eq!((used.passkey.as_str(), used.counter, used.last_used_ms), ("{\"n\":1}", 4, Some(9)));
    /// # });
    /// ```
    pub async fn passkey(&self, credential_id: &[u8]) -> Result<Option<Passkey>, StoreError> {
        let read = Statement::new(
            "SELECT credential_id, account_id, passkey, counter, name, created_ms, \
             last_used_ms FROM passkeys WHERE credential_id = ?1",
            vec![bytes(credential_id)],
        );
        self.read_one(read, passkey_of).await
    }

    /// Records a sign-in with passkey `credential_id` at `now_ms`: its serialised state
    /// (the authenticator's counter and flags, as the WebAuthn crate updated them) and
    /// counter. Answers whether there was such a passkey.
    pub async fn use_passkey(
        &self,
        credential_id: &[u8],
        passkey: &str,
        counter: i64,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        self.write_count(Statement::new(
            "UPDATE passkeys SET passkey = ?2, counter = ?3, last_used_ms = ?4 \
             WHERE credential_id = ?1",
            vec![
                bytes(credential_id),
                text(passkey),
                Value::Int(Some(counter)),
                Value::Int(Some(now_ms)),
            ],
        ))
        .await
        .map(|n| n == 1)
    }

    /// Removes passkey `credential_id` of `account_id`; answers whether there was one.
    pub async fn remove_passkey(
        &self,
        account_id: &str,
        credential_id: &[u8],
    ) -> Result<bool, StoreError> {
        self.write_count(Statement::new(
            "DELETE FROM passkeys WHERE account_id = ?1 AND credential_id = ?2",
            vec![text(account_id), bytes(credential_id)],
        ))
        .await
        .map(|n| n == 1)
    }

    /// Removes passkey `credential_id` of `account_id` unless it is the account's last:
    /// in one transaction under the account's row lock, so two removals at once cannot
    /// leave it none.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::store::{Passkey, PasskeyRemoval};
    /// for k in [1, 2] {
    ///     let key = Passkey { credential_id: vec![k; 16], account_id: zoe.id.clone(), passkey: "{}".into(), counter: 0, name: "phone".into(), created_ms: 6, last_used_ms: None };
    ///     store.add_passkey(&key).await.unwrap();
    /// }
    /// assert_eq!(store.remove_passkey_not_last(&zoe.id, &[3; 16]).await, Ok(PasskeyRemoval::Unknown));
    /// assert_eq!(store.remove_passkey_not_last(&zoe.id, &[1; 16]).await, Ok(PasskeyRemoval::Removed));
    /// assert_eq!(store.remove_passkey_not_last(&zoe.id, &[2; 16]).await, Ok(PasskeyRemoval::Last));
    /// # });
    /// ```
    pub async fn remove_passkey_not_last(
        &self,
        account_id: &str,
        credential_id: &[u8],
    ) -> Result<PasskeyRemoval, StoreError> {
        let read = Statement::new(
            "SELECT credential_id FROM passkeys WHERE account_id = ?1",
            vec![text(account_id)],
        );
        let delete = Statement::new(
            "DELETE FROM passkeys WHERE account_id = ?1 AND credential_id = ?2",
            vec![text(account_id), bytes(credential_id)],
        );
        let id = credential_id.to_vec();
        let (removal, _) = self
            .transact(vec![alive(account_id), read], move |rows| {
                must_be_alive(&rows[0])?;
                let ids = rows[1]
                    .iter()
                    .map(|row| row[0].bytes())
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(match (ids.contains(&id), ids.len()) {
                    (false, _) => (Vec::new(), PasskeyRemoval::Unknown),
                    (true, 1) => (Vec::new(), PasskeyRemoval::Last),
                    (true, _) => (vec![delete], PasskeyRemoval::Removed),
                })
            })
            .await?;
        Ok(removal)
    }

    /// Runs one write; answers how many rows it changed.
    pub(super) async fn write_count(&self, write: Statement) -> Result<u64, StoreError> {
        let ((), changed) = self
            .transact(Vec::new(), move |_| Ok((vec![write], ())))
            .await?;
        Ok(changed[0])
    }

    /// Claims the seat `side` of game `game_id` for `account_id` (which must exist, not
    /// deleted: [`StoreError::NoAccount`]) at `now_ms`. Answers the seat's account
    /// after: `account_id` once claimed (again or for the first time), another account's
    /// id if it claimed the seat first. Of two accounts claiming at once, the second
    /// gets [`StoreError::Conflict`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// # let max = store.create_account(&new("00000000000000b2", "Max", 2), 5).await.unwrap();
    /// use agon_core::{Position, Side};
    /// let game = agon_web::game::WebGame::new("0011223344556677".into(), [1; 32], Side::White, agon_web::Level::Easy, 7, Position::start());
    /// store.insert(&game, 5).await.unwrap();
    /// assert_eq!(store.claim_seat(&game.id, Side::White, &zoe.id, 9).await.unwrap(), zoe.id);
    /// assert_eq!(store.claim_seat(&game.id, Side::White, &max.id, 9).await.unwrap(), zoe.id);
    /// assert_eq!(store.seat_accounts(&game.id).await.unwrap(), [Some(zoe.id), None]);
    /// # });
    /// ```
    pub async fn claim_seat(
        &self,
        game_id: &str,
        side: Side,
        account_id: &str,
        now_ms: i64,
    ) -> Result<String, StoreError> {
        let read = Statement::new(
            "SELECT account_id FROM seat_accounts WHERE game_id = ?1 AND side = ?2",
            vec![text(game_id), text(side.name())],
        );
        let insert = Statement::new(
            "INSERT INTO seat_accounts (game_id, side, account_id, claimed_ms) \
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (game_id, side) DO NOTHING",
            vec![
                text(game_id),
                text(side.name()),
                text(account_id),
                Value::Int(Some(now_ms)),
            ],
        )
        .one_row(StoreError::Conflict);
        let account = account_id.to_string();
        let (owner, _) = self
            .transact(vec![alive(account_id), read], move |rows| {
                must_be_alive(&rows[0])?;
                match rows[1].first() {
                    Some(row) => Ok((Vec::new(), row[0].text()?)),
                    None => Ok((vec![insert], account)),
                }
            })
            .await?;
        Ok(owner)
    }

    /// The accounts that claimed game `game_id`'s seats, White's then Black's.
    pub async fn seat_accounts(&self, game_id: &str) -> Result<[Option<String>; 2], StoreError> {
        let read = Statement::new(
            "SELECT side, account_id FROM seat_accounts WHERE game_id = ?1",
            vec![text(game_id)],
        );
        let (seats, _) = self
            .transact(vec![read], |rows| {
                let mut seats = [None, None];
                for row in &rows[0] {
                    let k = match row[0].text()?.as_str() {
                        "white" => 0,
                        _ => 1,
                    };
                    seats[k] = Some(row[1].text()?);
                }
                Ok((Vec::new(), seats))
            })
            .await?;
        Ok(seats)
    }

    /// Creates `new` signed in with the session `token` labelled `label`, both at
    /// `now_ms`: an account without a passkey, which only that session reaches. Tests and
    /// tools make their players so (the load test, the fuzzer's accounts); a person signs up
    /// with a passkey instead.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use agon_web::game::account::{Token, Username};
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// let new = agon_web::store::NewAccount { id: "00000000000000a1".into(), username: Username::parse("Zoe").unwrap(), user_handle: [1; 32], bot: false };
    /// let token = Token::session([3; 20]);
    /// let zoe = store.create_signed_in(&new, &token, "load", 5).await.unwrap();
    /// assert_eq!(store.session(&token, 6).await.unwrap().unwrap().account_id, zoe.id);
    /// assert!(store.passkeys(&zoe.id).await.unwrap().is_empty());
    /// # });
    /// ```
    pub async fn create_signed_in(
        &self,
        new: &NewAccount,
        token: &Token,
        label: &str,
        now_ms: i64,
    ) -> Result<Account, StoreError> {
        let account = self.create_account(new, now_ms).await?;
        self.create_session(token, &account.id, label, now_ms)
            .await?;
        Ok(account)
    }

    /// Stores a new session of `account_id` (which must exist, not deleted:
    /// [`StoreError::NoAccount`]) for `token`, signed in at `now_ms`.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::game::account::{Token, SESSION_IDLE_MS};
    /// let token = Token::session([3; 20]);
    /// store.create_session(&token, &zoe.id, "Firefox", 100).await.unwrap();
    /// assert_eq!(store.session(&token, 200).await.unwrap().unwrap().account_id, zoe.id);
    /// assert_eq!(store.touch_session(&token, 200).await, Ok(false), "at most once a minute");
    /// assert_eq!(store.session(&token, 100 + SESSION_IDLE_MS).await, Ok(None), "idle too long");
    /// assert_eq!(store.delete_sessions(&zoe.id).await, Ok(1));
    /// # });
    /// ```
    pub async fn create_session(
        &self,
        token: &Token,
        account_id: &str,
        label: &str,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let insert = Statement::new(
            "INSERT INTO sessions (digest, account_id, label, created_ms, last_used_ms) \
             SELECT ?1, id, ?3, ?4, ?4 FROM accounts WHERE id = ?2 AND deleted_ms IS NULL",
            vec![
                bytes(&token.digest()),
                text(account_id),
                text(label),
                Value::Int(Some(now_ms)),
            ],
        )
        .one_row(StoreError::NoAccount);
        self.transact(Vec::new(), move |_| Ok((vec![insert], ())))
            .await?;
        Ok(())
    }

    /// The session of `token`, if it is still alive at `now_ms`
    /// ([`session_alive`](crate::game::account::session_alive)) and its account not
    /// deleted.
    pub async fn session(&self, token: &Token, now_ms: i64) -> Result<Option<Session>, StoreError> {
        let read = Statement::new(
            "SELECT s.account_id, s.label, s.created_ms, s.last_used_ms FROM sessions s \
             JOIN accounts a ON a.id = s.account_id \
             WHERE s.digest = ?1 AND a.deleted_ms IS NULL",
            vec![bytes(&token.digest())],
        );
        let found = self
            .read_one(read, |row| {
                Ok(Session {
                    account_id: row[0].text()?,
                    label: row[1].text()?,
                    created_ms: row[2].int()?,
                    last_used_ms: row[3].int()?,
                })
            })
            .await?;
        Ok(found
            .filter(|s| crate::game::account::session_alive(s.created_ms, s.last_used_ms, now_ms)))
    }

    /// Records that `token`'s session was used at `now_ms`, if it was last written
    /// [`TOUCH_EVERY_MS`] or more before; answers whether it wrote.
    pub async fn touch_session(&self, token: &Token, now_ms: i64) -> Result<bool, StoreError> {
        self.write_count(Statement::new(
            "UPDATE sessions SET last_used_ms = ?2 WHERE digest = ?1 AND last_used_ms <= ?3",
            vec![
                bytes(&token.digest()),
                Value::Int(Some(now_ms)),
                Value::Int(Some(now_ms - TOUCH_EVERY_MS)),
            ],
        ))
        .await
        .map(|n| n == 1)
    }

    /// Ends `token`'s session (sign-out); answers whether there was one.
    pub async fn delete_session(&self, token: &Token) -> Result<bool, StoreError> {
        self.write_count(Statement::new(
            "DELETE FROM sessions WHERE digest = ?1",
            vec![bytes(&token.digest())],
        ))
        .await
        .map(|n| n == 1)
    }

    /// Ends every session of `account_id` (sign-out everywhere); answers how many.
    pub async fn delete_sessions(&self, account_id: &str) -> Result<u64, StoreError> {
        self.write_count(Statement::new(
            "DELETE FROM sessions WHERE account_id = ?1",
            vec![text(account_id)],
        ))
        .await
    }

    /// Replaces the recovery codes of `account_id` (which must exist, not deleted:
    /// [`StoreError::NoAccount`]) with these, by their digests: the old ones stop working.
    pub async fn set_recovery_codes(
        &self,
        account_id: &str,
        codes: &[RecoveryCode],
    ) -> Result<(), StoreError> {
        let mut writes = vec![Statement::new(
            "DELETE FROM recovery_codes WHERE account_id = ?1",
            vec![text(account_id)],
        )];
        writes.extend(codes.iter().map(|code| {
            Statement::new(
                "INSERT INTO recovery_codes (account_id, digest) VALUES (?1, ?2)",
                vec![text(account_id), bytes(&code.digest())],
            )
        }));
        self.transact(vec![alive(account_id)], move |rows| {
            must_be_alive(&rows[0])?;
            Ok((writes, ()))
        })
        .await?;
        Ok(())
    }

    /// Uses up `code` of `account_id` at `now_ms`: answers whether it was one of the
    /// account's unused codes (compared in constant time, [`RecoveryCode::find_in`]). A
    /// code works once; a deleted account has none.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::game::account::RecoveryCode;
    /// let codes: Vec<_> = (0..10).map(|k| RecoveryCode::from_bytes([k; 10])).collect();
    /// store.set_recovery_codes(&zoe.id, &codes).await.unwrap();
    /// assert_eq!(store.use_recovery_code(&zoe.id, &codes[2], 7).await, Ok(true));
    /// assert_eq!(store.use_recovery_code(&zoe.id, &codes[2], 8).await, Ok(false));
    /// assert_eq!(store.recovery_codes_left(&zoe.id).await, Ok(9));
    /// # });
    /// ```
    pub async fn use_recovery_code(
        &self,
        account_id: &str,
        code: &RecoveryCode,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let read = Statement::new(
            "SELECT digest FROM recovery_codes WHERE account_id = ?1 AND used_ms IS NULL \
             FOR UPDATE",
            vec![text(account_id)],
        );
        let code = code.clone();
        let account_id = account_id.to_string();
        let (found, _) = self
            .transact(vec![read], move |rows| {
                let digests = rows[0]
                    .iter()
                    .map(|row| {
                        <[u8; 32]>::try_from(row[0].bytes()?).map_err(|_| {
                            StoreError::Database("database: a recovery code's digest".into())
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let Some(k) = code.find_in(&digests) else {
                    return Ok((Vec::new(), false));
                };
                let used = Statement::new(
                    "UPDATE recovery_codes SET used_ms = ?3 \
                     WHERE account_id = ?1 AND digest = ?2 AND used_ms IS NULL",
                    vec![
                        text(&account_id),
                        bytes(&digests[k]),
                        Value::Int(Some(now_ms)),
                    ],
                )
                .one_row(StoreError::Conflict);
                Ok((vec![used], true))
            })
            .await?;
        Ok(found)
    }

    /// How many unused recovery codes `account_id` has.
    pub async fn recovery_codes_left(&self, account_id: &str) -> Result<i64, StoreError> {
        let read = Statement::new(
            "SELECT count(*) FROM recovery_codes WHERE account_id = ?1 AND used_ms IS NULL",
            vec![text(account_id)],
        );
        Ok(self.read_one(read, |row| row[0].int()).await?.unwrap_or(0))
    }

    /// The rating of `account_id` in `speed` as stored (`None`: no rated game yet).
    pub async fn rating(
        &self,
        account_id: &str,
        speed: Speed,
    ) -> Result<Option<StoredRating>, StoreError> {
        let read = Statement::new(
            "SELECT rating, deviation, volatility, games, last_game_ms FROM ratings \
             WHERE account_id = ?1 AND speed = ?2",
            vec![text(account_id), text(speed.name())],
        );
        self.read_one(read, rating_of).await
    }

    /// Writes the rating of `account_id` (which must exist, not deleted:
    /// [`StoreError::NoAccount`]) in `speed`.
    pub async fn set_rating(
        &self,
        account_id: &str,
        speed: Speed,
        rating: &StoredRating,
    ) -> Result<(), StoreError> {
        let write = write_rating(account_id, speed, rating);
        self.transact(vec![alive(account_id)], move |rows| {
            must_be_alive(&rows[0])?;
            Ok((vec![write], ()))
        })
        .await?;
        Ok(())
    }

    /// Applies a rated game's result at `now_ms`, exactly once: in one transaction, the
    /// two accounts' rows are locked (the lower id first, so two games never deadlock),
    /// their ratings in the game's speed read ([`StoredRating::NEW`] if none), updated by
    /// [`rate_game`] (each player's deviation widened for the time since their last
    /// game), written back with one more game, and the two `rating_changes` rows inserted.
    /// Answers the new ratings, White's then Black's; `None` if the game's result was
    /// applied already (nothing is written). The changes' primary key `(game_id,
    /// account_id)` is the guard that refuses a second application should two servers
    /// ever get past the lock together ([`StoreError::Conflict`]).
    /// [`StoreError::NoAccount`] unless both players are two accounts.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// # let new = |id: &str, name: &str, handle| agon_web::store::NewAccount { id: id.into(), username: agon_web::game::account::Username::parse(name).unwrap(), user_handle: [handle; 32], bot: false };
    /// # let zoe = store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
    /// use agon_web::{game::{rating::{rate_game, Rating}, speed::Speed}, store::RatedGame};
    /// let max = store.create_account(&new("00000000000000b2", "Max", 2), 5).await.unwrap();
    /// let game = RatedGame { game_id: "0011223344556677".into(), players: [zoe.id, max.id], speed: Speed::Blitz, winner: None };
    /// let after = store.apply_rated_game(&game, 1_000).await.unwrap().unwrap();
    /// assert_eq!(after.map(|r| r.rating), rate_game([Rating::DEFAULT; 2], [0, 0], None).unwrap());
    /// assert_eq!(store.apply_rated_game(&game, 2_000).await, Ok(None), "once");
    /// assert_eq!(store.rating(&game.players[0], Speed::Blitz).await, Ok(Some(after[0])));
    /// # });
    /// ```
    pub async fn apply_rated_game(
        &self,
        game: &RatedGame,
        now_ms: i64,
    ) -> Result<Option<[StoredRating; 2]>, StoreError> {
        let [white, black] = game.players.clone();
        let speed = game.speed;
        let pair = || vec![text(&white), text(&black)];
        let reads = vec![
            Statement::new(
                "SELECT id FROM accounts WHERE id IN (?1, ?2) ORDER BY id FOR UPDATE",
                pair(),
            ),
            Statement::new(
                "SELECT 1 FROM rating_changes WHERE game_id = ?1",
                vec![text(&game.game_id)],
            ),
            Statement::new(
                "SELECT account_id, rating, deviation, volatility, games, last_game_ms \
                 FROM ratings WHERE speed = ?3 AND account_id IN (?1, ?2)",
                vec![text(&white), text(&black), text(speed.name())],
            ),
        ];
        let (game_id, winner) = (game.game_id.clone(), game.winner);
        let (after, _) = self
            .transact(reads, move |rows| {
                if rows[0].len() != 2 {
                    return Err(StoreError::NoAccount);
                }
                if !rows[1].is_empty() {
                    return Ok((Vec::new(), None));
                }
                let mut before = [StoredRating::NEW; 2];
                for row in &rows[2] {
                    let side = usize::from(row[0].text()? == black);
                    before[side] = rating_of(&row[1..])?;
                }
                let idle = before.map(|r| r.last_game_ms.map_or(0, |t| now_ms - t));
                let rated = rate_game(before.map(|r| r.rating), idle, winner)
                    .map_err(|e| StoreError::Database(format!("rating: {e}")))?;
                let mut writes = Vec::new();
                let mut after = [StoredRating::NEW; 2];
                for (k, id) in [&white, &black].into_iter().enumerate() {
                    after[k] = StoredRating {
                        rating: rated[k],
                        games: before[k].games + 1,
                        last_game_ms: Some(now_ms),
                    };
                    writes.push(write_rating(id, speed, &after[k]));
                    writes.push(Statement::new(
                        "INSERT INTO rating_changes (game_id, account_id, speed, before_rating, \
                         before_deviation, after_rating, after_deviation, after_volatility, \
                         at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                        vec![
                            text(&game_id),
                            text(id),
                            text(speed.name()),
                            Value::Real(before[k].rating.rating),
                            Value::Real(before[k].rating.deviation),
                            Value::Real(rated[k].rating),
                            Value::Real(rated[k].deviation),
                            Value::Real(rated[k].volatility),
                            Value::Int(Some(now_ms)),
                        ],
                    ));
                }
                Ok((writes, Some(after)))
            })
            .await?;
        Ok(after)
    }

    /// Keeps a ceremony until [`Store::take_ceremony`] reads it. An id stored already
    /// is a [`StoreError::Conflict`]; an account that does not exist,
    /// [`StoreError::NoAccount`].
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// use agon_web::store::Ceremony;
    /// let c = Ceremony { id: "c0ffee".into(), kind: "authenticate".into(), state: "{}".into(), account_id: None, expires_ms: 300_000 };
    /// store.put_ceremony(&c).await.unwrap();
    /// assert_eq!(store.take_ceremony("c0ffee", 1_000).await, Ok(Some(c)));
    /// assert_eq!(store.take_ceremony("c0ffee", 1_000).await, Ok(None), "read once");
    /// # });
    /// ```
    pub async fn put_ceremony(&self, ceremony: &Ceremony) -> Result<(), StoreError> {
        let reads = match &ceremony.account_id {
            Some(id) => vec![alive(id)],
            None => Vec::new(),
        };
        let insert = Statement::new(
            "INSERT INTO ceremonies (id, kind, state, account_id, expires_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            vec![
                text(&ceremony.id),
                text(&ceremony.kind),
                text(&ceremony.state),
                Value::OptText(ceremony.account_id.clone()),
                Value::Int(Some(ceremony.expires_ms)),
            ],
        );
        self.transact(reads, move |rows| {
            rows.first().map_or(Ok(()), must_be_alive)?;
            Ok((vec![insert], ()))
        })
        .await?;
        Ok(())
    }

    /// The ceremony `id`, deleted as it is read: `None` if there is none, or if it
    /// expired by `now_ms` (deleted too). Of two requests taking it at once, one gets it.
    pub async fn take_ceremony(
        &self,
        id: &str,
        now_ms: i64,
    ) -> Result<Option<Ceremony>, StoreError> {
        let read = Statement::new(
            "SELECT id, kind, state, account_id, expires_ms FROM ceremonies WHERE id = ?1 \
             FOR UPDATE",
            vec![text(id)],
        );
        let delete = Statement::new("DELETE FROM ceremonies WHERE id = ?1", vec![text(id)]);
        let (found, _) = self
            .transact(vec![read], move |rows| {
                let Some(row) = rows[0].first() else {
                    return Ok((Vec::new(), None));
                };
                let ceremony = Ceremony {
                    id: row[0].text()?,
                    kind: row[1].text()?,
                    state: row[2].text()?,
                    account_id: match &row[3] {
                        Cell::Null => None,
                        cell => Some(cell.text()?),
                    },
                    expires_ms: row[4].int()?,
                };
                let live = (ceremony.expires_ms > now_ms).then_some(ceremony);
                Ok((vec![delete], live))
            })
            .await?;
        Ok(found)
    }

    /// Deletes the ceremonies expired by `now_ms` (begun and never finished); answers
    /// how many.
    pub async fn prune_ceremonies(&self, now_ms: i64) -> Result<u64, StoreError> {
        self.write_count(Statement::new(
            "DELETE FROM ceremonies WHERE expires_ms <= ?1",
            vec![Value::Int(Some(now_ms))],
        ))
        .await
    }

    /// Runs `reads`, then the writes `f` computes from their rows, in one transaction
    /// (SQLite's `IMMEDIATE`; PostgreSQL's, whose reads may lock rows `FOR UPDATE`):
    /// `f`'s value and the number of rows each write changed. Nothing is written if `f`
    /// or a write fails.
    pub(crate) async fn transact<T: Send + 'static>(
        &self,
        reads: Vec<Statement>,
        f: impl FnOnce(Vec<Rows>) -> Result<(Vec<Statement>, T), StoreError> + Send + 'static,
    ) -> Result<(T, Vec<u64>), StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(move |s| s.transact(&reads, f)).await,
            Store::Postgres(p) => p.transact(reads, f).await,
        }
    }
}
