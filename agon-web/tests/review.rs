//! Game review on the server (issue 34, point 3), on both stores: a game built so that
//! one move is a known blunder gets it marked with the engine's winning move beside it,
//! and the figures equal `agon_bots::review` of the game (what Python's `agon.review`
//! wraps); a review is computed once however often it is asked for; its progress goes
//! from queued to done; a game in progress, an unknown game and a full queue are refused;
//! a review that fails is tried `MAX_ATTEMPTS` times, then kept failed with its reason and
//! queued again by one request only; the queue's bound holds exactly under requests at
//! once; and a database of schema 9 (PostgreSQL 7) gains the reviews' table.

use std::sync::Arc;
use std::time::{Duration, Instant};

use agon_core::{Game, Position};
use agon_web::service::review::{ReviewFigures, ReviewQueue};
use agon_web::{AppState, Config};
use axum::body::Body;
use axum::http::Request;
use axum::Router;
#[macro_use]
mod common;
use common::{Answer, Backend, TestDb};
use serde_json::{json, Value};

/// The node budget of a position in these tests: the server's is 50,000, which a debug
/// build takes seconds for; the figures are compared at the budget used.
const NODES: u64 = 2_000;

/// Black wins at once with f11-g10, f11-f10, f11-e10, d2-c2 or b6-b5 (R12); b4-c5 lets
/// White breathe: a blunder (agon-bots' review example).
const BLACK_WINS_AT_ONCE: &str = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b";
const WINNING: [&str; 5] = ["f11-g10", "f11-f10", "f11-e10", "d2-c2", "b6-b5"];

struct Server {
    app: Router,
    state: Arc<AppState>,
    _db: TestDb,
}

impl Server {
    /// A server whose review queue holds at most `max_queued`; its review task is not
    /// started (see [`Server::start`]).
    async fn new(b: Backend, max_queued: usize) -> Server {
        let config = Config {
            limits: agon_web::limits::LimitConfig::off(),
            ..Config::default()
        };
        let (mut state, db) = common::state(b, config).await;
        state.reviews = Arc::new(ReviewQueue::new(1, max_queued).with_nodes(NODES));
        let state = Arc::new(state);
        Server {
            app: agon_web::shared_app(state.clone()),
            state,
            _db: db,
        }
    }

    fn start(&self) -> Vec<tokio::task::JoinHandle<()>> {
        agon_web::service::review::start(&self.state)
    }

    async fn get(&self, uri: &str) -> Answer {
        common::send(&self.app, Request::get(uri).body(Body::empty()).unwrap()).await
    }

    async fn post(&self, uri: &str, body: Value) -> Answer {
        common::post(&self.app, uri, "application/json", &body.to_string()).await
    }

    /// A game against the computer from `position`, the person `side`, `moves` played by
    /// the person without the computer's reply, then resigned unless `over` is false.
    async fn game(&self, position: &str, side: &str, moves: &[&str], over: bool) -> String {
        let answer = self
            .post(
                "/api/games",
                json!({"side": side, "level": "easy", "position": position}),
            )
            .await
            .ok();
        let (id, token) = (
            answer["id"].as_str().unwrap().to_string(),
            answer["token"].as_str().unwrap().to_string(),
        );
        for m in moves {
            self.post(
                &format!("/api/games/{id}/moves"),
                json!({"token": token, "move": m, "reply": false}),
            )
            .await
            .ok();
        }
        if over {
            self.post(&format!("/api/games/{id}/resign"), json!({"token": token}))
                .await
                .ok();
        }
        id
    }

    /// Polls the review of `id` until it is done (within 30 s): every status seen.
    async fn until_done(&self, id: &str) -> Vec<Value> {
        self.until(id, "done").await
    }

    /// Polls the review of `id` until its status is `status` (within 30 s): every status
    /// seen.
    async fn until(&self, id: &str, status: &str) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut seen = Vec::new();
        loop {
            let answer = self.get(&format!("/api/games/{id}/review")).await.ok();
            let done = answer["status"] == status;
            seen.push(answer);
            if done {
                return seen;
            }
            assert!(Instant::now() < deadline, "not {status} in 30 s: {seen:?}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// The figures `agon_bots::review` gives for `game`, as the API writes them.
fn expected(game: &Game) -> Value {
    serde_json::to_value(ReviewFigures::of(&agon_bots::review(game, NODES))).unwrap()
}

async fn a_blunder_is_marked_with_the_winning_move(b: Backend) {
    let server = Server::new(b, 8).await;
    let _tasks = server.start();
    let id = server
        .game(BLACK_WINS_AT_ONCE, "black", &["b4-c5"], true)
        .await;
    let first = server
        .post(&format!("/api/games/{id}/review"), json!({}))
        .await
        .ok();
    assert!(
        ["queued", "running", "done"].contains(&first["status"].as_str().unwrap()),
        "{first}"
    );
    assert_eq!(first["total"], 2);
    let done = server.until_done(&id).await.pop().unwrap();
    assert_eq!(
        (done["done"].as_i64(), done["total"].as_i64()),
        (Some(2), Some(2))
    );
    let review = &done["review"];
    let ply = &review["plies"][0];
    assert_eq!(
        (&ply["side"], &ply["played"], &ply["judgement"]),
        (&json!("black"), &json!("b4-c5"), &json!("blunder"))
    );
    assert!(WINNING.contains(&ply["best"].as_str().unwrap()), "{ply}");
    assert_eq!(ply["before"], 1.0);
    assert_eq!(
        (&review["black"]["blunders"], &review["black"]["actions"]),
        (&json!(1), &json!(1))
    );
    assert_eq!(review["white"]["actions"], 0);
    assert!(review["graph"]
        .as_str()
        .unwrap()
        .contains(r#"<circle class="mark blunder" data-position="1""#));
    // The very figures of agon_bots::review, which Python's agon.review wraps.
    let mut game = Game::from_position(BLACK_WINS_AT_ONCE.parse::<Position>().unwrap());
    game.play("b4-c5".parse().unwrap()).unwrap();
    assert_eq!(review, &expected(&game));
}

async fn a_review_is_computed_once(b: Backend) {
    let server = Server::new(b, 8).await;
    let id = server
        .game(
            &Position::start().to_text().to_string(),
            "white",
            &["f1-e1"],
            true,
        )
        .await;
    let uri = format!("/api/games/{id}/review");
    // Twice before any task runs: one row, queued.
    for _ in 0..2 {
        let answer = server.post(&uri, json!({})).await.ok();
        assert_eq!(
            (&answer["status"], &answer["done"], &answer["total"]),
            (&json!("queued"), &json!(0), &json!(2))
        );
    }
    let store = &server.state.store;
    let claimed = store.claim_review("test", store.now_ms()).await.unwrap();
    assert_eq!(claimed.map(|r| r.game_id), Some(id.clone()));
    // The one review is taken: nothing else to claim.
    assert_eq!(
        store.claim_review("test", store.now_ms()).await.unwrap(),
        None
    );
    // Give it back to the queue (as if its server had stopped long ago) and let the
    // server's task compute it.
    common::execute(
        store,
        &format!("UPDATE reviews SET touched_ms = 0 WHERE game_id = '{id}'"),
    )
    .await;
    let _tasks = server.start();
    let done = server.until_done(&id).await.pop().unwrap();
    // Asked again: the stored review at once, nothing queued again.
    let again = server.post(&uri, json!({})).await.ok();
    assert_eq!(again, done);
    assert_eq!(
        store.claim_review("test", store.now_ms()).await.unwrap(),
        None
    );
    // A late second writer (a second server that computed it too) changes nothing.
    let data = serde_json::to_string(&done["review"]).unwrap();
    assert!(!store.finish_review(&id, data, 0).await.unwrap());
    let mut game = Game::new();
    game.play("f1-e1".parse().unwrap()).unwrap();
    assert_eq!(done["review"], expected(&game));
}

async fn progress_goes_from_queued_to_done(b: Backend) {
    let server = Server::new(b, 8).await;
    let moves = ["f1-e1", "f11-g10", "e1-e2", "g10-g9", "e2-e3", "g9-g8"];
    // Both sides' moves, written by the store, then resigned.
    let id = "00112233445566aa".to_string();
    let mut web = agon_web::game::WebGame::new(
        id.clone(),
        [0; 32],
        agon_core::Side::White,
        agon_web::Level::Easy,
        1,
        Position::start(),
    );
    for m in moves {
        web.play_at(m.parse().unwrap(), 1).unwrap();
    }
    web.resign(agon_core::Side::White, 2).unwrap();
    server.state.store.insert(&web, 2).await.unwrap();
    let uri = format!("/api/games/{id}/review");
    assert_eq!(server.get(&uri).await.ok()["status"], "none");
    let queued = server.post(&uri, json!({})).await.ok();
    assert_eq!(
        (&queued["status"], &queued["done"], &queued["total"]),
        (&json!("queued"), &json!(0), &json!(7))
    );
    let _tasks = server.start();
    let seen = server.until_done(&id).await;
    // Each status after the one before, and the positions done never fewer.
    let order = |s: &Value| {
        ["queued", "running", "done"]
            .iter()
            .position(|x| s == x)
            .unwrap()
    };
    for pair in seen.windows(2) {
        assert!(
            order(&pair[0]["status"]) <= order(&pair[1]["status"]),
            "{seen:?}"
        );
        assert!(
            pair[0]["done"].as_i64() <= pair[1]["done"].as_i64(),
            "{seen:?}"
        );
    }
    let last = seen.last().unwrap();
    assert_eq!((&last["done"], &last["total"]), (&json!(7), &json!(7)));
    assert_eq!(last["review"]["plies"].as_array().unwrap().len(), 6);
    let statuses: Vec<_> = seen.iter().map(|s| s["status"].as_str().unwrap()).collect();
    println!("statuses seen: {statuses:?}");
}

/// A review runs beside the search workers, not on them: with one search worker, a move
/// against the computer is answered (the computer's reply included) while a review runs.
/// Were the review on that worker, the reply would wait for the review's end.
async fn a_review_never_takes_the_search_workers(b: Backend) {
    let config = Config {
        limits: agon_web::limits::LimitConfig::off(),
        workers: 1,
        ..Config::default()
    };
    let (mut state, db) = common::state(b, config).await;
    // A budget that keeps the review running for seconds in a test build.
    state.reviews = Arc::new(ReviewQueue::new(1, 8).with_nodes(600_000));
    let state = Arc::new(state);
    let server = Server {
        app: agon_web::shared_app(state.clone()),
        state,
        _db: db,
    };
    let start = Position::start().to_text().to_string();
    let reviewed = server.game(&start, "white", &["f1-e1"], true).await;
    let _tasks = server.start();
    server
        .post(&format!("/api/games/{reviewed}/review"), json!({}))
        .await
        .ok();
    server.until(&reviewed, "running").await;
    let answer = server
        .post("/api/games", json!({"side": "white", "level": "easy"}))
        .await
        .ok();
    let (id, token) = (
        answer["id"].as_str().unwrap(),
        answer["token"].as_str().unwrap(),
    );
    let played = server
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"token": token, "move": "f1-e1"}),
        )
        .await
        .ok();
    let review = server
        .get(&format!("/api/games/{reviewed}/review"))
        .await
        .ok();
    assert_eq!(
        played["moves"].as_array().map(Vec::len),
        Some(2),
        "{played}"
    );
    assert_eq!(review["status"], "running", "{review}");
    server.until_done(&reviewed).await;
}

async fn refusals(b: Backend) {
    let server = Server::new(b, 1).await;
    let start = Position::start().to_text().to_string();
    let live = server.game(&start, "white", &["f1-e1"], false).await;
    server
        .post(&format!("/api/games/{live}/review"), json!({}))
        .await
        .error(409, "game-not-over");
    assert_eq!(
        server.get(&format!("/api/games/{live}/review")).await.ok()["status"],
        "none"
    );
    for uri in [
        "/api/games/0011223344556677/review",
        "/api/games/nope/review",
    ] {
        server.post(uri, json!({})).await.error(404, "unknown-game");
        server.get(uri).await.error(404, "unknown-game");
    }
    // A queue of one: the second game's review waits for room.
    let first = server.game(&start, "white", &["f1-e1"], true).await;
    let second = server.game(&start, "white", &["f1-g1"], true).await;
    server
        .post(&format!("/api/games/{first}/review"), json!({}))
        .await
        .ok();
    let full = server
        .post(&format!("/api/games/{second}/review"), json!({}))
        .await;
    full.error(503, "review-queue-full");
    assert!(full.headers.contains_key("retry-after"));
    // The one queued is still answered.
    assert_eq!(
        server
            .post(&format!("/api/games/{first}/review"), json!({}))
            .await
            .ok()["status"],
        "queued"
    );
}

/// A review whose game cannot be read (its moves corrupted after the request) fails on
/// each try: after `MAX_ATTEMPTS` it is kept `failed` with the reason, nothing loops; a
/// request queues it again once, and after that answers the failure as it stands.
async fn a_failing_review_is_bounded(b: Backend) {
    let server = Server::new(b, 8).await;
    let start = Position::start().to_text().to_string();
    let id = server.game(&start, "white", &["f1-e1"], true).await;
    let uri = format!("/api/games/{id}/review");
    assert_eq!(server.post(&uri, json!({})).await.ok()["status"], "queued");
    let store = &server.state.store;
    let corrupt = |on: bool| {
        let sql = format!(
            "UPDATE moves SET move = '{}' WHERE game_id = '{id}'",
            if on { "zz" } else { "f1-e1" }
        );
        async move { common::execute(store, &sql).await }
    };
    corrupt(true).await;
    let tasks = server.start();
    let failed = server.until(&id, "failed").await.pop().unwrap();
    let reason = failed["reason"].as_str().unwrap();
    assert!(
        reason.contains(&format!("game {id} in the database")),
        "{failed}"
    );
    assert_eq!(
        (&failed["retry"], &failed["review"]),
        (&json!(true), &json!(null))
    );
    // Kept failed: nothing left to claim.
    assert_eq!(
        store.claim_review("test", store.now_ms()).await.unwrap(),
        None
    );
    tasks.iter().for_each(|t| t.abort());
    // A request queues it again, once (the game readable for the request, then not).
    corrupt(false).await;
    let again = server.post(&uri, json!({})).await.ok();
    assert_eq!(
        (&again["status"], &again["retry"]),
        (&json!("queued"), &json!(false))
    );
    corrupt(true).await;
    let _tasks = server.start();
    let failed = server.until(&id, "failed").await.pop().unwrap();
    assert_eq!(failed["retry"], false);
    // Then a request answers the failure as it stands, and queues nothing.
    corrupt(false).await;
    let last = server.post(&uri, json!({})).await.ok();
    assert_eq!(last, failed);
    assert_eq!(
        store.claim_review("test", store.now_ms()).await.unwrap(),
        None
    );
}

/// The attempts, one by one in the store: a failure queues the review again until it
/// has had `MAX_ATTEMPTS` claims, then keeps it failed; a review whose server stops
/// (left `running`, stale) is claimed again until `MAX_ATTEMPTS`, then kept failed too.
async fn attempts_are_counted(b: Backend) {
    use agon_web::store::{MAX_ATTEMPTS, STALE_MS};
    assert_eq!(MAX_ATTEMPTS, 3);
    let server = Server::new(b, 8).await;
    let start = Position::start().to_text().to_string();
    let store = &server.state.store;
    let failing = server.game(&start, "white", &["f1-e1"], true).await;
    let stopping = server.game(&start, "white", &["f1-g1"], true).await;
    for id in [&failing, &stopping] {
        server
            .post(&format!("/api/games/{id}/review"), json!({}))
            .await
            .ok();
    }
    // The first is claimed first (requested first): it fails twice and is queued again,
    // fails a third time and is kept failed.
    for expected in ["queued", "queued", "failed"] {
        let now = store.now_ms();
        let claimed = store.claim_review("a", now).await.unwrap().unwrap();
        assert_eq!(claimed.game_id, failing);
        let left = store.fail_review(&failing, "a", "boom", now).await.unwrap();
        assert_eq!(left.as_deref(), Some(expected));
        // Another server's failure report for it changes nothing.
        assert_eq!(
            store.fail_review(&failing, "b", "no", now).await.unwrap(),
            None
        );
    }
    let kept = store.review(&failing).await.unwrap().unwrap();
    assert_eq!(
        (kept.state.as_str(), kept.failure.as_deref(), kept.retry()),
        ("failed", Some("boom"), true)
    );
    // The second: its server stops three times (each claim left stale).
    for _ in 0..MAX_ATTEMPTS {
        let claimed = store.claim_review("a", store.now_ms()).await.unwrap();
        assert_eq!(claimed.map(|r| r.game_id).as_ref(), Some(&stopping));
        assert_eq!(
            store.claim_review("b", store.now_ms()).await.unwrap(),
            None,
            "running, not stale"
        );
        common::execute(
            store,
            &format!("UPDATE reviews SET touched_ms = 0 WHERE game_id = '{stopping}'"),
        )
        .await;
    }
    assert!(store.now_ms() > STALE_MS);
    assert_eq!(store.claim_review("b", store.now_ms()).await.unwrap(), None);
    let status = server
        .get(&format!("/api/games/{stopping}/review"))
        .await
        .ok();
    assert_eq!(
        (&status["status"], &status["reason"], &status["retry"]),
        (
            &json!("failed"),
            &json!("its server stopped while computing it, 3 times"),
            &json!(true)
        )
    );
}

/// Many requests at once for as many games, with room for 3: exactly 3 are queued and
/// the others answered `503 review-queue-full` (counting and inserting under the queue's
/// lock; without it PostgreSQL's transactions each saw room and queued more).
async fn the_queue_bound_is_exact_under_requests_at_once(b: Backend) {
    const ROOM: usize = 3;
    const GAMES: usize = 16;
    let server = Arc::new(Server::new(b, ROOM).await);
    let start = Position::start().to_text().to_string();
    let mut ids = Vec::new();
    for _ in 0..GAMES {
        ids.push(server.game(&start, "white", &["f1-e1"], true).await);
    }
    let barrier = Arc::new(tokio::sync::Barrier::new(GAMES));
    let requests: Vec<_> = ids
        .iter()
        .map(|id| {
            let (server, barrier, uri) = (
                server.clone(),
                barrier.clone(),
                format!("/api/games/{id}/review"),
            );
            tokio::spawn(async move {
                barrier.wait().await;
                server.post(&uri, json!({})).await
            })
        })
        .collect();
    let (mut queued, mut full) = (0, 0);
    for request in requests {
        let answer = request.await.unwrap();
        if answer.status == 200 {
            assert_eq!(answer.json()["status"], "queued");
            queued += 1;
        } else {
            answer.error(503, "review-queue-full");
            full += 1;
        }
    }
    assert_eq!((queued, full), (ROOM, GAMES - ROOM));
    // And the store holds exactly as many.
    let mut stored = 0;
    for id in &ids {
        let status = server.get(&format!("/api/games/{id}/review")).await.ok();
        stored += usize::from(status["status"] == "queued");
    }
    assert_eq!(stored, ROOM);
}

async fn an_older_database_gains_the_reviews(b: Backend) {
    let db = common::older_database(b, (9, 7), "", "").await;
    let config = Config {
        db: db.db.clone(),
        ..Config::default()
    };
    let state = AppState::connect(&config).await.unwrap();
    let id = "0123456789abcdef";
    assert_eq!(state.store.review(id).await.unwrap(), None);
    let requested = state.store.request_review(id, 2, 10, 5, 1).await.unwrap();
    assert!(matches!(requested, agon_web::store::Requested::Queued(_)));
    let stored = state.store.review(id).await.unwrap().unwrap();
    assert_eq!(
        (stored.state.as_str(), stored.total, stored.nodes),
        ("queued", 2, 10)
    );
    // Pruned with its game.
    assert_eq!(state.store.prune(i64::MAX, None).await.unwrap(), 1);
    assert_eq!(state.store.review(id).await.unwrap(), None);
    drop(db);
}

/// A database of schema 11 (PostgreSQL 9) keeps its reviews through the rebuild that adds
/// the failures: a done review is still done, with its figures, no failure, never queued
/// again.
async fn the_failures_migration_keeps_the_reviews(b: Backend) {
    let db = common::older_database(b, (11, 9), "", "").await;
    let row = "INSERT INTO reviews (game_id, state, nodes, total, done, data, owner, \
        requested_ms, touched_ms) VALUES ('0123456789abcdef', 'done', 10, 2, 2, '{}', 'x', 1, 2)";
    match &db.db {
        agon_web::store::Database::Sqlite(path) => {
            rusqlite::Connection::open(path)
                .unwrap()
                .execute_batch(row)
                .unwrap();
        }
        agon_web::store::Database::Postgres(url) => {
            common::pg_client(url)
                .await
                .batch_execute(row)
                .await
                .unwrap();
        }
    }
    let config = Config {
        db: db.db.clone(),
        ..Config::default()
    };
    let state = AppState::connect(&config).await.unwrap();
    let kept = state
        .store
        .review("0123456789abcdef")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            kept.state.as_str(),
            kept.done,
            kept.data.as_deref(),
            kept.failure.as_deref(),
            kept.retry()
        ),
        ("done", 2, Some("{}"), None, false)
    );
    let again = state
        .store
        .request_review("0123456789abcdef", 2, 10, 5, 3)
        .await;
    assert!(matches!(again, Ok(agon_web::store::Requested::Existing(_))));
    drop(db);
}

both_stores!((flavor = "multi_thread", worker_threads = 2); a_blunder_is_marked_with_the_winning_move, a_review_is_computed_once, progress_goes_from_queued_to_done, a_review_never_takes_the_search_workers, refusals, a_failing_review_is_bounded, attempts_are_counted, the_queue_bound_is_exact_under_requests_at_once, an_older_database_gains_the_reviews, the_failures_migration_keeps_the_reviews);

/// A request for a review costs 11 of the action budget (`http::review::REVIEW_COST_MS`,
/// counted as a hard move), also when it is refused.
#[tokio::test]
async fn a_review_request_costs_eleven_tokens() {
    use agon_web::limits::{LimitConfig, Quota};
    let config = Config {
        limits: LimitConfig {
            action: Some(Quota::per_minute(1, 12)),
            ..LimitConfig::off()
        },
        ..Config::default()
    };
    let (state, db) = common::state(Backend::Sqlite, config).await;
    let server = common::Api::new(state, db);
    let uri = "/api/games/0011223344556677/review";
    server.post(uri, json!({})).await.error(404, "unknown-game");
    let refused = server.post(uri, json!({})).await;
    refused.error(429, "rate-limited");
    assert!(refused.json()["message"]
        .as_str()
        .unwrap()
        .contains("costs 11"));
    // Reading where a review stands is not limited.
    server.get(uri).await.error(404, "unknown-game");
}
