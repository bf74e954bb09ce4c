//! Making training data for NNUE nets: YaneuraOu's `PackedSfenValue` records
//! ([`packed`]).

pub mod packed;
