//! Direction offsets for the usual riders and leapers, for the specialised generators that
//! walk the mailbox directly (the movement model, [`super::movement`], describes pieces as
//! data). Offsets are board-size independent because the mailbox stride is fixed (see
//! [`super::board`]).

use super::board::delta;

/// Rook directions: up, down, right, left.
pub const ORTHOGONAL: [i32; 4] = [delta(0, 1), delta(0, -1), delta(1, 0), delta(-1, 0)];
/// Bishop directions.
pub const DIAGONAL: [i32; 4] = [delta(1, 1), delta(-1, 1), delta(1, -1), delta(-1, -1)];
/// Queen and king directions: the four orthogonal ones first, then the four diagonal ones.
pub const QUEEN: [i32; 8] = [
    ORTHOGONAL[0],
    ORTHOGONAL[1],
    ORTHOGONAL[2],
    ORTHOGONAL[3],
    DIAGONAL[0],
    DIAGONAL[1],
    DIAGONAL[2],
    DIAGONAL[3],
];
/// Knight leaps.
pub const KNIGHT: [i32; 8] = [
    delta(1, 2),
    delta(-1, 2),
    delta(2, 1),
    delta(-2, 1),
    delta(1, -2),
    delta(-1, -2),
    delta(2, -1),
    delta(-2, -1),
];
