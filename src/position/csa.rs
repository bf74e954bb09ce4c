//! CSA notation for moves and positions, the notation of CSA record files and of the CSA
//! server protocol (floodgate, the computer shogi championships).
//!
//! A move names its mover's sign, the origin (`00` for a drop), the destination and the
//! piece *after* the move: `+7776FU`, `+2822RY` (a rook promoting), `-0055KA` (a drop). A
//! position is either `PI` (the even-game start, optionally minus pieces for a handicap:
//! `PI82HI22KA`), or nine board rows `P1`..`P9`, then `P+`/`P-` lines that put pieces in
//! hand (`00KA`) or on squares (`55KA`), `00AL` giving one side every piece left over, and
//! a last line `+` or `-` for the side to move.

use super::Position;
use crate::types::{Color, File, Hand, Move, Piece, PieceKind, Rank, Square};
use std::fmt;

/// Why a CSA move or position could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsaError {
    /// The text is not a CSA move (`+7776FU`); holds the text.
    MoveSyntax(String),
    /// The move's sign is not the side to move.
    WrongSide(String),
    /// The move is well formed but not legal here (or names the wrong piece).
    IllegalMove { text: String, reason: String },
    /// A position line that cannot be read; holds the line and what is wrong with it.
    PositionLine { line: String, reason: String },
    /// The position lines make no legal position (the SFEN they build is refused).
    Position(String),
}

impl fmt::Display for CsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CsaError::MoveSyntax(t) => write!(f, "'{t}' is not a CSA move (like +7776FU)"),
            CsaError::WrongSide(t) => write!(f, "'{t}': it is not that side's turn"),
            CsaError::IllegalMove { text, reason } => {
                write!(f, "'{text}' is not a legal move here: {reason}")
            }
            CsaError::PositionLine { line, reason } => {
                write!(f, "position line '{line}': {reason}")
            }
            CsaError::Position(reason) => write!(f, "the position is not legal: {reason}"),
        }
    }
}

impl std::error::Error for CsaError {}

/// CSA name of a piece kind (`FU`, `TO`, `RY`, …).
pub fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "FU",
        PieceKind::Lance => "KY",
        PieceKind::Knight => "KE",
        PieceKind::Silver => "GI",
        PieceKind::Gold => "KI",
        PieceKind::Bishop => "KA",
        PieceKind::Rook => "HI",
        PieceKind::King => "OU",
        PieceKind::ProPawn => "TO",
        PieceKind::ProLance => "NY",
        PieceKind::ProKnight => "NK",
        PieceKind::ProSilver => "NG",
        PieceKind::Horse => "UM",
        PieceKind::Dragon => "RY",
    }
}

/// The piece kind a CSA name stands for.
pub fn kind_from_name(name: &str) -> Option<PieceKind> {
    PieceKind::ALL.into_iter().find(|&k| kind_name(k) == name)
}

/// `+` for Black (sente), `-` for White (gote).
pub fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// The colour a sign stands for.
pub fn color_from_sign(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

/// A square as CSA writes it: file digit then rank digit (`7g` is `77`).
pub fn square_name(sq: Square) -> String {
    format!("{}{}", sq.file().index() + 1, sq.rank().index() + 1)
}

/// The square two CSA digits name (`11`..`99`); `None` for `00` or anything else.
fn square_from_digits(text: &str) -> Option<Square> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 || !bytes.iter().all(|b| (b'1'..=b'9').contains(b)) {
        return None;
    }
    let file = File::new(bytes[0] - b'1')?;
    let rank = Rank::new(bytes[1] - b'1')?;
    Some(Square::new(file, rank))
}

/// A move in CSA notation (`+7776FU`, `-0055KA`, `+2822RY`), read against the position it
/// is played in, because CSA names the piece after the move.
pub fn move_to_csa(pos: &Position, mv: Move) -> String {
    let side = sign(pos.side_to_move());
    let to = square_name(mv.to());
    match (mv.from(), mv.drop_kind()) {
        (Some(from), _) => {
            let kind = pos.piece_at(from).map_or(PieceKind::King, |p| p.kind());
            let kind = if mv.is_promotion() {
                kind.promoted()
            } else {
                kind
            };
            format!("{side}{}{to}{}", square_name(from), kind_name(kind))
        }
        (None, kind) => format!("{side}00{to}{}", kind_name(kind.unwrap_or(PieceKind::Pawn))),
    }
}

/// Reads a CSA move (`+7776FU`) in `pos` and checks it: the sign is the side to move, the
/// named piece is the one the move leaves on the destination, and the move is legal.
pub fn move_from_csa(pos: &Position, text: &str) -> Result<Move, CsaError> {
    let syntax = || CsaError::MoveSyntax(text.to_string());
    if text.len() != 7 || !text.is_ascii() {
        return Err(syntax());
    }
    let color = color_from_sign(text.as_bytes()[0] as char).ok_or_else(syntax)?;
    let kind = kind_from_name(&text[5..7]).ok_or_else(syntax)?;
    let to = square_from_digits(&text[3..5]).ok_or_else(syntax)?;
    if color != pos.side_to_move() {
        return Err(CsaError::WrongSide(text.to_string()));
    }
    let illegal = |reason: String| CsaError::IllegalMove {
        text: text.to_string(),
        reason,
    };
    let mv = if &text[1..3] == "00" {
        Move::drop(kind, to)
    } else {
        let from = square_from_digits(&text[1..3]).ok_or_else(syntax)?;
        let piece = pos
            .piece_at(from)
            .ok_or_else(|| illegal(format!("no piece on {}", &text[1..3])))?;
        let promote = piece.kind() != kind;
        if promote && piece.kind().promoted() != kind {
            return Err(illegal(format!(
                "the piece on {} is {}, which cannot become {}",
                &text[1..3],
                kind_name(piece.kind()),
                &text[5..7]
            )));
        }
        Move::new(from, to, promote)
    };
    if !pos.is_legal(mv) {
        let reason = pos
            .clone()
            .try_play(mv)
            .err()
            .map_or_else(|| "breaks a rule".to_string(), |e| e.to_string());
        return Err(illegal(reason));
    }
    Ok(mv)
}

/// The position in CSA: `PI` for the even-game start when `standard`, otherwise the nine
/// board rows and the hands; then the side to move.
pub fn position_to_csa(pos: &Position, standard: bool) -> String {
    let mut out = String::new();
    if standard {
        out.push_str("PI\n");
    } else {
        for rank in Rank::all() {
            out.push_str(&format!("P{}", rank.index() + 1));
            for file in File::all().collect::<Vec<_>>().into_iter().rev() {
                match pos.piece_at(Square::new(file, rank)) {
                    None => out.push_str(" * "),
                    Some(p) => {
                        out.push(sign(p.color()));
                        out.push_str(kind_name(p.kind()));
                    }
                }
            }
            out.push('\n');
        }
        for color in Color::ALL {
            let hand = pos.hand(color);
            if hand.is_empty() {
                continue;
            }
            out.push('P');
            out.push(sign(color));
            for kind in PieceKind::HAND {
                for _ in 0..hand.count(kind) {
                    out.push_str("00");
                    out.push_str(kind_name(kind));
                }
            }
            out.push('\n');
        }
    }
    out.push(sign(pos.side_to_move()));
    out.push('\n');
    out
}

/// Builds a position from CSA position lines, one at a time: feed every line of a
/// `BEGIN Position` block (or of a record's header) with [`CsaPositionReader::line`]
/// until it returns `true` (the side-to-move line), then take the position with
/// [`CsaPositionReader::finish`].
#[derive(Clone, Debug)]
pub struct CsaPositionReader {
    board: [Option<Piece>; Square::NUM],
    hands: [Hand; 2],
    /// Whether a board (`PI` or a `P1`..`P9` row) was given.
    has_board: bool,
    /// A side that takes every piece left over once the board is complete (`00AL`).
    rest_to: Option<Color>,
    side: Option<Color>,
}

impl Default for CsaPositionReader {
    fn default() -> Self {
        CsaPositionReader {
            board: [None; Square::NUM],
            hands: [Hand::default(); 2],
            has_board: false,
            rest_to: None,
            side: None,
        }
    }
}

/// The even-game start, as the `PI` line places it.
fn starting_board() -> [Option<Piece>; Square::NUM] {
    let start = Position::startpos();
    let mut board = [None; Square::NUM];
    for sq in Square::all() {
        board[sq.index()] = start.piece_at(sq);
    }
    board
}

impl CsaPositionReader {
    /// Reads one line. Returns `Ok(true)` once the side to move is known (the position is
    /// complete), `Ok(false)` while more lines are needed. Comment lines (`'…`) are skipped.
    pub fn line(&mut self, line: &str) -> Result<bool, CsaError> {
        let bad = |reason: &str| CsaError::PositionLine {
            line: line.to_string(),
            reason: reason.to_string(),
        };
        let trimmed = line.trim_end_matches(['\r', '\n']);
        if trimmed.starts_with('\'') || trimmed.trim().is_empty() {
            return Ok(false);
        }
        if self.side.is_some() {
            return Err(bad("a position line after the side to move"));
        }
        match trimmed.trim_end() {
            "+" => {
                self.side = Some(Color::Black);
                return Ok(true);
            }
            "-" => {
                self.side = Some(Color::White);
                return Ok(true);
            }
            _ => {}
        }
        let bytes = trimmed.as_bytes();
        if bytes.len() < 2 || bytes[0] != b'P' || !trimmed.is_ascii() {
            return Err(bad("not a position line (PI, P1..P9, P+, P-, + or -)"));
        }
        match bytes[1] {
            b'I' => {
                self.board = starting_board();
                self.has_board = true;
                // Handicaps: each 4 characters name a square and the piece removed from it.
                let rest = trimmed[2..].trim_end();
                if !rest.len().is_multiple_of(4) {
                    return Err(bad("PI is followed by square-piece pairs like 82HI"));
                }
                for i in (0..rest.len()).step_by(4) {
                    let sq = square_from_digits(&rest[i..i + 2])
                        .ok_or_else(|| bad("a removed piece's square is not 11..99"))?;
                    let kind = kind_from_name(&rest[i + 2..i + 4])
                        .ok_or_else(|| bad("unknown piece name"))?;
                    match self.board[sq.index()] {
                        Some(p) if p.kind() == kind => self.board[sq.index()] = None,
                        _ => return Err(bad("removes a piece that is not there")),
                    }
                }
            }
            b'1'..=b'9' => {
                let rank = Rank::new(bytes[1] - b'1').expect("rank digit");
                // Nine cells of three characters; a row may lose its trailing blanks.
                let cells = &trimmed[2..];
                if cells.trim_end().len() > 27 {
                    return Err(bad("more than nine squares in a row"));
                }
                let cells = format!("{cells:<27}");
                for (i, file) in (0..9u8).rev().enumerate() {
                    let cell = &cells[i * 3..i * 3 + 3];
                    let sq = Square::new(File::new(file).expect("file"), rank);
                    self.board[sq.index()] = match cell {
                        " * " | "   " => None,
                        _ => {
                            let color = color_from_sign(cell.as_bytes()[0] as char)
                                .ok_or_else(|| bad("a square is neither ' * ' nor a piece"))?;
                            let kind = kind_from_name(&cell[1..])
                                .ok_or_else(|| bad("unknown piece name"))?;
                            Some(Piece::new(color, kind))
                        }
                    };
                }
                self.has_board = true;
            }
            b'+' | b'-' => {
                let color = color_from_sign(bytes[1] as char).expect("sign");
                let rest = trimmed[2..].trim_end();
                if !rest.len().is_multiple_of(4) {
                    return Err(bad("P+/P- is followed by 4-character items like 00KA"));
                }
                for i in (0..rest.len()).step_by(4) {
                    let (place, name) = (&rest[i..i + 2], &rest[i + 2..i + 4]);
                    if place == "00" && name == "AL" {
                        self.rest_to = Some(color);
                        continue;
                    }
                    let kind = kind_from_name(name).ok_or_else(|| bad("unknown piece name"))?;
                    if place == "00" {
                        if !PieceKind::HAND.contains(&kind) {
                            return Err(bad(
                                "only unpromoted pieces other than the king go in hand",
                            ));
                        }
                        self.hands[color.index()].add(kind);
                    } else {
                        let sq = square_from_digits(place)
                            .ok_or_else(|| bad("a square is not 00 or 11..99"))?;
                        self.board[sq.index()] = Some(Piece::new(color, kind));
                        self.has_board = true;
                    }
                }
            }
            _ => return Err(bad("not a position line (PI, P1..P9, P+, P-, + or -)")),
        }
        Ok(false)
    }

    /// The position the lines describe (checked as an SFEN would be).
    pub fn finish(mut self) -> Result<Position, CsaError> {
        let side = self.side.ok_or_else(|| {
            CsaError::Position("the side to move (a '+' or '-' line) is missing".into())
        })?;
        if !self.has_board {
            return Err(CsaError::Position(
                "no board (PI or P1..P9) was given".into(),
            ));
        }
        if let Some(color) = self.rest_to {
            for kind in PieceKind::HAND {
                let on_board = self
                    .board
                    .iter()
                    .flatten()
                    .filter(|p| p.kind().unpromoted() == kind)
                    .count() as u32;
                let held = self.hands[0].count(kind) + self.hands[1].count(kind);
                let left = kind.full_set_count() as u32;
                let left = left.saturating_sub(on_board + held);
                let n = self.hands[color.index()].count(kind) + left;
                self.hands[color.index()].set(kind, n);
            }
        }
        let mut sfen = String::new();
        super::write_sfen(&mut sfen, &self.board, side, &self.hands, 1)
            .expect("writing to a String");
        sfen.parse::<Position>()
            .map_err(|e| CsaError::Position(e.to_string()))
    }
}

/// Reads a whole CSA position (lines as in a `BEGIN Position` block, up to and including
/// the side to move).
pub fn position_from_csa(text: &str) -> Result<Position, CsaError> {
    let mut reader = CsaPositionReader::default();
    for line in text.lines() {
        if reader.line(line)? {
            break;
        }
    }
    reader.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        sfen.parse().unwrap()
    }

    #[test]
    fn moves_both_ways() {
        let start = Position::startpos();
        let mv = move_from_csa(&start, "+7776FU").unwrap();
        assert_eq!(mv.to_string(), "7g7f");
        assert_eq!(move_to_csa(&start, mv), "+7776FU");
        // A bishop takes and promotes; the record names the horse.
        let p = pos("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        let mv = move_from_csa(&p, "+8822UM").unwrap();
        assert_eq!(mv.to_string(), "8h2b+");
        assert_eq!(move_to_csa(&p, mv), "+8822UM");
        // Without promotion the same move names the bishop.
        assert_eq!(move_from_csa(&p, "+8822KA").unwrap().to_string(), "8h2b");
    }

    #[test]
    fn drops_and_promoted_names() {
        let p = pos("lnsgk1snl/6g2/ppppppbpp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 6");
        assert!(move_from_csa(&p, "-0055KA").is_err(), "White has no bishop");
        let p = pos("lnsgk1snl/6g2/ppppppbpp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b B 7");
        let mv = move_from_csa(&p, "+0055KA").unwrap();
        assert_eq!(mv.to_string(), "B*5e");
        assert_eq!(move_to_csa(&p, mv), "+0055KA");
        for kind in PieceKind::ALL {
            assert_eq!(kind_from_name(kind_name(kind)), Some(kind));
        }
        let promoted: Vec<&str> = [
            PieceKind::ProPawn,
            PieceKind::ProLance,
            PieceKind::ProKnight,
            PieceKind::ProSilver,
            PieceKind::Horse,
            PieceKind::Dragon,
        ]
        .map(kind_name)
        .to_vec();
        assert_eq!(promoted, ["TO", "NY", "NK", "NG", "UM", "RY"]);
    }

    #[test]
    fn bad_moves_are_errors() {
        let start = Position::startpos();
        for text in [
            "",
            "7776FU",
            "+7776XX",
            "+7076FU",
            "+77765FU",
            "+７７７６FU",
        ] {
            assert!(
                matches!(move_from_csa(&start, text), Err(CsaError::MoveSyntax(_))),
                "{text}"
            );
        }
        assert!(matches!(
            move_from_csa(&start, "-3334FU"),
            Err(CsaError::WrongSide(_))
        ));
        assert!(matches!(
            move_from_csa(&start, "+7775FU"),
            Err(CsaError::IllegalMove { .. })
        ));
        // A pawn cannot become a dragon.
        assert!(matches!(
            move_from_csa(&start, "+7776RY"),
            Err(CsaError::IllegalMove { .. })
        ));
    }

    #[test]
    fn positions_both_ways() {
        let start = position_from_csa("PI\n+\n").unwrap();
        assert_eq!(start.to_string(), Position::startpos().to_string());
        let p = pos("lnsgk1snl/6g2/pppppp1pp/9/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bp 7");
        let back = position_from_csa(&position_to_csa(&p, false)).unwrap();
        assert_eq!(back.to_string().split(' ').take(3).collect::<Vec<_>>(), {
            let s = p.to_string();
            s.split(' ').take(3).map(str::to_string).collect::<Vec<_>>()
        });
    }

    #[test]
    fn handicaps_and_all_the_rest() {
        // Two-piece handicap: White (the stronger side) gives up rook and bishop and moves
        // first.
        let p = position_from_csa("PI82HI22KA\n-\n").unwrap();
        assert_eq!(
            p.to_string(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        // A tsume-style position: kings only, Black holds a gold, White every other piece.
        let text = "P1 *  *  *  *  * -OU *  *  * \nP2\nP3\nP4\nP5\nP6\nP7\nP8\n\
                    P9 *  *  *  * +OU *  *  *  * \nP+00KI\nP-00AL\n+\n";
        let p = position_from_csa(text).unwrap();
        assert_eq!(p.hand(Color::Black).count(PieceKind::Gold), 1);
        assert_eq!(p.hand(Color::White).count(PieceKind::Gold), 3);
        assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 18);
        assert!(position_from_csa("PI\n").is_err());
        assert!(position_from_csa("P1+XX\n+\n").is_err());
        assert!(position_from_csa("PI55FU\n+\n").is_err());
        assert!(position_from_csa("P0\n+\n").is_err());
    }
}
