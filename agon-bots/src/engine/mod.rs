//! [`Engine`]: the strong player, its [`Limits`], its evaluation ([`eval`], public as
//! `agon_bots::engine_eval`) and the analysis API on top ([`analyse`], the types of
//! `analysis`).
//!
//! Layers inside the engine point one way: this module uses `search`, which uses
//! `ordering`, `tt`, `eval` and `techniques`; `analysis` holds the result types and knows
//! only the search's report.

use std::time::Duration;

use agon_core::{Game, Move, Position, Rules};

use crate::{Bot, SpecError, MAX_TIME_LIMIT};

mod analysis;
mod budget;
mod control;
pub mod eval;
mod ordering;
pub(crate) mod search;
mod techniques;
mod tt;

#[allow(deprecated)]
pub use analysis::Score;
pub use analysis::{Analysable, Analysis, AnalysisError, Evaluation, Line};
pub use budget::MoveBudget;
pub use control::SearchControl;
pub use techniques::{Technique, Techniques};

/// When a search stops: after a time, a number of nodes, or a depth, whichever comes
/// first. At least one must be set for a search to end.
///
/// ```
/// use std::time::Duration;
/// use agon_bots::Limits;
///
/// let limits = Limits::time(Duration::from_millis(100)).with_nodes(50_000);
/// assert_eq!(limits.time, Some(Duration::from_millis(100)));
/// assert_eq!(limits.nodes, Some(50_000));
/// assert_eq!(limits.depth, None);
/// assert!(limits.is_bounded());
/// assert!(!Limits::default().is_bounded());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub struct Limits {
    /// The longest a search may think (it stops within about a millisecond of it).
    pub time: Option<Duration>,
    /// The most nodes (positions visited) of the main thread.
    pub nodes: Option<u64>,
    /// The deepest iteration, in plies (1 to [`Engine::MAX_DEPTH`]).
    pub depth: Option<u32>,
}

impl Limits {
    /// A time limit alone.
    ///
    /// ```
    /// use std::time::Duration;
    /// let limits = agon_bots::Limits::time(Duration::from_millis(50));
    /// assert_eq!(limits.time, Some(Duration::from_millis(50)));
    /// ```
    pub fn time(limit: Duration) -> Limits {
        Limits::default().with_time(limit)
    }

    /// A node budget alone (deterministic with one thread).
    ///
    /// ```
    /// assert_eq!(agon_bots::Limits::nodes(10).nodes, Some(10));
    /// ```
    pub fn nodes(nodes: u64) -> Limits {
        Limits::default().with_nodes(nodes)
    }

    /// A depth alone (deterministic with one thread).
    ///
    /// ```
    /// assert_eq!(agon_bots::Limits::depth(4).depth, Some(4));
    /// ```
    pub fn depth(depth: u32) -> Limits {
        Limits::default().with_depth(depth)
    }

    /// These limits with a time limit too (lowered to [`MAX_TIME_LIMIT`]).
    ///
    /// ```
    /// use std::time::Duration;
    /// let limits = agon_bots::Limits::depth(9).with_time(Duration::MAX);
    /// assert_eq!(limits.time, Some(agon_bots::MAX_TIME_LIMIT));
    /// ```
    #[must_use]
    pub fn with_time(self, limit: Duration) -> Limits {
        Limits {
            time: Some(limit.min(MAX_TIME_LIMIT)),
            ..self
        }
    }

    /// These limits with a node budget too (at least 1).
    ///
    /// ```
    /// assert_eq!(agon_bots::Limits::depth(3).with_nodes(0).nodes, Some(1));
    /// ```
    #[must_use]
    pub fn with_nodes(self, nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes.max(1)),
            ..self
        }
    }

    /// These limits with a depth too (brought into 1 to [`Engine::MAX_DEPTH`]).
    ///
    /// ```
    /// assert_eq!(agon_bots::Limits::nodes(9).with_depth(1000).depth, Some(100));
    /// ```
    #[must_use]
    pub fn with_depth(self, depth: u32) -> Limits {
        Limits {
            depth: Some(depth.clamp(1, Engine::MAX_DEPTH)),
            ..self
        }
    }

    /// Whether a search under these limits ends (some limit is set).
    ///
    /// ```
    /// assert!(agon_bots::Limits::depth(1).is_bounded());
    /// ```
    pub fn is_bounded(&self) -> bool {
        self.time.is_some() || self.nodes.is_some() || self.depth.is_some()
    }
}

/// The strong player: a principal-variation search under a clock or a node budget, with a
/// transposition table sized in MiB, and an analysis API on top ([`Engine::analyse`],
/// [`analyse`](crate::analyse)). Its bot spec is `engine[:PART]...` (see
/// [`Engine::from_spec`]), `engine:100ms` by default.
///
/// # Search
///
/// - **Iterative deepening** with **aspiration windows** (±25 centipoints around the
///   previous score, doubled on each failure) and **principal-variation search** (null
///   windows for all moves but the first, re-searched when they beat alpha).
/// - A **transposition table** of 16-byte entries (the size given in MiB, rounded down to
///   a power of two), keyed on the Zobrist hash: best move, score bound, depth. It is
///   shared without locks between threads.
/// - **Move ordering**: the table's move, steps that complete a winning throne ring,
///   captures (more pieces and the queen first), the return of a captured queen to the
///   throne, two killer moves per ply, then a history of cutoffs.
/// - **Late-move reductions** of quiet moves and returns ordered late.
/// - **Quiescence**: at the horizon, captures (and steps that complete a winning ring)
///   are searched until the position is quiet, against the static score (stand pat); where
///   the horizon falls on a side that must return a captured piece, each return is
///   searched, so the search does not stop in the middle of a capture sequence. Deeper in
///   the quiescence search a side that must return stands on its static score (searching
///   every return there made some searches explode: 30 s instead of 0.5 s for the
///   determinism test's positions).
/// - **Repetition** (R11) from the game's history plus the search path: the third
///   occurrence is a draw, and so is a return to a position already on the path (a cycle
///   gains nothing). A draw is worth [`Engine::DEFAULT_CONTEMPT`] centipoints less than an
///   even position to the side that searches; so a side that is ahead avoids it, and a side
///   that is behind by more than that seeks it. From [`Engine::LONG_GAME`] plies on, a
///   draw is worth that much *more* than an even position, so that long, level games end
///   in a repetition rather than at a ply cap (see [`Engine::draw_value`]).
/// - **Wins and losses**: a complete throne ring (R10) and having no action (R12) score as
///   a win or loss at their distance from the root, shown as "win in N".
/// - **Lazy SMP** (`threads > 1`): helper threads search the same root at staggered
///   depths, sharing the table; the main thread's result is played.
/// - **Rule sets**: the search follows the rules of the game ([`agon_core::Rules`]).
///   Scores are for the chooser of each node ([`Position::chooser`]): the return of a
///   queen placed by her captor (`queen-placer=captor`) is the captor's choice, searched
///   without a stand-pat score. Repetition draws only under `repetition=third`; a pass
///   answered by a pass, a position at the move limit (counted from the game's start:
///   give the engine the game, [`Bot::choose_in_game`], or it counts from the position)
///   and, under `empty-throne-ring=draw`, a ring without its queen are draws, scored as
///   a repetition is. A side that cannot step passes under `stuck=pass`: no evaluation
///   term counts a lack of steps as a loss. The table is emptied when the rules change
///   between two searches (its keys do not hold the rules).
///
/// Each of the table, aspiration windows, PVS, killers and history, late-move reductions
/// and quiescence ([`Technique`]) can be switched off ([`Engine::with_techniques`]) to
/// measure what it brings: `cargo run --release -p agon-bots --example ablation` prints
/// the time to a depth without each, and the result of games against the full engine
/// (the figures are in the README).
///
/// # Limits and determinism
///
/// A search stops at the first of its [`Limits`]: a time, a node budget or a depth. The
/// clock is read every 256 nodes, so a search ends within about a millisecond of its
/// deadline; a new iteration is not started past half the time. With one thread and no
/// time limit, a search depends only on the game and its limits: the table's entries from
/// earlier searches are ignored, and the same call gives the same move, score and node
/// count. With a time limit, the table is kept between moves (it helps) and the result
/// depends on the machine's speed.
///
/// ```
/// use agon_bots::{Bot, Engine, Limits};
/// use agon_core::Game;
///
/// let game = Game::new();
/// let mut engine = Engine::new(Limits::nodes(3_000));
/// let m = engine.choose_in_game(&game).unwrap();
/// assert!(game.is_legal(m));
/// assert_eq!(Engine::new(Limits::nodes(3_000)).choose_in_game(&game), Some(m));
/// ```
///
/// The [name](Bot::name) is the spec:
///
/// ```
/// use std::time::Duration;
/// use agon_bots::{Bot, Engine, Limits};
///
/// let engine = Engine::new(Limits::time(Duration::from_millis(100)));
/// assert_eq!(engine.name(), "engine:100ms");
/// let engine = Engine::new(Limits::nodes(50_000)).with_threads(2).with_hash_mib(64);
/// assert_eq!(engine.name(), "engine:n50000:t2:h64");
/// ```
pub struct Engine {
    limits: Limits,
    hash_mib: usize,
    threads: usize,
    contempt: i32,
    weights: [i32; eval::NUM_FEATURES],
    techniques: Techniques,
    /// Allocated on the first search, so that building an engine is cheap.
    table: Option<tt::Table>,
    /// The rules of the table's entries.
    table_rules: Rules,
}

impl Engine {
    /// The time per move of `engine` without limits: 100 ms.
    ///
    /// ```
    /// use agon_bots::{bot_by_name, Engine};
    /// let name = format!("engine:{}ms", Engine::DEFAULT_TIME.as_millis());
    /// assert_eq!(bot_by_name("engine", 0)?.name(), name);
    /// # Ok::<(), agon_bots::SpecError>(())
    /// ```
    pub const DEFAULT_TIME: Duration = Duration::from_millis(100);

    /// The default size of the transposition table, in MiB.
    ///
    /// ```
    /// use agon_bots::{Bot, Engine, Limits};
    /// // The default is left out of the name.
    /// let engine = Engine::new(Limits::depth(2)).with_hash_mib(Engine::DEFAULT_HASH_MIB);
    /// assert_eq!(engine.name(), "engine:d2");
    /// ```
    pub const DEFAULT_HASH_MIB: usize = 16;

    /// The largest transposition table, in MiB.
    ///
    /// ```
    /// assert_eq!(agon_bots::Engine::MAX_HASH_MIB, 4096);
    /// ```
    pub const MAX_HASH_MIB: usize = 4096;

    /// The most search threads.
    ///
    /// ```
    /// assert_eq!(agon_bots::Engine::MAX_THREADS, 64);
    /// ```
    pub const MAX_THREADS: usize = 64;

    /// The deepest iteration.
    ///
    /// ```
    /// assert_eq!(agon_bots::Engine::MAX_DEPTH, 100);
    /// ```
    pub const MAX_DEPTH: u32 = 100;

    /// How much worse than an even position a draw is for the side that searches, in
    /// centipoints.
    ///
    /// ```
    /// use agon_bots::{Engine, Limits};
    /// assert!(Engine::DEFAULT_CONTEMPT > 0);
    /// assert_eq!(Engine::new(Limits::depth(2)).contempt(), Engine::DEFAULT_CONTEMPT);
    /// ```
    pub const DEFAULT_CONTEMPT: i32 = 15;

    /// The game length, in plies, from which the engine values a draw
    /// [`contempt`](Engine::contempt) centipoints *above* an even position: past it, a
    /// side that is not clearly ahead steers into a repetition draw (R11) rather than
    /// shuffle on toward the arena's ply cap.
    ///
    /// ```
    /// use agon_bots::{arena, Engine};
    /// // Long games end in a draw before the arena's cap.
    /// assert!(Engine::LONG_GAME < arena::MAX_PLIES);
    /// ```
    pub const LONG_GAME: usize = 400;

    /// An engine that searches under `limits` for each move, with one thread and a table of
    /// [`Engine::DEFAULT_HASH_MIB`] MiB. Without any limit it thinks
    /// [`Engine::DEFAULT_TIME`] per move.
    ///
    /// ```
    /// use agon_bots::{Bot, Engine, Limits};
    /// assert_eq!(Engine::new(Limits::default()).name(), "engine:100ms");
    /// assert_eq!(Engine::new(Limits::depth(6)).name(), "engine:d6");
    /// ```
    pub fn new(limits: Limits) -> Engine {
        let limits = if limits.is_bounded() {
            limits
        } else {
            Limits::time(Self::DEFAULT_TIME)
        };
        Engine {
            limits,
            hash_mib: Self::DEFAULT_HASH_MIB,
            threads: 1,
            contempt: Self::DEFAULT_CONTEMPT,
            weights: eval::WEIGHTS,
            techniques: Techniques::ALL,
            table: None,
            table_rules: Rules::STANDARD,
        }
    }

    /// The same engine with a table of `mib` MiB (1 to [`Engine::MAX_HASH_MIB`]).
    ///
    /// ```
    /// use agon_bots::{Bot, Engine, Limits};
    /// assert_eq!(Engine::new(Limits::depth(2)).with_hash_mib(0).name(), "engine:d2:h1");
    /// ```
    #[must_use]
    pub fn with_hash_mib(self, mib: usize) -> Engine {
        Engine {
            hash_mib: mib.clamp(1, Self::MAX_HASH_MIB),
            table: None,
            ..self
        }
    }

    /// The same engine searching on `threads` threads (1 to [`Engine::MAX_THREADS`]); with
    /// more than one it is no longer deterministic.
    ///
    /// ```
    /// use agon_bots::{Bot, Engine, Limits};
    /// assert_eq!(Engine::new(Limits::depth(2)).with_threads(2).name(), "engine:d2:t2");
    /// ```
    #[must_use]
    pub fn with_threads(self, threads: usize) -> Engine {
        Engine {
            threads: threads.clamp(1, Self::MAX_THREADS),
            ..self
        }
    }

    /// The same engine valuing a draw `contempt` centipoints below an even position
    /// (negative values make it seek draws). Not part of the spec.
    ///
    /// ```
    /// use agon_bots::{Engine, Limits};
    /// let engine = Engine::new(Limits::depth(2)).with_contempt(0);
    /// assert_eq!(engine.contempt(), 0);
    /// ```
    #[must_use]
    pub fn with_contempt(self, contempt: i32) -> Engine {
        Engine {
            contempt: contempt.clamp(-1000, 1000),
            ..self
        }
    }

    /// The same engine evaluating with other weights (see
    /// [`engine_eval`](crate::engine_eval); for tuning). Not part of the spec.
    ///
    /// ```
    /// use agon_bots::{engine_eval, Engine, Limits};
    /// let engine = Engine::new(Limits::depth(2)).with_weights([0; engine_eval::NUM_FEATURES]);
    /// assert_eq!(engine.weights(), [0; engine_eval::NUM_FEATURES]);
    /// ```
    #[must_use]
    pub fn with_weights(self, weights: [i32; eval::NUM_FEATURES]) -> Engine {
        Engine { weights, ..self }
    }

    /// The evaluation's weights.
    ///
    /// ```
    /// use agon_bots::{engine_eval, Engine, Limits};
    /// assert_eq!(Engine::new(Limits::depth(2)).weights(), engine_eval::WEIGHTS);
    /// ```
    pub fn weights(&self) -> [i32; eval::NUM_FEATURES] {
        self.weights
    }

    /// The same engine searching with only `techniques` (to measure what the others
    /// bring). Not part of the spec: `engine:...` always searches with all of them.
    ///
    /// ```
    /// use agon_bots::{Bot, Engine, Limits, Technique, Techniques};
    ///
    /// let plain = Techniques::ALL.without(Technique::Quiescence);
    /// let mut engine = Engine::new(Limits::depth(3)).with_techniques(plain);
    /// assert_eq!(engine.techniques(), plain);
    /// assert!(engine.choose(&agon_core::Position::start()).is_some());
    /// ```
    #[must_use]
    pub fn with_techniques(self, techniques: Techniques) -> Engine {
        Engine { techniques, ..self }
    }

    /// The search techniques in use: [`Techniques::ALL`] unless switched off.
    ///
    /// ```
    /// use agon_bots::{Engine, Limits, Techniques};
    /// assert_eq!(Engine::new(Limits::depth(2)).techniques(), Techniques::ALL);
    /// ```
    pub fn techniques(&self) -> Techniques {
        self.techniques
    }

    /// The draw contempt, in centipoints.
    ///
    /// ```
    /// use agon_bots::{Engine, Limits};
    /// assert_eq!(Engine::new(Limits::depth(2)).contempt(), Engine::DEFAULT_CONTEMPT);
    /// ```
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// The worth of a draw by repetition (R11) to the side to move in `game`, in
    /// centipoints above an even position: the engine steers into a repetition when it
    /// values its position below this. Before [`Engine::LONG_GAME`] plies it is minus the
    /// [contempt](Engine::contempt), so a side avoids a draw unless it is behind; from then
    /// on, plus the contempt, so a side that is not clearly ahead takes a repetition rather
    /// than shuffle on. A lone position has no history: its draw is worth minus the
    /// contempt.
    ///
    /// ```
    /// use agon_bots::{Engine, Limits};
    /// use agon_core::Game;
    ///
    /// let engine = Engine::new(Limits::depth(2));
    /// assert_eq!(engine.draw_value(&Game::new()), -Engine::DEFAULT_CONTEMPT);
    /// ```
    pub fn draw_value(&self, game: &Game) -> i32 {
        if game.moves().len() < Self::LONG_GAME {
            -self.contempt
        } else {
            self.contempt.abs()
        }
    }

    /// The limits of each move's search.
    ///
    /// ```
    /// use agon_bots::{Engine, Limits};
    /// assert_eq!(Engine::new(Limits::depth(3)).limits(), Limits::depth(3));
    /// ```
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Reads an engine spec: `engine` followed by any of these parts, each after a colon,
    /// in any order, each at most once:
    ///
    /// | part | meaning | range |
    /// |---|---|---|
    /// | `100ms` | time per move in milliseconds | 0 to `u64::MAX` |
    /// | `n50000` | node budget per move | 1 to `u64::MAX` |
    /// | `d8` | depth per move | 1 to [`Engine::MAX_DEPTH`] |
    /// | `t2` | threads | 1 to [`Engine::MAX_THREADS`] |
    /// | `h64` | transposition table in MiB | 1 to [`Engine::MAX_HASH_MIB`] |
    ///
    /// Without a time, node or depth part the engine thinks [`Engine::DEFAULT_TIME`] per
    /// move. The [name](Bot::name) lists the parts in the order of the table, leaving
    /// out defaults (one thread, [`Engine::DEFAULT_HASH_MIB`]). Every spec of this table,
    /// each part at its largest included, fits in [`MAX_SPEC_LEN`](crate::MAX_SPEC_LEN), so
    /// the name of every engine reads back.
    ///
    /// # Errors
    ///
    /// A [`SpecError`] naming the part at fault: [`NotEngine`](SpecError::NotEngine) for a
    /// spec of another bot, [`UnknownPart`](SpecError::UnknownPart) for a part of no kind
    /// above, [`BadNumber`](SpecError::BadNumber) for a number out of its range (given in
    /// the error), [`RepeatedPart`](SpecError::RepeatedPart) for a kind set twice.
    ///
    /// ```
    /// use agon_bots::{Bot, Engine, SpecError, SpecNumber};
    /// assert_eq!(Engine::from_spec("engine:n5000:250ms")?.name(), "engine:250ms:n5000");
    /// assert_eq!(Engine::from_spec("engine:h16:t1")?.name(), "engine:100ms");
    /// assert_eq!(
    ///     Engine::from_spec("engine:x3").err().map(|e| e.to_string()).as_deref(),
    ///     Some("bad part \"x3\" in bot \"engine:x3\": expected like 100ms, n50000, d8, t2 or h64")
    /// );
    /// assert!(matches!(
    ///     Engine::from_spec("engine:d0"),
    ///     Err(SpecError::BadNumber { number: SpecNumber::Depth, min: 1, max: 100, .. })
    /// ));
    /// assert!(matches!(Engine::from_spec("engine:d5:d6"), Err(SpecError::RepeatedPart { .. })));
    /// # Ok::<(), SpecError>(())
    /// ```
    pub fn from_spec(spec: &str) -> Result<Engine, SpecError> {
        crate::spec::engine_from_spec(spec)
    }

    /// Analyses a game (or a lone position, which has no history) under `limits`,
    /// returning `multipv` lines (at least 1, at most the number of legal moves), best
    /// first. The engine's own limits are not used; its table, threads and contempt are.
    ///
    /// # Errors
    ///
    /// [`AnalysisError::GameOver`] when the game is over, [`AnalysisError::Unbounded`] when
    /// `limits` sets no limit.
    ///
    /// ```
    /// use agon_bots::{Engine, Limits};
    /// use agon_core::Position;
    ///
    /// let mut engine = Engine::new(Limits::depth(1));
    /// let won_in_one: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w".parse()?;
    /// let analysis = engine.analyse(&won_in_one, Limits::depth(2), 2)?;
    /// assert_eq!(analysis.best_move().to_string(), "h5-g6");
    /// assert_eq!(analysis.score().to_string(), "win in 1");
    /// assert_eq!(analysis.lines.len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn analyse(
        &mut self,
        input: &impl Analysable,
        limits: Limits,
        multipv: usize,
    ) -> Result<Analysis, AnalysisError> {
        self.search(input, limits, multipv, None)
    }

    /// Analyses as [`Engine::analyse`] does, under a [`SearchControl`]: the search also
    /// stops when the control's stop flag is raised (from any thread) or at its deadline,
    /// and reports each completed iteration to its callback. The limits are the control's
    /// (none is needed: a search without one runs until the flag is raised or the
    /// deepest iteration, [`Engine::MAX_DEPTH`]). Without a deadline, with one thread and
    /// a node or depth cap, the result and node count are those of [`Engine::analyse`]
    /// under the same caps: the flag is looked at only with the clock.
    ///
    /// # Errors
    ///
    /// [`AnalysisError::GameOver`] when the game is over.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use agon_bots::{Engine, Limits, SearchControl};
    /// use agon_core::Game;
    ///
    /// let depths = Arc::new(Mutex::new(Vec::new()));
    /// let seen = Arc::clone(&depths);
    /// let mut control = SearchControl::new()
    ///     .with_depth(4)
    ///     .on_depth(move |a| seen.lock().unwrap().push(a.depth));
    /// let mut engine = Engine::new(Limits::depth(1));
    /// let with = engine.analyse_with(&Game::new(), &mut control, 1)?;
    /// assert_eq!(*depths.lock().unwrap(), vec![1, 2, 3, 4]);
    /// let without = Engine::new(Limits::depth(1)).analyse(&Game::new(), Limits::depth(4), 1)?;
    /// assert_eq!((with.best_move(), with.nodes), (without.best_move(), without.nodes));
    /// # Ok::<(), agon_bots::AnalysisError>(())
    /// ```
    pub fn analyse_with(
        &mut self,
        input: &impl Analysable,
        control: &mut SearchControl,
        multipv: usize,
    ) -> Result<Analysis, AnalysisError> {
        let limits = Limits {
            time: None,
            nodes: control.nodes,
            depth: control.depth,
        };
        self.search(input, limits, multipv, Some(control))
    }

    /// The search behind [`Engine::analyse`] and [`Engine::analyse_with`].
    fn search(
        &mut self,
        input: &impl Analysable,
        limits: Limits,
        multipv: usize,
        control: Option<&mut SearchControl>,
    ) -> Result<Analysis, AnalysisError> {
        let start = std::time::Instant::now();
        let game = input.to_game();
        if let Some(outcome) = game.outcome() {
            return Err(AnalysisError::GameOver(outcome));
        }
        // A controlled search may run until its flag is raised.
        if control.is_none() && !limits.is_bounded() {
            return Err(AnalysisError::Unbounded);
        }
        let side = game.position().chooser();
        let contempt = -self.draw_value(&game);
        let hash_mib = self.hash_mib;
        if game.rules() != self.table_rules {
            self.table = None;
            self.table_rules = game.rules();
        }
        let table = self.table.get_or_insert_with(|| tt::Table::new(hash_mib));
        let timed = limits.time.is_some() || control.as_ref().is_some_and(|c| c.is_timed());
        let stops = search::Stops {
            time: limits.time,
            nodes: limits.nodes,
            depth: limits.depth,
            hard: control.as_ref().and_then(|c| c.deadline),
            soft: control.as_ref().and_then(|c| c.soft_deadline),
        };
        let settings = search::Settings {
            multipv,
            threads: self.threads,
            contempt,
            fresh: self.threads == 1 && !timed,
            weights: self.weights,
            techniques: self.techniques,
        };
        let mut report_depth;
        let external = match control {
            Some(c) => {
                let stop = &*c.stop;
                let callback = &mut c.on_depth;
                report_depth = move |r: &search::Report| {
                    if let Some(f) = callback.as_mut() {
                        f(&Analysis::from_report(r.clone(), side));
                    }
                };
                Some(search::External {
                    stop,
                    on_depth: &mut report_depth,
                })
            }
            None => None,
        };
        let report = search::think(table, &game, stops, settings, start, external);
        Ok(Analysis::from_report(report, side))
    }

    fn best_move(&mut self, game: &Game) -> Option<Move> {
        let limits = self.limits;
        self.analyse(game, limits, 1).ok().map(|a| a.best_move())
    }
}

impl Bot for Engine {
    fn name(&self) -> String {
        let mut name = "engine".to_string();
        if let Some(t) = self.limits.time {
            name += &format!(":{}ms", t.as_millis());
        }
        if let Some(n) = self.limits.nodes {
            name += &format!(":n{n}");
        }
        if let Some(d) = self.limits.depth {
            name += &format!(":d{d}");
        }
        if self.threads != 1 {
            name += &format!(":t{}", self.threads);
        }
        if self.hash_mib != Self::DEFAULT_HASH_MIB {
            name += &format!(":h{}", self.hash_mib);
        }
        name
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        self.best_move(&Game::from_position(*position))
    }

    fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        self.best_move(game)
    }
}

/// Analyses `input` under `limits` with a new single-threaded [`Engine`] (a table of
/// [`Engine::DEFAULT_HASH_MIB`] MiB), returning `multipv` lines best first: what the
/// engine thinks of a game or a position — best move, [`Evaluation`], principal variation,
/// depth, nodes and speed, for one or several lines. To keep the table between calls, or
/// to use threads, call [`Engine::analyse`].
///
/// ```
/// use agon_bots::{analyse, Limits, Evaluation};
/// use agon_core::Game;
///
/// let analysis = analyse(&Game::new(), Limits::depth(3), 3)?;
/// assert_eq!(analysis.lines.len(), 3);
/// assert!(Game::new().is_legal(analysis.best_move()));
/// assert!(matches!(analysis.score(), Evaluation::Points(_)));
/// assert!(analysis.lines.windows(2).all(|w| w[0].score >= w[1].score));
/// # Ok::<(), agon_bots::AnalysisError>(())
/// ```
///
/// # Errors
///
/// As [`Engine::analyse`]: the game is over, or `limits` sets no limit.
///
/// ```
/// use agon_bots::{analyse, Limits, Evaluation};
/// use agon_core::Position;
///
/// // Black's five moves that leave White without an action win at once (R12).
/// let pos: Position = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b".parse()?;
/// let a = analyse(&pos, Limits::depth(2), 1)?;
/// assert_eq!(a.score(), Evaluation::Win(1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn analyse(
    input: &impl Analysable,
    limits: Limits,
    multipv: usize,
) -> Result<Analysis, AnalysisError> {
    Engine::new(Limits::default()).analyse(input, limits, multipv)
}
