//! The JSON API as an OpenAPI 3.1 document, generated from the code and served at
//! `GET /api/openapi.json`.
//!
//! The paths come from the `#[utoipa::path]` attribute of each handler (the router is built
//! from the same handlers by `utoipa-axum`, so a route cannot exist without its entry), the
//! schemas from the types the handlers read and answer (`ToSchema`). What the attributes
//! would repeat on every operation is added here, once ([`document`]):
//!
//! - the errors every route can answer: `400 invalid-path`, `405 method-not-allowed` and
//!   `500 internal`, and the accept loop's (`400 bad-request`, `408`, `411`, `413`, `414`,
//!   `431`, `429`/`503 too-many-connections`); with a JSON body also
//!   `400 malformed-json` and `415 unsupported-media-type`; where a rate limit applies ([`Kind::of`]) `429
//!   rate-limited` with `Retry-After`;
//! - each error response's `error` names as an `enum` (read from the backquoted names of
//!   its description, where the attribute lists them next to the handler);
//! - every property of an answer `required` (the server always sends every key, `null`
//!   included);
//! - the links from a created or joined game to the operations its `id` and `token` drive.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use axum::http::{header, Method};
use axum::response::IntoResponse;
use serde_json::{json, Map, Value};
use utoipa::OpenApi;

use crate::limits::{self, Kind};

// The names the handlers' schemas use, here too under their old paths.
pub use super::names::{AnswerName, GameId, LevelName, OpponentName, SideChoice, SideName};

/// The document's frame: its title, description and tags; the paths come from the router.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "agon-web",
        description = "Play Agon against the computer or a friend: the JSON API of agon-web \
            (see agon-web/README.md). Every error is `{\"error\": NAME, \"message\": TEXT}` \
            with a stable NAME; each response lists the names it can carry.",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0"),
    ),
    components(schemas(crate::error::ErrorBody, SideName, SideChoice, LevelName, OpponentName, AnswerName, super::state::GameChange, super::players::SpeedName)),
    tags(
        (name = "games", description = "Creating games and playing them"),
        (name = "friends", description = "Games between two people: joining, offers"),
        (name = "analysis", description = "The engine's analysis of any position"),
        (name = "accounts", description = "Optional accounts: passkeys, recovery codes, the session"),
        (name = "lobby", description = "Meeting other players: seeks, challenges, quick pairing, the games being played now"),
        (name = "bots", description = "Bot accounts, their API tokens, and the Bot API a bot's program plays through (its token in `Authorization: Bearer` only)"),
        (name = "players", description = "Players' ratings, games and rating history; the leaderboards"),
        (name = "server", description = "The server itself: health, this document"),
    )
)]
pub struct ApiDoc;

/// The served document, built once.
static DOCUMENT: LazyLock<String> = LazyLock::new(|| document().to_string());

/// The API document, finished: the router's paths with the common errors, the error
/// names, the required keys and the links.
///
/// ```
/// let doc = agon_web::openapi::document();
/// assert_eq!(doc["openapi"], "3.1.0");
/// assert!(doc["paths"]["/api/games"]["post"]["responses"]["201"].is_object());
/// assert!(doc["paths"]["/api/games/{id}/moves"]["post"]["responses"]["429"].is_object());
/// ```
pub fn document() -> Value {
    let (_, api) = super::api_routes().split_for_parts();
    let mut doc = serde_json::to_value(api).unwrap_or_default();
    inline_game_now(&mut doc);
    let requests = request_schemas(&doc);
    if let Some(paths) = doc["paths"].as_object_mut() {
        for (path, item) in paths.iter_mut() {
            for (method, operation) in item.as_object_mut().into_iter().flatten() {
                add_common_errors(path, method, operation);
                name_errors(operation);
                link(path, method, operation);
            }
        }
    }
    if let Some(schemas) = doc["components"]["schemas"].as_object_mut() {
        for (name, schema) in schemas.iter_mut() {
            if !requests.contains(name) {
                require_every_key(schema);
            }
        }
    }
    describe_texts(&mut doc);
    describe_events(&mut doc);
    doc
}

/// The state and the change as the plain objects they are on the wire: utoipa writes the
/// `GameNow` they flatten as `allOf` a reference and their own fields; its fields go into
/// each (one object, every key listed), and the `GameNow` schema, referenced by nothing
/// else, goes.
fn inline_game_now(doc: &mut Value) {
    let schemas = &mut doc["components"]["schemas"];
    let shared = schemas
        .as_object_mut()
        .and_then(|s| s.remove("GameNow"))
        .unwrap_or_default();
    for name in ["GameState", "GameChange"] {
        let schema = &mut schemas[name];
        let Some(parts) = schema.as_object_mut().and_then(|s| s.remove("allOf")) else {
            continue;
        };
        let mut properties = serde_json::Map::new();
        for part in parts.as_array().into_iter().flatten() {
            let part = if part.get("$ref").is_some() {
                &shared
            } else {
                part
            };
            if let Some(fields) = part["properties"].as_object() {
                properties.extend(fields.clone());
            }
        }
        schema["type"] = json!("object");
        schema["properties"] = Value::Object(properties);
    }
}

/// A cell's name, any of the board's 91 (agon-core's names: files a to l without j).
///
/// ```
/// let cell = regex::Regex::new(&format!("^{}$", agon_web::openapi::cell_pattern())).unwrap();
/// assert!(cell.is_match("f11") && cell.is_match("l6"));
/// assert!(!cell.is_match("j1") && !cell.is_match("a11") && !cell.is_match("f01"));
/// ```
pub fn cell_pattern() -> String {
    let mut names: Vec<String> = agon_core::Cell::all().map(|c| c.to_string()).collect();
    // The longer names first, so that an unanchored match never stops at a prefix.
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    format!("(?:{})", names.join("|"))
}

/// A move in the notation: a step `f1-e1`, a return `f4>l1`, a pair `f1e1` or `pass`.
pub fn move_pattern() -> String {
    let cell = cell_pattern();
    format!("(?:{cell}[->]?{cell}|pass)")
}

/// A move as a record writes it and `agon_core::Move`'s `FromStr` reads it: a step or a
/// return with its sign, or `pass` (a pair `f1e1` is read only against a position).
///
/// ```
/// let step = regex::Regex::new(&format!("^{}$", agon_web::openapi::written_move_pattern())).unwrap();
/// assert!(step.is_match("f1-e1") && step.is_match("f4>l1") && step.is_match("pass"));
/// assert!(!step.is_match("f1e1"));
/// ```
pub fn written_move_pattern() -> String {
    let cell = cell_pattern();
    format!("(?:{cell}[->]{cell}|pass)")
}

/// A position's text as [`agon_core::Position::to_text`] writes it: each side's queen,
/// then its six guards (none on the throne), `/` between White's and Black's, a space and
/// the side to move; captured pieces (`*`) on one side only, and no cell twice (the two
/// lookaheads). The server also reads the pieces in any order, and both sides' captured
/// pieces under `between=trapped`.
pub fn position_pattern() -> String {
    let cell = cell_pattern();
    let throne = agon_core::Cell::THRONE.to_string();
    let guard_cell = format!("(?!{throne}\\b){cell}");
    let side =
        |queen: char, guard: char| format!("{queen}{cell}\\*?(?:,{guard}{guard_cell}\\*?){{6}}");
    let no_cell_twice = "(?!.*[QGqg]([a-l][0-9]+)\\b.*[QGqg]\\1\\b)";
    let one_side_captured = "(?!.*\\*.*/.*\\*)";
    format!(
        "{no_cell_twice}{one_side_captured}{}/{} [wb]",
        side('Q', 'G'),
        side('q', 'g')
    )
}

/// A rule set's text: a preset, then options and values of agon-core's, in the order of
/// `Rules::OPTIONS` (the server reads them in any order, each once), the limit from 1 to
/// `Rules::MAX_LIMIT` or `none`.
pub fn rules_pattern() -> String {
    let presets: Vec<&str> = agon_core::Rules::PRESETS.iter().map(|(n, _)| *n).collect();
    let mut pattern = format!("(?:{})", presets.join("|"));
    for (option, values) in super::state::rule_option_values() {
        let values = match option {
            "limit" => format!("none|[1-9][0-9]{{0,4}}|{}", agon_core::Rules::MAX_LIMIT),
            _ => values.join("|"),
        };
        pattern.push_str(&format!("(?:\\+{option}=(?:{values}))?"));
    }
    pattern
}

/// Minutes 1 to 180 `+` increment seconds 0 to 60: a game's clock, a seek's control.
const MINUTES_PLUS_SECONDS: &str = "(?:[1-9]|[1-9][0-9]|1[0-7][0-9]|180)\\+(?:[0-9]|[1-5][0-9]|60)";

/// A player's display name (`request::parse_name`): 1 to 24 characters once its white
/// space is trimmed, none a control character.
const NAME_PATTERN: &str = r"[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u0000-\u001f\u007f-\u009f]([^\u0000-\u001f\u007f-\u009f]{0,22}[^\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\u0000-\u001f\u007f-\u009f])?[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*";

/// Each text the API reads or answers gets the pattern of its notation; the new game's
/// `level` is required unless the opponent is a friend.
fn describe_texts(doc: &mut Value) {
    let anchored = |p: String| json!({"type": "string", "pattern": format!("^(?:{p})$")});
    let (cell, step, position, rules) = (
        anchored(cell_pattern()),
        anchored(move_pattern()),
        anchored(position_pattern()),
        anchored(rules_pattern()),
    );
    let written = anchored(written_move_pattern());
    let nullable = |s: &Value| json!({"oneOf": [s, {"type": "null"}]});
    let cells = json!({"type": "array", "items": cell});
    let moves = json!({"type": "array", "items": step});
    let clock = anchored(format!("none|{MINUTES_PLUS_SECONDS}"));
    let control = anchored(format!("correspondence|{MINUTES_PLUS_SECONDS}"));
    let quick: Vec<String> = crate::game::lobby::QUICK
        .iter()
        .map(|c| c.to_string())
        .collect();
    let name = anchored(NAME_PATTERN.into());
    let schemas = &mut doc["components"]["schemas"];
    // The sign-up's username, as its derive writes it: a challenge names an account.
    let username = schemas["SignupOptionsRequest"]["properties"]["username"].clone();
    let fields: Vec<(&str, &str, Value)> = vec![
        ("NewGameRequest", "position", nullable(&position)),
        ("NewGameRequest", "rules", nullable(&rules)),
        ("NewGameRequest", "clock", nullable(&clock)),
        ("NewGameRequest", "name", nullable(&name)),
        ("JoinRequest", "name", nullable(&name)),
        ("SeekRequest", "control", control.clone()),
        ("SeekRequest", "rules", nullable(&rules)),
        ("SeekRequest", "name", nullable(&name)),
        ("ChallengeRequest", "control", control.clone()),
        ("ChallengeRequest", "rules", nullable(&rules)),
        ("ChallengeRequest", "username", username),
        (
            "QuickRequest",
            "control",
            json!({"type": "string", "enum": &quick}),
        ),
        ("QuickRequest", "name", nullable(&name)),
        ("AcceptRequest", "name", nullable(&name)),
        ("MoveRequest", "move", step.clone()),
        ("GameState", "position", position.clone()),
        ("GameState", "rules", rules.clone()),
        ("GameState", "legal_moves", moves.clone()),
        ("GameState", "moves", moves.clone()),
        ("GameState", "last_move", nullable(&step)),
        ("GameState", "last_captures", cells.clone()),
        ("GameState", "captured", cells.clone()),
        ("LegalMove", "move", step.clone()),
        ("LegalMove", "from", nullable(&cell)),
        ("LegalMove", "to", nullable(&cell)),
        ("PieceState", "cell", cell.clone()),
        ("Hint", "move", step.clone()),
        ("Hint", "from", nullable(&cell)),
        ("Hint", "to", nullable(&cell)),
        ("Hint", "pv", moves.clone()),
        ("WriteRequest", "position", nullable(&position)),
        ("WriteRequest", "rules", nullable(&rules)),
        ("TreeNode", "move", written),
        ("BoardRequest", "position", nullable(&position)),
        ("BoardRequest", "rules", nullable(&rules)),
        ("BoardRequest", "moves", moves.clone()),
        ("RecordTree", "position", position.clone()),
        ("RecordTree", "rules", rules.clone()),
        ("BoardResponse", "position", position.clone()),
        ("AnalysisRequest", "position", nullable(&position)),
        ("AnalysisRequest", "rules", nullable(&rules)),
        ("AnalysisRequest", "moves", nullable(&moves)),
        ("AnalysisResponse", "position", position.clone()),
        ("AnalysisResponse", "rules", rules.clone()),
        ("AnalysisLine", "pv", moves.clone()),
        (
            "RulesParts",
            "preset",
            json!({"enum": agon_core::Rules::PRESETS.iter().map(|(n, _)| *n).collect::<Vec<_>>()}),
        ),
        (
            "RuleOption",
            "option",
            json!({"enum": agon_core::Rules::OPTIONS}),
        ),
    ];
    for (schema, field, value) in fields {
        let property = &mut schemas[schema]["properties"][field];
        let description = property.get("description").cloned();
        *property = value;
        if let Some(description) = description {
            property["description"] = description;
        }
    }
    // `level` is required against the computer, the default opponent.
    schemas["NewGameRequest"]["if"] =
        json!({"properties": {"opponent": {"const": "friend"}}, "required": ["opponent"]});
    schemas["NewGameRequest"]["else"] = json!({
        "required": ["level"],
        "properties": {"level": {"$ref": "#/components/schemas/LevelName"}},
    });
    // A rated game is one of the standard rules with a clock (`400 not-ratable` else).
    let timed = anchored(MINUTES_PLUS_SECONDS.into());
    let quick_timed: Vec<&String> = quick.iter().filter(|c| c.contains('+')).collect();
    for offer in ["SeekRequest", "ChallengeRequest", "QuickRequest"] {
        schemas[offer]["if"] =
            json!({"properties": {"rated": {"const": true}}, "required": ["rated"]});
        schemas[offer]["then"] = match offer {
            "QuickRequest" => json!({"properties": {"control": {"enum": quick_timed}}}),
            _ => json!({"properties": {
                "rules": {"oneOf": [{"type": "null"}, {"const": "standard"}]},
                "control": timed,
            }}),
        };
    }
    // A bot's seek is a seek without a guest's name (its username is shown).
    let mut bot_seek = schemas["SeekRequest"].clone();
    if let Some(properties) = bot_seek["properties"].as_object_mut() {
        properties.remove("name");
    }
    bot_seek["description"] =
        json!("`POST /api/bot/seek`: a seek as `POST /api/lobby/seeks` takes it, without `name`.");
    schemas["BotSeekRequest"] = bot_seek;
    doc["paths"]["/api/bot/seek"]["post"]["requestBody"]["content"]["application/json"]["schema"] =
        json!({"$ref": "#/components/schemas/BotSeekRequest"});
    // A bot's move in its path is a move's text.
    let bot_move = &mut doc["paths"]["/api/bot/game/{id}/move/{move}"]["post"]["parameters"];
    for parameter in bot_move.as_array_mut().into_iter().flatten() {
        if parameter["name"] == "move" {
            parameter["schema"] = step.clone();
        }
    }
    let schemas = &mut doc["components"]["schemas"];
    // An analysis reads a position or a record, not both; a record carries its rules.
    let both = |a: &str, b: &str| json!({"properties": {a: {"type": "string"}, b: {"type": "string"}}, "required": [a, b]});
    schemas["AnalysisRequest"]["not"] =
        json!({"anyOf": [both("position", "record"), both("record", "rules")]});
    // The board's query reads the same texts.
    let board = &mut doc["paths"]["/api/board.svg"]["get"]["parameters"];
    for parameter in board.as_array_mut().into_iter().flatten() {
        let flipped = json!({"type": "string", "enum": ["0", "1", "true", "false"]});
        let schema = match parameter["name"].as_str() {
            Some("position") => &position,
            Some("rules") => &rules,
            Some("last") => &step,
            Some("flipped") => &flipped,
            _ => continue,
        };
        parameter["schema"] = schema.clone();
    }
}

/// The event stream's answer: a sequence of Server-Sent Events, each of its own kind
/// (`LiveEvent`): `state` (its `id` the version, its `data` the state as JSON), `change`
/// (its `id` the version, its `data` what changed from the version before) and
/// `presence` (its `data` which seats have a page open).
fn describe_events(doc: &mut Value) {
    let schemas = &mut doc["components"]["schemas"];
    schemas["Presence"] = json!({
        "type": "object",
        "description": "Which seats have a page open (an event stream with their seat's cookie, see `POST /api/games/{id}/seat`).",
        "properties": {"white": {"type": "boolean"}, "black": {"type": "boolean"}},
        "required": ["white", "black"],
    });
    schemas["StateEvent"] = event_schema(
        "state",
        "`event: state`: the game's state at a new version, as `GET /api/games/{id}` answers it (its `data` is that JSON).",
        Some("The state's version."),
        "GameState",
    );
    schemas["ChangeEvent"] = event_schema(
        "change",
        "`event: change`: the game at a new version, as what changed from the version before (`base`), sent to a stream whose page has that version (its `data` is that JSON; the page's state with it applied is the state `GET /api/games/{id}` answers).",
        Some("The new version."),
        "GameChange",
    );
    schemas["PresenceEvent"] = event_schema(
        "presence",
        "`event: presence`: which seats have a page open, when that changes (its `data` is that JSON).",
        None,
        "Presence",
    );
    schemas["LiveEvent"] = json!({
        "description": "One Server-Sent Event of a game's stream.",
        "oneOf": [
            {"$ref": "#/components/schemas/StateEvent"},
            {"$ref": "#/components/schemas/ChangeEvent"},
            {"$ref": "#/components/schemas/PresenceEvent"},
        ],
    });
    let stream = &mut doc["paths"]["/api/games/{id}/events"]["get"]["responses"]["200"]["content"]
        ["text/event-stream"];
    stream["schema"] = json!({
        "type": "array",
        "description": "The stream, as the sequence of its events (each `event:`, `id:` and `data:` lines, `data` JSON), with a keep-alive comment every 15 s.",
        "items": {"$ref": "#/components/schemas/LiveEvent"},
    });
}

/// The schema of one kind of event of the stream: its `event` name, its `id` (the version,
/// described by `id`) if it has one, and its `data` of schema `data`.
fn event_schema(event: &str, description: &str, id: Option<&str>, data: &str) -> Value {
    let mut schema = json!({
        "type": "object",
        "description": description,
        "properties": {
            "event": {"const": event},
            "data": {"$ref": format!("#/components/schemas/{data}")},
        },
        "required": ["event", "data"],
    });
    if let Some(id) = id {
        schema["properties"]["id"] =
            json!({"type": "string", "pattern": "^[0-9]+$", "description": id});
        schema["required"] = json!(["event", "id", "data"]);
    }
    schema
}

/// `GET /api/openapi.json`: this API's OpenAPI 3.1 document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "server",
    responses((status = 200, description = "The OpenAPI 3.1 document of this API", body = Object))
)]
pub async fn openapi_json() -> axum::response::Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        DOCUMENT.as_str(),
    )
        .into_response()
}

/// The component schemas request bodies refer to, directly or through other schemas, and
/// no answer does (their `required` is the derive's: a request may leave out an optional
/// key, where the server's answers send every key).
fn request_schemas(doc: &Value) -> Vec<String> {
    let operations = || {
        doc["paths"]
            .as_object()
            .into_iter()
            .flat_map(|p| p.values())
            .flat_map(|item| item.as_object().into_iter().flat_map(|o| o.values()))
    };
    let requests = referred(doc, operations().map(|o| &o["requestBody"]));
    let answers = referred(doc, operations().map(|o| &o["responses"]));
    requests.difference(&answers).cloned().collect()
}

/// The names of the component schemas `roots` refer to, and those refer to, and so on.
fn referred<'a>(doc: &'a Value, roots: impl Iterator<Item = &'a Value>) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut todo: Vec<&Value> = roots.collect();
    while let Some(value) = todo.pop() {
        match value {
            Value::Object(map) => {
                if let Some(name) = map
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("#/components/schemas/"))
                {
                    if names.insert(name.to_string()) {
                        todo.push(&doc["components"]["schemas"][name]);
                    }
                }
                todo.extend(map.values());
            }
            Value::Array(items) => todo.extend(items),
            _ => {}
        }
    }
    names
}

/// Every property of an object schema required: the server sends every key.
fn require_every_key(schema: &mut Value) {
    let Some(properties) = schema["properties"].as_object() else {
        return;
    };
    let keys: Vec<Value> = properties.keys().map(|k| json!(k)).collect();
    schema["required"] = Value::Array(keys);
}

fn error_response(description: &str) -> Value {
    json!({
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    })
}

/// Adds `description`'s names to the error response `status` of `operation` (made if
/// missing).
fn add_error(operation: &mut Value, status: &str, description: &str) {
    let responses = &mut operation["responses"];
    match responses.get_mut(status) {
        Some(response) => {
            let text = response["description"].as_str().unwrap_or_default();
            response["description"] = json!(format!("{text}; {description}"));
        }
        None => responses[status] = error_response(description),
    }
}

/// The errors every route, every JSON body and every limited request can answer.
fn add_common_errors(path: &str, method: &str, operation: &mut Value) {
    add_error(
        operation,
        "400",
        "the path holds a byte other than visible ASCII, or is not UTF-8 once \
         percent-decoded: `invalid-path`; the request head is not HTTP/1.x: `bad-request`",
    );
    add_error(
        operation,
        "405",
        "the path does not take this method: `method-not-allowed`",
    );
    add_error(
        operation,
        "500",
        "a fault of the server (its database): `internal`",
    );
    // What the accept loop answers before any route (`net`), the connection then closed.
    let connection = [
        (
            "408",
            "the request's head or body did not arrive in time: `request-timeout`",
        ),
        ("411", "a body without Content-Length: `length-required`"),
        ("414", "the path and query are over 8 KiB: `uri-too-long`"),
        (
            "431",
            "the head is over 16 KiB or has over 64 fields: `headers-too-large`",
        ),
        (
            "429",
            "too many connections open from this address: `too-many-connections`",
        ),
        (
            "503",
            "too many connections open on the server: `too-many-connections`",
        ),
    ];
    for (status, description) in connection {
        add_error(operation, status, description);
    }
    let max_body = super::request::max_body_for(path) / 1024;
    add_error(
        operation,
        "413",
        &format!("the body is over {max_body} KiB: `body-too-large`"),
    );
    for status in ["429", "503"] {
        operation["responses"][status]["headers"] = json!({"Retry-After": {
            "description": "Seconds to wait before retrying",
            "schema": {"type": "integer", "minimum": 1}
        }});
    }
    if operation.get("requestBody").is_some() {
        add_error(
            operation,
            "400",
            "the body is not a JSON object of this shape: `malformed-json`",
        );
        add_error(
            operation,
            "415",
            "the body is not `application/json`: `unsupported-media-type`",
        );
    }
    if method != "get" {
        add_error(
            operation,
            "403",
            "a request that changes something, with the session's cookie or to \
             `/api/account`, from another site (its `Origin`, or without one its \
             `Sec-Fetch-Site`, is not this site's): `cross-site`",
        );
    }
    if ["/api/games", "/api/account", "/api/me"]
        .iter()
        .any(|p| path.starts_with(p))
    {
        // Every game's endpoint reads the database.
        add_error(
            operation,
            "503",
            "the database is busy (no free connection in time, or locked) or out of reach \
             (restarting, cut off, silent): `server-busy`",
        );
    }
    let method = Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap_or_default();
    let concrete = path.replace("{id}", "0011223344556677");
    if Kind::of(&method, &concrete).is_some() {
        let weighted = match limits::charged_by_handler(&concrete) {
            true => format!(
                " (actions are weighted by cost: a hint takes {} tokens of the budget, a move \
                 with the computer's reply or the computer's move at the hard level {}, any \
                 other action 1)",
                limits::cost(super::api::HINT_COST_MS),
                limits::cost(crate::Level::Hard.expected_ms())
            ),
            false => String::new(),
        };
        add_error(
            operation,
            "429",
            &format!(
                "over a rate limit{weighted}: `rate-limited` (`Retry-After` says when to retry)"
            ),
        );
        operation["responses"]["429"]["headers"] = json!({"Retry-After": {
            "description": "Whole seconds until the bucket that refused holds the request's tokens again",
            "schema": {"type": "integer", "minimum": 1}
        }});
    }
}

/// The error names of a description: its backquoted words of lowercase letters, digits and
/// dashes (`application/json` and other backquoted text are not names).
///
/// ```
/// let names = agon_web::openapi::error_names("a race: `conflict`; `game-over`, not `a b`");
/// assert_eq!(names, ["conflict", "game-over"]);
/// ```
pub fn error_names(description: &str) -> Vec<&str> {
    description
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
                && !w.starts_with('-')
        })
        .collect()
}

/// Each error response's names as the `enum` of its `error`, the first as its example. A
/// response that says it answers an illegal move also names agon-core's reasons
/// (`IllegalMove::ALL`).
fn name_errors(operation: &mut Value) {
    let Some(responses) = operation["responses"].as_object_mut() else {
        return;
    };
    for response in responses.values_mut() {
        // Read without indexing mutably: that would insert what is missing.
        let reference = response.pointer("/content/application~1json/schema/$ref");
        if reference != Some(&json!("#/components/schemas/ErrorBody")) {
            continue;
        }
        let description = response["description"].as_str().unwrap_or_default();
        let mut unique = Vec::new();
        for name in error_names(description) {
            if !unique.contains(&name) {
                unique.push(name);
            }
        }
        if description.contains("IllegalMove") {
            for name in agon_core::IllegalMove::ALL.map(|r| r.name()) {
                if !unique.contains(&name) {
                    unique.push(name);
                }
            }
        }
        if unique.is_empty() {
            continue;
        }
        let schema = json!({"allOf": [
            {"$ref": "#/components/schemas/ErrorBody"},
            {"type": "object", "properties": {"error": {"enum": unique}}}
        ]});
        let example = json!({"error": unique[0], "message": "..."});
        let content = &mut response["content"]["application/json"];
        content["schema"] = schema;
        content["example"] = example;
    }
}

/// The operations a new game's (or a joined seat's) `id` and `token` drive, each with its
/// body's token: followed by clients and by Schemathesis' stateful tests.
fn link(path: &str, method: &str, operation: &mut Value) {
    let (status, id) = match (method, path) {
        ("post", "/api/games") => ("201", "$response.body#/id"),
        ("post", "/api/games/{id}/join") => ("200", "$request.path.id"),
        _ => return,
    };
    let token = "$response.body#/token";
    let mut links = Map::new();
    links.insert(
        "show".into(),
        json!({"operationId": "show", "parameters": {"id": id}}),
    );
    links.insert(
        "record".into(),
        json!({"operationId": "record", "parameters": {"id": id}}),
    );
    for action in ["computer", "hint", "undo", "resign", "abort"] {
        links.insert(
            action.into(),
            json!({"operationId": action, "parameters": {"id": id},
                   "requestBody": {"token": token}}),
        );
    }
    links.insert(
        "play".into(),
        json!({"operationId": "play", "parameters": {"id": id},
               "requestBody": {"token": token, "move": "$response.body#/state/legal_moves/0"}}),
    );
    for offer in ["draw", "takeback", "rematch"] {
        links.insert(
            offer.into(),
            json!({"operationId": offer, "parameters": {"id": id},
                   "requestBody": {"token": token, "answer": "offer"}}),
        );
    }
    if path == "/api/games" {
        links.insert(
            "join".into(),
            json!({"operationId": "join", "parameters": {"id": id}}),
        );
    }
    operation["responses"][status]["links"] = Value::Object(links);
}
