//! Every endpoint of the JSON API and every kind of bad input, through the real router
//! (no network): exact statuses, error names, and that a failed request changes nothing.

use std::sync::Arc;

use agon_core::{Game, Move, Position, Record};
use agon_web::{Config, Workers};
#[macro_use]
mod common;
use common::{strings, Api as Server, Backend, BLACK_RETURNS, START};

use axum::body::Body;
use axum::http::{header, Method, Request, StatusCode};
use serde_json::{json, Value};

async fn server_with(b: Backend, workers: Arc<Workers>) -> Server {
    server_with_limit(b, workers, agon_web::api::MAX_PLIES).await
}

async fn server_with_limit(b: Backend, workers: Arc<Workers>, max_plies: usize) -> Server {
    let config = Config {
        // These tests are about the API: tests/limits.rs tests the limits.
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    let (mut state, db) = common::state(b, config).await;
    state.workers = workers;
    state.max_plies = max_plies;
    Server::new(state, db)
}

async fn server(b: Backend) -> Server {
    server_with(b, Arc::new(Workers::new(2))).await
}

/// The state without its version (which every change moves on, a takeback too).
fn unversioned(state: &Value) -> Value {
    let mut state = state.clone();
    state.as_object_mut().unwrap().remove("version");
    state
}

/// Replays a state's moves from its start through agon-core and checks that the state
/// says what the core says.
fn check_against_core(state: &Value, start: Position) {
    let mut game = Game::from_position(start);
    for m in strings(&state["moves"]) {
        game.play(m.parse::<Move>().unwrap()).unwrap();
    }
    assert_eq!(state["position"], game.position().to_text().to_string());
    check_parts(state, game.position());
    if game.is_over() {
        assert!(strings(&state["legal_moves"]).is_empty());
    } else if state["outcome"].is_null() {
        let core: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(strings(&state["legal_moves"]), core);
    }
}

/// The state's `legal` and `pieces`: the same moves as `legal_moves` with their parts, and
/// the pieces of the position, so that the page parses no notation.
fn check_parts(state: &Value, position: &Position) {
    let legal = state["legal"].as_array().unwrap();
    assert_eq!(legal.len(), state["legal_moves"].as_array().unwrap().len());
    for (entry, text) in legal.iter().zip(strings(&state["legal_moves"])) {
        let m: Move = text.parse().unwrap();
        assert_eq!(entry["move"], text);
        assert_eq!(entry["from"], json!(m.from().map(|c| c.to_string())));
        assert_eq!(entry["to"], json!(m.to().map(|c| c.to_string())));
        let kind = if m.is_pass() {
            "pass"
        } else if m.is_return() {
            "return"
        } else {
            "step"
        };
        assert_eq!(entry["kind"], kind);
    }
    let pieces = state["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), position.pieces().count());
    for (entry, (cell, piece)) in pieces.iter().zip(position.pieces()) {
        assert_eq!(entry["cell"], cell.to_string());
        assert_eq!(entry["side"], agon_web::side_name(piece.side));
        assert_eq!(entry["kind"], piece.kind.to_string());
        assert_eq!(entry["captured"], position.is_captured(cell));
    }
}

/// After 1. k1-i1 b7-c7: White's f1-g1 captures the guard on h1 (README example).
const CAPTURE: &str = "Qf1,Ga5,Gb1,Gd9,Gh9,Gi1,Gl5/qf11,ga2,gc7,gd1,gh1,gk7,gl2 w";
/// White's h5-g6 completes the throne ring with the queen on the throne: White wins.
const THRONE_IN_ONE: &str = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";

async fn create_answers_id_token_and_the_start(b: Backend) {
    let s = server(b).await;
    let (id, token, state) = s.create(json!({"side": "white", "level": "easy"})).await;
    assert_eq!(id.len(), 16);
    assert!(id
        .bytes()
        .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
    assert_eq!(token.len(), 32);
    assert_eq!(state["id"], id);
    assert_eq!(state["human"], "white");
    assert_eq!(state["level"], "easy");
    assert_eq!(state["position"], START);
    assert_eq!(state["to_move"], "white");
    assert_eq!(state["must_return"], false);
    assert_eq!(strings(&state["legal_moves"]).len(), 27);
    assert!(strings(&state["moves"]).is_empty());
    assert_eq!(state["last_move"], Value::Null);
    assert_eq!(state["outcome"], Value::Null);
    assert_eq!(state["computer_to_move"], false);
    assert_eq!(state["can_undo"], false);
    assert!(state["svg"].as_str().unwrap().starts_with("<svg"));
    // The same state is read back, and the token is not in it.
    assert_eq!(s.state(&id).await, state);
    assert!(!s
        .get(&format!("/api/games/{id}"))
        .await
        .text
        .contains(&token));
}

async fn playing_black_the_computer_opens(b: Backend) {
    let s = server(b).await;
    for level in ["easy", "medium", "hard"] {
        let (_, _, state) = s.create(json!({"side": "black", "level": level})).await;
        assert_eq!(state["human"], "black");
        assert_eq!(state["level"], level);
        assert_eq!(strings(&state["moves"]).len(), 1, "the computer moved");
        assert_eq!(state["to_move"], "black");
        assert_eq!(state["computer_to_move"], false);
        assert_eq!(
            state["can_undo"], false,
            "the computer's move is not the human's"
        );
        check_against_core(&state, Position::start());
        // Black at the bottom: the board is turned.
        let flipped = agon_svg::Svg::new(&state["position"].as_str().unwrap().parse().unwrap())
            .size(None)
            .flipped(true)
            .last_move(Some(strings(&state["moves"])[0].parse().unwrap()))
            .to_string();
        assert_eq!(state["svg"], flipped);
    }
}

async fn random_side_gives_both_sides(b: Backend) {
    let s = server(b).await;
    let mut seen = std::collections::HashSet::new();
    for _ in 0..64 {
        let (_, _, state) = s.create(json!({"side": "random", "level": "easy"})).await;
        let human = state["human"].as_str().unwrap().to_string();
        assert_eq!(
            strings(&state["moves"]).len(),
            usize::from(human == "black")
        );
        seen.insert(human);
    }
    assert_eq!(seen.len(), 2, "64 random sides were all {seen:?}");
}

async fn create_refuses_bad_requests(b: Backend) {
    let s = server(b).await;
    s.post("/api/games", json!({"side": "purple", "level": "easy"}))
        .await
        .error(400, "invalid-field");
    s.post("/api/games", json!({"side": "white", "level": "expert"}))
        .await
        .error(400, "invalid-field");
    s.post(
        "/api/games",
        json!({"side": "white", "level": "easy", "position": "Qf1/qf11 w"}),
    )
    .await
    .error(400, "invalid-field");
    // The level is required against the computer (a friend needs none).
    s.post("/api/games", json!({"side": "white"}))
        .await
        .error(400, "invalid-field");
    s.post(
        "/api/games",
        json!({"side": "white", "level": "easy", "colour": "x"}),
    )
    .await
    .error(400, "malformed-json");
    s.post("/api/games", json!({"side": 1, "level": "easy"}))
        .await
        .error(400, "malformed-json");
    s.post("/api/games", json!(["white", "easy"]))
        .await
        .error(400, "malformed-json");
    s.post_raw("/api/games", "application/json", "{\"side\": \"white\",")
        .await
        .error(400, "malformed-json");
    s.post_raw("/api/games", "application/json", vec![0xff, 0xfe, 0x00])
        .await
        .error(400, "malformed-json");
    s.post_raw(
        "/api/games",
        "text/plain",
        r#"{"side":"white","level":"easy"}"#,
    )
    .await
    .error(415, "unsupported-media-type");
    s.request(Request::post("/api/games").body(Body::empty()).unwrap())
        .await
        .error(415, "unsupported-media-type");
    let huge = format!(
        r#"{{"side":"white","level":"easy","position":"{}"}}"#,
        "x".repeat(5000)
    );
    s.post_raw("/api/games", "application/json", huge)
        .await
        .error(413, "body-too-large");
    // None of these made a game.
    let n = s.store.counts().await.unwrap().0;
    assert_eq!(n, 0);
}

async fn a_move_and_the_reply(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s.create(json!({"side": "white", "level": "easy"})).await;
    let answer = s.play(&id, &token, "f1-e1", true).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let state = answer.json();
    let moves = strings(&state["moves"]);
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0], "f1-e1");
    assert_eq!(state["last_move"], moves[1]);
    assert_eq!(state["to_move"], "white");
    assert_eq!(state["can_undo"], true);
    check_against_core(&state, Position::start());
    // Stored: a new request reads the same game.
    assert_eq!(s.state(&id).await, state);
}

async fn a_move_without_reply_then_the_computer(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s.create(json!({"side": "white", "level": "medium"})).await;
    // The pair form is accepted too.
    let state = s.play(&id, &token, "k1i1", false).await.json();
    assert_eq!(strings(&state["moves"]), ["k1-i1"]);
    assert_eq!(state["computer_to_move"], true);
    assert_eq!(state["to_move"], "black");
    // While the computer is to move, the person cannot.
    s.play(&id, &token, "f1-e1", false)
        .await
        .error(409, "not-your-turn");
    s.act(&id, "computer", &"0".repeat(32))
        .await
        .error(403, "wrong-token");
    let answer = s.act(&id, "computer", &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let state = answer.json();
    assert_eq!(strings(&state["moves"]).len(), 2);
    assert_eq!(state["computer_to_move"], false);
    check_against_core(&state, Position::start());
    // Now it is the person's turn: asking the computer again is refused.
    s.act(&id, "computer", &token)
        .await
        .error(409, "not-computer-turn");
}

async fn bad_moves_change_nothing(b: Backend) {
    let s = server(b).await;
    let (id, token, before) = s.create(json!({"side": "white", "level": "easy"})).await;
    let uri = format!("/api/games/{id}/moves");
    let cases: [(Value, u16, &str); 12] = [
        (
            json!({"token": token, "move": "f1-f3"}),
            409,
            "not-adjacent",
        ),
        (
            json!({"token": token, "move": "f11-f10"}),
            409,
            "not-your-piece",
        ),
        (json!({"token": token, "move": "e5-e6"}), 409, "no-piece"),
        (
            json!({"token": token, "move": "f1-e1x"}),
            400,
            "malformed-move",
        ),
        (
            json!({"token": token, "move": "j1-j2"}),
            400,
            "malformed-move",
        ),
        (json!({"token": token, "move": ""}), 400, "malformed-move"),
        (
            json!({"token": token, "move": "f1>e1"}),
            409,
            "not-captured",
        ),
        (
            json!({"token": "nope", "move": "f1-e1"}),
            403,
            "wrong-token",
        ),
        (
            json!({"token": token.to_uppercase(), "move": "f1-e1"}),
            403,
            "wrong-token",
        ),
        (json!({"token": token}), 400, "malformed-json"),
        (json!({"token": token, "move": 5}), 400, "malformed-json"),
        (
            json!({"token": token, "move": "f1-e1", "reply": "yes"}),
            400,
            "malformed-json",
        ),
    ];
    for (body, status, name) in cases {
        s.post(&uri, body).await.error(status, name);
    }
    for unknown in ["0123456789abcdef", "nope", "0123456789ABCDEF", "%2e%2e"] {
        s.post(
            &format!("/api/games/{unknown}/moves"),
            json!({"token": token, "move": "f1-e1"}),
        )
        .await
        .error(404, "unknown-game");
        s.get(&format!("/api/games/{unknown}"))
            .await
            .error(404, "unknown-game");
    }
    s.unchanged(&id, &before).await;
}

async fn forbidden_cell_is_named_by_the_core(b: Backend) {
    // R4: the first position of a seeded random game in which the side to move has a step
    // to a cell between two enemy pieces (and nothing to return).
    let s = server(b).await;
    let mut game = Game::new();
    let mut rng = agon_core::random::Rng::new(5);
    let (position, forbidden) = loop {
        let pos = *game.position();
        let found = agon_core::Cell::all().find_map(|to| {
            pos.pieces_of(pos.turn()).iter().find_map(|from| {
                let m = Move::Step { from, to };
                (pos.check_move(m) == Err(agon_core::IllegalMove::BetweenEnemies)).then_some(m)
            })
        });
        if let (Some(m), None) = (found, pos.captured_side()) {
            break (pos, m);
        }
        let moves = game.legal_moves();
        assert!(!game.is_over(), "no forbidden cell met in a whole game");
        game.play(moves[rng.below(moves.len())]).unwrap();
    };
    let side = if position.turn() == agon_core::Side::White {
        "white"
    } else {
        "black"
    };
    let text = position.to_text().to_string();
    let (id, token, before) = s
        .create(json!({"side": side, "level": "easy", "position": text}))
        .await;
    s.play(&id, &token, &forbidden.to_string(), true)
        .await
        .error(409, "between-enemies");
    assert_eq!(s.state(&id).await, before);
}

async fn capture_then_the_computer_returns(b: Backend) {
    let s = server(b).await;
    let (id, token, state) = s
        .create(json!({"side": "white", "level": "easy", "position": CAPTURE}))
        .await;
    assert_eq!(state["position"], CAPTURE);
    let state = s.play(&id, &token, "f1-g1", false).await.json();
    assert_eq!(strings(&state["last_captures"]), ["h1"]);
    assert_eq!(strings(&state["captured"]), ["h1"]);
    assert_eq!(state["must_return"], true, "Black must return its guard");
    assert!(strings(&state["legal_moves"])
        .iter()
        .all(|m| m.starts_with("h1>")));
    let state = s.act(&id, "computer", &token).await.json();
    let reply = state["last_move"].as_str().unwrap();
    assert!(
        reply.starts_with("h1>"),
        "the computer returned its guard: {reply}"
    );
    assert!(strings(&state["captured"]).is_empty());
    check_against_core(&state, CAPTURE.parse().unwrap());
}

async fn the_person_returns_the_queen_first(b: Backend) {
    let s = server(b).await;
    let (id, token, state) = s
        .create(json!({"side": "black", "level": "easy", "position": BLACK_RETURNS}))
        .await;
    assert_eq!(state["must_return"], true);
    assert_eq!(state["computer_to_move"], false);
    let legal = strings(&state["legal_moves"]);
    assert_eq!(legal.len(), 77);
    assert!(legal.iter().all(|m| m.starts_with("f7>")));
    s.play(&id, &token, "a2>a1", true)
        .await
        .error(409, "queen-first");
    s.play(&id, &token, "f7-f6", true)
        .await
        .error(409, "must-return");
    // R8: the queen may return to the throne.
    let state = s.play(&id, &token, "f7>f6", false).await.json();
    assert_eq!(strings(&state["moves"]), ["f7>f6"]);
    assert_eq!(strings(&state["captured"]), ["a2", "b7"]);
    check_against_core(&state, BLACK_RETURNS.parse().unwrap());
}

async fn winning_ends_the_game(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s
        .create(json!({"side": "white", "level": "hard", "position": THRONE_IN_ONE}))
        .await;
    let state = s.play(&id, &token, "h5-g6", true).await.json();
    assert_eq!(
        state["outcome"],
        json!({"winner": "white", "reason": "throne", "score": "1-0"})
    );
    assert_eq!(
        strings(&state["moves"]),
        ["h5-g6"],
        "no reply after the end"
    );
    assert!(strings(&state["legal_moves"]).is_empty());
    assert_eq!(state["computer_to_move"], false);
    s.play(&id, &token, "f6-f5", true)
        .await
        .error(409, "game-over");
    s.act(&id, "computer", &token).await.error(409, "game-over");
    s.act(&id, "resign", &token).await.error(409, "game-over");
    // Undo is still allowed after a rules ending: it takes the winning move back.
    let state = s.act(&id, "undo", &token).await.json();
    assert_eq!(state["outcome"], Value::Null);
    assert_eq!(state["position"], THRONE_IN_ONE);
}

async fn undo_takes_back_the_move_and_the_reply(b: Backend) {
    let s = server(b).await;
    let (id, token, start) = s.create(json!({"side": "white", "level": "easy"})).await;
    let undo = format!("/api/games/{id}/undo");
    s.post(&undo, json!({"token": token}))
        .await
        .error(409, "nothing-to-undo");
    let after_one = s.play(&id, &token, "f1-e1", true).await.json();
    s.play(&id, &token, "k1-i1", true).await;
    s.post(&undo, json!({"token": "x"}))
        .await
        .error(403, "wrong-token");
    let state = s.post(&undo, json!({"token": token})).await.json();
    assert_eq!(
        unversioned(&state),
        unversioned(&after_one),
        "back to after the first exchange"
    );
    let state = s.post(&undo, json!({"token": token})).await.json();
    assert_eq!(unversioned(&state), unversioned(&start));
    assert_eq!(state["can_undo"], false);
    assert_eq!(state["version"], 6, "2 moves, 2 replies, 2 takebacks");
    assert_eq!(s.state(&id).await, state, "stored");
    // A move without a reply is taken back alone.
    s.play(&id, &token, "f1-e1", false).await;
    let state = s.post(&undo, json!({"token": token})).await.json();
    assert_eq!(unversioned(&state), unversioned(&start));
}

async fn undo_as_black_keeps_the_computers_opening(b: Backend) {
    let s = server(b).await;
    let (id, token, start) = s.create(json!({"side": "black", "level": "easy"})).await;
    let m = strings(&start["legal_moves"])[0].clone();
    s.play(&id, &token, &m, true).await;
    let state = s.act(&id, "undo", &token).await.json();
    assert_eq!(unversioned(&state), unversioned(&start));
    s.act(&id, "undo", &token)
        .await
        .error(409, "nothing-to-undo");
}

async fn resign_and_the_record(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s.create(json!({"side": "white", "level": "easy"})).await;
    s.play(&id, &token, "f1-e1", true).await;
    s.act(&id, "resign", "bad").await.error(403, "wrong-token");
    let state = s.act(&id, "resign", &token).await.json();
    assert_eq!(
        state["outcome"],
        json!({"winner": "black", "reason": "resignation", "score": "0-1"})
    );
    assert!(strings(&state["legal_moves"]).is_empty());
    assert_eq!(state["can_undo"], false);
    assert_eq!(s.state(&id).await, state);
    s.play(&id, &token, "e1-f1", true)
        .await
        .error(409, "game-over");
    s.act(&id, "undo", &token)
        .await
        .error(409, "nothing-to-undo");
    s.act(&id, "resign", &token).await.error(409, "game-over");

    let answer = s.get(&format!("/api/games/{id}/record")).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.headers[header::CONTENT_TYPE],
        "text/plain; charset=utf-8"
    );
    assert_eq!(
        answer.headers[header::CONTENT_DISPOSITION],
        format!("attachment; filename=\"agon-{id}.txt\"").as_str()
    );
    let record: Record = answer.text.parse().unwrap();
    assert_eq!(record.result(), agon_core::Score::BlackWins);
    assert_eq!(record.tag("White").as_deref(), Some("you"));
    assert_eq!(record.tag("Black").as_deref(), Some("computer (easy)"));
    assert_eq!(record.tag("Termination").as_deref(), Some("resignation"));
    let moves: Vec<String> = record
        .game()
        .moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(moves, strings(&state["moves"]));
    s.get("/api/games/0123456789abcdef/record")
        .await
        .error(404, "unknown-game");
}

async fn record_of_a_game_from_a_position_replays(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s
        .create(json!({"side": "white", "level": "easy", "position": THRONE_IN_ONE}))
        .await;
    s.play(&id, &token, "h5-g6", true).await;
    let record = s.record(&id).await;
    assert_eq!(record.result(), agon_core::Score::WhiteWins);
    assert_eq!(record.tag("Position").as_deref(), Some(THRONE_IN_ONE));
    assert_eq!(record.tag("Termination").as_deref(), Some("throne"));
}

async fn board_svg_draws_any_position(b: Backend) {
    let s = server(b).await;
    let answer = s.get("/api/board.svg").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(answer.headers[header::CONTENT_TYPE], "image/svg+xml");
    assert_eq!(
        answer.text,
        agon_svg::Svg::new(&Position::start())
            .size(None)
            .to_string()
    );
    let answer = s
        .get("/api/board.svg?position=Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf7*,ga2*,gb7*,gd1,gh1,gk7,gl2%20b&flipped=1&last=f1-e1")
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert!(answer.text.contains("captured"));
    s.get("/api/board.svg?position=nonsense")
        .await
        .error(400, "invalid-field");
    s.get("/api/board.svg?flipped=maybe")
        .await
        .error(400, "invalid-field");
    s.get("/api/board.svg?last=f1--e1")
        .await
        .error(400, "malformed-move");
    s.get("/api/board.svg?colour=red")
        .await
        .error(400, "invalid-field");
}

async fn unknown_paths_and_methods_are_json_errors(b: Backend) {
    let s = server(b).await;
    s.get("/api/nothing").await.error(404, "not-found");
    s.get("/assets/nothing.js").await.error(404, "not-found");
    s.get("/i18n/de.json").await.error(404, "not-found");
    s.get("/api/games").await.error(405, "method-not-allowed");
    s.post("/api/games/0123456789abcdef", json!({}))
        .await
        .error(405, "method-not-allowed");
    s.request(
        Request::builder()
            .method(Method::DELETE)
            .uri("/api/games")
            .body(Body::empty())
            .unwrap(),
    )
    .await
    .error(405, "method-not-allowed");
}

async fn security_headers_everywhere_and_no_cors(b: Backend) {
    let s = server(b).await;
    let preflight = Request::builder()
        .method(Method::OPTIONS)
        .uri("/api/games")
        .header(header::ORIGIN, "https://evil.example")
        .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
        .body(Body::empty())
        .unwrap();
    let answers = [
        s.get("/").await,
        s.get("/assets/js/main.js").await,
        s.get("/api/board.svg").await,
        s.get("/api/games/0123456789abcdef").await,
        s.post("/api/games", json!({"side": "white", "level": "easy"}))
            .await,
        s.request(preflight).await,
    ];
    for answer in answers {
        let csp = answer.headers[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .unwrap();
        assert!(csp.contains("default-src 'self'"));
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"));
        assert_eq!(answer.headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert!(answer
            .headers
            .keys()
            .all(|k| !k.as_str().starts_with("access-control-")));
    }
}

async fn a_busy_server_answers_503_and_keeps_the_move(b: Backend) {
    // One worker and no room to wait; the test holds the worker with a job of its own.
    let workers = Arc::new(Workers::with_queue(1, 0));
    let s = server_with(b, workers.clone()).await;
    let (id, token, _) = s.create(json!({"side": "white", "level": "easy"})).await;
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let (started, running) = tokio::sync::oneshot::channel::<()>();
    let held = tokio::spawn({
        let workers = workers.clone();
        async move {
            workers
                .run(1, move || {
                    started.send(()).unwrap();
                    wait.recv()
                })
                .await
        }
    });
    running.await.unwrap();
    // The move is accepted and stored; the reply waits for a worker.
    let state = s.play(&id, &token, "f1-e1", true).await.json();
    assert_eq!(strings(&state["moves"]), ["f1-e1"]);
    assert_eq!(state["computer_to_move"], true);
    let answer = s.act(&id, "computer", &token).await;
    answer.error(503, "server-busy");
    assert_eq!(answer.headers[header::RETRY_AFTER], "1");
    assert_eq!(s.state(&id).await, state, "nothing changed");
    // A new game where the computer opens is created all the same, once: its state says
    // the computer is to move, and the page asks for the move itself (a 503 here made the
    // page create the game again and again).
    let created = s
        .post("/api/games", json!({"side": "black", "level": "easy"}))
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let created = created.json();
    let black = created["id"].as_str().unwrap().to_string();
    let black_token = created["token"].as_str().unwrap().to_string();
    assert_eq!(created["state"]["computer_to_move"], true);
    assert!(strings(&created["state"]["moves"]).is_empty());
    assert_eq!(s.state(&black).await, created["state"]);
    release.send(()).unwrap();
    held.await.unwrap().unwrap().unwrap();
    let state = s.act(&id, "computer", &token).await.json();
    assert_eq!(strings(&state["moves"]).len(), 2);
    let state = s.act(&black, "computer", &black_token).await.json();
    assert_eq!(strings(&state["moves"]).len(), 1);
}

async fn a_game_may_not_grow_without_end(b: Backend) {
    let s = server_with_limit(b, Arc::new(Workers::new(1)), 4).await;
    let (id, token, _) = s.create(json!({"side": "white", "level": "easy"})).await;
    for _ in 0..2 {
        let state = s.state(&id).await;
        let m = strings(&state["legal_moves"])[0].clone();
        s.play(&id, &token, &m, true).await;
    }
    let before = s.state(&id).await;
    assert_eq!(strings(&before["moves"]).len(), 4);
    let m = strings(&before["legal_moves"])[0].clone();
    s.play(&id, &token, &m, true)
        .await
        .error(409, "game-too-long");
    assert_eq!(s.state(&id).await, before);
    // Taking moves back makes room again.
    let state = s.act(&id, "undo", &token).await.json();
    let m = strings(&state["legal_moves"])[0].clone();
    assert_eq!(s.play(&id, &token, &m, true).await.status, StatusCode::OK);
}

async fn the_computer_keeps_to_the_move_limit_too(b: Backend) {
    // A limit of 5 moves: the person's fifth is the last; the computer does not add a sixth.
    let s = server_with_limit(b, Arc::new(Workers::new(1)), 5).await;
    let (id, token, _) = s.create(json!({"side": "white", "level": "easy"})).await;
    for _ in 0..2 {
        let state = s.state(&id).await;
        let m = strings(&state["legal_moves"])[0].clone();
        s.play(&id, &token, &m, true).await;
    }
    let m = strings(&s.state(&id).await["legal_moves"])[0].clone();
    let answer = s.play(&id, &token, &m, true).await;
    assert_eq!(answer.status, StatusCode::OK, "the person's move stands");
    let state = answer.json();
    assert_eq!(strings(&state["moves"]).len(), 5);
    assert_eq!(state["computer_to_move"], true);
    s.act(&id, "computer", &token)
        .await
        .error(409, "game-too-long");
    assert_eq!(s.state(&id).await, state);
}

async fn a_hint_finds_the_win_and_changes_nothing(b: Backend) {
    let s = server(b).await;
    let (id, token, state) = s
        .create(json!({"side": "white", "level": "easy", "position": THRONE_IN_ONE}))
        .await;
    let hint = s.act(&id, "hint", &token).await;
    assert_eq!(hint.status, StatusCode::OK, "{}", hint.text);
    let hint = hint.json();
    // The one move that completes White's throne ring (R10).
    assert_eq!(hint["move"], "h5-g6");
    assert_eq!(
        (hint["from"].as_str(), hint["to"].as_str()),
        (Some("h5"), Some("g6"))
    );
    assert_eq!(hint["score"], "win in 1");
    assert_eq!(hint["win_in"], 1);
    assert_eq!(strings(&hint["pv"]), ["h5-g6"]);
    // Asking changed nothing, and asking again gives the same hint.
    assert_eq!(s.get(&format!("/api/games/{id}")).await.json(), state);
    assert_eq!(s.act(&id, "hint", &token).await.json(), hint);
}

async fn a_hint_is_a_legal_move_of_the_persons_side(b: Backend) {
    let s = server(b).await;
    // Black: the computer opens, then the hint is for Black's reply.
    let (id, token, state) = s.create(json!({"side": "black", "level": "easy"})).await;
    let hint = s.act(&id, "hint", &token).await.json();
    let mut game = Game::new();
    for m in strings(&state["moves"]) {
        game.play(m.parse().unwrap()).unwrap();
    }
    let m: Move = hint["move"].as_str().unwrap().parse().unwrap();
    assert!(game.is_legal(m), "{hint}");
    assert_eq!(strings(&hint["pv"])[0], m.to_string());
    assert_eq!(
        hint["win_in"],
        Value::Null,
        "no forced win at the start: {hint}"
    );
    // The line is playable from the position.
    for text in strings(&hint["pv"]) {
        game.play(text.parse().unwrap()).unwrap();
    }
}

async fn hints_are_refused_when_they_cannot_be_given(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s
        .create(json!({"side": "white", "level": "easy", "position": THRONE_IN_ONE}))
        .await;
    s.act(&id, "hint", "not-the-token")
        .await
        .error(403, "wrong-token");
    s.act("00112233445566ff", "hint", &token)
        .await
        .error(404, "unknown-game");
    s.post(
        &format!("/api/games/{id}/hint"),
        json!({"token": token, "extra": 1}),
    )
    .await
    .error(400, "malformed-json");
    // Over.
    s.play(&id, &token, "h5-g6", false).await.json();
    s.act(&id, "hint", &token).await.error(409, "game-over");
    // Not the person's turn.
    let (id, token, _) = s.create(json!({"side": "white", "level": "easy"})).await;
    s.play(&id, &token, "f1-e1", false).await.json();
    s.act(&id, "hint", &token).await.error(409, "not-your-turn");
}

/// Schemathesis' finding (ST202, "schema-valid request rejected"): the document called an
/// empty or blank display name valid, which the server refuses. The documented pattern
/// now accepts exactly the names the server takes.
async fn a_blank_name_is_refused_and_the_document_says_which_names_are_taken(b: Backend) {
    let s = server(b).await;
    let (id, _, _) = s
        .create(json!({"side": "white", "opponent": "friend"}))
        .await;
    let long = "x".repeat(25);
    for name in ["", "   ", "\u{3000}", "a\u{7}b", "\u{85}", long.as_str()] {
        s.post(&format!("/api/games/{id}/join"), json!({ "name": name }))
            .await
            .error(400, "invalid-field");
    }
    let doc = agon_web::openapi::document();
    let names = [
        "",
        " ",
        "\t",
        "\u{3000}",
        "\u{a0}x\u{a0}",
        "Ada",
        " Ada ",
        "\tAda\n",
        "a b",
        "a\u{7}b",
        "\u{7}",
        "\u{85}a",
        "a\u{85}b",
        "\u{1c}a",
        "é",
        "名前",
        &long,
        &"x".repeat(24),
        &format!("  {}  ", "x".repeat(24)),
        "\u{2003}y\u{2003}",
    ];
    // Every request that takes a display name: a game's, a seek's, a quick pairing's.
    let requests = [
        "JoinRequest",
        "NewGameRequest",
        "SeekRequest",
        "QuickRequest",
        "AcceptRequest",
    ];
    for schema in requests {
        let name = &doc["components"]["schemas"][schema]["properties"]["name"];
        assert_eq!(name["oneOf"][1], json!({"type": "null"}), "{schema}");
        let pattern = name["oneOf"][0]["pattern"].as_str().unwrap();
        let pattern = regex::Regex::new(pattern).unwrap();
        for name in names {
            assert_eq!(
                pattern.is_match(name),
                agon_web::api::parse_name(name).is_ok(),
                "{schema}: {name:?}"
            );
        }
    }
}

both_stores!((); create_answers_id_token_and_the_start, playing_black_the_computer_opens, random_side_gives_both_sides, create_refuses_bad_requests, a_move_and_the_reply, a_move_without_reply_then_the_computer, bad_moves_change_nothing, forbidden_cell_is_named_by_the_core, capture_then_the_computer_returns, the_person_returns_the_queen_first, winning_ends_the_game, undo_takes_back_the_move_and_the_reply, undo_as_black_keeps_the_computers_opening, resign_and_the_record, record_of_a_game_from_a_position_replays, board_svg_draws_any_position, unknown_paths_and_methods_are_json_errors, security_headers_everywhere_and_no_cors, a_busy_server_answers_503_and_keeps_the_move, a_game_may_not_grow_without_end, the_computer_keeps_to_the_move_limit_too, a_hint_finds_the_win_and_changes_nothing, a_hint_is_a_legal_move_of_the_persons_side, hints_are_refused_when_they_cannot_be_given, a_blank_name_is_refused_and_the_document_says_which_names_are_taken);
