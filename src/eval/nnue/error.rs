//! Why a net file was refused.

use super::arch::supported_summary;
use std::fmt;

/// What is wrong with a net file. The messages name what the file is and what hayate
/// reads, for an `info string` or a tool's error.
#[derive(Debug)]
pub enum NnueError {
    /// The file could not be opened or read.
    Io { path: String, error: std::io::Error },
    /// Not a regular file: a directory, FIFO, device or socket.
    NotAFile { path: String, what: &'static str },
    /// Larger than any supported net (read no further).
    TooLarge { path: String, len: u64 },
    /// Shorter than a header.
    TooShort { len: usize },
    /// Not YaneuraOu's classic NNUE format.
    Version { version: u32 },
    /// An NNUE file whose architecture string describes no shape hayate reads, and whose
    /// hash is none of the common shapes'.
    Unsupported { hash: u32, structure: String },
    /// The architecture string describes a shape, but the header's hash is not that
    /// shape's (a damaged header, or a layout that only borrows the words).
    Hash {
        arch: String,
        found: u32,
        expected: u32,
    },
    /// A classic net of a size outside hayate's bounds.
    Bounds { arch: String, why: String },
    /// A supported shape, but the file's size is not that shape's.
    Size {
        arch: String,
        expected: u64,
        actual: u64,
    },
    /// An SFNN file whose size is outside what its shape can take (its transformer is
    /// compressed: each number takes 1 to 3 bytes), or that goes on after its last stack.
    SfnnSize {
        arch: String,
        least: u64,
        most: u64,
        actual: u64,
    },
    /// An SFNN file's LEB128-compressed block is damaged.
    Compressed { why: &'static str },
    /// The data ended early.
    Truncated,
}

/// Shows at most this many characters of an architecture string.
const SHOWN: usize = 80;

/// A name for the usual non-classic shapes, read off the architecture string.
fn family(structure: &str) -> Option<&'static str> {
    let s = structure.to_ascii_lowercase();
    [
        ("sfnn", "an SFNN net"),
        ("layerstack", "an SFNN net"),
        (
            "halfka_hm",
            "a HalfKA_hm net of a layout hayate does not read",
        ),
        ("halfka", "a HalfKA net of a layout hayate does not read"),
        ("halfkpe9", "a HalfKPE9 net"),
        (
            "halfkp_vm",
            "a HalfKP_vm net of a layout hayate does not read",
        ),
        ("halfkp", "a HalfKP net of a layout hayate does not read"),
        ("k+p", "a K+P net of a layout hayate does not read"),
    ]
    .into_iter()
    .find(|(key, _)| s.contains(key))
    .map(|(_, name)| name)
}

impl fmt::Display for NnueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reads = supported_summary();
        match self {
            NnueError::Io { path, error } => write!(f, "cannot read {path}: {error}"),
            NnueError::NotAFile { path, what } => {
                write!(f, "{path} is {what}, not a net file")
            }
            NnueError::TooLarge { path, len } => write!(
                f,
                "{path} has {len} bytes, more than any net hayate reads ({reads})"
            ),
            NnueError::TooShort { len } => write!(
                f,
                "the file has {len} bytes, too few for an NNUE header: not a net file"
            ),
            NnueError::Version { version } => write!(
                f,
                "not a classic NNUE net (version {version:#010x}, YaneuraOu's is 0x7af32f16); \
                 hayate reads {reads}"
            ),
            NnueError::Unsupported { hash, structure } => {
                let shown: String = structure
                    .chars()
                    .map(|c| if c.is_control() { '?' } else { c })
                    .take(SHOWN)
                    .collect();
                let what = family(structure).unwrap_or("an NNUE net of another architecture");
                write!(
                    f,
                    "the file is {what} (hash {hash:#010x}, {shown}); hayate reads {reads}"
                )
            }
            NnueError::Hash {
                arch,
                found,
                expected,
            } => write!(
                f,
                "the architecture string says {arch}, but the header's hash is {found:#010x}, \
                 not {expected:#010x} as {arch} files have"
            ),
            NnueError::Bounds { arch, why } => {
                write!(f, "the file is {arch}, which has {why}")
            }
            NnueError::Size {
                arch,
                expected,
                actual,
            } => {
                let how = if actual < expected {
                    "truncated"
                } else {
                    "too long"
                };
                write!(
                    f,
                    "the file has a {arch} header but is {how}: {actual} bytes, a {arch} net \
                     has {expected}"
                )
            }
            NnueError::SfnnSize {
                arch,
                least,
                most,
                actual,
            } => {
                if least == most {
                    write!(
                        f,
                        "the file has an {arch} net's header but is too long: {actual} bytes, \
                         its net ends at {least}"
                    )
                } else {
                    write!(
                        f,
                        "the file has an {arch} net's header but {actual} bytes, not {least} to \
                         {most} as such a net has"
                    )
                }
            }
            NnueError::Compressed { why } => {
                write!(f, "the SFNN net's compressed parameters are damaged: {why}")
            }
            NnueError::Truncated => write!(f, "the file is truncated: it ends too early"),
        }
    }
}

impl std::error::Error for NnueError {}
