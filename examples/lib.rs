//! What the examples share: the terminal game ([`terminal`], run by the `play` example)
//! and argument reading that reports errors instead of panicking.

use std::fmt::Display;
use std::process::exit;

/// Prints `message` and the usage line to standard error, then exits with status 2.
pub fn fail(message: impl Display, usage: &str) -> ! {
    eprintln!("error: {message}\nusage: {usage}");
    exit(2)
}

/// Parses an argument, or fails with a message naming it.
pub fn parse_arg<T: std::str::FromStr>(value: &str, name: &str, usage: &str) -> T
where
    T::Err: Display,
{
    value
        .parse()
        .unwrap_or_else(|e| fail(format_args!("bad {name} {value:?}: {e}"), usage))
}

pub mod terminal;
