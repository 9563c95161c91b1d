//! A deliberately plain move generator for Agon, written straight from the
//! project's binding rules (`RULES.md`), to cross-check the fast engine.
//!
//! Nothing here is clever: a position is a list of pieces, every question is
//! answered by scanning that list, and every cell is computed from its cube
//! coordinates. It does not depend on `agon-core` so that it stays an
//! independent second reading of the rules.
//!
//! Conventions (RULES.md section 1): cells are numbered file by file, `a1 = 0`,
//! `a2 = 1`, ..., `l6 = 90`; sides are `WHITE = 0` and `BLACK = 1`; kinds are
//! `QUEEN = 0` and `GUARD = 1`.
//!
//! ```
//! use agon_reference::{legal_moves, perft, play, State};
//!
//! let start = State::start();
//! assert_eq!(legal_moves(&start).len(), 27);
//! assert_eq!(perft(&start, 2), 713);
//! let after = play(&start, legal_moves(&start)[0]);
//! assert_eq!(after.turn(), agon_reference::BLACK);
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::fmt;

#[cfg(feature = "agon-core")]
pub mod checks;

/// Number of cells on the board.
///
/// ```
/// assert_eq!(agon_reference::CELLS, 91);
/// ```
pub const CELLS: usize = 91;

/// Index of the throne, `f6`.
///
/// ```
/// assert_eq!(agon_reference::cell_name(agon_reference::THRONE), "f6");
/// ```
pub const THRONE: usize = 45;

/// The side that moves first.
///
/// ```
/// assert_eq!(agon_reference::State::start().turn(), agon_reference::WHITE);
/// ```
pub const WHITE: u8 = 0;

/// The side that moves second.
///
/// ```
/// assert_eq!(agon_reference::WHITE ^ 1, agon_reference::BLACK);
/// ```
pub const BLACK: u8 = 1;

/// The kind of piece that may enter the throne.
///
/// ```
/// use agon_reference::{State, QUEEN, WHITE};
/// // White's queen starts on f1 (index 40).
/// assert!(State::start().pieces().contains(&(40, WHITE, QUEEN, false)));
/// ```
pub const QUEEN: u8 = 0;

/// The other kind of piece (six per side).
///
/// ```
/// use agon_reference::{State, GUARD};
/// let guards = State::start().pieces().iter().filter(|p| p.2 == GUARD).count();
/// assert_eq!(guards, 12);
/// ```
pub const GUARD: u8 = 1;

/// File letters from left to right; there is no `j`.
const FILES: [char; 11] = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'k', 'l'];

/// The six cube directions (each sums to zero).
const DIRECTIONS: [(i32, i32, i32); 6] = [
    (1, -1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (-1, 1, 0),
    (-1, 0, 1),
    (0, -1, 1),
];

/// Number of cells in the file whose coordinate is `q`.
fn file_len(q: i32) -> usize {
    (11 - q.abs()) as usize
}

/// Highest `r` in the file `q`, i.e. the `r` of its rank 1.
fn file_top_r(q: i32) -> i32 {
    5.min(5 - q)
}

/// The cube coordinates `(q, r, s)` of a cell index.
///
/// # Panics
/// If `index >= CELLS`.
///
/// ```
/// use agon_reference::cell_coords;
/// assert_eq!(cell_coords(45), (0, 0, 0)); // f6, the throne
/// assert_eq!(cell_coords(0), (-5, 5, 0)); // a1
/// assert_eq!(cell_coords(90), (5, -5, 0)); // l6
/// ```
pub fn cell_coords(index: usize) -> (i32, i32, i32) {
    assert!(index < CELLS, "cell index {index} out of range");
    let mut rest = index;
    for q in -5..=5 {
        let len = file_len(q);
        if rest < len {
            // Rank n = rest + 1, and r = min(5, 5 - q) - (n - 1).
            let r = file_top_r(q) - rest as i32;
            return (q, r, -q - r);
        }
        rest -= len;
    }
    unreachable!("index checked above")
}

/// The index of the cell with cube coordinates `(q, r, s)`, if it is on the board.
///
/// ```
/// use agon_reference::coords_index;
/// assert_eq!(coords_index(0, 0, 0), Some(45));
/// assert_eq!(coords_index(6, -6, 0), None);
/// assert_eq!(coords_index(1, 1, 1), None); // not a cube coordinate
/// ```
pub fn coords_index(q: i32, r: i32, s: i32) -> Option<usize> {
    if q + r + s != 0 || q.abs().max(r.abs()).max(s.abs()) > 5 {
        return None;
    }
    let before: usize = (-5..q).map(file_len).sum();
    let rank0 = (file_top_r(q) - r) as usize;
    Some(before + rank0)
}

/// The ring of a cell: its distance from the throne (0 to 5).
///
/// ```
/// use agon_reference::{cell_ring, CELLS};
/// assert_eq!(cell_ring(45), 0);
/// assert_eq!((0..CELLS).filter(|&i| cell_ring(i) == 5).count(), 30);
/// ```
pub fn cell_ring(index: usize) -> i32 {
    let (q, r, s) = cell_coords(index);
    q.abs().max(r.abs()).max(s.abs())
}

/// The name of a cell, such as `"f6"`.
///
/// ```
/// assert_eq!(agon_reference::cell_name(0), "a1");
/// assert_eq!(agon_reference::cell_name(90), "l6");
/// ```
pub fn cell_name(index: usize) -> String {
    let (q, r, _) = cell_coords(index);
    let rank = file_top_r(q) - r + 1;
    format!("{}{}", FILES[(q + 5) as usize], rank)
}

/// The index of a cell given its name, if the name is valid.
///
/// ```
/// assert_eq!(agon_reference::cell_index("f6"), Some(45));
/// assert_eq!(agon_reference::cell_index("a7"), None);
/// assert_eq!(agon_reference::cell_index("j1"), None);
/// ```
pub fn cell_index(name: &str) -> Option<usize> {
    let mut chars = name.chars();
    let file = chars.next()?;
    let q = FILES.iter().position(|&f| f == file)? as i32 - 5;
    let digits = chars.as_str();
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rank: i32 = digits.parse().ok()?;
    if rank < 1 || rank as usize > file_len(q) {
        return None;
    }
    coords_index(
        q,
        file_top_r(q) - (rank - 1),
        -q - (file_top_r(q) - (rank - 1)),
    )
}

/// The cell one step from `index` in direction `d`, if it is on the board.
fn neighbour(index: usize, d: (i32, i32, i32)) -> Option<usize> {
    let (q, r, s) = cell_coords(index);
    coords_index(q + d.0, r + d.1, s + d.2)
}

/// One piece of a [`State`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Piece {
    cell: usize,
    side: u8,
    kind: u8,
    captured: bool,
}

/// A position: every piece with its cell, side, kind and captured mark, plus the
/// side to move.
///
/// ```
/// use agon_reference::{State, WHITE};
/// let s = State::start();
/// assert_eq!(s.turn(), WHITE);
/// assert_eq!(s.pieces().len(), 14);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Kept sorted by cell so that equal positions compare equal.
    pieces: Vec<Piece>,
    turn: u8,
}

/// An action, by cell indices: a step (`is_return == false`) moves the piece on
/// `from` to `to`; a return puts the captured piece standing on `from` onto `to`.
///
/// Ordered by `from`, then `to`, then `is_return`.
///
/// ```
/// use agon_reference::{legal_moves, RefMove, State};
/// // White's queen on f1 (index 40) may step sideways to e1 (index 30).
/// let m = RefMove { from: 40, to: 30, is_return: false };
/// assert!(legal_moves(&State::start()).contains(&m));
/// assert_eq!(m.to_string(), "f1-e1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RefMove {
    /// Cell of the piece that acts.
    pub from: usize,
    /// Destination cell.
    pub to: usize,
    /// Whether this is a return (R8) rather than a step.
    pub is_return: bool,
}

impl RefMove {
    /// A pass (RULES.md V7 `stuck=pass`): written with both cells equal to [`CELLS`], a
    /// cell index no cell has, so that it sorts after every step and return.
    ///
    /// ```
    /// use agon_reference::RefMove;
    /// assert!(RefMove::PASS.is_pass());
    /// assert_eq!(RefMove::PASS.to_string(), "pass");
    /// ```
    pub const PASS: RefMove = RefMove {
        from: CELLS,
        to: CELLS,
        is_return: false,
    };

    /// Whether this is [`RefMove::PASS`].
    ///
    /// ```
    /// use agon_reference::RefMove;
    /// assert!(!RefMove { from: 40, to: 30, is_return: false }.is_pass());
    /// ```
    pub fn is_pass(&self) -> bool {
        *self == RefMove::PASS
    }
}

impl fmt::Display for RefMove {
    /// `f1-e1` for a step, `f1>f6` for a return, `pass` (only for diagnostics).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_pass() {
            return f.write_str("pass");
        }
        let sep = if self.is_return { '>' } else { '-' };
        write!(f, "{}{}{}", cell_name(self.from), sep, cell_name(self.to))
    }
}

impl State {
    /// The start position of RULES.md section 2, White to move.
    ///
    /// ```
    /// use agon_reference::{cell_name, State};
    /// let names: Vec<String> = State::start().pieces().iter().map(|p| cell_name(p.0)).collect();
    /// assert!(names.contains(&"f11".to_string()));
    /// ```
    pub fn start() -> State {
        let mut parts = Vec::new();
        let setup: [(u8, [&str; 7]); 2] = [
            (WHITE, ["f1", "b1", "k1", "a5", "l5", "d9", "h9"]),
            (BLACK, ["f11", "d1", "h1", "a2", "l2", "b7", "k7"]),
        ];
        for (side, names) in setup {
            for (i, name) in names.iter().enumerate() {
                let kind = if i == 0 { QUEEN } else { GUARD };
                parts.push((cell_index(name).expect("valid name"), side, kind, false));
            }
        }
        State::from_parts(WHITE, &parts).expect("valid start")
    }

    /// Builds a position from `(cell_index, side, kind, captured)` tuples and the
    /// side to move.
    ///
    /// Only structural checks are made (cell in range, side and kind in range,
    /// at most one piece per cell), so that unusual positions can be explored;
    /// the rules are then applied literally.
    ///
    /// ```
    /// use agon_reference::{State, BLACK, GUARD, QUEEN, WHITE};
    /// let s = State::from_parts(BLACK, &[(45, WHITE, QUEEN, false), (0, BLACK, GUARD, true)]).unwrap();
    /// assert_eq!(s.turn(), BLACK);
    /// assert!(State::from_parts(WHITE, &[(3, WHITE, GUARD, false), (3, BLACK, GUARD, false)]).is_err());
    /// ```
    pub fn from_parts(turn: u8, parts: &[(usize, u8, u8, bool)]) -> Result<State, String> {
        if turn > 1 {
            return Err(format!("side to move {turn} is not 0 or 1"));
        }
        let mut pieces = Vec::with_capacity(parts.len());
        for &(cell, side, kind, captured) in parts {
            if cell >= CELLS {
                return Err(format!("cell index {cell} out of range"));
            }
            if side > 1 || kind > 1 {
                return Err(format!(
                    "bad side {side} or kind {kind} on {}",
                    cell_name(cell)
                ));
            }
            pieces.push(Piece {
                cell,
                side,
                kind,
                captured,
            });
        }
        pieces.sort();
        if pieces.windows(2).any(|w| w[0].cell == w[1].cell) {
            return Err("two pieces on one cell".to_string());
        }
        Ok(State { pieces, turn })
    }

    /// Parses the one-line text format: White's pieces, `/`, Black's pieces,
    /// a space, then `w` or `b`. Pieces are `Q`/`G` for White and `q`/`g` for
    /// Black followed by a cell name and an optional `*` (captured).
    ///
    /// ```
    /// use agon_reference::State;
    /// let s = State::from_text("Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w").unwrap();
    /// assert_eq!(s, State::start());
    /// assert!(State::from_text("Qf1/qz9 w").is_err());
    /// ```
    pub fn from_text(text: &str) -> Result<State, String> {
        let (board, turn) = text.trim().split_once(' ').ok_or("missing side to move")?;
        let turn = match turn {
            "w" => WHITE,
            "b" => BLACK,
            other => return Err(format!("bad side to move {other:?}")),
        };
        let (white, black) = board.split_once('/').ok_or("missing '/'")?;
        let mut parts = Vec::new();
        for (side, list) in [(WHITE, white), (BLACK, black)] {
            for item in list.split(',').filter(|t| !t.is_empty()) {
                let (item, captured) = match item.strip_suffix('*') {
                    Some(rest) => (rest, true),
                    None => (item, false),
                };
                let mut chars = item.chars();
                let letter = chars.next().ok_or("empty piece")?;
                let (want_side, kind) = match letter {
                    'Q' => (WHITE, QUEEN),
                    'G' => (WHITE, GUARD),
                    'q' => (BLACK, QUEEN),
                    'g' => (BLACK, GUARD),
                    _ => return Err(format!("bad piece letter in {item:?}")),
                };
                if want_side != side {
                    return Err(format!("piece {item:?} listed with the wrong side"));
                }
                let cell = cell_index(chars.as_str()).ok_or(format!("bad cell in {item:?}"))?;
                parts.push((cell, side, kind, captured));
            }
        }
        State::from_parts(turn, &parts)
    }

    /// Writes the one-line text format read by [`State::from_text`]: per side,
    /// queens first, then guards, each by cell index.
    ///
    /// ```
    /// use agon_reference::State;
    /// assert_eq!(
    ///     State::start().to_text(),
    ///     "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
    /// );
    /// ```
    pub fn to_text(&self) -> String {
        let mut halves = Vec::new();
        for side in [WHITE, BLACK] {
            let mut items = Vec::new();
            for kind in [QUEEN, GUARD] {
                for p in self
                    .pieces
                    .iter()
                    .filter(|p| p.side == side && p.kind == kind)
                {
                    let letter = match (side, kind) {
                        (WHITE, QUEEN) => 'Q',
                        (WHITE, _) => 'G',
                        (_, QUEEN) => 'q',
                        _ => 'g',
                    };
                    let star = if p.captured { "*" } else { "" };
                    items.push(format!("{letter}{}{star}", cell_name(p.cell)));
                }
            }
            halves.push(items.join(","));
        }
        let turn = if self.turn == WHITE { 'w' } else { 'b' };
        format!("{}/{} {turn}", halves[0], halves[1])
    }

    /// The side to move (`WHITE` or `BLACK`).
    ///
    /// ```
    /// assert_eq!(agon_reference::State::start().turn(), agon_reference::WHITE);
    /// ```
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// All pieces as `(cell_index, side, kind, captured)`, sorted by cell.
    ///
    /// ```
    /// use agon_reference::{State, BLACK, GUARD};
    /// // a2 (index 1) holds a black guard at the start.
    /// assert_eq!(State::start().pieces()[0], (1, BLACK, GUARD, false));
    /// ```
    pub fn pieces(&self) -> Vec<(usize, u8, u8, bool)> {
        self.pieces
            .iter()
            .map(|p| (p.cell, p.side, p.kind, p.captured))
            .collect()
    }

    fn at(&self, cell: usize) -> Option<&Piece> {
        self.pieces.iter().find(|p| p.cell == cell)
    }

    /// R4: `cell` lies between two pieces of `enemy` on a straight line.
    /// Captured pieces count, since they still stand on their cells.
    fn is_forbidden_for(&self, cell: usize, enemy: u8) -> bool {
        let enemy_at =
            |c: Option<usize>| c.and_then(|c| self.at(c)).is_some_and(|p| p.side == enemy);
        DIRECTIONS.iter().any(|&d| {
            let back = (-d.0, -d.1, -d.2);
            enemy_at(neighbour(cell, d)) && enemy_at(neighbour(cell, back))
        })
    }
}

/// R10: when all six ring-1 cells hold guards of one side S, returns the
/// winner: S if S's queen stands on the throne, the other side otherwise.
/// Returns `None` while the ring is not complete.
///
/// A captured guard still stands on its cell, so it counts as holding it.
///
/// ```
/// use agon_reference::{throne_ring_outcome, State, WHITE};
/// assert_eq!(throne_ring_outcome(&State::start()), None);
/// let won = State::from_text("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qa1 b").unwrap();
/// assert_eq!(throne_ring_outcome(&won), Some(WHITE));
/// ```
pub fn throne_ring_outcome(state: &State) -> Option<u8> {
    let ring1: Vec<usize> = (0..CELLS).filter(|&c| cell_ring(c) == 1).collect();
    for side in [WHITE, BLACK] {
        let full = ring1.iter().all(|&c| {
            state
                .at(c)
                .is_some_and(|p| p.side == side && p.kind == GUARD)
        });
        if full {
            let queen_on_throne = state
                .at(THRONE)
                .is_some_and(|p| p.side == side && p.kind == QUEEN);
            return Some(if queen_on_throne { side } else { side ^ 1 });
        }
    }
    None
}

/// A rule set (RULES.md section 8), written as plain flags: each is `false` (or `None`)
/// for the standard value of its option. The reference reads these flags itself; it
/// never asks agon-core what a rule means.
///
/// ```
/// use agon_reference::RefRules;
/// assert_eq!(RefRules::default(), RefRules::STANDARD);
/// assert!(RefRules::LUDII.stuck_passes && RefRules::LUDII.repetition_off);
/// assert_eq!(RefRules::LUDII.limit, Some(2500));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct RefRules {
    /// V1 `capture=same-ring`: a step captures only along a line of three cells of one ring.
    pub same_ring_capture: bool,
    /// V2 `between`: what a step between two enemy pieces does.
    pub between: RefBetween,
    /// V3 `guard-return=next-ring`: a guard returns to the ring just outside its own.
    pub guard_next_ring: bool,
    /// V4 `queen-return=not-throne`: a returned queen may not go to the throne.
    pub queen_not_throne: bool,
    /// V5 `queen-placer=captor`: the opponent chooses where a captured queen returns.
    pub captor_places_queen: bool,
    /// V6 `empty-throne-ring=draw`: a throne ring without its queen is a draw.
    pub empty_ring_draws: bool,
    /// V7 `stuck=pass`: a side with no action passes; two passes in a row draw.
    pub stuck_passes: bool,
    /// V8 `repetition=off`: no draw by the third occurrence.
    pub repetition_off: bool,
    /// V9: the game is drawn after this many actions.
    pub limit: Option<u32>,
}

/// The three values of V2 (`between`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RefBetween {
    /// R4: a step between two enemy pieces is illegal.
    #[default]
    Forbidden,
    /// Such a step is legal and nothing special happens.
    Allowed,
    /// Such a step is legal, and the piece that stepped is captured unless the step captures.
    Trapped,
}

impl RefRules {
    /// R1-R12 as written.
    pub const STANDARD: RefRules = RefRules {
        same_ring_capture: false,
        between: RefBetween::Forbidden,
        guard_next_ring: false,
        queen_not_throne: false,
        captor_places_queen: false,
        empty_ring_draws: false,
        stuck_passes: false,
        repetition_off: false,
        limit: None,
    };

    /// The `ludii` preset: stuck=pass, repetition=off, limit=2500.
    pub const LUDII: RefRules = RefRules {
        stuck_passes: true,
        repetition_off: true,
        limit: Some(2500),
        ..RefRules::STANDARD
    };
}

/// How a game or position ended: the winner (`None` for a draw) and the reason, named as
/// RULES.md's end rules are in the project (`throne`, `ring-without-queen`,
/// `no-legal-action`, `repetition`, `two-passes`, `move-limit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefEnd {
    /// `Some(WHITE)`, `Some(BLACK)` or `None` for a draw.
    pub winner: Option<u8>,
    /// The end rule's name.
    pub reason: &'static str,
}

/// R10 under `rules`: when the six ring-1 cells hold guards of one side S, S wins with
/// its queen on the throne, and otherwise loses (V6 standard) or draws (V6 `draw`).
///
/// ```
/// use agon_reference::{throne_ring_end, RefRules, State};
/// let lost = State::from_text("Qa1,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qf6 b").unwrap();
/// let draw = RefRules { empty_ring_draws: true, ..RefRules::STANDARD };
/// assert_eq!(throne_ring_end(&lost, &RefRules::STANDARD).unwrap().winner, Some(1));
/// assert_eq!(throne_ring_end(&lost, &draw).unwrap().winner, None);
/// ```
pub fn throne_ring_end(state: &State, rules: &RefRules) -> Option<RefEnd> {
    let winner = throne_ring_outcome(state)?;
    let ring_side = (0..CELLS)
        .find(|&c| cell_ring(c) == 1)
        .and_then(|c| state.at(c))
        .map(|p| p.side)
        .expect("a complete ring has guards");
    Some(if winner == ring_side {
        RefEnd {
            winner: Some(winner),
            reason: "throne",
        }
    } else if rules.empty_ring_draws {
        RefEnd {
            winner: None,
            reason: "ring-without-queen",
        }
    } else {
        RefEnd {
            winner: Some(winner),
            reason: "ring-without-queen",
        }
    })
}

/// The winner of a finished position, if any: R10 first, then R12 (the side to
/// move loses when it has no legal action). Repetition (R11) needs a game
/// history, so it is not considered here.
///
/// ```
/// use agon_reference::{outcome, State, BLACK};
/// assert_eq!(outcome(&State::start()), None);
/// // White's only piece, a guard on a6, is stuck: all three of its
/// // neighbours (a5, b6, b7) are occupied.
/// let stuck = State::from_text("Ga6/qa5,gb6,gb7 w").unwrap();
/// assert_eq!(outcome(&stuck), Some(BLACK));
/// ```
pub fn outcome(state: &State) -> Option<u8> {
    if let Some(winner) = throne_ring_outcome(state) {
        return Some(winner);
    }
    if legal_moves(state).is_empty() {
        return Some(state.turn ^ 1);
    }
    None
}

/// The end of a position under `rules`, without a game's history: R10 (as V6 sets it),
/// then R12 (never under V7 `pass`, where a stuck side passes instead).
///
/// ```
/// use agon_reference::{outcome_under, RefRules, State};
/// let stuck = State::from_text("Ga6/qa5,gb6,gb7 w").unwrap();
/// assert_eq!(outcome_under(&stuck, &RefRules::STANDARD).unwrap().reason, "no-legal-action");
/// assert_eq!(outcome_under(&stuck, &RefRules::LUDII), None);
/// ```
pub fn outcome_under(state: &State, rules: &RefRules) -> Option<RefEnd> {
    if let Some(end) = throne_ring_end(state, rules) {
        return Some(end);
    }
    if legal_moves_under(state, rules).is_empty() {
        return Some(RefEnd {
            winner: Some(state.turn ^ 1),
            reason: "no-legal-action",
        });
    }
    None
}

/// All legal actions of the side to move under the standard rules, sorted. Empty when R10
/// has decided the position.
///
/// ```
/// use agon_reference::{cell_index, legal_moves, RefMove, State};
/// // Black's queen is captured: Black must return her (before the guard),
/// // onto any empty cell, the throne (45) included.
/// let s = State::from_text("Qa1,Gb1/qc1*,gd1* b").unwrap();
/// let c1 = cell_index("c1").unwrap();
/// let moves = legal_moves(&s);
/// assert_eq!(moves.len(), 91 - 4);
/// assert!(moves.iter().all(|m| m.is_return && m.from == c1));
/// assert!(moves.contains(&RefMove { from: c1, to: 45, is_return: true }));
/// ```
pub fn legal_moves(state: &State) -> Vec<RefMove> {
    legal_moves_under(state, &RefRules::STANDARD)
}

/// Whether a step of the side to move to `to` would make a capture: some direction has
/// an uncaptured enemy piece next to `to` and a piece of the mover beyond it (R5), all
/// three cells in one ring under V1 `same-ring`. `from` is the cell the piece leaves
/// (empty after the step).
fn step_captures(state: &State, rules: &RefRules, from: usize, to: usize) -> Vec<usize> {
    let me = state.turn;
    let mut victims = Vec::new();
    for &d in &DIRECTIONS {
        let Some(x1) = neighbour(to, d) else {
            continue;
        };
        let Some(x2) = neighbour(x1, d) else { continue };
        if rules.same_ring_capture
            && !(cell_ring(x1) == cell_ring(to) && cell_ring(x2) == cell_ring(to))
        {
            continue;
        }
        let victim = state.at(x1).is_some_and(|p| p.side != me && !p.captured);
        // x2 is two cells from `to`, so it is never `from` (one cell away): the board
        // before the step serves.
        let partner = x2 != from && state.at(x2).is_some_and(|p| p.side == me);
        if victim && partner {
            victims.push(x1);
        }
    }
    victims
}

/// All legal actions of the side to move under `rules`, sorted. Empty when R10 has
/// decided the position, or (standard V7) when the side is stuck; a lone
/// [`RefMove::PASS`] under V7 `pass` when it is stuck.
///
/// ```
/// use agon_reference::{legal_moves_under, RefMove, RefRules, State};
/// let stuck = State::from_text("Ga6/qa5,gb6,gb7 w").unwrap();
/// assert!(legal_moves_under(&stuck, &RefRules::STANDARD).is_empty());
/// assert_eq!(legal_moves_under(&stuck, &RefRules::LUDII), [RefMove::PASS]);
/// ```
pub fn legal_moves_under(state: &State, rules: &RefRules) -> Vec<RefMove> {
    let mut moves = Vec::new();
    if throne_ring_outcome(state).is_some() {
        return moves;
    }
    let me = state.turn;
    let empty = |c: usize| state.at(c).is_none();
    let mine_captured: Vec<&Piece> = state
        .pieces
        .iter()
        .filter(|p| p.side == me && p.captured)
        .collect();

    if !mine_captured.is_empty() {
        // R8: the queen first if she is captured, else any captured guard.
        let queens: Vec<&&Piece> = mine_captured.iter().filter(|p| p.kind == QUEEN).collect();
        if queens.is_empty() {
            for p in &mine_captured {
                for to in guard_return_cells(state, rules, p.cell) {
                    moves.push(RefMove {
                        from: p.cell,
                        to,
                        is_return: true,
                    });
                }
            }
        } else {
            for p in queens {
                for to in (0..CELLS).filter(|&c| empty(c)) {
                    // V4 `not-throne`: anywhere but the throne.
                    if rules.queen_not_throne && to == THRONE {
                        continue;
                    }
                    moves.push(RefMove {
                        from: p.cell,
                        to,
                        is_return: true,
                    });
                }
            }
        }
    } else {
        // R2-R4: a step sideways or inward to an empty adjacent cell; V2 decides
        // whether a cell between two enemy pieces may be entered.
        for p in state.pieces.iter().filter(|p| p.side == me) {
            for &d in &DIRECTIONS {
                let Some(to) = neighbour(p.cell, d) else {
                    continue;
                };
                if !empty(to) || cell_ring(to) > cell_ring(p.cell) {
                    continue;
                }
                if to == THRONE && p.kind != QUEEN {
                    continue;
                }
                if rules.between == RefBetween::Forbidden && state.is_forbidden_for(to, me ^ 1) {
                    continue;
                }
                moves.push(RefMove {
                    from: p.cell,
                    to,
                    is_return: false,
                });
            }
        }
        // V7 `pass`: a stuck side passes, and that is its only action.
        if moves.is_empty() && rules.stuck_passes {
            moves.push(RefMove::PASS);
        }
    }
    moves.sort();
    moves
}

/// The cells a captured guard standing on `cell` may be returned to: the empty cells of
/// the outer ring (R8), or under V3 `next-ring` those of the ring just outside its own
/// (ring 5 for ring 5), else of the nearest ring farther out that has an empty cell.
fn guard_return_cells(state: &State, rules: &RefRules, cell: usize) -> Vec<usize> {
    let empty_in = |ring: i32| -> Vec<usize> {
        (0..CELLS)
            .filter(|&c| cell_ring(c) == ring && state.at(c).is_none())
            .collect()
    };
    if !rules.guard_next_ring {
        return empty_in(5);
    }
    let mut ring = (cell_ring(cell) + 1).min(5);
    loop {
        let cells = empty_in(ring);
        if !cells.is_empty() || ring == 5 {
            return cells;
        }
        ring += 1;
    }
}

/// Whether the step `mv` traps its own piece under V2 `trapped`: its destination lies
/// between two enemy pieces (captured ones included) and the step captures nothing.
///
/// ```
/// use agon_reference::{cell_index, traps, RefBetween, RefMove, RefRules, State};
/// // e3 lies between the black guards d3 and f3; the step captures nothing.
/// let s = State::from_text("Qa1,Ge2,Ge5/ql6,gd3,gf3 w").unwrap();
/// let trapped = RefRules { between: RefBetween::Trapped, ..RefRules::STANDARD };
/// let step = RefMove { from: cell_index("e2").unwrap(), to: cell_index("e3").unwrap(), is_return: false };
/// assert!(traps(&s, &trapped, step));
/// assert!(!traps(&s, &RefRules::STANDARD, step));
/// ```
pub fn traps(state: &State, rules: &RefRules, mv: RefMove) -> bool {
    rules.between == RefBetween::Trapped
        && !mv.is_return
        && !mv.is_pass()
        && state.is_forbidden_for(mv.to, state.turn ^ 1)
        && step_captures(state, rules, mv.from, mv.to).is_empty()
}

/// Plays `mv` without checking it (the caller knows it is legal): captures and traps are
/// decided on the board before the step.
fn apply(state: &State, rules: &RefRules, mv: RefMove) -> State {
    let me = state.turn;
    let mut next = state.clone();
    next.turn = me ^ 1;
    if mv.is_pass() {
        // V7: a pass changes only the side to move.
        return next;
    }
    let (victims, trapped) = if mv.is_return {
        (Vec::new(), false)
    } else {
        (
            step_captures(state, rules, mv.from, mv.to),
            traps(state, rules, mv),
        )
    };
    let piece = next
        .pieces
        .iter_mut()
        .find(|p| p.cell == mv.from)
        .expect("piece on from");
    piece.cell = mv.to;
    if mv.is_return {
        // R8/R9: a placement; it captures nothing.
        piece.captured = false;
    } else if trapped {
        // V2 `trapped`: the piece that stepped is captured by its own step.
        piece.captured = true;
    }
    // R5/R6: only the stepping piece captures, in each of the six directions.
    for p in next.pieces.iter_mut().filter(|p| victims.contains(&p.cell)) {
        p.captured = true;
    }
    next.pieces.sort();
    next
}

/// The position after the legal action `mv` under the standard rules.
///
/// # Panics
/// If `mv` is not one of [`legal_moves`]`(state)`.
///
/// ```
/// use agon_reference::{cell_index, play, RefMove, State};
/// // White's guard g5 steps to g6 and captures the black guard on h6
/// // (flanked by g6 and the white guard on i6).
/// let s = State::from_text("Qa1,Gg5,Gi6/qf11,gh6 w").unwrap();
/// let mv = RefMove { from: cell_index("g5").unwrap(), to: cell_index("g6").unwrap(), is_return: false };
/// assert_eq!(play(&s, mv).to_text(), "Qa1,Gg6,Gi6/qf11,gh6* b");
/// ```
pub fn play(state: &State, mv: RefMove) -> State {
    play_under(state, &RefRules::STANDARD, mv)
}

/// The position after the legal action `mv` under `rules`.
///
/// # Panics
/// If `mv` is not one of [`legal_moves_under`]`(state, rules)`.
///
/// ```
/// use agon_reference::{play_under, RefMove, RefRules, State};
/// let stuck = State::from_text("Ga6/qa5,gb6,gb7 w").unwrap();
/// assert_eq!(play_under(&stuck, &RefRules::LUDII, RefMove::PASS).to_text(), "Ga6/qa5,gb6,gb7 b");
/// ```
pub fn play_under(state: &State, rules: &RefRules, mv: RefMove) -> State {
    assert!(
        legal_moves_under(state, rules).contains(&mv),
        "illegal move {mv} in {}",
        state.to_text()
    );
    apply(state, rules, mv)
}

/// The side that chooses the next action: the side to move, except under V5 `captor`
/// when it must return its captured queen, which its opponent places.
///
/// ```
/// use agon_reference::{chooser, RefRules, State, BLACK, WHITE};
/// let s = State::from_text("Qf6*,Ga1/qf11,gb1 w").unwrap();
/// let captor = RefRules { captor_places_queen: true, ..RefRules::STANDARD };
/// assert_eq!(chooser(&s, &RefRules::STANDARD), WHITE);
/// assert_eq!(chooser(&s, &captor), BLACK);
/// ```
pub fn chooser(state: &State, rules: &RefRules) -> u8 {
    let queen_return = legal_moves_under(state, rules)
        .iter()
        .any(|m| m.is_return && state.at(m.from).is_some_and(|p| p.kind == QUEEN));
    if rules.captor_places_queen && queen_return {
        state.turn ^ 1
    } else {
        state.turn
    }
}

/// The number of leaves of the tree of legal actions `depth` plies deep
/// (RULES.md section 7). Repetition is ignored.
///
/// ```
/// use agon_reference::{perft, State};
/// assert_eq!(perft(&State::start(), 0), 1);
/// assert_eq!(perft(&State::start(), 1), 27);
/// ```
pub fn perft(state: &State, depth: u32) -> u64 {
    perft_under(state, &RefRules::STANDARD, depth)
}

/// [`perft`] under `rules`: passes count as actions; repetition, the two-pass draw and
/// the move limit belong to games and are ignored.
///
/// ```
/// use agon_reference::{perft_under, RefRules, State};
/// assert_eq!(perft_under(&State::start(), &RefRules::LUDII, 2), 713);
/// ```
pub fn perft_under(state: &State, rules: &RefRules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves_under(state, rules);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| perft_under(&apply(state, rules, m), rules, depth - 1))
        .sum()
}

/// The end of a game, from its history: `states[0]` is its start and `states[i + 1]`
/// the position after `moves[i]`. Checked on the last position in the order of RULES.md
/// section 6 and 8: R10 (V6), R11 the third occurrence, the start counting (not under V8
/// `off`), R12 (not under V7 `pass`), two passes in a row (V7), and the move limit (V9,
/// `moves.len()` actions since the start).
///
/// ```
/// use agon_reference::{game_end, RefMove, RefRules, State};
/// let stuck = State::from_text("Ga6/qa5,gb6,gb7,gf11 w").unwrap();
/// let rules = RefRules::LUDII;
/// let a = agon_reference::play_under(&stuck, &rules, RefMove::PASS);
/// assert_eq!(game_end(&rules, &[stuck.clone(), a.clone()], &[RefMove::PASS]), None);
/// ```
pub fn game_end(rules: &RefRules, states: &[State], moves: &[RefMove]) -> Option<RefEnd> {
    assert_eq!(
        states.len(),
        moves.len() + 1,
        "one more position than moves"
    );
    let last = states.last().expect("a game has a start");
    if let Some(end) = throne_ring_end(last, rules) {
        return Some(end);
    }
    if !rules.repetition_off && states.iter().filter(|s| *s == last).count() >= 3 {
        return Some(RefEnd {
            winner: None,
            reason: "repetition",
        });
    }
    if let Some(end) = outcome_under(last, rules) {
        return Some(end);
    }
    let n = moves.len();
    if n >= 2 && moves[n - 1].is_pass() && moves[n - 2].is_pass() {
        return Some(RefEnd {
            winner: None,
            reason: "two-passes",
        });
    }
    if rules.limit.is_some_and(|limit| n >= limit as usize) {
        return Some(RefEnd {
            winner: None,
            reason: "move-limit",
        });
    }
    None
}

/// A game under a rule set: its positions and moves, and its end by [`game_end`].
///
/// ```
/// use agon_reference::{legal_moves, RefGame, RefRules, State};
/// let mut game = RefGame::new(State::start(), RefRules::STANDARD.with_limit(1));
/// game.play(legal_moves(&State::start())[0]);
/// assert_eq!(game.end().unwrap().reason, "move-limit");
/// ```
#[derive(Clone, Debug)]
pub struct RefGame {
    rules: RefRules,
    states: Vec<State>,
    moves: Vec<RefMove>,
}

impl RefRules {
    /// These rules with the move limit `n` (V9).
    pub fn with_limit(self, n: u32) -> RefRules {
        RefRules {
            limit: Some(n),
            ..self
        }
    }
}

impl RefGame {
    /// A game from `start` under `rules`.
    pub fn new(start: State, rules: RefRules) -> RefGame {
        RefGame {
            rules,
            states: vec![start],
            moves: Vec::new(),
        }
    }

    /// The current position.
    pub fn state(&self) -> &State {
        self.states.last().expect("a game has a start")
    }

    /// How the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<RefEnd> {
        game_end(&self.rules, &self.states, &self.moves)
    }

    /// The legal actions now: none once the game is over.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        if self.end().is_some() {
            return Vec::new();
        }
        legal_moves_under(self.state(), &self.rules)
    }

    /// Plays the legal action `mv`.
    ///
    /// # Panics
    /// If the game is over or `mv` is not legal.
    pub fn play(&mut self, mv: RefMove) {
        assert!(self.end().is_none(), "{mv} after the end of the game");
        let next = play_under(self.state(), &self.rules, mv);
        self.states.push(next);
        self.moves.push(mv);
    }
}

/// The reference's reading of an agon-core rule set, option by option (it only reads
/// agon-core's values, never its logic). Needs the feature `agon-core`.
///
/// ```
/// assert_eq!(agon_reference::rules_from_core(agon_core::Rules::LUDII), agon_reference::RefRules::LUDII);
/// ```
#[cfg(feature = "agon-core")]
pub fn rules_from_core(r: agon_core::Rules) -> RefRules {
    use agon_core::{
        Between, Capture, EmptyThroneRing, GuardReturn, QueenPlacer, QueenReturn, Repetition, Stuck,
    };
    RefRules {
        same_ring_capture: r.capture() == Capture::SameRing,
        between: match r.between() {
            Between::Forbidden => RefBetween::Forbidden,
            Between::Allowed => RefBetween::Allowed,
            Between::Trapped => RefBetween::Trapped,
        },
        guard_next_ring: r.guard_return() == GuardReturn::NextRing,
        queen_not_throne: r.queen_return() == QueenReturn::NotThrone,
        captor_places_queen: r.queen_placer() == QueenPlacer::Captor,
        empty_ring_draws: r.empty_throne_ring() == EmptyThroneRing::Draw,
        stuck_passes: r.stuck() == Stuck::Pass,
        repetition_off: r.repetition() == Repetition::Off,
        limit: r.limit(),
    }
}

/// The same position as a reference state: the one bridge from agon-core that the
/// cross-checks share (agon-core's tests, the fuzz targets, the conformance generator).
/// Needs the feature `agon-core`; nothing else in this crate uses agon-core.
///
/// ```
/// let state = agon_reference::from_core(&agon_core::Position::start());
/// assert_eq!(state.turn(), agon_reference::WHITE);
/// ```
#[cfg(feature = "agon-core")]
pub fn from_core(p: &agon_core::Position) -> State {
    use agon_core::{Kind, Side};
    let side = |s: Side| match s {
        Side::White => WHITE,
        Side::Black => BLACK,
    };
    let parts: Vec<(usize, u8, u8, bool)> = p
        .pieces()
        .map(|(cell, piece)| {
            let kind = match piece.kind {
                Kind::Queen => QUEEN,
                Kind::Guard => GUARD,
            };
            (cell.index(), side(piece.side), kind, p.is_captured(cell))
        })
        .collect();
    // A Position is valid, and from_parts checks only structure (cells in range, one
    // piece a cell), which validity implies.
    State::from_parts(side(p.turn()), &parts)
        .unwrap_or_else(|e| unreachable!("the reference rejects {}: {e}", p.to_text()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_round_trips_through_coordinates_and_names() {
        for i in 0..CELLS {
            let (q, r, s) = cell_coords(i);
            assert_eq!(coords_index(q, r, s), Some(i));
            assert_eq!(cell_index(&cell_name(i)), Some(i));
            assert_eq!(
                cell_coords(90 - i),
                (-q, -r, -s),
                "half turn maps i to 90 - i"
            );
        }
    }

    #[test]
    fn ring_sizes_and_named_cells_match_section_1() {
        let sizes: Vec<usize> = (0..=5)
            .map(|k| (0..CELLS).filter(|&c| cell_ring(c) == k).count())
            .collect();
        assert_eq!(sizes, [1, 6, 12, 18, 24, 30]);
        let mut ring1: Vec<String> = (0..CELLS)
            .filter(|&c| cell_ring(c) == 1)
            .map(cell_name)
            .collect();
        ring1.sort();
        assert_eq!(ring1, ["e5", "e6", "f5", "f7", "g5", "g6"]);
        for (name, index) in [("a6", 5), ("b1", 6), ("f1", 40), ("f11", 50), ("l1", 85)] {
            assert_eq!(cell_index(name), Some(index));
        }
        for corner in ["a1", "a6", "f1", "f11", "l1", "l6"] {
            let (q, r, s) = cell_coords(cell_index(corner).unwrap());
            // A corner has two coordinates of absolute value 5.
            assert_eq!(
                [q, r, s].iter().filter(|v| v.abs() == 5).count(),
                2,
                "{corner}"
            );
        }
    }

    #[test]
    fn start_perft_matches_section_7() {
        let s = State::start();
        assert_eq!(perft(&s, 1), 27);
        assert_eq!(perft(&s, 2), 713);
    }
}
