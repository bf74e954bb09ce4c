//! A loaded net: its parameters, read from the bytes of a file, and the forward pass from
//! the two accumulators to the evaluation.

use super::arch::{padded, Architecture, VERSION};
use super::error::NnueError;
use super::features::{self, MAX_ACTIVE};
use super::simd::{self, Kernels};
use crate::position::Position;
use crate::types::Color;
use arrayvec::ArrayVec;

/// The bound YaneuraOu clamps a net's evaluation to (`VALUE_MAX_EVAL`: the mate value
/// 32000 less its maximum ply 246, less one).
pub const MAX_EVAL: i32 = 31_753;

/// How many of the network's output units make one unit of evaluation, by default
/// (YaneuraOu's `FV_SCALE`; nets trained for it, like suisho5, want 24).
pub const DEFAULT_FV_SCALE: i32 = 16;

/// ClippedReLU shifts an affine layer's sums right by this many bits (the weights'
/// fixed-point scale, 64).
const WEIGHT_SCALE_BITS: u32 = 6;

/// Largest first hidden layer of the supported shapes, for stack buffers.
const MAX_HIDDEN: usize = 64;

/// Largest accumulator half of the supported shapes.
pub const MAX_HALF: usize = 1024;

/// One affine layer: i32 biases and i8 weights, one row of `padded(inputs)` per output.
#[derive(Clone)]
struct Affine {
    biases: Box<[i32]>,
    weights: Box<[i8]>,
    row: usize,
}

impl Affine {
    /// `out[i] = bias[i] + Σ input · row i` for the outputs, where `input` is padded.
    #[inline]
    fn propagate(&self, kernels: Kernels, input: &[u8], out: &mut [i32]) {
        for (i, o) in out.iter_mut().enumerate() {
            let row = &self.weights[i * self.row..][..self.row];
            *o = self.biases[i] + simd::dot(kernels, input, row);
        }
    }
}

/// ClippedReLU: `clamp(x >> 6, 0, 127)`, the shift arithmetic (rounding down).
#[inline]
fn clipped_relu(input: &[i32], out: &mut [u8]) {
    for (o, &x) in out.iter_mut().zip(input) {
        *o = (x >> WEIGHT_SCALE_BITS).clamp(0, 127) as u8;
    }
}

/// A classic NNUE net, shared read-only by every search thread.
#[derive(Clone)]
pub struct Network {
    arch: Architecture,
    /// The architecture string from the file's header (for display).
    structure: String,
    transformer_biases: Box<[i16]>,
    /// One row of `half` weights per input feature.
    transformer_weights: Box<[i16]>,
    hidden1: Affine,
    hidden2: Affine,
    output: Affine,
    kernels: Kernels,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("arch", &self.arch.name())
            .field("kernels", &self.kernels)
            .finish()
    }
}

/// Reads little-endian numbers off the front of a byte slice (sizes already checked).
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NnueError> {
        if self.bytes.len() < n {
            return Err(NnueError::Truncated);
        }
        let (head, tail) = self.bytes.split_at(n);
        self.bytes = tail;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, NnueError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, n: usize) -> Result<Box<[i16]>, NnueError> {
        Ok(self
            .take(2 * n)?
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

    fn i32s(&mut self, n: usize) -> Result<Box<[i32]>, NnueError> {
        Ok(self
            .take(4 * n)?
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn i8s(&mut self, n: usize) -> Result<Box<[i8]>, NnueError> {
        Ok(self.take(n)?.iter().map(|&b| b as i8).collect())
    }

    fn affine(&mut self, inputs: usize, outputs: usize) -> Result<Affine, NnueError> {
        let biases = self.i32s(outputs)?;
        let row = padded(inputs);
        let weights = self.i8s(outputs * row)?;
        Ok(Affine {
            biases,
            weights,
            row,
        })
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
    /// Reads the header from the start of a file.
    pub fn parse(bytes: &[u8]) -> Result<Header, NnueError> {
        let mut r = Reader { bytes };
        let too_short = |_| NnueError::TooShort { len: bytes.len() };
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
        let raw = r.take(len).map_err(|_| NnueError::Truncated)?;
        Ok(Header {
            version,
            hash,
            structure: String::from_utf8_lossy(raw).into_owned(),
            len: 12 + len,
        })
    }
}

impl Network {
    /// Reads a net from the whole contents of a file. Returns the net and any warnings
    /// (an inner hash that does not match: YaneuraOu loads such files too).
    pub fn from_bytes(bytes: &[u8]) -> Result<(Network, Vec<String>), NnueError> {
        let header = Header::parse(bytes)?;
        let Some(arch) = Architecture::from_hash(header.hash) else {
            return Err(NnueError::Unsupported {
                hash: header.hash,
                structure: header.structure,
            });
        };
        let expected = arch.file_size(header.len - 12);
        if bytes.len() as u64 != expected {
            return Err(NnueError::Size {
                arch: arch.name(),
                expected,
                actual: bytes.len() as u64,
            });
        }
        let mut warnings = Vec::new();
        let mut r = Reader {
            bytes: &bytes[header.len..],
        };
        let mut check = |found: u32, want: u32, what: &str| {
            if found != want {
                warnings.push(format!(
                    "the {what} hash is {found:#010x}, not {want:#010x} as {} files have; loaded anyway",
                    arch.name()
                ));
            }
        };
        check(r.u32()?, arch.transformer_hash(), "feature transformer");
        let transformer_biases = r.i16s(arch.half)?;
        let transformer_weights = r.i16s(arch.half * arch.features.dimensions())?;
        check(r.u32()?, arch.network_hash(), "network");
        let hidden1 = r.affine(2 * arch.half, arch.hidden1)?;
        let hidden2 = r.affine(arch.hidden1, arch.hidden2)?;
        let output = r.affine(arch.hidden2, 1)?;
        debug_assert!(r.bytes.is_empty());
        let net = Network {
            arch,
            structure: header.structure,
            transformer_biases,
            transformer_weights,
            hidden1,
            hidden2,
            output,
            kernels: Kernels::detect(),
        };
        Ok((net, warnings))
    }

    pub fn arch(&self) -> Architecture {
        self.arch
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

    /// Accumulator elements per side.
    pub fn half(&self) -> usize {
        self.arch.half
    }

    /// Computes `viewer`'s accumulator of `pos` from scratch into `acc` (`half` long).
    pub fn refresh(&self, pos: &Position, viewer: Color, acc: &mut [i16]) {
        let active = features::active(pos, self.arch.features, viewer);
        self.refresh_from(&active, acc);
    }

    fn refresh_from(&self, active: &ArrayVec<u32, MAX_ACTIVE>, acc: &mut [i16]) {
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

    /// The evaluation from the two accumulators, the side to move's first: the output
    /// unit divided by `fv_scale` (rounding towards zero), clamped to ±[`MAX_EVAL`].
    pub fn propagate(&self, us: &[i16], them: &[i16], fv_scale: i32) -> i32 {
        let half = self.arch.half;
        let mut transformed = [0u8; 2 * MAX_HALF];
        let transformed = &mut transformed[..2 * half];
        simd::clamp_to_u8(self.kernels, us, &mut transformed[..half]);
        simd::clamp_to_u8(self.kernels, them, &mut transformed[half..]);

        let h1 = self.arch.hidden1;
        let h2 = self.arch.hidden2;
        let mut sums = [0i32; MAX_HIDDEN];
        // Padded inputs of the next layer stay zero.
        let mut hidden1 = [0u8; MAX_HIDDEN];
        self.hidden1
            .propagate(self.kernels, transformed, &mut sums[..h1]);
        clipped_relu(&sums[..h1], &mut hidden1[..h1]);
        let mut hidden2 = [0u8; MAX_HIDDEN];
        self.hidden2
            .propagate(self.kernels, &hidden1[..padded(h1)], &mut sums[..h2]);
        clipped_relu(&sums[..h2], &mut hidden2[..h2]);
        let mut out = [0i32; 1];
        self.output
            .propagate(self.kernels, &hidden2[..padded(h2)], &mut out);
        (out[0] / fv_scale).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The evaluation of `pos` for the side to move, computed from scratch; `None` when a
    /// king is missing (the nets need both).
    pub fn evaluate(&self, pos: &Position, fv_scale: i32) -> Option<i32> {
        if !features::supports(pos) {
            return None;
        }
        let half = self.arch.half;
        let mut acc = [0i16; 2 * MAX_HALF];
        let (us, them) = acc[..2 * half].split_at_mut(half);
        let side = pos.side_to_move();
        self.refresh(pos, side, us);
        self.refresh(pos, !side, them);
        Some(self.propagate(us, them, fv_scale))
    }
}
