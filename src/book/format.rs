//! The YaneuraOu DB2016 text format, line by line:
//!
//! ```text
//! #YANEURAOU-DB2016 1.00
//! sfen <board> <side> <hands> <ply>
//! <move> <ponder move|none> <value> <depth> <count>
//! ```
//!
//! Entries are sorted by SFEN. Lines starting with `#` or `//` are comments; blank lines
//! are ignored. A move line may leave out its trailing fields (value, depth and count read
//! as 0, ponder as `none`), as some books in circulation do; anything else that does not
//! parse is an error naming its line.

use crate::position::Position;
use crate::types::Move;
use std::fmt;
use std::io::{self, Write};

/// The first line of every book hayate writes.
pub const HEADER: &str = "#YANEURAOU-DB2016 1.00";

/// One move of a book entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// The expected reply, if the book knows one.
    pub ponder: Option<Move>,
    /// Centipawns for the side to move after this move is chosen (the mover's view).
    pub value: i32,
    /// Depth of the search that gave `value` (0 when unknown).
    pub depth: i32,
    /// How often the move was played or chosen; the weight of random choice.
    pub count: u64,
}

impl fmt::Display for BookMove {
    /// `move ponder value depth count`, `none` for a missing ponder move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.mv)?;
        match self.ponder {
            Some(p) => write!(f, "{p}")?,
            None => f.write_str("none")?,
        }
        write!(f, " {} {} {}", self.value, self.depth, self.count)
    }
}

/// A position and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// Board, side to move and hands in canonical SFEN, without the move number: the
    /// book matches positions regardless of the ply they are reached at.
    pub sfen: String,
    /// The move number written in the file.
    pub ply: u32,
    pub moves: Vec<BookMove>,
}

impl fmt::Display for BookEntry {
    /// The entry's lines, each ended by a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "sfen {} {}", self.sfen, self.ply)?;
        for m in &self.moves {
            writeln!(f, "{m}")?;
        }
        Ok(())
    }
}

/// What one line of a book file is.
pub enum Line {
    /// Blank, a comment or the header.
    Skip,
    /// `sfen …`: the parsed position (with the move number of the file, 1 if absent).
    Sfen(Box<Position>),
    Move(BookMove),
}

/// Board, side and hands of `pos` as canonical SFEN, without the move number.
pub fn position_sfen(pos: &Position) -> String {
    let mut s = pos.to_string();
    if let Some(i) = s.rfind(' ') {
        s.truncate(i);
    }
    s
}

/// Classifies and parses one line; `Err` carries a message without the line number.
pub fn parse_line(text: &str) -> Result<Line, String> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') || text.starts_with("//") {
        return Ok(Line::Skip);
    }
    if let Some(rest) = text.strip_prefix("sfen") {
        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
            return rest
                .parse::<Position>()
                .map(|p| Line::Sfen(Box::new(p)))
                .map_err(|e| format!("bad sfen: {e}"));
        }
    }
    parse_move_line(text).map(Line::Move)
}

/// Parses `move [ponder [value [depth [count]]]]`.
pub fn parse_move_line(text: &str) -> Result<BookMove, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() > 5 {
        return Err(format!(
            "a move line has at most 5 fields (move ponder value depth count), got {}",
            fields.len()
        ));
    }
    let Some(&first) = fields.first() else {
        return Err("empty move line".to_string());
    };
    let mv = Move::from_usi(first).ok_or_else(|| format!("'{first}' is not a USI move"))?;
    let ponder = match fields.get(1) {
        None | Some(&"none") => None,
        Some(&p) => {
            Some(Move::from_usi(p).ok_or_else(|| format!("ponder '{p}' is not a USI move"))?)
        }
    };
    fn number<T: std::str::FromStr + Default>(
        fields: &[&str],
        i: usize,
        name: &str,
    ) -> Result<T, String> {
        match fields.get(i) {
            None => Ok(T::default()),
            Some(t) => t
                .parse()
                .map_err(|_| format!("{name} '{t}' is not a number")),
        }
    }
    Ok(BookMove {
        mv,
        ponder,
        value: number(&fields, 2, "value")?,
        depth: number(&fields, 3, "depth")?,
        count: number(&fields, 4, "count")?,
    })
}

/// A malformed line, or a file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The book cannot be opened or read.
    Io { path: String, message: String },
    /// Line `line` (1-based) does not parse; it was skipped.
    Line { line: usize, message: String },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io { path, message } => write!(f, "cannot read {path}: {message}"),
            BookError::Line { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

impl std::error::Error for BookError {}

/// Parses a whole book held in memory (the tools' way; engines index files instead, see
/// [`super::Book`]). Malformed lines are skipped and returned as errors; entries for the
/// same position are merged, first moves first.
pub fn parse_text(text: &str) -> (Vec<BookEntry>, Vec<BookError>) {
    let mut entries: Vec<BookEntry> = Vec::new();
    let mut errors = Vec::new();
    let mut by_sfen = std::collections::HashMap::new();
    // Index of the entry that move lines go to; `None` before the first good `sfen` line
    // and after a bad one (its moves cannot be placed).
    let mut current: Option<usize> = None;
    for (i, line) in text.lines().enumerate() {
        let error = |message: String| BookError::Line {
            line: i + 1,
            message,
        };
        match parse_line(line) {
            Ok(Line::Skip) => {}
            Ok(Line::Sfen(pos)) => {
                let sfen = position_sfen(&pos);
                let index = *by_sfen.entry(sfen.clone()).or_insert_with(|| {
                    entries.push(BookEntry {
                        sfen,
                        ply: pos.ply(),
                        moves: Vec::new(),
                    });
                    entries.len() - 1
                });
                current = Some(index);
            }
            Ok(Line::Move(m)) => match current {
                Some(index) => {
                    let moves = &mut entries[index].moves;
                    if !moves.iter().any(|x| x.mv == m.mv) {
                        moves.push(m);
                    }
                }
                None => errors.push(error(
                    "move line without a valid 'sfen' line before it".into(),
                )),
            },
            Err(message) => {
                if line.trim_start().starts_with("sfen") {
                    current = None;
                }
                errors.push(error(message));
            }
        }
    }
    (entries, errors)
}

/// Writes a book: the header, `comments` as `#` lines, then the entries sorted by SFEN.
pub fn write_book<W: Write>(
    out: &mut W,
    entries: &mut [BookEntry],
    comments: &[String],
) -> io::Result<()> {
    entries.sort_by(|a, b| a.sfen.cmp(&b.sfen));
    writeln!(out, "{HEADER}")?;
    for c in comments {
        for l in c.lines() {
            writeln!(out, "# {l}")?;
        }
    }
    for e in entries.iter() {
        write!(out, "{e}")?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::STARTPOS_SFEN;

    const TEXT: &str = "#YANEURAOU-DB2016 1.00
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1
7g7f 3c3d 30 12 5
2g2f none -5 12 2
sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2
3c3d 2g2f -30 10 1
";

    #[test]
    fn round_trip_keeps_every_field() {
        let (mut entries, errors) = parse_text(TEXT);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].moves[0].to_string(), "7g7f 3c3d 30 12 5");
        assert_eq!(entries[0].moves[1].ponder, None);
        let mut out = Vec::new();
        write_book(&mut out, &mut entries, &[]).unwrap();
        let printed = String::from_utf8(out).unwrap();
        let (again, errors) = parse_text(&printed);
        assert!(errors.is_empty());
        assert_eq!(again, entries);
        // Sorted by SFEN: '/2P6/' sorts before '/9/PPP'.
        assert!(printed.find("2P6").unwrap() < printed.find("9/9/9/PPPPPPPPP").unwrap());
    }

    #[test]
    fn short_move_lines_and_comments() {
        assert!(matches!(parse_line("// a comment"), Ok(Line::Skip)));
        assert!(matches!(parse_line("   "), Ok(Line::Skip)));
        let m = parse_move_line("7g7f").unwrap();
        assert_eq!((m.ponder, m.value, m.depth, m.count), (None, 0, 0, 0));
        assert!(parse_move_line("7g7f 3c3d x")
            .unwrap_err()
            .contains("value"));
        assert!(parse_move_line("7g7z").is_err());
        assert!(parse_move_line("7g7f 3c3d 1 2 3 4").is_err());
        assert!(matches!(parse_line("sfen lnsgkgsnl b"), Err(e) if e.contains("bad sfen")));
        let Ok(Line::Sfen(p)) = parse_line(&format!("sfen {STARTPOS_SFEN}")) else {
            panic!("startpos line");
        };
        assert_eq!(position_sfen(&p), STARTPOS_SFEN.trim_end_matches(" 1"));
    }

    #[test]
    fn malformed_lines_are_reported_with_their_number() {
        let text = "#YANEURAOU-DB2016 1.00\n7g7f none 0 0 1\nsfen garbage\n2g2f\n\
                    sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n\
                    7g7f none zero\n2g2f none 1 1 1\n";
        let (entries, errors) = parse_text(text);
        let lines: Vec<usize> = errors
            .iter()
            .map(|e| match e {
                BookError::Line { line, .. } => *line,
                BookError::Io { .. } => 0,
            })
            .collect();
        assert_eq!(lines, [2, 3, 4, 6]);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].moves.len(), 1);
        assert!(errors[3].to_string().starts_with("line 6: value 'zero'"));
    }
}
