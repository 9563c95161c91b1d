//! Text formats for moves and positions, and the parse error they share.
//!
//! # Cells
//!
//! ```text
//! cell = file rank
//! file = "a" / "b" / "c" / "d" / "e" / "f" / "g" / "h" / "i" / "k" / "l"   ; no "j"
//! rank = "1" .. "11"                                                       ; no leading zero
//! ```
//!
//! # Moves
//!
//! ```text
//! step   = cell "-" cell        ; f1-e1
//! return = cell ">" cell        ; f4>l1: the captured piece on f4 is returned to l1
//! pair   = cell cell            ; f1e1: the from-to pair engines exchange
//! pass   = "pass"               ; only in rule sets where a stuck side passes
//! ```
//!
//! A step, a return and a pass are written distinctly, so [`Move`] parses them alone
//! (whether a pass is legal is for the position's rules to say). A pair needs
//! the position to tell a step from a return: [`Position::parse_move`] reads all three
//! forms, and [`Move::pair`] writes the pair form.
//!
//! # Positions
//!
//! One line, like FEN, listing the pieces (there are only fourteen):
//!
//! ```text
//! position = white "/" black " " turn
//! white    = wpiece *("," wpiece)          ; White's seven pieces
//! black    = bpiece *("," bpiece)          ; Black's seven pieces
//! wpiece   = ("Q" / "G") cell ["*"]        ; queen or guard; "*" marks it captured
//! bpiece   = ("q" / "g") cell ["*"]
//! turn     = "w" / "b"                     ; the side to move
//! ```
//!
//! The start position is `Qf1,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w`.
//! [`Position::to_text`] writes the canonical form: each side's queen first, then its
//! guards by cell index. Parsing accepts the pieces of a side in any order, but nothing
//! else: no spaces but the one before the side to move, no missing or extra pieces. The
//! position is validated as by [`Position::from_parts`].
//!
//! # Errors
//!
//! Every parser returns a [`ParseError`] with the byte offset of the fault and what was
//! expected there.

use core::fmt;
use core::str::FromStr;

use crate::{Cell, CellSet, IllegalMove, Kind, Move, Piece, Position, PositionError, Rules, Side};

/// A text that does not parse: where the fault is (a byte offset) and what it is.
///
/// ```
/// use agon_core::{Cell, ParseErrorKind};
///
/// let err = "j5".parse::<Cell>().unwrap_err();
/// assert_eq!(err.offset(), 0);
/// assert_eq!(err.kind(), ParseErrorKind::Expected("a file letter a-l (no j)"));
/// assert_eq!(err.to_string(), "at byte 0: expected a file letter a-l (no j)");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, thiserror::Error)]
#[error("at byte {offset}: {kind}")]
pub struct ParseError {
    offset: usize,
    kind: ParseErrorKind,
}

/// What is wrong in a text that does not parse.
///
/// ```
/// use agon_core::{Move, ParseErrorKind};
/// let err = "f1+f2".parse::<Move>().unwrap_err();
/// assert_eq!(err.kind(), ParseErrorKind::Expected("'-' (a step) or '>' (a return)"));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// Something else stood here; the text says what was expected.
    #[error("expected {0}")]
    Expected(&'static str),
    /// A file letter and rank that name no cell (like `a7`).
    #[error("no such cell")]
    NoSuchCell,
    /// The text goes on after a complete value.
    #[error("unexpected text after the end")]
    TrailingInput,
    /// The pieces parse but do not form a valid position.
    #[error("invalid position: {0}")]
    InvalidPosition(PositionError),
    /// A game record's move is illegal: `number` is its move number as written (each
    /// number covers a move of White and the reply of Black), `side` the side that made it.
    #[error("move {number} of {side} is illegal: {reason}")]
    IllegalMove {
        /// The move number in the record.
        number: u32,
        /// The side whose move it is.
        side: Side,
        /// The rule it breaks.
        reason: IllegalMove,
    },
    /// A game record's move number is not the one expected here.
    #[error("expected move number {0}")]
    MoveNumber(u32),
    /// A game record's tag appears twice.
    #[error("duplicate tag")]
    DuplicateTag,
    /// A game record's result disagrees with its Result tag or with how the game ended.
    #[error("the result does not match the game")]
    ResultMismatch,
    /// A rule set's text does not start with a preset name (`standard` or `ludii`).
    #[error("unknown rules preset (expected standard or ludii)")]
    UnknownPreset,
    /// A rule set's text names an option that does not exist.
    #[error("unknown rules option")]
    UnknownRuleOption,
    /// A rule set's option has a value it does not take.
    #[error("unknown value for this rules option")]
    UnknownRuleValue,
    /// A rule set's text sets one option twice.
    #[error("rules option set twice")]
    DuplicateRuleOption,
    /// A move limit of 0 or above [`crate::Rules::MAX_LIMIT`].
    #[error("the move limit must be from 1 to 100000 plies")]
    LimitOutOfRange,
    /// A game record's variations nest deeper than `Record::MAX_DEPTH` (64) levels.
    #[error("variations nest too deep")]
    VariationTooDeep,
}

impl ParseErrorKind {
    /// A short lowercase name of the kind, stable for programs to match on: `expected`,
    /// `no-such-cell`, `trailing-input`, `invalid-position`, `illegal-move`, `move-number`,
    /// `duplicate-tag`, `result-mismatch`, `unknown-preset`, `unknown-rule-option`,
    /// `unknown-rule-value`, `duplicate-rule-option`, `limit-out-of-range`,
    /// `variation-too-deep`.
    ///
    /// ```
    /// use agon_core::ParseErrorKind;
    /// assert_eq!(ParseErrorKind::NoSuchCell.name(), "no-such-cell");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ParseErrorKind::Expected(_) => "expected",
            ParseErrorKind::NoSuchCell => "no-such-cell",
            ParseErrorKind::TrailingInput => "trailing-input",
            ParseErrorKind::InvalidPosition(_) => "invalid-position",
            ParseErrorKind::IllegalMove { .. } => "illegal-move",
            ParseErrorKind::MoveNumber(_) => "move-number",
            ParseErrorKind::DuplicateTag => "duplicate-tag",
            ParseErrorKind::ResultMismatch => "result-mismatch",
            ParseErrorKind::UnknownPreset => "unknown-preset",
            ParseErrorKind::UnknownRuleOption => "unknown-rule-option",
            ParseErrorKind::UnknownRuleValue => "unknown-rule-value",
            ParseErrorKind::DuplicateRuleOption => "duplicate-rule-option",
            ParseErrorKind::LimitOutOfRange => "limit-out-of-range",
            ParseErrorKind::VariationTooDeep => "variation-too-deep",
        }
    }
}

impl ParseError {
    /// An error of `kind` at byte `offset`.
    ///
    /// ```
    /// use agon_core::{ParseError, ParseErrorKind};
    /// let e = ParseError::new(3, ParseErrorKind::TrailingInput);
    /// assert_eq!(e.offset(), 3);
    /// ```
    pub const fn new(offset: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { offset, kind }
    }

    /// The byte offset of the fault in the text.
    ///
    /// ```
    /// use agon_core::Cell;
    /// assert_eq!("f1x".parse::<Cell>().unwrap_err().offset(), 2);
    /// ```
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong.
    ///
    /// ```
    /// use agon_core::{Cell, ParseErrorKind};
    /// assert_eq!("a7".parse::<Cell>().unwrap_err().kind(), ParseErrorKind::NoSuchCell);
    /// ```
    pub const fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    /// The same error moved `by` bytes further, for a text embedded in a larger one.
    #[cfg(feature = "alloc")]
    pub(crate) const fn shifted(self, by: usize) -> ParseError {
        ParseError {
            offset: self.offset + by,
            kind: self.kind,
        }
    }
}

/// A cursor over ASCII text for the parsers of this crate.
pub(crate) struct Reader<'a> {
    pub(crate) text: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text: text.as_bytes(),
            pos: 0,
        }
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    pub(crate) fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError::new(self.pos, kind)
    }

    pub(crate) fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), ParseError> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(ParseErrorKind::Expected(what)))
        }
    }

    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let hit = self.peek() == Some(byte);
        self.pos += usize::from(hit);
        hit
    }

    pub(crate) fn cell(&mut self) -> Result<Cell, ParseError> {
        match Cell::parse_prefix(&self.text[self.pos..]) {
            Ok((cell, n)) => {
                self.pos += n;
                Ok(cell)
            }
            Err((at, kind)) => Err(ParseError::new(self.pos + at, kind)),
        }
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos == self.text.len()
    }

    pub(crate) fn finish(&self) -> Result<(), ParseError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error(ParseErrorKind::TrailingInput))
        }
    }
}

/// The three move forms, as read before a position tells a pair's kind.
enum MoveText {
    Step(Cell, Cell),
    Return(Cell, Cell),
    Pair(Cell, Cell),
    Pass,
}

/// The text of a pass.
const PASS: &str = "pass";

/// Reads a step, a return, a pass, or (when `pair` is allowed) a from-to pair.
fn read_move(r: &mut Reader<'_>, pair: bool) -> Result<MoveText, ParseError> {
    if r.text[r.pos..].starts_with(PASS.as_bytes()) {
        r.pos += PASS.len();
        return Ok(MoveText::Pass);
    }
    let from = r.cell()?;
    let form: fn(Cell, Cell) -> MoveText = match r.peek() {
        Some(b'-') => MoveText::Step,
        Some(b'>') => MoveText::Return,
        Some(b'a'..=b'z') if pair => return Ok(MoveText::Pair(from, r.cell()?)),
        _ if pair => {
            let what = "'-' (a step), '>' (a return) or a cell (a pair)";
            return Err(r.error(ParseErrorKind::Expected(what)));
        }
        _ => return Err(r.error(ParseErrorKind::Expected("'-' (a step) or '>' (a return)"))),
    };
    r.pos += 1;
    Ok(form(from, r.cell()?))
}

impl FromStr for Move {
    type Err = ParseError;

    /// Parses a step (`f1-e1`) or a return (`f4>l1`). A bare pair (`f1e1`) needs a
    /// position: see [`Position::parse_move`].
    fn from_str(s: &str) -> Result<Move, ParseError> {
        let mut r = Reader::new(s);
        let m = read_move(&mut r, false)?;
        r.finish()?;
        Ok(match m {
            MoveText::Step(from, to) | MoveText::Pair(from, to) => Move::Step { from, to },
            MoveText::Return(from, to) => Move::Return { from, to },
            MoveText::Pass => Move::Pass,
        })
    }
}

impl fmt::Display for Move {
    /// Writes `f1-e1` for a step, `f4>l1` for a return and `pass` for a pass.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Step { from, to } => write!(f, "{from}-{to}"),
            Move::Return { from, to } => write!(f, "{from}>{to}"),
            Move::Pass => f.pad(PASS),
        }
    }
}

/// A move written as its from-to pair (`f1e1`); see [`Move::pair`].
#[derive(Copy, Clone, Debug)]
pub struct PairText(Move);

impl fmt::Display for PairText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.cells() {
            Some((from, to)) => write!(f, "{from}{to}"),
            None => f.write_str(PASS),
        }
    }
}

impl Move {
    /// The move as a plain from-to pair, the form engines exchange (`f1e1`; a pass is
    /// `pass`).
    ///
    /// ```
    /// use agon_core::Move;
    /// let m: Move = "f4>l1".parse()?;
    /// assert_eq!(m.pair().to_string(), "f4l1");
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub const fn pair(self) -> PairText {
        PairText(self)
    }
}

impl Position {
    /// Parses a move in any of the three forms (step `f1-e1`, return `f4>l1`, pair `f1e1`);
    /// a pair is a return when the piece on its first cell is captured. The move is not
    /// checked for legality: [`Position::play`] does that.
    ///
    /// ```
    /// use agon_core::{Move, Position};
    /// let pos = Position::start();
    /// assert_eq!(pos.parse_move("f1e1")?, "f1-e1".parse::<Move>()?);
    /// assert!(pos.parse_move("f1").is_err());
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseError> {
        let mut r = Reader::new(text);
        let m = read_move(&mut r, true)?;
        r.finish()?;
        Ok(match m {
            MoveText::Step(from, to) => Move::Step { from, to },
            MoveText::Return(from, to) => Move::Return { from, to },
            MoveText::Pair(from, to) => self.move_from_pair(from, to),
            MoveText::Pass => Move::Pass,
        })
    }

    /// The position in its one-line text form (see the [module docs](crate::notation)).
    ///
    /// ```
    /// use agon_core::Position;
    /// let text = Position::start().to_text().to_string();
    /// assert_eq!(text.parse::<Position>()?, Position::start());
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn to_text(&self) -> PositionText {
        PositionText(*self)
    }

    /// Parses the one-line text form (see the [module docs](crate::notation)).
    ///
    /// ```
    /// use agon_core::{ParseErrorKind, Position, PositionError, Side};
    /// let pos = Position::from_text("Qf6,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11,ga2*,gb7,gd1,gh1,gk7,gl2 b")?;
    /// assert_eq!(pos.captured().len(), 1);
    /// let err = Position::from_text("Qf1/qf11 w").unwrap_err();
    /// assert_eq!(err.kind(), ParseErrorKind::InvalidPosition(PositionError::PieceCount(Side::White)));
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn from_text(text: &str) -> Result<Position, ParseError> {
        Position::from_text_with_rules(text, Rules::STANDARD)
    }

    /// Parses the one-line text form as a position under `rules` (the text does not carry
    /// a rule set). Only rules that trap pieces accept captured pieces of both sides.
    ///
    /// ```
    /// use agon_core::{Between, Position, Rules};
    /// let text = "Qf1*,Ga5,Gb1,Gd9,Gh9,Gk1,Gl5/qf11*,ga2,gb7,gd1,gh1,gk7,gl2 w";
    /// assert!(Position::from_text(text).is_err());
    /// let trapped = Rules::STANDARD.with_between(Between::Trapped);
    /// assert_eq!(Position::from_text_with_rules(text, trapped)?.captured().len(), 2);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn from_text_with_rules(text: &str, rules: Rules) -> Result<Position, ParseError> {
        let mut r = Reader::new(text);
        let mut pieces = [(Cell::THRONE, Piece::new(Side::White, Kind::Queen)); 14];
        let mut n = 0;
        let mut captured = CellSet::EMPTY;
        for side in Side::ALL {
            let first = n;
            loop {
                let expected = match side {
                    Side::White => "a White piece 'Q' or 'G'",
                    Side::Black => "a Black piece 'q' or 'g'",
                };
                let piece = r
                    .peek()
                    .and_then(|c| Piece::from_char(c as char))
                    .filter(|p| p.side == side)
                    .ok_or_else(|| r.error(ParseErrorKind::Expected(expected)))?;
                // Seven pieces a side: an eighth is this side's fault, found where it starts.
                if n - first == 7 {
                    let kind = ParseErrorKind::InvalidPosition(PositionError::PieceCount(side));
                    return Err(r.error(kind));
                }
                r.pos += 1;
                let cell = r.cell()?;
                pieces[n] = (cell, piece);
                n += 1;
                if r.eat(b'*') {
                    captured.insert(cell);
                }
                if !r.eat(b',') {
                    break;
                }
            }
            match side {
                Side::White => r.expect(b'/', "',' or '/' after White's pieces")?,
                Side::Black => r.expect(b' ', "',' or ' ' after Black's pieces")?,
            }
        }
        let turn = r
            .peek()
            .and_then(|c| Side::from_char(c as char))
            .ok_or_else(|| r.error(ParseErrorKind::Expected("the side to move, 'w' or 'b'")))?;
        r.pos += 1;
        r.finish()?;
        Position::from_parts_with_rules(rules, turn, pieces[..n].iter().copied(), captured)
            .map_err(|e| ParseError::new(0, ParseErrorKind::InvalidPosition(e)))
    }
}

impl FromStr for Position {
    type Err = ParseError;

    /// See [`Position::from_text`].
    fn from_str(s: &str) -> Result<Position, ParseError> {
        Position::from_text(s)
    }
}

/// A position written in its one-line text form; see [`Position::to_text`].
#[derive(Copy, Clone, Debug)]
pub struct PositionText(Position);

impl fmt::Display for PositionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pos = &self.0;
        for side in Side::ALL {
            let queen = pos.queen(side);
            for (i, cell) in core::iter::once(queen).chain(pos.guards(side)).enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                let piece = pos.piece_at(cell).ok_or(fmt::Error)?;
                write!(f, "{}{}", piece.char(), cell)?;
                if pos.is_captured(cell) {
                    f.write_str("*")?;
                }
            }
            f.write_str(if side == Side::White { "/" } else { " " })?;
        }
        write!(f, "{}", pos.turn().char())
    }
}

impl PartialEq<str> for PositionText {
    fn eq(&self, other: &str) -> bool {
        // Compare without allocating: write into a comparing sink.
        struct Cmp<'a>(&'a [u8], bool);
        impl fmt::Write for Cmp<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                match self.0.strip_prefix(s.as_bytes()) {
                    Some(rest) => {
                        self.0 = rest;
                        Ok(())
                    }
                    None => {
                        self.1 = false;
                        Err(fmt::Error)
                    }
                }
            }
        }
        let mut c = Cmp(other.as_bytes(), true);
        fmt::write(&mut c, format_args!("{self}")).is_ok() && c.1 && c.0.is_empty()
    }
}

impl PartialEq<&str> for PositionText {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}
