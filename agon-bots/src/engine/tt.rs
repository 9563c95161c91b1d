//! The transposition table: a fixed array of entries keyed on the Zobrist hash, shared by
//! the search threads without locks (each entry is two atomic words, the key stored XOR
//! the data, so a torn write is detected as a miss). The bound type and the scores it
//! stores are the search core's ([`crate::search_core`]), shared with the alpha-beta bot.

use std::sync::atomic::{AtomicU64, Ordering};

use agon_core::{Cell, Move};

use crate::search_core::Bound;

/// One decoded entry.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    pub(crate) best: Option<Move>,
    pub(crate) score: i32,
    pub(crate) depth: i32,
    pub(crate) bound: Bound,
    generation: u8,
}

/// The size of an entry in the table: two 64-bit words, 16 bytes.
const ENTRY_BYTES: usize = std::mem::size_of::<[AtomicU64; 2]>();

pub(crate) struct Table {
    slots: Vec<[AtomicU64; 2]>,
    generation: u8,
}

/// A move in 16 bits: from (7), to (7), return (1), present (1). A pass is the present
/// step from the throne to itself, which no step is.
pub(crate) fn encode_move(m: Option<Move>) -> u64 {
    match m {
        None => 0,
        Some(m) => {
            let (from, to) = m.cells().unwrap_or((Cell::THRONE, Cell::THRONE));
            (from.index() as u64)
                | (to.index() as u64) << 7
                | u64::from(m.is_return()) << 14
                | 1 << 15
        }
    }
}

pub(crate) fn decode_move(bits: u64) -> Option<Move> {
    if bits & (1 << 15) == 0 {
        return None;
    }
    let from = Cell::from_index((bits & 127) as usize)?;
    let to = Cell::from_index((bits >> 7 & 127) as usize)?;
    Some(if bits & (1 << 14) != 0 {
        Move::Return { from, to }
    } else if from == Cell::THRONE && to == Cell::THRONE {
        Move::Pass
    } else {
        Move::Step { from, to }
    })
}

impl Table {
    /// A table of about `mib` MiB (at least one entry), rounded down to a power of two
    /// entries of 16 bytes.
    pub(crate) fn new(mib: usize) -> Table {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let entries = (bytes / ENTRY_BYTES).max(1);
        let entries = 1usize << (usize::BITS - 1 - entries.leading_zeros());
        let mut slots = Vec::with_capacity(entries);
        slots.resize_with(entries, || [AtomicU64::new(0), AtomicU64::new(0)]);
        Table {
            slots,
            generation: 1,
        }
    }

    /// Starts a new search: entries of earlier searches are then ignored by
    /// [`Table::probe`] when `fresh` (so that a search does not depend on earlier ones),
    /// and only preferred for replacement otherwise.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation % 63) + 1;
        if self.generation == 1 {
            // The generation wrapped: clear, so that no entry of 63 searches ago looks new.
            for slot in &self.slots {
                slot[0].store(0, Ordering::Relaxed);
                slot[1].store(0, Ordering::Relaxed);
            }
        }
    }

    fn index(&self, key: u64) -> usize {
        // The high bits: the low ones of the Zobrist keys also pick the bucket elsewhere.
        ((key >> 32) as usize ^ key as usize) & (self.slots.len() - 1)
    }

    pub(crate) fn probe(&self, key: u64, fresh: bool) -> Option<Entry> {
        let slot = &self.slots[self.index(key)];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let entry = unpack(data);
        if fresh && entry.generation != self.generation {
            return None;
        }
        Some(entry)
    }

    pub(crate) fn store(&self, key: u64, best: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let slot = &self.slots[self.index(key)];
        let old_data = slot[1].load(Ordering::Relaxed);
        if old_data != 0 {
            let old = unpack(old_data);
            let same = slot[0].load(Ordering::Relaxed) ^ old_data == key;
            if old.generation == self.generation && !same && old.depth > depth + 2 {
                return;
            }
            if same && best.is_none() && old.best.is_some() && old.generation == self.generation {
                // Keep the move of an earlier, deeper look at the same position.
                let data = pack(old.best, score, depth, bound, self.generation);
                slot[0].store(key ^ data, Ordering::Relaxed);
                slot[1].store(data, Ordering::Relaxed);
                return;
            }
        }
        let data = pack(best, score, depth, bound, self.generation);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// The permille of sampled entries written by the current search.
    pub(crate) fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s[1].load(Ordering::Relaxed);
                d != 0 && unpack(d).generation == self.generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

fn pack(best: Option<Move>, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let score = (score.clamp(i16::MIN.into(), i16::MAX.into()) as i16) as u16;
    encode_move(best)
        | u64::from(score) << 16
        | (depth.clamp(0, 255) as u64) << 32
        | (bound as u64) << 40
        | u64::from(generation) << 42
        // Never 0, so that 0 marks an empty slot.
        | 1 << 63
}

fn unpack(data: u64) -> Entry {
    Entry {
        best: decode_move(data & 0xffff),
        score: i32::from((data >> 16) as u16 as i16),
        depth: (data >> 32 & 0xff) as i32,
        bound: match data >> 40 & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        generation: (data >> 42 & 63) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let mut table = Table::new(1);
        table.new_search();
        let m: Move = "f4>l1".parse().unwrap();
        table.store(12345, Some(m), -29_990, 17, Bound::Lower);
        let e = table.probe(12345, true).unwrap();
        assert_eq!(
            (e.best, e.score, e.depth, e.bound),
            (Some(m), -29_990, 17, Bound::Lower)
        );
        assert!(table.probe(12346, true).is_none());
        table.new_search();
        assert!(table.probe(12345, true).is_none());
        assert!(table.probe(12345, false).is_some());
        for _ in 0..70 {
            table.new_search();
        }
        assert!(table.probe(12345, false).is_none());
        assert_eq!(Table::new(1).slots.len(), 65536);
    }

    /// The engine's docs: entries of 16 bytes, a table of the size given in MiB, rounded
    /// down to a power of two entries.
    #[test]
    fn a_table_takes_the_mib_it_is_given() {
        assert_eq!(ENTRY_BYTES, 16);
        for mib in [1, 2, 16, 64] {
            assert_eq!(
                Table::new(mib).slots.len() * ENTRY_BYTES,
                mib << 20,
                "{mib}"
            );
        }
        assert_eq!(Table::new(3).slots.len() * ENTRY_BYTES, 2 << 20);
        assert_eq!(Table::new(0).slots.len() * ENTRY_BYTES, 1 << 20);
    }
}
