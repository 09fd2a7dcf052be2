//! A match on the terminal: the opening line, a progress bar (or, when stderr is not a
//! terminal, a line per game), each fault with its engine's stderr, and the summary.

use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use measure::{MatchEvent, MatchOptions};
use measure::{describe_tcs, elo_text, summary_text};
use runner::{GameEvent, SearchStats, TournamentResult};

/// What the match shows: progress on stderr, the summary on stdout.
pub struct Progress {
    /// Only the summary: no progress bar or per-game lines.
    quiet: bool,
    /// The bar, once the match has started on a terminal.
    bar: OnceLock<ProgressBar>,
}

impl Progress {
    /// Progress for a match; `quiet` shows the summary only.
    pub fn new(quiet: bool) -> Progress {
        Progress {
            quiet,
            bar: OnceLock::new(),
        }
    }

    /// Shows one event of the match.
    pub fn show(&self, event: MatchEvent<'_>) {
        match event {
            MatchEvent::Started { options, scheduled } => self.started(options, scheduled),
            MatchEvent::Game(game) => self.game(&game),
            MatchEvent::Finished {
                options,
                result,
                search,
                elapsed,
            } => self.finished(options, result, search, elapsed),
        }
    }

    fn started(&self, options: &MatchOptions, scheduled: usize) {
        let config = &options.config;
        eprintln!(
            "Playing {} games ({}, {} players, {}, openings from {}, {} at a time){}",
            scheduled,
            config.format,
            config.players.len(),
            describe_tcs(&config.players),
            options.opening_source,
            config.concurrency,
            if options.shuffled {
                format!(", shuffled with seed {}", options.seed)
            } else {
                format!(", seed {}", options.seed)
            },
        );
        if !self.quiet && std::io::stderr().is_terminal() {
            let _ = self.bar.set(progress_bar(scheduled));
        }
    }

    /// A line above the bar, or on its own without one.
    fn say(&self, line: &str) {
        match self.bar.get() {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    fn game(&self, event: &GameEvent<'_>) {
        let (record, job) = (event.record, event.job);
        if let Some(side) = record.faulty.filter(|_| !self.quiet) {
            let engine = match side {
                framework::chess::Color::White => &record.white,
                framework::chess::Color::Black => &record.black,
            };
            self.say(&format!(
                "Game {} ({} vs {}): {} ({})",
                job.number + 1,
                record.white,
                record.black,
                record.termination,
                record.detail
            ));
            for line in &record.stderr {
                self.say(&format!("    {engine} stderr: {line}"));
            }
        }
        let me = event.standings.player(0);
        let elo = me
            .elo_wdl()
            .map_or(String::new(), |e| format!("  Elo {}", elo_text(&e)));
        let llr = event.llr.map_or(String::new(), |l| format!("  LLR {l:.2}"));
        let msg = format!(
            "{}: W{} D{} L{}{elo}{llr}",
            event.standings.players[0], me.wins, me.draws, me.losses
        );
        match self.bar.get() {
            Some(bar) => {
                bar.set_message(msg);
                bar.set_position(event.standings.games as u64);
            }
            None if !self.quiet => eprintln!(
                "Finished game {} ({} vs {}): {} {{{}}}  [{msg}]",
                job.number + 1,
                record.white,
                record.black,
                record.result,
                record.termination
            ),
            None => {}
        }
    }

    fn finished(
        &self,
        options: &MatchOptions,
        result: &TournamentResult,
        search: &[SearchStats],
        elapsed: Duration,
    ) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
        let config = &options.config;
        let first_pair = format!(
            "{} vs {}",
            config.players[0].name(),
            config.players[1].name()
        );
        print!(
            "{}",
            summary_text(config, result, search, &first_pair, elapsed)
        );
    }
}

fn progress_bar(scheduled: usize) -> ProgressBar {
    let bar = ProgressBar::new(scheduled as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:20} {pos}/{len} {msg} [{elapsed_precise}]")
            .expect("valid progress template"),
    );
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}
