//! The HTTP surface: the router, the handlers (the JSON API: [`api`], [`analysis`], [`friend`],
//! [`events`], [`health`]; the pages: [`pages`]), reading requests ([`request`]), the
//! answers' shapes ([`state`]), the error responses the API document shares
//! ([`responses`]), every rejection as JSON ([`rejections`]) and the API document
//! ([`openapi`]). A handler reads its request, calls the service ([`crate::service`]) and
//! answers; it changes no game itself.

use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Query, Request};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiError;
use crate::i18n::Language;
use crate::service::AppState;
use crate::{limits, metrics};
use pages::Page;

pub mod accounts;
pub mod analysis;
pub mod api;
pub mod bots;
pub mod change;
pub mod events;
pub mod friend;
pub mod health;
pub mod lobby;
pub mod names;
pub mod openapi;
pub mod pages;
pub mod players;
pub mod records;
pub mod rejections;
pub mod request;
pub mod responses;
pub mod review;
pub mod state;

/// The JSON API's routes, each from its handler's `#[utoipa::path]` (its method and path),
/// so that the router and the API document ([`openapi::document`]) are the same list.
pub(crate) fn api_routes() -> OpenApiRouter<Arc<AppState>> {
    OpenApiRouter::with_openapi(openapi::ApiDoc::openapi())
        .routes(routes!(api::create))
        .routes(routes!(api::show))
        .routes(routes!(api::play))
        .routes(routes!(api::computer))
        .routes(routes!(api::hint))
        .routes(routes!(api::undo))
        .routes(routes!(api::resign))
        .routes(routes!(api::join))
        .routes(routes!(friend::draw))
        .routes(routes!(friend::takeback))
        .routes(routes!(friend::rematch))
        .routes(routes!(friend::abort))
        .routes(routes!(events::events))
        .routes(routes!(events::seat))
        .routes(routes!(api::record))
        .routes(routes!(api::board_svg))
        .routes(routes!(api::ply_svg))
        .routes(routes!(review::show_review, review::request_review))
        .routes(routes!(analysis::analysis))
        .routes(routes!(records::board))
        .routes(routes!(records::read))
        .routes(routes!(records::write))
        .routes(routes!(health::health))
        .routes(routes!(openapi::openapi_json))
        .routes(routes!(accounts::signup_options))
        .routes(routes!(accounts::signup))
        .routes(routes!(accounts::signin_options))
        .routes(routes!(accounts::signin))
        .routes(routes!(accounts::recover))
        .routes(routes!(accounts::me))
        .routes(routes!(accounts::passkeys, accounts::add_passkey))
        .routes(routes!(accounts::passkey_options))
        .routes(routes!(accounts::remove_passkey))
        .routes(routes!(accounts::recovery_codes))
        .routes(routes!(accounts::signout))
        .routes(routes!(accounts::signout_everywhere))
        .routes(routes!(accounts::delete_account))
        .routes(routes!(accounts::claim))
        .routes(routes!(players::player))
        .routes(routes!(players::games))
        .routes(routes!(players::history))
        .routes(routes!(players::leaderboard))
        .routes(routes!(lobby::seeks, lobby::post_seek))
        .routes(routes!(lobby::challenge))
        .routes(routes!(lobby::accept))
        .routes(routes!(lobby::cancel))
        .routes(routes!(lobby::decline))
        .routes(routes!(lobby::quick))
        .routes(routes!(lobby::events))
        .routes(routes!(lobby::tv))
        .routes(routes!(bots::become_bot))
        .routes(routes!(bots::tokens, bots::new_token))
        .routes(routes!(bots::revoke_token))
        .routes(routes!(bots::events))
        .routes(routes!(bots::accept))
        .routes(routes!(bots::decline))
        .routes(routes!(bots::seek))
        .routes(routes!(bots::game_events))
        .routes(routes!(bots::play))
        .routes(routes!(bots::draw))
        .routes(routes!(bots::resign))
}

pub(crate) fn router(state: Arc<AppState>) -> Router {
    let (api, _) = api_routes().split_for_parts();
    // The older name of `/api/health`, kept for monitors set up with it; not in the document.
    let api = api.route("/healthz", get(health::health));
    let site = Router::new()
        .route("/", get(game_page))
        .route("/g/{id}", get(game_page))
        .route("/rules", get(rules_page))
        .route("/account", get(account_page))
        .route("/@/{username}", get(player_page))
        .route("/leaderboard", get(leaderboard_page))
        .route("/analysis", get(analysis_page))
        .route("/lobby", get(lobby_page))
        .route("/assets/{*file}", get(pages::asset))
        .route("/i18n/{file}", get(pages::catalogue));
    let site = match state.metrics_endpoint {
        true => site.route(
            "/metrics",
            get(metrics::endpoint).with_state(state.metrics.clone()),
        ),
        false => site,
    };
    let (limits, metrics) = (state.limits.clone(), state.metrics.clone());
    api.merge(site)
        // Only on a route and method that exist: the rest is 404 or 405, as without it.
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            accounts::same_origin,
        ))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(request::MAX_RECORD_BODY))
        .layer(middleware::from_fn_with_state(limits, limits::enforce))
        .layer(middleware::from_fn(rejections::json_errors))
        .layer(middleware::from_fn_with_state(metrics, metrics::track))
        .layer(middleware::from_fn(security_headers))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not-found", "no such page")
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method-not-allowed",
        "this path does not take this method",
    )
}

/// The policy of every response: scripts, styles and images only from this server, no
/// inline script or style, no framing, no referrer.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    set_security_headers(response.headers_mut());
    response
}

/// Sets the security headers every response carries, whatever answers it (the router's
/// middleware, or the accept loop's refusals, [`crate::net`]): the
/// [`CONTENT_SECURITY_POLICY`], `nosniff`, no referrer, no framing, and `Cache-Control:
/// no-store` unless the response chose its own.
///
/// ```
/// use axum::http::HeaderMap;
/// let mut headers = HeaderMap::new();
/// agon_web::http::set_security_headers(&mut headers);
/// assert_eq!(headers["x-content-type-options"], "nosniff");
/// assert_eq!(headers["cache-control"], "no-store");
/// assert_eq!(headers["content-security-policy"], agon_web::CONTENT_SECURITY_POLICY);
/// ```
pub fn set_security_headers(headers: &mut HeaderMap) {
    let fixed = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
}

#[derive(serde::Deserialize)]
struct LangQuery {
    lang: Option<String>,
}

/// A page's query: `?lang=xx`; one that does not parse is ignored, not refused.
type PageQuery = Result<Query<LangQuery>, QueryRejection>;

fn page_language(query: &PageQuery, headers: &HeaderMap) -> Language {
    let (cookie, accept) = request::language_headers(headers);
    let lang = query.as_ref().ok().and_then(|q| q.lang.as_deref());
    Language::choose(lang, cookie, accept)
}

fn html(body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::VARY, "Accept-Language, Cookie"),
        ],
        body,
    )
        .into_response()
}

async fn game_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Game.render(page_language(&query, &headers)))
}

async fn rules_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Rules.render(page_language(&query, &headers)))
}

async fn account_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Account.render(page_language(&query, &headers)))
}

/// The player page: the same page for every name (its script asks the API, which says
/// whether the player exists).
async fn player_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Player.render(page_language(&query, &headers)))
}

async fn leaderboard_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Leaderboard.render(page_language(&query, &headers)))
}

async fn analysis_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Analysis.render(page_language(&query, &headers)))
}

async fn lobby_page(query: PageQuery, headers: HeaderMap) -> Response {
    html(Page::Lobby.render(page_language(&query, &headers)))
}
