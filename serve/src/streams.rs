//! Event streams (`/events`, `/live/events`, a live game's events) are the only requests
//! that hold a connection for long, so each stream endpoint has caps of its own, per
//! client, per network and in all, and every stream ends: after its lifetime, or when it
//! has had nothing to send for its idle limit. The browser's EventSource then connects
//! again on its own, and is told what it missed by the `Last-Event-ID` it sends.
//!
//! Together the endpoints hold at most half the server's connections
//! ([`STREAM_SHARE_DIVISOR`](crate::limits::STREAM_SHARE_DIVISOR)): page requests and
//! `/health` keep the rest, however many clients hold streams.

use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::HeaderMap;
#[cfg(test)]
use axum::http::StatusCode;
use axum::response::sse::Event;
use axum::response::{IntoResponse, Response};
use futures_util::stream::{self, Stream, StreamExt};

use super::http::{HttpError, closing};
use super::limits::{CONNECTION_RETRY_AFTER, Limits, Places, Refusal, Slot, client_key};

/// A stream endpoint, each with its own caps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `/events`: the standings pages' change announcements.
    Events,
    /// `/live/events`: the now-playing list's changes.
    LiveList,
    /// `/live/{game}/events`: one live game's frames (every game together).
    LiveGame,
}

/// The caps and time limits of the server's event streams.
#[derive(Debug)]
pub struct Streams {
    events: Arc<Places>,
    live_list: Arc<Places>,
    live_game: Arc<Places>,
    lifetime: Duration,
    idle: Duration,
}

/// A stream refused: a 503 that closes its connection.
#[derive(Debug)]
pub struct Refused(HttpError);

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        closing(self.0)
    }
}

/// One admitted stream's place, given back when the stream ends.
#[derive(Debug)]
pub struct StreamSlot(#[allow(dead_code)] Slot);

impl Streams {
    /// The streams of a server under `limits`.
    pub fn new(limits: &Limits) -> Arc<Streams> {
        let per_network = limits.max_streams_per_client * 2;
        let places = || {
            Places::new(
                limits.max_streams,
                limits.max_streams_per_client,
                per_network,
            )
        };
        Arc::new(Streams {
            events: places(),
            live_list: places(),
            live_game: places(),
            lifetime: limits.stream_lifetime,
            idle: limits.stream_idle,
        })
    }

    /// A place on `endpoint` for a stream to `peer`, or a 503 saying why there is none,
    /// which closes its connection (a client refused a stream keeps nothing of the
    /// server's, not even an idle connection).
    pub fn admit(&self, endpoint: Endpoint, peer: IpAddr) -> Result<StreamSlot, Refused> {
        self.place(endpoint, peer).map_err(Refused)
    }

    fn place(&self, endpoint: Endpoint, peer: IpAddr) -> Result<StreamSlot, HttpError> {
        let places = match endpoint {
            Endpoint::Events => &self.events,
            Endpoint::LiveList => &self.live_list,
            Endpoint::LiveGame => &self.live_game,
        };
        places
            .admit(client_key(peer))
            .map(StreamSlot)
            .map_err(|refusal| {
                let message = match refusal {
                    Refusal::Client | Refusal::Network => {
                        "too many live pages open from your network at once; close some and reload"
                    }
                    Refusal::Server => {
                        "too many pages are following the games right now; reload in a few seconds"
                    }
                };
                HttpError::busy(message, CONNECTION_RETRY_AFTER)
            })
    }

    /// Streams held on `endpoint` now.
    #[cfg(test)]
    pub fn held(&self, endpoint: Endpoint) -> usize {
        match endpoint {
            Endpoint::Events => self.events.total(),
            Endpoint::LiveList => self.live_list.total(),
            Endpoint::LiveGame => self.live_game.total(),
        }
    }

    /// `events` as a stream that holds `slot` and ends after the lifetime, or once no
    /// event came for the idle limit.
    pub fn bound<S>(
        &self,
        events: S,
        slot: StreamSlot,
    ) -> impl Stream<Item = Result<Event, Infallible>> + Send + 'static
    where
        S: Stream<Item = Result<Event, Infallible>> + Send + 'static,
    {
        let end = tokio::time::Instant::now() + self.lifetime;
        let idle = self.idle;
        stream::unfold(
            (Box::pin(events), slot),
            move |(mut events, slot)| async move {
                let left = end.saturating_duration_since(tokio::time::Instant::now());
                let next = tokio::time::timeout(idle.min(left), events.next()).await;
                let event = next.ok().flatten()?;
                Some((event, (events, slot)))
            },
        )
    }
}

/// The event id a reconnecting EventSource last saw (`Last-Event-ID`), if it sent one.
pub fn last_event_id(headers: &HeaderMap) -> Option<u64> {
    headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse().ok())
}

/// A `change` event numbered `number` (its id is what a reconnecting page sends back).
pub fn change_event(number: u64) -> Event {
    Event::default()
        .event("change")
        .id(number.to_string())
        .data(number.to_string())
}

/// The events that open a stream of changes whose current number is `now`: a `change` at
/// once when the page reconnects having seen an older one (it missed changes while it was
/// away), nothing otherwise.
pub fn missed(
    headers: &HeaderMap,
    now: u64,
) -> impl Stream<Item = Result<Event, Infallible>> + use<> {
    let missed = last_event_id(headers).is_some_and(|seen| seen != now);
    stream::iter(missed.then(|| Ok(change_event(now))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            max_streams: 3,
            max_streams_per_client: 2,
            stream_lifetime: Duration::from_secs(3600),
            stream_idle: Duration::from_millis(50),
            ..Limits::default()
        }
    }

    #[test]
    fn each_endpoint_has_its_own_caps() {
        let streams = Streams::new(&limits());
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let held: Vec<_> = [a, a, b]
            .into_iter()
            .map(|ip| streams.admit(Endpoint::Events, ip).unwrap())
            .collect();
        let over = streams.place(Endpoint::Events, b).unwrap_err();
        assert_eq!(over.status, StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(over.retry_after, Some(CONNECTION_RETRY_AFTER));
        assert!(over.message.contains("too many pages"), "{}", over.message);
        let mine = streams
            .admit(Endpoint::LiveList, a)
            .expect("another endpoint");
        assert_eq!(streams.held(Endpoint::Events), 3);
        drop((held, mine));
        assert_eq!(streams.held(Endpoint::Events), 0);
        assert_eq!(streams.held(Endpoint::LiveList), 0);
    }

    #[tokio::test]
    async fn a_stream_ends_when_idle_and_gives_its_place_back() {
        let streams = Streams::new(&limits());
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let slot = streams.admit(Endpoint::LiveGame, a).unwrap();
        let one = stream::iter([Ok(change_event(1))]).chain(stream::pending());
        let bounded = streams.bound(one, slot);
        let seen: Vec<_> =
            tokio::time::timeout(Duration::from_secs(30), bounded.collect::<Vec<_>>())
                .await
                .expect("the idle limit ended the stream");
        assert_eq!(seen.len(), 1);
        assert_eq!(streams.held(Endpoint::LiveGame), 0);
    }

    #[tokio::test]
    async fn a_busy_stream_ends_at_its_lifetime() {
        let streams = Streams::new(&Limits {
            stream_lifetime: Duration::from_millis(200),
            stream_idle: Duration::from_secs(3600),
            ..limits()
        });
        let slot = streams
            .admit(Endpoint::Events, "192.0.2.1".parse().unwrap())
            .unwrap();
        let busy = stream::repeat_with(|| Ok(change_event(7))).then(|event| async {
            tokio::time::sleep(Duration::from_millis(10)).await;
            event
        });
        let seen = tokio::time::timeout(Duration::from_secs(30), streams.bound(busy, slot).count())
            .await
            .expect("the lifetime ended the stream");
        assert!(seen >= 1, "{seen}");
    }

    #[tokio::test]
    async fn a_page_back_after_missing_changes_is_told_at_once() {
        let mut headers = HeaderMap::new();
        assert_eq!(missed(&headers, 5).count().await, 0, "a first connection");
        headers.insert("last-event-id", "5".parse().unwrap());
        assert_eq!(missed(&headers, 5).count().await, 0, "nothing missed");
        assert_eq!(missed(&headers, 6).count().await, 1, "one change missed");
        headers.insert("last-event-id", "x".parse().unwrap());
        assert_eq!(
            missed(&headers, 6).count().await,
            0,
            "an id that is not ours"
        );
    }
}
