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
//! # Modules
//!
//! | module | what it holds |
//! |---|---|
//! | [`cell`] | [`Cell`], [`Ring`], [`Direction`]: the geometry, the one source of its tables |
//! | [`cellset`] | [`CellSet`], the 128-bit bitboard |
//! | [`piece`] | [`Side`], [`Kind`], [`Piece`] |
//! | [`position`] | [`Position`] and its validation |
//! | [`moves`] | [`Move`] (a step or a return) and [`MoveList`] |
//! | [`rules`] | every rule: legal moves, steps, captures, returns, the end of the game |
//! | [`outcome`] | [`Outcome`] and [`EndReason`] |
//! | [`game`] | [`Game`]: history, undo, repetition (feature `alloc`) |
//! | [`notation`] | the text of moves and positions, [`ParseError`] |
//! | [`record`] | game records, like PGN (feature `alloc`) |
//! | [`symmetry`] | the twelve [`Symmetry`]s of the board |
//! | [`perft`](mod@perft) | [`perft()`] |
//! | [`random`] | a small seeded generator and random playouts |
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
//! More positions, exercising captures, returns and the end rules, are in the tests
//! (`tests/perft.rs`).
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod cell;
pub mod cellset;
mod display;
#[cfg(feature = "alloc")]
pub mod game;
pub mod moves;
pub mod notation;
pub mod outcome;
pub mod perft;
pub mod piece;
pub mod position;
pub mod random;
#[cfg(feature = "alloc")]
pub mod record;
pub mod rules;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod symmetry;
mod zobrist;

pub use cell::{Cell, Direction, Ring, CELL_COUNT};
pub use cellset::{CellSet, CellSetIter};
#[cfg(feature = "alloc")]
pub use game::Game;
pub use moves::{Actions, ActionsIter, Move, MoveList, MAX_LEGAL_MOVES};
pub use notation::{ParseError, ParseErrorKind, PositionText};
pub use outcome::{EndReason, Outcome};
pub use perft::perft;
#[cfg(feature = "alloc")]
pub use perft::perft_divide;
pub use piece::{Kind, Piece, Side};
pub use position::{Position, PositionError};
#[cfg(feature = "alloc")]
pub use record::{Record, Score};
pub use rules::IllegalMove;
pub use symmetry::Symmetry;
