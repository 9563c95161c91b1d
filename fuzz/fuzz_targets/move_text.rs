//! Move texts: `Move::from_str` (steps `f1-e1`, returns `f4>l1`) and the position-aware
//! `Position::parse_move` (which also reads the pair form `f1e1`). Accepted texts print
//! back to a text that parses to the same move, and that text is a fixed point.
#![no_main]

use agon_core::{Move, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Move>() {
        Ok(m) => {
            let printed = m.to_string();
            // The step and return forms have one spelling each: printing gives the input.
            assert_eq!(printed, text, "an accepted move prints as itself");
            assert_eq!(printed.parse::<Move>(), Ok(m), "{printed} parses back");
            assert_eq!(m.is_return(), printed.contains('>'));
            assert_eq!(m.is_pass(), printed == "pass");
        }
        Err(e) => assert!(e.offset() <= text.len(), "error offset past the end"),
    }
    // The pair form needs a position: the start has no captured piece, so every pair is a
    // step there. Check it against a position with a captured piece too.
    for pos in positions() {
        match pos.parse_move(text) {
            Ok(m) => {
                // The pair form stands for a return exactly when its piece is captured;
                // a pass is `pass` in every form.
                let pair = m.pair().to_string();
                let expected = match m.cells() {
                    Some((from, to)) => pos.move_from_pair(from, to),
                    None => Move::Pass,
                };
                assert_eq!(
                    pos.parse_move(&pair),
                    Ok(expected),
                    "pair {pair} parses back"
                );
                if m.from()
                    .is_none_or(|from| m.is_return() == pos.is_captured(from))
                {
                    assert_eq!(expected, m);
                }
                let long = m.to_string();
                assert_eq!(pos.parse_move(&long), Ok(m), "{long} parses back");
                assert_eq!(long.parse::<Move>(), Ok(m));
                if !text.contains(['-', '>']) {
                    assert_eq!(m, expected, "a pair reads by the captured mark");
                }
            }
            Err(e) => assert!(e.offset() <= text.len(), "error offset past the end"),
        }
    }
});

fn positions() -> [Position; 2] {
    let captured = "Qf1*,Ga5,Gb1*,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";
    [
        Position::start(),
        captured.parse().expect("a valid position"),
    ]
}
