//! Recounts of HalfKP (and HalfKP_vm) accumulators, made cheap: one stored accumulator
//! per side and king square, with the pieces it sums.
//!
//! A HalfKP side's accumulator must be recounted when its king moves (every feature
//! holds the king's square), which happens at about a quarter of the nodes a search
//! evaluates. A recount from nothing adds one transformer row per piece, 38 rows. But
//! the search has usually seen a position with the king on that square a moment ago,
//! differing in a few pieces: the accumulator kept for the square is brought to the
//! position by the rows of those pieces alone, found by comparing piece bitboards and
//! hand counts (the "Finny tables" of chess engines).
//!
//! HalfKPE9 recounts whenever a ply's parent has no accumulator (its features depend on
//! the attack counts, which only the parent's position gives a move's changes from): its
//! entries keep the counts too, and a piece that stayed where it was changes rows when
//! its square's counts did.

use super::aligned::Aligned;
use super::effects::Effects;
use super::features::{board_state, hand_state, KingFrame, MAX_ACTIVE, NON_KING_PIECES};
use super::halfkpe9::{self, PLANE_SIZE};
use super::network::Network;
use crate::position::Position;
use crate::types::{Bitboard, Color, Hand, Piece, PieceKind, Square};
use arrayvec::ArrayVec;

/// Whether pieces of `kind` on the board are features: all but the kings, which are
/// too when `kings` (HalfKA_hm2). An entry's own king never moves, so only the other
/// king then brings a change.
#[inline(always)]
fn is_feature(kind: PieceKind, kings: bool) -> bool {
    kings || kind != PieceKind::King
}

/// The pieces an entry's accumulator sums.
#[derive(Clone, Copy)]
struct Pieces {
    /// Board pieces by colour and kind index.
    boards: [[Bitboard; 15]; 2],
    hands: [Hand; 2],
    /// Features of absent pieces (state 0) in the sum.
    absent: u32,
}

impl Pieces {
    /// An entry that sums nothing: its accumulator is the biases.
    const NONE: Pieces = Pieces {
        boards: [[Bitboard::EMPTY; 15]; 2],
        hands: [Hand::EMPTY; 2],
        absent: 0,
    };
}

/// Rows a diff may hold: an entry sums at most [`MAX_ACTIVE`] features, so it loses at
/// most that many and gains at most that many.
type Rows = ArrayVec<u32, MAX_ACTIVE>;

/// One search thread's stored accumulators, `[side][king square]`.
#[derive(Default)]
pub struct RefreshCache {
    half: usize,
    values: Aligned<i16>,
    pieces: Vec<Pieces>,
    /// HalfKPE9: the attack counts of each entry's position.
    effects: Vec<Effects>,
}

impl RefreshCache {
    /// Empties every entry for `net` (each then holds the biases alone).
    pub fn reset(&mut self, net: &Network) {
        let half = net.half();
        let entries = 2 * Square::NUM;
        if self.values.len() != entries * half {
            self.values = Aligned::zeroed(entries * half);
        }
        self.half = half;
        for acc in self.values.chunks_exact_mut(half) {
            acc.copy_from_slice(net.transformer_biases());
        }
        self.pieces.clear();
        self.pieces.resize(entries, Pieces::NONE);
        self.effects.clear();
        self.effects.resize(entries, Effects::default());
    }

    /// Writes `viewer`'s accumulator of `pos` (a king-relative net's) into `out`, through the entry of
    /// `viewer`'s king square, which is brought to `pos` too. `net` is the net of the
    /// last [`reset`](Self::reset); both kings are on the board.
    pub fn refresh(&mut self, net: &Network, pos: &Position, viewer: Color, out: &mut [i16]) {
        let king = pos.king_square(viewer).expect("both kings");
        let entry = viewer.index() * Square::NUM + king.index();
        let cached = &mut self.pieces[entry];
        let mut removed = Rows::new();
        let mut added = Rows::new();
        let set = net.arch().features;
        let frame = KingFrame::new(set, viewer, king);
        if !diff::<false>(
            pos,
            viewer,
            frame,
            set.has_kings(),
            cached,
            (&mut Effects::default(), &Effects::default()),
            &mut removed,
            &mut added,
        ) {
            // More pieces than a set has: the position is not one a net numbers.
            net.refresh(pos, viewer, out);
            return;
        }
        let acc = &mut self.values[entry * self.half..][..self.half];
        if removed.len() + added.len() < NON_KING_PIECES {
            net.update(out, acc, &removed, &added);
        } else {
            net.refresh(pos, viewer, out);
        }
        acc.copy_from_slice(out);
    }

    /// [`refresh`](Self::refresh) for a HalfKPE9 net: `effects` are the attack counts of
    /// `pos`.
    pub fn refresh_e9(
        &mut self,
        net: &Network,
        pos: &Position,
        viewer: Color,
        effects: &Effects,
        out: &mut [i16],
    ) {
        let king = pos.king_square(viewer).expect("both kings");
        let entry = viewer.index() * Square::NUM + king.index();
        let mut removed = Rows::new();
        let mut added = Rows::new();
        let frame = KingFrame::new(net.arch().features, viewer, king);
        let planes = (&mut self.effects[entry], effects);
        let acc = &mut self.values[entry * self.half..][..self.half];
        let diffed = diff::<true>(
            pos,
            viewer,
            frame,
            false,
            &mut self.pieces[entry],
            planes,
            &mut removed,
            &mut added,
        );
        if diffed && removed.len() + added.len() < NON_KING_PIECES {
            net.update(out, acc, &removed, &added);
        } else {
            net.refresh_from(&halfkpe9::active(pos, viewer, effects), out);
        }
        if diffed {
            acc.copy_from_slice(out);
        }
    }
}

/// Lists the features `viewer` (its king's square giving `frame`) loses and gains from
/// the pieces of `cached` to those of `pos` (the kings among them when `kings`), and
/// makes `cached` those of `pos`. For HalfKPE9 (`E9`), `effects` are the attack counts
/// of the cached position (made those of `pos` too) and of `pos`, and each board piece
/// is on the plane of its square's counts. Returns `false`, changing nothing, when `pos`
/// has more non-king pieces than a set.
#[allow(clippy::too_many_arguments)]
fn diff<const E9: bool>(
    pos: &Position,
    viewer: Color,
    frame: KingFrame,
    kings: bool,
    cached: &mut Pieces,
    effects: (&mut Effects, &Effects),
    removed: &mut Rows,
    added: &mut Rows,
) -> bool {
    // Both kings are on the board; every other piece there or in a hand is a feature.
    let mut total = pos.occupied().count() - 2;
    for color in Color::ALL {
        let hand = pos.hand(color);
        total += PieceKind::HAND
            .iter()
            .map(|&kind| hand.count(kind))
            .sum::<u32>();
    }
    if total > NON_KING_PIECES as u32 {
        return false;
    }
    let (was_effects, now_effects) = effects;
    // The squares whose plane changed (none without planes).
    let replaned = if E9 {
        was_effects.changed(now_effects)
    } else {
        Bitboard::EMPTY
    };
    let plane = |effects: &Effects, sq: Square| {
        if E9 {
            effects.plane(sq, viewer) * PLANE_SIZE
        } else {
            0
        }
    };
    for color in Color::ALL {
        let boards = &mut cached.boards[color.index()];
        for kind in PieceKind::ALL.into_iter().filter(|&k| is_feature(k, kings)) {
            let now = pos.pieces_of(color, kind);
            let was = boards[kind.index()];
            let changed = now ^ was;
            // Pieces that stayed, on squares whose plane changed.
            let stayed = now & was & replaned;
            if changed.is_empty() && stayed.is_empty() {
                continue;
            }
            let piece = Piece::new(color, kind);
            for sq in (changed | stayed) & was {
                let state = frame.feature(board_state(piece, sq, viewer));
                removed.push(state + plane(was_effects, sq));
            }
            for sq in (changed | stayed) & now {
                let state = frame.feature(board_state(piece, sq, viewer));
                added.push(state + plane(now_effects, sq));
            }
            boards[kind.index()] = now;
        }
        let now = pos.hand(color);
        let was = cached.hands[color.index()];
        if now != was {
            for kind in PieceKind::HAND {
                let (n, w) = (now.count(kind), was.count(kind));
                for i in n..w {
                    removed.push(frame.feature(hand_state(color, kind, i, viewer)));
                }
                for i in w..n {
                    added.push(frame.feature(hand_state(color, kind, i, viewer)));
                }
            }
            cached.hands[color.index()] = now;
        }
    }
    let absent = NON_KING_PIECES as u32 - total;
    let state0 = frame.feature(0);
    for _ in absent..cached.absent {
        removed.push(state0);
    }
    for _ in cached.absent..absent {
        added.push(state0);
    }
    cached.absent = absent;
    if E9 {
        *was_effects = *now_effects;
    }
    true
}
