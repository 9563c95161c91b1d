//! Live events across servers: with PostgreSQL, each server listens to every server's
//! commits (`LISTEN agon_games`, see [`PgStore::listen`](crate::store::PgStore::listen))
//! and feeds its own [`Hub`](crate::Hub) with the games its streams watch.
//!
//! A notification names the game and the version committed. The listener skips its own
//! server's (published at their commit already: a change, once under way, runs to its
//! end in a task of its own), the games no stream here watches, and the versions already
//! published; otherwise it reads the game from the database (up to eight games at once),
//! publishes it and sets its clock's timer, so that a time forfeit reaches this server's
//! pages even if the server that set the clock stops. Notifications sent while the
//! listening connection was down are lost: each time it listens again, every watched
//! game is read again, and the streams (which skip what they sent) get whatever they
//! missed.

use std::sync::Arc;

use super::AppState;
use crate::store::{Notice, Store};

/// The most games read at once after notifications.
const READS: usize = 8;

/// Starts the listener, for PostgreSQL (SQLite has one server: its commits feed the hub
/// directly). Answers the task, which the caller aborts when the server stops.
pub(crate) fn start(app: &Arc<AppState>) -> Option<tokio::task::JoinHandle<()>> {
    let Store::Postgres(store) = &*app.store else {
        return None;
    };
    let mut notices = store.listen();
    let own = store.origin().to_string();
    let app = app.clone();
    // At most this many reads at once: a burst of notifications leaves the pool's other
    // connections to the requests.
    let reads = Arc::new(tokio::sync::Semaphore::new(READS));
    Some(tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            match notice {
                Notice::Listening => {
                    // What the lobby missed meanwhile is in its log: read it again.
                    app.lobby.wake();
                    for id in app.hub.watched() {
                        refresh(&app, &id).await;
                    }
                }
                Notice::Lobby { seq, .. } => super::lobby::heard(&app, seq),
                Notice::Changed {
                    id,
                    version,
                    origin,
                } => {
                    let behind = app.hub.published(&id).is_some_and(|v| v < version);
                    if origin != own && behind {
                        // Read concurrently, so that one slow read does not delay the
                        // other games' (the hub sends no version older than one it sent,
                        // and a game changes again only after its players saw it).
                        let Ok(permit) = reads.clone().acquire_owned().await else {
                            return;
                        };
                        let app = app.clone();
                        tokio::spawn(async move {
                            refresh(&app, &id).await;
                            drop(permit);
                        });
                    }
                }
            }
        }
    }))
}

/// Reads game `id` again and publishes it to this server's streams.
async fn refresh(app: &Arc<AppState>, id: &str) {
    match app.store.load(id).await {
        Ok(Some(game)) => {
            app.hub.publish(&game);
            super::timers::schedule(app, &game);
        }
        Ok(None) => {}
        Err(e) => eprintln!("agon-web: reading game {id} after a notification: {e}"),
    }
}
