//! The C# API's members and the kit expressions a port writes for them: one table, so a
//! change of the kit's API is a change of this data.
//!
//! Each row is a C# member (`Type.Member`), its parameter types (C# spellings; `ref`
//! marks a by-reference parameter; `-` a property, read without parentheses), its C#
//! result type, and a Rust template: `{r}` is the receiver, `{0}`, `{1}`... the
//! arguments, each converted to the parameter's type first. `mutates` marks members that
//! change the board (their callers take `&mut self`).

/// One member of the C# API.
pub(crate) struct ApiEntry {
    /// `Type.Member`.
    pub member: &'static str,
    /// Parameter types, comma-separated; `-` for a property.
    pub params: &'static str,
    /// The C# result type (`void` for none).
    pub ret: &'static str,
    /// The Rust template.
    pub rust: &'static str,
    /// Changes the receiver (a board move, a random draw).
    pub mutates: bool,
}

const fn e(
    member: &'static str,
    params: &'static str,
    ret: &'static str,
    rust: &'static str,
) -> ApiEntry {
    ApiEntry {
        member,
        params,
        ret,
        rust,
        mutates: false,
    }
}

const fn m(
    member: &'static str,
    params: &'static str,
    ret: &'static str,
    rust: &'static str,
) -> ApiEntry {
    ApiEntry {
        member,
        params,
        ret,
        rust,
        mutates: true,
    }
}

/// The table. Rows of the same member are overloads, tried in order.
pub(crate) static API: &[ApiEntry] = &[
    // Board: moves.
    // C#'s MakeMove and UndoMove skip `Move.NullMove` (`FirstOrDefault()` of no moves).
    // The move comes first: it may read the board (`MakeMove(board.GetLegalMoves()[0])`).
    m(
        "Board.MakeMove",
        "Move",
        "void",
        "cs::make_move({0}, &mut {r})",
    ),
    m(
        "Board.UndoMove",
        "Move",
        "void",
        "cs::undo_move({0}, &mut {r})",
    ),
    m("Board.TrySkipTurn", "", "bool", "{r}.skip_turn()"),
    m("Board.ForceSkipTurn", "", "void", "{r}.force_skip_turn()"),
    m("Board.UndoSkipTurn", "", "void", "{r}.undo_skip_turn()"),
    e(
        "Board.GetLegalMoves",
        "",
        "Move[]",
        "cs::Array::from({r}.legal_moves_vec())",
    ),
    e(
        "Board.GetLegalMoves",
        "bool",
        "Move[]",
        "cs::Array::from({r}.moves({0}).to_vec())",
    ),
    e(
        "Board.GetLegalMovesNonAlloc",
        "ref Span<Move>",
        "void",
        "cs::legal_moves_into(&{r}, {0}, false)",
    ),
    e(
        "Board.GetLegalMovesNonAlloc",
        "ref Span<Move>, bool",
        "void",
        "cs::legal_moves_into(&{r}, {0}, {1})",
    ),
    // Board: state.
    e("Board.IsInCheck", "", "bool", "{r}.is_in_check()"),
    e("Board.IsInCheckmate", "", "bool", "{r}.is_checkmate()"),
    e("Board.IsDraw", "", "bool", "{r}.is_search_draw()"),
    e("Board.IsInStalemate", "", "bool", "{r}.is_stalemate()"),
    e(
        "Board.IsFiftyMoveDraw",
        "",
        "bool",
        "{r}.is_fifty_move_draw()",
    ),
    e(
        "Board.IsRepeatedPosition",
        "",
        "bool",
        "{r}.is_repeated_position()",
    ),
    e(
        "Board.IsInsufficientMaterial",
        "",
        "bool",
        "{r}.is_insufficient_material()",
    ),
    e(
        "Board.HasKingsideCastleRight",
        "bool",
        "bool",
        "{r}.has_kingside_castle_right({0})",
    ),
    e(
        "Board.HasQueensideCastleRight",
        "bool",
        "bool",
        "{r}.has_queenside_castle_right({0})",
    ),
    e(
        "Board.GetKingSquare",
        "bool",
        "Square",
        "{r}.king_square({0})",
    ),
    e(
        "Board.GetPiece",
        "Square",
        "Piece",
        "cs::Piece::at(&{r}, {0})",
    ),
    e(
        "Board.GetPieceList",
        "PieceType, bool",
        "PieceList",
        "cs::piece_list(&{r}, {0}, {1})",
    ),
    e(
        "Board.GetAllPieceLists",
        "",
        "IEnumerable<PieceList>",
        "cs::Seq::from({r}.piece_lists().to_vec())",
    ),
    e(
        "Board.SquareIsAttackedByOpponent",
        "Square",
        "bool",
        "{r}.is_square_attacked({0})",
    ),
    e("Board.GetFenString", "", "string", "{r}.fen()"),
    e(
        "Board.GetPieceBitboard",
        "PieceType, bool",
        "ulong",
        "cs::pieces(&{r}, {0}, {1})",
    ),
    e("Board.WhitePiecesBitboard", "-", "ulong", "{r}.white().0"),
    e("Board.BlackPiecesBitboard", "-", "ulong", "{r}.black().0"),
    e("Board.AllPiecesBitboard", "-", "ulong", "{r}.occupied().0"),
    e("Board.IsWhiteToMove", "-", "bool", "{r}.is_white_to_move()"),
    e("Board.PlyCount", "-", "int", "{r}.ply_count()"),
    e(
        "Board.FiftyMoveCounter",
        "-",
        "int",
        "{r}.fifty_move_counter()",
    ),
    e("Board.ZobristKey", "-", "ulong", "{r}.key()"),
    e(
        "Board.GameRepetitionHistory",
        "-",
        "ulong[]",
        "cs::game_repetition_history(&{r})",
    ),
    e("Board.GameStartFenString", "-", "string", "{r}.start_fen()"),
    e(
        "Board.GameMoveHistory",
        "-",
        "Move[]",
        "cs::Array::from({r}.root_history_moves().to_vec())",
    ),
    e("Board.CreateDiagram", "", "string", "{r}.diagram()"),
    // Move.
    e("Move.StartSquare", "-", "Square", "{r}.from()"),
    e("Move.TargetSquare", "-", "Square", "{r}.to()"),
    e(
        "Move.MovePieceType",
        "-",
        "PieceType",
        "{r}.piece_number() as i32",
    ),
    e(
        "Move.CapturePieceType",
        "-",
        "PieceType",
        "{r}.captured_number() as i32",
    ),
    e(
        "Move.PromotionPieceType",
        "-",
        "PieceType",
        "{r}.promotion_number() as i32",
    ),
    e("Move.IsCapture", "-", "bool", "{r}.is_capture()"),
    e("Move.IsEnPassant", "-", "bool", "{r}.is_en_passant()"),
    e("Move.IsPromotion", "-", "bool", "{r}.is_promotion()"),
    e("Move.IsCastles", "-", "bool", "{r}.is_castle()"),
    e("Move.IsNull", "-", "bool", "{r}.is_null()"),
    e("Move.RawValue", "-", "ushort", "cs::raw_value({r})"),
    e("Move.NullMove", "-", "Move", "Move::NULL"),
    // Square.
    e("Square.Index", "-", "int", "{r}.index() as i32"),
    e("Square.File", "-", "int", "{r}.file()"),
    e("Square.Rank", "-", "int", "{r}.rank()"),
    e("Square.Name", "-", "string", "{r}.to_string()"),
    // Piece (C#'s, `cs::Piece`).
    e("Piece.PieceType", "-", "PieceType", "{r}.piece_type"),
    e("Piece.IsWhite", "-", "bool", "{r}.is_white"),
    e("Piece.Square", "-", "Square", "{r}.square"),
    e("Piece.IsNull", "-", "bool", "{r}.is_null()"),
    e("Piece.IsPawn", "-", "bool", "{r}.is_pawn()"),
    e("Piece.IsKnight", "-", "bool", "{r}.is_knight()"),
    e("Piece.IsBishop", "-", "bool", "{r}.is_bishop()"),
    e("Piece.IsRook", "-", "bool", "{r}.is_rook()"),
    e("Piece.IsQueen", "-", "bool", "{r}.is_queen()"),
    e("Piece.IsKing", "-", "bool", "{r}.is_king()"),
    // PieceList.
    // Through the runtime, which throws on C#'s null list (`GetPieceList(PieceType.None, ..)`).
    e("PieceList.Count", "-", "int", "cs::list_count(&{r})"),
    e(
        "PieceList.IsWhitePieceList",
        "-",
        "bool",
        "cs::list_is_white(&{r})",
    ),
    e(
        "PieceList.TypeOfPieceInList",
        "-",
        "PieceType",
        "cs::list_type(&{r})",
    ),
    e(
        "PieceList.GetPiece",
        "int",
        "Piece",
        "cs::Piece::of_list(&{r}, {0})",
    ),
    // Timer.
    e(
        "Timer.MillisecondsRemaining",
        "-",
        "int",
        "{r}.ms_remaining()",
    ),
    e(
        "Timer.MillisecondsElapsedThisTurn",
        "-",
        "int",
        "{r}.ms_elapsed_this_turn()",
    ),
    e(
        "Timer.OpponentMillisecondsRemaining",
        "-",
        "int",
        "{r}.opponent_ms_remaining()",
    ),
    e(
        "Timer.GameStartTimeMilliseconds",
        "-",
        "int",
        "{r}.game_start_ms()",
    ),
    e(
        "Timer.IncrementMilliseconds",
        "-",
        "int",
        "{r}.increment_ms()",
    ),
    // BitboardHelper.
    e(
        "BitboardHelper.SetSquare",
        "ref ulong, Square",
        "void",
        "cs::set_square({0}, {1})",
    ),
    e(
        "BitboardHelper.ClearSquare",
        "ref ulong, Square",
        "void",
        "cs::clear_square({0}, {1})",
    ),
    e(
        "BitboardHelper.ToggleSquare",
        "ref ulong, Square",
        "void",
        "cs::toggle_square({0}, {1})",
    ),
    e(
        "BitboardHelper.SquareIsSet",
        "ulong, Square",
        "bool",
        "cs::square_is_set({0}, {1})",
    ),
    e(
        "BitboardHelper.ClearAndGetIndexOfLSB",
        "ref ulong",
        "int",
        "cs::clear_and_get_index_of_lsb({0})",
    ),
    e(
        "BitboardHelper.GetNumberOfSetBits",
        "ulong",
        "int",
        "{0}.count_ones() as i32",
    ),
    e(
        "BitboardHelper.GetSliderAttacks",
        "PieceType, Square, ulong",
        "ulong",
        "cs::slider_attacks({0}, {1}, {2})",
    ),
    e(
        "BitboardHelper.GetSliderAttacks",
        "PieceType, Square, Board",
        "ulong",
        "cs::slider_attacks({0}, {1}, {2}.occupied().0)",
    ),
    e(
        "BitboardHelper.GetPieceAttacks",
        "PieceType, Square, ulong, bool",
        "ulong",
        "cs::piece_attacks({0}, {1}, {2}, {3})",
    ),
    e(
        "BitboardHelper.GetPieceAttacks",
        "PieceType, Square, Board, bool",
        "ulong",
        "cs::piece_attacks({0}, {1}, {2}.occupied().0, {3})",
    ),
    e(
        "BitboardHelper.GetKnightAttacks",
        "Square",
        "ulong",
        "cs::knight_attacks({0})",
    ),
    e(
        "BitboardHelper.GetKingAttacks",
        "Square",
        "ulong",
        "cs::king_attacks({0})",
    ),
    e(
        "BitboardHelper.GetPawnAttacks",
        "Square, bool",
        "ulong",
        "cs::pawn_attacks({0}, {1})",
    ),
    e("BitboardHelper.VisualizeBitboard", "ulong", "void", "()"),
    e("BitboardHelper.StopVisualizingBitboard", "", "void", "()"),
    // BitOperations.
    e(
        "BitOperations.PopCount",
        "ulong",
        "int",
        "{0}.count_ones() as i32",
    ),
    e(
        "BitOperations.TrailingZeroCount",
        "ulong",
        "int",
        "{0}.trailing_zeros() as i32",
    ),
    e(
        "BitOperations.TrailingZeroCount",
        "long",
        "int",
        "{0}.trailing_zeros() as i32",
    ),
    e(
        "BitOperations.TrailingZeroCount",
        "int",
        "int",
        "{0}.trailing_zeros() as i32",
    ),
    e(
        "BitOperations.LeadingZeroCount",
        "ulong",
        "int",
        "{0}.leading_zeros() as i32",
    ),
    e("BitOperations.Log2", "ulong", "int", "cs::log2({0})"),
    e(
        "BitOperations.RotateLeft",
        "ulong, int",
        "ulong",
        "{0}.rotate_left({1} as u32)",
    ),
    e(
        "BitOperations.RotateRight",
        "ulong, int",
        "ulong",
        "{0}.rotate_right({1} as u32)",
    ),
    // Math (the integer and floating forms are chosen by the emitter for Max, Min,
    // Abs, Sign and Clamp).
    e("Math.Sqrt", "double", "double", "{0}.sqrt()"),
    e("Math.Pow", "double, double", "double", "{0}.powf({1})"),
    e("Math.Exp", "double", "double", "{0}.exp()"),
    e("Math.Log", "double", "double", "{0}.ln()"),
    e("Math.Log", "double, double", "double", "{0}.log({1})"),
    e("Math.Log2", "double", "double", "{0}.log2()"),
    e("Math.Log10", "double", "double", "{0}.log10()"),
    e("Math.Floor", "double", "double", "{0}.floor()"),
    e("Math.Ceiling", "double", "double", "{0}.ceil()"),
    e("Math.Truncate", "double", "double", "{0}.trunc()"),
    e("Math.Round", "double", "double", "{0}.round_ties_even()"),
    e(
        "Math.Round",
        "double, int",
        "double",
        "cs::round_digits({0}, {1})",
    ),
    e("Math.Tanh", "double", "double", "{0}.tanh()"),
    e("Math.Sin", "double", "double", "{0}.sin()"),
    e("Math.Cos", "double", "double", "{0}.cos()"),
    e("Math.Atan", "double", "double", "{0}.atan()"),
    e("Math.Tan", "double", "double", "{0}.tan()"),
    e("Math.Asin", "double", "double", "{0}.asin()"),
    e("Math.Acos", "double", "double", "{0}.acos()"),
    e("Math.Atan2", "double, double", "double", "{0}.atan2({1})"),
    e("Math.Sinh", "double", "double", "{0}.sinh()"),
    e("Math.Cosh", "double", "double", "{0}.cosh()"),
    e("Math.Cbrt", "double", "double", "{0}.cbrt()"),
    e("Math.PI", "-", "double", "std::f64::consts::PI"),
    e("Math.E", "-", "double", "std::f64::consts::E"),
    e("MathF.Sqrt", "float", "float", "{0}.sqrt()"),
    e("MathF.Tanh", "float", "float", "{0}.tanh()"),
    e("MathF.Exp", "float", "float", "{0}.exp()"),
    e("MathF.Log", "float", "float", "{0}.ln()"),
    e("MathF.Round", "float", "float", "{0}.round_ties_even()"),
    e("MathF.Pow", "float, float", "float", "{0}.powf({1})"),
    e("MathF.Cos", "float", "float", "{0}.cos()"),
    e("MathF.Sin", "float", "float", "{0}.sin()"),
    e("MathF.Abs", "float", "float", "{0}.abs()"),
    e("MathF.Floor", "float", "float", "{0}.floor()"),
    e("MathF.Ceiling", "float", "float", "{0}.ceil()"),
    e("MathF.Truncate", "float", "float", "{0}.trunc()"),
    e("MathF.Tan", "float", "float", "{0}.tan()"),
    e("MathF.Atan", "float", "float", "{0}.atan()"),
    e("MathF.Asin", "float", "float", "{0}.asin()"),
    e("MathF.Acos", "float", "float", "{0}.acos()"),
    e("MathF.Atan2", "float, float", "float", "{0}.atan2({1})"),
    e("MathF.Sinh", "float", "float", "{0}.sinh()"),
    e("MathF.Cosh", "float", "float", "{0}.cosh()"),
    e("MathF.Cbrt", "float", "float", "{0}.cbrt()"),
    e("MathF.Log2", "float", "float", "{0}.log2()"),
    e("MathF.Log10", "float", "float", "{0}.log10()"),
    e("MathF.Log", "float, float", "float", "{0}.log({1})"),
    e("MathF.PI", "-", "float", "std::f32::consts::PI"),
    e("MathF.E", "-", "float", "std::f32::consts::E"),
    e(
        "BigInteger.Pow",
        "BigInteger, int",
        "BigInteger",
        "cs::BigInteger::pow({0}, {1})",
    ),
    e(
        "Buffer.GetByte",
        "int[], int",
        "byte",
        "cs::buffer_get_byte(&{0}, {1})",
    ),
    e(
        "BigInteger.ToByteArray",
        "",
        "byte[]",
        "{r}.to_byte_array()",
    ),
    e(
        "BigInteger.ToByteArray",
        "bool",
        "byte[]",
        "if {0} { {r}.to_byte_array_unsigned() } else { {r}.to_byte_array() }",
    ),
    e(
        "BigInteger.ToByteArray",
        "bool, bool",
        "byte[]",
        "{r}.to_byte_array_with({0}, {1})",
    ),
    // Numbers.
    e("int.MaxValue", "-", "int", "i32::MAX"),
    e("int.MinValue", "-", "int", "i32::MIN"),
    e("uint.MaxValue", "-", "uint", "u32::MAX"),
    e("long.MaxValue", "-", "long", "i64::MAX"),
    e("long.MinValue", "-", "long", "i64::MIN"),
    e("ulong.MaxValue", "-", "ulong", "u64::MAX"),
    e("short.MaxValue", "-", "short", "i16::MAX"),
    e("short.MinValue", "-", "short", "i16::MIN"),
    e("ushort.MaxValue", "-", "ushort", "u16::MAX"),
    e("byte.MaxValue", "-", "byte", "u8::MAX"),
    e("sbyte.MaxValue", "-", "sbyte", "i8::MAX"),
    e("sbyte.MinValue", "-", "sbyte", "i8::MIN"),
    e("double.MaxValue", "-", "double", "f64::MAX"),
    e("double.MinValue", "-", "double", "f64::MIN"),
    e("double.PositiveInfinity", "-", "double", "f64::INFINITY"),
    e(
        "double.NegativeInfinity",
        "-",
        "double",
        "f64::NEG_INFINITY",
    ),
    e("double.NaN", "-", "double", "f64::NAN"),
    e("double.Epsilon", "-", "double", "4.9406564584124654e-324"),
    e("double.IsNaN", "double", "bool", "{0}.is_nan()"),
    e("double.IsInfinity", "double", "bool", "{0}.is_infinite()"),
    e("float.MaxValue", "-", "float", "f32::MAX"),
    e("float.MinValue", "-", "float", "f32::MIN"),
    e("float.PositiveInfinity", "-", "float", "f32::INFINITY"),
    e("float.NegativeInfinity", "-", "float", "f32::NEG_INFINITY"),
    e("float.IsNaN", "float", "bool", "{0}.is_nan()"),
    // decimal and BitConverter (bots unpack tables with them).
    e(
        "decimal.GetBits",
        "decimal",
        "int[]",
        "cs::Array::from({0}.get_bits())",
    ),
    e(
        "BitConverter.GetBytes",
        "int",
        "byte[]",
        "cs::Array::from({0}.to_le_bytes())",
    ),
    e(
        "BitConverter.GetBytes",
        "uint",
        "byte[]",
        "cs::Array::from({0}.to_le_bytes())",
    ),
    e(
        "BitConverter.GetBytes",
        "long",
        "byte[]",
        "cs::Array::from({0}.to_le_bytes())",
    ),
    e(
        "BitConverter.GetBytes",
        "ulong",
        "byte[]",
        "cs::Array::from({0}.to_le_bytes())",
    ),
    e(
        "BitConverter.GetBytes",
        "short",
        "byte[]",
        "cs::Array::from({0}.to_le_bytes())",
    ),
    e(
        "BitConverter.GetBytes",
        "ushort",
        "byte[]",
        "cs::Array::from({0}.to_le_bytes())",
    ),
    // x86 and the challenge's machines are little-endian.
    e("BitConverter.IsLittleEndian", "-", "bool", "true"),
    // Encoding.ASCII: only its conversions, which read no state of it.
    e("Encoding.ASCII", "-", "ASCIIEncoding", "()"),
    e(
        "ASCIIEncoding.GetString",
        "byte[]",
        "string",
        "cs::ascii_get_string(&{0})",
    ),
    e(
        "ASCIIEncoding.GetBytes",
        "string",
        "byte[]",
        "cs::ascii_get_bytes(&{0})",
    ),
    // DateTime and TimeSpan: the clock's readings, their ticks and differences (bots time
    // their search with them), the time of day; the date's fields are not translated.
    e(
        "DateTime.UtcNow",
        "-",
        "DateTime",
        "cs::DateTime::utc_now()",
    ),
    e("DateTime.Now", "-", "DateTime", "cs::DateTime::utc_now()"),
    e("DateTime.Ticks", "-", "long", "{r}.ticks()"),
    // Of the UTC clock only: call.rs refuses them in a file that reads `DateTime.Now`.
    e("DateTime.Hour", "-", "int", "{r}.hour()"),
    e("DateTime.Minute", "-", "int", "{r}.minute()"),
    e("DateTime.Second", "-", "int", "{r}.second()"),
    e("DateTime.ToOADate", "", "double", "{r}.to_oa_date()"),
    e("TimeSpan.Zero", "-", "TimeSpan", "cs::TimeSpan::ZERO"),
    e(
        "TimeSpan.FromMilliseconds",
        "double",
        "TimeSpan",
        "cs::TimeSpan::from_milliseconds({0})",
    ),
    e(
        "TimeSpan.FromSeconds",
        "double",
        "TimeSpan",
        "cs::TimeSpan::from_seconds({0})",
    ),
    e("TimeSpan.Ticks", "-", "long", "{r}.ticks()"),
    e(
        "TimeSpan.TotalMilliseconds",
        "-",
        "double",
        "{r}.total_milliseconds()",
    ),
    e(
        "TimeSpan.TotalSeconds",
        "-",
        "double",
        "{r}.total_seconds()",
    ),
    e("TimeSpan.Milliseconds", "-", "int", "{r}.milliseconds()"),
    e("TimeSpan.Seconds", "-", "int", "{r}.seconds()"),
    e("Guid.NewGuid", "", "Guid", "cs::Guid::new_guid()"),
    // System.Numerics.Vector2: `float` arithmetic, as .NET's.
    e("Vector2.X", "-", "float", "{r}.x"),
    e("Vector2.Y", "-", "float", "{r}.y"),
    e("Vector2.Length", "", "float", "{r}.length()"),
    e("Vector2.LengthSquared", "", "float", "{r}.length_squared()"),
    // string and char (bots read FEN strings).
    e("string.Length", "-", "int", "cs::str_len(&{r})"),
    e(
        "string.Split",
        "char",
        "string[]",
        "cs::split(&{r}, &cs::char_to_string({0}))",
    ),
    e(
        "string.Split",
        "string",
        "string[]",
        "cs::split(&{r}, &{0})",
    ),
    e(
        "string.Substring",
        "int",
        "string",
        "cs::substring(&{r}, {0}, -1)",
    ),
    e(
        "string.Substring",
        "int, int",
        "string",
        "cs::substring(&{r}, {0}, {1})",
    ),
    e(
        "string.Remove",
        "int",
        "string",
        "cs::remove_from(&{r}, {0})",
    ),
    e(
        "string.Remove",
        "int, int",
        "string",
        "cs::remove(&{r}, {0}, {1})",
    ),
    e(
        "string.StartsWith",
        "string",
        "bool",
        "{r}.starts_with({0}.as_str())",
    ),
    e(
        "string.EndsWith",
        "string",
        "bool",
        "{r}.ends_with({0}.as_str())",
    ),
    e(
        "string.Contains",
        "char",
        "bool",
        "{r}.contains(cs::char_to_string({0}).as_str())",
    ),
    e(
        "string.Contains",
        "string",
        "bool",
        "{r}.contains({0}.as_str())",
    ),
    e(
        "string.IndexOf",
        "char",
        "int",
        "cs::index_of(&{r}, &cs::char_to_string({0}))",
    ),
    e(
        "string.IndexOf",
        "string",
        "int",
        "cs::index_of(&{r}, &{0})",
    ),
    e(
        "string.Replace",
        "string, string",
        "string",
        "{r}.replace({0}.as_str(), {1}.as_str())",
    ),
    e("string.ToLower", "", "string", "{r}.to_lowercase()"),
    e("string.ToUpper", "", "string", "{r}.to_uppercase()"),
    e("string.Trim", "", "string", "{r}.trim().to_string()"),
    e(
        "string.ToCharArray",
        "",
        "char[]",
        "cs::Array::from({r}.encode_utf16().collect::<Vec<u16>>())",
    ),
    e("int.Parse", "string", "int", "cs::parse_int(&{0})"),
    e("double.Parse", "string", "double", "cs::parse_double(&{0})"),
    e(
        "string.PadLeft",
        "int",
        "string",
        "cs::pad_left(&{r}, {0}, ' ' as u16)",
    ),
    e(
        "string.PadLeft",
        "int, char",
        "string",
        "cs::pad_left(&{r}, {0}, {1})",
    ),
    e(
        "string.PadRight",
        "int",
        "string",
        "cs::pad_right(&{r}, {0}, ' ' as u16)",
    ),
    e(
        "string.PadRight",
        "int, char",
        "string",
        "cs::pad_right(&{r}, {0}, {1})",
    ),
    e(
        "string.TrimEnd",
        "char",
        "string",
        "cs::trim_end(&{r}, &[{0}])",
    ),
    e(
        "string.TrimStart",
        "char",
        "string",
        "cs::trim_start(&{r}, &[{0}])",
    ),
    e("char.IsDigit", "char", "bool", "cs::is_digit({0})"),
    e("char.IsLetter", "char", "bool", "cs::is_letter({0})"),
    e("char.IsUpper", "char", "bool", "cs::is_upper({0})"),
    e("char.IsLower", "char", "bool", "cs::is_lower({0})"),
    e("char.ToLower", "char", "char", "cs::to_lower({0})"),
    e("char.ToUpper", "char", "char", "cs::to_upper({0})"),
    e(
        "char.GetNumericValue",
        "char",
        "double",
        "cs::numeric_value({0})",
    ),
    // Enumerable.
    e(
        "Enumerable.Range",
        "int, int",
        "IEnumerable<int>",
        "cs::Seq::range({0}, {1})",
    ),
];

/// The rows for `class.member`.
pub(crate) fn lookup(class: &str, member: &str) -> Vec<&'static ApiEntry> {
    // A board of the bot's own has the handed board's members.
    let class = if class == "OwnedBoard" {
        "Board"
    } else {
        class
    };
    API.iter()
        .filter(|e| {
            let (c, n) = e.member.split_once('.').unwrap_or(("", e.member));
            c == class && n == member
        })
        .collect()
}

/// Whether `class` has any row named `member`.
pub(crate) fn has(class: &str, member: &str) -> bool {
    !lookup(class, member).is_empty()
}

/// The API's static classes a C# file names.
pub(crate) fn is_static_class(name: &str) -> bool {
    matches!(
        name,
        "BitboardHelper"
            | "BitOperations"
            | "Math"
            | "Enum"
            | "MemoryExtensions"
            | "MathF"
            | "Enumerable"
            | "Console"
            | "Array"
            | "Debug"
            | "Convert"
            | "DivertedConsole"
            | "Environment"
            | "GC"
            | "Buffer"
            | "Unsafe"
            | "MemoryMarshal"
            | "BitConverter"
            | "DateTime"
            | "TimeSpan"
            | "Guid"
            | "Encoding"
    )
}
