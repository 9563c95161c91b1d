//! The static evaluations: [`evaluate`] for [`GreedyBot`](crate::GreedyBot), and
//! [`evaluate_for_search`] for [`AlphaBetaBot`](crate::AlphaBetaBot).
//!
//! Agon is a race to the centre: a side wins by standing its queen on the throne with its
//! six guards around her (R10). Both evaluations score how far each side's pieces have
//! come inward, what captures cost, and how free the pieces are. Each side gets the sum of
//! the terms below; the evaluation is the side to move's sum minus the opponent's, in
//! points.
//!
//! | term | [`evaluate`] | [`evaluate_for_search`] |
//! |---|---|---|
//! | queen on the throne, ring 1, 2, 3, 4, 5 ([`QUEEN_RING`]) | 110, 62, 42, 26, 12, 0 | same |
//! | each guard on ring 1, 2, 3, 4, 5 ([`GUARD_RING`]) | 30, 21, 13, 6, 0 | same |
//! | each guard on ring 1 while its own queen holds the throne ([`GUARD_BY_THRONED_QUEEN`]) | 12 | same |
//! | a captured guard ([`CAPTURED_GUARD`]); it counts as on the outer ring, where it returns | -20 | same |
//! | a captured queen ([`CAPTURED_QUEEN`]); she counts as on the throne if it is empty (she may return there, R8), else as on ring 1 | -30 | same |
//! | each empty ring-1 cell the opponent may not step to (R4) while its own queen holds the throne ([`THRONE_GUARD_CELL`]) | 0 | 20 |
//! | each legal step, while no piece is captured ([`MOBILITY`], [`SEARCH_MOBILITY`]) | 1 | 6 |
//!
//! Why the search's terms differ: once both sides crowd the centre, pieces cannot step
//! back outward, and games are decided by who runs out of steps first (R12) or drawn by
//! repetition. While tuning in the arena (40 games), the alpha-beta bot at depth 5 scored
//! 0.86 against the greedy bot when it searched with the plain evaluation, nearly all the
//! rest draws; with these two terms it scored 0.96 to 1.00 on three such runs, and 0.995
//! over 200 games in its final form. The greedy bot keeps the plain
//! evaluation, as the simpler baseline.
//!
//! A position whose throne ring is complete (R10) is worth [`WIN`] or `-WIN` (0 when the
//! rules make a ring without its queen a draw, `empty-throne-ring=draw`). A side with no
//! legal action (R12, a pass under `stuck=pass`) and repetition (R11) are left to the
//! search, which sees them.
//!
//! Under other rule sets ([`agon_core::Rules`]) the terms follow the rules where they
//! name one: a captured queen counts as on the throne only if her owner may return her
//! there (not under `queen-return=not-throne`, where she counts as on ring 1, nor under
//! `queen-placer=captor`, where the opponent places her and she counts as on the outer
//! ring), and no ring-1 cell is shut under `between=allowed`. The evaluation is always
//! for the side to move; [`evaluate_for`] gives it for either side (a search scores a
//! node for its chooser, [`Position::chooser`]).

use agon_core::{Between, Cell, CellSet, Position, QueenPlacer, QueenReturn, Ring, Side};

// The one scale of won scores: its home is the search core, which the alpha-beta bot
// and the engine share, and its docs are there.
pub use crate::search_core::WIN;

/// The value of a queen by the ring she stands on (index 0 is the throne).
///
/// ```
/// use agon_bots::eval::QUEEN_RING;
/// assert!(QUEEN_RING.windows(2).all(|w| w[0] > w[1]));
/// ```
pub const QUEEN_RING: [i32; 6] = [110, 62, 42, 26, 12, 0];

/// The value of an uncaptured guard by its ring (a guard never stands on the throne).
///
/// ```
/// use agon_bots::eval::GUARD_RING;
/// assert!(GUARD_RING[1..].windows(2).all(|w| w[0] > w[1]));
/// ```
pub const GUARD_RING: [i32; 6] = [0, 30, 21, 13, 6, 0];

/// The bonus for each guard on ring 1 while its own queen is on the throne: the shape
/// that wins once the ring is full.
///
/// ```
/// assert!(agon_bots::eval::GUARD_BY_THRONED_QUEEN > 0);
/// ```
pub const GUARD_BY_THRONED_QUEEN: i32 = 12;

/// The cost of a captured guard besides its lost progress: the turn spent returning it.
///
/// ```
/// assert!(agon_bots::eval::CAPTURED_GUARD < 0);
/// ```
pub const CAPTURED_GUARD: i32 = -20;

/// The cost of a captured queen besides where she will return: the turn spent.
///
/// ```
/// assert!(agon_bots::eval::CAPTURED_QUEEN < 0);
/// ```
pub const CAPTURED_QUEEN: i32 = -30;

/// The value of each legal step in [`evaluate`] (counted only while no piece is captured,
/// since the many returns would swamp the count).
///
/// ```
/// assert!(agon_bots::eval::MOBILITY > 0);
/// ```
pub const MOBILITY: i32 = 1;

/// The value of each legal step in [`evaluate_for_search`].
///
/// ```
/// use agon_bots::eval::{MOBILITY, SEARCH_MOBILITY};
/// assert!(SEARCH_MOBILITY >= MOBILITY);
/// ```
pub const SEARCH_MOBILITY: i32 = 6;

/// The value, in [`evaluate_for_search`], of each empty ring-1 cell that the opponent may
/// not step to (it lies between two of our pieces, R4) while our queen holds the throne:
/// cells we can fill and the opponent cannot block.
///
/// ```
/// assert!(agon_bots::eval::THRONE_GUARD_CELL > 0);
/// ```
pub const THRONE_GUARD_CELL: i32 = 20;

/// The cells of ring 1, around the throne.
const RING1: CellSet = Ring::THRONE_RING.cells();

/// The weights that differ between the two evaluations.
struct Weights {
    mobility: i32,
    throne_guard_cell: i32,
}

const PLAIN: Weights = Weights {
    mobility: MOBILITY,
    throne_guard_cell: 0,
};

const SEARCH: Weights = Weights {
    mobility: SEARCH_MOBILITY,
    throne_guard_cell: THRONE_GUARD_CELL,
};

/// The score of `side` alone, without mobility.
fn side_score(position: &Position, side: Side, weights: &Weights) -> i32 {
    let queen = position.queen(side);
    let mut score = 0;
    if position.is_captured(queen) {
        score += QUEEN_RING[captured_queen_ring(position)] + CAPTURED_QUEEN;
    } else {
        score += QUEEN_RING[queen.ring().distance() as usize];
    }
    let guards = position.guards(side);
    for guard in guards {
        if position.is_captured(guard) {
            score += CAPTURED_GUARD;
        } else {
            score += GUARD_RING[guard.ring().distance() as usize];
        }
    }
    if queen == Cell::THRONE && !position.is_captured(queen) {
        let ring_guards = (guards & RING1) - position.captured();
        score += GUARD_BY_THRONED_QUEEN * ring_guards.len() as i32;
        if weights.throne_guard_cell != 0 && position.rules().between() != Between::Allowed {
            let shut = position.forbidden_cells(side.other()) & position.empty() & RING1;
            score += weights.throne_guard_cell * shut.len() as i32;
        }
    }
    score
}

/// The ring a captured queen counts as standing on: where her owner may return her.
pub(crate) fn captured_queen_ring(position: &Position) -> usize {
    let rules = position.rules();
    if rules.queen_placer() == QueenPlacer::Captor {
        // The opponent places her: as far out as can be.
        5
    } else if rules.queen_return() == QueenReturn::Any && position.piece_at(Cell::THRONE).is_none()
    {
        0
    } else {
        1
    }
}

fn evaluate_with(position: &Position, weights: &Weights) -> i32 {
    let us = position.turn();
    let them = us.other();
    // R10 decides the position: the core says who won (no legal-move count is needed).
    if let Some(outcome) = position.throne_ring_side().and(position.outcome()) {
        return match outcome.winner {
            Some(w) if w == us => WIN,
            Some(_) => -WIN,
            None => 0,
        };
    }
    let mut score = side_score(position, us, weights) - side_score(position, them, weights);
    if position.captured().is_empty() {
        let ours = position.count_legal_moves() as i32;
        let theirs = position.with_turn(them).count_legal_moves() as i32;
        score += weights.mobility * (ours - theirs);
    }
    score
}

/// The plain evaluation of `position` for the side to move, in points (see the
/// [module docs](self)): positive when the side to move stands better. The greedy bot
/// uses it.
///
/// ```
/// use agon_bots::eval::{evaluate, QUEEN_RING, WIN};
/// use agon_core::Position;
///
/// // The start is symmetric, so neither side is ahead.
/// assert_eq!(evaluate(&Position::start()), 0);
/// // White's queen steps inward, from ring 5 to ring 4: Black, to move, is behind by
/// // what that step is worth (both sides have as many steps).
/// let after = Position::start().play("f1-f2".parse()?).unwrap();
/// assert_eq!(evaluate(&after), -(QUEEN_RING[4] - QUEEN_RING[5]));
/// // A full throne ring around its queen wins for White.
/// let won: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 b".parse()?;
/// assert_eq!(evaluate(&won), -WIN);
/// # Ok::<(), agon_core::ParseError>(())
/// ```
pub fn evaluate(position: &Position) -> i32 {
    evaluate_with(position, &PLAIN)
}

/// The evaluation the alpha-beta bot searches with: [`evaluate`] with mobility weighted
/// [`SEARCH_MOBILITY`] and the [`THRONE_GUARD_CELL`] term (see the [module docs](self)).
///
/// ```
/// use agon_bots::eval::{evaluate, evaluate_for_search};
/// use agon_core::Position;
///
/// assert_eq!(evaluate_for_search(&Position::start()), 0);
/// // As many steps for both sides: the two evaluations agree.
/// let after = Position::start().play("f1-f2".parse()?).unwrap();
/// assert_eq!(evaluate_for_search(&after), evaluate(&after));
/// // White's throned queen shuts the ring-1 cells between her and White's ring-2
/// // guards, and White's pieces have more steps: Black, to move, is further behind.
/// let throned: Position = "Qf6,Gd4,Gf4,Gh4,Gd7,Gf8,Gh7/qa1,ga2,gb1,gb2,gc1,gc2,gd1 b".parse()?;
/// assert!(evaluate(&throned) < 0);
/// assert!(evaluate_for_search(&throned) < evaluate(&throned));
/// # Ok::<(), agon_core::ParseError>(())
/// ```
pub fn evaluate_for_search(position: &Position) -> i32 {
    evaluate_with(position, &SEARCH)
}

/// `score`, a value for the side to move of `position`, as a value for `side`.
///
/// ```
/// use agon_bots::eval::{evaluate, evaluate_for};
/// use agon_core::{Position, Side};
/// let after = Position::start().play("f1-f2".parse()?).unwrap();
/// let score = evaluate(&after); // for Black, to move
/// assert_eq!(evaluate_for(&after, Side::Black, score), score);
/// assert_eq!(evaluate_for(&after, Side::White, score), -score);
/// # Ok::<(), agon_core::ParseError>(())
/// ```
pub fn evaluate_for(position: &Position, side: Side, score: i32) -> i32 {
    if position.turn() == side {
        score
    } else {
        -score
    }
}
