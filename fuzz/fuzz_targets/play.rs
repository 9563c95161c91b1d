//! Games from the start driven by the input bytes. The first byte chooses the rule set
//! (`rules_from_byte`: bits for V1, V2 (two), V3, V4, V5, V6, V7; V8 and a limit of 40
//! follow from bits 1 and 2 mixed); each later byte is an action:
//!
//! - `0x00..=0xDF`: play legal move number `byte % count` (nothing once the game is over);
//! - `0xE0..=0xFE`: try the from-to pair given by the next two bytes (cell indices mod 91)
//!   through `Game::play(position.move_from_pair(from, to))`;
//! - `0xFF`: undo the last move.
//!
//! After every action the position keeps its invariants, agrees with the reference
//! generator, and the game's outcome follows RULES.md section 6; an illegal pair is
//! rejected and changes nothing.
#![no_main]

use agon_core::{Cell, CellSet, Game, Move, Position};
use agon_fuzz::{
    check_against_reference, check_game_against_reference, check_play_against_reference,
    check_position, check_transition, rules_from_byte,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, data)) = data.split_first() else {
        return;
    };
    let mut game = Game::from_position(Position::start_with_rules(rules_from_byte(first)));
    check_game(&game);
    let mut bytes = data.iter().copied();
    while let Some(b) = bytes.next() {
        match b {
            0x00..=0xDF => {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    assert!(game.is_over(), "no legal move in a game not over");
                    continue;
                }
                let m = moves[usize::from(b) % moves.len()];
                try_move(&mut game, m, true);
            }
            0xE0..=0xFE => {
                let (Some(from), Some(to)) = (bytes.next(), bytes.next()) else {
                    break;
                };
                let cell = |b: u8| Cell::from_index(usize::from(b) % 91).expect("in range");
                let m = game.position().move_from_pair(cell(from), cell(to));
                let legal = game.legal_moves().contains(&m);
                try_move(&mut game, m, legal);
            }
            0xFF => {
                let before = game.positions().len();
                let previous = game.positions().get(before.wrapping_sub(2)).copied();
                let undone = game.undo();
                assert_eq!(undone.is_some(), before > 1, "undo at the start");
                if let Some(previous) = previous {
                    assert_eq!(*game.position(), previous, "undo restores the position");
                    assert_eq!(game.outcome(), None, "a position moved from was not over");
                }
            }
        }
        check_game(&game);
    }
});

/// Plays `m`, which the legal move list does (`legal`) or does not contain, and checks
/// the game accepted or rejected it accordingly.
fn try_move(game: &mut Game, m: Move, legal: bool) {
    let before = *game.position();
    let plies = game.moves().len();
    assert_eq!(
        game.is_legal(m),
        legal,
        "is_legal({m}) in {}",
        before.to_text()
    );
    match game.play(m) {
        Ok(captured) => {
            assert!(legal, "{m} accepted but not listed in {}", before.to_text());
            let after = *game.position();
            assert_eq!(game.moves().len(), plies + 1);
            assert_eq!(game.moves().last(), Some(&m));
            // The move's captures are the enemy pieces it marked; a trapped piece
            // (between=trapped) is marked too but is not one of them.
            let marked = after.captured() - before.captured();
            let trapped = match m {
                Move::Step { to, .. } if before.traps(m) => CellSet::from(to),
                _ => CellSet::EMPTY,
            };
            assert_eq!(captured, marked - trapped, "reported captures");
            check_transition(&before, m, &after);
            check_play_against_reference(&before, m, &after);
        }
        Err(reason) => {
            assert!(
                !legal,
                "listed move {m} rejected ({reason}) in {}",
                before.to_text()
            );
            assert_eq!(
                *game.position(),
                before,
                "a rejected move changed the position"
            );
            assert_eq!(game.moves().len(), plies, "a rejected move was recorded");
        }
    }
}

/// The invariants of the current position and the outcome rules of the game (as the
/// reference reads the game's history under its rules).
fn check_game(game: &Game) {
    let pos = game.position();
    check_position(pos);
    check_against_reference(pos);
    assert_eq!(game.positions().len(), game.moves().len() + 1);
    let seen = game.positions().iter().filter(|p| *p == pos).count();
    assert_eq!(game.repetitions(), seen, "repetition count");
    check_game_against_reference(game);
}
