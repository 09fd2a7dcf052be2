//! TLS to a PostgreSQL store, with `sslmode` and `sslrootcert` as libpq spells them in a
//! URL's query (`postgres://…/chess?sslmode=verify-full&sslrootcert=root.crt`).
//!
//! The connector is rustls (through `tokio-postgres-rustls`, with the ring provider): no
//! system library is needed, so a worker machine with only a C compiler and Rust builds
//! it. What each mode does, as in libpq:
//!
//! | `sslmode` | encrypted | certificate checked |
//! |---|---|---|
//! | `disable` | never | - |
//! | `prefer` (the default) | when the server offers TLS | only when a root certificate is there |
//! | `require` | always | only when a root certificate is there |
//! | `verify-ca` | always | signed by the root certificate |
//! | `verify-full` | always | signed by the root certificate, and for the host name in the URL |
//!
//! The root certificate is `sslrootcert=FILE`, else `~/.postgresql/root.crt` when that
//! file exists (libpq's default); `sslrootcert=system` trusts the machine's certificate
//! authorities and needs `verify-full`. `verify-ca` and `verify-full` without any root
//! certificate are refused before connecting. A connection across a network should use
//! `verify-full`: anything weaker lets whoever sits on the path read and change what
//! the worker says.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use anyhow::{Context, Result, bail};

use crate::error::{StoreError, StoreResult};
use postgres::config::SslMode as WireMode;
use postgres::{Client, Config, NoTls};
use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore};
use tokio_postgres_rustls::MakeRustlsConnect;

/// How a connection to the store is protected: libpq's `sslmode`.
///
/// ```
/// use store::SslMode;
/// assert_eq!("verify-full".parse::<SslMode>().unwrap(), SslMode::VerifyFull);
/// assert_eq!(SslMode::default(), SslMode::Prefer);
/// assert!("verify_full".parse::<SslMode>().unwrap_err().contains("disable, prefer, require, verify-ca, verify-full"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SslMode {
    /// Plain text only.
    Disable,
    /// TLS when the server offers it (libpq's default, and this kit's).
    #[default]
    Prefer,
    /// TLS always; the certificate is checked only against a root certificate given.
    Require,
    /// TLS with a certificate signed by the root certificate.
    VerifyCa,
    /// TLS with a certificate signed by the root certificate and made out to the host.
    VerifyFull,
}

impl SslMode {
    /// The name libpq gives it.
    pub fn as_str(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }
}

impl FromStr for SslMode {
    type Err = String;

    fn from_str(text: &str) -> Result<SslMode, String> {
        Ok(match text {
            "disable" => SslMode::Disable,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            // `allow` is libpq's too, but means "plain text unless the server insists":
            // refused rather than quietly read as something else.
            other => {
                return Err(format!(
                    "sslmode `{other}` is not one this kit knows: use disable, prefer, require, verify-ca, verify-full"
                ));
            }
        })
    }
}

/// How well a live connection is protected (see [`crate::PostgresStore::encryption`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encryption {
    /// Plain text: anyone on the path can read and change it.
    None,
    /// Encrypted, but the server's certificate was not checked: a machine in the middle
    /// could pose as the server.
    Unverified,
    /// Encrypted, and the certificate is signed by the trusted root, but not checked
    /// against the host name (`verify-ca`).
    RootChecked,
    /// Encrypted to the server named in the URL (`verify-full`).
    Verified,
}

/// Where the trusted root certificates come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Roots {
    File(PathBuf),
    System,
}

/// A store URL's TLS settings, and the connector made from them (cloned into every
/// connection a store opens: its game threads, its heartbeat, a reconnect).
#[derive(Clone)]
pub(crate) struct Tls {
    mode: SslMode,
    /// Whether the certificate chain is checked (a root certificate is there).
    checks_root: bool,
    connector: Option<MakeRustlsConnect>,
}

/// The keys this module takes out of a URL's query before the rest goes to the driver.
const OWN_KEYS: [&str; 2] = ["sslmode", "sslrootcert"];

/// The largest root certificate file read (a bundle of a few hundred certificates).
const MAX_ROOT_FILE: u64 = 4 << 20;

/// Splits a `postgres://` URL into the driver's configuration and the TLS settings,
/// which the driver alone cannot express (it knows neither `verify-*` nor
/// `sslrootcert`). Errors name the parameter; the URL (with its password) is never
/// echoed.
pub(crate) fn split_url(url: &str) -> Result<(String, Option<SslMode>, Option<Roots>)> {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, query),
        None => (url, ""),
    };
    let mut rest = Vec::new();
    let (mut mode, mut roots) = (None, None);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !OWN_KEYS.contains(&key) {
            rest.push(pair);
            continue;
        }
        let value = percent_encoding::percent_decode_str(value)
            .decode_utf8()
            .map_err(|_| anyhow::anyhow!("`{key}` in the store URL is not UTF-8"))?;
        let repeated = if key == "sslmode" {
            mode.replace(value.parse::<SslMode>().map_err(anyhow::Error::msg)?)
                .is_some()
        } else {
            roots.replace(roots_from(&value)?).is_some()
        };
        if repeated {
            bail!("`{key}` is given twice in the store URL");
        }
    }
    let url = if rest.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", rest.join("&"))
    };
    Ok((url, mode, roots))
}

fn roots_from(value: &str) -> Result<Roots> {
    match value {
        "" => bail!("`sslrootcert` in the store URL is empty: give the root certificate's file"),
        "system" => Ok(Roots::System),
        path => Ok(Roots::File(PathBuf::from(path))),
    }
}

/// libpq's default root certificate, when there is one.
fn default_root_file() -> Option<PathBuf> {
    let file = PathBuf::from(std::env::var_os("HOME")?).join(".postgresql/root.crt");
    file.is_file().then_some(file)
}

impl Tls {
    /// The TLS settings of a URL's `sslmode` and `sslrootcert`, with the driver's
    /// `sslmode` set in `config` to match.
    pub(crate) fn from_url_parts(
        config: &mut Config,
        mode: Option<SslMode>,
        roots: Option<Roots>,
    ) -> Result<Tls> {
        let mode = match (mode, &roots) {
            (None, Some(Roots::System)) => SslMode::VerifyFull,
            (Some(mode), Some(Roots::System)) if mode != SslMode::VerifyFull => bail!(
                "sslrootcert=system needs sslmode=verify-full (as in libpq): the machine's authorities vouch for host names"
            ),
            (mode, _) => mode.unwrap_or_default(),
        };
        config.ssl_mode(match mode {
            SslMode::Disable => WireMode::Disable,
            SslMode::Prefer => WireMode::Prefer,
            _ => WireMode::Require,
        });
        if mode == SslMode::Disable {
            return Ok(Tls {
                mode,
                checks_root: false,
                connector: None,
            });
        }
        let roots = match roots {
            Some(roots) => Some(roots),
            None => default_root_file().map(Roots::File),
        };
        if roots.is_none() && matches!(mode, SslMode::VerifyCa | SslMode::VerifyFull) {
            bail!(
                "sslmode={} checks the server's certificate against a root certificate, and there is none: add sslrootcert=FILE (the certificate of the authority that signed the server's) to the store URL, or put it in ~/.postgresql/root.crt",
                mode.as_str()
            );
        }
        let checks_root = roots.is_some();
        let config = client_config(mode, roots.as_ref())?;
        Ok(Tls {
            mode,
            checks_root,
            connector: Some(MakeRustlsConnect::new(config)),
        })
    }

    /// Opens one connection.
    pub(crate) fn connect(&self, config: &Config) -> Result<Client, postgres::Error> {
        match &self.connector {
            None => config.connect(NoTls),
            Some(connector) => config.connect(connector.clone()),
        }
    }

    /// The protection of a connection that the server says is (`true`) or is not
    /// encrypted.
    pub(crate) fn encryption(&self, encrypted: bool) -> Encryption {
        match (encrypted, self.mode, self.checks_root) {
            (false, ..) => Encryption::None,
            (true, SslMode::VerifyFull, _) => Encryption::Verified,
            (true, _, true) => Encryption::RootChecked,
            (true, _, false) => Encryption::Unverified,
        }
    }
}

impl crate::PostgresStore {
    /// How this store's connection is protected, as the server sees it (`pg_stat_ssl`)
    /// and as far as the URL's `sslmode` checked the server: a command warns when a
    /// store across a network is not [`Encryption::Verified`].
    pub fn encryption(&mut self) -> StoreResult<Encryption> {
        let encrypted: bool = self.one_value(
            "SELECT COALESCE((SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()), FALSE)",
        )?;
        Ok(self.tls().encryption(encrypted))
    }

    /// Whether the connection stays on this machine (a Unix socket or a loopback
    /// address, as the server sees it), where no one else is on the path.
    pub fn is_local(&mut self) -> StoreResult<bool> {
        self.one_value(
            "SELECT COALESCE(inet_server_addr() << inet '127.0.0.0/8' OR inet_server_addr() = inet '::1', TRUE)",
        )
    }

    /// The one boolean a query without parameters returns.
    fn one_value(&mut self, sql: &str) -> StoreResult<bool> {
        let shown = crate::sql::Backend::store_name(self);
        self.client()
            .query_one(sql, &[])
            .and_then(|row| row.try_get(0))
            .map_err(|err| super::pg_error(&shown, err))
    }
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn client_config(mode: SslMode, roots: Option<&Roots>) -> Result<ClientConfig> {
    let provider = provider();
    let algorithms = provider.signature_verification_algorithms;
    let chain = match roots {
        None => None,
        Some(roots) => {
            let store = Arc::new(root_store(roots)?);
            Some(
                WebPkiServerVerifier::builder_with_provider(store, provider.clone())
                    .build()
                    .context("cannot use the root certificates")?,
            )
        }
    };
    let verifier = Arc::new(Verifier {
        chain,
        check_name: mode == SslMode::VerifyFull,
        algorithms,
    });
    Ok(ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("the TLS provider offers no protocol version")?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

fn root_store(roots: &Roots) -> Result<RootCertStore> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::File(path) => {
            for cert in read_certificates(path)? {
                store.add(cert).with_context(|| {
                    format!(
                        "sslrootcert {}: a certificate in it cannot be a root",
                        path.display()
                    )
                })?;
            }
        }
        Roots::System => {
            let found = rustls_native_certs::load_native_certs();
            let (added, _) = store.add_parsable_certificates(found.certs);
            if added == 0 {
                bail!(
                    "sslrootcert=system: this machine has no certificate authorities to trust (install ca-certificates, or give sslrootcert=FILE)"
                );
            }
        }
    }
    Ok(store)
}

/// Every certificate in a PEM file, read within [`MAX_ROOT_FILE`].
fn read_certificates(path: &Path) -> Result<Vec<CertificateDer<'static>>> {
    use std::io::Read;
    let shown = path.display();
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot read sslrootcert {shown} (the root certificate)"))?;
    let mut pem = Vec::new();
    file.take(MAX_ROOT_FILE + 1)
        .read_to_end(&mut pem)
        .with_context(|| format!("cannot read sslrootcert {shown}"))?;
    if pem.len() as u64 > MAX_ROOT_FILE {
        bail!(
            "sslrootcert {shown} is larger than {} MiB: not a root certificate file",
            MAX_ROOT_FILE >> 20
        );
    }
    let certs = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|err| anyhow::anyhow!("sslrootcert {shown} is not PEM certificates: {err}"))?;
    if certs.is_empty() {
        bail!(
            "sslrootcert {shown} holds no certificate (expected PEM, `-----BEGIN CERTIFICATE-----`)"
        );
    }
    Ok(certs)
}

/// The certificate check each `sslmode` asks for; the handshake's signatures are always
/// checked, so the session is at least bound to the certificate the server showed.
#[derive(Debug)]
struct Verifier {
    /// Checks the chain up to the trusted roots (and the host name), when there are roots.
    chain: Option<Arc<WebPkiServerVerifier>>,
    /// `verify-full`: a certificate made out to another name is refused.
    check_name: bool,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for Verifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            // webpki checks the name only after the chain, so this error means the chain
            // is good: all `verify-ca` asks.
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) if !self.check_name => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

/// A failed connection explained: a refused certificate says what was wrong with it and
/// what to change; anything else keeps the driver's error with the usual checks.
pub(crate) fn explain(err: postgres::Error, shown: &str, tls: &Tls) -> StoreError {
    if let Some(tls_err) = tls_error(&err) {
        return StoreError::TlsRefused {
            store: shown.to_string(),
            problem: tls_err.to_string(),
            hint: tls_hint(tls_err, tls.mode),
        };
    }
    StoreError::Unreachable {
        store: shown.to_string(),
        source: cause(&err).into(),
    }
}

/// The driver's error with what it wraps (its own text is often just "db error").
fn cause(err: &postgres::Error) -> String {
    if let Some(db) = err.as_db_error() {
        return db.message().to_string();
    }
    let mut text = err.to_string();
    let mut next = std::error::Error::source(err);
    while let Some(e) = next {
        text += &format!(": {e}");
        next = e.source();
    }
    text
}

/// The rustls error behind a driver error, if the handshake failed. (`io::Error`'s
/// `source` skips the error it wraps, so each one is opened by hand.)
fn tls_error(err: &postgres::Error) -> Option<&rustls::Error> {
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = next {
        if let Some(found) = e.downcast_ref::<rustls::Error>() {
            return Some(found);
        }
        if let Some(inner) = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .and_then(|inner| inner.downcast_ref::<rustls::Error>())
        {
            return Some(inner);
        }
        next = e.source();
    }
    None
}

fn tls_hint(err: &rustls::Error, mode: SslMode) -> String {
    match err {
        rustls::Error::InvalidCertificate(
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
        ) => "the server's certificate is not made out to the host in the URL; connect by the name in its certificate (with hostaddr=IP if that name does not resolve here), or use sslmode=verify-ca to check only who signed it".into(),
        rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer) => format!(
            "the server's certificate is not signed by the root certificate given (sslrootcert); give the certificate of the authority that signed the server's{}",
            if mode == SslMode::VerifyFull { "" } else { ", or leave sslrootcert out to skip the check (not across a network)" }
        ),
        rustls::Error::InvalidCertificate(CertificateError::Expired | CertificateError::ExpiredContext { .. }) => {
            "the server's certificate has expired: renew it on the server".into()
        }
        rustls::Error::InvalidCertificate(_) => {
            "the server's certificate was refused: check it and the root certificate (sslrootcert)".into()
        }
        _ => "check the server's ssl settings (ssl=on, ssl_cert_file, ssl_key_file)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_keys_are_taken_out_and_the_rest_kept_in_order() {
        let (url, mode, roots) = split_url(
            "postgres://u:p@h:5/db?connect_timeout=3&sslmode=verify-ca&application_name=x&sslrootcert=%2Ftmp%2Fmy%20root.crt",
        )
        .unwrap();
        assert_eq!(
            url,
            "postgres://u:p@h:5/db?connect_timeout=3&application_name=x"
        );
        assert_eq!(mode, Some(SslMode::VerifyCa));
        assert_eq!(roots, Some(Roots::File("/tmp/my root.crt".into())));
        let (url, mode, roots) = split_url("postgres://h/db").unwrap();
        assert_eq!((url.as_str(), mode, roots), ("postgres://h/db", None, None));
        let (url, ..) = split_url("postgres://h/db?sslmode=disable").unwrap();
        assert_eq!(url, "postgres://h/db");
    }

    #[test]
    fn bad_settings_are_refused_by_name_without_the_url() {
        let cases = [
            ("postgres://u:secret@h/db?sslmode=allow", "sslmode `allow`"),
            ("postgres://u:secret@h/db?sslmode=", "sslmode ``"),
            (
                "postgres://u:secret@h/db?sslmode=require&sslmode=disable",
                "`sslmode` is given twice",
            ),
            (
                "postgres://u:secret@h/db?sslrootcert=",
                "`sslrootcert` in the store URL is empty",
            ),
            (
                "postgres://u:secret@h/db?sslrootcert=a&sslrootcert=b",
                "`sslrootcert` is given twice",
            ),
            ("postgres://u:secret@h/db?sslmode=%FF", "not UTF-8"),
        ];
        for (url, expected) in cases {
            let err = split_url(url).unwrap_err().to_string();
            assert!(err.contains(expected), "{url}: {err}");
            assert!(!err.contains("secret"), "{url}: {err}");
        }
    }

    fn tls(url: &str) -> Result<Tls> {
        let (rest, mode, roots) = split_url(url)?;
        let mut config: Config = rest.parse()?;
        Tls::from_url_parts(&mut config, mode, roots)
    }

    #[test]
    fn verifying_modes_need_a_root_and_system_roots_need_verify_full() {
        let home = std::env::var_os("HOME").map(PathBuf::from);
        if home.is_some_and(|h| h.join(".postgresql/root.crt").is_file()) {
            return; // libpq's default root is there: the modes below would use it.
        }
        for mode in ["verify-ca", "verify-full"] {
            let err = tls(&format!("postgres://h/db?sslmode={mode}"))
                .err()
                .unwrap();
            assert!(err.to_string().contains("add sslrootcert=FILE"), "{err}");
        }
        let err = tls("postgres://h/db?sslmode=require&sslrootcert=system")
            .err()
            .unwrap();
        assert!(
            err.to_string().contains("needs sslmode=verify-full"),
            "{err}"
        );
        let err = tls("postgres://h/db?sslrootcert=/nonexistent/root.crt")
            .err()
            .unwrap();
        assert!(err.to_string().contains("/nonexistent/root.crt"), "{err}");
        assert_eq!(tls("postgres://h/db").unwrap().mode, SslMode::Prefer);
        assert!(
            tls("postgres://h/db?sslmode=disable")
                .unwrap()
                .connector
                .is_none()
        );
    }

    #[test]
    fn a_root_file_without_certificates_is_refused() {
        let dir = std::env::temp_dir().join(format!("kit-tls-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let empty = dir.join("empty.crt");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let err = tls(&format!(
            "postgres://h/db?sslmode=verify-full&sslrootcert={}",
            empty.display()
        ))
        .err()
        .unwrap();
        assert!(err.to_string().contains("holds no certificate"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn encryption_is_named_by_what_was_checked() {
        let plain = tls("postgres://h/db?sslmode=disable").unwrap();
        assert_eq!(plain.encryption(false), Encryption::None);
        let prefer = tls("postgres://h/db?sslmode=require").unwrap();
        if prefer.checks_root {
            return; // ~/.postgresql/root.crt is there
        }
        assert_eq!(prefer.encryption(true), Encryption::Unverified);
        assert_eq!(prefer.encryption(false), Encryption::None);
    }
}
