//! The client side of USI: starting a USI engine process and talking to it with bounded
//! waits. Every tool that drives an engine imports it from here: `hayate match`, the
//! labeller (`hayate label`) and the CSA bridge (`hayate csa`).
//!
//! - [`engine`]: one engine process, its helper threads, `go` and `bestmove`;
//! - [`time_control`]: the time control the engine is told about.

pub mod engine;
pub mod time_control;

pub use engine::{
    parse_pv, parse_score, split_command, Engine, EngineError, EngineSpec, Reply, MATE_CP,
};
pub use time_control::TimeControl;
