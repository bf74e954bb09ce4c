//! `hayate csa` (the binary) against a small fake CSA server in the test: whole games over
//! TCP on 127.0.0.1 (pondering on), a connection the server drops mid-game followed by
//! the next game, a server resignation, garbage from the server, a refused login, and an
//! engine that declares a win (`%KACHI`). No real server or network is needed.

use hayate::position::csa::{move_from_csa, move_to_csa, position_from_csa};
use hayate::Position;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::thread;
use std::time::{Duration, Instant};

const HAYATE: &str = env!("CARGO_BIN_EXE_hayate");
const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_engine/fake_usi.py");

/// A scratch folder removed when the test ends.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path =
            std::env::temp_dir().join(format!("hayate-csa-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One client connection as the fake server sees it.
struct Peer {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Peer {
    fn accept(listener: &TcpListener) -> Peer {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        Peer {
            reader: BufReader::new(stream.try_clone().unwrap()),
            writer: stream,
        }
    }

    fn send(&mut self, text: &str) {
        self.writer.write_all(text.as_bytes()).unwrap();
        if !text.ends_with('\n') {
            self.writer.write_all(b"\n").unwrap();
        }
    }

    /// The next line the client sent (without its line ending).
    fn line(&mut self) -> String {
        let mut line = String::new();
        let n = self.reader.read_line(&mut line).unwrap();
        assert!(n > 0, "the client closed the connection");
        line.trim_end_matches(['\r', '\n']).to_string()
    }

    /// The next line that is not a keep-alive.
    fn message(&mut self) -> String {
        loop {
            let line = self.line();
            if !line.is_empty() {
                return line;
            }
        }
    }

    fn login(&mut self, id: &str) {
        let login = self.message();
        assert!(login.starts_with(&format!("LOGIN {id} ")), "{login}");
        self.send(&format!("LOGIN:{id} OK"));
    }
}

/// A Game_Summary with a 1 s byoyomi, `your_turn` the client's colour and `position` the
/// lines of the Position block.
fn summary(game_id: &str, your_turn: char, to_move: char, position: &str) -> String {
    format!(
        "BEGIN Game_Summary
Protocol_Version:1.2
Protocol_Mode:Server
Format:Shogi 1.0
Declaration:Jishogi 1.1
Game_ID:{game_id}
Name+:black_player
Name-:white_player
Your_Turn:{your_turn}
Rematch_On_Draw:NO
To_Move:{to_move}
Max_Moves:256
BEGIN Time
Time_Unit:1sec
Total_Time:0
Byoyomi:1
Least_Time_Per_Move:0
END Time
BEGIN Position
{position}END Position
END Game_Summary
"
    )
}

/// Plays until the client has made `client_moves` moves, answering each but the last with
/// the first legal move, and checks every client move against the rules. Returns the
/// position reached, with the server's side to move.
fn play_moves(peer: &mut Peer, mut pos: Position, client_moves: usize) -> Position {
    let client = pos.side_to_move();
    let mut played = 0;
    loop {
        if pos.side_to_move() == client {
            let line = peer.message();
            let (mv_text, comment) = match line.split_once(',') {
                Some((m, c)) => (m.to_string(), Some(c.to_string())),
                None => (line.clone(), None),
            };
            let mv = move_from_csa(&pos, &mv_text)
                .unwrap_or_else(|e| panic!("client move '{line}': {e}"));
            if let Some(c) = comment {
                assert!(c.starts_with("'* "), "floodgate comment: {line}");
                let score = c[3..].split(' ').next().unwrap();
                assert!(score.parse::<i32>().is_ok(), "score in {line}");
            }
            peer.send(&format!("{mv_text},T0"));
            pos.play(mv);
            played += 1;
            if played == client_moves {
                return pos;
            }
        } else {
            let mv = pos.legal_moves()[0];
            let text = move_to_csa(&pos, mv);
            peer.send(&format!("{text},T0"));
            pos.play(mv);
        }
    }
}

fn run_client(args: &[&str]) -> Output {
    Command::new(HAYATE).arg("csa").args(args).output().unwrap()
}

#[test]
fn plays_games_and_goes_on_after_a_dropped_connection() {
    let dir = TempDir::new("games");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let server = thread::spawn(move || {
        // Game 1: a position with two moves already played; the connection drops after
        // three moves of the client, on the server's turn. A pause before the summary draws a keep-alive.
        let mut peer = Peer::accept(&listener);
        peer.login("tester");
        let start = Instant::now();
        assert_eq!(peer.line(), "", "a keep-alive while waiting for the game");
        assert!(start.elapsed() >= Duration::from_millis(900));
        let position = "PI\n+\n+7776FU,T1\n-3334FU,T2\n";
        peer.send(&summary("game-1", '+', '+', position));
        assert_eq!(peer.message(), "AGREE");
        peer.send("START:game-1");
        let mut pos = Position::startpos();
        for m in ["7g7f", "3c3d"] {
            pos.play(hayate::Move::from_usi(m).unwrap());
        }
        play_moves(&mut peer, pos, 3);
        drop(peer);

        // Game 2: a two-piece handicap, the client White and first to move; the server's
        // player resigns on its turn after two moves of the client.
        let mut peer = Peer::accept(&listener);
        peer.login("tester");
        let position = "PI82HI22KA\n-\n";
        peer.send(&summary("game-2", '-', '-', position));
        assert_eq!(peer.message(), "AGREE");
        peer.send("START:game-2");
        let pos = position_from_csa(position).unwrap();
        play_moves(&mut peer, pos, 2);
        peer.send("%TORYO\n#RESIGN\n#WIN");
        assert_eq!(peer.message(), "LOGOUT");
        peer.send("LOGOUT:completed");
        drop(peer);

        // Game 3: garbage from the server during the game.
        let mut peer = Peer::accept(&listener);
        peer.login("tester");
        peer.send(&summary("game-3", '-', '+', "PI\n+\n"));
        assert_eq!(peer.message(), "AGREE");
        peer.send("START:game-3");
        peer.send("this is not CSA\u{7}");
        // The client says goodbye and goes.
        let mut rest = String::new();
        let _ = peer.reader.read_line(&mut rest);
    });

    let out_dir = dir.0.join("records");
    let start = Instant::now();
    let output = run_client(&[
        "--host",
        "127.0.0.1",
        "--port",
        &port,
        "--id",
        "tester",
        "--password",
        "test-0-1,secret",
        "--games",
        "3",
        "--margin-ms",
        "700",
        "--keepalive",
        "1",
        "--ponder",
        "--option",
        "Threads=1",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    server.join().expect("the fake server's checks");
    assert!(output.status.success(), "{stdout}\n{stderr}");
    assert!(start.elapsed() < Duration::from_secs(60));

    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].contains("connection"), "{}", lines[0]);
    assert!(lines[1].contains("WIN (RESIGN)"), "{}", lines[1]);
    assert!(lines[2].contains("unexpected line"), "{}", lines[2]);

    let jsonl = std::fs::read_to_string(out_dir.join("games.jsonl")).unwrap();
    let games: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 3);
    assert_eq!(
        games[0]["opening_moves"],
        serde_json::json!(["7g7f", "3c3d"])
    );
    assert_eq!(games[0]["result"], serde_json::Value::Null);
    assert_eq!(games[1]["result"], "win");
    assert_eq!(games[1]["reason"], "resign");
    assert_eq!(games[1]["color"], "white");
    assert_eq!(games[1]["plies"], 3);
    let csa = std::fs::read_to_string(out_dir.join("game-2.csa")).unwrap();
    assert!(csa.contains("N+black_player\nN-white_player\n"), "{csa}");
    assert!(csa.contains("P2 *  *  *  *  *  *  *  *  * \n"), "{csa}");
    assert!(csa.trim_end().ends_with("%TORYO"), "{csa}");
    // The record reads back as the game that was played.
    assert!(
        csa.contains("'* "),
        "the floodgate comments are kept: {csa}"
    );
}

#[test]
fn a_refused_login_is_one_clear_error() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let server = thread::spawn(move || {
        let mut peer = Peer::accept(&listener);
        let _ = peer.message();
        peer.send("LOGIN:incorrect");
    });
    let start = Instant::now();
    let output = run_client(&[
        "--host",
        "127.0.0.1",
        "--port",
        &port,
        "--id",
        "tester",
        "--password",
        "wrong",
        "--games",
        "5",
    ]);
    server.join().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("LOGIN:incorrect"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn an_engine_declaration_is_sent_as_kachi() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port().to_string();
    let server = thread::spawn(move || {
        let mut peer = Peer::accept(&listener);
        peer.login("decl");
        peer.send(&summary("game-k", '+', '+', "PI\n+\n"));
        assert_eq!(peer.message(), "AGREE");
        peer.send("START:game-k");
        assert_eq!(peer.message(), "%KACHI");
        // Not a winning position: shogi-server's answer to a wrong declaration.
        peer.send("%KACHI\n#ILLEGAL_MOVE\n#LOSE");
        assert_eq!(peer.message(), "LOGOUT");
    });
    let engine = format!("python3 '{FAKE}' win --hayate '{HAYATE}'");
    let output = run_client(&[
        "--host",
        "127.0.0.1",
        "--port",
        &port,
        "--id",
        "decl",
        "--password",
        "x",
        "--engine",
        &engine,
    ]);
    server.join().expect("the fake server's checks");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("LOSE (ILLEGAL_MOVE)"), "{stdout}");
}
