//! [`MoveBudget`]: the time to think about one move, from a clock.

use std::time::Duration;

/// How long to think about one move: a soft time (no new iteration of the search starts
/// past it) and a hard time (the search stops there, within about a millisecond: the
/// engine looks at the clock every 256 nodes). Both count from the moment the move was
/// asked for.
///
/// Under a clock ([`MoveBudget::new`]) the hard time never exceeds the time left minus
/// the overhead kept in reserve (for the process, the pipe and the harness), so a side
/// given that overhead never loses on time; the number of moves still to play is unknown,
/// so each move gets a share of the time left ([`MoveBudget::MOVES_TO_GO`] moves are
/// assumed) plus most of the increment.
///
/// ```
/// use std::time::Duration;
/// use agon_bots::MoveBudget;
///
/// let ms = Duration::from_millis;
/// // 1 s + 10 ms a move, 30 ms kept in reserve.
/// let budget = MoveBudget::new(ms(1000), ms(10), ms(30));
/// assert!(budget.soft <= budget.hard);
/// assert!(budget.hard <= ms(1000 - 30));
/// assert_eq!(budget.soft, ms(970) / 30 + ms(10) * 3 / 4);
/// // Less time than the overhead: move at once.
/// assert_eq!(MoveBudget::new(ms(20), ms(0), ms(30)).hard, Duration::ZERO);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct MoveBudget {
    /// No new iteration starts past this time.
    pub soft: Duration,
    /// The search stops at this time.
    pub hard: Duration,
}

impl MoveBudget {
    /// The moves assumed still to play when the clock does not say (a share of the time
    /// left per move).
    ///
    /// ```
    /// assert_eq!(agon_bots::MoveBudget::MOVES_TO_GO, 30);
    /// ```
    pub const MOVES_TO_GO: u32 = 30;

    /// The budget of a move under a clock: `time` left on the side's own clock, `increment`
    /// added after each move, `overhead` kept in reserve. The soft time is the time left
    /// (less the overhead) shared over [`MoveBudget::MOVES_TO_GO`] moves plus three
    /// quarters of the increment, at most a fifth of the usable time; the hard time is
    /// four times the soft one, at most half the usable time.
    ///
    /// ```
    /// use std::time::Duration;
    /// use agon_bots::MoveBudget;
    /// let ms = Duration::from_millis;
    /// // A big increment and little time left: the usable time caps both.
    /// let b = MoveBudget::new(ms(100), ms(1000), ms(50));
    /// assert_eq!((b.soft, b.hard), (ms(10), ms(25)));
    /// ```
    pub fn new(time: Duration, increment: Duration, overhead: Duration) -> MoveBudget {
        let usable = time.saturating_sub(overhead);
        let target = usable / Self::MOVES_TO_GO + increment.saturating_mul(3) / 4;
        let soft = target.min(usable / 5);
        let hard = target.saturating_mul(4).min(usable / 2);
        MoveBudget { soft, hard }
    }

    /// The budget of a move given a fixed time (`movetime`): the hard time is `movetime`
    /// less `overhead` (but at most half of `movetime` is kept back, so that a short
    /// `movetime` still searches), the soft time half of the hard one (as the engine's
    /// own time limit).
    ///
    /// ```
    /// use std::time::Duration;
    /// use agon_bots::MoveBudget;
    /// let ms = Duration::from_millis;
    /// assert_eq!(MoveBudget::movetime(ms(500), ms(20)), MoveBudget { soft: ms(240), hard: ms(480) });
    /// assert_eq!(MoveBudget::movetime(ms(30), ms(100)).hard, ms(15));
    /// ```
    pub fn movetime(movetime: Duration, overhead: Duration) -> MoveBudget {
        let hard = movetime - overhead.min(movetime / 2);
        MoveBudget {
            soft: hard / 2,
            hard,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Under any clock the hard time leaves the overhead untouched, and the soft time
        /// comes first.
        #[test]
        fn a_budget_never_spends_the_reserve(
            time in 0u64..10_000_000, inc in 0u64..1_000_000, overhead in 0u64..20_000,
        ) {
            let ms = Duration::from_millis;
            let b = MoveBudget::new(ms(time), ms(inc), ms(overhead));
            prop_assert!(b.soft <= b.hard);
            prop_assert!(b.hard <= ms(time).saturating_sub(ms(overhead)));
            let m = MoveBudget::movetime(ms(time), ms(overhead));
            prop_assert!(m.soft <= m.hard && m.hard <= ms(time));
            prop_assert!(m.hard >= ms(time) / 2);
        }
    }
}
