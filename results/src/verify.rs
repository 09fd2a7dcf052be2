//! Whether a stored game's result agrees with its moves.
//!
//! On a PostgreSQL store a worker records its games itself, and a worker is not trusted:
//! its role may store any result, termination and PGN that pass the store's bounds. A
//! check at record time would run in the worker, the untrusted side, and prove nothing.
//! So the processes that count games check each one against its own PGN, replayed with
//! the kit's board (`framework::notation`): the standings, the ratings and the report
//! when they read the games ([`Verdicts`]), and every organiser process before it pairs
//! a Swiss round or finishes a tournament (`league::Organiser::step`), which sets a refuted game
//! aside so its slot is played again.
//!
//! What the moves can show is checked exactly as the runner decides it
//! (`runner::play_game`): a checkmate, stalemate or draw rule must be the final
//! position's, no earlier position may have ended the game, the length limit must be
//! reached, and the move count, the players, the opening and the result must be the
//! recorded ones. What they cannot show is a claim of the worker that recorded it:
//! checked as far as the board goes (the game was not over, the side at fault was to
//! move, the result is the one the runner would give), and an engine's fault (a crash,
//! a loss on time, an illegal answer) counts only with its evidence, held against the
//! time control and the moves' recorded times (`verify/evidence.rs`). Under a
//! tournament's `--confirm-claims` a claim counts only once a worker of another role,
//! playing the pairing again, made the same one ([`Verdict::Confirmed`]); until then it
//! is [`Verdict::Unconfirmed`], and the organiser sets it aside for that replay.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use framework::chess::{Board, Color, DrawReason, Outcome};
use framework::notation::pgn::{GameResult, PgnGame, PgnReader};
use runner::{TERMINATION_DETAILS_TAG, Termination, TimeControl, can_possibly_mate};
use store::{
    Aside, Evidence, Game, GameId, SlotId, Store, StoreResult, StoredOpening, StoredRules,
    Tournament, TournamentId, Version, VersionId, worker_role,
};

mod evidence;

/// What a game's moves say about its recorded result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The moves show the ending: checkmate, stalemate, a draw rule, the length limit.
    Shown,
    /// An ending the moves cannot show (a crash, a time forfeit, an illegal move, an
    /// adjudication by score), consistent with them and, for an engine's fault, with its
    /// evidence: counted as the worker that recorded the game reports it.
    Claimed,
    /// A claim that a worker of another role (`by`) made too, playing the pairing again:
    /// counted (under `--confirm-claims`).
    Confirmed {
        /// The worker whose game made the same claim.
        by: String,
    },
    /// A claim no worker of another role has confirmed yet, under `--confirm-claims`: not
    /// counted; its slot is played again.
    Unconfirmed,
    /// The recorded result disagrees with the moves or its evidence, or its worker is
    /// distrusted (the reason): the game does not count.
    Refused(String),
}

impl Verdict {
    /// Whether the game counts in the standings.
    pub fn counts(&self) -> bool {
        match self {
            Verdict::Shown | Verdict::Claimed | Verdict::Confirmed { .. } => true,
            Verdict::Unconfirmed | Verdict::Refused(_) => false,
        }
    }
}

/// What a game is checked against: the versions that played it, and, for a game of a
/// tournament's slot, the tournament's rules and the slot's opening.
#[derive(Debug, Clone, Copy)]
pub struct Expected<'a> {
    /// White's version.
    pub white: &'a Version,
    /// Black's version.
    pub black: &'a Version,
    /// The rules the game was played under, when known.
    pub rules: Option<&'a StoredRules>,
    /// The opening it was played from, when known.
    pub opening: Option<&'a StoredOpening>,
    /// Both sides' time control, when known (the clocks a fault's evidence states are
    /// checked against it).
    pub time_control: Option<TimeControl>,
}

/// Checks a stored game (with its PGN) against what it should be.
///
/// ```
/// use results::{Expected, Verdict, check_game as check};
/// use framework::notation::pgn::GameResult;
/// use runner::Termination;
/// use store::{Game, GameId, Version, VersionId, EntryId};
///
/// let version = |id: i64, name: &str| Version {
///     id: VersionId(id), entry_id: EntryId(id), name: name.into(), author: None, number: 1,
///     hash: String::new(), tokens: 1, debug_tokens: 0, file_name: "bot.rs".into(),
///     current: true, withdrawn: false, submitted: String::new(),
/// };
/// let (white, black) = (version(1, "ann"), version(2, "bob"));
/// let game = |result, pgn: &str| Game {
///     id: GameId(1), tournament: None, slot: None, white: white.id, black: black.id,
///     result, termination: Termination::Checkmate, faulty: None, detail: String::new(),
///     plies: 4, worker: Some("box1".into()), aside: None, aside_from: None, pgn: pgn.into(),
///     evidence: None,
/// };
/// let expected = Expected { white: &white, black: &black, rules: None, opening: None,
///     time_control: None };
/// let mate = "[White \"ann\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n";
/// assert_eq!(check(&game(GameResult::BlackWins, mate), &expected), Verdict::Shown);
/// // White is the side mated: a "1-0 checkmate" with these moves is refused.
/// let lie = mate.replace("0-1", "1-0");
/// assert!(matches!(check(&game(GameResult::WhiteWins, &lie), &expected), Verdict::Refused(_)));
/// ```
pub fn check(game: &Game, expected: &Expected<'_>) -> Verdict {
    match check_game(game, expected) {
        Ok(verdict) => verdict,
        Err(reason) => Verdict::Refused(reason),
    }
}

fn check_game(game: &Game, expected: &Expected<'_>) -> Result<Verdict, String> {
    let pgn = read_one(&game.pgn)?;
    if pgn.moves.len() != game.plies as usize {
        return Err(format!(
            "{} plies recorded, {} in its moves",
            game.plies,
            pgn.moves.len()
        ));
    }
    check_tags(&pgn, game, expected)?;
    let book = check_opening(&pgn, expected.opening)?;
    let max_plies = expected.rules.and_then(|r| r.max_plies);
    let last = replay(&pgn, book, max_plies)?;
    let ending = Ending {
        board: &last,
        result: game.result,
        termination: game.termination,
        faulty: game.faulty,
        engine_moves: pgn.moves.len() > book,
        pgn: &pgn,
        book,
        evidence: game.evidence.as_ref(),
        time_control: expected.time_control,
    };
    ending.check(expected.rules)
}

/// The one game a stored PGN holds.
fn read_one(text: &str) -> Result<PgnGame, String> {
    let mut reader = PgnReader::new(text);
    let game = match reader.next() {
        Some(Ok(game)) => game,
        Some(Err(err)) => return Err(format!("its PGN does not read: {err}")),
        None => return Err("its PGN holds no game".into()),
    };
    if reader.next().is_some() {
        return Err("its PGN holds more than one game".into());
    }
    Ok(game)
}

/// The players, result, termination and length the PGN names must be the recorded ones.
fn check_tags(pgn: &PgnGame, game: &Game, expected: &Expected<'_>) -> Result<(), String> {
    for (side, tag, version) in [
        ("White", "WhiteVersion", expected.white),
        ("Black", "BlackVersion", expected.black),
    ] {
        let named = pgn.tag(side).unwrap_or("");
        if named != version.player_name() {
            return Err(format!(
                "its PGN names {side} `{named}`, not `{}`, who played",
                version.player_name()
            ));
        }
        if pgn.tag(tag).is_some_and(|hash| hash != version.hash) {
            return Err(format!("its PGN's {tag} is not {side}'s version"));
        }
    }
    if pgn.result != game.result {
        return Err(format!(
            "its PGN says {}, the store {}",
            pgn.result, game.result
        ));
    }
    let tagged = |name: &str, value: &str| pgn.tag(name).is_none_or(|v| v == value);
    if !tagged(TERMINATION_DETAILS_TAG, game.termination.tag()) {
        return Err(format!(
            "its PGN ends otherwise than by {}",
            game.termination
        ));
    }
    if !tagged("PlyCount", &game.plies.to_string()) {
        return Err("its PGN's PlyCount is not the plies recorded".into());
    }
    Ok(())
}

/// The game must start from the slot's opening, its first moves the book's; returns how
/// many plies are book (0 when the opening is not known).
fn check_opening(pgn: &PgnGame, opening: Option<&StoredOpening>) -> Result<usize, String> {
    let Some(opening) = opening else {
        return Ok(0);
    };
    let start_fen = |fen: &str| fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
    let book: Vec<String> = pgn.moves.iter().map(ToString::to_string).collect();
    if start_fen(&pgn.start.fen()) != start_fen(&opening.fen) || !book.starts_with(&opening.moves) {
        return Err("it does not start from its slot's opening".into());
    }
    Ok(opening.moves.len())
}

/// Replays the moves; no position after the book but the last may have ended the game
/// (the runner stops at the first ending). Returns the final position.
fn replay(pgn: &PgnGame, book: usize, max_plies: Option<u32>) -> Result<Board, String> {
    let mut board = pgn.start.clone();
    for (ply, &mv) in pgn.moves.iter().enumerate() {
        if ply >= book {
            if let Some(outcome) = board.outcome() {
                return Err(format!("it goes on after {outcome} at ply {ply}"));
            }
            if max_plies.is_some_and(|max| runner::game_plies(&pgn.start, &board) >= max) {
                return Err(format!("it goes on past the length limit at ply {ply}"));
            }
        }
        board.make_move(mv);
    }
    Ok(board)
}

/// A recorded ending, against the final position.
struct Ending<'a> {
    board: &'a Board,
    result: GameResult,
    termination: Termination,
    faulty: Option<Color>,
    /// Whether the engines played any move (a failed start ends the game before).
    engine_moves: bool,
    /// The game, its book plies and the evidence of a fault.
    pgn: &'a PgnGame,
    book: usize,
    evidence: Option<&'a Evidence>,
    time_control: Option<TimeControl>,
}

impl Ending<'_> {
    fn check(&self, rules: Option<&StoredRules>) -> Result<Verdict, String> {
        let t = self.termination;
        let outcome = self.board.outcome();
        if let Some(on_board) = board_termination(outcome) {
            return self.on_board(on_board, outcome);
        }
        if t.is_fault() {
            return self.fault(rules);
        }
        if self.faulty.is_some() {
            return Err(format!(
                "{t} is no engine's fault, yet a side is named at fault"
            ));
        }
        let (result, rule) = match t {
            Termination::MaxLength => {
                let max = rules.and_then(|r| r.max_plies);
                if max.is_none_or(|max| runner::game_plies(&self.pgn.start, self.board) < max) {
                    return Err("it ends by length before the length limit".into());
                }
                return self.expect(GameResult::Draw, Verdict::Shown);
            }
            Termination::AdjudicatedDraw => {
                (Some(GameResult::Draw), rules.map(|r| r.draw.is_some()))
            }
            Termination::AdjudicatedResign => (None, rules.map(|r| r.resign.is_some())),
            _ => return Err(format!("its final position is no {t}")),
        };
        if rule == Some(false) {
            return Err(format!("its tournament has no {t} rule"));
        }
        match result {
            Some(result) => self.expect(result, Verdict::Claimed),
            None if self.result == GameResult::Draw => Err("a resignation is no draw".into()),
            None => Ok(Verdict::Claimed),
        }
    }

    /// The final position ended the game (`on_board`): it must be the recorded ending.
    fn on_board(&self, on_board: Termination, outcome: Option<Outcome>) -> Result<Verdict, String> {
        if self.termination != on_board {
            return Err(format!(
                "its final position is {}, not {}",
                outcome.map_or(String::new(), |o| o.to_string()),
                self.termination
            ));
        }
        if self.faulty.is_some() {
            return Err("an ending on the board is no engine's fault".into());
        }
        let result = match outcome.and_then(Outcome::winner) {
            Some(winner) => GameResult::win_for(winner),
            None => GameResult::Draw,
        };
        self.expect(result, Verdict::Shown)
    }

    /// An engine's fault: the side at fault loses, unless it ran out of time against a
    /// side that cannot mate (a draw), as the runner rules; it counts with its evidence.
    fn fault(&self, rules: Option<&StoredRules>) -> Result<Verdict, String> {
        let t = self.termination;
        let Some(side) = self.faulty else {
            return Err(format!("{t} names no side at fault"));
        };
        let on_move = matches!(
            t,
            Termination::TimeForfeit
                | Termination::Stall
                | Termination::IllegalMove
                | Termination::NullMove
                | Termination::UnparsableMove
        );
        if on_move && side != self.board.side_to_move() {
            return Err(format!("{t} by the side not to move"));
        }
        let at_start = matches!(t, Termination::FailedStart | Termination::ConstructionLimit);
        if at_start && self.engine_moves {
            return Err(format!("{t} after the engines had played"));
        }
        let timeout = matches!(t, Termination::TimeForfeit | Termination::Stall);
        let result = if timeout && !can_possibly_mate(self.board, !side) {
            GameResult::Draw
        } else {
            GameResult::win_for(!side)
        };
        let verdict = self.expect(result, Verdict::Claimed)?;
        // A tournament from before the evidence was kept has none to show.
        if self.evidence.is_none() && rules.is_some_and(|r| !r.claims_need_evidence) {
            return Ok(verdict);
        }
        evidence::Fault {
            pgn: self.pgn,
            book: self.book,
            board: self.board,
            termination: t,
            side,
            time_control: self.time_control,
            margin: std::time::Duration::from_millis(rules.copied().unwrap_or_default().margin_ms),
        }
        .check(self.evidence)?;
        Ok(verdict)
    }

    fn expect(&self, result: GameResult, verdict: Verdict) -> Result<Verdict, String> {
        if self.result != result {
            return Err(format!(
                "{} is recorded where its moves give {result}",
                self.result
            ));
        }
        Ok(verdict)
    }
}

/// The termination the runner records for a position that ended the game.
fn board_termination(outcome: Option<Outcome>) -> Option<Termination> {
    Some(match outcome? {
        Outcome::Checkmate { .. } => Termination::Checkmate,
        Outcome::Draw(DrawReason::Stalemate) => Termination::Stalemate,
        Outcome::Draw(DrawReason::Repetition) => Termination::Repetition,
        Outcome::Draw(DrawReason::FiftyMove) => Termination::FiftyMoves,
        Outcome::Draw(DrawReason::InsufficientMaterial) => Termination::InsufficientMaterial,
    })
}

/// The verdict on each game a reader has seen, kept so a reader that rereads the store
/// (`challenge serve`'s standings, after every change) checks each game once (again when
/// an organiser sets it aside or voids it since).
#[derive(Debug, Default)]
pub struct Verdicts {
    checked: HashMap<GameId, (Verdict, Option<Aside>)>,
    tournaments: HashMap<TournamentId, Option<Tournament>>,
    openings: HashMap<SlotId, u32>,
    /// The claims awaiting confirmation, by the slot they were played for.
    claims: HashMap<SlotId, Vec<ClaimSeen>>,
}

/// A claim under `--confirm-claims` not confirmed when it was checked: what a later game
/// of its slot must claim, by a worker of another role, to confirm it.
#[derive(Debug, Clone)]
struct ClaimSeen {
    game: GameId,
    worker: String,
    claim: (Termination, Option<Color>, GameResult),
}

impl Verdicts {
    /// Checks the games of `games` not checked yet, or set aside or voided since, reading
    /// them with their PGN from `store` (from the first of them on).
    pub fn check_new(&mut self, store: &dyn Store, games: &[Game]) -> StoreResult<()> {
        let changed: Vec<&Game> = games
            .iter()
            .filter(|g| {
                self.checked
                    .get(&g.id)
                    .is_none_or(|(_, aside)| *aside != g.aside)
            })
            .collect();
        // A game voided since may have confirmed another of its slot: both again.
        let slots: HashSet<SlotId> = changed
            .iter()
            .filter(|g| self.checked.contains_key(&g.id))
            .filter_map(|g| home_slot(g))
            .collect();
        let new: HashSet<GameId> = games
            .iter()
            .filter(|g| {
                changed.iter().any(|c| c.id == g.id)
                    || home_slot(g).is_some_and(|s| slots.contains(&s))
            })
            .map(|g| g.id)
            .collect();
        for slot in &slots {
            self.claims.remove(slot);
        }
        let Some(&first) = new.iter().min() else {
            return Ok(());
        };
        let versions: HashMap<VersionId, Version> =
            store.versions()?.into_iter().map(|v| (v.id, v)).collect();
        for game in store.games_since(first)? {
            if new.contains(&game.id) {
                let verdict = self.check_one(store, &game, &versions)?;
                self.checked.insert(game.id, (verdict, game.aside));
            }
        }
        Ok(())
    }

    fn check_one(
        &mut self,
        store: &dyn Store,
        game: &Game,
        versions: &HashMap<VersionId, Version>,
    ) -> StoreResult<Verdict> {
        if game.aside == Some(Aside::Distrusted) {
            let worker = game.worker.as_deref().unwrap_or("?");
            return Ok(Verdict::Refused(format!(
                "void: the organiser distrusts its worker `{worker}`"
            )));
        }
        let (Some(white), Some(black)) = (versions.get(&game.white), versions.get(&game.black))
        else {
            return Ok(Verdict::Refused("its versions are not in the store".into()));
        };
        let (tournament, opening) = self.context(store, game)?;
        let expected = Expected {
            white,
            black,
            rules: tournament.as_ref().map(|t| &t.rules),
            opening: opening.as_ref(),
            time_control: tournament.as_ref().map(|t| t.time_control),
        };
        let verdict = check(game, &expected);
        let confirm = tournament.as_ref().is_some_and(|t| t.rules.confirm_claims);
        Ok(match verdict {
            Verdict::Claimed if confirm => self.confirmation(game),
            other => other,
        })
    }

    /// Under `--confirm-claims`: a claim an earlier game of its slot made too, by a worker
    /// of another role, is confirmed; otherwise it waits for such a game.
    fn confirmation(&mut self, game: &Game) -> Verdict {
        let worker = game.worker.clone().unwrap_or_default();
        let claim = (game.termination, game.faulty, game.result);
        let Some(slot) = home_slot(game) else {
            return Verdict::Unconfirmed;
        };
        let seen = self.claims.entry(slot).or_default();
        let confirmed_by = seen.iter().find(|c| {
            c.game < game.id && c.claim == claim && worker_role(&c.worker) != worker_role(&worker)
        });
        if let Some(by) = confirmed_by {
            return Verdict::Confirmed {
                by: by.worker.clone(),
            };
        }
        if !seen.iter().any(|c| c.game == game.id) {
            seen.push(ClaimSeen {
                game: game.id,
                worker,
                claim,
            });
        }
        Verdict::Unconfirmed
    }

    /// The tournament and the opening of a game of a tournament's slot (`None` for what
    /// is not known). A tournament is read once (its settings never change); its slots
    /// again when one is new (a Swiss round added since).
    fn context(
        &mut self,
        store: &dyn Store,
        game: &Game,
    ) -> StoreResult<(Option<Tournament>, Option<StoredOpening>)> {
        let Some(id) = game.tournament else {
            return Ok((None, None));
        };
        if let Entry::Vacant(vacant) = self.tournaments.entry(id) {
            vacant.insert(store.tournament(id)?);
        }
        let slot = home_slot(game);
        if let Some(slot) = slot
            && !self.openings.contains_key(&slot)
        {
            for s in store.slots(id)? {
                self.openings.insert(s.id, s.plan.opening);
            }
        }
        let Some(t) = &self.tournaments[&id] else {
            return Ok((None, None));
        };
        // Players take a slot's opening modulo the tournament's (`tournament.rs`, `worker.rs`).
        let opening = slot
            .and_then(|slot| self.openings.get(&slot))
            .filter(|_| !t.openings.is_empty())
            .map(|&i| t.openings[i as usize % t.openings.len()].clone());
        Ok((Some(t.clone()), opening))
    }

    /// The verdict on a game checked so far.
    pub fn get(&self, id: GameId) -> Option<&Verdict> {
        self.checked.get(&id).map(|(verdict, _)| verdict)
    }

    /// Whether a game was checked and refused.
    pub fn is_refused(&self, id: GameId) -> bool {
        matches!(self.get(id), Some(Verdict::Refused(_)))
    }

    /// Whether a game was checked and counts (see [`Verdict::counts`]).
    pub fn counts(&self, id: GameId) -> bool {
        self.get(id).is_some_and(Verdict::counts)
    }
}

/// The slot a game was played for: the one it is in, or the one it was set aside from.
fn home_slot(game: &Game) -> Option<SlotId> {
    game.slot.or(game.aside_from)
}

#[cfg(test)]
mod tests;
