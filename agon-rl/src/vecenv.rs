//! [`VecEnv`]: a batch of games stepped by action numbers into flat output buffers.

use core::fmt;

use agon_core::random::Rng;
use agon_core::{Game, Move, Position};

use crate::{write_mask, write_observation, Action, Layout, ACTION_COUNT};

/// Why a [`VecEnv`] call was refused. A refused call changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VecEnvError {
    /// The batch size is 0 or over [`VecEnv::MAX_ENVS`].
    BatchSize(usize),
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

/// The output buffers of [`VecEnv::step`], flat and C-ordered: `n` observations of
/// [`Layout::observation_len`] values, `n` rewards, `n` terminations, `n` masks of
/// [`ACTION_COUNT`] values.
#[derive(Debug)]
pub struct StepBuffers<'a, T> {
    /// Each game's next observation, from its side to move's view.
    pub observations: &'a mut [T],
    /// +1 if the action won the game for the side that played it, -1 if it lost it, 0
    /// otherwise (draws included).
    pub rewards: &'a mut [f32],
    /// Whether the action ended the game (which then starts again).
    pub terminations: &'a mut [bool],
    /// The legal actions of each game's next position.
    pub masks: &'a mut [bool],
}

/// A batch of games for reinforcement learning, stepped by action numbers.
///
/// A game that ends is started again at once from the start position: the observation
/// and mask written for it are those of the new game.
///
/// ```
/// use agon_rl::{Layout, StepBuffers, VecEnv, ACTION_COUNT};
///
/// let mut env = VecEnv::new(4, 7, Layout::Flat, None)?;
/// let n = env.len();
/// let mut actions = vec![0i64; n];
/// let (mut obs, mut rewards, mut terms, mut masks) = (
///     vec![0.0f32; n * Layout::Flat.observation_len()],
///     vec![0.0f32; n],
///     vec![false; n],
///     vec![false; n * ACTION_COUNT],
/// );
/// for _ in 0..100 {
///     env.random_actions(&mut actions)?;
///     let out = StepBuffers {
///         observations: &mut obs,
///         rewards: &mut rewards,
///         terminations: &mut terms,
///         masks: &mut masks,
///     };
///     env.step(&actions, out)?;
/// }
/// // An illegal action is refused and changes nothing.
/// let before = env.games().to_vec();
/// let out = StepBuffers { observations: &mut obs, rewards: &mut rewards, terminations: &mut terms, masks: &mut masks };
/// assert!(env.step(&vec![-1; n], out).is_err());
/// assert_eq!(env.games(), &before[..]);
/// # Ok::<(), agon_rl::VecEnvError>(())
/// ```
#[derive(Clone, Debug)]
pub struct VecEnv {
    games: Vec<Game>,
    start: Position,
    rng: Rng,
    layout: Layout,
    moves: Vec<Move>,
}

impl VecEnv {
    /// The largest batch: about 1 GiB of observations and masks in float32 and bool, and
    /// a game's history each.
    pub const MAX_ENVS: usize = 1 << 16;

    /// `n` games from `start` (the start position by default); `seed` seeds
    /// [`VecEnv::random_actions`].
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
        let start = start.unwrap_or_else(Position::start);
        if start.is_over() {
            return Err(VecEnvError::StartDecided);
        }
        Ok(VecEnv {
            games: vec![Game::from_position(start); n],
            start,
            rng: Rng::new(seed),
            layout,
            moves: Vec::with_capacity(n),
        })
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

    /// The games, each since its last start.
    pub fn games(&self) -> &[Game] {
        &self.games
    }

    /// The position every game starts from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Starts every game again, reseeding [`VecEnv::random_actions`] if `seed` is given.
    pub fn reset(&mut self, seed: Option<u64>) {
        if let Some(seed) = seed {
            self.rng = Rng::new(seed);
        }
        for g in &mut self.games {
            g.restart(self.start);
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

    /// Writes every game's observation and mask.
    pub fn observe<T: Copy + From<bool>>(
        &self,
        observations: &mut [T],
        masks: &mut [bool],
    ) -> Result<(), VecEnvError> {
        let n = self.len();
        let len = self.layout.observation_len();
        VecEnv::check_len("observations", observations.len(), n * len)?;
        VecEnv::check_len("masks", masks.len(), n * ACTION_COUNT)?;
        for ((g, o), m) in self
            .games
            .iter()
            .zip(observations.chunks_exact_mut(len))
            .zip(masks.chunks_exact_mut(ACTION_COUNT))
        {
            write_observation(g.position(), self.layout, o);
            write_mask(g.actions().iter(), m);
        }
        Ok(())
    }

    /// Plays one action in every game and writes the outcome into `out` (see
    /// [`StepBuffers`]). Every action and buffer is checked before any game changes.
    pub fn step<T: Copy + From<bool>>(
        &mut self,
        actions: &[i64],
        out: StepBuffers<'_, T>,
    ) -> Result<(), VecEnvError> {
        let n = self.len();
        let len = self.layout.observation_len();
        VecEnv::check_len("actions", actions.len(), n)?;
        VecEnv::check_len("observations", out.observations.len(), n * len)?;
        VecEnv::check_len("rewards", out.rewards.len(), n)?;
        VecEnv::check_len("terminations", out.terminations.len(), n)?;
        VecEnv::check_len("masks", out.masks.len(), n * ACTION_COUNT)?;
        self.moves.clear();
        for (env, (&action, g)) in actions.iter().zip(&self.games).enumerate() {
            let m = usize::try_from(action)
                .ok()
                .and_then(Action::new)
                .and_then(|a| a.to_move(g.position()))
                .filter(|&m| g.is_legal(m))
                .ok_or(VecEnvError::IllegalAction { env, action })?;
            self.moves.push(m);
        }
        let rows = self
            .games
            .iter_mut()
            .zip(&self.moves)
            .zip(out.observations.chunks_exact_mut(len))
            .zip(out.masks.chunks_exact_mut(ACTION_COUNT))
            .zip(out.rewards.iter_mut().zip(out.terminations.iter_mut()));
        for ((((g, &m), obs), mask), (reward, term)) in rows {
            let mover = g.position().turn();
            g.push_unchecked(m);
            match g.outcome() {
                Some(outcome) => {
                    *reward = match outcome.winner {
                        Some(w) if w == mover => 1.0,
                        Some(_) => -1.0,
                        None => 0.0,
                    };
                    *term = true;
                    g.restart(self.start);
                }
                None => {
                    *reward = 0.0;
                    *term = false;
                }
            }
            write_observation(g.position(), self.layout, obs);
            write_mask(g.actions().iter(), mask);
        }
        Ok(())
    }

    /// Writes a uniformly random legal action for every game, from the seeded generator.
    pub fn random_actions(&mut self, out: &mut [i64]) -> Result<(), VecEnvError> {
        VecEnv::check_len("actions", out.len(), self.len())?;
        for (g, a) in self.games.iter().zip(out.iter_mut()) {
            // A game in the batch is never over (it restarts when it ends), so it always
            // has a legal action.
            let legal = g.actions();
            let m = legal.nth(self.rng.below(legal.len()));
            *a = match m.and_then(Action::from_move) {
                Some(action) => action.index() as i64,
                None => unreachable!("a game of the batch has no legal action"),
            };
        }
        Ok(())
    }
}
