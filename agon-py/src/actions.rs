//! The learning encoding, from `agon-rl` (the one home of the action space, the masks,
//! the observation planes and the symmetries' action maps): this module only adapts its
//! names to the binding's (`axial: bool` for the layout, actions as `usize`).

use agon_core as ac;
use agon_rl::{Action, Layout};

pub use agon_rl::{
    action_count, packed_mask_len, ACTION_COUNT, AXIAL_SIDE, CHANNELS, CHANNEL_COUNT,
    INNER_RETURN_BASE, MAX_ACTION_COUNT, NEXT_RING_RETURN_BASE, OUTER_RETURN_BASE, PACKED_MASK_LEN,
    PASS_ACTION, STEP_ACTIONS,
};

/// Cells per plane in the flat layout.
pub const FLAT: usize = Layout::Flat.plane_len();

/// The layout of `axial`.
pub const fn layout(axial: bool) -> Layout {
    if axial {
        Layout::Axial
    } else {
        Layout::Flat
    }
}

/// The action of a move, or `None` for a step between cells that are not adjacent.
#[inline]
pub fn move_to_action(m: ac::Move) -> Option<usize> {
    Action::from_move(m).map(Action::index)
}

/// The action of a move of `position`, in the action space of its rules (a guard's return
/// to an inner cell under `guard-return=next-ring` is of its own block), or `None` for a
/// step between cells that are not adjacent.
#[inline]
pub fn move_to_action_in(m: ac::Move, position: &ac::Position) -> Option<usize> {
    Action::from_move_in(m, position).map(Action::index)
}

/// The move an action stands for in `position` (not checked for legality), or `None` for
/// a number out of the range of its rules' action space or a step off the board.
pub fn action_to_move(position: &ac::Position, action: usize) -> Option<ac::Move> {
    Action::new_in(action, position.rules())?.to_move(position)
}

/// The mask of the legal actions of `position` (none if `over`), `action_count` of its
/// rules wide.
pub fn position_mask(position: &ac::Position, over: bool) -> Vec<bool> {
    let mut v = vec![false; action_count(position.rules())];
    if !over {
        agon_rl::write_position_mask(position, &mut v);
    }
    v
}

/// The position of each cell in the axial layout.
pub fn axial_offset(c: ac::Cell) -> usize {
    Layout::Axial.offset(c)
}

/// Writes the observation of `position` into `out`.
pub fn write_observation(position: &ac::Position, axial: bool, out: &mut [f32]) {
    agon_rl::write_observation(position, layout(axial), out);
}

/// The length of one observation.
pub const fn observation_len(axial: bool) -> usize {
    layout(axial).observation_len()
}
