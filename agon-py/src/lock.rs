//! `Lock`: the lock of the objects that calls change (`Game`, `VecEnv`), so that threads
//! may share them.
//!
//! The one module of the package built on `unsafe` code (the crate denies it elsewhere):
//! a cell that threads share needs it, and each use says why it is sound.
#![allow(unsafe_code)]

use std::cell::UnsafeCell;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// A lock that knows the thread holding it, and waits without the GIL.
///
/// One word says who holds it: taking it is one compare-and-swap and leaving it one
/// store, as cheap as pyo3's own borrow flag. A call that finds it held by another thread
/// waits with the GIL released, so that the holder (which may itself be running without
/// the GIL, or be waiting for the GIL in the middle of a call) can finish. A call that
/// finds it held by its own thread (a finaliser of the caller's that ran inside a call and
/// used the same object) gets `RuntimeError` instead of waiting forever.
pub struct Lock<T> {
    /// What the lock guards, for the error message: `"Game"`, `"VecEnv"`.
    what: &'static str,
    /// The mark of the thread holding the lock (see `this_thread`), or 0 when it is free.
    owner: AtomicUsize,
    value: UnsafeCell<T>,
}

// SAFETY: the value is reached only through a `LockGuard`, and at most one exists at a
// time (made by the compare-and-swap of `owner` from 0, ended by its store of 0), so the
// lock hands a `T: Send` from thread to thread like a mutex does.
unsafe impl<T: Send> Sync for Lock<T> {}

/// A mark of the running thread, never 0: the address of its Python thread state (a
/// thread in the middle of a call has one, and keeps it). Cheaper than a thread-local in
/// a shared library.
fn this_thread(_attached: Python<'_>) -> usize {
    // SAFETY: the thread is attached to the interpreter (the token says so), so it has a
    // current thread state; reading the pointer has no other effect.
    unsafe { pyo3::ffi::PyThreadState_Get() as usize }
}

/// The value of a `Lock`, held until dropped.
pub struct LockGuard<'a, T> {
    lock: &'a Lock<T>,
}

impl<T> Drop for LockGuard<'_, T> {
    fn drop(&mut self) {
        self.lock.owner.store(0, Ordering::Release);
    }
}

impl<T> Deref for LockGuard<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        // SAFETY: this guard is the only one (see `Lock`).
        unsafe { &*self.lock.value.get() }
    }
}

impl<T> DerefMut for LockGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: this guard is the only one (see `Lock`), and it is borrowed mutably.
        unsafe { &mut *self.lock.value.get() }
    }
}

impl<T: Send> Lock<T> {
    pub fn new(what: &'static str, value: T) -> Self {
        Lock {
            what,
            owner: AtomicUsize::new(0),
            value: UnsafeCell::new(value),
        }
    }

    /// The value, once no other call holds it.
    pub fn lock(&self, py: Python<'_>) -> PyResult<LockGuard<'_, T>> {
        let me = this_thread(py);
        loop {
            match self
                .owner
                .compare_exchange(0, me, Ordering::Acquire, Ordering::Relaxed)
            {
                Ok(_) => return Ok(LockGuard { lock: self }),
                Err(holder) if holder == me => {
                    return Err(PyRuntimeError::new_err(format!(
                        "this {} is in the middle of a call in this thread (a finaliser or \
                         callback used it while that call ran)",
                        self.what
                    )))
                }
                Err(_) => py.detach(|| self.wait()),
            }
        }
    }

    /// Waits, without the GIL, until the lock looks free: spinning briefly (most calls
    /// are short), then yielding, then sleeping a little (a large step takes milliseconds).
    fn wait(&self) {
        let mut rounds = 0u32;
        while self.owner.load(Ordering::Relaxed) != 0 {
            rounds += 1;
            if rounds < 64 {
                std::hint::spin_loop();
            } else if rounds < 256 {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(50));
            }
        }
    }
}
