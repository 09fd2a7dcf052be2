//! A game in progress as the live pages draw it: its whole state in one value
//! ([`GameView`], sent as JSON), and [`Follow`], which keeps it up to date move by move.
//!
//! One format for every way a game reaches the pages: `challenge serve` follows the games
//! it plays itself with a [`Follow`] on the game's thread, and a `challenge worker`
//! follows its games the same way and publishes the JSON to a PostgreSQL store
//! ([`GameView::to_bounded_json`]), where the server reads it back
//! ([`GameView::from_stored`]) and shows it through the same hub.

use std::time::Duration;

use framework::chess::{Board, Color};
use framework::notation::to_san;
use runner::{MoveUpdate, Score, SearchInfo};
use serde::{Deserialize, Serialize};

use runner::LiveStart;

/// What an engine last said about its search, as the page shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EngineView {
    /// Its last depth.
    pub depth: Option<u32>,
    /// Its last score from White's side (`+0.35`: White is better; `-M3`: White is
    /// mated in 3), whichever side the engine plays: an engine reports its own side's.
    pub score: Option<String>,
    /// Its last node count.
    pub nodes: Option<u64>,
    /// Its last principal variation, in UCI notation (bounded by the runner).
    pub pv: Vec<String>,
}

impl EngineView {
    /// What `info` says, as shown, from the engine playing `side`: its score turned to
    /// White's side, so both engines' rows read alike.
    ///
    /// ```
    /// use framework::chess::Color;
    /// use league::EngineView;
    /// use runner::{Score, SearchInfo};
    /// let info = SearchInfo { score: Some(Score::Cp(35)), ..SearchInfo::default() };
    /// assert_eq!(EngineView::of(&info, Color::White).score.as_deref(), Some("+0.35"));
    /// assert_eq!(EngineView::of(&info, Color::Black).score.as_deref(), Some("-0.35"));
    /// let mating = SearchInfo { score: Some(Score::Mate(2)), ..SearchInfo::default() };
    /// assert_eq!(EngineView::of(&mating, Color::Black).score.as_deref(), Some("-M2"));
    /// ```
    pub fn of(info: &SearchInfo, side: Color) -> EngineView {
        let whites = |score: Score| match (side, score) {
            (Color::White, _) => score,
            (Color::Black, Score::Cp(cp)) => Score::Cp(cp.saturating_neg()),
            (Color::Black, Score::Mate(moves)) => Score::Mate(moves.saturating_neg()),
        };
        EngineView {
            depth: info.depth,
            score: info.score.map(|s| whites(s).to_string()),
            nodes: info.nodes,
            pv: info.pv.clone(),
        }
    }
}

/// The side to move, whose clock runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Turn {
    /// White.
    #[serde(rename = "w")]
    White,
    /// Black.
    #[serde(rename = "b")]
    Black,
}

impl Turn {
    fn of(board: &Board) -> Turn {
        match board.side_to_move() {
            Color::White => Turn::White,
            Color::Black => Turn::Black,
        }
    }
}

/// A game's state: everything its live page draws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    /// The game's key: its slot in a tournament, its number in a match.
    pub key: i64,
    /// Plies on the board since the start position (book moves included).
    pub plies: usize,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// Round and game.
    pub round: String,
    /// The position the moves start from.
    pub start_fen: String,
    /// The position now.
    pub fen: String,
    /// The move number of the first move in [`GameView::sans`].
    pub first_move_number: u32,
    /// Whether the first move in [`GameView::sans`] is Black's.
    pub black_first: bool,
    /// The moves, in SAN (the oldest may be left out of a very long game's stored
    /// snapshot: [`GameView::to_bounded_json`]).
    pub sans: Vec<String>,
    /// The last move, in UCI notation.
    pub last_move: Option<String>,
    /// Whether the side to move is in check.
    pub check: bool,
    /// Milliseconds left, White's first (`null`: no clock).
    pub clocks: [Option<u64>; 2],
    /// The side to move.
    pub turn: Turn,
    /// What each engine last said, White's first.
    pub engines: [EngineView; 2],
    /// Over on the board.
    pub over: bool,
    /// Its result, once known.
    pub result: Option<String>,
    /// How it ended, once known.
    pub detail: Option<String>,
    /// The stored game's page, once the game is in the store.
    pub stored: Option<String>,
}

impl GameView {
    /// Over: with its result and how it ended (`None`: not known), and the stored game's
    /// page (`None`: not stored).
    pub fn finish(&mut self, result: Option<&str>, detail: Option<&str>, stored: Option<String>) {
        self.over = true;
        self.result = result.map(str::to_string);
        self.detail = detail.map(str::to_string);
        self.stored = stored;
    }

    /// The view as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a game view always serialises")
    }

    /// The view as JSON of at most `max` bytes, for a store: a game too long for it
    /// leaves out its oldest moves (the move numbers follow), `None` if even that is not
    /// enough.
    ///
    /// ```
    /// # use league::GameView;
    /// # let start = runner::LiveStart { key: 1, white: "a", black: "b", round: "1",
    /// #     opening: &runner::Opening::startpos(), time_controls: ["1+0".parse().unwrap(); 2] };
    /// let mut view = league::Follow::new(&start).view().clone();
    /// view.sans = vec!["Nf3".into(); 1001];
    /// let short = view.to_bounded_json(2000).unwrap();
    /// let back = GameView::from_stored(&short, 1).unwrap();
    /// assert!(short.len() <= 2000 && back.sans.len() < 1001);
    /// assert_eq!(back.first_move_number + back.sans.len() as u32 / 2, 1 + 1001 / 2);
    /// ```
    pub fn to_bounded_json(&self, max: usize) -> Option<String> {
        let json = self.to_json();
        if json.len() <= max {
            return Some(json);
        }
        let mut shorter = self.clone();
        while !shorter.sans.is_empty() {
            let drop = shorter.sans.len().div_ceil(2);
            shorter.drop_oldest(drop);
            let json = shorter.to_json();
            if json.len() <= max {
                return Some(json);
            }
        }
        None
    }

    /// Leaves out the `n` oldest moves, numbering the rest as before.
    fn drop_oldest(&mut self, n: usize) {
        let n = n.min(self.sans.len());
        let half_moves = n + usize::from(self.black_first);
        let full = u32::try_from(half_moves / 2).unwrap_or(u32::MAX);
        self.first_move_number = self.first_move_number.saturating_add(full);
        self.black_first = half_moves % 2 == 1;
        self.sans.drain(..n);
    }

    /// A view read back from a store, as the worker of game `key` wrote it: refused
    /// unless it is a view of that game on a position that parses. (Its texts are shown
    /// escaped; its size was bounded by the store.)
    pub fn from_stored(json: &str, key: i64) -> Result<GameView, String> {
        let view: GameView =
            serde_json::from_str(json).map_err(|e| format!("not a game's view: {e}"))?;
        if view.key != key {
            return Err(format!(
                "the view of game {} stored for game {key}",
                view.key
            ));
        }
        Board::from_fen(&view.fen).map_err(|e| format!("its position does not parse: {e}"))?;
        let uci = |m: &String| m.len() <= 5 && m.bytes().all(|b| b.is_ascii_alphanumeric());
        if !view.last_move.as_ref().is_none_or(uci) {
            return Err("its last move is not a move in UCI notation".into());
        }
        Ok(view)
    }
}

/// Keeps a game's [`GameView`] up to date from its start and its moves (the steps of a
/// [`runner::MoveObserver`]).
#[derive(Debug, Clone)]
pub struct Follow {
    view: GameView,
    board: Board,
}

fn millis(clocks: [Option<Duration>; 2]) -> [Option<u64>; 2] {
    clocks.map(|c| c.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)))
}

impl Follow {
    /// A game that has not started moving: the opening on the board.
    pub fn new(start: &LiveStart<'_>) -> Follow {
        let opening = start.opening;
        let mut board = opening.start.clone();
        let first_move_number = board.fullmove_number().unsigned_abs();
        let black_first = board.side_to_move() == Color::Black;
        let mut sans = Vec::with_capacity(opening.moves.len());
        for &mv in &opening.moves {
            sans.push(to_san(&board, mv));
            board.make_move(mv);
        }
        let view = GameView {
            key: start.key,
            plies: sans.len(),
            white: start.white.to_string(),
            black: start.black.to_string(),
            round: start.round.to_string(),
            start_fen: opening.start.fen(),
            fen: board.fen(),
            first_move_number,
            black_first,
            sans,
            last_move: opening.moves.last().map(|m| m.to_string()),
            check: board.is_in_check(),
            clocks: [None, None],
            turn: Turn::of(&board),
            engines: [EngineView::default(), EngineView::default()],
            over: false,
            result: None,
            detail: None,
            stored: None,
        };
        Follow { view, board }
    }

    /// The game's state now.
    pub fn view(&self) -> &GameView {
        &self.view
    }

    /// Both engines are ready on `board` ([`runner::MoveObserver::started`]).
    pub fn started(&mut self, board: &Board, clocks: [Option<Duration>; 2]) {
        self.board = board.clone();
        self.view.fen = board.fen();
        self.view.clocks = millis(clocks);
        self.view.turn = Turn::of(board);
        self.view.check = board.is_in_check();
    }

    /// A move was played ([`runner::MoveObserver::moved`]).
    pub fn moved(&mut self, update: &MoveUpdate<'_>) {
        let mover = update.board.side_to_move();
        self.view.sans.push(to_san(update.board, update.mv));
        self.view.plies += 1;
        self.board.make_move(update.mv);
        self.view.fen = self.board.fen();
        self.view.last_move = Some(update.mv.to_string());
        self.view.check = self.board.is_in_check();
        self.view.clocks = millis(update.clocks);
        self.view.turn = Turn::of(&self.board);
        self.view.engines[mover.index()] = EngineView::of(update.info, mover);
    }

    /// The game is over, with its result, how it ended and where it was stored
    /// ([`GameView::finish`]).
    pub fn finish(&mut self, result: Option<&str>, detail: Option<&str>, stored: Option<String>) {
        self.view.finish(result, detail, stored);
    }

    /// The game is over on the board; `result` and `detail` once they are known.
    pub fn end(&mut self, result: Option<&str>, detail: Option<&str>) {
        self.view.over = true;
        self.view.result = result.map(str::to_string);
        self.view.detail = detail.map(str::to_string);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view() -> GameView {
        let start = LiveStart {
            key: 7,
            white: "a",
            black: "b",
            round: "round 1",
            opening: &runner::Opening::startpos(),
            time_controls: ["1+0".parse().expect("a time control"); 2],
        };
        Follow::new(&start).view().clone()
    }

    #[test]
    fn dropping_moves_keeps_their_numbers() {
        let mut v = view();
        v.sans = (0..5).map(|i| i.to_string()).collect();
        // 1. m0 m1 2. m2 m3 3. m4: without three, 2... m3 3. m4.
        v.drop_oldest(3);
        assert_eq!((v.first_move_number, v.black_first), (2, true));
        assert_eq!(v.sans, ["3", "4"]);
        // Without one more: 3. m4.
        v.drop_oldest(1);
        assert_eq!((v.first_move_number, v.black_first), (3, false));
    }

    #[test]
    fn a_small_view_is_whole_and_an_impossible_bound_gives_none() {
        let v = view();
        assert_eq!(v.to_bounded_json(1 << 20), Some(v.to_json()));
        assert_eq!(v.to_bounded_json(10), None);
    }

    #[test]
    fn a_stored_view_of_another_game_or_position_is_refused() {
        let v = view();
        assert_eq!(GameView::from_stored(&v.to_json(), 7), Ok(v.clone()));
        assert!(GameView::from_stored(&v.to_json(), 8).is_err());
        let mut bad = v.clone();
        bad.fen = "<script>".into();
        assert!(GameView::from_stored(&bad.to_json(), 7).is_err());
        let mut bad = v.clone();
        bad.last_move = Some("e2e4\"><b>".into());
        assert!(GameView::from_stored(&bad.to_json(), 7).is_err());
        bad.last_move = Some("e7e8q".into());
        assert!(GameView::from_stored(&bad.to_json(), 7).is_ok());
        assert!(GameView::from_stored("{\"key\": 7}", 7).is_err());
        assert!(GameView::from_stored("[]", 7).is_err());
    }
}
