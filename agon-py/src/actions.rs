//! The fixed action space and the observation planes, for reinforcement learning.
//!
//! # Actions
//!
//! There are [`ACTION_COUNT`] = 3337 actions, in three blocks:
//!
//! | actions | meaning |
//! |---|---|
//! | `0..546` | step of the piece on cell `c` in direction `d`: `c * 6 + d` (directions clockwise from north) |
//! | `546..3276` | return of the captured piece on cell `c` to the outer-ring cell `o`: `546 + c * 30 + k(o)` |
//! | `3276..3337` | return of the side's captured queen to the inner cell `i` (rings 0-4): `3276 + j(i)` |
//!
//! `k(o)` is the rank of `o` among the 30 outer-ring cells and `j(i)` that of `i` among the
//! 61 inner cells, both in cell index order. A guard only ever returns to the outer ring,
//! and only the queen can return off it; a side has one queen, so a return to an inner
//! cell needs no `from` cell. Every legal move of every position has exactly one action,
//! the mapping from moves to actions needs no position, and each of the twelve symmetries
//! permutes the actions (it keeps the rings, so it keeps each block).

use agon_core as ac;

/// The number of step actions: a cell and a direction.
pub const STEP_ACTIONS: usize = ac::CELL_COUNT * 6;
/// The first action returning a piece to the outer ring.
pub const OUTER_RETURN_BASE: usize = STEP_ACTIONS;
/// The number of outer-ring cells.
pub const OUTER_CELLS: usize = 30;
/// The first action returning the queen to an inner cell.
pub const INNER_RETURN_BASE: usize = OUTER_RETURN_BASE + ac::CELL_COUNT * OUTER_CELLS;
/// The number of inner cells (rings 0 to 4).
pub const INNER_CELLS: usize = ac::CELL_COUNT - OUTER_CELLS;
/// The size of the action space.
pub const ACTION_COUNT: usize = INNER_RETURN_BASE + INNER_CELLS;

/// Per-cell lookup tables of the action space.
struct Tables {
    /// The rank of each cell among the outer cells (outer) or the inner cells (inner).
    rank: [u8; ac::CELL_COUNT],
    outer: [ac::Cell; OUTER_CELLS],
    inner: [ac::Cell; INNER_CELLS],
}

fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        let mut t = Tables {
            rank: [0; ac::CELL_COUNT],
            outer: [ac::Cell::THRONE; OUTER_CELLS],
            inner: [ac::Cell::THRONE; INNER_CELLS],
        };
        let (mut o, mut i) = (0, 0);
        for c in ac::Cell::all() {
            if c.ring() == ac::Ring::OUTER {
                t.rank[c.index()] = o as u8;
                t.outer[o] = c;
                o += 1;
            } else {
                t.rank[c.index()] = i as u8;
                t.inner[i] = c;
                i += 1;
            }
        }
        t
    })
}

/// The direction from `from` to the adjacent cell `to`, read from the difference of
/// their cube coordinates.
#[inline]
fn direction(from: ac::Cell, to: ac::Cell) -> Option<ac::Direction> {
    let (q1, r1, _) = from.cube();
    let (q2, r2, _) = to.cube();
    let d = match (q2 - q1, r2 - r1) {
        (0, -1) => 0,
        (1, -1) => 1,
        (1, 0) => 2,
        (0, 1) => 3,
        (-1, 1) => 4,
        (-1, 0) => 5,
        _ => return None,
    };
    ac::Direction::from_index(d)
}

/// The action of a move, or `None` for a step between cells that are not adjacent (no
/// such move is ever legal).
#[inline]
pub fn move_to_action(m: ac::Move) -> Option<usize> {
    let t = tables();
    let (from, to) = (m.from(), m.to());
    match m {
        ac::Move::Step { .. } => Some(from.index() * 6 + direction(from, to)?.index()),
        ac::Move::Return { .. } if to.ring() == ac::Ring::OUTER => {
            Some(OUTER_RETURN_BASE + from.index() * OUTER_CELLS + t.rank[to.index()] as usize)
        }
        ac::Move::Return { .. } => Some(INNER_RETURN_BASE + t.rank[to.index()] as usize),
    }
}

/// The move an action stands for in `position` (not checked for legality), or `None` for
/// a number out of range or a step off the board.
pub fn action_to_move(position: &ac::Position, action: usize) -> Option<ac::Move> {
    let t = tables();
    if action < STEP_ACTIONS {
        let from = ac::Cell::from_index(action / 6)?;
        let to = from.neighbour(ac::Direction::from_index(action % 6)?)?;
        Some(ac::Move::Step { from, to })
    } else if action < INNER_RETURN_BASE {
        let a = action - OUTER_RETURN_BASE;
        let from = ac::Cell::from_index(a / OUTER_CELLS)?;
        Some(ac::Move::Return {
            from,
            to: t.outer[a % OUTER_CELLS],
        })
    } else if action < ACTION_COUNT {
        let from = position.queen(position.turn());
        Some(ac::Move::Return {
            from,
            to: t.inner[action - INNER_RETURN_BASE],
        })
    } else {
        None
    }
}

/// Writes the mask of legal actions (`ACTION_COUNT` entries).
#[inline]
pub fn write_mask(moves: impl IntoIterator<Item = ac::Move>, out: &mut [bool]) {
    out.fill(false);
    for m in moves {
        if let Some(a) = move_to_action(m) {
            out[a] = true;
        }
    }
}

/// For each symmetry, the image of every action.
pub fn action_symmetries() -> Vec<[u32; ACTION_COUNT]> {
    let t = tables();
    ac::Symmetry::ALL
        .into_iter()
        .map(|s| {
            let mut map = [0u32; ACTION_COUNT];
            // Symmetries fix the throne and act linearly, so they map directions alike
            // everywhere: read the image of each direction at the throne.
            let dir_image: [usize; 6] = ac::Direction::ALL.map(|d| {
                let n = ac::Cell::THRONE.neighbour(d).map(|c| s.cell(c));
                direction(ac::Cell::THRONE, n.unwrap_or(ac::Cell::THRONE)).map_or(0, |d| d.index())
            });
            for c in ac::Cell::all() {
                for d in 0..6 {
                    map[c.index() * 6 + d] = (s.cell(c).index() * 6 + dir_image[d]) as u32;
                }
                for (k, &o) in t.outer.iter().enumerate() {
                    let a = OUTER_RETURN_BASE + c.index() * OUTER_CELLS + k;
                    let image = ac::Move::Return {
                        from: s.cell(c),
                        to: s.cell(o),
                    };
                    map[a] = move_to_action(image).unwrap_or(a) as u32;
                }
            }
            for (j, &i) in t.inner.iter().enumerate() {
                let image = ac::Move::Return {
                    from: s.cell(i),
                    to: s.cell(i),
                };
                map[INNER_RETURN_BASE + j] =
                    move_to_action(image).unwrap_or(INNER_RETURN_BASE + j) as u32;
            }
            map
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Observations

/// The observation channels, each a plane over the 91 cells, from the side to move's view.
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
/// Cells per plane in the flat layout.
pub const FLAT: usize = ac::CELL_COUNT;
/// Side of the square axial layout.
pub const AXIAL_SIDE: usize = 11;
/// Cells per plane in the axial layout.
pub const AXIAL: usize = AXIAL_SIDE * AXIAL_SIDE;

/// The position of each cell in the axial layout: `row * 11 + column` with
/// `row = r + 5`, `column = q + 5`.
pub fn axial_offset(c: ac::Cell) -> usize {
    let (q, r, _) = c.cube();
    (r + 5) as usize * AXIAL_SIDE + (q + 5) as usize
}

/// The constant planes (throne, throne ring, board) in both layouts.
struct ConstantPlanes {
    flat: [f32; 3 * FLAT],
    axial: [f32; 3 * AXIAL],
    axial_offset: [u16; ac::CELL_COUNT],
}

fn constants() -> &'static ConstantPlanes {
    static PLANES: std::sync::OnceLock<ConstantPlanes> = std::sync::OnceLock::new();
    PLANES.get_or_init(|| {
        let mut p = ConstantPlanes {
            flat: [0.0; 3 * FLAT],
            axial: [0.0; 3 * AXIAL],
            axial_offset: [0; ac::CELL_COUNT],
        };
        for c in ac::Cell::all() {
            let ring = c.ring().distance();
            let values = [
                f32::from(u8::from(ring == 0)),
                f32::from(u8::from(ring == 1)),
                1.0,
            ];
            let ax = axial_offset(c);
            p.axial_offset[c.index()] = ax as u16;
            for (k, v) in values.into_iter().enumerate() {
                p.flat[k * FLAT + c.index()] = v;
                p.axial[k * AXIAL + ax] = v;
            }
        }
        p
    })
}

/// Writes the observation of `position` into `out` (`CHANNEL_COUNT * 91` floats, or
/// `CHANNEL_COUNT * 121` with `axial`).
pub fn write_observation(position: &ac::Position, axial: bool, out: &mut [f32]) {
    let k = constants();
    let plane = if axial { AXIAL } else { FLAT };
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
    out[..sets.len() * plane].fill(0.0);
    for (ch, set) in sets.into_iter().enumerate() {
        let base = ch * plane;
        for c in set {
            let at = if axial {
                k.axial_offset[c.index()] as usize
            } else {
                c.index()
            };
            out[base + at] = 1.0;
        }
    }
    let constant_start = sets.len() * plane;
    let constant_end = constant_start + 3 * plane;
    out[constant_start..constant_end].copy_from_slice(if axial { &k.axial } else { &k.flat });
    let white = if us == ac::Side::White { 1.0 } else { 0.0 };
    out[constant_end..constant_end + plane].fill(white);
}

/// The length of one observation.
pub const fn observation_len(axial: bool) -> usize {
    CHANNEL_COUNT * if axial { AXIAL } else { FLAT }
}
