use super::Color;
use std::fmt;
use std::num::NonZeroU8;

/// The fourteen kinds of shogi piece: eight base kinds and six promoted ones.
///
/// A promoted kind is its base kind plus 8, so promotion is one addition and
/// [`PieceKind::unpromoted`] one mask. Hand pieces are the seven kinds Pawn..=Gold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 1,
    Lance = 2,
    Knight = 3,
    Silver = 4,
    Bishop = 5,
    Rook = 6,
    Gold = 7,
    King = 8,
    ProPawn = 9,
    ProLance = 10,
    ProKnight = 11,
    ProSilver = 12,
    Horse = 13,
    Dragon = 14,
}

impl PieceKind {
    /// All fourteen kinds in discriminant order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Gold,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The seven kinds a player can hold in hand, in the order SFEN prints them.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];

    /// Kind from its discriminant (1..=14).
    #[inline(always)]
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index >= 1 && index <= 14 {
            Some(Self::ALL[index - 1])
        } else {
            None
        }
    }

    /// Discriminant, 1..=14, for arrays sized 15.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this kind may promote (pawn, lance, knight, silver, bishop, rook).
    #[inline(always)]
    pub const fn can_promote(self) -> bool {
        (self as u8) <= 6
    }

    /// Whether this is a promoted kind.
    #[inline(always)]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 9
    }

    /// The promoted form; `self` for kinds that do not promote.
    #[inline(always)]
    pub const fn promoted(self) -> PieceKind {
        if self.can_promote() {
            Self::ALL[self as usize + 7]
        } else {
            self
        }
    }

    /// The base kind: what a captured piece becomes in hand (the king stays a king).
    #[inline(always)]
    pub const fn unpromoted(self) -> PieceKind {
        if self.is_promoted() {
            Self::ALL[self as usize - 9]
        } else {
            self
        }
    }

    /// Whether the kind moves like a gold (gold and the four promoted minor pieces).
    #[inline(always)]
    pub const fn moves_like_gold(self) -> bool {
        matches!(
            self,
            PieceKind::Gold
                | PieceKind::ProPawn
                | PieceKind::ProLance
                | PieceKind::ProKnight
                | PieceKind::ProSilver
        )
    }

    /// The SFEN letter of Black's piece of this kind, without the `+` of promotion.
    pub const fn sfen_letter(self) -> char {
        match self.unpromoted() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Gold => 'G',
            _ => 'K',
        }
    }

    /// Base kind from an SFEN letter in either case.
    pub const fn from_sfen_letter(letter: char) -> Option<PieceKind> {
        Some(match letter.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'L' => PieceKind::Lance,
            'N' => PieceKind::Knight,
            'S' => PieceKind::Silver,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'G' => PieceKind::Gold,
            'K' => PieceKind::King,
            _ => return None,
        })
    }

    /// How many of this base kind exist in a full set (both sides, board and hands).
    pub const fn full_set_count(self) -> u8 {
        match self.unpromoted() {
            PieceKind::Pawn => 18,
            PieceKind::Lance | PieceKind::Knight | PieceKind::Silver | PieceKind::Gold => 4,
            _ => 2,
        }
    }
}

/// A coloured piece. Packed into one non-zero byte (`kind | color << 4`) so that an empty
/// square is `Option::<Piece>::None` at no extra cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Piece(NonZeroU8);

const _: () = assert!(std::mem::size_of::<Option<Piece>>() == 1);

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        match NonZeroU8::new(kind as u8 | (color as u8) << 4) {
            Some(v) => Piece(v),
            None => unreachable!(),
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        let k = self.0.get() & 15;
        debug_assert!(k >= 1 && k <= 14);
        // SAFETY: `Piece::new` is the only constructor and stores a `PieceKind` discriminant
        // (1..=14) in the low nibble; `PieceKind` is `repr(u8)` with exactly those values.
        unsafe { std::mem::transmute::<u8, PieceKind>(k) }
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0.get() >> 4 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Index 0..32 for tables sized by coloured piece.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0.get() as usize
    }

    /// Parses one SFEN piece token, `P` or `+r`: uppercase is Black.
    pub fn from_sfen(token: &str) -> Option<Piece> {
        let (promoted, letter) = match token.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, token),
        };
        let mut chars = letter.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        let mut kind = PieceKind::from_sfen_letter(c)?;
        if promoted {
            if !kind.can_promote() {
                return None;
            }
            kind = kind.promoted();
        }
        let color = if c.is_ascii_uppercase() {
            Color::Black
        } else {
            Color::White
        };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Display for Piece {
    /// SFEN notation: `+P`, `k`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = self.kind();
        if kind.is_promoted() {
            f.write_str("+")?;
        }
        let letter = kind.sfen_letter();
        let letter = match self.color() {
            Color::Black => letter,
            Color::White => letter.to_ascii_lowercase(),
        };
        write!(f, "{letter}")
    }
}
