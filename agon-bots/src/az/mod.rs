//! [`AzBot`]: AlphaZero's search (PUCT) guided by a policy-value [`Network`].
//!
//! Each simulation walks down the tree by AlphaZero's rule, choosing the child that
//! maximises `Q + U`, where `U = C(N) · P · √N / (1 + n)` and
//! `C(N) = ln((1 + N + c_base) / c_base) + c_init`, to a leaf; a leaf where the game is over is scored by its outcome, any other
//! is evaluated by the network, which gives its children's priors (the softmax of the
//! logits of the legal moves) and its value. Leaves are gathered in batches, with a
//! virtual loss on their paths so that one batch spreads over several lines, and
//! evaluated at once. The tree plays in a [`Game`] that holds the real game's history, so
//! repetition (R11) ends lines as it ends games. A drawn end is worth 0, or with the spec's
//! contempt (`cPERMILLE`) less than that to the searching side and as much more to its
//! opponent.
//!
//! With the spec's `gK` the search is Gumbel AlphaZero's instead ([`gumbel`]'s module
//! documentation): Sequential Halving over the `K` best moves at the root, and the
//! improved policy as the policy target.

use std::sync::Arc;

use agon_core::random::Rng;
use agon_core::{Game, Move, MoveList, Position, Side};
use agon_rl::{Action, ACTION_COUNT};

use crate::{decision_rng, Bot, SearchStats, SpecError};
pub use network::{Network, NetworkError, Prediction, MAX_MODEL_BYTES};

mod gumbel;
mod network;

/// A node of the search tree: the move that led to it, its prior and its statistics.
struct Node {
    mv: Move,
    /// The side that chose `mv`, for which `value_sum` counts.
    mover: Side,
    prior: f32,
    visits: u32,
    /// Simulations through the node waiting for their leaf's evaluation (virtual loss).
    pending: u32,
    /// The sum of the simulations' results for `mover`, each from -1 to 1.
    value_sum: f32,
    /// The network's value of the node for its player to act, once evaluated (the Gumbel
    /// search's mixed value reads it).
    raw_value: f32,
    first_child: u32,
    children: u32,
    state: State,
}

#[derive(Copy, Clone, PartialEq, Debug)]
enum State {
    /// Not evaluated yet.
    Leaf,
    /// In the batch being gathered.
    Queued,
    /// Evaluated: its children are in the tree.
    Expanded,
    /// The game is over here: the result for the node's mover.
    Over(f32),
}

impl Node {
    fn new(mv: Move, mover: Side, prior: f32) -> Node {
        Node {
            mv,
            mover,
            prior,
            visits: 0,
            pending: 0,
            value_sum: 0.0,
            raw_value: 0.0,
            first_child: 0,
            children: 0,
            state: State::Leaf,
        }
    }
}

/// A simulation waiting for its leaf's evaluation: the path from the root and the leaf's
/// legal moves.
struct Waiting {
    path: Vec<u32>,
    moves: MoveList,
    position: Position,
}

/// The AlphaZero player: PUCT search with a policy-value [`Network`], within a budget of
/// simulations per move. Its spec is `az:MODEL:VISITS[:noise][:tPLIES][:bBATCH][:cPERMILLE][:gK]`
/// ([`crate::AzSpec`]), which [`bot_by_name`](crate::bot_by_name) and every layer that
/// takes a spec read.
///
/// Without noise and temperature (the spec's defaults) it plays the most visited move and
/// is deterministic: the same position and history give the same move whatever the seed.
/// With `noise` (Dirichlet noise on the root's priors) and `tPLIES` (the first plies drawn
/// in proportion to the visits), as in self-play, its choices are a function of its seed
/// and what it is shown. [`choose_with_stats`](Bot::choose_with_stats) gives the root's
/// visit counts (a policy target) and its mean value.
///
/// ```no_run
/// use agon_bots::{bot_by_name, Bot};
/// use agon_core::Game;
/// let mut bot = bot_by_name("az:model.safetensors:200", 1)?;
/// let game = Game::new();
/// let (m, stats) = bot.choose_with_stats(&game).unwrap();
/// assert_eq!(stats.unwrap().visits.iter().map(|&(_, n)| n).sum::<u32>(), 200);
/// # Ok::<(), agon_bots::SpecError>(())
/// ```
#[derive(Clone, Debug)]
pub struct AzBot {
    network: Arc<Network>,
    spec: crate::AzSpec,
    seed: u64,
}

impl AzBot {
    /// AlphaZero's `c_init`, the exploration constant at small visit counts.
    pub const C_INIT: f32 = 1.25;
    /// AlphaZero's `c_base`, past which exploration grows with the visits.
    pub const C_BASE: f32 = 19652.0;
    /// The Dirichlet noise's concentration α: AlphaZero's 0.3 for chess, whose positions
    /// have about as many legal moves as Agon's (27 at the start).
    pub const DIRICHLET_ALPHA: f64 = 0.3;
    /// The share of the noise in the root's priors, ε.
    pub const NOISE_FRACTION: f32 = 0.25;
    /// The most nodes a search tree holds, 2<sup>21</sup> (some 80 MiB): a search whose
    /// next batch could pass it ends there, with fewer visits than its budget (past some
    /// 50 000 visits), so memory stays bounded whatever the spec asks.
    ///
    /// ```
    /// assert_eq!(agon_bots::AzBot::MAX_TREE_NODES, 1 << 21);
    /// ```
    pub const MAX_TREE_NODES: usize = 1 << 21;

    /// A bot playing `network` as `spec` says (its model part is only its name here).
    ///
    /// ```no_run
    /// use std::sync::Arc;
    /// use agon_bots::{AzBot, AzSpec, Network};
    /// let network = Arc::new(Network::load("model.safetensors")?);
    /// let bot = AzBot::new(network, AzSpec::new("model.safetensors", 100), 7);
    /// # Ok::<(), agon_bots::NetworkError>(())
    /// ```
    pub fn new(network: Arc<Network>, mut spec: crate::AzSpec, seed: u64) -> AzBot {
        // A spec's fields are public: a batch or a budget of 0 (which its text refuses)
        // would gather nothing and search forever, so each is taken as at least 1.
        spec.batch = spec.batch.clamp(1, crate::AzSpec::MAX_BATCH);
        spec.visits = spec.visits.clamp(1, crate::AzSpec::MAX_VISITS);
        AzBot {
            network,
            spec,
            seed,
        }
    }

    /// Reads the network of `spec` and makes its bot.
    pub(crate) fn from_spec(spec: &crate::AzSpec, seed: u64) -> Result<AzBot, SpecError> {
        let network = match AzBot::shipped(&spec.model) {
            Some(network) => network,
            None => Network::load(&spec.model).map(Arc::new),
        };
        let network = network.map_err(|e| SpecError::Model {
            spec: spec.to_string(),
            error: e.to_string(),
        })?;
        Ok(AzBot::new(network, spec.clone(), seed))
    }

    /// The networks shipped in the crate, by name: `az:NAME:VISITS` plays one (a name is
    /// looked up before a path). See `models/README.md` for how each was trained and how
    /// it plays.
    ///
    /// ```
    /// use agon_bots::{bot_by_name, AzBot};
    /// let (name, _) = AzBot::SHIPPED[0];
    /// let mut bot = bot_by_name(&format!("az:{name}:16"), 1)?;
    /// let game = agon_core::Game::new();
    /// assert!(game.is_legal(bot.choose_in_game(&game).unwrap()));
    /// # Ok::<(), agon_bots::SpecError>(())
    /// ```
    pub const SHIPPED: &'static [(&'static str, &'static [u8])] = &[
        // An apprentice of `alphabeta:5`: supervised on its games.
        (
            "agon-az-2x32",
            include_bytes!("../../models/agon-az-2x32.safetensors"),
        ),
        // Its successor by Gumbel self-play (generation 11 of `models/gumbel-run-s100`),
        // played with the search it learned from: `az:agon-az-2x32-gumbel:800:c700:g16:s100`.
        (
            "agon-az-2x32-gumbel",
            include_bytes!("../../models/agon-az-2x32-gumbel.safetensors"),
        ),
    ];

    /// The shipped network `name`, read once per process.
    fn shipped(name: &str) -> Option<Result<Arc<Network>, NetworkError>> {
        static READ: std::sync::OnceLock<Vec<Result<Arc<Network>, NetworkError>>> =
            std::sync::OnceLock::new();
        let i = AzBot::SHIPPED.iter().position(|&(n, _)| n == name)?;
        let read = READ.get_or_init(|| {
            AzBot::SHIPPED
                .iter()
                .map(|&(_, bytes)| Network::from_bytes(bytes).map(Arc::new))
                .collect()
        });
        read.get(i).cloned()
    }

    /// Evaluates `positions` (whose legal moves are `moves`): for each, the priors of its
    /// moves and its value for its player to act. A failed evaluation (which reading the
    /// network rules out) gives uniform priors and a value of 0, so the search goes on.
    fn evaluate(&self, positions: &[Position], moves: &[&MoveList]) -> Vec<(Vec<f32>, f32)> {
        let predictions = self.network.evaluate(positions).unwrap_or_default();
        positions
            .iter()
            .zip(moves)
            .enumerate()
            .map(|(i, (p, moves))| match predictions.get(i) {
                Some(pred) => (priors(p, moves, &pred.logits), finite_or_zero(pred.value)),
                None => (vec![1.0 / moves.len().max(1) as f32; moves.len()], 0.0),
            })
            .collect()
    }

    /// Runs the search from the current position of `game` (not over, with legal moves
    /// `root_moves`) and returns the tree; the root is node 0, its children the root's
    /// moves in order.
    fn search(
        &self,
        game: &Game,
        root_moves: &MoveList,
        rng: &mut Rng,
        max_nodes: usize,
    ) -> Vec<Node> {
        let position = *game.position();
        let chooser = position.chooser();
        let mut tree = vec![Node::new(root_moves[0], chooser.other(), 1.0)];
        // A draw's value for the side that moved into it: the searching side's contempt.
        let contempt = self.spec.contempt.min(crate::AzSpec::MAX_CONTEMPT) as f32 / 1000.0;
        let draw = |mover: Side| {
            if mover == chooser {
                -contempt
            } else {
                contempt
            }
        };
        let (mut priors, _) = self.evaluate(&[position], &[root_moves]).remove(0);
        if self.spec.noise {
            let noise = dirichlet(rng, Self::DIRICHLET_ALPHA, priors.len());
            for (p, n) in priors.iter_mut().zip(noise) {
                *p = (1.0 - Self::NOISE_FRACTION) * *p + Self::NOISE_FRACTION * n;
            }
        }
        expand(&mut tree, 0, root_moves, &priors, chooser);
        let mut scratch = game.clone();
        let mut started = 0;
        let mut waiting: Vec<Waiting> = Vec::new();
        let mut full = false;
        while started < self.spec.visits && !full {
            // Gather a batch of leaves.
            while started < self.spec.visits && waiting.len() < self.spec.batch as usize {
                // Room for the children of every leaf of the batch, or the search ends.
                full = tree.len() + (waiting.len() + 1) * agon_core::MAX_LEGAL_MOVES > max_nodes;
                if full {
                    break;
                }
                let path = descend(&tree, &mut scratch);
                let leaf = *path.last().unwrap_or(&0) as usize;
                let over = match tree[leaf].state {
                    State::Over(v) => Some(v),
                    State::Leaf => scratch.outcome().map(|o| match o.winner {
                        Some(w) if w == tree[leaf].mover => 1.0,
                        Some(_) => -1.0,
                        None => draw(tree[leaf].mover),
                    }),
                    _ => None,
                };
                let queued = tree[leaf].state == State::Queued;
                if let Some(v) = over {
                    tree[leaf].state = State::Over(v);
                    let mover = tree[leaf].mover;
                    backup(&mut tree, &path, mover, v, false);
                    started += 1;
                } else if !queued {
                    tree[leaf].state = State::Queued;
                    for &i in &path {
                        tree[i as usize].pending += 1;
                    }
                    waiting.push(Waiting {
                        moves: scratch.legal_moves(),
                        position: *scratch.position(),
                        path,
                    });
                    started += 1;
                }
                while scratch.moves().len() > game.moves().len() {
                    scratch.undo();
                }
                if queued {
                    // A collision: the batch already holds this leaf, and the next
                    // simulation would most likely find it again. Evaluate first.
                    break;
                }
            }
            // Evaluate the batch and back its values up.
            let positions: Vec<Position> = waiting.iter().map(|w| w.position).collect();
            let moves: Vec<&MoveList> = waiting.iter().map(|w| &w.moves).collect();
            let evaluated = self.evaluate(&positions, &moves);
            for (w, (priors, value)) in waiting.drain(..).zip(evaluated) {
                let leaf = *w.path.last().unwrap_or(&0) as usize;
                let to_act = w.position.chooser();
                expand(&mut tree, leaf, &w.moves, &priors, to_act);
                backup(&mut tree, &w.path, to_act, value, true);
            }
        }
        tree
    }

    /// The move to play from a searched tree: drawn in proportion to the visits during
    /// the first plies of a game under temperature, else the most visited (then the
    /// higher prior, then the first legal).
    fn pick(&self, tree: &[Node], ply: usize, rng: &mut Rng) -> Move {
        let children = children(tree, 0);
        if ply < self.spec.temperature_plies as usize {
            let total: u64 = children.iter().map(|c| u64::from(c.visits)).sum();
            if total > 0 {
                let mut r = (rng.unit() * total as f64) as u64;
                for c in children {
                    if r < u64::from(c.visits) {
                        return c.mv;
                    }
                    r -= u64::from(c.visits);
                }
            }
        }
        let mut best = &children[0];
        for c in &children[1..] {
            if (c.visits, c.prior) > (best.visits, best.prior) {
                best = c;
            }
        }
        best.mv
    }

    fn play(&self, game: &Game) -> Option<(Move, SearchStats)> {
        if game.is_over() {
            return None;
        }
        let root_moves = game.legal_moves();
        if root_moves.is_empty() {
            return None;
        }
        let mut rng = decision_rng(self.seed, game.position(), game.moves().len());
        if self.spec.considered > 0 {
            return Some(self.play_gumbel(game, &root_moves, &mut rng));
        }
        let tree = self.search(game, &root_moves, &mut rng, Self::MAX_TREE_NODES);
        let m = self.pick(&tree, game.moves().len(), &mut rng);
        let children = children(&tree, 0);
        let visits = children
            .iter()
            .filter(|c| c.visits > 0)
            .map(|c| (c.mv, c.visits))
            .collect();
        let (n, sum) = children.iter().fold((0u32, 0.0f64), |(n, s), c| {
            (n + c.visits, s + f64::from(c.value_sum))
        });
        let value = if n > 0 { sum / f64::from(n) } else { 0.0 };
        Some((
            m,
            SearchStats {
                visits,
                value: value.clamp(-1.0, 1.0),
            },
        ))
    }
}

impl AzBot {
    /// The Gumbel search's move and statistics: the move of the search (or, under
    /// temperature, one drawn from the improved policy), and as `visits` the improved
    /// policy in millionths (moves that round to 0 left out), the policy target.
    fn play_gumbel(
        &self,
        game: &Game,
        root_moves: &MoveList,
        rng: &mut Rng,
    ) -> (Move, SearchStats) {
        let considered = self.spec.considered as usize;
        let searched = self.gumbel_search(game, root_moves, rng, considered, Self::MAX_TREE_NODES);
        let children = children(&searched.tree, 0);
        let mut m = children[searched.choice].mv;
        if game.moves().len() < self.spec.temperature_plies as usize {
            let mut r = rng.unit();
            for (c, p) in children.iter().zip(&searched.policy) {
                m = c.mv;
                if r < *p {
                    break;
                }
                r -= p;
            }
        }
        let visits = children
            .iter()
            .zip(&searched.policy)
            .map(|(c, p)| (c.mv, (p * 1e6).round() as u32))
            .filter(|&(_, n)| n > 0)
            .collect();
        let (n, sum) = children.iter().fold((0u32, 0.0f64), |(n, s), c| {
            (n + c.visits, s + f64::from(c.value_sum))
        });
        let value = if n > 0 { sum / f64::from(n) } else { 0.0 };
        let stats = SearchStats {
            visits,
            value: value.clamp(-1.0, 1.0),
        };
        (m, stats)
    }
}

impl Bot for AzBot {
    fn name(&self) -> String {
        self.spec.to_string()
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        self.choose_in_game(&Game::from_position(*position))
    }

    fn choose_in_game(&mut self, game: &Game) -> Option<Move> {
        let moves = game.legal_moves();
        if moves.len() == 1 && !game.is_over() && self.spec.temperature_plies == 0 {
            return Some(moves[0]);
        }
        self.play(game).map(|(m, _)| m)
    }

    fn choose_with_stats(&mut self, game: &Game) -> Option<(Move, Option<SearchStats>)> {
        self.play(game).map(|(m, s)| (m, Some(s)))
    }
}

fn finite_or_zero(v: f32) -> f32 {
    if v.is_finite() {
        v.clamp(-1.0, 1.0)
    } else {
        0.0
    }
}

/// The priors of `moves` in `position`: the softmax of their logits. A move with no
/// action in the network's space (the pass, a guard's return to an inner cell: rule sets
/// the standard network was not trained on) gets the mean logit of the others; logits
/// that are not finite give uniform priors.
fn priors(position: &Position, moves: &MoveList, logits: &[f32]) -> Vec<f32> {
    let known: Vec<Option<f32>> = moves
        .iter()
        .map(|&m| {
            Action::from_move_in(m, position)
                .map(Action::index)
                .filter(|&a| a < ACTION_COUNT)
                .and_then(|a| logits.get(a).copied())
                .filter(|l| l.is_finite())
        })
        .collect();
    let count = known.iter().flatten().count();
    let mean = if count > 0 {
        known.iter().flatten().sum::<f32>() / count as f32
    } else {
        0.0
    };
    let logits: Vec<f32> = known.iter().map(|l| l.unwrap_or(mean)).collect();
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exp: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
    let sum: f32 = exp.iter().sum();
    if sum.is_finite() && sum > 0.0 {
        exp.iter().map(|e| e / sum).collect()
    } else {
        vec![1.0 / moves.len().max(1) as f32; moves.len()]
    }
}

/// The children of `node`.
fn children(tree: &[Node], node: usize) -> &[Node] {
    let n = &tree[node];
    &tree[n.first_child as usize..(n.first_child + n.children) as usize]
}

/// Adds the children of `node`, one per move with its prior, chosen by `mover`.
fn expand(tree: &mut Vec<Node>, node: usize, moves: &MoveList, priors: &[f32], mover: Side) {
    let first = tree.len() as u32;
    for (&m, &p) in moves.iter().zip(priors) {
        tree.push(Node::new(m, mover, p));
    }
    tree[node].first_child = first;
    tree[node].children = moves.len() as u32;
    tree[node].state = State::Expanded;
}

/// Walks from the root to a node that is not expanded, playing the moves in `scratch`;
/// returns the path (the root first).
fn descend(tree: &[Node], scratch: &mut Game) -> Vec<u32> {
    let mut path = vec![0u32];
    let mut node = 0usize;
    while tree[node].state == State::Expanded && tree[node].children > 0 {
        node = select(tree, node);
        scratch.push_unchecked(tree[node].mv);
        path.push(node as u32);
    }
    path
}

/// The child of `node` with the best `Q + U`, counting pending simulations as losses
/// (virtual loss); an unvisited child's `Q` is 0, a draw's value.
fn select(tree: &[Node], node: usize) -> usize {
    let parent = &tree[node];
    let n_parent = (parent.visits + parent.pending) as f32;
    let c = ((1.0 + n_parent + AzBot::C_BASE) / AzBot::C_BASE).ln() + AzBot::C_INIT;
    let scale = c * n_parent.max(1.0).sqrt();
    let first = parent.first_child as usize;
    let mut best = first;
    let mut best_score = f32::NEG_INFINITY;
    for (i, child) in children(tree, node).iter().enumerate() {
        let n = (child.visits + child.pending) as f32;
        let q = if n > 0.0 {
            (child.value_sum - child.pending as f32) / n
        } else {
            0.0
        };
        let score = q + scale * child.prior / (1.0 + n);
        if score > best_score {
            best_score = score;
            best = first + i;
        }
    }
    best
}

/// Credits each node of `path` with `value`, the result for `side` (the negated value for
/// the other side's moves); `pending` if the path carried a virtual loss to take back.
fn backup(tree: &mut [Node], path: &[u32], side: Side, value: f32, pending: bool) {
    for &i in path {
        let n = &mut tree[i as usize];
        n.visits += 1;
        if pending {
            n.pending = n.pending.saturating_sub(1);
        }
        n.value_sum += if n.mover == side { value } else { -value };
    }
}

/// A draw of the symmetric Dirichlet distribution of concentration `alpha` over `n`
/// entries: normalised Gamma(α, 1) draws.
fn dirichlet(rng: &mut Rng, alpha: f64, n: usize) -> Vec<f32> {
    let draws: Vec<f64> = (0..n).map(|_| gamma(rng, alpha)).collect();
    let sum: f64 = draws.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        draws.iter().map(|d| (d / sum) as f32).collect()
    } else {
        vec![1.0 / n.max(1) as f32; n]
    }
}

/// A Gamma(α, 1) draw by Marsaglia and Tsang's method; for α < 1, a Gamma(α + 1) draw
/// times U^(1/α).
fn gamma(rng: &mut Rng, alpha: f64) -> f64 {
    if alpha < 1.0 {
        let u = rng.unit().max(f64::MIN_POSITIVE);
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = (1.0 + c * x).powi(3);
        if v <= 0.0 {
            continue;
        }
        let u = rng.unit();
        if u.max(f64::MIN_POSITIVE).ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// A standard normal draw (Box-Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u1 = rng.unit().max(f64::MIN_POSITIVE);
    let u2 = rng.unit();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_search_ends_when_its_tree_is_full() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/az-fixture.safetensors"
        );
        let bot = AzBot::from_spec(&crate::AzSpec::new(path, 100_000), 0).unwrap();
        let game = Game::new();
        let moves = game.legal_moves();
        let tree = bot.search(&game, &moves, &mut Rng::new(1), 5_000);
        assert!(tree.len() <= 5_000);
        let visits: u32 = children(&tree, 0).iter().map(|c| c.visits).sum();
        assert!((50..100_000).contains(&visits), "{visits}");
    }
}
