//! The arena: colours alternate, results are counted from the first bot's side, and the
//! statistics are exact.

use agon_bots::arena::{
    game_seeds, play_game, play_game_from, run_match, run_match_of, run_match_with, GameResult,
    MatchError, MatchOptions, MatchStats, MAX_PLIES,
};
use agon_bots::{bot_by_name, Bot, RandomBot};
use agon_core::{ChoiceError, EndReason, Game, IllegalMove, Move, Outcome, Position, Side};

#[test]
fn a_small_match_alternates_colours_adds_up_and_is_reproducible() {
    let mut games = Vec::new();
    let stats = run_match("greedy", "random", 6, 1, |i, side, result| {
        games.push((i, side, result.plies));
    })
    .unwrap();
    // Colours alternate, A (greedy) White first; every game is counted once.
    let sides: Vec<(u32, Side)> = games.iter().map(|&(i, side, _)| (i, side)).collect();
    assert_eq!(
        sides,
        (0..6)
            .map(|i| (i, if i % 2 == 0 { Side::White } else { Side::Black }))
            .collect::<Vec<_>>()
    );
    assert_eq!(stats.games, 6);
    assert_eq!(stats.wins + stats.draws + stats.losses, 6);
    assert_eq!(
        stats.plies,
        games.iter().map(|&(_, _, p)| p as u64).sum::<u64>()
    );
    // The same seed gives the same match.
    assert_eq!(
        run_match("greedy", "random", 6, 1, |_, _, _| {}).unwrap(),
        stats
    );
    // Strength ordering: one ply of look-ahead beats random play (by a margin that any
    // sensible evaluation keeps; the exact score is a tuning matter).
    assert!(stats.score() >= 0.75, "{stats}");
}

#[test]
fn bad_specs_are_refused_before_playing() {
    let mut played = 0;
    let err = run_match("greedy", "alphabeta:0", 4, 1, |_, _, _| played += 1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad number \"0\" in bot \"alphabeta:0\": expected a depth from 1 to 64"
    );
    assert_eq!(played, 0);
}

#[test]
fn statistics() {
    let stats = MatchStats {
        games: 200,
        wins: 190,
        draws: 6,
        losses: 4,
        capped: 1,
        plies: 30_000,
    };
    assert_eq!(stats.score(), 0.965);
    assert_eq!(stats.mean_plies(), 150.0);
    assert_eq!(
        stats.to_string(),
        "games=200 wins=190 draws=6 losses=4 capped=1 score=0.965 ci95=[0.932, 0.980] mean_plies=150.0"
    );
    let all_won = MatchStats {
        games: 10,
        wins: 10,
        draws: 0,
        losses: 0,
        capped: 0,
        plies: 0,
    };
    // A perfect score still has an interval below it (Wilson's: 10 / (10 + 1.96²)), and
    // its upper bound is exactly 1.
    let (low, high) = all_won.confidence_interval();
    assert_eq!(((low * 1e4).round(), high), (7225.0, 1.0));
    let all_lost = MatchStats {
        losses: 10,
        wins: 0,
        ..all_won
    };
    let (low, high) = all_lost.confidence_interval();
    assert_eq!((low, (high * 1e4).round()), (0.0, 2775.0));
    // Draws alone: an interval around one half, narrower than Wilson's without draws
    // ([0.237, 0.763]) but not of width zero.
    let all_drawn = MatchStats {
        draws: 10,
        wins: 0,
        ..all_won
    };
    let (low, high) = all_drawn.confidence_interval();
    assert_eq!(((low * 1e3).round(), (high * 1e3).round()), (361.0, 639.0));
    assert_eq!(MatchStats::default().confidence_interval(), (0.0, 1.0));
}

#[test]
fn the_ply_cap_counts_as_a_draw() {
    let result = play_game(&mut RandomBot::new(1), &mut RandomBot::new(2), 10).unwrap();
    assert_eq!(
        result,
        GameResult {
            outcome: None,
            plies: 10,
            forfeit: None
        }
    );
    let mut stats = MatchStats::default();
    stats.record(Side::White, &result);
    assert_eq!((stats.draws, stats.capped, stats.plies), (1, 1, 10));
    // The cap a match plays to unless told otherwise.
    assert_eq!(MatchOptions::new(1, 0).max_plies, MAX_PLIES);
    let won = GameResult {
        outcome: Some(Outcome::win(Side::White, EndReason::Throne)),
        plies: 50,
        forfeit: None,
    };
    stats.record(Side::Black, &won);
    assert_eq!((stats.wins, stats.draws, stats.losses), (0, 1, 1));
}

/// A bot that breaks the rules, to check that the arena catches it: it steps two cells at
/// once from the start.
struct Cheater;

impl Bot for Cheater {
    fn name(&self) -> String {
        "cheater".to_string()
    }
    fn choose(&mut self, _: &Position) -> Option<Move> {
        "f1-f3".parse().ok()
    }
}

/// A bot that gives up: no move in a game that goes on.
struct Quitter;

impl Bot for Quitter {
    fn name(&self) -> String {
        "quitter".to_string()
    }
    fn choose(&mut self, _: &Position) -> Option<Move> {
        None
    }
}

#[test]
fn an_illegal_move_is_an_error_naming_the_bot() {
    let e = play_game(&mut Cheater, &mut RandomBot::new(1), MAX_PLIES).unwrap_err();
    assert_eq!(e.bot, "cheater");
    assert_eq!(
        e.error,
        ChoiceError::Illegal {
            ply: 0,
            chooser: Side::White,
            chosen: "f1-f3".parse().unwrap(),
            reason: IllegalMove::NotAdjacent
        }
    );
    assert_eq!(
        e.to_string(),
        "bot cheater returned the illegal move f1-f3 at ply 0: the cells are not adjacent"
    );
    // The core's error is its source.
    let source = std::error::Error::source(&e).unwrap();
    assert_eq!(source.to_string(), e.error.to_string());
}

#[test]
fn no_move_is_an_error_naming_the_bot() {
    // Black gives up at its first turn, from the start or from any position.
    let e = play_game(&mut RandomBot::new(1), &mut Quitter, MAX_PLIES).unwrap_err();
    assert_eq!(e.bot, "quitter");
    assert_eq!(
        e.error,
        ChoiceError::NoMove {
            ply: 1,
            chooser: Side::Black
        }
    );
    assert_eq!(
        e.to_string(),
        "bot quitter returned no move at ply 1 in a game that goes on"
    );
    let start = *Game::play_out(Position::start(), 3, |g| g.legal_moves().first().copied())
        .unwrap()
        .position();
    assert_eq!(start.chooser(), Side::Black);
    let e = play_game_from(&mut RandomBot::new(1), &mut Quitter, &start, MAX_PLIES).unwrap_err();
    assert_eq!(e.error.ply(), 0, "plies count from the start given");
}

/// A match whose bot A breaks the rules in games 3 and 5 only (the games whose seeds its
/// factory is given) stops with game 3's error, whatever the concurrency: games 0 to 2
/// are counted and reported, none after 3.
#[test]
fn a_match_stops_at_the_first_game_a_bot_breaks_the_rules_in() {
    let seed = 9;
    // A plays White in even games, Black in odd ones (from the start position).
    let cheats = [game_seeds(seed, 3)[1], game_seeds(seed, 5)[1]];
    let a = move |s: u64| -> Box<dyn Bot + Send> {
        if cheats.contains(&s) {
            // It plays Black, so its f1-f3 is not even its piece.
            Box::new(Cheater)
        } else {
            Box::new(RandomBot::new(s))
        }
    };
    let b = |s: u64| Box::new(RandomBot::new(s)) as Box<dyn Bot + Send>;
    for threads in [1, 2, 3] {
        let options = MatchOptions::new(8, seed)
            .with_max_plies(30)
            .with_concurrency(threads);
        let mut reported = Vec::new();
        let e =
            run_match_of(("a", &a), ("b", &b), &options, |i, _, _| reported.push(i)).unwrap_err();
        assert_eq!(reported, [0, 1, 2], "{threads} threads");
        let MatchError::Game { game, error } = &e else {
            panic!("{e:?}");
        };
        assert_eq!((*game, error.bot.as_str()), (3, "cheater"));
        assert_eq!((error.error.ply(), error.error.chooser()), (1, Side::Black));
        assert!(
            e.to_string()
                .starts_with("game 3: bot cheater returned the illegal move f1-f3"),
            "{e}"
        );
    }
}

/// The one seeding scheme: game `i` of a match seeded `seed` is game `i` of pair 0 of a
/// round robin (Python's `agon.tournament`, whose test_seeding.py compares the two), each
/// bot seeded with its colour's seed, `player_seeds(seed_of(seed, &[0, i]))`.
#[test]
fn a_match_seeds_its_bots_by_colour_from_seed_of() {
    let (a, b, seed, max_plies) = ("greedy", "random", 11, 200);
    let mut played = Vec::new();
    let options = MatchOptions::new(6, seed).with_max_plies(max_plies);
    run_match_with(a, b, &options, |i, a_side, result| {
        played.push((i, a_side, *result))
    })
    .unwrap();
    assert_eq!(played.len(), 6);
    for (i, a_side, result) in played {
        let [white_seed, black_seed] = game_seeds(seed, i);
        assert_eq!(
            [white_seed, black_seed],
            agon_core::random::player_seeds(agon_core::random::seed_of(seed, &[0, u64::from(i)]))
        );
        assert_eq!(a_side, if i % 2 == 0 { Side::White } else { Side::Black });
        let (white, black) = if a_side == Side::White {
            (a, b)
        } else {
            (b, a)
        };
        let mut white = bot_by_name(white, white_seed).unwrap();
        let mut black = bot_by_name(black, black_seed).unwrap();
        let (again, _) = play_game_from(
            white.as_mut(),
            black.as_mut(),
            &Position::start(),
            max_plies,
        )
        .unwrap();
        assert_eq!(again, result, "game {i}");
    }
}
