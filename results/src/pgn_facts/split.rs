//! Reading one PGN file on two threads: the file is cut in two at the start of a game near
//! its middle, the second half is read by a thread of its own while this one reads the
//! first, and the second half's players, games and messages are added after the first's,
//! renumbered, exactly as one reader would have found them. The cut is proved, not
//! guessed: it stands only if the first half's reader stops there between two games (no
//! comment, variation or game runs across it); otherwise the second thread is stopped and
//! the first reads on to the end alone. Nothing but the time changes.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use framework::notation::stream::{PgnStream, StreamError};

use super::{PgnFacts, PgnPlace, PgnReadMode, PgnWarning};

/// Files smaller than this are read by one thread (a second one would not pay).
pub const SPLIT_BYTES: u64 = 1 << 20;

/// Messages the second half may hold back until the first is read; past this many (a
/// file of broken games) it stops, and the first thread reads on alone, so memory stays
/// bounded.
const HELD_WARNINGS: usize = 10_000;

/// Where the search for a game's start near the middle looks.
const SEARCH_BYTES: usize = 64 << 10;

impl PgnFacts {
    /// [`PgnFacts::read`] of the file at `path`, on two threads when it is large (see the
    /// module documentation): the same players, games, counts and messages, in the same
    /// order.
    ///
    /// # Errors
    /// The file cannot be opened or read, or is not PGN text ([`StreamError`]).
    ///
    /// ```
    /// use results::{PgnFacts, PgnReadMode};
    ///
    /// let path = std::env::temp_dir().join(format!("read-file-{}.pgn", std::process::id()));
    /// std::fs::write(&path, "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n").unwrap();
    /// let mut facts = PgnFacts::default();
    /// facts.read_file("t.pgn", &path, PgnReadMode::default(), &|_| {}).unwrap();
    /// assert_eq!((facts.players.len(), facts.games.len()), (2, 1));
    /// std::fs::remove_file(path).unwrap();
    /// ```
    pub fn read_file(
        &mut self,
        name: &str,
        path: &Path,
        mode: PgnReadMode,
        observe: &(dyn Fn(PgnWarning) + Sync),
    ) -> Result<(), StreamError> {
        let mut file = File::open(path)?;
        // Only a regular file is cut (a pipe has no length and cannot seek).
        let cut = if file.metadata()?.len() >= SPLIT_BYTES {
            let cut = game_start_near_middle(&mut file)?;
            file.seek(SeekFrom::Start(0))?;
            cut
        } else {
            None
        };
        match cut {
            Some(cut) => self.read_cut(name, (file, path), cut, mode, observe),
            None => self.read(name, file, mode, observe),
        }
    }

    /// Reads `file` with a second thread from byte `cut` (a line start), taking its games
    /// only if the first thread stops there between two games.
    pub(crate) fn read_cut(
        &mut self,
        name: &str,
        (file, path): (File, &Path),
        cut: u64,
        mode: PgnReadMode,
        observe: &(dyn Fn(PgnWarning) + Sync),
    ) -> Result<(), StreamError> {
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let second = scope.spawn(|| read_second_half(name, path, cut, mode, &stop));
            let mut stream = PgnStream::new(file, mode.scan_options());
            let between =
                stream.for_each_before(cut, |game| self.take_scanned(name, game, mode, observe));
            let between = match between {
                Ok(between) => between,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            };
            if between {
                // Joined only once the first half is read: the two run side by side.
                if let Ok(Some(half)) = second.join() {
                    let (line, games) = stream.position();
                    return self.add_half(half, (line - 1, games), observe);
                }
            }
            stop.store(true, Ordering::Relaxed);
            stream
                .for_each(|game| self.take_scanned(name, game, mode, observe))
                .map(|_| ())
        })
    }

    /// Adds the second half's players, games and counts after this one's, as one reader
    /// would have met them, and hands on its messages renumbered; its error, if it
    /// stopped on one, is this file's.
    fn add_half(
        &mut self,
        half: Half,
        (lines, games): (usize, usize),
        observe: &(dyn Fn(PgnWarning) + Sync),
    ) -> Result<(), StreamError> {
        let Half {
            facts,
            warnings,
            result,
        } = half;
        let players: Vec<usize> = facts.players.iter().map(|p| self.player(&p.name)).collect();
        for g in facts.games {
            let fact = super::GameFact {
                white: players[g.white],
                black: players[g.black],
                faulty: g.faulty.map(|f| players[f]),
                ..g
            };
            self.count_fact(fact);
        }
        self.skipped += facts.skipped;
        self.unread += facts.unread;
        self.settled += facts.settled;
        for warning in warnings {
            observe(warning.moved(lines, games));
        }
        result.map_err(|e| match e {
            StreamError::NotUtf8 { line } => StreamError::NotUtf8 { line: line + lines },
            StreamError::TooLong { line } => StreamError::TooLong { line: line + lines },
            other => other,
        })
    }
}

/// What the second thread read.
struct Half {
    facts: PgnFacts,
    warnings: Vec<PgnWarning>,
    result: Result<(), StreamError>,
}

/// Reads the file from `cut` to its end, holding its messages back; `None` if told to
/// stop, or if it has more messages than it may hold.
fn read_second_half(
    name: &str,
    path: &Path,
    cut: u64,
    mode: PgnReadMode,
    stop: &AtomicBool,
) -> Option<Half> {
    let mut file = File::open(path).ok()?;
    file.seek(SeekFrom::Start(cut)).ok()?;
    let held = Mutex::new(Vec::new());
    let hold = |warning: PgnWarning| {
        let mut held = held
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if held.len() < HELD_WARNINGS {
            held.push(warning);
        } else {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let mut facts = PgnFacts::default();
    let result = facts.read(name, Stoppable { file, stop }, mode, &hold);
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    // Only the players and games are added to the first half's: the indexes go.
    facts.index = Default::default();
    facts.kinds = Default::default();
    let warnings = held
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    Some(Half {
        facts,
        warnings,
        result,
    })
}

/// A file that reads as ended once `stop` is set.
struct Stoppable<'s> {
    file: File,
    stop: &'s AtomicBool,
}

impl Read for Stoppable<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return Ok(0);
        }
        self.file.read(buf)
    }
}

/// The first line starting with `[` after a blank line, from the middle of the file on
/// (within [`SEARCH_BYTES`]): where a game's tags most likely begin. Whether a game
/// really begins there is for the first half's reader to prove.
fn game_start_near_middle(file: &mut File) -> std::io::Result<Option<u64>> {
    let middle = file.metadata()?.len() / 2;
    file.seek(SeekFrom::Start(middle))?;
    let mut window = Vec::with_capacity(SEARCH_BYTES);
    file.take(SEARCH_BYTES as u64).read_to_end(&mut window)?;
    let found = window
        .windows(3)
        .position(|w| w == b"\n\n[")
        .map(|i| middle + i as u64 + 2);
    Ok(found)
}

impl PgnWarning {
    /// The message of a game read `lines` lines and `games` games into the file.
    fn moved(self, lines: usize, games: usize) -> PgnWarning {
        let shift = |place: PgnPlace| PgnPlace {
            line: place.line + lines,
            game: place.game + games,
            ..place
        };
        match self {
            PgnWarning::Settled {
                place,
                players,
                move_text,
                chosen,
                candidates,
            } => PgnWarning::Settled {
                place: shift(place),
                players,
                move_text,
                chosen,
                candidates,
            },
            PgnWarning::Skipped { place, reason } => PgnWarning::Skipped {
                place: shift(place),
                reason,
            },
            PgnWarning::RatedByResult {
                place,
                players,
                result,
                reason,
            } => PgnWarning::RatedByResult {
                place: shift(place),
                players,
                result,
                reason,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games with every kind of message, a comment and a game without a result token
    /// that a cut could fall inside, and players met again further on.
    const FIXTURE: &str = "\
[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
[White \"B\"]\n[Black \"C\"]\n\n1. d4 {a comment\n\n[White \"X\"]\nover lines} d5 1/2-1/2\n\n\
[White \"C\"]\n[Black \"A\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Ke3 0-1\n\n\
[White \"A\"]\n[Black \"C\"]\n\n1. e4 *\n\n\
[White \"D\"]\n[Black \"A\"]\n[Termination \"time forfeit\"]\n\n1. e4 e5\n\n\
[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 1-0\n\n\
[White \"C\"]\n[Black \"D\"]\n\n1. c4 ( 1. d4 d5\n\n) e5 0-1\n\n\
[White \"E\"]\n[Black \"A\"]\n\n1. e4 e5 1/2-1/2\n";

    /// Everything a read leaves: players, games, counts, messages and the error.
    fn outcome(facts: &PgnFacts, said: Vec<String>, result: Result<(), StreamError>) -> String {
        let names: Vec<&str> = facts.players.iter().map(|p| p.name.as_str()).collect();
        let error = result.err().map(|e| e.to_string());
        format!(
            "{names:?}\n{:?}\n{} {} {}\n{said:#?}\n{error:?}",
            facts.games, facts.skipped, facts.unread, facts.settled
        )
    }

    fn write(text: &[u8], tag: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("split-{}-{tag}.pgn", std::process::id()));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn whole(text: &[u8]) -> String {
        let said = Mutex::new(Vec::new());
        let mut facts = PgnFacts::default();
        let observe = |w: PgnWarning| said.lock().unwrap().push(w.to_string());
        let result = facts.read("f.pgn", text, PgnReadMode::default(), &observe);
        outcome(&facts, said.into_inner().unwrap(), result)
    }

    fn cut_at(path: &Path, cut: u64) -> String {
        let said = Mutex::new(Vec::new());
        let mut facts = PgnFacts::default();
        let observe = |w: PgnWarning| said.lock().unwrap().push(w.to_string());
        let file = File::open(path).unwrap();
        let result = facts.read_cut("f.pgn", (file, path), cut, PgnReadMode::default(), &observe);
        outcome(&facts, said.into_inner().unwrap(), result)
    }

    /// Every line start of `text` as the cut gives what one reader gives.
    fn every_cut_agrees(text: &[u8], tag: &str) {
        let path = write(text, tag);
        let want = whole(text);
        for (i, _) in text
            .iter()
            .enumerate()
            .filter(|&(i, &b)| i > 0 && text[i - 1] == b'\n' && b != 0)
        {
            assert_eq!(cut_at(&path, i as u64), want, "cut at byte {i}");
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn any_cut_reads_as_one_reader_does() {
        let want = whole(FIXTURE.as_bytes());
        // The fixture has what it is meant to: a skip, a game rated by its result.
        assert!(
            want.contains("skipped: no result") && want.contains("rated by its result"),
            "{want}"
        );
        every_cut_agrees(FIXTURE.as_bytes(), "fixture");
    }

    #[test]
    fn a_bad_line_in_the_second_half_is_reported_at_its_place() {
        let mut text = FIXTURE.as_bytes().to_vec();
        let at = FIXTURE.find("[White \"E\"]").unwrap();
        text.splice(at..at, b"[Event \"\xff\"]\n".iter().copied());
        assert!(whole(&text).contains("is not UTF-8"));
        every_cut_agrees(&text, "bad");
    }

    #[test]
    fn a_second_half_with_more_messages_than_it_may_hold_is_read_by_the_first() {
        // Every game of the second half has a message: past the ones it may hold back,
        // the second thread stops, and the first reads the whole file alone.
        let first = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 1-0\n\n";
        let broken = "[White \"A\"]\n[Black \"B\"]\n\n1. Ke3 *\n\n";
        let text = format!("{first}{}", broken.repeat(HELD_WARNINGS + 5));
        let path = write(text.as_bytes(), "many");
        assert_eq!(cut_at(&path, first.len() as u64), whole(text.as_bytes()));
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn a_large_file_is_cut_near_its_middle_at_a_game() {
        let mut text = String::new();
        while (text.len() as u64) < SPLIT_BYTES + 1000 {
            text.push_str(FIXTURE);
            text.push('\n');
        }
        let path = write(text.as_bytes(), "large");
        let cut = game_start_near_middle(&mut File::open(&path).unwrap())
            .unwrap()
            .unwrap();
        assert!(text[cut as usize..].starts_with('['), "{cut}");
        assert!(cut >= text.len() as u64 / 2);
        let said = Mutex::new(Vec::new());
        let observe = |w: PgnWarning| said.lock().unwrap().push(w.to_string());
        let mut facts = PgnFacts::default();
        let result = facts.read_file("f.pgn", &path, PgnReadMode::default(), &observe);
        let got = outcome(&facts, said.into_inner().unwrap(), result);
        assert_eq!(got, whole(text.as_bytes()));
        std::fs::remove_file(path).unwrap();
    }
}
