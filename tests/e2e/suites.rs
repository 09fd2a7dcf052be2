//! The shipped suite `suites/breuker1996.epd`: it reads without an error, holds the 94
//! middlegame and 112 endgame positions of Breuker, Uiterwijk and van den Herik (1996), and
//! each of them is the position of its game (`suites/breuker1996.pgn`, replayed by the
//! kit's own PGN reader) at the ply its id names, with that ply's move counters.

use std::collections::BTreeMap;

use framework::chess::Board;
use framework::notation::pgn::read_games;
use measure::{EpdRecord, read_epd};

fn suite_text(name: &str) -> String {
    let path = format!("{}/suites/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Placement, side to move and castling rights, and the Zobrist key: equal for two boards
/// exactly when they are the same position (an en-passant square counts only when the
/// capture is legal; the kit's FEN names it after every double step, the suite only then).
fn position(board: &Board) -> (String, u64) {
    let fields = board.fen().split(' ').take(3).collect::<Vec<_>>().join(" ");
    (fields, board.key())
}

/// The operand of `opcode` on an EPD line (`hmvc 4;` gives `4`).
fn operand<'a>(line: &'a str, opcode: &str) -> &'a str {
    let start = line
        .find(&format!(" {opcode} "))
        .unwrap_or_else(|| panic!("no {opcode} in {line}"))
        + opcode.len()
        + 2;
    line[start..].split(';').next().unwrap()
}

fn records() -> Vec<EpdRecord> {
    let file = read_epd(&suite_text("breuker1996.epd"));
    assert!(file.errors.is_empty(), "{:?}", file.errors);
    file.records
}

#[test]
fn the_breuker_suite_reads_whole_with_94_middlegame_and_112_endgame_positions() {
    let records = records();
    let count = |set: &str| records.iter().filter(|r| r.id.starts_with(set)).count();
    assert_eq!((count("mg."), count("eg."), records.len()), (94, 112, 206));
    let mut games = BTreeMap::<&str, usize>::new();
    for record in &records {
        let (game, ply) = record.id.rsplit_once('.').expect("SET.GAME.PLY");
        ply.parse::<usize>().expect("a ply number");
        *games.entry(game).or_default() += 1;
        assert!(
            !record.board.legal_moves().is_empty(),
            "{}: no legal move",
            record.id
        );
    }
    // The appendix's counts, game by game.
    let expected = [
        ("eg.Capablanca-Alekhine", 17),
        ("eg.Fischer-Reshevsky", 17),
        ("eg.Gossip-Mason", 28),
        ("eg.Lisitsin-Capablanca", 29),
        ("eg.Rabinovich-Romanovsky", 21),
        ("mg.Ivanchuk-Kasparov", 24),
        ("mg.Kasparov-Ivanchuk", 6),
        ("mg.Kasparov-Short", 18),
        ("mg.Kasparov-Timman", 15),
        ("mg.Short-Kasparov", 11),
        ("mg.Timman-Kasparov", 20),
    ];
    assert_eq!(games.into_iter().collect::<Vec<_>>(), expected);
}

#[test]
fn every_breuker_position_is_its_game_at_the_ply_its_id_names() {
    let text = suite_text("breuker1996.epd");
    let lines: BTreeMap<String, &str> = text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| (operand(line, "id").trim_matches('"').to_string(), line))
        .collect();
    let read = read_games(&suite_text("breuker1996.pgn"));
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    assert_eq!(read.games.len(), 11);
    let mut found = 0;
    for game in &read.games {
        let name = format!(
            "{}-{}",
            game.tag("White").unwrap(),
            game.tag("Black").unwrap()
        );
        let mut board = Board::startpos();
        for (ply, &mv) in game.moves.iter().enumerate() {
            for set in ["mg", "eg"] {
                let Some(line) = lines.get(&format!("{set}.{name}.{ply}")) else {
                    continue;
                };
                let record = EpdRecord::parse(line, 1).unwrap();
                assert_eq!(
                    position(&record.board),
                    position(&board),
                    "{name} ply {ply}"
                );
                assert_eq!(
                    operand(line, "hmvc"),
                    board.fifty_move_counter().to_string()
                );
                assert_eq!(operand(line, "fmvn"), board.fullmove_number().to_string());
                found += 1;
            }
            board.make_move(mv);
        }
    }
    assert_eq!(found, 206, "every record was found in its game");
}
