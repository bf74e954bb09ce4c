//! SFEN parsing and printing.

use super::Position;
use crate::types::{Bitboard, Color, Hand, Piece, PieceKind, Square};
use std::fmt;
use std::str::FromStr;

/// Why an SFEN string was refused. Each variant names the offending token or square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SfenError {
    /// Fewer than three fields (board, side, hand), or more than four.
    FieldCount(usize),
    /// The board field does not have nine ranks separated by `/`.
    RankCount(usize),
    /// A rank's pieces and empty counts do not add up to nine.
    RankLength { rank: char, squares: usize },
    /// A character that is not a piece letter, `+` or a digit 1-9.
    UnknownPiece(String),
    /// `+` before a piece that cannot promote (gold, king) or before nothing.
    BadPromotion(String),
    /// The side to move is neither `b` nor `w`.
    BadSide(String),
    /// The hand field cannot be read (unknown letter, king in hand, bad count, repeats).
    BadHand(String),
    /// The move number is not a positive integer.
    BadPly(String),
    /// More pieces of a kind (board and hands together) than a full set holds.
    TooManyPieces { kind: char, count: u32, max: u32 },
    /// Two kings of the same colour.
    TwoKings(Color),
    /// A pawn, lance or knight that could never move again.
    DeadPiece { piece: String, square: Square },
    /// Two unpromoted pawns of one colour on a file.
    TwoPawnsOnFile { color: Color, file: usize },
    /// The side that just moved left its king in check.
    OpponentInCheck,
}

impl fmt::Display for SfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SfenError::FieldCount(n) => write!(
                f,
                "SFEN needs board, side to move, hand and an optional move number; got {n} fields"
            ),
            SfenError::RankCount(n) => write!(f, "SFEN board needs 9 ranks, got {n}"),
            SfenError::RankLength { rank, squares } => {
                write!(f, "SFEN rank {rank} covers {squares} squares, not 9")
            }
            SfenError::UnknownPiece(t) => write!(f, "unknown piece letter '{t}' in SFEN board"),
            SfenError::BadPromotion(t) => write!(f, "'{t}' cannot be promoted"),
            SfenError::BadSide(t) => write!(f, "side to move must be 'b' or 'w', got '{t}'"),
            SfenError::BadHand(t) => write!(f, "bad hand '{t}'"),
            SfenError::BadPly(t) => write!(
                f,
                "move number must be an integer 1..={MAX_MOVE_NUMBER}, got '{t}'"
            ),
            SfenError::TooManyPieces { kind, count, max } => {
                write!(f, "{count} pieces of kind {kind}, at most {max} exist")
            }
            SfenError::TwoKings(c) => write!(f, "{c} has more than one king"),
            SfenError::DeadPiece { piece, square } => {
                write!(f, "{piece} on {square} could never move")
            }
            SfenError::TwoPawnsOnFile { color, file } => {
                write!(f, "{color} has two pawns on file {file}")
            }
            SfenError::OpponentInCheck => {
                f.write_str("the side not to move is in check (its king could be captured)")
            }
        }
    }
}

impl std::error::Error for SfenError {}

impl FromStr for Position {
    type Err = SfenError;

    /// Parses `<board> <side> <hand> [<move number>]`.
    fn from_str(sfen: &str) -> Result<Position, SfenError> {
        let (pos, tolerated) = Position::from_sfen_tolerant(sfen)?;
        match tolerated.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(pos),
        }
    }
}

/// The largest move number an SFEN may give: far beyond any game, and far enough from
/// the integer limit that counting on from it never wraps.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000;

impl Position {
    /// Parses an SFEN as [`str::parse`] does, but takes a position that cannot arise in a
    /// game yet is well defined (two own pawns already on one file, as in some published
    /// tsume collections): it is returned with what is wrong with it, for a warning.
    pub fn from_sfen_tolerant(sfen: &str) -> Result<(Position, Vec<SfenError>), SfenError> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(SfenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0])?;
        pos.side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(SfenError::BadSide(other.to_string())),
        };
        pos.hands = parse_hand(fields[2])?;
        if let Some(ply) = fields.get(3) {
            pos.ply = match ply.parse::<u32>() {
                Ok(n) if (1..=MAX_MOVE_NUMBER).contains(&n) => n,
                _ => return Err(SfenError::BadPly(ply.to_string())),
            };
        }
        let tolerated = validate(&pos)?;
        if pos.side == Color::White {
            pos.board_key ^= super::zobrist::side();
        }
        pos.hand_key = Position::hand_key_of(&pos.hands);
        pos.checkers = pos.compute_checkers();
        Ok((pos, tolerated))
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), SfenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        return Err(SfenError::RankCount(ranks.len()));
    }
    for (rank, text) in ranks.iter().enumerate() {
        let rank_char = (b'a' + rank as u8) as char;
        // Files run 9 to 1 from left to right.
        let mut file = 9usize;
        let mut covered = 0usize;
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(SfenError::UnknownPiece(c.to_string()));
                }
                covered += d as usize;
                file = file.saturating_sub(d as usize);
                continue;
            }
            let token = if c == '+' {
                match chars.next() {
                    Some(n) => format!("+{n}"),
                    None => return Err(SfenError::BadPromotion("+".to_string())),
                }
            } else {
                c.to_string()
            };
            let piece = Piece::from_sfen(&token).ok_or_else(|| {
                let letter = token.trim_start_matches('+');
                if c == '+'
                    && PieceKind::from_sfen_letter(letter.chars().next().unwrap_or(' ')).is_some()
                {
                    SfenError::BadPromotion(token.clone())
                } else {
                    SfenError::UnknownPiece(token.clone())
                }
            })?;
            covered += 1;
            if covered > 9 || file == 0 {
                return Err(SfenError::RankLength {
                    rank: rank_char,
                    squares: covered.max(10),
                });
            }
            file -= 1;
            let sq = Square::from_index(file * 9 + rank).expect("file and rank in range");
            if piece.kind() == PieceKind::King {
                if pos.king[piece.color().index()].is_some() {
                    return Err(SfenError::TwoKings(piece.color()));
                }
                pos.king[piece.color().index()] = Some(sq);
            }
            pos.put(piece, sq);
        }
        if covered != 9 {
            return Err(SfenError::RankLength {
                rank: rank_char,
                squares: covered,
            });
        }
    }
    Ok(())
}

fn parse_hand(text: &str) -> Result<[Hand; 2], SfenError> {
    let mut hands = [Hand::EMPTY; 2];
    if text == "-" {
        return Ok(hands);
    }
    let bad = || SfenError::BadHand(text.to_string());
    let mut seen = [[false; 8]; 2];
    let mut count: Option<u32> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 18 || (count.is_none() && d == 0) {
                return Err(bad());
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_sfen_letter(c).ok_or_else(bad)?;
        if kind == PieceKind::King {
            return Err(bad());
        }
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        let n = count.take().unwrap_or(1);
        if n < 1 || seen[color.index()][kind.index()] {
            return Err(bad());
        }
        seen[color.index()][kind.index()] = true;
        if n > kind.full_set_count() as u32 {
            return Err(SfenError::TooManyPieces {
                kind: kind.sfen_letter(),
                count: n,
                max: kind.full_set_count() as u32,
            });
        }
        hands[color.index()].set(kind, n);
    }
    if count.is_some() || text.is_empty() {
        return Err(bad());
    }
    Ok(hands)
}

/// Checks what makes a position unplayable (an error) and returns what only makes it
/// unreachable in a game (two pawns of a side on one file).
fn validate(pos: &Position) -> Result<Vec<SfenError>, SfenError> {
    let mut tolerated = Vec::new();
    // Piece counts, board and hands together.
    for kind in PieceKind::ALL.iter().filter(|k| !k.is_promoted()) {
        let mut on_board = pos.pieces_of_kind(*kind).count();
        if kind.can_promote() {
            on_board += pos.pieces_of_kind(kind.promoted()).count();
        }
        let in_hands = if *kind == PieceKind::King {
            0
        } else {
            pos.hands[0].count(*kind) + pos.hands[1].count(*kind)
        };
        let max = kind.full_set_count() as u32;
        if on_board + in_hands > max {
            return Err(SfenError::TooManyPieces {
                kind: kind.sfen_letter(),
                count: on_board + in_hands,
                max,
            });
        }
    }
    // Dead pieces and doubled pawns.
    for color in Color::ALL {
        let dead = [
            (PieceKind::Pawn, Bitboard::far_ranks(color, 1)),
            (PieceKind::Lance, Bitboard::far_ranks(color, 1)),
            (PieceKind::Knight, Bitboard::far_ranks(color, 2)),
        ];
        for (kind, ranks) in dead {
            if let Some(square) = (pos.pieces_of(color, kind) & ranks).lsb() {
                return Err(SfenError::DeadPiece {
                    piece: Piece::new(color, kind).to_string(),
                    square,
                });
            }
        }
        let pawns = pos.pieces_of(color, PieceKind::Pawn);
        for file in 0..9 {
            if (pawns & Bitboard::file(file)).has_more_than_one() {
                tolerated.push(SfenError::TwoPawnsOnFile {
                    color,
                    file: file + 1,
                });
            }
        }
    }
    // The side that just moved may not be in check.
    let them = !pos.side;
    if let Some(ksq) = pos.king[them.index()] {
        if pos.is_attacked(pos.side, ksq, pos.occupied()) {
            return Err(SfenError::OpponentInCheck);
        }
    }
    Ok(tolerated)
}

impl fmt::Display for Position {
    /// The position as SFEN, with its move number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_sfen(f, &self.board, self.side, &self.hands, self.ply)
    }
}

/// Writes an SFEN from its parts: a board indexed as [`Position`] keeps it (file-major,
/// `1a` = 0), the side to move, both hands and the move number. Also for readers of other
/// formats that rebuild a position through its SFEN.
pub fn write_sfen(
    out: &mut impl fmt::Write,
    board: &[Option<Piece>; Square::NUM],
    side: Color,
    hands: &[Hand; 2],
    ply: u32,
) -> fmt::Result {
    for rank in 0..9 {
        if rank > 0 {
            out.write_str("/")?;
        }
        let mut empty = 0;
        for file in (0..9).rev() {
            match board[file * 9 + rank] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        write!(out, "{empty}")?;
                        empty = 0;
                    }
                    write!(out, "{p}")?;
                }
            }
        }
        if empty > 0 {
            write!(out, "{empty}")?;
        }
    }
    write!(out, " {} ", side.sfen_char())?;
    if hands[0].is_empty() && hands[1].is_empty() {
        out.write_str("-")?;
    } else {
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                let n = hands[color.index()].count(kind);
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    write!(out, "{n}")?;
                }
                write!(out, "{}", Piece::new(color, kind))?;
            }
        }
    }
    write!(out, " {ply}")
}

impl Position {
    /// A board diagram for people at a terminal: file 9 on the left, White's pieces in
    /// lowercase, then hands and the SFEN.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        out.push_str("   9  8  7  6  5  4  3  2  1\n");
        for rank in 0..9 {
            out.push(' ');
            for file in (0..9).rev() {
                match self.board[file * 9 + rank] {
                    None => out.push_str("  ."),
                    Some(p) => out.push_str(&format!("{:>3}", p.to_string())),
                }
            }
            out.push_str(&format!("  {}\n", (b'a' + rank as u8) as char));
        }
        out.push_str(&format!(
            "black hand: {}  white hand: {}\nside to move: {}\nsfen: {}\n",
            self.hands[0], self.hands[1], self.side, self
        ));
        out
    }
}
