//! Hostile input for the public constructors, builders and [`bot_by_name`]: arbitrary
//! spec strings, numbers and durations. Nothing may panic, overflow or allocate without
//! bound; a bot that was built plays a legal move (or `None` once the game is over), also
//! after absurd budgets and limits; and bots without a time limit repeat themselves under
//! a seed. Budgets stay tiny (or under a tiny time limit) so that the suite runs in
//! seconds in a debug build.
//!
//! Bugs these found, each with a plain regression test below:
//! - `with_time_limit(Duration::MAX)` made `AlphaBetaBot` panic on an overflowing
//!   `Instant + Duration` at its first search.
//! - `MctsBot::with_time_limit(Duration::MAX)` gave a name (`mcts:N:18446744073709551615999ms`)
//!   that `bot_by_name` refused.
//! - `bot_by_name` read a spec of any length, and echoed it whole (more than once) in its
//!   errors.
//! - `MatchStats::record` overflowed (a panic in debug builds) on counts near `u32::MAX`.
//!
//! The MCTS tree's bound and the game's hash table (which grew with every position a
//! search had ever visited) are checked by unit tests next to the code.

use std::sync::OnceLock;
use std::time::Duration;

use agon_bots::arena::{GameResult, MatchStats};
use agon_bots::{
    bot_by_name, AlphaBetaBot, Bot, Engine, GreedyBot, Limits, MctsBot, RandomBot, MAX_SPEC_LEN,
    MAX_TIME_LIMIT,
};
use agon_core::random::{random_move, Rng};
use agon_core::{Game, Position, Side};
use proptest::prelude::*;

/// Games to play in: the start, random games stopped early and mid-way, one stopped where
/// a captured piece must be returned, one played to its end, one drawn by repetition, and
/// a lone position whose throne ring is complete.
fn games() -> &'static [Game] {
    static GAMES: OnceLock<Vec<Game>> = OnceLock::new();
    GAMES.get_or_init(|| {
        let mut games = vec![Game::new()];
        let mut rng = Rng::new(17);
        let mut game = Game::new();
        let mut found_return = false;
        while !game.is_over() {
            let plies = game.moves().len();
            if plies == 7 || plies == 60 || (!found_return && game.position().must_return()) {
                found_return |= game.position().must_return();
                games.push(game.clone());
            }
            let m = random_move(game.position(), &mut rng).expect("the game goes on");
            game.push_unchecked(m);
        }
        assert!(found_return, "the sample game has no return");
        games.push(game);
        let mut drawn = Game::new();
        for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11"].repeat(2) {
            drawn.play(m.parse().unwrap()).unwrap();
        }
        assert!(drawn.is_over());
        games.push(drawn);
        let won: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gg6/qa1,ga2,gb1,gb2,gc1,gc2,gd1 b"
            .parse()
            .unwrap();
        games.push(Game::from_position(won));
        games
    })
}

fn game_index() -> impl Strategy<Value = usize> {
    0..games().len()
}

/// The bot plays a legal move in `game` and in its position alone, or `None` where there
/// is none; asked twice, so that a bot that survived a search is checked to be usable.
fn check_plays(bot: &mut dyn Bot, game: &Game) -> Result<(), TestCaseError> {
    for _ in 0..2 {
        let m = bot.choose_in_game(game);
        if game.is_over() {
            prop_assert_eq!(m, None, "{} moved in a finished game", bot.name());
        } else {
            prop_assert!(
                m.is_some_and(|m| game.is_legal(m)),
                "{} chose {:?} in {:?}",
                bot.name(),
                m,
                game
            );
        }
        let position = game.position();
        match bot.choose(position) {
            Some(m) => prop_assert!(position.is_legal(m), "{} chose {}", bot.name(), m),
            None => prop_assert!(!position.has_legal_move(), "{} found no move", bot.name()),
        }
    }
    Ok(())
}

/// Any duration, the extremes included.
fn any_duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        Just(Duration::ZERO),
        Just(Duration::MAX),
        Just(MAX_TIME_LIMIT),
        Just(MAX_TIME_LIMIT + Duration::from_nanos(1)),
        (0u64..5).prop_map(Duration::from_millis),
        any::<u64>().prop_map(Duration::from_nanos),
        any::<u64>().prop_map(Duration::from_millis),
        (any::<u64>(), 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n)),
    ]
}

/// A duration no test ever reaches: a day or more, up to `Duration::MAX`.
fn endless_duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        Just(Duration::MAX),
        Just(MAX_TIME_LIMIT),
        (86_400u64..).prop_map(Duration::from_secs),
        (86_400_000u64..).prop_map(Duration::from_millis),
    ]
}

/// A number as a spec might hold it: in and out of every range, signed, empty, spaced,
/// with other digits.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..100).prop_map(|n| n.to_string()),
        any::<u32>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<u128>().prop_map(|n| n.to_string()),
        Just(String::new()),
        Just("-1".to_string()),
        Just("+3".to_string()),
        Just(" 5".to_string()),
        Just("1e3".to_string()),
        Just("٣".to_string()),
        Just("0x10".to_string()),
        "[0-9]{0,70}",
    ]
}

/// Specs near the valid ones: a kind, then up to three parts, some with `ms`.
fn structured_spec() -> impl Strategy<Value = String> {
    let kind = prop_oneof![
        Just("random"),
        Just("greedy"),
        Just("mcts"),
        Just("alphabeta"),
        Just("MCTS"),
        Just("alpha beta"),
        Just(""),
        Just("mcts\u{0}"),
        Just("ｍｃｔｓ"),
    ];
    let part =
        (number_text(), prop::bool::ANY).prop_map(|(n, ms)| if ms { format!("{n}ms") } else { n });
    (
        kind,
        prop::collection::vec(part, 0..4),
        prop_oneof![Just(""), Just(" "), Just("\t\n")],
    )
        .prop_map(|(kind, parts, pad)| {
            let mut spec = format!("{pad}{kind}");
            for p in parts {
                spec.push(':');
                spec.push_str(&p);
            }
            spec.push_str(pad);
            spec
        })
}

/// Any text: arbitrary unicode, near-valid specs, and long ones.
fn any_spec() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        structured_spec(),
        structured_spec(),
        (structured_spec(), 1usize..2000).prop_map(|(s, n)| s.repeat(n)),
        (0usize..200_000).prop_map(|n| format!("mcts:{}1", "0".repeat(n))),
    ]
}

/// Whether a bot with this name answers quickly: a small budget or a tiny time limit.
fn is_cheap(name: &str) -> bool {
    let parts: Vec<&str> = name.split(':').collect();
    let number = |i: usize| {
        parts
            .get(i)
            .map(|t| t.trim_end_matches("ms").parse::<u64>())
    };
    match (parts[0], number(1), number(2)) {
        ("random" | "greedy", _, _) => true,
        ("mcts", Some(Ok(n)), _) if n <= 8 => true,
        ("alphabeta", Some(Ok(n)), _) if n <= 2 => true,
        (_, _, Some(Ok(ms))) => ms <= 3,
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Any text is read or refused with a short message; what is read names itself by a
    /// spec that reads back to the same bot.
    #[test]
    fn any_spec_is_read_or_refused(spec in any_spec(), seed in any::<u64>()) {
        match bot_by_name(&spec, seed) {
            Ok(bot) => {
                prop_assert!(spec.len() <= MAX_SPEC_LEN);
                let name = bot.name();
                let again = bot_by_name(&name, seed);
                prop_assert_eq!(again.map(|b| b.name()), Ok(name));
            }
            Err(error) => {
                let message = error.to_string();
                prop_assert!(!message.is_empty());
                prop_assert!(message.len() <= 1024, "{} bytes", message.len());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Near-valid specs that build a cheap bot give a bot that plays.
    #[test]
    fn a_bot_read_from_a_spec_plays(
        spec in structured_spec(),
        seed in any::<u64>(),
        game in game_index(),
    ) {
        if let Ok(mut bot) = bot_by_name(&spec, seed) {
            if is_cheap(&bot.name()) {
                check_plays(bot.as_mut(), &games()[game])?;
            }
        }
    }

    /// The constructors and builders take any number, seed and duration, and name the bot
    /// by a spec that `bot_by_name` reads back to the same name.
    #[test]
    fn constructors_take_any_numbers(
        playouts in any::<u32>(),
        depth in any::<u32>(),
        seed in any::<u64>(),
        limit in any_duration(),
    ) {
        let bots: Vec<Box<dyn Bot>> = vec![
            Box::new(RandomBot::new(seed)),
            Box::new(GreedyBot::new(seed)),
            Box::new(MctsBot::new(playouts, seed)),
            Box::new(MctsBot::new(playouts, seed).with_time_limit(limit)),
            Box::new(AlphaBetaBot::new(depth, seed)),
            Box::new(AlphaBetaBot::new(depth, seed).with_time_limit(limit)),
        ];
        for bot in bots {
            let name = bot.name();
            prop_assert!(name.len() <= MAX_SPEC_LEN, "{}", name);
            let again = bot_by_name(&name, seed);
            prop_assert_eq!(again.map(|b| b.name()), Ok(name));
        }
    }

    /// Every engine's name, each part at any value, fits in a spec and reads back as the
    /// same engine (the table is only allocated when it searches).
    #[test]
    fn every_engine_name_reads_back(
        limit in proptest::option::of(any_duration()),
        nodes in proptest::option::of(any::<u64>()),
        depth in proptest::option::of(any::<u32>()),
        threads in any::<usize>(),
        mib in any::<usize>(),
    ) {
        let mut limits = Limits::default();
        if let Some(limit) = limit {
            limits = limits.with_time(limit);
        }
        if let Some(nodes) = nodes {
            limits = limits.with_nodes(nodes.max(1));
        }
        if let Some(depth) = depth {
            limits = limits.with_depth(depth);
        }
        let engine = Engine::new(limits).with_threads(threads).with_hash_mib(mib);
        let name = engine.name();
        prop_assert!(name.len() <= MAX_SPEC_LEN, "{}", name);
        let again = bot_by_name(&name, 0);
        prop_assert_eq!(again.map(|b| b.name()), Ok(name));
    }

    /// Absurd budgets under a tiny time limit still play legal moves, in time.
    #[test]
    fn absurd_budgets_under_a_tiny_limit_play(
        playouts in prop_oneof![Just(u32::MAX), any::<u32>()],
        depth in prop_oneof![Just(u32::MAX), any::<u32>()],
        seed in any::<u64>(),
        limit in (0u64..=2).prop_map(Duration::from_millis),
        game in game_index(),
    ) {
        let game = &games()[game];
        check_plays(&mut MctsBot::new(playouts, seed).with_time_limit(limit), game)?;
        check_plays(&mut AlphaBetaBot::new(depth, seed).with_time_limit(limit), game)?;
    }

    /// A time limit no search reaches, however absurd, changes no move: the bots play as
    /// without one (the alpha-beta bot used to panic at `Duration::MAX`).
    #[test]
    fn endless_limits_change_nothing(
        playouts in 0u32..=6,
        depth in 0u32..=2,
        seed in any::<u64>(),
        limit in endless_duration(),
        game in game_index(),
    ) {
        let game = &games()[game];
        let mut mcts = MctsBot::new(playouts, seed).with_time_limit(limit);
        check_plays(&mut mcts, game)?;
        prop_assert_eq!(
            mcts.choose_in_game(game),
            MctsBot::new(playouts, seed).choose_in_game(game)
        );
        let mut alphabeta = AlphaBetaBot::new(depth, seed).with_time_limit(limit);
        check_plays(&mut alphabeta, game)?;
        prop_assert_eq!(
            alphabeta.choose_in_game(game),
            AlphaBetaBot::new(depth, seed).choose_in_game(game)
        );
    }

    /// The same seed and the same game give the same move, whatever the bot was asked
    /// before, for every bot without a time limit.
    #[test]
    fn the_same_seed_gives_the_same_move(
        spec in prop_oneof![
            Just("random".to_string()),
            Just("greedy".to_string()),
            (0u32..=6).prop_map(|n| format!("mcts:{}", n.max(1))),
            (1u32..=2).prop_map(|n| format!("alphabeta:{n}")),
        ],
        seed in any::<u64>(),
        game in game_index(),
        other in game_index(),
    ) {
        let (game, other) = (&games()[game], &games()[other]);
        let mut bot = bot_by_name(&spec, seed).unwrap();
        let first = bot.choose_in_game(game);
        bot.choose_in_game(other);
        bot.choose(other.position());
        prop_assert_eq!(bot.choose_in_game(game), first);
        prop_assert_eq!(bot_by_name(&spec, seed).unwrap().choose_in_game(game), first);
        prop_assert_eq!(
            bot.choose(game.position()),
            bot_by_name(&spec, seed).unwrap().choose(game.position())
        );
    }
}

// ---------------------------------------------------------------------------------------
// Regression tests for the bugs found.

/// `Instant::now() + Duration::MAX` overflowed and panicked in the alpha-beta search; the
/// Python bindings then held a poisoned bot.
#[test]
fn alphabeta_takes_duration_max() {
    let game = Game::new();
    let mut bot = AlphaBetaBot::new(2, 4).with_time_limit(Duration::MAX);
    let first = bot.choose_in_game(&game);
    assert!(game.is_legal(first.unwrap()));
    assert_eq!(bot.choose_in_game(&game), first);
    assert_eq!(AlphaBetaBot::new(2, 4).choose_in_game(&game), first);
    // The largest limit a spec holds, in milliseconds, too.
    let mut bot = bot_by_name("alphabeta:2:18446744073709551615ms", 4).unwrap();
    assert_eq!(bot.choose_in_game(&game), first);
}

/// A limit longer than `u64::MAX` milliseconds named the bot by a spec `bot_by_name`
/// refused.
#[test]
fn a_limit_too_long_to_write_is_lowered_to_one_that_reads_back() {
    for limit in [Duration::MAX, MAX_TIME_LIMIT + Duration::from_millis(1)] {
        let names = [
            MctsBot::new(3, 0).with_time_limit(limit).name(),
            AlphaBetaBot::new(3, 0).with_time_limit(limit).name(),
        ];
        assert_eq!(
            names,
            [
                "mcts:3:18446744073709551615ms",
                "alphabeta:3:18446744073709551615ms"
            ]
        );
        for name in names {
            assert_eq!(bot_by_name(&name, 0).unwrap().name(), name);
        }
    }
}

/// A spec of a megabyte was read whole and echoed in the error, twice.
#[test]
fn a_long_spec_is_refused_without_reading_it() {
    let spec = format!("mcts:{}1", "0".repeat(1 << 20));
    assert_eq!(
        bot_by_name(&spec, 0)
            .err()
            .map(|e| e.to_string())
            .as_deref(),
        Some("bot spec too long: 1048582 bytes, at most 128")
    );
    let padded = format!("{}random", " ".repeat(MAX_SPEC_LEN));
    assert!(bot_by_name(&padded, 0).is_err());
    assert_eq!(
        bot_by_name(&padded[MAX_SPEC_LEN - 10..], 0).unwrap().name(),
        "random"
    );
}

/// Numbers past every range are refused, not wrapped.
#[test]
fn numbers_out_of_range_are_refused() {
    for spec in [
        "mcts:99999999999999999999",
        "mcts:4294967296",
        "mcts:0",
        "mcts:-1",
        "alphabeta:0",
        "alphabeta:65",
        "alphabeta:18446744073709551615",
        "alphabeta:5:18446744073709551616ms",
        "alphabeta:5:-1ms",
        "alphabeta:5:1s",
        "mcts::5ms",
        "mcts:5:",
        "random:",
        ":",
        "",
    ] {
        assert!(bot_by_name(spec, 0).is_err(), "{spec:?}");
    }
}

/// Counting a game past `u32::MAX` overflowed (a panic in a debug build).
#[test]
fn match_counts_saturate() {
    let mut stats = MatchStats {
        games: u32::MAX,
        wins: u32::MAX,
        draws: u32::MAX,
        losses: u32::MAX,
        capped: u32::MAX,
        plies: u64::MAX,
    };
    let capped = GameResult {
        outcome: None,
        plies: 10,
        forfeit: None,
    };
    stats.record(Side::White, &capped);
    assert_eq!(
        (stats.games, stats.draws, stats.capped),
        (u32::MAX, u32::MAX, u32::MAX)
    );
    assert_eq!(stats.plies, u64::MAX);
    // Inconsistent counts set by hand give a meaningless interval, but no panic.
    let _ = stats.confidence_interval();
    let _ = stats.to_string();
}
