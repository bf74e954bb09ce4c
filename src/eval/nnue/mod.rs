//! NNUE evaluation: YaneuraOu's net files (`nn.bin`), classic and SFNN, read and run so
//! that the evaluation equals YaneuraOu's, bit for bit.
//!
//! - [`arch`]: the shapes read (HalfKP, HalfKP_vm, HalfKPE9 and K+P classic nets of any
//!   width, like `halfkp_256x2-32-32` or `halfkp_768x2-16-64`; SFNN nets over HalfKA_hm2 like
//!   `SFNN_halfkahm2_1536_15_32_k3k3`), their hashes and sizes;
//! - [`structure`]: the architecture string of a file's header, read into a shape;
//! - [`load`] and [`Network::from_bytes`]: the file, checked before it is trusted;
//! - [`builtin`]: the net built into the binary (`EvalFile=internal`);
//! - [`info`]: `hayate netinfo`, what a net file is;
//! - [`features`]: which feature rows a position switches on, and what a move changes;
//! - [`effects`] and [`halfkpe9`]: HalfKPE9's attack counts, and its features from them;
//! - [`AccumulatorStack`]: the search's incrementally updated accumulators;
//! - [`refresh_cache`]: recounts after a king move, from the last accumulator of its square;
//! - [`simd`]: the kernels, portable, AVX2 and AVX2 with VNNI, chosen at run time;
//! - [`aligned`]: the cache-line-aligned buffers the kernels read.

pub mod accumulator;
pub mod aligned;
pub mod arch;
pub mod builtin;
pub mod effects;
mod error;
pub mod features;
pub mod halfkpe9;
pub mod info;
mod load;
mod network;
pub mod refresh_cache;
pub(crate) mod simd;
pub(crate) mod structure;

pub use accumulator::AccumulatorStack;
pub use arch::{Architecture, FeatureSet, COMMON, MAX_HALF, MAX_HIDDEN};
pub use error::NnueError;
pub use features::Dirty;
pub use load::load;
pub use network::{Header, Network, Parameters, DEFAULT_FV_SCALE, MAX_EVAL};
pub use simd::Kernels;
