//! Legal move generation.
//!
//! Moves are generated legal, not pseudo-legal: pinned pieces move only along their pin
//! line, the king only to squares the enemy does not attack, and in check only moves that
//! capture the checker or block its line are made. The one rule needing a look-ahead,
//! uchifuzume (a pawn drop that mates is illegal), is tested for the single square where
//! a pawn drop can give check.
//!
//! [`Position::count_legal`] counts the same moves without listing them, with popcounts
//! over the target sets; perft uses it at the last ply ("bulk counting").

use super::Position;
use crate::attacks;
use crate::types::{Bitboard, Color, Move, MoveList, Piece, PieceKind, Square};

/// Which legal moves to generate. `Captures` and `Quiets` split the legal moves in two:
/// every legal move is in exactly one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenType {
    /// Every legal move.
    Legal,
    /// Captures (promoting or not) and non-capturing promotions.
    Captures,
    /// Everything else: non-capturing moves without promotion, and drops.
    Quiets,
    /// Every legal move of a side in check (the same set as `Legal` there).
    Evasions,
    /// Every legal board move that gives check (the mate solver's attacking moves; it
    /// makes its checking drops itself).
    BoardChecks,
}

const ALL: u8 = 0;
const CAPTURES: u8 = 1;
const QUIETS: u8 = 2;
const CHECKS: u8 = 3;

/// Squares where a piece of `kind` must promote on arrival (no non-promotion exists).
#[inline(always)]
pub(super) fn must_promote(kind: PieceKind, us: Color) -> Bitboard {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => Bitboard::far_ranks(us, 1),
        PieceKind::Knight => Bitboard::far_ranks(us, 2),
        _ => Bitboard::EMPTY,
    }
}

/// Destinations where a promotable piece moving from `from` may promote.
#[inline(always)]
fn promotion_squares(us: Color, from: Square) -> Bitboard {
    let zone = Bitboard::far_ranks(us, 3);
    if zone.has(from) {
        Bitboard::ALL
    } else {
        zone
    }
}

/// Target sets for one generation pass: destinations where both the promotion and the
/// plain move are wanted, where only the promotion is, and where only the plain move is.
#[derive(Clone, Copy)]
struct Targets {
    both: Bitboard,
    promote_only: Bitboard,
    plain_only: Bitboard,
}

impl Targets {
    #[inline(always)]
    fn any(&self) -> Bitboard {
        self.both | self.promote_only | self.plain_only
    }
}

/// Pushes the moves of a `kind` piece from `from` to the squares of `attacks`.
#[inline(always)]
fn push_piece_moves(
    list: &mut MoveList,
    us: Color,
    kind: PieceKind,
    from: Square,
    attacks: Bitboard,
    t: &Targets,
) {
    if !kind.can_promote() {
        for to in attacks & (t.both | t.plain_only) {
            list.push(Move::new(from, to, false));
        }
        return;
    }
    let promos = attacks & (t.both | t.promote_only) & promotion_squares(us, from);
    for to in promos {
        list.push(Move::new(from, to, true));
    }
    let plain = attacks & (t.both | t.plain_only) & !must_promote(kind, us);
    for to in plain {
        list.push(Move::new(from, to, false));
    }
}

/// How many moves a `kind` piece has from `from` to the squares of `attacks` (all legal
/// destinations, both promotion choices counted).
#[inline(always)]
fn count_piece_moves(us: Color, kind: PieceKind, from: Square, attacks: Bitboard) -> usize {
    if !kind.can_promote() {
        return attacks.count() as usize;
    }
    ((attacks & promotion_squares(us, from)).count() + (attacks & !must_promote(kind, us)).count())
        as usize
}

impl Position {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(GenType::Legal, &mut list);
        list
    }

    /// Appends the legal moves of the requested kind to `list`.
    pub fn generate(&self, gen: GenType, list: &mut MoveList) {
        match gen {
            GenType::Legal | GenType::Evasions => self.generate_impl::<ALL>(list),
            GenType::Captures => self.generate_impl::<CAPTURES>(list),
            GenType::Quiets => self.generate_impl::<QUIETS>(list),
            GenType::BoardChecks => {
                let start = list.len();
                self.generate_impl::<CHECKS>(list);
                // The candidates may include moves that do not check (a promotion
                // choice, a piece moving along the line it uncovers): keep the checks,
                // in the order generated.
                let mut kept = start;
                for i in start..list.len() {
                    let mv = list[i];
                    if self.gives_check(mv) {
                        list[kept] = mv;
                        kept += 1;
                    }
                }
                list.truncate(kept);
            }
        }
    }

    /// The squares the side to move may play to without leaving its king in check:
    /// everywhere when not in check; the checker and the squares between it and the king
    /// under a single check; `None` under a double check (only the king may move).
    #[inline(always)]
    pub(super) fn check_mask(&self) -> Option<Bitboard> {
        if self.checkers.is_empty() {
            return Some(Bitboard::ALL);
        }
        if self.checkers.has_more_than_one() {
            return None;
        }
        let checker = self.checkers.lsb_unchecked();
        match self.king[self.side.index()] {
            Some(ksq) => Some(attacks::between(ksq, checker) | self.checkers),
            None => Some(Bitboard::ALL),
        }
    }

    /// Legal king destinations among `targets`.
    #[inline(always)]
    fn king_destinations(&self, ksq: Square, targets: Bitboard) -> Bitboard {
        let them = !self.side;
        // The king leaves its square, so sliders see through it (an evasion along the
        // checking line stays in check).
        let occupied = self.occupied() ^ Bitboard::from_square(ksq);
        let mut legal = Bitboard::EMPTY;
        for to in attacks::king(ksq) & targets {
            if !self.is_attacked(them, to, occupied) {
                legal |= Bitboard::from_square(to);
            }
        }
        legal
    }

    fn generate_impl<const MODE: u8>(&self, list: &mut MoveList) {
        let us = self.side;
        let them = !us;
        let own = self.pieces(us);
        let enemy = self.pieces(them);
        let occupied = own | enemy;
        let empty = !occupied;

        // Checks only: the squares from which each piece could give check, and the pieces
        // that uncover a check by moving (they may go anywhere).
        let (their_king, discoverers) = if MODE == CHECKS {
            let Some(k) = self.king[them.index()] else {
                return;
            };
            (k, self.blockers_for_king(them) & own)
        } else {
            (Square::from_index_unchecked(0), Bitboard::EMPTY)
        };
        let checking = |from: Square, kind: PieceKind| -> Bitboard {
            if MODE != CHECKS || discoverers.has(from) {
                return Bitboard::ALL;
            }
            // A piece of ours on `to` attacks their king exactly when the same piece of
            // theirs on the king's square would attack `to`; the origin is vacated.
            let after = occupied ^ Bitboard::from_square(from);
            let mut squares = Self::piece_attacks(Piece::new(them, kind), their_king, after);
            if kind.can_promote() {
                squares |=
                    Self::piece_attacks(Piece::new(them, kind.promoted()), their_king, after);
            }
            squares
        };

        let king_targets = match MODE {
            ALL => !own,
            CHECKS => match self.king[us.index()] {
                Some(k) if discoverers.has(k) => !own,
                _ => Bitboard::EMPTY,
            },
            CAPTURES => enemy,
            _ => empty,
        };
        let ksq = self.king[us.index()];
        if let Some(ksq) = ksq {
            for to in self.king_destinations(ksq, king_targets) {
                list.push(Move::new(ksq, to, false));
            }
        }
        let Some(mask) = self.check_mask() else {
            return;
        };
        let t = match MODE {
            ALL | CHECKS => Targets {
                both: !own & mask,
                promote_only: Bitboard::EMPTY,
                plain_only: Bitboard::EMPTY,
            },
            CAPTURES => Targets {
                both: enemy & mask,
                promote_only: empty & mask,
                plain_only: Bitboard::EMPTY,
            },
            _ => Targets {
                both: Bitboard::EMPTY,
                promote_only: Bitboard::EMPTY,
                plain_only: empty & mask,
            },
        };
        let pinned = self.pinned();
        let free = own & !pinned;

        // Pawns all at once: shift forward, then walk the destinations.
        let pawns = free & self.pieces_of_kind(PieceKind::Pawn);
        let mut pawn_to = pawns.forward(us) & t.any();
        if MODE == CHECKS {
            let direct =
                Self::piece_attacks(Piece::new(them, PieceKind::Pawn), their_king, occupied)
                    | Self::piece_attacks(
                        Piece::new(them, PieceKind::ProPawn),
                        their_king,
                        occupied,
                    );
            pawn_to &= direct | (pawns & discoverers).forward(us);
        }
        let back = |to: Square| match us {
            Color::Black => Square::from_index_unchecked(to.index() + 1),
            Color::White => Square::from_index_unchecked(to.index() - 1),
        };
        for to in pawn_to & (t.both | t.promote_only) & Bitboard::far_ranks(us, 3) {
            list.push(Move::new(back(to), to, true));
        }
        for to in pawn_to & (t.both | t.plain_only) & !Bitboard::far_ranks(us, 1) {
            list.push(Move::new(back(to), to, false));
        }

        let k = |kind: PieceKind| self.pieces_of_kind(kind);
        let targets = t.any();
        for from in free & k(PieceKind::Lance) {
            let a = attacks::lance(us, from, occupied) & targets & checking(from, PieceKind::Lance);
            push_piece_moves(list, us, PieceKind::Lance, from, a, &t);
        }
        for from in free & k(PieceKind::Knight) {
            let a = attacks::knight(us, from) & targets & checking(from, PieceKind::Knight);
            push_piece_moves(list, us, PieceKind::Knight, from, a, &t);
        }
        for from in free & k(PieceKind::Silver) {
            let a = attacks::silver(us, from) & targets & checking(from, PieceKind::Silver);
            push_piece_moves(list, us, PieceKind::Silver, from, a, &t);
        }
        for from in free & self.gold_movers() {
            let a = attacks::gold(us, from) & targets & checking(from, PieceKind::Gold);
            push_piece_moves(list, us, PieceKind::Gold, from, a, &t);
        }
        for from in free & k(PieceKind::Bishop) {
            let a = attacks::bishop(from, occupied) & targets & checking(from, PieceKind::Bishop);
            push_piece_moves(list, us, PieceKind::Bishop, from, a, &t);
        }
        for from in free & k(PieceKind::Rook) {
            let a = attacks::rook(from, occupied) & targets & checking(from, PieceKind::Rook);
            push_piece_moves(list, us, PieceKind::Rook, from, a, &t);
        }
        for from in free & k(PieceKind::Horse) {
            let a = attacks::horse(from, occupied) & targets & checking(from, PieceKind::Horse);
            push_piece_moves(list, us, PieceKind::Horse, from, a, &t);
        }
        for from in free & k(PieceKind::Dragon) {
            let a = attacks::dragon(from, occupied) & targets & checking(from, PieceKind::Dragon);
            push_piece_moves(list, us, PieceKind::Dragon, from, a, &t);
        }
        if let Some(ksq) = ksq {
            for from in pinned {
                let piece = self.board[from.index()].expect("pinned piece on the board");
                let a = Self::piece_attacks(piece, from, occupied)
                    & attacks::line(ksq, from)
                    & targets
                    & checking(from, piece.kind());
                push_piece_moves(list, us, piece.kind(), from, a, &t);
            }
        }

        if MODE == ALL || MODE == QUIETS {
            // In check, `mask & empty` is the squares between the king and the checker.
            self.generate_drops(list, mask & empty);
        }
    }

    /// Squares among `targets` where the side to move may drop a piece of `kind` (a
    /// hand kind): not where it could never move again, and for a pawn the rules of
    /// [`Position::pawn_drop_squares`] too.
    pub(crate) fn drop_squares(&self, kind: PieceKind, targets: Bitboard) -> Bitboard {
        match kind {
            PieceKind::Pawn => self.pawn_drop_squares(targets),
            _ => targets & !must_promote(kind, self.side),
        }
    }

    /// Squares where a pawn of the side to move may be dropped among `targets`: not on the
    /// last rank, not on a file holding one of its unpromoted pawns, and not the pawn drop
    /// that would mate (uchifuzume).
    #[inline(always)]
    fn pawn_drop_squares(&self, targets: Bitboard) -> Bitboard {
        let us = self.side;
        let pawns = self.pieces_of(us, PieceKind::Pawn);
        let mut squares = targets & !Bitboard::far_ranks(us, 1) & !pawns.fill_files();
        if let Some(eksq) = self.king[(!us).index()] {
            // The one square where a pawn checks the enemy king.
            let front = attacks::pawn(!us, eksq);
            if (squares & front).is_nonempty() && self.is_pawn_drop_mate(front.lsb_unchecked()) {
                squares ^= front;
            }
        }
        squares
    }

    fn generate_drops(&self, list: &mut MoveList, targets: Bitboard) {
        let us = self.side;
        let hand = self.hands[us.index()];
        if hand.is_empty() || targets.is_empty() {
            return;
        }
        if hand.count(PieceKind::Pawn) > 0 {
            for to in self.pawn_drop_squares(targets) {
                list.push(Move::drop(PieceKind::Pawn, to));
            }
        }
        if hand.count(PieceKind::Lance) > 0 {
            for to in targets & !Bitboard::far_ranks(us, 1) {
                list.push(Move::drop(PieceKind::Lance, to));
            }
        }
        if hand.count(PieceKind::Knight) > 0 {
            for to in targets & !Bitboard::far_ranks(us, 2) {
                list.push(Move::drop(PieceKind::Knight, to));
            }
        }
        let mut others = [PieceKind::Silver; 4];
        let mut n = 0;
        for kind in [
            PieceKind::Silver,
            PieceKind::Gold,
            PieceKind::Bishop,
            PieceKind::Rook,
        ] {
            if hand.count(kind) > 0 {
                others[n] = kind;
                n += 1;
            }
        }
        if n > 0 {
            for to in targets {
                for &kind in &others[..n] {
                    list.push(Move::drop(kind, to));
                }
            }
        }
    }

    /// Whether dropping a pawn of the side to move on `to` (the square in front of the enemy
    /// king) would checkmate: no enemy piece can capture it and the king cannot step away.
    pub(crate) fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side;
        let them = !us;
        let Some(ksq) = self.king[them.index()] else {
            return false;
        };
        let occupied = self.occupied() | Bitboard::from_square(to);
        let king_bit = Bitboard::from_square(ksq);
        // Another defender captures the pawn. Pins are those before the drop: the pawn only
        // adds a piece in front of the king, so a piece pinned along that file may still
        // take it, which the line test allows.
        let defenders = self.attackers_to(them, to, occupied) & !king_bit;
        if defenders.is_nonempty() {
            let pinned = self.blockers_for_king(them) & self.pieces(them);
            for d in defenders {
                if !pinned.has(d) || attacks::line(ksq, d).has(to) {
                    return false;
                }
            }
        }
        // The king takes the pawn or steps to a square the attacker does not control.
        let without_king = occupied ^ king_bit;
        for s in attacks::king(ksq) & !self.pieces(them) {
            if !self.is_attacked(us, s, without_king) {
                return false;
            }
        }
        true
    }

    /// Whether the side to move has any legal move. Tries king steps one by one first,
    /// which answers most positions (a mate test after a check) without counting.
    pub fn has_legal_move(&self) -> bool {
        if let Some(ksq) = self.king[self.side.index()] {
            let them = !self.side;
            let occupied = self.occupied() ^ Bitboard::from_square(ksq);
            for to in attacks::king(ksq) & !self.pieces(self.side) {
                if !self.is_attacked(them, to, occupied) {
                    return true;
                }
            }
        }
        self.count_legal_inline() > 0
    }

    /// Counts the legal moves without listing them (bulk counting for perft).
    pub fn count_legal(&self) -> usize {
        self.count_legal_inline()
    }

    /// [`Position::count_legal`], inlined into its caller so that a caller compiled for
    /// more CPU features (hardware popcount, see `perft`) counts with them too.
    #[inline(always)]
    pub(crate) fn count_legal_inline(&self) -> usize {
        self.count_legal_impl::<false>()
    }

    /// The number of legal moves, with the drops onto one square counted once whatever
    /// the kind dropped. The mate solver's estimate of how many defences a check leaves:
    /// interpositions of different pieces on one square usually fall the same way.
    pub fn count_legal_grouping_drops(&self) -> usize {
        self.count_legal_impl::<true>()
    }

    #[inline(always)]
    fn count_legal_impl<const GROUP_DROPS: bool>(&self) -> usize {
        let us = self.side;
        let own = self.pieces(us);
        let occupied = self.occupied();
        let empty = !occupied;
        let ksq = self.king[us.index()];
        let mut count = 0usize;
        if let Some(ksq) = ksq {
            count += self.king_destinations(ksq, !own).count() as usize;
        }
        let Some(mask) = self.check_mask() else {
            return count;
        };
        let targets = !own & mask;
        let pinned = self.pinned();
        let free = own & !pinned;
        let k = |kind: PieceKind| self.pieces_of_kind(kind);

        let pawn_to = (free & k(PieceKind::Pawn)).forward(us) & targets;
        count += ((pawn_to & Bitboard::far_ranks(us, 3)).count()
            + (pawn_to & !Bitboard::far_ranks(us, 1)).count()) as usize;
        for from in free & k(PieceKind::Lance) {
            let a = attacks::lance(us, from, occupied) & targets;
            count += count_piece_moves(us, PieceKind::Lance, from, a);
        }
        for from in free & k(PieceKind::Knight) {
            let a = attacks::knight(us, from) & targets;
            count += count_piece_moves(us, PieceKind::Knight, from, a);
        }
        for from in free & k(PieceKind::Silver) {
            let a = attacks::silver(us, from) & targets;
            count += count_piece_moves(us, PieceKind::Silver, from, a);
        }
        for from in free & self.gold_movers() {
            count += (attacks::gold(us, from) & targets).count() as usize;
        }
        for from in free & k(PieceKind::Bishop) {
            let a = attacks::bishop(from, occupied) & targets;
            count += count_piece_moves(us, PieceKind::Bishop, from, a);
        }
        for from in free & k(PieceKind::Rook) {
            let a = attacks::rook(from, occupied) & targets;
            count += count_piece_moves(us, PieceKind::Rook, from, a);
        }
        for from in free & k(PieceKind::Horse) {
            count += (attacks::horse(from, occupied) & targets).count() as usize;
        }
        for from in free & k(PieceKind::Dragon) {
            count += (attacks::dragon(from, occupied) & targets).count() as usize;
        }
        if let Some(ksq) = ksq {
            for from in pinned {
                let piece = self.board[from.index()].expect("pinned piece on the board");
                let a =
                    Self::piece_attacks(piece, from, occupied) & attacks::line(ksq, from) & targets;
                count += count_piece_moves(us, piece.kind(), from, a);
            }
        }

        let hand = self.hands[us.index()];
        if !hand.is_empty() {
            let drop_targets = empty & mask;
            if GROUP_DROPS {
                let squares = PieceKind::HAND
                    .into_iter()
                    .filter(|&kind| hand.count(kind) > 0)
                    .fold(Bitboard::EMPTY, |squares, kind| {
                        squares | self.drop_squares(kind, drop_targets)
                    });
                return count + squares.count() as usize;
            }
            if hand.count(PieceKind::Pawn) > 0 {
                count += self.pawn_drop_squares(drop_targets).count() as usize;
            }
            if hand.count(PieceKind::Lance) > 0 {
                count += (drop_targets & !Bitboard::far_ranks(us, 1)).count() as usize;
            }
            if hand.count(PieceKind::Knight) > 0 {
                count += (drop_targets & !Bitboard::far_ranks(us, 2)).count() as usize;
            }
            let others = [
                PieceKind::Silver,
                PieceKind::Gold,
                PieceKind::Bishop,
                PieceKind::Rook,
            ]
            .iter()
            .filter(|&&kind| hand.count(kind) > 0)
            .count();
            count += others * drop_targets.count() as usize;
        }
        count
    }
}
