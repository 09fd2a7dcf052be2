//! The schema, once: one list of steps for both engines, numbered alike. A database's
//! schema version is the number of steps it has had, and this kit's is the length of the
//! list ([`SCHEMA_VERSION`]).
//!
//! A step is written once in SQL both engines read, with a few `{tokens}` where their
//! types differ ([`expand`]). Never edit a step that has shipped: append a new one.
//!
//! Old numbering: SQLite's `user_version` always counted these steps (1 the baseline, 2
//! the rules column, 3 the server's tables). PostgreSQL stores made before the steps were
//! shared counted their own ([`POSTGRES_LEGACY`]); their `schema_version` table lacks the
//! `shared` column, which tells them apart.

use crate::error::{StoreError, StoreResult};
use crate::sql::Dialect;

/// One schema step.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// What it adds, for messages.
    pub what: &'static str,
    /// Its SQL, with dialect tokens.
    pub sql: &'static str,
    /// The columns it adds that a worker's role may read on a PostgreSQL store, as
    /// `(table, "column, column")`, for the tables a worker reads column by column
    /// (`versions`, `slots`, `server_settings`: `postgres/access.rs` grants them). A column
    /// left out stays closed to workers, so a secret is never listed here.
    pub worker_reads: &'static [(&'static str, &'static str)],
}

/// The steps, in order: step `i` (0-based) takes a database from version `i` to `i + 1`.
pub const STEPS: [Step; 7] = [
    Step {
        what: "the entries, tournaments and games",
        // `IF NOT EXISTS`: challenge directories from before the schema was versioned
        // (version 0) already have these tables.
        sql: "
CREATE TABLE IF NOT EXISTS entries (
    id {id},
    name TEXT NOT NULL UNIQUE,
    author TEXT,
    withdrawn {bool} NOT NULL DEFAULT {false},
    created TEXT NOT NULL DEFAULT {now}
);
CREATE TABLE IF NOT EXISTS versions (
    id {id},
    entry_id {int} NOT NULL REFERENCES entries(id),
    number {int} NOT NULL,
    hash TEXT NOT NULL,
    source TEXT NOT NULL,
    file_name TEXT NOT NULL,
    tokens {int} NOT NULL,
    debug_tokens {int} NOT NULL,
    submitted TEXT NOT NULL DEFAULT {now},
    UNIQUE (entry_id, number)
);
CREATE TABLE IF NOT EXISTS tournaments (
    id {id},
    format TEXT NOT NULL,
    pairs {int} NOT NULL,
    rounds {int} NOT NULL,
    time_control TEXT NOT NULL,
    openings TEXT NOT NULL,
    finished {bool} NOT NULL DEFAULT {false},
    created TEXT NOT NULL DEFAULT {now}
);
CREATE TABLE IF NOT EXISTS participants (
    tournament_id {int} NOT NULL REFERENCES tournaments(id),
    entry_id {int} NOT NULL REFERENCES entries(id),
    seed {int} NOT NULL,
    PRIMARY KEY (tournament_id, entry_id)
);
CREATE TABLE IF NOT EXISTS slots (
    id {id},
    tournament_id {int} NOT NULL REFERENCES tournaments(id),
    round {int} NOT NULL,
    pair {int} NOT NULL,
    game_in_pair {int} NOT NULL,
    white_entry {int} NOT NULL REFERENCES entries(id),
    black_entry {int} NOT NULL REFERENCES entries(id),
    opening {int} NOT NULL,
    cancelled {bool} NOT NULL DEFAULT {false},
    game_id {int} UNIQUE{games_ref}
);
CREATE INDEX IF NOT EXISTS slots_pending ON slots (tournament_id, game_id);
CREATE TABLE IF NOT EXISTS byes (
    tournament_id {int} NOT NULL REFERENCES tournaments(id),
    round {int} NOT NULL,
    entry_id {int} NOT NULL REFERENCES entries(id),
    PRIMARY KEY (tournament_id, round)
);
CREATE TABLE IF NOT EXISTS games (
    id {id},
    tournament_id {int} REFERENCES tournaments(id),
    slot_id {int} UNIQUE REFERENCES slots(id),
    white_version {int} NOT NULL REFERENCES versions(id),
    black_version {int} NOT NULL REFERENCES versions(id),
    result TEXT NOT NULL,
    termination TEXT NOT NULL,
    faulty TEXT,
    detail TEXT NOT NULL,
    plies {int} NOT NULL,
    pgn TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT {now}
);
{slots_games_fk}",
        worker_reads: &[
            (
                "versions",
                "id, entry_id, number, hash, file_name, tokens, debug_tokens, submitted",
            ),
            (
                "slots",
                "id, tournament_id, round, pair, game_in_pair, white_entry, black_entry, \
                 opening, cancelled, game_id",
            ),
        ],
    },
    Step {
        what: "the rules each tournament is played under",
        // `NULL` (older tournaments) means the defaults of the time.
        sql: "ALTER TABLE tournaments ADD COLUMN rules TEXT;",
        worker_reads: &[],
    },
    Step {
        what: "the web server's switches, entry keys and submission jobs",
        // Secrets are stored only as SHA-256 hashes.
        sql: "
CREATE TABLE server_settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE entry_keys (
    entry_id {int} PRIMARY KEY REFERENCES entries(id),
    key_hash TEXT NOT NULL
);
CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    entry TEXT NOT NULL,
    state TEXT NOT NULL,
    message TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT {now},
    updated TEXT NOT NULL DEFAULT {now}
);
CREATE INDEX jobs_unfinished ON jobs (state);",
        // A row-level policy shows workers only the pause switch (`postgres/access.rs`).
        worker_reads: &[("server_settings", "name, value")],
    },
    Step {
        what: "workers: leases on slots, the kit version of each tournament, who played each game",
        sql: "
{lease_sequence}
ALTER TABLE tournaments ADD COLUMN kit_version TEXT;
ALTER TABLE slots ADD COLUMN lease_token {int};
ALTER TABLE slots ADD COLUMN lease_worker TEXT;
ALTER TABLE slots ADD COLUMN lease_expires {instant};
ALTER TABLE slots ADD COLUMN leased_at {instant};
CREATE TABLE workers (
    name TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    cores {int} NOT NULL,
    threads {int} NOT NULL,
    lease_seconds {real} NOT NULL,
    kit_version TEXT NOT NULL,
    started {instant} NOT NULL DEFAULT {instant_now},
    last_seen {instant} NOT NULL DEFAULT {instant_now},
    stopped {instant}
);
ALTER TABLE games ADD COLUMN worker TEXT;
ALTER TABLE games ADD COLUMN recorded_at {recorded_at};
CREATE INDEX games_worker ON games (worker, recorded_at);",
        // Not `lease_token`: holding the token is holding the lease.
        worker_reads: &[("slots", "lease_worker, lease_expires, leased_at")],
    },
    Step {
        what: "games in progress, as the workers publish them for the server's live pages",
        // One row per slot being played, replaced as the game goes on (`seq` grows with
        // every write, so a reader asks only for what changed) and deleted with the
        // slot's lease (`live.rs`, `postgres/access.rs`): the table never outgrows the games
        // in flight.
        sql: "
{live_sequence}
CREATE TABLE live_games (
    slot_id {int} PRIMARY KEY REFERENCES slots(id),
    seq {int} NOT NULL,
    snapshot TEXT NOT NULL,
    updated {instant} NOT NULL DEFAULT {instant_now}
);",
        // Workers write it only through `challenge_live` and read none of it.
        worker_reads: &[],
    },
    Step {
        what: "the invitation each submission job holds a use of",
        // The invitation's hash (`NULL`: none), so a job a restart ends gives its use back.
        sql: "ALTER TABLE jobs ADD COLUMN invitation TEXT;",
        worker_reads: &[],
    },
    Step {
        what: "the evidence of claimed endings, games set aside by cause, distrusted workers, each role's first claim of a slot",
        // `evidence`: JSON (`games.rs`), the organiser's alone (workers read no games).
        // `aside`: why a game is in no slot (`NULL`: in its slot, or set aside before
        // this step), `aside_from` the slot it left. `slot_holds`: when a worker's role
        // first claimed a slot, which bounds its hold however often it gives the slot
        // back and claims it again (`postgres/access.rs`).
        sql: "
ALTER TABLE games ADD COLUMN evidence TEXT;
ALTER TABLE games ADD COLUMN aside TEXT;
ALTER TABLE games ADD COLUMN aside_from {int} REFERENCES slots(id);
CREATE TABLE distrusted_workers (
    name TEXT PRIMARY KEY,
    since {instant} NOT NULL DEFAULT {instant_now}
);
CREATE TABLE slot_holds (
    slot_id {int} NOT NULL REFERENCES slots(id),
    role TEXT NOT NULL,
    first_claimed {instant} NOT NULL DEFAULT {instant_now},
    PRIMARY KEY (slot_id, role)
);
CREATE INDEX games_aside_from ON games (aside_from);",
        worker_reads: &[],
    },
];

/// The schema version this kit reads and writes.
pub const SCHEMA_VERSION: u32 = STEPS.len() as u32;

/// The tokens of the steps, in SQLite and in PostgreSQL.
const TOKENS: [(&str, &str, &str); 13] = [
    ("id", "INTEGER PRIMARY KEY", "BIGSERIAL PRIMARY KEY"),
    ("int", "INTEGER", "BIGINT"),
    ("bool", "INTEGER", "BOOLEAN"),
    ("false", "0", "FALSE"),
    ("real", "REAL", "FLOAT8"),
    (
        "now",
        "(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
        "to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')",
    ),
    ("instant", "TEXT", "TIMESTAMPTZ"),
    (
        "instant_now",
        "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
        "now()",
    ),
    // SQLite's ALTER TABLE cannot give a new column the clock as its default.
    ("recorded_at", "TEXT", "TIMESTAMPTZ NOT NULL DEFAULT now()"),
    // slots and games refer to each other: SQLite takes a reference to a table created
    // later, PostgreSQL adds it once both exist.
    ("games_ref", " REFERENCES games(id)", ""),
    (
        "slots_games_fk",
        "",
        "ALTER TABLE slots ADD FOREIGN KEY (game_id) REFERENCES games(id);",
    ),
    // Lease tokens come from a sequence; SQLite's claims live in memory.
    ("lease_sequence", "", "CREATE SEQUENCE lease_tokens;"),
    // A live game's `seq` comes from a sequence; nothing writes live games on SQLite (the
    // server plays a directory's games itself and follows them in memory).
    ("live_sequence", "", "CREATE SEQUENCE live_snapshots;"),
];

/// A step's SQL for `dialect`, its tokens replaced.
pub fn expand(sql: &str, dialect: Dialect) -> String {
    let mut out = sql.to_string();
    for (token, sqlite, postgres) in TOKENS {
        let value = match dialect {
            Dialect::Sqlite => sqlite,
            Dialect::Postgres => postgres,
        };
        out = out.replace(&format!("{{{token}}}"), value);
    }
    out
}

/// Which steps a database has had, as it says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stamp {
    /// The first `n` steps of [`STEPS`] (SQLite's `user_version`, or a PostgreSQL store
    /// made or upgraded by a kit that shares the steps).
    Shared(u32),
    /// A PostgreSQL store from before the steps were shared, at its own version `n`.
    PostgresLegacy(u32),
}

/// PostgreSQL's own old versions and the shared steps each had: its step 1 was steps 1
/// and 2 at once (the baseline with the rules column), its step 2 was step 4 (workers),
/// its step 3 was step 3 (the server's tables).
pub const POSTGRES_LEGACY: [(u32, &[u32]); 3] = [(1, &[1, 2]), (2, &[1, 2, 4]), (3, &[1, 2, 3, 4])];

impl Stamp {
    /// The steps (1-based) the database has had; `None` for a stamp this kit does not
    /// know (a newer kit's).
    pub fn applied(self) -> Option<Vec<u32>> {
        match self {
            Stamp::Shared(n) if n <= SCHEMA_VERSION => Some((1..=n).collect()),
            Stamp::Shared(_) => None,
            Stamp::PostgresLegacy(0) => Some(Vec::new()),
            Stamp::PostgresLegacy(n) => POSTGRES_LEGACY
                .iter()
                .find(|(old, _)| *old == n)
                .map(|(_, steps)| steps.to_vec()),
        }
    }

    /// The steps (1-based) still to apply, in order; `None` for a stamp this kit does
    /// not know.
    pub fn missing(self) -> Option<Vec<u32>> {
        let applied = self.applied()?;
        Some(
            (1..=SCHEMA_VERSION)
                .filter(|s| !applied.contains(s))
                .collect(),
        )
    }

    /// The version it counts as: how many steps from the first it has without a gap.
    pub fn version(self) -> u32 {
        match (self, self.applied()) {
            (_, Some(applied)) => (1..=SCHEMA_VERSION)
                .take_while(|s| applied.contains(s))
                .count() as u32,
            (Stamp::Shared(n) | Stamp::PostgresLegacy(n), None) => n,
        }
    }

    /// Whether it has every step of this kit.
    pub fn is_current(self) -> bool {
        self.missing().is_some_and(|m| m.is_empty())
    }
}

/// The tables, in the order the steps create them (so each comes after those it refers
/// to, but for the slot's game, filled in after the games).
pub fn tables() -> Vec<&'static str> {
    let mut tables = Vec::new();
    for step in &STEPS {
        for part in step.sql.split("CREATE TABLE ").skip(1) {
            let part = part.trim_start_matches("IF NOT EXISTS ");
            let name = part.split([' ', '(']).next().unwrap_or_default();
            tables.push(name);
        }
    }
    tables
}

/// Refuses a schema this kit does not know (a newer kit's).
pub(crate) fn require_known(stamp: Stamp, store: &str) -> StoreResult<()> {
    match stamp.missing() {
        Some(_) => Ok(()),
        None => Err(StoreError::NewerSchema {
            store: store.to_string(),
            found: stamp.version(),
            supported: SCHEMA_VERSION,
        }),
    }
}

/// Refuses a schema that is not this kit's, naming `upgrade` for an older one.
pub(crate) fn require_current(stamp: Stamp, store: &str, upgrade: &str) -> StoreResult<()> {
    require_known(stamp, store)?;
    if stamp.is_current() {
        return Ok(());
    }
    Err(StoreError::OlderSchema {
        store: store.to_string(),
        found: stamp.version(),
        current: SCHEMA_VERSION,
        upgrade: upgrade.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_is_replaced_in_both_dialects() {
        for dialect in [Dialect::Sqlite, Dialect::Postgres] {
            for step in &STEPS {
                let sql = expand(step.sql, dialect);
                assert!(
                    !sql.contains('{') && !sql.contains('}'),
                    "{dialect:?}: {sql}"
                );
            }
        }
        assert!(expand(STEPS[0].sql, Dialect::Sqlite).contains("UNIQUE REFERENCES games(id)"));
        assert!(expand(STEPS[0].sql, Dialect::Postgres).contains("game_id BIGINT UNIQUE\n"));
    }

    #[test]
    fn old_postgres_versions_map_to_the_shared_steps() {
        assert_eq!(
            Stamp::PostgresLegacy(1).missing(),
            Some(vec![3, 4, 5, 6, 7])
        );
        assert_eq!(Stamp::PostgresLegacy(2).missing(), Some(vec![3, 5, 6, 7]));
        assert_eq!(Stamp::PostgresLegacy(3).missing(), Some(vec![5, 6, 7]));
        assert_eq!(
            Stamp::PostgresLegacy(0).missing(),
            Some(vec![1, 2, 3, 4, 5, 6, 7])
        );
        assert_eq!(Stamp::PostgresLegacy(4).missing(), None);
        assert_eq!(
            [1, 2, 3].map(|n| Stamp::PostgresLegacy(n).version()),
            [2, 2, 4]
        );
        // Every old PostgreSQL store lacks the live games (step 5).
        assert!(!Stamp::PostgresLegacy(3).is_current());
        assert!(!Stamp::PostgresLegacy(2).is_current());
    }

    #[test]
    fn shared_versions_count_steps() {
        assert_eq!(Stamp::Shared(0).missing(), Some(vec![1, 2, 3, 4, 5, 6, 7]));
        assert_eq!(Stamp::Shared(2).missing(), Some(vec![3, 4, 5, 6, 7]));
        assert!(Stamp::Shared(SCHEMA_VERSION).is_current());
        assert_eq!(Stamp::Shared(SCHEMA_VERSION + 1).missing(), None);
        assert_eq!(Stamp::Shared(9).version(), 9);
    }

    #[test]
    fn tables_come_in_creation_order() {
        assert_eq!(
            tables(),
            [
                "entries",
                "versions",
                "tournaments",
                "participants",
                "slots",
                "byes",
                "games",
                "server_settings",
                "entry_keys",
                "jobs",
                "workers",
                "live_games",
                "distrusted_workers",
                "slot_holds"
            ]
        );
    }
}
