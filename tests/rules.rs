//! The special rules of shogi, one small hand-made position each, with the exact legal
//! moves worked out by hand in the comments.
//!
//! Reminders for reading the positions: SFEN lists rank a first and files 9 to 1 from left
//! to right; uppercase is Black, who moves towards rank a (promotion zone a-c); lowercase
//! is White, who moves towards rank i (zone g-i). A Black pawn on 5e attacks 5d, a White
//! pawn on 5e attacks 5f. A Black knight on 5e jumps to 4c and 6c; a White one to 4g
//! and 6g. A Black gold on 5e covers 5d 4d 6d (forward), 4e 6e (sideways) and 5f (back);
//! a Black silver on 5e covers 5d 4d 6d (forward) and 4f 6f (back diagonals).

use hayate::perft::{perft, LeafMode};
use hayate::position::IllegalMove;
use hayate::{Move, PieceKind, Position, Square};
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------
// Helpers

fn pos(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("SFEN {sfen:?} should parse: {e}"))
}

/// All 81 square names, `1a` to `9i`.
fn all_squares() -> Vec<String> {
    let mut v = Vec::new();
    for file in 1..=9 {
        for rank in 'a'..='i' {
            v.push(format!("{file}{rank}"));
        }
    }
    v
}

fn rank_of(sq: &str) -> char {
    sq.as_bytes()[1] as char
}

fn file_of(sq: &str) -> char {
    sq.as_bytes()[0] as char
}

/// `letter*sq` for every square that is not in `occupied` and passes `keep`.
fn drops(letter: char, occupied: &[&str], keep: impl Fn(&str) -> bool) -> BTreeSet<String> {
    all_squares()
        .into_iter()
        .filter(|s| !occupied.contains(&s.as_str()) && keep(s))
        .map(|s| format!("{letter}*{s}"))
        .collect()
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    let s: BTreeSet<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(s.len(), moves.len(), "expected list has a duplicate");
    s
}

fn move_texts(p: &Position) -> BTreeSet<String> {
    p.legal_moves().iter().map(|m| m.to_string()).collect()
}

/// Every move value that can be written down: board moves between two different squares,
/// with and without promotion, and drops of each hand kind.
fn every_move() -> Vec<Move> {
    let squares: Vec<Square> = (0..81).map(|i| Square::from_index(i).unwrap()).collect();
    let mut v = Vec::new();
    for &from in &squares {
        for &to in &squares {
            if from != to {
                v.push(Move::new(from, to, false));
                v.push(Move::new(from, to, true));
            }
        }
    }
    for kind in PieceKind::HAND {
        for &to in &squares {
            v.push(Move::drop(kind, to));
        }
    }
    v
}

/// The generator, the bulk counter, full perft and the single-move checker agree.
fn check_consistency(p: &Position) {
    let list = p.legal_moves();
    let texts = move_texts(p);
    assert_eq!(texts.len(), list.len(), "duplicate moves in {p}");
    assert_eq!(
        p.count_legal(),
        list.len(),
        "count_legal vs legal_moves in {p}"
    );
    let mut q = p.clone();
    assert_eq!(perft(&mut q, 1, LeafMode::Full), list.len() as u64);
    for mv in every_move() {
        assert_eq!(
            p.is_legal(mv),
            list.contains(&mv),
            "is_legal({mv}) disagrees with the generator in {p}"
        );
    }
    for mv in &list {
        assert_eq!(p.parse_move(&mv.to_string()), Ok(*mv), "{mv} in {p}");
        let mut q = p.clone();
        let before = q.to_string();
        let key = q.key();
        q.try_play(*mv).unwrap();
        assert_eq!(q.key(), q.key_from_scratch(), "key after {mv} in {p}");
        q.undo();
        assert_eq!(q.to_string(), before);
        assert_eq!(q.key(), key);
    }
}

/// The position's legal moves are exactly `expected`.
fn assert_moves(sfen: &str, expected: &BTreeSet<String>) -> Position {
    let p = pos(sfen);
    check_consistency(&p);
    let got = move_texts(&p);
    let missing: Vec<&String> = expected.difference(&got).collect();
    let extra: Vec<&String> = got.difference(expected).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{sfen}: missing {missing:?}, unexpected {extra:?}"
    );
    p
}

fn assert_count(p: &Position, expected: usize) {
    assert_eq!(p.count_legal(), expected, "count_legal of {p}");
    assert_eq!(p.legal_moves().len(), expected, "legal_moves of {p}");
}

fn count_drops(p: &Position, kind: PieceKind) -> usize {
    p.legal_moves()
        .iter()
        .filter(|m| m.drop_kind() == Some(kind))
        .count()
}

/// A move from its USI text (the syntax, not the legality, is checked).
fn mv(text: &str) -> Move {
    Move::from_usi(text).expect("USI move syntax")
}

fn err(p: &Position, text: &str) -> IllegalMove {
    match p.parse_move(text) {
        Ok(_) => panic!("{text} should be illegal in {p}"),
        Err(e) => e,
    }
}

fn ok(p: &Position, text: &str) {
    if let Err(e) = p.parse_move(text) {
        panic!("{text} should be legal in {p}: {e}");
    }
}

/// Plays a move without the legality check (to look at the position an illegal drop
/// would make).
fn play_raw(p: &Position, text: &str) -> Position {
    let mut q = p.clone();
    q.play_unchecked(Move::from_usi(text).unwrap());
    q
}

// ---------------------------------------------------------------------------------------
// Uchifuzume

/// 8k/9/6NG1/9/9/9/9/9/K8 b P 1 — White king 1a; Black gold 2c, knight 3c, king 9i, a
/// pawn in hand.
///
/// P*1b checks the king on 1a. The king cannot take it (gold 2c guards 1b), cannot go to
/// 2b (gold 2c) or 2a (knight 3c), and White has no other piece: mate, so illegal.
///
/// Black's legal moves:
///   king 9i: 8i 9h 8h                                         3
///   gold 2c: 2b 1b 3b 1c 2d (3c holds the knight)              5
///   knight 3c: 2a and 4a are on rank a, promotion forced: 2a+ 4a+   2
///   pawn drops: 81 - 4 pieces = 77 empty; not on rank a (8 empty there); not 1b: 68
/// total 78.
#[test]
fn uchifuzume_pawn_drop_mate_is_illegal() {
    let sfen = "8k/9/6NG1/9/9/9/9/9/K8 b P 1";
    let occ = ["1a", "2c", "3c", "9i"];
    let mut expected = set(&[
        "9i8i", "9i9h", "9i8h", "2c2b", "2c1b", "2c3b", "2c1c", "2c2d", "3c2a+", "3c4a+",
    ]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a' && s != "1b"));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 78);
    assert_eq!(err(&p, "P*1b"), IllegalMove::Uchifuzume(mv("P*1b")));

    // The drop really is mate: forced onto the board, White is in check with no reply.
    let after = play_raw(&p, "P*1b");
    assert!(after.in_check());
    assert_eq!(after.count_legal(), 0);
    assert!(after.legal_moves().is_empty());
}

/// 8k/9/7G1/9/9/9/9/9/K8 b P 1 — as above without the knight: after P*1b the king escapes
/// to 2a, so the drop is a plain check and legal.
///
///   king 9i: 3; gold 2c: 2b 1b 3b 1c 3c 2d: 6
///   pawn drops: 81 - 3 = 78 empty, minus 8 on rank a: 70 (1b included)
/// total 79. White's only answer to P*1b is 1a2a (2b is the gold's, 1b is guarded).
#[test]
fn pawn_drop_check_is_legal_when_king_can_escape() {
    let sfen = "8k/9/7G1/9/9/9/9/9/K8 b P 1";
    let mut expected = set(&[
        "9i8i", "9i9h", "9i8h", "2c2b", "2c1b", "2c3b", "2c1c", "2c3c", "2c2d",
    ]);
    expected.extend(drops('P', &["1a", "2c", "9i"], |s| rank_of(s) != 'a'));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 79);
    ok(&p, "P*1b");

    let mut after = p.clone();
    after.try_play(Move::from_usi("P*1b").unwrap()).unwrap();
    assert!(after.in_check());
    assert_eq!(move_texts(&after), set(&["1a2a"]));
}

/// 8k/9/6NGg/9/9/9/9/9/K8 b P 1 — the mating net of the first test, but a White gold on 1c
/// can take a pawn on 1b (a gold steps straight back), so P*1b is legal.
///
///   king 9i: 3
///   gold 2c: 2b 1b 3b 2d, and 1c capturing the gold (3c holds the knight): 5
///   knight 3c: 2a+ 4a+: 2
///   pawn drops: 81 - 5 = 76 empty, minus 8 on rank a: 68 (1b included)
/// total 78. After P*1b White's only legal move is 1c1b.
#[test]
fn pawn_drop_check_is_legal_when_a_defender_can_capture() {
    let sfen = "8k/9/6NGg/9/9/9/9/9/K8 b P 1";
    let occ = ["1a", "1c", "2c", "3c", "9i"];
    let mut expected = set(&[
        "9i8i", "9i9h", "9i8h", "2c2b", "2c1b", "2c3b", "2c1c", "2c2d", "3c2a+", "3c4a+",
    ]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a'));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 78);
    ok(&p, "P*1b");
    let after = play_raw(&p, "P*1b");
    assert_eq!(move_texts(&after), set(&["1c1b"]));
}

/// 8k/9/6NGg/9/8L/9/9/9/K8 b P 1 — as above plus a Black lance on 1e pinning the White
/// gold on 1c against its king (1b and 1d are empty). The gold may still take on 1b: it
/// stays on the pin line. So P*1b is not mate and is legal.
///
///   king 9i: 3; gold 2c: 5; knight 3c: 2
///   lance 1e: 1d (outside the zone, plain only); 1c capturing (zone: plain or +): 3
///   pawn drops: 81 - 6 = 75 empty, minus 8 on rank a: 67
/// total 80. After P*1b: White's only move is 1c1b.
#[test]
fn pawn_drop_check_is_legal_when_a_pinned_defender_captures_along_the_pin() {
    let sfen = "8k/9/6NGg/9/8L/9/9/9/K8 b P 1";
    let occ = ["1a", "1c", "1e", "2c", "3c", "9i"];
    let mut expected = set(&[
        "9i8i", "9i9h", "9i8h", "2c2b", "2c1b", "2c3b", "2c1c", "2c2d", "3c2a+", "3c4a+", "1e1d",
        "1e1c", "1e1c+",
    ]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a'));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 80);
    ok(&p, "P*1b");
    let after = play_raw(&p, "P*1b");
    assert_eq!(move_texts(&after), set(&["1c1b"]));
}

/// 5R1gk/9/7G1/9/9/9/9/9/K8 b P 1 — White king 1a and gold 2a; Black rook 4a (3a empty)
/// pins that gold along rank a. The gold attacks 1b, but taking there leaves the rank, so
/// after P*1b: king to 1b (gold 2c guards) or 2b (gold 2c) is impossible, 2a is its own
/// gold, the pinned gold cannot capture: mate, so P*1b is illegal.
///
///   king 9i: 3
///   gold 2c: 2b 1b 3b 1c 3c 2d: 6
///   rook 4a, starting in the zone so every move may promote: 3a, 2a (capture); 5a 6a 7a
///     8a 9a; 4b-4i (8): 15 destinations x 2 = 30
///   pawn drops: 81 - 5 = 76 empty, minus 6 empty squares of rank a, minus 1b: 69
/// total 108.
#[test]
fn uchifuzume_when_the_only_defender_is_pinned_off_the_line() {
    let sfen = "5R1gk/9/7G1/9/9/9/9/9/K8 b P 1";
    let occ = ["1a", "2a", "4a", "2c", "9i"];
    let mut expected = set(&[
        "9i8i", "9i9h", "9i8h", "2c2b", "2c1b", "2c3b", "2c1c", "2c3c", "2c2d",
    ]);
    let rook_to = [
        "3a", "2a", "5a", "6a", "7a", "8a", "9a", "4b", "4c", "4d", "4e", "4f", "4g", "4h", "4i",
    ];
    for to in rook_to {
        expected.insert(format!("4a{to}"));
        expected.insert(format!("4a{to}+"));
    }
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a' && s != "1b"));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 108);
    assert_eq!(err(&p, "P*1b"), IllegalMove::Uchifuzume(mv("P*1b")));
    let after = play_raw(&p, "P*1b");
    assert!(after.in_check());
    assert_eq!(after.count_legal(), 0);
}

/// 8k/9/6NG1/9/9/9/9/9/K8 b GLP 1 — the first mating net with a gold, a lance and a pawn
/// in hand. Only the pawn drop mate is forbidden: L*1b and G*1b mate and are legal.
///
///   board moves: king 3, gold 2c 5, knight 2: 10
///   77 empty squares (8 of them on rank a)
///   gold drops: 77; lance drops: 77 - 8 = 69; pawn drops: 69 - 1 (1b) = 68
/// total 10 + 77 + 69 + 68 = 224.
#[test]
fn non_pawn_drop_mate_is_legal() {
    let sfen = "8k/9/6NG1/9/9/9/9/9/K8 b GLP 1";
    let occ = ["1a", "2c", "3c", "9i"];
    let mut expected = set(&[
        "9i8i", "9i9h", "9i8h", "2c2b", "2c1b", "2c3b", "2c1c", "2c2d", "3c2a+", "3c4a+",
    ]);
    expected.extend(drops('G', &occ, |_| true));
    expected.extend(drops('L', &occ, |s| rank_of(s) != 'a'));
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a' && s != "1b"));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 224);
    assert_eq!(count_drops(&p, PieceKind::Gold), 77);
    assert_eq!(count_drops(&p, PieceKind::Lance), 69);
    assert_eq!(count_drops(&p, PieceKind::Pawn), 68);
    assert_eq!(err(&p, "P*1b"), IllegalMove::Uchifuzume(mv("P*1b")));
    for mate in ["L*1b", "G*1b"] {
        ok(&p, mate);
        let mut after = p.clone();
        after.try_play(Move::from_usi(mate).unwrap()).unwrap();
        assert!(after.in_check(), "{mate} gives check");
        assert_eq!(after.count_legal(), 0, "{mate} is mate");
    }
}

/// 4k4/R8/4N4/9/9/9/9/9/K8 b P 1 — White king 5a; Black rook 9b sweeps rank b, knight 5c
/// covers 4a and 6a. P*5b checks; 6b is the rook's and 5b is guarded by it, but the pawn
/// itself now stands between the rook and 4b, so the king escapes to 4b: legal.
///   king 9i: 3
///   rook 9b (in the zone, every move may promote): 8b-1b (8), 9a, 9c-9h (6): 15 x 2 = 30
///   knight 5c: 4a+ 6a+ (forced): 2
///   pawn drops: 81 - 4 = 77 empty, minus 8 on rank a: 69, 5b included
/// total 104.
#[test]
fn pawn_drop_that_blocks_its_own_rook_is_not_mate() {
    let sfen = "4k4/R8/4N4/9/9/9/9/9/K8 b P 1";
    let mut expected = set(&["9i8i", "9i9h", "9i8h", "5c4a+", "5c6a+"]);
    let rook_to = [
        "8b", "7b", "6b", "5b", "4b", "3b", "2b", "1b", "9a", "9c", "9d", "9e", "9f", "9g", "9h",
    ];
    for to in rook_to {
        expected.insert(format!("9b{to}"));
        expected.insert(format!("9b{to}+"));
    }
    expected.extend(drops('P', &["5a", "9b", "5c", "9i"], |s| rank_of(s) != 'a'));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 104);
    ok(&p, "P*5b");
    let after = play_raw(&p, "P*5b");
    assert_eq!(move_texts(&after), set(&["5a4b"]));
}

/// 4k4/R8/4N1S2/9/9/9/9/9/K8 b P 1 — as above plus a silver on 3c covering 4b: now P*5b
/// is mate and illegal.
///   king 3; rook 30; knight 2
///   silver 3c (in the zone): 3b 2b 4b 2d 4d x 2 = 10
///   pawn drops: 81 - 5 = 76, minus 8 on rank a, minus 5b: 67
/// total 112.
#[test]
fn pawn_drop_mate_with_every_escape_covered_is_illegal() {
    let sfen = "4k4/R8/4N1S2/9/9/9/9/9/K8 b P 1";
    let mut expected = set(&["9i8i", "9i9h", "9i8h", "5c4a+", "5c6a+"]);
    let rook_to = [
        "8b", "7b", "6b", "5b", "4b", "3b", "2b", "1b", "9a", "9c", "9d", "9e", "9f", "9g", "9h",
    ];
    for to in rook_to {
        expected.insert(format!("9b{to}"));
        expected.insert(format!("9b{to}+"));
    }
    for to in ["3b", "2b", "4b", "2d", "4d"] {
        expected.insert(format!("3c{to}"));
        expected.insert(format!("3c{to}+"));
    }
    expected.extend(drops('P', &["5a", "9b", "5c", "3c", "9i"], |s| {
        rank_of(s) != 'a' && s != "5b"
    }));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 112);
    assert_eq!(err(&p, "P*5b"), IllegalMove::Uchifuzume(mv("P*5b")));
    let after = play_raw(&p, "P*5b");
    assert!(after.in_check());
    assert_eq!(after.count_legal(), 0);
}

// ---------------------------------------------------------------------------------------
// Nifu

/// 4k4/9/9/9/9/9/6P2/9/4K4 b P 1 — Black pawn on 3g, a pawn in hand.
///   king 5i: 4i 6i 4h 5h 6h: 5; pawn 3g3f: 1
///   pawn drops: 81 - 3 = 78 empty; minus 8 on rank a; minus file 3's other empty squares
///     3b 3c 3d 3e 3f 3h 3i (7): 63. P*5b checks the king on 5a, which escapes to 4a 6a 4b
///     6b, so it is legal.
/// total 69.
#[test]
fn nifu_own_pawn_on_the_file_forbids_the_drop() {
    let sfen = "4k4/9/9/9/9/9/6P2/9/4K4 b P 1";
    let occ = ["5a", "3g", "5i"];
    let mut expected = set(&["5i4i", "5i6i", "5i4h", "5i5h", "5i6h", "3g3f"]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a' && file_of(s) != '3'));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 69);
    assert_eq!(err(&p, "P*3e"), IllegalMove::Nifu(mv("P*3e")));
    // Behind the pawn too.
    assert_eq!(err(&p, "P*3h"), IllegalMove::Nifu(mv("P*3h")));
    ok(&p, "P*5b");
    ok(&p, "P*2e");
}

/// 4k4/9/9/9/9/9/9/9/4K1P2 b P 1 — the Black pawn stands on its own back rank, 3i. It
/// still blocks file 3.
///   king 5i: 4i 6i 4h 5h 6h: 5; pawn 3i3h: 1
///   pawn drops: 78 empty, minus 8 on rank a, minus 3b-3h (7): 63
/// total 69.
#[test]
fn nifu_with_the_pawn_on_its_back_rank() {
    let sfen = "4k4/9/9/9/9/9/9/9/4K1P2 b P 1";
    let mut expected = set(&["5i4i", "5i6i", "5i4h", "5i5h", "5i6h", "3i3h"]);
    expected.extend(drops('P', &["5a", "5i", "3i"], |s| {
        rank_of(s) != 'a' && file_of(s) != '3'
    }));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 69);
    assert_eq!(err(&p, "P*3e"), IllegalMove::Nifu(mv("P*3e")));
    // White's pawn on its back rank, 7a, blocks file 7 for White.
    let p = pos("2p1k4/9/9/9/9/9/9/9/4K4 w p 1");
    assert_eq!(err(&p, "P*7e"), IllegalMove::Nifu(mv("P*7e")));
    ok(&p, "P*6e");
}

/// 4k4/9/9/9/9/9/6+P2/9/4K4 b P 1 — the pawn on 3g is a tokin: it does not count.
///   king 5i: 5
///   tokin 3g (moves as a gold): 3f 2f 4f 2g 4g 3h: 6
///   pawn drops: 78 empty minus 8 on rank a: 70
/// total 81.
#[test]
fn nifu_does_not_count_a_tokin() {
    let sfen = "4k4/9/9/9/9/9/6+P2/9/4K4 b P 1";
    let occ = ["5a", "3g", "5i"];
    let mut expected = set(&[
        "5i4i", "5i6i", "5i4h", "5i5h", "5i6h", "3g3f", "3g2f", "3g4f", "3g2g", "3g4g", "3g3h",
    ]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a'));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 81);
    ok(&p, "P*3e");
    ok(&p, "P*3h");
}

/// 4k4/9/6p2/9/9/9/9/9/4K4 b P 1 — an enemy pawn on 3c does not stop a Black drop.
///   king 5i: 5; pawn drops: 78 empty minus 8 on rank a: 70. Total 75.
#[test]
fn nifu_does_not_count_an_enemy_pawn() {
    let sfen = "4k4/9/6p2/9/9/9/9/9/4K4 b P 1";
    let occ = ["5a", "3c", "5i"];
    let mut expected = set(&["5i4i", "5i6i", "5i4h", "5i5h", "5i6h"]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a'));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 75);
    ok(&p, "P*3e");
    ok(&p, "P*3b");
}

/// 4k4/9/6p2/9/9/9/9/9/4K4 w p 1 — the same for White, whose pawn on 3c blocks file 3.
///   king 5a: 4a 6a 4b 5b 6b: 5; pawn 3c3d: 1
///   pawn drops: 78 empty; minus 8 on rank i (White's last rank); minus file 3's other
///     empty squares 3a 3b 3d 3e 3f 3g 3h (7): 63. P*5h checks the Black king, which can
///     take the pawn: legal.
/// total 69.
#[test]
fn nifu_for_white() {
    let sfen = "4k4/9/6p2/9/9/9/9/9/4K4 w p 1";
    let occ = ["5a", "3c", "5i"];
    let mut expected = set(&["5a4a", "5a6a", "5a4b", "5a5b", "5a6b", "3c3d"]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'i' && file_of(s) != '3'));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 69);
    assert_eq!(err(&p, "P*3e"), IllegalMove::Nifu(mv("P*3e")));
    ok(&p, "P*5h");
}

// ---------------------------------------------------------------------------------------
// Dead-end drops

/// 8k/9/9/9/9/9/9/9/4K4 b SNLP 1 — White king 1a, Black king 5i, four kinds in hand.
/// 79 empty squares, 8 of them on rank a and 9 on rank b.
///   king 5i: 5
///   pawn: not on rank a: 71 (P*1b checks; the king takes it, so it is legal)
///   lance: not on rank a: 71
///   knight: not on ranks a or b: 62
///   silver: anywhere: 79
/// total 5 + 71 + 71 + 62 + 79 = 288.
#[test]
fn dead_end_drops_black() {
    let sfen = "8k/9/9/9/9/9/9/9/4K4 b SNLP 1";
    let occ = ["1a", "5i"];
    let mut expected = set(&["5i4i", "5i6i", "5i4h", "5i5h", "5i6h"]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'a'));
    expected.extend(drops('L', &occ, |s| rank_of(s) != 'a'));
    expected.extend(drops('N', &occ, |s| rank_of(s) > 'b'));
    expected.extend(drops('S', &occ, |_| true));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 288);
    assert_eq!(count_drops(&p, PieceKind::Pawn), 71);
    assert_eq!(count_drops(&p, PieceKind::Lance), 71);
    assert_eq!(count_drops(&p, PieceKind::Knight), 62);
    assert_eq!(count_drops(&p, PieceKind::Silver), 79);
    for bad in ["P*5a", "L*9a", "N*5a", "N*5b", "N*9b"] {
        assert_eq!(err(&p, bad), IllegalMove::DeadEnd(mv(bad)));
    }
    for good in ["P*5b", "L*5b", "N*5c", "S*5a", "P*1b"] {
        ok(&p, good);
    }
}

/// 4k4/9/9/9/9/9/9/9/K8 w snlp 1 — the mirror for White: dead ranks are i (pawn, lance)
/// and h-i (knight). 79 empty squares, 8 on rank i and 9 on rank h.
///   king 5a: 4a 6a 4b 5b 6b: 5
///   pawn 71 (P*9h checks the king on 9i, which can take it), lance 71, knight 62,
///   silver 79
/// total 288.
#[test]
fn dead_end_drops_white() {
    let sfen = "4k4/9/9/9/9/9/9/9/K8 w snlp 1";
    let occ = ["5a", "9i"];
    let mut expected = set(&["5a4a", "5a6a", "5a4b", "5a5b", "5a6b"]);
    expected.extend(drops('P', &occ, |s| rank_of(s) != 'i'));
    expected.extend(drops('L', &occ, |s| rank_of(s) != 'i'));
    expected.extend(drops('N', &occ, |s| rank_of(s) < 'h'));
    expected.extend(drops('S', &occ, |_| true));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 288);
    for bad in ["P*5i", "L*1i", "N*5i", "N*5h"] {
        assert_eq!(err(&p, bad), IllegalMove::DeadEnd(mv(bad)));
    }
    for good in ["P*5h", "L*5h", "N*5g", "S*5i", "P*9h"] {
        ok(&p, good);
    }
}

// ---------------------------------------------------------------------------------------
// Promotion

/// 4k4/8P/6P2/2P6/P8/9/9/9/4K4 b - 1 — Black pawns on 1b, 3c, 7d, 9e.
///   king 5i: 4i 6i 4h 5h 6h: 5
///   1b -> 1a: last rank, must promote: 1b1a+ only: 1
///   3c -> 3b: inside the zone, either: 2
///   7d -> 7c: entering the zone, either: 2
///   9e -> 9d: outside the zone, plain only: 1
/// total 11.
#[test]
fn pawn_must_promote_on_the_last_rank() {
    let sfen = "4k4/8P/6P2/2P6/P8/9/9/9/4K4 b - 1";
    let expected = set(&[
        "5i4i", "5i6i", "5i4h", "5i5h", "5i6h", "1b1a+", "3c3b", "3c3b+", "7d7c", "7d7c+", "9e9d",
    ]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 11);
    assert_eq!(err(&p, "1b1a"), IllegalMove::DeadEnd(mv("1b1a")));
    assert_eq!(
        err(&p, "9e9d+"),
        IllegalMove::PromotionNotAllowed(mv("9e9d+"))
    );
}

/// 4k4/9/9/9/9/9/9/4p4/K8 w - 1 — a White pawn on 5h must promote on 5i.
///   king 5a: 4a 6a 4b 5b 6b: 5; pawn: 5h5i+ only: 1. Total 6.
#[test]
fn white_pawn_must_promote_on_rank_i() {
    let sfen = "4k4/9/9/9/9/9/9/4p4/K8 w - 1";
    let expected = set(&["5a4a", "5a6a", "5a4b", "5a5b", "5a6b", "5h5i+"]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 6);
    assert_eq!(err(&p, "5h5i"), IllegalMove::DeadEnd(mv("5h5i")));
}

/// 4k4/9/9/8L/9/L8/9/9/4K4 b - 1 — lances on 1d and 9f.
///   king 5i: 5
///   lance 1d: 1c, 1c+, 1b, 1b+ (rank b is not dead for a lance), 1a+ (forced): 5
///   lance 9f: 9e, 9d (plain only), 9c, 9c+, 9b, 9b+, 9a+: 7
/// total 17.
#[test]
fn lance_must_promote_on_the_last_rank() {
    let sfen = "4k4/9/9/8L/9/L8/9/9/4K4 b - 1";
    let expected = set(&[
        "5i4i", "5i6i", "5i4h", "5i5h", "5i6h", "1d1c", "1d1c+", "1d1b", "1d1b+", "1d1a+", "9f9e",
        "9f9d", "9f9c", "9f9c+", "9f9b", "9f9b+", "9f9a+",
    ]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 17);
    assert_eq!(err(&p, "1d1a"), IllegalMove::DeadEnd(mv("1d1a")));
    assert_eq!(err(&p, "9f9a"), IllegalMove::DeadEnd(mv("9f9a")));
    ok(&p, "1d1b");
}

/// 4k4/9/7N1/1N7/4N4/9/9/9/4K4 b - 1 — Black knights on 2c, 8d, 5e; White king 5a (none
/// of the knights' squares: 1a 3a, 7b 9b, 4c 6c).
///   king 5i: 5
///   2c -> 1a, 3a: rank a, promotion forced: 2
///   8d -> 7b, 9b: rank b, promotion forced: 2
///   5e -> 4c, 6c: rank c, either: 4
/// total 13.
#[test]
fn knight_must_promote_on_the_last_two_ranks() {
    let sfen = "4k4/9/7N1/1N7/4N4/9/9/9/4K4 b - 1";
    let expected = set(&[
        "5i4i", "5i6i", "5i4h", "5i5h", "5i6h", "2c1a+", "2c3a+", "8d7b+", "8d9b+", "5e4c",
        "5e4c+", "5e6c", "5e6c+",
    ]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 13);
    for bad in ["2c1a", "2c3a", "8d7b", "8d9b"] {
        assert_eq!(err(&p, bad), IllegalMove::DeadEnd(mv(bad)));
    }
}

/// 4k4/9/6S2/4S4/2S6/9/9/9/K8 b - 1 — silvers on 3c, 5d, 7e; Black king 9i.
///   king 9i: 8i 9h 8h: 3
///   silver 3c (in the zone, so every move may promote, also leaving it): 3b 2b 4b 2d 4d
///     x 2 = 10
///   silver 5d: 5c 4c 6c enter the zone (x 2 = 6); 4e 6e stay outside (plain): 8
///   silver 7e: 7d 6d 8d 6f 8f, none touching the zone: 5
/// total 26. Promotion is never forced for a silver.
#[test]
fn silver_promotion_is_optional_also_when_leaving_the_zone() {
    let sfen = "4k4/9/6S2/4S4/2S6/9/9/9/K8 b - 1";
    let mut expected = set(&[
        "9i8i", "9i9h", "9i8h", "5d5c", "5d5c+", "5d4c", "5d4c+", "5d6c", "5d6c+", "5d4e", "5d6e",
        "7e7d", "7e6d", "7e8d", "7e6f", "7e8f",
    ]);
    for to in ["3b", "2b", "4b", "2d", "4d"] {
        expected.insert(format!("3c{to}"));
        expected.insert(format!("3c{to}+"));
    }
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 26);
    ok(&p, "3c4d+");
    ok(&p, "3c4d");
    for bad in ["7e7d+", "5d4e+"] {
        assert_eq!(err(&p, bad), IllegalMove::PromotionNotAllowed(mv(bad)));
    }
}

/// Promotion of pieces that cannot promote, in the start position.
#[test]
fn gold_king_and_promoted_pieces_cannot_promote() {
    let p = Position::startpos();
    // The gold on 6i steps to 5h (a forward diagonal); the king on 5i to 5h.
    for bad in ["6i5h+", "5i5h+"] {
        assert_eq!(err(&p, bad), IllegalMove::PromotionNotAllowed(mv(bad)));
    }
    ok(&p, "6i5h");
    // A tokin on 5c inside the zone: 5c5b is a move, 5c5b+ is not.
    let p = pos("4k4/9/4+P4/9/9/9/9/9/4K4 b - 1");
    ok(&p, "5c5b");
    assert_eq!(
        err(&p, "5c5b+"),
        IllegalMove::PromotionNotAllowed(mv("5c5b+"))
    );
}

// ---------------------------------------------------------------------------------------
// Pins

/// k8/4r4/9/9/9/9/4R4/9/4K4 b - 1 — White rook 5b pins the Black rook 5g to the king 5i.
///   king 5i: 4i 6i 4h 6h, and 5h (behind its own rook, out of the White rook's reach): 5
///   rook 5g, along file 5 only: 5h; 5f 5e 5d (plain); 5c and 5b capturing (zone, either):
///     4 + 4 = 8
/// total 13.
#[test]
fn pinned_rook_moves_only_along_the_pin_and_may_capture_the_pinner() {
    let sfen = "k8/4r4/9/9/9/9/4R4/9/4K4 b - 1";
    let expected = set(&[
        "5i4i", "5i6i", "5i4h", "5i6h", "5i5h", "5g5h", "5g5f", "5g5e", "5g5d", "5g5c", "5g5c+",
        "5g5b", "5g5b+",
    ]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 13);
    assert_eq!(p.pinned().count(), 1);
    for bad in ["5g4g", "5g1g", "5g9g"] {
        assert_eq!(err(&p, bad), IllegalMove::LeavesKingInCheck(mv(bad)));
    }
}

/// 8k/9/9/9/8b/9/6B2/9/4K4 b - 1 — White bishop 1e pins the Black bishop 3g on the
/// diagonal 5i-4h-3g-2f-1e. (White king on 1a: the Black bishop's diagonals are 2f-1e,
/// 4f-...-9a, 2h-1i and 4h-5i, none reaching it.)
///   king 5i: 4i 6i 5h 6h, and 4h (the pin line, but shielded by the bishop): 5
///   bishop 3g: 4h, 2f, 1e capturing; none of them in the zone: 3
/// total 8.
#[test]
fn pinned_bishop_moves_only_along_the_diagonal() {
    let sfen = "8k/9/9/9/8b/9/6B2/9/4K4 b - 1";
    let expected = set(&[
        "5i4i", "5i6i", "5i4h", "5i5h", "5i6h", "3g4h", "3g2f", "3g1e",
    ]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 8);
    assert_eq!(err(&p, "3g4f"), IllegalMove::LeavesKingInCheck(mv("3g4f")));
}

/// 8k/9/9/9/4l4/9/4N4/9/4K4 b - 1 — White lance 5e pins the Black knight 5g. A knight
/// never moves along a line: no moves. King 5i: 4i 6i 4h 6h 5h (shielded): 5. Total 5.
#[test]
fn pinned_knight_cannot_move() {
    let sfen = "8k/9/9/9/4l4/9/4N4/9/4K4 b - 1";
    let expected = set(&["5i4i", "5i6i", "5i4h", "5i6h", "5i5h"]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 5);
    assert_eq!(err(&p, "5g4e"), IllegalMove::LeavesKingInCheck(mv("5g4e")));
}

/// 8k/4r4/9/9/9/9/4S4/9/4K4 b - 1 — a silver pinned on a file keeps only its straight
/// step forward, 5f. King 5i: 5. Total 6.
#[test]
fn pinned_silver_keeps_only_the_step_along_the_file() {
    let sfen = "8k/4r4/9/9/9/9/4S4/9/4K4 b - 1";
    let expected = set(&["5i4i", "5i6i", "5i4h", "5i6h", "5i5h", "5g5f"]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 6);
}

/// Pinned pawns and lances.
#[test]
fn pinned_pawn_and_lance() {
    // 4r3k/9/9/4P4/9/9/9/9/4K4 b - 1: White rook 5a pins the pawn 5d to the king 5i.
    //   king: 4i 6i 4h 6h, 5h (shielded by the pawn): 5
    //   pawn 5d: 5c along the pin, entering the zone: 5d5c, 5d5c+: 2
    // total 7.
    let expected = set(&["5i4i", "5i6i", "5i4h", "5i6h", "5i5h", "5d5c", "5d5c+"]);
    let p = assert_moves("4r3k/9/9/4P4/9/9/9/9/4K4 b - 1", &expected);
    assert_count(&p, 7);

    // 8k/9/9/9/8b/9/6P2/9/4K4 b - 1: White bishop 1e pins the pawn 3g on the diagonal
    // 5i-4h-3g-2f-1e; its step to 3f leaves the line. King: 5 (4h shielded). Total 5.
    let expected = set(&["5i4i", "5i6i", "5i4h", "5i6h", "5i5h"]);
    let p = assert_moves("8k/9/9/9/8b/9/6P2/9/4K4 b - 1", &expected);
    assert_count(&p, 5);
    assert_eq!(err(&p, "3g3f"), IllegalMove::LeavesKingInCheck(mv("3g3f")));

    // 4r3k/9/9/9/9/9/4L4/9/4K4 b - 1: the rook pins the lance 5g; the lance slides up the
    // pin line: 5f 5e 5d (plain), 5c 5b (either), 5a capturing (forced +): 8.
    // King: 5. Total 13.
    let expected = set(&[
        "5i4i", "5i6i", "5i4h", "5i6h", "5i5h", "5g5f", "5g5e", "5g5d", "5g5c", "5g5c+", "5g5b",
        "5g5b+", "5g5a+",
    ]);
    let p = assert_moves("4r3k/9/9/9/9/9/4L4/9/4K4 b - 1", &expected);
    assert_count(&p, 13);

    // 8k/9/9/9/8b/9/6L2/9/4K4 b - 1: a lance pinned on a diagonal cannot move. Total 5.
    let expected = set(&["5i4i", "5i6i", "5i4h", "5i6h", "5i5h"]);
    let p = assert_moves("8k/9/9/9/8b/9/6L2/9/4K4 b - 1", &expected);
    assert_count(&p, 5);
}

// ---------------------------------------------------------------------------------------
// Checks

/// k3r4/9/9/9/8b/9/3G5/9/4K4 b G 1 — double check: White rook 5a down file 5 and White
/// bishop 1e along 2f-3g-4h. Gold 6g could block 5g and a gold could be dropped on 5h,
/// but no single move stops two checkers: only the king moves.
///   5h: rook's file; 4h: bishop's diagonal; 4i, 6i, 6h: attacked by neither.
/// total 3.
#[test]
fn double_check_allows_only_king_moves() {
    let sfen = "k3r4/9/9/9/8b/9/3G5/9/4K4 b G 1";
    let expected = set(&["5i4i", "5i6i", "5i6h"]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 3);
    assert!(p.in_check());
    assert_eq!(p.checkers().count(), 2);
    for bad in ["6g5g", "G*5h", "G*4h", "5i5h", "5i4h"] {
        assert_eq!(err(&p, bad), IllegalMove::LeavesKingInCheck(mv(bad)));
    }
}

/// k3r4/9/9/9/8B/9/9/9/4K4 b GNLP 1 — White rook 5a checks the king on 5i down file 5.
/// Black can step aside, capture the rook with the bishop from 1e (1e-2d-3c-4b-5a), or
/// drop a piece on 5b-5h.
///   king: 4i 6i 4h 6h (5h is on the file): 4
///   bishop 1e: 5a capturing, entering the zone: 1e5a, 1e5a+: 2
///   drops on the 7 squares 5b-5h: gold 7, lance 7, pawn 7 (no Black pawn on file 5; no
///     drop there checks White's king on 9a), knight 6 (not on 5b)
/// total 4 + 2 + 7 + 7 + 7 + 6 = 33.
#[test]
fn evasions_by_capture_or_drop_interposition() {
    let sfen = "k3r4/9/9/9/8B/9/9/9/4K4 b GNLP 1";
    let mut expected = set(&["5i4i", "5i6i", "5i4h", "5i6h", "1e5a", "1e5a+"]);
    let between = ["5b", "5c", "5d", "5e", "5f", "5g", "5h"];
    for sq in between {
        for letter in ['G', 'L', 'P'] {
            expected.insert(format!("{letter}*{sq}"));
        }
        if sq != "5b" {
            expected.insert(format!("N*{sq}"));
        }
    }
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 33);
    assert!(p.in_check());
    assert_eq!(p.checkers().count(), 1);
    for bad in ["1e2d", "G*4e", "P*4e", "5i5h"] {
        assert_eq!(err(&p, bad), IllegalMove::LeavesKingInCheck(mv(bad)));
    }
    assert_eq!(err(&p, "N*5b"), IllegalMove::DeadEnd(mv("N*5b")));
}

/// 4k4/9/9/9/b8/9/9/9/4R3K w gnlp 1 — the previous position turned round for White: the
/// Black rook 5i checks the king on 5a; the White bishop 9e can take it (9e-8f-7g-6h-5i).
///   king: 4a 6a 4b 6b (5b is on the file): 4
///   bishop: 9e5i, 9e5i+ (5i is in White's zone): 2
///   drops on 5b-5h: gold 7, lance 7, pawn 7, knight 6 (not on 5h, White's second-last
///   rank)
/// total 33.
#[test]
fn evasions_for_white() {
    let sfen = "4k4/9/9/9/b8/9/9/9/4R3K w gnlp 1";
    let mut expected = set(&["5a4a", "5a6a", "5a4b", "5a6b", "9e5i", "9e5i+"]);
    for sq in ["5b", "5c", "5d", "5e", "5f", "5g", "5h"] {
        for letter in ['G', 'L', 'P'] {
            expected.insert(format!("{letter}*{sq}"));
        }
        if sq != "5h" {
            expected.insert(format!("N*{sq}"));
        }
    }
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 33);
    assert_eq!(err(&p, "N*5h"), IllegalMove::DeadEnd(mv("N*5h")));
    assert_eq!(err(&p, "9e8d"), IllegalMove::LeavesKingInCheck(mv("9e8d")));
}

/// k8/9/9/9/9/9/5n3/9/4K4 b G 1 — a White knight on 4g checks 5i (it jumps to 3i and 5i).
/// A knight check cannot be blocked: no drop helps. King: 4i 6i 4h 5h 6h, none attacked.
/// Total 5.
#[test]
fn knight_check_cannot_be_blocked() {
    let sfen = "k8/9/9/9/9/9/5n3/9/4K4 b G 1";
    let expected = set(&["5i4i", "5i6i", "5i4h", "5i5h", "5i6h"]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 5);
    assert!(p.in_check());
    assert_eq!(err(&p, "G*5h"), IllegalMove::LeavesKingInCheck(mv("G*5h")));
}

/// 4r4/9/9/9/4K4/6g2/9/9/8k b - 1 — Black king 5e checked by the White rook 5a; a White
/// gold on 3f covers 3g 2g 4g, 2f 4f and 3e.
///   5d: on the rook's file; 5f: further down the same file, still attacked once the king
///   has left 5e; 4f: the gold's. Legal: 4d 6d 4e 6e 6f.
/// total 5.
#[test]
fn king_cannot_step_into_check_or_along_the_checking_line() {
    let sfen = "4r4/9/9/9/4K4/6g2/9/9/8k b - 1";
    let expected = set(&["5e4d", "5e6d", "5e4e", "5e6e", "5e6f"]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 5);
    for bad in ["5e5d", "5e5f", "5e4f"] {
        assert_eq!(err(&p, bad), IllegalMove::LeavesKingInCheck(mv(bad)));
    }
}

/// 4l4/9/9/9/4K4/9/9/5l3/8k b - 1 — White lance 5a checks the king on 5e (a White lance
/// looks towards rank i). A second White lance on 4h looks at 4i only, not up the file.
///   5d and 5f: the checking lance's file; 4d 6d 4e 6e 4f 6f: free.
/// total 6.
#[test]
fn lance_attacks_only_forward() {
    let sfen = "4l4/9/9/9/4K4/9/9/5l3/8k b - 1";
    let expected = set(&["5e4d", "5e6d", "5e4e", "5e6e", "5e4f", "5e6f"]);
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 6);
    assert_eq!(p.checkers().count(), 1);
}

/// Discovered checks: the checkers of the position after a move include a slider that the
/// moved piece uncovered.
#[test]
fn discovered_checks_are_seen_after_the_move() {
    // 4k4/9/9/9/4S4/4L4/9/9/K8 b - 1: silver 5e in front of the lance 5f, White king 5a.
    // 5e4d opens the file. White: 5b is on the lance's line; 4b is not covered by the
    // silver on 4d (4c 3c 5c 3e 5e). Replies: 5a4a 5a6a 5a4b 5a6b.
    let mut p = pos("4k4/9/9/9/4S4/4L4/9/9/K8 b - 1");
    p.try_play(p.parse_move("5e4d").unwrap()).unwrap();
    assert!(p.in_check());
    assert_eq!(p.checkers().count(), 1);
    assert!(p.checkers().has(Square::from_usi("5f").unwrap()));
    assert_eq!(move_texts(&p), set(&["5a4a", "5a6a", "5a4b", "5a6b"]));
    check_consistency(&p);

    // 4k4/9/9/7G1/8B/9/9/9/K8 b - 1: the gold on 2d stands on the bishop's diagonal
    // 1e-2d-3c-4b-5a. 2d2c uncovers the bishop. White: 4b is on the diagonal; the gold on
    // 2c covers 2b 1b 3b 1c 3c 2d, none next to 5a. Replies: 4a 6a 5b 6b.
    let mut p = pos("4k4/9/9/7G1/8B/9/9/9/K8 b - 1");
    assert!(!p.in_check());
    p.try_play(p.parse_move("2d2c").unwrap()).unwrap();
    assert!(p.in_check());
    assert!(p.checkers().has(Square::from_usi("1e").unwrap()));
    assert_eq!(move_texts(&p), set(&["5a4a", "5a6a", "5a5b", "5a6b"]));
    check_consistency(&p);

    // 4k4/9/9/9/4N4/9/9/9/K3R4 b - 1: knight 5e in front of the rook 5i.
    // 5e4c: the knight on 4c attacks 3a and 5a, and the rook is uncovered: double check.
    // White: 5b on the rook's file; 4a 6a 4b 6b free. Replies: 4.
    // 5e4c+: a promoted knight moves like a gold and does not reach 5a (it covers 4b 3b 5b
    // 3c 5c 4d): single check by the rook. Replies: 4a 6a 6b (4b, 5b covered).
    let start = pos("4k4/9/9/9/4N4/9/9/9/K3R4 b - 1");
    let mut p = start.clone();
    p.try_play(p.parse_move("5e4c").unwrap()).unwrap();
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(move_texts(&p), set(&["5a4a", "5a6a", "5a4b", "5a6b"]));
    check_consistency(&p);
    let mut p = start.clone();
    p.try_play(p.parse_move("5e4c+").unwrap()).unwrap();
    assert_eq!(p.checkers().count(), 1);
    assert!(p.checkers().has(Square::from_usi("5i").unwrap()));
    assert_eq!(move_texts(&p), set(&["5a4a", "5a6a", "5a6b"]));
    check_consistency(&p);

    // A king move can uncover a check too: 4k4/9/9/9/4K4/9/9/9/4R4 b - 1, the Black king
    // on 5e shields the White king 5a from the rook 5i. 5e4e: check from 5i. White: 5b on
    // the file; 4b next to nothing of Black's (the Black king on 4e covers ranks d-f).
    // Replies: 4a 6a 4b 6b.
    let mut p = pos("4k4/9/9/9/4K4/9/9/9/4R4 b - 1");
    p.try_play(p.parse_move("5e4e").unwrap()).unwrap();
    assert!(p.checkers().has(Square::from_usi("5i").unwrap()));
    assert_eq!(move_texts(&p), set(&["5a4a", "5a6a", "5a4b", "5a6b"]));

    // A lance dropped at a distance checks: 4k4/9/9/9/9/9/9/9/K8 b L 1, L*5e attacks 5d
    // 5c 5b 5a. Replies: 4a 6a 4b 6b (5b on the file).
    let mut p = pos("4k4/9/9/9/9/9/9/9/K8 b L 1");
    p.try_play(p.parse_move("L*5e").unwrap()).unwrap();
    assert!(p.checkers().has(Square::from_usi("5e").unwrap()));
    assert_eq!(move_texts(&p), set(&["5a4a", "5a6a", "5a4b", "5a6b"]));
}

// ---------------------------------------------------------------------------------------
// Positions without kings

/// 4k4/9/9/9/9/9/9/9/8R b G 1 — Black has no king: nothing can be pinned or in check.
///   rook 1i: file 1: 1h 1g 1f 1e 1d (plain) and 1c 1b 1a (either): 5 + 6 = 11;
///     rank i: 2i-9i: 8. 19
///   gold drops: 81 - 2 = 79
/// total 98.
#[test]
fn side_to_move_without_a_king() {
    let sfen = "4k4/9/9/9/9/9/9/9/8R b G 1";
    let mut expected = set(&[
        "1i1h", "1i1g", "1i1f", "1i1e", "1i1d", "1i1c", "1i1c+", "1i1b", "1i1b+", "1i1a", "1i1a+",
    ]);
    for file in 2..=9 {
        expected.insert(format!("1i{file}i"));
    }
    expected.extend(drops('G', &["5a", "1i"], |_| true));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 98);
    assert!(!p.in_check());
    assert!(p.checkers().is_empty());
    assert_eq!(p.king_square(hayate::Color::Black), None);
}

/// 8k/9/6NG1/9/9/9/9/9/9 b P 1 — the uchifuzume net of the first test, Black without a
/// king. The rule still applies.
///   gold 2c: 5; knight 3c: 2; pawn drops: 81 - 3 = 78, minus 8 on rank a, minus 1b: 69
/// total 76.
#[test]
fn uchifuzume_applies_when_the_attacker_has_no_king() {
    let sfen = "8k/9/6NG1/9/9/9/9/9/9 b P 1";
    let mut expected = set(&["2c2b", "2c1b", "2c3b", "2c1c", "2c2d", "3c2a+", "3c4a+"]);
    expected.extend(drops('P', &["1a", "2c", "3c"], |s| {
        rank_of(s) != 'a' && s != "1b"
    }));
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 76);
    assert_eq!(err(&p, "P*1b"), IllegalMove::Uchifuzume(mv("P*1b")));
}

/// 9/9/9/9/9/9/9/9/4K4 w p 1 — White without a king, a pawn in hand.
/// 80 empty squares, minus 8 on rank i: 72. P*5h checks Black's king, which can take it:
/// legal. Total 72.
#[test]
fn white_without_a_king_drops_anywhere_legal() {
    let sfen = "9/9/9/9/9/9/9/9/4K4 w p 1";
    let expected = drops('P', &["5i"], |s| rank_of(s) != 'i');
    let p = assert_moves(sfen, &expected);
    assert_count(&p, 72);
    ok(&p, "P*5h");
}

/// Only the side to move has a king, and no kings at all.
#[test]
fn positions_with_one_or_no_king() {
    // 9/9/9/9/9/9/9/9/4K4 b P 1: king 5i: 5; pawn drops: 80 empty minus 9 on rank a: 71.
    // No enemy king, so no uchifuzume question. Total 76.
    let mut expected = set(&["5i4i", "5i6i", "5i4h", "5i5h", "5i6h"]);
    expected.extend(drops('P', &["5i"], |s| rank_of(s) != 'a'));
    let p = assert_moves("9/9/9/9/9/9/9/9/4K4 b P 1", &expected);
    assert_count(&p, 76);

    // An empty board: no moves, no check.
    let p = assert_moves("9/9/9/9/9/9/9/9/9 b - 1", &BTreeSet::new());
    assert_count(&p, 0);
    assert!(!p.in_check());

    // An empty board and a pawn: every square off rank a, 72.
    let p = assert_moves(
        "9/9/9/9/9/9/9/9/9 b P 1",
        &drops('P', &[], |s| rank_of(s) != 'a'),
    );
    assert_count(&p, 72);
}

// ---------------------------------------------------------------------------------------
// parse_move error variants

#[test]
fn parse_move_reports_the_broken_rule() {
    let p = Position::startpos();
    let syntax = ["7g7", "", "p*5e"];
    for text in syntax {
        assert_eq!(
            p.parse_move(text),
            Err(IllegalMove::Syntax(text.to_string())),
            "{text}"
        );
    }
    type Variant = fn(Move) -> IllegalMove;
    let cases: [(&str, Variant); 7] = [
        ("5e5d", IllegalMove::NoPiece),
        ("3c3d", IllegalMove::NotYourPiece),
        ("8h7g", IllegalMove::OwnPieceOnTarget),
        ("7g7e", IllegalMove::NoSuchMove),
        // Bishop 8h to 2b: the pawn on 7g is in the way.
        ("8h2b", IllegalMove::NoSuchMove),
        ("7g7f+", IllegalMove::PromotionNotAllowed),
        ("P*5e", IllegalMove::NotInHand),
    ];
    for (text, variant) in cases {
        assert_eq!(p.parse_move(text), Err(variant(mv(text))), "{text}");
        assert!(!p.is_legal(mv(text)));
    }
    // The message names the move.
    let e = p.parse_move("P*5e").unwrap_err();
    assert!(e.to_string().contains("P*5e"), "{e}");

    // Drops on occupied squares, own or enemy, before the dead-end check.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    assert_eq!(
        p.parse_move("P*5i"),
        Err(IllegalMove::DropOnOccupied(mv("P*5i")))
    );
    assert_eq!(
        p.parse_move("P*5a"),
        Err(IllegalMove::DropOnOccupied(mv("P*5a")))
    );
    assert_eq!(
        p.parse_move("G*5e"),
        Err(IllegalMove::NotInHand(mv("G*5e")))
    );

    // A king may not step next to the other king.
    let p = pos("9/9/9/4k4/9/4K4/9/9/9 b - 1");
    assert_eq!(
        p.parse_move("5f5e"),
        Err(IllegalMove::LeavesKingInCheck(mv("5f5e")))
    );
    // 5f: 4e 5e 6e are next to the White king on 5d; 4f 6f 4g 5g 6g are free.
    let expected = set(&["5f4f", "5f6f", "5f4g", "5f5g", "5f6g"]);
    assert_moves("9/9/9/4k4/9/4K4/9/9/9 b - 1", &expected);
}

/// After a move the other side's pieces are "yours".
#[test]
fn parse_move_follows_the_side_to_move() {
    let mut p = Position::startpos();
    p.try_play(p.parse_move("7g7f").unwrap()).unwrap();
    ok(&p, "3c3d");
    assert_eq!(
        p.parse_move("7f7e"),
        Err(IllegalMove::NotYourPiece(mv("7f7e")))
    );
    assert_eq!(p.parse_move("7g7f"), Err(IllegalMove::NoPiece(mv("7g7f"))));
    // try_play of an illegal move changes nothing.
    let before = p.to_string();
    let key = p.key();
    assert!(p.try_play(Move::from_usi("2g2f").unwrap()).is_err());
    assert_eq!(p.to_string(), before);
    assert_eq!(p.key(), key);
}
