//! Static evaluation: how good a position is for the side to move, in centipawns
//! (a pawn on the board is worth about 90).
//!
//! The evaluation is a weighted sum of features, all counted from Black's point of view:
//! - material on the board, and pieces in hand valued by how many of a kind are held;
//! - each piece's placement relative to its own king and to the enemy king (shogi
//!   evaluation is king-relative: a gold next to its king defends, one next to the enemy
//!   king attacks);
//! - the king's square, and king safety: squares next to the king the enemy attacks,
//!   those only the king defends, the enemy's hand pieces that could drop there, and open
//!   lines (file and diagonals) into the king;
//! - mobility of lances, bishops, rooks, horses and dragons;
//! - a bonus for the side to move.
//!
//! Because the sum is linear in the weights ([`params`]), the same walk over the position
//! serves three callers through [`Sink`]: the search (a running total), the `eval` command
//! (a breakdown by term) and the tuner (the feature counts themselves).

pub mod params;

use crate::attacks;
use crate::position::Position;
use crate::types::{Bitboard, Color, Move, PieceKind, Square};
use once_cell::sync::Lazy;
use params::*;
use std::fmt::Write as _;

/// The tuned weights shipped with the engine (`hayate tune` writes this file).
pub const SHIPPED_WEIGHTS: &str = include_str!("weights.txt");

/// The weights in use: the shipped tuned vector, or the starting weights when the file
/// does not match the layout (it is checked by a test, so that cannot ship).
static WEIGHTS: Lazy<Box<[i32]>> = Lazy::new(|| {
    params::parse(SHIPPED_WEIGHTS)
        .unwrap_or_else(params::initial)
        .into_boxed_slice()
});

/// The weights the evaluation uses.
pub fn weights() -> &'static [i32] {
    &WEIGHTS
}

/// Forces the weights to be built (for `isready`, so the first search does not pay).
pub fn init() {
    Lazy::force(&WEIGHTS);
}

/// Receives the features of a position: `count` times the feature `index` (negative
/// counts are White's).
pub trait Sink {
    fn add(&mut self, index: usize, count: i32);
}

/// Sums weight × count.
struct Total<'a> {
    weights: &'a [i32],
    sum: i32,
}

impl Sink for Total<'_> {
    #[inline(always)]
    fn add(&mut self, index: usize, count: i32) {
        self.sum += self.weights[index] * count;
    }
}

/// The evaluation of `pos` for the side to move.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The evaluation of `pos` for the side to move under the given weights (the tuner's).
pub fn evaluate_with(pos: &Position, weights: &[i32]) -> i32 {
    let mut total = Total { weights, sum: 0 };
    features(pos, &mut total);
    match pos.side_to_move() {
        Color::Black => total.sum,
        Color::White => -total.sum,
    }
}

/// [`rel_index`] for every owner, square and king square, so the evaluation looks the
/// offset up instead of dividing square indices into files and ranks. Built at compile
/// time: a lazily built table would test its "initialised" flag on every lookup.
static RELATIVE: [[[u8; 81]; 81]; 2] = relative_table();

const fn relative_table() -> [[[u8; 81]; 81]; 2] {
    let mut table = [[[0u8; 81]; 81]; 2];
    let mut owner = 0;
    while owner < 2 {
        let mut sq: usize = 0;
        while sq < 81 {
            let mut king: usize = 0;
            while king < 81 {
                // Square index = file * 9 + rank; White sees the ranks reversed.
                let (sq_rank, king_rank) = if owner == 0 {
                    ((sq % 9) as i32, (king % 9) as i32)
                } else {
                    (8 - (sq % 9) as i32, 8 - (king % 9) as i32)
                };
                let dx = (sq / 9).abs_diff(king / 9);
                table[owner][sq][king] = rel_index(dx, sq_rank - king_rank) as u8;
                king += 1;
            }
            sq += 1;
        }
        owner += 1;
    }
    table
}

/// Offset of a piece of `owner` on `sq` relative to the king on `king`, seen from `owner`.
#[inline(always)]
fn relative(owner: Color, sq: Square, king: Square) -> usize {
    RELATIVE[owner.index()][sq.index()][king.index()] as usize
}

/// Walks the position and reports every feature to `sink` (Black positive).
pub fn features<S: Sink>(pos: &Position, sink: &mut S) {
    placement_features(pos, sink);
    dynamic_features(pos, sink);
}

/// The placement part: material, hands and each piece relative to both kings. It
/// changes only with the pieces a move touches (unless a king moves), so the search keeps
/// it up to date move by move with [`placement_delta`].
pub fn placement_features<S: Sink>(pos: &Position, sink: &mut S) {
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    for color in Color::ALL {
        let sign = sign_of(color);
        for sq in pos.pieces(color) {
            let kind = pos
                .piece_at(sq)
                .expect("a piece on an occupied square")
                .kind();
            if kind != PieceKind::King {
                piece_features(sink, color, kind, sq, kings, sign);
            }
        }
        let hand = pos.hand(color);
        for kind in PieceKind::HAND {
            let n = hand.count(kind) as usize;
            if n > 0 {
                sink.add(HAND.start + kind.index() * HAND_COUNTS + n, sign);
            }
        }
    }
}

/// The placement features of one piece, times `sign` (Black +1, White -1; negated to
/// take the piece away).
#[inline(always)]
fn piece_features<S: Sink>(
    sink: &mut S,
    color: Color,
    kind: PieceKind,
    sq: Square,
    kings: [Option<Square>; 2],
    sign: i32,
) {
    let k = kind.index();
    let c = color.index();
    sink.add(MATERIAL.start + k, sign);
    if let Some(own) = kings[c] {
        sink.add(OWN_KING.start + k * REL + relative(color, sq, own), sign);
    }
    if let Some(enemy) = kings[1 - c] {
        sink.add(
            ENEMY_KING.start + k * REL + relative(color, sq, enemy),
            sign,
        );
    }
}

/// The placement score of `pos` (Black's view) under the shipped weights.
pub fn placement(pos: &Position) -> i32 {
    let mut total = Total {
        weights: &WEIGHTS,
        sum: 0,
    };
    placement_features(pos, &mut total);
    total.sum
}

/// How the placement score (Black's view) changes when the legal move `mv` is played in
/// `pos`; `None` only when a king is taken (a position no legal game reaches).
#[inline]
pub fn placement_delta(pos: &Position, mv: Move) -> Option<i32> {
    let w: &[i32] = &WEIGHTS;
    let mut total = Total { weights: w, sum: 0 };
    let us = pos.side_to_move();
    let sign = sign_of(us);
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    let hand_term = |kind: PieceKind, n: u32| -> i32 {
        w[HAND.start + kind.index() * HAND_COUNTS + n as usize]
    };
    match mv.drop_kind() {
        Some(kind) => {
            let n = pos.hand(us).count(kind);
            total.sum += sign * (hand_term(kind, n - 1) - hand_term(kind, n));
            piece_features(&mut total, us, kind, mv.to(), kings, sign);
        }
        None => {
            let from = mv.from().expect("a board move");
            let piece = pos.piece_at(from).expect("a piece to move");
            if piece.kind() == PieceKind::King {
                return king_move_delta(pos, from, mv.to());
            }
            piece_features(&mut total, us, piece.kind(), from, kings, -sign);
            let placed = if mv.is_promotion() {
                piece.kind().promoted()
            } else {
                piece.kind()
            };
            piece_features(&mut total, us, placed, mv.to(), kings, sign);
            total.sum += capture_delta(pos, mv.to(), kings)?;
        }
    }
    Some(total.sum)
}

/// How the placement score (Black's view) changes when the side to move takes whatever
/// stands on `to` into its hand (0 for an empty square; `None` for a king), with the kings
/// where they stand before the move.
fn capture_delta(pos: &Position, to: Square, kings: [Option<Square>; 2]) -> Option<i32> {
    let Some(captured) = pos.piece_at(to) else {
        return Some(0);
    };
    if captured.kind() == PieceKind::King {
        return None;
    }
    let w: &[i32] = &WEIGHTS;
    let us = pos.side_to_move();
    let sign = sign_of(us);
    let mut total = Total { weights: w, sum: 0 };
    piece_features(&mut total, !us, captured.kind(), to, kings, sign);
    let kind = captured.kind().unpromoted();
    let hand = HAND.start + kind.index() * HAND_COUNTS + pos.hand(us).count(kind) as usize;
    Some(total.sum + sign * (w[hand + 1] - w[hand]))
}

/// [`placement_delta`] for a king stepping from `from` to `to`: every piece's term
/// relative to that king changes (ours as "near own king", the opponent's as "near enemy
/// king"); the terms relative to the other king stay.
fn king_move_delta(pos: &Position, from: Square, to: Square) -> Option<i32> {
    let w: &[i32] = &WEIGHTS;
    let us = pos.side_to_move();
    let them = !us;
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    let taken = capture_delta(pos, to, kings)?;
    let own = pos.pieces(us) & !Bitboard::from_square(from);
    let mut ours = 0;
    for sq in own {
        let k = pos.piece_at(sq).expect("a piece").kind().index();
        let base = OWN_KING.start + k * REL;
        ours += w[base + relative(us, sq, to)] - w[base + relative(us, sq, from)];
    }
    let mut theirs = 0;
    for sq in pos.pieces(them) & !Bitboard::from_square(to) {
        let k = pos.piece_at(sq).expect("a piece").kind().index();
        let base = ENEMY_KING.start + k * REL;
        theirs += w[base + relative(them, sq, to)] - w[base + relative(them, sq, from)];
    }
    Some(taken + sign_of(us) * ours + sign_of(them) * theirs)
}

/// The evaluation for the side to move, given the placement score kept by the search.
#[inline]
pub fn evaluate_from(pos: &Position, placement: i32) -> i32 {
    let mut total = Total {
        weights: &WEIGHTS,
        sum: placement,
    };
    dynamic_features(pos, &mut total);
    match pos.side_to_move() {
        Color::Black => total.sum,
        Color::White => -total.sum,
    }
}

/// The features that depend on attacks and the side to move: slider mobility, king
/// squares, king safety and tempo.
pub fn dynamic_features<S: Sink>(pos: &Position, sink: &mut S) {
    let occupied = pos.occupied();
    let kings = [pos.king_square(Color::Black), pos.king_square(Color::White)];
    // Everything each side attacks: the sliders' squares, gathered with their mobility
    // (one loop per kind, so no per-piece dispatch on the kind), then the stepping
    // pieces' squares found set-wise.
    let mut reach = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let sign = sign_of(color);
        let own = pos.pieces(color);
        let mut sliding = Bitboard::EMPTY;
        let mut mobility = |kind: PieceKind, attacks: Bitboard| {
            sliding |= attacks;
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
        reach[color.index()] = sliding | pos.step_attacks(color);
    }

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
        sink.add(ZONE_ATTACKED.start + n, sign);
        sink.add(ZONE_WEAK.start + weak, sign);
        let enemy_hand = pos.hand(them);
        for kind in PieceKind::HAND {
            if enemy_hand.count(kind) > 0 {
                sink.add(HAND_THREAT.start + kind.index() * ZONE + n, sign);
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
    }
    sink.add(TEMPO.start, sign_of(pos.side_to_move()));
}

#[inline(always)]
fn sign_of(color: Color) -> i32 {
    match color {
        Color::Black => 1,
        Color::White => -1,
    }
}

/// Sums the features by section, Black's and White's apart.
struct Breakdown<'a> {
    weights: &'a [i32],
    black: [i32; SECTIONS.len()],
    white: [i32; SECTIONS.len()],
}

impl Sink for Breakdown<'_> {
    fn add(&mut self, index: usize, count: i32) {
        let section = SECTIONS
            .iter()
            .position(|s| index >= s.start && index < s.start + s.len)
            .expect("feature index inside a section");
        let value = self.weights[index] * count;
        if count > 0 {
            self.black[section] += value;
        } else {
            self.white[section] -= value;
        }
    }
}

/// The evaluation term by term, as the `eval` command prints it: each section's
/// contribution for Black and for White, and the totals.
pub fn explain(pos: &Position) -> String {
    let mut b = Breakdown {
        weights: &WEIGHTS,
        black: [0; SECTIONS.len()],
        white: [0; SECTIONS.len()],
    };
    features(pos, &mut b);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:<24}{:>8}{:>8}{:>8}",
        "term", "black", "white", "net"
    );
    for (i, s) in SECTIONS.iter().enumerate() {
        let _ = writeln!(
            text,
            "{:<24}{:>8}{:>8}{:>8}",
            s.name,
            b.black[i],
            b.white[i],
            b.black[i] - b.white[i]
        );
    }
    let net: i32 = b.black.iter().sum::<i32>() - b.white.iter().sum::<i32>();
    let _ = writeln!(text, "total for black: {net}");
    let _ = write!(
        text,
        "total for the side to move ({}): {}",
        pos.side_to_move().sfen_char(),
        evaluate(pos)
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        sfen.parse().unwrap()
    }

    #[test]
    fn shipped_weights_match_the_layout() {
        assert!(params::parse(SHIPPED_WEIGHTS).is_some());
    }

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let p = Position::startpos();
        assert_eq!(evaluate(&p), WEIGHTS[TEMPO.start]);
    }

    /// The same position with the colours swapped (board turned round, hands exchanged).
    fn flipped(p: &Position) -> Position {
        let mut board = String::new();
        for rank in 0..9 {
            let mut empty = 0;
            for file in (0..9).rev() {
                let sq = Square::from_index(file * 9 + rank).unwrap().flip();
                match p.piece_at(sq) {
                    Some(piece) => {
                        if empty > 0 {
                            board.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let swapped = crate::types::Piece::new(!piece.color(), piece.kind());
                        board.push_str(&swapped.to_string());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                board.push_str(&empty.to_string());
            }
            if rank < 8 {
                board.push('/');
            }
        }
        let mut hands = String::new();
        for color in [Color::White, Color::Black] {
            for kind in PieceKind::HAND {
                let n = p.hand(color).count(kind);
                if n > 0 {
                    let letter = kind.sfen_letter();
                    let letter = if color == Color::White {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    };
                    if n > 1 {
                        hands.push_str(&n.to_string());
                    }
                    hands.push(letter);
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        let side = (!p.side_to_move()).sfen_char();
        format!("{board} {side} {hands} 1").parse().unwrap()
    }

    #[test]
    fn colour_flipped_positions_evaluate_the_same_for_the_mover() {
        for sfen in [
            "ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL b Bp 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ] {
            let a = pos(sfen);
            let b = flipped(&a);
            assert_ne!(a.to_string(), b.to_string());
            assert_eq!(evaluate(&a), evaluate(&b), "{sfen} vs {b}");
        }
    }

    #[test]
    fn extra_material_is_good() {
        let even = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
        let rook_up = pos("lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b R 1");
        assert!(evaluate(&rook_up) > evaluate(&even) + 800);
    }

    #[test]
    fn placement_delta_matches_a_full_recount() {
        // Pseudo-random playouts through captures, promotions, drops and king moves.
        let mut seed = 0x1234_5678_9abc_def1u64;
        for start in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        ] {
            let mut p = pos(start);
            let mut placement = super::placement(&p);
            for _ in 0..300 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let mv = moves[(seed % moves.len() as u64) as usize];
                let delta = placement_delta(&p, mv);
                p.play_unchecked(mv);
                placement = match delta {
                    Some(d) => placement + d,
                    None => super::placement(&p),
                };
                assert_eq!(placement, super::placement(&p), "after {mv} in {p}");
                assert_eq!(evaluate_from(&p, placement), evaluate(&p));
            }
        }
    }

    #[test]
    fn explain_adds_up() {
        let p = pos("ln1g3nl/1r3kg2/p2pppsp1/2ps2p1p/1p7/2P1P1P2/PPBP1P2P/2SKGS1R1/LN1G3NL w Bp 1");
        let text = explain(&p);
        let last = text.lines().last().unwrap();
        assert!(last.ends_with(&format!(": {}", evaluate(&p))), "{text}");
        assert!(text.contains("near enemy king"));
    }
}
