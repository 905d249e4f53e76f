//! What a command may take of the machine's memory, checked before it makes a large table: too
//! much is refused with one line, where the allocation would abort the program or the system
//! kill it partway.

/// What a command may take where the free memory is unknown.
const AT_MOST_WHERE_FREE_IS_UNKNOWN: u64 = 16 << 30;

/// Refuses `bytes`, which `flags` ask for, if the system has less free.
pub fn ensure_free(bytes: u64, flags: &str) -> anyhow::Result<()> {
    let (limit, whose) = match free_memory() {
        Some(free) => (free, "this machine has free"),
        None => (AT_MOST_WHERE_FREE_IS_UNKNOWN, "allowed where the free memory is unknown"),
    };
    if bytes > limit {
        anyhow::bail!(
            "{flags}: {:.1} GiB, more than the {:.1} GiB {whose}; give less",
            gibibytes(bytes),
            gibibytes(limit)
        );
    }
    Ok(())
}

/// The memory the system can still hand out (`MemAvailable` in `/proc/meminfo`), where it says.
fn free_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kibibytes: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kibibytes << 10)
}

/// Bytes in GiB.
fn gibibytes(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 30)
}
