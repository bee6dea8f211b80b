//! The King-safety test of move lists, without playing each candidate on a copy.
//!
//! The reference ([`Csipgs::consider`]) clones the whole position (board, reserves, designs)
//! for every candidate, plays it with the function that plays real turns, and asks whether
//! the mover's only King is attacked. For a move list (a sink that wants no refusals) only the
//! board matters to that question: [`Safety`] keeps one scratch board per position, passes
//! without a test what provably cannot expose the King (as chess does with invented pieces,
//! through [`crate::rules::movement::AttackTable::screens`]), and otherwise makes the step or
//! drop on the scratch board, asks the same attack table, and takes it back.
//! `fast_agreement.rs` holds the two together on random playouts.

use super::*;

/// The mover's King safety, for the candidates of one position.
pub(super) struct Safety<'a> {
    /// The mover's King, as [`Csipgs::kings`] finds them.
    king: Piece,
    /// The mover's Kings before the turn.
    kings: &'a [Sq],
    tables: design::Tables,
    /// With exactly one King not in check: the pieces that alone screen it from an enemy rider
    /// (`None` when it is in check, or an enemy piece hops: then every step is tested).
    screens: Option<Vec<Sq>>,
    scratch: Board,
    /// Kings counted when the turn starts (`kings-counted = before-turn`).
    kings_before: Reading<bool>,
}

impl Safety<'_> {
    /// `kings` are the mover's, as [`Csipgs::kings`] lists them; `checked`, whether one of
    /// them is attacked.
    pub(super) fn new<'a>(pos: &Csipgs, kings: &'a [Sq], checked: bool) -> Safety<'a> {
        let us = pos.turn;
        let tables = attack_tables_with_designs();
        let screens = match *kings {
            [k] if !checked => tables[us.other().index()].screens(&pos.board, k),
            _ => None,
        };
        Safety {
            king: Piece::new(us, Role::King),
            kings,
            tables,
            screens,
            scratch: pos.board.clone(),
            kings_before: pos.opts.kings_before,
        }
    }

    /// Whether the step of `piece` from `from` to `to` leaves the mover's only King, if it has
    /// one, unattacked; with several Kings check may be ignored (7).
    pub(super) fn step(&mut self, piece: Piece, from: Sq, to: Sq) -> bool {
        let king_moves = piece == self.king;
        let k = match (self.kings, king_moves) {
            ([k], false) => *k,
            ([_], true) => to,
            _ => return true,
        };
        if !king_moves && self.screens.as_ref().is_some_and(|s| !s.contains(&from)) {
            return true;
        }
        let taken = self.scratch.piece_at(to);
        self.scratch.set(to, Some(piece));
        self.scratch.set(from, None);
        let safe = self.unattacked(k);
        self.scratch.set(from, Some(piece));
        self.scratch.set(to, taken);
        safe
    }

    /// Whether dropping `piece` on the empty square `to` leaves the mover's only King, if it
    /// has one after the drop, unattacked; a King dropped beside the only one as
    /// [`Csipgs::consider`] judges it.
    pub(super) fn drop(&mut self, piece: Piece, to: Sq) -> bool {
        let king = piece == self.king;
        let k = match (self.kings, king) {
            ([k], false) => *k,
            ([], true) => to,
            ([k], true) => {
                let k = *k;
                self.scratch.set(to, Some(piece));
                let safe = self.unattacked(k) && self.unattacked(to);
                self.scratch.set(to, None);
                return safe || !self.kings_before.get();
            }
            _ => return true,
        };
        // A drop only adds a piece: with no hopper it can only block.
        if !king && self.screens.is_some() {
            return true;
        }
        self.scratch.set(to, Some(piece));
        let safe = self.unattacked(k);
        self.scratch.set(to, None);
        safe
    }

    fn unattacked(&self, k: Sq) -> bool {
        self.tables[self.king.color().other().index()]
            .attacker(&self.scratch, k, |_| true, |_, _| false)
            .is_none()
    }
}
