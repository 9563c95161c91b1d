//! `POST /api/analysis` through the real router: a forced win found with its score, the
//! same lines for the same request under a node budget, records with moves, the ludii
//! rules, three lines best first, every bad input's status and error name, the deadline
//! of a search and its cost in the action budget; the analysis board's records with
//! variations read into a tree and written back (`/api/records/read`, `/write`) and its
//! positions drawn (`/api/analysis/board`).

use agon_core::{Game, Move, Position, Record, Rules};
use agon_web::http::request::MAX_RECORD_BODY;
use agon_web::limits::{LimitConfig, Quota};
use agon_web::Config;
#[macro_use]
mod common;
use common::{strings, Api as Server, Backend, START};

use serde_json::{json, Value};

/// White's h5-g6 completes the throne ring at once (agon-bots' `Engine::analyse` example).
const WON_IN_ONE: &str = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";

async fn server_with(limits: LimitConfig) -> Server {
    let config = Config {
        workers: 2,
        limits,
        ..Config::default()
    };
    let (state, db) = common::state(Backend::Sqlite, config).await;
    Server::new(state, db)
}

async fn server() -> Server {
    // The cost test below sets its own limits.
    server_with(LimitConfig::off()).await
}

impl Server {
    async fn analyse(&self, body: Value) -> Value {
        self.post("/api/analysis", body).await.ok()
    }
}

/// A score's order, best first: wins sooner, then centipoints, then losses later.
fn rank(score: &Value) -> i64 {
    if let Some(n) = score["win_in"].as_i64() {
        1_000_000 - n
    } else if let Some(n) = score["loss_in"].as_i64() {
        n - 1_000_000
    } else {
        score["cp"].as_i64().unwrap()
    }
}

/// Checks that each line of `answer` is a line of legal moves from `game`'s position.
fn lines_are_legal(answer: &Value, game: &Game) {
    assert!(!answer["lines"].as_array().unwrap().is_empty(), "{answer}");
    for line in answer["lines"].as_array().unwrap() {
        let mut game = game.clone();
        for m in strings(&line["pv"]) {
            let m: Move = game.position().parse_move(&m).unwrap();
            game.play(m).unwrap();
        }
        let expected = line["white_expected"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&expected), "{line}");
    }
}

#[tokio::test]
async fn a_forced_win_is_found_with_its_score() {
    let server = server().await;
    let answer = server
        .analyse(json!({"position": WON_IN_ONE, "nodes": 20_000}))
        .await;
    assert_eq!(answer["position"], WON_IN_ONE);
    assert_eq!(answer["rules"], "standard");
    assert_eq!(answer["chooser"], "white");
    let best = &answer["lines"][0];
    assert_eq!(best["pv"][0], "h5-g6");
    assert_eq!(best["score"], json!({"win_in": 1}));
    assert_eq!(best["white_expected"], 1.0);
    assert!(answer["depth"].as_u64().unwrap() >= 1);
    assert!(answer["nodes"].as_u64().unwrap() >= 1);
    // The same pieces with Black to act: Black is the chooser the scores are for.
    let black = server
        .analyse(json!({"position": WON_IN_ONE.replace(" w", " b"), "nodes": 20_000}))
        .await;
    assert_eq!(black["chooser"], "black");
    lines_are_legal(
        &black,
        &Game::from_position(WON_IN_ONE.replace(" w", " b").parse().unwrap()),
    );
}

#[tokio::test]
async fn the_same_request_under_a_node_budget_gives_the_same_lines() {
    let server = server().await;
    let request = json!({"moves": ["f1-e1"], "nodes": 30_000, "multipv": 2});
    let first = server.analyse(request.clone()).await;
    let second = server.analyse(request).await;
    assert_eq!(first["lines"], second["lines"]);
    assert_eq!(first["depth"], second["depth"]);
    assert_eq!(first["nodes"], second["nodes"]);
    assert_eq!(first["lines"].as_array().unwrap().len(), 2);
    let mut game = Game::new();
    game.play("f1-e1".parse().unwrap()).unwrap();
    assert_eq!(first["position"], game.position().to_text().to_string());
    assert_eq!(first["chooser"], "black");
    lines_are_legal(&first, &game);
}

#[tokio::test]
async fn a_record_with_moves_is_analysed_after_them() {
    let server = server().await;
    let mut game = Game::new();
    for _ in 0..4 {
        let m = game.legal_moves()[0];
        game.play(m).unwrap();
    }
    let record = Record::new(game.clone()).to_string();
    let next = game.legal_moves()[1];
    let answer = server
        .analyse(json!({"record": record, "moves": [next.to_string()], "nodes": 10_000}))
        .await;
    game.play(next).unwrap();
    assert_eq!(answer["position"], game.position().to_text().to_string());
    lines_are_legal(&answer, &game);
    // A position and moves give the same position.
    let same = server
        .analyse(json!({
            "position": START,
            "moves": game.moves().iter().map(Move::to_string).collect::<Vec<_>>(),
            "nodes": 10_000,
        }))
        .await;
    assert_eq!(same["position"], answer["position"]);
}

#[tokio::test]
async fn the_ludii_rules_from_rules_or_a_record() {
    let server = server().await;
    let ludii = Game::with_rules(Rules::LUDII);
    let answer = server
        .analyse(json!({"rules": "ludii", "nodes": 10_000}))
        .await;
    assert_eq!(answer["rules"], Rules::LUDII.to_string());
    assert_eq!(
        answer["position"],
        Position::start_with_rules(Rules::LUDII)
            .to_text()
            .to_string()
    );
    lines_are_legal(&answer, &ludii);
    let mut game = ludii.clone();
    let m = game.legal_moves()[0];
    game.play(m).unwrap();
    let record = Record::new(game.clone()).to_string();
    assert!(record.contains("[Rules "), "{record}");
    let answer = server
        .analyse(json!({"record": record, "nodes": 10_000}))
        .await;
    assert_eq!(answer["rules"], Rules::LUDII.to_string());
    assert_eq!(answer["position"], game.position().to_text().to_string());
    lines_are_legal(&answer, &game);
}

#[tokio::test]
async fn three_lines_best_first() {
    let server = server().await;
    let answer = server.analyse(json!({"multipv": 3, "nodes": 30_000})).await;
    let lines = answer["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    let firsts: Vec<&Value> = lines.iter().map(|l| &l["pv"][0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    let ranks: Vec<i64> = lines.iter().map(|l| rank(&l["score"])).collect();
    assert!(ranks.windows(2).all(|w| w[0] >= w[1]), "{ranks:?}");
    let expected: Vec<f64> = lines
        .iter()
        .map(|l| l["white_expected"].as_f64().unwrap())
        .collect();
    // White to act: the better line for White has the higher expectation.
    assert!(expected.windows(2).all(|w| w[0] >= w[1]), "{expected:?}");
    lines_are_legal(&answer, &Game::new());
}

#[tokio::test]
async fn each_bad_input_is_refused_with_its_name() {
    let server = server().await;
    let illegal = Game::new()
        .play(Game::new().position().parse_move("f1-f5").unwrap())
        .unwrap_err()
        .name();
    let mut won = Game::from_position(WON_IN_ONE.parse().unwrap());
    won.play("h5-g6".parse().unwrap()).unwrap();
    assert!(won.is_over());
    let over = won.position().to_text().to_string();
    let good_record = Record::new(Game::new()).to_string();
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!({"position": "nonsense"}), 400, "invalid-field"),
        (json!({"rules": "chess"}), 400, "unknown-preset"),
        (json!({"rules": "standard+limit"}), 400, "malformed-rules"),
        (json!({"moves": ["zz"]}), 400, "malformed-move"),
        (json!({"moves": ["f1-f5"]}), 409, illegal),
        (json!({"record": "1. zz *"}), 400, "malformed-record"),
        (json!({"record": "1. f1-f5 *"}), 409, illegal),
        (
            json!({"record": "[Rules \"chess\"]\n\n*"}),
            400,
            "unknown-preset",
        ),
        (
            json!({"record": good_record, "position": START}),
            400,
            "invalid-field",
        ),
        (
            json!({"record": good_record, "rules": "ludii"}),
            400,
            "invalid-field",
        ),
        (json!({"position": over}), 409, "game-over"),
        (
            json!({"position": WON_IN_ONE, "moves": ["h5-g6"]}),
            409,
            "game-over",
        ),
        (
            json!({"position": WON_IN_ONE, "moves": ["h5-g6", "f11-e10"]}),
            409,
            "game-over",
        ),
        (json!({"multipv": 0}), 400, "invalid-field"),
        (json!({"multipv": 4}), 400, "invalid-field"),
        (json!({"ms": 0}), 400, "invalid-field"),
        (json!({"ms": 2001}), 400, "invalid-field"),
        (json!({"ms": -5}), 400, "invalid-field"),
        (json!({"nodes": 0}), 400, "invalid-field"),
        (json!({"nodes": 5_000_001}), 400, "invalid-field"),
        (json!({"ms": "fast"}), 400, "malformed-json"),
        (json!({"ms": 1e30}), 400, "malformed-json"),
        (json!({"depth": 3}), 400, "malformed-json"),
        (json!({"moves": "f1-e1"}), 400, "malformed-json"),
    ];
    for (body, status, name) in cases {
        let answer = server.post("/api/analysis", body.clone()).await;
        answer.error(status, name);
        assert!(!answer.text.contains("lines"), "{body}");
    }
    // A record's body may be 128 KiB: 5000 bytes are read (and refused as a record).
    let big = json!({"record": "x".repeat(5000)}).to_string();
    server
        .post_raw("/api/analysis", "application/json", big)
        .await
        .error(400, "malformed-record");
    let big = json!({"record": "x".repeat(MAX_RECORD_BODY)}).to_string();
    server
        .post_raw("/api/analysis", "application/json", big)
        .await
        .error(413, "body-too-large");
    server
        .post_raw("/api/analysis", "text/plain", "{}")
        .await
        .error(415, "unsupported-media-type");
    server
        .get("/api/analysis")
        .await
        .error(405, "method-not-allowed");
}

#[tokio::test]
async fn a_search_stops_at_its_deadline() {
    let server = server().await;
    // Five million nodes take far longer than two seconds in a test build: the
    // deadline of every search ends it.
    let started = std::time::Instant::now();
    let answer = server.analyse(json!({"nodes": 5_000_000})).await;
    let ms = answer["ms"].as_u64().unwrap();
    assert!(ms <= 2_100, "{answer}");
    assert!(answer["nodes"].as_u64().unwrap() < 5_000_000);
    assert!(started.elapsed().as_millis() < 4_000);
    lines_are_legal(&answer, &Game::new());
    // A time budget stops it sooner: well before the deadline (a loaded machine's
    // scheduler has stalled a 100 ms search to 202 ms, so no tighter bound).
    let answer = server.analyse(json!({"ms": 100})).await;
    assert!(answer["ms"].as_u64().unwrap() < 1_000, "{answer}");
}

#[tokio::test]
async fn a_long_search_costs_more_of_the_budget() {
    let server = server_with(LimitConfig {
        action: Some(Quota::per_minute(1, 14)),
        ..LimitConfig::off()
    })
    .await;
    // 100 ms: one token of fourteen.
    server.analyse(json!({"ms": 100})).await;
    // 2 s: fourteen tokens, more than the thirteen left; refused, taking nothing.
    let refused = server.post("/api/analysis", json!({"ms": 2000})).await;
    refused.error(429, "rate-limited");
    assert!(refused.json()["message"]
        .as_str()
        .unwrap()
        .contains("costs 14"));
    assert!(refused.headers.contains_key("retry-after"));
    // The default budget (200,000 nodes, counted as 0.5 s) costs four.
    for _ in 0..3 {
        server.analyse(json!({"nodes": 1_000})).await;
    }
    server.analyse(json!({"ms": 100})).await;
    server.analyse(json!({"moves": ["f1-e1"]})).await;
    // 1 + 3 + 1 + 4 = 9 taken: five left, so a 2 s search is still refused.
    server
        .post("/api/analysis", json!({"ms": 2000}))
        .await
        .error(429, "rate-limited");
}

#[tokio::test]
async fn a_request_given_up_by_its_client_frees_its_worker() {
    let config = Config {
        workers: 1,
        limits: LimitConfig::off(),
        ..Config::default()
    };
    let (state, db) = common::state(Backend::Sqlite, config).await;
    let server = Server::new(state, db);
    // A search of two seconds on the one worker, given up after 200 ms.
    let long = server.post("/api/analysis", json!({"nodes": 5_000_000}));
    let gone = tokio::time::timeout(std::time::Duration::from_millis(200), long).await;
    assert!(gone.is_err(), "the long search answered within 200 ms");
    // The next search gets the worker at once, not after the two seconds.
    let started = std::time::Instant::now();
    server.analyse(json!({"ms": 100})).await;
    let waited = started.elapsed().as_millis();
    assert!(waited < 1_000, "waited {waited} ms for the worker");
}

/// The tree of a record with variations, as the API lists it: move and parent.
fn tree_of(answer: &Value) -> Vec<(String, Option<u64>)> {
    answer["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["move"].as_str().unwrap().to_string(),
                n["parent"].as_u64(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_record_with_variations_is_read_into_a_tree_and_written_back() {
    let server = server().await;
    let text = "[Event \"Study\"]\n[Result \"*\"]\n\n1. f1-e1 (1. f1-g1 f11-e10 (1... l2-l1)) 1... f11-g10 2. e1-f1 *\n";
    // Read loosely written, answered canonically.
    let loose = text.replace("(1. f1-g1", "( 1. f1-g1");
    let read = server
        .post("/api/records/read", json!({ "record": loose }))
        .await
        .ok();
    assert_eq!(read["record"], text);
    assert_eq!(read["position"], START);
    assert_eq!(
        (read["rules"].as_str(), read["result"].as_str()),
        (Some("standard"), Some("*"))
    );
    assert_eq!(read["tags"], json!([["Event", "Study"]]));
    let s = |m: &str, p: Option<u64>| (m.to_string(), p);
    assert_eq!(
        tree_of(&read),
        [
            s("f1-e1", None),
            s("f11-g10", Some(0)),
            s("e1-f1", Some(1)),
            s("f1-g1", None),
            s("f11-e10", Some(3)),
            s("l2-l1", Some(3)),
        ]
    );
    // The tree written back, in another order (the page's), is the same record.
    let nodes = json!([
        {"move": "f1-e1", "parent": null},
        {"move": "f1-g1", "parent": null},
        {"move": "f11-g10", "parent": 0},
        {"move": "f11-e10", "parent": 1},
        {"move": "l2-l1", "parent": 1},
        {"move": "e1-f1", "parent": 2},
    ]);
    let written = server
        .post(
            "/api/records/write",
            json!({"nodes": nodes, "tags": [["Event", "Study"]]}),
        )
        .await
        .ok();
    assert_eq!(written["record"], text);
    assert_eq!(tree_of(&written), tree_of(&read));
    // A tree from a set position under other rules keeps both.
    let ludii = Position::start_with_rules(Rules::LUDII)
        .to_text()
        .to_string();
    let written = server
        .post(
            "/api/records/write",
            json!({"rules": "ludii", "position": ludii, "nodes": [{"move": "f1-e1", "parent": null}], "result": "0-1"}),
        )
        .await
        .ok();
    let record: Record = written["record"].as_str().unwrap().parse().unwrap();
    assert_eq!(record.game().rules(), Rules::LUDII);
    assert_eq!(record.result().to_string(), "0-1");
    assert_eq!(
        server
            .post("/api/records/read", json!({"record": written["record"]}))
            .await
            .ok()["record"],
        written["record"]
    );
}

#[tokio::test]
async fn bad_records_and_trees_are_refused_with_the_cores_reason() {
    let server = server().await;
    let answer = server
        .post(
            "/api/records/read",
            json!({"record": "1. f1-e1 (1. f1-g1 *"}),
        )
        .await;
    answer.error(400, "malformed-record");
    assert!(
        answer
            .text
            .contains("record: at byte 19: expected a move or ')'"),
        "{}",
        answer.text
    );
    server
        .post(
            "/api/records/read",
            json!({"record": "1. f1-e1 (1. f1-f3) *"}),
        )
        .await
        .error(409, "not-adjacent");
    let deep = format!("1. f1-e1 {}*", "(1. f1-g1 (1. f1-e1 ".repeat(33));
    server
        .post("/api/records/read", json!({ "record": deep }))
        .await
        .error(400, "malformed-record");
    let node = |m: &str, p: Value| json!({"move": m, "parent": p});
    let cases: Vec<(Value, u16, &str)> = vec![
        (json!([node("f1-e1", json!(0))]), 400, "invalid-field"),
        (
            json!([node("f1-e1", json!(null)), node("f11-g10", json!(1))]),
            400,
            "invalid-field",
        ),
        (json!([node("zz", json!(null))]), 400, "malformed-move"),
        (json!([node("f1-f3", json!(null))]), 409, "not-adjacent"),
        // A variation's illegal move (Black's queen jumps).
        (
            json!([
                node("f1-e1", json!(null)),
                node("f11-g10", json!(0)),
                node("f11-f9", json!(0))
            ]),
            409,
            "not-adjacent",
        ),
    ];
    for (nodes, status, name) in cases {
        server
            .post("/api/records/write", json!({ "nodes": nodes }))
            .await
            .error(status, name);
    }
    // Other first moves are variations of the first, each at depth 1.
    let nodes = vec![
        node("f1-e1", json!(null)),
        node("f1-g1", json!(null)),
        node("a5-b5", json!(null)),
    ];
    let answer = server
        .post("/api/records/write", json!({ "nodes": nodes }))
        .await
        .ok();
    assert_eq!(
        answer["record"],
        "[Result \"*\"]\n\n1. f1-e1 (1. f1-g1) (1. a5-b5) *\n"
    );
    server
        .post(
            "/api/records/write",
            json!({"nodes": [node("f1-e1", json!(null))], "result": "2-0"}),
        )
        .await
        .error(400, "invalid-field");
    server
        .post(
            "/api/records/write",
            json!({"nodes": [], "tags": [["Result", "1-0"]]}),
        )
        .await
        .error(400, "invalid-field");
    // A tag is a name and a value: one text, or three, is no tag (the document's
    // `minItems` and `maxItems`, `tests/openapi.rs`).
    for tag in [json!(["Event"]), json!(["Event", "Study", "more"])] {
        server
            .post("/api/records/write", json!({"nodes": [], "tags": [tag]}))
            .await
            .error(400, "malformed-json");
    }
}

#[tokio::test]
async fn a_long_record_fits_and_a_larger_body_is_413() {
    let server = server().await;
    // A record of 100 KB (its tag): over the 4 KiB of other requests, under 128 KiB.
    let long = format!("[Note \"{}\"]\n\n1. f1-e1 *", "n".repeat(100_000));
    let read = server
        .post("/api/records/read", json!({ "record": long }))
        .await
        .ok();
    assert_eq!(tree_of(&read), [("f1-e1".to_string(), None)]);
    let answer = server.analyse(json!({"record": long, "nodes": 1000})).await;
    assert_eq!(answer["lines"].as_array().unwrap().len(), 1);
    let over = json!({"record": "n".repeat(MAX_RECORD_BODY)}).to_string();
    for path in [
        "/api/records/read",
        "/api/records/write",
        "/api/analysis/board",
    ] {
        server
            .post_raw(path, "application/json", over.clone())
            .await
            .error(413, "body-too-large");
    }
    // Other requests keep their 4 KiB.
    let games = json!({"level": "easy", "name": "x".repeat(5000)}).to_string();
    server
        .post_raw("/api/games", "application/json", games)
        .await
        .error(413, "body-too-large");
}

#[tokio::test]
async fn the_board_of_any_node_is_drawn_with_its_legal_moves() {
    let server = server().await;
    let start = server.post("/api/analysis/board", json!({})).await.ok();
    assert_eq!(start["position"], START);
    assert_eq!(start["legal"].as_array().unwrap().len(), 27);
    assert_eq!(start["chooser"], "white");
    assert!(start["outcome"].is_null());
    assert!(start["svg"].as_str().unwrap().starts_with("<svg"));
    let after = server
        .post(
            "/api/analysis/board",
            json!({"moves": ["f1-e1"], "flipped": true}),
        )
        .await
        .ok();
    assert_eq!(after["chooser"], "black");
    assert_eq!(after["legal"].as_array().unwrap().len(), 26);
    let won = server
        .post(
            "/api/analysis/board",
            json!({"position": WON_IN_ONE, "moves": ["h5-g6"]}),
        )
        .await
        .ok();
    assert_eq!(won["legal"], json!([]));
    assert_eq!(won["outcome"]["winner"], "white");
    assert_eq!(won["outcome"]["score"], "1-0");
    server
        .post(
            "/api/analysis/board",
            json!({"position": WON_IN_ONE, "moves": ["h5-g6", "f11-e10"]}),
        )
        .await
        .error(409, "game-over");
    server
        .post("/api/analysis/board", json!({"moves": ["f1-f3"]}))
        .await
        .error(409, "not-adjacent");
}

/// The document's integers are JSON Schema's, where `1000.0` is one (Schemathesis sent
/// `"nodes": 3199478.0`): the search's bounds and a tree's parents read whole numbers
/// written with a fraction of zero, and refuse any other fraction.
#[tokio::test]
async fn whole_numbers_with_a_zero_fraction_are_integers() {
    let server = server().await;
    let lines = |answer: &Value| answer["lines"].as_array().unwrap().len();
    let answer = server
        .analyse(json!({"nodes": 1000.0, "multipv": 2.0, "ms": 500.0}))
        .await;
    assert_eq!(lines(&answer), 2);
    let tree = server
        .post(
            "/api/records/write",
            json!({"nodes": [
                {"move": "f1-e1", "parent": null},
                {"move": "f11-g10", "parent": 0.0}
            ]}),
        )
        .await
        .ok();
    assert_eq!(tree["record"], "[Result \"*\"]\n\n1. f1-e1 f11-g10 *\n");
    for body in [
        json!({"nodes": 1000.5}),
        json!({"multipv": 1.5}),
        json!({"ms": -1.0e300}),
    ] {
        server
            .post("/api/analysis", body)
            .await
            .error(400, "malformed-json");
    }
    server
        .post(
            "/api/records/write",
            json!({"nodes": [{"move": "f1-e1", "parent": -1.0}]}),
        )
        .await
        .error(400, "malformed-json");
}
