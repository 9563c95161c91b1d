//! The text formats: exact strings written, and exact errors (byte offset and kind) for
//! malformed cells, moves, positions and game records.

use agon_core::{
    Cell, Game, IllegalMove, Move, ParseError, ParseErrorKind, Position, PositionError, Record,
    RecordError, Score, Side, Variation,
};

/// The diagram of RULES.md section 1 (the start position), which `Display` must
/// reproduce line for line, followed by the side to move.
const START_DIAGRAM: &str = "                             f11q
                        e10       g10
                   d9G       f10       h9G
              c8        e9        g9        i8
         b7g       d8        f9        h8        k7g
    a6        c7        e8        g8        i7        l6
         b6        d7        f8        h7        k6
    a5G       c6        e7        g7        i6        l5G
         b5        d6        f7        h6        k5
    a4        c5        e6        g6        i5        l4
         b4        d5        f6        h5        k4
    a3        c4        e5        g5        i4        l3
         b3        d4        f5        h4        k3
    a2g       c3        e4        g4        i3        l2g
         b2        d3        f4        h3        k2
    a1        c2        e3        g3        i2        l1
         b1G       d2        f3        h2        k1G
              c1        e2        g2        i1
                   d1g       f2        h1g
                        e1        g1
                             f1Q";

const START_TEXT: &str = "Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w";

fn err(offset: usize, kind: ParseErrorKind) -> ParseError {
    ParseError::new(offset, kind)
}

const FILE: ParseErrorKind = ParseErrorKind::Expected("a file letter a-l (no j)");
const RANK: ParseErrorKind = ParseErrorKind::Expected("a rank 1-11");
const STEP_OR_RETURN: ParseErrorKind = ParseErrorKind::Expected("'-' (a step) or '>' (a return)");

// ---------------------------------------------------------------------------------------
// Board drawing.

#[test]
fn display_of_the_start_reproduces_the_rules_diagram() {
    let shown = Position::start().to_string();
    assert_eq!(shown, format!("{START_DIAGRAM}\nWhite to move"));
}

#[test]
fn display_marks_captured_pieces_and_the_side_to_move() {
    let p =
        Position::from_text("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 b").unwrap();
    let shown = p.to_string();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines.len(), 22);
    assert_eq!(
        lines[10],
        "         b4        d5        f6Q       h5        k4"
    );
    assert_eq!(
        lines[13],
        "    a2g*      c3        e4        g4        i3        l2g"
    );
    assert_eq!(lines[20], "                             f1");
    assert_eq!(lines[21], "Black to move");
}

// ---------------------------------------------------------------------------------------
// Cells.

#[test]
fn cell_names_follow_the_rules() {
    let names: Vec<String> = Cell::all().map(|c| c.to_string()).collect();
    assert_eq!(names[0], "a1");
    assert_eq!(names[5], "a6");
    assert_eq!(names[6], "b1");
    assert_eq!(names[45], "f6");
    assert_eq!(names[50], "f11");
    assert_eq!(names[90], "l6");
    assert!(names.iter().all(|n| !n.starts_with('j')));
    assert_eq!(Cell::THRONE.to_string(), "f6");
}

#[test]
fn malformed_cells_name_the_fault() {
    let cases: [(&str, ParseError); 12] = [
        ("", err(0, FILE)),
        ("j5", err(0, FILE)),
        ("F1", err(0, FILE)),
        (" f1", err(0, FILE)),
        ("f", err(1, RANK)),
        ("f0", err(1, RANK)),
        ("f01", err(1, RANK)),
        ("fx", err(1, RANK)),
        ("a7", err(0, ParseErrorKind::NoSuchCell)),
        ("f12", err(0, ParseErrorKind::NoSuchCell)),
        ("f111", err(0, ParseErrorKind::NoSuchCell)),
        ("f1x", err(2, ParseErrorKind::TrailingInput)),
    ];
    for (text, want) in cases {
        assert_eq!(text.parse::<Cell>(), Err(want), "{text:?}");
    }
    assert_eq!(
        "a7".parse::<Cell>().unwrap_err().to_string(),
        "at byte 0: no such cell"
    );
}

// ---------------------------------------------------------------------------------------
// Moves.

#[test]
fn moves_are_written_as_steps_returns_and_pairs() {
    let step: Move = "f1-e1".parse().unwrap();
    let ret: Move = "f4>l1".parse().unwrap();
    assert_eq!(
        step,
        Move::Step {
            from: "f1".parse().unwrap(),
            to: "e1".parse().unwrap()
        }
    );
    assert_eq!(step.to_string(), "f1-e1");
    assert_eq!(ret.to_string(), "f4>l1");
    assert_eq!(step.pair().to_string(), "f1e1");
    assert_eq!(ret.pair().to_string(), "f4l1");
    assert_eq!(
        "f11-f10".parse::<Move>().unwrap().pair().to_string(),
        "f11f10"
    );
}

#[test]
fn malformed_moves_name_the_fault() {
    let cases: [(&str, ParseError); 8] = [
        ("", err(0, FILE)),
        ("f1", err(2, STEP_OR_RETURN)),
        ("f1+f2", err(2, STEP_OR_RETURN)),
        ("f1f2", err(2, STEP_OR_RETURN)),
        ("f1-", err(3, FILE)),
        ("f1-a9", err(3, ParseErrorKind::NoSuchCell)),
        ("f1-f2 ", err(5, ParseErrorKind::TrailingInput)),
        ("f1>f2>f3", err(5, ParseErrorKind::TrailingInput)),
    ];
    for (text, want) in cases {
        assert_eq!(text.parse::<Move>(), Err(want), "{text:?}");
    }
}

#[test]
fn a_position_reads_pairs_as_steps_or_returns() {
    let p =
        Position::from_text("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 b").unwrap();
    assert_eq!(p.parse_move("a2a1").unwrap().to_string(), "a2>a1");
    assert_eq!(p.parse_move("f11g10").unwrap().to_string(), "f11-g10");
    // The written kind wins over the pair reading.
    assert_eq!(p.parse_move("a2-a1").unwrap().to_string(), "a2-a1");
    let pair = ParseErrorKind::Expected("'-' (a step), '>' (a return) or a cell (a pair)");
    assert_eq!(p.parse_move("a2"), Err(err(2, pair)));
    assert_eq!(p.parse_move("a2+a1"), Err(err(2, pair)));
    assert_eq!(p.parse_move("a2j1"), Err(err(2, FILE)));
    assert_eq!(
        p.parse_move("a2a1 "),
        Err(err(4, ParseErrorKind::TrailingInput))
    );
}

// ---------------------------------------------------------------------------------------
// Positions.

#[test]
fn position_text_is_canonical() {
    assert_eq!(Position::start().to_text().to_string(), START_TEXT);
    // Pieces in any order within a side parse to the same, canonically written, position.
    let shuffled = "Gl5,Gk1,Qf1,Gh9,Gd9,Gb1,Ga5/gl2,gk7,gh1,gd1,gb7,ga2,qf11 w";
    assert_eq!(
        Position::from_text(shuffled).unwrap().to_text().to_string(),
        START_TEXT
    );
    let captured = "Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11*,ga2*,gb7,gd1,gh1,gk7,gl2 b";
    assert_eq!(
        Position::from_text(captured).unwrap().to_text().to_string(),
        captured
    );
}

#[test]
fn malformed_positions_name_the_fault() {
    use ParseErrorKind::{Expected, InvalidPosition, TrailingInput};
    let white = Expected("a White piece 'Q' or 'G'");
    let black = Expected("a Black piece 'q' or 'g'");
    let cases: Vec<(String, ParseError)> = vec![
        (String::new(), err(0, white)),
        (START_TEXT.to_lowercase(), err(0, white)),
        // The sixth White piece misspelt.
        (START_TEXT.replace("Gk1", "Xk1"), err(20, white)),
        (START_TEXT.replace("Gk1", "Gj1"), err(21, FILE)),
        (
            START_TEXT.replace("Gk1", "Gk9"),
            err(21, ParseErrorKind::NoSuchCell),
        ),
        (
            START_TEXT.replace('/', ";"),
            err(27, Expected("',' or '/' after White's pieces")),
        ),
        (START_TEXT.replace("/q", "/Q"), err(28, black)),
        (
            START_TEXT.replace(" w", " x"),
            err(57, Expected("the side to move, 'w' or 'b'")),
        ),
        (
            START_TEXT.replace(" w", "w"),
            err(56, Expected("',' or ' ' after Black's pieces")),
        ),
        (
            START_TEXT.replace(" w", "  w"),
            err(57, Expected("the side to move, 'w' or 'b'")),
        ),
        (format!("{START_TEXT} "), err(58, TrailingInput)),
        (
            START_TEXT.replace(" w", ""),
            err(56, Expected("',' or ' ' after Black's pieces")),
        ),
        // A trailing comma promises another piece.
        (START_TEXT.replace("Gl5/", "Gl5,/"), err(28, white)),
        // Validation errors point at the start of the text.
        (
            START_TEXT.replace("Gb1", "Gf1"),
            err(
                0,
                InvalidPosition(PositionError::TwoPiecesOnCell("f1".parse().unwrap())),
            ),
        ),
        (
            START_TEXT.replace("Gb1", "Gf6"),
            err(0, InvalidPosition(PositionError::GuardOnThrone)),
        ),
        (
            START_TEXT.replace("Gb1", "Qb1"),
            err(0, InvalidPosition(PositionError::PieceCount(Side::White))),
        ),
        (
            START_TEXT.replace(",gl2", ""),
            err(0, InvalidPosition(PositionError::PieceCount(Side::Black))),
        ),
        (
            START_TEXT.replace("Gb1", "Gb1*").replace("gd1", "gd1*"),
            err(0, InvalidPosition(PositionError::CapturedBothSides)),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(Position::from_text(&text), Err(want), "{text:?}");
    }
}

#[test]
fn too_many_pieces_of_a_side_are_blamed_on_that_side() {
    // White has eight pieces (an extra guard on e1), Black its seven. The fault is
    // White's: the error must not name Black, which has exactly one queen and six guards.
    let text = START_TEXT.replace("Gl5/", "Gl5,Ge1/");
    let e = Position::from_text(&text).unwrap_err();
    assert_eq!(
        e.kind(),
        ParseErrorKind::InvalidPosition(PositionError::PieceCount(Side::White)),
        "{e:?}"
    );
    // With one Black piece fewer the same excess is reported for White.
    let fewer = text.replace(",gl2", "");
    assert_eq!(
        Position::from_text(&fewer).unwrap_err().kind(),
        ParseErrorKind::InvalidPosition(PositionError::PieceCount(Side::White))
    );
}

// ---------------------------------------------------------------------------------------
// Game records.

/// Four plies that come back to the start; twice over they draw by repetition (R11).
const SHUFFLE: &str = "1. f1-e1 f11-g10 2. e1-f1 g10-f11";

#[test]
fn a_record_is_written_canonically() {
    let mut game = Game::new();
    for m in ["f1-e1", "f11-g10", "e1-f1"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let mut record = Record::new(game);
    record.set_tag("Event", "Test \"quoted\" \\ back").unwrap();
    let text = record.to_string();
    assert_eq!(
        text,
        "[Event \"Test \\\"quoted\\\" \\\\ back\"]\n[Result \"*\"]\n\n1. f1-e1 f11-g10 2. e1-f1 *\n"
    );
    assert_eq!(text.parse::<Record>().unwrap(), record);
    assert_eq!(
        record.tag("Event").as_deref(),
        Some("Test \"quoted\" \\ back")
    );
}

#[test]
fn a_record_from_a_set_position_with_black_to_move() {
    let start =
        Position::from_text("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 b").unwrap();
    let mut game = Game::from_position(start);
    game.play("a2>a1".parse().unwrap()).unwrap();
    game.play("b1-c1".parse().unwrap()).unwrap();
    let record = Record::new(game);
    let text = record.to_string();
    assert_eq!(
        text,
        "[Position \"Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 b\"]\n\
         [Result \"*\"]\n\n1... a2>a1 2. b1-c1 *\n"
    );
    assert_eq!(text.parse::<Record>().unwrap(), record);
    // Pairs are accepted on input and read against the position.
    let pairs = text.replace("a2>a1", "a2a1").replace("b1-c1", "b1c1");
    assert_eq!(pairs.parse::<Record>().unwrap(), record);
}

#[test]
fn a_drawn_record_carries_its_result() {
    let text = format!("{SHUFFLE} 3. f1-e1 f11-g10 4. e1-f1 g10-f11 1/2-1/2");
    let record: Record = text.parse().unwrap();
    assert_eq!(record.result(), Score::Draw);
    assert_eq!(record.game().outcome(), Some(agon_core::Outcome::draw()));
}

#[test]
fn an_illegal_third_move_is_named_by_its_number() {
    // f1-f3 jumps over f2: White's third move.
    let text = format!("{SHUFFLE} 3. f1-f3 *");
    assert_eq!(
        text.parse::<Record>(),
        Err(err(
            37,
            ParseErrorKind::IllegalMove {
                number: 3,
                side: Side::White,
                reason: IllegalMove::NotAdjacent
            }
        ))
    );
    assert_eq!(
        text.parse::<Record>().unwrap_err().to_string(),
        "at byte 37: move 3 of White is illegal: the cells are not adjacent"
    );
    // Black's fourth move steps outward.
    let text = format!("{SHUFFLE} 3. f1-e1 f11-f10 4. e1-f1 f10-f11 *");
    assert_eq!(
        text.parse::<Record>(),
        Err(err(
            60,
            ParseErrorKind::IllegalMove {
                number: 4,
                side: Side::Black,
                reason: IllegalMove::Outward
            }
        ))
    );
}

#[test]
fn malformed_records_name_the_fault() {
    use ParseErrorKind::{DuplicateTag, Expected, MoveNumber, ResultMismatch, TrailingInput};
    let cases: Vec<(String, ParseError)> = vec![
        (String::new(), err(0, Expected("a move or a result"))),
        ("1. f1-e1".into(), err(8, Expected("a move or a result"))),
        ("f1-e1 *".into(), err(0, MoveNumber(1))),
        ("2. f1-e1 *".into(), err(0, MoveNumber(1))),
        ("1... f1-e1 *".into(), err(0, MoveNumber(1))),
        ("1. f1-e1 f11-g10 3. e1-f1 *".into(), err(17, MoveNumber(2))),
        ("1. f1-e1 f11-g10 e1-f1 *".into(), err(17, MoveNumber(2))),
        (
            "1. f1-e1 f11+g10 *".into(),
            err(
                12,
                Expected("'-' (a step), '>' (a return) or a cell (a pair)"),
            ),
        ),
        ("1. f1-e1 * x".into(), err(11, TrailingInput)),
        (
            "[Event \"a\"]\n[Event \"b\"]\n\n*".into(),
            err(12, DuplicateTag),
        ),
        (
            "[Event a]\n\n*".into(),
            err(7, Expected("'\"' opening the tag value")),
        ),
        (
            "[Event \"a\n\n*".into(),
            err(9, Expected("'\"' closing the tag value")),
        ),
        ("[ \"a\"]\n\n*".into(), err(1, Expected("a tag name"))),
        (
            "[Result \"1-0\"]\n\n1. f1-e1 *".into(),
            err(0, ResultMismatch),
        ),
        (
            "[Position \"Qf1/qf11 w\"]\n\n*".into(),
            err(
                11,
                ParseErrorKind::InvalidPosition(PositionError::PieceCount(Side::White)),
            ),
        ),
        // The game drew by repetition: "*" (or a win) is not its result.
        (
            format!("{SHUFFLE} 3. f1-e1 f11-g10 4. e1-f1 g10-f11 *"),
            err(68, ResultMismatch),
        ),
        (
            format!("{SHUFFLE} 3. f1-e1 f11-g10 4. e1-f1 g10-f11 5. f1-e1 1/2-1/2"),
            err(
                71,
                ParseErrorKind::IllegalMove {
                    number: 5,
                    side: Side::White,
                    reason: IllegalMove::GameOver,
                },
            ),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(text.parse::<Record>(), Err(want), "{text:?}");
    }
}

// ---------------------------------------------------------------------------------------
// Variations.

#[test]
fn a_record_with_variations_is_written_canonically() {
    let text = "[Result \"*\"]\n\n1. f1-e1 (1. f1-g1 f11-e10 (1... l2-l1 2. g1-f1)) (1. a5-b5) 1... f11-g10 2.\ne1-f1 (2. e1-e2) 2... g10-f11 *\n";
    let record: Record = text.parse().unwrap();
    assert_eq!(record.to_string(), text);
    assert_eq!(record.game().moves().len(), 4);
    let firsts = record.variations(0);
    assert_eq!(firsts.len(), 2);
    assert_eq!(firsts[0].moves().len(), 2);
    assert_eq!(firsts[0].variations(1)[0].moves()[1].to_string(), "g1-f1");
    assert_eq!(firsts[1].moves()[0].to_string(), "a5-b5");
    assert_eq!(record.variations(2)[0].moves()[0].to_string(), "e1-e2");
    assert!(record.variations(1).is_empty() && record.variations(3).is_empty());
    // The same built through the API.
    let mut game = Game::new();
    for m in ["f1-e1", "f11-g10", "e1-f1", "g10-f11"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let mut built = Record::new(game);
    let mv = |t: &str| t.parse::<Move>().unwrap();
    let mut first = Variation::new(vec![mv("f1-g1"), mv("f11-e10")]);
    first
        .add_variation(1, Variation::new(vec![mv("l2-l1"), mv("g1-f1")]))
        .unwrap();
    built.add_variation(0, first).unwrap();
    built
        .add_variation(0, Variation::new(vec![mv("a5-b5")]))
        .unwrap();
    built
        .add_variation(2, Variation::new(vec![mv("e1-e2")]))
        .unwrap();
    assert_eq!(built, record);
    // Loose spacing and a number before a move of Black that needs none read the same.
    let loose = "1. f1-e1( 1. f1-g1 1... f11-e10(1... l2-l1 2. g1-f1 ) )(1. a5-b5)1... f11-g10 2. e1-f1 (2. e1-e2)2... g10-f11 *";
    assert_eq!(loose.parse::<Record>().unwrap(), record);
    // A record without variations is written as before.
    assert_eq!(
        "1. f1-e1 f11-g10 *".parse::<Record>().unwrap().to_string(),
        "[Result \"*\"]\n\n1. f1-e1 f11-g10 *\n"
    );
}

#[test]
fn a_variation_sees_the_main_line_before_it() {
    // Black's g10-f11 instead of l2-l1 brings the start position a third time: a draw
    // by repetition, after which White has no move 5.
    let main = format!("{SHUFFLE} 3. f1-e1 f11-g10 4. e1-f1 l2-l1");
    let ok = format!("{main} (4... g10-f11) *");
    let record: Record = ok.parse().unwrap();
    assert_eq!(record.result(), Score::Unfinished);
    assert_eq!(record.game().outcome(), None);
    let over = format!("{main} (4... g10-f11 5. f1-e1) *");
    assert_eq!(
        over.parse::<Record>(),
        Err(err(
            over.find("5. f1-e1").unwrap() + 3,
            ParseErrorKind::IllegalMove {
                number: 5,
                side: Side::White,
                reason: IllegalMove::GameOver
            }
        ))
    );
    // The API checks the same.
    let mut record: Record = format!("{main} *").parse().unwrap();
    let mv = |t: &str| t.parse::<Move>().unwrap();
    assert_eq!(
        record.add_variation(7, Variation::new(vec![mv("g10-f11"), mv("f1-e1")])),
        Err(RecordError::IllegalVariationMove(IllegalMove::GameOver))
    );
    assert!(!record.has_variations());
    assert_eq!(
        record.add_variation(8, Variation::new(vec![mv("f1-e1")])),
        Err(RecordError::NoSuchMove)
    );
    assert_eq!(
        record.add_variation(0, Variation::new(vec![])),
        Err(RecordError::EmptyVariation)
    );
}

#[test]
fn malformed_variations_name_the_fault() {
    use ParseErrorKind::{Expected, MoveNumber, VariationTooDeep};
    let illegal = |number, side, reason| ParseErrorKind::IllegalMove {
        number,
        side,
        reason,
    };
    let cases: Vec<(&str, ParseError)> = vec![
        ("(1. f1-e1) *", err(0, Expected("a move before '('"))),
        (
            "1. (1. f1-g1) f1-e1 *",
            err(3, Expected("a move before '('")),
        ),
        ("1. f1-e1 () *", err(10, Expected("a move"))),
        ("1. f1-e1 (1.) *", err(12, Expected("a move"))),
        ("1. f1-e1 (1. f1-g1 *", err(19, Expected("a move or ')'"))),
        ("1. f1-e1 (1. f1-g1", err(18, Expected("a move or ')'"))),
        (
            "1. f1-e1 (1. f1-g1 1-0) *",
            err(19, Expected("a move or ')'")),
        ),
        ("1. f1-e1 ) *", err(9, Expected("a move or a result"))),
        (
            "1. f1-e1 (1. f1-g1)) *",
            err(19, Expected("a move or a result")),
        ),
        ("1. f1-e1 (1. f1-g1) f11-g10 *", err(20, MoveNumber(1))),
        ("1. f1-e1 (f1-g1) *", err(10, MoveNumber(1))),
        ("1. f1-e1 (2. f1-g1) *", err(10, MoveNumber(1))),
        (
            "1. f1-e1 (1. f1-f3) *",
            err(13, illegal(1, Side::White, IllegalMove::NotAdjacent)),
        ),
        (
            "1. f1-e1 f11-g10 (1... f11-f9) *",
            err(23, illegal(1, Side::Black, IllegalMove::NotAdjacent)),
        ),
    ];
    for (text, want) in cases {
        assert_eq!(text.parse::<Record>(), Err(want), "{text:?}");
    }
    // Record::MAX_DEPTH levels of variations read; one more is refused at its '('.
    let level = "(1. f1-g1 (1. f1-e1 ";
    let deep = |n: usize| format!("1. f1-e1 {}{}*", level.repeat(n / 2), ")".repeat(n));
    let ok: Record = deep(Record::MAX_DEPTH).parse().unwrap();
    assert_eq!(ok.to_string().parse::<Record>().unwrap(), ok);
    let text = deep(Record::MAX_DEPTH + 2);
    let at = 9 + level.len() * Record::MAX_DEPTH / 2;
    assert_eq!(text.parse::<Record>(), Err(err(at, VariationTooDeep)));
    // A megabyte of nesting is refused as quickly, without deep recursion.
    let huge = deep(100_000);
    assert_eq!(huge.parse::<Record>(), Err(err(at, VariationTooDeep)));
}

#[test]
fn result_and_position_tags_may_not_repeat_either() {
    let position = "[Position \"Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 b\"]\n";
    let cases = [
        ("[Result \"*\"]\n[Result \"*\"]\n\n*".to_string(), 13),
        (
            "[Result \"*\"]\n[Event \"x\"]\n[Result \"1-0\"]\n\n*".to_string(),
            25,
        ),
        (format!("{position}{position}\n*"), position.len()),
        // The second is refused before its value is read.
        (
            format!("{position}[Position \"nonsense\"]\n\n*"),
            position.len(),
        ),
    ];
    for (text, at) in cases {
        assert_eq!(
            text.parse::<Record>(),
            Err(err(at, ParseErrorKind::DuplicateTag)),
            "{text:?}"
        );
    }
}

/// Regression: each tag was checked for a duplicate by a scan of every tag before it, so
/// reading a record was quadratic in its tags. Measured in a release build on a busy
/// two-core machine: 115 000 tags (1.5 MB) took 25 s to 51 s before the fix and 0.05 s
/// after; the 120 000 tags (2.7 MB) of this test 29 s before and 0.05 s after. The test
/// takes under a second in a debug build. It asserts no time, but would run for minutes
/// were reading quadratic again.
#[test]
fn a_record_of_many_tags_reads_in_near_linear_time() {
    let mut game = Game::new();
    for m in ["f1-e1", "f11-g10"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    // Written by hand: `set_tag` looks for the name among the tags (fine for the handful a
    // record has), and this test is about reading.
    let tags: String = (0..120_000)
        .map(|i| format!("[T{i} \"v\\\"{i}\\\\\"]\n"))
        .collect();
    let text = format!("{tags}[Result \"*\"]\n\n1. f1-e1 f11-g10 *\n");
    assert!(text.len() > 1_500_000, "{}", text.len());
    let record: Record = text.parse().unwrap();
    assert_eq!(record.tags().len(), 120_000);
    assert_eq!(record.tags()[7], ("T7".to_string(), "v\"7\\".to_string()));
    assert_eq!(record.game(), &game);
    assert_eq!(record.to_string(), text);
    // A duplicate at the very end is found, at its own offset.
    let last = "[T0 \"again\"]\n";
    let head_len = text.find("[Result").unwrap();
    let dup = format!("{}{last}{}", &text[..head_len], &text[head_len..]);
    assert_eq!(
        dup.parse::<Record>(),
        Err(err(head_len, ParseErrorKind::DuplicateTag))
    );
    // Long names that share all but their last bytes: each comparison reads the whole
    // name, and still the reading stays near-linear (n log n comparisons).
    let prefix = "N".repeat(1000);
    let tags: String = (0..1000)
        .map(|i| format!("[{prefix}{i:04} \"\"]\n"))
        .collect();
    let text = format!("{tags}[Result \"*\"]\n\n*\n");
    assert!(text.len() > 1_000_000);
    let long: Record = text.parse().unwrap();
    assert_eq!(long.tags().len(), 1000);
    assert_eq!(long.to_string(), text);
}

/// The text parsers read a bounded prefix of their input before they fail, so that a
/// megabyte of junk after a valid value is refused at its first byte, not scanned.
#[test]
fn junk_after_a_value_is_refused_where_it_starts() {
    let junk = "x".repeat(1 << 20);
    assert_eq!(
        format!("f1{junk}").parse::<Cell>(),
        Err(err(2, ParseErrorKind::TrailingInput))
    );
    assert_eq!(
        format!("f1-e1{junk}").parse::<Move>(),
        Err(err(5, ParseErrorKind::TrailingInput))
    );
    assert_eq!(
        Position::start().parse_move(&format!("f1e1{junk}")),
        Err(err(4, ParseErrorKind::TrailingInput))
    );
    assert_eq!(
        format!("{START_TEXT}{junk}").parse::<Position>(),
        Err(err(START_TEXT.len(), ParseErrorKind::TrailingInput))
    );
    let digits = "1".repeat(1 << 20);
    assert_eq!(
        format!("f{digits}").parse::<Cell>(),
        Err(err(0, ParseErrorKind::NoSuchCell))
    );
    // In a record, a megabyte token is one token: refused where it starts.
    assert_eq!(format!("1. {junk} *").parse::<Record>(), Err(err(3, FILE)));
    // A megabyte of space between tokens is only space.
    let space = " ".repeat(1 << 20);
    let record: Record = format!("1.{space}f1-e1{space}*").parse().unwrap();
    assert_eq!(record.game().moves().len(), 1);
}

#[test]
fn scores_are_written_and_read() {
    for (score, text) in [
        (Score::WhiteWins, "1-0"),
        (Score::BlackWins, "0-1"),
        (Score::Draw, "1/2-1/2"),
        (Score::Unfinished, "*"),
    ] {
        assert_eq!(score.to_string(), text);
        assert_eq!(text.parse::<Score>(), Ok(score));
    }
    assert_eq!(
        "1-1".parse::<Score>(),
        Err(err(0, ParseErrorKind::Expected("1-0, 0-1, 1/2-1/2 or *")))
    );
}

#[test]
fn a_record_that_ends_without_action_must_say_who_won() {
    // From a set position, Black's d2-c2 leaves White without a legal action (R12).
    let head = "[Position \"Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b\"]\n\n";
    let won: Record = format!("{head}1... d2-c2 0-1").parse().unwrap();
    assert_eq!(won.result(), Score::BlackWins);
    assert_eq!(
        won.game().outcome(),
        Some(agon_core::Outcome::win(
            Side::Black,
            agon_core::EndReason::NoLegalAction
        ))
    );
    assert_eq!(
        won.to_string(),
        "[Position \"Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b\"]\n\
         [Result \"0-1\"]\n\n1... d2-c2 0-1\n"
    );
    for wrong in ["1-0", "1/2-1/2", "*"] {
        let text = format!("{head}1... d2-c2 {wrong}");
        assert_eq!(
            text.parse::<Record>(),
            Err(err(head.len() + 11, ParseErrorKind::ResultMismatch)),
            "{wrong}"
        );
    }
}

#[test]
fn every_error_reason_has_a_distinct_stable_name() {
    use agon_core::{IllegalMove as I, PositionError as P};
    let moves = [
        (I::GameOver, "game-over"),
        (I::NoPiece, "no-piece"),
        (I::NotYourPiece, "not-your-piece"),
        (I::MustReturn, "must-return"),
        (I::NotAdjacent, "not-adjacent"),
        (I::Outward, "outward"),
        (I::Occupied, "occupied"),
        (I::ThroneForQueens, "throne-for-queens"),
        (I::BetweenEnemies, "between-enemies"),
        (I::NotCaptured, "not-captured"),
        (I::QueenFirst, "queen-first"),
        (I::GuardToOuterRing, "guard-to-outer-ring"),
    ];
    for (reason, name) in moves {
        assert_eq!(reason.name(), name);
    }
    let f6 = agon_core::Cell::THRONE;
    let positions = [
        (P::TwoPiecesOnCell(f6), "two-pieces-on-cell"),
        (P::GuardOnThrone, "guard-on-throne"),
        (P::PieceCount(agon_core::Side::White), "piece-count"),
        (P::CapturedEmptyCell(f6), "captured-empty-cell"),
        (P::CapturedBothSides, "captured-both-sides"),
    ];
    for (reason, name) in positions {
        assert_eq!(reason.name(), name);
    }
    use agon_core::ParseErrorKind as K;
    let kinds = [
        (K::Expected("x"), "expected"),
        (K::NoSuchCell, "no-such-cell"),
        (K::TrailingInput, "trailing-input"),
        (K::InvalidPosition(P::GuardOnThrone), "invalid-position"),
        (
            K::IllegalMove {
                number: 1,
                side: agon_core::Side::White,
                reason: I::Outward,
            },
            "illegal-move",
        ),
        (K::MoveNumber(2), "move-number"),
        (K::DuplicateTag, "duplicate-tag"),
        (K::ResultMismatch, "result-mismatch"),
    ];
    for (kind, name) in kinds {
        assert_eq!(kind.name(), name);
    }
}
