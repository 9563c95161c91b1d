//! [`Clock`]: a game's time control and both sides' remaining times, and the server's
//! time ([`now_ms`]) every change is stamped with.

use agon_core::Side;

/// A minute of the clocks in milliseconds, as a server runs unless `--clock-minute-ms`
/// shortens it for tests.
///
/// ```
/// assert_eq!(agon_web::MINUTE_MS, agon_web::Config::default().clock_minute_ms);
/// ```
pub const MINUTE_MS: i64 = 60_000;

/// The server's time, unix milliseconds.
///
/// ```
/// assert!(agon_web::now_ms() > 1_700_000_000_000);
/// ```
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
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
