//! Attack tables.
//!
//! Step pieces (pawn, knight, silver, gold, king) use small tables built by `const fn`.
//! Sliders use three schemes, each picked for the shape of its lines in a file-major
//! bitboard:
//! - lance (and the file half of a rook): a file is nine consecutive bits, so the first
//!   blocker is found with one leading/trailing-zero count, no table needed;
//! - the rank half of a rook: a magic multiplication gathers the seven inner squares of the
//!   rank into a 7-bit index of a per-square table;
//! - bishop: a classic magic bitboard per square over the inner squares of its diagonals.
//!
//! Magic lookups fold the 128-bit occupancy into 64 bits as `low | high`. That is lossless
//! for these masks: the high word holds squares 64..80 (file 8 from rank b, and file 9), and
//! they land on squares 0..16 (files 1 and 2), which no mask that contains one of the high
//! squares also contains (files 1 and 9 are edges, never inner squares).

use crate::rng::Rng;
use crate::types::{Bitboard, Color, Square};
use once_cell::sync::Lazy;

// ---------------------------------------------------------------------------------------
// Step attacks

/// (file delta, rank delta) steps from Black's point of view; rank delta -1 is "forward".
const PAWN_STEPS: &[(i32, i32)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i32, i32)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i32, i32)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (sq / 9) as i32 + df;
    let r = (sq % 9) as i32 + dr;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some((f * 9 + r) as usize)
    } else {
        None
    }
}

const fn step_table(steps: &[(i32, i32)]) -> [[Bitboard; Square::NUM]; 2] {
    let mut t = [[Bitboard::EMPTY; Square::NUM]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < Square::NUM {
            let mut bits = 0u128;
            let mut i = 0;
            while i < steps.len() {
                let (df, dr) = steps[i];
                // White's steps are Black's mirrored vertically.
                let dr = if c == 0 { dr } else { -dr };
                if let Some(to) = offset(sq, df, dr) {
                    bits |= 1u128 << to;
                }
                i += 1;
            }
            t[c][sq] = Bitboard(bits);
            sq += 1;
        }
        c += 1;
    }
    t
}

static PAWN: [[Bitboard; Square::NUM]; 2] = step_table(PAWN_STEPS);
static KNIGHT: [[Bitboard; Square::NUM]; 2] = step_table(KNIGHT_STEPS);
static SILVER: [[Bitboard; Square::NUM]; 2] = step_table(SILVER_STEPS);
static GOLD: [[Bitboard; Square::NUM]; 2] = step_table(GOLD_STEPS);
static KING: [[Bitboard; Square::NUM]; 2] = step_table(KING_STEPS);

#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}
#[inline(always)]
pub fn knight(color: Color, sq: Square) -> Bitboard {
    KNIGHT[color.index()][sq.index()]
}
#[inline(always)]
pub fn silver(color: Color, sq: Square) -> Bitboard {
    SILVER[color.index()][sq.index()]
}
/// Gold steps; also the promoted pawn, lance, knight and silver.
#[inline(always)]
pub fn gold(color: Color, sq: Square) -> Bitboard {
    GOLD[color.index()][sq.index()]
}
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[0][sq.index()]
}

/// Where each of `color`'s stepping pieces must stand to reach, in one step, a square next
/// to the enemy king or a square from which a knight checks it: the origins of the checks
/// that [`crate::mate::one`] tries, looked up once per call instead of testing each piece.
/// Pawns, silvers and gold movers count only within two squares of the king (beyond,
/// they reach no square next to it, and a step onto a knight's check square is no check).
#[derive(Clone, Copy)]
pub struct ContactOrigins {
    pub pawn: Bitboard,
    pub knight: Bitboard,
    pub silver: Bitboard,
    pub gold: Bitboard,
}

const fn contact_origins_table() -> [[ContactOrigins; Square::NUM]; 2] {
    let empty = ContactOrigins {
        pawn: Bitboard::EMPTY,
        knight: Bitboard::EMPTY,
        silver: Bitboard::EMPTY,
        gold: Bitboard::EMPTY,
    };
    let pawn = step_table(PAWN_STEPS);
    let knight = step_table(KNIGHT_STEPS);
    let silver = step_table(SILVER_STEPS);
    let gold = step_table(GOLD_STEPS);
    let king = step_table(KING_STEPS);
    let mut t = [[empty; Square::NUM]; 2];
    let mut c = 0;
    while c < 2 {
        let mut ksq = 0;
        while ksq < Square::NUM {
            let near = king[0][ksq].0;
            // Our knight checks from the squares the enemy's knight would reach.
            let region = near | knight[1 - c][ksq].0;
            let mut close = near;
            let mut from = 0;
            while from < Square::NUM {
                if near >> from & 1 != 0 {
                    close |= king[0][from].0;
                }
                from += 1;
            }
            let mut o = empty;
            from = 0;
            while from < Square::NUM {
                let bit = 1u128 << from;
                if pawn[c][from].0 & region != 0 && close & bit != 0 {
                    o.pawn.0 |= bit;
                }
                if knight[c][from].0 & region != 0 {
                    o.knight.0 |= bit;
                }
                if silver[c][from].0 & region != 0 && close & bit != 0 {
                    o.silver.0 |= bit;
                }
                if gold[c][from].0 & region != 0 && close & bit != 0 {
                    o.gold.0 |= bit;
                }
                from += 1;
            }
            t[c][ksq] = o;
            ksq += 1;
        }
        c += 1;
    }
    t
}

static CONTACT_ORIGINS: [[ContactOrigins; Square::NUM]; 2] = contact_origins_table();

/// The [`ContactOrigins`] of `color`'s pieces against the enemy king on `ksq`.
#[inline(always)]
pub fn contact_origins(color: Color, ksq: Square) -> &'static ContactOrigins {
    &CONTACT_ORIGINS[color.index()][ksq.index()]
}

/// The squares around each square as a list, lowest index first (the order in which
/// iterating [`king`]'s bitboard yields them), for loops that run at every node.
struct Ring {
    squares: [Square; 8],
    len: u8,
}

const fn ring_table() -> [Ring; Square::NUM] {
    let mut t = [const {
        Ring {
            squares: [Square::from_index_unchecked(0); 8],
            len: 0,
        }
    }; Square::NUM];
    let mut sq = 0;
    while sq < Square::NUM {
        let bits = KING[0][sq].0;
        let mut to = 0;
        while to < Square::NUM {
            if bits >> to & 1 != 0 {
                t[sq].squares[t[sq].len as usize] = Square::from_index_unchecked(to);
                t[sq].len += 1;
            }
            to += 1;
        }
        sq += 1;
    }
    t
}

static RING: [Ring; Square::NUM] = ring_table();

/// The squares next to `sq`, lowest index first: [`king`]'s squares as a slice.
#[inline(always)]
pub fn king_ring(sq: Square) -> &'static [Square] {
    let ring = &RING[sq.index()];
    &ring.squares[..ring.len as usize]
}

// ---------------------------------------------------------------------------------------
// Rays, lines and betweens

/// The eight directions as (file delta, rank delta), opposite directions at `d ^ 7`.
const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn ray_table() -> [[Bitboard; 8]; Square::NUM] {
    let mut t = [[Bitboard::EMPTY; 8]; Square::NUM];
    let mut sq = 0;
    while sq < Square::NUM {
        let mut d = 0;
        while d < 8 {
            let mut bits = 0u128;
            let mut cur = sq;
            while let Some(next) = offset(cur, DIRS[d].0, DIRS[d].1) {
                bits |= 1u128 << next;
                cur = next;
            }
            t[sq][d] = Bitboard(bits);
            d += 1;
        }
        sq += 1;
    }
    t
}

/// `DIRECTION[a][b]`: the direction index from a to b, or 8 when they share no line.
const fn direction_table() -> [[u8; Square::NUM]; Square::NUM] {
    let mut t = [[8u8; Square::NUM]; Square::NUM];
    let rays = ray_table();
    let mut a = 0;
    while a < Square::NUM {
        let mut d = 0;
        while d < 8 {
            let mut b = 0;
            while b < Square::NUM {
                if (rays[a][d].0 >> b) & 1 != 0 {
                    t[a][b] = d as u8;
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

static RAYS: [[Bitboard; 8]; Square::NUM] = ray_table();
static DIRECTION: [[u8; Square::NUM]; Square::NUM] = direction_table();

/// Squares strictly between `a` and `b` when they share a file, rank or diagonal; empty
/// otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.index()][b.index()] as usize;
    if d == 8 {
        return Bitboard::EMPTY;
    }
    RAYS[a.index()][d] & RAYS[b.index()][d ^ 7]
}

/// The whole line through `a` and `b` (both included) when they are aligned; empty
/// otherwise. A piece pinned against its king at `a` may move only along `line(a, from)`.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.index()][b.index()] as usize;
    if d == 8 {
        return Bitboard::EMPTY;
    }
    RAYS[a.index()][d] | RAYS[a.index()][d ^ 7] | Bitboard::from_square(a)
}

/// The squares from `a` (excluded) towards `b` and on to the edge, when they are aligned;
/// empty otherwise.
#[inline(always)]
pub fn ray_towards(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION[a.index()][b.index()] as usize;
    if d == 8 {
        return Bitboard::EMPTY;
    }
    RAYS[a.index()][d]
}

/// Whether `a` and `b` share a diagonal (as opposed to a file or rank, or nothing).
#[inline(always)]
pub fn on_diagonal(a: Square, b: Square) -> bool {
    matches!(DIRECTION[a.index()][b.index()], 0 | 2 | 5 | 7)
}

/// Whether `a` and `b` share a file or a rank.
#[inline(always)]
pub fn on_straight(a: Square, b: Square) -> bool {
    matches!(DIRECTION[a.index()][b.index()], 1 | 3 | 4 | 6)
}

/// Whether `c` lies on the line through `a` and `b` (with `a != b`).
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).has(c)
}

// ---------------------------------------------------------------------------------------
// Lance and rook files

/// `LANCE_RAY[color][sq]`: the lance's attacks from `sq` on an empty board.
const fn lance_rays() -> [[Bitboard; Square::NUM]; 2] {
    let rays = ray_table();
    let mut t = [[Bitboard::EMPTY; Square::NUM]; 2];
    let mut sq = 0;
    while sq < Square::NUM {
        t[0][sq] = rays[sq][1]; // rank delta -1: towards rank a
        t[1][sq] = rays[sq][6]; // rank delta +1: towards rank i
        sq += 1;
    }
    t
}
static LANCE_RAY: [[Bitboard; Square::NUM]; 2] = lance_rays();

/// `LANCE_END[color][sq]`: the bit of the last square of `sq`'s file in the lance's
/// direction (rank a for Black, rank i for White), a blocker that is always there.
static LANCE_END: [[u128; Square::NUM]; 2] = {
    let mut t = [[0u128; Square::NUM]; 2];
    let mut sq = 0;
    while sq < Square::NUM {
        let file_start = sq - sq % 9;
        t[0][sq] = 1u128 << file_start;
        t[1][sq] = 1u128 << (file_start + 8);
        sq += 1;
    }
    t
};

/// `BITS_FROM[n]`: the bits from `n` up; `BITS_UP_TO[n]`: the bits up to `n`, inclusive.
/// Tables, since a 128-bit shift by a variable count takes some seven instructions.
static BITS_FROM: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut n = 0;
    while n < 128 {
        t[n] = !0u128 << n;
        n += 1;
    }
    t
};
static BITS_UP_TO: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut n = 0;
    while n < 128 {
        t[n] = !0u128 >> (127 - n);
        n += 1;
    }
    t
};

/// Lance attacks from `sq` given the occupancy.
#[inline(always)]
pub fn lance(color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    let ray = LANCE_RAY[color.index()][sq.index()].0;
    // The file's last square in the ray's direction is added as a sentinel so the
    // blockers are never empty; when it is not on the ray (the lance stands on it), the
    // ray itself is empty and so is the result.
    let blockers = (occupied.0 & ray) | LANCE_END[color.index()][sq.index()];
    match color {
        // The ray runs to lower indices: the nearest blocker is the highest set bit.
        Color::Black => {
            let nearest = 127 - blockers.leading_zeros() as usize;
            Bitboard(ray & BITS_FROM[nearest & 127])
        }
        // The ray runs to higher indices: the nearest blocker is the lowest set bit.
        Color::White => {
            let nearest = blockers.trailing_zeros() as usize;
            Bitboard(ray & BITS_UP_TO[nearest & 127])
        }
    }
}

/// Lance attacks on an empty board.
#[inline(always)]
pub fn lance_pseudo(color: Color, sq: Square) -> Bitboard {
    LANCE_RAY[color.index()][sq.index()]
}

// ---------------------------------------------------------------------------------------
// Magic tables for rook ranks and bishops

#[inline(always)]
fn fold(bits: u128) -> u64 {
    bits as u64 | (bits >> 64) as u64
}

/// One square's magic: index = ((occupied & mask).fold() * magic) >> shift.
#[derive(Clone, Copy)]
struct Magic {
    mask: u128,
    magic: u64,
    shift: u32,
    offset: u32,
}

impl Magic {
    #[inline(always)]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset as usize
            + (fold(occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// The slider tables, built once on first use.
struct SliderTables {
    bishop: [Magic; Square::NUM],
    rank: [Magic; Square::NUM],
    attacks: Vec<Bitboard>,
}

static SLIDERS: Lazy<SliderTables> = Lazy::new(build_slider_tables);

/// Builds the slider tables now rather than at the first lookup (call before a search or a
/// timed perft so that the cost is not counted).
pub fn init() {
    Lazy::force(&SLIDERS);
}

/// Attacks along the given directions from `sq`, stopping at (and including) blockers.
fn slide(sq: usize, dirs: &[usize], occupied: u128) -> u128 {
    let mut bits = 0;
    for &d in dirs {
        let mut cur = sq;
        while let Some(next) = offset(cur, DIRS[d].0, DIRS[d].1) {
            bits |= 1u128 << next;
            if occupied >> next & 1 != 0 {
                break;
            }
            cur = next;
        }
    }
    bits
}

const BISHOP_DIRS: [usize; 4] = [0, 2, 5, 7];
const RANK_DIRS: [usize; 2] = [3, 4];

/// Sparse candidates make good magics.
fn sparse(rng: &mut Rng) -> u64 {
    rng.next_u64() & rng.next_u64() & rng.next_u64()
}

/// Every subset of `mask` (Carry-Rippler enumeration).
fn subsets(mask: u128) -> Vec<u128> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u128;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

/// Finds a magic for one square and appends its attack table to `attacks`.
fn find_magic(
    mask: u128,
    dirs: &[usize],
    sq: usize,
    rng: &mut Rng,
    attacks: &mut Vec<Bitboard>,
) -> Magic {
    let occupancies = subsets(mask);
    let answers: Vec<u128> = occupancies.iter().map(|&o| slide(sq, dirs, o)).collect();
    // A table of exactly 2^bits entries is hard to fit for the central squares; after a
    // bounded number of tries, allow one more index bit (twice the table) and go on.
    let mut bits = mask.count_ones();
    let mut tries = 0u32;
    // Each slot remembers the try that filled it, so a failed try needs no clearing.
    let mut table = vec![(0u32, 0u128); 1 << bits];
    loop {
        tries += 1;
        if tries.is_multiple_of(4_000) {
            bits += 1;
            table = vec![(0u32, 0u128); 1 << bits];
        }
        let shift = 64 - bits;
        let magic = sparse(rng);
        // Quick reject: the mask's high bits must spread well.
        if (fold(mask).wrapping_mul(magic) >> 56).count_ones() < 6 && bits >= 8 {
            continue;
        }
        let mut ok = true;
        for (&occ, &ans) in occupancies.iter().zip(&answers) {
            let slot = &mut table[(fold(occ).wrapping_mul(magic) >> shift) as usize];
            if slot.0 != tries {
                *slot = (tries, ans);
            } else if slot.1 != ans {
                ok = false;
                break;
            }
        }
        if ok {
            let offset = attacks.len() as u32;
            // Unused slots are never looked up; fill them with empty sets.
            attacks.extend(
                table
                    .iter()
                    .map(|&(t, a)| Bitboard(if t == tries { a } else { 0 })),
            );
            return Magic {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
}

fn build_slider_tables() -> SliderTables {
    let edges = Bitboard::file(0) | Bitboard::file(8) | Bitboard::rank(0) | Bitboard::rank(8);
    let mut rng = Rng::from_state(0x9e37_79b9_7f4a_7c15);
    let mut attacks = Vec::new();
    let empty = Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    };
    let mut bishop = [empty; Square::NUM];
    let mut rank = [empty; Square::NUM];
    for (sq, magic) in bishop.iter_mut().enumerate() {
        let mask = slide(sq, &BISHOP_DIRS, 0) & !edges.0;
        *magic = find_magic(mask, &BISHOP_DIRS, sq, &mut rng, &mut attacks);
    }
    let inner_files = !(Bitboard::file(0) | Bitboard::file(8)).0;
    for (sq, magic) in rank.iter_mut().enumerate() {
        let mask = slide(sq, &RANK_DIRS, 0) & inner_files;
        *magic = find_magic(mask, &RANK_DIRS, sq, &mut rng, &mut attacks);
    }
    SliderTables {
        bishop,
        rank,
        attacks,
    }
}

/// Bishop attacks from `sq` given the occupancy.
#[inline(always)]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*SLIDERS;
    let m = &t.bishop[sq.index()];
    // SAFETY: `Magic::index` is below `offset + 2^bits`, and `find_magic` appended exactly
    // `2^bits` entries at `offset` for this square.
    unsafe { *t.attacks.get_unchecked(m.index(occupied)) }
}

/// Rook attacks from `sq` given the occupancy.
#[inline(always)]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*SLIDERS;
    let m = &t.rank[sq.index()];
    // SAFETY: as in `bishop`: the index stays inside the block `find_magic` appended.
    let rank = unsafe { *t.attacks.get_unchecked(m.index(occupied)) };
    rank | lance(Color::Black, sq, occupied) | lance(Color::White, sq, occupied)
}

/// Bishop attacks on an empty board.
#[inline(always)]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    let r = &RAYS[sq.index()];
    r[0] | r[2] | r[5] | r[7]
}

/// Rook attacks on an empty board.
#[inline(always)]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    let r = &RAYS[sq.index()];
    r[1] | r[3] | r[4] | r[6]
}

/// Horse (promoted bishop) attacks.
#[inline(always)]
pub fn horse(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop(sq, occupied) | king(sq)
}

/// Dragon (promoted rook) attacks.
#[inline(always)]
pub fn dragon(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | king(sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_origins_are_the_steppers_that_reach_a_checking_square() {
        // From the step attacks themselves: the origins of a kind are the squares whose
        // steps touch the king's neighbours or a knight check square, within two files
        // and ranks of the king for everything but the knight.
        for color in [Color::Black, Color::White] {
            for k in 0..Square::NUM {
                let ksq = Square::from_index_unchecked(k);
                let region = king(ksq) | knight(!color, ksq);
                let o = contact_origins(color, ksq);
                for f in 0..Square::NUM {
                    let from = Square::from_index_unchecked(f);
                    let close = (from.file().index() as i32 - ksq.file().index() as i32).abs() <= 2
                        && (from.rank().index() as i32 - ksq.rank().index() as i32).abs() <= 2;
                    let reaches = |steps: Bitboard| (steps & region).is_nonempty();
                    assert_eq!(o.pawn.has(from), close && reaches(pawn(color, from)));
                    assert_eq!(o.knight.has(from), reaches(knight(color, from)));
                    assert_eq!(o.silver.has(from), close && reaches(silver(color, from)));
                    assert_eq!(o.gold.has(from), close && reaches(gold(color, from)));
                }
            }
        }
        // A king on 5e: Black's knight checks it from 4g or 6g, which knights on 3i and
        // 5i reach; one on 1i reaches only 2g.
        let ksq = Square::from_usi("5e").unwrap();
        let o = contact_origins(Color::Black, ksq);
        assert!(o.knight.has(Square::from_usi("3i").unwrap()));
        assert!(o.knight.has(Square::from_usi("5i").unwrap()));
        assert!(!o.knight.has(Square::from_usi("1i").unwrap()));
    }

    #[test]
    fn king_ring_lists_the_king_squares_in_order() {
        for i in 0..Square::NUM {
            let sq = Square::from_index_unchecked(i);
            let listed: Vec<usize> = king_ring(sq).iter().map(|s| s.index()).collect();
            let walked: Vec<usize> = king(sq).into_iter().map(|s| s.index()).collect();
            assert_eq!(listed, walked, "square {i}");
        }
        assert_eq!(king_ring(Square::from_index_unchecked(0)).len(), 3);
        assert_eq!(king_ring(Square::from_index_unchecked(40)).len(), 8);
    }

    /// Every magic lookup agrees with the slow ray walk on random occupancies.
    #[test]
    fn sliders_match_ray_walk() {
        let mut rng = Rng::from_state(12345);
        for _ in 0..2000 {
            let occ = ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                & ((rng.next_u64() as u128) << 64 | rng.next_u64() as u128)
                & Bitboard::ALL.0;
            for sq in 0..Square::NUM {
                let s = Square::from_index(sq).unwrap();
                let b = Bitboard(occ);
                assert_eq!(bishop(s, b).0, slide(sq, &BISHOP_DIRS, occ));
                assert_eq!(rook(s, b).0, slide(sq, &[1, 3, 4, 6], occ));
                assert_eq!(lance(Color::Black, s, b).0, slide(sq, &[1], occ));
                assert_eq!(lance(Color::White, s, b).0, slide(sq, &[6], occ));
            }
        }
    }

    #[test]
    fn between_and_line() {
        let a = Square::from_usi("5e").unwrap();
        let b = Square::from_usi("5a").unwrap();
        let c = Square::from_usi("2b").unwrap();
        assert_eq!(between(a, b).count(), 3);
        assert_eq!(between(a, c).count(), 2);
        assert!(between(a, Square::from_usi("4c").unwrap()).is_empty());
        assert_eq!(line(a, b).count(), 9);
        assert_eq!(line(a, c).count(), 9);
    }
}
