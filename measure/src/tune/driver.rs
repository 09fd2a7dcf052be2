//! Playing a run's steps: `concurrency` workers take the steps in order, each once the
//! values it is built from are known, and the caller's thread applies their results in
//! step order and writes the state after each.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use super::state::{Pending, State};
use super::step::{self, Context as StepContext, Finished};
use super::{StepReport, TuneEvent};

/// The steps in flight and the state they update, shared by the workers and the applier.
struct Shared {
    state: State,
    /// The next step a worker takes.
    next: u64,
}

/// Plays the steps left on `concurrency` workers and applies their results in order.
pub(super) struct Driver<'a> {
    /// What every step shares.
    pub ctx: &'a StepContext,
    /// The state file.
    pub path: &'a Path,
    /// Steps in a row with a fault before the run stops.
    pub max_faulty: u64,
    /// Where events go.
    pub observe: &'a (dyn Fn(TuneEvent<'_>) + Sync),
}

impl Driver<'_> {
    /// Runs until the last step is applied (`Ok(false)`), `stop` is set (`Ok(true)`), or an
    /// error; the state is written after every step applied, and left in `state`.
    pub fn drive(&self, state: &mut State, stop: &AtomicBool) -> Result<bool> {
        let shared = Mutex::new(Shared {
            next: state.steps_done,
            state: state.clone(),
        });
        let (wake, halt) = (Condvar::new(), AtomicBool::new(false));
        let (tx, rx) = mpsc::channel::<Result<Finished>>();
        let workers = state.plan.concurrency;
        let outcome = std::thread::scope(|scope| {
            // Dropped last, on the way out or on a panic here (an observer that cannot
            // print): the workers stop instead of waiting for a step that never comes.
            let _halt = HaltOnDrop {
                shared: &shared,
                wake: &wake,
                halt: &halt,
            };
            for w in 0..workers {
                let tx = tx.clone();
                let (shared, wake, halt) = (&shared, &wake, &halt);
                std::thread::Builder::new()
                    .name(format!("tune-{w}"))
                    .spawn_scoped(scope, move || self.work(shared, wake, halt, &tx))
                    .expect("spawn a tuning worker");
            }
            drop(tx);
            self.apply_all(&rx, &shared, &wake, &halt, stop)
        });
        *state = shared.into_inner().unwrap_or_else(|p| p.into_inner()).state;
        outcome?;
        Ok(!state.finished())
    }

    /// A worker: takes the next step once the values it is built from are known, plays
    /// it, and sends what it finished.
    fn work(
        &self,
        shared: &Mutex<Shared>,
        wake: &Condvar,
        halt: &AtomicBool,
        tx: &mpsc::Sender<Result<Finished>>,
    ) {
        loop {
            let Some(job) = self.next_job(shared, wake, halt) else {
                return;
            };
            let finished = step::play(self.ctx, &job, halt, self.observe);
            if tx.send(finished).is_err() {
                return;
            }
        }
    }

    /// The next step to play, waiting for the values it is built from; `None` when no
    /// step is left or the run halts.
    fn next_job(
        &self,
        shared: &Mutex<Shared>,
        wake: &Condvar,
        halt: &AtomicBool,
    ) -> Option<step::Job> {
        let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if halt.load(Ordering::SeqCst) || guard.next >= guard.state.plan.steps() {
                return None;
            }
            let step = guard.next;
            if guard.state.pending.iter().any(|p| p.step == step) {
                // Finished before the run was stopped: its result is in the state.
                guard.next += 1;
                continue;
            }
            if let Some(basis) = guard.state.basis(step) {
                let job = step::Job::new(&guard.state.plan, step, basis);
                guard.next += 1;
                return Some(job);
            }
            guard = wake.wait(guard).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Receives finished steps until every worker is done, applying each in step order.
    fn apply_all(
        &self,
        rx: &mpsc::Receiver<Result<Finished>>,
        shared: &Mutex<Shared>,
        wake: &Condvar,
        halt: &AtomicBool,
        stop: &AtomicBool,
    ) -> Result<()> {
        let began = Instant::now();
        let mut games = 0u64;
        let mut failure = None;
        loop {
            if stop.load(Ordering::SeqCst) || failure.is_some() {
                halt_all(shared, wake, halt);
            }
            let finished = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(finished) => finished,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            let applied = finished.and_then(|finished| {
                if finished.interrupted {
                    return Ok(());
                }
                games += finished.games;
                for fault in &finished.faults {
                    (self.observe)(TuneEvent::Fault(fault));
                }
                let mut guard = shared.lock().unwrap_or_else(|p| p.into_inner());
                self.apply(&mut guard.state, finished, began, games)
            });
            if let Err(err) = applied {
                failure.get_or_insert(err);
                halt_all(shared, wake, halt);
            }
            wake.notify_all();
        }
        failure.map_or(Ok(()), Err)
    }

    /// Adds a finished step to the state and applies every step now in order; writes
    /// the state; an error once faults have come `max_faulty` steps in a row.
    pub fn apply(
        &self,
        state: &mut State,
        finished: Finished,
        began: Instant,
        games: u64,
    ) -> Result<()> {
        let started = Instant::now();
        state.timing.build += finished.build.as_secs_f64();
        state.timing.games += finished.play.as_secs_f64();
        state.timing.bookkeeping += finished.bookkeeping.as_secs_f64();
        state.games += finished.games;
        let last_fault = finished.faults.last().map(ToString::to_string);
        state.pending.push(Pending {
            step: finished.step,
            result: finished.result,
            faulty: !finished.faults.is_empty(),
        });
        let mut reports = Vec::new();
        while let Some(at) = state
            .pending
            .iter()
            .position(|p| p.step == state.steps_done)
        {
            let pending = state.pending.swap_remove(at);
            apply_step(state, &pending);
            reports.push(StepReport {
                steps_done: state.steps_done,
                steps: state.plan.steps(),
                pairs_done: state.pairs_done(),
                iterations: state.plan.schedule.iterations,
                values: state
                    .plan
                    .params
                    .iter()
                    .map(|p| p.name.clone())
                    .zip(state.theta.clone())
                    .collect(),
                result: pending.result,
                games_per_second: games as f64 / began.elapsed().as_secs_f64().max(1e-9),
            });
        }
        state.timing.bookkeeping += started.elapsed().as_secs_f64();
        state.write(self.path)?;
        for report in &reports {
            (self.observe)(TuneEvent::Step(report));
        }
        if state.faulty_in_a_row >= self.max_faulty.max(1) {
            bail!(
                "stopped: {} steps in a row had a game lost by an engine's fault; the last: {}; the state is kept in {}",
                state.faulty_in_a_row,
                last_fault.unwrap_or_else(|| "(in an earlier step)".into()),
                self.path.display()
            );
        }
        Ok(())
    }
}

/// Halts the workers: the flag is set under the lock the workers check it under, so none
/// can miss the wake-up between its check and its wait.
fn halt_all(shared: &Mutex<Shared>, wake: &Condvar, halt: &AtomicBool) {
    let guard = shared.lock().unwrap_or_else(|p| p.into_inner());
    halt.store(true, Ordering::SeqCst);
    drop(guard);
    wake.notify_all();
}

/// Halts the workers when dropped.
struct HaltOnDrop<'a> {
    shared: &'a Mutex<Shared>,
    wake: &'a Condvar,
    halt: &'a AtomicBool,
}

impl Drop for HaltOnDrop<'_> {
    fn drop(&mut self) {
        halt_all(self.shared, self.wake, self.halt);
    }
}

/// Applies the result of the next step in order to the state's values.
fn apply_step(state: &mut State, pending: &Pending) {
    let plan = &state.plan;
    let k = plan.first_pair(pending.step);
    let flips = step::flips(plan, pending.step);
    plan.schedule
        .update(&plan.params, &mut state.theta, k, &flips, pending.result);
    state.steps_done += 1;
    state.faulty_in_a_row = if pending.faulty {
        state.faulty_in_a_row + 1
    } else {
        0
    };
    state.remember();
}
