//! The learning encoding, from `agon-rl` (the one home of the action space, the masks,
//! the observation planes and the symmetries' action maps): this module only adapts its
//! names to the binding's (`axial: bool` for the layout, actions as `usize`).

use agon_core as ac;
use agon_rl::{Action, Layout};

pub use agon_rl::{
    ACTION_COUNT, AXIAL_SIDE, CHANNELS, CHANNEL_COUNT, INNER_RETURN_BASE, OUTER_RETURN_BASE,
    PACKED_MASK_LEN, STEP_ACTIONS,
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

/// The move an action stands for in `position` (not checked for legality), or `None` for
/// a number out of range or a step off the board.
pub fn action_to_move(position: &ac::Position, action: usize) -> Option<ac::Move> {
    Action::new(action)?.to_move(position)
}

/// Writes the mask of legal actions (`ACTION_COUNT` entries).
#[inline]
pub fn write_mask(moves: impl IntoIterator<Item = ac::Move>, out: &mut [bool]) {
    agon_rl::write_mask(moves, out);
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
