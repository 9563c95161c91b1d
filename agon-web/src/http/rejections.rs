//! Every error is the documented JSON body, axum's own rejections included.
//!
//! The handlers answer [`ApiError`]s, which are JSON already. What axum answers by itself
//! (a path segment that is not UTF-8, a path parameter that does not deserialize, any
//! other rejection of an extractor) is plain text: the middleware [`json_errors`] turns
//! each 4xx or 5xx response that is not an [`ApiError`] into one, with the same status
//! and headers, the name chosen from the status ([`name_of`]) and axum's text as the
//! message. A path that does not percent-decode to UTF-8 is refused before routing as
//! `400 invalid-path`.

use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, ErrorName};

/// The most of a rejection's text kept as the message.
const MAX_MESSAGE: usize = 1024;

/// The stable name of an error that only has a status (`invalid-path` when axum says the
/// URL is invalid).
///
/// ```
/// use agon_web::rejections::name_of;
/// use axum::http::StatusCode;
/// assert_eq!(name_of(StatusCode::BAD_REQUEST, "Invalid URL: Cannot parse `x`"), "invalid-path");
/// assert_eq!(name_of(StatusCode::BAD_REQUEST, "Failed to parse the request body"), "bad-request");
/// assert_eq!(name_of(StatusCode::TOO_MANY_REQUESTS, ""), "rate-limited");
/// assert_eq!(name_of(StatusCode::IM_A_TEAPOT, ""), "client-error");
/// ```
pub fn name_of(status: StatusCode, text: &str) -> &'static str {
    match status.as_u16() {
        400 if text.starts_with("Invalid URL") => "invalid-path",
        400 => "bad-request",
        401 => "unauthorized",
        403 => "forbidden",
        404 => "not-found",
        405 => "method-not-allowed",
        408 => "request-timeout",
        411 => "length-required",
        413 => "body-too-large",
        414 => "uri-too-long",
        415 => "unsupported-media-type",
        422 => "unprocessable",
        429 => "rate-limited",
        431 => "headers-too-large",
        500 => "internal",
        503 => "unavailable",
        _ if status.is_client_error() => "client-error",
        _ => "server-error",
    }
}

/// Whether the path percent-decodes to UTF-8 (what axum's `Path` needs of it).
///
/// ```
/// use agon_web::rejections::path_is_utf8;
/// assert!(path_is_utf8("/api/games/%C3%A9t%C3%A9"));
/// assert!(!path_is_utf8("/api/games/%FF"));
/// assert!(path_is_utf8("/100%"));
/// ```
pub fn path_is_utf8(path: &str) -> bool {
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied(),
            bytes.get(i + 2).copied(),
        ) {
            (b'%', Some(h), Some(l)) if hex(h).is_some() && hex(l).is_some() => {
                decoded.push((hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, _, _) => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    std::str::from_utf8(&decoded).is_ok()
}

/// The middleware: `invalid-path` for a path that is not UTF-8, and every error response
/// that is not an [`ApiError`] made into one.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use axum::{body::Body, extract::Path, http::Request, routing::get, Router};
/// use tower::ServiceExt;
/// let app = Router::new()
///     .route("/n/{n}", get(|Path(n): Path<u32>| async move { n.to_string() }))
///     .layer(axum::middleware::from_fn(agon_web::rejections::json_errors));
/// let request = Request::get("/n/seven").body(Body::empty()).unwrap();
/// let response = app.oneshot(request).await.unwrap();
/// assert_eq!(response.status().as_u16(), 400);
/// assert_eq!(response.headers()["content-type"], "application/json");
/// # });
/// ```
pub async fn json_errors(request: Request, next: Next) -> Response {
    if !path_is_utf8(request.uri().path()) {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid-path",
            "the path is not valid UTF-8 once percent-decoded",
        )
        .into_response();
    }
    let response = next.run(request).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error())
        || response.extensions().get::<ErrorName>().is_some()
    {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, MAX_MESSAGE).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).trim().to_string(),
        Err(_) => String::new(),
    };
    let message = match text.is_empty() {
        true => status.canonical_reason().unwrap_or("error").to_string(),
        false => text,
    };
    let json = ApiError::new(status, name_of(status, &message), message).into_response();
    let (json_parts, json_body) = json.into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.extend(json_parts.headers);
    parts.extensions.extend(json_parts.extensions);
    Response::from_parts(parts, json_body)
}
