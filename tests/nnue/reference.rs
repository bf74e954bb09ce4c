//! An independent reference evaluator for classic NNUE nets: parses the file with plain
//! offsets and evaluates a position given as SFEN with plain loops, from the format
//! description (YaneuraOu's feature numbering, perspectives, clamps and shifts). It
//! shares no code with the engine's evaluator.

use super::writer::{pad32, Features};

pub struct RefNet<'a> {
    bytes: &'a [u8],
    features: Features,
    half: usize,
    h1: usize,
    h2: usize,
    ft_bias: usize,
    ft_weights: usize,
    l1: usize,
    l2: usize,
    l3: usize,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}
fn i16_at(b: &[u8], at: usize) -> i16 {
    i16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}

impl<'a> RefNet<'a> {
    /// Reads a file of the given shape (trusting the header: test files only).
    pub fn new(
        bytes: &'a [u8],
        features: Features,
        half: usize,
        h1: usize,
        h2: usize,
    ) -> RefNet<'a> {
        let len = u32_at(bytes, 8) as usize;
        let inputs = match features {
            Features::KP => 1710,
            Features::HalfKP => 81 * 1548,
            Features::HalfKPvm => 45 * 1548,
            Features::HalfKA1 => 81 * 1710,
            Features::HalfKA2 => 81 * 1629,
            Features::HalfKAhm1 => 45 * 1710,
            Features::HalfKAhm2 => 45 * 1629,
            Features::HalfKPE9 => {
                panic!("no reference for HalfKPE9: its values are YaneuraOu's, in tests/data")
            }
        };
        let ft_bias = 12 + len + 4;
        let ft_weights = ft_bias + 2 * half;
        let l1 = ft_weights + 2 * half * inputs + 4;
        let l2 = l1 + 4 * h1 + h1 * pad32(2 * half);
        let l3 = l2 + 4 * h2 + h2 * pad32(h1);
        assert_eq!(l3 + 4 + pad32(h2), bytes.len(), "file size");
        RefNet {
            bytes,
            features,
            half,
            h1,
            h2,
            ft_bias,
            ft_weights,
            l1,
            l2,
            l3,
        }
    }

    /// One affine layer followed (unless `last`) by ClippedReLU.
    fn affine(&self, at: usize, input: &[i32], outputs: usize) -> Vec<i32> {
        let row = pad32(input.len());
        (0..outputs)
            .map(|o| {
                let mut sum = i32_at(self.bytes, at + 4 * o);
                for (i, &x) in input.iter().enumerate() {
                    let w = self.bytes[at + 4 * outputs + o * row + i] as i8 as i32;
                    sum += w * x;
                }
                sum
            })
            .collect()
    }

    /// The evaluation for the side to move of the position `sfen`.
    pub fn evaluate(&self, sfen: &str, fv_scale: i32) -> i32 {
        let p = Parsed::new(sfen);
        let mut transformed = Vec::new();
        for viewer in [p.side, 1 - p.side] {
            let mut acc: Vec<i16> = (0..self.half)
                .map(|j| i16_at(self.bytes, self.ft_bias + 2 * j))
                .collect();
            for f in p.features(viewer, self.features) {
                for (j, a) in acc.iter_mut().enumerate() {
                    let w = i16_at(self.bytes, self.ft_weights + 2 * (f * self.half + j));
                    *a = a.wrapping_add(w);
                }
            }
            transformed.extend(acc.iter().map(|&a| (a as i32).clamp(0, 127)));
        }
        let relu =
            |v: Vec<i32>| -> Vec<i32> { v.iter().map(|&x| (x >> 6).clamp(0, 127)).collect() };
        let a = relu(self.affine(self.l1, &transformed, self.h1));
        let b = relu(self.affine(self.l2, &a, self.h2));
        let out = self.affine(self.l3, &b, 1)[0];
        // Integer division truncates towards zero, as in C++.
        (out / fv_scale).clamp(-31753, 31753)
    }
}

/// A position read from SFEN: pieces on the board as (colour, letter, promoted, square
/// index = file * 9 + rank, file 1 and rank a being 0), hands as counts.
struct Parsed {
    board: Vec<(usize, char, bool, usize)>,
    hands: [[u32; 7]; 2],
    side: usize,
}

/// Hand kinds in the SFEN letters' order used by the hand table below.
const HAND_LETTERS: [char; 7] = ['P', 'L', 'N', 'S', 'G', 'B', 'R'];

impl Parsed {
    fn new(sfen: &str) -> Parsed {
        let mut fields = sfen.split_whitespace();
        let board_text = fields.next().unwrap();
        let side = if fields.next().unwrap() == "b" { 0 } else { 1 };
        let hand_text = fields.next().unwrap();
        let mut board = Vec::new();
        for (rank, row) in board_text.split('/').enumerate() {
            let mut file = 8i32; // the first square of a row is file 9
            let mut promoted = false;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    file -= d as i32;
                } else if ch == '+' {
                    promoted = true;
                } else {
                    let colour = if ch.is_ascii_uppercase() { 0 } else { 1 };
                    let sq = file as usize * 9 + rank;
                    board.push((colour, ch.to_ascii_uppercase(), promoted, sq));
                    promoted = false;
                    file -= 1;
                }
            }
        }
        let mut hands = [[0u32; 7]; 2];
        if hand_text != "-" {
            let mut n = 0;
            for ch in hand_text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    n = n * 10 + d;
                } else {
                    let colour = if ch.is_ascii_uppercase() { 0 } else { 1 };
                    let k = HAND_LETTERS
                        .iter()
                        .position(|&l| l == ch.to_ascii_uppercase())
                        .unwrap();
                    hands[colour][k] += n.max(1);
                    n = 0;
                }
            }
        }
        Parsed { board, hands, side }
    }

    /// The active feature indices from `viewer`'s side (0 Black, 1 White).
    fn features(&self, viewer: usize, features: Features) -> Vec<usize> {
        // Squares and colours as the viewer sees them.
        let sq_of = |sq: usize| if viewer == 0 { sq } else { 80 - sq };
        let enemy = |colour: usize| colour != viewer;
        // YaneuraOu's BonaPiece list: hand slots first (friend then enemy per kind, in
        // the order pawn 19, lance 5, knight 5, silver 5, gold 5, bishop 3, rook 3: one
        // slot more than pieces exist), then from 90 board kinds of 81 squares,
        // friend then enemy: pawn, lance, knight, silver, gold, bishop, horse, rook,
        // dragon. Promoted minor pieces are golds.
        let hand_sizes = [19usize, 5, 5, 5, 5, 3, 3];
        let mut hand_start = [[0usize; 2]; 7];
        let mut next = 1;
        for k in 0..7 {
            hand_start[k] = [next, next + hand_sizes[k]];
            next += 2 * hand_sizes[k];
        }
        // The board states start at 90: Black's rook slots would end at 91, but the
        // second side's rook needs only two (88, 89).
        assert_eq!(hand_start[6], [85, 88]);
        let board_order = ['P', 'L', 'N', 'S', 'G', 'B', 'H', 'R', 'D'];
        let board_start = |letter: char, promoted: bool| -> usize {
            let kind = match (letter, promoted) {
                ('P' | 'L' | 'N' | 'S', true) => 'G',
                ('B', true) => 'H',
                ('R', true) => 'D',
                (l, _) => l,
            };
            90 + 162 * board_order.iter().position(|&l| l == kind).unwrap()
        };

        let mut pieces = Vec::new();
        let mut kings = [0usize; 2];
        for &(colour, letter, promoted, sq) in &self.board {
            if letter == 'K' {
                kings[colour] = sq;
                continue;
            }
            let base = board_start(letter, promoted) + if enemy(colour) { 81 } else { 0 };
            pieces.push(base + sq_of(sq));
        }
        for (colour, counts) in self.hands.iter().enumerate() {
            for (start, &count) in hand_start.iter().zip(counts) {
                let start = start[if enemy(colour) { 1 } else { 0 }];
                for i in 0..count as usize {
                    pieces.push(start + i);
                }
            }
        }
        // A full set has 38 non-king pieces; the missing ones count as piece state 0.
        assert!(pieces.len() <= 38);
        pieces.resize(38, 0);
        let own_king = sq_of(kings[viewer]);
        let other_king = sq_of(kings[1 - viewer]);
        match features {
            Features::KP => {
                pieces.push(1548 + own_king);
                pieces.push(1548 + 81 + other_king);
                pieces
            }
            Features::HalfKP => pieces.iter().map(|&p| 1548 * own_king + p).collect(),
            Features::HalfKPE9 => unreachable!("RefNet::new refuses HalfKPE9"),
            Features::HalfKPvm => mirrored_king(&pieces, own_king, 1548),
            Features::HalfKA1 | Features::HalfKA2 | Features::HalfKAhm1 | Features::HalfKAhm2 => {
                // Both kings are pieces too, after the 1548 states: the viewer's on
                // 1548 + square, the other's on 1629 + square. The "2" sets put the
                // other king on the viewer's king's plane: 1629 states in all, not 1710.
                let one_plane = matches!(features, Features::HalfKA2 | Features::HalfKAhm2);
                pieces.push(1548 + own_king);
                pieces.push(if one_plane { 1548 } else { 1629 } + other_king);
                let states = if one_plane { 1629 } else { 1710 };
                if matches!(features, Features::HalfKA1 | Features::HalfKA2) {
                    pieces.iter().map(|&p| states * own_king + p).collect()
                } else {
                    mirrored_king(&pieces, own_king, states)
                }
            }
        }
    }
}

/// Features of `pieces` (states from the viewer's side) for the viewer's king on
/// `own_king`, with `states` states a king square, on a board folded at the centre file:
/// with the king on files 6 to 9 (file index 5 and up) the board is seen in a mirror,
/// file f becoming file 8 - f, for the king and for every piece on the board (kings
/// included); hand slots (below 90) stay.
fn mirrored_king(pieces: &[usize], own_king: usize, states: usize) -> Vec<usize> {
    let flip = |sq: usize| (8 - sq / 9) * 9 + sq % 9;
    let mirrored = own_king / 9 >= 5;
    let king = if mirrored { flip(own_king) } else { own_king };
    pieces
        .iter()
        .map(|&p| {
            let p = if mirrored && p >= 90 {
                90 + (p - 90) / 81 * 81 + flip((p - 90) % 81)
            } else {
                p
            };
            states * king + p
        })
        .collect()
}
