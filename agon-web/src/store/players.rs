//! What the player pages and the leaderboard read (issue 33): a player's ratings, games and rating history, the leaderboard of a speed, and
//! the rated games whose end is still to be rated. Each is one read both stores run alike
//! ([`Store::transact`]); the writes are the game's change ([`super::Change::seat`]) and
//! [`Store::apply_rated_game`].

use agon_core::Side;

use super::accounts::rating_of;
use super::sql::{Cell, Rows, Statement, Value};
use super::{Store, StoreError, StoredRating};
use crate::game::rating::PROVISIONAL_DEVIATION;
use crate::game::speed::Speed;

/// Which of a player's games a list holds: by speed, by result (from the player's side).
///
/// ```
/// use agon_web::store::{GameFilter, ResultFilter};
/// let f = GameFilter { speed: None, result: Some(ResultFilter::Win), page: 0 };
/// assert_eq!(ResultFilter::from_name("loss"), Some(ResultFilter::Loss));
/// assert_eq!(f.result.unwrap().name(), "win");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameFilter {
    /// Only games of this speed (`None`: any).
    pub speed: Option<Speed>,
    /// Only games with this result for the player (`None`: any, games in progress too).
    pub result: Option<ResultFilter>,
    /// The page, from 0, of [`GAMES_PER_PAGE`] games, the latest first.
    pub page: u32,
}

/// A result from a player's side, as a list filters by it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ResultFilter {
    /// The player won.
    Win,
    /// The player lost.
    Loss,
    /// A draw.
    Draw,
}

impl ResultFilter {
    /// `win`, `loss` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            ResultFilter::Win => "win",
            ResultFilter::Loss => "loss",
            ResultFilter::Draw => "draw",
        }
    }

    /// The filter of this name, as [`ResultFilter::name`] writes it.
    pub fn from_name(name: &str) -> Option<ResultFilter> {
        [ResultFilter::Win, ResultFilter::Loss, ResultFilter::Draw]
            .into_iter()
            .find(|r| r.name() == name)
    }
}

/// The games a page of a player's list holds.
///
/// ```
/// assert_eq!(agon_web::store::GAMES_PER_PAGE, 20);
/// ```
pub const GAMES_PER_PAGE: u32 = 20;

/// One of a player's games, as their list shows it.
///
/// ```
/// use agon_web::{game::speed::Speed, store::PlayerGame};
/// let g = PlayerGame { id: "0011223344556677".into(), side: agon_core::Side::White, rated: true, speed: Speed::Blitz, result: Some("white".into()), at_ms: 5, opponent: None, opponent_deleted: false, opponent_name: Some("Max".into()), computer: false, rating: Some([1500.0, 1662.3]) };
/// assert_eq!(g.outcome(), Some("win"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerGame {
    /// The game's id.
    pub id: String,
    /// The player's side.
    pub side: Side,
    /// Whether it is rated.
    pub rated: bool,
    /// Its speed.
    pub speed: Speed,
    /// `white`, `black`, `draw`, or `None` while it goes on.
    pub result: Option<String>,
    /// When it last changed (its end, once over), unix milliseconds.
    pub at_ms: i64,
    /// The opponent's account name, if the opponent's seat is an account's.
    pub opponent: Option<String>,
    /// Whether that account was deleted.
    pub opponent_deleted: bool,
    /// The name the opponent's seat gave (a guest's), if any.
    pub opponent_name: Option<String>,
    /// Whether the opponent is the computer.
    pub computer: bool,
    /// In a rated game once rated, the player's rating before and after it.
    pub rating: Option<[f64; 2]>,
}

impl PlayerGame {
    /// `win`, `loss` or `draw` from the player's side; `None` while it goes on.
    pub fn outcome(&self) -> Option<&'static str> {
        match self.result.as_deref()? {
            "draw" => Some("draw"),
            side if side == self.side.name() => Some("win"),
            _ => Some("loss"),
        }
    }
}

/// A player's games in numbers: all (aborted ones aside), rated, won, lost, drawn.
///
/// ```
/// let c = agon_web::store::GameCounts::default();
/// assert_eq!(c.all, 0);
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    /// Every game (aborted ones aside).
    pub all: i64,
    /// The rated ones.
    pub rated: i64,
    /// The ones won.
    pub wins: i64,
    /// The ones lost.
    pub losses: i64,
    /// The ones drawn.
    pub draws: i64,
}

/// A point of a player's rating history: after game `game_id`, at `at_ms`.
///
/// ```
/// let p = agon_web::store::RatingPoint { game_id: "0011223344556677".into(), at_ms: 5, rating: 1662.3, deviation: 290.3 };
/// assert_eq!(p.at_ms, 5);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    /// The rated game.
    pub game_id: String,
    /// When it was rated, unix milliseconds.
    pub at_ms: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub deviation: f64,
}

/// A row of a leaderboard.
///
/// ```
/// use agon_web::store::{Leader, StoredRating};
/// let l = Leader { username: "Zoe".into(), rating: StoredRating::NEW };
/// assert_eq!(l.rating.games, 0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Leader {
    /// The player's name.
    pub username: String,
    /// Their rating in the board's speed.
    pub rating: StoredRating,
}

fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

/// A nullable real.
fn opt_real(cell: &Cell) -> Result<Option<f64>, StoreError> {
    match cell {
        Cell::Null => Ok(None),
        cell => cell.real().map(Some),
    }
}

/// A nullable text.
fn opt_text(cell: &Cell) -> Result<Option<String>, StoreError> {
    match cell {
        Cell::Null => Ok(None),
        cell => cell.text().map(Some),
    }
}

/// Two nullable reals, both or neither.
fn pair(a: &Cell, b: &Cell) -> Result<Option<[f64; 2]>, StoreError> {
    Ok(opt_real(a)?.zip(opt_real(b)?).map(|(a, b)| [a, b]))
}

fn side(cell: &Cell) -> Result<Side, StoreError> {
    Side::from_name(&cell.text()?)
        .ok_or_else(|| StoreError::Database("database: a seat's side".into()))
}

fn speed(cell: &Cell) -> Result<Speed, StoreError> {
    Speed::from_name(&cell.text()?).ok_or_else(|| StoreError::Database("database: a speed".into()))
}

/// A game's opponent of the player (`?1`), their account, and the player's rating change:
/// the joins of [`Store::player_games`].
const PLAYER_GAMES: &str = "
SELECT g.id, s.side, g.rated, g.speed, g.result, g.touched_ms, oa.username, oa.deleted_ms,
       g.human, g.creator_name, g.guest_name, g.opponent, rc.before_rating, rc.after_rating
FROM seat_accounts s
JOIN games g ON g.id = s.game_id
LEFT JOIN seat_accounts o ON o.game_id = s.game_id AND o.side <> s.side
LEFT JOIN accounts oa ON oa.id = o.account_id
LEFT JOIN rating_changes rc ON rc.game_id = g.id AND rc.account_id = s.account_id
WHERE s.account_id = ?1 AND NOT g.aborted
  AND (?2 = '' OR g.speed = ?2)
  AND (?3 = ''
       OR (?3 = 'win' AND g.result = s.side)
       OR (?3 = 'loss' AND g.result IN ('white', 'black') AND g.result <> s.side)
       OR (?3 = 'draw' AND g.result = 'draw'))
ORDER BY g.touched_ms DESC, g.id
LIMIT ?4 OFFSET ?5";

fn player_game(row: &[Cell]) -> Result<PlayerGame, StoreError> {
    let side = side(&row[1])?;
    let human = self::side(&row[8])?;
    let opponent_name = if side.other() == human {
        opt_text(&row[9])?
    } else {
        opt_text(&row[10])?
    };
    Ok(PlayerGame {
        id: row[0].text()?,
        side,
        rated: row[2].flag()?,
        speed: match &row[3] {
            Cell::Null => Speed::Correspondence,
            cell => speed(cell)?,
        },
        result: opt_text(&row[4])?,
        at_ms: row[5].int()?,
        opponent: opt_text(&row[6])?,
        opponent_deleted: !matches!(row[7], Cell::Null),
        opponent_name,
        computer: row[11].text()? == "computer",
        rating: pair(&row[12], &row[13])?,
    })
}

impl Store {
    /// Runs one read: its rows, each made a `T` by `of`.
    async fn read_all<T: Send + 'static>(
        &self,
        read: Statement,
        of: fn(&[Cell]) -> Result<T, StoreError>,
    ) -> Result<Vec<T>, StoreError> {
        let (found, _) = self
            .transact(vec![read], move |rows: Vec<Rows>| {
                let found = rows[0]
                    .iter()
                    .map(|row| of(row))
                    .collect::<Result<_, _>>()?;
                Ok((Vec::new(), found))
            })
            .await?;
        Ok(found)
    }

    /// The ratings of `account_id`, one per speed it played rated games in, fastest first.
    pub async fn ratings(
        &self,
        account_id: &str,
    ) -> Result<Vec<(Speed, StoredRating)>, StoreError> {
        let read = Statement::new(
            "SELECT speed, rating, deviation, volatility, games, last_game_ms FROM ratings \
             WHERE account_id = ?1",
            vec![text(account_id)],
        );
        let mut ratings = self
            .read_all(read, |row| Ok((speed(&row[0])?, rating_of(&row[1..])?)))
            .await?;
        ratings.sort_by_key(|r| r.0);
        Ok(ratings)
    }

    /// The games of `account_id` that `filter` keeps (aborted ones never), the latest
    /// first, one page of [`GAMES_PER_PAGE`].
    pub async fn player_games(
        &self,
        account_id: &str,
        filter: GameFilter,
    ) -> Result<Vec<PlayerGame>, StoreError> {
        let read = Statement::new(
            PLAYER_GAMES,
            vec![
                text(account_id),
                text(filter.speed.map_or("", Speed::name)),
                text(filter.result.map_or("", ResultFilter::name)),
                Value::Int(Some(GAMES_PER_PAGE.into())),
                Value::Int(Some(i64::from(filter.page) * i64::from(GAMES_PER_PAGE))),
            ],
        );
        self.read_all(read, player_game).await
    }

    /// How many games `account_id` played (aborted ones aside), rated, won, lost, drawn.
    pub async fn game_counts(&self, account_id: &str) -> Result<GameCounts, StoreError> {
        let read = Statement::new(
            "SELECT count(*), \
             coalesce(sum(CASE WHEN g.rated THEN 1 ELSE 0 END), 0), \
             coalesce(sum(CASE WHEN g.result = s.side THEN 1 ELSE 0 END), 0), \
             coalesce(sum(CASE WHEN g.result IN ('white', 'black') AND g.result <> s.side \
                 THEN 1 ELSE 0 END), 0), \
             coalesce(sum(CASE WHEN g.result = 'draw' THEN 1 ELSE 0 END), 0) \
             FROM seat_accounts s JOIN games g ON g.id = s.game_id \
             WHERE s.account_id = ?1 AND NOT g.aborted",
            vec![text(account_id)],
        );
        let counts = self
            .read_all(read, |row| {
                Ok(GameCounts {
                    all: row[0].int()?,
                    rated: row[1].int()?,
                    wins: row[2].int()?,
                    losses: row[3].int()?,
                    draws: row[4].int()?,
                })
            })
            .await?;
        Ok(counts.into_iter().next().unwrap_or_default())
    }

    /// The rating history of `account_id` in `speed`: its rating after each rated game,
    /// oldest first.
    pub async fn rating_history(
        &self,
        account_id: &str,
        speed: Speed,
    ) -> Result<Vec<RatingPoint>, StoreError> {
        let read = Statement::new(
            "SELECT game_id, at_ms, after_rating, after_deviation FROM rating_changes \
             WHERE account_id = ?1 AND speed = ?2 ORDER BY at_ms, game_id",
            vec![text(account_id), text(speed.name())],
        );
        self.read_all(read, |row| {
            Ok(RatingPoint {
                game_id: row[0].text()?,
                at_ms: row[1].int()?,
                rating: row[2].real()?,
                deviation: row[3].real()?,
            })
        })
        .await
    }

    /// The candidates for the leaderboard of `speed`: the players whose rating was not
    /// provisional when last rated (deviation at most [`PROVISIONAL_DEVIATION`]; time
    /// since only widens it), bots and deleted accounts aside, highest first (ties by
    /// name), `limit` of them from the `skip`-th, as stored. Which of them are still not
    /// provisional now is the service's to say ([`crate::service::ratings::leaderboard`]).
    pub async fn leaderboard(
        &self,
        speed: Speed,
        skip: u32,
        limit: u32,
    ) -> Result<Vec<Leader>, StoreError> {
        let read = Statement::new(
            "SELECT a.username, r.rating, r.deviation, r.volatility, r.games, r.last_game_ms \
             FROM ratings r JOIN accounts a ON a.id = r.account_id \
             WHERE r.speed = ?1 AND r.deviation <= ?2 AND a.deleted_ms IS NULL AND NOT a.bot \
             ORDER BY r.rating DESC, a.username_key LIMIT ?3 OFFSET ?4",
            vec![
                text(speed.name()),
                Value::Real(PROVISIONAL_DEVIATION),
                Value::Int(Some(limit.into())),
                Value::Int(Some(skip.into())),
            ],
        );
        self.read_all(read, |row| {
            Ok(Leader {
                username: row[0].text()?,
                rating: rating_of(&row[1..])?,
            })
        })
        .await
    }

    /// The rated games that have a result and are not rated yet (their end's rating was
    /// lost with a server that stopped in between), at most `limit`, the oldest first.
    pub async fn unrated_ends(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        let read = Statement::new(
            "SELECT g.id FROM games g WHERE g.rated AND g.result IS NOT NULL \
             AND NOT EXISTS (SELECT 1 FROM rating_changes r WHERE r.game_id = g.id) \
             ORDER BY g.touched_ms LIMIT ?1",
            vec![Value::Int(Some(limit.into()))],
        );
        self.read_all(read, |row| row[0].text()).await
    }
}
