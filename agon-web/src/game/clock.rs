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
