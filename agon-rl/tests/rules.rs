//! The encoding under other rule sets (RULES.md section 8): the pass, the guard returns
//! of `guard-return=next-ring`, observations from the chooser's view, capped playouts and
//! replays of games with passes.

use agon_core::random::{random_move, Rng};
use agon_core::{Game, GuardReturn, Move, Position, Rules, Side, Symmetry};
use agon_rl::replay::{game_actions, replay, TrainingArrays};
use agon_rl::{
    action_count, action_map, packed_mask_len, random_playouts_capped, unpack_mask,
    write_observation, write_packed_mask, write_position_mask, Action, Layout, ACTION_COUNT,
    CHANNELS, MAX_ACTION_COUNT, NEXT_RING_RETURN_BASE, PACKED_MASK_LEN, PASS_ACTION,
};

fn random_game(rules: Rules, seed: u64, plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::with_rules(rules);
    while game.moves().len() < plies && !game.is_over() {
        let m = random_move(game.position(), &mut rng).unwrap();
        game.play(m).unwrap();
    }
    game
}

#[test]
fn the_sizes_of_the_action_spaces() {
    assert_eq!(
        (ACTION_COUNT, PASS_ACTION, NEXT_RING_RETURN_BASE),
        (3337, 3337, 3338)
    );
    assert_eq!(MAX_ACTION_COUNT, 3338 + 91 * 61);
    let next_ring = Rules::STANDARD.with_guard_return(GuardReturn::NextRing);
    for (rules, count, packed) in [
        (Rules::STANDARD, 3337, 418),
        (Rules::LUDII, 3338, 418),
        (next_ring, 8889, 1112),
    ] {
        assert_eq!(
            (action_count(rules), packed_mask_len(rules)),
            (count, packed)
        );
    }
    assert_eq!(PACKED_MASK_LEN, 418);
    // The standard numbering is untouched: the last standard action, the pass after it.
    assert_eq!(Action::new(3336).unwrap().index(), 3336);
    assert_eq!(Action::new(PASS_ACTION), None);
    assert_eq!(
        Action::new_in(PASS_ACTION, Rules::LUDII),
        Some(Action::PASS)
    );
    assert_eq!(Action::new_in(3338, Rules::LUDII), None);
    assert!(Action::new_in(MAX_ACTION_COUNT - 1, next_ring).is_some());
    assert_eq!(Action::new_in(MAX_ACTION_COUNT, next_ring), None);
    for s in Symmetry::ALL {
        assert_eq!(action_map(s).len(), ACTION_COUNT);
        assert_eq!(Action::PASS.apply(s), Action::PASS);
    }
}

/// Every legal move of many positions of every rule set has one action of its space, which
/// gives the move back; the mask marks exactly those; each symmetry maps them onto the
/// actions of the image position.
#[test]
fn every_legal_move_has_one_action_under_every_rule_set() {
    let rule_sets: Vec<Rules> = [
        "ludii",
        "standard+guard-return=next-ring",
        "standard+between=trapped+guard-return=next-ring+queen-placer=captor",
        "standard+stuck=pass+between=allowed+limit=400",
    ]
    .iter()
    .map(|t| t.parse().unwrap())
    .collect();
    let mut next_ring_returns = 0;
    for rules in rule_sets {
        let width = action_count(rules);
        for seed in 0..6 {
            let game = random_game(rules, seed, 400);
            for p in game.positions().iter().step_by(3) {
                let moves = p.legal_moves();
                let mut actions: Vec<usize> = moves
                    .iter()
                    .map(|&m| {
                        let a = Action::from_move_in(m, p).unwrap();
                        assert!(a.index() < width, "{rules}: {m} is {}", a.index());
                        assert_eq!(a.to_move(p), Some(m));
                        a.index()
                    })
                    .collect();
                next_ring_returns += actions
                    .iter()
                    .filter(|&&a| a >= NEXT_RING_RETURN_BASE)
                    .count();
                let mut mask = vec![true; width];
                write_position_mask(p, &mut mask);
                let marked: Vec<usize> = (0..width).filter(|&a| mask[a]).collect();
                actions.sort_unstable();
                assert_eq!(marked, actions, "{rules}");
                // The packed mask of the same moves, where from_move and from_move_in agree.
                if rules.guard_return() == GuardReturn::Outer {
                    let mut packed = vec![0xff; packed_mask_len(rules)];
                    write_packed_mask(moves.iter().copied(), &mut packed);
                    let mut unpacked = vec![false; width];
                    unpack_mask(&packed, &mut unpacked);
                    assert_eq!(unpacked, mask);
                }
                for s in Symmetry::ALL {
                    let image = s.position(p);
                    for &m in moves.iter() {
                        let a = Action::from_move_in(m, p).unwrap().apply(s);
                        assert_eq!(Some(a), Action::from_move_in(s.apply_move(m), &image));
                    }
                }
            }
        }
    }
    assert!(next_ring_returns > 0, "no guard returned to an inner cell");
}

/// White's queen captured on a1: under queen-placer=captor, Black chooses her cell.
const RETURN: &str = "Qa1*,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qf11,gk1,gl1,gl2,gl3,gl4,gk7 w";

#[test]
fn observations_take_the_choosers_view() {
    let plane = Layout::Flat.plane_len();
    let channel = |name: &str| CHANNELS.iter().position(|&c| c == name).unwrap() * plane;
    let observe = |p: &Position| {
        let mut obs = vec![0u8; Layout::Flat.observation_len()];
        write_observation(p, Layout::Flat, &mut obs);
        obs
    };
    let captor: Rules = "standard+queen-placer=captor".parse().unwrap();
    let owner = Position::from_text(RETURN).unwrap();
    let placed = Position::from_text_with_rules(RETURN, captor).unwrap();
    let (white, black) = (observe(&owner), observe(&placed));
    let a1 = "a1".parse::<agon_core::Cell>().unwrap().index();
    let f11 = "f11".parse::<agon_core::Cell>().unwrap().index();
    // Owner-placed: White's view, her own captured queen on a1.
    assert_eq!(white[channel("own-queen") + a1], 1);
    assert_eq!(white[channel("own-captured") + a1], 1);
    // Captor-placed: Black chooses, so Black's view: White's queen is the opponent's.
    assert_eq!(placed.chooser(), Side::Black);
    assert_eq!(black[channel("own-queen") + f11], 1);
    assert_eq!(black[channel("opponent-queen") + a1], 1);
    assert_eq!(black[channel("opponent-captured") + a1], 1);
    // White is still the side to move.
    assert!(black[channel("white-to-move")..][..plane]
        .iter()
        .all(|&v| v == 1));
}

#[test]
fn the_forbidden_plane_is_the_same_geometry_under_every_between() {
    let game = random_game(Rules::STANDARD, 5, 60);
    let p = *game.position();
    let mut standard = vec![0u8; Layout::Axial.observation_len()];
    write_observation(&p, Layout::Axial, &mut standard);
    assert!(standard.contains(&1));
    for text in ["standard+between=allowed", "standard+between=trapped"] {
        let rules: Rules = text.parse().unwrap();
        let mut other = vec![0u8; Layout::Axial.observation_len()];
        write_observation(&p.with_rules(rules).unwrap(), Layout::Axial, &mut other);
        assert_eq!(other, standard, "{text}");
    }
}

#[test]
fn capped_playouts_count_the_games_stopped_at_the_cap() {
    let rules: Rules = "standard+repetition=off".parse().unwrap();
    let start = Position::start_with_rules(rules);
    let cap = 120;
    let stats = random_playouts_capped(start, 30, 9, 2, cap);
    assert_eq!(stats.games, 30);
    assert_eq!(
        stats.white_wins + stats.black_wins + stats.draws + stats.capped,
        30
    );
    assert!(stats.capped > 0 && stats.max_plies as usize <= cap);
    assert_eq!(
        stats.lengths.get(&(cap as u64)).copied().unwrap_or(0),
        stats.capped
    );
    // The same games as one by one, whatever the threads.
    assert_eq!(random_playouts_capped(start, 30, 9, 1, cap), stats);
    // Under the ludii preset's limit, every game ends by itself.
    let ludii = random_playouts_capped(Position::start_with_rules(Rules::LUDII), 8, 2, 2, 10_000);
    assert_eq!(ludii.capped, 0);
    assert_eq!(
        ludii.reasons[agon_core::EndReason::NoLegalAction.index()],
        0
    );
}

#[test]
fn games_with_passes_replay_and_make_training_arrays() {
    let rules: Rules = "standard+stuck=pass+limit=600".parse().unwrap();
    let game = (0..400)
        .map(|seed| random_game(rules, seed, 600))
        .find(|g| g.moves().contains(&Move::Pass))
        .expect("a random game with a pass");
    let actions = game_actions(&game);
    assert!(actions.contains(&(PASS_ACTION as u16)));
    let again = replay(game.start(), actions.iter().map(|&a| usize::from(a))).unwrap();
    assert_eq!(again, game);
    let mut arrays = TrainingArrays::with_rules(Layout::Flat, true, false, rules);
    arrays.push_game(&game, 0..game.moves().len(), &[]).unwrap();
    let width = arrays.width();
    assert_eq!(width, 3338);
    for i in 0..arrays.len() {
        let row = &arrays.masks[i * width..(i + 1) * width];
        let a = usize::from(arrays.actions[i]);
        assert!(row[a], "the action played is legal");
        // A pass is the only action where it is legal, under every symmetry.
        assert_eq!(row[PASS_ACTION], a == PASS_ACTION);
        if a == PASS_ACTION {
            assert_eq!(row.iter().filter(|&&b| b).count(), 1);
        }
    }
}
