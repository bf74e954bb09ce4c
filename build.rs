//! Unpacks the built-in net, `nets/builtin.nnue.zst`, into the build's output folder, where
//! `src/eval/nnue/builtin.rs` includes it as it is.
//!
//! The repository keeps the net compressed (24 MB instead of 64), but unpacking it at every
//! engine start cost about a second (ruzstd decodes some 60 MB/s), and an engine a GUI
//! starts, or a match starts by the hundred, should be ready at once. So the build pays
//! that second, once, and the binary carries the plain file.

use std::fs::File;
use std::io::{BufReader, BufWriter};
use std::path::PathBuf;

const PACKED: &str = "nets/builtin.nnue.zst";
const UNPACKED: &str = "builtin.nnue";

fn main() {
    println!("cargo:rerun-if-changed={PACKED}");
    println!("cargo:rerun-if-changed=build.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let file = File::open(PACKED).unwrap_or_else(|e| panic!("cannot open {PACKED}: {e}"));
    let mut decoder = ruzstd::decoding::StreamingDecoder::new(BufReader::new(file))
        .unwrap_or_else(|e| panic!("{PACKED} is not a zstd file: {e}"));
    let target = out_dir.join(UNPACKED);
    let mut writer = BufWriter::new(
        File::create(&target).unwrap_or_else(|e| panic!("cannot write {target:?}: {e}")),
    );
    std::io::copy(&mut decoder, &mut writer)
        .unwrap_or_else(|e| panic!("cannot unpack {PACKED}: {e}"));
}
