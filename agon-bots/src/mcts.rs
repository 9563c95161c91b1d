//! [`MctsBot`]: Monte Carlo tree search (UCT) with uniformly random playouts.
//!
//! Each playout runs in an [`agon_core::Game`] that holds the real game's history, so
//! repetition (R11) ends playouts exactly as it ends real games: a playout that repeats a
//! position for the third time is a draw, counted as half a win. Random games end by
//! themselves (about 490 plies on average from the start, by
//! `cargo run --release --example playouts`), so playouts need no cap for correctness;
//! [`MctsBot::PLAYOUT_CAP`] only bounds the rare very long one, scored as a draw.
//!
//! Under any rule set ([`agon_core::Rules`]) the playouts follow the game's rules (passes,
//! the two-pass draw, the move limit, no repetition draw under `repetition=off`, where
//! the cap ends the playouts that do not end), and each node is credited to the player
//! that chose its move ([`Position::chooser`]): under `queen-placer=captor` the captor,
//! for the return of a captured queen.

use std::time::{Duration, Instant};

use agon_core::random::{random_move, Rng};
use agon_core::{Game, Move, MoveList, Position, Side};

use crate::{deadline, decision_rng, spec_name, Bot, SearchStats, MAX_TIME_LIMIT};

/// UCT with random playouts, within a playout budget and an optional time limit.
///
/// Each iteration walks down the tree by UCB1 (exploration constant
/// [`MctsBot::EXPLORATION`]), adds the children of the leaf it reaches, plays one random
/// playout from a new child, and credits each node on the path with a win (1), draw (½)
/// or loss (0) for the side that made its move. The move played is the root's most
/// visited child. The tree is built afresh for each move.
/// [`choose_with_stats`](Bot::choose_with_stats) also gives the root's visit counts and
/// value ([`SearchStats`]).
///
/// ```
/// use agon_bots::{Bot, MctsBot};
/// use agon_core::Game;
///
/// let game = Game::new();
/// let mut bot = MctsBot::new(50, 9);
/// let m = bot.choose_in_game(&game).unwrap();
/// assert!(game.is_legal(m));
/// assert_eq!(MctsBot::new(50, 9).choose_in_game(&game), Some(m));
/// ```
#[derive(Clone, Debug)]
pub struct MctsBot {
    playouts: u32,
    seed: u64,
    time_limit: Option<Duration>,
}

/// The first capacity of the tree of a search of `playouts` playouts bounded by
/// `max_nodes`: about one expansion (some 30 nodes) per playout, bounded so that a huge
/// budget under a time limit does not reserve memory it will never use. A power of two,
/// as is [`MctsBot::MAX_TREE_NODES`], so that the vector's doubling reaches the bound
/// exactly and never reserves more ([`MctsBot::MAX_TREE_BYTES`]).
fn first_capacity(playouts: u32, max_nodes: usize) -> usize {
    (playouts.min(1 << 14) as usize * 32)
        .next_power_of_two()
        .min(max_nodes)
}

/// A node of the search tree: the move that led to it and its statistics.
struct Node {
    mv: Move,
    /// The side that chose `mv` (the chooser of the position it was played in), credited
    /// with the node's wins.
    mover: Side,
    /// Index of the first child in the arena; children are contiguous.
    first_child: u32,
    children: u32,
    expanded: bool,
    visits: u32,
    /// Sum of results for `mover`: 1 a win, 0.5 a draw.
    wins: f64,
}

impl MctsBot {
    /// The budget of `mcts` without a number.
    ///
    /// ```
    /// use agon_bots::{bot_by_name, MctsBot};
    /// let name = format!("mcts:{}", MctsBot::DEFAULT_PLAYOUTS);
    /// assert_eq!(bot_by_name("mcts", 0).unwrap().name(), name);
    /// ```
    pub const DEFAULT_PLAYOUTS: u32 = 2000;

    /// The UCB1 exploration constant: √2, the textbook value for results in `[0, 1]`.
    ///
    /// ```
    /// assert_eq!(agon_bots::MctsBot::EXPLORATION, 2f64.sqrt());
    /// ```
    pub const EXPLORATION: f64 = std::f64::consts::SQRT_2;

    /// The longest playout, in plies after the tree's leaf, before it is scored a draw.
    ///
    /// ```
    /// assert!(agon_bots::MctsBot::PLAYOUT_CAP > 0);
    /// ```
    pub const PLAYOUT_CAP: usize = 3000;

    /// The most nodes a search tree holds: 2<sup>21</sup>, 64 MiB of 32-byte nodes. A
    /// search grows the tree by one expansion (a node's children, about 30 nodes) per
    /// playout until the next expansion would pass this bound; from then on it plays its
    /// remaining playouts from the leaves the tree has, so memory stays bounded whatever
    /// the playout budget (the bound is reached after some 75 000 playouts).
    ///
    /// ```
    /// use std::time::Duration;
    /// use agon_bots::{Bot, MctsBot};
    /// assert_eq!(MctsBot::MAX_TREE_NODES, 1 << 21);
    /// // The largest budget is safe: the time limit stops it, the bound caps its tree.
    /// let mut bot = MctsBot::new(u32::MAX, 1).with_time_limit(Duration::from_millis(10));
    /// assert!(bot.choose(&agon_core::Position::start()).is_some());
    /// ```
    pub const MAX_TREE_NODES: usize = 1 << 21;

    /// The most memory a search tree takes, in bytes: [`MctsBot::MAX_TREE_NODES`] nodes
    /// of the tree's node type (32 bytes), 64 MiB. The tree reserves no more than that
    /// (its capacity is a power of two, as is the bound).
    ///
    /// ```
    /// use agon_bots::MctsBot;
    /// assert_eq!(MctsBot::MAX_TREE_BYTES, MctsBot::MAX_TREE_NODES * 32);
    /// assert_eq!(MctsBot::MAX_TREE_BYTES, 64 << 20);
    /// ```
    pub const MAX_TREE_BYTES: usize = Self::MAX_TREE_NODES * std::mem::size_of::<Node>();

    /// A bot that runs `playouts` playouts per move (at least one: 0 counts as 1). Any
    /// budget is accepted; its tree stays within [`MctsBot::MAX_TREE_NODES`] nodes, but
    /// its time grows with the budget, so give a large one a
    /// [time limit](MctsBot::with_time_limit).
    ///
    /// ```
    /// use agon_bots::{Bot, MctsBot};
    /// assert_eq!(MctsBot::new(2000, 1).name(), "mcts:2000");
    /// assert_eq!(MctsBot::new(0, 1).name(), "mcts:1");
    /// ```
    pub fn new(playouts: u32, seed: u64) -> Self {
        MctsBot {
            playouts: playouts.max(1),
            seed,
            time_limit: None,
        }
    }

    /// Also stops each search after `limit` (checked between playouts; at least one
    /// playout is always run). The bot is then no longer deterministic. Any limit is
    /// accepted: one above [`MAX_TIME_LIMIT`] is lowered to it, and one whose deadline the
    /// clock cannot represent sets none.
    ///
    /// ```
    /// use std::time::Duration;
    /// use agon_bots::{Bot, MctsBot};
    /// let bot = MctsBot::new(1_000_000, 1).with_time_limit(Duration::from_millis(20));
    /// assert_eq!(bot.name(), "mcts:1000000:20ms");
    /// let mut bot = MctsBot::new(30, 1).with_time_limit(Duration::MAX);
    /// assert_eq!(bot.name(), "mcts:30:18446744073709551615ms");
    /// let start = agon_core::Position::start();
    /// assert_eq!(bot.choose(&start), MctsBot::new(30, 1).choose(&start));
    /// ```
    pub fn with_time_limit(self, limit: Duration) -> Self {
        MctsBot {
            time_limit: Some(limit.min(MAX_TIME_LIMIT)),
            ..self
        }
    }

    /// Runs the search from the current position of `game`.
    fn search(&self, game: &Game) -> Option<Move> {
        self.search_within(game, Self::MAX_TREE_NODES).0
    }

    /// Runs the search with a tree of at most `max_nodes` nodes, returning the move and
    /// the number of nodes the tree grew to. With a single legal move there is no search.
    fn search_within(&self, game: &Game, max_nodes: usize) -> (Option<Move>, usize) {
        let root_moves = game.legal_moves();
        match root_moves.len() {
            0 => (None, 0),
            1 => (Some(root_moves[0]), 0),
            _ => {
                let tree = self.grow(game, &root_moves, max_nodes);
                (Some(best_move(&tree, &root_moves)), tree.len())
            }
        }
    }

    /// Runs the search (also for a single legal move) and returns the move with the
    /// root's statistics: every playout goes through one of the root's children, so the
    /// visit counts sum to the playouts run.
    fn search_with_stats(&self, game: &Game) -> Option<(Move, SearchStats)> {
        let root_moves = game.legal_moves();
        if root_moves.is_empty() {
            return None;
        }
        let tree = self.grow(game, &root_moves, Self::MAX_TREE_NODES);
        Some((
            best_move(&tree, &root_moves),
            root_stats(&tree, &root_moves),
        ))
    }

    /// Grows the search tree of the current position of `game`, whose legal moves are
    /// `root_moves` (at least one), to at most `max_nodes` nodes; the root is node 0.
    fn grow(&self, game: &Game, root_moves: &MoveList, max_nodes: usize) -> Vec<Node> {
        let deadline = deadline(self.time_limit);
        let position = *game.position();
        let mut rng = decision_rng(self.seed, &position, game.moves().len());
        let mut scratch = game.clone();
        let mut tree: Vec<Node> = Vec::with_capacity(first_capacity(self.playouts, max_nodes));
        tree.push(Node {
            // The root's move is never read.
            mv: root_moves[0],
            mover: position.chooser().other(),
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            wins: 0.0,
        });
        let mut path: Vec<u32> = Vec::with_capacity(64);
        for done in 0..self.playouts {
            if done > 0 && deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                break;
            }
            path.clear();
            path.push(0);
            let mut node = 0usize;
            // Selection: descend through expanded nodes.
            while tree[node].expanded && tree[node].children > 0 {
                node = select_child(&tree, node);
                scratch.push_unchecked(tree[node].mv);
                path.push(node as u32);
            }
            // Expansion: add the leaf's children and step into the first, after a shuffle
            // so that the order of unvisited children is random. Once the tree is full,
            // the playout starts from the leaf itself, which stays a leaf.
            let mut moves = MoveList::new();
            if !tree[node].expanded && !scratch.is_over() {
                moves = scratch.legal_moves();
            }
            if !moves.is_empty() && tree.len() + moves.len() <= max_nodes {
                rng.shuffle(moves.as_mut_slice());
                let mover = scratch.position().chooser();
                let first = tree.len() as u32;
                for &mv in moves.iter() {
                    tree.push(Node {
                        mv,
                        mover,
                        first_child: 0,
                        children: 0,
                        expanded: false,
                        visits: 0,
                        wins: 0.0,
                    });
                }
                tree[node].expanded = true;
                tree[node].first_child = first;
                tree[node].children = moves.len() as u32;
                node = first as usize;
                scratch.push_unchecked(tree[node].mv);
                path.push(node as u32);
            } else if moves.is_empty() {
                // Expanded already, or a leaf where the game is over.
                tree[node].expanded = true;
            }
            // Simulation: a random playout in the scratch game, then take it back.
            let played_before = scratch.moves().len();
            let winner = playout(&mut scratch, &mut rng);
            while scratch.moves().len() > played_before {
                scratch.undo();
            }
            for _ in 1..path.len() {
                scratch.undo();
            }
            // Backpropagation.
            for &i in &path {
                let n = &mut tree[i as usize];
                n.visits += 1;
                n.wins += match winner {
                    Some(side) if side == n.mover => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
            }
        }
        tree
    }
}

/// The children of the root (node 0) of `tree`.
fn root_children(tree: &[Node]) -> &[Node] {
    let root = &tree[0];
    &tree[root.first_child as usize..(root.first_child + root.children) as usize]
}

/// The move a grown tree plays: the most visited child of the root, then the better win
/// rate; a fixed order keeps it deterministic. A root that could not be expanded
/// (`max_nodes` below the number of its moves) plays the first legal move.
fn best_move(tree: &[Node], root_moves: &MoveList) -> Move {
    root_children(tree)
        .iter()
        .max_by(|a, b| {
            a.visits
                .cmp(&b.visits)
                .then(a.wins.total_cmp(&b.wins))
                .then(b.mv.cmp(&a.mv))
        })
        .map_or(root_moves[0], |n| n.mv)
}

/// The statistics of a grown tree's root: its visited children in the order of
/// `root_moves`, and its value for the chooser. The root is credited for the other
/// side, so the chooser scored `visits - wins`.
fn root_stats(tree: &[Node], root_moves: &MoveList) -> SearchStats {
    let children = root_children(tree);
    let visits = root_moves
        .iter()
        .filter_map(|&m| children.iter().find(|n| n.mv == m))
        .filter(|n| n.visits > 0)
        .map(|n| (n.mv, n.visits))
        .collect();
    let root = &tree[0];
    let playouts = f64::from(root.visits.max(1));
    SearchStats {
        visits,
        // One division of exact sums (of halves): the value is correctly rounded.
        value: (playouts - 2.0 * root.wins) / playouts,
    }
}

/// The child of `node` with the best UCB1 value; unvisited children first, in order.
fn select_child(tree: &[Node], node: usize) -> usize {
    let parent = &tree[node];
    let log_n = f64::from(parent.visits.max(1)).ln();
    let first = parent.first_child as usize;
    let children = &tree[first..first + parent.children as usize];
    let mut best = first;
    let mut best_value = f64::NEG_INFINITY;
    for (i, child) in children.iter().enumerate() {
        if child.visits == 0 {
            return first + i;
        }
        let n = f64::from(child.visits);
        let value = child.wins / n + MctsBot::EXPLORATION * (log_n / n).sqrt();
        if value > best_value {
            best_value = value;
            best = first + i;
        }
    }
    best
}

/// Plays random moves until the game ends or [`MctsBot::PLAYOUT_CAP`] plies have been
/// played, returning the winner (`None` for a draw or a capped playout).
fn playout(game: &mut Game, rng: &mut Rng) -> Option<Side> {
    for _ in 0..MctsBot::PLAYOUT_CAP {
        if let Some(outcome) = game.outcome() {
            return outcome.winner;
        }
        match random_move(game.position(), rng) {
            Some(m) => game.push_unchecked(m),
            None => unreachable!("a game that is not over has a legal move"),
        }
    }
    game.outcome().and_then(|o| o.winner)
}

impl Bot for MctsBot {
    fn name(&self) -> String {
        spec_name("mcts", self.playouts, self.time_limit)
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        self.search(&Game::from_position(*position))
    }

    fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        self.search(game)
    }

    /// The move of [`Bot::choose_in_game`] with the root's statistics: the visit count of
    /// each root move the search visited (they sum to the playouts run: the budget,
    /// unless a time limit stopped the search first) and the mean result of the playouts
    /// for the side to move, as a value from -1 to 1. The move is the most visited.
    /// Unlike [`Bot::choose_in_game`], it searches also when a single move is legal, so
    /// that every position has statistics.
    ///
    /// ```
    /// use agon_bots::{Bot, MctsBot};
    /// use agon_core::{Game, Position};
    ///
    /// // White's only legal move is e7-f8: all the playouts go through it.
    /// let p: Position = "Qe7,Gf4,Gf5,Gf7,Gg4,Gg5,Gg6/qd6,gd4,gd5,ge4,ge5,ge6,gh4 w".parse()?;
    /// let (m, stats) = MctsBot::new(40, 1).choose_with_stats(&Game::from_position(p)).unwrap();
    /// assert_eq!(stats.unwrap().visits, vec![(m, 40)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn choose_with_stats(&mut self, game: &Game) -> Option<(Move, Option<SearchStats>)> {
        self.search_with_stats(game)
            .map(|(m, stats)| (m, Some(stats)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_32_bytes_so_the_tree_bound_is_64_mib() {
        assert_eq!(std::mem::size_of::<Node>(), 32);
        assert_eq!(MctsBot::MAX_TREE_BYTES, 64 << 20);
    }

    /// The tree's memory is its capacity, not its length: a first capacity that is no
    /// power of two, doubled past the bound, would reserve up to twice
    /// [`MctsBot::MAX_TREE_BYTES`].
    #[test]
    fn the_first_capacity_doubles_up_to_the_bound_exactly() {
        for playouts in [1, 60, 100, 2000, 10_000, 16_384, 1 << 20, u32::MAX] {
            let first = first_capacity(playouts, MctsBot::MAX_TREE_NODES);
            assert!(first.is_power_of_two(), "{playouts}: {first}");
            assert!(first >= (playouts.min(1 << 14) as usize * 32).min(MctsBot::MAX_TREE_NODES));
            assert_eq!(MctsBot::MAX_TREE_NODES % first, 0, "{playouts}: {first}");
        }
        assert_eq!(first_capacity(100, 1000), 1000);
    }

    /// Regression: the tree grew by about 30 nodes a playout without bound (a budget of
    /// `u32::MAX` playouts under a long time limit would have taken terabytes). Once full
    /// it stops growing, and the search still plays a legal move.
    #[test]
    fn the_tree_stops_growing_at_its_bound() {
        let game = Game::new();
        let bot = MctsBot::new(60, 3);
        let (free, nodes) = bot.search_within(&game, MctsBot::MAX_TREE_NODES);
        assert!(nodes > 1000, "{nodes}");
        for max_nodes in [1, 27, 28, 100, 1000] {
            let (m, nodes) = bot.search_within(&game, max_nodes);
            assert!(nodes <= max_nodes.max(1), "{nodes} > {max_nodes}");
            assert!(game.is_legal(m.unwrap()));
        }
        // Under the bound, the bound changes nothing.
        assert_eq!(bot.search_within(&game, nodes).0, free);
    }

    fn position(text: &str) -> Position {
        text.parse().unwrap()
    }

    /// A game of `plies` random moves from the start (seeded).
    fn random_game(seed: u64, plies: usize) -> Game {
        let mut rng = Rng::new(seed);
        let mut game = Game::new();
        while game.moves().len() < plies && !game.is_over() {
            let m = random_move(game.position(), &mut rng).unwrap();
            game.play(m).unwrap();
        }
        game
    }

    #[test]
    fn the_visits_sum_to_the_budget_and_the_move_is_the_most_visited_and_chooses() {
        let mut games = vec![Game::new(), random_game(1, 40), random_game(2, 150)];
        // Black's queen captured: Black must return her (about 60 moves).
        games.push(Game::from_position(position(
            "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf10*,ga2,gb7,gd1*,gh1,gk7,gl2 b",
        )));
        for game in &games {
            assert!(!game.is_over());
            for (playouts, seed) in [(1, 0), (7, 1), (64, 2), (200, 3)] {
                let mut bot = MctsBot::new(playouts, seed);
                let (m, stats) = bot.choose_with_stats(game).unwrap();
                let stats = stats.unwrap();
                // The same move as without statistics, and the same statistics again.
                assert_eq!(bot.choose_in_game(game), Some(m));
                assert_eq!(
                    MctsBot::new(playouts, seed).choose_with_stats(game),
                    Some((m, Some(stats.clone())))
                );
                let total: u32 = stats.visits.iter().map(|&(_, n)| n).sum();
                assert_eq!(total, playouts);
                let legal = game.legal_moves();
                let order: Vec<usize> = stats
                    .visits
                    .iter()
                    .map(|&(v, n)| {
                        assert!(n >= 1);
                        legal.iter().position(|&l| l == v).expect("a legal move")
                    })
                    .collect();
                // In the order of legal_moves, so each move once.
                assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
                assert_eq!(
                    stats.visits.len(),
                    (playouts as usize).min(legal.len()),
                    "each playout visits a new root move until all are visited"
                );
                let most = stats.visits.iter().map(|&(_, n)| n).max().unwrap();
                assert!(stats.visits.contains(&(m, most)));
                assert!((-1.0..=1.0).contains(&stats.value), "{}", stats.value);
            }
        }
    }

    #[test]
    fn the_value_is_the_mean_result_for_the_side_to_move() {
        // One playout: the value is that playout's result, -1, 0 or 1.
        for seed in 0..8 {
            let game = random_game(seed, 30);
            let (_, stats) = MctsBot::new(1, seed).choose_with_stats(&game).unwrap();
            let value = stats.unwrap().value;
            assert!([-1.0, 0.0, 1.0].contains(&value), "{value}");
        }
        // White completes the throne ring with h6-g6 (R10): the search finds it, and
        // most of its playouts are won.
        let won = Game::from_position(position(
            "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w",
        ));
        let (m, stats) = MctsBot::new(400, 1).choose_with_stats(&won).unwrap();
        let stats = stats.unwrap();
        assert_eq!(m.to_string(), "h6-g6");
        assert!(stats.value > 0.5, "{}", stats.value);
        // The tree agrees: the root's children scored `(value + 1) / 2` of the playouts.
        let bot = MctsBot::new(400, 1);
        let tree = bot.grow(&won, &won.legal_moves(), MctsBot::MAX_TREE_NODES);
        let wins: f64 = root_children(&tree).iter().map(|n| n.wins).sum();
        assert_eq!(stats.value, (2.0 * wins - 400.0) / 400.0);
    }

    #[test]
    fn a_single_legal_move_is_searched_for_its_statistics() {
        let game = Game::from_position(position(
            "Qe7,Gf4,Gf5,Gf7,Gg4,Gg5,Gg6/qd6,gd4,gd5,ge4,ge5,ge6,gh4 w",
        ));
        let only = game.legal_moves();
        assert_eq!(only.len(), 1);
        let mut bot = MctsBot::new(25, 3);
        let (m, stats) = bot.choose_with_stats(&game).unwrap();
        assert_eq!(m, only[0]);
        assert_eq!(stats.unwrap().visits, vec![(m, 25)]);
        assert_eq!(bot.choose_in_game(&game), Some(m));
    }

    #[test]
    fn a_time_limit_counts_the_playouts_run() {
        let game = Game::new();
        let mut bot = MctsBot::new(u32::MAX, 1).with_time_limit(Duration::from_millis(20));
        let (m, stats) = bot.choose_with_stats(&game).unwrap();
        let stats = stats.unwrap();
        let total: u32 = stats.visits.iter().map(|&(_, n)| n).sum();
        assert!((1..u32::MAX).contains(&total), "{total}");
        assert!(stats.visits.iter().any(|&(v, _)| v == m));
    }

    #[test]
    fn no_statistics_once_the_game_is_over() {
        let mut game = Game::from_position(position(
            "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w",
        ));
        game.play("h6-g6".parse().unwrap()).unwrap();
        assert!(game.is_over());
        assert_eq!(MctsBot::new(10, 1).choose_with_stats(&game), None);
    }
}
