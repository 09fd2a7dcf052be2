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

/// Connections served at once from one client (IPv4 address or IPv6 /64): a browser's
/// six connections, an event stream for each of a few open pages, and room to spare. A
/// share well under the total, so filling the server takes
/// [`MAX_CONNECTIONS`] / 16 = 256 IPv4 addresses (`Limits::fewest_clients_to_fill`).
/// A classroom behind one NAT address needs more: `--max-connections-per-client`.
pub const MAX_CONNECTIONS_PER_CLIENT: usize = 16;

/// Connections served at once from one IPv6 /56 (what a household is commonly given: 256
/// /64s), so a household's /64s do not each count as a client for the total. An IPv4
/// address is its own network.
pub const MAX_CONNECTIONS_PER_NETWORK: usize = 2 * MAX_CONNECTIONS_PER_CLIENT;

/// Connections served at once in all. The server raises its open-file limit at start and
/// lowers this cap to stay [`RESERVED_FILES`] below it.
pub const MAX_CONNECTIONS: usize = 4096;

/// Event streams (`/events`, `/live/events`, a live game's events) one client holds at
/// once on each stream endpoint: three endpoints of four stay under
/// [`MAX_CONNECTIONS_PER_CLIENT`], so a client's own pages load while its streams are open.
pub const MAX_STREAMS_PER_CLIENT: usize = 4;

/// The event stream endpoints: `/events`, `/live/events`, `/live/{game}/events`.
pub const STREAM_ENDPOINTS: usize = 3;

/// The share of the connection cap each stream endpoint may hold: a sixth, so all
/// streams together hold at most half the connections, and page requests and `/health`
/// keep the other half whoever holds the streams.
pub const STREAM_SHARE_DIVISOR: usize = 2 * STREAM_ENDPOINTS;

/// How long an event stream lasts; then the server ends it and the browser's EventSource
/// connects again (a few seconds later, told what it missed), so a stream's place is
/// never held for good.
pub const STREAM_LIFETIME: Duration = Duration::from_secs(10 * 60);

/// How long an event stream may go without an event (keep-alive comments aside) before
/// the server ends it; the page reconnects as after [`STREAM_LIFETIME`].
pub const STREAM_IDLE: Duration = Duration::from_secs(2 * 60);

/// Open files kept free for everything but connections: the store, the build
/// and the engines' pipes.
pub const RESERVED_FILES: usize = 256;

/// Submissions waiting or being built at once from one client.
pub const MAX_PENDING_BUILDS_PER_CLIENT: usize = 2;

/// Submissions waiting or being built at once in all. When it is full, a submission from
/// a network that has used less build time lately takes the place of a waiting one from
/// the network that has used the most (`queue`).
pub const MAX_PENDING_BUILDS: usize = 64;

/// What a client is told to wait (seconds) when it is over a connection or stream cap.
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
    /// See [`MAX_CONNECTIONS_PER_NETWORK`].
    pub max_connections_per_network: usize,
    /// Event streams on each stream endpoint in all: see [`STREAM_SHARE_DIVISOR`].
    pub max_streams: usize,
    /// See [`MAX_STREAMS_PER_CLIENT`].
    pub max_streams_per_client: usize,
    /// See [`STREAM_LIFETIME`].
    pub stream_lifetime: Duration,
    /// See [`STREAM_IDLE`].
    pub stream_idle: Duration,
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
            max_connections_per_network: MAX_CONNECTIONS_PER_NETWORK,
            max_streams: MAX_CONNECTIONS / STREAM_SHARE_DIVISOR,
            max_streams_per_client: MAX_STREAMS_PER_CLIENT,
            stream_lifetime: STREAM_LIFETIME,
            stream_idle: STREAM_IDLE,
            max_pending_builds: MAX_PENDING_BUILDS,
            max_pending_builds_per_client: MAX_PENDING_BUILDS_PER_CLIENT,
            max_watchers_per_game: crate::watch::MAX_WATCHERS_PER_GAME,
        }
    }
}

impl Limits {
    /// The fewest clients that can hold every connection, so that no one else is
    /// served: IPv4 addresses (each its own network), and IPv6 /56 networks.
    ///
    /// ```
    /// let limits = serve::Limits::default();
    /// assert_eq!(limits.fewest_clients_to_fill(), (256, 128));
    /// ```
    pub fn fewest_clients_to_fill(&self) -> (usize, usize) {
        let ipv4 = self
            .max_connections_per_client
            .min(self.max_connections_per_network)
            .max(1);
        let ipv6 = self.max_connections_per_network.max(1);
        (
            self.max_connections.div_ceil(ipv4),
            self.max_connections.div_ceil(ipv6),
        )
    }
}

/// The client an address belongs to, for every per-client limit: an IPv4 address, or the
/// /64 network of an IPv6 address (IPv4-mapped IPv6 addresses, `::ffff:a.b.c.d`, are the
/// IPv4 address they carry, as a dual-stack listener reports IPv4 clients). The wider
/// network a client is part of, for its share of the totals, is [`ClientKey::network`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClientKey {
    /// One IPv4 address.
    V4(Ipv4Addr),
    /// The first 64 bits of an IPv6 address.
    V6Net(u64),
    /// The first 56 bits of an IPv6 address (the rest of the 64 are zero): a network.
    V6Site(u64),
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

impl ClientKey {
    /// The network this client is part of: an IPv6 /64's /56 (a household is commonly
    /// given a /56, an attacker's one machine may hold all of its 256 /64s); an IPv4
    /// address is its own network (neighbours share an ISP's /24).
    ///
    /// ```
    /// use serve::client_key;
    /// let a = client_key("2001:db8:0:1::1".parse().unwrap());
    /// let b = client_key("2001:db8:0:ff::1".parse().unwrap());
    /// assert_ne!(a, b);
    /// assert_eq!(a.network(), b.network());
    /// assert_eq!(a.network().to_string(), "2001:db8::/56");
    /// ```
    pub fn network(self) -> ClientKey {
        match self {
            ClientKey::V6Net(net) | ClientKey::V6Site(net) => ClientKey::V6Site(net & !0xff),
            v4 => v4,
        }
    }
}

impl std::fmt::Display for ClientKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v6 = |net: u64| std::net::Ipv6Addr::from_bits(u128::from(net) << 64);
        match self {
            ClientKey::V4(v4) => write!(f, "{v4}"),
            ClientKey::V6Net(net) => write!(f, "{}/64", v6(*net)),
            ClientKey::V6Site(net) => write!(f, "{}/56", v6(*net)),
        }
    }
}

/// Why a connection or an event stream was turned away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Its client holds its cap already.
    Client,
    /// Its client's network (an IPv6 /56) holds its cap already.
    Network,
    /// The server (or the stream endpoint) holds its cap in all already.
    Server,
}

impl Refusal {
    /// The sentence the client is shown about a connection.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::Client | Refusal::Network => {
                "too many connections from your network at once; close some pages and try again"
            }
            Refusal::Server => "the server is at its connection limit; try again in a few seconds",
        }
    }
}

/// Places held (connections, or the event streams of one endpoint), counted by client,
/// by the client's network, and in all; each a cap.
#[derive(Debug)]
pub struct Places {
    total_cap: usize,
    per_client_cap: usize,
    per_network_cap: usize,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_client: HashMap<ClientKey, usize>,
    by_network: HashMap<ClientKey, usize>,
}

/// One place, given back when dropped.
#[derive(Debug)]
pub struct Slot {
    owner: Arc<Places>,
    key: ClientKey,
}

/// Adds `by` to `key`'s count, forgetting a count back at zero (so the maps hold only
/// the clients holding places now, however many came by).
fn bump(map: &mut HashMap<ClientKey, usize>, key: ClientKey, add: bool) {
    if add {
        *map.entry(key).or_insert(0) += 1;
    } else if let Some(held) = map.get_mut(&key) {
        *held -= 1;
        if *held == 0 {
            map.remove(&key);
        }
    }
}

impl Places {
    /// At most `total_cap` places, `per_client_cap` for one client and
    /// `per_network_cap` for one network ([`ClientKey::network`]).
    pub fn new(total_cap: usize, per_client_cap: usize, per_network_cap: usize) -> Arc<Places> {
        Arc::new(Places {
            total_cap,
            per_client_cap,
            per_network_cap,
            counts: Mutex::new(Counts::default()),
        })
    }

    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        // The counts are updated in one step each: a panic elsewhere leaves them whole.
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for `key`, or why there is none.
    pub fn admit(self: &Arc<Self>, key: ClientKey) -> Result<Slot, Refusal> {
        let mut counts = self.counts();
        let held = |map: &HashMap<ClientKey, usize>, k| map.get(&k).copied().unwrap_or(0);
        if held(&counts.by_client, key) >= self.per_client_cap {
            return Err(Refusal::Client);
        }
        if held(&counts.by_network, key.network()) >= self.per_network_cap {
            return Err(Refusal::Network);
        }
        if counts.total >= self.total_cap {
            return Err(Refusal::Server);
        }
        counts.total += 1;
        bump(&mut counts.by_client, key, true);
        bump(&mut counts.by_network, key.network(), true);
        Ok(Slot {
            owner: Arc::clone(self),
            key,
        })
    }

    /// Places held now.
    #[cfg(test)]
    pub fn total(&self) -> usize {
        self.counts().total
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.owner.counts();
        counts.total -= 1;
        bump(&mut counts.by_client, self.key, false);
        bump(&mut counts.by_network, self.key.network(), false);
    }
}

/// This process's limit on open files: what it was given and what it runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenFiles {
    /// The soft limit at start.
    pub given: u64,
    /// The soft limit now (the hard limit, capped at 1 << 20, where raising it worked).
    pub now: u64,
}

/// Raises this process's soft limit on open files to its hard limit (capped at 1 << 20),
/// so a login shell's common 1,024 does not cap the server's connections.
// `rlim_t` is not `u64` on every platform.
#[allow(clippy::unnecessary_cast)]
pub fn raise_open_file_limit() -> OpenFiles {
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return OpenFiles {
                given: 1024,
                now: 1024,
            };
        }
        let given = limit.rlim_cur as u64;
        let wanted = limit.rlim_max.min(1 << 20);
        if wanted > limit.rlim_cur {
            let raised = libc::rlimit {
                rlim_cur: wanted,
                rlim_max: limit.rlim_max,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                return OpenFiles {
                    given,
                    now: wanted as u64,
                };
            }
        }
        OpenFiles { given, now: given }
    }
}

/// `limits` with the caps made to fit `open_files`: at most `open_files - RESERVED_FILES`
/// connections (and at least 16); no client or network cap above the total; each stream
/// endpoint at most a sixth of the connections ([`STREAM_SHARE_DIVISOR`]) and a client's
/// streams on one endpoint fewer than its connections.
pub fn fit_to_open_files(mut limits: Limits, open_files: u64) -> Limits {
    let room = usize::try_from(open_files)
        .unwrap_or(usize::MAX)
        .saturating_sub(RESERVED_FILES)
        .max(16);
    limits.max_connections = limits.max_connections.min(room);
    limits.max_connections_per_client = limits
        .max_connections_per_client
        .min(limits.max_connections);
    limits.max_connections_per_network = limits
        .max_connections_per_network
        .clamp(limits.max_connections_per_client, limits.max_connections);
    limits.max_streams = limits
        .max_streams
        .min(limits.max_connections / STREAM_SHARE_DIVISOR)
        .max(1);
    limits.max_streams_per_client = limits
        .max_streams_per_client
        .min(limits.max_connections_per_client.saturating_sub(1) / STREAM_ENDPOINTS)
        .max(1);
    limits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(ip: &str) -> ClientKey {
        client_key(ip.parse().unwrap())
    }

    #[test]
    fn slots_count_per_client_and_in_all_and_come_back_when_dropped() {
        let places = Places::new(3, 2, 2);
        let a = key("10.0.0.1");
        let b = key("10.0.0.2");
        let first = places.admit(a).unwrap();
        let _second = places.admit(a).unwrap();
        assert_eq!(places.admit(a).unwrap_err(), Refusal::Client);
        let _third = places.admit(b).unwrap();
        assert_eq!(places.admit(b).unwrap_err(), Refusal::Server);
        drop(first);
        assert_eq!(places.total(), 2);
        assert!(places.admit(a).is_ok());
    }

    #[test]
    fn the_64s_of_one_56_share_the_network_cap() {
        let places = Places::new(100, 2, 3);
        let held: Vec<_> = (0..3)
            .map(|n| places.admit(key(&format!("2001:db8:0:{n}::1"))).unwrap())
            .collect();
        assert_eq!(
            places.admit(key("2001:db8:0:ff::1")).unwrap_err(),
            Refusal::Network,
            "another /64 of the same /56"
        );
        assert!(
            places.admit(key("2001:db8:0:100::1")).is_ok(),
            "another /56"
        );
        drop(held);
        assert!(places.admit(key("2001:db8:0:ff::1")).is_ok());
        // An IPv4 address is its own network: the network cap is never below the client's.
        assert_eq!(key("192.0.2.1").network(), key("192.0.2.1"));
    }

    #[test]
    fn caps_fit_under_the_open_file_limit() {
        let fitted = fit_to_open_files(Limits::default(), 1024);
        assert_eq!(fitted.max_connections, 1024 - RESERVED_FILES);
        assert_eq!(
            fitted.max_connections_per_client,
            MAX_CONNECTIONS_PER_CLIENT
        );
        assert_eq!(fitted.max_streams, (1024 - RESERVED_FILES) / 6);
        assert_eq!(fitted.fewest_clients_to_fill(), (48, 24));
        let tiny = fit_to_open_files(Limits::default(), 100);
        assert_eq!(
            (tiny.max_connections, tiny.max_connections_per_client),
            (16, 16)
        );
        assert_eq!(
            (tiny.max_streams, tiny.max_streams_per_client),
            (2, 4),
            "16 connections a client: 4 streams on each of three endpoints leave it 4"
        );
        assert_eq!(
            fit_to_open_files(Limits::default(), 1 << 20),
            Limits::default()
        );
        let one = Limits {
            max_connections_per_client: 6,
            ..Limits::default()
        };
        assert_eq!(fit_to_open_files(one, 1 << 20).max_streams_per_client, 1);
    }

    #[test]
    fn every_stream_together_leaves_half_the_connections_to_pages() {
        for open_files in [300, 1024, 4096, 1 << 20] {
            let l = fit_to_open_files(Limits::default(), open_files);
            assert!(STREAM_ENDPOINTS * l.max_streams <= l.max_connections / 2);
            assert!(STREAM_ENDPOINTS * l.max_streams_per_client < l.max_connections_per_client);
        }
    }
}
