//! The twelve symmetries of the hexagonal board: six rotations, each with or without the
//! mirror through the f file. They map cells, moves and positions, for data augmentation
//! and canonical forms. Colours are not swapped: a symmetry moves pieces, not sides.

use core::fmt;

use crate::{Cell, CellSet, Move, Position};

/// A symmetry of the board: first the mirror through the f file (if `mirror`), then a
/// clockwise rotation by `rotation` sixths of a turn.
///
/// Symmetries are numbered `0..12`: `rotation + 6 * mirror`. Number 0 is the identity and
/// number 3 the half turn, which maps cell index `i` to `90 - i`.
///
/// ```
/// use agon_core::{Cell, Symmetry};
///
/// let half_turn = Symmetry::new(3, false);
/// let a1: Cell = "a1".parse()?;
/// assert_eq!(half_turn.cell(a1).to_string(), "l6");
/// let mirror = Symmetry::new(0, true);
/// assert_eq!(mirror.cell(a1).to_string(), "l1");
/// assert_eq!(Symmetry::ALL.len(), 12);
/// # Ok::<(), agon_core::ParseError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Symmetry(u8);

/// Each symmetry's image of every cell, by cell index.
const IMAGES: [[u8; crate::CELL_COUNT]; 12] = {
    let mut t = [[0u8; crate::CELL_COUNT]; 12];
    let mut s = 0;
    while s < 12 {
        let mut i = 0;
        while i < crate::CELL_COUNT {
            let (mut q, mut r, mut z) = match Cell::from_index(i) {
                Some(c) => c.cube(),
                None => panic!(),
            };
            if s >= 6 {
                // Mirror through the f file (q = 0): (q, r, s) -> (-q, -s, -r).
                let (a, b, c) = (-q, -z, -r);
                q = a;
                r = b;
                z = c;
            }
            let mut k = 0;
            while k < s % 6 {
                // Clockwise sixth turn: (q, r, s) -> (-r, -s, -q).
                let (a, b, c) = (-r, -z, -q);
                q = a;
                r = b;
                z = c;
                k += 1;
            }
            t[s][i] = match Cell::from_cube(q, r, z) {
                Some(c) => c.index() as u8,
                None => panic!(),
            };
            i += 1;
        }
        s += 1;
    }
    t
};

impl Symmetry {
    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);

    /// All twelve symmetries, by number.
    pub const ALL: [Symmetry; 12] = {
        let mut t = [Symmetry(0); 12];
        let mut i = 0;
        while i < 12 {
            t[i] = Symmetry(i as u8);
            i += 1;
        }
        t
    };

    /// The symmetry that mirrors (if `mirror`) and then rotates clockwise by `rotation`
    /// sixths of a turn (taken modulo 6).
    ///
    /// ```
    /// use agon_core::Symmetry;
    /// assert_eq!(Symmetry::new(7, false), Symmetry::new(1, false));
    /// ```
    pub const fn new(rotation: u8, mirror: bool) -> Symmetry {
        Symmetry(rotation % 6 + if mirror { 6 } else { 0 })
    }

    /// The symmetry with this number (`0..12`).
    ///
    /// ```
    /// use agon_core::Symmetry;
    /// assert_eq!(Symmetry::from_index(11).unwrap().rotation(), 5);
    /// assert_eq!(Symmetry::from_index(12), None);
    /// ```
    pub const fn from_index(i: usize) -> Option<Symmetry> {
        if i < 12 {
            Some(Symmetry(i as u8))
        } else {
            None
        }
    }

    /// The number of this symmetry, `rotation + 6 * mirror`.
    ///
    /// ```
    /// use agon_core::Symmetry;
    /// assert_eq!(Symmetry::new(2, true).index(), 8);
    /// ```
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The clockwise rotation, in sixths of a turn.
    ///
    /// ```
    /// use agon_core::Symmetry;
    /// assert_eq!(Symmetry::new(4, true).rotation(), 4);
    /// ```
    pub const fn rotation(self) -> u8 {
        self.0 % 6
    }

    /// Whether the symmetry mirrors the board.
    ///
    /// ```
    /// use agon_core::Symmetry;
    /// assert!(Symmetry::new(4, true).is_mirror());
    /// ```
    pub const fn is_mirror(self) -> bool {
        self.0 >= 6
    }

    /// The image of a cell.
    ///
    /// ```
    /// use agon_core::{Cell, Symmetry};
    /// assert!(Symmetry::ALL.iter().all(|s| s.cell(Cell::THRONE) == Cell::THRONE));
    /// ```
    pub const fn cell(self, cell: Cell) -> Cell {
        match Cell::from_index(IMAGES[self.0 as usize][cell.index()] as usize) {
            Some(c) => c,
            // IMAGES holds cell indices only (checked when the table is built).
            None => panic!("a symmetry image table holds a cell index"),
        }
    }

    /// The image of a set of cells.
    ///
    /// ```
    /// use agon_core::{Ring, Symmetry};
    /// let outer = Ring::OUTER.cells();
    /// assert_eq!(Symmetry::new(1, true).cells(outer), outer);
    /// ```
    pub fn cells(self, set: CellSet) -> CellSet {
        set.iter().map(|c| self.cell(c)).collect()
    }

    /// The image of a move.
    ///
    /// ```
    /// use agon_core::{Move, Symmetry};
    /// let m: Move = "f1-e1".parse()?;
    /// assert_eq!(Symmetry::new(0, true).apply_move(m).to_string(), "f1-g1");
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn apply_move(self, m: Move) -> Move {
        match m {
            Move::Step { from, to } => Move::Step {
                from: self.cell(from),
                to: self.cell(to),
            },
            Move::Return { from, to } => Move::Return {
                from: self.cell(from),
                to: self.cell(to),
            },
            Move::Pass => Move::Pass,
        }
    }

    /// The image of a position: every piece moved to the image of its cell, with its side,
    /// kind and captured mark; the same side to move.
    ///
    /// ```
    /// use agon_core::{Position, Symmetry};
    /// let start = Position::start();
    /// // The start position is symmetric under the mirror through the f file.
    /// assert_eq!(Symmetry::new(0, true).position(&start), start);
    /// ```
    pub fn position(self, pos: &Position) -> Position {
        let pieces = pos.pieces().map(|(c, p)| (self.cell(c), p));
        match Position::from_parts_with_rules(
            pos.rules(),
            pos.turn(),
            pieces,
            self.cells(pos.captured()),
        ) {
            Ok(p) => p,
            // A symmetry keeps the throne, the rings and the piece counts: the image of a
            // valid position is valid.
            Err(_) => unreachable!("the image of a valid position is valid"),
        }
    }

    /// The symmetry that undoes this one.
    ///
    /// ```
    /// use agon_core::{Cell, Symmetry};
    /// let s = Symmetry::new(2, false);
    /// let c: Cell = "b3".parse()?;
    /// assert_eq!(s.inverse().cell(s.cell(c)), c);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn inverse(self) -> Symmetry {
        if self.is_mirror() {
            // A mirror followed by a rotation is its own inverse.
            self
        } else {
            Symmetry((6 - self.0) % 6)
        }
    }

    /// The symmetry that applies `self`, then `then`.
    ///
    /// ```
    /// use agon_core::{Cell, Symmetry};
    /// let (a, b) = (Symmetry::new(1, true), Symmetry::new(4, false));
    /// let c: Cell = "c2".parse()?;
    /// assert_eq!(a.then(b).cell(c), b.cell(a.cell(c)));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn then(self, then: Symmetry) -> Symmetry {
        // Two cells not on one line through the centre fix a symmetry.
        let probe = [Cell::from_index(0), Cell::from_index(1)];
        let want = probe.map(|c| c.map(|c| then.cell(self.cell(c))));
        Symmetry::ALL
            .into_iter()
            .find(|s| probe.map(|c| c.map(|c| s.cell(c))) == want)
            .unwrap_or_else(|| unreachable!("the symmetries form a group: {self:?} then {then:?}"))
    }

    /// The least of the twelve images of `pos` by (hash, text order), with the symmetry that
    /// gives it: a canonical form, equal for positions that are images of each other.
    ///
    /// ```
    /// use agon_core::{Position, Symmetry};
    /// let pos = Position::start();
    /// let m = pos.legal_moves()[3];
    /// let a = pos.play(m).unwrap();
    /// let b = Symmetry::new(0, true).position(&a);
    /// assert_eq!(Symmetry::canonical(&a).0, Symmetry::canonical(&b).0);
    /// ```
    pub fn canonical(pos: &Position) -> (Position, Symmetry) {
        let key = |p: &Position| {
            let mut cells = [0u8; 14];
            for (slot, (c, _)) in cells.iter_mut().zip(p.pieces()) {
                *slot = c.index() as u8;
            }
            (p.hash(), cells)
        };
        Symmetry::ALL
            .into_iter()
            .map(|s| (s.position(pos), s))
            .min_by_key(|(p, _)| key(p))
            .unwrap_or_else(|| unreachable!("there are twelve symmetries"))
    }
}

impl fmt::Debug for Symmetry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Symmetry(rotation={}, mirror={})",
            self.rotation(),
            self.is_mirror()
        )
    }
}
