//! `challenge match --watch`: the match's games live in the browser, served on loopback
//! by serve's live pages; the standings there follow each finished game.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use anyhow::Result;
use lab::MatchEvent;
use runner::Standings;
use serve::{LiveGames, LiveServer, MAX_WATCHERS_PER_GAME, StandingLine, serve_live};

/// Starts the live view on 127.0.0.1:`port` (0: a port the system chooses) and prints its
/// address.
pub fn start(port: u16) -> Result<LiveServer> {
    let bind = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port);
    let server = serve_live(bind, MAX_WATCHERS_PER_GAME)?;
    println!("watch the match live: http://{}/live", server.address);
    Ok(server)
}

/// Passes a finished game's standings on to the live view.
pub fn follow(games: &LiveGames, event: &MatchEvent<'_>) {
    if let MatchEvent::Game(game) = event {
        games.set_standings(lines(game.standings));
    }
}

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
