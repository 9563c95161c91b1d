//! Reading a request's head before hyper does: every fault of the head is answered here,
//! as the documented JSON error, so that hyper (which would answer an empty body) only
//! ever sees requests it accepts.

use axum::http::{StatusCode, Uri};

use crate::error::ApiError;

/// The longest request target (path and query), in bytes: longer is `414 uri-too-long`.
/// The API's longest path is a game's page with its query, well under 200 bytes.
pub const MAX_TARGET: usize = 8 * 1024;

/// The largest request head (request line and headers), in bytes: larger is
/// `431 headers-too-large`. A browser's head is under 2 KiB here (this server sets one
/// small cookie).
pub const MAX_HEAD: usize = 16 * 1024;

/// The most header fields a request may have (then `431 headers-too-large`).
pub const MAX_HEADERS: usize = 64;

/// The length of the request message that `buf` starts with (its head and its body), once
/// its head is complete; `None` while the head is not; the error to answer when the head
/// is refused: a target byte that is not visible ASCII (`400 invalid-path`), a target
/// over [`MAX_TARGET`] (`414 uri-too-long`), a head over [`MAX_HEAD`] or with more than
/// [`MAX_HEADERS`] fields (`431 headers-too-large`), a body without `Content-Length`
/// (`411 length-required`: chunked bodies are not taken), a `Content-Length` over
/// `max_body` (`413 body-too-large`), or a head that is not HTTP/1 (`400 bad-request`).
///
/// ```
/// use agon_web::net::head::message_length;
/// let get = b"GET /api/health HTTP/1.1\r\nHost: a\r\n\r\n";
/// assert_eq!(message_length(get, 4096), Ok(Some(get.len())));
/// assert_eq!(message_length(&get[..20], 4096), Ok(None));
/// let post = b"POST /api/games HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}";
/// assert_eq!(message_length(post, 4096), Ok(Some(post.len())));
/// let name = |buf: &[u8]| message_length(buf, 4096).unwrap_err().name;
/// assert_eq!(name(b"GET /\xff HTTP/1.1\r\n\r\n"), "invalid-path");
/// assert_eq!(name(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"), "length-required");
/// assert_eq!(name(b"POST / HTTP/1.1\r\nContent-Length: 5000\r\n\r\n"), "body-too-large");
/// assert_eq!(name(&[b"GET /".as_slice(), &[b'a'; 9000]].concat()), "uri-too-long");
/// ```
pub fn message_length(buf: &[u8], max_body: usize) -> Result<Option<usize>, ApiError> {
    Ok(frame(buf, max_body)?.map(|frame| frame.len))
}

/// A request head read: the length of its whole message, and where its
/// `Expect: 100-continue` field stands, if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Frame {
    /// The length of the request message (head and body), as [`message_length`] says.
    pub len: usize,
    /// The bytes of an HTTP/1.1 `Expect: 100-continue` line (its name to its line end):
    /// the client waits for a `100 Continue` before it sends the body.
    pub expect_continue: Option<std::ops::Range<usize>>,
}

/// [`message_length`], with where the head's `Expect: 100-continue` line is.
pub(crate) fn frame(buf: &[u8], max_body: usize) -> Result<Option<Frame>, ApiError> {
    frame_with(buf, |_| max_body)
}

/// [`frame`], with the largest body chosen by the request's target (its path and query).
pub(crate) fn frame_with(
    buf: &[u8],
    max_body: impl Fn(&str) -> usize,
) -> Result<Option<Frame>, ApiError> {
    // A server ignores empty lines before a request line (RFC 9112, 2.2).
    let start = buf
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    let buf = &buf[start..];
    let line_end = buf.iter().position(|&b| b == b'\n');
    check_target(&buf[..line_end.unwrap_or(buf.len())])?;
    let Some(head_len) = head_end(buf) else {
        if buf.len() > MAX_HEAD {
            return Err(too_large(format!(
                "the request head is over {MAX_HEAD} bytes"
            )));
        }
        return Ok(None);
    };
    if head_len > MAX_HEAD {
        return Err(too_large(format!(
            "the request head is over {MAX_HEAD} bytes"
        )));
    }
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut request = httparse::Request::new(&mut headers);
    match request.parse(&buf[..head_len]) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(malformed()),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(too_large(format!(
                "the request has more than {MAX_HEADERS} header fields"
            )))
        }
        Err(_) => return Err(malformed()),
    }
    // What hyper will make of the target: refused here rather than with an empty body.
    if Uri::try_from(request.path.unwrap_or_default()).is_err() {
        return Err(invalid_path());
    }
    let mut length: Option<u64> = None;
    let mut expect_continue = None;
    for header in request.headers.iter() {
        // HTTP/1.0 has no 100 (Continue): its clients never wait for one.
        if header.name.eq_ignore_ascii_case("expect")
            && header.value.eq_ignore_ascii_case(b"100-continue")
            && request.version == Some(1)
        {
            // The field's place in `buf`, from its name to the end of its line.
            let from = header.name.as_ptr() as usize - buf.as_ptr() as usize;
            let value_end =
                header.value.as_ptr() as usize - buf.as_ptr() as usize + header.value.len();
            let to = buf[value_end..head_len]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(head_len, |i| value_end + i + 1);
            expect_continue = Some(start + from..start + to);
        }
        if header.name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(ApiError::new(
                StatusCode::LENGTH_REQUIRED,
                "length-required",
                "a request body needs a Content-Length (chunked bodies are not taken)",
            ));
        }
        if header.name.eq_ignore_ascii_case("content-length") {
            let value = std::str::from_utf8(header.value)
                .ok()
                .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|v| v.parse::<u64>().ok());
            match (value, length) {
                (Some(v), None) => length = Some(v),
                (Some(v), Some(l)) if v == l => {}
                _ => {
                    return Err(ApiError::new(
                        StatusCode::BAD_REQUEST,
                        "bad-request",
                        "the Content-Length is not one decimal number",
                    ))
                }
            }
        }
    }
    let body = length.unwrap_or(0);
    let max_body = max_body(request.path.unwrap_or_default());
    if body > max_body as u64 {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body-too-large",
            format!("the body is over {max_body} bytes"),
        ));
    }
    Ok(Some(Frame {
        len: start + head_len + body as usize,
        expect_continue,
    }))
}

/// The length of the head `buf` starts with, up to and with its empty line.
fn head_end(buf: &[u8]) -> Option<usize> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Checks the target of a request line, whole or in part: only visible ASCII, at most
/// [`MAX_TARGET`] bytes.
fn check_target(line: &[u8]) -> Result<(), ApiError> {
    let Some(space) = line.iter().position(|&b| b == b' ') else {
        // The method alone so far; a method as long as a target is no method.
        return match line.len() > MAX_TARGET {
            true => Err(malformed()),
            false => Ok(()),
        };
    };
    let rest = &line[space + 1..];
    let target = &rest[..rest
        .iter()
        .position(|&b| b == b' ' || b == b'\r')
        .unwrap_or(rest.len())];
    if target.iter().any(|&b| !(0x21..=0x7e).contains(&b)) {
        return Err(invalid_path());
    }
    if target.len() > MAX_TARGET {
        return Err(ApiError::new(
            StatusCode::URI_TOO_LONG,
            "uri-too-long",
            format!("the path and query are over {MAX_TARGET} bytes"),
        ));
    }
    Ok(())
}

fn invalid_path() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "invalid-path",
        "the path holds a byte that is not allowed (other bytes than visible ASCII are \
         percent-encoded)",
    )
}

fn too_large(message: String) -> ApiError {
    ApiError::new(
        StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        "headers-too-large",
        message,
    )
}

fn malformed() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "bad-request",
        "the request head is not HTTP/1.1",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(buf: &[u8]) -> &'static str {
        message_length(buf, 4096).unwrap_err().name
    }

    #[test]
    fn a_bad_byte_is_refused_before_the_line_ends() {
        assert_eq!(name(b"GET /a\xffb"), "invalid-path");
        assert_eq!(name(b"GET /a\tb HTTP/1.1\r\n\r\n"), "invalid-path");
        assert_eq!(message_length(b"GET /abc", 4096), Ok(None));
    }

    #[test]
    fn sizes_and_lengths() {
        let mut big = b"GET / HTTP/1.1\r\nX: ".to_vec();
        big.extend(std::iter::repeat_n(b'a', MAX_HEAD));
        assert_eq!(name(&big), "headers-too-large");
        let many: String = (0..=MAX_HEADERS).map(|i| format!("h{i}: v\r\n")).collect();
        assert_eq!(
            name(format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()),
            "headers-too-large"
        );
        let twice = b"POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n";
        assert_eq!(name(twice), "bad-request");
        assert_eq!(
            name(b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"),
            "bad-request"
        );
        assert_eq!(name(b"GET / HTTP/2.0\r\n\r\n"), "bad-request");
        // A body not yet all here: the length is known, the caller waits for the rest.
        let post = b"\r\nPOST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n{}";
        assert_eq!(message_length(post, 4096), Ok(Some(post.len() + 8)));
        // Two pipelined requests: the first one's length.
        let two = b"GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n";
        assert_eq!(message_length(two, 4096), Ok(Some(19)));
    }

    #[test]
    fn the_expect_line_is_found_in_http_1_1_only() {
        let post = b"\r\nPOST / HTTP/1.1\r\nexpect:  100-Continue\r\nContent-Length: 2\r\n\r\n";
        let framed = frame(post, 4096).unwrap().unwrap();
        assert_eq!(framed.len, post.len() + 2);
        let line = framed.expect_continue.unwrap();
        assert_eq!(&post[line], b"expect:  100-Continue\r\n");
        let old = b"POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n";
        assert_eq!(frame(old, 4096).unwrap().unwrap().expect_continue, None);
        let other = b"POST / HTTP/1.1\r\nExpect: something\r\nContent-Length: 2\r\n\r\n";
        assert_eq!(frame(other, 4096).unwrap().unwrap().expect_continue, None);
    }
}
