//! The part of the evaluation read from the squares each side attacks: slider mobility,
//! the king's square, king safety, pieces under threat and the side to move. It is
//! recounted at every evaluation, since any move can change what attacks what.

use super::params::*;
use super::{sign_of, Sink};
use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, PieceKind, Square};

/// How many of one side's pieces attack each square, kings left out, counted up to three:
/// `at_least[n]` holds the squares more than `n` pieces attack. Counted set-wise: every map
/// added is one shift of a set of pieces (or one slider's attacks), so no map holds a
/// square twice.
#[derive(Clone, Copy, Default)]
struct AttackCounts {
    at_least: [Bitboard; 3],
}

impl AttackCounts {
    #[inline(always)]
    fn add(&mut self, attacks: Bitboard) {
        self.at_least[2] |= self.at_least[1] & attacks;
        self.at_least[1] |= self.at_least[0] & attacks;
        self.at_least[0] |= attacks;
    }

    /// How many attackers `sq` has, up to `cap` (at most 3).
    #[cfg(test)]
    fn on(&self, sq: Square, cap: usize) -> usize {
        self.at_least[..cap].iter().filter(|b| b.has(sq)).count()
    }

    /// Adds the one-step attacks of `color`'s pawns, knights, silvers and gold movers, one
    /// direction at a time (horses and dragons come in whole with the sliders).
    fn add_steps(&mut self, pos: &Position, color: Color) {
        let pawns = pos.pieces_of(color, PieceKind::Pawn);
        let knights = pos.pieces_of(color, PieceKind::Knight);
        let silvers = pos.pieces_of(color, PieceKind::Silver);
        let golds = pos.gold_movers() & pos.pieces(color);
        let ahead = (silvers | golds).forward(color);
        self.add(ahead | pawns.forward(color));
        self.add(ahead.next_file());
        self.add(ahead.previous_file());
        let behind = silvers.backward(color);
        self.add(behind.next_file());
        self.add(behind.previous_file());
        self.add(golds.backward(color));
        self.add(golds.next_file());
        self.add(golds.previous_file());
        let jump = knights.forward(color).forward(color);
        self.add(jump.next_file());
        self.add(jump.previous_file());
    }
}

/// Bits of a 45-bit window over five files ([`window`]) that make the 5 × 5 box around a
/// king on the middle file, by the king's rank; the king's own square is left out.
static BOX_WINDOW: [u64; 9] = box_window();

const fn box_window() -> [u64; 9] {
    let mut table = [0u64; 9];
    let mut king_rank = 0;
    while king_rank < 9 {
        let mut bits = 0u64;
        let mut df = 0;
        while df < 5 {
            let mut rank = 0;
            while rank < 9 {
                let near = rank + 2 >= king_rank && rank <= king_rank + 2;
                if near && !(df == 2 && rank == king_rank) {
                    bits |= 1 << (df * 9 + rank);
                }
                rank += 1;
            }
            df += 1;
        }
        table[king_rank] = bits;
        king_rank += 1;
    }
    table
}

/// The five files around `file` as 45 bits, bit `(df + 2) * 9 + rank` for the square `df`
/// files away: bit tests on one word instead of on the 128-bit board. Files off the
/// board read as empty.
#[inline(always)]
fn window(bb: Bitboard, file: usize) -> u64 {
    let bits = if file >= 2 {
        bb.0 >> ((file - 2) * 9)
    } else {
        bb.0 << ((2 - file) * 9)
    };
    bits as u64 & ((1 << 45) - 1)
}

/// Box square index (`rank offset * 5 + file offset`, both 0..5) by the king's owner, the
/// side the king stands on (0: files 1-4, 1: files 6-9, 2: the centre file) and the
/// square index difference plus 20 (`df * 9 + dr + 20`). Ranks are seen from the owner (lower = towards the
/// enemy); files count towards the edge nearer the king (on the centre file, either way).
static BOX_INDEX: [[[u8; 41]; 3]; 2] = box_index();

const fn box_index() -> [[[u8; 41]; 3]; 2] {
    let mut table = [[[0u8; 41]; 3]; 2];
    let mut owner = 0;
    while owner < 2 {
        let mut side = 0;
        while side < 3 {
            let mut df = -2i32;
            while df <= 2 {
                let mut dr = -2i32;
                while dr <= 2 {
                    let dy = if owner == 0 { dr } else { -dr };
                    let dx = match side {
                        0 => -df,
                        1 => df,
                        _ => df.abs(),
                    };
                    table[owner][side][(df * 9 + dr + 20) as usize] = ((dy + 2) * 5 + dx + 2) as u8;
                    dr += 1;
                }
                df += 1;
            }
            side += 1;
        }
        owner += 1;
    }
    table
}

/// The control terms of `color`'s king on `ksq`: one feature for every box square the
/// enemy attacks, by how hard it is attacked and defended and what stands there.
#[inline]
fn king_box<S: Sink>(
    pos: &Position,
    sink: &mut S,
    color: Color,
    ksq: Square,
    counts: &[AttackCounts; 2],
) {
    let them = !color;
    let (attack, defence) = (&counts[them.index()], &counts[color.index()]);
    let hand = pos.hand(them);
    let droppers = [
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];
    // The two lowest bits of the class: the enemy's drop pieces, and whose turn it is.
    let drops = droppers.iter().any(|&k| hand.count(k) > 0) as usize;
    let low_bits = drops * 2 + (pos.side_to_move() == them) as usize;
    let file = ksq.file().index();
    let side = match file {
        0..=3 => 0,
        4 => 2,
        _ => 1,
    };
    let index = &BOX_INDEX[color.index()][side];
    let rank = ksq.rank().index();
    let w = |bb: Bitboard| window(bb, file);
    let (a2, a3) = (w(attack.at_least[1]), w(attack.at_least[2]));
    let (d1, d2) = (w(defence.at_least[0]), w(defence.at_least[1]));
    let (ours, theirs) = (w(pos.pieces(color)), w(pos.pieces(them)));
    let sign = sign_of(color);
    let mut attacked = BOX_WINDOW[rank] & w(attack.at_least[0]);
    while attacked != 0 {
        let bit = attacked.trailing_zeros() as usize;
        attacked &= attacked - 1;
        let at = |bits: u64| ((bits >> bit) & 1) as usize;
        let occupant = at(ours) + 2 * at(theirs);
        let class = ((at(a2) + at(a3)) * 3 + at(d1) + at(d2)) * 3 + occupant;
        // The window bit is (df + 2) * 9 + rank, so df * 9 + dr + 20 = bit + 2 - king rank.
        let feature = index[bit + 2 - rank] as usize * CONTROL_CLASSES + class * 4 + low_bits;
        sink.add(CONTROL.start + feature, sign);
    }
}

/// How often each side attacks every square: the sliders' attacks, gathered with their
/// mobility features (one loop per kind, so no per-piece dispatch on the kind), then the
/// stepping pieces' set-wise.
#[inline]
fn attack_counts<S: Sink>(pos: &Position, sink: &mut S) -> [AttackCounts; 2] {
    let occupied = pos.occupied();
    let mut counts = [AttackCounts::default(); 2];
    for color in Color::ALL {
        let sign = sign_of(color);
        let own = pos.pieces(color);
        let count = &mut counts[color.index()];
        let mut mobility = |kind: PieceKind, attacks: Bitboard| {
            count.add(attacks);
            let n = (attacks & !own).count() as usize;
            sink.add(
                MOBILITY_TERM.start + kind.index() * MOBILITY + n.min(MOBILITY - 1),
                sign,
            );
        };
        for sq in pos.pieces_of(color, PieceKind::Lance) {
            mobility(PieceKind::Lance, attacks::lance(color, sq, occupied));
        }
        for sq in pos.pieces_of(color, PieceKind::Bishop) {
            mobility(PieceKind::Bishop, attacks::bishop(sq, occupied));
        }
        for sq in pos.pieces_of(color, PieceKind::Rook) {
            mobility(PieceKind::Rook, attacks::rook(sq, occupied));
        }
        for sq in pos.pieces_of(color, PieceKind::Horse) {
            mobility(PieceKind::Horse, attacks::horse(sq, occupied));
        }
        for sq in pos.pieces_of(color, PieceKind::Dragon) {
            mobility(PieceKind::Dragon, attacks::dragon(sq, occupied));
        }
        count.add_steps(pos, color);
    }
    counts
}

/// The threat terms of `color`'s pieces: those the enemy attacks and nothing defends, and
/// those an enemy pawn attacks, apart for whether their owner is to move (and so may
/// still save them).
#[inline]
fn threats<S: Sink>(pos: &Position, sink: &mut S, color: Color, counts: &[AttackCounts; 2]) {
    let them = !color;
    let own = pos.pieces(color) & !pos.pieces_of_kind(PieceKind::King);
    let attacked = own & counts[them.index()].at_least[0];
    if attacked.is_empty() {
        return;
    }
    let to_move = (pos.side_to_move() == color) as usize;
    let sign = sign_of(color);
    let loose = attacked & !counts[color.index()].at_least[0];
    let by_pawn = attacked & pos.pieces_of(them, PieceKind::Pawn).forward(them);
    for (how, pieces) in [loose, by_pawn].into_iter().enumerate() {
        for sq in pieces {
            let kind = pos.piece_at(sq).expect("an attacked piece").kind();
            sink.add(THREAT.start + (kind.index() * 2 + how) * 2 + to_move, sign);
        }
    }
}

/// The features that depend on attacks and the side to move: slider mobility, king
/// squares, king safety and tempo.
pub fn dynamic_features<S: Sink>(pos: &Position, sink: &mut S) {
    let occupied = pos.occupied();
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    let counts = attack_counts(pos, sink);
    let reach = [counts[0].at_least[0], counts[1].at_least[0]];
    for color in Color::ALL {
        let Some(ksq) = kings[color.index()] else {
            continue;
        };
        let sign = sign_of(color);
        let them = !color;
        let rank = ksq.rank().relative(color);
        let file = ksq.file().index().min(8 - ksq.file().index());
        sink.add(KING_SQUARE.start + rank * 5 + file, sign);

        let zone = attacks::king(ksq) | Bitboard::from_square(ksq);
        let enemy_king = kings[them.index()].map_or(Bitboard::EMPTY, attacks::king);
        let hit = (reach[them.index()] | enemy_king) & zone;
        // Our defenders, the king itself left out.
        let defended = reach[color.index()] & zone;
        let n = hit.count() as usize;
        let weak = (hit & !defended).count() as usize;
        let turn = (pos.side_to_move() == them) as usize;
        sink.add(ZONE_ATTACKED.start + turn * ZONE + n, sign);
        sink.add(ZONE_WEAK.start + turn * ZONE + weak, sign);
        let enemy_hand = pos.hand(them);
        for kind in PieceKind::HAND {
            if enemy_hand.count(kind) > 0 {
                sink.add(
                    HAND_THREAT.start + (turn * 8 + kind.index()) * ZONE + n,
                    sign,
                );
            }
        }
        let has = |kinds: [PieceKind; 2]| {
            enemy_hand.count(kinds[0]) > 0
                || (pos.pieces_of(them, kinds[0]) | pos.pieces_of(them, kinds[1])).is_nonempty()
        };
        if has([PieceKind::Rook, PieceKind::Dragon]) {
            let open = attacks::lance(color, ksq, occupied).count() as usize;
            sink.add(OPEN_FILE.start + open.min(8), sign);
        }
        if has([PieceKind::Bishop, PieceKind::Horse]) {
            let open = attacks::bishop(ksq, occupied).count() as usize;
            sink.add(OPEN_DIAGONAL.start + open.min(16), sign);
        }
        king_box(pos, sink, color, ksq, &counts);
    }
    for color in Color::ALL {
        threats(pos, sink, color, &counts);
    }
    sink.add(TEMPO.start, sign_of(pos.side_to_move()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_counts_match_the_attackers_of_each_square() {
        crate::attacks::init();
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
            "4k4/9/2+R1+B4/3G1S3/2N1L1N2/3+P1+S3/9/9/4K4 b - 1",
        ] {
            let pos: Position = sfen.parse().unwrap();
            let mut sink = Discard;
            let counts = attack_counts(&pos, &mut sink);
            for color in Color::ALL {
                let kings = pos.pieces_of(color, PieceKind::King);
                for sq in Square::all() {
                    let attackers = pos.attackers_to(color, sq, pos.occupied()) & !kings;
                    let expected = (attackers.count() as usize).min(3);
                    assert_eq!(
                        counts[color.index()].on(sq, 3),
                        expected,
                        "{sfen}: {color:?} on {sq}"
                    );
                }
            }
        }
    }

    /// Collects features as they come.
    struct List(Vec<(usize, i32)>);

    impl Sink for List {
        fn add(&mut self, index: usize, count: i32) {
            self.0.push((index, count));
        }
    }

    /// The control terms worked out square by square from files and ranks.
    fn king_box_the_long_way(
        pos: &Position,
        color: Color,
        counts: &[AttackCounts; 2],
    ) -> Vec<(usize, i32)> {
        let ksq = pos.king_square(color).unwrap();
        let them = !color;
        let hand = pos.hand(them);
        let drops = [
            PieceKind::Gold,
            PieceKind::Silver,
            PieceKind::Bishop,
            PieceKind::Rook,
        ]
        .iter()
        .any(|&k| hand.count(k) > 0) as usize;
        let to_move = (pos.side_to_move() == them) as usize;
        let (kf, kr) = (ksq.file().index() as i32, ksq.rank().index() as i32);
        let mut features = Vec::new();
        for sq in Square::all() {
            let (df, dr) = (sq.file().index() as i32 - kf, sq.rank().index() as i32 - kr);
            let a = counts[them.index()].on(sq, 3);
            if df.abs() > 2 || dr.abs() > 2 || sq == ksq || a == 0 {
                continue;
            }
            let dy = if color == Color::Black { dr } else { -dr };
            let dx = match kf {
                0..=3 => -df,
                4 => df.abs(),
                _ => df,
            };
            let d = counts[color.index()].on(sq, 2);
            let o = match pos.piece_at(sq) {
                None => 0,
                Some(p) if p.color() == color => 1,
                Some(_) => 2,
            };
            let class = ((a - 1) * 3 + d) * 3 + o;
            let rel = ((dy + 2) * 5 + dx + 2) as usize;
            features.push((
                CONTROL.start + rel * CONTROL_CLASSES + class * 4 + drops * 2 + to_move,
                sign_of(color),
            ));
        }
        features.sort();
        features
    }

    #[test]
    fn king_box_matches_the_long_way_round() {
        crate::attacks::init();
        for sfen in [
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
            "4k4/3s1g3/2+R1+B4/3G1S3/2N1L1N2/3+P1+S3/4n4/3g1p3/4K4 b 2Pg 1",
            "8l/1r3gk2/4+Bsnp1/p1p1ppp1p/3p5/P1P1P1P1P/1PSP1PN2/1KG3S2/LN2r3L w BG2Psnl 1",
            "k8/9/1G7/9/9/9/6g2/9/8K b - 1",
            "1k7/9/G8/9/9/9/8g/9/7K1 w - 1",
        ] {
            let pos: Position = sfen.parse().unwrap();
            let counts = attack_counts(&pos, &mut Discard);
            for color in Color::ALL {
                let mut fast = List(Vec::new());
                king_box(
                    &pos,
                    &mut fast,
                    color,
                    pos.king_square(color).unwrap(),
                    &counts,
                );
                fast.0.sort();
                let slow = king_box_the_long_way(&pos, color, &counts);
                assert!(
                    !slow.is_empty(),
                    "{sfen}: {color:?} has no attacked box square"
                );
                assert_eq!(fast.0, slow, "{sfen}: {color:?}");
            }
        }
    }

    struct Discard;

    impl Sink for Discard {
        fn add(&mut self, _: usize, _: i32) {}
    }
}
