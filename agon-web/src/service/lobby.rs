//! The lobby's operations (issue 33, point 2): posting a seek or a direct challenge,
//! cancelling, declining and accepting one, quick pairing, the expiry of seeks whose
//! poster left, and the games being played now. The model (time controls, colours, how
//! long a seek lives) is [`crate::game::lobby`]; the rows and their log of events
//! [`crate::store::Seek`].
//!
//! Every change is logged as an event of the lobby (a JSON object whose `type` is the
//! stream's event name: `seek` for a seek or a challenge posted, `gone` for one removed,
//! with its `reason` and, when accepted, its `game`) in the same transaction, and
//! [`AppState::lobby`] is told its number, so that the lobby's streams read it; with
//! PostgreSQL the other servers hear of it too (`notify`).

use std::sync::Arc;

use agon_core::{Rules, Side};
use axum::http::StatusCode;
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use super::{new_game, ratings, timers, AppState, NewGame};
use crate::error::ApiError;
use crate::game::lobby::{
    in_range, Colour, Poster, RatingRange, TimeControl, EVENTS_KEPT_MS, SEEK_GRACE_MS,
};
use crate::game::speed::Speed;
use crate::game::{Level, Opponent, WebGame};
use crate::ids;
use crate::store::{Account, NewEvent, Pairing, Seek, StoreError};

/// How often the server removes the seeks whose poster left.
const SWEEP_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

/// Who asks: a signed-in account or a guest's browser, and the address it asks from.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The account, if signed in.
    pub account: Option<Account>,
    /// The digest (hex) of the guest's lobby cookie, if it has one.
    pub guest: Option<String>,
    /// The address, as the rate limits key it.
    pub address: String,
}

impl Caller {
    /// Who posts as this caller: the account, else the guest's browser.
    ///
    /// ```
    /// use agon_web::service::lobby::Caller;
    /// use agon_web::game::lobby::Poster;
    /// let guest = Caller { account: None, guest: Some("ab".into()), address: "V4(127.0.0.1)".into() };
    /// assert_eq!(guest.poster(), Some(Poster::Guest("ab".into())));
    /// ```
    pub fn poster(&self) -> Option<Poster> {
        match (&self.account, &self.guest) {
            (Some(account), _) => Some(Poster::Account(account.id.clone())),
            (None, Some(guest)) => Some(Poster::Guest(guest.clone())),
            (None, None) => None,
        }
    }
}

/// A seek or a challenge as the lobby shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// The poster's name: an account's username, or a guest's display name (`null`: an
    /// anonymous guest).
    pub player: Option<String>,
    /// Whether the poster is signed in (its name is then an account's).
    pub account: bool,
    /// Whether the poster is a bot account (a program playing through the Bot API).
    pub bot: bool,
    /// The time control: `M+S` or `correspondence`.
    pub control: String,
    /// Its speed category.
    pub speed: &'static str,
    /// The rule set, in its text form.
    pub rules: String,
    /// Rated or casual.
    pub rated: bool,
    /// The poster's colour: `white`, `black` or `random`.
    pub colour: String,
    /// For a direct challenge, the username it is for (`null`: an open seek).
    pub to: Option<String>,
    /// When it was posted, unix milliseconds.
    pub created_ms: i64,
    /// Whether the viewer posted it (the same account, or the same browser's lobby
    /// cookie): theirs to cancel, in every tab.
    pub mine: bool,
    /// The lowest rating (in its speed) of the players it is for, inclusive; `null`
    /// with `rating_max`: for everyone. Only the players within its range see it.
    pub rating_min: Option<i64>,
    /// The highest rating of the players it is for, inclusive.
    pub rating_max: Option<i64>,
}

/// The view of a stored seek, for a viewer who did not post it (see [`view_for`]).
///
/// ```
/// use agon_web::store::Seek;
/// let seek = Seek {
///     id: "00112233aabbccdd".into(), poster: "guest:ab".into(), account_id: None,
///     name: Some("Ann".into()), seat_sha256: vec![0; 32], control: "3+2".into(),
///     rules: "standard".into(), rated: false, colour: "random".into(), target_id: None,
///     target_name: None, address: "V4(127.0.0.1)".into(), created_ms: 5, seen_ms: 5,
///     bot: false, range: Some((1300, 1700)),
/// };
/// let view = agon_web::service::lobby::view(&seek);
/// assert_eq!((view.rating_min, view.rating_max), (Some(1300), Some(1700)));
/// assert_eq!((view.speed, view.player.as_deref(), view.account), ("bullet", Some("Ann"), false));
/// ```
pub fn view(seek: &Seek) -> SeekView {
    let speed = seek
        .control
        .parse::<TimeControl>()
        .map_or("correspondence", |c| c.speed().name());
    SeekView {
        id: seek.id.clone(),
        player: seek.name.clone(),
        account: seek.account_id.is_some(),
        bot: seek.bot,
        control: seek.control.clone(),
        speed,
        rules: seek.rules.clone(),
        rated: seek.rated,
        colour: seek.colour.clone(),
        to: seek.target_name.clone(),
        created_ms: seek.created_ms,
        mine: false,
        rating_min: seek.range.map(|r| r.0),
        rating_max: seek.range.map(|r| r.1),
    }
}

/// A viewer's ratings, for the seeks' rating ranges: the lobby's list and its streams
/// show a seek with a range only to the players whose rating in its speed lies within it
/// (and to its poster), as lichess does. A guest has no rating: no seek with a range is
/// for them. An account's rating in a speed it never played is the new player's, 1500.
/// A stream reads them once, when it opens.
///
/// ```
/// use agon_web::service::lobby::ViewerRatings;
/// let guest = ViewerRatings::default();
/// assert_eq!(guest.rating("blitz"), None);
/// let new = ViewerRatings::of_account(Vec::new());
/// assert_eq!(new.rating("blitz"), Some(1500.0));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ViewerRatings(Option<Vec<(Speed, f64)>>);

impl ViewerRatings {
    /// An account's, from its stored ratings (a speed missing: 1500).
    pub fn of_account(rated: Vec<(Speed, f64)>) -> ViewerRatings {
        ViewerRatings(Some(rated))
    }

    /// The ratings of the viewer signed in as `account` (none for a guest).
    pub(crate) async fn read(
        app: &AppState,
        account: Option<&str>,
    ) -> Result<ViewerRatings, ApiError> {
        let Some(account) = account else {
            return Ok(ViewerRatings(None));
        };
        let stored = app.store.ratings(account).await?;
        Ok(ViewerRatings::of_account(
            stored
                .into_iter()
                .map(|(s, r)| (s, r.rating.rating))
                .collect(),
        ))
    }

    /// The viewer's rating in the speed of this name (`None`: a guest).
    pub fn rating(&self, speed: &str) -> Option<f64> {
        let rated = self.0.as_ref()?;
        let speed = Speed::from_name(speed)?;
        Some(
            rated
                .iter()
                .find(|(s, _)| *s == speed)
                .map_or(crate::store::StoredRating::NEW.rating.rating, |r| r.1),
        )
    }

    /// Whether the viewer posting as `viewer` ([`Poster::key`]) sees the stored `seek`.
    pub(crate) fn sees(&self, seek: &Seek, viewer: &str) -> bool {
        seek.poster == viewer || in_range(seek.range, self.rating(view(seek).speed))
    }

    /// Whether the viewer sees a logged event of the lobby (`data`): a `seek` event
    /// within its range (or the viewer's own, `mine`); every other event.
    pub(crate) fn sees_event(&self, data: &serde_json::Value, mine: bool) -> bool {
        let seek = &data["seek"];
        if mine || data["type"] != "seek" {
            return true;
        }
        let range = seek["rating_min"].as_i64().zip(seek["rating_max"].as_i64());
        in_range(range, seek["speed"].as_str().and_then(|s| self.rating(s)))
    }
}

/// `403 rating-out-of-range`: a seek whose range leaves the caller out.
fn out_of_range(seek: &Seek, speed: Speed, rating: Option<f64>) -> ApiError {
    let (low, high) = seek.range.unwrap_or_default();
    let yours = match rating {
        Some(r) => format!("yours is {}", r.round() as i64),
        None => "a guest has none: sign in".to_string(),
    };
    ApiError::new(
        StatusCode::FORBIDDEN,
        "rating-out-of-range",
        format!(
            "this seek is for players rated {low} to {high} in {}: {yours}",
            speed.name()
        ),
    )
}

/// The view of a stored seek for the viewer who posts as `viewer` (a [`Poster::key`]):
/// `mine` when they posted it.
///
/// ```
/// use agon_web::store::Seek;
/// let seek = Seek {
///     id: "00112233aabbccdd".into(), poster: "guest:ab".into(), account_id: None,
///     name: None, seat_sha256: vec![0; 32], control: "3+2".into(),
///     rules: "standard".into(), rated: false, colour: "random".into(), target_id: None,
///     target_name: None, address: "V4(127.0.0.1)".into(), created_ms: 5, seen_ms: 5,
///     bot: false, range: None,
/// };
/// use agon_web::service::lobby::view_for;
/// assert!(view_for(&seek, "guest:ab").mine && !view_for(&seek, "guest:cd").mine);
/// ```
pub fn view_for(seek: &Seek, viewer: &str) -> SeekView {
    SeekView {
        mine: seek.poster == viewer,
        ..view(seek)
    }
}

/// The field of a `seek` event's stored data naming its poster ([`Poster::key`]): each
/// lobby stream reads it to set the seek's `mine` for its viewer, and sends it to nobody.
pub(crate) const POSTER_FIELD: &str = "poster";

/// Who sees events about `seek`: everyone, or for a challenge its two accounts.
fn audience(seek: &Seek) -> Option<Vec<String>> {
    let target = seek.target_id.clone()?;
    Some(seek.account_id.iter().cloned().chain([target]).collect())
}

/// The event of a seek posted.
fn posted_event(seek: &Seek) -> NewEvent {
    let data = json!({"type": "seek", "seek": view(seek), POSTER_FIELD: seek.poster});
    (audience(seek), data.to_string())
}

/// The event of a seek removed, for `reason` (`cancelled`, `declined`, `expired`,
/// `accepted`: then with its `game`).
fn gone_event(seek: &Seek, reason: &str, game: Option<&str>) -> NewEvent {
    let data = json!({"type": "gone", "id": seek.id, "reason": reason, "game": game});
    (audience(seek), data.to_string())
}

/// Tells this server's lobby streams that the log holds event `seq`.
pub(crate) fn heard(app: &AppState, seq: i64) {
    app.lobby.heard(seq);
}

/// The lobby's answer to a store's error: `404 unknown-seek`, `409 too-many-seeks`.
fn lobby_error(e: StoreError) -> ApiError {
    match e {
        StoreError::NoSeek => unknown_seek(),
        StoreError::TooManySeeks => {
            ApiError::new(StatusCode::CONFLICT, "too-many-seeks", e.to_string())
        }
        StoreError::NoAccount => {
            ApiError::new(StatusCode::NOT_FOUND, "unknown-player", "no such player")
        }
        e => e.into(),
    }
}

fn unknown_seek() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "unknown-seek",
        "no such seek: it was accepted, cancelled or has expired",
    )
}

/// `403 rated-needs-account`.
fn rated_needs_account() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "rated-needs-account",
        "rated games are between signed-in players: sign in, or play casual",
    )
}

/// `403 bots-need-challenge`: a bot's open seek taken by a bot.
pub(crate) fn bots_need_challenge() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "bots-need-challenge",
        "a bot plays another bot only by a direct challenge that the other accepts, not by an open seek",
    )
}

/// What a seek asks for, parsed.
#[derive(Clone, Debug)]
pub struct SeekParams {
    /// The time control.
    pub control: TimeControl,
    /// The rule set.
    pub rules: Rules,
    /// Rated or casual.
    pub rated: bool,
    /// The poster's colour.
    pub colour: Colour,
    /// A guest's display name.
    pub name: Option<String>,
    /// The rating range around the poster's rating (an account's open seek only).
    pub range: Option<RatingRange>,
}

/// A seek posted: its view, and the seat token its poster will hold in the game.
pub struct Posted {
    /// The seek.
    pub seek: SeekView,
    /// The poster's seat token in the game, once accepted.
    pub token: String,
}

/// The stored seek of `params` by `caller`, for `target` (a challenge), with a new seat
/// token.
async fn new_seek(
    app: &AppState,
    caller: &Caller,
    poster: &Poster,
    params: &SeekParams,
    target: Option<&Account>,
) -> Result<(Seek, String), ApiError> {
    if params.rated && caller.account.is_none() {
        return Err(rated_needs_account());
    }
    let range = match (params.range, &caller.account) {
        (None, _) => None,
        (Some(_), None) => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "rating-range-needs-account",
                "a rating range is around your rating: sign in, or post the seek without one",
            ))
        }
        (Some(_), Some(_)) if target.is_some() => {
            return Err(ApiError::invalid_field(
                "a direct challenge has no rating range: it is for one player",
            ))
        }
        (Some(range), Some(account)) => {
            let rating = ratings::rating_now(app, &account.id, params.control.speed()).await?;
            Some(range.around(rating.rating))
        }
    };
    if params.rated {
        // What a rated game needs besides the two accounts, refused at once rather than
        // when someone accepts.
        let start = agon_core::Position::start_with_rules(params.rules);
        ratings::check_rated_terms(&start, params.control.clock())?;
    }
    let token = ids::random_hex::<16>()?;
    let name = match &caller.account {
        Some(account) => Some(account.username.clone()),
        None => params.name.clone(),
    };
    let seek = Seek {
        id: ids::random_hex::<8>()?,
        poster: poster.key(),
        account_id: poster.account().map(str::to_string),
        name,
        seat_sha256: ids::digest(&token).to_vec(),
        control: params.control.to_string(),
        rules: params.rules.to_string(),
        rated: params.rated,
        colour: params.colour.name().to_string(),
        target_id: target.map(|t| t.id.clone()),
        target_name: target.map(|t| t.username.clone()),
        address: caller.address.clone(),
        created_ms: app.store.now_ms(),
        seen_ms: 0,
        bot: caller.account.as_ref().is_some_and(|a| a.bot),
        range,
    };
    Ok((seek, token))
}

/// Posts an open seek (or, with `target`, a direct challenge to that account).
pub(crate) async fn post(
    app: &Arc<AppState>,
    caller: &Caller,
    poster: &Poster,
    params: &SeekParams,
    target: Option<&Account>,
) -> Result<Posted, ApiError> {
    let (seek, token) = new_seek(app, caller, poster, params, target).await?;
    let event = posted_event(&seek);
    let seq = app
        .store
        .post_seek(
            seek.clone(),
            event,
            Pairing::Post,
            app.limits.seek_bounds(),
            None,
        )
        .await
        .map_err(lobby_error)?
        .map_err(|_| ApiError::internal("a seek matched where none was asked for"))?;
    heard(app, seq);
    Ok(Posted {
        seek: view_for(&seek, &seek.poster),
        token,
    })
}

/// Cancels `caller`'s seek `id` (`404 unknown-seek` if it is not theirs: another's seek
/// is not theirs to know of); the target of a challenge declines it alike
/// (`decline`).
pub(crate) async fn remove(
    app: &Arc<AppState>,
    caller: &Caller,
    id: &str,
    decline: bool,
) -> Result<(), ApiError> {
    if !ids::valid_id(id) {
        return Err(unknown_seek());
    }
    let poster = caller.poster().map(|p| p.key());
    let account = caller.account.as_ref().map(|a| a.id.clone());
    let seq = app
        .store
        .remove_seek(id, app.store.now_ms(), move |seek| {
            let allowed = match decline {
                false => poster.as_deref() == Some(seek.poster.as_str()),
                true => seek.target_id.is_some() && seek.target_id == account,
            };
            match allowed {
                true => Ok(gone_event(
                    seek,
                    if decline { "declined" } else { "cancelled" },
                    None,
                )),
                false => Err(StoreError::NoSeek),
            }
        })
        .await
        .map_err(lobby_error)?;
    heard(app, seq);
    Ok(())
}

/// A seek accepted: the game, the acceptor's seat token and side.
pub struct Started {
    /// The game, as stored.
    pub game: WebGame,
    /// The acceptor's seat token.
    pub token: String,
    /// The acceptor's side.
    pub side: Side,
}

/// `caller` accepts seek `id`: the game is created with both seats taken (the poster's by
/// the token it got when posting), its clock waiting for White's first move. Refused:
/// `404 unknown-seek` (gone, or a challenge for someone else), `409 own-seek`,
/// `403 rated-needs-account`, `403 bots-need-challenge` (a bot's open seek taken by a
/// bot: bots play each other only by a direct challenge, which both agree to),
/// `403 rating-out-of-range` (the seek's rating range leaves the caller out: a guest is
/// never within one).
pub(crate) async fn accept(
    app: &Arc<AppState>,
    caller: &Caller,
    id: &str,
    name: Option<String>,
) -> Result<Started, ApiError> {
    if !ids::valid_id(id) {
        return Err(unknown_seek());
    }
    let seek = app.store.seek(id).await?.ok_or_else(unknown_seek)?;
    let account = caller.account.as_ref().map(|a| a.id.as_str());
    if seek.target_id.is_some() && seek.target_id.as_deref() != account {
        return Err(unknown_seek());
    }
    if caller.poster().is_some_and(|p| p.key() == seek.poster) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "own-seek",
            "this is your own seek: wait for someone to accept it, or cancel it",
        ));
    }
    if seek.rated && caller.account.is_none() {
        return Err(rated_needs_account());
    }
    if seek.range.is_some() {
        let speed = view(&seek).speed;
        let speed = Speed::from_name(speed).unwrap_or(Speed::Correspondence);
        let rating = match &caller.account {
            Some(account) => Some(ratings::rating_now(app, &account.id, speed).await?.rating),
            None => None,
        };
        if !in_range(seek.range, rating) {
            return Err(out_of_range(&seek, speed, rating));
        }
    }
    let name = match &caller.account {
        Some(account) => Some(account.username.clone()),
        None => name,
    };
    let token = ids::random_hex::<16>()?;
    let now = app.store.now_ms();
    let mut game = create_seek_game(app, &seek, &token, name, now)?;
    let side = game.human.other();
    // The seats' accounts (the poster's, the acceptor's), each with its rating at the
    // start in a rated game.
    let poster = match &seek.account_id {
        Some(id) => app.store.account(id).await?,
        None => None,
    };
    if seek.target_id.is_none()
        && poster.as_ref().is_some_and(|p| p.bot)
        && caller.account.as_ref().is_some_and(|a| a.bot)
    {
        return Err(bots_need_challenge());
    }
    let mut players: [Option<&Account>; 2] = [None, None];
    players[game.human.index()] = poster.as_ref();
    players[side.index()] = caller.account.as_ref();
    if seek.rated {
        ratings::check_rated_players(players)?;
    }
    game.rated = seek.rated;
    let mut seats = Vec::new();
    for seat in Side::ALL {
        let Some(player) = players[seat.index()] else {
            continue;
        };
        let start = match seek.rated {
            true => Some(ratings::rating_now(app, &player.id, game.speed).await?),
            false => None,
        };
        game.players[seat.index()] = Some(ratings::seat_player(player, start.as_ref()));
        seats.push((seat, player.id.clone(), start));
    }
    let event = gone_event(&seek, "accepted", Some(&game.id));
    let seq = app
        .store
        .accept_seek(id, &game, seats, event, now)
        .await
        .map_err(lobby_error)?;
    heard(app, seq);
    app.metrics.game_created(Opponent::Friend.name(), "none");
    app.hub.publish(&game);
    timers::schedule(app, &game);
    Ok(Started { game, token, side })
}

/// The game of seek `seek` accepted by the holder of `token` under `name`, at `now`, made
/// as `POST /api/games` makes a game between friends and joined as `POST .../join` joins
/// it; the poster's seat is the token it got when posting. Its seats' accounts, and
/// whether it is rated, are the caller's to add ([`accept`]).
pub(crate) fn create_seek_game(
    app: &AppState,
    seek: &Seek,
    token: &str,
    name: Option<String>,
    now: i64,
) -> Result<WebGame, ApiError> {
    let control: TimeControl = seek
        .control
        .parse()
        .map_err(|e: String| ApiError::internal(format!("seek {}: {e}", seek.id)))?;
    let rules: Rules = seek
        .rules
        .parse()
        .map_err(|e| ApiError::internal(format!("seek {}: rules: {e:?}", seek.id)))?;
    let colour: Colour = seek.colour.parse().map_err(ApiError::internal)?;
    let human = colour.poster_side(ids::random_u64()? & 1 == 1);
    let seat: [u8; 32] = seek
        .seat_sha256
        .as_slice()
        .try_into()
        .map_err(|_| ApiError::internal(format!("seek {}: its seat's digest", seek.id)))?;
    let new = NewGame {
        human,
        opponent: Opponent::Friend,
        level: Level::Easy,
        start: agon_core::Position::start_with_rules(rules),
        clock: control.clock(),
        name: seek.name.clone(),
        account: None,
    };
    let mut game = new_game(app, new, seat)?;
    game.join(ids::digest(token), name, now)?;
    Ok(game)
}

/// What a quick pairing did.
pub enum Quick {
    /// It accepted a waiting seek: the game started.
    Started(Box<Started>),
    /// No seek waited: it posted one.
    Waiting(Box<Posted>),
}

/// How many times a quick pairing looks for a waiting seek before it posts its own.
const QUICK_TRIES: usize = 5;

/// Quick pairing: accepts one of the oldest waiting open seeks of `control` under the
/// standard rules, rated as `rated`, any colour, not the caller's, and whose rating range
/// (if it has one) the caller's rating lies within (a guest: only seeks without a range);
/// else posts one (random colour, no range). Under the lobby's lock: of two quick pairings at once, the second accepts the
/// first's seek. A seek taken meanwhile by another is looked for again; the last try
/// posts, so many pairings at once never fail for being many.
pub(crate) async fn quick(
    app: &Arc<AppState>,
    caller: &Caller,
    poster: &Poster,
    control: TimeControl,
    rated: bool,
    name: Option<String>,
) -> Result<Quick, ApiError> {
    let params = SeekParams {
        control,
        rules: Rules::STANDARD,
        rated,
        colour: Colour::Random,
        name: name.clone(),
        range: None,
    };
    // The caller's rating in the control's speed, for the waiting seeks' ranges.
    let rating = match &caller.account {
        Some(account) => {
            let rating = ratings::rating_now(app, &account.id, control.speed()).await?;
            Some(rating.rating.round() as i64)
        }
        None => None,
    };
    // A few tries: a seek found may be taken by another acceptor before this one. The
    // last posts the caller's seek whatever waits: it is then the one waiting.
    for attempt in 0..QUICK_TRIES {
        let pairing = match attempt {
            0 => Pairing::Oldest,
            _ if attempt + 1 == QUICK_TRIES => Pairing::Post,
            _ => Pairing::AnyOfOldest,
        };
        let (seek, token) = new_seek(app, caller, poster, &params, None).await?;
        let event = posted_event(&seek);
        let posted = app
            .store
            .post_seek(
                seek.clone(),
                event,
                pairing,
                app.limits.seek_bounds(),
                rating,
            )
            .await
            .map_err(lobby_error)?;
        match posted {
            Ok(seq) => {
                heard(app, seq);
                return Ok(Quick::Waiting(Box::new(Posted {
                    seek: view_for(&seek, &seek.poster),
                    token,
                })));
            }
            Err(found) => match accept(app, caller, &found, name.clone()).await {
                Ok(started) => return Ok(Quick::Started(Box::new(started))),
                Err(e) if e.name == "unknown-seek" => continue,
                Err(e) => return Err(e),
            },
        }
    }
    Err(ApiError::conflict(
        "conflict",
        "the lobby is busy: try again",
    ))
}

/// Starts the sweep of seeks whose poster left (every 10 s: seeks unseen for
/// [`SEEK_GRACE_MS`] go, and events older than [`EVENTS_KEPT_MS`]). Every server runs
/// it; the lobby's lock makes them take turns.
pub(crate) fn start(app: &Arc<AppState>) -> tokio::task::JoinHandle<()> {
    let app = app.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(SWEEP_EVERY);
        loop {
            tick.tick().await;
            if let Err(e) = sweep(&app).await {
                eprintln!("agon-web: removing the seeks of players gone: {e}");
            }
        }
    })
}

/// Removes the seeks unseen for [`SEEK_GRACE_MS`], and the events older than
/// [`EVENTS_KEPT_MS`]: answers whether a seek went. What every server does every 10 s.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let dir = tempfile::tempdir().unwrap();
/// let config = agon_web::Config { db: dir.path().join("g.sqlite3").into(), ..Default::default() };
/// let app = std::sync::Arc::new(agon_web::AppState::open(&config).unwrap());
/// assert_eq!(agon_web::service::lobby::sweep(&app).await, Ok(false), "no seek to remove");
/// # });
/// ```
pub async fn sweep(app: &Arc<AppState>) -> Result<bool, StoreError> {
    let now = app.store.now_ms();
    let expired = app
        .store
        .expire_seeks(now - SEEK_GRACE_MS, now - EVENTS_KEPT_MS, now, |seek| {
            gone_event(seek, "expired", None)
        })
        .await?;
    if let Some(seq) = expired {
        heard(app, seq);
    }
    Ok(expired.is_some())
}

/// The games between people being played now, the most recently moved first (at most
/// 30), as stored.
pub(crate) async fn live_games(app: &AppState) -> Result<Vec<WebGame>, ApiError> {
    let ids = app.store.live_games(30).await?;
    let mut games = Vec::new();
    for id in ids {
        if let Some(game) = app.store.load(&id).await? {
            games.push(game);
        }
    }
    Ok(games)
}
