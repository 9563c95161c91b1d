//! [`SearchControl`]: what a caller running the engine's search on another thread (a
//! protocol front end such as `agon-ugi`) adds to [`Limits`](super::Limits): a stop flag,
//! deadlines, and a report of each completed iteration.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::{Analysis, MoveBudget};

/// The control of one search by [`Engine::analyse_with`](super::Engine::analyse_with): a
/// stop flag shared with other threads ([`SearchControl::stop_flag`]), a hard deadline
/// (the search stops within about a millisecond of it), a soft deadline (no new iteration
/// starts past it), node and depth caps, and a callback called with the
/// [`Analysis`] of every completed iteration (depth 1, 2, ...). Every part is optional.
///
/// The flag and the deadline are looked at together, every 256 nodes of the main search
/// thread, so raising the flag stops a search within about a millisecond.
///
/// ```
/// use std::sync::atomic::Ordering;
/// use std::time::{Duration, Instant};
/// use agon_bots::{Engine, Limits, SearchControl};
/// use agon_core::Game;
///
/// let mut control = SearchControl::new();
/// let flag = control.stop_flag();
/// // Raised from another thread after 20 ms, it ends a search that has no other limit.
/// let raiser = std::thread::spawn(move || {
///     std::thread::sleep(Duration::from_millis(20));
///     flag.store(true, Ordering::Relaxed);
/// });
/// let start = Instant::now();
/// let analysis = Engine::new(Limits::depth(1)).analyse_with(&Game::new(), &mut control, 1)?;
/// raiser.join().unwrap();
/// assert!(start.elapsed() < Duration::from_secs(5));
/// assert!(Game::new().is_legal(analysis.best_move()));
/// # Ok::<(), agon_bots::AnalysisError>(())
/// ```
#[derive(Default)]
pub struct SearchControl {
    pub(crate) stop: Arc<AtomicBool>,
    /// The search stops at this instant.
    pub deadline: Option<Instant>,
    /// No new iteration starts past this instant.
    pub soft_deadline: Option<Instant>,
    /// The most nodes of the main thread.
    pub nodes: Option<u64>,
    /// The deepest iteration.
    pub depth: Option<u32>,
    pub(crate) on_depth: Option<DepthCallback>,
}

/// What [`SearchControl::on_depth`] keeps.
pub(crate) type DepthCallback = Box<dyn FnMut(&Analysis) + Send>;

impl SearchControl {
    /// A control with nothing set: a search under it runs until its flag is raised.
    ///
    /// ```
    /// let control = agon_bots::SearchControl::new();
    /// assert!(control.deadline.is_none() && control.nodes.is_none());
    /// assert!(!control.is_stopped());
    /// ```
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// The stop flag: storing `true` in it stops the search (from any thread).
    ///
    /// ```
    /// use std::sync::atomic::Ordering;
    /// let control = agon_bots::SearchControl::new();
    /// control.stop_flag().store(true, Ordering::Relaxed);
    /// assert!(control.is_stopped());
    /// ```
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Whether the stop flag is raised.
    ///
    /// ```
    /// assert!(!agon_bots::SearchControl::new().is_stopped());
    /// ```
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// This control using `flag` as its stop flag (one flag for several searches).
    ///
    /// ```
    /// use std::sync::{atomic::AtomicBool, Arc};
    /// let flag = Arc::new(AtomicBool::new(true));
    /// assert!(agon_bots::SearchControl::new().with_stop_flag(flag).is_stopped());
    /// ```
    #[must_use]
    pub fn with_stop_flag(self, flag: Arc<AtomicBool>) -> SearchControl {
        SearchControl { stop: flag, ..self }
    }

    /// This control with a hard deadline.
    ///
    /// ```
    /// use std::time::Instant;
    /// let now = Instant::now();
    /// assert_eq!(agon_bots::SearchControl::new().with_deadline(now).deadline, Some(now));
    /// ```
    #[must_use]
    pub fn with_deadline(self, deadline: Instant) -> SearchControl {
        SearchControl {
            deadline: Some(deadline),
            ..self
        }
    }

    /// This control with the soft and hard times of `budget`, counted from `start`
    /// (the moment the move was asked for).
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use agon_bots::{MoveBudget, SearchControl};
    /// let budget = MoveBudget::movetime(Duration::from_millis(100), Duration::from_millis(10));
    /// let start = Instant::now();
    /// let control = SearchControl::new().with_budget(budget, start);
    /// assert_eq!(control.deadline, Some(start + Duration::from_millis(90)));
    /// assert_eq!(control.soft_deadline, Some(start + Duration::from_millis(45)));
    /// ```
    #[must_use]
    pub fn with_budget(self, budget: MoveBudget, start: Instant) -> SearchControl {
        SearchControl {
            deadline: start.checked_add(budget.hard),
            soft_deadline: start.checked_add(budget.soft),
            ..self
        }
    }

    /// This control with a node cap (at least 1).
    ///
    /// ```
    /// assert_eq!(agon_bots::SearchControl::new().with_nodes(0).nodes, Some(1));
    /// ```
    #[must_use]
    pub fn with_nodes(self, nodes: u64) -> SearchControl {
        SearchControl {
            nodes: Some(nodes.max(1)),
            ..self
        }
    }

    /// This control with a depth cap (1 to [`Engine::MAX_DEPTH`](super::Engine::MAX_DEPTH)).
    ///
    /// ```
    /// assert_eq!(agon_bots::SearchControl::new().with_depth(0).depth, Some(1));
    /// ```
    #[must_use]
    pub fn with_depth(self, depth: u32) -> SearchControl {
        SearchControl {
            depth: Some(depth.clamp(1, super::Engine::MAX_DEPTH)),
            ..self
        }
    }

    /// This control calling `callback` with the analysis of each completed iteration
    /// (on the searching thread, so it should be quick).
    ///
    /// ```
    /// use std::sync::mpsc;
    /// use agon_bots::{Engine, Limits, SearchControl};
    /// let (tx, rx) = mpsc::channel();
    /// let mut control = SearchControl::new().with_depth(2).on_depth(move |a| {
    ///     let _ = tx.send(a.depth);
    /// });
    /// Engine::new(Limits::depth(1)).analyse_with(&agon_core::Game::new(), &mut control, 1)?;
    /// assert_eq!(rx.try_iter().collect::<Vec<_>>(), vec![1, 2]);
    /// # Ok::<(), agon_bots::AnalysisError>(())
    /// ```
    #[must_use]
    pub fn on_depth(self, callback: impl FnMut(&Analysis) + Send + 'static) -> SearchControl {
        SearchControl {
            on_depth: Some(Box::new(callback)),
            ..self
        }
    }

    /// Whether the search depends on the clock (a deadline is set), so the engine keeps
    /// its table between moves as it does under a time limit.
    pub(crate) fn is_timed(&self) -> bool {
        self.deadline.is_some() || self.soft_deadline.is_some()
    }
}

impl fmt::Debug for SearchControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchControl")
            .field("stopped", &self.is_stopped())
            .field("deadline", &self.deadline)
            .field("soft_deadline", &self.soft_deadline)
            .field("nodes", &self.nodes)
            .field("depth", &self.depth)
            .field("on_depth", &self.on_depth.is_some())
            .finish()
    }
}
