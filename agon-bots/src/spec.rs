//! Bot specs: [`bot_by_name`], the engine's spec ([`Engine::from_spec`]) and their
//! errors ([`SpecError`]).

use std::fmt;
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
    /// An engine part of a kind that an earlier part already set (`engine:d5:d6`).
    RepeatedPart {
        /// The spec.
        spec: String,
        /// The second part of the kind.
        part: String,
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
            SpecError::UnknownPart { spec, part } => write!(
                f,
                "bad part {part:?} in bot {spec:?}: expected like 100ms, n50000, d8, t2 or h64"
            ),
            SpecError::RepeatedPart { spec, part } => {
                write!(f, "repeated part {part:?} in bot {spec:?}")
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

/// Builds a reference bot from its spec: `random`, `greedy`, `mcts:PLAYOUTS` or
/// `alphabeta:DEPTH` (`mcts` alone means 2000 playouts, `alphabeta` alone depth 5), or the
/// [`Engine`] from an `engine` spec (read by [`Engine::from_spec`]: `engine:100ms`). A
/// time limit in milliseconds may follow for the searching bots: `mcts:100000:500ms`,
/// `alphabeta:20:1000ms`; the bot then stops at whichever limit comes first, and is no
/// longer deterministic. Spaces around the spec are ignored. `seed` draws the random bot's
/// moves, the greedy and alpha-beta bots' choices between equal moves and MCTS's playouts;
/// the engine has no random choice, so it plays the same whatever the seed.
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
    if spec.len() > MAX_SPEC_LEN {
        return Err(SpecError::TooLong { len: spec.len() });
    }
    let mut parts = spec.trim().split(':');
    let kind = parts.next().unwrap_or("");
    let budget = match kind {
        "engine" => return Ok(Box::new(Engine::from_spec(spec.trim())?)),
        "random" | "greedy" => None,
        "mcts" => Some((
            SpecNumber::Playouts,
            MctsBot::DEFAULT_PLAYOUTS,
            u64::from(u32::MAX),
        )),
        "alphabeta" => Some((
            SpecNumber::Depth,
            AlphaBetaBot::DEFAULT_DEPTH,
            u64::from(AlphaBetaBot::MAX_DEPTH),
        )),
        _ => {
            return Err(SpecError::UnknownBot {
                spec: spec.to_string(),
                name: kind.to_string(),
            })
        }
    };
    let extra = |part: &str| SpecError::ExtraPart {
        spec: spec.to_string(),
        part: part.to_string(),
    };
    let Some((what, default, max)) = budget else {
        return match parts.next() {
            Some(part) => Err(extra(part)),
            None if kind == "random" => Ok(Box::new(RandomBot::new(seed))),
            None => Ok(Box::new(GreedyBot::new(seed))),
        };
    };
    let budget = match parts.next() {
        // In range, so it fits a u32.
        Some(part) => number((spec, part), part, what, (1, max))? as u32,
        None => default,
    };
    let time = match parts.next() {
        Some(part) => Some(time_limit(spec, part)?),
        None => None,
    };
    if let Some(part) = parts.next() {
        return Err(extra(part));
    }
    if kind == "mcts" {
        let bot = MctsBot::new(budget, seed);
        Ok(Box::new(match time {
            Some(d) => bot.with_time_limit(d),
            None => bot,
        }))
    } else {
        let bot = AlphaBetaBot::new(budget, seed);
        Ok(Box::new(match time {
            Some(d) => bot.with_time_limit(d),
            None => bot,
        }))
    }
}

/// Reads an engine spec: see [`Engine::from_spec`].
pub(crate) fn engine_from_spec(spec: &str) -> Result<Engine, SpecError> {
    let mut parts = spec.split(':');
    if parts.next() != Some("engine") {
        return Err(SpecError::NotEngine {
            spec: spec.to_string(),
        });
    }
    let mut limits = Limits::default();
    let (mut threads, mut hash) = (None, None);
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
            once(limits.time.is_some())?;
            limits.time = Some(time_limit(spec, part)?);
        } else if let Some(n) = part.strip_prefix('n') {
            once(limits.nodes.is_some())?;
            limits.nodes = Some(number(at, n, SpecNumber::Nodes, (1, u64::MAX))?);
        } else if let Some(d) = part.strip_prefix('d') {
            once(limits.depth.is_some())?;
            let range = (1, u64::from(Engine::MAX_DEPTH));
            limits.depth = Some(number(at, d, SpecNumber::Depth, range)? as u32);
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
    Ok(Engine::new(limits)
        .with_threads(threads.unwrap_or(1))
        .with_hash_mib(hash.unwrap_or(Engine::DEFAULT_HASH_MIB)))
}
