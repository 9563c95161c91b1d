//! Rated play (issue 33): games between accounts ([`create_paired_game`], what the lobby
//! calls when a seek is accepted), the rating of a rated game's end ([`rate_if_ended`],
//! after every change that commits; [`rate_lost_ends`], the sweep of the ends a stopped
//! server left unrated), and what the player pages and the leaderboard read.
//!
//! **What a rated game is.** Both seats are accounts (two different ones, neither
//! deleted), the rules are the standard ones from the standard start (a rating compares
//! players at one game: a variant's results would not measure the same skill), and it has
//! a clock (its speed category, [`Speed::of_clock`], is the rating it moves). Anything
//! else is refused with `400 not-ratable`, before anything is written.
//!
//! **Exactly once.** A rated game's end is rated by the server whose change ended it,
//! just after the commit ([`rate_if_ended`]), and by any server's sweep should that one
//! stop in between ([`rate_lost_ends`]): both go through [`crate::store::Store::apply_rated_game`], one
//! transaction whose `rating_changes` rows (primary key `(game_id, account_id)`) make a
//! second application a no-op, so two servers seeing the same end rate it once. An
//! aborted game has no result ([`WebGame::result`]) and is never rated.

use std::sync::Arc;

use agon_core::{Position, Side};
use axum::http::StatusCode;

use super::{commit, AppState};
use crate::error::ApiError;
use crate::game::account::Username;
use crate::game::rating::Rating;
use crate::game::speed::Speed;
use crate::game::{Clock, Opponent, SeatPlayer, WebGame};
use crate::ids;
use crate::store::{
    Account, GameCounts, GameFilter, Leader, PlayerGame, RatedGame, RatingPoint, StoredRating,
};

/// A game between two seats the server pairs (a seek accepted, a challenge): who sits
/// where, the clock, the start, and whether it is rated.
pub struct Pairing {
    /// White's and Black's accounts (`None`: a guest's seat, casual games only).
    pub players: [Option<Account>; 2],
    /// White's and Black's display names for a guest's seat (an account's seat shows its
    /// username).
    pub names: [Option<String>; 2],
    /// The clock: whole minutes and increment seconds (`None`: no clock, casual only).
    pub clock: Option<(u32, u32)>,
    /// The start position, under the game's rules (rated: the standard start only).
    pub start: Position,
    /// Whether the game is rated.
    pub rated: bool,
}

/// A paired game, created: the game and the seats' tokens, White's then Black's (each
/// player's secret: sent to that player only).
pub struct Paired {
    /// The game as stored.
    pub game: WebGame,
    /// White's and Black's seat tokens.
    pub tokens: [String; 2],
}

/// `400 not-ratable`: a rated game asked for what a rated game cannot be.
fn not_ratable(why: &str) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "not-ratable",
        format!("a rated game needs {why}"),
    )
}

/// The speed of a clock of whole `minutes` and increment `seconds` as the players chose
/// it (not as a test server's shortened minute runs it); no clock: correspondence.
pub(crate) fn speed_of(clock: Option<(u32, u32)>) -> Speed {
    clock.map_or(Speed::Correspondence, |(minutes, seconds)| {
        Speed::of_clock(i64::from(minutes) * 60_000, i64::from(seconds) * 1_000)
    })
}

/// Creates a game between two paired seats and stores it in one transaction with its
/// seats' accounts (and, rated, each player's rating at the start, their deviation
/// widened for the time since their last game): White is the "creator" seat, Black the
/// "guest" seat of a game between friends, both taken, so the wait for White's first
/// move begins at once ([`crate::game::FIRST_MOVE_MS`]; the game is aborted past it,
/// never rated). Answers the game and both seats' tokens.
///
/// Refused with `400 not-ratable` when `rated` and the two seats are not two living
/// accounts, the start is not the standard one, or there is no clock.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use agon_web::{game::account::Username, service::ratings::{create_paired_game, Pairing}, store::NewAccount};
/// let dir = tempfile::tempdir().unwrap();
/// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
/// let app = std::sync::Arc::new(agon_web::AppState::open(&config).unwrap());
/// let new = |id: &str, name: &str, k| NewAccount { id: id.into(), username: Username::parse(name).unwrap(), user_handle: [k; 32], bot: false };
/// let zoe = app.store.create_account(&new("00000000000000a1", "Zoe", 1), 5).await.unwrap();
/// let max = app.store.create_account(&new("00000000000000b2", "Max", 2), 5).await.unwrap();
/// let pairing = Pairing { players: [Some(zoe), Some(max)], names: [None, None], clock: Some((5, 3)), start: agon_core::Position::start(), rated: true };
/// let paired = create_paired_game(&app, pairing).await.unwrap();
/// assert!(paired.game.rated);
/// assert_eq!(paired.game.speed.name(), "blitz");
/// assert_eq!(paired.game.players[1].as_ref().unwrap().username, "Max");
/// assert_eq!(paired.tokens.len(), 2);
/// # });
/// ```
pub async fn create_paired_game(app: &Arc<AppState>, pairing: Pairing) -> Result<Paired, ApiError> {
    let speed = speed_of(pairing.clock);
    if pairing.rated {
        check_rated_players([pairing.players[0].as_ref(), pairing.players[1].as_ref()])?;
        check_rated_terms(&pairing.start, pairing.clock)?;
    }
    let tokens = [ids::random_hex::<16>()?, ids::random_hex::<16>()?];
    let mut game = WebGame::new(
        ids::random_hex::<8>()?,
        ids::digest(&tokens[0]),
        Side::White,
        crate::game::Level::Easy,
        ids::random_u64()?,
        pairing.start,
    );
    game.guest_sha256 = Some(ids::digest(&tokens[1]));
    game.opponent = Opponent::Friend;
    game.rated = pairing.rated;
    game.speed = speed;
    let minute = app.clock_minute_ms;
    game.clock = pairing.clock.map(|(minutes, seconds)| {
        Clock::new(
            i64::from(minutes) * minute,
            i64::from(seconds) * minute / 60,
        )
    });
    let mut seats = Vec::new();
    for (k, (player, name)) in pairing.players.into_iter().zip(pairing.names).enumerate() {
        game.names[k] = match &player {
            Some(account) => Some(account.username.clone()),
            None => name,
        };
        if let Some(account) = player {
            let start = if game.rated {
                Some(rating_now(app, &account.id, speed).await?)
            } else {
                None
            };
            game.players[k] = Some(seat_player(&account, start.as_ref()));
            seats.push((Side::ALL[k], account.id, start));
        }
    }
    let id = game.id.clone();
    let new = game.clone();
    // Answered as changed, so that the commit's `after` sets its first move's timer
    // (and publishes it, to nobody yet).
    let (_, stored) = commit(app, &id, move |tx, _| {
        let mut game = new;
        let now = tx.now_ms();
        game.start_clock(now);
        tx.insert(&game, now);
        for (side, account_id, rating) in &seats {
            tx.seat(&game.id, *side, account_id, rating.as_ref());
        }
        Ok(((), Some(game)))
    })
    .await?;
    let stored = stored.ok_or_else(|| ApiError::internal("the paired game was lost"))?;
    Ok(Paired {
        game: stored,
        tokens,
    })
}

/// Whether the players of a game may be rated: two different accounts, neither deleted,
/// one on each seat; else `400 not-ratable`.
pub(crate) fn check_rated_players(players: [Option<&Account>; 2]) -> Result<(), ApiError> {
    match players {
        [Some(w), Some(b)] if w.id != b.id && w.deleted_ms.is_none() && b.deleted_ms.is_none() => {
            Ok(())
        }
        _ => Err(not_ratable("two different accounts, one on each seat")),
    }
}

/// Whether a game from `start` under `clock` (minutes, increment seconds) may be rated:
/// the standard start, and a clock; else `400 not-ratable`.
pub(crate) fn check_rated_terms(
    start: &Position,
    clock: Option<(u32, u32)>,
) -> Result<(), ApiError> {
    if *start != Position::start() {
        return Err(not_ratable("the standard rules from the standard start"));
    }
    if clock.is_none() {
        return Err(not_ratable("a clock"));
    }
    Ok(())
}

/// The player of a seat an account takes now, with its rating at the start if rated.
pub(crate) fn seat_player(account: &Account, rating: Option<&Rating>) -> SeatPlayer {
    SeatPlayer {
        account_id: account.id.clone(),
        username: account.username.clone(),
        deleted: account.deleted_ms.is_some(),
        bot: account.bot,
        rating: rating.map(|r| [r.rating, r.deviation]),
    }
}

/// The rating of `account_id` in `speed` as of now: as stored (a new player's if none),
/// its deviation widened for the time since the last rated game ([`Rating::aged`]).
pub(crate) async fn rating_now(
    app: &AppState,
    account_id: &str,
    speed: Speed,
) -> Result<Rating, ApiError> {
    let stored = app
        .store
        .rating(account_id, speed)
        .await?
        .unwrap_or(StoredRating::NEW);
    let idle = stored.last_game_ms.map_or(0, |t| app.store.now_ms() - t);
    Ok(stored.rating.aged(idle))
}

/// Rates `game` if it is a rated game with a result ([`WebGame::result`]: never an
/// aborted one) not rated yet: both players' ratings in its speed, once
/// ([`crate::Store::apply_rated_game`]). Answers the new ratings, White's then Black's,
/// or `None` when there was nothing to rate (not rated, not over, aborted, or rated
/// already).
pub async fn rate_if_ended(
    app: &AppState,
    game: &WebGame,
) -> Result<Option<[StoredRating; 2]>, ApiError> {
    let Some(winner) = game.result().filter(|_| game.rated) else {
        return Ok(None);
    };
    let [Some(white), Some(black)] = game.players.clone().map(|p| p.map(|p| p.account_id)) else {
        return Err(ApiError::internal(format!(
            "rated game {} without an account on each seat",
            game.id
        )));
    };
    let rated = RatedGame {
        game_id: game.id.clone(),
        players: [white, black],
        speed: game.speed,
        winner,
    };
    Ok(app
        .store
        .apply_rated_game(&rated, app.store.now_ms())
        .await?)
}

/// [`rate_if_ended`] after a change, its failure logged: the change stands, and the sweep
/// ([`rate_lost_ends`]) rates the end later.
pub(crate) async fn rate_after_change(app: &AppState, game: &WebGame) {
    if game.rated && game.result().is_some() {
        if let Err(e) = rate_if_ended(app, game).await {
            eprintln!("agon-web: rating game {}: {}", game.id, e.message);
        }
    }
}

/// Rates the rated games that ended and were not rated (a server stopped between the end
/// and its rating): at most 100 a call, run with the pruning. Answers how many were rated.
pub async fn rate_lost_ends(app: &AppState) -> Result<usize, ApiError> {
    let mut rated = 0;
    for id in app.store.unrated_ends(100).await? {
        if let Some(game) = app.store.load(&id).await? {
            rated += usize::from(rate_if_ended(app, &game).await?.is_some());
        }
    }
    Ok(rated)
}

/// `404 unknown-player`.
fn unknown_player() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "unknown-player",
        "no player of this name",
    )
}

/// The living account named `username` (any case): `404 unknown-player` if there is
/// none, or it was deleted (its page is gone; its games show "deleted player").
pub async fn player(app: &AppState, username: &str) -> Result<Account, ApiError> {
    let key = Username::parse(username)
        .map_err(|_| unknown_player())?
        .key();
    app.store
        .account_by_key(&key)
        .await?
        .filter(|a| a.deleted_ms.is_none())
        .ok_or_else(unknown_player)
}

/// `stored` as of `now_ms`: its deviation widened for the time since its last rated game
/// ([`Rating::aged`]), as the next game would start from; the rest as stored.
///
/// ```
/// use agon_web::game::rating::{Rating, IDLE_PERIOD_MS};
/// use agon_web::service::ratings::as_of;
/// use agon_web::store::StoredRating;
/// let stored = StoredRating { rating: Rating::new(1700.0, 100.0, 0.06).unwrap(), games: 9, last_game_ms: Some(0) };
/// let now = as_of(&stored, 25 * IDLE_PERIOD_MS);
/// assert_eq!(now.rating, stored.rating.aged(25 * IDLE_PERIOD_MS));
/// assert_eq!((now.rating.deviation.round(), now.rating.is_provisional()), (113.0, true));
/// assert_eq!(as_of(&StoredRating { last_game_ms: None, ..stored }, 5).rating, stored.rating);
/// ```
pub fn as_of(stored: &StoredRating, now_ms: i64) -> StoredRating {
    let idle = stored.last_game_ms.map_or(0, |t| now_ms - t);
    StoredRating {
        rating: stored.rating.aged(idle),
        ..*stored
    }
}

/// A player's page: their ratings per speed as of now ([`as_of`]) and their game counts.
pub async fn profile(
    app: &AppState,
    account: &Account,
) -> Result<(Vec<(Speed, StoredRating)>, GameCounts), ApiError> {
    let now = app.store.now_ms();
    let ratings = app
        .store
        .ratings(&account.id)
        .await?
        .into_iter()
        .map(|(speed, r)| (speed, as_of(&r, now)))
        .collect();
    Ok((ratings, app.store.game_counts(&account.id).await?))
}

/// A page of a player's games as `filter` keeps them.
pub async fn games(
    app: &AppState,
    account: &Account,
    filter: GameFilter,
) -> Result<Vec<PlayerGame>, ApiError> {
    Ok(app.store.player_games(&account.id, filter).await?)
}

/// A player's rating after each rated game of `speed`, oldest first.
pub async fn history(
    app: &AppState,
    account: &Account,
    speed: Speed,
) -> Result<Vec<RatingPoint>, ApiError> {
    Ok(app.store.rating_history(&account.id, speed).await?)
}

/// The leaders of a speed: at most [`LEADERS`], highest first, their ratings as of now
/// ([`as_of`]); a player whose deviation has widened past the provisional bound since
/// their last rated game is left out (as lichess leaves out inactive players) until they
/// play again.
pub async fn leaderboard(app: &AppState, speed: Speed) -> Result<Vec<Leader>, ApiError> {
    let now = app.store.now_ms();
    let mut leaders = Vec::new();
    // Read in batches: most candidates are still not provisional, so one usually does.
    let batch = 2 * LEADERS;
    for skip in (0..).step_by(batch as usize) {
        let read = app.store.leaderboard(speed, skip, batch).await?;
        let last = read.len() < batch as usize;
        for leader in read {
            let rating = as_of(&leader.rating, now);
            if !rating.rating.is_provisional() && leaders.len() < LEADERS as usize {
                leaders.push(Leader { rating, ..leader });
            }
        }
        if last || leaders.len() == LEADERS as usize {
            break;
        }
    }
    Ok(leaders)
}

/// How many players a leaderboard shows.
///
/// ```
/// assert_eq!(agon_web::service::ratings::LEADERS, 100);
/// ```
pub const LEADERS: u32 = 100;
