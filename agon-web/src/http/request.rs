//! Reading a request: its JSON body ([`JsonBody`]), its query, and each text the API
//! reads (rule sets, positions, clocks, names, views), each refused with a precise 4xx.

use agon_core::{ParseError, ParseErrorKind, Position, Rules, Side};
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::error::ApiError;

/// The largest request body accepted, in bytes, but on the paths of
/// [`MAX_RECORD_BODY`].
pub const MAX_BODY: usize = 4096;

/// The largest body of the requests that carry a game record or a tree of moves
/// (`/api/analysis`, `/api/analysis/board`, `/api/records/...`), in bytes: 128 KiB, a
/// record of some 15,000 plies.
pub const MAX_RECORD_BODY: usize = 128 * 1024;

/// The largest body taken on `path`: [`MAX_RECORD_BODY`] on the paths of records and
/// analyses, [`MAX_BODY`] elsewhere. The accept loop checks it from the head's
/// `Content-Length`, and [`JsonBody`] again.
///
/// ```
/// use agon_web::http::request::{max_body_for, MAX_BODY, MAX_RECORD_BODY};
/// assert_eq!(max_body_for("/api/records/read"), MAX_RECORD_BODY);
/// assert_eq!(max_body_for("/api/analysis?x=1"), MAX_RECORD_BODY);
/// assert_eq!(max_body_for("/api/games"), MAX_BODY);
/// ```
pub fn max_body_for(path: &str) -> usize {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let large = path == "/api/analysis"
        || path == "/api/analysis/board"
        || path.starts_with("/api/records/");
    if large {
        MAX_RECORD_BODY
    } else {
        MAX_BODY
    }
}

/// A JSON request body: `application/json`, at most `MAX` bytes ([`MAX_BODY`] unless
/// said), of exactly the expected shape (unknown fields are refused, so a misspelt field
/// is not ignored).
pub struct JsonBody<T, const MAX: usize = MAX_BODY>(pub T);

impl<S: Send + Sync, T: DeserializeOwned, const MAX: usize> FromRequest<S> for JsonBody<T, MAX> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported-media-type",
                "the body must be application/json",
            ));
        }
        let too_large = || {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body-too-large",
                format!("the body is over {MAX} bytes"),
            )
        };
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    too_large()
                } else {
                    ApiError::new(StatusCode::BAD_REQUEST, "malformed-json", e.body_text())
                }
            })?;
        // The router takes up to MAX_RECORD_BODY on every path: each body its own cap.
        if bytes.len() > MAX {
            return Err(too_large());
        }
        // serde would also read a struct from an array of its fields: only objects are asked.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed-json",
                "the body must be a JSON object",
            ));
        }
        serde_json::from_slice(&bytes)
            .map(JsonBody)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "malformed-json", e.to_string()))
    }
}

/// The 400 of a rule set's text that does not parse, named by what is wrong:
/// `unknown-preset`, `unknown-rule-option`, `unknown-rule-value`,
/// `duplicate-rule-option`, `limit-out-of-range` (agon-core's names), or
/// `malformed-rules` for any other fault of the text (a missing `=`, an empty option).
///
/// ```
/// let e = agon_web::api::rules_error("chess".parse::<agon_core::Rules>().unwrap_err());
/// assert_eq!((e.status.as_u16(), e.name), (400, "unknown-preset"));
/// let e = agon_web::api::rules_error("standard+limit".parse::<agon_core::Rules>().unwrap_err());
/// assert_eq!(e.name, "malformed-rules");
/// ```
pub fn rules_error(e: ParseError) -> ApiError {
    let name = match e.kind() {
        kind if is_rules_fault(kind) => kind.name(),
        _ => "malformed-rules",
    };
    ApiError::new(StatusCode::BAD_REQUEST, name, format!("rules: {e}"))
}

/// Whether `kind` is a fault of a rule set's text with a name of its own (what
/// [`rules_error`] answers by that name), also where a record's `Rules` tag has it.
pub(crate) fn is_rules_fault(kind: ParseErrorKind) -> bool {
    matches!(
        kind,
        ParseErrorKind::UnknownPreset
            | ParseErrorKind::UnknownRuleOption
            | ParseErrorKind::UnknownRuleValue
            | ParseErrorKind::DuplicateRuleOption
            | ParseErrorKind::LimitOutOfRange
    )
}

/// The rule set of a request: its text parsed, or the standard rules.
pub(crate) fn parse_rules(text: Option<&str>) -> Result<Rules, ApiError> {
    match text {
        None => Ok(Rules::STANDARD),
        Some(text) => text.parse().map_err(rules_error),
    }
}

/// The start position of a request: its text read under `rules`, or the rules' start
/// (`400 invalid-field` naming the fault).
///
/// ```
/// use agon_web::api::parse_position;
/// let start = parse_position(None, agon_core::Rules::STANDARD)?;
/// assert_eq!(start, agon_core::Position::start());
/// assert_eq!(parse_position(Some("nonsense"), agon_core::Rules::STANDARD).unwrap_err().name, "invalid-field");
/// # Ok::<(), agon_web::ApiError>(())
/// ```
pub fn parse_position(text: Option<&str>, rules: Rules) -> Result<Position, ApiError> {
    match text {
        None => Ok(Position::start_with_rules(rules)),
        Some(text) => Position::from_text_with_rules(text, rules)
            .map_err(|e| ApiError::invalid_field(format!("position: {e}"))),
    }
}

/// The longest display name, in characters.
pub const MAX_NAME: usize = 24;

pub use crate::game::{MAX_CLOCK_INCREMENT, MAX_CLOCK_MINUTES};

/// Reads a clock's text: `M+S` (whole minutes 1 to 180, plus an increment of 0 to 60
/// seconds a move), or `none` for no clock. Anything else is `400 invalid-clock`.
///
/// ```
/// use agon_web::api::parse_clock;
/// assert_eq!(parse_clock("5+3"), Ok(Some((5, 3))));
/// assert_eq!(parse_clock("none"), Ok(None));
/// for bad in ["5", "0+3", "181+0", "5+61", "5+-1", "5.5+0", " 5+3", "+3", "5+"] {
///     assert_eq!(parse_clock(bad).unwrap_err().name, "invalid-clock", "{bad}");
/// }
/// ```
pub fn parse_clock(text: &str) -> Result<Option<(u32, u32)>, ApiError> {
    if text == "none" {
        return Ok(None);
    }
    let parsed = crate::game::minutes_plus_seconds(text);
    match parsed {
        Some(clock) => Ok(Some(clock)),
        None => Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "invalid-clock",
            format!(
                "clock must be none or minutes+seconds like 5+3 (minutes 1 to \
                 {MAX_CLOCK_MINUTES}, increment 0 to {MAX_CLOCK_INCREMENT}), not {text:?}"
            ),
        )),
    }
}

/// Reads a JSON integer as JSON Schema has it: a number whose fraction is zero (`270.0`
/// too, which serde's `i64` refuses, though the API document's `integer` allows it).
/// For `#[serde(deserialize_with = "whole_number")]`.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Range {
///     #[serde(deserialize_with = "agon_web::http::request::whole_number")]
///     max: i64,
/// }
/// let read = |json: &str| serde_json::from_str::<Range>(json).map(|r| r.max);
/// assert_eq!(read(r#"{"max": 270}"#).unwrap(), 270);
/// assert_eq!(read(r#"{"max": 270.0}"#).unwrap(), 270);
/// assert_eq!(read(r#"{"max": -2.0e2}"#).unwrap(), -200);
/// assert!(read(r#"{"max": 270.5}"#).is_err());
/// assert!(read(r#"{"max": 1e300}"#).is_err());
/// assert!(read(r#"{"max": "270"}"#).is_err());
/// ```
pub fn whole_number<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<i64, D::Error> {
    use serde::de::{Error, Unexpected};
    let number = serde_json::Number::deserialize(deserializer)?;
    if let Some(n) = number.as_i64() {
        return Ok(n);
    }
    let x = number.as_f64().unwrap_or(f64::NAN);
    // The bounds are exact in f64: -2^63 and 2^63.
    if x.fract() == 0.0 && (-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&x) {
        Ok(x as i64)
    } else {
        Err(D::Error::invalid_value(
            Unexpected::Float(x),
            &"a whole number",
        ))
    }
}

/// [`whole_number`] for an optional field: `null` (or, with `#[serde(default)]`, no
/// field) is `None`; a whole number is read into `T`, and one out of `T`'s range is an
/// error. For `#[serde(default, deserialize_with = "optional_whole_number")]`.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Search {
///     #[serde(default, deserialize_with = "agon_web::http::request::optional_whole_number")]
///     nodes: Option<usize>,
/// }
/// let read = |text: &str| serde_json::from_str::<Search>(text).map(|s| s.nodes);
/// assert_eq!(read(r#"{"nodes": 3199478.0}"#).unwrap(), Some(3_199_478));
/// assert_eq!(read(r#"{"nodes": null}"#).unwrap(), None);
/// assert_eq!(read("{}").unwrap(), None);
/// assert!(read(r#"{"nodes": -1}"#).is_err());
/// assert!(read(r#"{"nodes": 0.5}"#).is_err());
/// ```
pub fn optional_whole_number<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i64>,
{
    use serde::de::{Error, Unexpected};
    #[derive(Deserialize)]
    struct Whole(#[serde(deserialize_with = "whole_number")] i64);
    match Option::<Whole>::deserialize(deserializer)? {
        None => Ok(None),
        Some(Whole(n)) => T::try_from(n).map(Some).map_err(|_| {
            D::Error::invalid_value(Unexpected::Signed(n), &"a number in the field's range")
        }),
    }
}

/// Reads a display name: trimmed, 1 to [`MAX_NAME`] characters, no control characters;
/// else `400 invalid-field`.
///
/// ```
/// use agon_web::api::parse_name;
/// assert_eq!(parse_name("  Ada "), Ok("Ada".to_string()));
/// assert!(parse_name("").is_err());
/// assert!(parse_name("a\u{7}b").is_err());
/// assert!(parse_name(&"x".repeat(25)).is_err());
/// ```
pub fn parse_name(text: &str) -> Result<String, ApiError> {
    let name = text.trim();
    let length = name.chars().count();
    if !(1..=MAX_NAME).contains(&length) || name.chars().any(char::is_control) {
        return Err(ApiError::invalid_field(format!(
            "name must be 1 to {MAX_NAME} characters, without control characters"
        )));
    }
    Ok(name.to_string())
}

/// The query of `uri` as `T` (no query: every parameter absent), or `400 invalid-field`
/// naming what is wrong.
pub(crate) fn query<T: serde::de::DeserializeOwned>(uri: &Uri) -> Result<T, ApiError> {
    axum::extract::Query::try_from_uri(uri)
        .map(|query| query.0)
        .map_err(|e| ApiError::invalid_field(e.body_text()))
}

/// `?view=white|black` of a state request, or the creator's side.
pub(crate) fn parse_view(view: Option<&str>) -> Result<Option<Side>, ApiError> {
    match view {
        None => Ok(None),
        Some(text) => Side::from_name(text).map(Some).ok_or_else(|| {
            ApiError::invalid_field(format!("view must be white or black, not {text:?}"))
        }),
    }
}

/// The request's `Cookie` and `Accept-Language` headers, as text.
pub(crate) fn language_headers(headers: &HeaderMap) -> (Option<&str>, Option<&str>) {
    let get = |name| {
        headers
            .get(name)
            .and_then(|v: &header::HeaderValue| v.to_str().ok())
    };
    (get(header::COOKIE), get(header::ACCEPT_LANGUAGE))
}

/// The values of the cookies named `name` in the request's `Cookie` headers.
pub(crate) fn cookies<'a>(
    headers: &'a HeaderMap,
    name: &'a str,
) -> impl Iterator<Item = &'a str> + 'a {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(move |pair| {
            let (key, value) = pair.split_once('=')?;
            (key.trim() == name).then_some(value.trim())
        })
}

/// A request that only proves who is asking.
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// The game's secret token.
    pub token: String,
}
