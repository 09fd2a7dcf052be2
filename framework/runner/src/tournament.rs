//! Running a whole schedule on `-j N` worker threads, tallying results as games finish.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use super::engine::Engine;
use super::game::{GameRecord, GameSettings, Player, Termination, play_game};
use super::openings::Opening;
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
/// };
/// let result = run_tournament(&config, &AtomicBool::new(false), |e| println!("{}", e.record.result));
/// println!("{:?}", result.standings.player(0));
/// ```
pub fn run_tournament(
    config: &TournamentConfig,
    stop: &AtomicBool,
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
    let mut standings = Standings {
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
    let next = AtomicUsize::new(0);
    let mut llr = config.sprt.map(|_| 0.0);
    let mut reason = StopReason::Completed;
    // Scores of the first game of each pair, from the pair's first White's view.
    let mut half_pairs: HashMap<usize, f64> = HashMap::new();
    let workers = config.concurrency.clamp(1, jobs.len().max(1));

    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, GameRecord)>();
        for w in 0..workers {
            let tx = tx.clone();
            let (jobs, next, openings) = (&jobs, &next, &openings);
            std::thread::Builder::new()
                .name(format!("match-worker-{w}"))
                .spawn_scoped(scope, move || {
                    let mut engines: Vec<Option<Engine>> =
                        (0..config.players.len()).map(|_| None).collect();
                    while !stop.load(Ordering::Relaxed) {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(n) else { break };
                        let (white, black) = two_mut(&mut engines, job.white, job.black);
                        let players = [&config.players[job.white], &config.players[job.black]];
                        let record = play_game(
                            players,
                            [white, black],
                            &openings[job.opening],
                            &config.settings,
                            stop,
                        );
                        if tx.send((n, record)).is_err() {
                            break;
                        }
                    }
                    for engine in engines.into_iter().flatten() {
                        engine.quit(Duration::from_millis(300));
                    }
                })
                .expect("spawn match worker");
        }
        drop(tx);
        for (n, record) in rx {
            let job = &jobs[n];
            let Some(white_score) = record.white_score() else {
                continue;
            };
            standings.games += 1;
            if record.termination.is_fault() {
                match standings
                    .faults
                    .iter_mut()
                    .find(|(t, _)| *t == record.termination)
                {
                    Some((_, count)) => *count += 1,
                    None => standings.faults.push((record.termination, 1)),
                }
            }
            let (stats, white_is_first) = standings.encounter_mut(job.white, job.black);
            let first_score = if white_is_first {
                white_score
            } else {
                1.0 - white_score
            };
            stats.add_game(first_score);
            if let Some(other) = half_pairs.remove(&job.pair) {
                stats.add_pair(other, first_score);
            } else {
                half_pairs.insert(job.pair, first_score);
            }
            if let Some(sprt) = &config.sprt {
                let value = sprt.llr(&standings.encounters[0].1);
                llr = Some(value);
                let state = sprt.state(value);
                if state != SprtState::Continue && reason == StopReason::Completed {
                    reason = StopReason::Sprt(state);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            on_game(GameEvent {
                job,
                record: &record,
                standings: &standings,
                llr,
            });
        }
    });
    if reason == StopReason::Completed
        && stop.load(Ordering::Relaxed)
        && standings.games < jobs.len()
    {
        reason = StopReason::Interrupted;
    }
    TournamentResult {
        standings,
        stop: reason,
        llr,
        scheduled: jobs.len(),
    }
}

fn two_mut<T>(items: &mut [T], a: usize, b: usize) -> (&mut T, &mut T) {
    assert_ne!(a, b, "a player cannot play itself");
    if a < b {
        let (lo, hi) = items.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = items.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}
