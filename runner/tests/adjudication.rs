//! Rulings beyond the rules of play: who can still mate when a flag falls, score
//! adjudication, and a late answer losing on time.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use common::{faulty, instant};
use framework::chess::{Board, Color};
use framework::notation::pgn::GameResult;
use runner::{
    AdjudicationRules, Adjudicator, DrawRule, Engine, GameSettings, Opening, Player, Ruling, Score,
    Termination, can_possibly_mate, play_game,
};

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

#[test]
fn lone_kings_and_single_minors_cannot_mate_a_lone_king() {
    let cases = [
        // (position, white can mate, black can mate)
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", false, false),
        ("4k3/8/8/8/8/8/8/3BK3 w - - 0 1", false, false),
        ("4k3/8/8/8/8/8/8/3NK3 w - - 0 1", false, false),
        // Two knights can mate with help.
        ("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1", true, false),
        // A knight against a knight: a helpmate exists (the defender blocks its own king).
        ("4k1n1/8/8/8/8/8/8/3NK3 w - - 0 1", true, true),
        // Bishops all on light squares: no checkmate is possible for anyone.
        ("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false),
        // Bishops on both colours: mate is possible.
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true),
        // Any pawn may promote.
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", true, false),
        // A rook mates on its own.
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", true, false),
    ];
    for (fen, white, black) in cases {
        let b = board(fen);
        assert_eq!(can_possibly_mate(&b, Color::White), white, "White in {fen}");
        assert_eq!(can_possibly_mate(&b, Color::Black), black, "Black in {fen}");
    }
}

#[test]
fn draw_adjudication_needs_both_sides_quiet_for_the_whole_streak() {
    let rules = AdjudicationRules {
        draw: Some(DrawRule {
            move_number: 10,
            move_count: 2,
            score_cp: 20,
        }),
        ..AdjudicationRules::default()
    };
    let mut adj = Adjudicator::new(rules);
    // Too early: move 5.
    for _ in 0..3 {
        assert_eq!(adj.record(Color::White, Some(Score::Cp(5)), 5), None);
        assert_eq!(adj.record(Color::Black, Some(Score::Cp(-5)), 5), None);
    }
    let mut adj = Adjudicator::new(rules);
    assert_eq!(adj.record(Color::White, Some(Score::Cp(5)), 12), None);
    assert_eq!(
        adj.record(Color::Black, Some(Score::Cp(-50)), 12),
        None,
        "a loud score breaks the streak"
    );
    assert_eq!(adj.record(Color::White, Some(Score::Cp(0)), 13), None);
    assert_eq!(adj.record(Color::Black, Some(Score::Cp(0)), 13), None);
    assert_eq!(adj.record(Color::White, Some(Score::Cp(10)), 14), None);
    assert_eq!(
        adj.record(Color::Black, Some(Score::Cp(-10)), 14),
        Some(Ruling::Draw)
    );
    // A mate score is never quiet.
    let mut adj = Adjudicator::new(rules);
    for n in 10..20 {
        assert_eq!(adj.record(Color::White, Some(Score::Mate(3)), n), None);
        assert_eq!(adj.record(Color::Black, Some(Score::Cp(0)), n), None);
    }
}

#[test]
fn score_adjudication_ends_a_game_between_engines() {
    // The instant engine always reports `score cp 0`: a draw as soon as the rule allows.
    let a = instant("a", runner::TimeControl::nodes(1));
    let b = instant("b", runner::TimeControl::nodes(1));
    let settings = GameSettings {
        adjudication: AdjudicationRules {
            draw: Some(DrawRule {
                move_number: 3,
                move_count: 2,
                score_cp: 10,
            }),
            ..AdjudicationRules::default()
        },
        ..GameSettings::default()
    };
    let (mut w, mut bl) = (None::<Engine>, None::<Engine>);
    let record = play_game(
        [&a, &b],
        [&mut w, &mut bl],
        &Opening::startpos(),
        &settings,
        &AtomicBool::new(false),
    );
    assert_eq!(
        record.termination,
        Termination::AdjudicatedDraw,
        "{}",
        record.detail
    );
    assert_eq!(record.result, GameResult::Draw);
    // White's third move completes two quiet moves each at move 3, the first allowed.
    assert_eq!(record.moves.len(), 5);
}

#[test]
fn an_answer_after_the_clock_and_margin_is_a_time_forfeit_without_restart() {
    let late = Player::new(faulty("late", "late", 2), "0.5+0".parse().unwrap());
    let good = instant("good", "10+0.1".parse().unwrap());
    let settings = GameSettings {
        margin: Duration::from_millis(50),
        ..GameSettings::default()
    };
    let (mut w, mut b) = (None::<Engine>, None::<Engine>);
    let record = play_game(
        [&good, &late],
        [&mut w, &mut b],
        &Opening::startpos(),
        &settings,
        &AtomicBool::new(false),
    );
    assert_eq!(
        record.termination,
        Termination::TimeForfeit,
        "{}",
        record.detail
    );
    assert_eq!(record.result, GameResult::WhiteWins);
    assert!(record.detail.contains("late"), "{}", record.detail);
    assert!(
        b.is_some(),
        "an engine that answered, however late, is kept"
    );
}

/// `--maxmoves` and the draw rule's `movenumber` count the game from its opening
/// position, whatever move number the opening's FEN carries: an opening at move 20 drew
/// at once when the board's own ply count was read.
#[test]
fn the_length_limit_counts_from_the_opening_not_its_move_number() {
    let opening = Opening::from_fen(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 20;",
    )
    .unwrap();
    assert_eq!(opening.start.ply_count(), 38);
    let a = instant("a", "10+0.1".parse().unwrap());
    let b = instant("b", "10+0.1".parse().unwrap());
    let settings = GameSettings {
        adjudication: AdjudicationRules {
            max_plies: Some(4),
            ..AdjudicationRules::default()
        },
        ..GameSettings::default()
    };
    let (mut w, mut bl) = (None::<Engine>, None::<Engine>);
    let record = play_game(
        [&a, &b],
        [&mut w, &mut bl],
        &opening,
        &settings,
        &AtomicBool::new(false),
    );
    assert_eq!(
        record.termination,
        Termination::MaxLength,
        "{}",
        record.detail
    );
    assert_eq!(record.moves.len(), 4, "{}", record.detail);
    assert_eq!(record.detail, "draw by reaching 4 plies");
}
