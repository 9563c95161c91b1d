//! [`Outcome`]: how a game ended.

use core::fmt;
use core::str::FromStr;

use crate::{ParseError, ParseErrorKind, Side};

/// Why a game ended (RULES.md section 6).
///
/// ```
/// use agon_core::EndReason;
/// assert_eq!(EndReason::Throne.to_string(), "throne");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum EndReason {
    /// R10: a side's guards hold all of ring 1 while its own queen is on the throne; that
    /// side wins.
    Throne,
    /// R10: a side's guards hold all of ring 1 but its queen is not on the throne; that side
    /// loses (a draw under [`crate::EmptyThroneRing::Draw`]).
    RingWithoutQueen,
    /// R12: the side to move has no legal action and loses.
    NoLegalAction,
    /// R11: the same position occurred for the third time; a draw.
    Repetition,
    /// V7 (`stuck=pass`): both sides passed, one after the other; a draw.
    TwoPasses,
    /// V9: the game reached its rule set's move limit; a draw.
    MoveLimit,
}

impl EndReason {
    /// All reasons, in the order above: the one list every table of reasons follows.
    ///
    /// ```
    /// use agon_core::EndReason;
    /// let names: Vec<&str> = EndReason::ALL.iter().map(|r| r.name()).collect();
    /// assert_eq!(names, ["throne", "ring-without-queen", "no-legal-action", "repetition", "two-passes", "move-limit"]);
    /// ```
    pub const ALL: [EndReason; 6] = [
        EndReason::Throne,
        EndReason::RingWithoutQueen,
        EndReason::NoLegalAction,
        EndReason::Repetition,
        EndReason::TwoPasses,
        EndReason::MoveLimit,
    ];

    /// The number of reasons (the length of [`EndReason::ALL`]).
    pub const COUNT: usize = EndReason::ALL.len();

    /// The position of the reason in [`EndReason::ALL`].
    ///
    /// ```
    /// use agon_core::EndReason;
    /// assert!(EndReason::ALL.iter().enumerate().all(|(i, r)| r.index() == i));
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The reason named `name` (see [`EndReason::name`]).
    ///
    /// ```
    /// use agon_core::EndReason;
    /// assert_eq!(EndReason::from_name("move-limit"), Some(EndReason::MoveLimit));
    /// ```
    pub fn from_name(name: &str) -> Option<EndReason> {
        EndReason::ALL.into_iter().find(|r| r.name() == name)
    }

    /// A short lowercase name: `throne`, `ring-without-queen`, `no-legal-action`,
    /// `repetition`, `two-passes`, `move-limit`.
    ///
    /// ```
    /// use agon_core::EndReason;
    /// assert_eq!(EndReason::NoLegalAction.name(), "no-legal-action");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            EndReason::Throne => "throne",
            EndReason::RingWithoutQueen => "ring-without-queen",
            EndReason::NoLegalAction => "no-legal-action",
            EndReason::Repetition => "repetition",
            EndReason::TwoPasses => "two-passes",
            EndReason::MoveLimit => "move-limit",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The end of a game: the winner (none for a draw) and the reason.
///
/// ```
/// use agon_core::{EndReason, Outcome, Side};
/// let o = Outcome::win(Side::Black, EndReason::NoLegalAction);
/// assert_eq!(o.winner, Some(Side::Black));
/// assert_eq!(o.score(), "0-1");
/// assert_eq!(Outcome::draw().score(), "1/2-1/2");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win of `winner` for `reason`.
    ///
    /// ```
    /// use agon_core::{EndReason, Outcome, Side};
    /// assert_eq!(Outcome::win(Side::White, EndReason::Throne).winner, Some(Side::White));
    /// ```
    pub const fn win(winner: Side, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw by repetition, the only draw of the standard rules.
    ///
    /// ```
    /// use agon_core::{EndReason, Outcome};
    /// assert_eq!(Outcome::draw().reason, EndReason::Repetition);
    /// ```
    pub const fn draw() -> Outcome {
        Outcome::drawn(EndReason::Repetition)
    }

    /// A draw for `reason` (other rule sets draw for other reasons than repetition).
    ///
    /// ```
    /// use agon_core::{EndReason, Outcome};
    /// assert_eq!(Outcome::drawn(EndReason::MoveLimit).score(), "1/2-1/2");
    /// ```
    pub const fn drawn(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The result as game records write it: `1-0`, `0-1` or `1/2-1/2`.
    ///
    /// ```
    /// use agon_core::{EndReason, Outcome, Side};
    /// assert_eq!(Outcome::win(Side::White, EndReason::Throne).score(), "1-0");
    /// ```
    pub const fn score(self) -> &'static str {
        Score::from_outcome(Some(self)).as_str()
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}

/// A game's result as records write it: the score of an [`Outcome`], or `*` while the
/// game goes on. The one home of the result strings.
///
/// ```
/// use agon_core::Score;
/// assert_eq!(Score::Draw.to_string(), "1/2-1/2");
/// assert_eq!("0-1".parse::<Score>(), Ok(Score::BlackWins));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Score {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: the game goes on, or its end is unknown.
    Unfinished,
}

impl Score {
    /// The score of an outcome.
    ///
    /// ```
    /// use agon_core::{Outcome, Score};
    /// assert_eq!(Score::from_outcome(Some(Outcome::draw())), Score::Draw);
    /// assert_eq!(Score::from_outcome(None), Score::Unfinished);
    /// ```
    pub const fn from_outcome(outcome: Option<Outcome>) -> Score {
        match outcome {
            Some(Outcome {
                winner: Some(Side::White),
                ..
            }) => Score::WhiteWins,
            Some(Outcome {
                winner: Some(Side::Black),
                ..
            }) => Score::BlackWins,
            Some(Outcome { winner: None, .. }) => Score::Draw,
            None => Score::Unfinished,
        }
    }

    /// The text of the score.
    ///
    /// ```
    /// use agon_core::Score;
    /// assert_eq!(Score::Unfinished.as_str(), "*");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Score::WhiteWins => "1-0",
            Score::BlackWins => "0-1",
            Score::Draw => "1/2-1/2",
            Score::Unfinished => "*",
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Score {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Score, ParseError> {
        [
            Score::WhiteWins,
            Score::BlackWins,
            Score::Draw,
            Score::Unfinished,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
        .ok_or(ParseError::new(
            0,
            ParseErrorKind::Expected("1-0, 0-1, 1/2-1/2 or *"),
        ))
    }
}
