//! The encoding's promises, over positions of seeded random games: every legal move has
//! one action and comes back from it, masks hold exactly the legal actions, the symmetry
//! maps agree with mapping moves, and observations agree under the symmetries.

use std::collections::HashSet;

use agon_core::random::{random_move, Rng};
use agon_core::{Cell, Game, Move, Position, Symmetry};
use agon_rl::{
    action_map, write_mask, write_observation, Action, Layout, ACTION_COUNT, CHANNEL_COUNT,
};
use proptest::prelude::*;

/// The positions of a seeded random game (at most `plies` moves), captures and returns
/// included.
fn positions(seed: u64, plies: usize) -> Vec<Position> {
    let mut game = Game::new();
    let mut rng = Rng::new(seed);
    while !game.is_over() && game.moves().len() < plies {
        let Some(m) = random_move(game.position(), &mut rng) else {
            break;
        };
        game.play(m).unwrap();
    }
    game.positions().to_vec()
}

fn legal(pos: &Position) -> Vec<Move> {
    pos.legal_moves().iter().copied().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn legal_moves_map_to_distinct_actions_and_back(seed in any::<u64>()) {
        for pos in positions(seed, 300) {
            let mut seen = HashSet::new();
            for m in legal(&pos) {
                let a = Action::from_move(m).expect("a legal move has an action");
                prop_assert!(a.index() < ACTION_COUNT);
                prop_assert_eq!(a.to_move(&pos), Some(m));
                prop_assert!(seen.insert(a), "two moves share action {}", a.index());
            }
        }
    }

    #[test]
    fn the_mask_holds_exactly_the_legal_actions(seed in any::<u64>()) {
        let mut mask = vec![true; ACTION_COUNT];
        for pos in positions(seed, 300) {
            let moves = legal(&pos);
            write_mask(moves.iter().copied(), &mut mask);
            let marked: Vec<usize> = (0..ACTION_COUNT).filter(|&a| mask[a]).collect();
            prop_assert_eq!(marked.len(), moves.len());
            for a in marked {
                let m = Action::new(a).unwrap().to_move(&pos).expect("a marked action has a move");
                prop_assert!(pos.is_legal(m), "action {} ({}) is marked but illegal", a, m);
            }
        }
    }

    #[test]
    fn symmetry_maps_agree_with_mapping_the_move(seed in any::<u64>()) {
        for pos in positions(seed, 200).into_iter().step_by(7) {
            for s in Symmetry::ALL {
                let image = s.position(&pos);
                for m in legal(&pos) {
                    let a = Action::from_move(m).unwrap();
                    let b = Action::from_move(s.apply_move(m)).unwrap();
                    prop_assert_eq!(a.apply(s), b);
                    prop_assert_eq!(usize::from(action_map(s)[a.index()]), b.index());
                    // The image of a legal move is legal in the image position.
                    prop_assert_eq!(b.to_move(&image), Some(s.apply_move(m)));
                }
            }
        }
    }

    #[test]
    fn observations_agree_under_the_symmetries(seed in any::<u64>()) {
        let len = Layout::Flat.observation_len();
        let (mut before, mut after) = (vec![0u8; len], vec![0u8; len]);
        for pos in positions(seed, 200).into_iter().step_by(11) {
            write_observation(&pos, Layout::Flat, &mut before);
            for s in Symmetry::ALL {
                write_observation(&s.position(&pos), Layout::Flat, &mut after);
                for channel in 0..CHANNEL_COUNT {
                    for c in Cell::all() {
                        prop_assert_eq!(
                            before[channel * 91 + c.index()],
                            after[channel * 91 + s.cell(c).index()],
                            "channel {} cell {} under {:?}", channel, c, s
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn every_symmetry_map_is_a_permutation_that_composes() {
    for s in Symmetry::ALL {
        let map = action_map(s);
        let mut hit = vec![false; ACTION_COUNT];
        for &b in map.iter() {
            assert!(!hit[usize::from(b)], "{s:?} maps two actions to {b}");
            hit[usize::from(b)] = true;
        }
        for t in Symmetry::ALL {
            for a in (0..ACTION_COUNT).step_by(13) {
                let a = Action::new(a).unwrap();
                assert_eq!(a.apply(s).apply(t), a.apply(s.then(t)));
            }
        }
        for a in 0..ACTION_COUNT {
            let a = Action::new(a).unwrap();
            assert_eq!(a.apply(s).apply(s.inverse()), a);
        }
    }
}

#[test]
fn the_blocks_and_known_actions() {
    let action = |text: &str| Action::from_move(text.parse().unwrap()).unwrap().index();
    // f1 is cell 40 (files a to e hold 6 + 7 + 8 + 9 + 10 cells); e1 lies north-west.
    assert_eq!(Cell::from_index(40).unwrap().to_string(), "f1");
    assert_eq!(action("f1-e1"), 40 * 6 + 5);
    assert_eq!(action("f1-f2"), 40 * 6);
    // Returns to the outer ring: a1 is the first outer cell, l6 the last.
    assert_eq!(action("f4>a1"), 546 + 43 * 30);
    assert_eq!(action("f4>l6"), 546 + 43 * 30 + 29);
    // The queen's returns to inner cells do not depend on where she stands.
    assert_eq!(action("f7>f6"), action("a1>f6"));
    assert!(action("f7>f6") >= 3276);
    assert_eq!(ACTION_COUNT, 3337);
    // Steps off the board have no move.
    let a1 = Cell::from_index(0).unwrap();
    let off = (0..6)
        .map(|d| Action::new(d).unwrap())
        .filter(|a| a.to_move(&Position::start()).is_none())
        .count();
    assert_eq!(off, 6 - a1.neighbours().len());
}

#[test]
fn observation_layouts_hold_the_same_planes() {
    for pos in positions(9, 120).into_iter().step_by(5) {
        let mut flat = vec![0.0f32; Layout::Flat.observation_len()];
        let mut axial = vec![0.0f32; Layout::Axial.observation_len()];
        write_observation(&pos, Layout::Flat, &mut flat);
        write_observation(&pos, Layout::Axial, &mut axial);
        for channel in 0..CHANNEL_COUNT {
            for c in Cell::all() {
                assert_eq!(
                    flat[channel * 91 + c.index()],
                    axial[channel * 121 + Layout::Axial.offset(c)]
                );
            }
        }
        // Off the board the axial planes are 0, but for the side-to-move plane.
        let on_board: HashSet<usize> = Cell::all().map(|c| Layout::Axial.offset(c)).collect();
        for channel in 0..CHANNEL_COUNT - 1 {
            for square in (0..121).filter(|q| !on_board.contains(q)) {
                assert_eq!(axial[channel * 121 + square], 0.0);
            }
        }
    }
}

#[test]
fn observation_channels_from_the_side_to_move() {
    let pos: Position = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf7*,ga2*,gb7*,gd1,gh1,gk7,gl2 b"
        .parse()
        .unwrap();
    let mut planes = vec![0u8; Layout::Flat.observation_len()];
    write_observation(&pos, Layout::Flat, &mut planes);
    let plane = |channel: usize| -> Vec<String> {
        Cell::all()
            .filter(|c| planes[channel * 91 + c.index()] == 1)
            .map(|c| c.to_string())
            .collect()
    };
    // Black to move: "own" is Black.
    assert_eq!(plane(0), ["f7"]);
    assert_eq!(plane(2), ["f1"]);
    assert_eq!(plane(4), ["a2", "b7", "f7"]);
    assert!(plane(5).is_empty());
    assert_eq!(plane(7), ["f6"]);
    assert_eq!(plane(8).len(), 6);
    assert_eq!(plane(9).len(), 91);
    assert!(plane(10).is_empty(), "Black to move");
}
