//! Match statistics against figures computed by hand from the textbook formulas.

use runner::{Sprt, SprtState, Stats};

fn close(actual: f64, expected: f64, tolerance: f64) {
    assert!(
        (actual - expected).abs() <= tolerance,
        "expected {expected}, got {actual}"
    );
}

fn wdl(wins: u64, draws: u64, losses: u64) -> Stats {
    Stats {
        wins,
        draws,
        losses,
        ..Stats::default()
    }
}

#[test]
fn trinomial_elo_interval_nelo_and_los() {
    // 60 wins, 20 draws, 20 losses: score 0.7, per-game variance 0.16, so the score's
    // standard error is 0.04 and the 95% interval 0.7 ± 0.0784.
    let e = wdl(60, 20, 20).elo_wdl().unwrap();
    close(e.score, 0.7, 1e-12);
    close(e.elo, 147.19, 0.01); // -400 log10(1/0.7 - 1)
    close(e.error, 66.01, 0.01); // (elo(0.7784) - elo(0.6216)) / 2
    close(e.nelo, 173.72, 0.01); // 0.2 / 0.4 * 800 / ln 10
    close(e.nelo_error, 68.10, 0.01);
    close(e.los, 1.0, 1e-6);

    let even = wdl(30, 40, 30).elo_wdl().unwrap();
    close(even.elo, 0.0, 1e-9);
    close(even.error, 53.16, 0.01);
    close(even.los, 0.5, 1e-12);

    let behind = wdl(11, 35, 14).elo_wdl().unwrap();
    close(behind.score, 0.475, 1e-12);
    close(behind.elo, -17.39, 0.01);
    close(behind.error, 57.23, 0.01);
    close(behind.nelo, -26.99, 0.01);
    close(behind.los, 0.2737, 1e-4);
    close(wdl(11, 35, 14).draw_ratio(), 35.0 / 60.0, 1e-12);
}

#[test]
fn pentanomial_elo_uses_pair_variance() {
    let s = Stats {
        penta: [3, 10, 20, 12, 5],
        ..Stats::default()
    };
    assert_eq!(s.pairs(), 50);
    let e = s.elo_penta().unwrap();
    close(e.score, 0.53, 1e-12);
    close(e.elo, 20.87, 0.01);
    close(e.error, 50.24, 0.01);
    close(e.nelo, 28.56, 0.01);
    close(e.nelo_error, 68.10, 0.01);
    close(e.los, 0.7945, 1e-4);
}

#[test]
fn pairs_are_classified_from_the_players_view() {
    let mut s = Stats::default();
    for (a, b) in [
        (1.0, 1.0),
        (1.0, 0.5),
        (1.0, 0.0),
        (0.5, 0.5),
        (0.0, 0.5),
        (0.0, 0.0),
        (0.5, 1.0),
    ] {
        s.add_game(a);
        s.add_game(b);
        s.add_pair(a, b);
    }
    assert_eq!(s.penta, [1, 1, 2, 2, 1]);
    assert_eq!(s.pairs_wl, 1);
    assert_eq!((s.wins, s.draws, s.losses), (5, 5, 4));
    assert_eq!(s.flipped().penta, [1, 2, 2, 1, 1]);
}

#[test]
fn sprt_bounds_and_llr_match_the_normal_approximation() {
    let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap();
    close(sprt.lower_bound(), (0.05f64 / 0.95).ln(), 1e-12);
    close(sprt.upper_bound(), (0.95f64 / 0.05).ln(), 1e-12);
    // For small Elo differences the GSPRT's LLR is close to
    // N (t1 - t0)(2t - t0 - t1) / 2 with t the normalized score of a pair.
    let s = Stats {
        penta: [10, 40, 100, 60, 20],
        ..Stats::default()
    };
    let n = 230.0;
    let mu = s.elo_penta().unwrap().score;
    let var: f64 = [0.0, 0.25, 0.5, 0.75, 1.0]
        .iter()
        .zip(s.penta)
        .map(|(x, c)| c as f64 / n * (x - mu) * (x - mu))
        .sum();
    let t = (mu - 0.5) / var.sqrt();
    let t1 = 2f64.sqrt() * 5.0 / (800.0 / 10f64.ln());
    let approx = n * t1 * (2.0 * t - t1) / 2.0;
    close(sprt.llr(&s), approx, 0.03);
    assert_eq!(sprt.state(sprt.llr(&s)), SprtState::Continue);
    // An equal match drifts towards H0.
    let even = Stats {
        penta: [20, 80, 200, 80, 20],
        ..Stats::default()
    };
    assert!(sprt.llr(&even) < 0.0);
    assert_eq!(sprt.state(-3.0), SprtState::AcceptH0);
    assert_eq!(sprt.state(3.0), SprtState::AcceptH1);
}

#[test]
fn sprt_rejects_nonsense_parameters() {
    assert!(Sprt::new(5.0, 0.0, 0.05, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.0, 0.05).is_err());
    assert!(Sprt::new(0.0, 5.0, 0.6, 0.5).is_err());
}
