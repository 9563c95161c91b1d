//! [`CellSet`]: a set of cells as one 128-bit word, the bitboard of this engine.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

use crate::cell::HAS_NEIGHBOUR;
use crate::{Cell, Direction};

/// A set of cells, stored as one `u128` (one bit per cell).
///
/// Set operations are single machine operations; iteration yields cells in ascending
/// [`Cell::index`] order. The bit layout is private: use [`Cell::index`] for arrays.
///
/// ```
/// use agon_core::{Cell, CellSet, Ring};
///
/// let ring1 = Ring::new(1).unwrap().cells();
/// let names: Vec<String> = ring1.iter().map(|c| c.to_string()).collect();
/// assert_eq!(names, ["e5", "e6", "f5", "f7", "g5", "g6"]);
/// assert_eq!((ring1 | CellSet::from(Cell::THRONE)).len(), 7);
/// assert!(!ring1.contains(Cell::THRONE));
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct CellSet(u128);

impl CellSet {
    /// The empty set.
    pub const EMPTY: CellSet = CellSet(0);

    /// All 91 cells.
    ///
    /// ```
    /// use agon_core::CellSet;
    /// assert_eq!(CellSet::ALL.len(), 91);
    /// ```
    pub const ALL: CellSet = {
        let mut s = CellSet::EMPTY;
        let mut i = 0;
        while i < crate::CELL_COUNT {
            s = match Cell::from_index(i) {
                Some(c) => s.with(c),
                None => s,
            };
            i += 1;
        }
        s
    };

    /// Whether the set holds `cell`.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// assert!(CellSet::ALL.contains(Cell::THRONE));
    /// assert!(!CellSet::EMPTY.contains(Cell::THRONE));
    /// ```
    pub const fn contains(self, cell: Cell) -> bool {
        (self.0 >> cell.bit()) & 1 != 0
    }

    /// The set with `cell` added.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// assert_eq!(CellSet::EMPTY.with(Cell::THRONE).len(), 1);
    /// ```
    #[must_use]
    pub const fn with(self, cell: Cell) -> CellSet {
        CellSet(self.0 | 1 << cell.bit())
    }

    /// The set with `cell` removed.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// assert!(CellSet::ALL.without(Cell::THRONE).len() == 90);
    /// ```
    #[must_use]
    pub const fn without(self, cell: Cell) -> CellSet {
        CellSet(self.0 & !(1 << cell.bit()))
    }

    /// Adds `cell`; returns whether it was new.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// let mut s = CellSet::EMPTY;
    /// assert!(s.insert(Cell::THRONE));
    /// assert!(!s.insert(Cell::THRONE));
    /// ```
    pub fn insert(&mut self, cell: Cell) -> bool {
        let new = !self.contains(cell);
        *self = self.with(cell);
        new
    }

    /// Removes `cell`; returns whether it was there.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// let mut s = CellSet::from(Cell::THRONE);
    /// assert!(s.remove(Cell::THRONE));
    /// assert!(s.is_empty());
    /// ```
    pub fn remove(&mut self, cell: Cell) -> bool {
        let was = self.contains(cell);
        *self = self.without(cell);
        was
    }

    /// The number of cells in the set.
    ///
    /// ```
    /// use agon_core::CellSet;
    /// assert_eq!(CellSet::EMPTY.len(), 0);
    /// ```
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    ///
    /// ```
    /// use agon_core::CellSet;
    /// assert!(CellSet::EMPTY.is_empty());
    /// ```
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds more than one cell.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// assert!(!CellSet::from(Cell::THRONE).has_several());
    /// ```
    pub const fn has_several(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The cell with the lowest index, if any.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// assert_eq!(CellSet::ALL.first(), Cell::from_index(0));
    /// ```
    pub const fn first(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_bit(self.0.trailing_zeros()))
        }
    }

    /// The cell with the highest index, if any.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// assert_eq!(CellSet::ALL.last(), Cell::from_index(90));
    /// ```
    pub const fn last(self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            Some(Cell::from_bit(127 - self.0.leading_zeros()))
        }
    }

    /// The cells in either set (`|` as a `const fn`).
    ///
    /// ```
    /// use agon_core::{CellSet, Ring};
    /// assert_eq!(Ring::OUTER.cells().union(Ring::THRONE.cells()).len(), 31);
    /// ```
    pub const fn union(self, other: CellSet) -> CellSet {
        CellSet(self.0 | other.0)
    }

    /// Whether every cell of `self` is in `other`.
    ///
    /// ```
    /// use agon_core::{CellSet, Ring};
    /// assert!(Ring::OUTER.cells().is_subset(CellSet::ALL));
    /// ```
    pub const fn is_subset(self, other: CellSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// Whether the two sets share a cell.
    ///
    /// ```
    /// use agon_core::{CellSet, Ring};
    /// assert!(!Ring::OUTER.cells().intersects(Ring::THRONE.cells()));
    /// ```
    pub const fn intersects(self, other: CellSet) -> bool {
        self.0 & other.0 != 0
    }

    /// Every cell of the set moved one step in direction `d`; cells that would leave the
    /// board are dropped.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet, Direction};
    /// let f11: Cell = "f11".parse().unwrap();
    /// assert!(CellSet::from(f11).shift(Direction::North).is_empty());
    /// assert_eq!(CellSet::from(Cell::THRONE).shift(Direction::North).first().unwrap().to_string(), "f7");
    /// ```
    #[must_use]
    pub const fn shift(self, d: Direction) -> CellSet {
        let kept = self.0 & HAS_NEIGHBOUR[d as usize].0;
        let delta = d.delta();
        if delta >= 0 {
            CellSet(kept << delta as u32)
        } else {
            CellSet(kept >> (-delta) as u32)
        }
    }

    /// The cells of the set in index order.
    ///
    /// ```
    /// use agon_core::CellSet;
    /// assert_eq!(CellSet::ALL.iter().count(), 91);
    /// ```
    pub fn iter(self) -> CellSetIter {
        CellSetIter {
            low: self.0 as u64,
            high: (self.0 >> 64) as u64,
        }
    }

    /// The set as 91 bits in cell index order: bit `i` is cell `i`. For interchange with
    /// arrays and other programs; the inverse is [`CellSet::from_index_bits`].
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// assert_eq!(CellSet::from(Cell::THRONE).to_index_bits(), 1 << 45);
    /// ```
    pub fn to_index_bits(self) -> u128 {
        self.iter().fold(0, |acc, c| acc | 1 << c.index())
    }

    /// The set from 91 bits in cell index order; bits 91 and above must be zero.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet};
    /// assert_eq!(CellSet::from_index_bits(1 << 45), Some(CellSet::from(Cell::THRONE)));
    /// assert_eq!(CellSet::from_index_bits(1 << 91), None);
    /// ```
    pub fn from_index_bits(bits: u128) -> Option<CellSet> {
        if bits >> crate::CELL_COUNT != 0 {
            return None;
        }
        Some(Cell::all().filter(|c| bits & 1 << c.index() != 0).collect())
    }
}

/// Iterator over the cells of a [`CellSet`], in index order.
///
/// It walks the two 64-bit halves separately: clearing the lowest bit of a `u64` is one
/// instruction, of a `u128` several.
#[derive(Clone, Debug)]
pub struct CellSetIter {
    low: u64,
    high: u64,
}

impl Iterator for CellSetIter {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        if self.low != 0 {
            let bit = self.low.trailing_zeros();
            self.low &= self.low - 1;
            Some(Cell::from_bit(bit))
        } else if self.high != 0 {
            let bit = self.high.trailing_zeros();
            self.high &= self.high - 1;
            Some(Cell::from_bit(64 + bit))
        } else {
            None
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.low.count_ones() + self.high.count_ones()) as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CellSetIter {}

impl DoubleEndedIterator for CellSetIter {
    fn next_back(&mut self) -> Option<Cell> {
        if self.high != 0 {
            let bit = 63 - self.high.leading_zeros();
            self.high &= !(1 << bit);
            Some(Cell::from_bit(64 + bit))
        } else if self.low != 0 {
            let bit = 63 - self.low.leading_zeros();
            self.low &= !(1 << bit);
            Some(Cell::from_bit(bit))
        } else {
            None
        }
    }
}

impl IntoIterator for CellSet {
    type Item = Cell;
    type IntoIter = CellSetIter;
    fn into_iter(self) -> CellSetIter {
        self.iter()
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> CellSet {
        iter.into_iter().fold(CellSet::EMPTY, CellSet::with)
    }
}

impl From<Cell> for CellSet {
    fn from(cell: Cell) -> CellSet {
        CellSet::EMPTY.with(cell)
    }
}

impl BitOr for CellSet {
    type Output = CellSet;
    fn bitor(self, o: CellSet) -> CellSet {
        CellSet(self.0 | o.0)
    }
}
impl BitAnd for CellSet {
    type Output = CellSet;
    fn bitand(self, o: CellSet) -> CellSet {
        CellSet(self.0 & o.0)
    }
}
impl BitXor for CellSet {
    type Output = CellSet;
    fn bitxor(self, o: CellSet) -> CellSet {
        CellSet(self.0 ^ o.0)
    }
}
impl Sub for CellSet {
    type Output = CellSet;
    fn sub(self, o: CellSet) -> CellSet {
        CellSet(self.0 & !o.0)
    }
}
/// The complement within the 91 cells of the board.
impl Not for CellSet {
    type Output = CellSet;
    fn not(self) -> CellSet {
        CellSet(!self.0 & CellSet::ALL.0)
    }
}
impl BitOrAssign for CellSet {
    fn bitor_assign(&mut self, o: CellSet) {
        self.0 |= o.0;
    }
}
impl BitAndAssign for CellSet {
    fn bitand_assign(&mut self, o: CellSet) {
        self.0 &= o.0;
    }
}
impl BitXorAssign for CellSet {
    fn bitxor_assign(&mut self, o: CellSet) {
        self.0 ^= o.0;
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}
