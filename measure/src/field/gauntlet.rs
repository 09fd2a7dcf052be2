//! `challenge rate BOT --field DIR`: a bot's rating on the field's published scale, from
//! a gauntlet against the field's entries, and the place it would have had.
//!
//! The entries keep their published ratings: the bot alone is fitted, by BayesElo's
//! model with the list's parameters (`results::rate_against`), and its interval adds the
//! published ratings' own uncertainty to the games'. The opponents are chosen as the
//! games come in, in batches of colour-swapped pairs: each next pair goes to the
//! opponent that shrinks the interval most, which is an entry near the bot's current
//! estimate (a game there says most), with a small published interval, and not one
//! already met often (an entry's strength here may differ from its published rating, so
//! the gauntlet spreads over many). Before the first game, the first batch spans the
//! field. The run stops when the interval is within the target, at the game limit, or
//! at Ctrl-C; every finished game is in its state file, and the same command resumes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};
use results::{
    AgainstOptions, GameAgainst, HeldRating, RatingAgainst, expected_information, rate_against,
};
use runner::{EngineConfig, GameSettings, Opening, Pairing, Player, Pool, TimeControl};

use super::game_log::{GameLog, LoggedGame};
use super::manifest::Field;
use super::published::PublishedList;
use crate::matches::{OpeningChoice, openings};
use crate::tune::sha256_hex;
use bot_build::{BotFile, BuildEvent, BuildKind, EngineLimits, LimitPolicy};

/// The spread assumed, in selection only, between an entry's strength here and its
/// published rating: it makes the gauntlet prefer a new opponent to a third pair with
/// the same one.
const SPREAD_ELO: f64 = 40.0;

/// The fewest games before the interval may stop the run.
pub const MIN_GAMES: usize = 24;

/// How to rate a bot.
#[derive(Debug, Clone)]
pub struct RateOptions {
    /// The bot, as the author names it.
    pub bot: String,
    /// Over the token limit or not.
    pub policy: LimitPolicy,
    /// The folder of entries the field was made from (or the field's folder).
    pub field: PathBuf,
    /// The clock.
    pub tc: TimeControl,
    /// Margin and adjudication.
    pub settings: GameSettings,
    /// Games played at once.
    pub concurrency: usize,
    /// Stop once the 95% interval's half-width is at most this (Elo).
    pub target: f64,
    /// Stop after this many games.
    pub max_games: usize,
    /// The state file; `None`: `target/rate/BOT.jsonl` in the current directory.
    pub state: Option<PathBuf>,
    /// Begin anew, replacing the state file's games.
    pub fresh: bool,
}

/// What a gauntlet reports, to the observer passed to [`rate`].
#[derive(Debug)]
pub enum RateEvent<'a> {
    /// The gauntlet begins (or resumes with `resumed` games).
    Began {
        /// The bot.
        bot: &'a BotFile,
        /// Entries it may meet.
        opponents: usize,
        /// The state file.
        state: &'a Path,
        /// Games read back from it.
        resumed: usize,
    },
    /// A build reports.
    Build(BuildEvent<'a>),
    /// A game ended (already in the state file).
    Game {
        /// The game.
        game: &'a LoggedGame,
        /// Games so far.
        played: usize,
        /// The estimate after it.
        rating: Option<RatingAgainst>,
    },
    /// An opponent is left out from now on.
    Dropped {
        /// Its id.
        id: &'a str,
        /// Why.
        reason: String,
    },
}

/// Where a gauntlet ended.
#[derive(Debug, Clone)]
pub struct RateOutcome {
    /// The bot.
    pub bot: BotFile,
    /// Its rating on the published scale (`None` before any game).
    pub rating: Option<RatingAgainst>,
    /// Where it would have placed.
    pub place: Option<Placement>,
    /// Games played, and the bot's wins, draws and losses.
    pub games: usize,
    /// Wins, draws, losses.
    pub wdl: [usize; 3],
    /// Games the bot lost by its own fault.
    pub bot_faults: usize,
    /// Entries met, and the lowest and highest published rating among them.
    pub opponents: (usize, f64, f64),
    /// The published list's length.
    pub field_size: usize,
    /// Whether Ctrl-C ended it.
    pub stopped: bool,
    /// How long this run took (not the earlier runs it resumed).
    pub elapsed: Duration,
    /// The state file.
    pub state: PathBuf,
}

/// A place on the published list: about `place`th of `of`, from `best` to `worst` over
/// the 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The place at the rating.
    pub place: usize,
    /// The place at the top of the interval.
    pub best: usize,
    /// The place at its bottom.
    pub worst: usize,
    /// Rows on the list.
    pub of: usize,
}

impl Placement {
    /// The place of a rating `elo ± interval` on `list`.
    ///
    /// ```
    /// use measure::{Placement, PublishedList, PublishedRow};
    /// let row = |rank, elo| PublishedRow { rank, name: format!("e{rank}"), elo, interval: 30.0, games: 64 };
    /// let list = PublishedList { rows: vec![row(1, 2000.0), row(2, 1800.0), row(3, 1500.0)] };
    /// let place = Placement::on(&list, 1900.0, 150.0);
    /// assert_eq!((place.place, place.best, place.worst, place.of), (2, 1, 3, 3));
    /// ```
    pub fn on(list: &PublishedList, elo: f64, interval: f64) -> Placement {
        Placement {
            place: list.place(elo),
            best: list.place(elo + interval),
            worst: list.place(elo - interval),
            of: list.rows.len(),
        }
    }
}

/// An entry the bot may meet.
struct Opponent {
    id: String,
    held: HeldRating,
    dropped: bool,
}

/// Rates `options.bot` against the field: resumes its state or begins one, plays until
/// the interval is within the target, the game limit, or `stop`.
pub fn rate(
    options: &RateOptions,
    stop: &AtomicBool,
    observe: &(dyn Fn(RateEvent<'_>) + Sync),
) -> Result<RateOutcome> {
    let started = Instant::now();
    let (field, folder) = Field::read(&options.field)?;
    let build_observe = |event: BuildEvent<'_>| observe(RateEvent::Build(event));
    let (bot, engine) = bot_build::prepare(&options.bot, options.policy, &build_observe)?;
    let mut gauntlet = Gauntlet::new(&field, &folder, &bot, options)?;
    ensure!(
        !gauntlet.opponents.is_empty(),
        "the field in {} has no entry that played without a fault and has a published rating: make it with `challenge field`",
        folder.display()
    );
    let state = options.state.clone().unwrap_or_else(|| default_state(&bot));
    let header = serde_json::json!({
        "bot": bot.path.display().to_string(),
        "bot_sha256": sha256_hex(&std::fs::read(&bot.path)?),
        "field": folder.canonicalize().unwrap_or(folder.clone()).display().to_string(),
        "tc": options.tc.to_string(),
    });
    let mut log = GameLog::open(&state, &header, options.fresh, "challenge rate")?;
    gauntlet.drop_faulty(&log.games, observe);
    observe(RateEvent::Began {
        bot: &bot,
        opponents: gauntlet.opponents.len(),
        state: &state,
        resumed: log.games.len(),
    });
    let me = Player::new(EngineConfig::new(bot.name.clone(), engine.path), options.tc);
    let mut stopped = false;
    while !gauntlet.finished(&log.games) {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            stopped = true;
            break;
        }
        gauntlet.batch(&me, &mut log, stop, observe)?;
    }
    stopped |= stop.load(std::sync::atomic::Ordering::Relaxed);
    Ok(gauntlet.outcome(&field.list, &log, bot, stopped, started.elapsed()))
}

/// `target/rate/<bot>.jsonl` in the current directory.
pub fn default_state(bot: &BotFile) -> PathBuf {
    bot_build::work_target_dir()
        .join("rate")
        .join(format!("{}.jsonl", bot.name))
}

/// The gauntlet's players and settings.
struct Gauntlet<'a> {
    options: &'a RateOptions,
    folder: PathBuf,
    bot: String,
    opponents: Vec<Opponent>,
    index: HashMap<String, usize>,
    openings: Vec<Opening>,
    files: HashMap<String, String>,
    /// What each opponent's engine is built to enforce, by id.
    limits: HashMap<String, EngineLimits>,
}

impl<'a> Gauntlet<'a> {
    fn new(
        field: &Field,
        folder: &Path,
        bot: &BotFile,
        options: &'a RateOptions,
    ) -> Result<Gauntlet<'a>> {
        let mut opponents = Vec::new();
        let mut files = HashMap::new();
        let mut limits = HashMap::new();
        for (entry, row) in field.playable_at(options.tc) {
            ensure!(
                entry.id != bot.name,
                "the bot's name `{}` is an entry's id in the field: copy it under another name",
                bot.name
            );
            opponents.push(Opponent {
                id: entry.id.clone(),
                held: HeldRating {
                    elo: row.elo,
                    interval: row.interval,
                },
                dropped: false,
            });
            files.insert(entry.id.clone(), entry.file.clone().unwrap_or_default());
            limits.insert(entry.id.clone(), entry.engine_limits());
        }
        opponents.sort_by(|a, b| b.held.elo.total_cmp(&a.held.elo));
        let index = (opponents.iter().enumerate())
            .map(|(i, o)| (o.id.clone(), i))
            .collect();
        let (openings, _) = openings(&OpeningChoice {
            file: None,
            plies: None,
            shuffle_seed: None,
        })?;
        Ok(Gauntlet {
            options,
            folder: folder.to_path_buf(),
            bot: bot.name.clone(),
            opponents,
            index,
            openings,
            files,
            limits,
        })
    }

    /// Leaves out the opponents that were at fault in a game already played.
    fn drop_faulty(&mut self, games: &[LoggedGame], observe: &(dyn Fn(RateEvent<'_>) + Sync)) {
        for game in games {
            if let Some(id) = game.faulty_id().filter(|id| *id != self.bot) {
                self.drop_opponent(
                    id,
                    format!("it lost a game by {}", game.termination),
                    observe,
                );
            }
        }
    }

    fn drop_opponent(
        &mut self,
        id: &str,
        reason: String,
        observe: &(dyn Fn(RateEvent<'_>) + Sync),
    ) {
        if let Some(&i) = self.index.get(id)
            && !self.opponents[i].dropped
        {
            self.opponents[i].dropped = true;
            observe(RateEvent::Dropped { id, reason });
        }
    }

    /// The bot's games as the fit reads them: an opponent's faults left out (they say
    /// nothing of the bot), the bot's own kept (its losses).
    fn rated_games(&self, games: &[LoggedGame]) -> Vec<GameAgainst> {
        games
            .iter()
            .filter_map(|g| {
                let white = g.white == self.bot;
                let other = if white { &g.black } else { &g.white };
                let opponent = *self.index.get(other.as_str())?;
                if g.faulty_id() == Some(other.as_str()) {
                    return None;
                }
                let score = if white { g.score } else { 1.0 - g.score };
                Some(GameAgainst {
                    opponent,
                    white,
                    score,
                    count: 1,
                })
            })
            .collect()
    }

    fn estimate(&self, games: &[LoggedGame]) -> Option<RatingAgainst> {
        let held: Vec<HeldRating> = self.opponents.iter().map(|o| o.held).collect();
        rate_against(&held, &self.rated_games(games), &AgainstOptions::default())
    }

    fn finished(&self, games: &[LoggedGame]) -> bool {
        if games.len() >= self.options.max_games || self.opponents.iter().all(|o| o.dropped) {
            return true;
        }
        games.len() >= MIN_GAMES
            && self
                .estimate(games)
                .is_some_and(|r| r.interval <= self.options.target)
    }

    /// Plays one batch: two pairs per game played at once, or what the game limit leaves.
    fn batch(
        &mut self,
        me: &Player,
        log: &mut GameLog,
        stop: &AtomicBool,
        observe: &(dyn Fn(RateEvent<'_>) + Sync),
    ) -> Result<()> {
        let left = self.options.max_games - log.games.len();
        let pairs = (2 * self.options.concurrency.max(1)).min(left.div_ceil(2));
        let picks = self.pick_built(pairs, &log.games, observe)?;
        if picks.is_empty() {
            return Ok(());
        }
        let mut players = vec![me.clone()];
        players.extend(picks.iter().map(|(_, player)| player.clone()));
        let first_pair = log.games.len() / 2;
        let mut jobs = Vec::new();
        for slot in 1..players.len() {
            let opening = (first_pair + slot - 1) % self.openings.len();
            jobs.push(Pairing {
                white: 0,
                black: slot,
                opening,
                seed: None,
            });
            jobs.push(Pairing {
                white: slot,
                black: 0,
                opening,
                seed: None,
            });
        }
        jobs.truncate(left);
        let mut queue = jobs.into_iter();
        let pool = Pool {
            players: &players,
            openings: &self.openings,
            settings: &self.options.settings,
            concurrency: self.options.concurrency.max(1),
        };
        let mut failure = None;
        let mut faulty = Vec::new();
        pool.play(
            stop,
            move || queue.next().map(|p| (p, p)),
            |pairing, record| {
                let ids = [players[pairing.white].name(), players[pairing.black].name()];
                let Some(game) = LoggedGame::of(&record, ids, pairing.opening) else {
                    return;
                };
                if let Err(err) = log.append(game.clone()) {
                    failure.get_or_insert(err);
                    return;
                }
                if let Some(id) = game.faulty_id().filter(|id| *id != self.bot) {
                    faulty.push((
                        id.to_string(),
                        format!("{}: {}", game.termination, record.detail),
                    ));
                }
                observe(RateEvent::Game {
                    game: &game,
                    played: log.games.len(),
                    rating: self.estimate(&log.games),
                });
            },
        );
        for (id, reason) in faulty {
            self.drop_opponent(&id, reason, observe);
        }
        failure.map_or(Ok(()), Err)
    }

    /// `pairs` opponents chosen and built; an opponent whose build fails is left out
    /// and another chosen.
    fn pick_built(
        &mut self,
        pairs: usize,
        games: &[LoggedGame],
        observe: &(dyn Fn(RateEvent<'_>) + Sync),
    ) -> Result<Vec<(usize, Player)>> {
        loop {
            let estimate = self.estimate(games).map(|r| r.elo);
            let picks = choose(&self.opponents, &self.rated_games(games), estimate, pairs);
            let bots: Vec<BotFile> = picks
                .iter()
                .map(|&i| {
                    let id = &self.opponents[i].id;
                    BotFile {
                        name: id.clone(),
                        path: self.folder.join(&self.files[id]),
                    }
                })
                .collect();
            let build_observe = |event: BuildEvent<'_>| observe(RateEvent::Build(event));
            let limits_of = |bot: &BotFile| self.limits[&bot.name];
            let built =
                bot_build::build_all_with(&bots, BuildKind::Untrusted, &limits_of, &build_observe);
            let mut players = Vec::new();
            let mut failed = false;
            for ((&i, bot), result) in picks.iter().zip(&bots).zip(built) {
                match result {
                    Ok(engine) => players.push((
                        i,
                        Player::new(
                            EngineConfig::new(bot.name.clone(), engine.path)
                                .memory_limit(engine.limits.memory_bytes),
                            self.options.tc,
                        ),
                    )),
                    Err(err) if err.is_bots_fault() => {
                        failed = true;
                        let reason =
                            format!("it does not build now: {}", first_line(&err.to_string()));
                        self.drop_opponent(&bot.name, reason, observe);
                    }
                    Err(err) => return Err(err).context("cannot build an opponent"),
                }
            }
            if !failed || self.opponents.iter().all(|o| o.dropped) {
                return Ok(players);
            }
        }
    }

    fn outcome(
        &self,
        list: &PublishedList,
        log: &GameLog,
        bot: BotFile,
        stopped: bool,
        elapsed: Duration,
    ) -> RateOutcome {
        let rated = self.rated_games(&log.games);
        let rating = self.estimate(&log.games);
        let mut wdl = [0; 3];
        for g in &rated {
            wdl[if g.score > 0.75 {
                0
            } else if g.score < 0.25 {
                2
            } else {
                1
            }] += 1;
        }
        let mut met: Vec<usize> = rated.iter().map(|g| g.opponent).collect();
        met.sort_unstable();
        met.dedup();
        let elos = met.iter().map(|&i| self.opponents[i].held.elo);
        let low = elos.clone().fold(f64::INFINITY, f64::min);
        let high = elos.fold(f64::NEG_INFINITY, f64::max);
        RateOutcome {
            place: rating.map(|r| Placement::on(list, r.elo, r.interval)),
            rating,
            games: log.games.len(),
            wdl,
            bot_faults: (log.games.iter())
                .filter(|g| g.faulty_id() == Some(self.bot.as_str()))
                .count(),
            opponents: (met.len(), low, high),
            field_size: list.rows.len(),
            stopped,
            elapsed,
            state: log.path().to_path_buf(),
            bot,
        }
    }
}

/// The opponents of the next `pairs` pairs (indices into `opponents`, which are sorted
/// best first). Without an estimate, spread over the field; with one, each pair goes to
/// the opponent that leaves the smallest variance of the rating (see the module's
/// documentation), counting the pairs already chosen.
fn choose(
    opponents: &[Opponent],
    games: &[GameAgainst],
    estimate: Option<f64>,
    pairs: usize,
) -> Vec<usize> {
    let open: Vec<usize> = (0..opponents.len())
        .filter(|&i| !opponents[i].dropped)
        .collect();
    if open.is_empty() {
        return Vec::new();
    }
    let Some(estimate) = estimate else {
        return (0..pairs)
            .map(|k| open[(2 * k + 1) * open.len() / (2 * pairs.max(1))])
            .collect();
    };
    let options = AgainstOptions::default();
    let per_game: Vec<f64> = opponents
        .iter()
        .map(|o| expected_information(estimate - o.held.elo, &options))
        .collect();
    let mut information = vec![0.0; opponents.len()];
    for g in games {
        information[g.opponent] += per_game[g.opponent];
    }
    let spread: Vec<f64> = opponents
        .iter()
        .map(|o| (o.held.interval / runner::Z95).powi(2) + SPREAD_ELO * SPREAD_ELO)
        .collect();
    let mut picks = Vec::with_capacity(pairs);
    for _ in 0..pairs {
        let total: f64 = information.iter().sum();
        let weighted: f64 = (information.iter().zip(&spread))
            .map(|(h, s)| h * h * s)
            .sum();
        let variance_with = |j: usize| {
            let add = 2.0 * per_game[j];
            let t = total + add;
            1.0 / t + (weighted + (2.0 * information[j] * add + add * add) * spread[j]) / (t * t)
        };
        let best = open
            .iter()
            .copied()
            .min_by(|&a, &b| variance_with(a).total_cmp(&variance_with(b)))
            .expect("open is not empty");
        information[best] += 2.0 * per_game[best];
        picks.push(best);
    }
    picks
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// Refuses a gauntlet that cannot run: named here so the message is the same whether
/// the field or the options are at fault.
pub fn check_options(options: &RateOptions) -> Result<()> {
    if !(options.target.is_finite() && options.target > 0.0) {
        bail!("--target must be a number of Elo above 0");
    }
    ensure!(options.max_games >= 2, "--games must be at least 2");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(elos: &[f64]) -> Vec<Opponent> {
        elos.iter()
            .enumerate()
            .map(|(i, &elo)| Opponent {
                id: format!("e{i}"),
                held: HeldRating {
                    elo,
                    interval: 40.0,
                },
                dropped: false,
            })
            .collect()
    }

    #[test]
    fn the_first_batch_spans_the_field() {
        let opponents = field(&[
            2400.0, 2200.0, 2000.0, 1800.0, 1600.0, 1400.0, 1200.0, 1000.0,
        ]);
        assert_eq!(choose(&opponents, &[], None, 4), [1, 3, 5, 7]);
    }

    #[test]
    fn later_pairs_go_near_the_estimate_and_spread_over_entries() {
        let elos: Vec<f64> = (0..40).map(|i| 2400.0 - 25.0 * f64::from(i)).collect();
        let opponents = field(&elos);
        let picks = choose(&opponents, &[], Some(1900.0), 8);
        for &p in &picks {
            assert!((opponents[p].held.elo - 1900.0).abs() <= 150.0, "{picks:?}");
        }
        let mut distinct = picks.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert!(distinct.len() >= 6, "{picks:?}");
    }

    #[test]
    fn dropped_opponents_are_never_chosen() {
        let mut opponents = field(&[2000.0, 1900.0]);
        opponents[1].dropped = true;
        assert_eq!(choose(&opponents, &[], Some(1900.0), 3), [0, 0, 0]);
        opponents[0].dropped = true;
        assert!(choose(&opponents, &[], Some(1900.0), 3).is_empty());
    }
}
