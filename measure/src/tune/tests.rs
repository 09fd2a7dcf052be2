//! Unit tests of the tuner's arithmetic, plan, state and bookkeeping; the end-to-end run
//! (builds and games) is `tests/e2e/tune.rs`.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::driver::Driver;
use super::spsa::{Param, Schedule};
use super::state::{Pending, Plan, State, TuneLimit};
use super::step::{self, Finished, Job};
use super::*;

fn param(name: &str, min: f64, max: f64, start: f64) -> Param {
    Param {
        name: name.into(),
        min,
        max,
        start,
        integer: true,
        c_end: (max - min) / 20.0,
        r_end: 0.002,
    }
}

fn plan(iterations: u64, pairs: u64, concurrency: usize) -> Plan {
    Plan {
        schedule: Schedule::fishtest(iterations, 0.1),
        pairs,
        concurrency,
        seed: 7,
        limit: TuneLimit::Nodes(1000),
        params: vec![
            param("KNIGHT", 100.0, 500.0, 100.0),
            param("BISHOP", 200.0, 400.0, 320.0),
        ],
    }
}

/// A scratch directory of the test's own.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kit-tune-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_gains_end_at_c_end_and_r_end_and_decay_from_the_start() {
    let p = Param {
        c_end: 20.0,
        r_end: 0.05,
        ..param("K", 0.0, 400.0, 200.0)
    };
    let s = Schedule::fishtest(400, 0.1);
    assert_eq!(s.big_a, 40.0);
    assert!((s.c_k(&p, 400) - 20.0).abs() < 1e-9);
    assert!((s.a_k(&p, 400) / s.c_k(&p, 400).powi(2) - 0.05).abs() < 1e-12);
    assert!(s.c_k(&p, 1) > s.c_k(&p, 2) && s.c_k(&p, 2) > s.c_k(&p, 400));
    assert!(s.a_k(&p, 1) > s.a_k(&p, 2) && s.a_k(&p, 2) > s.a_k(&p, 400));
    // c_1 = c_end N^gamma; a_1 = r_end c_end^2 ((A + N) / (A + 1))^alpha.
    assert!((s.c_k(&p, 1) - 20.0 * 400f64.powf(0.101)).abs() < 1e-9);
    assert!((s.a_k(&p, 1) - 0.05 * 400.0 * (440.0f64 / 41.0).powf(0.602)).abs() < 1e-9);
}

#[test]
fn probes_move_each_constant_by_its_flip_and_stay_within_bounds() {
    let plan = plan(100, 1, 1);
    let s = plan.schedule;
    let theta = [100.0, 300.0];
    let [plus, minus] = s.probes(&plan.params, &theta, 1, &[1, -1]);
    let (c0, c1) = (s.c_k(&plan.params[0], 1), s.c_k(&plan.params[1], 1));
    assert_eq!(plus, [100.0 + c0, 300.0 - c1]);
    // KNIGHT sits on its lower bound: its minus probe is clamped there.
    assert_eq!(minus, [100.0, 300.0 + c1]);
}

#[test]
fn the_update_follows_the_winner_and_stops_at_the_bounds() {
    let plan = plan(100, 1, 1);
    let s = plan.schedule;
    let mut theta = vec![200.0, 300.0];
    s.update(&plan.params, &mut theta, 1, &[1, -1], 2);
    assert!(theta[0] > 200.0 && theta[1] < 300.0, "{theta:?}");
    let step = s.a_k(&plan.params[0], 1) / s.c_k(&plan.params[0], 1) * 2.0;
    assert!((theta[0] - (200.0 + step)).abs() < 1e-9);
    let mut theta = vec![200.0, 300.0];
    s.update(&plan.params, &mut theta, 1, &[1, 1], 0);
    assert_eq!(theta, [200.0, 300.0], "a drawn pair moves nothing");
    s.update(&plan.params, &mut theta, 1, &[-1, 1], 1_000_000);
    assert_eq!(theta, [100.0, 400.0]);
}

#[test]
fn steps_cover_the_pairs_and_the_last_takes_what_is_left() {
    let plan = plan(10, 3, 1);
    assert_eq!(plan.steps(), 4);
    assert_eq!((plan.first_pair(0), plan.first_pair(3)), (1, 10));
    assert_eq!((plan.pairs_in(0), plan.pairs_in(3)), (3, 1));
}

#[test]
fn flips_and_openings_come_from_the_seed_and_the_step_alone() {
    let plan = plan(1000, 2, 1);
    let flips: Vec<Vec<i8>> = (0..200).map(|s| step::flips(&plan, s)).collect();
    assert_eq!(
        flips,
        (0..200).map(|s| step::flips(&plan, s)).collect::<Vec<_>>()
    );
    for index in 0..2 {
        let ups = flips.iter().filter(|f| f[index] == 1).count();
        assert!((60..=140).contains(&ups), "{ups} of 200 flips up");
    }
    let other = Plan {
        seed: 8,
        ..plan.clone()
    };
    assert_ne!(
        flips,
        (0..200).map(|s| step::flips(&other, s)).collect::<Vec<_>>()
    );
    let basis = [150.0, 300.0];
    assert_eq!(
        format!("{:?}", Job::new(&plan, 5, &basis)),
        format!("{:?}", Job::new(&plan, 5, &basis))
    );
    assert_ne!(
        format!("{:?}", Job::new(&plan, 5, &basis)),
        format!("{:?}", Job::new(&plan, 6, &basis))
    );
}

#[test]
fn a_step_is_built_from_the_values_concurrency_steps_before_it() {
    let mut state = State::new("b.rs".into(), "00".into(), plan(100, 1, 2));
    assert_eq!(state.basis(0), Some(&vec![100.0, 320.0]));
    assert_eq!(state.basis(1), Some(&vec![100.0, 320.0]));
    assert_eq!(state.basis(2), None, "step 3 waits for step 1");
    state.theta = vec![110.0, 320.0];
    state.steps_done = 1;
    state.remember();
    assert_eq!(state.basis(1), Some(&vec![100.0, 320.0]));
    assert_eq!(state.basis(2), Some(&vec![110.0, 320.0]));
    state.theta = vec![120.0, 320.0];
    state.steps_done = 2;
    state.remember();
    assert_eq!(state.recent.keys().copied().collect::<Vec<_>>(), [1, 2]);
    assert_eq!(state.basis(3), Some(&vec![120.0, 320.0]));
}

#[test]
fn a_state_reads_back_as_written() {
    let dir = scratch("roundtrip");
    let path = dir.join("s.json");
    let mut state = State::new("b.rs".into(), "00".into(), plan(100, 1, 2));
    state.pending.push(Pending {
        step: 1,
        result: -2,
        faulty: true,
    });
    state.write(&path).unwrap();
    assert_eq!(State::read(&path).unwrap(), state);
    let leftovers: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "only the state is left: {leftovers:?}");
}

/// Writes `state` after `edit` to a file and returns the refusal of reading it back.
fn refusal(edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let dir = scratch("refusal");
    let path = dir.join("s.json");
    let state = State::new("b.rs".into(), "00".into(), plan(100, 1, 2));
    let mut json = serde_json::to_value(&state).unwrap();
    edit(&mut json);
    fs::write(&path, json.to_string()).unwrap();
    format!("{:#}", State::read(&path).unwrap_err())
}

#[test]
fn a_state_that_does_not_hold_together_is_refused_with_its_cause() {
    let out = refusal(|s| s["theta"][0] = 900.0.into());
    assert!(out.contains("current values do not fit"), "{out}");
    let out = refusal(|s| s["format"] = 2.into());
    assert!(out.contains("its format is 2"), "{out}");
    let out = refusal(|s| s["plan"]["pairs"] = 0.into());
    assert!(out.contains("pairs per step must be from 1"), "{out}");
    let out = refusal(|s| s["plan"]["params"][0]["c_end"] = (-1.0).into());
    assert!(out.contains("c_end must be above 0"), "{out}");
    let out = refusal(|s| s["recent"] = serde_json::json!({}));
    assert!(
        out.contains("lacks the values step 1 is built from"),
        "{out}"
    );
    let out =
        refusal(|s| s["pending"] = serde_json::json!([{"step": 0, "result": 1, "faulty": false}]));
    assert!(out.contains("waiting results"), "{out}");
    let out = refusal(|s| s["steps_done"] = 101.into());
    assert!(out.contains("101 steps applied of 100"), "{out}");
    let out = refusal(|s| s["plan"]["limit"] = serde_json::json!({"tc": "fast"}));
    assert!(out.contains("invalid time control `fast`"), "{out}");
    let out = refusal(|s| *s = serde_json::json!([1, 2]));
    assert!(out.contains("not a state this kit wrote"), "{out}");
}

#[test]
fn a_huge_state_file_is_refused_unread() {
    let dir = scratch("huge");
    let path = dir.join("s.json");
    let file = fs::File::create(&path).unwrap();
    file.set_len(state::MAX_STATE_BYTES + 1).unwrap();
    let out = format!("{:#}", State::read(&path).unwrap_err());
    assert!(out.contains("more than a state can be"), "{out}");
}

const BOT: &str = "use framework::prelude::*;\nconst KNIGHT: i32 = 100; // tune 100..=500\nconst BISHOP: i32 = 320; // tune 200..=400\nconst DEPTH: i32 = 3; // vary 1..=4\n";

fn bot_file(dir: &Path, source: &str) -> BotFile {
    let path = dir.join("b.rs");
    fs::write(&path, source).unwrap();
    BotFile {
        name: "b".into(),
        path,
    }
}

#[test]
fn the_tune_marks_are_the_parameters_with_their_settings() {
    let dir = scratch("params");
    let bot = bot_file(&dir, BOT);
    let mut request = TuneRequest::new("b");
    request.c_end = vec![(None, 30.0), (Some("BISHOP".into()), 5.0)];
    request.r_end = vec![(Some("KNIGHT".into()), 0.1)];
    let found = params(&bot, BOT, &request).unwrap();
    assert_eq!(found.len(), 2, "the vary mark is no parameter");
    assert_eq!((found[0].c_end, found[0].r_end), (30.0, 0.1));
    assert_eq!((found[1].c_end, found[1].r_end), (5.0, 0.002));
    assert_eq!(
        (found[1].min, found[1].max, found[1].start),
        (200.0, 400.0, 320.0)
    );
    let defaults = params(&bot, BOT, &TuneRequest::new("b")).unwrap();
    assert_eq!((defaults[0].c_end, defaults[1].c_end), (20.0, 10.0));
}

/// A narrow integer range (`tune 0..=8`) took c_end = 8/20 = 0.4: both players were
/// built with the same rounded value, every step's result was +0, and the constant
/// never moved.
#[test]
fn a_narrow_integer_range_still_gets_two_players_that_differ() {
    let dir = scratch("narrow");
    let narrow = "const K: i32 = 4; // tune 0..=8\n";
    let found = params(&bot_file(&dir, narrow), narrow, &TuneRequest::new("b")).unwrap();
    assert_eq!(found[0].c_end, 1.0);
    let schedule = Schedule::fishtest(500, 0.1);
    for k in [1, 100, 499, 500] {
        for theta in [0.0, 4.0, 4.3, 4.5, 8.0] {
            let [plus, minus] = schedule.probes(&found, &[theta], k, &[1]);
            let built = |v: &[f64]| spsa::variant_value(&found[0], v[0]);
            assert_ne!(built(&plus), built(&minus), "pair {k} at {theta}");
        }
    }
    // Given by hand under 0.5, it is run as asked, with a warning saying why it stays.
    let mut request = TuneRequest::new("b");
    request.c_end = vec![(None, 0.3)];
    let found = params(&bot_file(&dir, narrow), narrow, &request).unwrap();
    let plan = Plan {
        params: found,
        ..plan(10, 1, 1)
    };
    let bot = bot_file(&dir, narrow);
    let said = TuneEvent::Began {
        bot: &bot,
        plan: &plan,
        state: Path::new("s.json"),
        resumed: None,
    }
    .to_string();
    assert!(
        said.contains("c_end under 0.5") && said.contains("--c-end K=1"),
        "{said}"
    );
}

#[test]
fn bad_parameters_are_refused_with_their_cause() {
    let dir = scratch("bad_params");
    let plain = "const DEPTH: i32 = 3; // vary 1..=4\n";
    let out = format!(
        "{:#}",
        params(&bot_file(&dir, plain), plain, &TuneRequest::new("b")).unwrap_err()
    );
    assert!(out.contains("has no `// tune MIN..=MAX` mark"), "{out}");
    let outside = "const KNIGHT: i32 = 50; // tune 100..=500\n";
    let out = format!(
        "{:#}",
        params(&bot_file(&dir, outside), outside, &TuneRequest::new("b")).unwrap_err()
    );
    assert!(out.contains("KNIGHT") && out.contains("100..=500"), "{out}");
    let mut request = TuneRequest::new("b");
    request.c_end = vec![(Some("ROOK".into()), 3.0)];
    let out = format!(
        "{:#}",
        params(&bot_file(&dir, BOT), BOT, &request).unwrap_err()
    );
    assert!(
        out.contains("`ROOK` is not a tuned constant") && out.contains("KNIGHT, BISHOP"),
        "{out}"
    );
    request.c_end = vec![(None, 1000.0)];
    let out = format!(
        "{:#}",
        params(&bot_file(&dir, BOT), BOT, &request).unwrap_err()
    );
    assert!(
        out.contains("c_end must be above 0 and at most the range's width 400"),
        "{out}"
    );
}

#[test]
fn a_resumed_run_refuses_settings_other_than_its_own() {
    let plan = plan(100, 1, 2);
    let mut request = TuneRequest::new("b");
    assert!(differences(&plan, &plan.params, &request).is_empty());
    request.iterations = Some(100);
    request.limit = Some(TuneLimit::Nodes(1000));
    assert!(
        differences(&plan, &plan.params, &request).is_empty(),
        "the same values agree"
    );
    request.iterations = Some(200);
    request.concurrency = Some(3);
    request.limit = Some(TuneLimit::Tc("2+0.02".into()));
    let mut changed = plan.params.clone();
    changed[0].c_end = 50.0;
    request.c_end = vec![(Some("KNIGHT".into()), 50.0)];
    let differ = differences(&plan, &changed, &request);
    assert_eq!(
        differ,
        [
            "--iterations 200 (state: 100)",
            "-j 3 (state: 2)",
            "limit --tc 2+0.02 (state: --nodes 1000)",
            "--c-end KNIGHT 50 (state: 20)"
        ]
    );
}

/// A driver whose steps are never played: for the bookkeeping of finished steps.
fn applied_in(order: &[u64], results: &[i64]) -> State {
    let dir = scratch("apply");
    let bot = bot_file(&dir, BOT);
    let plan = Plan {
        concurrency: 3,
        ..plan(10, 1, 3)
    };
    let ctx = StepContext::new(&bot, BOT, &plan, LimitPolicy::Enforce).unwrap();
    let path = dir.join("s.json");
    let driver = Driver {
        ctx: &ctx,
        path: &path,
        max_faulty: 3,
        observe: &|_| {},
    };
    let mut state = State::new("b.rs".into(), "00".into(), plan);
    for &step in order {
        let finished = Finished {
            step,
            result: results[step as usize],
            faults: Vec::new(),
            interrupted: false,
            games: 2,
            build: Duration::from_millis(500),
            play: Duration::from_millis(250),
            bookkeeping: Duration::ZERO,
        };
        driver
            .apply(&mut state, finished, Instant::now(), 2)
            .unwrap();
    }
    assert_eq!(
        State::read(&path).unwrap(),
        state,
        "the state file is the state"
    );
    state
}

#[test]
fn results_apply_in_step_order_whatever_finishes_first() {
    let results = [2, -1, 1];
    let in_order = applied_in(&[0, 1, 2], &results);
    let mixed = applied_in(&[2, 0, 1], &results);
    assert_eq!(in_order.theta, mixed.theta);
    assert_eq!((mixed.steps_done, mixed.games), (3, 6));
    assert!(mixed.pending.is_empty());
    assert_eq!((mixed.timing.build, mixed.timing.games), (1.5, 0.75));
    let waiting = applied_in(&[2, 1], &results);
    assert_eq!(waiting.steps_done, 0, "step 1 has not finished");
    assert_eq!(waiting.pending.len(), 2);
    assert_eq!(waiting.theta, [100.0, 320.0]);
}

#[test]
fn faults_in_max_faulty_steps_in_a_row_stop_the_run_and_keep_the_state() {
    let dir = scratch("faults");
    let bot = bot_file(&dir, BOT);
    let plan = plan(10, 1, 1);
    let ctx = StepContext::new(&bot, BOT, &plan, LimitPolicy::Enforce).unwrap();
    let path = dir.join("s.json");
    let driver = Driver {
        ctx: &ctx,
        path: &path,
        max_faulty: 2,
        observe: &|_| {},
    };
    let mut state = State::new("b.rs".into(), "00".into(), plan);
    let fault = Fault {
        step: 1,
        players: ["b@KNIGHT=130".into(), "b@KNIGHT=100".into()],
        engine: "b@KNIGHT=130".into(),
        termination: "crash".into(),
        detail: "White (b@KNIGHT=130) crashed".into(),
        stderr: vec!["thread 'main' panicked".into()],
    };
    let finished = |step: u64, faults: Vec<Fault>| Finished {
        step,
        result: -1,
        faults,
        interrupted: false,
        games: 2,
        build: Duration::ZERO,
        play: Duration::ZERO,
        bookkeeping: Duration::ZERO,
    };
    driver
        .apply(
            &mut state,
            finished(0, vec![fault.clone()]),
            Instant::now(),
            2,
        )
        .unwrap();
    driver
        .apply(&mut state, finished(1, Vec::new()), Instant::now(), 4)
        .unwrap();
    driver
        .apply(
            &mut state,
            finished(2, vec![fault.clone()]),
            Instant::now(),
            6,
        )
        .unwrap();
    let err = driver
        .apply(&mut state, finished(3, vec![fault]), Instant::now(), 8)
        .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("2 steps in a row") && text.contains("b@KNIGHT=130 lost by crash"),
        "{text}"
    );
    assert!(
        text.contains("panicked") && text.contains(&path.display().to_string()),
        "{text}"
    );
    assert_eq!(
        State::read(&path).unwrap().steps_done,
        4,
        "the faulty steps are kept"
    );
}

#[test]
fn the_tuned_file_changes_the_marked_literals_alone_and_the_diff_shows_them() {
    let dir = scratch("tuned");
    let bot = bot_file(&dir, BOT);
    let mut state = State::new("b.rs".into(), "00".into(), plan(10, 1, 1));
    state.theta = vec![286.6, 320.2];
    let tuned = write_tuned(&bot, BOT, &state).unwrap();
    assert_eq!(tuned.path, dir.join("b.tuned.rs"));
    assert_eq!(
        fs::read_to_string(&tuned.path).unwrap(),
        BOT.replace("= 100;", "= 287;")
    );
    assert_eq!(
        tuned.values,
        [
            ("KNIGHT".into(), "287".into()),
            ("BISHOP".into(), "320".into())
        ]
    );
    assert!(tuned.diff.contains("\n-const KNIGHT: i32 = 100; // tune 100..=500\n+const KNIGHT: i32 = 287; // tune 100..=500\n"), "{}", tuned.diff);
    assert!(
        !tuned.diff.contains("BISHOP") && !tuned.diff.contains("DEPTH"),
        "{}",
        tuned.diff
    );
}

#[test]
fn the_sprt_command_names_the_tuned_file_first_at_the_runs_limit() {
    let command = sprt_command(
        Path::new("/b/x.tuned.rs"),
        Path::new("/b/x.rs"),
        &TuneLimit::Nodes(800),
    );
    assert_eq!(
        command[..5],
        ["match", "/b/x.tuned.rs", "/b/x.rs", "--nodes", "800"]
    );
    assert!(command.contains(&"--sprt".to_string()));
}

#[test]
fn a_second_run_on_one_state_is_refused_while_the_first_holds_it() {
    let dir = scratch("lock");
    let path = dir.join("s.json");
    let held = lock_state(&path, "challenge tune").unwrap();
    let out = format!("{:#}", lock_state(&path, "challenge tune").unwrap_err());
    assert!(
        out.contains("another `challenge tune` is using the state"),
        "{out}"
    );
    drop(held);
    assert!(lock_state(&path, "challenge tune").is_ok());
}

#[test]
fn a_variant_that_cannot_be_made_is_refused_naming_its_step() {
    let dir = scratch("halted");
    let source =
        "use framework::prelude::*;\nconst KNIGHT: i32 = 100; // tune 100..=500\nfn broken( {}\n";
    let bot = bot_file(&dir, source);
    let plan = plan(10, 1, 1);
    let plan = Plan {
        params: plan.params[..1].to_vec(),
        ..plan
    };
    // A file that does not parse has no marks to write a variant from.
    let ctx = StepContext::new(&bot, source, &plan, LimitPolicy::Enforce).unwrap();
    let job = Job::new(&plan, 0, &[100.0]);
    let out = format!(
        "{:#}",
        step::play(&ctx, &job, &AtomicBool::new(true), &|_| {}).unwrap_err()
    );
    assert!(out.contains("cannot make θ+ of step 1 (KNIGHT="), "{out}");
}
