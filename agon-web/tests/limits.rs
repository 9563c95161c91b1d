//! The rate limits, through the real router: a spent burst answers `429 rate-limited` with
//! `Retry-After` and changes nothing, other addresses keep theirs, the global cap, refill,
//! `X-Forwarded-For` only behind a trusted proxy, IPv6 by /64, the bound on the table, and
//! the actions weighted by cost (a move against easy 1 token, a hint 4, a move against hard
//! 11: `limits::cost`), charged before any search.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use agon_web::limits::{cost, ClientKey, Kind, LimitConfig, Limiter, Quota, RateLimits};
use agon_web::{app, AppState, Config, Level, Store};
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

    /// A new game of the person playing `side` against the computer at `level`, created
    /// from `from` (creations are not actions): its id and token.
    async fn game(&self, side: &str, level: &str, from: From<'_>) -> (String, String) {
        let body = json!({"side": side, "level": level});
        let created = self.post("/api/games", body, from).await;
        assert_eq!(created.status, StatusCode::CREATED, "{}", created.body);
        let field = |name: &str| created.body[name].as_str().unwrap().to_string();
        (field("id"), field("token"))
    }

    /// The person's first legal move in game `id`, with or without the computer's reply.
    async fn first_move(&self, id: &str, token: &str, reply: bool, from: From<'_>) -> Answer {
        let state = self.get(&format!("/api/games/{id}")).await;
        let first = state["legal_moves"][0].as_str().expect("a legal move");
        let body = json!({"token": token, "move": first, "reply": reply});
        self.post(&format!("/api/games/{id}/moves"), body, from)
            .await
    }

    /// How many searches of `kind` (a level, or `hint`) the server ran, by its metrics.
    async fn searches(&self, kind: &str) -> u64 {
        let request = Request::get("/metrics").body(Body::empty()).unwrap();
        let response = self.app.clone().oneshot(request).await.unwrap();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        let name = format!("agon_search_seconds_count{{kind=\"{kind}\"}} ");
        text.lines()
            .find_map(|line| line.strip_prefix(&name))
            .map_or(0, |n| n.trim().parse().unwrap())
    }

    async fn count_games(&self) -> i64 {
        self.store.counts().await.unwrap().0
    }
}

impl Answer {
    /// Checks that the rate limit refused an action costing `cost` before its search:
    /// still `searches.1` searches of kind `searches.0`, and the game `game.0` as it was
    /// (`game.1`).
    async fn refused_before_search(
        &self,
        s: &Server,
        cost: u32,
        searches: (&str, u64),
        game: (&str, &Value),
    ) {
        self.limited();
        let message = self.body["message"].as_str().unwrap();
        assert!(message.contains(&format!("costs {cost}")), "{message}");
        assert_eq!(
            s.searches(searches.0).await,
            searches.1,
            "no search when refused"
        );
        assert_eq!(&s.get(&format!("/api/games/{}", game.0)).await, game.1);
    }

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

/// The documented weights: what a hint and a hard move cost against a cheap action.
const EASY: u32 = 1;
const HINT: u32 = 4;
const HARD: u32 = 11;

/// An action budget of 22 tokens that does not refill within a test (one an hour).
fn budget_of_22() -> LimitConfig {
    only(None, Some("1/h:22".parse().unwrap()))
}

#[test]
fn the_weights_are_the_documented_ones() {
    assert_eq!(cost(Level::Easy.expected_ms()), EASY);
    assert_eq!(cost(Level::Medium.expected_ms()), EASY);
    assert_eq!(cost(Level::Hard.expected_ms()), HARD);
    assert_eq!(cost(agon_web::api::HINT_COST_MS), HINT);
}

#[tokio::test]
async fn twenty_two_easy_moves_pass_where_a_twenty_third_is_refused() {
    let s = server(budget_of_22());
    let me = peer("192.0.2.1:4000");
    let (mut id, mut token) = s.game("white", "easy", me).await;
    for n in 0..22 / EASY {
        let over = s.get(&format!("/api/games/{id}")).await["outcome"].is_object();
        if over {
            // A short game: go on in another (creating is not an action).
            (id, token) = s.game("white", "easy", me).await;
        }
        let moved = s.first_move(&id, &token, true, me).await;
        assert_eq!(moved.status, StatusCode::OK, "move {n}: {}", moved.body);
    }
    let before = s.get(&format!("/api/games/{id}")).await;
    s.first_move(&id, &token, true, me).await.limited();
    assert_eq!(s.get(&format!("/api/games/{id}")).await, before);
}

#[tokio::test]
async fn five_hints_spend_what_twenty_easy_moves_do_and_a_refused_one_changes_nothing() {
    let s = server(budget_of_22());
    let me = peer("192.0.2.1:4000");
    let (id, token) = s.game("white", "easy", me).await;
    let hint = format!("/api/games/{id}/hint");
    for _ in 0..22 / HINT {
        let answer = s.post(&hint, json!({"token": token}), me).await;
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    }
    assert_eq!(s.searches("hint").await, 5);
    // Two tokens are left, a hint costs four: refused before the search.
    let before = s.get(&format!("/api/games/{id}")).await;
    let refused = s.post(&hint, json!({"token": token}), me).await;
    refused
        .refused_before_search(&s, 4, ("hint", 5), (&id, &before))
        .await;
    // The refused hint took nothing: the two tokens left pay two moves against easy.
    for _ in 0..2 {
        assert_eq!(
            s.first_move(&id, &token, true, me).await.status,
            StatusCode::OK
        );
    }
    s.first_move(&id, &token, true, me).await.limited();
    // Another address has its own budget.
    let other = peer("192.0.2.2:4000");
    assert_eq!(
        s.post(&hint, json!({"token": token}), other).await.status,
        StatusCode::OK
    );
}

#[tokio::test]
async fn two_hard_moves_spend_the_budget_and_the_third_is_refused_before_its_search() {
    let s = server(budget_of_22());
    let me = peer("192.0.2.1:4000");
    let (id, token) = s.game("white", "hard", me).await;
    for n in 0..22 / HARD {
        let moved = s.first_move(&id, &token, true, me).await;
        assert_eq!(moved.status, StatusCode::OK, "{}", moved.body);
        assert_eq!(
            moved.body["moves"].as_array().unwrap().len(),
            2 * (n as usize + 1)
        );
    }
    assert_eq!(s.searches("hard").await, 2);
    let before = s.get(&format!("/api/games/{id}")).await;
    let refused = s.first_move(&id, &token, true, me).await;
    refused
        .refused_before_search(&s, 11, ("hard", 2), (&id, &before))
        .await;
    // Every action is refused now, a cheap one too: the budget is spent.
    s.first_move(&id, &token, false, me).await.limited();
}

#[tokio::test]
async fn the_computers_move_at_hard_costs_a_hard_move_and_one_without_reply_one_token() {
    let s = server(budget_of_22());
    let me = peer("192.0.2.1:4000");
    // The computer opens as white: a creation, not charged to the actions.
    let (id, token) = s.game("black", "hard", me).await;
    let computer = format!("/api/games/{id}/computer");
    // 1 + 11 + 1 = 13 of 22: nine are left, under a hard move's eleven.
    assert_eq!(
        s.first_move(&id, &token, false, me).await.status,
        StatusCode::OK
    );
    let asked = s.post(&computer, json!({"token": token}), me).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.body);
    assert_eq!(
        s.first_move(&id, &token, false, me).await.status,
        StatusCode::OK
    );
    let searched = s.searches("hard").await;
    let before = s.get(&format!("/api/games/{id}")).await;
    s.post(&computer, json!({"token": token}), me)
        .await
        .limited();
    assert_eq!(s.searches("hard").await, searched);
    assert_eq!(s.get(&format!("/api/games/{id}")).await, before);
    // The refusal took nothing: the nine tokens left pay nine cheap actions.
    for _ in 0..9 {
        assert_eq!(s.probe(me).await, 404);
    }
    assert_eq!(s.probe(me).await, 429);
}

#[tokio::test]
async fn the_actions_charged_by_the_service_cost_a_token_on_an_unknown_game_too() {
    // One token for the move, one for the computer, four for the hint.
    let s = server(only(None, Some("1/h:6".parse().unwrap())));
    let me = peer("192.0.2.1:4000");
    for (action, body) in [
        ("moves", json!({"token": "x", "move": "f1-e1"})),
        ("computer", json!({"token": "x"})),
        ("hint", json!({"token": "x"})),
    ] {
        let uri = format!("/api/games/0000000000000000/{action}");
        let answer = s.post(&uri, body, me).await;
        assert_eq!(
            answer.status,
            StatusCode::NOT_FOUND,
            "{action}: {}",
            answer.body
        );
    }
    // The whole budget is spent.
    assert_eq!(s.probe(me).await, 429);
}
