//! What translations of C# bots (`challenge port`) need from C#'s library: the runtime
//! help that cannot be written readably inline, in one place, documented and tested.
//! A bot reaches it as `cs::` through the prelude.
//!
//! - [`Array`]: C#'s arrays and spans, shared by reference; [`List`], [`Dictionary`],
//!   [`HashSet`]: its collections, shared too, iterated in .NET's order.
//! - [`Queue`], [`Stack`], [`PriorityQueue`]: its other collections, in .NET's order
//!   (the priority queue's ties as .NET's heap breaks them).
//! - [`LinkedList`] and [`LinkedListNode`]: C#'s linked list and its nodes, shared.
//! - [`SortedDictionary`], [`SortedList`], [`SortedSet`]: in the default comparer's order.
//! - [`BitArray`]: C#'s `BitArray`, shared.
//! - [`StringBuilder`]: C#'s `StringBuilder`, in UTF-16 units.
//! - [`Seq`]: LINQ's results.
//! - [`Obj`] and [`Var`]: instances of the bot's own classes, shared by reference; [`This`],
//!   an instance's `this` as a value.
//! - [`Tuple`]: C#'s `System.Tuple`, a class: shared, nullable, `==` by reference.
//! - [`BigInteger`], [`Guid`]: the few uses bots make of these.
//! - [`Decimal`]: C#'s `decimal`, exact as .NET computes it.
//! - [`Piece`], [`PAWN`] ... [`KING`], [`pieces`], [`slider_attacks`]: the API's members
//!   that take or give C#'s piece-type numbers.
//! - [`square`], [`square_at`]: `new Square(...)`, unchecked as C#'s (the kit's own
//!   constructors panic off the board).
//! - [`game_repetition_history`]: the board's `GameRepetitionHistory` in C#'s order.
//! - [`float_to`]: a `float` or `double` cast to an integer type, as .NET 6 on x64 does.
//! - [`abs`], [`sign`], [`round_digits`], [`log2`]: `Math` and `BitOperations` where
//!   C#'s meaning is not Rust's.
//! - [`move_text`], [`double_text`] and the other `_text`s: values' text as C# writes it.
//! - [`DateTime`], [`TimeSpan`]: the clock bots time a search with.
//! - [`Vector2`]: `System.Numerics`' pair of `float`s.
//! - [`try_catch`] and [`Flow`]: `try`/`catch`; [`try_finally`] and [`after_finally`]:
//!   `try`/`finally`.
//! - [`compare`]: C#'s default ordering of keys; `Array.Sort` with .NET's algorithm.
//!
//! **Integer arithmetic.** C# bots rely on C#'s unchecked arithmetic, which wraps on
//! overflow (hashes, packed evaluation weights). Ports write plain `+`, `-`, `*` and
//! `<<`: the kit builds bots in release mode without overflow checks, where Rust's
//! integer operators wrap too. (A debug build would stop at the first overflow instead.)

mod array;
mod bigint;
mod bits;
mod buffer;
mod builder;
mod convert;
mod decimal;
mod dict;
mod flow;
mod guid;
mod linked;
mod list;
mod math;
mod object;
mod piece;
mod queue;
mod seq;
mod sort;
mod sorted;
mod square;
mod text;
mod time;
mod tuple;
mod vector;

pub use array::{Array, ArrayIndex, ArrayIter, ElemRef, Subscript};
pub use bigint::BigInteger;
pub use bits::BitArray;
pub use buffer::{Primitive, block_copy, half_at};
pub use builder::StringBuilder;
pub use convert::{FromFloat, float_to};
pub use decimal::Decimal;
pub use dict::{Dictionary, HashSet};
pub(crate) use flow::caught_here;
pub use flow::{Flow, Thrown, after_finally, throw, try_catch, try_finally};
pub use guid::Guid;
pub use linked::{LinkedList, LinkedListNode};
pub use list::{List, ListIter};
pub use math::{
    HashCode, Signed, abs, convert_to_int32, div_rem, hash_code, log2, max_f32, max_f64, min_f32,
    min_f64, round_digits, sign,
};
pub use object::{Obj, This, Var};
pub use piece::{
    BISHOP, KING, KNIGHT, NONE, PAWN, Piece, QUEEN, ROOK, board_from_fen, buffer_get_byte,
    char_to_string, clear_and_get_index_of_lsb, clear_square, game_repetition_history,
    legal_moves_into, list_count, list_is_null, list_is_white, list_type, make_move, move_from_uci,
    piece_attacks, piece_list, piece_type, pieces, raw_value, set_square, slider_attacks,
    square_is_set, toggle_square, undo_move, undo_skip_turn_dropped,
};
pub use queue::{PriorityQueue, Queue, Stack};
pub use seq::{IEnumerator, IGrouping, Number, Seq};
pub use sort::compare;
pub use sorted::{SortedDictionary, SortedList, SortedSet};
pub(crate) use square::on_board;
pub use square::{king_attacks, knight_attacks, pawn_attacks, square, square_at};
pub use text::{
    ascii_get_bytes, ascii_get_string, bool_text, char_at, decimal_text, double_text, float_text,
    format_int, index_of, is_digit, is_letter, is_lower, is_upper, move_text, numeric_value,
    pad_left, pad_right, parse_double, parse_int, piece_text, piece_type_text, remove, remove_from,
    split, square_text, str_len, string_concat, string_from_chars, string_of_char, substring,
    to_lower, to_upper, trim_end, trim_start,
};
pub use time::{DateTime, TimeSpan};
pub use tuple::Tuple;
pub use vector::Vector2;
