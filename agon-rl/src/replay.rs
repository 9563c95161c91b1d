//! Games stored as action numbers: playing them, replaying them, and rebuilding the
//! training arrays of their positions.
//!
//! A game dataset keeps each game as its start position and the action numbers of its
//! moves (see the crate's action space), never the observation planes: [`replay`] plays
//! the actions again through a [`Game`] (so every move is checked, and repetition ends the
//! game as it did), and [`TrainingArrays`] writes, for each position before a move, its
//! observation, its legal-action mask, the action played and the final result from the
//! view of the player that chose the move, optionally under each of the twelve
//! symmetries.
//!
//! Games are played and replayed under the rules of their start position
//! ([`agon_core::Rules`]): the pass is an action ([`crate::PASS_ACTION`]) where the rules
//! have it, and masks and policies are [`crate::action_count`] of the rules wide.
//!
//! ```
//! use agon_core::Position;
//! use agon_rl::replay::{game_actions, play_out, replay, TrainingArrays};
//! use agon_rl::Layout;
//!
//! // Play a game with a simple chooser: the first legal move, at most 40 plies.
//! let game = play_out(Position::start(), 40, |g| g.legal_moves().first().copied())?;
//! let actions = game_actions(&game);
//! assert_eq!(actions.len(), game.moves().len());
//! // The actions give the game back.
//! let again = replay(&Position::start(), actions.iter().map(|&a| usize::from(a)))?;
//! assert_eq!(again, game);
//! // One sample per position before a move, twelve with the symmetries.
//! let mut arrays = TrainingArrays::new(Layout::Flat, true, false);
//! arrays.push_game(&game, 0..game.moves().len(), &[])?;
//! assert_eq!(arrays.len(), 12 * game.moves().len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::ops::Range;

use agon_core::{ChoiceError, Game, IllegalMove, Move, Position, Side, Symmetry};

use crate::{action_count, write_observation, write_position_mask, Action, Layout};

/// Why a game could not be replayed or played, or its statistics not read. Plies count
/// from 0, the first move of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReplayError {
    /// An action number is [`ACTION_COUNT`](crate::ACTION_COUNT) or more (but for the pass, where the rules have
    /// it), or stands for a step off the board.
    NoSuchAction {
        /// The ply of the action.
        ply: usize,
        /// The action number.
        action: usize,
    },
    /// An action's move is not legal where it is played (or the game is already over).
    IllegalAction {
        /// The ply of the action.
        ply: usize,
        /// The action number.
        action: usize,
        /// Why the move is illegal.
        reason: IllegalMove,
    },
    /// A player returned no move, or an illegal one, while the game went on.
    BadChoice {
        /// The ply.
        ply: usize,
        /// The move chosen, if any.
        chosen: Option<Move>,
    },
    /// A ply range outside the game's moves.
    PlyRange {
        /// The range asked for.
        range: Range<usize>,
        /// The number of moves of the game.
        plies: usize,
    },
    /// Search statistics that do not fit the game: not one entry per ply, or visits of an
    /// action that is not legal in the position (or named twice).
    Statistics {
        /// The ply (the number of entries given, when there is not one per ply).
        ply: usize,
        /// What is wrong.
        problem: &'static str,
    },
    /// A game played under other rules than the arrays it is pushed to.
    Rules {
        /// The rules of the arrays.
        expected: agon_core::Rules,
        /// The rules of the game.
        got: agon_core::Rules,
    },
}

impl From<ChoiceError> for ReplayError {
    /// [`ReplayError::BadChoice`], with the ply and the move chosen.
    ///
    /// ```
    /// use agon_core::{Game, Position};
    /// use agon_rl::replay::ReplayError;
    /// let e = Game::play_out(Position::start(), 4, |_| None).unwrap_err();
    /// assert_eq!(ReplayError::from(e), ReplayError::BadChoice { ply: 0, chosen: None });
    /// ```
    fn from(e: ChoiceError) -> ReplayError {
        ReplayError::BadChoice {
            ply: e.ply(),
            chosen: e.chosen(),
        }
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::NoSuchAction { ply, action } => {
                write!(f, "ply {ply}: action {action} names no move")
            }
            ReplayError::IllegalAction {
                ply,
                action,
                reason,
            } => write!(f, "ply {ply}: action {action} is illegal ({reason})"),
            ReplayError::BadChoice {
                ply,
                chosen: Some(m),
            } => write!(f, "ply {ply}: the player chose the illegal move {m}"),
            ReplayError::BadChoice { ply, chosen: None } => {
                write!(
                    f,
                    "ply {ply}: the player chose no move in a game that goes on"
                )
            }
            ReplayError::PlyRange { range, plies } => write!(
                f,
                "plies {}..{} are not within the game's {plies} moves",
                range.start, range.end
            ),
            ReplayError::Statistics { ply, problem } => {
                write!(f, "search statistics of ply {ply}: {problem}")
            }
            ReplayError::Rules { expected, got } => {
                write!(
                    f,
                    "a game under the rules {got} pushed to arrays of the rules {expected}"
                )
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// Replays `actions` from `start` through a [`Game`] under the rules of `start`, checking
/// each move: the game as it was played, with its repetition count and outcome.
///
/// # Errors
///
/// [`ReplayError::NoSuchAction`] or [`ReplayError::IllegalAction`] for the first action
/// that names no move or an illegal one (an action after the end of the game included).
///
/// ```
/// use agon_core::Position;
/// use agon_rl::replay::{replay, ReplayError};
/// let start = Position::start();
/// let a = agon_rl::Action::from_move("f1-e1".parse()?).unwrap().index();
/// assert_eq!(replay(&start, [a])?.moves().len(), 1);
/// assert!(matches!(replay(&start, [a, a]), Err(ReplayError::IllegalAction { ply: 1, .. })));
/// assert!(matches!(replay(&start, [9999]), Err(ReplayError::NoSuchAction { ply: 0, action: 9999 })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn replay(
    start: &Position,
    actions: impl IntoIterator<Item = usize>,
) -> Result<Game, ReplayError> {
    let mut game = Game::from_position(*start);
    let rules = start.rules();
    for (ply, action) in actions.into_iter().enumerate() {
        let m = Action::new_in(action, rules)
            .and_then(|a| a.to_move(game.position()))
            .ok_or(ReplayError::NoSuchAction { ply, action })?;
        game.play(m).map_err(|reason| ReplayError::IllegalAction {
            ply,
            action,
            reason,
        })?;
    }
    Ok(game)
}

/// The action numbers of a game's moves, in order (what a dataset stores), in the action
/// space of the game's rules ([`Action::from_move_in`]).
///
/// ```
/// use agon_core::Game;
/// let mut game = Game::new();
/// game.play("f1-e1".parse()?)?;
/// assert_eq!(agon_rl::replay::game_actions(&game), vec![40 * 6 + 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn game_actions(game: &Game) -> Vec<u16> {
    game.moves()
        .iter()
        .zip(game.positions())
        // Every legal move has an action, and a game holds only legal moves.
        .filter_map(|(&m, p)| Action::from_move_in(m, p).map(|a| a.index() as u16))
        .collect()
}

/// Plays a game from `start`, under its rules: `choose` gives the move of the player to
/// act in the game so far (a bot's `choose_in_game`, picking the bot by
/// [`Position::chooser`], which is the side to move but where a queen's captor places
/// her), until the game ends or `max_plies` moves are played. The loop is agon-core's
/// [`Game::play_out`], the one the bots' arena plays through; this names its error as a
/// [`ReplayError`].
///
/// # Errors
///
/// [`ReplayError::BadChoice`] when `choose` returns no move or an illegal one while the
/// game goes on.
///
/// ```
/// use agon_core::Position;
/// use agon_rl::replay::play_out;
/// let game = play_out(Position::start(), 10, |g| g.legal_moves().last().copied())?;
/// assert!(game.moves().len() <= 10);
/// assert!(play_out(Position::start(), 10, |_| None).is_err());
/// # Ok::<(), agon_rl::replay::ReplayError>(())
/// ```
pub fn play_out(
    start: Position,
    max_plies: usize,
    choose: impl FnMut(&Game) -> Option<Move>,
) -> Result<Game, ReplayError> {
    Ok(Game::play_out(start, max_plies, choose)?)
}

/// The final result of `game` for the side `mover` (say, the chooser of a position): +1 if
/// it won, -1 if it lost, 0 for a draw or a game that did not end.
///
/// ```
/// use agon_core::{Game, Side};
/// assert_eq!(agon_rl::replay::result_for(&Game::new(), Side::White), 0.0);
/// ```
pub fn result_for(game: &Game, mover: Side) -> f32 {
    match game.outcome().and_then(|o| o.winner) {
        Some(winner) if winner == mover => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// The search statistics of one ply: the visit count of each action the search tried
/// (sparse; actions not named had no visits), or `None` when the player gave none.
pub type PlyVisits = Option<Vec<(Action, u32)>>;

/// Training arrays rebuilt from games, one sample per position before a move (times
/// twelve with the symmetries), in flat, C-ordered buffers.
///
/// For sample `i`: `observations[i * L..(i + 1) * L]` (`L` = the layout's
/// [`Layout::observation_len`]) and `masks[i * W..]` (`W` = [`TrainingArrays::width`],
/// [`ACTION_COUNT`](crate::ACTION_COUNT) but under `stuck=pass`) are those of the position (or of its image
/// under `symmetries[i]`), `actions[i]` the action played there (its image),
/// `results[i]` the final result of the game for the player that chose it (the
/// position's [`Position::chooser`], see [`result_for`]), `games[i]` the number of the
/// game among those pushed (from 0) and `plies[i]` the ply. With policies,
/// `policies[i * W..]` is the search's visit
/// distribution (the visit counts over their sum, under the same symmetry) and
/// `has_policy[i]` says whether the player gave statistics for that ply (else the row is
/// all zeros).
///
/// The samples of one position come together, in the order of [`Symmetry::ALL`] (the
/// identity first).
///
/// ```
/// use agon_core::{Position, Symmetry};
/// use agon_rl::replay::{play_out, TrainingArrays};
/// use agon_rl::{Action, Layout, ACTION_COUNT};
///
/// let game = play_out(Position::start(), 6, |g| g.legal_moves().first().copied())?;
/// let mut arrays = TrainingArrays::new(Layout::Axial, false, true);
/// // Statistics for ply 0 only: 3 visits of the move played, 1 of another.
/// let legal = Position::start().legal_moves();
/// let played = Action::from_move(game.moves()[0]).unwrap();
/// let other = Action::from_move(legal[1]).unwrap();
/// let mut visits = vec![None; game.moves().len()];
/// visits[0] = Some(vec![(played, 3), (other, 1)]);
/// arrays.push_game(&game, 0..game.moves().len(), &visits)?;
/// assert_eq!(arrays.len(), game.moves().len());
/// assert_eq!(arrays.policies[played.index()], 0.75);
/// assert_eq!(arrays.has_policy[..2], [true, false]);
/// assert!(arrays.policies[ACTION_COUNT..2 * ACTION_COUNT].iter().all(|&p| p == 0.0));
/// # Ok::<(), agon_rl::replay::ReplayError>(())
/// ```
#[derive(Clone, Debug)]
pub struct TrainingArrays {
    layout: Layout,
    rules: agon_core::Rules,
    width: usize,
    symmetries: bool,
    policy: bool,
    /// The observations, [`Layout::observation_len`] values each.
    pub observations: Vec<f32>,
    /// The legal-action masks, [`TrainingArrays::width`] values each.
    pub masks: Vec<bool>,
    /// The action played.
    pub actions: Vec<u16>,
    /// The final result for the side that played.
    pub results: Vec<f32>,
    /// The number of the game among those pushed.
    pub games: Vec<u32>,
    /// The ply of the position (0 for the game's start).
    pub plies: Vec<u32>,
    /// The index of the symmetry applied ([`Symmetry::index`]; 0 is the identity).
    pub symmetries_applied: Vec<u8>,
    /// With policies: the visit distributions, [`TrainingArrays::width`] values each (else
    /// empty).
    pub policies: Vec<f32>,
    /// With policies: whether the ply had statistics (else empty).
    pub has_policy: Vec<bool>,
    pushed: u32,
}

impl TrainingArrays {
    /// Empty arrays for observations laid out by `layout`, with each position under the
    /// twelve symmetries if `symmetries` (else as it is), and with visit distributions if
    /// `policy`, for games of the standard rules.
    pub fn new(layout: Layout, symmetries: bool, policy: bool) -> TrainingArrays {
        TrainingArrays::with_rules(layout, symmetries, policy, agon_core::Rules::STANDARD)
    }

    /// [`TrainingArrays::new`] for games played under `rules`: masks and policies are
    /// [`action_count`]`(rules)` wide, and only games of those rules are taken.
    ///
    /// ```
    /// use agon_core::{Game, Rules};
    /// use agon_rl::replay::{ReplayError, TrainingArrays};
    /// use agon_rl::Layout;
    /// let mut arrays = TrainingArrays::with_rules(Layout::Flat, false, false, Rules::LUDII);
    /// assert_eq!((arrays.rules(), arrays.width()), (Rules::LUDII, 3338));
    /// let mut game = Game::with_rules(Rules::LUDII);
    /// game.play("f1-e1".parse()?)?;
    /// arrays.push_game(&game, 0..1, &[])?;
    /// assert_eq!(arrays.masks.len(), 3338);
    /// assert!(matches!(arrays.push_game(&Game::new(), 0..0, &[]), Err(ReplayError::Rules { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_rules(
        layout: Layout,
        symmetries: bool,
        policy: bool,
        rules: agon_core::Rules,
    ) -> TrainingArrays {
        TrainingArrays {
            layout,
            rules,
            width: action_count(rules),
            symmetries,
            policy,
            observations: Vec::new(),
            masks: Vec::new(),
            actions: Vec::new(),
            results: Vec::new(),
            games: Vec::new(),
            plies: Vec::new(),
            symmetries_applied: Vec::new(),
            policies: Vec::new(),
            has_policy: Vec::new(),
            pushed: 0,
        }
    }

    /// The number of samples per position: 12 with the symmetries, else 1.
    ///
    /// ```
    /// use agon_rl::{replay::TrainingArrays, Layout};
    /// assert_eq!(TrainingArrays::new(Layout::Flat, true, false).samples_per_position(), 12);
    /// ```
    pub fn samples_per_position(&self) -> usize {
        if self.symmetries {
            Symmetry::ALL.len()
        } else {
            1
        }
    }

    /// The number of samples so far.
    pub fn len(&self) -> usize {
        self.actions.len()
    }

    /// Whether there is no sample yet.
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    /// The layout of the observations.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The rules of the games the arrays take.
    pub fn rules(&self) -> agon_core::Rules {
        self.rules
    }

    /// The values of a mask or a policy: [`action_count`] of the rules.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Adds the samples of the positions before the moves `plies` of `game` (a played or
    /// replayed game). `visits` is empty (no statistics) or holds one entry per move of the
    /// game; it is read only with policies. A failed call adds nothing.
    ///
    /// # Errors
    ///
    /// [`ReplayError::Rules`] for a game of other rules than the arrays',
    /// [`ReplayError::PlyRange`] for plies beyond the game's moves, and
    /// [`ReplayError::Statistics`] (with policies) for `visits` of the wrong length or
    /// naming an action that is not legal in its position, or one action twice.
    pub fn push_game(
        &mut self,
        game: &Game,
        plies: Range<usize>,
        visits: &[PlyVisits],
    ) -> Result<(), ReplayError> {
        let moves = game.moves();
        if game.rules() != self.rules {
            return Err(ReplayError::Rules {
                expected: self.rules,
                got: game.rules(),
            });
        }
        if plies.start > plies.end || plies.end > moves.len() {
            return Err(ReplayError::PlyRange {
                range: plies,
                plies: moves.len(),
            });
        }
        if self.policy {
            check_visits(game, plies.clone(), visits, self.width)?;
        }
        let symmetries: &[Symmetry] = if self.symmetries {
            &Symmetry::ALL
        } else {
            &[Symmetry::IDENTITY]
        };
        let added = plies.len() * symmetries.len();
        let obs_len = self.layout.observation_len();
        let first = self.len();
        let width = self.width;
        self.observations.resize((first + added) * obs_len, 0.0);
        self.masks.resize((first + added) * width, false);
        if self.policy {
            self.policies.resize((first + added) * width, 0.0);
        }
        let mut sample = first;
        for ply in plies {
            let position = &game.positions()[ply];
            let mover = position.chooser();
            let result = result_for(game, mover);
            let played = Action::from_move_in(moves[ply], position);
            let ply_visits = visits.get(ply).and_then(Option::as_ref);
            let total: f64 = ply_visits.map_or(0.0, |v| v.iter().map(|&(_, n)| f64::from(n)).sum());
            for &s in symmetries {
                let image = s.position(position);
                write_observation(
                    &image,
                    self.layout,
                    &mut self.observations[sample * obs_len..(sample + 1) * obs_len],
                );
                write_position_mask(
                    &image,
                    &mut self.masks[sample * width..(sample + 1) * width],
                );
                self.actions
                    .push(played.map_or(0, |a| a.apply(s).index() as u16));
                self.results.push(result);
                self.games.push(self.pushed);
                self.plies.push(ply as u32);
                self.symmetries_applied.push(s.index() as u8);
                if self.policy {
                    self.has_policy.push(ply_visits.is_some());
                    if total > 0.0 {
                        let row = &mut self.policies[sample * width..][..width];
                        for &(a, n) in ply_visits.into_iter().flatten() {
                            row[a.apply(s).index()] = (f64::from(n) / total) as f32;
                        }
                    }
                }
                sample += 1;
            }
        }
        self.pushed += 1;
        Ok(())
    }
}

/// Checks the statistics of the plies in `plies`: one entry per move, each naming legal
/// actions of its position, at most once.
fn check_visits(
    game: &Game,
    plies: Range<usize>,
    visits: &[PlyVisits],
    width: usize,
) -> Result<(), ReplayError> {
    if visits.is_empty() {
        return Ok(());
    }
    if visits.len() != game.moves().len() {
        return Err(ReplayError::Statistics {
            ply: visits.len(),
            problem: "not one entry per move",
        });
    }
    let mut seen = vec![false; width];
    for ply in plies {
        let Some(entries) = &visits[ply] else {
            continue;
        };
        let mut legal = vec![false; width];
        write_position_mask(&game.positions()[ply], &mut legal);
        seen.fill(false);
        for &(a, _) in entries {
            if !legal[a.index()] {
                return Err(ReplayError::Statistics {
                    ply,
                    problem: "visits of an action that is not legal",
                });
            }
            if std::mem::replace(&mut seen[a.index()], true) {
                return Err(ReplayError::Statistics {
                    ply,
                    problem: "an action named twice",
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{write_mask, ACTION_COUNT};
    use agon_core::random::{random_move, Rng};

    fn random_game(seed: u64, max_plies: usize) -> Game {
        let mut rng = Rng::new(seed);
        match play_out(Position::start(), max_plies, |g| {
            random_move(g.position(), &mut rng)
        }) {
            Ok(g) => g,
            Err(e) => panic!("random play failed: {e}"),
        }
    }

    #[test]
    fn replay_gives_the_game_back_with_its_outcome() {
        for seed in 0..20 {
            let game = random_game(seed, 3000);
            assert!(game.is_over(), "random games end");
            let actions = game_actions(&game);
            let again = replay(game.start(), actions.iter().map(|&a| usize::from(a))).unwrap();
            assert_eq!(again, game);
            assert_eq!(again.outcome(), game.outcome());
        }
    }

    #[test]
    fn replay_refuses_moves_after_the_end() {
        let game = random_game(3, 3000);
        let mut actions: Vec<usize> = game_actions(&game)
            .iter()
            .map(|&a| usize::from(a))
            .collect();
        let n = actions.len();
        actions.push(actions[0]);
        assert_eq!(
            replay(game.start(), actions),
            Err(ReplayError::IllegalAction {
                ply: n,
                action: usize::from(game_actions(&game)[0]),
                reason: IllegalMove::GameOver
            })
        );
    }

    #[test]
    fn a_step_off_the_board_names_no_move() {
        // a6 (cell 5) north.
        assert_eq!(
            replay(&Position::start(), [5 * 6]),
            Err(ReplayError::NoSuchAction { ply: 0, action: 30 })
        );
    }

    #[test]
    fn play_out_stops_at_the_cap() {
        let game = random_game(1, 7);
        assert_eq!(game.moves().len(), 7);
        assert!(!game.is_over());
    }

    #[test]
    fn samples_are_those_of_each_position() {
        let game = random_game(5, 120);
        let n = game.moves().len();
        for layout in [Layout::Flat, Layout::Axial] {
            let mut arrays = TrainingArrays::new(layout, false, false);
            arrays.push_game(&game, 0..n, &[]).unwrap();
            assert_eq!(arrays.len(), n);
            let len = layout.observation_len();
            for ply in 0..n {
                let position = &game.positions()[ply];
                let mut obs = vec![0.0f32; len];
                write_observation(position, layout, &mut obs);
                assert_eq!(arrays.observations[ply * len..(ply + 1) * len], obs[..]);
                let mut mask = vec![false; ACTION_COUNT];
                write_mask(position.legal_moves().iter().copied(), &mut mask);
                assert_eq!(
                    arrays.masks[ply * ACTION_COUNT..(ply + 1) * ACTION_COUNT],
                    mask[..]
                );
                let a = Action::from_move(game.moves()[ply]).unwrap();
                assert_eq!(usize::from(arrays.actions[ply]), a.index());
                assert!(mask[a.index()]);
                assert_eq!(arrays.plies[ply] as usize, ply);
                assert_eq!(arrays.results[ply], result_for(&game, position.turn()));
            }
        }
    }

    #[test]
    fn results_are_from_the_movers_view() {
        // The first of the random games that has a winner.
        let (game, winner) = (0..100)
            .map(|seed| random_game(seed, 3000))
            .find_map(|g| g.outcome().and_then(|o| o.winner).map(|w| (g, w)))
            .expect("some random game has a winner");
        let mut arrays = TrainingArrays::new(Layout::Flat, false, false);
        arrays.push_game(&game, 0..game.moves().len(), &[]).unwrap();
        for (ply, &r) in arrays.results.iter().enumerate() {
            let mover = game.positions()[ply].turn();
            assert_eq!(r, if mover == winner { 1.0 } else { -1.0 });
        }
    }

    #[test]
    fn symmetric_samples_permute_masks_and_actions() {
        let game = random_game(11, 60);
        let n = game.moves().len();
        let mut plain = TrainingArrays::new(Layout::Flat, false, false);
        plain.push_game(&game, 0..n, &[]).unwrap();
        let mut all = TrainingArrays::new(Layout::Flat, true, false);
        all.push_game(&game, 0..n, &[]).unwrap();
        assert_eq!(all.len(), 12 * n);
        let len = Layout::Flat.observation_len();
        for ply in 0..n {
            for s in Symmetry::ALL {
                let i = ply * 12 + s.index();
                assert_eq!(all.symmetries_applied[i] as usize, s.index());
                let map = crate::action_map(s);
                // The mask of the image is the image of the mask.
                for (a, &image) in map.iter().enumerate() {
                    assert_eq!(
                        all.masks[i * ACTION_COUNT + image as usize],
                        plain.masks[ply * ACTION_COUNT + a]
                    );
                }
                assert_eq!(all.actions[i], map[usize::from(plain.actions[ply])]);
                assert!(all.masks[i * ACTION_COUNT + usize::from(all.actions[i])]);
                // The observation of the image is the planes with their cells moved.
                for channel in 0..crate::CHANNEL_COUNT {
                    for c in agon_core::Cell::all() {
                        assert_eq!(
                            all.observations[i * len + channel * 91 + s.cell(c).index()],
                            plain.observations[ply * len + channel * 91 + c.index()]
                        );
                    }
                }
            }
        }
        assert_eq!(all.observations[..len], plain.observations[..len]);
    }

    #[test]
    fn ply_ranges_and_games_are_numbered() {
        let game = random_game(2, 30);
        let mut arrays = TrainingArrays::new(Layout::Flat, false, false);
        arrays.push_game(&game, 10..20, &[]).unwrap();
        arrays.push_game(&game, 0..5, &[]).unwrap();
        assert_eq!(arrays.plies, (10..20).chain(0..5).collect::<Vec<u32>>());
        assert_eq!(arrays.games, [vec![0; 10], vec![1; 5]].concat());
        let before = arrays.len();
        assert!(matches!(
            arrays.push_game(&game, 25..31, &[]),
            Err(ReplayError::PlyRange { .. })
        ));
        assert_eq!(arrays.len(), before);
        assert_eq!(
            arrays.observations.len(),
            before * Layout::Flat.observation_len()
        );
    }

    #[test]
    fn policies_follow_the_symmetries_and_bad_statistics_are_refused() {
        let game = random_game(4, 20);
        let n = game.moves().len();
        let legal: Vec<Action> = game.positions()[0]
            .legal_moves()
            .iter()
            .filter_map(|&m| Action::from_move(m))
            .collect();
        let mut visits: Vec<PlyVisits> = vec![None; n];
        visits[0] = Some(vec![(legal[0], 1), (legal[1], 3)]);
        let mut arrays = TrainingArrays::new(Layout::Flat, true, true);
        arrays.push_game(&game, 0..n, &visits).unwrap();
        for s in Symmetry::ALL {
            let row = &arrays.policies[s.index() * ACTION_COUNT..][..ACTION_COUNT];
            assert_eq!(row[legal[0].apply(s).index()], 0.25);
            assert_eq!(row[legal[1].apply(s).index()], 0.75);
            assert_eq!(row.iter().sum::<f32>(), 1.0);
        }
        assert!(arrays.has_policy[..12].iter().all(|&b| b));
        assert!(arrays.has_policy[12..].iter().all(|&b| !b));

        let before = arrays.len();
        let illegal = Action::new(0).unwrap(); // a1 north: a1 is empty at the start
        visits[0] = Some(vec![(illegal, 1)]);
        assert!(matches!(
            arrays.push_game(&game, 0..n, &visits),
            Err(ReplayError::Statistics { ply: 0, .. })
        ));
        visits[0] = Some(vec![(legal[0], 1), (legal[0], 2)]);
        assert!(arrays.push_game(&game, 0..n, &visits).is_err());
        assert!(arrays.push_game(&game, 0..n, &visits[..1]).is_err());
        assert_eq!(arrays.len(), before);
    }
}
