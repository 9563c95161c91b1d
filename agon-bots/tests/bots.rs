//! Every bot plays only legal moves, on many positions, and repeats itself under a seed.

use agon_bots::{bot_by_name, AlphaBetaBot, Bot, GreedyBot, MctsBot, RandomBot};
use agon_core::random::{random_move, Rng};
use agon_core::{Game, Move, Position};

/// Small budgets keep the debug-build tests fast.
const SPECS: [&str; 4] = ["random", "greedy", "mcts:16", "alphabeta:2"];

/// Games from random play, stopped at every fifth ply, at every position where a captured
/// piece must be returned, and at their end (the history matters for repetition).
fn sample_positions(games: u64) -> Vec<Game> {
    let mut samples = Vec::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed);
        let mut game = Game::new();
        while !game.is_over() {
            if game.moves().len() % 5 == 0 || game.position().must_return() {
                samples.push(game.clone());
            }
            let m = random_move(game.position(), &mut rng).expect("the game goes on");
            game.push_unchecked(m);
        }
        samples.push(game.clone());
    }
    samples
}

#[test]
fn sample_covers_returns_and_ends() {
    let samples = sample_positions(6);
    let returns = samples
        .iter()
        .filter(|g| g.position().must_return())
        .count();
    let queen_returns = samples
        .iter()
        .filter(|g| {
            let p = g.position();
            p.must_return() && p.captured().contains(p.queen(p.turn()))
        })
        .count();
    let over = samples.iter().filter(|g| g.is_over()).count();
    assert_eq!(
        (samples.len(), returns, queen_returns, over),
        (553, 110, 13, 6)
    );
}

#[test]
fn every_bot_returns_only_legal_moves() {
    // Thin the sample for the searching bots, which cost more per move in a debug build.
    let samples = sample_positions(6);
    for spec in SPECS {
        let step = if spec.starts_with("mcts") { 8 } else { 2 };
        let mut bot = bot_by_name(spec, 11).unwrap();
        let mut checked = 0;
        for game in samples.iter().step_by(step) {
            let from_game = bot.choose_in_game(game);
            let from_position = bot.choose(game.position());
            if game.is_over() {
                assert_eq!(from_game, None, "{spec} moved in a finished game");
                // A lone position ends only by the throne ring or no action.
                assert_eq!(from_position.is_some(), game.position().has_legal_move());
            } else {
                let m = from_game.unwrap_or_else(|| panic!("{spec} found no move"));
                assert!(
                    game.is_legal(m),
                    "{spec} chose the illegal {m} in {:?}",
                    game.position()
                );
                let m = from_position.unwrap();
                assert!(game.position().is_legal(m), "{spec} chose the illegal {m}");
            }
            checked += 1;
        }
        assert!(checked >= 60, "{spec} checked only {checked} positions");
    }
}

#[test]
fn a_finished_position_gives_none() {
    let pos: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 w"
        .parse()
        .unwrap();
    // White's throne ring is complete: the game is over, White has won.
    assert!(pos.is_over());
    for spec in SPECS {
        assert_eq!(bot_by_name(spec, 1).unwrap().choose(&pos), None, "{spec}");
    }
}

/// The first `plies` moves of a game between two bots of `spec` seeded `seed`.
fn self_play(spec: &str, seed: u64, plies: usize) -> Vec<Move> {
    let mut white = bot_by_name(spec, seed).unwrap();
    let mut black = bot_by_name(spec, seed + 1).unwrap();
    let mut game = Game::new();
    while !game.is_over() && game.moves().len() < plies {
        let bot = if game.moves().len() % 2 == 0 {
            &mut white
        } else {
            &mut black
        };
        let m = bot.choose_in_game(&game).unwrap();
        game.play(m).unwrap();
    }
    game.moves().to_vec()
}

#[test]
fn seeded_bots_repeat_themselves() {
    for spec in SPECS {
        let plies = if spec.starts_with("mcts") { 6 } else { 30 };
        let first = self_play(spec, 5, plies);
        assert_eq!(first.len(), plies, "{spec}");
        assert_eq!(self_play(spec, 5, plies), first, "{spec}");
    }
}

#[test]
fn a_bot_answers_a_position_the_same_whatever_it_saw_before() {
    let start = Position::start();
    let later = start.play("f1-e1".parse().unwrap()).unwrap();
    let bots: Vec<Box<dyn Bot>> = vec![
        Box::new(RandomBot::new(8)),
        Box::new(GreedyBot::new(8)),
        Box::new(MctsBot::new(16, 8)),
        Box::new(AlphaBetaBot::new(3, 8)),
    ];
    for mut bot in bots {
        let first = bot.choose(&later);
        bot.choose(&start);
        assert_eq!(bot.choose(&later), first, "{}", bot.name());
    }
}

#[test]
fn seeds_change_random_choices() {
    let start = Position::start();
    let moves: std::collections::BTreeSet<String> = (0..20)
        .map(|seed| RandomBot::new(seed).choose(&start).unwrap().to_string())
        .collect();
    // Not one move for every seed (how many differ depends on the random stream).
    assert!(moves.len() > 1, "{moves:?}");
    // And the same seed, the same move.
    for seed in 0..20 {
        assert_eq!(
            RandomBot::new(seed).choose(&start),
            RandomBot::new(seed).choose(&start)
        );
    }
}

#[test]
fn first_moves_are_legal_and_fixed_by_the_seed() {
    // Which move a bot likes is a tuning choice; that it is legal, and the same for the
    // same seed whichever bot object asks, is not.
    let start = Position::start();
    for spec in ["random", "greedy", "mcts:16", "alphabeta:3"] {
        let first = |seed| bot_by_name(spec, seed).unwrap().choose(&start).unwrap();
        let m = first(1);
        assert!(start.is_legal(m), "{spec}: {m}");
        assert_eq!(first(1), m, "{spec}");
    }
}

/// White's queen is on the throne with five guards around it; h6-g6 fills the sixth cell.
fn throne_in_one() -> (Position, Move) {
    let pos: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 w"
        .parse()
        .unwrap();
    (pos, "h6-g6".parse().unwrap())
}

#[test]
fn greedy_takes_a_win_in_one() {
    let (pos, win) = throne_in_one();
    assert!(pos.is_legal(win));
    for spec in ["greedy", "alphabeta:1", "alphabeta:3"] {
        assert_eq!(
            bot_by_name(spec, 2).unwrap().choose(&pos),
            Some(win),
            "{spec}"
        );
    }
}

#[test]
fn alphabeta_gives_its_move_and_score_as_statistics() {
    // A win in one is a forced win: a value of exactly 1, the winning move its only count.
    let (pos, win) = throne_in_one();
    let (m, stats) = AlphaBetaBot::new(3, 2)
        .choose_with_stats(&Game::from_position(pos))
        .unwrap();
    let stats = stats.expect("alpha-beta has statistics");
    assert_eq!((m, stats.visits, stats.value), (win, vec![(win, 1)], 1.0));
    // Elsewhere: the same move as without statistics, a value within (-1, 1) for the
    // chooser, and positions with a single legal move searched for their value too.
    let mut lone = 0;
    for game in sample_positions(3).iter().filter(|g| !g.is_over()) {
        let (m, stats) = AlphaBetaBot::new(2, 5).choose_with_stats(game).unwrap();
        assert_eq!(Some(m), AlphaBetaBot::new(2, 5).choose_in_game(game));
        let stats = stats.expect("every search finishes without a time limit");
        assert_eq!(stats.visits, vec![(m, 1)]);
        assert!((-1.0..=1.0).contains(&stats.value), "{}", stats.value);
        lone += usize::from(game.legal_moves().len() == 1);
    }
    assert!(lone > 0, "the sample holds positions with one legal move");
    // The start is even: no side is ahead before a move.
    let (_, stats) = AlphaBetaBot::new(1, 0)
        .choose_with_stats(&Game::new())
        .unwrap();
    assert!(stats.unwrap().value.abs() < 0.5);
}

#[test]
fn alphabeta_avoids_completing_the_ring_without_its_queen() {
    // White's five guards around the throne, its queen outside: filling the sixth cell
    // would lose (R10), so a searching bot plays something else.
    let pos: Position = "Qf3,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 w"
        .parse()
        .unwrap();
    let losing: Move = "h6-g6".parse().unwrap();
    assert!(pos.is_legal(losing));
    for spec in ["greedy", "alphabeta:2"] {
        let m = bot_by_name(spec, 2).unwrap().choose(&pos).unwrap();
        assert_ne!(m, losing, "{spec}");
    }
}

#[test]
fn bots_can_move_between_threads() {
    fn assert_send<T: Send>() {}
    assert_send::<RandomBot>();
    assert_send::<GreedyBot>();
    assert_send::<MctsBot>();
    assert_send::<AlphaBetaBot>();
    // A boxed bot plays on another thread.
    let mut bot = bot_by_name("greedy", 3).unwrap();
    let here = bot_by_name("greedy", 3).unwrap().choose(&Position::start());
    let there = std::thread::spawn(move || bot.choose(&Position::start()))
        .join()
        .unwrap();
    assert_eq!(there, here);
    assert!(here.is_some_and(|m| Position::start().is_legal(m)));
}

#[test]
fn time_limits_stop_the_search() {
    use std::time::{Duration, Instant};
    let game = Game::new();
    let started = Instant::now();
    let m = AlphaBetaBot::new(AlphaBetaBot::MAX_DEPTH, 1)
        .with_time_limit(Duration::from_millis(200))
        .choose_in_game(&game)
        .unwrap();
    assert!(game.is_legal(m));
    let m = MctsBot::new(u32::MAX, 1)
        .with_time_limit(Duration::from_millis(200))
        .choose_in_game(&game)
        .unwrap();
    assert!(game.is_legal(m));
    // Generous: the machine may be busy, but an unlimited search would take far longer.
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn choose_matches_choose_in_game_from_the_same_position() {
    let samples = sample_positions(2);
    for spec in SPECS {
        for game in samples.iter().step_by(25) {
            let position = *game.position();
            let lone = Game::from_position(position);
            let mut bot = bot_by_name(spec, 4).unwrap();
            assert_eq!(bot.choose(&position), bot.choose_in_game(&lone), "{spec}");
        }
    }
}

#[test]
fn a_position_that_comes_back_gets_a_fresh_draw() {
    // Both queens step out and back: the start position recurs at ply 4.
    let mut game = Game::new();
    for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(*game.position(), Position::start());
    let fresh = Game::new();
    let differ = (0..10)
        .filter(|&seed| {
            let mut bot = RandomBot::new(seed);
            bot.choose_in_game(&game) != bot.choose_in_game(&fresh)
        })
        .count();
    // With about twenty moves to choose from, a choice that ignored the history would
    // agree for nearly every seed; which seeds coincide depends on the random stream.
    assert!(differ >= 5, "{differ} of 10");
}
