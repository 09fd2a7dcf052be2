use super::*;
use crate::limits::client_key;

fn key(ip: &str) -> ClientKey {
    client_key(ip.parse().unwrap())
}

/// Whether `ticket` was given a builder (without waiting for one).
fn has_turn(ticket: &mut Ticket) -> bool {
    ticket
        .turn
        .as_mut()
        .is_some_and(|turn| matches!(turn.try_recv(), Ok(Turn::Build)))
}

/// Whether `ticket` was displaced.
fn displaced(ticket: &mut Ticket) -> bool {
    ticket.turn.as_mut().is_some_and(|turn| {
        matches!(
            turn.try_recv(),
            Ok(Turn::Displaced) | Err(oneshot::error::TryRecvError::Closed)
        )
    })
}

#[test]
fn one_64_shares_one_bound_and_the_total_is_bounded() {
    let queue = BuildQueue::new(3, 2, 1);
    let a = queue.admit(key("2001:db8::1")).unwrap();
    let _b = queue.admit(key("2001:db8::ffff:2")).unwrap();
    assert_eq!(
        queue.admit(key("2001:db8:0:0:8000::3")).unwrap_err(),
        QueueFull::Client
    );
    let _c = queue.admit(key("192.0.2.1")).unwrap();
    // Full: the /64 with two pending gives its waiting one's place to a newcomer...
    let _d = queue.admit(key("192.0.2.2")).expect("room made");
    // ...but one submission each is no more than a newcomer's: full for real.
    assert_eq!(
        queue.admit(key("192.0.2.3")).unwrap_err(),
        QueueFull::Server
    );
    drop(a);
    assert_eq!(queue.pending(), 2);
    assert!(queue.admit(key("192.0.2.3")).is_ok());
}

#[tokio::test]
async fn a_newcomer_is_next_after_the_build_in_progress() {
    let queue = BuildQueue::new(32, 4, 1);
    let flood = key("2001:db8::1");
    let mut first = queue.admit(flood).unwrap();
    first.wait_turn().await.unwrap();
    let mut waiting: Vec<_> = (0..3).map(|_| queue.admit(flood).unwrap()).collect();
    let mut honest = queue.admit(key("192.0.2.7")).unwrap();
    drop(first);
    assert!(
        has_turn(&mut honest),
        "the newcomer goes before the flood's second"
    );
    assert!(!waiting.iter_mut().any(has_turn));
    drop(honest);
    assert_eq!(
        waiting
            .iter_mut()
            .map(has_turn)
            .filter(|&turn| turn)
            .count(),
        1
    );
}

#[test]
fn a_network_that_has_built_goes_behind_one_that_has_not() {
    let queue = BuildQueue::new(32, 4, 1);
    let mut busy = queue.admit(key("192.0.2.1")).unwrap();
    assert!(has_turn(&mut busy));
    // Built for a while: its network has used build time.
    std::thread::sleep(Duration::from_millis(30));
    let mut again = queue.admit(key("192.0.2.1")).unwrap();
    let mut fresh = queue.admit(key("192.0.2.2")).unwrap();
    drop(busy);
    assert!(
        has_turn(&mut fresh),
        "a fresh network first, though it came later"
    );
    assert!(!has_turn(&mut again));
}

#[test]
fn the_64s_of_one_56_share_their_build_time() {
    let queue = BuildQueue::new(32, 4, 1);
    let mut busy = queue.admit(key("2001:db8:0:1::1")).unwrap();
    assert!(has_turn(&mut busy));
    std::thread::sleep(Duration::from_millis(30));
    let mut sibling = queue.admit(key("2001:db8:0:2::1")).unwrap();
    let mut other = queue.admit(key("2001:db8:1::1")).unwrap();
    drop(busy);
    assert!(has_turn(&mut other), "another /56 goes first");
    assert!(
        !has_turn(&mut sibling),
        "a /64 of the same /56 has built already"
    );
}

#[test]
fn a_full_queue_makes_room_for_a_lighter_network_and_no_other() {
    // Sixteen networks with two submissions each fill the queue (one is building).
    let queue = BuildQueue::new(32, 2, 1);
    let mut flood: Vec<Ticket> = (1..=16)
        .flat_map(|n| [format!("192.0.2.{n}"), format!("192.0.2.{n}")])
        .map(|ip| queue.admit(key(&ip)).unwrap())
        .collect();
    assert_eq!(queue.pending(), 32);
    let mut honest = queue.admit(key("198.51.100.1")).expect("room made");
    assert_eq!(queue.pending(), 32);
    assert_eq!(
        flood.iter_mut().map(displaced).filter(|&gone| gone).count(),
        1
    );
    assert!(!has_turn(&mut honest), "the build in progress first");
    // One submission each from fresh networks is as light as a newcomer: the queue is
    // full for real.
    let singles = BuildQueue::new(4, 2, 1);
    let _held: Vec<_> = (1..=4)
        .map(|n| singles.admit(key(&format!("192.0.2.{n}"))).unwrap())
        .collect();
    assert_eq!(
        singles.admit(key("198.51.100.1")).unwrap_err(),
        QueueFull::Server
    );
}

#[tokio::test]
async fn a_displaced_submission_is_told_so() {
    let queue = BuildQueue::new(2, 2, 1);
    let mut building = queue.admit(key("192.0.2.1")).unwrap();
    building.wait_turn().await.unwrap();
    let mut second = queue.admit(key("192.0.2.1")).unwrap();
    let _honest = queue.admit(key("192.0.2.2")).unwrap();
    assert_eq!(second.wait_turn().await, Err(Displaced));
    drop(second);
    assert_eq!(
        queue.pending(),
        2,
        "the displaced one's place is not given back twice"
    );
}

#[test]
fn build_time_is_halved_every_half_life() {
    let start = Instant::now();
    let used = Usage {
        seconds: 100.0,
        at: start,
    };
    assert!((used.at(start + USAGE_HALF_LIFE) - 50.0).abs() < 1e-6);
    assert!((used.at(start + 2 * USAGE_HALF_LIFE) - 25.0).abs() < 1e-6);
    assert_eq!(used.at(start), 100.0);
}

#[tokio::test]
async fn two_builders_build_two_submissions_at_once_and_the_third_waits() {
    let queue = BuildQueue::new(32, 4, 2);
    let mut a = queue.admit(key("192.0.2.1")).unwrap();
    let mut b = queue.admit(key("192.0.2.2")).unwrap();
    a.wait_turn().await.unwrap();
    b.wait_turn().await.unwrap();
    let mut c = queue.admit(key("192.0.2.3")).unwrap();
    let third = tokio::spawn(async move {
        c.wait_turn().await.unwrap();
        c
    });
    tokio::task::yield_now().await;
    assert!(!third.is_finished(), "both builders are busy");
    drop(a);
    let c = third.await.unwrap();
    drop((b, c));
    assert_eq!(queue.pending(), 0);
}
