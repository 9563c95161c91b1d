//! The store of accounts (issue 33), on both stores: accounts and their names, passkeys,
//! sessions, recovery codes, deletion, ratings, and a rated game's result applied
//! exactly once; and an older database upgraded in place.

use agon_core::{Position, Side};
use agon_web::game::account::{RecoveryCode, Token, Username, SESSION_IDLE_MS, SESSION_MAX_MS};
use agon_web::game::rating::{rate_game, Rating};
use agon_web::game::speed::Speed;
use agon_web::game::WebGame;
use agon_web::store::{
    Account, Ceremony, NewAccount, Passkey, PasskeyRemoval, RatedGame, Session, StoredRating,
    TOUCH_EVERY_MS,
};
use agon_web::{Level, Store, StoreError};
#[macro_use]
mod common;
use common::Backend;

const ZOE: &str = "00000000000000a1";
const MAX: &str = "00000000000000b2";

async fn store(backend: Backend) -> (Store, common::TestDb) {
    let db = common::database(backend).await;
    (Store::connect(&db.db, 4).await.unwrap(), db)
}

fn new(id: &str, name: &str, handle: u8) -> NewAccount {
    NewAccount {
        id: id.into(),
        username: Username::parse(name).unwrap(),
        user_handle: [handle; 32],
        bot: false,
    }
}

/// Zoe (created at 1000) and Max (a bot, at 2000).
async fn two_accounts(store: &Store) -> [Account; 2] {
    let zoe = store
        .create_account(&new(ZOE, "Zoe", 1), 1000)
        .await
        .unwrap();
    let max = NewAccount {
        bot: true,
        ..new(MAX, "Max_2", 2)
    };
    let max = store.create_account(&max, 2000).await.unwrap();
    [zoe, max]
}

/// The one number `sql` answers, on either store.
async fn number(store: &Store, sql: &str) -> i64 {
    match store {
        Store::Sqlite(s) => s
            .transaction(|tx| Ok(tx.query_row(sql, [], |r| r.get(0))?))
            .unwrap(),
        Store::Postgres(p) => p
            .pool()
            .get()
            .await
            .unwrap()
            .query_one(sql, &[])
            .await
            .unwrap()
            .get(0),
    }
}

fn passkey(id: u8, account: &str, created_ms: i64) -> Passkey {
    Passkey {
        credential_id: vec![id; 16],
        account_id: account.into(),
        passkey: format!("{{\"cred\":{id}}}"),
        counter: i64::from(id),
        name: format!("key {id}"),
        created_ms,
        last_used_ms: None,
    }
}

fn token(k: u8) -> Token {
    Token::session([k; 20])
}

fn codes(seed: u8) -> Vec<RecoveryCode> {
    (0..10)
        .map(|k| RecoveryCode::from_bytes([seed + k; 10]))
        .collect()
}

fn game(id: &str) -> WebGame {
    WebGame::new(
        id.into(),
        [0; 32],
        Side::White,
        Level::Easy,
        1,
        Position::start(),
    )
}

async fn accounts_are_created_and_found_and_look_alikes_refused(b: Backend) {
    let (store, _db) = store(b).await;
    let [zoe, max] = two_accounts(&store).await;
    assert_eq!(
        zoe,
        Account {
            id: ZOE.into(),
            username: "Zoe".into(),
            user_handle: vec![1; 32],
            created_ms: 1000,
            bot: false,
            deleted_ms: None,
        }
    );
    assert!(max.bot);
    assert_eq!(store.account_by_key("zoe").await, Ok(Some(zoe.clone())));
    assert_eq!(store.account_by_key("max_2").await, Ok(Some(max.clone())));
    assert_eq!(
        store.account_by_key("Zoe").await,
        Ok(None),
        "keys are lower case"
    );
    assert_eq!(store.account(MAX).await, Ok(Some(max)));
    assert_eq!(store.account("00000000000000ff").await, Ok(None));
    // The same name in another case, a look-alike, or a separator swapped: taken.
    for (id, name) in [
        ("c1", "ZOE"),
        ("c2", "z0e"),
        ("c3", "Max-2"),
        ("c4", "rnax_Z"),
    ] {
        let refused = store.create_account(&new(id, name, 9), 3000).await;
        assert_eq!(refused, Err(StoreError::UsernameTaken), "{name}");
        assert_eq!(store.account(id).await, Ok(None), "{name} wrote nothing");
    }
    store
        .create_account(&new("c5", "Zed", 5), 3000)
        .await
        .unwrap();
    assert_eq!(number(&store, "SELECT count(*) FROM accounts").await, 3);
}

async fn passkeys_are_added_listed_and_removed(b: Backend) {
    let (store, _db) = store(b).await;
    let [zoe, max] = two_accounts(&store).await;
    let second = Passkey {
        last_used_ms: Some(7000),
        ..passkey(2, &zoe.id, 6000)
    };
    store.add_passkey(&second).await.unwrap();
    store.add_passkey(&passkey(1, &zoe.id, 5000)).await.unwrap();
    store.add_passkey(&passkey(3, &max.id, 5000)).await.unwrap();
    assert_eq!(
        store.passkeys(&zoe.id).await.unwrap(),
        [passkey(1, &zoe.id, 5000), second.clone()],
        "oldest first"
    );
    assert_eq!(
        store.add_passkey(&passkey(1, &max.id, 8000)).await,
        Err(StoreError::PasskeyTaken)
    );
    assert_eq!(
        store
            .add_passkey(&passkey(4, "00000000000000ff", 8000))
            .await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(
        store.remove_passkey(&max.id, &[1; 16]).await,
        Ok(false),
        "not Max's"
    );
    assert_eq!(store.remove_passkey(&zoe.id, &[1; 16]).await, Ok(true));
    assert_eq!(store.remove_passkey(&zoe.id, &[1; 16]).await, Ok(false));
    assert_eq!(store.passkeys(&zoe.id).await.unwrap(), [second]);
    assert_eq!(
        store.passkeys(&max.id).await.unwrap(),
        [passkey(3, &max.id, 5000)]
    );
}

async fn sessions_are_found_touched_and_ended(b: Backend) {
    let (store, _db) = store(b).await;
    let [zoe, max] = two_accounts(&store).await;
    let t0 = 10_000;
    store
        .create_session(&token(1), &zoe.id, "Firefox", t0)
        .await
        .unwrap();
    let session = Session {
        account_id: zoe.id.clone(),
        label: "Firefox".into(),
        created_ms: t0,
        last_used_ms: t0,
    };
    assert_eq!(
        store.session(&token(1), t0 + 5).await,
        Ok(Some(session.clone()))
    );
    assert_eq!(store.session(&token(2), t0 + 5).await, Ok(None));
    // Written at most once a minute.
    assert_eq!(
        store
            .touch_session(&token(1), t0 + TOUCH_EVERY_MS - 1)
            .await,
        Ok(false)
    );
    let t1 = t0 + TOUCH_EVERY_MS;
    assert_eq!(store.touch_session(&token(1), t1).await, Ok(true));
    assert_eq!(store.touch_session(&token(1), t1 + 1).await, Ok(false));
    assert_eq!(
        store.touch_session(&token(2), t1).await,
        Ok(false),
        "no such session"
    );
    let touched = Session {
        last_used_ms: t1,
        ..session
    };
    assert_eq!(
        store.session(&token(1), t1).await,
        Ok(Some(touched.clone()))
    );
    // Idle for 30 days, or a year old however used: over.
    assert_eq!(
        store.session(&token(1), t1 + SESSION_IDLE_MS - 1).await,
        Ok(Some(touched))
    );
    assert_eq!(
        store.session(&token(1), t1 + SESSION_IDLE_MS).await,
        Ok(None)
    );
    let late = t0 + SESSION_MAX_MS;
    assert_eq!(store.touch_session(&token(1), late - 1).await, Ok(true));
    assert!(store.session(&token(1), late - 1).await.unwrap().is_some());
    assert_eq!(store.session(&token(1), late).await, Ok(None));
    // Sign-out; sign-out everywhere ends only that account's sessions.
    assert_eq!(store.delete_session(&token(1)).await, Ok(true));
    assert_eq!(store.delete_session(&token(1)).await, Ok(false));
    for k in 2..5 {
        store
            .create_session(&token(k), &zoe.id, "Chromium", t0)
            .await
            .unwrap();
    }
    store
        .create_session(&token(9), &max.id, "bot", t0)
        .await
        .unwrap();
    assert_eq!(store.delete_sessions(&zoe.id).await, Ok(3));
    assert_eq!(store.session(&token(3), t0).await, Ok(None));
    assert_eq!(store.delete_sessions(&zoe.id).await, Ok(0));
    assert!(store.session(&token(9), t0).await.unwrap().is_some());
    assert_eq!(
        store
            .create_session(&token(5), "00000000000000ff", "x", t0)
            .await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(number(&store, "SELECT count(*) FROM sessions").await, 1);
}

async fn a_recovery_code_works_once(b: Backend) {
    let (store, _db) = store(b).await;
    let [zoe, max] = two_accounts(&store).await;
    let first = codes(0);
    store.set_recovery_codes(&zoe.id, &first).await.unwrap();
    assert_eq!(store.recovery_codes_left(&zoe.id).await, Ok(10));
    assert_eq!(store.recovery_codes_left(&max.id).await, Ok(0));
    assert_eq!(
        store.use_recovery_code(&zoe.id, &first[3], 50).await,
        Ok(true)
    );
    assert_eq!(
        store.use_recovery_code(&zoe.id, &first[3], 51).await,
        Ok(false),
        "used"
    );
    assert_eq!(
        store.use_recovery_code(&max.id, &first[4], 52).await,
        Ok(false),
        "Zoe's"
    );
    let stranger = RecoveryCode::from_bytes([200; 10]);
    assert_eq!(
        store.use_recovery_code(&zoe.id, &stranger, 53).await,
        Ok(false)
    );
    assert_eq!(store.recovery_codes_left(&zoe.id).await, Ok(9));
    assert_eq!(
        number(
            &store,
            "SELECT used_ms FROM recovery_codes WHERE used_ms IS NOT NULL"
        )
        .await,
        50
    );
    // New codes replace the old ones.
    let second = codes(100);
    store.set_recovery_codes(&zoe.id, &second).await.unwrap();
    assert_eq!(
        store.use_recovery_code(&zoe.id, &first[5], 60).await,
        Ok(false)
    );
    assert_eq!(
        store.use_recovery_code(&zoe.id, &second[9], 61).await,
        Ok(true)
    );
    assert_eq!(store.recovery_codes_left(&zoe.id).await, Ok(9));
    assert_eq!(
        store.set_recovery_codes("00000000000000ff", &first).await,
        Err(StoreError::NoAccount)
    );
}

async fn ratings_are_read_and_written_per_speed(b: Backend) {
    let (store, _db) = store(b).await;
    let [zoe, _] = two_accounts(&store).await;
    assert_eq!(store.rating(&zoe.id, Speed::Blitz).await, Ok(None));
    let stored = StoredRating {
        rating: Rating::new(1623.25, 87.5, 0.0612).unwrap(),
        games: 14,
        last_game_ms: Some(99),
    };
    store
        .set_rating(&zoe.id, Speed::Blitz, &stored)
        .await
        .unwrap();
    assert_eq!(store.rating(&zoe.id, Speed::Blitz).await, Ok(Some(stored)));
    assert_eq!(store.rating(&zoe.id, Speed::Rapid).await, Ok(None));
    let again = StoredRating {
        games: 15,
        ..StoredRating::NEW
    };
    store
        .set_rating(&zoe.id, Speed::Blitz, &again)
        .await
        .unwrap();
    assert_eq!(store.rating(&zoe.id, Speed::Blitz).await, Ok(Some(again)));
    assert_eq!(
        store
            .set_rating("00000000000000ff", Speed::Blitz, &stored)
            .await,
        Err(StoreError::NoAccount)
    );
}

fn ceremony(id: &str, account: Option<&str>, expires_ms: i64) -> Ceremony {
    Ceremony {
        id: id.into(),
        kind: "register".into(),
        state: format!("{{\"challenge\":\"{id}\"}}"),
        account_id: account.map(Into::into),
        expires_ms,
    }
}

async fn a_ceremony_is_read_once_before_it_expires(b: Backend) {
    let (store, _db) = store(b).await;
    let [zoe, _] = two_accounts(&store).await;
    let signup = ceremony("c1", None, 5000);
    let passkey = Ceremony {
        kind: "authenticate".into(),
        ..ceremony("c2", Some(&zoe.id), 5000)
    };
    store.put_ceremony(&signup).await.unwrap();
    store.put_ceremony(&passkey).await.unwrap();
    assert_eq!(store.put_ceremony(&signup).await, Err(StoreError::Conflict));
    assert_eq!(
        store
            .put_ceremony(&ceremony("c3", Some("00000000000000ff"), 5000))
            .await,
        Err(StoreError::NoAccount)
    );
    let odd = Ceremony {
        kind: "sing".into(),
        ..ceremony("c4", None, 5000)
    };
    // The table's check refuses any other kind (SQLite's constraint errors all read as
    // conflicts).
    let refused = store.put_ceremony(&odd).await.unwrap_err();
    match b {
        Backend::Sqlite => assert_eq!(refused, StoreError::Conflict),
        Backend::Postgres => assert!(
            refused.to_string().contains("ceremonies_kind_check"),
            "{refused}"
        ),
    }
    assert_eq!(store.take_ceremony("c4", 0).await, Ok(None));
    assert_eq!(store.take_ceremony("c1", 4999).await, Ok(Some(signup)));
    assert_eq!(store.take_ceremony("c1", 4999).await, Ok(None), "read once");
    assert_eq!(store.take_ceremony("c2", 4999).await, Ok(Some(passkey)));
    // Expired: not handed out, and gone.
    store
        .put_ceremony(&ceremony("c5", None, 5000))
        .await
        .unwrap();
    assert_eq!(store.take_ceremony("c5", 5000).await, Ok(None));
    assert_eq!(number(&store, "SELECT count(*) FROM ceremonies").await, 0);
    // Ceremonies begun and never finished are pruned once expired.
    for (id, expires) in [("c6", 100), ("c7", 200), ("c8", 300)] {
        store
            .put_ceremony(&ceremony(id, None, expires))
            .await
            .unwrap();
    }
    assert_eq!(store.prune_ceremonies(200).await, Ok(2));
    assert_eq!(store.prune_ceremonies(200).await, Ok(0));
    assert_eq!(
        store.take_ceremony("c8", 250).await.map(|c| c.is_some()),
        Ok(true)
    );
}

fn rated(game_id: &str, winner: Option<Side>) -> RatedGame {
    RatedGame {
        game_id: game_id.into(),
        players: [ZOE.into(), MAX.into()],
        speed: Speed::Rapid,
        winner,
    }
}

async fn a_rated_game_is_applied_exactly_once(b: Backend) {
    let (store, _db) = store(b).await;
    two_accounts(&store).await;
    let t1 = 1_000_000;
    let after = store
        .apply_rated_game(&rated("g1", Some(Side::White)), t1)
        .await;
    let [white, black] = rate_game([Rating::DEFAULT; 2], [0, 0], Some(Side::White)).unwrap();
    let expected = [white, black].map(|rating| StoredRating {
        rating,
        games: 1,
        last_game_ms: Some(t1),
    });
    assert_eq!(after, Ok(Some(expected)));
    // The same game again, even later: nothing changes.
    assert_eq!(
        store.apply_rated_game(&rated("g1", None), t1 + 5).await,
        Ok(None)
    );
    assert_eq!(store.rating(ZOE, Speed::Rapid).await, Ok(Some(expected[0])));
    assert_eq!(store.rating(MAX, Speed::Rapid).await, Ok(Some(expected[1])));
    assert_eq!(
        number(&store, "SELECT count(*) FROM rating_changes").await,
        2
    );
    // The next game widens each deviation for the time away, then rates.
    let t2 = t1 + 3 * 86_400_000;
    let after = store
        .apply_rated_game(&rated("g2", None), t2)
        .await
        .unwrap()
        .unwrap();
    let again = rate_game([white, black], [t2 - t1; 2], None).unwrap();
    assert_eq!(after.map(|r| r.rating), again);
    assert_eq!(after.map(|r| (r.games, r.last_game_ms)), [(2, Some(t2)); 2]);
    assert_eq!(
        store.rating(ZOE, Speed::Blitz).await,
        Ok(None),
        "another speed"
    );
    // The history: before and after, for each player.
    assert_eq!(
        number(
            &store,
            "SELECT count(*) FROM rating_changes WHERE game_id = 'g2' AND speed = 'rapid'"
        )
        .await,
        2
    );
    let before_ms = number(
        &store,
        &format!(
            "SELECT CAST(before_rating * 1000 AS BIGINT) FROM rating_changes \
             WHERE game_id = 'g2' AND account_id = '{MAX}'"
        ),
    )
    .await;
    assert_eq!(before_ms, (black.rating * 1000.0) as i64);
    // Two accounts, or nothing.
    let alone = RatedGame {
        players: [ZOE.into(), ZOE.into()],
        ..rated("g3", None)
    };
    assert_eq!(
        store.apply_rated_game(&alone, t2).await,
        Err(StoreError::NoAccount)
    );
    let stranger = RatedGame {
        players: [ZOE.into(), "00000000000000ff".into()],
        ..rated("g3", None)
    };
    assert_eq!(
        store.apply_rated_game(&stranger, t2).await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(
        number(&store, "SELECT count(*) FROM rating_changes").await,
        4
    );
}

async fn two_handles_apply_a_rated_game_once(b: Backend) {
    let (first, db) = store(b).await;
    let second = Store::connect(&db.db, 4).await.unwrap();
    two_accounts(&first).await;
    for round in 0..10 {
        let game = rated(&format!("game{round}"), Some(Side::Black));
        let (a, b) = tokio::join!(
            first.apply_rated_game(&game, 5000 + round),
            second.apply_rated_game(&game, 5000 + round)
        );
        let applied = [a.unwrap(), b.unwrap()];
        assert_eq!(
            applied.iter().filter(|a| a.is_some()).count(),
            1,
            "round {round}: {applied:?}"
        );
    }
    assert_eq!(
        number(&first, "SELECT count(*) FROM rating_changes").await,
        20
    );
    let zoe = first.rating(ZOE, Speed::Rapid).await.unwrap().unwrap();
    assert_eq!(zoe.games, 10);
}

/// Two servers creating look-alike names at once: one account, and the other refused
/// by name (not a conflict nor a database error).
async fn two_handles_create_look_alike_names_once(b: Backend) {
    let (first, db) = store(b).await;
    let second = Store::connect(&db.db, 4).await.unwrap();
    for round in 0..10u8 {
        let (zoe, look_alike) = (
            new(&format!("a{round}"), &format!("Zoe{round}"), round),
            new(&format!("b{round}"), &format!("z0E{round}"), 100 + round),
        );
        let (a, b) = tokio::join!(
            first.create_account(&zoe, 1),
            second.create_account(&look_alike, 1)
        );
        let mut results = [a.map(|a| a.id), b.map(|b| b.id)];
        if results[0].is_err() {
            results.swap(0, 1);
        }
        let [Ok(_), Err(StoreError::UsernameTaken)] = &results else {
            panic!("round {round}: {results:?}")
        };
    }
    assert_eq!(number(&first, "SELECT count(*) FROM accounts").await, 10);
}

/// Two servers adding the same credential to two accounts at once: one has it, the other
/// is refused by name.
async fn two_handles_add_a_passkey_once(b: Backend) {
    let (first, db) = store(b).await;
    let second = Store::connect(&db.db, 4).await.unwrap();
    two_accounts(&first).await;
    for round in 0..10u8 {
        let (zoes, maxs) = (passkey(round, ZOE, 1), passkey(round, MAX, 1));
        let (a, b) = tokio::join!(first.add_passkey(&zoes), second.add_passkey(&maxs));
        let mut results = [a, b];
        if results[0].is_err() {
            results.swap(0, 1);
        }
        assert_eq!(
            results,
            [Ok(()), Err(StoreError::PasskeyTaken)],
            "round {round}"
        );
    }
    assert_eq!(number(&first, "SELECT count(*) FROM passkeys").await, 10);
}

/// Two servers removing an account's two passkeys at once: one is removed, the other
/// kept as the last (the account's row lock orders them), never none left.
async fn two_handles_keep_the_last_passkey(b: Backend) {
    let (first, db) = store(b).await;
    let second = Store::connect(&db.db, 4).await.unwrap();
    two_accounts(&first).await;
    for round in 0..10u8 {
        let (one, two) = (2 * round, 2 * round + 1);
        first.add_passkey(&passkey(one, ZOE, 1)).await.unwrap();
        first.add_passkey(&passkey(two, ZOE, 1)).await.unwrap();
        let (id_one, id_two) = ([one; 16], [two; 16]);
        let (a, b) = tokio::join!(
            first.remove_passkey_not_last(ZOE, &id_one),
            second.remove_passkey_not_last(ZOE, &id_two)
        );
        let mut results = [a.unwrap(), b.unwrap()];
        results.sort_by_key(|r| *r != PasskeyRemoval::Removed);
        assert_eq!(
            results,
            [PasskeyRemoval::Removed, PasskeyRemoval::Last],
            "round {round}"
        );
        assert_eq!(first.passkeys(ZOE).await.unwrap().len(), 1);
        let left = first.passkeys(ZOE).await.unwrap()[0].credential_id.clone();
        first.remove_passkey(ZOE, &left).await.unwrap();
    }
}

async fn two_handles_take_a_ceremony_once(b: Backend) {
    let (first, db) = store(b).await;
    let second = Store::connect(&db.db, 4).await.unwrap();
    for round in 0..10 {
        let id = format!("c{round}");
        first
            .put_ceremony(&ceremony(&id, None, 5000))
            .await
            .unwrap();
        let (a, b) = tokio::join!(first.take_ceremony(&id, 1), second.take_ceremony(&id, 1));
        let taken = [a.unwrap(), b.unwrap()];
        assert_eq!(
            taken.iter().flatten().count(),
            1,
            "round {round}: {taken:?}"
        );
    }
}

async fn a_deleted_account_keeps_its_name_and_record_and_loses_its_secrets(b: Backend) {
    let (store, _db) = store(b).await;
    let [zoe, max] = two_accounts(&store).await;
    store.insert(&game("0011223344556677"), 500).await.unwrap();
    store.add_passkey(&passkey(1, &zoe.id, 600)).await.unwrap();
    store
        .create_session(&token(1), &zoe.id, "Firefox", 600)
        .await
        .unwrap();
    store
        .create_session(&token(2), &max.id, "bot", 600)
        .await
        .unwrap();
    store.set_recovery_codes(&zoe.id, &codes(0)).await.unwrap();
    store
        .put_ceremony(&ceremony("c1", Some(ZOE), 5000))
        .await
        .unwrap();
    let game = RatedGame {
        game_id: "0011223344556677".into(),
        ..rated("", Some(Side::White))
    };
    let [zoe_rating, _] = store.apply_rated_game(&game, 700).await.unwrap().unwrap();
    store.delete_account(&zoe.id, 800).await.unwrap();
    let deleted = Account {
        deleted_ms: Some(800),
        ..zoe.clone()
    };
    assert_eq!(store.account_by_key("zoe").await, Ok(Some(deleted)));
    assert_eq!(store.passkeys(&zoe.id).await, Ok(vec![]));
    assert_eq!(store.session(&token(1), 900).await, Ok(None));
    assert_eq!(store.recovery_codes_left(&zoe.id).await, Ok(0));
    // Nothing of Zoe's is left in the tables of secrets and ceremonies.
    let left = format!(
        "SELECT (SELECT count(*) FROM passkeys WHERE account_id = '{ZOE}')
              + (SELECT count(*) FROM sessions WHERE account_id = '{ZOE}')
              + (SELECT count(*) FROM recovery_codes WHERE account_id = '{ZOE}')
              + (SELECT count(*) FROM api_tokens WHERE account_id = '{ZOE}')
              + (SELECT count(*) FROM ceremonies WHERE account_id = '{ZOE}')"
    );
    assert_eq!(number(&store, &left).await, 0);
    // Max keeps his session; the name stays taken; the record stays.
    assert!(store.session(&token(2), 900).await.unwrap().is_some());
    assert_eq!(
        store.create_account(&new("c1", "zoe", 3), 900).await,
        Err(StoreError::UsernameTaken)
    );
    assert!(store.load("0011223344556677").await.unwrap().is_some());
    assert_eq!(store.rating(ZOE, Speed::Rapid).await, Ok(Some(zoe_rating)));
    assert_eq!(
        number(&store, "SELECT count(*) FROM rating_changes").await,
        2
    );
    // A deleted account takes nothing new, and is not deleted twice.
    assert_eq!(
        store.delete_account(&zoe.id, 900).await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(
        store.delete_account("00000000000000ff", 900).await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(
        store.add_passkey(&passkey(5, &zoe.id, 900)).await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(
        store.create_session(&token(3), &zoe.id, "x", 900).await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(
        store.set_recovery_codes(&zoe.id, &codes(0)).await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(
        store
            .apply_rated_game(&rated("g9", None), 900)
            .await
            .map(|a| a.is_some()),
        Ok(true),
        "a deleted player's game still rates its opponent"
    );
}

/// A database of the version before accounts, with a game in it (written as that
/// version's servers wrote it), opens, migrates, keeps its game and takes accounts.
async fn an_older_database_upgrades_in_place(b: Backend) {
    let db = common::older_database(b, (4, 2), "", "").await;
    let store = Store::connect(&db.db, 2).await.unwrap();
    let (version, newest) = match b {
        Backend::Sqlite => (
            number(&store, "PRAGMA user_version").await,
            agon_web::store::VERSION,
        ),
        Backend::Postgres => (
            number(&store, "SELECT max(version) FROM agon_schema").await,
            agon_web::store::PG_VERSION,
        ),
    };
    assert_eq!(version, newest);
    assert_eq!(newest, [13, 11][usize::from(b == Backend::Postgres)]);
    let kept = store.load("0123456789abcdef").await.unwrap().unwrap();
    assert_eq!((kept.version, kept.plies(), kept.seed), (1, 1, 7));
    assert_eq!(kept.game.moves()[0].to_string(), "f1-e1");
    let [zoe, _] = two_accounts(&store).await;
    assert_eq!(store.account(ZOE).await, Ok(Some(zoe)));
    // The older game's seat can be claimed (the newest migration's table).
    let claimed = store
        .claim_seat("0123456789abcdef", Side::White, ZOE, 5)
        .await;
    assert_eq!(claimed.as_deref(), Ok(ZOE));
    // And again: nothing left to migrate.
    drop(store);
    let store = Store::connect(&db.db, 2).await.unwrap();
    assert_eq!(store.counts().await, Ok((1, 1)));
}

/// A claimed seat: claimed once, refused to another account; its row goes with its
/// game when the game is pruned (the foreign key cascades, so pruning never fails on it).
async fn a_claimed_seat_is_kept_and_pruned_with_its_game(b: Backend) {
    let (store, _db) = store(b).await;
    let [zoe, max] = two_accounts(&store).await;
    let g = game("00000000000000c3");
    store.insert(&g, 5).await.unwrap();
    assert_eq!(store.seat_accounts(&g.id).await.unwrap(), [None, None]);
    assert_eq!(
        store
            .claim_seat(&g.id, Side::Black, &max.id, 6)
            .await
            .unwrap(),
        max.id
    );
    assert_eq!(
        store
            .claim_seat(&g.id, Side::Black, &zoe.id, 7)
            .await
            .unwrap(),
        max.id
    );
    assert_eq!(
        store
            .claim_seat(&g.id, Side::White, &zoe.id, 7)
            .await
            .unwrap(),
        zoe.id
    );
    assert_eq!(
        store.seat_accounts(&g.id).await.unwrap(),
        [Some(zoe.id.clone()), Some(max.id.clone())]
    );
    store.delete_account(&zoe.id, 8).await.unwrap();
    assert_eq!(
        store.claim_seat(&g.id, Side::White, &zoe.id, 9).await,
        Err(StoreError::NoAccount)
    );
    assert_eq!(store.prune(1_000, None).await.unwrap(), 1);
    assert!(store.load(&g.id).await.unwrap().is_none());
    assert_eq!(store.seat_accounts(&g.id).await.unwrap(), [None, None]);
}

both_stores!((); a_claimed_seat_is_kept_and_pruned_with_its_game, accounts_are_created_and_found_and_look_alikes_refused, passkeys_are_added_listed_and_removed, sessions_are_found_touched_and_ended, a_recovery_code_works_once, a_ceremony_is_read_once_before_it_expires, ratings_are_read_and_written_per_speed, a_rated_game_is_applied_exactly_once, a_deleted_account_keeps_its_name_and_record_and_loses_its_secrets, an_older_database_upgrades_in_place);
mod concurrent {
    use super::*;
    both_stores!((flavor = "multi_thread", worker_threads = 2); two_handles_apply_a_rated_game_once, two_handles_create_look_alike_names_once, two_handles_take_a_ceremony_once, two_handles_add_a_passkey_once, two_handles_keep_the_last_passkey);
}
