//! Games under a rule set (RULES.md section 8) through the real router: creating them,
//! the state's rules, a pass, the move limit, the record's Rules tag, the captor choosing
//! where a captured queen returns, every level and the hint under other rules, each bad
//! input with its error name (and nothing changed), and databases from before rule sets.

use agon_core::{Game, Move, Position, Record, Rules, Score};
use agon_web::{Config, Level, Store};
#[macro_use]
mod common;
use common::{strings, Api as Server, Backend, BLACK_RETURNS, START};

use axum::http::StatusCode;
use serde_json::{json, Value};

async fn server(b: Backend) -> Server {
    let config = Config {
        workers: 2,
        // These tests are about rule sets: tests/limits.rs tests the limits.
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    let (state, db) = common::state(b, config).await;
    Server::new(state, db)
}

impl Server {
    async fn count_games(&self) -> i64 {
        self.store.counts().await.unwrap().0
    }
}

/// Replays the state's moves under `rules` from `start` and checks the state against the
/// core: position, legal moves, chooser and outcome.
fn check_against_core(state: &Value, start: &str, rules: Rules) {
    let mut game = Game::from_position(Position::from_text_with_rules(start, rules).unwrap());
    for m in strings(&state["moves"]) {
        game.play(m.parse::<Move>().unwrap()).unwrap();
    }
    assert_eq!(state["rules"], rules.to_string());
    assert_eq!(state["position"], game.position().to_text().to_string());
    assert_eq!(
        state["chooser"],
        agon_web::side_name(game.position().chooser())
    );
    if state["outcome"].is_null() {
        assert!(!game.is_over());
        let core: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(strings(&state["legal_moves"]), core);
    } else if state["outcome"]["reason"] != "resignation" {
        let outcome = game.outcome().unwrap();
        assert_eq!(state["outcome"]["reason"], outcome.reason.name());
        assert!(strings(&state["legal_moves"]).is_empty());
    }
}

/// White's pieces are hemmed in on files a and b (agon-core's R12 test): White has no
/// action. Under the standard rules White has lost; under `stuck=pass` it passes.
const STUCK: &str = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gc2 w";
/// White's e9-f9 captures Black's queen on f10 (between f9 and White's guard on f11).
const QUEEN_CAPTURE: &str = "Qf1,Ga5,Gb1,Ge9,Gf11,Gk1,Gl5/qf10,ga2,gb7,gd1,gh1,gk7,gl2 w";
const CAPTOR: &str = "standard+queen-placer=captor";

async fn a_game_under_each_preset_and_a_composed_rule_set(b: Backend) {
    let s = server(b).await;
    let (id, _, state) = s.create(json!({"side": "white", "level": "easy"})).await;
    assert_eq!(state["rules"], "standard", "the default is standard");
    assert_eq!(state["rules_parts"]["preset"], "standard");
    assert_eq!(state["rules_parts"]["options"], json!([]));
    assert_eq!(
        state["rules_parts"]["values"][0],
        json!({"option": "capture", "value": "any"})
    );
    assert_eq!(state["chooser"], "white");
    assert_eq!(s.state(&id).await, state);

    let (id, _, state) = s
        .create(json!({"side": "white", "level": "easy", "rules": "ludii"}))
        .await;
    assert_eq!(state["rules"], "ludii");
    assert_eq!(state["rules_parts"]["preset"], "ludii");
    assert_eq!(state["rules_parts"]["options"], json!([]));
    let values: Vec<(String, String)> = state["rules_parts"]["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["option"].to_string(), v["value"].to_string()))
        .collect();
    assert_eq!(values.len(), 9);
    for (option, value) in [("stuck", "pass"), ("repetition", "off"), ("limit", "2500")] {
        assert!(
            values.contains(&(format!("{option:?}"), format!("{value:?}"))),
            "{values:?}"
        );
    }
    assert_eq!(strings(&state["legal_moves"]).len(), 27);
    assert_eq!(s.state(&id).await["rules"], "ludii", "stored and read back");

    // Any spelling of a rule set is answered in its canonical form.
    for (text, canonical) in [
        ("standard+stuck=pass+repetition=off+limit=2500", "ludii"),
        ("ludii+limit=none", "ludii+limit=none"),
        (
            "standard+limit=300+capture=same-ring",
            "standard+capture=same-ring+limit=300",
        ),
        ("standard+capture=any", "standard"),
    ] {
        let (id, _, state) = s
            .create(json!({"side": "white", "level": "easy", "rules": text}))
            .await;
        assert_eq!(state["rules"], canonical, "{text}");
        assert_eq!(s.state(&id).await["rules"], canonical);
        let parsed: Rules = canonical.parse().unwrap();
        check_against_core(&state, START, parsed);
    }
    let (_, _, state) = s
        .create(json!({"side": "white", "level": "easy", "rules": "ludii+capture=same-ring+limit=none"}))
        .await;
    assert_eq!(state["rules_parts"]["preset"], "ludii");
    assert_eq!(
        state["rules_parts"]["options"],
        json!([
            {"option": "capture", "value": "same-ring"},
            {"option": "limit", "value": "none"},
        ])
    );
}

async fn a_position_is_read_under_the_rules(b: Backend) {
    let s = server(b).await;
    // Both sides hold captured pieces: only rule sets that trap allow it.
    let both = "Qf1,Ga5,Gb1*,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 w";
    s.post(
        "/api/games",
        json!({"side": "white", "level": "easy", "position": both}),
    )
    .await
    .error(400, "invalid-field");
    let (_, _, state) = s
        .create(json!({"side": "white", "level": "easy", "position": both, "rules": "standard+between=trapped"}))
        .await;
    assert_eq!(state["rules"], "standard+between=trapped");
    assert_eq!(strings(&state["captured"]), ["a2", "b1"]);
    let trapped: Rules = "standard+between=trapped".parse().unwrap();
    check_against_core(&state, both, trapped);
}

async fn a_stuck_side_passes_under_ludii(b: Backend) {
    let s = server(b).await;
    let (id, token, state) = s
        .create(json!({"side": "white", "level": "easy", "position": STUCK, "rules": "ludii"}))
        .await;
    assert_eq!(
        state["outcome"],
        Value::Null,
        "under ludii a stuck side is not lost"
    );
    assert_eq!(strings(&state["legal_moves"]), ["pass"]);
    assert_eq!(
        state["legal"],
        json!([{"move": "pass", "from": null, "to": null, "kind": "pass"}])
    );
    // The hint is the pass.
    let hint = s.act(&id, "hint", &token).await.ok();
    assert_eq!(hint["move"], "pass");
    assert_eq!(
        (hint["from"].clone(), hint["to"].clone()),
        (Value::Null, Value::Null)
    );
    // A step is refused as the core refuses it, and changes nothing.
    s.play(&id, &token, "a3-b3", true)
        .await
        .error(409, "between-enemies");
    assert_eq!(s.state(&id).await, state);
    // The pass is played like any move; the computer answers.
    let state = s.play(&id, &token, "pass", true).await.ok();
    let moves = strings(&state["moves"]);
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert_eq!(moves[0], "pass");
    assert_eq!(state["outcome"], Value::Null);
    check_against_core(&state, STUCK, Rules::LUDII);
    let record = s.record(&id).await;
    assert_eq!(record.game().moves()[0], Move::Pass);
    assert_eq!(record.tag("Rules").as_deref(), Some("ludii"));

    // Under the standard rules the same position is a loss for White.
    let (_, _, state) = s
        .create(json!({"side": "white", "level": "easy", "position": STUCK}))
        .await;
    assert_eq!(state["outcome"]["reason"], "no-legal-action");
}

async fn a_pass_where_the_rules_have_none_is_refused_and_changes_nothing(b: Backend) {
    let s = server(b).await;
    let (id, token, before) = s.create(json!({"side": "white", "level": "easy"})).await;
    s.play(&id, &token, "pass", true)
        .await
        .error(409, "no-pass");
    assert_eq!(s.state(&id).await, before);
    // Under ludii, a side with other actions may not pass either.
    let (id, token, before) = s
        .create(json!({"side": "white", "level": "easy", "rules": "ludii"}))
        .await;
    s.play(&id, &token, "pass", true)
        .await
        .error(409, "pass-with-actions");
    assert_eq!(s.state(&id).await, before);
    let n = s.store.counts().await.unwrap().1;
    assert_eq!(n, 0, "no move was stored");
}

async fn the_move_limit_draws_the_game_and_the_record_says_so(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s
        .create(json!({"side": "white", "level": "easy", "rules": "standard+limit=2"}))
        .await;
    let state = s.play(&id, &token, "f1-e1", true).await.ok();
    assert_eq!(strings(&state["moves"]).len(), 2);
    assert_eq!(
        state["outcome"],
        json!({"winner": null, "reason": "move-limit", "score": "1/2-1/2"})
    );
    s.play(&id, &token, "e1-f1", true)
        .await
        .error(409, "game-over");
    let answer = s.get(&format!("/api/games/{id}/record")).await;
    assert!(
        answer.text.contains("[Rules \"standard+limit=2\"]"),
        "{}",
        answer.text
    );
    let record: Record = answer.text.parse().unwrap();
    assert_eq!(record.game().rules(), "standard+limit=2".parse().unwrap());
    assert_eq!(record.result(), Score::Draw);
    assert_eq!(record.tag("Termination").as_deref(), Some("move-limit"));
}

async fn the_record_of_a_standard_game_has_no_rules_tag(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s.create(json!({"side": "white", "level": "easy"})).await;
    s.play(&id, &token, "f1-e1", true).await.ok();
    let text = s.get(&format!("/api/games/{id}/record")).await.text;
    assert!(!text.contains("[Rules"), "{text}");
    let (id, _, _) = s
        .create(json!({"side": "white", "level": "easy", "rules": "ludii"}))
        .await;
    let text = s.get(&format!("/api/games/{id}/record")).await.text;
    assert!(text.contains("[Rules \"ludii\"]"), "{text}");
}

async fn under_captor_the_person_chooses_where_the_computers_queen_returns(b: Backend) {
    let s = server(b).await;
    let (id, token, _) = s
        .create(
            json!({"side": "white", "level": "easy", "position": QUEEN_CAPTURE, "rules": CAPTOR}),
        )
        .await;
    let state = s.play(&id, &token, "e9-f9", false).await.ok();
    assert_eq!(strings(&state["last_captures"]), ["f10"]);
    assert_eq!(state["to_move"], "black", "the turn is the owner's");
    assert_eq!(state["must_return"], true);
    assert_eq!(state["chooser"], "white", "the captor chooses");
    assert_eq!(state["computer_to_move"], false);
    assert!(strings(&state["legal_moves"])
        .iter()
        .all(|m| m.starts_with("f10>")));
    // The computer is not to move: asking it is refused.
    s.act(&id, "computer", &token)
        .await
        .error(409, "not-computer-turn");
    // The hint is for the person's choice: one of the returns.
    let hint = s.act(&id, "hint", &token).await.ok();
    assert!(hint["move"].as_str().unwrap().starts_with("f10>"), "{hint}");
    // The person puts the black queen back (not on the throne: it's theirs to choose).
    let state = s.play(&id, &token, "f10>a1", false).await.ok();
    assert_eq!(strings(&state["moves"]), ["e9-f9", "f10>a1"]);
    assert_eq!(state["to_move"], "white");
    assert_eq!(state["chooser"], "white");
    let captor: Rules = CAPTOR.parse().unwrap();
    check_against_core(&state, QUEEN_CAPTURE, captor);
    // Undo takes back the person's last choice: the return of Black's queen.
    let state = s.act(&id, "undo", &token).await.ok();
    assert_eq!(strings(&state["moves"]), ["e9-f9"]);
    assert_eq!(state["chooser"], "white");

    // Under the standard rules, Black returns its own queen: the person may not.
    let (id, token, _) = s
        .create(json!({"side": "white", "level": "easy", "position": QUEEN_CAPTURE}))
        .await;
    let state = s.play(&id, &token, "e9-f9", false).await.ok();
    assert_eq!(state["chooser"], "black");
    assert_eq!(state["computer_to_move"], true);
    s.play(&id, &token, "f10>a1", false)
        .await
        .error(409, "not-your-turn");
    s.unchanged(&id, &state).await;
    let state = s.act(&id, "computer", &token).await.ok();
    assert!(state["last_move"].as_str().unwrap().starts_with("f10>"));
    check_against_core(&state, QUEEN_CAPTURE, Rules::STANDARD);
}

async fn under_captor_the_computer_chooses_where_the_persons_queen_returns(b: Backend) {
    let s = server(b).await;
    for level in Level::ALL {
        // The person plays Black, whose queen is captured: White, the computer, chooses
        // her cell at once.
        let (id, token, state) = s
            .create(json!({"side": "black", "level": level.name(), "position": BLACK_RETURNS, "rules": CAPTOR}))
            .await;
        let moves = strings(&state["moves"]);
        assert_eq!(moves.len(), 1, "{level}: {moves:?}");
        assert!(moves[0].starts_with("f7>"), "{level}: {moves:?}");
        let captor: Rules = CAPTOR.parse().unwrap();
        check_against_core(&state, BLACK_RETURNS, captor);
        // Black's turn is spent: White (the computer) steps next.
        assert_eq!(state["to_move"], "white");
        assert_eq!(state["computer_to_move"], true);
        assert_eq!(state["can_undo"], false, "no choice of the person's yet");
        let state = s.act(&id, "computer", &token).await.ok();
        // Now Black returns its own guards.
        assert_eq!(state["to_move"], "black");
        assert_eq!(state["chooser"], "black");
        assert_eq!(state["computer_to_move"], false);
        check_against_core(&state, BLACK_RETURNS, captor);
    }
}

async fn every_level_and_the_hint_play_other_rules(b: Backend) {
    let s = server(b).await;
    for rules in [
        "ludii",
        "standard+capture=same-ring+between=trapped+guard-return=next-ring",
    ] {
        let parsed: Rules = rules.parse().unwrap();
        for level in Level::ALL {
            let (id, token, state) = s
                .create(json!({"side": "black", "level": level.name(), "rules": rules}))
                .await;
            assert_eq!(strings(&state["moves"]).len(), 1, "{level} opened");
            let hint = s.act(&id, "hint", &token).await.ok();
            let state = s
                .play(&id, &token, hint["move"].as_str().unwrap(), true)
                .await
                .ok();
            assert_eq!(strings(&state["moves"]).len(), 3, "{rules} {level}");
            check_against_core(&state, START, parsed);
        }
    }
}

async fn bad_rule_sets_are_refused_by_name_and_make_no_game(b: Backend) {
    let s = server(b).await;
    let cases: [(Value, u16, &str); 12] = [
        (json!("chess"), 400, "unknown-preset"),
        (json!(""), 400, "unknown-preset"),
        (json!("Ludii"), 400, "unknown-preset"),
        (json!("standard+colour=red"), 400, "unknown-rule-option"),
        (
            json!("standard+capture=diagonal"),
            400,
            "unknown-rule-value",
        ),
        (
            json!("standard+capture=any+capture=same-ring"),
            400,
            "duplicate-rule-option",
        ),
        (json!("standard+limit=0"), 400, "limit-out-of-range"),
        (json!("standard+limit=100001"), 400, "limit-out-of-range"),
        (json!("standard+limit=-5"), 400, "unknown-rule-value"),
        (json!("standard+capture"), 400, "malformed-rules"),
        (json!("ludii "), 400, "unknown-preset"),
        (json!(5), 400, "malformed-json"),
    ];
    for (rules, status, name) in cases {
        s.post(
            "/api/games",
            json!({"side": "white", "level": "easy", "rules": rules}),
        )
        .await
        .error(status, name);
        // Also for a player of Black, whose game would have started with the computer's
        // move.
        s.post(
            "/api/games",
            json!({"side": "black", "level": "easy", "rules": rules}),
        )
        .await
        .error(status, name);
    }
    // The limits themselves are accepted.
    for limit in [1, 100_000] {
        let (_, _, state) = s
            .create(json!({"side": "white", "level": "easy", "rules": format!("standard+limit={limit}")}))
            .await;
        assert_eq!(state["rules"], format!("standard+limit={limit}"));
    }
    assert_eq!(
        s.count_games().await,
        2,
        "only the two good requests made a game"
    );
    s.get("/api/board.svg?rules=chess")
        .await
        .error(400, "unknown-preset");
}

async fn the_board_is_drawn_under_rules_that_trap(b: Backend) {
    let s = server(b).await;
    let both = "Qf1,Ga5,Gb1*,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 w";
    let uri = format!(
        "/api/board.svg?position={}",
        both.replace(',', "%2C")
            .replace(' ', "+")
            .replace('/', "%2F")
            .replace('*', "%2A")
    );
    s.get(&uri).await.error(400, "invalid-field");
    let answer = s
        .get(&format!("{uri}&rules=standard%2Bbetween%3Dtrapped"))
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    assert!(answer.text.starts_with("<svg"));
}

#[test]
fn a_database_from_before_rule_sets_keeps_its_games_as_standard() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(&agon_web::store::SqliteStore::schema_sql(1).unwrap())
            .unwrap();
        conn.execute(
            "INSERT INTO games (id, token_sha256, human, level, start, seed, resigned, created_unix)
             VALUES ('0123456789abcdef', ?1, 'white', 'easy', ?2, 7, 0, 0)",
            rusqlite::params![&[0u8; 32][..], START],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO moves (game_id, ply, move) VALUES ('0123456789abcdef', 0, 'f1-e1')",
            [],
        )
        .unwrap();
    }
    for _ in 0..2 {
        // Opened twice: the migration runs once and the second open finds version 2.
        let store = agon_web::store::SqliteStore::open(&path).unwrap();
        let game = store.load("0123456789abcdef").unwrap().unwrap();
        assert_eq!(game.game.rules(), Rules::STANDARD);
        assert_eq!(game.plies(), 1);
        let version: i64 = store
            .transaction(|tx| Ok(tx.query_row("PRAGMA user_version", [], |r| r.get(0))?))
            .unwrap();
        assert_eq!(version, agon_web::store::VERSION);
    }
    // A database from a newer server is refused, not misread.
    let newer = dir.path().join("newer.sqlite3");
    rusqlite::Connection::open(&newer)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99;")
        .unwrap();
    assert!(Store::open(&newer).is_err());
}

both_stores!((); a_game_under_each_preset_and_a_composed_rule_set, a_position_is_read_under_the_rules, a_stuck_side_passes_under_ludii, a_pass_where_the_rules_have_none_is_refused_and_changes_nothing, the_move_limit_draws_the_game_and_the_record_says_so, the_record_of_a_standard_game_has_no_rules_tag, under_captor_the_person_chooses_where_the_computers_queen_returns, under_captor_the_computer_chooses_where_the_persons_queen_returns, every_level_and_the_hint_play_other_rules, bad_rule_sets_are_refused_by_name_and_make_no_game, the_board_is_drawn_under_rules_that_trap);
