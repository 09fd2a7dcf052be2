//! Reaching a PostgreSQL store: its URL (checked, and printed without the password) and
//! a new connection to it.

use std::str::FromStr;
use std::time::Duration;

use postgres::config::Host;
use postgres::{Client, Config};

use super::tls::{self, Tls};
use crate::error::{StoreError, StoreResult};

/// `true` for a `--store` value this backend opens.
pub fn is_postgres_url(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

/// The store's address for messages: user, hosts, ports and database, never the password.
///
/// ```
/// use store::redacted_url;
/// let url = "postgres://kit:secret@db.example:5433/club";
/// assert_eq!(redacted_url(&url.parse().unwrap()), "postgres://kit@db.example:5433/club");
/// ```
pub fn redacted_url(config: &Config) -> String {
    let user = config
        .get_user()
        .map(|u| format!("{u}@"))
        .unwrap_or_default();
    let ports = config.get_ports();
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let name = match host {
                Host::Tcp(name) => name.clone(),
                Host::Unix(path) => path.display().to_string(),
            };
            match ports.get(i).or(ports.first()) {
                Some(port) => format!("{name}:{port}"),
                None => name,
            }
        })
        .collect();
    let hosts = if hosts.is_empty() {
        "localhost".to_string()
    } else {
        hosts.join(",")
    };
    let db = config.get_dbname().unwrap_or_default();
    format!("postgres://{user}{hosts}/{db}")
}

/// The connection settings in `url`, with a connect timeout and the program's name set
/// unless the URL sets them, and its TLS settings (`sslmode`, `sslrootcert`).
pub(crate) fn parse_config(url: &str) -> StoreResult<(Config, Tls)> {
    let bad = |err: anyhow::Error| StoreError::BadLocation(format!("{err:#}"));
    let (url, mode, roots) = tls::split_url(url).map_err(bad)?;
    let mut config = Config::from_str(&url).map_err(|err| {
        // The parser's message never echoes the URL, so the password stays out of it.
        StoreError::BadLocation(format!("`--store` is not a valid postgres:// URL: {err}"))
    })?;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(Duration::from_secs(10));
    }
    if config.get_application_name().is_none() {
        config.application_name("challenge");
    }
    let tls = Tls::from_url_parts(&mut config, mode, roots).map_err(bad)?;
    Ok((config, tls))
}

/// A new connection to the store, over TLS as `tls` asks; `shown` is its redacted URL.
pub(crate) fn connect(config: &Config, tls: &Tls, shown: &str) -> StoreResult<Client> {
    tls.connect(config)
        .map_err(|source| tls::explain(source, shown, tls))
}
