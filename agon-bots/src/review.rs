//! Game review: every position of a finished (or unfinished) game evaluated by the engine
//! at a fixed node budget, and every action judged by how much of its player's expected
//! score it gave away ([`review`], [`Review`], [`PlyReview`], [`Judgement`]).
//!
//! The figures depend on the game and the budget alone: each position is searched by a
//! fresh single-threaded engine to a node count, never to a clock, so a server, a notebook
//! and a test get the same review for the same game on any machine.

use agon_core::{Game, Move, Outcome, Side};

use crate::{Engine, Evaluation, Limits};

/// What a reviewed action gave away, by the expected score its player lost (see
/// [`Judgement::of_loss`]). The thresholds are in expected-score terms, as lichess's are in
/// winning chances, so that a player far ahead is not flagged for every move that wins
/// a little more slowly: from +8.00 to +6.00 loses 0.02 of a point (0.990 to 0.970).
///
/// ```
/// use agon_bots::Judgement;
/// assert_eq!(Judgement::of_loss(0.04), None);
/// assert_eq!(Judgement::of_loss(0.05), Some(Judgement::Inaccuracy));
/// assert_eq!(Judgement::of_loss(0.12), Some(Judgement::Mistake));
/// assert_eq!(Judgement::of_loss(0.40), Some(Judgement::Blunder));
/// assert_eq!(Judgement::Blunder.to_string(), "blunder");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[non_exhaustive]
pub enum Judgement {
    /// Lost at least [`Judgement::INACCURACY`] of a point.
    Inaccuracy,
    /// Lost at least [`Judgement::MISTAKE`] of a point.
    Mistake,
    /// Lost at least [`Judgement::BLUNDER`] of a point.
    Blunder,
}

impl Judgement {
    /// The expected score an inaccuracy loses at least: 0.05 (lichess's 0.1 of winning
    /// chances, which run from -1 to 1 where an expected score runs from 0 to 1).
    pub const INACCURACY: f64 = 0.05;
    /// The expected score a mistake loses at least: 0.10.
    pub const MISTAKE: f64 = 0.10;
    /// The expected score a blunder loses at least: 0.15.
    pub const BLUNDER: f64 = 0.15;
    /// All judgements, mildest first.
    ///
    /// ```
    /// use agon_bots::Judgement;
    /// assert_eq!(Judgement::ALL.map(|j| j.name()), ["inaccuracy", "mistake", "blunder"]);
    /// ```
    pub const ALL: [Judgement; 3] = [
        Judgement::Inaccuracy,
        Judgement::Mistake,
        Judgement::Blunder,
    ];

    /// The judgement of an action that lost `loss` of its player's expected score (from 0
    /// to 1), or `None` below [`Judgement::INACCURACY`].
    ///
    /// ```
    /// use agon_bots::Judgement;
    /// assert_eq!(Judgement::of_loss(Judgement::MISTAKE), Some(Judgement::Mistake));
    /// assert_eq!(Judgement::of_loss(-0.3), None);
    /// ```
    pub fn of_loss(loss: f64) -> Option<Judgement> {
        Judgement::ALL
            .into_iter()
            .rev()
            .find(|j| loss >= j.threshold())
    }

    /// The least loss of this judgement.
    ///
    /// ```
    /// use agon_bots::Judgement;
    /// assert_eq!(Judgement::Blunder.threshold(), Judgement::BLUNDER);
    /// ```
    pub fn threshold(self) -> f64 {
        match self {
            Judgement::Inaccuracy => Judgement::INACCURACY,
            Judgement::Mistake => Judgement::MISTAKE,
            Judgement::Blunder => Judgement::BLUNDER,
        }
    }

    /// Its name: `inaccuracy`, `mistake` or `blunder`.
    ///
    /// ```
    /// assert_eq!(agon_bots::Judgement::Mistake.name(), "mistake");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }
}

impl core::fmt::Display for Judgement {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// One position of a reviewed game.
///
/// ```
/// use agon_bots::review;
/// use agon_core::Game;
/// let r = review(&Game::new(), 1_000);
/// let start = &r.positions[0];
/// assert_eq!(start.side, agon_core::Side::White);
/// assert!(start.best.is_some() && start.evaluation.is_some());
/// ```
#[derive(Clone, PartialEq, Debug)]
pub struct PositionReview {
    /// The player to act (the chooser, [`agon_core::Position::chooser`]).
    pub side: Side,
    /// The engine's evaluation for [`PositionReview::side`]; `None` where the game is
    /// over.
    pub evaluation: Option<Evaluation>,
    /// The engine's move; `None` where the game is over.
    pub best: Option<Move>,
    /// The line the engine expects from here (its first move is `best`).
    pub pv: Vec<Move>,
    /// White's expected score here, from 0 to 1: the evaluation's
    /// ([`Evaluation::expected_score`]), or the result where the game is over. The curve
    /// of a review's graph.
    pub white: f64,
}

/// One action of a reviewed game: who took it, what it was, what it cost.
///
/// ```
/// use agon_bots::review;
/// use agon_core::Game;
/// let mut game = Game::new();
/// game.play("f1-e1".parse()?)?;
/// let r = review(&game, 1_000);
/// let ply = &r.plies[0];
/// assert_eq!((ply.ply, ply.side, ply.played.to_string()), (0, agon_core::Side::White, "f1-e1".to_string()));
/// assert!(ply.loss >= 0.0 && ply.loss <= 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Debug)]
pub struct PlyReview {
    /// The action's index in the game's moves, from 0.
    pub ply: usize,
    /// The player who took it.
    pub side: Side,
    /// The action taken.
    pub played: Move,
    /// The engine's choice in the same position.
    pub best: Move,
    /// The player's expected score before the action, from 0 to 1.
    pub before: f64,
    /// The player's expected score after it.
    pub after: f64,
    /// What the action gave away: `before - after`, at least 0; 0 for the engine's own
    /// choice (a deeper look after the move is not a fault of the move).
    pub loss: f64,
    /// The judgement of the loss ([`Judgement::of_loss`]).
    pub judgement: Option<Judgement>,
}

/// A player's tally in a review.
///
/// ```
/// use agon_bots::review;
/// use agon_core::{Game, Side};
/// let r = review(&Game::new(), 1_000);
/// assert_eq!(r.tally(Side::White).actions, 0);
/// ```
#[derive(Copy, Clone, PartialEq, Debug, Default)]
pub struct Tally {
    /// Actions taken.
    pub actions: usize,
    /// Inaccuracies (only those: a mistake is not also counted here).
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// The mean loss per action, in expected score (0 without actions).
    pub mean_loss: f64,
}

/// A game reviewed by the engine: [`review`]'s result.
///
/// ```
/// use agon_bots::review;
/// use agon_core::Game;
/// let mut game = Game::new();
/// for m in ["f1-e1", "f11-g10"] {
///     game.play(m.parse()?)?;
/// }
/// let r = review(&game, 1_000);
/// assert_eq!((r.positions.len(), r.plies.len()), (3, 2));
/// assert_eq!(r.nodes, 1_000);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Debug)]
pub struct Review {
    /// The node budget each position was searched with.
    pub nodes: u64,
    /// Every position of the game, the start first: one more than the actions.
    pub positions: Vec<PositionReview>,
    /// Every action of the game, in order.
    pub plies: Vec<PlyReview>,
}

impl Review {
    /// The node budget a review takes per position unless told otherwise: about a
    /// twentieth of a second of one core in a release build.
    pub const DEFAULT_NODES: u64 = 50_000;

    /// The tally of `side`: its actions, inaccuracies, mistakes, blunders and mean loss.
    ///
    /// ```
    /// use agon_bots::review;
    /// use agon_core::{Game, Side};
    /// let mut game = Game::new();
    /// game.play("f1-e1".parse()?)?;
    /// let r = review(&game, 1_000);
    /// assert_eq!(r.tally(Side::White).actions, 1);
    /// assert_eq!(r.tally(Side::Black).actions, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tally(&self, side: Side) -> Tally {
        let mut tally = Tally::default();
        let mut total = 0.0;
        for ply in self.plies.iter().filter(|p| p.side == side) {
            tally.actions += 1;
            total += ply.loss;
            match ply.judgement {
                Some(Judgement::Inaccuracy) => tally.inaccuracies += 1,
                Some(Judgement::Mistake) => tally.mistakes += 1,
                Some(Judgement::Blunder) => tally.blunders += 1,
                None => {}
            }
        }
        if tally.actions > 0 {
            tally.mean_loss = total / tally.actions as f64;
        }
        tally
    }
}

/// The expected score of `side` where the game ended with `outcome`.
fn result_for(outcome: Outcome, side: Side) -> f64 {
    match outcome.winner {
        None => 0.5,
        Some(winner) if winner == side => 1.0,
        Some(_) => 0.0,
    }
}

/// Reviews `game`: each of its positions searched by a fresh single-threaded [`Engine`]
/// to `nodes` nodes (at least 1; [`Review::DEFAULT_NODES`] is a good budget), with the
/// game's history before it (repetition, R11, counts), then each action judged by the
/// expected score it cost its player ([`Judgement`]). The same game and budget give the
/// same review on any machine.
///
/// The engine's evaluations are centipoints fitted to game results, so that a score `s`
/// is an expected result of `1 / (1 + 10^(-s / 400))` ([`Evaluation::expected_score`]);
/// an action's loss is its player's expected score before it less the one after it,
/// where the game is over the result itself.
///
/// ```
/// use agon_bots::{review, Judgement};
/// use agon_core::{Game, Position, Side};
///
/// // Five of Black's moves leave White without an action and win at once (R12); b4-c5
/// // lets White breathe: a blunder.
/// let start: Position = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b".parse()?;
/// let mut game = Game::from_position(start);
/// game.play("b4-c5".parse()?)?;
/// let r = review(&game, 2_000);
/// let ply = &r.plies[0];
/// assert_eq!((ply.side, ply.before), (Side::Black, 1.0));
/// assert!(ply.loss >= Judgement::BLUNDER);
/// assert_eq!(ply.judgement, Some(Judgement::Blunder));
/// assert_eq!(r.tally(Side::Black).blunders, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn review(game: &Game, nodes: u64) -> Review {
    review_with_progress(game, nodes, |_, _| {})
}

/// [`review`], calling `progress(done, total)` after each position is evaluated (`done`
/// of the game's `total` positions, one more than its actions): what a server shows while
/// a long game is reviewed. The figures are [`review`]'s.
///
/// ```
/// use agon_bots::{review, review_with_progress};
/// use agon_core::Game;
/// let mut game = Game::new();
/// game.play("f1-e1".parse()?)?;
/// let mut seen = Vec::new();
/// let r = review_with_progress(&game, 1_000, |done, total| seen.push((done, total)));
/// assert_eq!(seen, [(1, 2), (2, 2)]);
/// assert_eq!(r, review(&game, 1_000));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn review_with_progress(
    game: &Game,
    nodes: u64,
    mut progress: impl FnMut(usize, usize),
) -> Review {
    let nodes = nodes.max(1);
    let total = game.moves().len() + 1;
    let mut prefix = Game::from_position(*game.start());
    let mut positions = Vec::with_capacity(total);
    positions.push(review_position(&prefix, nodes));
    progress(positions.len(), total);
    for &m in game.moves() {
        prefix.play(m).expect("a game's own moves are legal in it");
        positions.push(review_position(&prefix, nodes));
        progress(positions.len(), total);
    }
    let plies = game
        .moves()
        .iter()
        .enumerate()
        .map(|(ply, &played)| {
            let (here, next) = (&positions[ply], &positions[ply + 1]);
            let side = here.side;
            let for_side = |white: f64| {
                if side == Side::White {
                    white
                } else {
                    1.0 - white
                }
            };
            let (before, after) = (for_side(here.white), for_side(next.white));
            let best = here.best.expect("a position with an action is not over");
            let loss = if played == best {
                0.0
            } else {
                (before - after).max(0.0)
            };
            PlyReview {
                ply,
                side,
                played,
                best,
                before,
                after,
                loss,
                judgement: Judgement::of_loss(loss),
            }
        })
        .collect();
    Review {
        nodes,
        positions,
        plies,
    }
}

/// One position's review: the engine's search to `nodes`, or the result.
fn review_position(game: &Game, nodes: u64) -> PositionReview {
    let side = game.position().chooser();
    let white_of = |score: f64| {
        if side == Side::White {
            score
        } else {
            1.0 - score
        }
    };
    if let Some(outcome) = game.outcome() {
        return PositionReview {
            side,
            evaluation: None,
            best: None,
            pv: Vec::new(),
            white: result_for(outcome, Side::White),
        };
    }
    // A small table: a search of tens of thousands of nodes fills a fraction of it.
    let analysis = Engine::new(Limits::nodes(nodes))
        .with_hash_mib(1)
        .analyse(game, Limits::nodes(nodes), 1)
        .expect("a game not over with a node limit can be analysed");
    let evaluation = analysis.score();
    PositionReview {
        side,
        evaluation: Some(evaluation),
        best: Some(analysis.best_move()),
        pv: analysis.pv().to_vec(),
        white: white_of(evaluation.expected_score()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agon_core::{Position, Rules};

    fn played(start: Position, moves: &[&str]) -> Game {
        let mut game = Game::from_position(start);
        for m in moves {
            game.play(m.parse().unwrap()).unwrap();
        }
        game
    }

    #[test]
    fn the_same_game_gives_the_same_review() {
        let mut game = Game::from_position(crate::book::standard()[3]);
        for _ in 0..6 {
            let m = crate::analyse(&game, Limits::nodes(300), 1)
                .unwrap()
                .best_move();
            game.play(m).unwrap();
        }
        let a = review(&game, 3_000);
        let b = review(&game, 3_000);
        assert_eq!(a, b);
        assert_eq!(a.positions.len(), 7);
        // Each position's figures are those of a fresh engine on that prefix alone.
        let mut prefix = Game::from_position(*game.start());
        for m in &game.moves()[..3] {
            prefix.play(*m).unwrap();
        }
        assert_eq!(a.positions[3], review_position(&prefix, 3_000));
    }

    #[test]
    fn the_engines_own_choice_loses_nothing() {
        let mut game = Game::new();
        for _ in 0..4 {
            let m = crate::analyse(&game, Limits::nodes(2_000), 1)
                .unwrap()
                .best_move();
            game.play(m).unwrap();
        }
        let r = review(&game, 2_000);
        for ply in &r.plies {
            assert_eq!(ply.played, ply.best, "ply {}", ply.ply);
            assert_eq!((ply.loss, ply.judgement), (0.0, None));
        }
    }

    #[test]
    fn a_finished_game_ends_at_its_result() {
        // White completes the throne ring (R10).
        let start: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"
            .parse()
            .unwrap();
        let game = played(start, &["h5-g6"]);
        assert!(game.outcome().is_some());
        let r = review(&game, 1_000);
        let end = r.positions.last().unwrap();
        assert_eq!((end.evaluation, end.best, end.white), (None, None, 1.0));
        assert_eq!(r.plies[0].after, 1.0);
        assert_eq!(r.plies[0].judgement, None);
    }

    /// Black wins at once with f11-g10, f11-f10, f11-e10, d2-c2 or b6-b5 (R12).
    const BLACK_WINS_AT_ONCE: &str = "Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b";

    #[test]
    fn a_blunder_is_counted_for_its_player_only() {
        let game = played(BLACK_WINS_AT_ONCE.parse().unwrap(), &["b4-c5"]);
        let r = review(&game, 2_000);
        let ply = &r.plies[0];
        assert!(["f11-g10", "f11-f10", "f11-e10", "d2-c2", "b6-b5"]
            .contains(&ply.best.to_string().as_str()));
        assert_eq!((ply.before, ply.judgement), (1.0, Some(Judgement::Blunder)));
        let black = r.tally(Side::Black);
        assert_eq!(
            (
                black.actions,
                black.blunders,
                black.mistakes,
                black.inaccuracies
            ),
            (1, 1, 0, 0)
        );
        assert_eq!(black.mean_loss, ply.loss);
        assert_eq!(r.tally(Side::White), Tally::default());
    }

    #[test]
    fn a_won_position_does_not_flag_a_slower_win() {
        // c1-c2 misses the win at once but keeps Black far ahead: in centipoints it gives
        // away several points, in expected score a few hundredths.
        let game = played(BLACK_WINS_AT_ONCE.parse().unwrap(), &["c1-c2"]);
        let r = review(&game, 2_000);
        let ply = &r.plies[0];
        assert!(matches!(r.positions[1].evaluation, Some(Evaluation::Points(p)) if p <= -500));
        assert!(
            ply.loss > 0.0 && ply.loss < Judgement::INACCURACY,
            "{}",
            ply.loss
        );
        assert_eq!(ply.judgement, None);
    }

    #[test]
    fn losses_are_measured_for_the_player_who_acted() {
        // Black to act: the expected scores of a ply are Black's, 1 - White's.
        let game = played(Position::start(), &["f1-e1", "f11-g10"]);
        let r = review(&game, 1_000);
        let black = &r.plies[1];
        assert_eq!(black.side, Side::Black);
        assert_eq!(black.before, 1.0 - r.positions[1].white);
        assert_eq!(black.after, 1.0 - r.positions[2].white);
    }

    #[test]
    fn a_review_keeps_the_games_rules() {
        let rules: Rules = "ludii".parse().unwrap();
        let game = Game::with_rules(rules);
        let r = review(&game, 500);
        let expected = crate::analyse(&game, Limits::nodes(500), 1).unwrap();
        assert_eq!(r.positions[0].best, Some(expected.best_move()));
    }

    #[test]
    fn the_thresholds_are_ordered_and_exact() {
        assert_eq!(Judgement::of_loss(0.0), None);
        assert_eq!(Judgement::of_loss(0.049_999), None);
        assert_eq!(Judgement::of_loss(0.05), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(0.099_999), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of_loss(0.10), Some(Judgement::Mistake));
        assert_eq!(Judgement::of_loss(0.15), Some(Judgement::Blunder));
        assert_eq!(Judgement::of_loss(1.0), Some(Judgement::Blunder));
    }
}
