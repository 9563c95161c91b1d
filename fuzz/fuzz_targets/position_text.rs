//! Position texts: any text is an error or a valid position; the canonical text of an
//! accepted position parses back to it and is a fixed point.
#![no_main]

use agon_core::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Position::from_text(text) {
        Ok(pos) => {
            let printed = pos.to_text().to_string();
            let again = Position::from_text(&printed)
                .unwrap_or_else(|e| panic!("printed text {printed:?} does not parse: {e}"));
            assert_eq!(again, pos, "{printed:?} parses to another position");
            assert_eq!(again.to_text().to_string(), printed, "not a fixed point");
            assert!(
                pos.to_text() == *printed.as_str(),
                "PositionText == str disagrees"
            );
            assert_eq!(again.hash(), pos.hash());
            agon_fuzz::check_position(&pos);
            // The board diagram never fails.
            let _ = pos.to_string();
        }
        Err(e) => assert!(e.offset() <= text.len(), "error offset past the end"),
    }
});
