use super::{PieceKind, Square};
use arrayvec::ArrayVec;
use std::fmt;
use std::num::NonZeroU16;

/// The most legal moves any shogi position has is 593; buffers leave a little headroom.
pub const MAX_MOVES: usize = 600;

/// A buffer that holds every legal move of any position without allocating.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// A move packed into 16 bits (never zero, so `Option<Move>` is 16 bits too).
///
/// | bits  | board move              | drop                      |
/// |-------|-------------------------|---------------------------|
/// | 0..7  | destination square      | destination square        |
/// | 7..14 | origin square (0..81)   | 81 + hand kind - 1 (81..88) |
/// | 14    | promotes                | 0                         |
///
/// A board move never has origin equal to destination, and a drop's origin field is at
/// least 81, so the packed value is never zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Move(NonZeroU16);

const _: () = assert!(std::mem::size_of::<Option<Move>>() == 2);

const PROMOTE_BIT: u16 = 1 << 14;
const DROP_BASE: u16 = Square::NUM as u16;

impl Move {
    /// A board move. `from` and `to` must differ.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, promote: bool) -> Move {
        let raw = to.index() as u16 | (from.index() as u16) << 7 | (promote as u16) << 14;
        match NonZeroU16::new(raw) {
            Some(v) => Move(v),
            None => panic!("a move from a square to itself"),
        }
    }

    /// A drop of a hand kind (Pawn..=Gold) on `to`.
    #[inline(always)]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        let raw = to.index() as u16 | (DROP_BASE + kind as u16 - 1) << 7;
        match NonZeroU16::new(raw) {
            Some(v) => Move(v),
            None => unreachable!(),
        }
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7f) as usize)
    }

    /// The origin square of a board move; `None` for drops.
    #[inline(always)]
    pub const fn from(self) -> Option<Square> {
        let f = (self.0.get() >> 7) & 0x7f;
        if f < DROP_BASE {
            Some(Square::from_index_unchecked(f as usize))
        } else {
            None
        }
    }

    /// The origin of a move known to be a board move.
    #[inline(always)]
    pub(crate) const fn origin_unchecked(self) -> Square {
        Square::from_index_unchecked(((self.0.get() >> 7) & 0x7f) as usize)
    }

    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        (self.0.get() >> 7) & 0x7f >= DROP_BASE
    }

    /// The dropped kind, for drops.
    #[inline(always)]
    pub const fn drop_kind(self) -> Option<PieceKind> {
        let f = (self.0.get() >> 7) & 0x7f;
        if f >= DROP_BASE {
            PieceKind::from_index((f - DROP_BASE + 1) as usize)
        } else {
            None
        }
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0.get() & PROMOTE_BIT != 0
    }

    /// The packed 16-bit value (see the type's doc).
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from bits that [`Move::raw`] gave, without validating them (the
    /// move picker carries its moves packed in its sort keys).
    #[inline(always)]
    pub fn from_raw_trusted(raw: u16) -> Move {
        debug_assert!(Move::from_raw(raw).is_some(), "{raw:#x} is not a move");
        Move(NonZeroU16::new(raw).expect("the bits of a move are never zero"))
    }

    /// Rebuilds a move from [`Move::raw`]; `None` when the bits cannot be a move.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let to = raw & 0x7f;
        let from = (raw >> 7) & 0x7f;
        let promote = raw & PROMOTE_BIT != 0;
        if raw >> 15 != 0 || to >= Square::NUM as u16 || from >= DROP_BASE + 7 || from == to {
            return None;
        }
        if from >= DROP_BASE && promote {
            return None;
        }
        NonZeroU16::new(raw).map(Move)
    }

    /// Parses USI move syntax (`7g7f`, `8h2b+`, `P*5e`) without looking at a position.
    /// Legality is [`Position::parse_move`](crate::position::Position::parse_move)'s job.
    pub fn from_usi(text: &str) -> Option<Move> {
        let bytes = text.as_bytes();
        if bytes.len() == 4 && bytes[1] == b'*' {
            let kind = PieceKind::from_sfen_letter(bytes[0] as char)?;
            if !bytes[0].is_ascii_uppercase() || kind == PieceKind::King {
                return None;
            }
            return Some(Move::drop(kind, Square::from_usi(&text[2..4])?));
        }
        let promote = match bytes.len() {
            4 => false,
            5 if bytes[4] == b'+' => true,
            _ => return None,
        };
        let from = Square::from_usi(text.get(0..2)?)?;
        let to = Square::from_usi(text.get(2..4)?)?;
        if from == to {
            return None;
        }
        Some(Move::new(from, to, promote))
    }
}

impl fmt::Display for Move {
    /// USI notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.drop_kind() {
            Some(kind) => write!(f, "{}*{}", kind.sfen_letter(), self.to()),
            None => write!(
                f,
                "{}{}{}",
                self.origin_unchecked(),
                self.to(),
                if self.is_promotion() { "+" } else { "" }
            ),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
