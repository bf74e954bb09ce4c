//! The machine's memory, for refusing tables it cannot hold.
//!
//! Linux overcommits: reserving a 100 GiB table on a 24 GiB machine succeeds, and the
//! process is killed (or aborts) only when the table is filled. A size is therefore
//! checked against the physical memory before it is allocated.

/// The machine's physical memory in MiB, where it can be read (`/proc/meminfo`).
pub fn physical_mib() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// `Err(physical)` when a table of `mib` MiB is larger than the machine's memory.
pub fn check_fits(mib: usize) -> Result<(), usize> {
    match physical_mib() {
        Some(physical) if mib > physical => Err(physical),
        _ => Ok(()),
    }
}

/// Asks Linux to back a table's (still untouched) memory with 2 MiB pages: every probe
/// lands on a random entry, and with 4 KiB pages most of them also miss the TLB, and
/// first touching a large table costs a page fault per 4 KiB. Where transparent huge
/// pages are set to `madvise` (the usual default) this makes the game search about 2%
/// faster, and the mate solver's first use of a 4 GiB table seconds shorter; elsewhere it
/// does nothing.
pub fn advise_huge_pages<T>(table: &mut Vec<T>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = table.as_mut_ptr() as usize;
        let end = start + table.capacity() * std::mem::size_of::<T>();
        let first = start.next_multiple_of(HUGE);
        let last = end / HUGE * HUGE;
        if last > first {
            // SAFETY: [first, last) lies inside the vector's own allocation, and
            // MADV_HUGEPAGE only changes how the kernel backs those pages, never their
            // contents. A failure (an old kernel, THP disabled) is harmless and ignored.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = table;
}

/// Hints the CPU to bring the cache line of `value` closer: the table entries a child
/// node will read, fetched while the move is being made.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        let ptr = value as *const T as *const i8;
        // SAFETY: prefetching is only a hint and never faults; the pointer comes from a
        // live reference.
        unsafe { std::arch::x86_64::_mm_prefetch(ptr, std::arch::x86_64::_MM_HINT_T0) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_has_some_memory_and_not_an_exabyte() {
        if let Some(mib) = physical_mib() {
            assert!(mib >= 64, "{mib}");
            assert!(check_fits(mib).is_ok());
            assert_eq!(check_fits(mib + 1), Err(mib));
        }
    }
}
