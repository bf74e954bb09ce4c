//! `hayate train`: the loss goes down on a small data set, and the exported net, read by
//! the engine's loader, evaluates as the float net does within the quantisation's error.

use hayate::eval::nnue::Network;
use hayate::learn::packed::{self, PackedSfenValue};
use hayate::learn::train::{self, Model, Shape, TrainConfig};
use hayate::Position;

/// Positions of random playouts labelled with the linear evaluation (a teacher that is
/// cheap and consistent), the result the teacher's verdict.
fn records(games: usize, seed: u64) -> Vec<PackedSfenValue> {
    let mut rng = seed | 1;
    let mut next = || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for ply in 0..90u16 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[(next() % moves.len() as u64) as usize];
            if ply >= 4 && !pos.in_check() {
                let score = hayate::eval::evaluate(&pos).clamp(-3000, 3000);
                out.push(PackedSfenValue {
                    sfen: packed::pack(&pos).unwrap(),
                    score: score as i16,
                    mv: packed::move_to_u16(mv),
                    game_ply: ply + 1,
                    game_result: score.signum() as i8,
                });
            }
            pos.play_unchecked(mv);
        }
    }
    out
}

fn check_shape(shape: Shape, epochs: usize, tolerance_mean: f64, tolerance_max: f64) {
    check_shape_on(shape, 240, epochs, tolerance_mean, tolerance_max);
}

/// Trains `shape` on the positions of `games` random games; checks that the loss goes
/// down and that the exported net is the float net, read by the engine's loader.
fn check_shape_on(
    shape: Shape,
    games: usize,
    epochs: usize,
    tolerance_mean: f64,
    tolerance_max: f64,
) {
    hayate::attacks::init();
    let (train_records, held_records) = train::split_by_game(records(games, 11), 6);
    assert!(!held_records.is_empty());
    let train_set = train::samples(shape, &train_records, Default::default());
    let held_set = train::samples(shape, &held_records, Default::default());
    let config = TrainConfig {
        epochs,
        batch: 256,
        lr: 2e-3,
        lambda: 1.0,
        seed: 5,
    };
    let mut losses = Vec::new();
    let trainer = train::train(
        Model::new(shape, config.seed),
        train_set,
        &held_set,
        &config,
        |_, loss, held, _, _| {
            losses.push((loss, held));
        },
    );
    assert_eq!(losses.len(), epochs);
    let (first, last) = (losses[0], losses[epochs - 1]);
    assert!(last.0 < first.0 * 0.8, "training loss {losses:?}");
    // Held out: better than after the first epoch at some point (a small set overfits).
    let best_held = losses.iter().map(|l| l.1).fold(f64::MAX, f64::min);
    assert!(best_held < first.1, "held-out loss {losses:?}");

    let bytes = trainer.model.export();
    let (net, warnings) = Network::from_bytes(&bytes).expect("the export loads");
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(net.arch(), shape.arch());
    assert_eq!(net.arch().name(), shape.name());
    assert_eq!(
        bytes.len() as u64,
        shape.arch().file_size(shape.arch().structure().len())
    );
    let mut total = 0.0;
    let mut worst: f64 = 0.0;
    let positions: Vec<Position> = held_records
        .iter()
        .map(|r| packed::unpack(&r.sfen).unwrap())
        .collect();
    let mut distinct = std::collections::HashSet::new();
    for pos in &positions {
        let float = trainer.model.evaluate(pos) as f64;
        let int = net.evaluate(pos, 16).unwrap() as f64;
        distinct.insert(int as i64);
        let d = (float - int).abs();
        total += d;
        worst = worst.max(d);
    }
    let mean = total / positions.len() as f64;
    eprintln!(
        "{}: losses {losses:?}; quantised against float over {} positions: mean {mean:.2} cp, worst {worst:.2} cp",
        shape.name(),
        positions.len()
    );
    assert!(distinct.len() > 20, "the net answers {distinct:?}");
    assert!(mean <= tolerance_mean, "mean error {mean}");
    assert!(worst <= tolerance_max, "worst error {worst}");

    // A net read back for further training is the net written: exporting it again gives
    // the same bytes, for any shape (the factoriser's rows start at zero).
    let again = Model::import(shape, &net).expect("the export imports");
    assert_eq!(again.export(), bytes);
    let other = if shape == Shape::HALFKP {
        Shape::KP
    } else {
        Shape::HALFKP
    };
    let refused = Model::import(other, &net)
        .err()
        .expect("another shape is refused");
    assert!(refused.contains(&shape.name()), "{refused}");
    // A file cut short never becomes a net to import.
    assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
}

#[test]
fn kp_trains_and_exports_what_it_learned() {
    check_shape(Shape::KP, 5, 40.0, 200.0);
}

#[test]
fn halfkp_trains_with_its_factoriser_and_exports_what_it_learned() {
    // The mean quantisation error of this small, overfitted net depends on its random
    // start: 40.7 cp from the house generator's seeded start (src/rng.rs), under 40
    // from the trainer's former private one. The bound guards against an export that
    // loses what was learned (hundreds of centipawns), not against that spread.
    check_shape(Shape::HALFKP, 4, 45.0, 200.0);
}

#[test]
fn halfkp_512x2_16_32_trains_and_exports_what_it_learned() {
    let shape = Shape::parse("halfkp_512x2-16-32").unwrap();
    check_shape_on(shape, 120, 3, 45.0, 200.0);
}

#[test]
fn halfkp_768x2_16_64_trains_and_exports_what_it_learned() {
    let shape = Shape::parse("halfkp_768x2-16-64").unwrap();
    check_shape_on(shape, 120, 3, 45.0, 200.0);
}

/// `hayate train` with arguments it refuses: exit code 2 and a message naming the shapes.
fn refused(args: &[String], expected: &[&str]) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hayate"))
        .arg("train")
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {text}");
    for e in expected {
        assert!(text.contains(e), "{args:?}: {text}");
    }
}

/// An `--arch` the trainer does not make, and an `--init` net of another shape than
/// `--arch`'s (the built-in net included), are refused before any data is read.
#[test]
fn the_command_refuses_unknown_shapes_and_init_nets_of_another() {
    hayate::attacks::init();
    let dir = std::env::temp_dir().join(format!("hayate-train-shapes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kp = dir.join("kp.bin");
    std::fs::write(&kp, Model::new(Shape::KP, 1).export()).unwrap();
    let kp = kp.to_str().unwrap();
    let with = |more: &[&str]| -> Vec<String> {
        ["--data", "missing.bin", "--out", "nn.bin"]
            .iter()
            .chain(more)
            .map(|s| s.to_string())
            .collect()
    };
    refused(
        &with(&["--arch", "halfkp_1024x2"]),
        &["halfkp_1024x2", "expected"],
    );
    refused(&with(&["--arch", "halfkpvm"]), &["halfkpvm", "expected"]);
    refused(
        &with(&["--arch", "halfkp_500x2-16-32"]),
        &["multiples of 32"],
    );
    refused(
        &with(&["--arch", "halfkp_512x2-16-32", "--init", kp]),
        &["kp_256x2-32-32", "halfkp_512x2-16-32"],
    );
    refused(
        &with(&["--arch", "halfkp_768x2-16-64", "--init", "internal"]),
        &["halfkp_256x2-32-32", "halfkp_768x2-16-64"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `hayate train` through the binary: each epoch that improves the held-out loss writes
/// the net, and the file left is one the engine loads.
#[test]
fn the_command_keeps_the_best_net_by_held_out_loss() {
    hayate::attacks::init();
    let dir = std::env::temp_dir().join(format!("hayate-train-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.bin");
    let bytes: Vec<u8> = records(120, 5).iter().flat_map(|r| r.to_bytes()).collect();
    std::fs::write(&data, bytes).unwrap();
    let net = dir.join("nn.bin");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hayate"))
        .args(["train", "--data"])
        .arg(&data)
        .arg("--out")
        .arg(&net)
        .args(["--epochs", "4", "--batch", "256", "--hold-out-every", "5"])
        .args(["--threads", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    let epochs: Vec<&str> = text.lines().filter(|l| l.starts_with("epoch")).collect();
    assert_eq!(epochs.len(), 4, "{text}");
    // The first epoch always improves on nothing; the last line names the best loss.
    assert!(
        epochs[0].ends_with(&format!("written to {}", net.display())),
        "{text}"
    );
    let held = |line: &str| -> f64 {
        let after = line.split("held-out loss ").nth(1).unwrap();
        after.split(',').next().unwrap().parse().unwrap()
    };
    let best = epochs.iter().map(|l| held(l)).fold(f64::INFINITY, f64::min);
    assert!(
        text.contains(&format!("best held-out loss ({best:.5})")),
        "{text}"
    );
    for line in &epochs {
        let improved_to_here = epochs
            .iter()
            .take_while(|l| !std::ptr::eq(*l, line))
            .all(|l| held(l) > held(line));
        assert_eq!(line.contains("written to"), improved_to_here, "{text}");
    }
    let mut file = std::fs::File::open(&net).unwrap();
    let len = file.metadata().unwrap().len();
    assert!(Network::read(&mut file, len).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mirrored_positions_swap_the_files_and_keep_the_rest() {
    // A position with promoted pieces, empty runs and pieces in hand.
    let pos: Position = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
        .parse()
        .unwrap();
    let mirrored = train::mirror_files(&pos).unwrap();
    let expected: Position =
        "ln6l/kg1+P5/3S1pn2/pP4p1p/1pS2P3/P1P2bPP1/1SG5P/8R/LKb4NL w GR5pnsg 1"
            .parse()
            .unwrap();
    assert_eq!(mirrored.to_string(), expected.to_string());
    assert_eq!(
        train::mirror_files(&mirrored).unwrap().to_string(),
        pos.to_string()
    );
    // The mirror image has as many legal moves, and the linear evaluation (symmetric in
    // the files) gives it the same score.
    assert_eq!(mirrored.legal_moves().len(), pos.legal_moves().len());
    hayate::attacks::init();
    hayate::eval::init();
    assert_eq!(
        hayate::eval::evaluate(&mirrored),
        hayate::eval::evaluate(&pos)
    );
    let records = records(2, 5);
    let plain = train::samples(Shape::HALFKP, &records, Default::default());
    let doubled = train::samples(
        Shape::HALFKP,
        &records,
        train::Sampling {
            mirror: true,
            ..Default::default()
        },
    );
    assert_eq!(doubled.len(), 2 * plain.len());
}

/// `quiet` leaves out the records whose best move captures or promotes, and only those.
#[test]
fn quiet_sampling_leaves_out_records_that_capture() {
    hayate::attacks::init();
    hayate::eval::init();
    let records = records(2, 5);
    let all = train::samples(Shape::KP, &records, Default::default());
    let quiet = train::samples(
        Shape::KP,
        &records,
        train::Sampling {
            quiet: true,
            ..Default::default()
        },
    );
    let expected = records
        .iter()
        .filter(|r| r.best_move_is_quiet(&hayate::learn::packed::unpack(&r.sfen).unwrap()))
        .count();
    assert_eq!(all.len(), records.len());
    assert_eq!(quiet.len(), expected);
    assert!(expected < records.len(), "the games capture somewhere");
    assert!(expected > 0);
}
