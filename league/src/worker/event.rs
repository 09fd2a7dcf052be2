//! What a worker reports while it plays: [`WorkerEvent`].

use std::error::Error;
use std::fmt;

use runner::GameRecord;
use store::{GameId, SlotId, TournamentId};

use crate::tournament::{TournamentError, TournamentEvent};
use bot_build::BuildEvent;

/// What `challenge worker` (and `challenge run --store`) reports, from any of its game
/// threads, to the observer its caller passes. Its `Display` is the line a person reads.
#[derive(Debug)]
pub enum WorkerEvent<'a> {
    /// A game was claimed and is being played.
    Playing {
        /// The worker.
        worker: &'a str,
        /// The game's slot.
        slot: SlotId,
        /// Its tournament.
        tournament: TournamentId,
        /// White's player name.
        white: String,
        /// Black's player name.
        black: String,
    },
    /// A game was played and stored.
    Stored {
        /// The worker.
        worker: &'a str,
        /// The stored game.
        game: GameId,
        /// Its slot.
        slot: SlotId,
        /// The game.
        record: &'a GameRecord,
    },
    /// A game was played but its result refused: its lease had run out and another worker
    /// claimed it, whose game counts.
    Refused {
        /// The worker.
        worker: &'a str,
        /// The store's refusal.
        error: TournamentError,
    },
    /// The worker could not report in; it goes on playing.
    CannotReportIn {
        /// The store.
        location: String,
        /// Why.
        error: TournamentError,
    },
    /// A game thread lost the store and reconnects, waiting longer after each failure.
    LostStore {
        /// The worker.
        worker: &'a str,
        /// Why.
        error: TournamentError,
    },
    /// A reconnection failed; the thread tries again.
    StillUnreachable {
        /// The worker.
        worker: &'a str,
        /// Why.
        error: TournamentError,
    },
    /// A game thread is back on the store.
    Reconnected {
        /// The worker.
        worker: &'a str,
    },
    /// Nothing is left to claim, and this worker's role may not move the tournament on
    /// (pair a round, finish it): it waits for an organiser process. Said once per
    /// tournament.
    WaitingForOrganiser {
        /// The worker.
        worker: &'a str,
        /// The tournament it waits on.
        tournament: TournamentId,
    },
    /// The organiser paused the tournament (the stored switch): the worker finished the
    /// game it held and claims nothing until it is resumed.
    Paused {
        /// The worker.
        worker: &'a str,
    },
    /// The organiser resumed the tournament: the worker claims again.
    Resumed {
        /// The worker.
        worker: &'a str,
    },
    /// A game's live snapshot could not be written to the store (said once per game):
    /// the server's live page of that game stops following it; the game is played and
    /// recorded as ever.
    NotLive {
        /// The worker.
        worker: &'a str,
        /// The game's slot.
        slot: SlotId,
        /// Why.
        error: TournamentError,
    },
    /// The worker moved the tournament on (paired a round, or finished it).
    Tournament(TournamentEvent<'a>),
    /// An entry's engine is being built.
    Build(BuildEvent<'a>),
}

impl fmt::Display for WorkerEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkerEvent::Playing {
                worker,
                slot,
                tournament,
                white,
                black,
            } => write!(
                f,
                "{worker}: playing slot {} of tournament {}: {white} - {black}",
                slot.0, tournament.0
            ),
            WorkerEvent::Stored {
                worker,
                game,
                slot,
                record,
            } => write!(
                f,
                "{worker}: stored game {} (slot {}): {} - {} {} ({}, {} plies)",
                game.0,
                slot.0,
                record.white,
                record.black,
                record.result.as_str(),
                record.termination.tag(),
                record.ply_count()
            ),
            WorkerEvent::Refused { worker, error } => {
                write!(f, "{worker}: warning: {}", Chain(error))
            }
            WorkerEvent::CannotReportIn { location, error } => {
                write!(
                    f,
                    "warning: cannot report in to {location}: {}",
                    Chain(error)
                )
            }
            WorkerEvent::LostStore { worker, error } => {
                write!(
                    f,
                    "{worker}: lost the store ({}); reconnecting",
                    Chain(error)
                )
            }
            WorkerEvent::StillUnreachable { worker, error } => {
                write!(
                    f,
                    "{worker}: still cannot reach the store: {}",
                    Chain(error)
                )
            }
            WorkerEvent::Reconnected { worker } => write!(f, "{worker}: reconnected"),
            WorkerEvent::WaitingForOrganiser { worker, tournament } => write!(
                f,
                "{worker}: nothing to claim in tournament {}; this worker's role may not pair rounds or finish tournaments, so it waits for an organiser process (`challenge run --store` or `challenge serve --store`) to do that",
                tournament.0
            ),
            WorkerEvent::Paused { worker } => write!(
                f,
                "{worker}: the organiser paused the tournament; claiming nothing until it is resumed"
            ),
            WorkerEvent::Resumed { worker } => write!(f, "{worker}: the tournament was resumed"),
            WorkerEvent::NotLive {
                worker,
                slot,
                error,
            } => write!(
                f,
                "{worker}: warning: slot {} is not shown live: {}",
                slot.0,
                Chain(error)
            ),
            WorkerEvent::Tournament(event) => event.fmt(f),
            WorkerEvent::Build(event) => event.fmt(f),
        }
    }
}

/// An error and its causes, joined by `: ` (as `anyhow` shows them with `{:#}`).
struct Chain<'e>(&'e (dyn Error + 'static));

impl fmt::Display for Chain<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)?;
        let mut cause = self.0.source();
        while let Some(err) = cause {
            write!(f, ": {err}")?;
            cause = err.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_shown_with_their_causes() {
        let lost = store::StoreError::ConnectionLost {
            store: "postgres://kit@db/club".into(),
            source: "connection reset".into(),
        };
        let event = WorkerEvent::LostStore {
            worker: "w1",
            error: lost.into(),
        };
        assert_eq!(
            event.to_string(),
            "w1: lost the store (lost the connection to the challenge store postgres://kit@db/club: connection reset); reconnecting"
        );
        let build = TournamentError::Build {
            name: "alpha".into(),
            number: 2,
            source: Box::new(bot_build::BuildError {
                bot: bot_build::BotFile {
                    name: "alpha".into(),
                    path: "sources/0a.rs".into(),
                },
                kind: bot_build::BuildErrorKind::Spawn {
                    program: "rustc".into(),
                    error: std::io::Error::other("rustc is missing"),
                },
            }),
        };
        let event = WorkerEvent::StillUnreachable {
            worker: "w1",
            error: build,
        };
        let shown = event.to_string();
        assert!(
            shown.starts_with("w1: still cannot reach the store: cannot build `alpha` v2 ")
                && shown.ends_with(
                    "then run again): cannot build the bot `alpha`: cannot run rustc: rustc is missing"
                ),
            "{shown}"
        );
    }
}
