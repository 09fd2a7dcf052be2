//! Helpers for the `challenge serve` tests: a server on a free loopback port, started and
//! stopped by the test, and a small HTTP/1.1 client with a cookie jar (raw sockets, so
//! every header and status the server sends is seen as sent).

#![allow(dead_code)]

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The organiser token the tests start servers with.
pub const ADMIN_TOKEN: &str = "test-organiser-token-0123456789";

/// A running `challenge serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl Server {
    /// Starts `challenge serve` on `dir` on a free loopback port (`--bind 127.0.0.1:0`;
    /// the port is read from its first line).
    pub fn start(dir: &Path) -> Server {
        Server::start_with(dir, &[], &[])
    }

    /// [`Server::start`] with `env` added to its environment (after the organiser token,
    /// so `CHALLENGE_ADMIN_TOKEN` there replaces [`ADMIN_TOKEN`]).
    pub fn start_with_env(dir: &Path, env: &[(String, String)]) -> Server {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        Server::start_with(dir, &[], &env)
    }

    /// Starts `challenge serve` as [`Server::start`] does, with more arguments and
    /// environment variables (after the organiser token, so `CHALLENGE_ADMIN_TOKEN`
    /// there replaces [`ADMIN_TOKEN`]).
    pub fn start_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Server {
        let mut all = vec![OsStr::new("--dir"), dir.as_os_str()];
        all.extend(args.iter().map(OsStr::new));
        Server::launch(&all, env)
    }

    /// Starts `challenge serve --store URL` (a PostgreSQL store: workers play its games).
    pub fn start_store(url: &str) -> Server {
        Server::launch(&[OsStr::new("--store"), OsStr::new(url)], &[])
    }

    fn launch(args: &[&OsStr], env: &[(&str, &str)]) -> Server {
        let mut child = Command::new(crate::common_challenge::challenge_exe())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(args)
            .env("CHALLENGE_ADMIN_TOKEN", ADMIN_TOKEN)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start challenge serve");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        reader
            .read_line(&mut line)
            .expect("read the server's first line");
        // Keep reading (and showing) what it prints, so it never writes to a closed pipe.
        std::thread::spawn(move || {
            for line in reader.lines().map_while(Result::ok) {
                println!("server: {line}");
            }
        });
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in the server's first line: {line:?}"))
            .to_string();
        Server { child, address }
    }

    /// The process id (to check it is still alive).
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("wait on the server").is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP response.
#[derive(Debug, Clone)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// Headers, names lower-cased (the last value of repeated ones).
    pub headers: HashMap<String, String>,
    /// The body as text.
    pub body: String,
}

impl Response {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
}

/// A connection to `address` from the local address `source` (one of loopback's many:
/// `127.0.0.2` is another client than `127.0.0.1` to the server).
pub fn connect_from(source: IpAddr, address: &str) -> TcpStream {
    let target: SocketAddr = address.parse().expect("a socket address");
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(target),
        socket2::Type::STREAM,
        Some(socket2::Protocol::TCP),
    )
    .expect("a socket");
    socket
        .bind(&SocketAddr::new(source, 0).into())
        .unwrap_or_else(|err| panic!("bind to {source}: {err}"));
    socket
        .connect(&target.into())
        .unwrap_or_else(|err| panic!("connect from {source} to {target}: {err}"));
    socket.into()
}

/// Raises this process's soft limit on open files to its hard limit (for tests that hold
/// many connections); returns the limit now in force. The server's own.
#[allow(unused_imports)] // Only the tests that hold many connections use it.
pub use serve::raise_open_file_limit;

/// A browser-like client: keeps the cookies the server sets.
pub struct Client {
    address: String,
    /// The local address it connects from (`None`: the system's choice, 127.0.0.1).
    source: Option<IpAddr>,
    /// Cookies by name.
    pub cookies: HashMap<String, String>,
}

impl Client {
    /// A client of `server` with no cookies.
    pub fn new(server: &Server) -> Client {
        Client {
            address: server.address.clone(),
            source: None,
            cookies: HashMap::new(),
        }
    }

    /// A client of the server at `address` (`127.0.0.1:PORT`), started by other means.
    pub fn at(address: &str) -> Client {
        Client {
            address: address.to_string(),
            source: None,
            cookies: HashMap::new(),
        }
    }

    /// A client of `server` connecting from `source` (another loopback address).
    pub fn from_source(server: &Server, source: IpAddr) -> Client {
        Client {
            source: Some(source),
            ..Client::new(server)
        }
    }

    /// `GET path`.
    pub fn get(&mut self, path: &str) -> Response {
        self.send("GET", path, None, &[])
    }

    /// `POST path` with a URL-encoded form.
    pub fn post_form(&mut self, path: &str, fields: &[(&str, &str)]) -> Response {
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect();
        self.send(
            "POST",
            path,
            Some((
                "application/x-www-form-urlencoded",
                body.join("&").into_bytes(),
            )),
            &[],
        )
    }

    /// `POST path` as `multipart/form-data`, with `file` (name, bytes) as the `file` field.
    pub fn post_multipart(
        &mut self,
        path: &str,
        fields: &[(&str, &str)],
        file: Option<(&str, &[u8])>,
    ) -> Response {
        let boundary = "----kit-test-boundary-7d3f";
        let mut body = Vec::new();
        for (name, value) in fields {
            write!(
                body,
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .unwrap();
        }
        if let Some((file_name, bytes)) = file {
            write!(
                body,
                "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file_name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .unwrap();
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        write!(body, "--{boundary}--\r\n").unwrap();
        let content_type = format!("multipart/form-data; boundary={boundary}");
        self.send("POST", path, Some((&content_type, body)), &[])
    }

    /// Sends one request on a new connection and reads the whole response.
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<(&str, Vec<u8>)>,
        extra: &[(&str, &str)],
    ) -> Response {
        let mut stream = match self.source {
            Some(source) => connect_from(source, &self.address),
            None => TcpStream::connect(&self.address).expect("connect to the server"),
        };
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let mut head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            self.address
        );
        if !self.cookies.is_empty() {
            let jar: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            head.push_str(&format!("Cookie: {}\r\n", jar.join("; ")));
        }
        for (name, value) in extra {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        let bytes = match &body {
            Some((content_type, bytes)) => {
                head.push_str(&format!(
                    "Content-Type: {content_type}\r\nContent-Length: {}\r\n",
                    bytes.len()
                ));
                bytes.as_slice()
            }
            None => &[],
        };
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        // The server may answer (413) before reading a large body, and close.
        let _ = stream.write_all(bytes);
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        let response = parse(&raw);
        for (name, value) in &response.set_cookies {
            self.cookies.insert(name.clone(), value.clone());
        }
        response.response
    }
}

struct Parsed {
    response: Response,
    set_cookies: Vec<(String, String)>,
}

fn parse(raw: &[u8]) -> Parsed {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let mut body = raw[split + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let mut headers = HashMap::new();
    let mut set_cookies = Vec::new();
    for line in lines {
        if let Some((name, value)) = line.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_string());
            if name == "set-cookie"
                && let Some((k, v)) = value.split(';').next().and_then(|c| c.split_once('='))
            {
                set_cookies.push((k.to_string(), v.to_string()));
            }
            headers.insert(name, value);
        }
    }
    if headers
        .get("transfer-encoding")
        .is_some_and(|t| t == "chunked")
    {
        body = dechunk(&body);
    }
    Parsed {
        response: Response {
            status,
            headers,
            body: String::from_utf8_lossy(&body).to_string(),
        },
        set_cookies,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = data.windows(2).position(|w| w == b"\r\n") {
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&data[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = end + 2;
        out.extend_from_slice(&data[start..(start + size).min(data.len())]);
        data = &data[(start + size + 2).min(data.len())..];
    }
    out
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The CSRF token of the form posting to `action` in `html`.
pub fn csrf_token(html: &str, action: &str) -> String {
    let unescaped = html.replace("&#x2f;", "/");
    let at = unescaped
        .find(&format!("action=\"{action}\""))
        .unwrap_or_else(|| panic!("no form posting to {action} in:\n{html}"));
    let rest = &unescaped[at..];
    let value = rest
        .find("name=\"csrf\" value=\"")
        .map(|i| &rest[i + 19..])
        .expect("a csrf field in the form");
    value[..value.find('"').expect("end of the token")].to_string()
}

/// What a submission page says: the job's status address and the key, if one was shown.
pub fn job_and_key(html: &str) -> (String, Option<String>) {
    let unescaped = html.replace("&#x2f;", "/");
    let job = unescaped
        .split("data-job=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or_else(|| panic!("no job on the page:\n{html}"))
        .to_string();
    let key = unescaped
        .split("<code id=\"entry-key\">")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .map(str::to_string);
    (job, key)
}

/// Waits for a job to end; returns its final JSON.
pub fn wait_job(client: &mut Client, status_path: &str) -> String {
    let start = Instant::now();
    loop {
        let response = client.get(status_path);
        assert_eq!(response.status, 200, "{}", response.body);
        if response.body.contains("\"done\":true") {
            return response.body;
        }
        assert!(
            start.elapsed() < Duration::from_secs(600),
            "the job did not end: {}",
            response.body
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// Posts a bot through the form and returns the answer (not waiting for the job).
pub fn post_submission(client: &mut Client, name: &str, source: &[u8]) -> Response {
    let form = client.get("/submit");
    let token = csrf_token(&form.body, "/submit");
    client.post_multipart(
        "/submit",
        &[
            ("csrf", &token),
            ("name", name),
            ("author", ""),
            ("key", ""),
        ],
        Some((&format!("{name}.rs"), source)),
    )
}

/// Submits a bot through the form; returns the job's final JSON and the key shown.
pub fn submit(
    client: &mut Client,
    name: &str,
    author: &str,
    key: &str,
    source: &[u8],
) -> (String, Option<String>) {
    let form = client.get("/submit");
    let token = csrf_token(&form.body, "/submit");
    let response = client.post_multipart(
        "/submit",
        &[
            ("csrf", &token),
            ("name", name),
            ("author", author),
            ("key", key),
        ],
        Some((&format!("{name}.rs"), source)),
    );
    assert_eq!(response.status, 200, "{}", response.body);
    let (job, key) = job_and_key(&response.body);
    (wait_job(client, &job), key)
}

/// Logs `client` in as the organiser.
pub fn log_in(client: &mut Client, token: &str) -> Response {
    let page = client.get("/organiser");
    let csrf = csrf_token(&page.body, "/organiser/login");
    client.post_form("/organiser/login", &[("csrf", &csrf), ("token", token)])
}

/// Posts organiser action `action` (with its form's token) and extra fields.
pub fn organiser_action(client: &mut Client, action: &str, fields: &[(&str, &str)]) -> Response {
    let page = client.get("/organiser");
    let path = format!("/organiser/{action}");
    let csrf = csrf_token(&page.body, &path);
    let mut all = vec![("csrf", csrf.as_str())];
    all.extend_from_slice(fields);
    client.post_form(&path, &all)
}

/// A `challenge worker --wait` process on a PostgreSQL store, killed when dropped; what
/// it prints goes to a log file (read with [`Worker::log`]).
pub struct Worker {
    /// Its name in the store.
    pub name: String,
    child: Child,
    log: std::path::PathBuf,
}

impl Worker {
    /// Starts worker `name` on the store at `url`, logging to `NAME.log` in `dir`. Its
    /// lease is 3 s, so it looks at a paused tournament again every 0.75 s.
    pub fn start(url: &str, name: &str, dir: &Path) -> Worker {
        let log = dir.join(format!("{name}.log"));
        let child = Command::new(crate::common_challenge::challenge_exe())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "worker", "--wait", "--lease", "3", "--name", name, "--store", url,
            ])
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("create the worker's log"))
            .spawn()
            .expect("start challenge worker");
        Worker {
            name: name.to_string(),
            child,
            log,
        }
    }

    /// What it has printed so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Whether it is still running.
    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("wait on the worker").is_none()
    }

    /// Kills it at once (SIGKILL: no goodbye, no lease given back).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// What each worker printed, for assertion messages.
pub fn logs(workers: &[Worker]) -> String {
    workers
        .iter()
        .map(|w| format!("--- {}\n{}", w.name, w.log()))
        .collect()
}
