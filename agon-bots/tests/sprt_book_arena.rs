//! The SPRT's arithmetic against published figures, the book, and matches with a book,
//! a time control and an SPRT.

use std::collections::HashSet;
use std::time::Duration;

use agon_bots::arena::{run_match_with, with_time_control, MatchOptions};
use agon_bots::{book, elo_of_score, expected_score, Decision, Sprt, SprtError};

#[test]
fn wald_bounds_match_the_published_ones() {
    // cutechess-cli and fishtest print (-2.94, 2.94) for alpha = beta = 0.05.
    let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().bounds();
    assert!((lower - (-2.944_438_979)).abs() < 1e-6, "{lower}");
    assert!((upper - 2.944_438_979).abs() < 1e-6, "{upper}");
    // alpha = 0.05, beta = 0.10: ln(0.1 / 0.95) and ln(0.9 / 0.05).
    let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.10).unwrap().bounds();
    assert!((lower - (-2.251_291_799)).abs() < 1e-6);
    assert!((upper - 2.890_371_758).abs() < 1e-6);
}

#[test]
fn bayes_elo_llr_matches_a_published_example() {
    // github.com/jw1912/SPRT, README: W 4307, L 4063, D 8620, [0, 3] -> "LLR: 2.47".
    let sprt = Sprt::new(0.0, 3.0, 0.05, 0.05).unwrap();
    let llr = sprt.llr_bayes_elo(4307, 8620, 4063);
    assert!((llr - 2.467).abs() < 0.001, "{llr}");
    assert!(llr < sprt.bounds().1, "continue playing, as published");
}

#[test]
fn logistic_llr_follows_its_formula_and_symmetries() {
    let sprt = Sprt::new(0.0, 3.0, 0.05, 0.05).unwrap();
    // The same games by the normal approximation of the trinomial (computed by hand):
    // s = 0.50688, var = 0.24752 / game, s0 = 0.5, s1 = 0.504317.
    let llr = sprt.llr(4307, 8620, 4063);
    assert!((llr - 2.992).abs() < 0.001, "{llr}");
    // Swapping wins and losses under mirrored hypotheses mirrors the LLR.
    let mirrored = Sprt::new(-3.0, 0.0, 0.05, 0.05).unwrap();
    assert!((mirrored.llr(4063, 8620, 4307) + llr).abs() < 1e-9);
    // Twice the games with the same proportions: twice the LLR.
    assert!((sprt.llr(8614, 17240, 8126) - 2.0 * llr).abs() < 1e-9);
    // A score halfway between the hypotheses carries no evidence.
    let even = Sprt::new(-10.0, 10.0, 0.05, 0.05).unwrap();
    assert!(even.llr(300, 400, 300).abs() < 1e-12);
}

#[test]
fn decisions_and_errors() {
    let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
    assert_eq!(sprt.decision(0, 0, 0), Decision::Continue);
    // Below Sprt::MIN_GAMES nothing is decided, however far the LLR: an all-draw or
    // all-win start gives it next to no variance.
    let wide = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
    assert!(wide.llr(0, 29, 0) < wide.bounds().0 && wide.llr(29, 0, 0) > wide.bounds().1);
    assert_eq!(wide.decision(0, 29, 0), Decision::Continue);
    assert_eq!(wide.decision(29, 0, 0), Decision::Continue);
    assert_eq!(wide.decision(0, 30, 0), Decision::AcceptH0);
    assert_eq!(wide.decision(30, 0, 0), Decision::AcceptH1);
    assert_eq!(sprt.decision(400, 200, 250), Decision::AcceptH1);
    assert_eq!(sprt.decision(250, 200, 400), Decision::AcceptH0);
    assert_eq!(Sprt::new(0.0, 0.0, 0.05, 0.05), Err(SprtError::EloOrder));
    assert_eq!(
        Sprt::new(f64::NAN, 1.0, 0.05, 0.05),
        Err(SprtError::EloOrder)
    );
    assert_eq!(Sprt::new(0.0, 1.0, 0.5, 0.05), Err(SprtError::ErrorRate));
    assert!((elo_of_score(expected_score(123.0)) - 123.0).abs() < 1e-9);
}

#[test]
fn the_standard_book_is_varied_and_playable() {
    let openings = book::standard();
    assert_eq!(openings.len(), 300);
    let distinct: HashSet<u64> = openings.iter().map(|p| p.hash()).collect();
    assert_eq!(distinct.len(), 300);
    assert!(openings
        .iter()
        .all(|p| !p.is_over() && p.captured().is_empty()));
    let black_to_move = openings
        .iter()
        .filter(|p| p.turn() == agon_core::Side::Black)
        .count();
    assert!((50..=250).contains(&black_to_move), "{black_to_move}");
}

#[test]
fn book_openings_are_played_twice_with_colours_swapped() {
    let openings = book::standard();
    let options = MatchOptions::new(4, 5)
        .with_book(openings[..2].to_vec())
        .with_max_plies(40);
    let mut sides = Vec::new();
    let report = run_match_with("random", "greedy", &options, |i, a_side, r| {
        assert!(r.plies <= 40);
        sides.push((i, a_side));
    })
    .unwrap();
    assert_eq!(report.stats.games, 4);
    // Each opening twice, A on the side to move first, then on the other.
    for pair in sides.chunks(2) {
        assert_ne!(pair[0].1, pair[1].1);
    }
    assert_eq!(sides[0].1, openings[0].turn());
}

#[test]
fn a_decided_sprt_stops_the_match() {
    let options = MatchOptions::new(200, 1)
        .with_sprt(Sprt::new(0.0, 200.0, 0.05, 0.05).unwrap())
        .with_concurrency(2);
    let report = run_match_with("greedy", "random", &options, |_, _, _| {}).unwrap();
    let (_, _, decision) = report.sprt.unwrap();
    assert_eq!(decision, Decision::AcceptH1);
    assert!(report.stats.games < 200, "{}", report.stats.games);
    assert_eq!(report.stats.games % 2, 0);
}

#[test]
fn time_controls_reach_the_bots() {
    let t = Duration::from_millis(5);
    assert_eq!(with_time_control("engine:n100", t), "engine:n100:5ms");
    let options = MatchOptions::new(2, 1)
        .with_time_per_move(t)
        .with_book(book::standard())
        .with_max_plies(6);
    let report = run_match_with("engine", "alphabeta:2", &options, |_, _, _| {}).unwrap();
    assert_eq!(
        (report.a.as_str(), report.b.as_str()),
        ("engine:5ms", "alphabeta:2:5ms")
    );
    assert_eq!(report.stats.capped, 2);
}
