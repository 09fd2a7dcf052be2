//! The one reader (`notation::scan`, and `PgnReader` and `PgnStream` on it) reads exactly
//! what the reader before it read (`reference/pgn_before.rs`): random legal games written
//! by `write_game`, the same text damaged at random, random PGN-like noise, and the real
//! games in `data/pgn`; as one text, and streamed through buffers of a few bytes.

#[path = "reference/pgn_before.rs"]
mod pgn_before;

#[path = "common/ambiguous_pgn.rs"]
mod ambiguous_pgn;

use framework::chess::Board;
use framework::notation::pgn::{GameResult, PgnError, PgnGame, PgnReader, write_game};
use framework::notation::scan::{PgnScanner, SETTLE_BUDGET, ScanOptions, ScannedGame};
use framework::notation::stream::PgnStream;
use proptest::prelude::*;

const FAMOUS: &str = include_str!("data/pgn/famous.pgn");

const STARTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

/// What the reader would have built from a scanned game: its tags normalised as the
/// reader normalises them (roster first, `Result` agreeing with the result).
fn as_reader_tags(game: &ScannedGame<'_>) -> Vec<(String, String)> {
    let mut expect = PgnGame::new();
    for (name, value) in &game.tags {
        if *name != "Result" {
            expect.set_tag(name, value);
        }
    }
    expect.result = game.result;
    expect.set_tag("Result", game.result.as_str());
    expect.tags
}

/// One game of the scanner against one of the reader: the same error, or the same tags,
/// moves and result.
fn same_game(scanned: &ScannedGame<'_>, read: &Result<PgnGame, PgnError>) -> Result<(), String> {
    match (read, &scanned.error) {
        (Err(e), Some(s)) if e == s => Ok(()),
        (Ok(g), None) if g.moves == scanned.moves && g.result == scanned.result => {
            if g.tags == as_reader_tags(scanned) {
                Ok(())
            } else {
                Err(format!("tags {:?} vs {:?}", g.tags, scanned.tags))
            }
        }
        _ => Err(format!("reader {read:?}\nscanner {scanned:?}")),
    }
}

/// The scanner reads `text` as the reader before it did; `PgnReader` builds the same
/// games (comments included); a stream reads the same through small buffers.
fn same_as_reader(text: &str) -> Result<(), String> {
    let read: Vec<_> = pgn_before::PgnReader::new(text).collect();
    let mut scanner = PgnScanner::new(text, ScanOptions::default());
    let mut game = ScannedGame::default();
    let mut n = 0;
    let mut scanned = Vec::new();
    while scanner.next_into(&mut game) {
        let Some(expected) = read.get(n) else {
            return Err(format!("extra game {game:?}"));
        };
        same_game(&game, expected).map_err(|e| format!("game {}: {e}\n{text:?}", n + 1))?;
        if game.number != n + 1 {
            return Err(format!("game {} numbered {}", n + 1, game.number));
        }
        scanned.push(describe(&game));
        n += 1;
    }
    if n != read.len() {
        return Err(format!("{n} games scanned, {} read\n{text:?}", read.len()));
    }
    let built: Vec<_> = PgnReader::new(text).collect();
    if built != read {
        return Err(format!("PgnReader {built:?}\nbefore {read:?}\n{text:?}"));
    }
    for buffer in [1, 5, 64] {
        let streamed = streamed(text, buffer);
        if streamed != scanned {
            return Err(format!(
                "buffer {buffer}: {streamed:?}\nvs {scanned:?}\n{text:?}"
            ));
        }
    }
    Ok(())
}

/// What a stream must read as the scanner does: number, line, tags, moves, result, error.
type Described = (
    usize,
    usize,
    Vec<(String, String)>,
    Vec<framework::chess::Move>,
    GameResult,
    Option<PgnError>,
);

fn describe(game: &ScannedGame<'_>) -> Described {
    let tags = game
        .tags
        .iter()
        .map(|(n, v)| ((*n).to_string(), v.to_string()))
        .collect();
    let moves = game.moves.clone();
    (
        game.number,
        game.line,
        tags,
        moves,
        game.result,
        game.error.clone(),
    )
}

/// The games of `text` read by a stream through a buffer of `buffer` bytes.
fn streamed(text: &str, buffer: usize) -> Vec<Described> {
    let mut out = Vec::new();
    PgnStream::with_buffer(text.as_bytes(), ScanOptions::default(), buffer)
        .for_each(|game| out.push(describe(game)))
        .expect("reads");
    out
}

/// A random legal game from one of [`STARTS`], with tags, comments and a result.
fn random_game(start: usize, choices: &[u16], comment_every: u16, result: u8) -> String {
    let board = Board::from_fen(STARTS[start]).unwrap();
    let mut game = PgnGame::from_position(board.clone());
    let mut b = board;
    for &c in choices {
        let moves = b.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[c as usize % moves.len()];
        b.make_move(mv);
        let comment = (comment_every > 0 && c % comment_every == 0)
            .then(|| format!("eval {c} [%clk 0:01:0{}]", c % 10));
        game.push(mv, comment);
    }
    game.set_tag(
        "White",
        &format!("Bot {} \"quoted\" \\ path", choices.len()),
    );
    game.set_tag("Black", "SaveBot (or, \"winning bot\" as an alternative)");
    game.set_tag("Termination", "time forfeit");
    game.result = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ][result as usize % 4];
    write_game(&game)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random legal games as today's writer writes them.
    #[test]
    fn reads_written_games_as_the_reader_does(
        games in prop::collection::vec(
            (0..STARTS.len(), prop::collection::vec(any::<u16>(), 0..160), 0u16..12, any::<u8>()),
            1..6,
        )
    ) {
        let text: String = games
            .iter()
            .map(|(start, choices, every, result)| random_game(*start, choices, *every, *result))
            .collect::<Vec<_>>()
            .join("\n");
        prop_assert_eq!(same_as_reader(&text), Ok(()));
    }

    /// The same text damaged: bytes replaced, removed or inserted, with the characters
    /// that matter to PGN most likely.
    #[test]
    fn reads_damaged_games_as_the_reader_does(
        start in 0..STARTS.len(),
        choices in prop::collection::vec(any::<u16>(), 0..80),
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(
            b"{}()[];$\"<>%\\\n .1-0*/Qx=+#!?e8Kabc\r\t".to_vec()
        )), 1..6),
    ) {
        let mut text = random_game(start, &choices, 3, 0) + "\n" + &random_game(0, &choices, 0, 1);
        for (at, kind, byte) in edits {
            let i = at.index(text.len() + 1);
            let i = (0..=i).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            match kind {
                0 => text.insert(i, byte as char),
                1 if i < text.len() => { text.remove(i); }
                _ => text.insert_str(i, &format!("{}{}", byte as char, byte as char)),
            }
        }
        prop_assert_eq!(same_as_reader(&text), Ok(()));
    }

    /// Noise made of PGN's own characters and words.
    #[test]
    fn reads_noise_as_the_reader_does(
        words in prop::collection::vec(prop::sample::select(vec![
            "[", "]", "\"", "Event", "White \"A\"", "[Result \"1-0\"]", "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]",
            "[Variant \"Chess960\"]", "{", "}", "(", ")", ";", "%", "$", "$12", "1.", "1...", "12.e4",
            "e4", "e5", "Nf3", "Ke2", "O-O", "e.p.", "1-0", "0-1", "1/2-1/2", "½-½", "*", "!?", "\n",
            "\n\n", " ", "\t", "\u{a0}", "\u{feff}", "é", "\\", "<", ">", "x",
        ]), 0..60)
    ) {
        let text: String = words.concat();
        prop_assert_eq!(same_as_reader(&text), Ok(()));
    }
}

#[test]
fn reads_the_real_games_as_the_reader_does() {
    same_as_reader(FAMOUS).unwrap();
    let crlf = FAMOUS.replace('\n', "\r\n");
    same_as_reader(&crlf).unwrap();
    same_as_reader(&format!("\u{feff}{FAMOUS}")).unwrap();
}

/// A text of a few megabytes with broken games and a comment over many lines.
fn big_text() -> String {
    let mut text = String::new();
    let mut k = 0u16;
    while text.len() < 3 << 20 {
        let choices: Vec<u16> = (0..120).map(|i| i * 7919 + k).collect();
        text.push_str(&random_game(usize::from(k % 4), &choices, 5, k as u8));
        text.push('\n');
        if k == 900 {
            text.push_str(
                "[White \"x\"]\n1. e4 e4 *\n[Bad tag]\n1. e4 {\n[Event \"in a comment\"]\n} *\n",
            );
            text.push_str("[A \"only tags\"]\n\n% an escape line\n; a comment line\n");
        }
        k += 1;
    }
    text
}

#[test]
fn streams_a_large_file_as_it_reads_the_whole_text() {
    let text = big_text();
    let mut scanner = PgnScanner::new(&text, ScanOptions::default());
    let mut game = ScannedGame::default();
    let mut whole = Vec::new();
    while scanner.next_into(&mut game) {
        whole.push(describe(&game));
    }
    assert!(whole.len() > 1500, "{}", whole.len());
    assert!(whole.iter().any(|g| g.5.is_some()));
    for buffer in [4096, framework::notation::stream::BUFFER_BYTES] {
        assert!(streamed(&text, buffer) == whole, "buffer {buffer}");
    }
}

#[test]
fn a_stream_names_the_line_that_is_not_utf8_after_handing_on_the_games_before() {
    let mut bytes = b"1. e4 *\n1. d4 *\n[White \"A\"]\n1. c4 ".to_vec();
    bytes.extend_from_slice(b"{caf\xe9} *\n1. Nf3 *\n");
    let mut plies = Vec::new();
    let error = PgnStream::with_buffer(&bytes[..], ScanOptions::default(), 8)
        .for_each(|game| plies.push(game.moves.len()))
        .unwrap_err();
    assert_eq!(plies, [1, 1]);
    assert_eq!(
        error.to_string(),
        "line 4 is not UTF-8 text (PGN files are read as UTF-8)"
    );
}

#[test]
fn a_stream_stops_at_a_game_longer_than_any_real_one() {
    use std::io::Read;
    let input = "1. e4 *\n1. d4 {"
        .as_bytes()
        .chain(std::io::repeat(b' ').take(65 << 20));
    let mut games = 0;
    let error = PgnStream::new(input, ScanOptions::default())
        .for_each(|_| games += 1)
        .unwrap_err();
    assert_eq!(games, 1);
    assert!(
        error
            .to_string()
            .starts_with("the game starting at line 2 runs past 64 MiB"),
        "{error}"
    );
}

/// The C# challenge's writer disambiguated by file where the rank was needed: with queens
/// on c1 and c3, both can reach a1, and it wrote `Qca1`. Only the c3 queen's move lets
/// White play `Qh6` (from c1) next.
const AMBIGUOUS: &str = "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n\
[FEN \"4k3/8/8/8/8/2Q5/8/2Q3K1 w - - 0 1\"]\n\n1. Qca1 Kd7 2. Qh6 1-0\n";

#[test]
fn ambiguous_san_is_settled_by_the_rest_of_the_game_when_asked() {
    // As the reader: an error.
    same_as_reader(AMBIGUOUS).unwrap();
    let mut game = ScannedGame::default();
    PgnScanner::new(AMBIGUOUS, ScanOptions::default()).next_into(&mut game);
    let error = game.error.clone().unwrap();
    assert!(error.message.contains("ambiguous SAN `Qca1`"), "{error}");
    assert_eq!(game.result, GameResult::WhiteWins);

    let options = ScanOptions {
        resolve_ambiguous: true,
        ..ScanOptions::default()
    };
    PgnScanner::new(AMBIGUOUS, options).next_into(&mut game);
    assert_eq!(game.error, None);
    assert_eq!(game.moves.len(), 3);
    assert_eq!(game.moves[0].to_string(), "c3a1");
    let resolved = &game.resolved[0];
    assert_eq!((resolved.ply, resolved.line), (1, 7));
    assert_eq!(resolved.move_text, "1. Qca1");
    assert_eq!(resolved.candidates, ["Q1a1", "Q3a1"]);
    assert_eq!(resolved.chosen, "Q3a1");

    // When both candidates fit the rest, nothing settles it: still an error.
    let both = AMBIGUOUS.replace("2. Qh6", "2. Kf2");
    PgnScanner::new(&both, options).next_into(&mut game);
    assert!(game.error.as_ref().unwrap().message.contains("ambiguous"));
    // And when neither does, the error is the ambiguity too.
    let neither = AMBIGUOUS.replace("2. Qh6", "2. Qh7");
    PgnScanner::new(&neither, options).next_into(&mut game);
    assert!(game.error.as_ref().unwrap().message.contains("ambiguous"));
}

/// A file built so that settling its ambiguous moves replays without end (every knight
/// move one of eight, each settled only at the game's end, by the last candidate tried:
/// 8^4 trials of a round per game) took seconds per megabyte. The file's budget of
/// replayed plies stops it: the games before are settled, every later ambiguous move is
/// an error that says the budget is spent, and a stream through a small buffer, which
/// reads some games twice, charges each once and reads the file alike.
#[test]
fn settling_ambiguous_moves_stops_at_the_files_budget_and_says_so() {
    let text = ambiguous_pgn::file(300_000, 2, 20);
    let options = ScanOptions {
        resolve_ambiguous: true,
        ..ScanOptions::default()
    };
    let read = |game: &ScannedGame<'_>, verdicts: &mut Vec<bool>| match &game.error {
        None => {
            assert_eq!(game.resolved.len(), 4, "every knight move settled");
            verdicts.push(true);
        }
        Some(e) => {
            assert!(
                e.message.ends_with(&format!(
                    "; not settled: this file's budget of {SETTLE_BUDGET} replayed plies \
                     for settling ambiguous moves is spent"
                )),
                "{e}"
            );
            assert_eq!((e.ply, e.move_text.as_deref()), (Some(1), Some("1. Nd4")));
            verdicts.push(false);
        }
    };
    let mut scanner = PgnScanner::new(&text, options);
    let mut game = ScannedGame::default();
    let mut whole = Vec::new();
    while scanner.next_into(&mut game) {
        read(&game, &mut whole);
    }
    assert_eq!(scanner.settle_budget(), 0);
    let settled = whole.iter().take_while(|&&fits| fits).count();
    assert!(settled > 0, "the budget settles the first games");
    assert!(
        settled < whole.len() && whole[settled..].iter().all(|&fits| !fits),
        "once spent, nothing more is settled: {settled} of {}",
        whole.len()
    );

    let mut streamed = Vec::new();
    PgnStream::with_buffer(text.as_bytes(), options, 4096)
        .for_each(|game| read(game, &mut streamed))
        .unwrap();
    assert_eq!(streamed, whole);
}

#[test]
fn results_only_reads_tags_and_results_without_moves() {
    let options = ScanOptions {
        replay: false,
        ..ScanOptions::default()
    };
    let text = "[White \"A\"]\n1. e4 e4 0-1\n[White \"B\"]\n[Result \"1-0\"]\n1. Zz9\n";
    let mut scanner = PgnScanner::new(text, options);
    let mut game = ScannedGame::default();
    assert!(scanner.next_into(&mut game));
    assert_eq!(
        (game.result, game.error.is_none()),
        (GameResult::BlackWins, true)
    );
    assert!(game.moves.is_empty());
    assert!(scanner.next_into(&mut game));
    assert_eq!(
        (game.tag("White"), game.result),
        (Some("B"), GameResult::WhiteWins)
    );
    assert!(!scanner.next_into(&mut game));
}
