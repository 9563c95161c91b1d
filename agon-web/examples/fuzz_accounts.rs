//! Accounts for a fuzzer to act as (`tests/schemathesis/run.sh`): a person signed in, a
//! second person whose session the operations that end sessions or turn an account into a
//! bot's may spend, and a bot with an API token, made in the database of a running server
//! and printed as shell assignments:
//!
//! ```sh
//! cargo run -p agon-web --example fuzz_accounts -- --db games.sqlite3 --url http://127.0.0.1:8080
//! AGON_FUZZ_SESSION=...
//! AGON_FUZZ_SPARE_SESSION=...
//! AGON_FUZZ_BOT_TOKEN=...
//! ```
//!
//! An account is made by a passkey's ceremony, which a script has no authenticator for: the
//! accounts and their sessions are made in the store, as the tests and the load example make
//! them; the bot's account is then made a bot's and given its token through the API, as its
//! owner would (`POST /api/account/bot`, `POST /api/account/tokens`).

use agon_web::game::account::{Token, Username};
use agon_web::store::NewAccount;
use agon_web::{Database, Store};

fn usage() -> ! {
    eprintln!("usage: fuzz_accounts --db PATH|--pg URL --url BASE");
    std::process::exit(2)
}

/// A random session token (the kernel's randomness, as the server's own).
fn session() -> Token {
    let mut bytes = [0u8; 20];
    getrandom::fill(&mut bytes).expect("randomness");
    Token::session(bytes)
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut args = std::env::args().skip(1);
    let (mut db, mut url) = (None, None);
    while let Some(flag) = args.next() {
        match (flag.as_str(), args.next()) {
            ("--db", Some(path)) => db = Some(Database::Sqlite(path.into())),
            ("--pg", Some(pg)) => db = Some(Database::Postgres(pg)),
            ("--url", Some(base)) => url = Some(base),
            _ => usage(),
        }
    }
    let (Some(db), Some(url)) = (db, url) else {
        usage()
    };
    let store = Store::connect(&db, 1).await.expect("the server's database");
    let now = agon_web::now_ms();
    let mut sessions = Vec::new();
    for (i, name) in ["fuzzer", "fuzzspare", "fuzzbot"].into_iter().enumerate() {
        let id = format!("f022{i:012x}");
        let account = NewAccount {
            id: id.clone(),
            username: Username::parse(name).expect("a username"),
            user_handle: [i as u8 + 1; 32],
            bot: false,
        };
        let token = session();
        store
            .create_signed_in(&account, &token, "fuzz", now)
            .await
            .expect("an account with a session");
        sessions.push(token.as_str().to_string());
    }
    // The bot's owner, from the site: its origin, its session.
    let http = reqwest::Client::new();
    let origin = url.replace("127.0.0.1", "localhost");
    let post = |path: &str, body: serde_json::Value| {
        http.post(format!("{url}{path}"))
            .header("Origin", &origin)
            .header("Cookie", format!("agon_session={}", sessions[2]))
            .json(&body)
            .send()
    };
    let made = post("/api/account/bot", serde_json::json!({}))
        .await
        .expect("the server");
    assert_eq!(made.status(), 200, "the account made a bot's");
    let token: serde_json::Value = post("/api/account/tokens", serde_json::json!({"name": "fuzz"}))
        .await
        .expect("the server")
        .json()
        .await
        .expect("a token");
    println!("AGON_FUZZ_SESSION={}", sessions[0]);
    println!("AGON_FUZZ_SPARE_SESSION={}", sessions[1]);
    println!(
        "AGON_FUZZ_BOT_TOKEN={}",
        token["token"].as_str().expect("a token")
    );
}
