//! The server's own work, done when nobody asks: ending games whose clock ran out (so
//! that the streams hear of it at once), and pruning games nobody touched for
//! [`Config::idle_days`](crate::Config::idle_days).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::AbortHandle;

use super::AppState;
use crate::game::WebGame;

/// One timer a game whose clock runs: it wakes when the running side's time runs out.
///
/// ```
/// let timers = agon_web::Timers::default();
/// assert_eq!(timers.len(), 0);
/// ```
pub struct Timers {
    tasks: Mutex<HashMap<String, Timer>>,
    /// Set when the server stops: every timer ends, asleep or settling, and none is set.
    closed: watch::Sender<bool>,
}

impl Default for Timers {
    fn default() -> Timers {
        Timers {
            tasks: Mutex::default(),
            closed: watch::channel(false).0,
        }
    }
}

/// A game's timer: the version it was set for, and its task.
struct Timer {
    version: i64,
    task: AbortHandle,
}

impl Timers {
    /// The number of games with a timer set.
    pub fn len(&self) -> usize {
        self.tasks().len()
    }

    /// Whether no timer is set.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Ends every timer and sets none from now on (the server stops): no timer may end a
    /// game, or keep the server's state (its database) alive, after the server stopped.
    /// A transaction a timer already sent still completes.
    pub(crate) fn close(&self) {
        let mut tasks = self.tasks();
        self.closed.send_replace(true);
        for (_, timer) in tasks.drain() {
            timer.task.abort();
        }
    }

    fn tasks(&self) -> MutexGuard<'_, HashMap<String, Timer>> {
        // Nothing panics while holding it; a poisoned map is still consistent.
        self.tasks.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Sets (or clears) the timer of `game` as committed at its version: it fires at the
/// running side's deadline and ends the game by `time-forfeit` if its time has run out by
/// then. Called after every commit, and after every read of a game another server
/// changed. The callers run after the store's call returned, not under its lock, so
/// two changes' calls may come in either order: a timer set for a newer version than
/// `game`'s is kept (and a timer for an older version is replaced).
pub(crate) fn schedule(app: &Arc<AppState>, game: &WebGame) {
    let mut tasks = app.timers.tasks();
    if *app.timers.closed.borrow() {
        return;
    }
    if tasks
        .get(&game.id)
        .is_some_and(|t| t.version > game.version)
    {
        return;
    }
    if let Some(old) = tasks.remove(&game.id) {
        old.task.abort();
    }
    let Some(deadline) = game.deadline_ms() else {
        return;
    };
    let task = tokio::spawn(fire(app.clone(), game.id.clone(), game.version, deadline));
    let timer = Timer {
        version: game.version,
        task: task.abort_handle(),
    };
    tasks.insert(game.id.clone(), timer);
}

async fn fire(app: Arc<AppState>, id: String, version: i64, deadline_ms: i64) {
    // A timer that is settling is no longer in the map: the close ends it this way.
    let mut closed = app.timers.closed.subscribe();
    tokio::select! {
        _ = closed.wait_for(|closed| *closed) => {}
        () = wake_and_settle(&app, id, version, deadline_ms) => {}
    }
}

async fn wake_and_settle(app: &Arc<AppState>, id: String, version: i64, deadline_ms: i64) {
    // The deadline is by the database's clock (a change's time), so is the wait.
    let wait = (deadline_ms - app.store.now_ms()).max(0) as u64 + 1;
    tokio::time::sleep(Duration::from_millis(wait)).await;
    // This task is done with: a later schedule of the game must not abort the settling
    // (a timer a newer version set meanwhile stays).
    {
        let mut tasks = app.timers.tasks();
        if tasks.get(&id).is_some_and(|t| t.version == version) {
            tasks.remove(&id);
        }
    }
    if let Err(e) = super::settle_clock(app, id.clone()).await {
        eprintln!("agon-web: the clock of game {id}: {e}");
    }
}

/// How often the pruning task looks for idle games.
pub const PRUNE_EVERY: Duration = Duration::from_secs(3600);

/// How often each server sharing a PostgreSQL database looks for running clocks whose
/// time has run out with no timer of its own (another server set it, then stopped): a
/// time forfeit is pushed at most this late when the server that should have pushed it
/// is gone.
pub const SWEEP_EVERY: Duration = Duration::from_secs(10);

/// Settles the clock of every game whose running side's time has run out by `by_ms`
/// (`i64::MAX`: every running clock, each then scheduled again).
async fn settle_clocks(app: &Arc<AppState>, by_ms: i64) {
    let ids = match app.store.running_clocks(by_ms).await {
        Ok(ids) => ids,
        Err(e) => {
            eprintln!("agon-web: the running clocks: {e}");
            return;
        }
    };
    for id in ids {
        if let Err(e) = super::settle_clock(app, id.clone()).await {
            eprintln!("agon-web: the clock of game {id}: {e}");
        }
    }
}

/// Starts the server's own work: timers for the clocks that were running when the server
/// stopped, and the pruning of idle games every [`PRUNE_EVERY`] (first at once). Answers
/// the pruning task, which the caller aborts when the server stops.
pub(crate) fn start(app: &Arc<AppState>) -> tokio::task::JoinHandle<()> {
    let app = app.clone();
    tokio::spawn(async move {
        // Every running clock gets its timer (a game not yet run out is scheduled again).
        settle_clocks(&app, i64::MAX).await;
        let mut prune = tokio::time::interval(PRUNE_EVERY);
        let mut sweep = tokio::time::interval(SWEEP_EVERY);
        // One SQLite server sets every timer itself: only servers sharing a database sweep.
        let shared = matches!(*app.store, crate::store::Store::Postgres(_));
        loop {
            tokio::select! {
                _ = prune.tick() => {
                    let now = app.store.now_ms();
                    let (unfinished, finished) = (now - app.idle_ms, app.keep_ms.map(|ms| now - ms));
                    match app.store.prune(unfinished, finished).await {
                        Ok(0) => {}
                        Ok(n) => println!("agon-web: pruned {n} idle games"),
                        Err(e) => eprintln!("agon-web: pruning: {e}"),
                    }
                    // Passkey ceremonies begun and never finished.
                    if let Err(e) = app.store.prune_ceremonies(crate::game::now_ms()).await {
                        eprintln!("agon-web: pruning ceremonies: {e}");
                    }
                    // Rated games whose end a stopped server left unrated.
                    match super::ratings::rate_lost_ends(&app).await {
                        Ok(0) => {}
                        Ok(n) => println!("agon-web: rated {n} games left unrated"),
                        Err(e) => eprintln!("agon-web: rating ended games: {}", e.message),
                    }
                }
                // The clocks whose timer was on a server that stopped (or whose change
                // this server never heard of): any server ends them. Ending a game by
                // time is idempotent (it is a change under the version check, and a game
                // already over is left alone), so several servers may sweep at once.
                _ = sweep.tick(), if shared => settle_clocks(&app, app.store.now_ms()).await,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use agon_core::{Position, Side};

    use super::*;
    use crate::game::{now_ms, Clock, Opponent};
    use crate::{AppState, Config, Level};

    fn app() -> (Arc<AppState>, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let config = Config {
            db: dir.path().join("g.sqlite3").into(),
            workers: 1,
            ..Config::default()
        };
        (Arc::new(AppState::open(&config).unwrap()), dir)
    }

    /// A game between friends at `version`, its clock of a minute running since now or
    /// not started.
    fn game(version: i64, running: bool) -> WebGame {
        let mut game = WebGame::new(
            "0011223344556677".into(),
            [0; 32],
            Side::White,
            Level::Easy,
            1,
            Position::start(),
        );
        game.opponent = Opponent::Friend;
        game.guest_sha256 = Some([1; 32]);
        game.version = version;
        game.clock = Some(Clock {
            at_ms: running.then(now_ms),
            ..Clock::new(60_000, 0)
        });
        game
    }

    fn version_timed(app: &AppState) -> Option<i64> {
        app.timers
            .tasks()
            .get("0011223344556677")
            .map(|t| t.version)
    }

    #[tokio::test]
    async fn a_late_schedule_of_an_older_version_leaves_the_newer_timer() {
        let (app, _dir) = app();
        // Version 6 (its clock runs) is scheduled first, then version 5 (the clock not
        // yet started), whose caller ran late: 6's timer stays.
        schedule(&app, &game(6, true));
        assert_eq!(version_timed(&app), Some(6));
        schedule(&app, &game(5, false));
        assert_eq!(version_timed(&app), Some(6));
        schedule(&app, &game(5, true));
        assert_eq!(version_timed(&app), Some(6));
        // The same version again (a clock settled without a change) and a newer one
        // replace it; a newer one without a running clock clears it.
        schedule(&app, &game(6, true));
        assert_eq!(version_timed(&app), Some(6));
        schedule(&app, &game(7, true));
        assert_eq!(version_timed(&app), Some(7));
        schedule(&app, &game(8, false));
        assert_eq!(version_timed(&app), None);
        assert!(app.timers.is_empty());
    }
}
