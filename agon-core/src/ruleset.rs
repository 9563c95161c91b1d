//! [`Rules`]: the rule set a game is played under (RULES.md section 8), its options and
//! their one text form.
//!
//! Sources disagree on several points of Agon, so a rule set picks one value for each
//! option; the first value of each is the standard rules (R1-R12). What each value does
//! is implemented where the rule lives (`rules.rs` for positions, `game.rs` for
//! repetition, passes and the move limit); this module only names them.
//!
//! # Text form
//!
//! ```text
//! rules    = preset *("+" option "=" value)   ; ludii+capture=same-ring
//! preset   = "standard" / "ludii"
//! option   = "capture" / "between" / "guard-return" / "queen-return" / "queen-placer"
//!          / "empty-throne-ring" / "stuck" / "repetition" / "limit"
//! value    = the option's value name, or for limit: "none" / 1*digit (1 to 100000)
//! ```
//!
//! Each option may appear once. [`Rules`] prints the canonical form: the preset the rule
//! set differs least from (standard on a tie), then the options that differ from it, in
//! the order above.

use core::fmt;
use core::str::FromStr;

use crate::notation::Reader;
use crate::{ParseError, ParseErrorKind};

/// Defines one option of the rule set: an enum of its values with their text names.
macro_rules! rule_option {
    (
        $(#[$doc:meta])*
        $name:ident, $text:literal, $shift:literal, $bits:literal {
            $($(#[$vdoc:meta])* $variant:ident = $vtext:literal,)+
        }
    ) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
        #[repr(u8)]
        pub enum $name {
            #[default]
            $($(#[$vdoc])* $variant,)+
        }

        impl $name {
            /// Every value, the standard one first.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// The option's name in the text form of [`Rules`].
            pub const OPTION: &'static str = $text;

            /// The value's name in the text form of [`Rules`].
            pub const fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $vtext,)+
                }
            }

            /// The value named `text`, if any.
            pub fn from_name(text: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.name() == text)
            }

            #[inline(always)]
            const fn from_bits(bits: u32) -> $name {
                // The values are numbered 0.. in `ALL` order; the builders store no other.
                let i = ((bits >> $shift) & ((1 << $bits) - 1)) as usize;
                if i < $name::ALL.len() {
                    $name::ALL[i]
                } else {
                    $name::ALL[0]
                }
            }

            const fn into_bits(self, bits: u32) -> u32 {
                (bits & !(((1 << $bits) - 1) << $shift)) | ((self as u32) << $shift)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.name())
            }
        }
    };
}

rule_option! {
    /// V1: which lines capture (R5).
    ///
    /// ```
    /// use agon_core::Capture;
    /// assert_eq!(Capture::SameRing.name(), "same-ring");
    /// assert_eq!(Capture::from_name("any"), Some(Capture::Any));
    /// ```
    Capture, "capture", 0, 1 {
        /// R5: a line in any of the six directions captures.
        Any = "any",
        /// Only a line whose three cells lie in one ring captures.
        SameRing = "same-ring",
    }
}

rule_option! {
    /// V2: stepping to a cell between two enemy pieces (R4).
    ///
    /// ```
    /// use agon_core::Between;
    /// assert_eq!(Between::ALL.len(), 3);
    /// ```
    Between, "between", 1, 2 {
        /// R4: such a step is forbidden.
        Forbidden = "forbidden",
        /// Such a step is allowed and nothing happens to the piece.
        Allowed = "allowed",
        /// Such a step is allowed, and the piece is captured by it unless it captures.
        Trapped = "trapped",
    }
}

rule_option! {
    /// V3: where a captured guard returns (R8).
    ///
    /// ```
    /// use agon_core::GuardReturn;
    /// assert_eq!(GuardReturn::default(), GuardReturn::Outer);
    /// ```
    GuardReturn, "guard-return", 3, 1 {
        /// R8: any empty cell of the outer ring.
        Outer = "outer",
        /// An empty cell of the ring just outside the one it stands captured on (or the
        /// nearest ring farther out with an empty cell).
        NextRing = "next-ring",
    }
}

rule_option! {
    /// V4: where a captured queen returns (R8).
    ///
    /// ```
    /// use agon_core::QueenReturn;
    /// assert_eq!(QueenReturn::NotThrone.name(), "not-throne");
    /// ```
    QueenReturn, "queen-return", 4, 1 {
        /// R8: any empty cell, the throne included.
        Any = "any",
        /// Any empty cell but the throne.
        NotThrone = "not-throne",
    }
}

rule_option! {
    /// V5: who chooses the cell a captured queen returns to (R8).
    ///
    /// ```
    /// use agon_core::QueenPlacer;
    /// assert_eq!(QueenPlacer::Captor.name(), "captor");
    /// ```
    QueenPlacer, "queen-placer", 5, 1 {
        /// R8: her owner.
        Owner = "owner",
        /// Her owner's opponent, on the owner's turn.
        Captor = "captor",
    }
}

rule_option! {
    /// V6: a side's guards complete the throne ring without its queen on the throne (R10).
    ///
    /// ```
    /// use agon_core::EmptyThroneRing;
    /// assert_eq!(EmptyThroneRing::Draw.name(), "draw");
    /// ```
    EmptyThroneRing, "empty-throne-ring", 6, 1 {
        /// R10: that side loses.
        Loses = "loses",
        /// The game is drawn.
        Draw = "draw",
    }
}

rule_option! {
    /// V7: the side to move has no legal action (R12).
    ///
    /// ```
    /// use agon_core::Stuck;
    /// assert_eq!(Stuck::Pass.name(), "pass");
    /// ```
    Stuck, "stuck", 7, 1 {
        /// R12: it loses.
        Loses = "loses",
        /// It passes; two passes in a row draw.
        Pass = "pass",
    }
}

rule_option! {
    /// V8: the draw by repetition (R11).
    ///
    /// ```
    /// use agon_core::Repetition;
    /// assert_eq!(Repetition::Off.name(), "off");
    /// ```
    Repetition, "repetition", 8, 1 {
        /// R11: the third occurrence of a position draws.
        Third = "third",
        /// No draw by repetition.
        Off = "off",
    }
}

/// The bit of the packed rules where the move limit starts (17 bits; 0 means none).
const LIMIT_SHIFT: u32 = 9;
/// The option name of the move limit (V9) in the text form.
const LIMIT_OPTION: &str = "limit";

/// A rule set: one value for each option of RULES.md section 8. A 4-byte `Copy` value;
/// [`Rules::STANDARD`] (R1-R12) is the default everywhere.
///
/// Every [`crate::Position`] carries its rule set, so legal moves, captures, returns and
/// outcomes follow it, and a [`crate::Game`] adds the options that belong to a game
/// (repetition, the two-pass draw, the move limit). Any combination of values is a valid
/// rule set; [`Rules::LUDII`] names the one of Ludii 1.3.
///
/// The text form is a preset, then the options that differ from it:
///
/// ```text
/// rules    = preset *("+" option "=" value)   ; ludii+capture=same-ring
/// preset   = "standard" / "ludii"
/// option   = "capture" / "between" / "guard-return" / "queen-return" / "queen-placer"
///          / "empty-throne-ring" / "stuck" / "repetition" / "limit"
/// value    = the option's value name, or for limit: "none" / 1*digit (1 to 100000)
/// ```
///
/// Each option may appear once. `Display` prints the canonical form: the preset the rule
/// set differs least from (standard on a tie), then the options that differ from it, in
/// the order above.
///
/// ```
/// use agon_core::{Capture, Rules, Stuck};
///
/// assert_eq!(Rules::default(), Rules::STANDARD);
/// assert_eq!(Rules::LUDII.stuck(), Stuck::Pass);
/// assert_eq!(Rules::LUDII.limit(), Some(2500));
///
/// let rules = Rules::STANDARD.with_capture(Capture::SameRing);
/// assert_eq!(rules.to_string(), "standard+capture=same-ring");
/// assert_eq!("standard+capture=same-ring".parse::<Rules>()?, rules);
/// assert_eq!("ludii".parse::<Rules>()?, Rules::LUDII);
/// # Ok::<(), agon_core::ParseError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Rules(u32);

impl Rules {
    /// The standard rules, R1-R12: every option at its first value.
    pub const STANDARD: Rules = Rules(0);

    /// The Agon of Ludii 1.3 (Agon.lud): a side without a legal action passes and two
    /// passes in a row draw, no draw by repetition, a draw after 2,500 actions.
    ///
    /// ```
    /// use agon_core::{Repetition, Rules};
    /// assert_eq!(Rules::LUDII.repetition(), Repetition::Off);
    /// ```
    pub const LUDII: Rules = {
        let r = Rules::STANDARD
            .with_stuck(Stuck::Pass)
            .with_repetition(Repetition::Off);
        Rules(r.0 | (2500 << LIMIT_SHIFT))
    };

    /// The presets with their names, as the text form writes them.
    ///
    /// ```
    /// use agon_core::Rules;
    /// assert_eq!(Rules::PRESETS[1], ("ludii", Rules::LUDII));
    /// ```
    pub const PRESETS: [(&'static str, Rules); 2] =
        [("standard", Rules::STANDARD), ("ludii", Rules::LUDII)];

    /// The largest move limit (V9), in plies.
    ///
    /// ```
    /// use agon_core::Rules;
    /// assert!(Rules::STANDARD.with_limit(Rules::MAX_LIMIT).is_some());
    /// assert!(Rules::STANDARD.with_limit(Rules::MAX_LIMIT + 1).is_none());
    /// ```
    pub const MAX_LIMIT: u32 = 100_000;

    /// The option names of the text form, in the order it writes them.
    ///
    /// ```
    /// assert_eq!(agon_core::Rules::OPTIONS.len(), 9);
    /// ```
    pub const OPTIONS: [&'static str; 9] = [
        Capture::OPTION,
        Between::OPTION,
        GuardReturn::OPTION,
        QueenReturn::OPTION,
        QueenPlacer::OPTION,
        EmptyThroneRing::OPTION,
        Stuck::OPTION,
        Repetition::OPTION,
        LIMIT_OPTION,
    ];

    /// V1: which lines capture.
    ///
    /// ```
    /// use agon_core::{Capture, Rules};
    /// assert_eq!(Rules::STANDARD.capture(), Capture::Any);
    /// ```
    #[inline]
    pub const fn capture(self) -> Capture {
        Capture::from_bits(self.0)
    }

    /// V2: stepping between two enemy pieces.
    ///
    /// ```
    /// use agon_core::{Between, Rules};
    /// assert_eq!(Rules::STANDARD.between(), Between::Forbidden);
    /// ```
    #[inline]
    pub const fn between(self) -> Between {
        Between::from_bits(self.0)
    }

    /// V3: where a captured guard returns.
    ///
    /// ```
    /// use agon_core::{GuardReturn, Rules};
    /// assert_eq!(Rules::STANDARD.guard_return(), GuardReturn::Outer);
    /// ```
    #[inline]
    pub const fn guard_return(self) -> GuardReturn {
        GuardReturn::from_bits(self.0)
    }

    /// V4: where a captured queen returns.
    ///
    /// ```
    /// use agon_core::{QueenReturn, Rules};
    /// assert_eq!(Rules::STANDARD.queen_return(), QueenReturn::Any);
    /// ```
    #[inline]
    pub const fn queen_return(self) -> QueenReturn {
        QueenReturn::from_bits(self.0)
    }

    /// V5: who places a returning queen.
    ///
    /// ```
    /// use agon_core::{QueenPlacer, Rules};
    /// assert_eq!(Rules::STANDARD.queen_placer(), QueenPlacer::Owner);
    /// ```
    #[inline]
    pub const fn queen_placer(self) -> QueenPlacer {
        QueenPlacer::from_bits(self.0)
    }

    /// V6: the throne ring completed without the side's queen on the throne.
    ///
    /// ```
    /// use agon_core::{EmptyThroneRing, Rules};
    /// assert_eq!(Rules::STANDARD.empty_throne_ring(), EmptyThroneRing::Loses);
    /// ```
    #[inline]
    pub const fn empty_throne_ring(self) -> EmptyThroneRing {
        EmptyThroneRing::from_bits(self.0)
    }

    /// V7: a side without a legal action.
    ///
    /// ```
    /// use agon_core::{Rules, Stuck};
    /// assert_eq!(Rules::STANDARD.stuck(), Stuck::Loses);
    /// ```
    #[inline]
    pub const fn stuck(self) -> Stuck {
        Stuck::from_bits(self.0)
    }

    /// V8: the draw by repetition.
    ///
    /// ```
    /// use agon_core::{Repetition, Rules};
    /// assert_eq!(Rules::STANDARD.repetition(), Repetition::Third);
    /// ```
    #[inline]
    pub const fn repetition(self) -> Repetition {
        Repetition::from_bits(self.0)
    }

    /// V9: the number of actions after which the game is drawn, if any.
    ///
    /// ```
    /// use agon_core::Rules;
    /// assert_eq!(Rules::STANDARD.limit(), None);
    /// ```
    #[inline]
    pub const fn limit(self) -> Option<u32> {
        match self.0 >> LIMIT_SHIFT {
            0 => None,
            n => Some(n),
        }
    }

    /// The same rules with V1 set to `value`.
    ///
    /// ```
    /// use agon_core::{Capture, Rules};
    /// assert_eq!(Rules::STANDARD.with_capture(Capture::SameRing).capture(), Capture::SameRing);
    /// ```
    #[must_use]
    pub const fn with_capture(self, value: Capture) -> Rules {
        Rules(value.into_bits(self.0))
    }

    /// The same rules with V2 set to `value`.
    ///
    /// ```
    /// use agon_core::{Between, Rules};
    /// assert_eq!(Rules::STANDARD.with_between(Between::Trapped).between(), Between::Trapped);
    /// ```
    #[must_use]
    pub const fn with_between(self, value: Between) -> Rules {
        Rules(value.into_bits(self.0))
    }

    /// The same rules with V3 set to `value`.
    ///
    /// ```
    /// use agon_core::{GuardReturn, Rules};
    /// let r = Rules::STANDARD.with_guard_return(GuardReturn::NextRing);
    /// assert_eq!(r.guard_return(), GuardReturn::NextRing);
    /// ```
    #[must_use]
    pub const fn with_guard_return(self, value: GuardReturn) -> Rules {
        Rules(value.into_bits(self.0))
    }

    /// The same rules with V4 set to `value`.
    ///
    /// ```
    /// use agon_core::{QueenReturn, Rules};
    /// let r = Rules::STANDARD.with_queen_return(QueenReturn::NotThrone);
    /// assert_eq!(r.queen_return(), QueenReturn::NotThrone);
    /// ```
    #[must_use]
    pub const fn with_queen_return(self, value: QueenReturn) -> Rules {
        Rules(value.into_bits(self.0))
    }

    /// The same rules with V5 set to `value`.
    ///
    /// ```
    /// use agon_core::{QueenPlacer, Rules};
    /// let r = Rules::STANDARD.with_queen_placer(QueenPlacer::Captor);
    /// assert_eq!(r.queen_placer(), QueenPlacer::Captor);
    /// ```
    #[must_use]
    pub const fn with_queen_placer(self, value: QueenPlacer) -> Rules {
        Rules(value.into_bits(self.0))
    }

    /// The same rules with V6 set to `value`.
    ///
    /// ```
    /// use agon_core::{EmptyThroneRing, Rules};
    /// let r = Rules::STANDARD.with_empty_throne_ring(EmptyThroneRing::Draw);
    /// assert_eq!(r.empty_throne_ring(), EmptyThroneRing::Draw);
    /// ```
    #[must_use]
    pub const fn with_empty_throne_ring(self, value: EmptyThroneRing) -> Rules {
        Rules(value.into_bits(self.0))
    }

    /// The same rules with V7 set to `value`.
    ///
    /// ```
    /// use agon_core::{Rules, Stuck};
    /// assert_eq!(Rules::STANDARD.with_stuck(Stuck::Pass).stuck(), Stuck::Pass);
    /// ```
    #[must_use]
    pub const fn with_stuck(self, value: Stuck) -> Rules {
        Rules(value.into_bits(self.0))
    }

    /// The same rules with V8 set to `value`.
    ///
    /// ```
    /// use agon_core::{Repetition, Rules};
    /// let r = Rules::STANDARD.with_repetition(Repetition::Off);
    /// assert_eq!(r.repetition(), Repetition::Off);
    /// ```
    #[must_use]
    pub const fn with_repetition(self, value: Repetition) -> Rules {
        Rules(value.into_bits(self.0))
    }

    /// The same rules with a move limit of `plies` (V9), or `None` when `plies` is 0 or
    /// above [`Rules::MAX_LIMIT`].
    ///
    /// ```
    /// use agon_core::Rules;
    /// assert_eq!(Rules::STANDARD.with_limit(300).and_then(|r| r.limit()), Some(300));
    /// assert_eq!(Rules::STANDARD.with_limit(0), None);
    /// ```
    #[must_use]
    pub const fn with_limit(self, plies: u32) -> Option<Rules> {
        if plies == 0 || plies > Rules::MAX_LIMIT {
            return None;
        }
        Some(Rules(
            (self.0 & ((1 << LIMIT_SHIFT) - 1)) | (plies << LIMIT_SHIFT),
        ))
    }

    /// The same rules without a move limit.
    ///
    /// ```
    /// use agon_core::Rules;
    /// assert_eq!(Rules::LUDII.without_limit().limit(), None);
    /// ```
    #[must_use]
    pub const fn without_limit(self) -> Rules {
        Rules(self.0 & ((1 << LIMIT_SHIFT) - 1))
    }

    /// Whether these are the standard rules.
    ///
    /// ```
    /// use agon_core::Rules;
    /// assert!(Rules::STANDARD.is_standard());
    /// assert!(!Rules::LUDII.is_standard());
    /// ```
    #[inline]
    pub const fn is_standard(self) -> bool {
        self.0 == 0
    }

    /// Whether the options that act on a single position (V1 to V7) are all standard:
    /// legal moves and captures are then R1-R10's and R12's. The move generator takes its
    /// fast path on it.
    ///
    /// ```
    /// use agon_core::Rules;
    /// assert!(Rules::STANDARD.with_limit(10).unwrap().position_rules_are_standard());
    /// assert!(!Rules::LUDII.position_rules_are_standard());
    /// ```
    #[inline]
    pub const fn position_rules_are_standard(self) -> bool {
        self.0 & 0xff == 0
    }

    /// Whether V2 is `trapped`, tested on the bits (the move generator's hot path).
    #[inline(always)]
    pub(crate) const fn traps(self) -> bool {
        (self.0 >> 1) & 3 == Between::Trapped as u32
    }

    /// The rule sets a study of the variants compares: the presets, then every
    /// single-option variant of the standard rules (each option's other values, in
    /// [`Rules::OPTIONS`] order), the move limit at `limit` plies (left out if `limit` is
    /// not from 1 to [`Rules::MAX_LIMIT`]).
    ///
    /// ```
    /// use agon_core::Rules;
    /// let sets: Vec<String> = Rules::presets_and_variants(300).map(|r| r.to_string()).collect();
    /// assert_eq!(sets.len(), 12);
    /// assert_eq!(&sets[..3], ["standard", "ludii", "standard+capture=same-ring"]);
    /// assert_eq!(sets[11], "standard+limit=300");
    /// ```
    pub fn presets_and_variants(limit: u32) -> impl Iterator<Item = Rules> {
        let s = Rules::STANDARD;
        let presets = Rules::PRESETS.into_iter().map(|(_, r)| r);
        let others = Capture::ALL[1..]
            .iter()
            .map(move |&v| s.with_capture(v))
            .chain(Between::ALL[1..].iter().map(move |&v| s.with_between(v)))
            .chain(
                GuardReturn::ALL[1..]
                    .iter()
                    .map(move |&v| s.with_guard_return(v)),
            )
            .chain(
                QueenReturn::ALL[1..]
                    .iter()
                    .map(move |&v| s.with_queen_return(v)),
            )
            .chain(
                QueenPlacer::ALL[1..]
                    .iter()
                    .map(move |&v| s.with_queen_placer(v)),
            )
            .chain(
                EmptyThroneRing::ALL[1..]
                    .iter()
                    .map(move |&v| s.with_empty_throne_ring(v)),
            )
            .chain(Stuck::ALL[1..].iter().map(move |&v| s.with_stuck(v)))
            .chain(
                Repetition::ALL[1..]
                    .iter()
                    .map(move |&v| s.with_repetition(v)),
            );
        presets.chain(others).chain(s.with_limit(limit))
    }

    /// The name of the preset these rules are, if they are one.
    ///
    /// ```
    /// use agon_core::Rules;
    /// assert_eq!(Rules::LUDII.preset(), Some("ludii"));
    /// assert_eq!(Rules::LUDII.without_limit().preset(), None);
    /// ```
    pub fn preset(self) -> Option<&'static str> {
        Rules::PRESETS
            .iter()
            .find(|(_, r)| *r == self)
            .map(|(n, _)| *n)
    }

    /// The value of each option as text, in [`Rules::OPTIONS`] order (the limit as
    /// `none` or its number).
    fn values(self) -> [OptionValue; 9] {
        [
            OptionValue::Name(self.capture().name()),
            OptionValue::Name(self.between().name()),
            OptionValue::Name(self.guard_return().name()),
            OptionValue::Name(self.queen_return().name()),
            OptionValue::Name(self.queen_placer().name()),
            OptionValue::Name(self.empty_throne_ring().name()),
            OptionValue::Name(self.stuck().name()),
            OptionValue::Name(self.repetition().name()),
            match self.limit() {
                None => OptionValue::Name("none"),
                Some(n) => OptionValue::Number(n),
            },
        ]
    }

    /// Sets option `index` (of [`Rules::OPTIONS`]) from its value text.
    fn set(self, index: usize, value: &str) -> Result<Rules, ParseErrorKind> {
        let unknown = ParseErrorKind::UnknownRuleValue;
        Ok(match index {
            0 => self.with_capture(Capture::from_name(value).ok_or(unknown)?),
            1 => self.with_between(Between::from_name(value).ok_or(unknown)?),
            2 => self.with_guard_return(GuardReturn::from_name(value).ok_or(unknown)?),
            3 => self.with_queen_return(QueenReturn::from_name(value).ok_or(unknown)?),
            4 => self.with_queen_placer(QueenPlacer::from_name(value).ok_or(unknown)?),
            5 => self.with_empty_throne_ring(EmptyThroneRing::from_name(value).ok_or(unknown)?),
            6 => self.with_stuck(Stuck::from_name(value).ok_or(unknown)?),
            7 => self.with_repetition(Repetition::from_name(value).ok_or(unknown)?),
            _ => {
                if value == "none" {
                    return Ok(self.without_limit());
                }
                let digits = !value.is_empty()
                    && value.len() <= 6
                    && value.bytes().all(|b| b.is_ascii_digit())
                    && !value.starts_with('0');
                if !digits {
                    return Err(
                        if value.bytes().all(|b| b.is_ascii_digit()) && !value.is_empty() {
                            ParseErrorKind::LimitOutOfRange
                        } else {
                            unknown
                        },
                    );
                }
                let n: u32 = value.parse().map_err(|_| unknown)?;
                self.with_limit(n).ok_or(ParseErrorKind::LimitOutOfRange)?
            }
        })
    }

    /// Parses the text form (see [`Rules`]).
    ///
    /// ```
    /// use agon_core::{ParseErrorKind, Rules};
    /// let r = Rules::from_text("ludii+limit=none")?;
    /// assert_eq!(r.limit(), None);
    /// let err = Rules::from_text("standard+capture=diagonal").unwrap_err();
    /// assert_eq!((err.offset(), err.kind()), (17, ParseErrorKind::UnknownRuleValue));
    /// assert_eq!(Rules::from_text("chess").unwrap_err().kind(), ParseErrorKind::UnknownPreset);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn from_text(text: &str) -> Result<Rules, ParseError> {
        let mut r = Reader::new(text);
        let token = |r: &mut Reader<'_>, stop: &[u8]| {
            let at = r.pos;
            while r.peek().is_some_and(|c| !stop.contains(&c)) {
                r.pos += 1;
            }
            (at, text.get(at..r.pos).unwrap_or(""))
        };
        let (at, preset) = token(&mut r, b"+");
        let mut rules = Rules::PRESETS
            .iter()
            .find(|(n, _)| *n == preset)
            .map(|(_, r)| *r)
            .ok_or(ParseError::new(at, ParseErrorKind::UnknownPreset))?;
        let mut seen = [false; 9];
        while r.eat(b'+') {
            let (at, option) = token(&mut r, b"=+");
            let index = Rules::OPTIONS
                .iter()
                .position(|o| *o == option)
                .ok_or(ParseError::new(at, ParseErrorKind::UnknownRuleOption))?;
            if seen[index] {
                return Err(ParseError::new(at, ParseErrorKind::DuplicateRuleOption));
            }
            seen[index] = true;
            r.expect(b'=', "'=' after the option name")?;
            let (at, value) = token(&mut r, b"+");
            rules = rules
                .set(index, value)
                .map_err(|kind| ParseError::new(at, kind))?;
        }
        r.finish()?;
        Ok(rules)
    }
}

/// An option's value as the text form writes it.
#[derive(Copy, Clone, PartialEq, Eq)]
enum OptionValue {
    Name(&'static str),
    Number(u32),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Name(n) => f.write_str(n),
            OptionValue::Number(n) => write!(f, "{n}"),
        }
    }
}

impl fmt::Display for Rules {
    /// The canonical text form: the nearest preset, then the options that differ from it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mine = self.values();
        let differences = |preset: Rules| {
            let theirs = preset.values();
            (0..9).filter(move |&i| mine[i] != theirs[i])
        };
        let (name, preset) = Rules::PRESETS
            .iter()
            .copied()
            .min_by_key(|(_, p)| differences(*p).count())
            .unwrap_or(Rules::PRESETS[0]);
        f.write_str(name)?;
        for i in differences(preset) {
            write!(f, "+{}={}", Rules::OPTIONS[i], mine[i])?;
        }
        Ok(())
    }
}

impl fmt::Debug for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rules({self})")
    }
}

impl FromStr for Rules {
    type Err = ParseError;

    /// See [`Rules::from_text`].
    fn from_str(s: &str) -> Result<Rules, ParseError> {
        Rules::from_text(s)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use std::string::ToString;
    use std::vec::Vec;

    fn single_option_variants() -> Vec<Rules> {
        let mut list = Vec::new();
        for rules in [Rules::STANDARD, Rules::LUDII] {
            list.push(rules);
            list.extend(Capture::ALL.iter().map(|&v| rules.with_capture(v)));
            list.extend(Between::ALL.iter().map(|&v| rules.with_between(v)));
            list.extend(GuardReturn::ALL.iter().map(|&v| rules.with_guard_return(v)));
            list.extend(QueenReturn::ALL.iter().map(|&v| rules.with_queen_return(v)));
            list.extend(QueenPlacer::ALL.iter().map(|&v| rules.with_queen_placer(v)));
            list.extend(
                EmptyThroneRing::ALL
                    .iter()
                    .map(|&v| rules.with_empty_throne_ring(v)),
            );
            list.extend(Stuck::ALL.iter().map(|&v| rules.with_stuck(v)));
            list.extend(Repetition::ALL.iter().map(|&v| rules.with_repetition(v)));
            for n in [1, 7, 2500, Rules::MAX_LIMIT] {
                list.push(rules.with_limit(n).unwrap());
            }
            list.push(rules.without_limit());
        }
        list
    }

    #[test]
    fn every_single_option_value_round_trips_through_text() {
        for rules in single_option_variants() {
            let text = rules.to_string();
            assert_eq!(Rules::from_text(&text), Ok(rules), "{text}");
        }
    }

    #[test]
    fn the_canonical_form_starts_from_the_nearest_preset() {
        let cases = [
            (
                Rules::LUDII.with_capture(Capture::SameRing),
                "ludii+capture=same-ring",
            ),
            (
                Rules::STANDARD.with_stuck(Stuck::Pass),
                "standard+stuck=pass",
            ),
            (Rules::STANDARD.with_limit(7).unwrap(), "standard+limit=7"),
            (Rules::LUDII.without_limit(), "ludii+limit=none"),
            (Rules::STANDARD, "standard"),
            (Rules::LUDII, "ludii"),
        ];
        for (rules, text) in cases {
            assert_eq!(rules.to_string(), text);
        }
    }

    #[test]
    fn bad_text_is_a_precise_error() {
        let cases: [(&str, usize, ParseErrorKind); 11] = [
            ("", 0, ParseErrorKind::UnknownPreset),
            ("Standard", 0, ParseErrorKind::UnknownPreset),
            ("standard+", 9, ParseErrorKind::UnknownRuleOption),
            ("standard+color=red", 9, ParseErrorKind::UnknownRuleOption),
            (
                "standard+capture",
                16,
                ParseErrorKind::Expected("'=' after the option name"),
            ),
            ("standard+capture=", 17, ParseErrorKind::UnknownRuleValue),
            ("standard+limit=0", 15, ParseErrorKind::LimitOutOfRange),
            ("standard+limit=100001", 15, ParseErrorKind::LimitOutOfRange),
            (
                "standard+limit=99999999999999",
                15,
                ParseErrorKind::LimitOutOfRange,
            ),
            ("standard+limit=-3", 15, ParseErrorKind::UnknownRuleValue),
            (
                "ludii+stuck=pass+stuck=loses",
                17,
                ParseErrorKind::DuplicateRuleOption,
            ),
        ];
        for (text, offset, kind) in cases {
            let err = Rules::from_text(text).unwrap_err();
            assert_eq!((err.offset(), err.kind()), (offset, kind), "{text:?}");
        }
    }

    #[test]
    fn the_packed_options_do_not_overlap() {
        let r = Rules::STANDARD
            .with_capture(Capture::SameRing)
            .with_between(Between::Trapped)
            .with_guard_return(GuardReturn::NextRing)
            .with_queen_return(QueenReturn::NotThrone)
            .with_queen_placer(QueenPlacer::Captor)
            .with_empty_throne_ring(EmptyThroneRing::Draw)
            .with_stuck(Stuck::Pass)
            .with_repetition(Repetition::Off)
            .with_limit(Rules::MAX_LIMIT)
            .unwrap();
        assert_eq!(r.capture(), Capture::SameRing);
        assert_eq!(r.between(), Between::Trapped);
        assert_eq!(r.guard_return(), GuardReturn::NextRing);
        assert_eq!(r.queen_return(), QueenReturn::NotThrone);
        assert_eq!(r.queen_placer(), QueenPlacer::Captor);
        assert_eq!(r.empty_throne_ring(), EmptyThroneRing::Draw);
        assert_eq!(r.stuck(), Stuck::Pass);
        assert_eq!(r.repetition(), Repetition::Off);
        assert_eq!(r.limit(), Some(Rules::MAX_LIMIT));
        assert_eq!(r.with_between(Between::Allowed).between(), Between::Allowed);
        assert_eq!(
            r.with_between(Between::Allowed).guard_return(),
            GuardReturn::NextRing
        );
        assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
    }
}
