//! The game reviews (issue 34, point 3): one row a game, kept with it (`ON DELETE
//! CASCADE`: a pruned game takes its review along). Each operation is one transaction
//! that both stores run ([`Store::transact`]).
//!
//! A review is computed once across servers: the row's primary key is the game's id, so a
//! second request (on any server) finds the row and joins it; a server's review task
//! claims a `queued` row by a conditional update (`WHERE state = 'queued'`), which only
//! one server's can win. A `running` row whose server stopped touching it for
//! [`STALE_MS`] (the server died) may be claimed again; its result is written only by an
//! update `WHERE state <> 'done'`, and a review's figures depend on the game and the
//! budget alone, so two servers that both ran it write the same figures once.
//!
//! **Failures are bounded.** Each claim counts an attempt: a review that fails
//! ([`Store::fail_review`]) goes back to the queue until it has had [`MAX_ATTEMPTS`],
//! then is kept `failed` with its reason, and so is a `running` one whose server stopped
//! [`MAX_ATTEMPTS`] times while computing it (a game that kills its server is not tried
//! forever). A request for a failed review queues it again, [`MAX_REQUEUES`] time(s) in
//! all; after that the failure is answered as it stands.
//!
//! **The queue's bound is exact.** A request first locks the one row of `review_queue`
//! (`FOR UPDATE`; SQLite's `IMMEDIATE` transaction holds the whole file), then counts the
//! queued reviews and inserts: requests at once, on one server or many, count one after
//! the other, so no more than `max_queued` ever wait. (Counting without the lock let two
//! PostgreSQL transactions both see room for one and both insert.)

use super::sql::{Cell, Statement, Value};
use super::{Store, StoreError};

/// The reviews' table, one text for both dialects: SQLite's migration 9 to 10,
/// PostgreSQL's 7 to 8. `state` is `queued`, `running` or `done`; `done` counts the
/// positions evaluated of `total` (one more than the game's plies); `data` is the
/// finished review's figures in JSON; `owner` the server that runs it, `touched_ms` when
/// it last wrote (its progress).
macro_rules! reviews_schema {
    () => {
        "
CREATE TABLE reviews (
    game_id       TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done')),
    nodes         BIGINT NOT NULL,
    total         BIGINT NOT NULL,
    done          BIGINT NOT NULL,
    data          TEXT,
    owner         TEXT,
    requested_ms  BIGINT NOT NULL,
    touched_ms    BIGINT NOT NULL
);
CREATE INDEX reviews_state ON reviews (state, requested_ms);
"
    };
}

/// The reviews' failures and the queue's lock, one text for both dialects: SQLite's
/// migration 11 to 12, PostgreSQL's 9 to 10. The table is rebuilt (SQLite cannot widen a
/// `CHECK`) with the state `failed`, `attempts` (the claims so far), `failure` (the last
/// failure's reason) and `requeued` (the times a request queued it again after it
/// failed); `review_queue`'s one row is what a request locks to count and insert alone.
macro_rules! review_failures_schema {
    () => {
        "
CREATE TABLE reviews_new (
    game_id       TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    state         TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
    nodes         BIGINT NOT NULL,
    total         BIGINT NOT NULL,
    done          BIGINT NOT NULL,
    data          TEXT,
    owner         TEXT,
    requested_ms  BIGINT NOT NULL,
    touched_ms    BIGINT NOT NULL,
    attempts      BIGINT NOT NULL DEFAULT 0,
    failure       TEXT,
    requeued      BIGINT NOT NULL DEFAULT 0
);
INSERT INTO reviews_new (game_id, state, nodes, total, done, data, owner, requested_ms, touched_ms)
    SELECT game_id, state, nodes, total, done, data, owner, requested_ms, touched_ms FROM reviews;
DROP TABLE reviews;
ALTER TABLE reviews_new RENAME TO reviews;
CREATE INDEX reviews_state ON reviews (state, requested_ms);
CREATE TABLE review_queue (
    id            INTEGER PRIMARY KEY CHECK (id = 1)
);
INSERT INTO review_queue (id) VALUES (1);
"
    };
}

/// How many times a review is claimed (computed, or left by a server that stopped)
/// before it is kept `failed`.
pub const MAX_ATTEMPTS: i64 = 3;

/// How many times a request may queue a failed review again.
pub const MAX_REQUEUES: i64 = 1;

/// How long a `running` review may go without progress before another server (or this
/// one, restarted) claims it again: a position takes well under a second.
pub const STALE_MS: i64 = 60_000;

/// A review as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredReview {
    /// The game's id.
    pub game_id: String,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// The node budget of each position.
    pub nodes: i64,
    /// The positions to evaluate: the game's plies and one.
    pub total: i64,
    /// The positions evaluated so far.
    pub done: i64,
    /// The finished review's figures, in JSON.
    pub data: Option<String>,
    /// Why it failed last (kept `failed`, or queued again after a failure).
    pub failure: Option<String>,
    /// The times a request queued it again after it failed (at most [`MAX_REQUEUES`]).
    pub requeued: i64,
}

impl StoredReview {
    /// Whether a request would queue this review again: it failed, and was not queued
    /// again [`MAX_REQUEUES`] times already.
    ///
    /// ```
    /// use agon_web::store::{StoredReview, MAX_REQUEUES};
    /// let failed = StoredReview { game_id: "0011223344556677".into(), state: "failed".into(),
    ///     nodes: 50, total: 2, done: 0, data: None, failure: Some("why".into()), requeued: 0 };
    /// assert!(failed.retry());
    /// assert!(!StoredReview { requeued: MAX_REQUEUES, ..failed.clone() }.retry());
    /// assert!(!StoredReview { state: "done".into(), ..failed }.retry());
    /// ```
    pub fn retry(&self) -> bool {
        self.state == "failed" && self.requeued < MAX_REQUEUES
    }
}

const REVIEW: &str =
    "SELECT game_id, state, nodes, total, done, data, failure, requeued FROM reviews";

/// The read that locks the queue (its one row), so that requests count and insert one
/// after the other.
const LOCK_QUEUE: &str = "SELECT id FROM review_queue WHERE id = 1 FOR UPDATE";

fn opt_text(cell: &Cell) -> Result<Option<String>, StoreError> {
    match cell {
        Cell::Null => Ok(None),
        cell => cell.text().map(Some),
    }
}

fn review_of(row: &[Cell]) -> Result<StoredReview, StoreError> {
    Ok(StoredReview {
        game_id: row[0].text()?,
        state: row[1].text()?,
        nodes: row[2].int()?,
        total: row[3].int()?,
        done: row[4].int()?,
        data: opt_text(&row[5])?,
        failure: opt_text(&row[6])?,
        requeued: row[7].int()?,
    })
}

/// What a request for a review found ([`Store::request_review`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Requested {
    /// The game's review was queued, running or done already: the request joins it.
    Existing(StoredReview),
    /// A new review was queued, or a failed one queued again.
    Queued(StoredReview),
    /// The queue holds as many reviews as it may: nothing was written.
    Full,
}

impl Store {
    /// Queues the review of game `game_id` (`total` positions, `nodes` each), unless it
    /// has one already (answered as it stands; a failed one is queued again if
    /// [`StoredReview::retry`]) or `max_queued` reviews wait already
    /// ([`Requested::Full`]). The queue's row is locked first, so that of requests at
    /// once, on one server or many, each counts what the ones before it queued: the
    /// bound is exact.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use agon_web::store::Requested;
    /// let dir = tempfile::tempdir().unwrap();
    /// let store = agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap();
    /// let game = agon_web::game::WebGame::new("0011223344556677".into(), [0; 32],
    ///     agon_core::Side::White, agon_web::Level::Easy, 1, agon_core::Position::start());
    /// store.insert(&game, 1).await.unwrap();
    /// let id = "0011223344556677";
    /// assert!(matches!(store.request_review(id, 1, 50, 8, 1).await, Ok(Requested::Queued(_))));
    /// // Asked again: the same row, joined.
    /// assert!(matches!(store.request_review(id, 1, 50, 8, 2).await, Ok(Requested::Existing(_))));
    /// // One server claims it, runs it, stores it; then there is nothing left to claim.
    /// let claimed = store.claim_review("a", 3).await.unwrap().unwrap();
    /// assert_eq!((claimed.game_id.as_str(), claimed.state.as_str()), (id, "running"));
    /// assert_eq!(store.claim_review("b", 3).await.unwrap(), None);
    /// store.review_progress(id, "a", 1, 4).await.unwrap();
    /// assert_eq!(store.finish_review(id, "{}".into(), 5).await, Ok(true));
    /// assert_eq!(store.finish_review(id, "{}".into(), 6).await, Ok(false), "once");
    /// let done = store.review(id).await.unwrap().unwrap();
    /// assert_eq!((done.state.as_str(), done.done, done.data.as_deref()), ("done", 1, Some("{}")));
    /// # });
    /// ```
    pub async fn request_review(
        &self,
        game_id: &str,
        total: i64,
        nodes: i64,
        max_queued: i64,
        now_ms: i64,
    ) -> Result<Requested, StoreError> {
        let id = game_id.to_string();
        let reads = vec![
            Statement::new(LOCK_QUEUE, vec![]),
            Statement::new(
                format!("{REVIEW} WHERE game_id = ?1"),
                vec![Value::Text(id.clone())],
            ),
            Statement::new(
                "SELECT count(*) FROM reviews WHERE state = 'queued'",
                vec![],
            ),
        ];
        let (requested, _) = self
            .transact(reads, move |rows| {
                let existing = rows[1].first().map(|row| review_of(row)).transpose()?;
                if let Some(existing) = &existing {
                    if !existing.retry() {
                        return Ok((Vec::new(), Requested::Existing(existing.clone())));
                    }
                }
                let queued = rows[2].first().map_or(Ok(0), |r| r[0].int())?;
                if queued >= max_queued {
                    return Ok((Vec::new(), Requested::Full));
                }
                let (write, row) = match existing {
                    // A failed review, queued again from the start, once more counted.
                    Some(failed) => (
                        Statement::new(
                            "UPDATE reviews SET state = 'queued', done = 0, owner = NULL, \
                             attempts = 0, requeued = requeued + 1, requested_ms = ?1, \
                             touched_ms = ?1 WHERE game_id = ?2 AND state = 'failed'",
                            vec![Value::Int(Some(now_ms)), Value::Text(id)],
                        )
                        .one_row(StoreError::Conflict),
                        StoredReview {
                            state: "queued".into(),
                            done: 0,
                            requeued: failed.requeued + 1,
                            ..failed
                        },
                    ),
                    None => (
                        Statement::new(
                            "INSERT INTO reviews (game_id, state, nodes, total, done, requested_ms, touched_ms) \
                             VALUES (?1, 'queued', ?2, ?3, 0, ?4, ?4)",
                            vec![
                                Value::Text(id.clone()),
                                Value::Int(Some(nodes)),
                                Value::Int(Some(total)),
                                Value::Int(Some(now_ms)),
                            ],
                        ),
                        StoredReview {
                            game_id: id,
                            state: "queued".into(),
                            nodes,
                            total,
                            done: 0,
                            data: None,
                            failure: None,
                            requeued: 0,
                        },
                    ),
                };
                Ok((vec![write], Requested::Queued(row)))
            })
            .await?;
        Ok(requested)
    }

    /// The review of game `game_id`, if one was requested.
    pub async fn review(&self, game_id: &str) -> Result<Option<StoredReview>, StoreError> {
        let reads = vec![Statement::new(
            format!("{REVIEW} WHERE game_id = ?1"),
            vec![Value::Text(game_id.to_string())],
        )];
        let (review, _) = self
            .transact(reads, |rows| {
                let review = rows[0].first().map(|row| review_of(row)).transpose()?;
                Ok((Vec::new(), review))
            })
            .await?;
        Ok(review)
    }

    /// Claims the oldest queued review (or a running one left [`STALE_MS`] without
    /// progress) for server `owner`: answers it, now `running`, or `None` when there is
    /// none. Each claim counts an attempt; a running one left stale after
    /// [`MAX_ATTEMPTS`] is not claimed but kept `failed` (its server stopped each time).
    /// The update's `WHERE` repeats the condition, so that of two servers claiming the
    /// same row one changes it and the other fails with [`StoreError::Conflict`] (and
    /// looks again).
    pub async fn claim_review(
        &self,
        owner: &str,
        now_ms: i64,
    ) -> Result<Option<StoredReview>, StoreError> {
        let stale = now_ms - STALE_MS;
        let claimable = format!(
            "(state = 'queued' OR (state = 'running' AND touched_ms < ?1 \
             AND attempts < {MAX_ATTEMPTS}))"
        );
        let reads = vec![Statement::new(
            format!("{REVIEW} WHERE {claimable} ORDER BY requested_ms, game_id LIMIT 1"),
            vec![Value::Int(Some(stale))],
        )];
        let owner = owner.to_string();
        let (claimed, _) = self
            .transact(reads, move |rows| {
                let given_up = Statement::new(
                    format!(
                        "UPDATE reviews SET state = 'failed', owner = NULL, touched_ms = ?2, \
                         failure = 'its server stopped while computing it, {MAX_ATTEMPTS} times' \
                         WHERE state = 'running' AND touched_ms < ?1 AND attempts >= {MAX_ATTEMPTS}"
                    ),
                    vec![Value::Int(Some(stale)), Value::Int(Some(now_ms))],
                );
                let Some(row) = rows[0].first() else {
                    return Ok((vec![given_up], None));
                };
                let mut review = review_of(row)?;
                let update = Statement::new(
                    format!(
                        "UPDATE reviews SET state = 'running', owner = ?2, done = 0, touched_ms = ?3, \
                         attempts = attempts + 1 WHERE game_id = ?4 AND {claimable}"
                    ),
                    vec![
                        Value::Int(Some(stale)),
                        Value::Text(owner),
                        Value::Int(Some(now_ms)),
                        Value::Text(review.game_id.clone()),
                    ],
                )
                .one_row(StoreError::Conflict);
                review.state = "running".into();
                review.done = 0;
                Ok((vec![given_up, update], Some(review)))
            })
            .await?;
        Ok(claimed)
    }

    /// Records that the review of game `game_id`, run by server `owner`, failed for
    /// `reason`: queued again if it has had fewer than [`MAX_ATTEMPTS`], else kept
    /// `failed`. Answers the state it is left in (`None`: `owner` no longer ran it).
    pub async fn fail_review(
        &self,
        game_id: &str,
        owner: &str,
        reason: &str,
        now_ms: i64,
    ) -> Result<Option<String>, StoreError> {
        let mut reason = reason.to_string();
        // A reason is for people: a line, not a dump.
        if let Some((cut, _)) = reason.char_indices().nth(500) {
            reason.truncate(cut);
        }
        let update = Statement::new(
            format!(
                "UPDATE reviews SET state = CASE WHEN attempts >= {MAX_ATTEMPTS} THEN 'failed' \
                 ELSE 'queued' END, owner = NULL, done = 0, failure = ?1, touched_ms = ?2 \
                 WHERE game_id = ?3 AND owner = ?4 AND state = 'running'"
            ),
            vec![
                Value::Text(reason),
                Value::Int(Some(now_ms)),
                Value::Text(game_id.to_string()),
                Value::Text(owner.to_string()),
            ],
        );
        let reads =
            vec![Statement::new(
            "SELECT attempts FROM reviews WHERE game_id = ?1 AND owner = ?2 AND state = 'running' \
             FOR UPDATE",
            vec![Value::Text(game_id.to_string()), Value::Text(owner.to_string())],
        )];
        let (state, _) = self
            .transact(reads, move |rows| {
                let Some(row) = rows[0].first() else {
                    return Ok((Vec::new(), None));
                };
                let state = if row[0].int()? >= MAX_ATTEMPTS {
                    "failed"
                } else {
                    "queued"
                };
                Ok((vec![update], Some(state.to_string())))
            })
            .await?;
        Ok(state)
    }

    /// Records that `done` positions of game `game_id`'s review are evaluated, if
    /// server `owner` still runs it.
    pub async fn review_progress(
        &self,
        game_id: &str,
        owner: &str,
        done: i64,
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let update = Statement::new(
            "UPDATE reviews SET done = ?1, touched_ms = ?2 \
             WHERE game_id = ?3 AND owner = ?4 AND state = 'running'",
            vec![
                Value::Int(Some(done)),
                Value::Int(Some(now_ms)),
                Value::Text(game_id.to_string()),
                Value::Text(owner.to_string()),
            ],
        );
        self.transact(Vec::new(), move |_| Ok((vec![update], ())))
            .await
            .map(|_| ())
    }

    /// Stores the finished review of game `game_id` (its figures in JSON), unless it is
    /// stored already: answers whether this write stored it.
    pub async fn finish_review(
        &self,
        game_id: &str,
        data: String,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let update = Statement::new(
            "UPDATE reviews SET state = 'done', done = total, data = ?1, touched_ms = ?2 \
             WHERE game_id = ?3 AND state <> 'done'",
            vec![
                Value::Text(data),
                Value::Int(Some(now_ms)),
                Value::Text(game_id.to_string()),
            ],
        );
        let (_, changed) = self
            .transact(Vec::new(), move |_| Ok((vec![update], ())))
            .await?;
        Ok(changed.first() == Some(&1))
    }
}
