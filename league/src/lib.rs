//! Hosting a challenge: the submission check, tournaments that survive being killed at
//! any moment (round-robin and Swiss), the gate a server pauses them through, workers that
//! play a PostgreSQL store's tournament from any machine, and the live view of a game in
//! progress that the server and the workers share.
//!
//! - [`submit`] / [`submit_to`]: the submission check (rules, token limit, build, smoke
//!   test) and the store's new version; a refusal is a [`Refusal`], typed by its cause.
//! - [`schedule_tournament`], [`run`], [`run_gated`]: `challenge run`, resumable; what it
//!   does goes to the caller's observer as [`TournamentEvent`]s, what stops it is a
//!   [`TournamentError`].
//! - [`Organiser`]: the step that moves a tournament on (rounds, the finish), called by
//!   every organiser process.
//! - [`Gate`]: what a run asks before it starts games (the server's pause).
//! - [`pair_round`]: pairing a Swiss round.
//! - [`work`]: `challenge worker`: claim, build, play, record on a PostgreSQL store,
//!   reporting through [`WorkerEvent`]s.
//! - [`GameView`] and [`Follow`]: a game's live state, kept move by move.

mod gate;
mod live_view;
mod organiser;
mod refusal;
mod sources;
mod submit;
mod swiss;
mod tournament;
mod worker;

pub use gate::{Closed, Gate, Open};
pub use live_view::{EngineView, Follow, GameView};
pub use organiser::{Organiser, Progress};
pub use refusal::{Refusal, SmokeFailure, SmokeProblem};
pub use submit::{
    SMOKE_POSITIONS, Submission, SubmitError, check_name, read_bot, submit, submit_to,
};
pub use swiss::{SwissPlayer, pair_round};
pub use tournament::{
    RunOptions, TournamentError, TournamentEvent, run, run_gated, schedule_tournament,
};
pub use worker::{START_A_WORKER, WorkerEvent, WorkerOptions, host_name, local_work_dir, work};
