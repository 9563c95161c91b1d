//! The engine's evaluation: a weighted sum of [`FEATURES`] of a position, each counted for
//! the side to move minus the opponent, in [centipoints](crate::Evaluation).
//!
//! The evaluation is linear in its features, so that its weights can be fitted by logistic
//! regression on game results (Texel tuning, see `agon-bots/tuning/README.md`): the
//! expected result of the side to move is modelled as `1 / (1 + 10^(-eval / 400))`, which
//! fixes the unit. A score of +100 means an expected result of about 0.64, +400 about 0.91.
//!
//! | feature | counted for each side |
//! |---|---|
//! | `queen_throne`, `queen_ring1` .. `queen_ring4` | 1 if its queen stands on the throne, ring 1, .. ring 4; a captured queen counts as on the throne if it is empty (she may return there, R8), else on ring 1 |
//! | `queen_detour` | the steps its queen needs to reach the throne through empty cells it may enter (R2, R4), minus her ring: 0 on an open straight path; 12 minus her ring when the way is shut |
//! | `guards_ring1` .. `guards_ring4` | its uncaptured guards on ring 1 .. ring 4 |
//! | `throne_guards` | its uncaptured guards on ring 1 while its own queen holds the throne |
//! | `shut_cells` | empty ring-1 cells the opponent may not enter (R4) while its own queen holds the throne |
//! | `captured_guards`, `captured_queen` | its captured guards, its captured queen (0 or 1) |
//! | `mobility` | its legal steps, counted only while no piece is captured |
//! | `threats_now` | (side to move only) opponent pieces it can capture with one step now |
//! | `threats_next` | (opponent only) pieces of the side to move it could capture with one step if it were its turn |
//! | `queen_threatened` | its queen is among the pieces of the two rows above |
//! | `ring_without_queen` | its uncaptured guards on ring 1 while the enemy queen holds the throne (guards that can only complete a ring that loses, R10) |
//! | `ring_five_no_queen` | 1 if five of its guards hold ring 1 and its queen is not on the throne |
//! | `throne_ring_four` | 1 if its queen holds the throne with at least four of its guards on ring 1 |
//! | `ring1_blockers` | uncaptured enemy pieces on ring 1 while its queen holds the throne |
//! | `tempo` | 1 for the side to move |
//!
//! The weights ([`WEIGHTS`]) were fitted as described in `agon-bots/tuning/README.md`
//! (Texel tuning); a position whose throne ring is complete is left to the search (it is
//! over).
//!
//! ```
//! use agon_bots::engine_eval::{evaluate, features, FEATURES};
//! use agon_core::Position;
//!
//! let start = Position::start();
//! let f = features(&start);
//! assert_eq!(f.len(), FEATURES.len());
//! // The start is symmetric: only the tempo term differs between the sides.
//! let tempo = FEATURES.iter().position(|&n| n == "tempo").unwrap();
//! assert!(f.iter().enumerate().all(|(i, &v)| v == 0 || i == tempo));
//! assert_eq!(evaluate(&start), agon_bots::engine_eval::WEIGHTS[tempo]);
//! ```

use agon_core::{Between, Cell, CellSet, Direction, MoveSet, Position, Ring, Side};

/// The names of the features, in the order of [`features`] and [`WEIGHTS`].
///
/// ```
/// assert_eq!(agon_bots::engine_eval::FEATURES[0], "queen_throne");
/// ```
pub const FEATURES: [&str; NUM_FEATURES] = [
    "queen_throne",
    "queen_ring1",
    "queen_ring2",
    "queen_ring3",
    "queen_ring4",
    "queen_detour",
    "guards_ring1",
    "guards_ring2",
    "guards_ring3",
    "guards_ring4",
    "throne_guards",
    "shut_cells",
    "captured_guards",
    "captured_queen",
    "mobility",
    "threats_now",
    "threats_next",
    "queen_threatened",
    "ring_without_queen",
    "ring_five_no_queen",
    "throne_ring_four",
    "ring1_blockers",
    "tempo",
];

/// The number of features.
///
/// ```
/// assert_eq!(agon_bots::engine_eval::NUM_FEATURES, 23);
/// ```
pub const NUM_FEATURES: usize = 23;

/// The weight of each feature, in centipoints (see the [module docs](self)): the first
/// weights fitted by `agon-bots/tuning` (Texel tuning on the decisive games of 300
/// self-play games at 3000 nodes a move, 6 192 positions; cross-entropy 0.953 before,
/// 0.539 after). Against the hand-set weights they replaced, at 3000 nodes a move from
/// the book: 8 wins, 17 draws, 5 losses (+35 Elo, 95% interval [-48, 122]; the SPRT
/// [0, 20] had not decided).
///
/// The ring weights of that fit were then made monotone (a piece is worth at least as
/// much one ring further in) by the least-squares projection `tune fit --monotone` applies
/// (pool adjacent violators): queen rings 1 to 4 were 117, 19, 0, 36 (now 117, 19, 18,
/// 18) and guard rings 1 to 4 were 72, 102, 48, 56 (now 87, 87, 52, 52); the other
/// weights are unchanged. The old order made the engine reluctant to march guards and
/// queen inward. From the book, same openings, before and after:
/// `arena -- engine:n20000 alphabeta:4 40 1 --book --concurrency 2` went from 35-3-2
/// (3 capped, 0.912 [0.794, 0.959]) to 37-3-0 (3 capped, 0.963 [0.864, 0.979]), and
/// `arena -- engine:n50000 alphabeta:5 24 1 --book --concurrency 2` from 15-6-3
/// (5 capped, 0.750 [0.575, 0.856]) to 20-1-3 (1 capped, 0.854 [0.670, 0.941]).
/// On the fresh data below the projection also lowers the cross-entropy: 0.7285 to
/// 0.6895 on the positions of decisive games, 0.7561 to 0.7524 on all positions.
/// Re-fits on fresh self-play data (400 games, `tune gen 200 engine:n3000` seeds 11 and
/// 111), with or without `--decisive` and `--monotone`, played worse and were not kept
/// (see `agon-bots/tuning/README.md`).
///
/// ```
/// use agon_bots::engine_eval::WEIGHTS;
/// // Each weight is finite and the queen on the throne is worth more than on ring 1.
/// assert!(WEIGHTS[0] > WEIGHTS[1]);
/// // The ring weights do not grow outward (queen: throne to ring 4; guards: rings 1 to 4).
/// assert!(WEIGHTS[..5].windows(2).all(|w| w[0] >= w[1]));
/// assert!(WEIGHTS[6..10].windows(2).all(|w| w[0] >= w[1]));
/// ```
pub const WEIGHTS: [i32; NUM_FEATURES] = [
    175,  // queen_throne
    117,  // queen_ring1
    19,   // queen_ring2
    18,   // queen_ring3
    18,   // queen_ring4
    -5,   // queen_detour
    87,   // guards_ring1
    87,   // guards_ring2
    52,   // guards_ring3
    52,   // guards_ring4
    44,   // throne_guards
    9,    // shut_cells
    1,    // captured_guards
    0,    // captured_queen
    23,   // mobility
    0,    // threats_now
    35,   // threats_next
    44,   // queen_threatened
    32,   // ring_without_queen
    0,    // ring_five_no_queen
    114,  // throne_ring_four
    -168, // ring1_blockers
    6,    // tempo
];

/// The largest magnitude [`evaluate`] returns, below any win score of the search.
///
/// ```
/// use agon_bots::engine_eval::{evaluate, MAX_EVAL};
/// assert!(evaluate(&agon_core::Position::start()).abs() < MAX_EVAL);
/// ```
pub const MAX_EVAL: i32 = 20_000;

const fn ring_cells(d: u8) -> CellSet {
    match Ring::new(d) {
        Some(ring) => ring.cells(),
        None => CellSet::EMPTY,
    }
}

const RINGS: [CellSet; 6] = [
    ring_cells(0),
    ring_cells(1),
    ring_cells(2),
    ring_cells(3),
    ring_cells(4),
    ring_cells(5),
];

/// The feature values of `position`, side to move minus opponent, in the order of
/// [`FEATURES`]. A position whose throne ring is complete gets its features all the same
/// (the search scores it as won or lost before asking).
///
/// ```
/// use agon_bots::engine_eval::{features, FEATURES};
/// let pos: agon_core::Position = "Qf2,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b".parse()?;
/// let f = features(&pos);
/// let ring4 = FEATURES.iter().position(|&n| n == "queen_ring4").unwrap();
/// assert_eq!(f[ring4], -1); // White's queen is on ring 4, Black is to move
/// # Ok::<(), agon_core::ParseError>(())
/// ```
pub fn features(position: &Position) -> [i32; NUM_FEATURES] {
    features_given(position, None)
}

/// [`features`], given the moves of the side to move if the caller has them already
/// (`position.actions()`: the search lists them anyway).
fn features_given(position: &Position, actions: Option<&MoveSet>) -> [i32; NUM_FEATURES] {
    let own_steps = || {
        steps_and_threats(
            position,
            actions.copied().unwrap_or_else(|| position.actions()),
        )
    };
    let us = position.turn();
    let them = us.other();
    let mut f = [0i32; NUM_FEATURES];
    side_features(position, us, 1, &mut f);
    side_features(position, them, -1, &mut f);
    // Threats and mobility need each side's steps.
    let captured = position.captured();
    if captured.is_empty() {
        let (mob_us, threat_us) = own_steps();
        let (mob_them, threat_them) = opponent_steps(position);
        f[14] += mob_us as i32 - mob_them as i32;
        f[15] += threat_us.len() as i32;
        f[16] -= threat_them.len() as i32;
        if threat_us.contains(position.queen(them)) {
            f[17] -= 1;
        }
        if threat_them.contains(position.queen(us)) {
            f[17] += 1;
        }
    } else if position.captured_side() == Some(us) {
        // We must return; the opponent steps next: its threats are real next turn.
        let (_, threat_them) = opponent_steps(position);
        f[16] -= threat_them.len() as i32;
        if threat_them.contains(position.queen(us)) {
            f[17] += 1;
        }
    } else {
        // The opponent must return: our threats stand.
        let (_, threat_us) = own_steps();
        f[15] += threat_us.len() as i32;
        if threat_us.contains(position.queen(them)) {
            f[17] -= 1;
        }
    }
    f[22] = 1;
    f
}

/// Adds `sign` times the one-side features of `side` to `f`.
fn side_features(position: &Position, side: Side, sign: i32, f: &mut [i32; NUM_FEATURES]) {
    let captured = position.captured();
    let queen = position.queen(side);
    let enemy_queen = position.queen(side.other());
    let queen_free = !captured.contains(queen);
    if queen_free {
        let ring = queen.ring().distance() as usize;
        if ring <= 4 {
            f[ring] += sign;
        }
        f[5] += sign * queen_detour(position, side, queen);
    } else {
        // A captured queen returns anywhere, the throne included (R8): she counts as on
        // the throne if it is empty, else as on ring 1, and the turn spent as a cost; as
        // on ring 1 where she may not return to the throne (queen-return=not-throne), and
        // on the outer ring, which has no term, where her captor places her.
        let ring = crate::eval::captured_queen_ring(position);
        if ring <= 4 {
            f[ring] += sign;
        }
        f[13] += sign;
    }
    let guards = position.guards(side);
    let free_guards = guards - captured;
    for d in 1..=4 {
        f[5 + d] += sign * (free_guards & RINGS[d]).len() as i32;
    }
    f[12] += sign * (guards & captured).len() as i32;
    let ring_guards = (free_guards & Ring::THRONE_RING.cells()).len() as i32;
    if queen_free && queen == Cell::THRONE {
        f[10] += sign * ring_guards;
        let shut =
            blocked_cells(position, side.other()) & position.empty() & Ring::THRONE_RING.cells();
        f[11] += sign * shut.len() as i32;
        if ring_guards >= 4 {
            f[20] += sign;
        }
        let blockers = (position.pieces_of(side.other()) - captured) & Ring::THRONE_RING.cells();
        f[21] += sign * blockers.len() as i32;
    } else {
        if enemy_queen == Cell::THRONE && !captured.contains(enemy_queen) {
            f[18] += sign * ring_guards;
        }
        if ring_guards >= 5 {
            f[19] += sign;
        }
    }
}

/// The cells `side` may not step to, or would be trapped on (R4; none under
/// `between=allowed`).
#[inline]
fn blocked_cells(position: &Position, side: Side) -> CellSet {
    if position.rules().between() == Between::Allowed {
        CellSet::EMPTY
    } else {
        position.forbidden_cells(side)
    }
}

/// The number of steps the queen of `side` on `queen` needs to reach the throne through
/// empty cells it may enter, minus her ring; `12 - ring` if she cannot reach it.
fn queen_detour(position: &Position, side: Side, queen: Cell) -> i32 {
    let ring = queen.ring().distance() as i32;
    if ring == 0 {
        return 0;
    }
    let allowed = position.empty() - blocked_cells(position, side);
    if !allowed.contains(Cell::THRONE) {
        return 12 - ring;
    }
    let mut frontier = CellSet::from(queen);
    let mut seen = frontier;
    for steps in 1..12 {
        // One step of every frontier cell to its neighbours in its ring or the next ring
        // inward: one shift a direction, of the cells that step is not outward from.
        let mut next = CellSet::EMPTY;
        for d in Direction::ALL {
            next |= (frontier & NOT_OUTWARD[d.index()]).shift(d);
        }
        next = next & allowed & !seen;
        if next.contains(Cell::THRONE) {
            return steps - ring;
        }
        if next.is_empty() {
            break;
        }
        seen |= next;
        frontier = next;
    }
    12 - ring
}

/// For each direction, the cells off the throne whose neighbour that way is in the same
/// ring or the next ring inward: where a step that way is not outward (R2).
const NOT_OUTWARD: [CellSet; 6] = {
    let mut t = [CellSet::EMPTY; 6];
    let mut i = 0;
    while i < agon_core::CELL_COUNT {
        if let Some(from) = Cell::from_index(i) {
            let mut d = 0;
            while d < 6 {
                if let Some(to) = from.neighbour(Direction::ALL[d]) {
                    let ring = from.ring().distance();
                    if ring > 0 && to.ring().distance() <= ring {
                        t[d] = t[d].with(from);
                    }
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
};

/// [`steps_and_threats`] of the side not to move, as if it were.
fn opponent_steps(position: &Position) -> (usize, CellSet) {
    let other = position.with_turn(position.turn().other());
    steps_and_threats(&other, other.actions())
}

/// The number of legal steps of the side to move in `position`, whose moves are
/// `actions`, and the enemy pieces it could capture with one of them.
fn steps_and_threats(position: &Position, actions: MoveSet) -> (usize, CellSet) {
    debug_assert!(actions.len() == position.actions().len());
    if actions.are_returns() {
        return (0, CellSet::EMPTY);
    }
    // The captures of all steps at once: they depend only on the cell stepped to.
    let reach = actions
        .entries()
        .fold(CellSet::EMPTY, |reach, (_, targets)| reach | targets);
    (actions.len(), position.captures_by_steps_to(reach))
}

/// The evaluation of `position` for the side to move, in centipoints: the dot product of
/// [`features`] and [`WEIGHTS`], clamped to `±`[`MAX_EVAL`].
///
/// ```
/// use agon_bots::engine_eval::evaluate;
/// use agon_core::Position;
/// // White's queen stepped inward: Black, to move, is behind.
/// let after = Position::start().play("f1-f2".parse()?).unwrap();
/// assert!(evaluate(&after) < evaluate(&Position::start()));
/// # Ok::<(), agon_core::ParseError>(())
/// ```
pub fn evaluate(position: &Position) -> i32 {
    evaluate_with(position, &WEIGHTS)
}

/// [`evaluate`] with other weights (for tuning).
///
/// ```
/// use agon_bots::engine_eval::{evaluate, evaluate_with, WEIGHTS};
/// let pos = agon_core::Position::start();
/// assert_eq!(evaluate_with(&pos, &WEIGHTS), evaluate(&pos));
/// assert_eq!(evaluate_with(&pos, &[0; 23]), 0);
/// ```
pub fn evaluate_with(position: &Position, weights: &[i32; NUM_FEATURES]) -> i32 {
    evaluate_given(position, weights, None)
}

/// [`evaluate_with`], given the moves of the side to move if the caller has them
/// (`position.actions()`).
pub(crate) fn evaluate_given(
    position: &Position,
    weights: &[i32; NUM_FEATURES],
    actions: Option<&MoveSet>,
) -> i32 {
    let f = features_given(position, actions);
    let sum: i32 = f.iter().zip(weights).map(|(a, b)| a * b).sum();
    sum.clamp(-MAX_EVAL + 1, MAX_EVAL - 1)
}
