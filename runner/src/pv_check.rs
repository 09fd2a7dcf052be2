//! Whether the line an engine showed is the move it played: the last PV it reported
//! before `bestmove` should start with that move, or a GUI shows a line the engine did not
//! play (fastchess warns "Bestmove does not match beginning of last PV").

use framework::chess::{Board, Move};

/// How the last PV an engine reported before its `bestmove` relates to the move it played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PvCheck {
    /// It reported no PV for this move.
    #[default]
    NoPv,
    /// The PV starts with the move played.
    Starts,
    /// The PV starts with another move (or with a word that is no legal move): a GUI
    /// showing the PV shows a line the engine did not play.
    Differs,
}

impl PvCheck {
    /// Compares the first move of `pv` with the move played, `bestmove` as the engine wrote
    /// it and `played` as the board read it, in `board` (the position before the move): the
    /// same text, or a text the board reads as the same move (castling written as king
    /// takes rook, `e1h1` for `e1g1`), is a match.
    ///
    /// ```
    /// use framework::chess::Board;
    /// use runner::PvCheck;
    /// let board = Board::startpos();
    /// let e4 = board.parse_uci("e2e4").unwrap();
    /// assert_eq!(PvCheck::of(&[], "e2e4", e4, &board), PvCheck::NoPv);
    /// assert_eq!(PvCheck::of(&["e2e4".into(), "e7e5".into()], "e2e4", e4, &board), PvCheck::Starts);
    /// assert_eq!(PvCheck::of(&["g1f3".into()], "e2e4", e4, &board), PvCheck::Differs);
    /// assert_eq!(PvCheck::of(&["\u{1b}[2J".into()], "e2e4", e4, &board), PvCheck::Differs);
    /// ```
    pub fn of(pv: &[String], bestmove: &str, played: Move, board: &Board) -> PvCheck {
        let Some(first) = pv.first() else {
            return PvCheck::NoPv;
        };
        // Nearly always the same text; parsing is the rare case's cost only.
        if first == bestmove || board.parse_uci(first).is_ok_and(|mv| mv == played) {
            PvCheck::Starts
        } else {
            PvCheck::Differs
        }
    }
}
