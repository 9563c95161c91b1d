//! Games between friends through the real router (no network): creating with a clock and
//! names, joining, moving by seat, draw and takeback offers, resigning, rematches, a move
//! after the time ran out, pruning, the schema migration; every refusal with its exact
//! status and name, and the game unchanged after it.

use std::sync::Arc;

use agon_core::{Game, Move};
use agon_web::{app, AppState, Config, Store};
#[macro_use]
mod common;
use common::Backend;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

struct Server {
    app: Router,
    store: Arc<Store>,
    _db: Option<common::TestDb>,
}

async fn server_with_minute(b: Backend, clock_minute_ms: i64) -> Server {
    let config = Config {
        workers: 2,
        // Every request comes from one client: tests/limits.rs tests the rate limits.
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    let (mut state, db) = common::state(b, config).await;
    state.clock_minute_ms = clock_minute_ms;
    let store = state.store.clone();
    Server {
        app: app(state),
        store,
        _db: Some(db),
    }
}

async fn server(b: Backend) -> Server {
    server_with_minute(b, 60_000).await
}

struct Answer {
    status: StatusCode,
    body: Value,
}

impl Answer {
    fn error(&self, status: u16, name: &str) {
        assert_eq!(
            self.status.as_u16(),
            status,
            "expected {name}: {}",
            self.body
        );
        assert_eq!(self.body["error"], name, "{}", self.body);
        assert!(self.body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }

    fn ok(self) -> Value {
        assert!(self.status.is_success(), "{} {}", self.status, self.body);
        self.body
    }
}

/// A friend game with both seats: (id, White's token, Black's token).
struct Pair {
    id: String,
    white: String,
    black: String,
}

impl Server {
    async fn send(&self, request: Request<Body>) -> Answer {
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        }
    }

    async fn post(&self, uri: &str, body: Value) -> Answer {
        self.send(
            Request::post(uri)
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap(),
        )
        .await
    }

    async fn get(&self, uri: &str) -> Answer {
        self.send(Request::get(uri).body(Body::empty()).unwrap())
            .await
    }

    async fn state(&self, id: &str) -> Value {
        self.get(&format!("/api/games/{id}")).await.ok()
    }

    async fn answer(&self, id: &str, what: &str, token: &str, answer: &str) -> Answer {
        self.post(
            &format!("/api/games/{id}/{what}"),
            json!({"token": token, "answer": answer}),
        )
        .await
    }

    async fn play(&self, id: &str, token: &str, m: &str) -> Answer {
        self.post(
            &format!("/api/games/{id}/moves"),
            json!({"token": token, "move": m}),
        )
        .await
    }

    /// Creates a friend game (the creator White) and joins it.
    async fn pair(&self, extra: Value) -> Pair {
        let mut body = json!({"opponent": "friend", "side": "white"});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let created = self.post("/api/games", body).await.ok();
        let id = created["id"].as_str().unwrap().to_string();
        let joined = self
            .post(&format!("/api/games/{id}/join"), json!({}))
            .await
            .ok();
        Pair {
            white: created["token"].as_str().unwrap().to_string(),
            black: joined["token"].as_str().unwrap().to_string(),
            id,
        }
    }

    /// Asserts that a refused request left the game as it was.
    async fn unchanged(&self, id: &str, before: &Value) {
        let mut now = self.state(id).await;
        let mut before = before.clone();
        // The clock's figures are as of the answer's time.
        for s in [&mut now, &mut before] {
            if s["clock"].is_object() {
                s["clock"]["now_ms"] = json!(0);
                if let Some(side) = s["clock"]["running"].as_str().map(String::from) {
                    s["clock"][format!("{side}_ms")] = json!(0);
                }
            }
        }
        assert_eq!(now, before, "a refused request changed the game");
    }
}

async fn create_and_join_a_friend_game(b: Backend) {
    let s = server(b).await;
    let created = s
        .post(
            "/api/games",
            json!({"opponent": "friend", "side": "black", "clock": "5+3", "name": "  Ada  "}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED);
    let created = created.body;
    assert_eq!(created["side"], "black");
    let state = &created["state"];
    assert_eq!(state["opponent"], "friend");
    assert_eq!(state["human"], "black");
    assert_eq!(state["level"], Value::Null);
    assert_eq!(state["version"], 0);
    assert_eq!(state["computer_to_move"], false);
    assert_eq!(state["can_undo"], false);
    assert_eq!(
        state["seats"],
        json!({
            "white": {"taken": false, "name": null, "present": false},
            "black": {"taken": true, "name": "Ada", "present": false},
        })
    );
    let clock = &state["clock"];
    assert_eq!(
        (&clock["initial_ms"], &clock["increment_ms"]),
        (&json!(300_000), &json!(3_000))
    );
    assert_eq!(
        (&clock["white_ms"], &clock["black_ms"]),
        (&json!(300_000), &json!(300_000))
    );
    assert_eq!(clock["running"], Value::Null, "not before the first move");
    assert!(clock["now_ms"].as_i64().unwrap() > 1_700_000_000_000);
    assert_eq!(
        state["offers"],
        json!({"draw": null, "takeback": null, "rematch": null})
    );
    assert_eq!(state["rematch_game"], Value::Null);
    let id = created["id"].as_str().unwrap();

    let joined = s
        .post(&format!("/api/games/{id}/join"), json!({"name": "Bo"}))
        .await
        .ok();
    assert_eq!(joined["side"], "white");
    assert_ne!(joined["token"], created["token"]);
    assert_eq!(joined["state"]["version"], 1);
    assert_eq!(joined["state"]["seats"]["white"]["taken"], true);
    assert_eq!(joined["state"]["seats"]["white"]["name"], "Bo");
    // The joiner's answer shows the board its way up; GET takes ?view=.
    assert_eq!(
        joined["state"]["svg"],
        s.state(&format!("{id}?view=white")).await["svg"]
    );
    assert_ne!(joined["state"]["svg"], s.state(id).await["svg"]);

    // A third browser watches.
    let before = s.state(id).await;
    s.post(&format!("/api/games/{id}/join"), json!({}))
        .await
        .error(409, "seat-taken");
    s.unchanged(id, &before).await;
    s.get(&format!("/api/games/{id}?view=red"))
        .await
        .error(400, "invalid-field");
    // Joining what is not a friend game.
    let computer = s
        .post("/api/games", json!({"side": "white", "level": "easy"}))
        .await
        .ok();
    let cid = computer["id"].as_str().unwrap();
    assert_eq!(computer["side"], "white");
    assert_eq!(computer["state"]["opponent"], "computer");
    assert_eq!(computer["state"]["seats"]["black"]["present"], true);
    s.post(&format!("/api/games/{cid}/join"), json!({}))
        .await
        .error(409, "not-a-friend-game");
    s.post("/api/games/0000000000000000/join", json!({}))
        .await
        .error(404, "unknown-game");
    s.post(&format!("/api/games/{id}/join"), json!({"name": ""}))
        .await
        .error(400, "invalid-field");
}

async fn bad_new_games_are_refused(b: Backend) {
    let s = server(b).await;
    for clock in [
        "5", "0+3", "181+0", "5+61", "0.1+0", "5+3+1", "x+y", "", "5 + 3",
    ] {
        s.post(
            "/api/games",
            json!({"opponent": "friend", "side": "white", "clock": clock}),
        )
        .await
        .error(400, "invalid-clock");
    }
    s.post("/api/games", json!({"opponent": "robot", "side": "white"}))
        .await
        .error(400, "invalid-field");
    for name in ["", "   ", "a\u{1}b", &"n".repeat(25)] {
        s.post(
            "/api/games",
            json!({"opponent": "friend", "side": "white", "name": name}),
        )
        .await
        .error(400, "invalid-field");
    }
    // A level given for a friend is not used, but must still be one of the names.
    for level in ["", "expert"] {
        s.post(
            "/api/games",
            json!({"opponent": "friend", "side": "white", "level": level}),
        )
        .await
        .error(400, "invalid-field");
    }
    // A friend needs no level; "none" and null are no clock.
    for clock in [json!("none"), Value::Null] {
        let created = s
            .post(
                "/api/games",
                json!({"opponent": "friend", "side": "random", "clock": clock}),
            )
            .await
            .ok();
        assert_eq!(created["state"]["clock"], Value::Null);
        assert!(created["side"] == "white" || created["side"] == "black");
    }
    // Nothing was stored by the refusals.
    let n = s.store.counts().await.unwrap().0;
    assert_eq!(n, 2);
}

async fn moves_by_seat_and_refusals_change_nothing(b: Backend) {
    let s = server(b).await;
    let g = s.pair(json!({})).await;
    let id = &g.id;
    let before = s.state(id).await;
    s.play(id, &g.black, "b7-c7")
        .await
        .error(409, "not-your-turn");
    s.play(id, "nope", "f1-e1").await.error(403, "wrong-token");
    s.play(id, &g.white, "f1-f12")
        .await
        .error(400, "malformed-move");
    for action in ["computer", "hint", "undo"] {
        s.post(
            &format!("/api/games/{id}/{action}"),
            json!({"token": g.white}),
        )
        .await
        .error(409, "not-against-computer");
    }
    s.unchanged(id, &before).await;
    let state = s.play(id, &g.white, "f1-e1").await.ok();
    assert_eq!(state["version"], 2);
    assert_eq!(state["chooser"], "black");
    assert_eq!(state["computer_to_move"], false);
    s.play(id, &g.white, "e1-f1")
        .await
        .error(409, "not-your-turn");
    let state = s.play(id, &g.black, "b7-c7").await.ok();
    assert_eq!(state["moves"], json!(["f1-e1", "b7-c7"]));
    assert_eq!(state["version"], 3);
    // The record names the seats.
    let record = s.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(record.status, StatusCode::OK);
}

async fn two_moves_for_the_same_ply_one_lands(b: Backend) {
    let s = server(b).await;
    let g = s.pair(json!({})).await;
    for round in 0..10 {
        let state = s.state(&g.id).await;
        let token = if state["chooser"] == "white" {
            &g.white
        } else {
            &g.black
        };
        let legal = state["legal_moves"].as_array().unwrap();
        let (a, b) = (
            legal[0].as_str().unwrap(),
            legal[legal.len() - 1].as_str().unwrap(),
        );
        let (first, second) = tokio::join!(s.play(&g.id, token, a), s.play(&g.id, token, b));
        let mut statuses = [first.status.as_u16(), second.status.as_u16()];
        statuses.sort_unstable();
        assert_eq!(statuses, [200, 409], "round {round}");
        let loser = if first.status == StatusCode::OK {
            &second
        } else {
            &first
        };
        // Computed from the first move's result: the other side's turn, or the game over.
        let name = loser.body["error"].as_str().unwrap();
        assert!(["not-your-turn", "game-over"].contains(&name), "{name}");
        let after = s.state(&g.id).await;
        assert_eq!(after["version"], state["version"].as_i64().unwrap() + 1);
        assert_eq!(
            after["moves"].as_array().unwrap().len(),
            state["moves"].as_array().unwrap().len() + 1
        );
        if !after["outcome"].is_null() {
            break;
        }
    }
}

async fn draw_offers(b: Backend) {
    let s = server(b).await;
    let g = s.pair(json!({})).await;
    let (id, w, b) = (&g.id, &g.white, &g.black);
    let before = s.state(id).await;
    s.answer(id, "draw", b, "accept")
        .await
        .error(409, "no-offer");
    s.answer(id, "draw", w, "decline")
        .await
        .error(409, "no-offer");
    s.answer(id, "draw", w, "maybe")
        .await
        .error(400, "invalid-field");
    s.answer(id, "draw", "nope", "offer")
        .await
        .error(403, "wrong-token");
    s.unchanged(id, &before).await;

    let state = s.answer(id, "draw", w, "offer").await.ok();
    assert_eq!(state["offers"]["draw"], "white");
    let offered = s.state(id).await;
    s.answer(id, "draw", w, "offer")
        .await
        .error(409, "offer-pending");
    s.answer(id, "draw", b, "offer")
        .await
        .error(409, "offer-pending");
    s.answer(id, "draw", w, "accept")
        .await
        .error(409, "no-offer");
    s.unchanged(id, &offered).await;
    let state = s.answer(id, "draw", b, "decline").await.ok();
    assert_eq!(state["offers"]["draw"], Value::Null);
    // A move lets an offer lapse.
    s.answer(id, "draw", b, "offer").await.ok();
    let state = s.play(id, w, "f1-e1").await.ok();
    assert_eq!(state["offers"]["draw"], Value::Null);
    s.answer(id, "draw", b, "offer").await.ok();
    let state = s.answer(id, "draw", w, "accept").await.ok();
    assert_eq!(
        state["outcome"],
        json!({"winner": null, "reason": "agreement", "score": "1/2-1/2"})
    );
    assert!(state["legal_moves"].as_array().unwrap().is_empty());
    s.play(id, b, "b7-c7").await.error(409, "game-over");
    s.answer(id, "draw", b, "offer")
        .await
        .error(409, "game-over");
    // Against the computer: no draw offers.
    let c = s
        .post("/api/games", json!({"side": "white", "level": "easy"}))
        .await
        .ok();
    s.answer(
        c["id"].as_str().unwrap(),
        "draw",
        c["token"].as_str().unwrap(),
        "offer",
    )
    .await
    .error(409, "not-a-friend-game");
}

async fn takeback_requests(b: Backend) {
    let s = server(b).await;
    let g = s.pair(json!({})).await;
    let (id, w, b) = (&g.id, &g.white, &g.black);
    s.answer(id, "takeback", w, "offer")
        .await
        .error(409, "nothing-to-undo");
    s.answer(id, "takeback", b, "accept")
        .await
        .error(409, "no-offer");
    s.play(id, w, "f1-e1").await.ok();
    let after_white = s.state(id).await;
    s.play(id, b, "b7-c7").await.ok();
    // White asks to take back its move (and Black's reply): Black declines.
    s.answer(id, "takeback", w, "offer").await.ok();
    s.answer(id, "takeback", b, "offer")
        .await
        .error(409, "offer-pending");
    s.answer(id, "takeback", w, "accept")
        .await
        .error(409, "no-offer");
    let state = s.answer(id, "takeback", b, "decline").await.ok();
    assert_eq!(state["offers"]["takeback"], Value::Null);
    assert_eq!(state["moves"], json!(["f1-e1", "b7-c7"]));
    // Black asks to take back its own move: White accepts.
    s.answer(id, "takeback", b, "offer").await.ok();
    let state = s.answer(id, "takeback", w, "accept").await.ok();
    assert_eq!(state["moves"], json!(["f1-e1"]));
    assert_eq!(state["chooser"], "black");
    assert_eq!(state["position"], after_white["position"]);
    assert!(state["version"].as_i64() > after_white["version"].as_i64());
    // White asks for both plies back.
    s.play(id, b, "b7-c7").await.ok();
    s.answer(id, "takeback", w, "offer").await.ok();
    let state = s.answer(id, "takeback", b, "accept").await.ok();
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["chooser"], "white");
}

async fn resign_and_rematch_with_colours_swapped(b: Backend) {
    let s = server(b).await;
    let g = s.pair(json!({"clock": "3+2", "name": "Ada"})).await;
    let (id, w, b) = (&g.id, &g.white, &g.black);
    s.answer(id, "rematch", w, "offer")
        .await
        .error(409, "game-not-over");
    s.play(id, w, "f1-e1").await.ok();
    let state = s
        .post(&format!("/api/games/{id}/resign"), json!({"token": b}))
        .await
        .ok();
    assert_eq!(
        state["outcome"],
        json!({"winner": "white", "reason": "resignation", "score": "1-0"})
    );
    assert_eq!(state["clock"]["running"], Value::Null);
    s.post(&format!("/api/games/{id}/resign"), json!({"token": w}))
        .await
        .error(409, "game-over");
    let over = s.state(id).await;
    s.answer(id, "rematch", b, "accept")
        .await
        .error(409, "no-offer");
    s.unchanged(id, &over).await;
    s.answer(id, "rematch", b, "offer").await.ok();
    s.answer(id, "rematch", w, "offer")
        .await
        .error(409, "offer-pending");
    let state = s.answer(id, "rematch", w, "accept").await.ok();
    let new = state["rematch_game"].as_str().unwrap().to_string();
    assert_eq!(state["offers"]["rematch"], Value::Null);
    s.answer(id, "rematch", b, "offer")
        .await
        .error(409, "rematch-exists");
    let rematch = s.state(&new).await;
    assert_eq!(
        rematch["human"], "black",
        "the creator plays the other colour"
    );
    assert_eq!(rematch["opponent"], "friend");
    assert_eq!(rematch["seats"]["black"]["name"], "Ada");
    assert_eq!(rematch["seats"]["white"]["taken"], true);
    assert_eq!(rematch["clock"]["initial_ms"], 180_000);
    assert_eq!(rematch["clock"]["increment_ms"], 2_000);
    assert_eq!(rematch["version"], 0);
    assert_eq!(rematch["moves"], json!([]));
    // Both seats taken from the start: its first move is due, or it is aborted.
    let deadline = rematch["clock"]["first_move_deadline_ms"].as_i64().unwrap();
    let now = rematch["clock"]["now_ms"].as_i64().unwrap();
    assert!((now..=now + 30_000).contains(&deadline), "{deadline} {now}");
    assert_eq!(rematch["can_abort"], true);
    // The same tokens, colours swapped: the old Black now opens.
    s.play(&new, w, "f1-e1").await.error(409, "not-your-turn");
    s.play(&new, b, "f1-e1").await.ok();
    // Against the computer, a rematch is created at once.
    let c = s
        .post("/api/games", json!({"side": "white", "level": "easy"}))
        .await
        .ok();
    let (cid, ct) = (c["id"].as_str().unwrap(), c["token"].as_str().unwrap());
    s.post(&format!("/api/games/{cid}/resign"), json!({"token": ct}))
        .await
        .ok();
    s.answer(cid, "rematch", ct, "accept")
        .await
        .error(409, "no-offer");
    let state = s.answer(cid, "rematch", ct, "offer").await.ok();
    let new = state["rematch_game"].as_str().unwrap();
    let rematch = s.state(new).await;
    assert_eq!(rematch["human"], "black");
    assert_eq!(rematch["level"], "easy");
    assert_eq!(
        rematch["moves"].as_array().unwrap().len(),
        1,
        "the computer opened"
    );
    assert_eq!(rematch["version"], 1);
}

async fn a_move_after_the_time_ran_out_is_refused(b: Backend) {
    // A clock minute of 300 ms: "1+0" is 300 ms a side.
    let s = server_with_minute(b, 300).await;
    let g = s.pair(json!({"clock": "1+0"})).await;
    let (id, w, b) = (&g.id, &g.white, &g.black);
    let state = s.play(id, w, "f1-e1").await.ok();
    assert_eq!(state["clock"]["running"], "black");
    assert_eq!(
        state["clock"]["white_ms"], 300,
        "the first move starts the clock"
    );
    let state = s.play(id, b, "b7-c7").await.ok();
    assert_eq!(state["clock"]["running"], "white");
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    s.play(id, w, "e1-d1").await.error(409, "game-over");
    let state = s.state(id).await;
    assert_eq!(
        state["outcome"],
        json!({"winner": "black", "reason": "time-forfeit", "score": "0-1"})
    );
    assert_eq!(state["moves"], json!(["f1-e1", "b7-c7"]));
    assert_eq!(state["clock"]["white_ms"], 0);
    let record = s.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(record.status, StatusCode::OK);
}

async fn either_seat_aborts_in_the_first_two_plies_and_refusals_change_nothing(b: Backend) {
    let s = server(b).await;
    let aborted = json!({"winner": null, "reason": "aborted", "score": "*"});
    let abort = |id: &str, token: &str| {
        let (id, token) = (id.to_string(), token.to_string());
        let s = &s;
        async move {
            s.post(&format!("/api/games/{id}/abort"), json!({"token": token}))
                .await
        }
    };
    // At 0 plies (White aborts), at 1 ply (Black aborts): no result, no winner.
    for (plies, aborter) in [(0, "white"), (1, "black"), (1, "white"), (0, "black")] {
        let g = s.pair(json!({"clock": "5+3"})).await;
        let id = &g.id;
        if plies == 1 {
            s.play(id, &g.white, "f1-e1").await.ok();
        }
        let state = s.state(id).await;
        assert_eq!(state["can_abort"], true);
        assert!(state["clock"]["first_move_deadline_ms"].is_i64());
        let token = if aborter == "white" {
            &g.white
        } else {
            &g.black
        };
        let state = abort(id, token).await.ok();
        assert_eq!(state["outcome"], aborted, "{plies} plies, {aborter}");
        assert_eq!(state["can_abort"], false);
        assert_eq!(state["legal_moves"], json!([]));
        assert_eq!(state["clock"]["running"], Value::Null);
        // As stored: read back from the database.
        let stored = s.state(id).await;
        assert_eq!(stored["outcome"], aborted);
        assert_eq!(stored["version"], state["version"]);
        // A finished game is not aborted again, nor resigned, nor moved in.
        abort(id, &g.white).await.error(409, "game-over");
        s.post(
            &format!("/api/games/{id}/resign"),
            json!({"token": g.black}),
        )
        .await
        .error(409, "game-over");
        s.unchanged(id, &stored).await;
        let record = s
            .send(
                Request::get(format!("/api/games/{id}/record"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await;
        assert_eq!(record.status, StatusCode::OK);
    }
    // From the second ply on: too late (resign instead); and only a seat may abort.
    let g = s.pair(json!({})).await;
    let id = &g.id;
    abort(id, "nope").await.error(403, "wrong-token");
    s.play(id, &g.white, "f1-e1").await.ok();
    s.play(id, &g.black, "b7-c7").await.ok();
    let before = s.state(id).await;
    assert_eq!(before["can_abort"], false);
    assert_eq!(before["clock"], Value::Null);
    abort(id, &g.white).await.error(409, "too-late-to-abort");
    abort(id, &g.black).await.error(409, "too-late-to-abort");
    abort(id, "nope").await.error(403, "wrong-token");
    s.unchanged(id, &before).await;
    s.post(
        "/api/games/0000000000000000/abort",
        json!({"token": g.white}),
    )
    .await
    .error(404, "unknown-game");
    // Against the computer there is nothing to abort: resign or start again.
    let computer = s
        .post("/api/games", json!({"side": "white", "level": "easy"}))
        .await
        .ok();
    let cid = computer["id"].as_str().unwrap();
    assert_eq!(computer["state"]["can_abort"], false);
    let before = s.state(cid).await;
    abort(cid, computer["token"].as_str().unwrap())
        .await
        .error(409, "not-a-friend-game");
    s.unchanged(cid, &before).await;
}

async fn any_ply_of_a_game_is_drawn_without_changing_it(b: Backend) {
    let s = server(b).await;
    let g = s.pair(json!({})).await;
    let id = &g.id;
    s.play(id, &g.white, "f1-e1").await.ok();
    s.play(id, &g.black, "b7-c7").await.ok();
    let before = s.state(id).await;
    let text = |uri: String| {
        let s = &s;
        async move {
            let response = s
                .app
                .clone()
                .oneshot(Request::get(uri).body(Body::empty()).unwrap())
                .await
                .unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (status, String::from_utf8(bytes.to_vec()).unwrap())
        }
    };
    let mut game = Game::new();
    let mut positions = vec![game.position().to_text().to_string()];
    for m in ["f1-e1", "b7-c7"] {
        game.play(m.parse::<Move>().unwrap()).unwrap();
        positions.push(game.position().to_text().to_string());
    }
    // Each ply's board is the position after that many moves, its last move marked.
    for (ply, last) in [(0, None), (1, Some("f1-e1")), (2, Some("b7-c7"))] {
        for (view, flipped) in [("white", 0), ("black", 1)] {
            let (status, svg) =
                text(format!("/api/games/{id}/board.svg?ply={ply}&view={view}")).await;
            assert_eq!(status, StatusCode::OK);
            let position: String = positions[ply]
                .bytes()
                .map(|c| match c {
                    b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (c as char).to_string(),
                    _ => format!("%{c:02X}"),
                })
                .collect();
            let last = last.map(|m| format!("&last={m}")).unwrap_or_default();
            let (_, expected) = text(format!(
                "/api/board.svg?position={position}&flipped={flipped}{last}"
            ))
            .await;
            assert_eq!(svg, expected, "ply {ply}, {view}");
        }
    }
    // No ply: the board now, the creator's way up.
    let (_, now) = text(format!("/api/games/{id}/board.svg")).await;
    let (_, two) = text(format!("/api/games/{id}/board.svg?ply=2&view=white")).await;
    assert_eq!(now, two);
    s.get(&format!("/api/games/{id}/board.svg?ply=3"))
        .await
        .error(409, "no-such-ply");
    s.get(&format!("/api/games/{id}/board.svg?ply=-1"))
        .await
        .error(400, "invalid-field");
    s.get(&format!("/api/games/{id}/board.svg?view=red"))
        .await
        .error(400, "invalid-field");
    s.get("/api/games/0000000000000000/board.svg")
        .await
        .error(404, "unknown-game");
    s.unchanged(id, &before).await;
}

async fn a_first_move_not_made_in_time_aborts_the_game(b: Backend) {
    // A clock minute of 300 ms: "1+0" is 300 ms a side, less than the 30 s for a first
    // move, so that is the limit.
    let s = server_with_minute(b, 300).await;
    let g = s.pair(json!({"clock": "1+0"})).await;
    let (id, w, b) = (&g.id, &g.white, &g.black);
    let state = s.play(id, w, "f1-e1").await.ok();
    let deadline = state["clock"]["first_move_deadline_ms"].as_i64().unwrap();
    assert!(deadline <= state["clock"]["now_ms"].as_i64().unwrap() + 300);
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    s.play(id, b, "b7-c7").await.error(409, "game-over");
    let state = s.state(id).await;
    assert_eq!(
        state["outcome"],
        json!({"winner": null, "reason": "aborted", "score": "*"})
    );
    assert_eq!(state["moves"], json!(["f1-e1"]));
    // White's first move is as due: 300 ms after Black joined, without a move.
    let g = s.pair(json!({"clock": "1+0"})).await;
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    s.play(&g.id, &g.white, "f1-e1")
        .await
        .error(409, "game-over");
    let state = s.state(&g.id).await;
    assert_eq!(state["outcome"]["reason"], "aborted");
    assert_eq!(state["moves"], json!([]));
    assert_eq!(state["clock"]["white_ms"], 300, "no clock ran");
    // No clock, no limit: an untimed game waits for its first move.
    let g = s.pair(json!({})).await;
    let state = s.state(&g.id).await;
    assert_eq!(state["clock"], Value::Null);
    s.play(&g.id, &g.white, "f1-e1").await.ok();
}

async fn the_clock_counts_each_sides_thinking_and_the_increment(b: Backend) {
    let s = server_with_minute(b, 60_000).await;
    let g = s.pair(json!({"clock": "1+1"})).await;
    let (id, w, b) = (&g.id, &g.white, &g.black);
    let before_white = std::time::Instant::now();
    s.play(id, w, "f1-e1").await.ok();
    let after_white = std::time::Instant::now();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let state = s.play(id, b, "b7-c7").await.ok();
    let after_black = before_white.elapsed().as_millis() as i64;
    let clock = &state["clock"];
    assert_eq!(clock["running"], "white");
    // 60 s, less Black's thinking (from White's move to Black's: at least the 200 ms
    // slept, at most the whole exchange), plus the 1 s increment.
    let thought = 61_000 - clock["black_ms"].as_i64().unwrap();
    assert!((200..=after_black).contains(&thought), "{thought} ms");
    // White's time runs since Black's move: at most the time since then.
    let white = clock["white_ms"].as_i64().unwrap();
    let since = after_white.elapsed().as_millis() as i64;
    assert!(
        (60_000 - since..=60_000).contains(&white),
        "White's time just started: {white}"
    );
    // Replays through agon-core.
    let mut game = Game::new();
    for m in ["f1-e1", "b7-c7"] {
        game.play(m.parse::<Move>().unwrap()).unwrap();
    }
    assert_eq!(state["position"], game.position().to_text().to_string());
}

async fn idle_games_are_pruned(b: Backend) {
    let s = server(b).await;
    let g = s.pair(json!({})).await;
    s.play(&g.id, &g.white, "f1-e1").await.ok();
    let fresh = s.pair(json!({})).await;
    let finished = s.pair(json!({})).await;
    s.post(
        &format!("/api/games/{}/resign", finished.id),
        json!({"token": finished.black}),
    )
    .await
    .ok();
    // The first game and the finished one were last touched 31 days ago.
    let old = agon_web::now_ms() - 31 * 86_400_000;
    for id in [g.id.clone(), finished.id.clone()] {
        let sql = format!("UPDATE games SET touched_ms = {old} WHERE id = '{id}'");
        common::execute(&s.store, &sql).await;
    }
    let idle = agon_web::now_ms() - i64::from(agon_web::DEFAULT_IDLE_DAYS) * 86_400_000;
    // By default finished games are kept: only the unfinished idle one goes.
    assert_eq!(s.store.prune(idle, None).await.unwrap(), 1);
    s.get(&format!("/api/games/{}", g.id))
        .await
        .error(404, "unknown-game");
    s.state(&fresh.id).await;
    assert_eq!(
        s.state(&finished.id).await["outcome"]["reason"],
        "resignation"
    );
    // With --keep-days 30, the finished one goes too.
    assert_eq!(s.store.prune(idle, Some(idle)).await.unwrap(), 1);
    s.get(&format!("/api/games/{}", finished.id))
        .await
        .error(404, "unknown-game");
    s.state(&fresh.id).await;
    let moves = s.store.counts().await.unwrap().1;
    assert_eq!(moves, 0, "the pruned game's moves went with it");
}

#[tokio::test]
async fn a_version_2_database_keeps_its_games() {
    use sha2::Digest;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    let digest: [u8; 32] = sha2::Sha256::digest(b"secret").into();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(&agon_web::store::SqliteStore::schema_sql(2).unwrap())
            .unwrap();
        for (id, resigned) in [("0123456789abcdef", 1), ("fedcba9876543210", 0)] {
            conn.execute(
                "INSERT INTO games (id, token_sha256, human, level, start, seed, resigned,
                     created_unix, rules)
                 VALUES (?1, ?2, 'black', 'easy', ?3, 7, ?4, 1700000000, 'ludii')",
                rusqlite::params![
                    id,
                    &digest[..],
                    agon_core::Position::start().to_text().to_string(),
                    resigned
                ],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO moves (game_id, ply, move) VALUES (?1, 0, 'f1-e1')",
                [id],
            )
            .unwrap();
        }
    }
    for _ in 0..2 {
        let store = agon_web::store::SqliteStore::open(&path).unwrap();
        let version: i64 = store
            .transaction(|tx| Ok(tx.query_row("PRAGMA user_version", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(version, agon_web::store::VERSION);
        let game = store.load("0123456789abcdef").unwrap().unwrap();
        assert!(game.resigned());
        assert_eq!(game.end.unwrap().winner, Some(agon_core::Side::White));
        assert_eq!(game.version, 2, "a move and a resignation");
        let game = store.load("fedcba9876543210").unwrap().unwrap();
        assert_eq!((game.version, game.plies()), (1, 1));
        assert_eq!(game.opponent, agon_web::game::Opponent::Computer);
        assert!(game.clock.is_none());
    }
    // Served: the migrated games answer, and their token still plays.
    let config = Config {
        db: path.clone().into(),
        workers: 1,
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    let s = Server {
        app: app(AppState::open(&config).unwrap()),
        store: Arc::new(Store::open(&path).unwrap()),
        _db: None,
    };
    let _dir = dir;
    let state = s.state("0123456789abcdef").await;
    assert_eq!(state["outcome"]["reason"], "resignation");
    assert_eq!(state["rules"], "ludii");
    let state = s.state("fedcba9876543210").await;
    assert_eq!(state["opponent"], "computer");
    assert_eq!(state["version"], 1);
    let m = state["legal_moves"][0].as_str().unwrap().to_string();
    let state = s.play("fedcba9876543210", "secret", &m).await.ok();
    assert_eq!(state["version"], 3, "the move and the computer's reply");
    // Old games count as touched when they were created, and a resigned one as over: the
    // resigned one, idle since, is kept as finished games are, unless they are pruned too
    // (the other was just played).
    assert_eq!(s.store.prune(1_700_000_000_001, None).await.unwrap(), 0);
    s.state("0123456789abcdef").await;
    assert_eq!(
        s.store
            .prune(1_700_000_000_001, Some(1_700_000_000_001))
            .await
            .unwrap(),
        1
    );
    s.get("/api/games/0123456789abcdef")
        .await
        .error(404, "unknown-game");
}

mod stores_0 {
    use super::*;
    both_stores!((); create_and_join_a_friend_game, bad_new_games_are_refused, moves_by_seat_and_refusals_change_nothing, draw_offers, takeback_requests, resign_and_rematch_with_colours_swapped, a_move_after_the_time_ran_out_is_refused, either_seat_aborts_in_the_first_two_plies_and_refusals_change_nothing, a_first_move_not_made_in_time_aborts_the_game, any_ply_of_a_game_is_drawn_without_changing_it, the_clock_counts_each_sides_thinking_and_the_increment, idle_games_are_pruned);
}

mod stores_1 {
    use super::*;
    both_stores!((flavor = "multi_thread", worker_threads = 2); two_moves_for_the_same_ply_one_lands);
}
