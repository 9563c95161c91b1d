//! Gumbel AlphaZero's search (Danihelka, Schrittwieser, Guez and Silver, "Policy
//! improvement by planning with Gumbel", ICLR 2022), as DeepMind's mctx implements
//! `gumbel_muzero_policy`: the spec's `gK`.
//!
//! - **At the root**, Gumbel noise `g(a)` (with the spec's `noise`; 0 without, for play)
//!   is added to the logits; the `m = min(K, legal)` moves of the largest `g + logits` are
//!   considered, and the budget is spent on them by Sequential Halving
//!   ([`considered_visits`]): each phase gives the survivors equal visits, then keeps the
//!   better half by `g + logits + σ(q̂)`. The move played is the survivor of the largest
//!   `g + logits + σ(q̂)`: a sample of the improved policy that improves on the network's
//!   policy in expectation however few the simulations.
//! - **The policy target** is the improved policy `π' = softmax(logits + σ(completed Q))`
//!   over every legal move ([`improved_policy`]), the unvisited moves' Q completed by the
//!   mixed value approximation (mctx's `qtransform_completed_by_mix_value`).
//! - **Below the root**, the paper's deterministic selection: the child maximising
//!   `π'(a) − N(a) / (1 + Σ_b N(b))`, which makes the visits follow `π'`.
//!
//! `σ(q̂) = (c_visit + max_b N(b)) · c_scale · q̂`, with the paper's `c_visit` = 50,
//! `c_scale` the spec's `sPERMILLE` (the paper's 1 by default; mctx's default is 0.1), and
//! `q̂` the completed Q normalised to [0, 1] by the least and largest among the node's
//! moves, as mctx does. The simulations run one at a time: a virtual loss
//! would break the deterministic selection, and at the few simulations the method is made
//! for a batch would hardly fill.

use agon_core::random::Rng;
use agon_core::{Game, MoveList};

use super::{backup, children, expand, AzBot, Node, State};

/// The paper's `c_visit`: σ's scale before any visit.
pub const C_VISIT: f64 = 50.0;
/// The least logit kept before the penalty of the moves not considered (mctx's).
const LOW_LOGIT: f64 = -1e9;

/// The visit count that simulation `i` gives a move at the root, for `i` in
/// `0..simulations`, when `considered` moves are considered: Sequential Halving (mctx's
/// `get_sequence_of_considered_visits`). Each phase of `log2(considered)` gives every
/// surviving move `max(1, simulations / (log2(considered) · survivors))` more visits, the
/// simulation going to the best survivor whose count is the entry; then the survivors are
/// halved (never below 2). With one move considered it is `0, 1, 2, ...`.
///
/// ```ignore
/// // 4 moves, 8 simulations: each move once, then the best 2 twice more.
/// assert_eq!(considered_visits(4, 8), [0, 0, 0, 0, 1, 1, 2, 2]);
/// ```
pub(crate) fn considered_visits(considered: usize, simulations: u32) -> Vec<u32> {
    let simulations = simulations as usize;
    if considered <= 1 {
        return (0..simulations as u32).collect();
    }
    let log2max = (considered as f64).log2().ceil() as usize;
    let mut sequence = Vec::with_capacity(simulations);
    let mut visits = vec![0u32; considered];
    let mut survivors = considered;
    while sequence.len() < simulations {
        let extra = (simulations / (log2max * survivors)).max(1);
        for _ in 0..extra {
            sequence.extend_from_slice(&visits[..survivors]);
            for v in &mut visits[..survivors] {
                *v += 1;
            }
        }
        survivors = (survivors / 2).max(2);
    }
    sequence.truncate(simulations);
    sequence
}

/// `σ(q̂)` of each move of a node: its Q (for the node's player, from -1 to 1) where it
/// was visited, else the mixed value of the node (`raw_value`, the network's value of the
/// node, mixed with the priors' weighted mean of the visited moves' Q:
/// `(v + Σ N · Σ_visited p·Q / Σ_visited p) / (1 + Σ N)`), normalised to [0, 1] by the
/// least and largest of them, times `(c_visit + max N) · c_scale`.
pub(crate) fn sigma_completed_q(
    priors: &[f64],
    visits: &[u32],
    q: &[f64],
    raw_value: f64,
    c_scale: f64,
) -> Vec<f64> {
    let total: f64 = visits.iter().map(|&n| f64::from(n)).sum();
    let visited = || (0..visits.len()).filter(|&i| visits[i] > 0);
    let prior = |i: usize| priors[i].max(f64::MIN_POSITIVE);
    let visited_prior: f64 = visited().map(prior).sum();
    let weighted_q = if visited_prior > 0.0 {
        visited().map(|i| prior(i) * q[i]).sum::<f64>() / visited_prior
    } else {
        0.0
    };
    let mixed = (raw_value + total * weighted_q) / (total + 1.0);
    let completed: Vec<f64> = (0..visits.len())
        .map(|i| if visits[i] > 0 { q[i] } else { mixed })
        .collect();
    let min = completed.iter().copied().fold(f64::INFINITY, f64::min);
    let max = completed.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let most = visits.iter().copied().max().unwrap_or(0);
    let scale = (C_VISIT + f64::from(most)) * c_scale;
    completed
        .iter()
        .map(|c| (c - min) / (max - min).max(1e-8) * scale)
        .collect()
}

/// The improved policy `softmax(logits + σ(completed Q))` of a node's moves (logits:
/// the logarithms of the priors, which give the same softmax as the network's logits).
pub(crate) fn improved_policy(
    priors: &[f64],
    visits: &[u32],
    q: &[f64],
    raw_value: f64,
    c_scale: f64,
) -> Vec<f64> {
    let sigma = sigma_completed_q(priors, visits, q, raw_value, c_scale);
    let scores: Vec<f64> = priors
        .iter()
        .zip(&sigma)
        .map(|(p, s)| logit(*p) + s)
        .collect();
    softmax(&scores)
}

fn logit(prior: f64) -> f64 {
    prior.max(f64::MIN_POSITIVE).ln()
}

fn softmax(scores: &[f64]) -> Vec<f64> {
    let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let exp: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
    let sum: f64 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
}

/// `n` draws of the standard Gumbel distribution, `-ln(-ln U)`.
pub(crate) fn gumbel_noise(rng: &mut Rng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let u = rng.unit().clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
            -(-u.ln()).ln()
        })
        .collect()
}

/// The statistics of a node's children that the formulas read: priors, visits, Q for the
/// node's player (0 where unvisited).
fn child_stats(tree: &[Node], node: usize) -> (Vec<f64>, Vec<u32>, Vec<f64>) {
    let kids = children(tree, node);
    let priors = kids.iter().map(|c| f64::from(c.prior)).collect();
    let visits = kids.iter().map(|c| c.visits).collect();
    let q = kids
        .iter()
        .map(|c| {
            if c.visits > 0 {
                f64::from(c.value_sum) / f64::from(c.visits)
            } else {
                0.0
            }
        })
        .collect();
    (priors, visits, q)
}

/// The root's move for a simulation (its child's index among the root's children): among
/// the moves whose visit count is `considered_visit`, the largest
/// `g + logits + σ(q̂)` (mctx's `score_considered`). If none has that count (which
/// Sequential Halving rules out), the largest among all.
fn root_choice(tree: &[Node], gumbel: &[f64], considered_visit: u32, c_scale: f64) -> usize {
    let (priors, visits, q) = child_stats(tree, 0);
    let sigma = sigma_completed_q(&priors, &visits, &q, f64::from(tree[0].raw_value), c_scale);
    let score = |i: usize| (gumbel[i] + logit(priors[i]) + sigma[i]).max(LOW_LOGIT);
    let best = |only: bool| {
        let mut best: Option<(usize, f64)> = None;
        for (i, &n) in visits.iter().enumerate() {
            if only && n != considered_visit {
                continue;
            }
            if best.is_none_or(|(_, s)| score(i) > s) {
                best = Some((i, score(i)));
            }
        }
        best.map(|(i, _)| i)
    };
    best(true).or_else(|| best(false)).unwrap_or(0)
}

/// The child of `node` below the root: the largest `π'(a) − N(a) / (1 + Σ N)`.
fn interior_choice(tree: &[Node], node: usize, c_scale: f64) -> usize {
    let (priors, visits, q) = child_stats(tree, node);
    let policy = improved_policy(
        &priors,
        &visits,
        &q,
        f64::from(tree[node].raw_value),
        c_scale,
    );
    let total: f64 = visits.iter().map(|&n| f64::from(n)).sum();
    let mut best = 0;
    let mut best_score = f64::NEG_INFINITY;
    for (i, p) in policy.iter().enumerate() {
        let score = p - f64::from(visits[i]) / (1.0 + total);
        if score > best_score {
            best_score = score;
            best = i;
        }
    }
    tree[node].first_child as usize + best
}

/// A Gumbel search's result: the tree (the root's children the legal moves in order), the
/// index of the move to play among them and the improved policy over them.
pub(super) struct Searched {
    pub(super) tree: Vec<Node>,
    pub(super) choice: usize,
    pub(super) policy: Vec<f64>,
}

impl AzBot {
    /// The Gumbel search from the current position of `game` (not over, with legal moves
    /// `root_moves`), considering `considered` moves at the root, within the spec's
    /// visits and `max_nodes` nodes.
    pub(super) fn gumbel_search(
        &self,
        game: &Game,
        root_moves: &MoveList,
        rng: &mut Rng,
        considered: usize,
        max_nodes: usize,
    ) -> Searched {
        let position = *game.position();
        let chooser = position.chooser();
        let contempt = self.spec.contempt.min(crate::AzSpec::MAX_CONTEMPT) as f32 / 1000.0;
        let c_scale = f64::from(self.spec.value_scale) / 1000.0;
        let draw = |mover| {
            if mover == chooser {
                -contempt
            } else {
                contempt
            }
        };
        let mut tree = vec![Node::new(root_moves[0], chooser.other(), 1.0)];
        let (priors, value) = self.evaluate(&[position], &[root_moves]).remove(0);
        tree[0].raw_value = value;
        expand(&mut tree, 0, root_moves, &priors, chooser);
        let gumbel = if self.spec.noise {
            gumbel_noise(rng, root_moves.len())
        } else {
            vec![0.0; root_moves.len()]
        };
        let table = considered_visits(considered.clamp(1, root_moves.len()), self.spec.visits);
        let mut scratch = game.clone();
        for &considered_visit in &table {
            if tree.len() + agon_core::MAX_LEGAL_MOVES > max_nodes {
                break;
            }
            let first = root_choice(&tree, &gumbel, considered_visit, c_scale)
                + tree[0].first_child as usize;
            let mut path = vec![0u32, first as u32];
            scratch.push_unchecked(tree[first].mv);
            let mut node = first;
            while tree[node].state == State::Expanded && tree[node].children > 0 {
                node = interior_choice(&tree, node, c_scale);
                scratch.push_unchecked(tree[node].mv);
                path.push(node as u32);
            }
            let over = match tree[node].state {
                State::Over(v) => Some(v),
                _ => scratch.outcome().map(|o| match o.winner {
                    Some(w) if w == tree[node].mover => 1.0,
                    Some(_) => -1.0,
                    None => draw(tree[node].mover),
                }),
            };
            if let Some(v) = over {
                tree[node].state = State::Over(v);
                let mover = tree[node].mover;
                backup(&mut tree, &path, mover, v, false);
            } else {
                let moves = scratch.legal_moves();
                let leaf = *scratch.position();
                let (priors, value) = self.evaluate(&[leaf], &[&moves]).remove(0);
                tree[node].raw_value = value;
                expand(&mut tree, node, &moves, &priors, leaf.chooser());
                backup(&mut tree, &path, leaf.chooser(), value, false);
            }
            while scratch.moves().len() > game.moves().len() {
                scratch.undo();
            }
        }
        let most = children(&tree, 0)
            .iter()
            .map(|c| c.visits)
            .max()
            .unwrap_or(0);
        let choice = root_choice(&tree, &gumbel, most, c_scale);
        let (priors, visits, q) = child_stats(&tree, 0);
        let policy = improved_policy(&priors, &visits, &q, f64::from(tree[0].raw_value), c_scale);
        Searched {
            tree,
            choice,
            policy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequential_halving_spends_the_budget_as_computed_by_hand() {
        // 16 moves, 32 simulations, log2(16) = 4 phases at most: 32 / (4 · 16) < 1 gives
        // each of the 16 one visit; 32 / (4 · 8) = 1 more to the best 8; 32 / (4 · 4) = 2
        // more to the best 4, which ends the budget.
        let mut expected = vec![0; 16];
        expected.extend([1; 8]);
        expected.extend([2, 2, 2, 2, 3, 3, 3, 3]);
        assert_eq!(considered_visits(16, 32), expected);
        // The visits each move ends with: 4 moves 4 times, 4 twice, 8 once; 32 in all.
        let mut counts = [0u32; 16];
        for &v in &considered_visits(16, 32) {
            // The simulation goes to a move whose count is v: here the first such.
            let i = counts.iter().position(|&c| c == v).unwrap();
            counts[i] += 1;
        }
        assert_eq!(counts, [4, 4, 4, 4, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(considered_visits(4, 8), [0, 0, 0, 0, 1, 1, 2, 2]);
        // Survivors never fall below 2; one move takes every visit.
        assert_eq!(considered_visits(2, 5), [0, 0, 1, 1, 2]);
        assert_eq!(considered_visits(1, 4), [0, 1, 2, 3]);
        // A budget below the considered moves visits the first ones once.
        assert_eq!(considered_visits(16, 3), [0, 0, 0]);
        for (m, n) in [(16, 32), (16, 800), (5, 17), (3, 1), (27, 100)] {
            assert_eq!(considered_visits(m, n).len(), n as usize, "{m} {n}");
        }
    }

    /// The paper's `c_scale`, a spec's default (`sPERMILLE`).
    const C_SCALE: f64 = crate::AzSpec::DEFAULT_VALUE_SCALE as f64 / 1000.0;

    #[test]
    fn the_improved_policy_is_the_hand_computed_one() {
        // Three moves with priors 1/2, 1/4, 1/4; the first visited twice with Q = 0.5, the
        // second once with Q = -0.5, the third not; the network's value 0.2.
        let priors = [0.5, 0.25, 0.25];
        let visits = [2, 1, 0];
        let q = [0.5, -0.5, 0.0];
        // Mixed value: the visited priors weigh Q as (0.5·0.5 + 0.25·(−0.5)) / 0.75 =
        // 1/6; (0.2 + 3 · 1/6) / 4 = 0.175, the third move's completed Q.
        // Completed Q = [0.5, −0.5, 0.175], normalised by its range 1: [1, 0, 0.675];
        // σ's scale (50 + 2) · 1 = 52: σ = [52, 0, 35.1].
        let sigma = sigma_completed_q(&priors, &visits, &q, 0.2, C_SCALE);
        for (s, e) in sigma.iter().zip([52.0, 0.0, 35.1]) {
            assert!((s - e).abs() < 1e-9, "{sigma:?}");
        }
        // π' ∝ p · e^σ: [0.5·e^52, 0.25, 0.25·e^35.1].
        let policy = improved_policy(&priors, &visits, &q, 0.2, C_SCALE);
        let w = [0.5 * 52f64.exp(), 0.25, 0.25 * 35.1f64.exp()];
        let sum: f64 = w.iter().sum();
        for (p, e) in policy.iter().zip(w.iter().map(|x| x / sum)) {
            assert!((p - e).abs() < 1e-12, "{policy:?}");
        }
        // About 1 − 2.29e−8, 1.31e−23 and 2.29e−8.
        assert!((policy[2] - 2.2877e-8).abs() < 1e-12, "{policy:?}");
        assert!((policy[1] - 1.3051e-23).abs() < 1e-27, "{policy:?}");
        // Nothing visited: every Q is the network's value, σ = 0 and π' the priors.
        let policy = improved_policy(&priors, &[0, 0, 0], &[0.0; 3], -0.3, C_SCALE);
        for (p, e) in policy.iter().zip(priors) {
            assert!((p - e).abs() < 1e-12, "{policy:?}");
        }
        // mctx's c_scale of 0.1 (`s100`): σ = 5.2 · [1, 0, 0.675], π' ∝ p · e^σ, about
        // [0.913, 0.0025, 0.084]: the best Q leads, the others keep a share.
        let policy = improved_policy(&priors, &visits, &q, 0.2, 0.1);
        let w = [0.5 * 5.2f64.exp(), 0.25, 0.25 * 3.51f64.exp()];
        let sum: f64 = w.iter().sum();
        for (p, e) in policy.iter().zip(w.iter().map(|x| x / sum)) {
            assert!((p - e).abs() < 1e-12, "{policy:?}");
        }
        assert!(
            (policy[0] - 0.9130).abs() < 1e-3 && (policy[2] - 0.0843).abs() < 1e-3,
            "{policy:?}"
        );
    }

    fn fixture_bot(options: &str, seed: u64) -> AzBot {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/az-fixture.safetensors"
        );
        let spec = crate::AzSpec::parse(&format!("az:{path}:{options}")).unwrap();
        AzBot::from_spec(&spec, seed).unwrap()
    }

    fn opened() -> Game {
        let mut game = Game::new();
        for m in ["a5-a4", "l2-k2"] {
            game.play(m.parse().unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn one_considered_move_is_the_top_of_gumbel_plus_logits_whatever_the_budget() {
        let game = opened();
        let moves = game.legal_moves();
        let ply = game.moves().len();
        for (seed, visits) in [(1, 1), (2, 7), (3, 40), (4, 3)] {
            let bot = fixture_bot(&format!("{visits}:noise:g1"), seed);
            let g = gumbel_noise(
                &mut crate::decision_rng(seed, game.position(), ply),
                moves.len(),
            );
            let (priors, _) = bot.evaluate(&[*game.position()], &[&moves]).remove(0);
            let score = |i: usize| g[i] + logit(f64::from(priors[i]));
            let top = (0..moves.len()).fold(0, |b, i| if score(i) > score(b) { i } else { b });
            let (m, _) = bot.play(&game).unwrap();
            assert_eq!(m, moves[top], "seed {seed}, {visits} visits");
            // Every simulation went to that move.
            let mut rng = crate::decision_rng(seed, game.position(), ply);
            let searched = bot.gumbel_search(&game, &moves, &mut rng, 1, AzBot::MAX_TREE_NODES);
            let visits_of: Vec<u32> = children(&searched.tree, 0)
                .iter()
                .map(|c| c.visits)
                .collect();
            assert_eq!(visits_of[top], visits, "seed {seed}");
            assert_eq!(visits_of.iter().sum::<u32>(), visits);
        }
        // Without noise, the top prior.
        let bot = fixture_bot("5:g1", 1);
        let (priors, _) = bot.evaluate(&[*game.position()], &[&moves]).remove(0);
        let top = (0..moves.len()).fold(0, |b, i| if priors[i] > priors[b] { i } else { b });
        assert_eq!(bot.play(&game).unwrap().0, moves[top]);
    }

    #[test]
    fn sequential_halving_spends_exactly_the_budget_in_a_search() {
        let game = opened();
        let moves = game.legal_moves();
        assert!(moves.len() > 16);
        let bot = fixture_bot("32:noise:g16", 7);
        let searched =
            bot.gumbel_search(&game, &moves, &mut Rng::new(3), 16, AzBot::MAX_TREE_NODES);
        let mut visits: Vec<u32> = children(&searched.tree, 0)
            .iter()
            .map(|c| c.visits)
            .collect();
        visits.sort_unstable_by(|a, b| b.cmp(a));
        let mut expected = vec![4, 4, 4, 4, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1];
        expected.resize(moves.len(), 0);
        assert_eq!(visits, expected);
        // The move played is one of the last survivors, the policy a distribution.
        assert_eq!(children(&searched.tree, 0)[searched.choice].visits, 4);
        assert!((searched.policy.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    #[test]
    fn gumbel_draws_are_those_of_the_formula() {
        let mut a = Rng::new(9);
        let mut b = Rng::new(9);
        for g in gumbel_noise(&mut a, 5) {
            assert!((g + (-b.unit().ln()).ln()).abs() < 1e-12);
        }
    }
}
