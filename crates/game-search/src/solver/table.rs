//! The solver's table. Every result the solver stores is a bound proven to the end of the game,
//! so an entry needs no depth, and the values of the games it solves are small: an entry is one
//! atomic word, eight to a cache line, twice as many as the depth-limited search's table holds
//! in the same memory. Kalah(6,4) on one thread with 256 MiB took 57.2 million positions and
//! 17.8 to 18.7 s so, against 60.8 million and 18.6 to 19.9 s with two words an entry, four to
//! a line. Being one word, an entry is read or written whole: another thread's write can never
//! tear it.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::search::tt::{Bound, NO_MOVE};

/// One stored result: a bound on the value, net of what was banked, and the move that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Proved {
    /// The value found, less [`SearchGame::value_banked`](crate::SearchGame::value_banked).
    pub value: i32,
    /// Its kind.
    pub bound: Bound,
    /// The best move found, packed ([`NO_MOVE`] if none, or if it packs to [`MOVE_LIMIT`] or
    /// more).
    pub best: u16,
    /// The binary logarithm of the positions searched below it (up to [`MAX_WORK`]): of two
    /// entries, the table keeps the costlier.
    pub work: u8,
}

/// Values stored lie in `-VALUE_LIMIT..VALUE_LIMIT`; a result outside is not kept.
const VALUE_LIMIT: i32 = 1 << (VALUE_BITS - 1);
/// Moves kept pack below this; a larger one is kept as none.
const MOVE_LIMIT: u16 = (1 << MOVE_BITS) - 1;
/// The most [`Proved::work`] holds.
const MAX_WORK: u8 = (1 << WORK_BITS) - 1;

const VALUE_BITS: u32 = 10;
const MOVE_BITS: u32 = 4;
const BOUND_BITS: u32 = 2;
const WORK_BITS: u32 = 5;
/// The data's bits, below the key's check: a set bit (an empty slot is 0), then the fields.
const DATA_BITS: u32 = 1 + VALUE_BITS + MOVE_BITS + BOUND_BITS + WORK_BITS;

/// The entries one key may sit in: one cache line.
#[repr(align(64))]
struct Cluster([AtomicU64; CLUSTER_ENTRIES]);

const CLUSTER_ENTRIES: usize = 8;

/// The table every thread of a [`Solver`](crate::Solver) shares.
pub(crate) struct SolverTable {
    clusters: Vec<Cluster>,
    mask: usize,
}

impl std::fmt::Debug for SolverTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SolverTable").field("clusters", &self.clusters.len()).finish_non_exhaustive()
    }
}

impl SolverTable {
    /// A table of about `megabytes` MiB (rounded down to a power of two of clusters, at least
    /// 1024), its memory written now so that the page faults stay out of the search.
    pub(crate) fn new(megabytes: usize) -> SolverTable {
        let clusters =
            crate::memory::power_of_two_slots(megabytes, || Cluster(std::array::from_fn(|_| AtomicU64::new(0))));
        SolverTable { mask: clusters.len() - 1, clusters }
    }

    /// `key`'s cluster. Its low bits pick the cluster, and its high bits, kept in the entry,
    /// check it: with 1024 clusters or more, 52 bits of the key or more tell keys apart.
    fn cluster(&self, key: u64) -> &Cluster {
        &self.clusters[(key as usize) & self.mask]
    }

    /// Starts fetching `key`'s cluster, for a [`SolverTable::probe`] soon after.
    pub(crate) fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.cluster(key));
    }

    /// The result stored for `key`, if any.
    pub(crate) fn probe(&self, key: u64) -> Option<Proved> {
        let check = key >> DATA_BITS;
        self.cluster(key)
            .0
            .iter()
            .map(|slot| slot.load(Relaxed))
            .find(|&word| word != 0 && word >> DATA_BITS == check)
            .map(unpack)
    }

    /// Stores `proved` for `key`, over the key's own entry, else over the cluster's least worth
    /// keeping (empty, or the cheapest to find again). A value the entry cannot hold is not
    /// kept.
    pub(crate) fn store(&self, key: u64, proved: Proved) {
        if !(-VALUE_LIMIT..VALUE_LIMIT).contains(&proved.value) {
            return;
        }
        let check = key >> DATA_BITS;
        let slots = &self.cluster(key).0;
        let mut victim = &slots[0];
        let mut least = u8::MAX;
        for slot in slots {
            let word = slot.load(Relaxed);
            if word == 0 || word >> DATA_BITS == check {
                victim = slot;
                break;
            }
            let work = unpack(word).work;
            if work < least {
                (victim, least) = (slot, work);
            }
        }
        victim.store(check << DATA_BITS | pack(proved), Relaxed);
    }
}

// data, low bits first: a set bit | value (offset) | best | bound | work.
fn pack(proved: Proved) -> u64 {
    let value = (proved.value + VALUE_LIMIT) as u64;
    let best = u64::from(if proved.best < MOVE_LIMIT { proved.best } else { MOVE_LIMIT });
    let work = u64::from(proved.work.min(MAX_WORK));
    let mut data = work;
    data = data << BOUND_BITS | proved.bound as u64;
    data = data << MOVE_BITS | best;
    data = data << VALUE_BITS | value;
    data << 1 | 1
}

fn unpack(word: u64) -> Proved {
    let field = |shift: u32, bits: u32| (word >> shift) & ((1 << bits) - 1);
    let value = field(1, VALUE_BITS) as i32 - VALUE_LIMIT;
    let best = field(1 + VALUE_BITS, MOVE_BITS) as u16;
    let bound = match field(1 + VALUE_BITS + MOVE_BITS, BOUND_BITS) {
        0 => Bound::Exact,
        1 => Bound::Lower,
        _ => Bound::Upper,
    };
    let work = field(1 + VALUE_BITS + MOVE_BITS + BOUND_BITS, WORK_BITS) as u8;
    Proved { value, bound, best: if best == MOVE_LIMIT { NO_MOVE } else { best }, work }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proved(value: i32, work: u8) -> Proved {
        Proved { value, bound: Bound::Lower, best: 3, work }
    }

    #[test]
    fn results_round_trip_and_other_keys_miss() {
        let table = SolverTable::new(1);
        for (key, stored) in [
            (99, Proved { value: -VALUE_LIMIT, bound: Bound::Upper, best: 0, work: MAX_WORK }),
            (100, Proved { value: VALUE_LIMIT - 1, bound: Bound::Exact, best: NO_MOVE, work: 0 }),
            (101, Proved { value: 0, bound: Bound::Lower, best: MOVE_LIMIT - 1, work: 7 }),
        ] {
            table.store(key, stored);
            assert_eq!(table.probe(key), Some(stored));
        }
        assert_eq!(table.probe(99 | 1 << 40), None, "same cluster, other key");
        // A move beyond what an entry holds is kept as none; a value beyond, not at all.
        table.store(5, Proved { best: MOVE_LIMIT, ..proved(1, 1) });
        assert_eq!(table.probe(5).map(|p| p.best), Some(NO_MOVE));
        table.store(6, proved(VALUE_LIMIT, 1));
        assert_eq!(table.probe(6), None);
    }

    #[test]
    fn a_full_cluster_gives_up_its_cheapest_result_and_a_key_its_own() {
        let table = SolverTable::new(1);
        // The same low bits (the cluster), other high ones (the check).
        let key = |i: u64| 7 | i << 40;
        let keys: Vec<u64> = (0..CLUSTER_ENTRIES as u64).map(key).collect();
        for (i, &key) in keys.iter().enumerate() {
            table.store(key, proved(i as i32, 10 + i as u8));
        }
        // The key of work 10 goes for a newcomer; the others stay.
        let newcomer = key(CLUSTER_ENTRIES as u64);
        table.store(newcomer, proved(-1, 12));
        assert_eq!(table.probe(keys[0]), None);
        assert!(keys[1..].iter().all(|&key| table.probe(key).is_some()));
        // A key stored again replaces its own entry, whatever its cost.
        table.store(keys[5], proved(-3, 0));
        assert_eq!(table.probe(keys[5]), Some(proved(-3, 0)));
        assert_eq!(keys.iter().chain([&newcomer]).filter(|&&key| table.probe(key).is_some()).count(), CLUSTER_ENTRIES);
    }
}
