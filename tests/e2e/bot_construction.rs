//! A bot is built off the clock, always: its host constructs it before `readyok`, whatever
//! the previous game did (the runner's side, a breach of the construction limit named so,
//! is in `runner/tests/hostile_engines.rs`). `tests/bots/builds_in_a_second.rs` takes
//! about a second to construct and moves at once, so any construction inside a `go` shows
//! as a second on the move.

use crate::common;

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use common::{Engine, build, test_bot};
use runner::{EngineConfig, GameSettings, Opening, Player, Termination, TimeControl, play_game};

/// White mates at once (`Rh8#`): every game ends on the bot's own first move.
const MATE_IN_ONE: &str = "k7/8/1K6/8/8/8/8/7R w - - 0 1";

/// The games played in a row by one engine process, each after a game that ended on the
/// bot's own move (the first after the handshake's construction).
const GAMES: usize = 10;

/// A move that takes longer than this was not instant: the constructor's second landed on it.
const INSTANT: Duration = Duration::from_millis(500);

/// An engine that is never asked to move: the games end on White's first move.
fn bystander() -> Player {
    let script = "while read cmd rest; do case $cmd in uci) echo uciok;; \
                  isready) echo readyok;; quit) exit 0;; esac; done";
    let config = EngineConfig::new("bystander", "sh").arg("-c").arg(script);
    Player::new(config, tc())
}

fn tc() -> TimeControl {
    "5+0".parse().expect("a time control")
}

/// Before the fix the host answered the `isready` after `ucinewgame` at once when it came
/// before the bot thread had cleared its "thinking" flag, which it did only after writing
/// the last game's `bestmove`: the next game's bot was then built inside its first `go`.
#[test]
fn a_bot_built_in_a_second_gets_its_whole_clock_in_every_game() {
    let bot = Player::new(
        EngineConfig::new("builds_in_a_second", build(test_bot("builds_in_a_second"))),
        tc(),
    );
    let other = bystander();
    let opening = Opening::from_fen(MATE_IN_ONE).expect("a position");
    let settings = GameSettings::default();
    let stop = AtomicBool::new(false);
    let (mut white, mut black) = (None, None);
    let mut firsts = Vec::new();
    for game in 1..=GAMES {
        let record = play_game(
            [&bot, &other],
            [&mut white, &mut black],
            &opening,
            &settings,
            &stop,
        );
        assert_eq!(
            record.termination,
            Termination::Checkmate,
            "game {game}: {}",
            record.detail
        );
        firsts.push(record.moves[0].elapsed);
    }
    let slow: Vec<(usize, Duration)> = (1..)
        .zip(firsts.iter().copied())
        .filter(|(_, took)| *took > INSTANT)
        .collect();
    assert!(
        slow.is_empty(),
        "first moves slower than {INSTANT:?} (game, time): {slow:?}; all: {firsts:?}"
    );
    assert!(white.is_some(), "one engine process played every game");
}

/// A client that starts a new game while the last search still runs (a GUI's `stop`,
/// `ucinewgame`, `isready` sent at once, or here without the `stop`): the `isready` ends that
/// search, whose `bestmove` comes first, and builds the new game's bot before `readyok`,
/// so the first move of the new game is instant. The host used to answer `readyok` at once
/// there, leaving the search running and the construction to the next `go`.
#[test]
fn a_new_game_during_a_search_builds_the_bot_before_readyok() {
    let mut engine = Engine::start(&build(test_bot("builds_in_a_second")));
    engine.handshake();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("ucinewgame");
    let asked = Instant::now();
    engine.send("isready");
    let lines = engine
        .read_until("readyok", Duration::from_secs(15))
        .unwrap_or_else(|| panic!("no readyok; stderr:\n{}", engine.stderr()));
    let waited = asked.elapsed();
    assert!(
        lines.iter().any(|l| l.starts_with("bestmove ")),
        "the old search's bestmove comes before readyok: {lines:?}"
    );
    assert!(
        waited >= Duration::from_millis(900),
        "readyok after {waited:?}: the new bot was not built before it"
    );
    engine.send(&format!("position fen {MATE_IN_ONE}"));
    let go = Instant::now();
    engine.send("go wtime 5000 btime 5000");
    assert_eq!(
        engine.expect("bestmove", Duration::from_secs(10)),
        "bestmove h1h8"
    );
    assert!(go.elapsed() < INSTANT, "the move took {:?}", go.elapsed());
}
