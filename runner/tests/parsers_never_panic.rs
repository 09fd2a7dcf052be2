//! Property tests: the runner's parsers of untrusted text (time controls from the command
//! line, opening files, engine output lines) answer every input with a value or an error,
//! never a panic; what they keep of engine text is one printable line.

// Tests read as scripts of one scenario each; length is not a smell here.
#![allow(clippy::too_many_lines)]

use std::time::Duration;

use framework::chess::Board;
use proptest::prelude::*;
use runner::parse_bestmove;
use runner::{
    Clock, PlayedMove, PvCheck, SearchInfo, SearchStats, TimeControl, parse_epd, parse_pgn_openings,
};
use runner::{is_one_line, one_line};

/// Numbers as a command line might carry them: huge, negative, exponents, NaN, inf, junk.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        "-?[0-9]{0,25}(\\.[0-9]{0,12})?([eE][+-]?[0-9]{1,4})?",
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("-inf".to_string()),
        Just("18446744073709551615".to_string()),
        Just("99999999999999999999".to_string()),
        Just("4294967296".to_string()),
        Just("1e-400".to_string()),
        ".{0,6}",
    ]
}

/// Time-control-shaped text: `[N/]BASE[+INC]`, `X/move`, and random mixtures.
fn time_control_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (
            proptest::option::of(number()),
            number(),
            proptest::option::of(number())
        )
            .prop_map(|(moves, base, inc)| {
                let mut s = String::new();
                if let Some(m) = moves {
                    s.push_str(&m);
                    s.push('/');
                }
                s.push_str(&base);
                if let Some(i) = inc {
                    s.push('+');
                    s.push_str(&i);
                }
                s
            }),
        number().prop_map(|n| format!("{n}/move")),
        "[0-9+/.e\\-a-z ]{0,30}",
        any::<String>(),
    ]
}

/// A word an engine might put on an `info` line.
fn info_word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "info",
            "depth",
            "seldepth",
            "score",
            "cp",
            "mate",
            "lowerbound",
            "nodes",
            "nps",
            "pv",
            "string",
            "multipv",
            "time",
            "hashfull",
            "currmove",
            "e2e4",
            "a7a8q",
            "0000",
        ])
        .prop_map(str::to_string),
        number(),
        "\\PC{0,8}",
        any::<String>(),
    ]
}

fn info_line() -> impl Strategy<Value = String> {
    prop::collection::vec(info_word(), 0..24).prop_map(|words| {
        let mut line = String::from("info ");
        line.push_str(&words.join(" "));
        line
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn time_controls_parse_or_fail_without_panicking(text in time_control_text()) {
        match text.parse::<TimeControl>() {
            Ok(tc) => {
                // A time control that parses can be played: the clock arithmetic holds.
                let mut clock = Clock::new(tc);
                let deadline = clock.deadline(Duration::from_millis(100), Duration::from_secs(60));
                prop_assert!(deadline >= Duration::from_millis(100) || tc.is_untimed());
                for _ in 0..3 {
                    clock.spend(Duration::from_millis(10), Duration::from_millis(100));
                    let _ = clock.moves_to_go();
                }
                let _ = tc.to_string();
            }
            Err(err) => {
                let message = err.to_string();
                prop_assert!(message.starts_with("invalid time control"));
                prop_assert!(!message.contains('\n'));
            }
        }
    }

    #[test]
    fn info_lines_never_panic_and_keep_bounded_moves(line in info_line()) {
        let mut info = SearchInfo::default();
        info.update(&line);
        info.update(&line);
        prop_assert!(info.pv.len() <= runner::MAX_PV_MOVES);
        for word in &info.pv {
            prop_assert!(is_one_line(word) && word.chars().count() <= 32);
        }
        if let Some(score) = info.score {
            let _ = score.to_string();
        }
        // What the match's search statistics make of the same line: no panic, no overflow,
        // and a PV that is not the move played is never taken for it.
        let board = Board::startpos();
        let e4 = board.parse_uci("e2e4").unwrap();
        let check = PvCheck::of(&info.pv, "e2e4", e4, &board);
        let starts = info.pv.first().is_some_and(|w| board.parse_uci(w) == Ok(e4));
        prop_assert_eq!(check == PvCheck::Starts, starts);
        let played = PlayedMove { mv: e4, info, pv: check, elapsed: Duration::ZERO };
        let mut stats = SearchStats::default();
        for _ in 0..3 {
            stats.add(&played);
        }
        let _ = (stats.average_depth(), stats.nodes_per_second(), stats.time_per_move());
    }

    #[test]
    fn any_line_is_parsed_as_bestmove_or_not_without_panicking(line in any::<String>()) {
        let _ = parse_bestmove(&line);
        SearchInfo::default().update(&line);
        if let Some(mv) = parse_bestmove(&format!("bestmove {line}")) {
            prop_assert!(is_one_line(&mv) && mv.chars().count() <= 32);
            let _ = Board::startpos().parse_uci(&mv);
        }
    }

    #[test]
    fn one_line_is_always_one_printable_capped_line(text in any::<String>(), max in 0usize..64) {
        let clean = one_line(&text, max);
        prop_assert!(clean.chars().count() <= max);
        prop_assert!(is_one_line(&clean), "{:?}", clean);
    }

    #[test]
    fn epd_files_parse_or_fail_without_panicking(
        lines in prop::collection::vec(
            prop_oneof![
                Just("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -".to_string()),
                Just("4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id \"x\";".to_string()),
                "[pnbrqkPNBRQK1-8/]{0,40} [wb] [KQkq-]{1,4} [a-h1-8-]{1,2}( [0-9]{1,20}){0,2}",
                "\\PC{0,60}",
                any::<String>(),
            ],
            0..8,
        )
    ) {
        let _ = parse_epd(&lines.join("\n"), "fuzz.epd");
    }

    #[test]
    fn pgn_openings_parse_or_fail_without_panicking(
        text in prop_oneof![
            "(\\[[A-Za-z]{1,8} \"[^\"]{0,10}\"\\]\n){0,3}\n([0-9]{1,3}\\.{1,3} )?([NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](=[NBRQ])?[+#]? ){0,10}(1-0|0-1|1/2-1/2|\\*)?",
            "[\\[\\]{}();\"0-9a-hx+#=. \nNBRQKO-]{0,200}",
            any::<String>(),
        ],
        plies in proptest::option::of(0usize..50),
    ) {
        let _ = parse_pgn_openings(&text, plies, "fuzz.pgn");
    }
}

#[test]
fn the_reported_huge_time_control_is_a_clear_error() {
    for text in [
        "99999999999999999999+0",
        "1+99999999999999999999",
        "-5+0",
        "NaN+0",
        "inf+0",
        "99999999999/10",
        "0/10",
        "1e309/move",
        "0/move",
    ] {
        let err = text.parse::<TimeControl>().unwrap_err().to_string();
        assert!(err.contains(text), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let err = "99999999999999999999+0".parse::<TimeControl>().unwrap_err();
    assert!(err.reason.contains("maximum of 1000000 seconds"), "{err}");
    assert_eq!(
        "0.1/move".parse::<TimeControl>(),
        Ok(TimeControl::movetime(Duration::from_millis(100)))
    );
}
