//! The twelve symmetries of the board: their cell maps (checked against cube coordinates
//! computed by the reference crate), group laws, and invariance of the rules: legal move
//! lists, played moves, outcomes and perft.

mod common;

use std::collections::BTreeSet;

use agon_core::{perft, Cell, Move, Position, Symmetry, CELL_COUNT};
use common::{pos, random_game};

/// The image of cube coordinates under `s`, from its definition: the mirror through the
/// f file `(q, r, s) -> (-q, -s, -r)` if any, then `rotation` clockwise sixth turns
/// `(q, r, s) -> (-r, -s, -q)`.
fn expected_image(sym: Symmetry, (mut q, mut r, mut s): (i32, i32, i32)) -> (i32, i32, i32) {
    if sym.is_mirror() {
        (q, r, s) = (-q, -s, -r);
    }
    for _ in 0..sym.rotation() {
        (q, r, s) = (-r, -s, -q);
    }
    (q, r, s)
}

fn move_set(p: &Position) -> BTreeSet<Move> {
    p.legal_moves().iter().copied().collect()
}

/// Positions from a few random games, with captures and returns among them.
fn sample_positions() -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..6 {
        let game = random_game(Position::start(), 1000 + seed, 160);
        out.extend(game.into_iter().step_by(4));
    }
    // Hand-built ones with captured pieces and a near-complete throne ring.
    out.push(pos(
        "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf7*,ga2*,gb7*,gd1,gh1,gk7,gl2 b",
    ));
    out.push(pos(
        "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w",
    ));
    out.push(pos(
        "Qf5,Gb3,Gc5,Gd7,Gh9,Gk1,Gl5/qe5,gc4,gd1,gd6,gh1,gk7,gl2 w",
    ));
    out
}

#[test]
fn each_symmetry_maps_cells_as_its_definition_says() {
    for sym in Symmetry::ALL {
        for cell in Cell::all() {
            let i = cell.index();
            let want = expected_image(sym, agon_reference::cell_coords(i));
            let got = agon_reference::cell_coords(sym.cell(cell).index());
            assert_eq!(got, want, "{sym:?} on {cell}");
        }
    }
}

#[test]
fn the_half_turn_maps_index_i_to_90_minus_i() {
    let half = Symmetry::new(3, false);
    for cell in Cell::all() {
        assert_eq!(half.cell(cell).index(), 90 - cell.index(), "{cell}");
    }
    assert_eq!(half.inverse(), half);
}

#[test]
fn the_twelve_symmetries_are_distinct_and_keep_rings_and_adjacency() {
    let images: BTreeSet<Vec<usize>> = Symmetry::ALL
        .iter()
        .map(|s| Cell::all().map(|c| s.cell(c).index()).collect())
        .collect();
    assert_eq!(images.len(), 12);
    for sym in Symmetry::ALL {
        assert_eq!(sym.cell(Cell::THRONE), Cell::THRONE);
        let image: BTreeSet<Cell> = Cell::all().map(|c| sym.cell(c)).collect();
        assert_eq!(image.len(), CELL_COUNT, "{sym:?} is a bijection");
        for a in Cell::all() {
            assert_eq!(sym.cell(a).ring(), a.ring());
            for b in a.neighbours() {
                assert!(sym.cell(a).is_adjacent(sym.cell(b)));
            }
        }
    }
}

#[test]
fn composition_and_inverse_follow_the_group_laws() {
    for a in Symmetry::ALL {
        assert_eq!(a.then(a.inverse()), Symmetry::IDENTITY, "{a:?}");
        assert_eq!(a.inverse().then(a), Symmetry::IDENTITY, "{a:?}");
        assert_eq!(Symmetry::IDENTITY.then(a), a);
        assert_eq!(a.then(Symmetry::IDENTITY), a);
        for b in Symmetry::ALL {
            let ab = a.then(b);
            for c in Cell::all() {
                assert_eq!(ab.cell(c), b.cell(a.cell(c)), "{a:?} then {b:?} on {c}");
            }
            for c in Symmetry::ALL {
                assert_eq!(ab.then(c), a.then(b.then(c)), "associativity");
            }
        }
    }
    // Six sixth turns make a full turn; a mirror twice is the identity.
    let sixth = Symmetry::new(1, false);
    let mut r = Symmetry::IDENTITY;
    for k in 1..=6 {
        r = r.then(sixth);
        assert_eq!(r == Symmetry::IDENTITY, k == 6);
    }
    let mirror = Symmetry::new(0, true);
    assert_eq!(mirror.then(mirror), Symmetry::IDENTITY);
    assert_eq!(Symmetry::from_index(7), Some(Symmetry::new(1, true)));
}

#[test]
fn symmetries_map_legal_moves_onto_legal_moves() {
    for p in sample_positions() {
        let moves = move_set(&p);
        for sym in Symmetry::ALL {
            let image = sym.position(&p);
            let mapped: BTreeSet<Move> = moves.iter().map(|&m| sym.apply_move(m)).collect();
            assert_eq!(move_set(&image), mapped, "{sym:?} of {}", p.to_text());
            // Playing commutes with the symmetry.
            for &m in moves.iter().take(6) {
                assert_eq!(
                    image.play(sym.apply_move(m)).unwrap(),
                    sym.position(&p.play(m).unwrap()),
                    "{sym:?}, {m} in {}",
                    p.to_text()
                );
            }
            assert_eq!(image.outcome(), p.outcome());
            assert_eq!(sym.inverse().position(&image), p);
        }
    }
}

#[test]
fn perft_is_invariant_under_the_symmetries() {
    let positions = [
        Position::start(),
        pos("Qf5,Gb3,Gc5,Gd7,Gh9,Gk1,Gl5/qe5,gc4,gd1,gd6,gh1,gk7,gl2 w"),
        pos("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w"),
    ];
    for p in positions {
        let want = perft(&p, 3);
        for sym in Symmetry::ALL {
            assert_eq!(
                perft(&sym.position(&p), 3),
                want,
                "{sym:?} of {}",
                p.to_text()
            );
        }
    }
}

#[test]
fn the_start_is_symmetric_under_the_mirror_and_the_coloured_half_turn() {
    // RULES.md section 2: unchanged by the mirror through the f file, and by the half
    // turn with the colours swapped.
    let start = Position::start();
    assert_eq!(Symmetry::new(0, true).position(&start), start);
    let half = Symmetry::new(3, false).position(&start);
    let swapped: Vec<_> = half
        .pieces()
        .map(|(c, p)| (c, agon_core::Piece::new(p.side.other(), p.kind)))
        .collect();
    let back = Position::from_parts(start.turn(), swapped, half.captured()).unwrap();
    assert_eq!(back, start);
}

#[test]
fn canonical_forms_agree_on_images() {
    for p in sample_positions().into_iter().step_by(5) {
        let (canon, sym) = Symmetry::canonical(&p);
        assert_eq!(sym.position(&p), canon);
        for s in Symmetry::ALL {
            assert_eq!(Symmetry::canonical(&s.position(&p)).0, canon);
        }
    }
}
