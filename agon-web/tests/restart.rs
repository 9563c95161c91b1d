//! The real server process: killed with SIGKILL in the middle of a game and started again
//! on the same database, it has lost no move.

use serde_json::{json, Value};

#[macro_use]
mod common;
use common::Process as Server;

async fn post(client: &reqwest::Client, url: String, body: Value) -> Value {
    let r = client.post(url).json(&body).send().await.unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    r.json().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_loses_no_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("games.sqlite3");
    let client = reqwest::Client::new();

    let mut server = Server::start(&db.clone().into());
    server.wait_ready(&client).await;
    let created = post(
        &client,
        format!("{}/api/games", server.base),
        json!({"side": "white", "level": "easy"}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["token"].as_str().unwrap().to_string();
    let mut state = created["state"].clone();
    for _ in 0..3 {
        let m = state["legal_moves"][0].as_str().unwrap().to_string();
        state = post(
            &client,
            format!("{}/api/games/{id}/moves", server.base),
            json!({"token": token, "move": m}),
        )
        .await;
    }
    // The last request stored a move and asked for no reply: the computer is to move.
    let m = state["legal_moves"][0].as_str().unwrap().to_string();
    state = post(
        &client,
        format!("{}/api/games/{id}/moves", server.base),
        json!({"token": token, "move": m, "reply": false}),
    )
    .await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 7);
    assert_eq!(state["computer_to_move"], true);

    server.kill();
    let first_log = server.log.clone();
    let mut server = Server::start(&db.clone().into());
    server.wait_ready(&client).await;
    let again = common::get_ok(&client, format!("{}/api/games/{id}", server.base)).await;
    assert_eq!(again, state, "the same game, to the move");
    // The game goes on, and the token still holds.
    let next = post(
        &client,
        format!("{}/api/games/{id}/computer", server.base),
        json!({"token": token}),
    )
    .await;
    assert_eq!(next["moves"].as_array().unwrap().len(), 8);
    assert_eq!(next["computer_to_move"], false);
    // The secret token never reaches the logs, nor the database.
    let logs = [&first_log, &server.log].map(|p| std::fs::read_to_string(p).unwrap());
    assert!(logs[0].contains("agon-web: listening on"), "{}", logs[0]);
    assert!(logs.iter().all(|l| !l.contains(&token)));
    for file in [db.clone(), db.with_extension("sqlite3-wal")] {
        let stored = std::fs::read(&file).unwrap_or_default();
        assert!(!stored.windows(token.len()).any(|w| w == token.as_bytes()));
    }
}
