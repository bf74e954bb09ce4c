//! Opening lines: where each pair of games starts.
//!
//! A line is `startpos [moves …]` or `sfen <board> <side> <hands> <ply> [moves …]` (an
//! optional leading `position` is accepted, so USI `position` commands can be pasted),
//! read by [`PositionCommand::parse_strict`].
//! Every line is checked when the file is read, so a bad line stops the match before any
//! game instead of turning up as a lost game hours later.

use crate::position::Position;
use crate::position::{PositionCommand, PositionCommandError};
use crate::types::Move;
use std::fmt;
use std::path::Path;

/// One opening: a start position and the moves played from it before the engines take over.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The SFEN of the start position, `None` for the even-game start.
    pub sfen: Option<String>,
    /// The opening moves, checked legal.
    pub moves: Vec<Move>,
}

/// A line that is not a playable opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// 1-based line number in the file, 0 for a single line.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for OpeningError {}

impl Opening {
    /// The even-game start with no moves.
    pub fn startpos() -> Opening {
        Opening {
            sfen: None,
            moves: Vec::new(),
        }
    }

    /// Parses and checks one line: a position a game can reach, every move legal.
    pub fn parse(line: &str) -> Result<Opening, PositionCommandError> {
        let command = PositionCommand::parse_strict(line)?;
        Ok(Opening {
            sfen: command.sfen,
            moves: command.moves,
        })
    }

    /// Reads an opening file: one opening per line; blank lines and lines starting with
    /// `#` are skipped.
    pub fn load(path: &Path) -> Result<Vec<Opening>, OpeningError> {
        let text = crate::files::read_text(path).map_err(|e| OpeningError {
            line: 0,
            message: format!("cannot read {}: {e}", path.display()),
        })?;
        let mut openings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let opening = Opening::parse(line).map_err(|e| OpeningError {
                line: i + 1,
                message: e.to_string(),
            })?;
            openings.push(opening);
        }
        if openings.is_empty() {
            return Err(OpeningError {
                line: 0,
                message: format!("{} holds no opening", path.display()),
            });
        }
        Ok(openings)
    }

    /// The start position (before the opening moves).
    pub fn start_position(&self) -> Position {
        match &self.sfen {
            None => Position::startpos(),
            Some(s) => s.parse().expect("checked when the opening was parsed"),
        }
    }

    /// The position after the opening moves.
    pub fn position(&self) -> Position {
        let mut pos = self.start_position();
        for &mv in &self.moves {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// The start as a USI `position` argument: `startpos` or `sfen <sfen>`.
    pub fn usi_start(&self) -> String {
        match &self.sfen {
            None => "startpos".to_string(),
            Some(s) => format!("sfen {s}"),
        }
    }
}

impl fmt::Display for Opening {
    /// The opening in the file's syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.usi_start())?;
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for mv in &self.moves {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::position::STARTPOS_SFEN;

    #[test]
    fn parses_startpos_and_sfen_lines() {
        let o = Opening::parse("startpos moves 7g7f 3c3d").unwrap();
        assert!(o.sfen.is_none());
        assert_eq!(o.to_string(), "startpos moves 7g7f 3c3d");
        let o = Opening::parse("position startpos").unwrap();
        assert!(o.moves.is_empty());
        let o = Opening::parse(&format!("sfen {STARTPOS_SFEN} moves 2g2f")).unwrap();
        assert!(o.sfen.is_none(), "the standard start stays 'startpos'");
        let handicap = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
        let o = Opening::parse(&format!("sfen {handicap} moves 3c3d")).unwrap();
        assert_eq!(o.sfen.as_deref(), Some(handicap));
        assert_eq!(o.start_position().to_string(), handicap);
    }

    #[test]
    fn rejects_bad_lines_with_a_reason() {
        assert!(Opening::parse("startpos moves 7g7f 7g7f")
            .unwrap_err()
            .to_string()
            .contains("move 2"));
        assert!(Opening::parse("sfen lnsgkgsnl b").is_err());
        assert!(Opening::parse("kifu 7g7f").is_err());
        assert!(Opening::parse("startpos 7g7f").is_err());
    }
}
