//! The transposition table: a fixed-size array of lockless entries that every search thread
//! shares. Each entry is two atomic words, the key XOR the data and the data, so a torn write by
//! another thread shows up as a key mismatch and is ignored, never as a wrong hit. Entries come
//! in clusters of four, one cache line: a key may sit in any of its cluster's four, and a new
//! key displaces first what earlier searches left, then what cost least to find, so the costly
//! results survive a table far smaller than the tree.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

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
    /// What finding it cost: the binary logarithm of the positions searched below it (up to
    /// [`MAX_WORK`]), or 0 where the depth says enough. Of two entries as deep, the table keeps
    /// the costlier.
    pub work: u8,
}

/// The most [`Entry::work`] holds.
pub const MAX_WORK: u8 = 31;

/// One entry: the key XOR the data, and the data.
type Slot = [AtomicU64; 2];

/// The entries one key may sit in: one cache line.
#[repr(align(64))]
struct Cluster([Slot; CLUSTER_ENTRIES]);

const CLUSTER_ENTRIES: usize = 4;

/// A depth that no iteration reaches: the subtree was searched to the end of the game.
pub const EXACT_DEPTH: u8 = u8::MAX;
/// The packed move of entries without a best move.
pub const NO_MOVE: u16 = u16::MAX;

/// The shared table.
pub struct TranspositionTable {
    clusters: Vec<Cluster>,
    mask: usize,
    /// Counts the searches (wrapping), so that entries of earlier ones give way first.
    generation: AtomicU8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable").field("clusters", &self.clusters.len()).finish_non_exhaustive()
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MiB (rounded down to a power of two of clusters, at least
    /// 1024).
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let clusters = crate::memory::power_of_two_slots(megabytes, || {
            Cluster(std::array::from_fn(|_| [AtomicU64::new(0), AtomicU64::new(0)]))
        });
        TranspositionTable { mask: clusters.len() - 1, clusters, generation: AtomicU8::new(0) }
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for [check, data] in self.clusters.iter().flat_map(|cluster| &cluster.0) {
            check.store(0, Relaxed);
            data.store(0, Relaxed);
        }
    }

    /// The cluster's entries with what each holds (its data word, 0 if empty) and whether it
    /// is `key`'s.
    fn cluster(&self, key: u64) -> impl Iterator<Item = (&Slot, u64, bool)> {
        // The low bits pick the cluster; every bit of the key checks the entry.
        self.clusters[(key as usize) & self.mask].0.iter().map(move |slot| {
            let data = slot[1].load(Relaxed);
            (slot, data, data != 0 && slot[0].load(Relaxed) ^ data == key)
        })
    }

    /// Marks what is stored from here on as the new search's: what earlier searches stored
    /// stays usable, but gives way first (a placement game never meets most of it again).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// The entry stored for `key`, if any.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let (slot, data, _) = self.cluster(key).find(|&(_, _, mine)| mine)?;
        let entry = unpack(data);
        // An entry this search uses is this search's, so keep it as long as its own.
        let generation = self.generation.load(Relaxed);
        if generation_of(data) != generation {
            write(slot, key, pack(entry, generation));
        }
        Some(entry)
    }

    /// Stores `entry` for `key`: over the key's own entry unless that one was deeper (and the
    /// new one is not exact), else over the cluster's least worth keeping: empty, or left by
    /// an earlier search, or the shallowest, or the cheapest.
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation.load(Relaxed);
        // Whether it is this search's, its depth, its work: the least of these goes.
        let worth = |data: u64| {
            let held = unpack(data);
            (data != 0 && generation_of(data) == generation, held.depth, held.work)
        };
        let mut victim: Option<(&Slot, (bool, u8, u8))> = None;
        for (slot, data, mine) in self.cluster(key) {
            if mine {
                if unpack(data).depth > entry.depth && entry.bound != Bound::Exact {
                    return;
                }
                victim = Some((slot, worth(0)));
                break;
            }
            if victim.is_none_or(|(_, least)| worth(data) < least) {
                victim = Some((slot, worth(data)));
            }
        }
        if let Some((slot, _)) = victim {
            write(slot, key, pack(entry, generation));
        }
    }
}

/// Writes `packed` for `key`: the check word first, so that a reader between the two stores
/// sees a mismatch, never another key's data.
fn write([check, data]: &Slot, key: u64, packed: u64) {
    check.store(key ^ packed, Relaxed);
    data.store(packed, Relaxed);
}

/// Stored values (net of what is banked) lie within `-VALUE_OFFSET..VALUE_OFFSET`: game values
/// stay well inside `-INFINITY..INFINITY`, and so do their differences.
const VALUE_OFFSET: i32 = 1 << 23;

// data: value (24 bits, offset) | best (16) | depth (8) | bound (2) | work (5) | generation (8)
// | a set bit so data != 0.
fn pack(entry: Entry, generation: u8) -> u64 {
    debug_assert!((-VALUE_OFFSET..VALUE_OFFSET).contains(&entry.value), "value {} out of range", entry.value);
    let value = (entry.value + VALUE_OFFSET) as u64 & 0xff_ffff;
    let work = u64::from(entry.work.min(MAX_WORK));
    value
        | u64::from(entry.best) << 24
        | u64::from(entry.depth) << 40
        | (entry.bound as u64) << 48
        | work << 50
        | u64::from(generation) << 55
        | 1 << 63
}

fn unpack(data: u64) -> Entry {
    Entry {
        value: (data & 0xff_ffff) as i32 - VALUE_OFFSET,
        best: (data >> 24) as u16,
        depth: (data >> 40) as u8,
        bound: match (data >> 48) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        },
        work: (data >> 50) as u8 & MAX_WORK,
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 55) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: i32, depth: u8, work: u8) -> Entry {
        Entry { value, bound: Bound::Lower, depth, best: 1, work }
    }

    #[test]
    fn entries_round_trip_and_other_keys_miss() {
        let table = TranspositionTable::new(1);
        let stored = Entry { value: -1234, bound: Bound::Lower, depth: 7, best: 42, work: 13 };
        table.store(99, stored);
        assert_eq!(table.probe(99), Some(stored));
        assert_eq!(table.probe(99 + table.clusters.len() as u64), None, "same cluster, other key");
        let extreme =
            Entry { value: -VALUE_OFFSET, bound: Bound::Exact, depth: EXACT_DEPTH, best: NO_MOVE, work: MAX_WORK };
        table.store(5, extreme);
        assert_eq!(table.probe(5), Some(extreme));
        table.clear();
        assert_eq!(table.probe(5), None);
    }

    #[test]
    fn deeper_entries_are_kept_for_the_same_position() {
        let table = TranspositionTable::new(1);
        table.store(7, entry(1, 9, 0));
        table.store(7, Entry { bound: Bound::Upper, ..entry(2, 3, 0) });
        assert_eq!(table.probe(7).map(|e| e.depth), Some(9));
        // An exact result replaces any bound.
        table.store(7, Entry { bound: Bound::Exact, ..entry(3, 3, 0) });
        assert_eq!(table.probe(7).map(|e| e.value), Some(3));
        assert!(table.clusters.len() * std::mem::size_of::<Cluster>() >= 1 << 20);
        assert_eq!(std::mem::size_of::<Cluster>(), 64, "a cluster is one cache line");
    }

    #[test]
    fn a_full_cluster_gives_up_its_cheapest_entry() {
        let table = TranspositionTable::new(1);
        // Five keys of one cluster: four fill it, the fifth displaces the one of least work.
        let key = |n: u64| 3 + n * table.clusters.len() as u64;
        for (n, work) in [(0, 20), (1, 5), (2, 30), (3, 12)] {
            table.store(key(n), entry(n as i32, EXACT_DEPTH, work));
        }
        assert!((0..4).all(|n| table.probe(key(n)).is_some()), "four keys share a cluster");
        table.store(key(4), entry(4, EXACT_DEPTH, 1));
        let kept: Vec<bool> = (0..5).map(|n| table.probe(key(n)).is_some()).collect();
        assert_eq!(kept, [true, false, true, true, true]);
        // Depth counts before work: a deep entry outlasts a costlier shallow one.
        table.store(key(5), entry(5, 2, MAX_WORK));
        table.store(key(6), entry(6, 3, 0));
        assert_eq!(table.probe(key(4)), None, "the cheapest of equal depth went first");
        assert!(table.probe(key(6)).is_some());
        assert_eq!(table.probe(key(5)), None, "the shallowest went next");
    }

    #[test]
    fn entries_of_earlier_searches_give_way_first() {
        let table = TranspositionTable::new(1);
        let key = |n: u64| 3 + n * table.clusters.len() as u64;
        for n in 0..4 {
            table.store(key(n), entry(n as i32, EXACT_DEPTH, MAX_WORK));
        }
        table.new_search();
        // The new search uses one old entry, which makes it its own.
        assert_eq!(table.probe(key(0)).map(|e| e.value), Some(0));
        for n in 4..7 {
            table.store(key(n), entry(n as i32, 1, 0));
        }
        let kept: Vec<bool> = (0..7).map(|n| table.probe(key(n)).is_some()).collect();
        assert_eq!(kept, [true, false, false, false, true, true, true], "shallow new entries displace deep old ones");
    }
}
