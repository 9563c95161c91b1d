//! The search's techniques, each of which can be switched off to measure what it brings.

use core::fmt;

/// One technique of the engine's search. [`Techniques`] is a set of them; the engine
/// plays with all of them ([`Techniques::ALL`]), and the `ablation` example of agon-bots
/// measures each by switching it off.
///
/// ```
/// use agon_bots::Technique;
///
/// assert_eq!(Technique::ALL.len(), 6);
/// assert_eq!(Technique::Quiescence.name(), "quiescence");
/// assert_eq!(Technique::from_name("lmr"), Some(Technique::LateMoveReductions));
/// assert_eq!(Technique::from_name("nmp"), None);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Technique {
    /// Scores and best moves kept in the transposition table: cut-offs where a position
    /// was searched deep enough before, and its best move tried first.
    TranspositionTable,
    /// Each iteration from depth 4 searches within a window around the last score first,
    /// and widens it only if the score falls outside.
    Aspiration,
    /// Principal-variation search: moves after the first are searched with a null window,
    /// and again with the full window only if they beat the best so far.
    Pvs,
    /// Quiet moves that cut off elsewhere at the same ply (killers) or anywhere (history)
    /// are tried early.
    KillersHistory,
    /// Quiet moves ordered late are searched one or two plies shallower first, and again
    /// at full depth only if they beat the best so far.
    LateMoveReductions,
    /// Captures (and the returns a capture at the horizon forces) are searched past the
    /// depth until the position is quiet; without it, the horizon's static score stands.
    Quiescence,
}

impl Technique {
    /// Every technique, in the order of the README's ablation table.
    ///
    /// ```
    /// use agon_bots::Technique;
    /// assert_eq!(Technique::ALL[0], Technique::TranspositionTable);
    /// ```
    pub const ALL: &'static [Technique] = &[
        Technique::TranspositionTable,
        Technique::Aspiration,
        Technique::Pvs,
        Technique::KillersHistory,
        Technique::LateMoveReductions,
        Technique::Quiescence,
    ];

    /// The short name used on the command line: `table`, `aspiration`, `pvs`, `killers`,
    /// `lmr` or `quiescence`. [`Display`](fmt::Display) writes it too.
    ///
    /// ```
    /// use agon_bots::Technique;
    /// assert_eq!(Technique::TranspositionTable.name(), "table");
    /// assert_eq!(Technique::KillersHistory.to_string(), "killers");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Technique::TranspositionTable => "table",
            Technique::Aspiration => "aspiration",
            Technique::Pvs => "pvs",
            Technique::KillersHistory => "killers",
            Technique::LateMoveReductions => "lmr",
            Technique::Quiescence => "quiescence",
        }
    }

    /// The technique of a short name ([`Technique::name`]), if any.
    ///
    /// ```
    /// use agon_bots::Technique;
    /// for &t in Technique::ALL {
    ///     assert_eq!(Technique::from_name(t.name()), Some(t));
    /// }
    /// assert_eq!(Technique::from_name("PVS"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.iter().copied().find(|t| t.name() == name)
    }

    const fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of search [`Technique`]s: what an [`Engine`](crate::Engine) searches with
/// ([`Engine::with_techniques`](crate::Engine::with_techniques)). The default is
/// [`Techniques::ALL`]; an engine missing any of them plays worse for its time.
///
/// ```
/// use agon_bots::{Engine, Limits, Technique, Techniques};
///
/// let techniques = Techniques::ALL.without(Technique::Aspiration);
/// assert!(!techniques.contains(Technique::Aspiration));
/// assert!(techniques.contains(Technique::Pvs));
/// assert_eq!(techniques.with(Technique::Aspiration), Techniques::ALL);
/// let engine = Engine::new(Limits::depth(4)).with_techniques(techniques);
/// assert_eq!(engine.techniques(), techniques);
/// assert_eq!(Techniques::default(), Techniques::ALL);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Techniques(u8);

impl Techniques {
    /// Every technique: the engine as it plays.
    ///
    /// ```
    /// use agon_bots::{Technique, Techniques};
    /// assert!(Technique::ALL.iter().all(|&t| Techniques::ALL.contains(t)));
    /// assert_eq!(Techniques::ALL.iter().count(), Technique::ALL.len());
    /// ```
    pub const ALL: Techniques = {
        // Built from the list, so that a new technique cannot be left out of the set.
        let mut bits = 0;
        let mut i = 0;
        while i < Technique::ALL.len() {
            bits |= Technique::ALL[i].bit();
            i += 1;
        }
        Techniques(bits)
    };

    /// No technique: a plain alpha-beta search to the depth, with the static evaluation
    /// at the horizon.
    ///
    /// ```
    /// use agon_bots::{Technique, Techniques};
    /// assert!(Technique::ALL.iter().all(|&t| !Techniques::NONE.contains(t)));
    /// ```
    pub const NONE: Techniques = Techniques(0);

    /// Whether `technique` is in the set.
    ///
    /// ```
    /// use agon_bots::{Technique, Techniques};
    /// assert!(Techniques::ALL.contains(Technique::Quiescence));
    /// ```
    pub fn contains(self, technique: Technique) -> bool {
        self.0 & technique.bit() != 0
    }

    /// The set with `technique` added.
    ///
    /// ```
    /// use agon_bots::{Technique, Techniques};
    /// let only_pvs = Techniques::NONE.with(Technique::Pvs);
    /// assert!(only_pvs.contains(Technique::Pvs));
    /// assert!(!only_pvs.contains(Technique::Quiescence));
    /// ```
    #[must_use]
    pub fn with(self, technique: Technique) -> Techniques {
        Techniques(self.0 | technique.bit())
    }

    /// The set with `technique` taken out.
    ///
    /// ```
    /// use agon_bots::{Technique, Techniques};
    /// let plain = Techniques::ALL.without(Technique::Quiescence);
    /// assert!(!plain.contains(Technique::Quiescence));
    /// assert_ne!(plain, Techniques::ALL);
    /// ```
    #[must_use]
    pub fn without(self, technique: Technique) -> Techniques {
        Techniques(self.0 & !technique.bit())
    }

    /// The techniques in the set, in the order of [`Technique::ALL`].
    ///
    /// ```
    /// use agon_bots::{Technique, Techniques};
    /// let set = Techniques::NONE.with(Technique::Quiescence).with(Technique::Pvs);
    /// let listed: Vec<Technique> = set.iter().collect();
    /// assert_eq!(listed, [Technique::Pvs, Technique::Quiescence]);
    /// ```
    pub fn iter(self) -> impl Iterator<Item = Technique> {
        Technique::ALL
            .iter()
            .copied()
            .filter(move |&t| self.contains(t))
    }
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques::ALL
    }
}

impl fmt::Debug for Techniques {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}
