//! Arbitrary sets of pieces through the validating constructor
//! `Position::from_parts_with_rules`.
//!
//! The first byte chooses the side to move (bit 0) and the layout (bit 1); the second the
//! rule set (`agon_fuzz::rules_from_byte`); then:
//!
//! - structured: fourteen cell bytes for White's queen and guards then Black's (missing
//!   bytes keep the start position's cells), then one byte choosing the captured side
//!   (bit 7) and which of its seven pieces are captured (bits 0-6);
//! - free: pairs `(cell, piece)` with the piece byte giving side (bit 0), kind (bit 1) and
//!   captured mark (bit 2), up to sixteen pieces: wrong counts, guards on the throne and
//!   captured pieces of both sides arise here.
//!
//! Invalid sets must be errors naming a fault they have (captured pieces of both sides are
//! one only under rules that do not trap); valid ones keep the invariants,
//! agree with the reference generator (and so do their children), and accept exactly the
//! listed moves among all moves of their pieces. The twelve board symmetries map the
//! position, its legal moves and its outcome onto those of its image.
#![no_main]

use agon_core::{
    Between, Cell, CellSet, Game, Kind, Move, Piece, Position, PositionError, Rules, Side, Symmetry,
};
use agon_fuzz::{
    check_against_reference, check_play_against_reference, check_position, check_transition,
    rules_from_byte,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [mode, rules, rest @ ..] = data else {
        return;
    };
    let (mode, rules) = (*mode, rules_from_byte(*rules));
    let turn = if mode & 1 == 0 {
        Side::White
    } else {
        Side::Black
    };
    let (pieces, captured) = if mode & 2 == 0 {
        structured(rest)
    } else {
        free(rest)
    };
    let faults = faults(&pieces, captured, rules);
    match Position::from_parts_with_rules(rules, turn, pieces.iter().copied(), captured) {
        Err(e) => assert!(
            faults.contains(&e),
            "{e:?} is not among the faults {faults:?}"
        ),
        Ok(pos) => {
            assert!(
                faults.is_empty(),
                "accepted despite {faults:?}: {}",
                pos.to_text()
            );
            check_valid(&pos);
        }
    }
});

fn cell(b: u8) -> Cell {
    Cell::from_index(usize::from(b) % 91).expect("in range")
}

fn structured(bytes: &[u8]) -> (Vec<(Cell, Piece)>, CellSet) {
    let start: Vec<(Cell, Piece)> = {
        let s = Position::start();
        let mut v: Vec<_> = s.pieces().collect();
        // Queen first, then guards, White then Black.
        v.sort_by_key(|(_, p)| (p.side, p.kind));
        v
    };
    let pieces: Vec<(Cell, Piece)> = start
        .iter()
        .enumerate()
        .map(|(i, &(c, p))| (bytes.get(i).map_or(c, |&b| cell(b)), p))
        .collect();
    let mut captured = CellSet::EMPTY;
    if let Some(&b) = bytes.get(14) {
        let side = if b & 0x80 == 0 { 0 } else { 7 };
        for i in 0..7 {
            if b & (1 << i) != 0 {
                captured.insert(pieces[side + i].0);
            }
        }
    }
    (pieces, captured)
}

fn free(bytes: &[u8]) -> (Vec<(Cell, Piece)>, CellSet) {
    let mut pieces = Vec::new();
    let mut captured = CellSet::EMPTY;
    for pair in bytes.chunks_exact(2).take(16) {
        let c = cell(pair[0]);
        let side = if pair[1] & 1 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let kind = if pair[1] & 2 == 0 {
            Kind::Queen
        } else {
            Kind::Guard
        };
        if pair[1] & 4 != 0 {
            captured.insert(c);
        }
        pieces.push((c, Piece::new(side, kind)));
    }
    (pieces, captured)
}

/// Every reason the parts are not a position, found independently of agon-core.
fn faults(pieces: &[(Cell, Piece)], captured: CellSet, rules: Rules) -> Vec<PositionError> {
    let mut faults = Vec::new();
    let mut seen = CellSet::EMPTY;
    let mut sides = [CellSet::EMPTY; 2];
    for &(c, p) in pieces {
        if !seen.insert(c) {
            faults.push(PositionError::TwoPiecesOnCell(c));
        }
        if c == Cell::THRONE && p.kind == Kind::Guard {
            faults.push(PositionError::GuardOnThrone);
        }
        sides[p.side.index()].insert(c);
    }
    for side in Side::ALL {
        let count = |kind| {
            pieces
                .iter()
                .filter(|(_, p)| *p == Piece::new(side, kind))
                .count()
        };
        if count(Kind::Queen) != 1 || count(Kind::Guard) != 6 {
            faults.push(PositionError::PieceCount(side));
        }
    }
    for c in captured - seen {
        faults.push(PositionError::CapturedEmptyCell(c));
    }
    if captured.intersects(sides[0])
        && captured.intersects(sides[1])
        && rules.between() != Between::Trapped
    {
        faults.push(PositionError::CapturedBothSides);
    }
    faults
}

fn check_valid(pos: &Position) {
    check_position(pos);
    check_against_reference(pos);
    let text = pos.to_text().to_string();
    assert_eq!(
        Position::from_text_with_rules(&text, pos.rules()),
        Ok(*pos),
        "text round trip of {text}"
    );
    let moves = pos.legal_moves();
    let actions = pos.actions();
    // Every step or return of every piece, and the pass, is accepted exactly when listed.
    let candidates = pos.occupied().into_iter().flat_map(|from| {
        Cell::all().flat_map(move |to| [Move::Step { from, to }, Move::Return { from, to }])
    });
    for m in candidates.chain([Move::Pass]) {
        let listed = moves.contains(&m);
        assert_eq!(pos.is_legal(m), listed, "is_legal({m}) in {text}");
        assert_eq!(pos.play(m).is_ok(), listed, "play({m}) in {text}");
        assert_eq!(
            actions.contains(m),
            listed,
            "MoveSet::contains({m}) in {text}"
        );
    }
    // A game from the position: over exactly when the position is (no history yet).
    let game = Game::from_position(*pos);
    assert_eq!(game.outcome(), pos.outcome(), "Game::from_position({text})");
    let expected = if pos.outcome().is_some() {
        Vec::new()
    } else {
        moves.to_vec()
    };
    assert_eq!(
        game.legal_moves().to_vec(),
        expected,
        "the game's moves in {text}"
    );
    for &m in moves.iter() {
        // Every legal move reads back from its pair and its long form.
        assert_eq!(pos.parse_move(&m.pair().to_string()), Ok(m), "pair of {m}");
        assert_eq!(pos.parse_move(&m.to_string()), Ok(m), "text of {m}");
        let next = pos.play(m).expect("a listed move plays");
        check_transition(pos, m, &next);
        check_play_against_reference(pos, m, &next);
        check_position(&next);
        check_against_reference(&next);
    }
    check_symmetries(pos);
}

/// The rules do not depend on the board's orientation: each image of the position has the
/// images of its moves and the same outcome, and all images share one canonical form.
fn check_symmetries(pos: &Position) {
    let sorted = |mut v: Vec<Move>| {
        v.sort_unstable();
        v
    };
    let moves = pos.legal_moves();
    let (canonical, by) = Symmetry::canonical(pos);
    assert_eq!(
        by.position(pos),
        canonical,
        "canonical() returns its symmetry"
    );
    for s in Symmetry::ALL {
        let image = s.position(pos);
        let text = image.to_text();
        assert_eq!(s.inverse().position(&image), *pos, "inverse of {s:?}");
        assert_eq!(image.captured(), s.cells(pos.captured()));
        assert_eq!(
            sorted(image.legal_moves().to_vec()),
            sorted(moves.iter().map(|&m| s.apply_move(m)).collect()),
            "{s:?} maps the legal moves of {} onto those of {text}",
            pos.to_text()
        );
        assert_eq!(image.outcome(), pos.outcome(), "outcome of {text}");
        assert_eq!(
            Symmetry::canonical(&image).0,
            canonical,
            "canonical form of {text}"
        );
        for t in [Symmetry::ALL[1], Symmetry::ALL[7]] {
            assert_eq!(
                s.then(t).position(pos),
                t.position(&image),
                "{s:?} then {t:?}"
            );
        }
    }
}
