//! [`Game`]: a position with its history, undo, and the ends that need a history: the
//! draw by repetition (R11), the two-pass draw (V7) and the move limit (V9).

use alloc::vec::Vec;
use core::fmt;

use crate::{
    CellSet, EndReason, IllegalMove, Move, MoveList, MoveSet, Outcome, Position, Repetition, Rules,
    Side,
};

/// A game: the positions from a start, the moves between them, and how it ended.
///
/// `Game` adds what a lone [`Position`] cannot know: repetition (R11: the third
/// occurrence of a position is a draw, the start counting as its first), and under other
/// rule sets the two-pass draw (V7) and the move limit (V9). It plays under the rules of
/// its start position ([`Game::with_rules`] starts one under a rule set). It keeps a count
/// of each position's Zobrist hash, so checking repetition costs one table probe per move,
/// not a scan of the history.
///
/// ```
/// use agon_core::{EndReason, Game, Outcome};
///
/// let mut game = Game::new();
/// // Shuffle both queens back and forth along the outer ring.
/// for _ in 0..2 {
///     for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11"] {
///         game.play(m.parse()?)?;
///     }
/// }
/// assert_eq!(game.outcome(), Some(Outcome::draw()));
/// assert!(game.legal_moves().is_empty());
/// game.undo();
/// assert_eq!(game.outcome(), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    counts: HashCounts,
    outcome: Option<Outcome>,
    /// The legal actions now: computed once per move, empty once the game is over.
    actions: MoveSet,
}

impl Game {
    /// A game from the start position.
    ///
    /// ```
    /// use agon_core::{Game, Position};
    /// assert_eq!(*Game::new().position(), Position::start());
    /// ```
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A game from the start position under `rules`.
    ///
    /// ```
    /// use agon_core::{Game, Rules};
    /// let game = Game::with_rules(Rules::LUDII);
    /// assert_eq!(game.rules(), Rules::LUDII);
    /// assert_eq!(game.legal_moves().len(), 27);
    /// ```
    pub fn with_rules(rules: Rules) -> Game {
        Game::from_position(Position::start_with_rules(rules))
    }

    /// The rule set the game is played under (its start position's).
    ///
    /// ```
    /// use agon_core::{Game, Rules};
    /// assert_eq!(Game::new().rules(), Rules::STANDARD);
    /// ```
    pub fn rules(&self) -> Rules {
        self.start().rules()
    }

    /// A game from any valid position (which counts as its first occurrence), under the
    /// position's rules; a move limit counts from it.
    ///
    /// ```
    /// use agon_core::{Game, Position, Side};
    /// let game = Game::from_position(Position::start().with_turn(Side::Black));
    /// assert_eq!(game.position().turn(), Side::Black);
    /// ```
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            positions: Vec::with_capacity(64),
            moves: Vec::with_capacity(64),
            counts: HashCounts::default(),
            outcome: None,
            actions: start.actions(),
        };
        game.restart(start);
        game
    }

    /// Clears the game and starts again from `start`, keeping the memory already
    /// allocated (for playing many games in a loop).
    ///
    /// ```
    /// use agon_core::{Game, Position};
    /// let mut game = Game::new();
    /// game.play("f1-e1".parse()?)?;
    /// game.restart(Position::start());
    /// assert!(game.moves().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn restart(&mut self, start: Position) {
        self.positions.clear();
        self.moves.clear();
        self.counts.clear();
        self.positions.push(start);
        self.counts.add(start.hash());
        self.outcome = start.outcome();
        self.actions = if self.outcome.is_some() {
            MoveSet::default()
        } else {
            start.actions()
        };
    }

    /// The current position.
    ///
    /// ```
    /// use agon_core::Game;
    /// assert_eq!(Game::new().position().occupied().len(), 14);
    /// ```
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .unwrap_or_else(|| unreachable!("a game has a start"))
    }

    /// The position the game started from.
    ///
    /// ```
    /// use agon_core::{Game, Position};
    /// assert_eq!(*Game::new().start(), Position::start());
    /// ```
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played so far.
    ///
    /// ```
    /// use agon_core::Game;
    /// let mut game = Game::new();
    /// game.play("f1-e1".parse()?)?;
    /// assert_eq!(game.moves()[0].to_string(), "f1-e1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    ///
    /// ```
    /// use agon_core::Game;
    /// assert_eq!(Game::new().positions().len(), 1);
    /// ```
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The legal moves: empty once the game is over, repetition included.
    ///
    /// ```
    /// use agon_core::Game;
    /// assert_eq!(Game::new().legal_moves().len(), 27);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        list.extend(self.actions);
        list
    }

    /// The legal actions in compact form (see [`MoveSet`]): empty once the game is over.
    ///
    /// ```
    /// use agon_core::Game;
    /// assert_eq!(Game::new().actions().len(), 27);
    /// ```
    pub fn actions(&self) -> &MoveSet {
        &self.actions
    }

    /// Whether `m` is legal now (false once the game is over).
    ///
    /// ```
    /// use agon_core::Game;
    /// assert!(Game::new().is_legal("f1-e1".parse()?));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn is_legal(&self, m: Move) -> bool {
        self.actions.contains(m)
    }

    /// Plays `m`, returning the cells of the enemy pieces it captured
    /// ([`Position::captures`]; a piece its own step traps is not among them, see
    /// [`Position::traps`]); or, if it is illegal (or the game is over), the reason,
    /// leaving the game unchanged.
    ///
    /// ```
    /// use agon_core::{Game, IllegalMove};
    /// let mut game = Game::new();
    /// assert_eq!(game.play("f1-f3".parse()?), Err(IllegalMove::NotAdjacent));
    /// assert_eq!(game.play("f1-e1".parse()?), Ok(agon_core::CellSet::EMPTY));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn play(&mut self, m: Move) -> Result<CellSet, IllegalMove> {
        if self.outcome.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let pos = self.position();
        pos.check_move(m)?;
        let captures = pos.captures(m);
        self.push_unchecked(m);
        Ok(captures)
    }

    /// Plays a move known to be legal (from [`Game::legal_moves`]) without checking it.
    ///
    /// # Correctness
    ///
    /// The game must not be over and `m` must be legal in its position; see
    /// [`Position::play_unchecked`]. Debug builds check both and panic otherwise; in
    /// release builds an illegal move leaves a game whose positions and outcome are
    /// meaningless (never undefined behaviour).
    ///
    /// # Panics
    ///
    /// In debug builds only, when the game is over or `m` is illegal.
    ///
    /// ```
    /// use agon_core::Game;
    /// let mut game = Game::new();
    /// let m = game.legal_moves()[0];
    /// game.push_unchecked(m);
    /// assert_eq!(game.moves().len(), 1);
    /// ```
    pub fn push_unchecked(&mut self, m: Move) {
        debug_assert!(self.outcome.is_none(), "push_unchecked: the game is over");
        let next = self.position().play_unchecked(m);
        self.positions.push(next);
        self.moves.push(m);
        let seen = self.counts.add(next.hash());
        let rules = next.rules();
        // Checked in the order of RULES.md section 6: throne ring, repetition, no action;
        // then the two-pass draw (V7) and the move limit (V9), which applies only when
        // nothing else ended the game.
        (self.outcome, self.actions) = if next.throne_ring_side().is_some() {
            (next.outcome(), MoveSet::default())
        } else if seen >= 3
            && rules.repetition() == Repetition::Third
            && self.occurrences(&next) >= 3
        {
            (Some(Outcome::draw()), MoveSet::default())
        } else {
            let actions = next.actions();
            if actions.is_empty() {
                (next.outcome(), actions)
            } else if m.is_pass()
                && self.moves.len() >= 2
                && self.moves[self.moves.len() - 2].is_pass()
            {
                (
                    Some(Outcome::drawn(EndReason::TwoPasses)),
                    MoveSet::default(),
                )
            } else if rules
                .limit()
                .is_some_and(|n| self.moves.len() >= n as usize)
            {
                (
                    Some(Outcome::drawn(EndReason::MoveLimit)),
                    MoveSet::default(),
                )
            } else {
                (None, actions)
            }
        };
    }

    /// Takes back the last move, returning it (`None` at the start).
    ///
    /// ```
    /// use agon_core::{Game, Position};
    /// let mut game = Game::new();
    /// game.play("f1-e1".parse()?)?;
    /// assert_eq!(game.undo().map(|m| m.to_string()), Some("f1-e1".to_string()));
    /// assert_eq!(*game.position(), Position::start());
    /// assert_eq!(game.undo(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        if let Some(pos) = self.positions.pop() {
            self.counts.remove(pos.hash());
        }
        // A move was played from the position now current, so it was not over.
        self.outcome = None;
        self.actions = self.position().actions();
        Some(m)
    }

    /// How the game ended, or `None` while it goes on.
    ///
    /// ```
    /// use agon_core::Game;
    /// assert_eq!(Game::new().outcome(), None);
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    ///
    /// ```
    /// use agon_core::Game;
    /// assert!(!Game::new().is_over());
    /// ```
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Plays a game from `start`, under its rules: `choose` gives the move of the player
    /// to act ([`Position::chooser`]: the side to move, but the captor where she places a
    /// returned queen) in the game so far, until the game ends or `max_plies` moves are
    /// played. This is the one loop that plays games between players: the bots' arena and
    /// the datasets of `agon-rl` both play through it.
    ///
    /// # Errors
    ///
    /// [`ChoiceError`] when `choose` gives no move, or an illegal one, while the game goes
    /// on (the game so far is dropped: a player that breaks the rules makes no game).
    ///
    /// ```
    /// use agon_core::{ChoiceError, Game, IllegalMove, Position, Side};
    ///
    /// // The first legal move each ply, for at most 10 plies: the queens shuffle back and
    /// // forth until a position comes a third time (R11), a draw at ply 9.
    /// let game = Game::play_out(Position::start(), 10, |g| g.legal_moves().first().copied())?;
    /// assert_eq!(game.moves().len(), 9);
    /// assert_eq!(game.outcome().map(|o| o.reason), Some(agon_core::EndReason::Repetition));
    /// // A player that gives up, or cheats, is named with the ply.
    /// let none = Game::play_out(Position::start(), 10, |_| None);
    /// assert_eq!(none.unwrap_err(), ChoiceError::NoMove { ply: 0, chooser: Side::White });
    /// let cheat = Game::play_out(Position::start(), 10, |_| "f1-f3".parse().ok()).unwrap_err();
    /// assert_eq!(cheat.reason(), Some(IllegalMove::NotAdjacent));
    /// assert_eq!(cheat.to_string(), "ply 0: White chose the illegal move f1-f3 (the cells are not adjacent)");
    /// # Ok::<(), ChoiceError>(())
    /// ```
    pub fn play_out(
        start: Position,
        max_plies: usize,
        mut choose: impl FnMut(&Game) -> Option<Move>,
    ) -> Result<Game, ChoiceError> {
        let mut game = Game::from_position(start);
        while !game.is_over() && game.moves().len() < max_plies {
            let ply = game.moves().len();
            let chooser = game.position().chooser();
            match choose(&game) {
                // `is_legal` looks the move up in the legal actions the game keeps anyway:
                // cheaper than `play`'s full check, and the same answer. The full check
                // runs only for a bad move, to say why it is illegal.
                Some(m) if game.is_legal(m) => game.push_unchecked(m),
                Some(chosen) => {
                    return Err(ChoiceError::Illegal {
                        ply,
                        chooser,
                        chosen,
                        reason: game
                            .position()
                            .check_move(chosen)
                            .err()
                            // A move the game's actions lack but the position allows: the
                            // game's own end (it never happens while the game goes on).
                            .unwrap_or(IllegalMove::GameOver),
                    });
                }
                None => return Err(ChoiceError::NoMove { ply, chooser }),
            }
        }
        Ok(game)
    }

    /// How many times the current position has occurred so far (1 the first time).
    ///
    /// ```
    /// use agon_core::Game;
    /// assert_eq!(Game::new().repetitions(), 1);
    /// ```
    pub fn repetitions(&self) -> usize {
        self.occurrences(self.position())
    }

    /// The exact number of occurrences of `pos`, confirmed position by position; only
    /// called when the hash count says a repetition may have happened.
    fn occurrences(&self, pos: &Position) -> usize {
        if self.counts.get(pos.hash()) == 0 {
            return 0;
        }
        self.positions.iter().filter(|p| *p == pos).count()
    }
}

/// Why [`Game::play_out`] stopped: its player gave no move, or an illegal one, while the
/// game went on. Plies count from 0, the first move of the game.
///
/// ```
/// use agon_core::{ChoiceError, Game, Position, Side};
/// let e = Game::play_out(Position::start(), 4, |_| None).unwrap_err();
/// assert_eq!((e.ply(), e.chooser(), e.chosen(), e.reason()), (0, Side::White, None, None));
/// assert_eq!(e.to_string(), "ply 0: White chose no move in a game that goes on");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChoiceError {
    /// The player gave no move.
    #[error("ply {ply}: {chooser} chose no move in a game that goes on")]
    NoMove {
        /// The ply.
        ply: usize,
        /// The player to act ([`Position::chooser`]).
        chooser: Side,
    },
    /// The player gave an illegal move.
    #[error("ply {ply}: {chooser} chose the illegal move {chosen} ({reason})")]
    Illegal {
        /// The ply.
        ply: usize,
        /// The player to act ([`Position::chooser`]).
        chooser: Side,
        /// The move given.
        chosen: Move,
        /// Why it is illegal.
        reason: IllegalMove,
    },
}

impl ChoiceError {
    /// The ply at which the player failed.
    ///
    /// ```
    /// use agon_core::{Game, Position};
    /// let mut n = 0;
    /// let e = Game::play_out(Position::start(), 9, |g| {
    ///     n += 1;
    ///     if n > 3 { None } else { g.legal_moves().first().copied() }
    /// });
    /// assert_eq!(e.unwrap_err().ply(), 3);
    /// ```
    pub fn ply(&self) -> usize {
        match *self {
            ChoiceError::NoMove { ply, .. } | ChoiceError::Illegal { ply, .. } => ply,
        }
    }

    /// The player that failed: the player to act at that ply ([`Position::chooser`]).
    ///
    /// ```
    /// use agon_core::{Game, Position, Side};
    /// let e = Game::play_out(Position::start(), 9, |g| g.legal_moves().first().copied().filter(|_| g.moves().is_empty()));
    /// assert_eq!(e.unwrap_err().chooser(), Side::Black);
    /// ```
    pub fn chooser(&self) -> Side {
        match *self {
            ChoiceError::NoMove { chooser, .. } | ChoiceError::Illegal { chooser, .. } => chooser,
        }
    }

    /// The illegal move given, or `None` when the player gave none.
    ///
    /// ```
    /// use agon_core::{Game, Move, Position};
    /// let f1f3: Move = "f1-f3".parse()?;
    /// let e = Game::play_out(Position::start(), 9, |_| Some(f1f3)).unwrap_err();
    /// assert_eq!(e.chosen(), Some(f1f3));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn chosen(&self) -> Option<Move> {
        match *self {
            ChoiceError::NoMove { .. } => None,
            ChoiceError::Illegal { chosen, .. } => Some(chosen),
        }
    }

    /// Why the move given is illegal, or `None` when the player gave none.
    ///
    /// ```
    /// use agon_core::{Game, IllegalMove, Position};
    /// let e = Game::play_out(Position::start(), 9, |_| "f11-f10".parse().ok()).unwrap_err();
    /// assert_eq!(e.reason(), Some(IllegalMove::NotYourPiece));
    /// ```
    pub fn reason(&self) -> Option<IllegalMove> {
        match *self {
            ChoiceError::NoMove { .. } => None,
            ChoiceError::Illegal { reason, .. } => Some(reason),
        }
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl PartialEq for Game {
    /// Two games are equal when they start from the same position and play the same moves.
    fn eq(&self, other: &Game) -> bool {
        self.start() == other.start() && self.moves == other.moves
    }
}

impl Eq for Game {}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("start", self.start())
            .field("moves", &self.moves)
            .field("outcome", &self.outcome)
            .finish()
    }
}

/// How often each hash occurs in the game: an open-addressing table of (hash, count).
#[derive(Clone, Default)]
struct HashCounts {
    /// `None` marks a slot never used; a count of 0 a slot whose positions were undone.
    slots: Vec<Option<(u64, u32)>>,
    used: usize,
}

impl HashCounts {
    fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
        self.used = 0;
    }

    fn slot(&self, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (hash as usize) & mask;
        loop {
            match self.slots[i] {
                Some((h, _)) if h != hash => i = (i + 1) & mask,
                _ => return i,
            }
        }
    }

    fn get(&self, hash: u64) -> u32 {
        if self.slots.is_empty() {
            return 0;
        }
        self.slots[self.slot(hash)].map_or(0, |(_, n)| n)
    }

    /// Counts one more occurrence of `hash`, returning the new count.
    fn add(&mut self, hash: u64) -> u32 {
        if 2 * (self.used + 1) > self.slots.len() {
            self.grow();
        }
        let i = self.slot(hash);
        let n = match self.slots[i] {
            Some((_, n)) => n + 1,
            None => {
                self.used += 1;
                1
            }
        };
        self.slots[i] = Some((hash, n));
        n
    }

    fn remove(&mut self, hash: u64) {
        if self.slots.is_empty() {
            return;
        }
        let i = self.slot(hash);
        if let Some((h, n)) = self.slots[i] {
            self.slots[i] = Some((h, n.saturating_sub(1)));
        }
    }

    /// Makes room for more hashes: rebuilds the table without the slots of undone
    /// positions, doubling it only when over a quarter of it is still counted. So a game
    /// that plays and takes back millions of moves (the playouts of a tree search) keeps a
    /// table sized by its longest line, not by every position it ever saw: it used to
    /// double for those too (600 MB for an MCTS search of 20 000 playouts). A rebuild
    /// follows at least a quarter table of new hashes, so adding stays O(1) amortized.
    fn grow(&mut self) {
        let old = core::mem::take(&mut self.slots);
        let live = old.iter().flatten().filter(|&&(_, n)| n > 0).count();
        let size = if 4 * (live + 1) <= old.len() {
            old.len()
        } else {
            (old.len() * 2).max(256)
        };
        self.slots = alloc::vec![None; size];
        self.used = 0;
        for (h, n) in old.into_iter().flatten() {
            if n > 0 {
                let i = self.slot(h);
                self.slots[i] = Some((h, n));
                self.used += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::{random_move, Rng};

    /// Regression: a game that plays and takes back many moves (a tree search's
    /// playouts) kept a slot for every position it had ever seen, so its table doubled
    /// without bound (600 MB for an MCTS search of 20 000 playouts). Now only positions
    /// still in the game count: 200 random playouts, each taken back, of about 100 000
    /// positions in all, leave the table as small as one playout needs.
    #[test]
    fn taking_moves_back_frees_their_table_slots() {
        let mut game = Game::new();
        let mut rng = Rng::new(5);
        let mut longest = 0;
        let mut played = 0;
        for _ in 0..200 {
            while !game.is_over() {
                let m = random_move(game.position(), &mut rng).expect("the game goes on");
                game.push_unchecked(m);
            }
            longest = longest.max(game.moves().len());
            played += game.moves().len();
            while game.undo().is_some() {}
            assert_eq!(game.counts.get(Position::start().hash()), 1);
        }
        assert!(played > 50_000, "{played}");
        // The table doubles only when over a quarter of it counts live positions, so it
        // stays below eight slots per position of the longest game.
        let bound = (8 * (longest + 2)).next_power_of_two().max(256);
        assert!(
            game.counts.slots.len() <= bound,
            "{} slots",
            game.counts.slots.len()
        );
        // Repetition is still counted exactly after all that.
        for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11"].repeat(2) {
            game.play(m.parse().unwrap()).unwrap();
        }
        assert_eq!(game.outcome(), Some(Outcome::draw()));
    }
}
