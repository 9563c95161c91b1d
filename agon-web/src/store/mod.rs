//! [`Store`]: the games in a database, the only place a game lives: SQLite (one file,
//! the embedded default: [`SqliteStore`]) or PostgreSQL (shared by any number of servers:
//! [`PgStore`]), chosen by [`Database`].
//!
//! A game is its row (who plays what, the rule set, the start position, the bot's seed,
//! the digest of its token) and its moves, one row a move. Everything else (the position, the legal
//! moves, the outcome) is rebuilt by replaying the moves through agon-core, so the
//! database cannot hold a state that the rules would not reach.
//!
//! Both stores have the same schema meaning (the same tables and columns, the same
//! checks) and the same way to change a game ([`Store::change`]): the game's row is read
//! under a write lock (SQLite's `IMMEDIATE` transaction, PostgreSQL's `SELECT ... FOR
//! UPDATE`), the change is computed from it as a [`Change`] (the rows to write), and the
//! rows are written in the same transaction. Two guards make a lost or doubled move
//! impossible even if that lock were ever bypassed: the version check of [`Change::save`]
//! (optimistic concurrency: `WHERE version = <the version read>`) and the moves' primary
//! key `(game_id, ply)`; either refuses a second writer with [`StoreError::Conflict`].
//!
//! Each write is described once ([`Change`], its SQL in `sql.rs` for both dialects); the
//! store knows nothing of HTTP: it fails with a [`StoreError`], which the service maps.
//!
//! The accounts of online play (issue 33) live in the same database: their tables and
//! operations are `accounts.rs` ([`Store::create_account`] and the rest), each written
//! once as one transaction's reads and writes that both stores run.

use std::path::PathBuf;

use agon_core::Move;

use crate::game::WebGame;

#[macro_use]
mod row;
#[macro_use]
mod accounts;
mod players;
#[macro_use]
mod lobby;
#[macro_use]
mod bots;
#[macro_use]
mod reviews;
mod postgres;
mod sql;
mod sqlite;
mod write;

use row::GameRow;
use write::Op;

pub use accounts::{
    Account, Ceremony, NewAccount, Passkey, PasskeyRemoval, RatedGame, Session, StoredRating,
    TOUCH_EVERY_MS,
};
pub use bots::{ApiToken, BotChange, MAX_API_TOKENS, TOUCH_TOKEN_MS};
pub(crate) use lobby::{shown_to, Pairing, LOG_BATCH};
pub use lobby::{LobbyEvent, LobbyLog, NewEvent, Seek};
pub use players::{
    GameCounts, GameFilter, Leader, PlayerGame, RatingPoint, ResultFilter, GAMES_PER_PAGE,
};
pub use postgres::{Notice, PgStore, CHANNEL, LISTENER_NAME, PG_VERSION};
pub use reviews::{Requested, StoredReview, MAX_ATTEMPTS, MAX_REQUEUES, STALE_MS};
pub use sqlite::{SqliteStore, VERSION};

/// Which database holds the games: a SQLite file, or a PostgreSQL server by its URL.
///
/// ```
/// use agon_web::store::Database;
/// let db: Database = "postgres://agon@10.0.0.5/agon".parse()?;
/// assert!(matches!(db, Database::Postgres(_)));
/// let db: Database = "games.sqlite3".parse()?;
/// assert_eq!(db, Database::Sqlite("games.sqlite3".into()));
/// assert_eq!(db.to_string(), "games.sqlite3");
/// // Logs never show the password.
/// let db: Database = "postgres://agon:secret@10.0.0.5/agon".parse()?;
/// assert_eq!(db.to_string(), "postgres://agon:***@10.0.0.5/agon");
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file, created if missing.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`).
    Postgres(String),
}

impl std::str::FromStr for Database {
    type Err = String;

    /// A `postgres://` or `postgresql://` URL names PostgreSQL; anything else is a file.
    fn from_str(text: &str) -> Result<Database, String> {
        if text.is_empty() {
            return Err("the database must be a file path or a postgres:// URL".into());
        }
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            Ok(Database::Postgres(text.to_string()))
        } else {
            Ok(Database::Sqlite(text.into()))
        }
    }
}

impl From<PathBuf> for Database {
    fn from(path: PathBuf) -> Database {
        Database::Sqlite(path)
    }
}

impl std::fmt::Display for Database {
    /// The file's path, or the URL without its password (for logs).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(path) => write!(f, "{}", path.display()),
            Database::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

/// A PostgreSQL URL with its password replaced by `***`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((user, host)) if user.contains(':') => {
            let name = user.split(':').next().unwrap_or_default();
            format!("{scheme}://{name}:***@{host}")
        }
        _ => url.to_string(),
    }
}

/// The rows one change of a game writes, in order: computed from the game as read (under
/// the store's lock), then written by [`Store::change`] in the same transaction; and the
/// time of the change ([`Change::now_ms`]), which the store gives it.
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_web::{game::WebGame, store::Change, Level};
/// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
/// let mut change = Change::at(1_700_000_000_000);
/// game.play("f1-e1".parse()?)?;
/// change.append(&game, 0, change.now_ms());
/// change.save(&mut game, change.now_ms());
/// assert_eq!(game.version, 1, "the version is the change's");
/// assert_eq!(change.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Change {
    pub(crate) ops: Vec<Op>,
    now_ms: i64,
}

impl Change {
    /// A change that writes nothing yet, made at `now_ms` (unix milliseconds).
    pub fn at(now_ms: i64) -> Change {
        Change {
            ops: Vec::new(),
            now_ms,
        }
    }

    /// The time of the change, unix milliseconds: what a clock is charged to and flagged
    /// at. The store takes it under its lock, from the one clock every server sharing
    /// the database agrees on: PostgreSQL's own (`clock_timestamp()`), so that a server
    /// whose clock is off charges and flags no differently from the others; SQLite has
    /// one server, whose clock it is.
    pub fn now_ms(&self) -> i64 {
        self.now_ms
    }

    /// Inserts a new game with its moves, stored at `now_ms`.
    pub fn insert(&mut self, game: &WebGame, now_ms: i64) {
        self.ops.push(Op::Insert {
            row: Box::new(GameRow::of(game)),
            moves: game.game.moves().iter().map(Move::to_string).collect(),
            now_ms,
            deadline_ms: game.deadline_ms(),
        });
    }

    /// Writes the game's moves from ply `from` on (the rows before are already stored),
    /// each with the time it was stored (`now_ms`).
    pub fn append(&mut self, game: &WebGame, from: usize, now_ms: i64) {
        let moves = game.game.moves()[from.min(game.plies())..]
            .iter()
            .map(Move::to_string)
            .collect();
        self.ops.push(Op::Append {
            id: game.id.clone(),
            from,
            moves,
            now_ms,
        });
    }

    /// Records `account_id` as the player of seat `side` of game `game_id`, a game this
    /// change inserts (after its [`Change::insert`]): a game created or paired by a
    /// signed-in player. In a rated game, `rating` is the player's rating at the start
    /// (kept for the game's page).
    pub fn seat(
        &mut self,
        game_id: &str,
        side: agon_core::Side,
        account_id: &str,
        rating: Option<&crate::game::rating::Rating>,
    ) {
        self.ops.push(Op::Seat {
            game_id: game_id.to_string(),
            side: side.name(),
            account_id: account_id.to_string(),
            rating: rating.map(|r| [r.rating, r.deviation]),
            now_ms: self.now_ms,
        });
    }

    /// Deletes the moves of game `id` from ply `keep` on.
    pub fn truncate(&mut self, id: &str, keep: usize) {
        self.ops.push(Op::Truncate {
            id: id.to_string(),
            keep,
        });
    }

    /// Writes every changeable field of the game's row (seats, names, clock, end, offers,
    /// rematch, and the running side's deadline for the sweep of running clocks) and gives
    /// it its next version, touched at `now_ms`.
    ///
    /// The version is assigned here, written in the same transaction as the change: the
    /// row is updated only if it still holds the version the change was computed from
    /// (`WHERE version = ?`), else the whole change fails with `409 conflict` and its
    /// transaction rolls back. The store's lock already serializes changes to one game
    /// (a second move for the same ply is computed from the first one's result and
    /// refused by the rules, `not-your-turn`); this check, like the moves' primary key
    /// `(game_id, ply)`, is the guard that still gives a clean 409, never two versions of
    /// the same number, should two writers ever read the same version.
    pub fn save(&mut self, game: &mut WebGame, now_ms: i64) {
        game.version += 1;
        self.ops.push(Op::Save {
            row: Box::new(GameRow::of(game)),
            now_ms,
            deadline_ms: game.deadline_ms(),
        });
    }

    /// The number of writes.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// Whether it writes nothing.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// Why the store failed: the service maps each to the API's answer.
///
/// ```
/// use agon_web::store::StoreError;
/// assert_eq!(StoreError::Conflict.to_string(), "the game changed meanwhile: load it again");
/// let e = StoreError::Unavailable("connection refused".into());
/// assert_eq!(e.to_string(), "the database is unavailable (connection refused): try again in a moment");
/// let e = StoreError::Corrupt { id: "0011223344556677".into(), what: "rules".into() };
/// assert_eq!(e.to_string(), "game 0011223344556677 in the database: rules");
/// assert_eq!(StoreError::UsernameTaken.to_string(), "this name, or one that looks like it, is taken");
/// assert_eq!(StoreError::NoAccount.to_string(), "no such account");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The database did not let the request in in time (SQLite's write lock held past its
    /// busy timeout, no connection of PostgreSQL's pool free within its wait, a lock or
    /// a statement past PostgreSQL's timeout): a moment of load, which a retry may pass.
    /// Nothing was written.
    Busy,
    /// The database cannot be reached, or dropped the request: refused or cut
    /// connections, a server shutting down or starting up, no answer within the store's
    /// deadline. A retry passes once it is back. Nothing was written, except when the
    /// connection was lost while the commit was on its way: then the change may stand,
    /// and reading the game tells.
    Unavailable(String),
    /// The game changed between the read a change was computed from and its write (a
    /// version or a `(game_id, ply)` taken by another writer). Nothing was written.
    Conflict,
    /// A stored game that does not read back (a field or a move the rules refuse).
    Corrupt {
        /// The game's id.
        id: String,
        /// What does not read.
        what: String,
    },
    /// A database whose schema version this server cannot read.
    Schema(String),
    /// A new account's name looks like an account's (the same skeleton,
    /// [`Username::skeleton`](crate::game::account::Username::skeleton)), a deleted
    /// one's too. Nothing was written.
    UsernameTaken,
    /// A passkey whose credential id is stored already. Nothing was written.
    PasskeyTaken,
    /// No such account, or a deleted one. Nothing was written.
    NoAccount,
    /// No such seek: never posted, or accepted, cancelled or expired already. Nothing
    /// was written.
    NoSeek,
    /// The poster or the address has as many open seeks as it may. Nothing was written.
    TooManySeeks,
    /// Any other failure of the database, in its own words.
    Database(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Busy => f.write_str("the database is busy: try again in a second"),
            StoreError::Conflict => f.write_str("the game changed meanwhile: load it again"),
            StoreError::Unavailable(why) => {
                write!(
                    f,
                    "the database is unavailable ({why}): try again in a moment"
                )
            }
            StoreError::Corrupt { id, what } => write!(f, "game {id} in the database: {what}"),
            StoreError::UsernameTaken => {
                f.write_str("this name, or one that looks like it, is taken")
            }
            StoreError::PasskeyTaken => f.write_str("this passkey is registered already"),
            StoreError::NoAccount => f.write_str("no such account"),
            StoreError::NoSeek => f.write_str("no such seek (accepted, cancelled or expired)"),
            StoreError::TooManySeeks => {
                f.write_str("too many open seeks and challenges: cancel one first")
            }
            StoreError::Schema(message) | StoreError::Database(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for StoreError {}

/// A task or a blocking thread of the store that did not finish (it panicked).
fn worker(e: tokio::task::JoinError) -> StoreError {
    StoreError::Database(format!("worker: {e}"))
}

/// Checks a database's schema version before any migration: `0` (a new database) up to
/// `newest`, the version this server writes. A newer one (a newer server's) or a negative
/// one (a file of another program, or corrupt) is refused with a precise error rather
/// than read as if it were ours.
fn known_version(version: i64, newest: i64) -> Result<(), StoreError> {
    if version > newest {
        return Err(StoreError::Schema(format!(
            "database schema version {version} is newer than this server's ({newest})"
        )));
    }
    if version < 0 {
        return Err(StoreError::Schema(format!(
            "database schema version {version} is not one of agon-web's (0 to {newest}): \
             not an agon-web database, or a corrupt one"
        )));
    }
    Ok(())
}

/// The games, in SQLite or PostgreSQL.
///
/// Each operation is a short transaction; no lock is held while the computer thinks.
pub enum Store {
    /// One SQLite file, one connection behind a mutex.
    Sqlite(SqliteStore),
    /// A PostgreSQL database through a pool of connections.
    Postgres(Box<PgStore>),
}

/// What a change of a game answers: a value, and the game as changed (saved with its next
/// version) or `None` when nothing was written.
pub type Changed<T> = (T, Option<WebGame>);

/// What a change computes from the game as read under the store's lock (`None`: no such
/// game): the rows to write, into the [`Change`], and its answer ([`Store::change`]).
pub trait Compute<T, E>:
    FnOnce(&mut Change, Option<WebGame>) -> Result<Changed<T>, E> + Send + 'static
{
}

impl<T, E, F> Compute<T, E> for F where
    F: FnOnce(&mut Change, Option<WebGame>) -> Result<Changed<T>, E> + Send + 'static
{
}

/// The error a change's computation fails with: any that a [`StoreError`] converts into.
pub trait Failure: From<StoreError> + Send + 'static {}

impl<E: From<StoreError> + Send + 'static> Failure for E {}

/// What runs with the changed game once its change committed ([`Store::change`]).
pub trait After: FnOnce(&WebGame) + Send + 'static {}

impl<F: FnOnce(&WebGame) + Send + 'static> After for F {}

impl Store {
    /// Opens a SQLite file (created if missing) and brings its schema up to date.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = agon_web::Store::open(&dir.path().join("games.sqlite3")).unwrap();
    /// assert!(store.load("0123456789abcdef").await.unwrap().is_none());
    /// # });
    /// ```
    pub fn open(path: &std::path::Path) -> Result<Store, StoreError> {
        SqliteStore::open(path).map(Store::Sqlite)
    }

    /// Opens the database: a SQLite file, or a PostgreSQL server (its pool of at most
    /// `connections`), and applies the migrations it lacks.
    pub async fn connect(db: &Database, connections: usize) -> Result<Store, StoreError> {
        match db {
            Database::Sqlite(path) => {
                let path = path.clone();
                tokio::task::spawn_blocking(move || Store::open(&path))
                    .await
                    .map_err(worker)?
            }
            Database::Postgres(url) => Ok(Store::Postgres(Box::new(
                PgStore::connect(url, connections).await?,
            ))),
        }
    }

    /// The game with this id, replayed, or `None`.
    pub async fn load(&self, id: &str) -> Result<Option<WebGame>, StoreError> {
        match self {
            Store::Sqlite(s) => s.load_async(id).await,
            Store::Postgres(p) => p.load(id).await,
        }
    }

    /// Stores a new game (its moves stored at `now_ms`).
    pub async fn insert(&self, game: &WebGame, now_ms: i64) -> Result<(), StoreError> {
        let game = game.clone();
        let id = game.id.clone();
        self.change(
            &id,
            move |change, _| {
                change.insert(&game, now_ms);
                Ok::<_, StoreError>(((), None))
            },
            |_| (),
        )
        .await
        .map(|_| ())
    }

    /// Changes game `id` in one transaction: reads it under the write lock (`None`: no
    /// such game), lets `f` compute what to write (a [`Change`]) and answer (or fail with its
    /// own error, which a [`StoreError`] converts into), writes it, commits, and then calls
    /// `after` with the changed game: under the lock for SQLite (so in commit order), just after the commit for PostgreSQL, whose commit also
    /// notifies every server (`NOTIFY agon_games`). Nothing is written if `f` fails.
    /// Once called, the change runs to its end on both stores (on a blocking thread, in a
    /// task) even if the future is dropped: a committed change always gets its `after`,
    /// unless PostgreSQL's answer to the commit is lost with its connection
    /// ([`StoreError::Unavailable`]; the other servers still hear of it, if it committed).
    /// `f` computes with the time of the change ([`Change::now_ms`]).
    pub async fn change<T: Send + 'static, E: Failure>(
        &self,
        id: &str,
        f: impl Compute<T, E>,
        after: impl After,
    ) -> Result<Changed<T>, E> {
        match self {
            Store::Sqlite(s) => {
                let id = id.to_string();
                s.blocking(move |s| s.change(&id, f, after)).await
            }
            Store::Postgres(p) => p.change(id.to_string(), f, after).await,
        }
    }

    /// Deletes every unfinished game (and its moves) that nothing changed since
    /// `unfinished_ms` (unix milliseconds), and every finished one not changed since
    /// `finished_ms` (`None`: finished games are kept); answers how many. Safe to run from
    /// several servers at once.
    pub async fn prune(
        &self,
        unfinished_ms: i64,
        finished_ms: Option<i64>,
    ) -> Result<usize, StoreError> {
        match self {
            Store::Sqlite(s) => {
                s.blocking(move |s| s.prune(unfinished_ms, finished_ms))
                    .await
            }
            Store::Postgres(p) => p.prune(unfinished_ms, finished_ms).await,
        }
    }

    /// The ids of the games whose clock runs (started, the game not over) and whose
    /// running side's deadline has passed at `by_ms` (`i64::MAX`: all of them), by the
    /// `deadline_ms` each change writes ([`WebGame::deadline_ms`]): which side runs is
    /// known only by replaying the moves. A game last changed before that column (an
    /// older database) has the earliest deadline its clock could have, until its next
    /// change.
    pub async fn running_clocks(&self, by_ms: i64) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(move |s| s.running_clocks(by_ms)).await,
            Store::Postgres(p) => p.running_clocks(by_ms).await,
        }
    }

    /// The number of games and of moves stored.
    pub async fn counts(&self) -> Result<(i64, i64), StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(SqliteStore::counts).await,
            Store::Postgres(p) => p.counts().await,
        }
    }

    /// Runs `SELECT 1`: whether the database answers.
    pub async fn ping(&self) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(s) => s.blocking(SqliteStore::ping).await,
            Store::Postgres(p) => p.ping().await,
        }
    }

    /// The time by the database's clock as best known here, unix milliseconds: what a
    /// clock's timer waits for and a state shows. SQLite's is this server's clock
    /// ([`now_ms`](crate::now_ms)); PostgreSQL's is this server's clock corrected by the
    /// difference to the database's that the last change measured (a change itself
    /// reads the database's clock: [`Change::now_ms`]).
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3"))?;
    /// assert!((store.now_ms() - agon_web::now_ms()).abs() < 1_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn now_ms(&self) -> i64 {
        match self {
            Store::Sqlite(_) => crate::game::now_ms(),
            Store::Postgres(p) => p.now_ms(),
        }
    }

    /// Which database this is, for logs (a URL without its password).
    pub fn describe(&self) -> String {
        match self {
            Store::Sqlite(s) => s.path().display().to_string(),
            Store::Postgres(p) => without_password(p.url()),
        }
    }
}
