//! Running a whole schedule on `-j N` worker threads, tallying results as games finish.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::game::{GameRecord, GameSettings, Player, Termination};
use super::observer::MoveObserver;
use super::openings::{Opening, SplitMix64};
use super::pool::{Pairing, Pool};
use super::schedule::{Format, GameJob, encounters, schedule};
use super::stats::{Sprt, SprtState, Stats};

/// Everything a tournament needs.
#[derive(Debug, Clone)]
pub struct TournamentConfig {
    /// The players, in order (the first is the gauntlet's challenger).
    pub players: Vec<Player>,
    /// Pairing format.
    pub format: Format,
    /// Colour-swapped game pairs per encounter.
    pub pairs: usize,
    /// The openings, in the order they are used.
    pub openings: Vec<Opening>,
    /// Games played at once (each on its own worker thread with its own engine processes).
    pub concurrency: usize,
    /// Clocks, margins, adjudication.
    pub settings: GameSettings,
    /// Stop when this test on the first encounter (first player's view) crosses a bound.
    pub sprt: Option<Sprt>,
    /// The match's seed: each game's engines that announce the UCI option `Seed` get one
    /// derived from it and the game's number ([`game_seed`]), so the same seed plays the
    /// same games with bots that use `Random`. `None` tells them nothing.
    pub seed: Option<u64>,
}

/// The seed of game `n` (its number in the schedule) of a match seeded with `seed`: a value
/// in `0..=i32::MAX`, the range of the kit's UCI option `Seed`.
///
/// ```
/// use runner::game_seed;
/// assert_eq!(game_seed(7, 3), game_seed(7, 3));
/// assert_ne!(game_seed(7, 3), game_seed(7, 4));
/// assert!(game_seed(u64::MAX, 0) <= i32::MAX as u64);
/// ```
pub fn game_seed(seed: u64, n: usize) -> u64 {
    let mixed = seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    SplitMix64::new(mixed).next_u64() >> 33
}

/// Results so far, per encounter and per player.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Standings {
    /// Player names.
    pub players: Vec<String>,
    /// Encounter `(a, b)` (a < b) with stats from `a`'s point of view.
    pub encounters: Vec<((usize, usize), Stats)>,
    /// Games finished with a result.
    pub games: usize,
    /// Games ended by an engine fault, by termination.
    pub faults: Vec<(Termination, usize)>,
}

impl Standings {
    /// A player's results against the whole field.
    pub fn player(&self, index: usize) -> Stats {
        let mut total = Stats::default();
        for &((a, b), stats) in &self.encounters {
            if a == index {
                total.merge(&stats);
            } else if b == index {
                total.merge(&stats.flipped());
            }
        }
        total
    }

    fn encounter_mut(&mut self, x: usize, y: usize) -> (&mut Stats, bool) {
        let key = (x.min(y), x.max(y));
        let slot = self
            .encounters
            .iter_mut()
            .position(|(k, _)| *k == key)
            .expect("scheduled encounter");
        (&mut self.encounters[slot].1, x == key.0)
    }
}

/// Why the tournament ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// Every scheduled game was played.
    Completed,
    /// The stop flag was set from outside (Ctrl-C).
    Interrupted,
    /// The SPRT crossed a bound.
    Sprt(SprtState),
}

/// What one finished game tells the caller.
#[derive(Debug)]
pub struct GameEvent<'a> {
    /// The scheduled game.
    pub job: &'a GameJob,
    /// Its record.
    pub record: &'a GameRecord,
    /// The standings including this game.
    pub standings: &'a Standings,
    /// The SPRT's log-likelihood ratio after this game, when testing.
    pub llr: Option<f64>,
}

/// The end of a tournament.
#[derive(Debug, Clone)]
pub struct TournamentResult {
    /// Final standings.
    pub standings: Standings,
    /// Why it ended.
    pub stop: StopReason,
    /// The final LLR, when testing.
    pub llr: Option<f64>,
    /// Games scheduled.
    pub scheduled: usize,
}

/// Plays the tournament. `on_game` is called on the calling thread for each finished
/// game, in finishing order (write the PGN there). Setting `stop` ends the tournament
/// after abandoning the games in progress; finished games are all reported.
///
/// ```no_run
/// use std::sync::atomic::AtomicBool;
/// use runner::*;
/// let sf = Player::new(EngineConfig::new("sf", "/usr/games/stockfish"), "1+0.01".parse().unwrap());
/// let config = TournamentConfig {
///     players: vec![sf.clone(), Player { engine: EngineConfig { name: "sf2".into(), ..sf.engine.clone() }, ..sf }],
///     format: Format::RoundRobin,
///     pairs: 2,
///     openings: vec![Opening::startpos()],
///     concurrency: 2,
///     settings: GameSettings::default(),
///     sprt: None,
///     seed: Some(42),
/// };
/// let result = run_tournament(&config, &AtomicBool::new(false), |e| println!("{}", e.record.result));
/// println!("{:?}", result.standings.player(0));
/// ```
pub fn run_tournament(
    config: &TournamentConfig,
    stop: &AtomicBool,
    on_game: impl FnMut(GameEvent<'_>),
) -> TournamentResult {
    run_tournament_watched(config, stop, &|_| None, on_game)
}

/// [`run_tournament`], asking `watch` for an observer of each game as it starts (on its
/// worker's thread; see [`Pool::play_watched`]).
pub fn run_tournament_watched(
    config: &TournamentConfig,
    stop: &AtomicBool,
    watch: &(dyn Fn(&GameJob) -> Option<Box<dyn MoveObserver>> + Sync),
    mut on_game: impl FnMut(GameEvent<'_>),
) -> TournamentResult {
    let openings = if config.openings.is_empty() {
        vec![Opening::startpos()]
    } else {
        config.openings.clone()
    };
    let jobs = schedule(
        config.format,
        config.players.len(),
        config.pairs,
        openings.len(),
    );
    let standings = Standings {
        players: config
            .players
            .iter()
            .map(|p| p.name().to_string())
            .collect(),
        encounters: encounters(config.format, config.players.len())
            .into_iter()
            .map(|e| (e, Stats::default()))
            .collect(),
        games: 0,
        faults: Vec::new(),
    };
    let mut tally = Tally {
        standings,
        half_pairs: HashMap::new(),
        llr: config.sprt.map(|_| 0.0),
        reason: StopReason::Completed,
    };
    let pool = Pool {
        players: &config.players,
        openings: &openings,
        settings: &config.settings,
        concurrency: config.concurrency.clamp(1, jobs.len().max(1)),
    };
    let mut queue = jobs.iter().enumerate();
    let next = move || {
        queue.next().map(|(n, job)| {
            let pairing = Pairing {
                white: job.white,
                black: job.black,
                opening: job.opening,
                seed: config.seed.map(|seed| game_seed(seed, n)),
            };
            (n, pairing)
        })
    };
    let watch_job = |n: &usize, _: &Pairing| watch(&jobs[*n]);
    pool.play_watched(stop, next, &watch_job, |n, record| {
        let job = &jobs[n];
        if !tally.add(job, &record, config.sprt.as_ref(), stop) {
            return;
        }
        on_game(GameEvent {
            job,
            record: &record,
            standings: &tally.standings,
            llr: tally.llr,
        });
    });
    if tally.reason == StopReason::Completed
        && stop.load(Ordering::Relaxed)
        && tally.standings.games < jobs.len()
    {
        tally.reason = StopReason::Interrupted;
    }
    TournamentResult {
        standings: tally.standings,
        stop: tally.reason,
        llr: tally.llr,
        scheduled: jobs.len(),
    }
}

/// The running totals of a tournament.
struct Tally {
    standings: Standings,
    /// Scores of the first game of each pair, from the pair's first White's view.
    half_pairs: HashMap<usize, f64>,
    llr: Option<f64>,
    reason: StopReason,
}

impl Tally {
    /// Counts a finished game (and its pair, when both games are in), updates the SPRT
    /// and sets `stop` when it decides; `false` for a game without a result.
    fn add(
        &mut self,
        job: &GameJob,
        record: &GameRecord,
        sprt: Option<&Sprt>,
        stop: &AtomicBool,
    ) -> bool {
        let Some(white_score) = record.white_score() else {
            return false;
        };
        self.standings.games += 1;
        if record.termination.is_fault() {
            match self
                .standings
                .faults
                .iter_mut()
                .find(|(t, _)| *t == record.termination)
            {
                Some((_, count)) => *count += 1,
                None => self.standings.faults.push((record.termination, 1)),
            }
        }
        let (stats, white_is_first) = self.standings.encounter_mut(job.white, job.black);
        let first_score = if white_is_first {
            white_score
        } else {
            1.0 - white_score
        };
        stats.add_game(first_score);
        if let Some(other) = self.half_pairs.remove(&job.pair) {
            stats.add_pair(other, first_score);
        } else {
            self.half_pairs.insert(job.pair, first_score);
        }
        if let Some(sprt) = sprt {
            let value = sprt.llr(&self.standings.encounters[0].1);
            self.llr = Some(value);
            let state = sprt.state(value);
            if state != SprtState::Continue && self.reason == StopReason::Completed {
                self.reason = StopReason::Sprt(state);
                stop.store(true, Ordering::Relaxed);
            }
        }
        true
    }
}
