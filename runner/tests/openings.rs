//! Opening suites: the kit's default suite, EPD and PGN files, seeded shuffles.

use runner::{Opening, load_openings, parse_epd, parse_pgn_openings, shuffle};

#[test]
fn the_default_suite_has_enough_legal_distinct_positions() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/default.epd");
    let openings = load_openings(&path, None).unwrap();
    assert!(openings.len() >= 50, "{} openings", openings.len());
    let mut fens: Vec<String> = openings.iter().map(|o| o.board().fen()).collect();
    for o in &openings {
        assert!(
            o.board().outcome().is_none(),
            "a finished position: {}",
            o.board().fen()
        );
        assert!(o.board().legal_move_count() > 0);
    }
    fens.sort();
    fens.dedup();
    assert_eq!(fens.len(), openings.len(), "no duplicates");
}

#[test]
fn fen_lines_keep_their_move_counters_and_epd_lines_get_defaults() {
    let ops = parse_epd(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2\n\
         4k3/8/8/8/8/8/4P3/4K3 w - - id \"pawn\";\n",
        "mixed.epd",
    )
    .unwrap();
    assert_eq!(
        ops[1].start.fen(),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
    assert_eq!(ops[2].start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    let err = parse_epd("\n\n8/8/8 w - -\n", "bad.epd")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("bad.epd:3:"), "{err}");
}

#[test]
fn the_default_suite_carries_each_openings_move_numbers() {
    // C# bots that play a book move at `PlyCount == 0` must not see 0 after an opening.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../openings/default.epd");
    let openings = load_openings(&path, None).unwrap();
    for o in &openings {
        let plies = o.board().ply_count();
        assert!(
            (8..=10).contains(&plies),
            "{plies} plies: {}",
            o.board().fen()
        );
    }
    // 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6: White's 5th move, 2 plies since a pawn moved.
    assert_eq!(
        openings[0].board().fen(),
        "r1bqkb1r/1ppp1ppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 2 5"
    );
}

#[test]
fn epd_move_counters_are_read_from_hmvc_and_fmvn() {
    let ops = parse_epd(
        "4k3/8/8/8/8/8/4P3/4K3 b - - fmvn 12; hmvc 7;\n\
         4k3/8/8/8/8/8/4P3/4K3 w - - id \"a; fmvn 9;\"; fmvn 3;\n\
         4k3/8/8/8/8/8/4P3/4K3 w - - id \"only an id\";\n",
        "counters.epd",
    )
    .unwrap();
    assert_eq!(ops[0].start.fen(), "4k3/8/8/8/8/8/4P3/4K3 b - - 7 12");
    assert_eq!(ops[0].start.ply_count(), 23);
    assert_eq!(ops[1].start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 3");
    assert_eq!(ops[2].start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    for bad in ["fmvn x;", "hmvc 1 2;", "fmvn;"] {
        let err = parse_epd(&format!("4k3/8/8/8/8/8/4P3/4K3 w - - {bad}\n"), "bad.epd")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("bad.epd:1: `"), "{err}");
        assert!(err.contains("takes one number"), "{err}");
    }
}

#[test]
fn pgn_openings_keep_their_setup_position_and_the_first_plies() {
    let text = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 2. Kd2 *\n";
    let ops = parse_pgn_openings(text, Some(2), "x.pgn").unwrap();
    assert_eq!(ops[0].start.fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(ops[0].moves.len(), 2);
    assert_eq!(ops[0].board().fen(), "8/3k4/8/8/4P3/8/8/4K3 w - - 1 2");
    assert!(parse_pgn_openings("", None, "empty.pgn").is_err());
}

#[test]
fn shuffling_is_a_seeded_permutation() {
    let original: Vec<usize> = (0..58).collect();
    let mut a = original.clone();
    let mut b = original.clone();
    let mut c = original.clone();
    shuffle(&mut a, 1);
    shuffle(&mut b, 1);
    shuffle(&mut c, 2);
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_ne!(a, original);
    a.sort();
    assert_eq!(a, original);
    let _ = Opening::startpos();
}
