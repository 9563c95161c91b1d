//! The server's own work, done when nobody asks: ending games whose clock ran out (so
//! that the streams hear of it at once), and pruning games nobody touched for
//! [`Config::idle_days`](crate::Config::idle_days).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::task::AbortHandle;

use crate::state::now_ms;
use crate::store::WebGame;
use crate::AppState;

/// One timer a game whose clock runs: it wakes when the running side's time runs out.
///
/// ```
/// let timers = agon_web::Timers::default();
/// assert_eq!(timers.len(), 0);
/// ```
#[derive(Default)]
pub struct Timers {
    tasks: Mutex<HashMap<String, AbortHandle>>,
}

impl Timers {
    /// The number of games with a timer set.
    pub fn len(&self) -> usize {
        self.tasks.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Whether no timer is set.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Sets (or clears) the timer of `game` as just committed: it fires at the running side's
/// deadline and ends the game by `time-forfeit` if its time has run out by then. Called
/// after every commit; a timer of an older version is replaced.
pub(crate) fn schedule(app: &Arc<AppState>, game: &WebGame) {
    let mut tasks = app.timers.tasks.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(old) = tasks.remove(&game.id) {
        old.abort();
    }
    let Some(deadline) = game.deadline_ms() else {
        return;
    };
    let handle = tokio::spawn(fire(app.clone(), game.id.clone(), deadline));
    tasks.insert(game.id.clone(), handle.abort_handle());
}

async fn fire(app: Arc<AppState>, id: String, deadline_ms: i64) {
    let wait = (deadline_ms - now_ms()).max(0) as u64 + 1;
    tokio::time::sleep(Duration::from_millis(wait)).await;
    // This task is done with: a later schedule of the game must not abort the settling.
    app.timers
        .tasks
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&id);
    if let Err(e) = crate::api::settle_clock(&app, id.clone()).await {
        eprintln!("agon-web: the clock of game {id}: {e}");
    }
}

/// How often the pruning task looks for idle games.
pub const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// Starts the server's own work: timers for the clocks that were running when the server
/// stopped, and the pruning of idle games every [`PRUNE_EVERY`] (first at once). Answers
/// the pruning task, which the caller aborts when the server stops.
pub(crate) fn start(app: &Arc<AppState>) -> tokio::task::JoinHandle<()> {
    let app = app.clone();
    tokio::spawn(async move {
        let store = app.store.clone();
        let ids = tokio::task::spawn_blocking(move || store.running_clocks()).await;
        for id in ids.ok().and_then(Result::ok).unwrap_or_default() {
            if let Err(e) = crate::api::settle_clock(&app, id.clone()).await {
                eprintln!("agon-web: the clock of game {id}: {e}");
            }
        }
        let mut every = tokio::time::interval(PRUNE_EVERY);
        loop {
            every.tick().await;
            let now = now_ms();
            let (unfinished, finished) = (now - app.idle_ms, app.keep_ms.map(|ms| now - ms));
            let store = app.store.clone();
            match tokio::task::spawn_blocking(move || store.prune(unfinished, finished)).await {
                Ok(Ok(0)) => {}
                Ok(Ok(n)) => println!("agon-web: pruned {n} idle games"),
                Ok(Err(e)) => eprintln!("agon-web: pruning: {e}"),
                Err(e) => eprintln!("agon-web: pruning: {e}"),
            }
        }
    })
}
