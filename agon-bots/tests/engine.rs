//! The engine: legal and deterministic moves, deadlines, forced wins found at the depth
//! they need, repetition handled by who is ahead, specs and the analysis API.

use std::time::{Duration, Instant};

use agon_bots::{analyse, bot_by_name, AnalysisError, Bot, Engine, Evaluation, Limits};
use agon_core::random::Rng;
use agon_core::{Cell, Game, Move, Position};

/// Positions from random games, every seventh ply and wherever a piece must be returned.
fn sample_games(games: u64) -> Vec<Game> {
    let mut samples = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed + 100);
        let mut game = Game::new();
        while !game.is_over() {
            if game.moves().len() % 7 == 3 || game.position().must_return() {
                samples.push(game.clone());
            }
            let moves = game.legal_moves();
            game.push_unchecked(moves[rng.below(moves.len())]);
        }
        samples.push(game.clone());
    }
    samples
}

#[test]
fn engine_plays_only_legal_moves() {
    let mut engine = Engine::new(Limits::nodes(300)).with_hash_mib(1);
    let mut checked = 0;
    for game in sample_games(4).iter().step_by(2) {
        let m = engine.choose_in_game(game);
        if game.is_over() {
            assert_eq!(m, None);
        } else {
            let m = m.expect("a move while the game goes on");
            assert!(
                game.is_legal(m),
                "illegal {m} in {}",
                game.position().to_text()
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked}");
}

#[test]
fn a_node_budget_is_spent_exactly() {
    // Lines that stop on the budget count it exactly, however the search was cut off
    // (here, with two lines, in the middle of re-searches at depth 4 and beyond).
    for (moves, budget) in [
        (&["f1-e1"][..], 4000),
        (&[][..], 777),
        (&["f1-e1", "f11-g10"][..], 25_000),
    ] {
        let mut game = Game::new();
        for m in moves {
            game.play(m.parse().unwrap()).unwrap();
        }
        let a = Engine::new(Limits::nodes(budget))
            .analyse(&game, Limits::nodes(budget), 2)
            .unwrap();
        assert_eq!(a.nodes, budget, "{moves:?}");
    }
}

#[test]
fn node_limited_search_is_deterministic() {
    let samples = sample_games(2);
    let mut reused = Engine::new(Limits::nodes(600)).with_hash_mib(1);
    for game in samples.iter().step_by(12).filter(|g| !g.is_over()) {
        let a = Engine::new(Limits::nodes(600))
            .with_hash_mib(1)
            .analyse(game, Limits::nodes(600), 2)
            .unwrap();
        // The same engine after other searches, and with a larger table, agree.
        let b = reused.analyse(game, Limits::nodes(600), 2).unwrap();
        let c = Engine::new(Limits::nodes(1))
            .with_hash_mib(2)
            .analyse(game, Limits::nodes(600), 2)
            .unwrap();
        for other in [&b, &c] {
            assert_eq!(a.lines, other.lines);
            assert_eq!((a.depth, a.nodes), (other.depth, other.nodes));
        }
        reused.analyse(game, Limits::depth(2), 1).unwrap();
    }
}

#[test]
fn deadline_is_respected() {
    let limit = Duration::from_millis(40);
    // The first search allocates the table: done before the timing.
    let mut engine = Engine::new(Limits::time(limit)).with_hash_mib(1);
    engine.choose(&Position::start());
    for game in sample_games(2).iter().step_by(6).filter(|g| !g.is_over()) {
        let began = Instant::now();
        let m = engine.choose_in_game(game).unwrap();
        let took = began.elapsed();
        assert!(game.is_legal(m));
        // A few milliseconds over at most; the slack allows for a busy machine that suspends
        // the thread (and for a slow debug build).
        let slack = Duration::from_millis(if cfg!(debug_assertions) { 150 } else { 25 });
        assert!(took <= limit + slack, "took {took:?}");
    }
}

fn pos(text: &str) -> Position {
    text.parse().unwrap()
}

#[test]
fn throne_wins_are_found_at_their_depth() {
    // White completes the throne ring with h5-g6 (R10): win in 1, found at depth 1.
    let one = pos("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w");
    let a = analyse(&one, Limits::depth(1), 1).unwrap();
    assert_eq!(a.score(), Evaluation::Win(1));
    assert_eq!(a.best_move().to_string(), "h5-g6");
    // Two ring-1 cells left, two guards next to them, Black too far to interfere: a win
    // in 2 (three plies), found at depth 3, with both orders of the two steps.
    let two = pos("Qf6,Ge5,Ge6,Gf5,Gf7,Gh4,Gh6/qa1,ga2,gb1,gb2,gc1,gd1,gc2 w");
    let a = analyse(&two, Limits::depth(3), 2).unwrap();
    assert_eq!(a.score(), Evaluation::Win(2));
    assert_eq!(a.lines[1].score, Evaluation::Win(2));
    assert_eq!(a.pv().len(), 3);
    // The same with Black to move: Black loses in 2 whatever it does.
    let a = analyse(&two.with_turn(agon_core::Side::Black), Limits::depth(4), 1).unwrap();
    assert_eq!(a.score(), Evaluation::Loss(2));
}

#[test]
fn no_action_wins_are_found() {
    // Five of Black's moves leave White without an action (R12): win in 1.
    let p = pos("Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b");
    let a = analyse(&p, Limits::depth(1), 1).unwrap();
    assert_eq!(a.score(), Evaluation::Win(1));
    let next = p.play(a.best_move()).unwrap();
    assert!(!next.has_legal_move());
}

#[test]
fn engine_avoids_completing_the_ring_without_its_queen() {
    // White's guards could fill ring 1, but Black's queen holds the throne: that loses
    // (R10), so the engine plays anything else.
    let p = pos("Qa1,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf6,ga2,gb7,gd1,gh1,gk7,gl2 w");
    let m = Engine::new(Limits::depth(3)).choose(&p).unwrap();
    assert_ne!(m.to_string(), "h5-g6");
}

/// White far ahead: its queen on ring 1, its guards on ring 2; Black on the outer ring.
const WHITE_AHEAD: &str = "Qe6,Gd4,Gd7,Gf4,Gf8,Gh4,Gh7/qf1,ga2,gb7,gd1,gh1,gk7,gl2 w";

/// A game from `start` with `moves` played.
fn game_after(start: Position, moves: &[&str]) -> Game {
    let mut game = Game::from_position(start);
    for m in moves {
        game.play(m.parse().unwrap()).unwrap();
    }
    assert!(!game.is_over());
    game
}

#[test]
fn the_side_behind_takes_a_repetition_draw() {
    // Both queens shuffle; Black's e1-f1 would bring the start back a third time (R11).
    let moves = [
        "e6-e5", "f1-e1", "e5-e6", "e1-f1", "e6-e5", "f1-e1", "e5-e6",
    ];
    let game = game_after(pos(WHITE_AHEAD), &moves);
    let m = Engine::new(Limits::depth(4)).choose_in_game(&game).unwrap();
    assert_eq!(m.to_string(), "e1-f1");
    let mut after = game.clone();
    after.play(m).unwrap();
    assert_eq!(after.outcome(), Some(agon_core::Outcome::draw()));
}

#[test]
fn the_side_ahead_avoids_a_repetition_draw() {
    // The same shuffle with Black moving first: now White's e5-e6 would repeat.
    let start = pos(WHITE_AHEAD).with_turn(agon_core::Side::Black);
    let moves = [
        "f1-e1", "e6-e5", "e1-f1", "e5-e6", "f1-e1", "e6-e5", "e1-f1",
    ];
    let game = game_after(start, &moves);
    assert!(game.is_legal("e5-e6".parse().unwrap()));
    let m = Engine::new(Limits::depth(4)).choose_in_game(&game).unwrap();
    let mut after = game.clone();
    after.play(m).unwrap();
    assert_eq!(after.outcome(), None, "White, ahead, drew with {m}");
}

/// Plays `plies` sideways guard steps that capture nothing and keep off `keep_off`, each
/// to the position seen least often so far, so that no position occurs a third time.
fn sideways_stretch(game: &mut Game, plies: usize, keep_off: &[&str]) {
    let keep_off: Vec<Cell> = keep_off.iter().map(|c| c.parse().unwrap()).collect();
    let mut seen = std::collections::HashMap::<u64, u32>::new();
    for p in game.positions() {
        *seen.entry(p.hash()).or_default() += 1;
    }
    for _ in 0..plies {
        let position = *game.position();
        let m = game
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| match m {
                Move::Step { from, to } => {
                    to.ring() == from.ring()
                        && !keep_off.contains(&from)
                        && !keep_off.contains(&to)
                        && position.captures(m).is_empty()
                }
                Move::Return { .. } | Move::Pass => false,
            })
            .min_by_key(|&m| {
                seen.get(&position.play(m).unwrap().hash())
                    .copied()
                    .unwrap_or(0)
            })
            .expect("a sideways step");
        game.play(m).unwrap();
        *seen.entry(game.position().hash()).or_default() += 1;
    }
    assert!(!game.is_over());
}

#[test]
fn long_games_welcome_a_draw() {
    // The shuffle of `the_side_ahead_avoids_a_repetition_draw` after guard steps that keep
    // off the queens' cells: White's e5-e6 would repeat.
    let start = pos(WHITE_AHEAD).with_turn(agon_core::Side::Black);
    let shuffle = [
        "f1-e1", "e6-e5", "e1-f1", "e5-e6", "f1-e1", "e6-e5", "e1-f1",
    ];
    let after = |stretch: usize| {
        let mut game = Game::from_position(start);
        sideways_stretch(&mut game, stretch, &["e6", "e5", "f1", "e1"]);
        for m in shuffle {
            game.play(m.parse().unwrap()).unwrap();
        }
        assert!(game.is_legal("e5-e6".parse().unwrap()));
        game
    };
    let outcome = |engine: Engine, game: &Game| {
        let m = { engine }.choose_in_game(game).unwrap();
        let mut next = game.clone();
        next.play(m).unwrap();
        next.outcome()
    };
    // White's lead, searched without the history (so without repetitions).
    let long = after(Engine::LONG_GAME);
    let lead = match analyse(long.position(), Limits::depth(4), 1)
        .unwrap()
        .score()
    {
        Evaluation::Points(c) => c,
        other => panic!("{other}"),
    };
    assert!(lead > Engine::DEFAULT_CONTEMPT, "{lead}");
    let short = after(Engine::LONG_GAME - 10);
    assert!(short.moves().len() < Engine::LONG_GAME && long.moves().len() > Engine::LONG_GAME);

    // A contempt above White's lead: in a short game the draw is worth minus that, and
    // White plays on; in a long game it is worth plus that, and White takes it.
    let fond = || Engine::new(Limits::depth(4)).with_contempt(lead + 50);
    assert_eq!(fond().draw_value(&short), -(lead + 50));
    assert_eq!(outcome(fond(), &short), None);
    assert_eq!(fond().draw_value(&long), lead + 50);
    assert_eq!(outcome(fond(), &long), Some(agon_core::Outcome::draw()));
    // With the default contempt, White's lead is worth more than the draw even then.
    let default = || Engine::new(Limits::depth(4));
    assert_eq!(default().draw_value(&long), Engine::DEFAULT_CONTEMPT);
    assert_eq!(outcome(default(), &long), None);
}

#[test]
fn each_technique_switches_something_and_keeps_the_engine_sound() {
    use agon_bots::{Technique, Techniques};
    let nodes = |techniques: Techniques| {
        let mut engine = Engine::new(Limits::depth(7)).with_techniques(techniques);
        engine
            .analyse(&Position::start(), Limits::depth(7), 1)
            .unwrap()
            .nodes
    };
    let all = nodes(Techniques::ALL);
    let two = pos("Qf6,Ge5,Ge6,Gf5,Gf7,Gh4,Gh6/qa1,ga2,gb1,gb2,gc1,gd1,gc2 w");
    let without_each = Technique::ALL.iter().map(|&t| Techniques::ALL.without(t));
    for techniques in without_each.chain([Techniques::NONE]) {
        assert_ne!(techniques, Techniques::ALL);
        // Each switch changes the search tree...
        assert_ne!(
            nodes(techniques),
            all,
            "{techniques:?} searched the same tree"
        );
        // ...and the engine still finds forced wins and plays legal moves.
        let mut engine = Engine::new(Limits::depth(3)).with_techniques(techniques);
        let a = engine.analyse(&two, Limits::depth(3), 1).unwrap();
        assert_eq!(a.score(), Evaluation::Win(2), "{techniques:?}");
        let mut engine = Engine::new(Limits::nodes(200)).with_techniques(techniques);
        for game in sample_games(1).iter().filter(|g| !g.is_over()) {
            let m = engine.choose_in_game(game).unwrap();
            assert!(game.is_legal(m), "{techniques:?}: illegal {m}");
        }
    }
}

#[test]
fn specs_read_and_name_themselves() {
    for (spec, name) in [
        ("engine", "engine:100ms"),
        ("engine:250ms", "engine:250ms"),
        (" engine:n5000 ", "engine:n5000"),
        ("engine:d6:n900:5ms:t2:h32", "engine:5ms:n900:d6:t2:h32"),
    ] {
        let bot = bot_by_name(spec, 1).unwrap();
        assert_eq!(bot.name(), name);
        assert_eq!(bot_by_name(&bot.name(), 2).unwrap().name(), name);
    }
    for bad in [
        "engine:",
        "engine:0ms:0ms",
        "engine:n0",
        "engine:d101",
        "engine:t65",
        "engine:h0",
        "engine:h4097",
        "engine:100",
        "engine:n-1",
        "engine:1s",
    ] {
        assert!(bot_by_name(bad, 1).is_err(), "{bad} was read");
    }
}

#[test]
fn analysis_lines_are_distinct_and_ordered() {
    let a = analyse(&Game::new(), Limits::depth(3), 5).unwrap();
    assert_eq!(a.lines.len(), 5);
    let mut firsts: Vec<_> = a.lines.iter().map(|l| l.pv[0]).collect();
    firsts.sort();
    firsts.dedup();
    assert_eq!(firsts.len(), 5);
    assert!(a.lines.windows(2).all(|w| w[0].score >= w[1].score));
    // Every line is a legal sequence.
    for line in &a.lines {
        let mut p = Position::start();
        for &m in &line.pv {
            p = p.play(m).unwrap();
        }
    }
    // More lines than moves give one per move.
    let few = pos("Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b");
    let n = few.legal_moves().len();
    assert!(n < 50);
    assert_eq!(analyse(&few, Limits::depth(2), 50).unwrap().lines.len(), n);
}

#[test]
fn analysis_refuses_finished_games_and_unbounded_searches() {
    let won = pos("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 b");
    assert!(matches!(
        analyse(&won, Limits::depth(2), 1),
        Err(AnalysisError::GameOver(_))
    ));
    assert_eq!(
        analyse(&Position::start(), Limits::default(), 1),
        Err(AnalysisError::Unbounded)
    );
    assert_eq!(Engine::new(Limits::depth(2)).choose(&won), None);
}

#[test]
fn threads_give_legal_moves() {
    let mut engine = Engine::new(Limits::nodes(2_000)).with_threads(2);
    let game = Game::new();
    let m = engine.choose_in_game(&game).unwrap();
    assert!(game.is_legal(m));
}

#[test]
fn a_search_control_without_a_deadline_changes_nothing_and_its_flag_stops_a_search() {
    use std::sync::atomic::Ordering;
    use std::sync::{Arc, Mutex};

    let mut game = Game::new();
    for m in ["f1-e1", "d1-e2", "a5-b5"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    for (nodes, depth) in [
        (Some(3_000), None),
        (None, Some(4)),
        (Some(50_000), Some(3)),
    ] {
        let mut limits = Limits::default();
        let mut control = agon_bots::SearchControl::new();
        if let Some(n) = nodes {
            limits = limits.with_nodes(n);
            control = control.with_nodes(n);
        }
        if let Some(d) = depth {
            limits = limits.with_depth(d);
            control = control.with_depth(d);
        }
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let mut control = control.on_depth(move |a| log.lock().unwrap().push(a.depth));
        let plain = Engine::new(Limits::depth(1))
            .analyse(&game, limits, 1)
            .unwrap();
        let with = Engine::new(Limits::depth(1))
            .analyse_with(&game, &mut control, 1)
            .unwrap();
        assert_eq!(
            (with.best_move(), with.score(), with.nodes, with.depth),
            (plain.best_move(), plain.score(), plain.nodes, plain.depth)
        );
        let depths = seen.lock().unwrap().clone();
        assert_eq!(depths, (1..=plain.depth).collect::<Vec<_>>());
    }
    // Raised before the search, the flag stops it at its first look (256 nodes in a
    // release build, 16 in a debug one): a legal move comes back at once.
    let mut control = agon_bots::SearchControl::new();
    control.stop_flag().store(true, Ordering::Relaxed);
    let start = Instant::now();
    let a = Engine::new(Limits::depth(1))
        .analyse_with(&game, &mut control, 1)
        .unwrap();
    assert!(game.is_legal(a.best_move()));
    assert!(a.nodes <= 256, "{}", a.nodes);
    assert!(start.elapsed() < Duration::from_secs(5));
}
