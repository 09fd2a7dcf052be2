//! What the translator writes for members of `ChessChallenge.API` whose kit counterpart
//! differs from C#'s in value or in cost (the fixtures check what ports compute; these,
//! what needs a real board).

use csharp_port::{PortOptions, port};

/// The Rust port of a bot whose class holds `members` and whose `Think` body is `body`.
fn ported(members: &str, body: &str) -> String {
    let source = format!(
        "using ChessChallenge.API;\nusing static ChessChallenge.API.BitboardHelper;\npublic class MyBot : IChessBot\n{{\n{members}\n    public Move Think(Board board, Timer timer)\n    {{\n{body}\n    }}\n}}\n"
    );
    port(&source, &PortOptions::default())
        .unwrap_or_else(|e| panic!("ported: {e}"))
        .rust
}

#[test]
fn raw_value_is_csharps_sixteen_bits() {
    // C#'s RawValue is start | target << 6 | flag << 12; the low 16 bits of the kit's
    // `raw()` hold the start square and the promotion but not the target, so a hash move
    // compared by them matched every move of the same piece.
    let rust = ported(
        "    ushort best;",
        "        var m = board.GetLegalMoves()[0];\n        best = m.RawValue;\n        return m;",
    );
    assert!(rust.contains("cs::raw_value(m)"), "{rust}");
    assert!(!rust.contains("raw() as u16"), "{rust}");
}

#[test]
fn a_board_argument_is_not_cloned() {
    // GetSliderAttacks(type, square, board) reads the board's occupancy; a clone of the
    // board (its whole history) per call made an evaluation that calls it per piece
    // several times slower.
    let rust = ported(
        "    Board b;",
        "        b = board;\n        ulong a = GetSliderAttacks(PieceType.Rook, new Square(0), b) | BitboardHelper.GetPieceAttacks(PieceType.Queen, new Square(3), b, true);\n        return board.GetLegalMoves()[(int)(a & 1)];",
    );
    assert!(rust.contains("occupied()"), "{rust}");
    assert!(!rust.contains("clone().occupied()"), "{rust}");
}

#[test]
fn another_types_board_and_timer_fields_are_the_bots() {
    // Every board and timer is the one `Think` was handed (assigning another is refused):
    // another class keeping them in fields reads the bot's through its `bot` parameter.
    let rust = ported(
        "    class Clock\n    {\n        Board b;\n        Timer t;\n        public Clock(Board board, Timer timer) { b = board; t = timer; }\n        public int Left() => t.MillisecondsRemaining + b.PlyCount;\n    }",
        "        var c = new Clock(board, timer);\n        return board.GetLegalMoves()[c.Left() * 0];",
    );
    assert!(rust.contains("fn left(&self, bot: &mut MyBot)"), "{rust}");
    assert!(
        rust.contains("bot.timer.") && rust.contains("bot.board."),
        "{rust}"
    );
    assert!(rust.contains("Clock::new(self)"), "{rust}");
    assert!(rust.contains("c.left(self)"), "{rust}");
}
