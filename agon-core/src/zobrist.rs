//! Zobrist keys: one random 64-bit key per (side, kind, captured mark, cell) and one for
//! Black to move. A position's hash is the XOR of the keys of what it holds.

use crate::{Cell, Kind, Side};

/// SplitMix64, evaluated at compile time: fixed keys, so hashes are stable across runs,
/// platforms and versions of this crate within a major version.
const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Keys indexed by `side * 4 + kind * 2 + captured`, then by internal cell bit.
const PIECE_KEYS: [[u64; 128]; 8] = {
    let mut t = [[0u64; 128]; 8];
    let mut state = 0x4167_6F6E_2031_3834u64; // "Agon 184"
    let mut k = 0;
    while k < 8 {
        let mut b = 0;
        while b < 128 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            t[k][b] = splitmix(state);
            b += 1;
        }
        k += 1;
    }
    t
};

/// XORed in when Black is to move.
pub(crate) const BLACK_TO_MOVE: u64 = splitmix(0x5175_6565_6E27_7347); // "Queen's G"

/// The key of one piece on one cell.
#[inline]
pub(crate) const fn piece_key(side: Side, kind: Kind, captured: bool, cell: Cell) -> u64 {
    PIECE_KEYS[side as usize * 4 + kind as usize * 2 + captured as usize][cell.bit() as usize]
}
