//! The board: piece placement, hands, side to move, Zobrist key and the history of states
//! that unmaking moves and repetition detection need.

mod check_info;
pub mod command;
pub mod csa;
mod legality;
mod movegen;
mod rules;
mod sfen;
pub mod zobrist;

pub use check_info::CheckInfo;
pub use command::{PositionCommand, PositionCommandError};
pub use legality::IllegalMove;
pub use movegen::GenType;
pub use rules::{EnteringKingRule, Repetition};
pub use sfen::{write_sfen, SfenError, MAX_MOVE_NUMBER};

use crate::attacks;
use crate::types::{Bitboard, Color, Hand, Move, Piece, PieceKind, Square};

/// SFEN of the even-game start position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// What `play_unchecked` saves so that `undo` can restore the position exactly; the keys
/// double as the repetition history.
#[derive(Clone, Copy, Debug)]
pub struct StateInfo {
    /// Key of the position *before* the move (board and side).
    pub board_key: u64,
    /// Hand part of the key before the move.
    pub hand_key: u64,
    /// Pieces giving check before the move.
    pub checkers: Bitboard,
    /// The move played from that position.
    pub mv: Move,
    /// The piece the move captured, if any.
    pub captured: Option<Piece>,
}

/// Where each kind's count sits in a side's packed piece counts
/// ([`Position::piece_counts`]), by the kind's discriminant (pawn 1 ... king 8, promoted
/// pawn 9 ... dragon 14): pawns and promoted pawns (up to 18) in 5 bits each, every other
/// kind (up to 4) in 3 bits. No field can overflow into the next, so adding and
/// subtracting one kind's unit keeps every count exact.
const COUNT_SHIFT: [u32; 15] = [0, 0, 10, 13, 16, 19, 22, 25, 28, 5, 31, 34, 37, 40, 43];

/// The placement keys a piece belongs to ([`Position::part_keys`]), one all-ones word
/// per key it is hashed into, by [`Piece::index`]: pawns into the pawn key; the small
/// pieces (lance, knight, silver, gold and the promoted small pieces, tokin included)
/// into the small-piece key and their side's; bishops, rooks and kings into their
/// side's alone.
const PART_MASKS: [[u64; PART_KEYS]; 32] = {
    let mut masks = [[0; PART_KEYS]; 32];
    let mut index = 0;
    while index < 32 {
        let (color, kind) = (index >> 4, index & 15);
        if kind == PieceKind::Pawn as usize {
            masks[index][PART_PAWNS] = !0;
        } else if kind >= 1 && kind <= 14 {
            masks[index][PART_OWN + color] = !0;
            let small = kind == PieceKind::Lance as usize
                || kind == PieceKind::Knight as usize
                || kind == PieceKind::Silver as usize
                || kind == PieceKind::Gold as usize
                || (kind >= PieceKind::ProPawn as usize && kind <= PieceKind::ProSilver as usize);
            if small {
                masks[index][PART_SMALL] = !0;
            }
        }
        index += 1;
    }
    masks
};
/// Hashes `piece` on `sq` in or out of the placement keys `keys` it belongs to.
#[inline(always)]
fn toggle_part_keys(keys: &mut [u64; PART_KEYS], piece: Piece, sq: Square) {
    let z = zobrist::piece_square(piece, sq);
    for (key, mask) in keys.iter_mut().zip(&PART_MASKS[piece.index()]) {
        *key ^= z & mask;
    }
}

/// How many placement keys a position keeps, and where each sits in
/// [`Position::part_keys`]: the pawns', the small pieces', then Black's and White's
/// other pieces (pawns aside).
pub const PART_KEYS: usize = 4;
pub const PART_PAWNS: usize = 0;
pub const PART_SMALL: usize = 1;
pub const PART_OWN: usize = 2;

/// Index of the first per-kind set in [`PieceSets`]; sets 0 and 1 are the colours.
const KIND_SETS: usize = 2;
const SETS: usize = KIND_SETS + 15;

/// The position's bitboards, each kept as two 64-bit words in separate arrays.
///
/// Moves update a set one word at a time; had the words stayed adjacent, the compiler
/// reads a set back as one 128-bit vector load, which cannot be forwarded from the two
/// fresh 64-bit stores and stalls for a dozen cycles on every make and unmake.
#[derive(Clone)]
struct PieceSets {
    low: [u64; SETS],
    high: [u64; SETS],
}

impl PieceSets {
    #[inline(always)]
    fn get(&self, i: usize) -> Bitboard {
        Bitboard(self.low[i] as u128 | (self.high[i] as u128) << 64)
    }

    #[inline(always)]
    fn toggle(&mut self, i: usize, bit: Bitboard) {
        self.low[i] ^= bit.0 as u64;
        self.high[i] ^= (bit.0 >> 64) as u64;
    }
}

/// A shogi position with its game history.
///
/// Invariants: `board` and `sets` describe the same pieces; `king` matches the
/// kings on the board (zero or one per side); `board_key`/`hand_key` equal the keys computed
/// from scratch; `checkers` are the enemy pieces attacking the side to move's king.
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; Square::NUM],
    /// Piece sets: one per colour, then one per kind (see [`PieceSets`]).
    sets: PieceSets,
    hands: [Hand; 2],
    king: [Option<Square>; 2],
    side: Color,
    /// Move number as SFEN counts it (1 for the first move of the game record).
    ply: u32,
    board_key: u64,
    hand_key: u64,
    /// Each side's count of every kind on the board, packed by `COUNT_SHIFT`, kept as the
    /// pieces move (the search keys its material statistics by it at every node).
    counts: [u64; 2],
    /// Zobrist keys of parts of the board (see [`PART_MASKS`]), kept as the pieces move:
    /// the search keys its correction statistics by them.
    part_keys: [u64; PART_KEYS],
    checkers: Bitboard,
    history: Vec<StateInfo>,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl PartialEq for Position {
    /// Same pieces, hands and side to move (the move number and history are not compared).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}

impl Position {
    /// The even-game start position.
    pub fn startpos() -> Position {
        STARTPOS_SFEN.parse().expect("start position SFEN is valid")
    }

    /// An empty board with Black to move; SFEN parsing fills it.
    fn empty() -> Position {
        Position {
            board: [None; Square::NUM],
            sets: PieceSets {
                low: [0; SETS],
                high: [0; SETS],
            },
            hands: [Hand::EMPTY; 2],
            king: [None; 2],
            side: Color::Black,
            ply: 1,
            board_key: 0,
            hand_key: 0,
            counts: [0; 2],
            part_keys: [0; PART_KEYS],
            checkers: Bitboard::EMPTY,
            history: Vec::new(),
        }
    }

    // -----------------------------------------------------------------------------------
    // Accessors

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Whether `mv` captures or promotes (the moves the search treats as tactical, and
    /// the ones after which a position's static evaluation misses material).
    #[inline(always)]
    pub fn is_tactical(&self, mv: Move) -> bool {
        mv.is_promotion() || self.piece_at(mv.to()).is_some()
    }

    #[inline(always)]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// Where `color`'s king stands; `None` in positions without one (tsume problems).
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        self.king[color.index()]
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.sets.get(0) | self.sets.get(1)
    }

    #[inline(always)]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.sets.get(color.index())
    }

    /// All pieces of `kind`, both colours.
    #[inline(always)]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.sets.get(KIND_SETS + kind.index())
    }

    /// `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces_of(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.pieces_of_kind(kind) & self.pieces(color)
    }

    /// Pieces that move like a gold: gold and the four promoted minor pieces (both colours).
    #[inline(always)]
    pub fn gold_movers(&self) -> Bitboard {
        self.pieces_of_kind(PieceKind::Gold)
            | self.pieces_of_kind(PieceKind::ProPawn)
            | self.pieces_of_kind(PieceKind::ProLance)
            | self.pieces_of_kind(PieceKind::ProKnight)
            | self.pieces_of_kind(PieceKind::ProSilver)
    }

    /// Bishops and horses (both colours): the pieces that slide diagonally.
    #[inline(always)]
    pub fn diagonal_sliders(&self) -> Bitboard {
        self.pieces_of_kind(PieceKind::Bishop) | self.pieces_of_kind(PieceKind::Horse)
    }

    /// Rooks and dragons (both colours): the pieces that slide along files and ranks.
    #[inline(always)]
    pub fn straight_sliders(&self) -> Bitboard {
        self.pieces_of_kind(PieceKind::Rook) | self.pieces_of_kind(PieceKind::Dragon)
    }

    /// Kings, horses and dragons (both colours): the pieces that step to all eight
    /// neighbours.
    #[inline(always)]
    pub fn king_steppers(&self) -> Bitboard {
        self.pieces_of_kind(PieceKind::King)
            | self.pieces_of_kind(PieceKind::Horse)
            | self.pieces_of_kind(PieceKind::Dragon)
    }

    /// `color`'s count of every piece kind on the board, packed exactly into bit fields:
    /// the kind with discriminant `k` counts `counts >> COUNT_SHIFT[k]` in 5 bits for
    /// pawns and promoted pawns, 3 bits for the others (the king's field holds 1). Two
    /// positions have equal counts exactly when they have the same material on the board.
    #[inline(always)]
    pub fn piece_counts(&self, color: Color) -> u64 {
        self.counts[color.index()]
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline(always)]
    pub fn in_check(&self) -> bool {
        self.checkers.is_nonempty()
    }

    /// The move number as SFEN writes it.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Zobrist key of the position: pieces, hands and side to move.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.board_key ^ self.hand_key
    }

    /// Key of the pieces on the board and the side to move only (hands left out), for
    /// detecting the same board with different hands.
    #[inline(always)]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }

    /// The states before each move played since the position was set up, oldest first.
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|s| s.mv)
    }

    /// Forgets the move history (the position stays as it is), e.g. for a new root.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    // -----------------------------------------------------------------------------------
    // Attacks

    /// Every square `color`'s stepping pieces attack: pawns, knights, silvers, the gold
    /// movers, and the one-step moves of horses and dragons; the king left out. Computed
    /// set-wise by shifting whole bitboards, so its cost does not grow with the pieces.
    pub fn step_attacks(&self, color: Color) -> Bitboard {
        let own = self.pieces(color);
        let pawns = self.pieces_of_kind(PieceKind::Pawn) & own;
        let knights = self.pieces_of_kind(PieceKind::Knight) & own;
        let silvers = self.pieces_of_kind(PieceKind::Silver) & own;
        let golds = self.gold_movers() & own;
        let big =
            (self.pieces_of_kind(PieceKind::Horse) | self.pieces_of_kind(PieceKind::Dragon)) & own;
        // Silvers, golds and big pieces all step diagonally forwards.
        let ahead = (silvers | golds | big).forward(color);
        let diagonal_ahead = ahead.sideways();
        let diagonal_behind = (silvers | big).backward(color).sideways();
        let straight = (golds | big).backward(color) | (golds | big).sideways();
        pawns.forward(color)
            | knights.forward(color).forward(color).sideways()
            | ahead
            | diagonal_ahead
            | diagonal_behind
            | straight
    }

    /// Every square `color`'s pieces attack with the board as it is (squares holding
    /// its own pieces included): for a node's many questions "is this square attacked?",
    /// one pass instead of one lookup of attackers each.
    pub fn attacks_by(&self, color: Color) -> Bitboard {
        let mut attacked = self.step_attacks(color);
        if let Some(king) = self.king_square(color) {
            attacked |= attacks::king(king);
        }
        let occupied = self.occupied();
        let sliders = (self.pieces_of_kind(PieceKind::Lance)
            | self.diagonal_sliders()
            | self.straight_sliders())
            & self.pieces(color);
        for sq in sliders {
            let piece = self.board[sq.index()].expect("a slider on its square");
            attacked |= Self::piece_attacks(piece, sq, occupied);
        }
        attacked
    }

    /// Pieces of either colour that would attack `sq` by one step if they were
    /// `color`'s: the step patterns of `color`'s pawns, knights, silvers and gold movers
    /// seen backwards from `sq`, and the kings, horses and dragons next to it.
    #[inline(always)]
    fn step_attackers_to(&self, color: Color, sq: Square) -> Bitboard {
        let them = !color;
        let k = |kind: PieceKind| self.pieces_of_kind(kind);
        (attacks::pawn(them, sq) & k(PieceKind::Pawn))
            | (attacks::knight(them, sq) & k(PieceKind::Knight))
            | (attacks::silver(them, sq) & k(PieceKind::Silver))
            | (attacks::gold(them, sq) & self.gold_movers())
            | (attacks::king(sq) & self.king_steppers())
    }

    /// `color`'s pieces that attack `sq`, sliders seen through `occupied`.
    #[inline]
    pub fn attackers_to(&self, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let own = self.pieces(color);
        let mut attackers = self.step_attackers_to(color, sq) & own;
        // The slider lookups only where a slider of ours stands on a line through `sq`
        // (most squares the mate and legality tests ask about have none on one of them).
        let diagonal = self.diagonal_sliders() & own;
        if (attacks::bishop_pseudo(sq) & diagonal).is_nonempty() {
            attackers |= attacks::bishop(sq, occupied) & diagonal;
        }
        let lances = self.pieces_of_kind(PieceKind::Lance) & attacks::lance_pseudo(!color, sq);
        let straight = (self.straight_sliders() | lances) & own;
        if (attacks::rook_pseudo(sq) & straight).is_nonempty() {
            attackers |= attacks::rook(sq, occupied) & straight;
        }
        attackers
    }

    /// Both sides' sliders (bishops, rooks, horses, dragons, lances) that attack `sq`
    /// through `occupied`: what joins an exchange once a piece in front has moved away.
    #[inline]
    pub fn slider_attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let lances = self.pieces_of_kind(PieceKind::Lance);
        let rook_lines = attacks::rook(sq, occupied);
        let lances_in_line =
            (attacks::lance_pseudo(Color::White, sq) & lances & self.pieces(Color::Black))
                | (attacks::lance_pseudo(Color::Black, sq) & lances & self.pieces(Color::White));
        (attacks::bishop(sq, occupied) & self.diagonal_sliders())
            | (rook_lines & (self.straight_sliders() | lances_in_line))
    }

    /// Both sides' pieces that attack `sq`, sliders seen through `occupied` (one pass for
    /// the static exchange evaluation instead of one per side).
    #[inline]
    pub fn all_attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        (self.step_attackers_to(Color::Black, sq) & self.pieces(Color::Black))
            | (self.step_attackers_to(Color::White, sq) & self.pieces(Color::White))
            | self.slider_attackers_to(sq, occupied)
    }

    /// Whether any of `color`'s pieces attacks `sq`, sliders seen through `occupied`.
    /// Tests the cheap step attacks first and stops at the first hit.
    #[inline]
    pub fn is_attacked(&self, color: Color, sq: Square, occupied: Bitboard) -> bool {
        let them = !color;
        let k = |kind: PieceKind| self.pieces_of_kind(kind);
        let own = self.pieces(color);
        if (self.step_attackers_to(color, sq) & own).is_nonempty() {
            return true;
        }
        let diagonal = self.diagonal_sliders() & own;
        if (attacks::bishop_pseudo(sq) & diagonal).is_nonempty()
            && (attacks::bishop(sq, occupied) & diagonal).is_nonempty()
        {
            return true;
        }
        let straight = (self.straight_sliders()
            | (k(PieceKind::Lance) & attacks::lance_pseudo(them, sq)))
            & own;
        (attacks::rook_pseudo(sq) & straight).is_nonempty()
            && (attacks::rook(sq, occupied) & straight).is_nonempty()
    }

    /// The squares a `piece` on `sq` attacks, given the occupancy.
    #[inline(always)]
    pub fn piece_attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
        let c = piece.color();
        match piece.kind() {
            PieceKind::Pawn => attacks::pawn(c, sq),
            PieceKind::Lance => attacks::lance(c, sq, occupied),
            PieceKind::Knight => attacks::knight(c, sq),
            PieceKind::Silver => attacks::silver(c, sq),
            PieceKind::Bishop => attacks::bishop(sq, occupied),
            PieceKind::Rook => attacks::rook(sq, occupied),
            PieceKind::King => attacks::king(sq),
            PieceKind::Horse => attacks::horse(sq, occupied),
            PieceKind::Dragon => attacks::dragon(sq, occupied),
            _ => attacks::gold(c, sq),
        }
    }

    /// Pieces of either colour that stand alone between `color`'s king and an enemy slider
    /// aimed at it. The side to move's own ones are pinned; the enemy's would give
    /// discovered check by moving.
    pub fn blockers_for_king(&self, color: Color) -> Bitboard {
        let Some(ksq) = self.king[color.index()] else {
            return Bitboard::EMPTY;
        };
        let them = !color;
        let k = |kind: PieceKind| self.pieces_of_kind(kind);
        let snipers = ((attacks::bishop_pseudo(ksq) & self.diagonal_sliders())
            | (attacks::rook_pseudo(ksq) & self.straight_sliders())
            | (attacks::lance_pseudo(color, ksq) & k(PieceKind::Lance)))
            & self.pieces(them);
        let occupied = self.occupied();
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let between = attacks::between(ksq, s) & occupied;
            if between.is_nonempty() && !between.has_more_than_one() {
                blockers |= between;
            }
        }
        blockers
    }

    /// The side to move's pieces pinned against its king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.blockers_for_king(self.side) & self.pieces(self.side)
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.king[self.side.index()] {
            Some(ksq) => self.attackers_to(!self.side, ksq, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Checkers against the side to move right after `mover` played `moved` to `to` (from
    /// `from`, or dropped): the moved piece itself, and a slider of the mover's that the
    /// vacated origin uncovered. Cheaper than [`Position::attackers_to`] on the king.
    ///
    /// `occupied` is passed in, computed from the occupancy before the move: reading the
    /// freshly written colour bitboards back as one 128-bit value stalls store forwarding.
    #[inline(always)]
    fn checkers_after(
        &self,
        moved: Piece,
        from: Option<Square>,
        to: Square,
        occupied: Bitboard,
    ) -> Bitboard {
        let Some(ksq) = self.king[self.side.index()] else {
            return Bitboard::EMPTY;
        };
        let mover = !self.side;
        let mut checkers = Bitboard::EMPTY;
        if Self::gives_direct_check(moved, to, ksq, occupied) {
            checkers |= Bitboard::from_square(to);
        }
        if let Some(from) = from {
            let ray = attacks::ray_towards(ksq, from);
            if ray.is_nonempty() && !ray.has(to) {
                let k = |kind: PieceKind| self.pieces_of_kind(kind);
                let sliders = if attacks::on_diagonal(ksq, from) {
                    attacks::bishop(ksq, occupied) & self.diagonal_sliders()
                } else {
                    let lines = attacks::rook(ksq, occupied);
                    (lines & self.straight_sliders())
                        | (lines & attacks::lance_pseudo(self.side, ksq) & k(PieceKind::Lance))
                };
                checkers |= sliders & ray & self.pieces(mover);
            }
        }
        checkers
    }

    /// Whether `piece` on `sq` attacks `target`. Sliders are tested by line and an empty
    /// in-between rather than by a full attack lookup.
    #[inline(always)]
    fn gives_direct_check(piece: Piece, sq: Square, target: Square, occupied: Bitboard) -> bool {
        let c = piece.color();
        let clear = || (attacks::between(sq, target) & occupied).is_empty();
        match piece.kind() {
            PieceKind::Pawn => attacks::pawn(c, sq).has(target),
            PieceKind::Knight => attacks::knight(c, sq).has(target),
            PieceKind::Silver => attacks::silver(c, sq).has(target),
            PieceKind::King => attacks::king(sq).has(target),
            PieceKind::Lance => attacks::lance_pseudo(c, sq).has(target) && clear(),
            PieceKind::Bishop => attacks::on_diagonal(sq, target) && clear(),
            PieceKind::Rook => attacks::on_straight(sq, target) && clear(),
            PieceKind::Horse => {
                attacks::king(sq).has(target) || (attacks::on_diagonal(sq, target) && clear())
            }
            PieceKind::Dragon => {
                attacks::king(sq).has(target) || (attacks::on_straight(sq, target) && clear())
            }
            _ => attacks::gold(c, sq).has(target),
        }
    }

    // -----------------------------------------------------------------------------------
    // Changing the position

    /// Places `piece` on the empty square `sq`, updating the key.
    #[inline(always)]
    fn put(&mut self, piece: Piece, sq: Square) {
        self.put_keyless(piece, sq);
        self.board_key ^= zobrist::piece_square(piece, sq);
    }

    /// Takes `piece` off `sq`, updating the key.
    #[inline(always)]
    fn remove(&mut self, piece: Piece, sq: Square) {
        self.remove_keyless(piece, sq);
        self.board_key ^= zobrist::piece_square(piece, sq);
    }

    /// `put` without the key update, for `undo`, which restores the saved key.
    #[inline(always)]
    fn put_keyless(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = Some(piece);
        self.toggle_sets(piece, sq);
        self.counts[piece.color().index()] += 1 << COUNT_SHIFT[piece.kind().index()];
        self.toggle_part_keys(piece, sq);
    }

    /// `remove` without the key update, for `undo`.
    #[inline(always)]
    fn remove_keyless(&mut self, piece: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.toggle_sets(piece, sq);
        self.counts[piece.color().index()] -= 1 << COUNT_SHIFT[piece.kind().index()];
        self.toggle_part_keys(piece, sq);
    }

    /// Hashes `piece` on `sq` in or out of the placement keys it belongs to. Both ways
    /// are the same XOR, so `undo`'s piece moves restore them.
    #[inline(always)]
    fn toggle_part_keys(&mut self, piece: Piece, sq: Square) {
        toggle_part_keys(&mut self.part_keys, piece, sq);
    }

    /// The placement keys: where the pawns stand, the small pieces, and each side's other
    /// pieces (indexed by [`PART_PAWNS`], [`PART_SMALL`], [`PART_OWN`] + colour).
    #[inline]
    pub fn part_keys(&self) -> [u64; PART_KEYS] {
        self.part_keys
    }

    /// The placement keys computed from the board (tests compare them with the kept ones).
    pub fn part_keys_from_scratch(&self) -> [u64; PART_KEYS] {
        let mut keys = [0; PART_KEYS];
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                toggle_part_keys(&mut keys, p, sq);
            }
        }
        keys
    }

    /// Flips `sq` in the colour and kind sets of `piece`.
    #[inline(always)]
    fn toggle_sets(&mut self, piece: Piece, sq: Square) {
        let bit = Bitboard::from_square(sq);
        self.sets.toggle(piece.color().index(), bit);
        self.sets.toggle(KIND_SETS + piece.kind().index(), bit);
    }

    /// Plays a move known to be legal (from the generator, or checked with
    /// [`Position::is_legal`]). An illegal move leaves the position inconsistent.
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.side;
        let mut state = StateInfo {
            board_key: self.board_key,
            hand_key: self.hand_key,
            checkers: self.checkers,
            mv,
            captured: None,
        };
        let to = mv.to();
        let mut occupied = self.occupied() | Bitboard::from_square(to);
        let (moved, from) = match mv.drop_kind() {
            Some(kind) => {
                self.hands[us.index()].remove(kind);
                self.hand_key = self.hand_key.wrapping_sub(zobrist::hand(us, kind));
                let piece = Piece::new(us, kind);
                self.put(piece, to);
                (piece, None)
            }
            None => {
                let from = mv.origin_unchecked();
                let piece = self.board[from.index()].expect("a piece on the origin square");
                if let Some(captured) = self.board[to.index()] {
                    let kind = captured.kind().unpromoted();
                    self.remove(captured, to);
                    self.hands[us.index()].add(kind);
                    self.hand_key = self.hand_key.wrapping_add(zobrist::hand(us, kind));
                    state.captured = Some(captured);
                }
                self.remove(piece, from);
                let moved = if mv.is_promotion() {
                    Piece::new(us, piece.kind().promoted())
                } else {
                    piece
                };
                self.put(moved, to);
                if piece.kind() == PieceKind::King {
                    self.king[us.index()] = Some(to);
                }
                occupied ^= Bitboard::from_square(from);
                (moved, Some(from))
            }
        };
        self.history.push(state);
        self.side = !us;
        self.board_key ^= zobrist::side();
        self.ply += 1;
        self.checkers = self.checkers_after(moved, from, to, occupied);
        debug_assert_eq!(self.checkers, self.compute_checkers());
    }

    /// The key [`Position::key`] will have after the legal move `mv`, without playing it:
    /// the search fetches the child's table entry while it makes the move.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (board_key, hand_key) = self.keys_after(mv);
        board_key ^ hand_key
    }

    /// The key [`Position::board_key`] will have after the legal move `mv`.
    #[inline]
    pub fn board_key_after(&self, mv: Move) -> u64 {
        self.keys_after(mv).0
    }

    /// The board and hand parts of the key after the legal move `mv`.
    #[inline]
    fn keys_after(&self, mv: Move) -> (u64, u64) {
        let us = self.side;
        let to = mv.to();
        let mut board_key = self.board_key ^ zobrist::side();
        let mut hand_key = self.hand_key;
        match mv.drop_kind() {
            Some(kind) => {
                hand_key = hand_key.wrapping_sub(zobrist::hand(us, kind));
                board_key ^= zobrist::piece_square(Piece::new(us, kind), to);
            }
            None => {
                let from = mv.origin_unchecked();
                let Some(piece) = self.board[from.index()] else {
                    return (self.board_key, self.hand_key);
                };
                if let Some(captured) = self.board[to.index()] {
                    board_key ^= zobrist::piece_square(captured, to);
                    let kind = captured.kind().unpromoted();
                    hand_key = hand_key.wrapping_add(zobrist::hand(us, kind));
                }
                let moved = if mv.is_promotion() {
                    Piece::new(us, piece.kind().promoted())
                } else {
                    piece
                };
                board_key ^= zobrist::piece_square(piece, from) ^ zobrist::piece_square(moved, to);
            }
        }
        (board_key, hand_key)
    }

    /// Passes the turn (a "null move", for null-move pruning). Only legal when the side to
    /// move is not in check. It is not recorded in the history, so repetition detection
    /// never looks across it; [`Position::undo_null`] takes it back.
    #[inline]
    pub fn play_null(&mut self) {
        debug_assert!(self.checkers.is_empty());
        self.side = !self.side;
        self.board_key ^= zobrist::side();
    }

    /// Takes back [`Position::play_null`].
    #[inline]
    pub fn undo_null(&mut self) {
        self.side = !self.side;
        self.board_key ^= zobrist::side();
        self.checkers = Bitboard::EMPTY;
    }

    /// Whether the legal move `mv` gives check: directly with the moved piece, or by
    /// uncovering a slider of the mover's aimed at the enemy king.
    #[inline]
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.side;
        let Some(ksq) = self.king[(!us).index()] else {
            return false;
        };
        let to = mv.to();
        let occupied = self.occupied();
        match mv.drop_kind() {
            Some(kind) => Self::gives_direct_check(Piece::new(us, kind), to, ksq, occupied),
            None => {
                let from = mv.origin_unchecked();
                let piece = self.board[from.index()].expect("a piece on the origin square");
                let moved = if mv.is_promotion() {
                    Piece::new(us, piece.kind().promoted())
                } else {
                    piece
                };
                let after = (occupied ^ Bitboard::from_square(from)) | Bitboard::from_square(to);
                if Self::gives_direct_check(moved, to, ksq, after) {
                    return true;
                }
                // A discovered check needs the origin on a line through the king: most
                // origins are not, which spares the search for the blockers.
                let line = attacks::line(ksq, from);
                line.is_nonempty() && !line.has(to) && self.blockers_for_king(!us).has(from)
            }
        }
    }

    /// The piece a move puts on its destination (after promotion), for move ordering.
    #[inline]
    pub fn moved_piece_after(&self, mv: Move) -> Piece {
        match mv.drop_kind() {
            Some(kind) => Piece::new(self.side, kind),
            None => {
                let piece = self.board[mv.origin_unchecked().index()].expect("a piece to move");
                if mv.is_promotion() {
                    Piece::new(self.side, piece.kind().promoted())
                } else {
                    piece
                }
            }
        }
    }

    /// Takes back the last move played. Returns it, or `None` when there is no history.
    pub fn undo(&mut self) -> Option<Move> {
        let state = self.history.pop()?;
        let us = !self.side;
        let mv = state.mv;
        let to = mv.to();
        let moved = self.board[to.index()].expect("the moved piece on its destination");
        self.remove_keyless(moved, to);
        match mv.drop_kind() {
            Some(kind) => self.hands[us.index()].add(kind),
            None => {
                let from = mv.origin_unchecked();
                let piece = if mv.is_promotion() {
                    Piece::new(us, moved.kind().unpromoted())
                } else {
                    moved
                };
                self.put_keyless(piece, from);
                if piece.kind() == PieceKind::King {
                    self.king[us.index()] = Some(from);
                }
                if let Some(captured) = state.captured {
                    self.put_keyless(captured, to);
                    self.hands[us.index()].remove(captured.kind().unpromoted());
                }
            }
        }
        self.side = us;
        self.ply -= 1;
        self.board_key = state.board_key;
        self.hand_key = state.hand_key;
        self.checkers = state.checkers;
        Some(mv)
    }

    /// Plays a legal move; panics on an illegal one. Use [`Position::try_play`] for moves
    /// from untrusted input.
    pub fn play(&mut self, mv: Move) {
        if let Err(e) = self.try_play(mv) {
            panic!("illegal move {mv}: {e}");
        }
    }

    /// Plays `mv` if it is legal here, or says which rule it breaks.
    pub fn try_play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.check_move(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Recomputes the key from scratch (tests compare it with the incremental one).
    pub fn key_from_scratch(&self) -> u64 {
        let mut board_key = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                board_key ^= zobrist::piece_square(p, sq);
            }
        }
        if self.side == Color::White {
            board_key ^= zobrist::side();
        }
        board_key ^ Self::hand_key_of(&self.hands)
    }

    fn hand_key_of(hands: &[Hand; 2]) -> u64 {
        let mut key = 0u64;
        for c in Color::ALL {
            for kind in PieceKind::HAND {
                let n = hands[c.index()].count(kind) as u64;
                key = key.wrapping_add(n.wrapping_mul(zobrist::hand(c, kind)));
            }
        }
        key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_fields_hold_every_count_apart() {
        // Each kind's field is wide enough for its most pieces and overlaps no other.
        let width = |kind: usize| if kind == 1 || kind == 9 { 5 } else { 3 };
        let mut used = 0u64;
        for (kind, &shift) in COUNT_SHIFT.iter().enumerate().skip(1) {
            let field = ((1u64 << width(kind)) - 1) << shift;
            assert_eq!(used & field, 0, "kind {kind} overlaps");
            used |= field;
        }
    }

    /// `piece_counts` against the pieces counted on the board, along pseudo-random
    /// playouts with captures, promotions and drops, and back again by `undo`.
    #[test]
    fn piece_counts_follow_the_board() {
        let recount = |pos: &Position, color: Color| {
            PieceKind::ALL
                .into_iter()
                .map(|kind| {
                    (pos.pieces_of(color, kind).count() as u64) << COUNT_SHIFT[kind.index()]
                })
                .sum::<u64>()
        };
        let mut rng = crate::rng::Rng::from_state(0x9e37_79b9_7f4a_7c15);
        for start in [
            STARTPOS_SFEN,
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        ] {
            let mut pos: Position = start.parse().unwrap();
            let mut seen = Vec::new();
            for _ in 0..300 {
                let counts = Color::ALL.map(|c| pos.piece_counts(c));
                assert_eq!(counts, Color::ALL.map(|c| recount(&pos, c)), "{pos}");
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seen.push(counts);
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
            }
            assert!(
                seen.windows(2).any(|w| w[0] != w[1]),
                "material never changed"
            );
            while pos.undo().is_some() {
                let counts = seen.pop().expect("one count a move");
                assert_eq!(Color::ALL.map(|c| pos.piece_counts(c)), counts, "{pos}");
            }
            assert_eq!(
                pos.to_string(),
                start.parse::<Position>().unwrap().to_string()
            );
        }
    }

    /// `step_attacks` against the union of each stepping piece's own attack table,
    /// `all_attackers_to` against both sides' `attackers_to`, `attacks_by` against
    /// `is_attacked` on every square, and `key_after` against the
    /// key after the move, along pseudo-random playouts with promotions and drops.
    #[test]
    fn shortcuts_match_the_long_way_round() {
        let mut rng = crate::rng::Rng::from_state(0x2545_f491_4f6c_dd1d);
        for start in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        ] {
            let mut pos: Position = start.parse().unwrap();
            for _ in 0..400 {
                for color in Color::ALL {
                    let mut expected = Bitboard::EMPTY;
                    for sq in pos.pieces(color) {
                        let piece = pos.piece_at(sq).unwrap();
                        expected |= match piece.kind() {
                            PieceKind::King | PieceKind::Lance => Bitboard::EMPTY,
                            PieceKind::Bishop | PieceKind::Rook => Bitboard::EMPTY,
                            PieceKind::Horse | PieceKind::Dragon => attacks::king(sq),
                            _ => Position::piece_attacks(piece, sq, pos.occupied()),
                        };
                    }
                    assert_eq!(pos.step_attacks(color), expected, "{color} in {pos}");
                }
                let occupied = pos.occupied();
                let attacked = Color::ALL.map(|color| pos.attacks_by(color));
                for sq in Square::all() {
                    let both = pos.attackers_to(Color::Black, sq, occupied)
                        | pos.attackers_to(Color::White, sq, occupied);
                    assert_eq!(pos.all_attackers_to(sq, occupied), both, "{sq} in {pos}");
                    for color in Color::ALL {
                        assert_eq!(
                            attacked[color.index()].has(sq),
                            pos.is_attacked(color, sq, occupied),
                            "{color} on {sq} in {pos}"
                        );
                    }
                }
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &mv in moves.iter() {
                    let predicted = pos.key_after(mv);
                    pos.play_unchecked(mv);
                    assert_eq!(predicted, pos.key(), "{mv}");
                    pos.undo();
                }
                pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
        }
    }
}
