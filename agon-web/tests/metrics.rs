//! `GET /metrics`: the Prometheus text format, and what it counts.

mod common;
use common::{get_uri, post};

use std::collections::HashMap;

use agon_web::limits::LimitConfig;
use agon_web::{app, AppState, Config};
use axum::http::{header, StatusCode};
use axum::Router;
use serde_json::json;

fn server_with(metrics: bool) -> (Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: dir.path().join("games.sqlite3").into(),
        workers: 2,
        limits: LimitConfig::off(),
        metrics,
        ..Config::default()
    };
    (app(AppState::open(&config).unwrap()), dir)
}

fn server() -> (Router, tempfile::TempDir) {
    server_with(true)
}

/// The samples of a Prometheus text exposition: `name{labels}` to value. Every line is a
/// comment (`# HELP`, `# TYPE`) or a sample whose value is a number.
fn samples(text: &str) -> HashMap<String, f64> {
    let mut samples = HashMap::new();
    for line in text.lines().filter(|l| !l.is_empty()) {
        if let Some(comment) = line.strip_prefix("# ") {
            assert!(
                comment.starts_with("HELP ") || comment.starts_with("TYPE "),
                "{line}"
            );
            continue;
        }
        let (series, value) = line.rsplit_once(' ').unwrap();
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("{line}"));
        let name = series.split('{').next().unwrap();
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{line}"
        );
        samples.insert(series.to_string(), value);
    }
    samples
}

#[tokio::test]
async fn metrics_count_games_moves_searches_and_rejections() {
    let (app, _dir) = server();
    let body = json!({"side": "white", "level": "easy"}).to_string();
    let created = post(&app, "/api/games", "application/json", &body).await;
    assert_eq!(created.status, StatusCode::CREATED);
    let (id, token) = (
        created.json()["id"].clone(),
        created.json()["token"].clone(),
    );
    let id = id.as_str().unwrap();
    let play = json!({"token": token, "move": "f1-e1"}).to_string();
    let moved = post(
        &app,
        &format!("/api/games/{id}/moves"),
        "application/json",
        &play,
    )
    .await;
    assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    get_uri(&app, "/api/games/ffffffffffffffff")
        .await
        .error(404, "unknown-game");
    get_uri(&app, "/api/games/%FF")
        .await
        .error(400, "invalid-path");

    let answer = get_uri(&app, "/metrics").await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(
        answer.headers[header::CONTENT_TYPE],
        "text/plain; version=0.0.4; charset=utf-8"
    );
    let samples = samples(&answer.text);
    let value = |series: &str| {
        *samples
            .get(series)
            .unwrap_or_else(|| panic!("no {series} in\n{}", answer.text))
    };
    assert_eq!(
        value("agon_games_created_total{opponent=\"computer\",level=\"easy\"}"),
        1.0
    );
    assert_eq!(value("agon_moves_total{by=\"person\"}"), 1.0);
    assert_eq!(value("agon_moves_total{by=\"computer\"}"), 1.0);
    assert_eq!(value("agon_search_seconds_count{kind=\"easy\"}"), 1.0);
    assert_eq!(value("agon_event_streams_open"), 0.0);
    assert_eq!(
        value("agon_rejections_total{status=\"404\",error=\"unknown-game\"}"),
        1.0
    );
    assert_eq!(
        value("agon_rejections_total{status=\"400\",error=\"invalid-path\"}"),
        1.0
    );
    assert_eq!(
        value("agon_http_requests_total{method=\"POST\",route=\"/api/games\",status=\"201\"}"),
        1.0
    );
    assert_eq!(
        value(
            "agon_http_requests_total{method=\"POST\",route=\"/api/games/{id}/moves\",status=\"200\"}"
        ),
        1.0
    );
}

#[tokio::test]
async fn rate_limited_requests_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: dir.path().join("games.sqlite3").into(),
        limits: LimitConfig {
            action: Some(agon_web::limits::Quota::per_minute(1, 1)),
            ..LimitConfig::off()
        },
        ..Config::default()
    };
    let app = app(AppState::open(&config).unwrap());
    let probe = "/api/games/0000000000000000/undo";
    let body = json!({"token": "x"}).to_string();
    post(&app, probe, "application/json", &body)
        .await
        .error(404, "unknown-game");
    post(&app, probe, "application/json", &body)
        .await
        .error(429, "rate-limited");
    let samples = samples(&get_uri(&app, "/metrics").await.text);
    assert_eq!(
        samples["agon_rejections_total{status=\"429\",error=\"rate-limited\"}"],
        1.0
    );
}

#[tokio::test]
async fn metrics_can_be_turned_off() {
    let (app, _dir) = server_with(false);
    get_uri(&app, "/metrics").await.error(404, "not-found");
}
