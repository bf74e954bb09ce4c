//! SFEN parsing errors and printing, USI move text, play/undo and Zobrist keys.

use hayate::position::{SfenError, STARTPOS_SFEN};
use hayate::{Color, Move, PieceKind, Position, Square};

const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

fn pos(sfen: &str) -> Position {
    sfen.parse()
        .unwrap_or_else(|e| panic!("SFEN {sfen:?} should parse: {e}"))
}

fn sfen_err(sfen: &str) -> SfenError {
    match sfen.parse::<Position>() {
        Ok(p) => panic!("{sfen:?} should be refused, parsed as {p}"),
        Err(e) => e,
    }
}

/// The error is `expected` and its message mentions `token`.
fn assert_sfen_err(sfen: &str, expected: SfenError, token: &str) {
    let e = sfen_err(sfen);
    assert_eq!(e, expected, "{sfen:?}");
    let msg = e.to_string();
    assert!(
        msg.contains(token),
        "message {msg:?} should mention {token:?}"
    );
}

fn sq(name: &str) -> Square {
    Square::from_usi(name).unwrap_or_else(|| panic!("square {name}"))
}

fn mv(text: &str) -> Move {
    Move::from_usi(text).unwrap_or_else(|| panic!("move {text}"))
}

// ---------------------------------------------------------------------------------------
// SFEN errors, one per variant

#[test]
fn sfen_error_field_count() {
    let two = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b";
    assert_sfen_err(two, SfenError::FieldCount(2), "2");
    let five = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 1";
    assert_sfen_err(five, SfenError::FieldCount(5), "5");
    assert_sfen_err("", SfenError::FieldCount(0), "0");
}

#[test]
fn sfen_error_rank_count() {
    assert_sfen_err("9/9/9 b - 1", SfenError::RankCount(3), "3");
    assert_sfen_err(
        "4k4/9/9/9/9/9/9/9/4K4/9 b - 1",
        SfenError::RankCount(10),
        "10",
    );
}

#[test]
fn sfen_error_rank_length() {
    // Rank a covers 8 squares.
    assert_sfen_err(
        "8/9/9/9/9/9/9/9/4K4 b - 1",
        SfenError::RankLength {
            rank: 'a',
            squares: 8,
        },
        "rank a",
    );
    // Rank e: 4 + king + 5 = 10 squares.
    assert_sfen_err(
        "4k4/9/9/9/4p5/9/9/9/4K4 b - 1",
        SfenError::RankLength {
            rank: 'e',
            squares: 10,
        },
        "rank e",
    );
    // Rank i: a piece after nine squares.
    let e = sfen_err("4k4/9/9/9/9/9/9/9/9K b - 1");
    assert!(
        matches!(e, SfenError::RankLength { rank: 'i', .. }),
        "{e:?}"
    );
}

#[test]
fn sfen_error_unknown_piece() {
    assert_sfen_err(
        "4k4/9/9/9/4x4/9/9/9/4K4 b - 1",
        SfenError::UnknownPiece("x".to_string()),
        "'x'",
    );
    // 0 is not an empty-square count.
    assert_sfen_err(
        "4k4/9/9/9/0409/9/9/9/4K4 b - 1",
        SfenError::UnknownPiece("0".to_string()),
        "'0'",
    );
}

#[test]
fn sfen_error_bad_promotion() {
    assert_sfen_err(
        "4k4/9/9/9/4+g4/9/9/9/4K4 b - 1",
        SfenError::BadPromotion("+g".to_string()),
        "+g",
    );
    assert_sfen_err(
        "4+k4/9/9/9/9/9/9/9/4K4 b - 1",
        SfenError::BadPromotion("+k".to_string()),
        "+k",
    );
    // `+` with nothing after it.
    assert_sfen_err(
        "4k4/9/9/9/8+/9/9/9/4K4 b - 1",
        SfenError::BadPromotion("+".to_string()),
        "'+'",
    );
}

#[test]
fn sfen_error_bad_side() {
    assert_sfen_err(
        "4k4/9/9/9/9/9/9/9/4K4 x - 1",
        SfenError::BadSide("x".to_string()),
        "'x'",
    );
    assert_sfen_err(
        "4k4/9/9/9/9/9/9/9/4K4 B - 1",
        SfenError::BadSide("B".to_string()),
        "'B'",
    );
}

#[test]
fn sfen_error_bad_hand() {
    let board = "4k4/9/9/9/9/9/9/9/4K4 b";
    for hand in ["2K", "k", "X", "PP", "0P", "P2", "19P", "2", "p-"] {
        assert_sfen_err(
            &format!("{board} {hand} 1"),
            SfenError::BadHand(hand.to_string()),
            hand,
        );
    }
}

#[test]
fn sfen_error_bad_ply() {
    let board = "4k4/9/9/9/9/9/9/9/4K4 b -";
    for ply in [
        "0",
        "-3",
        "abc",
        "1.5",
        "1000001",
        "4294967295",
        "4294967296",
    ] {
        assert_sfen_err(
            &format!("{board} {ply}"),
            SfenError::BadPly(ply.to_string()),
            ply,
        );
    }
}

#[test]
fn sfen_error_too_many_pieces() {
    // A third rook: the two on the board and one in hand.
    assert_sfen_err(
        &STARTPOS.replace(" b - 1", " b R 1"),
        SfenError::TooManyPieces {
            kind: 'R',
            count: 3,
            max: 2,
        },
        "3 pieces of kind R",
    );
    // A 19th pawn; a tokin counts as a pawn.
    assert_sfen_err(
        "lnsgkgsnl/1r5b1/pppppppp+p/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
        SfenError::TooManyPieces {
            kind: 'P',
            count: 19,
            max: 18,
        },
        "19",
    );
    // Five golds in one hand.
    assert_sfen_err(
        "4k4/9/9/9/9/9/9/9/4K4 b 5G 1",
        SfenError::TooManyPieces {
            kind: 'G',
            count: 5,
            max: 4,
        },
        "G",
    );
}

#[test]
fn sfen_error_two_kings() {
    assert_sfen_err(
        "4k4/9/9/9/9/9/9/9/3K1K3 b - 1",
        SfenError::TwoKings(Color::Black),
        "black",
    );
    assert_sfen_err(
        "3k1k3/9/9/9/9/9/9/9/4K4 b - 1",
        SfenError::TwoKings(Color::White),
        "white",
    );
}

#[test]
fn sfen_error_dead_piece() {
    // A Black pawn on rank a.
    assert_sfen_err(
        "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        SfenError::DeadPiece {
            piece: "P".to_string(),
            square: sq("9a"),
        },
        "9a",
    );
    // A White knight on rank h.
    assert_sfen_err(
        "4k4/9/9/9/9/9/9/4n4/K8 b - 1",
        SfenError::DeadPiece {
            piece: "n".to_string(),
            square: sq("5h"),
        },
        "5h",
    );
    // A White lance on rank i.
    assert_sfen_err(
        "4k4/9/9/9/9/9/9/9/K7l b - 1",
        SfenError::DeadPiece {
            piece: "l".to_string(),
            square: sq("1i"),
        },
        "1i",
    );
    // Promoted, the same pieces are fine; and a Black knight on rank c is fine.
    pos("+P3k4/9/9/9/9/9/9/4+n4/K7+l b - 1");
    pos("4k4/9/4N4/9/9/9/9/9/K8 b - 1");
}

#[test]
fn sfen_error_two_pawns_on_file() {
    assert_sfen_err(
        "4k4/9/9/9/9/9/4P4/4P4/K8 b - 1",
        SfenError::TwoPawnsOnFile {
            color: Color::Black,
            file: 5,
        },
        "file 5",
    );
    assert_sfen_err(
        "4k4/p8/p8/9/9/9/9/9/K8 b - 1",
        SfenError::TwoPawnsOnFile {
            color: Color::White,
            file: 9,
        },
        "file 9",
    );
    // A tokin and a pawn, or pawns of both colours, may share a file.
    pos("4k4/9/9/9/9/9/4+P4/4P4/K8 b - 1");
    pos("4k4/9/4p4/9/9/9/9/4P4/K8 b - 1");
}

#[test]
fn sfen_error_opponent_in_check() {
    // Black to move while the Black rook on 5b attacks the White king on 5a.
    let e = sfen_err("4k4/4R4/9/9/9/9/9/9/4K4 b - 1");
    assert_eq!(e, SfenError::OpponentInCheck);
    assert!(e.to_string().contains("check"));
    // The same board with White to move is a check to answer.
    let p = pos("4k4/4R4/9/9/9/9/9/9/4K4 w - 1");
    assert!(p.in_check());
    assert!(p.checkers().has(sq("5b")));
}

// ---------------------------------------------------------------------------------------
// SFEN printing

#[test]
fn startpos_round_trip() {
    assert_eq!(STARTPOS_SFEN, STARTPOS);
    assert_eq!(Position::startpos().to_string(), STARTPOS);
    assert_eq!(pos(STARTPOS).to_string(), STARTPOS);
    assert!(pos(STARTPOS) == Position::startpos());
    assert_eq!(pos(STARTPOS).key(), Position::startpos().key());
    // The move number may be left out; it is then 1.
    let no_ply = STARTPOS.trim_end_matches(" 1");
    assert_eq!(pos(no_ply).to_string(), STARTPOS);
    // Extra whitespace between fields is accepted.
    let spaced = STARTPOS.replace(' ', "   ");
    assert_eq!(pos(&spaced).to_string(), STARTPOS);
}

#[test]
fn sfen_round_trips_with_hands() {
    // Already canonical: printed back unchanged.
    for sfen in [
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b 18P 1",
        "4k4/9/9/9/9/9/9/9/4K4 w 2R2B4G4S4N4L18p 123",
        "4k4/9/9/9/9/9/9/9/4K4 b 10p 7",
    ] {
        assert_eq!(pos(sfen).to_string(), sfen);
    }
    // The matsuri position lists its hand as GR5pnsg; the canonical order is R B G S N
    // L P for Black, then the same for White: RG, then g s n 5p.
    assert_eq!(
        pos("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1").to_string(),
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
    );
    // Scrambled hand, explicit count of one, split empty counts: normalised.
    assert_eq!(
        pos("1111k1111/9/9/9/9/9/9/9/4K4 b 2P3pRb1N 9").to_string(),
        "4k4/9/9/9/9/9/9/9/4K4 b RN2Pb3p 9"
    );
    // Promoted pieces print with their +.
    let sfen = "4k4/9/+P+L+N+S+B+R3/9/9/9/3+p+l+n+s+b+r/9/4K4 b - 1";
    assert_eq!(pos(sfen).to_string(), sfen);
}

#[test]
fn hands_are_read_into_the_right_colour() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b R2Pb3p 1");
    assert_eq!(p.hand(Color::Black).count(PieceKind::Rook), 1);
    assert_eq!(p.hand(Color::Black).count(PieceKind::Pawn), 2);
    assert_eq!(p.hand(Color::Black).count(PieceKind::Bishop), 0);
    assert_eq!(p.hand(Color::White).count(PieceKind::Bishop), 1);
    assert_eq!(p.hand(Color::White).count(PieceKind::Pawn), 3);
    assert_eq!(p.hand(Color::White).count(PieceKind::Rook), 0);
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.king_square(Color::White), Some(sq("5a")));
    assert_eq!(p.king_square(Color::Black), Some(sq("5i")));
    assert_eq!(p.ply(), 1);
}

// ---------------------------------------------------------------------------------------
// USI move text

#[test]
fn move_text_round_trips() {
    for text in [
        "7g7f", "8h2b+", "P*5e", "1a9i", "9i1a+", "R*1a", "G*9i", "L*5e",
    ] {
        assert_eq!(mv(text).to_string(), text);
        assert_eq!(Move::from_raw(mv(text).raw()), Some(mv(text)));
    }

    // Squares are file-major: index = (file - 1) * 9 + rank, with rank a = 0.
    assert_eq!(sq("1a").index(), 0);
    assert_eq!(sq("1i").index(), 8);
    assert_eq!(sq("7g").index(), 6 * 9 + 6);
    assert_eq!(sq("9i").index(), 80);

    let m = mv("7g7f");
    assert_eq!(m.from(), Some(sq("7g")));
    assert_eq!(m.to(), sq("7f"));
    assert!(!m.is_promotion());
    assert!(!m.is_drop());
    assert_eq!(m.drop_kind(), None);

    let m = mv("8h2b+");
    assert_eq!(m.from(), Some(sq("8h")));
    assert_eq!(m.to(), sq("2b"));
    assert!(m.is_promotion());
    assert!(!m.is_drop());
    assert_eq!(m, Move::new(sq("8h"), sq("2b"), true));
    assert_ne!(m, mv("8h2b"));

    let m = mv("P*5e");
    assert_eq!(m.from(), None);
    assert_eq!(m.to(), sq("5e"));
    assert!(m.is_drop());
    assert!(!m.is_promotion());
    assert_eq!(m.drop_kind(), Some(PieceKind::Pawn));
    assert_eq!(m, Move::drop(PieceKind::Pawn, sq("5e")));

    // Each hand kind's letter.
    for (letter, kind) in [
        ('P', PieceKind::Pawn),
        ('L', PieceKind::Lance),
        ('N', PieceKind::Knight),
        ('S', PieceKind::Silver),
        ('G', PieceKind::Gold),
        ('B', PieceKind::Bishop),
        ('R', PieceKind::Rook),
    ] {
        let text = format!("{letter}*3c");
        assert_eq!(mv(&text).drop_kind(), Some(kind));
        assert_eq!(Move::drop(kind, sq("3c")).to_string(), text);
    }
}

#[test]
fn malformed_move_text_is_rejected() {
    for bad in [
        "", "7", "7g", "7g7", "7g7f++", "7g7f+ ", " 7g7f", "7g7f=", "7g7g", "7g7g+", "0a1a",
        "7j7f", "7g0f", "a7g7", "7G7F", "p*5e", "K*5e", "k*5e", "X*5e", "P*5j", "P*0e", "P*5",
        "P5e", "*P5e", "P*5e+", "+P*5e", "P**5", "7g*f", "７g7f", "7g7f\n", "P-5e",
    ] {
        assert_eq!(Move::from_usi(bad), None, "{bad:?} should be refused");
    }
    // A syntactically fine move is parsed whatever the position: legality is not its job.
    assert!(Move::from_usi("1a1b+").is_some());
}

// ---------------------------------------------------------------------------------------
// Play and undo

/// A short game with a capture, a promotion, recaptures and drops.
const GAME: [&str; 6] = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "B*6e"];

#[test]
fn play_gives_the_expected_positions() {
    let mut p = Position::startpos();
    for text in GAME {
        let m = p.parse_move(text).unwrap();
        p.try_play(m).unwrap();
    }
    // Worked out by hand from the start position:
    //   7g7f   rank g PP1PPPPPP, rank f 2P6
    //   3c3d   rank c pppppp1pp, rank d 6p2
    //   8h2b+  Black's bishop takes White's on 2b and promotes: rank h 7R1, rank b
    //          1r5+B1, Black holds B
    //   3a2b   White's silver takes the horse: rank a lnsgkg1nl, rank b 1r5s1, White
    //          holds B
    //   B*4e   rank e 5B3, Black's hand empty
    //   B*6e   rank e 3b1B3, both hands empty; Black to move, move 7.
    assert_eq!(
        p.to_string(),
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/3b1B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL b - 7"
    );
    assert_eq!(p.ply(), 7);
    assert_eq!(p.history().len(), 6);
    assert_eq!(p.last_move(), Some(mv("B*6e")));
}

#[test]
fn undo_restores_every_position_exactly() {
    let mut p = Position::startpos();
    let mut sfens = vec![p.to_string()];
    let mut keys = vec![p.key()];
    let mut board_keys = vec![p.board_key()];
    let mut checkers = vec![p.checkers()];
    for text in GAME {
        let m = p.parse_move(text).unwrap();
        p.play_unchecked(m);
        assert_eq!(
            p.key(),
            p.key_from_scratch(),
            "incremental key after {text}"
        );
        assert_ne!(p.key(), *keys.last().unwrap(), "key unchanged by {text}");
        sfens.push(p.to_string());
        keys.push(p.key());
        board_keys.push(p.board_key());
        checkers.push(p.checkers());
    }
    // Every position of the game is different.
    for i in 0..keys.len() {
        for j in i + 1..keys.len() {
            assert_ne!(keys[i], keys[j], "positions {i} and {j}");
        }
    }
    for i in (0..GAME.len()).rev() {
        assert_eq!(p.undo(), Some(mv(GAME[i])));
        assert_eq!(p.to_string(), sfens[i], "after undoing {}", GAME[i]);
        assert_eq!(p.key(), keys[i]);
        assert_eq!(p.board_key(), board_keys[i]);
        assert_eq!(p.key(), p.key_from_scratch());
        assert_eq!(p.checkers(), checkers[i]);
        assert_eq!(p.count_legal(), pos(&sfens[i]).count_legal());
    }
    assert_eq!(p.undo(), None, "nothing left to undo");
    assert_eq!(p.to_string(), STARTPOS);
}

#[test]
fn play_and_undo_every_move_of_a_busy_position() {
    // The matsuri position: drops of four kinds, promotions, captures of promoted pieces.
    let start = pos("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1");
    let mut p = start.clone();
    let sfen = p.to_string();
    let key = p.key();
    for m in start.legal_moves() {
        p.play_unchecked(m);
        assert_eq!(p.key(), p.key_from_scratch(), "key after {m}");
        assert_ne!(p.key(), key, "key unchanged by {m}");
        // Reparsing the printed SFEN gives the same position and key.
        let reparsed = pos(&p.to_string());
        assert_eq!(
            reparsed.key(),
            p.key(),
            "key of the reparsed SFEN after {m}"
        );
        assert_eq!(reparsed.checkers(), p.checkers(), "checkers after {m}");
        assert_eq!(p.part_keys(), p.part_keys_from_scratch(), "after {m}");
        for r in p.legal_moves() {
            p.play_unchecked(r);
            assert_eq!(p.key(), p.key_from_scratch(), "key after {m} {r}");
            assert_eq!(p.part_keys(), p.part_keys_from_scratch(), "after {m} {r}");
            p.undo();
        }
        assert_eq!(p.undo(), Some(m));
        assert_eq!(p.to_string(), sfen, "after undoing {m}");
        assert_eq!(p.key(), key);
    }
}

// ---------------------------------------------------------------------------------------
// Keys

#[test]
fn transpositions_have_the_same_key() {
    let play = |moves: &[&str]| {
        let mut p = Position::startpos();
        for text in moves {
            p.try_play(p.parse_move(text).unwrap()).unwrap();
        }
        p
    };
    let a = play(&["7g7f", "3c3d", "2g2f"]);
    let b = play(&["2g2f", "3c3d", "7g7f"]);
    assert_eq!(a.to_string(), b.to_string());
    assert!(a == b);
    assert_eq!(a.key(), b.key());
    assert_eq!(a.board_key(), b.board_key());
    let c = play(&["7g7f", "3c3d", "6g6f"]);
    assert_ne!(a.key(), c.key());
}

#[test]
fn capture_order_does_not_change_the_key() {
    // 4k4/9/9/3p1s3/9/9/9/9/3RKR3 b - 1: Black rooks 6i and 4i take the pawn on 6d and the
    // silver on 4d, in either order, while the White king steps 5a5b and back. Both
    // orders end with the same board and Black holding S and P.
    let start = "4k4/9/9/3p1s3/9/9/9/9/3RKR3 b - 1";
    let run = |moves: &[&str]| {
        let mut p = pos(start);
        for text in moves {
            p.try_play(p.parse_move(text).unwrap()).unwrap();
        }
        p
    };
    let a = run(&["6i6d", "5a5b", "4i4d", "5b5a"]);
    let b = run(&["4i4d", "5a5b", "6i6d", "5b5a"]);
    assert_eq!(a.to_string(), "4k4/9/9/3R1R3/9/9/9/9/4K4 b SP 5");
    assert_eq!(a.to_string(), b.to_string());
    assert_eq!(a.key(), b.key());
    assert_eq!(a.key(), a.key_from_scratch());
    assert_eq!(a.key(), pos("4k4/9/9/3R1R3/9/9/9/9/4K4 b SP 5").key());
    // Halfway the two lines differ (different piece captured, different rook moved).
    let a2 = run(&["6i6d", "5a5b"]);
    let b2 = run(&["4i4d", "5a5b"]);
    assert_ne!(a2.key(), b2.key());
}

#[test]
fn hands_and_side_change_the_key() {
    let board = "4k4/9/9/9/9/9/9/9/4K4";
    let variants = [
        format!("{board} b - 1"),
        format!("{board} b P 1"),
        format!("{board} b 2P 1"),
        format!("{board} b p 1"),
        format!("{board} b Pp 1"),
        format!("{board} b L 1"),
        format!("{board} b G 1"),
        format!("{board} w - 1"),
        format!("{board} w P 1"),
    ];
    let positions: Vec<Position> = variants.iter().map(|s| pos(s)).collect();
    for i in 0..positions.len() {
        assert_eq!(positions[i].key(), positions[i].key_from_scratch());
        for j in i + 1..positions.len() {
            assert_ne!(
                positions[i].key(),
                positions[j].key(),
                "{} vs {}",
                variants[i],
                variants[j]
            );
        }
    }
    // The board key leaves the hands out: equal for the same board and side.
    for p in &positions[1..7] {
        assert_eq!(p.board_key(), positions[0].board_key());
    }
    assert_eq!(positions[7].board_key(), positions[8].board_key());
    assert_ne!(positions[0].board_key(), positions[7].board_key());
    // The move number is not part of the key.
    assert_eq!(pos(&format!("{board} b P 99")).key(), positions[1].key());
}

#[test]
fn a_drop_and_a_capture_move_the_same_piece_between_hand_and_board() {
    // Dropping a pawn and taking it back by undo restores the key; capturing changes the
    // hand and the key accordingly.
    let mut p = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let key = p.key();
    p.try_play(mv("P*5e")).unwrap();
    assert_eq!(p.hand(Color::Black).count(PieceKind::Pawn), 0);
    assert_eq!(p.to_string(), "4k4/9/9/9/4P4/9/9/9/4K4 w - 2");
    assert_eq!(p.key(), pos("4k4/9/9/9/4P4/9/9/9/4K4 w - 2").key());
    p.undo();
    assert_eq!(p.key(), key);
    assert_eq!(p.to_string(), "4k4/9/9/9/9/9/9/9/4K4 b P 1");

    // A capture of a promoted piece puts the base kind in hand.
    let mut p = pos("4k4/9/9/9/4+r4/4G4/9/9/4K4 b - 1");
    p.try_play(p.parse_move("5f5e").unwrap()).unwrap();
    assert_eq!(p.to_string(), "4k4/9/9/9/4G4/9/9/9/4K4 w R 2");
    assert_eq!(p.key(), pos("4k4/9/9/9/4G4/9/9/9/4K4 w R 2").key());
    p.undo();
    assert_eq!(p.to_string(), "4k4/9/9/9/4+r4/4G4/9/9/4K4 b - 1");
}

#[test]
fn each_placement_key_follows_its_own_pieces() {
    use hayate::position::{PART_OWN, PART_PAWNS, PART_SMALL};
    let keys = |moves: &str| {
        let mut p = pos(STARTPOS);
        for m in moves.split_whitespace() {
            p.play(mv(m));
        }
        p.part_keys()
    };
    let start = keys("");
    let changed =
        |after: [u64; 4]| -> Vec<usize> { (0..4).filter(|&i| after[i] != start[i]).collect() };
    // A pawn push: the pawns' key alone.
    assert_eq!(changed(keys("7g7f")), vec![PART_PAWNS]);
    // A silver: the small pieces' and Black's own.
    assert_eq!(changed(keys("3i4h")), vec![PART_SMALL, PART_OWN]);
    // A king and a rook: Black's own alone.
    assert_eq!(changed(keys("5i6h")), vec![PART_OWN]);
    assert_eq!(changed(keys("2h5h")), vec![PART_OWN]);
    // White's gold: the small pieces' and White's own.
    assert_eq!(
        changed(keys("7g7f 6a5b")),
        vec![PART_PAWNS, PART_SMALL, PART_OWN + 1]
    );
    // A bishop exchange: both sides' own keys (the hands are in none of them).
    assert_eq!(
        changed(keys("7g7f 3c3d 8h2b+ 3a2b")),
        vec![PART_PAWNS, PART_SMALL, PART_OWN, PART_OWN + 1]
    );
    // Back where it started by another way: the same keys.
    assert_eq!(keys("5i5h 5a5b 5h5i 5b5a"), start);
}
