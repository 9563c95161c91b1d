//! Bot specs: the one reader of `kind[:BUDGET][:TIMEms]` and of the engine's parts
//! ([`BotSpec`], its [`BotKind`] and [`EngineOptions`]), the bots built from them
//! ([`bot_by_name`], [`Engine::from_spec`]) and their errors ([`SpecError`]). Every other
//! layer that needs a spec's kind, budget or time (the Python binding's bounds, the web
//! levels, the arena's time control) reads them from a [`BotSpec`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::{AlphaBetaBot, Bot, Engine, GreedyBot, Limits, MctsBot, RandomBot};

/// The longest spec [`bot_by_name`] reads, in bytes: longer ones are refused before they
/// are read. The longest meaningful spec, an engine with every part at its largest
/// (`engine:18446744073709551615ms:n18446744073709551615:d100:t64:h4096`), has 66.
///
/// ```
/// use agon_bots::{bot_by_name, SpecError, MAX_SPEC_LEN};
/// let longest = "engine:18446744073709551615ms:n18446744073709551615:d100:t64:h4096";
/// assert!(longest.len() <= MAX_SPEC_LEN);
/// assert!(bot_by_name(longest, 0).is_ok());
/// let padded = format!("mcts:{:0>1$}", 7, MAX_SPEC_LEN - 5);
/// assert_eq!(bot_by_name(&padded, 0)?.name(), "mcts:7");
/// let too_long = format!("mcts:{:0>1$}", 7, MAX_SPEC_LEN - 4);
/// let err = bot_by_name(&too_long, 0).err().unwrap();
/// assert_eq!(err, SpecError::TooLong { len: 129 });
/// assert_eq!(err.to_string(), "bot spec too long: 129 bytes, at most 128");
/// # Ok::<(), SpecError>(())
/// ```
pub const MAX_SPEC_LEN: usize = 128;

/// Why [`bot_by_name`] or [`Engine::from_spec`] refused a spec.
///
/// Each variant holds what a caller needs to act on it (the part at fault, the range a
/// number must lie in); the [`Display`](fmt::Display) form is a message for people that
/// names the fault, the spec and what was expected. `spec` is the spec as given, `part` one
/// of its colon-separated parts as written.
///
/// ```
/// use agon_bots::{bot_by_name, SpecError, SpecNumber};
///
/// let err = bot_by_name("mcts:0", 1).err().unwrap();
/// assert_eq!(
///     err,
///     SpecError::BadNumber {
///         spec: "mcts:0".into(),
///         part: "0".into(),
///         number: SpecNumber::Playouts,
///         min: 1,
///         max: u64::from(u32::MAX),
///     }
/// );
/// assert_eq!(
///     err.to_string(),
///     "bad number \"0\" in bot \"mcts:0\": expected playouts from 1 to 4294967295"
/// );
/// // A caller can act on the fault: here, bring the number into range.
/// if let SpecError::BadNumber { min, .. } = err {
///     assert_eq!(bot_by_name(&format!("mcts:{min}"), 1)?.name(), "mcts:1");
/// }
/// // It is a standard error, so `?` turns it into a `Box<dyn Error>`.
/// let boxed: Box<dyn std::error::Error + Send + Sync> = bot_by_name("chess", 1).err().unwrap().into();
/// assert!(boxed.to_string().starts_with("unknown bot \"chess\""));
/// # Ok::<(), SpecError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum SpecError {
    /// The spec is longer than [`MAX_SPEC_LEN`] bytes; it was not read.
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// The first part names no bot: it is not `random`, `greedy`, `mcts`, `alphabeta` or
    /// `engine`.
    UnknownBot {
        /// The spec.
        spec: String,
        /// Its first part, the bot's name as written.
        name: String,
    },
    /// [`Engine::from_spec`] was given a spec of another bot (its first part is not
    /// `engine`).
    NotEngine {
        /// The spec.
        spec: String,
    },
    /// A number that is not a decimal from `min` to `max`: a budget, a time limit or an
    /// engine setting.
    BadNumber {
        /// The spec.
        spec: String,
        /// The part (for a time limit, with its `ms`; for the engine, with its letter).
        part: String,
        /// Which number it is.
        number: SpecNumber,
        /// The smallest number accepted.
        min: u64,
        /// The largest number accepted.
        max: u64,
    },
    /// A part after all those the bot reads: a budget of `random` or `greedy`, or a part
    /// after the time limit of `mcts` or `alphabeta`.
    ExtraPart {
        /// The spec.
        spec: String,
        /// The first part too many.
        part: String,
    },
    /// An engine part of no known kind (not like `100ms`, `n50000`, `d8`, `t2` or `h64`).
    UnknownPart {
        /// The spec.
        spec: String,
        /// The part.
        part: String,
    },
    /// An engine part of a kind that an earlier part already set (`engine:d5:d6`), or
    /// an option of `az` given twice.
    RepeatedPart {
        /// The spec.
        spec: String,
        /// The second part of the kind.
        part: String,
    },
    /// The bot needs a cargo feature this build of agon-bots lacks (`az` for
    /// `az:MODEL:VISITS`).
    Unavailable {
        /// The spec.
        spec: String,
        /// The feature to enable.
        feature: &'static str,
    },
    /// The command of a `ugi:` spec cannot be run: it is empty, or does not split into
    /// words (an unclosed quote); see [`crate::ugi::UgiSpec`].
    Command {
        /// The spec.
        spec: String,
        /// What is wrong with the command.
        error: String,
    },
    /// The network of an `az` spec cannot be used: no model named, a missing or corrupt
    /// file, or a model of the wrong shape ([`crate::AzSpec`]).
    Model {
        /// The spec.
        spec: String,
        /// What is wrong with the model.
        error: String,
    },
}

/// Which number of a spec a [`SpecError::BadNumber`] is about.
///
/// ```
/// use agon_bots::SpecNumber;
/// assert_eq!(SpecNumber::Playouts.to_string(), "playouts");
/// assert_eq!(SpecNumber::HashMib.to_string(), "a table size in MiB");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum SpecNumber {
    /// The playouts of `mcts:PLAYOUTS`.
    Playouts,
    /// The depth of `alphabeta:DEPTH` or of the engine's `dDEPTH`.
    Depth,
    /// A time limit in milliseconds: `500ms`.
    TimeLimit,
    /// The engine's node budget, `nNODES`.
    Nodes,
    /// The engine's threads, `tTHREADS`.
    Threads,
    /// The engine's transposition table in MiB, `hMIB`.
    HashMib,
    /// The simulations of `az:MODEL:VISITS`.
    Visits,
    /// The plies played under temperature, `az`'s `tPLIES`.
    Plies,
    /// The leaves `az` evaluates at once, `bBATCH`.
    Batch,
    /// `az`'s contempt for draws in thousandths of a win, `cPERMILLE`.
    Contempt,
    /// The moves `az`'s Gumbel search considers at the root, `gK`.
    Considered,
    /// The Gumbel search's `c_scale` in thousandths, `sPERMILLE` of an az spec.
    ValueScale,
}

impl fmt::Display for SpecNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SpecNumber::Playouts => "playouts",
            SpecNumber::Depth => "a depth",
            SpecNumber::TimeLimit => "a time limit",
            SpecNumber::Nodes => "a node budget",
            SpecNumber::Threads => "threads",
            SpecNumber::HashMib => "a table size in MiB",
            SpecNumber::Visits => "visits",
            SpecNumber::Plies => "plies",
            SpecNumber::Batch => "a batch size",
            SpecNumber::Contempt => "a contempt in thousandths",
            SpecNumber::Considered => "a number of considered moves",
            SpecNumber::ValueScale => "a value scale in thousandths",
        })
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::TooLong { len } => {
                write!(f, "bot spec too long: {len} bytes, at most {MAX_SPEC_LEN}")
            }
            SpecError::UnknownBot { spec, .. } => write!(
                f,
                "unknown bot {spec:?}: expected random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME"
            ),
            SpecError::NotEngine { spec } => write!(
                f,
                "not an engine spec: {spec:?}: expected engine or engine:PART, like engine:100ms"
            ),
            SpecError::BadNumber {
                spec,
                part,
                number: SpecNumber::TimeLimit,
                min,
                max,
            } => write!(
                f,
                "bad time limit {part:?} in bot {spec:?}: expected like 500ms, from {min}ms to {max}ms"
            ),
            SpecError::BadNumber {
                spec,
                part,
                number,
                min,
                max,
            } => write!(
                f,
                "bad number {part:?} in bot {spec:?}: expected {number} from {min} to {max}"
            ),
            SpecError::ExtraPart { spec, part } => {
                write!(f, "extra part {part:?} in bot {spec:?}: ")?;
                match spec.trim().split(':').next().unwrap_or("") {
                    kind @ ("random" | "greedy") => write!(f, "{kind} takes no budget"),
                    "mcts" => f.write_str("expected mcts[:PLAYOUTS[:TIMEms]]"),
                    _ => f.write_str("expected alphabeta[:DEPTH[:TIMEms]]"),
                }
            }
            SpecError::UnknownPart { spec, part } => {
                // The hint names the options of the bot the spec is for.
                let expected = if crate::AzSpec::is_az(spec) {
                    "noise, t30, b8, c100 or g16"
                } else {
                    "like 100ms, n50000, d8, t2 or h64"
                };
                write!(f, "bad part {part:?} in bot {spec:?}: expected {expected}")
            }
            SpecError::RepeatedPart { spec, part } => {
                write!(f, "repeated part {part:?} in bot {spec:?}")
            }
            SpecError::Unavailable { spec, feature } => write!(
                f,
                "bot {spec:?} needs agon-bots built with the cargo feature `{feature}`"
            ),
            SpecError::Command { spec, error } => {
                write!(f, "bad command in bot {spec:?}: {error}")
            }
            SpecError::Model { spec, error } => {
                write!(f, "cannot use the network of bot {spec:?}: {error}")
            }
        }
    }
}

impl std::error::Error for SpecError {}

/// The number `text` (a part, or its digits) if it is a decimal from `min` to `max`.
fn number(
    (spec, part): (&str, &str),
    text: &str,
    number: SpecNumber,
    (min, max): (u64, u64),
) -> Result<u64, SpecError> {
    text.parse::<u64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| SpecError::BadNumber {
            spec: spec.to_string(),
            part: part.to_string(),
            number,
            min,
            max,
        })
}

/// A time limit part, `500ms`.
fn time_limit(spec: &str, part: &str) -> Result<Duration, SpecError> {
    let digits = part.strip_suffix("ms").unwrap_or("not a time");
    let range = (0, u64::MAX);
    number((spec, part), digits, SpecNumber::TimeLimit, range).map(Duration::from_millis)
}

/// Builds a bot from its spec: `random`, `greedy`, `mcts:PLAYOUTS` or
/// `alphabeta:DEPTH`, or with the `az` feature the network player `az:MODEL:VISITS`
/// ([`crate::AzSpec`]; without the feature, [`SpecError::Unavailable`]) (`mcts` alone means 2000 playouts, `alphabeta` alone depth 5), or the
/// [`Engine`] from an `engine` spec (read by [`Engine::from_spec`]: `engine:100ms`). A
/// time limit in milliseconds may follow for the searching bots: `mcts:100000:500ms`,
/// `alphabeta:20:1000ms`; the bot then stops at whichever limit comes first, and is no
/// longer deterministic. Spaces around the spec are ignored. `seed` draws the random bot's
/// moves, the greedy and alpha-beta bots' choices between equal moves and MCTS's playouts;
/// the engine has no random choice, so it plays the same whatever the seed. A
/// `ugi:[TIMEms:][nNODES:][dDEPTH:]COMMAND` spec is an engine process that speaks UGI
/// ([`crate::ugi::UgiSpec`]; up to [`crate::ugi::MAX_UGI_SPEC_LEN`] bytes), given the seed
/// as its `Seed` option when it has one.
///
/// # Errors
///
/// A [`SpecError`] naming the fault: [`TooLong`](SpecError::TooLong) for a spec longer
/// than [`MAX_SPEC_LEN`] bytes, [`UnknownBot`](SpecError::UnknownBot),
/// [`ExtraPart`](SpecError::ExtraPart) for a budget to a bot that takes none or a part
/// after the time limit, [`BadNumber`](SpecError::BadNumber) for a number that is not a
/// decimal in range (PLAYOUTS from 1 to `u32::MAX`, DEPTH from 1 to
/// [`AlphaBetaBot::MAX_DEPTH`], a time limit from `0ms` to `18446744073709551615ms`,
/// `u64::MAX`), and the errors of [`Engine::from_spec`]. Reading a spec never panics, and
/// reads at most [`MAX_SPEC_LEN`] bytes.
///
/// ```
/// use agon_bots::{bot_by_name, SpecError};
///
/// assert_eq!(bot_by_name("mcts:500", 1)?.name(), "mcts:500");
/// assert_eq!(bot_by_name("alphabeta", 1)?.name(), "alphabeta:5");
/// assert_eq!(bot_by_name("alphabeta:9:250ms", 1)?.name(), "alphabeta:9:250ms");
/// assert_eq!(bot_by_name("mcts:4294967295:18446744073709551615ms", 1)?.name(), "mcts:4294967295:18446744073709551615ms");
/// assert_eq!(
///     bot_by_name("minimax", 1).err().map(|e| e.to_string()).as_deref(),
///     Some("unknown bot \"minimax\": expected random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME")
/// );
/// assert_eq!(
///     bot_by_name("mcts:lots", 1).err().map(|e| e.to_string()).as_deref(),
///     Some("bad number \"lots\" in bot \"mcts:lots\": expected playouts from 1 to 4294967295")
/// );
/// assert_eq!(
///     bot_by_name("greedy:3", 1).err().map(|e| e.to_string()).as_deref(),
///     Some("extra part \"3\" in bot \"greedy:3\": greedy takes no budget")
/// );
/// assert!(matches!(bot_by_name("mcts:4294967296", 1), Err(SpecError::BadNumber { .. })));
/// assert!(bot_by_name("alphabeta:5:18446744073709551616ms", 1).is_err());
/// # Ok::<(), SpecError>(())
/// ```
pub fn bot_by_name(spec: &str, seed: u64) -> Result<Box<dyn Bot + Send>, SpecError> {
    // The az bot's spec holds a path, so it has a reader of its own.
    if crate::AzSpec::is_az(spec) {
        return crate::AzSpec::parse(spec)?.bot(seed);
    }
    // So does a UGI engine's, which holds a command line.
    if crate::ugi::UgiSpec::is_ugi(spec) {
        return Ok(Box::new(crate::ugi::UgiSpec::parse(spec)?.bot(seed)));
    }
    Ok(BotSpec::parse(spec)?.bot(seed))
}

/// The kind of a bot: the first part of its spec.
///
/// ```
/// use agon_bots::BotKind;
/// assert_eq!(BotKind::AlphaBeta.name(), "alphabeta");
/// assert_eq!(BotKind::ALL.map(BotKind::name), ["random", "greedy", "mcts", "alphabeta", "engine"]);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum BotKind {
    /// [`RandomBot`]: `random`.
    Random,
    /// [`GreedyBot`]: `greedy`.
    Greedy,
    /// [`MctsBot`]: `mcts[:PLAYOUTS[:TIMEms]]`.
    Mcts,
    /// [`AlphaBetaBot`]: `alphabeta[:DEPTH[:TIMEms]]`.
    AlphaBeta,
    /// [`Engine`]: `engine[:PART]...`.
    Engine,
}

impl BotKind {
    /// Every kind, in the order of the crate's table of bots.
    pub const ALL: [BotKind; 5] = [
        BotKind::Random,
        BotKind::Greedy,
        BotKind::Mcts,
        BotKind::AlphaBeta,
        BotKind::Engine,
    ];

    /// The kind's name, the first part of its specs.
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Mcts => "mcts",
            BotKind::AlphaBeta => "alphabeta",
            BotKind::Engine => "engine",
        }
    }

    /// The kind named `name`, if any.
    ///
    /// ```
    /// use agon_bots::BotKind;
    /// assert_eq!(BotKind::from_name("mcts"), Some(BotKind::Mcts));
    /// assert_eq!(BotKind::from_name("minimax"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<BotKind> {
        BotKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The budget of the kind's spec (the number after its name): what it counts, its
    /// default and its largest value (the smallest is 1). `None` for the kinds without
    /// one: `random` and `greedy` take none, and the engine's limits are parts of their
    /// own ([`EngineOptions`]).
    ///
    /// ```
    /// use agon_bots::{AlphaBetaBot, BotKind, MctsBot, SpecNumber};
    /// assert_eq!(
    ///     BotKind::Mcts.budget(),
    ///     Some((SpecNumber::Playouts, MctsBot::DEFAULT_PLAYOUTS, u32::MAX))
    /// );
    /// assert_eq!(
    ///     BotKind::AlphaBeta.budget(),
    ///     Some((SpecNumber::Depth, AlphaBetaBot::DEFAULT_DEPTH, AlphaBetaBot::MAX_DEPTH))
    /// );
    /// assert_eq!(BotKind::Engine.budget(), None);
    /// ```
    pub const fn budget(self) -> Option<(SpecNumber, u32, u32)> {
        match self {
            BotKind::Mcts => Some((SpecNumber::Playouts, MctsBot::DEFAULT_PLAYOUTS, u32::MAX)),
            BotKind::AlphaBeta => Some((
                SpecNumber::Depth,
                AlphaBetaBot::DEFAULT_DEPTH,
                AlphaBetaBot::MAX_DEPTH,
            )),
            BotKind::Random | BotKind::Greedy | BotKind::Engine => None,
        }
    }

    /// Whether the kind's spec takes a time limit per move (every kind but `random` and
    /// `greedy`).
    ///
    /// ```
    /// assert!(agon_bots::BotKind::Engine.takes_time());
    /// assert!(!agon_bots::BotKind::Greedy.takes_time());
    /// ```
    pub const fn takes_time(self) -> bool {
        !matches!(self, BotKind::Random | BotKind::Greedy)
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The settings of an `engine` spec besides its time: a node budget (`nNODES`), a depth
/// (`dDEPTH`), threads (`tTHREADS`) and a table size (`hMIB`); see [`Engine::from_spec`].
///
/// ```
/// use agon_bots::{BotSpec, Engine, EngineOptions};
/// let spec = BotSpec::parse("engine:n5000:t2")?;
/// let options = spec.engine.unwrap();
/// assert_eq!((options.nodes, options.depth, options.threads), (Some(5000), None, 2));
/// assert_eq!(options.hash_mib, Engine::DEFAULT_HASH_MIB);
/// assert_eq!(EngineOptions::default().threads, 1);
/// # Ok::<(), agon_bots::SpecError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct EngineOptions {
    /// The node budget per move, 1 to `u64::MAX`.
    pub nodes: Option<u64>,
    /// The depth per move, 1 to [`Engine::MAX_DEPTH`].
    pub depth: Option<u32>,
    /// The search threads, 1 to [`Engine::MAX_THREADS`].
    pub threads: usize,
    /// The transposition table in MiB, 1 to [`Engine::MAX_HASH_MIB`].
    pub hash_mib: usize,
}

impl Default for EngineOptions {
    /// No node or depth limit, one thread, [`Engine::DEFAULT_HASH_MIB`].
    fn default() -> EngineOptions {
        EngineOptions {
            nodes: None,
            depth: None,
            threads: 1,
            hash_mib: Engine::DEFAULT_HASH_MIB,
        }
    }
}

/// A bot spec, read once: its [`kind`](BotSpec::kind), its budget (playouts or depth), its
/// time limit per move and, for the engine, its other settings. [`BotSpec::parse`] (or
/// `str::parse`) is the one reader of specs: [`bot_by_name`] and [`Engine::from_spec`]
/// call it, and the layers above ask the value rather than split the text. Its
/// [`Display`](fmt::Display) form is the [name](Bot::name) of the bot it builds.
///
/// ```
/// use std::time::Duration;
/// use agon_bots::{Bot, BotKind, BotSpec, MctsBot};
///
/// let spec: BotSpec = " mcts:500:250ms ".parse()?;
/// assert_eq!(spec.kind, BotKind::Mcts);
/// assert_eq!(spec.budget, Some(500));
/// assert_eq!(spec.time, Some(Duration::from_millis(250)));
/// assert_eq!(spec.to_string(), "mcts:500:250ms");
/// assert_eq!(spec.bot(7).name(), spec.to_string());
/// // An omitted budget is the kind's default.
/// assert_eq!(BotSpec::parse("mcts")?.budget, Some(MctsBot::DEFAULT_PLAYOUTS));
/// assert_eq!(BotSpec::parse("engine:n10")?.to_string(), "engine:n10");
/// assert!(BotSpec::parse("mcts:0").is_err());
/// # Ok::<(), agon_bots::SpecError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct BotSpec {
    /// Which bot.
    pub kind: BotKind,
    /// The playouts of `mcts` or the depth of `alphabeta`, as given or the kind's default
    /// ([`BotKind::budget`]); `None` for the other kinds.
    pub budget: Option<u32>,
    /// The time limit per move, if the spec sets one (`:500ms`; for the engine, its `ms`
    /// part). An engine spec with no time, node or depth part thinks
    /// [`Engine::DEFAULT_TIME`] per move.
    pub time: Option<Duration>,
    /// The engine's other settings; `None` for the other kinds.
    pub engine: Option<EngineOptions>,
}

impl BotSpec {
    /// The spec of a bot of `kind` with its defaults: no time limit, the kind's default
    /// budget, and for the engine [`EngineOptions::default`].
    ///
    /// ```
    /// use agon_bots::{bot_by_name, BotKind, BotSpec};
    /// for kind in BotKind::ALL {
    ///     assert_eq!(BotSpec::new(kind).to_string(), bot_by_name(kind.name(), 0)?.name());
    /// }
    /// # Ok::<(), agon_bots::SpecError>(())
    /// ```
    pub const fn new(kind: BotKind) -> BotSpec {
        BotSpec {
            kind,
            budget: match kind.budget() {
                Some((_, default, _)) => Some(default),
                None => None,
            },
            time: None,
            engine: match kind {
                BotKind::Engine => Some(EngineOptions {
                    nodes: None,
                    depth: None,
                    threads: 1,
                    hash_mib: Engine::DEFAULT_HASH_MIB,
                }),
                _ => None,
            },
        }
    }

    /// The same spec with the budget `budget` (for `mcts` and `alphabeta`; ignored by the
    /// other kinds). A bot built from it lowers a budget above its bounds as its
    /// constructor does.
    ///
    /// ```
    /// use agon_bots::{BotKind, BotSpec};
    /// assert_eq!(BotSpec::new(BotKind::Mcts).with_budget(64).to_string(), "mcts:64");
    /// ```
    #[must_use]
    pub const fn with_budget(self, budget: u32) -> BotSpec {
        BotSpec {
            budget: match self.budget {
                Some(_) => Some(budget),
                None => None,
            },
            ..self
        }
    }

    /// The same spec with a time limit per move (ignored by `random` and `greedy`).
    ///
    /// ```
    /// use std::time::Duration;
    /// use agon_bots::{BotKind, BotSpec};
    /// let t = Duration::from_millis(1500);
    /// assert_eq!(BotSpec::new(BotKind::AlphaBeta).with_budget(3).with_time(t).to_string(), "alphabeta:3:1500ms");
    /// assert_eq!(BotSpec::new(BotKind::Engine).with_time(t).to_string(), "engine:1500ms");
    /// assert_eq!(BotSpec::new(BotKind::Greedy).with_time(t).to_string(), "greedy");
    /// ```
    #[must_use]
    pub const fn with_time(self, time: Duration) -> BotSpec {
        BotSpec {
            time: if self.kind.takes_time() {
                Some(time)
            } else {
                None
            },
            ..self
        }
    }

    /// Reads a spec (see [`bot_by_name`] for its form and [`Engine::from_spec`] for the
    /// engine's parts). Spaces around it are ignored.
    ///
    /// # Errors
    ///
    /// The [`SpecError`]s of [`bot_by_name`]. Reading never panics, and reads at most
    /// [`MAX_SPEC_LEN`] bytes.
    ///
    /// ```
    /// use agon_bots::{BotKind, BotSpec, SpecError};
    /// assert_eq!(BotSpec::parse("alphabeta:9")?.budget, Some(9));
    /// assert_eq!(BotSpec::parse("engine:d6")?.engine.unwrap().depth, Some(6));
    /// assert!(matches!(BotSpec::parse("random:3"), Err(SpecError::ExtraPart { .. })));
    /// # Ok::<(), SpecError>(())
    /// ```
    pub fn parse(spec: &str) -> Result<BotSpec, SpecError> {
        if spec.len() > MAX_SPEC_LEN {
            return Err(SpecError::TooLong { len: spec.len() });
        }
        let trimmed = spec.trim();
        let mut parts = trimmed.split(':');
        let name = parts.next().unwrap_or("");
        let Some(kind) = BotKind::from_name(name) else {
            return Err(SpecError::UnknownBot {
                spec: spec.to_string(),
                name: name.to_string(),
            });
        };
        if kind == BotKind::Engine {
            return engine_spec(trimmed);
        }
        let extra = |part: &str| SpecError::ExtraPart {
            spec: spec.to_string(),
            part: part.to_string(),
        };
        let Some((what, default, max)) = kind.budget() else {
            return match parts.next() {
                Some(part) => Err(extra(part)),
                None => Ok(BotSpec::new(kind)),
            };
        };
        let budget = match parts.next() {
            // In range, so it fits a u32.
            Some(part) => number((spec, part), part, what, (1, u64::from(max)))? as u32,
            None => default,
        };
        let time = match parts.next() {
            Some(part) => Some(time_limit(spec, part)?),
            None => None,
        };
        if let Some(part) = parts.next() {
            return Err(extra(part));
        }
        Ok(BotSpec {
            kind,
            budget: Some(budget),
            time,
            engine: None,
        })
    }

    /// The bot of this spec, seeded with `seed` (see [`bot_by_name`]).
    ///
    /// ```
    /// use agon_bots::{Bot, BotSpec};
    /// let spec = BotSpec::parse("alphabeta:2")?;
    /// let pos = agon_core::Position::start();
    /// assert_eq!(spec.bot(3).choose(&pos), spec.bot(3).choose(&pos));
    /// # Ok::<(), agon_bots::SpecError>(())
    /// ```
    pub fn bot(&self, seed: u64) -> Box<dyn Bot + Send> {
        let budget = self.budget.unwrap_or(1);
        match self.kind {
            BotKind::Random => Box::new(RandomBot::new(seed)),
            BotKind::Greedy => Box::new(GreedyBot::new(seed)),
            BotKind::Mcts => {
                let bot = MctsBot::new(budget, seed);
                Box::new(match self.time {
                    Some(d) => bot.with_time_limit(d),
                    None => bot,
                })
            }
            BotKind::AlphaBeta => {
                let bot = AlphaBetaBot::new(budget, seed);
                Box::new(match self.time {
                    Some(d) => bot.with_time_limit(d),
                    None => bot,
                })
            }
            BotKind::Engine => Box::new(self.to_engine()),
        }
    }

    /// The engine of an `engine` spec (for another kind, the engine of the default spec
    /// with this spec's time limit).
    fn to_engine(self) -> Engine {
        let options = self.engine.unwrap_or_default();
        let limits = Limits {
            time: self.time,
            nodes: options.nodes,
            depth: options.depth,
        };
        Engine::new(limits)
            .with_threads(options.threads)
            .with_hash_mib(options.hash_mib)
    }
}

impl FromStr for BotSpec {
    type Err = SpecError;

    fn from_str(spec: &str) -> Result<BotSpec, SpecError> {
        BotSpec::parse(spec)
    }
}

/// The name of the bot the spec builds ([`Bot::name`]): the spec in its canonical form.
impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        match self.kind {
            BotKind::Random | BotKind::Greedy => Ok(()),
            BotKind::Engine => f.write_str(&self.to_engine().name()[self.kind.name().len()..]),
            BotKind::Mcts | BotKind::AlphaBeta => {
                write!(f, ":{}", self.budget.unwrap_or(1))?;
                match self.time {
                    Some(t) => write!(f, ":{}ms", t.min(crate::MAX_TIME_LIMIT).as_millis()),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Reads an engine spec: see [`Engine::from_spec`].
pub(crate) fn engine_from_spec(spec: &str) -> Result<Engine, SpecError> {
    engine_spec(spec).map(BotSpec::to_engine)
}

/// Reads the parts of an engine spec, `spec` as given (not trimmed).
fn engine_spec(spec: &str) -> Result<BotSpec, SpecError> {
    let mut parts = spec.split(':');
    if parts.next() != Some("engine") {
        return Err(SpecError::NotEngine {
            spec: spec.to_string(),
        });
    }
    let (mut time, mut nodes, mut depth, mut threads, mut hash) = (None, None, None, None, None);
    for part in parts {
        let at = (spec, part);
        let once = |set: bool| {
            if set {
                Err(SpecError::RepeatedPart {
                    spec: spec.to_string(),
                    part: part.to_string(),
                })
            } else {
                Ok(())
            }
        };
        if part.ends_with("ms") {
            once(time.is_some())?;
            time = Some(time_limit(spec, part)?);
        } else if let Some(n) = part.strip_prefix('n') {
            once(nodes.is_some())?;
            nodes = Some(number(at, n, SpecNumber::Nodes, (1, u64::MAX))?);
        } else if let Some(d) = part.strip_prefix('d') {
            once(depth.is_some())?;
            let range = (1, u64::from(Engine::MAX_DEPTH));
            depth = Some(number(at, d, SpecNumber::Depth, range)? as u32);
        } else if let Some(t) = part.strip_prefix('t') {
            once(threads.is_some())?;
            let range = (1, Engine::MAX_THREADS as u64);
            threads = Some(number(at, t, SpecNumber::Threads, range)? as usize);
        } else if let Some(h) = part.strip_prefix('h') {
            once(hash.is_some())?;
            let range = (1, Engine::MAX_HASH_MIB as u64);
            hash = Some(number(at, h, SpecNumber::HashMib, range)? as usize);
        } else {
            return Err(SpecError::UnknownPart {
                spec: spec.to_string(),
                part: part.to_string(),
            });
        }
    }
    Ok(BotSpec {
        kind: BotKind::Engine,
        budget: None,
        time,
        engine: Some(EngineOptions {
            nodes,
            depth,
            threads: threads.unwrap_or(1),
            hash_mib: hash.unwrap_or(Engine::DEFAULT_HASH_MIB),
        }),
    })
}
