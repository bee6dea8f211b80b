//! Zone-blind piece geometry for the invariants' independent checks: whether a piece standing
//! on one square reaches another by its movement pattern alone, the squares between them being
//! empty (or passable, as the caller says).
//!
//! It is written on purpose to share nothing with the move generators and attack tests it
//! audits: it works on [`Square`] coordinates and [`Board::get`], with no mailbox offsets,
//! direction tables or cached King squares, and it knows nothing of zones, sanctuary or whose
//! turn it is. Each variant restates its own rules (who may check whom from where) on top of it,
//! next to the invariant that uses them. It allocates nothing.

use super::board::{Board, Square};
use super::piece::{Color, Piece, Role};

/// How a piece reaches a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// One step in any direction (the King).
    Step,
    /// Along a rank, file or diagonal with nothing in the way (queen, rook, bishop, Spy).
    Line,
    /// The classical knight's L: one square one way, two the other.
    Leap12,
    /// The extended L of Cypher Chess: one square one way, three the other.
    Leap13,
    /// A pawn's capture: one square diagonally forward (White forward is up the ranks).
    PawnCapture,
    /// A capture by an atom of an invented piece's design: one leap, a ride with nothing in
    /// the way, or a hop over exactly one piece.
    Design,
}

/// How `piece` on `from` reaches `to` by its pattern, or `None`. A piece between `from` and `to`
/// on a line blocks it unless `passable(square, piece)` says otherwise. Knights reach by the
/// classical or the extended L alike; which one counts is the caller's rule.
pub(crate) fn reach(
    board: &Board,
    from: Square,
    piece: Piece,
    to: Square,
    passable: impl Fn(Square, Piece) -> bool,
) -> Option<Reach> {
    let df = to.file as i32 - from.file as i32;
    let dr = to.rank as i32 - from.rank as i32;
    let (near, far) = (df.abs().min(dr.abs()), df.abs().max(dr.abs()));
    if far == 0 {
        return None;
    }
    let straight = near == 0;
    let diagonal = df.abs() == dr.abs();
    let line = |ok: bool| (ok && clear(board, from, to, &passable)).then_some(Reach::Line);
    match piece.role() {
        Role::King => (far == 1).then_some(Reach::Step),
        Role::Pawn => {
            let forward = if piece.color() == Color::White { 1 } else { -1 };
            (df.abs() == 1 && dr == forward).then_some(Reach::PawnCapture)
        }
        Role::Knight => match (near, far) {
            (1, 2) => Some(Reach::Leap12),
            (1, 3) => Some(Reach::Leap13),
            _ => None,
        },
        Role::Rook => line(straight),
        Role::Bishop => line(diagonal),
        Role::Queen | Role::Spy => line(straight || diagonal),
        Role::Design => {
            let design = piece.design()?;
            design_capture(board, from, piece.color(), design, (df, dr), &passable)
                .then_some(Reach::Design)
        }
        _ => None,
    }
}

/// Whether a capturing atom of `design` takes a piece of `color` from `from` by `(df, dr)`:
/// the vector is a whole number `k` of one of the atom's steps (turned for Black), within its
/// range, with the squares between empty or passable (a hopper: exactly one piece between).
fn design_capture(
    board: &Board,
    from: Square,
    color: Color,
    design: super::design::DesignId,
    (df, dr): (i32, i32),
    passable: &impl Fn(Square, Piece) -> bool,
) -> bool {
    use super::movement::Reach as Range;
    let turn = if color == Color::White { 1 } else { -1 };
    design.movement().atoms.iter().any(|a| {
        a.modality.captures()
            && a.steps.iter().any(|&(sf, sr)| {
                let (sf, sr) = (sf as i32 * turn, sr as i32 * turn);
                if (sf, sr) == (0, 0) {
                    return false;
                }
                let k = if sf != 0 { df / sf } else { dr / sr };
                if k < 1 || df != k * sf || dr != k * sr {
                    return false;
                }
                let blocks = |s: Square| {
                    board.is_wall(super::board::Sq::of(s))
                        || board.get(s).is_some_and(|p| !passable(s, p))
                };
                let at = |i: i32, (x, y): (i32, i32)| {
                    Square::new(
                        (from.file as i32 + i * x) as u8,
                        (from.rank as i32 + i * y) as u8,
                    )
                };
                if a.reach == Range::Lame {
                    let (path, n) = crate::betza::lame_path(sf, sr);
                    return k == 1 && path[..n].iter().all(|&p| !blocks(at(1, p)));
                }
                // The steps at which a piece that is not passable stands between.
                let mut between = (1..k).filter(|&i| blocks(at(i, (sf, sr))));
                match a.reach {
                    Range::Leap | Range::Lame => k == 1,
                    Range::Ride(limit) => {
                        (limit == 0 || k <= limit as i32) && between.next().is_none()
                    }
                    Range::Hop(limit) => match (between.next(), between.next()) {
                        (Some(screen), None) => limit == 0 || k - screen <= limit as i32,
                        _ => false,
                    },
                }
            })
    })
}

/// Whether every square strictly between `from` and `to` (on one line) is empty or passable.
fn clear(
    board: &Board,
    from: Square,
    to: Square,
    passable: &impl Fn(Square, Piece) -> bool,
) -> bool {
    let step_f = (to.file as i32 - from.file as i32).signum();
    let step_r = (to.rank as i32 - from.rank as i32).signum();
    let mut f = from.file as i32 + step_f;
    let mut r = from.rank as i32 + step_r;
    while (f, r) != (to.file as i32, to.rank as i32) {
        let s = Square::new(f as u8, r as u8);
        if let Some(p) = board.get(s) {
            if !passable(s, p) {
                return false;
            }
        }
        f += step_f;
        r += step_r;
    }
    true
}

/// The square of the King of `color` as the board shows it: `hint` (an engine's cached King
/// square, which saves the scan) when the board confirms that King there, otherwise the first
/// one found looking at every square.
pub(crate) fn find_king(board: &Board, color: Color, hint: Square) -> Option<Square> {
    let king = Piece::new(color, Role::King);
    if board.get(hint) == Some(king) {
        return Some(hint);
    }
    board.pieces().find(|&(_, p)| p == king).map(|(s, _)| s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Geometry;

    fn board(pieces: &[(&str, Piece)]) -> Board {
        let g = Geometry::lettered(8, 8);
        let mut b = Board::empty(g);
        for (s, p) in pieces {
            b.put(g.parse_square(s).unwrap(), Some(*p));
        }
        b
    }

    fn sq(s: &str) -> Square {
        Geometry::lettered(8, 8).parse_square(s).unwrap()
    }

    #[test]
    fn patterns() {
        let w = |r| Piece::new(Color::White, r);
        let b = board(&[("d4", w(Role::Rook)), ("d6", w(Role::Pawn))]);
        let none = |_: Square, _: Piece| false;
        assert_eq!(
            reach(&b, sq("d4"), w(Role::Rook), sq("d5"), none),
            Some(Reach::Line)
        );
        assert_eq!(reach(&b, sq("d4"), w(Role::Rook), sq("d7"), none), None);
        assert_eq!(
            reach(&b, sq("d4"), w(Role::Rook), sq("d7"), |_, _| true),
            Some(Reach::Line)
        );
        assert_eq!(reach(&b, sq("d4"), w(Role::Rook), sq("e5"), none), None);
        assert_eq!(
            reach(&b, sq("d4"), w(Role::Bishop), sq("g7"), none),
            Some(Reach::Line)
        );
        assert_eq!(
            reach(&b, sq("d4"), w(Role::Knight), sq("e6"), none),
            Some(Reach::Leap12)
        );
        assert_eq!(
            reach(&b, sq("d4"), w(Role::Knight), sq("e7"), none),
            Some(Reach::Leap13)
        );
        assert_eq!(reach(&b, sq("d4"), w(Role::Knight), sq("f6"), none), None);
        assert_eq!(
            reach(&b, sq("d4"), w(Role::King), sq("e5"), none),
            Some(Reach::Step)
        );
        assert_eq!(reach(&b, sq("d4"), w(Role::King), sq("d4"), none), None);
        let black_pawn = Piece::new(Color::Black, Role::Pawn);
        assert_eq!(
            reach(&b, sq("d4"), w(Role::Pawn), sq("e5"), none),
            Some(Reach::PawnCapture)
        );
        assert_eq!(reach(&b, sq("d4"), w(Role::Pawn), sq("e3"), none), None);
        assert_eq!(
            reach(&b, sq("d4"), black_pawn, sq("e3"), none),
            Some(Reach::PawnCapture)
        );
        assert_eq!(reach(&b, sq("d4"), w(Role::Pawn), sq("d5"), none), None);
        assert_eq!(find_king(&b, Color::White, sq("d4")), None);
        let b = board(&[("c1", w(Role::King)), ("d4", w(Role::Rook))]);
        assert_eq!(find_king(&b, Color::White, sq("d4")), Some(sq("c1")));
        assert_eq!(find_king(&b, Color::White, sq("c1")), Some(sq("c1")));
    }
}
