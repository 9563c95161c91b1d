//! Batches of games as a dataset stores them, and games played for one: the checks and
//! the flattening that the Python bindings (`agon.data`) only convert to and from arrays.
//!
//! A batch of games comes as Arrow lays out a list column: `offsets` (one more than the
//! games) into `actions`, game `i` being `actions[offsets[i]..offsets[i + 1]]`, each game
//! with its start position ([`GameBatch`]). Games played by players (say, bots) come back
//! the same way, with the search statistics of each ply ([`PlayedGames`]).
//!
//! ```
//! use agon_core::Position;
//! use agon_rl::batch::{GameBatch, PlayedGames};
//! use agon_rl::replay::play_out;
//!
//! // Two games played and flattened, then read back as a batch and replayed.
//! let mut played = PlayedGames::new(false);
//! for n in [4, 6] {
//!     let game = play_out(Position::start(), n, |g| g.legal_moves().first().copied())?;
//!     played.push(&game, &[]);
//! }
//! let batch = GameBatch::new(vec![Position::start(); 2], &played.offsets, &played.actions)?;
//! assert_eq!(batch.replay(1)?.moves().len(), 6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::ops::Range;

use agon_core::{Game, Move, Position, Rules, Side, Symmetry};

use crate::replay::{self, PlyVisits, ReplayError, TrainingArrays};
use crate::{action_count, Action, Layout};

/// Why a batch, its ply ranges or its statistics do not hold together. The message names
/// the game (its number in the batch) where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BatchError {
    /// Not one more offset than there are games.
    OffsetCount {
        /// The games.
        games: usize,
        /// The offsets given.
        offsets: usize,
    },
    /// Offsets that do not rise from within the actions to within them.
    Offsets {
        /// The game.
        game: usize,
        /// Its offsets.
        range: (i64, i64),
        /// The number of actions.
        actions: usize,
    },
    /// A game that does not replay, or whose training samples cannot be written.
    Game {
        /// The game.
        game: usize,
        /// Why.
        error: ReplayError,
    },
    /// A game of other rules than game 0 in a batch that must share its rules.
    Rules {
        /// The game.
        game: usize,
        /// Its rules.
        got: Rules,
        /// Those of game 0.
        expected: Rules,
    },
    /// Ply bounds given for one end only.
    PlyBoundsPaired,
    /// Ply bounds of the wrong length.
    PlyBoundsCount {
        /// The games.
        games: usize,
    },
    /// A ply range outside a game's moves.
    PlyRange {
        /// The game.
        game: usize,
        /// The range asked for.
        range: (i64, i64),
        /// The game's moves.
        moves: usize,
    },
    /// Visit actions and counts given for one side only, or not one entry per game.
    VisitsPaired {
        /// The games.
        games: usize,
    },
    /// Visit actions and counts whose shapes differ: in the plies (`ply` is None) or in
    /// one ply.
    VisitsShape {
        /// The game.
        game: usize,
        /// Whether the shapes differ within a ply (else in the number of plies).
        in_ply: bool,
    },
    /// Visits of an action number beyond the action space of the rules.
    VisitAction {
        /// The game.
        game: usize,
        /// The action number.
        action: usize,
        /// The rules.
        rules: Rules,
    },
}

impl fmt::Display for BatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BatchError::OffsetCount { games, offsets } => write!(
                f,
                "offsets must have one more entry than there are games ({}), not {offsets}",
                games + 1
            ),
            BatchError::Offsets {
                game,
                range: (a, b),
                actions,
            } => write!(
                f,
                "game {game}: offsets {a}..{b} are not a range within the {actions} actions"
            ),
            BatchError::Game { game, error } => write!(f, "game {game}: {error}"),
            BatchError::Rules {
                game,
                got,
                expected,
            } => write!(
                f,
                "game {game}: rules {got} differ from those of game 0 ({expected}): the games \
                 of one call of training arrays share their rules"
            ),
            BatchError::PlyBoundsPaired => {
                f.write_str("give both ply_begin and ply_end, or neither")
            }
            BatchError::PlyBoundsCount { games } => write!(
                f,
                "ply_begin and ply_end must have one entry per game ({games})"
            ),
            BatchError::PlyRange {
                game,
                range: (b, e),
                moves,
            } => write!(
                f,
                "game {game}: plies {b}..{e} are not within its {moves} moves"
            ),
            BatchError::VisitsPaired { games } => write!(
                f,
                "visit_actions and visit_counts must both be given, with one entry per game \
                 ({games}), or neither"
            ),
            BatchError::VisitsShape { game, in_ply } => write!(
                f,
                "game {game}: visit actions and counts differ in {}",
                if *in_ply { "a ply" } else { "their plies" }
            ),
            BatchError::VisitAction {
                game,
                action,
                rules,
            } => write!(
                f,
                "game {game}: visits of action {action}, beyond the {} actions of {rules}",
                action_count(*rules)
            ),
        }
    }
}

impl std::error::Error for BatchError {}

/// The winner of a game as a dataset writes it: `"white"`, `"black"`, or `None`.
///
/// ```
/// assert_eq!(agon_rl::batch::winner_name(&agon_core::Game::new()), None);
/// ```
pub fn winner_name(game: &Game) -> Option<&'static str> {
    game.outcome().and_then(|o| o.winner).map(Side::name)
}

/// The end reason of a game as a dataset writes it: the core's name, or `"unfinished"`.
///
/// ```
/// assert_eq!(agon_rl::batch::reason_name(&agon_core::Game::new()), "unfinished");
/// ```
pub fn reason_name(game: &Game) -> &'static str {
    game.outcome().map_or("unfinished", |o| o.reason.name())
}

/// The games of a batch: each start position with its actions, checked to fit together.
#[derive(Clone, Debug)]
pub struct GameBatch {
    starts: Vec<Position>,
    /// The actions of each game, as ranges of `actions`.
    ranges: Vec<Range<usize>>,
    actions: Vec<u16>,
}

impl GameBatch {
    /// The batch of the games starting at `starts`, game `i` playing
    /// `actions[offsets[i]..offsets[i + 1]]`.
    ///
    /// # Errors
    ///
    /// [`BatchError::OffsetCount`] unless there is one more offset than starts, and
    /// [`BatchError::Offsets`] for the first game whose offsets do not rise from within
    /// the actions to within them.
    pub fn new(
        starts: Vec<Position>,
        offsets: &[i64],
        actions: &[u16],
    ) -> Result<GameBatch, BatchError> {
        if offsets.len() != starts.len() + 1 {
            return Err(BatchError::OffsetCount {
                games: starts.len(),
                offsets: offsets.len(),
            });
        }
        let mut ranges = Vec::with_capacity(starts.len());
        for (game, pair) in offsets.windows(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            if a < 0 || b < a || b as u64 > actions.len() as u64 {
                return Err(BatchError::Offsets {
                    game,
                    range: (a, b),
                    actions: actions.len(),
                });
            }
            ranges.push(a as usize..b as usize);
        }
        Ok(GameBatch {
            starts,
            ranges,
            actions: actions.to_vec(),
        })
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// The start positions.
    pub fn starts(&self) -> &[Position] {
        &self.starts
    }

    /// The actions of game `i`.
    pub fn actions(&self, i: usize) -> &[u16] {
        &self.actions[self.ranges[i].clone()]
    }

    /// Replays game `i` ([`replay::replay`]).
    ///
    /// # Errors
    ///
    /// [`BatchError::Game`] for an action that names no move or an illegal one.
    pub fn replay(&self, i: usize) -> Result<Game, BatchError> {
        let actions = self.actions(i).iter().map(|&a| usize::from(a));
        replay::replay(&self.starts[i], actions)
            .map_err(|error| BatchError::Game { game: i, error })
    }

    /// Every game replayed, in order.
    ///
    /// # Errors
    ///
    /// The first game's that does not replay ([`GameBatch::replay`]).
    pub fn replay_all(&self) -> Result<Vec<Game>, BatchError> {
        (0..self.len()).map(|i| self.replay(i)).collect()
    }

    /// The rules the games share (the standard rules for no game).
    ///
    /// # Errors
    ///
    /// [`BatchError::Rules`] for the first game of other rules than game 0.
    pub fn common_rules(&self) -> Result<Rules, BatchError> {
        let expected = self.starts.first().map_or(Rules::STANDARD, |p| p.rules());
        match self.starts.iter().position(|p| p.rules() != expected) {
            Some(game) => Err(BatchError::Rules {
                game,
                got: self.starts[game].rules(),
                expected,
            }),
            None => Ok(expected),
        }
    }

    /// The ply range of each game: `begin[i]..end[i]`, or all of its moves when both are
    /// None.
    ///
    /// # Errors
    ///
    /// [`BatchError::PlyBoundsPaired`] for one bound without the other,
    /// [`BatchError::PlyBoundsCount`] unless each has one entry per game, and
    /// [`BatchError::PlyRange`] for a range that is not within its game's moves.
    pub fn ply_ranges(
        &self,
        begin: Option<&[i64]>,
        end: Option<&[i64]>,
    ) -> Result<Vec<Range<usize>>, BatchError> {
        let n = self.len();
        match (begin, end) {
            (None, None) => Ok(self.ranges.iter().map(|r| 0..r.len()).collect()),
            (Some(begin), Some(end)) => {
                if begin.len() != n || end.len() != n {
                    return Err(BatchError::PlyBoundsCount { games: n });
                }
                (0..n)
                    .map(|game| {
                        let moves = self.ranges[game].len();
                        let (b, e) = (begin[game], end[game]);
                        if 0 <= b && b <= e && e as u64 <= moves as u64 {
                            Ok(b as usize..e as usize)
                        } else {
                            Err(BatchError::PlyRange {
                                game,
                                range: (b, e),
                                moves,
                            })
                        }
                    })
                    .collect()
            }
            _ => Err(BatchError::PlyBoundsPaired),
        }
    }
}

/// The samples of the ply ranges `plies`: one per position, times the symmetries' number
/// with `symmetries`.
///
/// ```
/// assert_eq!(agon_rl::batch::sample_count(&[0..3, 2..4], true), 60);
/// ```
pub fn sample_count(plies: &[Range<usize>], symmetries: bool) -> u64 {
    let per_position = if symmetries { Symmetry::ALL.len() } else { 1 } as u64;
    plies.iter().map(|r| r.len() as u64).sum::<u64>() * per_position
}

/// The search statistics of one game as a dataset gives them: per ply, `None` or the
/// action numbers (`actions`) and their visit counts (`counts`), or `None` for no
/// statistics at all. Returns each ply's visits in the action space of `rules`, for
/// [`TrainingArrays::push_game`].
///
/// # Errors
///
/// [`BatchError::VisitsShape`] when actions and counts do not have the same shape, and
/// [`BatchError::VisitAction`] for an action number beyond those of `rules`.
///
/// ```
/// use agon_core::Rules;
/// use agon_rl::batch::ply_visits;
/// let visits = ply_visits(0, Rules::STANDARD, Some(&[None, Some(vec![5])]), Some(&[None, Some(vec![2])]))?;
/// assert_eq!(visits[1].as_ref().unwrap()[0].1, 2);
/// assert!(ply_visits(0, Rules::STANDARD, Some(&[None]), None).is_err());
/// # Ok::<(), agon_rl::batch::BatchError>(())
/// ```
pub fn ply_visits(
    game: usize,
    rules: Rules,
    actions: Option<&[Option<Vec<u16>>]>,
    counts: Option<&[Option<Vec<u32>>]>,
) -> Result<Vec<PlyVisits>, BatchError> {
    let shape = |in_ply| BatchError::VisitsShape { game, in_ply };
    match (actions, counts) {
        (None, None) => Ok(Vec::new()),
        (Some(actions), Some(counts)) if actions.len() == counts.len() => actions
            .iter()
            .zip(counts)
            .map(|(a, c)| match (a, c) {
                (None, None) => Ok(None),
                (Some(a), Some(c)) if a.len() == c.len() => a
                    .iter()
                    .zip(c)
                    .map(|(&a, &n)| {
                        let action = usize::from(a);
                        Action::new_in(action, rules).map(|a| (a, n)).ok_or(
                            BatchError::VisitAction {
                                game,
                                action,
                                rules,
                            },
                        )
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some),
                _ => Err(shape(true)),
            })
            .collect(),
        _ => Err(shape(false)),
    }
}

/// The training arrays of a batch ([`TrainingArrays`]): for each game `i`, the positions
/// before its moves `plies[i]`, with `visits[i]` (empty for none) as its statistics, all
/// under the rules the games share; and each replayed game's winner and end reason
/// ([`winner_name`], [`reason_name`]).
///
/// # Errors
///
/// [`BatchError::Rules`] for games of different rules, [`BatchError::Game`] for the first
/// game that does not replay or whose plies or statistics do not fit it.
///
/// ```
/// use agon_core::Position;
/// use agon_rl::batch::{training_arrays, GameBatch, PlayedGames};
/// use agon_rl::{replay::play_out, Layout};
/// let game = play_out(Position::start(), 5, |g| g.legal_moves().first().copied())?;
/// let mut played = PlayedGames::new(false);
/// played.push(&game, &[]);
/// let batch = GameBatch::new(vec![Position::start()], &played.offsets, &played.actions)?;
/// let (arrays, outcomes) = training_arrays(&batch, &[1..3], &[vec![]], Layout::Flat, true, false)?;
/// assert_eq!((arrays.len(), outcomes), (24, vec![(None, "unfinished")]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[allow(clippy::type_complexity)]
pub fn training_arrays(
    batch: &GameBatch,
    plies: &[Range<usize>],
    visits: &[Vec<PlyVisits>],
    layout: Layout,
    symmetries: bool,
    policy: bool,
) -> Result<(TrainingArrays, Vec<(Option<&'static str>, &'static str)>), BatchError> {
    let rules = batch.common_rules()?;
    let mut arrays = TrainingArrays::with_rules(layout, symmetries, policy, rules);
    let mut outcomes = Vec::with_capacity(batch.len());
    for i in 0..batch.len() {
        let game = batch.replay(i)?;
        arrays
            .push_game(&game, plies[i].clone(), &visits[i])
            .map_err(|error| BatchError::Game { game: i, error })?;
        outcomes.push((winner_name(&game), reason_name(&game)));
    }
    Ok((arrays, outcomes))
}

/// Plays a game from `start` between `players` (white's, then black's) until it ends or
/// `max_plies` moves are played ([`replay::play_out`]): each ply, `choose` gives the move
/// of the player to act ([`Position::chooser`]: the side to move but where a queen's
/// captor places her) and, optionally, the statistics of its search. Returns the game and
/// the statistics of each ply.
///
/// # Errors
///
/// [`ReplayError::BadChoice`] when a player gives no move or an illegal one while the
/// game goes on.
///
/// ```
/// use agon_core::{Position, Side};
/// use agon_rl::batch::play_game;
/// // Each player gives its side's name as its "statistics".
/// let mut players = [Side::White, Side::Black];
/// let (game, stats) = play_game(Position::start(), 4, &mut players, |side, g| {
///     g.legal_moves().first().map(|&m| (m, Some(side.name())))
/// })?;
/// assert_eq!(stats, vec![Some("white"), Some("black"), Some("white"), Some("black")]);
/// assert_eq!(game.moves().len(), 4);
/// # Ok::<(), agon_rl::replay::ReplayError>(())
/// ```
pub fn play_game<P, S>(
    start: Position,
    max_plies: usize,
    players: &mut [P; 2],
    mut choose: impl FnMut(&mut P, &Game) -> Option<(Move, Option<S>)>,
) -> Result<(Game, Vec<Option<S>>), ReplayError> {
    let mut stats = Vec::new();
    let game = replay::play_out(start, max_plies, |game| {
        let player = &mut players[game.position().chooser().index()];
        let (m, ply_stats) = choose(player, game)?;
        stats.push(ply_stats);
        Some(m)
    })?;
    Ok((game, stats))
}

/// The statistics of one ply of a played game: the search's value of the position for the
/// player to act, and each move it visited with its visit count.
pub type PlyStats<'a> = Option<(f64, &'a [(Move, u32)])>;

/// The search statistics of played games, flattened per ply ([`PlayedGames`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlatStats {
    /// Whether the player of each ply gave statistics.
    pub has_stats: Vec<bool>,
    /// The value of each ply (NaN where none).
    pub values: Vec<f32>,
    /// One more than the plies: the visits of ply `p` are
    /// `visit_offsets[p]..visit_offsets[p + 1]` of `visit_actions` and `visit_counts`.
    pub visit_offsets: Vec<i64>,
    /// The actions visited (in the action space of the game's rules).
    pub visit_actions: Vec<u16>,
    /// Their visit counts.
    pub visit_counts: Vec<u32>,
}

/// Played games flattened as a dataset stores them: all the games' actions end to end
/// with the offsets of each game, each game's winner and end reason and, when kept, the
/// search statistics of each ply.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGames {
    /// The actions of all games, end to end.
    pub actions: Vec<u16>,
    /// One more than the games: game `i` is `actions[offsets[i]..offsets[i + 1]]`.
    pub offsets: Vec<i64>,
    /// Each game's winner ([`winner_name`]).
    pub winners: Vec<Option<&'static str>>,
    /// Each game's end reason ([`reason_name`]).
    pub reasons: Vec<&'static str>,
    /// The statistics of every ply, if kept.
    pub stats: Option<FlatStats>,
}

impl PlayedGames {
    /// No game yet, keeping the statistics if `stats`.
    pub fn new(stats: bool) -> PlayedGames {
        PlayedGames {
            actions: Vec::new(),
            offsets: vec![0],
            winners: Vec::new(),
            reasons: Vec::new(),
            stats: stats.then(|| FlatStats {
                visit_offsets: vec![0],
                ..FlatStats::default()
            }),
        }
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.winners.len()
    }

    /// Whether there is no game yet.
    pub fn is_empty(&self) -> bool {
        self.winners.is_empty()
    }

    /// Adds `game` with the statistics of its plies (read only when statistics are kept;
    /// a ply beyond `stats` has none). Visits of a move with no action in the game's rules
    /// (there is none among legal moves) are left out.
    ///
    /// ```
    /// use agon_core::Position;
    /// use agon_rl::batch::PlayedGames;
    /// use agon_rl::replay::play_out;
    /// let game = play_out(Position::start(), 2, |g| g.legal_moves().first().copied())?;
    /// let first = game.moves()[0];
    /// let mut played = PlayedGames::new(true);
    /// played.push(&game, &[Some((0.5, &[(first, 7)]))]);
    /// let stats = played.stats.as_ref().unwrap();
    /// assert_eq!(stats.has_stats, [true, false]);
    /// assert_eq!((stats.visit_offsets.as_slice(), stats.visit_counts.as_slice()), (&[0, 1, 1][..], &[7][..]));
    /// assert!(stats.values[1].is_nan());
    /// # Ok::<(), agon_rl::replay::ReplayError>(())
    /// ```
    pub fn push(&mut self, game: &Game, stats: &[PlyStats<'_>]) {
        self.actions.extend(replay::game_actions(game));
        self.offsets.push(self.actions.len() as i64);
        self.winners.push(winner_name(game));
        self.reasons.push(reason_name(game));
        let Some(flat) = &mut self.stats else {
            return;
        };
        for (ply, position) in game.positions()[..game.moves().len()].iter().enumerate() {
            let ply_stats = stats.get(ply).copied().flatten();
            flat.has_stats.push(ply_stats.is_some());
            flat.values
                .push(ply_stats.map_or(f32::NAN, |(value, _)| value as f32));
            for &(m, n) in ply_stats.map_or(&[][..], |(_, visits)| visits) {
                // Every legal move has an action in the space of the game's rules.
                if let Some(a) = Action::from_move_in(m, position) {
                    flat.visit_actions.push(a.index() as u16);
                    flat.visit_counts.push(n);
                }
            }
            flat.visit_offsets.push(flat.visit_actions.len() as i64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_moves(n: usize) -> Game {
        replay::play_out(Position::start(), n, |g| g.legal_moves().first().copied()).unwrap()
    }

    fn batch_of(games: &[Game]) -> GameBatch {
        let mut played = PlayedGames::new(false);
        for g in games {
            played.push(g, &[]);
        }
        GameBatch::new(
            vec![Position::start(); games.len()],
            &played.offsets,
            &played.actions,
        )
        .unwrap()
    }

    #[test]
    fn offsets_are_checked() {
        let starts = vec![Position::start(); 2];
        assert_eq!(
            GameBatch::new(starts.clone(), &[0, 1], &[0; 3]).unwrap_err(),
            BatchError::OffsetCount {
                games: 2,
                offsets: 2
            }
        );
        for bad in [[0, 2, 1], [-1, 0, 1], [0, 1, 4]] {
            let e = GameBatch::new(starts.clone(), &bad, &[0; 3]).unwrap_err();
            assert!(
                matches!(e, BatchError::Offsets { actions: 3, .. }),
                "{bad:?}: {e:?}"
            );
        }
        assert_eq!(
            GameBatch::new(starts, &[0, 1, 5], &[0; 3])
                .unwrap_err()
                .to_string(),
            "game 1: offsets 1..5 are not a range within the 3 actions"
        );
    }

    #[test]
    fn batches_replay_their_games() {
        let games = [first_moves(3), first_moves(0), first_moves(7)];
        let batch = batch_of(&games);
        assert_eq!(batch.len(), 3);
        assert_eq!(batch.replay_all().unwrap(), games);
        assert_eq!(batch.common_rules().unwrap(), Rules::STANDARD);
        // An action that cannot be played names its game and ply.
        let bad = GameBatch::new(vec![Position::start()], &[0, 2], &[0, 0]).unwrap();
        let e = bad.replay(0).unwrap_err();
        assert!(matches!(e, BatchError::Game { game: 0, .. }));
        assert!(e.to_string().starts_with("game 0: ply "), "{e}");
    }

    #[test]
    fn the_games_of_a_batch_share_their_rules() {
        let starts = vec![Position::start(), Position::start_with_rules(Rules::LUDII)];
        let batch = GameBatch::new(starts, &[0, 0, 0], &[]).unwrap();
        let e = batch.common_rules().unwrap_err();
        assert!(matches!(e, BatchError::Rules { game: 1, .. }), "{e:?}");
        assert!(training_arrays(
            &batch,
            &[0..0, 0..0],
            &[vec![], vec![]],
            Layout::Flat,
            false,
            false
        )
        .is_err());
    }

    #[test]
    fn ply_ranges_are_checked() {
        let batch = batch_of(&[first_moves(3), first_moves(5)]);
        assert_eq!(batch.ply_ranges(None, None).unwrap(), [0..3, 0..5]);
        assert_eq!(
            batch.ply_ranges(Some(&[1, 0]), Some(&[3, 5])).unwrap(),
            [1..3, 0..5]
        );
        assert_eq!(
            batch.ply_ranges(Some(&[0, 0]), None).unwrap_err(),
            BatchError::PlyBoundsPaired
        );
        assert_eq!(
            batch.ply_ranges(Some(&[0]), Some(&[0])).unwrap_err(),
            BatchError::PlyBoundsCount { games: 2 }
        );
        for (b, e) in [(-1, 2), (2, 1), (0, 6)] {
            let error = batch.ply_ranges(Some(&[0, b]), Some(&[0, e])).unwrap_err();
            assert_eq!(
                error,
                BatchError::PlyRange {
                    game: 1,
                    range: (b, e),
                    moves: 5
                }
            );
        }
        assert_eq!(sample_count(&[0..3, 0..5], false), 8);
        assert_eq!(
            sample_count(&[0..3, 0..5], true),
            8 * Symmetry::ALL.len() as u64
        );
    }

    #[test]
    fn visits_are_checked() {
        let rules = Rules::STANDARD;
        assert_eq!(ply_visits(3, rules, None, None).unwrap(), vec![]);
        let shape = |in_ply| BatchError::VisitsShape { game: 3, in_ply };
        assert_eq!(
            ply_visits(3, rules, Some(&[None]), None).unwrap_err(),
            shape(false)
        );
        assert_eq!(
            ply_visits(3, rules, Some(&[None, None]), Some(&[None])).unwrap_err(),
            shape(false)
        );
        assert_eq!(
            ply_visits(3, rules, Some(&[Some(vec![1])]), Some(&[None])).unwrap_err(),
            shape(true)
        );
        assert_eq!(
            ply_visits(3, rules, Some(&[Some(vec![1, 2])]), Some(&[Some(vec![1])])).unwrap_err(),
            shape(true)
        );
        let beyond = action_count(rules) as u16;
        let e = ply_visits(
            3,
            rules,
            Some(&[Some(vec![beyond])]),
            Some(&[Some(vec![1])]),
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("game 3: visits of action {beyond}, beyond the {beyond} actions of {rules}")
        );
        let visits = ply_visits(
            3,
            rules,
            Some(&[None, Some(vec![4, 9])]),
            Some(&[None, Some(vec![1, 2])]),
        )
        .unwrap();
        assert_eq!(visits[0], None);
        let second: Vec<_> = visits[1]
            .iter()
            .flatten()
            .map(|&(a, n)| (a.index(), n))
            .collect();
        assert_eq!(second, [(4, 1), (9, 2)]);
    }

    #[test]
    fn training_arrays_of_a_batch() {
        let games = [first_moves(4), first_moves(6)];
        let batch = batch_of(&games);
        let plies = batch.ply_ranges(Some(&[1, 0]), Some(&[3, 6])).unwrap();
        let (arrays, outcomes) = training_arrays(
            &batch,
            &plies,
            &[vec![], vec![]],
            Layout::Flat,
            false,
            false,
        )
        .unwrap();
        assert_eq!(arrays.len(), 8);
        assert_eq!(arrays.games, [0, 0, 1, 1, 1, 1, 1, 1]);
        assert_eq!(arrays.plies, [1, 2, 0, 1, 2, 3, 4, 5]);
        assert_eq!(outcomes, [(None, "unfinished"); 2]);
        // A ply range the arrays refuse names its game.
        let e = training_arrays(
            &batch,
            &[0..0, 0..9],
            &[vec![], vec![]],
            Layout::Flat,
            false,
            false,
        )
        .unwrap_err();
        assert!(matches!(e, BatchError::Game { game: 1, .. }), "{e:?}");
    }

    #[test]
    fn played_games_flatten_with_their_statistics() {
        let mut players = [0u32, 1u32];
        let (game, stats) = play_game(Position::start(), 5, &mut players, |p, g| {
            let m = *g.legal_moves().first()?;
            // White gives statistics, black none.
            Some((m, (*p == 0).then(|| (0.25, vec![(m, 3)]))))
        })
        .unwrap();
        assert_eq!(game.moves().len(), 5);
        assert_eq!(stats.iter().filter(|s| s.is_some()).count(), 3);
        let ply_stats: Vec<PlyStats<'_>> = stats
            .iter()
            .map(|s| s.as_ref().map(|(v, visits)| (*v, visits.as_slice())))
            .collect();
        let mut played = PlayedGames::new(true);
        played.push(&game, &ply_stats);
        played.push(&first_moves(2), &[]);
        assert_eq!(played.len(), 2);
        assert_eq!(played.offsets, [0, 5, 7]);
        assert_eq!(played.winners, [None, None]);
        let flat = played.stats.as_ref().unwrap();
        assert_eq!(
            flat.has_stats,
            [true, false, true, false, true, false, false]
        );
        assert_eq!(flat.visit_offsets, [0, 1, 1, 2, 2, 3, 3, 3]);
        assert_eq!(flat.visit_counts, [3, 3, 3]);
        assert_eq!(
            &flat.visit_actions[..],
            &played.actions[..5]
                .iter()
                .step_by(2)
                .copied()
                .collect::<Vec<_>>()[..]
        );
        assert_eq!(flat.values[0], 0.25);
        assert!(flat.values[1].is_nan());
        // Without statistics kept, none are read.
        let mut plain = PlayedGames::new(false);
        plain.push(&game, &ply_stats);
        assert_eq!(plain.stats, None);
        assert_eq!(plain.actions, played.actions[..5]);
        // A player that gives no move is an error.
        let e = play_game::<_, ()>(Position::start(), 5, &mut players, |_, _| None).unwrap_err();
        assert!(matches!(
            e,
            ReplayError::BadChoice {
                ply: 0,
                chosen: None
            }
        ));
    }

    #[test]
    fn names_of_outcomes() {
        let game = Game::new();
        assert_eq!(
            (winner_name(&game), reason_name(&game)),
            (None, "unfinished")
        );
        let played = replay::play_out(Position::start(), 100_000, |g| {
            g.legal_moves().first().copied()
        })
        .unwrap();
        if let Some(outcome) = played.outcome() {
            assert_eq!(reason_name(&played), outcome.reason.name());
            assert_eq!(winner_name(&played), outcome.winner.map(Side::name));
        }
    }
}
