//! [`AlphaBetaBot`]: iterative-deepening negamax alpha-beta with a transposition table.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use agon_core::{Game, Move, MoveList, Position, Repetition, Side, CELL_COUNT};

use crate::eval::{evaluate_for, evaluate_for_search};
use crate::search_core::{loss_at, to_table, win_at, Bound, INF, WIN_BOUND};
use crate::{deadline, decision_rng, spec_name, Bot, SearchStats, MAX_TIME_LIMIT};

/// Alpha-beta search to a fixed depth, deepening one ply at a time, scoring leaves with
/// [`evaluate_for_search`].
///
/// - **Iterative deepening**: depths 1, 2, ... up to the bot's depth; each iteration
///   searches the previous best move first. With a time limit the search stops when the
///   time is up and plays the best move of the last finished depth.
/// - **Transposition table** keyed on the Zobrist hash [`Position::hash`]: it stores the
///   score bound, depth and best move of each searched position (2<sup>17</sup> entries,
///   always replaced). It is emptied for each move, so that the choice depends only on
///   the seed and the game, not on earlier calls. The bound of a stored score, the
///   conversion of win distances for the table and the scale of won scores are the
///   search core's, which the [`Engine`](crate::Engine) shares.
/// - **Move ordering**: the table's move, then captures (more pieces first), then by a
///   history score of moves that caused cutoffs, then inward steps. The root moves are
///   shuffled by the seed first, so equal moves are chosen at random.
/// - **End of the game**: a full throne ring (R10) and having no action (R12) score as a
///   win or loss, sooner being better; a position occurring for the third time, counting
///   the game's history ([`Bot::choose_in_game`]) and the search path, scores as a draw
///   (R11), which the bot values [`AlphaBetaBot::CONTEMPT`] below an even position.
/// - **Statistics** ([`Bot::choose_with_stats`]): the move chosen with a count of 1 (an
///   alpha-beta search ranks only its best move) and the score of the deepest finished
///   iteration as a value ([`AlphaBetaBot::value_of_score`]): the targets a network learns
///   the bot's play and judgement from. With statistics asked for, a position with one
///   legal move is searched too, for its value.
/// - **Rule sets**: the search follows the rules of the game ([`agon_core::Rules`]).
///   Scores are for the chooser of each node ([`Position::chooser`]), so the return of a
///   queen placed by her captor (`queen-placer=captor`) is searched as the captor's
///   choice. No position is a repetition draw under `repetition=off`; a pass answered by
///   a pass, a position at the move limit (plies counted from the game's start, so give
///   the bot the game: [`Bot::choose_in_game`]) and a ring without its queen under
///   `empty-throne-ring=draw` are draws, valued like repetition.
///
/// ```
/// use agon_bots::{AlphaBetaBot, Bot};
/// use agon_core::Game;
///
/// let game = Game::new();
/// let mut bot = AlphaBetaBot::new(3, 1);
/// let m = bot.choose_in_game(&game).unwrap();
/// assert!(game.is_legal(m));
/// assert_eq!(AlphaBetaBot::new(3, 1).choose_in_game(&game), Some(m));
/// ```
pub struct AlphaBetaBot {
    depth: u32,
    seed: u64,
    time_limit: Option<Duration>,
    /// Allocated on the first search, so that building a bot is cheap.
    table: Vec<Entry>,
    /// Cutoff counts by (from, to) cell index, reset for each move.
    history: Vec<u32>,
    nodes: u64,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    /// The full hash, to tell apart positions sharing a slot; 0 marks an empty slot.
    key: u64,
    best: Option<Move>,
    depth: u8,
    bound: Bound,
    score: i32,
}

const EMPTY_ENTRY: Entry = Entry {
    key: 0,
    best: None,
    depth: 0,
    bound: Bound::Exact,
    score: 0,
};

const TABLE_BITS: u32 = 17;

/// The search state of one decision.
struct Search<'a> {
    bot: &'a mut AlphaBetaBot,
    /// Occurrences of each position in the game so far, the current one included.
    game_counts: HashMap<u64, u32>,
    /// Hashes of the positions on the search path below the root.
    path: Vec<u64>,
    deadline: Option<Instant>,
    aborted: bool,
    /// The side the bot plays (the root's chooser), for whom a draw is worth
    /// [`AlphaBetaBot::CONTEMPT`] less than an even position.
    root_side: Side,
    /// Whether repetition draws (R11).
    repetition: bool,
    /// The move limit, as plies from the root (`None` without one).
    limit: Option<usize>,
    /// Whether the move into the node at each ply from the root was a pass (index 0: the
    /// game's last move), for the two-pass draw.
    passed: Vec<bool>,
}

impl AlphaBetaBot {
    /// The depth of `alphabeta` without a number.
    ///
    /// ```
    /// use agon_bots::{bot_by_name, AlphaBetaBot};
    /// let name = format!("alphabeta:{}", AlphaBetaBot::DEFAULT_DEPTH);
    /// assert_eq!(bot_by_name("alphabeta", 0).unwrap().name(), name);
    /// ```
    pub const DEFAULT_DEPTH: u32 = 5;

    /// How much worse than an even position a draw by repetition is for the bot, in
    /// evaluation points (a guard on ring 1 is worth 30): enough that it plays on rather
    /// than repeat, which in the arena turned draws against weaker bots into wins.
    ///
    /// ```
    /// assert!(agon_bots::AlphaBetaBot::CONTEMPT > 0);
    /// ```
    pub const CONTEMPT: i32 = 100;

    /// The evaluation points that [`AlphaBetaBot::value_of_score`] maps to a value of
    /// tanh(1), about 0.76: a clear advantage (a queen two rings ahead with the steps that
    /// go with it), where the bot's scores of positions mostly lie within a few hundred.
    ///
    /// ```
    /// use agon_bots::AlphaBetaBot;
    /// assert!(AlphaBetaBot::VALUE_SCALE > f64::from(AlphaBetaBot::CONTEMPT));
    /// ```
    pub const VALUE_SCALE: f64 = 300.0;

    /// A search score as a value from -1 to 1 for the chooser: ±1 for a forced win or
    /// loss, else `tanh(score / VALUE_SCALE)` (what [`Bot::choose_with_stats`] reports).
    ///
    /// ```
    /// use agon_bots::{eval::WIN, AlphaBetaBot};
    /// assert_eq!(AlphaBetaBot::value_of_score(0), 0.0);
    /// assert_eq!(AlphaBetaBot::value_of_score(WIN - 3), 1.0);
    /// assert_eq!(AlphaBetaBot::value_of_score(-(WIN - 3)), -1.0);
    /// let v = AlphaBetaBot::value_of_score(300);
    /// assert!((v - 1f64.tanh()).abs() < 1e-12 && v == -AlphaBetaBot::value_of_score(-300));
    /// ```
    pub fn value_of_score(score: i32) -> f64 {
        if score.abs() >= WIN_BOUND {
            f64::from(score.signum())
        } else {
            (f64::from(score) / Self::VALUE_SCALE).tanh()
        }
    }

    /// The deepest search [`crate::bot_by_name`] accepts.
    ///
    /// ```
    /// use agon_bots::bot_by_name;
    /// assert!(bot_by_name("alphabeta:64", 0).is_ok());
    /// assert!(bot_by_name("alphabeta:65", 0).is_err());
    /// ```
    pub const MAX_DEPTH: u32 = 64;

    /// The memory of the bot's table, in bytes: 2<sup>17</sup> entries of the table's
    /// entry type (24 bytes), 3 MiB, allocated on the first search (beside it, a history
    /// of cutoffs, a 4-byte counter per pair of cells: 32 KiB).
    ///
    /// ```
    /// use agon_bots::AlphaBetaBot;
    /// assert_eq!(AlphaBetaBot::TABLE_BYTES, 3 << 20);
    /// ```
    pub const TABLE_BYTES: usize = (1 << TABLE_BITS) * std::mem::size_of::<Entry>();

    /// A bot that searches `depth` plies: a depth below 1 counts as 1, one above
    /// [`AlphaBetaBot::MAX_DEPTH`] as that. Its memory is fixed (a table of
    /// [`AlphaBetaBot::TABLE_BYTES`], 3 MiB, allocated on the first search) and its
    /// recursion at most `depth` deep; its time grows exponentially with the depth, so
    /// give a deep one a [time limit](AlphaBetaBot::with_time_limit).
    ///
    /// ```
    /// use agon_bots::{AlphaBetaBot, Bot};
    /// assert_eq!(AlphaBetaBot::new(4, 0).name(), "alphabeta:4");
    /// assert_eq!(AlphaBetaBot::new(0, 0).name(), "alphabeta:1");
    /// assert_eq!(AlphaBetaBot::new(u32::MAX, 0).name(), "alphabeta:64");
    /// ```
    pub fn new(depth: u32, seed: u64) -> Self {
        AlphaBetaBot {
            depth: depth.clamp(1, Self::MAX_DEPTH),
            seed,
            time_limit: None,
            table: Vec::new(),
            history: Vec::new(),
            nodes: 0,
        }
    }

    /// Also stops each search after `limit`, playing the best move of the deepest
    /// finished iteration (depth 1 always finishes). The bot is then no longer
    /// deterministic. Any limit is accepted: one above [`MAX_TIME_LIMIT`] is lowered to it,
    /// and one whose deadline the clock cannot represent sets none (`Duration::MAX` used to
    /// panic there, on an overflowing `Instant + Duration`).
    ///
    /// ```
    /// use std::time::Duration;
    /// use agon_bots::{AlphaBetaBot, Bot};
    /// let bot = AlphaBetaBot::new(30, 0).with_time_limit(Duration::from_millis(100));
    /// assert_eq!(bot.name(), "alphabeta:30:100ms");
    /// let mut bot = AlphaBetaBot::new(2, 0).with_time_limit(Duration::MAX);
    /// assert_eq!(bot.name(), "alphabeta:2:18446744073709551615ms");
    /// let start = agon_core::Position::start();
    /// assert_eq!(bot.choose(&start), AlphaBetaBot::new(2, 0).choose(&start));
    /// ```
    pub fn with_time_limit(self, limit: Duration) -> Self {
        AlphaBetaBot {
            time_limit: Some(limit.min(MAX_TIME_LIMIT)),
            ..self
        }
    }

    /// The number of positions visited by the last search (for benchmarks).
    ///
    /// ```
    /// use agon_bots::{AlphaBetaBot, Bot};
    /// use agon_core::Position;
    /// let mut bot = AlphaBetaBot::new(2, 0);
    /// bot.choose(&Position::start());
    /// assert!(bot.nodes() > 27);
    /// ```
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The move chosen and the score of the deepest finished iteration; a lone legal move
    /// is played unsearched (score `None`) unless `score_lone` asks for its score.
    fn search(&mut self, game: &Game, score_lone: bool) -> Option<(Move, Option<i32>)> {
        let position = *game.position();
        let mut moves = game.legal_moves();
        match moves.len() {
            0 => return None,
            1 if !score_lone => return Some((moves[0], None)),
            _ => {}
        }
        if self.table.is_empty() {
            self.table = vec![EMPTY_ENTRY; 1 << TABLE_BITS];
            self.history = vec![0; CELL_COUNT * CELL_COUNT];
        } else {
            self.table.fill(EMPTY_ENTRY);
            self.history.fill(0);
        }
        self.nodes = 0;
        let mut rng = decision_rng(self.seed, &position, game.moves().len());
        rng.shuffle(moves.as_mut_slice());
        let mut game_counts: HashMap<u64, u32> = HashMap::new();
        for p in game.positions() {
            *game_counts.entry(p.hash()).or_insert(0) += 1;
        }
        let deadline = deadline(self.time_limit);
        let max_depth = self.depth;
        let rules = position.rules();
        let mut passed = vec![false; max_depth as usize + 2];
        passed[0] = game.moves().last().is_some_and(|m| m.is_pass());
        let mut search = Search {
            bot: self,
            game_counts,
            path: Vec::with_capacity(64),
            deadline,
            aborted: false,
            root_side: position.chooser(),
            repetition: rules.repetition() == Repetition::Third,
            limit: rules
                .limit()
                .map(|n| (n as usize).saturating_sub(game.moves().len())),
            passed,
        };
        let mut best = moves[0];
        let mut best_score = None;
        for depth in 1..=max_depth {
            // Search the previous best move first; rotating it to the front keeps the
            // shuffled order of the others.
            if let Some(i) = moves.iter().position(|&m| m == best) {
                moves.as_mut_slice()[..=i].rotate_right(1);
            }
            let (score, m) = search.root(&position, &moves, depth as i32);
            if search.aborted {
                break;
            }
            best = m;
            best_score = Some(score);
            if score.abs() >= WIN_BOUND {
                // A forced win or loss found: deeper search cannot change the result.
                break;
            }
        }
        Some((best, best_score))
    }
}

impl Search<'_> {
    fn root(&mut self, position: &Position, moves: &MoveList, depth: i32) -> (i32, Move) {
        let mut alpha = -INF;
        let beta = INF;
        let mut best = (alpha, moves[0]);
        for &m in moves.iter() {
            let score = self.child(position, m, depth, 0, alpha, beta);
            if self.aborted {
                break;
            }
            if score > best.0 {
                best = (score, m);
            }
            alpha = alpha.max(score);
        }
        best
    }

    /// A draw for `side`: worse than an even position for the searching side, which
    /// should play on, and so better for its opponent.
    fn draw(&self, side: Side) -> i32 {
        if side == self.root_side {
            -AlphaBetaBot::CONTEMPT
        } else {
            AlphaBetaBot::CONTEMPT
        }
    }

    /// Plays `m` from `position` (at `ply` from the root) and returns its score for the
    /// chooser of `position`, within that chooser's window `alpha..beta`.
    fn child(
        &mut self,
        position: &Position,
        m: Move,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let chooser = position.chooser();
        if m.is_pass() && self.passed[ply] {
            // V7: a pass answered by a pass draws.
            return self.draw(chooser);
        }
        let next = position.play_unchecked(m);
        let hash = next.hash();
        // R11: the third occurrence of a position, counting the game and this path.
        if self.repetition {
            let seen = self.game_count(hash) + self.path.iter().filter(|&&h| h == hash).count();
            if seen >= 2 {
                return self.draw(chooser);
            }
        }
        if self.limit.is_some_and(|n| ply + 1 >= n) && next.throne_ring_side().is_none() {
            // V9: the game ends at the limit, drawn unless the side to move cannot act.
            return if next.has_legal_move() {
                self.draw(chooser)
            } else {
                evaluate_for(&next, chooser, loss_at(ply + 1))
            };
        }
        self.path.push(hash);
        self.passed[ply + 1] = m.is_pass();
        // Scores are the chooser's: the sign and the window turn when the chooser does.
        let score = if next.chooser() == chooser {
            self.negamax(&next, depth - 1, ply + 1, alpha, beta)
        } else {
            -self.negamax(&next, depth - 1, ply + 1, -beta, -alpha)
        };
        self.path.pop();
        score
    }

    /// The evaluation of `position` for its chooser.
    fn evaluate(position: &Position) -> i32 {
        evaluate_for(position, position.chooser(), evaluate_for_search(position))
    }

    fn game_count(&self, hash: u64) -> usize {
        self.game_counts.get(&hash).map_or(0, |&n| n as usize)
    }

    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.bot.nodes += 1;
        if self.bot.nodes & 1023 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.aborted = true;
                }
            }
        }
        if self.aborted {
            return 0;
        }
        if position.throne_ring_side().is_some() {
            // R10: the evaluation says who won (0: a ring without its queen, drawn under
            // empty-throne-ring=draw); prefer wins sooner and losses later.
            let score = Self::evaluate(position);
            if score == 0 {
                return self.draw(position.chooser());
            }
            return score.signum() * win_at(ply);
        }
        if depth <= 0 {
            if !position.has_legal_move() {
                return evaluate_for(position, position.chooser(), loss_at(ply));
            }
            return Self::evaluate(position);
        }
        let slot = (position.hash() >> (64 - TABLE_BITS)) as usize;
        let entry = self.bot.table[slot];
        let mut table_move = None;
        if entry.key == position.hash() {
            table_move = entry.best;
            if i32::from(entry.depth) >= depth {
                if let Some(score) = entry.bound.cutoff(entry.score, ply, alpha, beta) {
                    return score;
                }
            }
        }
        let mut moves = position.legal_moves();
        if moves.is_empty() {
            // R12: no legal action loses (the side to move, which is the chooser: a side
            // that must return always has a return).
            return loss_at(ply);
        }
        self.order(position, moves.as_mut_slice(), table_move);
        let original_alpha = alpha;
        let mut alpha = alpha;
        let mut best = (-INF, moves[0]);
        for &m in moves.iter() {
            let score = self.child(position, m, depth, ply, alpha, beta);
            if self.aborted {
                return 0;
            }
            if score > best.0 {
                best = (score, m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if let Some((from, to)) = m.cells() {
                    let i = from.index() * CELL_COUNT + to.index();
                    self.bot.history[i] =
                        self.bot.history[i].saturating_add((depth * depth) as u32);
                }
                break;
            }
        }
        self.bot.table[slot] = Entry {
            key: position.hash(),
            best: Some(best.1),
            depth: depth.clamp(0, 255) as u8,
            bound: Bound::of(best.0, original_alpha, beta),
            score: to_table(best.0, ply),
        };
        best.0
    }

    /// Sorts `moves` best first for the search (stable, so equal moves keep their order).
    fn order(&self, position: &Position, moves: &mut [Move], table_move: Option<Move>) {
        let history = &self.bot.history;
        moves.sort_by_cached_key(|&m| {
            if Some(m) == table_move {
                return i64::MIN;
            }
            let Some((from, to)) = m.cells() else {
                return 0; // a pass is the only move when it is legal
            };
            let captures = position.captures(m).len() as i64;
            let inward = i64::from(to.ring() < from.ring());
            let h = i64::from(history[from.index() * CELL_COUNT + to.index()]);
            -(captures * 1_000_000_000 + h * 4 + inward)
        });
    }
}

impl Bot for AlphaBetaBot {
    fn name(&self) -> String {
        spec_name("alphabeta", self.depth, self.time_limit)
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        self.choose_in_game(&Game::from_position(*position))
    }

    fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        self.search(game, false).map(|(m, _)| m)
    }

    /// The move with a count of 1 and the search's score as a value
    /// ([`AlphaBetaBot::value_of_score`]); no statistics if a time limit stopped the
    /// first iteration.
    fn choose_with_stats(&mut self, game: &Game) -> Option<(Move, Option<SearchStats>)> {
        if game.is_over() {
            return None;
        }
        let (m, score) = self.search(game, true)?;
        let stats = score.map(|score| SearchStats {
            visits: vec![(m, 1)],
            value: Self::value_of_score(score),
        });
        Some((m, stats))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The memory the docs give: 24-byte entries, 3 MiB of table, 32 KiB of history.
    #[test]
    fn the_table_and_history_take_what_the_docs_say() {
        assert_eq!(std::mem::size_of::<Entry>(), 24);
        let mut bot = AlphaBetaBot::new(1, 0);
        assert!(bot.choose(&Position::start()).is_some());
        assert_eq!(
            bot.table.len() * std::mem::size_of::<Entry>(),
            AlphaBetaBot::TABLE_BYTES
        );
        assert_eq!(bot.table.capacity(), bot.table.len());
        let history = bot.history.len() * std::mem::size_of::<u32>();
        assert_eq!(history / 1024, 32, "{history}");
    }
}
