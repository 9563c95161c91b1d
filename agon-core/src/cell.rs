//! The 91 cells of the board, their names, coordinates, rings and neighbours.
//!
//! This module is the one source of truth for the geometry of RULES.md section 1: every
//! table the rules use is computed here, at compile time, from cube coordinates.
//!
//! Internally a cell is a bit position in an 11 x 11 grid (`file * 11 + row`, where
//! `row = 5 - r`), so that each of the six directions is a constant shift of a 128-bit
//! [`CellSet`]. That grid order is the same as the public index order (file by file, rank
//! by rank), so iterating a set yields cells by ascending [`Cell::index`].

use core::fmt;
use core::str::FromStr;

use crate::CellSet;

/// Number of cells on the board.
pub const CELL_COUNT: usize = 91;

/// The eleven file letters, left to right (there is no `j`).
pub(crate) const FILE_LETTERS: [u8; 11] = *b"abcdefghikl";

/// Grid width of the internal bit layout.
const W: i8 = 11;

/// One of the 91 cells of the board.
///
/// Cells are small `Copy` values. They are named like Glinski's hexagonal chess (`f6` is
/// the throne), numbered file by file from `a1 = 0` to `l6 = 90`, and located by cube
/// coordinates `(q, r, s)` with `q + r + s = 0`.
///
/// ```
/// use agon_core::{Cell, Ring};
///
/// let throne: Cell = "f6".parse()?;
/// assert_eq!(throne, Cell::THRONE);
/// assert_eq!(throne.index(), 45);
/// assert_eq!(throne.ring(), Ring::THRONE);
/// assert_eq!(Cell::from_index(90).unwrap().to_string(), "l6");
/// assert_eq!(Cell::from_cube(0, 5, -5), Some("f1".parse()?));
/// # Ok::<(), agon_core::ParseError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

/// A ring: the distance of a cell from the centre, 0 (the throne) to 5 (the outer ring).
///
/// ```
/// use agon_core::{Cell, Ring};
///
/// assert_eq!(Ring::OUTER.cells().len(), 30);
/// assert_eq!(Ring::new(1).unwrap().cells().len(), 6);
/// assert_eq!(Cell::from_index(0).unwrap().ring(), Ring::OUTER);
/// assert!(Ring::new(6).is_none());
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Ring(u8);

/// One of the six directions between adjacent cells, named as the board is drawn
/// (White at the bottom): north is towards higher ranks on the same file.
///
/// ```
/// use agon_core::{Cell, Direction};
///
/// let f6 = Cell::THRONE;
/// assert_eq!(f6.neighbour(Direction::North).unwrap().to_string(), "f7");
/// assert_eq!(f6.neighbour(Direction::SouthEast).unwrap().to_string(), "g5");
/// assert_eq!(Direction::North.opposite(), Direction::South);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Direction {
    /// Up the file: `(q, r, s) + (0, -1, +1)`.
    North = 0,
    /// Up and right: `(+1, -1, 0)`.
    NorthEast = 1,
    /// Down and right: `(+1, 0, -1)`.
    SouthEast = 2,
    /// Down the file: `(0, +1, -1)`.
    South = 3,
    /// Down and left: `(-1, +1, 0)`.
    SouthWest = 4,
    /// Up and left: `(-1, 0, +1)`.
    NorthWest = 5,
}

impl Direction {
    /// The six directions, clockwise from north.
    pub const ALL: [Direction; 6] = [
        Direction::North,
        Direction::NorthEast,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::NorthWest,
    ];

    /// The direction with this number (clockwise from north, 0 to 5).
    ///
    /// ```
    /// use agon_core::Direction;
    /// assert_eq!(Direction::from_index(3), Some(Direction::South));
    /// assert_eq!(Direction::from_index(6), None);
    /// ```
    pub const fn from_index(i: usize) -> Option<Direction> {
        if i < 6 {
            Some(Direction::ALL[i])
        } else {
            None
        }
    }

    /// The number of this direction, clockwise from north (0 to 5).
    ///
    /// ```
    /// use agon_core::Direction;
    /// assert_eq!(Direction::NorthWest.index(), 5);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    ///
    /// ```
    /// use agon_core::Direction;
    /// assert_eq!(Direction::NorthEast.opposite(), Direction::SouthWest);
    /// ```
    pub const fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 3) % 6]
    }

    /// The direction turned clockwise by `sixths` of a full turn.
    ///
    /// ```
    /// use agon_core::Direction;
    /// assert_eq!(Direction::North.rotated(2), Direction::SouthEast);
    /// ```
    pub const fn rotated(self, sixths: u8) -> Direction {
        Direction::ALL[(self as usize + sixths as usize) % 6]
    }

    /// The cube-coordinate offset `(dq, dr, ds)` of one step in this direction.
    ///
    /// ```
    /// use agon_core::Direction;
    /// assert_eq!(Direction::North.cube(), (0, -1, 1));
    /// ```
    pub const fn cube(self) -> (i8, i8, i8) {
        CUBE_DIRS[self as usize]
    }

    /// Shift of the internal bit layout for one step in this direction.
    pub(crate) const fn delta(self) -> i8 {
        let (dq, dr, _) = CUBE_DIRS[self as usize];
        dq * W - dr
    }
}

const CUBE_DIRS: [(i8, i8, i8); 6] = [
    (0, -1, 1),
    (1, -1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (-1, 1, 0),
    (-1, 0, 1),
];

const fn abs(x: i8) -> i8 {
    if x < 0 {
        -x
    } else {
        x
    }
}

const fn max3(a: i8, b: i8, c: i8) -> i8 {
    let m = if a > b { a } else { b };
    if m > c {
        m
    } else {
        c
    }
}

/// Bit position of axial `(q, r)`, or `None` off the board.
const fn bit_of(q: i8, r: i8) -> Option<u8> {
    let s = -q - r;
    if max3(abs(q), abs(r), abs(s)) > 5 {
        None
    } else {
        Some(((q + 5) * W + (5 - r)) as u8)
    }
}

/// Public index (file by file) to bit, and bit to public index (255 off the board).
const INDEX_TABLES: ([u8; CELL_COUNT], [u8; 128]) = {
    let mut to_bit = [0u8; CELL_COUNT];
    let mut to_index = [255u8; 128];
    let mut i = 0;
    let mut bit = 0;
    while bit < 121 {
        let q = (bit / 11) as i8 - 5;
        let r = 5 - (bit % 11) as i8;
        if let Some(b) = bit_of(q, r) {
            to_bit[i] = b;
            to_index[b as usize] = i as u8;
            i += 1;
        }
        bit += 1;
    }
    assert!(i == CELL_COUNT);
    (to_bit, to_index)
};

const BIT_OF_INDEX: [u8; CELL_COUNT] = INDEX_TABLES.0;
const INDEX_OF_BIT: [u8; 128] = INDEX_TABLES.1;

/// Neighbour of each bit in each direction, 255 where it falls off the board.
const NEIGHBOUR: [[u8; 6]; 128] = {
    let mut t = [[255u8; 6]; 128];
    let mut bit = 0;
    while bit < 121 {
        if INDEX_OF_BIT[bit] != 255 {
            let q = (bit / 11) as i8 - 5;
            let r = 5 - (bit % 11) as i8;
            let mut d = 0;
            while d < 6 {
                if let Some(n) = bit_of(q + CUBE_DIRS[d].0, r + CUBE_DIRS[d].1) {
                    t[bit][d] = n;
                }
                d += 1;
            }
        }
        bit += 1;
    }
    t
};

impl Cell {
    /// The throne, `f6`, the centre of the board (index 45).
    pub const THRONE: Cell = Cell::from_index_const(45);

    /// Cell from its index `0..91` (file by file: `a1 = 0`, `a2 = 1`, ..., `l6 = 90`).
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!(Cell::from_index(6).unwrap().to_string(), "b1");
    /// assert_eq!(Cell::from_index(91), None);
    /// ```
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < CELL_COUNT {
            Some(Cell(BIT_OF_INDEX[index]))
        } else {
            None
        }
    }

    const fn from_index_const(index: usize) -> Cell {
        Cell(BIT_OF_INDEX[index])
    }

    /// The index of this cell, `0..91`, file by file. A half turn maps `i` to `90 - i`.
    ///
    /// ```
    /// use agon_core::Cell;
    /// let a1: Cell = "a1".parse().unwrap();
    /// assert_eq!(a1.index(), 0);
    /// ```
    pub const fn index(self) -> usize {
        INDEX_OF_BIT[self.0 as usize] as usize
    }

    /// The cell at cube coordinates `(q, r, s)`, or `None` unless `q + r + s = 0` and the
    /// cell lies on the board.
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!(Cell::from_cube(0, 0, 0), Some(Cell::THRONE));
    /// assert_eq!(Cell::from_cube(6, -6, 0), None);
    /// assert_eq!(Cell::from_cube(1, 1, 1), None);
    /// ```
    pub const fn from_cube(q: i8, r: i8, s: i8) -> Option<Cell> {
        if q as i16 + r as i16 + s as i16 != 0 || q < -5 || q > 5 || r < -5 || r > 5 {
            return None;
        }
        match bit_of(q, r) {
            Some(b) => Some(Cell(b)),
            None => None,
        }
    }

    /// The cube coordinates `(q, r, s)` of this cell.
    ///
    /// ```
    /// use agon_core::Cell;
    /// let l6: Cell = "l6".parse().unwrap();
    /// assert_eq!(l6.cube(), (5, -5, 0));
    /// ```
    pub const fn cube(self) -> (i8, i8, i8) {
        let q = (self.0 / 11) as i8 - 5;
        let r = 5 - (self.0 % 11) as i8;
        (q, r, -q - r)
    }

    /// The cell from its file (`0..11`, `a` to `l`) and rank (from 1 at the bottom).
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!(Cell::from_file_rank(5, 11).unwrap().to_string(), "f11");
    /// assert_eq!(Cell::from_file_rank(0, 7), None);
    /// ```
    pub const fn from_file_rank(file: u8, rank: u8) -> Option<Cell> {
        if file > 10 || rank == 0 || rank > 11 {
            return None;
        }
        let q = file as i8 - 5;
        let top = if q < 0 { 5 } else { 5 - q };
        let r = top - (rank as i8 - 1);
        if r < -5 {
            return None;
        }
        match bit_of(q, r) {
            Some(b) => Some(Cell(b)),
            None => None,
        }
    }

    /// The file of this cell, `0..11` (`a` = 0, ..., `l` = 10).
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!(Cell::THRONE.file(), 5);
    /// ```
    pub const fn file(self) -> u8 {
        self.0 / 11
    }

    /// The rank of this cell, counted from 1 at the bottom of its file.
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!(Cell::THRONE.rank(), 6);
    /// ```
    pub const fn rank(self) -> u8 {
        let (q, r, _) = self.cube();
        let top = if q < 0 { 5 } else { 5 - q };
        (top - r + 1) as u8
    }

    /// The ring of this cell: its distance from the throne.
    ///
    /// ```
    /// use agon_core::{Cell, Ring};
    /// let e5: Cell = "e5".parse().unwrap();
    /// assert_eq!(e5.ring(), Ring::new(1).unwrap());
    /// ```
    pub const fn ring(self) -> Ring {
        let (q, r, s) = self.cube();
        Ring(max3(abs(q), abs(r), abs(s)) as u8)
    }

    /// The adjacent cell in direction `d`, if it is on the board.
    ///
    /// ```
    /// use agon_core::{Cell, Direction};
    /// let f1: Cell = "f1".parse().unwrap();
    /// assert_eq!(f1.neighbour(Direction::South), None);
    /// assert_eq!(f1.neighbour(Direction::North).unwrap().to_string(), "f2");
    /// ```
    pub const fn neighbour(self, d: Direction) -> Option<Cell> {
        let n = NEIGHBOUR[self.0 as usize][d as usize];
        if n == 255 {
            None
        } else {
            Some(Cell(n))
        }
    }

    /// The adjacent cells (3, 4 or 6 of them).
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!(Cell::THRONE.neighbours().len(), 6);
    /// assert_eq!("a1".parse::<Cell>().unwrap().neighbours().len(), 3);
    /// ```
    pub const fn neighbours(self) -> CellSet {
        ADJACENT[self.0 as usize]
    }

    /// Whether `other` is adjacent to this cell.
    ///
    /// ```
    /// use agon_core::Cell;
    /// let (e5, f6): (Cell, Cell) = ("e5".parse().unwrap(), "f6".parse().unwrap());
    /// assert!(e5.is_adjacent(f6));
    /// assert!(!e5.is_adjacent(e5));
    /// ```
    pub const fn is_adjacent(self, other: Cell) -> bool {
        self.neighbours().contains(other)
    }

    /// The distance between two cells, in steps.
    ///
    /// ```
    /// use agon_core::Cell;
    /// let (a1, l6): (Cell, Cell) = ("a1".parse().unwrap(), "l6".parse().unwrap());
    /// assert_eq!(a1.distance(l6), 10);
    /// ```
    pub const fn distance(self, other: Cell) -> u8 {
        let (q1, r1, s1) = self.cube();
        let (q2, r2, s2) = other.cube();
        max3(abs(q1 - q2), abs(r1 - r2), abs(s1 - s2)) as u8
    }

    /// The middle cell `X` of a straight line `a, X, b` (`X - d, X, X + d`), if `a` and `b`
    /// are the two ends of one.
    ///
    /// ```
    /// use agon_core::Cell;
    /// let c = |s: &str| s.parse::<Cell>().unwrap();
    /// assert_eq!(Cell::between(c("e5"), c("g6")), Some(c("f6")));
    /// assert_eq!(Cell::between(c("e5"), c("f7")), None);
    /// ```
    pub const fn between(a: Cell, b: Cell) -> Option<Cell> {
        let (q1, r1, s1) = a.cube();
        let (q2, r2, s2) = b.cube();
        let (dq, dr, ds) = (q2 - q1, r2 - r1, s2 - s1);
        if dq % 2 != 0 || dr % 2 != 0 || ds % 2 != 0 {
            return None;
        }
        let (hq, hr, hs) = (dq / 2, dr / 2, ds / 2);
        if max3(abs(hq), abs(hr), abs(hs)) != 1 {
            return None;
        }
        Cell::from_cube(q1 + hq, r1 + hr, s1 + hs)
    }

    /// The straight lines centred on this cell: the pairs `(X - d, X + d)` that both lie on
    /// the board, for the three axes `d` (north, north-east, south-east).
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!(Cell::THRONE.lines().count(), 3);
    /// assert_eq!("a1".parse::<Cell>().unwrap().lines().count(), 0);
    /// ```
    pub fn lines(self) -> impl Iterator<Item = (Cell, Cell)> {
        [Direction::North, Direction::NorthEast, Direction::SouthEast]
            .into_iter()
            .filter_map(move |d| Some((self.neighbour(d.opposite())?, self.neighbour(d)?)))
    }

    /// All 91 cells in index order.
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!(Cell::all().count(), 91);
    /// assert_eq!(Cell::all().nth(45), Some(Cell::THRONE));
    /// ```
    pub fn all() -> impl DoubleEndedIterator<Item = Cell> + ExactSizeIterator + Clone {
        BIT_OF_INDEX.into_iter().map(Cell)
    }

    /// The internal bit position (0..121) of this cell in a [`CellSet`].
    pub(crate) const fn bit(self) -> u32 {
        self.0 as u32
    }

    /// The cell at an internal bit position known to be on the board.
    pub(crate) const fn from_bit(bit: u32) -> Cell {
        Cell(bit as u8)
    }

    /// Writes the name into `buf`, returning its length (2 or 3).
    pub(crate) fn write_name(self, buf: &mut [u8; 3]) -> usize {
        buf[0] = FILE_LETTERS[self.file() as usize];
        let rank = self.rank();
        if rank >= 10 {
            buf[1] = b'1';
            buf[2] = b'0' + rank - 10;
            3
        } else {
            buf[1] = b'0' + rank;
            2
        }
    }

    /// Parses a cell name at the start of `s`: returns the cell and the bytes used, or the
    /// error kind and the offset of the fault.
    pub(crate) fn parse_prefix(s: &[u8]) -> Result<(Cell, usize), (usize, crate::ParseErrorKind)> {
        use crate::ParseErrorKind as K;
        let file = match s.first() {
            Some(c) => match FILE_LETTERS.iter().position(|f| f == c) {
                Some(f) => f as u8,
                None => return Err((0, K::Expected("a file letter a-l (no j)"))),
            },
            None => return Err((0, K::Expected("a file letter a-l (no j)"))),
        };
        let mut len = 1;
        let mut rank: u32 = 0;
        while let Some(c) = s.get(len).filter(|c| c.is_ascii_digit()) {
            if len == 1 && *c == b'0' {
                return Err((1, K::Expected("a rank 1-11")));
            }
            rank = rank * 10 + u32::from(c - b'0');
            len += 1;
            if len > 3 {
                return Err((0, K::NoSuchCell));
            }
        }
        if len == 1 {
            return Err((1, K::Expected("a rank 1-11")));
        }
        match Cell::from_file_rank(file, rank.min(255) as u8) {
            Some(cell) => Ok((cell, len)),
            None => Err((0, K::NoSuchCell)),
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 3];
        let n = self.write_name(&mut buf);
        // The name is ASCII by construction.
        f.pad(core::str::from_utf8(&buf[..n]).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Cell {
    type Err = crate::ParseError;

    /// Parses a cell name: a file letter `a`-`l` (no `j`) and a rank without leading zero.
    fn from_str(s: &str) -> Result<Cell, crate::ParseError> {
        match Cell::parse_prefix(s.as_bytes()) {
            Ok((cell, n)) if n == s.len() => Ok(cell),
            Ok((_, n)) => Err(crate::ParseError::new(
                n,
                crate::ParseErrorKind::TrailingInput,
            )),
            Err((at, kind)) => Err(crate::ParseError::new(at, kind)),
        }
    }
}

impl Ring {
    /// Ring 0: the throne alone.
    pub const THRONE: Ring = Ring(0);
    /// Ring 1: the six cells around the throne, which a side's guards must all hold to end
    /// the game (R10).
    ///
    /// ```
    /// use agon_core::{Cell, Ring};
    /// assert_eq!(Ring::THRONE_RING.cells().len(), 6);
    /// assert!(Ring::THRONE_RING.cells().contains("f7".parse::<Cell>()?));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const THRONE_RING: Ring = Ring(1);
    /// Ring 5: the 30 cells of the outer ring.
    pub const OUTER: Ring = Ring(5);

    /// The ring at this distance from the centre, `0..=5`.
    ///
    /// ```
    /// use agon_core::Ring;
    /// assert_eq!(Ring::new(5), Some(Ring::OUTER));
    /// ```
    pub const fn new(distance: u8) -> Option<Ring> {
        if distance <= 5 {
            Some(Ring(distance))
        } else {
            None
        }
    }

    /// The distance of this ring from the centre.
    ///
    /// ```
    /// use agon_core::Ring;
    /// assert_eq!(Ring::OUTER.distance(), 5);
    /// ```
    pub const fn distance(self) -> u8 {
        self.0
    }

    /// The cells of this ring (1, 6, 12, 18, 24 or 30 of them).
    ///
    /// ```
    /// use agon_core::Ring;
    /// let sizes: Vec<usize> = (0..=5).map(|d| Ring::new(d).unwrap().cells().len()).collect();
    /// assert_eq!(sizes, [1, 6, 12, 18, 24, 30]);
    /// ```
    pub const fn cells(self) -> CellSet {
        RINGS[self.0 as usize]
    }
}

impl fmt::Display for Ring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ring {}", self.0)
    }
}

/// The cells of each ring.
const RINGS: [CellSet; 6] = {
    let mut t = [CellSet::EMPTY; 6];
    let mut i = 0;
    while i < CELL_COUNT {
        let c = Cell::from_index_const(i);
        let r = c.ring().0 as usize;
        t[r] = t[r].with(c);
        i += 1;
    }
    t
};

/// The adjacent cells of each bit.
const ADJACENT: [CellSet; 128] = {
    let mut t = [CellSet::EMPTY; 128];
    let mut bit = 0;
    while bit < 128 {
        let mut d = 0;
        while d < 6 {
            if NEIGHBOUR[bit][d] != 255 {
                t[bit] = t[bit].with(Cell(NEIGHBOUR[bit][d]));
            }
            d += 1;
        }
        bit += 1;
    }
    t
};

/// For each direction, the cells whose neighbour that way is on the board: the mask to
/// apply before shifting a whole set one step.
pub(crate) const HAS_NEIGHBOUR: [CellSet; 6] = {
    let mut t = [CellSet::EMPTY; 6];
    let mut i = 0;
    while i < CELL_COUNT {
        let c = Cell::from_index_const(i);
        let mut d = 0;
        while d < 6 {
            if NEIGHBOUR[c.0 as usize][d] != 255 {
                t[d] = t[d].with(c);
            }
            d += 1;
        }
        i += 1;
    }
    t
};
