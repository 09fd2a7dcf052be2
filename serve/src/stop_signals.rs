//! The signals that stop a server (Ctrl-C, and `SIGTERM` on Unix), listened for from the
//! moment they are made. A server makes them before it says where it listens, so a signal
//! sent by whoever read that line stops it cleanly (the game saved, the games in flight
//! given back) and never kills it by the signal's default action. Listening lazily, on
//! the first poll of an `async` block, left a window under load where it did.

use anyhow::{Context, Result};

/// The stop signals, their handlers already installed.
pub(crate) struct StopSignals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl StopSignals {
    /// Installs the handlers now; call it inside the server's runtime.
    pub(crate) fn listen() -> Result<StopSignals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(StopSignals {
                interrupt: signal(SignalKind::interrupt()).context("cannot listen for Ctrl-C")?,
                terminate: signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?,
            })
        }
        #[cfg(not(unix))]
        Ok(StopSignals {})
    }

    /// Waits for the first stop signal; returns its name.
    pub(crate) async fn recv(mut self) -> &'static str {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.interrupt.recv() => "Ctrl-C",
                _ = self.terminate.recv() => "SIGTERM",
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// A signal raised after `listen` and before anyone waits is not lost (nor does it
    /// kill the test process, which it would by its default action).
    #[test]
    fn a_signal_before_the_wait_is_kept() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let signals = StopSignals::listen().unwrap();
            // SAFETY: raise(3) sends SIGTERM to this process, whose handler is installed.
            assert_eq!(unsafe { libc::raise(libc::SIGTERM) }, 0);
            assert_eq!(signals.recv().await, "SIGTERM");
        });
    }
}
