//! What a tournament reports while it is scheduled and played: [`TournamentEvent`].

use std::fmt;

use runner::GameRecord;
use store::{GameId, Tournament, TournamentFormat, TournamentId};

use bot_build::BuildEvent;

/// What `challenge run` (and the server's tournament, and a worker moving a tournament
/// on) reports, to the observer its caller passes. Its `Display` is the line a person
/// reads.
#[derive(Debug)]
pub enum TournamentEvent<'a> {
    /// The unfinished tournament goes on with its stored settings.
    Resumed {
        /// The tournament.
        tournament: &'a Tournament,
        /// Its games played so far.
        played: usize,
    },
    /// A new tournament and its first schedule are stored.
    Created {
        /// The tournament.
        tournament: &'a Tournament,
        /// Its entries.
        entries: usize,
        /// The games scheduled (for Swiss: in the first round).
        games: usize,
        /// The entry that sits the first Swiss round out, by name, if any.
        bye: Option<&'a str>,
    },
    /// Unplayed games of withdrawn entries were cancelled.
    Cancelled {
        /// How many.
        games: usize,
    },
    /// The next Swiss round is paired and scheduled.
    RoundPaired {
        /// Its number (1-based).
        round: u32,
        /// The tournament's rounds.
        rounds: u32,
        /// Its games.
        games: usize,
        /// The entry that sits this round out, by name, if any.
        bye: Option<&'a str>,
        /// Pairings of entries that had met before, when no other pairing was left.
        rematches: usize,
    },
    /// A game was played and stored.
    GameStored {
        /// Its number among the tournament's games.
        number: usize,
        /// The tournament's games (not cancelled).
        total: usize,
        /// The game.
        record: &'a GameRecord,
    },
    /// The session's game budget (`--max-games`) is spent; the tournament goes on at the
    /// next run.
    Stopped {
        /// Games stored in this session.
        played: usize,
    },
    /// Every game is played.
    Finished {
        /// The tournament.
        tournament: TournamentId,
    },
    /// A recorded game's result disagrees with its moves: the organiser set it aside
    /// (kept, in no slot) and its slot is played again.
    SetAside {
        /// The game.
        game: GameId,
        /// The worker that recorded it, if known.
        worker: Option<&'a str>,
        /// How its moves refute it.
        reason: &'a str,
    },
    /// An entry's engine is being built.
    Build(BuildEvent<'a>),
}

impl fmt::Display for TournamentEvent<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentEvent::Resumed {
                tournament: t,
                played,
            } => write!(
                f,
                "resuming tournament {} ({}, {}, {played} games already played; its stored settings apply)",
                t.id.0, t.format, t.time_control
            ),
            TournamentEvent::Created {
                tournament: t,
                entries,
                games,
                bye,
            } => {
                write!(
                    f,
                    "tournament {}: {}, {entries} entries, {games} games scheduled",
                    t.id.0, t.format
                )?;
                if t.format == TournamentFormat::Swiss {
                    write!(f, " in round 1 of {}", t.rounds)?;
                }
                if let Some(entry) = bye {
                    write!(f, ", bye for {entry}")?;
                }
                write!(f, ", time control {}", t.time_control)
            }
            TournamentEvent::Cancelled { games } => {
                write!(f, "{games} unplayed games of withdrawn entries cancelled")
            }
            TournamentEvent::RoundPaired {
                round,
                rounds,
                games,
                bye,
                rematches,
            } => {
                write!(f, "round {round} of {rounds} paired: {games} games")?;
                if let Some(entry) = bye {
                    write!(f, ", bye for {entry}")?;
                }
                if *rematches > 0 {
                    write!(f, ", {rematches} unavoidable rematches")?;
                }
                Ok(())
            }
            TournamentEvent::GameStored {
                number,
                total,
                record,
            } => game_line(f, *number, *total, record),
            TournamentEvent::Stopped { played } => write!(
                f,
                "stopped after {played} games (--max-games); `challenge run` goes on where this left off"
            ),
            TournamentEvent::Finished { tournament } => write!(
                f,
                "tournament {} finished: see `challenge standings` and `challenge report --html FILE`",
                tournament.0
            ),
            TournamentEvent::SetAside {
                game,
                worker,
                reason,
            } => write!(
                f,
                "game {} (recorded by {}) set aside, its slot to be played again: {reason}",
                game.0,
                worker.unwrap_or("an unknown worker")
            ),
            TournamentEvent::Build(event) => event.fmt(f),
        }
    }
}

/// `[N/TOTAL] White - Black RESULT (termination, N plies)`, and a fault's detail.
fn game_line(
    f: &mut fmt::Formatter<'_>,
    number: usize,
    total: usize,
    record: &GameRecord,
) -> fmt::Result {
    write!(
        f,
        "[{number}/{total}] {} - {} {} ({}, {} plies)",
        record.white,
        record.black,
        record.result.as_str(),
        record.termination.tag(),
        record.ply_count()
    )?;
    if record.termination.is_fault() {
        write!(f, ": {}", record.detail)?;
    }
    Ok(())
}
