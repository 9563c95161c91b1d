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
//! key `(game_id, ply)`; either refuses a second writer with `409 conflict`.

use std::path::PathBuf;

use agon_core::{CellSet, Game, Move, Position, Rules, Side};

use crate::{ApiError, Level};

/// A [`GameRow`] from a row of [`COLUMNS`]: `game_row_from!(row.get)` calls `row.get(0)?`
/// to `row.get(24)?` (each store's own row reader, typed by the field it fills).
macro_rules! game_row_from {
    ($row:ident . $get:ident) => {
        GameRow {
            id: $row.$get(0)?,
            token_sha256: $row.$get(1)?,
            human: $row.$get(2)?,
            level: $row.$get(3)?,
            start: $row.$get(4)?,
            seed: $row.$get(5)?,
            rules: $row.$get(6)?,
            opponent: $row.$get(7)?,
            guest_sha256: $row.$get(8)?,
            creator_name: $row.$get(9)?,
            guest_name: $row.$get(10)?,
            clock: [
                $row.$get(11)?,
                $row.$get(12)?,
                $row.$get(13)?,
                $row.$get(14)?,
                $row.$get(15)?,
            ],
            version: $row.$get(16)?,
            end_reason: $row.$get(17)?,
            loser: $row.$get(18)?,
            offers: [$row.$get(19)?, $row.$get(20)?, $row.$get(21)?],
            rematch_game: $row.$get(22)?,
            resigned: $row.$get(23)?,
            over: $row.$get(24)?,
        }
    };
}

/// The values of a [`GameRow`] in [`COLUMNS`]' order, then `extra`, as an array of
/// `&dyn` parameters of the store's driver: `game_row_values!(r as dyn ToSql; a, b)`.
macro_rules! game_row_values {
    ($r:ident as $param:ty; $($extra:expr),*) => {
        [
            &$r.id as &$param,
            &$r.token_sha256,
            &$r.human,
            &$r.level,
            &$r.start,
            &$r.seed,
            &$r.rules,
            &$r.opponent,
            &$r.guest_sha256,
            &$r.creator_name,
            &$r.guest_name,
            &$r.clock[0],
            &$r.clock[1],
            &$r.clock[2],
            &$r.clock[3],
            &$r.clock[4],
            &$r.version,
            &$r.end_reason,
            &$r.loser,
            &$r.offers[0],
            &$r.offers[1],
            &$r.offers[2],
            &$r.rematch_game,
            &$r.resigned,
            &$r.over,
            $(&$extra),*
        ]
    };
}

mod postgres;
mod sqlite;

pub use postgres::{Notice, PgStore, CHANNEL, LISTENER_NAME, PG_VERSION};
pub use sqlite::{SqliteStore, VERSION};

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

    /// Both sides' remaining times at `now_ms`, `running`'s counted down since `at_ms`
    /// (not below 0; no time runs before `at_ms`).
    fn remaining_with(&self, running: Option<Side>, now_ms: i64) -> [i64; 2] {
        let mut remaining = self.remaining_ms;
        if let (Some(side), Some(at)) = (running, self.at_ms) {
            let r = &mut remaining[side.index()];
            *r = (*r - (now_ms - at).max(0)).max(0);
        }
        remaining
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
        Some(self.clock?.remaining_with(self.running(), now_ms))
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
        self.charge_from(self.running(), now_ms);
    }

    /// Charges `running` (the side whose time ran since the clock's last change, `None`
    /// if none did) and sets that change to `now_ms`; answers whether a time ran.
    fn charge_from(&mut self, running: Option<Side>, now_ms: i64) -> bool {
        match (&mut self.clock, running) {
            (Some(clock), Some(_)) => {
                clock.remaining_ms = clock.remaining_with(running, now_ms);
                clock.at_ms = Some(now_ms);
                true
            }
            _ => false,
        }
    }

    /// If the running side's time has run out at `now_ms`, ends the game by
    /// `time-forfeit` (the other side wins) and answers true.
    pub fn flag(&mut self, now_ms: i64) -> bool {
        match (self.running(), self.deadline_ms()) {
            (Some(side), Some(deadline)) if now_ms >= deadline => {
                self.end_with(EndKind::TimeForfeit, Some(side.other()), now_ms);
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
        if self.charge_from(running, now_ms) {
            if let Some(clock) = &mut self.clock {
                clock.remaining_ms[mover.index()] += clock.increment_ms;
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

/// The columns of `games` a load reads, in [`GameRow`]'s order (both stores' schemas have them).
pub(crate) const COLUMNS: &str = "id, token_sha256, human, level, start, seed, rules, opponent,
    guest_sha256, creator_name, guest_name, clock_initial_ms, clock_increment_ms, white_ms,
    black_ms, clock_at_ms, version, end_reason, loser, draw_offer, takeback_offer,
    rematch_offer, rematch_game, resigned, over";

/// The statement that stores a new game: [`COLUMNS`] and its three times, with the
/// placeholders `SIGIL1` to `SIGIL28` (`$` for PostgreSQL, `?` for SQLite).
pub(crate) fn insert_game_sql(sigil: char) -> String {
    let columns = COLUMNS.split(',').count() + 3;
    let placeholders: Vec<String> = (1..=columns).map(|i| format!("{sigil}{i}")).collect();
    format!(
        "INSERT INTO games ({COLUMNS}, created_unix, touched_ms, deadline_ms) VALUES ({})",
        placeholders.join(", ")
    )
}

/// A game's row as both stores read and write it (the columns of `games`).
pub(crate) struct GameRow {
    pub id: String,
    pub token_sha256: Vec<u8>,
    pub human: String,
    pub level: String,
    pub start: String,
    pub seed: i64,
    pub rules: String,
    pub opponent: String,
    pub guest_sha256: Option<Vec<u8>>,
    pub creator_name: Option<String>,
    pub guest_name: Option<String>,
    /// `clock_initial_ms`, `clock_increment_ms`, `white_ms`, `black_ms`, `clock_at_ms`.
    pub clock: [Option<i64>; 5],
    pub version: i64,
    pub end_reason: Option<String>,
    pub loser: Option<String>,
    /// `draw_offer`, `takeback_offer`, `rematch_offer`.
    pub offers: [Option<String>; 3],
    pub rematch_game: Option<String>,
    pub resigned: bool,
    pub over: bool,
}

fn side_text(side: Option<Side>) -> Option<String> {
    side.map(|s| crate::side_name(s).to_string())
}

impl GameRow {
    /// The row of `game`.
    pub fn of(game: &WebGame) -> GameRow {
        let clock = game.clock;
        GameRow {
            id: game.id.clone(),
            token_sha256: game.token_sha256.to_vec(),
            human: crate::side_name(game.human).to_string(),
            level: game.level.name().to_string(),
            start: game.game.start().to_text().to_string(),
            // Database integers are signed: the seed's bits are kept as they are.
            seed: game.seed as i64,
            rules: game.game.rules().to_string(),
            opponent: game.opponent.name().to_string(),
            guest_sha256: game.guest_sha256.map(|d| d.to_vec()),
            creator_name: game.names[game.human.index()].clone(),
            guest_name: game.names[game.human.other().index()].clone(),
            clock: [
                clock.map(|c| c.initial_ms),
                clock.map(|c| c.increment_ms),
                clock.map(|c| c.remaining_ms[0]),
                clock.map(|c| c.remaining_ms[1]),
                clock.and_then(|c| c.at_ms),
            ],
            version: game.version,
            end_reason: game.end.map(|e| e.kind.name().to_string()),
            loser: side_text(game.end.and_then(|e| e.winner.map(Side::other))),
            offers: [
                side_text(game.offers.draw),
                side_text(game.offers.takeback),
                side_text(game.offers.rematch),
            ],
            rematch_game: game.rematch_game.clone(),
            resigned: game.resigned(),
            over: game.is_over(),
        }
    }

    /// The game of this row, its moves (in the notation, by ply) replayed.
    pub fn into_game(self, moves: &[String]) -> Result<WebGame, ApiError> {
        let id = self.id;
        let corrupt = |what: &str| ApiError::internal(format!("game {id} in the database: {what}"));
        let token_sha256: [u8; 32] = self
            .token_sha256
            .try_into()
            .map_err(|_| corrupt("token digest"))?;
        let guest_sha256: Option<[u8; 32]> = match self.guest_sha256 {
            None => None,
            Some(d) => Some(d.try_into().map_err(|_| corrupt("guest digest"))?),
        };
        let side = |text: &Option<String>| -> Result<Option<Side>, ApiError> {
            match text {
                None => Ok(None),
                Some(t) => Side::from_name(t).map(Some).ok_or_else(|| corrupt("side")),
            }
        };
        let human = Side::from_name(&self.human).ok_or_else(|| corrupt("side"))?;
        let level = self.level.parse().map_err(|_| corrupt("level"))?;
        let rules: Rules = self.rules.parse().map_err(|_| corrupt("rules"))?;
        // The position's text holds no rules: it is read under the game's.
        let start = Position::from_text_with_rules(&self.start, rules)
            .map_err(|_| corrupt("start position"))?;
        let mut game = WebGame::new(
            id.clone(),
            token_sha256,
            human,
            level,
            self.seed as u64,
            start,
        );
        game.guest_sha256 = guest_sha256;
        game.opponent = self.opponent.parse().map_err(|_| corrupt("opponent"))?;
        game.names[human.index()] = self.creator_name;
        game.names[human.other().index()] = self.guest_name;
        game.clock = match self.clock {
            [Some(initial_ms), Some(increment_ms), Some(white), Some(black), at_ms] => {
                Some(Clock {
                    initial_ms,
                    increment_ms,
                    remaining_ms: [white, black],
                    at_ms,
                })
            }
            _ => None,
        };
        game.version = self.version;
        game.end = match self.end_reason {
            None => None,
            Some(reason) => Some(End {
                kind: EndKind::from_name(&reason).ok_or_else(|| corrupt("end reason"))?,
                winner: side(&self.loser)?.map(Side::other),
            }),
        };
        game.offers = Offers {
            draw: side(&self.offers[0])?,
            takeback: side(&self.offers[1])?,
            rematch: side(&self.offers[2])?,
        };
        game.rematch_game = self.rematch_game;
        for text in moves {
            let m = text.parse::<Move>().map_err(|_| corrupt("move text"))?;
            game.play(m).map_err(|_| corrupt("illegal move"))?;
        }
        Ok(game)
    }
}

/// One write of a [`Change`], in the order it was asked.
pub(crate) enum Op {
    /// A new game's row and moves.
    Insert {
        row: Box<GameRow>,
        moves: Vec<String>,
        now_ms: i64,
        deadline_ms: Option<i64>,
    },
    /// Moves from ply `from` on, stored at `now_ms`.
    Append {
        id: String,
        from: usize,
        moves: Vec<String>,
        now_ms: i64,
    },
    /// Deletes the moves from ply `keep` on.
    Truncate { id: String, keep: usize },
    /// Writes the row's changeable fields, if it still holds version `row.version - 1`.
    Save {
        row: Box<GameRow>,
        now_ms: i64,
        deadline_ms: Option<i64>,
    },
}

/// The rows one change of a game writes, in order: computed from the game as read (under
/// the store's lock), then written by [`Store::change`] in the same transaction.
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_web::{store::{Change, WebGame}, Level};
/// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
/// let mut change = Change::default();
/// game.play("f1-e1".parse()?)?;
/// change.append(&game, 0, 0);
/// change.save(&mut game, 0);
/// assert_eq!(game.version, 1, "the version is the change's");
/// assert_eq!(change.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct Change {
    pub(crate) ops: Vec<Op>,
}

impl Change {
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

/// `409 conflict`: the game changed between the read a change was computed from and its
/// write (a version or a `(game_id, ply)` taken by another writer).
pub(crate) fn conflict() -> ApiError {
    ApiError::conflict("conflict", "the game changed meanwhile: load it again")
}

/// Checks a database's schema version before any migration: `0` (a new database) up to
/// `newest`, the version this server writes. A newer one (a newer server's) or a negative
/// one (a file of another program, or corrupt) is refused with a precise error rather
/// than read as if it were ours.
fn known_version(version: i64, newest: i64) -> Result<(), ApiError> {
    if version > newest {
        return Err(ApiError::internal(format!(
            "database schema version {version} is newer than this server's ({newest})"
        )));
    }
    if version < 0 {
        return Err(ApiError::internal(format!(
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
    pub fn open(path: &std::path::Path) -> Result<Store, ApiError> {
        SqliteStore::open(path).map(Store::Sqlite)
    }

    /// Opens the database: a SQLite file, or a PostgreSQL server (its pool of at most
    /// `connections`), and applies the migrations it lacks.
    pub async fn connect(db: &Database, connections: usize) -> Result<Store, ApiError> {
        match db {
            Database::Sqlite(path) => {
                let path = path.clone();
                tokio::task::spawn_blocking(move || Store::open(&path))
                    .await
                    .map_err(|e| ApiError::internal(format!("worker: {e}")))?
            }
            Database::Postgres(url) => Ok(Store::Postgres(Box::new(
                PgStore::connect(url, connections).await?,
            ))),
        }
    }

    /// The game with this id, replayed, or `None`.
    pub async fn load(&self, id: &str) -> Result<Option<WebGame>, ApiError> {
        match self {
            Store::Sqlite(s) => s.load_async(id).await,
            Store::Postgres(p) => p.load(id).await,
        }
    }

    /// Stores a new game (its moves stored at `now_ms`).
    pub async fn insert(&self, game: &WebGame, now_ms: i64) -> Result<(), ApiError> {
        let game = game.clone();
        let id = game.id.clone();
        self.change(
            &id,
            move |change, _| {
                change.insert(&game, now_ms);
                Ok(((), None))
            },
            |_| (),
        )
        .await
        .map(|_| ())
    }

    /// Changes game `id` in one transaction: reads it under the write lock (`None`: no
    /// such game), lets `f` compute what to write (a [`Change`]) and answer, writes it,
    /// commits, and then calls `after` with the changed game: under the lock for SQLite
    /// (so in commit order), just after the commit for PostgreSQL, whose commit also
    /// notifies every server (`NOTIFY agon_games`). Nothing is written if `f` fails.
    /// Once called, the change runs to its end on both stores (on a blocking thread, in a
    /// task) even if the future is dropped: a committed change always gets its `after`.
    pub async fn change<T: Send + 'static>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Change, Option<WebGame>) -> Result<Changed<T>, ApiError> + Send + 'static,
        after: impl FnOnce(&WebGame) + Send + 'static,
    ) -> Result<Changed<T>, ApiError> {
        match self {
            Store::Sqlite(s) => s.change_async(id, f, after).await,
            Store::Postgres(p) => p.change(id, f, after).await,
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
    ) -> Result<usize, ApiError> {
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
    pub async fn running_clocks(&self, by_ms: i64) -> Result<Vec<String>, ApiError> {
        match self {
            Store::Sqlite(s) => s.blocking(move |s| s.running_clocks(by_ms)).await,
            Store::Postgres(p) => p.running_clocks(by_ms).await,
        }
    }

    /// The number of games and of moves stored.
    pub async fn counts(&self) -> Result<(i64, i64), ApiError> {
        match self {
            Store::Sqlite(s) => s.blocking(SqliteStore::counts).await,
            Store::Postgres(p) => p.counts().await,
        }
    }

    /// Runs `SELECT 1`: whether the database answers.
    pub async fn ping(&self) -> Result<(), ApiError> {
        match self {
            Store::Sqlite(s) => s.blocking(SqliteStore::ping).await,
            Store::Postgres(p) => p.ping().await,
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
