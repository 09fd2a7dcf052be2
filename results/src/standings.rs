//! The standings table (from the store, or from PGN files read by `pgn_facts`), as text, JSON or CSV.

#[cfg(feature = "store")]
use std::collections::HashMap;

use anyhow::{Context, Result, bail};
use serde::Serialize;

pub use super::ratings::RatingChoice;
use super::ratings::{Model, RatedGame, fit_from};
#[cfg(feature = "store")]
use super::verify::{Verdict, Verdicts};
#[cfg(feature = "store")]
use framework::chess::Color;
use runner::Termination;
#[cfg(feature = "store")]
use store::{Game, Store, TournamentId, Version, VersionId};

/// Who a rated player is.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PlayerInfo {
    /// The name games use (`alice`, `alice v2`).
    pub name: String,
    /// The entry's name (the same as `name` for PGN players).
    pub entry: String,
    /// The author, if known.
    pub author: Option<String>,
    /// The version number, if from the store.
    pub version: Option<u32>,
    /// The version's content hash.
    pub hash: Option<String>,
    /// Tokens counted at submission.
    pub tokens: Option<u32>,
    /// `active`, `replaced`, `withdrawn` (store) or empty (PGN).
    pub status: String,
}

/// Games with one outcome as the table needs them (one, or as many as `count`).
#[derive(Debug, Clone, PartialEq)]
pub struct GameFact {
    /// White's player index.
    pub white: usize,
    /// Black's player index.
    pub black: usize,
    /// White's score.
    pub score: f64,
    /// Why it ended (`None` when a PGN file names no termination the runner writes).
    pub termination: Option<Termination>,
    /// The player who misbehaved, if any.
    pub faulty: Option<usize>,
    /// How many such games (1 for one game).
    pub count: u32,
}

/// One row of the standings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// 1-based rank by Elo.
    pub rank: usize,
    /// The player's index in the list the table was built from.
    #[serde(skip)]
    pub index: usize,
    /// Who.
    #[serde(flatten)]
    pub player: PlayerInfo,
    /// Games played.
    pub games: usize,
    /// Points scored.
    pub points: f64,
    /// Wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// Losses.
    pub losses: usize,
    /// Elo (`None` without games).
    pub elo: Option<f64>,
    /// Half-width of the 95% interval.
    pub interval: Option<f64>,
    /// Losses by crash, memory limit or failure to start.
    pub crashes: usize,
    /// Losses on time or by not answering.
    pub timeouts: usize,
    /// Losses by an illegal or unparsable move, or by no move.
    pub illegal: usize,
}

/// The whole table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StandingsTable {
    /// Rows, best first.
    pub rows: Vec<Row>,
    /// The fitted draw parameter.
    pub draw_elo: f64,
    /// Rated games.
    pub games: usize,
    /// Virtual draws per player.
    pub prior: f64,
    /// The anchor's name, or `None` when the mean rating is 0.
    pub anchor: Option<String>,
    /// Groups of players not connected by games (ratings across groups mean nothing).
    pub groups: usize,
    /// The rating model: `kit` or `bayeselo`.
    pub model: &'static str,
    /// White's advantage in Elo (0 in the kit model).
    pub advantage: f64,
    /// The factor applied to the ratings (1 in the kit model; BayesElo's scale).
    pub scale: f64,
    /// Added to every rating.
    pub offset: f64,
    /// Iterations the fit took to converge.
    pub iterations: usize,
    /// Games read but not rated (broken, or without a result).
    pub skipped: usize,
    /// Games rated by their result whose moves could not be read (`challenge ratings`
    /// without `--strict`).
    pub unread: usize,
    /// A store's games counted as the process that recorded them reports their ending,
    /// which their moves cannot show (a crash, a time forfeit, an illegal move, an
    /// adjudication by score): on a PostgreSQL store, the worker's claim, with its
    /// evidence (and, under `--confirm-claims`, another worker's confirmation).
    pub claimed: Vec<GameNote>,
    /// A store's claims not counted until a worker of another role confirms them
    /// (`--confirm-claims`): their slots are played again.
    pub unconfirmed: Vec<GameNote>,
    /// A store's games not counted: their recorded result disagrees with their moves or
    /// their evidence, or their worker is distrusted.
    pub refused: Vec<GameNote>,
    /// Each worker's games and claims, by worker name.
    pub claims_by_worker: Vec<WorkerClaims>,
}

/// What one worker recorded: its games, and how many end in a way their moves cannot
/// show (its claims), counted or not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct WorkerClaims {
    /// The worker's name (`local`: `challenge run` on a directory; `unknown` for games
    /// from before workers were recorded).
    pub worker: String,
    /// Games it recorded.
    pub games: usize,
    /// Its claims that count (confirmed ones among them).
    pub claimed: usize,
    /// Its claims another worker confirmed.
    pub confirmed: usize,
    /// Its claims awaiting confirmation, or never confirmed.
    pub unconfirmed: usize,
    /// Its games not counted: refuted by their moves or evidence, or void.
    pub refused: usize,
}

/// A stored game the standings count on its worker's word, or do not count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameNote {
    /// The game's id in the store.
    pub game: i64,
    /// White's player name.
    pub white: String,
    /// Black's player name.
    pub black: String,
    /// The recorded result.
    pub result: String,
    /// The recorded termination.
    pub termination: String,
    /// The worker that recorded it (`local`: `challenge run` on a directory), if known.
    pub worker: Option<String>,
    /// Why the moves refute it (refused games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The worker of another role whose game made the same claim (confirmed claims only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmed_by: Option<String>,
    /// The clocks its evidence states, in words (claimed engine faults only; the engine's
    /// stderr stays with the organiser's evidence).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clocks: Option<String>,
}

/// A fault's column in the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// Crash, memory limit or failure to start.
    Crash,
    /// On time, or by not answering.
    Time,
    /// An illegal or unparsable move, or no move.
    Illegal,
}

impl FaultKind {
    /// The column an engine fault counts in; `None` for endings that are no fault.
    pub const fn of(termination: Termination) -> Option<FaultKind> {
        match termination {
            Termination::Crash
            | Termination::MemoryLimit
            | Termination::FailedStart
            | Termination::ProtocolViolation => Some(FaultKind::Crash),
            Termination::TimeForfeit | Termination::Stall | Termination::ConstructionLimit => {
                Some(FaultKind::Time)
            }
            Termination::IllegalMove | Termination::NullMove | Termination::UnparsableMove => {
                Some(FaultKind::Illegal)
            }
            _ => None,
        }
    }
}

/// Builds the table: counts, faults and the rating fit.
pub fn build_table(
    players: Vec<PlayerInfo>,
    games: &[GameFact],
    args: &RatingChoice,
) -> Result<StandingsTable> {
    let (rows, total) = counted_rows(players, games);
    finish_table(rows, total, games.iter().map(GameFact::rated), args)
}

/// [`build_table`] that lets go of the games as soon as the fit has gathered them by
/// pairing, so they are not held beside the fit (`challenge ratings` on a large file).
///
/// ```
/// use results::{PgnFacts, PgnReadMode, RatingChoice, build_table_consuming};
///
/// let pgn = "[White \"a\"]\n[Black \"b\"]\n\n1. e4 e5 1-0\n\n[White \"b\"]\n[Black \"a\"]\n\n1. d4 1/2-1/2\n";
/// let mut facts = PgnFacts::default();
/// facts.read("t.pgn", pgn.as_bytes(), PgnReadMode::default(), &|_| {}).unwrap();
/// let table = build_table_consuming(facts.players, facts.games, &RatingChoice::default()).unwrap();
/// assert_eq!((table.games, table.rows[0].player.name.as_str()), (2, "a"));
/// ```
pub fn build_table_consuming(
    players: Vec<PlayerInfo>,
    games: Vec<GameFact>,
    args: &RatingChoice,
) -> Result<StandingsTable> {
    let (rows, total) = counted_rows(players, &games);
    finish_table(rows, total, games.into_iter().map(|g| g.rated()), args)
}

impl GameFact {
    /// What the rating fit needs of these games.
    fn rated(&self) -> RatedGame {
        RatedGame {
            white: self.white,
            black: self.black,
            score: self.score,
            count: self.count,
        }
    }
}

/// One row per player with its games counted (no rating yet), and the games in all.
fn counted_rows(players: Vec<PlayerInfo>, games: &[GameFact]) -> (Vec<Row>, usize) {
    let mut rows: Vec<Row> = players
        .into_iter()
        .enumerate()
        .map(|(i, player)| Row {
            rank: 0,
            index: i,
            player,
            games: 0,
            points: 0.0,
            wins: 0,
            draws: 0,
            losses: 0,
            elo: None,
            interval: None,
            crashes: 0,
            timeouts: 0,
            illegal: 0,
        })
        .collect();
    for g in games {
        count_game(&mut rows, g);
    }
    (rows, games.iter().map(|g| g.count as usize).sum())
}

/// The player rated at the offset, by name.
fn anchor_index(rows: &[Row], anchor: Option<&String>) -> Result<Option<usize>> {
    let Some(name) = anchor else {
        return Ok(None);
    };
    let found = rows.iter().position(|r| &r.player.name == name);
    found.map(Some).with_context(|| {
        let names: Vec<&str> = rows.iter().map(|r| r.player.name.as_str()).collect();
        format!(
            "no player `{name}` to anchor (players: {})",
            names.join(", ")
        )
    })
}

/// Fits the ratings from `outcomes` (read once, in order), puts them in the counted
/// rows, and ranks them.
fn finish_table(
    mut rows: Vec<Row>,
    games: usize,
    outcomes: impl IntoIterator<Item = RatedGame>,
    args: &RatingChoice,
) -> Result<StandingsTable> {
    let options = args.options(anchor_index(&rows, args.anchor.as_ref())?)?;
    let fitted = fit_from(rows.len(), outcomes, &options);
    if !fitted.converged {
        bail!(
            "the ratings did not converge in {} iterations{}",
            fitted.iterations,
            if options.prior == 0.0 {
                ": with --prior 0 a player who won (or lost) every game has no finite maximum-likelihood rating; use a prior above 0"
            } else {
                ""
            }
        );
    }
    for (row, rating) in rows.iter_mut().zip(&fitted.ratings) {
        row.elo = rating.map(|r| r.elo);
        row.interval = rating.map(|r| r.interval);
    }
    rows.sort_by(|a, b| {
        let key = |r: &Row| r.elo.unwrap_or(f64::NEG_INFINITY);
        key(b)
            .total_cmp(&key(a))
            .then(b.points.total_cmp(&a.points))
            .then(a.player.name.cmp(&b.player.name))
    });
    for (i, row) in rows.iter_mut().enumerate() {
        row.rank = i + 1;
    }
    Ok(StandingsTable {
        rows,
        draw_elo: fitted.draw_elo,
        games,
        prior: args.prior,
        anchor: args.anchor.clone(),
        groups: fitted.groups,
        model: match options.model {
            Model::Kit => "kit",
            Model::BayesElo { .. } => "bayeselo",
        },
        advantage: fitted.advantage,
        scale: fitted.scale,
        offset: options.offset,
        iterations: fitted.iterations,
        skipped: 0,
        unread: 0,
        claimed: Vec::new(),
        unconfirmed: Vec::new(),
        refused: Vec::new(),
        claims_by_worker: Vec::new(),
    })
}

/// Adds the games to both players' rows: points, W/D/L, and the loser's fault column.
fn count_game(rows: &mut [Row], g: &GameFact) {
    let n = g.count as usize;
    for (who, score) in [(g.white, g.score), (g.black, 1.0 - g.score)] {
        let row = &mut rows[who];
        row.games += n;
        row.points += score * f64::from(g.count);
        if score > 0.75 {
            row.wins += n;
        } else if score < 0.25 {
            row.losses += n;
            if g.faulty == Some(who) {
                match g.termination.and_then(FaultKind::of) {
                    Some(FaultKind::Crash) => row.crashes += n,
                    Some(FaultKind::Time) => row.timeouts += n,
                    Some(FaultKind::Illegal) => row.illegal += n,
                    None => {}
                }
            }
        } else {
            row.draws += n;
        }
    }
}

/// The store's players (every version that played, and every active entry's current
/// version) and the games that count: each is checked against its moves first
/// ([`Verdicts`], which keeps the verdicts for the next call), and one they refute is left
/// out.
#[cfg(feature = "store")]
pub fn store_facts(
    store: &dyn Store,
    verdicts: &mut Verdicts,
) -> Result<(Vec<PlayerInfo>, Vec<GameFact>)> {
    facts_of(store, &store.games(false)?, verdicts)
}

/// [`store_facts`] of `games`, read from `store` already (a caller that also wants their
/// [`tournaments_of`] reads them once).
#[cfg(feature = "store")]
pub fn facts_of(
    store: &dyn Store,
    games: &[Game],
    verdicts: &mut Verdicts,
) -> Result<(Vec<PlayerInfo>, Vec<GameFact>)> {
    let (players, facts, _) = checked_facts(store, games, verdicts, true)?;
    Ok((players, facts))
}

/// The players and games of one tournament of the store: the versions that played in it,
/// and its games that count (checked as [`store_facts`] checks them).
///
/// # Errors
/// The store cannot be read, or holds no game of that tournament (the message lists the
/// tournaments it holds games of).
#[cfg(feature = "store")]
pub fn tournament_facts(
    store: &dyn Store,
    tournament: TournamentId,
    verdicts: &mut Verdicts,
) -> Result<(Vec<PlayerInfo>, Vec<GameFact>)> {
    let games = tournament_games(store, tournament)?;
    let (players, facts, _) = checked_facts(store, &games, verdicts, false)?;
    Ok((players, facts))
}

/// The store's games of `tournament`; an error listing the tournaments it has games of
/// if it has none of that one.
#[cfg(feature = "store")]
fn tournament_games(store: &dyn Store, tournament: TournamentId) -> Result<Vec<Game>> {
    let all = store.games(false)?;
    let games: Vec<Game> = all
        .iter()
        .filter(|g| g.tournament == Some(tournament))
        .cloned()
        .collect();
    if games.is_empty() {
        let held: Vec<String> = tournaments_of(&all)
            .iter()
            .map(|t| t.0.to_string())
            .collect();
        bail!(
            "no game of tournament {} in {} (it has games of tournaments: {})",
            tournament.0,
            store.location(),
            if held.is_empty() {
                "none".to_string()
            } else {
                held.join(", ")
            }
        );
    }
    Ok(games)
}

/// The tournaments `games` belong to, in order.
#[cfg(feature = "store")]
pub fn tournaments_of(games: &[Game]) -> Vec<TournamentId> {
    let mut held: Vec<TournamentId> = games.iter().filter_map(|g| g.tournament).collect();
    held.sort_unstable_by_key(|t| t.0);
    held.dedup();
    held
}

/// The notes on a store's games: counted on their workers' word, awaiting confirmation,
/// not counted; and each worker's claims.
#[cfg(feature = "store")]
#[derive(Debug, Default)]
struct Notes {
    claimed: Vec<GameNote>,
    unconfirmed: Vec<GameNote>,
    refused: Vec<GameNote>,
    by_worker: Vec<WorkerClaims>,
}

/// The players of `games` (and, with `field`, every active entry's current version), the
/// games that count as facts, and the notes on those counted on a worker's word or not
/// counted.
#[cfg(feature = "store")]
fn checked_facts(
    store: &dyn Store,
    all: &[Game],
    verdicts: &mut Verdicts,
    field: bool,
) -> Result<(Vec<PlayerInfo>, Vec<GameFact>, Notes)> {
    let versions = store.versions()?;
    verdicts.check_new(store, all)?;
    let notes = notes(all, &versions, verdicts);
    // A game in no slot was set aside or voided by an organiser: it never counts.
    let games: Vec<&Game> = all
        .iter()
        .filter(|g| verdicts.counts(g.id) && g.aside.is_none())
        .collect();
    let mut played: HashMap<VersionId, usize> = HashMap::new();
    for g in &games {
        *played.entry(g.white).or_default() += 1;
        *played.entry(g.black).or_default() += 1;
    }
    let mut index = HashMap::new();
    let mut players = Vec::new();
    for v in &versions {
        let in_field = field && v.current && !v.withdrawn;
        if !played.contains_key(&v.id) && !in_field {
            continue;
        }
        index.insert(v.id, players.len());
        players.push(PlayerInfo {
            name: v.player_name(),
            entry: v.name.clone(),
            author: v.author.clone(),
            version: Some(v.number),
            hash: Some(v.hash.clone()),
            tokens: Some(v.tokens),
            status: v.status().to_string(),
        });
    }
    let facts = games
        .iter()
        .map(|g| {
            let (white, black) = (index[&g.white], index[&g.black]);
            GameFact {
                white,
                black,
                score: g.white_score(),
                termination: Some(g.termination),
                faulty: g.faulty.map(|side| match side {
                    Color::White => white,
                    Color::Black => black,
                }),
                count: 1,
            }
        })
        .collect();
    Ok((players, facts, notes))
}

/// The notes on the games counted on their workers' word, awaiting confirmation and not
/// counted, and each worker's claims.
#[cfg(feature = "store")]
fn notes(games: &[Game], versions: &[Version], verdicts: &Verdicts) -> Notes {
    let name = |id: VersionId| {
        versions
            .iter()
            .find(|v| v.id == id)
            .map_or_else(|| format!("version {}", id.0), Version::player_name)
    };
    let note = |g: &Game, reason: Option<&String>, by: Option<&String>| GameNote {
        game: g.id.0,
        white: name(g.white),
        black: name(g.black),
        result: g.result.as_str().to_string(),
        termination: g.termination.tag().to_string(),
        worker: g.worker.clone(),
        reason: reason.cloned(),
        confirmed_by: by.cloned(),
        clocks: g.evidence.as_ref().map(clocks_said),
    };
    let mut notes = Notes::default();
    let mut by_worker: std::collections::BTreeMap<String, WorkerClaims> = Default::default();
    for g in games {
        let worker = g.worker.clone().unwrap_or_else(|| "unknown".into());
        let tally = by_worker
            .entry(worker.clone())
            .or_insert_with(|| WorkerClaims {
                worker,
                ..WorkerClaims::default()
            });
        tally.games += 1;
        match verdicts.get(g.id) {
            Some(Verdict::Claimed) => {
                tally.claimed += 1;
                notes.claimed.push(note(g, None, None));
            }
            Some(Verdict::Confirmed { by }) => {
                tally.claimed += 1;
                tally.confirmed += 1;
                notes.claimed.push(note(g, None, Some(by)));
            }
            Some(Verdict::Unconfirmed) => {
                tally.unconfirmed += 1;
                notes.unconfirmed.push(note(g, None, None));
            }
            Some(Verdict::Refused(reason)) => {
                tally.refused += 1;
                notes.refused.push(note(g, Some(reason), None));
            }
            Some(Verdict::Shown) | None => {}
        }
    }
    notes.by_worker = by_worker.into_values().collect();
    notes
}

/// The clocks a fault's evidence states, in words: `White 9.870 s and Black 10.000 s
/// left; the turn lasted 12.345 s`.
///
/// ```
/// let evidence = store::Evidence { left_ms: [Some(9870), None], turn_ms: 12_345,
///     at_start: false, answer: None, stderr: Vec::new() };
/// assert_eq!(results::clocks_said(&evidence),
///     "White 9.870 s and Black no clock left; the turn lasted 12.345 s");
/// ```
#[cfg(feature = "store")]
pub fn clocks_said(evidence: &store::Evidence) -> String {
    let left = |ms: Option<u64>| {
        ms.map_or_else(
            || "no clock".to_string(),
            |ms| format!("{:.3} s", ms as f64 / 1000.0),
        )
    };
    let [white, black] = evidence.left_ms;
    format!(
        "White {} and Black {} left; {} lasted {:.3} s",
        left(white),
        left(black),
        if evidence.at_start {
            "the start"
        } else {
            "the turn"
        },
        evidence.turn_ms as f64 / 1000.0
    )
}

fn fmt_opt(value: Option<f64>, signed: bool) -> String {
    match value {
        Some(v) if signed => format!("{v:+.1}"),
        Some(v) => format!("{v:.1}"),
        None => "-".to_string(),
    }
}

/// The widest name column of the text table; longer names end in `…` (full names are
/// in `--json` and `--csv`).
pub const NAME_WIDTH: usize = 32;

/// `name` cut to `width` characters, the last one an ellipsis if anything was cut.
fn truncate_name(name: &str, width: usize) -> String {
    if name.chars().count() <= width {
        return name.to_string();
    }
    let mut out: String = name.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// The table as text, with a line on how the ratings were computed.
pub fn render_text(table: &StandingsTable) -> String {
    let width = table
        .rows
        .iter()
        .map(|r| r.player.entry.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, NAME_WIDTH);
    let mut out = format!(
        "{:>4}  {:<width$}  {:<12} {:>4} {:>6} {:>5} {:>6} {:>4} {:>4} {:>4} {:>7} {:>6}  {:>5} {:>4} {:>7}\n",
        "rank",
        "name",
        "author",
        "ver",
        "tokens",
        "games",
        "points",
        "W",
        "D",
        "L",
        "Elo",
        "±95%",
        "crash",
        "time",
        "illegal"
    );
    for r in &table.rows {
        out.push_str(&format!(
            "{:>4}  {:<width$}  {:<12} {:>4} {:>6} {:>5} {:>6} {:>4} {:>4} {:>4} {:>7} {:>6}  {:>5} {:>4} {:>7}{}\n",
            r.rank,
            truncate_name(&r.player.entry, width),
            truncate_name(r.player.author.as_deref().unwrap_or("-"), 12),
            r.player.version.map_or("-".to_string(), |v| format!("v{v}")),
            r.player.tokens.map_or("-".to_string(), |t| t.to_string()),
            r.games,
            r.points,
            r.wins,
            r.draws,
            r.losses,
            fmt_opt(r.elo, true),
            fmt_opt(r.interval, false),
            r.crashes,
            r.timeouts,
            r.illegal,
            match r.player.status.as_str() {
                "replaced" | "withdrawn" => format!("  ({})", r.player.status),
                _ => String::new(),
            }
        ));
    }
    out.push_str(&summary(table));
    out.push_str(&checked_lines(table));
    if table.groups > 1 {
        out.push_str(&format!(
            "warning: the players form {} groups that never met; ratings are only comparable within a group\n",
            table.groups
        ));
    }
    out
}

/// The lines on the games the table counts on their workers' word, and on those it does
/// not count.
fn checked_lines(table: &StandingsTable) -> String {
    let mut out = String::new();
    if !table.claimed.is_empty() {
        out.push_str(&format!(
            "{} games end in a way their moves cannot show (a crash, a time forfeit, an illegal move, an adjudication); they count as the process that recorded them reports, with its evidence (`--json`: \"claimed\")\n",
            table.claimed.len()
        ));
    }
    if !table.unconfirmed.is_empty() {
        out.push_str(&format!(
            "{} claimed endings are not counted until a worker of another role, playing the pairing again, makes the same claim (`--json`: \"unconfirmed\")\n",
            table.unconfirmed.len()
        ));
    }
    let claimants: Vec<String> = table
        .claims_by_worker
        .iter()
        .filter(|w| w.claimed + w.unconfirmed + w.refused > 0)
        .map(worker_claims_said)
        .collect();
    if !claimants.is_empty() {
        out.push_str(&format!("claims by worker: {}\n", claimants.join("; ")));
    }
    for g in &table.refused {
        out.push_str(&format!(
            "game {} ({} - {}, {} by {}, recorded by {}) is not counted: {}\n",
            g.game,
            g.white,
            g.black,
            g.result,
            g.termination,
            g.worker.as_deref().unwrap_or("an unknown process"),
            g.reason.as_deref().unwrap_or("")
        ));
    }
    out
}

/// One worker's claims in words: `box1: 3 claims in 40 games (1 confirmed, 1 not
/// confirmed), 2 games not counted`.
pub fn worker_claims_said(w: &WorkerClaims) -> String {
    let mut said = format!("{}: {} claims in {} games", w.worker, w.claimed, w.games);
    if w.confirmed + w.unconfirmed > 0 {
        said.push_str(&format!(
            " ({} confirmed, {} not confirmed)",
            w.confirmed, w.unconfirmed
        ));
    }
    if w.refused > 0 {
        said.push_str(&format!(", {} games not counted", w.refused));
    }
    said
}

/// The lines under the table: games, skipped games, and how the ratings were computed.
fn summary(table: &StandingsTable) -> String {
    let skipped = match (table.skipped, table.unread) {
        (0, 0) => String::new(),
        (n, 0) => format!(" ({n} skipped: see the messages above)"),
        (0, u) => format!(" ({u} by their result alone: see the messages above)"),
        (n, u) => format!(" ({n} skipped, {u} by their result alone: see the messages above)"),
    };
    let centre = match &table.anchor {
        Some(a) => format!("anchored at `{a}` = {}", table.offset),
        None => format!("mean {}", table.offset),
    };
    let model = model_words(table);
    format!(
        "{} games rated{skipped}; Elo by {model}, {centre}, 95% intervals, prior {} virtual draws per player; converged in {} iterations\n",
        table.games, table.prior, table.iterations
    )
}

/// The rating model the table was fitted with, in words, with its parameters: what the
/// text and the pages say "Elo by" of.
pub(crate) fn model_words(table: &StandingsTable) -> String {
    match table.model {
        "bayeselo" => format!(
            "BayesElo's mm model (advantage {:.1}, drawelo {:.1}, scale {:.4})",
            table.advantage, table.draw_elo, table.scale
        ),
        _ => format!(
            "maximum likelihood (BayesElo's draw model, drawelo {:.1} fitted, colour ignored)",
            table.draw_elo
        ),
    }
}

/// The table as CSV (one header line, one line per row).
pub fn render_csv(table: &StandingsTable) -> String {
    let mut out = String::from(
        "rank,name,entry,author,version,hash,tokens,status,games,points,wins,draws,losses,elo,interval95,crashes,timeouts,illegal\n",
    );
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    for r in &table.rows {
        let p = &r.player;
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            r.rank,
            quote(&p.name),
            quote(&p.entry),
            quote(p.author.as_deref().unwrap_or("")),
            p.version.map_or(String::new(), |v| v.to_string()),
            p.hash.as_deref().unwrap_or(""),
            p.tokens.map_or(String::new(), |t| t.to_string()),
            p.status,
            r.games,
            r.points,
            r.wins,
            r.draws,
            r.losses,
            r.elo.map_or(String::new(), |e| format!("{e:.2}")),
            r.interval.map_or(String::new(), |e| format!("{e:.2}")),
            r.crashes,
            r.timeouts,
            r.illegal
        ));
    }
    out
}

/// The store's standings table, with the games counted on their workers' word and those
/// not counted.
#[cfg(feature = "store")]
pub fn store_table(
    store: &dyn Store,
    choice: &RatingChoice,
    tournament: Option<TournamentId>,
) -> Result<StandingsTable> {
    Ok(checked_table(store, &mut Verdicts::default(), choice, tournament)?.0)
}

/// [`store_table`] with `verdicts`, and the games that count as facts (for a crosstable).
#[cfg(feature = "store")]
pub(crate) fn checked_table(
    store: &dyn Store,
    verdicts: &mut Verdicts,
    choice: &RatingChoice,
    tournament: Option<TournamentId>,
) -> Result<(StandingsTable, Vec<GameFact>)> {
    let (all, field) = match tournament {
        Some(t) => (tournament_games(store, t)?, false),
        None => (store.games(false)?, true),
    };
    let (players, games, notes) = checked_facts(store, &all, verdicts, field)?;
    let mut table = build_table(players, &games, choice)?;
    table.claimed = notes.claimed;
    table.unconfirmed = notes.unconfirmed;
    table.refused = notes.refused;
    table.claims_by_worker = notes.by_worker;
    Ok((table, games))
}
