//! `hayate netinfo`: the binary run on net files. Shapes, sizes and hashes are checked
//! against the test writers (written from the format description, apart from the
//! engine) and the files' own bytes.

use super::writer::{self, Shape};
use super::{kp352, malformed_cases, sfnn, TempDir};
use std::path::Path;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_hayate");

fn netinfo(file: &Path) -> Output {
    Command::new(BIN)
        .arg("netinfo")
        .arg(file)
        .stdin(Stdio::null())
        .output()
        .expect("run the hayate binary")
}

/// The report's value after `key: `, on the line that starts with it.
fn field<'a>(report: &'a str, key: &str) -> &'a str {
    let prefix = format!("{key}: ");
    report
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("no {key:?} line in {report}"))
}

/// Runs netinfo on a net that loads; returns its report.
fn report_of(path: &Path) -> String {
    let out = netinfo(path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    String::from_utf8(out.stdout).expect("UTF-8 report")
}

/// Checks what every report of a classic net of `shape` says, for a file of `bytes`.
fn check_classic(report: &str, shape: Shape, name: &str, bytes: &[u8]) {
    assert_eq!(field(report, "format"), "classic NNUE");
    assert!(
        field(report, "shape").starts_with(&format!("{name}: ")),
        "{report}"
    );
    assert_eq!(
        field(report, "size"),
        format!("{} bytes ({:.1} MB)", bytes.len(), bytes.len() as f64 / 1e6)
    );
    assert_eq!(field(report, "architecture"), shape.structure());
    let matches = |h: u32| format!("{h:#010x} (matches the shape)");
    assert_eq!(field(report, "file hash"), matches(shape.hash()));
    assert_eq!(
        field(report, "feature transformer hash"),
        matches(shape.transformer_hash())
    );
    assert!(field(report, "FV_SCALE").contains("default FV_SCALE is 16"));
    // The parameters: the transformer's i16s, then the layers' bytes held twice (as
    // read and interleaved for the kernels) with their i32 biases.
    let transformer = 2 * shape.half * (1 + shape.inputs());
    let layers = |inputs: usize, outputs: usize| 4 * outputs + 2 * outputs * writer::pad32(inputs);
    let memory = transformer
        + layers(2 * shape.half, shape.h1)
        + layers(shape.h1, shape.h2)
        + layers(shape.h2, 1)
        + shape.structure().len();
    assert!(
        field(report, "memory").starts_with(&format!("{memory} bytes")),
        "{report}"
    );
}

#[test]
fn netinfo_describes_the_built_in_net() {
    let tmp = TempDir::new("netinfo-builtin");
    let bytes = hayate::eval::nnue::builtin::bytes();
    let path = tmp.write("builtin.nnue", bytes);
    let report = report_of(&path);
    check_classic(&report, writer::HALFKP_256, "halfkp_256x2-32-32", bytes);
    // The network hash as the file has it, at its fixed place after the transformer.
    let shape = writer::HALFKP_256;
    let at = bytes.len() - (4 + (4 * 32 + 32 * 512) + (4 * 32 + 32 * 32) + (4 + 32));
    let found = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!(found, shape.network_hash());
    assert_eq!(
        field(&report, "network hash"),
        format!("{found:#010x} (matches the shape)")
    );
    // `internal` names the same file.
    let internal = report_of(Path::new("internal"));
    assert_eq!(field(&internal, "file hash"), field(&report, "file hash"));
    assert_eq!(field(&internal, "size"), field(&report, "size"));
}

#[test]
fn netinfo_describes_a_classic_net_of_another_shape() {
    let tmp = TempDir::new("netinfo-kp352");
    let t = kp352();
    let path = tmp.write("kp352.bin", &t.bytes);
    let report = report_of(&path);
    check_classic(&report, t.shape, "kp_352x2-24-96", &t.bytes);
    assert_eq!(
        field(&report, "network hash"),
        format!("{:#010x} (matches the shape)", t.shape.network_hash())
    );
    // An inner hash that is not the shape's: the net loads (as in YaneuraOu), and the
    // report says which hash differs.
    let mut damaged = t.bytes.clone();
    let len = u32::from_le_bytes(damaged[8..12].try_into().unwrap()) as usize;
    damaged[12 + len] ^= 1;
    let path = tmp.write("kp352-hash.bin", &damaged);
    let report = report_of(&path);
    let want = t.shape.transformer_hash();
    assert_eq!(
        field(&report, "feature transformer hash"),
        format!(
            "{:#010x} (the shape implies {want:#010x}: does not match)",
            want ^ 1
        )
    );
}

#[test]
fn netinfo_describes_an_sfnn_net() {
    let tmp = TempDir::new("netinfo-sfnn");
    let bytes = sfnn::small_net();
    let path = tmp.write("sfnn.bin", bytes);
    let report = report_of(&path);
    assert_eq!(field(&report, "format"), "SFNN");
    assert!(
        field(&report, "shape").starts_with("SFNN_halfkahm2_64_8_8: features HalfKA_hm2(Friend)"),
        "{report}"
    );
    assert_eq!(
        field(&report, "size"),
        format!("{} bytes ({:.1} MB)", bytes.len(), bytes.len() as f64 / 1e6)
    );
    // YaneuraOu's fixed SFNN hashes (its `kSfnnBaseHashValue` and the transformer's and
    // stacks' values in `nnue_dummy_gen.py`).
    assert_eq!(
        field(&report, "file hash"),
        "0x3c203b32 (matches the shape)"
    );
    assert_eq!(
        field(&report, "feature transformer hash"),
        "0x5f134ab8 (matches the shape)"
    );
    assert_eq!(
        field(&report, "network hash"),
        "0x6333718a (matches the shape)"
    );
}

/// A split first layer is named in the shape and described on a line of its own.
#[test]
fn netinfo_describes_a_split_first_layer() {
    let tmp = TempDir::new("netinfo-sfnn-split");
    let path = tmp.write("split.bin", &super::sfnn_buckets::split_dummy_net());
    let report = report_of(&path);
    assert!(
        field(&report, "shape").starts_with("SFNN_halfka2_128_8_16_c0_s64x2_k3k3: "),
        "{report}"
    );
    assert_eq!(
        field(&report, "first layer"),
        "split, each of 2 groups of 4 outputs reading the 0 common inputs and its own 64"
    );
}

/// Every file the loader refuses: exit code 2, one line on stderr naming the file and
/// what its header says, nothing on stdout, no panic.
#[test]
fn netinfo_refuses_unreadable_files_with_one_line() {
    let tmp = TempDir::new("netinfo-malformed");
    let mut cases = malformed_cases();
    cases.extend(sfnn::malformed_sfnn_cases());
    for (name, bytes, words) in cases {
        let path = tmp.write(name, &bytes);
        let out = netinfo(&path);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(out.stdout.is_empty(), "{name}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.starts_with(&format!("error: hayate netinfo: {}: ", path.display())),
            "{name}: {stderr}"
        );
        assert!(stderr.contains(words), "{name}: {stderr}");
    }
    for path in [tmp.path().to_path_buf(), tmp.path().join("no-such-file")] {
        let out = netinfo(&path);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
    }
}
