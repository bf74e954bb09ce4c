//! Opening files named by users without trusting them: only regular files are opened,
//! and never in a way that can block. `open` on a FIFO waits for a writer, and reading
//! `/dev/zero` or `/dev/stdin` never ends, so an option set to one of those would hang
//! `isready`.

use std::fs::{File, Metadata};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `path` anew through a synced temporary file beside it (`path` + `.tmp`) and a
/// rename, so that whatever happens it holds either the old bytes or the new ones.
pub fn replace(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut temp = path.as_os_str().to_owned();
    temp.push(".tmp");
    let temp = PathBuf::from(temp);
    let mut file = File::create(&temp)?;
    file.write_all(bytes).and_then(|()| file.sync_all())?;
    std::fs::rename(&temp, path)
}

/// What a path is when it is not a regular file: `"a directory"` or `"a special file
/// (FIFO, device or socket)"`; `None` for a regular file.
pub fn irregular(meta: &Metadata) -> Option<&'static str> {
    if meta.is_file() {
        None
    } else if meta.is_dir() {
        Some("a directory")
    } else {
        Some("a special file (FIFO, device or socket)")
    }
}

/// Opens `path` for reading without blocking (a FIFO put there after a check returns at
/// once instead of waiting for a writer).
#[cfg(target_os = "linux")]
pub fn open_nonblocking(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(target_os = "linux"))]
pub fn open_nonblocking(path: &Path) -> io::Result<File> {
    File::open(path)
}

/// Opens a regular file for reading; anything else is refused with an error that says
/// what it is. Checked before opening and again on the opened file.
pub fn open_regular(path: &Path) -> io::Result<(File, Metadata)> {
    let refuse = |what: &str| io::Error::other(format!("it is {what}, not a regular file"));
    if let Some(what) = irregular(&std::fs::metadata(path)?) {
        return Err(refuse(what));
    }
    let file = open_nonblocking(path)?;
    let meta = file.metadata()?;
    if let Some(what) = irregular(&meta) {
        return Err(refuse(what));
    }
    Ok((file, meta))
}

/// The whole content of a regular file (anything else refused as [`open_regular`] does).
pub fn read_regular(path: &Path) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let (mut file, meta) = open_regular(path)?;
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The text of a regular file (anything else refused as [`open_regular`] does): for the
/// files a user names on the command line (problems, openings, books, data), which as
/// `/dev/zero` or a FIFO would otherwise be read forever or wait for a writer.
pub fn read_text(path: &Path) -> io::Result<String> {
    String::from_utf8(read_regular(path)?)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_open() {
        let dir = std::env::temp_dir();
        assert!(open_regular(&dir)
            .unwrap_err()
            .to_string()
            .contains("directory"));
        if Path::new("/dev/zero").exists() {
            let e = open_regular(Path::new("/dev/zero")).unwrap_err();
            assert!(e.to_string().contains("special file"), "{e}");
        }
        let path = dir.join(format!("hayate-files-{}", std::process::id()));
        std::fs::write(&path, b"x").unwrap();
        assert_eq!(open_regular(&path).unwrap().1.len(), 1);
        std::fs::remove_file(&path).unwrap();
    }
}
