//! The random numbers behind generated boards, pinned down so that a seed means the same board on
//! every platform and in every later version: a PCG-64 (MCG, XSL-RR) stream, seeded through
//! SplitMix64, and our own range and shuffle on top of its raw 64-bit outputs (rand's
//! distributions may change between its versions; this code does not).

use rand_pcg::Pcg64Mcg;
use rand_pcg::rand_core::Rng as _;

/// A seeded random stream.
pub(crate) struct SeededRng(Pcg64Mcg);

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl SeededRng {
    pub(crate) fn new(seed: u64) -> SeededRng {
        let mut state = seed;
        let high = u128::from(splitmix64(&mut state));
        let low = u128::from(splitmix64(&mut state));
        SeededRng(Pcg64Mcg::new(high << 64 | low))
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform number in `0..n`, by rejection so that no value is favoured.
    ///
    /// # Panics
    /// If `n` is 0.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "empty range");
        let limit = u64::MAX - (u64::MAX % n + 1) % n;
        loop {
            let value = self.next_u64();
            if value <= limit {
                return value % n;
            }
        }
    }

    /// A uniform index into a slice of `len` items.
    pub(crate) fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// Shuffles `items` uniformly (Fisher-Yates).
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for last in (1..items.len()).rev() {
            items.swap(last, self.index(last + 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_pinned() {
        // If this changes, every generated board changes: that must never happen.
        let mut rng = SeededRng::new(42);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        let mut again = SeededRng::new(42);
        assert_eq!(first, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
        assert_ne!(first, (0..3).map(|_| SeededRng::new(43).next_u64()).collect::<Vec<_>>());
    }

    #[test]
    fn below_covers_the_range_evenly() {
        let mut rng = SeededRng::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6) as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (9_000..11_000).contains(&c)), "{counts:?}");
        assert_eq!(SeededRng::new(1).below(1), 0);
        let big = SeededRng::new(3).below(u64::MAX);
        assert!(big < u64::MAX);
    }
}
