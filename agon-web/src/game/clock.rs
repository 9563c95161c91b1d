//! [`Clock`]: a game's time control and both sides' remaining times, and the server's
//! clock ([`now_ms`]).

use agon_core::Side;

/// A minute of the clocks in milliseconds, as a server runs unless `--clock-minute-ms`
/// shortens it for tests.
///
/// ```
/// assert_eq!(agon_web::MINUTE_MS, agon_web::Config::default().clock_minute_ms);
/// ```
pub const MINUTE_MS: i64 = 60_000;

/// The most minutes a clock may start with (a game's, a seek's).
pub const MAX_CLOCK_MINUTES: u32 = 180;

/// The largest increment of a clock, in seconds.
pub const MAX_CLOCK_INCREMENT: u32 = 60;

/// Reads a clock's `M+S`: whole minutes 1 to [`MAX_CLOCK_MINUTES`] plus an increment of 0
/// to [`MAX_CLOCK_INCREMENT`] seconds a move, each of 1 to 3 digits; `None` for anything
/// else. The API's clocks and the lobby's controls both read it.
///
/// ```
/// use agon_web::game::minutes_plus_seconds;
/// assert_eq!(minutes_plus_seconds("5+3"), Some((5, 3)));
/// assert_eq!(minutes_plus_seconds("005+000"), Some((5, 0)));
/// for bad in ["5", "0+3", "181+0", "5+61", "5+-1", "5.5+0", " 5+3", "+3", "5+", "1000+0"] {
///     assert_eq!(minutes_plus_seconds(bad), None, "{bad}");
/// }
/// ```
pub fn minutes_plus_seconds(text: &str) -> Option<(u32, u32)> {
    let number = |part: &str| -> Option<u32> {
        let digits =
            !part.is_empty() && part.len() <= 3 && part.bytes().all(|b| b.is_ascii_digit());
        digits.then(|| part.parse().ok()).flatten()
    };
    text.split_once('+')
        .and_then(|(m, s)| Some((number(m)?, number(s)?)))
        .filter(|&(m, s)| (1..=MAX_CLOCK_MINUTES).contains(&m) && s <= MAX_CLOCK_INCREMENT)
}

/// The server's time, unix milliseconds: its system clock, shifted by
/// `AGON_WEB_CLOCK_OFFSET_MS` milliseconds when that is set (for tests only: a server
/// whose clock is off, without changing the machine's clock).
///
/// A game's changes are charged at the time the store gives them
/// ([`Change::now_ms`](crate::store::Change::now_ms)): this clock with SQLite, the
/// database's with PostgreSQL.
///
/// ```
/// assert!(agon_web::now_ms() > 1_700_000_000_000);
/// ```
pub fn now_ms() -> i64 {
    let system = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    system + offset_ms()
}

/// The environment variable of [`now_ms`]'s offset, for tests.
const CLOCK_OFFSET_VAR: &str = "AGON_WEB_CLOCK_OFFSET_MS";

/// The offset of [`CLOCK_OFFSET_VAR`], read once (`0` when unset; a value that is not a
/// whole number of milliseconds is said once and ignored).
fn offset_ms() -> i64 {
    static OFFSET: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *OFFSET.get_or_init(|| {
        let Ok(text) = std::env::var(CLOCK_OFFSET_VAR) else {
            return 0;
        };
        text.trim().parse().unwrap_or_else(|_| {
            eprintln!(
                "agon-web: {CLOCK_OFFSET_VAR}={text:?} is not a number of milliseconds: ignored"
            );
            0
        })
    })
}

/// A game's clock: its settings and both sides' remaining times as of `at_ms`.
///
/// The server is its authority: every change of the game charges the side whose time was
/// running with the time since `at_ms` (and a move adds the increment to its mover), then
/// sets `at_ms` to the time of the change. `at_ms` is `None` while the clock has not
/// started: it starts with the first move, once both seats are taken.
///
/// ```
/// use agon_web::game::Clock;
/// let clock = Clock::new(300_000, 3_000);
/// assert_eq!(clock.remaining_ms, [300_000, 300_000]);
/// assert_eq!(clock.at_ms, None);
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Each side's time at the start, in milliseconds.
    pub initial_ms: i64,
    /// What each move adds to its mover's time, in milliseconds.
    pub increment_ms: i64,
    /// The remaining times of White and Black (by `Side::index`) as of `at_ms`.
    pub remaining_ms: [i64; 2],
    /// When `remaining_ms` was last brought up to date (unix milliseconds), or `None`
    /// before the clock started.
    pub at_ms: Option<i64>,
}

impl Clock {
    /// A clock that has not started, both sides at `initial_ms`.
    pub fn new(initial_ms: i64, increment_ms: i64) -> Clock {
        Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms; 2],
            at_ms: None,
        }
    }

    /// Both sides' remaining times at `now_ms`, `running`'s counted down since `at_ms`
    /// (not below 0; no time runs before `at_ms`).
    pub(super) fn remaining_with(&self, running: Option<Side>, now_ms: i64) -> [i64; 2] {
        let mut remaining = self.remaining_ms;
        if let (Some(side), Some(at)) = (running, self.at_ms) {
            let r = &mut remaining[side.index()];
            *r = (*r - (now_ms - at).max(0)).max(0);
        }
        remaining
    }
}
