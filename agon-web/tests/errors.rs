//! Every error is the documented JSON body, axum's own rejections included; and
//! `GET /api/health`.

mod common;
use common::{get_uri, post, send};

use agon_web::{app, AppState, Config};
use axum::body::Body;
use axum::extract::Path;
use axum::http::{header, Request, StatusCode};
use axum::routing::get;
use axum::Router;
use serde_json::json;

fn server() -> (Router, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: dir.path().join("games.sqlite3").into(),
        workers: 2,
        ..Config::default()
    };
    (app(AppState::open(&config).unwrap()), dir)
}

#[tokio::test]
async fn a_path_that_is_not_utf8_is_a_json_400() {
    let (app, _dir) = server();
    for uri in [
        "/api/games/%FF",
        "/api/games/%C3%28/record",
        "/g/%FF",
        "/assets/%FF.css",
        "/nowhere/%FE",
    ] {
        get_uri(&app, uri).await.error(400, "invalid-path");
    }
    post(&app, "/api/games/%FF/moves", "application/json", "{}")
        .await
        .error(400, "invalid-path");
    // Percent-encoded UTF-8 is a path like any other.
    get_uri(&app, "/api/games/%C3%A9t%C3%A9")
        .await
        .error(404, "unknown-game");
}

#[tokio::test]
async fn body_and_query_rejections_are_json() {
    let (app, _dir) = server();
    post(&app, "/api/games", "application/json", "{\"side\":")
        .await
        .error(400, "malformed-json");
    post(&app, "/api/games", "text/plain", "{}")
        .await
        .error(415, "unsupported-media-type");
    let big = format!("{{\"side\": \"{}\"}}", "w".repeat(5000));
    post(&app, "/api/games", "application/json", &big)
        .await
        .error(413, "body-too-large");
    get_uri(&app, "/api/board.svg?flipped=maybe")
        .await
        .error(400, "invalid-field");
    get_uri(&app, "/api/board.svg?position=%FF")
        .await
        .error(400, "invalid-field");
    get_uri(&app, "/api/board.svg?colour=red")
        .await
        .error(400, "invalid-field");
    get_uri(&app, "/no/such/page").await.error(404, "not-found");
    send(
        &app,
        Request::delete("/api/games").body(Body::empty()).unwrap(),
    )
    .await
    .error(405, "method-not-allowed");
}

/// Any plain-text error axum answers by itself becomes the JSON body, headers kept.
#[tokio::test]
async fn axums_own_rejections_become_json() {
    async fn number(Path(n): Path<u32>) -> String {
        n.to_string()
    }
    let app = Router::new()
        .route("/n/{n}", get(number))
        .route(
            "/teapot",
            get(|| async {
                (
                    StatusCode::IM_A_TEAPOT,
                    [(header::ALLOW, "GET")],
                    "short and stout",
                )
            }),
        )
        .layer(axum::middleware::from_fn(agon_web::rejections::json_errors));
    assert_eq!(get_uri(&app, "/n/7").await.text, "7");
    get_uri(&app, "/n/seven").await.error(400, "invalid-path");
    let teapot = get_uri(&app, "/teapot").await;
    teapot.error(418, "client-error");
    assert_eq!(teapot.json()["message"], "short and stout");
    assert_eq!(teapot.headers[header::ALLOW], "GET");
}

#[tokio::test]
async fn health_answers_the_version_and_the_database() {
    let (app, _dir) = server();
    for uri in ["/api/health", "/healthz"] {
        let answer = get_uri(&app, uri).await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}");
        assert_eq!(
            answer.json(),
            json!({"status": "ok", "version": env!("CARGO_PKG_VERSION"), "database": "ok"})
        );
    }
}

#[tokio::test]
async fn health_is_503_when_the_database_does_not_answer() {
    let dir = tempfile::tempdir().unwrap();
    let store = std::sync::Arc::new(agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap());
    // Another request holds the database.
    let (release, held) = std::sync::mpsc::channel::<()>();
    let (taken, is_taken) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn({
        let store = store.clone();
        move || {
            let agon_web::Store::Sqlite(sqlite) = &*store else {
                unreachable!("a SQLite file")
            };
            sqlite
                .transaction(|_| {
                    taken.send(()).unwrap();
                    held.recv().unwrap();
                    Ok(())
                })
                .unwrap()
        }
    });
    is_taken.recv().unwrap();
    let timeout = std::time::Duration::from_millis(50);
    let e = agon_web::health::check_database(store.clone(), timeout)
        .await
        .unwrap_err();
    assert_eq!((e.status.as_u16(), e.name), (503, "database-unavailable"));
    release.send(()).unwrap();
    holder.join().unwrap();
    assert!(agon_web::health::check_database(store, timeout * 40)
        .await
        .is_ok());
}
