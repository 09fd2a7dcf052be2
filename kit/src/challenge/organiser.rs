//! The organiser's step: what moves a tournament on, in one place, called by every
//! organiser process.
//!
//! Playing a game needs only a lease; moving the tournament on writes its schedule, which
//! only the organiser's role may: cancelling the games of withdrawn entries, pairing the
//! next Swiss round, finishing the tournament. [`Organiser::step`] does all of it, and
//! every process that holds the organiser's rights calls it as it goes, so a tournament
//! never waits on a process that plays but cannot organise:
//!
//! - `challenge run` between its batches of games (a directory's games are played there);
//! - `challenge serve`: on a directory through `run`'s loop in its tournament thread; on a
//!   PostgreSQL store, where it plays nothing, in an organiser thread of its own;
//! - `challenge run --store` and any `challenge worker` started with the organiser's
//!   credentials, when they find nothing to claim.
//!
//! A worker's role cannot, and says it waits for one of those.
//!
//! Before the tournament moves on, the step checks the games recorded since it last
//! looked against their moves ([`Verdicts`]): a game whose result its moves refute is set
//! aside (kept, in no slot) and its slot played again, so a Swiss round is paired, and a
//! tournament finished, only on games an organiser checked.

use store::{Store, TournamentId};

use super::tournament::{TournamentError, TournamentEvent, advance};
use super::verify::{Verdict, Verdicts};

/// Where the unfinished tournament stands after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// There is no unfinished tournament.
    Idle,
    /// Games of the tournament wait to be played (leased ones included).
    Playing {
        /// The tournament.
        tournament: TournamentId,
        /// Its games not played yet.
        pending: usize,
    },
    /// Its next Swiss round was paired in this step.
    Paired {
        /// The tournament.
        tournament: TournamentId,
    },
    /// It is finished (in this step, or by another organiser just before).
    Finished {
        /// The tournament.
        tournament: TournamentId,
    },
}

/// An organiser process's memory between steps: the games it has checked.
#[derive(Debug, Default)]
pub struct Organiser {
    verdicts: Verdicts,
}

impl Organiser {
    /// One look at the store: cancels the unplayed games of withdrawn entries, and when
    /// no game of the unfinished tournament is left to play, checks its games (setting
    /// aside those their moves refute, whose slots are then played again), then pairs
    /// the next Swiss round or finishes it, holding the tournament's lock so one organiser
    /// at a time does. Cheap when games are still to play: two counts and a statement.
    pub fn step(
        &mut self,
        store: &mut dyn Store,
        observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
    ) -> Result<Progress, TournamentError> {
        let Some(t) = store.unfinished_tournament()? else {
            return Ok(Progress::Idle);
        };
        let cancelled = store.cancel_withdrawn(t.id)?;
        if cancelled > 0 {
            observe(TournamentEvent::Cancelled { games: cancelled });
        }
        let pending = store.unplayed(t.id)?;
        if pending > 0 {
            return Ok(Progress::Playing {
                tournament: t.id,
                pending,
            });
        }
        store.lock_tournament(t.id)?;
        let moved = self.move_on(store, t.id, observe);
        let unlocked = store.unlock_tournament(t.id);
        let progress = moved?;
        unlocked?;
        Ok(progress)
    }

    /// Under the tournament's lock, with nothing left to play when the step looked.
    fn move_on(
        &mut self,
        store: &mut dyn Store,
        id: TournamentId,
        observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
    ) -> Result<Progress, TournamentError> {
        // Another organiser may have moved it on meanwhile.
        let t = match store.tournament(id)? {
            Some(t) if !t.finished => t,
            _ => return Ok(Progress::Finished { tournament: id }),
        };
        let pending = store.unplayed(id)? + self.set_aside_refuted(store, id, observe)?;
        if pending > 0 {
            return Ok(Progress::Playing {
                tournament: id,
                pending,
            });
        }
        Ok(match advance(store, &t, observe)? {
            true => Progress::Paired { tournament: id },
            false => Progress::Finished { tournament: id },
        })
    }

    /// Checks the tournament's games not checked yet; sets aside each whose result its
    /// moves refute, so its slot is played again. Returns how many were set aside.
    fn set_aside_refuted(
        &mut self,
        store: &mut dyn Store,
        id: TournamentId,
        observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
    ) -> Result<usize, TournamentError> {
        let games: Vec<_> = store
            .games(false)?
            .into_iter()
            .filter(|g| g.tournament == Some(id) && g.slot.is_some())
            .collect();
        self.verdicts.check_new(&*store, &games)?;
        let mut set_aside = 0;
        for game in &games {
            if let Some(Verdict::Refused(reason)) = self.verdicts.get(game.id)
                && store.set_aside(game.id)?
            {
                set_aside += 1;
                observe(TournamentEvent::SetAside {
                    game: game.id,
                    worker: game.worker.as_deref(),
                    reason,
                });
            }
        }
        Ok(set_aside)
    }
}
