//! YaneuraOu's training records: packing positions and moves as cshogi does (its output
//! recorded in tests/data), and unpacking them back.

use hayate::learn::packed::{self, PackedSfenValue, RECORD_BYTES};
use hayate::Position;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).unwrap();
    }
    out
}

#[test]
fn positions_and_moves_pack_as_cshogi_packs_them() {
    let data = include_str!("data/packed-sfen-cshogi.tsv");
    let mut rows = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let pos: Position = f[0].parse().unwrap();
        let packed = packed::pack(&pos).unwrap();
        assert_eq!(hex(&packed), f[1], "{}", f[0]);
        let back = packed::unpack(&unhex(f[1])).unwrap();
        assert!(back == pos, "{} came back as {back}", f[0]);
        let mv = pos.parse_move(f[2]).unwrap();
        let raw: u16 = f[3].parse().unwrap();
        assert_eq!(packed::move_to_u16(mv), raw, "{} {}", f[0], f[2]);
        assert_eq!(packed::move_from_u16(raw), Some(mv));
        rows += 1;
    }
    assert!(rows > 700);
}

#[test]
fn records_round_trip_through_their_40_bytes() {
    let pos: Position = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1"
        .parse()
        .unwrap();
    let record = PackedSfenValue {
        sfen: packed::pack(&pos).unwrap(),
        score: -1234,
        mv: packed::move_to_u16(pos.parse_move("G*6h").unwrap()),
        game_ply: 87,
        game_result: -1,
    };
    let bytes: [u8; RECORD_BYTES] = record.to_bytes();
    assert_eq!(bytes[39], 0, "padding");
    assert_eq!(PackedSfenValue::from_bytes(&bytes), record);
}

#[test]
fn garbage_does_not_unpack() {
    assert!(packed::unpack(&[0xff; 32]).is_err());
    assert!(packed::move_from_u16(0).is_none());
}

/// A record's best move is quiet unless it captures or promotes (or is no legal move of
/// the position at all).
#[test]
fn quiet_best_moves_are_told_from_captures_and_promotions() {
    hayate::attacks::init();
    // After 7g7f 3c3d the bishops face each other: 8h2b+ captures and promotes, 8h2b=
    // (unpromoted) still captures; 2g2f and 5i5h are quiet.
    let pos: Position = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
        .parse()
        .unwrap();
    let record = |mv: &str| PackedSfenValue {
        sfen: packed::pack(&pos).unwrap(),
        score: 0,
        mv: packed::move_to_u16(pos.parse_move(mv).unwrap()),
        game_ply: 3,
        game_result: 0,
    };
    assert!(record("2g2f").best_move_is_quiet(&pos));
    assert!(record("5i5h").best_move_is_quiet(&pos));
    assert!(!record("8h2b+").best_move_is_quiet(&pos));
    assert!(!record("8h2b").best_move_is_quiet(&pos));
    // A promotion without a capture: a silver that reached the third rank promotes.
    let deep: Position = "lnsgkgsnl/1r5b1/pppp1pppp/4S4/9/9/PPPPPPPPP/1B5R1/LN1GKGSNL b P 1"
        .parse()
        .unwrap();
    let promote = PackedSfenValue {
        sfen: packed::pack(&deep).unwrap(),
        score: 0,
        mv: packed::move_to_u16(deep.parse_move("5d5c+").unwrap()),
        game_ply: 1,
        game_result: 0,
    };
    assert!(!promote.best_move_is_quiet(&deep));
    // A move that is not legal in the position (no piece on 5e) is not quiet.
    let mut stray = record("2g2f");
    stray.mv = packed::move_to_u16(deep.parse_move("5d5c").unwrap());
    assert!(!stray.best_move_is_quiet(&pos));
}
