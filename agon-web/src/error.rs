//! [`ApiError`]: every failure the API reports, as a status and a stable reason name.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;

/// An error answered as `{"error": NAME, "message": TEXT}` with a 4xx (or 503) status.
///
/// `name` is stable (clients switch on it); `message` is for people and may change.
///
/// ```
/// use agon_web::ApiError;
/// use axum::http::StatusCode;
/// let e = ApiError::unknown_game();
/// assert_eq!(e.status, StatusCode::NOT_FOUND);
/// assert_eq!(e.name, "unknown-game");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The stable reason name, like `wrong-token` or the core's `between-enemies`.
    pub name: &'static str,
    /// A sentence for people.
    pub message: String,
    /// Seconds to wait before retrying (sent as `Retry-After`), for `server-busy`.
    pub retry_after: Option<u32>,
}

impl ApiError {
    /// An error with this status, name and message.
    ///
    /// ```
    /// use agon_web::ApiError;
    /// use axum::http::StatusCode;
    /// let e = ApiError::new(StatusCode::CONFLICT, "game-over", "the game has ended");
    /// assert_eq!(e.message, "the game has ended");
    /// ```
    pub fn new(status: StatusCode, name: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            name,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 404 `unknown-game`.
    ///
    /// ```
    /// assert_eq!(agon_web::ApiError::unknown_game().name, "unknown-game");
    /// ```
    pub fn unknown_game() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "unknown-game", "no game has this id")
    }

    /// 403 `wrong-token`.
    ///
    /// ```
    /// assert_eq!(agon_web::ApiError::wrong_token().status.as_u16(), 403);
    /// ```
    pub fn wrong_token() -> ApiError {
        ApiError::new(
            StatusCode::FORBIDDEN,
            "wrong-token",
            "this token does not let you play this game",
        )
    }

    /// 400 `invalid-field`.
    ///
    /// ```
    /// let e = agon_web::ApiError::invalid_field("level must be easy, medium or hard");
    /// assert_eq!(e.name, "invalid-field");
    /// ```
    pub fn invalid_field(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "invalid-field", message)
    }

    /// 409 with the given name (`game-over`, `not-your-turn`, ...).
    ///
    /// ```
    /// let e = agon_web::ApiError::conflict("game-over", "the game has ended");
    /// assert_eq!(e.status.as_u16(), 409);
    /// ```
    pub fn conflict(name: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, name, message)
    }

    /// 503 `server-busy` with `Retry-After: 1`.
    ///
    /// ```
    /// assert_eq!(agon_web::ApiError::busy().retry_after, Some(1));
    /// ```
    pub fn busy() -> ApiError {
        ApiError {
            retry_after: Some(1),
            ..ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "server-busy",
                "every computer player is busy: try again in a second",
            )
        }
    }

    /// 503 `server-busy` with `Retry-After: 1`: the database did not let the request in
    /// in time ([`StoreError::Busy`](crate::store::StoreError::Busy): SQLite's write lock
    /// held past its busy timeout, or no connection of PostgreSQL's pool free within its
    /// wait). A moment of load, not a fault: the page
    /// sends the request again, as for a busy computer player.
    ///
    /// ```
    /// let e = agon_web::ApiError::database_busy();
    /// assert_eq!((e.status.as_u16(), e.name, e.retry_after), (503, "server-busy", Some(1)));
    /// ```
    pub fn database_busy() -> ApiError {
        ApiError {
            message: "the database is busy: try again in a second".into(),
            ..ApiError::busy()
        }
    }

    /// 500 `internal`: a fault of the server (its database), never of the request.
    ///
    /// ```
    /// assert_eq!(agon_web::ApiError::internal("disk full").status.as_u16(), 500);
    /// ```
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }
}

impl core::fmt::Display for ApiError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} {}: {}",
            self.status.as_u16(),
            self.name,
            self.message
        )
    }
}

impl std::error::Error for ApiError {}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: self.name,
            message: self.message,
        };
        let mut response = (self.status, Json(body)).into_response();
        response.extensions_mut().insert(ErrorName(self.name));
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The body of every error answer: the stable name clients switch on, and a sentence for
/// people (what [`ApiError`] sends, and the schema the API document gives it).
///
/// ```
/// let body = agon_web::ErrorBody { error: "unknown-game", message: "no game has this id".into() };
/// let json = serde_json::to_value(&body)?;
/// assert_eq!(json, serde_json::json!({"error": "unknown-game", "message": "no game has this id"}));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct ErrorBody {
    /// The stable name of the error (`wrong-token`, `game-over`, the core's
    /// `between-enemies`, ...): each response of the API document lists the names it
    /// can carry.
    pub error: &'static str,
    /// What went wrong, for people; it may change between versions.
    pub message: String,
}

/// The name of the error an [`ApiError`] response carries (a response extension), for the
/// middleware that turns any other error into JSON and the one that counts rejections.
///
/// ```
/// use axum::response::IntoResponse;
/// let response = agon_web::ApiError::unknown_game().into_response();
/// let name = response.extensions().get::<agon_web::ErrorName>();
/// assert_eq!(name.map(|n| n.0), Some("unknown-game"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrorName(pub &'static str);
