//! The GUI-less match runner: UCI engine processes, clocks, games refereed by the
//! framework's [`Board`](framework::chess::Board), opening suites, schedules and statistics.
//!
//! Every item is at the crate's root (`runner::Engine`, `runner::play_game`): the modules
//! are private, so each item has one path. The parts:
//!
//! - one UCI engine process: [`Engine`] (handshake, search with a deadline, faults), what
//!   it starts with ([`isolate`], [`EngineEnv`]), no host paths in what a record keeps
//!   ([`HostDetail`]), engine text made one printable, capped line ([`one_line`]);
//! - time controls and clocks: [`TimeControl`], [`Clock`];
//! - one game: [`play_game`], each move asked for by [`ask_move`], every ending named by a
//!   [`Termination`]; following it move by move: [`MoveObserver`];
//! - adjudication: [`can_possibly_mate`] for flag falls, score rules ([`Adjudicator`]);
//! - opening suites: [`load_openings`] (EPD/FEN and PGN);
//! - who plays whom and on how many threads: [`schedule`](fn@schedule), [`Pool`],
//!   [`run_tournament`];
//! - statistics: [`Stats`] (W/D/L, pentanomial, Elo, normalized Elo, LOS), [`Sprt`],
//!   each player's search figures ([`SearchStats`]);
//! - [`GameWatch`]: the seam to whoever shows games live while a loop plays them.
//!
//! ```
//! use runner::{Stats, pairs_for_games};
//! assert_eq!(pairs_for_games(99), 50);
//! let s = Stats { wins: 60, draws: 20, losses: 20, ..Stats::default() };
//! assert!(s.elo_wdl().unwrap().elo > 0.0);
//! ```

mod adjudication;
mod clock;
mod engine;
mod game;
mod host_detail;
mod lines;
mod observer;
mod openings;
mod pool;
mod process;
mod pv_check;
mod schedule;
mod search_stats;
mod stats;
mod termination;
mod text;
mod tournament;
mod watch;

pub use adjudication::{
    AdjudicationRules, Adjudicator, DrawRule, ResignRule, Ruling, can_possibly_mate,
};
pub use clock::{Clock, MAX_SECONDS, TimeControl, TimeControlError, parse_seconds, seconds};
pub use engine::{
    Engine, EngineConfig, EngineError, ExitInfo, GoParams, MAX_LINE_BYTES, MAX_PV_MOVES,
    STDERR_TAIL_BYTES, STDERR_TAIL_LINES, Score, SearchInfo, SearchResult, memory_text,
    parse_bestmove,
};
pub use game::{
    Fault, FaultClock, GameRecord, GameSettings, MoveRequest, NoMove, PlayedMove, Player,
    TERMINATION_DETAILS_TAG, Termination, ask_move, engine_fault, game_plies, play_game,
    play_game_observed,
};
pub use host_detail::HostDetail;
pub use observer::{MoveObserver, MoveUpdate};
pub use openings::{
    Opening, OpeningError, SplitMix64, load_openings, parse_epd, parse_pgn_openings, shuffle,
};
pub use pool::{ChooseObserver, Pairing, Pool};
pub use process::{EngineEnv, KIT_ENV_PREFIX, NEUTRAL_NAME, isolate};
pub use pv_check::PvCheck;
pub use schedule::{Format, GameJob, encounters, pairs_for_games, schedule};
pub use search_stats::SearchStats;
pub use stats::{EloEstimate, Sprt, SprtState, Stats, Z95, score_to_elo};
pub use termination::TerminationParseError;
pub use text::{
    MAX_DETAIL_CHARS, MAX_MOVE_CHARS, MAX_NAME_CHARS, MAX_STDERR_LINE_CHARS, is_one_line, one_line,
};
pub use tournament::{
    GameEvent, Standings, StopReason, TournamentConfig, TournamentResult, game_seed,
    run_tournament, run_tournament_watched,
};
pub use watch::{GameWatch, LiveEnd, LiveStart};
