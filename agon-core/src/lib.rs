//! The rules engine of **Agon** (Queen's Guard, London 1842): two players, 91 hexagonal
//! cells, one queen and six guards each, racing to surround the throne.
//!
//! The crate is the reference implementation of the rules in `RULES.md`: cells and their
//! names, positions as small `Copy` values built on 128-bit cell sets, legal-move
//! generation without allocation, captures and returns, the end of the game, games with
//! repetition, Zobrist hashing, text formats and perft.
//!
//! ```
//! use agon_core::{Game, Position};
//!
//! let mut game = Game::new();
//! assert_eq!(game.legal_moves().len(), 27);
//! game.play("f1-e1".parse()?)?;
//! game.play("f11-g10".parse()?)?;
//! assert_eq!(game.position().to_text(), "Qe1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qg10,ga2,gb7,gd1,gh1,gk7,gl2 w");
//! assert_eq!(game.outcome(), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What is where
//!
//! How this crate fits with the rest of the workspace, and where each fact lives, is in
//! `ARCHITECTURE.md` at the repository root.
//!
//! The types are at the crate root; the two modules group families you browse: the text
//! formats ([`notation`]) and seeded randomness ([`random`]). In the source, each rule of
//! RULES.md lives in one file, named in the third column.
//!
//! | concept | types | source |
//! |---|---|---|
//! | the geometry, the one source of its tables | [`Cell`], [`Ring`], [`Direction`], [`CELL_COUNT`] | `cell.rs` |
//! | the 128-bit bitboard | [`CellSet`] | `cellset.rs` |
//! | sides and pieces | [`Side`], [`Kind`], [`Piece`] | `piece.rs` |
//! | positions and their validation | [`Position`], [`PositionError`] | `position.rs` |
//! | moves (a step or a return) | [`Move`], [`MoveList`], [`MoveSet`] | `moves.rs` |
//! | the rule set and its options (RULES.md section 8) | [`Rules`], [`Capture`], [`Between`], [`GuardReturn`], [`QueenReturn`], [`QueenPlacer`], [`EmptyThroneRing`], [`Stuck`], [`Repetition`] | `ruleset.rs` |
//! | every rule: legal moves, steps, captures, returns, the end of the game | methods of [`Position`], [`IllegalMove`] | `rules.rs` |
//! | how a game ended | [`Outcome`], [`EndReason`], [`Score`] | `outcome.rs` |
//! | history, undo, repetition, playing a game out between players (feature `alloc`) | [`Game`], [`ChoiceError`] | `game.rs` |
//! | the text of moves and positions | [`notation`], [`ParseError`], [`PositionText`] | `notation.rs` |
//! | game records, like PGN, with variations (feature `alloc`) | [`Record`], [`Variation`], [`RecordError`] | `record.rs` |
//! | the twelve symmetries of the board | [`Symmetry`] | `symmetry.rs` |
//! | move-generation counts | [`perft()`], [`perft_divide`] | `perft.rs` |
//! | a small seeded generator and random playouts | [`random`] | `random.rs` |
//!
//! # Features
//!
//! - `std` (default): implies `alloc`.
//! - `alloc`: [`Game`], game records, [`perft_divide`].
//! - `serde`: `Serialize`/`Deserialize` for cells, moves, positions and games; human-readable
//!   formats use the text forms, and deserializing validates like parsing.
//!
//! Without default features the crate is `no_std` and never allocates.
//!
//! # Errors and bad input
//!
//! No input crashes the crate, hangs it, or leaves a value half-changed:
//!
//! - Every public function returns an error value for bad input, and never panics:
//!   [`ParseError`] for text (with the byte offset of the fault), [`IllegalMove`] for a
//!   move the rules refuse, [`PositionError`] for pieces that make no position, `None`
//!   where there is nothing to return. The exceptions say so: the `_unchecked` functions
//!   ([`Position::play_unchecked`], [`Game::push_unchecked`]) trust their caller, and an
//!   illegal move there may break a position's invariants (never memory safety); items
//!   with a `# Panics` section ([`perft()`] past [`MAX_PERFT_DEPTH`]) panic only as
//!   documented.
//! - A call that fails changes nothing: [`Game::play`] of an illegal move leaves the game
//!   exactly as it was, and the parsers build a new value or none.
//! - Parsers read their input once, in time linear in its length: game records in
//!   O(n log n) for n tags (duplicate tags are found with a search tree, even when their
//!   names are chosen to collide), and cells, moves and positions stop at the first byte
//!   past the longest valid text, so a megabyte of junk costs no more than one byte.
//! - Memory is bounded by what is kept: a [`Game`] holds its positions and a hash table of
//!   under eight slots per position of the longest line it has held, however many moves
//!   were played and taken back.
//!
//! ```
//! use agon_core::{Game, IllegalMove, ParseErrorKind, Position, Record};
//!
//! let mut game = Game::new();
//! assert_eq!(game.play("f1-f3".parse()?), Err(IllegalMove::NotAdjacent));
//! assert_eq!(game, Game::new());
//! let junk = format!("f1-e1{}", "x".repeat(1 << 20));
//! assert_eq!(junk.parse::<agon_core::Move>().unwrap_err().offset(), 5);
//! let err = "[A \"1\"]\n[A \"2\"]\n\n*".parse::<Record>().unwrap_err();
//! assert_eq!((err.offset(), err.kind()), (8, ParseErrorKind::DuplicateTag));
//! # Ok::<(), agon_core::ParseError>(())
//! ```
//!
//! # perft
//!
//! From the start position (`cargo run --release --example perft -- 6`):
//!
//! | depth | leaves |
//! |---|---|
//! | 1 | 27 |
//! | 2 | 713 |
//! | 3 | 18 417 |
//! | 4 | 466 557 |
//! | 5 | 11 662 533 |
//! | 6 | 287 983 241 |
//! | 7 | 7 058 228 245 |
//!
//! From positions that exercise captures, returns and the end rules (all checked in
//! `tests/perft.rs`, and against the plain reference generator of `agon-reference`):
//!
//! | position | what it exercises | depths 1, 2, 3, 4 |
//! |---|---|---|
//! | `Qf5,Gb3,Gc5,Gd7,Gh9,Gk1,Gl5/qe5,gc4,gd1,gd6,gh1,gk7,gl2 w` | `c5-d5` captures three pieces, the queen among them; `b3-c3` and `d7-e7` capture one | 22, 575, 12 520, 349 752 |
//! | `Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf7*,ga2*,gb7*,gd1,gh1,gk7,gl2 b` | the captured queen returns first (77 cells, the throne among them), then a choice of two guards | 77, 2 048, 70 710, 1 793 035 |
//! | `Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w` | `h5-g6` completes the throne ring and wins: no leaves below it | 5, 108, 486, 11 568 |
//! | `Qa3,Ga1,Ga2,Ga4,Ga5,Ga6,Gb1/qf11,gb2,gb4,gb6,gb7,gc1,gd2 b` | five of Black's moves leave White without an action | 21, 49, 981, 8 040 |
//!
//! ```
//! use agon_core::{perft, Position};
//! let pos: Position = "Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w".parse()?;
//! assert_eq!(perft(&pos, 2), 108);
//! # Ok::<(), agon_core::ParseError>(())
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod cell;
mod cellset;
mod display;
#[cfg(feature = "alloc")]
mod game;
mod moves;
pub mod notation;
mod outcome;
mod perft;
mod piece;
mod position;
pub mod random;
#[cfg(feature = "alloc")]
mod record;
mod rules;
mod ruleset;
#[cfg(feature = "serde")]
mod serde_impls;
mod symmetry;
mod zobrist;

pub use cell::{Cell, Direction, Ring, CELL_COUNT};
pub use cellset::{CellSet, CellSetIter};
#[cfg(feature = "alloc")]
pub use game::{ChoiceError, Game};
#[allow(deprecated)]
pub use moves::{Actions, ActionsIter};
pub use moves::{Move, MoveList, MoveSet, MoveSetIter, MAX_LEGAL_MOVES};
pub use notation::{ParseError, ParseErrorKind, PositionText};
pub use outcome::{EndReason, Outcome, Score};
#[cfg(feature = "alloc")]
pub use perft::perft_divide;
pub use perft::{perft, MAX_PERFT_DEPTH};
pub use piece::{Kind, Piece, Side};
pub use position::{Position, PositionError};
#[cfg(feature = "alloc")]
pub use record::{Record, RecordError, Variation};
pub use rules::IllegalMove;
pub use ruleset::{
    Between, Capture, EmptyThroneRing, GuardReturn, QueenPlacer, QueenReturn, Repetition, Rules,
    Stuck,
};
pub use symmetry::Symmetry;

/// The Rust examples of the repository's README, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;
