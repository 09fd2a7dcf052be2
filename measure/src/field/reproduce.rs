//! `challenge field DIR --round-robin N`: a round robin of `N` entries spread over the
//! published scale, rated by the published list's own model (BayesElo's, its defaults),
//! and the Spearman correlation of those ratings with the published ones. It checks the
//! ports, the runner and the ratings against the published table at once.
//!
//! Each pair of entries plays its games one after the other with its own two engine
//! processes (so no more than two engines per game played at once are alive), from the
//! kit's openings, colours swapped; every finished game goes into the state file, and
//! the same command resumes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use results::{Model, RatedGame, RatingOptions, fit};
use runner::{EngineConfig, GameSettings, Opening, Player, TimeControl, play_game};

use super::game_log::{GameLog, LoggedGame};
use super::manifest::{Field, FieldEntry};
use super::published::PublishedRow;
use crate::matches::{OpeningChoice, openings};
use bot_build::{BotFile, BuildEvent, BuildKind, EngineLimits};

/// How to play the round robin.
#[derive(Debug, Clone)]
pub struct RoundRobinOptions {
    /// The folder of entries the field was made from (or the field's folder).
    pub field: PathBuf,
    /// Entries in it, spread over the published ranks.
    pub entries: usize,
    /// Games each pair plays (even: each opening with both colours).
    pub games_per_pair: usize,
    /// The clock.
    pub tc: TimeControl,
    /// Margin and adjudication.
    pub settings: GameSettings,
    /// Pairs played at once.
    pub concurrency: usize,
    /// The state file; `None`: `round-robin-N.jsonl` in the field's folder.
    pub state: Option<PathBuf>,
    /// Begin anew.
    pub fresh: bool,
}

/// What the round robin reports, to the observer passed to [`round_robin`].
#[derive(Debug)]
pub enum RoundRobinEvent<'a> {
    /// It begins: the entries, the games scheduled, those read back from the state.
    Began {
        /// The entries, best published first.
        entries: &'a [(&'a FieldEntry, &'a PublishedRow)],
        /// Games in all.
        scheduled: usize,
        /// Games already played.
        resumed: usize,
        /// The state file.
        state: &'a Path,
    },
    /// A build reports.
    Build(BuildEvent<'a>),
    /// A game ended (already in the state file).
    Game {
        /// The game.
        game: &'a LoggedGame,
        /// Games played so far.
        played: usize,
        /// Games in all.
        scheduled: usize,
    },
}

/// One entry's line in the result.
#[derive(Debug, Clone, PartialEq)]
pub struct ReproducedRow {
    /// Its id.
    pub id: String,
    /// Its published name.
    pub name: String,
    /// Its published rank and rating.
    pub published: (usize, f64),
    /// Its rating here, shifted so that the entries' mean is the published mean, and the
    /// half-width of its 95% interval.
    pub kit: Option<(f64, f64)>,
    /// Its score here, out of its games.
    pub score: (f64, usize),
}

/// The round robin's result.
#[derive(Debug, Clone)]
pub struct RoundRobinOutcome {
    /// One row per entry, best published first.
    pub rows: Vec<ReproducedRow>,
    /// Spearman's rank correlation between the kit's ratings and the published ones
    /// (`None` with fewer than two rated entries).
    pub spearman: Option<f64>,
    /// Games played, and games scheduled.
    pub games: (usize, usize),
    /// Games an engine lost by its fault.
    pub faults: usize,
    /// Whether Ctrl-C ended it before every game was played.
    pub stopped: bool,
    /// How long this run took.
    pub elapsed: Duration,
    /// The state file.
    pub state: PathBuf,
}

/// Plays (or resumes) the round robin and rates it.
pub fn round_robin(
    options: &RoundRobinOptions,
    stop: &AtomicBool,
    observe: &(dyn Fn(RoundRobinEvent<'_>) + Sync),
) -> Result<RoundRobinOutcome> {
    let started = Instant::now();
    ensure!(
        options.entries >= 2,
        "a round robin needs at least 2 entries"
    );
    ensure!(
        options.games_per_pair >= 2 && options.games_per_pair.is_multiple_of(2),
        "games per pair must be even and at least 2 (each opening with both colours)"
    );
    let (field, folder) = Field::read(&options.field)?;
    let chosen = spread(&field, options.entries, options.tc)?;
    let state = options
        .state
        .clone()
        .unwrap_or_else(|| folder.join(format!("round-robin-{}.jsonl", chosen.len())));
    let ids: Vec<&str> = chosen.iter().map(|(e, _)| e.id.as_str()).collect();
    let header = serde_json::json!({
        "entries": ids,
        "games_per_pair": options.games_per_pair,
        "tc": options.tc.to_string(),
    });
    let log = GameLog::open(
        &state,
        &header,
        options.fresh,
        "challenge field --round-robin",
    )?;
    let (openings, _) = openings(&OpeningChoice {
        file: None,
        plies: None,
        shuffle_seed: None,
    })?;
    let jobs = schedule(chosen.len(), options.games_per_pair, openings.len());
    let todo = not_played(&jobs, &ids, &log.games);
    observe(RoundRobinEvent::Began {
        entries: &chosen,
        scheduled: jobs.len(),
        resumed: jobs.len() - todo.iter().map(|(_, games)| games.len()).sum::<usize>(),
        state: &state,
    });
    let players = build_players(&chosen, &folder, options.tc, observe)?;
    let play = Play {
        players: &players,
        openings: &openings,
        settings: &options.settings,
        stop,
        scheduled: jobs.len(),
        observe,
    };
    let log = play.pairs(todo, log, options.concurrency)?;
    let stopped = log.games.len() < jobs.len();
    Ok(rate(&chosen, &log, jobs.len(), stopped, started.elapsed()))
}

/// `n` entries in the field at `tc` spread evenly over the published ranks, best first.
fn spread(field: &Field, n: usize, tc: TimeControl) -> Result<Vec<(&FieldEntry, &PublishedRow)>> {
    let mut playable: Vec<(&FieldEntry, &PublishedRow)> = field.playable_at(tc).collect();
    playable.sort_by_key(|(_, row)| row.rank);
    playable.dedup_by_key(|(_, row)| row.rank);
    ensure!(
        playable.len() >= n,
        "the field has {} entries that played without a fault at {tc} or faster and have a published rating; {n} were asked for",
        playable.len()
    );
    if n == 1 {
        return Ok(playable.into_iter().take(1).collect());
    }
    let last = playable.len() - 1;
    Ok((0..n)
        .map(|k| playable[(k * last + (n - 1) / 2) / (n - 1)])
        .collect())
}

/// A game of the schedule: White's and Black's indices and the opening.
type Job = (usize, usize, usize);

/// Every pair's games: each of its `games / 2` openings with both colours.
fn schedule(players: usize, games: usize, openings: usize) -> Vec<Job> {
    let mut jobs = Vec::new();
    let mut pair = 0;
    for a in 0..players {
        for b in a + 1..players {
            for k in 0..games / 2 {
                let opening = (pair * (games / 2) + k) % openings.max(1);
                jobs.push((a, b, opening));
                jobs.push((b, a, opening));
            }
            pair += 1;
        }
    }
    jobs
}

/// The games not in the log yet, grouped by pair (each played game accounts for one
/// scheduled game of its players, colours and opening).
fn not_played(jobs: &[Job], ids: &[&str], games: &[LoggedGame]) -> Vec<((usize, usize), Vec<Job>)> {
    let mut played: HashMap<(&str, &str, usize), usize> = HashMap::new();
    for g in games {
        *played
            .entry((g.white.as_str(), g.black.as_str(), g.opening))
            .or_insert(0) += 1;
    }
    let mut by_pair: Vec<((usize, usize), Vec<Job>)> = Vec::new();
    for &(white, black, opening) in jobs {
        if let Some(n) = played.get_mut(&(ids[white], ids[black], opening))
            && *n > 0
        {
            *n -= 1;
            continue;
        }
        let pair = (white.min(black), white.max(black));
        match by_pair.last_mut() {
            Some((p, list)) if *p == pair => list.push((white, black, opening)),
            _ => by_pair.push((pair, vec![(white, black, opening)])),
        }
    }
    by_pair
}

fn build_players(
    chosen: &[(&FieldEntry, &PublishedRow)],
    folder: &Path,
    tc: TimeControl,
    observe: &(dyn Fn(RoundRobinEvent<'_>) + Sync),
) -> Result<Vec<Player>> {
    let bots: Vec<BotFile> = chosen
        .iter()
        .map(|(e, _)| BotFile {
            name: e.id.clone(),
            path: folder.join(e.file.as_deref().unwrap_or_default()),
        })
        .collect();
    let build_observe = |event: BuildEvent<'_>| observe(RoundRobinEvent::Build(event));
    let limits: HashMap<&str, EngineLimits> = chosen
        .iter()
        .map(|(e, _)| (e.id.as_str(), e.engine_limits()))
        .collect();
    let limits_of = |bot: &BotFile| limits[bot.name.as_str()];
    let built = bot_build::build_all_with(&bots, BuildKind::Untrusted, &limits_of, &build_observe);
    bots.iter()
        .zip(built)
        .map(|(bot, result)| {
            let engine = result.with_context(|| format!("cannot build entry {}", bot.name))?;
            let config = EngineConfig::new(bot.name.clone(), engine.path)
                .memory_limit(engine.limits.memory_bytes);
            Ok(Player::new(config, tc))
        })
        .collect()
}

/// What every pair's games share.
struct Play<'a> {
    players: &'a [Player],
    openings: &'a [Opening],
    settings: &'a GameSettings,
    stop: &'a AtomicBool,
    scheduled: usize,
    observe: &'a (dyn Fn(RoundRobinEvent<'_>) + Sync),
}

impl Play<'_> {
    /// Plays the pairs `concurrency` at a time, each pair's games with its own engines.
    fn pairs(
        &self,
        todo: Vec<((usize, usize), Vec<Job>)>,
        log: GameLog,
        concurrency: usize,
    ) -> Result<GameLog> {
        let next = AtomicUsize::new(0);
        let shared = Mutex::new((log, None::<anyhow::Error>));
        std::thread::scope(|scope| {
            for _ in 0..concurrency.clamp(1, todo.len().max(1)) {
                scope.spawn(|| {
                    while let Some((_, games)) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                        if self.stop.load(Ordering::Relaxed) {
                            break;
                        }
                        self.pair(games, &shared);
                    }
                });
            }
        });
        let (log, failure) = shared.into_inner().unwrap_or_else(|p| p.into_inner());
        failure.map_or(Ok(log), Err)
    }

    fn pair(&self, games: &[Job], shared: &Mutex<(GameLog, Option<anyhow::Error>)>) {
        let mut engines: HashMap<usize, Option<runner::Engine>> = HashMap::new();
        for &(white, black, opening) in games {
            let (mut w, mut b) = (
                engines.remove(&white).flatten(),
                engines.remove(&black).flatten(),
            );
            let record = play_game(
                [&self.players[white], &self.players[black]],
                [&mut w, &mut b],
                &self.openings[opening % self.openings.len()],
                self.settings,
                self.stop,
            );
            engines.insert(white, w);
            engines.insert(black, b);
            let ids = [self.players[white].name(), self.players[black].name()];
            let Some(game) = LoggedGame::of(&record, ids, opening) else {
                break;
            };
            let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
            let (log, failure) = &mut *guard;
            if let Err(err) = log.append(game.clone()) {
                failure.get_or_insert(err);
                self.stop.store(true, Ordering::Relaxed);
                break;
            }
            (self.observe)(RoundRobinEvent::Game {
                game: &game,
                played: log.games.len(),
                scheduled: self.scheduled,
            });
        }
        for engine in engines.into_values().flatten() {
            engine.quit(Duration::from_millis(300));
        }
    }
}

/// The entries' ratings by the published list's model, and their correlation with it.
fn rate(
    chosen: &[(&FieldEntry, &PublishedRow)],
    log: &GameLog,
    scheduled: usize,
    stopped: bool,
    elapsed: Duration,
) -> RoundRobinOutcome {
    let index: HashMap<&str, usize> = (chosen.iter().enumerate())
        .map(|(i, (e, _))| (e.id.as_str(), i))
        .collect();
    let mut score = vec![(0.0, 0usize); chosen.len()];
    let games: Vec<RatedGame> = (log.games.iter())
        .filter_map(|g| {
            let (white, black) = (*index.get(g.white.as_str())?, *index.get(g.black.as_str())?);
            score[white].0 += g.score;
            score[white].1 += 1;
            score[black].0 += 1.0 - g.score;
            score[black].1 += 1;
            Some(RatedGame {
                white,
                black,
                score: g.score,
                count: 1,
            })
        })
        .collect();
    let options = RatingOptions {
        model: Model::BayesElo {
            advantage: results::BAYESELO_ADVANTAGE,
            draw_elo: results::BAYESELO_DRAW_ELO,
        },
        ..RatingOptions::default()
    };
    let fitted = fit(chosen.len(), &games, &options);
    let rated: Vec<(f64, f64)> = (chosen.iter().zip(&fitted.ratings))
        .filter_map(|((_, row), r)| Some((row.elo, r.as_ref()?.elo)))
        .collect();
    let shift = if rated.is_empty() {
        0.0
    } else {
        rated.iter().map(|(p, k)| p - k).sum::<f64>() / rated.len() as f64
    };
    let rows = (chosen.iter().zip(&fitted.ratings).zip(score))
        .map(|(((entry, row), rating), score)| ReproducedRow {
            id: entry.id.clone(),
            name: row.name.clone(),
            published: (row.rank, row.elo),
            kit: rating.map(|r| (r.elo + shift, r.interval)),
            score,
        })
        .collect();
    let (published, kit): (Vec<f64>, Vec<f64>) = rated.into_iter().unzip();
    RoundRobinOutcome {
        rows,
        spearman: spearman(&published, &kit),
        games: (log.games.len(), scheduled),
        faults: log.games.iter().filter(|g| g.faulty.is_some()).count(),
        stopped,
        elapsed,
        state: log.path().to_path_buf(),
    }
}

/// Spearman's rank correlation: Pearson's correlation of the ranks, ties given their
/// mean rank (`None` for fewer than two values or a constant list).
///
/// ```
/// assert_eq!(measure::spearman(&[1.0, 2.0, 3.0], &[10.0, 30.0, 20.0]), Some(0.5));
/// assert_eq!(measure::spearman(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), Some(-1.0));
/// ```
pub fn spearman(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != b.len() || a.len() < 2 {
        return None;
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let mean = (a.len() as f64 + 1.0) / 2.0;
    let (mut cov, mut va, mut vb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        cov += (x - mean) * (y - mean);
        va += (x - mean) * (x - mean);
        vb += (y - mean) * (y - mean);
    }
    (va > 0.0 && vb > 0.0).then(|| cov / (va * vb).sqrt())
}

/// Each value's rank from 1, ties given the mean of their ranks.
fn ranks(values: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&i, &j| values[i].total_cmp(&values[j]));
    let mut rank = vec![0.0; values.len()];
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && values[order[end]] == values[order[start]] {
            end += 1;
        }
        let mean = (start + end + 1) as f64 / 2.0;
        for &i in &order[start..end] {
            rank[i] = mean;
        }
        start = end;
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pair_plays_each_opening_with_both_colours() {
        let jobs = schedule(3, 4, 100);
        assert_eq!(jobs.len(), 3 * 4);
        assert_eq!(&jobs[..4], &[(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1)]);
        assert_eq!(&jobs[4..6], &[(0, 2, 2), (2, 0, 2)]);
    }

    #[test]
    fn played_games_are_not_played_again() {
        let jobs = schedule(3, 2, 10);
        let ids = ["a", "b", "c"];
        let game = |white: &str, black: &str, opening| LoggedGame {
            white: white.into(),
            black: black.into(),
            opening,
            score: 1.0,
            termination: "checkmate".into(),
            faulty: None,
        };
        let todo = not_played(&jobs, &ids, &[game("a", "b", 0), game("c", "a", 1)]);
        assert_eq!(
            todo,
            [
                ((0, 1), vec![(1, 0, 0)]),
                ((0, 2), vec![(0, 2, 1)]),
                ((1, 2), vec![(1, 2, 2), (2, 1, 2)]),
            ]
        );
    }

    #[test]
    fn ties_share_their_mean_rank() {
        assert_eq!(ranks(&[5.0, 1.0, 5.0, 3.0]), [3.5, 1.0, 3.5, 2.0]);
        assert_eq!(spearman(&[1.0, 1.0], &[1.0, 2.0]), None);
    }
}
