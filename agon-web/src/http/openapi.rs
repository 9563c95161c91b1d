//! The JSON API as an OpenAPI 3.1 document, generated from the code and served at
//! `GET /api/openapi.json`.
//!
//! The paths come from the `#[utoipa::path]` attribute of each handler (the router is built
//! from the same handlers by `utoipa-axum`, so a route cannot exist without its entry), the
//! schemas from the types the handlers read and answer (`ToSchema`). What the attributes
//! would repeat on every operation is added here, once ([`document`]):
//!
//! - the errors every route can answer: `400 invalid-path`, `405 method-not-allowed` and
//!   `500 internal`; with a JSON body also `400 malformed-json`, `413 body-too-large` and
//!   `415 unsupported-media-type`; where a rate limit applies ([`Kind::of`]) `429
//!   rate-limited` with `Retry-After`;
//! - each error response's `error` names as an `enum` (read from the backquoted names of
//!   its description, where the attribute lists them next to the handler);
//! - every property of an answer `required` (the server always sends every key, `null`
//!   included);
//! - the links from a created or joined game to the operations its `id` and `token` drive.

use std::sync::LazyLock;

use axum::http::{header, Method};
use axum::response::IntoResponse;
use serde_json::{json, Map, Value};
use utoipa::{OpenApi, ToSchema};

use crate::limits::Kind;

/// A side: `white` or `black`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum SideName {
    /// White.
    White,
    /// Black.
    Black,
}

/// The side a creator asks for: `white`, `black` or `random`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum SideChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Either, drawn by the server.
    Random,
}

/// The computer's level (its bot and budget: [`crate::Level::spec`], the one home of
/// those, named here only in words).
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum LevelName {
    /// One ply: the move whose result the evaluation likes best.
    Easy,
    /// An alpha-beta search of a few plies.
    Medium,
    /// The engine, searching to a deadline.
    Hard,
}

/// Who plays the other seat: `computer` or `friend`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum OpponentName {
    /// The server's bot.
    Computer,
    /// A second person, who joins with the game's link.
    Friend,
}

/// What a seat says about an offer: `offer`, `accept` or `decline`.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
pub enum AnswerName {
    /// Offers (or asks for) it.
    Offer,
    /// Accepts the other seat's offer.
    Accept,
    /// Declines the other seat's offer.
    Decline,
}

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
    components(schemas(crate::error::ErrorBody, SideName, SideChoice, LevelName, OpponentName, AnswerName)),
    tags(
        (name = "games", description = "Creating games and playing them"),
        (name = "friends", description = "Games between two people: joining, offers"),
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
    doc
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

/// The component schemas request bodies refer to (their `required` is the derive's).
fn request_schemas(doc: &Value) -> Vec<String> {
    let mut names = Vec::new();
    for item in doc["paths"]
        .as_object()
        .into_iter()
        .flat_map(|p| p.values())
    {
        for operation in item.as_object().into_iter().flat_map(|o| o.values()) {
            let reference =
                &operation["requestBody"]["content"]["application/json"]["schema"]["$ref"];
            if let Some(name) = reference.as_str().and_then(|r| r.rsplit('/').next()) {
                names.push(name.to_string());
            }
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
        "the path is not UTF-8 once percent-decoded: `invalid-path`",
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
    if operation.get("requestBody").is_some() {
        add_error(
            operation,
            "400",
            "the body is not a JSON object of this shape: `malformed-json`",
        );
        add_error(operation, "413", "the body is over 4 KiB: `body-too-large`");
        add_error(
            operation,
            "415",
            "the body is not `application/json`: `unsupported-media-type`",
        );
    }
    if path.starts_with("/api/games") {
        // Every game's endpoint reads the database.
        add_error(
            operation,
            "503",
            "the database is busy (no free connection in time, or locked): `server-busy`",
        );
        operation["responses"]["503"]["headers"] = json!({"Retry-After": {
            "description": "Seconds to wait before retrying",
            "schema": {"type": "integer", "minimum": 1}
        }});
    }
    let method = Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap_or_default();
    if Kind::of(&method, &path.replace("{id}", "0011223344556677")).is_some() {
        add_error(
            operation,
            "429",
            "over a rate limit: `rate-limited` (`Retry-After` says when to retry)",
        );
        operation["responses"]["429"]["headers"] = json!({"Retry-After": {
            "description": "Whole seconds until the bucket that refused holds a token again",
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

/// Each error response's names as the `enum` of its `error`, the first as its example. The
/// `422` of an illegal move names agon-core's reasons (`IllegalMove::ALL`).
fn name_errors(operation: &mut Value) {
    let Some(responses) = operation["responses"].as_object_mut() else {
        return;
    };
    for (status, response) in responses.iter_mut() {
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
        if unique.is_empty() && status == "422" {
            unique = agon_core::IllegalMove::ALL.map(|r| r.name()).to_vec();
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
    for action in ["computer", "hint", "undo", "resign"] {
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

/// The path parameter of every game's endpoint, `{id}`: one description for all of them.
///
/// ```
/// let doc = agon_web::openapi::document();
/// let id = &doc["paths"]["/api/games/{id}"]["get"]["parameters"][0];
/// assert_eq!((id["name"].as_str(), id["in"].as_str()), (Some("id"), Some("path")));
/// assert_eq!(id["required"], true);
/// ```
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
pub struct GameId {
    /// The game's id: 16 lowercase hex digits (any other names no game).
    pub id: String,
}
