//! The evaluation's weights: one flat vector, so that the tuner can fit all of them as a
//! single linear model, and the evaluation reads each term by a fixed offset.
//!
//! Every term is "weight × count" for some feature of the position (a piece on a square
//! relative to a king, a number of attacked squares next to a king, ...), which keeps the
//! evaluation linear in the weights: see `eval::features` and the tuner.

use crate::types::PieceKind;
use std::fmt::Write as _;

/// A section of the weight vector: its first index, its length and a name for `eval`.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    pub name: &'static str,
    pub start: usize,
    pub len: usize,
}

/// Offsets of a piece relative to a king: `|file difference|` (0..9) by rank difference
/// (-8..=8), seen from the piece owner's side.
pub const REL: usize = 9 * 17;
/// Most pieces of one kind a hand can hold, plus one (counts 0..=18).
pub const HAND_COUNTS: usize = 19;
/// Largest mobility count tracked (a dragon reaches at most 20 squares).
pub const MOBILITY: usize = 21;
/// Squares of a king's neighbourhood, the king's own square included.
pub const ZONE: usize = 10;

const fn next(prev: Section, name: &'static str, len: usize) -> Section {
    Section {
        name,
        start: prev.start + prev.len,
        len,
    }
}

pub const MATERIAL: Section = Section {
    name: "material",
    start: 0,
    len: 15,
};
/// Value of holding `n` pieces of a kind in hand, indexed `kind * HAND_COUNTS + n`.
pub const HAND: Section = next(MATERIAL, "hand", 8 * HAND_COUNTS);
/// Piece placement relative to its own king, `kind * REL + offset`.
pub const OWN_KING: Section = next(HAND, "near own king", 15 * REL);
/// Piece placement relative to the enemy king, `kind * REL + offset`.
pub const ENEMY_KING: Section = next(OWN_KING, "near enemy king", 15 * REL);
/// The king's own square, seen from its side: `rank * 5 + folded file`.
pub const KING_SQUARE: Section = next(ENEMY_KING, "king square", 45);
/// Squares of the king zone the enemy attacks (count 0..=9), `turn * ZONE + count`,
/// where `turn` is 1 when the attacker is to move: the same attack is worth much more to
/// the side that can carry it on at once (split this way, held-out error fell by 1%).
pub const ZONE_ATTACKED: Section = next(KING_SQUARE, "king zone attacked", 2 * ZONE);
/// Squares of the king zone the enemy attacks and only the king defends (`turn * ZONE +
/// count`).
pub const ZONE_WEAK: Section = next(ZONE_ATTACKED, "king zone undefended", 2 * ZONE);
/// Enemy hand pieces, by kind, weighted by the attacked zone squares (`(turn * 8 + kind) *
/// ZONE + n`).
pub const HAND_THREAT: Section = next(ZONE_WEAK, "enemy hand threat", 2 * 8 * ZONE);
/// Open file in front of the king (squares a rook there would see), when the enemy has a
/// rook or dragon anywhere.
pub const OPEN_FILE: Section = next(HAND_THREAT, "open file to king", 9);
/// Open diagonals around the king (squares a bishop there would see), when the enemy has a
/// bishop or horse anywhere.
pub const OPEN_DIAGONAL: Section = next(OPEN_FILE, "open diagonals to king", 17);
/// Squares of the 5 × 5 box around a king, by rank and file offset (the king's own
/// square is in the layout but never counted).
pub const BOX: usize = 25;
/// Classes of an attacked box square: the enemy's attackers (1, 2, 3 or more) × our
/// defenders, the king left out (0, 1, 2 or more) × what stands there (nothing, ours,
/// theirs) × whether the enemy holds a gold, silver, bishop or rook to drop × whether the
/// enemy is to move. (The last split cut the held-out error by 4%, as much as the whole
/// section had: an attacked square means little when the defender moves next.)
pub const CONTROL_CLASSES: usize = 3 * 3 * 3 * 2 * 2;
/// Control of the squares around a king, `box square * CONTROL_CLASSES + class`: the
/// square-by-square picture of an attack that the zone counts only sum up.
pub const CONTROL: Section = next(OPEN_DIAGONAL, "king zone control", BOX * CONTROL_CLASSES);
/// Pieces under threat, `(kind * 2 + how) * 2 + owner to move`: `how` 0 for a piece the
/// enemy attacks and nothing of ours defends, 1 for one an enemy pawn attacks.
pub const THREAT: Section = next(CONTROL, "pieces under threat", 15 * 2 * 2);
/// Squares a slider attacks, `kind * MOBILITY + count`.
pub const MOBILITY_TERM: Section = next(THREAT, "mobility", 15 * MOBILITY);
/// Bonus for the side to move.
pub const TEMPO: Section = next(MOBILITY_TERM, "tempo", 1);

/// Every section, in vector order.
pub const SECTIONS: [Section; 14] = [
    MATERIAL,
    HAND,
    OWN_KING,
    ENEMY_KING,
    KING_SQUARE,
    ZONE_ATTACKED,
    ZONE_WEAK,
    HAND_THREAT,
    OPEN_FILE,
    OPEN_DIAGONAL,
    CONTROL,
    THREAT,
    MOBILITY_TERM,
    TEMPO,
];

/// Length of the weight vector.
pub const NUM_WEIGHTS: usize = TEMPO.start + TEMPO.len;

/// Index of a relative offset: `dx` = |file difference| (0..9), `dy` = rank difference
/// (-8..=8) with negative meaning "towards the owner's far side".
#[inline(always)]
pub const fn rel_index(dx: usize, dy: i32) -> usize {
    ((dy + 8) as usize) * 9 + dx
}

/// Board value of each kind (pawn = 100 scale).
pub const PIECE_VALUES: [i32; 15] = [
    0, 90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395,
];

/// Value of each hand kind's first piece in hand: a little more than on the board, since a
/// piece in hand can be dropped almost anywhere.
const HAND_FIRST: [i32; 8] = [0, 105, 330, 420, 560, 900, 1050, 620];

/// The starting weights: material from common shogi piece values, placement terms from
/// simple distance rules. The tuner refines them; the tuned vector, when present, replaces
/// these (see `eval::weights`).
pub fn initial() -> Vec<i32> {
    let mut w = vec![0i32; NUM_WEIGHTS];
    w[MATERIAL.start..MATERIAL.start + 15].copy_from_slice(&PIECE_VALUES);

    // Hand: the n-th piece of a kind is worth a bit less than the one before.
    for kind in PieceKind::HAND {
        let k = kind.index();
        let mut total = 0;
        for n in 1..HAND_COUNTS {
            let marginal = HAND_FIRST[k] * (100 - 6 * (n as i32 - 1).min(10)) / 100;
            total += marginal;
            w[HAND.start + k * HAND_COUNTS + n] = total;
        }
    }

    for kind in PieceKind::ALL {
        if kind == PieceKind::King {
            continue;
        }
        let k = kind.index();
        for dx in 0..9usize {
            for dy in -8i32..=8 {
                let d = (dx as i32).max(dy.abs());
                let i = rel_index(dx, dy);
                // Defenders: golds, silvers and promoted minors near their own king.
                let defender = kind.moves_like_gold() || kind == PieceKind::Silver;
                if defender {
                    w[OWN_KING.start + k * REL + i] = match d {
                        1 => 35,
                        2 => 15,
                        3 => 0,
                        _ => -8 * (d - 3),
                    };
                }
                // Attackers: pieces close to the enemy king.
                let attack = match kind {
                    PieceKind::Pawn | PieceKind::Lance => 0,
                    PieceKind::Knight => 15,
                    PieceKind::Silver => 30,
                    PieceKind::Bishop | PieceKind::Rook => 10,
                    PieceKind::Horse | PieceKind::Dragon => 45,
                    _ => 40,
                };
                w[ENEMY_KING.start + k * REL + i] = match d {
                    1 => attack,
                    2 => attack * 2 / 3,
                    3 => attack / 3,
                    _ => 0,
                };
            }
        }
    }

    // King square by relative rank (0 = far rank) and folded file (0 = edge, 4 = centre).
    const RANK: [i32; 9] = [-10, -20, -30, -60, -70, -60, -40, -15, 0];
    const FILE: [i32; 5] = [0, 5, 5, 0, -10];
    for r in 0..9 {
        for f in 0..5 {
            w[KING_SQUARE.start + r * 5 + f] = RANK[r] + FILE[f];
        }
    }
    const ATTACKED: [i32; ZONE] = [0, -8, -20, -36, -56, -80, -108, -140, -176, -216];
    const WEAK: [i32; ZONE] = [0, -15, -35, -60, -90, -125, -165, -210, -260, -315];
    for half in 0..2 {
        let a = ZONE_ATTACKED.start + half * ZONE;
        w[a..a + ZONE].copy_from_slice(&ATTACKED);
        let b = ZONE_WEAK.start + half * ZONE;
        w[b..b + ZONE].copy_from_slice(&WEAK);
    }
    for kind in PieceKind::HAND {
        let per = match kind {
            PieceKind::Rook | PieceKind::Bishop => 10,
            PieceKind::Gold | PieceKind::Silver => 8,
            PieceKind::Knight => 6,
            _ => 3,
        };
        for n in 0..ZONE {
            w[HAND_THREAT.start + kind.index() * ZONE + n] = -per * (n as i32 + 1);
            w[HAND_THREAT.start + 8 * ZONE + kind.index() * ZONE + n] = -per * (n as i32 + 1);
        }
    }
    for n in 0..9 {
        w[OPEN_FILE.start + n] = -6 * (n as i32 - 1).max(0);
    }
    for n in 0..17 {
        w[OPEN_DIAGONAL.start + n] = -4 * (n as i32 - 2).max(0);
    }
    for kind in [
        PieceKind::Lance,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Horse,
        PieceKind::Dragon,
    ] {
        let (average, per) = match kind {
            PieceKind::Lance => (3, 3),
            PieceKind::Bishop | PieceKind::Rook => (6, 4),
            _ => (9, 3),
        };
        for n in 0..MOBILITY {
            w[MOBILITY_TERM.start + kind.index() * MOBILITY + n] = per * (n as i32 - average);
        }
    }
    w[TEMPO.start] = 20;
    w
}

/// The weights as the text file the evaluation loads: one section per block, headed by a
/// comment with its name.
pub fn format(weights: &[i32]) -> String {
    let mut text =
        String::from("# hayate evaluation weights (see src/eval/params.rs for the layout)\n");
    for s in SECTIONS {
        let _ = writeln!(text, "# {}", s.name);
        for chunk in weights[s.start..s.start + s.len].chunks(17) {
            let row: Vec<String> = chunk.iter().map(|v| v.to_string()).collect();
            let _ = writeln!(text, "{}", row.join(" "));
        }
    }
    text
}

/// Parses [`format`]'s format; `None` unless it holds exactly the right number of weights.
pub fn parse(text: &str) -> Option<Vec<i32>> {
    let mut values = Vec::with_capacity(NUM_WEIGHTS);
    for line in text.lines().filter(|l| !l.trim_start().starts_with('#')) {
        for token in line.split_whitespace() {
            values.push(token.parse().ok()?);
        }
    }
    (values.len() == NUM_WEIGHTS).then_some(values)
}
