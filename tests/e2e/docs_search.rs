//! rustdoc's search finds the kit's member for each C# name (docs/csharp.md promises it):
//! the framework's API docs are built as a user builds them (`cargo doc -p framework`),
//! and headless Chromium types each name into their search box
//! (tests/python/rustdoc_search.py). A kit name that reads like a C# one but means
//! something else must not come first: `IsDraw` is `is_search_draw`, not the arbiter's
//! `is_drawn`.

use std::ffi::OsString;
use std::process::Command;

use crate::common::kit_root;
use crate::serve_browser::{browser, run_script};

/// C# name, and the end of the address of the member rustdoc must list first.
const FIRST: &[(&str, &str)] = &[
    ("IsDraw", "struct.Board.html#method.is_search_draw"),
    ("GetPieceList", "struct.Board.html#method.piece_list"),
    ("GetAllPieceLists", "struct.Board.html#method.piece_lists"),
    ("GetSliderAttacks", "fn.slider_attacks.html"),
    ("GetPieceAttacks", "fn.piece_attacks.html"),
    ("GetKnightAttacks", "fn.knight_attacks.html"),
    ("GetPawnAttacks", "fn.pawn_attacks.html"),
    ("IsInCheckmate", "struct.Board.html#method.is_checkmate"),
    ("ZobristKey", "struct.Board.html#method.key"),
    ("PlyCount", "struct.Board.html#method.ply_count"),
    ("GetPiece", "struct.Board.html#method.piece_at"),
    ("GetPieceBitboard", "struct.Board.html#method.pieces"),
    ("TrySkipTurn", "struct.Board.html#method.skip_turn"),
    (
        "GetLegalMovesNonAlloc",
        "struct.Board.html#method.legal_moves_into",
    ),
    ("CapturePieceType", "struct.Move.html#method.captured"),
    ("StartSquare", "struct.Move.html#method.from"),
    ("IsCastles", "struct.Move.html#method.is_castle"),
    ("File", "struct.Square.html#method.file"),
    ("Rank", "struct.Square.html#method.rank"),
    (
        "TypeOfPieceInList",
        "struct.PieceList.html#method.piece_type",
    ),
    (
        "MillisecondsRemaining",
        "struct.Timer.html#method.ms_remaining",
    ),
    (
        "ClearAndGetIndexOfLSB",
        "struct.Bitboard.html#method.pop_lsb",
    ),
    ("GetNumberOfSetBits", "struct.Bitboard.html#method.count"),
    ("Random", "struct.Random.html"),
    ("Next", "struct.Random.html#method.next"),
    ("NextDouble", "struct.Random.html#method.next_double"),
    (
        "OrderByDescending",
        "struct.MoveList.html#method.order_by_descending",
    ),
];

#[test]
fn each_csharp_name_finds_its_kit_member_first() {
    let Some(browser) = browser() else {
        return;
    };
    // A target directory of its own: the docs' search index keeps names from earlier
    // builds of the same crate, so it is built fresh.
    let target = kit_root().join("target/tmp/docs-search");
    let _ = std::fs::remove_dir_all(target.join("doc"));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let built = Command::new(cargo)
        .args(["doc", "--offline", "--no-deps", "-p", "framework"])
        .current_dir(kit_root())
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo doc runs");
    assert!(
        built.status.success(),
        "cargo doc -p framework: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let shots = kit_root().join("target/rustdoc-search");
    std::fs::create_dir_all(&shots).unwrap();
    let mut args: Vec<OsString> = vec![target.join("doc").into(), shots.clone().into()];
    args.extend(
        FIRST
            .iter()
            .map(|(name, path)| format!("{name}={path}").into()),
    );
    run_script(
        &browser,
        "rustdoc_search.py",
        &args,
        &shots,
        "rustdoc search: ok",
    );
}
