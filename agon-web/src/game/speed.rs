//! Speed categories: each has its own rating, as on lichess, chosen by a time control's
//! estimated length ([`Speed::of_clock`]).
//!
//! lichess estimates a chess game at `initial + 40 × increment` seconds, 40 being the
//! moves a player makes in a typical game, and cuts that estimate at 30 s, 3, 8 and 25
//! minutes. An Agon game takes many more actions than a chess game takes moves (every
//! step of a piece is one action, and so is each return of a captured piece): between
//! engines, 400 plies on average (`docs/VARIANTS.md`, `standard`, mean 399.8, 90th
//! percentile 738); between the weaker bots, whose decisive mistakes are closer to
//! people's, 180 to 290 (the arena table of the README: `alphabeta:3` against `greedy`
//! 287.9, `alphabeta:5` against `greedy` 218.0). We take **300 plies, 150 actions a
//! player** ([`ACTIONS_PER_PLAYER`]), so a game is estimated at `initial + 150 ×
//! increment`, and keep lichess's *pace* (the time a player has per action) at each
//! bound: lichess's bounds in seconds per move (0.75, 4.5, 12, 37.5) times 150 (112.5 s,
//! 675 s, 30 min, 93.75 min), rounded to a minute or to a round figure:
//!
//! | speed | estimated length | e.g. |
//! |---|---|---|
//! | ultrabullet | under 2 minutes | 1+0 |
//! | bullet | 2 to 11 minutes | 2+1, 3+2 |
//! | blitz | 11 to 30 minutes | 5+3, 10+5 |
//! | rapid | 30 to 90 minutes | 15+10, 30+20 |
//! | classical | 90 minutes or more | 30+30, 60+30 |
//! | correspondence | days a move, no clock of minutes | |
//!
//! The estimate is a guess until people have played: once rated games exist, their mean
//! length is the figure to check it against.
//!
//! ```
//! use agon_web::game::speed::Speed;
//! assert_eq!(Speed::of_clock(3 * 60_000, 2_000), Speed::Bullet);
//! assert_eq!(Speed::of_clock(10 * 60_000, 5_000).name(), "blitz");
//! ```

/// The actions one player makes in an estimated game between people (half of 300
/// plies): what the increment is multiplied by in a game's estimated length.
///
/// ```
/// assert_eq!(agon_web::game::speed::ACTIONS_PER_PLAYER, 150);
/// ```
pub const ACTIONS_PER_PLAYER: i64 = 150;

/// A game's speed category: each has its own rating and leaderboard.
///
/// ```
/// use agon_web::game::speed::Speed;
/// assert_eq!(Speed::ALL.len(), 6);
/// assert_eq!(Speed::from_name("rapid"), Some(Speed::Rapid));
/// assert_eq!(Speed::from_name("Rapid"), None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Speed {
    /// Under 2 minutes' estimated length.
    UltraBullet,
    /// 2 to 11 minutes.
    Bullet,
    /// 11 to 30 minutes.
    Blitz,
    /// 30 to 90 minutes.
    Rapid,
    /// 90 minutes or more.
    Classical,
    /// Days a move.
    Correspondence,
}

impl Speed {
    /// Every speed, fastest first.
    ///
    /// ```
    /// use agon_web::game::speed::Speed;
    /// assert_eq!(Speed::ALL[0], Speed::UltraBullet);
    /// assert!(Speed::ALL.windows(2).all(|w| w[0] < w[1]));
    /// ```
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The name in the API, the database and the page: `ultrabullet`, `bullet`,
    /// `blitz`, `rapid`, `classical`, `correspondence`.
    ///
    /// ```
    /// use agon_web::game::speed::Speed;
    /// assert_eq!(Speed::UltraBullet.name(), "ultrabullet");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed of this name, as [`Speed::name`] writes it.
    ///
    /// ```
    /// use agon_web::game::speed::Speed;
    /// assert!(Speed::ALL.iter().all(|s| Speed::from_name(s.name()) == Some(*s)));
    /// ```
    pub fn from_name(name: &str) -> Option<Speed> {
        Speed::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The estimated length of a game under this speed is below this many milliseconds
    /// (`None` for classical, which has no upper bound, and correspondence, which is not
    /// counted in minutes).
    ///
    /// ```
    /// use agon_web::game::speed::Speed;
    /// assert_eq!(Speed::Blitz.below_ms(), Some(30 * 60_000));
    /// assert_eq!(Speed::Classical.below_ms(), None);
    /// ```
    pub const fn below_ms(self) -> Option<i64> {
        match self {
            Speed::UltraBullet => Some(2 * 60_000),
            Speed::Bullet => Some(11 * 60_000),
            Speed::Blitz => Some(30 * 60_000),
            Speed::Rapid => Some(90 * 60_000),
            Speed::Classical | Speed::Correspondence => None,
        }
    }

    /// The speed of a clock of `initial_ms` and `increment_ms` a move, by its estimated
    /// length ([`estimated_ms`]): the first whose bound is above it, else classical.
    ///
    /// ```
    /// use agon_web::game::speed::Speed;
    /// let minutes = |m: i64, s: i64| Speed::of_clock(m * 60_000, s * 1_000);
    /// assert_eq!(minutes(1, 0), Speed::UltraBullet);
    /// assert_eq!(minutes(5, 3), Speed::Blitz);
    /// assert_eq!(minutes(15, 10), Speed::Rapid);
    /// assert_eq!(minutes(60, 30), Speed::Classical);
    /// ```
    pub fn of_clock(initial_ms: i64, increment_ms: i64) -> Speed {
        let estimate = estimated_ms(initial_ms, increment_ms);
        Speed::ALL
            .into_iter()
            .find(|s| s.below_ms().is_some_and(|bound| estimate < bound))
            .unwrap_or(Speed::Classical)
    }
}

/// A clock's estimated game length for one player: `initial + 150 × increment`
/// ([`ACTIONS_PER_PLAYER`]), in milliseconds. A negative value counts as 0 and the sum
/// saturates, so no input panics.
///
/// ```
/// use agon_web::game::speed::estimated_ms;
/// assert_eq!(estimated_ms(180_000, 2_000), 480_000);
/// assert_eq!(estimated_ms(-1, i64::MAX), i64::MAX);
/// ```
pub fn estimated_ms(initial_ms: i64, increment_ms: i64) -> i64 {
    initial_ms
        .max(0)
        .saturating_add(increment_ms.max(0).saturating_mul(ACTIONS_PER_PLAYER))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bound_belongs_to_the_slower_speed() {
        // 2 minutes exactly is bullet; a millisecond less is ultrabullet.
        assert_eq!(Speed::of_clock(119_999, 0), Speed::UltraBullet);
        assert_eq!(Speed::of_clock(120_000, 0), Speed::Bullet);
        // 11 minutes: 6 minutes + 2 s a move (360 + 150 × 2 = 660 s).
        assert_eq!(Speed::of_clock(359_999, 2_000), Speed::Bullet);
        assert_eq!(Speed::of_clock(360_000, 2_000), Speed::Blitz);
        // 30 minutes, 90 minutes.
        assert_eq!(Speed::of_clock(1_799_999, 0), Speed::Blitz);
        assert_eq!(Speed::of_clock(1_800_000, 0), Speed::Rapid);
        assert_eq!(Speed::of_clock(0, 35_999), Speed::Rapid);
        assert_eq!(Speed::of_clock(0, 36_000), Speed::Classical);
        // Nothing counts as correspondence by its minutes.
        assert_eq!(Speed::of_clock(i64::MAX, i64::MAX), Speed::Classical);
        assert_eq!(Speed::of_clock(-5, -5), Speed::UltraBullet);
    }

    #[test]
    fn the_bounds_keep_lichess_pace_per_action() {
        // lichess's bounds for 40 moves, in seconds: 30, 180, 480, 1500 (a game estimated
        // below them). Per move that is 0.75, 4.5, 12 and 37.5 s; ours, per action, stay
        // within 10% of it.
        let lichess = [30.0, 180.0, 480.0, 1500.0];
        for (speed, theirs) in Speed::ALL.iter().zip(lichess) {
            let ours = speed.below_ms().unwrap() as f64 / 1_000.0 / ACTIONS_PER_PLAYER as f64;
            let pace = theirs / 40.0;
            assert!(
                (ours / pace - 1.0).abs() <= 0.1,
                "{speed:?}: {ours} against {pace}"
            );
        }
    }

    #[test]
    fn the_quick_pairing_controls_spread_over_the_speeds() {
        let speeds: Vec<&str> = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 30)]
            .iter()
            .map(|&(m, s)| Speed::of_clock(m * 60_000, s * 1_000).name())
            .collect();
        assert_eq!(
            speeds,
            [
                "ultrabullet",
                "bullet",
                "blitz",
                "blitz",
                "rapid",
                "classical"
            ]
        );
    }
}
