//! Reading a net file from disk without trusting it: only regular files are opened, never
//! in a way that can block (a FIFO swapped in after the check), and never more bytes
//! read than the largest net read has.

use super::arch::Architecture;
use super::error::NnueError;
use super::network::{Network, MAX_STRUCTURE_LEN};
use std::io::Read;
use std::path::Path;

/// The largest file a net read can be.
fn max_file_size() -> u64 {
    Architecture::LARGEST.file_size(MAX_STRUCTURE_LEN)
}

fn not_regular(path: &str, meta: &std::fs::Metadata) -> Option<NnueError> {
    crate::files::irregular(meta).map(|what| NnueError::NotAFile {
        path: path.to_string(),
        what,
    })
}

/// Loads the net in the file at `path`. Returns it with any warnings to show the user.
pub fn load(path: &Path) -> Result<(Network, Vec<String>), NnueError> {
    let shown = path.display().to_string();
    let io = |error| NnueError::Io {
        path: shown.clone(),
        error,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if let Some(e) = not_regular(&shown, &meta) {
        return Err(e);
    }
    let max = max_file_size();
    if meta.len() > max {
        return Err(NnueError::TooLarge {
            path: shown,
            len: meta.len(),
        });
    }
    let file = crate::files::open_nonblocking(path).map_err(io)?;
    let meta = file.metadata().map_err(io)?;
    if let Some(e) = not_regular(&shown, &meta) {
        return Err(e);
    }
    let len = meta.len();
    if len > max {
        return Err(NnueError::TooLarge { path: shown, len });
    }
    let reader = std::io::BufReader::with_capacity(1 << 16, file.take(max + 1));
    Network::read(reader, len)
}
