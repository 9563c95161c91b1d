//! `GET /api/health` (and its older name `/healthz`): whether the server can serve.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;

use crate::{ApiError, AppState};

/// The answer of a healthy server.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// The server's version (the crate's).
    pub version: &'static str,
    /// `ok`: the database answered `SELECT 1`.
    pub database: &'static str,
}

/// `GET /api/health`: `200` with [`Health`] once the database answers a `SELECT 1`, else
/// `503 database-unavailable`.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::Arc;
/// let dir = tempfile::tempdir().unwrap();
/// let config = agon_web::Config { db: dir.path().join("g.sqlite3"), ..Default::default() };
/// let state = Arc::new(agon_web::AppState::open(&config).unwrap());
/// let health = agon_web::health::health(axum::extract::State(state)).await.unwrap();
/// assert_eq!((health.status, health.database), ("ok", "ok"));
/// # });
/// ```
pub async fn health(
    axum::extract::State(app): axum::extract::State<Arc<AppState>>,
) -> Result<Json<Health>, ApiError> {
    let store = app.store.clone();
    let checked = tokio::task::spawn_blocking(move || {
        store.transaction(|tx| Ok(tx.query_row("SELECT 1", [], |_| Ok(()))?))
    })
    .await;
    match checked {
        Ok(Ok(())) => Ok(Json(Health {
            status: "ok",
            version: env!("CARGO_PKG_VERSION"),
            database: "ok",
        })),
        Ok(Err(e)) => Err(unavailable(e.message)),
        Err(e) => Err(unavailable(e.to_string())),
    }
}

fn unavailable(why: String) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "database-unavailable",
        format!("the database does not answer: {why}"),
    )
}
