//! The server's own accept loop (in place of `axum::serve`, which hides what is needed
//! here): each connection takes a place under the per-client, per-network and total caps or is turned
//! away at once with a 503, and is served by hyper with a time limit on every request's
//! headers, which also closes idle keep-alive connections.

use std::future::Future;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::pin::pin;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use super::limits::{CONNECTION_RETRY_AFTER, Limits, Places, Refusal, Slot, client_key};

/// How long a stopping server waits for the requests in progress to be answered.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves `app` on `listener` under `limits` until `shutdown` resolves, then lets the
/// requests in progress finish (for at most [`SHUTDOWN_GRACE`]).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
) {
    let connections = Places::new(
        limits.max_connections,
        limits.max_connections_per_client,
        limits.max_connections_per_network,
    );
    let (stop, stopping) = watch::channel(false);
    let mut shutdown = pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(err) => {
                pause_after(&err).await;
                continue;
            }
        };
        match connections.admit(client_key(peer.ip())) {
            Ok(slot) => {
                let connection = Connection {
                    app: app.clone(),
                    peer,
                    slot,
                    header_timeout: limits.header_timeout,
                };
                tokio::spawn(connection.serve(stream, stopping.clone()));
            }
            Err(refusal) => turn_away(stream, refusal),
        }
    }
    drop(listener);
    drop(stopping);
    let _ = stop.send(true);
    // Each connection holds a receiver until it ends.
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, stop.closed()).await;
}

/// An accept error is about one connection (it went away before it was taken: go on) or
/// about the server (out of open files: wait a little, so the loop does not spin, while
/// the connections being served end and give their files back).
async fn pause_after(err: &std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        err.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    ) {
        return;
    }
    eprintln!("serve: cannot accept a connection: {err}");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Answers a connection over a cap with a 503 and closes it, without waiting for it: a
/// client over its cap must not hold anything of the server's. What the client sent
/// already is read first, so the close is not a reset that could lose the answer.
fn turn_away(stream: TcpStream, refusal: Refusal) {
    let Ok(mut stream) = stream.into_std() else {
        return;
    };
    let mut scratch = [0u8; 8192];
    let _ = stream.read(&mut scratch);
    let body = refusal.message();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Retry-After: {CONNECTION_RETRY_AFTER}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}\n",
        body.len() + 1
    );
    // The socket is new and its send buffer empty: the answer fits without waiting.
    let _ = stream.write(response.as_bytes());
    let _ = stream.shutdown(std::net::Shutdown::Write);
}

/// One admitted connection.
struct Connection {
    app: Router,
    peer: SocketAddr,
    /// Held while the connection is served.
    slot: Slot,
    header_timeout: Duration,
}

impl Connection {
    /// Serves the connection's requests until it closes, times out, or the server stops
    /// (then the request in progress is finished first).
    async fn serve(self, stream: TcpStream, mut stopping: watch::Receiver<bool>) {
        let Connection {
            app,
            peer,
            slot,
            header_timeout,
        } = self;
        let _ = stream.set_nodelay(true);
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            app.clone().oneshot(request.map(Body::new))
        });
        let mut builder = http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout);
        let mut connection = pin!(builder.serve_connection(TokioIo::new(stream), service));
        let stopped = tokio::select! {
            _ = connection.as_mut() => false,
            _ = stopping.wait_for(|stop| *stop) => true,
        };
        if stopped {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
        drop(slot);
        drop(stopping);
    }
}
