//! Every bot under every rule set (RULES.md section 8): legal complete games from the
//! start and from random middle games, passes, the chooser of a captor-placed queen,
//! forced wins whose answer differs from the standard one, the move limit, the book and
//! the arena under other rules.

use agon_bots::arena::{play_game_from, run_match_with, MatchOptions};
use agon_bots::{book, bot_by_name, AlphaBetaBot, Bot, Engine, Evaluation, GreedyBot, Limits};
use agon_core::random::{random_move, Rng};
use agon_core::{Cell, Game, Move, Position, Rules};

/// The presets and every single-option variant of the standard rules.
fn variants() -> Vec<Rules> {
    let sets: Vec<Rules> = Rules::presets_and_variants(40).collect();
    assert_eq!(sets.len(), 12, "two presets and ten single-option variants");
    sets
}

/// The bots of the test, small budgets (the tests run in debug builds too).
const SPECS: [&str; 5] = ["random", "greedy", "mcts:12", "alphabeta:2", "engine:n150"];

/// A position `plies` random moves from the start of `rules` (or the end of that game).
fn random_middle_game(rules: Rules, seed: u64, plies: usize) -> Position {
    let mut rng = Rng::new(seed);
    let mut game = Game::with_rules(rules);
    while game.moves().len() < plies && !game.is_over() {
        let before = *game.position();
        game.play(random_move(&before, &mut rng).unwrap()).unwrap();
        if game.is_over() {
            return before;
        }
    }
    *game.position()
}

#[test]
fn every_bot_plays_every_rule_set_legally() {
    for rules in variants() {
        for (k, white) in SPECS.iter().enumerate() {
            let black = SPECS[(k + 2) % SPECS.len()];
            let mut w = bot_by_name(white, k as u64).unwrap();
            let mut b = bot_by_name(black, k as u64 + 7).unwrap();
            // From the start, and from a middle game where pieces have been captured and
            // returned: play_game_from fails on an illegal move or a missing one.
            let starts = [
                Position::start_with_rules(rules),
                random_middle_game(rules, k as u64, 120),
            ];
            for start in starts {
                assert_eq!(start.rules(), rules);
                let (result, _) = play_game_from(w.as_mut(), b.as_mut(), &start, 24)
                    .unwrap_or_else(|e| panic!("{rules}: {e}"));
                assert!(result.plies <= 24);
                assert!(result.outcome.is_some() || result.plies == 24, "{rules}");
            }
        }
    }
}

#[test]
fn random_games_end_as_the_rules_say() {
    // Played to the end by bots that ask the game (the limit and two passes end them).
    for rules in ["ludii+limit=300", "standard+stuck=pass+limit=200"] {
        let rules: Rules = rules.parse().unwrap();
        let mut w = bot_by_name("random", 1).unwrap();
        let mut b = bot_by_name("greedy", 2).unwrap();
        let (result, _) = play_game_from(
            w.as_mut(),
            b.as_mut(),
            &Position::start_with_rules(rules),
            5000,
        )
        .unwrap();
        let outcome = result.outcome.expect("a limit ends every game");
        assert!(result.plies <= rules.limit().unwrap() as usize);
        assert_ne!(outcome.reason, agon_core::EndReason::NoLegalAction);
    }
}

/// White cannot step (the end of a random standard game by R12); Black has ten steps.
const STUCK: &str = "Qf6,Ge6,Ge7,Gf7,Gf8,Gg5,Gg6/qi7,gd6,ge4,ge5,gf5,gg7,gh4 w";

#[test]
fn every_bot_passes_where_the_rules_pass() {
    let standard = Position::from_text(STUCK).unwrap();
    assert!(standard.is_over(), "R12: White loses");
    for rules in [Rules::LUDII, "standard+stuck=pass".parse().unwrap()] {
        let pos = Position::from_text_with_rules(STUCK, rules).unwrap();
        assert_eq!(pos.legal_moves().to_vec(), [Move::Pass]);
        for spec in SPECS {
            let mut bot = bot_by_name(spec, 3).unwrap();
            assert_eq!(bot.choose(&pos), Some(Move::Pass), "{spec}");
            assert_eq!(
                bot.choose_in_game(&Game::from_position(pos)),
                Some(Move::Pass)
            );
        }
        // The engine analyses it: one line, the pass.
        let mut engine = Engine::new(Limits::depth(3));
        let analysis = engine.analyse(&pos, Limits::depth(3), 3).unwrap();
        assert_eq!(analysis.best_move(), Move::Pass);
        assert_eq!(analysis.lines.len(), 1);
    }
}

/// White's queen is captured on a1, the throne is empty, five White guards hold ring 1 and
/// the sixth can step in from h6 to g6; Black is far away. White to move (a return).
const RETURN: &str = "Qa1*,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qf11,gk1,gl1,gl2,gl3,gl4,gk7 w";

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

fn queen_return(to: &str) -> Move {
    Move::Return {
        from: cell("a1"),
        to: cell(to),
    }
}

fn searchers() -> Vec<(&'static str, Box<dyn Bot>)> {
    vec![
        ("engine:d6", Box::new(Engine::new(Limits::depth(6)))),
        ("alphabeta:5", Box::new(AlphaBetaBot::new(5, 1))),
    ]
}

#[test]
fn the_queen_return_that_wins_follows_the_rules() {
    // Standard: the queen returns to the throne, then h6-g6 completes the ring (R10).
    let standard = Position::from_text(RETURN).unwrap();
    // Not on the throne (V4): she returns to g6, the one empty ring-1 cell, steps to the
    // throne, and h6-g6 completes the ring: a win in 3 instead of 2.
    let rules: Rules = "standard+queen-return=not-throne".parse().unwrap();
    let not_throne = Position::from_text_with_rules(RETURN, rules).unwrap();
    for (name, mut bot) in searchers() {
        assert_eq!(bot.choose(&standard), Some(queen_return("f6")), "{name}");
        assert_eq!(bot.choose(&not_throne), Some(queen_return("g6")), "{name}");
    }
    let mut engine = Engine::new(Limits::depth(6));
    let score =
        |engine: &mut Engine, p: &Position| engine.analyse(p, Limits::depth(6), 1).unwrap().score();
    assert_eq!(score(&mut engine, &standard), Evaluation::Win(2));
    assert_eq!(score(&mut engine, &not_throne), Evaluation::Win(3));
}

#[test]
fn the_captor_places_the_queen_for_herself() {
    // Under queen-placer=captor Black chooses where White's queen returns: the throne and
    // g6 lose at once (the standard answer, f6, is White's win), so Black puts her
    // elsewhere. A search that scored the node for the side to move (White) would pick f6.
    let rules: Rules = "standard+queen-placer=captor".parse().unwrap();
    let pos = Position::from_text_with_rules(RETURN, rules).unwrap();
    assert_eq!(
        (pos.turn(), pos.chooser()),
        (agon_core::Side::White, agon_core::Side::Black)
    );
    let losing = [queen_return("f6"), queen_return("g6")];
    let mut bots = searchers();
    bots.push(("greedy", Box::new(GreedyBot::new(1))));
    for (name, mut bot) in bots {
        let m = bot.choose(&pos).unwrap();
        assert!(pos.is_legal(m), "{name}");
        assert!(!losing.contains(&m), "{name} placed the queen on {m}");
    }
    // The engine's score is the chooser's (Black's): not a loss.
    let analysis = Engine::new(Limits::depth(6))
        .analyse(&pos, Limits::depth(6), 1)
        .unwrap();
    assert_eq!(analysis.side, agon_core::Side::Black);
    assert!(
        !matches!(analysis.score(), Evaluation::Loss(_)),
        "{}",
        analysis.score()
    );
    // Owner-placed, the same position is a win in 2 for White.
    let mut engine = Engine::new(Limits::depth(6));
    let owner = Position::from_text(RETURN).unwrap();
    assert_eq!(
        engine.analyse(&owner, Limits::depth(6), 1).unwrap().score(),
        Evaluation::Win(2)
    );
}

#[test]
fn the_move_limit_draws_what_comes_after_it() {
    // The win in 2 of RETURN takes 3 plies: under a limit of 2 plies the game is drawn
    // first, under a limit of 3 it is still won (the last move ends it by R10).
    for (limit, won) in [(2, false), (3, true), (4, true)] {
        let rules = Rules::STANDARD.with_limit(limit).unwrap();
        let game = Game::from_position(Position::from_text_with_rules(RETURN, rules).unwrap());
        let mut engine = Engine::new(Limits::depth(6));
        let score = engine.analyse(&game, Limits::depth(6), 1).unwrap().score();
        assert_eq!(
            matches!(score, Evaluation::Win(_)),
            won,
            "limit {limit}: {score}"
        );
        let alphabeta = AlphaBetaBot::new(5, 1).choose_in_game(&game).unwrap();
        assert!(game.is_legal(alphabeta));
        if won {
            assert_eq!(alphabeta, queen_return("f6"));
        }
    }
    // The limit counts from the game's start: after the queen's return to the throne,
    // Black loses in 1 if the limit leaves White its next move, and draws if it does not.
    for (limit, lost) in [(2, false), (3, true)] {
        let rules = Rules::STANDARD.with_limit(limit).unwrap();
        let mut game = Game::from_position(Position::from_text_with_rules(RETURN, rules).unwrap());
        game.play(queen_return("f6")).unwrap();
        let score = Engine::new(Limits::depth(4))
            .analyse(&game, Limits::depth(4), 1)
            .unwrap()
            .score();
        assert_eq!(score == Evaluation::Loss(1), lost, "limit {limit}: {score}");
    }
}

#[test]
fn the_book_is_valid_under_every_rule_set() {
    let standard = book::standard();
    for rules in variants() {
        let openings = book::under_rules(&standard, rules);
        assert_eq!(openings.len(), standard.len(), "{rules}");
        for (p, q) in openings.iter().zip(&standard) {
            assert_eq!(p.rules(), rules);
            assert_eq!(p.to_text().to_string(), q.to_text().to_string());
            assert!(!p.is_over());
            // The same first moves are legal (a standard step is legal under every set).
            assert!(q.legal_moves().iter().all(|&m| p.is_legal(m)), "{rules}");
        }
    }
}

#[test]
fn the_arena_plays_under_the_rules_of_its_options() {
    for rules in [
        Rules::LUDII,
        "standard+queen-placer=captor".parse().unwrap(),
    ] {
        let options = MatchOptions::new(2, 3)
            .with_rules(rules)
            .with_book(book::standard())
            .with_max_plies(80);
        let report = run_match_with("greedy", "random", &options, |_, _, r| {
            assert!(r.plies <= 80);
        })
        .unwrap();
        assert_eq!(report.stats.games, 2);
    }
}

#[test]
fn repetition_is_a_draw_only_where_the_rules_say() {
    // Both queens shuffle: Black's g10-f11 would bring the start back a third time.
    let shuffle = [
        "f1-e1", "f11-g10", "e1-f1", "g10-f11", "f1-e1", "f11-g10", "e1-f1",
    ];
    let back: Move = "g10-f11".parse().unwrap();
    for (text, draw) in [("standard", true), ("standard+repetition=off", false)] {
        let rules: Rules = text.parse().unwrap();
        let mut game = Game::with_rules(rules);
        for m in shuffle {
            game.play(m.parse().unwrap()).unwrap();
        }
        let all = game.legal_moves().len();
        let analysis = Engine::new(Limits::depth(3))
            .analyse(&game, Limits::depth(3), all)
            .unwrap();
        let line = analysis.lines.iter().find(|l| l.pv[0] == back).unwrap();
        // A repetition draw is worth minus the contempt to the searching side, exactly.
        let contempt = Evaluation::Points(-Engine::DEFAULT_CONTEMPT);
        assert_eq!(line.score == contempt, draw, "{text}: {}", line.score);
        assert_eq!(line.pv.len() == 1, draw, "{text}: a draw ends the line");
        game.play(back).unwrap();
        assert_eq!(game.is_over(), draw);
    }
}
