//! What an analysis returns: [`Analysis`], [`Line`], [`Evaluation`], [`AnalysisError`], and
//! what can be analysed ([`Analysable`]). The search fills them in ([`Analysis::from_report`]);
//! the engine's [`analyse`](super::analyse) and [`Engine::analyse`](super::Engine::analyse)
//! return them. This module knows the search's report, not the engine.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::time::Duration;

use agon_core::{Game, Move, Outcome, Position, Side};

use super::search::Report;
use crate::search_core::{WIN, WIN_BOUND};

/// The engine's evaluation of a position, for the side to move (named apart from
/// [`agon_core::Score`], a game's result such as `1-0`; it was `agon_bots::Score`, still
/// there as a deprecated alias for one release).
///
/// Evaluations are in **centipoints** for the side to move: the unit in which the evaluation's
/// weights were fitted to game results, where a score `s` predicts an expected result of
/// `1 / (1 + 10^(-s / 400))` (about 0.64 for +1.00, 0.91 for +4.00). They are shown with
/// two decimals, `+1.23`. A forced result found by the search is shown as `win in N` or
/// `loss in N`: the side that wins completes its throne ring (R10) or leaves the other
/// without an action (R12) with its N-th move from now.
///
/// Ordered from worst to best: losses (later is better), then points, then wins (sooner is
/// better).
///
/// ```
/// use agon_bots::Evaluation;
/// assert_eq!(Evaluation::Points(123).to_string(), "+1.23");
/// assert_eq!(Evaluation::Points(-5).to_string(), "-0.05");
/// assert_eq!(Evaluation::Points(0).to_string(), "0.00");
/// assert_eq!(Evaluation::Win(3).to_string(), "win in 3");
/// assert_eq!(Evaluation::Loss(1).to_string(), "loss in 1");
/// assert!(Evaluation::Win(1) > Evaluation::Win(2));
/// assert!(Evaluation::Win(9) > Evaluation::Points(5000));
/// assert!(Evaluation::Loss(1) < Evaluation::Loss(2));
/// assert!(Evaluation::Loss(9) < Evaluation::Points(-5000));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Evaluation {
    /// An evaluation in centipoints (see [`Evaluation`]).
    Points(i32),
    /// The side to move wins with its N-th move (R10 or R12), whatever the opponent does.
    Win(u32),
    /// The opponent wins with its N-th move, whatever the side to move does.
    Loss(u32),
}

/// The former name of [`Evaluation`], which collided with [`agon_core::Score`] (a game's
/// result such as `1-0`).
///
/// ```
/// #[allow(deprecated)]
/// let score: agon_bots::Score = agon_bots::Evaluation::Win(1);
/// assert_eq!(score.to_string(), "win in 1");
/// ```
#[deprecated(
    since = "0.1.0",
    note = "renamed `Evaluation`: `agon_core::Score` is a game's result"
)]
pub type Score = Evaluation;

impl Evaluation {
    /// The score of the search's internal value.
    pub(crate) fn from_internal(score: i32) -> Evaluation {
        if score >= WIN_BOUND {
            Evaluation::Win(((WIN - score) as u32).div_ceil(2).max(1))
        } else if score <= -WIN_BOUND {
            Evaluation::Loss(((WIN + score) as u32).div_ceil(2).max(1))
        } else {
            Evaluation::Points(score)
        }
    }

    /// A number that orders scores: centipoints, or ±(1 000 000 - N) for a win or loss.
    ///
    /// ```
    /// use agon_bots::Evaluation;
    /// assert_eq!(Evaluation::Win(2).rank(), 999_998);
    /// assert_eq!(Evaluation::Loss(2).rank(), -999_998);
    /// assert_eq!(Evaluation::Points(-40).rank(), -40);
    /// ```
    pub fn rank(self) -> i64 {
        match self {
            Evaluation::Points(p) => i64::from(p),
            Evaluation::Win(n) => 1_000_000 - i64::from(n),
            Evaluation::Loss(n) => -1_000_000 + i64::from(n),
        }
    }

    /// The score from the other side's point of view (a win becomes a loss).
    ///
    /// ```
    /// use agon_bots::Evaluation;
    /// assert_eq!(Evaluation::Win(2).negate(), Evaluation::Loss(2));
    /// assert_eq!(Evaluation::Points(7).negate(), Evaluation::Points(-7));
    /// ```
    #[must_use]
    pub fn negate(self) -> Evaluation {
        match self {
            Evaluation::Points(p) => Evaluation::Points(-p),
            Evaluation::Win(n) => Evaluation::Loss(n),
            Evaluation::Loss(n) => Evaluation::Win(n),
        }
    }
}

impl Evaluation {
    /// The expected result of the side the evaluation is for, from 0 (a loss) to 1 (a win):
    /// `1 / (1 + 10^(-s / 400))` for `s` centipoints (the scale the evaluation's weights
    /// were fitted on), 1 for a forced win and 0 for a forced loss.
    ///
    /// ```
    /// use agon_bots::Evaluation;
    /// assert_eq!(Evaluation::Points(0).expected_score(), 0.5);
    /// assert!((Evaluation::Points(400).expected_score() - 10.0 / 11.0).abs() < 1e-12);
    /// assert_eq!(Evaluation::Win(7).expected_score(), 1.0);
    /// assert_eq!(Evaluation::Loss(1).expected_score(), 0.0);
    /// ```
    pub fn expected_score(self) -> f64 {
        match self {
            Evaluation::Points(p) => crate::expected_score(f64::from(p)),
            Evaluation::Win(_) => 1.0,
            Evaluation::Loss(_) => 0.0,
        }
    }
}

impl PartialOrd for Evaluation {
    fn partial_cmp(&self, other: &Evaluation) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Evaluation {
    fn cmp(&self, other: &Evaluation) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Evaluation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Evaluation::Points(0) => f.write_str("0.00"),
            Evaluation::Points(p) => {
                let sign = if p < 0 { '-' } else { '+' };
                let a = p.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Evaluation::Win(n) => write!(f, "win in {n}"),
            Evaluation::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

/// One line of an analysis: its score and principal variation (the first move is the
/// move the line is about; the rest is the expected continuation, possibly short).
///
/// ```
/// use agon_bots::{analyse, Limits};
/// let a = analyse(&agon_core::Position::start(), Limits::depth(2), 1)?;
/// assert!(!a.lines[0].pv.is_empty());
/// # Ok::<(), agon_bots::AnalysisError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    /// The score of the line for the player to act (see [`Analysis::side`]).
    pub score: Evaluation,
    /// The moves of the line, from the analysed position.
    pub pv: Vec<Move>,
}

/// The result of an analysis: lines best first (at least one), and statistics.
///
/// ```
/// use agon_bots::{analyse, Limits};
/// let a = analyse(&agon_core::Game::new(), Limits::nodes(2_000), 1)?;
/// assert!(a.nodes >= 1 && a.depth >= 1);
/// assert!(a.to_string().starts_with("depth "));
/// # Ok::<(), agon_bots::AnalysisError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Analysis {
    /// The lines, best first; the first is the engine's choice.
    pub lines: Vec<Line>,
    /// The deepest iteration completed, in plies (0 if none finished).
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Positions visited, on all threads.
    pub nodes: u64,
    /// How long the search took.
    pub time: Duration,
    /// How full the transposition table is with this search's entries, in permille.
    pub hashfull: u32,
    /// The player to act in the analysed position (its chooser, [`Position::chooser`]:
    /// the side to move but for a queen placed by her captor), for whom scores are given.
    pub side: Side,
}

impl Analysis {
    pub(crate) fn from_report(report: Report, side: Side) -> Analysis {
        Analysis {
            lines: report
                .lines
                .into_iter()
                .map(|l| Line {
                    score: Evaluation::from_internal(l.score),
                    pv: l.pv,
                })
                .collect(),
            depth: report.depth,
            seldepth: report.seldepth,
            nodes: report.nodes,
            time: report.elapsed,
            hashfull: report.hashfull,
            side,
        }
    }

    /// The best move found.
    ///
    /// ```
    /// use agon_bots::{analyse, Limits};
    /// let a = analyse(&agon_core::Position::start(), Limits::depth(1), 1)?;
    /// assert_eq!(a.best_move(), a.lines[0].pv[0]);
    /// # Ok::<(), agon_bots::AnalysisError>(())
    /// ```
    pub fn best_move(&self) -> Move {
        self.lines[0].pv[0]
    }

    /// The score of the best line, for the side to move.
    ///
    /// ```
    /// use agon_bots::{analyse, Limits};
    /// let a = analyse(&agon_core::Position::start(), Limits::depth(1), 1)?;
    /// assert_eq!(a.score(), a.lines[0].score);
    /// # Ok::<(), agon_bots::AnalysisError>(())
    /// ```
    pub fn score(&self) -> Evaluation {
        self.lines[0].score
    }

    /// The principal variation of the best line.
    ///
    /// ```
    /// use agon_bots::{analyse, Limits};
    /// let a = analyse(&agon_core::Position::start(), Limits::depth(3), 1)?;
    /// assert_eq!(a.pv()[0], a.best_move());
    /// # Ok::<(), agon_bots::AnalysisError>(())
    /// ```
    pub fn pv(&self) -> &[Move] {
        &self.lines[0].pv
    }

    /// Nodes per second (0 for a search too short to time).
    ///
    /// ```
    /// use agon_bots::{analyse, Limits};
    /// let a = analyse(&agon_core::Position::start(), Limits::nodes(5_000), 1)?;
    /// let _ = a.nps();
    /// # Ok::<(), agon_bots::AnalysisError>(())
    /// ```
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros();
        if micros == 0 {
            return 0;
        }
        (u128::from(self.nodes) * 1_000_000 / micros).min(u128::from(u64::MAX)) as u64
    }
}

/// One line per principal variation, like a UCI `info` line: `depth D seldepth S
/// multipv K score SCORE nodes N nps R time MS pv MOVES`.
impl fmt::Display for Analysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, line) in self.lines.iter().enumerate() {
            if k > 0 {
                writeln!(f)?;
            }
            write!(
                f,
                "depth {} seldepth {} multipv {} score {} nodes {} nps {} time {} pv",
                self.depth,
                self.seldepth,
                k + 1,
                line.score,
                self.nodes,
                self.nps(),
                self.time.as_millis()
            )?;
            for m in &line.pv {
                write!(f, " {m}")?;
            }
        }
        Ok(())
    }
}

/// Why an analysis was refused.
///
/// ```
/// use agon_bots::{analyse, AnalysisError, Limits};
/// use agon_core::Position;
/// let err = analyse(&Position::start(), Limits::default(), 1).unwrap_err();
/// assert_eq!(err, AnalysisError::Unbounded);
/// assert_eq!(err.to_string(), "the analysis has no time, node or depth limit");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum AnalysisError {
    /// The game is over: there is nothing to choose.
    GameOver(Outcome),
    /// No limit was set, so the search would not end.
    Unbounded,
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::GameOver(o) => write!(f, "the game is over ({o})"),
            AnalysisError::Unbounded => {
                f.write_str("the analysis has no time, node or depth limit")
            }
        }
    }
}

impl std::error::Error for AnalysisError {}

/// What can be analysed: a [`Game`] (whose history counts for repetition) or a lone
/// [`Position`] (a game starting there).
///
/// ```
/// use agon_bots::Analysable;
/// use agon_core::{Game, Position};
/// assert_eq!(Position::start().to_game().moves().len(), 0);
/// assert_eq!(*Game::new().to_game().position(), Position::start());
/// ```
pub trait Analysable {
    /// The game to analyse the current position of.
    fn to_game(&self) -> Cow<'_, Game>;
}

impl Analysable for Game {
    fn to_game(&self) -> Cow<'_, Game> {
        Cow::Borrowed(self)
    }
}

impl Analysable for Position {
    fn to_game(&self) -> Cow<'_, Game> {
        Cow::Owned(Game::from_position(*self))
    }
}
