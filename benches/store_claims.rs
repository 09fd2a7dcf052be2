//! How many games per second the challenge store's claim/record path sustains: `N`
//! simulated workers (threads, each on its own connection, as `challenge worker` runs)
//! claim a slot, "play" it instantly and record a game with a realistic PGN, until the
//! tournament is done. On a throwaway PostgreSQL server on loopback, with PostgreSQL's
//! default durability (every commit flushed).
//!
//! References from the same run: a bare `SELECT 1` round trip on one connection, and the
//! SQLite store (one process, as `challenge run` uses it) doing the same claim/record
//! loop. `cargo bench --bench store_claims` (prints a skip message without PostgreSQL).

#[path = "../tests/e2e/postgres_server/mod.rs"]
mod postgres_server;

use std::time::{Duration, Instant};

use framework::notation::pgn::GameResult;
use postgres_server::PgServer;
use runner::{Termination, TimeControl};
use store::prelude::*;
use store::{
    Claim, EntryId, NewGame, NewTournament, NewVersion, PostgresStore, SlotPlan, SqliteStore,
    StoredRules, Submitted, Tournament, TournamentFormat, VersionId,
};

/// Entries in each benchmark tournament: 48 × 47 = 2,256 games.
const ENTRIES: usize = 48;

/// A PGN the size of a real 80-ply game with clock comments (about 2 KB).
fn pgn() -> String {
    let mut text = String::from(
        "[Event \"Challenge tournament 1\"]\n[Site \"challenge\"]\n[Date \"2026.11.23\"]\n[Round \"1.1.1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\n",
    );
    for n in 1..=40 {
        text.push_str(&format!("{n}. Nf3 {{+0.12/7 0.4s}} Nf6 {{-0.10/7 0.4s}} "));
    }
    text.push_str("1/2-1/2\n");
    text
}

/// Fills a store with entries and one round-robin tournament; the versions by entry.
fn setup(store: &mut dyn Store) -> Vec<(EntryId, VersionId)> {
    let mut players = Vec::new();
    for i in 0..ENTRIES {
        let name = format!("bot{i:03}");
        let source = format!("// bot {i}\n");
        let Submitted::New(v) = store
            .add_version(&NewVersion {
                name: &name,
                author: None,
                source: &source,
                hash: &format!("{i:016x}"),
                file_name: "bot.rs",
                tokens: 100,
                debug_tokens: 0,
            })
            .unwrap()
        else {
            panic!("a new entry")
        };
        players.push((v.entry_id, v.id));
    }
    let mut slots = Vec::new();
    for (w, &(white, _)) in players.iter().enumerate() {
        for (b, &(black, _)) in players.iter().enumerate() {
            if w != b {
                slots.push(SlotPlan {
                    round: 0,
                    pair: u32::try_from(slots.len() / 2).unwrap(),
                    game_in_pair: u32::try_from(slots.len() % 2).unwrap(),
                    white,
                    black,
                    opening: 0,
                });
            }
        }
    }
    let entries: Vec<EntryId> = players.iter().map(|p| p.0).collect();
    let settings = Tournament {
        id: store::TournamentId(0),
        format: TournamentFormat::RoundRobin,
        pairs: 1,
        rounds: 1,
        time_control: TimeControl::clock(Duration::from_secs(10), Duration::from_millis(100)),
        openings: Vec::new(),
        rules: StoredRules::default(),
        finished: false,
    };
    store
        .create_tournament(&NewTournament {
            settings: &settings,
            field: &entries,
            slots: &slots,
            byes: &[],
        })
        .unwrap();
    players
}

fn game(claim: &Claim, players: &[(EntryId, VersionId)], pgn: &str) -> NewGame {
    let version = |e: EntryId| players.iter().find(|p| p.0 == e).unwrap().1;
    NewGame {
        evidence: None,
        white: version(claim.slot.plan.white),
        black: version(claim.slot.plan.black),
        result: GameResult::Draw,
        termination: Termination::Repetition,
        faulty: None,
        detail: "threefold repetition".into(),
        plies: 80,
        pgn: pgn.to_string(),
    }
}

/// One simulated worker: claim one slot, record its game, until none is left.
fn drain(store: &mut dyn Store, players: &[(EntryId, VersionId)], name: &str) -> usize {
    let t = store.unfinished_tournament().unwrap().unwrap();
    let pgn = pgn();
    let mut recorded = 0;
    while let Some(claim) = store.claim(t.id, name, 1).unwrap().pop() {
        store.record(&claim, &game(&claim, players, &pgn)).unwrap();
        recorded += 1;
    }
    recorded
}

fn postgres_rate(server: &PgServer, workers: usize) -> f64 {
    let url = server.database(&format!("bench{workers}"));
    let mut store = PostgresStore::create(&url).unwrap();
    let players = setup(&mut store);
    let start = Instant::now();
    let total: usize = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let mut store = store.reconnect().unwrap();
                let players = &players;
                scope.spawn(move || drain(&mut store, players, &format!("w{w}")))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    let rate = total as f64 / start.elapsed().as_secs_f64();
    assert_eq!(total, ENTRIES * (ENTRIES - 1));
    assert_eq!(store.games(false).unwrap().len(), total);
    rate
}

fn select_one_rate(server: &PgServer) -> f64 {
    let url = server.database("ping");
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let n = 5000;
    let start = Instant::now();
    for _ in 0..n {
        client.query_one("SELECT 1", &[]).unwrap();
    }
    f64::from(n) / start.elapsed().as_secs_f64()
}

fn sqlite_rate() -> f64 {
    let dir = std::env::temp_dir().join(format!("kit-bench-sqlite-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut store = SqliteStore::create(&dir).unwrap();
    let players = setup(&mut store);
    let start = Instant::now();
    let total = drain(&mut store, &players, "local");
    let rate = total as f64 / start.elapsed().as_secs_f64();
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
    rate
}

fn main() {
    // `cargo test --benches` runs benches with `--bench` absent: do nothing then.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let Some(server) = PgServer::start_durable("bench") else {
        return;
    };
    let games = ENTRIES * (ENTRIES - 1);
    let ping = select_one_rate(&server);
    println!("reference: SELECT 1 round trips on one connection: {ping:.0}/s");
    let sqlite = sqlite_rate();
    println!("reference: SQLite store, one process: {sqlite:.0} games/s ({games} games)");
    for workers in [1, 4, 16] {
        let rate = postgres_rate(&server, workers);
        println!(
            "postgres store, {workers:>2} workers: {rate:.0} games/s ({games} games; {:.2}x SQLite, {:.3} games per SELECT 1)",
            rate / sqlite,
            rate / ping
        );
    }
}
