//! [`VecEnv`]: a batch of games stepped by action numbers into flat output buffers, on
//! every core.
//!
//! # Layout
//!
//! Each game is one fixed-size record in one contiguous vector (its position, its legal
//! actions, its random generator, its last few moves and the handles of the rest of its
//! history), so a step streams through the games in order, as it streams through the
//! output buffers. A game's history is what the draw by repetition (R11) needs, kept
//! compact:
//!
//! - its moves since its start (a [`Move`] is 3 bytes, in a list that grows by doubling:
//!   3 to 6 bytes a ply), from which any earlier position can be replayed; the last 8 in
//!   the record, the others in a list of the game's own, to which they are moved 8 at a
//!   time (a write to memory of its own at every ply would cost a large batch a cache miss
//!   a ply);
//! - a table of 32-bit fingerprints of its positions, each with its count (up to 3), at
//!   most half full: 8 to 16 bytes a ply.
//!
//! So a game holds 11 to 22 bytes a ply besides its fixed part ([`VecEnv::game_bytes`]
//! measures it; the `vecenv` example prints it for a game of the 99th percentile of random
//! game lengths: 22,832 bytes at 1,819 plies, 12.6 a ply, a tenth of the 235,744 bytes an
//! `agon_core::Game` holds for the same game).
//!
//! Agon has no irreversible move to cut the history at. Pieces never step outward, but a
//! captured guard returns to the outer ring and a captured queen anywhere: a guard that
//! stepped inward, was captured there and was returned to the cell it came from, while the
//! capturing piece stepped back sideways, has undone an inward step and a capture. (What
//! does hold: between two occurrences of a position, either every move is a sideways step
//! that captures nothing, or there is a capture and a return.) So the table covers the
//! whole game, and one probe of it per move tells how often the new position occurred.
//! A fingerprint is 30 bits of the Zobrist hash, so two positions may share one: counts
//! may only be too high, never too low, and a count reaching 3 is confirmed by replaying
//! the moves and comparing whole positions, as [`agon_core::Game`] confirms its hash
//! counts. A batch therefore ends its games exactly when `Game` does. The table grows
//! by replaying the moves too (the fingerprints alone cannot be placed in a larger
//! table), and a game that starts again keeps at most a few kilobytes of it.
//!
//! # Threads
//!
//! A step splits the games (and the output buffers, at the same boundaries) into chunks
//! of consecutive games that the threads take in turn; the calling thread works too.
//! Each game has its own random generator ([`crate::game_rng`]), so the results do not
//! depend on the number of threads. The helper threads are a `rayon-core` pool per
//! thread count, shared by every batch of the process and started once: starting
//! threads for each step would cost more than a small batch's step.

use core::fmt;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use agon_core::{Cell, EndReason, Game, Move, MoveSet, Outcome, Position, Repetition, Rules, Side};
use rayon_core::{ThreadPool, ThreadPoolBuilder};

use crate::{
    action_count, game_rng, packed_mask_len, write_bit_mask, write_bool_mask, write_observation,
    Action, Layout, ACTION_COUNT,
};

/// Why a [`VecEnv`] call was refused. A refused call changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VecEnvError {
    /// The batch size is 0 or over [`VecEnv::MAX_ENVS`].
    BatchSize(usize),
    /// The number of threads is 0 or over [`VecEnv::MAX_THREADS`].
    Threads(usize),
    /// The start position is already decided: no game could be played from it.
    StartDecided,
    /// A buffer has the wrong length.
    BufferLength {
        /// Which buffer: `actions`, `observations`, `rewards`, `terminations` or `masks`.
        name: &'static str,
        /// The length it must have.
        expected: usize,
        /// The length it has.
        got: usize,
    },
    /// An action is out of range or not legal in its game.
    IllegalAction {
        /// The game.
        env: usize,
        /// The action given.
        action: i64,
    },
}

impl fmt::Display for VecEnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VecEnvError::BatchSize(n) => {
                write!(f, "a batch holds 1 to {} games, not {n}", VecEnv::MAX_ENVS)
            }
            VecEnvError::Threads(n) => {
                write!(f, "threads must be 1 to {}, not {n}", VecEnv::MAX_THREADS)
            }
            VecEnvError::StartDecided => write!(f, "the start position is already decided"),
            VecEnvError::BufferLength {
                name,
                expected,
                got,
            } => write!(f, "{name}: expected {expected} values, got {got}"),
            VecEnvError::IllegalAction { env, action } => {
                write!(f, "action {action} is not legal in game {env}")
            }
        }
    }
}

impl std::error::Error for VecEnvError {}

/// Where [`VecEnv`] writes observations: `n` observations of [`Layout::observation_len`]
/// values, each 0 or 1, as `f32` or as `u8` (a quarter of the memory). Both hold the same
/// planes as [`write_observation`].
#[derive(Debug)]
pub enum Observations<'a> {
    /// One `f32` a value (the format of `agon.Position.observation()`).
    F32(&'a mut [f32]),
    /// One `u8` a value.
    U8(&'a mut [u8]),
}

impl Observations<'_> {
    fn len(&self) -> usize {
        match self {
            Observations::F32(o) => o.len(),
            Observations::U8(o) => o.len(),
        }
    }
}

impl<'a> From<&'a mut [f32]> for Observations<'a> {
    fn from(values: &'a mut [f32]) -> Self {
        Observations::F32(values)
    }
}

impl<'a> From<&'a mut [u8]> for Observations<'a> {
    fn from(values: &'a mut [u8]) -> Self {
        Observations::U8(values)
    }
}

/// Where [`VecEnv`] writes legal-action masks: `n` masks, as one `bool` per action
/// ([`VecEnv::action_count`] per game: [`crate::ACTION_COUNT`], or more for the pass and
/// the `next-ring` returns, see [`crate::action_count`]), or bit-packed
/// ([`crate::packed_mask_len`] bytes per game: [`crate::PACKED_MASK_LEN`] but under
/// `guard-return=next-ring`, in the bit order of [`crate::write_packed_mask`];
/// [`crate::unpack_mask`] unpacks one).
#[derive(Debug)]
pub enum Masks<'a> {
    /// One `bool` per action.
    Bool(&'a mut [bool]),
    /// Eight actions a byte, the first in the most significant bit.
    Packed(&'a mut [u8]),
}

impl Masks<'_> {
    /// The buffer's length and the length it must have for `n` games of bool masks
    /// `width` wide.
    fn lengths(&self, n: usize, width: usize) -> (usize, usize) {
        match self {
            Masks::Bool(m) => (m.len(), n * width),
            Masks::Packed(m) => (m.len(), n * width.div_ceil(8)),
        }
    }
}

impl<'a> From<&'a mut [bool]> for Masks<'a> {
    fn from(values: &'a mut [bool]) -> Self {
        Masks::Bool(values)
    }
}

/// The output buffers of [`VecEnv::step`], flat and C-ordered: `n` observations, `n`
/// rewards, `n` terminations and `n` masks.
#[derive(Debug)]
pub struct StepBuffers<'a> {
    /// Each game's next observation, from the view of its player to act (the chooser,
    /// see [`crate::write_observation`]).
    pub observations: Observations<'a>,
    /// +1 if the action won the game for the player that chose it (the chooser of the
    /// position it was played in, [`Position::chooser`]), -1 if it lost it, 0 otherwise
    /// (draws included).
    pub rewards: &'a mut [f32],
    /// Whether the action ended the game (which then starts again).
    pub terminations: &'a mut [bool],
    /// The legal actions of each game's next position.
    pub masks: Masks<'a>,
}

/// A batch of games for reinforcement learning, stepped by action numbers on several
/// threads.
///
/// A game that ends is started again at once from the start position: the observation
/// and mask written for it are those of the new game.
///
/// # Rule sets
///
/// The games are played under the rules of the start position ([`VecEnv::with_rules`],
/// or a start position of [`VecEnv::new`] that carries them; standard by default), and
/// end exactly when [`Game`] ends them: the throne ring (R10, a draw under
/// `empty-throne-ring=draw`), repetition (R11, unless `repetition=off`), no action (R12,
/// unless `stuck=pass`), two passes in a row and the move limit (`limit=N`). Bool masks
/// are [`VecEnv::action_count`] wide (3338 with the pass under `stuck=pass`, 8889 under
/// `guard-return=next-ring`, see [`crate::action_count`]), packed ones
/// [`VecEnv::packed_mask_len`] bytes; actions are numbers of that space
/// ([`crate::PASS_ACTION`] is the pass). Rewards and observations
/// are those of the player to act, [`VecEnv::player_to_act`]. Under `repetition=off`
/// without a limit a game need not end: the caller stops the ones that go on too long
/// ([`VecEnv::reset`]).
///
/// ```
/// use agon_core::Rules;
/// use agon_rl::{Layout, VecEnv};
/// let env = VecEnv::with_rules(2, 1, Layout::Flat, Rules::LUDII)?;
/// assert_eq!((env.rules(), env.action_count()), (Rules::LUDII, 3338));
/// assert_eq!(VecEnv::new(2, 1, Layout::Flat, None)?.action_count(), 3337);
/// # Ok::<(), agon_rl::VecEnvError>(())
/// ```
///
/// # Threads and formats
///
/// The results are the same for any number of threads (see [`VecEnv::set_threads`]):
/// each game has its own random generator. Observations come as `f32` or `u8`, masks as
/// bools or bit-packed: see [`Observations`] and [`Masks`].
///
/// ```
/// use agon_rl::{Layout, Masks, Observations, StepBuffers, VecEnv, PACKED_MASK_LEN};
///
/// let mut env = VecEnv::new(4, 7, Layout::Flat, None)?;
/// env.set_threads(2)?;
/// let n = env.len();
/// let mut actions = vec![0i64; n];
/// let (mut obs, mut rewards, mut terms, mut masks) = (
///     vec![0u8; n * Layout::Flat.observation_len()],
///     vec![0.0f32; n],
///     vec![false; n],
///     vec![0u8; n * PACKED_MASK_LEN],
/// );
/// for _ in 0..100 {
///     env.random_actions(&mut actions)?;
///     let out = StepBuffers {
///         observations: Observations::U8(&mut obs),
///         rewards: &mut rewards,
///         terminations: &mut terms,
///         masks: Masks::Packed(&mut masks),
///     };
///     env.step(&actions, out)?;
/// }
/// // An illegal action is refused and changes nothing.
/// let before = env.clone();
/// let out = StepBuffers {
///     observations: Observations::U8(&mut obs),
///     rewards: &mut rewards,
///     terminations: &mut terms,
///     masks: Masks::Packed(&mut masks),
/// };
/// assert!(env.step(&vec![-1; n], out).is_err());
/// assert!((0..n).all(|i| env.moves(i) == before.moves(i)));
/// # Ok::<(), agon_rl::VecEnvError>(())
/// ```
#[derive(Clone)]
pub struct VecEnv {
    games: Vec<Slot>,
    start: Start,
    layout: Layout,
    /// The width of a bool mask: `action_count(start.position.rules())`.
    width: usize,
    threads: usize,
    /// The moves of a step, checked (kept to reuse its memory).
    moves: Vec<Move>,
}

/// The position every game starts from, with its legal actions.
#[derive(Clone, Copy)]
struct Start {
    position: Position,
    actions: MoveSet,
}

/// One game of the batch.
#[derive(Clone)]
struct Slot {
    position: Position,
    /// The legal actions of `position` (never empty: a game that ends starts again).
    actions: MoveSet,
    rng: agon_core::random::Rng,
    history: History,
}

/// The moves a game keeps in its record before moving them to its list (see the module
/// documentation).
const RECENT: usize = 8;

/// A filler for the free places of `History::recent`.
const NO_MOVE: Move = Move::Step {
    from: Cell::THRONE,
    to: Cell::THRONE,
};

// The module's memory figures count a move as 3 bytes.
const _: () = assert!(core::mem::size_of::<Move>() == 3);

/// A game's moves since its start and the fingerprints of its positions (see the module
/// documentation).
#[derive(Clone)]
struct History {
    /// The moves, but for the last `recent_len`.
    moves: Vec<Move>,
    /// The last moves, kept in the game's record (which a step reads and writes anyway)
    /// and moved to `moves` [`RECENT`] at a time.
    recent: [Move; RECENT],
    recent_len: u8,
    /// Open addressing with linear probing, a power of two long, at most half full. An
    /// entry is 0 when free, else `tag << 2 | count`: `tag` is bits 34 to 63 of a
    /// position's hash, and the slot it is looked for from is given by the low bits.
    table: Vec<u32>,
    used: usize,
}

impl History {
    /// The table of a new batch's game: room for 64 positions before it grows (512
    /// bytes), so that a large batch starts small.
    const MIN_SLOTS: usize = 128;
    /// A game that starts again keeps its table up to this size (4 KB, room for 512
    /// positions: most games need no more, and so never grow it again), and a larger one
    /// is replaced by one of this size ...
    const KEEP_SLOTS: usize = 1024;
    /// ... and keeps its move list up to this capacity (3 KB).
    const KEEP_MOVES: usize = 1024;

    fn new(start: &Position) -> History {
        let mut h = History {
            moves: Vec::new(),
            recent: [NO_MOVE; RECENT],
            recent_len: 0,
            table: vec![0; History::MIN_SLOTS],
            used: 0,
        };
        h.insert(start.hash());
        h
    }

    /// Empties the history and counts `start` once.
    fn restart(&mut self, start: &Position) {
        if self.moves.capacity() > History::KEEP_MOVES {
            self.moves = Vec::new();
        }
        self.moves.clear();
        self.recent_len = 0;
        if self.table.len() > History::KEEP_SLOTS {
            self.table = vec![0; History::KEEP_SLOTS];
        } else {
            self.table.fill(0);
        }
        self.used = 0;
        self.insert(start.hash());
    }

    /// The entry a search for `hash` starts from.
    #[inline]
    fn first_entry(&self, hash: u64) -> u32 {
        self.table[hash as usize & (self.table.len() - 1)]
    }

    /// Counts one more occurrence of `hash`, returning the count (at most 3, and possibly
    /// too high: see `History`).
    #[inline]
    fn insert(&mut self, hash: u64) -> u32 {
        self.insert_from(hash, self.first_entry(hash))
    }

    /// [`History::insert`], given the entry the search starts from (read beforehand).
    #[inline]
    fn insert_from(&mut self, hash: u64, first: u32) -> u32 {
        let mask = self.table.len() - 1;
        let tag = ((hash >> 34) as u32) << 2;
        let mut i = hash as usize & mask;
        let mut entry = first;
        loop {
            if entry == 0 {
                self.table[i] = tag | 1;
                self.used += 1;
                return 1;
            }
            if entry & !3 == tag {
                let count = (entry & 3).min(2) + 1;
                self.table[i] = tag | count;
                return count;
            }
            i = (i + 1) & mask;
            entry = self.table[i];
        }
    }

    /// The count of `hash` (0 if it is not in the table).
    #[cfg(test)]
    fn count(&self, hash: u64) -> u32 {
        let mask = self.table.len() - 1;
        let tag = ((hash >> 34) as u32) << 2;
        let mut i = hash as usize & mask;
        loop {
            match self.table[i] {
                0 => return 0,
                entry if entry & !3 == tag => return entry & 3,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Records move `m`, which led to the position of hash `hash`, and counts that
    /// position: see [`History::insert`]; `first` is [`History::first_entry`] of `hash`.
    #[inline]
    fn record(&mut self, start: &Position, m: Move, hash: u64, first: u32) -> u32 {
        if usize::from(self.recent_len) == RECENT {
            self.moves.extend_from_slice(&self.recent);
            self.recent_len = 0;
        }
        self.recent[usize::from(self.recent_len)] = m;
        self.recent_len += 1;
        if 2 * (self.used + 1) <= self.table.len() {
            return self.insert_from(hash, first);
        }
        // Twice the room, filled again from the positions replayed from the start, the
        // new one included.
        let size = 2 * self.table.len();
        self.table.clear();
        self.table.resize(size, 0);
        self.used = 0;
        let moves = core::mem::take(&mut self.moves);
        let recent = self.recent;
        let mut position = *start;
        self.insert(position.hash());
        let mut count = 0;
        for &m in moves.iter().chain(&recent[..usize::from(self.recent_len)]) {
            position = position.play_unchecked(m);
            count = self.insert(position.hash());
        }
        self.moves = moves;
        count
    }

    /// The number of moves since the start.
    #[inline]
    fn len(&self) -> usize {
        self.moves.len() + usize::from(self.recent_len)
    }

    /// The last move, if any.
    #[inline]
    fn last_move(&self) -> Option<Move> {
        match self.recent_len {
            0 => self.moves.last().copied(),
            n => Some(self.recent[usize::from(n) - 1]),
        }
    }

    /// The moves since the start.
    fn all_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves
            .iter()
            .chain(&self.recent[..usize::from(self.recent_len)])
            .copied()
    }

    /// The exact number of occurrences of `position` in the game: its positions replayed
    /// from `start` and compared whole.
    fn occurrences(&self, start: &Position, position: &Position) -> usize {
        let mut p = *start;
        let mut n = usize::from(p == *position);
        for m in self.all_moves() {
            p = p.play_unchecked(m);
            n += usize::from(p == *position);
        }
        n
    }

    /// The bytes the history holds on the heap.
    fn heap_bytes(&self) -> usize {
        self.moves.capacity() * core::mem::size_of::<Move>()
            + self.table.capacity() * core::mem::size_of::<u32>()
    }
}

impl Slot {
    fn new(start: &Start, rng: agon_core::random::Rng) -> Slot {
        Slot {
            position: start.position,
            actions: start.actions,
            rng,
            history: History::new(&start.position),
        }
    }

    fn restart(&mut self, start: &Start) {
        self.position = start.position;
        self.actions = start.actions;
        self.history.restart(&start.position);
    }

    /// The move `action` names, if it is legal here.
    #[inline]
    fn legal(&self, action: i64) -> Option<Move> {
        let rules = self.position.rules();
        usize::try_from(action)
            .ok()
            .and_then(|a| Action::new_in(a, rules))
            .and_then(|a| a.to_move(&self.position))
            .filter(|&m| self.actions.contains(m))
    }

    /// Plays the legal move `m` as [`Game::push_unchecked`] does and starts again if the
    /// game ended; returns the reward of the side that played and whether the game ended.
    #[cfg(test)]
    fn play(&mut self, m: Move, start: &Start) -> (f32, bool) {
        let next = self.position.play_unchecked(m);
        let first = self.history.first_entry(next.hash());
        self.finish(m, next, first, start)
    }

    /// [`Slot::play`], given the next position and [`History::first_entry`] of its hash:
    /// that entry is most often a cache miss in a large batch, so `step_games` reads it for
    /// several games at once, and the misses overlap.
    #[inline]
    fn finish(&mut self, m: Move, next: Position, first: u32, start: &Start) -> (f32, bool) {
        let mover = self.position.chooser();
        // Read before the move is recorded: whether the move before this one was a pass.
        let passed_before = m.is_pass() && self.history.last_move().is_some_and(Move::is_pass);
        let seen = self.history.record(&start.position, m, next.hash(), first);
        let rules = next.rules();
        // Checked in the order of RULES.md section 6 and of `Game`: throne ring,
        // repetition, no action, then two passes and the move limit.
        let (outcome, actions) = if next.throne_ring_side().is_some() {
            (next.outcome(), MoveSet::default())
        } else if seen >= 3
            && rules.repetition() == Repetition::Third
            && self.history.occurrences(&start.position, &next) >= 3
        {
            (Some(Outcome::draw()), MoveSet::default())
        } else {
            let actions = next.actions();
            if actions.is_empty() {
                (next.outcome(), actions)
            } else if passed_before {
                (Some(Outcome::drawn(EndReason::TwoPasses)), actions)
            } else if rules
                .limit()
                .is_some_and(|n| self.history.len() >= n as usize)
            {
                (Some(Outcome::drawn(EndReason::MoveLimit)), actions)
            } else {
                (None, actions)
            }
        };
        match outcome {
            Some(outcome) => {
                self.restart(start);
                let reward = match outcome.winner {
                    Some(w) if w == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
                (reward, true)
            }
            None => {
                self.position = next;
                self.actions = actions;
                (0.0, false)
            }
        }
    }

    /// A uniformly random legal action, from the game's generator.
    #[inline]
    fn random_action(&mut self) -> i64 {
        let m = self.actions.nth(self.rng.below(self.actions.len()));
        match m.and_then(|m| Action::from_move_in(m, &self.position)) {
            Some(action) => action.index() as i64,
            // A game of the batch is never over (it starts again when it ends).
            None => unreachable!("a game of the batch has no legal action"),
        }
    }
}

/// How masks are written: one bool per action, or bit-packed.
trait MaskFormat {
    type Elem: Send;
    /// Elements per game, for bool masks `width` wide.
    fn len(width: usize) -> usize;
    /// `position` is the position of `actions`.
    fn write(actions: &MoveSet, position: &Position, out: &mut [Self::Elem]);
}

/// Bool masks of the standard width, [`ACTION_COUNT`].
struct BoolMask;
/// Bool masks wider than the standard (the pass, the `next-ring` returns).
struct WideBoolMask;
struct PackedMask;

impl MaskFormat for BoolMask {
    type Elem = bool;
    #[inline]
    fn len(_: usize) -> usize {
        ACTION_COUNT
    }
    #[inline]
    fn write(actions: &MoveSet, position: &Position, out: &mut [bool]) {
        write_bool_mask(actions, position, out);
    }
}

impl MaskFormat for WideBoolMask {
    type Elem = bool;
    #[inline]
    fn len(width: usize) -> usize {
        width
    }
    #[inline]
    fn write(actions: &MoveSet, position: &Position, out: &mut [bool]) {
        write_bool_mask(actions, position, out);
    }
}

impl MaskFormat for PackedMask {
    type Elem = u8;
    #[inline]
    fn len(width: usize) -> usize {
        width.div_ceil(8)
    }
    #[inline]
    fn write(actions: &MoveSet, position: &Position, out: &mut [u8]) {
        write_bit_mask(actions, position, out);
    }
}

/// Calls `f` with the same arguments as `$body` for each of the four output formats.
/// Bool masks of the standard width have a type of their own, whose width is a constant:
/// the standard path compiles as it did before rule sets.
macro_rules! by_format {
    ($obs:expr, $masks:expr, $width:expr, |$o:ident, $m:ident, $M:ident| $body:expr) => {
        match ($obs, $masks) {
            (Observations::F32($o), Masks::Bool($m)) if $width == ACTION_COUNT => {
                type $M = BoolMask;
                $body
            }
            (Observations::F32($o), Masks::Bool($m)) => {
                type $M = WideBoolMask;
                $body
            }
            (Observations::F32($o), Masks::Packed($m)) => {
                type $M = PackedMask;
                $body
            }
            (Observations::U8($o), Masks::Bool($m)) if $width == ACTION_COUNT => {
                type $M = BoolMask;
                $body
            }
            (Observations::U8($o), Masks::Bool($m)) => {
                type $M = WideBoolMask;
                $body
            }
            (Observations::U8($o), Masks::Packed($m)) => {
                type $M = PackedMask;
                $body
            }
        }
    };
}

impl VecEnv {
    /// The largest batch: about 1 GiB of observations and masks in float32 and bool.
    pub const MAX_ENVS: usize = 1 << 16;

    /// The most threads a batch may use.
    pub const MAX_THREADS: usize = 256;

    /// The fewest games a chunk of a step (or of `observe`) holds: smaller batches are
    /// stepped by one thread, for which handing out work would cost more than it saves.
    const MIN_CHUNK: usize = 64;

    /// The fewest games a chunk of the light passes holds (checking the actions, drawing
    /// random ones: some nanoseconds a game, against microseconds to wake a thread).
    const MIN_LIGHT_CHUNK: usize = 1024;

    /// Chunks per thread: more than one, so that a thread slowed by other work on the
    /// machine leaves its share to the others.
    const CHUNKS_PER_THREAD: usize = 4;

    /// `n` games from `start` (the start position by default); `seed` seeds
    /// [`VecEnv::random_actions`] (game `i` draws from [`crate::game_rng`]`(seed, i)`).
    /// The batch uses every core (see [`VecEnv::set_threads`]).
    ///
    /// ```
    /// use agon_rl::{Layout, VecEnv, VecEnvError};
    /// assert_eq!(VecEnv::new(0, 1, Layout::Flat, None).unwrap_err(), VecEnvError::BatchSize(0));
    /// assert!(VecEnv::new(VecEnv::MAX_ENVS + 1, 1, Layout::Flat, None).is_err());
    /// ```
    pub fn new(
        n: usize,
        seed: u64,
        layout: Layout,
        start: Option<Position>,
    ) -> Result<VecEnv, VecEnvError> {
        if n == 0 || n > VecEnv::MAX_ENVS {
            return Err(VecEnvError::BatchSize(n));
        }
        let position = start.unwrap_or_else(Position::start);
        if position.is_over() {
            return Err(VecEnvError::StartDecided);
        }
        let start = Start {
            position,
            actions: position.actions(),
        };
        Ok(VecEnv {
            games: (0..n)
                .map(|i| Slot::new(&start, game_rng(seed, i as u64)))
                .collect(),
            start,
            layout,
            width: action_count(position.rules()),
            threads: VecEnv::default_threads(),
            moves: Vec::with_capacity(n),
        })
    }

    /// `n` games from the start position of `rules` ([`Position::start_with_rules`]),
    /// otherwise as [`VecEnv::new`].
    ///
    /// ```
    /// use agon_core::{Position, Rules};
    /// use agon_rl::{Layout, VecEnv};
    /// let env = VecEnv::with_rules(3, 1, Layout::Flat, Rules::LUDII)?;
    /// assert_eq!(*env.start(), Position::start_with_rules(Rules::LUDII));
    /// # Ok::<(), agon_rl::VecEnvError>(())
    /// ```
    pub fn with_rules(
        n: usize,
        seed: u64,
        layout: Layout,
        rules: Rules,
    ) -> Result<VecEnv, VecEnvError> {
        VecEnv::new(n, seed, layout, Some(Position::start_with_rules(rules)))
    }

    /// The rule set the games are played under (the start position's).
    ///
    /// ```
    /// let env = agon_rl::VecEnv::new(1, 1, agon_rl::Layout::Flat, None)?;
    /// assert!(env.rules().is_standard());
    /// # Ok::<(), agon_rl::VecEnvError>(())
    /// ```
    pub fn rules(&self) -> Rules {
        self.start.position.rules()
    }

    /// The size of the games' action space, the width of a bool mask:
    /// [`action_count`]`(self.rules())`.
    pub fn action_count(&self) -> usize {
        self.width
    }

    /// The bytes of a game's bit-packed mask: [`packed_mask_len`]`(self.rules())`.
    pub fn packed_mask_len(&self) -> usize {
        packed_mask_len(self.rules())
    }

    /// The player to act in game `i`: the side that chooses its next action
    /// ([`Position::chooser`]), whose view the observation takes and whose reward the next
    /// step gives.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`VecEnv::len`].
    ///
    /// ```
    /// use agon_core::Side;
    /// let env = agon_rl::VecEnv::new(1, 1, agon_rl::Layout::Flat, None)?;
    /// assert_eq!(env.player_to_act(0), Side::White);
    /// # Ok::<(), agon_rl::VecEnvError>(())
    /// ```
    pub fn player_to_act(&self, i: usize) -> Side {
        self.games[i].position.chooser()
    }

    /// The number of threads a batch uses unless told otherwise: the number of cores
    /// (as [`std::thread::available_parallelism`] counts them), at most
    /// [`VecEnv::MAX_THREADS`].
    ///
    /// ```
    /// assert!(agon_rl::VecEnv::default_threads() >= 1);
    /// ```
    pub fn default_threads() -> usize {
        std::thread::available_parallelism()
            .map_or(1, NonZeroUsize::get)
            .min(VecEnv::MAX_THREADS)
    }

    /// Sets the number of threads that step the batch (1 to [`VecEnv::MAX_THREADS`]; the
    /// calling thread is one of them). The results are the same for any number.
    ///
    /// ```
    /// use agon_rl::{Layout, VecEnv, VecEnvError};
    /// let mut env = VecEnv::new(8, 1, Layout::Flat, None)?;
    /// env.set_threads(1)?;
    /// assert_eq!(env.threads(), 1);
    /// assert_eq!(env.set_threads(0), Err(VecEnvError::Threads(0)));
    /// # Ok::<(), VecEnvError>(())
    /// ```
    pub fn set_threads(&mut self, threads: usize) -> Result<(), VecEnvError> {
        if threads == 0 || threads > VecEnv::MAX_THREADS {
            return Err(VecEnvError::Threads(threads));
        }
        self.threads = threads;
        Ok(())
    }

    /// The number of threads that step the batch.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The number of games.
    #[allow(clippy::len_without_is_empty)] // a batch is never empty
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// The layout of the observations.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The position every game starts from.
    pub fn start(&self) -> &Position {
        &self.start.position
    }

    /// The current position of game `i`.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`VecEnv::len`].
    ///
    /// ```
    /// use agon_core::Position;
    /// let env = agon_rl::VecEnv::new(2, 1, agon_rl::Layout::Flat, None)?;
    /// assert_eq!(*env.position(1), Position::start());
    /// # Ok::<(), agon_rl::VecEnvError>(())
    /// ```
    pub fn position(&self, i: usize) -> &Position {
        &self.games[i].position
    }

    /// The moves of game `i` since its last start (a copy: a game keeps its last few moves
    /// apart from the others).
    ///
    /// # Panics
    ///
    /// If `i` is not below [`VecEnv::len`].
    pub fn moves(&self, i: usize) -> Vec<Move> {
        self.games[i].history.all_moves().collect()
    }

    /// Game `i` since its last start, as a [`Game`] (its moves replayed from the start).
    ///
    /// # Panics
    ///
    /// If `i` is not below [`VecEnv::len`].
    ///
    /// ```
    /// use agon_rl::{Layout, VecEnv};
    /// let mut env = VecEnv::new(3, 1, Layout::Flat, None)?;
    /// let mut actions = vec![0; 3];
    /// env.random_actions(&mut actions)?;
    /// let mut rewards = vec![0.0; 3];
    /// let mut terms = vec![false; 3];
    /// let mut obs = vec![0.0f32; 3 * Layout::Flat.observation_len()];
    /// let mut masks = vec![false; 3 * agon_rl::ACTION_COUNT];
    /// env.step(&actions, agon_rl::StepBuffers {
    ///     observations: (&mut obs[..]).into(),
    ///     rewards: &mut rewards,
    ///     terminations: &mut terms,
    ///     masks: (&mut masks[..]).into(),
    /// })?;
    /// let game = env.game(2);
    /// assert_eq!(game.moves(), env.moves(2));
    /// assert_eq!(game.position(), env.position(2));
    /// # Ok::<(), agon_rl::VecEnvError>(())
    /// ```
    pub fn game(&self, i: usize) -> Game {
        let mut game = Game::from_position(self.start.position);
        for m in self.games[i].history.all_moves() {
            game.push_unchecked(m);
        }
        game
    }

    /// The bytes game `i` holds: its fixed part and its history's memory (allocated, not
    /// only used). The output buffers are the caller's and not counted.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`VecEnv::len`].
    ///
    /// ```
    /// let env = agon_rl::VecEnv::new(1, 1, agon_rl::Layout::Flat, None)?;
    /// assert!(env.game_bytes(0) < 1024);
    /// # Ok::<(), agon_rl::VecEnvError>(())
    /// ```
    pub fn game_bytes(&self, i: usize) -> usize {
        core::mem::size_of::<Slot>() + self.games[i].history.heap_bytes()
    }

    /// Starts every game again, reseeding [`VecEnv::random_actions`] if `seed` is given
    /// (as [`VecEnv::new`] seeds it).
    pub fn reset(&mut self, seed: Option<u64>) {
        let start = self.start;
        for (i, g) in self.games.iter_mut().enumerate() {
            g.restart(&start);
            if let Some(seed) = seed {
                g.rng = game_rng(seed, i as u64);
            }
        }
    }

    fn check_len(name: &'static str, got: usize, expected: usize) -> Result<(), VecEnvError> {
        if got == expected {
            Ok(())
        } else {
            Err(VecEnvError::BufferLength {
                name,
                expected,
                got,
            })
        }
    }

    /// Games per chunk of work, for chunks of at least `min` games.
    fn chunk_len(&self, min: usize) -> usize {
        let n = self.len();
        if self.threads == 1 {
            return n;
        }
        let chunks = (n / min).clamp(1, self.threads * VecEnv::CHUNKS_PER_THREAD);
        n.div_ceil(chunks)
    }

    /// Writes every game's observation and mask.
    pub fn observe(
        &self,
        observations: Observations<'_>,
        masks: Masks<'_>,
    ) -> Result<(), VecEnvError> {
        let n = self.len();
        let len = self.layout.observation_len();
        VecEnv::check_len("observations", observations.len(), n * len)?;
        let (got, expected) = masks.lengths(n, self.width);
        VecEnv::check_len("masks", got, expected)?;
        let c = self.chunk_len(VecEnv::MIN_CHUNK);
        let (layout, width) = (self.layout, self.width);
        by_format!(observations, masks, width, |o, m, M| {
            let chunks = self
                .games
                .chunks(c)
                .zip(o.chunks_mut(c * len))
                .zip(m.chunks_mut(c * M::len(width)))
                .collect();
            run(self.threads, chunks, |((games, o), m)| {
                let rows = games
                    .iter()
                    .zip(o.chunks_exact_mut(len))
                    .zip(m.chunks_exact_mut(M::len(width)));
                for ((g, o), m) in rows {
                    write_observation(&g.position, layout, o);
                    M::write(&g.actions, &g.position, m);
                }
            })
        });
        Ok(())
    }

    /// Plays one action in every game and writes the outcome into `out` (see
    /// [`StepBuffers`]). Every action and buffer is checked before any game changes;
    /// the first game (by number) whose action is not legal is the one reported.
    pub fn step(&mut self, actions: &[i64], out: StepBuffers<'_>) -> Result<(), VecEnvError> {
        let n = self.len();
        let len = self.layout.observation_len();
        VecEnv::check_len("actions", actions.len(), n)?;
        VecEnv::check_len("observations", out.observations.len(), n * len)?;
        VecEnv::check_len("rewards", out.rewards.len(), n)?;
        VecEnv::check_len("terminations", out.terminations.len(), n)?;
        let (got, expected) = out.masks.lengths(n, self.width);
        VecEnv::check_len("masks", got, expected)?;
        self.check_actions(actions)?;
        let c = self.chunk_len(VecEnv::MIN_CHUNK);
        let (start, layout, width) = (self.start, self.layout, self.width);
        let StepBuffers {
            observations,
            rewards,
            terminations,
            masks,
        } = out;
        by_format!(observations, masks, width, |o, m, M| {
            let chunks = self
                .games
                .chunks_mut(c)
                .zip(self.moves.chunks(c))
                .zip(o.chunks_mut(c * len))
                .zip(m.chunks_mut(c * M::len(width)))
                .zip(rewards.chunks_mut(c).zip(terminations.chunks_mut(c)))
                .collect();
            run(
                self.threads,
                chunks,
                |((((games, moves), o), m), (r, t))| {
                    step_games::<_, M>(&start, layout, width, games, moves, o, m, r, t);
                },
            )
        });
        Ok(())
    }

    /// Checks every action, leaving their moves in `self.moves`; refuses the first game
    /// (by number) whose action is not legal.
    fn check_actions(&mut self, actions: &[i64]) -> Result<(), VecEnvError> {
        let n = self.len();
        let c = self.chunk_len(VecEnv::MIN_LIGHT_CHUNK);
        let dummy = self.start.actions.nth(0);
        self.moves.clear();
        self.moves.resize(
            n,
            dummy.unwrap_or_else(|| unreachable!("the start has a legal action")),
        );
        let mut refused: Vec<Option<usize>> = vec![None; n.div_ceil(c)];
        let chunks = self
            .games
            .chunks(c)
            .zip(actions.chunks(c))
            .zip(self.moves.chunks_mut(c))
            .zip(refused.iter_mut())
            .collect();
        run(
            self.threads,
            chunks,
            |(((games, actions), moves), refused)| {
                let rows = games.iter().zip(actions).zip(moves.iter_mut());
                for (i, ((g, &action), m)) in rows.enumerate() {
                    match g.legal(action) {
                        Some(legal) => *m = legal,
                        None => {
                            *refused = Some(i);
                            return;
                        }
                    }
                }
            },
        );
        match refused
            .iter()
            .enumerate()
            .find_map(|(k, r)| Some(k * c + (*r)?))
        {
            Some(env) => Err(VecEnvError::IllegalAction {
                env,
                action: actions[env],
            }),
            None => Ok(()),
        }
    }

    /// Writes a uniformly random legal action for every game, each from its own seeded
    /// generator.
    pub fn random_actions(&mut self, out: &mut [i64]) -> Result<(), VecEnvError> {
        VecEnv::check_len("actions", out.len(), self.len())?;
        let c = self.chunk_len(VecEnv::MIN_LIGHT_CHUNK);
        let chunks = self.games.chunks_mut(c).zip(out.chunks_mut(c)).collect();
        run(self.threads, chunks, |(games, out)| {
            for (g, a) in games.iter_mut().zip(out) {
                *a = g.random_action();
            }
        });
        Ok(())
    }
}

/// Games whose table entries are read together (see [`Slot::finish`]).
const GROUP: usize = 8;

/// Plays `moves` in `games` and writes the results, group by group of games.
#[allow(clippy::too_many_arguments)]
#[inline]
fn step_games<O: Copy + From<bool>, M: MaskFormat>(
    start: &Start,
    layout: Layout,
    width: usize,
    games: &mut [Slot],
    moves: &[Move],
    observations: &mut [O],
    masks: &mut [M::Elem],
    rewards: &mut [f32],
    terminations: &mut [bool],
) {
    let len = layout.observation_len();
    let groups = games
        .chunks_mut(GROUP)
        .zip(moves.chunks(GROUP))
        .zip(observations.chunks_mut(GROUP * len))
        .zip(masks.chunks_mut(GROUP * M::len(width)))
        .zip(
            rewards
                .chunks_mut(GROUP)
                .zip(terminations.chunks_mut(GROUP)),
        );
    for ((((games, moves), o), m), (r, t)) in groups {
        // The next positions first, then their table entries one after the other, so that
        // the reads (often cache misses) are under way together.
        let mut next = [start.position; GROUP];
        for ((g, &mv), p) in games.iter().zip(moves).zip(&mut next) {
            *p = g.position.play_unchecked(mv);
        }
        let mut first = [0; GROUP];
        for ((g, p), f) in games.iter().zip(&next).zip(&mut first) {
            *f = g.history.first_entry(p.hash());
        }
        let rows = games
            .iter_mut()
            .zip(moves)
            .zip(next.into_iter().zip(first))
            .zip(o.chunks_exact_mut(len))
            .zip(m.chunks_exact_mut(M::len(width)))
            .zip(r.iter_mut().zip(t.iter_mut()));
        for (((((g, &mv), (next, first)), o), m), (r, t)) in rows {
            (*r, *t) = g.finish(mv, next, first, start);
            write_observation(&g.position, layout, o);
            M::write(&g.actions, &g.position, m);
        }
    }
}

impl fmt::Debug for VecEnv {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VecEnv")
            .field("len", &self.len())
            .field("layout", &self.layout)
            .field("threads", &self.threads)
            .field("start", &self.start.position)
            .finish_non_exhaustive()
    }
}

/// Runs `work` on every item, on up to `threads` threads (the caller's included), which
/// take the items in turn.
pub(crate) fn run<W: Send>(threads: usize, items: Vec<W>, work: impl Fn(W) + Sync) {
    let helpers = threads.min(items.len()).saturating_sub(1);
    let pool = if helpers > 0 { pool(threads - 1) } else { None };
    let Some(pool) = pool else {
        items.into_iter().for_each(work);
        return;
    };
    let queue = Mutex::new(items.into_iter());
    let drain = || loop {
        let item = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
        match item {
            Some(item) => work(item),
            None => break,
        }
    };
    pool.in_place_scope(|s| {
        for _ in 0..helpers {
            s.spawn(|_| drain());
        }
        drain();
    });
}

/// The pool of `workers` helper threads, started the first time it is asked for and
/// shared by every batch of the process; `None` if the threads cannot be started (the
/// caller then does all the work).
fn pool(workers: usize) -> Option<Arc<ThreadPool>> {
    static POOLS: Mutex<Vec<(usize, u32, Arc<ThreadPool>)>> = Mutex::new(Vec::new());
    let pid = std::process::id();
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if pools.iter().any(|p| p.1 != pid) {
        // This process was forked from the one that started these pools: their threads
        // did not come along. Forget them without touching them.
        let (ours, theirs): (Vec<_>, Vec<_>) = pools.drain(..).partition(|p| p.1 == pid);
        core::mem::forget(theirs);
        *pools = ours;
    }
    if let Some((_, _, pool)) = pools.iter().find(|p| p.0 == workers) {
        return Some(Arc::clone(pool));
    }
    let pool = ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(|i| format!("agon-vecenv-{i}"))
        .build()
        .ok()?;
    let pool = Arc::new(pool);
    pools.push((workers, pid, Arc::clone(&pool)));
    Some(pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Start {
        Start {
            position: Position::start(),
            actions: Position::start().actions(),
        }
    }

    /// Fingerprints shared by other positions make a count too high, never a draw: the
    /// count is confirmed on whole positions.
    #[test]
    fn a_shared_fingerprint_is_no_repetition() {
        let start = start();
        let mut slot = Slot::new(&start, agon_core::random::Rng::new(1));
        let m: Move = "f1-e1".parse().unwrap();
        let next = start.position.play_unchecked(m);
        // Two other hashes with next's fingerprint and first slot (they differ in bit 20,
        // which neither the fingerprint nor a table of 128 slots sees).
        let other = next.hash() ^ (1 << 20);
        assert_eq!(slot.history.insert(other), 1);
        assert_eq!(slot.history.insert(other), 2);
        assert_eq!((slot.play(m, &start)), (0.0, false));
        assert_eq!(slot.position, next);
        assert_eq!(slot.history.all_moves().collect::<Vec<_>>(), [m]);
    }

    /// The table grows by replaying the game, and keeps counting exactly.
    #[test]
    fn the_table_grows_and_counts_on() {
        let start = start();
        let mut slot = Slot::new(&start, agon_core::random::Rng::new(3));
        let mut game = Game::new();
        let mut grew = 0;
        while grew < 3 {
            let before = slot.history.table.len();
            let m = slot
                .actions
                .nth(slot.rng.below(slot.actions.len()))
                .unwrap();
            let (_, ended) = slot.play(m, &start);
            game.push_unchecked(m);
            assert_eq!(ended, game.is_over());
            if ended {
                game = Game::new();
                continue;
            }
            grew += usize::from(slot.history.table.len() > before);
            assert_eq!(slot.history.all_moves().collect::<Vec<_>>(), game.moves());
            // The position's count is the game's.
            assert_eq!(slot.position, *game.position());
            let count = slot.history.count(slot.position.hash());
            assert_eq!(count as usize, game.repetitions().min(3));
            assert!(2 * slot.history.used <= slot.history.table.len());
        }
    }
}
