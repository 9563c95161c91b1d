//! [`SqliteStore`]: the games in one SQLite file (rusqlite, bundled, WAL mode), the
//! embedded default: nothing to install.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::types::{ToSqlOutput, Value as SqlValue};
use rusqlite::{
    params, params_from_iter, Connection, OptionalExtension, ToSql, Transaction,
    TransactionBehavior,
};

use super::row::{seat_player, GameRow, SeatRow, COLUMNS};
use super::sql::{self, Cell, Dialect, Rows, Statement, Value};
use super::{worker, Change, Changed, Failure, StoreError, WebGame};

/// The schema, applied to a new database (`PRAGMA user_version` 0 to 1); [`MIGRATIONS`]
/// then bring it to [`VERSION`].
const SCHEMA: &str = "
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    token_sha256  BLOB NOT NULL,
    human         TEXT NOT NULL CHECK (human IN ('white', 'black')),
    level         TEXT NOT NULL CHECK (level IN ('easy', 'medium', 'hard')),
    start         TEXT NOT NULL,
    seed          INTEGER NOT NULL,
    resigned      INTEGER NOT NULL DEFAULT 0,
    created_unix  INTEGER NOT NULL
);
CREATE TABLE moves (
    game_id  TEXT NOT NULL REFERENCES games(id),
    ply      INTEGER NOT NULL,
    move     TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
PRAGMA user_version = 1;
";

/// The schema version this server writes.
pub const VERSION: i64 = 13;

/// The migrations from each version to the next: `MIGRATIONS[i]` takes version `i + 1` to
/// `i + 2`. Each runs in one transaction with its version bump.
const MIGRATIONS: [&str; 12] = [
    // 1 to 2: the rule set of each game (the text form of agon_core::Rules). Games stored
    // before it were played under the standard rules.
    "ALTER TABLE games ADD COLUMN rules TEXT NOT NULL DEFAULT 'standard';
     PRAGMA user_version = 2;",
    // 2 to 3: games between friends, clocks, offers and live versions (issue 23). The
    // creator's seat keeps `token_sha256` (its side is `human`); the other seat's digest
    // is `guest_sha256` (NULL until someone joins; always NULL against the computer).
    // `resigned` is kept but no longer read: `end_reason`/`loser` say how a game ended
    // outside the rules. Every stored game gets the version its changes would have given
    // it (a version a move, one for a resignation) and is touched when it was created.
    // `over` says whether a game has ended (by the rules or otherwise), for the pruning of
    // unfinished games; SQL cannot replay a game, so of the older games only the resigned
    // ones count as over (an older game won on the board is pruned as unfinished once
    // idle, like any game nobody plays).
    "ALTER TABLE games ADD COLUMN opponent TEXT NOT NULL DEFAULT 'computer'
         CHECK (opponent IN ('computer', 'friend'));
     ALTER TABLE games ADD COLUMN guest_sha256 BLOB;
     ALTER TABLE games ADD COLUMN creator_name TEXT;
     ALTER TABLE games ADD COLUMN guest_name TEXT;
     ALTER TABLE games ADD COLUMN clock_initial_ms INTEGER;
     ALTER TABLE games ADD COLUMN clock_increment_ms INTEGER;
     ALTER TABLE games ADD COLUMN white_ms INTEGER;
     ALTER TABLE games ADD COLUMN black_ms INTEGER;
     ALTER TABLE games ADD COLUMN clock_at_ms INTEGER;
     ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE games ADD COLUMN end_reason TEXT
         CHECK (end_reason IN ('resignation', 'time-forfeit', 'agreement'));
     ALTER TABLE games ADD COLUMN loser TEXT;
     ALTER TABLE games ADD COLUMN draw_offer TEXT;
     ALTER TABLE games ADD COLUMN takeback_offer TEXT;
     ALTER TABLE games ADD COLUMN rematch_offer TEXT;
     ALTER TABLE games ADD COLUMN rematch_game TEXT;
     ALTER TABLE games ADD COLUMN touched_ms INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE games ADD COLUMN over INTEGER NOT NULL DEFAULT 0;
     ALTER TABLE moves ADD COLUMN at_ms INTEGER;
     UPDATE games SET end_reason = 'resignation', loser = human, over = 1 WHERE resigned = 1;
     UPDATE games SET
         version = (SELECT count(*) FROM moves WHERE moves.game_id = games.id) + resigned,
         touched_ms = created_unix * 1000;
     CREATE INDEX games_touched ON games (touched_ms);
     PRAGMA user_version = 3;",
    // 3 to 4: the running side's deadline (WebGame::deadline_ms, NULL when no clock
    // runs), written with every change, for the sweep of running clocks: which side runs
    // is known only by replaying the moves. A running clock stored before gets the
    // earliest deadline it can have (the smaller of the two times) until its next change.
    "ALTER TABLE games ADD COLUMN deadline_ms INTEGER;
     UPDATE games SET deadline_ms = clock_at_ms + min(white_ms, black_ms)
         WHERE clock_at_ms IS NOT NULL AND end_reason IS NULL AND over = 0;
     CREATE INDEX games_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;
     PRAGMA user_version = 4;",
    // 4 to 5: accounts, their passkeys, sessions, recovery codes and API tokens, ratings
    // and rating changes (issue 33; the same text as PostgreSQL's 2 to 3).
    concat!(accounts_schema!(), "PRAGMA user_version = 5;"),
    // 5 to 6: aborted games (issue 34): ended with no result, so `end_reason` and `loser`
    // stay NULL (the CHECK of `end_reason`, added by ALTER TABLE, cannot be widened
    // without rebuilding the table) and `aborted` says it (the same as PostgreSQL's 3 to 4).
    "ALTER TABLE games ADD COLUMN aborted INTEGER NOT NULL DEFAULT 0;
     PRAGMA user_version = 6;",
    // 6 to 7: the accounts that claimed a guest's seat (the same text as PostgreSQL's 4
    // to 5).
    concat!(seat_accounts_schema!(), "PRAGMA user_version = 7;"),
    // 7 to 8: rated games, their speed and result, the seats' ratings at the start (the
    // same text as PostgreSQL's 5 to 6).
    concat!(rated_games_schema!(), "PRAGMA user_version = 8;"),
    // 8 to 9: the lobby's seeks and challenges, and its log of events (issue 33; the
    // same text as PostgreSQL's 6 to 7).
    concat!(lobby_schema!(), "PRAGMA user_version = 9;"),
    // 9 to 10: the game reviews (issue 34; the same text as PostgreSQL's 7 to 8).
    concat!(reviews_schema!(), "PRAGMA user_version = 10;"),
    // 10 to 11: the API tokens' ids and the seeks of bots (issue 33; the same text as
    // PostgreSQL's 8 to 9).
    concat!(bots_schema!(), "PRAGMA user_version = 11;"),
    // 11 to 12: the reviews' failures and the queue's lock (issue 34; the same text as
    // PostgreSQL's 9 to 10).
    concat!(review_failures_schema!(), "PRAGMA user_version = 12;"),
    // 12 to 13: the seeks' rating ranges (issue 33; the same text as PostgreSQL's 10 to
    // 11).
    concat!(seek_range_schema!(), "PRAGMA user_version = 13;"),
];

/// The database: one SQLite connection in WAL mode behind a mutex.
///
/// Each operation is a short transaction; no lock is held while the computer thinks.
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (or creates) the database file and brings its schema up to date.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::store::SqliteStore::open(&dir.path().join("games.sqlite3"))?;
    /// assert!(store.load("0123456789abcdef")?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path)?;
        // WAL: readers do not block the writer. synchronous=NORMAL keeps every committed
        // transaction through a crash of the process (only a power cut may lose the last
        // ones), at a fraction of FULL's cost.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
        super::known_version(version, VERSION)?;
        if version == 0 {
            conn.execute_batch(&format!("BEGIN; {SCHEMA} COMMIT;"))?;
            version = 1;
        }
        while version < VERSION {
            let migration = MIGRATIONS[(version - 1) as usize];
            conn.execute_batch(&format!("BEGIN; {migration} COMMIT;"))?;
            version += 1;
        }
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
            path: path.to_path_buf(),
        })
    }

    /// The SQL that makes an empty database the schema `version` (1 to [`VERSION`]) as
    /// the servers of that version wrote it, its `user_version` set: an older database
    /// to test the migrations on. `None` for another version.
    ///
    /// ```
    /// use agon_web::store::SqliteStore;
    /// let sql = SqliteStore::schema_sql(2).unwrap();
    /// assert!(sql.contains("CREATE TABLE games") && sql.contains("ADD COLUMN rules"));
    /// assert!(sql.trim_end().ends_with("PRAGMA user_version = 2;"));
    /// assert_eq!(SqliteStore::schema_sql(0), None);
    /// ```
    pub fn schema_sql(version: i64) -> Option<String> {
        let migrations = usize::try_from(version - 1).ok()?;
        (1..=VERSION).contains(&version).then(|| {
            [SCHEMA]
                .iter()
                .chain(&MIGRATIONS[..migrations])
                .copied()
                .collect()
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half done (SQLite
        // rolls it back when the Transaction is dropped), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A handle on the same connection, for a blocking thread.
    fn handle(&self) -> SqliteStore {
        SqliteStore {
            conn: self.conn.clone(),
            path: self.path.clone(),
        }
    }

    /// Runs `f` on a blocking thread (the database is synchronous).
    pub(crate) async fn blocking<T: Send + 'static, E: Failure>(
        &self,
        f: impl FnOnce(&SqliteStore) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E> {
        let store = self.handle();
        tokio::task::spawn_blocking(move || f(&store))
            .await
            .map_err(|e| E::from(worker(e)))?
    }

    /// Runs `f` in one transaction, committed only if `f` succeeds.
    ///
    /// The transaction is `IMMEDIATE`: it takes SQLite's write lock before it reads, so
    /// that a second server process on the same file can never read a version that
    /// another commits before this one writes (its write would fail with `SQLITE_BUSY`
    /// instead of waiting).
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::store::SqliteStore::open(&dir.path().join("g.sqlite3"))?;
    /// let n: i64 = store.transaction(|tx| {
    ///     Ok(tx.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?)
    /// })?;
    /// assert_eq!(n, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transaction<T>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Changes game `id` (see [`Store::change`](super::Store::change)): one `IMMEDIATE`
    /// transaction reads it, writes what `f` asks, commits, and `after` runs while the
    /// store is still locked, so in commit order.
    pub fn change<T, E: From<StoreError>>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Change, Option<WebGame>) -> Result<Changed<T>, E>,
        after: impl FnOnce(&WebGame),
    ) -> Result<Changed<T>, E> {
        let mut conn = self.lock();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(StoreError::from)?;
        let game = load(&tx, id)?;
        // One server: its clock is the game's, read once the lock is held.
        let mut change = Change::at(crate::game::now_ms());
        let value = f(&mut change, game)?;
        write(&tx, change)?;
        tx.commit().map_err(StoreError::from)?;
        if let Some(game) = &value.1 {
            after(game);
        }
        Ok(value)
    }

    /// Deletes every unfinished game (and its moves) that nothing changed since
    /// `unfinished_ms` (unix milliseconds), and every finished one not changed since
    /// `finished_ms` (`None`: finished games are kept); answers how many.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::store::SqliteStore::open(&dir.path().join("g.sqlite3"))?;
    /// assert_eq!(store.prune(i64::MAX, None)?, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prune(&self, unfinished_ms: i64, finished_ms: Option<i64>) -> Result<usize, StoreError> {
        let idle = sql::IDLE;
        let params = sql::idle_params(unfinished_ms, finished_ms);
        // One IMMEDIATE transaction: no change of a game can fall between the two deletes.
        self.transaction(|tx| {
            tx.execute(
                &format!("DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE {idle})"),
                params_from_iter(&params),
            )?;
            Ok(tx.execute(
                &format!("DELETE FROM games WHERE {idle}"),
                params_from_iter(&params),
            )?)
        })
    }

    /// The ids of the games whose clock runs and whose running side's deadline has passed
    /// by `by_ms` (see [`Store::running_clocks`](super::Store::running_clocks)): what the
    /// clock's timers watch after a restart, and what the sweep of overdue clocks settles.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::store::SqliteStore::open(&dir.path().join("g.sqlite3"))?;
    /// assert!(store.running_clocks(i64::MAX)?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn running_clocks(&self, by_ms: i64) -> Result<Vec<String>, StoreError> {
        self.transaction(|tx| {
            let mut stmt = tx.prepare(sql::RUNNING_CLOCKS)?;
            let ids = stmt
                .query_map(params![by_ms], |row| row.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
    }

    /// The number of games and of moves stored.
    pub fn counts(&self) -> Result<(i64, i64), StoreError> {
        self.transaction(|tx| Ok(tx.query_row(sql::COUNTS, [], |r| Ok((r.get(0)?, r.get(1)?)))?))
    }

    /// `SELECT 1` through the store's lock and connection.
    pub fn ping(&self) -> Result<(), StoreError> {
        self.transaction(|tx| Ok(tx.query_row("SELECT 1", [], |_| Ok(()))?))
    }

    /// The game with this id, replayed, or `None`.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::store::SqliteStore::open(&dir.path().join("g.sqlite3"))?;
    /// assert!(store.load("nope")?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(&self, id: &str) -> Result<Option<WebGame>, StoreError> {
        self.transaction(|tx| load(tx, id))
    }

    /// Runs `reads`, then the writes `f` computes from their rows, in one `IMMEDIATE`
    /// transaction (see [`Store::transact`](super::Store::transact)).
    pub(crate) fn transact<T>(
        &self,
        reads: &[Statement],
        f: impl FnOnce(Vec<Rows>) -> Result<(Vec<Statement>, T), StoreError>,
    ) -> Result<(T, Vec<u64>), StoreError> {
        self.transaction(|tx| {
            let mut answers = Vec::new();
            for read in reads {
                let mut statement = tx.prepare_cached(&Dialect::Sqlite.text(&read.sql))?;
                let n = statement.column_count();
                let rows = statement
                    .query_map(params_from_iter(&read.params), |row| {
                        (0..n).map(|i| row.get_ref(i).map(cell)).collect()
                    })?
                    .collect::<Result<Rows, _>>()?;
                answers.push(rows);
            }
            let (writes, value) = f(answers)?;
            let changed = writes
                .iter()
                .map(|write| run(tx, write))
                .collect::<Result<_, _>>()?;
            Ok((value, changed))
        })
    }

    pub(crate) async fn load_async(&self, id: &str) -> Result<Option<WebGame>, StoreError> {
        let id = id.to_string();
        self.blocking(move |s| s.load(&id)).await
    }
}

/// Writes a change's rows, in order (their SQL: [`super::write::Op::statements`]).
fn write(tx: &Transaction<'_>, change: Change) -> Result<(), StoreError> {
    for op in change.ops {
        for statement in op.statements() {
            run(tx, &statement)?;
        }
    }
    Ok(())
}

/// A value read from a row.
fn cell(value: rusqlite::types::ValueRef<'_>) -> Cell {
    use rusqlite::types::ValueRef;
    match value {
        ValueRef::Null => Cell::Null,
        ValueRef::Integer(v) => Cell::Int(v),
        ValueRef::Real(v) => Cell::Real(v),
        ValueRef::Text(v) => Cell::Text(String::from_utf8_lossy(v).into_owned()),
        ValueRef::Blob(v) => Cell::Bytes(v.to_vec()),
    }
}

/// Runs one statement of a write; answers how many rows it changed.
fn run(tx: &Transaction<'_>, statement: &Statement) -> Result<u64, StoreError> {
    let changed = tx
        .prepare_cached(&Dialect::Sqlite.text(&statement.sql))?
        .execute(params_from_iter(&statement.params))
        .map_err(|e| match e.sqlite_error_code() {
            // The second guard: a ply another writer already stored.
            Some(rusqlite::ErrorCode::ConstraintViolation) => StoreError::Conflict,
            _ => e.into(),
        })?;
    statement.check(changed as u64)?;
    Ok(changed as u64)
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Owned(match self.clone() {
            Value::Int(v) => v.map_or(SqlValue::Null, SqlValue::Integer),
            Value::Ply(v) => SqlValue::Integer(v.into()),
            Value::Text(v) => SqlValue::Text(v),
            Value::OptText(v) => v.map_or(SqlValue::Null, SqlValue::Text),
            Value::Bytes(v) => v.map_or(SqlValue::Null, SqlValue::Blob),
            Value::Bool(v) => SqlValue::Integer(v.into()),
            Value::Real(v) => SqlValue::Real(v),
        }))
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        use rusqlite::ErrorCode;
        match e.sqlite_error_code() {
            // Another writer (a second process on the file) held the lock past the
            // busy timeout: nothing was written, and a retry will likely pass.
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => StoreError::Busy,
            _ => StoreError::Database(format!("database: {e}")),
        }
    }
}

/// Reads and replays a game inside a transaction.
fn load(tx: &Transaction<'_>, id: &str) -> Result<Option<WebGame>, StoreError> {
    let row = tx
        .prepare_cached(&format!("SELECT {COLUMNS} FROM games WHERE id = ?1"))?
        .query_row(params![id], |row| Ok(game_row_from!(row.get)))
        .optional()?;
    let Some(row) = row else {
        return Ok(None);
    };
    let mut moves = tx.prepare_cached("SELECT move FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let texts = moves
        .query_map(params![id], |row| row.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    let mut game = row.into_game(&texts)?;
    let mut seats = tx.prepare_cached(sql::SEAT_PLAYERS)?;
    let rows = seats
        .query_map(params![id], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
            ))
        })?
        .collect::<Result<Vec<SeatRow>, _>>()?;
    for seat in rows {
        seat_player(&mut game.players, id, seat)?;
    }
    Ok(Some(game))
}
