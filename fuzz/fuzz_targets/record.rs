//! Game records (`Record`'s `FromStr` and `Display`), variations included: any text is an
//! error or a record whose printed text parses back to the same record and is a fixed
//! point, and whose variations, checked again through `Record::add_variation`, are legal.
#![no_main]

use agon_core::{Record, Score};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Record>() {
        Ok(record) => {
            let printed = record.to_string();
            let again: Record = printed
                .parse()
                .unwrap_or_else(|e| panic!("printed record does not parse: {e}\n{printed}"));
            assert_eq!(
                again, record,
                "printed record parses to another:\n{printed}"
            );
            assert_eq!(again.tags(), record.tags());
            assert_eq!(again.result(), record.result());
            assert_eq!(
                again.to_string(),
                printed,
                "printed record is not a fixed point"
            );
            // A finished game carries its own score; an unfinished one any score.
            if let Some(outcome) = record.game().outcome() {
                assert_eq!(record.result(), Score::from_outcome(Some(outcome)));
            }
            for pos in record.game().positions() {
                agon_fuzz::check_position(pos);
            }
            // The variations the reader checked, the API takes again: moved onto a bare
            // record of the same game, they print the same text.
            let mut bare = record.clone();
            let mut rebuilt = record.clone();
            for ply in 0..record.game().moves().len() {
                while bare.remove_variation(ply, 0).is_some() {}
                while rebuilt.remove_variation(ply, 0).is_some() {}
            }
            assert!(!bare.has_variations());
            for ply in 0..record.game().moves().len() {
                for v in record.variations(ply) {
                    rebuilt
                        .add_variation(ply, v.clone())
                        .unwrap_or_else(|e| panic!("a read variation is refused: {e}"));
                }
            }
            assert_eq!(rebuilt, record);
        }
        Err(e) => assert!(e.offset() <= text.len(), "error offset past the end"),
    }
});
