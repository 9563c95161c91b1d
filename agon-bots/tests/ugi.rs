//! The arena drives UGI engine processes (`ugi:` specs): good engines play, and each bad
//! one (crashing, hanging, late, illegal, unreadable) loses its game with the reason
//! named, while the match goes on with a fresh process.
//!
//! This test binary doubles as the fixture engines: run with the environment variable
//! `AGON_UGI_FIXTURE=MODE` and the filter `fixture_engine`, its one test
//! [`fixture_engine`] speaks UGI on stdin/stdout as MODE says and exits, so the tests need
//! no other program (the spec runs it through `env`).

use std::io::{BufRead, Write};
use std::time::Duration;

use agon_bots::arena::{run_match_with, MatchOptions, MatchReport, TimeControl};
use agon_bots::ugi::UgiSpec;
use agon_bots::{bot_by_name, Bot, ForfeitKind, RandomBot};
use agon_core::{Game, Move, Position, Rules};

/// The environment variable naming a fixture's behaviour.
const FIXTURE: &str = "AGON_UGI_FIXTURE";

/// When run as a fixture engine: a UGI engine whose moves are [`RandomBot`]'s under the
/// `Seed` option, that misbehaves as the mode says: `random` (behaves), `clock` (answers
/// garbage unless `go` carries the clock), `crash` (exits at the first `go`), `hang`
/// (never answers `go`), `illegal` (plays a move that is never legal), `unreadable`
/// (answers `bestmove ???`), `slow` (answers after 400 ms), `crash-later` (exits at its
/// fourth `go`). Otherwise a test that does nothing.
#[test]
fn fixture_engine() {
    let Ok(mode) = std::env::var(FIXTURE) else {
        return;
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut say = |line: &str| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let (mut rules, mut seed, mut game, mut goes) = (Rules::STANDARD, 0u64, Game::new(), 0);
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("ugi") => {
                say("id name fixture");
                say("option name Seed type spin default 0 min 0 max 1000000000");
                say("option name Rules type string default standard");
                say("ugiok");
            }
            Some("isready") => say("readyok"),
            Some("setoption") if words.len() >= 5 => {
                let value = words[4..].join(" ");
                match words[2] {
                    "Seed" => seed = value.parse().unwrap_or(0),
                    "Rules" => rules = value.parse().unwrap_or(Rules::STANDARD),
                    _ => {}
                }
            }
            Some("position") => {
                let at = words
                    .iter()
                    .position(|&w| w == "moves")
                    .unwrap_or(words.len());
                let start = if words.get(1) == Some(&"fen") {
                    Position::from_text_with_rules(&words[2..at].join(" "), rules).unwrap()
                } else {
                    Position::start_with_rules(rules)
                };
                game = Game::from_position(start);
                for m in words.iter().skip(at + 1) {
                    game.play(m.parse::<Move>().unwrap()).unwrap();
                }
            }
            Some("go") => {
                goes += 1;
                let m = RandomBot::new(seed).choose_in_game(&game).unwrap();
                match mode.as_str() {
                    "crash" => std::process::exit(3),
                    "crash-later" if goes == 4 => std::process::exit(3),
                    "hang" => std::thread::sleep(Duration::from_secs(30)),
                    "illegal" => say("bestmove f1-f3"),
                    "unreadable" => say("bestmove ???"),
                    "slow" => {
                        std::thread::sleep(Duration::from_millis(400));
                        say(&format!("bestmove {m}"));
                    }
                    "clock" if !line.contains(" p1time ") => say("bestmove noclock"),
                    _ => {
                        say("info depth 1 score cp 0 nodes 1 pv {m}");
                        say(&format!("bestmove {m}"));
                    }
                }
            }
            Some("quit") => break,
            _ => {}
        }
    }
    std::process::exit(0);
}

/// The spec of the fixture engine `mode`, with the limits `limits` (`"100ms:"`).
fn fixture(mode: &str, limits: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    let command = shlex_join(&[
        "env",
        &format!("{FIXTURE}={mode}"),
        exe.to_str().unwrap(),
        "fixture_engine",
        "--exact",
        "--nocapture",
        "--test-threads=1",
    ]);
    format!("ugi:{limits}{command}")
}

/// Words quoted for a spec (test paths hold no quotes).
fn shlex_join(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn play(a: &str, b: &str, options: MatchOptions) -> MatchReport {
    run_match_with(a, b, &options.with_records(true), |_, _, _| {}).unwrap()
}

#[test]
fn each_bad_engine_loses_its_games_with_the_reason_named_and_the_match_finishes() {
    let modes = [
        ("crash", ForfeitKind::Crash),
        ("hang", ForfeitKind::Hang),
        ("illegal", ForfeitKind::IllegalMove),
        ("unreadable", ForfeitKind::UnreadableMove),
        ("slow", ForfeitKind::TimeForfeit),
    ];
    // The matches run at once: the hang and the slow engine spend most of it waiting.
    let reports: Vec<MatchReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = modes
            .iter()
            .map(|&(mode, _)| {
                scope.spawn(move || {
                    let tc = TimeControl::PerMove(Duration::from_millis(100));
                    play(
                        &fixture(mode, ""),
                        "random",
                        MatchOptions::new(2, 1).with_time_control(tc),
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for ((mode, kind), report) in modes.into_iter().zip(reports) {
        // Both games played, both lost by the engine (A), the reason given for each.
        assert_eq!(
            (report.stats.games, report.stats.losses),
            (2, 2),
            "{mode}: {report}"
        );
        assert_eq!(report.stats.capped, 0);
        assert_eq!(report.forfeits.len(), 2, "{mode}");
        for (i, f) in report.forfeits.iter().enumerate() {
            assert_eq!(
                (f.game, f.a, f.forfeit.kind),
                (i as u32, true, kind),
                "{mode}: {f}"
            );
        }
        assert!(
            report
                .to_string()
                .contains(&format!("forfeits=[game 0: A {kind}: ")),
            "{report}"
        );
        // The record names the reason, and the result is the opponent's win.
        for (i, record) in report.records.iter().enumerate() {
            let text = record.to_string();
            assert!(text.contains(&format!("[Forfeit \"{kind}: ")), "{text}");
            let lost = if i % 2 == 0 { "0-1" } else { "1-0" };
            assert!(text.contains(&format!("[Result \"{lost}\"]")), "{text}");
            assert_eq!(text.parse::<agon_core::Record>().unwrap(), *record);
        }
    }
}

#[test]
fn an_engine_that_crashes_mid_game_loses_it_and_the_next_game_gets_a_fresh_process() {
    let options =
        MatchOptions::new(2, 3).with_time_control(TimeControl::PerMove(Duration::from_millis(200)));
    let report = play(&fixture("crash-later", ""), "greedy", options);
    assert_eq!(report.forfeits.len(), 2, "{report}");
    for record in &report.records {
        // The engine's three moves (and the opponent's) were played before it exited at
        // its fourth go; the game stops there.
        assert!((6..=8).contains(&record.game().moves().len()), "{record}");
        assert_eq!(record.tag("Termination").as_deref(), Some("abandoned"));
    }
}

#[test]
fn an_engine_that_cannot_start_loses_by_crash() {
    let report = play(
        "ugi:/nonexistent/agon-engine",
        "random",
        MatchOptions::new(2, 1),
    );
    assert_eq!(report.stats.losses, 2);
    assert!(report
        .forfeits
        .iter()
        .all(|f| f.forfeit.kind == ForfeitKind::Crash));
    assert!(report.forfeits[0].forfeit.detail.contains("cannot start"));
}

#[test]
fn with_a_node_budget_the_same_seeds_give_the_same_games() {
    let run = || {
        let options = MatchOptions::new(4, 11)
            .with_time_control(TimeControl::Nodes(300))
            .with_book(agon_bots::book::standard());
        play(&fixture("random", ""), "engine", options)
    };
    let (first, second) = (run(), run());
    assert!(first.forfeits.is_empty(), "{first}");
    // The node budget reached both bots' specs.
    assert!(
        first.a.starts_with("ugi:n300:") && first.b == "engine:n300",
        "{first}"
    );
    let texts = |r: &MatchReport| {
        r.records
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(&first), texts(&second));
    assert_eq!(first.records.len(), 4);
    // The engine's Seed option was set: another match seed gives other games.
    let other = play(
        &fixture("random", ""),
        "engine",
        MatchOptions::new(4, 12)
            .with_time_control(TimeControl::Nodes(300))
            .with_book(agon_bots::book::standard()),
    );
    assert_ne!(texts(&first), texts(&other));
}

#[test]
fn under_a_clock_the_engine_gets_both_times_in_go_and_no_side_loses_on_time() {
    let tc: TimeControl = "2+0.05".parse().unwrap();
    let report = play(
        &fixture("clock", ""),
        "greedy",
        MatchOptions::new(2, 5).with_time_control(tc),
    );
    assert!(report.forfeits.is_empty(), "{report}");
    assert_eq!(report.stats.games, 2);
    // The in-process bot's spec is unchanged (greedy takes no time), the engine's too.
    assert_eq!(report.b, "greedy");
}

#[test]
fn the_rule_set_is_sent_and_the_engine_plays_under_it() {
    // Under `ludii` passes are legal: an engine left on the standard rules would play
    // moves the harness refuses, or be refused its own positions.
    let options = MatchOptions::new(2, 2)
        .with_rules(Rules::LUDII)
        .with_max_plies(80);
    let report = play(&fixture("random", "n10:"), "random", options);
    assert!(report.forfeits.is_empty(), "{report}");
    assert!(report
        .records
        .iter()
        .all(|r| r.game().rules() == Rules::LUDII));
}

#[test]
fn a_ugi_spec_is_a_bot_spec_and_reads_its_limits() {
    let spec = fixture("random", "50ms:d3:");
    let bot = bot_by_name(&spec, 0).unwrap();
    assert_eq!(bot.name(), UgiSpec::parse(&spec).unwrap().to_string());
    assert!(bot.name().starts_with("ugi:50ms:d3:env "));
    let mut bot = bot_by_name(&spec, 4).unwrap();
    let game = Game::new();
    let m = bot.choose_in_game(&game).expect("the fixture plays");
    assert!(game.is_legal(m));
    assert_eq!(bot.forfeit(), None);
    // A bad engine names its fault once.
    let mut bad = bot_by_name(&fixture("illegal", ""), 0).unwrap();
    assert_eq!(bad.choose_in_game(&game), None);
    let forfeit = bad.forfeit().unwrap();
    assert_eq!(forfeit.kind, ForfeitKind::IllegalMove);
    assert!(forfeit.detail.starts_with("f1-f3 at ply 0: "), "{forfeit}");
    assert_eq!(bad.forfeit(), None);
    for (spec, message) in [
        ("ugi:", "bad command in bot \"ugi:\": no command"),
        ("ugi:n0:./e", "bad number \"n0\" in bot \"ugi:n0:./e\": expected a node budget from 1 to 18446744073709551615"),
        ("ugi:'x", "bad command in bot \"ugi:'x\": an unclosed quote or a trailing backslash"),
    ] {
        assert_eq!(bot_by_name(spec, 0).err().unwrap().to_string(), message);
    }
}
