//! Game-ending rules beyond checkmate: sennichite (fourfold repetition, perpetual check),
//! superior/inferior repetitions as seen by the search, the entering-king declaration in
//! its CSA variants, and the try rule.
//!
//! Every expected result is worked out by hand from the rules in the comments.
//!
//! Reading the SFENs: rank a comes first and files go 9 to 1 from left to right; uppercase
//! is Black, who moves towards rank a (promotion zone / camp a-c); lowercase is White
//! (camp g-i). A "+P" / "+p" is a tokin (promoted pawn): it scores 1 point, moves like a
//! gold and is never a dead piece, so it can sit on any rank.

use hayate::position::{EnteringKingRule, Repetition};
use hayate::Position;

// ---------------------------------------------------------------------------------------
// Helpers

fn pos(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("SFEN {sfen:?} should parse: {e}"))
}

/// Plays one USI move, checking that it is legal here.
fn play(p: &mut Position, usi: &str) {
    let mv = p
        .parse_move(usi)
        .unwrap_or_else(|e| panic!("move {usi} should be legal: {e:?}"));
    assert!(
        p.legal_moves().contains(&mv),
        "{usi} missing from legal_moves"
    );
    p.play_unchecked(mv);
}

const ALL_RULES: [EnteringKingRule; 6] = [
    EnteringKingRule::NoEnteringKing,
    EnteringKingRule::CsaRule24,
    EnteringKingRule::CsaRule24H,
    EnteringKingRule::CsaRule27,
    EnteringKingRule::CsaRule27H,
    EnteringKingRule::TryRule,
];

/// The rules under which the side to move of `sfen` may declare, as a list.
fn declaring_rules(sfen: &str) -> Vec<EnteringKingRule> {
    let p = pos(sfen);
    ALL_RULES
        .iter()
        .copied()
        .filter(|&r| p.can_declare_win(r))
        .collect()
}

// ---------------------------------------------------------------------------------------
// 1. Plain sennichite from the start position

/// Both rooks step aside and back: after every 4 plies the start position (Black to move,
/// empty hands) is back. Nobody ever gives check, so the fourth occurrence is a draw.
#[test]
fn sennichite_draw_from_startpos_rook_shuffle() {
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    let mut p = Position::startpos();
    let start_key = p.key();
    for round in 1..=3 {
        for (i, mv) in cycle.iter().enumerate() {
            play(&mut p, mv);
            let plies = (round - 1) * 4 + i + 1;
            if plies < 12 {
                // The start position has occurred at most 3 times (plies 0, 4, 8), and the
                // intermediate positions at most 3 times too: no sennichite yet.
                assert_eq!(p.sennichite(), None, "after {plies} plies");
            }
            if plies == 2 {
                // Nothing has repeated: the board after 2 plies (rooks on 3h and 7b)
                // never occurred before with Black to move.
                assert_eq!(p.repetition(usize::MAX), None);
            }
            if plies == 4 {
                // Start position again, first seen 4 plies back; no checks: a draw.
                assert_eq!(p.key(), start_key);
                assert_eq!(p.repetition(usize::MAX), Some(Repetition::Draw));
                assert_eq!(p.repetition(4), Some(Repetition::Draw));
                // The earlier occurrence is 4 plies back, beyond a 3-ply window.
                assert_eq!(p.repetition(3), None);
            }
        }
        // Start position: occurrences at plies 0, 4, 8, 12 -> round + 1 of them.
        assert_eq!(p.key(), start_key);
        assert!(!p.in_check());
    }
    // Fourth occurrence at ply 12, no check anywhere: draw.
    assert_eq!(p.sennichite(), Some(Repetition::Draw));

    // Taking the last move back leaves the position after ply 11, which occurred at plies
    // 3, 7, 11 only: no sennichite.
    p.undo();
    assert_eq!(p.sennichite(), None);
}

/// The history starts at the parsed position: the same shuffle from a parsed startpos SFEN
/// behaves the same, and positions before parsing do not exist.
#[test]
fn sennichite_counts_from_the_parsed_position() {
    let mut p = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    for _ in 0..2 {
        for mv in ["2h3h", "8b7b", "3h2h", "7b8b"] {
            play(&mut p, mv);
        }
    }
    // Occurrences at plies 0, 4, 8: three, not four.
    assert_eq!(p.sennichite(), None);
    for mv in ["2h3h", "8b7b", "3h2h", "7b8b"] {
        play(&mut p, mv);
    }
    assert_eq!(p.sennichite(), Some(Repetition::Draw));
}

// ---------------------------------------------------------------------------------------
// 2. Perpetual check

/// White king 5a, Black rook 4e, Black king 9i; Black to move. Neither king is attacked:
/// the rook covers file 4 and rank e only.
const PERPETUAL: &str = "4k4/9/9/9/5R3/9/9/9/K8 b - 1";

/// Black's rook checks the White king every move, the king shuffles 5a <-> 4a:
/// 4e5e (the rook on 5e sees 5d 5c 5b 5a: check), 5a4a (4a is off file 5 and rank e),
/// 5e4e (rook on file 4 sees 4a: check), 4a5a (5a is off file 4 and rank e).
const CHECK_CYCLE: [&str; 4] = ["4e5e", "5a4a", "5e4e", "4a5a"];

/// Plays `moves`, asserting that every Black move gives check and no White move does.
fn play_checked(p: &mut Position, moves: &[&str], black_checks: &[bool]) {
    let mut b = 0;
    for mv in moves {
        let black_moving = p.side_to_move() == hayate::Color::Black;
        play(p, mv);
        if black_moving {
            assert_eq!(p.in_check(), black_checks[b], "check after Black's {mv}");
            b += 1;
        } else {
            assert!(!p.in_check(), "White's {mv} should not give check");
        }
    }
}

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let mut p = pos(PERPETUAL);
    let start_key = p.key();
    for round in 1..=3 {
        play_checked(&mut p, &CHECK_CYCLE, &[true, true]);
        assert_eq!(p.key(), start_key);
        if round < 3 {
            // The start position has occurred round + 1 < 4 times.
            assert_eq!(p.sennichite(), None, "round {round}");
        }
        if round == 1 {
            // The search's view: the cycle since 4 plies back had Black (to move) check
            // with both its moves -> Black loses.
            assert_eq!(p.repetition(usize::MAX), Some(Repetition::Loss));
        }
    }
    // Ply 12, Black to move: the start position's 4th occurrence (plies 0, 4, 8, 12), and
    // Black, the side to move, gave check with every one of its 6 moves since ply 0.
    assert_eq!(p.sennichite(), Some(Repetition::Loss));

    // One more Black check: the position after 4e5e (White to move, king 5a, rook 5e)
    // occurred after plies 1, 5, 9 and now 13: the 4th time. Since ply 1 every move of
    // Black, now the opponent of the side to move, was check: White wins.
    play_checked(&mut p, &CHECK_CYCLE[..1], &[true]);
    assert_eq!(p.sennichite(), Some(Repetition::Win));
    assert_eq!(p.repetition(usize::MAX), Some(Repetition::Win));
}

#[test]
fn perpetual_check_starting_with_white_to_move() {
    // The same board after Black's 4e5e (the rook on 5e checks the king on 5a), with White
    // to move: the parsed position is the first occurrence.
    let mut p = pos("4k4/9/9/9/4R4/9/9/9/K8 w - 1");
    assert!(p.in_check());
    let cycle = ["5a4a", "5e4e", "4a5a", "4e5e"];
    for round in 1..=3 {
        play_checked(&mut p, &cycle, &[true, true]);
        assert!(p.in_check());
        if round < 3 {
            assert_eq!(p.sennichite(), None);
        }
    }
    // 4th occurrence, White to move; all of Black's 6 moves gave check: White wins.
    assert_eq!(p.sennichite(), Some(Repetition::Win));
}

/// Black checks three times but once plays the quiet 4e3e (king on 5a, rook on 3e: file 3
/// and rank e, no check). The 8-ply sequence is two 4-ply halves, each returning to the
/// start position, so the start position occurs at plies 0, 4, 8, 12.
#[test]
fn one_quiet_move_in_the_cycle_makes_it_a_draw() {
    let sequence = [
        "4e5e", "5a4a", "5e4e", "4a5a", // check, check
        "4e3e", "5a4a", "3e4e", "4a5a", // quiet, check (rook on 4e sees 4a)
    ];
    let black_checks = [true, true, false, true];
    let mut p = pos(PERPETUAL);
    let start_key = p.key();
    play_checked(&mut p, &sequence, &black_checks);
    assert_eq!(p.key(), start_key);
    // Occurrences at 0, 4, 8: three.
    assert_eq!(p.sennichite(), None);
    // The cycle since ply 4 contains the quiet 4e3e: a plain draw for the search.
    assert_eq!(p.repetition(usize::MAX), Some(Repetition::Draw));
    play_checked(&mut p, &sequence[..4], &black_checks[..2]);
    // Ply 12: 4th occurrence, first at ply 0; Black's moves since then include 4e3e (ply
    // 4), White never checked: draw.
    assert_eq!(p.sennichite(), Some(Repetition::Draw));
    // The search only looks at the latest cycle (plies 8-12), all checks: Black loses.
    assert_eq!(p.repetition(usize::MAX), Some(Repetition::Loss));
}

// ---------------------------------------------------------------------------------------
// 3. Superior / inferior repetition

/// White king 5a, Black rook 1e, Black king 9i, Black has a pawn in hand; Black to move.
/// The rook sees file 1 and rank e: neither king is attacked.
///
/// 1. P*5b   check (a Black pawn on 5b attacks 5a); not mate, the king can take it
/// 2. 5a5b   K x P: 5b is not covered by the rook (file 1 / rank e) -> White holds a pawn
/// 3. 1e2e   quiet (rook on file 2 / rank e)
/// 4. 5b4a   4a is not on file 2 or rank e
/// 5. 2e1e   quiet
/// 6. 4a5a   back to the start board
///
/// The board and side to move are as at ply 0, but Black's hand lost the pawn: from the
/// side to move's (Black's) point of view this is an inferior repetition.
#[test]
fn inferior_repetition_after_losing_a_dropped_pawn() {
    let mut p = pos("4k4/9/9/9/8R/9/9/9/K8 b P 1");
    let start_board = p.board_key();
    let moves = ["P*5b", "5a5b", "1e2e", "5b4a", "2e1e", "4a5a"];
    for (i, mv) in moves.iter().enumerate() {
        play(&mut p, mv);
        if i == 0 {
            assert!(p.in_check(), "the pawn drop gives check");
        }
        if i < 5 {
            // No earlier position with the same board and side to move yet.
            assert_eq!(p.repetition(usize::MAX), None, "after {mv}");
        }
    }
    assert_eq!(p.board_key(), start_board);
    assert_ne!(p.key(), pos("4k4/9/9/9/8R/9/9/9/K8 b P 1").key());
    assert_eq!(p.repetition(usize::MAX), Some(Repetition::Inferior));
    // The earlier occurrence is 6 plies back.
    assert_eq!(p.repetition(6), Some(Repetition::Inferior));
    assert_eq!(p.repetition(5), None);
    // Not the same position (hands differ): no sennichite.
    assert_eq!(p.sennichite(), None);
}

/// The mirror story with the gainer to move: White king 5a, Black rook 1e, Black king 9i,
/// Black has a pawn in hand, White to move.
///
/// 1. 5a4a   (4a is not on file 1 / rank e)
/// 2. P*4b   check (a Black pawn on 4b attacks 4a); no Black pawn on file 4
/// 3. 4a4b   K x P: 4b is not covered -> White holds a pawn
/// 4. 1e2e   quiet
/// 5. 4b5a   5a is not on file 2 / rank e
/// 6. 2e1e   back to the start board, White to move
///
/// White, to move, now holds a pawn it did not hold at ply 0: superior repetition.
#[test]
fn superior_repetition_after_winning_a_pawn() {
    let mut p = pos("4k4/9/9/9/8R/9/9/9/K8 w P 1");
    let start_board = p.board_key();
    for mv in ["5a4a", "P*4b", "4a4b", "1e2e", "4b5a", "2e1e"] {
        play(&mut p, mv);
    }
    assert_eq!(p.board_key(), start_board);
    assert_eq!(p.repetition(usize::MAX), Some(Repetition::Superior));
    assert_eq!(p.repetition(5), None);
    assert_eq!(p.sennichite(), None);

    // One more pair of rook/king moves that returns to the same board: the most recent
    // earlier occurrence with the same board is now 4 plies back (ply 6), with the same
    // hands, while the superior one is 10 plies back. The nearest counts: a draw.
    for mv in ["5a4a", "1e2e", "4a5a", "2e1e"] {
        play(&mut p, mv);
    }
    assert_eq!(p.board_key(), start_board);
    assert_eq!(p.repetition(usize::MAX), Some(Repetition::Draw));
}

// ---------------------------------------------------------------------------------------
// 4. Entering-king declaration

/// Black king on 5b. Black's camp (ranks a-c) besides the king:
///   rank a: R 9a, B 8a, +P 7a, +P 6a, (5a empty), +P 4a, +P 3a, B 2a, R 1a  (8 pieces)
///   rank b: +P 6b, +P 4b                                                     (2 pieces)
/// = 10 pieces, 4 big pieces x 5 + 6 tokins x 1 = 26 points. Plus the hand.
/// White king on 5i: not on files 9/1 (the rooks), nor on the bishops' diagonals
/// (8a-7b-6c-5d-4e-3f-2g-1h and 2a-3b-4c-5d-6e-7f-8g-9h). White has nothing else, so
/// the Black king is not in check.
/// Pieces on the board and in hands, without kings: Black's only (26 + hand).
fn black_camp(hand: &str) -> String {
    format!("RB+P+P1+P+PBR/3+PK+P3/9/9/9/9/9/9/4k4 b {hand} 1")
}

#[test]
fn black_declares_with_28_points() {
    use EnteringKingRule::*;
    // 26 in camp + 2 pawns in hand = 28 >= 28 (Black, 27-point rule).
    // Under the 24-point rule 28 < 31. The H variants only lower White's threshold.
    assert_eq!(
        declaring_rules(&black_camp("2P")),
        vec![CsaRule27, CsaRule27H]
    );
    // 26 + 5 = 31: enough under every point rule.
    assert_eq!(
        declaring_rules(&black_camp("5P")),
        vec![CsaRule24, CsaRule24H, CsaRule27, CsaRule27H]
    );
    // 26 + 4 = 30 < 31.
    assert_eq!(
        declaring_rules(&black_camp("4P")),
        vec![CsaRule27, CsaRule27H]
    );
    // Any small piece in hand scores 1: 26 + G(1) + P(1) = 28.
    assert_eq!(
        declaring_rules(&black_camp("GP")),
        vec![CsaRule27, CsaRule27H]
    );
}

#[test]
fn black_with_27_points_cannot_declare() {
    // 26 + 1 = 27 < 28. Black's threshold is not lowered under 27H even though most of
    // the pieces are missing from the board (the reduction is for White only).
    assert!(declaring_rules(&black_camp("P")).is_empty());
    assert!(declaring_rules(&black_camp("-")).is_empty());
}

#[test]
fn black_needs_ten_pieces_in_camp() {
    // Without the tokin on 6b: 9 pieces in camp (25 points) + 3 pawns = 28 points, but
    // fewer than 10 pieces besides the king.
    let sfen = "RB+P+P1+P+PBR/4K+P3/9/9/9/9/9/9/4k4 b 3P 1";
    assert!(declaring_rules(sfen).is_empty());
    // Even with 31+ points (25 + 8 = 33).
    let sfen = "RB+P+P1+P+PBR/4K+P3/9/9/9/9/9/9/4k4 b 8P 1";
    assert!(declaring_rules(sfen).is_empty());
    // The same 9 plus a tokin on 5c (rank c is still the camp): 10 pieces, 26 + 2 = 28.
    let sfen = "RB+P+P1+P+PBR/4K+P3/4+P4/9/9/9/9/9/4k4 b 2P 1";
    assert!(pos(sfen).can_declare_win(EnteringKingRule::CsaRule27));
    // A tokin on 5d instead is outside the camp: back to 9 pieces.
    let sfen = "RB+P+P1+P+PBR/4K+P3/9/4+P4/9/9/9/9/4k4 b 2P 1";
    assert!(declaring_rules(sfen).is_empty());
}

#[test]
fn black_king_must_be_in_camp() {
    // Same 10 pieces and 28 points, king on 5d (rank d: outside ranks a-c).
    // Is the White king attacked? No: nothing of Black's reaches 5i.
    let sfen = "RB+P+P1+P+PBR/3+P1+P3/9/4K4/9/9/9/9/4k4 b 2P 1";
    assert!(declaring_rules(sfen).is_empty());
    // King on 5c: rank c is in the camp.
    let sfen = "RB+P+P1+P+PBR/3+P1+P3/4K4/9/9/9/9/9/4k4 b 2P 1";
    assert!(pos(sfen).can_declare_win(EnteringKingRule::CsaRule27));
}

#[test]
fn black_in_check_cannot_declare() {
    // A White gold on 5c checks the king on 5b (a White gold steps straight back, towards
    // rank a). Otherwise the 28-point position.
    let sfen = "RB+P+P1+P+PBR/3+PK+P3/4g4/9/9/9/9/9/4k4 b 2P 1";
    let p = pos(sfen);
    assert!(p.in_check());
    assert!(declaring_rules(sfen).is_empty());
    // With plenty of points too (26 + 8 = 34).
    let sfen = "RB+P+P1+P+PBR/3+PK+P3/4g4/9/9/9/9/9/4k4 b 8P 1";
    assert!(declaring_rules(sfen).is_empty());
}

#[test]
fn only_the_side_to_move_declares() {
    // The 28-point Black position with White to move: White's king on 5i stands in
    // White's zone (ranks g-i), but no other White piece does: no declaration.
    let sfen = "RB+P+P1+P+PBR/3+PK+P3/9/9/9/9/9/9/4k4 w 2P 1";
    assert!(declaring_rules(sfen).is_empty());
}

/// The Black position rotated by 180 degrees: White king on 5h, White camp (ranks g-i):
///   rank i: r 9i, b 8i, +p 7i, +p 6i, (5i empty), +p 4i, +p 3i, b 2i, r 1i
///   rank h: +p 6h, +p 4h
/// = 10 pieces, 26 points. Black king on 5a, off the rooks' files (9, 1) and the bishops'
/// diagonals (8i-7h-6g-5f-4e-3d-2c-1b, 2i-3h-4g-5f-6e-7d-8c-9b). White to move.
fn white_camp(hand: &str) -> String {
    format!("4K4/9/9/9/9/9/9/3+pk+p3/rb+p+p1+p+pbr w {hand} 1")
}

#[test]
fn white_declares_with_27_points() {
    use EnteringKingRule::*;
    // 26 + 1 = 27 >= 27 (White, 27-point rule); 27 < 31 (24-point rule).
    let p = pos(&white_camp("p"));
    assert!(p.can_declare_win(CsaRule27));
    assert!(!p.can_declare_win(CsaRule24));
    assert!(!p.can_declare_win(NoEnteringKing));
    assert!(!p.can_declare_win(TryRule));
    // 26 < 27.
    let p = pos(&white_camp("-"));
    assert!(!p.can_declare_win(CsaRule27));
    // 26 + 5 = 31: the 24-point rule is met.
    let p = pos(&white_camp("5p"));
    assert!(p.can_declare_win(CsaRule24));
    assert!(p.can_declare_win(CsaRule27));
    // 26 + 4 = 30 < 31.
    let p = pos(&white_camp("4p"));
    assert!(!p.can_declare_win(CsaRule24));
    // Black's hand does not count for White: 26 + 0 with Black holding 5 pawns.
    let p = pos(&white_camp("5P"));
    assert!(!p.can_declare_win(CsaRule27));
}

/// Handicap adjustment. A rook-and-bishop handicap: one rook and one bishop are missing
/// from the full set (10 points), so the pieces on the board and in hands total
/// 54 - 10 = 44 points, and White's threshold drops by 10 under the H rules:
/// 27H: 27 - 10 = 17; 24H: 31 - 10 = 21. Black's stays 28 / 31.
///
/// White: king 5h; camp rank i: +p 9i 8i 7i 6i, (5i empty), +p 4i 3i 2i, r 1i;
/// rank h: +p 6h, +p 4h. That is 9 tokins + the rook = 10 pieces, 14 points.
/// The White rook on 1i sees file 1 and is blocked on rank i by the tokin on 2i.
/// Black: king 5a (off file 1), everything else in hand.
/// Remaining set: 18 pawns, 4 each of L N S G, 1 B, 1 R (White's rook on the board).
/// With `wp` pawns in White's hand, Black holds B 4G 4S 4N 4L and 18 - 9 - wp pawns:
/// White scores 14 + wp; total = 14 + wp + 5 + 16 + (9 - wp) = 44.
fn handicap(wp: u32) -> String {
    format!(
        "4K4/9/9/9/9/9/9/3+pk+p3/+p+p+p+p1+p+p+pr w B4G4S4N4L{}{wp}p 1",
        pawns(9 - wp)
    )
}

/// `nP` for a Black hand holding n pawns (nothing when n is 0).
fn pawns(n: u32) -> String {
    match n {
        0 => String::new(),
        1 => "P".to_string(),
        n => format!("{n}P"),
    }
}

#[test]
fn handicap_rules_lower_whites_threshold() {
    use EnteringKingRule::*;
    // White 17 points: >= 17 (27H) but < 27 (27) and < 21 (24H).
    assert_eq!(declaring_rules(&handicap(3)), vec![CsaRule27H]);
    // White 16 points: < 17.
    assert!(declaring_rules(&handicap(2)).is_empty());
    // White 21 points: >= 21 (24H), >= 17 (27H), < 27, < 31.
    assert_eq!(declaring_rules(&handicap(7)), vec![CsaRule24H, CsaRule27H]);
    // White 20 points: 24H not met.
    assert_eq!(declaring_rules(&handicap(6)), vec![CsaRule27H]);
}

#[test]
fn handicap_reduction_is_zero_with_a_full_set() {
    use EnteringKingRule::*;
    // The same White camp, with the missing rook and bishop now in Black's hand: the full
    // set is present (54 points), so the H rules need the full 27 / 31.
    // White: 14 + wp; Black: R 2B + 4G 4S 4N 4L + (9 - wp) pawns (2 rooks, 2 bishops).
    let full = |wp: u32| {
        format!(
            "4K4/9/9/9/9/9/9/3+pk+p3/+p+p+p+p1+p+p+pr w R2B4G4S4N4L{}{wp}p 1",
            pawns(9 - wp)
        )
    };
    // 14 + 3 = 17: nothing.
    assert!(declaring_rules(&full(3)).is_empty());
    // 14 + 9 = 23: still < 27.
    assert!(declaring_rules(&full(9)).is_empty());
    // Full set again, but the rook and a bishop in White's hand: 14 + 10 + 3 = 27 for
    // White (Black: B 4G 4S 4N 4L 6P = 27), so exactly 27 under both 27 and 27H.
    let sfen = "4K4/9/9/9/9/9/9/3+pk+p3/+p+p+p+p1+p+p+pr w B4G4S4N4L6Prb3p 1";
    assert_eq!(declaring_rules(sfen), vec![CsaRule27, CsaRule27H]);
}

#[test]
fn handicap_does_not_help_black() {
    use EnteringKingRule::*;
    // Black's 27-point position has almost everything missing (total 27 points, 27 short
    // of a full set), yet Black still needs 28 under 27H and 31 under 24H.
    let p = pos(&black_camp("P"));
    assert!(!p.can_declare_win(CsaRule27H));
    assert!(!p.can_declare_win(CsaRule24H));
}

// ---------------------------------------------------------------------------------------
// 5. Try rule

#[test]
fn try_rule_king_next_to_5a() {
    // Black king 5b, White king 5i, nothing else: 5a is empty and unattacked.
    let p = pos("9/4K4/9/9/9/9/9/9/4k4 b - 1");
    let expected = p.parse_move("5b5a").expect("5b5a is legal");
    assert_eq!(p.try_rule_move(), Some(expected));
    // The try rule is won by the move, never by a declaration.
    assert!(!p.can_declare_win(EnteringKingRule::TryRule));
    // From 4b and 6a (also adjacent to 5a) too.
    let p = pos("9/5K3/9/9/9/9/9/9/4k4 b - 1");
    assert_eq!(p.try_rule_move(), Some(p.parse_move("4b5a").unwrap()));
    let p = pos("3K5/9/9/9/9/9/9/9/4k4 b - 1");
    assert_eq!(p.try_rule_move(), Some(p.parse_move("6a5a").unwrap()));
}

#[test]
fn try_rule_target_attacked_or_blocked() {
    // A White rook on 1a sweeps rank a (2a..9a): 5a is attacked, 5b is not.
    let p = pos("8r/4K4/9/9/9/9/9/9/4k4 b - 1");
    assert!(!p.in_check());
    assert_eq!(p.try_rule_move(), None);
    // A White silver on 4b covers 5a (back diagonal) but not 5b.
    let p = pos("9/4Ks3/9/9/9/9/9/9/4k4 b - 1");
    assert!(!p.in_check());
    assert_eq!(p.try_rule_move(), None);
    // 5a occupied by Black's own tokin.
    let p = pos("4+P4/4K4/9/9/9/9/9/9/4k4 b - 1");
    assert_eq!(p.try_rule_move(), None);
}

#[test]
fn try_rule_king_too_far() {
    // Black king on 5c: two steps from 5a.
    let p = pos("9/9/4K4/9/9/9/9/9/4k4 b - 1");
    assert_eq!(p.try_rule_move(), None);
    // Black king on its home square.
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(p.try_rule_move(), None);
    // Black king next to 5a but it is White's turn (White king 5e, far from 5i).
    let p = pos("9/4K4/9/9/4k4/9/9/9/9 w - 1");
    assert_eq!(p.try_rule_move(), None);
}

#[test]
fn try_rule_for_white() {
    // White king 5h, Black king 5a; White to move: 5h5i.
    let p = pos("4K4/9/9/9/9/9/9/4k4/9 w - 1");
    assert_eq!(p.try_rule_move(), Some(p.parse_move("5h5i").unwrap()));
    // A Black rook on 9i sweeps rank i: 5i attacked.
    let p = pos("4K4/9/9/9/9/9/9/4k4/R8 w - 1");
    assert!(!p.in_check());
    assert_eq!(p.try_rule_move(), None);
    // White to move, but White's king is on 5b next to 5a: no try for White there.
    let p = pos("9/4k4/9/9/9/9/9/9/4K4 w - 1");
    assert_eq!(p.try_rule_move(), None);
}

// ---------------------------------------------------------------------------------------
// 6. EnteringKingRule names

#[test]
fn entering_king_rule_names_round_trip() {
    use EnteringKingRule::*;
    let pairs = [
        (NoEnteringKing, "NoEnteringKing"),
        (CsaRule24, "CSARule24"),
        (CsaRule24H, "CSARule24H"),
        (CsaRule27, "CSARule27"),
        (CsaRule27H, "CSARule27H"),
        (TryRule, "TryRule"),
    ];
    for (rule, name) in pairs {
        assert_eq!(rule.to_string(), name);
        assert_eq!(name.parse::<EnteringKingRule>(), Ok(rule));
        assert_eq!(name.to_lowercase().parse::<EnteringKingRule>(), Ok(rule));
        assert_eq!(name.to_uppercase().parse::<EnteringKingRule>(), Ok(rule));
    }
    assert_eq!(EnteringKingRule::NAMES.len(), 6);
    for name in EnteringKingRule::NAMES {
        let rule: EnteringKingRule = name.parse().unwrap();
        assert_eq!(rule.to_string(), name);
    }
    assert_eq!(EnteringKingRule::default(), CsaRule27);
}

#[test]
fn entering_king_rule_rejects_unknown_names() {
    for bad in [
        "",
        "CSARule",
        "CSARule28",
        "CSA Rule27",
        " CSARule27",
        "TryRule ",
        "27",
    ] {
        assert!(
            bad.parse::<EnteringKingRule>().is_err(),
            "{bad:?} should be rejected"
        );
    }
}
