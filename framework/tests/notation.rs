//! SAN and PGN: writing, reading, tolerance of real-world files, and round trips.

// Test scenarios read top to bottom as one story; the length limit is for library code.
#![allow(clippy::too_many_lines)]

use framework::chess::{Board, Color, Move, Outcome};
use framework::notation::pgn::{
    GameResult, PgnGame, PgnReader, read_games, write_game, write_games,
};
use framework::notation::san::{SanError, parse_san, to_san};
use proptest::prelude::*;

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

fn uci(board: &Board, mv: &str) -> Move {
    board
        .parse_uci(mv)
        .unwrap_or_else(|e| panic!("{mv} in {}: {e}", board.fen()))
}

/// Each case: a position, and UCI moves with the SAN python-chess gives them.
const SAN_CASES: &[(&str, &[(&str, &str)])] = &[
    // Disambiguation by file.
    (
        "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1",
        &[("b1d2", "Nbd2"), ("f1d2", "Nfd2"), ("b1c3", "Nc3")],
    ),
    // Disambiguation by rank; check.
    (
        "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1",
        &[("a1a3", "R1a3"), ("a5a3", "R5a3"), ("a5a8", "Ra8+")],
    ),
    // Three queens: file, rank, or the whole square.
    (
        "8/8/8/7k/8/Q7/8/Q1Q3K1 w - - 0 1",
        &[
            ("a1b2", "Qa1b2"),
            ("c1b2", "Qcb2"),
            ("a3b2", "Q3b2"),
            ("a3a2", "Q3a2"),
            ("a1a2", "Q1a2"),
            ("c1c2", "Qc2"),
        ],
    ),
    // Castling both sides, both colours.
    (
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &[("e1g1", "O-O"), ("e1c1", "O-O-O"), ("a1a8", "Rxa8+")],
    ),
    (
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        &[("e8g8", "O-O"), ("e8c8", "O-O-O"), ("h8h1", "Rxh1+")],
    ),
    // Promotion and underpromotion, with mate.
    (
        "8/P7/8/8/8/8/8/k1K5 w - - 0 1",
        &[
            ("a7a8q", "a8=Q#"),
            ("a7a8n", "a8=N"),
            ("a7a8r", "a8=R#"),
            ("a7a8b", "a8=B"),
        ],
    ),
    // Capture-promotion.
    (
        "1r5k/P7/8/8/8/8/8/K7 w - - 0 1",
        &[("a7b8q", "axb8=Q+"), ("a7b8n", "axb8=N"), ("a7a8r", "a8=R")],
    ),
    (
        "7k/8/8/8/8/8/1p6/R3K3 b Q - 0 1",
        &[
            ("b2a1q", "bxa1=Q+"),
            ("b2b1q", "b1=Q+"),
            ("b2a1n", "bxa1=N"),
            ("b2b1n", "b1=N"),
        ],
    ),
    // En passant.
    (
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        &[("e5d6", "exd6"), ("e5e6", "e6")],
    ),
    // Mate and check from the same square.
    (
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        &[("h5f7", "Qxf7#"), ("c4f7", "Bxf7+")],
    ),
    (
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        &[("a1a8", "Ra8#"), ("a1a7", "Ra7")],
    ),
    // King captures; pawn captures name their file.
    (
        "4k3/8/8/8/8/8/4p3/3QK3 w - - 0 1",
        &[("e1e2", "Kxe2"), ("d1e2", "Qxe2+")],
    ),
    (
        "4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1",
        &[("c4d5", "cxd5"), ("e4d5", "exd5"), ("e4e5", "e5")],
    ),
];

#[test]
fn san_out_for_every_kind_of_move() {
    for &(fen, moves) in SAN_CASES {
        let b = board(fen);
        for &(mv, san) in moves {
            assert_eq!(to_san(&b, uci(&b, mv)), san, "{mv} in {fen}");
        }
    }
}

#[test]
fn san_in_for_every_kind_of_move() {
    for &(fen, moves) in SAN_CASES {
        let b = board(fen);
        for &(mv, san) in moves {
            assert_eq!(parse_san(&b, san), Ok(uci(&b, mv)), "{san} in {fen}");
        }
    }
}

#[test]
fn san_in_tolerates_real_world_spellings() {
    let start = Board::startpos();
    let nf3 = uci(&start, "g1f3");
    for text in [
        "Nf3", "Nf3!", "Nf3?", "Nf3!?", "Nf3?!", "Nf3!!", "Nf3+", "Ng1f3", "Ngf3", "N1f3", " Nf3 ",
    ] {
        assert_eq!(parse_san(&start, text), Ok(nf3), "{text}");
    }

    let castles = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(parse_san(&castles, "0-0"), Ok(uci(&castles, "e1g1")));
    assert_eq!(parse_san(&castles, "0-0-0+"), Ok(uci(&castles, "e1c1")));
    assert_eq!(parse_san(&castles, "O-O-O"), Ok(uci(&castles, "e1c1")));
    // Some old sources write castling as the king's move.
    assert_eq!(parse_san(&castles, "Kg1"), Ok(uci(&castles, "e1g1")));

    let promo = board("8/P7/8/8/8/8/8/k1K5 w - - 0 1");
    for (text, mv) in [
        ("a8Q", "a7a8q"),
        ("a8=q#", "a7a8q"),
        ("a8N", "a7a8n"),
        ("a8(R)", "a7a8r"),
        ("a8/B", "a7a8b"),
    ] {
        assert_eq!(parse_san(&promo, text), Ok(uci(&promo, mv)), "{text}");
    }

    let pawns = board("4k3/8/8/3p4/2P1P3/8/8/4K3 w - - 0 1");
    assert_eq!(
        parse_san(&pawns, "ed5"),
        Ok(uci(&pawns, "e4d5")),
        "pawn capture without x"
    );
    assert_eq!(
        parse_san(&pawns, "e4:d5"),
        Err(SanError::Malformed {
            san: "e4:d5".into(),
            reason: "a pawn move names only its origin file (this looks like UCI, not SAN)".into()
        })
    );
    assert_eq!(parse_san(&pawns, "c:d5"), Ok(uci(&pawns, "c4d5")));

    let ep = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    for text in ["exd6", "exd6e.p.", "exd6ep", "ed6", "Pexd6"] {
        assert_eq!(parse_san(&ep, text), Ok(uci(&ep, "e5d6")), "{text}");
    }

    // A missing `x` is forgiven when the move is otherwise unique.
    let capture = board("4k3/8/8/8/8/8/4p3/3QK3 w - - 0 1");
    assert_eq!(parse_san(&capture, "Qe2"), Ok(uci(&capture, "d1e2")));
}

#[test]
fn ambiguous_san_lists_the_candidates() {
    let knights = board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert_eq!(
        parse_san(&knights, "Nd2"),
        Err(SanError::Ambiguous {
            san: "Nd2".into(),
            candidates: vec!["Nbd2".into(), "Nfd2".into()]
        })
    );
    let queens = board("8/8/8/7k/8/Q7/8/Q1Q3K1 w - - 0 1");
    let candidates = |text: &str| match parse_san(&queens, text) {
        Err(SanError::Ambiguous { candidates, .. }) => candidates,
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(candidates("Qb2"), ["Qa1b2", "Qcb2", "Q3b2"]);
    assert_eq!(candidates("Qab2"), ["Qa1b2", "Q3b2"]);
    assert_eq!(candidates("Q1b2"), ["Qa1b2", "Qcb2"]);
    let message = parse_san(&queens, "Qb2").unwrap_err().to_string();
    assert_eq!(
        message,
        "ambiguous SAN `Qb2`: it could be any of Qa1b2, Qcb2, Q3b2"
    );
}

fn illegal_reason(b: &Board, text: &str) -> String {
    match parse_san(b, text) {
        Err(SanError::Illegal { san, fen, reason }) => {
            assert_eq!((san.as_str(), fen), (text, b.fen()));
            reason
        }
        other => panic!("{text} in {}: expected Illegal, got {other:?}", b.fen()),
    }
}

#[test]
fn illegal_san_says_why() {
    let start = Board::startpos();
    assert_eq!(
        illegal_reason(&start, "Ke2"),
        "no white king can move to e2"
    );
    assert_eq!(illegal_reason(&start, "e5"), "no white pawn can move to e5");
    assert_eq!(
        illegal_reason(&start, "Nxf3"),
        "it claims a capture, but f3 is empty"
    );
    assert_eq!(
        illegal_reason(&start, "Nbf3"),
        "no white knight on b can move to f3"
    );
    assert_eq!(
        illegal_reason(&start, "O-O"),
        "white cannot castle kingside here"
    );
    assert_eq!(
        illegal_reason(&start, "O-O-O"),
        "white cannot castle queenside here"
    );

    // A pawn without a file is a push: `d5` must not silently mean `exd5`.
    let pawns = board("4k3/8/8/3p4/3PP3/8/8/4K3 w - - 0 1");
    assert_eq!(illegal_reason(&pawns, "d5"), "no white pawn can move to d5");
    assert_eq!(parse_san(&pawns, "exd5"), Ok(uci(&pawns, "e4d5")));

    let promo = board("8/P7/8/8/8/8/8/k1K5 w - - 0 1");
    assert_eq!(
        illegal_reason(&promo, "a8"),
        "a pawn reaching a8 must promote: name the piece, as in `a8=Q`"
    );

    // Pinned piece, and a side in check.
    let pinned = board("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1");
    assert_eq!(
        illegal_reason(&pinned, "Nc3"),
        "no white knight can move to c3"
    );
    let check = board("4k3/8/8/8/8/8/3N4/r3K3 w - - 0 1");
    assert_eq!(
        illegal_reason(&check, "Nf3"),
        "no white knight can move to f3 (white is in check)"
    );

    let black = board("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let err = parse_san(&black, "Kd1").unwrap_err().to_string();
    assert_eq!(
        err,
        "illegal SAN `Kd1` in position 4k3/8/8/8/8/8/8/4K3 b - - 0 1: no black king can move to d1"
    );
}

#[test]
fn malformed_san_is_rejected_with_a_reason() {
    let start = Board::startpos();
    for (text, reason) in [
        ("", "no move in it"),
        ("+", "no move in it"),
        ("Zz9", "`z9` is not a square"),
        ("e9", "`e9` is not a square"),
        ("N", "no destination square"),
        (
            "e2e4",
            "a pawn move names only its origin file (this looks like UCI, not SAN)",
        ),
        ("Ng1-f3", "`g1-` is neither a file, a rank nor a square"),
        ("nf3", "`n` is neither a file, a rank nor a square"),
        ("Nf3=Q", "only pawns promote"),
        (
            "e8=K",
            "a pawn can only promote to a queen, rook, bishop or knight",
        ),
        ("--", "null moves are not supported"),
        ("Ñf3", "unexpected non-ASCII character"),
    ] {
        match parse_san(&start, text) {
            Err(SanError::Malformed { san, reason: got }) => {
                assert_eq!((san.as_str(), got.as_str()), (text, reason), "{text}");
            }
            other => panic!("{text}: expected Malformed, got {other:?}"),
        }
    }
    assert_eq!(
        parse_san(&start, "e9").unwrap_err().to_string(),
        "malformed SAN `e9`: `e9` is not a square"
    );
}

// ---------------------------------------------------------------------------------------------
// PGN

const FAMOUS: &str = include_str!("data/pgn/famous.pgn");

#[test]
fn real_world_file_loads_around_a_broken_game() {
    let read = read_games(FAMOUS);
    assert_eq!(read.games.len(), 5, "errors: {:?}", read.errors);
    assert_eq!(read.errors.len(), 1);

    let err = &read.errors[0];
    assert_eq!(err.game_number, 3);
    assert_eq!(err.ply, Some(15));
    assert_eq!(err.move_text.as_deref(), Some("8. Rxe7"));
    assert_eq!(err.line, 42);
    assert_eq!(
        err.to_string(),
        "game 3, line 42, move 8. Rxe7: illegal SAN `Rxe7` in position \
         r1bqk2r/ppppbppp/3n4/4n3/8/8/PPPP1PPP/RNBQRBK1 w kq - 0 8: no white rook can move to e7"
    );

    let opera = &read.games[0];
    assert_eq!(opera.tag("White"), Some("Paul Morphy"));
    assert_eq!(opera.tag("ECO"), Some("C41"));
    let names: Vec<&str> = opera.tags.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "ECO"
        ]
    );
    assert_eq!(opera.moves.len(), 33);
    assert_eq!(opera.result, GameResult::WhiteWins);
    assert_eq!(opera.intro.as_deref(), Some("The Opera Game."));
    assert_eq!(
        opera.comments[32].as_deref(),
        Some("A queen sacrifice and mate with the last two pieces.")
    );
    assert_eq!(
        opera.comments.iter().filter(|c| c.is_some()).count(),
        1,
        "variations' contents are skipped"
    );
    assert!(opera.final_board().is_checkmate());
    assert_eq!(
        opera.san_moves()[17],
        "b5",
        "the main line continues after the variation"
    );

    let immortal = &read.games[1];
    assert_eq!(immortal.tag("Date"), Some("1851.06.21"));
    assert_eq!(immortal.moves.len(), 45);
    assert_eq!(
        immortal.comments[35].as_deref(),
        Some("the Immortal Game's famous offers")
    );
    assert_eq!(
        immortal.final_board().outcome(),
        Some(Outcome::Checkmate {
            winner: Color::White
        })
    );

    let evergreen = &read.games[2];
    assert_eq!(evergreen.tag("Black"), Some("Jean Dufresne"));
    assert_eq!(evergreen.moves.len(), 47);
    assert_eq!(
        evergreen.result,
        GameResult::WhiteWins,
        "no result token: the Result tag decides"
    );
    assert!(evergreen.final_board().is_checkmate());

    let study = &read.games[3];
    assert_eq!(study.start.fen(), "7K/8/k1P5/7p/8/8/8/8 w - - 0 1");
    assert_eq!(
        study.final_board().fen(),
        "2Q5/8/1k1K4/8/8/8/8/7q b - - 0 6"
    );
    assert_eq!(study.result, GameResult::Draw);
    assert_eq!(
        study.comments[10].as_deref(),
        Some("Both sides queen: a draw.")
    );

    let fools = &read.games[4];
    assert_eq!(
        fools.tag("Event"),
        Some("?"),
        "a game without tags gets the roster's unknowns"
    );
    assert_eq!(fools.san_moves(), ["f3", "e5", "g4", "Qh4#"]);
    assert_eq!(fools.comments[2].as_deref(), Some("[%clk 0:04:58]"));
    assert_eq!(fools.result, GameResult::BlackWins);
}

#[test]
fn streaming_reader_matches_read_games() {
    let streamed: Vec<_> = PgnReader::new(FAMOUS).collect();
    assert_eq!(streamed.len(), 6);
    assert_eq!(streamed.iter().filter(|g| g.is_err()).count(), 1);
    assert!(streamed[2].is_err());
    let read = read_games(FAMOUS);
    let ok: Vec<_> = streamed.into_iter().filter_map(Result::ok).collect();
    for (a, b) in ok.iter().zip(&read.games) {
        assert_eq!((&a.moves, &a.tags), (&b.moves, &b.tags));
    }
}

#[test]
fn written_real_games_read_back_identically() {
    let read = read_games(FAMOUS);
    let text = write_games(&read.games);
    let again = read_games(&text);
    assert!(again.errors.is_empty(), "{:?}", again.errors);
    assert_eq!(again.games.len(), read.games.len());
    assert_eq!(again.games, read.games);
    for line in text.lines() {
        assert!(line.len() < 80, "line too long: {line}");
        assert!(
            !line.ends_with('.'),
            "move number split from its move: {line}"
        );
    }
    // Writing is a fixed point once the text is canonical.
    assert_eq!(write_games(&again.games), text);
}

#[test]
fn writer_output_is_standard_pgn() {
    let read = read_games(FAMOUS);
    let opera = write_game(&read.games[0]);
    let expected = "\
[Event \"Paris\"]
[Site \"Paris FRA\"]
[Date \"1858.??.??\"]
[Round \"?\"]
[White \"Paul Morphy\"]
[Black \"Duke Karl / Count Isouard\"]
[Result \"1-0\"]
[ECO \"C41\"]

{The Opera Game.} 1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4
Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8
13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# {A queen
sacrifice and mate with the last two pieces.} 1-0
";
    assert_eq!(opera, expected);

    // Non-standard start: SetUp and FEN after the roster; Black to move numbers as `1...`.
    let study = write_game(&read.games[3]);
    assert!(study.contains(
        "[Result \"1/2-1/2\"]\n[SetUp \"1\"]\n[FEN \"7K/8/k1P5/7p/8/8/8/8 w - - 0 1\"]\n\n1. Kg7"
    ));
    let mut black_first = PgnGame::from_position(board("4k3/8/8/8/8/8/8/4K2R b K - 3 40"));
    let mv = parse_san(&black_first.start, "Kd7").unwrap();
    black_first.push(mv, None);
    assert!(write_game(&black_first).ends_with("\n\n40... Kd7 *\n"));

    // Tag values are escaped; a `}` cannot appear inside a brace comment.
    let mut game = PgnGame::new();
    game.set_tag("Event", r#"The "Big" \ one"#);
    game.set_tag("Bad name]", "x");
    let mv = parse_san(&game.start, "e4").unwrap();
    game.push(mv, Some("tricky } comment".into()));
    game.result = GameResult::Draw;
    let text = write_game(&game);
    assert!(
        text.starts_with("[Event \"The \\\"Big\\\" \\\\ one\"]\n"),
        "{text}"
    );
    assert!(
        text.ends_with("\n\n1. e4 {tricky ) comment} 1/2-1/2\n"),
        "{text}"
    );
    assert!(text.contains("\n[Bad_name_ \"x\"]\n"), "{text}");
    let back = &read_games(&text).games[0];
    assert_eq!(back.tag("Event"), Some(r#"The "Big" \ one"#));
    assert_eq!(back.result, GameResult::Draw);
}

#[test]
fn writer_wraps_long_comments_and_keeps_lines_short() {
    let mut game = PgnGame::new();
    let mut b = game.start.clone();
    for (i, san) in ["d4", "d5", "c4", "e6", "Nc3", "Nf6", "Bg5", "Be7"]
        .iter()
        .enumerate()
    {
        let mv = parse_san(&b, san).unwrap();
        b.make_move(mv);
        let comment = (i % 3 == 0).then(|| "a fairly long comment about this move ".repeat(4));
        game.push(mv, comment);
    }
    let text = write_game(&game);
    let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
    assert!(movetext.len() > 4, "{text}");
    assert!(
        movetext.iter().all(|l| l.len() <= 79 && !l.ends_with(' ')),
        "{text}"
    );
    let back = &read_games(&text).games[0];
    assert_eq!(back.moves, game.moves);
    assert_eq!(
        back.comments[0].as_deref(),
        Some("a fairly long comment about this move ".repeat(4).trim())
    );
}

#[test]
fn reader_tolerates_messy_movetext() {
    let text = "\u{feff}[Event \"Messy\"]\r\n[Event \"Duplicate, ignored\"]\r\n\r\n\
                1.e4 e5 2 . Nf3 {first} {second} 2...Nc6 3. Bb5 a6!? $2 ; rest of line\r\n\
                ( 3... Nf6 ( 3... f5 ) 4. O-O ) 4. Ba4 $10 Nf6 5. 0-0 *";
    let read = read_games(text);
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    let game = &read.games[0];
    assert_eq!(game.tag("Event"), Some("Messy"));
    assert_eq!(
        game.san_moves(),
        ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]
    );
    assert_eq!(game.comments[2].as_deref(), Some("first second"));
    assert_eq!(game.comments[5].as_deref(), Some("rest of line"));
    assert_eq!(game.result, GameResult::Unknown);
}

#[test]
fn games_split_without_results_or_tags() {
    // No result tokens at all: each tag section starts a new game.
    let text = "[White \"A\"]\n1. e4 e5\n[White \"B\"]\n1. d4 d5\n[White \"C\"]\n";
    let read = read_games(text);
    assert!(read.errors.is_empty());
    let whites: Vec<_> = read.games.iter().map(|g| g.tag("White").unwrap()).collect();
    assert_eq!(whites, ["A", "B", "C"]);
    assert_eq!(read.games[2].moves.len(), 0);

    // No tags at all: each result token ends a game.
    let read = read_games("1. e4 1-0 1. d4 0-1 1. c4 1/2-1/2 1. Nf3 *");
    let results: Vec<_> = read.games.iter().map(|g| g.result).collect();
    assert_eq!(
        results,
        [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::Unknown
        ]
    );
    assert_eq!(
        read.games[1].tag("Result"),
        Some("0-1"),
        "the Result tag follows the token"
    );

    assert!(read_games("").games.is_empty());
    assert!(
        read_games("  \n; only a comment\n% and an escape\n")
            .games
            .is_empty()
    );
}

#[test]
fn broken_games_are_reported_and_skipped() {
    let text = "\
[Event \"one\"]

1. e4 e5 *

[Event \"two\"]
[FEN \"not a fen\"]

1. e4 *

[Event \"three\"]

1. e4 e5 2. Nf3 ) Nc6 *

[Event \"four\"]

1. d4 d5 2. c4 e9 *

[Event \"five\"]
[Variant \"Crazyhouse\"]

1. e4 *

[Event \"six\"]
[Bad tag]

1. e4 *

[Event \"seven\"]

1. e4 (1. d4 *

[Event \"eight\"]

1. d4 Nf6 2. Nf3 Nc6 3. Nc3 Nb8 4. Ne4 Nc6 5. Nd2 $1 *

[Event \"nine\"]

1. e4 {unterminated comment
";
    let read = read_games(text);
    let loaded: Vec<_> = read.games.iter().map(|g| g.tag("Event").unwrap()).collect();
    assert_eq!(loaded, ["one"]);
    let summary: Vec<(usize, usize, Option<&str>)> = read
        .errors
        .iter()
        .map(|e| (e.game_number, e.line, e.move_text.as_deref()))
        .collect();
    assert_eq!(
        summary,
        [
            (2, 5, None),
            (3, 12, None),
            (4, 16, Some("2... e9")),
            (5, 18, None),
            (6, 24, None),
            (7, 30, None),
            (8, 34, Some("5. Nd2")),
            (9, 38, None),
        ]
    );
    let messages: Vec<&str> = read.errors.iter().map(|e| e.message.as_str()).collect();
    assert!(
        messages[0].starts_with("bad FEN tag `not a fen`"),
        "{}",
        messages[0]
    );
    assert_eq!(messages[1], "`)` without a matching `(`");
    assert_eq!(messages[2], "malformed SAN `e9`: `e9` is not a square");
    assert_eq!(
        messages[3],
        "variant `Crazyhouse` is not supported (standard chess only)"
    );
    assert_eq!(
        messages[4],
        "malformed tag `Bad`: the value must be in double quotes"
    );
    assert_eq!(messages[5], "a variation `(` is never closed");
    assert_eq!(
        messages[6],
        "ambiguous SAN `Nd2`: it could be any of Nfd2, Ned2"
    );
    assert_eq!(messages[7], "a `{` comment is never closed");
}

// ---------------------------------------------------------------------------------------------
// Properties over random games

/// Plays up to `choices.len()` random legal moves from `fen`, stopping when the game is over.
fn random_game(fen: &str, choices: &[u16]) -> (Board, Vec<Move>) {
    let start = board(fen);
    let mut b = start.clone();
    let mut moves = Vec::new();
    for &c in choices {
        if b.outcome().is_some() {
            break;
        }
        let legal = b.legal_moves();
        let mv = legal[c as usize % legal.len()];
        b.make_move(mv);
        moves.push(mv);
    }
    (start, moves)
}

const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // Promotions, castling and under-promotion captures come up quickly from here.
    "r3k2r/1P4P1/8/3pP3/8/8/1p4p1/R3K2R w KQkq d6 0 30",
    // Many same-type pieces: disambiguation.
    "1k6/8/8/Q6Q/2N1N3/2R2R2/8/1K2Q3 w - - 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn san_round_trips_on_random_games(start in 0..STARTS.len(), choices in prop::collection::vec(any::<u16>(), 0..160)) {
        let (mut b, moves) = random_game(STARTS[start], &choices);
        for mv in moves {
            // Every legal move's SAN is distinct and reads back to the move.
            let legal = b.legal_moves();
            let sans: Vec<String> = legal.iter().map(|&m| to_san(&b, m)).collect();
            for (&m, san) in legal.iter().zip(&sans) {
                prop_assert_eq!(parse_san(&b, san), Ok(m), "{} in {}", san, b.fen());
            }
            let mut unique = sans.clone();
            unique.sort();
            unique.dedup();
            prop_assert_eq!(unique.len(), sans.len(), "duplicate SAN in {}", b.fen());
            b.make_move(mv);
        }
    }

    #[test]
    fn pgn_round_trips_random_games(
        start in 0..STARTS.len(),
        choices in prop::collection::vec(any::<u16>(), 0..200),
        commented in prop::collection::vec(any::<bool>(), 200),
    ) {
        let (start_board, moves) = random_game(STARTS[start], &choices);
        let mut game = PgnGame::from_position(start_board);
        for (i, &mv) in moves.iter().enumerate() {
            game.push(mv, commented[i].then(|| format!("comment {i}: {{nested}} words")));
        }
        game.result = match game.final_board().outcome() {
            Some(Outcome::Checkmate { winner }) => GameResult::win_for(winner),
            Some(Outcome::Draw(_)) => GameResult::Draw,
            None => GameResult::Unknown,
        };
        game.set_tag("White", "Random");
        let text = write_game(&game);
        for line in text.lines() {
            prop_assert!(line.len() < 80, "line too long: {}", line);
        }
        let read = read_games(&text);
        prop_assert!(read.errors.is_empty(), "{:?}\n{}", read.errors, text);
        prop_assert_eq!(read.games.len(), 1);
        let back = &read.games[0];
        prop_assert_eq!(&back.moves, &game.moves);
        prop_assert_eq!(back.result, game.result);
        prop_assert_eq!(back.start.fen(), game.start.fen());
        prop_assert_eq!(back.tag("White"), Some("Random"));
        for (i, c) in back.comments.iter().enumerate() {
            let expected = commented[i].then(|| format!("comment {i}: {{nested) words"));
            prop_assert_eq!(c, &expected);
        }
    }
}
