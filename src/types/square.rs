use super::Color;
use std::fmt;

/// A file (column), numbered 1..9 from Black's right as on a shogi board. Stored 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank (row), lettered a..i from White's side (the top of a diagram). Stored 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl File {
    /// File from its 0-based index (0 = file 1). Returns `None` outside 0..9.
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 {
            Some(File(index))
        } else {
            None
        }
    }
    /// 0-based index: file 1 is 0.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// All files, 1 to 9.
    pub fn all() -> impl Iterator<Item = File> {
        (0..9).map(File)
    }
}

impl Rank {
    /// Rank from its 0-based index (0 = rank a). Returns `None` outside 0..9.
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 9 {
            Some(Rank(index))
        } else {
            None
        }
    }
    /// 0-based index: rank a is 0.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The rank as `color` sees it: 0 is the far rank (where pawns must promote).
    #[inline(always)]
    pub const fn relative(self, color: Color) -> usize {
        match color {
            Color::Black => self.0 as usize,
            Color::White => 8 - self.0 as usize,
        }
    }
    /// All ranks, a to i.
    pub fn all() -> impl Iterator<Item = Rank> {
        (0..9).map(Rank)
    }
}

/// One of the 81 squares. The index is file-major: `file * 9 + rank`, so 1a = 0, 1i = 8,
/// 2a = 9, …, 9i = 80. A file is then nine consecutive bits of a [`Bitboard`](super::Bitboard),
/// which makes lance and pawn-file operations plain shifts and masks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// Number of squares.
    pub const NUM: usize = 81;

    /// Square from a 0-based index; `None` outside 0..81.
    #[inline(always)]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < Self::NUM {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Square from an index already known to be below 81.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: usize) -> Square {
        debug_assert!(index < Self::NUM);
        Square(index as u8)
    }

    /// Square on `file` and `rank`.
    #[inline(always)]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(file.0 * 9 + rank.0)
    }

    /// 0-based index (see the type's doc for the order).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> File {
        File(self.0 / 9)
    }

    #[inline(always)]
    pub const fn rank(self) -> Rank {
        Rank(self.0 % 9)
    }

    /// All squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..Self::NUM as u8).map(Square)
    }

    /// Parses the USI name of a square, `7g` or `1a`.
    pub fn from_usi(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'1');
        let rank = bytes[1].wrapping_sub(b'a');
        Some(Square::new(File::new(file)?, Rank::new(rank)?))
    }

    /// The square seen from the other side of the board (5e stays 5e).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(80 - self.0)
    }

    /// Whether this square lies in `color`'s promotion zone (its three far ranks).
    #[inline(always)]
    pub const fn in_zone(self, color: Color) -> bool {
        self.rank().relative(color) < 3
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'1' + self.file().0) as char,
            (b'a' + self.rank().0) as char
        )
    }
}
