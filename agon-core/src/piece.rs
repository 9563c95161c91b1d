//! Sides and pieces.

use core::fmt;
use core::ops::Not;

/// One of the two players. White moves first.
///
/// ```
/// use agon_core::Side;
/// assert_eq!(!Side::White, Side::Black);
/// assert_eq!(Side::Black.to_string(), "Black");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Side {
    /// The side that moves first; its pieces start on f1, b1, k1, a5, l5, d9, h9.
    White = 0,
    /// The second side; its pieces start on f11, d1, h1, a2, l2, b7, k7.
    Black = 1,
}

impl Side {
    /// Both sides, White first.
    pub const ALL: [Side; 2] = [Side::White, Side::Black];

    /// The opponent.
    ///
    /// ```
    /// use agon_core::Side;
    /// assert_eq!(Side::White.other(), Side::Black);
    /// ```
    pub const fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for White, 1 for Black.
    ///
    /// ```
    /// use agon_core::Side;
    /// assert_eq!(Side::Black.index(), 1);
    /// ```
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side's letter in position text: `w` or `b`.
    ///
    /// ```
    /// use agon_core::Side;
    /// assert_eq!(Side::White.char(), 'w');
    /// ```
    pub const fn char(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }

    /// The side from its letter `w` or `b`.
    ///
    /// ```
    /// use agon_core::Side;
    /// assert_eq!(Side::from_char('b'), Some(Side::Black));
    /// assert_eq!(Side::from_char('W'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Side> {
        match c {
            'w' => Some(Side::White),
            'b' => Some(Side::Black),
            _ => None,
        }
    }
    /// The side's lower-case name, the one every layer writes (datasets, the web API,
    /// the conformance data): `white` or `black`.
    ///
    /// ```
    /// use agon_core::Side;
    /// assert_eq!(Side::Black.name(), "black");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// The side named `name` ([`Side::name`]).
    ///
    /// ```
    /// use agon_core::Side;
    /// assert_eq!(Side::from_name("white"), Some(Side::White));
    /// assert_eq!(Side::from_name("White"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|s| s.name() == name)
    }
}

impl Not for Side {
    type Output = Side;
    fn not(self) -> Side {
        self.other()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}

/// The kind of a piece: each side has one queen and six guards.
///
/// ```
/// use agon_core::Kind;
/// assert_eq!(Kind::Queen.to_string(), "queen");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Kind {
    /// The queen: the only piece that may enter the throne.
    Queen = 0,
    /// A guard.
    Guard = 1,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            Kind::Queen => "queen",
            Kind::Guard => "guard",
        })
    }
}

/// A piece: a side and a kind.
///
/// Its letter is `Q`/`G` for White and `q`/`g` for Black, as in the diagrams.
///
/// ```
/// use agon_core::{Kind, Piece, Side};
/// let p = Piece::new(Side::Black, Kind::Guard);
/// assert_eq!(p.char(), 'g');
/// assert_eq!(Piece::from_char('Q'), Some(Piece::new(Side::White, Kind::Queen)));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Piece {
    /// The side the piece belongs to.
    pub side: Side,
    /// Queen or guard.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `side` and `kind`.
    ///
    /// ```
    /// use agon_core::{Kind, Piece, Side};
    /// assert_eq!(Piece::new(Side::White, Kind::Queen).to_string(), "White queen");
    /// ```
    pub const fn new(side: Side, kind: Kind) -> Piece {
        Piece { side, kind }
    }

    /// The letter of the piece: `Q`, `G`, `q` or `g`.
    ///
    /// ```
    /// use agon_core::{Kind, Piece, Side};
    /// assert_eq!(Piece::new(Side::White, Kind::Guard).char(), 'G');
    /// ```
    pub const fn char(self) -> char {
        match (self.side, self.kind) {
            (Side::White, Kind::Queen) => 'Q',
            (Side::White, Kind::Guard) => 'G',
            (Side::Black, Kind::Queen) => 'q',
            (Side::Black, Kind::Guard) => 'g',
        }
    }

    /// The piece from its letter.
    ///
    /// ```
    /// use agon_core::Piece;
    /// assert_eq!(Piece::from_char('x'), None);
    /// ```
    pub const fn from_char(c: char) -> Option<Piece> {
        match c {
            'Q' => Some(Piece::new(Side::White, Kind::Queen)),
            'G' => Some(Piece::new(Side::White, Kind::Guard)),
            'q' => Some(Piece::new(Side::Black, Kind::Queen)),
            'g' => Some(Piece::new(Side::Black, Kind::Guard)),
            _ => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.side, self.kind)
    }
}
