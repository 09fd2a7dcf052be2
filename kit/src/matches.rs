//! `challenge match`'s domain: the players and settings of a match, played on the
//! runner's tournament loop, with progress, PGN and JSON output and the summary.

use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant, SystemTime};

use anyhow::{Context, Result};
use framework::chess::Color;
use framework::notation::write_game;
use indicatif::{ProgressBar, ProgressStyle};
use runner::{
    EngineConfig, GameEvent, GameSettings, Opening, Player, Sprt, TimeControl, TournamentConfig,
    load_openings, pairs_for_games, run_tournament, shuffle,
};
use serde_json::{Value, json};

use crate::bots::{self, LimitPolicy};
use crate::engine_build;
use crate::match_summary::{describe_tcs, elo_text, summary_json, summary_text};

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
    /// Only the summary: no progress bar or per-game lines.
    pub quiet: bool,
}

/// A bot, checked and built, as a player.
pub fn bot_player(spec: &str, policy: LimitPolicy, tc: TimeControl) -> Result<Player> {
    let bot = bots::resolve(spec)?;
    bots::check(&bot, policy)?;
    let engine = engine_build::build(&bot, engine_build::BuildKind::Local)
        .with_context(|| format!("cannot build bot `{}`", bot.name))?;
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
            let default = Path::new(bots::KIT_ROOT)
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
    }
}

/// What the match shows and writes while it runs: the progress bar or per-game lines,
/// the PGN file, and the faults for the JSON summary.
struct MatchLog<'a> {
    options: &'a MatchOptions,
    bar: Option<ProgressBar>,
    pgn: Option<File>,
    pgn_error: Option<anyhow::Error>,
    date: String,
    faults: Vec<Value>,
}

impl MatchLog<'_> {
    fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

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
        if !self.options.quiet {
            self.say(&format!(
                "Game {} ({} vs {}): {} ({})",
                job.number + 1,
                record.white,
                record.black,
                record.termination,
                record.detail
            ));
            for line in &record.stderr {
                self.say(&format!("    {engine} stderr: {line}"));
            }
        }
        self.faults.push(json!({
            "game": job.number + 1,
            "engine": engine,
            "termination": record.termination.tag(),
            "detail": record.detail,
            "stderr": record.stderr,
        }));
    }

    fn game(&mut self, event: &GameEvent<'_>) {
        self.write_pgn(event);
        if let Some(side) = event.record.faulty {
            self.note_fault(event, side);
        }
        let me = event.standings.player(0);
        let elo = me
            .elo_wdl()
            .map_or(String::new(), |e| format!("  Elo {}", elo_text(&e)));
        let llr = event.llr.map_or(String::new(), |l| format!("  LLR {l:.2}"));
        let msg = format!(
            "{}: W{} D{} L{}{elo}{llr}",
            event.standings.players[0], me.wins, me.draws, me.losses
        );
        let (record, job) = (event.record, event.job);
        match &self.bar {
            Some(bar) => {
                bar.set_message(msg);
                bar.set_position(event.standings.games as u64);
            }
            None if !self.options.quiet => eprintln!(
                "Finished game {} ({} vs {}): {} {{{}}}  [{msg}]",
                job.number + 1,
                record.white,
                record.black,
                record.result,
                record.termination
            ),
            None => {}
        }
    }
}

fn progress_bar(scheduled: usize) -> ProgressBar {
    let bar = ProgressBar::new(scheduled as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:20} {pos}/{len} {msg} [{elapsed_precise}]")
            .expect("valid progress template"),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// Plays the match until every game is played, the SPRT decides, or `stop` is set
/// (finished games are kept), then prints the summary and writes the JSON.
pub fn run_match(options: &MatchOptions, stop: &AtomicBool) -> Result<()> {
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
    let interactive = !options.quiet && std::io::stderr().is_terminal();
    let mut log = MatchLog {
        options,
        bar: interactive.then(|| progress_bar(scheduled)),
        pgn,
        pgn_error: None,
        date: framework::notation::pgn_date(SystemTime::now()),
        faults: Vec::new(),
    };
    let first_pair = format!(
        "{} vs {}",
        config.players[0].name(),
        config.players[1].name()
    );
    eprintln!(
        "Playing {} games ({}, {} players, {}, openings from {}, {} at a time){}",
        scheduled,
        config.format,
        config.players.len(),
        describe_tcs(&config.players),
        options.opening_source,
        config.concurrency,
        if options.shuffled {
            format!(", shuffled with seed {}", options.seed)
        } else {
            String::new()
        },
    );
    let started = Instant::now();
    let result = run_tournament(config, stop, |event| log.game(&event));
    if let Some(bar) = &log.bar {
        bar.finish_and_clear();
    }
    let elapsed = started.elapsed();
    print!("{}", summary_text(config, &result, &first_pair, elapsed));
    if let Some(path) = &options.json {
        let value = summary_json(
            config,
            &result,
            &log.faults,
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
