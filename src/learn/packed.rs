//! YaneuraOu's training records: `PackedSfen` (a position in 256 bits) and
//! `PackedSfenValue` (40 bytes: the position, the search's score from the side to move,
//! the best move, the ply and the game's result for the side to move). cshogi and the
//! NNUE trainers of the shogi world read this format.
//!
//! The bit stream, least significant bit of each byte first: the side to move (1 bit),
//! each king's square (7 bits, 81 when absent), then every other square in square order
//! (an empty one as a single 0 bit; a piece as its kind's Huffman code, a promotion bit
//! except for golds, and its colour bit), then the pieces in hand (the code without its
//! lowest bit, a 0 promotion bit, the colour) by colour and kind, and last the pieces in
//! neither (handicaps) in the "piece box" codes, so that every record fills 256 bits.

use crate::position::Position;
use crate::types::{Color, Hand, Move, Piece, PieceKind, Square};
use std::fmt;

/// Bytes of a `PackedSfenValue` record.
pub const RECORD_BYTES: usize = 40;

/// (code, bits) of each kind on the board, indexed by `PieceKind as usize` (pawn 1 ..
/// gold 7; 0 is an empty square).
const BOARD_CODES: [(u32, u32); 8] = [
    (0x00, 1),
    (0x01, 2),
    (0x03, 4),
    (0x0b, 4),
    (0x07, 4),
    (0x1f, 6),
    (0x3f, 6),
    (0x0f, 5),
];

/// (code, bits) of pieces in neither hand nor on the board.
const BOX_CODES: [(u32, u32); 8] = [
    (0x00, 1),
    (0x02, 2),
    (0x09, 4),
    (0x0d, 4),
    (0x0b, 4),
    (0x2f, 6),
    (0x3f, 6),
    (0x1b, 5),
];

/// The hand kinds in the order the records list them.
const HAND_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

/// Why a record could not be read back as a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PackError {
    /// The position cannot be packed (more pieces than a set has, a king missing twice).
    Unpackable(String),
    /// The bits do not decode to a position.
    Corrupt(&'static str),
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::Unpackable(why) => write!(f, "cannot pack the position: {why}"),
            PackError::Corrupt(why) => write!(f, "not a packed position: {why}"),
        }
    }
}

impl std::error::Error for PackError {}

struct BitWriter {
    data: [u8; 32],
    cursor: usize,
}

impl BitWriter {
    fn bits(&mut self, value: u32, n: u32) -> Result<(), PackError> {
        for i in 0..n {
            if self.cursor >= 256 {
                return Err(PackError::Unpackable("more than 256 bits".into()));
            }
            if value >> i & 1 != 0 {
                self.data[self.cursor / 8] |= 1 << (self.cursor % 8);
            }
            self.cursor += 1;
        }
        Ok(())
    }
}

struct BitReader<'a> {
    data: &'a [u8; 32],
    cursor: usize,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Result<u32, PackError> {
        if self.cursor >= 256 {
            return Err(PackError::Corrupt("the bits run out"));
        }
        let b = (self.data[self.cursor / 8] >> (self.cursor % 8)) & 1;
        self.cursor += 1;
        Ok(b as u32)
    }

    fn bits(&mut self, n: u32) -> Result<u32, PackError> {
        let mut v = 0;
        for i in 0..n {
            v |= self.bit()? << i;
        }
        Ok(v)
    }

    /// Reads a Huffman code from `codes` (shifted right by `shift` bits, for hands).
    fn kind(&mut self, shift: u32, first: usize) -> Result<usize, PackError> {
        let (mut code, mut bits) = (0, 0);
        while bits < 6 {
            code |= self.bit()? << bits;
            bits += 1;
            if let Some(k) = (first..8)
                .find(|&k| BOARD_CODES[k].0 >> shift == code && BOARD_CODES[k].1 - shift == bits)
            {
                return Ok(k);
            }
        }
        Err(PackError::Corrupt("an unknown piece code"))
    }
}

fn kind_from_index(k: usize) -> PieceKind {
    PieceKind::from_index(k).expect("a kind index 1..=7")
}

/// Packs `pos` into 32 bytes.
pub fn pack(pos: &Position) -> Result<[u8; 32], PackError> {
    let mut w = BitWriter {
        data: [0; 32],
        cursor: 0,
    };
    w.bits(pos.side_to_move() as u32, 1)?;
    for c in Color::ALL {
        w.bits(
            pos.king_square(c)
                .map_or(Square::NUM as u32, |s| s.index() as u32),
            7,
        )?;
    }
    // Pieces of each kind a set has, less those seen on the board and in hand.
    let mut left = [0i32; 8];
    for kind in HAND_ORDER {
        left[kind as usize] = kind.full_set_count() as i32;
    }
    for sq in Square::all() {
        match pos.piece_at(sq) {
            Some(p) if p.kind() == PieceKind::King => {}
            None => w.bits(0, 1)?,
            Some(p) => {
                let base = p.kind().unpromoted();
                let (code, bits) = BOARD_CODES[base as usize];
                w.bits(code, bits)?;
                if base != PieceKind::Gold {
                    w.bits(p.kind().is_promoted() as u32, 1)?;
                }
                w.bits(p.color() as u32, 1)?;
                left[base as usize] -= 1;
            }
        }
    }
    for c in Color::ALL {
        for kind in HAND_ORDER {
            let (code, bits) = BOARD_CODES[kind as usize];
            for _ in 0..pos.hand(c).count(kind) {
                w.bits(code >> 1, bits - 1)?;
                if kind != PieceKind::Gold {
                    w.bits(0, 1)?;
                }
                w.bits(c as u32, 1)?;
                left[kind as usize] -= 1;
            }
        }
    }
    for kind in HAND_ORDER {
        let n = left[kind as usize];
        if n < 0 {
            return Err(PackError::Unpackable(format!(
                "more {kind:?} than a set has"
            )));
        }
        let (code, bits) = BOX_CODES[kind as usize];
        for _ in 0..n {
            w.bits(code, bits)?;
            if kind != PieceKind::Gold {
                w.bits(0, 1)?;
            }
        }
    }
    if w.cursor != 256 {
        return Err(PackError::Unpackable(format!("{} bits, not 256", w.cursor)));
    }
    Ok(w.data)
}

/// Unpacks 32 bytes into an SFEN (move number 1), checked by parsing it.
pub fn unpack(data: &[u8; 32]) -> Result<Position, PackError> {
    let mut r = BitReader { data, cursor: 0 };
    let side = if r.bit()? == 0 {
        Color::Black
    } else {
        Color::White
    };
    let mut board: [Option<Piece>; Square::NUM] = [None; Square::NUM];
    for c in Color::ALL {
        let sq = r.bits(7)? as usize;
        if sq < Square::NUM {
            board[sq] = Some(Piece::new(c, PieceKind::King));
        } else if sq != Square::NUM {
            return Err(PackError::Corrupt("a king off the board"));
        }
    }
    for slot in board.iter_mut() {
        if slot.is_some() {
            continue;
        }
        let k = r.kind(0, 0)?;
        if k == 0 {
            continue;
        }
        let mut kind = kind_from_index(k);
        if kind != PieceKind::Gold && r.bit()? == 1 {
            kind = kind.promoted();
        }
        let color = if r.bit()? == 0 {
            Color::Black
        } else {
            Color::White
        };
        *slot = Some(Piece::new(color, kind));
    }
    let mut counts = [[0u32; 8]; 2];
    while r.cursor < 256 {
        let kind = kind_from_index(r.kind(1, 1)?);
        let promoted = kind != PieceKind::Gold && r.bit()? == 1;
        let color = r.bit()? as usize;
        // A "promoted" hand piece is one of the piece box's: in neither hand.
        if !promoted {
            counts[color][kind as usize] += 1;
        }
    }
    // Counted apart first: a corrupt record may list more than a hand's fields hold.
    let mut hands = [Hand::EMPTY; 2];
    for (hand, counts) in hands.iter_mut().zip(&counts) {
        for kind in PieceKind::HAND {
            let n = counts[kind as usize];
            if n > kind.full_set_count() as u32 {
                return Err(PackError::Corrupt("an impossible position"));
            }
            hand.set(kind, n);
        }
    }
    let mut sfen = String::new();
    crate::position::write_sfen(&mut sfen, &board, side, &hands, 1)
        .expect("writing to a String cannot fail");
    sfen.parse()
        .map_err(|_| PackError::Corrupt("an impossible position"))
}

/// A move in YaneuraOu's 16 bits: destination in bits 0..7, origin in 7..14 (a drop: the
/// kind, pawn 1 .. gold 7), bit 14 for a drop, bit 15 for a promotion. (cshogi's own
/// 16-bit moves number drops otherwise; its `move16_to_psv` converts to this.)
pub fn move_to_u16(mv: Move) -> u16 {
    let to = mv.to().index() as u16;
    match mv.drop_kind() {
        Some(kind) => to | (kind as u16) << 7 | 1 << 14,
        None => {
            let from = mv.from().expect("a board move").index() as u16;
            to | from << 7 | (mv.is_promotion() as u16) << 15
        }
    }
}

/// The move of YaneuraOu's 16 bits, if it is a well-formed one (not checked for
/// legality).
pub fn move_from_u16(raw: u16) -> Option<Move> {
    let to = Square::from_index((raw & 0x7f) as usize)?;
    let from = ((raw >> 7) & 0x7f) as usize;
    if raw & 1 << 14 != 0 {
        let kind = PieceKind::from_index(from)?;
        if !(1..=7).contains(&(kind as usize)) {
            return None;
        }
        Some(Move::drop(kind, to))
    } else {
        let from = Square::from_index(from)?;
        (from != to).then(|| Move::new(from, to, raw & 1 << 15 != 0))
    }
}

/// One training record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedSfenValue {
    pub sfen: [u8; 32],
    /// The search's score, from the side to move.
    pub score: i16,
    /// The best move, in YaneuraOu's 16 bits.
    pub mv: u16,
    /// The ply of the game (the SFEN move number).
    pub game_ply: u16,
    /// 1 if the side to move won the game, -1 if it lost, 0 for a draw.
    pub game_result: i8,
}

impl PackedSfenValue {
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..32].copy_from_slice(&self.sfen);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.mv.to_le_bytes());
        b[36..38].copy_from_slice(&self.game_ply.to_le_bytes());
        b[38] = self.game_result as u8;
        b
    }

    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> PackedSfenValue {
        let mut sfen = [0u8; 32];
        sfen.copy_from_slice(&b[..32]);
        PackedSfenValue {
            sfen,
            score: i16::from_le_bytes([b[32], b[33]]),
            mv: u16::from_le_bytes([b[34], b[35]]),
            game_ply: u16::from_le_bytes([b[36], b[37]]),
            game_result: b[38] as i8,
        }
    }

    /// Whether the record's best move in `pos` (its unpacked position) is quiet: legal,
    /// not a capture and not a promotion. Where the best move wins material the search
    /// score holds a gain that no static evaluation of this position can see, so such
    /// records teach a net to guess at tactics rather than to judge the position.
    pub fn best_move_is_quiet(&self, pos: &Position) -> bool {
        move_from_u16(self.mv).is_some_and(|mv| pos.is_legal(mv) && !pos.is_tactical(mv))
    }
}

/// The records of a file: the first `skip` left out, at most `count` read, and the number
/// of stray bytes after the last whole record (a file cut short).
pub fn read_file(
    path: &std::path::Path,
    skip: u64,
    count: u64,
) -> std::io::Result<(Vec<PackedSfenValue>, usize)> {
    let bytes = crate::files::read_regular(path)?;
    let records = bytes
        .chunks_exact(RECORD_BYTES)
        .skip(skip.min(usize::MAX as u64) as usize)
        .take(count.min(usize::MAX as u64) as usize)
        .map(|c| PackedSfenValue::from_bytes(c.try_into().expect("40 bytes")))
        .collect();
    Ok((records, bytes.len() % RECORD_BYTES))
}
