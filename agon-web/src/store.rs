//! [`Store`]: the games in SQLite, the only place a game lives.
//!
//! A game is its row (who plays what, the rule set, the start position, the bot's seed,
//! the digest of its token) and its moves, one row a move. Everything else (the position, the legal
//! moves, the outcome) is rebuilt by replaying the moves through agon-core, so the
//! database cannot hold a state that the rules would not reach.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use agon_core::{CellSet, Game, Move, Position, Rules, Side};
use rusqlite::{params, Connection, OptionalExtension, Transaction};

use crate::{ApiError, Level};

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
pub const VERSION: i64 = 2;

/// The migrations from each version to the next: `MIGRATIONS[i]` takes version `i + 1` to
/// `i + 2`. Each runs in one transaction with its version bump.
const MIGRATIONS: [&str; 1] = [
    // 1 to 2: the rule set of each game (the text form of agon_core::Rules). Games stored
    // before it were played under the standard rules.
    "ALTER TABLE games ADD COLUMN rules TEXT NOT NULL DEFAULT 'standard';
     PRAGMA user_version = 2;",
];

/// A game as the web game knows it: the agon-core [`Game`] and who plays it.
#[derive(Clone, Debug)]
pub struct WebGame {
    /// The game's public id.
    pub id: String,
    /// The SHA-256 digest of the game's secret token.
    pub token_sha256: [u8; 32],
    /// The side the person plays; the computer plays the other.
    pub human: Side,
    /// The computer's level.
    pub level: Level,
    /// The seed of the computer's bot.
    pub seed: u64,
    /// Whether the person resigned.
    pub resigned: bool,
    /// The game, replayed from its start position and moves.
    pub game: Game,
    /// The cells whose pieces the last move captured.
    pub last_captures: CellSet,
}

impl WebGame {
    /// A new game with no moves, under the rules of its start position.
    pub fn new(
        id: String,
        token_sha256: [u8; 32],
        human: Side,
        level: Level,
        seed: u64,
        start: Position,
    ) -> WebGame {
        WebGame {
            id,
            token_sha256,
            human,
            level,
            seed,
            resigned: false,
            game: Game::from_position(start),
            last_captures: CellSet::EMPTY,
        }
    }

    /// Whether the game is over, by the rules or by resignation.
    pub fn is_over(&self) -> bool {
        self.resigned || self.game.is_over()
    }

    /// Whether the computer has to move now: it is the chooser of the next action
    /// (`Position::chooser()`: under `queen-placer=captor` the opponent of a side that
    /// must return its queen chooses where she goes).
    pub fn computer_to_move(&self) -> bool {
        !self.is_over() && self.game.position().chooser() != self.human
    }

    /// Plays a move, keeping what it captured.
    pub fn play(&mut self, m: Move) -> Result<(), agon_core::IllegalMove> {
        self.last_captures = self.game.play(m)?;
        Ok(())
    }

    /// The number of moves played.
    pub fn plies(&self) -> usize {
        self.game.moves().len()
    }
}

/// The database: one SQLite connection in WAL mode behind a mutex.
///
/// Each operation is a short transaction; no lock is held while the computer thinks.
pub struct Store {
    conn: Mutex<Connection>,
}

impl Store {
    /// Opens (or creates) the database file and brings its schema up to date.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::Store::open(&dir.path().join("games.sqlite3"))?;
    /// assert!(store.load("0123456789abcdef")?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(path: &Path) -> Result<Store, ApiError> {
        let conn = Connection::open(path)?;
        // WAL: readers do not block the writer. synchronous=NORMAL keeps every committed
        // transaction through a crash of the process (only a power cut may lose the last
        // ones), at a fraction of FULL's cost.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let mut version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
        if version > VERSION {
            return Err(ApiError::internal(format!(
                "database schema version {version} is newer than this server's ({VERSION})"
            )));
        }
        if version == 0 {
            conn.execute_batch(&format!("BEGIN; {SCHEMA} COMMIT;"))?;
            version = 1;
        }
        while version < VERSION {
            let migration = MIGRATIONS[(version - 1) as usize];
            conn.execute_batch(&format!("BEGIN; {migration} COMMIT;"))?;
            version += 1;
        }
        Ok(Store {
            conn: Mutex::new(conn),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a transaction half done (SQLite
        // rolls it back when the Transaction is dropped), so a poisoned lock is usable.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` in one transaction, committed only if `f` succeeds.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3"))?;
    /// let n: i64 = store.transaction(|tx| {
    ///     Ok(tx.query_row("SELECT count(*) FROM games", [], |r| r.get(0))?)
    /// })?;
    /// assert_eq!(n, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transaction<T>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// The game with this id, replayed, or `None`.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3"))?;
    /// assert!(store.load("nope")?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load(&self, id: &str) -> Result<Option<WebGame>, ApiError> {
        self.transaction(|tx| load(tx, id))
    }
}

/// Inserts a new game and its moves.
pub fn insert(tx: &Transaction<'_>, game: &WebGame, created_unix: i64) -> Result<(), ApiError> {
    tx.execute(
        "INSERT INTO games (id, token_sha256, human, level, start, seed, resigned, created_unix, rules)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            game.id,
            &game.token_sha256[..],
            crate::side_name(game.human),
            game.level.name(),
            game.game.start().to_text().to_string(),
            // SQLite integers are signed: the seed's bits are kept as they are.
            game.seed as i64,
            game.resigned,
            created_unix,
            game.game.rules().to_string(),
        ],
    )?;
    append(tx, game, 0)
}

/// Writes the game's moves from ply `from` on (the rows before are already stored).
pub fn append(tx: &Transaction<'_>, game: &WebGame, from: usize) -> Result<(), ApiError> {
    let mut insert =
        tx.prepare_cached("INSERT INTO moves (game_id, ply, move) VALUES (?1, ?2, ?3)")?;
    for (ply, m) in game.game.moves().iter().enumerate().skip(from) {
        insert.execute(params![game.id, ply as i64, m.to_string()])?;
    }
    Ok(())
}

/// Deletes the moves from ply `keep` on.
pub fn truncate(tx: &Transaction<'_>, id: &str, keep: usize) -> Result<(), ApiError> {
    tx.execute(
        "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
        params![id, keep as i64],
    )?;
    Ok(())
}

/// Marks the game resigned.
pub fn resign(tx: &Transaction<'_>, id: &str) -> Result<(), ApiError> {
    tx.execute("UPDATE games SET resigned = 1 WHERE id = ?1", params![id])?;
    Ok(())
}

/// Reads and replays a game inside a transaction.
pub fn load(tx: &Transaction<'_>, id: &str) -> Result<Option<WebGame>, ApiError> {
    let row = tx
        .prepare_cached(
            "SELECT token_sha256, human, level, start, seed, resigned, rules FROM games WHERE id = ?1",
        )?
        .query_row(params![id], |row| {
            Ok((
                row.get::<_, Vec<u8>>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, String>(3)?,
                row.get::<_, i64>(4)?,
                row.get::<_, bool>(5)?,
                row.get::<_, String>(6)?,
            ))
        })
        .optional()?;
    let Some((digest, human, level, start, seed, resigned, rules)) = row else {
        return Ok(None);
    };
    let corrupt = |what: &str| ApiError::internal(format!("game {id} in the database: {what}"));
    let token_sha256: [u8; 32] = digest.try_into().map_err(|_| corrupt("token digest"))?;
    let human = Side::from_name(&human).ok_or_else(|| corrupt("side"))?;
    let level = level.parse().map_err(|_| corrupt("level"))?;
    let rules: Rules = rules.parse().map_err(|_| corrupt("rules"))?;
    // The position's text holds no rules: it is read under the game's.
    let start =
        Position::from_text_with_rules(&start, rules).map_err(|_| corrupt("start position"))?;
    let mut game = WebGame::new(
        id.to_string(),
        token_sha256,
        human,
        level,
        seed as u64,
        start,
    );
    game.resigned = resigned;
    let mut moves = tx.prepare_cached("SELECT move FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let texts = moves.query_map(params![id], |row| row.get::<_, String>(0))?;
    for text in texts {
        let text = text?;
        let m = text.parse::<Move>().map_err(|_| corrupt("move text"))?;
        game.play(m).map_err(|_| corrupt("illegal move"))?;
    }
    Ok(Some(game))
}
