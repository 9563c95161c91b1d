//! [`PgStore`]: the games in PostgreSQL (tokio-postgres, a deadpool pool), shared by any
//! number of agon-web servers.
//!
//! The schema means what SQLite's does (the same tables, columns and checks, PostgreSQL's
//! types); its versions are rows of `agon_schema`, each migration applied at start in one
//! transaction under an advisory lock, so servers starting together apply it once.
//!
//! **Concurrent writers.** A change reads its game with `SELECT ... FOR UPDATE`: the row
//! lock makes a second change of the same game (from this server or another) wait for the
//! first one's commit and then compute from its result, so two moves sent at once for the
//! same ply give one move and one `409 not-your-turn`, exactly as on one server. Row
//! locking rather than optimistic retries because it gives the player the rules' own
//! answer, costs one round trip, and holds no lock while the computer thinks (its move
//! is computed outside any transaction and saved under the version check). The version
//! check (`WHERE version = <read>`) and the primary key `(game_id, ply)` stay as the
//! guards that would still give `409 conflict`, never a doubled ply.
//!
//! **Live events.** A change that commits sends `NOTIFY agon_games, 'ID:VERSION:ORIGIN'`
//! in its transaction (PostgreSQL delivers it at the commit, in commit order);
//! [`PgStore::listen`] hears every server's.
//!
//! **Time.** A change takes its time from the database's clock, read in its transaction
//! once the row is locked ([`Change::now_ms`]): servers sharing the database charge and
//! flag a game's clock by one clock, however far their own clocks drift.
//!
//! **Faults.** A database that cannot be reached (refused or cut connections, a restart,
//! no answer within [`DEADLINE`]) fails with [`StoreError::Unavailable`], which the API
//! answers `503 server-busy` with `Retry-After`, and the next request opens a connection
//! again. A connection that goes silent in the middle of a change holds its row lock only
//! until the database ends the session ([`IDLE_IN_TRANSACTION`]); a change waiting for
//! that lock outlasts it ([`LOCK_TIMEOUT`]) and then goes through. A connection that
//! missed its deadline is dropped from the pool, never handed to another request.

use std::str::FromStr;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Object, Pool, RecyclingMethod};
use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio_postgres::types::{IsNull, ToSql, Type};
use tokio_postgres::{AsyncMessage, NoTls, Row};

use super::row::{seat_player, GameRow, SeatRow, COLUMNS};
use super::sql::{self, Cell, Dialect, Rows, Statement, Value};
use super::{worker, After, Change, Changed, Compute, Failure, StoreError, WebGame};

/// The notification channel of changed games.
pub const CHANNEL: &str = "agon_games";

/// The `application_name` of the listening connection (the pool's are `agon-web`).
pub const LISTENER_NAME: &str = "agon-web-listen";

/// The migrations: `MIGRATIONS[i]` takes the schema from version `i` to `i + 1`. Version 1
/// is what SQLite's schema version 3 means, version 2 what its version 4 means, version 3
/// what its version 5 means, version 4 what its version 6 means,
/// version 5 what its version 7 means, version 6 what its version 8 means, version 7 what
/// its version 9 means, version 8 what its version 10 means, version 9 what its version 11
/// means, version 10 what its version 12 means.
const MIGRATIONS: [&str; 11] = [
    "
CREATE TABLE games (
    id                 TEXT PRIMARY KEY,
    token_sha256       BYTEA NOT NULL,
    human              TEXT NOT NULL CHECK (human IN ('white', 'black')),
    level              TEXT NOT NULL CHECK (level IN ('easy', 'medium', 'hard')),
    start              TEXT NOT NULL,
    seed               BIGINT NOT NULL,
    resigned           BOOLEAN NOT NULL DEFAULT FALSE,
    created_unix       BIGINT NOT NULL,
    rules              TEXT NOT NULL DEFAULT 'standard',
    opponent           TEXT NOT NULL DEFAULT 'computer' CHECK (opponent IN ('computer', 'friend')),
    guest_sha256       BYTEA,
    creator_name       TEXT,
    guest_name         TEXT,
    clock_initial_ms   BIGINT,
    clock_increment_ms BIGINT,
    white_ms           BIGINT,
    black_ms           BIGINT,
    clock_at_ms        BIGINT,
    version            BIGINT NOT NULL DEFAULT 0,
    end_reason         TEXT CHECK (end_reason IN ('resignation', 'time-forfeit', 'agreement')),
    loser              TEXT,
    draw_offer         TEXT,
    takeback_offer     TEXT,
    rematch_offer      TEXT,
    rematch_game       TEXT,
    touched_ms         BIGINT NOT NULL DEFAULT 0,
    over               BOOLEAN NOT NULL DEFAULT FALSE
);
-- Deleting a game deletes its moves in the same statement (the pruning), under the
-- game's row lock, so no change of the game can interleave.
CREATE TABLE moves (
    game_id  TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    ply      INTEGER NOT NULL,
    move     TEXT NOT NULL,
    at_ms    BIGINT,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX games_touched ON games (touched_ms);
CREATE INDEX games_running ON games (clock_at_ms) WHERE clock_at_ms IS NOT NULL AND NOT over;
",
    "
-- The running side's deadline (WebGame::deadline_ms, NULL when no clock runs), written
-- with every change, for the sweep of running clocks: which side runs is known only by
-- replaying the moves. A running clock stored before gets the earliest deadline it can
-- have (the smaller of the two times) until its next change.
ALTER TABLE games ADD COLUMN deadline_ms BIGINT;
UPDATE games SET deadline_ms = clock_at_ms + LEAST(white_ms, black_ms)
    WHERE clock_at_ms IS NOT NULL AND end_reason IS NULL AND NOT over;
DROP INDEX games_running;
CREATE INDEX games_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
",
    // Accounts, their passkeys, sessions, recovery codes and API tokens, ratings and
    // rating changes (issue 33; the same text as SQLite's 4 to 5).
    accounts_schema!(),
    // Aborted games (issue 34): ended with no result, `end_reason` and `loser` NULL
    // (the same as SQLite's 5 to 6).
    "ALTER TABLE games ADD COLUMN aborted BOOLEAN NOT NULL DEFAULT FALSE;",
    // The accounts that claimed a guest's seat (the same text as SQLite's 6 to 7).
    seat_accounts_schema!(),
    // Rated games, their speed and result, the seats' ratings at the start (the same
    // text as SQLite's 7 to 8).
    rated_games_schema!(),
    // The lobby's seeks and challenges, and its log of events (the same text as
    // SQLite's 8 to 9).
    lobby_schema!(),
    // The game reviews (issue 34; the same text as SQLite's 9 to 10).
    reviews_schema!(),
    // The API tokens' ids and the seeks of bots (the same text as SQLite's 10 to 11).
    bots_schema!(),
    // The reviews' failures and the queue's lock (the same text as SQLite's 11 to 12).
    review_failures_schema!(),
    // The seeks' rating ranges (the same text as SQLite's 12 to 13).
    seek_range_schema!(),
];

/// How long the database keeps a session that sits in a transaction without a word
/// (`idle_in_transaction_session_timeout`) before ending it and releasing its locks. A
/// change's transaction never waits on anything but the database (the computer thinks
/// outside any), so only a server or a link gone silent mid-change reaches it.
pub const IDLE_IN_TRANSACTION: Duration = Duration::from_secs(5);

/// How long a statement waits for a lock (`lock_timeout`) before failing with
/// [`StoreError::Busy`]: longer than [`IDLE_IN_TRANSACTION`], so that a change waiting
/// behind a silent holder gets the row once the database ended that holder's session.
pub const LOCK_TIMEOUT: Duration = Duration::from_secs(7);

/// How long one statement may run (`statement_timeout`, lock waits included) before the
/// database cancels it ([`StoreError::Busy`]).
pub const STATEMENT_TIMEOUT: Duration = Duration::from_secs(8);

/// How long this server waits for the database's answers to one operation (a change, a
/// read) on a connection: past it, the connection is taken to be lost (a link gone
/// silent), dropped from the pool, and the request fails with
/// [`StoreError::Unavailable`]. Longer than the database's own timeouts, which end a
/// merely slow operation with its own error first.
pub const DEADLINE: Duration = Duration::from_secs(10);

/// The pruning's deadline: deleting a large backlog of idle games may take a while (its
/// statement runs without `statement_timeout`).
const PRUNE_DEADLINE: Duration = Duration::from_secs(300);

/// The database's clock, unix milliseconds.
const DATABASE_NOW: &str = "SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint";

/// The schema version this server writes in PostgreSQL.
pub const PG_VERSION: i64 = MIGRATIONS.len() as i64;

/// An arbitrary key of the advisory lock the migrations hold (`pg_advisory_xact_lock`).
const MIGRATION_LOCK: i64 = 0x0061_676f_6e77_6562;

/// What the listener of [`PgStore::listen`] hears.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The listening connection is (again) up: what changed while it was down was not
    /// heard, so every game watched must be read again.
    Listening,
    /// Game `id` was committed at `version` by the server `origin`.
    Changed {
        /// The game's id.
        id: String,
        /// The version committed.
        version: i64,
        /// The [`PgStore::origin`] of the server that committed it.
        origin: String,
    },
    /// The lobby's log was written up to event `seq` by the server `origin`.
    Lobby {
        /// The number of the last event written.
        seq: i64,
        /// The [`PgStore::origin`] of the server that wrote it.
        origin: String,
    },
}

impl Notice {
    /// Reads a notification's payload, `ID:VERSION:ORIGIN` (a game's) or `lobby:SEQ:ORIGIN`.
    ///
    /// ```
    /// use agon_web::store::Notice;
    /// assert_eq!(
    ///     Notice::parse("0011223344556677:12:ab12"),
    ///     Some(Notice::Changed { id: "0011223344556677".into(), version: 12, origin: "ab12".into() })
    /// );
    /// assert_eq!(Notice::parse("junk"), None);
    /// assert_eq!(Notice::parse("lobby:7:ab12"), Some(Notice::Lobby { seq: 7, origin: "ab12".into() }));
    /// ```
    pub fn parse(payload: &str) -> Option<Notice> {
        let mut parts = payload.splitn(3, ':');
        let id = parts.next()?.to_string();
        let version = parts.next()?.parse().ok()?;
        let origin = parts.next()?.to_string();
        if id == "lobby" {
            return Some(Notice::Lobby {
                seq: version,
                origin,
            });
        }
        Some(Notice::Changed {
            id,
            version,
            origin,
        })
    }
}

/// The games in a PostgreSQL database, through a pool of connections.
pub struct PgStore {
    pool: Pool,
    config: tokio_postgres::Config,
    url: String,
    origin: String,
    /// The database's clock minus this server's, as the last change measured it.
    skew_ms: Arc<AtomicI64>,
}

/// Runs `operation` on `client` within [`DEADLINE`] (or `deadline`): past it the
/// connection is taken out of the pool (dropped: a link gone silent must not serve the
/// next request) and the operation fails with [`StoreError::Unavailable`].
macro_rules! within {
    ($client:ident, $operation:expr) => {
        within!($client, DEADLINE, $operation)
    };
    ($client:ident, $deadline:expr, $operation:expr) => {{
        let answered = tokio::time::timeout($deadline, $operation).await;
        match answered {
            Ok(result) => result,
            Err(_) => {
                drop(Object::take($client));
                Err(no_answer($deadline).into())
            }
        }
    }};
}

/// The error of an operation past its deadline.
fn no_answer(deadline: Duration) -> StoreError {
    StoreError::Unavailable(format!("no answer within {} s", deadline.as_secs()))
}

fn db_error(e: tokio_postgres::Error) -> StoreError {
    use tokio_postgres::error::SqlState;
    // No answer, or no connection: the socket's error (refused, reset), a connection the
    // server closed (a restart ends every session) or that was ended for sitting idle.
    let io = std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>());
    if e.is_closed() || io {
        return StoreError::Unavailable(e.to_string());
    }
    match e.code() {
        // The guards: a ply or a version another writer took first.
        Some(c)
            if *c == SqlState::UNIQUE_VIOLATION || *c == SqlState::T_R_SERIALIZATION_FAILURE =>
        {
            StoreError::Conflict
        }
        Some(c) if *c == SqlState::T_R_DEADLOCK_DETECTED => StoreError::Conflict,
        // A lock or a statement past its timeout, or every connection slot taken: load.
        Some(c)
            if *c == SqlState::LOCK_NOT_AVAILABLE
                || *c == SqlState::QUERY_CANCELED
                || *c == SqlState::TOO_MANY_CONNECTIONS =>
        {
            StoreError::Busy
        }
        // The server shutting down, starting up or gone (`57P0x`), the connection
        // failing (class `08`), the session ended for sitting in a transaction.
        Some(c)
            if c.code().starts_with("57P")
                || c.code().starts_with("08")
                || *c == SqlState::IDLE_IN_TRANSACTION_SESSION_TIMEOUT =>
        {
            StoreError::Unavailable(
                e.as_db_error()
                    .map_or(e.to_string(), |db| db.message().into()),
            )
        }
        // The server's own words (tokio-postgres's Display says only "db error").
        _ => match e.as_db_error() {
            Some(db) => {
                StoreError::Database(format!("database: {} ({})", db.message(), db.code().code()))
            }
            None => StoreError::Database(format!("database: {e}")),
        },
    }
}

fn pool_error(e: deadpool_postgres::PoolError) -> StoreError {
    match e {
        // A new connection that failed to open (whatever the driver's words: refused,
        // timed out, the server starting up): the database out of reach.
        deadpool_postgres::PoolError::Backend(e) => match db_error(e) {
            StoreError::Database(why) => StoreError::Unavailable(why),
            e => e,
        },
        // No connection free for the pool's whole wait: a moment of load.
        deadpool_postgres::PoolError::Timeout(deadpool_postgres::TimeoutType::Wait) => {
            StoreError::Busy
        }
        // A new connection that did not open in time: the database out of reach.
        deadpool_postgres::PoolError::Timeout(_) => {
            StoreError::Unavailable("no connection within its timeout".into())
        }
        e => StoreError::Database(format!("database pool: {e}")),
    }
}

fn row_of(row: &Row) -> Result<GameRow, tokio_postgres::Error> {
    Ok(game_row_from!(row.try_get))
}

/// Reads and replays game `id` in one statement (one snapshot: the row and its moves
/// agree).
async fn load(client: &impl GenericClient, id: &str) -> Result<Option<WebGame>, StoreError> {
    let statement = client
        .prepare_cached(&format!(
            "SELECT {COLUMNS}, ARRAY(SELECT move FROM moves WHERE game_id = games.id ORDER BY ply)
             FROM games WHERE id = $1"
        ))
        .await
        .map_err(db_error)?;
    let Some(row) = client
        .query_opt(&statement, &[&id])
        .await
        .map_err(db_error)?
    else {
        return Ok(None);
    };
    // The moves follow the row's columns.
    let moves: Vec<String> = row.try_get(row.len() - 1).map_err(db_error)?;
    let mut game = row_of(&row).map_err(db_error)?.into_game(&moves)?;
    let seats = client
        .prepare_cached(&Dialect::Postgres.text(sql::SEAT_PLAYERS))
        .await
        .map_err(db_error)?;
    for r in client.query(&seats, &[&id]).await.map_err(db_error)? {
        let seat: SeatRow = (|| {
            Ok::<_, tokio_postgres::Error>((
                r.try_get(0)?,
                r.try_get(1)?,
                r.try_get(2)?,
                r.try_get(3)?,
                r.try_get(4)?,
                r.try_get(5)?,
                r.try_get(6)?,
            ))
        })()
        .map_err(db_error)?;
        seat_player(&mut game.players, id, seat)?;
    }
    Ok(Some(game))
}

/// Writes a change's rows, in order (their SQL: [`super::write::Op::statements`]).
async fn write(client: &impl GenericClient, change: Change) -> Result<(), StoreError> {
    for op in change.ops {
        for statement in op.statements() {
            run(client, &statement).await?;
        }
    }
    Ok(())
}

/// The values bound to a statement's placeholders.
fn params(values: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

/// The values of a row, by their columns' types.
fn cells(row: &Row) -> Result<Vec<Cell>, StoreError> {
    let mut cells = Vec::new();
    for (i, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let cell = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(i).map(|v| v.map(Cell::Int))
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(i)
                .map(|v| v.map(|v| Cell::Int(v.into())))
        } else if *ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(i)
                .map(|v| v.map(|v| Cell::Int(v.into())))
        } else if *ty == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(i).map(|v| v.map(Cell::Real))
        } else if *ty == Type::BYTEA {
            row.try_get::<_, Option<Vec<u8>>>(i)
                .map(|v| v.map(Cell::Bytes))
        } else {
            row.try_get::<_, Option<String>>(i)
                .map(|v| v.map(Cell::Text))
        };
        cells.push(cell.map_err(db_error)?.unwrap_or(Cell::Null));
    }
    Ok(cells)
}

/// A statement written with `?N` placeholders, prepared (and cached) as PostgreSQL's.
async fn prepare(
    client: &impl GenericClient,
    sql: &str,
) -> Result<tokio_postgres::Statement, StoreError> {
    client
        .prepare_cached(&Dialect::Postgres.text(sql))
        .await
        .map_err(db_error)
}

/// Runs one statement of a write; answers how many rows it changed.
async fn run(client: &impl GenericClient, statement: &Statement) -> Result<u64, StoreError> {
    let prepared = prepare(client, &statement.sql).await?;
    let changed = client
        .execute(&prepared, &params(&statement.params))
        .await
        .map_err(db_error)?;
    statement.check(changed)?;
    Ok(changed)
}

type SqlResult = Result<IsNull, Box<dyn std::error::Error + Sync + Send>>;

impl ToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut bytes::BytesMut) -> SqlResult {
        match self {
            Value::Int(v) => v.to_sql(ty, out),
            Value::Ply(v) => v.to_sql(ty, out),
            Value::Text(v) => v.to_sql(ty, out),
            Value::OptText(v) => v.to_sql(ty, out),
            Value::Bytes(v) => v.to_sql(ty, out),
            Value::Bool(v) => v.to_sql(ty, out),
            Value::Real(v) => v.to_sql(ty, out),
        }
    }

    /// Any type one of the values accepts: [`ToSql::to_sql_checked`] checks the value's own.
    fn accepts(_: &Type) -> bool {
        true
    }

    fn to_sql_checked(&self, ty: &Type, out: &mut bytes::BytesMut) -> SqlResult {
        match self {
            Value::Int(v) => v.to_sql_checked(ty, out),
            Value::Ply(v) => v.to_sql_checked(ty, out),
            Value::Text(v) => v.to_sql_checked(ty, out),
            Value::OptText(v) => v.to_sql_checked(ty, out),
            Value::Bytes(v) => v.to_sql_checked(ty, out),
            Value::Bool(v) => v.to_sql_checked(ty, out),
            Value::Real(v) => v.to_sql_checked(ty, out),
        }
    }
}

/// The change of [`PgStore::change`], in its task, on a connection of the pool.
async fn change<T, E: From<StoreError>>(
    client: &mut Object,
    origin: &str,
    skew_ms: &AtomicI64,
    id: &str,
    f: impl FnOnce(&mut Change, Option<WebGame>) -> Result<Changed<T>, E>,
    after: impl FnOnce(&WebGame),
) -> Result<Changed<T>, E> {
    let lock = client
        .prepare_cached("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
        .await
        .map_err(db_error)?;
    let now = client
        .prepare_cached(DATABASE_NOW)
        .await
        .map_err(db_error)?;
    let notify = client
        .prepare_cached("SELECT pg_notify($1, $2)")
        .await
        .map_err(db_error)?;
    let tx = client.transaction().await.map_err(db_error)?;
    // The lock first, then the database's time and the read, sent together (the
    // connection pipelines them and the server runs them in order): the time and the
    // read's snapshot are taken once the lock is held, so the read sees the moves of the
    // change that held it before, and the time is not before that change's.
    let key: [&(dyn ToSql + Sync); 1] = [&id];
    let (locked, now, game) = tokio::join!(
        tx.query_opt(&lock, &key),
        tx.query_one(&now, &[]),
        load(&tx, id)
    );
    locked.map_err(db_error)?;
    let now: i64 = now.map_err(db_error)?.try_get(0).map_err(db_error)?;
    skew_ms.store(now - crate::game::now_ms(), Ordering::Relaxed);
    let mut change = Change::at(now);
    let value = f(&mut change, game?)?;
    write(&tx, change).await?;
    if let Some(game) = &value.1 {
        let payload = format!("{}:{}:{}", game.id, game.version, origin);
        tx.execute(&notify, &[&CHANNEL, &payload])
            .await
            .map_err(db_error)?;
    }
    tx.commit().await.map_err(db_error)?;
    if let Some(game) = &value.1 {
        after(game);
    }
    Ok(value)
}

impl PgStore {
    /// Connects to the database of `url` with a pool of at most `connections`, and applies
    /// the migrations it lacks.
    pub async fn connect(url: &str, connections: usize) -> Result<PgStore, StoreError> {
        let bad = |e: tokio_postgres::Error| StoreError::Database(format!("database URL: {e}"));
        let mut config = tokio_postgres::Config::from_str(url).map_err(bad)?;
        if config.get_application_name().is_none() {
            config.application_name("agon-web");
        }
        // A dead peer (a server or a network gone) is noticed within a minute or so.
        config.keepalives(true);
        config.keepalives_idle(Duration::from_secs(30));
        config.keepalives_interval(Duration::from_secs(10));
        config.keepalives_retries(3);
        config.connect_timeout(Duration::from_secs(5));
        // The session's timeouts (see their constants), after any options of the URL.
        let timeouts = format!(
            "-c idle_in_transaction_session_timeout={} -c lock_timeout={} -c statement_timeout={}",
            IDLE_IN_TRANSACTION.as_millis(),
            LOCK_TIMEOUT.as_millis(),
            STATEMENT_TIMEOUT.as_millis()
        );
        let options = match config.get_options() {
            Some(theirs) if !theirs.is_empty() => format!("{theirs} {timeouts}"),
            _ => timeouts,
        };
        config.options(options);
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(connections.max(1))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            // A request waits this long for a connection, then fails with 503 server-busy.
            .wait_timeout(Some(Duration::from_secs(10)))
            .create_timeout(Some(Duration::from_secs(5)))
            .build()
            .map_err(|e| StoreError::Database(format!("database pool: {e}")))?;
        let store = PgStore {
            pool,
            config,
            url: url.to_string(),
            origin: crate::ids::random_hex::<6>()
                .map_err(|e| StoreError::Database(e.to_string()))?,
            skew_ms: Arc::default(),
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Brings the schema up to [`PG_VERSION`], one migration a transaction.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await.map_err(pool_error)?;
        loop {
            let tx = client.transaction().await.map_err(db_error)?;
            // A migration may wait for another server's, and rewrite a large table.
            tx.batch_execute("SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0")
                .await
                .map_err(db_error)?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
                .await
                .map_err(db_error)?;
            // Under the lock: servers starting together create it once.
            tx.batch_execute("CREATE TABLE IF NOT EXISTS agon_schema (version BIGINT PRIMARY KEY)")
                .await
                .map_err(db_error)?;
            let version: i64 = tx
                .query_one("SELECT coalesce(max(version), 0) FROM agon_schema", &[])
                .await
                .map_err(db_error)?
                .get(0);
            super::known_version(version, PG_VERSION)?;
            if version == PG_VERSION {
                let now: i64 = tx
                    .query_one(DATABASE_NOW, &[])
                    .await
                    .map_err(db_error)?
                    .get(0);
                self.skew_ms
                    .store(now - crate::game::now_ms(), Ordering::Relaxed);
                return tx.commit().await.map_err(db_error);
            }
            tx.batch_execute(MIGRATIONS[version as usize])
                .await
                .map_err(db_error)?;
            tx.execute(
                "INSERT INTO agon_schema (version) VALUES ($1)",
                &[&(version + 1)],
            )
            .await
            .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
        }
    }

    /// The SQL that makes an empty database the schema `version` (1 to [`PG_VERSION`])
    /// as the servers of that version wrote it, with its rows of `agon_schema`: an older
    /// database to test the migrations on. `None` for another version.
    ///
    /// ```
    /// use agon_web::store::PgStore;
    /// let sql = PgStore::schema_sql(2).unwrap();
    /// assert!(sql.contains("CREATE TABLE games") && sql.contains("ADD COLUMN deadline_ms"));
    /// assert!(!sql.contains("CREATE TABLE accounts"));
    /// assert!(sql.trim_end().ends_with("INSERT INTO agon_schema (version) VALUES (2);"));
    /// assert_eq!(PgStore::schema_sql(0), None);
    /// ```
    pub fn schema_sql(version: i64) -> Option<String> {
        let applied = usize::try_from(version).ok()?;
        (1..=PG_VERSION).contains(&version).then(|| {
            let mut sql = String::from("CREATE TABLE agon_schema (version BIGINT PRIMARY KEY);\n");
            for (i, migration) in MIGRATIONS[..applied].iter().enumerate() {
                sql.push_str(migration);
                sql.push_str(&format!(
                    "\nINSERT INTO agon_schema (version) VALUES ({});\n",
                    i + 1
                ));
            }
            sql
        })
    }

    /// The URL it was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// This server's name in the notifications it sends (random, 12 hex digits): its
    /// listener skips its own, which it published already.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The pool, for tools and tests that run their own SQL.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// The time by the database's clock as best known here, unix milliseconds (see
    /// [`Store::now_ms`](super::Store::now_ms)).
    pub fn now_ms(&self) -> i64 {
        crate::game::now_ms() + self.skew_ms.load(Ordering::Relaxed)
    }

    /// The game with this id, replayed, or `None`.
    pub async fn load(&self, id: &str) -> Result<Option<WebGame>, StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        within!(client, load(&client, id))
    }

    /// Changes game `id` (see [`Store::change`](super::Store::change)): in one
    /// transaction, locks its row (`FOR UPDATE`), reads it, writes what `f` asks, notifies
    /// the other servers, commits; then `after` runs with the changed game.
    ///
    /// All of it runs in a task of its own, which the caller's future only waits for: a
    /// request dropped meanwhile (its client gone) cannot stop it between the commit and
    /// `after`. Else a change could commit (the other servers hear of it) with `after`
    /// (the publication to this server's own streams, whose listener skips its own
    /// notifications) never run. SQLite's change is as safe: it runs on a blocking thread.
    /// Its time is the database's, read once the row is locked ([`Change::now_ms`]). Past
    /// `DEADLINE` (10 s) it fails with [`StoreError::Unavailable`], its connection dropped.
    pub async fn change<T: Send + 'static, E: Failure>(
        &self,
        id: String,
        f: impl Compute<T, E>,
        after: impl After,
    ) -> Result<Changed<T>, E> {
        let (pool, origin, skew) = (self.pool.clone(), self.origin.clone(), self.skew_ms.clone());
        tokio::spawn(async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            within!(client, change(&mut client, &origin, &skew, &id, f, after))
        })
        .await
        .map_err(|e| E::from(worker(e)))?
    }

    /// Runs `reads`, then the writes `f` computes from their rows, in one transaction, in
    /// a task of its own like a change (see [`Store::transact`](super::Store::transact)).
    pub(crate) async fn transact<T: Send + 'static>(
        &self,
        reads: Vec<Statement>,
        f: impl FnOnce(Vec<Rows>) -> Result<(Vec<Statement>, T), StoreError> + Send + 'static,
    ) -> Result<(T, Vec<u64>), StoreError> {
        let pool = self.pool.clone();
        tokio::spawn(async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            within!(client, async {
                let tx = client.transaction().await.map_err(db_error)?;
                let mut answers = Vec::new();
                // One read after the other: each sees what was committed before it
                // started, so a read after a `FOR UPDATE` sees the lock holder's commit.
                for read in &reads {
                    let statement = prepare(&tx, &read.sql).await?;
                    let rows = tx
                        .query(&statement, &params(&read.params))
                        .await
                        .map_err(db_error)?;
                    answers.push(rows.iter().map(cells).collect::<Result<Rows, _>>()?);
                }
                let (writes, value) = f(answers)?;
                let mut changed = Vec::new();
                for write in &writes {
                    changed.push(run(&tx, write).await?);
                }
                tx.commit().await.map_err(db_error)?;
                Ok((value, changed))
            })
        })
        .await
        .map_err(worker)?
    }

    /// Deletes the idle games (see [`Store::prune`](super::Store::prune)); their moves go
    /// with them (`ON DELETE CASCADE`), each game under its row lock.
    pub async fn prune(
        &self,
        unfinished_ms: i64,
        finished_ms: Option<i64>,
    ) -> Result<usize, StoreError> {
        let mut client = self.pool.get().await.map_err(pool_error)?;
        let idle = format!("DELETE FROM games WHERE {}", sql::IDLE);
        let values = sql::idle_params(unfinished_ms, finished_ms);
        let params = params(&values);
        within!(client, PRUNE_DEADLINE, async {
            let tx = client.transaction().await.map_err(db_error)?;
            // A large backlog may take longer than a request's statement may.
            tx.batch_execute("SET LOCAL statement_timeout = 0")
                .await
                .map_err(db_error)?;
            let n = tx
                .execute(&*Dialect::Postgres.text(&idle), &params)
                .await
                .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
            Ok(n as usize)
        })
    }

    /// The games whose clock runs and whose running side's deadline has passed by
    /// `by_ms` (see [`Store::running_clocks`](super::Store::running_clocks)).
    pub async fn running_clocks(&self, by_ms: i64) -> Result<Vec<String>, StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        let rows = within!(client, async {
            let running = Dialect::Postgres.text(sql::RUNNING_CLOCKS);
            client.query(&*running, &[&by_ms]).await.map_err(db_error)
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// The number of games and of moves stored.
    pub async fn counts(&self) -> Result<(i64, i64), StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        let row = within!(client, async {
            client.query_one(sql::COUNTS, &[]).await.map_err(db_error)
        })?;
        Ok((row.get(0), row.get(1)))
    }

    /// `SELECT 1` on a connection of the pool.
    pub async fn ping(&self) -> Result<(), StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        within!(client, async {
            client.execute("SELECT 1", &[]).await.map_err(db_error)
        })?;
        Ok(())
    }

    /// Listens to every server's changes (`LISTEN agon_games`) on a connection of its own,
    /// outside the pool, until the receiver is dropped: [`Notice::Listening`] once the
    /// connection listens (and again after each reconnection: notifications sent while
    /// it was down are lost, so the caller reads again what it watches), then a
    /// [`Notice::Changed`] for each commit. A lost connection is opened again after
    /// 0.1 s, the wait doubling up to 5 s while connecting or listening fails, and back
    /// to 0.1 s once it listens.
    pub fn listen(&self) -> mpsc::UnboundedReceiver<Notice> {
        let (sender, receiver) = mpsc::unbounded_channel();
        let mut config = self.config.clone();
        // Named, so that an operator (or a test) can tell it from the pool's.
        config.application_name(LISTENER_NAME);
        tokio::spawn(async move {
            let mut backoff = FIRST_BACKOFF;
            loop {
                let ended = listen_once(&config, &sender, &mut backoff).await;
                if sender.is_closed() {
                    return;
                }
                let why = match ended {
                    Ok(()) => "the connection ended".to_string(),
                    // The server's own words (tokio-postgres's Display says "db error").
                    Err(e) => e
                        .as_db_error()
                        .map_or(e.to_string(), |db| db.message().into()),
                };
                eprintln!(
                    "agon-web: listening to the database: {why}; again in {} ms",
                    backoff.as_millis()
                );
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        });
        receiver
    }
}

/// The first wait before listening again, and the wait again once a connection listened.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

/// One listening connection, until it ends; `backoff` goes back to [`FIRST_BACKOFF`] once
/// it listens (a connection that listened and was then cut is not a failing database).
async fn listen_once(
    config: &tokio_postgres::Config,
    sender: &mpsc::UnboundedSender<Notice>,
    backoff: &mut Duration,
) -> Result<(), tokio_postgres::Error> {
    let (client, mut connection) = config.connect(NoTls).await?;
    let (messages, mut received) = mpsc::unbounded_channel();
    // The connection does the I/O: polled here, it hands over the notifications.
    let driver = tokio::spawn(async move {
        let mut stream = futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
        while let Some(message) = stream.next().await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if messages.send(Ok(n.payload().to_string())).is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => {
                    let _ = messages.send(Err(e));
                    return;
                }
            }
        }
    });
    let listening = client.batch_execute(&format!("LISTEN {CHANNEL}")).await;
    if let Err(e) = listening {
        driver.abort();
        return Err(e);
    }
    *backoff = FIRST_BACKOFF;
    let _ = sender.send(Notice::Listening);
    let ended = loop {
        tokio::select! {
            message = received.recv() => match message {
                Some(Ok(payload)) => {
                    if let Some(notice) = Notice::parse(&payload) {
                        if sender.send(notice).is_err() {
                            break Ok(());
                        }
                    }
                }
                Some(Err(e)) => break Err(e),
                None => break Ok(()),
            },
            () = sender.closed() => break Ok(()),
        }
    };
    driver.abort();
    drop(client);
    ended
}
