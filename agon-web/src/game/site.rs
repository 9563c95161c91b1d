//! The site's own origin ([`SiteOrigin`]): the scheme, host and port people reach the
//! server at. It is configured (`--origin`), never read from a request's headers: the
//! passkeys' relying party (its id is the host), the check that a state-changing request
//! comes from the site itself, and the session cookie's `Secure` flag all rest on it.
//!
//! ```
//! use agon_web::game::site::SiteOrigin;
//! let site = SiteOrigin::parse("https://agon.example").unwrap();
//! assert_eq!((site.as_str(), site.host(), site.https()), ("https://agon.example", "agon.example", true));
//! ```

use std::net::SocketAddr;

/// A site's origin: `http` or `https`, a host name (lower case) and the port when it is
/// not the scheme's default, written as browsers write an `Origin` header.
///
/// ```
/// use agon_web::game::site::SiteOrigin;
/// let local = SiteOrigin::of_addr("127.0.0.1:8080".parse().unwrap());
/// assert_eq!(local.as_str(), "http://localhost:8080");
/// assert!(!local.https());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteOrigin {
    origin: String,
    host: String,
    https: bool,
}

impl SiteOrigin {
    /// Reads `http[s]://HOST[:PORT]` (a trailing `/` allowed): the host a domain name of
    /// ASCII letters, digits, `-` and `.`, or `localhost`; no path, query, user or IP
    /// literal (a passkey's relying party is a domain). Any other text is an error
    /// saying why.
    ///
    /// ```
    /// use agon_web::game::site::SiteOrigin;
    /// assert_eq!(SiteOrigin::parse("HTTPS://Agon.Example:443/").unwrap().as_str(), "https://agon.example");
    /// assert_eq!(SiteOrigin::parse("http://localhost:3000").unwrap().as_str(), "http://localhost:3000");
    /// for bad in ["agon.example", "ftp://agon.example", "https://agon.example/play", "https://a b", "https://", "https://x:0", "https://x:99999"] {
    ///     assert!(SiteOrigin::parse(bad).is_err(), "{bad}");
    /// }
    /// ```
    pub fn parse(text: &str) -> Result<SiteOrigin, String> {
        let lower = text.to_ascii_lowercase();
        let (https, rest) = if let Some(rest) = lower.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = lower.strip_prefix("http://") {
            (false, rest)
        } else {
            return Err(format!(
                "an origin begins with http:// or https://: {text:?}"
            ));
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        let (host, port) = match rest.split_once(':') {
            Some((host, port)) => {
                let port: u16 = port
                    .parse()
                    .ok()
                    .filter(|&p| p > 0 && port.bytes().all(|b| b.is_ascii_digit()))
                    .ok_or_else(|| format!("not a port: {port:?}"))?;
                (host, Some(port))
            }
            None => (rest, None),
        };
        let label_ok = |label: &str| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        };
        let numeric = host.bytes().all(|b| b.is_ascii_digit() || b == b'.');
        if host.is_empty() || host.len() > 253 || numeric || !host.split('.').all(label_ok) {
            return Err(format!(
                "the origin's host must be a domain name (not an IP address, no path): {text:?}"
            ));
        }
        Ok(SiteOrigin::new(https, host, port))
    }

    /// The origin of a server reached at `addr` directly, over plain HTTP: a loopback or
    /// unspecified address is `localhost` (what a browser on the same machine is pointed
    /// at, and a secure context for passkeys). Another address is written as it is, and
    /// passkeys need `--origin` there.
    ///
    /// ```
    /// use agon_web::game::site::SiteOrigin;
    /// assert_eq!(SiteOrigin::of_addr("0.0.0.0:80".parse().unwrap()).as_str(), "http://localhost");
    /// assert_eq!(SiteOrigin::of_addr("192.0.2.7:8080".parse().unwrap()).as_str(), "http://192.0.2.7:8080");
    /// ```
    pub fn of_addr(addr: SocketAddr) -> SiteOrigin {
        let ip = addr.ip();
        let host = match ip.is_loopback() || ip.is_unspecified() {
            true => "localhost".to_string(),
            false => match ip {
                std::net::IpAddr::V4(v4) => v4.to_string(),
                std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            },
        };
        SiteOrigin::new(false, &host, Some(addr.port()))
    }

    fn new(https: bool, host: &str, port: Option<u16>) -> SiteOrigin {
        let scheme = if https { "https" } else { "http" };
        let default = if https { 443 } else { 80 };
        let origin = match port {
            Some(port) if port != default => format!("{scheme}://{host}:{port}"),
            _ => format!("{scheme}://{host}"),
        };
        SiteOrigin {
            origin,
            host: host.to_string(),
            https,
        }
    }

    /// The origin as a browser's `Origin` header writes it.
    pub fn as_str(&self) -> &str {
        &self.origin
    }

    /// The host: the passkeys' relying party id.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Whether the site is served over HTTPS (cookies then get `Secure`).
    pub fn https(&self) -> bool {
        self.https
    }
}

impl std::fmt::Display for SiteOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.origin)
    }
}
