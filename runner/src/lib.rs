//! The GUI-less match runner: UCI engine processes, clocks, games refereed by the
//! framework's [`Board`](framework::chess::Board), opening suites, schedules and statistics.
//!
//! - [`engine`]: one UCI engine process (handshake, search with a deadline, faults).
//! - [`clock`]: time controls and clocks.
//! - [`game`]: one game, every ending named by a [`Termination`]; [`observer`]: following
//!   it move by move.
//! - [`adjudication`]: "cannot possibly mate" for flag falls, score adjudication.
//! - [`openings`]: EPD/FEN and PGN opening suites.
//! - [`schedule`](mod@schedule) and [`tournament`]: who plays whom, on how many threads.
//! - [`process`]: what an engine process starts with (environment, descriptors).
//! - [`host_detail`]: no host paths or names in what a game record keeps of an engine.
//! - [`text`]: engine-provided text made one printable, capped line.
//! - [`search_stats`]: each player's depth, speed, time per move and PV mismatches.
//! - [`stats`]: W/D/L, pentanomial, Elo, normalized Elo, LOS, SPRT.
//! - [`GameWatch`]: the seam to whoever shows games live while a loop plays them.
//!
//! ```
//! use runner::{Stats, pairs_for_games};
//! assert_eq!(pairs_for_games(99), 50);
//! let s = Stats { wins: 60, draws: 20, losses: 20, ..Stats::default() };
//! assert!(s.elo_wdl().unwrap().elo > 0.0);
//! ```

pub mod adjudication;
pub mod clock;
pub mod engine;
pub mod game;
pub mod host_detail;
mod lines;
pub mod observer;
pub mod openings;
pub mod pool;
pub mod process;
pub mod pv_check;
pub mod schedule;
pub mod search_stats;
pub mod stats;
pub mod termination;
pub mod text;
pub mod tournament;
mod watch;

pub use adjudication::{
    AdjudicationRules, Adjudicator, DrawRule, ResignRule, Ruling, can_possibly_mate,
};
pub use clock::{Clock, TimeControl, TimeControlError};
pub use engine::{
    Engine, EngineConfig, EngineError, ExitInfo, GoParams, MAX_LINE_BYTES, STDERR_TAIL_BYTES,
    STDERR_TAIL_LINES, Score, SearchInfo, SearchResult,
};
pub use game::{
    Fault, GameRecord, GameSettings, MoveRequest, NoMove, PlayedMove, Player,
    TERMINATION_DETAILS_TAG, Termination, ask_move, engine_fault, play_game, play_game_observed,
};
pub use host_detail::HostDetail;
pub use observer::{MoveObserver, MoveUpdate};
pub use openings::{
    Opening, OpeningError, SplitMix64, load_openings, parse_epd, parse_pgn_openings, shuffle,
};
pub use pool::{Pairing, Pool, Watch};
pub use process::{EngineEnv, KIT_ENV_PREFIX, isolate};
pub use pv_check::PvCheck;
pub use schedule::{Format, GameJob, encounters, pairs_for_games, schedule};
pub use search_stats::SearchStats;
pub use stats::{EloEstimate, Sprt, SprtState, Stats, Z95, score_to_elo};
pub use termination::TerminationParseError;
pub use tournament::{
    GameEvent, Standings, StopReason, TournamentConfig, TournamentResult, game_seed,
    run_tournament, run_tournament_watched,
};
pub use watch::{GameWatch, LiveEnd, LiveStart};
