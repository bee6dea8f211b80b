//! The Cypher rules the invariants need, restated from the texts on top of the zone-blind
//! geometry of [`crate::rules::reach`], so that an invariant does not ask the code it audits.
//!
//! Nothing here reads the engine's zone table ([`super::ZONE`]), its attack test
//! ([`Cypher::attacker`]), its cached King and Spy squares or its `king_in_check`: zones come
//! from III.i-iii, who checks whom from IV.v, IV.ii.b-d, IV.iv.b, V.iv and V.xii (with the
//! options that settle what the texts leave open), Kings are found by looking at the board.

use super::{Cypher, Opts};
use crate::rules::board::{Board, Square};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::reach::{find_king, reach, Reach};

/// The three areas of the board (main III).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Area {
    Court,
    Border,
    Field,
}

/// The area of a square, from main III.i-iii: Court is files z and i and ranks 0 and 10, the
/// Border is a5..h5, the Field the rest.
pub(super) fn area(s: Square) -> Area {
    if s.file == 0 || s.file == 9 || s.rank == 0 || s.rank == 10 {
        Area::Court
    } else if s.rank == 5 {
        Area::Border
    } else {
        Area::Field
    }
}

/// The infiltration squares d0 and d10 (main VI.i.a).
pub(super) fn infiltration_square(s: Square) -> bool {
    s.file == 4 && (s.rank == 0 || s.rank == 10)
}

/// The square of a piece of `them` that checks, by the texts, a King standing on `king`, or
/// `None`. `flipped` is a Spy the King has just flipped (flipping VII.d.2), which no longer
/// counts, neither as a checker nor as a blocker.
///
/// - IV.v.a: a Court King cannot be checked at all.
/// - IV.v.b-c, V.xii, IV.ii.b, IV.ii.d, IV.iv.b: a Border or Field King is checked by Field
///   pawns (Border pawns under `border-pawn-checks = yes`), and by major pieces on the Border
///   and in Court, the King and the Spy included (a Field Spy under `field-spy-checks = yes`).
/// - IV.i.a, V.xv: major Field pieces never check.
/// - II.iii.c, II.iii.e: a Border knight reaches by either L, a Court knight by the extended
///   one only.
/// - `border-king-beside-field-king = allowed`: a Border King gives no check to a Field King.
/// - V.iv: a Border or Field Spy of either colour standing between is transparent.
pub(super) fn checker(
    board: &Board,
    opts: &Opts,
    king: Square,
    them: Color,
    flipped: Option<Square>,
) -> Option<Square> {
    match area(king) {
        Area::Court => None,
        king_area => checker_in(board, opts, king, king_area, them, flipped),
    }
}

/// The square of a piece of `them` that would check a King on the Court square `king` if
/// IV.v.a did not exempt Court Kings: one that checks a Border King there by the other rules
/// of [`checker`].
pub(super) fn exempted_checker(
    board: &Board,
    opts: &Opts,
    king: Square,
    them: Color,
) -> Option<Square> {
    checker_in(board, opts, king, Area::Border, them, None)
}

/// [`checker`] for a King on `king` counted as standing in `king_area`.
fn checker_in(
    board: &Board,
    opts: &Opts,
    king: Square,
    king_area: Area,
    them: Color,
    flipped: Option<Square>,
) -> Option<Square> {
    let passable = |s: Square, p: Piece| {
        Some(s) == flipped || (p.role() == Role::Spy && area(s) != Area::Court)
    };
    board.pieces().find_map(|(x, p)| {
        if p.color() != them || Some(x) == flipped {
            return None;
        }
        let how = reach(board, x, p, king, passable)?;
        let checks = match (p.role(), area(x)) {
            (Role::Pawn, Area::Field) => true,
            (Role::Pawn, Area::Border) => opts.border_pawn_checks.get(),
            (Role::Pawn, Area::Court) => false,
            (Role::Spy, Area::Field) => opts.field_spy_checks.get(),
            (_, Area::Field) => false,
            (Role::Knight, Area::Court) => how == Reach::Leap13,
            (Role::King, Area::Border) => {
                king_area == Area::Border || !opts.border_king_allowed.get()
            }
            (_, Area::Court | Area::Border) => true,
        };
        checks.then_some(x)
    })
}

/// The King of `color` (`hint`: where the engine keeps it, confirmed on the board) and the Spy
/// of the other colour it stands next to outside Court, which it has thereby flipped (flipping
/// VII.d.2).
pub(super) fn flipped_by(
    board: &Board,
    color: Color,
    hint: Square,
) -> (Option<Square>, Option<Square>) {
    let Some(k) = find_king(board, color, hint) else {
        return (None, None);
    };
    if area(k) == Area::Court {
        return (Some(k), None);
    }
    let spy = Piece::new(color.other(), Role::Spy);
    let beside = (-1..=1)
        .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
        .map(|(df, dr)| Square::new((k.file as i32 + df) as u8, (k.rank as i32 + dr) as u8))
        .find(|&s| s != k && board.get(s) == Some(spy));
    (Some(k), beside)
}

impl Cypher {
    /// The geometry's square of a mailbox index.
    pub(super) fn square_of(s: u16) -> Square {
        crate::rules::board::Sq(s).square()
    }
}
