//! [`Hub`]: the live side of the games, in memory: each game's broadcast of its new
//! versions to the open event streams, which seats have a page open, and the bound on
//! the number of streams.
//!
//! The database stays the only place a game lives: the hub carries copies of what was
//! just committed ([`Hub::publish`], called once the change committed: with SQLite while
//! the store is still locked, with PostgreSQL just after the commit, so that there two
//! changes of one game may be published out of order, and the older one is then not
//! sent) and forgets a game as soon as no stream listens to it. A stream that misses
//! something (it lagged, or it was not connected) reads the game again from the
//! database, so the hub may drop anything at any time without losing a move.
//!
//! With several servers on one PostgreSQL database the hub stays as it is: each server's
//! listener of the database's notifications (`LISTEN agon_games`, `service::notify`) loads
//! a game another server changed and calls [`Hub::publish`], as the store's commit does
//! for this server's own changes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use agon_core::Side;
use axum::http::StatusCode;
use bytes::Bytes;
use tokio::sync::{broadcast, watch};

use crate::error::ApiError;
use crate::game::WebGame;
use crate::limits::ClientKey;

/// The number of event texts a [`Published`] version keeps (see [`Published::text`]).
pub const TEXT_SLOTS: usize = 4;

/// One version of a game as the hub published it: the game, the version published before
/// it (when the hub still had it: the base of a `change` event), and the event texts
/// built from them so far, shared by every stream of the game, so that each is built once
/// whatever the number of streams ([`crate::http::change`] builds them).
///
/// ```
/// use std::sync::Arc;
/// use agon_core::{Position, Side};
/// use agon_web::{game::WebGame, Level, Published};
/// let game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
/// let published = Published::new(Arc::new(game), None);
/// let mut built = 0;
/// for _ in 0..3 {
///     let text = published.text(0, None, || { built += 1; "event: state\n\n".into() });
///     assert_eq!(&text[..], b"event: state\n\n");
/// }
/// assert_eq!(built, 1, "built once, then shared");
/// ```
pub struct Published {
    /// The game as committed.
    pub game: Arc<WebGame>,
    /// The version published just before, if the hub had it.
    pub base: Option<Arc<WebGame>>,
    /// The texts built so far, by slot, with the time each was built.
    texts: Mutex<[Option<(Instant, Bytes)>; TEXT_SLOTS]>,
}

impl std::fmt::Debug for Published {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Published")
            .field("id", &self.game.id)
            .field("version", &self.game.version)
            .field("base", &self.base.as_ref().map(|b| b.version))
            .finish()
    }
}

impl Published {
    /// Version `game`, published after `base`.
    pub fn new(game: Arc<WebGame>, base: Option<Arc<WebGame>>) -> Published {
        Published {
            game,
            base,
            texts: Mutex::new(Default::default()),
        }
    }

    /// The text in `slot` (below `TEXT_SLOTS`): the one built before if any (and, with
    /// `max_age`, built no longer ago), else `build`'s, kept for the next caller. Callers
    /// of one slot wait for each other: the text is built once.
    pub fn text(
        &self,
        slot: usize,
        max_age: Option<std::time::Duration>,
        build: impl FnOnce() -> Bytes,
    ) -> Bytes {
        let mut texts = self.texts.lock().unwrap_or_else(|e| e.into_inner());
        let Some(cell) = texts.get_mut(slot) else {
            return build();
        };
        if let Some((at, text)) = cell {
            if max_age.is_none_or(|age| at.elapsed() <= age) {
                return text.clone();
            }
        }
        let text = build();
        *cell = Some((Instant::now(), text.clone()));
        text
    }
}

/// What a game's streams receive.
#[derive(Clone, Debug)]
pub enum HubEvent {
    /// The game as it was just committed (its `version` is new).
    State(Arc<Published>),
    /// Which seats (White's, Black's) have a page open now.
    Presence([bool; 2]),
}

/// How many events may wait for a slow stream before it lags (and reads the game again).
const CAPACITY: usize = 32;

struct Channel {
    sender: broadcast::Sender<HubEvent>,
    /// The newest version published (older ones, read late, are not sent).
    version: i64,
    /// The newest version the hub has, published or read by a stream as it opened: the
    /// base of the next version's `change` event, and the texts a new stream shares.
    latest: Option<Arc<Published>>,
    /// The number of open streams holding each seat's token (White's, Black's).
    present: [usize; 2],
}

#[derive(Default)]
struct Streams {
    total: usize,
    by_address: HashMap<ClientKey, usize>,
}

/// The bounds on open event streams.
///
/// ```
/// let limits = agon_web::StreamLimits::default();
/// assert_eq!((limits.max_streams, limits.max_per_client), (10_000, 16));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// The most streams open at once on the server (then `503 too-many-streams`).
    pub max_streams: usize,
    /// The most streams open at once from one client address (then `429 rate-limited`).
    pub max_per_client: usize,
}

impl Default for StreamLimits {
    fn default() -> StreamLimits {
        StreamLimits {
            max_streams: 10_000,
            max_per_client: 16,
        }
    }
}

/// The live games: broadcasts, presence and the open streams' count.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::Arc;
/// use agon_core::{Position, Side};
/// use agon_web::{game::WebGame, Hub, HubEvent, Level, StreamLimits};
/// let hub = Arc::new(Hub::new(StreamLimits::default()));
/// let mut game = WebGame::new("0011223344556677".into(), [0; 32], Side::White, Level::Easy, 1, Position::start());
/// let mut sub = hub.subscribe(&game.id);
/// game.version = 1;
/// hub.publish(&game);
/// match sub.receiver().recv().await.unwrap() {
///     HubEvent::State(p) => assert_eq!(p.game.version, 1),
///     other => panic!("{other:?}"),
/// }
/// drop(sub);
/// assert_eq!(hub.games(), 0, "a game nobody listens to is forgotten");
/// # });
/// ```
pub struct Hub {
    channels: Mutex<HashMap<String, Channel>>,
    streams: Mutex<Streams>,
    limits: StreamLimits,
    closed: watch::Sender<bool>,
}

impl Hub {
    /// A hub with no game, bounding streams by `limits`.
    pub fn new(limits: StreamLimits) -> Hub {
        Hub {
            channels: Mutex::new(HashMap::new()),
            streams: Mutex::new(Streams::default()),
            limits,
            closed: watch::channel(false).0,
        }
    }

    fn channels(&self) -> MutexGuard<'_, HashMap<String, Channel>> {
        // Nothing panics while holding it; a poisoned map is still consistent.
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends `game` (just committed) to its game's streams, if any listens and it is newer
    /// than what they were sent. Cheap (a copy of the game): the events' texts are built
    /// later, once, by the first stream that sends each.
    pub fn publish(&self, game: &WebGame) {
        let mut channels = self.channels();
        if let Some(channel) = channels.get_mut(&game.id) {
            if game.version <= channel.version {
                return;
            }
            channel.version = game.version;
            let published = match &channel.latest {
                // A stream read this very version as it opened: share its texts.
                Some(latest) if latest.game.version == game.version => latest.clone(),
                Some(latest) if latest.game.version > game.version => {
                    Arc::new(Published::new(Arc::new(game.clone()), None))
                }
                latest => Arc::new(Published::new(
                    Arc::new(game.clone()),
                    latest.as_ref().map(|l| l.game.clone()),
                )),
            };
            if channel
                .latest
                .as_ref()
                .is_none_or(|l| l.game.version < game.version)
            {
                channel.latest = Some(published.clone());
            }
            // An error means no receiver is left: nothing to do.
            let _ = channel.sender.send(HubEvent::State(published));
        }
    }

    /// The newest version of game `id` the hub has, if a stream listens to it: one a
    /// stream read from the database after subscribing, or one published since. A new
    /// stream (subscribed first) may send it instead of reading the game: every commit
    /// since that read was or will be published to it. 1,000 pages opening their streams
    /// on a long game then cost one read, not 1,000.
    pub fn current(&self, id: &str) -> Option<Arc<Published>> {
        self.channels().get(id).and_then(|c| c.latest.clone())
    }

    /// The version of `game` (just read by a stream of it) to send: the hub's own when it
    /// has that version (its texts shared by every stream), else `game`, kept as the
    /// newest the hub has if it is.
    pub fn latest(&self, game: WebGame) -> Arc<Published> {
        let mut channels = self.channels();
        let Some(channel) = channels.get_mut(&game.id) else {
            return Arc::new(Published::new(Arc::new(game), None));
        };
        match &channel.latest {
            Some(latest) if latest.game.version == game.version => latest.clone(),
            Some(latest) if latest.game.version > game.version => {
                Arc::new(Published::new(Arc::new(game), None))
            }
            _ => {
                let published = Arc::new(Published::new(Arc::new(game), None));
                channel.latest = Some(published.clone());
                published
            }
        }
    }

    /// The newest version of game `id` published, if a stream listens to it (`-1` before
    /// any).
    pub fn published(&self, id: &str) -> Option<i64> {
        self.channels().get(id).map(|c| c.version)
    }

    /// The ids of the games streams listen to.
    pub fn watched(&self) -> Vec<String> {
        self.channels().keys().cloned().collect()
    }

    /// Listens to game `id` from now on.
    pub fn subscribe(self: &Arc<Self>, id: &str) -> Subscription {
        let mut channels = self.channels();
        let channel = channels.entry(id.to_string()).or_insert_with(|| Channel {
            sender: broadcast::channel(CAPACITY).0,
            version: -1,
            latest: None,
            present: [0; 2],
        });
        Subscription {
            receiver: Some(channel.sender.subscribe()),
            hub: self.clone(),
            id: id.to_string(),
            seat: None,
        }
    }

    /// Which seats of game `id` (White's, Black's) have a page open.
    pub fn present(&self, id: &str) -> [bool; 2] {
        self.channels()
            .get(id)
            .map_or([false; 2], |c| [c.present[0] > 0, c.present[1] > 0])
    }

    /// The number of games that streams listen to.
    pub fn games(&self) -> usize {
        self.channels().len()
    }

    /// The number of open streams.
    pub fn streams(&self) -> usize {
        self.streams.lock().unwrap_or_else(|e| e.into_inner()).total
    }

    /// Counts a new stream from `address` (unknown in tests without a socket), or refuses
    /// it: `503 too-many-streams` past the global bound, `429 rate-limited` past the
    /// bound of one address, both with `Retry-After`.
    pub fn open_stream(
        self: &Arc<Self>,
        address: Option<ClientKey>,
    ) -> Result<StreamPermit, ApiError> {
        let mut streams = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        if streams.total >= self.limits.max_streams {
            return Err(ApiError {
                retry_after: Some(10),
                ..ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "too-many-streams",
                    "the server has too many open event streams: try again later",
                )
            });
        }
        if let Some(address) = address {
            let n = streams.by_address.entry(address).or_insert(0);
            if *n >= self.limits.max_per_client {
                return Err(ApiError {
                    retry_after: Some(10),
                    ..ApiError::new(
                        StatusCode::TOO_MANY_REQUESTS,
                        "rate-limited",
                        "too many open event streams from your address",
                    )
                });
            }
            *n += 1;
        }
        streams.total += 1;
        Ok(StreamPermit {
            hub: self.clone(),
            address,
        })
    }

    /// Ends every stream (the server is shutting down) and refuses none later: streams
    /// opened after it end at once.
    pub fn close(&self) {
        self.closed.send_replace(true);
    }

    /// Whether [`Hub::close`] was called, and a way to wait for it.
    pub fn closed(&self) -> watch::Receiver<bool> {
        self.closed.subscribe()
    }

    /// Counts one more page open on `side`'s seat of game `id`; sends `presence` when the
    /// seat's presence changes.
    fn enter(&self, id: &str, side: Side) {
        let mut channels = self.channels();
        if let Some(channel) = channels.get_mut(id) {
            channel.present[side.index()] += 1;
            if channel.present[side.index()] == 1 {
                let present = [channel.present[0] > 0, channel.present[1] > 0];
                let _ = channel.sender.send(HubEvent::Presence(present));
            }
        }
    }
}

/// A stream's subscription to a game; when dropped, its seat's presence ends and a game
/// nobody listens to any more is forgotten.
pub struct Subscription {
    receiver: Option<broadcast::Receiver<HubEvent>>,
    hub: Arc<Hub>,
    id: String,
    seat: Option<Side>,
}

impl Subscription {
    /// The events of the game since the subscription.
    pub fn receiver(&mut self) -> &mut broadcast::Receiver<HubEvent> {
        // Taken only by Drop.
        self.receiver.as_mut().expect("a live subscription")
    }

    /// Marks `side`'s seat present while this subscription lives.
    pub fn mark_present(&mut self, side: Side) {
        if self.seat.is_none() {
            self.seat = Some(side);
            self.hub.enter(&self.id, side);
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        // The lock first, then the receiver: while this receiver lives, the game's
        // channel is the one it subscribed to (a channel is removed only once it has no
        // receiver, under the lock). Dropped before the lock, another stream's drop could
        // remove the channel and a new subscription create another, whose count of this
        // seat (0) this one would then decrement.
        let mut channels = self.hub.channels();
        drop(self.receiver.take());
        let Some(channel) = channels.get_mut(&self.id) else {
            return;
        };
        if let Some(side) = self.seat {
            // Never below 0, whatever happened: a wrapped count would show the seat
            // present for good.
            channel.present[side.index()] = channel.present[side.index()].saturating_sub(1);
            if channel.present[side.index()] == 0 {
                let present = [channel.present[0] > 0, channel.present[1] > 0];
                let _ = channel.sender.send(HubEvent::Presence(present));
            }
        }
        if channel.sender.receiver_count() == 0 {
            channels.remove(&self.id);
        }
    }
}

/// One open stream, counted until dropped.
pub struct StreamPermit {
    hub: Arc<Hub>,
    address: Option<ClientKey>,
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut streams = self.hub.streams.lock().unwrap_or_else(|e| e.into_inner());
        streams.total -= 1;
        if let Some(address) = self.address {
            if let Some(n) = streams.by_address.get_mut(&address) {
                *n -= 1;
                if *n == 0 {
                    streams.by_address.remove(&address);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Streams of one seat opened and closed at once from several threads: the seat's
    /// count of open pages ends at 0 and the game is forgotten. Dropping a subscription's
    /// receiver before taking the lock let one thread's drop decrement the count of a
    /// channel another thread had just created (a debug panic on overflow, or a seat
    /// shown present for good).
    #[test]
    fn presence_counts_stay_exact_when_streams_open_and_close_at_once() {
        let hub = Arc::new(Hub::new(StreamLimits::default()));
        let threads: Vec<_> = (0..4)
            .map(|_| {
                let hub = hub.clone();
                std::thread::spawn(move || {
                    for _ in 0..100_000 {
                        let mut sub = hub.subscribe("0011223344556677");
                        sub.mark_present(Side::White);
                        drop(sub);
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().expect("no stream's drop panics");
        }
        assert_eq!(hub.present("0011223344556677"), [false, false]);
        assert_eq!(hub.games(), 0);
    }
}
