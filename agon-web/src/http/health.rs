//! `GET /api/health` (and its older name `/healthz`): whether the server can serve.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::service::AppState;
use crate::store::Store;

/// How long the database may take to answer the health check before the server is
/// reported unavailable (a transaction holding it that long means requests are stuck too).
pub const TIMEOUT: Duration = Duration::from_secs(2);

/// The answer of a healthy server.
#[derive(Serialize, Debug, PartialEq, Eq, ToSchema)]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// The server's version (the crate's).
    pub version: &'static str,
    /// `ok`: the database answered `SELECT 1`.
    pub database: &'static str,
}

/// `GET /api/health`: `200` with [`Health`] once the database answers a `SELECT 1`
/// within [`TIMEOUT`], else `503 database-unavailable`.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::Arc;
/// let dir = tempfile::tempdir().unwrap();
/// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
/// let state = Arc::new(agon_web::AppState::open(&config).unwrap());
/// let health = agon_web::health::health(axum::extract::State(state)).await.unwrap();
/// assert_eq!((health.status, health.database), ("ok", "ok"));
/// # });
/// ```
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "server",
    responses(
        (status = 200, description = "The server and its database answer", body = Health),
        (status = 503, description = "the database fails or does not answer within 2 s: `database-unavailable`", body = ErrorBody),
    )
)]
pub async fn health(State(app): State<Arc<AppState>>) -> Result<Json<Health>, ApiError> {
    check_database(app.store.clone(), TIMEOUT).await?;
    Ok(Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        database: "ok",
    }))
}

/// Runs `SELECT 1` through the store (SQLite: its lock and its connection; PostgreSQL: a
/// connection of its pool); `503 database-unavailable` when it fails or takes over
/// `timeout`.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::{sync::Arc, time::Duration};
/// let dir = tempfile::tempdir().unwrap();
/// let store = Arc::new(agon_web::Store::open(&dir.path().join("g.sqlite3")).unwrap());
/// assert!(agon_web::health::check_database(store, Duration::from_secs(2)).await.is_ok());
/// # });
/// ```
pub async fn check_database(store: Arc<Store>, timeout: Duration) -> Result<(), ApiError> {
    match tokio::time::timeout(timeout, store.ping()).await {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(unavailable(e.to_string())),
        Err(_) => Err(unavailable(format!(
            "no answer within {} ms",
            timeout.as_millis()
        ))),
    }
}

fn unavailable(why: String) -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "database-unavailable",
        format!("the database does not answer: {why}"),
    )
}
