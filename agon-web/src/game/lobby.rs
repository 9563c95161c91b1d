//! The lobby's model (issue 33, point 2): open challenges ("seeks") and direct challenges
//! to a named player, the quick-pairing time controls, and how long a seek lives.
//!
//! A seek lives while its poster watches the lobby: the poster's lobby stream marks its
//! seeks seen every [`SEEN_EVERY_MS`] (20 s), and a seek not seen for [`SEEK_GRACE_MS`]
//! (60 s) is removed (`expired`). So a seek goes about a minute after its poster's last
//! lobby stream closed (a page closed, a network gone), and a seek posted without any
//! stream has a minute to get one.
//!
//! ```
//! use agon_web::game::lobby::{TimeControl, QUICK};
//! assert_eq!(QUICK.len(), 6);
//! assert_eq!("3+2".parse::<TimeControl>().unwrap().to_string(), "3+2");
//! ```

use agon_core::Side;

/// How often an open lobby stream marks its poster's seeks seen, in milliseconds.
///
/// ```
/// assert_eq!(agon_web::game::lobby::SEEN_EVERY_MS, 20_000);
/// ```
pub const SEEN_EVERY_MS: i64 = 20_000;

/// How long a seek lives unseen by any lobby stream of its poster, in milliseconds.
///
/// ```
/// assert_eq!(agon_web::game::lobby::SEEK_GRACE_MS, 60_000);
/// ```
pub const SEEK_GRACE_MS: i64 = 60_000;

/// The most open seeks and challenges at once (`None`: no bound), per player (an account,
/// or a guest's browser) and per address: the rate limits' settings
/// (`--seeks-per-player`, `--seeks-per-address`, [`crate::limits::LimitConfig`]) as the
/// lobby's store checks them.
///
/// ```
/// let bounds = agon_web::limits::RateLimits::new(&Default::default()).seek_bounds();
/// assert_eq!((bounds.per_player, bounds.per_address), (Some(3), Some(6)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SeekBounds {
    /// Per player: an account, or a guest's browser (its lobby cookie).
    pub per_player: Option<u32>,
    /// Per address (the rate limits' client key).
    pub per_address: Option<u32>,
}

/// How long the lobby's events are kept for streams that resume (`Last-Event-ID`), in
/// milliseconds; a stream resuming from further back gets the whole list again.
///
/// ```
/// assert_eq!(agon_web::game::lobby::EVENTS_KEPT_MS, 600_000);
/// ```
pub const EVENTS_KEPT_MS: i64 = 600_000;

/// A seek's time control: a clock of whole minutes plus an increment of seconds a move,
/// or correspondence (no clock of minutes: as long as the players like).
///
/// ```
/// use agon_web::game::lobby::TimeControl;
/// let c: TimeControl = "10+5".parse().unwrap();
/// assert_eq!(c, TimeControl::Clock { minutes: 10, seconds: 5 });
/// assert_eq!(c.clock(), Some((10, 5)));
/// assert_eq!("correspondence".parse::<TimeControl>().unwrap().clock(), None);
/// assert!("0+5".parse::<TimeControl>().is_err());
/// assert!("181+0".parse::<TimeControl>().is_err());
/// assert!("none".parse::<TimeControl>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Minutes (1 to 180) plus an increment (0 to 60 seconds).
    Clock {
        /// The initial minutes.
        minutes: u32,
        /// The increment, seconds a move.
        seconds: u32,
    },
    /// No clock.
    Correspondence,
}

impl TimeControl {
    /// The clock a game of this control gets: `(minutes, seconds)`, or `None`.
    pub fn clock(self) -> Option<(u32, u32)> {
        match self {
            TimeControl::Clock { minutes, seconds } => Some((minutes, seconds)),
            TimeControl::Correspondence => None,
        }
    }

    /// The speed category of this control ([`crate::game::speed::Speed`]).
    ///
    /// ```
    /// use agon_web::game::{lobby::TimeControl, speed::Speed};
    /// assert_eq!("5+3".parse::<TimeControl>().unwrap().speed(), Speed::Blitz);
    /// assert_eq!(TimeControl::Correspondence.speed(), Speed::Correspondence);
    /// ```
    pub fn speed(self) -> super::speed::Speed {
        match self {
            TimeControl::Clock { minutes, seconds } => super::speed::Speed::of_clock(
                i64::from(minutes) * 60_000,
                i64::from(seconds) * 1000,
            ),
            TimeControl::Correspondence => super::speed::Speed::Correspondence,
        }
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        if text == "correspondence" {
            return Ok(TimeControl::Correspondence);
        }
        super::minutes_plus_seconds(text)
            .map(|(minutes, seconds)| TimeControl::Clock { minutes, seconds })
            .ok_or_else(|| {
                format!(
                    "the time control must be correspondence or minutes+seconds like 5+3 \
                     (minutes 1 to {}, increment 0 to {}), not {text:?}",
                    super::MAX_CLOCK_MINUTES,
                    super::MAX_CLOCK_INCREMENT
                )
            })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeControl::Clock { minutes, seconds } => write!(f, "{minutes}+{seconds}"),
            TimeControl::Correspondence => f.write_str("correspondence"),
        }
    }
}

/// The quick-pairing controls, fastest first. An Agon game between people runs to about
/// 300 plies (`speed.rs`), so these span ultrabullet to rapid: 1+0, 3+2, 5+3, 10+5,
/// 15+10, and correspondence.
///
/// ```
/// use agon_web::game::lobby::QUICK;
/// assert_eq!(QUICK.map(|c| c.to_string())[1], "3+2");
/// assert_eq!(QUICK[5].to_string(), "correspondence");
/// ```
pub const QUICK: [TimeControl; 6] = [
    TimeControl::Clock {
        minutes: 1,
        seconds: 0,
    },
    TimeControl::Clock {
        minutes: 3,
        seconds: 2,
    },
    TimeControl::Clock {
        minutes: 5,
        seconds: 3,
    },
    TimeControl::Clock {
        minutes: 10,
        seconds: 5,
    },
    TimeControl::Clock {
        minutes: 15,
        seconds: 10,
    },
    TimeControl::Correspondence,
];

/// The colour a poster asks for.
///
/// ```
/// use agon_web::game::lobby::Colour;
/// use agon_core::Side;
/// assert_eq!("random".parse::<Colour>(), Ok(Colour::Random));
/// assert_eq!(Colour::White.poster_side(true), Side::White);
/// assert_eq!(Colour::Random.poster_side(true), Side::Black);
/// assert!("blue".parse::<Colour>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Colour {
    /// The poster plays White.
    White,
    /// The poster plays Black.
    Black,
    /// Drawn when the seek is accepted.
    Random,
}

impl Colour {
    /// Its name in the API.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Black => "black",
            Colour::Random => "random",
        }
    }

    /// The poster's side once accepted, `coin` deciding a random colour (true: Black).
    pub fn poster_side(self, coin: bool) -> Side {
        match (self, coin) {
            (Colour::White, _) | (Colour::Random, false) => Side::White,
            (Colour::Black, _) | (Colour::Random, true) => Side::Black,
        }
    }
}

impl std::str::FromStr for Colour {
    type Err = String;

    fn from_str(text: &str) -> Result<Colour, String> {
        match text {
            "white" => Ok(Colour::White),
            "black" => Ok(Colour::Black),
            "random" => Ok(Colour::Random),
            _ => Err(format!(
                "colour must be white, black or random, not {text:?}"
            )),
        }
    }
}

/// Who posted a seek: an account, or a guest's browser (the digest of its lobby cookie,
/// in hex: the cookie itself is never stored).
///
/// ```
/// use agon_web::game::lobby::Poster;
/// let p = Poster::Account("00112233aabbccdd".into());
/// assert_eq!(p.key(), "account:00112233aabbccdd");
/// assert_eq!(Poster::Guest("ab".into()).key(), "guest:ab");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Poster {
    /// A signed-in account, by its id.
    Account(String),
    /// A guest, by the hex digest of its browser's lobby cookie.
    Guest(String),
}

impl Poster {
    /// The key the store keeps: `account:ID` or `guest:DIGEST`.
    pub fn key(&self) -> String {
        match self {
            Poster::Account(id) => format!("account:{id}"),
            Poster::Guest(digest) => format!("guest:{digest}"),
        }
    }

    /// The account's id, for an account.
    pub fn account(&self) -> Option<&str> {
        match self {
            Poster::Account(id) => Some(id),
            Poster::Guest(_) => None,
        }
    }
}

/// The game on TV among `games` (the games between people being played now, the most
/// recently moved first): the rated game whose players' mean rating at the start is the
/// highest, as lichess's TV shows its best-rated game; the most recently moved game while
/// none is rated.
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_web::game::{lobby::on_tv, Level, SeatPlayer, WebGame};
/// let game = |id: &str, ratings: Option<[f64; 2]>| {
///     let mut g = WebGame::new(id.into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
///     if let Some(r) = ratings {
///         g.rated = true;
///         g.players = r.map(|rating| Some(SeatPlayer {
///             account_id: "a".into(), username: "a".into(), deleted: false, bot: false,
///             rating: Some([rating, 60.0]),
///         }));
///     }
///     g
/// };
/// let casual = [game("recent", None), game("older", None)];
/// assert_eq!(on_tv(&casual).map(|g| g.id.as_str()), Some("recent"));
/// let mixed = [game("recent", None), game("club", Some([1500.0, 1600.0])), game("best", Some([1900.0, 1500.0]))];
/// assert_eq!(on_tv(&mixed).map(|g| g.id.as_str()), Some("best"));
/// assert!(on_tv(&[]).is_none());
/// ```
pub fn on_tv(games: &[super::WebGame]) -> Option<&super::WebGame> {
    let mean = |game: &super::WebGame| -> Option<f64> {
        let [Some(white), Some(black)] = &game.players else {
            return None;
        };
        Some((white.rating?[0] + black.rating?[0]) / 2.0)
    };
    games
        .iter()
        .filter(|g| g.rated)
        .filter_map(|g| mean(g).map(|m| (m, g)))
        // The first of equals: the most recently moved.
        .fold(
            None,
            |best: Option<(f64, &super::WebGame)>, (m, g)| match best {
                Some((b, _)) if b >= m => best,
                _ => Some((m, g)),
            },
        )
        .map(|(_, g)| g)
        .or_else(|| games.first())
}

/// The widest a seek's rating range reaches on either side of its poster's rating, as
/// lichess's seek form (whose slider also goes from -500 to +500).
///
/// ```
/// assert_eq!(agon_web::game::lobby::MAX_RATING_RANGE, 500);
/// ```
pub const MAX_RATING_RANGE: i64 = 500;

/// A seek's rating range, relative to its poster's rating in the seek's speed category:
/// from `min` (-500 to 0) to `max` (0 to +500) points. The seek is for the players whose
/// rating (rounded to a whole number) lies within the bounds it gives, both inclusive.
///
/// ```
/// use agon_web::game::lobby::RatingRange;
/// let range = RatingRange::new(-200, 100).unwrap();
/// assert_eq!(range.around(1712.4), (1512, 1812));
/// assert!(RatingRange::new(50, 100).is_err(), "the poster's own rating is always inside");
/// assert!(RatingRange::new(-501, 0).is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RatingRange {
    /// Points below the poster's rating: -500 to 0.
    pub min: i64,
    /// Points above it: 0 to +500.
    pub max: i64,
}

impl RatingRange {
    /// The range from `min` to `max` points around the poster's rating, or why not.
    pub fn new(min: i64, max: i64) -> Result<RatingRange, String> {
        if !(-MAX_RATING_RANGE..=0).contains(&min) || !(0..=MAX_RATING_RANGE).contains(&max) {
            return Err(format!(
                "the rating range must go from -{MAX_RATING_RANGE} to 0 below your rating \
                 and from 0 to +{MAX_RATING_RANGE} above it, not {min}..+{max}"
            ));
        }
        Ok(RatingRange { min, max })
    }

    /// The absolute bounds around the poster's `rating` (rounded): `(lowest, highest)`.
    pub fn around(self, rating: f64) -> (i64, i64) {
        let rating = rating.round() as i64;
        (rating + self.min, rating + self.max)
    }
}

/// Whether a player rated `rating` (rounded; `None`: a guest, who has no rating) may see
/// and accept a seek of the bounds `range` (`None`: no range, open to all). Both bounds
/// are inclusive.
///
/// ```
/// use agon_web::game::lobby::in_range;
/// assert!(in_range(None, None), "a seek without a range is for everyone");
/// assert!(in_range(Some((1400, 1600)), Some(1400.4)) && in_range(Some((1400, 1600)), Some(1600.0)));
/// assert!(!in_range(Some((1400, 1600)), Some(1600.5)) && !in_range(Some((1400, 1600)), Some(1399.0)));
/// assert!(!in_range(Some((1400, 1600)), None), "a guest has no rating to fit");
/// ```
pub fn in_range(range: Option<(i64, i64)>, rating: Option<f64>) -> bool {
    match (range, rating) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some((low, high)), Some(rating)) => (low..=high).contains(&(rating.round() as i64)),
    }
}
