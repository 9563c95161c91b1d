//! Rate limits: a token bucket per client address and a global one for each kind of
//! request that writes, answered `429 rate-limited` with `Retry-After`.
//!
//! Two kinds of request are limited ([`Kind`]): creating a game (`POST /api/games`, and
//! `POST /api/games/{id}/join` and `/rematch`) and acting in one (every other
//! `POST /api/games/{id}/...`: moves, the computer, hints, undo, resign, draw and takeback
//! offers and answers; and `POST /api/analysis`, the engine's analysis of a position).
//! Reading is not limited. A request passes when both its address's
//! bucket and the global bucket of its kind hold its cost in tokens; it then takes them
//! from each. A refused request takes nothing and changes nothing.
//!
//! Actions are weighted by cost ([`cost`]): one token for the request, and one more for
//! each [`SEARCH_MS_PER_TOKEN`] of search the action asks for, so a move against easy or
//! medium costs 1, a hint 4 and a move or the computer's reply at hard 11. The cost of a
//! move depends on its game (its level, whether the computer replies), so the actions that
//! may search (`moves`, `computer`, `hint`: [`charged_by_handler`]) are charged by the
//! service once it has read the game and before any work or change (a game review's
//! request, `review`, by its handler: 11 tokens), through the [`Charge`]
//! this middleware hands them; every other limited request is charged here, one token,
//! before its handler runs.
//!
//! The client is the socket's peer address ([`ConnectInfo`]) or, behind a reverse proxy
//! that is trusted (`--trust-proxy`), the last address of `X-Forwarded-For` (the one the
//! proxy appended). An IPv6 client is keyed by its /64 network, since one host commonly
//! holds a whole /64. A request without a known peer (in-process tests) counts as one
//! unknown client.
//!
//! Memory is bounded: each table holds at most [`LimitConfig::max_addresses`] addresses.
//! When it is full, the entries whose bucket has refilled (they hold nothing an absent
//! entry would not) are dropped, at most once a second; if none has, new addresses share
//! one overflow bucket until there is room, so many addresses cannot grow the table, and
//! the global bucket bounds them all anyway.
//!
//! Written here rather than taken from a crate: `governor`'s keyed limiter has no bound on
//! its table (only a `retain_recent` to call by hand), and the whole of what is needed
//! (two buckets checked together, the wait for `Retry-After`, the bound, a clock passed
//! in for tests) is about a hundred lines.

use std::collections::HashMap;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::game::lobby::SeekBounds;

/// How many milliseconds of a search worker's time one token of the action budget
/// pays for, beyond the request itself (see [`cost`]).
///
/// Why 150 ms: the hard level's deadline ([`crate::Level::HARD_BUDGET`], 1.5 s) is then
/// 10 tokens, so that with the default action limit (5 a second, 20 at once) one address
/// may start two hard searches at once and then one every 2.2 s: a person playing the
/// hard level, whose every move waits about a second for the reply, is not held up, while
/// one address cannot keep more than about half a search worker busy. The cheap requests
/// (a move against easy or medium, whose search takes well under a millisecond, an undo,
/// an offer) keep the cost of one token, so the budget of people playing them is as
/// before.
pub const SEARCH_MS_PER_TOKEN: usize = 150;

/// What an action costs of its address's budget, in tokens: one for the request and one
/// for each whole [`SEARCH_MS_PER_TOKEN`] of the search it asks for (`search_ms`: what the
/// search workers' queue counts for it, [`crate::Level::expected_ms`] for the computer's
/// reply). The weights this gives, with the measured search times, are in the README
/// ("Rate limits").
///
/// ```
/// use agon_web::limits::cost;
/// use agon_web::Level;
/// assert_eq!(cost(0), 1);
/// assert_eq!(cost(Level::Easy.expected_ms()), 1);
/// assert_eq!(cost(Level::Medium.expected_ms()), 1);
/// assert_eq!(cost(Level::Hard.expected_ms()), 11);
/// assert_eq!(cost(agon_web::api::HINT_COST_MS), 4);
/// ```
pub const fn cost(search_ms: usize) -> u32 {
    let tokens = 1 + search_ms / SEARCH_MS_PER_TOKEN;
    if tokens > u32::MAX as usize {
        u32::MAX
    } else {
        tokens as u32
    }
}

/// A rate and a burst: `count` requests every `period` on average, and up to `burst` at
/// once. Its text form is `COUNT/UNIT[:BURST]` with the unit `s`, `min` or `h` (the burst
/// is the count when left out).
///
/// ```
/// use agon_web::limits::Quota;
/// let quota: Quota = "10/min:20".parse()?;
/// assert_eq!(quota, Quota::per_minute(10, 20));
/// assert_eq!(quota.to_string(), "10/min:20");
/// assert_eq!("5/s".parse::<Quota>()?, Quota::per_second(5, 5));
/// assert!("0/s".parse::<Quota>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    /// How many requests a `period`, on average.
    pub count: u32,
    /// The period of `count`.
    pub period: Duration,
    /// How many requests may come at once (the bucket's size).
    pub burst: u32,
}

impl Quota {
    /// `count` a second, `burst` at once.
    ///
    /// ```
    /// assert_eq!(agon_web::limits::Quota::per_second(5, 20).to_string(), "5/s:20");
    /// ```
    pub const fn per_second(count: u32, burst: u32) -> Quota {
        Quota {
            count,
            period: Duration::from_secs(1),
            burst,
        }
    }

    /// `count` a minute, `burst` at once.
    ///
    /// ```
    /// assert_eq!(agon_web::limits::Quota::per_minute(10, 20).to_string(), "10/min:20");
    /// ```
    pub const fn per_minute(count: u32, burst: u32) -> Quota {
        Quota {
            count,
            period: Duration::from_secs(60),
            burst,
        }
    }

    /// Tokens added a second.
    fn rate(&self) -> f64 {
        f64::from(self.count) / self.period.as_secs_f64()
    }

    /// The bucket's size, at least one token.
    fn size(&self) -> f64 {
        f64::from(self.burst.max(1))
    }
}

impl FromStr for Quota {
    type Err = String;

    fn from_str(text: &str) -> Result<Quota, String> {
        let wrong = || format!("not a rate like 10/min:20 (COUNT/s|min|h[:BURST]): {text:?}");
        let (rate, burst) = match text.split_once(':') {
            Some((rate, burst)) => (rate, Some(burst)),
            None => (text, None),
        };
        let (count, unit) = rate.split_once('/').ok_or_else(wrong)?;
        let number = |s: &str| match s.trim().parse::<u32>() {
            Ok(n) if (1..=1_000_000).contains(&n) => Ok(n),
            _ => Err(wrong()),
        };
        let count = number(count)?;
        let period = match unit.trim() {
            "s" | "sec" | "second" => Duration::from_secs(1),
            "m" | "min" | "minute" => Duration::from_secs(60),
            "h" | "hour" => Duration::from_secs(3600),
            _ => return Err(wrong()),
        };
        let burst = burst.map(number).transpose()?.unwrap_or(count);
        Ok(Quota {
            count,
            period,
            burst,
        })
    }
}

impl fmt::Display for Quota {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.period.as_secs() {
            1 => "s".to_string(),
            60 => "min".to_string(),
            3600 => "h".to_string(),
            _ => format!("{}ms", self.period.as_millis()),
        };
        write!(f, "{}/{unit}:{}", self.count, self.burst)
    }
}

/// The rate limits of a server (`--create-limit`, `--create-global`, `--action-limit`,
/// `--action-global`, `--seeks-per-player`, `--seeks-per-address`, `--limit-addresses`,
/// `--trust-proxy`); `None` turns a limit off.
///
/// ```
/// use agon_web::limits::{LimitConfig, Quota};
/// let limits = LimitConfig::default();
/// assert_eq!(limits.create, Some(Quota::per_minute(10, 20)));
/// assert_eq!(limits.action, Some(Quota::per_second(5, 20)));
/// assert_eq!((limits.seeks_per_player, limits.seeks_per_address), (Some(3), Some(6)));
/// assert!(!limits.trust_proxy);
/// assert_eq!(LimitConfig::off().create, None);
/// assert_eq!(LimitConfig::off().seeks_per_address, None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LimitConfig {
    /// Games created by one address.
    pub create: Option<Quota>,
    /// Games created by everyone together.
    pub create_global: Option<Quota>,
    /// Actions in games (moves, the computer, hints, undo, resign, draw and takeback
    /// offers and answers) by one address.
    pub action: Option<Quota>,
    /// Actions by everyone together.
    pub action_global: Option<Quota>,
    /// The most open seeks and direct challenges of one player (an account, or a guest's
    /// browser) at once (`409 too-many-seeks` past it).
    pub seeks_per_player: Option<u32>,
    /// The most open seeks and direct challenges posted from one address at once.
    pub seeks_per_address: Option<u32>,
    /// The most addresses each table remembers.
    pub max_addresses: usize,
    /// Whether the client is the last address of `X-Forwarded-For` (behind a reverse
    /// proxy that appends it) rather than the socket's peer.
    pub trust_proxy: bool,
}

impl Default for LimitConfig {
    fn default() -> LimitConfig {
        LimitConfig {
            create: Some(Quota::per_minute(10, 20)),
            create_global: Some(Quota::per_minute(300, 100)),
            action: Some(Quota::per_second(5, 20)),
            action_global: Some(Quota::per_second(500, 1000)),
            seeks_per_player: Some(3),
            seeks_per_address: Some(6),
            max_addresses: 50_000,
            trust_proxy: false,
        }
    }
}

impl LimitConfig {
    /// No limit at all (a load test, or a server only its owner reaches).
    ///
    /// ```
    /// assert_eq!(agon_web::limits::LimitConfig::off().action_global, None);
    /// ```
    pub fn off() -> LimitConfig {
        LimitConfig {
            create: None,
            create_global: None,
            action: None,
            action_global: None,
            seeks_per_player: None,
            seeks_per_address: None,
            ..LimitConfig::default()
        }
    }
}

/// Who a request counts against: an IPv4 address, an IPv6 /64 network, or the one
/// unknown client of requests without a peer address.
///
/// ```
/// use agon_web::limits::ClientKey;
/// let a: std::net::IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
/// let b: std::net::IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
/// assert_eq!(ClientKey::of(a), ClientKey::of(b));
/// let mapped: std::net::IpAddr = "::ffff:192.0.2.7".parse().unwrap();
/// assert_eq!(ClientKey::of(mapped), ClientKey::V4("192.0.2.7".parse().unwrap()));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientKey {
    /// No peer address is known.
    Unknown,
    /// An IPv4 client.
    V4(Ipv4Addr),
    /// An IPv6 client's /64 network (the address's first 64 bits).
    V6(u64),
    /// A bot's API token (the first 64 bits of its digest): the Bot API is limited per
    /// token, whatever address its program runs at ([`ClientKey::of_bearer`]).
    Token(u64),
}

impl ClientKey {
    /// The key of an address (an IPv4-mapped IPv6 address is its IPv4 one).
    pub fn of(ip: IpAddr) -> ClientKey {
        match ip.to_canonical() {
            IpAddr::V4(v4) => ClientKey::V4(v4),
            IpAddr::V6(v6) => ClientKey::V6((v6.to_bits() >> 64) as u64),
        }
    }

    /// The API token of a Bot API request (`/api/bot/...`, `/api/challenge/...`) in its
    /// `Authorization: Bearer` header, as a key, or `None` (another path, or no token).
    /// Whether the token is a living one is the handler's to check: a made-up one is
    /// refused there, and still counts against the global bucket here.
    ///
    /// ```
    /// use agon_web::limits::ClientKey;
    /// use axum::http::HeaderMap;
    /// let mut headers = HeaderMap::new();
    /// assert_eq!(ClientKey::of_bearer(&headers, "/api/bot/stream/event"), None);
    /// headers.insert("authorization", "Bearer agon_abc".parse().unwrap());
    /// let key = ClientKey::of_bearer(&headers, "/api/bot/game/0011223344556677/move/f1-e1");
    /// assert!(matches!(key, Some(ClientKey::Token(_))));
    /// assert_eq!(ClientKey::of_bearer(&headers, "/api/challenge/0011223344556677/accept"), key);
    /// assert_eq!(ClientKey::of_bearer(&headers, "/api/games"), None);
    /// ```
    pub fn of_bearer(headers: &HeaderMap, path: &str) -> Option<ClientKey> {
        if !(path.starts_with("/api/bot/") || path.starts_with("/api/challenge/")) {
            return None;
        }
        let token = bearer(headers)?;
        let digest = crate::ids::digest(token);
        let mut first = [0; 8];
        first.copy_from_slice(&digest[..8]);
        Some(ClientKey::Token(u64::from_be_bytes(first)))
    }

    /// The client of a request: the last address of `X-Forwarded-For` when the proxy is
    /// trusted and it holds one, else the peer's address, else [`ClientKey::Unknown`].
    ///
    /// ```
    /// use agon_web::limits::ClientKey;
    /// use axum::http::HeaderMap;
    /// let mut headers = HeaderMap::new();
    /// headers.insert("x-forwarded-for", "203.0.113.9, 198.51.100.4".parse().unwrap());
    /// let peer = Some("127.0.0.1:5000".parse().unwrap());
    /// let proxied = ClientKey::V4("198.51.100.4".parse().unwrap());
    /// assert_eq!(ClientKey::of_request(&headers, peer, true), proxied);
    /// let direct = ClientKey::V4("127.0.0.1".parse().unwrap());
    /// assert_eq!(ClientKey::of_request(&headers, peer, false), direct);
    /// assert_eq!(ClientKey::of_request(&HeaderMap::new(), None, false), ClientKey::Unknown);
    /// ```
    pub fn of_request(
        headers: &HeaderMap,
        peer: Option<SocketAddr>,
        trust_proxy: bool,
    ) -> ClientKey {
        let forwarded = || {
            let last = headers.get_all("x-forwarded-for").iter().next_back()?;
            let item = last.to_str().ok()?.rsplit(',').next()?.trim();
            item.parse::<IpAddr>()
                .ok()
                .or_else(|| item.parse::<SocketAddr>().ok().map(|s| s.ip()))
        };
        match (trust_proxy.then(forwarded).flatten(), peer) {
            (Some(ip), _) => ClientKey::of(ip),
            (None, Some(peer)) => ClientKey::of(peer.ip()),
            (None, None) => ClientKey::Unknown,
        }
    }
}

/// The text of a request's `Authorization: Bearer` header (the scheme in any case), if
/// it has one.
///
/// ```
/// use axum::http::HeaderMap;
/// let mut headers = HeaderMap::new();
/// headers.insert("authorization", "bearer agon_xyz".parse().unwrap());
/// assert_eq!(agon_web::limits::bearer(&headers), Some("agon_xyz"));
/// headers.insert("authorization", "Basic abc".parse().unwrap());
/// assert_eq!(agon_web::limits::bearer(&headers), None);
/// ```
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// A token bucket: `tokens` as of `at`.
#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn full(quota: &Quota, now: Instant) -> Bucket {
        Bucket {
            tokens: quota.size(),
            at: now,
        }
    }

    /// Adds the tokens earned since `at`; answers how long until `need` tokens are there.
    fn refill(&mut self, quota: &Quota, need: f64, now: Instant) -> Option<Duration> {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * quota.rate()).min(quota.size());
        self.at = self.at.max(now);
        (self.tokens < need).then(|| Duration::from_secs_f64((need - self.tokens) / quota.rate()))
    }
}

/// Where a client's bucket is: in the table, or the shared overflow one.
enum Slot {
    Table,
    Overflow,
}

struct Buckets {
    table: HashMap<ClientKey, Bucket>,
    overflow: Bucket,
    global: Bucket,
    last_purge: Option<Instant>,
}

/// The buckets of one kind of request: one per client (at most `max_addresses`) and a
/// global one. The clock is passed in, so that tests need not wait.
///
/// ```
/// use std::time::{Duration, Instant};
/// use agon_web::limits::{ClientKey, Limiter, Quota};
/// let limiter = Limiter::new(Some(Quota::per_second(1, 2)), None, 100);
/// let (me, now) = (ClientKey::Unknown, Instant::now());
/// assert!(limiter.check(me, now).is_ok());
/// assert!(limiter.check(me, now).is_ok());
/// // The burst is spent: a token comes back in a second.
/// assert_eq!(limiter.check(me, now), Err(Duration::from_secs(1)));
/// assert!(limiter.check(me, now + Duration::from_secs(1)).is_ok());
/// ```
pub struct Limiter {
    each: Option<Quota>,
    global: Option<Quota>,
    max_addresses: usize,
    buckets: Mutex<Buckets>,
}

impl Limiter {
    /// A limiter with a quota for each client and one for all (`None`: no such limit),
    /// remembering at most `max_addresses` clients.
    pub fn new(each: Option<Quota>, global: Option<Quota>, max_addresses: usize) -> Limiter {
        let now = Instant::now();
        let unlimited = Quota::per_second(1, 1);
        Limiter {
            each,
            global,
            max_addresses,
            buckets: Mutex::new(Buckets {
                table: HashMap::new(),
                overflow: Bucket::full(&each.unwrap_or(unlimited), now),
                global: Bucket::full(&global.unwrap_or(unlimited), now),
                last_purge: None,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Buckets> {
        // A panic elsewhere cannot leave the buckets inconsistent: each is two numbers.
        self.buckets.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many clients the table remembers now.
    ///
    /// ```
    /// use agon_web::limits::{ClientKey, Limiter, Quota};
    /// let limiter = Limiter::new(Some(Quota::per_second(1, 1)), None, 10);
    /// let _ = limiter.check(ClientKey::Unknown, std::time::Instant::now());
    /// assert_eq!(limiter.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.lock().table.len()
    }

    /// Whether the table remembers no client.
    ///
    /// ```
    /// let limiter = agon_web::limits::Limiter::new(None, None, 10);
    /// assert!(limiter.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Takes a token for `client` at `now`, or answers how long to wait for one (and
    /// takes nothing): [`Limiter::take`] of one token.
    pub fn check(&self, client: ClientKey, now: Instant) -> Result<(), Duration> {
        self.take(client, 1, now)
    }

    /// Takes `tokens` for `client` at `now` from both its bucket and the global one, or
    /// answers how long to wait until both hold them (and takes nothing). A cost above a
    /// bucket's size takes the whole bucket (it waits for the bucket to be full), so that
    /// no request is refused for good.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use agon_web::limits::{ClientKey, Limiter, Quota};
    /// let limiter = Limiter::new(Some(Quota::per_second(2, 10)), None, 100);
    /// let (me, now) = (ClientKey::Unknown, Instant::now());
    /// assert!(limiter.take(me, 4, now).is_ok());
    /// assert!(limiter.take(me, 4, now).is_ok());
    /// // Two tokens left: four more come in a second, and the refusal took nothing.
    /// assert_eq!(limiter.take(me, 4, now), Err(Duration::from_secs(1)));
    /// assert!(limiter.take(me, 2, now).is_ok());
    /// // Above the bucket's size: the whole bucket, full in five seconds.
    /// assert_eq!(limiter.take(me, 50, now), Err(Duration::from_secs(5)));
    /// ```
    pub fn take(&self, client: ClientKey, tokens: u32, now: Instant) -> Result<(), Duration> {
        let mut buckets = self.lock();
        let buckets = &mut *buckets;
        let need = |quota: &Quota| f64::from(tokens).min(quota.size());
        let mut wait = Duration::ZERO;
        let slot = self.each.map(|quota| {
            let slot = self.slot(buckets, client, &quota, now);
            let bucket = match slot {
                Slot::Table => buckets.table.get_mut(&client),
                Slot::Overflow => Some(&mut buckets.overflow),
            };
            if let Some(w) = bucket.and_then(|b| b.refill(&quota, need(&quota), now)) {
                wait = wait.max(w);
            }
            slot
        });
        if let Some(w) = self
            .global
            .and_then(|q| buckets.global.refill(&q, need(&q), now))
        {
            wait = wait.max(w);
        }
        if !wait.is_zero() {
            return Err(wait);
        }
        if let Some(quota) = self.global {
            buckets.global.tokens -= need(&quota);
        }
        let bucket = match slot {
            Some(Slot::Table) => buckets.table.get_mut(&client),
            Some(Slot::Overflow) => Some(&mut buckets.overflow),
            None => None,
        };
        if let (Some(bucket), Some(quota)) = (bucket, self.each) {
            bucket.tokens -= need(&quota);
        }
        Ok(())
    }

    /// Finds or makes room for `client`'s bucket.
    fn slot(&self, buckets: &mut Buckets, client: ClientKey, quota: &Quota, now: Instant) -> Slot {
        if buckets.table.contains_key(&client) {
            return Slot::Table;
        }
        let recent = buckets
            .last_purge
            .is_some_and(|at| now.saturating_duration_since(at) < Duration::from_secs(1));
        if buckets.table.len() >= self.max_addresses && !recent {
            // A full bucket says nothing that a missing one does not.
            buckets.table.retain(|_, bucket| {
                bucket.refill(quota, 1.0, now);
                bucket.tokens < quota.size()
            });
            buckets.last_purge = Some(now);
        }
        if buckets.table.len() < self.max_addresses {
            buckets.table.insert(client, Bucket::full(quota, now));
            Slot::Table
        } else {
            Slot::Overflow
        }
    }
}

/// The kinds of request that are limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Creating a game: `POST /api/games`, `POST /api/games/{id}/join` or `/rematch`;
    /// and beginning a sign-up or a sign-in, or signing in with a recovery code
    /// (`POST /api/account/signup/options`, `/signin/options`, `/recover`): accounts
    /// made, and codes guessed, from one address are bounded alike; and every change of
    /// the lobby (`POST /api/lobby/...`: seeks, challenges, quick pairing, accepting,
    /// cancelling, declining), a bot's too (`POST /api/bot/seek`,
    /// `POST /api/challenge/...`).
    Create,
    /// Any other `POST /api/games/{id}/...`: a move, the computer, a hint, undo, resign, a
    /// draw or takeback offer or answer; and an analysis (`POST /api/analysis`); and a
    /// bot's (`POST /api/bot/game/...`).
    Action,
}

impl Kind {
    /// The kind of a request, or `None` when it is not limited.
    ///
    /// ```
    /// use agon_web::limits::Kind;
    /// use axum::http::Method;
    /// assert_eq!(Kind::of(&Method::POST, "/api/games"), Some(Kind::Create));
    /// assert_eq!(Kind::of(&Method::POST, "/api/games/0011223344556677/rematch"), Some(Kind::Create));
    /// assert_eq!(Kind::of(&Method::POST, "/api/games/0011223344556677/moves"), Some(Kind::Action));
    /// assert_eq!(Kind::of(&Method::GET, "/api/games/0011223344556677"), None);
    /// assert_eq!(Kind::of(&Method::POST, "/api/account/recover"), Some(Kind::Create));
    /// assert_eq!(Kind::of(&Method::POST, "/api/account/signout"), None);
    /// assert_eq!(Kind::of(&Method::POST, "/api/analysis"), Some(Kind::Action));
    /// assert_eq!(Kind::of(&Method::POST, "/api/records/read"), Some(Kind::Action));
    /// assert_eq!(Kind::of(&Method::POST, "/api/lobby/seeks"), Some(Kind::Create));
    /// assert_eq!(Kind::of(&Method::GET, "/api/lobby/events"), None);
    /// assert_eq!(Kind::of(&Method::POST, "/api/bot/seek"), Some(Kind::Create));
    /// assert_eq!(Kind::of(&Method::POST, "/api/challenge/0011223344556677/accept"), Some(Kind::Create));
    /// assert_eq!(Kind::of(&Method::POST, "/api/bot/game/0011223344556677/resign"), Some(Kind::Action));
    /// ```
    pub fn of(method: &Method, path: &str) -> Option<Kind> {
        if method != Method::POST {
            return None;
        }
        if path == "/api/games" {
            return Some(Kind::Create);
        }
        // The analysis board's requests: the engine's (charged by its cost), and the
        // board's and the records' (a record may be 128 KiB to read).
        if path == "/api/analysis"
            || path == "/api/analysis/board"
            || path.starts_with("/api/records/")
        {
            return Some(Kind::Action);
        }
        if path.starts_with("/api/lobby/")
            || path == "/api/bot/seek"
            || path.starts_with("/api/challenge/")
        {
            return Some(Kind::Create);
        }
        if path.starts_with("/api/bot/game/") {
            return Some(Kind::Action);
        }
        if matches!(
            path,
            "/api/account/signup/options" | "/api/account/signin/options" | "/api/account/recover"
        ) {
            return Some(Kind::Create);
        }
        let rest = path.strip_prefix("/api/games/")?;
        match rest.split_once('/') {
            Some((_, "join" | "rematch")) => Some(Kind::Create),
            _ => Some(Kind::Action),
        }
    }
}

/// The server's limits: a [`Limiter`] for each [`Kind`].
pub struct RateLimits {
    create: Limiter,
    action: Limiter,
    seeks: SeekBounds,
    trust_proxy: bool,
}

impl RateLimits {
    /// The limits of `config`.
    ///
    /// ```
    /// use agon_web::limits::{ClientKey, Kind, LimitConfig, RateLimits};
    /// let limits = RateLimits::new(&LimitConfig::default());
    /// let now = std::time::Instant::now();
    /// for _ in 0..20 {
    ///     assert!(limits.check(Kind::Create, ClientKey::Unknown, now).is_ok());
    /// }
    /// let refused = limits.check(Kind::Create, ClientKey::Unknown, now).unwrap_err();
    /// assert_eq!((refused.status.as_u16(), refused.name, refused.retry_after), (429, "rate-limited", Some(6)));
    /// ```
    pub fn new(config: &LimitConfig) -> RateLimits {
        let max = config.max_addresses;
        RateLimits {
            create: Limiter::new(config.create, config.create_global, max),
            action: Limiter::new(config.action, config.action_global, max),
            seeks: SeekBounds {
                per_player: config.seeks_per_player,
                per_address: config.seeks_per_address,
            },
            trust_proxy: config.trust_proxy,
        }
    }

    /// The most open seeks a player and an address may have at once.
    ///
    /// ```
    /// use agon_web::limits::{LimitConfig, RateLimits};
    /// let config = LimitConfig { seeks_per_player: Some(1), ..LimitConfig::off() };
    /// let bounds = RateLimits::new(&config).seek_bounds();
    /// assert_eq!((bounds.per_player, bounds.per_address), (Some(1), None));
    /// ```
    pub fn seek_bounds(&self) -> SeekBounds {
        self.seeks
    }

    /// Whether the client is the last address of `X-Forwarded-For` (`--trust-proxy`).
    ///
    /// ```
    /// use agon_web::limits::{LimitConfig, RateLimits};
    /// assert!(!RateLimits::new(&LimitConfig::default()).trust_proxy());
    /// ```
    pub fn trust_proxy(&self) -> bool {
        self.trust_proxy
    }

    /// The limiter of one kind of request.
    pub fn limiter(&self, kind: Kind) -> &Limiter {
        match kind {
            Kind::Create => &self.create,
            Kind::Action => &self.action,
        }
    }

    /// Takes a token for a request of `kind` by `client`, or answers `429 rate-limited`
    /// with the seconds to wait (whole, at least one) as `retry_after`.
    ///
    /// ```
    /// use agon_web::limits::{ClientKey, Kind, LimitConfig, Quota, RateLimits};
    /// let config = LimitConfig { action: Some(Quota::per_second(5, 1)), ..LimitConfig::off() };
    /// let limits = RateLimits::new(&config);
    /// let now = std::time::Instant::now();
    /// assert!(limits.check(Kind::Action, ClientKey::Unknown, now).is_ok());
    /// let refused = limits.check(Kind::Action, ClientKey::Unknown, now).unwrap_err();
    /// assert_eq!(refused.retry_after, Some(1));
    /// // Creating is another kind, with its own buckets (and no limit here).
    /// assert!(limits.check(Kind::Create, ClientKey::Unknown, now).is_ok());
    /// ```
    pub fn check(&self, kind: Kind, client: ClientKey, now: Instant) -> Result<(), ApiError> {
        self.take(kind, client, 1, now)
    }

    /// Takes `tokens` (the request's [`cost`]) for a request of `kind` by `client`, or
    /// answers `429 rate-limited` with the seconds until they are there.
    ///
    /// ```
    /// use agon_web::limits::{ClientKey, Kind, LimitConfig, Quota, RateLimits};
    /// let config = LimitConfig { action: Some(Quota::per_second(5, 20)), ..LimitConfig::off() };
    /// let limits = RateLimits::new(&config);
    /// let now = std::time::Instant::now();
    /// assert!(limits.take(Kind::Action, ClientKey::Unknown, 11, now).is_ok());
    /// let refused = limits.take(Kind::Action, ClientKey::Unknown, 11, now).unwrap_err();
    /// assert_eq!(refused.retry_after, Some(1));
    /// assert!(refused.message.contains("costs 11"));
    /// // The refusal took nothing: nine tokens are left.
    /// assert!(limits.take(Kind::Action, ClientKey::Unknown, 9, now).is_ok());
    /// ```
    pub fn take(
        &self,
        kind: Kind,
        client: ClientKey,
        tokens: u32,
        now: Instant,
    ) -> Result<(), ApiError> {
        self.limiter(kind).take(client, tokens, now).map_err(|wait| {
            let seconds = wait.as_secs_f64().ceil().clamp(1.0, f64::from(u32::MAX)) as u32;
            let what = match kind {
                Kind::Create => "new games, seeks or sign-ins",
                Kind::Action => "actions",
            };
            let message = match tokens {
                1 => format!("too many {what}: try again in {seconds} s"),
                _ => format!(
                    "too many {what} (this one costs {tokens} of the budget): try again in {seconds} s"
                ),
            };
            ApiError {
                retry_after: Some(seconds),
                ..ApiError::new(StatusCode::TOO_MANY_REQUESTS, "rate-limited", message)
            }
        })
    }
}

/// Whether the cost of the action at `path` (a `POST` of [`Kind::Action`]) depends on
/// what the action asks of the computer, so that its handler charges it ([`Charge`])
/// once the game is read: a move (the computer's reply, at the game's level), the
/// computer's move, a hint; and an analysis, charged by the budget it asks for.
///
/// ```
/// use agon_web::limits::charged_by_handler;
/// assert!(charged_by_handler("/api/games/0011223344556677/moves"));
/// assert!(charged_by_handler("/api/games/0011223344556677/hint"));
/// assert!(!charged_by_handler("/api/games/0011223344556677/resign"));
/// assert!(!charged_by_handler("/api/games/0011223344556677/moves/extra"));
/// assert!(charged_by_handler("/api/analysis"));
/// assert!(charged_by_handler("/api/games/0011223344556677/review"));
/// ```
pub fn charged_by_handler(path: &str) -> bool {
    if path == "/api/analysis" {
        return true;
    }
    if let Some(rest) = path.strip_prefix("/api/bot/game/") {
        return matches!(rest.split('/').nth(1), Some("move"));
    }
    let Some(rest) = path.strip_prefix("/api/games/") else {
        return false;
    };
    matches!(
        rest.split_once('/'),
        Some((_, "moves" | "computer" | "hint" | "review"))
    )
}

/// The action budget of a request's client, handed by the middleware to the handlers of
/// the actions [`charged_by_handler`]: they [`Charge::take`] the action's [`cost`] once
/// they know it, before searching or changing anything.
///
/// ```
/// use std::sync::Arc;
/// use agon_web::limits::{Charge, ClientKey, LimitConfig, Quota, RateLimits};
/// let config = LimitConfig { action: Some(Quota::per_minute(1, 12)), ..LimitConfig::off() };
/// let charge = Charge::new(Arc::new(RateLimits::new(&config)), ClientKey::Unknown);
/// assert!(charge.take(11).is_ok());
/// assert_eq!(charge.take(11).unwrap_err().status.as_u16(), 429);
/// assert!(charge.take(1).is_ok());
/// ```
#[derive(Clone)]
pub struct Charge {
    limits: Arc<RateLimits>,
    client: ClientKey,
}

impl Charge {
    /// The budget of `client` under `limits`.
    pub fn new(limits: Arc<RateLimits>, client: ClientKey) -> Charge {
        Charge { limits, client }
    }

    /// Takes `tokens` of the action budget now, or answers `429 rate-limited` (and takes
    /// nothing).
    pub fn take(&self, tokens: u32) -> Result<(), ApiError> {
        self.limits
            .take(Kind::Action, self.client, tokens, Instant::now())
    }
}

/// The middleware: refuses a limited request over its limits before any handler runs, or,
/// for the actions whose cost depends on their game ([`charged_by_handler`]), hands their
/// handler the client's [`Charge`].
pub(crate) async fn enforce(
    State(limits): State<Arc<RateLimits>>,
    mut request: Request,
    next: Next,
) -> Response {
    let path = request.uri().path();
    if let Some(kind) = Kind::of(request.method(), path) {
        let by_handler = kind == Kind::Action && charged_by_handler(path);
        let peer = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0);
        // The Bot API counts against its token, not its address.
        let client = ClientKey::of_bearer(request.headers(), path)
            .unwrap_or_else(|| ClientKey::of_request(request.headers(), peer, limits.trust_proxy));
        if by_handler {
            let charge = Charge::new(limits.clone(), client);
            request.extensions_mut().insert(charge);
        } else if let Err(e) = limits.check(kind, client, Instant::now()) {
            return e.into_response();
        }
    }
    next.run(request).await
}
