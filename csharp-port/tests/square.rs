//! What the translator writes for `new Square(...)` (C#'s constructors check no range)
//! and for `UndoSkipTurn` on a board of the bot's own that nothing reads afterwards.

mod common;

/// The Rust port of a bot whose `Think` body is `body`.
fn ported(body: &str) -> String {
    let source = format!(
        "using ChessChallenge.API;\npublic class MyBot : IChessBot\n{{\n    public Move Think(Board board, Timer timer)\n    {{\n{body}\n    }}\n}}\n"
    );
    common::ported(&source)
}

#[test]
fn csharp_square_constructors_are_the_unchecked_ones() {
    // The kit's `Square::new` and `from_index` panic off the board; C#'s keep any index,
    // and entries test `File`/`Rank`/`Index` after making a neighbour that may be off.
    let rust = ported(
        "        var s = new Square(board.GetKingSquare(true).File - 1, 0);\n        var t = new Square(s.Index - 8);\n        return board.GetLegalMoves()[t.Rank < 0 ? 0 : 1];",
    );
    assert!(rust.contains("cs::square_at("), "{rust}");
    assert!(rust.contains("cs::square("), "{rust}");
    assert!(!rust.contains("Square::new("), "{rust}");
    assert!(!rust.contains("Square::from_index("), "{rust}");
}

/// A body making an owned board, moving, skipping, undoing out of order, then `after`.
fn undo_out_of_order(after: &str) -> String {
    ported(&format!(
        "        Board own = Board.CreateBoardFromFEN(board.GetFenString());\n        Move m = own.GetLegalMoves()[0];\n        own.MakeMove(m);\n        own.ForceSkipTurn();\n        own.UndoMove(m);\n        own.UndoSkipTurn();\n{after}\n        return m;"
    ))
}

#[test]
fn an_undo_skip_turn_on_an_owned_board_read_no_more_is_the_dropped_one() {
    // C#'s UndoSkipTurn unmakes whatever is last without throwing; the kit's checks.
    let rust = undo_out_of_order("");
    assert!(
        rust.contains("cs::undo_skip_turn_dropped(&mut own)"),
        "{rust}"
    );
}

#[test]
fn an_owned_board_read_afterwards_keeps_the_checked_undo() {
    // Read after, C#'s corrupted board would show: the kit's check stops there instead.
    let rust = undo_out_of_order("        if (own.IsInCheck()) return Move.NullMove;");
    assert!(rust.contains("own.undo_skip_turn()"), "{rust}");
    assert!(!rust.contains("undo_skip_turn_dropped"), "{rust}");
}

#[test]
fn the_handed_board_keeps_the_checked_undo() {
    let rust = ported(
        "        board.ForceSkipTurn();\n        board.UndoSkipTurn();\n        return board.GetLegalMoves()[0];",
    );
    assert!(!rust.contains("undo_skip_turn_dropped"), "{rust}");
}
