//! Every bot of agon-bots as an engine speaking the Universal Game Interface (UGI): UCI
//! generalised to any game, with queries that let a harness that knows nothing of Agon ask
//! whose turn it is and whether the game is over. The dialect is described in
//! `docs/UGI.md`.
//!
//! The library holds the protocol: [`Command`] reads one input line, [`Session`] holds the
//! options, the game and a running search and answers each command with [`Output`] lines.
//! The binary `agon-ugi` (`cargo run --release -p agon-ugi`) reads standard input and
//! writes standard output; one process plays any number of games.
//!
//! ```
//! use std::sync::mpsc;
//! use agon_ugi::Session;
//!
//! let (tx, rx) = mpsc::channel();
//! let mut session = Session::new(tx);
//! for line in ["ugi", "isready", "position startpos", "go depth 2", "quit"] {
//!     session.handle_line(line);
//! }
//! drop(session);
//! let lines: Vec<String> = rx.iter().map(|o| o.to_string()).collect();
//! assert!(lines.contains(&"ugiok".to_string()));
//! assert!(lines.contains(&"readyok".to_string()));
//! assert!(lines.last().unwrap().starts_with("bestmove "));
//! ```

mod command;
mod output;
mod session;

pub use command::{Command, CommandError, Go, Query, Start};
pub use output::Output;
pub use session::{Session, AUTHOR, DEFAULT_MOVE_OVERHEAD_MS, MAX_MOVE_OVERHEAD_MS, NAME};
