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
use common::{chooser, random_legal, strings, Backend, Sse, Stream};

use serde_json::{json, Value};

struct Server {
    base: String,
    metrics: std::sync::Arc<agon_web::Metrics>,
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
    let metrics = state.metrics.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(agon_web::serve_on(listener, state, async move {
        let _ = stopped.await;
    }));
    Server {
        base,
        metrics,
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
        serde_json::from_str(&self.get_text(path).await).unwrap()
    }

    async fn get_text(&self, path: &str) -> String {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        r.text().await.unwrap()
    }
}

/// A watcher of game `id`, told that nobody is present, then the page of Black's seat
/// (`black`, its token), whose arrival the watcher is told: both streams.
async fn black_arrives(s: &Server, id: &str, black: &str) -> (Stream, Stream) {
    let mut watcher = open(s, id, "", None, None).await.unwrap();
    let p = watcher.next("presence").await;
    assert_eq!(p.data, json!({"white": false, "black": false}));
    let page = open(s, id, "", None, Some(black)).await.unwrap();
    let p = watcher.next("presence").await;
    assert_eq!(p.data, json!({"white": false, "black": true}));
    (watcher, page)
}

/// Game `id`'s event stream opened with the header `Cookie: cookie` (which must open).
async fn watch_with_cookie(s: &Server, id: &str, cookie: &str) -> reqwest::Response {
    let r = s
        .client
        .get(format!("{}/api/games/{id}/events", s.base))
        .header("Cookie", cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    r
}

/// `POST /api/games/{id}/seat` with `token`, which must answer `200`.
async fn post_seat(s: &Server, id: &str, token: &str) -> reqwest::Response {
    let r = s
        .client
        .post(format!("{}/api/games/{id}/seat", s.base))
        .json(&json!({ "token": token }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    r
}

/// The side to move in `state` plays a random legal move with its seat's token (White's
/// and Black's in `tokens`): that side (0 White, 1 Black) and the state after the move.
async fn random_move(
    s: &Server,
    id: &str,
    tokens: &[String; 2],
    state: &Value,
    rng: &mut agon_core::random::Rng,
) -> (usize, Value) {
    let side = chooser(state);
    let m = random_legal(state, rng);
    let after = s
        .ok(
            &format!("/api/games/{id}/moves"),
            json!({"token": tokens[side], "move": m}),
        )
        .await;
    (side, after)
}

/// The cookie `POST /api/games/{id}/seat` sets for `token`: its `name=value`.
async fn seat_cookie(s: &Server, id: &str, token: &str) -> String {
    let r = post_seat(s, id, token).await;
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    cookie.split(';').next().unwrap().to_string()
}

/// Opens `GET /api/games/{id}/events` with the query, as a page that has the state `page`
/// (sent as `Last-Event-ID`; the stream's changes apply to it) and the seat of `token`
/// (its cookie); answers the stream, or the status and body of a refusal.
async fn open(
    s: &Server,
    id: &str,
    query: &str,
    page: Option<&Value>,
    token: Option<&str>,
) -> Result<Stream, (u16, Option<String>, Value)> {
    let mut request = s
        .client
        .get(format!("{}/api/games/{id}/events?{query}", s.base));
    if let Some(page) = page {
        request = request.header("Last-Event-ID", page["version"].to_string());
    }
    if let Some(token) = token {
        request = request.header("Cookie", seat_cookie(s, id, token).await);
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
    Ok(common::read_events_from(response, page.cloned()))
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

    let mut watcher = open(&s, &id, "", None, None).await.unwrap();
    let first = watcher.next("state").await;
    assert_eq!(first.id, Some(0), "the current state at once");
    let joined = s
        .ok(&format!("/api/games/{id}/join"), json!({"name": "Bo"}))
        .await;
    let black = joined["token"].as_str().unwrap().to_string();
    assert_eq!(joined["side"], "black");
    history.insert(1, vec![]);

    let at_1 = &joined["state"];
    assert_eq!(at_1["version"], 1);
    let mut streams = [
        open(&s, &id, "view=white", Some(at_1), Some(&white))
            .await
            .unwrap(),
        open(&s, &id, "view=black", Some(at_1), Some(&black))
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
        let (chooser, after) = random_move(&s, &id, &tokens, &state, &mut rng).await;
        state = after;
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
                &format!("view={view}"),
                Some(&state),
                Some(&tokens[n]),
            )
            .await
            .unwrap();
            streams[n].quiet(50).await;
        }
        // The watcher drops out for a few changes and comes back with Last-Event-ID.
        if ply % 7 == 0 {
            watched.extend(watcher.states_until(version).await);
            let last = watched.last().unwrap().data.clone();
            drop(watcher);
            for _ in 0..2 {
                if !state["outcome"].is_null() {
                    break;
                }
                (_, state) = random_move(&s, &id, &tokens, &state, &mut rng).await;
                let version = state["version"].as_i64().unwrap();
                history.insert(version, strings(&state["moves"]));
                ply += 1;
                for (n, stream) in streams.iter_mut().enumerate() {
                    for event in stream.states_until(version).await {
                        got[n].push(event.id.unwrap());
                    }
                }
            }
            watcher = open(&s, &id, "", Some(&last), None).await.unwrap();
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
    let (mut watcher, page) = black_arrives(&s, &id, &creator).await;
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["seats"]["black"]["present"], true);
    assert_eq!(state["seats"]["white"]["present"], false);
    // A cookie with a wrong token watches: no presence.
    let wrong = watch_with_cookie(&s, &id, "agon_seat_white=nope; agon_seat_black=nope").await;
    drop(page);
    let p = watcher.next("presence").await;
    assert_eq!(p.data, json!({"white": false, "black": false}));
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["seats"]["black"]["present"], false);
    drop(wrong);
}

/// A game between friends with a clock of `1+0` (a clock minute each), both seats taken:
/// its id and White's and Black's tokens.
async fn clocked_friend_game(s: &Server) -> (String, String, String) {
    let (id, white, black, _) = friend_pair_with(s, json!({"clock": "1+0"})).await;
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
    // A clock minute of 800 ms: "1+0" gives each side 800 ms.
    let s = server_with(b, StreamLimits::default(), 800).await;
    let (id, white, black) = clocked_friend_game(&s).await;
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["clock"]["initial_ms"], 800);
    let mut watcher = open(&s, &id, "", None, None).await.unwrap();
    watcher.next("state").await;
    white_opens(&s, &id, &white).await;
    watcher.next("state").await;
    // Black's first move: from now on White's time runs out rather than a first move.
    s.ok(
        &format!("/api/games/{id}/moves"),
        json!({"token": black, "move": "b7-c7"}),
    )
    .await;
    let after_move = watcher.next("state").await;
    assert_eq!(after_move.data["outcome"], Value::Null);
    assert_eq!(
        after_move.data["clock"]["first_move_deadline_ms"],
        Value::Null
    );
    // Nobody acts: the server ends the game when White's time runs out.
    let ended = watcher.next("state").await;
    assert_eq!(
        ended.data["outcome"],
        json!({"winner": "black", "reason": "time-forfeit", "score": "0-1"})
    );
    assert_eq!(ended.data["clock"]["white_ms"], 0);
    assert_eq!(ended.data["clock"]["running"], Value::Null);
    assert_eq!(ended.id, Some(after_move.id.unwrap() + 1));
    // A move after it: 409 game-over, and nothing changes.
    let (status, body) = s
        .post(
            &format!("/api/games/{id}/moves"),
            json!({"token": white, "move": "e1-d1"}),
        )
        .await;
    assert_eq!((status, body["error"].as_str()), (409, Some("game-over")));
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["version"], ended.data["version"]);
    assert_eq!(state["moves"], json!(["f1-e1", "b7-c7"]));
}

async fn a_first_move_not_made_in_time_is_pushed_as_an_abort(b: Backend) {
    // A clock minute of 500 ms: "1+0" gives each side 500 ms, less than the 30 s a side
    // has for its first move, so 500 ms is that limit too.
    let s = server_with(b, StreamLimits::default(), 500).await;
    let aborted = json!({"winner": null, "reason": "aborted", "score": "*"});
    // White never moves: the wait began when Black joined.
    let (id, _, black) = clocked_friend_game(&s).await;
    let mut watcher = open(&s, &id, "", None, None).await.unwrap();
    let first = watcher.next("state").await;
    let clock = &first.data["clock"];
    assert_eq!(
        clock["running"],
        Value::Null,
        "no time runs before the first move"
    );
    let deadline = clock["first_move_deadline_ms"].as_i64().unwrap();
    let now = clock["now_ms"].as_i64().unwrap();
    assert!((now..=now + 500).contains(&deadline), "{deadline} vs {now}");
    let ended = watcher.next("state").await;
    assert_eq!(ended.data["outcome"], aborted);
    assert_eq!(ended.id, Some(first.id.unwrap() + 1));
    // Neither side lost time: no clock ran.
    assert_eq!(ended.data["clock"]["white_ms"], 500);
    assert_eq!(ended.data["clock"]["first_move_deadline_ms"], Value::Null);
    assert_eq!(ended.data["can_abort"], false);
    let (status, body) = s
        .post(&format!("/api/games/{id}/abort"), json!({"token": black}))
        .await;
    assert_eq!((status, body["error"].as_str()), (409, Some("game-over")));

    // Black never replies to White's first move: aborted too, not lost on time.
    let (id, white, _) = clocked_friend_game(&s).await;
    let mut watcher = open(&s, &id, "", None, None).await.unwrap();
    watcher.next("state").await;
    let moved = white_opens(&s, &id, &white).await;
    assert!(moved["clock"]["first_move_deadline_ms"].is_i64());
    let after_move = watcher.next("state").await;
    let ended = watcher.next("state").await;
    assert_eq!(ended.data["outcome"], aborted);
    assert_eq!(ended.id, Some(after_move.id.unwrap() + 1));
    assert_eq!(
        ended.data["clock"]["black_ms"], 0,
        "Black's clock ran, but no result"
    );
    let state = s.get(&format!("/api/games/{id}")).await;
    assert_eq!(state["outcome"], aborted);
    assert_eq!(state["moves"], json!(["f1-e1"]));
    let record = s.get_text(&format!("/api/games/{id}/record")).await;
    assert!(record.contains("[Termination \"aborted\"]"), "{record}");
    assert!(record.trim_end().ends_with('*'), "{record}");
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

/// A server whose event streams are bounded by `max_streams` in all and `max_per_client`
/// per client address, and the id of a game against the computer on it.
async fn bounded(b: Backend, max_streams: usize, max_per_client: usize) -> (Server, String) {
    let limits = StreamLimits {
        max_streams,
        max_per_client,
    };
    let s = server_with(b, limits, 60_000).await;
    let created = s
        .ok("/api/games", json!({"side": "white", "level": "easy"}))
        .await;
    let id = created["id"].as_str().unwrap().to_string();
    (s, id)
}

async fn open_streams_are_bounded(b: Backend) {
    let (s, id) = bounded(b, 3, 2).await;
    let a = open(&s, &id, "", None, None).await.unwrap();
    let b = open(&s, &id, "", None, None).await.unwrap();
    let (status, retry, body) = open(&s, &id, "", None, None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (429, Some("rate-limited"))
    );
    assert!(retry.is_some(), "Retry-After");
    // A closed stream frees its place (once the server sees the connection closed).
    drop(a);
    let mut reopened = None;
    for _ in 0..50 {
        if let Ok(stream) = open(&s, &id, "", None, None).await {
            reopened = Some(stream);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(reopened.is_some(), "the closed stream's place was freed");
    drop((b, reopened));
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Unknown games and bad queries are refused.
    let (status, _, body) = open(&s, "0000000000000000", "", None, None)
        .await
        .err()
        .unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("unknown-game"))
    );
    let (status, _, body) = open(&s, &id, "since=x", None, None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid-field"))
    );
    let (status, _, body) = open(&s, &id, "view=red", None, None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (400, Some("invalid-field"))
    );
}

async fn the_global_bound_answers_503(b: Backend) {
    let (s, id) = bounded(b, 1, 10).await;
    let _a = open(&s, &id, "", None, None).await.unwrap();
    let (status, retry, body) = open(&s, &id, "", None, None).await.err().unwrap();
    assert_eq!(
        (status, body["error"].as_str()),
        (503, Some("too-many-streams"))
    );
    assert!(retry.is_some());
}

/// A friend game, both seats taken: its id, White's and Black's tokens, and the state
/// after the join (version 1).
async fn friend_pair(s: &Server) -> (String, String, String, Value) {
    friend_pair_with(s, json!({})).await
}

/// [`friend_pair`] created with the fields of `extra` too (a clock, a name).
async fn friend_pair_with(s: &Server, extra: Value) -> (String, String, String, Value) {
    let mut body = json!({"opponent": "friend", "side": "white"});
    for (key, value) in extra.as_object().into_iter().flatten() {
        body[key] = value.clone();
    }
    let created = s.ok("/api/games", body).await;
    let id = created["id"].as_str().unwrap().to_string();
    let joined = s.ok(&format!("/api/games/{id}/join"), json!({})).await;
    let tokens = [&created, &joined].map(|v| v["token"].as_str().unwrap().to_string());
    let [white, black] = tokens;
    (id, white, black, joined["state"].clone())
}

/// The actions of [`every_stream_gets_the_same_bytes_built_once`] and
/// [`a_change_gives_the_state_a_get_answers`], in game `id`: four moves, a draw offered and
/// declined, a takeback asked and granted (White's last two plies). Answers the last
/// version and the number of `change` texts they make: two per version whose board
/// changed (one per view), one per other version.
async fn play_some(
    s: &Server,
    id: &str,
    white: &str,
    black: &str,
    mut after: impl AsyncFnMut(i64),
) -> (i64, u64) {
    let mut texts = 0;
    let tokens = [white, black];
    for n in 0..4 {
        // The first legal move (of the side to move: White first).
        let now = s.get(&format!("/api/games/{id}")).await;
        let m = now["legal_moves"][0].as_str().unwrap().to_string();
        let state = s
            .ok(
                &format!("/api/games/{id}/moves"),
                json!({"token": tokens[n % 2], "move": m}),
            )
            .await;
        texts += 2;
        after(state["version"].as_i64().unwrap()).await;
    }
    let steps = [
        ("draw", white, "offer", 1),
        ("draw", black, "decline", 1),
        ("takeback", white, "offer", 1),
        ("takeback", black, "accept", 2),
    ];
    let mut last = 0;
    for (what, token, answer, made) in steps {
        let state = s
            .ok(
                &format!("/api/games/{id}/{what}"),
                json!({"token": token, "answer": answer}),
            )
            .await;
        texts += made;
        last = state["version"].as_i64().unwrap();
        after(last).await;
    }
    (last, texts)
}

/// The count of event texts of `kind` the server built.
fn built(s: &Server, kind: &str) -> u64 {
    let text = s.metrics.encode();
    let prefix = format!("agon_event_texts_built_total{{kind=\"{kind}\"}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .map_or(0, |n| n.trim().parse().unwrap())
}

/// Reads a stream's raw bytes until the frame of version `last` ended.
async fn raw_until(mut response: reqwest::Response, last: i64) -> String {
    let mut text = String::new();
    let marker = format!("\nid: {last}\n");
    loop {
        if let Some(at) = text.find(&marker) {
            if text[at..].contains("\n\n") {
                return text;
            }
        }
        let chunk = tokio::time::timeout(Duration::from_secs(5), response.chunk())
            .await
            .expect("the stream goes on within 5 s")
            .unwrap()
            .expect("the stream is open");
        text.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

/// Many streams of one game, each view's: every stream of a view receives the very same
/// bytes, and each version's text was serialised once per view (the server's count of
/// texts built), whatever the number of streams. Before, each stream serialised the whole
/// state for itself.
async fn every_stream_gets_the_same_bytes_built_once(b: Backend) {
    let s = server(b).await;
    let (id, white, black, at_1) = friend_pair(&s).await;
    const PER_VIEW: usize = 4;
    let mut responses = Vec::new();
    for n in 0..2 * PER_VIEW {
        let view = ["white", "black"][n % 2];
        let r = s
            .client
            .get(format!(
                "{}/api/games/{id}/events?since=1&view={view}",
                s.base
            ))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
        responses.push(r);
    }
    assert_eq!(at_1["version"], 1);
    let before = (built(&s, "state"), built(&s, "change"));
    let (last, texts) = play_some(&s, &id, &white, &black, async |_| {}).await;
    let mut raw = Vec::new();
    for r in responses {
        raw.push(raw_until(r, last).await);
    }
    for n in 2..raw.len() {
        assert_eq!(
            raw[n],
            raw[n % 2],
            "stream {n}: the bytes of its view's first stream"
        );
    }
    assert_ne!(
        raw[0], raw[1],
        "the views differ (the board is drawn turned)"
    );
    // One change a version, applying to the one before, and nothing else but presence.
    let changes = raw[0].matches("event: change\n").count() as i64;
    assert_eq!(changes, last - 1);
    assert_eq!(raw[0].matches("event: state\n").count(), 0);
    assert_eq!(built(&s, "state"), before.0, "no whole state was needed");
    assert_eq!(
        built(&s, "change") - before.1,
        texts,
        "each text built once, for 8 streams"
    );
}

/// Each `change` a stream sends, applied to the state before it, gives the very state a
/// `GET` answers at that version, for both views, through moves, an offer and a takeback.
async fn a_change_gives_the_state_a_get_answers(b: Backend) {
    let s = server(b).await;
    let (id, white, black, _) = friend_pair(&s).await;
    let mut streams = Vec::new();
    for view in ["white", "black"] {
        let page = s.get(&format!("/api/games/{id}?view={view}")).await;
        let query = format!("view={view}");
        streams.push((
            view,
            open(&s, &id, &query, Some(&page), None).await.unwrap(),
        ));
    }
    let mut checked = 0;
    let (last, _) = play_some(&s, &id, &white, &black, async |version| {
        for (view, stream) in streams.iter_mut() {
            let event = stream.next("state").await;
            assert_eq!(event.id, Some(version));
            assert_eq!(event.kind, "change", "version {version}");
            let change = event.change.as_ref().unwrap();
            assert_eq!(change["base"], version - 1);
            let fetched = s.get(&format!("/api/games/{id}?view={view}")).await;
            assert_eq!(event.data, fetched, "version {version}, {view}'s view");
            checked += 1;
        }
    })
    .await;
    assert_eq!(checked, 2 * (last - 1));
}

/// A seat is known by the cookie `POST /api/games/{id}/seat` sets, never by a token in
/// the stream's address (which a proxy's access log would keep): that is refused.
async fn a_seat_is_known_by_its_cookie_never_by_a_token_in_the_address(b: Backend) {
    let s = server(b).await;
    let (id, _white, black, _) = friend_pair(&s).await;
    let (status, body) = s
        .post(&format!("/api/games/{id}/seat"), json!({"token": "nope"}))
        .await;
    assert_eq!((status, body["error"].as_str()), (403, Some("wrong-token")));
    let (status, body) = s
        .post("/api/games/0000000000000000/seat", json!({"token": black}))
        .await;
    assert_eq!(
        (status, body["error"].as_str()),
        (404, Some("unknown-game"))
    );
    let r = post_seat(&s, &id, &black).await;
    assert_eq!(
        r.headers()["set-cookie"].to_str().unwrap(),
        format!("agon_seat_black={black}; Path=/api/games/{id}; HttpOnly; SameSite=Strict")
    );
    assert_eq!(r.json::<Value>().await.unwrap(), json!({"side": "black"}));
    // The token in the address: refused, whatever else the query holds.
    for query in [
        format!("token={black}"),
        format!("since=1&token={black}&view=black"),
    ] {
        let (status, _, body) = open(&s, &id, &query, None, None).await.err().unwrap();
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("invalid-field"))
        );
        assert!(
            body["message"].as_str().unwrap().contains("/seat"),
            "{body}"
        );
    }
    // The cookie: Black is present while the stream is open.
    let (mut watcher, page) = black_arrives(&s, &id, &black).await;
    // A cookie naming the other seat with this token proves nothing.
    let wrong = watch_with_cookie(&s, &id, &format!("agon_seat_white={black}")).await;
    drop(page);
    let p = watcher.next("presence").await;
    assert_eq!(p.data, json!({"white": false, "black": false}));
    drop(wrong);
}

both_stores!((flavor = "multi_thread", worker_threads = 2); every_stream_gets_the_same_bytes_built_once, a_change_gives_the_state_a_get_answers, a_seat_is_known_by_its_cookie_never_by_a_token_in_the_address, every_version_once_in_order_across_reconnects, presence_follows_the_open_pages, a_clock_that_runs_out_is_pushed_with_nobody_acting, a_first_move_not_made_in_time_is_pushed_as_an_abort, a_stopped_server_ends_no_game_by_time, open_streams_are_bounded, the_global_bound_answers_503);
