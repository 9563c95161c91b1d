//! The learning encoding of **Agon**: a fixed action space, legal-action masks,
//! observation planes and the twelve symmetries' action maps, for reinforcement learning.
//!
//! Rust programs and the Python package (`agon.ACTION_COUNT`, `action_mask()`,
//! `observation()`, `VecEnv`) share this one encoding.
//!
//! ```
//! use agon_core::Position;
//! use agon_rl::{Action, ACTION_COUNT};
//!
//! let pos = Position::start();
//! let m = pos.legal_moves()[0];
//! let action = Action::from_move(m).unwrap();
//! assert!(action.index() < ACTION_COUNT);
//! assert_eq!(action.to_move(&pos), Some(m));
//!
//! let mut mask = [false; ACTION_COUNT];
//! agon_rl::write_mask(pos.legal_moves().iter().copied(), &mut mask);
//! assert_eq!(mask.iter().filter(|&&legal| legal).count(), 27);
//! ```
//!
//! # Actions
//!
//! There are [`ACTION_COUNT`] = 3337 actions, in three blocks:
//!
//! | actions | meaning |
//! |---|---|
//! | `0..546` | step of the piece on cell `c` in direction `d`: `c * 6 + d` (the order of [`Direction::ALL`]) |
//! | `546..3276` | return of the captured piece on cell `c` to the outer-ring cell `o`: `546 + c * 30 + k(o)` |
//! | `3276..3337` | return of the side's captured queen to the inner cell `i` (rings 0-4): `3276 + j(i)` |
//!
//! `k(o)` is the rank of `o` among the 30 outer-ring cells and `j(i)` that of `i` among the
//! 61 inner cells, both in cell index order. A guard only ever returns to the outer ring,
//! and only the queen can return off it; a side has one queen, so a return to an inner
//! cell needs no `from` cell. Every legal move of every position has exactly one action,
//! the mapping from moves to actions needs no position, and each of the twelve symmetries
//! permutes the actions (it keeps the rings, so it keeps each block).
//!
//! # Observations
//!
//! [`CHANNEL_COUNT`] planes over the cells, from the point of view of the side to move
//! (see [`CHANNELS`]), laid out either flat (91 cells by index) or axially (an 11 x 11
//! square, row `r + 5`, column `q + 5`, cells off the board 0): see [`Layout`].
//!
//! # Batches
//!
//! [`VecEnv`] steps thousands of games at once on every core, writing observations as
//! `f32` or `u8` and masks as bools or bit-packed ([`PACKED_MASK_LEN`] bytes a game, see
//! [`write_packed_mask`]); its results do not depend on the number of threads.
//! [`random_playouts`] plays random games on every core. The benchmark:
//! `cargo run --release -p agon-rl --example vecenv -- 256 1024 8192`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

use std::sync::OnceLock;

use agon_core::random::Rng;
use agon_core::{
    Actions, Cell, CellSet, Direction, Move, Position, Ring, Side, Symmetry, CELL_COUNT,
};

mod playouts;
pub mod replay;
mod vecenv;
pub use playouts::{random_playouts, PlayoutStats};
pub use vecenv::{Masks, Observations, StepBuffers, VecEnv, VecEnvError};

/// The number of step actions: a cell and a direction.
pub const STEP_ACTIONS: usize = CELL_COUNT * 6;
/// The first action returning a piece to the outer ring.
pub const OUTER_RETURN_BASE: usize = STEP_ACTIONS;
/// The number of outer-ring cells.
pub const OUTER_CELLS: usize = 30;
/// The first action returning the queen to an inner cell.
pub const INNER_RETURN_BASE: usize = OUTER_RETURN_BASE + CELL_COUNT * OUTER_CELLS;
/// The number of inner cells (rings 0 to 4).
pub const INNER_CELLS: usize = CELL_COUNT - OUTER_CELLS;
/// The size of the action space.
pub const ACTION_COUNT: usize = INNER_RETURN_BASE + INNER_CELLS;

/// One of the [`ACTION_COUNT`] actions.
///
/// ```
/// use agon_rl::Action;
/// let a = Action::from_move("f1-e1".parse().unwrap()).unwrap();
/// assert_eq!(Action::new(a.index()), Some(a));
/// assert_eq!(Action::new(agon_rl::ACTION_COUNT), None);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Action(u16);

/// The lookup tables of the encoding, built once from agon-core's geometry.
struct Tables {
    /// The rank of each cell among the outer cells (outer) or the inner cells (inner).
    rank: [u8; CELL_COUNT],
    outer: [Cell; OUTER_CELLS],
    inner: [Cell; INNER_CELLS],
    /// The direction of each cube offset `(dq + 1) * 3 + (dr + 1)`.
    direction: [Option<Direction>; 9],
    /// Each cell's neighbour in each direction (the order of [`Direction::ALL`]), as a
    /// set of one cell (empty off the board).
    neighbours: [[CellSet; 6]; CELL_COUNT],
    /// For each symmetry, the image of every action.
    symmetries: Vec<[u16; ACTION_COUNT]>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            rank: [0; CELL_COUNT],
            outer: [Cell::THRONE; OUTER_CELLS],
            inner: [Cell::THRONE; INNER_CELLS],
            direction: [None; 9],
            neighbours: [[CellSet::EMPTY; 6]; CELL_COUNT],
            symmetries: Vec::new(),
        };
        let (mut o, mut i) = (0, 0);
        for c in Cell::all() {
            if c.ring() == Ring::OUTER {
                t.rank[c.index()] = o as u8;
                t.outer[o] = c;
                o += 1;
            } else {
                t.rank[c.index()] = i as u8;
                t.inner[i] = c;
                i += 1;
            }
        }
        for d in Direction::ALL {
            let (dq, dr, _) = d.cube();
            t.direction[offset_slot(dq, dr)] = Some(d);
            for c in Cell::all() {
                t.neighbours[c.index()][d.index()] =
                    c.neighbour(d).map_or(CellSet::EMPTY, CellSet::from);
            }
        }
        t.symmetries = Symmetry::ALL.iter().map(|&s| symmetry_map(&t, s)).collect();
        t
    })
}

fn offset_slot(dq: i8, dr: i8) -> usize {
    ((dq + 1) * 3 + (dr + 1)) as usize
}

/// The direction from `from` to `to`, when they are adjacent.
fn direction(t: &Tables, from: Cell, to: Cell) -> Option<Direction> {
    let (q1, r1, _) = from.cube();
    let (q2, r2, _) = to.cube();
    let (dq, dr) = (q2 - q1, r2 - r1);
    if !(-1..=1).contains(&dq) || !(-1..=1).contains(&dr) {
        return None;
    }
    t.direction[offset_slot(dq, dr)]
}

/// The image of every action under `s`.
fn symmetry_map(t: &Tables, s: Symmetry) -> [u16; ACTION_COUNT] {
    // Symmetries fix the throne and act linearly, so they turn each direction alike
    // everywhere: read the image of each direction at the throne. This also maps the
    // step actions off the board, which have no move to map.
    let direction_image = Direction::ALL.map(|d| {
        let next = Cell::THRONE.neighbour(d).map(|c| s.cell(c));
        match next.and_then(|n| direction(t, Cell::THRONE, n)) {
            Some(image) => image.index(),
            None => unreachable!("the throne's neighbour in {d:?} has no image"),
        }
    });
    let mut map = [0u16; ACTION_COUNT];
    for (index, image) in map.iter_mut().enumerate() {
        *image = if index < STEP_ACTIONS {
            (s.cell(cell(index / 6)).index() * 6 + direction_image[index % 6]) as u16
        } else {
            match action_of(t, s.apply_move(return_of(t, index))) {
                Some(a) => a.0,
                // A symmetry keeps rings, so a return's image is a return of its block.
                None => unreachable!("symmetry {s:?} has no image for action {index}"),
            }
        };
    }
    map
}

/// A move that return action `index` stands for: for a queen's return to an inner cell,
/// one from that very cell (the action does not depend on where the queen stands).
fn return_of(t: &Tables, index: usize) -> Move {
    if index < INNER_RETURN_BASE {
        let a = index - OUTER_RETURN_BASE;
        Move::Return {
            from: cell(a / OUTER_CELLS),
            to: t.outer[a % OUTER_CELLS],
        }
    } else {
        let to = t.inner[index - INNER_RETURN_BASE];
        Move::Return { from: to, to }
    }
}

fn cell(index: usize) -> Cell {
    match Cell::from_index(index) {
        Some(c) => c,
        None => unreachable!("cell index {index} out of range"),
    }
}

fn action_of(t: &Tables, m: Move) -> Option<Action> {
    let (from, to) = m.cells()?;
    let index = match m {
        Move::Step { .. } => from.index() * 6 + direction(t, from, to)?.index(),
        Move::Return { .. } if to.ring() == Ring::OUTER => {
            OUTER_RETURN_BASE + from.index() * OUTER_CELLS + usize::from(t.rank[to.index()])
        }
        Move::Return { .. } => INNER_RETURN_BASE + usize::from(t.rank[to.index()]),
        Move::Pass => return None,
    };
    Some(Action(index as u16))
}

impl Action {
    /// The action with this number, if it is below [`ACTION_COUNT`].
    ///
    /// ```
    /// assert_eq!(agon_rl::Action::new(0).map(|a| a.index()), Some(0));
    /// ```
    pub const fn new(index: usize) -> Option<Action> {
        if index < ACTION_COUNT {
            Some(Action(index as u16))
        } else {
            None
        }
    }

    /// The action's number, below [`ACTION_COUNT`].
    ///
    /// ```
    /// let a = agon_rl::Action::new(3336).unwrap();
    /// assert_eq!(a.index(), 3336);
    /// ```
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The action of a move, or `None` for a step between cells that are not adjacent
    /// (no such move is ever legal). Needs no position.
    ///
    /// ```
    /// use agon_rl::Action;
    /// // f1 is cell 40; e1 lies north-west of it (direction 5).
    /// assert_eq!(Action::from_move("f1-e1".parse().unwrap()).unwrap().index(), 40 * 6 + 5);
    /// assert_eq!(Action::from_move("f1-f3".parse().unwrap()), None);
    /// ```
    pub fn from_move(m: Move) -> Option<Action> {
        action_of(tables(), m)
    }

    /// The move this action stands for in `position` (not checked for legality), or
    /// `None` for a step off the board. A queen's return starts from the cell of the side
    /// to move's queen.
    ///
    /// ```
    /// use agon_core::Position;
    /// use agon_rl::Action;
    /// let pos = Position::start();
    /// let a = Action::new(5 * 6 + 0).unwrap(); // a6 north: off the board
    /// assert_eq!(a.to_move(&pos), None);
    /// ```
    pub fn to_move(self, position: &Position) -> Option<Move> {
        let t = tables();
        let index = self.index();
        if index < STEP_ACTIONS {
            let from = cell(index / 6);
            let to = from.neighbour(Direction::ALL[index % 6])?;
            Some(Move::Step { from, to })
        } else if index < INNER_RETURN_BASE {
            let a = index - OUTER_RETURN_BASE;
            Some(Move::Return {
                from: cell(a / OUTER_CELLS),
                to: t.outer[a % OUTER_CELLS],
            })
        } else {
            Some(Move::Return {
                from: position.queen(position.turn()),
                to: t.inner[index - INNER_RETURN_BASE],
            })
        }
    }

    /// The image of this action under a symmetry: the action of the image of its move.
    ///
    /// ```
    /// use agon_core::{Move, Symmetry};
    /// use agon_rl::Action;
    /// let m: Move = "f1-e1".parse().unwrap();
    /// let s = Symmetry::new(3, false);
    /// assert_eq!(
    ///     Action::from_move(m).unwrap().apply(s),
    ///     Action::from_move(s.apply_move(m)).unwrap()
    /// );
    /// ```
    pub fn apply(self, symmetry: Symmetry) -> Action {
        Action(tables().symmetries[symmetry.index()][self.index()])
    }
}

/// The image of every action under `symmetry`, by action number: `map[a]` is the number
/// of the image of action `a`. A permutation of `0..ACTION_COUNT`.
///
/// ```
/// use agon_core::Symmetry;
/// let map = agon_rl::action_map(Symmetry::IDENTITY);
/// assert!(map.iter().enumerate().all(|(a, &b)| a == b as usize));
/// ```
pub fn action_map(symmetry: Symmetry) -> &'static [u16; ACTION_COUNT] {
    &tables().symmetries[symmetry.index()]
}

/// Sets `out` (at least [`ACTION_COUNT`] entries) to the mask of the actions of `moves`:
/// `true` for each of them, `false` elsewhere.
///
/// # Panics
///
/// If `out` is shorter than [`ACTION_COUNT`].
///
/// ```
/// use agon_core::Position;
/// let mut mask = vec![true; agon_rl::ACTION_COUNT];
/// agon_rl::write_mask(Position::start().legal_moves().iter().copied(), &mut mask);
/// assert_eq!(mask.iter().filter(|&&b| b).count(), 27);
/// ```
pub fn write_mask(moves: impl IntoIterator<Item = Move>, out: &mut [bool]) {
    let out = &mut out[..ACTION_COUNT];
    out.fill(false);
    let t = tables();
    for m in moves {
        if let Some(a) = action_of(t, m) {
            out[a.index()] = true;
        }
    }
}

/// The bytes of a bit-packed mask: [`ACTION_COUNT`] bits, 8 actions a byte, the last byte
/// padded with zeros (418 bytes).
pub const PACKED_MASK_LEN: usize = ACTION_COUNT.div_ceil(8);

/// Sets `out` (at least [`PACKED_MASK_LEN`] bytes) to the bit-packed mask of the actions of
/// `moves`: action `a` is bit `7 - a % 8` of byte `a / 8` (the most significant bit first,
/// the order of `numpy.packbits` and `numpy.unpackbits`), and the padding bits are 0.
///
/// # Panics
///
/// If `out` is shorter than [`PACKED_MASK_LEN`].
///
/// ```
/// use agon_core::Position;
/// use agon_rl::{unpack_mask, write_mask, write_packed_mask, ACTION_COUNT, PACKED_MASK_LEN};
/// let moves = Position::start().legal_moves();
/// let mut packed = [0xffu8; PACKED_MASK_LEN];
/// write_packed_mask(moves.iter().copied(), &mut packed);
/// let (mut mask, mut unpacked) = ([false; ACTION_COUNT], [true; ACTION_COUNT]);
/// write_mask(moves.iter().copied(), &mut mask);
/// unpack_mask(&packed, &mut unpacked);
/// assert_eq!(mask, unpacked);
/// assert_eq!(packed.iter().map(|b| b.count_ones()).sum::<u32>(), 27);
/// ```
pub fn write_packed_mask(moves: impl IntoIterator<Item = Move>, out: &mut [u8]) {
    let out = &mut out[..PACKED_MASK_LEN];
    out.fill(0);
    let t = tables();
    for m in moves {
        if let Some(a) = action_of(t, m) {
            set_bit(out, a.index());
        }
    }
}

/// Unpacks a bit-packed mask (see [`write_packed_mask`]) into one bool per action, as
/// `numpy.unpackbits(packed, count=ACTION_COUNT).astype(bool)` does.
///
/// # Panics
///
/// If `packed` is shorter than [`PACKED_MASK_LEN`] or `out` than [`ACTION_COUNT`].
///
/// ```
/// use agon_rl::{unpack_mask, ACTION_COUNT, PACKED_MASK_LEN};
/// let mut packed = [0u8; PACKED_MASK_LEN];
/// packed[0] = 0b1000_0001; // actions 0 and 7
/// let mut mask = [false; ACTION_COUNT];
/// unpack_mask(&packed, &mut mask);
/// assert!(mask[0] && mask[7] && mask.iter().filter(|&&b| b).count() == 2);
/// ```
pub fn unpack_mask(packed: &[u8], out: &mut [bool]) {
    let packed = &packed[..PACKED_MASK_LEN];
    for (bits, byte) in out[..ACTION_COUNT].chunks_mut(8).zip(packed) {
        for (i, b) in bits.iter_mut().enumerate() {
            *b = byte & (0x80 >> i) != 0;
        }
    }
}

#[inline]
fn set_bit(out: &mut [u8], action: usize) {
    out[action >> 3] |= 0x80 >> (action & 7);
}

/// The step actions of the piece on `from` that may go to `targets`, as six bits: bit `d`
/// for direction `d` (action `from * 6 + d`). Branch-free: six tests of one cell each.
#[inline]
fn step_bits(t: &Tables, from: Cell, targets: CellSet) -> u32 {
    let mut bits = 0;
    for (d, &n) in t.neighbours[from.index()].iter().enumerate() {
        bits |= u32::from(!(targets & n).is_empty()) << d;
    }
    bits
}

/// Calls `set` with the number of each return action of `actions` (a position's legal
/// returns).
#[inline]
fn for_each_return(t: &Tables, actions: &Actions, mut set: impl FnMut(usize)) {
    for (from, targets) in actions.entries() {
        let outer = OUTER_RETURN_BASE + from.index() * OUTER_CELLS;
        for to in targets {
            let rank = usize::from(t.rank[to.index()]);
            set(if to.ring() == Ring::OUTER {
                outer + rank
            } else {
                INNER_RETURN_BASE + rank
            });
        }
    }
}

/// The mask of `actions` (a position's legal actions) as one bool per action: the same
/// as [`write_mask`] of their moves, without building the moves.
fn write_bool_mask(actions: &Actions, out: &mut [bool]) {
    let t = tables();
    let out = &mut out[..ACTION_COUNT];
    out.fill(false);
    if actions.are_returns() {
        for_each_return(t, actions, |a| out[a] = true);
        return;
    }
    for (from, targets) in actions.entries() {
        let bits = step_bits(t, from, targets);
        let base = from.index() * 6;
        for (d, b) in out[base..base + 6].iter_mut().enumerate() {
            *b = bits >> d & 1 != 0;
        }
    }
}

/// The mask of `actions`, bit-packed (see [`write_packed_mask`]).
fn write_bit_mask(actions: &Actions, out: &mut [u8]) {
    let t = tables();
    let out = &mut out[..PACKED_MASK_LEN];
    out.fill(0);
    if actions.are_returns() {
        for_each_return(t, actions, |a| set_bit(out, a));
        return;
    }
    for (from, targets) in actions.entries() {
        let bits = step_bits(t, from, targets);
        // The six bits of actions `a..a + 6`, the first as the most significant, placed
        // in the big-endian 16 bits from byte `a / 8`.
        let reversed = (0..6).fold(0u16, |r, d| r | ((bits >> d & 1) as u16) << (5 - d));
        let a = from.index() * 6;
        let window = reversed << (10 - (a & 7));
        out[a >> 3] |= (window >> 8) as u8;
        out[(a >> 3) + 1] |= window as u8;
    }
}

/// The random generator of game `index` of a batch seeded with `seed`: the stream of
/// [`VecEnv::random_actions`] for that game, and of game `index` of [`random_playouts`].
/// Each game has its own stream, so the games come out the same however many threads
/// play them.
///
/// ```
/// use agon_rl::game_rng;
/// assert_eq!(game_rng(7, 3).next_u64(), game_rng(7, 3).next_u64());
/// assert_ne!(game_rng(7, 3).next_u64(), game_rng(7, 4).next_u64());
/// assert_ne!(game_rng(7, 3).next_u64(), game_rng(8, 3).next_u64());
/// ```
pub fn game_rng(seed: u64, index: u64) -> Rng {
    // Two rounds of SplitMix64's mixing: the streams start at unrelated states (a plain
    // `seed + index` would make game `index + 1` replay game `index`'s stream one draw
    // later, since SplitMix64 steps its state by a constant).
    let base = Rng::new(seed).next_u64();
    Rng::new(Rng::new(base ^ index).next_u64())
}

/// The observation channels, each a plane over the cells, from the side to move's view.
pub const CHANNELS: [&str; 11] = [
    "own-queen",
    "own-guards",
    "opponent-queen",
    "opponent-guards",
    "own-captured",
    "opponent-captured",
    "forbidden",
    "throne",
    "throne-ring",
    "board",
    "white-to-move",
];

/// The number of observation channels.
pub const CHANNEL_COUNT: usize = CHANNELS.len();

/// How the cells of a plane are laid out.
///
/// ```
/// use agon_rl::Layout;
/// assert_eq!(Layout::Flat.plane_len(), 91);
/// assert_eq!(Layout::Axial.plane_len(), 121);
/// assert_eq!(Layout::Axial.observation_len(), 11 * 121);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Layout {
    /// The 91 cells in index order.
    Flat,
    /// An 11 x 11 square: row `r + 5`, column `q + 5`; the 30 squares off the board are 0.
    Axial,
}

/// The side of the axial square.
pub const AXIAL_SIDE: usize = 11;

impl Layout {
    /// Cells (or squares) per plane.
    pub const fn plane_len(self) -> usize {
        match self {
            Layout::Flat => CELL_COUNT,
            Layout::Axial => AXIAL_SIDE * AXIAL_SIDE,
        }
    }

    /// The length of one observation: [`CHANNEL_COUNT`] planes.
    pub const fn observation_len(self) -> usize {
        CHANNEL_COUNT * self.plane_len()
    }

    /// Where `cell` lies in a plane.
    ///
    /// ```
    /// use agon_core::Cell;
    /// use agon_rl::Layout;
    /// assert_eq!(Layout::Axial.offset(Cell::THRONE), 5 * 11 + 5);
    /// assert_eq!(Layout::Flat.offset(Cell::THRONE), 45);
    /// ```
    pub const fn offset(self, cell: Cell) -> usize {
        match self {
            Layout::Flat => cell.index(),
            Layout::Axial => {
                let (q, r, _) = cell.cube();
                (r + 5) as usize * AXIAL_SIDE + (q + 5) as usize
            }
        }
    }
}

/// Writes the observation of `position` into `out` ([`Layout::observation_len`] values),
/// as 0 and 1 of any number type (`f32`, `u8`, ...).
///
/// # Panics
///
/// If `out` is shorter than `layout.observation_len()`.
///
/// ```
/// use agon_core::Position;
/// use agon_rl::Layout;
/// let mut planes = vec![0.0f32; Layout::Flat.observation_len()];
/// agon_rl::write_observation(&Position::start(), Layout::Flat, &mut planes);
/// // White to move: its queen on f1 (cell 40) in the first plane.
/// assert_eq!(planes[40], 1.0);
/// assert_eq!(planes.iter().filter(|&&v| v == 1.0).count(), 14 + 1 + 6 + 91 + 91);
/// ```
pub fn write_observation<T: Copy + From<bool>>(position: &Position, layout: Layout, out: &mut [T]) {
    let plane = layout.plane_len();
    let out = &mut out[..layout.observation_len()];
    let fixed = fixed_planes(layout);
    let us = position.turn();
    let them = us.other();
    let queens = position.queens();
    let captured = position.captured();
    let sets = [
        position.pieces_of(us) & queens,
        position.pieces_of(us) - queens,
        position.pieces_of(them) & queens,
        position.pieces_of(them) - queens,
        position.pieces_of(us) & captured,
        position.pieces_of(them) & captured,
        position.forbidden_cells(us),
    ];
    let (pieces, rest) = out.split_at_mut(sets.len() * plane);
    pieces.fill(T::from(false));
    for (channel, set) in sets.into_iter().enumerate() {
        for c in set {
            pieces[channel * plane + usize::from(fixed.offset[c.index()])] = T::from(true);
        }
    }
    let (constant, to_move) = rest.split_at_mut(3 * plane);
    for (o, &v) in constant.iter_mut().zip(&fixed.planes) {
        *o = T::from(v);
    }
    to_move.fill(T::from(us == Side::White));
}

/// What does not depend on the position, for one layout: each cell's offset in a plane,
/// and the throne, throne-ring and board planes.
struct FixedPlanes {
    offset: [u16; CELL_COUNT],
    planes: Vec<bool>,
}

fn fixed_planes(layout: Layout) -> &'static FixedPlanes {
    static FIXED: [OnceLock<FixedPlanes>; 2] = [OnceLock::new(), OnceLock::new()];
    FIXED[layout as usize].get_or_init(|| {
        let plane = layout.plane_len();
        let mut fixed = FixedPlanes {
            offset: [0; CELL_COUNT],
            planes: vec![false; 3 * plane],
        };
        for c in Cell::all() {
            let at = layout.offset(c);
            fixed.offset[c.index()] = at as u16;
            let ring = c.ring().distance();
            fixed.planes[at] = ring == 0;
            fixed.planes[plane + at] = ring == 1;
            fixed.planes[2 * plane + at] = true;
        }
        fixed
    })
}
