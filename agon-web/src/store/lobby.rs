//! The lobby (issue 33, point 2): open seeks and direct challenges, and the log of the
//! lobby's events that its streams read and resume from. Each operation is one
//! transaction that both stores run ([`Store::transact`]).
//!
//! Every change of the lobby first locks its one `lobby_head` row (`FOR UPDATE`; SQLite's
//! transaction holds the whole file), so changes are serialized, and each writes its
//! events with the next numbers of `lobby_head.seq`: the log has no gap and is committed
//! in order, whichever server wrote it. With PostgreSQL the same transaction notifies the
//! other servers (`lobby:SEQ:ORIGIN` on the games' channel), whose streams then read the
//! log from where they are.
//!
//! Accepting a seek deletes it and inserts its game in one transaction: of two accepts at
//! once, on one server or two, the second finds no seek ([`StoreError::NoSeek`]).

use super::accounts::{bytes, text};
use super::sql::{Cell, Rows, Statement, Value};
use super::{Change, Store, StoreError, CHANNEL};
use crate::game::lobby::SeekBounds;
use crate::game::WebGame;

/// The lobby's tables, one text for both dialects: SQLite's migration 7 to 8, PostgreSQL's
/// 5 to 6. `poster` is `account:ID` or `guest:DIGEST` ([`crate::game::lobby::Poster`]);
/// `seat_sha256` the digest of the seat token the poster will hold in the game;
/// `target_id` the account a direct challenge is for (NULL: an open seek); `seen_ms` when
/// a lobby stream of the poster last saw it. An event's `audience` is NULL for everyone,
/// else the accounts (`,ID,ID,`) a direct challenge concerns.
macro_rules! lobby_schema {
    () => {
        "
CREATE TABLE seeks (
    id            TEXT PRIMARY KEY,
    poster        TEXT NOT NULL,
    account_id    TEXT REFERENCES accounts(id),
    name          TEXT,
    seat_sha256   BYTEA NOT NULL,
    control       TEXT NOT NULL,
    rules         TEXT NOT NULL,
    rated         BOOLEAN NOT NULL,
    colour        TEXT NOT NULL CHECK (colour IN ('white', 'black', 'random')),
    target_id     TEXT REFERENCES accounts(id),
    target_name   TEXT,
    address       TEXT NOT NULL,
    created_ms    BIGINT NOT NULL,
    seen_ms       BIGINT NOT NULL
);
CREATE INDEX seeks_poster ON seeks (poster);
CREATE INDEX seeks_address ON seeks (address);
CREATE INDEX seeks_seen ON seeks (seen_ms);
CREATE TABLE lobby_events (
    seq           BIGINT PRIMARY KEY,
    at_ms         BIGINT NOT NULL,
    audience      TEXT,
    data          TEXT NOT NULL
);
CREATE INDEX lobby_events_at ON lobby_events (at_ms);
CREATE TABLE lobby_head (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    seq           BIGINT NOT NULL
);
INSERT INTO lobby_head (id, seq) VALUES (1, 0);
"
    };
}

/// The seeks' rating ranges (a seek for the players rated from `rating_min` to
/// `rating_max`, both inclusive; NULL: for everyone), one text for both dialects: SQLite's
/// migration 12 to 13, PostgreSQL's 10 to 11.
macro_rules! seek_range_schema {
    () => {
        "
ALTER TABLE seeks ADD COLUMN rating_min BIGINT;
ALTER TABLE seeks ADD COLUMN rating_max BIGINT;
"
    };
}

/// A seek as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Its public id: 16 hex digits.
    pub id: String,
    /// `account:ID` or `guest:DIGEST`.
    pub poster: String,
    /// The poster's account, if signed in.
    pub account_id: Option<String>,
    /// The poster's name as shown: the account's username, or a guest's display name.
    pub name: Option<String>,
    /// The digest of the poster's seat token in the game.
    pub seat_sha256: Vec<u8>,
    /// The time control's text (`5+3`, `correspondence`).
    pub control: String,
    /// The rule set's text.
    pub rules: String,
    /// Rated or casual.
    pub rated: bool,
    /// `white`, `black` or `random`: the poster's.
    pub colour: String,
    /// The account a direct challenge is for.
    pub target_id: Option<String>,
    /// Its username.
    pub target_name: Option<String>,
    /// The address it was posted from (the rate limits' key).
    pub address: String,
    /// When it was posted.
    pub created_ms: i64,
    /// When a lobby stream of its poster last saw it.
    pub seen_ms: i64,
    /// Whether the poster is a bot account (the lobby marks its seeks).
    pub bot: bool,
    /// The ratings it is for, lowest and highest, both inclusive (`None`: everyone):
    /// [`crate::game::lobby::RatingRange`] around the poster's rating when posted.
    pub range: Option<(i64, i64)>,
}

const SEEK: &str = "SELECT id, poster, account_id, name, seat_sha256, control, rules, rated, \
    colour, target_id, target_name, address, created_ms, seen_ms, bot, rating_min, rating_max FROM seeks";

fn seek_of(row: &[Cell]) -> Result<Seek, StoreError> {
    let opt = |cell: &Cell| match cell {
        Cell::Null => Ok(None),
        cell => cell.text().map(Some),
    };
    Ok(Seek {
        id: row[0].text()?,
        poster: row[1].text()?,
        account_id: opt(&row[2])?,
        name: opt(&row[3])?,
        seat_sha256: row[4].bytes()?,
        control: row[5].text()?,
        rules: row[6].text()?,
        rated: row[7].flag()?,
        colour: row[8].text()?,
        target_id: opt(&row[9])?,
        target_name: opt(&row[10])?,
        address: row[11].text()?,
        created_ms: row[12].int()?,
        seen_ms: row[13].int()?,
        bot: row[14].flag()?,
        range: match (row[15].opt_int()?, row[16].opt_int()?) {
            (Some(low), Some(high)) => Some((low, high)),
            _ => None,
        },
    })
}

/// One event of the lobby's log, as stored: its number, who may see it (`None`:
/// everyone; else the accounts it concerns) and its JSON text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyEvent {
    /// Its number: one more than the event before.
    pub seq: i64,
    /// The accounts it concerns, `None` for everyone.
    pub audience: Option<Vec<String>>,
    /// The event, in JSON.
    pub data: String,
}

impl LobbyEvent {
    /// Whether the viewer (signed in as `account`, or not) may see it.
    ///
    /// ```
    /// use agon_web::store::LobbyEvent;
    /// let e = LobbyEvent { seq: 1, audience: Some(vec!["a1".into()]), data: "{}".into() };
    /// assert!(e.shown_to(Some("a1")) && !e.shown_to(Some("b2")) && !e.shown_to(None));
    /// ```
    pub fn shown_to(&self, account: Option<&str>) -> bool {
        shown_to(self.audience.as_deref(), account)
    }
}

/// Whether a viewer signed in as `account` (or not) may see an event for `audience`
/// (`None`: everyone; else the accounts it concerns).
pub(crate) fn shown_to(audience: Option<&[String]>, account: Option<&str>) -> bool {
    match (audience, account) {
        (None, _) => true,
        (Some(ids), Some(account)) => ids.iter().any(|id| id == account),
        (Some(_), None) => false,
    }
}

/// How many of the oldest matching seeks [`Pairing::AnyOfOldest`] draws from.
pub(crate) const QUICK_CHOICE: usize = 8;

/// Whether `Store::post_seek` posts, or answers a waiting seek first (a quick pairing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pairing {
    /// Posts the seek.
    Post,
    /// Answers the oldest waiting seek that matches (who waited longest plays first).
    Oldest,
    /// Answers one of the [`QUICK_CHOICE`] oldest, drawn from the new seek's random id:
    /// after the oldest was taken by another, many pairings at once spread over the
    /// waiting seeks instead of all trying the next oldest, where all but one lose again.
    AnyOfOldest,
}

/// The most events one read of the log answers (`Store::lobby_events_after`).
pub(crate) const LOG_BATCH: usize = 1000;

/// What the log holds after a point (`Store::lobby_events_after`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyLog {
    /// The events after it, in order (none: nothing happened since).
    Events(Vec<LobbyEvent>),
    /// The point is older than the events kept: read the seeks whole again.
    Gap,
}

/// An event to log: its audience and its JSON text.
pub type NewEvent = (Option<Vec<String>>, String);

/// The read that locks the lobby (its head row) and gives the last event's number.
fn head() -> Statement {
    Statement::new("SELECT seq FROM lobby_head WHERE id = 1 FOR UPDATE", vec![])
}

/// The last event's number, from the rows of [`head`].
fn head_seq(rows: &Rows) -> Result<i64, StoreError> {
    rows.first()
        .map(|row| row[0].int())
        .unwrap_or(Err(StoreError::Database(
            "the lobby has no head row".into(),
        )))
}

fn audience_text(audience: &Option<Vec<String>>) -> Value {
    Value::OptText(audience.as_ref().map(|ids| format!(",{},", ids.join(","))))
}

impl Store {
    /// Stores a new seek and logs `event`, unless its poster or its address has as many
    /// open already as `bounds` allow ([`StoreError::TooManySeeks`]). With a [`Pairing`] other than `Post` (a quick
    /// pairing), an open seek of another poster with the same control, rules and rating
    /// is answered (`Err(id)`, nothing written) rather than a second one posted beside it:
    /// under the lobby's lock, so two quick pairings at once pair with each other. A
    /// seek with a rating range is answered only when `seeker_rating` (rounded; `None`:
    /// a guest) lies within it.
    /// Answers the event's number.
    pub(crate) async fn post_seek(
        &self,
        seek: Seek,
        event: NewEvent,
        pairing: Pairing,
        bounds: SeekBounds,
        seeker_rating: Option<i64>,
    ) -> Result<Result<i64, String>, StoreError> {
        let mut reads = vec![
            head(),
            Statement::new(
                "SELECT count(*) FROM seeks WHERE poster = ?1",
                vec![text(&seek.poster)],
            ),
            Statement::new(
                "SELECT count(*) FROM seeks WHERE address = ?1",
                vec![text(&seek.address)],
            ),
        ];
        if pairing != Pairing::Post {
            reads.push(Statement::new(
                "SELECT id FROM seeks WHERE target_id IS NULL AND control = ?1 AND rules = ?2 \
                 AND rated = ?3 AND poster <> ?4 \
                 AND (rating_min IS NULL OR (rating_min <= ?6 AND ?6 <= rating_max)) \
                 ORDER BY created_ms LIMIT ?5 FOR UPDATE",
                vec![
                    text(&seek.control),
                    text(&seek.rules),
                    Value::Bool(seek.rated),
                    text(&seek.poster),
                    Value::Int(Some(match pairing {
                        Pairing::AnyOfOldest => QUICK_CHOICE as i64,
                        _ => 1,
                    })),
                    Value::Int(seeker_rating),
                ],
            ));
        }
        let draw = seek
            .id
            .bytes()
            .fold(0usize, |h, b| h.wrapping_mul(31).wrapping_add(b.into()));
        let (log, now) = (self.log_fn(), seek.created_ms);
        let insert = Statement::new(
            "INSERT INTO seeks (id, poster, account_id, name, seat_sha256, control, rules, \
             rated, colour, target_id, target_name, address, created_ms, seen_ms, bot, \
             rating_min, rating_max) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?13, ?14, ?15, ?16)",
            vec![
                text(&seek.id),
                text(&seek.poster),
                Value::OptText(seek.account_id.clone()),
                Value::OptText(seek.name.clone()),
                bytes(&seek.seat_sha256),
                text(&seek.control),
                text(&seek.rules),
                Value::Bool(seek.rated),
                text(&seek.colour),
                Value::OptText(seek.target_id.clone()),
                Value::OptText(seek.target_name.clone()),
                text(&seek.address),
                Value::Int(Some(seek.created_ms)),
                Value::Bool(seek.bot),
                Value::Int(seek.range.map(|r| r.0)),
                Value::Int(seek.range.map(|r| r.1)),
            ],
        );
        let (answer, _) = self
            .transact(reads, move |rows| {
                if let Some(found) = rows.get(3).filter(|r| !r.is_empty()) {
                    return Ok((Vec::new(), Err(found[draw % found.len()][0].text()?)));
                }
                let mine = rows[1].first().map_or(Ok(0), |r| r[0].int())?;
                let here = rows[2].first().map_or(Ok(0), |r| r[0].int())?;
                let full =
                    |count: i64, bound: Option<u32>| bound.is_some_and(|b| count >= i64::from(b));
                if full(mine, bounds.per_player) || full(here, bounds.per_address) {
                    return Err(StoreError::TooManySeeks);
                }
                let (seq, log) = log(head_seq(&rows[0])?, vec![event], now);
                let mut writes = vec![insert];
                writes.extend(log);
                Ok((writes, Ok(seq)))
            })
            .await?;
        Ok(answer)
    }

    /// The writes that log events after event `seq` at `now_ms` (and, with PostgreSQL,
    /// tell the other servers), as a function a transaction's closure can own: the new
    /// last number and the statements.
    fn log_fn(&self) -> impl Fn(i64, Vec<NewEvent>, i64) -> (i64, Vec<Statement>) + Send + use<> {
        let origin = match self {
            Store::Postgres(p) => Some(p.origin().to_string()),
            Store::Sqlite(_) => None,
        };
        move |seq, events, now_ms| log_writes(seq, events, now_ms, origin.as_deref())
    }

    /// The seek of this id, or `None`.
    pub(crate) async fn seek(&self, id: &str) -> Result<Option<Seek>, StoreError> {
        let read = Statement::new(format!("{SEEK} WHERE id = ?1"), vec![text(id)]);
        let (found, _) = self
            .transact(vec![read], |rows| {
                let found = rows[0].first().map(|row| seek_of(row)).transpose()?;
                Ok((Vec::new(), found))
            })
            .await?;
        Ok(found)
    }

    /// The open seeks everyone sees and the direct challenges from or to `account`,
    /// oldest first, with the number of the last event they include.
    pub(crate) async fn seeks(
        &self,
        account: Option<&str>,
    ) -> Result<(Vec<Seek>, i64), StoreError> {
        let account = account.unwrap_or("");
        let reads = vec![
            Statement::new("SELECT seq FROM lobby_head WHERE id = 1", vec![]),
            Statement::new(
                format!(
                    "{SEEK} WHERE target_id IS NULL OR target_id = ?1 OR account_id = ?1 \
                     ORDER BY created_ms, id"
                ),
                vec![text(account)],
            ),
        ];
        let (found, _) = self
            .transact(reads, |rows| {
                let seq = head_seq(&rows[0])?;
                let seeks = rows[1]
                    .iter()
                    .map(|r| seek_of(r))
                    .collect::<Result<_, _>>()?;
                Ok((Vec::new(), (seeks, seq)))
            })
            .await?;
        Ok(found)
    }

    /// Deletes seek `id` if `allowed` says so of it (else its error; [`StoreError::NoSeek`]
    /// when it is gone), logging the event `event` makes of it; answers the event's number.
    pub(crate) async fn remove_seek(
        &self,
        id: &str,
        now_ms: i64,
        allowed: impl FnOnce(&Seek) -> Result<NewEvent, StoreError> + Send + 'static,
    ) -> Result<i64, StoreError> {
        let reads = vec![
            head(),
            Statement::new(format!("{SEEK} WHERE id = ?1 FOR UPDATE"), vec![text(id)]),
        ];
        let log = self.log_fn();
        let delete = Statement::new("DELETE FROM seeks WHERE id = ?1", vec![text(id)])
            .one_row(StoreError::NoSeek);
        let (seq, _) = self
            .transact(reads, move |rows| {
                let seek = rows[1].first().ok_or(StoreError::NoSeek)?;
                let event = allowed(&seek_of(seek)?)?;
                let (seq, log) = log(head_seq(&rows[0])?, vec![event], now_ms);
                let mut writes = vec![delete];
                writes.extend(log);
                Ok((writes, seq))
            })
            .await?;
        Ok(seq)
    }

    /// Accepts seek `id`: deletes it and inserts `game` (with the seats' accounts,
    /// `seat_accounts`: `(side, account id, rating at the start if rated)`) in one
    /// transaction, logging `event`;
    /// [`StoreError::NoSeek`] if it is gone (accepted, cancelled or expired meanwhile).
    /// Answers the event's number.
    pub(crate) async fn accept_seek(
        &self,
        id: &str,
        game: &WebGame,
        seat_accounts: Vec<(agon_core::Side, String, Option<crate::game::rating::Rating>)>,
        event: NewEvent,
        now_ms: i64,
    ) -> Result<i64, StoreError> {
        let reads = vec![
            head(),
            Statement::new(
                "SELECT id FROM seeks WHERE id = ?1 FOR UPDATE",
                vec![text(id)],
            ),
        ];
        let log = self.log_fn();
        let mut change = Change::at(now_ms);
        change.insert(game, now_ms);
        for (side, account, rating) in &seat_accounts {
            change.seat(&game.id, *side, account, rating.as_ref());
        }
        let mut writes = vec![
            Statement::new("DELETE FROM seeks WHERE id = ?1", vec![text(id)])
                .one_row(StoreError::NoSeek),
        ];
        for op in change.ops {
            writes.extend(op.statements());
        }
        let (seq, _) = self
            .transact(reads, move |rows| {
                if rows[1].is_empty() {
                    return Err(StoreError::NoSeek);
                }
                let (seq, log) = log(head_seq(&rows[0])?, vec![event], now_ms);
                writes.extend(log);
                Ok((writes, seq))
            })
            .await?;
        Ok(seq)
    }

    /// Marks the seeks of `poster` seen at `now_ms` (its lobby stream is open); answers
    /// how many there are.
    pub(crate) async fn see_seeks(&self, poster: &str, now_ms: i64) -> Result<u64, StoreError> {
        let write = Statement::new(
            "UPDATE seeks SET seen_ms = ?2 WHERE poster = ?1",
            vec![text(poster), Value::Int(Some(now_ms))],
        );
        let (_, changed) = self
            .transact(Vec::new(), move |_| Ok((vec![write], ())))
            .await?;
        Ok(changed[0])
    }

    /// Deletes the seeks not seen since `unseen_ms`, logging the event `event` makes of
    /// each, and the events logged before `events_ms`; answers the last event's number
    /// if any seek expired.
    pub(crate) async fn expire_seeks(
        &self,
        unseen_ms: i64,
        events_ms: i64,
        now_ms: i64,
        event: impl Fn(&Seek) -> NewEvent + Send + 'static,
    ) -> Result<Option<i64>, StoreError> {
        let reads = vec![
            head(),
            Statement::new(
                format!("{SEEK} WHERE seen_ms < ?1 ORDER BY created_ms FOR UPDATE"),
                vec![Value::Int(Some(unseen_ms))],
            ),
        ];
        let log = self.log_fn();
        let (seq, _) = self
            .transact(reads, move |rows| {
                let seeks: Vec<Seek> = rows[1]
                    .iter()
                    .map(|r| seek_of(r))
                    .collect::<Result<_, _>>()?;
                let mut writes: Vec<Statement> = seeks
                    .iter()
                    .map(|s| Statement::new("DELETE FROM seeks WHERE id = ?1", vec![text(&s.id)]))
                    .collect();
                writes.push(Statement::new(
                    "DELETE FROM lobby_events WHERE at_ms < ?1",
                    vec![Value::Int(Some(events_ms))],
                ));
                let events = seeks.iter().map(&event).collect();
                let (seq, log) = log(head_seq(&rows[0])?, events, now_ms);
                writes.extend(log);
                Ok((writes, (!seeks.is_empty()).then_some(seq)))
            })
            .await?;
        Ok(seq)
    }

    /// The lobby's events after number `after` (at most [`LOG_BATCH`] of them, the oldest),
    /// or [`LobbyLog::Gap`] when some of them are no longer kept; with the number of the
    /// lobby's last event.
    pub(crate) async fn lobby_events_after(
        &self,
        after: i64,
    ) -> Result<(LobbyLog, i64), StoreError> {
        let reads = vec![
            Statement::new("SELECT seq FROM lobby_head WHERE id = 1", vec![]),
            Statement::new(
                "SELECT seq, audience, data FROM lobby_events WHERE seq > ?1 ORDER BY seq LIMIT ?2",
                vec![Value::Int(Some(after)), Value::Int(Some(LOG_BATCH as i64))],
            ),
        ];
        let (log, _) = self
            .transact(reads, move |rows| {
                let last = head_seq(&rows[0])?;
                let events = rows[1]
                    .iter()
                    .map(|row| {
                        let audience = match &row[1] {
                            Cell::Null => None,
                            cell => Some(
                                cell.text()?
                                    .split(',')
                                    .filter(|s| !s.is_empty())
                                    .map(str::to_string)
                                    .collect(),
                            ),
                        };
                        Ok(LobbyEvent {
                            seq: row[0].int()?,
                            audience,
                            data: row[2].text()?,
                        })
                    })
                    .collect::<Result<Vec<_>, StoreError>>()?;
                let complete = match events.first() {
                    Some(first) => first.seq == after + 1,
                    None => last <= after,
                };
                let log = match complete {
                    true => LobbyLog::Events(events),
                    false => LobbyLog::Gap,
                };
                Ok((Vec::new(), (log, last)))
            })
            .await?;
        Ok(log)
    }

    /// The games between people being played now (both seats taken, not over), the most
    /// recently changed first, at most `limit`: their ids.
    pub(crate) async fn live_games(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        let read = Statement::new(
            "SELECT id FROM games WHERE opponent = 'friend' AND guest_sha256 IS NOT NULL \
             AND over = ?1 AND end_reason IS NULL AND aborted = ?1 \
             ORDER BY touched_ms DESC LIMIT ?2",
            vec![Value::Bool(false), Value::Int(Some(limit))],
        );
        let (ids, _) = self
            .transact(vec![read], |rows| {
                let ids = rows[0]
                    .iter()
                    .map(|r| r[0].text())
                    .collect::<Result<_, _>>()?;
                Ok((Vec::new(), ids))
            })
            .await?;
        Ok(ids)
    }
}

/// The statements of `Store::log_fn`, `origin` the PostgreSQL server's (`None`: SQLite).
fn log_writes(
    seq: i64,
    events: Vec<NewEvent>,
    now_ms: i64,
    origin: Option<&str>,
) -> (i64, Vec<Statement>) {
    let mut writes = Vec::new();
    let mut last = seq;
    for (audience, data) in events {
        last += 1;
        writes.push(Statement::new(
            "INSERT INTO lobby_events (seq, at_ms, audience, data) VALUES (?1, ?2, ?3, ?4)",
            vec![
                Value::Int(Some(last)),
                Value::Int(Some(now_ms)),
                audience_text(&audience),
                Value::Text(data),
            ],
        ));
    }
    if last == seq {
        return (seq, writes);
    }
    writes.push(Statement::new(
        "UPDATE lobby_head SET seq = ?1 WHERE id = 1",
        vec![Value::Int(Some(last))],
    ));
    if let Some(origin) = origin {
        // Sent at the commit, with it: never before the rows are there to read.
        writes.push(Statement::new(
            "SELECT pg_notify(?1, ?2)",
            vec![
                Value::Text(CHANNEL.into()),
                Value::Text(format!("lobby:{last}:{origin}")),
            ],
        ));
    }
    (last, writes)
}
