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
//! looked against their moves ([`Verdicts`]): a game whose result its moves (or its
//! evidence) refute is set aside (kept, in no slot) and its slot played again, and so is
//! a claim that awaits another worker's confirmation (`--confirm-claims`), so a Swiss
//! round is paired, and a tournament finished, only on games an organiser checked.

use std::collections::{HashMap, HashSet};

use store::{
    Aside, EntryId, NewRound, SlotState, Store, Tournament, TournamentFormat, TournamentId,
};

use super::swiss::{SwissPlayer, pair_round, round_slots};
use super::tournament::error::TournamentError;
use super::tournament::event::TournamentEvent;
use results::{Verdict, Verdicts};

/// What the organiser's steps return.
type Result<T, E = TournamentError> = std::result::Result<T, E>;

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
    ) -> Result<Progress> {
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
    ) -> Result<Progress> {
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
    ) -> Result<usize> {
        // Games set aside count too: an earlier claim of a slot confirms a later one.
        let games: Vec<_> = store
            .games(false)?
            .into_iter()
            .filter(|g| g.tournament == Some(id))
            .collect();
        self.verdicts.check_new(&*store, &games)?;
        let mut set_aside = 0;
        for game in games.iter().filter(|g| g.slot.is_some()) {
            let (why, reason) = match self.verdicts.get(game.id) {
                Some(Verdict::Refused(reason)) => (Aside::Refuted, reason.as_str()),
                Some(Verdict::Unconfirmed) => (
                    Aside::Unconfirmed,
                    "its claimed ending awaits a worker of another role, who plays the pairing again (--confirm-claims)",
                ),
                Some(Verdict::Shown | Verdict::Claimed | Verdict::Confirmed { .. }) | None => {
                    continue;
                }
            };
            if store.set_aside(game.id, why)? {
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

/// What comes after a tournament's last pending game: a Swiss tournament with rounds to
/// go gets its next round paired (`true`); otherwise the tournament is marked finished
/// (`false`). Only the organiser's step calls it, when no slot is pending, its games
/// checked, under the tournament's lock.
fn advance(
    store: &mut dyn Store,
    tournament: &Tournament,
    observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
) -> Result<bool> {
    if tournament.format == TournamentFormat::Swiss {
        let slots = store.slots(tournament.id)?;
        let paired = slots.iter().map(|s| s.plan.round + 1).max().unwrap_or(0);
        let paired = paired.max(store.byes(tournament.id)?.len() as u32);
        if paired < tournament.rounds && pair_next_round(store, tournament, paired, observe)? {
            return Ok(true);
        }
    }
    store.finish_tournament(tournament.id)?;
    observe(TournamentEvent::Finished {
        tournament: tournament.id,
    });
    Ok(false)
}

/// The Swiss players of a tournament's remaining field, with their scores and byes so far.
/// Pairs of players (by index, smaller first) that have met.
type Met = HashSet<(usize, usize)>;

fn swiss_field(
    store: &dyn Store,
    t: &Tournament,
    entries: &[EntryId],
) -> Result<(Vec<SwissPlayer>, Met)> {
    let position: HashMap<EntryId, usize> =
        entries.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let mut players: Vec<SwissPlayer> = (0..entries.len())
        .map(|seed| SwissPlayer {
            score: 0.0,
            seed,
            had_bye: false,
        })
        .collect();
    for entry in store.byes(t.id)? {
        if let Some(&i) = position.get(&entry) {
            players[i].score += 1.0;
            players[i].had_bye = true;
        }
    }
    let slots = store.slots(t.id)?;
    let mut met = HashSet::new();
    for slot in slots.iter().filter(|s| s.state != SlotState::Cancelled) {
        if let (Some(&a), Some(&b)) = (
            position.get(&slot.plan.white),
            position.get(&slot.plan.black),
        ) {
            met.insert((a.min(b), a.max(b)));
        }
    }
    let slot_players: HashMap<_, _> = slots
        .iter()
        .map(|s| (s.id, (s.plan.white, s.plan.black)))
        .collect();
    for game in store.games(false)? {
        if game.tournament != Some(t.id) {
            continue;
        }
        let Some(&(white, black)) = game.slot.and_then(|s| slot_players.get(&s)) else {
            continue;
        };
        let white_score = game.white_score();
        if let Some(&i) = position.get(&white) {
            players[i].score += white_score;
        }
        if let Some(&i) = position.get(&black) {
            players[i].score += 1.0 - white_score;
        }
    }
    Ok((players, met))
}

/// Pairs Swiss round `round` (0-based) from the results so far; `false` when fewer than
/// two entries are left to pair.
fn pair_next_round(
    store: &mut dyn Store,
    t: &Tournament,
    round: u32,
    observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
) -> Result<bool> {
    let versions = store.versions()?;
    let withdrawn: HashSet<EntryId> = versions
        .iter()
        .filter(|v| v.withdrawn)
        .map(|v| v.entry_id)
        .collect();
    let entries: Vec<EntryId> = store
        .participants(t.id)?
        .into_iter()
        .filter(|e| !withdrawn.contains(e))
        .collect();
    if entries.len() < 2 {
        return Ok(false);
    }
    let (players, met) = swiss_field(store, t, &entries)?;
    let paired = pair_round(&players, |a, b| met.contains(&(a.min(b), a.max(b))));
    let first_pair = store
        .slots(t.id)?
        .iter()
        .map(|s| s.plan.pair + 1)
        .max()
        .unwrap_or(0);
    let new_slots = round_slots(&paired.pairs, &entries, round, first_pair, t.openings.len());
    let bye: Vec<EntryId> = paired.bye.map(|b| entries[b]).into_iter().collect();
    store.add_round(&NewRound {
        tournament: t.id,
        round,
        slots: &new_slots,
        byes: &bye,
    })?;
    let bye = bye
        .first()
        .and_then(|entry| versions.iter().find(|v| v.entry_id == *entry));
    observe(TournamentEvent::RoundPaired {
        round: round + 1,
        rounds: t.rounds,
        games: new_slots.len(),
        bye: bye.map(|v| v.name.as_str()),
        rematches: paired.rematches,
    });
    Ok(true)
}
