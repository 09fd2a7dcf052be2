//! The UCI host: reads the client's commands, keeps the game, and asks the bot
//! for moves on a thread of its own so `stop` and `isready` are answered while
//! it thinks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::command::{Command, GoParams, PositionParams, SetOption};
use super::input::{Line, MAX_COMMAND_BYTES, next_line};
use super::options::{BotOption, OptionAction, Options};
use super::output::{
    MAX_NAME_CHARS, SEARCH_NODES, is_line_breaking, mark_search_start, send, take_stdout,
};
use super::sandbox;
use crate::bot::Bot;
use crate::chess::{Board, Color, Move};
use crate::timer::{SearchLimits, Timer, saturating_ms};

/// Constructing a bot may take at most this long; longer is reported as a breach.
pub const CONSTRUCTION_LIMIT: Duration = Duration::from_secs(5);

/// The bot's thread gets a generous stack: recursive searches are the norm in
/// tiny bots, and an overflow must be a bot's own deep recursion, not the host's
/// choice of a small default.
const BOT_STACK_BYTES: usize = 64 * 1024 * 1024;

/// When the client closes its input while the bot thinks, the bot is told to
/// stop and gets this long to answer with its `bestmove` (as Stockfish
/// answers) before the engine exits anyway.
pub const STOP_GRACE: Duration = Duration::from_secs(5);

/// The same grace after `quit`, which asks for an exit as soon as possible: a
/// bot that answers `stop` promptly still gets its move out.
pub const QUIT_GRACE: Duration = Duration::from_millis(250);

/// Runs the bot `B` as a UCI engine on stdin/stdout until `quit` or end of input.
///
/// A search under way at end of input or `quit` is stopped and still ends
/// with its `bestmove` (within [`STOP_GRACE`] or [`QUIT_GRACE`]). Under `go
/// infinite` the `bestmove` waits for `stop`, as the protocol asks, even if
/// the bot returns sooner.
///
/// `file_name` names the engine in `id name` unless the bot sets [`Bot::NAME`].
/// This is the whole `main` of a bot engine executable; the kit generates it.
///
/// Before the bot is constructed the host closes the OS sandbox around the
/// process (see [`NO_SANDBOX_ENV`](super::NO_SANDBOX_ENV) for the developer
/// switch): from then on the process can only think and answer. The bot may
/// allocate [`MEMORY_LIMIT_BYTES`](super::MEMORY_LIMIT_BYTES), the challenge's
/// rule.
pub fn run<B: Bot + 'static>(file_name: &str) {
    run_with_memory_limit::<B>(file_name, super::MEMORY_LIMIT_BYTES);
}

/// [`run`] with a memory allowance of `bytes` instead of the challenge's 256
/// MiB: the counting allocator, the check of the image's statics and the
/// sandbox's address-space cap all follow it.
///
/// For opponents only: the kit builds ports of the C# challenge's entries
/// with more, since that tournament did not enforce its 256 MB rule and
/// entries were written for the tables they allocated. A bot of the
/// challenge always runs under [`run`].
pub fn run_with_memory_limit<B: Bot + 'static>(file_name: &str, bytes: usize) {
    super::memory::set_allowance(bytes);
    let protocol_fd = match take_stdout() {
        Ok(fd) => fd,
        Err(err) => {
            eprintln!("error: cannot separate the bot's output from the protocol: {err}");
            std::process::exit(2);
        }
    };
    let sandboxed = sandbox::wanted();
    if sandboxed {
        sandbox::prepare();
    }
    install_panic_hook(sandboxed);
    super::memory::check_image();
    let name = engine_name(B::NAME, file_name);
    let options = bot_options::<B>();

    let stop = Arc::new(AtomicBool::new(false));
    let thinking = Arc::new(Thinking::default());
    let (jobs, ready) = spawn_bot_thread::<B>(stop.clone(), thinking.clone(), options.bot.clone());
    super::memory::arm();
    enter_sandbox(sandboxed, protocol_fd);

    let mut board = Board::startpos();
    let mut clock_base: Option<i32> = None;
    let mut grace = STOP_GRACE;
    // A `ucinewgame` or `Clear Hash` since the last `go`: the bot was dropped, and the
    // next `isready` builds the new one whatever the last search is doing.
    let mut bot_dropped = false;
    let mut input = std::io::stdin().lock();
    while let Some(line) = next_line(&mut input) {
        let Some(command) = command_of(line) else {
            continue;
        };
        match command {
            Command::Uci => announce(&name, &options),
            Command::IsReady => {
                build_before_ready(&jobs, &ready, &thinking, &stop, bot_dropped);
                bot_dropped = false;
                send("readyok");
            }
            Command::NewGame => {
                clock_base = None;
                bot_dropped = true;
                let _ = jobs.send(Job::NewGame);
            }
            Command::Position(position) => match set_up(&position) {
                Ok(next) => board = next,
                Err(message) => eprintln!("uci: {message}"),
            },
            Command::Go(go) => {
                bot_dropped = false;
                let timer = timer_for(&go, board.side_to_move(), &mut clock_base);
                stop.store(false, Ordering::SeqCst);
                thinking.start();
                mark_search_start();
                let _ = jobs.send(Job::Think {
                    board: Box::new(board.clone()),
                    timer: timer
                        .with_stop_flag(stop.clone())
                        .with_node_sink(&SEARCH_NODES),
                    until_stop: go.infinite,
                });
            }
            Command::Stop => stop.store(true, Ordering::SeqCst),
            Command::Quit => {
                grace = QUIT_GRACE;
                break;
            }
            Command::SetOption(set) => bot_dropped |= set_option(&options, &set, &jobs),
            Command::Ignored => {}
        }
    }
    // Like the engines GUIs know: the search under way ends with its move.
    stop.store(true, Ordering::SeqCst);
    thinking.wait_until_done(grace);
    // Ends the process even if the bot thread is still thinking.
    std::process::exit(0);
}

/// The command on a line from the client, or `None` (said on stderr) when there is none.
fn command_of(line: Line) -> Option<Command> {
    let line = match line {
        Line::Text(line) => line,
        Line::TooLong(bytes) => {
            eprintln!(
                "uci: ignored a line of {bytes} bytes; the longest read is {MAX_COMMAND_BYTES}"
            );
            return None;
        }
        Line::NotUtf8 => {
            eprintln!("uci: ignored a line that is not UTF-8");
            return None;
        }
    };
    Command::parse(&line)
        .map_err(|err| eprintln!("uci: ignored `{}`: {err}", line.trim()))
        .ok()
}

/// The answer to `uci`: the engine's name, its options, `uciok`.
fn announce(name: &str, options: &Options) {
    send(&format!("id name {name}"));
    send("id author a single-file bot");
    for line in options.uci_lines() {
        send(&line);
    }
    send("uciok");
}

/// The options the bot declared that are well formed (the others said on stderr).
fn bot_options<B: Bot>() -> Options {
    let (options, errors) = Options::declare(B::OPTIONS);
    for error in errors {
        eprintln!("bot error: {error}");
    }
    options
}

/// Carries out a `setoption`, or tells the client why it does not; `true` if it dropped
/// the bot (to be built again before the next `readyok`).
fn set_option(options: &Options, set: &SetOption, jobs: &Sender<Job>) -> bool {
    match options.judge(set) {
        // The bot's state, its table among it, lives in the bot: a fresh bot is a clear one.
        Ok(OptionAction::ClearHash) => {
            let _ = jobs.send(Job::NewGame);
            return true;
        }
        Ok(OptionAction::SetBot { index, value }) => {
            let _ = jobs.send(Job::SetOption { index, value });
        }
        Ok(OptionAction::Seed(seed)) => {
            let _ = jobs.send(Job::Seed(seed));
        }
        Err(reply) => {
            eprintln!("uci: {reply}");
            send(&format!("info string {reply}"));
        }
    }
    false
}

/// Makes sure the bot is built before the host answers `isready`, so that its
/// construction is never spent on a move's clock.
///
/// Only a search of the current game is answered at once, as UCI asks of `isready`
/// during a search. After `ucinewgame` (or `Clear Hash`) the bot was dropped, and a search
/// that has not ended yet belongs to the game the client left, even if its `bestmove` is
/// already on the way: the host stops it (its `bestmove` still comes first) and builds the
/// new bot after it. Judging by the thinking flag alone answered at once in the moment
/// between a game's last `bestmove` and the flag's clearing, and the next game's bot was
/// then built inside its first `go`.
fn build_before_ready(
    jobs: &Sender<Job>,
    ready: &Receiver<()>,
    thinking: &Thinking,
    stop: &AtomicBool,
    bot_dropped: bool,
) {
    if thinking.is_on() {
        if !bot_dropped {
            return;
        }
        stop.store(true, Ordering::SeqCst);
    }
    // The bot thread takes its jobs in order: the search, the drop, then this.
    let _ = jobs.send(Job::Construct);
    let _ = ready.recv();
}

/// Whether the bot is thinking, and a way to wait until it is done.
#[derive(Default)]
struct Thinking {
    on: Mutex<bool>,
    changed: Condvar,
}

impl Thinking {
    fn set(&self, on: bool) {
        *self.on.lock().unwrap_or_else(|e| e.into_inner()) = on;
        self.changed.notify_all();
    }

    fn start(&self) {
        self.set(true);
    }

    fn finish(&self) {
        self.set(false);
    }

    fn is_on(&self) -> bool {
        *self.on.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until the bot is not thinking, for at most `limit`.
    fn wait_until_done(&self, limit: Duration) {
        let on = self.on.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self.changed.wait_timeout_while(on, limit, |on| *on);
    }
}

/// The name the engine announces: the bot's [`Bot::NAME`], or its file's name
/// when that is empty, as one printable line of at most [`MAX_NAME_CHARS`]
/// characters. A name with control characters or line breaks would inject
/// protocol lines (`id name x\nbestmove e2e4`); they become `?`, and the
/// bot's stderr says so.
///
/// ```
/// use framework::uci::engine_name;
/// assert_eq!(engine_name("", "my_bot"), "my_bot");
/// assert_eq!(engine_name("Tiny\nbestmove e2e4", "my_bot"), "Tiny?bestmove e2e4");
/// assert_eq!(engine_name(&"x".repeat(500), "my_bot").chars().count(), 64);
/// ```
pub fn engine_name(declared: &str, file_name: &str) -> String {
    let chosen = if declared.trim().is_empty() {
        file_name
    } else {
        declared
    };
    let shown: String = chosen
        .chars()
        .map(|c| if is_line_breaking(c) { '?' } else { c })
        .take(MAX_NAME_CHARS)
        .collect();
    let shown = shown.trim().to_string();
    if shown != chosen {
        eprintln!(
            "bot error: the engine name {chosen:?} is not one printable line of at most \
             {MAX_NAME_CHARS} characters; it is announced as {shown:?}"
        );
    }
    if shown.is_empty() {
        "bot".to_string()
    } else {
        shown
    }
}

/// Closes the OS sandbox (or says loudly that it is off). An engine that
/// cannot be sandboxed does not run the bot at all.
fn enter_sandbox(sandboxed: bool, protocol_fd: i32) {
    if !sandboxed {
        eprintln!(
            "warning: {}=1: the OS sandbox is off (a developer switch, never used by challenges)",
            sandbox::NO_SANDBOX_ENV
        );
        return;
    }
    if let Err(err) = sandbox::enter(protocol_fd) {
        eprintln!("error: cannot enter the OS sandbox, so the bot does not run: {err}");
        std::process::exit(2);
    }
}

enum Job {
    Construct,
    NewGame,
    /// Seeds `Random::new()` for what follows (the UCI option `Seed`).
    Seed(u64),
    /// Gives the bot's option `index` this value, now and at every construction.
    SetOption {
        index: usize,
        value: i64,
    },
    Think {
        board: Box<Board>,
        timer: Timer,
        /// `go infinite`: answer only once told to stop.
        until_stop: bool,
    },
}

fn spawn_bot_thread<B: Bot + 'static>(
    stop: Arc<AtomicBool>,
    thinking: Arc<Thinking>,
    options: Vec<BotOption>,
) -> (Sender<Job>, Receiver<()>) {
    let (job_tx, job_rx) = mpsc::channel::<Job>();
    let (ready_tx, ready_rx) = mpsc::channel::<()>();
    let spawned = std::thread::Builder::new()
        .name("bot".into())
        .stack_size(BOT_STACK_BYTES)
        .spawn(move || {
            // The thread is set up (its signal stack, its name, glibc's
            // per-thread registrations): the sandbox may close.
            let _ = ready_tx.send(());
            let mut bot: Option<B> = None;
            let mut values: Vec<i64> = options.iter().map(|option| option.default).collect();
            for job in job_rx {
                match job {
                    Job::Construct => {
                        construct(&mut bot, &options, &values);
                        let _ = ready_tx.send(());
                    }
                    Job::NewGame => bot = None,
                    // On the bot's thread, in order with the games it seeds.
                    Job::Seed(seed) => crate::random::seed_game(seed),
                    Job::SetOption { index, value } => {
                        values[index] = value;
                        if let Some(bot) = &mut bot {
                            bot.set_option(options[index].name, value);
                        }
                    }
                    Job::Think {
                        board,
                        timer,
                        until_stop,
                    } => {
                        let bot = construct(&mut bot, &options, &values);
                        // The bot's own copies: it may keep or change them (the timer's
                        // clone shares the stop flag and the node count `report_nodes` reads).
                        let mv = think_caught(bot, (*board).clone(), timer.clone());
                        report_bad_move(&board, mv);
                        while until_stop && !stop.load(Ordering::SeqCst) {
                            std::thread::sleep(Duration::from_millis(1));
                        }
                        stop.store(false, Ordering::SeqCst);
                        report_nodes(&timer);
                        send(&format!("bestmove {mv}"));
                        thinking.finish();
                    }
                }
            }
        });
    if spawned.is_err() || ready_rx.recv().is_err() {
        eprintln!(
            "error: cannot start the bot's thread ({}); its thread-locals may be too large",
            spawned
                .err()
                .map_or("it ended at once".into(), |err| err.to_string())
        );
        std::process::exit(2);
    }
    (job_tx, ready_rx)
}

/// `bot.think`, ending the process if an `abort_search` escapes it (no `try_search` or
/// `catch_abort` around it): the bot's thread would otherwise end without a move, and the
/// client wait for one. Panics never get here: the panic hook ends the process first (a
/// C# port's caught ones end in its `try_catch`). The turn's stopwatch starts here, as
/// C#'s does at `Think` ([`Timer::started_now`]).
fn think_caught<B: Bot>(bot: &mut B, mut board: Board, timer: Timer) -> Move {
    board.mark_search_root();
    let timer = timer.started_now();
    let thought =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| bot.think(board, timer)));
    thought.unwrap_or_else(|_| {
        eprintln!(
            "bot error: abort_search() was called outside try_search or catch_abort; the engine exits"
        );
        std::process::exit(101)
    })
}

/// Says on stderr when the bot's answer is no move although it has some, or an illegal
/// one; either is passed on for the client to judge.
fn report_bad_move(board: &Board, mv: Move) {
    if mv.is_null() {
        if !board.legal_moves().is_empty() {
            eprintln!(
                "bot error: think() returned Move::NULL, which is no move, in {} where it has \
                 legal moves; the engine answers `bestmove 0000`",
                board.fen()
            );
        }
    } else if !board.is_legal(mv) {
        eprintln!(
            "bot error: think() returned the illegal move {mv} in {}",
            board.fen()
        );
    }
}

/// The nodes the bot counted through `Timer::should_stop`, as GUIs and benches read
/// them: one `info` line before `bestmove`, with the time and speed of the move.
fn report_nodes(timer: &Timer) {
    if let Some(nodes) = timer.nodes_searched() {
        let ms = timer.wall_ms_elapsed();
        let nps = nodes.saturating_mul(1000) / ms.max(1) as u64;
        send(&format!("info nodes {nodes} time {ms} nps {nps}"));
    }
}

/// Builds the bot if it does not exist yet and gives it its options' values, timing both.
fn construct<'a, B: Bot>(
    bot: &'a mut Option<B>,
    options: &[BotOption],
    values: &[i64],
) -> &'a mut B {
    bot.get_or_insert_with(|| {
        let start = Instant::now();
        let mut built = B::default();
        for (option, &value) in options.iter().zip(values) {
            built.set_option(option.name, value);
        }
        let took = start.elapsed();
        if took > CONSTRUCTION_LIMIT {
            let message = format!(
                "limit breach: constructing the bot took {} ms; the limit is {} ms",
                took.as_millis(),
                CONSTRUCTION_LIMIT.as_millis()
            );
            eprintln!("{message}");
            send(&format!("info string {message}"));
        }
        built
    })
}

/// The board for a `position` command, with every move made on it so the bot
/// sees the whole game history.
fn set_up(position: &PositionParams) -> Result<Board, String> {
    let mut board = match &position.fen {
        None => Board::startpos(),
        Some(fen) => Board::from_fen(fen).map_err(|err| format!("bad FEN `{fen}`: {err}"))?,
    };
    for (ply, text) in position.moves.iter().enumerate() {
        let mv = board
            .parse_uci(text)
            .ok()
            .filter(|mv| board.is_legal(*mv))
            .ok_or_else(|| {
                format!(
                    "move {} `{text}` is not legal in {}; position ignored",
                    ply + 1,
                    board.fen()
                )
            })?;
        board.make_move(mv);
    }
    Ok(board)
}

/// The bot's clock for a `go` command. `clock_base` remembers the first clock
/// reading of the game as the game's starting time.
///
/// The bot's own clock is used when the client sent one, unless `movetime` or
/// `infinite` says how long to think; otherwise the timer is
/// [`Timer::untimed`]. The depth and node limits ride along either way.
fn timer_for(go: &GoParams, us: Color, clock_base: &mut Option<i32>) -> Timer {
    let (ours, theirs, increment) = match us {
        Color::White => (go.wtime, go.btime, go.winc),
        Color::Black => (go.btime, go.wtime, go.binc),
    };
    let limits = SearchLimits {
        depth: go.depth,
        nodes: go.nodes,
        movetime_ms: go.movetime,
        infinite: go.infinite,
    };
    let timer = match ours {
        Some(ours) if !go.infinite && go.movetime.is_none() => {
            let ms = saturating_ms;
            Timer::new(
                ms(ours),
                ms(theirs.unwrap_or(ours)),
                ms(increment.unwrap_or(0)),
            )
            .with_limits(limits)
        }
        _ => Timer::untimed(limits),
    };
    let game_start = *clock_base.get_or_insert(timer.ms_remaining());
    timer
        .with_game_start_ms(game_start)
        .with_moves_to_go(go.movestogo)
}

/// A panicking bot ends its process at once, with the panic message on
/// stderr: a bot thread that died quietly would leave the client waiting.
/// The one exception is a panic that a C# port's `catch` catches
/// ([`cs::try_catch`](crate::csharp::runtime::try_catch), as C# catches a division by
/// zero): `caught_here` says so, and it unwinds to
/// there quietly. Nothing else can keep a panic from ending the engine: bots may not
/// name `catch_unwind` (the `panic` module is refused), and a panic `try_catch` will not
/// catch (one on another thread, or a second one while a first unwinds) still ends it.
///
/// Inside the sandbox the message is written here rather than by the
/// standard hook, which would open the executable to print a backtrace when
/// `RUST_BACKTRACE` is set, and be stopped by the sandbox for it.
fn install_panic_hook(sandboxed: bool) {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if crate::csharp::runtime::caught_here() {
            return;
        }
        if sandboxed {
            let thread = std::thread::current();
            let payload = info
                .payload()
                .downcast_ref::<&str>()
                .copied()
                .or_else(|| info.payload().downcast_ref::<String>().map(String::as_str))
                .unwrap_or("(a panic without a message)");
            match info.location() {
                Some(at) => eprintln!(
                    "thread '{}' panicked at {at}:\n{payload}",
                    thread.name().unwrap_or("<unnamed>")
                ),
                None => eprintln!("thread panicked:\n{payload}"),
            }
        } else {
            default_hook(info);
        }
        eprintln!("bot error: the bot panicked; the engine exits");
        std::process::exit(101);
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records whether the board it is handed says its root is a repetition.
    #[derive(Default)]
    struct RootWatcher {
        root_repeated: Option<bool>,
    }

    impl Bot for RootWatcher {
        fn think(&mut self, board: Board, _timer: Timer) -> Move {
            self.root_repeated = Some(board.is_repeated_position() || board.is_search_draw());
            board.legal_moves()[0]
        }
    }

    #[test]
    fn the_board_handed_to_think_is_not_a_repetition_at_its_root() {
        let mut board = Board::startpos();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let mv = board.parse_uci(m).unwrap();
            board.make_move(mv);
        }
        assert!(
            board.is_repeated_position(),
            "the game has been here before"
        );
        let mut bot = RootWatcher::default();
        think_caught(&mut bot, board, Timer::new(1000, 1000, 0));
        assert_eq!(bot.root_repeated, Some(false));
    }
}
