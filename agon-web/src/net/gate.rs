//! The count of open connections, in all and per client address, and the refusal of one
//! past either cap.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::http::StatusCode;

use crate::error::ApiError;
use crate::limits::ClientKey;

/// Counts the open connections; [`Gate::admit`] lets one more in or says why not.
///
/// ```
/// use std::sync::Arc;
/// use agon_web::net::Gate;
/// let gate = Arc::new(Gate::new(3, Some(2)));
/// let a: std::net::IpAddr = "192.0.2.1".parse().unwrap();
/// let b: std::net::IpAddr = "192.0.2.2".parse().unwrap();
/// let first = gate.admit(a).unwrap();
/// let _second = gate.admit(a).unwrap();
/// assert_eq!(gate.admit(a).unwrap_err().status.as_u16(), 429, "two per address");
/// let _third = gate.admit(b).unwrap();
/// assert_eq!(gate.admit(b).unwrap_err().status.as_u16(), 503, "three in all");
/// drop(first);
/// assert_eq!(gate.open(), 2);
/// assert!(gate.admit(b).is_ok());
/// ```
#[derive(Debug)]
pub struct Gate {
    max_total: usize,
    max_per_client: Option<usize>,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    per_client: HashMap<ClientKey, usize>,
}

/// One admitted connection: it counts until dropped.
///
/// ```
/// use std::sync::Arc;
/// let gate = Arc::new(agon_web::net::Gate::new(10, None));
/// let ticket: agon_web::net::Ticket = gate.admit("192.0.2.1".parse().unwrap()).unwrap();
/// assert_eq!(gate.open(), 1);
/// drop(ticket);
/// assert_eq!(gate.open(), 0);
/// ```
#[derive(Debug)]
pub struct Ticket {
    gate: Arc<Gate>,
    client: Option<ClientKey>,
}

impl Gate {
    /// A gate letting in `max_total` connections, and `max_per_client` from one address
    /// (`None`: no cap per address, as behind a trusted proxy, whose connections carry
    /// every client's requests).
    pub fn new(max_total: usize, max_per_client: Option<usize>) -> Gate {
        Gate {
            max_total,
            max_per_client,
            counts: Mutex::new(Counts::default()),
        }
    }

    fn counts(&self) -> MutexGuard<'_, Counts> {
        // Nothing panics while holding it; poisoned counts are still consistent.
        self.counts.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many connections are open.
    pub fn open(&self) -> usize {
        self.counts().total
    }

    /// Lets a connection from `peer` in, or refuses it: `429 too-many-connections` past
    /// the cap per address (an IPv6 address counts by its /64, as [`ClientKey`]), `503
    /// too-many-connections` past the cap in all; both with `Retry-After: 1`.
    pub fn admit(self: &Arc<Gate>, peer: IpAddr) -> Result<Ticket, ApiError> {
        let mut counts = self.counts();
        let client = self.max_per_client.map(|_| ClientKey::of(peer));
        if counts.total >= self.max_total {
            return Err(refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server has as many connections open as it takes",
            ));
        }
        if let (Some(key), Some(max)) = (client, self.max_per_client) {
            let count = counts.per_client.entry(key).or_insert(0);
            if *count >= max {
                return Err(refusal(
                    StatusCode::TOO_MANY_REQUESTS,
                    "too many connections open from this address",
                ));
            }
            *count += 1;
        }
        counts.total += 1;
        Ok(Ticket {
            gate: self.clone(),
            client,
        })
    }
}

fn refusal(status: StatusCode, message: &str) -> ApiError {
    ApiError {
        retry_after: Some(1),
        ..ApiError::new(status, "too-many-connections", message)
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut counts = self.gate.counts();
        counts.total -= 1;
        if let Some(key) = self.client {
            if let Some(count) = counts.per_client.get_mut(&key) {
                *count -= 1;
                if *count == 0 {
                    counts.per_client.remove(&key);
                }
            }
        }
    }
}
