//! Opening books: varied, balanced start positions for arena matches, each played twice
//! with colours swapped so that neither bot profits from a lucky opening.
//!
//! A book is built by [`generate`] from a seed: random playouts from the start to a few
//! plies (4 to 9, evenly), keeping positions that no earlier playout reached, that are not
//! over and where no piece is captured, and that a short search of the
//! [`Engine`] scores within ±[`BALANCE`] centipoints. [`standard`] is the
//! book of 300 positions committed in `agon-bots/book/openings.txt`, made by the `book`
//! example (`cargo run --release -p agon-bots --example book -- 300 1 >
//! agon-bots/book/openings.txt`) while the evaluation still had its hand-set weights
//! (the same command now gives another book); it stays fixed when the engine changes.
//!
//!
//! # Rule sets
//!
//! The book is made for the standard rules and holds positions, not move sequences. Its
//! positions hold no captured piece, and [`under_rules`] puts them under another rule
//! set ([`Position::with_rules`]), where each is a valid position that is not over (a
//! test checks every preset and option). They were reached by steps legal under every
//! rule set (a standard step is legal whatever V1 to V9 say), but a standard capture on
//! the way (then returned) may have gone otherwise under `capture=same-ring`; and a move
//! limit counts from the book position, as for any game started there.
//!
//! ```
//! use agon_bots::book;
//! let openings = book::standard();
//! assert_eq!(openings.len(), 300);
//! assert!(openings.iter().all(|p| !p.is_over() && p.captured().is_empty()));
//! ```

use std::collections::HashSet;
use std::fmt;

use agon_core::random::Rng;
use agon_core::{Game, ParseError, Position, Rules};

use crate::{Engine, Evaluation, Limits};

/// The largest score, in centipoints, of a book position for either side, by a search of
/// [`SEARCH_NODES`] nodes.
///
/// ```
/// assert!(agon_bots::book::BALANCE > 0);
/// ```
pub const BALANCE: i32 = 60;

/// The node budget of the search that checks a book position's balance.
///
/// ```
/// assert!(agon_bots::book::SEARCH_NODES > 0);
/// ```
pub const SEARCH_NODES: u64 = 4_000;

/// The committed book (see the [module docs](self)).
const STANDARD: &str = include_str!("../book/openings.txt");

/// The committed book of 300 positions, in file order.
///
/// ```
/// let first = agon_bots::book::standard()[0];
/// assert_ne!(first, agon_core::Position::start());
/// ```
pub fn standard() -> Vec<Position> {
    parse(STANDARD).unwrap_or_default()
}

/// The positions of `book` put under `rules` ([`Position::with_rules`]), in order,
/// leaving out any that cannot be (one where both sides hold captured pieces, under rules
/// without traps: no book of this module has one).
///
/// ```
/// use agon_bots::book;
/// use agon_core::Rules;
/// let ludii = book::under_rules(&book::standard(), Rules::LUDII);
/// assert_eq!(ludii.len(), 300);
/// assert!(ludii.iter().all(|p| p.rules() == Rules::LUDII && !p.is_over()));
/// ```
pub fn under_rules(book: &[Position], rules: Rules) -> Vec<Position> {
    book.iter()
        .filter_map(|p| p.with_rules(rules).ok())
        .collect()
}

/// Why [`parse`] refused a book: the first line that is not a position.
///
/// ```
/// use agon_bots::book::{parse, BookError};
/// let err: BookError = parse("\n# a comment\njunk").unwrap_err();
/// assert_eq!((err.line, err.text.as_str()), (3, "junk"));
/// assert_eq!(err.error.offset(), 0);
/// assert_eq!(err.to_string(), "line 3 is not a position: \"junk\"");
/// let source = std::error::Error::source(&err).map(|e| e.to_string());
/// assert_eq!(source, Some(err.error.to_string()));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct BookError {
    /// The number of the line, from 1.
    pub line: usize,
    /// The line, without the spaces around it.
    pub text: String,
    /// Why it is not a position text.
    pub error: ParseError,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {} is not a position: {:?}", self.line, self.text)
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Reads a book: one position text per line; blank lines and lines starting with `#` are
/// skipped.
///
/// # Errors
///
/// A [`BookError`] with the number (from 1) and text of the first line that is not a
/// position.
///
/// ```
/// use agon_bots::book::parse;
/// let book = parse("# two\nQf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w\n\n")?;
/// assert_eq!(book.len(), 1);
/// assert_eq!(parse("junk").unwrap_err().to_string(), "line 1 is not a position: \"junk\"");
/// # Ok::<(), agon_bots::book::BookError>(())
/// ```
pub fn parse(text: &str) -> Result<Vec<Position>, BookError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            l.trim().parse::<Position>().map_err(|error| BookError {
                line: i + 1,
                text: l.trim().to_string(),
                error,
            })
        })
        .collect()
}

/// `count` book positions from `seed` (see the [module docs](self)); the same seed gives
/// the same book while the engine's evaluation stays the same. Gives up (returning fewer)
/// after `100 * count` playouts.
///
/// ```
/// use agon_bots::book::generate;
/// let book = generate(3, 1);
/// assert_eq!(book, generate(3, 1));
/// assert_eq!(book.len(), 3);
/// ```
pub fn generate(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut seen = HashSet::new();
    let mut book = Vec::with_capacity(count);
    let mut engine = Engine::new(Limits::nodes(SEARCH_NODES)).with_hash_mib(4);
    for attempt in 0..count.saturating_mul(100) {
        if book.len() >= count {
            break;
        }
        let plies = 4 + attempt % 6;
        let mut game = Game::new();
        while game.moves().len() < plies && !game.is_over() {
            let moves = game.legal_moves();
            game.push_unchecked(moves[rng.below(moves.len())]);
        }
        let position = *game.position();
        if game.is_over() || !position.captured().is_empty() || !seen.insert(position.hash()) {
            continue;
        }
        let Ok(analysis) = engine.analyse(&position, Limits::nodes(SEARCH_NODES), 1) else {
            continue;
        };
        if matches!(analysis.score(), Evaluation::Points(p) if p.abs() <= BALANCE) {
            book.push(position);
        }
    }
    book
}
