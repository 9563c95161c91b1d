//! What the examples share: where the `agon-ugi` binary is, and CPU times (Linux).

use std::path::PathBuf;
use std::time::Duration;

/// The `agon-ugi` binary: `given` if set, else the one built with the example (it sits two
/// levels above it: `target/release/examples/NAME` and `target/release/agon-ugi`).
pub fn agon_ugi_path(given: Option<String>) -> PathBuf {
    given.map(Into::into).unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("the example's path");
        exe.parent()
            .and_then(|p| p.parent())
            .expect("target dir")
            .join("agon-ugi")
    })
}

/// The CPU time (user and system) that `/proc/{what}/stat` gives (`what`: `self`,
/// `thread-self` or a process id): the process's (or thread's) own, and with `children`
/// that of its waited-for children too. Linux only; the counts are in ticks of 1/100 s
/// (`USER_HZ`).
pub fn cpu_time(what: &str, children: bool) -> Duration {
    let path = format!("/proc/{what}/stat");
    let stat = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let after = &stat[stat.rfind(')').expect("a stat line") + 2..];
    let ticks: u64 = after
        .split_whitespace()
        .skip(11) // fields 3 to 13
        .take(if children { 4 } else { 2 }) // utime, stime, cutime, cstime
        .map(|t| t.parse::<u64>().expect("a tick count"))
        .sum();
    Duration::from_millis(ticks * 10)
}
