//! A loaded net: its parameters, read from the bytes of a file, and the forward pass from
//! the two accumulators to the evaluation, for classic and SFNN nets.

use super::aligned::{Aligned, Plain};
use super::arch::{
    padded, Architecture, FeatureSet, HandBuckets, KingBuckets, Layout, Shards, MAX_HIDDEN,
    PROGRESS_HASH, VERSION,
};
use super::effects::Effects;
use super::error::NnueError;
use super::features;
use super::halfkpe9;
use super::simd::{self, Kernels};
use super::structure;
use crate::position::Position;
use crate::types::{Color, Hand, PieceKind, Square};
use std::io::Read;

/// The bound YaneuraOu clamps a net's evaluation to (`VALUE_MAX_EVAL`: the mate value
/// 32000 less its maximum ply 246, less one).
pub const MAX_EVAL: i32 = 31_753;

/// How many of the network's output units make one unit of evaluation, by default
/// (YaneuraOu's `FV_SCALE`; nets trained for it, like suisho5, want 24).
pub const DEFAULT_FV_SCALE: i32 = 16;

/// ClippedReLU shifts an affine layer's sums right by this many bits (the weights'
/// fixed-point scale, 64).
const WEIGHT_SCALE_BITS: u32 = 6;

/// Ranks and files of the board, and the ranks in each third of it (k3k3 buckets).
const RANKS: usize = 9;
const FILES: usize = 9;
const THIRD: usize = 3;

/// Progress values (0..255) an SFNN net's progress parameters give a position.
const PROGRESS_VALUES: usize = 256;

/// The progress parameters' fixed point: sums are logits times 2^16.
const PROGRESS_ONE: f64 = 65_536.0;

/// The logit thresholds between consecutive progress values: `round(ln(p / (1 - p)) ·
/// 2^16)` for p = i / 256, i = 1..255, as YaneuraOu computes them (in doubles, with the
/// C library's `log`, which Rust's `ln` calls too). A position's progress is the number
/// of thresholds at or below its sum.
fn progress_thresholds() -> &'static [i64; PROGRESS_VALUES - 1] {
    static TABLE: std::sync::OnceLock<[i64; PROGRESS_VALUES - 1]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0i64; PROGRESS_VALUES - 1];
        for (i, v) in t.iter_mut().enumerate() {
            let p = (i + 1) as f64 / PROGRESS_VALUES as f64;
            *v = ((p / (1.0 - p)).ln() * PROGRESS_ONE).round() as i64;
        }
        t
    })
}

/// An SFNN net's progress parameters: a bias and a weight per HalfKP feature, all in
/// 16.16 fixed point; the sum over both sides' HalfKP features is a logit of how far the
/// game has gone.
#[derive(Clone)]
struct Progress {
    bias: i32,
    weights: Aligned<i32>,
}

impl Progress {
    /// The progress of `pos` (both kings on the board), 0 to 255.
    fn value(&self, pos: &Position) -> usize {
        let mut sum = self.bias as i64;
        for viewer in [Color::Black, Color::White] {
            for f in features::active(pos, FeatureSet::HalfKP, viewer) {
                sum += self.weights[f as usize] as i64;
            }
        }
        progress_thresholds().partition_point(|&t| t <= sum)
    }
}

/// One affine layer: i32 biases and i8 weights, one row of `padded(inputs)` per output.
#[derive(Clone)]
struct Affine {
    biases: Aligned<i32>,
    weights: Aligned<i8>,
    /// The weights as [`simd::affine`] reads them block by block.
    interleaved: Aligned<i8>,
}

impl Affine {
    /// `out[i] = bias[i] + Σ input · row i` for the outputs, where `input` is padded.
    #[inline]
    fn propagate(&self, kernels: Kernels, input: &[u8], out: &mut [i32]) {
        simd::affine(
            kernels,
            input,
            &self.weights,
            &self.interleaved,
            &self.biases,
            out,
        );
    }
}

/// A split first layer (`arch.shards`) cut into one layer per group, each over the
/// common inputs and the group's shard, in that order; empty without a split. The
/// products YaneuraOu skips are skipped here too.
fn split_groups(full: &Affine, arch: Architecture) -> Vec<Affine> {
    let s = arch.shards;
    if !s.is_split() {
        return Vec::new();
    }
    let outputs = arch.first_outputs() / s.groups;
    let row = padded(arch.first_inputs());
    // Both parts are multiples of 64 (`check_bounds`): no padding.
    let inputs = s.common + s.shard;
    (0..s.groups)
        .map(|g| {
            let start = s.common + g * s.shard;
            let mut weights = Aligned::zeroed(outputs * inputs);
            let mut biases = Aligned::zeroed(outputs);
            for o in 0..outputs {
                let full_row = &full.weights[(g * outputs + o) * row..][..row];
                let group_row = &mut weights[o * inputs..][..inputs];
                group_row[..s.common].copy_from_slice(&full_row[..s.common]);
                group_row[s.common..].copy_from_slice(&full_row[start..start + s.shard]);
                biases[o] = full.biases[g * outputs + o];
            }
            let interleaved = simd::interleave(&weights, outputs, inputs);
            Affine {
                biases,
                weights,
                interleaved,
            }
        })
        .collect()
}

/// ClippedReLU: `clamp(x >> 6, 0, 127)`, the shift arithmetic (rounding down).
#[inline]
fn clipped_relu(input: &[i32], out: &mut [u8]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = clipped_relu_one(x);
    }
}

#[inline(always)]
fn clipped_relu_one(x: i32) -> u8 {
    (x >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8
}

/// SqrClippedReLU as YaneuraOu's SFNN has it: `min(x² >> 19, 127)`, the square of the
/// sum in the weights' scale (two shifts of 6) divided by 128 more. Negative sums square
/// to positive values: nothing clips them at zero.
#[inline(always)]
fn sqr_clipped_relu(x: i32) -> u8 {
    let square = (x as i64 * x as i64) >> (2 * WEIGHT_SCALE_BITS + 7);
    square.min(127) as u8
}

/// The layers of one stack: `hidden1`, `hidden2` and the output, each affine.
#[derive(Clone)]
struct Layers {
    hidden1: Affine,
    /// A split first layer's groups, each over its own inputs only (the common ones,
    /// then its shard): `hidden1` with the zeroed weights left out. Empty without a split.
    groups: Vec<Affine>,
    hidden2: Affine,
    output: Affine,
}

/// The magic string before each LEB128-compressed block of an SFNN file.
pub(super) const LEB128_MAGIC: &[u8] = b"COMPRESSED_LEB128";

/// LEB128 bytes a number of `i16` takes at most: 7 bits each, and YaneuraOu's reader
/// stops after the byte that reaches 16 bits.
const LEB128_MAX_BYTES: usize = 3;

/// Bits LEB128 stores per byte; the byte's top bit says another byte follows.
const LEB128_BITS: u32 = 7;
const LEB128_MORE: u8 = 0x80;
/// The last byte's sign bit (the top one of its 7).
const LEB128_SIGN: u8 = 0x40;

/// A classic NNUE net, shared read-only by every search thread.
#[derive(Clone)]
pub struct Network {
    arch: Architecture,
    /// The architecture string from the file's header (for display).
    structure: String,
    /// An SFNN net's biases and weights are kept doubled (wrapping at 16 bits), as
    /// YaneuraOu doubles them when it reads the file.
    transformer_biases: Aligned<i16>,
    /// One row of `half` weights per input feature.
    transformer_weights: Aligned<i16>,
    /// One stack for a classic net; an SFNN net's, in the order of its buckets.
    stacks: Vec<Layers>,
    /// An SFNN net's progress parameters, when it has progress buckets.
    progress: Option<Progress>,
    kernels: Kernels,
    /// Bytes of the file read.
    file_len: u64,
}

/// A net's parameters as its file holds them: the transformer's i16 biases and rows, then
/// each affine layer's i32 biases and i8 weights, one row of `padded(inputs)` per output.
/// For the trainer, which reads a net back into floats.
pub struct Parameters<'a> {
    pub transformer_biases: &'a [i16],
    pub transformer_weights: &'a [i16],
    /// The hidden layers and the output layer, in that order.
    pub layers: [(&'a [i32], &'a [i8]); 3],
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("arch", &self.arch.name())
            .field("kernels", &self.kernels)
            .finish()
    }
}

/// Reads little-endian numbers from a stream, a block at a time (the 64 MB of a net are
/// converted as they arrive, never held twice).
struct Reader<R: Read> {
    inner: R,
    buf: Vec<u8>,
    /// Bytes read so far.
    consumed: u64,
}

/// Bytes converted per read.
const BLOCK: usize = 1 << 16;

impl<R: Read> Reader<R> {
    fn new(inner: R) -> Reader<R> {
        Reader {
            inner,
            buf: Vec::with_capacity(BLOCK),
            consumed: 0,
        }
    }

    /// Reads exactly `n` bytes into `self.buf`.
    fn fill(&mut self, n: usize) -> Result<(), NnueError> {
        self.buf.resize(n, 0);
        self.inner
            .read_exact(&mut self.buf)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::UnexpectedEof => NnueError::Truncated,
                _ => NnueError::Io {
                    path: "the net file".to_string(),
                    error: e,
                },
            })?;
        self.consumed += n as u64;
        Ok(())
    }

    fn u32(&mut self) -> Result<u32, NnueError> {
        self.fill(4)?;
        Ok(u32::from_le_bytes([
            self.buf[0],
            self.buf[1],
            self.buf[2],
            self.buf[3],
        ]))
    }

    /// Reads `n` numbers of `SIZE` bytes each, converted by `convert`.
    fn numbers<T: Plain, const SIZE: usize>(
        &mut self,
        n: usize,
        convert: fn([u8; SIZE]) -> T,
    ) -> Result<Aligned<T>, NnueError> {
        let mut out = Aligned::zeroed(n);
        let mut done = 0;
        while done < n {
            let count = (n - done).min(BLOCK / SIZE);
            self.fill(count * SIZE)?;
            for (o, c) in out[done..done + count]
                .iter_mut()
                .zip(self.buf.chunks_exact(SIZE))
            {
                *o = convert(c.try_into().expect("chunks of SIZE bytes"));
            }
            done += count;
        }
        Ok(out)
    }

    /// One stack of layers of `arch`.
    fn layers(&mut self, arch: Architecture) -> Result<Layers, NnueError> {
        let hidden1 = self.affine(arch.first_inputs(), arch.first_outputs(), arch.shards)?;
        Ok(Layers {
            groups: split_groups(&hidden1, arch),
            hidden1,
            hidden2: self.affine(arch.second_inputs(), arch.hidden2, Shards::NONE)?,
            output: self.affine(arch.hidden2, 1, Shards::NONE)?,
        })
    }

    /// An affine layer; with `shards` split, each output keeps only the weights of the
    /// inputs it reads (the file holds the whole matrix, YaneuraOu reads only those).
    fn affine(
        &mut self,
        inputs: usize,
        outputs: usize,
        shards: Shards,
    ) -> Result<Affine, NnueError> {
        let biases = self.numbers(outputs, i32::from_le_bytes)?;
        let row = padded(inputs);
        let mut weights = self.numbers(outputs * row, |[b]: [u8; 1]| b as i8)?;
        if shards.is_split() {
            for (out, weights) in weights.chunks_exact_mut(row).enumerate() {
                for (input, w) in weights.iter_mut().enumerate() {
                    if !shards.reads(out, outputs, input) {
                        *w = 0;
                    }
                }
            }
        }
        let interleaved = simd::interleave(&weights, outputs, row);
        Ok(Affine {
            biases,
            weights,
            interleaved,
        })
    }

    /// `n` numbers of a LEB128-compressed block (an SFNN transformer's): the magic
    /// string, the block's length in bytes, then each number in 7-bit groups, low
    /// first, sign-extended from the last group. The block must hold exactly `n`.
    fn leb128(&mut self, n: usize) -> Result<Aligned<i16>, NnueError> {
        let bad = |why| NnueError::Compressed { why };
        self.fill(LEB128_MAGIC.len())?;
        if self.buf != LEB128_MAGIC {
            return Err(bad("a block does not start with COMPRESSED_LEB128"));
        }
        let mut left = self.u32()? as usize;
        if left < n || left > n * LEB128_MAX_BYTES {
            return Err(bad("a block's length does not fit its count of numbers"));
        }
        let mut out = Aligned::<i16>::zeroed(n);
        let mut done = 0;
        let (mut value, mut shift) = (0u32, 0u32);
        while left > 0 {
            let count = left.min(BLOCK);
            self.fill(count)?;
            left -= count;
            for &byte in &self.buf {
                if done == n {
                    return Err(bad("a block holds more than its count of numbers"));
                }
                value |= ((byte & !LEB128_MORE) as u32) << shift;
                shift += LEB128_BITS;
                if byte & LEB128_MORE == 0 {
                    if shift < i16::BITS && byte & LEB128_SIGN != 0 {
                        value |= !((1u32 << shift) - 1);
                    }
                    // The low 16 bits, as YaneuraOu keeps them.
                    out[done] = value as u16 as i16;
                    done += 1;
                    (value, shift) = (0, 0);
                } else if shift >= i16::BITS {
                    return Err(bad("a number runs past 16 bits"));
                }
            }
        }
        if done != n || shift != 0 {
            return Err(bad("a block ends before its count of numbers"));
        }
        Ok(out)
    }

    /// Whether the stream has ended.
    fn at_end(&mut self) -> bool {
        let mut byte = [0u8; 1];
        matches!(self.inner.read(&mut byte), Ok(0))
    }
}

/// The header of a net file: version, hash and architecture string.
#[derive(Clone, Debug)]
pub struct Header {
    pub version: u32,
    pub hash: u32,
    pub structure: String,
    /// Bytes the header takes.
    pub len: usize,
}

/// Longest architecture string accepted (YaneuraOu's are under 300 bytes).
pub const MAX_STRUCTURE_LEN: usize = 4096;

impl Header {
    /// Reads the header at the start of a file of `file_len` bytes.
    fn read<R: Read>(r: &mut Reader<R>, file_len: u64) -> Result<Header, NnueError> {
        let too_short = |_| NnueError::TooShort {
            len: file_len as usize,
        };
        let version = r.u32().map_err(too_short)?;
        let hash = r.u32().map_err(too_short)?;
        let len = r.u32().map_err(too_short)? as usize;
        if version != VERSION {
            return Err(NnueError::Version { version });
        }
        if len > MAX_STRUCTURE_LEN {
            return Err(NnueError::Unsupported {
                hash,
                structure: format!("(an architecture string of {len} bytes)"),
            });
        }
        r.fill(len)?;
        Ok(Header {
            version,
            hash,
            structure: String::from_utf8_lossy(&r.buf).into_owned(),
            len: 12 + len,
        })
    }

    /// Reads the header from the start of a file's contents.
    pub fn parse(bytes: &[u8]) -> Result<Header, NnueError> {
        Header::read(&mut Reader::new(bytes), bytes.len() as u64)
    }
}

impl Network {
    /// Reads a net from the whole contents of a file. Returns the net and any warnings
    /// (an inner hash that does not match: YaneuraOu loads such files too).
    pub fn from_bytes(bytes: &[u8]) -> Result<(Network, Vec<String>), NnueError> {
        Network::read(bytes, bytes.len() as u64)
    }

    /// Reads a net from a stream of `file_len` bytes (the size checks come before the
    /// parameters are read).
    pub fn read(source: impl Read, file_len: u64) -> Result<(Network, Vec<String>), NnueError> {
        let mut r = Reader::new(source);
        let header = Header::read(&mut r, file_len)?;
        let arch = structure::identify(header.hash, &header.structure)?;
        if arch.is_sfnn() {
            return Network::read_sfnn(r, header, arch, file_len);
        }
        let expected = arch.file_size(header.len - 12);
        if file_len != expected {
            return Err(NnueError::Size {
                arch: arch.name(),
                expected,
                actual: file_len,
            });
        }
        let mut warnings = Vec::new();
        let mut check = |found: u32, want: u32, what: &str| {
            hash_warning(&arch, found, want, what, &mut warnings)
        };
        check(r.u32()?, arch.transformer_hash(), "feature transformer");
        let transformer_biases = r.numbers(arch.half, i16::from_le_bytes)?;
        let transformer_weights =
            r.numbers(arch.half * arch.features.dimensions(), i16::from_le_bytes)?;
        check(r.u32()?, arch.network_hash(), "network");
        let layers = r.layers(arch)?;
        if !r.at_end() {
            // The file grew while it was read.
            return Err(NnueError::Size {
                arch: arch.name(),
                expected,
                actual: expected + 1,
            });
        }
        let net = Network {
            arch,
            structure: header.structure,
            transformer_biases,
            transformer_weights,
            stacks: vec![layers],
            progress: None,
            kernels: Kernels::detect(),
            file_len,
        };
        Ok((net, warnings))
    }

    /// Reads the rest of an SFNN file after its header: the transformer's hash and its
    /// LEB128-compressed biases and weights, then each stack's hash and layers. Its size
    /// is known only once read: it must end right after the last stack.
    fn read_sfnn(
        mut r: Reader<impl Read>,
        header: Header,
        arch: Architecture,
        file_len: u64,
    ) -> Result<(Network, Vec<String>), NnueError> {
        // Every number of the transformer takes 1 to 3 bytes: a file outside these
        // bounds is refused before anything is allocated for it.
        let numbers = (arch.half * (1 + arch.features.dimensions())) as u64;
        let fixed = header.len as u64
            + 4
            + 2 * (LEB128_MAGIC.len() as u64 + 4)
            + arch.progress_size()
            + arch.stacks() as u64 * (4 + arch.stack_size());
        let (least, most) = (fixed + numbers, fixed + numbers * LEB128_MAX_BYTES as u64);
        if file_len < least || file_len > most {
            return Err(NnueError::SfnnSize {
                arch: arch.name(),
                least,
                most,
                actual: file_len,
            });
        }
        let mut warnings = Vec::new();
        let mut check = |found: u32, want: u32, what: &str| {
            hash_warning(&arch, found, want, what, &mut warnings)
        };
        check(r.u32()?, arch.transformer_hash(), "feature transformer");
        let mut transformer_biases = r.leb128(arch.half)?;
        let mut transformer_weights = r.leb128(arch.half * arch.features.dimensions())?;
        // YaneuraOu doubles the transformer on reading (in 16 bits) and works with the
        // doubled values; so does hayate.
        for v in transformer_biases
            .iter_mut()
            .chain(transformer_weights.iter_mut())
        {
            *v = v.wrapping_mul(2);
        }
        let progress = if arch.progress_size() > 0 {
            check(r.u32()?, PROGRESS_HASH, "progress");
            let bias = r.numbers(1, i32::from_le_bytes)?[0];
            let weights = r.numbers(FeatureSet::HalfKP.dimensions(), i32::from_le_bytes)?;
            Some(Progress { bias, weights })
        } else {
            None
        };
        let mut stacks = Vec::with_capacity(arch.stacks());
        for _ in 0..arch.stacks() {
            check(r.u32()?, arch.network_hash(), "layer stack");
            stacks.push(r.layers(arch)?);
        }
        if !r.at_end() {
            return Err(NnueError::SfnnSize {
                arch: arch.name(),
                least: r.consumed,
                most: r.consumed,
                actual: file_len,
            });
        }
        let net = Network {
            arch,
            structure: header.structure,
            transformer_biases,
            transformer_weights,
            stacks,
            progress,
            kernels: Kernels::detect(),
            file_len,
        };
        Ok((net, warnings))
    }

    /// The parameters as the file held them (see [`Parameters`]): a classic net's (an
    /// SFNN net's first stack only, and its transformer doubled).
    pub fn parameters(&self) -> Parameters<'_> {
        fn layer(a: &Affine) -> (&[i32], &[i8]) {
            (&a.biases, &a.weights)
        }
        let stack = &self.stacks[0];
        Parameters {
            transformer_biases: &self.transformer_biases,
            transformer_weights: &self.transformer_weights,
            layers: [
                layer(&stack.hidden1),
                layer(&stack.hidden2),
                layer(&stack.output),
            ],
        }
    }

    pub fn arch(&self) -> Architecture {
        self.arch
    }

    /// Bytes of the file the net was read from.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Bytes the loaded net's parameters take in memory: the transformer, and each
    /// affine layer twice (as the file has it, and interleaved for the kernels).
    pub fn memory_bytes(&self) -> u64 {
        fn affine(a: &Affine) -> usize {
            a.biases.len() * 4 + a.weights.len() + a.interleaved.len()
        }
        let transformer = 2 * (self.transformer_biases.len() + self.transformer_weights.len());
        let stacks: usize = self
            .stacks
            .iter()
            .map(|s| {
                let groups: usize = s.groups.iter().map(affine).sum();
                affine(&s.hidden1) + groups + affine(&s.hidden2) + affine(&s.output)
            })
            .sum();
        (transformer + stacks + self.structure.len()) as u64
    }

    /// The architecture string of the file.
    pub fn structure(&self) -> &str {
        &self.structure
    }

    pub fn kernels(&self) -> Kernels {
        self.kernels
    }

    /// Chooses the kernels (tests compare them). Returns `false`, changing nothing, when
    /// this CPU cannot run them.
    pub fn set_kernels(&mut self, kernels: Kernels) -> bool {
        if !kernels.available() {
            return false;
        }
        self.kernels = kernels;
        true
    }

    /// The transformer's biases: the accumulator of no features.
    pub(super) fn transformer_biases(&self) -> &[i16] {
        &self.transformer_biases
    }

    /// Accumulator elements per side.
    pub fn half(&self) -> usize {
        self.arch.half
    }

    /// Computes `viewer`'s accumulator of `pos` from scratch into `acc` (`half` long).
    pub fn refresh(&self, pos: &Position, viewer: Color, acc: &mut [i16]) {
        let active = if self.arch.features == FeatureSet::HalfKPE9 {
            halfkpe9::active(pos, viewer, &Effects::of(pos))
        } else {
            features::active(pos, self.arch.features, viewer)
        };
        self.refresh_from(&active, acc);
    }

    /// Computes an accumulator from scratch into `acc` from its active features.
    pub(super) fn refresh_from(&self, active: &[u32], acc: &mut [i16]) {
        simd::update(
            self.kernels,
            acc,
            &self.transformer_biases,
            &self.transformer_weights,
            &[],
            active,
        );
    }

    /// `dst = src - removed rows + added rows` for one side's accumulator.
    #[inline]
    pub fn update(&self, dst: &mut [i16], src: &[i16], removed: &[u32], added: &[u32]) {
        simd::update(
            self.kernels,
            dst,
            src,
            &self.transformer_weights,
            removed,
            added,
        );
    }

    /// The layer stack that evaluates `pos` (both kings on the board): 0 for a classic
    /// net; for an SFNN net, its hand bucket, then its king bucket, then its progress
    /// bucket, combined as YaneuraOu's `stack_index_for_nnue` combines them.
    #[inline]
    pub fn stack_of(&self, pos: &Position) -> usize {
        let Layout::Sfnn(b) = self.arch.layout else {
            return 0;
        };
        let mut index = if b.hand == HandBuckets::None {
            0
        } else {
            let us = pos.side_to_move();
            hand_bucket(b.hand, pos.hand(us)) * b.hand.per_side()
                + hand_bucket(b.hand, pos.hand(!us))
        };
        if b.king != KingBuckets::None {
            let us = pos.side_to_move();
            let n = b.king.per_king();
            let zone = |c: Color| king_zone(b.king, pos.king_square(c).expect("both kings"), c);
            index = index * n * n + zone(us) * n + zone(!us);
        }
        if let Some(progress) = &self.progress {
            let n = b.progress as usize;
            let bucket = (progress.value(pos) * n / PROGRESS_VALUES).min(n - 1);
            index = index * n + bucket;
        }
        index
    }

    /// The evaluation from the two accumulators, the side to move's first, through
    /// layer stack `stack` ([`stack_of`](Self::stack_of)): the output unit divided by
    /// `fv_scale` (rounding towards zero), clamped to ±[`MAX_EVAL`]. `transformed` is
    /// scratch space of `2 · half` bytes (the caller keeps it, so that it is not cleared
    /// at every evaluation).
    pub fn propagate(
        &self,
        us: &[i16],
        them: &[i16],
        fv_scale: i32,
        transformed: &mut [u8],
        stack: usize,
    ) -> i32 {
        if self.arch.is_sfnn() {
            return self.propagate_sfnn(us, them, fv_scale, transformed, stack);
        }
        let layers = &self.stacks[0];
        let half = self.arch.half;
        let transformed = &mut transformed[..2 * half];
        simd::clamp_to_u8(self.kernels, us, &mut transformed[..half]);
        simd::clamp_to_u8(self.kernels, them, &mut transformed[half..]);

        let h1 = self.arch.hidden1;
        let h2 = self.arch.hidden2;
        let mut sums = [0i32; MAX_HIDDEN];
        // Padded inputs of the next layer stay zero.
        let mut hidden1 = [0u8; MAX_HIDDEN];
        layers
            .hidden1
            .propagate(self.kernels, transformed, &mut sums[..h1]);
        clipped_relu(&sums[..h1], &mut hidden1[..h1]);
        let mut hidden2 = [0u8; MAX_HIDDEN];
        layers
            .hidden2
            .propagate(self.kernels, &hidden1[..padded(h1)], &mut sums[..h2]);
        clipped_relu(&sums[..h2], &mut hidden2[..h2]);
        let mut out = [0i32; 1];
        layers
            .output
            .propagate(self.kernels, &hidden2[..padded(h2)], &mut out);
        (out[0] / fv_scale).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// [`propagate`](Self::propagate) for an SFNN net: each side's two halves multiplied
    /// into `half / 2` bytes, the chosen stack's first layer, its outputs squared and
    /// clipped side by side, the second layer, ClippedReLU, the output layer, and the
    /// first layer's extra output added as it is when hidden1 is 8n − 1.
    fn propagate_sfnn(
        &self,
        us: &[i16],
        them: &[i16],
        fv_scale: i32,
        transformed: &mut [u8],
        stack: usize,
    ) -> i32 {
        let layers = &self.stacks[stack];
        let half = self.arch.half;
        // The products take the scratch's first half; a split first layer's inputs are
        // gathered in the second (no buffer of its own to clear at every evaluation).
        let (transformed, gathered) = transformed[..2 * half].split_at_mut(half);
        let (ours, theirs) = transformed.split_at_mut(half / 2);
        simd::pairwise_product(self.kernels, us, ours);
        simd::pairwise_product(self.kernels, them, theirs);

        let (h1, h2) = (self.arch.hidden1, self.arch.hidden2);
        let mut first = [0i32; MAX_HIDDEN];
        if layers.groups.is_empty() {
            layers.hidden1.propagate(
                self.kernels,
                transformed,
                &mut first[..self.arch.first_outputs()],
            );
        } else {
            // Each group reads the common inputs and its own shard, side by side.
            let s = self.arch.shards;
            let input = &mut gathered[..s.common + s.shard];
            input[..s.common].copy_from_slice(&transformed[..s.common]);
            let outputs = self.arch.first_outputs() / s.groups;
            for (g, layer) in layers.groups.iter().enumerate() {
                let start = s.common + g * s.shard;
                input[s.common..].copy_from_slice(&transformed[start..start + s.shard]);
                layer.propagate(self.kernels, input, &mut first[g * outputs..][..outputs]);
            }
        }
        // check_bounds keeps 2·hidden1, padded, within MAX_HIDDEN; the padding stays zero.
        let mut hidden1 = [0u8; MAX_HIDDEN];
        for (i, &x) in first[..h1].iter().enumerate() {
            hidden1[i] = sqr_clipped_relu(x);
            hidden1[h1 + i] = clipped_relu_one(x);
        }
        let mut sums = [0i32; MAX_HIDDEN];
        layers
            .hidden2
            .propagate(self.kernels, &hidden1[..padded(2 * h1)], &mut sums[..h2]);
        let mut hidden2 = [0u8; MAX_HIDDEN];
        clipped_relu(&sums[..h2], &mut hidden2[..h2]);
        let mut out = [0i32; 1];
        layers
            .output
            .propagate(self.kernels, &hidden2[..padded(h2)], &mut out);
        let mut value = out[0];
        if self.arch.shortcut() {
            // As YaneuraOu adds it: unscaled, in 32 bits.
            value = value.wrapping_add(first[h1]);
        }
        (value / fv_scale).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The evaluation of `pos` for the side to move, computed from scratch; `None` when a
    /// king is missing (the nets need both).
    pub fn evaluate(&self, pos: &Position, fv_scale: i32) -> Option<i32> {
        if !features::supports(pos) {
            return None;
        }
        let half = self.arch.half;
        // Sized by the net: a stack buffer for the widest net read would cost more to
        // clear than a small net's whole evaluation.
        let mut acc = Aligned::<i16>::zeroed(2 * half);
        let (us, them) = acc.split_at_mut(half);
        let side = pos.side_to_move();
        self.refresh(pos, side, us);
        self.refresh(pos, !side, them);
        let mut transformed = Aligned::<u8>::zeroed(2 * half);
        let stack = self.stack_of(pos);
        Some(self.propagate(us, them, fv_scale, &mut transformed, stack))
    }
}

/// A hash in the file that is not the one its shape's files carry: the net is read
/// anyway (the shape came from the architecture string), with a warning for the player.
fn hash_warning(
    arch: &Architecture,
    found: u32,
    want: u32,
    what: &str,
    warnings: &mut Vec<String>,
) {
    if found != want {
        warnings.push(format!(
            "the {what} hash is {found:#010x}, not {want:#010x} as {} files have; loaded anyway",
            arch.name()
        ));
    }
}

/// One side's hand bucket (YaneuraOu's `handN_single_bucket`).
fn hand_bucket(kind: HandBuckets, hand: Hand) -> usize {
    use PieceKind::{Bishop, Gold, Knight, Lance, Pawn, Rook, Silver};
    let has = |kinds: &[PieceKind]| kinds.iter().any(|&k| hand.count(k) > 0) as usize;
    match kind {
        HandBuckets::None => 0,
        HandBuckets::Hand4 => has(&[Bishop]),
        HandBuckets::Hand16 => has(&[Pawn]) | (has(&[Bishop]) << 1),
        HandBuckets::Hand64 => {
            has(&[Pawn, Lance, Knight]) | (has(&[Gold, Silver, Rook]) << 1) | (has(&[Bishop]) << 2)
        }
        HandBuckets::Hand64z => {
            let points = |kinds: &[PieceKind], each: u32| {
                kinds.iter().map(|&k| hand.count(k)).sum::<u32>() * each
            };
            let total = points(&[Pawn], 1)
                + points(&[Lance, Knight], 2)
                + points(&[Silver, Gold], 3)
                + points(&[Bishop, Rook], 5);
            // Eight zones of four points, the first from one point on.
            ((total as usize).div_ceil(HAND64Z_POINTS)).min(HAND64Z_ZONES - 1)
        }
        HandBuckets::Hand256 => {
            has(&[Pawn, Lance, Knight])
                | (has(&[Silver, Gold]) << 1)
                | (has(&[Bishop]) << 2)
                | (has(&[Rook]) << 3)
        }
        HandBuckets::Hand1024 => {
            has(&[Pawn])
                | (has(&[Lance, Knight]) << 1)
                | (has(&[Silver, Gold]) << 2)
                | (has(&[Bishop]) << 3)
                | (has(&[Rook]) << 4)
        }
    }
}

/// `hand64z`: hand points per zone, and zones.
const HAND64Z_POINTS: usize = 4;
const HAND64Z_ZONES: usize = 8;

/// The zone of `owner`'s king on `sq` for king buckets `kind` (YaneuraOu's
/// `kingN_..._bucket`s), the square seen from the owner's side: rank 0 is the far end of
/// the board, rank 8 the owner's back rank; file 0 is file 1 (for Black).
fn king_zone(kind: KingBuckets, sq: Square, owner: Color) -> usize {
    let index = match owner {
        Color::Black => sq.index(),
        Color::White => Square::NUM - 1 - sq.index(),
    };
    let (file, rank) = (index / RANKS, index % RANKS);
    // The back two or three ranks split by file, in thirds or square by square.
    let third_of_file = file / (FILES / THIRD);
    match kind {
        KingBuckets::None => 0,
        KingBuckets::K3K3 => rank / THIRD,
        KingBuckets::K9K9 => rank,
        KingBuckets::K9K9Z => match rank {
            0..=2 => 0,
            3..=5 => 1,
            6 => 2,
            _ => 3 + (rank - 7) * THIRD + third_of_file,
        },
        KingBuckets::K13K13Z => match rank {
            0..=6 => rank,
            _ => 7 + (rank - 7) * THIRD + third_of_file,
        },
        KingBuckets::K21K21 => match rank {
            0..=2 => 0,
            3..=5 => 1,
            6 => 2,
            _ => 3 + (rank - 7) * FILES + file,
        },
        KingBuckets::K29K29 => match rank {
            0..=2 => 0,
            3..=5 => 1,
            _ => 2 + (rank - 6) * FILES + file,
        },
    }
}
