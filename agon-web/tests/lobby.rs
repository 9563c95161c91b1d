//! The lobby (issue 33, point 2) on both stores: seeks posted, listed, cancelled and
//! accepted (the game started with both seats), two accepts at once giving one game,
//! quick pairing, direct challenges, the lobby's event stream (the seek's events, the
//! accepted event with its game, resuming by `Last-Event-ID`), the expiry of a seek
//! whose poster left, the refusals and limits, and the migration from schema 7.

use std::sync::Arc;

use agon_web::{Config, Store};
use serde_json::{json, Value};

#[macro_use]
mod common;
use common::online::{serve, server, server_with, Client as Browser, Server};
use common::{Backend, Stream};

/// The ids of the seeks listed.
async fn listed(browser: &mut Browser) -> Vec<String> {
    let list = browser.get("/api/lobby/seeks").await;
    list["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect()
}

async fn a_seek_is_posted_listed_cancelled_and_accepted(b: Backend) {
    let server = server(b).await;
    let (mut ann, mut bob) = (Browser::new(&server), Browser::new(&server));
    let (id, token) = ann
        .seek(json!({"control": "5+3", "colour": "white", "name": "Ann"}))
        .await;
    assert!(ann.cookies.iter().any(|c| c.starts_with("agon_lobby=")));
    let list = bob.get("/api/lobby/seeks").await;
    let seek = &list["seeks"][0];
    assert_eq!(
        (
            seek["id"].as_str(),
            seek["player"].as_str(),
            seek["control"].as_str()
        ),
        (Some(id.as_str()), Some("Ann"), Some("5+3"))
    );
    assert_eq!(
        (seek["speed"].as_str(), seek["rules"].as_str()),
        (Some("blitz"), Some("standard"))
    );
    assert_eq!(
        (seek["rated"].as_bool(), seek["colour"].as_str()),
        (Some(false), Some("white"))
    );
    // Another's seek is not Bob's to cancel; Ann cancels a second seek of hers.
    bob.refused(
        "POST",
        &format!("/api/lobby/seeks/{id}/cancel"),
        json!({}),
        404,
        "unknown-seek",
    )
    .await;
    let (other, _) = ann.seek(json!({"control": "correspondence"})).await;
    let (status, _) = ann
        .post(&format!("/api/lobby/seeks/{other}/cancel"), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(listed(&mut bob).await, vec![id.clone()]);
    // Bob accepts: the game starts, Ann White by her token, Bob Black by his.
    let (status, started) = bob
        .post(
            &format!("/api/lobby/seeks/{id}/accept"),
            json!({"name": "Bob"}),
        )
        .await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["side"], "black");
    let game = started["game"].as_str().unwrap();
    assert!(
        listed(&mut bob).await.is_empty(),
        "an accepted seek leaves the list"
    );
    let state = bob.get(&format!("/api/games/{game}")).await;
    let seats = &state["seats"];
    assert_eq!(
        (&seats["white"]["taken"], &seats["black"]["taken"]),
        (&json!(true), &json!(true))
    );
    assert_eq!(
        (&seats["white"]["name"], &seats["black"]["name"]),
        (&json!("Ann"), &json!("Bob"))
    );
    assert_eq!(state["clock"]["initial_ms"], 300_000);
    // Ann's token from the seek plays White's first move.
    let (status, moved) = ann
        .post(
            &format!("/api/games/{game}/moves"),
            json!({"token": token, "move": "f1-e1"}),
        )
        .await;
    assert_eq!(status, 200, "{moved}");
    let (status, _) = bob
        .post(
            &format!("/api/games/{game}/moves"),
            json!({"token": token, "move": "f11-e10"}),
        )
        .await;
    assert_eq!(status, 409, "Ann's token is not Black's");
    // The seek is gone: accepting it again finds nothing.
    let mut cid = Browser::new(&server);
    cid.refused(
        "POST",
        &format!("/api/lobby/seeks/{id}/accept"),
        json!({}),
        404,
        "unknown-seek",
    )
    .await;
}

async fn two_accepts_at_once_give_one_game(b: Backend) {
    let server = server(b).await;
    let mut ann = Browser::new(&server);
    for round in 0..4 {
        let (id, _) = ann.seek(json!({"control": "3+2"})).await;
        let (before, _) = server.store.counts().await.unwrap();
        let (mut bob, mut cid) = (Browser::new(&server), Browser::new(&server));
        let path = format!("/api/lobby/seeks/{id}/accept");
        let (x, y) = tokio::join!(bob.post(&path, json!({})), cid.post(&path, json!({})));
        let mut statuses = [x.0, y.0];
        statuses.sort();
        assert_eq!(statuses, [200, 404], "round {round}: {} {}", x.1, y.1);
        let (after, _) = server.store.counts().await.unwrap();
        assert_eq!(after, before + 1, "round {round}: exactly one game");
    }
}

async fn quick_pairing_pairs_two_players(b: Backend) {
    let server = server(b).await;
    let (mut ann, mut bob) = (Browser::new(&server), Browser::new(&server));
    let (status, waiting) = ann
        .post("/api/lobby/quick", json!({"control": "3+2"}))
        .await;
    assert_eq!(
        (status, waiting["status"].as_str()),
        (200, Some("waiting")),
        "{waiting}"
    );
    // A waiting player pressing again is not paired with themselves.
    let (status, again) = ann
        .post("/api/lobby/quick", json!({"control": "3+2"}))
        .await;
    assert_eq!(
        (status, again["status"].as_str()),
        (200, Some("waiting")),
        "{again}"
    );
    let (status, started) = bob
        .post("/api/lobby/quick", json!({"control": "3+2"}))
        .await;
    assert_eq!(
        (status, started["status"].as_str()),
        (200, Some("started")),
        "{started}"
    );
    let game = started["game"].as_str().unwrap();
    let state = bob.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["seats"]["black"]["taken"], true);
    assert_eq!(state["seats"]["white"]["taken"], true);
    // The older of Ann's two seeks was taken; the other still waits.
    assert_eq!(
        listed(&mut bob).await,
        [again["seek"]["id"].as_str().unwrap()]
    );
    bob.refused(
        "POST",
        "/api/lobby/quick",
        json!({"control": "4+2"}),
        400,
        "invalid-clock",
    )
    .await;
}

/// Many quick pairings at once, with seeks waiting: each is answered (paired or waiting),
/// none refused for the lobby being busy, and each game starts from one seek. Before,
/// every presser tried the oldest seek, then the next: all but one lost each round, and
/// after five rounds the rest got `409 conflict`.
async fn many_quick_pairings_at_once_all_pair_or_wait(b: Backend) {
    let server = server(b).await;
    // Six seeks wait (the bounds on open seeks are off here).
    for _ in 0..6 {
        Browser::new(&server)
            .seek(json!({"control": "5+3", "colour": "random"}))
            .await;
    }
    let (before, _) = server.store.counts().await.unwrap();
    let mut pressers: Vec<Browser> = (0..12).map(|_| Browser::new(&server)).collect();
    let answers = futures_util::future::join_all(
        pressers
            .iter_mut()
            .map(|p| p.post("/api/lobby/quick", json!({"control": "5+3"}))),
    )
    .await;
    let mut started = 0;
    for (status, answer) in &answers {
        assert_eq!(*status, 200, "{answer}");
        match answer["status"].as_str() {
            Some("started") => started += 1,
            Some("waiting") => {}
            other => panic!("{other:?}: {answer}"),
        }
    }
    assert!(started >= 6, "{answers:?}");
    let (after, _) = server.store.counts().await.unwrap();
    assert_eq!(after, before + started, "one game a pairing");
}

async fn the_lobby_stream_shows_seeks_coming_and_going_and_resumes(b: Backend) {
    let server = server(b).await;
    let (mut ann, mut bob) = (Browser::new(&server), Browser::new(&server));
    let mut events = ann.lobby_stream(None).await;
    let first = events.next("seeks").await;
    assert_eq!(first.data["seeks"], json!([]));
    let start = first.id.unwrap();
    let (id, _) = ann.seek(json!({"control": "10+5"})).await;
    let posted = events.next("seek").await;
    assert_eq!(posted.data["seek"]["id"].as_str(), Some(id.as_str()));
    assert_eq!(posted.id, Some(start + 1));
    let (_, started) = bob
        .post(&format!("/api/lobby/seeks/{id}/accept"), json!({}))
        .await;
    let gone = events.next("gone").await;
    assert_eq!(gone.data["id"].as_str(), Some(id.as_str()));
    assert_eq!(gone.data["reason"], "accepted");
    assert_eq!(gone.data["game"], started["game"]);
    assert_eq!(gone.id, Some(start + 2));
    drop(events);
    // A stream resuming after the first event gets the two that followed, in order.
    let mut resumed = bob.lobby_stream(Some(start)).await;
    let again = resumed.next("seek").await;
    assert_eq!(again.id, Some(start + 1));
    assert_eq!(resumed.next("gone").await.data["game"], started["game"]);
}

/// The next event of `stream`, whatever its kind, within 5 s.
async fn next_event(stream: &mut Stream) -> common::Sse {
    tokio::time::timeout(std::time::Duration::from_secs(5), stream.events.recv())
        .await
        .expect("no event within 5 s")
        .expect("the stream ended")
}

/// Asserts that `stream` sends nothing more within `ms`.
async fn silent(stream: &mut Stream, ms: u64) {
    let waited =
        tokio::time::timeout(std::time::Duration::from_millis(ms), stream.events.recv()).await;
    if let Ok(Some(event)) = waited {
        panic!("unexpected {} {:?}: {}", event.event, event.id, event.data);
    }
}

/// How many times the server read the lobby's log (its metric).
async fn log_reads(server: &Server) -> u64 {
    let text = reqwest::get(format!("{}/metrics", server.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix("agon_lobby_log_reads_total "))
        .unwrap_or_else(|| panic!("no lobby reads counted in {text}"))
        .parse()
        .unwrap()
}

/// Many streams of the lobby (people's and a bot's) cost one read of the lobby's log an
/// event: the server's feed reads it once and every stream takes its events from there,
/// keeping those it may see (a direct challenge only reaches its two players). A stream
/// resuming by `Last-Event-ID` gets exactly the events it missed that it may see, from the
/// feed, without a read; one resuming from a place the log never reached gets the whole
/// list.
async fn many_streams_cost_one_read_an_event_and_a_resume_gets_what_it_missed(b: Backend) {
    let server = server(b).await;
    let mut zoe = Browser::new(&server);
    zoe.sign_in(&server.store, "00000000000000a1", "Zoe").await;
    let mut max = Browser::bot(&server, "00000000000000b2", "Max").await;
    let mut bot_events = max.stream("/api/bot/stream/event").await;
    let mut guests: Vec<Browser> = (0..8).map(|_| Browser::new(&server)).collect();
    let mut streams = vec![zoe.lobby_stream(None).await];
    for guest in guests.iter_mut() {
        streams.push(guest.lobby_stream(None).await);
    }
    for stream in streams.iter_mut() {
        stream.next("seeks").await;
    }
    // A first event, read by the feed: then every stream is under way.
    let (warm, _) = guests[0].seek(json!({"control": "5+3"})).await;
    let mut start = 0;
    for stream in streams.iter_mut() {
        start = stream.next("seek").await.id.unwrap();
    }
    if b == Backend::Postgres {
        // The listener is up (it marks the feed stale when it starts listening).
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    // The last guest leaves: it will resume.
    let mut left = streams.pop().unwrap();
    silent(&mut left, 50).await;
    drop(left);
    let before = log_reads(&server).await;
    // A seek (everyone's), a challenge from Zoe to the bot (theirs only), a cancel.
    let (seek, _) = guests[1].seek(json!({"control": "3+2"})).await;
    for stream in streams.iter_mut() {
        let event = stream.next("seek").await;
        assert_eq!(
            (event.id, event.data["seek"]["id"].as_str()),
            (Some(start + 1), Some(seek.as_str()))
        );
    }
    let (status, challenge) = zoe
        .post(
            "/api/lobby/challenges",
            json!({"username": "Max", "control": "5+3"}),
        )
        .await;
    assert_eq!(status, 201, "{challenge}");
    let challenge = challenge["seek"]["id"].as_str().unwrap().to_string();
    let to_zoe = streams[0].next("seek").await;
    assert_eq!(
        (to_zoe.id, to_zoe.data["seek"]["id"].as_str()),
        (Some(start + 2), Some(challenge.as_str()))
    );
    let to_bot = bot_events.next("challenge").await;
    assert_eq!(
        to_bot.data["challenge"]["id"].as_str(),
        Some(challenge.as_str())
    );
    let (status, _) = guests[1]
        .post(&format!("/api/lobby/seeks/{seek}/cancel"), json!({}))
        .await;
    assert_eq!(status, 200);
    for stream in streams.iter_mut() {
        let event = next_event(stream).await;
        assert_eq!(
            (event.event.as_str(), event.id, event.data["id"].as_str()),
            ("gone", Some(start + 3), Some(seek.as_str())),
            "the challenge reaches Zoe and the bot only"
        );
    }
    assert_eq!(
        log_reads(&server).await,
        before + 3,
        "{} streams, three events: three reads",
        streams.len() + 1
    );
    // The guest who left resumes: the seek and its cancel, not Zoe's challenge.
    let mut resumed = guests[7].lobby_stream(Some(start)).await;
    let got = [
        next_event(&mut resumed).await,
        next_event(&mut resumed).await,
    ];
    assert_eq!(
        got.iter()
            .map(|e| (e.event.as_str(), e.id.unwrap()))
            .collect::<Vec<_>>(),
        [("seek", start + 1), ("gone", start + 3)]
    );
    silent(&mut resumed, 300).await;
    // Zoe in a second tab, from the warm-up seek: all three, hers marked.
    let mut tab = Browser::new(&server);
    tab.cookies = zoe.cookies.clone();
    let mut again = tab.lobby_stream(Some(start)).await;
    let got = [
        next_event(&mut again).await,
        next_event(&mut again).await,
        next_event(&mut again).await,
    ];
    assert_eq!(
        got.iter().map(|e| e.id.unwrap()).collect::<Vec<_>>(),
        [start + 1, start + 2, start + 3]
    );
    assert_eq!(got[1].data["seek"]["mine"], true);
    silent(&mut again, 100).await;
    assert_eq!(
        log_reads(&server).await,
        before + 3,
        "resumed from the feed"
    );
    // A place the log never reached: the whole list (the warm-up seek, Zoe's challenge),
    // after one read that finds the log ends before it.
    let mut made_up = tab.lobby_stream(Some(start + 1000)).await;
    let list = made_up.next("seeks").await;
    assert_eq!(list.id, Some(start + 3));
    let ids: Vec<&str> = list.data["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [warm.as_str(), challenge.as_str()]);
    assert_eq!(log_reads(&server).await, before + 4);
}

async fn a_seek_expires_once_its_poster_left(b: Backend) {
    let server = server(b).await;
    let mut ann = Browser::new(&server);
    let (id, _) = ann.seek(json!({"control": "1+0"})).await;
    let mut watcher = Browser::new(&server);
    let mut events = watcher.lobby_stream(None).await;
    events.next("seeks").await;
    // No stream of Ann's has seen it for over a minute (made so in the database).
    common::execute(&server.store, "UPDATE seeks SET seen_ms = 0").await;
    let config = Config {
        db: match &*server.store {
            Store::Sqlite(s) => agon_web::Database::Sqlite(s.path().to_path_buf()),
            Store::Postgres(p) => agon_web::Database::Postgres(p.url().to_string()),
        },
        ..Config::default()
    };
    // Another server's sweep removes it; this server's stream hears of it.
    let other = Arc::new(agon_web::AppState::connect(&config).await.unwrap());
    // (This server's own sweep, every 10 s, may come first: the seek goes either way.)
    agon_web::service::lobby::sweep(&other).await.unwrap();
    if matches!(*server.store, Store::Sqlite(_)) {
        // One SQLite server: no notice crosses processes; the stream reads on its
        // keep-alive. Prodding it through this server instead:
        let (_, other_seek) = ann.seek(json!({"control": "1+0"})).await;
        assert_ne!(other_seek, "");
    }
    let gone = events.next("gone").await;
    assert_eq!(
        (gone.data["id"].as_str(), gone.data["reason"].as_str()),
        (Some(id.as_str()), Some("expired"))
    );
    assert!(!listed(&mut watcher).await.contains(&id));
}

/// The refusals of a seek, and the bounds on open seeks as configured (2 a player, 5 an
/// address here, not the defaults).
async fn refusals_and_limits(b: Backend) {
    let limits = agon_web::limits::LimitConfig {
        seeks_per_player: Some(2),
        seeks_per_address: Some(5),
        ..agon_web::limits::LimitConfig::off()
    };
    let server = server_with(b, limits).await;
    let mut ann = Browser::new(&server);
    let cases = [
        (
            json!({"control": "5+3", "rated": true}),
            403,
            "rated-needs-account",
        ),
        (json!({"control": "0+3"}), 400, "invalid-clock"),
        (json!({"control": "5"}), 400, "invalid-clock"),
        (
            json!({"control": "5+3", "colour": "green"}),
            400,
            "invalid-field",
        ),
        (
            json!({"control": "5+3", "rules": "chess"}),
            400,
            "unknown-preset",
        ),
        (json!({"control": "5+3", "name": ""}), 400, "invalid-field"),
        (json!({"control": "5+3", "extra": 1}), 400, "malformed-json"),
    ];
    for (body, status, name) in cases {
        let (got, answer) = ann.post("/api/lobby/seeks", body.clone()).await;
        assert_eq!(
            (got, answer["error"].as_str()),
            (status, Some(name)),
            "{body}: {answer}"
        );
    }
    let (id, _) = ann.seek(json!({"control": "5+3"})).await;
    ann.refused(
        "POST",
        &format!("/api/lobby/seeks/{id}/accept"),
        json!({}),
        409,
        "own-seek",
    )
    .await;
    ann.seek(json!({"control": "5+3"})).await;
    // Ann has her two: a third seek is refused, a quick pairing that would post one too.
    for path in ["/api/lobby/seeks", "/api/lobby/quick"] {
        let (status, many) = ann.post(path, json!({"control": "10+5"})).await;
        assert_eq!(
            (status, many["error"].as_str()),
            (409, Some("too-many-seeks")),
            "{path}"
        );
    }
    // A rated seek: signed-in players only, accepted only by one.
    let mut zoe = Browser::new(&server);
    zoe.sign_in(&server.store, "00000000000000a1", "Zoe").await;
    let (rated, _) = zoe.seek(json!({"control": "5+3", "rated": true})).await;
    Browser::new(&server)
        .refused(
            "POST",
            &format!("/api/lobby/seeks/{rated}/accept"),
            json!({}),
            403,
            "rated-needs-account",
        )
        .await;
    let mut max = Browser::new(&server);
    max.sign_in(&server.store, "00000000000000b2", "Max").await;
    let (status, started) = max
        .post(&format!("/api/lobby/seeks/{rated}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let game = started["game"].as_str().unwrap();
    let seats = server.store.seat_accounts(game).await.unwrap();
    let mut held: Vec<_> = seats.into_iter().flatten().collect();
    held.sort();
    assert_eq!(held, ["00000000000000a1", "00000000000000b2"]);
    // Per address: other guests of the same address fill its five (Ann's two, Bob's
    // two, one of Cid's), though Cid has one only.
    let mut bob = Browser::new(&server);
    for _ in 0..2 {
        bob.seek(json!({"control": "5+3"})).await;
    }
    let mut cid = Browser::new(&server);
    cid.seek(json!({"control": "5+3"})).await;
    cid.refused(
        "POST",
        "/api/lobby/seeks",
        json!({"control": "5+3"}),
        409,
        "too-many-seeks",
    )
    .await;
    // Once one of Bob's goes, Cid posts.
    let bobs = bob.get("/api/lobby/seeks").await;
    let first = bobs["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["mine"] == true)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, _) = bob
        .post(&format!("/api/lobby/seeks/{first}/cancel"), json!({}))
        .await;
    assert_eq!(status, 200);
    cid.seek(json!({"control": "5+3"})).await;
    // A request from another site is refused.
    let response = reqwest::Client::new()
        .post(format!("{}/api/lobby/seeks", server.base))
        .header("origin", "https://evil.example")
        .json(&json!({"control": "5+3"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
}

async fn a_direct_challenge_is_seen_by_its_player_and_answered(b: Backend) {
    let server = server(b).await;
    let (mut zoe, mut max, mut eve) = (
        Browser::new(&server),
        Browser::new(&server),
        Browser::new(&server),
    );
    zoe.sign_in(&server.store, "00000000000000a1", "Zoe").await;
    max.sign_in(&server.store, "00000000000000b2", "Max").await;
    eve.refused(
        "POST",
        "/api/lobby/challenges",
        json!({"username": "Max", "control": "5+3"}),
        401,
        "not-signed-in",
    )
    .await;
    zoe.refused(
        "POST",
        "/api/lobby/challenges",
        json!({"username": "nobody", "control": "5+3"}),
        404,
        "unknown-player",
    )
    .await;
    let mut max_events = max.lobby_stream(None).await;
    max_events.next("seeks").await;
    let (status, posted) = zoe
        .post(
            "/api/lobby/challenges",
            json!({"username": "max", "control": "5+3"}),
        )
        .await;
    assert_eq!(status, 201, "{posted}");
    let id = posted["seek"]["id"].as_str().unwrap().to_string();
    let seen = max_events.next("seek").await;
    assert_eq!(
        (
            seen.data["seek"]["to"].as_str(),
            seen.data["seek"]["player"].as_str()
        ),
        (Some("Max"), Some("Zoe"))
    );
    // Not in anyone else's list, and no one else's to accept.
    assert!(listed(&mut eve).await.is_empty());
    let (status, _) = eve
        .post(&format!("/api/lobby/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 404);
    let (status, _) = max
        .post(&format!("/api/lobby/seeks/{id}/decline"), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(max_events.next("gone").await.data["reason"], "declined");
    let (_, again) = zoe
        .post(
            "/api/lobby/challenges",
            json!({"username": "Max", "control": "5+3"}),
        )
        .await;
    let id = again["seek"]["id"].as_str().unwrap();
    let (status, started) = max
        .post(&format!("/api/lobby/seeks/{id}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let tv = eve.get("/api/tv").await;
    assert_eq!(tv["tv"], started["game"]);
    assert_eq!(tv["games"][0]["clock"], "5+3");
}

/// A seek is marked `mine` for its poster wherever they look (the answer, the list, the
/// stream, a second tab with the same cookie or the same account's other browser), and
/// for no one else; the poster's key never reaches a stream.
async fn a_seek_is_marked_mine_for_its_poster_in_every_tab(b: Backend) {
    let server = server(b).await;
    let (mut ann, mut bob) = (Browser::new(&server), Browser::new(&server));
    let mut bob_events = bob.lobby_stream(None).await;
    bob_events.next("seeks").await;
    let (status, posted) = ann
        .post("/api/lobby/seeks", json!({"control": "5+3"}))
        .await;
    assert_eq!(status, 201, "{posted}");
    assert_eq!(posted["seek"]["mine"], true);
    let id = posted["seek"]["id"].as_str().unwrap().to_string();
    // A second tab: the same browser's cookie.
    let mut tab = Browser::new(&server);
    tab.cookies = ann.cookies.clone();
    let mut tab_events = tab.lobby_stream(None).await;
    let listed = tab_events.next("seeks").await;
    assert_eq!(listed.data["seeks"][0]["mine"], true);
    assert_eq!(bob.get("/api/lobby/seeks").await["seeks"][0]["mine"], false);
    let seen = bob_events.next("seek").await;
    assert_eq!(seen.data["seek"]["mine"], false);
    assert_eq!(seen.data.get("poster"), None, "{}", seen.data);
    // The tab hears the next seek as its own, and cancels the first.
    let (_, second) = ann
        .post("/api/lobby/seeks", json!({"control": "10+5"}))
        .await;
    let heard = tab_events.next("seek").await;
    assert_eq!(heard.data["seek"]["id"], second["seek"]["id"]);
    assert_eq!(heard.data["seek"]["mine"], true);
    assert_eq!(heard.data.get("poster"), None);
    let (status, _) = tab
        .post(&format!("/api/lobby/seeks/{id}/cancel"), json!({}))
        .await;
    assert_eq!(status, 200);
    // An account's seek is its own in another browser signed in to it.
    let mut zoe = Browser::new(&server);
    zoe.sign_in(&server.store, "00000000000000c3", "Zoe").await;
    zoe.seek(json!({"control": "3+2"})).await;
    let mut other = Browser::new(&server);
    other.cookies = zoe
        .cookies
        .iter()
        .filter(|c| !c.starts_with("agon_lobby="))
        .cloned()
        .collect();
    let list = other.get("/api/lobby/seeks").await;
    let zoes: Vec<&Value> = list["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["player"] == "Zoe")
        .collect();
    assert_eq!(zoes.len(), 1);
    assert_eq!(zoes[0]["mine"], true);
    assert_eq!(
        ann.get("/api/lobby/seeks").await["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["mine"] == true)
            .count(),
        1,
        "Ann's 10+5 only"
    );
}

/// The lobby's changes are rate-limited per address, as creating games is.
async fn the_lobby_is_rate_limited_per_address(b: Backend) {
    let limits = agon_web::limits::LimitConfig {
        create: Some(agon_web::limits::Quota::per_minute(1, 2)),
        ..agon_web::limits::LimitConfig::off()
    };
    let server = server_with(b, limits).await;
    let mut ann = Browser::new(&server);
    let (id, _) = ann.seek(json!({"control": "5+3"})).await;
    let (status, _) = ann
        .post(&format!("/api/lobby/seeks/{id}/cancel"), json!({}))
        .await;
    assert_eq!(status, 200);
    ann.refused(
        "POST",
        "/api/lobby/quick",
        json!({"control": "5+3"}),
        429,
        "rate-limited",
    )
    .await;
}

/// Two servers on one PostgreSQL database: a stream on one sees the seeks posted and
/// accepted on the other (LISTEN/NOTIFY), and two accepts at once, one on each server,
/// give one game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_servers_share_the_lobby() {
    if !common::postgres_here() {
        return;
    }
    let a = server(Backend::Postgres).await;
    let url = match &*a.store {
        Store::Postgres(p) => p.url().to_string(),
        Store::Sqlite(_) => unreachable!(),
    };
    let config = Config {
        db: agon_web::Database::Postgres(url),
        limits: agon_web::limits::LimitConfig::off(),
        ..Config::default()
    };
    let state = agon_web::AppState::connect(&config).await.unwrap();
    let b = serve(state, common::database(Backend::Sqlite).await).await;
    let mut watcher = Browser::new(&a);
    let mut events = watcher.lobby_stream(None).await;
    events.next("seeks").await;
    // The listener of server A is up once a change of A's own went through it.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let mut ann = Browser::new(&b);
    for round in 0..3 {
        let (id, _) = ann.seek(json!({"control": "3+2"})).await;
        assert_eq!(
            events.next("seek").await.data["seek"]["id"].as_str(),
            Some(id.as_str()),
            "round {round}"
        );
        let (mut bob, mut cid) = (Browser::new(&a), Browser::new(&b));
        let path = format!("/api/lobby/seeks/{id}/accept");
        let (x, y) = tokio::join!(bob.post(&path, json!({})), cid.post(&path, json!({})));
        let mut statuses = [x.0, y.0];
        statuses.sort();
        assert_eq!(statuses, [200, 404], "round {round}: {} {}", x.1, y.1);
        let game = if x.0 == 200 {
            &x.1["game"]
        } else {
            &y.1["game"]
        };
        let gone = events.next("gone").await;
        assert_eq!(
            (&gone.data["reason"], &gone.data["game"]),
            (&json!("accepted"), game)
        );
    }
}

/// A rated seek between two accounts starts a rated game: both players on their seats with
/// their ratings at the start, and its end moves both ratings. What rating needs is
/// refused when posting: another rule set, no clock.
async fn a_rated_seek_starts_a_rated_game_that_moves_both_ratings(b: Backend) {
    let server = server(b).await;
    let mut zoe = Browser::new(&server);
    zoe.sign_in(&server.store, "00000000000000a1", "Zoe").await;
    for (body, why) in [
        (
            json!({"control": "5+3", "rated": true, "rules": "ludii"}),
            "standard",
        ),
        (
            json!({"control": "correspondence", "rated": true}),
            "a clock",
        ),
    ] {
        let refused = zoe
            .refused("POST", "/api/lobby/seeks", body, 400, "not-ratable")
            .await;
        assert!(
            refused["message"].as_str().unwrap().contains(why),
            "{refused}"
        );
    }
    let (seek, zoe_token) = zoe.seek(json!({"control": "5+3", "rated": true})).await;
    let mut max = Browser::new(&server);
    max.sign_in(&server.store, "00000000000000b2", "Max").await;
    let (status, started) = max
        .post(&format!("/api/lobby/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let (game, max_token) = (
        started["game"].as_str().unwrap().to_string(),
        started["token"].as_str().unwrap().to_string(),
    );
    let state = max.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["rated"], json!(true));
    let max_side = started["side"].as_str().unwrap();
    let zoe_side = if max_side == "white" {
        "black"
    } else {
        "white"
    };
    let players = &state["players"];
    assert_eq!(players[max_side]["username"], json!("Max"), "{players}");
    assert_eq!(players[zoe_side]["username"], json!("Zoe"), "{players}");
    for side in [max_side, zoe_side] {
        // New players: the default rating at the start, provisional.
        assert_eq!(players[side]["rating"], json!(1500), "{players}");
        assert_eq!(players[side]["provisional"], json!(true), "{players}");
    }
    // A move each (before them the game could only be aborted), then Max resigns: Zoe
    // gains and Max loses as much, each by one rated game.
    let mut tokens = [(zoe_side, zoe_token), (max_side, max_token.clone())];
    tokens.sort();
    let [(_, black), (_, white)] = tokens;
    for token in [white, black] {
        let state = max.get(&format!("/api/games/{game}")).await;
        let mv = state["legal_moves"][0].clone();
        let (status, moved) = max
            .post(
                &format!("/api/games/{game}/moves"),
                json!({"token": token, "move": mv}),
            )
            .await;
        assert_eq!(status, 200, "{}", moved["error"]);
    }
    let (status, over) = max
        .post(
            &format!("/api/games/{game}/resign"),
            json!({"token": max_token}),
        )
        .await;
    assert_eq!(status, 200, "{over}");
    let mut ratings = [0.0; 2];
    for _ in 0..100 {
        let zoe_page = zoe.get("/api/players/Zoe").await;
        let max_page = max.get("/api/players/Max").await;
        let rated = |page: &Value| -> Option<f64> {
            page["ratings"]
                .as_array()?
                .first()
                .map(|r| r["rating"].as_f64().unwrap())
        };
        if let (Some(z), Some(m)) = (rated(&zoe_page), rated(&max_page)) {
            ratings = [z, m];
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(ratings[0] > 1500.0 && ratings[1] < 1500.0, "{ratings:?}");
    assert_eq!(ratings[0] - 1500.0, 1500.0 - ratings[1], "{ratings:?}");
}

/// Gives account `id` the rating `rating` in every speed category.
async fn rate(store: &Store, id: &str, rating: f64) {
    for speed in agon_web::game::speed::Speed::ALL {
        let sql = format!(
            "INSERT INTO ratings (account_id, speed, rating, deviation, volatility, games, \
             last_game_ms) VALUES ('{id}', '{}', {rating}, 60.0, 0.06, 10, NULL)",
            speed.name()
        );
        common::execute(store, &sql).await;
    }
}

/// A seek's rating range (lichess's -500..+500 around the poster's rating): shown in the
/// list and the stream only to the players within it, bounds inclusive, and to its
/// poster; accepting it refused to the others and to guests; quick pairing takes it only
/// for a player within it; a malformed range refused.
async fn a_rating_range_shows_a_seek_only_to_the_players_within_it(b: Backend) {
    let server = server(b).await;
    let store = &server.store;
    let mut zoe = Browser::person(&server, "00000000000000a1", "Zoe").await;
    let mut low = Browser::person(&server, "00000000000000b2", "Low").await;
    let mut top = Browser::person(&server, "00000000000000c3", "Top").await;
    let mut out = Browser::person(&server, "00000000000000d4", "Out").await;
    let mut guest = Browser::new(&server);
    // Zoe 1600.4 (1600 rounded): -200..+100 is 1400 to 1700. Low and Top sit on the
    // bounds; Out is one point above (1700.5 rounds to 1701).
    for (id, rating) in [
        ("00000000000000a1", 1600.4),
        ("00000000000000b2", 1400.0),
        ("00000000000000c3", 1700.0),
        ("00000000000000d4", 1700.5),
    ] {
        rate(store, id, rating).await;
    }
    let mut streams = Vec::new();
    for browser in [&mut low, &mut out, &mut guest] {
        let mut stream = browser.lobby_stream(None).await;
        assert_eq!(stream.next("seeks").await.data["seeks"], json!([]));
        streams.push(stream);
    }
    let range = json!({"min": -200, "max": 100});
    let (status, posted) = zoe
        .post(
            "/api/lobby/seeks",
            json!({"control": "5+3", "rated": true, "rating_range": range}),
        )
        .await;
    assert_eq!(status, 201, "{posted}");
    let seek = &posted["seek"];
    assert_eq!(
        (&seek["rating_min"], &seek["rating_max"]),
        (&json!(1400), &json!(1700))
    );
    let ranged = seek["id"].as_str().unwrap().to_string();
    let (open, _) = zoe.seek(json!({"control": "10+5"})).await;
    // The list: the ranged seek for Zoe, Low and Top; not for Out nor a guest.
    assert_eq!(listed(&mut zoe).await, [ranged.clone(), open.clone()]);
    assert_eq!(listed(&mut low).await, [ranged.clone(), open.clone()]);
    assert_eq!(listed(&mut top).await, [ranged.clone(), open.clone()]);
    assert_eq!(listed(&mut out).await, [open.as_str()]);
    assert_eq!(listed(&mut guest).await, [open.as_str()]);
    // The streams: Low hears both; Out and the guest only the open one.
    let mut heard = Vec::new();
    for stream in &mut streams {
        let first = stream.next("seek").await.data["seek"]["id"].clone();
        heard.push(first.as_str().unwrap().to_string());
    }
    assert_eq!(heard, [ranged.clone(), open.clone(), open.clone()]);
    assert_eq!(
        streams[0].next("seek").await.data["seek"]["id"].as_str(),
        Some(open.as_str())
    );
    // A stream opened later, with the whole list: the same filter.
    let mut late = out.lobby_stream(None).await;
    let whole = late.next("seeks").await.data["seeks"].clone();
    assert_eq!(whole.as_array().unwrap().len(), 1, "{whole}");
    assert_eq!(whole[0]["id"].as_str(), Some(open.as_str()));
    // Accepting: refused outside the range, with the bounds and the rating said.
    let accept = format!("/api/lobby/seeks/{ranged}/accept");
    let refused = out
        .refused("POST", &accept, json!({}), 403, "rating-out-of-range")
        .await;
    assert_eq!(
        refused["message"],
        "this seek is for players rated 1400 to 1700 in blitz: yours is 1701"
    );
    // A guest is refused for the rating the rated seek needs first; a casual ranged
    // seek is refused to a guest for its range.
    let (casual, _) = zoe
        .seek(json!({"control": "15+10", "rating_range": {"min": -500, "max": 0}}))
        .await;
    guest
        .refused(
            "POST",
            &format!("/api/lobby/seeks/{casual}/accept"),
            json!({}),
            403,
            "rating-out-of-range",
        )
        .await;
    let (status, started) = top.post(&accept, json!({})).await;
    assert_eq!(status, 200, "the upper bound is inside: {started}");
    let (status, started) = low
        .post(&format!("/api/lobby/seeks/{casual}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "1400 is within 1100 to 1600: {started}");
    // Refusals of the range itself; nothing posted.
    for (body, name, status) in [
        (json!({"min": 1, "max": 100}), "invalid-rating-range", 400),
        (
            json!({"min": -501, "max": 100}),
            "invalid-rating-range",
            400,
        ),
        (json!({"min": 0, "max": 501}), "invalid-rating-range", 400),
    ] {
        zoe.refused(
            "POST",
            "/api/lobby/seeks",
            json!({"control": "5+3", "rating_range": body}),
            status,
            name,
        )
        .await;
    }
    for body in [
        json!({"min": -100}),
        json!({"min": -100, "max": 100, "x": 1}),
        json!("-100..100"),
    ] {
        let (status, answer) = zoe
            .post(
                "/api/lobby/seeks",
                json!({"control": "5+3", "rating_range": body}),
            )
            .await;
        assert_eq!(status, 400, "{body}: {answer}");
    }
    guest
        .refused(
            "POST",
            "/api/lobby/seeks",
            json!({"control": "5+3", "rating_range": range}),
            403,
            "rating-range-needs-account",
        )
        .await;
    assert_eq!(listed(&mut zoe).await, [open.as_str()]);
    let (status, _) = zoe
        .post(&format!("/api/lobby/seeks/{open}/cancel"), json!({}))
        .await;
    assert_eq!(status, 200);
    // Quick pairing respects ranges: Out's quick 3+2 does not take Zoe's ranged 3+2 seek
    // (it waits with its own), Low's takes it (the oldest that fits).
    let (zoe_quick, _) = zoe
        .seek(json!({"control": "3+2", "rating_range": {"min": -200, "max": 100}}))
        .await;
    let (status, waiting) = out
        .post("/api/lobby/quick", json!({"control": "3+2"}))
        .await;
    assert_eq!(
        (status, &waiting["status"]),
        (200, &json!("waiting")),
        "{waiting}"
    );
    let out_quick = waiting["seek"]["id"].as_str().unwrap().to_string();
    let (status, paired) = low
        .post("/api/lobby/quick", json!({"control": "3+2"}))
        .await;
    assert_eq!(
        (status, &paired["status"]),
        (200, &json!("started")),
        "{paired}"
    );
    let game = paired["game"].as_str().unwrap();
    let state = low.get(&format!("/api/games/{game}")).await;
    let names = [
        &state["seats"]["white"]["name"],
        &state["seats"]["black"]["name"],
    ];
    assert!(names.contains(&&json!("Zoe")), "{state}");
    assert_eq!(
        listed(&mut top).await,
        [out_quick],
        "Zoe's seek {zoe_quick} was taken"
    );
}

/// A database of schema 7 (SQLite) or 5 (PostgreSQL) takes the lobby's tables.
async fn a_database_of_version_7_migrates(b: Backend) {
    let db = common::database(b).await;
    match &db.db {
        agon_web::Database::Sqlite(path) => {
            let old = agon_web::store::SqliteStore::schema_sql(7).unwrap();
            rusqlite::Connection::open(path)
                .unwrap()
                .execute_batch(&old)
                .unwrap();
        }
        agon_web::Database::Postgres(url) => {
            let old = agon_web::store::PgStore::schema_sql(5).unwrap();
            common::pg_client(url)
                .await
                .batch_execute(&old)
                .await
                .unwrap();
        }
    }
    let config = Config {
        db: db.db.clone(),
        ..Config::default()
    };
    let state = agon_web::AppState::connect(&config).await.unwrap();
    common::execute(&state.store, "SELECT count(*) FROM seeks").await;
    common::execute(&state.store, "SELECT seq FROM lobby_head").await;
}

both_stores!((flavor = "multi_thread", worker_threads = 2);
    a_seek_is_posted_listed_cancelled_and_accepted,
    two_accepts_at_once_give_one_game,
    quick_pairing_pairs_two_players,
    many_quick_pairings_at_once_all_pair_or_wait,
    the_lobby_stream_shows_seeks_coming_and_going_and_resumes,
    many_streams_cost_one_read_an_event_and_a_resume_gets_what_it_missed,
    a_seek_expires_once_its_poster_left,
    refusals_and_limits,
    a_direct_challenge_is_seen_by_its_player_and_answered,
    a_database_of_version_7_migrates,
    the_lobby_is_rate_limited_per_address,
    a_rated_seek_starts_a_rated_game_that_moves_both_ratings,
    a_seek_is_marked_mine_for_its_poster_in_every_tab,
    a_rating_range_shows_a_seek_only_to_the_players_within_it,
);
