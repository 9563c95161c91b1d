//! The live events over real HTTP on a loopback port: two people play each other, a third
//! page watches, streams are dropped and reopened mid-game with `Last-Event-ID`, and every
//! version arrives exactly once, in order; presence; a clock that runs out with nobody
//! acting; the bound on open streams.

use std::collections::BTreeMap;
use std::time::Duration;

use agon_core::{Game, Move};
use agon_web::{Config, StreamLimits};
#[macro_use]
mod common;
use common::{strings, Backend, Sse, Stream};

use serde_json::{json, Value};

struct Server {
    base: String,
    client: reqwest::Client,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    served: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    db: common::TestDb,
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

async fn server_with(b: Backend, limits: StreamLimits, clock_minute_ms: i64) -> Server {
    let config = Config {
        workers: 2,
        streams: limits,
        // Every request comes from 127.0.0.1: tests/limits.rs tests the rate limits.
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    let (mut state, db) = common::state(b, config).await;
    state.clock_minute_ms = clock_minute_ms;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(agon_web::serve_on(listener, state, async move {
        let _ = stopped.await;
    }));
    Server {
        base,
        client: reqwest::Client::new(),
        stop: Some(stop),
        served: Some(served),
        db,
    }
}

async fn server(b: Backend) -> Server {
    server_with(b, StreamLimits::default(), 60_000).await
}

impl Server {
    /// Stops the server and waits until `serve_on` has returned.
    async fn shut_down(&mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.served.take().unwrap().await.unwrap().unwrap();
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .client
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    async fn ok(&self, path: &str, body: Value) -> Value {
        let (status, value) = self.post(path, body).await;
        assert!(status < 300, "{path}: {status} {value}");
        value
    }

    async fn get(&self, path: &str) -> Value {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        r.json().await.unwrap()
    }
}

/// Opens `GET /api/games/{id}/events` with the query and `Last-Event-ID`; answers the
/// stream, or the status and body of a refusal.
async fn open(
    s: &Server,
    id: &str,
    query: &str,
    last: Option<i64>,
) -> Result<Stream, (u16, Option<String>, Value)> {
    let mut request = s
        .client
        .get(format!("{}/api/games/{id}/events?{query}", s.base));
    if let Some(last) = last {
        request = request.header("Last-Event-ID", last.to_string());
    }
    let response = request.send().await.unwrap();
    if response.status() != 200 {
        let retry = response
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().to_string());
        return Err((
            response.status().as_u16(),
            retry,
            response.json().await.unwrap(),
        ));
    }
    assert_eq!(
        response.headers()["content-type"].to_str().unwrap(),
        "text/event-stream"
    );
    Ok(common::read_events(response))
}

async fn every_version_once_in_order_across_reconnects(b: Backend) {
    let s = server(b).await;
    let created = s
        .ok(
            "/api/games",
            json!({"opponent": "friend", "side": "white", "name": "Ada"}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["token"].as_str().unwrap().to_string();
    // What the server answered at each version: the moves then.
    let mut history: BTreeMap<i64, Vec<String>> = BTreeMap::new();
    history.insert(0, vec![]);

    let mut watcher = open(&s, &id, "", None).await.unwrap();
    let first = watcher.next("state").await;
    assert_eq!(first.id, Some(0), "the current state at once");
    let joined = s
        .ok(&format!("/api/games/{id}/join"), json!({"name": "Bo"}))
        .await;
    let black = joined["token"].as_str().unwrap().to_string();
    assert_eq!(joined["side"], "black");
    history.insert(1, vec![]);

    let mut streams = [
        open(&s, &id, &format!("token={white}&view=white&since=1"), None)
            .await
            .unwrap(),
        open(&s, &id, &format!("token={black}&view=black&since=1"), None)
            .await
            .unwrap(),
    ];
    // Every version each player's stream got, in order.
    let mut got: [Vec<i64>; 2] = [vec![], vec![]];
    let mut watched: Vec<Sse> = vec![first];
    let tokens = [white.clone(), black.clone()];
    let mut state = s.get(&format!("/api/games/{id}")).await;
    let mut rng = agon_core::random::Rng::new(23);
    let mut ply = 0;
    while state["outcome"].is_null() && ply < 40 {
        let chooser = usize::from(state["chooser"] == "black");
        let legal = strings(&state["legal_moves"]);
        let m = legal[rng.below(legal.len())].clone();
        state = s
            .ok(
                &format!("/api/games/{id}/moves"),
                json!({"token": tokens[chooser], "move": m}),
            )
            .await;
        let version = state["version"].as_i64().unwrap();
        history.insert(version, strings(&state["moves"]));
        ply += 1;
        // Mid-game, now and then: an offer declined (two versions without a move).
        if ply % 9 == 4 {
            let other = 1 - chooser;
            s.ok(
                &format!("/api/games/{id}/draw"),
                json!({"token": tokens[chooser], "answer": "offer"}),
            )
            .await;
            state = s
                .ok(
                    &format!("/api/games/{id}/draw"),
                    json!({"token": tokens[other], "answer": "decline"}),
                )
                .await;
            let version = state["version"].as_i64().unwrap();
            history.insert(version - 1, strings(&state["moves"]));
            history.insert(version, strings(&state["moves"]));
        }
        let version = state["version"].as_i64().unwrap();
        for (n, stream) in streams.iter_mut().enumerate() {
            for event in stream.states_until(version).await {
                got[n].push(event.id.unwrap());
                assert_eq!(event.data["version"], event.id.unwrap());
            }
        }
        // A player's stream dropped and reopened where it was: nothing twice, nothing
        // missed.
        if ply % 5 == 0 {
            let n = ply / 5 % 2;
            let view = ["white", "black"][n];
            streams[n] = open(
                &s,
                &id,
                &format!("token={}&view={view}", tokens[n]),
                Some(version),
            )
            .await
            .unwrap();
            streams[n].quiet(50).await;
        }
        // The watcher drops out for a few changes and comes back with Last-Event-ID.
        if ply % 7 == 0 {
            watched.extend(watcher.states_until(version).await);
            let last = watched.last().unwrap().id;
            drop(watcher);
            for _ in 0..2 {
                if !state["outcome"].is_null() {
                    break;
                }
                let chooser = usize::from(state["chooser"] == "black");
                let legal = strings(&state["legal_moves"]);
                let m = legal[rng.below(legal.len())].clone();
                state = s
                    .ok(
                        &format!("/api/games/{id}/moves"),
                        json!({"token": tokens[chooser], "move": m}),
                    )
                    .await;
                let version = state["version"].as_i64().unwrap();
                history.insert(version, strings(&state["moves"]));
                ply += 1;
                for (n, stream) in streams.iter_mut().enumerate() {
                    for event in stream.states_until(version).await {
                        got[n].push(event.id.unwrap());
                    }
                }
            }
            watcher = open(&s, &id, "", last).await.unwrap();
        }
    }
    let last = state["version"].as_i64().unwrap();
    watched.extend(watcher.states_until(last).await);
    for stream in streams.iter_mut() {
        stream.quiet(100).await;
    }
    watcher.quiet(100).await;

    // The players' streams: every version after 1, exactly once, in order.
    let all: Vec<i64> = (2..=last).collect();
    assert_eq!(got[0], all, "white's stream");
    assert_eq!(got[1], all, "black's stream");
    // The watcher's: strictly increasing (nothing twice), up to the last; each event the
    // game as it was at that version.
    let versions: Vec<i64> = watched.iter().map(|e| e.id.unwrap()).collect();
    assert!(versions.windows(2).all(|w| w[0] < w[1]), "{versions:?}");
    assert_eq!(*versions.last().unwrap(), last);
    for event in &watched {
        let v = event.id.unwrap();
        assert_eq!(event.data["version"], v);
        assert_eq!(strings(&event.data["moves"]), history[&v], "version {v}");
    }
    // The views: each player's board turned their way.
    assert_eq!(state["human"], "white");
    // The final moves replay through agon-core.
    let mut game = Game::new();
    for m in strings(&state["moves"]) {
        game.play(m.parse::<Move>().unwrap()).unwrap();
    }
    assert_eq!(state["position"], game.position().to_text().to_string());
    assert_eq!(s.get(&format!("/api/games/{id}")).await["version"], last);
}

async fn presence_follows_the_open_pages(b: Backend) {
    let s = server(b).await;
    let created = s
        .ok("/api/games", json!({"opponent": "friend", "side": "black"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let creator = created["token"].as_str().unwrap().to_string();
    let mut watcher = open(&s, &id, "", None).await.unwrap();
    let p = watcher.next("presence").await;
    assert_eq!(p.data, json!({"white": false, "black": false}));
    let page = open(&s, &id, &format!("token={creator}"), None)
        .await
        .unwrap();
    let p = watcher.next("presence").await;
    assert_eq!(p.data, json!({"white": false, "black": true}));
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["seats"]["black"]["present"], true);
    assert_eq!(state["seats"]["white"]["present"], false);
    // A wrong token watches: no presence.
    let _other = open(&s, &id, "token=nope", None).await.unwrap();
    drop(page);
    let p = watcher.next("presence").await;
    assert_eq!(p.data, json!({"white": false, "black": false}));
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["seats"]["black"]["present"], false);
}

/// A game between friends with a clock of `1+0` (a clock minute each), both seats taken:
/// its id and White's and Black's tokens.
async fn clocked_friend_game(s: &Server) -> (String, String, String) {
    let created = s
        .ok(
            "/api/games",
            json!({"opponent": "friend", "side": "white", "clock": "1+0"}),
        )
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let white = created["token"].as_str().unwrap().to_string();
    let joined = s.ok(&format!("/api/games/{id}/join"), json!({})).await;
    let black = joined["token"].as_str().unwrap().to_string();
    (id, white, black)
}

/// White plays `f1-e1` in game `id`: Black's clock starts. Answers the state.
async fn white_opens(s: &Server, id: &str, white: &str) -> Value {
    let moved = s
        .ok(
            &format!("/api/games/{id}/moves"),
            json!({"token": white, "move": "f1-e1"}),
        )
        .await;
    assert_eq!(moved["clock"]["running"], "black");
    moved
}

async fn a_clock_that_runs_out_is_pushed_with_nobody_acting(b: Backend) {
    // A clock minute of 400 ms: "1+0" gives each side 400 ms.
    let s = server_with(b, StreamLimits::default(), 400).await;
    let (id, white, black) = clocked_friend_game(&s).await;
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["clock"]["initial_ms"], 400);
    let mut watcher = open(&s, &id, "", None).await.unwrap();
    watcher.next("state").await;
    white_opens(&s, &id, &white).await;
    let after_move = watcher.next("state").await;
    assert_eq!(after_move.data["outcome"], Value::Null);
    // Nobody acts: the server ends the game when Black's time runs out.
    let ended = watcher.next("state").await;
    assert_eq!(
        ended.data["outcome"],
        json!({"winner": "white", "reason": "time-forfeit", "score": "1-0"})
    );
    assert_eq!(ended.data["clock"]["black_ms"], 0);
    assert_eq!(ended.data["clock"]["running"], Value::Null);
    assert_eq!(ended.id, Some(after_move.id.unwrap() + 1));
    // A move after it: 409 game-over, and nothing changes.
    let (status, body) = s
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"token": black, "move": "f11-e11"}),
        )
        .await;
    assert_eq!((status, body["error"].as_str()), (409, Some("game-over")));
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["version"], ended.data["version"]);
    assert_eq!(state["moves"], json!(["f1-e1"]));
}

async fn a_stopped_server_ends_no_game_by_time(b: Backend) {
    // A clock minute of 600 ms: "1+0" gives each side 600 ms.
    let mut s = server_with(b, StreamLimits::default(), 600).await;
    let (id, white, _) = clocked_friend_game(&s).await;
    let moved = white_opens(&s, &id, &white).await;
    // Black's timer is set; the server stops before it fires, and well past its
    // deadline the game is as the server left it: no timer of the stopped server ended
    // it (nor holds its database).
    s.shut_down().await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let store = agon_web::Store::connect(&s.db.db, 2).await.unwrap();
    let game = store.load(&id).await.unwrap().unwrap();
    assert_eq!(game.version, moved["version"].as_i64().unwrap());
    assert_eq!(game.end, None);
    assert_eq!(game.running(), Some(agon_core::Side::Black));
}

async fn open_streams_are_bounded(b: Backend) {
    let limits = StreamLimits {
        max_streams: 3,
        max_per_client: 2,
    };
    let s = server_with(b, limits, 60_000).await;
    let created = s
        .ok("/api/games", json!({"side": "white", "level": "easy"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let a = open(&s, &id, "", None).await.unwrap();
    let b = open(&s, &id, "", None).await.unwrap();
    let (status, retry, body) = open(&s, &id, "", None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (429, Some("rate-limited"))
    );
    assert!(retry.is_some(), "Retry-After");
    // A closed stream frees its place (once the server sees the connection closed).
    drop(a);
    let mut reopened = None;
    for _ in 0..50 {
        if let Ok(stream) = open(&s, &id, "", None).await {
            reopened = Some(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reopened.is_some(), "the closed stream's place was freed");
    drop((b, reopened));
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Unknown games and bad queries are refused.
    let (status, _, body) = open(&s, "0000000000000000", "", None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("unknown-game"))
    );
    let (status, _, body) = open(&s, &id, "since=x", None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid-field"))
    );
    let (status, _, body) = open(&s, &id, "view=red", None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid-field"))
    );
}

async fn the_global_bound_answers_503(b: Backend) {
    let limits = StreamLimits {
        max_streams: 1,
        max_per_client: 10,
    };
    let s = server_with(b, limits, 60_000).await;
    let created = s
        .ok("/api/games", json!({"side": "white", "level": "easy"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    let _a = open(&s, &id, "", None).await.unwrap();
    let (status, retry, body) = open(&s, &id, "", None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (503, Some("too-many-streams"))
    );
    assert!(retry.is_some());
}

both_stores!((flavor = "multi_thread", worker_threads = 2); every_version_once_in_order_across_reconnects, presence_follows_the_open_pages, a_clock_that_runs_out_is_pushed_with_nobody_acting, a_stopped_server_ends_no_game_by_time, open_streams_are_bounded, the_global_bound_answers_503);
