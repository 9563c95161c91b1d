//! The rate limits, through the real router: a spent burst answers `429 rate-limited` with
//! `Retry-After` and changes nothing, other addresses keep theirs, the global cap, refill,
//! `X-Forwarded-For` only behind a trusted proxy, IPv6 by /64, and the bound on the table.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agon_web::limits::{ClientKey, Kind, LimitConfig, Limiter, Quota, RateLimits};
use agon_web::{app, AppState, Config, Store};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

struct Server {
    app: Router,
    store: Arc<Store>,
    limits: Arc<RateLimits>,
    _dir: tempfile::TempDir,
}

struct Answer {
    status: StatusCode,
    retry_after: Option<u64>,
    body: Value,
}

/// A request's origin: its peer (none: in process, no `ConnectInfo`) and the
/// `X-Forwarded-For` it carries.
#[derive(Clone, Copy)]
struct From<'a> {
    peer: Option<&'a str>,
    forwarded: Option<&'a str>,
}

const NOWHERE: From<'static> = From {
    peer: None,
    forwarded: None,
};

fn peer(addr: &str) -> From<'_> {
    From {
        peer: Some(addr),
        forwarded: None,
    }
}

fn proxied<'a>(peer: &'a str, forwarded: &'a str) -> From<'a> {
    From {
        peer: Some(peer),
        forwarded: Some(forwarded),
    }
}

/// A game id that names no game: an action on it is cheap, answers 404 when allowed and
/// 429 when not, and changes nothing either way.
const PROBE: &str = "/api/games/0000000000000000/resign";

fn server(limits: LimitConfig) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: dir.path().join("games.sqlite3").into(),
        workers: 2,
        limits,
        ..Config::default()
    };
    let state = AppState::open(&config).unwrap();
    let (store, limits) = (state.store.clone(), state.limits.clone());
    Server {
        app: app(state),
        store,
        limits,
        _dir: dir,
    }
}

fn only(create: Option<Quota>, action: Option<Quota>) -> LimitConfig {
    LimitConfig {
        create,
        action,
        ..LimitConfig::off()
    }
}

impl Server {
    async fn post(&self, uri: &str, body: Value, from: From<'_>) -> Answer {
        let mut request = Request::post(uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from(body.to_string()))
            .unwrap();
        if let Some(addr) = from.peer {
            let addr: SocketAddr = addr.parse().unwrap();
            request.extensions_mut().insert(ConnectInfo(addr));
        }
        if let Some(forwarded) = from.forwarded {
            request
                .headers_mut()
                .insert("x-forwarded-for", forwarded.parse().unwrap());
        }
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let retry_after = response
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().parse().unwrap());
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            retry_after,
            body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        }
    }

    async fn get(&self, uri: &str) -> Value {
        let request = Request::get(uri).body(Body::empty()).unwrap();
        let response = self.app.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice(&bytes).unwrap()
    }

    async fn create(&self, from: From<'_>) -> Answer {
        let body = json!({"side": "white", "level": "easy"});
        self.post("/api/games", body, from).await
    }

    /// The status of the probe action from `from`.
    async fn probe(&self, from: From<'_>) -> u16 {
        self.post(PROBE, json!({"token": "x"}), from)
            .await
            .status
            .as_u16()
    }

    async fn count_games(&self) -> i64 {
        self.store.counts().await.unwrap().0
    }
}

impl Answer {
    fn limited(&self) {
        assert_eq!(self.status, StatusCode::TOO_MANY_REQUESTS, "{}", self.body);
        assert_eq!(self.body["error"], "rate-limited");
        assert!(self.body["message"].as_str().is_some_and(|m| !m.is_empty()));
        assert!(self.retry_after.is_some_and(|s| s >= 1), "Retry-After");
    }
}

#[tokio::test]
async fn a_spent_burst_is_refused_and_creates_nothing() {
    let s = server(only(Some(Quota::per_minute(1, 2)), None));
    let me = peer("192.0.2.1:4000");
    for _ in 0..2 {
        assert_eq!(s.create(me).await.status, StatusCode::CREATED);
    }
    let refused = s.create(me).await;
    refused.limited();
    // One game a minute: the next token comes in a minute.
    assert_eq!(refused.retry_after, Some(60));
    assert_eq!(
        s.count_games().await,
        2,
        "a refused request creates nothing"
    );
    // Another port of the same address is the same client; another address is not.
    s.create(peer("192.0.2.1:4001")).await.limited();
    assert_eq!(
        s.create(peer("192.0.2.2:4000")).await.status,
        StatusCode::CREATED
    );
    assert_eq!(s.count_games().await, 3);
}

#[tokio::test]
async fn a_refused_move_changes_nothing() {
    let s = server(only(None, Some(Quota::per_minute(1, 2))));
    let me = peer("192.0.2.1:4000");
    let created = s.create(me).await;
    assert_eq!(
        created.status,
        StatusCode::CREATED,
        "creating is not an action"
    );
    let id = created.body["id"].as_str().unwrap().to_string();
    let token = created.body["token"].as_str().unwrap().to_string();
    let moves = format!("/api/games/{id}/moves");
    let first = json!({"token": token, "move": "f1-e1", "reply": false});
    assert_eq!(s.post(&moves, first, me).await.status, StatusCode::OK);
    // A wrong token is refused by the game, and it still counts.
    let wrong = json!({"token": "nope", "move": "e1-d1"});
    assert_eq!(
        s.post(&moves, wrong, me).await.status,
        StatusCode::FORBIDDEN
    );
    let before = s.get(&format!("/api/games/{id}")).await;
    let refused = s
        .post(
            &format!("/api/games/{id}/computer"),
            json!({"token": token}),
            me,
        )
        .await;
    refused.limited();
    // Reading is not limited, and the game did not change.
    assert_eq!(s.get(&format!("/api/games/{id}")).await, before);
    assert_eq!(before["moves"], json!(["f1-e1"]));
    // Actions and creations are counted apart.
    assert_eq!(s.create(me).await.status, StatusCode::CREATED);
}

#[tokio::test]
async fn the_global_cap_holds_across_addresses() {
    let s = server(LimitConfig {
        action: Some(Quota::per_minute(100, 100)),
        action_global: Some(Quota::per_minute(1, 3)),
        ..LimitConfig::off()
    });
    for i in 1..=3 {
        assert_eq!(s.probe(peer(&format!("192.0.2.{i}:80"))).await, 404);
    }
    let refused = s
        .post(PROBE, json!({"token": "x"}), peer("192.0.2.9:80"))
        .await;
    refused.limited();
    assert_eq!(s.probe(peer("192.0.2.1:80")).await, 429);
}

#[tokio::test]
async fn a_bucket_refills() {
    let s = server(only(None, Some(Quota::per_second(20, 1))));
    let me = peer("192.0.2.1:80");
    assert_eq!(s.probe(me).await, 404);
    let refused = s.post(PROBE, json!({"token": "x"}), me).await;
    refused.limited();
    assert_eq!(
        refused.retry_after,
        Some(1),
        "Retry-After is whole seconds, at least 1"
    );
    // One token every 50 ms.
    tokio::time::sleep(Duration::from_millis(80)).await;
    assert_eq!(s.probe(me).await, 404);
}

#[tokio::test]
async fn forwarded_for_counts_only_behind_a_trusted_proxy() {
    let quota = Some(Quota::per_minute(1, 1));
    let direct = server(only(None, quota));
    let proxy = "127.0.0.1:9000";
    assert_eq!(direct.probe(proxied(proxy, "203.0.113.1")).await, 404);
    // Not trusted: the header is ignored and both are the proxy's address.
    assert_eq!(direct.probe(proxied(proxy, "203.0.113.2")).await, 429);

    let behind = server(LimitConfig {
        trust_proxy: true,
        ..only(None, quota)
    });
    assert_eq!(behind.probe(proxied(proxy, "203.0.113.1")).await, 404);
    assert_eq!(behind.probe(proxied(proxy, "203.0.113.2")).await, 404);
    // The last address is the one the proxy appended: what comes before is the client's say.
    assert_eq!(
        behind
            .probe(proxied(proxy, "198.51.100.7, 203.0.113.1"))
            .await,
        429
    );
    assert_eq!(
        behind
            .probe(proxied(proxy, "203.0.113.3, 198.51.100.7"))
            .await,
        404
    );
    // Without the header the peer is the client.
    assert_eq!(behind.probe(peer(proxy)).await, 404);
    assert_eq!(behind.probe(peer(proxy)).await, 429);
}

#[tokio::test]
async fn ipv6_clients_are_keyed_by_their_64() {
    let s = server(only(None, Some(Quota::per_minute(1, 1))));
    assert_eq!(s.probe(peer("[2001:db8:0:1::1]:80")).await, 404);
    assert_eq!(s.probe(peer("[2001:db8:0:1:ffff::2]:80")).await, 429);
    assert_eq!(s.probe(peer("[2001:db8:0:2::1]:80")).await, 404);
}

#[tokio::test]
async fn without_a_peer_address_every_request_is_one_client() {
    let s = server(only(None, Some(Quota::per_minute(1, 2))));
    assert_eq!(s.probe(NOWHERE).await, 404);
    assert_eq!(s.probe(NOWHERE).await, 404);
    assert_eq!(s.probe(NOWHERE).await, 429);
    assert_eq!(s.probe(peer("192.0.2.1:80")).await, 404);
}

#[tokio::test]
async fn many_addresses_do_not_grow_the_table() {
    let s = server(LimitConfig {
        max_addresses: 3,
        trust_proxy: true,
        ..only(None, Some(Quota::per_minute(1, 1)))
    });
    let proxy = "127.0.0.1:9000";
    for i in 1..=3 {
        let client = format!("203.0.113.{i}");
        assert_eq!(s.probe(proxied(proxy, &client)).await, 404);
    }
    // The table is full and no entry is idle: newcomers share one overflow bucket.
    assert_eq!(s.probe(proxied(proxy, "203.0.113.4")).await, 404);
    for i in 5..50 {
        let client = format!("203.0.113.{i}");
        assert_eq!(s.probe(proxied(proxy, &client)).await, 429);
    }
    assert_eq!(s.limits.limiter(Kind::Action).len(), 3);
}

#[test]
fn idle_entries_make_room() {
    let limiter = Limiter::new(Some(Quota::per_second(1, 1)), None, 2);
    let key = |i: u8| ClientKey::V4([192, 0, 2, i].into());
    let t0 = Instant::now();
    assert!(limiter.check(key(1), t0).is_ok());
    assert!(limiter.check(key(2), t0).is_ok());
    // Full: the third shares the overflow bucket, the fourth finds it spent.
    assert!(limiter.check(key(3), t0).is_ok());
    assert_eq!(limiter.check(key(4), t0), Err(Duration::from_secs(1)));
    assert_eq!(limiter.len(), 2);
    // Two seconds on, every bucket has refilled: the idle entries go, the new one comes.
    let t2 = t0 + Duration::from_secs(2);
    assert!(limiter.check(key(5), t2).is_ok());
    assert_eq!(limiter.len(), 1);
    assert_eq!(limiter.check(key(5), t2), Err(Duration::from_secs(1)));
    assert!(limiter.check(key(1), t2).is_ok());
}

#[test]
fn a_refusal_by_one_bucket_takes_nothing_from_the_other() {
    let limiter = Limiter::new(
        Some(Quota::per_minute(1, 1)),
        Some(Quota::per_minute(1, 2)),
        10,
    );
    let (a, b, c) = (
        ClientKey::V4([192, 0, 2, 1].into()),
        ClientKey::V4([192, 0, 2, 2].into()),
        ClientKey::V4([192, 0, 2, 3].into()),
    );
    let now = Instant::now();
    assert!(limiter.check(a, now).is_ok());
    // a's own bucket refuses: the global token stays for b.
    assert!(limiter.check(a, now).is_err());
    assert!(limiter.check(b, now).is_ok());
    // Now the global bucket refuses c, whose own bucket stays full.
    assert!(limiter.check(c, now).is_err());
    let later = now + Duration::from_secs(30);
    // Half a global token after 30 s: still refused; a full one after 60 s, and c's own
    // bucket was never touched.
    assert!(limiter.check(c, later).is_err());
    assert!(limiter.check(c, now + Duration::from_secs(60)).is_ok());
}

#[tokio::test]
async fn the_peer_address_of_a_real_connection_is_used() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config {
        db: dir.path().join("games.sqlite3").into(),
        workers: 1,
        limits: only(None, Some(Quota::per_minute(1, 1))),
        ..Config::default()
    };
    let state = AppState::open(&config).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(agon_web::serve_on(listener, state, async {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::new();
    let probe = || {
        client
            .post(format!("{base}{PROBE}"))
            .json(&json!({"token": "x"}))
            .send()
    };
    assert_eq!(probe().await.unwrap().status().as_u16(), 404);
    let refused = probe().await.unwrap();
    assert_eq!(refused.status().as_u16(), 429);
    assert!(refused.headers().contains_key(header::RETRY_AFTER));
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "rate-limited");
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}
