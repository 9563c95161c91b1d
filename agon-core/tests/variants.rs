//! One test (or a few) per option value of RULES.md section 8: hand-built positions where
//! the option changes the answer, each assertion failing under the option's other value.
//! Then the rule set's text form, records with a Rules tag, and perft under several rule
//! sets against the reference.

mod common;

use agon_core::{
    perft, Between, Capture, Cell, CellSet, EmptyThroneRing, EndReason, Game, GuardReturn,
    IllegalMove, Kind, Move, Outcome, ParseErrorKind, Piece, Position, QueenPlacer, QueenReturn,
    Record, Repetition, Rules, Side, Stuck,
};
use common::{ends_as, pos_with, single_option_rule_sets, to_ref};

const S: Rules = Rules::STANDARD;

fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn cells(names: &[&str]) -> CellSet {
    names.iter().map(|n| n.parse::<Cell>().unwrap()).collect()
}

/// The legal moves as sorted texts.
fn moves_of(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

/// The destinations of the legal returns, as a cell set.
fn return_targets(p: &Position) -> CellSet {
    p.legal_moves()
        .iter()
        .filter(|m| m.is_return())
        .filter_map(|m| m.to())
        .collect()
}

fn ring_cells(d: u8) -> CellSet {
    Cell::all().filter(|c| c.ring().distance() == d).collect()
}

// ---- V1 capture ----

/// e3-f3 flanks f4 (ring 2) against f5 (ring 1): a line across the rings.
const RADIAL: &str = "Qa1,Ga6,Gb7,Gc8,Gd9,Ge3,Gf5/ql6,gf4,gh9,gi8,gk7,gl4,gl5 w";
/// a2-a1 flanks b1 against c1: a line along the outer ring.
const ALONG_RING: &str = "Ql1,Ga2,Ga6,Gb7,Gc1,Gc8,Gd9/ql6,gb1,gh9,gi8,gk7,gl4,gl5 w";

#[test]
fn v1_any_captures_across_rings_same_ring_does_not() {
    let any = pos_with(RADIAL, S);
    let same = pos_with(RADIAL, S.with_capture(Capture::SameRing));
    assert_eq!(any.captures(mv("e3-f3")), cells(&["f4"]));
    assert_eq!(same.captures(mv("e3-f3")), CellSet::EMPTY);
    assert!(same.play(mv("e3-f3")).unwrap().captured().is_empty());
    assert_eq!(any.play(mv("e3-f3")).unwrap().captured(), cells(&["f4"]));
}

#[test]
fn v1_same_ring_still_captures_along_a_ring() {
    for rules in [S, S.with_capture(Capture::SameRing)] {
        let p = pos_with(ALONG_RING, rules);
        assert_eq!(p.captures(mv("a2-a1")), cells(&["b1"]), "{rules}");
    }
}

#[test]
fn v1_same_ring_keeps_forbidden_cells_on_every_line() {
    // d3 and f3 (ring 3) forbid e3 to White; e4 is on a radial line, and the forbidding
    // pair is found on any line whatever V1 says.
    let text = "Qa1,Ga6,Gb7,Gc8,Gd9,Ge2,Ge5/ql6,gd3,gf3,ge4,gh9,gi8,gk7 w";
    let p = pos_with(text, S.with_capture(Capture::SameRing));
    assert_eq!(p.check_move(mv("e2-e3")), Err(IllegalMove::BetweenEnemies));
}

// ---- V2 between ----

/// e2-e3 steps between d3 and f3 (two black guards on ring 3) and captures nothing.
const BETWEEN: &str = "Qa1,Ga6,Gb7,Gc8,Gd9,Ge2,Ge5/ql6,gd3,gf3,gh9,gi8,gk7,gl5 w";
/// The same step, but e4 (black) now lies between e3 and e5 (white): it captures.
const BETWEEN_CAPTURING: &str = "Qa1,Ga6,Gb7,Gc8,Gd9,Ge2,Ge5/ql6,gd3,ge4,gf3,gh9,gi8,gk7 w";

#[test]
fn v2_forbidden_refuses_the_step_between_two_enemies_even_when_it_captures() {
    for text in [BETWEEN, BETWEEN_CAPTURING] {
        let p = pos_with(text, S);
        assert_eq!(p.check_move(mv("e2-e3")), Err(IllegalMove::BetweenEnemies));
        assert!(!moves_of(&p).contains(&"e2-e3".to_string()));
    }
}

#[test]
fn v2_allowed_lets_it_go_and_nothing_happens_to_the_piece() {
    let p = pos_with(BETWEEN, S.with_between(Between::Allowed));
    let next = p.play(mv("e2-e3")).unwrap();
    assert!(next.captured().is_empty());
    assert!(!p.traps(mv("e2-e3")));
    assert_eq!(
        p.legal_moves().len(),
        pos_with(BETWEEN, S).legal_moves().len() + 1
    );
    let p = pos_with(BETWEEN_CAPTURING, S.with_between(Between::Allowed));
    assert_eq!(p.play(mv("e2-e3")).unwrap().captured(), cells(&["e4"]));
}

#[test]
fn v2_trapped_captures_the_piece_that_stepped_unless_its_step_captures() {
    let rules = S.with_between(Between::Trapped);
    let p = pos_with(BETWEEN, rules);
    assert!(p.traps(mv("e2-e3")));
    let next = p.play(mv("e2-e3")).unwrap();
    assert_eq!(next.captured(), cells(&["e3"]));
    // Black steps on; White then must return its own trapped guard (R8).
    let after = next.play(mv("l5-l4")).unwrap();
    assert!(after.must_return());
    assert!(after
        .legal_moves()
        .iter()
        .all(|m| m.from() == Some("e3".parse().unwrap())));
    // A trapping step that captures is not trapped.
    let p = pos_with(BETWEEN_CAPTURING, rules);
    assert!(!p.traps(mv("e2-e3")));
    assert_eq!(p.play(mv("e2-e3")).unwrap().captured(), cells(&["e4"]));
    // Other steps are untouched.
    assert!(!p.traps(mv("e2-d2")));
}

#[test]
fn v2_trapped_lets_both_sides_hold_captured_pieces() {
    // White's e3 trapped itself; Black's f3 was captured later: each side holds one.
    let text = "Qa1,Ga6,Gb7,Gc8,Gd9,Ge3*,Ge5/ql6,gd3,gf3*,gh9,gi8,gk7,gl5 w";
    assert!(Position::from_text_with_rules(text, S).is_err());
    assert!(Position::from_text_with_rules(text, S.with_between(Between::Allowed)).is_err());
    let both = pos_with(text, S.with_between(Between::Trapped));
    // The side to move returns its own.
    assert_eq!(both.captured_side(), Some(Side::White));
    assert!(both
        .legal_moves()
        .iter()
        .all(|m| m.from() == Some("e3".parse().unwrap())));
    let black = both.with_turn(Side::Black);
    assert!(black
        .legal_moves()
        .iter()
        .all(|m| m.from() == Some("f3".parse().unwrap())));
}

// ---- V3 guard-return ----

#[test]
fn v3_next_ring_returns_a_guard_to_the_ring_outside_its_own() {
    let text = "Qa1,Ga6,Gb7,Gc8,Gd9,Ge3*,Ge5/ql6,gd3,gf3,gh9,gi8,gk7,gl5 w";
    let outer = pos_with(text, S);
    let next = pos_with(text, S.with_guard_return(GuardReturn::NextRing));
    assert_eq!(return_targets(&outer), ring_cells(5) & outer.empty());
    assert_eq!(return_targets(&next), ring_cells(4) & next.empty());
    assert_eq!(
        next.check_move(mv("e3>e1")),
        Err(IllegalMove::GuardToNextRing)
    );
    assert_eq!(
        outer.check_move(mv("e3>e2")),
        Err(IllegalMove::GuardToOuterRing)
    );
}

#[test]
fn v3_next_ring_falls_back_to_the_nearest_ring_with_an_empty_cell() {
    // e5 (ring 1) is captured and ring 2 is full: ring 3 is next.
    let text = "Qa1,Gd4,Gd5,Gd6,Ge4,Ge5*,Ge7/qf8,gf4,gg4,gg7,gh4,gh5,gh6 w";
    let next = pos_with(text, S.with_guard_return(GuardReturn::NextRing));
    assert!(ring_cells(2).is_subset(next.occupied()));
    assert_eq!(return_targets(&next), ring_cells(3));
    // With a cell of ring 2 free, only that cell.
    let one_free = "Qa1,Gd4,Gd5,Gd6,Ge4,Ge5*,Ge7/qf8,gf4,gg4,gg7,gh4,gh5,gk7 w";
    let p = pos_with(one_free, S.with_guard_return(GuardReturn::NextRing));
    assert_eq!(return_targets(&p), cells(&["h6"]));
    assert_eq!(
        return_targets(&pos_with(one_free, S)),
        ring_cells(5) & p.empty()
    );
}

#[test]
fn v3_next_ring_keeps_a_guard_of_the_outer_ring_on_it() {
    let text = "Qa1,Ga6*,Gb7,Gc8,Gd9,Ge2,Ge5/ql6,gd3,gf3,gh9,gi8,gk7,gl5 w";
    let p = pos_with(text, S.with_guard_return(GuardReturn::NextRing));
    assert_eq!(return_targets(&p), ring_cells(5) & p.empty());
}

// ---- V4 queen-return, V5 queen-placer ----

const QUEEN_CAPTURED: &str = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11*,ga2,gb7,gd1,gh1,gk7,gl2 b";

#[test]
fn v4_not_throne_keeps_the_returned_queen_off_the_throne() {
    let any = pos_with(QUEEN_CAPTURED, S);
    let not = pos_with(QUEEN_CAPTURED, S.with_queen_return(QueenReturn::NotThrone));
    assert!(any.is_legal(mv("f11>f6")));
    assert_eq!(
        not.check_move(mv("f11>f6")),
        Err(IllegalMove::QueenToThrone)
    );
    assert_eq!(return_targets(&any), any.empty());
    assert_eq!(return_targets(&not), not.empty().without(Cell::THRONE));
}

#[test]
fn v5_captor_chooses_where_the_queen_returns_and_the_owner_the_guards() {
    let owner = pos_with(QUEEN_CAPTURED, S);
    let captor = pos_with(QUEEN_CAPTURED, S.with_queen_placer(QueenPlacer::Captor));
    assert_eq!(owner.chooser(), Side::Black);
    assert_eq!(
        (captor.turn(), captor.chooser()),
        (Side::Black, Side::White)
    );
    // The same actions, spent on the owner's turn.
    assert_eq!(moves_of(&owner), moves_of(&captor));
    assert_eq!(captor.play(mv("f11>a1")).unwrap().turn(), Side::White);
    // A guard's return is the owner's choice.
    let guard = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 b";
    let p = pos_with(guard, S.with_queen_placer(QueenPlacer::Captor));
    assert_eq!(p.chooser(), Side::Black);
    // So is an ordinary step.
    assert_eq!(
        Position::start_with_rules(S.with_queen_placer(QueenPlacer::Captor)).chooser(),
        Side::White
    );
    // A queen that trapped herself: the opponent is still the one who places her.
    let rules = S
        .with_queen_placer(QueenPlacer::Captor)
        .with_between(Between::Trapped);
    let text = "Qe2,Ga1,Ga6,Gb7,Gc8,Gd9,Ge5/ql6,gd3,gf3,gh9,gi8,gk7,gl5 w";
    let p = pos_with(text, rules);
    assert!(p.traps(mv("e2-e3")));
    let next = p.play(mv("e2-e3")).unwrap().play(mv("l5-l4")).unwrap();
    assert_eq!((next.turn(), next.chooser()), (Side::White, Side::Black));
    assert_eq!(
        pos_with(
            &next.to_text().to_string(),
            rules.with_queen_placer(QueenPlacer::Owner)
        )
        .chooser(),
        Side::White
    );
}

// ---- V6 empty-throne-ring ----

/// h5-g6 completes White's ring with White's queen off the throne.
const RING_WITHOUT_QUEEN: &str = "Qa1,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";
const RING_WITH_QUEEN: &str = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";

#[test]
fn v6_draw_makes_the_ring_without_the_queen_a_draw() {
    let draw_rules = S.with_empty_throne_ring(EmptyThroneRing::Draw);
    ends_as(
        pos_with(RING_WITHOUT_QUEEN, S),
        mv("h5-g6"),
        Some(Outcome::win(Side::Black, EndReason::RingWithoutQueen)),
    );
    let draw = ends_as(
        pos_with(RING_WITHOUT_QUEEN, draw_rules),
        mv("h5-g6"),
        Some(Outcome::drawn(EndReason::RingWithoutQueen)),
    );
    assert!(draw.legal_moves().is_empty());
    // With the queen on the throne the ring still wins.
    ends_as(
        pos_with(RING_WITH_QUEEN, draw_rules),
        mv("h5-g6"),
        Some(Outcome::win(Side::White, EndReason::Throne)),
    );
}

// ---- V7 stuck ----

/// White has no step: every piece is hemmed in (found by a local search).
const WHITE_STUCK: &str = "Qf7,Ge4,Ge5,Ge6,Gf4,Gg4,Gg5/qf6,gd4,gd5,gf5,gg6,gh4,gh5 w";

#[test]
fn v7_loses_a_stuck_side_loses_pass_makes_it_pass() {
    let loses = pos_with(WHITE_STUCK, S);
    assert!(loses.legal_moves().is_empty());
    assert_eq!(
        loses.outcome(),
        Some(Outcome::win(Side::Black, EndReason::NoLegalAction))
    );
    assert_eq!(loses.check_move(Move::Pass), Err(IllegalMove::NoPass));
    let pass = pos_with(WHITE_STUCK, S.with_stuck(Stuck::Pass));
    assert_eq!(pass.legal_moves().to_vec(), [Move::Pass]);
    assert_eq!(pass.outcome(), None);
    let next = ends_as(pass, Move::Pass, None);
    assert_eq!(next, pass.with_turn(Side::Black));
    assert_eq!(perft(&pass, 1), 1);
    assert_eq!(perft(&loses, 1), 0);
}

#[test]
fn v7_a_pass_is_refused_where_another_action_exists_or_the_rules_have_none() {
    let start = Position::start_with_rules(S.with_stuck(Stuck::Pass));
    assert_eq!(
        start.check_move(Move::Pass),
        Err(IllegalMove::PassWithActions)
    );
    assert_eq!(
        Position::start().check_move(Move::Pass),
        Err(IllegalMove::NoPass)
    );
    let mut game = Game::with_rules(Rules::LUDII);
    assert_eq!(game.play(Move::Pass), Err(IllegalMove::PassWithActions));
    assert!(game.moves().is_empty());
    // A side that must return never passes.
    let p = pos_with(QUEEN_CAPTURED, S.with_stuck(Stuck::Pass));
    assert_eq!(p.check_move(Move::Pass), Err(IllegalMove::PassWithActions));
}

/// The two-pass draw needs both sides stuck on one board (the second pass answers the
/// first on the same board). That never happens: with the outermost occupied ring k not
/// full (always when k >= 3), the last piece of a run of pieces along ring k can step to
/// the empty cell beyond it, which no pair of enemy pieces can flank (every line through
/// it but the ring's own runs through ring k + 1, which is empty); with k = 2 the ring
/// holds 12 of the 14 pieces, and this test tries every such layout.
#[test]
fn v7_two_sides_are_never_stuck_on_one_board() {
    let ring2: Vec<Cell> = ring_cells(2).iter().collect();
    let inner: Vec<Cell> = Cell::all().filter(|c| c.ring().distance() <= 1).collect();
    let (mut tried, mut one_stuck) = (0, 0);
    for a in 0..inner.len() {
        for b in a + 1..inner.len() {
            for colours in 0..4u32 {
                for kinds in 0..4u32 {
                    for mask in 0u32..(1 << 12) {
                        if mask.count_ones() + colours.count_ones() != 7 {
                            continue;
                        }
                        let mut queen = [false; 2];
                        let mut pieces = Vec::new();
                        let mut add = |c: Cell, side: Side, want_queen: bool| {
                            let q = want_queen && !queen[side.index()];
                            queen[side.index()] |= q;
                            pieces.push((
                                c,
                                Piece::new(side, if q { Kind::Queen } else { Kind::Guard }),
                            ));
                        };
                        for (i, c) in [inner[a], inner[b]].into_iter().enumerate() {
                            let side = if colours >> i & 1 == 1 {
                                Side::White
                            } else {
                                Side::Black
                            };
                            add(c, side, kinds >> i & 1 == 1);
                        }
                        for (i, &c) in ring2.iter().enumerate() {
                            let side = if mask >> i & 1 == 1 {
                                Side::White
                            } else {
                                Side::Black
                            };
                            add(c, side, true);
                        }
                        let Ok(w) = Position::from_parts(Side::White, pieces, CellSet::EMPTY)
                        else {
                            continue;
                        };
                        tried += 1;
                        let (nw, nb) = (
                            w.count_legal_moves(),
                            w.with_turn(Side::Black).count_legal_moves(),
                        );
                        assert!(nw + nb > 0, "both stuck: {}", w.to_text());
                        one_stuck += usize::from(nw == 0 || nb == 0);
                    }
                }
            }
        }
    }
    assert!(tried > 200_000, "{tried}");
    // One side alone can be stuck in this family: the test is not vacuous.
    assert!(one_stuck > 1000, "{one_stuck}");
}

#[test]
fn v7_the_two_pass_draw_is_read_from_the_game_history_by_the_reference() {
    // The rule itself, on a history that no legal game reaches (see above): two passes
    // in a row end the game, one does not.
    let rules = agon_reference::RefRules::LUDII;
    let s = to_ref(&pos_with(WHITE_STUCK, S));
    let t = agon_reference::State::from_text(&s.to_text().replace(" w", " b")).unwrap();
    let pass = agon_reference::RefMove::PASS;
    let two = agon_reference::game_end(&rules, &[s.clone(), t.clone(), s.clone()], &[pass, pass]);
    assert_eq!(two.map(|e| e.reason), Some("two-passes"));
    assert_eq!(agon_reference::game_end(&rules, &[s, t], &[pass]), None);
}

// ---- V8 repetition ----

const SHUFFLE: [&str; 4] = ["f1-e1", "f11-g10", "e1-f1", "g10-f11"];

#[test]
fn v8_off_lets_the_third_occurrence_go_on() {
    let mut third = Game::new();
    let mut off = Game::with_rules(S.with_repetition(Repetition::Off));
    for _ in 0..2 {
        for m in SHUFFLE {
            third.play(mv(m)).unwrap();
            off.play(mv(m)).unwrap();
        }
    }
    assert_eq!(third.outcome(), Some(Outcome::draw()));
    assert_eq!(third.repetitions(), 3);
    assert_eq!(off.outcome(), None);
    assert_eq!(off.repetitions(), 3);
    for m in SHUFFLE.repeat(5) {
        off.play(mv(m)).unwrap();
    }
    assert_eq!(off.outcome(), None);
    assert_eq!(off.repetitions(), 8);
}

// ---- V9 limit ----

#[test]
fn v9_the_limit_draws_on_exactly_the_nth_action() {
    let rules = S.with_repetition(Repetition::Off).with_limit(10).unwrap();
    let mut game = Game::with_rules(rules);
    let mut plain = Game::with_rules(S.with_repetition(Repetition::Off));
    let moves = ["f1-e1", "f11-g10", "e1-f1", "g10-f11"].repeat(3);
    for (i, m) in moves.iter().enumerate().take(10) {
        assert_eq!(game.outcome(), None, "over after {i}");
        game.play(mv(m)).unwrap();
        plain.play(mv(m)).unwrap();
    }
    assert_eq!(game.outcome(), Some(Outcome::drawn(EndReason::MoveLimit)));
    assert_eq!(game.play(mv("f1-e1")), Err(IllegalMove::GameOver));
    assert_eq!(plain.outcome(), None);
}

#[test]
fn v9_another_end_on_the_nth_action_takes_precedence() {
    // The first action completes the ring: a win on the throne, not the limit's draw.
    let rules = S.with_limit(1).unwrap();
    ends_as(
        pos_with(RING_WITH_QUEEN, rules),
        mv("h5-g6"),
        Some(Outcome::win(Side::White, EndReason::Throne)),
    );
    // A third occurrence on the 8th action is a repetition, not the limit.
    let mut game = Game::with_rules(S.with_limit(8).unwrap());
    for m in SHUFFLE.repeat(2) {
        game.play(mv(m)).unwrap();
    }
    assert_eq!(game.outcome(), Some(Outcome::draw()));
    // The 7th is neither.
    let mut game = Game::with_rules(S.with_limit(8).unwrap());
    for m in SHUFFLE.repeat(2).iter().take(7) {
        game.play(mv(m)).unwrap();
    }
    assert_eq!(game.outcome(), None);
}

#[test]
fn v9_the_limit_counts_from_the_games_own_start_and_passes_count() {
    let rules = S.with_limit(3).unwrap();
    let mut first = Game::with_rules(S);
    for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11", "f1-e1"] {
        first.play(mv(m)).unwrap();
    }
    let later = first.position().with_rules(rules).unwrap();
    let mut game = Game::from_position(later);
    for m in ["f11-g10", "e1-f1"] {
        game.play(mv(m)).unwrap();
    }
    assert_eq!(game.outcome(), None, "two actions from its own start");
    game.play(mv("g10-f11")).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::drawn(EndReason::MoveLimit)));
    // A pass is an action.
    let mut game = Game::from_position(pos_with(
        WHITE_STUCK,
        S.with_stuck(Stuck::Pass).with_limit(1).unwrap(),
    ));
    game.play(Move::Pass).unwrap();
    assert_eq!(game.outcome(), Some(Outcome::drawn(EndReason::MoveLimit)));
}

// ---- presets ----

#[test]
fn ludii_passes_ignores_repetition_and_stops_at_2500() {
    let p = pos_with(WHITE_STUCK, Rules::LUDII);
    assert_eq!(p.legal_moves().to_vec(), [Move::Pass]);
    let mut game = Game::with_rules(Rules::LUDII);
    let mut n = 0;
    while !game.is_over() {
        game.play(mv(SHUFFLE[n % 4])).unwrap();
        n += 1;
    }
    assert_eq!(n, 2500);
    assert_eq!(game.outcome(), Some(Outcome::drawn(EndReason::MoveLimit)));
    assert_eq!(
        (
            Rules::LUDII.stuck(),
            Rules::LUDII.repetition(),
            Rules::LUDII.limit()
        ),
        (Stuck::Pass, Repetition::Off, Some(2500))
    );
    assert_eq!(
        Rules::LUDII
            .with_stuck(Stuck::Loses)
            .with_repetition(Repetition::Third)
            .without_limit(),
        S
    );
}

// ---- the text form ----

#[test]
fn every_preset_and_single_option_variant_round_trips_through_text() {
    let mut texts = Vec::new();
    for rules in single_option_rule_sets(60)
        .into_iter()
        .chain([S, Rules::LUDII.without_limit()])
    {
        let text = rules.to_string();
        assert_eq!(text.parse::<Rules>(), Ok(rules), "{text}");
        assert_eq!(rules.is_standard(), text == "standard");
        texts.push(text);
    }
    assert_eq!(texts[0], "standard+capture=same-ring");
    assert_eq!(texts[9], "standard+limit=60");
    assert_eq!(texts[10], "ludii");
    assert_eq!(texts[12], "ludii+limit=none");
    for &(name, rules) in &Rules::PRESETS {
        assert_eq!(rules.to_string(), name);
        assert_eq!(rules.preset(), Some(name));
    }
    // Spelling the ludii options out on standard gives ludii back.
    assert_eq!(
        "standard+stuck=pass+repetition=off+limit=2500".parse::<Rules>(),
        Ok(Rules::LUDII)
    );
}

#[test]
fn bad_rule_texts_are_errors_at_their_offset() {
    for (text, offset, kind) in [
        ("classic", 0, ParseErrorKind::UnknownPreset),
        (
            "standard+between=maybe",
            17,
            ParseErrorKind::UnknownRuleValue,
        ),
        ("standard+throne=yes", 9, ParseErrorKind::UnknownRuleOption),
        ("ludii+limit=0", 12, ParseErrorKind::LimitOutOfRange),
        (
            "standard+capture=any+capture=any",
            21,
            ParseErrorKind::DuplicateRuleOption,
        ),
    ] {
        let err = text.parse::<Rules>().unwrap_err();
        assert_eq!((err.offset(), err.kind()), (offset, kind), "{text}");
    }
}

// ---- records ----

#[test]
fn records_carry_a_rules_tag_only_for_other_rules() {
    let mut game = Game::new();
    game.play(mv("f1-e1")).unwrap();
    assert!(!Record::new(game).to_string().contains("[Rules"));
    let mut game = Game::with_rules(Rules::LUDII);
    game.play(mv("f1-e1")).unwrap();
    let text = Record::new(game.clone()).to_string();
    assert!(text.contains("[Rules \"ludii\"]"), "{text}");
    assert_eq!(text.parse::<Record>().unwrap().game(), &game);
}

#[test]
fn a_bad_rules_tag_is_an_error_at_its_value() {
    let text = "[Event \"x\"]\n[Rules \"standard+stuck=sometimes\"]\n\n1. f1-e1 *\n";
    let err = text.parse::<Record>().unwrap_err();
    let value_at = text.find("standard+").unwrap();
    assert_eq!(err.kind(), ParseErrorKind::UnknownRuleValue);
    assert_eq!(err.offset(), value_at + "standard+stuck=".len());
    let err = "[Rules \"chess\"]\n\n*\n".parse::<Record>().unwrap_err();
    assert_eq!(
        (err.offset(), err.kind()),
        (8, ParseErrorKind::UnknownPreset)
    );
}

#[test]
fn a_ludii_game_with_a_pass_round_trips_through_its_record() {
    let start = pos_with(WHITE_STUCK, Rules::LUDII);
    let mut game = Game::from_position(start);
    game.play(Move::Pass).unwrap();
    let reply = game.legal_moves()[0];
    game.play(reply).unwrap();
    let text = Record::new(game.clone()).to_string();
    assert!(text.contains("pass"), "{text}");
    assert!(
        text.contains("[Rules \"ludii\"]") && text.contains("[Position"),
        "{text}"
    );
    let back: Record = text.parse().unwrap();
    assert_eq!(back.game(), &game);
    assert_eq!(back.game().rules(), Rules::LUDII);
    assert_eq!(back.game().moves()[0], Move::Pass);
    // Read under the standard rules (no tag), the pass is illegal.
    let untagged = text.replace("[Rules \"ludii\"]\n", "");
    assert!(untagged.parse::<Record>().is_err());
}

// ---- perft ----

#[test]
fn perft_under_several_rule_sets_equals_the_references() {
    let positions = [
        Position::start().to_text().to_string(),
        BETWEEN.to_string(),
        BETWEEN_CAPTURING.to_string(),
        RADIAL.to_string(),
        WHITE_STUCK.to_string(),
        QUEEN_CAPTURED.to_string(),
        "Qa1,Gd4,Gd5,Gd6,Ge4,Ge5*,Ge7/qf8,gf4,gg4,gg7,gh4,gh5,gh6 w".to_string(),
    ];
    let mut differ = 0;
    for rules in single_option_rule_sets(60) {
        for text in &positions {
            let p = pos_with(text, rules);
            let state = to_ref(&p);
            let r = agon_reference::rules_from_core(rules);
            for depth in 1..=3 {
                let n = perft(&p, depth);
                assert_eq!(
                    n,
                    agon_reference::perft_under(&state, &r, depth),
                    "{text} {rules} {depth}"
                );
                differ += usize::from(n != perft(&pos_with(text, S), depth));
            }
        }
    }
    // The rule sets do change the trees.
    assert!(differ >= 20, "{differ}");
}
