//! The fast generator: the same candidates as the reference, judged without playing each
//! whole turn on a copy of the position.
//!
//! The reference ([`Cypher::generate_reference`]) clones the position for every candidate and
//! plays it with [`Cypher::apply_turn`]. Most candidates are one plain move (no second action,
//! no coup, no release): for those the only state a turn changes that the rules of legality
//! read is two cells and the mover's King or Spy square, so the node keeps one scratch copy,
//! makes the move on it, asks the same [`Cypher::judge`] the reference asks (with the same
//! flags, so it consults the same options), and undoes it. Every other candidate is rare and
//! goes the reference's way. The last ply of a search is counted the same way, without a
//! move list. The property tests in `fast_agreement.rs` hold the two generators together.

use super::*;

/// Judges candidates as they come, on one scratch copy of the position.
struct Judge<'a> {
    pos: &'a Cypher,
    scratch: Cypher,
    /// Whether the mover's King is in check before the turn.
    checked: bool,
    /// The last Spy exit judged on its own: whether it passed, and whether the position it
    /// leaves is quiet ([`Cypher::quiet`]) for the second action.
    exit: Option<(u16, u16, bool, bool)>,
    /// Whether only the check test can refuse a move of a piece other than King and Spy
    /// ([`Cypher::quiet`]).
    quiet: bool,
    /// [`Self::danger`] of the position.
    danger: u64,
}

impl Judge<'_> {
    fn new(pos: &Cypher) -> Judge<'_> {
        Judge {
            pos,
            scratch: pos.clone(),
            checked: pos.king_in_check(pos.turn),
            exit: None,
            quiet: pos.quiet(),
            danger: Self::danger(pos),
        }
    }

    /// Whether the candidate `m` (which the rules of movement and zones let through) is legal.
    #[inline(always)]
    fn legal(&mut self, m: Move) -> bool {
        let pos = self.pos;
        let role = pos.at(m.from as i32) >> 1;
        match m.kind {
            K_NORMAL if !(role == PAWN && rank_of(m.to as i32) == coup_rank(pos.turn as u8)) => {
                self.plain(m, role)
            }
            K_ENTRY => self.entry(m),
            _ => self.played(m),
        }
    }

    /// A move with nothing after it.
    #[inline(always)]
    fn plain(&mut self, m: Move, role: u8) -> bool {
        let pos = self.pos;
        let us = pos.turn as usize;
        let (acted, opened, captured) = self.make(m, role);
        let s = &self.scratch;
        let test = self.check_test(&opened, s.kings[us], self.quiet);
        let ok = if self.quiet && !matches!(role, KING | SPY) {
            let in_check = s.left_in_check(pos.turn, test, -1);
            confirm_quiet(s, pos.turn, acted, test, in_check);
            !in_check
        } else {
            s.judge(pos.turn, acted, test).is_ok()
        };
        self.unmake(m, captured);
        ok
    }

    /// The Court Spy's exit and the piece it lets into Court: the exit is judged on its own
    /// first (once for all the entries after it), then the whole turn.
    fn entry(&mut self, m: Move) -> bool {
        let pos = self.pos;
        let (from2, to2) = (m.from2 as i32, m.to2 as i32);
        let (acted, mut opened, captured) = self.make(m, SPY);
        let (first, quiet) = match self.exit {
            Some((f, t, ok, quiet)) if (f, t) == (m.from, m.to) => (ok, quiet),
            _ => {
                let ok = self.scratch.judge_first(pos.turn, acted).is_ok();
                // What the second action is judged by depends on where the exit left the Spy.
                let quiet = self.scratch.quiet();
                self.exit = Some((m.from, m.to, ok, quiet));
                (ok, quiet)
            }
        };
        let mut ok = first;
        if first {
            let c2 = self.scratch.at(from2);
            debug_assert!(
                self.scratch.at(to2) == EMPTY && is_major(c2 >> 1) && zone_of(to2) == COURT
            );
            self.scratch.board.set_cell(Sq(m.from2), EMPTY);
            self.scratch.board.set_cell(Sq(m.to2), c2);
            opened.add(from2);
            let test = self.check_test(&opened, self.scratch.kings[pos.turn.index()], quiet);
            let s = &mut self.scratch;
            ok = if quiet {
                let in_check = s.left_in_check(pos.turn, test, -1);
                confirm_quiet(s, pos.turn, Acted::default(), test, in_check);
                !in_check
            } else {
                s.judge(pos.turn, Acted::default(), test).is_ok()
            };
            s.board.set_cell(Sq(m.to2), EMPTY);
            s.board.set_cell(Sq(m.from2), c2);
        }
        self.unmake(m, captured);
        ok
    }

    /// How a turn that opened `opened` is tested for leaving the King on `king` in check: as
    /// `apply_turn` decides whether to test at all, but along the opened lines only where the
    /// King was not in check and did not move; in a `quiet` position (no flip can take a
    /// piece away) only along those of them that an enemy rider stands on.
    #[inline(always)]
    fn check_test(&self, opened: &Opened, king: u16, quiet: bool) -> CheckTest {
        if self.checked || self.scratch.designed || opened.king_moved {
            return CheckTest::Full;
        }
        if !quiet {
            return if opened.lines_to(king as i32) {
                CheckTest::Along(*opened)
            } else {
                CheckTest::Skip
            };
        }
        let mut lines = Opened::default();
        for &x in &opened.squares[..opened.n] {
            let d = line_step(king as i32, x);
            if d != 0 && self.danger >> (d + 23) & 1 != 0 {
                lines.add(x);
            }
        }
        if lines.n > 0 {
            CheckTest::Along(lines)
        } else {
            CheckTest::Skip
        }
    }

    /// The directions from the mover's King, by bit `dir + 23`, on which an enemy rider
    /// stands (see [`Self::check_test`]).
    fn danger(pos: &Cypher) -> u64 {
        let k = pos.kings[pos.turn.index()] as i32;
        if k == 0 || zone_of(k) == COURT || pos.designed {
            return 0;
        }
        let table = &attack_tables()[pos.turn.other().index()];
        QUEEN_STEPS
            .iter()
            .filter(|&&d| table.rides_along(&pos.board, Sq(k as u16), d))
            .fold(0, |mask, &d| mask | 1 << (d + 23))
    }

    /// Makes the primary move of `m` (a piece of `role`) on the scratch copy, as `apply_turn`
    /// does: what it did, the squares it opened and what it took.
    #[inline(always)]
    fn make(&mut self, m: Move, role: u8) -> (Acted, Opened, u8) {
        let us = self.pos.turn as usize;
        let (from, to) = (m.from as i32, m.to as i32);
        let s = &mut self.scratch;
        let c = s.at(from);
        let captured = s.at(to);
        // The zone rules never let a King or a Spy be taken, so no King or Spy square changes
        // but the mover's.
        debug_assert!(captured == EMPTY || !matches!(captured >> 1, KING | SPY));
        s.board.set_cell(Sq(m.from), EMPTY);
        s.board.set_cell(Sq(m.to), c);
        let mut acted = Acted::default();
        let mut opened = Opened::default();
        opened.add(from);
        match role {
            KING => {
                s.kings[us] = m.to;
                acted.king_moved = true;
                opened.king_moved = true;
                acted.king_entered = zone_of(from) != COURT && zone_of(to) == COURT;
            }
            SPY => {
                s.spies[us] = m.to;
                acted.spy_moved = true;
                // A Spy outside Court is transparent for check.
                if zone_of(to) != COURT {
                    opened.add(to);
                }
            }
            _ => {}
        }
        (acted, opened, captured)
    }

    /// Takes back [`Self::make`].
    #[inline(always)]
    fn unmake(&mut self, m: Move, captured: u8) {
        let us = self.pos.turn as usize;
        let s = &mut self.scratch;
        s.board.set_cell(Sq(m.from), s.at(m.to as i32));
        s.board.set_cell(Sq(m.to), captured);
        s.kings[us] = self.pos.kings[us];
        s.spies[us] = self.pos.spies[us];
    }

    /// The reference's way: the whole turn played on a copy.
    #[cold]
    #[inline(never)]
    fn played(&self, m: Move) -> bool {
        self.pos.clone().apply_turn(m, Some(self.checked)).is_ok()
    }
}

/// Debug builds confirm that in a quiet position the check test alone (`in_check`) is what
/// the whole judge says of the action `acted`.
#[inline(always)]
fn confirm_quiet(s: &Cypher, mover: Color, acted: Acted, test: CheckTest, in_check: bool) {
    debug_assert_eq!(
        crate::rules::consulted::quietly(|| s.judge(mover, acted, test)),
        if in_check {
            Err("own-king-in-check")
        } else {
            Ok(None)
        }
    );
}

thread_local! {
    /// The list [`Cypher::count_fast`] has the reference fill where it falls back to it.
    static SCRATCH: std::cell::RefCell<Vec<Move>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A sink that counts the legal candidates as the generator sends them.
struct Count<'a> {
    judge: Judge<'a>,
    n: u64,
}

impl Verdicts<Move> for Count<'_> {
    const REJECTED: bool = false;

    #[inline(always)]
    fn legal(&mut self, m: Move) {
        self.n += u64::from(self.judge.legal(m));
    }
}

impl Cypher {
    /// Whether infiltrations on a turn of their own may be candidates here: they need the
    /// side's King on the Border with its infiltration unused (and the `later-turn` reading,
    /// which `alone_candidates` asks itself).
    fn alone_possible(&self) -> bool {
        let us = self.turn.index();
        let k = self.kings[us] as i32;
        k != 0 && zone_of(k) == BORDER && !self.infiltration_used[us]
    }

    /// Every legal turn, in the reference's order.
    pub(super) fn generate_fast(&self, out: &mut Vec<Move>) {
        if self.alone_possible() {
            return self.generate_reference(out);
        }
        let start = out.len();
        self.candidates(&Focus::EVERY, out);
        let mut judge = Judge::new(self);
        // The reference's filter, so that the order (which searches follow) is the same.
        let mut i = start;
        while i < out.len() {
            if judge.legal(out[i]) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// The number of legal turns, without listing them.
    pub(super) fn count_fast(&self) -> u64 {
        if self.alone_possible() {
            // One list per thread, reused: an allocation per counted position is what makes
            // threads contend in the allocator.
            return SCRATCH.with(|v| {
                let mut v = v.borrow_mut();
                v.clear();
                self.generate_reference(&mut v);
                v.len() as u64
            });
        }
        let mut count = Count {
            judge: Judge::new(self),
            n: 0,
        };
        self.candidates(&Focus::EVERY, &mut count);
        count.n
    }
}
