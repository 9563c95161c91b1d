//! serde: human-readable formats use the text forms, deserializing validates.
#![cfg(feature = "serde")]

use agon_core::{Cell, Game, Move, Position, Side, CELL_COUNT};

#[test]
fn cells_moves_and_positions_serialize_as_their_text() {
    let f6 = Cell::THRONE;
    assert_eq!(serde_json::to_string(&f6).unwrap(), "\"f6\"");
    let m: Move = "f4>l1".parse().unwrap();
    assert_eq!(serde_json::to_string(&m).unwrap(), "\"f4>l1\"");
    assert_eq!(serde_json::to_string(&Side::Black).unwrap(), "\"b\"");
    assert_eq!(
        serde_json::to_string(&Position::start()).unwrap(),
        "\"Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w\""
    );
    assert_eq!(serde_json::from_str::<Cell>("\"l6\"").unwrap().index(), 90);
    assert_eq!(
        serde_json::from_str::<Move>("\"f1-e1\"").unwrap(),
        "f1-e1".parse().unwrap()
    );
    assert_eq!(serde_json::from_str::<Side>("\"w\"").unwrap(), Side::White);
}

#[test]
fn deserializing_rejects_invalid_values() {
    assert!(serde_json::from_str::<Cell>("\"j5\"").is_err());
    assert!(serde_json::from_str::<Move>("\"f1f2\"").is_err());
    assert!(serde_json::from_str::<Side>("\"x\"").is_err());
    // A guard on the throne is not a position.
    let bad = "\"Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gf6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w\"";
    let err = serde_json::from_str::<Position>(bad)
        .unwrap_err()
        .to_string();
    assert!(err.contains("a guard on the throne"), "{err}");
}

#[test]
fn games_round_trip_as_records_and_reject_illegal_moves() {
    let mut game = Game::new();
    for m in ["f1-e1", "f11-g10", "e1-e2"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let json = serde_json::to_string(&game).unwrap();
    assert_eq!(
        json,
        "\"[Result \\\"*\\\"]\\n\\n1. f1-e1 f11-g10 2. e1-e2 *\\n\""
    );
    assert_eq!(serde_json::from_str::<Game>(&json).unwrap(), game);
    let illegal = "\"[Result \\\"*\\\"]\\n\\n1. f1-f3 *\\n\"";
    let err = serde_json::from_str::<Game>(illegal)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("move 1 of White is illegal: the cells are not adjacent"),
        "{err}"
    );
}

#[test]
fn compact_formats_use_indices_and_replay_games() {
    // postcard is not human-readable: cells are one byte, moves three.
    assert_eq!(postcard::to_allocvec(&Cell::THRONE).unwrap(), [45]);
    let m: Move = "f4>l1".parse().unwrap();
    let f4 = "f4".parse::<Cell>().unwrap().index() as u8;
    let l1 = "l1".parse::<Cell>().unwrap().index() as u8;
    assert_eq!(postcard::to_allocvec(&m).unwrap(), [1, f4, l1]);
    assert_eq!(postcard::from_bytes::<Move>(&[1, f4, l1]).unwrap(), m);
    assert!(postcard::from_bytes::<Cell>(&[CELL_COUNT as u8]).is_err());

    let mut game = Game::new();
    for m in ["f1-e1", "f11-g10"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let bytes = postcard::to_allocvec(&game).unwrap();
    assert_eq!(postcard::from_bytes::<Game>(&bytes).unwrap(), game);
    // The same moves from Black's turn: f1-e1 is then not Black's piece.
    let moves: Vec<Move> = game.moves().to_vec();
    let bad = postcard::to_allocvec(&(Position::start().with_turn(Side::Black), moves)).unwrap();
    let err = postcard::from_bytes::<Game>(&bad).unwrap_err().to_string();
    assert!(!err.is_empty());
}
