//! What the command-line tools share besides clap: one style for the errors found after
//! the arguments parsed (clap reports the ones it finds itself the same way), and the
//! exit codes.

use std::fmt::Display;

/// Exit code for bad input: a malformed argument, file or position.
pub const BAD_INPUT: i32 = 2;
/// Exit code for a run that started but could not finish (an engine that would not
/// start, a record that could not be written).
pub const FAILED: i32 = 1;

/// Reports bad input the way clap reports a bad argument; returns [`BAD_INPUT`].
pub fn bad_input(tool: &str, message: impl Display) -> i32 {
    eprintln!("error: {message}\n\nFor more information, try 'hayate {tool} --help'.");
    BAD_INPUT
}

/// Reports a run that failed; returns [`FAILED`].
pub fn failed(tool: &str, message: impl Display) -> i32 {
    eprintln!("error: hayate {tool}: {message}");
    FAILED
}
