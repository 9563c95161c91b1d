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

use std::str::FromStr;
use std::time::Duration;

use deadpool_postgres::{GenericClient, Manager, ManagerConfig, Pool, RecyclingMethod};
use futures_util::StreamExt;
use tokio::sync::mpsc;
use tokio_postgres::types::{IsNull, ToSql, Type};
use tokio_postgres::{AsyncMessage, NoTls, Row};

use super::row::{GameRow, COLUMNS};
use super::sql::{self, Dialect, Statement, Value};
use super::{worker, After, Change, Changed, Compute, Failure, StoreError, WebGame};

/// The notification channel of changed games.
pub const CHANNEL: &str = "agon_games";

/// The `application_name` of the listening connection (the pool's are `agon-web`).
pub const LISTENER_NAME: &str = "agon-web-listen";

/// The migrations: `MIGRATIONS[i]` takes the schema from version `i` to `i + 1`. Version 1
/// is what SQLite's schema version 3 means, version 2 what its version 4 means.
const MIGRATIONS: [&str; 2] = [
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
];

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
}

impl Notice {
    /// Reads a notification's payload, `ID:VERSION:ORIGIN`.
    ///
    /// ```
    /// use agon_web::store::Notice;
    /// assert_eq!(
    ///     Notice::parse("0011223344556677:12:ab12"),
    ///     Some(Notice::Changed { id: "0011223344556677".into(), version: 12, origin: "ab12".into() })
    /// );
    /// assert_eq!(Notice::parse("junk"), None);
    /// ```
    pub fn parse(payload: &str) -> Option<Notice> {
        let mut parts = payload.splitn(3, ':');
        let id = parts.next()?.to_string();
        let version = parts.next()?.parse().ok()?;
        let origin = parts.next()?.to_string();
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
}

fn db_error(e: tokio_postgres::Error) -> StoreError {
    use tokio_postgres::error::SqlState;
    match e.code() {
        // The guards: a ply or a version another writer took first.
        Some(c)
            if *c == SqlState::UNIQUE_VIOLATION || *c == SqlState::T_R_SERIALIZATION_FAILURE =>
        {
            StoreError::Conflict
        }
        Some(c) if *c == SqlState::T_R_DEADLOCK_DETECTED => StoreError::Conflict,
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
        deadpool_postgres::PoolError::Backend(e) => db_error(e),
        // No connection in time (all taken for the pool's whole wait, or a new one slow to
        // open): a moment of load or a database restarting, which a retry may pass.
        deadpool_postgres::PoolError::Timeout(_) => StoreError::Busy,
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
    let moves: Vec<String> = row.try_get(25).map_err(db_error)?;
    row_of(&row).map_err(db_error)?.into_game(&moves).map(Some)
}

/// Writes a change's rows, in order (their SQL: [`sql::Op::statements`]).
async fn write(client: &impl GenericClient, change: Change) -> Result<(), StoreError> {
    for op in change.ops {
        for statement in op.statements() {
            run(client, &statement).await?;
        }
    }
    Ok(())
}

/// Runs one statement of a write.
async fn run(client: &impl GenericClient, statement: &Statement) -> Result<(), StoreError> {
    let prepared = client
        .prepare_cached(&Dialect::Postgres.text(&statement.sql))
        .await
        .map_err(db_error)?;
    let params: Vec<&(dyn ToSql + Sync)> = statement
        .params
        .iter()
        .map(|v| v as &(dyn ToSql + Sync))
        .collect();
    let changed = client.execute(&prepared, &params).await.map_err(db_error)?;
    if statement.one_row && changed != 1 {
        return Err(StoreError::Conflict);
    }
    Ok(())
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
        }
    }
}

/// The change of [`PgStore::change`], in its task.
async fn change<T, E: From<StoreError>>(
    pool: &Pool,
    origin: &str,
    id: &str,
    f: impl FnOnce(&mut Change, Option<WebGame>) -> Result<Changed<T>, E>,
    after: impl FnOnce(&WebGame),
) -> Result<Changed<T>, E> {
    let mut client = pool.get().await.map_err(pool_error)?;
    let lock = client
        .prepare_cached("SELECT 1 FROM games WHERE id = $1 FOR UPDATE")
        .await
        .map_err(db_error)?;
    let notify = client
        .prepare_cached("SELECT pg_notify($1, $2)")
        .await
        .map_err(db_error)?;
    let tx = client.transaction().await.map_err(db_error)?;
    // The lock first, then the read, sent together (the connection pipelines them and
    // the server runs them in order): the read's snapshot is taken once the lock is
    // held, so it sees the moves of the change that held it before.
    let key: [&(dyn ToSql + Sync); 1] = [&id];
    let (locked, game) = tokio::join!(tx.query_opt(&lock, &key), load(&tx, id));
    locked.map_err(db_error)?;
    let mut change = Change::default();
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
        config.connect_timeout(Duration::from_secs(5));
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
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Brings the schema up to [`PG_VERSION`], one migration a transaction.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await.map_err(pool_error)?;
        loop {
            let tx = client.transaction().await.map_err(db_error)?;
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

    /// The game with this id, replayed, or `None`.
    pub async fn load(&self, id: &str) -> Result<Option<WebGame>, StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        load(&client, id).await
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
    pub async fn change<T: Send + 'static, E: Failure>(
        &self,
        id: String,
        f: impl Compute<T, E>,
        after: impl After,
    ) -> Result<Changed<T>, E> {
        let (pool, origin) = (self.pool.clone(), self.origin.clone());
        tokio::spawn(async move { change(&pool, &origin, &id, f, after).await })
            .await
            .map_err(|e| E::from(worker(e)))?
    }

    /// Deletes the idle games (see [`Store::prune`](super::Store::prune)); their moves go
    /// with them (`ON DELETE CASCADE`), each game under its row lock.
    pub async fn prune(
        &self,
        unfinished_ms: i64,
        finished_ms: Option<i64>,
    ) -> Result<usize, StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        let idle = format!("DELETE FROM games WHERE {}", sql::IDLE);
        let params = sql::idle_params(unfinished_ms, finished_ms);
        let params: Vec<&(dyn ToSql + Sync)> =
            params.iter().map(|v| v as &(dyn ToSql + Sync)).collect();
        let n = client
            .execute(&*Dialect::Postgres.text(&idle), &params)
            .await
            .map_err(db_error)?;
        Ok(n as usize)
    }

    /// The games whose clock runs and whose running side's deadline has passed by
    /// `by_ms` (see [`Store::running_clocks`](super::Store::running_clocks)).
    pub async fn running_clocks(&self, by_ms: i64) -> Result<Vec<String>, StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        let rows = client
            .query(&*Dialect::Postgres.text(sql::RUNNING_CLOCKS), &[&by_ms])
            .await
            .map_err(db_error)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    /// The number of games and of moves stored.
    pub async fn counts(&self) -> Result<(i64, i64), StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        let row = client.query_one(sql::COUNTS, &[]).await.map_err(db_error)?;
        Ok((row.get(0), row.get(1)))
    }

    /// `SELECT 1` on a connection of the pool.
    pub async fn ping(&self) -> Result<(), StoreError> {
        let client = self.pool.get().await.map_err(pool_error)?;
        client.execute("SELECT 1", &[]).await.map_err(db_error)?;
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
