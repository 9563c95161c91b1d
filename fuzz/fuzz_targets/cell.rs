//! Cell names: any text either is an error or names a cell whose name is that very text.
#![no_main]

use agon_core::Cell;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Cell indices: in range they name a cell that maps back; out of range, none.
    for &b in data.iter().take(4) {
        match Cell::from_index(usize::from(b)) {
            Some(c) => assert_eq!(c.index(), usize::from(b), "index round trip of {b}"),
            None => assert!(usize::from(b) >= 91, "index {b} rejected"),
        }
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match text.parse::<Cell>() {
        Ok(cell) => {
            let name = cell.to_string();
            // Names have one spelling (no leading zero, no spaces), so it is the input.
            assert_eq!(name, text, "an accepted name prints as itself");
            assert_eq!(name.parse::<Cell>(), Ok(cell), "a printed name parses back");
            assert_eq!(Cell::from_index(cell.index()), Some(cell));
            let (q, r, s) = cell.cube();
            assert_eq!(Cell::from_cube(q, r, s), Some(cell));
            assert!(cell.ring().distance() <= 5);
        }
        Err(e) => assert!(
            e.offset() <= text.len(),
            "error offset {} past the end",
            e.offset()
        ),
    }
});
