//! Regions that change who may capture and who may go where: `sanctuary` (a piece standing
//! in a region is not taken, or only by some kinds), `no-entry` (pieces outside a region never
//! move into it) and a `region-move` with `replace yes` (a piece standing in a region moves
//! only so there). Each is asked through one function here, by the generator, the attack test
//! and the judge alike, so a move is made, an attack counted and a refusal explained by the
//! same reading of the component.

use super::compile::{Compiled, KindSet, RegionMove, SqSet, Tag};
use super::position::{Move, Position, Special};
use crate::definition::model::Reach;
use crate::rules::board::{cell, Board, Sq};
use crate::rules::explain::Step;
use crate::rules::movement::{destinations, Movement};
use crate::rules::piece::Color;

/// A region whose pieces are not captured by some kinds ([`crate::definition::Component::Sanctuary`]).
#[derive(Clone, Debug)]
pub struct Sanctuary {
    pub tag: Tag,
    /// The kinds it protects.
    pub kinds: KindSet,
    /// Where each side's pieces are protected.
    pub region: [SqSet; 2],
    /// The capturers it holds against; `None`: every kind, invented pieces included.
    pub by: Option<KindSet>,
    /// Where those capturers stand, seen from the protected side's region.
    pub from: Reach,
    /// `from ZONE...`: the capturers stand in these squares (the protected side's part).
    pub from_zones: Option<[SqSet; 2]>,
    /// Whether it also keeps them from attacking (a royal piece there is not in check).
    pub attacks: bool,
}

/// A region pieces of some kinds never enter from outside
/// ([`crate::definition::Component::NoEntry`]).
#[derive(Clone, Debug)]
pub struct NoEntry {
    pub tag: Tag,
    pub kinds: KindSet,
    pub region: [SqSet; 2],
    /// `while`: it applies only while a piece of these kinds stands in the moving side's
    /// region, of the moving side (`true`) or the other.
    pub while_present: Option<(bool, KindSet)>,
    /// `opened-by`: kinds whose leaving the region lets one piece in, the same turn.
    pub opened_by: KindSet,
    /// `except-beside`: a piece landing next to an enemy piece of these kinds enters.
    pub except_beside: KindSet,
    /// The rule id of its part `one-entry`: one exit lets one piece in.
    pub one_entry: &'static str,
    /// The rule id of its part `own-movement`: an entry is by the piece's own movement.
    pub own_movement: &'static str,
    /// The rule id of its part `crossing`: a piece inside crosses the outside to the region.
    pub crossing: &'static str,
}

impl NoEntry {
    /// Whether its `while` holds on `board` for a piece of `color`.
    fn holds(&self, c: &Compiled, board: &Board, color: Color) -> bool {
        let Some((own, kinds)) = self.while_present else {
            return true;
        };
        let side = if own { color } else { color.other() };
        let region = &self.region[color.index()];
        c.squares.iter().any(|&sq| {
            let code = board.cell(sq);
            region.has(sq)
                && super::position::is_of(code, side)
                && c.kind_at(code).is_some_and(|k| kinds.has(k))
        })
    }
}

impl Compiled {
    /// Whether a plain move of `us` may change where an enemy piece may enter a `no-entry`'s
    /// region, so what it attacks there, where a royal piece of `us` stands
    /// (`royal_inside`): a piece of its `except-beside` kinds moving or taken; one of the
    /// kinds its `while` looks for (`moving`, from `from`, or none for a drop; `became`, a
    /// promotion's kind) crossing the region's edge or changing kind in it, or `taken` on
    /// `to` in it.
    #[allow(clippy::too_many_arguments)]
    pub fn while_changed(
        &self,
        us: Color,
        royal_inside: impl Fn(&SqSet) -> bool,
        moving: Option<usize>,
        became: Option<usize>,
        from: Option<Sq>,
        to: Sq,
        taken: Option<usize>,
    ) -> bool {
        let them = us.other().index();
        self.no_entries.iter().any(|n| {
            // It bars the enemy's pieces from their region's squares alone.
            let region = &n.region[them];
            if !royal_inside(region) {
                return false;
            }
            let of = |kinds: KindSet, k: Option<usize>| k.is_some_and(|k| kinds.has(k));
            if of(n.except_beside, moving)
                || of(n.except_beside, became)
                || of(n.except_beside, taken)
            {
                return true;
            }
            let Some((own, kinds)) = n.while_present else {
                return false;
            };
            let inside = region.has(to);
            if own {
                // It looks for the enemy's own pieces: only one taken changes what it finds.
                return inside && of(kinds, taken);
            }
            of(kinds, moving) && from.is_some_and(|f| region.has(f)) != inside
                || inside && became.is_some() && (of(kinds, moving) || of(kinds, became))
        })
    }

    /// Whether a piece of `color` on `sq` stands next to an enemy piece of `kinds`.
    fn beside_enemy(&self, board: &Board, sq: Sq, color: Color, kinds: KindSet) -> bool {
        super::position::neighbour_cells(board, sq).any(|code| {
            super::position::is_of(code, color.other())
                && self.kind_at(code).is_some_and(|k| kinds.has(k))
        })
    }
}

/// Why a first action opens no region for a second ([`Position::exit`]).
pub enum Shut {
    /// It is no plain move of an `opened-by` piece out of its region.
    NoExit,
    /// The contact component of that index refuses it, played into that position.
    Contact(usize, Box<Position>),
    /// It ends the game.
    Ends,
}

/// The component that keeps a piece from a square.
#[derive(Clone, Copy, Debug)]
pub enum Bar<'a> {
    Sanctuary(&'a Sanctuary),
    NoEntry(&'a NoEntry),
}

impl Compiled {
    /// Whether a `sanctuary` or `no-entry` component may keep a move from being made.
    #[inline]
    pub fn bars_moves(&self) -> bool {
        !self.sanctuaries.is_empty() || !self.no_entries.is_empty()
    }

    /// Whether a zone component changes what attacks ([`Compiled::zone_admits`]).
    #[inline]
    pub fn zoned(&self) -> bool {
        self.bars_moves() || self.replacing
    }

    /// The first `no-entry` or `sanctuary` component (in the order written) that keeps a
    /// piece of `kind` and `color` on `from` from going to (or attacking) `to` on `board`,
    /// taking what stands on `taken` (`to`, or the piece an en-passant capture takes).
    pub fn bar(
        &self,
        board: &Board,
        kind: usize,
        color: Color,
        from: Sq,
        to: Sq,
        taken: Sq,
    ) -> Option<Bar<'_>> {
        self.bar_lifting(board, kind, color, from, to, taken, usize::MAX, None, false)
    }

    /// [`Self::bar`] with the `no-entry` component of index `lifted` (in
    /// [`Compiled::no_entries`]) set aside: the region a first action opened; and no
    /// sanctuary holding for a capture on `open`, a `retake` window's square. An `attack`
    /// (the attack test, not a move) passes the sanctuaries that only bar captures.
    #[allow(clippy::too_many_arguments)]
    pub fn bar_lifting(
        &self,
        board: &Board,
        kind: usize,
        color: Color,
        from: Sq,
        to: Sq,
        taken: Sq,
        lifted: usize,
        open: Option<Sq>,
        attack: bool,
    ) -> Option<Bar<'_>> {
        let side = color.index();
        let entry = self.no_entries.iter().enumerate().find_map(|(i, n)| {
            (i != lifted
                && n.kinds.has(kind)
                && n.region[side].has(to)
                && !n.region[side].has(from)
                && n.holds(self, board, color)
                && !(n.except_beside.0 != 0
                    && self.beside_enemy(board, to, color, n.except_beside)))
            .then_some(n)
        });
        let code = board.cell(taken);
        let victim = (code != cell::EMPTY
            && code != cell::WALL
            && code & 1 != color as u8
            && open != Some(taken))
        .then(|| self.kind_at(code))
        .flatten();
        let theirs = color.other().index();
        let sanctuary = victim.and_then(|victim| {
            self.sanctuaries.iter().find(|s| {
                let region = &s.region[theirs];
                (s.attacks || !attack)
                    && s.kinds.has(victim)
                    && region.has(taken)
                    && s.by.is_none_or(|by| by.has(kind))
                    && match s.from {
                        Reach::Anywhere => true,
                        Reach::Inside => region.has(from),
                        Reach::Outside => !region.has(from),
                    }
                    && s.from_zones.as_ref().is_none_or(|z| z[theirs].has(from))
            })
        });
        // The one written first refuses.
        match (entry, sanctuary) {
            (Some(n), Some(s)) if s.tag.index < n.tag.index => Some(Bar::Sanctuary(s)),
            (Some(n), _) => Some(Bar::NoEntry(n)),
            (None, s) => s.map(Bar::Sanctuary),
        }
    }

    /// The `region-move` with `replace yes` under which a piece of `kind` and `color` on
    /// `from` moves, its own movement set aside, if any.
    #[inline]
    pub fn replaced(&self, kind: usize, color: Color, from: Sq) -> Option<&RegionMove> {
        if !self.replacing {
            return None;
        }
        self.region_moves
            .iter()
            .find(|rm| rm.replace && rm.kinds.has(kind) && rm.region[color.index()].has(from))
    }

    /// Whether an attack from `from` on `target` counts under the zone components: the
    /// attacker's own movement does not count where a region replaces it (`own`), and a barred
    /// square is not attacked.
    #[inline]
    pub fn zone_admits(
        &self,
        board: &Board,
        kind: usize,
        by: Color,
        from: Sq,
        target: Sq,
        own: bool,
    ) -> bool {
        !(own && self.replaced(kind, by, from).is_some())
            && self
                .bar_lifting(
                    board,
                    kind,
                    by,
                    from,
                    target,
                    target,
                    usize::MAX,
                    None,
                    true,
                )
                .is_none()
    }
}

impl Compiled {
    /// Whether some `no-entry` region opens for a second action (`opened-by`).
    #[inline]
    pub fn opens(&self) -> bool {
        self.no_entries.iter().any(|n| n.opened_by.0 != 0)
    }

    /// The `no-entry` component (its index) that a move of a piece of `kind` and `color` from
    /// `from` to `to` opens: an `opened-by` piece leaving its region.
    pub fn opened(&self, kind: usize, color: Color, from: Sq, to: Sq) -> Option<usize> {
        self.no_entries.iter().position(|n| {
            let region = &n.region[color.index()];
            n.opened_by.has(kind) && region.has(from) && !region.has(to)
        })
    }
}

impl Position {
    /// Why no game reaches this set-up by a `confine`, if none does: a piece of its kinds
    /// stands outside the region it may never leave.
    pub(super) fn confine_setup_refusal(&self) -> Option<String> {
        let c = self.c;
        self.placed().find_map(|(sq, color, kind)| {
            let (tag, region) = c.confined.get(kind).copied().flatten()?;
            (!region[color.index()].has(sq)).then(|| {
                format!(
                    "the {color} {} on {} stands outside the region it may never leave ({})",
                    c.kinds[kind].name,
                    c.geometry.square_name(sq.square()),
                    tag.rule
                )
            })
        })
    }

    /// Adds to `out` the turns of two actions that `opened-by` allows: a piece of an
    /// `opened-by` kind leaves the region (a first action legal by itself, but for check,
    /// that does not end the game), then one piece of the component's `pieces` standing
    /// outside moves into the region by its own movement, judged on the board the first
    /// leaves; the mover's royal pieces are judged at the end of the turn.
    /// `legal` judges each whole turn, as [`Self::legal_after`] would.
    /// `quiet` says of a first action that it provably leaves no contact standing.
    pub(super) fn with_entries(
        &self,
        out: &mut Vec<Move>,
        firsts: &[(Move, usize)],
        quiet: impl Fn(Move) -> bool,
        refused: impl FnMut(Move) -> bool,
        mut legal: impl FnMut(Move) -> bool,
    ) {
        let us = self.turn;
        let mut refused = refused;
        for &(m, opened) in firsts {
            let quiet = quiet(m);
            // The contacts judge the first action on the node's board, before it is copied.
            if !quiet && refused(m) {
                continue;
            }
            let Ok(next) = self.first_action_with(m, false, quiet) else {
                continue;
            };
            for (from, to) in next.entries(opened, us) {
                let turn = Move {
                    then: Some((from, to)),
                    ..m
                };
                if legal(turn) {
                    out.push(turn);
                }
            }
        }
    }

    /// The `no-entry` component (its index) that the move `m` opens as the first action of a
    /// turn of two: a plain move of an `opened-by` piece out of its region.
    pub(super) fn exit_opened(&self, m: Move) -> Option<usize> {
        let c = self.c;
        let plain = matches!(m.special, Special::None | Special::Step) && m.block.is_none();
        if !plain {
            return None;
        }
        let kind = c
            .kind_at(self.board.cell(m.from))
            .filter(|&k| c.openers.has(k))?;
        c.opened(kind, self.turn, m.from, m.to)
    }

    /// The first action `m` of a turn of two, judged by itself: a plain move of an
    /// `opened-by` piece out of its region, which no contact component refuses (check waits
    /// for the end of the turn) and which does not end the game. The component it opens, and
    /// the position it leaves; or why it opens nothing.
    pub(super) fn exit(&self, m: Move) -> Result<(usize, Position), Shut> {
        let opened = self.exit_opened(m).ok_or(Shut::NoExit)?;
        Ok((opened, self.first_action(m)?))
    }

    /// The first action `m` of a turn of two judged by itself: no contact refuses it (check
    /// waits for the end of the turn) and it does not end the game; the position it leaves.
    /// Entries and infiltrations judge their first actions so.
    pub(super) fn first_action(&self, m: Move) -> Result<Position, Shut> {
        self.first_action_with(m, true, false)
    }

    /// [`Self::first_action`]: the contacts asked if `contacts`; `apart`: `m` provably leaves
    /// no contact standing.
    fn first_action_with(&self, m: Move, contacts: bool, apart: bool) -> Result<Position, Shut> {
        let c = self.c;
        let mut next = self.clone();
        next.apply(m);
        if !c.contacts.is_empty() && contacts && !apart {
            let spots = super::contact::Spots::of(c, &next.board);
            for before in [true, false] {
                if let Some(k) = self.contact_refusal(m, &next.board, &spots, before, None) {
                    return Err(Shut::Contact(k, Box::new(next)));
                }
            }
        }
        if next.decided_with(apart).is_some() {
            return Err(Shut::Ends);
        }
        Ok(next)
    }

    /// The moves of `color`'s pieces (this board, whoever is to move) into the region of the
    /// `no-entry` component `opened`, which is set aside, by their own movement as their piece
    /// line writes it: what a `region-move` adds where a piece stands does not enter (Cypher's
    /// Border knight enters Court by the classical L, not the extended one).
    pub(super) fn entries(&self, opened: usize, color: Color) -> Vec<(Sq, Sq)> {
        let c = self.c;
        let n = &c.no_entries[opened];
        let region = &n.region[color.index()];
        let them = color.other();
        let mut out = Vec::new();
        for &from in &c.squares {
            let code = self.board.cell(from);
            if !super::position::is_of(code, color) || region.has(from) {
                continue;
            }
            let Some(kind) = c.kind_at(code).filter(|&k| n.kinds.has(k)) else {
                continue;
            };
            // A piece whose movement a region sets aside where it stands has none to enter by.
            if c.replaced(kind, color, from).is_some() {
                continue;
            }
            // Only squares of the region are entries; two atoms reaching one make one.
            let mut tos = SqSet::default();
            destinations(
                &c.kinds[kind].movement,
                &self.board,
                from,
                color,
                |t| super::position::is_of(t, them),
                |to, _| {
                    if region.has(to) {
                        tos.add(to)
                    }
                },
            );
            for to in tos.iter() {
                let allowed = c.confine_of(kind, color).is_none_or(|r| r.has(to))
                    && super::position::hop_allowed(c, &self.board, kind, from, to)
                    && c.bar_lifting(&self.board, kind, color, from, to, to, opened, None, false)
                        .is_none();
                if allowed {
                    out.push((from, to));
                }
            }
        }
        out
    }

    /// Drops from `out[first..]` the moves of the piece of `kind` on `from` that a zone
    /// component bars.
    pub(super) fn drop_barred(&self, out: &mut Vec<Move>, first: usize, kind: usize, from: Sq) {
        let c = self.c;
        let us = self.turn;
        let open = self.retake_square(kind);
        // Without a `no-entry` for its kind, only a capture can be barred (by a sanctuary).
        let entry = c.entry_kinds.has(kind);
        super::position::keep_from(out, first, |m| {
            let taken = match m.special {
                Special::EnPassant { victim } => victim,
                _ => m.to,
            };
            if !entry && self.board.cell(taken) == crate::rules::board::cell::EMPTY {
                return true;
            }
            c.bar_lifting(
                &self.board,
                kind,
                us,
                from,
                m.to,
                taken,
                usize::MAX,
                open,
                false,
            )
            .is_none()
        });
    }

    /// Why the piece of `kind` on `from` does not go to `to` when a zone component is the
    /// reason (a square outside its `confine` region is left to that rule): in a region that
    /// sets its own movement aside, that region's movement does not reach `to`; or its movement
    /// reaches `to` and a `no-entry` or `sanctuary` bars it (past pieces in between, which is
    /// then the refusal, as for any move).
    pub(super) fn zone_refusal(&self, kind: usize, from: Sq, to: Sq) -> Option<Step> {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        let name = &c.kinds[kind].name;
        let (f, t) = (
            c.geometry.square_name(from.square()),
            c.geometry.square_name(to.square()),
        );
        // A square outside the piece's `confine` region is that rule's to refuse.
        if !c.zoned() || c.confine_of(kind, us).is_some_and(|r| !r.has(to)) {
            return None;
        }
        // With only the mover and what stands on `to`, and with every piece: where does it go?
        let mut bare = self.board.clone();
        for &sq in &c.squares {
            if bare.is_wall(sq) {
                // A blocker (a board square, unlike a hole) is lifted too.
                bare.restore_square(sq.square());
            } else if sq != from && sq != to {
                bare.put(sq.square(), None);
            }
        }
        let replaced = c.replaced(kind, us, from);
        let reaches = |board: &Board| {
            let mut movements: Vec<&Movement> = c
                .region_moves
                .iter()
                .filter(|rm| rm.kinds.has(kind) && rm.region[us.index()].has(from))
                .map(|rm| &rm.movement)
                .collect();
            if replaced.is_none() {
                movements.push(&c.kinds[kind].movement);
            }
            let mut hit = false;
            for m in movements {
                destinations(
                    m,
                    board,
                    from,
                    us,
                    |code| code & 1 == them as u8,
                    |sq, _| hit |= sq == to,
                );
            }
            hit
        };
        if !reaches(&bare) {
            if let Some(rm) = replaced {
                return Some(Step::forbids(
                    rm.tag.rule,
                    format!(
                        "the {name} on {f} stands in the region of {}, where it moves only as `{}`, which does not reach {t}",
                        rm.tag.rule, rm.betza
                    ),
                ));
            }
            // Where a region adds to its movement, that region's rule says how it moves there.
            let rm = c
                .region_moves
                .iter()
                .find(|rm| rm.kinds.has(kind) && rm.region[us.index()].has(from))?;
            return Some(Step::forbids(
                rm.tag.rule,
                format!(
                    "the {name} on {f} stands in the region of {}, where it moves as `{}` or as `{}`, neither of which reaches {t}",
                    rm.tag.rule,
                    c.betza(kind),
                    rm.betza
                ),
            ));
        }
        let open = self.retake_square(kind);
        let bar = c.bar_lifting(&self.board, kind, us, from, to, to, usize::MAX, open, false)?;
        if !reaches(&self.board) {
            return Some(super::judge::blocked_step(name, &f, &t));
        }
        // Whether the piece's own movement, not only one its region gives it, goes there.
        let own_reach = || {
            let mut hit = false;
            destinations(
                &c.kinds[kind].movement,
                &self.board,
                from,
                us,
                |code| code & 1 == them as u8,
                |sq, _| hit |= sq == to,
            );
            hit
        };
        Some(match bar {
            // An entry by a movement only the piece's region gives is barred by the part
            // `own-movement` whether or not a piece leaving opens the region (Cypher's Border
            // knight into Court by the extended L: `knight-court-entry` before the trigger).
            Bar::NoEntry(n) if n.opened_by.0 != 0 && !own_reach() => Step::forbids(
                n.own_movement,
                format!(
                    "a piece enters the region of {} by its own movement, `{}`, and the {name} from {f} reaches {t} only as its region lets it move",
                    n.tag.rule,
                    c.betza(kind)
                ),
            ),
            Bar::NoEntry(n) => Step::forbids(
                n.tag.rule,
                format!(
                    "the {name} on {f} stands outside the region of {}, and may not enter it on {t}",
                    n.tag.rule
                ),
            ),
            Bar::Sanctuary(s) => {
                let victim = c
                    .kind_at(self.board.cell(to))
                    .map_or("piece", |k| c.kinds[k].name.as_str());
                let whence = match s.from {
                    Reach::Anywhere => "",
                    Reach::Inside => " standing inside it",
                    Reach::Outside => " standing outside it",
                };
                Step::forbids(
                    s.tag.rule,
                    format!(
                        "the {victim} on {t} stands in the sanctuary of {}, where a {name}{whence} may not capture it",
                        s.tag.rule
                    ),
                )
            }
        })
    }

    /// The zone components a generated move `m` passes: a piece moving within a region it may
    /// not enter from outside, and a capture of a piece in a sanctuary that does not hold
    /// against this capturer.
    pub(super) fn zone_steps(&self, m: Move) -> Vec<Step> {
        let c = self.c;
        let us = self.turn;
        let mut steps = Vec::new();
        if !c.bars_moves() {
            return steps;
        }
        let Some(kind) = c.kind_at(self.board.cell(m.from)) else {
            return steps;
        };
        let name = &c.kinds[kind].name;
        let square = |sq: Sq| c.geometry.square_name(sq.square());
        for n in &c.no_entries {
            let region = &n.region[us.index()];
            if n.kinds.has(kind) && region.has(m.from) && region.has(m.to) {
                // A line from one side of the region to the other crosses the outside.
                let crosses = crate::rules::board::between(m.from.square(), m.to.square())
                    .into_iter()
                    .any(|sq| !region.has(sq));
                if crosses {
                    steps.push(Step::allows(
                        n.crossing,
                        format!(
                            "the {name} on {} stands in the region of {}, and crosses the squares outside it to {}, in the region again",
                            square(m.from),
                            n.tag.rule,
                            square(m.to)
                        ),
                    ));
                    continue;
                }
                steps.push(Step::allows(
                    n.tag.rule,
                    format!(
                        "the {name} on {} stands in the region of {} already, so it may go to {}",
                        square(m.from),
                        n.tag.rule,
                        square(m.to)
                    ),
                ));
            }
        }
        let taken = match m.special {
            Special::EnPassant { victim } => victim,
            Special::Castle { .. } => return steps,
            _ => m.to,
        };
        let code = self.board.cell(taken);
        let Some(victim) = c.kind_at(code).filter(|_| code & 1 != us as u8) else {
            return steps;
        };
        // A re-take passes the sanctuaries that would hold: the window is the reason.
        if let Some(step) = self.retake_step(m, kind) {
            steps.push(step);
            return steps;
        }
        let theirs = us.other().index();
        for s in &c.sanctuaries {
            if s.kinds.has(victim) && s.region[theirs].has(taken) {
                steps.push(Step::allows(
                    s.tag.rule,
                    format!(
                        "the {} on {} stands in the sanctuary of {}, which does not hold against a {name} on {}",
                        c.kinds[victim].name,
                        square(taken),
                        s.tag.rule,
                        square(m.from)
                    ),
                ));
            }
        }
        steps
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{Geometry, Options, Rules};

    /// The legal turns, as texts, of `fen` under the definition `text`.
    fn moves(text: &str, fen: &str) -> Vec<String> {
        let load = |name: &str| Err(format!("no definition named `{name}`"));
        let def = crate::definition::parse("t.def", text, &load).unwrap_or_else(|e| panic!("{e}"));
        let crate::rules::Variant::Defined(id) = super::super::register(def).expect("registered")
        else {
            panic!("a definition");
        };
        let _bound = super::super::bind(id);
        type P = super::Position;
        let g = Geometry::lettered(8, 8);
        let pos = P::from_fen(g, fen, &Options::defaults(P::options())).expect("a FEN");
        let mut out: Vec<String> = pos
            .legal_turns()
            .into_iter()
            .map(|(_, t)| t.text(&g))
            .collect();
        out.sort();
        out
    }

    const BASE: &str =
        "variant t\nboard 8x8\npiece K king K royal\npiece R rook R\npiece W wazir W\n\
                        start \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\ncheck {\n  clause \"c\"\n}\n";

    /// A piece that rides only in its region (or only there, with `replace`) pins what stands
    /// on that line: the attack tables hold its own movement only, so the legality test may
    /// not take a piece off the line as harmless.
    #[test]
    fn a_rider_gained_in_a_region_pins() {
        for replace in ["no", "yes"] {
            let text = format!(
                "{BASE}region-move {{\n  clause \"r\"\n  pieces W\n  move R\n  replace {replace}\n  both rank 1\n}}\n"
            );
            let legal = moves(&text, "4k3/8/8/8/8/8/8/w2R3K w - - 0 1");
            assert!(!legal.contains(&"Rd1-d2".to_string()), "{legal:?}");
            assert!(legal.contains(&"Rd1xa1".to_string()), "{legal:?}");
        }
    }

    /// One rule in two statements: each judges its own region, and both refuse by the id.
    #[test]
    fn a_rule_in_two_sanctuaries_judges_both_regions() {
        let text = format!(
            "{BASE}sanctuary {{\n  id truce\n  clause \"s\"\n  pieces W\n  by R\n  both rank 4\n}}\n\
             sanctuary {{\n  id truce\n  pieces W\n  by R\n  from outside\n  both rank 6\n}}\n"
        );
        let legal = moves(&text, "4k3/8/3w4/8/3w3K/8/8/3R4 w - - 0 1");
        assert!(!legal.iter().any(|t| t.starts_with("Rd1xd4")), "{legal:?}");
        let legal = moves(&text, "4k3/8/3w4/8/7K/8/8/3R4 w - - 0 1");
        assert!(!legal.iter().any(|t| t.starts_with("Rd1xd6")), "{legal:?}");
        // From inside rank 6 the second holds not.
        let legal = moves(&text, "4k3/8/3w2R1/8/7K/8/8/8 w - - 0 1");
        assert!(legal.iter().any(|t| t.starts_with("Rg6xd6")), "{legal:?}");
    }

    /// A sanctuary with `attacks no` bars captures only: the rook does not take the wazir on
    /// the fourth rank, but a king there is in check from it and must step off the line.
    #[test]
    fn a_sanctuary_without_attacks_bars_captures_not_checks() {
        let text = format!(
            "{BASE}sanctuary {{\n  clause \"s\"\n  pieces K W\n  by R\n  attacks no\n  both rank 4\n}}\n"
        );
        let legal = moves(&text, "4k3/8/8/8/3w3K/8/8/3R4 w - - 0 1");
        assert!(!legal.iter().any(|t| t.starts_with("Rd1xd4")), "{legal:?}");
        let legal = moves(&text, "4k3/8/8/8/r6K/8/8/8 w - - 0 1");
        assert!(!legal.contains(&"Kh4-g4".to_string()), "{legal:?}");
        assert!(legal.contains(&"Kh4-h5".to_string()), "{legal:?}");
    }

    /// A sanctuary protects from capture and from check; `no-entry` keeps pieces out but lets
    /// the ones inside move; `replace` sets the piece's own movement aside.
    #[test]
    fn zones_bar_captures_checks_and_entries() {
        let sanctuary = format!(
            "{BASE}sanctuary {{\n  clause \"s\"\n  pieces K W\n  by R\n  both rank 4\n}}\n"
        );
        // The rook does not take the wazir on d4, nor check a king on the fourth rank.
        let legal = moves(&sanctuary, "4k3/8/8/8/3w3K/8/8/3R4 w - - 0 1");
        assert!(!legal.iter().any(|t| t.starts_with("Rd1xd4")), "{legal:?}");
        let legal = moves(&sanctuary, "4k3/8/8/8/r6K/8/8/8 w - - 0 1");
        assert!(legal.contains(&"Kh4-g4".to_string()), "{legal:?}");
        let no_entry =
            format!("{BASE}no-entry {{\n  clause \"n\"\n  pieces R\n  both squares d4 e4\n}}\n");
        let legal = moves(&no_entry, "4k3/8/8/8/8/8/8/3R3K w - - 0 1");
        assert!(!legal.contains(&"Rd1-d4".to_string()), "{legal:?}");
        assert!(legal.contains(&"Rd1-d5".to_string()), "{legal:?}");
        let legal = moves(&no_entry, "4k3/8/8/8/3R4/8/8/7K w - - 0 1");
        assert!(legal.contains(&"Rd4-e4".to_string()), "{legal:?}");
        let replace = format!(
            "{BASE}region-move {{\n  clause \"r\"\n  pieces W\n  move F\n  replace yes\n  white rank 2\n}}\n"
        );
        let legal = moves(&replace, "4k3/8/8/8/8/8/3W4/7K w - - 0 1");
        let wazir: Vec<&String> = legal.iter().filter(|t| t.starts_with('W')).collect();
        assert_eq!(wazir, ["Wd2-c1", "Wd2-c3", "Wd2-e1", "Wd2-e3"]);
    }
}
