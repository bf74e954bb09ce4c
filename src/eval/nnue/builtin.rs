//! The net built into the binary, `EvalFile=internal`: `nets/builtin.nnue.zst`, a
//! YaneuraOu-format net kept compressed with zstd (24 MB instead of 64) and unpacked
//! when it is asked for. Which net it is, and how it was made, is in `nets/README.md`.

use super::error::NnueError;
use super::network::Network;
use std::io::Read;

/// The compressed file as the build found it.
const COMPRESSED: &[u8] = include_bytes!("../../../nets/builtin.nnue.zst");

/// What a user names the built-in net by (`EvalFile`, `--evalfile`).
pub const NAME: &str = "internal";

/// The built-in net's file, unpacked: the bytes a YaneuraOu build would read as `nn.bin`.
pub fn bytes() -> Result<Vec<u8>, NnueError> {
    let broken = |e: &dyn std::fmt::Display| NnueError::Builtin {
        error: e.to_string(),
    };
    let mut decoder =
        ruzstd::decoding::StreamingDecoder::new(COMPRESSED).map_err(|e| broken(&e))?;
    let mut out = Vec::new();
    decoder.read_to_end(&mut out).map_err(|e| broken(&e))?;
    Ok(out)
}

/// Loads the built-in net, with any warnings the loader has for it.
pub fn load() -> Result<(Network, Vec<String>), NnueError> {
    Network::from_bytes(&bytes()?)
}

/// Loads the net a user names: [`NAME`] for the built-in one, otherwise a file.
pub fn load_named(name: &str) -> Result<(Network, Vec<String>), NnueError> {
    if name.eq_ignore_ascii_case(NAME) {
        load()
    } else {
        super::load(std::path::Path::new(name))
    }
}
