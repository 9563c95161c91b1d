//! Properties of every position reached by random legal games (proptest chooses the
//! rule set, the seed, the length and how much the moves lean towards the throne): the
//! invariants of RULES.md, the incremental hash, move legality, and the text formats.

mod common;

use agon_core::random::Rng;
use agon_core::{
    Between, Cell, CellSet, Game, Move, Position, Record, RecordError, Rules, Score, Variation,
    CELL_COUNT,
};
use common::{leaning_move, rules_strategy};
use proptest::prelude::*;

/// A game of at most `len` random legal plies from `start`. With `inward` (0-3) the
/// moves towards the throne are preferred in `inward` of four plies, which brings pieces
/// together: more captures, returns and throne-ring finishes.
fn random_game(start: Position, seed: u64, len: usize, inward: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut game = Game::from_position(start);
    while !game.is_over() && game.moves().len() < len {
        let m = leaning_move(&game, &mut rng, inward);
        game.play(m).expect("a listed move is legal");
    }
    game
}

/// A random variation of 1 to 6 moves from `game`'s position (`None` when the game is
/// over), with variations of its own down to `depth` more levels; `game` is left as it was.
fn random_variation(game: &mut Game, rng: &mut Rng, depth: usize) -> Option<Variation> {
    let base = game.moves().len();
    let len = 1 + rng.below(6);
    while !game.is_over() && game.moves().len() - base < len {
        let inward = rng.below(4);
        let m = leaning_move(game, rng, inward);
        game.play(m).expect("a listed move is legal");
    }
    let moves = game.moves()[base..].to_vec();
    let mut variation = Variation::new(moves.clone());
    // Some of its moves get variations, read from the position before them.
    for i in (0..moves.len()).rev() {
        game.undo();
        if depth > 0 && rng.below(3) == 0 {
            for _ in 0..1 + rng.below(2) {
                if let Some(other) = random_variation(game, rng, depth - 1) {
                    variation.add_variation(i, other).unwrap();
                }
            }
        }
    }
    (!moves.is_empty()).then_some(variation)
}

/// Random games, under the standard rules half the time and any rule set otherwise.
fn game_strategy() -> impl Strategy<Value = Game> {
    let rules = prop_oneof![Just(Rules::STANDARD), rules_strategy()];
    (rules, any::<u64>(), 0usize..300, 0usize..4).prop_map(|(rules, seed, len, inward)| {
        random_game(Position::start_with_rules(rules), seed, len, inward)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_position_of_a_random_game_keeps_the_invariants(game in game_strategy()) {
        for p in game.positions() {
            // RULES.md invariants, shared with the fuzz targets.
            agon_reference::checks::check_position(p);
        }
    }

    #[test]
    fn no_piece_moves_outward_except_by_a_return(game in game_strategy()) {
        for (i, m) in game.moves().iter().enumerate() {
            let before = &game.positions()[i];
            let after = &game.positions()[i + 1];
            let Some((from, to)) = m.cells() else {
                // A pass changes only the side to move.
                prop_assert_eq!(*after, before.with_turn(before.turn().other()));
                continue;
            };
            // The piece is on `to` afterwards, and `from` is empty.
            prop_assert_eq!(after.piece_at(to), before.piece_at(from));
            prop_assert_eq!(after.piece_at(from), None);
            if m.is_return() {
                prop_assert!(before.is_captured(from));
                prop_assert!(!after.is_captured(to));
                // A return captures nothing (R9).
                prop_assert_eq!(after.captured(), before.captured().without(from));
            } else {
                prop_assert!(to.ring() <= from.ring(), "{m}");
                prop_assert!(from.is_adjacent(to), "{m}");
                // Captures only add marks, and only to the other side's pieces, but for
                // the piece that stepped when the rules trap it.
                prop_assert!(before.captured().is_subset(after.captured()));
                let new = after.captured() - before.captured();
                let trapped = before.rules().between() == Between::Trapped && new.contains(to);
                let enemies = if trapped { new.without(to) } else { new };
                prop_assert!(enemies.is_subset(after.pieces_of(after.turn())));
                prop_assert!(!trapped || enemies.is_empty(), "{m} both traps and captures");
            }
        }
    }

    #[test]
    fn playing_a_listed_move_never_fails_and_an_unlisted_pair_always_does(
        game in game_strategy(),
        pick in any::<prop::sample::Index>(),
    ) {
        // One position of the game, and every one of the 91 x 91 from-to pairs.
        let positions = game.positions();
        let p = positions[pick.index(positions.len())];
        let legal = p.legal_moves();
        let mut probe = Game::from_position(p);
        let mut accepted = 0;
        let pairs = Cell::all().flat_map(|from| Cell::all().map(move |to| (from, to)));
        let candidates = pairs.map(|(from, to)| p.move_from_pair(from, to)).chain([Move::Pass]);
        for m in candidates {
            let listed = legal.contains(&m);
            prop_assert_eq!(p.is_legal(m), listed, "{} in {}", m, p.to_text());
            match p.play(m) {
                Ok(next) => {
                    prop_assert!(listed);
                    prop_assert_eq!(next.turn(), p.turn().other());
                    accepted += 1;
                }
                Err(_) => {
                    prop_assert!(!listed);
                    // A refused move leaves a game as it was.
                    prop_assert!(probe.play(m).is_err());
                    prop_assert_eq!(*probe.position(), p);
                    prop_assert_eq!(probe.moves().len(), 0);
                }
            }
        }
        prop_assert_eq!(accepted, legal.len());
    }

    #[test]
    fn legal_moves_are_listed_in_index_order_and_every_view_agrees(game in game_strategy()) {
        for p in game.positions() {
            let moves = p.legal_moves();
            let keys: Vec<(usize, usize)> = moves
                .iter()
                .map(|m| m.cells().map_or((CELL_COUNT, 0), |(f, t)| (f.index(), t.index())))
                .collect();
            // A pass is alone.
            prop_assert!(!moves.contains(&Move::Pass) || moves.len() == 1);
            // Strictly increasing: sorted, and no move twice.
            prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "{}", p.to_text());
            prop_assert_eq!(p.count_legal_moves(), moves.len());
            prop_assert_eq!(p.has_legal_move(), !moves.is_empty());
            let actions = p.actions();
            prop_assert_eq!(actions.len(), moves.len());
            prop_assert_eq!(actions.iter().collect::<Vec<Move>>(), moves.to_vec());
            for (i, m) in moves.iter().enumerate() {
                prop_assert_eq!(p.nth_legal_move(i), Some(*m));
                prop_assert!(actions.contains(*m));
            }
            prop_assert_eq!(p.nth_legal_move(moves.len()), None);
        }
    }

    #[test]
    fn the_whole_set_capture_queries_agree_with_each_steps_captures(game in game_strategy()) {
        // capturing_cells and captures_by_steps_to answer for many steps at once what
        // captures answers for one (the search relies on them for speed).
        for p in game.positions() {
            let cells = p.capturing_cells();
            let mut each = CellSet::EMPTY;
            let mut targets = CellSet::EMPTY;
            for &m in p.legal_moves().iter().filter(|m| !m.is_return() && !m.is_pass()) {
                let to = m.to().expect("a step has a cell");
                let captured = p.captures(m);
                prop_assert_eq!(cells.contains(to), !captured.is_empty(), "{} {}", p.to_text(), m);
                prop_assert_eq!(p.captures_by_steps_to(CellSet::from(to)), captured);
                each |= captured;
                targets |= CellSet::from(to);
            }
            prop_assert_eq!(p.captures_by_steps_to(targets), each, "{}", p.to_text());
        }
    }

    #[test]
    fn perft_counts_its_last_two_plies_as_playing_every_move_would(game in game_strategy()) {
        // perft(2) is counted in bulk (the count after a quiet step corrected from the
        // count before it): it must equal playing every move and counting the replies.
        for p in game.positions() {
            let played: u64 = p
                .legal_moves()
                .iter()
                .map(|&m| p.play_unchecked(m).count_legal_moves() as u64)
                .sum();
            prop_assert_eq!(agon_core::perft(p, 2), played, "{}", p.to_text());
        }
    }

    #[test]
    fn the_move_kind_not_named_by_the_pair_is_refused(game in game_strategy()) {
        // A step written for a captured piece, or a return for a free one, is illegal.
        let p = *game.position();
        for m in p.legal_moves().iter() {
            let other = match *m {
                Move::Step { from, to } => Move::Return { from, to },
                Move::Return { from, to } => Move::Step { from, to },
                Move::Pass => continue,
            };
            prop_assert!(p.play(other).is_err(), "{} in {}", other, p.to_text());
        }
    }

    #[test]
    fn moves_and_positions_round_trip_through_text(game in game_strategy()) {
        for p in game.positions() {
            let text = p.to_text().to_string();
            prop_assert_eq!(&Position::from_text_with_rules(&text, p.rules()).unwrap(), p);
            if p.rules().is_standard() {
                prop_assert_eq!(&text.parse::<Position>().unwrap(), p);
            }
            for m in p.legal_moves().iter() {
                let shown = m.to_string();
                prop_assert_eq!(shown.parse::<Move>().unwrap(), *m);
                prop_assert_eq!(p.parse_move(&shown).unwrap(), *m);
                let pair = m.pair().to_string();
                if !m.is_pass() {
                    prop_assert_eq!(pair.len() + 1, shown.len());
                }
                prop_assert_eq!(p.parse_move(&pair).unwrap(), *m);
            }
        }
    }

    /// Whatever tags and result are asked for, a record either refuses them and stays as
    /// it was, or writes text that reads back to itself.
    #[test]
    fn records_never_write_what_they_cannot_read(
        game in game_strategy(),
        tags in proptest::collection::vec(("[A-Za-z0-9_ \\[\\]\"\\\\]{0,6}", "\\PC{0,8}|[\n\r\"\\\\]{0,3}"), 0..6),
        score in prop_oneof![Just(Score::WhiteWins), Just(Score::BlackWins), Just(Score::Draw), Just(Score::Unfinished)],
    ) {
        let mut record = Record::new(game.clone());
        for (name, value) in &tags {
            let before = record.clone();
            match record.set_tag(name, value) {
                Ok(()) => prop_assert_eq!(record.tag(name), Some(value.clone())),
                Err(RecordError::ReservedTag) => {
                    prop_assert!(name == "Rules" || name == "Position" || name == "Result");
                    prop_assert_eq!(&record, &before);
                }
                Err(_) => prop_assert_eq!(&record, &before),
            }
        }
        let before = record.clone();
        match record.set_result(score) {
            Ok(()) => prop_assert_eq!(record.result(), score),
            Err(e) => {
                prop_assert_eq!(e, RecordError::ResultContradictsOutcome);
                prop_assert!(game.is_over());
                prop_assert_eq!(&record, &before);
            }
        }
        prop_assert_eq!(record.to_string().parse::<Record>(), Ok(record));
    }

    /// A record with variations (nested up to three deep, added through the API) writes
    /// canonical text: it reads back to the same record and is written again unchanged;
    /// the main line and its result are the game's, whatever the variations.
    #[test]
    fn records_with_variations_round_trip(
        game in game_strategy(),
        seed in any::<u64>(),
        branches in 0usize..8,
    ) {
        let mut rng = Rng::new(seed);
        let mut record = Record::new(game.clone());
        let plies = game.moves().len();
        for _ in 0..if plies == 0 { 0 } else { branches } {
            let ply = rng.below(plies);
            let mut at = game.clone();
            while at.moves().len() > ply {
                at.undo();
            }
            let variation = random_variation(&mut at, &mut rng, 2).expect("the game went on");
            prop_assert_eq!(record.add_variation(ply, variation), Ok(()));
        }
        prop_assert_eq!(record.has_variations(), plies > 0 && branches > 0);
        let text = record.to_string();
        let parsed: Record = text.parse().unwrap();
        prop_assert_eq!(&parsed, &record);
        prop_assert_eq!(parsed.game(), &game);
        prop_assert_eq!(parsed.to_string(), text);
        // Without its variations, the record is the game's own.
        let mut bare = parsed;
        for ply in 0..plies {
            while bare.remove_variation(ply, 0).is_some() {}
        }
        prop_assert_eq!(bare, Record::new(game));
    }

    #[test]
    fn game_records_round_trip(
        game in game_strategy(),
        tail in (any::<u64>(), 0usize..60, 0usize..4),
    ) {
        let record = Record::new(game.clone());
        let text = record.to_string();
        let parsed: Record = text.parse().unwrap();
        prop_assert_eq!(&parsed, &record);
        prop_assert_eq!(parsed.game().position(), game.position());
        prop_assert_eq!(parsed.game().outcome(), game.outcome());
        // A game from a set position carries it in a Position tag.
        let start = *game.position();
        if game.outcome().is_none() {
            let later = random_game(start, tail.0, tail.1, tail.2);
            let record = Record::new(later);
            let text = record.to_string();
            if start != Position::start_with_rules(start.rules()) {
                let tag = format!("[Position \"{}\"]", start.to_text());
                prop_assert!(text.contains(&tag), "{}", text);
            }
            // A game under other rules carries them in a Rules tag.
            let tag = format!("[Rules \"{}\"]", start.rules());
            prop_assert_eq!(text.contains(&tag), !start.rules().is_standard(), "{}", text);
            prop_assert_eq!(text.parse::<Record>().unwrap(), record);
        }
    }
}

#[test]
fn every_cell_name_round_trips() {
    let mut seen = CellSet::EMPTY;
    for (i, cell) in Cell::all().enumerate() {
        assert_eq!(cell.index(), i);
        let name = cell.to_string();
        assert_eq!(name.parse::<Cell>().unwrap(), cell);
        assert_eq!(Some(i), agon_reference::cell_index(&name));
        let (q, r, s) = cell.cube();
        assert_eq!(
            agon_reference::cell_coords(i),
            (i32::from(q), i32::from(r), i32::from(s))
        );
        assert!(seen.insert(cell));
    }
    assert_eq!(seen.len(), CELL_COUNT);
}

#[test]
fn random_games_reach_captures_returns_and_ends() {
    // The strategy above must exercise what the properties are about.
    let (mut captured, mut queen_captured, mut ended) = (0, 0, 0);
    for seed in 0..40 {
        let game = random_game(Position::start(), seed, 300, (seed % 4) as usize);
        for p in game.positions() {
            captured += usize::from(!p.captured().is_empty());
            queen_captured += usize::from(p.captured().intersects(p.queens()));
        }
        ended += usize::from(game.is_over());
    }
    assert!(captured > 100, "{captured}");
    assert!(queen_captured > 5, "{queen_captured}");
    assert!(ended > 5, "{ended}");
}
