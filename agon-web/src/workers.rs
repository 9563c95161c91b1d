//! [`Workers`]: the bound on the computer's searches.
//!
//! Searches run on tokio's blocking threads, never on the async ones, at most `workers` at
//! once. Searches that find every worker taken wait for one, as long as the work already
//! waiting (counted in the milliseconds each search is expected to take) stays under
//! [`QUEUE_MS_PER_WORKER`] a worker; past that the server answers `503 server-busy` at
//! once rather than piling up work it cannot start in time. So thousands of quick easy
//! searches may queue, but only a couple of hard ones.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::error::ApiError;

/// How much expected work (in milliseconds of search) may wait for each worker before
/// the server says it is busy: a request waits at most about this long for its turn.
pub const QUEUE_MS_PER_WORKER: usize = 3000;

/// A bounded pool of search slots.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let workers = agon_web::Workers::new(2);
/// assert_eq!(workers.run(1, || 6 * 7).await, Ok(42));
/// # });
/// ```
#[derive(Debug)]
pub struct Workers {
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
    count: usize,
}

impl Workers {
    /// A pool of `count` workers (at least one), each with [`QUEUE_MS_PER_WORKER`] of
    /// work allowed to wait.
    ///
    /// ```
    /// assert_eq!(agon_web::Workers::new(0).count(), 1);
    /// ```
    pub fn new(count: usize) -> Workers {
        Workers::with_queue(count, count.saturating_mul(QUEUE_MS_PER_WORKER))
    }

    /// A pool of `count` workers (at least one) where at most `max_waiting` milliseconds
    /// of expected work may wait.
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::sync::Arc;
    /// let workers = Arc::new(agon_web::Workers::with_queue(1, 0));
    /// let (tx, rx) = std::sync::mpsc::channel::<()>();
    /// let busy = tokio::spawn({
    ///     let workers = workers.clone();
    ///     async move { workers.run(1, move || rx.recv()).await }
    /// });
    /// tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    /// // The one worker is taken and no one may wait: busy.
    /// assert_eq!(workers.run(1, || ()).await.unwrap_err().name, "server-busy");
    /// tx.send(()).unwrap();
    /// assert!(busy.await.unwrap().is_ok());
    /// assert_eq!(workers.run(1, || 1).await, Ok(1));
    /// # });
    /// ```
    pub fn with_queue(count: usize, max_waiting: usize) -> Workers {
        let count = count.clamp(1, Semaphore::MAX_PERMITS);
        Workers {
            slots: Arc::new(Semaphore::new(count)),
            waiting: AtomicUsize::new(0),
            max_waiting,
            count,
        }
    }

    /// The number of searches that may run at once.
    ///
    /// ```
    /// assert_eq!(agon_web::Workers::new(3).count(), 3);
    /// ```
    pub fn count(&self) -> usize {
        self.count
    }

    /// Runs `job`, expected to take about `cost_ms` milliseconds, on a blocking thread
    /// once a worker is free, or fails with `server-busy` when the work already waiting
    /// and this job's would pass the bound. The worker stays taken until the job ends,
    /// even if the caller stops waiting for it.
    pub async fn run<T: Send + 'static>(
        &self,
        cost_ms: usize,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let permit = match self.slots.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let _waiting = Waiting::enter(&self.waiting, cost_ms.max(1), self.max_waiting)?;
                // The semaphore is never closed.
                self.slots
                    .clone()
                    .acquire_owned()
                    .await
                    .map_err(|_| ApiError::busy())?
            }
        };
        tokio::task::spawn_blocking(move || {
            let value = job();
            drop(permit);
            value
        })
        .await
        .map_err(|e| ApiError::internal(format!("search: {e}")))
    }
}

/// The work of one request waiting for a worker; leaves the total when dropped, also when
/// the request is abandoned while it waits.
struct Waiting<'a> {
    total: &'a AtomicUsize,
    cost: usize,
}

impl<'a> Waiting<'a> {
    fn enter(total: &'a AtomicUsize, cost: usize, max: usize) -> Result<Waiting<'a>, ApiError> {
        if total.fetch_add(cost, Ordering::AcqRel).saturating_add(cost) > max {
            total.fetch_sub(cost, Ordering::AcqRel);
            return Err(ApiError::busy());
        }
        Ok(Waiting { total, cost })
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.total.fetch_sub(self.cost, Ordering::AcqRel);
    }
}
