//! Bots online (issue 33, point 4) on both stores: an account becomes a bot's (refused
//! once it has rated games), its API tokens (made, shown once, listed without their
//! secret, revoked: a revoked token is `401`; never taken from a query), and a bot that
//! accepts a person's challenge through the Bot API and plays the game to its end by the
//! move endpoint while its event stream reports the challenge, the start and the finish;
//! an illegal move refused with agon-core's reason; a bot's open seek not taken by a bot.

use agon_web::game::account::Token;
use serde_json::{json, Value};

#[macro_use]
mod common;
use common::online::{server, server_with, Client};
use common::Backend;

async fn an_account_becomes_a_bot_and_holds_tokens(b: Backend) {
    let server = server(b).await;
    let mut zoe = Client::person(&server, "00000000000000a1", "Zoe").await;
    // Tokens are a bot's.
    zoe.refused(
        "POST",
        "/api/account/tokens",
        json!({"name": "x"}),
        403,
        "not-a-bot",
    )
    .await;
    let (status, made) = zoe.post("/api/account/bot", json!({})).await;
    assert_eq!(
        (status, made),
        (200, json!({"username": "Zoe", "bot": true}))
    );
    let (status, _) = zoe.post("/api/account/bot", json!({})).await;
    assert_eq!(
        status, 200,
        "a bot's account made a bot's again changes nothing"
    );
    // Without a session: 401.
    let (status, _) = Client::new(&server)
        .post("/api/account/bot", json!({}))
        .await;
    assert_eq!(status, 401);

    // An account with a rated game stays a person's.
    let mut max = Client::person(&server, "00000000000000b2", "Max").await;
    let mut ann = Client::person(&server, "00000000000000c3", "Ann").await;
    let (status, posted) = max
        .post("/api/lobby/seeks", json!({"control": "5+3", "rated": true}))
        .await;
    assert_eq!(status, 201, "{posted}");
    let seek = posted["seek"]["id"].as_str().unwrap();
    let (status, _) = ann
        .post(&format!("/api/lobby/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(status, 200);
    max.refused(
        "POST",
        "/api/account/bot",
        json!({}),
        409,
        "has-rated-games",
    )
    .await;
    assert!(
        !server
            .store
            .account("00000000000000b2")
            .await
            .unwrap()
            .unwrap()
            .bot
    );

    // Tokens: made (shown once), listed without their secret, revoked.
    let (status, first) = zoe
        .post("/api/account/tokens", json!({"name": "engine"}))
        .await;
    assert_eq!(status, 201, "{first}");
    let secret = first["token"].as_str().unwrap().to_string();
    assert!(
        secret.starts_with("agon_") && secret.len() == 37,
        "{secret}"
    );
    assert_eq!(first["name"], "engine");
    let (_, second) = zoe.post("/api/account/tokens", json!({})).await;
    assert_eq!(second["name"], "bot", "the default name");
    let (status, list) = zoe.send("GET", "/api/account/tokens", Value::Null).await;
    assert_eq!(status, 200);
    let tokens = list["tokens"].as_array().unwrap();
    assert_eq!(tokens.len(), 2);
    assert_eq!(
        (&tokens[0]["id"], &tokens[0]["name"]),
        (&first["id"], &json!("engine"))
    );
    assert!(
        !list.to_string().contains(&secret[5..]),
        "a token is shown once, never listed"
    );
    // The store keeps its digest: the secret finds it, nothing else does.
    let parsed = Token::parse_api(&secret).unwrap();
    assert_eq!(
        server.store.api_token(&parsed).await.unwrap().unwrap().id,
        first["id"].as_str().unwrap()
    );

    // The token opens the Bot API in its header only.
    let mut program = Client::new(&server);
    program.token = Some(secret.clone());
    let events = program
        .request("GET", "/api/bot/stream/event")
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), 200);
    drop(events);
    let mut bare = Client::new(&server);
    for query in ["token", "access_token"] {
        let path = format!("/api/bot/stream/event?{query}={secret}");
        bare.refused("GET", &path, Value::Null, 400, "invalid-field")
            .await;
    }
    bare.refused(
        "GET",
        "/api/bot/stream/event",
        Value::Null,
        401,
        "bad-token",
    )
    .await;
    // A session's cookie is no token.
    let (status, _) = zoe.send("GET", "/api/bot/stream/event", Value::Null).await;
    assert_eq!(status, 401);

    // Revoked: 401 at once; the other token still works.
    let id = first["id"].as_str().unwrap();
    let (status, _) = zoe
        .send("DELETE", &format!("/api/account/tokens/{id}"), Value::Null)
        .await;
    assert_eq!(status, 204);
    zoe.refused(
        "DELETE",
        &format!("/api/account/tokens/{id}"),
        Value::Null,
        404,
        "unknown-token",
    )
    .await;
    program
        .refused(
            "POST",
            "/api/bot/game/0011223344556677/resign",
            json!({}),
            401,
            "bad-token",
        )
        .await;
    program.token = Some(second["token"].as_str().unwrap().to_string());
    // The living token passes; the game is unknown.
    program
        .refused(
            "POST",
            "/api/bot/game/0011223344556677/resign",
            json!({}),
            404,
            "unknown-game",
        )
        .await;
    let (_, list) = zoe.send("GET", "/api/account/tokens", Value::Null).await;
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1);
}

/// The moves of a short game from the standard start: each side chooses its
/// `(ply * k + k / 3) % n`-th legal move, for the `k` below 200 whose game ends soonest
/// (found by agon-core, so that the game played through the API is known to end; 27
/// plies, a draw by repetition).
fn short_game() -> Vec<String> {
    let mut best: Option<Vec<String>> = None;
    for k in 1..200 {
        let mut game = agon_core::Game::from_position(agon_core::Position::start());
        let mut moves = Vec::new();
        let cap = best.as_ref().map_or(300, Vec::len);
        while moves.len() < cap && !game.is_over() {
            let legal = game.legal_moves();
            let m = legal[(moves.len() * k + k / 3) % legal.len()];
            moves.push(m.to_string());
            game.play(m).unwrap();
        }
        if game.is_over() {
            best = Some(moves);
        }
    }
    best.expect("a game that ends")
}

async fn a_bot_accepts_a_challenge_and_plays_it_to_the_end(b: Backend) {
    let server = server(b).await;
    let mut robo = Client::bot(&server, "00000000000000d4", "Robo").await;
    let mut zoe = Client::person(&server, "00000000000000a1", "Zoe").await;
    let mut events = robo.stream("/api/bot/stream/event").await;
    // Zoe challenges the bot, rated, as White.
    let (challenge, zoe_token) = zoe
        .challenge(json!({"username": "robo", "control": "5+3", "rated": true, "colour": "white"}))
        .await;
    let seen = events.next("challenge").await;
    assert_eq!(seen.data["challenge"]["id"], challenge.as_str());
    assert_eq!(seen.data["challenge"]["player"], "Zoe");
    assert_eq!(seen.data["challenge"]["to"], "Robo");
    // The bot accepts it through the Bot API: the game starts, rated.
    let (status, started) = robo
        .post(&format!("/api/challenge/{challenge}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    assert_eq!(started["side"], "black");
    let game = started["game"].as_str().unwrap().to_string();
    let start = events.next("gameStart").await;
    assert_eq!(
        start.data["game"],
        json!({"id": game, "side": "black", "rated": true, "speed": "blitz", "clock": "5+3",
               "opponent": "Zoe", "opponent_bot": false, "outcome": null})
    );
    // Its game stream: the state, seen from Black.
    let mut stream = robo.stream(&format!("/api/bot/game/stream/{game}")).await;
    let first = stream.next("state").await;
    assert_eq!(first.data["players"]["black"]["username"], "Robo");
    assert_eq!(first.data["players"]["black"]["bot"], true);

    let moves = short_game();
    assert_eq!(moves.len(), 27);
    // Not its turn: the service's refusal.
    robo.refused(
        "POST",
        &format!("/api/bot/game/{game}/move/{}", moves[0]),
        json!({}),
        409,
        "not-your-turn",
    )
    .await;
    let mut version = 0;
    for (ply, text) in moves.iter().enumerate() {
        let (status, state) = if ply % 2 == 0 {
            zoe.post(
                &format!("/api/games/{game}/moves"),
                json!({"token": zoe_token, "move": text}),
            )
            .await
        } else {
            if ply == 1 {
                // An illegal move: refused with agon-core's reason, nothing played.
                let (status, refused) = robo
                    .post(&format!("/api/bot/game/{game}/move/f1-e1"), json!({}))
                    .await;
                assert_eq!(status, 409, "{refused}");
                assert_eq!(refused["error"], "not-your-piece", "{refused}");
                assert!(!refused["message"].as_str().unwrap().is_empty());
                robo.refused(
                    "POST",
                    &format!("/api/bot/game/{game}/move/zz"),
                    json!({}),
                    400,
                    "malformed-move",
                )
                .await;
            }
            robo.post(&format!("/api/bot/game/{game}/move/{text}"), json!({}))
                .await
        };
        assert_eq!(status, 200, "ply {ply} {text}: {state}");
        assert_eq!(state["moves"].as_array().unwrap().len(), ply + 1);
        version = state["version"].as_i64().unwrap();
    }
    let finish = events.next("gameFinish").await;
    assert_eq!(finish.data["game"]["id"], game.as_str());
    let outcome = &finish.data["game"]["outcome"];
    assert_ne!(outcome["score"], "*", "{outcome}");
    // The game's stream saw the last move; the rated game moved the bot's rating.
    let last = stream.states_until(version).await;
    assert!(last.last().unwrap().data["outcome"].is_object());
    let (_, after) = zoe.send("GET", "/api/players/robo", Value::Null).await;
    assert!(after.to_string().contains("blitz"), "{after}");
    // Over: a move is refused.
    robo.refused(
        "POST",
        &format!("/api/bot/game/{game}/resign"),
        json!({}),
        409,
        "game-over",
    )
    .await;
}

async fn bots_play_people_and_each_other_only_by_challenge(b: Backend) {
    let server = server(b).await;
    let mut robo = Client::bot(&server, "00000000000000d4", "Robo").await;
    let mut tron = Client::bot(&server, "00000000000000e5", "Tron").await;
    let mut zoe = Client::person(&server, "00000000000000a1", "Zoe").await;
    let mut events = robo.stream("/api/bot/stream/event").await;
    // A bot's seek shows its mark in the lobby.
    let (status, posted) = robo
        .post("/api/bot/seek", json!({"control": "3+2", "rated": true}))
        .await;
    assert_eq!(status, 201, "{posted}");
    let seek = posted["seek"]["id"].as_str().unwrap().to_string();
    assert_eq!(
        (&posted["seek"]["bot"], &posted["seek"]["player"]),
        (&json!(true), &json!("Robo"))
    );
    let (_, list) = zoe.send("GET", "/api/lobby/seeks", Value::Null).await;
    assert_eq!(list["seeks"][0]["bot"], true);
    // Another bot may not take it (by its person's session or its API).
    tron.refused(
        "POST",
        &format!("/api/challenge/{seek}/accept"),
        json!({}),
        403,
        "bots-need-challenge",
    )
    .await;
    // A person takes it: the bot's stream says its game began.
    let (status, started) = zoe
        .post(&format!("/api/lobby/seeks/{seek}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let game = started["game"].as_str().unwrap();
    let start = events.next("gameStart").await;
    assert_eq!(
        (
            start.data["game"]["id"].as_str(),
            &start.data["game"]["rated"]
        ),
        (Some(game), &json!(true))
    );
    // The person resigns: the bot's stream reports the finish.
    let (status, _) = zoe
        .post(
            &format!("/api/games/{game}/resign"),
            json!({"token": started["token"]}),
        )
        .await;
    assert_eq!(status, 200);
    let finish = events.next("gameFinish").await;
    assert_eq!(finish.data["game"]["outcome"]["reason"], "resignation");
    // Its opponent's game is not the bot's to play.
    tron.refused(
        "POST",
        &format!("/api/bot/game/{game}/resign"),
        json!({}),
        403,
        "wrong-token",
    )
    .await;
    // Two bots play each other by a challenge one sends and the other accepts.
    let to_robo = json!({"username": "Robo", "control": "5+3"});
    let (challenge, _) = tron.challenge(to_robo.clone()).await;
    assert_eq!(
        events.next("challenge").await.data["challenge"]["id"],
        challenge.as_str()
    );
    let (status, declined) = robo
        .post(&format!("/api/challenge/{challenge}/decline"), json!({}))
        .await;
    assert_eq!(status, 200, "{declined}");
    let gone = events.next("challengeGone").await;
    assert_eq!(
        (gone.data["id"].as_str(), gone.data["reason"].as_str()),
        (Some(challenge.as_str()), Some("declined"))
    );
    let (challenge, _) = tron.challenge(to_robo).await;
    let (status, started) = robo
        .post(&format!("/api/challenge/{challenge}/accept"), json!({}))
        .await;
    assert_eq!(status, 200, "{started}");
    let start = events.next("gameStart").await;
    assert_eq!(start.data["game"]["opponent_bot"], true);
    // A reconnecting bot finds its game in progress at once.
    drop(events);
    let mut again = robo.stream("/api/bot/stream/event").await;
    let found = again.next("gameStart").await;
    assert_eq!(found.data["game"]["id"], started["game"]);
}

async fn the_bot_api_is_rate_limited_per_token(b: Backend) {
    use agon_web::limits::{LimitConfig, Quota};
    let limits = LimitConfig {
        action: Some(Quota::per_minute(1, 3)),
        ..LimitConfig::off()
    };
    let server = server_with(b, limits).await;
    let mut robo = Client::bot(&server, "00000000000000d4", "Robo").await;
    let mut tron = Client::bot(&server, "00000000000000e5", "Tron").await;
    let path = "/api/bot/game/0011223344556677/resign";
    for _ in 0..3 {
        let (status, _) = robo.post(path, json!({})).await;
        assert_eq!(status, 404);
    }
    robo.refused("POST", path, json!({}), 429, "rate-limited")
        .await;
    // Another token from the same address has its own budget, and so has the address.
    let (status, _) = tron.post(path, json!({})).await;
    assert_eq!(status, 404, "Tron's budget is its own");
    let (status, _) = Client::new(&server)
        .post("/api/games/0011223344556677/resign", json!({"token": "00"}))
        .await;
    assert_eq!(status, 404, "the address's budget is untouched");
}

both_stores!((flavor = "multi_thread", worker_threads = 2);
    the_bot_api_is_rate_limited_per_token,
    an_account_becomes_a_bot_and_holds_tokens,
    a_bot_accepts_a_challenge_and_plays_it_to_the_end,
    bots_play_people_and_each_other_only_by_challenge,
);
