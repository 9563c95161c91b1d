//! Move ordering: the table's move, then winning steps, captures (more pieces, and the
//! queen, first) and the returns of a captured queen to the throne, then killer moves,
//! then by history (how often a move caused a cutoff, weighted by depth).

use agon_core::{Cell, CellSet, Move, Position, Ring, CELL_COUNT};

/// Two quiet moves per ply that recently caused a cutoff there.
pub(crate) struct Killers(Vec<[Option<Move>; 2]>);

impl Killers {
    /// Killers for plies `0..plies` (the search gives its own bound, `MAX_PLY + 1`: this
    /// module does not know the search).
    pub(crate) fn new(plies: usize) -> Killers {
        Killers(vec![[None; 2]; plies])
    }

    pub(crate) fn at(&self, ply: usize) -> [Option<Move>; 2] {
        self.0[ply]
    }

    pub(crate) fn add(&mut self, ply: usize, m: Move) {
        let k = &mut self.0[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
    }
}

/// Cutoff counts by (kind, from, to): a step and a return of each ordered pair of the
/// [`CELL_COUNT`] cells.
pub(crate) struct History(Vec<i32>);

const HISTORY_MAX: i32 = 100_000;

impl History {
    pub(crate) fn new() -> History {
        History(vec![0; 2 * CELL_COUNT * CELL_COUNT])
    }

    /// A pass takes slot 0, which no step or return uses (a1 to a1).
    fn index(m: Move) -> usize {
        m.cells().map_or(0, |(from, to)| {
            usize::from(m.is_return()) * CELL_COUNT * CELL_COUNT
                + from.index() * CELL_COUNT
                + to.index()
        })
    }

    pub(crate) fn get(&self, m: Move) -> i32 {
        self.0[Self::index(m)]
    }

    pub(crate) fn reward(&mut self, m: Move, depth: i32) {
        let h = &mut self.0[Self::index(m)];
        *h += depth * depth;
        if *h > HISTORY_MAX {
            for v in &mut self.0 {
                *v /= 2;
            }
        }
    }
}

/// Writes an ordering key for each move of `moves` into `keys` (higher first).
pub(crate) fn score_moves(
    position: &Position,
    moves: &[Move],
    tt_move: Option<Move>,
    killers: [Option<Move>; 2],
    history: &History,
    keys: &mut [i32],
) {
    let us = position.turn();
    let queen = position.queen(us);
    let completes_ring = queen == Cell::THRONE
        && ((position.guards(us) - position.captured()) & Ring::THRONE_RING.cells()).len() == 5;
    let enemy_queen = position.queen(us.other());
    // The throne is the owner's best return for her queen, not the captor's.
    let own_return = position.chooser() == us;
    let capturing = position.capturing_cells();
    for (key, &m) in keys.iter_mut().zip(moves) {
        let Some((from, to)) = m.cells() else {
            *key = 0; // a pass is the only move when it is legal
            continue;
        };
        *key = if Some(m) == tt_move {
            10_000_000
        } else if m.is_return() {
            if from == queen && to == Cell::THRONE && own_return {
                5_000_000
            } else {
                history.get(m)
            }
        } else if completes_ring
            && Ring::THRONE_RING.cells().contains(to)
            && !Ring::THRONE_RING.cells().contains(from)
        {
            9_000_000
        } else {
            // Only steps to these cells capture: the others skip the capture test.
            let captured = if capturing.contains(to) {
                position.captures(m)
            } else {
                CellSet::EMPTY
            };
            if !captured.is_empty() {
                6_000_000
                    + 100_000 * captured.len() as i32
                    + 50_000 * i32::from(captured.contains(enemy_queen))
            } else if killers[0] == Some(m) {
                4_000_000
            } else if killers[1] == Some(m) {
                3_900_000
            } else {
                let inward = from.ring().distance() > to.ring().distance();
                history.get(m) + i32::from(inward) * 8
            }
        };
    }
}
