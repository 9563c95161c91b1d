//! The checks the fuzz targets make live in `agon_reference::checks`, shared with
//! agon-core's proptests; this library re-exports them for the targets.

pub use agon_reference::checks::*;

use agon_core::{
    Between, Capture, EmptyThroneRing, GuardReturn, QueenPlacer, QueenReturn, Repetition, Rules,
    Stuck,
};

/// A rule set from one byte: every option at each of its values.
pub fn rules_from_byte(b: u8) -> Rules {
    let bit = |i: u8| b >> i & 1 == 1;
    let rules = Rules::STANDARD
        .with_capture(if bit(0) {
            Capture::SameRing
        } else {
            Capture::Any
        })
        .with_between(Between::ALL[usize::from(b >> 1 & 3) % 3])
        .with_guard_return(if bit(3) {
            GuardReturn::NextRing
        } else {
            GuardReturn::Outer
        })
        .with_queen_return(if bit(4) {
            QueenReturn::NotThrone
        } else {
            QueenReturn::Any
        })
        .with_queen_placer(if bit(5) {
            QueenPlacer::Captor
        } else {
            QueenPlacer::Owner
        })
        .with_empty_throne_ring(if bit(6) {
            EmptyThroneRing::Draw
        } else {
            EmptyThroneRing::Loses
        })
        .with_stuck(if bit(7) { Stuck::Pass } else { Stuck::Loses })
        .with_repetition(if bit(1) && bit(2) {
            Repetition::Off
        } else {
            Repetition::Third
        });
    if bit(2) && !bit(1) {
        rules.with_limit(40).unwrap_or(rules)
    } else {
        rules
    }
}
