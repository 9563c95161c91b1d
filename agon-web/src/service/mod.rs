//! The one place a game changes: load it, check and apply an action (the rules of play,
//! [`crate::game`]), commit it in one transaction ([`Store::change`]), publish the new
//! version to the game's streams ([`Hub`]) and set its clock's timer; the computer's
//! reply; the server's own work (the clocks' timers, the pruning: [`Timers`]; with
//! PostgreSQL the other servers' changes: `notify`).
//!
//! The handlers ([`crate::http`]) parse a request and call one function here; what fails
//! is an [`ApiError`]: a [`Refusal`] of the rules or a [`StoreError`] of the database is
//! mapped to the API's answer here, once.
//!
//! Each action validates the whole request before it writes anything, and writes in one
//! transaction, so a request that fails changes nothing. The one exception is the clock:
//! an action on a game whose running clock has run out commits the `time-forfeit` it
//! finds (that is a fact of the clock, not of the request) and is refused with
//! `409 game-over`. Every change gives the game its next version in its own transaction
//! ([`Change::save`]) and is published to the game's event streams in commit order.

use std::sync::Arc;

use agon_core::{Game, Position, Side};
use axum::http::StatusCode;

use crate::error::ApiError;
use crate::game::site::SiteOrigin;
use crate::game::{Answer, Clock, Level, Opponent, Refusal, WebGame};
use crate::hub::Hub;
use crate::ids::{self, NoRandomness};
use crate::limits::{self, Charge, RateLimits};
use crate::metrics::Metrics;
use crate::store::{Change, Changed, Compute, Store, StoreError};
use crate::workers::Workers;

pub mod accounts;
pub mod bots;
pub mod lobby;
pub mod lobby_feed;
pub(crate) mod notify;
pub mod ratings;
pub mod review;
pub(crate) mod timers;

pub use timers::{Timers, PRUNE_EVERY};

/// What every handler shares: the database, the search workers and the live games.
pub struct AppState {
    /// The games.
    pub store: Arc<Store>,
    /// The bound on the computer's searches.
    pub workers: Arc<Workers>,
    /// The most moves a game may hold (see [`crate::game::MAX_PLIES`]).
    pub max_plies: usize,
    /// The live games: broadcasts to the event streams, presence, the streams' bound.
    pub hub: Arc<Hub>,
    /// The timers of the running clocks.
    pub timers: Timers,
    /// How long a clock's minute lasts, in milliseconds: 60,000, except in tests, which
    /// shorten it to see a clock run out (a game created with `"clock": "1+0"` then has
    /// 1 such minute; the increment is scaled alike).
    pub clock_minute_ms: i64,
    /// How long an unfinished game may go without a change before it is pruned, in
    /// milliseconds.
    pub idle_ms: i64,
    /// How long a finished game is kept after its last change, in milliseconds (`None`:
    /// for good).
    pub keep_ms: Option<i64>,
    /// What the server counts, served at `GET /metrics`.
    pub metrics: Arc<Metrics>,
    /// Whether `GET /metrics` is served.
    pub metrics_endpoint: bool,
    /// The rate limits.
    pub limits: Arc<RateLimits>,
    /// The site's public origin as configured, or else the address served at (`None`
    /// until then: [`AppState::site`] answers `http://localhost:8080`).
    pub origin: Option<SiteOrigin>,
    /// The lobby's log as this server reads it, once for all its lobby and bot streams:
    /// the number of its last event known here (written here, or heard of from another
    /// server), which the streams wait on, and the events read lately ([`lobby_feed`]).
    pub lobby: lobby_feed::LobbyFeed,
    /// The game reviews' queue ([`review`]).
    pub reviews: Arc<review::ReviewQueue>,
}

impl AppState {
    /// The site's origin: the configured one, or the one of the address served at.
    ///
    /// ```
    /// let dir = tempfile::tempdir()?;
    /// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
    /// let state = agon_web::AppState::open(&config)?;
    /// assert_eq!(state.site().as_str(), "http://localhost:8080");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn site(&self) -> SiteOrigin {
        self.origin.clone().unwrap_or_else(|| {
            SiteOrigin::of_addr(std::net::SocketAddr::from(([127, 0, 0, 1], 8080)))
        })
    }
}

impl From<StoreError> for ApiError {
    /// `503 server-busy` (with `Retry-After`) for a busy or unavailable database (the
    /// page sends the request again when told), `409 conflict` for a change that lost
    /// the race, `500 internal` for the rest.
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::Busy => ApiError::database_busy(),
            StoreError::Unavailable(_) => ApiError {
                message: e.to_string(),
                ..ApiError::database_busy()
            },
            StoreError::Conflict => ApiError::conflict("conflict", e.to_string()),
            _ => ApiError::internal(e.to_string()),
        }
    }
}

impl From<Refusal> for ApiError {
    /// `403` for a token of neither seat, `400` for a move's text that does not parse,
    /// `409` for an illegal move and every other refusal of the rules of play: the request
    /// is well formed, and the game's state refuses it (a move legal a moment ago may be
    /// illegal now).
    fn from(refusal: Refusal) -> ApiError {
        let status = match refusal {
            Refusal::WrongToken => StatusCode::FORBIDDEN,
            Refusal::MalformedMove(_) => StatusCode::BAD_REQUEST,
            _ => StatusCode::CONFLICT,
        };
        ApiError::new(status, refusal.name(), refusal.to_string())
    }
}

impl From<NoRandomness> for ApiError {
    fn from(e: NoRandomness) -> ApiError {
        ApiError::internal(e.to_string())
    }
}

/// Reads game `id` from the database: `404 unknown-game` if there is none.
pub(crate) async fn load_game(app: &AppState, id: &str) -> Result<WebGame, ApiError> {
    if !ids::valid_id(id) {
        return Err(ApiError::unknown_game());
    }
    app.store.load(id).await?.ok_or_else(ApiError::unknown_game)
}

/// The game a change read: `404 unknown-game` if there is none.
fn found(game: Option<WebGame>) -> Result<WebGame, ApiError> {
    game.ok_or_else(ApiError::unknown_game)
}

/// Changes game `id` in one database transaction ([`Store::change`]): `f` gets the
/// game as read under the store's lock (`None`: no such game) and says what to write; the
/// game it answers as changed (saved with its next version) is published to this server's
/// streams once committed (with SQLite while the store is still locked, so in commit
/// order; PostgreSQL also notifies the other servers), and its clock's timer is set, both
/// by the store's `after`, which runs even when the request is dropped meanwhile.
async fn commit<T: Send + 'static>(
    app: &Arc<AppState>,
    id: &str,
    f: impl Compute<T, ApiError>,
) -> Result<Changed<T>, ApiError> {
    let after = {
        let app = app.clone();
        move |game: &WebGame| {
            app.hub.publish(game);
            timers::schedule(&app, game);
        }
    };
    let changed = app.store.change(id, f, after).await?;
    if let Some(game) = &changed.1 {
        // A rated game's end moves its players' ratings (once, whoever else sees it).
        ratings::rate_after_change(app, game).await;
    }
    Ok(changed)
}

/// Who acts on a game's seat: the holder of the seat's token (a browser's, a guest's),
/// or an account sitting at it (a bot, through its API token: its program holds no seat
/// token, the game's seat names its account).
#[derive(Clone, Debug)]
pub(crate) enum Holder {
    /// The seat's token.
    Token(String),
    /// The seat's account (its id).
    Account(String),
}

impl From<String> for Holder {
    fn from(token: String) -> Holder {
        Holder::Token(token)
    }
}

impl Holder {
    /// The seat this holder has in `game`: [`Refusal::WrongToken`] for none.
    fn seat(&self, game: &WebGame) -> Result<Side, Refusal> {
        match self {
            Holder::Token(token) => game.seat(&ids::digest(token)),
            Holder::Account(id) => Side::ALL
                .into_iter()
                .find(|side| {
                    game.players[side.index()]
                        .as_ref()
                        .is_some_and(|p| &p.account_id == id)
                })
                .ok_or(Refusal::WrongToken),
        }
    }
}

/// Runs an action of `holder` (a seat's token or account) on game `id`, in one transaction: loads the
/// game, charges the rate limit what `price` says the action costs in this game (given
/// `None` when there is no such game; a refusal changes nothing), finds the token's seat,
/// ends the game if the running clock has run out (that is committed, and the action
/// refused with `409 game-over`), runs `f` with the change to write, the game, the seat
/// and the time, and saves the game with its next version. Answers the changed game.
async fn act<T: Send + 'static>(
    app: &Arc<AppState>,
    id: String,
    holder: Holder,
    price: impl FnOnce(Option<&WebGame>) -> Result<(), ApiError> + Send + 'static,
    f: impl FnOnce(&mut Change, &mut WebGame, Side, i64) -> Result<T, ApiError> + Send + 'static,
) -> Result<(WebGame, Side, T), ApiError> {
    if !ids::valid_id(&id) {
        price(None)?;
        return Err(ApiError::unknown_game());
    }
    let (value, changed) = commit(app, &id, move |tx, game| {
        price(game.as_ref())?;
        let mut game = found(game)?;
        let seat = holder.seat(&game)?;
        let now = tx.now_ms();
        if game.flag(now) {
            tx.save(&mut game, now);
            return Ok((None, Some(game)));
        }
        let value = f(tx, &mut game, seat, now)?;
        tx.save(&mut game, now);
        Ok((Some((seat, value)), Some(game)))
    })
    .await?;
    match (value, changed) {
        (Some((seat, value)), Some(game)) => Ok((game, seat, value)),
        _ => Err(Refusal::GameOver.into()),
    }
}

/// Ends game `id` by `time-forfeit` if its running clock has run out, and publishes it;
/// else sets its timer again (the clock's timer and the server's start call it).
pub(crate) async fn settle_clock(app: &Arc<AppState>, id: String) -> Result<(), ApiError> {
    let (unchanged, _) = commit(app, &id, move |tx, game| {
        let Some(mut game) = game else {
            return Ok((None, None));
        };
        let now = tx.now_ms();
        if game.flag(now) {
            tx.save(&mut game, now);
            Ok((None, Some(game)))
        } else {
            Ok((Some(game), None))
        }
    })
    .await?;
    if let Some(game) = unchanged {
        timers::schedule(app, &game);
    }
    Ok(())
}

/// The computer's reply after a change that is already stored (a new game, a rematch, the
/// person's move): that change stands whatever becomes of the reply, so a failure (a busy
/// server, the move limit, the database) answers the game as stored, still saying
/// `computer_to_move`, and the page asks `POST .../computer` itself. Answering an error
/// instead would make the page send a change that was made again.
async fn reply_to(app: &Arc<AppState>, game: WebGame) -> WebGame {
    computer_reply(app, game.clone()).await.unwrap_or(game)
}

/// Lets the computer move in `game` if it is its turn, and stores the move unless the game
/// changed meanwhile (an undo, a second tab); answers the game as it now stands.
async fn computer_reply(app: &Arc<AppState>, game: WebGame) -> Result<WebGame, ApiError> {
    if !game.computer_to_move() {
        return Ok(game);
    }
    game.ensure_room(app.max_plies)?;
    let (level, seed) = (game.level, game.seed);
    let position = game.game.clone();
    let metrics = app.metrics.clone();
    let m = app
        .workers
        .run(level.expected_ms(), move || {
            metrics.search(level.name(), || level.choose(&position, seed))
        })
        .await?;
    let Some(m) = m else {
        return Ok(game);
    };
    let (id, base) = (game.id.clone(), game.version);
    let (unchanged, changed) = commit(app, &id, move |tx, stored| {
        let mut stored = found(stored)?;
        if stored.version != base || !stored.computer_to_move() {
            // Someone else changed the game while the computer thought.
            return Ok((Some(stored), None));
        }
        let now = tx.now_ms();
        if !stored.flag(now) {
            let before = stored.plies();
            // The bot returns one of the position's legal moves.
            if stored.play_at(m, now).is_err() {
                unreachable!("the {level} bot chose an illegal move");
            }
            tx.append(&stored, before, now);
        }
        tx.save(&mut stored, now);
        Ok((None, Some(stored)))
    })
    .await?;
    if changed.is_some() {
        app.metrics.computer_moved();
    }
    changed
        .or(unchanged)
        .ok_or_else(|| ApiError::internal("the computer's move was lost"))
}

/// A new game as a request asks for it, parsed.
pub(crate) struct NewGame {
    /// The creator's side.
    pub human: Side,
    /// Who plays the other seat.
    pub opponent: Opponent,
    /// The computer's level (unused between friends).
    pub level: Level,
    /// The start position, under the game's rules.
    pub start: Position,
    /// The clock: whole minutes and increment seconds.
    pub clock: Option<(u32, u32)>,
    /// The creator's display name.
    pub name: Option<String>,
    /// The creator's account, when signed in: recorded on their seat.
    pub account: Option<crate::store::Account>,
}

/// Creates a game (the computer's first move made when it opens): answers the creator's
/// token and the game.
pub(crate) async fn create(
    app: &Arc<AppState>,
    new: NewGame,
) -> Result<(String, WebGame), ApiError> {
    let token = ids::random_hex::<16>()?;
    let (opponent, level, seat) = (new.opponent, new.level, new.human);
    let account = new.account.as_ref().map(|a| a.id.clone());
    let game = new_game(app, new, ids::digest(&token))?;
    let stored = game.clone();
    app.store
        .change(
            &game.id,
            move |tx, _| {
                tx.insert(&stored, tx.now_ms());
                // The creator's account on their seat, in the same transaction.
                if let Some(account_id) = &account {
                    tx.seat(&stored.id, seat, account_id, None);
                }
                Ok::<_, StoreError>(((), None))
            },
            |_| (),
        )
        .await?;
    app.metrics.game_created(
        opponent.name(),
        match opponent {
            Opponent::Computer => level.name(),
            Opponent::Friend => "none",
        },
    );
    Ok((token, reply_to(app, game).await))
}

/// The game `new` asks for, its creator's seat held by the token of digest `seat`: a new
/// id and seed, the clock's minutes in [`AppState::clock_minute_ms`]. Not stored yet.
fn new_game(app: &AppState, new: NewGame, seat: [u8; 32]) -> Result<WebGame, ApiError> {
    let mut game = WebGame::new(
        ids::random_hex::<8>()?,
        seat,
        new.human,
        new.level,
        ids::random_u64()?,
        new.start,
    );
    game.opponent = new.opponent;
    game.names[new.human.index()] = new.name;
    let minute = app.clock_minute_ms;
    game.clock = new.clock.map(|(minutes, seconds)| {
        Clock::new(
            i64::from(minutes) * minute,
            i64::from(seconds) * minute / 60,
        )
    });
    game.speed = ratings::speed_of(new.clock);
    if let Some(account) = &new.account {
        game.players[new.human.index()] = Some(ratings::seat_player(account, None));
    }
    Ok(game)
}

/// A friend takes the free seat of game `id` under `name`: answers the seat's token and
/// the game.
pub(crate) async fn join(
    app: &Arc<AppState>,
    id: &str,
    name: Option<String>,
    account: Option<crate::store::Account>,
) -> Result<(String, WebGame), ApiError> {
    let token = ids::random_hex::<16>()?;
    let seat_digest = ids::digest(&token);
    if !ids::valid_id(id) {
        return Err(ApiError::unknown_game());
    }
    let (_, game) = commit(app, id, move |tx, game| {
        let mut game = found(game)?;
        let now = tx.now_ms();
        let side = game.join(seat_digest, name, now)?;
        if let Some(account) = &account {
            // The joiner's account on the seat, in the same transaction as the join.
            tx.seat(&game.id, side, &account.id, None);
            game.players[side.index()] = Some(ratings::seat_player(account, None));
        }
        tx.save(&mut game, now);
        Ok(((), Some(game)))
    })
    .await?;
    let game = game.ok_or_else(|| ApiError::internal("the joined game was lost"))?;
    Ok((token, game))
}

/// What the computer's move in `game` costs of the action budget: [`limits::cost`] of
/// its level's search.
fn reply_cost(game: &WebGame) -> u32 {
    limits::cost(game.level.expected_ms())
}

/// The move `text` of the holder's seat (its token or account); against the computer, then (if `reply`) the
/// computer's. Answers the game and the seat. It is charged before anything is done, as
/// the reply it asks for ([`reply_cost`]: a move against the hard level costs more than one
/// against easy), or one token without one.
pub(crate) async fn play(
    app: &Arc<AppState>,
    charge: Charge,
    id: String,
    holder: impl Into<Holder>,
    text: String,
    reply: bool,
) -> Result<(WebGame, Side), ApiError> {
    let holder = holder.into();
    let max_plies = app.max_plies;
    let price = move |game: Option<&WebGame>| {
        charge.take(match game {
            Some(game) if reply && game.opponent == Opponent::Computer => reply_cost(game),
            _ => 1,
        })
    };
    let (game, seat, ()) = act(app, id, holder, price, move |tx, game, seat, now| {
        let before = game.plies();
        game.move_of(seat, &text, now, max_plies)?;
        tx.append(game, before, now);
        Ok(())
    })
    .await?;
    app.metrics.person_moved();
    let game = if reply && game.opponent == Opponent::Computer {
        reply_to(app, game).await
    } else {
        game
    };
    Ok((game, seat))
}

/// Game `id` against the computer and not over, for the holder of `token` (what asking the
/// computer and asking for a hint both need; they change nothing, so no transaction),
/// once `price` charged the request what it costs in this game (given `None` when it
/// could not be read).
async fn computer_game(
    app: &AppState,
    id: &str,
    token: &str,
    price: impl FnOnce(Option<&WebGame>) -> Result<(), ApiError>,
) -> Result<WebGame, ApiError> {
    let game = load_game(app, id).await;
    price(game.as_ref().ok())?;
    let game = game?;
    game.seat(&ids::digest(token))?;
    game.ensure_computer()?;
    game.ensure_not_over()?;
    Ok(game)
}

/// The computer's move, when it is its turn, charged [`reply_cost`] before the checks.
pub(crate) async fn computer(
    app: &Arc<AppState>,
    charge: &Charge,
    id: &str,
    token: &str,
) -> Result<WebGame, ApiError> {
    let price = |game: Option<&WebGame>| charge.take(game.map_or(1, reply_cost));
    let game = computer_game(app, id, token, price).await?;
    game.ensure_computer_turn()?;
    computer_reply(app, game).await
}

/// A search for the person to move in game `id` (a hint: `suggest`, given the game, at
/// the cost of `cost_ms` of a worker's time, charged as [`limits::cost`] of it before
/// anything is read); it changes nothing.
pub(crate) async fn hint<T: Send + 'static>(
    app: &Arc<AppState>,
    charge: &Charge,
    id: &str,
    token: &str,
    cost_ms: usize,
    suggest: impl FnOnce(&Game) -> Option<T> + Send + 'static,
) -> Result<T, ApiError> {
    charge.take(limits::cost(cost_ms))?;
    let game = computer_game(app, id, token, |_| Ok(())).await?;
    game.ensure_persons_turn()?;
    let metrics = app.metrics.clone();
    app.workers
        .run(cost_ms, move || {
            metrics.search("hint", || suggest(&game.game))
        })
        .await?
        // A game that is not over has a legal move, and the engine returns one.
        .ok_or_else(|| ApiError::internal("the engine found no move".to_string()))
}

/// A search outside any game (`kind` in the metrics: `analysis`), expected to take about
/// `cost_ms` of a worker's time (already charged by the caller), run on the search
/// workers: `503 server-busy` when their queue is full.
pub(crate) async fn search<T: Send + 'static>(
    app: &Arc<AppState>,
    kind: &'static str,
    cost_ms: usize,
    job: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let metrics = app.metrics.clone();
    app.workers
        .run(cost_ms, move || metrics.search(kind, job))
        .await
}

/// Takes back the person's last move and the replies after it (against the computer).
pub(crate) async fn undo(
    app: &Arc<AppState>,
    id: String,
    token: String,
) -> Result<WebGame, ApiError> {
    let (game, _, ()) = act(
        app,
        id,
        token.into(),
        |_| Ok(()),
        |tx, game, _, now| {
            let keep = game.undo(now)?;
            tx.truncate(&game.id, keep);
            Ok(())
        },
    )
    .await?;
    Ok(game)
}

/// What a seat does to its game, besides moving.
#[derive(Copy, Clone, Debug)]
pub(crate) enum SeatAction {
    /// Gives the game up.
    Resign,
    /// Ends the game with no result, before each side has made its first move.
    Abort,
    /// A draw offered, accepted (the game drawn by `agreement`) or declined.
    Draw(Answer),
    /// A takeback asked for, accepted (taken back) or declined.
    Takeback(Answer),
    /// A rematch offered (against the computer: created at once), accepted (created) or
    /// declined, once the game is over; the new game is stored in the same transaction,
    /// and against the computer it may move first.
    Rematch(Answer),
}

/// The holder's seat (its token or account) does `action` to game `id`: answers the game and the seat.
pub(crate) async fn seat_action(
    app: &Arc<AppState>,
    id: String,
    holder: impl Into<Holder>,
    action: SeatAction,
) -> Result<(WebGame, Side), ApiError> {
    let holder = holder.into();
    let new = match action {
        SeatAction::Rematch(_) => Some((ids::random_hex::<8>()?, ids::random_u64()?)),
        _ => None,
    };
    // Charged by the middleware, one token, before the handler ran.
    let (game, seat, created) = act(
        app,
        id,
        holder,
        |_| Ok(()),
        move |tx, game, seat, now| {
            match action {
                SeatAction::Resign => game.resign(seat, now)?,
                SeatAction::Abort => game.abort(now)?,
                SeatAction::Draw(answer) => game.answer_draw(seat, answer, now)?,
                SeatAction::Takeback(answer) => {
                    if let Some(taken) = game.answer_takeback(seat, answer, now)? {
                        tx.truncate(&game.id, taken.keep);
                    }
                }
                SeatAction::Rematch(answer) => {
                    if let (true, Some((id, seed))) = (game.answer_rematch(seat, answer)?, new) {
                        let mut rematch = game.rematch(id.clone(), seed);
                        // Both seats are taken: between people the first move is awaited.
                        rematch.start_clock(now);
                        tx.insert(&rematch, now);
                        game.rematch_created(id);
                        return Ok(Some(rematch));
                    }
                }
            }
            Ok(None)
        },
    )
    .await?;
    if let Some(rematch) = created {
        // Its first move's deadline, if it has one (the commit set this game's timer).
        timers::schedule(app, &rematch);
        reply_to(app, rematch).await;
    }
    Ok((game, seat))
}
