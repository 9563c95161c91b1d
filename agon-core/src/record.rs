//! Game records ([`Record`]), like PGN; the format is documented on the type.

use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use crate::notation::Reader;
use crate::{Game, IllegalMove, Move, ParseError, ParseErrorKind, Position, Rules, Score, Side};

/// A game record, like PGN: tag pairs, then numbered moves with their variations, then
/// the result.
///
/// ```text
/// record    = *(tag newline) newline movetext result newline
/// tag       = "[" name " " '"' value '"' "]"   ; value escapes '"' and '\' with '\'
/// name      = 1*(letter / digit / "_")
/// movetext  = *entry                          ; "1. f1-e1 f11-g10 2. e1-f1"
/// entry     = [number] move *variation
/// variation = "(" 1*entry ")"                 ; another move instead of the one before
/// number    = digits "."                      ; before each move of White
///           / digits "..."                    ; before a move of Black that starts a
///                                             ; line or follows a variation
/// move      = step / return / pair / pass     ; see crate::notation
/// result    = "1-0" / "0-1" / "1/2-1/2" / "*"
/// ```
///
/// Three tags have a meaning: `Rules` holds the rule set's text (see [`Rules`]) when it is
/// not the standard one, `Position` the start position's text when it is not the standard
/// start (read under the `Rules` tag's rules, wherever that tag stands), and `Result`
/// repeats the result. Any whitespace may separate tokens; `(` and `)` need none.
/// Parsing replays every move and names the first illegal one by its number. A game that
/// ended by the rules must carry its result; a game still going may carry any result
/// (a resignation or an agreement) or `*`. Other tags are kept in order.
///
/// # Variations
///
/// As in PGN, a variation in parentheses follows the move it replaces: it is played from
/// the position before that move, and may hold variations of its own, nested at most
/// [`MAX_DEPTH`](Self::MAX_DEPTH) deep. A move may have several. The moves outside any
/// parentheses are the main line, the game; the result is the main line's. A variation
/// may end the game (repetition counts the moves before it); no result closes it.
///
/// ```text
/// 1. f1-e1 (1. f1-g1 f11-e10) (1. a5-b5) 1... f11-g10 2. e1-f1 *
/// ```
///
/// is the main line `f1-e1 f11-g10 e1-f1` with two other first moves of White, the first
/// with Black's answer. The canonical text opens each variation with its move number,
/// and numbers a move of Black that follows one.
///
/// The record holds the tags, the game (its start and moves), the variations and the
/// written result.
///
/// A record cannot contradict itself, so [`to_string`](ToString::to_string) always writes
/// text that [`from_str`](FromStr::from_str) reads back to an equal record: its fields are
/// private, the result of a finished game is the game's own ([`set_result`](Self::set_result)
/// refuses another), [`set_tag`](Self::set_tag) refuses a name or value the text
/// format cannot hold, and [`add_variation`](Self::add_variation) a variation with an
/// illegal move. The `Rules`, `Position` and `Result` tags are not kept with the
/// others: they are written from the game's rules, its start and the result.
///
/// ```
/// use agon_core::{Game, Record, RecordError, Score};
///
/// let mut record = Record::new(Game::new());
/// record.set_tag("Event", "Club night")?;
/// record.set_result(Score::BlackWins)?; // White resigned: the game itself goes on
/// assert_eq!(record.to_string().parse::<Record>(), Ok(record.clone()));
/// assert_eq!(record.set_tag("Result", "1-0"), Err(RecordError::ReservedTag));
/// # Ok::<(), RecordError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    tags: Vec<(String, String)>,
    game: Game,
    /// `variations[i]`: the variations that replace move `i` of the game (as many entries
    /// as the game has moves).
    variations: Vec<Vec<Variation>>,
    result: Score,
}

/// A variation: moves played instead of a move of the line it branches from, each move
/// with the variations that replace it in turn.
///
/// A variation is only moves; it is checked against the rules when a [`Record`] takes it
/// ([`Record::add_variation`]), and a record hands out only the variations it checked.
///
/// ```
/// use agon_core::{Game, Record, Variation};
///
/// let mut record: Record = "1. f1-e1 f11-g10 *".parse()?;
/// // Instead of Black's f11-g10: f11-e10, and instead of that, l2-l1.
/// let mut other = Variation::new(vec!["f11-e10".parse()?]);
/// other.add_variation(0, Variation::new(vec!["l2-l1".parse()?]))?;
/// record.add_variation(1, other)?;
/// assert_eq!(record.to_string(), "[Result \"*\"]\n\n1. f1-e1 f11-g10 (1... f11-e10 (1... l2-l1)) *\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Variation {
    moves: Vec<Move>,
    /// `variations[i]` replace `moves[i]`; as many entries as moves.
    variations: Vec<Vec<Variation>>,
}

/// Why a [`Record`] refused a tag or a result.
///
/// ```
/// use agon_core::{Game, Record, RecordError, Score};
/// let mut record = Record::new(Game::new());
/// assert_eq!(record.set_tag("my tag", "x"), Err(RecordError::TagName));
/// assert_eq!(record.set_tag("Note", "two\nlines"), Err(RecordError::TagValue));
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum RecordError {
    /// A tag name must be one or more ASCII letters, digits or `_`.
    TagName,
    /// A variation has no move.
    EmptyVariation,
    /// The index names no move of the line.
    NoSuchMove,
    /// A move of the variation is illegal where it is played.
    IllegalVariationMove(IllegalMove),
    /// The variations nest deeper than [`Record::MAX_DEPTH`].
    VariationTooDeep,
    /// `Rules`, `Position` and `Result` are written from the game and the result, never set.
    ReservedTag,
    /// A tag value cannot hold a line break.
    TagValue,
    /// The game is over, and its result is the one its outcome gives.
    ResultContradictsOutcome,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RecordError::TagName => "a tag name is one or more ASCII letters, digits or '_'",
            RecordError::EmptyVariation => "a variation has at least one move",
            RecordError::NoSuchMove => "no move of the line has this index",
            RecordError::IllegalVariationMove(reason) => {
                return write!(f, "a move of the variation is illegal: {reason}");
            }
            RecordError::VariationTooDeep => "the variations nest too deep",
            RecordError::ReservedTag => {
                "the Rules, Position and Result tags come from the game and its result"
            }
            RecordError::TagValue => "a tag value cannot hold a line break",
            RecordError::ResultContradictsOutcome => {
                "the game is over: its result is the one its outcome gives"
            }
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RecordError {}

impl Record {
    /// A record of `game` with no tags and the result of its outcome.
    ///
    /// ```
    /// use agon_core::{Game, Record, Score};
    /// assert_eq!(Record::new(Game::new()).result(), Score::Unfinished);
    /// ```
    pub fn new(game: Game) -> Record {
        let result = Score::from_outcome(game.outcome());
        Record {
            tags: Vec::new(),
            variations: no_variations(game.moves().len()),
            game,
            result,
        }
    }

    /// How deep variations may nest: a variation of the main line is at depth 1, a
    /// variation of that at depth 2. Deeper text is refused
    /// ([`ParseErrorKind::VariationTooDeep`]), so that reading, writing and dropping a
    /// record never recurse without bound.
    ///
    /// ```
    /// use agon_core::{ParseErrorKind, Record};
    /// let deep = format!("1. f1-e1 {}*", "(1. f1-g1 (1. f1-e1 ".repeat(33));
    /// let err = deep.parse::<Record>().unwrap_err();
    /// assert_eq!(err.kind(), ParseErrorKind::VariationTooDeep);
    /// ```
    pub const MAX_DEPTH: usize = 64;

    /// The variations that replace move `ply` (from 0) of the main line, in order: empty
    /// when there are none or the game has no such move.
    ///
    /// ```
    /// use agon_core::Record;
    /// let record: Record = "1. f1-e1 (1. f1-g1) (1. a5-b5) 1... f11-g10 *".parse()?;
    /// let firsts: Vec<String> = record.variations(0).iter().map(|v| v.moves()[0].to_string()).collect();
    /// assert_eq!(firsts, ["f1-g1", "a5-b5"]);
    /// assert!(record.variations(1).is_empty());
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn variations(&self, ply: usize) -> &[Variation] {
        self.variations.get(ply).map_or(&[], Vec::as_slice)
    }

    /// Whether any move of the main line has a variation.
    ///
    /// ```
    /// use agon_core::Record;
    /// assert!(!"1. f1-e1 *".parse::<Record>()?.has_variations());
    /// assert!("1. f1-e1 (1. f1-g1) *".parse::<Record>()?.has_variations());
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn has_variations(&self) -> bool {
        self.variations.iter().any(|v| !v.is_empty())
    }

    /// Adds `variation` (with the variations nested in it) last among those that replace
    /// move `ply` (from 0) of the main line, after checking every move of it against the
    /// rules. On an error the record is unchanged.
    ///
    /// # Errors
    ///
    /// [`RecordError::NoSuchMove`] when the game has no move `ply`;
    /// [`RecordError::EmptyVariation`], [`RecordError::IllegalVariationMove`] and
    /// [`RecordError::VariationTooDeep`] for the first fault found in the variation.
    ///
    /// ```
    /// use agon_core::{IllegalMove, Record, RecordError, Variation};
    /// let mut record: Record = "1. f1-e1 f11-g10 *".parse()?;
    /// record.add_variation(0, Variation::new(vec!["a5-b5".parse()?, "f11-e10".parse()?]))?;
    /// assert_eq!(record.to_string(), "[Result \"*\"]\n\n1. f1-e1 (1. a5-b5 f11-e10) 1... f11-g10 *\n");
    /// let jump = Variation::new(vec!["f11-f9".parse()?]);
    /// assert_eq!(
    ///     record.add_variation(1, jump),
    ///     Err(RecordError::IllegalVariationMove(IllegalMove::NotAdjacent))
    /// );
    /// assert_eq!(record.add_variation(2, Variation::new(vec!["e1-f1".parse()?])), Err(RecordError::NoSuchMove));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_variation(&mut self, ply: usize, variation: Variation) -> Result<(), RecordError> {
        let Some(slot) = self.variations.get_mut(ply) else {
            return Err(RecordError::NoSuchMove);
        };
        let mut game = self.game.clone();
        while game.moves().len() > ply {
            game.undo();
        }
        check_variation(&mut game, &variation, 1)?;
        slot.push(variation);
        Ok(())
    }

    /// Removes and returns variation `index` of those that replace move `ply` of the main
    /// line, or `None` when there is no such variation.
    ///
    /// ```
    /// use agon_core::Record;
    /// let mut record: Record = "1. f1-e1 (1. f1-g1) *".parse()?;
    /// assert_eq!(record.remove_variation(0, 0).map(|v| v.moves().len()), Some(1));
    /// assert_eq!(record.remove_variation(0, 0), None);
    /// assert_eq!(record.to_string(), "[Result \"*\"]\n\n1. f1-e1 *\n");
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn remove_variation(&mut self, ply: usize, index: usize) -> Option<Variation> {
        let slot = self.variations.get_mut(ply)?;
        (index < slot.len()).then(|| slot.remove(index))
    }

    /// The game, replayed and validated.
    ///
    /// ```
    /// use agon_core::{Game, Record};
    /// let record: Record = "1. f1-e1 *".parse()?;
    /// assert_eq!(record.game().moves().len(), 1);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, giving up the record.
    ///
    /// ```
    /// use agon_core::{Game, Record};
    /// let game = Record::new(Game::new()).into_game();
    /// assert!(game.moves().is_empty());
    /// ```
    pub fn into_game(self) -> Game {
        self.game
    }

    /// The written result: the game's outcome when it is over; otherwise `*` or the
    /// result of a resignation or an agreement.
    ///
    /// ```
    /// use agon_core::{Record, Score};
    /// let record: Record = "1. f1-e1 1/2-1/2".parse()?;
    /// assert_eq!(record.result(), Score::Draw);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn result(&self) -> Score {
        self.result
    }

    /// Sets the written result of a game that is not over (a resignation, an agreement,
    /// or `*`). A finished game keeps the result of its outcome: another is refused, and
    /// the record is unchanged.
    ///
    /// # Errors
    ///
    /// [`RecordError::ResultContradictsOutcome`] when the game is over and `result` is
    /// not the score of its outcome.
    ///
    /// ```
    /// use agon_core::{Game, Position, Record, RecordError, Score};
    /// let mut record = Record::new(Game::new());
    /// record.set_result(Score::WhiteWins)?;
    /// assert_eq!(record.result(), Score::WhiteWins);
    ///
    /// // White's queen holds the throne and h6-g6 closes the ring around it: White wins.
    /// let start = Position::from_text("Qf6,Ge5,Ge6,Gf5,Gf7,Gg5,Gh6/qf11,ga2,gb7,gd1,gh1,gk7,gl2 w");
    /// let mut game = Game::from_position(start.unwrap());
    /// game.play("h6-g6".parse().unwrap()).unwrap();
    /// let mut won = Record::new(game);
    /// assert_eq!(won.set_result(Score::Draw), Err(RecordError::ResultContradictsOutcome));
    /// assert_eq!(won.result(), Score::WhiteWins);
    /// # Ok::<(), RecordError>(())
    /// ```
    pub fn set_result(&mut self, result: Score) -> Result<(), RecordError> {
        if self.game.is_over() && result != Score::from_outcome(self.game.outcome()) {
            return Err(RecordError::ResultContradictsOutcome);
        }
        self.result = result;
        Ok(())
    }

    /// The tags other than `Position` and `Result`, in order.
    ///
    /// ```
    /// use agon_core::Record;
    /// let record: Record = "[White \"Ada\"]\n\n*".parse()?;
    /// assert_eq!(record.tags(), [("White".to_string(), "Ada".to_string())]);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// Sets a tag: a new name goes last, a name already present keeps its place and takes
    /// the new value. On an error the record is unchanged.
    ///
    /// # Errors
    ///
    /// [`RecordError::TagName`] for a name that is empty or holds anything but ASCII
    /// letters, digits and `_`; [`RecordError::ReservedTag`] for `Rules`, `Position` and
    /// `Result`;
    /// [`RecordError::TagValue`] for a value with a line break (`\n`).
    ///
    /// ```
    /// use agon_core::{Game, Record};
    /// let mut record = Record::new(Game::new());
    /// record.set_tag("White", "Ada")?;
    /// record.set_tag("Black", "Charles")?;
    /// record.set_tag("White", "Ada L.")?;
    /// assert_eq!(record.tag("White").as_deref(), Some("Ada L."));
    /// assert_eq!(record.tags()[0].0, "White");
    /// # Ok::<(), agon_core::RecordError>(())
    /// ```
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), RecordError> {
        if name.is_empty() || !name.bytes().all(is_tag_name_byte) {
            return Err(RecordError::TagName);
        }
        if RESERVED_TAGS.contains(&name) {
            return Err(RecordError::ReservedTag);
        }
        if value.contains('\n') {
            return Err(RecordError::TagValue);
        }
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
        Ok(())
    }

    /// Removes a tag, returning its value if it was there.
    ///
    /// ```
    /// use agon_core::{Game, Record};
    /// let mut record = Record::new(Game::new());
    /// record.set_tag("Event", "Final")?;
    /// assert_eq!(record.remove_tag("Event").as_deref(), Some("Final"));
    /// assert_eq!(record.remove_tag("Event"), None);
    /// # Ok::<(), agon_core::RecordError>(())
    /// ```
    pub fn remove_tag(&mut self, name: &str) -> Option<String> {
        let i = self.tags.iter().position(|(n, _)| n == name)?;
        Some(self.tags.remove(i).1)
    }

    /// The value of a tag, if present (`Rules`, `Position` and `Result` included).
    ///
    /// ```
    /// use agon_core::{Game, Record};
    /// let r = Record::new(Game::new());
    /// assert_eq!(r.tag("Result").as_deref(), Some("*"));
    /// assert_eq!(r.tag("Event"), None);
    /// ```
    pub fn tag(&self, name: &str) -> Option<String> {
        match name {
            "Result" => Some(self.result.to_string()),
            "Position" => self.position_tag(),
            "Rules" => self.rules_tag(),
            _ => self
                .tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone()),
        }
    }

    fn position_tag(&self) -> Option<String> {
        let start = self.game.start();
        (*start != Position::start_with_rules(start.rules())).then(|| start.to_text().to_string())
    }

    fn rules_tag(&self) -> Option<String> {
        let rules = self.game.rules();
        (!rules.is_standard()).then(|| rules.to_string())
    }
}

impl Variation {
    /// A variation of `moves`, with no variations of its own yet.
    ///
    /// ```
    /// use agon_core::Variation;
    /// let v = Variation::new(vec!["f1-g1".parse()?]);
    /// assert_eq!(v.moves().len(), 1);
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn new(moves: Vec<Move>) -> Variation {
        Variation {
            variations: no_variations(moves.len()),
            moves,
        }
    }

    /// The moves, in order.
    ///
    /// ```
    /// use agon_core::Record;
    /// let record: Record = "1. f1-e1 (1. f1-g1 f11-e10) *".parse()?;
    /// assert_eq!(record.variations(0)[0].moves()[1].to_string(), "f11-e10");
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The variations that replace move `i` (from 0) of this one: empty when there are
    /// none or there is no such move.
    ///
    /// ```
    /// use agon_core::Record;
    /// let record: Record = "1. f1-e1 (1. f1-g1 f11-e10 (1... f11-g10)) *".parse()?;
    /// let inner = &record.variations(0)[0].variations(1)[0];
    /// assert_eq!(inner.moves()[0].to_string(), "f11-g10");
    /// # Ok::<(), agon_core::ParseError>(())
    /// ```
    pub fn variations(&self, i: usize) -> &[Variation] {
        self.variations.get(i).map_or(&[], Vec::as_slice)
    }

    /// Adds `variation` last among those that replace move `i` of this one. Its moves
    /// are checked when a record takes the whole ([`Record::add_variation`]).
    ///
    /// # Errors
    ///
    /// [`RecordError::NoSuchMove`] when this variation has no move `i`, and
    /// [`RecordError::EmptyVariation`] for a variation without moves; this one is then
    /// unchanged.
    ///
    /// ```
    /// use agon_core::{RecordError, Variation};
    /// let mut v = Variation::new(vec!["f1-g1".parse()?]);
    /// v.add_variation(0, Variation::new(vec!["a5-b5".parse()?]))?;
    /// assert_eq!(v.variations(0).len(), 1);
    /// assert_eq!(v.add_variation(1, Variation::new(vec!["a5-b5".parse()?])), Err(RecordError::NoSuchMove));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_variation(&mut self, i: usize, variation: Variation) -> Result<(), RecordError> {
        if variation.moves.is_empty() {
            return Err(RecordError::EmptyVariation);
        }
        let slot = self.variations.get_mut(i).ok_or(RecordError::NoSuchMove)?;
        slot.push(variation);
        Ok(())
    }
}

/// No variations for each of `n` moves.
fn no_variations(n: usize) -> Vec<Vec<Variation>> {
    let mut v = Vec::new();
    v.resize_with(n, Vec::new);
    v
}

/// Checks `variation`, at nesting `depth`, against the rules from `game`'s position, and
/// leaves `game` as it found it. The recursion stops at [`Record::MAX_DEPTH`] levels.
fn check_variation(
    game: &mut Game,
    variation: &Variation,
    depth: usize,
) -> Result<(), RecordError> {
    if depth > Record::MAX_DEPTH {
        return Err(RecordError::VariationTooDeep);
    }
    if variation.moves.is_empty() {
        return Err(RecordError::EmptyVariation);
    }
    let base = game.moves().len();
    let checked = (|| {
        for (m, others) in variation.moves.iter().zip(&variation.variations) {
            for other in others {
                check_variation(game, other, depth + 1)?;
            }
            game.play(*m).map_err(RecordError::IllegalVariationMove)?;
        }
        Ok(())
    })();
    while game.moves().len() > base {
        game.undo();
    }
    checked
}

/// The tags written from the game and its result, which [`Record::set_tag`] refuses.
const RESERVED_TAGS: [&str; 3] = ["Rules", "Position", "Result"];

/// The bytes of a tag name, the same for reading and for [`Record::set_tag`].
fn is_tag_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn write_tag(f: &mut fmt::Formatter<'_>, name: &str, value: &str) -> fmt::Result {
    write!(f, "[{name} \"")?;
    for c in value.chars() {
        if c == '"' || c == '\\' {
            f.write_str("\\")?;
        }
        write!(f, "{c}")?;
    }
    f.write_str("\"]\n")
}

/// The move number of ply `i` (from 0) of a game whose first mover is `first`.
fn move_number(first: Side, ply: usize) -> u32 {
    ((ply + first.index()) / 2 + 1) as u32
}

/// Appends the tokens of a line of `moves` from ply `start` (from 0) of a game whose first
/// mover is `first`, with `variations[i]` after `moves[i]` in parentheses: a number
/// before each move of White, and before a move of Black that starts the line or follows
/// a variation. The recursion is as deep as the variations nest, at most
/// [`Record::MAX_DEPTH`].
fn line_tokens(
    tokens: &mut Vec<String>,
    first: Side,
    start: usize,
    moves: &[Move],
    variations: &[Vec<Variation>],
) {
    let mut numbered = true;
    for (i, m) in moves.iter().enumerate() {
        let ply = start + i;
        if (ply + first.index()) % 2 == 0 {
            tokens.push(alloc::format!("{}.", move_number(first, ply)));
        } else if numbered {
            tokens.push(alloc::format!("{}...", move_number(first, ply)));
        }
        tokens.push(m.to_string());
        numbered = false;
        for v in variations.get(i).map_or(&[][..], Vec::as_slice) {
            let open = tokens.len();
            line_tokens(tokens, first, ply, &v.moves, &v.variations);
            // A variation has a move, so it pushed at least two tokens.
            if let Some(t) = tokens.get_mut(open) {
                t.insert(0, '(');
            }
            if let Some(t) = tokens.last_mut() {
                t.push(')');
            }
            numbered = true;
        }
    }
}

impl fmt::Display for Record {
    /// Writes the canonical record: the kept tags, `Position` when the start is not the
    /// standard one, `Result`, a blank line, and the movetext in lines of at most 80
    /// characters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in &self.tags {
            write_tag(f, name, value)?;
        }
        if let Some(rules) = self.rules_tag() {
            write_tag(f, "Rules", &rules)?;
        }
        if let Some(position) = self.position_tag() {
            write_tag(f, "Position", &position)?;
        }
        write_tag(f, "Result", self.result.as_str())?;
        f.write_str("\n")?;
        let first = self.game.start().turn();
        let mut tokens: Vec<String> = Vec::new();
        line_tokens(&mut tokens, first, 0, self.game.moves(), &self.variations);
        tokens.push(self.result.to_string());
        let mut width = 0;
        for (i, token) in tokens.iter().enumerate() {
            if i > 0 {
                if width + 1 + token.len() > 80 {
                    f.write_str("\n")?;
                    width = 0;
                } else {
                    f.write_str(" ")?;
                    width += 1;
                }
            }
            f.write_str(token)?;
            width += token.len();
        }
        f.write_str("\n")
    }
}

fn skip_space(r: &mut Reader<'_>) {
    while r.peek().is_some_and(|c| c.is_ascii_whitespace()) {
        r.pos += 1;
    }
}

/// Reads one tag of `text` at the reader's position, returning its name (a slice of
/// `text`) and its unescaped value.
fn read_tag<'a>(r: &mut Reader<'_>, text: &'a str) -> Result<(&'a str, String), ParseError> {
    r.expect(b'[', "'['")?;
    let start = r.pos;
    while r.peek().is_some_and(is_tag_name_byte) {
        r.pos += 1;
    }
    if r.pos == start {
        return Err(r.error(ParseErrorKind::Expected("a tag name")));
    }
    // ASCII letters, digits and '_', so the slice is on character boundaries.
    let name = text
        .get(start..r.pos)
        .ok_or_else(|| r.error(ParseErrorKind::Expected("UTF-8")))?;
    r.expect(b' ', "' ' after the tag name")?;
    r.expect(b'"', "'\"' opening the tag value")?;
    let mut value = Vec::new();
    loop {
        match r.peek() {
            Some(b'"') => break,
            Some(b'\\') => {
                r.pos += 1;
                match r.peek() {
                    Some(c @ (b'"' | b'\\')) => value.push(c),
                    _ => return Err(r.error(ParseErrorKind::Expected("'\"' or '\\' after '\\'"))),
                }
            }
            Some(b'\n') | None => {
                return Err(r.error(ParseErrorKind::Expected("'\"' closing the tag value")))
            }
            Some(c) => value.push(c),
        }
        r.pos += 1;
    }
    r.pos += 1;
    r.expect(b']', "']'")?;
    // The input is a str and escapes split only at ASCII bytes, so this is UTF-8.
    let value = String::from_utf8(value).map_err(|_| r.error(ParseErrorKind::Expected("UTF-8")))?;
    Ok((name, value))
}

/// Reads the movetext of a line onto `game`, which stands at the line's first position:
/// the main line (`depth` 0) up to its result, which it returns with its offset, or a
/// variation up to and past the `)` that closes it. Returns also the variations of each
/// move played, read from the position before that move and taken back. `first` is the
/// first mover of the game, for the move numbers. The recursion is as deep as the
/// variations nest, at most [`Record::MAX_DEPTH`].
#[allow(clippy::type_complexity)]
fn read_line(
    r: &mut Reader<'_>,
    game: &mut Game,
    first: Side,
    depth: usize,
) -> Result<(Vec<Vec<Variation>>, Option<(Score, usize)>), ParseError> {
    let expected = if depth == 0 {
        "a move or a result"
    } else {
        "a move or ')'"
    };
    let base = game.moves().len();
    let mut variations: Vec<Vec<Variation>> = Vec::new();
    // Whether the token before this one was a move number.
    let mut after_number = false;
    // Whether a move of Black needs its number: at the start of a line and after a
    // variation.
    let mut numbered = true;
    loop {
        skip_space(r);
        let at = r.pos;
        match r.peek() {
            Some(b'(') => {
                let slot = match variations.last_mut() {
                    Some(slot) if !after_number => slot,
                    _ => {
                        return Err(ParseError::new(
                            at,
                            ParseErrorKind::Expected("a move before '('"),
                        ))
                    }
                };
                if depth >= Record::MAX_DEPTH {
                    return Err(ParseError::new(at, ParseErrorKind::VariationTooDeep));
                }
                r.pos += 1;
                // The variation is played instead of the line's last move.
                let Some(replaced) = game.undo() else {
                    return Err(ParseError::new(
                        at,
                        ParseErrorKind::Expected("a move before '('"),
                    ));
                };
                let from = game.moves().len();
                let (inner, _) = read_line(r, game, first, depth + 1)?;
                let moves = game.moves().get(from..).unwrap_or_default().to_vec();
                while game.moves().len() > from {
                    game.undo();
                }
                let number = move_number(first, from);
                let side = game.position().turn();
                // It was legal here before the variation, and the game is as it was.
                play_at(game, replaced, at, number, side)?;
                slot.push(Variation {
                    moves,
                    variations: inner,
                });
                numbered = true;
                continue;
            }
            Some(b')') if depth > 0 => {
                if after_number || game.moves().len() == base {
                    return Err(ParseError::new(at, ParseErrorKind::Expected("a move")));
                }
                r.pos += 1;
                return Ok((variations, None));
            }
            _ => {}
        }
        while r
            .peek()
            .is_some_and(|c| !c.is_ascii_whitespace() && c != b'(' && c != b')')
        {
            r.pos += 1;
        }
        let token = core::str::from_utf8(&r.text[at..r.pos]).unwrap_or("");
        if token.is_empty() {
            return Err(ParseError::new(at, ParseErrorKind::Expected(expected)));
        }
        if let Ok(score) = token.parse::<Score>() {
            if depth > 0 {
                return Err(ParseError::new(at, ParseErrorKind::Expected(expected)));
            }
            return Ok((variations, Some((score, at))));
        }
        let ply = game.moves().len();
        let side = game.position().turn();
        let number = move_number(first, ply);
        let digits = token.trim_end_matches('.');
        if digits.len() < token.len() {
            let dots = token.len() - digits.len();
            let expected_dots = if side == Side::White { 1 } else { 3 };
            if digits.parse::<u32>().ok() != Some(number) || dots != expected_dots {
                return Err(ParseError::new(at, ParseErrorKind::MoveNumber(number)));
            }
            after_number = true;
            continue;
        }
        if !after_number && (side == Side::White || numbered) {
            return Err(ParseError::new(at, ParseErrorKind::MoveNumber(number)));
        }
        let m = game
            .position()
            .parse_move(token)
            .map_err(|e| e.shifted(at))?;
        play_at(game, m, at, number, side)?;
        variations.push(Vec::new());
        after_number = false;
        numbered = false;
    }
}

/// Plays `m`, written at byte `at` as move `number` of `side`; an illegal move is named so.
fn play_at(game: &mut Game, m: Move, at: usize, number: u32, side: Side) -> Result<(), ParseError> {
    game.play(m).map(|_| ()).map_err(|reason| {
        ParseError::new(
            at,
            ParseErrorKind::IllegalMove {
                number,
                side,
                reason,
            },
        )
    })
}

impl FromStr for Record {
    type Err = ParseError;

    /// Parses and replays a record (see [`Record`] for the format).
    fn from_str(text: &str) -> Result<Record, ParseError> {
        let mut r = Reader::new(text);
        let mut tags: Vec<(String, String)> = Vec::new();
        // The names seen so far, for the duplicate check: a search tree, so that a record
        // of n tags is read in O(n log n) even when its names are chosen to collide (a
        // scan of `tags` made it quadratic: 1.5 MB of tags took 16 s).
        let mut names: BTreeSet<&str> = BTreeSet::new();
        let mut rules = Rules::STANDARD;
        let mut position_tag: Option<(String, usize)> = None;
        let mut result_tag: Option<(Score, usize)> = None;
        skip_space(&mut r);
        while r.peek() == Some(b'[') {
            let at = r.pos;
            let (name, value) = read_tag(&mut r, text)?;
            if !names.insert(name) {
                return Err(ParseError::new(at, ParseErrorKind::DuplicateTag));
            }
            let value_at = at + name.len() + 3;
            match name {
                "Rules" => {
                    rules = Rules::from_text(&value).map_err(|e| e.shifted(value_at))?;
                }
                "Position" => position_tag = Some((value, value_at)),
                "Result" => {
                    let score = value.parse::<Score>().map_err(|e| e.shifted(value_at))?;
                    result_tag = Some((score, at));
                }
                _ => tags.push((name.to_string(), value)),
            }
            skip_space(&mut r);
        }
        let start = match position_tag {
            Some((text, at)) => {
                Position::from_text_with_rules(&text, rules).map_err(|e| e.shifted(at))?
            }
            None => Position::start_with_rules(rules),
        };
        let mut game = Game::from_position(start);
        let (variations, result) = read_line(&mut r, &mut game, start.turn(), 0)?;
        let Some((score, at)) = result else {
            // Only a variation ends at ')', and this is the main line.
            return Err(r.error(ParseErrorKind::Expected("a move or a result")));
        };
        skip_space(&mut r);
        r.finish()?;
        if let Some((tagged, tag_at)) = result_tag {
            if tagged != score {
                return Err(ParseError::new(tag_at, ParseErrorKind::ResultMismatch));
            }
        }
        if game.is_over() && score != Score::from_outcome(game.outcome()) {
            return Err(ParseError::new(at, ParseErrorKind::ResultMismatch));
        }
        Ok(Record {
            tags,
            game,
            variations,
            result: score,
        })
    }
}
