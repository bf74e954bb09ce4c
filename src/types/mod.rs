//! Core value types shared by every other module: colours, squares, pieces,
//! hands, bitboards and moves.

mod bitboard;
mod color;
mod hand;
mod moves;
mod piece;
mod square;

pub use bitboard::Bitboard;
pub use color::Color;
pub use hand::Hand;
pub use moves::{Move, MoveList, MAX_MOVES};
pub use piece::{Piece, PieceKind};
pub use square::{File, Rank, Square};
