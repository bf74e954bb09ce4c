//! A whole game between two `hayate` processes over pipes, every move checked by the
//! library: the game must end by resignation (no legal move), a declaration (entering
//! king, CSA 27 points), sennichite, or the 256-ply limit.

mod common;

use common::EngineProcess as Engine;
use hayate::position::EnteringKingRule;
use hayate::Position;
use std::time::Instant;

const MAX_PLIES: usize = 256;

#[derive(Debug, PartialEq)]
enum End {
    /// The side to move resigned with no legal move.
    Resign,
    /// The side to move declared an entering-king win.
    Declared,
    /// The position occurred for the fourth time.
    Sennichite(hayate::position::Repetition),
    /// The ply limit.
    MaxPlies,
}

#[test]
fn two_engines_play_a_legal_game() {
    let mut engines = [Engine::start("black"), Engine::start("white")];
    for e in engines.iter_mut() {
        e.send("usi");
        e.expect_line(|l| l == "usiok", "usiok");
        e.send("setoption name MaxMovesToDraw value 256");
        e.send("isready");
        let (_, before) = e.expect_line(|l| l == "readyok", "readyok");
        assert!(
            before.iter().all(|l| !l.starts_with("bestmove")),
            "{before:#?}"
        );
        e.send("usinewgame");
    }

    let rule = EnteringKingRule::CsaRule27;
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let started = Instant::now();
    let end = loop {
        if let Some(rep) = pos.sennichite() {
            break End::Sennichite(rep);
        }
        if moves.len() >= MAX_PLIES {
            break End::MaxPlies;
        }
        let e = &mut engines[moves.len() % 2];
        if moves.is_empty() {
            e.send("position startpos");
        } else {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        e.send("go byoyomi 100");
        let (line, _) = e.expect_line(|l| l.starts_with("bestmove"), "bestmove");
        let words: Vec<&str> = line.split(' ').collect();
        let shape_ok = words.len() == 2 || (words.len() == 4 && words[2] == "ponder");
        if !shape_ok {
            let ctx = e.context();
            panic!("malformed {line:?} at ply {}{ctx}", moves.len());
        }
        match words[1] {
            "resign" => {
                if !pos.legal_moves().is_empty() {
                    let ctx = e.context();
                    panic!("resigned in {pos} with legal moves{ctx}");
                }
                break End::Resign;
            }
            "win" => {
                if !pos.can_declare_win(rule) {
                    let ctx = e.context();
                    panic!("declared a win in {pos} without the right to{ctx}");
                }
                break End::Declared;
            }
            m => match pos.parse_move(m) {
                Ok(mv) => {
                    pos.play_unchecked(mv);
                    moves.push(m.to_string());
                }
                Err(err) => {
                    let ctx = e.context();
                    panic!("{line:?} at ply {} in {pos}: {err}{ctx}", moves.len());
                }
            },
        }
    };
    // A game that stopped for a reason the library agrees with.
    match &end {
        End::Resign => assert!(pos.legal_moves().is_empty()),
        End::Declared => assert!(pos.can_declare_win(rule)),
        End::Sennichite(_) => assert!(pos.sennichite().is_some()),
        End::MaxPlies => assert_eq!(moves.len(), MAX_PLIES),
    }
    eprintln!(
        "game over after {} plies ({:?}) in {:?}: {end:?}",
        moves.len(),
        pos.to_string(),
        started.elapsed()
    );

    // The loser is the side to move on resign; the mover wins on a declaration.
    let mover = moves.len() % 2;
    let results: [&str; 2] = match end {
        End::Resign => {
            if mover == 0 {
                ["lose", "win"]
            } else {
                ["win", "lose"]
            }
        }
        End::Declared => {
            if mover == 0 {
                ["win", "lose"]
            } else {
                ["lose", "win"]
            }
        }
        _ => ["draw", "draw"],
    };
    for (e, result) in engines.iter_mut().zip(results) {
        e.send(&format!("gameover {result}"));
        let status = e.quit();
        assert_eq!(status.code(), Some(0), "{} exit status", e.name);
        let err = String::from_utf8_lossy(&e.stderr.lock().unwrap()).into_owned();
        assert!(!err.contains("panicked"), "{} panicked: {err}", e.name);
    }
}
