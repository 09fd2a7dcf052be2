//! The transposition-table lab bot (`bot/lab/tt_lab.rs`): each replacement scheme's rule on
//! hand-made entries, the same root value from every scheme and table size at a fixed depth
//! (the table may only change the work, never the minimax value), different work, and the
//! bot as an engine: built without `--allow-over-limit` and reporting its nodes.

#[path = "../../bot/lab/tt_lab.rs"]
mod lab;

use crate::common;

use std::collections::BTreeSet;
use std::time::Duration;

use framework::prelude::*;
use lab::{BIG1, BIGALL, DEEP, Entry, MyBot, NEW, NONE, OLD, TWOBIG1, TWODEEP, Table};

const SCHEMES: [u8; 7] = [DEEP, NEW, OLD, BIG1, BIGALL, TWODEEP, TWOBIG1];

/// Positions from `suites/breuker1996.epd` (two middlegames, two endgames) and a mate in
/// two, each with the depth it is searched to here.
const POSITIONS: [(&str, i32); 5] = [
    (
        "r4k1r/p1ppqp1p/b1p2Np1/4P3/2P5/bP4P1/P3QP1P/R3KB1R w KQ - 0 15",
        4,
    ),
    (
        "2rqkbnr/1b1n1p2/p2p3p/1p3R2/3BP1P1/P1N5/1PP1Q1BP/R5K1 b k - 0 15",
        4,
    ),
    ("5rk1/6pp/1b2p3/2npP3/p1p5/P1P5/1PBB2PP/2K1R3 w - - 0 31", 6),
    ("8/8/4p3/3pPkp1/p2K3p/PpP3PP/1P6/8 w - - 0 43", 8),
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 4),
];

fn entry(key: u64, depth: i32, size: u64) -> Entry {
    Entry {
        key,
        size,
        depth,
        fresh: true,
        ..Entry::default()
    }
}

/// Keys that share index 0 of a table of 16 entries (and bucket 0 of a two-level one).
const A: u64 = 16;
const B: u64 = 32;
const C: u64 = 48;

/// The keys the table holds, in key order.
fn keys(table: &Table) -> Vec<u64> {
    let mut keys: Vec<u64> = table
        .slots
        .iter()
        .filter(|e| e.depth > 0)
        .map(|e| e.key)
        .collect();
    keys.sort_unstable();
    keys
}

#[test]
fn one_level_schemes_keep_what_their_names_say() {
    let cases: [(u8, Entry, Entry, u64); 8] = [
        (DEEP, entry(A, 5, 10), entry(B, 4, 99), A),
        (DEEP, entry(A, 5, 10), entry(B, 5, 1), B),
        (NEW, entry(A, 9, 99), entry(B, 1, 1), B),
        (OLD, entry(A, 1, 1), entry(B, 9, 99), A),
        (BIG1, entry(A, 1, 100), entry(B, 9, 99), A),
        (BIG1, entry(A, 9, 100), entry(B, 1, 100), B),
        (BIGALL, entry(A, 1, 100), entry(B, 9, 99), A),
        (BIGALL, entry(A, 9, 100), entry(B, 1, 101), B),
    ];
    for (scheme, old, new, kept) in cases {
        let mut table = Table::new(scheme, 4);
        table.store(old);
        table.store(new);
        assert_eq!(
            keys(&table),
            [kept],
            "scheme {scheme}: {} then {}",
            old.key,
            new.key
        );
    }
}

#[test]
fn a_position_already_in_the_table_is_updated_in_place_by_every_scheme() {
    for scheme in SCHEMES {
        let mut table = Table::new(scheme, 4);
        table.store(entry(A, 7, 1000));
        table.store(Entry {
            score: 5,
            ..entry(A, 1, 1)
        });
        let found = table.probe(A).expect("still there");
        assert_eq!((found.depth, found.score), (1, 5), "scheme {scheme}");
        assert_eq!(table.used(), 1);
    }
}

#[test]
fn a_stale_entry_gives_way_to_any_newcomer_but_can_still_be_read() {
    for scheme in [DEEP, OLD, BIG1, BIGALL] {
        let mut table = Table::new(scheme, 4);
        table.store(entry(A, 9, 1000));
        table.new_search();
        assert!(
            table.probe(A).is_some(),
            "scheme {scheme}: stale entries are read"
        );
        // The probe made it fresh again, so it holds against a smaller newcomer ...
        table.store(entry(B, 1, 1));
        assert_eq!(keys(&table), [A], "scheme {scheme}");
        // ... but an entry nobody touched this search does not.
        table.new_search();
        table.store(entry(B, 1, 1));
        assert_eq!(keys(&table), [B], "scheme {scheme}");
    }
}

#[test]
fn two_level_tables_store_the_newcomer_over_the_less_valuable_of_two() {
    // TWODEEP: A (depth 5) and B (depth 3) fill bucket 0; C (depth 1) replaces B.
    let mut table = Table::new(TWODEEP, 4);
    for e in [entry(A, 5, 1), entry(B, 3, 1000), entry(C, 1, 1)] {
        table.store(e);
    }
    assert_eq!(keys(&table), [A, C]);
    // TWOBIG1 measures by size instead: B (size 1000) stays, A (size 1) goes.
    let mut table = Table::new(TWOBIG1, 4);
    for e in [entry(A, 5, 1), entry(B, 3, 1000), entry(C, 1, 1)] {
        table.store(e);
    }
    assert_eq!(keys(&table), [B, C]);
    // Half as many buckets: a key that a one-level table of 16 puts at index 8 shares
    // bucket 0 of a two-level table of 16 (8 buckets).
    let mut table = Table::new(TWODEEP, 4);
    table.store(entry(8, 2, 1));
    assert!(table.slots[..2].iter().any(|e| e.key == 8));
}

#[test]
fn no_table_stores_nothing() {
    let mut table = Table::new(NONE, 20);
    table.store(entry(A, 5, 1));
    assert!(table.probe(A).is_none());
    assert!(table.slots.is_empty());
}

/// Searches `fen` to `depth` with `scheme` and a table of `1 << bits`: (value, nodes).
fn search(fen: &str, depth: i32, scheme: u8, bits: u32) -> (i32, u64) {
    let mut board = Board::from_fen(fen).unwrap();
    let timer = Timer::untimed(SearchLimits {
        depth: Some(depth as u32),
        ..SearchLimits::default()
    });
    let mut bot = MyBot::with(scheme, bits);
    let (mv, value) = bot.think_scored(&mut board, &timer);
    assert!(board.is_legal(mv), "{fen}: {mv} is not legal");
    assert_eq!(
        board.fen(),
        Board::from_fen(fen).unwrap().fen(),
        "board restored"
    );
    assert_eq!(
        timer.nodes_searched(),
        Some(bot.nodes),
        "the timer saw every node"
    );
    (value, bot.nodes)
}

#[test]
fn every_scheme_and_size_finds_the_value_of_the_search_without_a_table() {
    for (fen, depth) in POSITIONS {
        let (reference, plain_nodes) = search(fen, depth, NONE, 0);
        let mut counts = BTreeSet::new();
        for scheme in SCHEMES {
            // 2^6 entries collide all the time; 2^16 hardly.
            for bits in [6, 16] {
                let (value, nodes) = search(fen, depth, scheme, bits);
                assert_eq!(
                    value, reference,
                    "{fen} depth {depth}: scheme {scheme}, 2^{bits}"
                );
                counts.insert(nodes);
                if bits == 16 {
                    assert!(nodes < plain_nodes, "{fen}: scheme {scheme} saves nothing");
                }
            }
        }
        assert!(
            counts.len() > 1,
            "{fen}: every scheme searched {counts:?} nodes"
        );
    }
}

#[test]
fn the_mate_is_found_and_scored_by_its_distance() {
    let (value, _) = search(POSITIONS[4].0, 4, TWOBIG1, 10);
    assert_eq!(value, lab::MATE - 1, "Rd8# is mate in one ply");
}

#[test]
fn the_lab_bot_builds_over_the_limit_and_reports_nodes_as_an_engine() {
    let mut engine = common::Engine::start(&common::build("bot/lab/tt_lab.rs"));
    engine.handshake();
    engine.send(&format!("position fen {}", POSITIONS[0].0));
    engine.send("go depth 3");
    let lines = engine
        .read_until("bestmove", Duration::from_secs(30))
        .expect("a bestmove");
    let depths = lines.iter().filter(|l| l.starts_with("info depth")).count();
    assert_eq!(depths, 3, "one info line per iteration: {lines:?}");
    let nodes = lines
        .iter()
        .find_map(|l| l.strip_prefix("info nodes "))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no `info nodes` line: {lines:?}"));
    let (_, in_process) = search(POSITIONS[0].0, 3, lab::SCHEME, lab::TT_BITS);
    assert_eq!(
        nodes, in_process,
        "the engine counts as the bot does in process"
    );
    engine.send("quit");
    engine.wait_exit(Duration::from_secs(5)).expect("quits");
}

#[test]
fn only_the_lab_folder_runs_over_the_limit_and_no_submission_gets_through() {
    let dir = common::scratch_dir("tt_lab_limit");
    // The same file anywhere else is an ordinary bot over the limit.
    let copy = dir.join("tt_lab.rs");
    std::fs::copy(common::kit_root().join("bot/lab/tt_lab.rs"), &copy).unwrap();
    let output = common::challenge(&["build", copy.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success(),
        "a copy outside bot/lab/ was built"
    );
    assert!(stderr.contains("over the token limit"), "{stderr}");
    // A variant of the lab bot is a lab bot (its file is made under target/variants/).
    let output = common::challenge(&["build", "bot/lab/tt_lab.rs@TT_BITS=12,SCHEME=DEEP"]);
    assert!(
        output.status.success(),
        "a variant of the lab bot was refused: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    // A submission is judged by its own check, which knows no lab.
    let challenge_dir = dir.join("challenge");
    let output = common::challenge(&[
        "submit",
        "bot/lab/tt_lab.rs",
        "--name",
        "lab",
        "--dir",
        challenge_dir.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "the lab bot was accepted");
    assert!(
        stderr.contains("refused") && stderr.contains("over the limit"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
