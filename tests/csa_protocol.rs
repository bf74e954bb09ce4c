//! The CSA protocol client on recorded exchanges: Game_Summaries with every time section,
//! handicaps, positions with moves already played, every result line, and garbage. The
//! expected values come from the CSA protocol 1.2.1 text and from what shogi-server
//! sends, not from the client's own output.

use hayate::csa::clock::Clock;
use hayate::csa::protocol::{
    parse_summary, EndReason, GameResult, ProtocolError, ServerLine, SummaryReader, TimeRules,
};
use hayate::position::csa::{move_from_csa, move_to_csa, position_from_csa};
use hayate::{Color, Position};

/// The summary of the protocol's own example: ten minutes and 10 s byoyomi, two moves
/// already played (with their times).
const SPEC_SUMMARY: &str = "\
BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:20150505-CSA25-3-5-7
Name+:TANUKI
Name-:KITSUNE
Your_Turn:+
Rematch_On_Draw:NO
To_Move:+
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:600
Byoyomi:10
Least_Time_Per_Move:1
END Time
BEGIN Position
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
P+
P-
+
+2726FU,T12
-3334FU,T6
END Position
END Game_Summary
";

#[test]
fn the_protocol_example_summary() {
    let s = parse_summary(SPEC_SUMMARY).unwrap();
    assert_eq!(s.game_id, "20150505-CSA25-3-5-7");
    assert_eq!(s.names, ["TANUKI".to_string(), "KITSUNE".to_string()]);
    assert_eq!(s.your_turn, Color::Black);
    assert_eq!(s.to_move, Color::Black);
    assert_eq!(s.max_moves, Some(256));
    assert_eq!(s.rematch_on_draw, Some(false));
    assert_eq!(s.protocol_version.as_deref(), Some("1.2"));
    assert_eq!(s.declaration.as_deref(), Some("Jishogi 1.1"));
    let expected = TimeRules {
        unit_ms: 1000,
        total: 600,
        byoyomi: 10,
        increment: 0,
        least_per_move: 1,
        roundup: false,
    };
    assert_eq!(s.time, [expected, expected]);
    assert_eq!(s.start.to_string(), Position::startpos().to_string());
    assert_eq!(s.moves.len(), 2);
    assert_eq!(s.moves[0].time, Some(12));
    assert_eq!(s.moves[1].time, Some(6));
    assert_eq!(s.usi_position(), "position startpos moves 2g2f 3c3d");
    // The moves already played are on the clocks: 600 - 12 and 600 - 6 seconds.
    let mut clock = Clock::new(s.time);
    let mut pos = s.start.clone();
    for m in &s.moves {
        clock.charge(pos.side_to_move(), m.time.unwrap());
        pos.play(m.mv);
    }
    assert_eq!(clock.remaining_ms(Color::Black), 588_000);
    assert_eq!(clock.remaining_ms(Color::White), 594_000);
    assert_eq!(
        clock.go_command(Color::Black, 1000, false, false),
        "go btime 587000 wtime 594000 byoyomi 10000"
    );
}

/// shogi-server's summary for `floodgate-300-10F`: Fischer, no byoyomi, `PI`-free board.
#[test]
fn a_fischer_summary_as_shogi_server_sends_it() {
    let text = "\
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:wdoor+floodgate-300-10F+a+b+20260101003000
Name+:a
Name-:b
Your_Turn:-
Rematch_On_Draw:NO
To_Move:+
Max_Moves:320
BEGIN Time
Time_Unit:1sec
Total_Time:300
Byoyomi:0
Increment:10
Least_Time_Per_Move:0
END Time
BEGIN Position
PI
+
END Position
END Game_Summary
";
    let s = parse_summary(text).unwrap();
    assert_eq!(s.your_turn, Color::White);
    assert_eq!(s.time[0].increment, 10);
    assert_eq!(s.time[1].total_ms(), 300_000);
    assert_eq!(s.usi_position(), "position startpos");
    let clock = Clock::new(s.time);
    assert_eq!(
        clock.go_command(Color::White, 500, false, false),
        "go btime 300000 wtime 299500 binc 10000 winc 10000"
    );
    assert_eq!(clock.allowance_ms(Color::White), 310_000);
}

/// Separate time rules per side (`BEGIN Time+` / `BEGIN Time-`), a millisecond unit and
/// rounding up.
#[test]
fn per_side_time_sections() {
    let text = "\
Game_ID:g1
Name+:x
Name-:y
Your_Turn:+
To_Move:+
BEGIN Time+
Time_Unit:1msec
Total_Time:60000
Increment:2000
Time_Roundup:YES
END Time+
BEGIN Time-
Time_Unit:1min
Total_Time:1
Byoyomi:0
Least_Time_Per_Move:0
END Time-
BEGIN Position
PI
+
END Position
END Game_Summary
";
    let s = parse_summary(text).unwrap();
    assert_eq!(s.time[0].unit_ms, 1);
    assert_eq!(s.time[0].total_ms(), 60_000);
    assert_eq!(s.time[0].increment_ms(), 2_000);
    assert!(s.time[0].roundup);
    assert_eq!(s.time[1].unit_ms, 60_000);
    assert_eq!(s.time[1].total_ms(), 60_000);
    assert!(!s.time[1].roundup);
    // A shared section after a side's own one leaves that side alone.
    let shared_after = text.replace(
        "BEGIN Position",
        "BEGIN Time\nTime_Unit:1sec\nTotal_Time:5\nEND Time\nBEGIN Position",
    );
    let s = parse_summary(&shared_after).unwrap();
    assert_eq!(s.time[0].total_ms(), 60_000);
}

#[test]
fn handicap_positions() {
    // Two-piece handicap: White gives up rook and bishop and moves first.
    let text = SPEC_SUMMARY
        .replace(
            "P2 * -HI *  *  *  *  * -KA * ",
            "P2 *  *  *  *  *  *  *  *  * ",
        )
        .replace("P-\n+\n+2726FU,T12\n-3334FU,T6\n", "P-\n-\n-3334FU,T3\n")
        .replace("Your_Turn:+", "Your_Turn:-");
    let s = parse_summary(&text).unwrap();
    assert_eq!(
        s.start.to_string(),
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(
        s.usi_position(),
        "position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d"
    );
    assert_eq!(s.to_move, Color::Black);
    // The same handicap written the short way.
    let p = position_from_csa("PI82HI22KA\n-\n").unwrap();
    assert_eq!(p.to_string(), s.start.to_string());
    // Lance handicap.
    let p = position_from_csa("PI11KY\n-\n").unwrap();
    assert_eq!(
        p.to_string(),
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
}

#[test]
fn hands_and_all_remaining_pieces() {
    let text = "\
P1 *  *  *  *  * -OU *  *  * 
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  * +TO *  *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  * +OU *  *  *  * 
P+00KI00KI
P-00AL
+
";
    let p = position_from_csa(text).unwrap();
    let sfen = p.to_string();
    assert!(
        sfen.starts_with("5k3/9/5+P3/9/9/9/9/9/4K4 b 2G2r2b2g4s4n4l17p"),
        "{sfen}"
    );
}

#[test]
fn moves_in_both_notations() {
    let mut pos = Position::startpos();
    for (csa, usi) in [
        ("+7776FU", "7g7f"),
        ("-3334FU", "3c3d"),
        ("+8822UM", "8h2b+"),
        ("-3122GI", "3a2b"),
        ("+0045KA", "B*4e"),
    ] {
        let mv = move_from_csa(&pos, csa).unwrap_or_else(|e| panic!("{csa}: {e}"));
        assert_eq!(mv.to_string(), usi);
        assert_eq!(move_to_csa(&pos, mv), csa);
        pos.play(mv);
    }
    // A promoted piece keeps its promoted name when it moves on.
    let pos: Position = "4k4/9/9/9/9/9/9/1+B7/4K4 b - 1".parse().unwrap();
    let mv = move_from_csa(&pos, "+8877UM").unwrap();
    assert_eq!(mv.to_string(), "8h7g");
    for name in ["TO", "NY", "NK", "NG", "UM", "RY"] {
        assert!(hayate::position::csa::kind_from_name(name).is_some());
    }
}

#[test]
fn every_server_line() {
    use ServerLine::*;
    let cases: Vec<(&str, ServerLine)> = vec![
        ("LOGIN:hayate OK", LoginOk("hayate".into())),
        ("LOGIN:incorrect", LoginIncorrect),
        ("LOGOUT:completed", LogoutCompleted),
        ("BEGIN Game_Summary", SummaryBegins),
        (
            "START:20150505-CSA25-3-5-7",
            Start("20150505-CSA25-3-5-7".into()),
        ),
        (
            "REJECT:20150505-CSA25-3-5-7 by KITSUNE",
            Reject {
                game_id: "20150505-CSA25-3-5-7".into(),
                by: "KITSUNE".into(),
            },
        ),
        (
            "+2726FU,T12",
            Move {
                text: "+2726FU".into(),
                time: Some(12),
            },
        ),
        (
            "-0055KA,T0",
            Move {
                text: "-0055KA".into(),
                time: Some(0),
            },
        ),
        (
            "%TORYO,T3",
            Special {
                text: "%TORYO".into(),
                time: Some(3),
            },
        ),
        (
            "%KACHI",
            Special {
                text: "%KACHI".into(),
                time: None,
            },
        ),
        ("", Empty),
        ("##[MONITOR2] foo", Ignored("##[MONITOR2] foo".into())),
        ("'a comment", Ignored("'a comment".into())),
    ];
    for (line, expected) in cases {
        assert_eq!(ServerLine::parse(line).unwrap(), expected, "{line:?}");
    }
    for reason in EndReason::ALL {
        let line = format!("#{}", reason.as_str());
        assert_eq!(ServerLine::parse(&line).unwrap(), Reason(reason));
    }
    for (line, result) in [
        ("#WIN", GameResult::Win),
        ("#LOSE", GameResult::Lose),
        ("#DRAW", GameResult::Draw),
        ("#CENSORED", GameResult::Censored),
    ] {
        assert_eq!(ServerLine::parse(line).unwrap(), Result(result));
    }
    let names: Vec<&str> = EndReason::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(
        names,
        [
            "RESIGN",
            "TIME_UP",
            "ILLEGAL_MOVE",
            "SENNICHITE",
            "OUTE_SENNICHITE",
            "JISHOGI",
            "MAX_MOVES",
            "CHUDAN"
        ]
    );
}

#[test]
fn garbage_from_the_server_is_an_error() {
    for line in [
        "hello",
        "+77",
        "+7776XX,T1",
        "+7776FU,Tx",
        "#NOPE",
        "LOGIN:",
        "%",
        "\u{0}\u{1}\u{2}",
        "日本語",
        &"x".repeat(100_000),
    ] {
        let err = ServerLine::parse(line).expect_err(line);
        let text = err.to_string();
        assert!(text.contains("unexpected line"), "{text}");
        assert!(
            text.chars().count() < 300,
            "the message quotes a short line"
        );
    }
}

#[test]
fn bad_summaries_are_errors() {
    let cases = [
        ("Your_Turn:+", "Your_Turn:*", "neither + nor -"),
        ("Game_ID:20150505-CSA25-3-5-7\n", "", "no Game_ID"),
        ("Total_Time:600", "Total_Time:ten", "not a whole number"),
        ("Time_Unit:1sec", "Time_Unit:1fortnight", "not a time unit"),
        (
            "Byoyomi:10",
            "Byoyomi:10\nIncrement:5",
            "both Byoyomi and Increment",
        ),
        ("+2726FU,T12", "+2725FU,T12", "move 1 of the position"),
        (
            "P5 *  *  *  *  *  *  *  *  * ",
            "P5 *  *  *  * -XX *  *  *  * ",
            "unknown piece",
        ),
        ("To_Move:+", "To_Move:-", "To_Move"),
        ("\n+\n+2726FU", "\n+2726FU", "position"),
        ("END Position\n", "", "END Game_Summary"),
        ("Name-:KITSUNE", "garbage without a colon", "not Key:Value"),
    ];
    for (from, to, message) in cases {
        let text = SPEC_SUMMARY.replacen(from, to, 1);
        assert_ne!(text, SPEC_SUMMARY, "{from} is in the summary");
        match parse_summary(&text) {
            Ok(_) => panic!("{from} -> {to}: accepted"),
            Err(e) => {
                let shown = e.to_string();
                assert!(
                    shown.contains(message) || matches!(e, ProtocolError::Summary(_)),
                    "{from} -> {to}: {shown}"
                );
                assert!(shown.contains(message), "{from} -> {to}: {shown}");
            }
        }
    }
    // Lines after the end are refused, and a reader never panics on any line.
    let mut reader = SummaryReader::default();
    for line in SPEC_SUMMARY.lines().skip(1) {
        let _ = reader.line(line);
    }
    assert!(reader.line("Extra:1").is_err());
    let mut reader = SummaryReader::default();
    for line in [
        "BEGIN Time",
        "\u{0}",
        "BEGIN Position",
        "P1",
        "END Position",
        "+",
    ] {
        let _ = reader.line(line);
    }
}
