//! The lobby's log as one server reads it: once for all its streams.
//!
//! Every lobby stream (`GET /api/lobby/events`) and every bot's event stream
//! (`GET /api/bot/stream/event`) follows the lobby's log of events
//! ([`crate::store::LobbyEvent`]). Were each to read the log when an event is heard, one
//! event would cost as many database reads as streams are open. Instead the server keeps
//! a [`LobbyFeed`]: the number of the last event heard of (written here, or notified by
//! another server), and the events read lately, parsed once and shared (`Arc`). A stream
//! woken by a new number asks the feed for the events after its own last one; the first
//! to ask reads the new events from the database (one read, under the feed's lock), the
//! others take them from the feed. Each stream then keeps what concerns it (the audience
//! of a direct challenge, its `mine` seeks).
//!
//! The feed holds the last [`KEPT`] events read. A stream resuming from further back
//! (`Last-Event-ID`, or one that fell that far behind) reads the log itself, once; from
//! before the events the database keeps, it gets the whole list again. A keep-alive's
//! wake makes the feed read the log if nobody has for [`POLL_EVERY`], so that an event
//! whose notice was lost (another server's, while the listening connection was down) is
//! sent within a keep-alive or two; a listener that listens again marks the feed stale
//! ([`LobbyFeed::wake`]). The reads are counted: `agon_lobby_log_reads_total`.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use bytes::Bytes;
use tokio::sync::watch;

use crate::metrics::Metrics;
use crate::store::{LobbyLog, Store, StoreError, LOG_BATCH};

/// How many of the events read the feed keeps for the streams behind.
///
/// ```
/// assert_eq!(agon_web::service::lobby_feed::KEPT, 1024);
/// ```
pub const KEPT: usize = 1024;

/// How long after its last read a keep-alive's wake makes the feed read the log again.
///
/// ```
/// assert_eq!(agon_web::service::lobby_feed::POLL_EVERY.as_secs(), 7);
/// ```
pub const POLL_EVERY: Duration = Duration::from_millis(7_500);

/// One event of the lobby's log as the feed read it: parsed once, shared by the streams.
#[derive(Debug)]
pub struct FedEvent {
    /// Its number.
    pub seq: i64,
    /// The accounts it concerns, `None` for everyone.
    pub audience: Option<Vec<String>>,
    /// The event (`{"type": ...}`), as logged.
    pub data: serde_json::Value,
    /// Its texts for the lobby's streams, built by the first that sends each: for a
    /// viewer who did not post its seek, and for one who did.
    texts: [OnceLock<Bytes>; 2],
}

impl FedEvent {
    /// The event of the log's row.
    ///
    /// ```
    /// use agon_web::service::lobby_feed::FedEvent;
    /// let row = agon_web::store::LobbyEvent { seq: 3, audience: None, data: r#"{"type":"gone"}"#.into() };
    /// let event = FedEvent::of(row);
    /// assert_eq!((event.seq, event.data["type"].as_str()), (3, Some("gone")));
    /// ```
    pub fn of(event: crate::store::LobbyEvent) -> FedEvent {
        FedEvent {
            seq: event.seq,
            audience: event.audience,
            data: serde_json::from_str(&event.data).unwrap_or_default(),
            texts: Default::default(),
        }
    }

    /// Whether the viewer (signed in as `account`, or not) may see it.
    ///
    /// ```
    /// use agon_web::service::lobby_feed::FedEvent;
    /// let row = agon_web::store::LobbyEvent { seq: 1, audience: Some(vec!["a1".into()]), data: "{}".into() };
    /// let event = FedEvent::of(row);
    /// assert!(event.shown_to(Some("a1")) && !event.shown_to(Some("b2")) && !event.shown_to(None));
    /// ```
    pub fn shown_to(&self, account: Option<&str>) -> bool {
        crate::store::shown_to(self.audience.as_deref(), account)
    }

    /// Its text for a viewer who posted its seek (`mine`) or not, built once each.
    pub(crate) fn text(&self, mine: bool, build: impl FnOnce() -> Bytes) -> Bytes {
        self.texts[usize::from(mine)].get_or_init(build).clone()
    }
}

/// What the log holds after a stream's last event.
#[derive(Debug)]
pub enum Since {
    /// The events after it, in order (none: nothing new).
    Events(Vec<Arc<FedEvent>>),
    /// It is older than the events the database keeps, or newer than the log's last:
    /// the stream reads the seeks whole again.
    Gap,
}

/// The events read lately: those numbered after `base` up to `last`, in order.
#[derive(Default)]
struct Recent {
    /// `None` before the first read.
    last: Option<i64>,
    base: i64,
    events: VecDeque<Arc<FedEvent>>,
}

/// What the feed holds for a stream.
enum Held {
    /// The events it asked for.
    Events(Vec<Arc<FedEvent>>),
    /// The feed has not read up to the last event heard of.
    Unread,
    /// The stream is further back than the feed's events.
    Behind,
}

impl Recent {
    /// The events after `after`, if the feed has read up to `want`.
    fn after(&self, after: i64, want: i64) -> Held {
        match self.last {
            Some(last) if last >= want => {}
            _ => return Held::Unread,
        }
        match usize::try_from(after - self.base) {
            Ok(skip) => Held::Events(self.events.iter().skip(skip).cloned().collect()),
            Err(_) => Held::Behind,
        }
    }

    /// Adds `events`, those after `last`, in order.
    fn extend(&mut self, events: Vec<Arc<FedEvent>>) {
        self.events.extend(events);
        while self.events.len() > KEPT {
            if let Some(dropped) = self.events.pop_front() {
                self.base = dropped.seq;
            }
        }
        if let Some(newest) = self.events.back() {
            self.last = Some(newest.seq);
        }
    }

    /// Forgets what was read: the log starts after `seq` for the feed.
    fn restart(&mut self, seq: i64) {
        self.events.clear();
        self.base = seq;
        self.last = Some(seq);
    }
}

/// This server's reader of the lobby's log ([`AppState::lobby`](crate::AppState::lobby)):
/// see the module's documentation.
///
/// ```
/// let feed = agon_web::service::lobby_feed::LobbyFeed::new();
/// let heard = feed.subscribe();
/// feed.heard(4);
/// feed.heard(2);
/// assert_eq!(*heard.borrow(), 4, "the newest number stays");
/// ```
pub struct LobbyFeed {
    /// The number of the lobby's last event known here: the streams wait on it.
    heard: watch::Sender<i64>,
    recent: Mutex<Recent>,
    /// Held while reading the database, with the time of the last read: one read at a
    /// time, the others wait and take its events.
    reading: tokio::sync::Mutex<Option<tokio::time::Instant>>,
    /// Set when events may have been missed (the listener listens again): the next wake
    /// reads.
    stale: AtomicBool,
}

impl Default for LobbyFeed {
    fn default() -> LobbyFeed {
        LobbyFeed::new()
    }
}

impl LobbyFeed {
    /// A feed that has read nothing yet.
    pub fn new() -> LobbyFeed {
        LobbyFeed {
            heard: watch::Sender::new(0),
            recent: Mutex::new(Recent::default()),
            reading: tokio::sync::Mutex::new(None),
            stale: AtomicBool::new(false),
        }
    }

    /// The log holds event `seq` (written here, or heard from another server): wakes
    /// the streams.
    pub fn heard(&self, seq: i64) {
        self.heard.send_modify(|last| *last = (*last).max(seq));
    }

    /// Events may have been missed (the listener of other servers listens again): the
    /// streams wake and the feed reads the log.
    pub fn wake(&self) {
        self.stale.store(true, Ordering::SeqCst);
        self.heard.send_modify(|_| ());
    }

    /// What a stream waits on: the number of the last event heard of.
    pub fn subscribe(&self) -> watch::Receiver<i64> {
        self.heard.subscribe()
    }

    fn recent(&self) -> std::sync::MutexGuard<'_, Recent> {
        // What it guards stays whole whatever panicked: a push or a pop.
        self.recent.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The events after number `after` (the last a stream sent), up to the last heard of:
    /// from the feed when it holds them, else read from the database, once for all the
    /// streams asking. `poll` (a keep-alive's wake) reads the log if nobody has for
    /// [`POLL_EVERY`].
    pub(crate) async fn after(
        &self,
        store: &Store,
        metrics: &Metrics,
        after: i64,
        poll: bool,
    ) -> Result<Since, StoreError> {
        let want = (*self.heard.borrow()).max(after);
        if !poll && !self.stale.load(Ordering::SeqCst) {
            if let Held::Events(events) = self.recent().after(after, want) {
                return Ok(Since::Events(events));
            }
        }
        let mut reading = self.reading.lock().await;
        let stale = self.stale.swap(false, Ordering::SeqCst);
        let fresh = !stale && (!poll || reading.is_some_and(|at| at.elapsed() < POLL_EVERY));
        let held = self.recent().after(after, want);
        let held = match held {
            Held::Events(events) if fresh => Held::Events(events),
            Held::Behind if fresh => Held::Behind,
            _ => {
                let from = self.recent().last;
                // The first read starts from the first stream's place.
                let (events, head) = match read_log(store, metrics, from.unwrap_or(after)).await {
                    Ok(read) => read,
                    Err(e) => {
                        // Still to be read by the next stream asking.
                        if stale {
                            self.stale.store(true, Ordering::SeqCst);
                        }
                        return Err(e);
                    }
                };
                *reading = Some(tokio::time::Instant::now());
                let mut recent = self.recent();
                match events {
                    Some(events) if !events.is_empty() => {
                        if from.is_none() {
                            recent.restart(after);
                        }
                        recent.extend(events);
                    }
                    Some(_) if from.is_some() => {}
                    // Nothing after a first stream's place (then the log ends there, or
                    // before if that place was made up), or a gap: the feed was idle for
                    // longer than the database keeps events.
                    _ => recent.restart(head),
                }
                let last = recent.last.unwrap_or(head);
                if after > last {
                    // A place the log has not reached: made up.
                    return Ok(Since::Gap);
                }
                recent.after(after, want.min(last))
            }
        };
        drop(reading);
        match held {
            Held::Events(events) => Ok(Since::Events(events)),
            Held::Behind => self.behind(store, metrics, after).await,
            // Read up to `last` just now.
            Held::Unread => Ok(Since::Events(Vec::new())),
        }
    }

    /// The events after `after`, older than the feed's: read from the database, then
    /// the feed's own.
    async fn behind(
        &self,
        store: &Store,
        metrics: &Metrics,
        after: i64,
    ) -> Result<Since, StoreError> {
        let (events, _) = read_log(store, metrics, after).await?;
        let Some(mut events) = events else {
            return Ok(Since::Gap);
        };
        let last = events.last().map_or(after, |e| e.seq);
        if let Held::Events(more) = self.recent().after(last, last) {
            events.extend(more);
        }
        Ok(Since::Events(events))
    }
}

/// The log's events after `after`, in as many reads as it takes (each counted), and the
/// number of its last event; `None` for a gap (`after` older than the events kept).
async fn read_log(
    store: &Store,
    metrics: &Metrics,
    after: i64,
) -> Result<(Option<Vec<Arc<FedEvent>>>, i64), StoreError> {
    let mut events = Vec::new();
    let mut from = after;
    loop {
        metrics.lobby_log_read();
        let (log, head) = store.lobby_events_after(from).await?;
        let LobbyLog::Events(batch) = log else {
            return Ok((None, head));
        };
        let full = batch.len() == LOG_BATCH;
        events.extend(batch.into_iter().map(|e| Arc::new(FedEvent::of(e))));
        from = events.last().map_or(from, |e| e.seq);
        if !full || from >= head {
            return Ok((Some(events), head));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::LobbyEvent;

    fn event(seq: i64) -> Arc<FedEvent> {
        Arc::new(FedEvent::of(LobbyEvent {
            seq,
            audience: None,
            data: "{}".into(),
        }))
    }

    fn seqs(held: Held) -> Vec<i64> {
        match held {
            Held::Events(events) => events.iter().map(|e| e.seq).collect(),
            Held::Unread => panic!("unread"),
            Held::Behind => panic!("behind"),
        }
    }

    #[test]
    fn the_feed_keeps_its_last_events_and_knows_who_is_behind() {
        let mut recent = Recent::default();
        assert!(
            matches!(recent.after(0, 0), Held::Unread),
            "nothing read yet"
        );
        recent.restart(10);
        let last = 10 + KEPT as i64 + 5;
        recent.extend((11..=last).map(event).collect());
        // The five oldest went: the feed holds 16 to `last`.
        assert_eq!((recent.base, recent.last), (15, Some(last)));
        assert_eq!(recent.events.len(), KEPT);
        assert!(matches!(recent.after(14, last), Held::Behind));
        assert_eq!(seqs(recent.after(15, last)).len(), KEPT);
        assert_eq!(seqs(recent.after(last - 2, last)), [last - 1, last]);
        assert_eq!(seqs(recent.after(last, last)), Vec::<i64>::new());
        assert!(matches!(recent.after(last, last + 1), Held::Unread));
        recent.extend(vec![event(last + 1)]);
        assert_eq!(seqs(recent.after(last, last + 1)), [last + 1]);
        assert_eq!(recent.base, 16);
    }
}
