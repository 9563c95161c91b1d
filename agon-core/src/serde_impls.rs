//! `Serialize`/`Deserialize` (feature `serde`). Human-readable formats (JSON, TOML, ...)
//! use the text forms of [`crate::notation`] and [`crate::record`]; compact formats use
//! indices. Deserializing validates exactly as parsing does: an invalid cell, move,
//! position or game is an error, never a corrupted value.

use core::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

use crate::{Cell, Move, Position, Rules, Side};

/// Serializes through `Display` in human-readable formats.
fn collect_display<S: Serializer, T: fmt::Display>(s: S, value: &T) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

/// A visitor that parses a string with `parse`.
struct TextVisitor<T>(&'static str, fn(&str) -> Result<T, crate::ParseError>);

impl<T> Visitor<'_> for TextVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        (self.1)(v).map_err(E::custom)
    }
}

impl Serialize for Cell {
    /// `"f6"` in human-readable formats, the index `0..91` otherwise.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            collect_display(s, self)
        } else {
            s.serialize_u8(self.index() as u8)
        }
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        if d.is_human_readable() {
            d.deserialize_str(TextVisitor("a cell name like f6", str::parse))
        } else {
            let i = u8::deserialize(d)?;
            Cell::from_index(i.into()).ok_or_else(|| de::Error::custom("cell index out of range"))
        }
    }
}

impl Serialize for Side {
    /// `"w"` or `"b"` in human-readable formats, 0 or 1 otherwise.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            s.serialize_char(self.char())
        } else {
            s.serialize_u8(self.index() as u8)
        }
    }
}

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        if d.is_human_readable() {
            let c = char::deserialize(d)?;
            Side::from_char(c).ok_or_else(|| de::Error::custom("expected 'w' or 'b'"))
        } else {
            match u8::deserialize(d)? {
                0 => Ok(Side::White),
                1 => Ok(Side::Black),
                _ => Err(de::Error::custom("expected side 0 or 1")),
            }
        }
    }
}

impl Serialize for Move {
    /// `"f1-e1"` / `"f4>l1"` / `"pass"` in human-readable formats, `(is_return, from, to)`
    /// otherwise, a pass being the step from the throne to itself (never a legal step).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            collect_display(s, self)
        } else {
            let (from, to) = self.cells().unwrap_or((Cell::THRONE, Cell::THRONE));
            let mut t = s.serialize_tuple(3)?;
            t.serialize_element(&self.is_return())?;
            t.serialize_element(&from)?;
            t.serialize_element(&to)?;
            t.end()
        }
    }
}

impl<'de> Deserialize<'de> for Move {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        if d.is_human_readable() {
            return d.deserialize_str(TextVisitor("a move like f1-e1 or f4>l1", str::parse));
        }
        struct Compact;
        impl<'de> Visitor<'de> for Compact {
            type Value = Move;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a tuple (is_return, from, to)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Move, A::Error> {
                let missing = || de::Error::custom("move tuple too short");
                let is_return: bool = seq.next_element()?.ok_or_else(missing)?;
                let from: Cell = seq.next_element()?.ok_or_else(missing)?;
                let to: Cell = seq.next_element()?.ok_or_else(missing)?;
                Ok(if is_return {
                    Move::Return { from, to }
                } else if from == Cell::THRONE && to == Cell::THRONE {
                    Move::Pass
                } else {
                    Move::Step { from, to }
                })
            }
        }
        d.deserialize_tuple(3, Compact)
    }
}

impl Serialize for Rules {
    /// The text form (`standard`, `ludii+capture=same-ring`), in every format: it is short
    /// and stable, unlike the packed bits.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        collect_display(s, self)
    }
}

impl<'de> Deserialize<'de> for Rules {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        d.deserialize_str(TextVisitor(
            "a rule set like standard or ludii",
            Rules::from_text,
        ))
    }
}

impl Serialize for Position {
    /// The one-line position text, in every format (it is short and validates on reading).
    /// The text does not carry the rule set: a position reads back under the standard
    /// rules (a [`crate::Game`] carries its rules).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        collect_display(s, &self.to_text())
    }
}

impl<'de> Deserialize<'de> for Position {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        d.deserialize_str(TextVisitor("a position text", Position::from_text))
    }
}

#[cfg(feature = "alloc")]
mod game {
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::*;
    use crate::{Game, Record};

    impl Serialize for Game {
        /// A game record (see [`crate::Record`], which carries the rule set) in
        /// human-readable formats; the start position, the moves and the rule set otherwise.
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            if s.is_human_readable() {
                collect_display(s, &Record::new(self.clone()))
            } else {
                (self.start(), self.moves(), self.rules()).serialize(s)
            }
        }
    }

    impl<'de> Deserialize<'de> for Game {
        /// Replays every move, rejecting the first illegal one.
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Game, D::Error> {
            if d.is_human_readable() {
                let text = String::deserialize(d)?;
                let record: Record = text.parse().map_err(de::Error::custom)?;
                Ok(record.into_game())
            } else {
                let (start, moves, rules): (Position, Vec<Move>, Rules) =
                    Deserialize::deserialize(d)?;
                let start = start.with_rules(rules).map_err(de::Error::custom)?;
                let mut game = Game::from_position(start);
                for (i, m) in moves.into_iter().enumerate() {
                    game.play(m).map_err(|e| {
                        de::Error::custom(format_args!("move {} ({m}) is illegal: {e}", i + 1))
                    })?;
                }
                Ok(game)
            }
        }
    }
}
