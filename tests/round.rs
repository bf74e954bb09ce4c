//! `hayate round`: a whole (tiny) round from the command line, resumed without replaying
//! a step, refusing changed settings; and the installation of a net into a checkout.

use std::path::{Path, PathBuf};
use std::process::Command;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("hayate-round-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn round(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .arg("round")
        .arg("--dir")
        .arg(dir)
        .args(extra)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A round's smallest settings: games of 150 nodes a move, a gate of four games.
const TINY: &[&str] = &["--nodes", "150", "--gate-nodes", "150", "--gate-games", "4"];

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn a_round_plays_trains_gates_and_resumes_without_replaying() {
    let tmp = TempDir::new("whole");
    let dir = tmp.0.join("r");
    let settings = [TINY, &["--hours", "0.0005", "--concurrency", "2"][..]].concat();
    let (code, stdout, stderr) = round(&dir, &settings);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let records = std::fs::metadata(dir.join("data.bin")).unwrap().len() / 40;
    assert!(records > 0);
    assert!(
        stdout.contains(&format!("round: {records} positions")),
        "{stdout}"
    );
    // The gate: four games of the new net against the built-in one, and the net a file
    // the engine loads.
    assert_eq!(lines(&dir.join("gate").join("games.jsonl")), 4);
    assert!(
        stdout.contains("gate ") && stdout.contains("passed"),
        "{stdout}"
    );
    let net = hayate::eval::nnue::builtin::load_named(dir.join("net.bin").to_str().unwrap());
    assert!(net.is_ok());
    // The openings split in two halves, the data's and the gate's.
    let data = std::fs::read_to_string(dir.join("openings-data.sfen")).unwrap();
    let gate = std::fs::read_to_string(dir.join("openings-gate.sfen")).unwrap();
    assert!(data.lines().count() >= 50 && data.lines().count() == gate.lines().count());
    assert!(data.lines().all(|l| !gate.lines().any(|g| g == l)));

    // Again: nothing is replayed, the same result comes back.
    let net_before = std::fs::read(dir.join("net.bin")).unwrap();
    let (code, again, _) = round(&dir, &[]);
    assert_eq!(code, 0);
    assert_eq!(again.lines().last(), stdout.lines().last());
    assert!(!again.contains("epoch"), "trained again: {again}");
    assert_eq!(lines(&dir.join("gate").join("games.jsonl")), 4);
    assert_eq!(std::fs::read(dir.join("net.bin")).unwrap(), net_before);

    // A setting that would change the round's files is refused with exit code 2, and so
    // are more hours once the net is trained.
    let (code, _, stderr) = round(&dir, &["--nodes", "151"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--nodes 150"), "{stderr}");
    let (code, _, stderr) = round(&dir, &["--hours", "1"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("trained"), "{stderr}");
}

#[test]
fn an_interrupted_gate_is_resumed() {
    // A round whose gate was cut short (its progress says no result yet): the games
    // played are kept and only the rest are played.
    let tmp = TempDir::new("gate");
    let dir = tmp.0.join("r");
    let settings = [TINY, &["--hours", "0.0003"][..]].concat();
    assert_eq!(round(&dir, &settings).0, 0);
    let jsonl = dir.join("gate").join("games.jsonl");
    let text = std::fs::read_to_string(&jsonl).unwrap();
    let two: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&jsonl, two.join("\n") + "\n").unwrap();
    let progress = dir.join("round.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap();
    json["gate"] = serde_json::Value::Null;
    std::fs::write(&progress, json.to_string()).unwrap();
    let (code, stdout, stderr) = round(&dir, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(lines(&jsonl), 4);
    let after = std::fs::read_to_string(&jsonl).unwrap();
    assert!(after.starts_with(&(two.join("\n") + "\n")));
}

#[test]
fn more_gate_games_grow_an_undecided_gate() {
    // Four games decide no SPRT: the same round given more gate games keeps them and
    // plays on; fewer are refused, as is growing a gate the SPRT has decided.
    let tmp = TempDir::new("grow");
    let dir = tmp.0.join("r");
    let settings = [TINY, &["--hours", "0.0003"][..]].concat();
    // Begun by another copy of the binary (an earlier build, as a round resumed after a
    // rebuild is): the grown gate goes on with the engine its record names.
    let earlier = tmp.0.join("hayate-earlier");
    std::fs::copy(env!("CARGO_BIN_EXE_hayate"), &earlier).unwrap();
    let out = Command::new(&earlier)
        .arg("round")
        .arg("--dir")
        .arg(&dir)
        .args(settings)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("no SPRT decision"), "{stdout}");
    let jsonl = dir.join("gate").join("games.jsonl");
    let four = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(four.lines().count(), 4);
    let progress = dir.join("round.json");
    let read = || -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap()
    };
    if read()["gate"]["passed"] == serde_json::Value::Bool(false) {
        assert!(stdout.contains("--gate-games up to"), "{stdout}");
    }

    let (code, stdout, stderr) = round(&dir, &["--gate-games", "6"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let six = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(six.lines().count(), 6);
    assert!(six.starts_with(&four), "the first four games are kept");
    let command = std::fs::read_to_string(dir.join("gate").join("command.json")).unwrap();
    assert!(command.contains("hayate-earlier"), "{command}");
    assert_eq!(read()["settings"]["gate_games"], 6);
    let tally = &read()["gate"];
    let games = ["wins", "losses", "draws"]
        .iter()
        .map(|k| tally[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(games, 6, "the verdict counts all six: {tally}");

    let (code, _, stderr) = round(&dir, &["--gate-games", "5"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--gate-games 6"), "{stderr}");

    // A gate the SPRT decided stays decided.
    let mut json = read();
    json["gate"]["sprt"] = serde_json::Value::String("H0".into());
    std::fs::write(&progress, json.to_string()).unwrap();
    let (code, _, stderr) = round(&dir, &["--gate-games", "8"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("decided"), "{stderr}");
    assert_eq!(lines(&jsonl), 6);
}

#[test]
fn installing_writes_the_compressed_net_and_its_sha256_line() {
    let tmp = TempDir::new("install");
    let checkout = tmp.0.join("checkout");
    std::fs::create_dir_all(checkout.join("nets")).unwrap();
    let readme = checkout.join("nets").join("README.md");
    std::fs::write(
        &readme,
        "# nets\n\nbuiltin sha256: 0000\n\n| file | shape |\n",
    )
    .unwrap();
    let net = tmp.0.join("net.bin");
    let bytes: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&net, &bytes).unwrap();
    hayate::learn::round::install(&net, &checkout).unwrap();

    // The digest as sha256sum prints it for these bytes.
    use sha2::Digest;
    let digest: String = sha2::Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let text = std::fs::read_to_string(&readme).unwrap();
    assert_eq!(
        text,
        format!("# nets\n\nbuiltin sha256: {digest}\n\n| file | shape |\n")
    );
    let packed = std::fs::read(checkout.join("nets").join("builtin.nnue.zst")).unwrap();
    assert!(packed.len() < bytes.len());
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(&packed[..]).unwrap();
    let mut unpacked = Vec::new();
    std::io::Read::read_to_end(&mut decoder, &mut unpacked).unwrap();
    assert_eq!(unpacked, bytes);

    // A checkout without the line is refused, and left as it was.
    std::fs::write(&readme, "# nets\n").unwrap();
    let e = hayate::learn::round::install(&net, &checkout).unwrap_err();
    assert!(e.to_string().contains("builtin sha256"), "{e}");
}

#[test]
fn missing_earlier_data_is_refused_before_any_game() {
    let tmp = TempDir::new("missing");
    let dir = tmp.0.join("r");
    let gone = tmp.0.join("gone.bin");
    let gone_arg = gone.to_str().unwrap();
    let (code, stdout, stderr) = round(&dir, &["--hours", "1", "--data", gone_arg]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("gone.bin"), "{stderr}");
    assert!(!dir.join("data.bin").exists(), "no game was played");
    // A file that is not whole records is refused too.
    std::fs::write(&gone, [0u8; 41]).unwrap();
    let (code, _, stderr) = round(&dir, &["--hours", "1", "--data", gone_arg]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("41 bytes"), "{stderr}");
}

#[test]
fn a_round_of_no_hours_trains_on_earlier_data_alone() {
    // Data made elsewhere (a device burst, an earlier round) is trained and gated
    // without games of the round's own.
    let tmp = TempDir::new("nohours");
    let earlier = tmp.0.join("earlier.bin");
    let out = Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args([
            "gensfen", "--games", "3", "--nodes", "150", "--seed", "5", "--out",
        ])
        .arg(&earlier)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(std::fs::metadata(&earlier).unwrap().len() >= 40);
    let dir = tmp.0.join("r");
    let earlier_arg = earlier.to_str().unwrap();
    // One opening for the data, one for the gate: the gate plays it once with each
    // colour, not the three games asked (a third would repeat the first).
    let openings = tmp.0.join("openings.sfen");
    std::fs::write(
        &openings,
        "startpos moves 7g7f 3c3d\nstartpos moves 2g2f 8c8d\n",
    )
    .unwrap();
    let settings = [
        "--hours",
        "0",
        "--data",
        earlier_arg,
        "--openings",
        openings.to_str().unwrap(),
        "--gate-nodes",
        "150",
        "--gate-games",
        "3",
    ];
    let (code, stdout, stderr) = round(&dir, &settings);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("training on 0 new records and 1 earlier file"),
        "{stderr}"
    );
    assert!(
        !dir.join("data.bin").exists(),
        "no game of its own was played"
    );
    assert!(hayate::eval::nnue::builtin::load_named(dir.join("net.bin").to_str().unwrap()).is_ok());
    assert_eq!(lines(&dir.join("gate").join("games.jsonl")), 2);
    assert!(
        stderr.contains("gate: 2 games, twice its 1 openings"),
        "{stderr}"
    );
}
