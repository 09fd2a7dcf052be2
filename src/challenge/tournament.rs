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

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use framework::chess::{Board, Color};
use framework::notation::pgn::{GameResult, write_game};
use runner::{
    Engine, EngineConfig, Format, GameRecord, GameSettings, Opening, Player, TimeControl,
    load_openings, play_game, schedule,
};
use serde::{Deserialize, Serialize};

use super::DirArgs;
use super::ratings::{RatingOptions, fit, synthetic_games, wide_field_games};
use super::store::{NewGame, Slot, Store, Tournament, Version};
use super::submit::materialize;
use super::swiss::{SwissPlayer, pair_round};
use crate::engine_build;

/// `challenge run`.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// `round-robin` (everyone plays everyone) or `swiss` (rounds paired by score, for
    /// fields too large for a round-robin).
    #[arg(long, default_value = "round-robin")]
    pub format: String,
    /// Round-robin: colour-swapped game pairs per encounter, each from its own opening.
    #[arg(long, default_value_t = 1)]
    pub pairs: usize,
    /// Swiss: rounds, each a colour-swapped game pair per pairing.
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Time control for both sides: `BASE+INC` in seconds (`10+0.1`), or `0.1/move` for
    /// a fixed time per move.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// An opening suite (EPD/FEN lines or PGN games); default: the kit's balanced suite
    /// `openings/default.epd` (or, without it, eight common openings).
    #[arg(long)]
    pub openings: Option<std::path::PathBuf>,
    /// Book plies kept from each PGN opening.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Games played at once, each on its own pair of engine processes.
    #[arg(short = 'j', long, default_value_t = 1)]
    pub concurrency: usize,
    /// Stop after this many games in this session (run again to go on).
    #[arg(long)]
    pub max_games: Option<usize>,
    /// Start a new tournament with the current entries when the last one is finished.
    #[arg(long)]
    pub new: bool,
    #[command(flatten)]
    pub dir: DirArgs,
}

/// `challenge bench-ratings` (hidden).
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Generated players.
    #[arg(long, default_value_t = 600)]
    pub players: usize,
    /// Generated games.
    #[arg(long, default_value_t = 30_000)]
    pub games: usize,
}

/// An opening as stored with its tournament, so a resumed run uses exactly the same ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredOpening {
    /// The position before the book moves.
    pub fen: String,
    /// Book moves in UCI notation.
    pub moves: Vec<String>,
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

fn stored_openings(args: &RunArgs) -> Result<Vec<StoredOpening>> {
    let kit_suite = std::path::Path::new(crate::bots::KIT_ROOT)
        .join("openings")
        .join("default.epd");
    let file = match &args.openings {
        Some(path) => Some(path.clone()),
        None => kit_suite.is_file().then_some(kit_suite),
    };
    match file {
        Some(path) => {
            let openings = load_openings(&path, Some(args.plies))
                .with_context(|| format!("cannot use the opening suite {}", path.display()))?;
            Ok(openings
                .iter()
                .map(|o| StoredOpening {
                    fen: o.start.fen(),
                    moves: o.moves.iter().map(|m| m.to_string()).collect(),
                })
                .collect())
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
        .map(|(i, o)| {
            let start = Board::from_fen(&o.fen)
                .map_err(|e| anyhow::anyhow!("stored opening {i}: bad FEN `{}`: {e}", o.fen))?;
            let mut board = start.clone();
            let mut moves = Vec::new();
            for text in &o.moves {
                let mv = board
                    .parse_uci(text)
                    .map_err(|e| anyhow::anyhow!("stored opening {i}: move `{text}`: {e}"))?;
                board.make_move(mv);
                moves.push(mv);
            }
            Ok(Opening { start, moves })
        })
        .collect()
}

/// The name a version plays under: the entry's name, with ` vN` from the second version on.
pub fn player_name(version: &Version) -> String {
    if version.number == 1 {
        version.name.clone()
    } else {
        format!("{} v{}", version.name, version.number)
    }
}

/// `challenge run`.
pub fn run(args: &RunArgs) -> Result<()> {
    let mut store = Store::open(&args.dir.dir)?;
    // Two runs on one challenge would play the same games. The OS drops the lock when the
    // process ends, however it ends, so a killed run never blocks the next one.
    let lock_path = store.dir().join("run.lock");
    let lock = std::fs::File::create(&lock_path)
        .with_context(|| format!("cannot create {}", lock_path.display()))?;
    if let Err(err) = lock.try_lock() {
        match err {
            std::fs::TryLockError::WouldBlock => bail!(
                "another `challenge run` is playing the tournament in {} right now; wait for it or stop it first",
                store.dir().display()
            ),
            std::fs::TryLockError::Error(err) => {
                return Err(err).with_context(|| format!("cannot lock {}", lock_path.display()));
            }
        }
    }
    let tournament = match store.unfinished_tournament()? {
        Some(t) => {
            let done = store.slots(t.id)?.iter().filter(|s| s.1.is_some()).count();
            eprintln!(
                "resuming tournament {} ({}, {}, {} games already played; its stored settings apply)",
                t.id, t.format, t.time_control, done
            );
            t
        }
        None => start_tournament(&mut store, args)?,
    };
    let tc: TimeControl = parse_tc(&tournament.time_control)?;
    let stored: Vec<StoredOpening> = serde_json::from_str(&tournament.openings)
        .context("the tournament's stored openings are unreadable")?;
    let openings = to_openings(&stored)?;
    let stop = AtomicBool::new(false);
    let mut played_now = 0usize;
    loop {
        let cancelled = store.cancel_withdrawn(tournament.id)?;
        if cancelled > 0 {
            eprintln!("{cancelled} unplayed games of withdrawn entries cancelled");
        }
        let slots = store.slots(tournament.id)?;
        let pending: Vec<Slot> = slots
            .iter()
            .filter(|(_, game, cancelled)| game.is_none() && !cancelled)
            .map(|(slot, _, _)| *slot)
            .collect();
        if pending.is_empty() {
            if tournament.format == "swiss" {
                let paired = slots.iter().map(|s| s.0.round + 1).max().unwrap_or(0);
                let paired = paired.max(store.byes(tournament.id)?.len() as i64);
                if paired < tournament.rounds && pair_next_round(&mut store, &tournament, paired)? {
                    continue;
                }
            }
            store.finish_tournament(tournament.id)?;
            eprintln!(
                "tournament {} finished: see `challenge standings` and `challenge report --html FILE`",
                tournament.id
            );
            break;
        }
        let budget = args.max_games.map(|m| m.saturating_sub(played_now));
        if budget == Some(0) {
            eprintln!(
                "stopped after {played_now} games (--max-games); `challenge run` goes on where this left off"
            );
            break;
        }
        let total = slots.iter().filter(|s| !s.2).count();
        let done = total - pending.len();
        played_now += play_slots(
            &mut store,
            &tournament,
            pending,
            &openings,
            tc,
            args,
            budget,
            &stop,
            done,
            total,
        )?;
        if stop.load(Ordering::Relaxed) {
            eprintln!(
                "stopped after {played_now} games (--max-games); `challenge run` goes on where this left off"
            );
            break;
        }
    }
    println!();
    super::standings::print_store_standings(&store, &RatingOptions::default(), None)
}

fn parse_tc(text: &str) -> Result<TimeControl> {
    // `X/move` included; huge, negative and NaN values are errors, not panics.
    Ok(text.parse()?)
}

fn start_tournament(store: &mut Store, args: &RunArgs) -> Result<Tournament> {
    let field = store.field()?;
    if field.len() < 2 {
        bail!(
            "a tournament needs at least two entries, and {} has {}: add some with `challenge submit FILE --name NAME`",
            store.dir().display(),
            field.len()
        );
    }
    if store.tournament_count()? > 0 && !args.new {
        bail!(
            "the last tournament is finished; pass --new to start another with the current entries"
        );
    }
    let format = match args.format.as_str() {
        "round-robin" | "roundrobin" | "rr" => "round-robin",
        "swiss" => "swiss",
        other => bail!("unknown format `{other}` (expected `round-robin` or `swiss`)"),
    };
    let tc = parse_tc(&args.tc)?;
    let stored = stored_openings(args)?;
    if args.pairs == 0 || args.rounds == 0 {
        bail!("--pairs and --rounds must be at least 1");
    }
    let settings = Tournament {
        id: 0,
        format: format.to_string(),
        pairs: args.pairs as i64,
        rounds: args.rounds as i64,
        time_control: tc.to_string(),
        openings: serde_json::to_string(&stored)?,
        finished: false,
    };
    let entries: Vec<i64> = field.iter().map(|v| v.entry_id).collect();
    let mut slots = Vec::new();
    let mut byes = Vec::new();
    if format == "round-robin" {
        for job in schedule(Format::RoundRobin, entries.len(), args.pairs, stored.len()) {
            slots.push(Slot {
                id: 0,
                round: job.round as i64,
                pair: job.pair as i64,
                game_in_pair: job.game_in_pair as i64,
                white_entry: entries[job.white],
                black_entry: entries[job.black],
                opening: job.opening as i64,
            });
        }
    } else {
        let players: Vec<SwissPlayer> = (0..entries.len())
            .map(|seed| SwissPlayer {
                score: 0.0,
                seed,
                had_bye: false,
            })
            .collect();
        let round = pair_round(&players, |_, _| false);
        slots = round_slots(&round.pairs, &entries, 0, 0, stored.len());
        byes.extend(round.bye.map(|b| entries[b]));
    }
    let id = store.create_tournament(&settings, &entries, &slots, &byes)?;
    eprintln!(
        "tournament {id}: {format}, {} entries, {} games scheduled{}, time control {}",
        entries.len(),
        slots.len(),
        if format == "swiss" {
            format!(" in round 1 of {}", args.rounds)
        } else {
            String::new()
        },
        settings.time_control
    );
    Ok(Tournament { id, ..settings })
}

fn round_slots(
    pairs: &[(usize, usize)],
    entries: &[i64],
    round: i64,
    first_pair: i64,
    openings: usize,
) -> Vec<Slot> {
    let mut slots = Vec::new();
    for (k, &(a, b)) in pairs.iter().enumerate() {
        for (game_in_pair, (w, bl)) in [(a, b), (b, a)].into_iter().enumerate() {
            slots.push(Slot {
                id: 0,
                round,
                pair: first_pair + k as i64,
                game_in_pair: game_in_pair as i64,
                white_entry: entries[w],
                black_entry: entries[bl],
                opening: round % openings.max(1) as i64,
            });
        }
    }
    slots
}

/// Pairs Swiss round `round` (0-based) from the results so far; `false` when fewer than
/// two entries are left to pair.
fn pair_next_round(store: &mut Store, t: &Tournament, round: i64) -> Result<bool> {
    let withdrawn: HashSet<i64> = store
        .versions()?
        .iter()
        .filter(|v| v.withdrawn)
        .map(|v| v.entry_id)
        .collect();
    let entries: Vec<i64> = store
        .participants(t.id)?
        .into_iter()
        .filter(|e| !withdrawn.contains(e))
        .collect();
    if entries.len() < 2 {
        return Ok(false);
    }
    let position: HashMap<i64, usize> = entries.iter().enumerate().map(|(i, &e)| (e, i)).collect();
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
    for (slot, _, cancelled) in &slots {
        if let (Some(&a), Some(&b), false) = (
            position.get(&slot.white_entry),
            position.get(&slot.black_entry),
            *cancelled,
        ) {
            met.insert((a.min(b), a.max(b)));
        }
    }
    let slot_players: HashMap<i64, (i64, i64)> = slots
        .iter()
        .map(|(s, _, _)| (s.id, (s.white_entry, s.black_entry)))
        .collect();
    for game in store.results()? {
        if game.tournament_id != Some(t.id) {
            continue;
        }
        let Some(&(white, black)) = game.slot_id.and_then(|s| slot_players.get(&s)) else {
            continue;
        };
        let white_score = match game.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if let Some(&i) = position.get(&white) {
            players[i].score += white_score;
        }
        if let Some(&i) = position.get(&black) {
            players[i].score += 1.0 - white_score;
        }
    }
    let paired = pair_round(&players, |a, b| met.contains(&(a.min(b), a.max(b))));
    let first_pair = slots.iter().map(|s| s.0.pair + 1).max().unwrap_or(0);
    let stored: Vec<StoredOpening> = serde_json::from_str(&t.openings)?;
    let new_slots = round_slots(&paired.pairs, &entries, round, first_pair, stored.len());
    let bye: Vec<i64> = paired.bye.map(|b| entries[b]).into_iter().collect();
    store.add_round(t.id, round, &new_slots, &bye)?;
    eprintln!(
        "round {} of {} paired: {} games{}{}",
        round + 1,
        t.rounds,
        new_slots.len(),
        match paired.bye {
            Some(b) => format!(", bye for entry #{}", entries[b]),
            None => String::new(),
        },
        if paired.rematches > 0 {
            format!(", {} unavoidable rematches", paired.rematches)
        } else {
            String::new()
        }
    );
    Ok(true)
}

/// Plays `pending` on `args.concurrency` workers, committing each game as it finishes.
/// Returns how many games were stored.
#[allow(clippy::too_many_arguments)]
fn play_slots(
    store: &mut Store,
    t: &Tournament,
    pending: Vec<Slot>,
    openings: &[Opening],
    tc: TimeControl,
    args: &RunArgs,
    budget: Option<usize>,
    stop: &AtomicBool,
    done_before: usize,
    total: usize,
) -> Result<usize> {
    // Each game is played by the entries' current versions.
    let current: HashMap<i64, Version> = store
        .versions()?
        .into_iter()
        .filter(|v| v.current)
        .map(|v| (v.entry_id, v))
        .collect();
    let mut players: HashMap<i64, Player> = HashMap::new();
    for slot in &pending {
        for entry in [slot.white_entry, slot.black_entry] {
            if players.contains_key(&entry) {
                continue;
            }
            let version = current
                .get(&entry)
                .with_context(|| format!("entry #{entry} has no stored version"))?;
            let source = store.source(version.id)?;
            let bot = materialize(store.dir(), &version.name, &source)?;
            let engine = engine_build::build(&bot).with_context(|| {
                format!(
                    "cannot build `{}` v{} for the tournament (it built when submitted: check the toolchain, then run again)",
                    version.name, version.number
                )
            })?;
            players.insert(
                entry,
                Player::new(EngineConfig::new(player_name(version), engine.path), tc),
            );
        }
    }
    let queue = Mutex::new(pending.into_iter().collect::<VecDeque<Slot>>());
    let workers = args.concurrency.max(1);
    let settings = GameSettings::default();
    let mut stored = 0usize;
    let mut failure: Option<anyhow::Error> = None;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(Slot, GameRecord)>();
        for w in 0..workers {
            let tx = tx.clone();
            let (queue, players, settings) = (&queue, &players, &settings);
            std::thread::Builder::new()
                .name(format!("challenge-worker-{w}"))
                .spawn_scoped(scope, move || {
                    let mut engines: HashMap<i64, Option<Engine>> = HashMap::new();
                    while !stop.load(Ordering::Relaxed) {
                        let Some(slot) = queue.lock().expect("queue lock").pop_front() else {
                            break;
                        };
                        let mut white = engines.remove(&slot.white_entry).flatten();
                        let mut black = engines.remove(&slot.black_entry).flatten();
                        let record = play_game(
                            [&players[&slot.white_entry], &players[&slot.black_entry]],
                            [&mut white, &mut black],
                            &openings[slot.opening as usize % openings.len()],
                            settings,
                            stop,
                        );
                        engines.insert(slot.white_entry, white);
                        engines.insert(slot.black_entry, black);
                        if tx.send((slot, record)).is_err() {
                            break;
                        }
                    }
                    for engine in engines.into_values().flatten() {
                        engine.quit(Duration::from_millis(300));
                    }
                })
                .expect("spawn a challenge worker");
        }
        drop(tx);
        for (slot, record) in rx {
            if record.result == GameResult::Unknown || failure.is_some() {
                continue;
            }
            let game = new_game(t, &slot, &record, &current);
            match store.record_game(t.id, slot.id, &game) {
                Ok(_) => {
                    stored += 1;
                    print_game(done_before + stored, total, &record);
                }
                Err(err) => {
                    failure = Some(err);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if budget.is_some_and(|b| stored >= b) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
    match failure {
        Some(err) => Err(err),
        None => Ok(stored),
    }
}

fn new_game(
    t: &Tournament,
    slot: &Slot,
    record: &GameRecord,
    current: &HashMap<i64, Version>,
) -> NewGame {
    let (white, black) = (&current[&slot.white_entry], &current[&slot.black_entry]);
    let mut pgn = record.to_pgn();
    pgn.set_tag("Event", &format!("Challenge tournament {}", t.id));
    pgn.set_tag("Site", "challenge");
    pgn.set_tag("Date", &today());
    pgn.set_tag(
        "Round",
        &format!(
            "{}.{}.{}",
            slot.round + 1,
            slot.pair + 1,
            slot.game_in_pair + 1
        ),
    );
    pgn.set_tag("WhiteVersion", &white.hash);
    pgn.set_tag("BlackVersion", &black.hash);
    NewGame {
        white_version: white.id,
        black_version: black.id,
        result: record.result.as_str().to_string(),
        termination: record.termination.tag().to_string(),
        faulty: record.faulty.map(|c| match c {
            Color::White => "white".to_string(),
            Color::Black => "black".to_string(),
        }),
        detail: record.detail.clone(),
        plies: record.ply_count() as i64,
        pgn: write_game(&pgn),
    }
}

fn print_game(number: usize, total: usize, record: &GameRecord) {
    let mut line = format!(
        "[{number}/{total}] {} - {} {} ({}, {} plies)",
        record.white,
        record.black,
        record.result.as_str(),
        record.termination.tag(),
        record.ply_count()
    );
    if record.termination.is_fault() {
        line.push_str(": ");
        line.push_str(&record.detail);
    }
    eprintln!("{line}");
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    framework::notation::pgn_date(std::time::SystemTime::now())
}

/// `challenge bench-ratings`: times the rating fit and one Swiss pairing on generated data.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    if args.players < 2 {
        bail!("--players must be at least 2");
    }
    let games = synthetic_games(args.players, args.games, 42);
    let start = Instant::now();
    let result = fit(args.players, &games, &RatingOptions::default());
    let fit_time = start.elapsed();
    println!(
        "ratings: {} games, {} players: {:.1} ms ({} iterations, drawelo {:.1})",
        args.games,
        args.players,
        fit_time.as_secs_f64() * 1e3,
        result.iterations,
        result.draw_elo
    );
    let wide = wide_field_games(args.players, args.games, 42);
    let start = Instant::now();
    let result = fit(args.players, &wide, &RatingOptions::default());
    println!(
        "ratings, wide field: {:.1} ms ({} iterations, converged: {})",
        start.elapsed().as_secs_f64() * 1e3,
        result.iterations,
        result.converged
    );
    let mut scores = vec![0.0; args.players];
    let mut met = vec![false; args.players * args.players];
    for g in &games {
        scores[g.white] += g.score;
        scores[g.black] += 1.0 - g.score;
        met[g.white * args.players + g.black] = true;
        met[g.black * args.players + g.white] = true;
    }
    let players: Vec<SwissPlayer> = scores
        .iter()
        .enumerate()
        .map(|(seed, &score)| SwissPlayer {
            score: (score * 2.0).round() / 2.0,
            seed,
            had_bye: false,
        })
        .collect();
    let start = Instant::now();
    let round = pair_round(&players, |a, b| met[a * args.players + b]);
    let pair_time = start.elapsed();
    println!(
        "swiss: pairing {} players with {} games of history: {:.1} ms ({} pairs, {} rematches)",
        args.players,
        args.games,
        pair_time.as_secs_f64() * 1e3,
        round.pairs.len(),
        round.rematches
    );
    Ok(())
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

    #[test]
    fn time_controls_round_trip_through_the_store() {
        for text in ["10+0.1", "1+0.05", "0.1/move"] {
            let tc = parse_tc(text).unwrap();
            assert_eq!(parse_tc(&tc.to_string()).unwrap(), tc, "{text}");
        }
        assert!(parse_tc("fast").is_err());
    }

    #[test]
    fn round_slots_swap_colours_within_a_pair() {
        let slots = round_slots(&[(0, 1), (2, 3)], &[10, 11, 12, 13], 2, 5, 8);
        assert_eq!(slots.len(), 4);
        assert_eq!((slots[0].white_entry, slots[0].black_entry), (10, 11));
        assert_eq!((slots[1].white_entry, slots[1].black_entry), (11, 10));
        assert_eq!((slots[2].pair, slots[3].pair), (6, 6));
        assert!(slots.iter().all(|s| s.opening == 2 && s.round == 2));
    }

    #[test]
    fn today_is_a_pgn_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d[..4].parse::<u32>().unwrap() >= 2024);
    }
}
