//! The live view's two costs (issue #24), measured on one real match played in this
//! process through the live hub (`serve_live`, as `challenge match --watch` serves it),
//! the runner's zero-work `instant_engine` example on both sides, and watchers reading
//! each game's event stream (`/live/{key}/events`) over loopback HTTP:
//!
//! - latency: for every move, the time from the runner's observer call to the arrival,
//!   at each watcher, of the first frame whose `plies` includes the move; median, p90 and
//!   maximum over the match, with 1 watcher and with 200 (goal: within 300 ms);
//! - watcher cost: the CPU time of the game's own thread (this one: engine pipes, rules,
//!   the hub's per-move frame) per move with 0, 1 and 200 watchers on the game, played
//!   alternately from the same opening in each round, so each round plays the same game
//!   with each; reported as ratios against no watchers (goal: at most +10%), beside two
//!   references from the same rounds: a second game without watchers (the noise) and a
//!   game the hub does not follow (what following costs at all). The hub's observer's
//!   own part of each move is reported apart: it does not grow with watchers when the
//!   game thread does nothing per watcher.
//!
//! The engines answer at once; the observer then sleeps `PACE_MS` (sleep costs no CPU),
//! so a game lasts long enough for its watchers to be sent frames all along, as an
//! engine's thinking time would. Games end by the rules or at [`MAX_PLIES`].
//!
//! Run: `cargo bench -p serve --bench live` (optionally `-- ROUNDS PACE_MS`, defaults 8
//! and 20). It prints figures and asserts none; it fails only when the match cannot be
//! played or a watcher misses a move.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use framework::chess::Board;
use runner::{
    AdjudicationRules, Engine, EngineConfig, GameRecord, GameSettings, MoveObserver, MoveUpdate,
    Opening, Player, TimeControl, parse_epd, play_game_observed,
};
use runner::{GameWatch, LiveEnd, LiveStart};
use serve::{COALESCE, LiveGames, serve_live};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;

const OPENINGS: &str = include_str!("../../openings/default.epd");

/// The games of a round: their watchers on the hub, `None` for a game the hub does not
/// follow at all (what `--watch` itself costs). The second game without watchers is the
/// reference that shows the noise (its ratio to the first would be 1 on a quiet
/// machine). Each round rotates the order in which they are played.
const GAMES: [Option<usize>; 5] = [Some(0), Some(1), Some(200), Some(0), None];

/// Follows no game: the observer of the game the hub does not follow.
struct Unwatched;

impl MoveObserver for Unwatched {
    fn moved(&mut self, _update: &MoveUpdate<'_>) {}
}

/// Games are drawn at this many plies, so that every game is long but bounded.
const MAX_PLIES: u32 = 160;

/// How long the bench waits for watchers to connect, or for a game's last frame.
const PATIENCE: Duration = Duration::from_secs(60);

/// When a move was made: the plies on the board after it, and the observer's call.
type Stamp = (usize, Instant);

/// A game's moves as the game thread saw them.
#[derive(Default)]
struct Timing {
    /// Each move, in order.
    moves: Vec<Stamp>,
    /// The game thread's CPU time for each move: from the end of the previous one (or the
    /// start of play) to the end of the observer's call.
    cpu: Vec<Duration>,
    /// The part of `cpu` spent in the hub's observer (the frame, its hand-over).
    hub: Vec<Duration>,
}

/// One game as measured.
struct Played {
    watchers: Option<usize>,
    timing: Timing,
    /// Per watcher: each frame that brought new plies, and when it arrived.
    arrivals: Vec<Vec<Stamp>>,
}

/// CPU time of the calling thread (Linux's `CLOCK_THREAD_CPUTIME_ID`: nanoseconds, the
/// thread alone, not the process's other threads or the engine processes).
fn thread_cpu() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread's CPU clock cannot be read");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// The hub's observer of a game, with each move's time and the game thread's CPU noted
/// around it, then the pause standing for the next engine's thinking.
struct Timed {
    inner: Box<dyn MoveObserver>,
    plies: usize,
    pace: Duration,
    timing: Timing,
    /// The thread's CPU clock at the start of play (then after the last move).
    cpu_mark: Duration,
}

impl MoveObserver for Timed {
    fn started(&mut self, board: &Board, clocks: [Option<Duration>; 2]) {
        self.inner.started(board, clocks);
        self.cpu_mark = thread_cpu();
    }

    fn moved(&mut self, update: &MoveUpdate<'_>) {
        let made = Instant::now();
        let before = thread_cpu();
        self.inner.moved(update);
        let after = thread_cpu();
        self.plies += 1;
        self.timing.moves.push((self.plies, made));
        self.timing.hub.push(after - before);
        self.timing.cpu.push(after - self.cpu_mark);
        self.cpu_mark = after;
        std::thread::sleep(self.pace);
    }
}

/// The `plies` of a frame event (`data: {"key":…,"plies":N,…}`); the first `"plies":`
/// is the field itself, as a name holding those characters is escaped in the JSON.
fn plies_of(event: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(event).ok()?;
    let at = text.find("\"plies\":")? + "\"plies\":".len();
    let digits: String = text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// One watcher: reads game `key`'s event stream (HTTP/1.0, so the body is the bare
/// stream until the server closes it after the game's last frame) and notes when each
/// frame bringing new plies arrived.
async fn watch(address: SocketAddr, key: i64) -> Result<Vec<Stamp>, String> {
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .map_err(|e| format!("cannot connect: {e}"))?;
    let request = format!("GET /live/{key}/events HTTP/1.0\r\nHost: localhost\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| format!("cannot ask: {e}"))?;
    let (mut pending, mut seen) = (Vec::new(), Vec::<Stamp>::new());
    let mut buffer = vec![0u8; 64 * 1024];
    loop {
        let n = stream
            .read(&mut buffer)
            .await
            .map_err(|e| format!("the stream broke: {e}"))?;
        if n == 0 {
            break;
        }
        let now = Instant::now();
        pending.extend_from_slice(&buffer[..n]);
        while let Some(end) = pending.windows(2).position(|w| w == b"\n\n") {
            let event: Vec<u8> = pending.drain(..end + 2).collect();
            let newest = seen.last().map(|s| s.0);
            match plies_of(&event) {
                Some(plies) if newest.is_none_or(|p| plies > p) => seen.push((plies, now)),
                Some(_) => {}
                None => {}
            }
        }
    }
    if seen.is_empty() {
        return Err(format!("no frame: {}", String::from_utf8_lossy(&pending)));
    }
    Ok(seen)
}

/// What stays the same through the match.
struct Bench {
    games: Arc<LiveGames>,
    address: SocketAddr,
    clients: Runtime,
    players: [Player; 2],
    engines: [Option<Engine>; 2],
    settings: GameSettings,
    pace: Duration,
}

impl Bench {
    fn new(pace: Duration) -> Bench {
        let server = serve_live("127.0.0.1:0".parse().unwrap(), 256).expect("the live view starts");
        let engine = instant_engine();
        let player = |name: &str| {
            Player::new(
                EngineConfig::new(name, &engine),
                "600+1".parse::<TimeControl>().unwrap(),
            )
        };
        let settings = GameSettings {
            adjudication: AdjudicationRules {
                draw: None,
                resign: None,
                max_plies: Some(MAX_PLIES),
            },
            ..GameSettings::default()
        };
        let clients = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("watchers")
            .enable_all()
            .build()
            .expect("the watchers' runtime starts");
        Bench {
            games: server.games,
            address: server.address,
            clients,
            players: [player("white"), player("black")],
            engines: [None, None],
            settings,
            pace,
        }
    }

    /// Plays game `key` from `opening` with `watchers` connected before its first move,
    /// or without the hub.
    fn play(&mut self, key: i64, opening: &Opening, watchers: Option<usize>) -> Played {
        let Some(count) = watchers else {
            let (_, timing) = self.play_timed(opening, Box::new(Unwatched));
            let arrivals = Vec::new();
            return Played {
                watchers,
                timing,
                arrivals,
            };
        };
        let tc = self.players[0].tc;
        let round = format!("game {key}");
        let start = LiveStart {
            key,
            white: "white",
            black: "black",
            round: &round,
            opening,
            time_controls: [tc, tc],
        };
        let follower = self.games.begin(&start).expect("the hub follows the game");
        let tasks = self.connect(key, count);
        // The follower is dropped with the game, which sends its last frame; the end
        // closes the streams.
        let (record, timing) = self.play_timed(opening, follower);
        self.games.end(&LiveEnd {
            key,
            record: &record,
            stored: None,
        });
        let arrivals = self.collect(tasks);
        Played {
            watchers,
            timing,
            arrivals,
        }
    }

    /// Plays a game from `opening` followed by `inner`, timed: the record, each move's
    /// stamp and CPU time on this thread.
    fn play_timed(
        &mut self,
        opening: &Opening,
        inner: Box<dyn MoveObserver>,
    ) -> (GameRecord, Timing) {
        let mut timed = Timed {
            inner,
            plies: opening.moves.len(),
            pace: self.pace,
            timing: Timing::default(),
            cpu_mark: Duration::ZERO,
        };
        let [white, black] = &mut self.engines;
        let record = play_game_observed(
            [&self.players[0], &self.players[1]],
            [white, black],
            opening,
            &self.settings,
            &AtomicBool::new(false),
            Some(&mut timed),
        );
        assert!(
            record.moves.len() >= 10,
            "the game ended too soon to measure: {} ({})",
            record.result.as_str(),
            record.detail
        );
        (record, timed.timing)
    }

    /// Starts `count` watchers of game `key` and waits until the hub counts them all.
    fn connect(&self, key: i64, count: usize) -> Vec<JoinHandle<Result<Vec<Stamp>, String>>> {
        let tasks: Vec<_> = (0..count)
            .map(|_| self.clients.spawn(watch(self.address, key)))
            .collect();
        let deadline = Instant::now() + PATIENCE;
        while self.games.watchers(key) < count {
            assert!(
                Instant::now() < deadline,
                "only {} of {count} watchers connected",
                self.games.watchers(key)
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        tasks
    }

    /// Each watcher's arrivals, once its stream has ended.
    fn collect(&self, tasks: Vec<JoinHandle<Result<Vec<Stamp>, String>>>) -> Vec<Vec<Stamp>> {
        self.clients.block_on(async {
            let mut all = Vec::with_capacity(tasks.len());
            for task in tasks {
                let seen = tokio::time::timeout(PATIENCE, task)
                    .await
                    .expect("a watcher's stream did not end after the game")
                    .expect("a watcher panicked");
                all.push(seen.unwrap_or_else(|e| panic!("a watcher failed: {e}")));
            }
            all
        })
    }
}

/// The runner's `instant_engine` example, built once.
fn instant_engine() -> PathBuf {
    let exe = std::env::current_exe().expect("bench executable path");
    let profile_dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("target/<profile>/deps");
    let path = profile_dir
        .join("examples")
        .join(format!("instant_engine{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--release", "-p", "runner"])
            .args(["--example", "instant_engine"])
            .status()
            .expect("run cargo to build the instant engine");
        assert!(
            status.success(),
            "building the instant_engine example failed"
        );
    }
    path
}

/// Every (move, watcher) latency of a game: from the move to the first frame holding it.
fn latencies(game: &Played) -> Vec<Duration> {
    let moves = &game.timing.moves;
    let mut out = Vec::with_capacity(moves.len() * game.arrivals.len());
    for seen in &game.arrivals {
        for &(plies, made) in moves {
            let first = seen.partition_point(|s| s.0 < plies);
            let (_, arrived) = *seen.get(first).unwrap_or_else(|| {
                panic!("a watcher never received ply {plies} (it saw {seen:?})")
            });
            out.push(arrived.saturating_duration_since(made));
        }
    }
    out
}

/// The value at `q` (0..=1) of sorted `values`.
fn quantile(values: &[f64], q: f64) -> f64 {
    let at = ((values.len() - 1) as f64 * q).round() as usize;
    values[at]
}

fn sorted(mut values: Vec<f64>) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    values
}

fn micros(cpu: &[Duration]) -> Vec<f64> {
    cpu.iter().map(|d| d.as_secs_f64() * 1e6).collect()
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

fn report_latency(rounds: &[Vec<Played>], watchers: usize) {
    let ms: Vec<f64> = rounds
        .iter()
        .flatten()
        .filter(|g| g.watchers == Some(watchers))
        .flat_map(latencies)
        .map(|d| d.as_secs_f64() * 1e3)
        .collect();
    let ms = sorted(ms);
    let coalesce = COALESCE.as_secs_f64() * 1e3;
    println!(
        "latency, {watchers:>3} watcher(s): {} samples (move × watcher): median {:.1} ms, p90 {:.1} ms, max {:.1} ms = {:.2}× the hub's {coalesce:.0} ms coalescing window (goal: ≤ 300 ms)",
        ms.len(),
        quantile(&ms, 0.5),
        quantile(&ms, 0.9),
        quantile(&ms, 1.0),
        quantile(&ms, 1.0) / coalesce,
    );
}

/// Which CPU time of a game's moves a line of the report compares.
type Part = fn(&Timing) -> &[Duration];

/// The CPU per move in game `slot` of each round against the first game without
/// watchers (the same moves), for the `part` named `what`: the ratio of the medians of
/// all moves (the figure: the machine's hiccups move means, not medians), the ratio of
/// the means, and the per-round ratios of the means.
fn report_cpu(rounds: &[Vec<Played>], slot: usize, what: &str, part: Part) {
    let of = |g: &Played| micros(part(&g.timing));
    let all = |i: usize| -> Vec<f64> { rounds.iter().flat_map(|r| of(&r[i])).collect() };
    let (with, without) = (sorted(all(slot)), sorted(all(0)));
    let per_round: Vec<String> = rounds
        .iter()
        .map(|r| format!("{:.2}", mean(&of(&r[slot])) / mean(&of(&r[0]))))
        .collect();
    let name = match GAMES[slot] {
        None => "no hub at all".to_string(),
        Some(0) => "0 watchers again (the noise)".to_string(),
        Some(n) => format!("{n:>3} watcher(s)"),
    };
    println!(
        "{what}, {name} / 0: medians {:.2} / {:.2} µs = {:.3}, means {:.2} / {:.2} µs = {:.3} (per round: {})",
        quantile(&with, 0.5),
        quantile(&without, 0.5),
        quantile(&with, 0.5) / quantile(&without, 0.5),
        mean(&with),
        mean(&without),
        mean(&with) / mean(&without),
        per_round.join(" "),
    );
}

/// The round's games as the table names them.
fn game_names() -> String {
    let names: Vec<String> = GAMES
        .iter()
        .enumerate()
        .map(|(slot, g)| match g {
            None => "no hub".to_string(),
            Some(n) if slot > 0 && *n == 0 => "0 again".to_string(),
            Some(n) => n.to_string(),
        })
        .collect();
    names.join(", ")
}

fn main() {
    let mut numbers = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse::<u64>().ok());
    let round_count = numbers.next().unwrap_or(8) as usize;
    let pace = Duration::from_millis(numbers.next().unwrap_or(20));
    let openings = parse_epd(OPENINGS, "openings/default.epd").expect("default suite parses");
    let mut bench = Bench::new(pace);
    println!(
        "{round_count} rounds of {} games (watchers: {}), one each from the same opening, {} ms between moves, draw at {MAX_PLIES} plies",
        GAMES.len(),
        game_names(),
        pace.as_millis()
    );
    let mut rounds = Vec::new();
    let mut key = 0;
    for round in 0..round_count {
        let opening = &openings[round % openings.len()];
        let mut games: Vec<Option<Played>> = GAMES.iter().map(|_| None).collect();
        for turn in 0..GAMES.len() {
            let slot = (round + turn) % GAMES.len();
            key += 1;
            games[slot] = Some(bench.play(key, opening, GAMES[slot]));
        }
        let games: Vec<Played> = games.into_iter().flatten().collect();
        println!(
            "round {}: {} moves; runner CPU µs/move (mean) by game: {}",
            round + 1,
            games[0].timing.moves.len(),
            games
                .iter()
                .map(|g| format!("{:.1}", mean(&micros(&g.timing.cpu))))
                .collect::<Vec<_>>()
                .join(" ")
        );
        rounds.push(games);
    }
    for watchers in [1, 200] {
        report_latency(&rounds, watchers);
    }
    for slot in 1..GAMES.len() {
        report_cpu(&rounds, slot, "runner CPU per move", |t| &t.cpu);
    }
    // The hub's own part of it: the same with and without watchers when the game thread
    // does nothing per watcher.
    for slot in 1..GAMES.len() - 1 {
        report_cpu(&rounds, slot, "of which the hub's observer", |t| &t.hub);
    }
}
