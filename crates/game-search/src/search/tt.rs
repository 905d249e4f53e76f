//! The transposition table: a fixed-size array of lockless entries that every search thread
//! shares. Each entry is two atomic words, the key XOR the data and the data, so a torn write by
//! another thread shows up as a key mismatch and is ignored, never as a wrong hit.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact = 0,
    /// The true value is at least this (the search failed high).
    Lower = 1,
    /// The true value is at most this (the search failed low).
    Upper = 2,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The value found.
    pub value: i32,
    /// Its kind.
    pub bound: Bound,
    /// The depth searched; [`EXACT_DEPTH`] when the game was searched to its end.
    pub depth: u8,
    /// The best move found, packed ([`NO_MOVE`] if none).
    pub best: u16,
}

/// A depth that no iteration reaches: the subtree was searched to the end of the game.
pub const EXACT_DEPTH: u8 = u8::MAX;
/// The packed move of entries without a best move.
pub const NO_MOVE: u16 = u16::MAX;

/// The shared table.
pub struct TranspositionTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable").field("entries", &self.slots.len()).finish_non_exhaustive()
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (rounded down to a power of two of entries, at least 1024).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<[AtomicU64; 2]>();
        let len = (wanted.next_power_of_two() >> usize::from(!wanted.is_power_of_two())).max(1024);
        let table = TranspositionTable {
            slots: (0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect(),
            mask: len - 1,
        };
        // The allocator hands out untouched zero pages; writing them now keeps the page faults
        // out of the first search.
        table.clear();
        table
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for [check, data] in &self.slots {
            check.store(0, Relaxed);
            data.store(0, Relaxed);
        }
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & self.mask]
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [check, data] = self.slot(key);
        let data = data.load(Relaxed);
        (data != 0 && check.load(Relaxed) ^ data == key).then(|| unpack(data))
    }

    /// Stores `entry` for `key`, replacing what was there unless that was deeper and for the same key.
    pub fn store(&self, key: u64, entry: Entry) {
        let [check, data] = self.slot(key);
        let old = data.load(Relaxed);
        if old != 0
            && check.load(Relaxed) ^ old == key
            && unpack(old).depth > entry.depth
            && entry.bound != Bound::Exact
        {
            return;
        }
        let packed = pack(entry);
        check.store(key ^ packed, Relaxed);
        data.store(packed, Relaxed);
    }
}

// data: value (32 bits, offset) | best (16) | depth (8) | bound (2) | a set bit so data != 0.
fn pack(entry: Entry) -> u64 {
    let value = (entry.value as i64 - i64::from(i32::MIN)) as u64;
    value | u64::from(entry.best) << 32 | u64::from(entry.depth) << 48 | (entry.bound as u64) << 56 | 1 << 63
}

fn unpack(data: u64) -> Entry {
    Entry {
        value: ((data & 0xffff_ffff) as i64 + i64::from(i32::MIN)) as i32,
        best: (data >> 32) as u16,
        depth: (data >> 48) as u8,
        bound: match (data >> 56) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let table = TranspositionTable::new(1);
        let entry = Entry { value: -1234, bound: Bound::Lower, depth: 7, best: 42 };
        table.store(99, entry);
        assert_eq!(table.probe(99), Some(entry));
        assert_eq!(table.probe(99 + table.slots.len() as u64), None, "same slot, other key");
        let extreme = Entry { value: i32::MIN, bound: Bound::Exact, depth: EXACT_DEPTH, best: NO_MOVE };
        table.store(5, extreme);
        assert_eq!(table.probe(5), Some(extreme));
        table.clear();
        assert_eq!(table.probe(5), None);
    }

    #[test]
    fn deeper_entries_are_kept_for_the_same_position() {
        let table = TranspositionTable::new(1);
        table.store(7, Entry { value: 1, bound: Bound::Lower, depth: 9, best: 1 });
        table.store(7, Entry { value: 2, bound: Bound::Upper, depth: 3, best: 2 });
        assert_eq!(table.probe(7).map(|e| e.depth), Some(9));
        assert!(table.slots.len() * std::mem::size_of::<[AtomicU64; 2]>() >= 1 << 20);
    }
}
