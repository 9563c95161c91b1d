//! Live events across servers: with PostgreSQL, each server listens to every server's
//! commits (`LISTEN agon_games`, see [`PgStore::listen`](crate::store::PgStore::listen))
//! and feeds its own [`Hub`](crate::Hub) with the games its streams watch.
//!
//! A notification names the game and the version committed. The listener skips its own
//! server's (published at their commit already), the games no stream here watches, and
//! the versions already published; otherwise it reads the game from the database,
//! publishes it and sets its clock's timer (so a time forfeit reaches this server's pages
//! even if the server that set the clock stops). Notifications sent while the listening
//! connection was down are lost: each time it listens again, every watched game is read
//! again, and the streams (which skip what they sent) get whatever they missed.

use std::sync::Arc;

use crate::store::{Notice, Store};
use crate::AppState;

/// Starts the listener, for PostgreSQL (SQLite has one server: its commits feed the hub
/// directly). Answers the task, which the caller aborts when the server stops.
pub(crate) fn start(app: &Arc<AppState>) -> Option<tokio::task::JoinHandle<()>> {
    let Store::Postgres(store) = &*app.store else {
        return None;
    };
    let mut notices = store.listen();
    let own = store.origin().to_string();
    let app = app.clone();
    Some(tokio::spawn(async move {
        while let Some(notice) = notices.recv().await {
            match notice {
                Notice::Listening => {
                    for id in app.hub.watched() {
                        refresh(&app, &id).await;
                    }
                }
                Notice::Changed {
                    id,
                    version,
                    origin,
                } => {
                    let behind = app.hub.published(&id).is_some_and(|v| v < version);
                    if origin != own && behind {
                        refresh(&app, &id).await;
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
            crate::tasks::schedule(app, &game);
        }
        Ok(None) => {}
        Err(e) => eprintln!("agon-web: reading game {id} after a notification: {e}"),
    }
}
