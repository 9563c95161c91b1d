//! The arena: colours alternate, results are counted from the first bot's side, and the
//! statistics are exact.

use agon_bots::arena::{
    game_seeds, play_game, play_game_from, run_match, run_match_with, GameResult, MatchOptions,
    MatchStats, MAX_PLIES,
};
use agon_bots::{bot_by_name, Bot, RandomBot};
use agon_core::{EndReason, Move, Outcome, Position, Side};

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
        "games=200 wins=190 draws=6 losses=4 capped=1 score=0.965 ci95=[0.942, 0.988] mean_plies=150.0"
    );
    let all_won = MatchStats {
        games: 10,
        wins: 10,
        draws: 0,
        losses: 0,
        capped: 0,
        plies: 0,
    };
    assert_eq!(all_won.confidence_interval(), (1.0, 1.0));
    assert_eq!(MatchStats::default().confidence_interval(), (0.0, 1.0));
}

#[test]
fn the_ply_cap_counts_as_a_draw() {
    let result = play_game(&mut RandomBot::new(1), &mut RandomBot::new(2), 10);
    assert_eq!(
        result,
        GameResult {
            outcome: None,
            plies: 10
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
    };
    stats.record(Side::Black, &won);
    assert_eq!((stats.wins, stats.draws, stats.losses), (0, 1, 1));
}

/// A bot that breaks the rules, to check that the arena catches it.
struct Cheater;

impl Bot for Cheater {
    fn name(&self) -> String {
        "cheater".to_string()
    }
    fn choose(&mut self, _: &Position) -> Option<Move> {
        "f1-f3".parse().ok()
    }
}

#[test]
#[should_panic(
    expected = "bot cheater returned the illegal move f1-f3: the cells are not adjacent"
)]
fn an_illegal_move_is_caught() {
    play_game(&mut Cheater, &mut RandomBot::new(1), MAX_PLIES);
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
        );
        assert_eq!(again, result, "game {i}");
    }
}
