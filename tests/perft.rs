//! Perft against published node counts (tests/data/perft.tsv), the divide breakdown,
//! and the handicap start positions (tests/data/handicaps.tsv).

use hayate::perft::{divide, perft, LeafMode};
use hayate::{Color, PieceKind, Position};
use std::collections::HashSet;

const PERFT_TSV: &str = include_str!("data/perft.tsv");
const HANDICAPS_TSV: &str = include_str!("data/handicaps.tsv");

/// Counts up to this many nodes run in the normal test suite (bulk counting).
const FAST_LIMIT: u64 = 60_000_000;
/// Counts up to this many nodes are also checked by playing every leaf move.
const FULL_LIMIT: u64 = 1_000_000;

struct Case {
    name: String,
    sfen: String,
    depth: u32,
    nodes: u64,
    source: String,
}

/// Non-empty lines that are not `#` comments, split on tabs.
fn data_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
}

fn cases() -> Vec<Case> {
    let cases: Vec<Case> = data_lines(PERFT_TSV)
        .map(|cols| {
            assert_eq!(cols.len(), 5, "perft.tsv row needs 5 columns: {cols:?}");
            Case {
                name: cols[0].to_string(),
                sfen: cols[1].to_string(),
                depth: cols[2].parse().expect("depth column"),
                nodes: cols[3].parse().expect("nodes column"),
                source: cols[4].to_string(),
            }
        })
        .collect();
    // The file has 14 rows: startpos 1-7, matsuri 1-4, maxmoves 1-3. Make sure the
    // parsing above did not silently drop any.
    assert_eq!(cases.len(), 14, "rows read from perft.tsv");
    cases
}

fn parse(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("SFEN {sfen:?} should parse: {e}"))
}

fn check_case(case: &Case, mode: LeafMode) {
    let mut pos = parse(&case.sfen);
    let before = pos.to_string();
    let got = perft(&mut pos, case.depth, mode);
    assert_eq!(
        got, case.nodes,
        "perft({}, depth {}, {mode:?}) [{}]",
        case.name, case.depth, case.source
    );
    // Perft plays and takes back every move: the position must come back unchanged.
    assert_eq!(pos.to_string(), before, "position changed by perft");
    assert!(pos.history().is_empty(), "history left behind by perft");
}

#[test]
fn perft_published_counts_bulk() {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.nodes <= FAST_LIMIT) {
        check_case(case, LeafMode::Bulk);
        checked += 1;
    }
    // startpos 1-5, matsuri 1-3, maxmoves 1-3.
    assert_eq!(checked, 11);
}

#[test]
fn perft_published_counts_full() {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.nodes <= FULL_LIMIT) {
        check_case(case, LeafMode::Full);
        checked += 1;
    }
    // startpos 1-4, matsuri 1-2, maxmoves 1-2.
    assert_eq!(checked, 8);
}

/// Depth 1 counts are the number of legal moves: the list, the bulk counter and perft
/// must all agree with the published number.
#[test]
fn depth_one_counts_match_move_list() {
    for case in cases().iter().filter(|c| c.depth == 1) {
        let pos = parse(&case.sfen);
        let list = pos.legal_moves();
        assert_eq!(list.len() as u64, case.nodes, "{} legal_moves", case.name);
        assert_eq!(
            pos.count_legal() as u64,
            case.nodes,
            "{} count_legal",
            case.name
        );
        let distinct: HashSet<String> = list.iter().map(|m| m.to_string()).collect();
        assert_eq!(distinct.len(), list.len(), "{}: duplicate moves", case.name);
    }
}

fn check_divide(case: &Case, mode: LeafMode) {
    let pos = parse(&case.sfen);
    let one = divide(&pos, case.depth, mode, 1);
    let texts: Vec<String> = one.iter().map(|(m, _)| m.to_string()).collect();

    // One line per legal root move.
    assert_eq!(one.len(), pos.count_legal(), "{}: divide lines", case.name);
    let legal: HashSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    let listed: HashSet<String> = texts.iter().cloned().collect();
    assert_eq!(
        listed, legal,
        "{}: divide moves are the legal moves",
        case.name
    );

    // Sorted by move text, strictly (no move twice).
    for w in texts.windows(2) {
        assert!(
            w[0] < w[1],
            "{}: divide not sorted: {} then {}",
            case.name,
            w[0],
            w[1]
        );
    }

    // The per-move counts add up to the total.
    let sum: u64 = one.iter().map(|(_, n)| n).sum();
    assert_eq!(
        sum, case.nodes,
        "{} depth {}: divide sum",
        case.name, case.depth
    );

    // Each line is the perft of the child position.
    if case.depth <= 3 {
        for (mv, n) in &one {
            let mut child = pos.clone();
            child.play_unchecked(*mv);
            assert_eq!(
                perft(&mut child, case.depth - 1, mode),
                *n,
                "{}: divide line {mv}",
                case.name
            );
        }
    }

    // Two threads: the same lines in the same order.
    let two = divide(&pos, case.depth, mode, 2);
    assert_eq!(one, two, "{}: divide with 2 threads differs", case.name);
}

#[test]
fn divide_sums_sorted_and_thread_independent() {
    let mut checked = 0;
    for case in cases().iter().filter(|c| c.nodes <= FAST_LIMIT) {
        check_divide(case, LeafMode::Bulk);
        checked += 1;
    }
    assert_eq!(checked, 11);
    for case in cases().iter().filter(|c| c.nodes <= FULL_LIMIT) {
        check_divide(case, LeafMode::Full);
    }
}

/// `perft::run` (what the CLI and `go perft` call) reports the same totals.
#[test]
fn run_report_matches_published_counts() {
    for case in cases().iter().filter(|c| c.nodes <= 1_000_000) {
        let pos = parse(&case.sfen);
        for (threads, div) in [(1, false), (2, false), (1, true), (2, true)] {
            let report = hayate::perft::run(&pos, case.depth, LeafMode::Bulk, threads, div);
            assert_eq!(report.nodes, case.nodes, "{} threads {threads}", case.name);
            assert_eq!(report.divide.is_some(), div);
            let text = report.to_text();
            let last = text.lines().last().unwrap();
            assert!(
                last.starts_with(&format!("nodes {} time ", case.nodes)),
                "{last}"
            );
        }
    }
    // Depth 0 is one node: the position itself.
    let report = hayate::perft::run(&Position::startpos(), 0, LeafMode::Bulk, 1, false);
    assert_eq!(report.nodes, 1);
    assert_eq!(perft(&mut Position::startpos(), 0, LeafMode::Full), 1);
}

fn check_big(case: &Case) {
    let pos = parse(&case.sfen);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let lines = divide(&pos, case.depth, LeafMode::Bulk, threads);
    let sum: u64 = lines.iter().map(|(_, n)| n).sum();
    assert_eq!(
        sum, case.nodes,
        "perft({}, depth {}) [{}]",
        case.name, case.depth, case.source
    );
}

/// The counts above 60 million nodes but under a billion (startpos 6, matsuri 4): a few
/// seconds to a minute each. `cargo test --release -- --ignored perft_big`.
#[test]
#[ignore = "slow: perft counts of 0.5 billion nodes"]
fn perft_big_counts() {
    let big: Vec<Case> = cases()
        .into_iter()
        .filter(|c| c.nodes > FAST_LIMIT && c.nodes <= 1_000_000_000)
        .collect();
    assert_eq!(big.len(), 2);
    for case in &big {
        check_big(case);
    }
}

/// Startpos depth 7: 15 billion nodes, minutes even with every core.
#[test]
#[ignore = "very slow: perft count of 15 billion nodes"]
fn perft_huge_counts() {
    let huge: Vec<Case> = cases()
        .into_iter()
        .filter(|c| c.nodes > 1_000_000_000)
        .collect();
    assert_eq!(huge.len(), 1);
    for case in &huge {
        check_big(case);
    }
}

// ---------------------------------------------------------------------------------------
// Handicap positions

fn handicaps() -> Vec<(String, String)> {
    data_lines(HANDICAPS_TSV)
        .map(|cols| {
            assert_eq!(cols.len(), 2, "handicaps.tsv row needs 2 columns: {cols:?}");
            (cols[0].to_string(), cols[1].to_string())
        })
        .collect()
}

#[test]
fn handicap_positions_parse_with_white_to_move() {
    let all = handicaps();
    assert_eq!(all.len(), 14, "rows read from handicaps.tsv");
    for (name, sfen) in &all {
        let pos = parse(sfen);
        assert_eq!(
            pos.side_to_move(),
            Color::White,
            "{name}: the giver moves first"
        );
        assert!(
            pos.king_square(Color::White).is_some(),
            "{name}: White king"
        );
        assert!(
            pos.king_square(Color::Black).is_some(),
            "{name}: Black king"
        );
        assert!(!pos.in_check(), "{name}: nobody is in check at the start");
        // Black always has the full even-game army, nothing in hand.
        assert!(pos.hand(Color::Black).is_empty(), "{name}: Black hand");
        // Printing gives back the file's SFEN (all of them are already canonical).
        assert_eq!(&pos.to_string(), sfen, "{name}: SFEN round trip");
        assert_eq!(pos.count_legal(), pos.legal_moves().len(), "{name}");
    }
    let three = parse(&all.iter().find(|(n, _)| n == "3-pawns").unwrap().1);
    assert_eq!(three.hand(Color::White).count(PieceKind::Pawn), 3);
}

fn handicap(name: &str) -> Position {
    let all = handicaps();
    let (_, sfen) = all
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no handicap {name}"));
    parse(sfen)
}

fn assert_depth1(name: &str, expected: usize) {
    let pos = handicap(name);
    assert_eq!(pos.count_legal(), expected, "{name}: count_legal");
    assert_eq!(pos.legal_moves().len(), expected, "{name}: legal_moves");
    let mut p = pos.clone();
    assert_eq!(perft(&mut p, 1, LeafMode::Full), expected as u64, "{name}");
}

// Hand counts. White moves towards rank i; its promotion zone is ranks g-i, far from every
// White piece here, so no White move can promote. Black's army is the even-game one: its
// pawns on rank g attack rank f, the bishop on 8h is blocked by 7g and the rook on 2h by
// 2g, so nothing of Black's reaches ranks a-e and no White king square is attacked.

#[test]
fn handicap_10_piece_depth_1() {
    // 4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1
    // White: king 5a, pawns 9c-1c.
    //   pawns: each steps to rank d (empty, outside White's zone): 9 moves
    //   king 5a: 4a 6a 4b 5b 6b (rank a is the edge): 5 moves
    // 9 + 5 = 14
    assert_depth1("10-piece", 14);
}

#[test]
fn handicap_8_piece_depth_1() {
    // 3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1
    //   pawns: 9
    //   king 5a: 4a and 6a hold its golds; 4b 5b 6b: 3
    //   gold 6a (a White gold steps forward = towards rank i, diagonally forward,
    //     sideways, straight back): 6b 5b 7b, sideways 7a (5a is the king), back is off
    //     the board: 4
    //   gold 4a: 4b 3b 5b, 3a: 4
    // 9 + 3 + 4 + 4 = 20
    assert_depth1("8-piece", 20);
}

#[test]
fn handicap_6_piece_depth_1() {
    // 2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1
    //   pawns: 9
    //   king 5a: 4b 5b 6b: 3
    //   gold 6a: 6b 5b 7b (7a holds a silver, 5a the king): 3; gold 4a likewise: 3
    //   silver 7a (forward and the two forward diagonals; its back diagonals are off the
    //     board): 7b 6b 8b: 3; silver 3a: 3b 2b 4b: 3
    // 9 + 3 + 3 + 3 + 3 + 3 = 24
    assert_depth1("6-piece", 24);
}

#[test]
fn handicap_2_piece_depth_1() {
    // lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1
    //   pawns: 9
    //   lances 9a, 1a: one step each to 9b/1b, then their own pawns: 2
    //   knights 8a, 2a: their squares (7c 9c, 1c 3c) hold White pawns: 0
    //   silvers 7a: 7b 6b 8b; 3a: 3b 2b 4b: 6
    //   golds 6a: 6b 5b 7b; 4a: 4b 3b 5b: 6
    //   king 5a: 4b 5b 6b: 3
    // 9 + 2 + 0 + 6 + 6 + 3 = 26
    // (Cross-check with the even game's 30: there the rook on 8b adds 9b 7b 6b 5b 4b 3b
    // = 6, the boxed-in bishop on 2b adds 0, and the rook takes 8b from silver 7a: 26 + 6
    // - 1 - 1 = 30, where the second -1 is silver 3a losing 2b to the bishop.)
    assert_depth1("2-piece", 26);
}

#[test]
fn handicap_bishop_depth_1() {
    // lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1
    //   pawns 9, lances 2, knights 0, golds 6, king 3 (as in the 2-piece count)
    //   rook 8b: 9b, and 7b 6b 5b 4b 3b 2b 1b (file: 8a own knight, 8c own pawn): 8
    //   silver 7a: 7b 6b (8b holds the rook): 2; silver 3a: 3b 2b 4b: 3
    // 9 + 2 + 6 + 3 + 8 + 5 = 33
    assert_depth1("bishop", 33);
}

#[test]
fn handicap_3_pawns_depth_1() {
    // 4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1
    //   king 5a: 4a 6a 4b 5b 6b: 5
    //   pawn drops: 81 squares - 21 pieces (White king; Black's 9 pawns, bishop, rook and
    //     9 back-rank pieces) = 60 empty squares, all on ranks a-h (rank i, White's dead
    //     rank, is full). No White pawn on the board, so no nifu. The one checking drop,
    //     5h in front of Black's king, is not mate (the king or either gold takes it).
    //     60 drops.
    // 5 + 60 = 65
    assert_depth1("3-pawns", 65);
}
