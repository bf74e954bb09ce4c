//! Buffers of numbers that start on a cache line, for the kernels' aligned loads.
//!
//! Why: the release build targets x86-64-v2, whose tuning treats a 32-byte load from an
//! address not known to be aligned as slow, so the compiler splits every such AVX2 load
//! into two 16-byte halves (two instructions, one of them a shuffle). A load the kernels
//! know to be aligned stays one instruction; a net search runs about 7 % faster for it.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// Where every buffer starts: a multiple of this many bytes (a cache line, and a
/// multiple of the 32 bytes of an AVX2 register).
pub const ALIGN: usize = 64;

/// One cache line of storage.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; ALIGN]);

mod sealed {
    pub trait Sealed {}
}

/// Plain integers: no padding, and every bit pattern (zero included) is a value, so
/// bytes of storage may be read as them.
pub trait Plain: Copy + sealed::Sealed {}

macro_rules! plain {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Plain for $t {}
    )*};
}
plain!(i8, u8, i16, i32);

/// A fixed-length buffer of `T`, zeroed when made, whose first element sits on an
/// [`ALIGN`]-byte boundary.
#[derive(Clone)]
pub struct Aligned<T: Plain> {
    lines: Box<[Line]>,
    len: usize,
    _numbers: PhantomData<T>,
}

impl<T: Plain> Aligned<T> {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> Aligned<T> {
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .expect("buffer size fits in memory");
        Aligned {
            lines: vec![Line([0; ALIGN]); bytes.div_ceil(ALIGN)].into_boxed_slice(),
            len,
            _numbers: PhantomData,
        }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[T]) -> Aligned<T> {
        let mut out = Aligned::zeroed(values.len());
        out.copy_from_slice(values);
        out
    }
}

impl<T: Plain> Default for Aligned<T> {
    fn default() -> Aligned<T> {
        Aligned::zeroed(0)
    }
}

impl<T: Plain> Deref for Aligned<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: the lines hold at least `len * size_of::<T>()` initialised bytes
        // (`zeroed`), their start is aligned for any `Plain` type (64 bytes), and every
        // bit pattern is a `T` (`Plain`). An empty box's dangling pointer is aligned to
        // `Line`, so it serves for an empty slice too.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Plain> DerefMut for Aligned<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`; the slice borrows `self` mutably, so it is the only
        // view of the lines while it lives.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast::<T>(), self.len) }
    }
}

impl<T: Plain + std::fmt::Debug> std::fmt::Debug for Aligned<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Whether `values` starts on a `bytes`-byte boundary.
#[inline]
pub fn starts_aligned<T>(values: &[T], bytes: usize) -> bool {
    (values.as_ptr() as usize).is_multiple_of(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_start_on_a_cache_line_and_hold_their_values() {
        for len in [0, 1, 31, 32, 33, 1000] {
            let a = Aligned::<i16>::zeroed(len);
            assert_eq!(a.len(), len);
            assert!(starts_aligned(&a, ALIGN));
            assert!(a.iter().all(|&x| x == 0));
            let values: Vec<i32> = (0..len as i32).map(|i| i * 7 - 3).collect();
            let b = Aligned::from_slice(&values);
            assert!(starts_aligned(&b, ALIGN));
            assert_eq!(&b[..], &values[..]);
            let c = b.clone();
            assert!(starts_aligned(&c, ALIGN));
            assert_eq!(&c[..], &values[..]);
        }
        let mut m = Aligned::<i8>::zeroed(100);
        m[99] = -5;
        assert_eq!(m[99], -5);
        assert!(!starts_aligned(&m[1..], 32));
    }
}
