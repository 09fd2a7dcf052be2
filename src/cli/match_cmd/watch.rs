//! `challenge match --watch`: the match's games live in the browser, served on loopback
//! by serve's live pages; the standings there follow each finished game. The pages are
//! the `server` feature's: a build without it says so when `--watch` is asked for.

use anyhow::Result;
use measure::MatchEvent;
use runner::GameWatch;
#[cfg(feature = "server")]
use runner::Standings;
#[cfg(feature = "server")]
use serve::{LiveServer, MAX_WATCHERS_PER_GAME, StandingLine, serve_live};

/// The live view of a match.
pub struct Live {
    #[cfg(feature = "server")]
    server: LiveServer,
    /// A build without the server cannot make one.
    #[cfg(not(feature = "server"))]
    never: std::convert::Infallible,
}

impl Live {
    /// With a port (`--watch PORT`), starts the live view on 127.0.0.1:`port` (0: a port
    /// the system chooses) and prints its address; `None` without one.
    pub fn start(port: Option<u16>) -> Result<Option<Live>> {
        let Some(port) = port else {
            return Ok(None);
        };
        #[cfg(feature = "server")]
        {
            use std::net::{IpAddr, Ipv4Addr, SocketAddr};
            let bind = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port);
            let server = serve_live(bind, MAX_WATCHERS_PER_GAME)?;
            println!("watch the match live: http://{}/live", server.address);
            Ok(Some(Live { server }))
        }
        #[cfg(not(feature = "server"))]
        {
            let _ = port;
            anyhow::bail!("{}", crate::cli::feature_needed("match --watch", "server"))
        }
    }

    /// What the match tells each game's moves to.
    pub fn games(&self) -> &dyn GameWatch {
        #[cfg(feature = "server")]
        return &*self.server.games;
        #[cfg(not(feature = "server"))]
        match self.never {}
    }

    /// Passes a finished game's standings on to the live view.
    pub fn follow(&self, event: &MatchEvent<'_>) {
        #[cfg(feature = "server")]
        if let MatchEvent::Game(game) = event {
            self.server.games.set_standings(lines(game.standings));
        }
        #[cfg(not(feature = "server"))]
        let _ = (event, self.never);
    }
}

#[cfg(feature = "server")]
fn lines(standings: &Standings) -> Vec<StandingLine> {
    let mut lines: Vec<StandingLine> = standings
        .players
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let stats = standings.player(i);
            StandingLine {
                name: name.clone(),
                points: stats.points(),
                games: (stats.wins + stats.draws + stats.losses) as usize,
            }
        })
        .collect();
    lines.sort_by(|a, b| b.points.total_cmp(&a.points));
    lines
}
