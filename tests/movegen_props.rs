//! Property tests of `hayate`'s move generation against a slow reference generator.
//!
//! The reference generator in this file is written from the rules of shogi alone. It reads
//! a position only through `Position::piece_at`, `Position::hand` and
//! `Position::side_to_move`, copies it into a plain `[[Option<Piece>; 9]; 9]` array, and
//! from then on never calls into the library: how each piece moves is a table of
//! (file, rank) steps and rays walked square by square; a candidate move is tried by playing
//! it on a copy of the array; and it is legal when afterwards no enemy piece can reach the
//! mover's king, found by scanning every enemy piece's moves. Promotion choices, dead-end
//! squares, nifu and uchifuzume (a pawn drop that checks and leaves the opponent without a
//! single legal reply, found by running the same generator for the opponent) are applied
//! literally. It shares no attack tables, bitboards, pin or check-mask logic with the
//! library, so agreement between the two is evidence that the fast generator is right,
//! not that both make the same mistake. The reference itself is anchored to published
//! perft counts (`reference_matches_published_perft`).
//!
//! Random playouts from the start position, the handicap positions of
//! `tests/data/handicaps.tsv`, positions with many pieces in hand and positions without
//! kings then check at every ply: the legal move list against the reference, the
//! Captures/Quiets/Evasions split, `count_legal`, check detection, the incremental key,
//! SFEN printing and parsing, play/undo, and `is_legal`/`parse_move` on legal moves and on
//! many illegal candidates.

use hayate::position::GenType;
use hayate::{Color, Move, MoveList, Piece, PieceKind, Position, Square};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::collections::{BTreeSet, HashMap, HashSet};

// ---------------------------------------------------------------------------------------
// The reference model

/// `board[file][rank]`: file 0 is file 1, rank 0 is rank a.
type Board = [[Option<Piece>; 9]; 9];

/// The kinds a player can hold, in the order of the `hands` arrays below.
const HAND_KINDS: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];
const HAND_LETTERS: [char; 7] = ['P', 'L', 'N', 'S', 'G', 'B', 'R'];
/// The order SFEN lists hand pieces in (indices into `HAND_KINDS`).
const SFEN_HAND_ORDER: [usize; 7] = [6, 5, 4, 3, 2, 1, 0];
const PAWN_SLOT: usize = 0;

fn hand_slot(kind: PieceKind) -> usize {
    match kind {
        PieceKind::Pawn => 0,
        PieceKind::Lance => 1,
        PieceKind::Knight => 2,
        PieceKind::Silver => 3,
        PieceKind::Gold => 4,
        PieceKind::Bishop => 5,
        PieceKind::Rook => 6,
        other => panic!("{other:?} cannot be held in hand"),
    }
}

fn color_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn opponent(color: Color) -> Color {
    match color {
        Color::Black => Color::White,
        Color::White => Color::Black,
    }
}

/// What a piece of `kind` turns into when it promotes, if it can.
fn promoted_kind(kind: PieceKind) -> Option<PieceKind> {
    match kind {
        PieceKind::Pawn => Some(PieceKind::ProPawn),
        PieceKind::Lance => Some(PieceKind::ProLance),
        PieceKind::Knight => Some(PieceKind::ProKnight),
        PieceKind::Silver => Some(PieceKind::ProSilver),
        PieceKind::Bishop => Some(PieceKind::Horse),
        PieceKind::Rook => Some(PieceKind::Dragon),
        _ => None,
    }
}

/// What a captured piece of `kind` becomes in the captor's hand.
fn base_kind(kind: PieceKind) -> PieceKind {
    match kind {
        PieceKind::ProPawn => PieceKind::Pawn,
        PieceKind::ProLance => PieceKind::Lance,
        PieceKind::ProKnight => PieceKind::Knight,
        PieceKind::ProSilver => PieceKind::Silver,
        PieceKind::Horse => PieceKind::Bishop,
        PieceKind::Dragon => PieceKind::Rook,
        other => other,
    }
}

/// Black's view of the board: steps and ray directions as (file, rank) deltas, a negative
/// rank delta being "forward" (towards rank a). White's moves are these turned round.
const STEP_PAWN: &[(i32, i32)] = &[(0, -1)];
const STEP_KNIGHT: &[(i32, i32)] = &[(-1, -2), (1, -2)];
const STEP_SILVER: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const STEP_GOLD: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const STEP_KING: &[(i32, i32)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const ORTHOGONAL: &[(i32, i32)] = &[(0, -1), (0, 1), (-1, 0), (1, 0)];
const DIAGONAL: &[(i32, i32)] = &[(-1, -1), (1, -1), (-1, 1), (1, 1)];
const FORWARD: &[(i32, i32)] = &[(0, -1)];
const NONE: &[(i32, i32)] = &[];

/// A list of (file, rank) deltas.
type Deltas = &'static [(i32, i32)];

/// (single steps, rays) of a piece kind, from Black's side.
fn movement(kind: PieceKind) -> (Deltas, Deltas) {
    match kind {
        PieceKind::Pawn => (STEP_PAWN, NONE),
        PieceKind::Lance => (NONE, FORWARD),
        PieceKind::Knight => (STEP_KNIGHT, NONE),
        PieceKind::Silver => (STEP_SILVER, NONE),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => (STEP_GOLD, NONE),
        PieceKind::King => (STEP_KING, NONE),
        PieceKind::Bishop => (NONE, DIAGONAL),
        PieceKind::Rook => (NONE, ORTHOGONAL),
        PieceKind::Horse => (ORTHOGONAL, DIAGONAL),
        PieceKind::Dragon => (DIAGONAL, ORTHOGONAL),
    }
}

/// The rank as `color` sees it: 0 is its far rank.
fn relative_rank(color: Color, rank: usize) -> usize {
    match color {
        Color::Black => rank,
        Color::White => 8 - rank,
    }
}

fn in_zone(color: Color, rank: usize) -> bool {
    relative_rank(color, rank) < 3
}

/// Whether a piece of `kind` standing on `rank` could never move again.
fn dead_end(kind: PieceKind, color: Color, rank: usize) -> bool {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => relative_rank(color, rank) == 0,
        PieceKind::Knight => relative_rank(color, rank) <= 1,
        _ => false,
    }
}

fn on_board(file: i32, rank: i32) -> bool {
    (0..9).contains(&file) && (0..9).contains(&rank)
}

/// Calls `visit(file, rank)` for every square the piece on (`file`, `rank`) can move to
/// (empty or holding an enemy piece), stopping early when `visit` returns true. Returns
/// whether it stopped early.
fn for_each_target(
    board: &Board,
    file: usize,
    rank: usize,
    mut visit: impl FnMut(usize, usize) -> bool,
) -> bool {
    let piece = board[file][rank].expect("a piece to move");
    let color = piece.color();
    let turn = match color {
        Color::Black => 1,
        Color::White => -1,
    };
    let (steps, rays) = movement(piece.kind());
    let reachable = |f: usize, r: usize| board[f][r].is_none_or(|p| p.color() != color);
    for &(df, dr) in steps {
        let (f, r) = (file as i32 + turn * df, rank as i32 + turn * dr);
        if on_board(f, r) && reachable(f as usize, r as usize) && visit(f as usize, r as usize) {
            return true;
        }
    }
    for &(df, dr) in rays {
        let (mut f, mut r) = (file as i32, rank as i32);
        loop {
            f += turn * df;
            r += turn * dr;
            if !on_board(f, r) {
                break;
            }
            let (fu, ru) = (f as usize, r as usize);
            if reachable(fu, ru) && visit(fu, ru) {
                return true;
            }
            if board[fu][ru].is_some() {
                break;
            }
        }
    }
    false
}

fn king_of(board: &Board, color: Color) -> Option<(usize, usize)> {
    let king = Some(Piece::new(color, PieceKind::King));
    (0..9)
        .flat_map(|f| (0..9).map(move |r| (f, r)))
        .find(|&(f, r)| board[f][r] == king)
}

/// The squares of `by`'s pieces that can move to (`file`, `rank`).
fn attackers(board: &Board, file: usize, rank: usize, by: Color) -> BTreeSet<(usize, usize)> {
    let mut found = BTreeSet::new();
    for f in 0..9 {
        for r in 0..9 {
            if board[f][r].is_some_and(|p| p.color() == by)
                && for_each_target(board, f, r, |tf, tr| tf == file && tr == rank)
            {
                found.insert((f, r));
            }
        }
    }
    found
}

fn is_attacked(board: &Board, file: usize, rank: usize, by: Color) -> bool {
    (0..9).any(|f| {
        (0..9).any(|r| {
            board[f][r].is_some_and(|p| p.color() == by)
                && for_each_target(board, f, r, |tf, tr| tf == file && tr == rank)
        })
    })
}

/// Whether `color` has a king and an enemy piece could capture it.
fn king_attacked(board: &Board, color: Color) -> bool {
    king_of(board, color).is_some_and(|(f, r)| is_attacked(board, f, r, opponent(color)))
}

/// The enemy pieces giving check to `color`'s king.
fn checkers_of(board: &Board, color: Color) -> BTreeSet<(usize, usize)> {
    match king_of(board, color) {
        Some((f, r)) => attackers(board, f, r, opponent(color)),
        None => BTreeSet::new(),
    }
}

/// A move in the reference model. Squares are (file index, rank index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum RefMove {
    Board {
        from: (usize, usize),
        to: (usize, usize),
        promote: bool,
    },
    /// `slot` indexes `HAND_KINDS`.
    Drop { slot: usize, to: (usize, usize) },
}

fn square_name((file, rank): (usize, usize)) -> String {
    format!(
        "{}{}",
        (b'1' + file as u8) as char,
        (b'a' + rank as u8) as char
    )
}

impl RefMove {
    /// USI notation, written without the library's help.
    fn usi(self) -> String {
        match self {
            RefMove::Board { from, to, promote } => format!(
                "{}{}{}",
                square_name(from),
                square_name(to),
                if promote { "+" } else { "" }
            ),
            RefMove::Drop { slot, to } => format!("{}*{}", HAND_LETTERS[slot], square_name(to)),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct RefPos {
    board: Board,
    /// `hands[color][slot]`, slots as in `HAND_KINDS`.
    hands: [[u32; 7]; 2],
    side: Color,
}

impl RefPos {
    fn from_position(pos: &Position) -> RefPos {
        let mut board: Board = [[None; 9]; 9];
        for (f, column) in board.iter_mut().enumerate() {
            for (r, cell) in column.iter_mut().enumerate() {
                *cell = pos.piece_at(Square::from_index(f * 9 + r).expect("square index"));
            }
        }
        let mut hands = [[0; 7]; 2];
        for color in [Color::Black, Color::White] {
            for (slot, &kind) in HAND_KINDS.iter().enumerate() {
                hands[color_index(color)][slot] = pos.hand(color).count(kind);
            }
        }
        RefPos {
            board,
            hands,
            side: pos.side_to_move(),
        }
    }

    /// The position after `mv`, which must be a move of the side to move.
    fn apply(&self, mv: RefMove) -> RefPos {
        let mut next = self.clone();
        let us = self.side;
        match mv {
            RefMove::Board { from, to, promote } => {
                let piece = next.board[from.0][from.1].expect("a piece on the origin");
                if let Some(captured) = next.board[to.0][to.1] {
                    next.hands[color_index(us)][hand_slot(base_kind(captured.kind()))] += 1;
                }
                let kind = if promote {
                    promoted_kind(piece.kind()).expect("a promotable piece")
                } else {
                    piece.kind()
                };
                next.board[from.0][from.1] = None;
                next.board[to.0][to.1] = Some(Piece::new(us, kind));
            }
            RefMove::Drop { slot, to } => {
                next.hands[color_index(us)][slot] -= 1;
                next.board[to.0][to.1] = Some(Piece::new(us, HAND_KINDS[slot]));
            }
        }
        next.side = opponent(us);
        next
    }

    /// Every move of the side to move that follows the movement, promotion, dead-end and
    /// drop rules, whether or not it leaves the king in check.
    fn candidates(&self) -> Vec<RefMove> {
        let us = self.side;
        let mut out = Vec::new();
        for f in 0..9 {
            for r in 0..9 {
                let Some(piece) = self.board[f][r] else {
                    continue;
                };
                if piece.color() != us {
                    continue;
                }
                let kind = piece.kind();
                for_each_target(&self.board, f, r, |tf, tr| {
                    let from = (f, r);
                    let to = (tf, tr);
                    if promoted_kind(kind).is_some() && (in_zone(us, r) || in_zone(us, tr)) {
                        out.push(RefMove::Board {
                            from,
                            to,
                            promote: true,
                        });
                    }
                    if !dead_end(kind, us, tr) {
                        out.push(RefMove::Board {
                            from,
                            to,
                            promote: false,
                        });
                    }
                    false
                });
            }
        }
        let own_pawn = Some(Piece::new(us, PieceKind::Pawn));
        for (slot, &kind) in HAND_KINDS.iter().enumerate() {
            if self.hands[color_index(us)][slot] == 0 {
                continue;
            }
            for f in 0..9 {
                if kind == PieceKind::Pawn && self.board[f].contains(&own_pawn) {
                    continue;
                }
                for r in 0..9 {
                    if self.board[f][r].is_none() && !dead_end(kind, us, r) {
                        out.push(RefMove::Drop { slot, to: (f, r) });
                    }
                }
            }
        }
        out
    }

    /// Whether the side to move has at least one move that does not leave its king in
    /// check (uchifuzume is not looked at here).
    fn has_any_legal_move(&self) -> bool {
        self.candidates()
            .into_iter()
            .any(|mv| !king_attacked(&self.apply(mv).board, self.side))
    }

    /// Every legal move.
    fn legal_moves(&self) -> Vec<RefMove> {
        let us = self.side;
        self.candidates()
            .into_iter()
            .filter(|&mv| {
                let next = self.apply(mv);
                if king_attacked(&next.board, us) {
                    return false;
                }
                // Uchifuzume: a pawn drop that checks and leaves no legal reply.
                let pawn_drop = matches!(mv, RefMove::Drop { slot, .. } if slot == PAWN_SLOT);
                !(pawn_drop && king_attacked(&next.board, next.side) && !next.has_any_legal_move())
            })
            .collect()
    }

    /// SFEN without the move number, written without the library's help.
    fn sfen(&self) -> String {
        let mut out = String::new();
        for r in 0..9 {
            if r > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for f in (0..9).rev() {
                match self.board[f][r] {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(&piece_letters(piece));
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
        out.push_str(match self.side {
            Color::Black => " b ",
            Color::White => " w ",
        });
        let mut hand = String::new();
        for color in [Color::Black, Color::White] {
            for slot in SFEN_HAND_ORDER {
                let n = self.hands[color_index(color)][slot];
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                if n > 0 {
                    let letter = HAND_LETTERS[slot];
                    hand.push(match color {
                        Color::Black => letter,
                        Color::White => letter.to_ascii_lowercase(),
                    });
                }
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        out.push_str(&hand);
        out
    }
}

/// SFEN letters of a piece: `+P`, `k`, ...
fn piece_letters(piece: Piece) -> String {
    let kind = piece.kind();
    let (promoted, letter) = match kind {
        PieceKind::King => (false, 'K'),
        other => {
            let base = base_kind(other);
            (base != other, HAND_LETTERS[hand_slot(base)])
        }
    };
    let letter = match piece.color() {
        Color::Black => letter,
        Color::White => letter.to_ascii_lowercase(),
    };
    if promoted {
        format!("+{letter}")
    } else {
        letter.to_string()
    }
}

/// Leaf count of the reference generator's move tree.
fn reference_perft(pos: &RefPos, depth: u32) -> u64 {
    let moves = pos.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .into_iter()
        .map(|mv| reference_perft(&pos.apply(mv), depth - 1))
        .sum()
}

// ---------------------------------------------------------------------------------------
// Comparing the library with the reference

fn square(coords: (usize, usize)) -> Square {
    Square::from_index(coords.0 * 9 + coords.1).expect("square on the board")
}

fn coords(sq: Square) -> (usize, usize) {
    (sq.file().index(), sq.rank().index())
}

macro_rules! ensure {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err(format!($($arg)+));
        }
    };
}

/// USI strings of `moves` as a set; an error naming them if some move appears twice.
fn move_set(what: &str, moves: &[Move]) -> Result<BTreeSet<String>, String> {
    let mut set = BTreeSet::new();
    for mv in moves {
        ensure!(set.insert(mv.to_string()), "{what} lists {mv} twice");
    }
    Ok(set)
}

/// Up to `n` indices below `len`, spread evenly from an offset chosen by `salt`.
fn sample_indices(len: usize, n: usize, salt: u32) -> Vec<usize> {
    if len <= n {
        return (0..len).collect();
    }
    let offset = salt as usize % len;
    (0..n).map(|i| (offset + i * len / n) % len).collect()
}

/// Every check of one position. Returns the library's legal moves.
fn check_position(pos: &Position, salt: u32) -> Result<MoveList, String> {
    let sfen = pos.to_string();
    let model = RefPos::from_position(pos);
    let us = model.side;

    // SFEN printing agrees with an independent writer.
    let (body, _) = sfen.rsplit_once(' ').ok_or("SFEN without a move number")?;
    let expected_sfen = model.sfen();
    ensure!(
        body == expected_sfen,
        "prints as {sfen}, the pieces read back say {expected_sfen}"
    );

    // The legal moves, against the reference.
    let legal = pos.legal_moves();
    let lib_set = move_set("legal_moves", &legal)?;
    let ref_moves = model.legal_moves();
    let ref_by_usi: HashMap<String, RefMove> = ref_moves.iter().map(|&mv| (mv.usi(), mv)).collect();
    let ref_set: BTreeSet<String> = ref_by_usi.keys().cloned().collect();
    if lib_set != ref_set {
        let missing: Vec<_> = ref_set.difference(&lib_set).collect();
        let extra: Vec<_> = lib_set.difference(&ref_set).collect();
        return Err(format!(
            "legal moves differ from the reference: library misses {missing:?}, \
             library has extra {extra:?}"
        ));
    }
    ensure!(
        pos.count_legal() == legal.len(),
        "count_legal() = {} but legal_moves() has {}",
        pos.count_legal(),
        legal.len()
    );

    // Captures and Quiets split the legal moves.
    let mut captures = MoveList::new();
    pos.generate(GenType::Captures, &mut captures);
    let mut quiets = MoveList::new();
    pos.generate(GenType::Quiets, &mut quiets);
    let capture_set = move_set("Captures", &captures)?;
    let quiet_set = move_set("Quiets", &quiets)?;
    if let Some(both) = capture_set.intersection(&quiet_set).next() {
        return Err(format!("{both} is in both Captures and Quiets"));
    }
    let union: BTreeSet<String> = capture_set.union(&quiet_set).cloned().collect();
    if union != lib_set {
        let missing: Vec<_> = lib_set.difference(&union).collect();
        let extra: Vec<_> = union.difference(&lib_set).collect();
        return Err(format!(
            "Captures + Quiets differ from Legal: missing {missing:?}, extra {extra:?}"
        ));
    }
    let captures_something = |mv: &Move| {
        mv.from().is_some()
            && model.board[mv.to().file().index()][mv.to().rank().index()]
                .is_some_and(|p| p.color() != us)
    };
    for mv in &captures {
        ensure!(
            captures_something(mv) || mv.is_promotion(),
            "{mv} is in Captures but neither captures nor promotes"
        );
    }
    for mv in &quiets {
        ensure!(
            !captures_something(mv) && !mv.is_promotion(),
            "{mv} is in Quiets but captures or promotes"
        );
    }

    // Check detection.
    let ref_checkers = checkers_of(&model.board, us);
    let lib_checkers: BTreeSet<(usize, usize)> = Square::all()
        .filter(|&sq| pos.checkers().has(sq))
        .map(coords)
        .collect();
    ensure!(
        lib_checkers == ref_checkers,
        "checkers() on {:?}, reference {:?}",
        lib_checkers
            .iter()
            .map(|&c| square_name(c))
            .collect::<Vec<_>>(),
        ref_checkers
            .iter()
            .map(|&c| square_name(c))
            .collect::<Vec<_>>()
    );
    let ref_in_check = king_attacked(&model.board, us);
    ensure!(
        pos.in_check() == ref_in_check,
        "in_check() = {}, the reference says {ref_in_check}",
        pos.in_check()
    );
    if pos.in_check() {
        let mut evasions = MoveList::new();
        pos.generate(GenType::Evasions, &mut evasions);
        let evasion_set = move_set("Evasions", &evasions)?;
        if evasion_set != lib_set {
            let missing: Vec<_> = lib_set.difference(&evasion_set).collect();
            let extra: Vec<_> = evasion_set.difference(&lib_set).collect();
            return Err(format!(
                "Evasions differ from Legal: missing {missing:?}, extra {extra:?}"
            ));
        }
    }
    for color in [Color::Black, Color::White] {
        let lib_king = pos.king_square(color).map(coords);
        let ref_king = king_of(&model.board, color);
        ensure!(
            lib_king == ref_king,
            "king_square({color:?}) = {lib_king:?}, the board has it on {ref_king:?}"
        );
    }

    // Keys.
    ensure!(
        pos.key() == pos.key_from_scratch(),
        "key() {:#x} != key_from_scratch() {:#x}",
        pos.key(),
        pos.key_from_scratch()
    );
    ensure!(
        pos.part_keys() == pos.part_keys_from_scratch(),
        "part_keys() {:x?} != part_keys_from_scratch() {:x?}",
        pos.part_keys(),
        pos.part_keys_from_scratch()
    );

    // SFEN round trip.
    let parsed: Position = sfen
        .parse()
        .map_err(|e| format!("its own SFEN does not parse: {e:?}"))?;
    ensure!(
        parsed.to_string() == sfen,
        "SFEN round trip prints {parsed}"
    );
    ensure!(
        parsed.key() == pos.key(),
        "parsed SFEN has key {:#x}, the position {:#x}",
        parsed.key(),
        pos.key()
    );
    ensure!(
        parsed.checkers() == pos.checkers(),
        "parsed SFEN has other checkers"
    );

    // Make and unmake a sample of the legal moves.
    let mut work = pos.clone();
    for i in sample_indices(legal.len(), 20, salt) {
        let mv = legal[i];
        let expected = model.apply(ref_by_usi[&mv.to_string()]);
        work.play_unchecked(mv);
        let after = RefPos::from_position(&work);
        ensure!(
            after == expected,
            "after play_unchecked({mv}) the position is {work}, expected {}",
            expected.sfen()
        );
        ensure!(
            work.key() == work.key_from_scratch(),
            "after {mv}: key() {:#x} != key_from_scratch() {:#x}",
            work.key(),
            work.key_from_scratch()
        );
        let expected_checkers = checkers_of(&expected.board, expected.side);
        let got_checkers: BTreeSet<(usize, usize)> = Square::all()
            .filter(|&sq| work.checkers().has(sq))
            .map(coords)
            .collect();
        ensure!(
            got_checkers == expected_checkers,
            "after {mv} ({work}): checkers() on {:?}, reference {:?}",
            got_checkers
                .iter()
                .map(|&c| square_name(c))
                .collect::<Vec<_>>(),
            expected_checkers
                .iter()
                .map(|&c| square_name(c))
                .collect::<Vec<_>>()
        );
        let undone = work.undo();
        ensure!(undone == Some(mv), "undo() after {mv} returned {undone:?}");
        ensure!(work.to_string() == sfen, "play/undo of {mv} leaves {work}");
        ensure!(
            work.key() == pos.key() && work.checkers() == pos.checkers(),
            "play/undo of {mv} changes the key or the checkers"
        );
    }

    // is_legal and parse_move accept every legal move...
    for &mv in &legal {
        ensure!(
            pos.is_legal(mv),
            "is_legal({mv}) is false for a generated move"
        );
        let text = mv.to_string();
        let parsed = pos.parse_move(&text);
        ensure!(
            parsed == Ok(mv),
            "parse_move({text}) = {parsed:?} for a generated move"
        );
    }

    // ...and agree with the reference on candidates that are mostly illegal: every
    // origin/destination pair of the mover's pieces with and without promotion, and every
    // drop of every kind.
    let ref_keys: HashSet<RefMove> = ref_moves.iter().copied().collect();
    let mut probed = 0u32;
    let mut probe = |mv: Move, key: RefMove| -> Result<(), String> {
        let want = ref_keys.contains(&key);
        let got = pos.is_legal(mv);
        ensure!(
            got == want,
            "is_legal({mv}) = {got}, the reference says {want}"
        );
        probed = probed.wrapping_add(1);
        if !want && probed % 16 == salt % 16 {
            let text = mv.to_string();
            let parsed = pos.parse_move(&text);
            ensure!(
                parsed.is_err(),
                "parse_move({text}) = {parsed:?} for an illegal move"
            );
        }
        Ok(())
    };
    for from_f in 0..9 {
        for from_r in 0..9 {
            if model.board[from_f][from_r].is_none_or(|p| p.color() != us) {
                continue;
            }
            let from = (from_f, from_r);
            for to_f in 0..9 {
                for to_r in 0..9 {
                    let to = (to_f, to_r);
                    if to == from {
                        continue;
                    }
                    for promote in [false, true] {
                        let mv = Move::new(square(from), square(to), promote);
                        probe(mv, RefMove::Board { from, to, promote })?;
                    }
                }
            }
        }
    }
    for (slot, &kind) in HAND_KINDS.iter().enumerate() {
        for f in 0..9 {
            for r in 0..9 {
                probe(
                    Move::drop(kind, square((f, r))),
                    RefMove::Drop { slot, to: (f, r) },
                )?;
            }
        }
    }
    // Moves of pieces that are not the mover's (or of nothing) are never legal.
    let probe_to = square(((salt % 9) as usize, (salt / 9 % 9) as usize));
    for from in Square::all() {
        let (f, r) = coords(from);
        if from != probe_to && model.board[f][r].is_none_or(|p| p.color() != us) {
            let mv = Move::new(from, probe_to, false);
            ensure!(
                !pos.is_legal(mv),
                "is_legal({mv}) for a piece not the mover's"
            );
        }
    }
    // A refused try_play leaves the position alone.
    let (from, to) = (
        (0, 0),
        if probe_to == square((0, 0)) {
            (0, 1)
        } else {
            coords(probe_to)
        },
    );
    if !ref_keys.contains(&RefMove::Board {
        from,
        to,
        promote: false,
    }) {
        let illegal = Move::new(square(from), square(to), false);
        let mut attempt = pos.clone();
        ensure!(
            attempt.try_play(illegal).is_err(),
            "try_play({illegal}) accepted an illegal move"
        );
        ensure!(
            attempt.to_string() == sfen && attempt.key() == pos.key(),
            "a refused try_play({illegal}) changed the position"
        );
    }

    Ok(legal)
}

/// Plays from `start`, at ply `i` the legal move `choices[i] % count`, checking every
/// position on the way, then takes all the moves back.
fn playout(start: &str, choices: &[u32]) -> Result<(), TestCaseError> {
    let mut pos: Position = start
        .parse()
        .map_err(|e| TestCaseError::fail(format!("{start}: {e}")))?;
    let mut played: Vec<Move> = Vec::new();
    let mut sfens: Vec<String> = Vec::new();
    let fail = |pos: &Position, played: &[Move], why: String| {
        let moves: Vec<String> = played.iter().map(|m| m.to_string()).collect();
        TestCaseError::fail(format!(
            "\n  start:    {start}\n  moves:    {}\n  position: {pos}\n  problem:  {why}",
            moves.join(" ")
        ))
    };
    for &choice in choices {
        let legal = check_position(&pos, choice).map_err(|e| fail(&pos, &played, e))?;
        if legal.is_empty() {
            break;
        }
        let mv = legal[choice as usize % legal.len()];
        sfens.push(pos.to_string());
        pos.try_play(mv)
            .map_err(|e| fail(&pos, &played, format!("try_play({mv}) refused: {e}")))?;
        played.push(mv);
    }
    check_position(&pos, 0).map_err(|e| fail(&pos, &played, e))?;
    while let Some(before) = sfens.pop() {
        let expected = played.pop();
        let undone = pos.undo();
        if undone != expected || pos.to_string() != before || pos.key() != pos.key_from_scratch() {
            return Err(fail(
                &pos,
                &played,
                format!("undo() gave {undone:?} and {pos}, expected {expected:?} and {before}"),
            ));
        }
    }
    if pos.undo().is_some() {
        return Err(fail(&pos, &played, "undo() past the start".to_string()));
    }
    Ok(())
}

/// Plies per playout.
const PLIES: usize = 150;
/// Playouts per start position; `PROPTEST_CASES` in the environment overrides it for a
/// longer hunt.
const CASES: u32 = 24;

fn run_playouts(name: &str, sfen: &str, cases: u32) {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 256,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let strategy = prop::collection::vec(any::<u32>(), PLIES);
    if let Err(e) = runner.run(&strategy, |choices| playout(sfen, &choices)) {
        panic!("playout from {name} ({sfen}) failed: {e}");
    }
}

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
const MATSURI: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
const MAX_MOVES: &str = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1";

fn handicaps() -> Vec<(&'static str, &'static str)> {
    include_str!("data/handicaps.tsv")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            line.split_once('\t')
                .unwrap_or_else(|| panic!("handicaps.tsv: no tab in {line:?}"))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Tests

#[test]
fn reference_matches_published_perft() {
    // The reference generator is only worth comparing against if it is right itself.
    let start = RefPos::from_position(&STARTPOS.parse().unwrap());
    assert_eq!(reference_perft(&start, 1), 30);
    assert_eq!(reference_perft(&start, 2), 900);
    assert_eq!(reference_perft(&start, 3), 25_470);
    let matsuri = RefPos::from_position(&MATSURI.parse().unwrap());
    assert_eq!(reference_perft(&matsuri, 1), 207);
    assert_eq!(reference_perft(&matsuri, 2), 28_684);
    let max_moves = RefPos::from_position(&MAX_MOVES.parse().unwrap());
    assert_eq!(reference_perft(&max_moves, 1), 593);
}

#[test]
fn playouts_from_startpos() {
    run_playouts("startpos", STARTPOS, CASES);
}

#[test]
fn playouts_from_handicaps_first_half() {
    let all = handicaps();
    assert!(
        all.len() >= 10,
        "handicaps.tsv has only {} positions",
        all.len()
    );
    for (name, sfen) in &all[..all.len() / 2] {
        run_playouts(name, sfen, CASES);
    }
}

#[test]
fn playouts_from_handicaps_second_half() {
    let all = handicaps();
    for (name, sfen) in &all[all.len() / 2..] {
        run_playouts(name, sfen, CASES);
    }
}

#[test]
fn playouts_from_positions_rich_in_hand() {
    run_playouts("matsuri", MATSURI, CASES);
    run_playouts("max-moves", MAX_MOVES, CASES);
}

#[test]
fn playouts_without_kings() {
    // Tsume setups: the attacker has no king, so nothing it does is restricted by checks.
    run_playouts("tsume", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", CASES);
    run_playouts(
        "tsume-white",
        "9/9/9/9/9/9/4p4/9/4K4 w 2R2B3G4S4N4L17Pg 1",
        CASES,
    );
    // No king on either side.
    run_playouts(
        "no-kings",
        "9/2+R6/9/4p4/9/4P4/9/6+b2/9 b 2GS2NLP2gs2n2l7p 1",
        CASES,
    );
}

/// Positions built around one pawn drop, with whether that drop is legal.
const UCHIFUZUME_CASES: &[(&str, &str, bool)] = &[
    // The king on 9a cannot step away or take the defended pawn: pawn drop mate.
    ("k8/9/G8/9/9/9/9/9/1L2K4 b P 1", "P*9b", false),
    // The same without Black's king (a tsume setup).
    ("k8/9/G8/9/9/9/9/9/1L7 b P 1", "P*9b", false),
    // A gold on 8a takes the pawn.
    ("kg7/9/G8/9/9/9/9/9/1L2K4 b P 1", "P*9b", true),
    // That gold is pinned along rank a by the rook on 7a: mate again.
    ("kgR6/9/G8/9/9/9/9/9/1L2K4 b P 1", "P*9b", false),
    // The gold on 5c is pinned along the file, but taking the pawn keeps it on the file.
    ("4k4/9/4g4/2B6/4R4/9/9/9/K2L1L3 b P 1", "P*5b", true),
    // A silver there cannot step straight back to take it: mate.
    ("4k4/9/4s4/2B6/4R4/9/9/9/K2L1L3 b P 1", "P*5b", false),
    // The king simply steps aside.
    ("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5b", true),
    // The king takes the undefended pawn.
    ("k8/9/9/9/9/9/9/9/1L2K4 b P 1", "P*9b", true),
    // White drops the mating pawn on 1h.
    ("4k2l1/9/9/9/9/9/8g/9/8K w p 1", "P*1h", false),
];

#[test]
fn uchifuzume_positions() {
    for &(sfen, drop, legal) in UCHIFUZUME_CASES {
        let pos: Position = sfen.parse().unwrap();
        if let Err(e) = check_position(&pos, 7) {
            panic!("{sfen}: {e}");
        }
        let model = RefPos::from_position(&pos);
        let in_reference = model.legal_moves().iter().any(|mv| mv.usi() == drop);
        assert_eq!(in_reference, legal, "{sfen}: the reference on {drop}");
        let in_library = pos.legal_moves().iter().any(|mv| mv.to_string() == drop);
        assert_eq!(in_library, legal, "{sfen}: legal_moves() on {drop}");
        let parsed = pos.parse_move(drop);
        assert_eq!(
            parsed.is_ok(),
            legal,
            "{sfen}: parse_move({drop}) = {parsed:?}"
        );
        // A playout from each, to look at the positions around it.
        run_playouts(sfen, sfen, 4);
    }
}
