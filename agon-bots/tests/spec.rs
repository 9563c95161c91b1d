//! Bot specs refused with a typed error: each variant of `SpecError` from a
//! representative bad spec, with the fields a caller acts on and the message people read.

use agon_bots::arena::{run_match, run_match_with, MatchError, MatchOptions};
use agon_bots::{bot_by_name, Engine, SpecError, SpecNumber, MAX_SPEC_LEN};

fn refused(spec: &str) -> SpecError {
    match bot_by_name(spec, 0) {
        Ok(bot) => panic!("{spec:?} was read, as {}", bot.name()),
        Err(e) => e,
    }
}

fn bad_number(spec: &str, part: &str, number: SpecNumber, min: u64, max: u64) -> SpecError {
    SpecError::BadNumber {
        spec: spec.into(),
        part: part.into(),
        number,
        min,
        max,
    }
}

#[test]
fn each_variant_from_a_representative_spec() {
    let u32_max = u64::from(u32::MAX);
    let cases: Vec<(&str, SpecError, &str)> = vec![
        (
            "minimax:3",
            SpecError::UnknownBot {
                spec: "minimax:3".into(),
                name: "minimax".into(),
            },
            "unknown bot \"minimax:3\": expected random, greedy, mcts:PLAYOUTS, alphabeta:DEPTH or engine:TIME",
        ),
        (
            "mcts:lots",
            bad_number("mcts:lots", "lots", SpecNumber::Playouts, 1, u32_max),
            "bad number \"lots\" in bot \"mcts:lots\": expected playouts from 1 to 4294967295",
        ),
        (
            "mcts:4294967296",
            bad_number("mcts:4294967296", "4294967296", SpecNumber::Playouts, 1, u32_max),
            "bad number \"4294967296\" in bot \"mcts:4294967296\": expected playouts from 1 to 4294967295",
        ),
        (
            "mcts:",
            bad_number("mcts:", "", SpecNumber::Playouts, 1, u32_max),
            "bad number \"\" in bot \"mcts:\": expected playouts from 1 to 4294967295",
        ),
        (
            "alphabeta:65",
            bad_number("alphabeta:65", "65", SpecNumber::Depth, 1, 64),
            "bad number \"65\" in bot \"alphabeta:65\": expected a depth from 1 to 64",
        ),
        (
            "alphabeta:5:1s",
            bad_number("alphabeta:5:1s", "1s", SpecNumber::TimeLimit, 0, u64::MAX),
            "bad time limit \"1s\" in bot \"alphabeta:5:1s\": expected like 500ms, from 0ms to 18446744073709551615ms",
        ),
        (
            "random:5",
            SpecError::ExtraPart {
                spec: "random:5".into(),
                part: "5".into(),
            },
            "extra part \"5\" in bot \"random:5\": random takes no budget",
        ),
        (
            "mcts:10:5ms:x",
            SpecError::ExtraPart {
                spec: "mcts:10:5ms:x".into(),
                part: "x".into(),
            },
            "extra part \"x\" in bot \"mcts:10:5ms:x\": expected mcts[:PLAYOUTS[:TIMEms]]",
        ),
        (
            "alphabeta:3:5ms:",
            SpecError::ExtraPart {
                spec: "alphabeta:3:5ms:".into(),
                part: "".into(),
            },
            "extra part \"\" in bot \"alphabeta:3:5ms:\": expected alphabeta[:DEPTH[:TIMEms]]",
        ),
        (
            "engine:x3",
            SpecError::UnknownPart {
                spec: "engine:x3".into(),
                part: "x3".into(),
            },
            "bad part \"x3\" in bot \"engine:x3\": expected like 100ms, n50000, d8, t2 or h64",
        ),
        (
            "engine:d5:d6",
            SpecError::RepeatedPart {
                spec: "engine:d5:d6".into(),
                part: "d6".into(),
            },
            "repeated part \"d6\" in bot \"engine:d5:d6\"",
        ),
        (
            "engine:n0",
            bad_number("engine:n0", "n0", SpecNumber::Nodes, 1, u64::MAX),
            "bad number \"n0\" in bot \"engine:n0\": expected a node budget from 1 to 18446744073709551615",
        ),
        (
            "engine:d101",
            bad_number("engine:d101", "d101", SpecNumber::Depth, 1, 100),
            "bad number \"d101\" in bot \"engine:d101\": expected a depth from 1 to 100",
        ),
        (
            "engine:t65",
            bad_number("engine:t65", "t65", SpecNumber::Threads, 1, 64),
            "bad number \"t65\" in bot \"engine:t65\": expected threads from 1 to 64",
        ),
        (
            "engine:h4097",
            bad_number("engine:h4097", "h4097", SpecNumber::HashMib, 1, 4096),
            "bad number \"h4097\" in bot \"engine:h4097\": expected a table size in MiB from 1 to 4096",
        ),
        (
            "engine:-1ms",
            bad_number("engine:-1ms", "-1ms", SpecNumber::TimeLimit, 0, u64::MAX),
            "bad time limit \"-1ms\" in bot \"engine:-1ms\": expected like 500ms, from 0ms to 18446744073709551615ms",
        ),
    ];
    for (spec, error, message) in cases {
        let got = refused(spec);
        assert_eq!(got, error, "{spec:?}");
        assert_eq!(got.to_string(), message, "{spec:?}");
    }
}

#[test]
fn a_spec_too_long_is_refused_unread() {
    let spec = format!("mcts:{}", "1".repeat(MAX_SPEC_LEN));
    let err = refused(&spec);
    assert_eq!(
        err,
        SpecError::TooLong {
            len: MAX_SPEC_LEN + 5
        }
    );
    assert_eq!(
        err.to_string(),
        format!(
            "bot spec too long: {} bytes, at most {MAX_SPEC_LEN}",
            MAX_SPEC_LEN + 5
        )
    );
}

#[test]
fn the_engine_refuses_the_spec_of_another_bot() {
    let err = Engine::from_spec("mcts:5").err().unwrap();
    assert_eq!(
        err,
        SpecError::NotEngine {
            spec: "mcts:5".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "not an engine spec: \"mcts:5\": expected engine or engine:PART, like engine:100ms"
    );
    // Through `bot_by_name`, the engine's errors are the same.
    assert_eq!(
        Engine::from_spec("engine:t0").err(),
        bot_by_name("engine:t0", 0).err()
    );
}

#[test]
fn the_range_in_the_error_is_the_range_read() {
    for spec in [
        "mcts:0",
        "alphabeta:0",
        "engine:d0",
        "engine:t0",
        "engine:h0",
        "engine:n0",
    ] {
        let SpecError::BadNumber { part, min, max, .. } = refused(spec) else {
            panic!("{spec:?}: not a bad number");
        };
        let prefix = part.trim_end_matches(|c: char| c.is_ascii_digit());
        let base = &spec[..spec.len() - part.len()];
        for n in [min, max] {
            // The bounds themselves are read (a table of `max` MiB is only allocated on
            // the first search, so reading it is cheap).
            assert!(
                bot_by_name(&format!("{base}{prefix}{n}"), 0).is_ok(),
                "{spec:?} {n}"
            );
        }
        let above = max
            .checked_add(1)
            .map_or("18446744073709551616".to_string(), |n| n.to_string());
        assert!(
            bot_by_name(&format!("{base}{prefix}{above}"), 0).is_err(),
            "{spec:?}"
        );
    }
}

#[test]
fn the_error_is_a_standard_error() {
    fn takes_error(e: &(dyn std::error::Error + Send + Sync + 'static)) -> String {
        assert!(e.source().is_none());
        e.to_string()
    }
    let err = refused("chess");
    assert_eq!(takes_error(&err), err.to_string());
    // `?` converts it into the usual boxed errors.
    let boxed = || -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        bot_by_name("chess", 0)?;
        Ok(())
    };
    assert_eq!(boxed().unwrap_err().to_string(), err.to_string());
    let io = std::io::Error::other(err.clone());
    assert_eq!(io.to_string(), err.to_string());
}

#[test]
fn the_arena_passes_the_error_on() {
    assert_eq!(
        run_match("greedy", "minimax", 2, 0, |_, _, _| {}).err(),
        Some(MatchError::Spec(refused("minimax")))
    );
    assert_eq!(
        run_match_with("engine:x", "random", &MatchOptions::new(2, 0), |_, _, _| {}).err(),
        Some(MatchError::Spec(refused("engine:x")))
    );
}
