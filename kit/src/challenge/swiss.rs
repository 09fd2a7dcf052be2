//! Pairing one Swiss round: players sorted by score (then seed), paired from the top
//! down with the nearest-ranked opponent they have not met, backtracking when the
//! bottom of the field would otherwise be left with rematches only.
//!
//! Each pairing plays a colour-swapped pair of games, so colours need no balancing.
//! With an odd field the lowest-ranked player who has not had a bye sits out; for the
//! next pairings a bye counts as a drawn pair (1 point), not a win, so sitting out is
//! neither a reward nor a punishment.

use store::{EntryId, SlotPlan};

/// A player as the pairing sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwissPlayer {
    /// Points so far (byes included).
    pub score: f64,
    /// Starting rank: lower is seeded higher; breaks ties in score.
    pub seed: usize,
    /// Whether the player already had a bye.
    pub had_bye: bool,
}

/// A round's pairings (indices into the player list, higher-ranked first) and the
/// player with the bye, if the field is odd.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Round {
    /// Who plays whom.
    pub pairs: Vec<(usize, usize)>,
    /// Who sits out.
    pub bye: Option<usize>,
    /// How many pairings are rematches (only when no other pairing exists).
    pub rematches: usize,
}

/// How many backtracking steps to try before settling for rematches.
const BUDGET: u64 = 200_000;

/// Pairs a round. `met(a, b)` says whether players `a` and `b` have played each other.
///
/// ```ignore
/// let players = vec![SwissPlayer { score: 0.0, seed: 0, had_bye: false }; 4];
/// let round = pair_round(&players, |_, _| false);
/// assert_eq!(round.pairs, [(0, 1), (2, 3)]);
/// ```
pub fn pair_round(players: &[SwissPlayer], met: impl Fn(usize, usize) -> bool) -> Round {
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by(|&a, &b| {
        players[b]
            .score
            .total_cmp(&players[a].score)
            .then(players[a].seed.cmp(&players[b].seed))
    });
    let mut bye = None;
    if order.len() % 2 == 1 {
        let pos = order
            .iter()
            .rposition(|&i| !players[i].had_bye)
            .unwrap_or(order.len() - 1);
        bye = Some(order.remove(pos));
    }
    let mut used = vec![false; order.len()];
    let mut chosen = Vec::with_capacity(order.len() / 2);
    let mut budget = BUDGET;
    let found = search(&order, &met, &mut used, &mut chosen, &mut budget, 0);
    if !found {
        chosen = greedy(&order, &met);
    }
    let rematches = chosen.iter().filter(|&&(a, b)| met(a, b)).count();
    Round {
        pairs: chosen,
        bye,
        rematches,
    }
}

/// Depth-first: the first unpaired player (in rank order) takes the nearest-ranked
/// opponent it has not met; on a dead end, the next one.
fn search(
    order: &[usize],
    met: &impl Fn(usize, usize) -> bool,
    used: &mut [bool],
    chosen: &mut Vec<(usize, usize)>,
    budget: &mut u64,
    from: usize,
) -> bool {
    let Some(first) = (from..order.len()).find(|&k| !used[k]) else {
        return true;
    };
    used[first] = true;
    for k in first + 1..order.len() {
        if used[k] || met(order[first], order[k]) {
            continue;
        }
        if *budget == 0 {
            break;
        }
        *budget -= 1;
        used[k] = true;
        chosen.push((order[first], order[k]));
        if search(order, met, used, chosen, budget, first + 1) {
            return true;
        }
        chosen.pop();
        used[k] = false;
    }
    used[first] = false;
    false
}

/// The fallback: nearest unmet opponent if any, else the nearest one.
fn greedy(order: &[usize], met: &impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let mut used = vec![false; order.len()];
    let mut out = Vec::new();
    for first in 0..order.len() {
        if used[first] {
            continue;
        }
        used[first] = true;
        let free = (first + 1..order.len()).filter(|&k| !used[k]);
        let pick = free
            .clone()
            .find(|&k| !met(order[first], order[k]))
            .or_else(|| free.clone().next());
        if let Some(k) = pick {
            used[k] = true;
            out.push((order[first], order[k]));
        }
    }
    out
}

/// The slots of one round's `pairs` (indices into `entries`): each pairing a
/// colour-swapped pair of games numbered from `first_pair`, all from opening `round`
/// (modulo the tournament's `openings`).
pub(crate) fn round_slots(
    pairs: &[(usize, usize)],
    entries: &[EntryId],
    round: u32,
    first_pair: u32,
    openings: usize,
) -> Vec<SlotPlan> {
    let mut slots = Vec::new();
    for (k, &(a, b)) in pairs.iter().enumerate() {
        for (game_in_pair, (w, bl)) in [(a, b), (b, a)].into_iter().enumerate() {
            slots.push(SlotPlan {
                round,
                pair: first_pair + k as u32,
                game_in_pair: game_in_pair as u32,
                white: entries[w],
                black: entries[bl],
                opening: round % openings.max(1) as u32,
            });
        }
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_slots_swap_colours_within_a_pair() {
        let entries = [10, 11, 12, 13].map(EntryId);
        let slots = round_slots(&[(0, 1), (2, 3)], &entries, 2, 5, 8);
        assert_eq!(slots.len(), 4);
        assert_eq!((slots[0].white, slots[0].black), (entries[0], entries[1]));
        assert_eq!((slots[1].white, slots[1].black), (entries[1], entries[0]));
        assert_eq!((slots[2].pair, slots[3].pair), (6, 6));
        assert!(slots.iter().all(|s| s.opening == 2 && s.round == 2));
    }

    fn field(scores: &[f64]) -> Vec<SwissPlayer> {
        scores
            .iter()
            .enumerate()
            .map(|(seed, &score)| SwissPlayer {
                score,
                seed,
                had_bye: false,
            })
            .collect()
    }

    #[test]
    fn pairs_by_score_then_seed() {
        let players = field(&[0.0, 2.0, 1.0, 2.0]);
        let round = pair_round(&players, |_, _| false);
        assert_eq!(round.pairs, [(1, 3), (2, 0)]);
        assert_eq!(round.bye, None);
    }

    #[test]
    fn avoids_rematches_by_backtracking() {
        // 0-1 and 2-3 met; 0-2 is the nearest fresh pairing, leaving 1-3.
        let players = field(&[0.0; 4]);
        let met = |a: usize, b: usize| matches!((a.min(b), a.max(b)), (0, 1) | (2, 3));
        let round = pair_round(&players, met);
        assert_eq!(round.pairs, [(0, 2), (1, 3)]);
        assert_eq!(round.rematches, 0);
        // Backtracking: 0-1 is fresh, but then 2-3 would be a rematch; 0-2 met too.
        let met = |a: usize, b: usize| matches!((a.min(b), a.max(b)), (0, 2) | (2, 3));
        let round = pair_round(&players, met);
        assert_eq!(round.pairs, [(0, 3), (1, 2)]);
        assert_eq!(round.rematches, 0);
    }

    #[test]
    fn rematches_only_when_unavoidable() {
        let players = field(&[0.0; 2]);
        let round = pair_round(&players, |_, _| true);
        assert_eq!(round.pairs, [(0, 1)]);
        assert_eq!(round.rematches, 1);
    }

    #[test]
    fn odd_field_gives_the_bye_to_the_lowest_without_one() {
        let mut players = field(&[2.0, 1.0, 0.0]);
        players[2].had_bye = true;
        let round = pair_round(&players, |_, _| false);
        assert_eq!(round.bye, Some(1));
        assert_eq!(round.pairs, [(0, 2)]);
    }

    #[test]
    fn a_simulated_event_never_rematches_while_fresh_opponents_remain() {
        // 20 players, 9 rounds: a round-robin would need 19, so fresh opponents always exist.
        let n = 20;
        let mut players = field(&vec![0.0; n]);
        let mut met = vec![false; n * n];
        let mut state = 12345u64;
        for _ in 0..9 {
            let round = pair_round(&players, |a, b| met[a * n + b]);
            assert_eq!(round.rematches, 0);
            assert_eq!(round.pairs.len(), n / 2);
            for &(a, b) in &round.pairs {
                met[a * n + b] = true;
                met[b * n + a] = true;
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let score = [0.0, 1.0, 2.0][(state >> 33) as usize % 3];
                players[a].score += score;
                players[b].score += 2.0 - score;
            }
        }
        let games: usize = met.iter().filter(|&&m| m).count() / 2;
        assert_eq!(games, 9 * n / 2, "every pairing was a new one");
    }

    #[test]
    fn everyone_is_paired_exactly_once_in_a_large_field() {
        let players = field(&(0..601).map(|i| (i % 7) as f64).collect::<Vec<_>>());
        let met = |a: usize, b: usize| (a + b).is_multiple_of(3);
        let round = pair_round(&players, met);
        let mut seen = vec![0; 601];
        for &(a, b) in &round.pairs {
            seen[a] += 1;
            seen[b] += 1;
        }
        seen[round.bye.unwrap()] += 1;
        assert!(seen.iter().all(|&n| n == 1));
        assert_eq!(round.rematches, 0);
    }
}
