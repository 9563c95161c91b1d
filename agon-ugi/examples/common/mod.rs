//! What the examples share: where the `agon-ugi` binary is.

use std::path::PathBuf;

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
