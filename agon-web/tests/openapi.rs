//! The API document served at `GET /api/openapi.json`: OpenAPI 3.1, every route of the
//! router and of the README in it, its schemas true of real answers, and the errors real
//! requests get listed under their operation. (Schemathesis fuzzes the server against the
//! same document: `tests/schemathesis/run.sh`.)

use std::collections::BTreeSet;

use agon_web::{app, AppState, Config};
use axum::body::Body;
use axum::http::{header, Method, Request};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// An id no game has, of the valid form.
const NO_GAME: &str = "0011223344556677";

struct Server {
    app: Router,
    _dir: tempfile::TempDir,
}

fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: agon_web::Database::Sqlite(dir.path().join("games.sqlite3")),
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    Server {
        app: app(AppState::open(&config).unwrap()),
        _dir: dir,
    }
}

impl Server {
    /// Answers (status, content type, body).
    async fn send(&self, method: &str, uri: &str, body: Option<&str>) -> (u16, String, Value) {
        let mut request = Request::builder()
            .method(Method::from_bytes(method.as_bytes()).unwrap())
            .uri(uri);
        if body.is_some() {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
        let response = self.app.clone().oneshot(request.body(body).unwrap()).await;
        let response = response.unwrap();
        let status = response.status().as_u16();
        let content_type = response.headers()[header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .to_string();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        (status, content_type, value)
    }

    async fn document(&self) -> Value {
        let (status, content_type, doc) = self.send("GET", "/api/openapi.json", None).await;
        assert_eq!((status, content_type.as_str()), (200, "application/json"));
        doc
    }
}

/// Every operation of the document: (method, path, operation).
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut all = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            all.push((method.to_uppercase(), path.clone(), operation.clone()));
        }
    }
    all
}

/// The component a `$ref` names.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.strip_prefix("#/components/schemas/").unwrap();
            let target = &doc["components"]["schemas"][name];
            assert!(target.is_object(), "{reference} names no schema");
            resolve(doc, target)
        }
        None => schema,
    }
}

/// Checks a real answer against its schema, as far as this API's schemas go: types,
/// enums, every property, the required keys exactly the keys sent, arrays' items, `oneOf`
/// (a null or the schema) and `allOf`. Panics with the JSON path of a mismatch.
fn check(doc: &Value, schema: &Value, value: &Value, at: &str) {
    let schema = resolve(doc, schema);
    if let Some(all) = schema["allOf"].as_array() {
        for part in all {
            // A part may speak of some keys only (the error's names).
            let part = resolve(doc, part);
            match part.get("required") {
                Some(_) => check(doc, part, value, at),
                None => {
                    for (key, property) in part["properties"].as_object().into_iter().flatten() {
                        check(doc, property, &value[key], &format!("{at}.{key}"));
                    }
                }
            }
        }
    }
    if let Some(one) = schema["oneOf"].as_array() {
        let fits = one.iter().filter(|s| {
            let s = resolve(doc, s);
            match value.is_null() {
                true => s["type"] == "null",
                false => s["type"] != "null",
            }
        });
        let fits: Vec<&Value> = fits.collect();
        assert_eq!(fits.len(), 1, "{at}: one schema of oneOf for {value}");
        check(doc, fits[0], value, at);
    }
    if let Some(values) = schema["enum"].as_array() {
        assert!(values.contains(value), "{at}: {value} not in {values:?}");
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    if !types.is_empty() {
        let actual = match value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        let fits = types.contains(&actual) || (actual == "integer" && types.contains(&"number"));
        assert!(fits, "{at}: a {actual}, the schema says {types:?}");
    }
    if let (Some(properties), Some(object)) = (schema["properties"].as_object(), value.as_object())
    {
        if let Some(required) = schema["required"].as_array() {
            let required: BTreeSet<&str> = required.iter().filter_map(Value::as_str).collect();
            let sent: BTreeSet<&str> = object.keys().map(String::as_str).collect();
            if schema["allOf"].is_null() && properties.len() > 1 {
                assert_eq!(required, sent, "{at}: required keys and keys sent");
            }
        }
        for (key, item) in object {
            let property = properties.get(key);
            assert!(property.is_some(), "{at}.{key}: not in the schema");
            check(doc, property.unwrap(), item, &format!("{at}.{key}"));
        }
    }
    if let (Some(items), Some(array)) = (schema.get("items"), value.as_array()) {
        for (i, item) in array.iter().enumerate() {
            check(doc, items, item, &format!("{at}[{i}]"));
        }
    }
}

/// The schema of `status`'s JSON answer of the operation at `path`.
fn answer_schema<'a>(doc: &'a Value, method: &str, path: &str, status: u16) -> &'a Value {
    let response = &doc["paths"][path][method.to_lowercase()]["responses"][status.to_string()];
    assert!(
        response.is_object(),
        "{method} {path} does not document {status}"
    );
    &response["content"]["application/json"]["schema"]
}

/// Whether the document lists error `name` under `status` for the operation at `path`.
fn documents_error(doc: &Value, method: &str, path: &str, status: u16, name: &str) -> bool {
    let schema = answer_schema(doc, method, path, status);
    match schema["allOf"][1]["properties"]["error"]["enum"].as_array() {
        Some(names) => names.contains(&json!(name)),
        None => false,
    }
}

#[tokio::test]
async fn the_document_is_openapi_3_1_and_every_reference_resolves() {
    let doc = server().document().await;
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "agon-web");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    let mut ids = BTreeSet::new();
    for (method, path, operation) in operations(&doc) {
        let id = operation["operationId"].as_str().unwrap().to_string();
        assert!(ids.insert(id), "{method} {path}: operation ids are unique");
        assert!(operation["responses"].as_object().unwrap().len() >= 3);
        for (status, response) in operation["responses"].as_object().unwrap() {
            assert!(response["description"].is_string(), "{path} {status}");
            for (media, content) in response["content"].as_object().into_iter().flatten() {
                assert!(content["schema"].is_object(), "{path} {status} {media}");
            }
        }
    }
    // Every reference names a schema of the document.
    let text = doc.to_string();
    for reference in text.split("\"$ref\":\"").skip(1) {
        let reference = &reference[..reference.find('"').unwrap()];
        let _ = resolve(&doc, &json!({ "$ref": reference }));
    }
}

/// A new endpoint without an entry in the document fails here: every API route is built
/// from its `#[utoipa::path]` (`api_routes` in lib.rs), no `/api` route is added beside
/// them, every documented operation is routed, and the README's table of endpoints is the
/// document's list of operations.
#[tokio::test]
async fn every_route_is_documented_and_every_documented_operation_is_routed() {
    let server = server();
    let doc = server.document().await;
    let lib = include_str!("../src/lib.rs");
    for line in lib.lines().filter(|l| l.contains(".route(\"")) {
        assert!(
            !line.contains("\"/api"),
            "an API route outside api_routes (no document): {line}"
        );
    }
    let documented: BTreeSet<String> = operations(&doc)
        .iter()
        .map(|(method, path, _)| format!("{method} {path}"))
        .collect();
    assert_eq!(documented.len(), 65, "{documented:?}");
    // Issue 34's abort: its route, its refusals and the outcome it gives.
    let abort = "/api/games/{id}/abort";
    assert!(documented.contains(&format!("POST {abort}")));
    for (status, name) in [
        (409, "too-late-to-abort"),
        (409, "game-over"),
        (409, "not-a-friend-game"),
        (403, "wrong-token"),
    ] {
        assert!(documents_error(&doc, "POST", abort, status, name), "{name}");
    }
    let outcome = &doc["components"]["schemas"]["OutcomeState"]["properties"];
    assert!(outcome["reason"]["description"]
        .as_str()
        .is_some_and(|d| d.contains("`aborted`")));
    for (method, path, operation) in operations(&doc) {
        if path == "/api/lobby/events" {
            continue; // the lobby's stream never ends: tests/lobby.rs reads it
        }
        let uri = path.replace("{id}", NO_GAME);
        let body = operation.get("requestBody").map(|_| "{}");
        let (status, _, answer) = server.send(&method, &uri, body).await;
        let name = answer["error"].as_str().unwrap_or("");
        assert!(
            !matches!(name, "not-found" | "method-not-allowed"),
            "{method} {path} is not routed: {status} {name}"
        );
    }
    let readme = include_str!("../README.md");
    let endpoints = readme
        .split("### Endpoints")
        .nth(1)
        .unwrap()
        .split("\n\n")
        .nth(1)
        .unwrap();
    let listed: BTreeSet<String> = endpoints
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .map(|row| {
            let endpoint = &row[..row.find('`').unwrap()];
            endpoint.split('?').next().unwrap().to_string()
        })
        .filter(|endpoint| endpoint != "GET /metrics")
        .collect();
    assert_eq!(
        listed, documented,
        "the README's endpoints and the document's"
    );
}

impl Server {
    /// Sends a request to the operation at `path` (its `{id}` filled in), asserts `status`
    /// and checks the answer against its schema in `doc`.
    async fn checked(
        &self,
        doc: &Value,
        (method, path, id): (&str, &str, &str),
        body: Option<Value>,
        status: u16,
    ) -> Value {
        let uri = path.replace("{id}", id);
        let body = body.map(|b| b.to_string());
        let (answered, _, answer) = self.send(method, &uri, body.as_deref()).await;
        assert_eq!(answered, status, "{method} {uri}: {answer}");
        check(doc, answer_schema(doc, method, path, status), &answer, &uri);
        answer
    }
}

/// The schemas say what the server sends: real answers of every kind checked against them
/// (every key required and sent, types, enums, nullable fields).
#[tokio::test]
async fn real_answers_match_their_schemas() {
    let server = server();
    let doc = server.document().await;
    let body = json!({"side": "white", "opponent": "friend", "clock": "5+3", "name": "Ada"});
    let created = server
        .checked(&doc, ("POST", "/api/games", ""), Some(body), 201)
        .await;
    let id = created["id"].as_str().unwrap();
    let required = resolve(&doc, &json!({"$ref": "#/components/schemas/GameState"}))["required"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(required, created["state"].as_object().unwrap().len());
    server
        .checked(
            &doc,
            ("POST", "/api/games/{id}/join", id),
            Some(json!({})),
            200,
        )
        .await;
    let token = &created["token"];
    let play = json!({"token": token, "move": created["state"]["legal_moves"][0]});
    let moved = server
        .checked(&doc, ("POST", "/api/games/{id}/moves", id), Some(play), 200)
        .await;
    assert!(moved["clock"]["running"].is_string());
    let resign = json!({ "token": token });
    let over = server
        .checked(
            &doc,
            ("POST", "/api/games/{id}/resign", id),
            Some(resign),
            200,
        )
        .await;
    assert!(over["outcome"].is_object());
    // Against the computer: a level, a hint.
    let body = json!({"side": "black", "level": "easy", "rules": "ludii"});
    let computer = server
        .checked(&doc, ("POST", "/api/games", ""), Some(body), 201)
        .await;
    let id = computer["id"].as_str().unwrap();
    let hint = json!({"token": computer["token"]});
    server
        .checked(&doc, ("POST", "/api/games/{id}/hint", id), Some(hint), 200)
        .await;
    server
        .checked(&doc, ("GET", "/api/games/{id}", id), None, 200)
        .await;
    let seat = json!({"token": computer["token"]});
    server
        .checked(&doc, ("POST", "/api/games/{id}/seat", id), Some(seat), 200)
        .await;
    server
        .checked(&doc, ("GET", "/api/health", ""), None, 200)
        .await;
    server
        .checked(&doc, ("GET", "/api/games/{id}", NO_GAME), None, 404)
        .await;
    // The text answers have their media types.
    for (path, media) in [
        ("/api/games/{id}/record", "text/plain"),
        ("/api/board.svg", "image/svg+xml"),
        ("/api/games/{id}/events", "text/event-stream"),
    ] {
        let content = &doc["paths"][path]["get"]["responses"]["200"]["content"];
        assert!(content[media].is_object(), "{path}: {content}");
    }
}

/// Every value an enum of the document lists is one the server takes.
#[tokio::test]
async fn the_documents_enums_are_what_the_server_takes() {
    let server = server();
    let doc = server.document().await;
    let values = |name: &str| -> Vec<String> {
        doc["components"]["schemas"][name]["enum"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(values("SideChoice"), ["white", "black", "random"]);
    for level in values("LevelName") {
        for side in values("SideChoice") {
            let body = json!({"side": side, "level": level}).to_string();
            let (status, _, _) = server.send("POST", "/api/games", Some(&body)).await;
            assert_eq!(status, 201, "{side} {level}");
        }
    }
    for opponent in values("OpponentName") {
        let body = json!({"side": "white", "level": "easy", "opponent": opponent}).to_string();
        let (status, _, created) = server.send("POST", "/api/games", Some(&body)).await;
        assert_eq!(status, 201, "{opponent}");
        assert_eq!(created["state"]["opponent"], json!(opponent));
    }
    let body = json!({"side": "white", "opponent": "friend"}).to_string();
    let (_, _, created) = server.send("POST", "/api/games", Some(&body)).await;
    let id = created["id"].as_str().unwrap();
    for answer in values("AnswerName") {
        let body = json!({"token": created["token"], "answer": answer}).to_string();
        let (status, _, refused) = server
            .send("POST", &format!("/api/games/{id}/draw"), Some(&body))
            .await;
        // Accepted, or refused by the game (409), never as an unknown answer (400).
        assert!(status == 200 || status == 409, "{answer}: {refused}");
    }
}

/// The errors real requests get are listed under their operation with their status and
/// name, and every name of the README's table of errors is in the document.
#[tokio::test]
async fn every_error_answered_is_documented_for_its_operation() {
    let server = server();
    let doc = server.document().await;
    let body = json!({"side": "white", "level": "easy"}).to_string();
    let (_, _, game) = server.send("POST", "/api/games", Some(&body)).await;
    let id = game["id"].as_str().unwrap().to_string();
    let mut seen = 0;
    for (method, path, operation) in operations(&doc) {
        if path == "/api/games/{id}/events" || path == "/api/lobby/events" {
            continue; // a stream: its errors are checked below (the lobby's in tests/lobby.rs)
        }
        let mut requests: Vec<(String, Option<String>)> = vec![
            (path.replace("{id}", NO_GAME), None),
            (path.replace("{id}", "%FF"), None),
        ];
        if operation.get("requestBody").is_some() {
            let uri = path.replace("{id}", &id);
            requests.extend([
                (uri.clone(), Some("[]".to_string())),
                (
                    uri.clone(),
                    Some(json!({"token": "x", "answer": "offer", "move": "a1-a2"}).to_string()),
                ),
                (
                    uri.clone(),
                    Some(json!({"token": "wrong", "answer": "offer"}).to_string()),
                ),
                (uri.clone(), Some(json!({"token": "wrong"}).to_string())),
                (
                    uri.clone(),
                    Some(json!({"token": game["token"], "answer": "maybe"}).to_string()),
                ),
                (
                    uri.clone(),
                    Some(json!({"token": game["token"], "move": "z9"}).to_string()),
                ),
                (
                    uri.clone(),
                    Some(json!({"token": game["token"], "move": "a2-a3"}).to_string()),
                ),
                (
                    uri.clone(),
                    Some(json!({"token": game["token"], "answer": "accept"}).to_string()),
                ),
                (
                    uri.clone(),
                    Some(json!({"token": game["token"]}).to_string()),
                ),
                (uri.clone(), Some(json!({"name": ""}).to_string())),
                (uri, Some(format!("{{\"name\": \"{}\"}}", "x".repeat(5000)))),
            ]);
        } else {
            let uri = path.replace("{id}", &id);
            requests.push((format!("{uri}?view=up&position=x&flipped=2"), None));
            requests.push((format!("{uri}?last=q&rules=chess"), None));
        }
        for (uri, body) in requests {
            let (status, _, answer) = server.send(&method, &uri, body.as_deref()).await;
            if status < 400 {
                continue;
            }
            let name = answer["error"].as_str().unwrap();
            assert!(
                documents_error(&doc, &method, &path, status, name),
                "{method} {uri}: {status} {name} is not in the document"
            );
            seen += 1;
        }
    }
    assert!(seen > 100, "{seen} errors checked");
    // The media type is checked before anything else.
    let (status, _, answer) = server.send("POST", "/api/games", None).await;
    assert_eq!(
        (status, &answer["error"]),
        (415, &json!("unsupported-media-type"))
    );
    assert!(documents_error(
        &doc,
        "POST",
        "/api/games",
        415,
        "unsupported-media-type"
    ));
    let events = "/api/games/{id}/events";
    assert!(documents_error(&doc, "GET", events, 400, "invalid-field"));
    assert!(documents_error(&doc, "GET", events, 429, "rate-limited"));
    assert!(documents_error(
        &doc,
        "GET",
        events,
        503,
        "too-many-streams"
    ));
    // The README's names: each is in the document (but `not-found`, a path no route has).
    let readme = include_str!("../README.md");
    let table = readme.split("### Errors").nth(1).unwrap();
    let text = doc.to_string();
    let mut names = 0;
    for row in table
        .lines()
        .filter(|l| l.starts_with("| 4") || l.starts_with("| 5"))
    {
        let name_cell = row.split('|').nth(2).unwrap();
        if name_cell.contains("IllegalMove") {
            continue;
        }
        for name in agon_web::openapi::error_names(name_cell) {
            names += 1;
            if name != "not-found" {
                assert!(
                    text.contains(&format!("\"{name}\"")),
                    "{name} is not in the document"
                );
            }
        }
    }
    assert!(names >= 35, "{names} names in the README");
}

/// `pattern` anchored, as the document gives it.
fn pattern(doc: &Value, schema: &str, field: &str) -> regex::Regex {
    let mut property = &doc["components"]["schemas"][schema]["properties"][field];
    if let Some(first) = property["oneOf"].get(0) {
        property = first;
    }
    if property["type"] == "array" {
        property = &property["items"];
    }
    regex::Regex::new(&without_lookaheads(
        property["pattern"].as_str().expect("a pattern"),
    ))
    .unwrap()
}

/// A pattern without its lookaheads `(?!...)`, which the regex crate does not take: the
/// shape they constrain (the position's no cell twice, captured pieces on one side, no
/// guard on the throne) is checked by the server's answers below.
fn without_lookaheads(pattern: &str) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while let Some(at) = rest.find("(?!") {
        out.push_str(&rest[..at]);
        let mut depth = 0;
        let mut end = at;
        for (i, c) in rest[at..].char_indices() {
            match c {
                '(' if !rest[..at + i].ends_with('\\') => depth += 1,
                ')' if !rest[..at + i].ends_with('\\') => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = at + i + 1;
                break;
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn the_texts_patterns_take_what_the_server_reads() {
    let doc = server().document().await;
    // Cells: exactly agon-core's 91 names.
    let cell = pattern(&doc, "PieceState", "cell");
    let mut cells = 0;
    for file in "abcdefghijklm".chars() {
        for rank in ["0", "01", "1", "5", "6", "10", "11", "12"] {
            let text = format!("{file}{rank}");
            let parsed = text.parse::<agon_core::Cell>().is_ok();
            assert_eq!(cell.is_match(&text), parsed, "{text}");
            cells += usize::from(parsed);
        }
    }
    assert!(cells > 30, "{cells}");
    assert_eq!(
        agon_core::Cell::all()
            .filter(|c| cell.is_match(&c.to_string()))
            .count(),
        91
    );
    // Moves and positions: every one a game reaches, under every preset.
    let (step, position) = (
        pattern(&doc, "MoveRequest", "move"),
        pattern(&doc, "GameState", "position"),
    );
    let rules = pattern(&doc, "GameState", "rules");
    for (_, preset) in agon_core::Rules::PRESETS {
        let mut game =
            agon_core::Game::from_position(agon_core::Position::start_with_rules(preset));
        for ply in 0..200 {
            if game.is_over() {
                break;
            }
            assert!(position.is_match(&game.position().to_text().to_string()));
            let moves = game.legal_moves();
            for m in moves.iter() {
                assert!(step.is_match(&m.to_string()), "{m}");
                if let (Some(from), Some(to)) = (m.from(), m.to()) {
                    assert!(step.is_match(&format!("{from}{to}")), "{m} as a pair");
                }
            }
            game.play(moves[(ply * 7) % moves.len()]).unwrap();
        }
        assert!(rules.is_match(&preset.to_string()));
    }
    assert!(step.is_match("pass"));
    for bad in ["f1-e1 ", "f1--e1", "f1-j1", "pas", "f1"] {
        assert!(!step.is_match(bad), "{bad}");
    }
    // Rule sets: every option's every value, alone and together, in the canonical form.
    for (option, values) in agon_web::rule_option_values() {
        for value in values.iter().chain(if option == "limit" {
            &["1", "2500", "100000"][..]
        } else {
            &[][..]
        }) {
            let text = format!("ludii+{option}={value}");
            let canonical = text.parse::<agon_core::Rules>().unwrap().to_string();
            assert!(rules.is_match(&text), "{text}");
            assert!(rules.is_match(&canonical), "{canonical}");
        }
    }
    let bad_rules =
        "chess standard+limit=0 standard+limit=100001 standard+capture=diagonal standard+";
    for bad in bad_rules.split(' ') {
        assert!(!rules.is_match(bad), "{bad}");
        assert!(bad.parse::<agon_core::Rules>().is_err(), "{bad}");
    }
    // Clocks.
    let clock = pattern(&doc, "NewGameRequest", "clock");
    for good in ["none", "1+0", "5+3", "180+60", "99+59"] {
        assert!(
            clock.is_match(good) && agon_web::api::parse_clock(good).is_ok(),
            "{good}"
        );
    }
    for bad in ["0+3", "181+0", "5+61", "5", " 5+3"] {
        assert!(
            !clock.is_match(bad) && agon_web::api::parse_clock(bad).is_err(),
            "{bad}"
        );
    }
}

#[tokio::test]
async fn level_is_required_against_the_computer_and_events_have_their_schemas() {
    let doc = server().document().await;
    let new_game = &doc["components"]["schemas"]["NewGameRequest"];
    assert_eq!(new_game["if"]["properties"]["opponent"]["const"], "friend");
    assert_eq!(new_game["else"]["required"], json!(["level"]));
    let level = &new_game["else"]["properties"]["level"];
    assert_eq!(
        resolve(&doc, level)["enum"],
        json!(["easy", "medium", "hard"]),
        "not null"
    );
    let stream = &doc["paths"]["/api/games/{id}/events"]["get"]["responses"]["200"]["content"]
        ["text/event-stream"]["schema"];
    let live = resolve(&doc, &stream["items"]);
    let kinds: Vec<&Value> = live["oneOf"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| &resolve(&doc, e)["properties"]["event"]["const"])
        .collect();
    assert_eq!(
        kinds,
        [&json!("state"), &json!("change"), &json!("presence")]
    );
    // A real change, with and without its board, is valid against its schema.
    let change = &doc["components"]["schemas"]["GameChange"];
    use agon_core::{Position, Side};
    use agon_web::{game::WebGame, GameChange, Level, View};
    let start = WebGame::new(
        "0011223344556677".into(),
        [0; 32],
        Side::White,
        Level::Easy,
        1,
        Position::start(),
    );
    let mut moved = start.clone();
    moved.game.play("f1-e1".parse().unwrap()).unwrap();
    moved.version = 1;
    let mut offered = moved.clone();
    offered.offers.draw = Some(Side::Black);
    offered.version = 2;
    let view = View {
        side: Side::Black,
        now_ms: 0,
        present: [true, false],
        minute_ms: 60_000,
    };
    let drawn = serde_json::to_value(GameChange::between(&start, &moved, view)).unwrap();
    assert!(drawn["svg"].is_string());
    check(&doc, change, &drawn, "a change with its board");
    let plain = serde_json::to_value(GameChange::between(&moved, &offered, view)).unwrap();
    assert!(plain["svg"].is_null(), "{plain}");
    check(&doc, change, &plain, "a change without a board");
}

/// The most bytes a JSON text valid under `schema` can take, or `None` if unbounded: a
/// string of base64url (its pattern says so) a byte a character, any other string twelve
/// (a character out of the BMP written as two `\u` escapes, as a fuzzer's encoder does),
/// every property present, `oneOf` its largest.
fn largest_json(doc: &Value, schema: &Value) -> Option<usize> {
    let schema = resolve(doc, schema);
    if let Some(choices) = schema["oneOf"].as_array() {
        return choices.iter().map(|c| largest_json(doc, c)).max().flatten();
    }
    if let Some(values) = schema["enum"].as_array() {
        return values.iter().map(|v| v.to_string().len()).max();
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec!["object"],
    };
    let mut largest = 0;
    for kind in types {
        let size = match kind {
            "null" | "boolean" => 5,
            "integer" | "number" => 20,
            "string" => {
                let per_char = if schema["pattern"] == "^[A-Za-z0-9_-]*$" {
                    1
                } else {
                    12
                };
                2 + per_char * schema["maxLength"].as_u64()? as usize
            }
            "array" => {
                let item = largest_json(doc, &schema["items"])?;
                2 + schema["maxItems"].as_u64()? as usize * (item + 1)
            }
            _ => {
                let properties = schema["properties"].as_object()?;
                if schema["additionalProperties"] != false {
                    return None;
                }
                let mut size = 2;
                for (key, value) in properties {
                    size += key.len() + 4 + largest_json(doc, value)?;
                }
                size
            }
        };
        largest = largest.max(size);
    }
    Some(largest)
}

/// Schemathesis sent a valid passkey of over 4 KiB when the credential was a free-form
/// object, and got `413`: every request body is an object of listed keys, nothing
/// free-form at any depth, and every credential the document allows, with its name, fits
/// the API's body limit.
#[tokio::test]
async fn request_bodies_have_no_free_form_object_and_credentials_fit_the_body_limit() {
    let doc = server().document().await;
    fn free_form_at(doc: &Value, schema: &Value, at: &str, depth: usize) -> Option<String> {
        let schema = resolve(doc, schema);
        if depth > 12 {
            return None;
        }
        for key in ["oneOf", "anyOf", "allOf"] {
            for (i, part) in schema[key].as_array().into_iter().flatten().enumerate() {
                if let Some(found) = free_form_at(doc, part, &format!("{at}/{key}/{i}"), depth + 1)
                {
                    return Some(found);
                }
            }
        }
        let is_object = schema["type"] == "object"
            || schema["type"]
                .as_array()
                .is_some_and(|t| t.contains(&json!("object")));
        if is_object
            && (schema["properties"]
                .as_object()
                .is_none_or(|p| p.is_empty()))
        {
            return Some(at.to_string());
        }
        for (key, value) in schema["properties"].as_object().into_iter().flatten() {
            if let Some(found) = free_form_at(doc, value, &format!("{at}.{key}"), depth + 1) {
                return Some(found);
            }
        }
        free_form_at(doc, &schema["items"], &format!("{at}[]"), depth + 1)
            .filter(|_| schema["items"].is_object())
    }
    let mut credentials = 0;
    for (method, path, operation) in operations(&doc) {
        let body = &operation["requestBody"]["content"]["application/json"]["schema"];
        if !body.is_object() {
            continue;
        }
        let found = free_form_at(&doc, body, "", 0);
        assert_eq!(
            found, None,
            "{method} {path}: a free-form object in the request"
        );
        if resolve(&doc, body)["properties"]["credential"].is_object() {
            credentials += 1;
            let largest = largest_json(&doc, body)
                .unwrap_or_else(|| panic!("{method} {path}: a credential request without bounds"));
            let limit = agon_web::http::request::max_body_for(&path);
            assert!(
                largest <= limit,
                "{method} {path}: {largest} bytes over {limit}"
            );
        }
    }
    // Sign-up, sign-in, another passkey, deletion.
    assert_eq!(credentials, 4);
    // The bounds are the document's, not the test's: a schema without maxLength is unbounded.
    assert_eq!(largest_json(&doc, &json!({"type": "string"})), None);
    assert_eq!(largest_json(&doc, &json!({"type": "object"})), None);
}

/// A record's tag is a name and a value, and the server refuses any other length
/// (`tests/analysis.rs`): the document says so in both directions, with the name's and the
/// value's patterns taking exactly what agon-core's `Record::set_tag` takes, so that a
/// client generated from it sends no tag the server refuses (Schemathesis sent a tag of
/// one text, then one named "").
#[tokio::test]
async fn a_records_tags_are_documented_as_pairs() {
    let doc = server().document().await;
    for schema in ["WriteRequest", "RecordTree"] {
        let tags = &doc["components"]["schemas"][schema]["properties"]["tags"];
        assert_eq!(tags["type"], "array", "{schema}");
        let pair = &tags["items"];
        assert_eq!(
            (
                &pair["type"],
                &pair["minItems"],
                &pair["maxItems"],
                &pair["items"]
            ),
            (&json!("array"), &json!(2), &json!(2), &json!(false)),
            "{schema}"
        );
        assert_eq!(pair["prefixItems"].as_array().map(Vec::len), Some(2));
    }
    let pair = &doc["components"]["schemas"]["WriteRequest"]["properties"]["tags"]["items"];
    let name = pair["prefixItems"][0]["pattern"].as_str().unwrap();
    // The lookahead names the reserved tags; the regex crate takes the rest.
    let reserved: Vec<&str> = name
        .strip_prefix("^(?!(")
        .and_then(|rest| rest.split_once(")$)"))
        .expect("the reserved names first")
        .0
        .split('|')
        .collect();
    let name_shape = regex::Regex::new(&without_lookaheads(name)).unwrap();
    let value = regex::Regex::new(pair["prefixItems"][1]["pattern"].as_str().unwrap()).unwrap();
    let mut record = agon_core::Record::new(agon_core::Game::new());
    let names = [
        "Event",
        "My_Tag2",
        "x",
        "",
        "a b",
        "x-y",
        "Événement",
        "Rules",
        "Position",
        "Result",
        "Rules2",
        "result",
    ];
    for text in names {
        let documented = name_shape.is_match(text) && !reserved.contains(&text);
        assert_eq!(
            documented,
            record.set_tag(text, "v").is_ok(),
            "name {text:?}"
        );
    }
    for text in ["", "one line", "tab\there", "two\nlines", "end\n"] {
        assert_eq!(
            value.is_match(text),
            record.set_tag("Event", text).is_ok(),
            "value {text:?}"
        );
    }
}

/// A tree's moves are read as a record writes them (a pair `f1e1`, which a game's move
/// request takes, is not one): the document's pattern for them takes exactly the texts
/// the server reads (Schemathesis sent `e3g2`).
#[tokio::test]
async fn a_trees_moves_are_documented_as_a_record_writes_them() {
    let server = server();
    let doc = server.document().await;
    let written = pattern(&doc, "TreeNode", "move");
    for text in [
        "f1-e1", "f1-g1", "pass", "f1e1", "f1=e1", "f1-e1-d1", "j1-e1",
    ] {
        let body = json!({"nodes": [{"move": text, "parent": null}]}).to_string();
        let (status, _, answer) = server.send("POST", "/api/records/write", Some(&body)).await;
        // A text the notation reads is written, or refused as illegal (409).
        let read = status == 200 || status == 409;
        assert_eq!(written.is_match(text), read, "{text}: {status} {answer}");
    }
}
