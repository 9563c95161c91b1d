//! Accounts over HTTP (issue 33): sign-up and sign-in with a passkey, recovery codes, the
//! session's cookie, the account's passkeys, sign-out and deletion. The operations are
//! the service's (`crate::service::accounts`); here are the requests, the answers and
//! the cookie.
//!
//! The session lives in a cookie: `agon_session` over plain HTTP, `__Host-agon_session`
//! over HTTPS (then `Secure`, as the `__Host-` prefix requires), always `HttpOnly`,
//! `SameSite=Lax`, `Path=/` and `Max-Age` of [`SESSION_IDLE_MS`] (renewed when the
//! session's use is recorded, at most once a minute). Whether the site is HTTPS is the
//! configured origin's scheme ([`crate::game::site::SiteOrigin`]), never a request
//! header.
//!
//! Every state-changing request that carries the session's cookie, and every one to
//! `/api/account`, must come from the site itself ([`same_origin`]): its `Origin` header
//! is the site's origin, or, without one (or with `Origin: null`, which the site's pages
//! send under `Referrer-Policy: no-referrer`), `Sec-Fetch-Site` says `same-origin`. Anything
//! else is refused with `403 cross-site` before any handler runs.

use std::sync::Arc;

use axum::extract::{Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::names::{GameId, SideName};
use super::request::{cookies, JsonBody, TokenRequest};
use super::responses::SeatErrors;
use crate::error::{ApiError, ErrorBody};
use crate::game::account::{Token, SESSION_IDLE_MS};
use crate::game::now_ms;
use crate::game::site::SiteOrigin;
use crate::service::accounts::{self as service, PasskeyInfo};
use crate::service::AppState;
use crate::store::Account;

/// The session cookie's name over plain HTTP.
pub const SESSION_COOKIE: &str = "agon_session";

/// The session cookie's name over HTTPS: the `__Host-` prefix makes browsers refuse it
/// unless it is `Secure`, for `Path=/` and without `Domain`.
pub const SECURE_SESSION_COOKIE: &str = "__Host-agon_session";

/// The name of the session cookie on `site`.
///
/// ```
/// use agon_web::accounts::session_cookie;
/// use agon_web::game::site::SiteOrigin;
/// assert_eq!(session_cookie(&SiteOrigin::parse("http://localhost:8080").unwrap()), "agon_session");
/// assert_eq!(session_cookie(&SiteOrigin::parse("https://agon.example").unwrap()), "__Host-agon_session");
/// ```
pub fn session_cookie(site: &SiteOrigin) -> &'static str {
    match site.https() {
        true => SECURE_SESSION_COOKIE,
        false => SESSION_COOKIE,
    }
}

/// The `Set-Cookie` value of a session of `token` on `site` (`None`: the cookie's
/// removal, `Max-Age=0`).
///
/// ```
/// use agon_web::accounts::session_set_cookie;
/// use agon_web::game::account::Token;
/// use agon_web::game::site::SiteOrigin;
/// let token = Token::session([0; 20]);
/// let local = SiteOrigin::parse("http://localhost:8080").unwrap();
/// assert_eq!(
///     session_set_cookie(&local, Some(&token)),
///     "agon_session=00000000000000000000000000000000; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax"
/// );
/// let public = SiteOrigin::parse("https://agon.example").unwrap();
/// assert_eq!(
///     session_set_cookie(&public, None),
///     "__Host-agon_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure"
/// );
/// ```
pub fn session_set_cookie(site: &SiteOrigin, token: Option<&Token>) -> String {
    let (value, max_age) = match token {
        Some(token) => (token.as_str(), SESSION_IDLE_MS / 1000),
        None => ("", 0),
    };
    format!(
        "{}={value}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{}",
        session_cookie(site),
        if site.https() { "; Secure" } else { "" }
    )
}

/// The session token the request's cookie holds, if one has a token's form.
pub(crate) fn session_token(headers: &HeaderMap, site: &SiteOrigin) -> Option<Token> {
    cookies(headers, session_cookie(site)).find_map(|v| Token::parse_session(v).ok())
}

/// `response` with the session cookie set (or removed).
fn with_cookie(mut response: Response, site: &SiteOrigin, token: Option<&Token>) -> Response {
    if let Ok(value) = HeaderValue::from_str(&session_set_cookie(site, token)) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

/// The browser's family from its `User-Agent`, for the list of sessions (never the whole
/// header: it is not kept).
///
/// ```
/// use agon_web::accounts::browser_label;
/// assert_eq!(browser_label(Some("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")), "Firefox");
/// assert_eq!(browser_label(Some("Mozilla/5.0 ... Chrome/131.0.0.0 Safari/537.36 Edg/131.0")), "Edge");
/// assert_eq!(browser_label(None), "unknown");
/// ```
pub fn browser_label(user_agent: Option<&str>) -> &'static str {
    let agent = user_agent.unwrap_or_default();
    let families = [
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("Firefox/", "Firefox"),
        ("Chrome/", "Chrome"),
        ("Chromium/", "Chromium"),
        ("Safari/", "Safari"),
    ];
    families
        .iter()
        .find(|(mark, _)| agent.contains(mark))
        .map_or("unknown", |(_, family)| family)
}

fn label(headers: &HeaderMap) -> &'static str {
    browser_label(
        headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok()),
    )
}

/// Whether a request with these headers comes from `site` itself: its `Origin` is the
/// site's; without an `Origin`, or with `Origin: null` (what the site's own pages send,
/// under `Referrer-Policy: no-referrer`), `Sec-Fetch-Site` is `same-origin`.
///
/// ```
/// use agon_web::accounts::from_site;
/// use agon_web::game::site::SiteOrigin;
/// use axum::http::HeaderMap;
/// let site = SiteOrigin::parse("https://agon.example").unwrap();
/// let mut headers = HeaderMap::new();
/// assert!(!from_site(&headers, &site));
/// headers.insert("sec-fetch-site", "same-origin".parse().unwrap());
/// assert!(from_site(&headers, &site));
/// headers.insert("origin", "https://evil.example".parse().unwrap());
/// assert!(!from_site(&headers, &site), "an Origin decides when there is one");
/// headers.insert("origin", "https://agon.example".parse().unwrap());
/// assert!(from_site(&headers, &site));
/// headers.insert("origin", "null".parse().unwrap());
/// assert!(from_site(&headers, &site), "null: Sec-Fetch-Site decides");
/// headers.insert("sec-fetch-site", "cross-site".parse().unwrap());
/// assert!(!from_site(&headers, &site));
/// ```
pub fn from_site(headers: &HeaderMap, site: &SiteOrigin) -> bool {
    let text = |name: header::HeaderName| {
        let mut values = headers.get_all(name).iter();
        match (values.next(), values.next()) {
            (Some(value), None) => value.to_str().ok(),
            _ => None,
        }
    };
    // The site's pages send `Origin: null` on their own POSTs: every response says
    // `Referrer-Policy: no-referrer`, and Fetch then hides the origin of a request that
    // is not CORS. `Sec-Fetch-Site`, which no page can set, decides then.
    let origin = match headers.contains_key(header::ORIGIN) {
        true => Some(text(header::ORIGIN).unwrap_or_default()),
        false => None,
    };
    match origin {
        Some(origin) if origin != "null" => origin.eq_ignore_ascii_case(site.as_str()),
        _ => text(header::HeaderName::from_static("sec-fetch-site"))
            .is_some_and(|v| v.eq_ignore_ascii_case("same-origin")),
    }
}

/// Whether the request's `Origin` is the address it was sent to (`Host`), over HTTP or
/// HTTPS.
///
/// ```
/// use axum::http::HeaderMap;
/// let mut headers = HeaderMap::new();
/// headers.insert("host", "127.0.0.1:8080".parse().unwrap());
/// assert!(!agon_web::accounts::origin_is_host(&headers));
/// headers.insert("origin", "http://127.0.0.1:8080".parse().unwrap());
/// assert!(agon_web::accounts::origin_is_host(&headers));
/// headers.insert("origin", "https://evil.example".parse().unwrap());
/// assert!(!agon_web::accounts::origin_is_host(&headers));
/// ```
pub fn origin_is_host(headers: &HeaderMap) -> bool {
    let text = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok());
    match (text(header::ORIGIN), text(header::HOST)) {
        (Some(origin), Some(host)) => origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|rest| rest.eq_ignore_ascii_case(host)),
        _ => false,
    }
}

/// The middleware refusing cross-site forgery: a state-changing request (not `GET`,
/// `HEAD` or `OPTIONS`) that carries a session cookie, or goes to `/api/account` or
/// `/api/lobby`, and
/// does not come from the site itself ([`from_site`]) is answered `403 cross-site`.
pub async fn same_origin(
    State(app): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let safe = matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if !safe {
        let headers = request.headers();
        let session = cookies(headers, SESSION_COOKIE)
            .chain(cookies(headers, SECURE_SESSION_COOKIE))
            .next()
            .is_some();
        // The lobby's changes too: a guest's seeks are its cookie's. A guest's lobby may be
        // reached at another address of the server than the site's (127.0.0.1 for
        // localhost): a request whose Origin is the address it was sent to is no forgery.
        let path = request.uri().path();
        let account = path.starts_with("/api/account");
        let lobby = path.starts_with("/api/lobby") && !session && !origin_is_host(headers);
        if (session || account || lobby) && !from_site(headers, &app.site()) {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "cross-site",
                "a request that changes something must come from this site's own pages \
                 (its Origin, or Sec-Fetch-Site: same-origin)",
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// The signed-in caller of a request: `401 not-signed-in` without a living session.
/// Answers the account, the token, and whether its use was recorded (the cookie is then
/// renewed).
pub(crate) async fn caller(
    app: &AppState,
    headers: &HeaderMap,
) -> Result<(Account, Token, bool), ApiError> {
    let token = session_token(headers, &app.site()).ok_or_else(service::not_signed_in)?;
    let (account, touched) = service::caller(app, Some(&token), now_ms()).await?;
    Ok((account, token, touched))
}

/// The signed-in caller's account, if the request has a living session (`None` for a
/// guest: playing needs no account). A database that fails is the request's error.
pub(crate) async fn account_of(
    app: &AppState,
    headers: &HeaderMap,
) -> Result<Option<Account>, ApiError> {
    match caller(app, headers).await {
        Ok((account, _, _)) => Ok(Some(account)),
        Err(e) if e.status == axum::http::StatusCode::UNAUTHORIZED => Ok(None),
        Err(e) => Err(e),
    }
}

/// `POST /api/account/signup/options`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignupOptionsRequest {
    /// The name wanted: 3 to 20 ASCII letters, digits, `_` and `-`, beginning with a
    /// letter, ending with a letter or digit, no two separators in a row.
    #[schema(
        pattern = "^[A-Za-z](?:[-_]?[A-Za-z0-9])+$",
        min_length = 3,
        max_length = 20
    )]
    pub username: String,
}

/// WebAuthn's options for the browser (`PublicKeyCredential.parseCreationOptionsFromJSON`
/// or `parseRequestOptionsFromJSON`).
#[derive(Serialize, ToSchema)]
pub struct CeremonyOptions {
    /// The options, in WebAuthn's JSON form; the ceremony waits 5 minutes for its answer.
    #[schema(value_type = Object)]
    pub options: Value,
}

/// `POST /api/account/signup`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignupRequest {
    /// The new passkey: the browser's `PublicKeyCredential`, as its `toJSON()` writes it.
    #[schema(value_type = PasskeyJson<NewPasskeyResponseJson>)]
    pub credential: Value,
    /// A name for the passkey ("phone"), at most 40 characters.
    #[serde(default)]
    #[schema(max_length = 40)]
    pub passkey_name: Option<String>,
}

/// The answer of sign-up.
#[derive(Serialize, ToSchema)]
pub struct SignupResponse {
    /// The account's name.
    pub username: String,
    /// The recovery codes, each good for one sign-in: shown this once, never again.
    pub recovery_codes: Vec<String>,
}

/// `POST /api/account/signin` and `DELETE /api/account`: a passkey's signature.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CredentialRequest {
    /// The browser's `PublicKeyCredential`, as its `toJSON()` writes it.
    #[schema(value_type = PasskeyJson<PasskeyUseResponseJson>)]
    pub credential: Value,
    /// Not part of the request: a name given is refused (`invalid-field`), not ignored,
    /// as a sign-in names no passkey.
    #[serde(default)]
    #[schema(ignore)]
    pub name: Option<String>,
}

/// `POST /api/account/passkeys`: another passkey for the signed-in account.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasskeyRequest {
    /// The new passkey: the browser's `PublicKeyCredential`, as its `toJSON()` writes it.
    #[schema(value_type = PasskeyJson<NewPasskeyResponseJson>)]
    pub credential: Value,
    /// The passkey's name ("phone"), at most 40 characters.
    #[serde(default)]
    #[schema(max_length = 40)]
    pub name: Option<String>,
}

// What the browser sends, as the API document shows it. The server reads the credential as
// webauthn-rs's JSON (a `Value` until then); these types only describe it, and bound each
// text so that every credential the document allows fits the 4 KiB body (a free-form
// object did not: Schemathesis sent a valid one of over 4 KiB and got `413`). The bounds
// leave room for what authenticators send: credential ids up to 192 bytes (passkeys use
// 16 to 64), an RSA key, no attestation (the server asks for none). Their keys are the
// ones browsers send (`deny_unknown_fields` here only closes the documented object).

/// A passkey's credential as `PublicKeyCredential.toJSON()` writes it, with the
/// authenticator's answer `R`: to `navigator.credentials.create` for a new passkey
/// ([`NewPasskeyResponseJson`]), to `navigator.credentials.get` for a signature
/// ([`PasskeyUseResponseJson`]).
#[derive(ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct PasskeyJson<R> {
    /// The credential's id, base64url: 16 bytes or more (WebAuthn's least).
    #[schema(min_length = 22, max_length = 256, pattern = "^[A-Za-z0-9_-]*$")]
    id: String,
    /// The same id, base64url.
    #[schema(min_length = 22, max_length = 256, pattern = "^[A-Za-z0-9_-]*$")]
    raw_id: String,
    /// `public-key`.
    r#type: PublicKeyType,
    /// The authenticator's answer.
    response: R,
    /// Where the authenticator is.
    #[serde(default)]
    #[schema(nullable = false)]
    authenticator_attachment: Option<AttachmentName>,
    /// The extensions' results: `credProps` is the only one asked for.
    #[serde(default)]
    #[schema(nullable = false)]
    client_extension_results: Option<ExtensionResultsJson>,
}

/// The authenticator's answer to `navigator.credentials.create`, each field base64url but
/// the key's algorithm and the transports.
#[derive(ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct NewPasskeyResponseJson {
    /// The client data: the challenge, the origin, the ceremony.
    #[schema(
        rename = "clientDataJSON",
        max_length = 512,
        pattern = "^[A-Za-z0-9_-]*$"
    )]
    client_data_json: String,
    /// The attestation object (format `none`): the authenticator data with the new key.
    #[schema(max_length = 960, pattern = "^[A-Za-z0-9_-]*$")]
    attestation_object: String,
    /// The authenticator data, as in the attestation object.
    #[serde(default)]
    #[schema(nullable = false, max_length = 640, pattern = "^[A-Za-z0-9_-]*$")]
    authenticator_data: Option<String>,
    /// The public key, DER.
    #[serde(default)]
    #[schema(nullable = false, max_length = 400, pattern = "^[A-Za-z0-9_-]*$")]
    public_key: Option<String>,
    /// The key's COSE algorithm (-7 ES256, -257 RS256, -8 EdDSA).
    #[serde(default)]
    #[schema(nullable = false, minimum = -65536, maximum = 65535)]
    public_key_algorithm: Option<i32>,
    /// How the authenticator is reached.
    #[serde(default)]
    #[schema(nullable = false, max_items = 6)]
    transports: Option<Vec<TransportName>>,
}

/// The authenticator's answer to `navigator.credentials.get`, each field base64url.
#[derive(ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct PasskeyUseResponseJson {
    /// The client data: the challenge, the origin, the ceremony.
    #[schema(
        rename = "clientDataJSON",
        max_length = 512,
        pattern = "^[A-Za-z0-9_-]*$"
    )]
    client_data_json: String,
    /// The authenticator data.
    #[schema(max_length = 512, pattern = "^[A-Za-z0-9_-]*$")]
    authenticator_data: String,
    /// The signature over the authenticator data and the client data's hash.
    #[schema(max_length = 512, pattern = "^[A-Za-z0-9_-]*$")]
    signature: String,
    /// The account's user handle (a passkey's, for a sign-in without a username).
    #[serde(default)]
    #[schema(nullable = false, max_length = 128, pattern = "^[A-Za-z0-9_-]*$")]
    user_handle: Option<String>,
}

/// A credential's type: always `public-key`.
#[derive(ToSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
pub enum PublicKeyType {
    /// The only type WebAuthn has.
    PublicKey,
}

/// Where the authenticator is: the device itself, or a key or phone beside it.
#[derive(ToSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
pub enum AttachmentName {
    /// The device's own (Windows Hello, Touch ID, a phone's screen lock).
    Platform,
    /// A security key, or a phone by QR code.
    CrossPlatform,
}

/// A transport of the authenticator.
#[derive(ToSchema)]
#[serde(rename_all = "kebab-case")]
#[allow(dead_code)]
pub enum TransportName {
    /// USB.
    Usb,
    /// NFC.
    Nfc,
    /// Bluetooth.
    Ble,
    /// A smart card.
    SmartCard,
    /// A phone by QR code.
    Hybrid,
    /// The device's own.
    Internal,
}

/// The extensions' results the server reads: none but `credProps` is asked for.
#[derive(ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[allow(dead_code)]
pub struct ExtensionResultsJson {
    /// Whether the passkey is discoverable.
    #[serde(default)]
    #[schema(nullable = false)]
    cred_props: Option<CredPropsJson>,
}

/// The `credProps` extension's result.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
pub struct CredPropsJson {
    /// A discoverable credential (a passkey).
    #[serde(default)]
    #[schema(nullable = false)]
    rk: Option<bool>,
}

/// The answer of a sign-in: whose session the new cookie holds.
#[derive(Serialize, ToSchema)]
pub struct SignedIn {
    /// The account's name.
    pub username: String,
}

/// `POST /api/account/recover`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecoverRequest {
    /// The account's name.
    pub username: String,
    /// One of its recovery codes, `xxxx-xxxx-xxxx-xxxx` (any case, spaces or hyphens).
    pub code: String,
}

/// `GET /api/me`: who is signed in.
#[derive(Serialize, ToSchema)]
pub struct Me {
    /// The account's name.
    pub username: String,
    /// How many passkeys it has.
    pub passkeys: usize,
    /// How many of its recovery codes are unused.
    pub recovery_codes_left: i64,
}

/// A passkey of the account.
#[derive(Serialize, ToSchema)]
pub struct PasskeyView {
    /// The credential's id, base64url (`DELETE /api/account/passkeys/{id}`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// When it was added, unix milliseconds.
    pub created_ms: i64,
    /// When it last signed in (`null`: never).
    pub last_used_ms: Option<i64>,
}

impl From<PasskeyInfo> for PasskeyView {
    fn from(p: PasskeyInfo) -> PasskeyView {
        PasskeyView {
            id: p.id,
            name: p.name,
            created_ms: p.created_ms,
            last_used_ms: p.last_used_ms,
        }
    }
}

/// The account's passkeys.
#[derive(Serialize, ToSchema)]
pub struct PasskeyList {
    /// Oldest first.
    pub passkeys: Vec<PasskeyView>,
}

/// New recovery codes.
#[derive(Serialize, ToSchema)]
pub struct RecoveryCodes {
    /// The codes, each good for one sign-in: shown this once; the older ones stop working.
    pub recovery_codes: Vec<String>,
}

/// `POST /api/account/signup/options`: the name checked, and the options to create its
/// first passkey.
#[utoipa::path(
    post,
    path = "/api/account/signup/options",
    tag = "accounts",
    request_body = SignupOptionsRequest,
    responses(
        (status = 200, description = "The creation options of the account's first passkey", body = CeremonyOptions),
        (status = 400, description = "the name is not one: `username-too-short`, `username-too-long`, `username-bad-character`, `username-bad-start`, `username-bad-end`, `username-double-separator`, `username-reserved`", body = ErrorBody),
        (status = 409, description = "the name, or one looking like it, is taken: `username-taken`", body = ErrorBody),
    )
)]
pub async fn signup_options(
    State(app): State<Arc<AppState>>,
    JsonBody(request): JsonBody<SignupOptionsRequest>,
) -> Result<Json<CeremonyOptions>, ApiError> {
    let options = service::signup_options(&app, &request.username, now_ms()).await?;
    Ok(Json(CeremonyOptions { options }))
}

/// `POST /api/account/signup`: the account created with its first passkey; signs in.
#[utoipa::path(
    post,
    path = "/api/account/signup",
    tag = "accounts",
    request_body = SignupRequest,
    responses(
        (status = 201, description = "The account, created and signed in (the answer sets the session cookie); its recovery codes, shown once", body = SignupResponse, headers(("Set-Cookie" = String, description = "The session's cookie"))),
        (status = 400, description = "the credential is not WebAuthn's JSON: `malformed-credential`; no sign-up waits for its challenge: `unknown-ceremony`; it does not verify (origin, relying party, signature, flags): `passkey-refused`; the passkey's name is too long: `invalid-field`", body = ErrorBody),
        (status = 409, description = "the name was taken meanwhile: `username-taken`; the passkey is registered already: `passkey-taken`", body = ErrorBody),
    )
)]
pub async fn signup(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<SignupRequest>,
) -> Result<Response, ApiError> {
    let site = app.site();
    let old = session_token(&headers, &site);
    let done = service::signup(
        &app,
        &request.credential,
        request.passkey_name.as_deref(),
        label(&headers),
        now_ms(),
    )
    .await?;
    if let Some(old) = old {
        app.store.delete_session(&old).await?;
    }
    let body = SignupResponse {
        username: done.account.username.clone(),
        recovery_codes: done.codes.iter().map(|c| c.as_str()).collect(),
    };
    let response = (StatusCode::CREATED, Json(body)).into_response();
    Ok(with_cookie(response, &site, Some(&done.token)))
}

/// The answer of a sign-in (by passkey or recovery code): the account's name, and the new
/// session's cookie.
fn signed_in(username: String, site: &SiteOrigin, token: &Token) -> Response {
    with_cookie(
        Json(SignedIn { username }).into_response(),
        site,
        Some(token),
    )
}

/// `POST /api/account/signin/options`: the options to sign in with any passkey of this
/// site (no name asked).
#[utoipa::path(
    post,
    path = "/api/account/signin/options",
    tag = "accounts",
    responses(
        (status = 200, description = "The request options of a sign-in with a discoverable passkey", body = CeremonyOptions),
    )
)]
pub async fn signin_options(
    State(app): State<Arc<AppState>>,
) -> Result<Json<CeremonyOptions>, ApiError> {
    let options = service::signin_options(&app, now_ms()).await?;
    Ok(Json(CeremonyOptions { options }))
}

/// `POST /api/account/signin`: signs in with a passkey; the session is new (the one the
/// browser had ends).
#[utoipa::path(
    post,
    path = "/api/account/signin",
    tag = "accounts",
    request_body = CredentialRequest,
    responses(
        (status = 200, description = "Signed in: the answer sets a new session cookie", body = SignedIn, headers(("Set-Cookie" = String, description = "The session's cookie"))),
        (status = 400, description = "the credential is not WebAuthn's JSON: `malformed-credential`; no sign-in waits for its challenge: `unknown-ceremony`; a name was given: `invalid-field`", body = ErrorBody),
        (status = 401, description = "the passkey is not one of a living account here, or its assertion does not verify: `passkey-refused`", body = ErrorBody),
    )
)]
pub async fn signin(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<CredentialRequest>,
) -> Result<Response, ApiError> {
    if request.name.is_some() {
        return Err(ApiError::invalid_field("a sign-in takes no name"));
    }
    let site = app.site();
    let old = session_token(&headers, &site);
    let (account, token) = service::signin(
        &app,
        &request.credential,
        old.as_ref(),
        label(&headers),
        now_ms(),
    )
    .await?;
    Ok(signed_in(account.username, &site, &token))
}

/// `POST /api/account/recover`: signs in with a recovery code, which is used up.
#[utoipa::path(
    post,
    path = "/api/account/recover",
    tag = "accounts",
    request_body = RecoverRequest,
    responses(
        (status = 200, description = "Signed in: the answer sets a new session cookie", body = SignedIn, headers(("Set-Cookie" = String, description = "The session's cookie"))),
        (status = 401, description = "no living account of this name has this unused code (one answer for all): `recovery-refused`", body = ErrorBody),
    )
)]
pub async fn recover(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<RecoverRequest>,
) -> Result<Response, ApiError> {
    let site = app.site();
    let old = session_token(&headers, &site);
    let (account, token) = service::recover(
        &app,
        &request.username,
        &request.code,
        old.as_ref(),
        label(&headers),
        now_ms(),
    )
    .await?;
    Ok(signed_in(account.username, &site, &token))
}

/// `GET /api/me`: who is signed in; the cookie's lifetime is renewed when the session's
/// use is recorded.
#[utoipa::path(
    get,
    path = "/api/me",
    tag = "accounts",
    responses(
        (status = 200, description = "The signed-in account", body = Me),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
    )
)]
pub async fn me(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (account, token, touched) = caller(&app, &headers).await?;
    let passkeys = app.store.passkeys(&account.id).await?.len();
    let recovery_codes_left = app.store.recovery_codes_left(&account.id).await?;
    let response = Json(Me {
        username: account.username,
        passkeys,
        recovery_codes_left,
    })
    .into_response();
    Ok(match touched {
        true => with_cookie(response, &app.site(), Some(&token)),
        false => response,
    })
}

/// `GET /api/account/passkeys`.
#[utoipa::path(
    get,
    path = "/api/account/passkeys",
    tag = "accounts",
    responses(
        (status = 200, description = "The account's passkeys, oldest first", body = PasskeyList),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
    )
)]
pub async fn passkeys(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<PasskeyList>, ApiError> {
    let (account, _, _) = caller(&app, &headers).await?;
    let passkeys = service::passkeys(&app, &account).await?;
    Ok(Json(PasskeyList {
        passkeys: passkeys.into_iter().map(PasskeyView::from).collect(),
    }))
}

/// `POST /api/account/passkeys/options`: the options to add a passkey.
#[utoipa::path(
    post,
    path = "/api/account/passkeys/options",
    tag = "accounts",
    responses(
        (status = 200, description = "The creation options of another passkey (the account's passkeys excluded)", body = CeremonyOptions),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
    )
)]
pub async fn passkey_options(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<CeremonyOptions>, ApiError> {
    let (account, _, _) = caller(&app, &headers).await?;
    let options = service::passkey_options(&app, &account, now_ms()).await?;
    Ok(Json(CeremonyOptions { options }))
}

/// `POST /api/account/passkeys`: adds a passkey.
#[utoipa::path(
    post,
    path = "/api/account/passkeys",
    tag = "accounts",
    request_body = PasskeyRequest,
    responses(
        (status = 201, description = "The passkey, added", body = PasskeyView),
        (status = 400, description = "the credential is not WebAuthn's JSON: `malformed-credential`; no ceremony of this account waits for its challenge: `unknown-ceremony`; it does not verify: `passkey-refused`; the name is too long: `invalid-field`", body = ErrorBody),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
        (status = 409, description = "the passkey is registered already: `passkey-taken`", body = ErrorBody),
    )
)]
pub async fn add_passkey(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<PasskeyRequest>,
) -> Result<Response, ApiError> {
    let (account, _, _) = caller(&app, &headers).await?;
    let added = service::add_passkey(
        &app,
        &account,
        &request.credential,
        request.name.as_deref(),
        now_ms(),
    )
    .await?;
    Ok((StatusCode::CREATED, Json(PasskeyView::from(added))).into_response())
}

/// `DELETE /api/account/passkeys/{id}`: removes a passkey, never the last.
#[utoipa::path(
    delete,
    path = "/api/account/passkeys/{id}",
    tag = "accounts",
    params(("id" = String, Path, description = "The passkey's credential id, base64url")),
    responses(
        (status = 204, description = "The passkey is removed"),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
        (status = 404, description = "the account has no passkey of this id: `unknown-passkey`", body = ErrorBody),
        (status = 409, description = "it is the account's only passkey: `last-passkey`", body = ErrorBody),
    )
)]
pub async fn remove_passkey(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let (account, _, _) = caller(&app, &headers).await?;
    service::remove_passkey(&app, &account, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/account/recovery-codes`: new recovery codes; the old ones stop working.
#[utoipa::path(
    post,
    path = "/api/account/recovery-codes",
    tag = "accounts",
    responses(
        (status = 200, description = "The new codes, shown once", body = RecoveryCodes),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
    )
)]
pub async fn recovery_codes(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Json<RecoveryCodes>, ApiError> {
    let (account, _, _) = caller(&app, &headers).await?;
    let codes = service::new_recovery_codes(&app, &account).await?;
    Ok(Json(RecoveryCodes {
        recovery_codes: codes.iter().map(|c| c.as_str()).collect(),
    }))
}

/// `POST /api/account/signout`: ends this session (if any) and removes its cookie.
#[utoipa::path(
    post,
    path = "/api/account/signout",
    tag = "accounts",
    responses(
        (status = 204, description = "Signed out (the answer removes the cookie)", headers(("Set-Cookie" = String, description = "The cookie's removal"))),
    )
)]
pub async fn signout(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let site = app.site();
    if let Some(token) = session_token(&headers, &site) {
        app.store.delete_session(&token).await?;
    }
    Ok(with_cookie(
        StatusCode::NO_CONTENT.into_response(),
        &site,
        None,
    ))
}

/// `POST /api/account/signout-everywhere`: ends every session of the account.
#[utoipa::path(
    post,
    path = "/api/account/signout-everywhere",
    tag = "accounts",
    responses(
        (status = 204, description = "Every session ended (the answer removes this one's cookie)", headers(("Set-Cookie" = String, description = "The cookie's removal"))),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
    )
)]
pub async fn signout_everywhere(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (account, _, _) = caller(&app, &headers).await?;
    app.store.delete_sessions(&account.id).await?;
    Ok(with_cookie(
        StatusCode::NO_CONTENT.into_response(),
        &app.site(),
        None,
    ))
}

/// `DELETE /api/account`: deletes the account, proven by a fresh passkey assertion
/// (`POST /api/account/signin/options`, then the credential here). Its name stays taken;
/// its passkeys, sessions and codes go; its games stay, shown as a deleted player's.
#[utoipa::path(
    delete,
    path = "/api/account",
    tag = "accounts",
    request_body = CredentialRequest,
    responses(
        (status = 204, description = "The account is deleted (the answer removes the cookie)", headers(("Set-Cookie" = String, description = "The cookie's removal"))),
        (status = 400, description = "the credential is not WebAuthn's JSON: `malformed-credential`; no sign-in ceremony waits for its challenge: `unknown-ceremony`; a name was given: `invalid-field`", body = ErrorBody),
        (status = 401, description = "no living session: `not-signed-in`; the assertion does not verify: `passkey-refused`", body = ErrorBody),
        (status = 403, description = "the passkey is another account's: `wrong-passkey`", body = ErrorBody),
    )
)]
pub async fn delete_account(
    State(app): State<Arc<AppState>>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<CredentialRequest>,
) -> Result<Response, ApiError> {
    if request.name.is_some() {
        return Err(ApiError::invalid_field("deleting an account takes no name"));
    }
    let (account, _, _) = caller(&app, &headers).await?;
    service::delete_account(&app, &account, &request.credential, now_ms()).await?;
    Ok(with_cookie(
        StatusCode::NO_CONTENT.into_response(),
        &app.site(),
        None,
    ))
}

/// The answer of a claim.
#[derive(Serialize, ToSchema)]
pub struct ClaimResponse {
    /// The seat claimed.
    #[schema(value_type = SideName)]
    pub side: &'static str,
    /// The account that holds it.
    pub username: String,
}

/// `POST /api/games/{id}/claim`: a guest who signed in during a game claims their seat
/// (by its token) for their account.
#[utoipa::path(
    post,
    path = "/api/games/{id}/claim",
    tag = "accounts",
    params(GameId),
    request_body = TokenRequest,
    responses(
        (status = 200, description = "The seat is the account's (claiming again changes nothing)", body = ClaimResponse),
        (status = 401, description = "no living session: `not-signed-in`", body = ErrorBody),
        SeatErrors,
        (status = 409, description = "the game is over: `game-over`; another account claimed the seat: `seat-claimed`", body = ErrorBody),
    )
)]
pub async fn claim(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Json<ClaimResponse>, ApiError> {
    let (account, _, _) = caller(&app, &headers).await?;
    let side = service::claim_seat(&app, &account, &id, &request.token, now_ms()).await?;
    Ok(Json(ClaimResponse {
        side: side.name(),
        username: account.username,
    }))
}
