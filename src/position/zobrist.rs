//! Zobrist keys. Board pieces and the side to move are XORed in; hand pieces are *added*
//! (count × key), so taking a piece into hand or dropping it is one add or subtract and the
//! hand part of the key does not depend on the order pieces were captured.

use crate::rng::splitmix64 as splitmix;
use crate::types::{Color, Piece, PieceKind, Square};

struct Keys {
    psq: [[u64; Square::NUM]; 32],
    hand: [[u64; 8]; 2],
    side: u64,
}

const fn build() -> Keys {
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut psq = [[0u64; Square::NUM]; 32];
    let mut p = 0;
    while p < 32 {
        let mut sq = 0;
        while sq < Square::NUM {
            psq[p][sq] = splitmix(&mut state);
            sq += 1;
        }
        p += 1;
    }
    let mut hand = [[0u64; 8]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 8 {
            // Low bit cleared so that sums of up to 18 copies never collide with the side
            // bit below.
            hand[c][k] = splitmix(&mut state) & !1;
            k += 1;
        }
        c += 1;
    }
    // The side key is bit 0 alone: board keys have it clear, so `key & 1` tells the side.
    let side = 1;
    let mut p = 0;
    while p < 32 {
        let mut sq = 0;
        while sq < Square::NUM {
            psq[p][sq] &= !1;
            sq += 1;
        }
        p += 1;
    }
    Keys { psq, hand, side }
}

static KEYS: Keys = build();

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.psq[piece.index()][sq.index()]
}

/// Key added once per piece of `kind` held in `color`'s hand.
#[inline(always)]
pub fn hand(color: Color, kind: PieceKind) -> u64 {
    KEYS.hand[color.index()][kind.index()]
}

/// Key XORed in when White is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}
