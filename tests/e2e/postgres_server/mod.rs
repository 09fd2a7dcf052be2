//! A throwaway PostgreSQL server for the tests and the store benchmark: `initdb` and
//! `pg_ctl` from the machine's PostgreSQL (Debian's `/usr/lib/postgresql/N/bin`, or
//! `$PG_BIN`) in a temporary directory, on a free loopback port, stopped and removed
//! when dropped (also when a test panics).
//!
//! `initdb` refuses to run as root, so as root the server runs as the `postgres` system
//! user if there is one, else as `nobody`, with its directory handed to that user.
//!
//! [`PgServer::start_tls`] starts one with TLS on: a certificate for [`TLS_HOST`] signed
//! by a throwaway authority (made with `rcgen`, so no outside program is needed), and a
//! `pg_hba.conf` that lets the tests' own role `kit` in without a password and every
//! other role only over TLS with its password (`hostssl`, `scram-sha-256`), as a worker's
//! role should be let in.
//!
//! Where PostgreSQL is not installed, [`PgServer::start`] prints why and returns `None`
//! so the test can say it skipped, except under CI, where `.ci/run` installs it and a
//! missing server is a failure (the policy of every outside program: `outside::missing`).

#![allow(dead_code)]

// By path: the store benchmark includes this module without `tests/common`, and the
// CI policy must be the same one everywhere; in the test binary the file is therefore
// loaded twice, which is harmless (it holds only functions).
#[path = "../common/outside.rs"]
#[allow(clippy::duplicate_mod)]
mod outside;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A running server; dropping it stops it and removes its files.
pub struct PgServer {
    bin: PathBuf,
    dir: PathBuf,
    /// Set when the server has started: a port free when picked may be taken by another
    /// test's server before this one binds it, and then another is tried.
    port: u16,
    user: Option<String>,
    databases: AtomicUsize,
    durable: bool,
    tls: Option<TlsFiles>,
}

/// The host name the TLS server's certificate is made out to (it resolves nowhere: URLs
/// reach the server with `hostaddr=127.0.0.1`).
pub const TLS_HOST: &str = "db.test";

/// The certificates of a TLS server, for clients.
pub struct TlsFiles {
    /// The authority that signed the server's certificate.
    pub root: PathBuf,
    /// Another authority, which signed nothing the server shows.
    pub wrong_root: PathBuf,
}

/// A throwaway authority: its certificate, and the issuer that signs with it.
fn authority(name: &str) -> (String, rcgen::Issuer<'static, rcgen::KeyPair>) {
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, name);
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.self_signed(&key).unwrap();
    (cert.pem(), rcgen::Issuer::new(params, key))
}

/// Writes the server's certificate and key (`server.crt`, `server.key`, readable by its
/// owner only, as PostgreSQL demands) and the clients' root certificates into `dir`.
fn write_tls_files(dir: &Path) -> TlsFiles {
    let (root_pem, issuer) = authority("kit test authority");
    let (wrong_pem, _) = authority("kit test impostor");
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(vec![TLS_HOST.to_string()]).unwrap();
    let cert = params.signed_by(&key, &issuer).unwrap();
    std::fs::write(dir.join("server.crt"), cert.pem()).unwrap();
    let key_file = dir.join("server.key");
    std::fs::write(&key_file, key.serialize_pem()).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let files = TlsFiles {
        root: dir.join("root.crt"),
        wrong_root: dir.join("wrong-root.crt"),
    };
    std::fs::write(&files.root, root_pem).unwrap();
    std::fs::write(&files.wrong_root, wrong_pem).unwrap();
    files
}

/// The TLS server's `pg_hba.conf`: `kit` in on trust (the tests' organiser, plain or
/// TLS), every other role over TLS with a password only.
const TLS_HBA: &str = "\
local all all trust
host all kit 127.0.0.1/32 trust
hostssl all all 127.0.0.1/32 scram-sha-256
";

/// The directory of `initdb`, `pg_ctl` and `postgres`, if PostgreSQL is installed.
fn find_bin() -> Option<PathBuf> {
    if outside::hidden("initdb") {
        return None;
    }
    if let Some(dir) = std::env::var_os("PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .flatten()
        .filter_map(|entry| {
            let major = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((major, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() == 0 }
}

fn user_exists(name: &str) -> bool {
    Command::new("id")
        .arg("-u")
        .arg(name)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn describe(output: &Output) -> String {
    format!(
        "{}\n{}{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

impl PgServer {
    /// Starts a server, or says why it cannot and returns `None` (outside CI). Its
    /// commits are not flushed to disk (`fsync=off`): the tests are about what workers
    /// see, not about power cuts.
    pub fn start(label: &str) -> Option<PgServer> {
        PgServer::start_with(label, false, false)
    }

    /// A server with TLS on and a `pg_hba.conf` that lets roles other than `kit` in only
    /// over TLS (see the module documentation).
    pub fn start_tls(label: &str) -> Option<PgServer> {
        PgServer::start_with(label, false, true)
    }

    /// A server with PostgreSQL's default durability (every commit flushed), as in
    /// production: for benchmarks.
    pub fn start_durable(label: &str) -> Option<PgServer> {
        PgServer::start_with(label, true, false)
    }

    fn start_with(label: &str, durable: bool, tls: bool) -> Option<PgServer> {
        let Some(bin) = find_bin() else {
            outside::missing(
                "initdb",
                "PostgreSQL: no /usr/lib/postgresql/*/bin/initdb; `apt-get install postgresql` \
                 (scripts/test installs it as root or with sudo) or set PG_BIN",
            );
            return None;
        };
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "kit-pg-{label}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create the server's directory");
        let tls = tls.then(|| write_tls_files(&dir));
        let user = is_root().then(|| {
            let name = if user_exists("postgres") {
                "postgres"
            } else {
                "nobody"
            };
            let chown = Command::new("chown")
                .arg("-R")
                .arg(name)
                .arg(&dir)
                .output()
                .expect("chown runs");
            assert!(chown.status.success(), "chown {name}: {}", describe(&chown));
            name.to_string()
        });
        let mut server = PgServer {
            bin,
            dir,
            port: 0,
            user,
            databases: AtomicUsize::new(0),
            durable,
            tls,
        };
        server.init_and_start();
        Some(server)
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        match &self.user {
            Some(user) => {
                let mut cmd = Command::new("runuser");
                cmd.arg("-u").arg(user).arg("--").arg(path);
                cmd
            }
            None => Command::new(path),
        }
    }

    fn run(&self, mut cmd: Command, what: &str) {
        let output = cmd
            .current_dir(&self.dir)
            .output()
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(
            output.status.success(),
            "{what} failed: {}",
            describe(&output)
        );
    }

    fn data(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn init_and_start(&mut self) {
        let mut init = self.command("initdb");
        init.arg("-D").arg(self.data()).args([
            "-U",
            "kit",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        ]);
        self.run(init, "initdb");
        if self.tls.is_some() {
            // Written as the server's user would (the directory is theirs).
            let hba = self.data().join("pg_hba.conf");
            std::fs::write(&hba, TLS_HBA).expect("write pg_hba.conf");
            if let Some(user) = &self.user {
                let chown = Command::new("chown").arg(user).arg(&hba).output().unwrap();
                assert!(chown.status.success(), "chown: {}", describe(&chown));
            }
        }
        for attempt in 1.. {
            self.port = free_port();
            let output = self
                .start_command()
                .current_dir(&self.dir)
                .output()
                .unwrap_or_else(|e| panic!("pg_ctl start: {e}"));
            if output.status.success() {
                return;
            }
            let log = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
            assert!(
                attempt < 5 && log.contains("already in use"),
                "pg_ctl start failed: {}\n{log}",
                describe(&output)
            );
        }
    }

    fn start_command(&self) -> Command {
        let tls_options = match self.tls {
            Some(_) => format!(
                " -c ssl=on -c ssl_cert_file={} -c ssl_key_file={}",
                self.dir.join("server.crt").display(),
                self.dir.join("server.key").display()
            ),
            None => String::new(),
        };
        let mut start = self.command("pg_ctl");
        start
            .arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.dir.join("server.log"))
            .arg("-o")
            .arg(format!(
                "-p {} -k {} -c listen_addresses=127.0.0.1 -c max_connections=200{}{tls_options}",
                self.port,
                self.dir.display(),
                if self.durable { "" } else { " -c fsync=off" }
            ))
            .args(["-w", "-t", "60", "start"]);
        start
    }

    /// The URL of the server's `postgres` database.
    pub fn admin_url(&self) -> String {
        format!("postgres://kit@127.0.0.1:{}/postgres", self.port)
    }

    /// A new empty database on the server; returns its URL.
    pub fn database(&self, name: &str) -> String {
        let name = format!("{name}_{}", self.databases.fetch_add(1, Ordering::Relaxed));
        let mut admin = postgres::Client::connect(&self.admin_url(), postgres::NoTls)
            .expect("connect to the test server");
        admin
            .batch_execute(&format!("CREATE DATABASE \"{name}\""))
            .expect("create a database");
        format!("postgres://kit@127.0.0.1:{}/{name}", self.port)
    }

    /// The certificates of a server started with [`PgServer::start_tls`].
    pub fn tls(&self) -> &TlsFiles {
        self.tls.as_ref().expect("a server started with start_tls")
    }

    /// A URL of database `db` (the last part of a [`PgServer::database`] URL) for `user`
    /// with `password` (none if empty), reaching the server by [`TLS_HOST`] at 127.0.0.1,
    /// with `params` (`sslmode=…&sslrootcert=…`) after it.
    pub fn tls_url(&self, user: &str, password: &str, db: &str, params: &str) -> String {
        let db = db.rsplit('/').next().unwrap();
        let password = if password.is_empty() {
            String::new()
        } else {
            format!(":{password}")
        };
        format!(
            "postgres://{user}{password}@{TLS_HOST}:{}/{db}?hostaddr=127.0.0.1&{params}",
            self.port
        )
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Its directory (the server's log is `server.log` there).
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let mut stop = self.command("pg_ctl");
        stop.arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "-w", "stop"]);
        let _ = stop.current_dir(&self.dir).output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The one number `sql` selects.
pub fn count(db: &mut postgres::Client, sql: &str) -> i64 {
    db.query_one(sql, &[]).unwrap().get(0)
}

/// The password `challenge workers grant` printed.
pub fn password_of(said: &str) -> String {
    said.lines()
        .find_map(|l| l.strip_prefix("password (shown once, not stored anywhere readable): "))
        .unwrap_or_else(|| panic!("no password in:\n{said}"))
        .to_string()
}

/// The URL of `role` (with `password`) on the database of a [`PgServer::database`] URL.
pub fn as_role(url: &str, role: &str, password: &str) -> String {
    url.replace("postgres://kit@", &format!("postgres://{role}:{password}@"))
}

/// Adds entry `name` with `source` (nothing here builds it); returns its version.
pub fn add_entry(org: &mut store::PostgresStore, name: &str, source: &str) -> store::Version {
    use store::EntryStore;
    let submitted = org
        .add_version(&store::NewVersion {
            name,
            author: None,
            source,
            hash: &format!("hash-of-{name}"),
            file_name: "bot.rs",
            tokens: 100,
            debug_tokens: 0,
        })
        .unwrap();
    let store::Submitted::New(version) = submitted else {
        panic!("{submitted:?}");
    };
    version
}

/// A round-robin tournament of `field` playing `slots` at `time_control` under `rules`
/// (no openings: the standard start), created in `store`.
pub fn schedule(
    store: &mut dyn store::Store,
    field: &[store::EntryId],
    slots: &[store::SlotPlan],
    time_control: runner::TimeControl,
    rules: store::StoredRules,
) -> store::TournamentId {
    let settings = store::Tournament {
        id: store::TournamentId(0),
        format: store::TournamentFormat::RoundRobin,
        pairs: 1,
        rounds: 1,
        time_control,
        openings: Vec::new(),
        rules,
        finished: false,
    };
    store
        .create_tournament(&store::NewTournament {
            settings: &settings,
            field,
            slots,
            byes: &[],
        })
        .unwrap()
}

/// One slot per ordered pair of `entries`, colour-swapped pairs numbered in order.
pub fn ordered_pairs(entries: &[store::EntryId]) -> Vec<store::SlotPlan> {
    let mut slots = Vec::new();
    for &white in entries {
        for &black in entries {
            if white != black {
                slots.push(store::SlotPlan {
                    round: 0,
                    pair: slots.len() as u32 / 2,
                    game_in_pair: slots.len() as u32 % 2,
                    white,
                    black,
                    opening: 0,
                });
            }
        }
    }
    slots
}

/// A new, empty store of each backend: `open` makes a fresh handle on the same one.
pub struct Backends {
    label: String,
    sqlite: PathBuf,
    postgres: Option<PgServer>,
}

impl Backends {
    pub fn new(label: &str) -> Backends {
        let sqlite =
            std::env::temp_dir().join(format!("kit-store-suite-{label}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&sqlite);
        Backends {
            label: label.to_string(),
            sqlite,
            postgres: PgServer::start(label),
        }
    }

    /// Runs `test` on each backend, with a function that opens its store (again).
    pub fn each(&self, test: impl Fn(&dyn Fn() -> Box<dyn store::Store>)) {
        let dir = self.sqlite.clone();
        test(&move || Box::new(store::SqliteStore::create(&dir).unwrap()));
        if let Some(server) = &self.postgres {
            let url = server.database(&self.label.replace('-', "_"));
            test(&move || Box::new(store::PostgresStore::create(&url).unwrap()));
        }
    }
}

impl Drop for Backends {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.sqlite);
    }
}
