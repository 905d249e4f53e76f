//! Large tables on huge pages where the system grants them: a table probed at random misses the
//! address cache (the TLB) on almost every probe with 4 KiB pages, and far less with 2 MiB ones.
//! The search's transposition table uses these, and so may a game's own tables (an endgame
//! database, say).

/// Asks Linux to back the capacity of `allocation`, not yet written, with huge pages. The
/// advice changes no contents and no semantics; where it is refused, nothing changes.
///
/// ```
/// let mut table: Vec<u8> = Vec::with_capacity(8 << 20);
/// game_search::memory::advise_huge_pages(&table);
/// table.resize(8 << 20, 0);
/// assert!(table.iter().all(|&byte| byte == 0));
/// ```
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn advise_huge_pages<T>(allocation: &Vec<T>) {
    const HUGE_PAGE: usize = 2 << 20;
    let start = allocation.as_ptr() as usize;
    let end = start + allocation.capacity() * std::mem::size_of::<T>();
    // Only the whole huge pages inside the allocation.
    let (first, last) = (start.next_multiple_of(HUGE_PAGE), end / HUGE_PAGE * HUGE_PAGE);
    if first < last {
        // SAFETY: madvise with MADV_HUGEPAGE on memory this allocation owns only tells the
        // kernel how to back it; it reads and writes nothing.
        let _ = unsafe { libc::madvise(first as *mut libc::c_void, last - first, libc::MADV_HUGEPAGE) };
    }
}

/// Elsewhere the system's pages serve.
#[cfg(not(target_os = "linux"))]
pub fn advise_huge_pages<T>(_allocation: &Vec<T>) {}

/// The slots of a table of about `megabytes` MiB: a power of two of them (rounded down, at least
/// 1024, so that a key's low bits pick one), each made by `make`, on huge pages where granted.
/// Every slot is written now, which keeps the page faults out of the searches that use it.
pub(crate) fn power_of_two_slots<T>(megabytes: usize, make: impl FnMut() -> T) -> Vec<T> {
    let wanted = (megabytes.max(1) << 20) / std::mem::size_of::<T>();
    let len = (wanted.next_power_of_two() >> usize::from(!wanted.is_power_of_two())).max(1024);
    let mut slots = Vec::with_capacity(len);
    advise_huge_pages(&slots);
    slots.extend(std::iter::repeat_with(make).take(len));
    slots
}

/// Starts fetching the cache line of `item` for a read soon after, without waiting for it.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub fn prefetch<T>(item: &T) {
    use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
    // SAFETY: a prefetch is a hint that never faults, and SSE is part of every x86_64.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast()) };
}

/// Elsewhere the read itself fetches.
#[cfg(not(target_arch = "x86_64"))]
pub fn prefetch<T>(_item: &T) {}
