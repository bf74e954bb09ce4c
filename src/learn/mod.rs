//! Making training data for NNUE nets: YaneuraOu's `PackedSfenValue` records
//! ([`packed`]) and the self-play generator `hayate gensfen` ([`gensfen`]).

pub mod gensfen;
pub mod packed;
pub mod round;
pub mod train;
