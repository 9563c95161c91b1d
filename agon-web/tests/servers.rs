//! Several agon-web processes on one PostgreSQL database: two moves sent at once to two
//! servers give one move and one 409; a page on one server sees a move made on another,
//! also after its server's listening connection was cut; and a server killed with SIGKILL
//! mid-game loses no move: its players' pages reconnect to the other server (as a proxy
//! would send them there) and finish their games, every game replayed through agon-core.
//!
//! These need PostgreSQL (see `tests/common`): without it (and without
//! `AGON_WEB_TEST_PG`) they are skipped with a notice.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use agon_core::random::Rng;
use agon_core::{Game, Move};
use agon_web::Database;
use serde_json::json;

#[macro_use]
mod common;
use common::{
    chooser, friend_game, get_ok, page, post_json, post_ok, random_legal, stream, strings, Process,
    Stream,
};

/// Two server processes on a new PostgreSQL database, or `None` without PostgreSQL.
async fn two_servers(client: &reqwest::Client) -> Option<(Database, [Process; 2])> {
    if !common::postgres_here() {
        return None;
    }
    let db = Database::Postgres(common::postgres_database().await);
    let mut servers = [Process::start(&db), Process::start(&db)];
    for s in &mut servers {
        s.wait_ready(client).await;
    }
    Some((db, servers))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_moves_at_once_on_two_servers_give_one_move_and_one_409() {
    let client = reqwest::Client::new();
    let Some((_db, [a, b])) = two_servers(&client).await else {
        return;
    };
    let (id, white, black, mut state) = friend_game(&client, &a.base, &b.base, "none").await;
    // Random moves: the same ones each time would repeat the position.
    let mut rng = Rng::new(5);
    for round in 0..12 {
        // The seat to move sends two different moves at once, one to each server (two
        // tabs behind a proxy that spreads them).
        let token = [&white, &black][chooser(&state)];
        let first = random_legal(&state, &mut rng);
        let second = random_legal(&state, &mut rng);
        let version = state["version"].as_i64().unwrap();
        let plies = state["moves"].as_array().unwrap().len();
        let (x, y) = tokio::join!(
            post_json(
                &client,
                format!("{}/api/games/{id}/moves", a.base),
                json!({"token": token, "move": first}),
            ),
            post_json(
                &client,
                format!("{}/api/games/{id}/moves", b.base),
                json!({"token": token, "move": second}),
            ),
        );
        let (won, lost) = match (x.0, y.0) {
            (200, 409) => (x.1, y.1),
            (409, 200) => (y.1, x.1),
            other => panic!("round {round}: {other:?} {} {}", x.1, y.1),
        };
        // The loser was computed from the winner's result (the row lock) and refused by
        // the rules, or refused by the version check: a clear 409 either way.
        assert!(
            ["not-your-turn", "conflict"].contains(&lost["error"].as_str().unwrap()),
            "{lost}"
        );
        assert_eq!(won["version"], version + 1);
        state = get_ok(&client, format!("{}/api/games/{id}", a.base)).await;
        assert_eq!(state["version"], version + 1, "one version a round");
        assert_eq!(
            state["moves"].as_array().unwrap().len(),
            plies + 1,
            "one move a round"
        );
    }
    // The stored game is the rules' own: it replays.
    let mut game = Game::new();
    for m in strings(&state["moves"]) {
        game.play(m.parse::<Move>().unwrap()).unwrap();
    }
    assert_eq!(state["position"], game.position().to_text().to_string());
}

/// Waits for the state of `version` on `stream`: answers when it came.
async fn until(stream: &mut Stream, version: i64) -> Instant {
    loop {
        let event = stream.next("state").await;
        if event.id.unwrap() >= version {
            return Instant::now();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_on_one_server_sees_the_moves_made_on_another() {
    let client = reqwest::Client::new();
    let Some((db, [a, b])) = two_servers(&client).await else {
        return;
    };
    let (id, white, black, state) = friend_game(&client, &a.base, &b.base, "none").await;
    // White's page is on A, Black's on B; each move is made through the mover's server.
    let mut on_a = stream(&client, &a.base, &id, None).await.unwrap();
    let mut on_b = stream(&client, &b.base, &id, None).await.unwrap();
    let mut version = state["version"].as_i64().unwrap();
    until(&mut on_a, version).await;
    until(&mut on_b, version).await;
    let mut state = state;
    // Random moves: the first legal move each time would repeat the position.
    let mut rng = Rng::new(3);
    for ply in 0..8 {
        let (base, token) = if ply % 2 == 0 {
            (&a.base, &white)
        } else {
            (&b.base, &black)
        };
        let m = random_legal(&state, &mut rng);
        let sent = Instant::now();
        state = post_ok(
            &client,
            format!("{base}/api/games/{id}/moves"),
            json!({"token": token, "move": m}),
        )
        .await;
        version += 1;
        let other = if ply % 2 == 0 { &mut on_b } else { &mut on_a };
        let at = until(other, version).await;
        println!("ply {ply}: on the other server after {:?}", at - sent);
        until(if ply % 2 == 0 { &mut on_a } else { &mut on_b }, version).await;
    }
    // A's listening connection is cut (as a database restart or a network fault would):
    // what B commits meanwhile still reaches A's page, by a notification once A listens
    // again or by the read of every watched game that follows the reconnection.
    let Database::Postgres(url) = &db else {
        unreachable!()
    };
    let admin = common::pg_client(url).await;
    let cut = admin
        .execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE application_name = $1 AND datname = current_database()",
            &[&agon_web::store::LISTENER_NAME],
        )
        .await
        .unwrap();
    assert_eq!(cut, 2, "both servers' listeners");
    for ply in 0..2 {
        let token = [&white, &black][chooser(&state)];
        let m = random_legal(&state, &mut rng);
        state = post_ok(
            &client,
            format!("{}/api/games/{id}/moves", b.base),
            json!({"token": token, "move": m}),
        )
        .await;
        version += 1;
        until(&mut on_a, version).await;
        until(&mut on_b, version).await;
        assert_eq!(state["version"], version, "ply {ply}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_mid_game_loses_no_move() {
    const GAMES: usize = 4;
    const PLIES: usize = 24;
    let client = reqwest::Client::new();
    let Some((db, [a, b])) = two_servers(&client).await else {
        return;
    };
    let bases = [a.base.clone(), b.base.clone()];
    let mut killed = a;
    let moves_made = Arc::new(AtomicUsize::new(0));
    let dead = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicUsize::new(0));
    let mut games = Vec::new();
    for g in 0..GAMES {
        // White on server g % 2, Black on the other: every game spans both.
        let seats = [g % 2, (g + 1) % 2];
        let (id, white, black, state) =
            friend_game(&client, &bases[seats[0]], &bases[seats[1]], "none").await;
        let pages = seats.map(|server| {
            tokio::spawn(page(
                client.clone(),
                bases.clone(),
                server,
                id.clone(),
                done.clone(),
            ))
        });
        let player = tokio::spawn({
            let (client, bases, moves_made, dead) = (
                client.clone(),
                bases.clone(),
                moves_made.clone(),
                dead.clone(),
            );
            let id = id.clone();
            async move {
                let mut rng = Rng::new(g as u64 + 7);
                let tokens = [white, black];
                let mut state = state;
                // The moves whose answer said they were made, in order.
                let mut accepted: Vec<String> = Vec::new();
                while accepted.len() < PLIES && state["outcome"].is_null() {
                    let mover = chooser(&state);
                    let m = random_legal(&state, &mut rng);
                    // A player on the dead server goes to the other, as a proxy would.
                    let server = if dead.load(Ordering::SeqCst) > 0 {
                        1
                    } else {
                        seats[mover]
                    };
                    let sent = client
                        .post(format!("{}/api/games/{id}/moves", bases[server]))
                        .json(&json!({"token": tokens[mover], "move": m}))
                        .send()
                        .await;
                    match sent {
                        Ok(r) if r.status() == 200 => {
                            state = r.json().await.unwrap();
                            accepted.push(m);
                            moves_made.fetch_add(1, Ordering::SeqCst);
                        }
                        Ok(r) => panic!("{}: {}", r.status(), r.text().await.unwrap()),
                        Err(_) => {
                            // The server died with the request: whether the move landed
                            // is the database's to say, read through the other server.
                            tokio::time::sleep(Duration::from_millis(50)).await;
                            state = get_ok(&client, format!("{}/api/games/{id}", bases[1])).await;
                            let stored = strings(&state["moves"]);
                            if stored.len() == accepted.len() + 1 {
                                assert_eq!(stored.last(), Some(&m));
                                accepted.push(m);
                            } else {
                                assert_eq!(stored, accepted, "a move lost or added");
                            }
                        }
                    }
                }
                (accepted, state)
            }
        });
        games.push((id, pages, player));
    }
    // Mid-game: SIGKILL, no shutdown code runs.
    let deadline = Instant::now() + Duration::from_secs(60);
    while moves_made.load(Ordering::SeqCst) < GAMES * PLIES / 3 {
        assert!(Instant::now() < deadline, "the games did not start");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    killed.kill();
    dead.store(1, Ordering::SeqCst);
    let killed_at = moves_made.load(Ordering::SeqCst);
    let mut results = Vec::new();
    for (id, pages, player) in games {
        let (accepted, state) = player.await.unwrap();
        results.push((id, pages, accepted, state));
    }
    assert!(
        moves_made.load(Ordering::SeqCst) > killed_at,
        "the games went on after the kill"
    );
    // Every page caught up with its game on the surviving server.
    let wait = Instant::now() + Duration::from_secs(10);
    tokio::time::sleep(Duration::from_millis(300)).await;
    done.store(1, Ordering::SeqCst);
    let Database::Postgres(url) = &db else {
        unreachable!()
    };
    let admin = common::pg_client(url).await;
    for (id, pages, accepted, state) in results {
        let final_version = state["version"].as_i64().unwrap();
        for page in pages {
            let versions = page.await.unwrap();
            assert!(Instant::now() < wait);
            assert!(
                versions.windows(2).all(|w| w[0] < w[1]),
                "game {id}: a version twice or out of order: {versions:?}"
            );
            assert_eq!(
                versions.last(),
                Some(&final_version),
                "game {id}: {versions:?}"
            );
        }
        // The database holds exactly the moves the players were told were made, and
        // they replay through agon-core.
        let stored: Vec<String> = admin
            .query(
                "SELECT move FROM moves WHERE game_id = $1 ORDER BY ply",
                &[&id],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert_eq!(stored, accepted, "game {id}");
        let mut game = Game::new();
        for m in &stored {
            game.play(m.parse::<Move>().unwrap()).unwrap();
        }
        assert_eq!(state["position"], game.position().to_text().to_string());
        assert_eq!(state["moves"].as_array().unwrap().len(), stored.len());
    }
}

/// Waits until a listener of the database `admin` is on listens (its last statement
/// `LISTEN`, done) on a connection other than `cut` (the last one cut, which may still
/// be ending), then cuts that connection.
async fn cut_the_listener_once_it_listens(admin: &tokio_postgres::Client, cut: &mut i32) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let listening = admin
            .query_opt(
                "SELECT pid FROM pg_stat_activity
                 WHERE application_name = $1 AND datname = current_database()
                     AND state = 'idle' AND query LIKE 'LISTEN%' AND pid <> $2",
                &[&agon_web::store::LISTENER_NAME, &*cut],
            )
            .await
            .unwrap();
        if let Some(row) = listening {
            // The server answered LISTEN; its listener reads the answer within moments
            // (cut before that, it has not listened and rightly waits longer).
            tokio::time::sleep(Duration::from_millis(50)).await;
            *cut = row.get(0);
            admin
                .execute("SELECT pg_terminate_backend($1)", &[&*cut])
                .await
                .unwrap();
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the listener never listened again"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_listener_cut_after_it_listened_listens_again_after_the_first_wait() {
    let Some(url) = common::postgres_database_here().await else {
        return;
    };
    let mut server = Process::start(&Database::Postgres(url.clone()));
    server.wait_ready(&reqwest::Client::new()).await;
    let admin = common::pg_client(&url).await;
    // Cuts in a row, each once the listener listens again: each is a first failure,
    // waited 100 ms (the wait used to double at each: 100, 200, 400, 800 ms). The fifth
    // cut finds the listener back after the fourth, whose wait is then in the log.
    let mut cut = 0;
    for _ in 0..5 {
        cut_the_listener_once_it_listens(&admin, &mut cut).await;
    }
    let log = std::fs::read_to_string(&server.log).unwrap();
    let waits: Vec<u64> = regex::Regex::new(r"listening to the database: .*; again in (\d+) ms")
        .unwrap()
        .captures_iter(&log)
        .map(|c| c[1].parse().unwrap())
        .collect();
    assert!(waits.len() >= 4, "{log}");
    assert_eq!(waits[..4], [100; 4], "{log}");
}

#[tokio::test]
async fn the_migrations_run_once_and_a_newer_schema_is_refused() {
    let Some(url) = common::postgres_database_here().await else {
        return;
    };
    let db = Database::Postgres(url.clone());
    // Four servers opening a new database at once: each version is applied once.
    let opened =
        futures_util::future::join_all((0..4).map(|_| agon_web::Store::connect(&db, 2))).await;
    assert!(opened.iter().all(Result::is_ok));
    let admin = common::pg_client(&url).await;
    let versions: Vec<i64> = admin
        .query("SELECT version FROM agon_schema ORDER BY version", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(
        versions,
        (1..=agon_web::store::PG_VERSION).collect::<Vec<_>>()
    );
    admin
        .execute("INSERT INTO agon_schema (version) VALUES (99)", &[])
        .await
        .unwrap();
    let refused = agon_web::Store::connect(&db, 2).await.err().unwrap();
    assert!(refused.to_string().contains("newer"), "{refused}");
}
