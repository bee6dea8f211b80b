//! Mailbox helpers any variant's move generator can share: direction offsets for the usual
//! riders and leapers, ray walks and line geometry. Offsets are board-size independent because
//! the mailbox stride is fixed (see [`super::board`]).

use super::board::{delta, Board, Sq, Square};

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

/// The first cell along `dir` from `from` (exclusive) that is not empty: a piece or the wall.
#[inline]
pub fn first_on_ray(board: &Board, from: Sq, dir: i32) -> Sq {
    let mut s = from.offset(dir);
    while board.is_empty(s) {
        s = s.offset(dir);
    }
    s
}

/// The unit step `(df, dr)` from `a` towards `b` when they share a rank, file or diagonal.
pub fn line_step(a: Square, b: Square) -> Option<(i32, i32)> {
    let df = b.file as i32 - a.file as i32;
    let dr = b.rank as i32 - a.rank as i32;
    if (df, dr) == (0, 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    Some((df.signum(), dr.signum()))
}

/// The first occupied square strictly between `a` and `b` on their common line, if any.
pub fn first_blocker(board: &Board, a: Square, b: Square) -> Option<Square> {
    let (df, dr) = line_step(a, b)?;
    let d = delta(df, dr);
    let end = Sq::of(b);
    let mut s = Sq::of(a).offset(d);
    while s != end {
        if !board.is_empty(s) {
            return Some(s.square());
        }
        s = s.offset(d);
    }
    None
}
