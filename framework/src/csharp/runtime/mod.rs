//! What translations of C# bots (`challenge port`) need from C#'s library: the runtime
//! help that cannot be written readably inline, in one place, documented and tested.
//! A bot reaches it as `cs::` through the prelude.
//!
//! - [`Array`]: C#'s arrays and spans, shared by reference; [`List`], [`Dictionary`],
//!   [`HashSet`]: its collections, shared too, iterated in .NET's order.
//! - [`Seq`]: LINQ's results.
//! - [`Obj`] and [`Var`]: instances of the bot's own classes, shared by reference.
//! - [`Piece`], [`PAWN`] ... [`KING`], [`pieces`], [`slider_attacks`]: the API's members
//!   that take or give C#'s piece-type numbers.
//! - [`abs`], [`sign`], [`round_digits`], [`log2`]: `Math` and `BitOperations` where
//!   C#'s meaning is not Rust's.
//! - [`try_catch`] and [`Flow`]: `try`/`catch`.
//! - [`compare`]: C#'s default ordering of keys; `Array.Sort` with .NET's algorithm.
//!
//! **Integer arithmetic.** C# bots rely on C#'s unchecked arithmetic, which wraps on
//! overflow (hashes, packed evaluation weights). Ports write plain `+`, `-`, `*` and
//! `<<`: the kit builds bots in release mode without overflow checks, where Rust's
//! integer operators wrap too. (A debug build would stop at the first overflow instead.)

mod array;
mod dict;
mod flow;
mod list;
mod math;
mod object;
mod piece;
mod random;
mod seq;
mod sort;

pub use array::{Array, ArrayIndex, ArrayIter, ElemRef, Subscript};
pub use dict::{Dictionary, HashSet};
pub use flow::{Flow, try_catch};
pub use list::{List, ListIter};
pub use object::{Obj, Var};
pub use math::{Signed, abs, convert_to_int32, log2, max_f64, min_f64, round_digits, sign};
pub use piece::{
    BISHOP, KING, KNIGHT, NONE, PAWN, Piece, QUEEN, ROOK, char_to_string, clear_and_get_index_of_lsb,
    clear_square, color, legal_moves_into, move_from_uci, piece_attacks, piece_list, piece_type, pieces,
    set_square, slider_attacks, square, square_at, square_is_set, toggle_square,
};
pub use random::Random;
pub use seq::{Number, Seq};
pub use sort::compare;
