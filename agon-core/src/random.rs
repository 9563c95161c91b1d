//! A small seeded random generator, the one seeding scheme of runs of games ([`seed_of`],
//! [`player_seeds`]) and random playouts, shared by the examples, the bindings and the
//! bots so that "a random game from seed S" means one thing everywhere.

#[cfg(feature = "alloc")]
use crate::{Game, Outcome};
use crate::{Move, Position};

/// SplitMix64: a fast, seedable generator with a fixed sequence for each seed, so random
/// games replay exactly. Not for cryptography.
///
/// ```
/// use agon_core::random::Rng;
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    ///
    /// ```
    /// use agon_core::random::Rng;
    /// assert_ne!(Rng::new(1).next_u64(), Rng::new(2).next_u64());
    /// ```
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    ///
    /// ```
    /// use agon_core::random::Rng;
    /// assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n > 0`), by Lemire's multiply-shift.
    ///
    /// ```
    /// use agon_core::random::Rng;
    /// let mut rng = Rng::new(3);
    /// assert!((0..100).all(|_| rng.below(6) < 6));
    /// ```
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A uniform float in `[0, 1)`.
    ///
    /// ```
    /// use agon_core::random::Rng;
    /// let x = Rng::new(9).unit();
    /// assert!((0.0..1.0).contains(&x));
    /// ```
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Shuffles `items` uniformly (Fisher-Yates), as the same seed always does.
    ///
    /// ```
    /// use agon_core::random::Rng;
    /// let mut items = [1, 2, 3, 4, 5];
    /// Rng::new(7).shuffle(&mut items);
    /// let mut again = [1, 2, 3, 4, 5];
    /// Rng::new(7).shuffle(&mut again);
    /// assert_eq!(items, again);
    /// items.sort();
    /// assert_eq!(items, [1, 2, 3, 4, 5]);
    /// ```
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The seed of an item numbered by `path` in a run seeded `run_seed`: the one seeding
/// scheme of every layer. Game `k` of a batch of random games (agon-rl's `game_rng`, so
/// `random_playouts` and `VecEnv`) is seeded `seed_of(seed, &[k])`; game `k` of pair `p`
/// of a round robin (Python's `agon.tournament`, and with `p = 0` a match of agon-bots'
/// arena) `seed_of(seed, &[p, k])`, its bots by [`player_seeds`]; Python's dataset
/// generation and balance command number their games the same way.
///
/// Each step is one draw of SplitMix64 ([`Rng`]): the run seed's first draw, then for
/// each number `n` of the path the first draw of the generator seeded with the seed so
/// far XOR `n`. So every item gets a well-spread seed of its own, fixed by the run seed
/// and its numbers alone (never by how the items are split between threads or
/// machines), and nearby numbers give unrelated seeds.
///
/// ```
/// use agon_core::random::{seed_of, Rng};
/// assert_eq!(seed_of(7, &[3]), seed_of(7, &[3]));
/// assert_ne!(seed_of(7, &[3]), seed_of(7, &[4]));
/// assert_ne!(seed_of(7, &[3]), seed_of(8, &[3]));
/// assert_ne!(seed_of(7, &[0, 3]), seed_of(7, &[3]));
/// // The empty path is the run seed's first draw.
/// assert_eq!(seed_of(7, &[]), Rng::new(7).next_u64());
/// ```
pub fn seed_of(run_seed: u64, path: &[u64]) -> u64 {
    path.iter().fold(Rng::new(run_seed).next_u64(), |seed, &n| {
        Rng::new(seed ^ n).next_u64()
    })
}

/// The seeds of White's and Black's bots in a game seeded `game_seed` (see [`seed_of`]):
/// `seed_of(game_seed, &[0])` and `seed_of(game_seed, &[1])`. The bot of a colour gets
/// that colour's seed, whoever moves first.
///
/// ```
/// use agon_core::random::{player_seeds, seed_of};
/// let [white, black] = player_seeds(seed_of(1, &[0, 5]));
/// assert_ne!(white, black);
/// assert_eq!(white, seed_of(seed_of(1, &[0, 5]), &[0]));
/// ```
pub fn player_seeds(game_seed: u64) -> [u64; 2] {
    [seed_of(game_seed, &[0]), seed_of(game_seed, &[1])]
}

/// A legal move chosen uniformly at random, or `None` when there is none.
///
/// ```
/// use agon_core::{random::{random_move, Rng}, Position};
/// let m = random_move(&Position::start(), &mut Rng::new(1)).unwrap();
/// assert!(Position::start().is_legal(m));
/// ```
pub fn random_move(position: &Position, rng: &mut Rng) -> Option<Move> {
    match position.count_legal_moves() {
        0 => None,
        n => position.nth_legal_move(rng.below(n)),
    }
}

/// Plays uniformly random legal moves until the game ends (repetition included) and
/// returns the outcome. The game keeps the moves, for replay or statistics.
///
/// Under a rule set where a game need not end (no repetition draw and no move limit, see
/// [`crate::Repetition::Off`]) use [`random_playout_capped`], which stops at a length.
///
/// ```
/// use agon_core::{random::{random_playout, Rng}, Game};
/// let mut game = Game::new();
/// let outcome = random_playout(&mut game, &mut Rng::new(42));
/// assert_eq!(game.outcome(), Some(outcome));
/// ```
#[cfg(feature = "alloc")]
pub fn random_playout(game: &mut Game, rng: &mut Rng) -> Outcome {
    loop {
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        let actions = game.actions();
        // Same choice as indexing legal_moves(), without building the list.
        match actions.nth(rng.below(actions.len())) {
            Some(m) => game.push_unchecked(m),
            None => unreachable!("a game that is not over has a legal move"),
        }
    }
}

/// [`random_playout`] that stops after `max_plies` moves of the game (counted from its
/// start): the outcome, or `None` if the game was still going at that length.
///
/// ```
/// use agon_core::{random::{random_playout_capped, Rng}, Game, Repetition, Rules};
/// let mut game = Game::with_rules(Rules::STANDARD.with_repetition(Repetition::Off));
/// let outcome = random_playout_capped(&mut game, &mut Rng::new(3), 10);
/// assert_eq!(outcome, game.outcome());
/// assert!(outcome.is_some() || game.moves().len() == 10);
/// ```
#[cfg(feature = "alloc")]
pub fn random_playout_capped(game: &mut Game, rng: &mut Rng, max_plies: usize) -> Option<Outcome> {
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let actions = game.actions();
        match actions.nth(rng.below(actions.len())) {
            Some(m) => game.push_unchecked(m),
            None => unreachable!("a game that is not over has a legal move"),
        }
    }
    game.outcome()
}
