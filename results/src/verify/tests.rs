//! Recorded endings against real games: each lie a worker could tell, refused; each true
//! ending, shown or claimed as the runner would record it.

use super::*;
use store::EntryId;

fn version(id: i64, name: &str) -> Version {
    Version {
        id: VersionId(id),
        entry_id: EntryId(id),
        name: name.into(),
        author: None,
        number: 1,
        hash: format!("hash{id}"),
        tokens: 1,
        debug_tokens: 0,
        file_name: "bot.rs".into(),
        current: true,
        withdrawn: false,
        submitted: String::new(),
    }
}

/// A stored game of `ann` (White) against `bob` from `moves` (SAN, from `fen` if given),
/// as the kit writes it, with the recorded ending given.
fn game(
    moves: &str,
    fen: Option<&str>,
    result: GameResult,
    termination: Termination,
    faulty: Option<Color>,
) -> Game {
    let plies = moves
        .split_whitespace()
        .filter(|t| !t.ends_with('.'))
        .count();
    let setup = fen.map_or(String::new(), |f| format!("[SetUp \"1\"]\n[FEN \"{f}\"]\n"));
    let pgn = format!(
        "[White \"ann\"]\n[Black \"bob\"]\n[Result \"{result}\"]\n{setup}[WhiteVersion \"hash1\"]\n\
         [BlackVersion \"hash2\"]\n[{TERMINATION_DETAILS_TAG} \"{}\"]\n[PlyCount \"{plies}\"]\n\n{moves} {result}\n",
        termination.tag()
    );
    Game {
        id: GameId(1),
        tournament: None,
        slot: None,
        white: VersionId(1),
        black: VersionId(2),
        result,
        termination,
        faulty,
        detail: String::new(),
        plies: plies as u32,
        worker: Some("box1".into()),
        aside: None,
        aside_from: None,
        pgn,
        evidence: None,
    }
}

/// `game` with the evidence the runner keeps of a fault on a move: untimed clocks, a
/// short turn, a line of stderr.
fn with_evidence(mut game: Game) -> Game {
    game.evidence = Some(Evidence {
        left_ms: [None, None],
        turn_ms: 30,
        at_start: false,
        answer: None,
        stderr: vec!["thread 'main' panicked".into()],
    });
    game
}

fn verdict(game: &Game, rules: Option<&StoredRules>, opening: Option<&StoredOpening>) -> Verdict {
    timed_verdict(game, rules, opening, None)
}

fn timed_verdict(
    game: &Game,
    rules: Option<&StoredRules>,
    opening: Option<&StoredOpening>,
    time_control: Option<TimeControl>,
) -> Verdict {
    let (white, black) = (version(1, "ann"), version(2, "bob"));
    check(
        game,
        &Expected {
            white: &white,
            black: &black,
            rules,
            opening,
            time_control,
        },
    )
}

fn refused(game: &Game) -> String {
    match verdict(game, None, None) {
        Verdict::Refused(reason) => reason,
        other => panic!("{other:?} for {}", game.pgn),
    }
}

const FOOLS_MATE: &str = "1. f3 e5 2. g4 Qh4#";
/// Sam Loyd's ten-move stalemate: Black, to move after 10. Qe6, has no legal move.
const LOYD_STALEMATE: &str = "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 \
                              7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6";
/// The start position for the third time.
const REPETITION: &str = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";

use GameResult::{BlackWins, Draw, WhiteWins};
use Termination::{
    AdjudicatedResign, Checkmate, Crash, FailedStart, IllegalMove, MaxLength, Repetition,
    Stalemate, TimeForfeit,
};

#[test]
fn endings_on_the_board_are_shown_when_they_are_the_final_positions() {
    let mate = game(FOOLS_MATE, None, BlackWins, Checkmate, None);
    assert_eq!(verdict(&mate, None, None), Verdict::Shown);
    let stalemate = game(LOYD_STALEMATE, None, Draw, Stalemate, None);
    assert_eq!(verdict(&stalemate, None, None), Verdict::Shown);
    let repetition = game(REPETITION, None, Draw, Repetition, None);
    assert_eq!(verdict(&repetition, None, None), Verdict::Shown);
    let bare = game(
        "",
        Some("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"),
        Draw,
        Termination::InsufficientMaterial,
        None,
    );
    assert_eq!(verdict(&bare, None, None), Verdict::Shown);
}

#[test]
fn a_win_for_the_side_that_was_mated_is_refused() {
    // The finding: "1-0 checkmate" with a PGN in which Black mates.
    let lie = game(FOOLS_MATE, None, WhiteWins, Checkmate, None);
    assert!(
        refused(&lie).contains("its moves give 0-1"),
        "{}",
        refused(&lie)
    );
    // A checkmate claimed where the final position is none.
    let no_mate = game("1. f3 e5 2. g4", None, BlackWins, Checkmate, None);
    assert!(
        refused(&no_mate).contains("no checkmate"),
        "{}",
        refused(&no_mate)
    );
    // A draw rule where the board shows something else.
    let not_stalemate = game(FOOLS_MATE, None, Draw, Stalemate, None);
    assert!(
        refused(&not_stalemate).contains("by checkmate"),
        "{}",
        refused(&not_stalemate)
    );
}

#[test]
fn a_crash_that_the_board_contradicts_is_refused_and_one_it_allows_is_a_claim() {
    // The finding: a crash that never happened, recorded on a mated position.
    let crash_on_mate = game(FOOLS_MATE, None, BlackWins, Crash, Some(Color::White));
    assert!(
        refused(&crash_on_mate).contains("by checkmate"),
        "{}",
        refused(&crash_on_mate)
    );
    // The board cannot show a crash: on a game still going, it is the worker's claim,
    // with the result the runner gives (the crashed side loses).
    let crash = with_evidence(game("1. e4 e5", None, BlackWins, Crash, Some(Color::White)));
    assert_eq!(verdict(&crash, None, None), Verdict::Claimed);
    let crash_wrong_winner = game("1. e4 e5", None, WhiteWins, Crash, Some(Color::White));
    assert!(matches!(
        verdict(&crash_wrong_winner, None, None),
        Verdict::Refused(_)
    ));
    let no_side = game("1. e4 e5", None, BlackWins, Crash, None);
    assert!(
        refused(&no_side).contains("names no side"),
        "{}",
        refused(&no_side)
    );
}

#[test]
fn faults_on_the_move_are_the_movers_and_a_flag_against_bare_kings_is_a_draw() {
    let flag = with_evidence(game(
        "1. e4 e5",
        None,
        BlackWins,
        TimeForfeit,
        Some(Color::White),
    ));
    assert_eq!(verdict(&flag, None, None), Verdict::Claimed);
    let not_on_move = game("1. e4 e5", None, WhiteWins, TimeForfeit, Some(Color::Black));
    assert!(
        refused(&not_on_move).contains("not to move"),
        "{}",
        refused(&not_on_move)
    );
    // White (to move, with a rook) flags against a lone king, which cannot mate: a draw
    // (FIDE 6.9), not a win.
    let fen = Some("8/8/4k3/8/8/8/R7/4K3 w - - 0 1");
    let draw = with_evidence(game("", fen, Draw, TimeForfeit, Some(Color::White)));
    assert_eq!(verdict(&draw, None, None), Verdict::Claimed);
    let win = game("", fen, BlackWins, TimeForfeit, Some(Color::White));
    assert!(matches!(verdict(&win, None, None), Verdict::Refused(_)));
    // A failed start comes before any engine move.
    let late_start = game("1. e4 e5", None, WhiteWins, FailedStart, Some(Color::Black));
    let opening = StoredOpening {
        fen: Board::startpos().fen(),
        moves: vec!["e2e4".into()],
    };
    assert!(matches!(
        verdict(&late_start, None, Some(&opening)),
        Verdict::Refused(_)
    ));
}

#[test]
fn the_move_count_players_opening_and_result_must_be_the_recorded_ones() {
    let mut plies = game(FOOLS_MATE, None, BlackWins, Checkmate, None);
    plies.plies = 6;
    assert!(
        refused(&plies).contains("6 plies recorded, 4"),
        "{}",
        refused(&plies)
    );
    let mut players = game(FOOLS_MATE, None, BlackWins, Checkmate, None);
    players.pgn = players.pgn.replace("\"bob\"", "\"eve\"");
    assert!(
        refused(&players).contains("names Black `eve`"),
        "{}",
        refused(&players)
    );
    let mut result = game(FOOLS_MATE, None, BlackWins, Checkmate, None);
    result.result = Draw;
    assert!(
        refused(&result).contains("its PGN says 0-1"),
        "{}",
        refused(&result)
    );
    let two = game(FOOLS_MATE, None, BlackWins, Checkmate, None);
    let mut twice = two.clone();
    twice.pgn = format!("{}\n{}", two.pgn, two.pgn);
    assert!(refused(&twice).contains("more than one game"));
    let opening = StoredOpening {
        fen: Board::startpos().fen(),
        moves: vec!["e2e4".into()],
    };
    let mate = game(FOOLS_MATE, None, BlackWins, Checkmate, None);
    assert!(
        matches!(verdict(&mate, None, Some(&opening)), Verdict::Refused(r) if r.contains("opening"))
    );
    let from_f3 = StoredOpening {
        moves: vec!["f2f3".into(), "e7e5".into()],
        ..opening
    };
    assert_eq!(verdict(&mate, None, Some(&from_f3)), Verdict::Shown);
}

#[test]
fn a_game_that_goes_on_after_its_end_is_refused() {
    let on = game(
        &format!("{REPETITION} 5. Nf3 Nf6"),
        None,
        Draw,
        Repetition,
        None,
    );
    assert!(refused(&on).contains("goes on after"), "{}", refused(&on));
}

#[test]
fn length_and_adjudications_follow_the_tournaments_rules() {
    let rules = StoredRules {
        max_plies: Some(4),
        resign: None,
        ..StoredRules::default()
    };
    let four = game("1. e4 e5 2. Nf3 Nc6", None, Draw, MaxLength, None);
    assert_eq!(verdict(&four, Some(&rules), None), Verdict::Shown);
    let six = game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6", None, Draw, MaxLength, None);
    assert!(
        matches!(verdict(&six, Some(&rules), None), Verdict::Refused(r) if r.contains("past the length limit"))
    );
    let two = game("1. e4 e5", None, Draw, MaxLength, None);
    assert!(matches!(
        verdict(&two, Some(&rules), None),
        Verdict::Refused(_)
    ));
    let resign = game("1. e4 e5", None, WhiteWins, AdjudicatedResign, None);
    assert!(
        matches!(verdict(&resign, Some(&rules), None), Verdict::Refused(r) if r.contains("no adjudication"))
    );
    let with_resign = StoredRules {
        resign: Some((3, 1000)),
        ..rules
    };
    assert_eq!(verdict(&resign, Some(&with_resign), None), Verdict::Claimed);
}

/// 10+0.1, the clock of the examples below.
fn ten_plus_tenth() -> Option<TimeControl> {
    Some("10+0.1".parse().unwrap())
}

/// `moves` (SAN) with each engine move's time in its comment, as the runner writes them.
fn timed(moves: &[(&str, &str)]) -> String {
    moves
        .iter()
        .enumerate()
        .map(|(i, (mv, time))| {
            let number = if i % 2 == 0 {
                format!("{}. ", i / 2 + 1)
            } else {
                String::new()
            };
            format!("{number}{mv} {{{time}}}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_claimed_fault_without_evidence_is_refused() {
    // The findings: "0-1, White crashed" with no move, and "1. d4, Black lost on time".
    let crashed = game("", None, BlackWins, Crash, Some(Color::White));
    assert!(
        refused(&crashed).contains("with no evidence"),
        "{}",
        refused(&crashed)
    );
    let flagged = game("1. d4", None, WhiteWins, TimeForfeit, Some(Color::Black));
    assert!(
        refused(&flagged).contains("with no evidence"),
        "{}",
        refused(&flagged)
    );
}

#[test]
fn a_tournament_from_before_the_evidence_counts_its_claims_as_it_did() {
    // An upgraded store's old tournament: its games were recorded with no evidence.
    let flagged = game("1. d4", None, WhiteWins, TimeForfeit, Some(Color::Black));
    let old = StoredRules::before_stored();
    assert_eq!(verdict(&flagged, Some(&old), None), Verdict::Claimed);
    let new = StoredRules::default();
    assert!(matches!(
        verdict(&flagged, Some(&new), None),
        Verdict::Refused(reason) if reason.contains("with no evidence")
    ));
}

#[test]
fn a_loss_on_time_counts_only_when_its_turn_outlasted_the_clock_its_moves_leave() {
    let d4 = timed(&[("d4", "0.250s")]);
    let flag = |turn_ms: u64, left: [Option<u64>; 2]| {
        let mut g = game("1. d4", None, WhiteWins, TimeForfeit, Some(Color::Black));
        g.pgn = g.pgn.replace("1. d4 1-0", &format!("{d4} 1-0"));
        g.evidence = Some(Evidence {
            left_ms: left,
            turn_ms,
            at_start: false,
            answer: None,
            stderr: Vec::new(),
        });
        timed_verdict(&g, Some(&StoredRules::default()), None, ten_plus_tenth())
    };
    // White spent 0.25 s of 10 and gained 0.1: 9.85 s left; Black has all of its 10 s.
    let true_clocks = [Some(9850), Some(10_000)];
    let margin = StoredRules::default().margin_ms;
    assert_eq!(flag(10_000 + margin + 40, true_clocks), Verdict::Claimed);
    let within = flag(2_000, true_clocks);
    assert!(
        matches!(&within, Verdict::Refused(r) if r.contains("within the clock")),
        "{within:?}"
    );
    let other_clocks = flag(12_000, [Some(9850), Some(3_000)]);
    assert!(
        matches!(&other_clocks, Verdict::Refused(r) if r.contains("its moves' times 10000 ms")),
        "{other_clocks:?}"
    );
}

#[test]
fn recorded_times_that_lose_on_time_before_the_end_refute_a_claim() {
    let moves = timed(&[("e4", "0.100s"), ("e5", "11.000s"), ("Nf3", "0.100s")]);
    let mut g = game(
        "1. e4 e5 2. Nf3",
        None,
        WhiteWins,
        Crash,
        Some(Color::Black),
    );
    g.pgn = g
        .pgn
        .replace("1. e4 e5 2. Nf3 1-0", &format!("{moves} 1-0"));
    let g = with_evidence(g);
    let verdict = timed_verdict(&g, Some(&StoredRules::default()), None, ten_plus_tenth());
    assert!(
        matches!(&verdict, Verdict::Refused(r) if r.contains("lose on time at ply 2")),
        "{verdict:?}"
    );
}

#[test]
fn an_illegal_answer_must_be_illegal_in_the_final_position() {
    let with_answer = |answer: &str| {
        let mut g = with_evidence(game(
            "1. e4",
            None,
            WhiteWins,
            IllegalMove,
            Some(Color::Black),
        ));
        if let Some(e) = g.evidence.as_mut() {
            e.answer = Some(answer.into());
        }
        verdict(&g, None, None)
    };
    assert_eq!(with_answer("e7e4"), Verdict::Claimed);
    assert_eq!(with_answer("0000"), Verdict::Claimed);
    assert!(matches!(with_answer("e7e5"), Verdict::Refused(r) if r.contains("no illegal move")));
    let none = with_evidence(game(
        "1. e4",
        None,
        WhiteWins,
        IllegalMove,
        Some(Color::Black),
    ));
    assert!(matches!(verdict(&none, None, None), Verdict::Refused(r) if r.contains("no answer")));
}

#[test]
fn evidence_past_the_runners_bounds_or_out_of_place_is_refused() {
    let mut long = with_evidence(game("1. e4 e5", None, BlackWins, Crash, Some(Color::White)));
    if let Some(e) = long.evidence.as_mut() {
        e.stderr = vec!["x".repeat(200); 40];
    }
    assert!(matches!(verdict(&long, None, None), Verdict::Refused(r) if r.contains("more stderr")));
    let mut late_start =
        with_evidence(game("1. e4 e5", None, BlackWins, Crash, Some(Color::White)));
    if let Some(e) = late_start.evidence.as_mut() {
        e.at_start = true;
    }
    assert!(
        matches!(verdict(&late_start, None, None), Verdict::Refused(r) if r.contains("at the start, after engine moves"))
    );
    let failed_start = with_evidence(game("", None, BlackWins, FailedStart, Some(Color::White)));
    assert!(
        matches!(verdict(&failed_start, None, None), Verdict::Refused(r) if r.contains("on a move, not at the start"))
    );
}

/// The length limit counts from the game's `FEN`, not from the move number it carries: the
/// kit's openings carry their real move numbers, and a 4-ply game from one at move 20 was
/// refused as going on past a 4-ply limit.
#[test]
fn the_length_limit_counts_from_the_games_start_position() {
    let rules = StoredRules {
        max_plies: Some(4),
        ..StoredRules::default()
    };
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 20";
    let four = game("20. Bb5 a6 21. Ba4 Nf6", Some(fen), Draw, MaxLength, None);
    assert_eq!(verdict(&four, Some(&rules), None), Verdict::Shown);
    let two = game("20. Bb5 a6", Some(fen), Draw, MaxLength, None);
    assert!(
        matches!(verdict(&two, Some(&rules), None), Verdict::Refused(r) if r.contains("before the length limit"))
    );
}
