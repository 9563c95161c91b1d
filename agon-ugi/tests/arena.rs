//! The arena drives `agon-ugi` processes (`ugi:` specs) against in-process bots: under a
//! node budget the same seeds give the same games, move by move, and under a game clock
//! no side loses on time. (The fixture engines of agon-bots' tests cover the bad engines.)

use agon_bots::arena::{run_match_with, MatchOptions, MatchReport, TimeControl};

/// The spec of the `agon-ugi` binary built for these tests, with `limits` (`"n500:"`).
fn agon_ugi(limits: &str) -> String {
    format!("ugi:{limits}'{}'", env!("CARGO_BIN_EXE_agon-ugi"))
}

fn play(a: &str, b: &str, options: MatchOptions) -> MatchReport {
    run_match_with(a, b, &options.with_records(true), |_, _, _| {}).unwrap()
}

/// The moves of each game of a report, as text.
fn moves(report: &MatchReport) -> Vec<Vec<String>> {
    report
        .records
        .iter()
        .map(|r| r.game().moves().iter().map(ToString::to_string).collect())
        .collect()
}

#[test]
fn under_a_node_budget_the_same_seeds_give_the_same_games_move_by_move() {
    // A debug build searches slowly: a small budget and short games keep this to seconds.
    let run = || {
        let options = MatchOptions::new(2, 7)
            .with_time_control(TimeControl::Nodes(400))
            .with_book(agon_bots::book::standard())
            .with_max_plies(24);
        play(&agon_ugi(""), "engine", options)
    };
    let (first, second) = (run(), run());
    assert!(first.forfeits.is_empty(), "{first}");
    // The budget reached both sides: the process through `go nodes 400`.
    assert!(
        first.a.starts_with("ugi:n400:") && first.b == "engine:n400",
        "{first}"
    );
    assert_eq!(first.records.len(), 2);
    assert!(
        first.records.iter().all(|r| !r.game().moves().is_empty()),
        "{first}"
    );
    assert_eq!(moves(&first), moves(&second));
    // The records (players, seeds, moves, results) are equal too.
    assert_eq!(first.records, second.records);
    // Games 0 and 1 start from the same book opening, colours swapped, and are the same
    // game: the process plays the in-process engine's moves (the engine at a node budget
    // depends on no seed).
    let [zero, one] = &moves(&first)[..] else {
        panic!("two games")
    };
    assert_eq!(zero, one);
}

#[test]
fn under_a_game_clock_no_side_loses_on_time() {
    // The engine manages the clock it is sent in `go p1time ... p2inc`. (A debug build on
    // a loaded machine: 3 s a game, so that a time forfeit means a fault, not the load; the
    // example `arena_cost` measures 1 s + 10 ms on a release build: docs/UGI.md.)
    let tc: TimeControl = "3+0.05".parse().unwrap();
    let options = MatchOptions::new(2, 3)
        .with_time_control(tc)
        .with_max_plies(20);
    let report = play(&agon_ugi(""), "greedy", options);
    assert!(report.forfeits.is_empty(), "{report}");
    assert_eq!(report.stats.games, 2);
    // Every move of the engine came within its clock: the slowest well under it.
    assert!(
        report.longest_move[0] < std::time::Duration::from_secs(2),
        "{report}"
    );
}
