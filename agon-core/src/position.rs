//! [`Position`]: where every piece stands, which are captured, and who is to move.

use crate::zobrist::{self, piece_key};
use crate::{Between, Cell, CellSet, Kind, Piece, Rules, Side};

/// A position: each piece's cell, side, kind and captured mark, and the side to move.
///
/// A `Position` is a small `Copy` value (four 128-bit cell sets, the side to move, the
/// Zobrist hash and the [`Rules`] it is played under). It is always valid: each side has
/// one queen and six guards, no guard stands on the throne, and all captured pieces belong
/// to one side (unless its rules trap pieces, [`Between::Trapped`]). The rules (legal
/// moves, playing a move, the end of the game) are its methods, all defined in one place
/// (`rules.rs`); they follow the position's rule set, the standard one unless
/// [`Position::with_rules`] chose another. The text form does not carry the rule set.
///
/// ```
/// use agon_core::{Cell, Kind, Position, Side};
///
/// let pos = Position::start();
/// assert_eq!(pos.turn(), Side::White);
/// assert_eq!(pos.occupied().len(), 14);
/// let f1: Cell = "f1".parse()?;
/// assert_eq!(pos.piece_at(f1).map(|p| p.kind), Some(Kind::Queen));
/// assert_eq!(pos.to_string().lines().next(), Some("                             f11q"));
/// # Ok::<(), agon_core::ParseError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Position {
    /// All pieces of each side, captured or not.
    pub(crate) sides: [CellSet; 2],
    /// Both queens.
    pub(crate) queens: CellSet,
    /// Captured pieces (all of one side).
    pub(crate) captured: CellSet,
    pub(crate) turn: Side,
    /// The rule set its moves and outcome follow (not part of the hash).
    pub(crate) rules: Rules,
    pub(crate) hash: u64,
}

/// Why a set of pieces is not a position that can arise in Agon.
///
/// ```
/// use agon_core::{Cell, CellSet, Position, PositionError, Side};
///
/// let start = Position::start();
/// let mut pieces: Vec<_> = start.pieces().collect();
/// pieces.pop();
/// let err = Position::from_parts(Side::White, pieces, CellSet::EMPTY).unwrap_err();
/// assert_eq!(err, PositionError::PieceCount(Side::White)); // l5 was last
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// Two pieces were placed on one cell.
    #[error("two pieces on {0}")]
    TwoPiecesOnCell(Cell),
    /// A guard was placed on the throne, where only a queen may stand.
    #[error("a guard on the throne")]
    GuardOnThrone,
    /// The side does not have exactly one queen and six guards.
    #[error("{0} does not have exactly one queen and six guards")]
    PieceCount(Side),
    /// A cell marked captured holds no piece.
    #[error("{0} is marked captured but holds no piece")]
    CapturedEmptyCell(Cell),
    /// Both sides have captured pieces, which only rules that trap pieces can reach.
    #[error("both sides have captured pieces")]
    CapturedBothSides,
}

impl PositionError {
    /// A short lowercase name of the reason, stable for programs to match on:
    /// `two-pieces-on-cell`, `guard-on-throne`, `piece-count`, `captured-empty-cell`,
    /// `captured-both-sides`.
    ///
    /// ```
    /// use agon_core::PositionError;
    /// assert_eq!(PositionError::GuardOnThrone.name(), "guard-on-throne");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            PositionError::TwoPiecesOnCell(_) => "two-pieces-on-cell",
            PositionError::GuardOnThrone => "guard-on-throne",
            PositionError::PieceCount(_) => "piece-count",
            PositionError::CapturedEmptyCell(_) => "captured-empty-cell",
            PositionError::CapturedBothSides => "captured-both-sides",
        }
    }
}

/// The start position, built at compile time.
const START: Position = {
    Position::from_placement_const(
        Side::White,
        // White: queen f1; guards b1, k1, a5, l5, d9, h9.
        [40, 6, 78, 4, 89, 29, 69],
        // Black: queen f11; guards d1, h1, a2, l2, b7, k7.
        [50, 21, 61, 1, 86, 12, 84],
    )
};

impl Position {
    /// The start position of RULES.md section 2: all fourteen pieces on the outer ring,
    /// White to move.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().to_text(), "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w");
    /// ```
    pub const fn start() -> Position {
        START
    }

    /// The start position under `rules`.
    ///
    /// ```
    /// use agon_core::{Position, Rules};
    /// let pos = Position::start_with_rules(Rules::LUDII);
    /// assert_eq!(pos.rules(), Rules::LUDII);
    /// assert_eq!(pos.to_text().to_string(), Position::start().to_text().to_string());
    /// ```
    pub const fn start_with_rules(rules: Rules) -> Position {
        let mut pos = START;
        pos.rules = rules;
        pos
    }

    /// The rule set this position's moves and outcome follow.
    ///
    /// ```
    /// use agon_core::{Position, Rules};
    /// assert_eq!(Position::start().rules(), Rules::STANDARD);
    /// ```
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    /// The same pieces under `rules`. Fails only when both sides have captured pieces and
    /// `rules` do not trap pieces ([`Between::Trapped`]): no game under them reaches that.
    ///
    /// ```
    /// use agon_core::{Position, Rules};
    /// let pos = Position::start().with_rules(Rules::LUDII)?;
    /// assert_eq!(pos.rules(), Rules::LUDII);
    /// assert_eq!(pos.hash(), Position::start().hash());
    /// # Ok::<(), agon_core::PositionError>(())
    /// ```
    pub fn with_rules(&self, rules: Rules) -> Result<Position, PositionError> {
        let both =
            self.captured.intersects(self.sides[0]) && self.captured.intersects(self.sides[1]);
        if both && rules.between() != Between::Trapped {
            return Err(PositionError::CapturedBothSides);
        }
        let mut pos = *self;
        pos.rules = rules;
        Ok(pos)
    }

    /// Builds the position from cell indices (queen first, then six guards) of each side.
    const fn from_placement_const(turn: Side, white: [usize; 7], black: [usize; 7]) -> Position {
        let mut pos = Position {
            sides: [CellSet::EMPTY; 2],
            queens: CellSet::EMPTY,
            captured: CellSet::EMPTY,
            turn,
            rules: Rules::STANDARD,
            hash: 0,
        };
        let lists = [white, black];
        let mut s = 0;
        while s < 2 {
            let side = if s == 0 { Side::White } else { Side::Black };
            let mut i = 0;
            while i < 7 {
                let cell = match Cell::from_index(lists[s][i]) {
                    Some(c) => c,
                    None => panic!("bad start cell"),
                };
                let kind = if i == 0 { Kind::Queen } else { Kind::Guard };
                pos.sides[s] = pos.sides[s].with(cell);
                if i == 0 {
                    pos.queens = pos.queens.with(cell);
                }
                pos.hash ^= piece_key(side, kind, false, cell);
                i += 1;
            }
            s += 1;
        }
        pos
    }

    /// Builds a position from its parts, validating it.
    ///
    /// `pieces` lists every piece with its cell; `captured` marks the captured ones.
    /// Rejects, with the reason, what no game can reach: two pieces on a cell, a guard on
    /// the throne, a side without exactly one queen and six guards, a captured mark on an
    /// empty cell, captured pieces of both sides. The position follows the standard rules;
    /// [`Position::from_parts_with_rules`] takes a rule set.
    ///
    /// ```
    /// use agon_core::{Cell, CellSet, Kind, Piece, Position, PositionError, Side};
    ///
    /// let start = Position::start();
    /// let same = Position::from_parts(Side::White, start.pieces(), CellSet::EMPTY)?;
    /// assert_eq!(same, start);
    ///
    /// // Move White's queen onto Black's queen's cell.
    /// let f11: Cell = "f11".parse().unwrap();
    /// let pieces = start.pieces().map(|(c, p)| {
    ///     if p == Piece::new(Side::White, Kind::Queen) { (f11, p) } else { (c, p) }
    /// });
    /// assert_eq!(
    ///     Position::from_parts(Side::White, pieces, CellSet::EMPTY),
    ///     Err(PositionError::TwoPiecesOnCell(f11))
    /// );
    /// # Ok::<(), PositionError>(())
    /// ```
    pub fn from_parts<I>(
        turn: Side,
        pieces: I,
        captured: CellSet,
    ) -> Result<Position, PositionError>
    where
        I: IntoIterator<Item = (Cell, Piece)>,
    {
        Position::from_parts_with_rules(Rules::STANDARD, turn, pieces, captured)
    }

    /// [`Position::from_parts`] under `rules`: captured pieces of both sides are valid only
    /// when `rules` trap pieces ([`Between::Trapped`]).
    ///
    /// ```
    /// use agon_core::{Between, CellSet, Position, PositionError, Rules, Side};
    /// let start = Position::start();
    /// let both: CellSet = ["f1", "f11"].iter().map(|c| c.parse().unwrap()).collect();
    /// let err = Position::from_parts(Side::White, start.pieces(), both).unwrap_err();
    /// assert_eq!(err, PositionError::CapturedBothSides);
    /// let trapped = Rules::STANDARD.with_between(Between::Trapped);
    /// let pos = Position::from_parts_with_rules(trapped, Side::White, start.pieces(), both)?;
    /// assert_eq!(pos.captured(), both);
    /// # Ok::<(), PositionError>(())
    /// ```
    pub fn from_parts_with_rules<I>(
        rules: Rules,
        turn: Side,
        pieces: I,
        captured: CellSet,
    ) -> Result<Position, PositionError>
    where
        I: IntoIterator<Item = (Cell, Piece)>,
    {
        let mut sides = [CellSet::EMPTY; 2];
        let mut queens = CellSet::EMPTY;
        let mut counts = [[0usize; 2]; 2];
        for (cell, piece) in pieces {
            if (sides[0] | sides[1]).contains(cell) {
                return Err(PositionError::TwoPiecesOnCell(cell));
            }
            if cell == Cell::THRONE && piece.kind == Kind::Guard {
                return Err(PositionError::GuardOnThrone);
            }
            sides[piece.side.index()].insert(cell);
            if piece.kind == Kind::Queen {
                queens.insert(cell);
            }
            counts[piece.side.index()][piece.kind as usize] += 1;
        }
        for side in Side::ALL {
            if counts[side.index()] != [1, 6] {
                return Err(PositionError::PieceCount(side));
            }
        }
        if let Some(cell) = (captured - (sides[0] | sides[1])).first() {
            return Err(PositionError::CapturedEmptyCell(cell));
        }
        let mut pos = Position {
            sides,
            queens,
            captured,
            turn,
            rules: Rules::STANDARD,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
        pos.with_rules(rules)
    }

    /// The Zobrist hash computed from every piece, ignoring the stored value.
    pub(crate) fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.turn == Side::Black {
            zobrist::BLACK_TO_MOVE
        } else {
            0
        };
        for (cell, piece) in self.pieces() {
            h ^= piece_key(piece.side, piece.kind, self.captured.contains(cell), cell);
        }
        h
    }

    /// The side to move.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// assert_eq!(Position::start().turn(), Side::White);
    /// ```
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The 64-bit Zobrist hash of the position. It covers every piece's cell, side, kind
    /// and captured mark and the side to move, and [`Position::play`] keeps it up to date
    /// incrementally. The keys are fixed, so hashes are stable across runs.
    ///
    /// ```
    /// use agon_core::Position;
    /// let start = Position::start();
    /// let m = start.legal_moves()[0];
    /// assert_ne!(start.play(m).unwrap().hash(), start.hash());
    /// ```
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// The cells holding a piece, captured or not.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().occupied().len(), 14);
    /// ```
    pub const fn occupied(&self) -> CellSet {
        self.sides[0].union(self.sides[1])
    }

    /// The empty cells.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().empty().len(), 77);
    /// ```
    pub fn empty(&self) -> CellSet {
        !self.occupied()
    }

    /// The cells of `side`'s pieces, captured or not.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// assert_eq!(Position::start().pieces_of(Side::Black).len(), 7);
    /// ```
    pub const fn pieces_of(&self, side: Side) -> CellSet {
        self.sides[side as usize]
    }

    /// The cell of `side`'s queen.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// assert_eq!(Position::start().queen(Side::Black).to_string(), "f11");
    /// ```
    pub fn queen(&self, side: Side) -> Cell {
        match (self.queens & self.sides[side.index()]).first() {
            Some(cell) => cell,
            None => unreachable!("a valid position has a queen of each side"),
        }
    }

    /// The cells of `side`'s guards, captured or not.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// assert_eq!(Position::start().guards(Side::White).len(), 6);
    /// ```
    pub fn guards(&self, side: Side) -> CellSet {
        self.sides[side.index()] - self.queens
    }

    /// The cells of both queens.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().queens().len(), 2);
    /// ```
    pub const fn queens(&self) -> CellSet {
        self.queens
    }

    /// The cells of captured pieces (all of one side, if any).
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(Position::start().captured().is_empty());
    /// ```
    pub const fn captured(&self) -> CellSet {
        self.captured
    }

    /// The side whose pieces are captured, if any is. When both are (only under
    /// [`Between::Trapped`]), the side to move, which returns its own first.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().captured_side(), None);
    /// ```
    pub fn captured_side(&self) -> Option<Side> {
        if self.captured.intersects(self.sides[self.turn.index()]) {
            return Some(self.turn);
        }
        self.captured
            .intersects(self.sides[self.turn.other().index()])
            .then(|| self.turn.other())
    }

    /// Whether the piece on `cell` is captured (false for an empty cell).
    ///
    /// ```
    /// use agon_core::{Cell, Position};
    /// assert!(!Position::start().is_captured(Cell::THRONE));
    /// ```
    pub const fn is_captured(&self, cell: Cell) -> bool {
        self.captured.contains(cell)
    }

    /// The piece on `cell`, if any (captured or not).
    ///
    /// ```
    /// use agon_core::{Cell, Kind, Piece, Position, Side};
    /// let pos = Position::start();
    /// assert_eq!(pos.piece_at("d1".parse()?), Some(Piece::new(Side::Black, Kind::Guard)));
    /// assert_eq!(pos.piece_at(Cell::THRONE), None);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let side = if self.sides[0].contains(cell) {
            Side::White
        } else if self.sides[1].contains(cell) {
            Side::Black
        } else {
            return None;
        };
        let kind = if self.queens.contains(cell) {
            Kind::Queen
        } else {
            Kind::Guard
        };
        Some(Piece::new(side, kind))
    }

    /// Every piece with its cell, in cell index order.
    ///
    /// ```
    /// use agon_core::Position;
    /// let (cell, piece) = Position::start().pieces().next().unwrap();
    /// assert_eq!((cell.to_string(), piece.char()), ("a2".to_string(), 'g'));
    /// ```
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.occupied()
            .into_iter()
            .filter_map(move |c| Some((c, self.piece_at(c)?)))
    }

    /// The same position with the other side to move (a null move, for analysis; it is not
    /// an action of the game).
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// assert_eq!(Position::start().with_turn(Side::Black).turn(), Side::Black);
    /// ```
    #[must_use]
    pub fn with_turn(&self, turn: Side) -> Position {
        let mut pos = *self;
        if pos.turn != turn {
            pos.turn = turn;
            pos.hash ^= zobrist::BLACK_TO_MOVE;
        }
        pos
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl core::hash::Hash for Position {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        // The Zobrist hash is a function of the fields that define equality.
        state.write_u64(self.hash);
    }
}
