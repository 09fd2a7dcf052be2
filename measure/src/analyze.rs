//! Engine analysis of played games: every position searched by a UCI engine, then lichess's
//! statistics per player (average centipawn loss, accuracy, inaccuracies / mistakes / blunders)
//! and the game annotated with `[%eval]` comments.
//!
//! The statistics follow lichess's published code exactly, so a game analysed here and on
//! lichess with the same evaluations gives the same numbers:
//! - Win%: scalachess `core/src/main/scala/eval.scala` (`WinPercent`), described on
//!   <https://lichess.org/page/accuracy>;
//! - move and game accuracy: lila `modules/analyse/src/main/AccuracyPercent.scala`, with the
//!   mean helpers of scalalib `lila/src/main/scala/Maths.scala`;
//! - average centipawn loss: lila `modules/analyse/src/main/AccuracyCP.scala`;
//! - inaccuracy / mistake / blunder: lila `modules/tree/src/main/Advice.scala`, asked only for
//!   moves that differ from the engine's choice, as lila `modules/fishnet/src/main/AnalysisBuilder.scala`
//!   does (it keeps no variation, hence no advice, when the engine's first move was played).
//!
//! One deliberate difference: lila takes +0.15 as the evaluation before the first move for
//! every game; here that holds for the standard start only, and a game from a `FEN` tag uses
//! the engine's evaluation of its start position.
//!
//! ```
//! use measure::{Judgement, judge};
//! use results::{Eval, win_percent};
//! use framework::chess::Color;
//! assert!((win_percent(Eval::Cp(0)) - 50.0).abs() < 1e-9);
//! // Mates count as ±10.00 for Win%, as on lichess.
//! assert_eq!(win_percent(Eval::Mate(3)), win_percent(Eval::Cp(1000)));
//! // White drops from +1.20 to -1.00: 0.40 of winning chances, a blunder.
//! assert_eq!(judge(Eval::Cp(120), Eval::Cp(-100), Color::White), Some(Judgement::Blunder));
//! ```

mod games;

pub use games::{AnalysisFiles, AnalysisRun, AnalyzeEvent, analyze_games, game_json};

use std::fmt;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use framework::chess::{Board, Color, Move};
use framework::notation::pgn::PgnGame;
use framework::notation::san::{parse_san, to_san};
use results::{Eval, parse_eval, win_percent, winning_chances};
use runner::{Engine, EngineConfig, EngineError, GoParams};

/// lila's evaluation of the standard start position, in centipawns for White (`Cp.initial`).
pub const INITIAL_CP: i32 = 15;

/// How deep each position is searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalysisLimit {
    /// `go depth N`.
    Depth(u32),
    /// `go nodes N`.
    Nodes(u64),
}

impl AnalysisLimit {
    fn go(self) -> GoParams {
        match self {
            AnalysisLimit::Depth(depth) => GoParams {
                depth: Some(depth),
                ..GoParams::default()
            },
            AnalysisLimit::Nodes(nodes) => GoParams {
                nodes: Some(nodes),
                ..GoParams::default()
            },
        }
    }
}

impl fmt::Display for AnalysisLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisLimit::Depth(depth) => write!(f, "depth {depth}"),
            AnalysisLimit::Nodes(nodes) => write!(f, "{nodes} nodes"),
        }
    }
}

/// What an analysis needs: the engine, the search limit and how long to wait for it.
#[derive(Debug, Clone)]
pub struct AnalyzeOptions {
    /// The UCI engine to start.
    pub engine: EngineConfig,
    /// The limit of every search.
    pub limit: AnalysisLimit,
    /// How long one search may take before the engine is given up as hung.
    pub search_timeout: Duration,
    /// How long the engine may take to start and to answer `isready`.
    pub start_timeout: Duration,
}

impl AnalyzeOptions {
    /// The engine run as `command`, named by its file's stem, searching each position to
    /// `limit`; it may take 10 s to start and a minute per search (set
    /// [`search_timeout`](Self::search_timeout) for another).
    ///
    /// ```
    /// use measure::{AnalysisLimit, AnalyzeOptions};
    /// let options = AnalyzeOptions::new("/usr/games/stockfish", AnalysisLimit::Depth(12));
    /// assert_eq!(options.engine.name, "stockfish");
    /// ```
    pub fn new(command: impl AsRef<Path>, limit: AnalysisLimit) -> AnalyzeOptions {
        let command = command.as_ref();
        let label = command
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| command.display().to_string());
        AnalyzeOptions {
            engine: EngineConfig::new(label, command).external(),
            limit,
            search_timeout: Duration::from_secs(60),
            start_timeout: Duration::from_secs(10),
        }
    }
}

/// The accuracy (0..100) of a move that took the mover's Win% from `before` to `after`
/// (lila `AccuracyPercent.fromWinPercents`: the fitted curve, plus lila's one point of
/// "uncertainty bonus", clamped; a move that does not lose Win% is 100).
///
/// ```
/// use measure::move_accuracy;
/// assert_eq!(move_accuracy(60.0, 65.0), 100.0);
/// // The bonus point lifts tiny drops above 100: clamped.
/// assert_eq!(move_accuracy(60.0, 59.99), 100.0);
/// assert!((move_accuracy(70.0, 50.0) - 41.02).abs() < 0.01);
/// ```
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// How bad a move was, as lichess judges it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// `?!`: lost at least 0.1 of winning chances (5 points of Win%).
    Inaccuracy,
    /// `?`: lost at least 0.2 (10 points of Win%).
    Mistake,
    /// `??`: lost at least 0.3 (15 points of Win%), or walked into / let go of a forced mate.
    Blunder,
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        })
    }
}

/// lila's judgement of a move by `mover` from `prev` to `next` (both White's view):
/// `CpAdvice` when both are centipawns, else `MateAdvice`.
///
/// ```
/// use measure::{Judgement, judge};
/// use results::Eval;
/// use framework::chess::Color;
/// assert_eq!(judge(Eval::Cp(0), Eval::Cp(-50), Color::White), None);
/// // Black lets White mate from an equal position.
/// assert_eq!(judge(Eval::Cp(0), Eval::Mate(4), Color::Black), Some(Judgement::Blunder));
/// // White lets a mate go but stays at +12.00: only an inaccuracy.
/// assert_eq!(judge(Eval::Mate(3), Eval::Cp(1200), Color::White), Some(Judgement::Inaccuracy));
/// ```
pub fn judge(prev: Eval, next: Eval, mover: Color) -> Option<Judgement> {
    let pov = |v: i32| if mover == Color::White { v } else { -v };
    if let (Eval::Cp(a), Eval::Cp(b)) = (prev, next) {
        let drop = pov_drop(
            winning_chances(f64::from(a)),
            winning_chances(f64::from(b)),
            mover,
        );
        return [
            (0.3, Judgement::Blunder),
            (0.2, Judgement::Mistake),
            (0.1, Judgement::Inaccuracy),
        ]
        .into_iter()
        .find(|&(threshold, _)| drop >= threshold)
        .map(|(_, judgement)| judgement);
    }
    let mate = |e: Eval| match e {
        Eval::Mate(m) => Some(pov(m)),
        Eval::Cp(_) => None,
    };
    // lila reads a missing centipawn score (a mate) as 0 here.
    let cp = |e: Eval| match e {
        Eval::Cp(c) => pov(c),
        Eval::Mate(_) => 0,
    };
    let severity = |v: i32| match v {
        v if v > 999 => Judgement::Inaccuracy,
        v if v > 700 => Judgement::Mistake,
        _ => Judgement::Blunder,
    };
    match (mate(prev), mate(next)) {
        // Mate created: the mover is now being mated.
        (None, Some(n)) if n < 0 => Some(severity(-cp(prev))),
        // Mate lost: the mover had a forced mate and no longer has one.
        (Some(p), None) if p > 0 => Some(severity(cp(next))),
        (Some(p), Some(n)) if p > 0 && n < 0 => Some(severity(cp(next))),
        _ => None,
    }
}

/// How much `mover`'s winning chances fell from `before` to `after` (White's view).
fn pov_drop(before: f64, after: f64, mover: Color) -> f64 {
    match mover {
        Color::White => before - after,
        Color::Black => after - before,
    }
}

/// The accuracy of each side over a game (White's, Black's), lila's `gameAccuracy`: the mean
/// of a volatility-weighted mean and a harmonic mean of the move accuracies.
///
/// `first` is the side that made the first move, `start` the evaluation before it and
/// `after` the evaluation after each move (White's view). A side without moves gets `None`.
///
/// ```
/// use measure::game_accuracy;
/// use results::Eval;
/// use framework::chess::Color;
/// // lila's test "white blunders on first move": about 10% and 100%.
/// let [white, black] = game_accuracy(Color::White, Eval::Cp(15), &[Eval::Cp(-900), Eval::Cp(-900)]);
/// assert!((white.unwrap() - 10.0).abs() <= 5.0 && (black.unwrap() - 100.0).abs() <= 1.0);
/// assert_eq!(game_accuracy(Color::White, Eval::Cp(15), &[Eval::Cp(15)])[1], None);
/// ```
pub fn game_accuracy(first: Color, start: Eval, after: &[Eval]) -> [Option<f64>; 2] {
    let wins: Vec<f64> = std::iter::once(start)
        .chain(after.iter().copied())
        .map(win_percent)
        .collect();
    let weights = volatility_weights(&wins, after.len());
    let mut per_side: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, (pair, weight)) in wins.windows(2).zip(weights).enumerate() {
        let white = (i % 2 == 0) == (first == Color::White);
        let (prev, next) = (pair[0], pair[1]);
        let accuracy = if white {
            move_accuracy(prev, next)
        } else {
            move_accuracy(next, prev)
        };
        per_side[usize::from(!white)].push((accuracy, weight));
    }
    per_side.map(|moves| {
        let weighted = weighted_mean(&moves)?;
        let harmonic = harmonic_mean(moves.iter().map(|&(a, _)| a))?;
        Some((weighted + harmonic) / 2.0)
    })
}

/// One weight per move: the standard deviation of Win% over a window around it, clamped to
/// 0.5..12. The window is `moves / 10` positions, 2 to 8; the first moves reuse the first
/// window so that every move has one (lila's `windows`).
fn volatility_weights(wins: &[f64], moves: usize) -> Vec<f64> {
    let size = (moves / 10).clamp(2, 8);
    let first = &wins[..size.min(wins.len())];
    let repeats = size.min(wins.len()).saturating_sub(2);
    let sliding: Vec<&[f64]> = if wins.len() >= size {
        wins.windows(size).collect()
    } else {
        vec![wins]
    };
    std::iter::repeat_n(first, repeats)
        .chain(sliding)
        .map(|window| population_std_dev(window).clamp(0.5, 12.0))
        .collect()
}

fn population_std_dev(values: &[f64]) -> f64 {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n).sqrt()
}

/// scalalib `Maths.weightedMean`: `None` for no values or a zero total weight.
fn weighted_mean(values: &[(f64, f64)]) -> Option<f64> {
    let total: f64 = values.iter().map(|&(_, w)| w).sum();
    (!values.is_empty() && total != 0.0)
        .then(|| values.iter().map(|&(v, w)| v * w).sum::<f64>() / total)
}

/// scalalib `Maths.harmonicMean`, which counts values below 1 as 1.
fn harmonic_mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (count, sum) = values.fold((0usize, 0.0), |(n, s), v| (n + 1, s + 1.0 / v.max(1.0)));
    (count > 0).then(|| count as f64 / sum)
}

/// What the engine said about one position of the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionEval {
    /// The evaluation (White's view); `None` for a checkmate on the board, which lichess
    /// leaves out of every statistic.
    pub eval: Option<Eval>,
    /// The engine's best move there, if the position has legal moves.
    pub best: Option<Move>,
}

/// One move of an analysed game.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveAnalysis {
    /// The move in SAN.
    pub san: String,
    /// Who played it.
    pub mover: Color,
    /// The evaluation after it (White's view); `None` when it gave checkmate.
    pub eval: Option<Eval>,
    /// The engine's choice in the position before, in SAN, when it differs from the move.
    pub best: Option<String>,
    /// Centipawns lost by the mover (capped evaluations, never negative).
    pub cp_loss: Option<i32>,
    /// The move's accuracy, 0..100.
    pub accuracy: Option<f64>,
    /// lichess's judgement, if any.
    pub judgement: Option<Judgement>,
}

/// One side's numbers in one game (or, summed, over several).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SideStats {
    /// Moves that count (a checkmating move does not).
    pub moves: usize,
    /// Total centipawn loss over those moves.
    pub cp_loss: i64,
    /// The game accuracy (lila's `gameAccuracy`); for a summary, the mean over games.
    pub accuracy: Option<f64>,
    /// `?!` moves.
    pub inaccuracies: usize,
    /// `?` moves.
    pub mistakes: usize,
    /// `??` moves.
    pub blunders: usize,
}

impl SideStats {
    /// Average centipawn loss, rounded half up as lila's `AccuracyCP.mean` does.
    ///
    /// ```
    /// use measure::SideStats;
    /// let s = SideStats { moves: 3, cp_loss: 230, ..SideStats::default() };
    /// assert_eq!(s.acpl(), Some(77));
    /// assert_eq!(SideStats::default().acpl(), None);
    /// ```
    pub fn acpl(&self) -> Option<i64> {
        (self.moves > 0).then(|| (self.cp_loss as f64 / self.moves as f64).round() as i64)
    }

    fn count(&mut self, judgement: Judgement) {
        match judgement {
            Judgement::Inaccuracy => self.inaccuracies += 1,
            Judgement::Mistake => self.mistakes += 1,
            Judgement::Blunder => self.blunders += 1,
        }
    }
}

/// A game with its engine analysis.
#[derive(Debug, Clone)]
pub struct GameAnalysis {
    /// Every move, in order.
    pub moves: Vec<MoveAnalysis>,
    /// White's and Black's numbers.
    pub sides: [SideStats; 2],
    /// The game with `[%eval]` (and lichess-style judgement) comments.
    pub annotated: PgnGame,
}

/// Computes the statistics of `game` from the engine's word on each of its positions:
/// `positions[i]` is the position after `i` moves (so there is one more than there are moves).
///
/// # Panics
/// If `positions` does not have one entry per position.
pub fn score_game(game: &PgnGame, positions: &[PositionEval]) -> GameAnalysis {
    assert_eq!(
        positions.len(),
        game.moves.len() + 1,
        "one eval per position"
    );
    let start = start_eval(game, &positions[0]);
    let mut board = game.start.clone();
    let mut before = Some(start);
    let mut moves = Vec::with_capacity(game.moves.len());
    for (i, &mv) in game.moves.iter().enumerate() {
        let mover = board.side_to_move();
        let best = positions[i].best.filter(|&b| b != mv);
        let after = positions[i + 1].eval;
        moves.push(MoveAnalysis {
            san: to_san(&board, mv),
            mover,
            eval: after,
            best: best.map(|b| to_san(&board, b)),
            cp_loss: before.zip(after).map(|(b, a)| cp_loss(b, a, mover)),
            accuracy: before.zip(after).map(|(b, a)| mover_accuracy(b, a, mover)),
            judgement: best
                .and(before.zip(after))
                .and_then(|(b, a)| judge(b, a, mover)),
        });
        board.make_move(mv);
        before = after;
    }
    let counted: Vec<Eval> = moves.iter().filter_map(|m| m.eval).collect();
    let accuracy = game_accuracy(game.start.side_to_move(), start, &counted);
    let sides = [Color::White, Color::Black].map(|color| side_stats(&moves, color));
    let sides = [0, 1].map(|i| SideStats {
        accuracy: accuracy[i],
        ..sides[i].clone()
    });
    let annotated = annotate(game, start, &moves);
    GameAnalysis {
        moves,
        sides,
        annotated,
    }
}

/// The evaluation before the first move: lila's constant for the standard start, the
/// engine's for any other.
fn start_eval(game: &PgnGame, first: &PositionEval) -> Eval {
    match first.eval {
        Some(eval) if game.start.fen() != Board::startpos().fen() => eval,
        _ => Eval::Cp(INITIAL_CP),
    }
}

/// lila `AccuracyCP.diffsList`: the mover's loss in capped centipawns, at least 0.
fn cp_loss(before: Eval, after: Eval, mover: Color) -> i32 {
    let diff = after.ceiled_cp() - before.ceiled_cp();
    let loss = if mover == Color::White { -diff } else { diff };
    loss.max(0)
}

fn mover_accuracy(before: Eval, after: Eval, mover: Color) -> f64 {
    let (b, a) = (win_percent(before), win_percent(after));
    match mover {
        Color::White => move_accuracy(b, a),
        Color::Black => move_accuracy(100.0 - b, 100.0 - a),
    }
}

fn side_stats(moves: &[MoveAnalysis], color: Color) -> SideStats {
    let mut stats = SideStats::default();
    for m in moves.iter().filter(|m| m.mover == color) {
        if let Some(loss) = m.cp_loss {
            stats.moves += 1;
            stats.cp_loss += i64::from(loss);
        }
        if let Some(judgement) = m.judgement {
            stats.count(judgement);
        }
    }
    stats
}

/// The game with each move's comment starting with its `[%eval]` and, for a judged move,
/// lichess's wording (`Mistake. Nf3 was best.`). Older analysis text is replaced; other
/// comment text such as `[%clk]` is kept. A game from a `FEN` start also gets the start
/// position's evaluation as its opening comment.
fn annotate(game: &PgnGame, start: Eval, moves: &[MoveAnalysis]) -> PgnGame {
    let mut annotated = game.clone();
    if game.start.fen() != Board::startpos().fen() {
        annotated.intro = join_comment(vec![start.pgn_comment()], game.intro.as_deref());
    }
    for (slot, m) in annotated.comments.iter_mut().zip(moves) {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(m.eval.map(Eval::pgn_comment));
        if let Some(judgement) = m.judgement {
            let best = m.best.as_deref().unwrap_or("?");
            parts.push(format!("{judgement}. {best} was best."));
        }
        *slot = join_comment(parts, slot.as_deref());
    }
    annotated
}

fn join_comment(mut parts: Vec<String>, old: Option<&str>) -> Option<String> {
    let kept = old.map(strip_analysis).unwrap_or_default();
    if !kept.is_empty() {
        parts.push(kept);
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// `comment` without the text [`annotate`] writes: `[%eval ...]` commands and
/// `Mistake. Nf3 was best.` sentences.
fn strip_analysis(comment: &str) -> String {
    let mut no_evals = String::with_capacity(comment.len());
    let mut rest = comment;
    while let Some(at) = rest.find("[%eval") {
        no_evals.push_str(&rest[..at]);
        no_evals.push(' ');
        rest = rest[at..].find(']').map_or("", |end| &rest[at + end + 1..]);
    }
    no_evals.push_str(rest);
    let words: Vec<&str> = no_evals.split_whitespace().collect();
    let mut kept = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        if judgement_sentence(&words[i..]).is_some() {
            i += 4;
        } else {
            kept.push(words[i]);
            i += 1;
        }
    }
    kept.join(" ")
}

/// The judgement and best move of a `Mistake. Nf3 was best.` sentence starting `words`.
fn judgement_sentence<'a>(words: &[&'a str]) -> Option<(Judgement, &'a str)> {
    let [word, best, "was", "best."] = words.get(..4)? else {
        return None;
    };
    let judgement = match *word {
        "Inaccuracy." => Judgement::Inaccuracy,
        "Mistake." => Judgement::Mistake,
        "Blunder." => Judgement::Blunder,
        _ => return None,
    };
    Some((judgement, best))
}

/// Re-reads the analysis of a game [`score_game`] annotated (from its comments), so that a
/// resumed run's summary covers the games of the earlier run. `None` when a move lacks
/// its `[%eval]`.
pub fn rescore_annotated(annotated: &PgnGame) -> Option<GameAnalysis> {
    let standard = annotated.start.fen() == Board::startpos().fen();
    let start = match annotated.intro.as_deref().and_then(parse_eval) {
        Some(eval) => Some(eval),
        None if standard => Some(Eval::Cp(INITIAL_CP)),
        None => return None,
    };
    let mut positions = vec![PositionEval {
        eval: start,
        best: None,
    }];
    let mut board = annotated.start.clone();
    for (&mv, comment) in annotated.moves.iter().zip(&annotated.comments) {
        let comment = comment.as_deref().unwrap_or("");
        // Only a judged move names the engine's choice; for the others it does not matter.
        let words: Vec<&str> = comment.split_whitespace().collect();
        let best = (0..words.len())
            .find_map(|i| judgement_sentence(&words[i..]))
            .and_then(|(_, san)| parse_san(&board, san).ok());
        positions.last_mut().expect("one per position").best = best;
        board.make_move(mv);
        let eval = match parse_eval(comment) {
            Some(eval) => Some(eval),
            None if board.is_checkmate() => None,
            None => return None,
        };
        positions.push(PositionEval { eval, best: None });
    }
    Some(score_game(annotated, &positions))
}

/// Why a game could not be analysed.
#[derive(Debug)]
pub enum AnalyzeError {
    /// The engine failed (could not start, died, hung) or the search was interrupted.
    Engine(EngineError),
    /// The engine answered without a usable score.
    NoScore {
        /// The engine's name.
        engine: String,
        /// The position's half-move number in the game.
        ply: usize,
        /// The position.
        fen: String,
    },
    /// The engine's best move is not a legal move of the position.
    IllegalBestMove {
        /// The engine's name.
        engine: String,
        /// What it said (at most 40 characters of it).
        bestmove: String,
        /// The position.
        fen: String,
    },
}

impl fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyzeError::Engine(err) => f.write_str(&err.explained()),
            AnalyzeError::NoScore { engine, ply, fen } => write!(
                f,
                "engine `{engine}` gave no usable score for the position after {ply} half-moves ({fen})"
            ),
            AnalyzeError::IllegalBestMove {
                engine,
                bestmove,
                fen,
            } => write!(
                f,
                "engine `{engine}` answered `bestmove {bestmove}`, not a legal move in {fen}"
            ),
        }
    }
}

// The engine error's text is already this error's text: no `source` to print twice.
impl std::error::Error for AnalyzeError {}

impl From<EngineError> for AnalyzeError {
    fn from(err: EngineError) -> AnalyzeError {
        AnalyzeError::Engine(err)
    }
}

impl AnalyzeError {
    /// `true` when the user stopped the analysis (Ctrl-C).
    pub fn is_interrupted(&self) -> bool {
        matches!(self, AnalyzeError::Engine(EngineError::Interrupted { .. }))
    }
}

/// A UCI engine ready to analyse games one after another; restarted if it dies.
#[derive(Debug)]
pub struct Analyzer {
    options: AnalyzeOptions,
    engine: Option<Engine>,
}

impl Analyzer {
    /// Starts the engine.
    pub fn start(options: AnalyzeOptions) -> Result<Analyzer, AnalyzeError> {
        let engine = Engine::start(&options.engine, options.start_timeout)?;
        Ok(Analyzer {
            options,
            engine: Some(engine),
        })
    }

    /// The engine's `id name`, else the configured name.
    pub fn engine_name(&self) -> &str {
        self.engine
            .as_ref()
            .and_then(Engine::id_name)
            .unwrap_or(&self.options.engine.name)
    }

    /// Analyses one game: every position searched, then [`score_game`]. `on_position` is
    /// called after each position (for a progress bar); `stop` abandons the search in
    /// progress soon after it is set.
    pub fn analyze(
        &mut self,
        game: &PgnGame,
        stop: &AtomicBool,
        mut on_position: impl FnMut(),
    ) -> Result<GameAnalysis, AnalyzeError> {
        let timeout = self.options.start_timeout;
        if let Err(err) = self.ready_engine()?.new_game(timeout) {
            self.drop_if_dead();
            return Err(err.into());
        }
        let mut board = game.start.clone();
        let mut position = position_command(&game.start);
        let mut evals = Vec::with_capacity(game.moves.len() + 1);
        for ply in 0..=game.moves.len() {
            if ply > 0 {
                let mv = game.moves[ply - 1];
                board.make_move(mv);
                push_move(&mut position, ply == 1, mv);
            }
            let searched = self.evaluate(&board, &position, ply, stop);
            if searched.is_err() {
                self.drop_if_dead();
            }
            evals.push(searched?);
            on_position();
        }
        Ok(score_game(game, &evals))
    }

    /// Stops the engine.
    pub fn quit(mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit(Duration::from_secs(1));
        }
    }

    fn ready_engine(&mut self) -> Result<&mut Engine, AnalyzeError> {
        if !self.engine.as_mut().is_some_and(Engine::is_alive) {
            self.engine = Some(Engine::start(
                &self.options.engine,
                self.options.start_timeout,
            )?);
        }
        Ok(self.engine.as_mut().expect("engine just started"))
    }

    /// An engine that failed mid-game may be in any state: the next game gets a new one.
    fn drop_if_dead(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.kill();
        }
    }

    fn evaluate(
        &mut self,
        board: &Board,
        position: &str,
        ply: usize,
        stop: &AtomicBool,
    ) -> Result<PositionEval, AnalyzeError> {
        if !board.has_legal_moves() {
            // No search: mate leaves the statistics, stalemate is a draw.
            let eval = (!board.is_checkmate()).then_some(Eval::Cp(0));
            return Ok(PositionEval { eval, best: None });
        }
        let engine = self.engine.as_mut().expect("engine started");
        let go = self.options.limit.go();
        let answer =
            engine.search_until(Some(position), &go, self.options.search_timeout, Some(stop))?;
        let engine_name = engine.id_name().unwrap_or(engine.name()).to_string();
        let eval = answer
            .info
            .score
            .and_then(|score| Eval::from_engine(score, board.side_to_move()))
            .ok_or_else(|| AnalyzeError::NoScore {
                engine: engine_name.clone(),
                ply,
                fen: board.fen(),
            })?;
        let best =
            board
                .parse_uci(&answer.bestmove)
                .map_err(|_| AnalyzeError::IllegalBestMove {
                    engine: engine_name,
                    bestmove: answer.bestmove.chars().take(40).collect(),
                    fen: board.fen(),
                })?;
        Ok(PositionEval {
            eval: Some(eval),
            best: Some(best),
        })
    }
}

/// `position startpos` or `position fen ...` for a game's start.
fn position_command(start: &Board) -> String {
    let fen = start.fen();
    if fen == Board::startpos().fen() {
        "position startpos".to_string()
    } else {
        format!("position fen {fen}")
    }
}

fn push_move(position: &mut String, first: bool, mv: Move) {
    if first {
        position.push_str(" moves");
    }
    position.push(' ');
    position.push_str(&mv.to_string());
}

/// One player's totals over several games.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlayerSummary {
    /// The name from the `White` / `Black` tags.
    pub name: String,
    /// Games analysed.
    pub games: usize,
    /// Moves, centipawn loss and judgements summed over the games; accuracy is the mean of
    /// the game accuracies.
    pub stats: SideStats,
}

/// Totals per player (by the names in the `White` and `Black` tags), in order of first
/// appearance.
///
/// ```
/// use measure::{summarize, SideStats};
/// let a = SideStats { moves: 10, cp_loss: 200, accuracy: Some(80.0), ..SideStats::default() };
/// let b = SideStats { moves: 10, cp_loss: 600, accuracy: Some(60.0), blunders: 1, ..SideStats::default() };
/// let games = [(["ann", "bob"], [a.clone(), b.clone()]), (["bob", "ann"], [b, a])];
/// let totals = summarize(games.iter().map(|(n, s)| (n.map(String::from), s.clone())));
/// assert_eq!(totals[0].name, "ann");
/// assert_eq!((totals[0].games, totals[0].stats.acpl(), totals[0].stats.accuracy), (2, Some(20), Some(80.0)));
/// assert_eq!(totals[1].stats.blunders, 2);
/// ```
pub fn summarize(
    games: impl IntoIterator<Item = ([String; 2], [SideStats; 2])>,
) -> Vec<PlayerSummary> {
    let mut players: Vec<(PlayerSummary, Vec<f64>)> = Vec::new();
    for (names, sides) in games {
        for (name, side) in names.into_iter().zip(sides) {
            let at = match players.iter().position(|(p, _)| p.name == name) {
                Some(at) => at,
                None => {
                    let summary = PlayerSummary {
                        name,
                        ..PlayerSummary::default()
                    };
                    players.push((summary, Vec::new()));
                    players.len() - 1
                }
            };
            let (player, accuracies) = &mut players[at];
            player.games += 1;
            let total = &mut player.stats;
            total.moves += side.moves;
            total.cp_loss += side.cp_loss;
            total.inaccuracies += side.inaccuracies;
            total.mistakes += side.mistakes;
            total.blunders += side.blunders;
            accuracies.extend(side.accuracy);
        }
    }
    players
        .into_iter()
        .map(|(mut player, accuracies)| {
            player.stats.accuracy = (!accuracies.is_empty())
                .then(|| accuracies.iter().sum::<f64>() / accuracies.len() as f64);
            player
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use results::WIN_SLOPE;

    use super::*;

    /// lila's `AccuracyPercentTest` (`modules/analyse/src/test`), same games and tolerances:
    /// evaluations after each move in centipawns for White, the side that moved first, and
    /// the expected (White, Black) accuracies with their tolerances.
    #[test]
    fn game_accuracy_agrees_with_lilas_own_tests() {
        let repeat = |pair: [i32; 2], n: usize| pair.repeat(n);
        // (evaluations, first mover, White's (accuracy, tolerance), Black's).
        type Case = (Vec<i32>, Color, (f64, f64), (f64, f64));
        let cases: Vec<Case> = vec![
            (vec![15, 15], Color::White, (100.0, 1.0), (100.0, 1.0)),
            (vec![-900, -900], Color::White, (10.0, 5.0), (100.0, 1.0)),
            (vec![15, 900], Color::White, (100.0, 1.0), (10.0, 5.0)),
            (vec![-900, 0], Color::White, (10.0, 5.0), (10.0, 5.0)),
            (vec![15; 20], Color::White, (100.0, 1.0), (100.0, 1.0)),
            (
                [vec![15; 20], vec![-900]].concat(),
                Color::White,
                (50.0, 5.0),
                (100.0, 1.0),
            ),
            (
                [vec![15; 21], vec![900]].concat(),
                Color::White,
                (100.0, 1.0),
                (50.0, 5.0),
            ),
            (repeat([-50, 15], 5), Color::White, (76.0, 8.0), (76.0, 8.0)),
            (
                repeat([-50, 15], 50),
                Color::White,
                (76.0, 8.0),
                (76.0, 8.0),
            ),
            (
                repeat([-135, 15], 50),
                Color::White,
                (54.0, 8.0),
                (54.0, 8.0),
            ),
            (
                repeat([-435, 15], 50),
                Color::White,
                (20.0, 8.0),
                (20.0, 8.0),
            ),
            (vec![15, 15], Color::Black, (100.0, 1.0), (100.0, 1.0)),
            (vec![900, 900], Color::Black, (100.0, 1.0), (10.0, 5.0)),
            (vec![15, -900], Color::Black, (10.0, 5.0), (100.0, 1.0)),
            (vec![900, 0], Color::Black, (10.0, 5.0), (10.0, 5.0)),
        ];
        for (cps, first, (white, white_tol), (black, black_tol)) in cases {
            let evals: Vec<Eval> = cps.iter().map(|&cp| Eval::Cp(cp)).collect();
            let [w, b] = game_accuracy(first, Eval::Cp(INITIAL_CP), &evals);
            let (w, b) = (w.unwrap(), b.unwrap());
            assert!(
                (w - white).abs() <= white_tol,
                "{cps:?} {first:?}: White {w}"
            );
            assert!(
                (b - black).abs() <= black_tol,
                "{cps:?} {first:?}: Black {b}"
            );
        }
        for first in [Color::White, Color::Black] {
            assert_eq!(game_accuracy(first, Eval::Cp(15), &[]), [None, None]);
            let one = game_accuracy(first, Eval::Cp(15), &[Eval::Cp(15)]);
            assert_eq!(one.iter().filter(|a| a.is_none()).count(), 1);
        }
    }

    #[test]
    fn judgement_thresholds_are_lilas_winning_chance_drops() {
        // Just below and at 0.1 / 0.2 / 0.3 of winning chances, from an equal position.
        let cp_for_drop = |drop: f64| {
            // wc(cp) = -drop  <=>  cp = ln((1 - drop) / (1 + drop)) / 0.00368208
            ((1.0 - drop) / (1.0 + drop)).ln() / WIN_SLOPE
        };
        for (drop, want) in [
            (0.1, Some(Judgement::Inaccuracy)),
            (0.2, Some(Judgement::Mistake)),
            (0.3, Some(Judgement::Blunder)),
        ] {
            let at = cp_for_drop(drop).floor() as i32; // a hair past the threshold
            let short = cp_for_drop(drop - 0.002).ceil() as i32;
            assert_eq!(
                judge(Eval::Cp(0), Eval::Cp(at), Color::White),
                want,
                "{drop}"
            );
            assert_eq!(
                judge(Eval::Cp(0), Eval::Cp(-at), Color::Black),
                want,
                "{drop}"
            );
            assert_ne!(
                judge(Eval::Cp(0), Eval::Cp(short), Color::White),
                want,
                "{drop}"
            );
        }
        // Advice uses uncapped centipawns: +30.00 to +12.00 is no drop worth naming.
        assert_eq!(judge(Eval::Cp(3000), Eval::Cp(1200), Color::White), None);
    }

    #[test]
    fn mate_advice_follows_lila() {
        use Judgement::*;
        // Mate created against the mover, by how bad the position already was.
        assert_eq!(
            judge(Eval::Cp(-1000), Eval::Mate(-5), Color::White),
            Some(Inaccuracy)
        );
        assert_eq!(
            judge(Eval::Cp(-800), Eval::Mate(-5), Color::White),
            Some(Mistake)
        );
        assert_eq!(
            judge(Eval::Cp(-700), Eval::Mate(-5), Color::White),
            Some(Blunder)
        );
        assert_eq!(
            judge(Eval::Cp(800), Eval::Mate(5), Color::Black),
            Some(Mistake)
        );
        // Mate lost, by what is left.
        assert_eq!(
            judge(Eval::Mate(2), Eval::Cp(1000), Color::White),
            Some(Inaccuracy)
        );
        assert_eq!(
            judge(Eval::Mate(2), Eval::Cp(701), Color::White),
            Some(Mistake)
        );
        assert_eq!(
            judge(Eval::Mate(2), Eval::Cp(700), Color::White),
            Some(Blunder)
        );
        assert_eq!(
            judge(Eval::Mate(2), Eval::Mate(-3), Color::White),
            Some(Blunder)
        );
        assert_eq!(
            judge(Eval::Mate(-2), Eval::Cp(-701), Color::Black),
            Some(Mistake)
        );
        // A slower mate, escaping a mate, or finding one: no judgement.
        assert_eq!(judge(Eval::Mate(2), Eval::Mate(6), Color::White), None);
        assert_eq!(judge(Eval::Mate(-2), Eval::Cp(-300), Color::White), None);
        assert_eq!(judge(Eval::Cp(0), Eval::Mate(3), Color::White), None);
    }

    #[test]
    fn analysis_comments_are_replaced_and_other_text_kept() {
        let text = "[%eval 0.30] Mistake. Nf3 was best. [%clk 0:01:00] nice";
        assert_eq!(strip_analysis(text), "[%clk 0:01:00] nice");
        assert_eq!(strip_analysis("[%eval 0.3"), "");
        assert_eq!(strip_analysis("Mistake. was best."), "Mistake. was best.");
    }

    #[test]
    fn a_reread_annotation_scores_like_the_original() {
        let game = &framework::notation::pgn::read_games(
            "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n1. e4 Kd7 2. Kd2 Kd6 *",
        )
        .games[0];
        let mut board = game.start.clone();
        let evals = [90, 150, -20, 400, 1500];
        let mut positions = Vec::new();
        for (i, cp) in evals.into_iter().enumerate() {
            let played = game.moves.get(i).copied();
            let best = board
                .legal_moves_vec()
                .into_iter()
                .find(|&m| Some(m) != played)
                .unwrap();
            positions.push(PositionEval {
                eval: Some(Eval::Cp(cp)),
                best: Some(best),
            });
            if let Some(&mv) = game.moves.get(i) {
                board.make_move(mv);
            }
        }
        let original = score_game(game, &positions);
        assert!(original.annotated.intro.as_deref() == Some("[%eval 0.90]"));
        assert_eq!(
            original.sides[1].blunders, 1,
            "2... Kd6 drops from +4.00 to +15.00"
        );
        let reread = rescore_annotated(&original.annotated).expect("every move has its eval");
        assert_eq!(reread.sides, original.sides);
        assert_eq!(reread.annotated, original.annotated);
    }
}
