//! The `[position] startpos | sfen <board> <side> <hands> [<ply>] [moves <m1> <m2> ...]`
//! syntax: USI's `position` command, and the lines of opening files, bench positions,
//! book probes and self-play starts. One parser, so every tool reads a line the same way.
//!
//! The parse is lenient, as a GUI needs it: a start position that no game reaches but that
//! is well defined (two own pawns on a file, as in some tsume collections) is taken and
//! its faults listed, and the moves are read up to the first that is not legal. Tools that
//! must not guess (opening files, bench) use [`PositionCommand::parse_strict`].

use super::{IllegalMove, Position, SfenError, STARTPOS_SFEN};
use crate::types::Move;
use std::fmt;

/// A parsed `startpos | sfen ... [moves ...]` line.
#[derive(Clone)]
pub struct PositionCommand {
    /// The SFEN of the start position; `None` for the standard start, also when it is
    /// written out as an SFEN.
    pub sfen: Option<String>,
    /// The start position, before the moves.
    pub start: Position,
    /// The moves, legal in turn: all of them, or those before [`Self::bad_move`].
    pub moves: Vec<Move>,
    /// What is wrong with a start position that no game reaches (it was taken anyway).
    pub tolerated: Vec<SfenError>,
    /// The first move that is not legal, when one is not: (0-based index, its text, why).
    /// The moves after it are not read.
    pub bad_move: Option<(usize, String, IllegalMove)>,
}

impl fmt::Debug for PositionCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PositionCommand")
            .field("start", &self.start.to_string())
            .field("moves", &self.moves)
            .field("tolerated", &self.tolerated)
            .field("bad_move", &self.bad_move)
            .finish()
    }
}

/// A line that names no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionCommandError {
    Empty,
    /// Neither `startpos` nor `sfen` where the position should start.
    NoStart(String),
    /// Something other than `moves` after `startpos`.
    NoMoves(String),
    BadSfen(SfenError),
    /// Only from [`PositionCommand::parse_strict`]: a move that is not legal (1-based).
    IllegalMove {
        number: usize,
        text: String,
        why: IllegalMove,
    },
}

impl fmt::Display for PositionCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionCommandError::Empty => f.write_str("no position given"),
            PositionCommandError::NoStart(t) => {
                write!(f, "expected 'startpos' or 'sfen', got '{t}'")
            }
            PositionCommandError::NoMoves(t) => {
                write!(f, "expected 'moves' after 'startpos', got '{t}'")
            }
            PositionCommandError::BadSfen(e) => write!(f, "bad sfen: {e}"),
            PositionCommandError::IllegalMove { number, text, why } => {
                write!(f, "move {number} ({text}) is not legal: {why}")
            }
        }
    }
}

impl std::error::Error for PositionCommandError {}

impl PositionCommand {
    /// Parses a line leniently (see the module's comment).
    pub fn parse(text: &str) -> Result<PositionCommand, PositionCommandError> {
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let tokens = match tokens.first() {
            Some(&"position") => &tokens[1..],
            _ => &tokens[..],
        };
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let (setup, move_texts) = match moves_at {
            Some(i) => (&tokens[..i], &tokens[i + 1..]),
            None => (tokens, &[][..]),
        };
        let (sfen, start, tolerated) = match setup.first() {
            None if moves_at.is_none() => return Err(PositionCommandError::Empty),
            Some(&"startpos") => {
                if let Some(extra) = setup.get(1) {
                    return Err(PositionCommandError::NoMoves(extra.to_string()));
                }
                (None, Position::startpos(), Vec::new())
            }
            Some(&"sfen") => {
                let sfen = setup[1..].join(" ");
                let (start, tolerated) =
                    Position::from_sfen_tolerant(&sfen).map_err(PositionCommandError::BadSfen)?;
                (Some(sfen), start, tolerated)
            }
            other => {
                let got = other.copied().unwrap_or("moves");
                return Err(PositionCommandError::NoStart(got.to_string()));
            }
        };
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(move_texts.len());
        let mut bad_move = None;
        for (i, text) in move_texts.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(mv) => {
                    pos.play_unchecked(mv);
                    moves.push(mv);
                }
                Err(why) => {
                    bad_move = Some((i, text.to_string(), why));
                    break;
                }
            }
        }
        // The standard start written as an SFEN is still the standard start.
        let sfen = sfen.filter(|s| s != STARTPOS_SFEN);
        Ok(PositionCommand {
            sfen,
            start,
            moves,
            tolerated,
            bad_move,
        })
    }

    /// Parses a line that must be exactly right: a start position a game can reach and
    /// every move legal.
    pub fn parse_strict(text: &str) -> Result<PositionCommand, PositionCommandError> {
        let command = PositionCommand::parse(text)?;
        if let Some(e) = command.tolerated.first() {
            return Err(PositionCommandError::BadSfen(e.clone()));
        }
        if let Some((i, text, why)) = &command.bad_move {
            return Err(PositionCommandError::IllegalMove {
                number: i + 1,
                text: text.clone(),
                why: why.clone(),
            });
        }
        Ok(command)
    }

    /// The position a line that must be exactly right names (see
    /// [`PositionCommand::parse_strict`]), after its moves.
    pub fn strict_position(text: &str) -> Result<Position, PositionCommandError> {
        PositionCommand::parse_strict(text).map(|c| c.position())
    }

    /// The position a tool's `--sfen` argument names: an SFEN, `sfen <SFEN>` or
    /// `startpos`, each optionally followed by `moves ...`, held to the strict rules of
    /// [`PositionCommand::parse_strict`].
    pub fn from_argument(text: &str) -> Result<Position, PositionCommandError> {
        let text = text.trim();
        let text = text.strip_prefix("position ").unwrap_or(text).trim_start();
        if text.starts_with("startpos") || text.starts_with("sfen ") {
            PositionCommand::strict_position(text)
        } else {
            PositionCommand::strict_position(&format!("sfen {text}"))
        }
    }

    /// The position after the moves.
    pub fn position(&self) -> Position {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.play_unchecked(mv);
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_argument_is_an_sfen_or_a_position_command_body() {
        let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
        for text in [
            "startpos moves 7g7f 3c3d",
            "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d",
            "position startpos moves 7g7f 3c3d",
            after,
        ] {
            let pos = PositionCommand::from_argument(text).unwrap();
            assert_eq!(pos.to_string(), after, "{text}");
        }
        assert!(PositionCommand::from_argument("startpos moves 7g7f 7g7f").is_err());
        assert!(PositionCommand::from_argument("9/9/9 b - 1").is_err());
        assert!(PositionCommand::from_argument("").is_err());
    }

    #[test]
    fn startpos_and_sfen_lines_with_and_without_moves() {
        let c = PositionCommand::parse("position startpos moves 7g7f 3c3d").unwrap();
        assert!(c.sfen.is_none() && c.moves.len() == 2 && c.bad_move.is_none());
        assert_eq!(
            c.position().to_string(),
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        );
        let c = PositionCommand::parse("startpos").unwrap();
        assert!(c.moves.is_empty());
        let c = PositionCommand::parse(&format!("sfen {STARTPOS_SFEN} moves 2g2f")).unwrap();
        assert!(
            c.sfen.is_none(),
            "the standard start stays the standard start"
        );
        let handicap = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
        let c = PositionCommand::parse(&format!("sfen {handicap} moves 3c3d")).unwrap();
        assert_eq!(c.sfen.as_deref(), Some(handicap));
        assert_eq!(c.start.to_string(), handicap);
        // The move number may be left out, as some GUIs do.
        let c = PositionCommand::parse("sfen 4k4/9/9/9/9/9/9/9/4K4 b P moves P*5b").unwrap();
        assert_eq!(c.moves.len(), 1);
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        use PositionCommandError as E;
        assert_eq!(PositionCommand::parse("").unwrap_err(), E::Empty);
        assert_eq!(PositionCommand::parse("position").unwrap_err(), E::Empty);
        assert!(matches!(PositionCommand::parse("kifu 7g7f"), Err(E::NoStart(t)) if t == "kifu"));
        assert!(matches!(
            PositionCommand::parse("moves 7g7f"),
            Err(E::NoStart(_))
        ));
        assert!(
            matches!(PositionCommand::parse("startpos 7g7f"), Err(E::NoMoves(t)) if t == "7g7f")
        );
        assert!(matches!(
            PositionCommand::parse("sfen lnsgkgsnl b"),
            Err(E::BadSfen(_))
        ));
        let e = PositionCommand::parse_strict("startpos moves 7g7f 7g7f").unwrap_err();
        assert!(matches!(e, E::IllegalMove { number: 2, .. }), "{e}");
        assert!(
            e.to_string().starts_with("move 2 (7g7f) is not legal"),
            "{e}"
        );
    }

    #[test]
    fn leniently_the_legal_moves_before_a_bad_one_are_kept() {
        let c = PositionCommand::parse("startpos moves 7g7f 3c3d 8h2b+ 2b3a").unwrap();
        assert_eq!(c.moves.len(), 3);
        let (i, text, _) = c.bad_move.unwrap();
        assert_eq!((i, text.as_str()), (3, "2b3a"));
    }

    #[test]
    fn a_position_no_game_reaches_is_taken_leniently_only() {
        // Two black pawns on file 5.
        let line = "sfen 4k4/9/9/9/4P4/9/4P4/9/4K4 b - 1";
        let c = PositionCommand::parse(line).unwrap();
        assert_eq!(c.tolerated.len(), 1);
        assert!(matches!(
            PositionCommand::parse_strict(line),
            Err(PositionCommandError::BadSfen(_))
        ));
    }
}
