//! `pgn_compare kit|pgn-reader|kit-results FILE`: reads every game of a PGN file as
//! `challenge ratings` needs it (the `White`, `Black` and `Result` tags, every move
//! replayed and checked) and prints the games, plies and broken games it saw, so both
//! readers can be checked to read the same. Time it, or run it under callgrind.

use std::fs::File;
use std::ops::ControlFlow;

use framework::notation::scan::ScanOptions;
use framework::notation::stream::PgnStream;
use pgn_reader::reader::ReaderBuilder;
use pgn_reader::{RawTag, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

/// What both readers count.
#[derive(Debug, Default)]
struct Seen {
    games: usize,
    plies: usize,
    broken: usize,
    /// Bytes of the players' names, so the tags are really read.
    names: usize,
}

fn kit(path: &str, replay: bool) -> Seen {
    let mut seen = Seen::default();
    let options = ScanOptions {
        replay,
        ..ScanOptions::default()
    };
    let file = File::open(path).expect("opens the file");
    PgnStream::new(file, options)
        .for_each(|game| {
            seen.games += 1;
            seen.plies += game.moves.len();
            seen.broken += usize::from(game.error.is_some());
            seen.names += game.tag("White").map_or(0, str::len) + game.tag("Black").map_or(0, str::len);
            std::hint::black_box(game.result);
        })
        .expect("reads the file");
    seen
}

/// pgn-reader's `validate` example, keeping the names and the result as ratings do.
impl Visitor for Seen {
    type Tags = Option<Chess>;
    type Movetext = (Chess, bool);
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(None)
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        match name {
            b"White" | b"Black" => {
                let name = value.decode_utf8().map_or(0, |s| s.len());
                self.names += std::hint::black_box(name);
            }
            b"Result" => {
                std::hint::black_box(value.decode_utf8().ok());
            }
            b"FEN" => {
                let position = Fen::from_ascii(value.as_bytes())
                    .ok()
                    .and_then(|fen| fen.into_position(CastlingMode::Standard).ok());
                *tags = position;
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue((tags.unwrap_or_default(), true))
    }

    fn san(&mut self, movetext: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        let (position, ok) = movetext;
        if *ok {
            match san.san.to_move(position) {
                Ok(m) => {
                    position.play_unchecked(m);
                    self.plies += 1;
                }
                Err(_) => *ok = false,
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        self.broken += usize::from(!movetext.1);
    }
}

fn pgn_reader(path: &str) -> Seen {
    let mut seen = Seen::default();
    // The challenge's names run to 500 bytes: past the standard's 255-byte tag line.
    let file = File::open(path).expect("opens the file");
    let mut reader = ReaderBuilder::new(file)
        .set_supported_tag_line_length(4096)
        .finish();
    while reader.read_game(&mut seen).expect("reads the file").is_some() {}
    seen
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(which), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: pgn_compare kit|kit-results|pgn-reader FILE");
        std::process::exit(2);
    };
    let seen = match which.as_str() {
        "kit" => kit(path, true),
        "kit-results" => kit(path, false),
        "pgn-reader" => pgn_reader(path),
        other => {
            eprintln!("unknown reader {other}: kit, kit-results or pgn-reader");
            std::process::exit(2);
        }
    };
    println!(
        "{which}: {} games, {} plies, {} broken, {} name bytes",
        seen.games, seen.plies, seen.broken, seen.names
    );
}
