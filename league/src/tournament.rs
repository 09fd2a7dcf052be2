//! `challenge run`: plays the challenge's tournament, resumable after any interruption.
//!
//! When a tournament starts, its whole schedule (for Swiss: the current round's) is
//! written to the database in one transaction, one slot per game. A slot is done when
//! its game row is committed, in the same transaction that marks it. On start, any slot
//! not done is (re)played, so a run killed at any moment, even by `kill -9`, loses no
//! finished game and plays none twice; games that were in flight are replayed from the
//! start.
//!
//! Slots name entries, not versions: a game is played by the entry's current version at
//! the time it is played, so a re-submission replaces the old version in future games,
//! and a withdrawn entry's unplayed games are cancelled.
//!
//! What happens goes to the caller's observer as [`TournamentEvent`]s; what stops it is a
//! [`TournamentError`].

#[cfg(test)]
mod boundary_tests;
pub(super) mod error;
pub(super) mod event;
#[cfg(test)]
mod loop_tests;

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

pub use error::TournamentError;
pub use event::TournamentEvent;

use framework::chess::Board;
use framework::notation::pgn::{GameResult, write_game};
use runner::{
    ChooseObserver, EngineConfig, Format, GameRecord, GameSettings, Opening, Pairing, Player, Pool,
    TimeControl, load_openings, schedule,
};

use super::gate::{Gate, Open};
use super::organiser::{Organiser, Progress};
use super::swiss::{SwissPlayer, pair_round, round_slots};
use bot_build::BuildEvent;
use runner::{LiveEnd, LiveStart};
use store::{
    Claim, EntryId, Evidence, NewGame, NewTournament, SlotPlan, SlotState, Store, StoredOpening,
    StoredRules, Tournament, TournamentFormat, TournamentId, Version,
};

/// How `challenge run` plays: the settings of a new tournament (a resumed one keeps its
/// stored settings) and this session's limits.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Round-robin or Swiss.
    pub format: TournamentFormat,
    /// Round-robin: colour-swapped game pairs per encounter, each from its own opening.
    pub pairs: u32,
    /// Swiss: rounds, each a colour-swapped game pair per pairing.
    pub rounds: u32,
    /// The time control for both sides.
    pub tc: TimeControl,
    /// An opening suite (EPD/FEN lines or PGN games); `None`: the kit's balanced suite.
    pub openings: Option<std::path::PathBuf>,
    /// Book plies kept from each PGN opening.
    pub plies: usize,
    /// Games played at once, each on its own pair of engine processes.
    pub concurrency: usize,
    /// Stop after this many games in this session.
    pub max_games: Option<usize>,
    /// Start a new tournament when the last one is finished.
    pub new: bool,
    /// Margin and adjudication for a new tournament.
    pub settings: GameSettings,
    /// A new tournament's claimed endings count only once a worker of another role
    /// confirms them ([`StoredRules::confirm_claims`]).
    pub confirm_claims: bool,
    /// A new tournament's stored games keep the engines' stderr in their PGN
    /// ([`StoredRules::public_stderr`]).
    pub public_stderr: bool,
}

/// The fallback suite when the kit's `openings/default.epd` is missing: eight common
/// openings, six plies each.
const DEFAULT_OPENINGS: [&str; 8] = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7",
    "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6",
    "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4",
    "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5",
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6",
];

/// What a tournament's steps return.
type Result<T, E = TournamentError> = std::result::Result<T, E>;

fn stored_openings(args: &RunOptions) -> Result<Vec<StoredOpening>> {
    let kit_suite = Path::new(bot_build::KIT_ROOT)
        .join("openings")
        .join("default.epd");
    let file = match &args.openings {
        Some(path) => Some(path.clone()),
        None => kit_suite.is_file().then_some(kit_suite),
    };
    match file {
        Some(path) => {
            let openings = load_openings(&path, Some(args.plies))
                .map_err(|source| TournamentError::Openings { path, source })?;
            Ok(openings.iter().map(StoredOpening::from_opening).collect())
        }
        None => Ok(DEFAULT_OPENINGS
            .iter()
            .map(|line| StoredOpening {
                fen: Board::startpos().fen(),
                moves: line.split(' ').map(str::to_string).collect(),
            })
            .collect()),
    }
}

fn to_openings(stored: &[StoredOpening]) -> Result<Vec<Opening>> {
    stored
        .iter()
        .enumerate()
        .map(|(index, o)| {
            o.to_opening()
                .map_err(|reason| TournamentError::StoredOpening { index, reason })
        })
        .collect()
}

/// The unfinished tournament (said to be resumed), or a new one started with `args`
/// and its schedule stored: what `challenge run --schedule-only` does before workers
/// play it.
pub fn schedule_tournament(
    store: &mut dyn Store,
    args: &RunOptions,
    observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
) -> Result<Tournament> {
    match store.unfinished_tournament()? {
        Some(t) => {
            let done = store
                .slots(t.id)?
                .iter()
                .filter(|s| matches!(s.state, SlotState::Played(_)))
                .count();
            observe(TournamentEvent::Resumed {
                tournament: &t,
                played: done,
            });
            Ok(t)
        }
        None => start_tournament(store, args, observe),
    }
}

/// Plays (or resumes) the tournament of the challenge in `store` until it is finished or
/// `max_games` games are stored in this session. Bots are built in `work_dir`. What
/// happens goes to `observe`.
pub fn run(
    store: &mut dyn Store,
    work_dir: &Path,
    args: &RunOptions,
    observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
) -> Result<()> {
    run_gated(store, work_dir, args, &Open, observe)
}

/// [`run`] through `gate`: no game starts while it is closed (the games in flight finish
/// and are stored, the claimed games not yet started are given back), and nothing is
/// claimed until it opens; a gate closed for good ends the run
/// ([`TournamentError::GateClosed`]).
pub fn run_gated(
    store: &mut dyn Store,
    work_dir: &Path,
    args: &RunOptions,
    gate: &dyn Gate,
    observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
) -> Result<()> {
    run_in(&Engines { work_dir }, store, args, gate, observe)
}

/// Where a batch of claimed games is played: [`Engines`], the entries' engines built from
/// their stored sources and run on the runner's pool. The loop around it (claim, play,
/// record, release, the organiser's step) is [`run_in`]'s, whatever plays the games: its
/// unit tests (`loop_tests.rs`) play them with no engine.
pub(crate) trait Arena: Sync {
    /// The players of `versions` (the entries' current versions a batch needs), in order.
    fn players(
        &self,
        store: &dyn Store,
        versions: &[&Version],
        tc: TimeControl,
        observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
    ) -> Result<Vec<Player>>;

    /// Plays each game `next` hands out on `pool`'s players until it has none left or
    /// `stop` is set, asking `watch` who follows it, and gives each record to `done` on
    /// the calling thread.
    fn play(
        &self,
        pool: &Pool<'_>,
        stop: &AtomicBool,
        next: &mut (dyn FnMut() -> Option<(Claim, Pairing)> + Send),
        watch: ChooseObserver<'_, Claim>,
        done: &mut dyn FnMut(Claim, GameRecord),
    );
}

/// The entries' engines, built in `work_dir` from their stored sources, on the runner's
/// pool of engine processes.
struct Engines<'a> {
    work_dir: &'a Path,
}

impl Arena for Engines<'_> {
    fn players(
        &self,
        store: &dyn Store,
        versions: &[&Version],
        tc: TimeControl,
        observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
    ) -> Result<Vec<Player>> {
        let bots = versions
            .iter()
            .map(|version| write_out(store, self.work_dir, version))
            .collect::<Result<Vec<_>>>()?;
        let built = bot_build::build_all(
            &bots,
            bot_build::BuildKind::Untrusted,
            &|event: BuildEvent<'_>| observe(TournamentEvent::Build(event)),
        );
        versions
            .iter()
            .zip(built)
            .map(|(version, engine)| {
                let engine = engine.map_err(|source| TournamentError::Build {
                    name: version.name.clone(),
                    number: version.number,
                    source: Box::new(source),
                })?;
                let config = EngineConfig::new(version.player_name(), engine.path);
                Ok(Player::new(config, tc))
            })
            .collect()
    }

    fn play(
        &self,
        pool: &Pool<'_>,
        stop: &AtomicBool,
        next: &mut (dyn FnMut() -> Option<(Claim, Pairing)> + Send),
        watch: ChooseObserver<'_, Claim>,
        done: &mut dyn FnMut(Claim, GameRecord),
    ) {
        pool.play_watched(stop, next, watch, done);
    }
}

/// [`run_gated`] with the games played in `arena`.
pub(crate) fn run_in(
    arena: &dyn Arena,
    store: &mut dyn Store,
    args: &RunOptions,
    gate: &dyn Gate,
    observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
) -> Result<()> {
    let tournament = schedule_tournament(store, args, observe)?;
    let openings = to_openings(&tournament.openings)?;
    let stop = AtomicBool::new(false);
    let mut organiser = Organiser::default();
    let mut played_now = 0usize;
    loop {
        match organiser.step(store, observe)? {
            Progress::Playing { .. } => {}
            Progress::Paired { .. } => continue,
            Progress::Finished { .. } | Progress::Idle => break,
        }
        let slots = store.slots(tournament.id)?;
        let total = slots
            .iter()
            .filter(|s| s.state != SlotState::Cancelled)
            .count();
        let pending = slots
            .iter()
            .filter(|s| s.state == SlotState::Pending)
            .count();
        let budget = args.max_games.map(|m| m.saturating_sub(played_now));
        if budget == Some(0) {
            observe(TournamentEvent::Stopped { played: played_now });
            break;
        }
        gate.wait_open()?;
        let claims = store.claim(tournament.id, "local", budget.unwrap_or(usize::MAX))?;
        let session = Session {
            arena,
            gate,
            tournament: &tournament,
            openings: &openings,
            concurrency: args.concurrency,
            done_before: total - pending,
            total,
        };
        played_now += session.play(store, claims, budget, &stop, observe)?;
        if stop.load(Ordering::Relaxed) {
            observe(TournamentEvent::Stopped { played: played_now });
            break;
        }
    }
    Ok(())
}

fn start_tournament(
    store: &mut dyn Store,
    args: &RunOptions,
    observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
) -> Result<Tournament> {
    let field = store.field()?;
    if field.len() < 2 {
        return Err(TournamentError::TooFewEntries {
            location: store.location(),
            entries: field.len(),
        });
    }
    if store.tournament_count()? > 0 && !args.new {
        return Err(TournamentError::LastFinished);
    }
    if args.pairs == 0 || args.rounds == 0 {
        return Err(TournamentError::NoGames);
    }
    let stored = stored_openings(args)?;
    let settings = Tournament {
        id: TournamentId(0),
        format: args.format,
        pairs: args.pairs,
        rounds: args.rounds,
        time_control: args.tc,
        openings: stored,
        rules: StoredRules {
            confirm_claims: args.confirm_claims,
            public_stderr: args.public_stderr,
            ..StoredRules::from_settings(&args.settings)
        },
        finished: false,
    };
    let entries: Vec<EntryId> = field.iter().map(|v| v.entry_id).collect();
    let (slots, byes) = first_slots(&settings, &entries);
    let id = store.create_tournament(&NewTournament {
        settings: &settings,
        field: &entries,
        slots: &slots,
        byes: &byes,
    })?;
    let tournament = Tournament { id, ..settings };
    let bye = byes
        .first()
        .and_then(|entry| field.iter().find(|v| v.entry_id == *entry));
    observe(TournamentEvent::Created {
        tournament: &tournament,
        entries: entries.len(),
        games: slots.len(),
        bye: bye.map(|v| v.name.as_str()),
    });
    Ok(tournament)
}

/// A new tournament's first slots: the whole round-robin, or the first Swiss round (with
/// its bye).
fn first_slots(t: &Tournament, entries: &[EntryId]) -> (Vec<SlotPlan>, Vec<EntryId>) {
    match t.format {
        TournamentFormat::RoundRobin => {
            let jobs = schedule(
                Format::RoundRobin,
                entries.len(),
                t.pairs as usize,
                t.openings.len(),
            );
            let slots = jobs
                .iter()
                .map(|job| SlotPlan {
                    round: job.round as u32,
                    pair: job.pair as u32,
                    game_in_pair: job.game_in_pair as u32,
                    white: entries[job.white],
                    black: entries[job.black],
                    opening: job.opening as u32,
                })
                .collect();
            (slots, Vec::new())
        }
        TournamentFormat::Swiss => {
            let players: Vec<SwissPlayer> = (0..entries.len())
                .map(|seed| SwissPlayer {
                    score: 0.0,
                    seed,
                    had_bye: false,
                })
                .collect();
            let round = pair_round(&players, |_, _| false);
            let slots = round_slots(&round.pairs, entries, 0, 0, t.openings.len());
            (slots, round.bye.map(|b| entries[b]).into_iter().collect())
        }
    }
}

/// One batch of claimed slots played on the shared worker pool.
struct Session<'a> {
    arena: &'a dyn Arena,
    gate: &'a dyn Gate,
    tournament: &'a Tournament,
    openings: &'a [Opening],
    concurrency: usize,
    done_before: usize,
    total: usize,
}

/// The engines of the entries a batch of games needs: each entry's current version, built.
struct Field {
    players: Vec<Player>,
    versions: Vec<Version>,
    index: HashMap<EntryId, usize>,
}

impl Field {
    fn build(
        arena: &dyn Arena,
        store: &dyn Store,
        claims: &[Claim],
        tc: TimeControl,
        observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
    ) -> Result<Field> {
        // Each game is played by the entries' current versions.
        let current: HashMap<EntryId, Version> = store
            .versions()?
            .into_iter()
            .filter(|v| v.current)
            .map(|v| (v.entry_id, v))
            .collect();
        // The entries in the order the claimed games need them, built [`build_jobs`] at a
        // time: the first games' engines come first.
        //
        // [`build_jobs`]: bot_build::build_jobs
        let mut needed: Vec<&Version> = Vec::new();
        for claim in claims {
            for entry in [claim.slot.plan.white, claim.slot.plan.black] {
                let version = current
                    .get(&entry)
                    .ok_or(TournamentError::NoVersion(entry))?;
                if !needed.iter().any(|v| v.entry_id == entry) {
                    needed.push(version);
                }
            }
        }
        let players = arena.players(store, &needed, tc, observe)?;
        Ok(Field {
            players,
            index: needed
                .iter()
                .enumerate()
                .map(|(at, version)| (version.entry_id, at))
                .collect(),
            versions: needed.into_iter().cloned().collect(),
        })
    }
}

impl Session<'_> {
    /// Plays the claimed slots, recording each game as it finishes; slots left unplayed
    /// (stopped, or a failure) are released. Returns how many games were stored.
    fn play(
        &self,
        store: &mut dyn Store,
        claims: Vec<Claim>,
        budget: Option<usize>,
        stop: &AtomicBool,
        observe: &(dyn Fn(TournamentEvent<'_>) + Sync),
    ) -> Result<usize> {
        let t = self.tournament;
        let field = match Field::build(self.arena, store, &claims, t.time_control, observe) {
            Ok(field) => field,
            Err(err) => {
                // Nothing of the batch can start (a build failed): its claims go back, so
                // the next run, in this process too, claims them again.
                for claim in &claims {
                    store.release(claim)?;
                }
                return Err(err);
            }
        };
        let settings = t.rules.settings();
        let pool = Pool {
            players: &field.players,
            openings: self.openings,
            settings: &settings,
            concurrency: self.concurrency,
        };
        let mut unplayed: HashMap<_, Claim> =
            claims.iter().map(|c| (c.slot.id, c.clone())).collect();
        let mut queue = claims.into_iter();
        let gate = self.gate;
        let mut next = || {
            // A closed gate hands out nothing more: the games in flight end the batch.
            if !gate.is_open() {
                return None;
            }
            queue.next().map(|claim| {
                let plan = claim.slot.plan;
                let pairing = Pairing {
                    white: field.index[&plan.white],
                    black: field.index[&plan.black],
                    opening: plan.opening as usize,
                    seed: None,
                };
                (claim, pairing)
            })
        };
        let mut stored = 0usize;
        let mut failure: Option<TournamentError> = None;
        let watch = gate.watch();
        let begin = |claim: &Claim, pairing: &Pairing| {
            let start = LiveGame::new(claim, pairing, &field, self.openings);
            watch?.begin(&start.view())
        };
        self.arena
            .play(&pool, stop, &mut next, &begin, &mut |claim, record| {
                let stored_as = (record.result != GameResult::Unknown && failure.is_none())
                    .then(|| self.store_game(store, &claim, &record, &field, &mut failure))
                    .flatten();
                if let Some(watch) = watch {
                    watch.end(&LiveEnd {
                        key: claim.slot.id.0,
                        record: &record,
                        stored: stored_as,
                    });
                }
                if failure.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
                if stored_as.is_none() {
                    return;
                }
                unplayed.remove(&claim.slot.id);
                stored += 1;
                observe(TournamentEvent::GameStored {
                    number: self.done_before + stored,
                    total: self.total,
                    record: &record,
                });
                if budget.is_some_and(|b| stored >= b) {
                    stop.store(true, Ordering::Relaxed);
                }
            });
        for claim in unplayed.values() {
            store.release(claim)?;
        }
        match failure {
            Some(err) => Err(err),
            None => Ok(stored),
        }
    }

    /// Records a played game, returning its id; a failure is kept in `failure`.
    fn store_game(
        &self,
        store: &mut dyn Store,
        claim: &Claim,
        record: &GameRecord,
        field: &Field,
        failure: &mut Option<TournamentError>,
    ) -> Option<i64> {
        let game = self.new_game(claim, record, field);
        match store.record(claim, &game) {
            Ok(id) => Some(id.0),
            Err(err) => {
                *failure = Some(err.into());
                None
            }
        }
    }

    fn new_game(&self, claim: &Claim, record: &GameRecord, field: &Field) -> NewGame {
        let plan = claim.slot.plan;
        let white = &field.versions[field.index[&plan.white]];
        let black = &field.versions[field.index[&plan.black]];
        new_game(self.tournament, plan, [white, black], record)
    }
}

/// A claimed game as the live pages are told of it when it starts.
struct LiveGame<'a> {
    key: i64,
    round: String,
    players: [&'a Player; 2],
    opening: &'a Opening,
}

impl<'a> LiveGame<'a> {
    fn new(claim: &Claim, pairing: &Pairing, field: &'a Field, openings: &'a [Opening]) -> Self {
        LiveGame {
            key: claim.slot.id.0,
            round: live_label(claim),
            players: [&field.players[pairing.white], &field.players[pairing.black]],
            opening: &openings[pairing.opening % openings.len()],
        }
    }

    fn view(&self) -> LiveStart<'_> {
        LiveStart::of(self.key, &self.round, self.players, self.opening)
    }
}

/// A slot's `Round` tag: `round.pair.game`, each from 1.
fn round_tag(plan: SlotPlan) -> String {
    format!(
        "{}.{}.{}",
        plan.round + 1,
        plan.pair + 1,
        plan.game_in_pair + 1
    )
}

/// A claimed game's place as the live pages show it: the same words as its stored game's
/// page once it is recorded ([`results::place_label`] of its tags).
pub fn live_label(claim: &Claim) -> String {
    results::place_label(Some(claim.tournament.0), &round_tag(claim.slot.plan))
}

/// The game to store for a slot played by `players` (White's and Black's versions): its
/// result, its PGN with the challenge's tags, and for an engine's fault the evidence the
/// organiser checks the claim against. The faulty engine's stderr goes in the evidence,
/// not in the PGN (which is public), unless the tournament says so
/// ([`StoredRules::public_stderr`]).
pub fn new_game(
    tournament: &Tournament,
    plan: SlotPlan,
    players: [&Version; 2],
    record: &GameRecord,
) -> NewGame {
    let [white, black] = players;
    let evidence = Evidence::of(record);
    let mut pgn = if tournament.rules.public_stderr {
        record.to_pgn()
    } else {
        GameRecord {
            stderr: Vec::new(),
            ..record.clone()
        }
        .to_pgn()
    };
    pgn.set_tag(
        "Event",
        &format!("{}{}", results::TOURNAMENT_EVENT, tournament.id.0),
    );
    pgn.set_tag("Site", "challenge");
    pgn.set_tag(
        "Date",
        &framework::notation::pgn_date(std::time::SystemTime::now()),
    );
    pgn.set_tag("Round", &round_tag(plan));
    pgn.set_tag("WhiteVersion", &white.hash);
    pgn.set_tag("BlackVersion", &black.hash);
    NewGame {
        white: white.id,
        black: black.id,
        result: record.result,
        termination: record.termination,
        faulty: record.faulty,
        detail: record.detail.clone(),
        plies: u32::try_from(record.ply_count()).unwrap_or(u32::MAX),
        pgn: write_game(&pgn),
        evidence,
    }
}

/// Writes a stored version's source out under `work_dir` to be built.
pub(crate) fn write_out(
    store: &dyn Store,
    work_dir: &Path,
    version: &Version,
) -> Result<bot_build::BotFile> {
    let source = store.source(version.id)?;
    write_source(work_dir, version, &source)
}

/// Writes `source`, a version's source however it was read, out under `work_dir`.
pub(crate) fn write_source(
    work_dir: &Path,
    version: &Version,
    source: &str,
) -> Result<bot_build::BotFile> {
    crate::sources::materialize(work_dir, &version.name, source).map_err(|source| {
        TournamentError::Source {
            name: version.name.clone(),
            source,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_openings_are_legal() {
        let stored: Vec<StoredOpening> = DEFAULT_OPENINGS
            .iter()
            .map(|l| StoredOpening {
                fen: Board::startpos().fen(),
                moves: l.split(' ').map(str::to_string).collect(),
            })
            .collect();
        let openings = to_openings(&stored).unwrap();
        assert_eq!(openings.len(), 8);
        assert!(openings.iter().all(|o| o.moves.len() == 6));
    }
}
