//! The opening book: reading books in the YaneuraOu DB2016 text format, probing them,
//! choosing a move, and making them with hayate's own search (`hayate makebook`).
//!
//! A book file is never held in memory. Loading reads it once and keeps, for every `sfen`
//! line, the position's Zobrist key (pieces, hands, side to move: the move number is left
//! out, so a position matches at any ply) and the line's byte offset, sorted by key: 16
//! bytes a position. A probe binary-searches the key, seeks to the offset, checks the SFEN
//! really is the position (keys can collide) and reads that entry's move lines.

pub mod cli;
pub mod format;
pub mod make;
pub mod player;
pub mod select;

pub use format::{BookEntry, BookError, BookMove};
pub use player::{BookConfig, BookFile, BookPlayer, Probe};
pub use select::Policy;

use crate::lines::read_line_capped;
use crate::position::Position;
use format::Line;
use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;
use std::sync::Mutex;

/// The book hayate plays by default (`BookFile` = `internal`), made by `hayate makebook`
/// (see book/README.md for the command).
pub const INTERNAL_BOOK: &str = include_str!("../../book/hayate.db");

/// Lines longer than this are malformed (and a binary file is not read as one huge line).
const MAX_LINE: usize = 64 * 1024;
/// Malformed lines kept for reporting; the rest are only counted.
const MAX_ERRORS_KEPT: usize = 100;

/// Where a position's entry starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct IndexEntry {
    key: u64,
    offset: u64,
}

/// The bytes behind a book: the embedded book or a caller's buffer, or an open file.
enum Source {
    Memory(Cow<'static, [u8]>),
    File(Mutex<BufReader<File>>),
}

/// An indexed book.
pub struct Book {
    name: String,
    source: Source,
    index: Vec<IndexEntry>,
    /// The first malformed lines (skipped while loading).
    errors: Vec<BookError>,
    error_count: usize,
}

impl Book {
    /// Indexes a book file.
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let io_error = |e: io::Error| BookError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let (file, _) = crate::files::open_regular(path).map_err(io_error)?;
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let (index, errors, error_count) = build_index(&mut reader).map_err(io_error)?;
        Ok(Book {
            name: path.display().to_string(),
            source: Source::File(Mutex::new(reader)),
            index,
            errors,
            error_count,
        })
    }

    /// Indexes a book held in memory (the embedded book, tests).
    pub fn from_bytes(name: &str, bytes: impl Into<Cow<'static, [u8]>>) -> Book {
        let bytes = bytes.into();
        let (index, errors, error_count) =
            build_index(&mut &bytes[..]).expect("reading memory cannot fail");
        Book {
            name: name.to_string(),
            source: Source::Memory(bytes),
            index,
            errors,
            error_count,
        }
    }

    /// The book built into the binary.
    pub fn internal() -> Book {
        Book::from_bytes("internal", INTERNAL_BOOK.as_bytes())
    }

    /// The file name, or `internal`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of `sfen` entries indexed.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The first malformed lines met while loading (at most 100).
    pub fn errors(&self) -> &[BookError] {
        &self.errors
    }

    /// How many lines were malformed in all.
    pub fn error_count(&self) -> usize {
        self.error_count
    }

    /// Bytes held by the index.
    pub fn index_bytes(&self) -> usize {
        self.index.capacity() * std::mem::size_of::<IndexEntry>()
    }

    /// The book's moves for `pos`, in file order (entries repeated in the file are
    /// merged); empty when the position is not in the book. The moves are not yet checked
    /// against the position: [`select`] does that.
    pub fn probe(&self, pos: &Position) -> Result<Vec<BookMove>, BookError> {
        let key = pos.key();
        let start = self.index.partition_point(|e| e.key < key);
        let wanted = format::position_sfen(pos);
        let mut moves: Vec<BookMove> = Vec::new();
        for entry in self.index[start..].iter().take_while(|e| e.key == key) {
            let (sfen, found) = self.read_entry(entry.offset).map_err(|e| BookError::Io {
                path: self.name.clone(),
                message: e.to_string(),
            })?;
            if sfen != wanted {
                continue; // a key collision
            }
            for m in found {
                if !moves.iter().any(|x| x.mv == m.mv) {
                    moves.push(m);
                }
            }
        }
        Ok(moves)
    }

    /// Reads the entry whose `sfen` line starts at `offset`: its canonical SFEN (without
    /// move number) and its well-formed move lines.
    fn read_entry(&self, offset: u64) -> io::Result<(String, Vec<BookMove>)> {
        match &self.source {
            Source::Memory(bytes) => {
                let start = (offset as usize).min(bytes.len());
                read_entry_from(&mut &bytes[start..])
            }
            Source::File(file) => {
                let mut reader = file.lock().unwrap_or_else(|e| e.into_inner());
                reader.seek(SeekFrom::Start(offset))?;
                read_entry_from(&mut *reader)
            }
        }
    }
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book")
            .field("name", &self.name)
            .field("positions", &self.index.len())
            .field("errors", &self.error_count)
            .finish()
    }
}

/// One pass over a book: the sorted index, the first malformed lines and their count.
fn build_index<R: BufRead>(reader: &mut R) -> io::Result<(Vec<IndexEntry>, Vec<BookError>, usize)> {
    let mut index = Vec::new();
    let mut errors = Vec::new();
    let mut error_count = 0;
    let mut buf = Vec::with_capacity(256);
    let mut offset = 0u64;
    let mut line_number = 0usize;
    // Whether move lines have an entry to belong to.
    let mut in_entry = false;
    loop {
        let (consumed, cut) = read_line_capped(reader, &mut buf, MAX_LINE)?;
        if consumed == 0 {
            break;
        }
        line_number += 1;
        let line_offset = offset;
        offset += consumed as u64;
        let parsed = if cut {
            Err(format!("longer than {MAX_LINE} bytes"))
        } else {
            match std::str::from_utf8(&buf) {
                Ok(text) => format::parse_line(text),
                Err(_) => Err("not UTF-8 text".to_string()),
            }
        };
        let message = match parsed {
            Ok(Line::Skip) => continue,
            Ok(Line::Sfen(pos)) => {
                index.push(IndexEntry {
                    key: pos.key(),
                    offset: line_offset,
                });
                in_entry = true;
                continue;
            }
            Ok(Line::Move(_)) if in_entry => continue,
            Ok(Line::Move(_)) => "move line without a valid 'sfen' line before it".to_string(),
            Err(message) => {
                if buf.starts_with(b"sfen") {
                    in_entry = false;
                }
                message
            }
        };
        error_count += 1;
        if errors.len() < MAX_ERRORS_KEPT {
            errors.push(BookError::Line {
                line: line_number,
                message,
            });
        }
    }
    index.sort_unstable();
    index.shrink_to_fit();
    Ok((index, errors, error_count))
}

/// Reads an entry from its `sfen` line to the next `sfen` line or the end.
fn read_entry_from<R: BufRead>(reader: &mut R) -> io::Result<(String, Vec<BookMove>)> {
    let mut buf = Vec::with_capacity(256);
    let mut sfen = String::new();
    let mut moves = Vec::new();
    let mut first = true;
    loop {
        let (consumed, cut) = read_line_capped(reader, &mut buf, MAX_LINE)?;
        if consumed == 0 || cut {
            break;
        }
        let Ok(text) = std::str::from_utf8(&buf) else {
            continue;
        };
        match format::parse_line(text) {
            Ok(Line::Sfen(pos)) if first => sfen = format::position_sfen(&pos),
            Ok(Line::Sfen(_)) => break,
            Ok(Line::Move(m)) if !first => moves.push(m),
            _ if first => break,
            // Comments and malformed lines (reported at load) inside an entry.
            _ => {}
        }
        first = false;
    }
    Ok((sfen, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d 2g2f -30 10 1
8c8d none -40 10 3
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 30 12 5
# a comment inside an entry
2g2f none -5 12 2
";

    #[test]
    fn probes_by_position_at_any_ply() {
        let book = Book::from_bytes("test", TEXT.as_bytes());
        assert_eq!(book.len(), 2);
        assert_eq!(book.error_count(), 0);
        let start = Position::startpos();
        let moves = book.probe(&start).unwrap();
        let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(texts, ["7g7f 3c3d 30 12 5", "2g2f none -5 12 2"]);
        // The same board at another move number.
        let later: Position = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 41"
            .parse()
            .unwrap();
        assert_eq!(book.probe(&later).unwrap(), moves);
        let mut after = Position::startpos();
        after.play(after.parse_move("7g7f").unwrap());
        assert_eq!(book.probe(&after).unwrap().len(), 2);
        after.play(after.parse_move("3c3d").unwrap());
        assert!(book.probe(&after).unwrap().is_empty());
    }

    #[test]
    fn long_and_binary_lines_are_errors_not_crashes() {
        let mut bytes = TEXT.as_bytes().to_vec();
        bytes.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        bytes.extend_from_slice(b"\n\xff\xfe\n");
        bytes.extend_from_slice(TEXT.lines().nth(1).unwrap().as_bytes());
        let book = Book::from_bytes("test", bytes);
        assert_eq!(book.error_count(), 2);
        assert!(book.errors()[0]
            .to_string()
            .starts_with("line 9: longer than"));
        assert!(book.errors()[1].to_string().contains("line 10: not UTF-8"));
        // The repeated entry at the end has no moves, the first one still counts.
        assert_eq!(book.len(), 3);
        let white: Position = TEXT.lines().nth(1).unwrap()[5..].parse().unwrap();
        assert_eq!(book.probe(&white).unwrap().len(), 2);
    }

    #[test]
    fn internal_book_is_well_formed() {
        let book = Book::internal();
        assert!(!book.is_empty());
        assert_eq!(book.error_count(), 0, "{:?}", book.errors());
        assert!(!book.probe(&Position::startpos()).unwrap().is_empty());
    }
}
