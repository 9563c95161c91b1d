//! The learning encoding of **Agon**: a fixed action space, legal-action masks,
//! observation planes and the twelve symmetries' action maps, for reinforcement learning.
//!
//! Rust programs and the Python package (`agon.ACTION_COUNT`, `action_mask()`,
//! `observation()`, `VecEnv`) share this one encoding. How the crates fit together, and
//! where each fact lives: `ARCHITECTURE.md` at the repository root.
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
//! | `3337` ([`PASS_ACTION`]) | the pass, only in rule sets with `stuck=pass` (RULES.md V7) |
//! | `3338..8889` | return of the captured guard on cell `c` to the inner cell `i`: `3338 + c * 61 + j(i)`, only in rule sets with `guard-return=next-ring` (V3) |
//!
//! `k(o)` is the rank of `o` among the 30 outer-ring cells and `j(i)` that of `i` among the
//! 61 inner cells, both in cell index order. A guard only ever returns to the outer ring,
//! and only the queen can return off it; a side has one queen, so a return to an inner
//! cell needs no `from` cell. Every legal move of every position has exactly one action,
//! the mapping from moves to actions needs no position, and each of the twelve symmetries
//! permutes the actions (it keeps the rings, so it keeps each block).
//!
//! # Rule sets
//!
//! The standard action space ([`ACTION_COUNT`] actions, the numbering above, its masks,
//! packed masks and symmetry maps) is the same under every rule set
//! ([`agon_core::Rules`], RULES.md section 8). A rule set whose side with no action
//! passes (`stuck=pass`, as in the `ludii` preset) has one action more, the pass,
//! numbered [`PASS_ACTION`] = 3337: its space has [`action_count`]`(rules)` = 3338
//! actions, the standard ones keeping their numbers. [`Action::PASS`] is the pass;
//! every symmetry fixes it. Bool masks of that width ([`write_mask`] with a buffer of
//! 3338 or more) hold the pass in their last entry; bit-packed masks keep
//! [`PACKED_MASK_LEN`] = 418 bytes, the pass taking bit 3337, the first bit of the
//! standard mask's padding.
//!
//! Under `guard-return=next-ring` a captured guard may return to an inner cell, which
//! no standard action names (they give a return to an inner cell to the queen): those
//! rule sets add the block `3338..8889` ([`NEXT_RING_RETURN_BASE`]), a return from any
//! cell to any inner cell, and have [`action_count`] = [`MAX_ACTION_COUNT`] = 8889
//! actions (the pass slot among them, unused unless `stuck=pass`), and packed masks of
//! [`packed_mask_len`] = 1112 bytes. Telling a guard's inner return from the queen's
//! needs the position: use [`Action::from_move_in`] and [`write_position_mask`] there
//! ([`Action::from_move`] and [`write_mask`] read any return to an inner cell as the
//! queen's).
//!
//! # Observations
//!
//! [`CHANNEL_COUNT`] planes over the cells, from the point of view of the player to act
//! (the chooser, [`Position::chooser`]: the side to move, but for the return of a queen
//! chosen by her captor under `queen-placer=captor`), laid out either flat (91 cells by
//! index) or axially (an 11 x 11 square, row `r + 5`, column `q + 5`, cells off the
//! board 0): see [`CHANNELS`], [`write_observation`] and [`Layout`]. The planes are a
//! function of the position's board and turn only: they are the same for the same board
//! under every rule set, and do not tell rule sets apart (a learner that plays several
//! rule sets must be told the rule set by other inputs of its own).
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
    Cell, CellSet, Direction, GuardReturn, Move, MoveSet, Position, Ring, Rules, Side, Stuck,
    Symmetry, CELL_COUNT,
};

pub mod batch;
mod playouts;
pub mod replay;
mod vecenv;
pub use playouts::{random_playouts, random_playouts_capped, PlayoutStats};
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
/// The size of the standard action space (every rule set's actions but the pass).
pub const ACTION_COUNT: usize = INNER_RETURN_BASE + INNER_CELLS;
/// The number of the pass, the one action past the standard space, in rule sets with
/// `stuck=pass` only (see [`action_count`]).
pub const PASS_ACTION: usize = ACTION_COUNT;
/// The first action of the block of `guard-return=next-ring`: the return of the captured
/// guard on cell `c` to the inner cell `i` is `NEXT_RING_RETURN_BASE + c * 61 + j(i)`.
pub const NEXT_RING_RETURN_BASE: usize = PASS_ACTION + 1;
/// The size of the largest action space (`guard-return=next-ring`): the standard actions,
/// the pass slot and the block of guard returns to inner cells.
pub const MAX_ACTION_COUNT: usize = NEXT_RING_RETURN_BASE + CELL_COUNT * INNER_CELLS;

/// The size of the action space of `rules`, the width of its bool masks:
/// [`ACTION_COUNT`] (3337) for the standard rules and every rule set without a pass or
/// guard returns to inner cells; 3338 (the pass [`PASS_ACTION`] included) under
/// `stuck=pass`; [`MAX_ACTION_COUNT`] (8889) under `guard-return=next-ring`.
///
/// ```
/// use agon_core::{GuardReturn, Rules};
/// use agon_rl::{action_count, ACTION_COUNT};
/// assert_eq!(action_count(Rules::STANDARD), ACTION_COUNT);
/// assert_eq!(action_count(Rules::LUDII), 3338);
/// assert_eq!(action_count(Rules::STANDARD.with_guard_return(GuardReturn::NextRing)), 8889);
/// ```
pub const fn action_count(rules: Rules) -> usize {
    if matches!(rules.guard_return(), GuardReturn::NextRing) {
        MAX_ACTION_COUNT
    } else if matches!(rules.stuck(), Stuck::Pass) {
        PASS_ACTION + 1
    } else {
        ACTION_COUNT
    }
}

/// The bytes of a bit-packed mask of `rules`: [`PACKED_MASK_LEN`] (418, the pass in its
/// padding), or 1112 under `guard-return=next-ring`.
///
/// ```
/// use agon_core::{GuardReturn, Rules};
/// use agon_rl::{packed_mask_len, PACKED_MASK_LEN};
/// assert_eq!(packed_mask_len(Rules::LUDII), PACKED_MASK_LEN);
/// assert_eq!(packed_mask_len(Rules::STANDARD.with_guard_return(GuardReturn::NextRing)), 1112);
/// ```
pub const fn packed_mask_len(rules: Rules) -> usize {
    action_count(rules).div_ceil(8)
}

/// One of the [`ACTION_COUNT`] standard actions, or the pass ([`Action::PASS`]).
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

/// The action of a guard's return from `from` to the inner cell `to` (`next-ring`).
#[inline]
fn next_ring_action(t: &Tables, from: Cell, to: Cell) -> usize {
    NEXT_RING_RETURN_BASE + from.index() * INNER_CELLS + usize::from(t.rank[to.index()])
}

fn cell(index: usize) -> Cell {
    match Cell::from_index(index) {
        Some(c) => c,
        None => unreachable!("cell index {index} out of range"),
    }
}

fn action_of(t: &Tables, m: Move) -> Option<Action> {
    action_of_in(t, m, None)
}

/// The action of `m`; `queen` is the cell of the queen of the side to move, when known: a
/// return to an inner cell from another cell is then a guard's (`next-ring`).
#[inline]
fn action_of_in(t: &Tables, m: Move, queen: Option<Cell>) -> Option<Action> {
    let Some((from, to)) = m.cells() else {
        return Some(Action::PASS);
    };
    let index = match m {
        Move::Step { .. } => from.index() * 6 + direction(t, from, to)?.index(),
        Move::Return { .. } if to.ring() == Ring::OUTER => {
            OUTER_RETURN_BASE + from.index() * OUTER_CELLS + usize::from(t.rank[to.index()])
        }
        Move::Return { .. } if queen.is_some_and(|q| q != from) => next_ring_action(t, from, to),
        Move::Return { .. } => INNER_RETURN_BASE + usize::from(t.rank[to.index()]),
        Move::Pass => unreachable!("a pass has no cells"),
    };
    Some(Action(index as u16))
}

impl Action {
    /// The pass ([`PASS_ACTION`]), an action only of rule sets with `stuck=pass`.
    ///
    /// ```
    /// use agon_core::{Move, Position, Rules, Symmetry};
    /// use agon_rl::{Action, PASS_ACTION};
    /// assert_eq!(Action::PASS.index(), PASS_ACTION);
    /// assert_eq!(Action::from_move(Move::Pass), Some(Action::PASS));
    /// assert_eq!(Action::PASS.to_move(&Position::start()), Some(Move::Pass));
    /// assert!(Symmetry::ALL.iter().all(|&s| Action::PASS.apply(s) == Action::PASS));
    /// ```
    pub const PASS: Action = Action(PASS_ACTION as u16);

    /// The action with this number in the action space of `rules`: below
    /// [`action_count`]`(rules)`, so the pass only under `stuck=pass`.
    ///
    /// ```
    /// use agon_core::Rules;
    /// use agon_rl::{Action, PASS_ACTION};
    /// assert_eq!(Action::new_in(PASS_ACTION, Rules::LUDII), Some(Action::PASS));
    /// assert_eq!(Action::new_in(PASS_ACTION, Rules::STANDARD), None);
    /// assert_eq!(Action::new_in(7, Rules::STANDARD), Action::new(7));
    /// ```
    pub const fn new_in(index: usize, rules: Rules) -> Option<Action> {
        if index < action_count(rules) {
            Some(Action(index as u16))
        } else {
            None
        }
    }

    /// Whether this is the pass.
    ///
    /// ```
    /// assert!(agon_rl::Action::PASS.is_pass());
    /// assert!(!agon_rl::Action::new(0).unwrap().is_pass());
    /// ```
    pub const fn is_pass(self) -> bool {
        self.0 as usize == PASS_ACTION
    }

    /// The action with this number, if it is below [`ACTION_COUNT`] (a standard action;
    /// [`Action::new_in`] also takes the pass under the rule sets that have it).
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

    /// The action's number: below [`ACTION_COUNT`], or [`PASS_ACTION`] for the pass.
    ///
    /// ```
    /// let a = agon_rl::Action::new(3336).unwrap();
    /// assert_eq!(a.index(), 3336);
    /// ```
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The action of a move ([`Action::PASS`] for [`Move::Pass`]), or `None` for a step
    /// between cells that are not adjacent (no such move is ever legal). Needs no
    /// position.
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

    /// The action of a move of `position`: [`Action::from_move`], but that a return to an
    /// inner cell of a piece other than the side to move's queen (a guard's, under
    /// `guard-return=next-ring`) is an action of the block [`NEXT_RING_RETURN_BASE`].
    /// The same as [`Action::from_move`] under every other rule set.
    ///
    /// ```
    /// use agon_core::{GuardReturn, Move, Position, Rules};
    /// use agon_rl::{Action, NEXT_RING_RETURN_BASE};
    /// let rules = Rules::STANDARD.with_guard_return(GuardReturn::NextRing);
    /// // White's guard e6 captured on ring 1: it returns to ring 2.
    /// let text = "Qf1,Ga5,Gb1,Ge6*,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";
    /// let pos = Position::from_text_with_rules(text, rules)?;
    /// let m = pos.legal_moves()[0];
    /// let a = Action::from_move_in(m, &pos).unwrap();
    /// assert!(a.index() >= NEXT_RING_RETURN_BASE);
    /// assert_eq!(a.to_move(&pos), Some(m));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn from_move_in(m: Move, position: &Position) -> Option<Action> {
        action_of_in(tables(), m, Some(position.queen(position.turn())))
    }

    /// The move this action stands for in `position` (not checked for legality), or
    /// `None` for a step off the board. A queen's return starts from the cell of the side
    /// to move's queen (whoever chooses it). The pass is [`Move::Pass`].
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
        if index == PASS_ACTION {
            Some(Move::Pass)
        } else if index >= NEXT_RING_RETURN_BASE {
            let a = index - NEXT_RING_RETURN_BASE;
            Some(Move::Return {
                from: cell(a / INNER_CELLS),
                to: t.inner[a % INNER_CELLS],
            })
        } else if index < STEP_ACTIONS {
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

    /// The image of this action under a symmetry: the action of the image of its move
    /// (the pass is its own image).
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
        let t = tables();
        match t.symmetries[symmetry.index()].get(self.index()) {
            Some(&image) => Action(image),
            None if self.is_pass() => self,
            None => {
                // A guard's return to an inner cell: the return between the images.
                let a = self.index() - NEXT_RING_RETURN_BASE;
                let (from, to) = (cell(a / INNER_CELLS), t.inner[a % INNER_CELLS]);
                Action(next_ring_action(t, symmetry.cell(from), symmetry.cell(to)) as u16)
            }
        }
    }
}

/// The image of every standard action under `symmetry`, by action number: `map[a]` is
/// the number of the image of action `a`. A permutation of `0..ACTION_COUNT`; the pass
/// ([`PASS_ACTION`]), where a rule set has it, is its own image under every symmetry.
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
/// `true` for each of them, `false` elsewhere. With room for the pass (`out` at least
/// [`MAX_ACTION_COUNT`] long, the width of [`action_count`] under `stuck=pass`), entry
/// [`PASS_ACTION`] is written too: whether `moves` hold the pass. Entries past that are
/// left alone.
///
/// # Panics
///
/// If `out` is shorter than [`ACTION_COUNT`], or if `moves` hold a pass and `out` has no
/// room for it (a mask of the standard width cannot hold the only legal action).
///
/// ```
/// use agon_core::{Move, Rules};
/// use agon_rl::{action_count, write_mask, PASS_ACTION};
/// let mut mask = vec![false; action_count(Rules::LUDII)];
/// write_mask([Move::Pass], &mut mask);
/// assert!(mask[PASS_ACTION] && mask.iter().filter(|&&b| b).count() == 1);
/// ```
///
/// ```
/// use agon_core::Position;
/// let mut mask = vec![true; agon_rl::ACTION_COUNT];
/// agon_rl::write_mask(Position::start().legal_moves().iter().copied(), &mut mask);
/// assert_eq!(mask.iter().filter(|&&b| b).count(), 27);
/// ```
pub fn write_mask(moves: impl IntoIterator<Item = Move>, out: &mut [bool]) {
    write_mask_with(moves, None, out);
}

/// Sets `out` to the mask of the legal actions of `position`, under its rules: the same
/// as [`write_mask`] of its legal moves, but that a guard's return to an inner cell
/// (`guard-return=next-ring`) is marked as its own action ([`Action::from_move_in`]).
/// `out` holds [`action_count`]`(position.rules())` entries or more (entries past
/// [`MAX_ACTION_COUNT`] are left alone).
///
/// # Panics
///
/// If `out` is shorter than [`ACTION_COUNT`], or has no room for a legal action.
///
/// ```
/// use agon_core::{Position, Rules};
/// use agon_rl::{action_count, write_position_mask};
/// let pos = Position::start_with_rules(Rules::LUDII);
/// let mut mask = vec![true; action_count(pos.rules())];
/// write_position_mask(&pos, &mut mask);
/// assert_eq!(mask.iter().filter(|&&b| b).count(), 27);
/// ```
pub fn write_position_mask(position: &Position, out: &mut [bool]) {
    let queen = position.queen(position.turn());
    write_mask_with(position.actions(), Some(queen), out);
}

fn write_mask_with(moves: impl IntoIterator<Item = Move>, queen: Option<Cell>, out: &mut [bool]) {
    let width = mask_width(out.len());
    let out = &mut out[..width];
    out.fill(false);
    let t = tables();
    for m in moves {
        if let Some(a) = action_of_in(t, m, queen) {
            out[a.index()] = true;
        }
    }
}

/// The bytes of a bit-packed mask: [`ACTION_COUNT`] bits, 8 actions a byte, the last byte
/// padded with zeros (418 bytes). The same under every rule set but
/// `guard-return=next-ring` (see [`packed_mask_len`]): the pass ([`PASS_ACTION`]), where
/// a rule set has it, is bit 3337, in the padding (see [`write_packed_mask`]).
pub const PACKED_MASK_LEN: usize = ACTION_COUNT.div_ceil(8);

/// The entries of a bool mask written into a buffer of `len`: the standard actions,
/// and the pass if there is room for it (slicing a shorter buffer to it panics).
#[inline]
fn mask_width(len: usize) -> usize {
    len.clamp(ACTION_COUNT, MAX_ACTION_COUNT)
}

/// Sets `out` (at least [`PACKED_MASK_LEN`] bytes; a return of the `next-ring` block
/// needs [`packed_mask_len`] of its rules) to the bit-packed mask of the actions of
/// `moves` (as [`Action::from_move`] numbers them; bytes past the last action's are left
/// alone): action `a` is bit `7 - a % 8` of byte `a / 8` (the most significant bit first,
/// the order of `numpy.packbits` and `numpy.unpackbits`), and the padding bits are 0 but
/// for the pass: bit [`PASS_ACTION`] (bit 6 of byte 417) is set when `moves` hold the
/// pass (`stuck=pass` only; it is 0 otherwise).
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
    let len = out
        .len()
        .clamp(PACKED_MASK_LEN, MAX_ACTION_COUNT.div_ceil(8));
    let out = &mut out[..len];
    out.fill(0);
    let t = tables();
    for m in moves {
        if let Some(a) = action_of(t, m) {
            set_bit(out, a.index());
        }
    }
}

/// Unpacks a bit-packed mask (see [`write_packed_mask`]) into one bool per action, as
/// `numpy.unpackbits(packed, count=len(out)).astype(bool)` does: the [`ACTION_COUNT`]
/// standard actions, and the pass too if `out` has room for it ([`MAX_ACTION_COUNT`]
/// entries or more; entries past that are left alone).
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
    let width = mask_width(out.len());
    let packed = &packed[..width.div_ceil(8)];
    for (bits, byte) in out[..width].chunks_mut(8).zip(packed) {
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
/// returns; `queen` is the cell of the queen of the side to move).
#[inline]
fn for_each_return(t: &Tables, actions: &MoveSet, queen: Cell, mut set: impl FnMut(usize)) {
    for (from, targets) in actions.entries() {
        let outer = OUTER_RETURN_BASE + from.index() * OUTER_CELLS;
        let inner = if from == queen {
            INNER_RETURN_BASE
        } else {
            NEXT_RING_RETURN_BASE + from.index() * INNER_CELLS
        };
        for to in targets {
            let rank = usize::from(t.rank[to.index()]);
            set(if to.ring() == Ring::OUTER {
                outer + rank
            } else {
                inner + rank
            });
        }
    }
}

/// The mask of `actions` (a position's legal actions) as one bool per action: the same
/// as [`write_position_mask`], without building the moves. `out` is
/// [`action_count`] of the rules long; `position` is the actions' position.
fn write_bool_mask(actions: &MoveSet, position: &Position, out: &mut [bool]) {
    let t = tables();
    if out.len() > ACTION_COUNT {
        out[ACTION_COUNT..].fill(false);
        out[PASS_ACTION] = actions.is_pass();
    }
    if actions.are_returns() {
        out[..ACTION_COUNT].fill(false);
        let queen = position.queen(position.turn());
        for_each_return(t, actions, queen, |a| out[a] = true);
        return;
    }
    let out = &mut out[..ACTION_COUNT];
    out.fill(false);
    for (from, targets) in actions.entries() {
        let bits = step_bits(t, from, targets);
        let base = from.index() * 6;
        for (d, b) in out[base..base + 6].iter_mut().enumerate() {
            *b = bits >> d & 1 != 0;
        }
    }
}

/// The mask of `actions`, bit-packed (see [`write_packed_mask`]).
fn write_bit_mask(actions: &MoveSet, position: &Position, out: &mut [u8]) {
    let t = tables();
    out.fill(0);
    if actions.is_pass() {
        set_bit(out, PASS_ACTION);
        return;
    }
    if actions.are_returns() {
        let queen = position.queen(position.turn());
        for_each_return(t, actions, queen, |a| set_bit(out, a));
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
/// play them. Its seed is [`agon_core::random::seed_of`]`(seed, &[index])`, the one
/// seeding scheme that the arena and the Python tools share.
///
/// ```
/// use agon_core::random::{seed_of, Rng};
/// use agon_rl::game_rng;
/// assert_eq!(game_rng(7, 3), Rng::new(seed_of(7, &[3])));
/// assert_ne!(game_rng(7, 3).next_u64(), game_rng(7, 4).next_u64());
/// assert_ne!(game_rng(7, 3).next_u64(), game_rng(8, 3).next_u64());
/// ```
pub fn game_rng(seed: u64, index: u64) -> Rng {
    // Two rounds of SplitMix64's mixing (seed_of): the streams start at unrelated states
    // (a plain `seed + index` would make game `index + 1` replay game `index`'s stream one
    // draw later, since SplitMix64 steps its state by a constant).
    Rng::new(agon_core::random::seed_of(seed, &[index]))
}

/// The observation channels, each a plane over the cells, from the view of the player to
/// act (the chooser, [`Position::chooser`]), "own" being the chooser's pieces:
///
/// - `own-queen`, `own-guards`, `opponent-queen`, `opponent-guards`: the pieces, captured
///   or not; `own-captured`, `opponent-captured`: the captured ones.
/// - `forbidden`: the empty or occupied cells between two opponent pieces on a straight
///   line (captured pieces count), [`Position::forbidden_cells`] of the chooser. Under
///   every rule set: R4 forbids stepping there under `between=forbidden`, a step there
///   traps under `between=trapped`, and under `between=allowed` the plane is the same
///   geometry though it restricts nothing (it is kept rather than emptied, so that the
///   planes of a board do not depend on the rule set).
/// - `throne`, `throne-ring`, `board`: constant planes.
/// - `white-to-move`: all ones when White is the side to move ([`Position::turn`]). The
///   side to move is the chooser except where a queen's captor places her (V5
///   `captor`): the chooser is then the other side, and the planes show that one of its
///   opponent's pieces, the queen, is captured with the opponent to move.
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
/// as 0 and 1 of any number type (`f32`, `u8`, ...), from the view of the player to act
/// ([`Position::chooser`], see [`CHANNELS`]).
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
    let us = position.chooser();
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
    to_move.fill(T::from(position.turn() == Side::White));
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
