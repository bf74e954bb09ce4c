//! What a net file is, for a player choosing one (`hayate netinfo FILE`): its format,
//! shape, size, the hashes in it (and whether they are the shape's), the FV_SCALE it
//! may want, and what it takes in memory once loaded. A file that cannot be read is
//! refused with one line saying what its header says.

use super::arch::{Architecture, Layout};
use super::builtin;
use super::error::NnueError;
use super::network::{Header, Network, DEFAULT_FV_SCALE, LEB128_MAGIC, MAX_STRUCTURE_LEN};
use std::fmt;
use std::io::{Read, Seek, SeekFrom};
use std::time::Instant;

/// Bytes of a header before its architecture string: version, hash, string length.
const HEADER_FIXED: u64 = 12;

/// The FV_SCALE AobaNNUE's authors publish its nets for.
const AOBA_FV_SCALE: i32 = 40;
/// The FV_SCALE suisho-type nets (suisho5 and its kin) are used with.
const SUISHO_FV_SCALE: i32 = 24;
/// AobaNNUE's shape: a player with a net of this shape probably holds an AobaNNUE net.
const AOBA_SHAPE: &str = "halfkp_768x2-16-64";

/// One hash as the file has it, and the value its shape implies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashCheck {
    pub found: u32,
    pub expected: u32,
}

impl fmt::Display for HashCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.found == self.expected {
            write!(f, "{:#010x} (matches the shape)", self.found)
        } else {
            write!(
                f,
                "{:#010x} (the shape implies {:#010x}: does not match)",
                self.found, self.expected
            )
        }
    }
}

/// What `netinfo` says of a net that loads.
#[derive(Debug)]
pub struct NetInfo {
    /// The name the user gave (a path, or `internal`).
    pub name: String,
    pub arch: Architecture,
    pub structure: String,
    pub file_len: u64,
    pub file_hash: HashCheck,
    pub transformer_hash: HashCheck,
    /// The hash before each layer stack (one for a classic net).
    pub network_hashes: Vec<HashCheck>,
    /// Bytes of parameters in memory once loaded.
    pub memory: u64,
    pub load_millis: u128,
}

/// Reads the little-endian `u32` at `offset`.
fn u32_at(r: &mut (impl Read + Seek), offset: u64) -> Result<u32, NnueError> {
    let io = |error| NnueError::Io {
        path: "the net file".to_string(),
        error,
    };
    r.seek(SeekFrom::Start(offset)).map_err(io)?;
    let mut b = [0u8; 4];
    r.read_exact(&mut b).map_err(|e| match e.kind() {
        std::io::ErrorKind::UnexpectedEof => NnueError::Truncated,
        _ => io(e),
    })?;
    Ok(u32::from_le_bytes(b))
}

/// The hashes after the header of a file of shape `arch` whose header takes
/// `header_len` bytes: the transformer's, then each stack's. A classic net's are at
/// fixed places; an SFNN net's stacks follow its two LEB128 blocks, each the magic
/// string and its length in bytes before the data.
fn inner_hashes(
    r: &mut (impl Read + Seek),
    arch: Architecture,
    header_len: u64,
) -> Result<(u32, Vec<u32>), NnueError> {
    let transformer = u32_at(r, header_len)?;
    let mut at = header_len + 4;
    let mut stacks = Vec::with_capacity(arch.stacks());
    match arch.layout {
        Layout::Classic => {
            at += 2 * (arch.half * (1 + arch.features.dimensions())) as u64;
            stacks.push(u32_at(r, at)?);
        }
        Layout::Sfnn(_) => {
            let magic = LEB128_MAGIC.len() as u64;
            for _block in 0..2 {
                at += magic + 4 + u64::from(u32_at(r, at + magic)?);
            }
            // The progress parameters, when the net has progress buckets.
            at += arch.progress_size();
            for _stack in 0..arch.stacks() {
                stacks.push(u32_at(r, at)?);
                at += 4 + arch.stack_size();
            }
        }
    }
    Ok((transformer, stacks))
}

/// Reads the header at the start of `r` (a file of `file_len` bytes).
fn header(r: &mut impl Read, file_len: u64) -> Result<Header, NnueError> {
    let mut start = Vec::new();
    r.take(HEADER_FIXED + MAX_STRUCTURE_LEN as u64)
        .read_to_end(&mut start)
        .map_err(|error| NnueError::Io {
            path: "the net file".to_string(),
            error,
        })?;
    match Header::parse(&start) {
        Err(NnueError::TooShort { .. }) => Err(NnueError::TooShort {
            len: file_len as usize,
        }),
        other => other,
    }
}

impl NetInfo {
    /// Reads the net `name` names (a path, or [`builtin::NAME`]) as the engine loads it,
    /// and the hashes in its file.
    pub fn read(name: &str) -> Result<NetInfo, NnueError> {
        let started = Instant::now();
        let (net, _warnings) = builtin::load_named(name)?;
        let load_millis = started.elapsed().as_millis();
        if name.eq_ignore_ascii_case(builtin::NAME) {
            let bytes = builtin::bytes();
            NetInfo::describe(name, net, &mut std::io::Cursor::new(bytes), load_millis)
        } else {
            let mut file = std::fs::File::open(name).map_err(|error| NnueError::Io {
                path: name.to_string(),
                error,
            })?;
            NetInfo::describe(name, net, &mut file, load_millis)
        }
    }

    fn describe(
        name: &str,
        net: Network,
        r: &mut (impl Read + Seek),
        load_millis: u128,
    ) -> Result<NetInfo, NnueError> {
        let arch = net.arch();
        let file_len = net.file_len();
        let header = header(r, file_len)?;
        let (transformer, stacks) = inner_hashes(r, arch, header.len as u64)?;
        let check = |found, expected| HashCheck { found, expected };
        Ok(NetInfo {
            name: name.to_string(),
            arch,
            structure: header.structure,
            file_len,
            file_hash: check(header.hash, arch.hash()),
            transformer_hash: check(transformer, arch.transformer_hash()),
            network_hashes: stacks
                .into_iter()
                .map(|h| check(h, arch.network_hash()))
                .collect(),
            memory: net.memory_bytes(),
            load_millis,
        })
    }

    /// Facts on FV_SCALE for this net, for the player to choose by.
    pub fn fv_scale_advice(&self) -> String {
        let mut s = format!(
            "YaneuraOu's default FV_SCALE is {DEFAULT_FV_SCALE} (hayate's too: the FV_SCALE \
             option, --fv-scale); AobaNNUE nets ({AOBA_SHAPE}) are used with \
             {AOBA_FV_SCALE}, suisho-type nets with {SUISHO_FV_SCALE}"
        );
        if self.arch.name() == AOBA_SHAPE {
            s.push_str(&format!(
                "; this net has AobaNNUE's shape: if it is an AobaNNUE net, use \
                 {AOBA_FV_SCALE}"
            ));
        }
        s
    }
}

/// Megabytes (10^6 bytes), one decimal.
fn megabytes(bytes: u64) -> String {
    const MB: f64 = 1e6;
    format!("{:.1} MB", bytes as f64 / MB)
}

impl fmt::Display for NetInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let a = &self.arch;
        writeln!(f, "file: {}", self.name)?;
        writeln!(
            f,
            "size: {} bytes ({})",
            self.file_len,
            megabytes(self.file_len)
        )?;
        writeln!(f, "format: {}", a.format())?;
        writeln!(f, "architecture: {}", self.structure)?;
        writeln!(
            f,
            "shape: {}: features {} ({} inputs), transformer {}x2, hidden layers {} and {}, \
             {} layer stack{}",
            a.name(),
            a.features.name(),
            a.features.dimensions(),
            a.half,
            a.hidden1,
            a.hidden2,
            a.stacks(),
            if a.stacks() == 1 { "" } else { "s" }
        )?;
        let s = a.shards;
        if s.is_split() {
            writeln!(
                f,
                "first layer: split, each of {} groups of {} outputs reading the {} common \
                 inputs and its own {}",
                s.groups,
                a.first_outputs() / s.groups,
                s.common,
                s.shard
            )?;
        }
        writeln!(f, "file hash: {}", self.file_hash)?;
        writeln!(f, "feature transformer hash: {}", self.transformer_hash)?;
        let mismatched = self
            .network_hashes
            .iter()
            .filter(|h| h.found != h.expected)
            .count();
        match self.network_hashes.as_slice() {
            [one] => writeln!(f, "network hash: {one}")?,
            all => {
                writeln!(
                    f,
                    "network hash: {} ({} of {} stacks' match the shape)",
                    all[0],
                    all.len() - mismatched,
                    all.len()
                )?;
            }
        }
        writeln!(f, "FV_SCALE: {}", self.fv_scale_advice())?;
        write!(
            f,
            "memory: {} bytes ({}) of parameters once loaded, loaded in {} ms",
            self.memory,
            megabytes(self.memory),
            self.load_millis
        )
    }
}
