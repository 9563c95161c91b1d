//! The stores under conditions no request makes on its own: a database file of an unknown
//! schema version, a database too busy to let a request in, a request dropped while its
//! commit is under way.

use std::sync::Arc;
use std::time::Duration;

use agon_core::{Position, Side};
use agon_web::game::WebGame;
use agon_web::{store, Config, Hub, HubEvent, Level, Store, StreamLimits};
use axum::http::header;
use serde_json::json;
#[macro_use]
mod common;
use common::Backend;

/// A SQLite file whose `PRAGMA user_version` is `version`, nothing else in it.
fn sqlite_file_at(dir: &std::path::Path, version: i64) -> std::path::PathBuf {
    let path = dir.join(format!("v{version}.sqlite3"));
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {version};"))
        .unwrap();
    path
}

fn user_version(path: &std::path::Path) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

/// The error of a database whose schema version is `version`, below 0.
fn not_ours(version: i64, newest: i64) -> String {
    format!(
        "database schema version {version} is not one of agon-web's (0 to {newest}): not an \
         agon-web database, or a corrupt one"
    )
}

#[test]
fn a_sqlite_file_of_an_unknown_schema_version_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    // Negative: no agon-web ever wrote it (it used to panic, indexing the migrations).
    let foreign = sqlite_file_at(dir.path(), -1);
    let e = Store::open(&foreign).err().expect("refused");
    assert_eq!(e.to_string(), not_ours(-1, store::VERSION));
    assert_eq!(
        user_version(&foreign),
        -1,
        "the refused file is left as it was"
    );
    // Newer than this server's: a newer server's file.
    let newer = store::VERSION + 1;
    let future = sqlite_file_at(dir.path(), newer);
    let e = Store::open(&future).err().expect("refused");
    assert_eq!(
        e.to_string(),
        format!(
            "database schema version {newer} is newer than this server's ({})",
            store::VERSION
        )
    );
    assert_eq!(user_version(&future), newer);
    // The current version and the new file open.
    let current = sqlite_file_at(dir.path(), 0);
    Store::open(&current).unwrap();
    Store::open(&current).unwrap();
    assert_eq!(user_version(&current), store::VERSION);
}

#[tokio::test]
async fn a_postgres_database_of_an_unknown_schema_version_is_refused_by_name() {
    let Some(url) = common::postgres_database_here().await else {
        return;
    };
    let admin = common::pg_client(&url).await;
    admin
        .batch_execute(
            "CREATE TABLE agon_schema (version BIGINT PRIMARY KEY);
             INSERT INTO agon_schema (version) VALUES (-1);",
        )
        .await
        .unwrap();
    let db = agon_web::Database::Postgres(url.clone());
    let e = Store::connect(&db, 2).await.err().expect("refused");
    assert_eq!(e.to_string(), not_ours(-1, store::PG_VERSION));
    let tables: i64 = admin
        .query_one(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename = 'games'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(tables, 0, "no migration ran");
}

/// A game against the computer, created through the API: its id.
async fn new_game(app: &axum::Router) -> String {
    let created = common::post(
        app,
        "/api/games",
        "application/json",
        &json!({"side": "white", "level": "easy"}).to_string(),
    )
    .await;
    assert_eq!(created.status.as_u16(), 201, "{}", created.text);
    created.json()["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_sqlite_file_locked_past_the_busy_timeout_answers_503_with_retry_after() {
    let config = Config {
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    let (state, db) = common::state(Backend::Sqlite, config).await;
    let app = agon_web::app(state);
    let id = new_game(&app).await;
    // Another process on the same file holds the write lock (5 s of busy timeout pass).
    let agon_web::Database::Sqlite(path) = &db.db else {
        unreachable!("a SQLite file")
    };
    let other = rusqlite::Connection::open(path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let answer = common::get_uri(&app, &format!("/api/games/{id}")).await;
    answer.error(503, "server-busy");
    assert_eq!(answer.headers[header::RETRY_AFTER], "1");
    other.execute_batch("COMMIT").unwrap();
    let answer = common::get_uri(&app, &format!("/api/games/{id}")).await;
    assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
}

#[tokio::test]
async fn a_postgres_pool_with_no_free_connection_answers_503_with_retry_after() {
    if !common::postgres_here() {
        return;
    }
    let config = Config {
        db_connections: 1,
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    let (state, _db) = common::state(Backend::Postgres, config).await;
    let store = state.store.clone();
    let app = agon_web::app(state);
    let id = new_game(&app).await;
    let Store::Postgres(pg) = &*store else {
        unreachable!("PostgreSQL")
    };
    // The pool's only connection is taken for longer than the pool's wait (10 s).
    let taken = pg.pool().get().await.unwrap();
    let answer = common::get_uri(&app, &format!("/api/games/{id}")).await;
    answer.error(503, "server-busy");
    assert_eq!(answer.headers[header::RETRY_AFTER], "1");
    drop(taken);
    let answer = common::get_uri(&app, &format!("/api/games/{id}")).await;
    assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_whose_caller_is_dropped_during_the_commit_is_still_published() {
    if !common::postgres_here() {
        return;
    }
    let (state, _db) = common::state(Backend::Postgres, Config::default()).await;
    let store = state.store.clone();
    let id = "0011223344556677";
    let game = WebGame::new(
        id.into(),
        [0; 32],
        Side::White,
        Level::Easy,
        1,
        Position::start(),
    );
    store.insert(&game, agon_web::now_ms()).await.unwrap();
    // From now on each commit that changed a game takes a second (a deferred trigger
    // runs at COMMIT).
    common::execute(
        &store,
        "CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql
             AS $$ BEGIN PERFORM pg_sleep(1); RETURN NULL; END $$;
         CREATE CONSTRAINT TRIGGER slow_commit AFTER UPDATE ON games
             DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit();",
    )
    .await;
    let hub = Arc::new(Hub::new(StreamLimits::default()));
    let mut stream = hub.subscribe(id);
    let publish = {
        let hub = hub.clone();
        move |game: &WebGame| hub.publish(game)
    };
    let change = store.change(
        id,
        |change, game| {
            let mut game = game.unwrap();
            game.play("f1-e1".parse().unwrap()).unwrap();
            change.append(&game, 0, 0);
            change.save(&mut game, 0);
            Ok::<_, store::StoreError>(((), Some(game)))
        },
        publish,
    );
    // The request is dropped (its client left) while its COMMIT is under way.
    let cut = tokio::time::timeout(Duration::from_millis(300), change).await;
    assert!(
        cut.is_err(),
        "the commit took a second: the caller gave up first"
    );
    // The change committed, and this server's own streams hear of it.
    let event = tokio::time::timeout(Duration::from_secs(5), stream.receiver().recv())
        .await
        .expect("the committed change is published")
        .unwrap();
    let HubEvent::State(published) = event else {
        panic!("{event:?}")
    };
    assert_eq!(published.game.version, 1);
    let stored = store.load(id).await.unwrap().unwrap();
    assert_eq!((stored.version, stored.plies()), (1, 1));
}

/// A game between friends in which White played `f1-e1`: Black's clock runs since
/// `at_ms` (`None`: not started), White's and Black's times as given.
fn clocked(id: &str, remaining_ms: [i64; 2], at_ms: Option<i64>) -> WebGame {
    let mut game = WebGame::new(
        id.into(),
        [0; 32],
        Side::White,
        Level::Easy,
        1,
        Position::start(),
    );
    game.opponent = agon_web::game::Opponent::Friend;
    game.guest_sha256 = Some([1; 32]);
    game.play("f1-e1".parse().unwrap()).unwrap();
    game.clock = Some(agon_web::game::Clock {
        remaining_ms,
        at_ms,
        ..agon_web::game::Clock::new(60_000, 0)
    });
    game
}

async fn the_sweep_finds_the_clocks_whose_running_side_ran_out(b: Backend) {
    let (state, db) = common::state(b, Config::default()).await;
    let store = state.store.clone();
    let now = agon_web::now_ms();
    // Black runs with a minute left; White, who waits, has none left.
    let waiting_low = clocked("0000000000000001", [0, 60_000], Some(now));
    // Black ran out half a second ago.
    let out = clocked("0000000000000002", [60_000, 500], Some(now - 1000));
    // The clock has not started.
    let stopped = clocked("0000000000000003", [0, 0], None);
    for game in [&waiting_low, &out, &stopped] {
        assert_eq!(
            game.running().is_some(),
            game.clock.unwrap().at_ms.is_some()
        );
        store.insert(game, now).await.unwrap();
    }
    assert_eq!(
        store.running_clocks(now + 1000).await.unwrap(),
        ["0000000000000002"],
        "only the clock whose running side ran out (White's 0 is not running)"
    );
    let mut all = store.running_clocks(i64::MAX).await.unwrap();
    all.sort();
    assert_eq!(all, ["0000000000000001", "0000000000000002"]);
    // A change writes the deadline again: the game ended by time has none.
    let (_, ended) = store
        .change(
            "0000000000000002",
            move |change, game| {
                let mut game = game.unwrap();
                assert!(game.flag(now));
                change.save(&mut game, now);
                Ok::<_, store::StoreError>(((), Some(game)))
            },
            |_| (),
        )
        .await
        .unwrap();
    assert!(ended.unwrap().is_over());
    assert_eq!(
        store.running_clocks(i64::MAX).await.unwrap(),
        ["0000000000000001"]
    );
    drop((state, store));
    // A database from before the deadline column: its running clocks get the earliest
    // deadline they can have (the smaller time), White's 0 here, until their next change.
    // (The tables of accounts, the claimed seats, the lobby and the reviews, and the
    // reviews' queue, came later still.)
    let accounts = "DROP TABLE review_queue; DROP TABLE reviews; DROP TABLE seeks; DROP TABLE lobby_events; DROP TABLE lobby_head;
        DROP TABLE seat_accounts; DROP TABLE ceremonies; DROP TABLE rating_changes; DROP TABLE ratings; DROP TABLE api_tokens;
        DROP TABLE recovery_codes; DROP TABLE sessions; DROP TABLE passkeys;
        DROP TABLE accounts;";
    let older = match b {
        Backend::Sqlite => {
            "DROP INDEX games_deadline; ALTER TABLE games DROP COLUMN deadline_ms;
             PRAGMA user_version = 3;"
        }
        Backend::Postgres => {
            "DROP INDEX games_deadline; ALTER TABLE games DROP COLUMN deadline_ms;
             CREATE INDEX games_running ON games (clock_at_ms)
                 WHERE clock_at_ms IS NOT NULL AND NOT over;
             DELETE FROM agon_schema WHERE version >= 2;"
        }
    };
    // (And the aborted flag of issue 34, later again; and rated games, later still.)
    let rated = "DROP INDEX games_rated; ALTER TABLE games DROP COLUMN rated;
        ALTER TABLE games DROP COLUMN speed; ALTER TABLE games DROP COLUMN result;";
    let older = format!("{rated} ALTER TABLE games DROP COLUMN aborted; {accounts} {older}");
    common::execute(&Store::connect(&db.db, 2).await.unwrap(), &older).await;
    let migrated = Store::connect(&db.db, 2).await.unwrap();
    assert_eq!(
        migrated.running_clocks(now + 1000).await.unwrap(),
        ["0000000000000001"]
    );
}

both_stores!((); the_sweep_finds_the_clocks_whose_running_side_ran_out);
