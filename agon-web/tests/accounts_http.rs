//! Accounts over HTTP (issue 33), on both stores: sign-up with a passkey, who am I,
//! sign-out and sign-in (the session rotated), a second passkey added and removed, a
//! recovery code that works once, sign-out everywhere, deletion; the hostile cases
//! (replayed or forged ceremonies, wrong origins, unknown credentials, malformed and
//! oversized bodies, cross-site requests) and the cookie's exact attributes. The
//! browser's side is a software authenticator (`common/passkey.rs`).

use agon_web::game::site::SiteOrigin;
use agon_web::Config;
use axum::body::Body;
use axum::http::{header, Request};
use serde_json::{json, Value};

#[macro_use]
mod common;
#[path = "common/passkey.rs"]
mod passkey;
use common::{Answer, Api, Backend};
use passkey::Authenticator;

const LOCAL: &str = "http://localhost:8080";

/// A browser on the site: it sends the site's `Origin` (or `origin`) and keeps the
/// session cookie the answers set.
struct Browser<'a> {
    api: &'a Api,
    origin: String,
    cookie: Option<String>,
}

impl<'a> Browser<'a> {
    fn new(api: &'a Api, origin: &str) -> Browser<'a> {
        Browser {
            api,
            origin: origin.to_string(),
            cookie: None,
        }
    }

    async fn send(&mut self, method: &str, uri: &str, body: Option<Value>) -> Answer {
        let mut request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::ORIGIN, &self.origin)
            .header(header::USER_AGENT, "Mozilla/5.0 Firefox/128.0");
        if let Some(cookie) = &self.cookie {
            request = request.header(header::COOKIE, cookie);
        }
        let request = match body {
            Some(body) => request
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string())),
            None => request.body(Body::empty()),
        };
        let answer = self.api.request(request.unwrap()).await;
        if let Some(set) = answer.headers.get(header::SET_COOKIE) {
            let pair = set.to_str().unwrap().split(';').next().unwrap().to_string();
            self.cookie = match pair.ends_with('=') {
                true => None,
                false => Some(pair),
            };
        }
        answer
    }

    async fn post(&mut self, uri: &str, body: Value) -> Answer {
        self.send("POST", uri, Some(body)).await
    }

    /// Sign-up of `name` with `key`: answers the recovery codes.
    async fn sign_up(&mut self, name: &str, key: &mut Authenticator) -> Vec<String> {
        let options = self
            .post("/api/account/signup/options", json!({"username": name}))
            .await
            .ok();
        let credential = key.create(&options["options"], LOCAL);
        let answer = self
            .post("/api/account/signup", json!({"credential": credential}))
            .await;
        assert_eq!(answer.status, 201, "{}", answer.text);
        let body = answer.json();
        assert_eq!(body["username"], name);
        body["recovery_codes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect()
    }

    async fn sign_in_options(&mut self) -> Value {
        self.send("POST", "/api/account/signin/options", None)
            .await
            .ok()["options"]
            .clone()
    }

    async fn sign_in(&mut self, key: &mut Authenticator) -> Answer {
        let options = self.sign_in_options().await;
        let credential = key.get(&options, LOCAL);
        self.post("/api/account/signin", json!({"credential": credential}))
            .await
    }

    async fn me(&mut self) -> Answer {
        self.send("GET", "/api/me", None).await
    }
}

async fn api(backend: Backend, origin: Option<&str>) -> Api {
    let config = Config {
        origin: origin.map(|o| SiteOrigin::parse(o).unwrap()),
        ..Config::default()
    };
    let (state, db) = common::state(backend, config).await;
    Api::new(state, db)
}

/// The whole life of an account, on one store.
async fn an_account_lives_from_sign_up_to_deletion(b: Backend) {
    let api = api(b, None).await;
    let mut browser = Browser::new(&api, LOCAL);
    let mut phone = Authenticator::new(1);
    browser.me().await.error(401, "not-signed-in");

    let codes = browser.sign_up("Zoe", &mut phone).await;
    assert_eq!(codes.len(), 10);
    let code = regex::Regex::new("^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$").unwrap();
    assert!(codes.iter().all(|c| code.is_match(c)), "{codes:?}");
    let first_cookie = browser.cookie.clone().unwrap();
    assert_eq!(
        browser.me().await.ok(),
        json!({"username": "Zoe", "passkeys": 1, "recovery_codes_left": 10})
    );

    // Sign out: the cookie is removed and the session ends even if it is sent again.
    let answer = browser.send("POST", "/api/account/signout", None).await;
    assert_eq!(answer.status, 204);
    assert_eq!(browser.cookie, None);
    browser.me().await.error(401, "not-signed-in");
    browser.cookie = Some(first_cookie.clone());
    browser.me().await.error(401, "not-signed-in");

    // Sign in with the passkey: a new session, and the old cookie sent along ends.
    let answer = browser.sign_in(&mut phone).await;
    assert_eq!(answer.ok(), json!({"username": "Zoe"}));
    let second_cookie = browser.cookie.clone().unwrap();
    assert_ne!(second_cookie, first_cookie);
    let answer = browser.sign_in(&mut phone).await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    let third_cookie = browser.cookie.clone().unwrap();
    assert_ne!(
        third_cookie, second_cookie,
        "each sign-in rotates the session"
    );
    browser.cookie = Some(second_cookie);
    browser.me().await.error(401, "not-signed-in");
    browser.cookie = Some(third_cookie);
    assert_eq!(browser.me().await.ok()["username"], "Zoe");

    // A second passkey: added, listed, then either can be removed but not the last.
    let mut laptop = Authenticator::new(2);
    let options = browser
        .send("POST", "/api/account/passkeys/options", None)
        .await
        .ok();
    let excluded = options["options"]["excludeCredentials"].as_array().unwrap();
    assert_eq!(excluded.len(), 1);
    assert_eq!(excluded[0]["id"], passkey::b64(&phone.credential_id));
    let credential = laptop.create(&options["options"], LOCAL);
    let answer = browser
        .post(
            "/api/account/passkeys",
            json!({"credential": credential, "name": "laptop"}),
        )
        .await;
    assert_eq!(answer.status, 201, "{}", answer.text);
    let added = answer.json();
    assert_eq!(added["id"], passkey::b64(&laptop.credential_id));
    assert_eq!(added["name"], "laptop");
    let list = browser
        .send("GET", "/api/account/passkeys", None)
        .await
        .ok();
    let names: Vec<&str> = list["passkeys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["passkey", "laptop"]);
    assert!(
        list["passkeys"][0]["last_used_ms"].is_i64(),
        "the phone signed in"
    );
    assert!(list["passkeys"][1]["last_used_ms"].is_null());
    // The laptop signs in too.
    assert_eq!(browser.sign_in(&mut laptop).await.status, 200);
    let phone_id = passkey::b64(&phone.credential_id);
    let answer = browser
        .send("DELETE", &format!("/api/account/passkeys/{phone_id}"), None)
        .await;
    assert_eq!(answer.status, 204, "{}", answer.text);
    let laptop_id = passkey::b64(&laptop.credential_id);
    browser
        .send(
            "DELETE",
            &format!("/api/account/passkeys/{laptop_id}"),
            None,
        )
        .await
        .error(409, "last-passkey");
    browser
        .send("DELETE", &format!("/api/account/passkeys/{phone_id}"), None)
        .await
        .error(404, "unknown-passkey");
    // The removed passkey signs in no more.
    let mut other = Browser::new(&api, LOCAL);
    other
        .sign_in(&mut phone)
        .await
        .error(401, "passkey-refused");
    assert_eq!(browser.me().await.ok()["passkeys"], 1);

    // A recovery code signs in once, in any case and spacing.
    let mut lost = Browser::new(&api, LOCAL);
    let typed = codes[3].to_uppercase().replace('-', " ");
    let answer = lost
        .post(
            "/api/account/recover",
            json!({"username": "zoe", "code": typed}),
        )
        .await;
    assert_eq!(answer.ok(), json!({"username": "Zoe"}));
    assert_eq!(lost.me().await.ok()["recovery_codes_left"], 9);
    let mut again = Browser::new(&api, LOCAL);
    again
        .post(
            "/api/account/recover",
            json!({"username": "Zoe", "code": codes[3]}),
        )
        .await
        .error(401, "recovery-refused");
    for (name, code) in [
        ("Nobody", codes[4].as_str()),
        ("Zoe", "0000-0000-0000-0000"),
        ("Zoe", "x"),
    ] {
        again
            .post(
                "/api/account/recover",
                json!({"username": name, "code": code}),
            )
            .await
            .error(401, "recovery-refused");
    }
    // New codes void the old ones.
    let fresh = lost
        .send("POST", "/api/account/recovery-codes", None)
        .await
        .ok();
    let fresh: Vec<String> = fresh["recovery_codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(fresh.len(), 10);
    again
        .post(
            "/api/account/recover",
            json!({"username": "Zoe", "code": codes[5]}),
        )
        .await
        .error(401, "recovery-refused");

    // Sign out everywhere: both browsers' sessions end.
    let answer = lost
        .send("POST", "/api/account/signout-everywhere", None)
        .await;
    assert_eq!(answer.status, 204);
    browser.me().await.error(401, "not-signed-in");
    lost.me().await.error(401, "not-signed-in");

    // Delete: signed in again, and proven by a fresh assertion of one of its own
    // passkeys (not another account's, not the session alone), the account goes; its
    // name stays taken.
    assert_eq!(browser.sign_in(&mut laptop).await.status, 200);
    let answer = browser.send("DELETE", "/api/account", None).await;
    answer.error(415, "unsupported-media-type");
    let mut max = Browser::new(&api, LOCAL);
    let mut maxs = Authenticator::new(7);
    max.sign_up("Max", &mut maxs).await;
    let options = browser.sign_in_options().await;
    let credential = maxs.get(&options, LOCAL);
    browser
        .send(
            "DELETE",
            "/api/account",
            Some(json!({"credential": credential})),
        )
        .await
        .error(403, "wrong-passkey");
    assert_eq!(browser.me().await.ok()["username"], "Zoe");
    let options = browser.sign_in_options().await;
    let credential = laptop.get(&options, LOCAL);
    let answer = browser
        .send(
            "DELETE",
            "/api/account",
            Some(json!({"credential": credential})),
        )
        .await;
    assert_eq!(answer.status, 204, "{}", answer.text);
    assert_eq!(
        max.me().await.ok()["username"],
        "Max",
        "only Zoe's account went"
    );
    assert_eq!(browser.cookie, None);
    let mut after = Browser::new(&api, LOCAL);
    after
        .sign_in(&mut laptop)
        .await
        .error(401, "passkey-refused");
    after
        .post(
            "/api/account/recover",
            json!({"username": "Zoe", "code": fresh[0]}),
        )
        .await
        .error(401, "recovery-refused");
    after
        .post("/api/account/signup/options", json!({"username": "z0e"}))
        .await
        .error(409, "username-taken");
    let deleted = api.store.account_by_key("zoe").await.unwrap().unwrap();
    assert!(deleted.deleted_ms.is_some());
}

/// Names are checked at sign-up; a taken name (or a look-alike) is refused at the start
/// and, taken meanwhile, at the finish.
async fn names_are_checked_and_taken_names_refused(b: Backend) {
    let api = api(b, None).await;
    let mut browser = Browser::new(&api, LOCAL);
    for (name, error) in [
        ("ab", "username-too-short"),
        ("a23456789012345678901", "username-too-long"),
        ("zoé", "username-bad-character"),
        ("1zoe", "username-bad-start"),
        ("zoe-", "username-bad-end"),
        ("zo--e", "username-double-separator"),
        ("Adm1n", "username-reserved"),
    ] {
        browser
            .post("/api/account/signup/options", json!({"username": name}))
            .await
            .error(400, error);
    }
    browser
        .post("/api/account/signup/options", json!({"name": "Zoe"}))
        .await
        .error(400, "malformed-json");
    // Two sign-ups of look-alike names begun at once: the second to finish is refused.
    let first = browser
        .post("/api/account/signup/options", json!({"username": "Ilya"}))
        .await
        .ok();
    let second = browser
        .post("/api/account/signup/options", json!({"username": "llya"}))
        .await
        .ok();
    let mut one = Authenticator::new(1);
    let mut two = Authenticator::new(2);
    let credential = one.create(&first["options"], LOCAL);
    let answer = browser
        .post("/api/account/signup", json!({"credential": credential}))
        .await;
    assert_eq!(answer.status, 201, "{}", answer.text);
    let mut late = Browser::new(&api, LOCAL);
    let credential = two.create(&second["options"], LOCAL);
    late.post("/api/account/signup", json!({"credential": credential}))
        .await
        .error(409, "username-taken");
    assert_eq!(late.cookie, None);
    late.post("/api/account/signup/options", json!({"username": "ILYA"}))
        .await
        .error(409, "username-taken");
}

/// Forged, replayed and malformed ceremonies are refused, and refused alike.
async fn hostile_ceremonies_are_refused(b: Backend) {
    let api = api(b, None).await;
    let mut browser = Browser::new(&api, LOCAL);
    let mut key = Authenticator::new(1);
    let options = browser
        .post("/api/account/signup/options", json!({"username": "Zoe"}))
        .await
        .ok();
    let options = &options["options"];
    assert_eq!(options["rp"]["id"], "localhost");
    assert_eq!(options["authenticatorSelection"]["residentKey"], "required");
    assert_eq!(
        options["authenticatorSelection"]["userVerification"],
        "required"
    );
    assert_eq!(options["attestation"], "none");
    // credProtect is asked, not enforced (that would fail on authenticators without it).
    assert_eq!(
        options["extensions"]["credentialProtectionPolicy"],
        "userVerificationRequired"
    );
    assert_ne!(
        options["extensions"]["enforceCredentialProtectionPolicy"],
        true
    );
    // A wrong origin in the signed client data.
    let forged = Authenticator::client_data(
        "create",
        options["challenge"].as_str().unwrap(),
        "https://evil.example",
    );
    let credential = key.create_with(options, &forged);
    browser
        .post("/api/account/signup", json!({"credential": credential}))
        .await
        .error(400, "passkey-refused");
    // The ceremony was used up by that attempt: the right answer now finds none.
    let credential = key.create(options, LOCAL);
    browser
        .post("/api/account/signup", json!({"credential": credential}))
        .await
        .error(400, "unknown-ceremony");
    // A challenge the server never sent.
    let options = browser
        .post("/api/account/signup/options", json!({"username": "Zoe"}))
        .await
        .ok();
    let options = &options["options"];
    let wrong = Authenticator::client_data("create", &passkey::b64(&[7; 16]), LOCAL);
    let credential = key.create_with(options, &wrong);
    browser
        .post("/api/account/signup", json!({"credential": credential}))
        .await
        .error(400, "unknown-ceremony");
    // Malformed credentials.
    for credential in [json!({}), json!({"id": 5}), json!("x"), json!(null)] {
        browser
            .post("/api/account/signup", json!({"credential": credential}))
            .await
            .error(400, "malformed-credential");
    }
    let answer = api
        .post_raw(
            "/api/account/signup",
            "application/json",
            "{\"credential\": ",
        )
        .await;
    // The plain client sends no Origin: refused before its body is read.
    answer.error(403, "cross-site");
    browser.cookie = None;
    let request = Request::post("/api/account/signup")
        .header(header::ORIGIN, LOCAL)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from("{\"credential\": "))
        .unwrap();
    api.request(request).await.error(400, "malformed-json");
    // An oversized body.
    let big = json!({"credential": {"id": "x".repeat(5000)}});
    browser
        .post("/api/account/signup", big)
        .await
        .error(413, "body-too-large");
    // The right answer signs up; its replay finds no ceremony.
    let credential = key.create(options, LOCAL);
    let answer = browser
        .post(
            "/api/account/signup",
            json!({"credential": credential.clone()}),
        )
        .await;
    assert_eq!(answer.status, 201, "{}", answer.text);
    browser
        .post("/api/account/signup", json!({"credential": credential}))
        .await
        .error(400, "unknown-ceremony");

    // Sign-in: an unknown credential, a wrong origin, a replayed assertion, a
    // registration ceremony's challenge.
    let mut stranger = Authenticator::new(9);
    browser
        .sign_in(&mut stranger)
        .await
        .error(401, "passkey-refused");
    let options = browser.sign_in_options().await;
    assert!(options
        .get("allowCredentials")
        .is_none_or(|a| a == &json!([])));
    let forged = Authenticator::client_data(
        "get",
        options["challenge"].as_str().unwrap(),
        "http://localhost:8081",
    );
    let credential = key.get_with(&options, &forged);
    browser
        .post("/api/account/signin", json!({"credential": credential}))
        .await
        .error(401, "passkey-refused");
    let options = browser.sign_in_options().await;
    let credential = key.get(&options, LOCAL);
    let answer = browser
        .post(
            "/api/account/signin",
            json!({"credential": credential.clone()}),
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.text);
    browser
        .post("/api/account/signin", json!({"credential": credential}))
        .await
        .error(400, "unknown-ceremony");
    let creation = browser
        .send("POST", "/api/account/passkeys/options", None)
        .await
        .ok();
    let mut options = browser.sign_in_options().await;
    options["challenge"] = creation["options"]["challenge"].clone();
    let credential = key.get(&options, LOCAL);
    browser
        .post("/api/account/signin", json!({"credential": credential}))
        .await
        .error(400, "unknown-ceremony");
    // Another account's ceremony cannot add a passkey to this one.
    let mut other = Browser::new(&api, LOCAL);
    other.sign_up("Max", &mut Authenticator::new(5)).await;
    let theirs = other
        .send("POST", "/api/account/passkeys/options", None)
        .await
        .ok();
    let credential = Authenticator::new(6).create(&theirs["options"], LOCAL);
    browser
        .post("/api/account/passkeys", json!({"credential": credential}))
        .await
        .error(400, "unknown-ceremony");
}

/// The session cookie's attributes, exactly; `Secure` and the `__Host-` name only when
/// the configured origin is HTTPS.
async fn the_session_cookie_is_exactly_as_documented(b: Backend) {
    let api = api(b, None).await;
    let mut browser = Browser::new(&api, LOCAL);
    let options = browser
        .post("/api/account/signup/options", json!({"username": "Zoe"}))
        .await
        .ok();
    let credential = Authenticator::new(1).create(&options["options"], LOCAL);
    let answer = browser
        .post("/api/account/signup", json!({"credential": credential}))
        .await;
    let set = answer.headers[header::SET_COOKIE].to_str().unwrap();
    let cookie = regex::Regex::new(
        "^agon_session=[0-9a-hjkmnp-tv-z]{32}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax$",
    )
    .unwrap();
    assert!(cookie.is_match(set), "{set}");
    assert_eq!(answer.headers.get_all(header::SET_COOKIE).iter().count(), 1);
    let answer = browser.send("POST", "/api/account/signout", None).await;
    assert_eq!(
        answer.headers[header::SET_COOKIE],
        "agon_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"
    );

    let public = "https://agon.example";
    let api = self::api(b, Some(public)).await;
    let mut browser = Browser::new(&api, public);
    let options = browser
        .post("/api/account/signup/options", json!({"username": "Zoe"}))
        .await
        .ok();
    assert_eq!(options["options"]["rp"]["id"], "agon.example");
    let credential = Authenticator::new(1).create(&options["options"], public);
    let answer = browser
        .post("/api/account/signup", json!({"credential": credential}))
        .await;
    let set = answer.headers[header::SET_COOKIE].to_str().unwrap();
    let cookie = regex::Regex::new(
        "^__Host-agon_session=[0-9a-hjkmnp-tv-z]{32}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax; Secure$",
    )
    .unwrap();
    assert!(cookie.is_match(set), "{set}");
    assert_eq!(browser.me().await.ok()["username"], "Zoe");
    // A forwarded-proto header does not make a plain-HTTP site's cookie Secure.
    let api = self::api(b, None).await;
    let request = Request::post("/api/account/signup/options")
        .header(header::ORIGIN, LOCAL)
        .header("x-forwarded-proto", "https")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(json!({"username": "Zoe"}).to_string()))
        .unwrap();
    let options = api.request(request).await.ok();
    assert_eq!(options["options"]["rp"]["id"], "localhost");
}

/// Cross-site requests that change something are refused when they carry the session
/// cookie or go to `/api/account`; the site's own, and cookie-less API clients, pass.
async fn cross_site_requests_are_refused(b: Backend) {
    let api = api(b, None).await;
    let mut browser = Browser::new(&api, LOCAL);
    browser.sign_up("Zoe", &mut Authenticator::new(1)).await;
    let cookie = browser.cookie.clone().unwrap();
    let game = json!({"side": "white", "level": "easy"}).to_string();
    let post = |uri: &str, headers: &[(&str, &str)], body: &str| {
        let mut request = Request::post(uri).header(header::CONTENT_TYPE, "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(Body::from(body.to_string())).unwrap()
    };
    let refused: Vec<Vec<(&str, &str)>> = vec![
        vec![("cookie", &cookie), ("origin", "https://evil.example")],
        vec![("cookie", &cookie), ("origin", "null")],
        vec![
            ("cookie", &cookie),
            ("origin", "null"),
            ("sec-fetch-site", "cross-site"),
        ],
        vec![("cookie", &cookie)],
        vec![("cookie", &cookie), ("sec-fetch-site", "cross-site")],
        vec![("cookie", &cookie), ("sec-fetch-site", "same-site")],
        vec![
            ("cookie", &cookie),
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "same-origin"),
        ],
        vec![("cookie", &cookie), ("origin", "http://localhost:8081")],
        vec![("cookie", &cookie), ("origin", "https://localhost:8080")],
    ];
    for headers in &refused {
        api.request(post("/api/games", headers, &game))
            .await
            .error(403, "cross-site");
        api.request(post("/api/account/signout-everywhere", headers, ""))
            .await
            .error(403, "cross-site");
    }
    // The account's routes need the site's origin even without a cookie (no sign-in
    // into someone else's account from another site).
    api.request(post(
        "/api/account/recover",
        &[("origin", "https://evil.example")],
        "{}",
    ))
    .await
    .error(403, "cross-site");
    // A method no route takes is 405 before any check of the origin (and a path no
    // route has, 404).
    for method in ["PUT", "TRACE"] {
        let request = Request::builder()
            .method(method)
            .uri("/api/account")
            .header("cookie", &cookie)
            .header("origin", "https://evil.example")
            .body(Body::empty())
            .unwrap();
        api.request(request).await.error(405, "method-not-allowed");
    }
    api.request(post(
        "/api/account/nothing",
        &[("origin", "https://evil.example")],
        "{}",
    ))
    .await
    .error(404, "not-found");
    // Still signed in: none of those did anything.
    assert_eq!(browser.me().await.ok()["username"], "Zoe");
    // Reading is not refused; the site's own requests and cookie-less clients pass.
    let read = Request::get("/api/me")
        .header("cookie", &cookie)
        .header("origin", "https://evil.example")
        .body(Body::empty())
        .unwrap();
    assert_eq!(api.request(read).await.ok()["username"], "Zoe");
    for headers in [
        vec![("cookie", cookie.as_str()), ("origin", LOCAL)],
        vec![
            ("cookie", cookie.as_str()),
            ("sec-fetch-site", "same-origin"),
        ],
        // The page's own fetch under Referrer-Policy: no-referrer.
        vec![
            ("cookie", cookie.as_str()),
            ("origin", "null"),
            ("sec-fetch-site", "same-origin"),
        ],
        vec![("origin", "https://evil.example")],
        vec![],
    ] {
        let answer = api.request(post("/api/games", &headers, &game)).await;
        assert_eq!(answer.status, 201, "{headers:?}: {}", answer.text);
    }
}

/// Sign-ups and sign-ins begun and recovery codes tried count against the creation
/// limit of the address (`--create-limit`).
async fn sign_ins_and_codes_are_rate_limited(b: Backend) {
    let config = Config {
        limits: agon_web::limits::LimitConfig {
            create: Some(agon_web::limits::Quota::per_minute(1, 3)),
            ..Default::default()
        },
        ..Config::default()
    };
    let (state, db) = common::state(b, config).await;
    let api = Api::new(state, db);
    let mut browser = Browser::new(&api, LOCAL);
    let guess = json!({"username": "Zoe", "code": "0000-0000-0000-0000"});
    browser
        .post("/api/account/recover", guess.clone())
        .await
        .error(401, "recovery-refused");
    browser
        .post("/api/account/signup/options", json!({"username": "Zoe"}))
        .await
        .ok();
    browser.sign_in_options().await;
    let answer = browser.post("/api/account/recover", guess).await;
    answer.error(429, "rate-limited");
    assert!(answer.headers.contains_key(header::RETRY_AFTER));
}

/// A guest who signs in during a game claims their seat by its token: the seat is the
/// account's, once; another account cannot take it; a finished game is not claimed.
async fn a_guest_claims_their_seat_by_signing_in(b: Backend) {
    let api = api(b, None).await;
    // Two guests play a friend game.
    let (id, white, _) = api
        .create(json!({"side": "white", "opponent": "friend"}))
        .await;
    let joined = api
        .post(&format!("/api/games/{id}/join"), json!({}))
        .await
        .ok();
    let black = joined["token"].as_str().unwrap().to_string();
    let claim = format!("/api/games/{id}/claim");
    let mut zoe = Browser::new(&api, LOCAL);
    zoe.post(&claim, json!({"token": white}))
        .await
        .error(401, "not-signed-in");
    zoe.sign_up("Zoe", &mut Authenticator::new(1)).await;
    let answer = zoe.post(&claim, json!({"token": white})).await;
    assert_eq!(answer.ok(), json!({"side": "white", "username": "Zoe"}));
    let answer = zoe.post(&claim, json!({"token": white})).await;
    assert_eq!(
        answer.ok()["side"],
        "white",
        "claiming again changes nothing"
    );
    zoe.post(&claim, json!({"token": "wrong"}))
        .await
        .error(403, "wrong-token");
    zoe.post("/api/games/00112233445566ff/claim", json!({"token": white}))
        .await
        .error(404, "unknown-game");
    let zoe_id = api.store.account_by_key("zoe").await.unwrap().unwrap().id;
    assert_eq!(
        api.store.seat_accounts(&id).await.unwrap(),
        [Some(zoe_id.clone()), None]
    );
    // Another account holding White's token too cannot take the seat.
    let mut max = Browser::new(&api, LOCAL);
    max.sign_up("Max", &mut Authenticator::new(2)).await;
    max.post(&claim, json!({"token": white}))
        .await
        .error(409, "seat-claimed");
    // The game ends; Black's seat can no longer be claimed.
    let resigned = max
        .post(&format!("/api/games/{id}/resign"), json!({"token": black}))
        .await;
    assert_eq!(resigned.status, 200, "{}", resigned.text);
    max.post(&claim, json!({"token": black}))
        .await
        .error(409, "game-over");
    assert_eq!(
        api.store.seat_accounts(&id).await.unwrap(),
        [Some(zoe_id), None]
    );
    // A cross-site claim with the session's cookie is refused.
    max.origin = "https://evil.example".into();
    max.post(&claim, json!({"token": black}))
        .await
        .error(403, "cross-site");
}

both_stores!((flavor = "multi_thread", worker_threads = 2);
    an_account_lives_from_sign_up_to_deletion,
    names_are_checked_and_taken_names_refused,
    hostile_ceremonies_are_refused,
    the_session_cookie_is_exactly_as_documented,
    cross_site_requests_are_refused,
    sign_ins_and_codes_are_rate_limited,
    a_guest_claims_their_seat_by_signing_in,
);
