//! Least privilege on a PostgreSQL store: what a worker's role may do, from PostgreSQL
//! itself.
//!
//! Everything a worker writes goes through a few `SECURITY DEFINER` functions, owned by
//! the store's owner (the organiser) and run with its rights, each with its
//! `search_path` fixed to the store's schema and `pg_temp` last (as PostgreSQL's manual
//! asks of definer functions, so no object a caller makes can stand in for the store's):
//!
//! | function | what it does |
//! |---|---|
//! | `challenge_claim` | leases pending slots of a tournament, each with a fresh random token |
//! | `challenge_renew` | pushes the expiry of the leases whose tokens it is given |
//! | `challenge_limits` | the session's role, whether it is the organiser's, and the limits a worker's role is held to |
//! | `challenge_release` | gives a slot back, with its token |
//! | `challenge_record` | stores a game on a slot still leased with the token, checked: the versions are the slot's players, the result and termination are ones the kit writes, the texts are bounded |
//! | `challenge_source` | a player's source, for a slot leased with the token |
//! | `challenge_live` | a game's live snapshot, for a slot leased with the token, bounded in size |
//! | `challenge_announce`, `challenge_seen`, `challenge_stopped` | a worker's row in `workers` |
//!
//! A worker's role is bound further by what the organiser set
//! ([`WorkerLimits`](super::WorkerLimits), in
//! `server_settings`), checked inside the functions, not by the client: it holds at most
//! `max_leases` games at once, asks for leases of at most `max_lease_seconds`, and keeps
//! no game past `max_hold_seconds` after claiming it, renewals included. Its workers act
//! only under its own name (`session_user`) or that name, `.` and more, so it can claim,
//! announce, report in and stop under no other worker's name. The organiser's role (the
//! store's owner) is bound by none of these. `challenge workers revoke` frees the leases
//! of the role's workers; `challenge workers free NAME` those of one worker.
//!
//! The store uses them for everyone, organiser or worker, so there is one code path. A
//! worker's role ([`PostgresStore::grant_worker`], `challenge workers grant ROLE`) gets
//! only: `EXECUTE` on those functions; `SELECT` on `schema_version`, `tournaments` and
//! `entries`; `SELECT` on the columns of `versions` but `source`, and of `slots` but
//! `lease_token`; and `SELECT` on `server_settings`, where a row-level policy shows
//! non-owners only the `tournament_paused` switch. No `INSERT`, `UPDATE` or `DELETE` on any
//! table, nothing on `games`, `live_games`, `entry_keys`, `jobs` or `workers`, no `CREATE`
//! anywhere.
//! Lease tokens are 64 random bits (`gen_random_uuid`, PostgreSQL 13 or newer) that no
//! worker can read from the table, so holding the token is holding the lease.
//!
//! The functions are installed (or replaced) when a role that owns the store connects
//! and finds them missing or different from this kit's: the fingerprint of their text is
//! what `challenge_access_version()` returns. A worker's role cannot install them and
//! says so. The roles given worker rights are listed in `worker_roles`, so a reinstall
//! grants them again.

use anyhow::{Context, Result, bail};
use base64::Engine as _;
use postgres::error::SqlState;
use postgres::{Client, Config, Transaction};
use runner::Termination;
use sha2::{Digest, Sha256};

use super::pg_error;
use super::workers::{
    DEFAULT_LIMITS, Holder, MAX_HOLD_SETTING, MAX_LEASE_SETTING, MAX_LEASES_SETTING, free_leases,
};
use crate::error::{StoreError, StoreResult};
use crate::games::MAX_EVIDENCE_BYTES;
use crate::{Claim, PostgresStore, VersionId};

/// The largest snapshot a game may have in the store (`challenge_live` refuses a larger
/// one). A game's snapshot holds its moves, so the kit drops the oldest moves of a game
/// long enough to pass it; engine text in it is bounded by the runner already.
pub const MAX_LIVE_SNAPSHOT_BYTES: usize = 64 << 10;

/// SQLSTATE of `challenge_record`, `challenge_source`: the slot is not leased with the
/// token given (it was recorded, released, or its lease ran out and was claimed again).
pub(crate) const LEASE_NOT_HELD: &str = "KL001";
/// SQLSTATE of a game or request the functions refuse as malformed.
pub(crate) const REFUSED: &str = "KL002";

/// Advisory lock key for installing the functions (beside the migration's).
const ACCESS_LOCK: i64 = 0x6b69_7401;
/// First key of the two-key advisory lock a worker role's claims take one at a time
/// under (the second: the role's name, hashed).
const CLAIM_LOCK: i32 = 0x6b69;

/// The functions a worker's role may execute, with their argument types.
const WORKER_FUNCTIONS: [&str; 10] = [
    "challenge_claim(bigint, text, bigint, double precision)",
    "challenge_renew(bigint[], double precision)",
    "challenge_limits()",
    "challenge_release(bigint, bigint)",
    "challenge_record(bigint, bigint, bigint, bigint, text, text, text, text, bigint, text, text)",
    "challenge_source(bigint, bigint, bigint)",
    "challenge_live(bigint, bigint, text)",
    "challenge_announce(text, text, bigint, bigint, text, double precision)",
    "challenge_seen(text)",
    "challenge_stopped(text)",
];

/// What a worker's role may read whole (tables without secrets); the tables it reads by
/// column are those the schema's steps list (`Step::worker_reads`, [`read_columns`]).
const READ_TABLES: [&str; 3] = ["schema_version", "tournaments", "entries"];

/// The columns a worker's role may read, by table, gathered from the schema's steps in
/// order, so a new column is granted by the step that adds it.
fn read_columns() -> Vec<(&'static str, String)> {
    let mut tables: Vec<(&'static str, String)> = Vec::new();
    for &(table, columns) in crate::schema::STEPS.iter().flat_map(|s| s.worker_reads) {
        let columns = columns.split_whitespace().collect::<Vec<_>>().join(" ");
        match tables.iter_mut().find(|(t, _)| *t == table) {
            Some((_, listed)) => *listed = format!("{listed}, {columns}"),
            None => tables.push((table, columns)),
        }
    }
    tables
}

/// The largest texts a game may carry (far above any real game: they bound what a
/// role with a worker's rights can make the store hold).
const MAX_PGN_BYTES: i64 = 16 << 20;
const MAX_DETAIL_BYTES: i64 = 64 << 10;

/// Whether the session's role (`session_user`: the role that connected, not the
/// definer's) shares the store owner's rights: the organiser's processes, which the
/// worker limits do not bound.
const SESSION_ORGANISER: &str = "pg_has_role(session_user, (SELECT c.relowner FROM pg_class c WHERE c.oid = 'slots'::regclass), 'MEMBER')";

/// Whether the lease on row `h` of `slots` is held by a worker of the session's role:
/// its worker's name is the role's, or the role's and `.` and more.
const HELD_BY_SESSION: &str = "(h.lease_worker = session_user::text OR left(h.lease_worker, length(session_user) + 1) = session_user || '.')";

/// A setting of `server_settings` as a number, or `default` when unset.
fn setting(name: &str, default: u64) -> String {
    format!(
        "COALESCE((SELECT st.value FROM server_settings st WHERE st.name = '{name}'), '{default}')::float8"
    )
}

/// The checks every function makes of a worker's name: 1 to 64 characters, and, for a
/// role that is not the organiser's, the role's own name or the role's name and `.` and
/// more, so one worker's role cannot act under another's name.
fn check_name() -> String {
    format!(
        "
    IF p_name IS NULL OR length(p_name) NOT BETWEEN 1 AND 64 THEN
        RAISE EXCEPTION 'a worker''s name has 1 to 64 characters' USING ERRCODE = 'KL002';
    END IF;
    IF NOT {SESSION_ORGANISER} AND p_name <> session_user::text
       AND left(p_name, length(session_user) + 1) <> session_user || '.' THEN
        RAISE EXCEPTION 'role % acts only as worker % or %.NAME, not as %', session_user,
            session_user, session_user, quote_literal(left(p_name, 64))
            USING ERRCODE = 'insufficient_privilege';
    END IF;"
    )
}

/// The checks every function makes of a lease's length: above 0 and at most a week for
/// anyone, at most the organiser's `worker_max_lease_seconds` for a worker's role.
fn check_lease() -> String {
    let max = setting(MAX_LEASE_SETTING, DEFAULT_LIMITS.max_lease_seconds);
    format!(
        "
    IF p_lease IS NULL OR NOT (p_lease > 0 AND p_lease <= 604800) THEN
        RAISE EXCEPTION 'a lease lasts more than 0 and at most 604800 seconds' USING ERRCODE = 'KL002';
    END IF;
    IF NOT {SESSION_ORGANISER} AND p_lease > {max} THEN
        RAISE EXCEPTION 'the organiser allows leases of at most % seconds', {max} USING ERRCODE = 'KL002';
    END IF;"
    )
}

/// A fresh lease token: 64 bits of `gen_random_uuid`'s strong randomness.
const NEW_TOKEN: &str = "('x' || substr(md5(gen_random_uuid()::text), 1, 16))::bit(64)::bigint";

/// Whether the worker `p_name` is distrusted (`challenge workers distrust`): its name, or
/// its role's (the name up to its first `.`), is listed.
const DISTRUSTED: &str = "EXISTS (SELECT 1 FROM distrusted_workers d WHERE d.name = p_name OR d.name = split_part(p_name, '.', 1))";

/// The SQL of `challenge_claim` (`{S}`: the schema, quoted). A distrusted worker claims
/// nothing. A worker's role is bounded by the organiser's limits
/// ([`WorkerLimits`](super::WorkerLimits)): it leases no more than its role may hold at
/// once (counted under a per-role lock, so claims at once cannot pass it together), and
/// it holds a slot at most the longest hold from its first claim of that slot
/// (`slot_holds`), renewals, releases and claims again included: once that is spent, the
/// slot is for other roles. Whoever claims, a slot whose claimed ending awaits another
/// worker's confirmation is not handed to a worker of the role that claimed it.
fn claim_function() -> String {
    let (check_name, check_lease) = (check_name(), check_lease());
    let max_leases = setting(MAX_LEASES_SETTING, DEFAULT_LIMITS.max_leases);
    let max_hold = setting(MAX_HOLD_SETTING, DEFAULT_LIMITS.max_hold_seconds);
    let unconfirmed = crate::Aside::Unconfirmed.tag();
    format!(
        r#"
CREATE FUNCTION {{S}}.challenge_claim(p_tournament bigint, p_name text, p_max bigint, p_lease double precision)
RETURNS TABLE (id bigint, round bigint, pair bigint, game_in_pair bigint, white_entry bigint,
               black_entry bigint, opening bigint, game_id bigint, cancelled boolean,
               lease_token bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
#variable_conflict use_column
DECLARE allowed bigint := greatest(p_max, 0); organiser boolean := {SESSION_ORGANISER};
        picked bigint[];
BEGIN{check_name}{check_lease}
    IF {DISTRUSTED} THEN
        RAISE EXCEPTION 'worker % is distrusted by the organiser: it claims no more games', p_name
            USING ERRCODE = 'KL002';
    END IF;
    IF NOT organiser THEN
        PERFORM pg_advisory_xact_lock({CLAIM_LOCK}, hashtext(session_user::text));
        allowed := least(allowed, greatest(0, ({max_leases})::bigint - (
            SELECT COUNT(*) FROM slots h
            WHERE h.game_id IS NULL AND h.lease_expires > now() AND {HELD_BY_SESSION})));
    END IF;
    SELECT array_agg(c.id) INTO picked FROM (
        SELECT c.id FROM slots c
        WHERE c.tournament_id = p_tournament AND c.game_id IS NULL
          AND NOT c.cancelled
          AND (c.lease_expires IS NULL OR c.lease_expires < now())
          AND c.white_entry NOT IN (SELECT e.id FROM entries e WHERE e.withdrawn)
          AND c.black_entry NOT IN (SELECT e.id FROM entries e WHERE e.withdrawn)
          AND NOT EXISTS (SELECT 1 FROM games g
                          WHERE g.aside_from = c.id AND g.aside = '{unconfirmed}'
                            AND split_part(g.worker, '.', 1) = split_part(p_name, '.', 1))
          AND (organiser OR NOT EXISTS (
                SELECT 1 FROM slot_holds sh
                WHERE sh.slot_id = c.id AND sh.role = session_user::text
                  AND sh.first_claimed + make_interval(secs => {max_hold}) <= now()))
        ORDER BY c.id LIMIT allowed FOR UPDATE SKIP LOCKED) c;
    IF NOT organiser THEN
        INSERT INTO slot_holds (slot_id, role)
        SELECT unnest(picked), session_user::text
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN QUERY
    WITH claimed AS (
        UPDATE slots s SET lease_token = {NEW_TOKEN}, lease_worker = p_name,
            leased_at = h.held_since,
            lease_expires = CASE WHEN organiser THEN now() + make_interval(secs => p_lease)
                ELSE least(now() + make_interval(secs => p_lease),
                           h.held_since + make_interval(secs => {max_hold})) END
        FROM (SELECT p.id, CASE WHEN organiser THEN now() ELSE (
                  SELECT sh.first_claimed FROM slot_holds sh
                  WHERE sh.slot_id = p.id AND sh.role = session_user::text) END AS held_since
              FROM unnest(picked) AS p(id)) h
        WHERE s.id = h.id
        RETURNING s.id, s.round, s.pair, s.game_in_pair, s.white_entry, s.black_entry,
                  s.opening, s.game_id, s.cancelled, s.lease_token)
    SELECT * FROM claimed ORDER BY 1;
END $$;
"#
    )
}

/// The SQL of the other lease functions: renewing, the limits, giving back, a source.
fn lease_functions() -> String {
    let check_lease = check_lease();
    let max_leases = setting(MAX_LEASES_SETTING, DEFAULT_LIMITS.max_leases);
    let max_hold = setting(MAX_HOLD_SETTING, DEFAULT_LIMITS.max_hold_seconds);
    let max_lease = setting(MAX_LEASE_SETTING, DEFAULT_LIMITS.max_lease_seconds);
    format!(
        r#"
CREATE FUNCTION {{S}}.challenge_renew(p_tokens bigint[], p_lease double precision)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
DECLARE renewed bigint; organiser boolean := {SESSION_ORGANISER};
BEGIN{check_lease}
    UPDATE slots SET lease_expires = CASE WHEN organiser
        THEN now() + make_interval(secs => p_lease)
        ELSE least(now() + make_interval(secs => p_lease),
                   leased_at + make_interval(secs => {max_hold})) END
    WHERE lease_token = ANY (p_tokens) AND game_id IS NULL;
    GET DIAGNOSTICS renewed = ROW_COUNT;
    RETURN renewed;
END $$;

CREATE FUNCTION {{S}}.challenge_limits()
RETURNS TABLE (role text, organiser boolean, max_leases bigint, max_lease double precision,
               max_hold double precision)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
    SELECT session_user::text, {SESSION_ORGANISER}, ({max_leases})::bigint, {max_lease},
           {max_hold}
$$;

CREATE FUNCTION {{S}}.challenge_release(p_slot bigint, p_token bigint)
RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
BEGIN
    UPDATE slots SET lease_token = NULL, lease_worker = NULL, lease_expires = NULL
    WHERE id = p_slot AND lease_token = p_token;
    IF NOT FOUND THEN
        RETURN FALSE;
    END IF;
    DELETE FROM live_games WHERE slot_id = p_slot;
    RETURN TRUE;
END $$;

CREATE FUNCTION {{S}}.challenge_source(p_slot bigint, p_token bigint, p_version bigint)
RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
DECLARE s slots%ROWTYPE; found_source text;
BEGIN
    SELECT * INTO s FROM slots WHERE id = p_slot AND lease_token = p_token AND game_id IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'slot % is not leased with this token', p_slot USING ERRCODE = 'KL001';
    END IF;
    SELECT v.source INTO found_source FROM versions v
    WHERE v.id = p_version AND v.entry_id IN (s.white_entry, s.black_entry);
    IF NOT FOUND THEN
        RAISE EXCEPTION 'version % plays no side of slot %', p_version, p_slot USING ERRCODE = 'KL002';
    END IF;
    RETURN found_source;
END $$;
"#
    )
}

/// The SQL of `challenge_record`: every field of the game checked before it is stored.
fn record_function() -> String {
    let terminations = Termination::ALL
        .iter()
        .map(|t| format!("'{}'", t.tag().replace('\'', "''")))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        r#"
CREATE FUNCTION {{S}}.challenge_record(p_slot bigint, p_token bigint, p_white bigint,
    p_black bigint, p_result text, p_termination text, p_faulty text, p_detail text,
    p_plies bigint, p_pgn text, p_evidence text)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
DECLARE s slots%ROWTYPE; stored bigint;
BEGIN
    SELECT * INTO s FROM slots
    WHERE id = p_slot AND lease_token = p_token AND game_id IS NULL FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'slot % is not leased with this token', p_slot USING ERRCODE = 'KL001';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM versions WHERE id = p_white AND entry_id = s.white_entry)
       OR NOT EXISTS (SELECT 1 FROM versions WHERE id = p_black AND entry_id = s.black_entry) THEN
        RAISE EXCEPTION 'the versions given are not slot %''s players', p_slot USING ERRCODE = 'KL002';
    END IF;
    IF p_result IS NULL OR p_result NOT IN ('1-0', '0-1', '1/2-1/2') THEN
        RAISE EXCEPTION 'a stored game has a result: 1-0, 0-1 or 1/2-1/2' USING ERRCODE = 'KL002';
    END IF;
    IF p_termination IS NULL OR p_termination <> ALL (ARRAY[{terminations}]) THEN
        RAISE EXCEPTION 'termination % is not one the kit writes', quote_literal(left(p_termination, 40)) USING ERRCODE = 'KL002';
    END IF;
    IF p_faulty IS NOT NULL AND p_faulty NOT IN ('white', 'black') THEN
        RAISE EXCEPTION 'the faulty side is white or black' USING ERRCODE = 'KL002';
    END IF;
    IF p_plies IS NULL OR p_plies < 0 OR p_detail IS NULL OR p_pgn IS NULL
       OR octet_length(p_detail) > {MAX_DETAIL_BYTES} OR octet_length(p_pgn) > {MAX_PGN_BYTES} THEN
        RAISE EXCEPTION 'the game''s detail, plies or PGN are missing or too large' USING ERRCODE = 'KL002';
    END IF;
    IF octet_length(p_evidence) > {MAX_EVIDENCE_BYTES} THEN
        RAISE EXCEPTION 'a game''s evidence has at most {MAX_EVIDENCE_BYTES} bytes' USING ERRCODE = 'KL002';
    END IF;
    IF p_evidence IS NOT NULL THEN
        BEGIN
            IF json_typeof(p_evidence::json) <> 'object' THEN
                RAISE EXCEPTION 'not an object' USING ERRCODE = 'invalid_text_representation';
            END IF;
        EXCEPTION WHEN invalid_text_representation THEN
            RAISE EXCEPTION 'a game''s evidence is a JSON object' USING ERRCODE = 'KL002';
        END;
    END IF;
    INSERT INTO games (tournament_id, slot_id, white_version, black_version, result,
                       termination, faulty, detail, plies, pgn, worker, evidence)
    VALUES (s.tournament_id, s.id, p_white, p_black, p_result, p_termination, p_faulty,
            p_detail, p_plies, p_pgn, s.lease_worker, p_evidence)
    RETURNING id INTO stored;
    UPDATE slots SET game_id = stored, lease_expires = NULL WHERE id = s.id;
    DELETE FROM live_games WHERE slot_id = s.id;
    RETURN stored;
END $$;
"#
    )
}

/// The SQL of `challenge_live`: a game's snapshot, for a slot leased with the token (the
/// slot's row is share-locked, so a release or record waits for the write and deletes
/// its row after it), at most [`MAX_LIVE_SNAPSHOT_BYTES`]. Each write also deletes the
/// rows of leases that ended without one (a worker that died), skipping rows another
/// write holds, so the table holds only the games in flight.
fn live_function() -> String {
    format!(
        r#"
CREATE FUNCTION {{S}}.challenge_live(p_slot bigint, p_token bigint, p_snapshot text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
BEGIN
    IF p_snapshot IS NULL OR octet_length(p_snapshot) > {MAX_LIVE_SNAPSHOT_BYTES} THEN
        RAISE EXCEPTION 'a live game''s snapshot has at most {MAX_LIVE_SNAPSHOT_BYTES} bytes' USING ERRCODE = 'KL002';
    END IF;
    PERFORM 1 FROM slots WHERE id = p_slot AND lease_token = p_token AND game_id IS NULL
    FOR SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'slot % is not leased with this token', p_slot USING ERRCODE = 'KL001';
    END IF;
    DELETE FROM live_games WHERE slot_id IN (
        SELECT l.slot_id FROM live_games l JOIN slots s ON s.id = l.slot_id
        WHERE l.slot_id <> p_slot
          AND (s.game_id IS NOT NULL OR s.lease_token IS NULL OR s.lease_expires < now())
        FOR UPDATE OF l SKIP LOCKED);
    INSERT INTO live_games (slot_id, seq, snapshot)
    VALUES (p_slot, nextval('live_snapshots'), p_snapshot)
    ON CONFLICT (slot_id) DO UPDATE SET seq = excluded.seq, snapshot = excluded.snapshot,
        updated = now();
END $$;
"#
    )
}

/// The SQL of the functions a worker announces itself with.
fn worker_functions() -> String {
    let (check_name, check_lease) = (check_name(), check_lease());
    format!(
        r#"
CREATE FUNCTION {{S}}.challenge_announce(p_name text, p_host text, p_cores bigint,
    p_threads bigint, p_kit text, p_lease double precision)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
BEGIN{check_name}{check_lease}
    IF p_host IS NULL OR length(p_host) NOT BETWEEN 1 AND 255
       OR p_kit IS NULL OR length(p_kit) NOT BETWEEN 1 AND 64
       OR p_cores IS NULL OR p_cores NOT BETWEEN 0 AND 1000000
       OR p_threads IS NULL OR p_threads NOT BETWEEN 0 AND 1000000 THEN
        RAISE EXCEPTION 'a worker announces a host, a kit version and its cores and threads' USING ERRCODE = 'KL002';
    END IF;
    INSERT INTO workers (name, host, cores, threads, kit_version, lease_seconds)
    VALUES (p_name, p_host, p_cores, p_threads, p_kit, p_lease)
    ON CONFLICT (name) DO UPDATE SET host = p_host, cores = p_cores, threads = p_threads,
        kit_version = p_kit, lease_seconds = p_lease, started = now(), last_seen = now(),
        stopped = NULL;
END $$;

CREATE FUNCTION {{S}}.challenge_seen(p_name text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
BEGIN{check_name}
    UPDATE workers SET last_seen = now() WHERE name = p_name;
END $$;

CREATE FUNCTION {{S}}.challenge_stopped(p_name text)
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = {{S}}, pg_temp AS $$
BEGIN{check_name}
    UPDATE workers SET stopped = now(), last_seen = now() WHERE name = p_name;
END $$;
"#
    )
}

/// Everything the install runs but the version stamp, for `schema` (quoted).
fn install_sql(schema: &str) -> String {
    let revoke: String = WORKER_FUNCTIONS
        .iter()
        .map(|f| format!("REVOKE ALL ON FUNCTION {schema}.{f} FROM PUBLIC;\n"))
        .collect();
    let body = [
        claim_function(),
        lease_functions(),
        record_function(),
        live_function(),
        worker_functions(),
    ]
    .concat();
    format!(
        "CREATE TABLE IF NOT EXISTS {schema}.worker_roles (
    name TEXT PRIMARY KEY,
    granted TIMESTAMPTZ NOT NULL DEFAULT now()
);
{body}
{revoke}
ALTER TABLE {schema}.server_settings ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS challenge_worker_switches ON {schema}.server_settings;
CREATE POLICY challenge_worker_switches ON {schema}.server_settings FOR SELECT
    USING (name = 'tournament_paused');
"
    )
    .replace("{S}", schema)
}

/// What an install sets up in `schema`, as text: the functions and policies, and the
/// grants every worker role gets (so a step that opens a new column to workers changes
/// the fingerprint, and the upgrade grants it to the roles there are).
fn installed_text(schema: &str) -> String {
    install_sql(schema) + &grants(schema, "{role}")
}

/// The fingerprint of an install's text: equal installs are the same functions and grants.
fn fingerprint(sql: &str) -> String {
    Sha256::digest(sql.as_bytes())
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The store's schema (where `slots` is), quoted as an identifier.
fn store_schema(client: &mut impl postgres::GenericClient) -> Result<String> {
    let row = client.query_opt(
        "SELECT quote_ident(n.nspname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.oid = to_regclass('slots')",
        &[],
    )?;
    let row = row.context("the store has no `slots` table in this connection's search_path")?;
    Ok(row.try_get(0)?)
}

/// The fingerprint of the installed functions, `None` when there are none.
fn installed(client: &mut impl postgres::GenericClient) -> Result<Option<String>> {
    let row = client.query_one(
        "SELECT to_regproc('challenge_access_version') IS NOT NULL",
        &[],
    )?;
    if !row.try_get::<_, bool>(0)? {
        return Ok(None);
    }
    let row = client.query_one("SELECT challenge_access_version()", &[])?;
    Ok(Some(row.try_get(0)?))
}

/// Whether this connection's role owns the store (its tables), so it may install the
/// functions and grant.
fn owns_store(client: &mut impl postgres::GenericClient) -> Result<bool> {
    let row = client.query_one(
        "SELECT COALESCE((SELECT pg_has_role(current_user, c.relowner, 'USAGE')
                          FROM pg_class c WHERE c.oid = to_regclass('slots')), FALSE)",
        &[],
    )?;
    Ok(row.try_get(0)?)
}

/// An access step's failure as the store's: the driver's errors classified as every
/// statement's are, a refusal explained here as [`StoreError::Access`].
fn access_error(shown: &str, err: anyhow::Error) -> StoreError {
    match err.downcast::<postgres::Error>() {
        Ok(db) => pg_error(shown, db),
        Err(other) => StoreError::Access {
            what: format!("{other:#}"),
        },
    }
}

/// Whether the store has this kit's access functions: a store opened only to use it (no
/// DDL) refuses other functions, naming `challenge upgrade`.
pub(crate) fn check(client: &mut Client, shown: &str) -> StoreResult<()> {
    let mut current = || -> Result<bool> {
        let wanted = fingerprint(&installed_text(&store_schema(client)?));
        Ok(installed(client)?.as_deref() == Some(wanted.as_str()))
    };
    match current() {
        Ok(true) => Ok(()),
        Ok(false) => Err(StoreError::Access {
            what: format!(
                "the store {shown} lacks this kit's worker functions: bring it up to date with `challenge upgrade --store URL`, using the organiser's credentials and this kit version"
            ),
        }),
        Err(err) => Err(access_error(shown, err)),
    }
}

/// Makes sure the store has this kit's access functions: installs them when they are
/// missing or differ and this role owns the store (returns whether it did); refuses a
/// role that cannot.
pub(crate) fn ensure(client: &mut Client, shown: &str) -> StoreResult<bool> {
    install(client, shown).map_err(|err| access_error(shown, err))
}

fn install(client: &mut Client, shown: &str) -> Result<bool> {
    let schema = store_schema(client)?;
    let sql = install_sql(&schema);
    let wanted = fingerprint(&installed_text(&schema));
    if installed(client)?.as_deref() == Some(wanted.as_str()) {
        return Ok(false);
    }
    if !owns_store(client)? {
        bail!(
            "the store {shown} lacks this kit's worker functions, and this role cannot install them: run `challenge upgrade --store URL` once with the organiser's credentials, using this kit version"
        );
    }
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&ACCESS_LOCK])?;
    if installed(&mut tx)?.as_deref() == Some(wanted.as_str()) {
        return Ok(false);
    }
    drop_functions(&mut tx)?;
    tx.batch_execute(&sql)?;
    tx.batch_execute(&format!(
        "CREATE FUNCTION {schema}.challenge_access_version() RETURNS text LANGUAGE sql IMMUTABLE
         SET search_path = pg_catalog, pg_temp AS $$ SELECT '{wanted}'::text $$;"
    ))?;
    let roles: Vec<String> = tx
        .query(
            &format!(
                "SELECT quote_ident(w.name) FROM {schema}.worker_roles w
                 WHERE EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = w.name)"
            ),
            &[],
        )?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    for role in roles {
        tx.batch_execute(&grants(&schema, &role))?;
    }
    tx.commit()
        .with_context(|| format!("cannot install the worker functions in {shown}"))?;
    Ok(true)
}

/// Drops every `challenge_*` function of the store's schema (an older kit's may have
/// other arguments), so the install leaves exactly this kit's.
fn drop_functions(tx: &mut Transaction<'_>) -> Result<()> {
    let old: Vec<String> = tx
        .query(
            "SELECT p.oid::regprocedure::text FROM pg_proc p
             WHERE p.pronamespace = (SELECT relnamespace FROM pg_class WHERE oid = to_regclass('slots'))
               AND p.proname LIKE 'challenge\\_%'",
            &[],
        )?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?;
    for function in old {
        tx.batch_execute(&format!("DROP FUNCTION {function}"))?;
    }
    Ok(())
}

/// The statements that give `role` (quoted) a worker's rights on the store in `schema`.
fn grants(schema: &str, role: &str) -> String {
    let mut sql = format!("GRANT USAGE ON SCHEMA {schema} TO {role};\n");
    for table in READ_TABLES {
        sql += &format!("GRANT SELECT ON {schema}.{table} TO {role};\n");
    }
    for (table, columns) in read_columns() {
        sql += &format!("GRANT SELECT ({columns}) ON {schema}.{table} TO {role};\n");
    }
    for function in WORKER_FUNCTIONS {
        sql += &format!("GRANT EXECUTE ON FUNCTION {schema}.{function} TO {role};\n");
    }
    sql
}

/// The statements that take a worker's rights away from `role` (quoted).
fn revokes(schema: &str, role: &str) -> String {
    let tables: Vec<String> = READ_TABLES
        .into_iter()
        .chain(read_columns().into_iter().map(|(t, _)| t))
        .map(|t| format!("{schema}.{t}"))
        .collect();
    let mut sql = format!("REVOKE ALL ON {} FROM {role};\n", tables.join(", "));
    for function in WORKER_FUNCTIONS {
        sql += &format!("REVOKE ALL ON FUNCTION {schema}.{function} FROM {role};\n");
    }
    sql + &format!("REVOKE USAGE ON SCHEMA {schema} FROM {role};\n")
}

/// Whether `err` is a function's refusal because the slot is not leased with the token.
pub(crate) fn is_lease_not_held(err: &postgres::Error) -> bool {
    err.code() == Some(&SqlState::from_code(LEASE_NOT_HELD))
}

/// Whether `err` is a function's refusal of a malformed game or request.
pub(crate) fn is_refused(err: &postgres::Error) -> bool {
    err.code() == Some(&SqlState::from_code(REFUSED))
}

/// What [`PostgresStore::revoke_worker`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revoked {
    /// Whether the role had been granted a worker's rights here.
    pub granted: bool,
    /// Unplayed games its workers held leased, given back to the pool.
    pub freed: u64,
}

/// What [`PostgresStore::grant_worker`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkerGrant {
    /// The role.
    pub role: String,
    /// Whether the role was created here (it did not exist).
    pub created: bool,
    /// The password set here (a new role, or `new_password`): shown once, stored by
    /// PostgreSQL only as a SCRAM verifier.
    pub password: Option<String>,
    /// Whether the role may log in (a role the DBA made may not, yet).
    pub can_login: bool,
}

/// A role name this kit creates or grants to: 1 to 63 lowercase letters, digits and `_`,
/// starting with a letter, not `pg_…` (PostgreSQL's own).
///
/// ```
/// use store::check_role_name;
/// assert!(check_role_name("box1_worker").is_ok());
/// for bad in ["", "Box", "1box", "pg_monitor", "a-b", "a\"b", &"w".repeat(64)] {
///     assert!(check_role_name(bad).is_err(), "{bad}");
/// }
/// ```
pub fn check_role_name(name: &str) -> Result<()> {
    let ok = (1..=63).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.starts_with("pg_");
    if !ok {
        bail!(
            "role `{name}`: use 1 to 63 lowercase letters, digits and `_`, starting with a letter (not `pg_`)"
        );
    }
    Ok(())
}

/// A new password: 192 random bits as URL-safe text (it goes in a `postgres://` URL as is).
fn new_password() -> Result<String> {
    let mut bytes = [0u8; 24];
    getrandom::fill(&mut bytes)
        .map_err(|e| anyhow::anyhow!("no randomness for a password: {e}"))?;
    Ok(base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
}

/// A role as PostgreSQL knows it.
struct RoleFacts {
    superuser: bool,
    bypasses_rls: bool,
    can_login: bool,
    /// The store's owner, or a member of the store's owner: it would have the owner's rights.
    owns_store: bool,
    /// May create objects in the store's schema (PostgreSQL before 15 lets everyone).
    creates_in_schema: bool,
}

fn role_facts(tx: &mut Transaction<'_>, role: &str, schema: &str) -> Result<Option<RoleFacts>> {
    let row = tx.query_opt(
        "SELECT r.rolsuper, r.rolbypassrls, r.rolcanlogin,
                pg_has_role(r.oid, (SELECT relowner FROM pg_class WHERE oid = to_regclass('slots')), 'MEMBER'),
                has_schema_privilege(r.oid, to_regnamespace($2::text)::oid, 'CREATE')
         FROM pg_roles r WHERE r.rolname = $1",
        &[&role, &schema],
    )?;
    row.map(|r| {
        Ok(RoleFacts {
            superuser: r.try_get(0)?,
            bypasses_rls: r.try_get(1)?,
            can_login: r.try_get(2)?,
            owns_store: r.try_get(3)?,
            creates_in_schema: r.try_get(4)?,
        })
    })
    .transpose()
}

/// Refuses a role that would hold more than a worker's rights whatever is granted.
fn check_facts(role: &str, facts: &RoleFacts, schema: &str) -> Result<()> {
    if facts.superuser || facts.bypasses_rls {
        bail!(
            "role `{role}` is a superuser (or bypasses row security): it can read and write everything, whatever is granted; give workers a role of their own"
        );
    }
    if facts.owns_store {
        bail!(
            "role `{role}` is the organiser's own role (or shares the store owner's rights): give workers a role of their own"
        );
    }
    if facts.creates_in_schema {
        bail!(
            "role `{role}` may create objects in the store's schema {schema} (PostgreSQL before 15 lets every role create in `public`): as the database's owner, run `REVOKE CREATE ON SCHEMA {schema} FROM PUBLIC` (PostgreSQL 15 and later do this by default), then grant again"
        );
    }
    Ok(())
}

impl PostgresStore {
    /// Gives `role` a worker's rights on this store and nothing more (see the module
    /// documentation): creates it as a `LOGIN` role with a generated password if it does
    /// not exist (the organiser's role needs `CREATEROLE`), or sets a new password on an
    /// existing one when `new_password` is set. Only the store's owner may grant.
    /// Superusers, the organiser's own role and roles that share the owner's rights are
    /// refused: nothing granted could restrict them.
    pub fn grant_worker(&mut self, role: &str, new_password: bool) -> Result<WorkerGrant> {
        check_role_name(role)?;
        let shown = crate::sql::Backend::store_name(self);
        let client = self.client();
        if !owns_store(client)? {
            bail!(
                "only the store's owner can grant worker rights on {shown}: use the organiser's credentials"
            );
        }
        let schema = store_schema(client)?;
        let mut tx = client.transaction()?;
        let quoted: String = tx
            .query_one("SELECT quote_ident($1)", &[&role])?
            .try_get(0)?;
        let (created, password) = match role_facts(&mut tx, role, &schema)? {
            Some(facts) => {
                check_facts(role, &facts, &schema)?;
                let password = if new_password {
                    Some(set_password(&mut tx, &quoted, "ALTER ROLE", "")?)
                } else {
                    None
                };
                (false, password)
            }
            None => {
                let may: bool = tx
                    .query_one(
                        "SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user",
                        &[],
                    )?
                    .try_get(0)?;
                if !may {
                    bail!(
                        "there is no role `{role}`, and the organiser's role may not create roles (CREATEROLE): have the database administrator run `CREATE ROLE {role} LOGIN PASSWORD '…'`, then grant again"
                    );
                }
                (
                    true,
                    Some(set_password(&mut tx, &quoted, "CREATE ROLE", " LOGIN")?),
                )
            }
        };
        let facts = role_facts(&mut tx, role, &schema)?.context("the role just made is gone")?;
        check_facts(role, &facts, &schema)?;
        tx.batch_execute(&grants(&schema, &quoted))?;
        tx.execute(
            &format!("INSERT INTO {schema}.worker_roles (name) VALUES ($1) ON CONFLICT DO NOTHING"),
            &[&role],
        )?;
        tx.commit()?;
        Ok(WorkerGrant {
            role: role.to_string(),
            created,
            password,
            can_login: facts.can_login,
        })
    }

    /// Takes a worker's rights on this store away from `role` (the role itself stays:
    /// `DROP ROLE` removes it) and frees the leases of the games its workers hold, so
    /// other workers play them at once. A worker of that role fails at its next
    /// statement.
    pub fn revoke_worker(&mut self, role: &str) -> Result<Revoked> {
        check_role_name(role)?;
        self.require_owner("revoke worker rights")?;
        let client = self.client();
        let schema = store_schema(client)?;
        let mut tx = client.transaction()?;
        let granted = tx.execute(
            &format!("DELETE FROM {schema}.worker_roles WHERE name = $1"),
            &[&role],
        )? == 1;
        let freed = free_leases(&mut tx, &Holder::Role(role))?;
        let exists = tx
            .query_opt(
                "SELECT quote_ident(rolname) FROM pg_roles WHERE rolname = $1",
                &[&role],
            )?
            .map(|r| r.try_get::<_, String>(0))
            .transpose()?;
        if let Some(quoted) = exists {
            tx.batch_execute(&revokes(&schema, &quoted))?;
        }
        tx.commit()?;
        Ok(Revoked { granted, freed })
    }

    /// Refuses, saying it needs the organiser's credentials to `what`, unless this
    /// connection's role owns the store.
    pub(crate) fn require_owner(&mut self, what: &str) -> Result<()> {
        let shown = crate::sql::Backend::store_name(self);
        if !owns_store(self.client())? {
            bail!("only the store's owner can {what} on {shown}: use the organiser's credentials");
        }
        Ok(())
    }

    /// Whether this connection's role may pair a Swiss round and finish a tournament
    /// (write slots, byes and tournaments): the organiser's may, a worker's may not, and
    /// then an organiser process (`challenge run --store`, `challenge serve --store`)
    /// moves the tournament on.
    pub fn can_advance(&mut self) -> StoreResult<bool> {
        let shown = crate::sql::Backend::store_name(self);
        self.client()
            .query_one(
                "SELECT has_table_privilege('slots', 'INSERT') AND has_table_privilege('slots', 'UPDATE')
                    AND has_table_privilege('byes', 'INSERT')
                    AND has_table_privilege('tournaments', 'UPDATE')",
                &[],
            )
            .and_then(|row| row.try_get(0))
            .map_err(|err| pg_error(&shown, err))
    }

    /// The source of `version`, one of the players of the slot this store holds under
    /// `claim`: what a worker builds. Refused for a slot it does not hold, or a version
    /// that does not play in it.
    pub fn claimed_source(&mut self, claim: &Claim, version: VersionId) -> StoreResult<String> {
        let slot = claim.slot.id;
        let shown = crate::sql::Backend::store_name(self);
        let Some(token) = self.held_token(slot) else {
            return Err(StoreError::Conflict {
                store: shown,
                what: format!("slot {slot} is not leased by this worker"),
            });
        };
        let row = self.client().query_one(
            "SELECT challenge_source($1, $2, $3)",
            &[&slot.0, &token, &version.0],
        );
        match row.and_then(|row| row.try_get(0)) {
            Ok(source) => Ok(source),
            Err(err) if is_lease_not_held(&err) => {
                Err(StoreError::LeaseLost { store: shown, slot })
            }
            Err(err) => Err(pg_error(&shown, err)),
        }
    }
}

/// Sets a fresh password on `role` (quoted) with `verb` (`CREATE ROLE`/`ALTER ROLE`),
/// sending only its SCRAM verifier, so the password itself never reaches the server's
/// logs; returns the password.
fn set_password(tx: &mut Transaction<'_>, role: &str, verb: &str, extra: &str) -> Result<String> {
    let password = new_password()?;
    let verifier = postgres_protocol::password::scram_sha_256(password.as_bytes());
    // The verifier is base64 and `$`/`:`-separated: no quote can occur in it.
    debug_assert!(!verifier.contains('\''));
    tx.batch_execute(&format!("{verb} {role}{extra} PASSWORD '{verifier}'"))?;
    Ok(password)
}

/// The URL a worker of `role` connects with: the organiser's store URL `store_url` (its
/// hosts, ports and database) with the role and password, asking for `verify-full`
/// against `root.crt`.
///
/// ```
/// use store::worker_url;
/// let url = worker_url("postgres://kit:secret@db.example:5433/chess?sslmode=require", "box1", "pw").unwrap();
/// assert_eq!(url, "postgres://box1:pw@db.example:5433/chess?sslmode=verify-full&sslrootcert=root.crt");
/// ```
pub fn worker_url(store_url: &str, role: &str, password: &str) -> Result<String> {
    let (rest, ..) = super::tls::split_url(store_url)?;
    let config: Config = rest
        .parse()
        .map_err(|e| anyhow::anyhow!("`--store` is not a valid postgres:// URL: {e}"))?;
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .filter_map(|(i, host)| match host {
            postgres::config::Host::Tcp(name) => Some(match ports.get(i).or(ports.first()) {
                Some(port) => format!("{name}:{port}"),
                None => name.clone(),
            }),
            postgres::config::Host::Unix(_) => None,
        })
        .collect();
    if hosts.is_empty() {
        bail!(
            "the store URL names no network host, so a worker on another machine cannot reach it"
        );
    }
    // Everything but RFC 3986's unreserved characters is escaped.
    const ESCAPED: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
        .remove(b'-')
        .remove(b'.')
        .remove(b'_')
        .remove(b'~');
    let encode = |s: &str| percent_encoding::utf8_percent_encode(s, ESCAPED).to_string();
    Ok(format!(
        "postgres://{}:{}@{}/{}?sslmode=verify-full&sslrootcert=root.crt",
        encode(role),
        encode(password),
        hosts.join(","),
        encode(config.get_dbname().unwrap_or_default())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_worker_function_is_installed_and_revoked_from_public() {
        let sql = install_sql("\"s\"");
        for function in WORKER_FUNCTIONS {
            let name = function.split('(').next().unwrap();
            assert!(
                sql.contains(&format!("CREATE FUNCTION \"s\".{name}(")),
                "{name}"
            );
            assert!(
                sql.contains(&format!(
                    "REVOKE ALL ON FUNCTION \"s\".{function} FROM PUBLIC"
                )),
                "{name}"
            );
        }
        // Each definer function fixes its search_path, with pg_temp last.
        assert_eq!(
            sql.matches("SECURITY DEFINER").count(),
            WORKER_FUNCTIONS.len()
        );
        assert_eq!(
            sql.matches("SECURITY DEFINER SET search_path = \"s\", pg_temp AS")
                .count(),
            WORKER_FUNCTIONS.len()
        );
        assert!(!sql.contains("{S}"));
    }

    #[test]
    fn the_fingerprint_follows_the_text() {
        assert_eq!(
            fingerprint(&install_sql("a")),
            fingerprint(&install_sql("a"))
        );
        assert_ne!(
            fingerprint(&install_sql("a")),
            fingerprint(&install_sql("b"))
        );
        assert_eq!(fingerprint("x").len(), 32);
    }

    #[test]
    fn the_steps_open_their_columns_to_workers_table_by_table() {
        let columns = read_columns();
        let tables: Vec<&str> = columns.iter().map(|(t, _)| *t).collect();
        assert_eq!(tables, ["versions", "slots", "server_settings"]);
        assert_eq!(
            columns[1].1,
            "id, tournament_id, round, pair, game_in_pair, white_entry, black_entry, opening, \
             cancelled, game_id, lease_worker, lease_expires, leased_at"
        );
        // The grants are part of what an install is: opening a column changes it.
        assert!(installed_text("s").contains("GRANT SELECT (id, entry_id, number"));
    }

    #[test]
    fn grants_read_no_secret_column() {
        let sql = grants("s", "r");
        let reads: Vec<&str> = sql
            .lines()
            .filter(|l| l.starts_with("GRANT SELECT"))
            .collect();
        assert_eq!(reads.len(), READ_TABLES.len() + read_columns().len());
        for line in reads {
            for secret in [
                "source",
                "lease_token",
                "entry_keys",
                "jobs",
                "games",
                "workers",
                "live_games",
            ] {
                assert!(!line.contains(secret), "{secret} in {line}");
            }
        }
        for line in sql.lines().filter(|l| !l.starts_with("GRANT SELECT")) {
            assert!(
                line.starts_with("GRANT USAGE ON SCHEMA s ")
                    || line.starts_with("GRANT EXECUTE ON FUNCTION s.challenge_"),
                "{line}"
            );
        }
    }

    #[test]
    fn passwords_are_fresh_and_url_safe() {
        let (a, b) = (new_password().unwrap(), new_password().unwrap());
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert!(
            a.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        );
    }
}
