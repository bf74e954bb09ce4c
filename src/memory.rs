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

/// A table (`what`: "hash table", "mate table") could not be given `mib` MiB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    pub what: &'static str,
    pub mib: usize,
    /// The machine's memory (MiB) when the size was refused for being larger.
    pub physical: Option<usize>,
}

impl AllocError {
    /// `Err` when a `what` of `mib` MiB is larger than the machine's memory.
    pub fn check(what: &'static str, mib: usize) -> Result<(), AllocError> {
        check_fits(mib).map_err(|physical| AllocError {
            what,
            mib,
            physical: Some(physical),
        })
    }

    /// The allocator refused a `what` of `mib` MiB.
    pub fn refused(what: &'static str, mib: usize) -> AllocError {
        AllocError {
            what,
            mib,
            physical: None,
        }
    }
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let AllocError { what, mib, .. } = self;
        match self.physical {
            Some(p) => write!(
                f,
                "a {mib} MiB {what} is larger than this machine's memory ({p} MiB)"
            ),
            None => write!(f, "could not allocate a {mib} MiB {what}"),
        }
    }
}

impl std::error::Error for AllocError {}

/// Asks Linux to back a table's (still untouched) memory with 2 MiB pages: every probe
/// lands on a random entry, and with 4 KiB pages most of them also miss the TLB, and
/// first touching a large table costs a page fault per 4 KiB. Where transparent huge
/// pages are set to `madvise` (the usual default) this makes the game search about 2%
/// faster, and the mate solver's first use of a 4 GiB table seconds shorter; elsewhere it
/// does nothing.
pub fn advise_huge_pages<T>(table: &mut Vec<T>) {
    advise_range(
        table.as_mut_ptr() as usize,
        table.capacity() * std::mem::size_of::<T>(),
    );
}

/// The advice of [`advise_huge_pages`] for the `bytes` bytes at `start`, memory this
/// process owns.
fn advise_range(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let end = start + bytes;
        let first = start.next_multiple_of(HUGE);
        let last = end / HUGE * HUGE;
        if last > first {
            // SAFETY: [first, last) lies inside memory the caller owns, and
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
    let _ = (start, bytes);
}

/// `len` values of `T`, all bits zero, at an address that is a multiple of `align`
/// (at least `T`'s own alignment), owned like a boxed slice, with the huge-page advice of
/// [`advise_huge_pages`] given before anything touches it.
///
/// Large tables want their memory zeroed by the system, page by page as it is first
/// touched, and backed by huge pages. The allocator gives fresh zeroed pages only through
/// its zeroed path at ordinary alignment (`calloc`): asked for a larger alignment, it
/// allocates and then writes zeros over the whole block, touching every page (in 4 KiB
/// pages, before any advice about huge pages can apply). So the block is asked for at the
/// allocator's ordinary alignment, a little larger, and the slice starts at the first
/// suitably aligned address inside it.
pub struct ZeroedSlice<T> {
    data: std::ptr::NonNull<T>,
    len: usize,
    block: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
}

// SAFETY: a `ZeroedSlice<T>` owns its values like a `Box<[T]>`, so it may move to or be
// shared with another thread exactly when the values may.
unsafe impl<T: Send> Send for ZeroedSlice<T> {}
// SAFETY: as above; shared access hands out only `&[T]`.
unsafe impl<T: Sync> Sync for ZeroedSlice<T> {}

/// The alignment the allocator gives any block (glibc's `malloc` on 64-bit systems): the
/// largest for which its zeroed path is the cheap one.
const ALLOCATOR_ALIGN: usize = 16;

impl<T> ZeroedSlice<T> {
    /// `None` when the memory cannot be had.
    ///
    /// # Safety
    /// The all-zero bit pattern must be a valid `T`.
    pub unsafe fn new(len: usize, align: usize) -> Option<ZeroedSlice<T>> {
        let align = align.max(std::mem::align_of::<T>()).next_power_of_two();
        let bytes = len.checked_mul(std::mem::size_of::<T>())?;
        let slack = align.saturating_sub(ALLOCATOR_ALIGN);
        let layout = std::alloc::Layout::from_size_align(
            bytes.checked_add(slack)?.max(1),
            align.min(ALLOCATOR_ALIGN),
        )
        .ok()?;
        // SAFETY: the layout's size is at least 1.
        let block = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(align);
        if offset > slack {
            // SAFETY: `block` was allocated just above with `layout`.
            unsafe { std::alloc::dealloc(block.as_ptr(), layout) };
            return None;
        }
        // SAFETY: `offset + bytes` is within the block (offset <= slack), and the address
        // is aligned for `T`.
        let data =
            unsafe { std::ptr::NonNull::new_unchecked(block.as_ptr().add(offset) as *mut T) };
        advise_range(data.as_ptr() as usize, bytes);
        Some(ZeroedSlice {
            data,
            len,
            block,
            layout,
        })
    }
}

impl<T> std::ops::Deref for ZeroedSlice<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `data` points at `len` initialised values (zero bits, valid for `T` by
        // the contract of `new`) inside a block this value owns.
        unsafe { std::slice::from_raw_parts(self.data.as_ptr(), self.len) }
    }
}

impl<T> std::ops::DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { std::slice::from_raw_parts_mut(self.data.as_ptr(), self.len) }
    }
}

impl<T> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the values are dropped in place before their memory is given back.
        unsafe { std::ptr::drop_in_place(&mut **self as *mut [T]) };
        // SAFETY: `block` was allocated with `layout` and is freed once, here.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) };
    }
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
    fn a_zeroed_slice_is_aligned_and_zero() {
        for (len, align) in [(0, 64), (1, 64), (1000, 64), (3, 4096)] {
            // SAFETY: zero bits are a valid u64.
            let mut values = unsafe { ZeroedSlice::<u64>::new(len, align) }.unwrap();
            assert_eq!(values.len(), len);
            assert!((values.as_ptr() as usize).is_multiple_of(align));
            assert!(values.iter().all(|&v| v == 0));
            values.iter_mut().for_each(|v| *v = u64::MAX);
            assert!(values.iter().all(|&v| v == u64::MAX));
        }
    }

    /// The process's resident memory in KiB.
    #[cfg(target_os = "linux")]
    fn resident_kib() -> usize {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_large_zeroed_slice_takes_memory_only_where_it_is_touched() {
        // 512 MiB at a cache line's alignment: had the allocator written the zeros (as
        // it does for blocks of large alignment), all of it would be resident at once.
        let before = resident_kib();
        // SAFETY: zero bits are a valid u8.
        let mut values = unsafe { ZeroedSlice::<u8>::new(512 << 20, 64) }.unwrap();
        let allocated = resident_kib();
        values[100 << 20] = 1;
        assert_eq!(values[(100 << 20) + 1], 0);
        assert!(
            allocated.saturating_sub(before) < 64 << 10,
            "{before} KiB resident before, {allocated} KiB after"
        );
    }

    #[test]
    fn the_machine_has_some_memory_and_not_an_exabyte() {
        if let Some(mib) = physical_mib() {
            assert!(mib >= 64, "{mib}");
            assert!(check_fits(mib).is_ok());
            assert_eq!(check_fits(mib + 1), Err(mib));
            let refused = AllocError::check("hash table", mib + 1).unwrap_err();
            assert_eq!(
                refused.to_string(),
                format!(
                    "a {} MiB hash table is larger than this machine's memory ({mib} MiB)",
                    mib + 1
                )
            );
        }
    }
}
