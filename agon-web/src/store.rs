//! [`Store`]: the games in SQLite, the only place a game lives.
//!
//! A game is its row (who plays what, the rule set, the start position, the bot's seed,
//! the digest of its token) and its moves, one row a move. Everything else (the position, the legal
//! moves, the outcome) is rebuilt by replaying the moves through agon-core, so the
//! database cannot hold a state that the rules would not reach.

use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use agon_core::{CellSet, Game, Move, Position, Rules, Side};
use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};

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
pub const VERSION: i64 = 3;

/// The migrations from each version to the next: `MIGRATIONS[i]` takes version `i + 1` to
/// `i + 2`. Each runs in one transaction with its version bump.
const MIGRATIONS: [&str; 2] = [
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
];

/// Who plays the creator: the computer, or a friend who joins by the game's link.
///
/// ```
/// use agon_web::store::Opponent;
/// assert_eq!(Opponent::Friend.name(), "friend");
/// assert_eq!("computer".parse::<Opponent>(), Ok(Opponent::Computer));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The computer, at the game's level.
    Computer,
    /// A person, who takes the other seat by `POST /api/games/{id}/join`.
    Friend,
}

impl Opponent {
    /// `computer` or `friend`.
    pub const fn name(self) -> &'static str {
        match self {
            Opponent::Computer => "computer",
            Opponent::Friend => "friend",
        }
    }
}

impl std::str::FromStr for Opponent {
    type Err = String;

    fn from_str(s: &str) -> Result<Opponent, String> {
        match s {
            "computer" => Ok(Opponent::Computer),
            "friend" => Ok(Opponent::Friend),
            _ => Err(format!("opponent must be computer or friend, not {s:?}")),
        }
    }
}

/// How a game ended outside agon-core's rules (the rules' own ends come from the replay).
///
/// ```
/// use agon_web::store::EndKind;
/// assert_eq!(EndKind::TimeForfeit.name(), "time-forfeit");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// A player gave the game up.
    Resignation,
    /// A player's clock ran out: the other wins.
    TimeForfeit,
    /// Both players agreed to a draw.
    Agreement,
}

impl EndKind {
    /// `resignation`, `time-forfeit` or `agreement`.
    pub const fn name(self) -> &'static str {
        match self {
            EndKind::Resignation => "resignation",
            EndKind::TimeForfeit => "time-forfeit",
            EndKind::Agreement => "agreement",
        }
    }

    fn from_name(name: &str) -> Option<EndKind> {
        [
            EndKind::Resignation,
            EndKind::TimeForfeit,
            EndKind::Agreement,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// The end of a game outside the rules: how, and who won (`None`: a draw).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// How it ended.
    pub kind: EndKind,
    /// The winner, or `None` for a draw by agreement.
    pub winner: Option<Side>,
}

/// The pending offers of a game between friends: the side offering each, or `None`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Offers {
    /// A draw offer.
    pub draw: Option<Side>,
    /// A takeback request (of the offering side's last action).
    pub takeback: Option<Side>,
    /// A rematch offer (only once the game is over).
    pub rematch: Option<Side>,
}

/// A game's clock: its settings and both sides' remaining times as of `at_ms`.
///
/// The server is its authority: every change of the game charges the side whose time was
/// running with the time since `at_ms` (and a move adds the increment to its mover), then
/// sets `at_ms` to the time of the change. `at_ms` is `None` while the clock has not
/// started: it starts with the first move, once both seats are taken.
///
/// ```
/// use agon_web::store::Clock;
/// let clock = Clock::new(300_000, 3_000);
/// assert_eq!(clock.remaining_ms, [300_000, 300_000]);
/// assert_eq!(clock.at_ms, None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Each side's time at the start, in milliseconds.
    pub initial_ms: i64,
    /// What each move adds to its mover's time, in milliseconds.
    pub increment_ms: i64,
    /// The remaining times of White and Black (by `Side::index`) as of `at_ms`.
    pub remaining_ms: [i64; 2],
    /// When `remaining_ms` was last brought up to date (unix milliseconds), or `None`
    /// before the clock started.
    pub at_ms: Option<i64>,
}

impl Clock {
    /// A clock that has not started, both sides at `initial_ms`.
    pub fn new(initial_ms: i64, increment_ms: i64) -> Clock {
        Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms; 2],
            at_ms: None,
        }
    }
}

/// A game as the web game knows it: the agon-core [`Game`], who plays it, its clock,
/// offers and version.
#[derive(Clone, Debug)]
pub struct WebGame {
    /// The game's public id.
    pub id: String,
    /// The SHA-256 digest of the creator's secret token (the creator plays `human`).
    pub token_sha256: [u8; 32],
    /// The SHA-256 digest of the other seat's token, once a friend took it (never against
    /// the computer).
    pub guest_sha256: Option<[u8; 32]>,
    /// The side the creator plays; the computer or the friend plays the other.
    pub human: Side,
    /// The computer's level (unused in games between friends).
    pub level: Level,
    /// The seed of the computer's bot.
    pub seed: u64,
    /// Who plays the creator.
    pub opponent: Opponent,
    /// The display names of White's and Black's seats (by `Side::index`).
    pub names: [Option<String>; 2],
    /// The clock, if the game has one.
    pub clock: Option<Clock>,
    /// The game's version: +1 for every change, assigned in the change's transaction.
    pub version: i64,
    /// How the game ended outside the rules, if it did.
    pub end: Option<End>,
    /// The pending offers.
    pub offers: Offers,
    /// The rematch's id, once one was agreed.
    pub rematch_game: Option<String>,
    /// The game, replayed from its start position and moves.
    pub game: Game,
    /// The cells whose pieces the last move captured.
    pub last_captures: CellSet,
}

impl WebGame {
    /// A new game against the computer with no moves, under the rules of its start
    /// position, with no clock.
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
            guest_sha256: None,
            human,
            level,
            seed,
            opponent: Opponent::Computer,
            names: [None, None],
            clock: None,
            version: 0,
            end: None,
            offers: Offers::default(),
            rematch_game: None,
            game: Game::from_position(start),
            last_captures: CellSet::EMPTY,
        }
    }

    /// Whether the game is over, by the rules or otherwise (resignation, time, agreement).
    pub fn is_over(&self) -> bool {
        self.end.is_some() || self.game.is_over()
    }

    /// Whether the game was resigned.
    pub fn resigned(&self) -> bool {
        self.end.is_some_and(|e| e.kind == EndKind::Resignation)
    }

    /// Whether the computer has to move now: it is the chooser of the next action
    /// (`Position::chooser()`: under `queen-placer=captor` the opponent of a side that
    /// must return its queen chooses where she goes).
    pub fn computer_to_move(&self) -> bool {
        self.opponent == Opponent::Computer
            && !self.is_over()
            && self.game.position().chooser() != self.human
    }

    /// Which seats are taken, White's and Black's (the computer's always is).
    pub fn seats_taken(&self) -> [bool; 2] {
        let mut taken = [true; 2];
        if self.opponent == Opponent::Friend && self.guest_sha256.is_none() {
            taken[self.human.other().index()] = false;
        }
        taken
    }

    /// The seat whose token has this digest, compared in constant time with both seats'.
    pub fn seat_of(&self, digest: &[u8; 32]) -> Option<Side> {
        use subtle::ConstantTimeEq;
        let creator = bool::from(self.token_sha256.ct_eq(digest));
        let guest = self
            .guest_sha256
            .is_some_and(|g| bool::from(g.ct_eq(digest)));
        if creator {
            Some(self.human)
        } else if guest {
            Some(self.human.other())
        } else {
            None
        }
    }

    /// The side whose clock runs: the chooser, once the clock started and while the game
    /// goes on.
    pub fn running(&self) -> Option<Side> {
        let clock = self.clock?;
        clock.at_ms?;
        (!self.is_over()).then(|| self.game.position().chooser())
    }

    /// Both sides' remaining times at `now_ms` (the running side's counted down, not below
    /// 0), White's first; `None` without a clock.
    pub fn remaining_at(&self, now_ms: i64) -> Option<[i64; 2]> {
        let clock = self.clock?;
        let mut remaining = clock.remaining_ms;
        if let (Some(side), Some(at)) = (self.running(), clock.at_ms) {
            let r = &mut remaining[side.index()];
            *r = (*r - (now_ms - at).max(0)).max(0);
        }
        Some(remaining)
    }

    /// When the running side's time runs out (unix milliseconds), if a clock runs.
    pub fn deadline_ms(&self) -> Option<i64> {
        let side = self.running()?;
        let clock = self.clock?;
        Some(clock.at_ms? + clock.remaining_ms[side.index()])
    }

    /// Charges the running side with the time since the clock's last change, and sets
    /// that change to `now_ms`.
    fn charge(&mut self, now_ms: i64) {
        let running = self.running();
        if let Some(clock) = &mut self.clock {
            if let (Some(side), Some(at)) = (running, clock.at_ms) {
                let r = &mut clock.remaining_ms[side.index()];
                *r = (*r - (now_ms - at).max(0)).max(0);
                clock.at_ms = Some(now_ms);
            }
        }
    }

    /// If the running side's time has run out at `now_ms`, ends the game by
    /// `time-forfeit` (the other side wins) and answers true.
    pub fn flag(&mut self, now_ms: i64) -> bool {
        match (self.running(), self.deadline_ms()) {
            (Some(side), Some(deadline)) if now_ms >= deadline => {
                self.charge(now_ms);
                self.end = Some(End {
                    kind: EndKind::TimeForfeit,
                    winner: Some(side.other()),
                });
                self.offers.draw = None;
                self.offers.takeback = None;
                true
            }
            _ => false,
        }
    }

    /// Ends the game (resignation, agreement) at `now_ms`: the running clock stops.
    pub fn end_with(&mut self, kind: EndKind, winner: Option<Side>, now_ms: i64) {
        self.charge(now_ms);
        self.end = Some(End { kind, winner });
        self.offers.draw = None;
        self.offers.takeback = None;
    }

    /// Starts the clock at `now_ms` if it has not started, a move was made and both seats
    /// are taken.
    pub fn start_clock(&mut self, now_ms: i64) {
        let ready = self.plies() > 0 && self.seats_taken() == [true; 2] && !self.is_over();
        if let Some(clock) = &mut self.clock {
            if clock.at_ms.is_none() && ready {
                clock.at_ms = Some(now_ms);
            }
        }
    }

    /// Plays a move, keeping what it captured.
    pub fn play(&mut self, m: Move) -> Result<(), agon_core::IllegalMove> {
        self.last_captures = self.game.play(m)?;
        Ok(())
    }

    /// Plays a move at `now_ms`: the mover's clock is charged and gets the increment, and
    /// the pending draw and takeback offers lapse.
    pub fn play_at(&mut self, m: Move, now_ms: i64) -> Result<(), agon_core::IllegalMove> {
        let mover = self.game.position().chooser();
        let running = self.running();
        self.play(m)?;
        if let Some(clock) = &mut self.clock {
            if let (Some(side), Some(at)) = (running, clock.at_ms) {
                let r = &mut clock.remaining_ms[side.index()];
                *r = (*r - (now_ms - at).max(0)).max(0);
                clock.remaining_ms[mover.index()] += clock.increment_ms;
                clock.at_ms = Some(now_ms);
            }
        }
        self.start_clock(now_ms);
        self.offers.draw = None;
        self.offers.takeback = None;
        Ok(())
    }

    /// Takes back every move from ply `keep` on at `now_ms` (the running side is charged
    /// up to now; no time is given back), and the pending draw and takeback offers lapse.
    pub fn take_back_to(&mut self, keep: usize, now_ms: i64) {
        self.charge(now_ms);
        while self.plies() > keep {
            self.game.undo();
        }
        // What the move before captured, for the state's last_captures.
        let positions = self.game.positions();
        self.last_captures = match self.game.moves().last() {
            Some(&m) if positions.len() >= 2 => positions[positions.len() - 2].captures(m),
            _ => CellSet::EMPTY,
        };
        if self.plies() == 0 {
            if let Some(clock) = &mut self.clock {
                clock.at_ms = None;
            }
        }
        self.offers.draw = None;
        self.offers.takeback = None;
    }

    /// The ply of `side`'s last action, if it made one: what a takeback goes back to. An
    /// action is a side's when it chose it (`Position::chooser()`), so under
    /// `queen-placer=captor` the return of the opponent's queen is the captor's.
    pub fn last_ply_of(&self, side: Side) -> Option<usize> {
        let positions = self.game.positions();
        // positions[i] is the position before move i.
        (0..self.plies())
            .rev()
            .find(|&i| positions[i].chooser() == side)
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
    /// The transaction is `IMMEDIATE`: it takes SQLite's write lock before it reads, so
    /// that a second server process on the same file can never read a version that
    /// another commits before this one writes (its write would fail with `SQLITE_BUSY`
    /// instead of waiting).
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
        self.transaction_then(f, |_| ())
    }

    /// Runs `f` in one transaction like [`Store::transaction`], then, once it committed
    /// and while this store is still locked, `after` with its value: what `after` does
    /// (publishing a new version to the live streams) happens in commit order.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3"))?;
    /// let mut seen = 0;
    /// store.transaction_then(|_| Ok(7), |v| seen = *v)?;
    /// assert_eq!(seen, 7);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn transaction_then<T>(
        &self,
        f: impl FnOnce(&Transaction<'_>) -> Result<T, ApiError>,
        after: impl FnOnce(&T),
    ) -> Result<T, ApiError> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        after(&value);
        Ok(value)
    }

    /// Deletes every unfinished game (and its moves) that nothing changed since
    /// `unfinished_ms` (unix milliseconds), and every finished one not changed since
    /// `finished_ms` (`None`: finished games are kept); answers how many.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3"))?;
    /// assert_eq!(store.prune(i64::MAX, None)?, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prune(&self, unfinished_ms: i64, finished_ms: Option<i64>) -> Result<usize, ApiError> {
        const IDLE: &str = "(over = 0 AND touched_ms < ?1) OR (over = 1 AND touched_ms < ?2)";
        let finished_ms = finished_ms.unwrap_or(i64::MIN);
        self.transaction(|tx| {
            tx.execute(
                &format!("DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE {IDLE})"),
                params![unfinished_ms, finished_ms],
            )?;
            Ok(tx.execute(
                &format!("DELETE FROM games WHERE {IDLE}"),
                params![unfinished_ms, finished_ms],
            )?)
        })
    }

    /// The ids of the games whose clock runs (started, the game not ended outside the
    /// rules): what the clock's timer watches after a restart.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3"))?;
    /// assert!(store.running_clocks()?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn running_clocks(&self) -> Result<Vec<String>, ApiError> {
        self.transaction(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id FROM games WHERE clock_at_ms IS NOT NULL AND end_reason IS NULL",
            )?;
            let ids = stmt
                .query_map([], |row| row.get::<_, String>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(ids)
        })
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

fn side_text(side: Option<Side>) -> Option<&'static str> {
    side.map(crate::side_name)
}

/// Inserts a new game and its moves (stored at `now_ms`).
pub fn insert(tx: &Transaction<'_>, game: &WebGame, now_ms: i64) -> Result<(), ApiError> {
    let clock = game.clock;
    let creator = game.human.index();
    let guest = game.human.other().index();
    tx.execute(
        "INSERT INTO games (id, token_sha256, human, level, start, seed, resigned, created_unix,
             rules, opponent, guest_sha256, creator_name, guest_name, clock_initial_ms,
             clock_increment_ms, white_ms, black_ms, clock_at_ms, version, end_reason, loser,
             draw_offer, takeback_offer, rematch_offer, rematch_game, touched_ms, over)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
             ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)",
        params![
            game.id,
            &game.token_sha256[..],
            crate::side_name(game.human),
            game.level.name(),
            game.game.start().to_text().to_string(),
            // SQLite integers are signed: the seed's bits are kept as they are.
            game.seed as i64,
            game.resigned(),
            now_ms / 1000,
            game.game.rules().to_string(),
            game.opponent.name(),
            game.guest_sha256.as_ref().map(|d| &d[..]),
            game.names[creator],
            game.names[guest],
            clock.map(|c| c.initial_ms),
            clock.map(|c| c.increment_ms),
            clock.map(|c| c.remaining_ms[0]),
            clock.map(|c| c.remaining_ms[1]),
            clock.and_then(|c| c.at_ms),
            game.version,
            game.end.map(|e| e.kind.name()),
            side_text(game.end.and_then(|e| e.winner.map(Side::other))),
            side_text(game.offers.draw),
            side_text(game.offers.takeback),
            side_text(game.offers.rematch),
            game.rematch_game,
            now_ms,
            game.is_over(),
        ],
    )?;
    append(tx, game, 0, now_ms)
}

/// Writes the game's moves from ply `from` on (the rows before are already stored), each
/// with the time it was stored (`now_ms`).
pub fn append(
    tx: &Transaction<'_>,
    game: &WebGame,
    from: usize,
    now_ms: i64,
) -> Result<(), ApiError> {
    let mut insert =
        tx.prepare_cached("INSERT INTO moves (game_id, ply, move, at_ms) VALUES (?1, ?2, ?3, ?4)")?;
    for (ply, m) in game.game.moves().iter().enumerate().skip(from) {
        insert.execute(params![game.id, ply as i64, m.to_string(), now_ms])?;
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

/// Writes every changeable field of the game's row (seats, names, clock, end, offers,
/// rematch) and gives it its next version, touched at `now_ms`.
///
/// The version is assigned here, in the same transaction as the change: the row is
/// updated only if it still holds the version the change was computed from
/// (`WHERE version = ?`), else the change fails with `409 conflict` and its transaction
/// rolls back. Within one server every transaction runs under the store's mutex (and is
/// `IMMEDIATE` against other processes), so a second move for the same ply is computed
/// from the first one's result and refused by the rules (`not-your-turn`); the version
/// check, like the moves' primary key `(game_id, ply)`, guarantees it still gets a clean
/// 409 and never two versions of the same number should the stores ever be shared.
pub fn save(tx: &Transaction<'_>, game: &mut WebGame, now_ms: i64) -> Result<(), ApiError> {
    let clock = game.clock;
    let guest = game.human.other().index();
    let changed = tx.execute(
        "UPDATE games SET guest_sha256 = ?1, guest_name = ?2, white_ms = ?3, black_ms = ?4,
             clock_at_ms = ?5, end_reason = ?6, loser = ?7, resigned = ?8, draw_offer = ?9,
             takeback_offer = ?10, rematch_offer = ?11, rematch_game = ?12,
             version = version + 1, touched_ms = ?13, over = ?16
         WHERE id = ?14 AND version = ?15",
        params![
            game.guest_sha256.as_ref().map(|d| &d[..]),
            game.names[guest],
            clock.map(|c| c.remaining_ms[0]),
            clock.map(|c| c.remaining_ms[1]),
            clock.and_then(|c| c.at_ms),
            game.end.map(|e| e.kind.name()),
            side_text(game.end.and_then(|e| e.winner.map(Side::other))),
            game.resigned(),
            side_text(game.offers.draw),
            side_text(game.offers.takeback),
            side_text(game.offers.rematch),
            game.rematch_game,
            now_ms,
            game.id,
            game.version,
            game.is_over(),
        ],
    )?;
    if changed != 1 {
        return Err(ApiError::conflict(
            "conflict",
            "the game changed meanwhile: load it again",
        ));
    }
    game.version += 1;
    Ok(())
}

/// Reads and replays a game inside a transaction.
pub fn load(tx: &Transaction<'_>, id: &str) -> Result<Option<WebGame>, ApiError> {
    struct Row {
        digest: Vec<u8>,
        human: String,
        level: String,
        start: String,
        seed: i64,
        rules: String,
        opponent: String,
        guest: Option<Vec<u8>>,
        creator_name: Option<String>,
        guest_name: Option<String>,
        clock: [Option<i64>; 5],
        version: i64,
        end_reason: Option<String>,
        loser: Option<String>,
        offers: [Option<String>; 3],
        rematch_game: Option<String>,
    }
    let row = tx
        .prepare_cached(
            "SELECT token_sha256, human, level, start, seed, rules, opponent, guest_sha256,
                 creator_name, guest_name, clock_initial_ms, clock_increment_ms, white_ms,
                 black_ms, clock_at_ms, version, end_reason, loser, draw_offer,
                 takeback_offer, rematch_offer, rematch_game
             FROM games WHERE id = ?1",
        )?
        .query_row(params![id], |row| {
            Ok(Row {
                digest: row.get(0)?,
                human: row.get(1)?,
                level: row.get(2)?,
                start: row.get(3)?,
                seed: row.get(4)?,
                rules: row.get(5)?,
                opponent: row.get(6)?,
                guest: row.get(7)?,
                creator_name: row.get(8)?,
                guest_name: row.get(9)?,
                clock: [
                    row.get(10)?,
                    row.get(11)?,
                    row.get(12)?,
                    row.get(13)?,
                    row.get(14)?,
                ],
                version: row.get(15)?,
                end_reason: row.get(16)?,
                loser: row.get(17)?,
                offers: [row.get(18)?, row.get(19)?, row.get(20)?],
                rematch_game: row.get(21)?,
            })
        })
        .optional()?;
    let Some(row) = row else {
        return Ok(None);
    };
    let corrupt = |what: &str| ApiError::internal(format!("game {id} in the database: {what}"));
    let token_sha256: [u8; 32] = row.digest.try_into().map_err(|_| corrupt("token digest"))?;
    let guest_sha256: Option<[u8; 32]> = match row.guest {
        None => None,
        Some(d) => Some(d.try_into().map_err(|_| corrupt("guest digest"))?),
    };
    let side = |text: &Option<String>| -> Result<Option<Side>, ApiError> {
        match text {
            None => Ok(None),
            Some(t) => Side::from_name(t).map(Some).ok_or_else(|| corrupt("side")),
        }
    };
    let human = Side::from_name(&row.human).ok_or_else(|| corrupt("side"))?;
    let level = row.level.parse().map_err(|_| corrupt("level"))?;
    let rules: Rules = row.rules.parse().map_err(|_| corrupt("rules"))?;
    // The position's text holds no rules: it is read under the game's.
    let start =
        Position::from_text_with_rules(&row.start, rules).map_err(|_| corrupt("start position"))?;
    let mut game = WebGame::new(
        id.to_string(),
        token_sha256,
        human,
        level,
        row.seed as u64,
        start,
    );
    game.guest_sha256 = guest_sha256;
    game.opponent = row.opponent.parse().map_err(|_| corrupt("opponent"))?;
    game.names[human.index()] = row.creator_name;
    game.names[human.other().index()] = row.guest_name;
    game.clock = match row.clock {
        [Some(initial_ms), Some(increment_ms), Some(white), Some(black), at_ms] => Some(Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [white, black],
            at_ms,
        }),
        _ => None,
    };
    game.version = row.version;
    game.end = match row.end_reason {
        None => None,
        Some(reason) => Some(End {
            kind: EndKind::from_name(&reason).ok_or_else(|| corrupt("end reason"))?,
            winner: side(&row.loser)?.map(Side::other),
        }),
    };
    game.offers = Offers {
        draw: side(&row.offers[0])?,
        takeback: side(&row.offers[1])?,
        rematch: side(&row.offers[2])?,
    };
    game.rematch_game = row.rematch_game;
    let mut moves = tx.prepare_cached("SELECT move FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let texts = moves.query_map(params![id], |row| row.get::<_, String>(0))?;
    for text in texts {
        let text = text?;
        let m = text.parse::<Move>().map_err(|_| corrupt("move text"))?;
        game.play(m).map_err(|_| corrupt("illegal move"))?;
    }
    Ok(Some(game))
}
