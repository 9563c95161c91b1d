//! The rules of Agon (RULES.md sections 3 to 6) as methods of [`Position`]: legal moves,
//! playing a move, captures and returns, and the end of the game.
//!
//! Each rule lives here once; every other part of the crate (games, notation, perft, the
//! bindings) calls these methods. Comments name the rule (R1 to R12) they implement.

use crate::zobrist::{self, piece_key};
use crate::{
    Between, Cell, CellSet, Direction, EmptyThroneRing, EndReason, GuardReturn, Kind, Move,
    MoveList, MoveSet, Outcome, Position, QueenPlacer, QueenReturn, Ring, Side, Stuck, CELL_COUNT,
};

/// Why a move is illegal in a position.
///
/// [`Position::play`] reports the first rule the move breaks, checked in the order of the
/// variants below (after [`IllegalMove::GameOver`], the steps' checks, then the returns',
/// then the passes').
///
/// ```
/// use agon_core::{IllegalMove, Position};
///
/// let pos = Position::start();
/// assert_eq!(pos.play("f1-f3".parse()?), Err(IllegalMove::NotAdjacent));
/// assert_eq!(pos.play("f11-f10".parse()?), Err(IllegalMove::NotYourPiece));
/// assert_eq!(pos.play("f1>f2".parse()?), Err(IllegalMove::NotCaptured));
/// # Ok::<(), agon_core::ParseError>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game is over: a side's guards hold the throne ring (R10).
    #[error("the game is over")]
    GameOver,
    /// There is no piece on the `from` cell.
    #[error("there is no piece on the cell moved from")]
    NoPiece,
    /// The piece on the `from` cell belongs to the opponent.
    #[error("not your piece")]
    NotYourPiece,
    /// The side to move has a captured piece and must return it instead of stepping (R2).
    #[error("a captured piece must be returned first")]
    MustReturn,
    /// A step goes to a cell that is not adjacent (R2: no piece jumps).
    #[error("the cells are not adjacent")]
    NotAdjacent,
    /// A step goes to the next ring outward (R2).
    #[error("no piece moves outward")]
    Outward,
    /// The destination holds a piece (R2, R8).
    #[error("the cell is occupied")]
    Occupied,
    /// A guard steps onto the throne (R3).
    #[error("the throne is for queens")]
    ThroneForQueens,
    /// The destination lies between two enemy pieces on a straight line (R4).
    #[error("the cell lies between two enemy pieces")]
    BetweenEnemies,
    /// A return names a piece that is not captured (R8).
    #[error("only a captured piece can be returned")]
    NotCaptured,
    /// A guard is returned while the queen is captured (R8).
    #[error("the queen returns before guards")]
    QueenFirst,
    /// A guard is returned to a cell off the outer ring (R8).
    #[error("a guard returns to the outer ring")]
    GuardToOuterRing,
    /// A guard is returned to a cell off the ring just outside its own, or the nearest
    /// ring farther out with an empty cell ([`GuardReturn::NextRing`]).
    #[error("a guard returns to the ring just outside its cell")]
    GuardToNextRing,
    /// The queen is returned to the throne where the rules forbid it
    /// ([`QueenReturn::NotThrone`]).
    #[error("the queen may not return to the throne")]
    QueenToThrone,
    /// A pass in a rule set without passes ([`Stuck::Loses`]).
    #[error("these rules have no pass")]
    NoPass,
    /// A pass while another action exists ([`Stuck::Pass`] allows it only without one).
    #[error("a side passes only when it has no other action")]
    PassWithActions,
}

impl IllegalMove {
    /// Every reason, in the order of the enum (so that a program can list the names a
    /// move may be refused with, as the web game's API document does).
    ///
    /// ```
    /// use agon_core::IllegalMove;
    /// assert_eq!(IllegalMove::ALL.len(), 16);
    /// assert_eq!(IllegalMove::ALL[0], IllegalMove::GameOver);
    /// ```
    pub const ALL: [IllegalMove; 16] = [
        IllegalMove::GameOver,
        IllegalMove::NoPiece,
        IllegalMove::NotYourPiece,
        IllegalMove::MustReturn,
        IllegalMove::NotAdjacent,
        IllegalMove::Outward,
        IllegalMove::Occupied,
        IllegalMove::ThroneForQueens,
        IllegalMove::BetweenEnemies,
        IllegalMove::NotCaptured,
        IllegalMove::QueenFirst,
        IllegalMove::GuardToOuterRing,
        IllegalMove::GuardToNextRing,
        IllegalMove::QueenToThrone,
        IllegalMove::NoPass,
        IllegalMove::PassWithActions,
    ];

    /// A short lowercase name of the reason, stable for programs to match on (the
    /// bindings use it): `game-over`, `no-piece`, `not-your-piece`, `must-return`,
    /// `not-adjacent`, `outward`, `occupied`, `throne-for-queens`, `between-enemies`,
    /// `not-captured`, `queen-first`, `guard-to-outer-ring`, `guard-to-next-ring`,
    /// `queen-to-throne`, `no-pass`, `pass-with-actions`.
    ///
    /// ```
    /// use agon_core::IllegalMove;
    /// assert_eq!(IllegalMove::BetweenEnemies.name(), "between-enemies");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            IllegalMove::GameOver => "game-over",
            IllegalMove::NoPiece => "no-piece",
            IllegalMove::NotYourPiece => "not-your-piece",
            IllegalMove::MustReturn => "must-return",
            IllegalMove::NotAdjacent => "not-adjacent",
            IllegalMove::Outward => "outward",
            IllegalMove::Occupied => "occupied",
            IllegalMove::ThroneForQueens => "throne-for-queens",
            IllegalMove::BetweenEnemies => "between-enemies",
            IllegalMove::NotCaptured => "not-captured",
            IllegalMove::QueenFirst => "queen-first",
            IllegalMove::GuardToOuterRing => "guard-to-outer-ring",
            IllegalMove::GuardToNextRing => "guard-to-next-ring",
            IllegalMove::QueenToThrone => "queen-to-throne",
            IllegalMove::NoPass => "no-pass",
            IllegalMove::PassWithActions => "pass-with-actions",
        }
    }
}

const RING1: CellSet = Ring::THRONE_RING.cells();

// The rules' tables, computed at compile time from the board's geometry (crate::cell),
// indexed by a cell's bit.

/// Step destinations of a piece on each bit, before occupancy: adjacent cells in the same
/// ring or the next ring inward, without the throne (R2, R3).
const STEP_TARGETS: [CellSet; 128] = {
    let mut t = [CellSet::EMPTY; 128];
    let mut i = 0;
    while i < CELL_COUNT {
        if let Some(from) = Cell::from_index(i) {
            let mut d = 0;
            while d < 6 {
                if let Some(to) = from.neighbour(Direction::ALL[d]) {
                    let (ring, inward) = (from.ring().distance(), to.ring().distance());
                    if inward <= ring && inward != 0 {
                        t[from.bit() as usize] = t[from.bit() as usize].with(to);
                    }
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
};

/// Step destinations of a queen on each bit: as [`STEP_TARGETS`], plus the throne from
/// ring 1 (R3).
const QUEEN_STEP_TARGETS: [CellSet; 128] = {
    let mut t = STEP_TARGETS;
    let mut d = 0;
    while d < 6 {
        if let Some(from) = Cell::THRONE.neighbour(Direction::ALL[d]) {
            t[from.bit() as usize] = t[from.bit() as usize].with(Cell::THRONE);
        }
        d += 1;
    }
    t
};

/// For each bit, the cells from which a step (of a guard, or of a queen off ring 1)
/// reaches it: [`STEP_TARGETS`] read backwards. A queen on ring 1 also reaches the throne
/// ([`QUEEN_STEP_TARGETS`]), which no entry here holds.
const STEP_SOURCES: [CellSet; 128] = {
    let mut t = [CellSet::EMPTY; 128];
    let mut i = 0;
    while i < CELL_COUNT {
        if let Some(from) = Cell::from_index(i) {
            let mut j = 0;
            while j < CELL_COUNT {
                if let Some(to) = Cell::from_index(j) {
                    if STEP_TARGETS[from.bit() as usize].contains(to) {
                        t[to.bit() as usize] = t[to.bit() as usize].with(from);
                    }
                }
                j += 1;
            }
        }
        i += 1;
    }
    t
};

/// For each bit and direction, the bits of the two cells `X + d` and `X + 2d` a step to
/// `X` may capture with (R5), or 255 where the line leaves the board.
const CAPTURE_LINES: [[(u8, u8); 6]; 128] = {
    let mut t = [[(255u8, 255u8); 6]; 128];
    let mut i = 0;
    while i < CELL_COUNT {
        if let Some(x) = Cell::from_index(i) {
            let mut d = 0;
            while d < 6 {
                let dir = Direction::ALL[d];
                if let Some(n) = x.neighbour(dir) {
                    if let Some(n2) = n.neighbour(dir) {
                        t[x.bit() as usize][d] = (n.bit() as u8, n2.bit() as u8);
                    }
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
};

/// [`CAPTURE_LINES`] with only the lines whose three cells lie in one ring
/// ([`crate::Capture::SameRing`]).
const SAME_RING_CAPTURE_LINES: [[(u8, u8); 6]; 128] = {
    let mut t = CAPTURE_LINES;
    let mut i = 0;
    while i < CELL_COUNT {
        if let Some(x) = Cell::from_index(i) {
            let mut d = 0;
            while d < 6 {
                let (n, n2) = t[x.bit() as usize][d];
                if n != 255 {
                    let ring = x.ring().distance();
                    let same = Cell::from_bit(n as u32).ring().distance() == ring
                        && Cell::from_bit(n2 as u32).ring().distance() == ring;
                    if !same {
                        t[x.bit() as usize][d] = (255, 255);
                    }
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
};

/// The capture lines of each value of V1, in [`crate::Capture::ALL`] order.
const CAPTURE_TABLES: [[[(u8, u8); 6]; 128]; 2] = [CAPTURE_LINES, SAME_RING_CAPTURE_LINES];

/// The capture lines of [`CAPTURE_TABLES`] as sets, one per value of V1 and direction:
/// the cells `X` where a piece arriving may capture on `X + d` with a partner on `X + 2d`.
/// They let the captures of many steps be found with a few whole-set operations.
const CAPTURE_FROM: [[CellSet; 6]; 2] = {
    let mut t = [[CellSet::EMPTY; 6]; 2];
    let mut v = 0;
    while v < 2 {
        let mut i = 0;
        while i < CELL_COUNT {
            if let Some(x) = Cell::from_index(i) {
                let mut d = 0;
                while d < 6 {
                    if CAPTURE_TABLES[v][x.bit() as usize][d].0 != 255 {
                        t[v][d] = t[v][d].with(x);
                    }
                    d += 1;
                }
            }
            i += 1;
        }
        v += 1;
    }
    t
};

const OUTER: CellSet = Ring::OUTER.cells();

/// The cells of each ring, by distance from the throne.
const RINGS: [CellSet; 6] = {
    let mut t = [CellSet::EMPTY; 6];
    let mut d = 0;
    while d < 6 {
        if let Some(ring) = Ring::new(d as u8) {
            t[d] = ring.cells();
        }
        d += 1;
    }
    t
};

impl Position {
    /// The side whose guards hold all six cells of ring 1, if one does (R10). The game is
    /// then over: that side wins if its queen is on the throne and loses otherwise.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().throne_ring_side(), None);
    /// ```
    #[inline]
    pub fn throne_ring_side(&self) -> Option<Side> {
        let guards = self.occupied() - self.queens;
        if !RING1.is_subset(guards) {
            return None;
        }
        Side::ALL
            .into_iter()
            .find(|&s| RING1.is_subset(self.sides[s.index()]))
    }

    /// The end of the game in this position, if it is over: the throne ring (R10; a draw
    /// instead of a loss under [`EmptyThroneRing::Draw`]), then the side to move having no
    /// legal action (R12; under [`Stuck::Pass`] it passes instead). Repetition (R11), the
    /// two-pass draw and the move limit need the game's history: see
    /// [`crate::Game::outcome`].
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().outcome(), None);
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(side) = self.throne_ring_side() {
            return Some(if self.queen(side) == Cell::THRONE {
                Outcome::win(side, EndReason::Throne)
            } else if self.rules.empty_throne_ring() == EmptyThroneRing::Draw {
                Outcome::drawn(EndReason::RingWithoutQueen)
            } else {
                Outcome::win(side.other(), EndReason::RingWithoutQueen)
            });
        }
        if !self.has_legal_move() {
            return Some(Outcome::win(self.turn.other(), EndReason::NoLegalAction));
        }
        None
    }

    /// Whether the game is over in this position ([`Position::outcome`] is `Some`).
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(!Position::start().is_over());
    /// ```
    pub fn is_over(&self) -> bool {
        self.throne_ring_side().is_some() || !self.has_legal_move()
    }

    /// Whether the side to move has captured pieces and so must return one (R2, R8).
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(!Position::start().must_return());
    /// ```
    #[inline]
    pub const fn must_return(&self) -> bool {
        self.captured.intersects(self.sides[self.turn as usize])
    }

    /// The cells between two opponent pieces of `side` on a straight line, captured pieces
    /// included: `side` may not step there (R4), or, under [`Between::Trapped`], its piece
    /// stepping there is captured unless the step captures; under [`Between::Allowed`] they
    /// mean nothing.
    ///
    /// ```
    /// use agon_core::{Position, Side};
    /// assert!(Position::start().forbidden_cells(Side::White).is_empty());
    /// ```
    #[inline]
    pub fn forbidden_cells(&self, side: Side) -> CellSet {
        let opp = self.sides[side.other().index()];
        let mut forbidden = CellSet::EMPTY;
        for d in [Direction::North, Direction::NorthEast, Direction::SouthEast] {
            forbidden |= opp.shift(d) & opp.shift(d.opposite());
        }
        forbidden
    }

    /// The one description of what the side to move may do: calls `visit(from, targets,
    /// is_return)` for each of its pieces that may act, with the cells it may go to. Steps
    /// (R2, R3, R4 as V2 sets it) unless the side has captured pieces, which it must return
    /// (R8, V3, V4); nothing once the throne ring is complete (R10). Returns whether the
    /// side passes instead (V7: no piece may act and the rules pass). Every legal-move
    /// function is built on it.
    #[inline(always)]
    fn visit_actions(&self, visit: impl FnMut(Cell, CellSet, bool)) -> bool {
        if self.throne_ring_side().is_some() {
            return false;
        }
        if self.rules.position_rules_are_standard() {
            // R1-R12 exactly, without a test of any option: the speed of the default.
            self.visit_standard_actions(visit);
            return false;
        }
        self.visit_variant_actions(visit)
    }

    /// [`Position::visit_actions`] under the standard rules (R2, R3, R4, R8).
    #[inline(always)]
    fn visit_standard_actions(&self, mut visit: impl FnMut(Cell, CellSet, bool)) {
        if self.must_return() {
            let (pieces, kind) = self.returnable();
            let targets = match kind {
                Kind::Queen => self.empty(),
                Kind::Guard => self.empty() & OUTER,
            };
            for from in pieces {
                visit(from, targets, true);
            }
        } else {
            let allowed = self.empty() - self.forbidden_cells(self.turn);
            let own = self.sides[self.turn.index()];
            let queen = (own & self.queens).first();
            for from in own {
                let reach = if Some(from) == queen {
                    QUEEN_STEP_TARGETS[from.bit() as usize]
                } else {
                    STEP_TARGETS[from.bit() as usize]
                };
                visit(from, reach & allowed, false);
            }
        }
    }

    /// [`Position::visit_actions`] under any rule set (V2 to V5, V7). Out of line, so the
    /// standard path stays as small as it was.
    #[inline(never)]
    fn visit_variant_actions(&self, mut visit: impl FnMut(Cell, CellSet, bool)) -> bool {
        if self.must_return() {
            let (pieces, kind) = self.returnable();
            if kind == Kind::Guard && self.rules.guard_return() == GuardReturn::NextRing {
                for from in pieces {
                    visit(from, self.next_ring_targets(from), true);
                }
            } else {
                let targets = self.return_targets(kind);
                for from in pieces {
                    visit(from, targets, true);
                }
            }
            // A return always has an empty cell to go to.
            false
        } else {
            let mut allowed = self.empty();
            if self.rules.between() == Between::Forbidden {
                allowed = allowed - self.forbidden_cells(self.turn);
            }
            let own = self.sides[self.turn.index()];
            let queen = (own & self.queens).first();
            let mut any = CellSet::EMPTY;
            for from in own {
                let reach = if Some(from) == queen {
                    QUEEN_STEP_TARGETS[from.bit() as usize]
                } else {
                    STEP_TARGETS[from.bit() as usize]
                };
                any |= reach & allowed;
                visit(from, reach & allowed, false);
            }
            any.is_empty() && self.rules.stuck() == Stuck::Pass
        }
    }

    /// The cells a captured queen may be returned to, or a captured guard under the
    /// standard R8 (see [`Position::next_ring_targets`] for V3's `next-ring`).
    #[inline]
    fn return_targets(&self, kind: Kind) -> CellSet {
        match kind {
            Kind::Queen if self.rules.queen_return() == QueenReturn::NotThrone => {
                self.empty().without(Cell::THRONE)
            }
            Kind::Queen => self.empty(),
            Kind::Guard => self.empty() & OUTER,
        }
    }

    /// V3 `next-ring`: the empty cells of the ring just outside the one of `from` (ring 5
    /// for ring 5), or of the nearest ring farther out that has an empty cell.
    fn next_ring_targets(&self, from: Cell) -> CellSet {
        let empty = self.empty();
        let first = (from.ring().distance() + 1).min(Ring::OUTER.distance());
        RINGS[usize::from(first)..]
            .iter()
            .map(|&ring| ring & empty)
            .find(|t| !t.is_empty())
            .unwrap_or(CellSet::EMPTY)
    }

    /// The cells the captured piece on `from` may be returned to (R8 as V3 and V4 set it).
    fn piece_return_targets(&self, from: Cell, kind: Kind) -> CellSet {
        if kind == Kind::Guard && self.rules.guard_return() == GuardReturn::NextRing {
            self.next_ring_targets(from)
        } else {
            self.return_targets(kind)
        }
    }

    /// The side that chooses the next action: the side to move, except that under
    /// [`QueenPlacer::Captor`] its opponent chooses where its captured queen returns (the
    /// turn is still the owner's). Bots and environments ask it who is to act.
    ///
    /// ```
    /// use agon_core::{Position, QueenPlacer, Rules, Side};
    /// let text = "Qf1*,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";
    /// let captor = Rules::STANDARD.with_queen_placer(QueenPlacer::Captor);
    /// assert_eq!(Position::from_text(text)?.chooser(), Side::White);
    /// let pos = Position::from_text_with_rules(text, captor)?;
    /// assert_eq!((pos.turn(), pos.chooser()), (Side::White, Side::Black));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    #[inline]
    pub fn chooser(&self) -> Side {
        let own = self.sides[self.turn.index()];
        if self.rules.queen_placer() == QueenPlacer::Captor
            && self.captured.intersects(own & self.queens)
        {
            self.turn.other()
        } else {
            self.turn
        }
    }

    /// The pieces the side to move must choose from to return: its captured queen alone if
    /// she is captured, else its captured guards (R8).
    #[inline]
    fn returnable(&self) -> (CellSet, Kind) {
        let mine = self.captured & self.sides[self.turn.index()];
        let queen = mine & self.queens;
        if queen.is_empty() {
            (mine, Kind::Guard)
        } else {
            (queen, Kind::Queen)
        }
    }

    /// The legal actions in compact form: each piece that may act with the cells it may
    /// go to. Cheaper than [`Position::legal_moves`] when only counting, sampling or
    /// testing membership.
    ///
    /// ```
    /// use agon_core::Position;
    /// let actions = Position::start().actions();
    /// assert_eq!(actions.len(), 27);
    /// assert!(actions.contains("f1-e1".parse()?));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    #[inline]
    pub fn actions(&self) -> MoveSet {
        let mut actions = MoveSet::new();
        if self.visit_actions(|from, targets, is_return| actions.push(from, targets, is_return)) {
            actions.set_pass();
        }
        actions
    }

    /// Every legal action of the side to move, in a fixed-capacity list (no allocation).
    ///
    /// Steps are listed by the index of the cell moved from, then of the cell moved to;
    /// returns likewise; a pass ([`Stuck::Pass`]) is alone. The list is empty when the game
    /// is over by R10 or R12.
    ///
    /// ```
    /// use agon_core::Position;
    /// let moves = Position::start().legal_moves();
    /// assert_eq!(moves.len(), 27);
    /// assert_eq!(moves[0].to_string(), "a5-a4");
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.append_legal_moves(&mut list);
        list
    }

    /// Appends every legal action to `list` (see [`Position::legal_moves`]).
    ///
    /// ```
    /// use agon_core::{MoveList, Position};
    /// let mut list = MoveList::new();
    /// Position::start().append_legal_moves(&mut list);
    /// assert_eq!(list.len(), 27);
    /// ```
    pub fn append_legal_moves(&self, list: &mut MoveList) {
        // Straight from the visit, in the order of `MoveSet`, without building one.
        let pass = self.visit_actions(|from, targets, is_return| {
            for to in targets {
                list.push(if is_return {
                    Move::Return { from, to }
                } else {
                    Move::Step { from, to }
                });
            }
        });
        if pass {
            list.push(Move::Pass);
        }
    }

    /// The number of legal actions, counted without listing them (used by perft).
    ///
    /// ```
    /// use agon_core::Position;
    /// assert_eq!(Position::start().count_legal_moves(), 27);
    /// ```
    #[inline]
    pub fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        let pass = self.visit_actions(|_, targets, _| n += targets.len());
        n + usize::from(pass)
    }

    /// The sum of [`Position::count_legal_moves`] over the positions after each legal
    /// move: the last two plies of perft.
    ///
    /// Under the standard rules, when neither side has a captured piece, the opponent's
    /// count after a step that captures nothing and does not enter ring 1 (so cannot end
    /// the game) is its count now, with its steps pieces stands still, corrected on the
    /// few cells the step changes: the cell left, the cell entered, and those that become
    /// or stop being forbidden to the opponent (R4), each weighed by the opponent's
    /// pieces that may step there. Every other move is played and counted.
    pub(crate) fn count_after_each_move(&self) -> u64 {
        let us = self.turn;
        let them = us.other();
        let played = |m: Move| self.play_unchecked(m).count_legal_moves() as u64;
        let fast = self.rules.position_rules_are_standard()
            && self.captured.is_empty()
            && self.throne_ring_side().is_none();
        if !fast {
            return self.legal_moves().iter().map(|&m| played(m)).sum();
        }
        let own = self.sides[us.index()];
        let opp = self.sides[them.index()];
        let empty = self.empty();
        let allowed = empty - self.forbidden_cells(us);
        // The opponent's steps now, as if it were to move.
        let opp_allowed = empty - self.forbidden_cells(them);
        let opp_queen = (opp & self.queens).first();
        let queen_reach = |queen: Option<Cell>, from: Cell| {
            if Some(from) == queen {
                QUEEN_STEP_TARGETS[from.bit() as usize]
            } else {
                STEP_TARGETS[from.bit() as usize]
            }
        };
        let base: u64 = opp
            .into_iter()
            .map(|p| (queen_reach(opp_queen, p) & opp_allowed).len() as u64)
            .sum();
        let queen_to_throne = (opp & self.queens).intersects(RING1);
        // The opponent's pieces that may step to `c` (the cell being allowed).
        let weight = |c: Cell| {
            (opp & STEP_SOURCES[c.bit() as usize]).len() as u64
                + u64::from(c == Cell::THRONE && queen_to_throne)
        };
        let capturing = self.capturing_cells();
        let queen = (own & self.queens).first();
        let mut total = 0;
        for from in own {
            for to in queen_reach(queen, from) & allowed {
                if capturing.contains(to) || RING1.contains(to) {
                    total += played(Move::Step { from, to });
                    continue;
                }
                let moved = CellSet::from(from) | CellSet::from(to);
                let own_after = own ^ moved;
                let mut forbidden = CellSet::EMPTY;
                for d in [Direction::North, Direction::NorthEast, Direction::SouthEast] {
                    forbidden |= own_after.shift(d) & own_after.shift(d.opposite());
                }
                let opp_allowed_after = (empty ^ moved) - forbidden;
                let gained: u64 = (opp_allowed_after - opp_allowed)
                    .into_iter()
                    .map(weight)
                    .sum();
                let lost: u64 = (opp_allowed - opp_allowed_after)
                    .into_iter()
                    .map(weight)
                    .sum();
                total += base + gained - lost;
            }
        }
        total
    }

    /// The `n`-th move of [`Position::legal_moves`] (from 0), found without building the
    /// list.
    ///
    /// ```
    /// use agon_core::Position;
    /// let pos = Position::start();
    /// let all = pos.legal_moves();
    /// assert!((0..all.len()).all(|i| pos.nth_legal_move(i) == Some(all[i])));
    /// assert_eq!(pos.nth_legal_move(all.len()), None);
    /// ```
    pub fn nth_legal_move(&self, n: usize) -> Option<Move> {
        self.actions().nth(n)
    }

    /// Whether the side to move has any legal action (R12 says it loses if not).
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(Position::start().has_legal_move());
    /// ```
    pub fn has_legal_move(&self) -> bool {
        !self.actions().is_empty()
    }

    /// The legal actions of the piece on `from` (for interfaces that pick a piece first).
    ///
    /// ```
    /// use agon_core::Position;
    /// let moves = Position::start().legal_moves_from("f1".parse()?);
    /// let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    /// assert_eq!(names, ["f1-e1", "f1-f2", "f1-g1"]);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn legal_moves_from(&self, from: Cell) -> MoveList {
        let mut list = self.legal_moves();
        list.retain(|m| m.from() == Some(from));
        list
    }

    /// The move a from-to pair stands for here: a return if the piece on `from` is
    /// captured, else a step. The pair notation (`f1f2`) is read this way.
    ///
    /// ```
    /// use agon_core::{Move, Position};
    /// let pos = Position::start();
    /// let m = pos.move_from_pair("f1".parse()?, "e1".parse()?);
    /// assert_eq!(m, "f1-e1".parse::<Move>()?);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn move_from_pair(&self, from: Cell, to: Cell) -> Move {
        if self.captured.contains(from) {
            Move::Return { from, to }
        } else {
            Move::Step { from, to }
        }
    }

    /// Checks a move against every rule, returning the first one it breaks.
    ///
    /// ```
    /// use agon_core::{IllegalMove, Position};
    /// let pos = Position::start();
    /// assert_eq!(pos.check_move("f1-e1".parse()?), Ok(()));
    /// assert_eq!(pos.check_move("f1-e2".parse()?), Err(IllegalMove::NotAdjacent));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn check_move(&self, m: Move) -> Result<(), IllegalMove> {
        if self.throne_ring_side().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let Some((from, to)) = m.cells() else {
            if self.rules.stuck() != Stuck::Pass {
                return Err(IllegalMove::NoPass);
            }
            return if self.actions().is_pass() {
                Ok(())
            } else {
                Err(IllegalMove::PassWithActions)
            };
        };
        let piece = self.piece_at(from).ok_or(IllegalMove::NoPiece)?;
        if piece.side != self.turn {
            return Err(IllegalMove::NotYourPiece);
        }
        match m {
            Move::Step { .. } => {
                if self.must_return() {
                    return Err(IllegalMove::MustReturn);
                }
                if !from.is_adjacent(to) {
                    return Err(IllegalMove::NotAdjacent);
                }
                if to.ring() > from.ring() {
                    return Err(IllegalMove::Outward);
                }
                if self.occupied().contains(to) {
                    return Err(IllegalMove::Occupied);
                }
                if to == Cell::THRONE && piece.kind == Kind::Guard {
                    return Err(IllegalMove::ThroneForQueens);
                }
                if self.rules.between() == Between::Forbidden
                    && self.forbidden_cells(self.turn).contains(to)
                {
                    return Err(IllegalMove::BetweenEnemies);
                }
            }
            Move::Return { .. } => {
                if !self.captured.contains(from) {
                    return Err(IllegalMove::NotCaptured);
                }
                if piece.kind == Kind::Guard && self.returnable().1 == Kind::Queen {
                    return Err(IllegalMove::QueenFirst);
                }
                if self.occupied().contains(to) {
                    return Err(IllegalMove::Occupied);
                }
                if !self.piece_return_targets(from, piece.kind).contains(to) {
                    return Err(match piece.kind {
                        Kind::Queen => IllegalMove::QueenToThrone,
                        Kind::Guard if self.rules.guard_return() == GuardReturn::NextRing => {
                            IllegalMove::GuardToNextRing
                        }
                        Kind::Guard => IllegalMove::GuardToOuterRing,
                    });
                }
            }
            Move::Pass => unreachable!("a pass has no cells"),
        }
        Ok(())
    }

    /// Whether `m` is a legal action here.
    ///
    /// ```
    /// use agon_core::Position;
    /// let pos = Position::start();
    /// assert!(pos.is_legal("f1-e1".parse()?));
    /// assert!(!pos.is_legal("f1-f3".parse()?));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn is_legal(&self, m: Move) -> bool {
        self.check_move(m).is_ok()
    }

    /// Plays `m`, returning the new position, or the reason it is illegal. `self` is
    /// unchanged either way.
    ///
    /// ```
    /// use agon_core::{IllegalMove, Position, Side};
    /// let pos = Position::start();
    /// let next = pos.play("f1-e1".parse()?).expect("legal");
    /// assert_eq!(next.turn(), Side::Black);
    /// assert_eq!(next.play("e1-e2".parse()?), Err(IllegalMove::NotYourPiece));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn play(&self, m: Move) -> Result<Position, IllegalMove> {
        self.check_move(m)?;
        Ok(self.play_unchecked(m))
    }

    /// The opponent pieces a legal move `m` captures (R5 as V1 sets it, R6): always empty
    /// for a return (R9) and a pass.
    ///
    /// ```
    /// use agon_core::Position;
    /// assert!(Position::start().captures("f1-e1".parse()?).is_empty());
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn captures(&self, m: Move) -> CellSet {
        match m {
            Move::Return { .. } | Move::Pass => CellSet::EMPTY,
            Move::Step { from, to } => {
                let own = self.sides[self.turn.index()].without(from).with(to);
                self.captures_at(to, own)
            }
        }
    }

    /// Whether the legal move `m` traps the piece that steps ([`Between::Trapped`]: it
    /// steps between two enemy pieces and captures nothing, so it is itself captured).
    ///
    /// ```
    /// use agon_core::{Between, Position, Rules};
    /// let text = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";
    /// let trapped = Rules::STANDARD.with_between(Between::Trapped);
    /// let pos = Position::from_text_with_rules(text, trapped)?;
    /// assert!(!pos.traps("f1-e1".parse()?));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn traps(&self, m: Move) -> bool {
        match m {
            Move::Step { to, .. } => {
                self.rules.between() == Between::Trapped
                    && self.forbidden_cells(self.turn).contains(to)
                    && self.captures(m).is_empty()
            }
            Move::Return { .. } | Move::Pass => false,
        }
    }

    /// The opponent pieces captured by a piece of the side to move arriving on `to`, with
    /// `own` the mover's pieces after the step (R5, V1). Only the arriving piece captures
    /// (R6).
    #[inline]
    fn captures_at(&self, to: Cell, own: CellSet) -> CellSet {
        let victims = self.sides[self.turn.other().index()] - self.captured;
        let mut captured = CellSet::EMPTY;
        if !to.neighbours().intersects(victims) {
            return captured;
        }
        // Indexed by the option rather than branched on: this runs for every step.
        let lines = &CAPTURE_TABLES[self.rules.capture() as usize][to.bit() as usize];
        for &(n, n2) in lines {
            if n != 255 {
                let (n, n2) = (Cell::from_bit(n.into()), Cell::from_bit(n2.into()));
                if victims.contains(n) && own.contains(n2) {
                    captured = captured.with(n);
                }
            }
        }
        captured
    }

    /// The cells where a piece of the side to move, arriving by a step, captures (R5 as V1
    /// sets it): a step to any other cell captures nothing. Found for all cells at once, so
    /// that a search can skip [`Position::captures`] for the steps that cannot capture.
    ///
    /// ```
    /// use agon_core::{Move, Position};
    /// let pos: Position = "Qf5,Gb3,Gc5,Gd7,Gh9,Gk1,Gl5/qe5,gc4,gd1,gd6,gh1,gk7,gl2 w".parse()?;
    /// let cells: Vec<String> = pos.capturing_cells().iter().map(|c| c.to_string()).collect();
    /// assert_eq!(cells, ["c3", "d5", "e7"]);
    /// for &m in pos.legal_moves().iter() {
    ///     let to = m.to().unwrap();
    ///     assert_eq!(pos.capturing_cells().contains(to), !pos.captures(m).is_empty(), "{m}");
    /// }
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn capturing_cells(&self) -> CellSet {
        let victims = self.sides[self.turn.other().index()] - self.captured;
        let own = self.sides[self.turn.index()];
        let lines = &CAPTURE_FROM[self.rules.capture() as usize];
        let mut cells = CellSet::EMPTY;
        for d in Direction::ALL {
            // X captures on X + d with a partner on X + 2d.
            let back = d.opposite();
            cells |= (victims & own.shift(back)).shift(back) & lines[d.index()];
        }
        cells
    }

    /// The opponent pieces that steps of the side to move to the cells of `targets` would
    /// capture (R5 as V1 sets it): the union of [`Position::captures`] over the legal steps
    /// to those cells, found for all of them at once. (Which piece steps does not matter:
    /// the partner of a capture stands two cells from the cell stepped to, and the piece
    /// that stepped came from an adjacent one.)
    ///
    /// ```
    /// use agon_core::{CellSet, Position};
    /// let pos: Position = "Qf5,Gb3,Gc5,Gd7,Gh9,Gk1,Gl5/qe5,gc4,gd1,gd6,gh1,gk7,gl2 w".parse()?;
    /// let targets: CellSet = pos.legal_moves().iter().filter_map(|m| m.to()).collect();
    /// let each = pos.legal_moves().iter().fold(CellSet::EMPTY, |s, &m| s | pos.captures(m));
    /// assert_eq!(pos.captures_by_steps_to(targets), each);
    /// assert_eq!(each.len(), 3);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn captures_by_steps_to(&self, targets: CellSet) -> CellSet {
        let victims = self.sides[self.turn.other().index()] - self.captured;
        let own = self.sides[self.turn.index()];
        let lines = &CAPTURE_FROM[self.rules.capture() as usize];
        let mut captured = CellSet::EMPTY;
        for d in Direction::ALL {
            captured |= (targets & lines[d.index()]).shift(d) & victims & own.shift(d.opposite());
        }
        captured
    }

    /// The position after a pass (V7): only the side to move changes. Out of line, so the
    /// step and return path stays as small as under the standard rules.
    #[cold]
    #[inline(never)]
    fn passed(&self) -> Position {
        let mut next = *self;
        next.turn = self.turn.other();
        next.hash ^= zobrist::BLACK_TO_MOVE;
        next
    }

    /// V2 `trapped`: a step to `to`, between two enemy pieces, that captured nothing
    /// captures the piece that stepped (a `kind` of the side to move). Out of line, as
    /// [`Position::passed`].
    #[cold]
    #[inline(never)]
    fn trap(&self, next: &mut Position, kind: Kind, to: Cell) {
        let us = self.turn;
        if self.forbidden_cells(us).contains(to) {
            next.captured.insert(to);
            next.hash ^= piece_key(us, kind, false, to) ^ piece_key(us, kind, true, to);
        }
    }

    /// Plays `m` without checking that it is legal, for search code that plays moves from
    /// [`Position::legal_moves`].
    ///
    /// # Correctness
    ///
    /// `m` must be legal here ([`Position::is_legal`]). Debug builds check it and panic on
    /// an illegal move; release builds do not check, and an illegal move then gives a
    /// position that may break the invariants of [`Position`] (a piece on a piece, a
    /// queen off the board's count...), so that later results are meaningless. It never
    /// causes undefined behaviour: the crate has no `unsafe` code.
    ///
    /// # Panics
    ///
    /// In debug builds only, when `m` is illegal.
    ///
    /// ```
    /// use agon_core::Position;
    /// let pos = Position::start();
    /// let m = pos.legal_moves()[0];
    /// assert_eq!(pos.play_unchecked(m), pos.play(m).unwrap());
    /// ```
    #[inline]
    pub fn play_unchecked(&self, m: Move) -> Position {
        debug_assert!(
            self.is_legal(m),
            "play_unchecked: {m} is illegal in {}: {:?}",
            self.to_text(),
            self.check_move(m)
        );
        let mut next = *self;
        let us = self.turn;
        let them = us.other();
        let (from, to) = match m {
            Move::Step { from, to } | Move::Return { from, to } => (from, to),
            Move::Pass => return self.passed(),
        };
        let kind = if self.queens.contains(from) {
            Kind::Queen
        } else {
            Kind::Guard
        };
        let moved = CellSet::from(from) | CellSet::from(to);
        next.sides[us.index()] ^= moved;
        if kind == Kind::Queen {
            next.queens ^= moved;
        }
        match m {
            Move::Step { .. } => {
                next.hash ^= piece_key(us, kind, false, from) ^ piece_key(us, kind, false, to);
                let captured = self.captures_at(to, next.sides[us.index()]);
                for cell in captured {
                    let k = if self.queens.contains(cell) {
                        Kind::Queen
                    } else {
                        Kind::Guard
                    };
                    next.hash ^= piece_key(them, k, false, cell) ^ piece_key(them, k, true, cell);
                }
                next.captured |= captured;
                if self.rules.traps() && captured.is_empty() {
                    self.trap(&mut next, kind, to);
                }
            }
            Move::Return { .. } => {
                next.hash ^= piece_key(us, kind, true, from) ^ piece_key(us, kind, false, to);
                next.captured = next.captured.without(from);
            }
            Move::Pass => unreachable!("a pass has no cells"),
        }
        next.turn = them;
        next.hash ^= zobrist::BLACK_TO_MOVE;
        next
    }
}

#[cfg(test)]
mod illegal_move_tests {
    use super::IllegalMove;

    /// The position of `reason` in [`IllegalMove::ALL`], by an exhaustive match: a new
    /// reason does not compile until it is placed here, and the test below then fails
    /// until it is in `ALL` too.
    const fn position(reason: IllegalMove) -> usize {
        match reason {
            IllegalMove::GameOver => 0,
            IllegalMove::NoPiece => 1,
            IllegalMove::NotYourPiece => 2,
            IllegalMove::MustReturn => 3,
            IllegalMove::NotAdjacent => 4,
            IllegalMove::Outward => 5,
            IllegalMove::Occupied => 6,
            IllegalMove::ThroneForQueens => 7,
            IllegalMove::BetweenEnemies => 8,
            IllegalMove::NotCaptured => 9,
            IllegalMove::QueenFirst => 10,
            IllegalMove::GuardToOuterRing => 11,
            IllegalMove::GuardToNextRing => 12,
            IllegalMove::QueenToThrone => 13,
            IllegalMove::NoPass => 14,
            IllegalMove::PassWithActions => 15,
        }
    }

    #[test]
    fn all_lists_every_reason_once_with_distinct_names() {
        for (i, reason) in IllegalMove::ALL.into_iter().enumerate() {
            assert_eq!(position(reason), i, "{reason:?}");
            for other in &IllegalMove::ALL[..i] {
                assert_ne!(other.name(), reason.name());
            }
        }
    }
}
