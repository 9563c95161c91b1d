//! The checks the fuzz targets make live in `agon_reference::checks`, shared with
//! agon-core's proptests; this library re-exports them for the targets.

pub use agon_reference::checks::*;
