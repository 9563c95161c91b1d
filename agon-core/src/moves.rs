//! [`Move`] (a step or a return) and [`MoveList`], the fixed-capacity list of legal moves.

use core::fmt;
use core::ops::Deref;

use crate::{Cell, CellSet};

/// One action: a step of a piece, the return of a captured piece, or a pass.
///
/// Steps and returns have a `from` and a `to` cell; for a return, `from` is the cell where
/// the captured piece stands. A pass exists only in rule sets where a side without another
/// action passes ([`crate::Stuck::Pass`]). The text forms are `f1-f2` for a step, `f4>l1`
/// for a return and `pass` (see [`crate::notation`]).
///
/// ```
/// use agon_core::Move;
///
/// let step: Move = "f1-f2".parse()?;
/// assert_eq!(step.from(), Some("f1".parse()?));
/// assert!(!step.is_return());
/// let ret: Move = "f4>l1".parse()?;
/// assert!(ret.is_return());
/// assert_eq!(ret.to_string(), "f4>l1");
/// assert_eq!("pass".parse::<Move>()?, Move::Pass);
/// # Ok::<(), agon_core::ParseError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Move {
    /// A piece steps to an adjacent empty cell in its ring or the next ring inward.
    Step {
        /// The cell the piece leaves.
        from: Cell,
        /// The adjacent cell it enters.
        to: Cell,
    },
    /// A captured piece is placed back on the board and is no longer captured.
    Return {
        /// The cell where the captured piece stands.
        from: Cell,
        /// The empty cell it is placed on.
        to: Cell,
    },
    /// The side to move has no other action and passes ([`crate::Stuck::Pass`]).
    Pass,
}

impl Move {
    /// The cell the piece leaves (`None` for a pass).
    ///
    /// ```
    /// use agon_core::{Cell, Move};
    /// let m = Move::Step { from: "e5".parse()?, to: Cell::THRONE };
    /// assert_eq!(m.from().map(|c| c.to_string()), Some("e5".into()));
    /// assert_eq!(Move::Pass.from(), None);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn from(self) -> Option<Cell> {
        match self {
            Move::Step { from, .. } | Move::Return { from, .. } => Some(from),
            Move::Pass => None,
        }
    }

    /// The cell the piece enters (`None` for a pass).
    ///
    /// ```
    /// use agon_core::{Cell, Move};
    /// let m = Move::Step { from: "e5".parse()?, to: Cell::THRONE };
    /// assert_eq!(m.to(), Some(Cell::THRONE));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn to(self) -> Option<Cell> {
        match self {
            Move::Step { to, .. } | Move::Return { to, .. } => Some(to),
            Move::Pass => None,
        }
    }

    /// The from and to cells of a step or a return (`None` for a pass).
    ///
    /// ```
    /// use agon_core::Move;
    /// let (from, to) = "f1-e1".parse::<Move>()?.cells().unwrap();
    /// assert_eq!((from.to_string(), to.to_string()), ("f1".into(), "e1".into()));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn cells(self) -> Option<(Cell, Cell)> {
        match self {
            Move::Step { from, to } | Move::Return { from, to } => Some((from, to)),
            Move::Pass => None,
        }
    }

    /// Whether this is a pass.
    ///
    /// ```
    /// use agon_core::Move;
    /// assert!("pass".parse::<Move>()?.is_pass());
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn is_pass(self) -> bool {
        matches!(self, Move::Pass)
    }

    /// Whether this is a return.
    ///
    /// ```
    /// use agon_core::Move;
    /// assert!("a1>a2".parse::<Move>()?.is_return());
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn is_return(self) -> bool {
        matches!(self, Move::Return { .. })
    }
}

/// The largest number of legal moves in any position, under any rule set: six captured
/// guards, each with the thirty cells of an empty outer ring (a captured queen has at most
/// 77 empty cells, seven pieces have at most 28 steps, and a pass is alone).
pub const MAX_LEGAL_MOVES: usize = 180;

/// A list of at most [`MAX_LEGAL_MOVES`] moves, stored inline: building one never
/// allocates. It dereferences to a slice.
///
/// ```
/// use agon_core::{MoveList, Position};
///
/// let moves: MoveList = Position::start().legal_moves();
/// assert_eq!(moves.len(), 27);
/// assert!(moves.iter().all(|m| !m.is_return()));
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_LEGAL_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    ///
    /// ```
    /// use agon_core::MoveList;
    /// assert!(MoveList::new().is_empty());
    /// ```
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::Step {
                from: Cell::THRONE,
                to: Cell::THRONE,
            }; MAX_LEGAL_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    ///
    /// When the list already holds [`MAX_LEGAL_MOVES`] moves; legal move generation never
    /// exceeds it.
    ///
    /// ```
    /// use agon_core::{Move, MoveList};
    /// let mut list = MoveList::new();
    /// list.push("f1-f2".parse()?);
    /// assert_eq!(list.len(), 1);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Removes every move.
    ///
    /// ```
    /// use agon_core::Position;
    /// let mut list = Position::start().legal_moves();
    /// list.clear();
    /// assert!(list.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the moves for which `keep` returns true.
    ///
    /// ```
    /// use agon_core::Position;
    /// let mut list = Position::start().legal_moves();
    /// list.retain(|m| m.from() == Some("f1".parse().unwrap()));
    /// assert_eq!(list.len(), 3);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[n] = self.moves[i];
                n += 1;
            }
        }
        self.len = n;
    }

    /// The moves as a mutable slice (to sort or shuffle them).
    ///
    /// ```
    /// use agon_core::Position;
    /// let mut list = Position::start().legal_moves();
    /// list.as_mut_slice().reverse();
    /// assert_eq!(list.len(), 27);
    /// ```
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Extend<Move> for MoveList {
    fn extend<I: IntoIterator<Item = Move>>(&mut self, iter: I) {
        for m in iter {
            self.push(m);
        }
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        **self == **other
    }
}

impl Eq for MoveList {}

/// The legal actions of a position (its moves, RULES.md's actions) in compact form: each
/// piece that may act, with the set of cells it may go to. At most seven entries; a `Copy`
/// value that never allocates. Built by [`crate::Position::actions`]; iterating it yields
/// the moves in the order of [`crate::Position::legal_moves`]. It was named `Actions`
/// (a deprecated alias for one release), which agon-rl's numbered actions and the
/// bindings' batches of them made ambiguous.
///
/// ```
/// use agon_core::Position;
/// let actions = Position::start().actions();
/// assert_eq!(actions.len(), 27);
/// assert_eq!(actions.nth(0).unwrap().to_string(), "a5-a4");
/// assert_eq!(actions.iter().count(), 27);
/// ```
#[derive(Copy, Clone)]
pub struct MoveSet {
    from: [Cell; 7],
    targets: [CellSet; 7],
    pieces: u8,
    is_return: bool,
    /// The one action is a pass (no piece may act, and the rules pass).
    pass: bool,
    len: u16,
}

/// The former name of [`MoveSet`].
///
/// ```
/// #[allow(deprecated)]
/// let set: agon_core::Actions = agon_core::Position::start().actions();
/// assert_eq!(set.len(), 27);
/// ```
#[deprecated(
    since = "0.1.0",
    note = "renamed `MoveSet`: an action is also agon-rl's numbered action"
)]
pub type Actions = MoveSet;

/// The former name of [`MoveSetIter`].
///
/// ```
/// #[allow(deprecated)]
/// let moves: agon_core::ActionsIter = agon_core::Position::start().actions().into_iter();
/// assert_eq!(moves.count(), 27);
/// ```
#[deprecated(since = "0.1.0", note = "renamed `MoveSetIter`")]
pub type ActionsIter = MoveSetIter;

impl MoveSet {
    /// No actions.
    pub(crate) const fn new() -> MoveSet {
        MoveSet {
            from: [Cell::THRONE; 7],
            targets: [CellSet::EMPTY; 7],
            pieces: 0,
            is_return: false,
            pass: false,
            len: 0,
        }
    }

    /// Makes the pass the one action, when no piece may act and the rules pass (V7).
    #[inline]
    pub(crate) fn set_pass(&mut self) {
        self.pass = true;
        self.len = 1;
    }

    /// Whether the one action is a pass.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(!Position::start().actions().is_pass());
    /// ```
    pub const fn is_pass(&self) -> bool {
        self.pass
    }

    /// Records that the piece on `from` may go to `targets` (ignored when empty).
    ///
    /// Branch-free: whether a piece can move is unpredictable, so the entry is always
    /// written and kept only by advancing the count. At most seven pieces are pushed.
    #[inline]
    pub(crate) fn push(&mut self, from: Cell, targets: CellSet, is_return: bool) {
        let i = usize::from(self.pieces);
        self.from[i] = from;
        self.targets[i] = targets;
        self.pieces += u8::from(!targets.is_empty());
        self.len += targets.len() as u16;
        self.is_return = is_return;
    }

    /// Whether these are returns (the side to move has a captured piece) rather than steps.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(!Position::start().actions().are_returns());
    /// ```
    pub const fn are_returns(&self) -> bool {
        self.is_return
    }

    /// The number of legal moves.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().actions().len(), 27);
    /// ```
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no legal move.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(!Position::start().actions().is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.pieces == 0 && !self.pass
    }

    /// Each piece that may act, with the cells it may go to, by cell index (none when the
    /// action is a pass).
    ///
    /// ```
    /// use agon_core::Position;
    /// let (from, targets) = Position::start().actions().entries().next().unwrap();
    /// assert_eq!((from.to_string(), targets.len()), ("a5".to_string(), 4));
    /// ```
    #[inline]
    pub fn entries(&self) -> impl Iterator<Item = (Cell, CellSet)> + '_ {
        self.from
            .iter()
            .copied()
            .zip(self.targets)
            .take(self.pieces.into())
    }

    /// The cells the piece on `from` may go to (empty if it may not act).
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().actions().targets("f1".parse()?).len(), 3);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn targets(&self, from: Cell) -> CellSet {
        self.entries()
            .find(|(f, _)| *f == from)
            .map_or(CellSet::EMPTY, |(_, t)| t)
    }

    /// Whether `m` is one of the legal moves.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(!Position::start().actions().contains("f1>f2".parse()?));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn contains(&self, m: Move) -> bool {
        match m.cells() {
            Some((from, to)) => m.is_return() == self.is_return && self.targets(from).contains(to),
            None => self.pass,
        }
    }

    /// The `n`-th legal move (from 0) in [`crate::Position::legal_moves`] order.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().actions().nth(27), None);
    /// ```
    #[inline]
    pub fn nth(&self, mut n: usize) -> Option<Move> {
        if self.pass {
            return (n == 0).then_some(Move::Pass);
        }
        for (from, targets) in self.entries() {
            let len = targets.len();
            if n < len {
                return targets.iter().nth(n).map(|to| self.make(from, to));
            }
            n -= len;
        }
        None
    }

    #[inline]
    fn make(&self, from: Cell, to: Cell) -> Move {
        if self.is_return {
            Move::Return { from, to }
        } else {
            Move::Step { from, to }
        }
    }

    /// The legal moves, in [`crate::Position::legal_moves`] order.
    ///
    /// ```
    /// use agon_core::Position;
    /// let first = Position::start().actions().iter().next().unwrap();
    /// assert_eq!(first.to_string(), "a5-a4");
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.into_iter()
    }
}

impl PartialEq for MoveSet {
    fn eq(&self, other: &MoveSet) -> bool {
        // Slots past `pieces` hold leftovers of `push`; only the entries count.
        self.entries().eq(other.entries())
            && self.pass == other.pass
            && (self.pieces == 0 || self.is_return == other.is_return)
    }
}

impl Eq for MoveSet {}

impl fmt::Debug for MoveSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Default for MoveSet {
    fn default() -> MoveSet {
        MoveSet::new()
    }
}

impl IntoIterator for MoveSet {
    type Item = Move;
    type IntoIter = MoveSetIter;
    fn into_iter(self) -> MoveSetIter {
        MoveSetIter {
            actions: self,
            piece: 0,
            rest: self.targets[0],
        }
    }
}

/// The moves of a [`MoveSet`], by value.
#[derive(Clone, Debug)]
pub struct MoveSetIter {
    actions: MoveSet,
    piece: usize,
    rest: CellSet,
}

impl Iterator for MoveSetIter {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        loop {
            if self.piece >= usize::from(self.actions.pieces) {
                // A pass has no piece: it comes out here, once.
                return core::mem::take(&mut self.actions.pass).then_some(Move::Pass);
            }
            if let Some(to) = self.rest.first() {
                self.rest = self.rest.without(to);
                return Some(self.actions.make(self.actions.from[self.piece], to));
            }
            self.piece += 1;
            self.rest = self
                .actions
                .targets
                .get(self.piece)
                .copied()
                .unwrap_or_default();
        }
    }
}
