//! The bounds that keep one client from starving the server: time limits on a request's
//! headers and body (and on an idle keep-alive connection), caps on connections per
//! client and in all, and the client key every per-client limit counts by.
//!
//! A "client" is an IPv4 address or an IPv6 /64: one household, office or cloud machine
//! is normally given a whole /64, so counting IPv6 addresses one by one would let a single
//! machine count as 2^64 clients.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The largest bot file the rules allow (`docs/rules.md`: 256 KiB of UTF-8 text).
pub const MAX_SOURCE_BYTES: usize = token_counter::MAX_FILE_BYTES;

/// The largest request body: room for a bot file at the rules' limit, pasted or uploaded,
/// and the form.
pub const MAX_BODY_BYTES: usize = 2 * MAX_SOURCE_BYTES + 64 * 1024;

/// How long a client may take to send a request's headers, from the moment the server
/// starts waiting for them. The same timer closes an idle keep-alive connection: after a
/// response, the wait for the next request's headers starts again (that is how hyper
/// counts it), so an idle connection lives at most this long.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a client may take to send a request's whole body (at most a bot file at the
/// rules' limit plus the form: about 600 KiB, so 60 s allows a link of 10 KiB/s).
pub const BODY_TIMEOUT: Duration = Duration::from_secs(60);

/// Connections served at once from one client (IPv4 address or IPv6 /64). Room for a
/// classroom behind one NAT address, each browser holding its six connections and an
/// event stream per open page.
pub const MAX_CONNECTIONS_PER_CLIENT: usize = 128;

/// Connections served at once in all. The server raises its open-file limit at start and
/// lowers this cap to stay [`RESERVED_FILES`] below it.
pub const MAX_CONNECTIONS: usize = 1024;

/// Open files kept free for everything but connections: the store, uploads, the build
/// and the engines' pipes.
pub const RESERVED_FILES: usize = 256;

/// Submissions waiting or being built at once from one client.
pub const MAX_PENDING_BUILDS_PER_CLIENT: usize = 2;

/// Submissions waiting or being built at once in all.
pub const MAX_PENDING_BUILDS: usize = 32;

/// What a client is told to wait (seconds) when it is over a connection cap.
pub const CONNECTION_RETRY_AFTER: u32 = 5;

/// What a client is told to wait (seconds) when the submission queue is full: about one
/// build.
pub const BUILD_RETRY_AFTER: u32 = 60;

/// The bounds of one server; [`Limits::default`] is the constants above.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// See [`HEADER_TIMEOUT`].
    pub header_timeout: Duration,
    /// See [`BODY_TIMEOUT`].
    pub body_timeout: Duration,
    /// See [`MAX_CONNECTIONS`].
    pub max_connections: usize,
    /// See [`MAX_CONNECTIONS_PER_CLIENT`].
    pub max_connections_per_client: usize,
    /// See [`MAX_PENDING_BUILDS`].
    pub max_pending_builds: usize,
    /// See [`MAX_PENDING_BUILDS_PER_CLIENT`].
    pub max_pending_builds_per_client: usize,
    /// See [`MAX_WATCHERS_PER_GAME`](crate::watch::MAX_WATCHERS_PER_GAME).
    pub max_watchers_per_game: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            max_connections: MAX_CONNECTIONS,
            max_connections_per_client: MAX_CONNECTIONS_PER_CLIENT,
            max_pending_builds: MAX_PENDING_BUILDS,
            max_pending_builds_per_client: MAX_PENDING_BUILDS_PER_CLIENT,
            max_watchers_per_game: crate::watch::MAX_WATCHERS_PER_GAME,
        }
    }
}

/// The client an address belongs to, for every per-client limit: an IPv4 address, or the
/// /64 network of an IPv6 address (IPv4-mapped IPv6 addresses, `::ffff:a.b.c.d`, are the
/// IPv4 address they carry, as a dual-stack listener reports IPv4 clients).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClientKey {
    /// One IPv4 address.
    V4(Ipv4Addr),
    /// The first 64 bits of an IPv6 address.
    V6Net(u64),
}

/// The client key of `ip`; see [`ClientKey`].
pub fn client_key(ip: IpAddr) -> ClientKey {
    match ip {
        IpAddr::V4(v4) => ClientKey::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => ClientKey::V4(v4),
            None => ClientKey::V6Net((v6.to_bits() >> 64) as u64),
        },
    }
}

impl std::fmt::Display for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientKey::V4(v4) => write!(f, "{v4}"),
            ClientKey::V6Net(net) => {
                let addr = std::net::Ipv6Addr::from_bits(u128::from(*net) << 64);
                write!(f, "{addr}/64")
            }
        }
    }
}

/// Why a connection was turned away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its client holds [`Limits::max_connections_per_client`] already.
    Client,
    /// The server holds [`Limits::max_connections`] already.
    Server,
}

impl Refusal {
    /// The sentence the client is shown.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Client => {
                "too many connections from your network at once; close some pages and try again"
            }
            Refusal::Server => "the server is at its connection limit; try again in a few seconds",
        }
    }
}

/// The connections being served, by client.
#[derive(Debug)]
pub struct Connections {
    total_cap: usize,
    per_client_cap: usize,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_client: HashMap<ClientKey, usize>,
}

/// One connection's place, given back when dropped.
#[derive(Debug)]
pub struct Slot {
    owner: Arc<Connections>,
    key: ClientKey,
}

impl Connections {
    /// At most `total_cap` connections, `per_client_cap` from one client.
    pub fn new(total_cap: usize, per_client_cap: usize) -> Arc<Connections> {
        Arc::new(Connections {
            total_cap,
            per_client_cap,
            counts: Mutex::new(Counts::default()),
        })
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        // The counts are updated in one step each: a panic elsewhere leaves them whole.
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a connection from `key`, or why there is none.
    pub fn admit(self: &Arc<Self>, key: ClientKey) -> Result<Slot, Refusal> {
        let mut counts = self.counts();
        let held = counts.by_client.get(&key).copied().unwrap_or(0);
        if held >= self.per_client_cap {
            return Err(Refusal::Client);
        }
        if counts.total >= self.total_cap {
            return Err(Refusal::Server);
        }
        counts.total += 1;
        *counts.by_client.entry(key).or_insert(0) += 1;
        Ok(Slot {
            owner: Arc::clone(self),
            key,
        })
    }

    /// Connections being served now.
    pub fn total(&self) -> usize {
        self.counts().total
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.owner.counts();
        counts.total -= 1;
        if let Some(held) = counts.by_client.get_mut(&self.key) {
            *held -= 1;
            if *held == 0 {
                // Forgotten at once, so the map holds only clients connected now.
                counts.by_client.remove(&self.key);
            }
        }
    }
}

/// Raises this process's soft limit on open files to its hard limit (capped at 1 << 20)
/// and returns the soft limit now in force, so the connection cap can stay below it.
// `rlim_t` is not `u64` on every platform.
#[allow(clippy::unnecessary_cast)]
pub fn raise_open_file_limit() -> u64 {
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        let wanted = limit.rlim_max.min(1 << 20);
        if wanted > limit.rlim_cur {
            let raised = libc::rlimit {
                rlim_cur: wanted,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                return wanted as u64;
            }
        }
        limit.rlim_cur as u64
    }
}

/// `limits` with the connection caps lowered to fit `open_files`: at most
/// `open_files - RESERVED_FILES` connections (and at least 16), and no client cap above
/// the total.
pub fn fit_to_open_files(mut limits: Limits, open_files: u64) -> Limits {
    let room = usize::try_from(open_files)
        .unwrap_or(usize::MAX)
        .saturating_sub(RESERVED_FILES)
        .max(16);
    limits.max_connections = limits.max_connections.min(room);
    limits.max_connections_per_client = limits
        .max_connections_per_client
        .min(limits.max_connections);
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_count_per_client_and_in_all_and_come_back_when_dropped() {
        let connections = Connections::new(3, 2);
        let a = client_key("10.0.0.1".parse().unwrap());
        let b = client_key("10.0.0.2".parse().unwrap());
        let first = connections.admit(a).unwrap();
        let _second = connections.admit(a).unwrap();
        assert_eq!(connections.admit(a).unwrap_err(), Refusal::Client);
        let _third = connections.admit(b).unwrap();
        assert_eq!(connections.admit(b).unwrap_err(), Refusal::Server);
        drop(first);
        assert_eq!(connections.total(), 2);
        assert!(connections.admit(a).is_ok());
    }

    #[test]
    fn caps_fit_under_the_open_file_limit() {
        let fitted = fit_to_open_files(Limits::default(), 1024);
        assert_eq!(fitted.max_connections, 1024 - RESERVED_FILES);
        assert_eq!(
            fitted.max_connections_per_client,
            MAX_CONNECTIONS_PER_CLIENT
        );
        let tiny = fit_to_open_files(Limits::default(), 100);
        assert_eq!(
            (tiny.max_connections, tiny.max_connections_per_client),
            (16, 16)
        );
        assert_eq!(
            fit_to_open_files(Limits::default(), 1 << 20),
            Limits::default()
        );
    }
}
