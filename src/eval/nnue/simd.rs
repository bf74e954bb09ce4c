//! The arithmetic kernels of the evaluation: a portable version in plain loops and an
//! AVX2 version chosen at run time (its affine layers with AVX-512 VNNI's fused
//! multiply-add where the CPU has it). Both compute exactly the same integers
//! (the accumulator wraps at 16 bits in both, and the affine layers' products cannot
//! saturate: inputs are at most 127 and weights at least -128, so a pair of products
//! stays inside i16), which the tests check.

use super::aligned::{starts_aligned, Aligned};

/// Which kernels to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    Portable,
    Avx2,
    /// AVX2, with the affine layers' four products a weight summed by one AVX-512 VNNI
    /// instruction (`vpdpbusd` on 256-bit registers) instead of three.
    Vnni,
}

impl Kernels {
    /// The fastest kernels this CPU runs.
    pub fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                if std::arch::is_x86_feature_detected!("avx512vnni")
                    && std::arch::is_x86_feature_detected!("avx512vl")
                {
                    return Kernels::Vnni;
                }
                return Kernels::Avx2;
            }
        }
        Kernels::Portable
    }

    /// Whether these kernels can run here.
    pub fn available(self) -> bool {
        match (self, Kernels::detect()) {
            (Kernels::Portable, _) => true,
            (Kernels::Avx2, detected) => detected.avx2(),
            (Kernels::Vnni, detected) => detected == Kernels::Vnni,
        }
    }

    /// Whether these kernels use AVX2 (VNNI's do, beside it).
    pub fn avx2(self) -> bool {
        matches!(self, Kernels::Avx2 | Kernels::Vnni)
    }

    /// The name shown to a user.
    pub fn name(self) -> &'static str {
        match self {
            Kernels::Portable => "portable",
            Kernels::Avx2 => "AVX2",
            Kernels::Vnni => "AVX2 and AVX-512 VNNI",
        }
    }
}

/// `dst = src - Σ weights[r] + Σ weights[a]` over rows of `width` i16, wrapping at 16
/// bits. `dst` and `src` have `width` elements; each row index is in bounds.
#[inline]
pub fn update(
    kernels: Kernels,
    dst: &mut [i16],
    src: &[i16],
    weights: &[i16],
    removed: &[u32],
    added: &[u32],
) {
    let width = dst.len();
    assert_eq!(src.len(), width);
    for &r in removed.iter().chain(added) {
        assert!((r as usize + 1) * width <= weights.len());
    }
    #[cfg(target_arch = "x86_64")]
    if kernels.avx2() && width.is_multiple_of(TILE) {
        let aligned = [dst.as_ptr(), src.as_ptr(), weights.as_ptr()]
            .iter()
            .all(|&p| (p as usize).is_multiple_of(REGISTER_BYTES));
        // SAFETY: AVX2 kernels (`Avx2`, `Vnni`) are only chosen when the CPU has AVX2
        // (`detect`, and `Network::set_kernels` checks `available`); the asserts above
        // keep every row and both accumulators in bounds, and the width is a whole number
        // of tiles, so every row of an aligned `weights` starts aligned too.
        unsafe {
            if aligned {
                avx2::update::<true>(dst, src, weights, removed, added);
            } else {
                avx2::update::<false>(dst, src, weights, removed, added);
            }
        }
        return;
    }
    let _ = kernels;
    dst.copy_from_slice(src);
    for &r in removed {
        let row = &weights[r as usize * width..][..width];
        for (d, &w) in dst.iter_mut().zip(row) {
            *d = d.wrapping_sub(w);
        }
    }
    for &a in added {
        let row = &weights[a as usize * width..][..width];
        for (d, &w) in dst.iter_mut().zip(row) {
            *d = d.wrapping_add(w);
        }
    }
}

/// `out[i] = clamp(acc[i], 0, 127)`.
#[inline]
pub fn clamp_to_u8(kernels: Kernels, acc: &[i16], out: &mut [u8]) {
    assert_eq!(acc.len(), out.len());
    #[cfg(target_arch = "x86_64")]
    if kernels.avx2() && acc.len().is_multiple_of(32) {
        let aligned = starts_aligned(acc, REGISTER_BYTES) && starts_aligned(out, REGISTER_BYTES);
        // SAFETY: AVX2 is present (see `update`); both slices have the same length, a
        // multiple of 32, and `aligned` says whether both start on a register boundary.
        unsafe {
            if aligned {
                avx2::clamp_to_u8::<true>(acc, out);
            } else {
                avx2::clamp_to_u8::<false>(acc, out);
            }
        }
        return;
    }
    let _ = kernels;
    for (o, &a) in out.iter_mut().zip(acc) {
        *o = a.clamp(0, 127) as u8;
    }
}

/// An SFNN transformer half's largest value: YaneuraOu clamps each (doubled) sum to
/// `0..=2·127` before multiplying.
const PRODUCT_CLAMP: i16 = 2 * 127;

/// The first factor is shifted left this far, and the product right by 16 (the high half
/// of a 16-bit multiplication): `out = a · b / 512`, at most 126.
const PRODUCT_SHIFT: u32 = 7;

/// An SFNN side's output: `out[j] = (clamp(acc[j]) << 7) · clamp(acc[j + n]) >> 16`
/// for the two halves of `acc` (each clamped to `0..=254`), `n = out.len() =
/// acc.len() / 2`.
#[inline]
pub fn pairwise_product(kernels: Kernels, acc: &[i16], out: &mut [u8]) {
    let n = out.len();
    assert_eq!(acc.len(), 2 * n);
    #[cfg(target_arch = "x86_64")]
    if kernels.avx2() && n.is_multiple_of(32) {
        // SAFETY: AVX2 is present (see `update`); `acc` has two halves of `n` elements
        // and `out` has `n`, a multiple of 32: every load and store is in bounds.
        unsafe { avx2::pairwise_product(acc, out) };
        return;
    }
    let _ = kernels;
    let (first, second) = acc.split_at(n);
    for ((o, &a), &b) in out.iter_mut().zip(first).zip(second) {
        let a = (a.clamp(0, PRODUCT_CLAMP) as i32) << PRODUCT_SHIFT;
        let b = b.clamp(0, PRODUCT_CLAMP) as i32;
        *o = ((a * b) >> 16) as u8;
    }
}

/// `Σ input[i] · weights[i]` for an input of u8 (each at most 127) and i8 weights of the
/// same length.
#[inline]
pub fn dot(kernels: Kernels, input: &[u8], weights: &[i8]) -> i32 {
    assert_eq!(input.len(), weights.len());
    #[cfg(target_arch = "x86_64")]
    if kernels.avx2() && input.len().is_multiple_of(32) {
        // SAFETY: AVX2 is present (see `update`); both slices have the same length, a
        // multiple of 32.
        return unsafe { avx2::dot(input, weights) };
    }
    let _ = kernels;
    input
        .iter()
        .zip(weights)
        .map(|(&x, &w)| x as i32 * w as i32)
        .sum()
}

/// Outputs an AVX2 register holds as i32 sums; layers whose output count is a multiple of
/// it are computed input block by input block from [`interleave`]d weights.
pub const OUTPUT_BLOCK: usize = 8;

/// The weights of an affine layer (`outputs` rows of `row` i8) rearranged for
/// [`affine`]: for each block of four inputs, every output's four weights in turn, so
/// that one broadcast block of inputs meets all outputs' weights in consecutive memory.
pub fn interleave(weights: &[i8], outputs: usize, row: usize) -> Aligned<i8> {
    let mut out = Aligned::zeroed(weights.len());
    for o in 0..outputs {
        for i in 0..row {
            out[(i / 4) * outputs * 4 + o * 4 + i % 4] = weights[o * row + i];
        }
    }
    out
}

/// `out[o] = biases[o] + Σ input[i] · weights[o][i]`: an affine layer over `input` (u8,
/// each at most 127, length `row`), with `weights` row by row and `interleaved` as
/// [`interleave`] makes it (used when the output count is a multiple of
/// [`OUTPUT_BLOCK`]).
#[inline]
pub fn affine(
    kernels: Kernels,
    input: &[u8],
    weights: &[i8],
    interleaved: &[i8],
    biases: &[i32],
    out: &mut [i32],
) {
    let row = input.len();
    assert_eq!(weights.len(), out.len() * row);
    assert_eq!(biases.len(), out.len());
    #[cfg(target_arch = "x86_64")]
    if kernels.avx2()
        && out.len().is_multiple_of(OUTPUT_BLOCK)
        && (1..=64).contains(&out.len())
        && row.is_multiple_of(4)
        && interleaved.len() == weights.len()
    {
        let aligned =
            starts_aligned(interleaved, REGISTER_BYTES) && starts_aligned(biases, REGISTER_BYTES);
        // SAFETY: AVX2 is present (see `update`), and AVX-512 VNNI and VL with it when
        // the kernels are `Vnni` (`detect`, `available`); the checks above give the
        // layout `avx2::affine` reads within bounds; `aligned` says whether the weights
        // and the biases start on a register boundary (each block of weights is a whole
        // number of registers, so all of them do then).
        unsafe {
            match (kernels == Kernels::Vnni, aligned) {
                (true, true) => avx2::affine_vnni::<true>(input, interleaved, biases, out),
                (true, false) => avx2::affine_vnni::<false>(input, interleaved, biases, out),
                (false, true) => avx2::affine::<true>(input, interleaved, biases, out),
                (false, false) => avx2::affine::<false>(input, interleaved, biases, out),
            }
        }
        return;
    }
    for (o, sum) in out.iter_mut().enumerate() {
        *sum = biases[o] + dot(kernels, input, &weights[o * row..][..row]);
    }
}

/// Accumulator elements one AVX2 pass keeps in registers (8 registers of 16 lanes).
const TILE: usize = 128;

/// Bytes in an AVX2 register: the alignment its aligned loads need.
const REGISTER_BYTES: usize = 32;

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::TILE;
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit;

    const LANES: usize = 16;
    const REGS: usize = TILE / LANES;

    /// Loads a register from `p`, with the aligned instruction when `ALIGNED`.
    ///
    /// # Safety
    /// The CPU has AVX2; `p` points at 32 readable bytes, on a 32-byte boundary when
    /// `ALIGNED`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn load<const ALIGNED: bool>(p: *const __m256i) -> __m256i {
        if ALIGNED {
            _mm256_load_si256(p)
        } else {
            _mm256_loadu_si256(p)
        }
    }

    /// Stores a register at `p`, with the aligned instruction when `ALIGNED`.
    ///
    /// # Safety
    /// The CPU has AVX2; `p` points at 32 writable bytes, on a 32-byte boundary when
    /// `ALIGNED`.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn store<const ALIGNED: bool>(p: *mut __m256i, v: __m256i) {
        if ALIGNED {
            _mm256_store_si256(p, v)
        } else {
            _mm256_storeu_si256(p, v)
        }
    }

    /// # Safety
    /// The CPU has AVX2; `dst` and `src` have the same length, a multiple of `TILE`;
    /// every row `r` of `removed` and `added` has `(r + 1) * dst.len() <= weights.len()`;
    /// when `ALIGNED`, `dst`, `src` and `weights` start on a 32-byte boundary.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update<const ALIGNED: bool>(
        dst: &mut [i16],
        src: &[i16],
        weights: &[i16],
        removed: &[u32],
        added: &[u32],
    ) {
        let width = dst.len();
        for tile in (0..width).step_by(TILE) {
            let mut acc = [_mm256_setzero_si256(); REGS];
            for (k, a) in acc.iter_mut().enumerate() {
                *a = load::<ALIGNED>(src.as_ptr().add(tile + k * LANES).cast());
            }
            for &r in removed {
                let row = weights.as_ptr().add(r as usize * width + tile);
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_sub_epi16(*a, load::<ALIGNED>(row.add(k * LANES).cast()));
                }
            }
            for &r in added {
                let row = weights.as_ptr().add(r as usize * width + tile);
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = _mm256_add_epi16(*a, load::<ALIGNED>(row.add(k * LANES).cast()));
                }
            }
            for (k, a) in acc.iter().enumerate() {
                store::<ALIGNED>(dst.as_mut_ptr().add(tile + k * LANES).cast(), *a);
            }
        }
    }

    /// # Safety
    /// The CPU has AVX2; `out.len()` is a multiple of 8 from 8 to 64, equal to
    /// `biases.len()`; `input.len()` is a multiple of 4 and
    /// `interleaved.len() == out.len() * input.len()`; when `ALIGNED`, `interleaved` and
    /// `biases` start on a 32-byte boundary.
    #[target_feature(enable = "avx2")]
    pub unsafe fn affine<const ALIGNED: bool>(
        input: &[u8],
        interleaved: &[i8],
        biases: &[i32],
        out: &mut [i32],
    ) {
        by_width::<ALIGNED, false>(input, interleaved, biases, out);
    }

    /// `affine` with AVX-512 VNNI.
    ///
    /// # Safety
    /// As for `affine`, and the CPU has AVX-512 VNNI and VL.
    #[target_feature(enable = "avx2,avx512vnni,avx512vl")]
    pub unsafe fn affine_vnni<const ALIGNED: bool>(
        input: &[u8],
        interleaved: &[i8],
        biases: &[i32],
        out: &mut [i32],
    ) {
        by_width::<ALIGNED, true>(input, interleaved, biases, out);
    }

    /// The layer for its output count. Always inlined, so that it is compiled with the
    /// instructions its caller enables (with `VNNI`, AVX-512 VNNI's).
    ///
    /// # Safety
    /// As for `affine` (and `affine_vnni` with `VNNI`).
    #[inline(always)]
    unsafe fn by_width<const ALIGNED: bool, const VNNI: bool>(
        input: &[u8],
        interleaved: &[i8],
        biases: &[i32],
        out: &mut [i32],
    ) {
        // The sums stay in registers only when their count is known at compile time.
        match out.len() / 8 {
            1 => affine_n::<1, ALIGNED, VNNI>(input, interleaved, biases, out),
            2 => affine_n::<2, ALIGNED, VNNI>(input, interleaved, biases, out),
            4 => affine_n::<4, ALIGNED, VNNI>(input, interleaved, biases, out),
            8 => affine_n::<8, ALIGNED, VNNI>(input, interleaved, biases, out),
            3 => affine_n::<3, ALIGNED, VNNI>(input, interleaved, biases, out),
            5 => affine_n::<5, ALIGNED, VNNI>(input, interleaved, biases, out),
            6 => affine_n::<6, ALIGNED, VNNI>(input, interleaved, biases, out),
            _ => affine_n::<7, ALIGNED, VNNI>(input, interleaved, biases, out),
        }
    }

    /// For each byte `m`, the positions of its set bits in order (eight slots, the unused
    /// ones zero): a mask of nonzero input blocks becomes their indices without a branch.
    const SET_BITS: [[u16; 8]; 256] = {
        let mut table = [[0u16; 8]; 256];
        let mut m = 0;
        while m < 256 {
            let (mut bit, mut n) = (0, 0);
            while bit < 8 {
                if m & (1 << bit) != 0 {
                    table[m][n] = bit as u16;
                    n += 1;
                }
                bit += 1;
            }
            m += 1;
        }
        table
    };

    /// Widest layer (in registers of eight sums) whose sums AVX2 keeps in two sets.
    const MAX_REGS_FOR_TWO_CHAINS: usize = 4;

    /// Most four-byte input blocks a layer reads through the list of nonzero ones.
    const MAX_BLOCKS: usize = 512;

    /// A list of block indices, written by `nonzero_blocks` and read up to its count.
    type BlockList = [MaybeUninit<u16>; MAX_BLOCKS + 8];

    /// Lists the indices of the four-byte blocks of `input` that are not all zero, in
    /// order.
    ///
    /// ClippedReLU and the transformer leave many inputs at zero, and only the blocks of
    /// four with a nonzero input need their weights: listing those first, eight blocks a
    /// compare, spares the layer's loop a branch on each block.
    ///
    /// # Safety
    /// The CPU has AVX2; `input.len()` is a multiple of 32 and at most `4 * MAX_BLOCKS`.
    /// Writes the first slots of `list` (and a few after them) and returns how many hold
    /// a block.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn nonzero_blocks(input: &[u8], list: &mut BlockList) -> usize {
        let mut count = 0;
        let zero = _mm256_setzero_si256();
        for chunk in 0..input.len() / 32 {
            let v = _mm256_loadu_si256(input.as_ptr().add(32 * chunk).cast());
            let zeros = _mm256_cmpeq_epi32(v, zero);
            let mask = !_mm256_movemask_ps(_mm256_castsi256_ps(zeros)) as u32 & 0xff;
            let found = _mm_add_epi16(
                _mm_loadu_si128(SET_BITS[mask as usize].as_ptr().cast()),
                _mm_set1_epi16((8 * chunk) as i16),
            );
            // `count <= 8 * chunk`, so the eight slots end within the list.
            _mm_storeu_si128(list.as_mut_ptr().add(count).cast(), found);
            count += mask.count_ones() as usize;
        }
        count
    }

    /// `affine` for `REGS * 8` outputs.
    ///
    /// # Safety
    /// As for `by_width`, with `out.len() == REGS * 8`.
    #[inline(always)]
    unsafe fn affine_n<const REGS: usize, const ALIGNED: bool, const VNNI: bool>(
        input: &[u8],
        interleaved: &[i8],
        biases: &[i32],
        out: &mut [i32],
    ) {
        let mut acc = [_mm256_setzero_si256(); REGS];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = load::<ALIGNED>(biases.as_ptr().add(8 * k).cast());
        }
        let blocks = input.len() / 4;
        if !input.len().is_multiple_of(32) || blocks > MAX_BLOCKS {
            for block in 0..blocks {
                let x = input.as_ptr().add(4 * block).cast::<i32>().read_unaligned();
                if x != 0 {
                    add_block::<REGS, ALIGNED, VNNI>(&mut acc, x, interleaved, block);
                }
            }
        } else {
            // Two sets of sums, one for the blocks at even places of the list and one for
            // those at odd places: each multiply-add waits for the one before it on the
            // same sums, and two independent chains keep the multipliers busy. Not for
            // wide layers without VNNI: AVX2's 16 registers would not hold both sets.
            let two_chains = VNNI || REGS <= MAX_REGS_FOR_TWO_CHAINS;
            let mut odd = [_mm256_setzero_si256(); REGS];
            // Not zeroed first: that costs as much as the list saves on small layers.
            let mut nonzero: BlockList = [MaybeUninit::uninit(); MAX_BLOCKS + 8];
            let count = nonzero_blocks(input, &mut nonzero);
            // Every slot before `count` was written by `nonzero_blocks`. The even prefix
            // goes two blocks at a time, the rest one at a time.
            let paired = if two_chains { count & !1 } else { 0 };
            for pair in nonzero[..paired].chunks_exact(2) {
                let (a, b) = (
                    pair[0].assume_init() as usize,
                    pair[1].assume_init() as usize,
                );
                let xa = input.as_ptr().add(4 * a).cast::<i32>().read_unaligned();
                let xb = input.as_ptr().add(4 * b).cast::<i32>().read_unaligned();
                add_block::<REGS, ALIGNED, VNNI>(&mut acc, xa, interleaved, a);
                add_block::<REGS, ALIGNED, VNNI>(&mut odd, xb, interleaved, b);
            }
            for slot in &nonzero[paired..count] {
                let block = slot.assume_init() as usize;
                let x = input.as_ptr().add(4 * block).cast::<i32>().read_unaligned();
                add_block::<REGS, ALIGNED, VNNI>(&mut acc, x, interleaved, block);
            }
            for (a, o) in acc.iter_mut().zip(&odd) {
                *a = _mm256_add_epi32(*a, *o);
            }
        }
        for (k, a) in acc.iter().enumerate() {
            _mm256_storeu_si256(out.as_mut_ptr().add(8 * k).cast(), *a);
        }
    }

    /// Adds input block `block`, its four inputs `x` (little-endian), times its weights to
    /// the sums: four u8 × i8 products per output, with VNNI in one instruction, else as
    /// pairs into i16 (exact, inputs are at most 127), the two pairs into i32.
    ///
    /// # Safety
    /// As for `affine_n`, with `block < input.len() / 4`.
    #[inline(always)]
    unsafe fn add_block<const REGS: usize, const ALIGNED: bool, const VNNI: bool>(
        acc: &mut [__m256i; REGS],
        x: i32,
        interleaved: &[i8],
        block: usize,
    ) {
        let xs = _mm256_set1_epi32(x);
        let w = interleaved.as_ptr().add(block * REGS * 8 * 4);
        for (k, a) in acc.iter_mut().enumerate() {
            let wk = load::<ALIGNED>(w.add(32 * k).cast());
            *a = if VNNI {
                _mm256_dpbusd_epi32(*a, xs, wk)
            } else {
                let pairs = _mm256_maddubs_epi16(xs, wk);
                _mm256_add_epi32(*a, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)))
            };
        }
    }

    /// # Safety
    /// The CPU has AVX2; `acc` and `out` have the same length, a multiple of 32; when
    /// `ALIGNED`, both start on a 32-byte boundary.
    #[target_feature(enable = "avx2")]
    pub unsafe fn clamp_to_u8<const ALIGNED: bool>(acc: &[i16], out: &mut [u8]) {
        let zero = _mm256_setzero_si256();
        for i in (0..acc.len()).step_by(32) {
            let a = load::<ALIGNED>(acc.as_ptr().add(i).cast());
            let b = load::<ALIGNED>(acc.as_ptr().add(i + 16).cast());
            // Saturating pack to i8 (clamps to -128..127), then the negatives to 0; the
            // pack interleaves 128-bit lanes, which the permute puts back in order.
            let packed = _mm256_max_epi8(_mm256_packs_epi16(a, b), zero);
            let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
            store::<ALIGNED>(out.as_mut_ptr().add(i).cast(), ordered);
        }
    }

    /// Sixteen sums from `p`, clamped to `0..=top` and shifted left for the product.
    ///
    /// # Safety
    /// The CPU has AVX2; `p` points at 16 readable i16.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn first_factor(p: *const i16, top: __m256i, zero: __m256i) -> __m256i {
        let v = _mm256_loadu_si256(p.cast());
        let clamped = _mm256_max_epi16(_mm256_min_epi16(v, top), zero);
        _mm256_slli_epi16::<{ super::PRODUCT_SHIFT as i32 }>(clamped)
    }

    /// # Safety
    /// The CPU has AVX2; `acc` has `2 · out.len()` elements, and `out.len()` is a
    /// multiple of 32.
    #[target_feature(enable = "avx2")]
    pub unsafe fn pairwise_product(acc: &[i16], out: &mut [u8]) {
        let n = out.len();
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(super::PRODUCT_CLAMP);
        let (first, second) = (acc.as_ptr(), acc.as_ptr().add(n));
        for i in (0..n).step_by(32) {
            let a0 = first_factor(first.add(i), top, zero);
            let a1 = first_factor(first.add(i + 16), top, zero);
            // The second factor is not clamped at zero: a negative one makes a
            // negative product, which the unsigned pack turns into 0, as the clamp would.
            let b0 = _mm256_min_epi16(_mm256_loadu_si256(second.add(i).cast()), top);
            let b1 = _mm256_min_epi16(_mm256_loadu_si256(second.add(i + 16).cast()), top);
            let p0 = _mm256_mulhi_epi16(a0, b0);
            let p1 = _mm256_mulhi_epi16(a1, b1);
            // The pack interleaves 128-bit lanes; the permute puts them back in order.
            let packed = _mm256_packus_epi16(p0, p1);
            let ordered = _mm256_permute4x64_epi64::<0b11_01_10_00>(packed);
            _mm256_storeu_si256(out.as_mut_ptr().add(i).cast(), ordered);
        }
    }

    /// # Safety
    /// The CPU has AVX2; `input` and `weights` have the same length, a multiple of 32.
    #[target_feature(enable = "avx2")]
    pub unsafe fn dot(input: &[u8], weights: &[i8]) -> i32 {
        let ones = _mm256_set1_epi16(1);
        let mut sum = _mm256_setzero_si256();
        for i in (0..input.len()).step_by(32) {
            let x = _mm256_loadu_si256(input.as_ptr().add(i).cast());
            let w = _mm256_loadu_si256(weights.as_ptr().add(i).cast());
            // u8 × i8 pairs summed into i16 (exact: |x| <= 127), then pairs into i32.
            let pairs = _mm256_maddubs_epi16(x, w);
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(pairs, ones));
        }
        let quad = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pair = _mm_add_epi32(quad, _mm_shuffle_epi32::<0b01_00_11_10>(quad));
        let one = _mm_add_epi32(pair, _mm_shuffle_epi32::<0b10_11_00_01>(pair));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn fast_and_portable_kernels_agree() {
        if !Kernels::Avx2.available() {
            return;
        }
        let mut seed = 7;
        let width = 256;
        let weights: Vec<i16> = (0..width * 50).map(|_| lcg(&mut seed) as i16).collect();
        let src: Vec<i16> = (0..width).map(|_| lcg(&mut seed) as i16).collect();
        let removed = [3, 17, 49];
        let added = [0, 17, 22];
        let mut a = vec![0i16; width];
        let mut b = vec![0i16; width];
        update(Kernels::Portable, &mut a, &src, &weights, &removed, &added);
        update(Kernels::Avx2, &mut b, &src, &weights, &removed, &added);
        assert_eq!(a, b);
        // The aligned loads, and the unaligned ones on buffers a lane off a boundary.
        let (aw, asrc) = (Aligned::from_slice(&weights), Aligned::from_slice(&src));
        let mut ab = Aligned::<i16>::zeroed(width);
        update(Kernels::Avx2, &mut ab, &asrc, &aw, &removed, &added);
        assert_eq!(&ab[..], &a[..]);
        let mut off = Aligned::<i16>::zeroed(width + 1);
        let mut osrc = Aligned::<i16>::zeroed(width + 1);
        osrc[1..].copy_from_slice(&src);
        let mut ow = Aligned::<i16>::zeroed(weights.len() + 1);
        ow[1..].copy_from_slice(&weights);
        update(
            Kernels::Avx2,
            &mut off[1..],
            &osrc[1..],
            &ow[1..],
            &removed,
            &added,
        );
        assert_eq!(&off[1..], &a[..]);

        let mut ua = vec![0u8; width];
        let mut ub = vec![0u8; width];
        clamp_to_u8(Kernels::Portable, &a, &mut ua);
        clamp_to_u8(Kernels::Avx2, &a, &mut ub);
        assert_eq!(ua, ub);
        let mut aligned_out = Aligned::<u8>::zeroed(width);
        clamp_to_u8(Kernels::Avx2, &ab, &mut aligned_out);
        assert_eq!(&aligned_out[..], &ua[..]);
        let mut off_out = Aligned::<u8>::zeroed(width + 1);
        clamp_to_u8(Kernels::Avx2, &off[1..], &mut off_out[1..]);
        assert_eq!(&off_out[1..], &ua[..]);
        assert!(ua.iter().all(|&x| x <= 127));

        for n in [32, 64, 512] {
            let input: Vec<u8> = (0..n).map(|_| (lcg(&mut seed) % 128) as u8).collect();
            let w: Vec<i8> = (0..n).map(|_| lcg(&mut seed) as i8).collect();
            assert_eq!(
                dot(Kernels::Portable, &input, &w),
                dot(Kernels::Avx2, &input, &w)
            );
        }
        // Affine layers of every width the shapes use, with inputs half zero.
        for (row, outputs) in [
            (512, 32),
            (32, 32),
            (1024, 16),
            (2048, 8),
            (32, 64),
            (32, 1),
            // halfkp_768x2-16-64, kp_352x2-24-96 (wider than the register kernel: row
            // by row), and the widest layer read.
            (1536, 16),
            (704, 24),
            (32, 96),
            (96, 1),
            (128, 128),
            // Rows the list of nonzero blocks does not take: more than it holds, and not
            // a multiple of 32.
            (4096, 8),
            (36, 8),
        ] {
            let input: Vec<u8> = (0..row)
                .map(|_| match lcg(&mut seed) % 4 {
                    0 | 1 => 0,
                    _ => (lcg(&mut seed) % 128) as u8,
                })
                .collect();
            let w: Vec<i8> = (0..row * outputs).map(|_| lcg(&mut seed) as i8).collect();
            let t = interleave(&w, outputs, row);
            let b: Vec<i32> = (0..outputs).map(|_| lcg(&mut seed) as i32 >> 8).collect();
            let mut a = vec![0; outputs];
            affine(Kernels::Portable, &input, &w, &t, &b, &mut a);
            // `interleave` gives aligned weights; the same a byte (and a lane) off.
            let mut ot = Aligned::<i8>::zeroed(t.len() + 1);
            ot[1..].copy_from_slice(&t);
            let mut ob = Aligned::<i32>::zeroed(outputs + 1);
            ob[1..].copy_from_slice(&b);
            for fast in [Kernels::Avx2, Kernels::Vnni] {
                if !fast.available() {
                    continue;
                }
                let mut f = vec![0; outputs];
                affine(fast, &input, &w, &t, &b, &mut f);
                assert_eq!(a, f, "{fast:?}: {row} -> {outputs}");
                affine(fast, &input, &w, &ot[1..], &ob[1..], &mut f);
                assert_eq!(a, f, "{fast:?}: {row} -> {outputs}, unaligned");
            }
            let plain: Vec<i32> = (0..outputs)
                .map(|o| {
                    b[o] + (0..row)
                        .map(|i| input[i] as i32 * w[o * row + i] as i32)
                        .sum::<i32>()
                })
                .collect();
            assert_eq!(a, plain);
        }
        // The extremes: every product at its largest and smallest.
        let input = vec![127u8; 64];
        for w in [i8::MIN, i8::MAX] {
            let ws = vec![w; 64];
            let want = 64 * 127 * w as i32;
            assert_eq!(dot(Kernels::Avx2, &input, &ws), want);
            assert_eq!(dot(Kernels::Portable, &input, &ws), want);
            let (outputs, row) = (32, 64);
            let all = vec![w; outputs * row];
            let t = interleave(&all, outputs, row);
            let b = vec![0; outputs];
            for kernels in [Kernels::Portable, Kernels::Avx2, Kernels::Vnni] {
                if kernels.available() {
                    let mut f = vec![0; outputs];
                    affine(kernels, &input, &all, &t, &b, &mut f);
                    assert!(f.iter().all(|&x| x == want), "{kernels:?}");
                }
            }
        }
    }
}
