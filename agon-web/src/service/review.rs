//! Game review on the server (issue 34, point 3): a finished game's review computed once
//! and kept (`request`, `status`), by a bounded queue of its own ([`start`]) that
//! never takes the search workers that answer moves.
//!
//! A request queues the review in the database (one row a game: a second request, on
//! any server, joins it); each server runs [`ReviewQueue::workers`] review tasks
//! (`--review-workers`, default [`DEFAULT_REVIEW_WORKERS`]), each claiming the oldest
//! queued review ([`Store::claim_review`](crate::store::Store::claim_review)) and
//! computing it on a blocking thread of its own, position by position with
//! `agon_bots::review_with_progress`, writing its progress as it goes, then its figures.
//! At most [`ReviewQueue::max_queued`] reviews wait (`--max-queued-reviews`, default
//! [`DEFAULT_MAX_QUEUED`]): past that a request is answered `503 review-queue-full`.
//!
//! The budget is fixed ([`agon_bots::Review::DEFAULT_NODES`] a position), so a game's
//! review has the same figures whichever server computes it, and the same as Python's
//! `agon.review(game)`, which wraps the same `agon_bots::review`.

use std::sync::Arc;
use std::time::Duration;

use agon_bots::{Judgement, Review, Tally};
use agon_core::{Game, Move, Side};
use agon_svg::{EvaluationGraph, Mark};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{load_game, AppState};
use crate::error::ApiError;
use crate::ids;
use crate::store::{Requested, StoreError, StoredReview};

/// The review tasks a server runs unless told otherwise: one review at a time, so that a
/// long game takes at most one core from the searches that answer moves.
pub const DEFAULT_REVIEW_WORKERS: usize = 1;

/// The most reviews that may wait in the queue (across servers) unless told otherwise.
pub const DEFAULT_MAX_QUEUED: usize = 32;

/// How often an idle review task looks for work queued by another server, or left by a
/// server that stopped: a request on this server wakes it at once.
const POLL_EVERY: Duration = Duration::from_secs(5);

/// The least time between two writes of a review's progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// A server's review queue: its bounds, its budget and the bell its tasks wait on.
///
/// ```
/// let queue = agon_web::service::review::ReviewQueue::new(2, 10);
/// assert_eq!((queue.workers, queue.max_queued), (2, 10));
/// assert_eq!(queue.nodes, agon_bots::Review::DEFAULT_NODES);
/// ```
#[derive(Debug)]
pub struct ReviewQueue {
    /// The review tasks this server runs (at least 1).
    pub workers: usize,
    /// The most reviews that may wait, across servers.
    pub max_queued: usize,
    /// The node budget of each position: [`agon_bots::Review::DEFAULT_NODES`]; only
    /// tests lower it, to stay fast (a review records its budget).
    pub nodes: u64,
    /// This server's name in the rows it claims (random).
    pub owner: String,
    /// Rung when a review is queued here.
    wake: tokio::sync::Notify,
}

impl ReviewQueue {
    /// A queue of `workers` tasks (at least one) and at most `max_queued` waiting.
    pub fn new(workers: usize, max_queued: usize) -> ReviewQueue {
        ReviewQueue {
            workers: workers.max(1),
            max_queued,
            nodes: Review::DEFAULT_NODES,
            owner: ids::random_hex::<6>().unwrap_or_else(|_| "server".into()),
            wake: tokio::sync::Notify::new(),
        }
    }

    /// The queue with another node budget a position: what tests use to stay fast (the
    /// server always reviews at [`agon_bots::Review::DEFAULT_NODES`]).
    ///
    /// ```
    /// let queue = agon_web::service::review::ReviewQueue::new(1, 4).with_nodes(2_000);
    /// assert_eq!(queue.nodes, 2_000);
    /// ```
    pub fn with_nodes(self, nodes: u64) -> ReviewQueue {
        ReviewQueue {
            nodes: nodes.max(1),
            ..self
        }
    }
}

/// A player's counts in a review.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, ToSchema)]
pub struct TallyFigures {
    /// The actions the player took.
    pub actions: usize,
    /// Inaccuracies (a loss of 0.05 to 0.10 of a point).
    pub inaccuracies: usize,
    /// Mistakes (0.10 to 0.15).
    pub mistakes: usize,
    /// Blunders (0.15 or more).
    pub blunders: usize,
    /// The mean loss per action, in expected score.
    pub mean_loss: f64,
}

impl From<Tally> for TallyFigures {
    fn from(t: Tally) -> TallyFigures {
        TallyFigures {
            actions: t.actions,
            inaccuracies: t.inaccuracies,
            mistakes: t.mistakes,
            blunders: t.blunders,
            mean_loss: t.mean_loss,
        }
    }
}

/// One position of a review.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, ToSchema)]
pub struct PositionFigures {
    /// The player to act: `white` or `black`.
    pub side: String,
    /// White's expected score here, from 0 to 1: the curve of the graph.
    pub white: f64,
    /// The engine's score for `side` in centipoints (`None`: a forced result, or the game
    /// is over).
    pub cp: Option<i32>,
    /// A forced win of `side` with its N-th move.
    pub win_in: Option<u32>,
    /// A forced loss of `side` with the opponent's N-th move.
    pub loss_in: Option<u32>,
    /// The engine's move, `None` where the game is over.
    pub best: Option<String>,
    /// The line the engine expects from here.
    pub pv: Vec<String>,
}

/// One action of a review.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, ToSchema)]
pub struct PlyFigures {
    /// Its index in the game's moves, from 0: the position before it is `positions[ply]`.
    pub ply: usize,
    /// The player who took it: `white` or `black`.
    pub side: String,
    /// The action.
    pub played: String,
    /// The engine's choice in the same position.
    pub best: String,
    /// The player's expected score before it, 0 to 1.
    pub before: f64,
    /// The player's expected score after it.
    pub after: f64,
    /// What it gave away: `before - after`, at least 0 (0 for the engine's own choice).
    pub loss: f64,
    /// `inaccuracy` (a loss of at least 0.05), `mistake` (0.10), `blunder` (0.15), or
    /// `None`.
    pub judgement: Option<String>,
}

/// The figures of a finished review: what `agon_bots::review` gives, in JSON, with the
/// counts per player and the evaluation graph (agon-svg's `EvaluationGraph`).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, ToSchema)]
pub struct ReviewFigures {
    /// The node budget of each position.
    pub nodes: u64,
    /// Every position, the start first: one more than the actions.
    pub positions: Vec<PositionFigures>,
    /// Every action, in order.
    pub plies: Vec<PlyFigures>,
    /// White's counts.
    pub white: TallyFigures,
    /// Black's counts.
    pub black: TallyFigures,
    /// The evaluation graph, SVG: White's expected score at each position, the marked
    /// actions as dots (`data-position`: the position the action led to).
    pub graph: String,
}

impl ReviewFigures {
    /// The figures of `review`.
    ///
    /// ```
    /// use agon_web::service::review::ReviewFigures;
    /// let mut game = agon_core::Game::new();
    /// game.play("f1-e1".parse()?)?;
    /// let figures = ReviewFigures::of(&agon_bots::review(&game, 1_000));
    /// assert_eq!((figures.positions.len(), figures.plies[0].played.as_str()), (2, "f1-e1"));
    /// assert_eq!(figures.white.actions, 1);
    /// assert!(figures.graph.starts_with("<svg"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of(review: &Review) -> ReviewFigures {
        let positions = review
            .positions
            .iter()
            .map(|p| {
                let (mut cp, mut win_in, mut loss_in) = (None, None, None);
                match p.evaluation {
                    Some(agon_bots::Evaluation::Points(v)) => cp = Some(v),
                    Some(agon_bots::Evaluation::Win(n)) => win_in = Some(n),
                    Some(agon_bots::Evaluation::Loss(n)) => loss_in = Some(n),
                    None => {}
                }
                PositionFigures {
                    side: p.side.name().into(),
                    white: p.white,
                    cp,
                    win_in,
                    loss_in,
                    best: p.best.map(|m| m.to_string()),
                    pv: p.pv.iter().map(Move::to_string).collect(),
                }
            })
            .collect();
        let plies = review
            .plies
            .iter()
            .map(|p| PlyFigures {
                ply: p.ply,
                side: p.side.name().into(),
                played: p.played.to_string(),
                best: p.best.to_string(),
                before: p.before,
                after: p.after,
                loss: p.loss,
                judgement: p.judgement.map(|j| j.name().into()),
            })
            .collect();
        let white: Vec<f64> = review.positions.iter().map(|p| p.white).collect();
        let mut graph = EvaluationGraph::new(&white);
        for ply in &review.plies {
            if let Some(j) = ply.judgement {
                let mark = match j {
                    Judgement::Inaccuracy => Mark::Inaccuracy,
                    Judgement::Mistake => Mark::Mistake,
                    _ => Mark::Blunder,
                };
                graph = graph.mark(ply.ply + 1, mark);
            }
        }
        ReviewFigures {
            nodes: review.nodes,
            positions,
            plies,
            white: review.tally(Side::White).into(),
            black: review.tally(Side::Black).into(),
            graph: graph.to_string(),
        }
    }
}

/// Where a game's review stands: what `GET` and `POST /api/games/{id}/review` answer.
///
/// ```
/// use agon_web::service::review::ReviewStatus;
/// let queued = ReviewStatus {
///     status: "queued", done: 0, total: 3, review: None, reason: None, retry: false,
/// };
/// assert_eq!(
///     serde_json::to_value(&queued)?,
///     serde_json::json!({"status": "queued", "done": 0, "total": 3, "review": null,
///         "reason": null, "retry": false})
/// );
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Serialize, Debug, Clone, PartialEq, ToSchema)]
pub struct ReviewStatus {
    /// `none` (never requested), `queued`, `running`, `done` or `failed` (it could not
    /// be made after [`MAX_ATTEMPTS`](crate::store::MAX_ATTEMPTS) tries).
    pub status: &'static str,
    /// The positions evaluated so far.
    pub done: i64,
    /// The positions to evaluate: the game's plies and one.
    pub total: i64,
    /// The figures, once `done`.
    pub review: Option<ReviewFigures>,
    /// Why it failed, once `failed` (or why the last try failed, queued again).
    pub reason: Option<String>,
    /// Whether a `POST` would queue a `failed` review again (once).
    pub retry: bool,
}

impl ReviewStatus {
    fn of(stored: Option<StoredReview>) -> Result<ReviewStatus, ApiError> {
        let Some(stored) = stored else {
            return Ok(ReviewStatus {
                status: "none",
                done: 0,
                total: 0,
                review: None,
                reason: None,
                retry: false,
            });
        };
        let status = match stored.state.as_str() {
            "queued" => "queued",
            "running" => "running",
            "failed" => "failed",
            _ => "done",
        };
        let review = match &stored.data {
            Some(data) => Some(serde_json::from_str(data).map_err(|e| {
                ApiError::internal(format!("the stored review of {}: {e}", stored.game_id))
            })?),
            None => None,
        };
        Ok(ReviewStatus {
            status,
            done: stored.done,
            total: stored.total,
            review,
            retry: stored.retry(),
            reason: stored.failure,
        })
    }
}

/// Requests the review of game `id`: queues it, or answers the one queued, running, done
/// or failed already (a failed one is queued again once). `404 unknown-game`, `409 game-not-over` for a game in progress, `503
/// review-queue-full` (with `Retry-After`) when the queue is full.
pub(crate) async fn request(app: &Arc<AppState>, id: &str) -> Result<ReviewStatus, ApiError> {
    let game = load_game(app, id).await?;
    if !game.is_over() {
        return Err(ApiError::conflict(
            "game-not-over",
            "a game is reviewed once it is over",
        ));
    }
    let queue = &app.reviews;
    let total = game.plies() as i64 + 1;
    let requested = app
        .store
        .request_review(
            id,
            total,
            queue.nodes as i64,
            queue.max_queued as i64,
            app.store.now_ms(),
        )
        .await?;
    match requested {
        Requested::Existing(stored) => ReviewStatus::of(Some(stored)),
        Requested::Queued(stored) => {
            queue.wake.notify_one();
            ReviewStatus::of(Some(stored))
        }
        Requested::Full => Err(ApiError {
            retry_after: Some(10),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "review-queue-full",
                format!(
                    "{} reviews are waiting already: try again in a while",
                    queue.max_queued
                ),
            )
        }),
    }
}

/// Where the review of game `id` stands: `404 unknown-game` if there is no such game.
pub(crate) async fn status(app: &Arc<AppState>, id: &str) -> Result<ReviewStatus, ApiError> {
    if !ids::valid_id(id) {
        return Err(ApiError::unknown_game());
    }
    match app.store.review(id).await? {
        Some(stored) => ReviewStatus::of(Some(stored)),
        None => {
            load_game(app, id).await?;
            ReviewStatus::of(None)
        }
    }
}

/// Starts this server's review tasks ([`ReviewQueue::workers`] of them): each claims the
/// oldest queued review, computes it and stores it, then looks for the next; idle, it
/// waits for a request here or `POLL_EVERY`. What [`crate::serve_with`] runs; a test
/// of the service calls it itself.
pub fn start(app: &Arc<AppState>) -> Vec<tokio::task::JoinHandle<()>> {
    (0..app.reviews.workers)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move {
                loop {
                    match run_next(&app).await {
                        Ok(true) | Err(StoreError::Conflict) => continue,
                        Ok(false) => {}
                        Err(e) => eprintln!("agon-web: reviewing a game: {e}"),
                    }
                    let _ = tokio::time::timeout(POLL_EVERY, app.reviews.wake.notified()).await;
                }
            })
        })
        .collect()
}

/// Claims and computes one review: answers whether there was one. A review that fails
/// is given back to the store with its reason
/// ([`Store::fail_review`](crate::store::Store::fail_review)), which queues it again or
/// keeps it failed.
async fn run_next(app: &Arc<AppState>) -> Result<bool, StoreError> {
    let owner = app.reviews.owner.clone();
    let Some(claimed) = app.store.claim_review(&owner, app.store.now_ms()).await? else {
        return Ok(false);
    };
    let id = claimed.game_id.clone();
    if let Err(e) = compute(app, claimed).await {
        let left = app
            .store
            .fail_review(&id, &owner, &e.to_string(), app.store.now_ms())
            .await?;
        eprintln!(
            "agon-web: the review of {id} failed ({e}): {}",
            left.as_deref().unwrap_or("taken over meanwhile")
        );
    }
    Ok(true)
}

/// Computes the review `claimed` and stores it.
async fn compute(app: &Arc<AppState>, claimed: StoredReview) -> Result<(), StoreError> {
    let owner = app.reviews.owner.clone();
    let id = claimed.game_id;
    // A game pruned meanwhile takes its review row along.
    let Some(web) = app.store.load(&id).await? else {
        return Ok(());
    };
    let game: Game = web.game;
    let nodes = u64::try_from(claimed.nodes).unwrap_or(Review::DEFAULT_NODES);
    let (progress, mut seen) = tokio::sync::watch::channel(0usize);
    let computed = tokio::task::spawn_blocking(move || {
        let review = agon_bots::review_with_progress(&game, nodes, |done, _| {
            let _ = progress.send(done);
        });
        ReviewFigures::of(&review)
    });
    tokio::pin!(computed);
    let figures = loop {
        tokio::select! {
            figures = &mut computed => break figures,
            changed = seen.changed() => match changed {
                Ok(()) => {
                    let done = *seen.borrow_and_update() as i64;
                    app.store.review_progress(&id, &owner, done, app.store.now_ms()).await?;
                    tokio::time::sleep(PROGRESS_EVERY).await;
                }
                // The computation ended: its result is on its way.
                Err(_) => break (&mut computed).await,
            }
        }
    };
    let figures = figures.map_err(|e| StoreError::Database(format!("review of {id}: {e}")))?;
    let data = serde_json::to_string(&figures)
        .map_err(|e| StoreError::Database(format!("review of {id}: {e}")))?;
    app.store
        .finish_review(&id, data, app.store.now_ms())
        .await?;
    Ok(())
}
