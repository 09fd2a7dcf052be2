//! Measuring bots: the tools that say whether a change made a bot stronger or
//! faster.
//!
//! - Matches ([`run_match_watched`], [`MatchOptions`], [`MatchEvent`]): `challenge
//!   match`, its players, output and summary ([`summary_text`]), each player's search
//!   statistics.
//! - Engines on the command line ([`EngineSpec`]): the `--engine KEY=VALUE` words, and
//!   the values several commands read ([`time_control`], [`seconds`],
//!   [`sprt_from_words`]).
//! - Known opponents ([`StockfishLevel`], [`find_stockfish`]): Stockfish at lichess's AI
//!   levels (`stockfish level=N`).
//! - Benches ([`run_bench`], [`Searcher`], [`BenchLimit`]): `challenge bench`, fixed
//!   positions to a fixed limit, EPD test suites ([`read_epd_file`], [`score_report`]),
//!   CSV and JSON ([`write_csv`], [`write_json`]).
//! - Analysis ([`Analyzer`], [`summarize`], [`analyze_games`]): engine analysis of played
//!   games (accuracy, centipawn loss, judgements), as lichess computes them, resumable,
//!   each game written as soon as it is done.
//! - Tuning ([`tune`], [`TuneRequest`], [`TuneEvent`]): `challenge tune`, a bot's
//!   `// tune` constants tuned by SPSA from games.
//! - Sweeps ([`Sweep`], [`SweepEvent`]): a grid of bot variants × suites, its results
//!   file and its plots.
//! - The C# field ([`make_field`], [`rate`], [`round_robin`], [`PublishedList`]): the C#
//!   challenge's entries, ported by a [`Porter`] the caller passes in, built and checked
//!   into a field; a bot rated on the published scale by a gauntlet against them; a round
//!   robin of entries checked against the published table.
//!
//! The library never prints: each tool reports through the caller's observer as typed
//! events ([`MatchEvent`], [`TuneEvent`], [`SweepEvent`]), and errors are returned.

mod analyze;
mod bench;
mod engine_spec;
mod field;
mod match_summary;
mod matches;
mod opponents;
mod search_summary;
mod sweep;
mod tune;
mod words;

pub use analyze::{
    AnalysisFiles, AnalysisLimit, AnalysisRun, AnalyzeError, AnalyzeEvent, AnalyzeOptions,
    Analyzer, GameAnalysis, Judgement, PlayerSummary, SideStats, analyze_games, game_accuracy,
    game_json, judge, move_accuracy, rescore_annotated, summarize,
};
pub use bench::depths::DepthRow;
pub use bench::epd::{EpdRecord, read_epd, read_epd_file};
pub use bench::export::{CSV_COLUMNS, run_out, write_csv, write_json};
pub use bench::sequence::games as record_games;
pub use bench::suite::{SuiteReport, score as score_record, score_report};
pub use bench::{
    BENCH_EPD, BenchLimit, BenchReport, BenchRow, Mode, Searched, Searcher, bench_positions,
    run_bench,
};
pub use engine_spec::{EngineLimit, EngineSpec, Program, check_uci_option};
pub use field::game_log::{GameLog, LoggedGame, Side};
pub use field::gauntlet::{
    MIN_GAMES, Placement, RateEvent, RateOptions, RateOutcome, check_options as check_rate_options,
    default_state as default_rate_state, rate,
};
pub use field::make::{FieldEvent, FieldOptions, PortFailure, Porter, make_field};
pub use field::manifest::{
    Field, FieldEntry, FieldSummary, PORT_MEMORY_BYTES, Step, StepOutcome, csharp_clock,
    faster_than,
};
pub use field::published::{
    EntryMeta, MatchedBy, PublishedList, PublishedRow, RowMatch, match_entries, mend_mojibake,
    read_metadata, unmatched_rows,
};
pub use field::reproduce::{
    ReproducedRow, RoundRobinEvent, RoundRobinOptions, RoundRobinOutcome, round_robin, spearman,
};
pub use match_summary::{describe_tcs, elo_text, summary_text};
pub use matches::{
    DEFAULT_PLAYERS, MatchEvent, MatchOptions, OpeningChoice, bot_player, openings, run_match,
    run_match_watched, tournament, unique_names,
};
pub use opponents::{StockfishLevel, find_stockfish};
pub use sweep::run::{MAX_JOBS, Sweep, SweepEvent, SweepOptions, SweepOutcome};
pub use tune::state::{MAX_CONCURRENCY, MAX_ITERATIONS, MAX_PAIRS, TuneLimit};
pub use tune::{DEFAULT_MAX_FAULTY, TuneEvent, TuneOutcome, TuneRequest, run as tune};
pub use words::{
    MAX_SECONDS, check_name_length, key_values, seconds, sprt_from_words, time_control,
};
