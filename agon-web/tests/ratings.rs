//! Rated play (issue 33) through the service and the API, on both stores: a rated game's
//! end moves both ratings by exactly `rate_game`'s figures, once however often its end is
//! seen; aborted and casual games change nothing; the players' endpoints and their
//! refusals; a deleted player shown as one; the migration from schema 7 (PostgreSQL 5).

use std::sync::Arc;

use agon_core::{Game, Position, Side};
use agon_web::game::account::Username;
use agon_web::game::rating::{rate_game, Rating};
use agon_web::game::speed::Speed;
use agon_web::service::ratings::{self, Pairing};
use agon_web::store::{Account, NewAccount, StoredRating};
use agon_web::{AppState, Config, Store};
use axum::Router;
use serde_json::{json, Value};
#[macro_use]
mod common;
use common::{get_uri, post, Answer, Backend};

struct Site {
    app: Arc<AppState>,
    router: Router,
    _db: common::TestDb,
}

impl Site {
    async fn new(b: Backend) -> Site {
        let (state, db) = common::state(b, Config::default()).await;
        let app = Arc::new(state);
        Site {
            router: agon_web::shared_app(app.clone()),
            app,
            _db: db,
        }
    }

    fn store(&self) -> &Store {
        &self.app.store
    }

    async fn get(&self, uri: &str) -> Answer {
        get_uri(&self.router, uri).await
    }

    async fn post(&self, uri: &str, body: Value) -> Answer {
        post(&self.router, uri, "application/json", &body.to_string()).await
    }

    async fn account(&self, id: &str, name: &str, handle: u8) -> Account {
        let new = NewAccount {
            id: id.into(),
            username: Username::parse(name).unwrap(),
            user_handle: [handle; 32],
            bot: false,
        };
        self.store().create_account(&new, 1_000).await.unwrap()
    }

    /// A game paired between `players`, 5+3 (blitz).
    async fn paired(&self, players: [&Account; 2], rated: bool) -> (String, [String; 2]) {
        let paired = ratings::create_paired_game(&self.app, pairing(players, rated))
            .await
            .unwrap();
        (paired.game.id, paired.tokens)
    }

    async fn rating(&self, account: &Account) -> Option<StoredRating> {
        self.store()
            .rating(&account.id, Speed::Blitz)
            .await
            .unwrap()
    }
}

fn pairing(players: [&Account; 2], rated: bool) -> Pairing {
    Pairing {
        players: players.map(|a| Some(a.clone())),
        names: [None, None],
        clock: Some((5, 3)),
        start: Position::start(),
        rated,
    }
}

/// Zoe, with a settled blitz rating (no last game, so no widening for idle time), and Max,
/// new.
async fn zoe_and_max(site: &Site) -> [Account; 2] {
    let zoe = site.account("00000000000000a1", "Zoe", 1).await;
    let max = site.account("00000000000000b2", "Max", 2).await;
    let settled = StoredRating {
        rating: Rating::new(1623.25, 87.5, 0.0612).unwrap(),
        games: 30,
        last_game_ms: None,
    };
    site.store()
        .set_rating(&zoe.id, Speed::Blitz, &settled)
        .await
        .unwrap();
    [zoe, max]
}

/// White's first legal move in game `id`.
async fn first_move(site: &Site, id: &str, token: &str) {
    let state = site.get(&format!("/api/games/{id}")).await.ok();
    let m = state["legal_moves"][0].as_str().unwrap().to_string();
    site.post(
        &format!("/api/games/{id}/moves"),
        json!({"token": token, "move": m}),
    )
    .await
    .ok();
}

async fn a_rated_game_to_its_end_moves_both_ratings_by_rate_game(b: Backend) {
    let site = Site::new(b).await;
    let [zoe, max] = zoe_and_max(&site).await;
    let before = [site.rating(&zoe).await.unwrap(), StoredRating::NEW];
    let (id, [white, black]) = site.paired([&zoe, &max], true).await;
    let state = site.get(&format!("/api/games/{id}")).await.ok();
    assert_eq!(
        (state["rated"].clone(), state["speed"].clone()),
        (json!(true), json!("blitz"))
    );
    assert_eq!(
        state["players"],
        json!({
            "white": {"username": "Zoe", "deleted": false, "bot": false, "rating": 1623, "provisional": false},
            "black": {"username": "Max", "deleted": false, "bot": false, "rating": 1500, "provisional": true},
        })
    );
    first_move(&site, &id, &white).await;
    assert_eq!(site.rating(&max).await, None, "not rated before its end");
    site.post(&format!("/api/games/{id}/resign"), json!({"token": black}))
        .await
        .ok();
    let expected = rate_game(before.map(|r| r.rating), [0, 0], Some(Side::White)).unwrap();
    let after = [
        site.rating(&zoe).await.unwrap(),
        site.rating(&max).await.unwrap(),
    ];
    assert_eq!(
        after.map(|r| r.rating),
        expected,
        "exactly rate_game's figures"
    );
    assert_eq!(after.map(|r| r.games), [31, 1]);

    // The end seen again (another server, the sweep): nothing changes.
    let game = site.store().load(&id).await.unwrap().unwrap();
    assert_eq!(
        ratings::rate_if_ended(&site.app, &game).await.unwrap(),
        None
    );
    assert_eq!(ratings::rate_lost_ends(&site.app).await.unwrap(), 0);
    assert_eq!(site.rating(&zoe).await.unwrap(), after[0]);

    // A second game, drawn by agreement, colours swapped: from the stored ratings, each
    // widened for the time since its last game.
    let (id2, [white2, black2]) = site.paired([&max, &zoe], true).await;
    first_move(&site, &id2, &white2).await;
    let draw = |token: &str, answer: &str| json!({"token": token, "answer": answer});
    site.post(&format!("/api/games/{id2}/draw"), draw(&black2, "offer"))
        .await
        .ok();
    site.post(&format!("/api/games/{id2}/draw"), draw(&white2, "accept"))
        .await
        .ok();
    let zoe2 = site.rating(&zoe).await.unwrap();
    let max2 = site.rating(&max).await.unwrap();
    let at = zoe2.last_game_ms.unwrap();
    let idle = [after[1], after[0]].map(|r| at - r.last_game_ms.unwrap());
    let expected = rate_game([after[1].rating, after[0].rating], idle, None).unwrap();
    assert_eq!([max2.rating, zoe2.rating], expected);

    // The endpoints tell the same.
    let player = site.get("/api/players/ZOE").await.ok();
    assert_eq!(player["username"], "Zoe");
    assert_eq!(
        player["ratings"],
        json!([{"speed": "blitz", "rating": zoe2.rating.rating.round() as i64,
                "deviation": zoe2.rating.deviation.round() as i64, "provisional": false,
                "games": 32, "last_game_ms": at}])
    );
    assert_eq!(
        player["counts"],
        json!({"all": 2, "rated": 2, "wins": 1, "losses": 0, "draws": 1})
    );
    let games = site.get("/api/players/zoe/games").await.ok();
    let listed: Vec<(&str, &str)> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["id"].as_str().unwrap(), g["outcome"].as_str().unwrap()))
        .collect();
    assert_eq!(listed, [(id2.as_str(), "draw"), (id.as_str(), "win")]);
    assert_eq!(games["games"][1]["opponent"], "Max");
    assert_eq!(
        games["games"][1]["rating_after"],
        json!(after[0].rating.rating.round() as i64)
    );
    let wins = site
        .get("/api/players/zoe/games?result=win&speed=blitz")
        .await
        .ok();
    assert_eq!(wins["games"].as_array().unwrap().len(), 1);
    let losses = site.get("/api/players/zoe/games?result=loss").await.ok();
    assert_eq!(losses["games"], json!([]));
    let other = site.get("/api/players/zoe/games?speed=rapid").await.ok();
    assert_eq!(other["games"], json!([]));
    let history = site
        .get("/api/players/max/ratings/blitz/history")
        .await
        .ok();
    let points: Vec<&str> = history["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["game"].as_str().unwrap())
        .collect();
    assert_eq!(points, [id.as_str(), id2.as_str()]);
    assert_eq!(
        history["points"][1]["rating"],
        json!(max2.rating.rating.round() as i64)
    );
    // Zoe leads; Max, provisional, is not on the board.
    let board = site.get("/api/leaderboard/blitz").await.ok();
    assert_eq!(board["players"].as_array().unwrap().len(), 1);
    assert_eq!(
        (
            board["players"][0]["rank"].clone(),
            board["players"][0]["username"].clone()
        ),
        (json!(1), json!("Zoe"))
    );
}

async fn an_end_left_unrated_is_rated_once_by_two_sweeps(b: Backend) {
    let site = Site::new(b).await;
    let [zoe, max] = zoe_and_max(&site).await;
    let before = site.rating(&zoe).await.unwrap();
    let (id, [white, _]) = site.paired([&zoe, &max], true).await;
    site.post(&format!("/api/games/{id}/resign"), json!({"token": white}))
        .await
        .ok();
    let expected = rate_game([before.rating, Rating::DEFAULT], [0, 0], Some(Side::Black)).unwrap();
    // As if the server had stopped between the end and its rating.
    common::execute(
        site.store(),
        &format!(
            "DELETE FROM rating_changes; DELETE FROM ratings WHERE account_id = '{}';",
            max.id
        ),
    )
    .await;
    site.store()
        .set_rating(&zoe.id, Speed::Blitz, &before)
        .await
        .unwrap();
    // Two servers' sweeps at once: one rates it.
    let (one, two) = tokio::join!(
        ratings::rate_lost_ends(&site.app),
        ratings::rate_lost_ends(&site.app)
    );
    let (one, two) = (one.unwrap_or(0), two.unwrap_or(0));
    assert_eq!(one + two, 1);
    let after = [
        site.rating(&zoe).await.unwrap(),
        site.rating(&max).await.unwrap(),
    ];
    assert_eq!(after.map(|r| r.rating), expected);
    assert_eq!(after.map(|r| r.games), [31, 1]);
}

async fn aborted_and_casual_games_change_no_rating(b: Backend) {
    let site = Site::new(b).await;
    let [zoe, max] = zoe_and_max(&site).await;
    let before = site.rating(&zoe).await;
    // Rated, aborted before each side moved: no result, never rated.
    let (id, [white, _]) = site.paired([&zoe, &max], true).await;
    let aborted = site
        .post(&format!("/api/games/{id}/abort"), json!({"token": white}))
        .await
        .ok();
    assert_eq!(aborted["outcome"]["reason"], "aborted");
    // Casual, between the same accounts, resigned.
    let (id, [_, black]) = site.paired([&zoe, &max], false).await;
    let state = site
        .post(&format!("/api/games/{id}/resign"), json!({"token": black}))
        .await
        .ok();
    assert_eq!(state["rated"], false);
    assert_eq!(site.rating(&zoe).await, before);
    assert_eq!(site.rating(&max).await, None);
    assert_eq!(ratings::rate_lost_ends(&site.app).await.unwrap(), 0);
    let counts = site.get("/api/players/max").await.ok();
    assert_eq!(counts["ratings"], json!([]));
    assert_eq!(
        counts["counts"],
        json!({"all": 1, "rated": 0, "wins": 0, "losses": 1, "draws": 0}),
        "Max resigned"
    );
    // What cannot be rated is refused before anything is written.
    let refused = |p: Pairing| async {
        let e = ratings::create_paired_game(&site.app, p)
            .await
            .err()
            .unwrap();
        (e.status.as_u16(), e.name)
    };
    let mut guest = pairing([&zoe, &max], true);
    guest.players[1] = None;
    assert_eq!(refused(guest).await, (400, "not-ratable"));
    assert_eq!(
        refused(pairing([&zoe, &zoe], true)).await,
        (400, "not-ratable")
    );
    let mut variant = pairing([&zoe, &max], true);
    variant.start = *Game::with_rules("ludii".parse().unwrap()).start();
    assert_eq!(refused(variant).await, (400, "not-ratable"));
    let mut untimed = pairing([&zoe, &max], true);
    untimed.clock = None;
    assert_eq!(refused(untimed).await, (400, "not-ratable"));
}

async fn the_players_endpoints_refuse_by_name(b: Backend) {
    let site = Site::new(b).await;
    site.account("00000000000000a1", "Zoe", 1).await;
    site.get("/api/players/nobody")
        .await
        .error(404, "unknown-player");
    site.get("/api/players/no%20name")
        .await
        .error(404, "unknown-player");
    site.get("/api/players/nobody/games")
        .await
        .error(404, "unknown-player");
    site.get("/api/players/zoe/ratings/blitzz/history")
        .await
        .error(400, "invalid-field");
    site.get("/api/players/nobody/ratings/blitz/history")
        .await
        .error(404, "unknown-player");
    site.get("/api/leaderboard/Blitz")
        .await
        .error(400, "invalid-field");
    site.get("/api/players/zoe/games?speed=fast")
        .await
        .error(400, "invalid-field");
    site.get("/api/players/zoe/games?result=won")
        .await
        .error(400, "invalid-field");
    site.get("/api/players/zoe/games?page=-1")
        .await
        .error(400, "invalid-field");
    assert_eq!(
        site.get("/api/leaderboard/rapid").await.ok()["players"],
        json!([])
    );
}

/// The leaderboard and the player pages show each deviation as of now: widened for the
/// time since the player's last rated game by `Rating::aged`, provisional (`?`) once past
/// 110; the leaderboard leaves out the players the time away made provisional, whatever
/// their rating.
async fn deviations_are_shown_as_of_now_and_the_idle_leave_the_leaderboard(b: Backend) {
    let site = Site::new(b).await;
    let now = site.store().now_ms();
    let day = 86_400_000;
    // Name, rating, deviation as last rated, days since that game (`None`: no game
    // recorded, so no widening).
    let players = [
        ("Ann", 2000.0, 105.0, Some(100)),
        ("Bob", 1900.0, 100.0, Some(30)),
        ("Cid", 1800.0, 120.0, Some(0)),
        ("Dee", 1700.0, 60.0, None),
        ("Eve", 1600.0, 45.0, Some(365)),
    ];
    let mut expected = Vec::new();
    for (k, (name, rating, deviation, days)) in players.into_iter().enumerate() {
        let account = site
            .account(&format!("00000000000000c{k}"), name, 10 + k as u8)
            .await;
        let stored = StoredRating {
            rating: Rating::new(rating, deviation, 0.06).unwrap(),
            games: 20 + k as i64,
            last_game_ms: days.map(|d: i64| now - d * day),
        };
        site.store()
            .set_rating(&account.id, Speed::Blitz, &stored)
            .await
            .unwrap();
        let aged = stored.rating.aged(days.unwrap_or(0) * day);
        let shown = json!({
            "rating": rating as i64,
            "deviation": aged.deviation.round() as i64,
            "provisional": aged.is_provisional(),
            "games": stored.games,
            "last_game_ms": stored.last_game_ms,
        });
        let page = site.get(&format!("/api/players/{name}")).await.ok();
        let mut speed = json!({"speed": "blitz"});
        speed
            .as_object_mut()
            .unwrap()
            .extend(shown.as_object().unwrap().clone());
        assert_eq!(page["ratings"], json!([speed]), "{name}");
        expected.push((name, shown, aged));
    }
    // The figures: Ann's 105 widened by 100 days is 117 (out), Bob's 100 by 30 days 104,
    // Eve's 45 by a year 109 (in, just), Cid provisional as last rated (out).
    let deviations: Vec<i64> = expected
        .iter()
        .map(|(_, shown, _)| shown["deviation"].as_i64().unwrap())
        .collect();
    assert_eq!(deviations, [117, 104, 120, 60, 109]);
    let board = site.get("/api/leaderboard/blitz").await.ok();
    let leaders: Vec<Value> = expected
        .iter()
        .filter(|(_, _, aged)| !aged.is_provisional())
        .enumerate()
        .map(|(rank, (name, shown, _))| {
            let mut row = json!({"rank": rank + 1, "username": name});
            row.as_object_mut()
                .unwrap()
                .extend(shown.as_object().unwrap().clone());
            row
        })
        .collect();
    assert_eq!(
        leaders
            .iter()
            .map(|l| l["username"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["Bob", "Dee", "Eve"]
    );
    assert_eq!(board["players"], json!(leaders));
}

async fn a_deleted_player_is_shown_as_one_and_their_games_stay(b: Backend) {
    let site = Site::new(b).await;
    let [zoe, max] = zoe_and_max(&site).await;
    let (id, [white, _]) = site.paired([&zoe, &max], true).await;
    site.post(&format!("/api/games/{id}/resign"), json!({"token": white}))
        .await
        .ok();
    site.store().delete_account(&max.id, 5_000).await.unwrap();
    let state = site.get(&format!("/api/games/{id}")).await.ok();
    assert_eq!(
        state["players"]["black"],
        json!({"username": null, "deleted": true, "bot": false, "rating": 1500, "provisional": true})
    );
    assert_eq!(state["players"]["white"]["username"], "Zoe");
    site.get("/api/players/max")
        .await
        .error(404, "unknown-player");
    let games = site.get("/api/players/zoe/games").await.ok();
    assert_eq!(games["games"][0]["id"], json!(id));
    assert_eq!(
        (
            games["games"][0]["opponent"].clone(),
            games["games"][0]["opponent_deleted"].clone(),
            games["games"][0]["outcome"].clone()
        ),
        (json!(null), json!(true), json!("loss"))
    );
}

/// A game created by a signed-in player has their account on the creator's seat; a
/// guest's has none.
async fn a_signed_in_creator_is_recorded_on_their_seat(b: Backend) {
    let site = Site::new(b).await;
    let zoe = site.account("00000000000000a1", "Zoe", 1).await;
    let token = agon_web::game::account::Token::session([9; 20]);
    site.store()
        .create_session(&token, &zoe.id, "test", agon_web::now_ms())
        .await
        .unwrap();
    let cookie = format!(
        "{}={}",
        agon_web::http::accounts::session_cookie(&site.app.site()),
        token.as_str()
    );
    let body = json!({"side": "black", "opponent": "friend", "clock": "3+2"});
    let request = axum::http::Request::post("/api/games")
        .header("content-type", "application/json")
        .header("cookie", cookie)
        .header("sec-fetch-site", "same-origin")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let created = common::send(&site.router, request).await.ok();
    let id = created["id"].as_str().unwrap();
    let state = site.get(&format!("/api/games/{id}")).await.ok();
    assert_eq!(state["players"]["black"]["username"], "Zoe");
    assert_eq!(state["players"]["white"]["username"], json!(null));
    assert_eq!(
        (state["rated"].clone(), state["speed"].clone()),
        (json!(false), json!("bullet"))
    );
    let guest = site.post("/api/games", body).await.ok();
    let id = guest["id"].as_str().unwrap();
    let state = site.get(&format!("/api/games/{id}")).await.ok();
    assert_eq!(state["players"]["black"]["username"], json!(null));
}

/// A database of schema 7 (PostgreSQL 5), with a game of a 5+3 clock, opens, migrates,
/// keeps the game (casual, blitz by its clock) and takes seats with ratings.
async fn a_database_of_schema_7_upgrades_in_place(b: Backend) {
    let db = common::older_database(
        b,
        (7, 5),
        ", opponent, guest_sha256, clock_initial_ms, clock_increment_ms, white_ms, black_ms",
        ", 'friend', {blob}, 300000, 3000, 300000, 300000",
    )
    .await;
    let store = Store::connect(&db.db, 2).await.unwrap();
    let kept = store.load("0123456789abcdef").await.unwrap().unwrap();
    assert_eq!(
        (kept.rated, kept.speed, kept.plies()),
        (false, Speed::Blitz, 1)
    );
    let zoe = NewAccount {
        id: "00000000000000a1".into(),
        username: Username::parse("Zoe").unwrap(),
        user_handle: [1; 32],
        bot: false,
    };
    store.create_account(&zoe, 5).await.unwrap();
    store
        .claim_seat("0123456789abcdef", Side::White, &zoe.id, 6)
        .await
        .unwrap();
    let seats = store
        .load("0123456789abcdef")
        .await
        .unwrap()
        .unwrap()
        .players;
    assert_eq!(
        seats[0].as_ref().map(|p| (p.username.as_str(), p.rating)),
        Some(("Zoe", None))
    );
    assert!(seats[1].is_none());
    // The old game is listed with its clock's speed (the migration's).
    let games = store
        .player_games(
            &zoe.id,
            agon_web::store::GameFilter {
                speed: None,
                result: None,
                page: 0,
            },
        )
        .await
        .unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(
        (games[0].speed, games[0].result.clone()),
        (Speed::Blitz, None)
    );
    drop(store);
    let store = Store::connect(&db.db, 2).await.unwrap();
    assert_eq!(store.counts().await, Ok((1, 1)));
}

both_stores!((); a_rated_game_to_its_end_moves_both_ratings_by_rate_game, aborted_and_casual_games_change_no_rating, the_players_endpoints_refuse_by_name, deviations_are_shown_as_of_now_and_the_idle_leave_the_leaderboard, a_deleted_player_is_shown_as_one_and_their_games_stay, a_signed_in_creator_is_recorded_on_their_seat, a_database_of_schema_7_upgrades_in_place);
mod concurrent {
    use super::*;
    both_stores!((flavor = "multi_thread", worker_threads = 2); an_end_left_unrated_is_rated_once_by_two_sweeps);
}
