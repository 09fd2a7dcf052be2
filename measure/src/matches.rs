//! `challenge match`'s domain: the players and settings of a match, played on the
//! runner's tournament loop, with PGN and JSON output; its progress and end go to the
//! caller's observer as [`MatchEvent`]s.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, Result};
use framework::chess::Color;
use framework::notation::write_game;
use runner::GameJob;
use runner::{
    EngineConfig, GameEvent, GameSettings, Opening, Player, SearchStats, Sprt, TimeControl,
    TournamentConfig, TournamentResult, load_openings, pairs_for_games, run_tournament_watched,
    shuffle,
};
use serde_json::{Value, json};

use crate::match_summary::summary_json;
use bot_build::{BuildEvent, LimitPolicy};
use runner::{GameWatch, LiveEnd, LiveStart};

/// The match `challenge match` plays with no players named: the kit's two reference
/// bots, the modern one first so the figures read as its gain over Turing's rules.
pub const DEFAULT_PLAYERS: [&str; 2] = ["turochamp_modern", "turochamp_faithful"];

/// Where the openings come from and in which order they are played.
#[derive(Debug, Clone)]
pub struct OpeningChoice {
    /// An EPD/FEN or PGN file; `None`: the kit's openings/default.epd.
    pub file: Option<PathBuf>,
    /// Plies of each PGN opening to play (`None`: all its moves).
    pub plies: Option<usize>,
    /// Shuffle them with this seed instead of playing them in order.
    pub shuffle_seed: Option<u64>,
}

/// Everything a match needs.
#[derive(Debug, Clone)]
pub struct MatchOptions {
    /// The tournament itself: players, format, pairs, openings, concurrency, settings, SPRT.
    pub config: TournamentConfig,
    /// Where the openings came from, for the summary.
    pub opening_source: String,
    /// The seed for `--order random`, for the summary.
    pub seed: u64,
    /// Whether the openings were shuffled with `seed`.
    pub shuffled: bool,
    /// Append each finished game to this PGN file.
    pub pgn: Option<PathBuf>,
    /// Write the summary as JSON here.
    pub json: Option<PathBuf>,
    /// The PGN `Event` tag.
    pub event: String,
}

/// What a match reports while it plays, to the observer passed to [`run_match`].
#[derive(Debug)]
pub enum MatchEvent<'a> {
    /// The match starts.
    Started {
        /// Its options.
        options: &'a MatchOptions,
        /// The games scheduled (fewer are played when the SPRT decides or it is stopped).
        scheduled: usize,
    },
    /// A game finished (already appended to the PGN file).
    Game(GameEvent<'a>),
    /// The match ended; the JSON summary is written next.
    Finished {
        /// Its options.
        options: &'a MatchOptions,
        /// Its standings, statistics and why it ended.
        result: &'a TournamentResult,
        /// Each player's search statistics, in the order of the players.
        search: &'a [SearchStats],
        /// How long it took.
        elapsed: Duration,
    },
}

/// A bot, checked and built (the build reports to `observe`), as a player.
pub fn bot_player(
    spec: &str,
    policy: LimitPolicy,
    tc: TimeControl,
    observe: &(dyn Fn(BuildEvent<'_>) + Sync),
) -> Result<Player> {
    let (bot, engine) = bot_build::prepare(spec, policy, observe)?;
    Ok(Player::new(EngineConfig::new(bot.name, engine.path), tc))
}

/// The openings to play and where they came from.
pub fn openings(choice: &OpeningChoice) -> Result<(Vec<Opening>, String)> {
    let (mut list, source) = match &choice.file {
        Some(path) => (
            load_openings(path, choice.plies)?,
            path.display().to_string(),
        ),
        None => {
            let default = Path::new(bot_build::KIT_ROOT)
                .join("openings")
                .join("default.epd");
            if default.exists() {
                (
                    load_openings(&default, None)?,
                    "openings/default.epd".to_string(),
                )
            } else {
                (
                    vec![Opening::startpos()],
                    "the standard start position".to_string(),
                )
            }
        }
    };
    if let Some(seed) = choice.shuffle_seed {
        shuffle(&mut list, seed);
    }
    Ok((list, source))
}

/// Gives duplicate names a `-2`, `-3`... suffix so PGN and standings tell them apart.
pub fn unique_names(players: &mut [Player]) {
    for i in 1..players.len() {
        let base = players[i].engine.name.clone();
        let mut n = 1;
        while players[..i]
            .iter()
            .any(|p| p.engine.name == players[i].engine.name)
        {
            n += 1;
            players[i].engine.name = format!("{base}-{n}");
        }
    }
}

/// The tournament settings shared by every match: `games` per pair rounded up to
/// colour-swapped pairs.
pub fn tournament(
    players: Vec<Player>,
    format: runner::Format,
    games: usize,
    openings: Vec<Opening>,
    concurrency: usize,
    settings: GameSettings,
    sprt: Option<Sprt>,
) -> TournamentConfig {
    TournamentConfig {
        players,
        format,
        pairs: pairs_for_games(games),
        openings,
        concurrency,
        settings,
        sprt,
        seed: None,
    }
}

/// What the match writes while it runs: the PGN file, and the faults and each player's
/// search statistics for the summary.
struct MatchLog<'a> {
    options: &'a MatchOptions,
    pgn: Option<File>,
    pgn_error: Option<anyhow::Error>,
    date: String,
    faults: Vec<Value>,
    search: Vec<SearchStats>,
}

impl MatchLog<'_> {
    fn write_pgn(&mut self, event: &GameEvent<'_>) {
        let Some(file) = self.pgn.as_mut() else {
            return;
        };
        let mut game = event.record.to_pgn();
        game.set_tag("Event", &self.options.event);
        game.set_tag("Site", "challenge");
        game.set_tag("Date", &self.date);
        let job = event.job;
        game.set_tag(
            "Round",
            &format!("{}.{}", job.pair + 1, job.game_in_pair + 1),
        );
        let text = write_game(&game);
        if let Err(err) = file
            .write_all(format!("{text}\n").as_bytes())
            .and_then(|()| file.flush())
        {
            self.pgn_error.get_or_insert_with(|| {
                anyhow::Error::new(err).context("cannot write the PGN file")
            });
        }
    }

    fn note_fault(&mut self, event: &GameEvent<'_>, side: Color) {
        let (record, job) = (event.record, event.job);
        let engine = match side {
            Color::White => &record.white,
            Color::Black => &record.black,
        };
        self.faults.push(json!({
            "game": job.number + 1,
            "engine": engine,
            "termination": record.termination.tag(),
            "detail": record.detail,
            "stderr": record.stderr,
        }));
    }

    /// Adds both sides' moves to their players' search statistics (names are unique in a
    /// match: [`unique_names`]).
    fn count_search(&mut self, record: &runner::GameRecord) {
        for (side, name) in [(Color::White, &record.white), (Color::Black, &record.black)] {
            let players = &self.options.config.players;
            if let Some(i) = players.iter().position(|p| p.name() == name.as_str()) {
                self.search[i].merge(&SearchStats::of_side(record, side));
            }
        }
    }

    fn game(&mut self, event: &GameEvent<'_>) {
        self.write_pgn(event);
        self.count_search(event.record);
        if let Some(side) = event.record.faulty {
            self.note_fault(event, side);
        }
    }
}

/// A match's game as the live view is told of it when it starts.
struct LiveJob<'a> {
    key: i64,
    round: String,
    players: [&'a Player; 2],
    opening: &'a Opening,
}

impl LiveJob<'_> {
    fn view(&self) -> LiveStart<'_> {
        LiveStart::of(self.key, &self.round, self.players, self.opening)
    }
}

fn live_start<'a>(
    config: &'a TournamentConfig,
    openings: &'a [Opening],
    job: &GameJob,
) -> LiveJob<'a> {
    LiveJob {
        key: job.number as i64 + 1,
        round: format!("game {}, pair {}", job.number + 1, job.pair + 1),
        players: [&config.players[job.white], &config.players[job.black]],
        opening: &openings[job.opening % openings.len()],
    }
}

/// Plays the match until every game is played, the SPRT decides, or `stop` is set
/// (finished games are kept), reporting to `observe` as it goes, then writes the JSON.
pub fn run_match(
    options: &MatchOptions,
    stop: &AtomicBool,
    observe: &(dyn Fn(MatchEvent<'_>) + Sync),
) -> Result<()> {
    run_match_watched(options, stop, None, observe)
}

/// [`run_match`], with its games followed move by move by `watch` (`challenge match
/// --watch`).
pub fn run_match_watched(
    options: &MatchOptions,
    stop: &AtomicBool,
    watch: Option<&dyn GameWatch>,
    observe: &(dyn Fn(MatchEvent<'_>) + Sync),
) -> Result<()> {
    let config = &options.config;
    let pgn = match &options.pgn {
        Some(path) => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| {
                    format!("cannot open PGN file {} for appending", path.display())
                })?,
        ),
        None => None,
    };
    let scheduled =
        runner::encounters(config.format, config.players.len()).len() * config.pairs * 2;
    let mut log = MatchLog {
        options,
        pgn,
        pgn_error: None,
        date: framework::notation::pgn_date(SystemTime::now()),
        faults: Vec::new(),
        search: vec![SearchStats::default(); config.players.len()],
    };
    observe(MatchEvent::Started { options, scheduled });
    let started = Instant::now();
    let openings = if config.openings.is_empty() {
        vec![Opening::startpos()]
    } else {
        config.openings.clone()
    };
    let begin = |job: &GameJob| watch?.begin(&live_start(config, &openings, job).view());
    let result = run_tournament_watched(config, stop, &begin, |event| {
        log.game(&event);
        if let Some(watch) = watch {
            watch.end(&LiveEnd {
                key: event.job.number as i64 + 1,
                record: event.record,
                stored: None,
            });
        }
        observe(MatchEvent::Game(event));
    });
    let elapsed = started.elapsed();
    observe(MatchEvent::Finished {
        options,
        result: &result,
        search: &log.search,
        elapsed,
    });
    if let Some(path) = &options.json {
        let value = summary_json(
            config,
            &result,
            &log.faults,
            &log.search,
            elapsed,
            &options.opening_source,
            options.seed,
        );
        let text = serde_json::to_string_pretty(&value).expect("JSON values always serialise");
        let mut file = File::create(path)
            .with_context(|| format!("cannot create JSON file {}", path.display()))?;
        file.write_all(text.as_bytes())
            .with_context(|| format!("cannot write JSON file {}", path.display()))?;
    }
    if let Some(err) = log.pgn_error {
        let path = options.pgn.as_ref().map(|p| p.display().to_string());
        return Err(err.context(format!("PGN output {}", path.unwrap_or_default())));
    }
    Ok(())
}
