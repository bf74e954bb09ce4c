//! The net built into the binary, `EvalFile=internal`: `nets/builtin.nnue.zst`, a
//! YaneuraOu-format net kept compressed with zstd in the repository (24 MB instead of 64)
//! and unpacked by the build (`build.rs`), so that the binary carries the plain file and
//! loads it as fast as a file on disk. Which net it is, and how it was made, is in
//! `nets/README.md`.

use super::error::NnueError;
use super::network::Network;

/// The built-in net's file: the bytes a YaneuraOu build would read as `nn.bin`.
static FILE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/builtin.nnue"));

/// What a user names the built-in net by (`EvalFile`, `--evalfile`).
pub const NAME: &str = "internal";

/// The built-in net's file, as a YaneuraOu build would read it as `nn.bin`.
pub fn bytes() -> &'static [u8] {
    FILE
}

/// Loads the built-in net, with any warnings the loader has for it.
pub fn load() -> Result<(Network, Vec<String>), NnueError> {
    Network::from_bytes(FILE)
}

/// Loads the net a user names: [`NAME`] for the built-in one, otherwise a file.
pub fn load_named(name: &str) -> Result<(Network, Vec<String>), NnueError> {
    if name.eq_ignore_ascii_case(NAME) {
        load()
    } else {
        super::load(std::path::Path::new(name))
    }
}
