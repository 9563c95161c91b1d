//! Faults past a killed server, on the real PostgreSQL: the database restarted mid-game,
//! the link between one server and the database cut and restored or gone silent in the
//! middle of a change (a TCP proxy: `common::proxy`), a server whose clock is a few
//! seconds off. After each, every move answered `200` is in the database exactly once,
//! the versions are contiguous, no clock is negative, and the players and pages carry on
//! by themselves (a refused request is `503 server-busy` with `Retry-After`, which the
//! page waits and sends again). Each test prints what its fault cost.
//!
//! These need PostgreSQL (see `tests/common`): without it (and without
//! `AGON_WEB_TEST_PG`) they are skipped with a notice.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agon_core::random::Rng;
use agon_core::{Game, Move};
use agon_web::Database;
use serde_json::{json, Value};

#[macro_use]
mod common;
use common::proxy::{Link, Proxy};
use common::{chooser, friend_game, page, post_json, random_legal, stream, strings, Process};

/// The pause between a player's moves.
const PACE: Duration = Duration::from_millis(20);

/// What the players of a test share: their counts, and when the fault went and who has
/// moved since.
#[derive(Default)]
struct Progress {
    /// Moves answered `200`.
    moves: AtomicUsize,
    /// Requests refused (`503`).
    refused: AtomicUsize,
    /// Why, in the server's words (each once).
    reasons: Mutex<std::collections::BTreeSet<String>>,
    /// Set to end the games.
    stop: AtomicBool,
    /// Games that ended (by the rules) before moving again after the fault.
    ended: AtomicUsize,
    /// When the fault went (the database back, the link restored).
    healed: Mutex<Option<Instant>>,
    /// When each game, in turn, had its first move answered after that.
    recovered: Mutex<Vec<Instant>>,
}

/// A game as one player (both seats) played it.
struct Played {
    id: String,
    /// The moves answered `200`, or found stored after a refused request, in order.
    accepted: Vec<String>,
    /// The version of each change, from the join on.
    versions: Vec<i64>,
    /// The state last answered.
    state: Value,
}

/// The clock of a state is never negative.
fn check_clock(state: &Value) {
    if let Some(clock) = state["clock"].as_object() {
        for side in ["white_ms", "black_ms"] {
            let ms = clock[side].as_i64().unwrap();
            assert!(ms >= 0, "{side} negative: {}", state["clock"]);
        }
    }
}

/// A refused request is `503 server-busy` with `Retry-After`: answers its seconds.
fn refusal(progress: &Progress, status: u16, retry_after: Option<u64>, body: &Value) -> u64 {
    assert_eq!(status, 503, "only 503 is a refusal: {body}");
    assert_eq!(body["error"], "server-busy", "{body}");
    progress.refused.fetch_add(1, Ordering::SeqCst);
    let why = body["message"].as_str().unwrap_or_default().to_string();
    progress.reasons.lock().unwrap().insert(why);
    retry_after.unwrap_or_else(|| panic!("503 without Retry-After: {body}"))
}

/// A request's status, `Retry-After` and JSON body.
async fn answer(response: reqwest::Response) -> (u16, Option<u64>, Value) {
    let status = response.status().as_u16();
    let retry = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok()?.parse().ok());
    let body = response.json().await.unwrap();
    (status, retry, body)
}

/// Game `id` as `base` reads it, waiting out refusals as a page does.
async fn read(client: &reqwest::Client, base: &str, id: &str, progress: &Progress) -> Value {
    loop {
        let sent = client.get(format!("{base}/api/games/{id}")).send().await;
        let (status, retry, body) = answer(sent.expect("the server answers")).await;
        if status == 200 {
            return body;
        }
        let wait = refusal(progress, status, retry, &body);
        tokio::time::sleep(Duration::from_secs(wait)).await;
    }
}

/// One player making both seats' moves in game `id` (seat `s` through `bases[seats[s]]`)
/// until told to stop: a refused move waits its `Retry-After`, then reads the game (the
/// move may have been stored just before the database was lost) and carries on.
async fn player(
    client: reqwest::Client,
    bases: [String; 2],
    seats: [usize; 2],
    (id, white, black, mut state): (String, String, String, Value),
    progress: Arc<Progress>,
    seed: u64,
) -> Played {
    let mut rng = Rng::new(seed);
    let tokens = [white, black];
    let mut accepted = Vec::new();
    let mut versions = vec![state["version"].as_i64().unwrap()];
    let mut recovered = false;
    while !progress.stop.load(Ordering::SeqCst) && state["outcome"].is_null() {
        let mover = chooser(&state);
        let m = random_legal(&state, &mut rng);
        let base = &bases[seats[mover]];
        let sent = client
            .post(format!("{base}/api/games/{id}/moves"))
            .json(&json!({"token": tokens[mover], "move": m}))
            .send()
            .await;
        let (status, retry, body) = answer(sent.expect("the server answers")).await;
        if status == 200 {
            state = body;
            accepted.push(m);
            versions.push(state["version"].as_i64().unwrap());
            progress.moves.fetch_add(1, Ordering::SeqCst);
            if !recovered && progress.healed.lock().unwrap().is_some() {
                recovered = true;
                progress.recovered.lock().unwrap().push(Instant::now());
            }
        } else {
            let wait = refusal(&progress, status, retry, &body);
            tokio::time::sleep(Duration::from_secs(wait)).await;
            state = read(&client, base, &id, &progress).await;
            let stored = strings(&state["moves"]);
            if stored.len() == accepted.len() + 1 {
                // Its commit went through, its answer was lost with the connection.
                assert_eq!(stored.last(), Some(&m), "game {id}");
                accepted.push(m);
                versions.push(state["version"].as_i64().unwrap());
            } else {
                assert_eq!(stored, accepted, "game {id}: a move lost or added");
            }
        }
        check_clock(&state);
        tokio::time::sleep(PACE).await;
    }
    if !recovered && !state["outcome"].is_null() {
        progress.ended.fetch_add(1, Ordering::SeqCst);
    }
    Played {
        id,
        accepted,
        versions,
        state,
    }
}

/// Games between friends played on two servers while a fault comes and goes.
struct Games {
    progress: Arc<Progress>,
    players: Vec<tokio::task::JoinHandle<Played>>,
    /// The games whose player is done (the game over).
    finished: Vec<Played>,
    pages: Vec<(String, tokio::task::JoinHandle<Vec<i64>>)>,
    done: Arc<AtomicUsize>,
}

impl Games {
    /// `n` games with a running clock, each seat on another server of `bases`, with a
    /// page watching each game on each server.
    async fn start(bases: [String; 2], n: usize) -> Games {
        let client = client();
        let progress = Arc::new(Progress::default());
        let done = Arc::new(AtomicUsize::new(0));
        let (mut players, mut pages) = (Vec::new(), Vec::new());
        for g in 0..n {
            let seats = [g % 2, (g + 1) % 2];
            let game = friend_game(&client, &bases[seats[0]], &bases[seats[1]], "5+0").await;
            for base in &bases {
                // A page stays on its server (which lives): a stream that ends or is
                // refused is opened there again.
                let on = [base.clone(), base.clone()];
                let watching = page(client.clone(), on, 0, game.0.clone(), done.clone());
                pages.push((game.0.clone(), tokio::spawn(watching)));
            }
            let played = player(
                client.clone(),
                bases.clone(),
                seats,
                game,
                progress.clone(),
                g as u64 + 11,
            );
            players.push(tokio::spawn(played));
        }
        Games {
            finished: Vec::new(),
            progress,
            players,
            pages,
            done,
        }
    }

    /// Waits until `n` moves were answered `200` since the start.
    async fn until_moves(&mut self, n: usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while self.progress.moves.load(Ordering::SeqCst) < n {
            assert!(Instant::now() < deadline, "the games did not get going");
            self.players_alive().await;
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Fails the test at once with the panic of a player that panicked (a wrong answer).
    async fn players_alive(&mut self) {
        let mut i = 0;
        while i < self.players.len() {
            if !self.players[i].is_finished() {
                i += 1;
                continue;
            }
            match self.players.swap_remove(i).await {
                Ok(played) => self.finished.push(played),
                Err(e) => std::panic::resume_unwind(e.into_panic()),
            }
        }
    }

    /// The fault went: answers the seconds until every game had a move answered `200`
    /// again, and ends the games a moment later; checks them against the database at
    /// `url`, and prints what the fault cost.
    async fn heal_and_finish(mut self, fault: &str, url: &str, fault_at: Instant) {
        let healed = Instant::now();
        *self.progress.healed.lock().unwrap() = Some(healed);
        let games = self.players.len() + self.finished.len();
        let deadline = healed + Duration::from_secs(30);
        let moving =
            |p: &Progress| p.recovered.lock().unwrap().len() + p.ended.load(Ordering::SeqCst);
        while moving(&self.progress) < games {
            assert!(
                Instant::now() < deadline,
                "{fault}: not every game moved again within 30 s"
            );
            self.players_alive().await;
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        let recovered = *self
            .progress
            .recovered
            .lock()
            .unwrap()
            .last()
            .expect("no game left");
        tokio::time::sleep(Duration::from_millis(500)).await;
        self.progress.stop.store(true, Ordering::SeqCst);
        let mut played = self.finished;
        for p in self.players {
            played.push(p.await.unwrap());
        }
        // The pages catch up by themselves (their server's listener back, if it was cut).
        tokio::time::sleep(Duration::from_secs(2)).await;
        self.done.store(1, Ordering::SeqCst);
        let mut seen: Vec<(String, Vec<i64>)> = Vec::new();
        for (id, p) in self.pages {
            seen.push((id, p.await.unwrap()));
        }
        check_stored(url, &played).await;
        for (id, versions) in seen {
            let game = played.iter().find(|p| p.id == id).unwrap();
            let last = game.state["version"].as_i64().unwrap();
            assert!(
                versions.windows(2).all(|w| w[0] < w[1]),
                "game {id}: a version twice or out of order: {versions:?}"
            );
            assert_eq!(versions.last(), Some(&last), "game {id}'s page");
        }
        println!(
            "{fault}: {} requests refused (503 server-busy with Retry-After: {:?}), none \
             failed otherwise; the fault lasted {:.1} s; every game moved again {:.1} s \
             after it went; {} moves made in {games} games",
            self.progress.refused.load(Ordering::SeqCst),
            self.progress.reasons.lock().unwrap(),
            (healed - fault_at).as_secs_f64(),
            (recovered - healed).as_secs_f64(),
            self.progress.moves.load(Ordering::SeqCst),
        );
    }
}

/// A client that gives up on a request after 30 s (a server that hangs fails the test).
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap()
}

/// Checks each game against the database at `url`: exactly its accepted moves, at plies
/// 0, 1, 2, ..., replaying through agon-core; its versions contiguous up to the stored
/// one; its stored clock not negative.
async fn check_stored(url: &str, played: &[Played]) {
    let admin = common::pg_client(url).await;
    for game in played {
        let id = &game.id;
        let rows = admin
            .query(
                "SELECT ply, move FROM moves WHERE game_id = $1 ORDER BY ply",
                &[id],
            )
            .await
            .unwrap();
        let plies: Vec<i32> = rows.iter().map(|r| r.get(0)).collect();
        let stored: Vec<String> = rows.iter().map(|r| r.get(1)).collect();
        assert_eq!(
            plies,
            (0..plies.len() as i32).collect::<Vec<_>>(),
            "game {id}"
        );
        assert_eq!(
            stored, game.accepted,
            "game {id}: each move once, none other"
        );
        let mut replay = Game::new();
        for m in &stored {
            replay.play(m.parse::<Move>().unwrap()).unwrap();
        }
        assert_eq!(
            game.state["position"],
            replay.position().to_text().to_string()
        );
        let row = admin
            .query_one(
                "SELECT version, white_ms, black_ms FROM games WHERE id = $1",
                &[id],
            )
            .await
            .unwrap();
        let version: i64 = row.get(0);
        let first = game.versions[0];
        assert_eq!(
            game.versions,
            (first..=version).collect::<Vec<_>>(),
            "game {id}: versions contiguous up to the stored one"
        );
        for ms in [row.get::<_, Option<i64>>(1), row.get(2)] {
            assert!(ms.unwrap_or(0) >= 0, "game {id}: a stored clock negative");
        }
    }
}

/// Two servers on `urls` (each its own way to the database), ready, with more
/// arguments and environment for each.
async fn servers(urls: [&str; 2], args: &[&str], env: [&[(&str, &str)]; 2]) -> [Process; 2] {
    let client = client();
    let mut servers =
        [0, 1].map(|i| Process::start_with(&Database::Postgres(urls[i].to_string()), args, env[i]));
    for s in &mut servers {
        s.wait_ready(&client).await;
    }
    servers
}

/// A PostgreSQL server of this test alone (it restarts it), stopped when dropped.
struct OwnPostgres {
    dir: PathBuf,
    url: String,
}

impl OwnPostgres {
    fn start() -> OwnPostgres {
        // Not a private temporary directory: as root the server runs as another user,
        // which must reach it (scripts/pg.sh makes DIR readable).
        let dir = std::env::temp_dir().join(format!("agon-faults-pg-{}", std::process::id()));
        let out = pg_sh(&["start", path(&dir), &std::process::id().to_string()]);
        OwnPostgres {
            dir,
            url: out.trim().to_string(),
        }
    }

    /// Stops it, waits `seconds`, starts it again on the same port.
    fn restart(&self, seconds: u32) {
        pg_sh(&["restart", path(&self.dir), &seconds.to_string()]);
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        pg_sh(&["stop", path(&self.dir)]);
    }
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `scripts/pg.sh` with `args`: its output.
fn pg_sh(args: &[&str]) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = std::process::Command::new(root.join("scripts/pg.sh"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scripts/pg.sh {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_restarted_mid_game() {
    if !common::postgres_here() {
        return;
    }
    // Its own server: the shared one serves the other tests meanwhile.
    let pg = tokio::task::spawn_blocking(OwnPostgres::start)
        .await
        .unwrap();
    let [a, b] = servers([&pg.url, &pg.url], &[], [&[], &[]]).await;
    let mut games = Games::start([a.base.clone(), b.base.clone()], 4).await;
    games.until_moves(12).await;
    let fault_at = Instant::now();
    // Every session ended (a fast shutdown), down for a second, then up again.
    let restarting = tokio::task::spawn_blocking(move || {
        pg.restart(1);
        pg
    });
    let pg = restarting.await.unwrap();
    games
        .heal_and_finish("the database restarted", &pg.url, fault_at)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_link_to_the_database_cut_and_restored() {
    if !common::postgres_here() {
        return;
    }
    let (url, proxy, [a, b]) = proxied().await;
    let mut games = Games::start([a.base.clone(), b.base.clone()], 4).await;
    games.until_moves(12).await;
    let fault_at = Instant::now();
    proxy.set(Link::Cut);
    tokio::time::sleep(Duration::from_secs(2)).await;
    proxy.set(Link::Open);
    games
        .heal_and_finish("the link of one server cut for 2 s", &url, fault_at)
        .await;
}

/// A new database, a proxy to it, and two servers on it: A through the proxy, B directly.
async fn proxied() -> (String, Proxy, [Process; 2]) {
    let url = common::postgres_database().await;
    let proxy = Proxy::start(pg_addr(&url)).await;
    let servers = servers([&proxy.url(&url), &url], &[], [&[], &[]]).await;
    (url, proxy, servers)
}

/// The address of the PostgreSQL server of `url`.
fn pg_addr(url: &str) -> std::net::SocketAddr {
    let host = url.split_once('@').unwrap().1.split_once('/').unwrap().0;
    host.parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_gone_silent_mid_change_holds_the_game_only_seconds() {
    if !common::postgres_here() {
        return;
    }
    let (url, proxy, [a, b]) = proxied().await;
    let client = client();
    let bases = [a.base.clone(), b.base.clone()];
    // White plays through A, Black through B.
    let (id, white, black, mut state) = friend_game(&client, &a.base, &b.base, "5+0").await;
    let done = Arc::new(AtomicUsize::new(0));
    let pages: Vec<_> = bases
        .iter()
        .map(|base| {
            let on = [base.clone(), base.clone()];
            tokio::spawn(page(client.clone(), on, 0, id.clone(), done.clone()))
        })
        .collect();
    let mut versions = vec![state["version"].as_i64().unwrap()];
    let mut accepted = Vec::new();
    let mut rng = Rng::new(17);
    for (base, token) in [(&a.base, &white), (&b.base, &black)] {
        let m = random_legal(&state, &mut rng);
        state = common::post_ok(
            &client,
            format!("{base}/api/games/{id}/moves"),
            json!({"token": token, "move": m}),
        )
        .await;
        accepted.push(m);
        versions.push(state["version"].as_i64().unwrap());
    }
    // White's next move through A: the link goes silent once its transaction holds the
    // game's row, before the answer comes back.
    proxy.set(Link::SilentOnceLocked);
    let m = random_legal(&state, &mut rng);
    let on_a = tokio::spawn({
        let (client, url) = (client.clone(), format!("{}/api/games/{id}/moves", a.base));
        let body = json!({"token": white, "move": m});
        async move {
            let sent = Instant::now();
            let r = client.post(url).json(&body).send().await.unwrap();
            (answer(r).await, sent.elapsed())
        }
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while proxy.link() != Link::Silent {
        assert!(
            Instant::now() < deadline,
            "A's change never reached the row"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let silent_at = Instant::now();
    // The same move through B, as White's page would send it once A did not answer.
    let (status, moved) = tokio::time::timeout(
        Duration::from_secs(15),
        post_json(
            &client,
            format!("{}/api/games/{id}/moves", b.base),
            json!({"token": white, "move": m}),
        ),
    )
    .await
    .expect("B's move waited on A's row lock for 15 s");
    let waited = silent_at.elapsed();
    assert_eq!(status, 200, "{moved}");
    assert!(waited < Duration::from_secs(9), "B waited {waited:?}");
    accepted.push(m.clone());
    versions.push(moved["version"].as_i64().unwrap());
    state = moved;
    // A answers within its deadline: the database is out of reach.
    let ((status, retry, body), took) = tokio::time::timeout(Duration::from_secs(20), on_a)
        .await
        .expect("A's request hung")
        .unwrap();
    let progress = Progress::default();
    refusal(&progress, status, retry, &body);
    proxy.set(Link::Open);
    let restored = Instant::now();
    // Both servers carry on.
    let mut first_on_a = None;
    for ply in 0..6 {
        let (base, token) = if state["chooser"] == "white" {
            (&a.base, &white)
        } else {
            (&b.base, &black)
        };
        let m = random_legal(&state, &mut rng);
        let (status, retry, body) = answer(
            client
                .post(format!("{base}/api/games/{id}/moves"))
                .json(&json!({"token": token, "move": m}))
                .send()
                .await
                .unwrap(),
        )
        .await;
        if status != 200 {
            let wait = refusal(&progress, status, retry, &body);
            tokio::time::sleep(Duration::from_secs(wait)).await;
            state = read(&client, base, &id, &progress).await;
            assert_eq!(strings(&state["moves"]), accepted, "ply {ply}");
            continue;
        }
        if base == &a.base && first_on_a.is_none() {
            first_on_a = Some(restored.elapsed());
        }
        state = body;
        check_clock(&state);
        accepted.push(m);
        versions.push(state["version"].as_i64().unwrap());
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    done.store(1, Ordering::SeqCst);
    let last = state["version"].as_i64().unwrap();
    for p in pages {
        let seen = p.await.unwrap();
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        assert_eq!(seen.last(), Some(&last), "a page left behind: {seen:?}");
    }
    let played = Played {
        id,
        accepted,
        versions,
        state,
    };
    check_stored(&url, &[played]).await;
    println!(
        "the link of one server silent mid-change: the other server's move on that game \
         went through {:.1} s after (the database ended the silent session); the silent \
         server answered 503 after {:.1} s; {} requests refused ({:?}); its first move \
         after the link came back answered {:.1} s after",
        waited.as_secs_f64(),
        took.as_secs_f64(),
        progress.refused.load(Ordering::SeqCst),
        progress.reasons.lock().unwrap(),
        first_on_a.map_or(f64::NAN, |d| d.as_secs_f64()),
    );
}

/// A friend game with a clock of 6 s a side (`--clock-minute-ms 6000`, `1+0`) on servers
/// A (White, whose clock is `offset_ms` off) and B (Black) sharing a database, and a page
/// watching it on A: (A, B, id, White's and Black's tokens, the state, the page).
async fn skewed(offset_ms: i64) -> ([Process; 2], String, [String; 2], Value, common::Stream) {
    let url = common::postgres_database().await;
    let offset = offset_ms.to_string();
    let skew: &[(&str, &str)] = &[("AGON_WEB_CLOCK_OFFSET_MS", &offset)];
    let [a, b] = servers([&url, &url], &["--clock-minute-ms", "6000"], [skew, &[]]).await;
    let client = client();
    let (id, white, black, state) = friend_game(&client, &b.base, &a.base, "1+0").await;
    let page = stream(&client, &a.base, &id, None).await.unwrap();
    ([a, b], id, [white, black], state, page)
}

/// The first legal move of the seat of `token`, which must be answered `200` with no
/// negative clock: the state, and when the move was sent and answered.
async fn timed_move(base: &str, id: &str, token: &str, state: &Value) -> (Value, Instant, Instant) {
    let m = strings(&state["legal_moves"])[0].clone();
    let sent = Instant::now();
    let (status, body) = post_json(
        &client(),
        format!("{base}/api/games/{id}/moves"),
        json!({"token": token, "move": m}),
    )
    .await;
    let done = Instant::now();
    assert_eq!(status, 200, "{m}: {body}");
    check_clock(&body);
    (body, sent, done)
}

/// Milliseconds from `a` to `b` (negative if `b` is before).
fn ms(a: Instant, b: Instant) -> i64 {
    if b >= a {
        (b - a).as_millis() as i64
    } else {
        -((a - b).as_millis() as i64)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_clock_is_behind_charges_only_the_time_that_passed() {
    if !common::postgres_here() {
        return;
    }
    // Black's server A is 4 s behind. White moves on B (the clock starts), Black on A a
    // second later, White on B a second after that.
    let ([a, b], id, [white, black], state) = {
        let (servers, id, tokens, state, _) = skewed(-4_000).await;
        (servers, id, tokens, state)
    };
    let (state, _, _) = timed_move(&b.base, &id, &white, &state).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (state, black_sent, black_done) = timed_move(&a.base, &id, &black, &state).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let (state, white_sent, white_done) = timed_move(&b.base, &id, &white, &state).await;
    // White's time ran between Black's move (done within [black_sent, black_done]) and
    // its own (within [white_sent, white_done]); a 50 ms margin for rounding.
    let charged = 6_000 - state["clock"]["white_ms"].as_i64().unwrap();
    let (least, most) = (
        ms(black_done, white_sent) - 50,
        ms(black_sent, white_done) + 50,
    );
    println!(
        "a server 4 s behind: White was charged {charged} ms for its 1 s move \
         (the time that passed: {least} to {most} ms); no request refused"
    );
    assert!(
        (least..=most).contains(&charged),
        "White charged {charged} ms, not {least} to {most}: {}",
        state["clock"]
    );
    drop((a, b));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_whose_clock_is_ahead_flags_no_earlier() {
    if !common::postgres_here() {
        return;
    }
    // Black's server A is 4 s ahead, and a page watches the game there (so A sets the
    // clock's timer too). White moves on B (Black's 6 s start), Black moves on A 3 s
    // later: A's own clock says 7 s have passed.
    let ([a, b], id, [white, black], state, mut page) = skewed(4_000).await;
    let (state, white_sent, white_done) = timed_move(&b.base, &id, &white, &state).await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    // Refused `409 game-over` if flagged early.
    let (state, black_sent, black_done) = timed_move(&a.base, &id, &black, &state).await;
    let left = state["clock"]["black_ms"].as_i64().unwrap();
    let (least, most) = (
        6_000 - ms(white_sent, black_done) - 50,
        6_000 - ms(white_done, black_sent) + 50,
    );
    assert!(
        (least..=most).contains(&left),
        "Black has {left} ms, not {least} to {most}: {}",
        state["clock"]
    );
    // White's 6 s now run out by the database's clock, not 4 s earlier by A's: the page
    // on A hears of it (the time forfeit, by A's timer or B's) once they are gone.
    let forfeit = loop {
        let event = tokio::time::timeout(Duration::from_secs(15), page.events.recv())
            .await
            .expect("no time forfeit within 15 s")
            .expect("the stream ended");
        if event.event == "state" && !event.data["outcome"].is_null() {
            break event;
        }
    };
    // The game ended at the database's time of Black's move (within [black_sent,
    // black_done]) plus 6 s.
    let after = ms(black_sent, Instant::now());
    println!(
        "a server 4 s ahead: Black's move 3 s in was not flagged ({left} ms left); White's \
         6 s ran out {after} ms after Black's move was sent; no request refused"
    );
    assert!(after >= 6_000 - 50, "flagged {after} ms after, early");
    assert!(after < 6_000 + 3_000, "flagged {after} ms after, late");
    let (outcome, clock) = (&forfeit.data["outcome"], &forfeit.data["clock"]);
    assert_eq!(outcome["reason"], "time-forfeit", "{outcome}");
    assert_eq!(outcome["winner"], "black", "{outcome}");
    assert_eq!(clock["white_ms"], 0, "{clock}");
    check_clock(&forfeit.data);
    drop((a, b));
}
