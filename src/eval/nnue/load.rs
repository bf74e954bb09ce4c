//! Reading a net file from disk without trusting it: only regular files are opened, never
//! in a way that can block (a FIFO swapped in after the check), and never more bytes
//! read than the largest supported net has.

use super::arch::SUPPORTED;
use super::error::NnueError;
use super::network::{Network, MAX_STRUCTURE_LEN};
use std::fs::File;
use std::io::Read;
use std::path::Path;

/// The largest file any supported net can be.
fn max_file_size() -> u64 {
    SUPPORTED
        .iter()
        .map(|a| a.file_size(MAX_STRUCTURE_LEN))
        .max()
        .unwrap_or(0)
}

fn not_regular(path: &str, meta: &std::fs::Metadata) -> Option<NnueError> {
    let what = if meta.is_dir() {
        "a directory"
    } else if meta.is_file() {
        return None;
    } else {
        "a special file (FIFO, device or socket)"
    };
    Some(NnueError::NotAFile {
        path: path.to_string(),
        what,
    })
}

#[cfg(target_os = "linux")]
fn open(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Non-blocking, so that opening a FIFO put there after the check returns at once.
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(target_os = "linux"))]
fn open(path: &Path) -> std::io::Result<File> {
    File::open(path)
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
    let file = open(path).map_err(io)?;
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
