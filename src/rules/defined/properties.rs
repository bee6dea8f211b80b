//! A definition's own invariants (`property`), checked on a position and the turn that
//! reached it. What the turn did is read from the board changes [`Position::apply`] makes,
//! replayed action by action from the position before ([`replay_action`]): the facts come from
//! the code that plays the turn, not from the rules that chose it, so a definition whose rules
//! let a turn do what a property forbids is what the check finds.

use super::compile::Compiled;
use super::position::{color_of, replay_action, Move, Position, Special};
use crate::definition::model::{Cell, INVENTED};
use crate::definition::property::*;
use crate::rules::board::{cell, Sq};
use crate::rules::Color;

/// One action of a turn.
#[derive(Clone, Copy, Debug)]
struct Action {
    /// [`Act::bit`]s.
    acts: u16,
    /// The piece that acted (its cell code); 0 for a pass.
    mover: u8,
    from: Option<Sq>,
    to: Option<Sq>,
}

/// A piece a turn took off the board.
#[derive(Clone, Copy, Debug)]
struct Removal {
    code: u8,
    sq: Sq,
    how: How,
    /// The piece of the action that removed it.
    by: u8,
}

/// What a turn did; empty for a position no turn reached.
#[derive(Default, Debug)]
pub struct Facts {
    actions: Vec<Action>,
    removals: Vec<Removal>,
}

impl Facts {
    /// The facts of `m`, played from `before`.
    pub fn of(before: &Position, m: Move) -> Facts {
        let c = before.c;
        let us = before.turn;
        let mut board = before.board.clone();
        let mut facts = Facts::default();
        let first = Move { then: None, ..m };
        facts.action(c, &mut board, us, first, false);
        if let Some(second) = m.second() {
            facts.action(c, &mut board, us, second, true);
        }
        facts
    }

    fn action(
        &mut self,
        c: &Compiled,
        board: &mut crate::rules::Board,
        us: Color,
        m: Move,
        second: bool,
    ) {
        let moving = board.cell(m.from);
        let mut action = Action {
            acts: 0,
            mover: moving,
            from: Some(m.from),
            to: Some(m.to),
        };
        match m.special {
            Special::Pass => {
                action = Action {
                    acts: Act::Pass.bit(),
                    mover: 0,
                    from: None,
                    to: None,
                }
            }
            Special::Drop { kind } => {
                action.acts = Act::Drop.bit();
                if c.kept.has(kind as usize) {
                    action.acts |= Act::Release.bit();
                }
                action.mover = c.piece(us, kind as usize).code();
                action.from = None;
            }
            Special::Place => action.acts = Act::Infiltration.bit(),
            Special::Castle { .. } => action.acts = Act::Move.bit() | Act::Castle.bit(),
            _ => {
                action.acts = Act::Move.bit();
                if second {
                    action.acts |= Act::Entry.bit();
                }
                if m.promotion().is_some() {
                    action.acts |= Act::Promotion.bit();
                }
            }
        }
        let victim = match m.special {
            Special::EnPassant { victim } => victim,
            _ => m.to,
        };
        let changes = replay_action(c, board, us, m);
        let (mut left, mut taken, mut mover_gone) = (false, false, false);
        // What stands on `m.to` once the piece arrived there.
        let mut arrived: Option<u8> = None;
        for (sq, old, new) in changes {
            let piece = old != cell::EMPTY && old != cell::WALL;
            if piece && new == cell::EMPTY && m.special != Special::Place {
                let how = if sq == m.from && !left && arrived.is_none() {
                    left = true;
                    continue;
                } else if sq == m.to && arrived.is_some() && !mover_gone {
                    mover_gone = true;
                    // The piece that arrived leaves by a coup where `defect` takes it, as it
                    // asks; else an explosion took it.
                    let coup = arrived
                        .and_then(|code| c.kind_at(code))
                        .is_some_and(|k| c.defection_of(k, us, m.to).is_some());
                    match coup {
                        true => How::Coup,
                        false => How::Explosion,
                    }
                } else if sq == victim && arrived.is_none() && !taken {
                    taken = true;
                    How::Capture
                } else {
                    How::Explosion
                };
                action.acts |= match how {
                    How::Coup => Act::Coup.bit(),
                    _ => Act::Capture.bit(),
                };
                self.removals.push(Removal {
                    code: old,
                    sq,
                    how,
                    by: moving,
                });
            } else if piece && m.special == Special::Place && sq == m.to && new != old {
                self.removals.push(Removal {
                    code: old,
                    sq,
                    how: How::Infiltration,
                    by: moving,
                });
            }
            if sq == m.to && new != cell::EMPTY && arrived.is_none() {
                arrived = Some(new);
            }
        }
        self.actions.push(action);
    }
}

/// What a formula is evaluated against.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    pos: &'a Position,
    now: &'a Position,
    before: &'a Position,
    facts: &'a Facts,
    bound: Option<Bound>,
}

#[derive(Clone, Copy)]
enum Bound {
    Side(Color),
    Piece(Sq, u8),
}

fn cell_of(sq: Sq) -> Cell {
    let s = sq.square();
    Cell {
        file: s.file,
        rank: s.rank,
    }
}

impl Ctx<'_> {
    fn c(&self) -> &'static Compiled {
        self.now.c
    }

    fn side(&self, s: SideRef) -> Color {
        let bound = match self.bound {
            Some(Bound::Side(c)) => c,
            Some(Bound::Piece(_, code)) => color_of(code),
            // The reader allows `own` and `enemy` only under a quantifier.
            None => self.before.turn,
        };
        match s {
            SideRef::White => Color::White,
            SideRef::Black => Color::Black,
            SideRef::Own => bound,
            SideRef::Enemy => bound.other(),
            SideRef::Mover => self.before_turn(),
            SideRef::ToMove => self.now.turn,
        }
    }

    /// The side that made the turn: for a position no turn reached, the side not to move.
    fn before_turn(&self) -> Color {
        match std::ptr::eq(self.before, self.now) {
            true => self.now.turn.other(),
            false => self.before.turn,
        }
    }

    /// Whether a piece (cell code) matches `p`.
    fn matches(&self, p: &Pattern, code: u8) -> bool {
        let c = self.c();
        let Some(kind) = c.kind_at(code) else {
            return false;
        };
        if p.side.is_some_and(|s| self.side(s) != color_of(code)) {
            return false;
        }
        let defined = c.def.pieces.len();
        match &p.kinds {
            None => true,
            Some(letters) => letters.iter().any(|&l| match l {
                INVENTED => kind >= defined,
                _ => c.def.pieces.get(kind).is_some_and(|d| d.letter == l),
            }),
        }
    }

    fn term(&self, t: &Term) -> i64 {
        let c = self.c();
        let pos = self.pos;
        match &t.kind {
            TermKind::Number(n) => *n,
            TermKind::Sum(parts) => parts
                .iter()
                .map(|(plus, t)| if *plus { self.term(t) } else { -self.term(t) })
                .sum(),
            TermKind::Board(p, place) => c
                .squares
                .iter()
                .filter(|&&sq| {
                    let code = pos.board.cell(sq);
                    self.matches(p, code)
                        && place
                            .as_ref()
                            .is_none_or(|pl| pl.holds(color_of(code).index(), cell_of(sq)))
                })
                .count() as i64,
            TermKind::Hand(p) => {
                let mut n = 0;
                for color in Color::ALL {
                    for kind in 0..c.kinds.len() {
                        let code = c.piece(color, kind).code();
                        if self.matches(p, code) {
                            n += i64::from(pos.hand[color.index()][kind]);
                        }
                    }
                }
                n
            }
            TermKind::Key(key, side) => {
                let color = side.map_or(Color::White, |s| self.side(s));
                match key {
                    NumKey::Prisoners => (0..c.kinds.len())
                        .filter(|&k| c.kept.has(k))
                        .map(|k| i64::from(pos.hand[color.index()][k]))
                        .sum(),
                    NumKey::CheckCount => i64::from(pos.checks[color.index()]),
                    NumKey::HalfmoveClock => i64::from(pos.halfmove),
                    NumKey::FullmoveNumber => i64::from(pos.fullmove),
                }
            }
            TermKind::Removed(p, place, how) => self
                .facts
                .removals
                .iter()
                .filter(|r| {
                    self.matches(p, r.code)
                        && how.is_none_or(|h| h == r.how)
                        && place
                            .as_ref()
                            .is_none_or(|pl| pl.holds(color_of(r.code).index(), cell_of(r.sq)))
                })
                .count() as i64,
            TermKind::Captured(p, place, by) => self
                .facts
                .removals
                .iter()
                .filter(|r| {
                    r.how == How::Capture
                        && self.matches(p, r.code)
                        && by.as_ref().is_none_or(|b| self.matches(b, r.by))
                        && place
                            .as_ref()
                            .is_none_or(|pl| pl.holds(color_of(r.code).index(), cell_of(r.sq)))
                })
                .count() as i64,
            TermKind::Did {
                action,
                mover,
                from,
                to,
            } => self
                .facts
                .actions
                .iter()
                .filter(|a| {
                    let side = color_of(a.mover).index();
                    let at = |place: &Option<Place>, sq: Option<Sq>| match (place, sq) {
                        (None, _) => true,
                        (Some(pl), Some(sq)) => pl.holds(side, cell_of(sq)),
                        (Some(_), None) => false,
                    };
                    a.acts & action.bit() != 0
                        && mover.as_ref().is_none_or(|p| self.matches(p, a.mover))
                        && at(from, a.from)
                        && at(to, a.to)
                })
                .count() as i64,
            TermKind::Before(t) => Ctx {
                pos: self.before,
                ..*self
            }
            .term(t),
        }
    }

    fn in_check(&self, s: &Subject) -> bool {
        let pos = self.pos;
        let piece_checked = |sq: Sq| {
            let code = pos.board.cell(sq);
            self.c().kind_at(code).is_some() && pos.attacked(sq, color_of(code).other())
        };
        match s {
            Subject::Side(side) => pos.royal_attacked(self.side(*side)),
            Subject::On(cell) => {
                piece_checked(Sq::of(crate::rules::Square::new(cell.file, cell.rank)))
            }
            Subject::It => match self.bound {
                Some(Bound::Piece(sq, _)) => piece_checked(sq),
                _ => false,
            },
        }
    }

    fn flag(&self, f: Flag, side: Option<SideRef>) -> bool {
        let pos = self.pos;
        let color = side.map_or(Color::White, |s| self.side(s));
        match f {
            Flag::InfiltrationUsed => pos.used[color.index()],
            Flag::Castling => pos.castle[color.index()] != 0,
            Flag::Retake => pos.retake.is_some(),
            Flag::EnPassant => pos.ep.iter().any(Option::is_some),
        }
    }

    /// The pieces (or sides) a quantifier ranges over, each as a binding.
    fn domain(&self, domain: &Domain, within: &Option<Place>) -> Vec<Bound> {
        match domain {
            Domain::Side => Color::ALL.iter().map(|&c| Bound::Side(c)).collect(),
            Domain::Pieces(p) => self
                .c()
                .squares
                .iter()
                .filter_map(|&sq| {
                    let code = self.pos.board.cell(sq);
                    let inside = within
                        .as_ref()
                        .is_none_or(|pl| pl.holds(color_of(code).index(), cell_of(sq)));
                    (self.matches(p, code) && inside).then_some(Bound::Piece(sq, code))
                })
                .collect(),
        }
    }

    fn with(&self, b: Bound) -> Ctx<'_> {
        Ctx {
            bound: Some(b),
            ..*self
        }
    }

    fn holds(&self, f: &Formula) -> bool {
        match &f.kind {
            Kind::Not(g) => !self.holds(g),
            Kind::And(parts) => parts.iter().all(|g| self.holds(g)),
            Kind::Or(parts) => parts.iter().any(|g| self.holds(g)),
            Kind::Implies(a, b) => !self.holds(a) || self.holds(b),
            Kind::Compare(a, op, b) => op.holds(self.term(a), self.term(b)),
            Kind::Nonzero(t) => self.term(t) != 0,
            Kind::InCheck(s) => self.in_check(s),
            Kind::ToMove(s) => self.pos.turn == self.side(*s),
            Kind::Flag(flag, side) => self.flag(*flag, *side),
            Kind::Within(place) => match self.bound {
                Some(Bound::Piece(sq, code)) => place.holds(color_of(code).index(), cell_of(sq)),
                _ => false,
            },
            Kind::Quantified {
                quantifier,
                domain,
                within,
                body,
            } => {
                let mut each = self
                    .domain(domain, within)
                    .into_iter()
                    .map(|b| body.as_ref().is_none_or(|body| self.with(b).holds(body)));
                match quantifier {
                    Quantifier::Every => each.all(|x| x),
                    Quantifier::Some => each.any(|x| x),
                    Quantifier::No => !each.any(|x| x),
                }
            }
            Kind::Before(g) => Ctx {
                pos: self.before,
                ..*self
            }
            .holds(g),
        }
    }

    /// What a bound piece or side is called in a message.
    fn name(&self, b: Bound) -> String {
        match b {
            Bound::Side(c) => format!("for {c}"),
            Bound::Piece(sq, code) => {
                let kind = self
                    .c()
                    .kind_at(code)
                    .map_or("piece".to_string(), |k| self.c().kinds[k].name.clone());
                format!(
                    "the {} {kind} on {}",
                    color_of(code),
                    self.c().geometry.square_name(sq.square())
                )
            }
        }
    }

    /// Why `f`, which does not hold, is false.
    fn why(&self, f: &Formula) -> String {
        match &f.kind {
            Kind::And(parts) => parts
                .iter()
                .find(|g| !self.holds(g))
                .map_or_else(|| format!("`{}` is false", f.text), |g| self.why(g)),
            Kind::Implies(a, b) => format!("`{}` holds, but {}", a.text, self.why(b)),
            Kind::Compare(a, _, b) => {
                let show = |t: &Term| match t.kind {
                    TermKind::Number(_) => None,
                    _ => Some(format!("`{}` is {}{}", t.text, self.term(t), self.items(t))),
                };
                let parts: Vec<String> = [show(a), show(b)].into_iter().flatten().collect();
                format!("`{}` is false: {}", f.text, parts.join(" and "))
            }
            Kind::Nonzero(t) => format!("`{}` is 0", t.text),
            Kind::Not(g) => match &g.kind {
                Kind::Quantified {
                    quantifier: Quantifier::Some,
                    domain,
                    within,
                    body,
                } => self.witness(f, domain, within, body.as_deref(), true),
                Kind::InCheck(s) => format!("{} in check", self.subject(s)),
                Kind::Within(place) => format!("it stands in {}", place_name(place)),
                _ => format!("`{}` holds, against `{}`", g.text, f.text),
            },
            Kind::Quantified {
                quantifier,
                domain,
                within,
                body,
            } => match quantifier {
                Quantifier::Every => self.witness(f, domain, within, body.as_deref(), false),
                Quantifier::No => self.witness(f, domain, within, body.as_deref(), true),
                Quantifier::Some => format!("`{}` is false: there is none", f.text),
            },
            Kind::Before(g) => format!(
                "before the turn, {}",
                Ctx {
                    pos: self.before,
                    ..*self
                }
                .why(g)
            ),
            Kind::InCheck(s) => format!("{} not in check", self.subject(s)),
            Kind::Within(place) => format!("it does not stand in {}", place_name(place)),
            _ => format!("`{}` is false", f.text),
        }
    }

    /// Who `in-check` is about, with `is`: `white is`, `the king on e1 is`, `it is`.
    fn subject(&self, s: &Subject) -> String {
        match s {
            Subject::Side(side) => format!("{} is", self.side(*side)),
            Subject::On(cell) => format!(
                "the piece on {} is",
                self.c()
                    .geometry
                    .square_name(crate::rules::Square::new(cell.file, cell.rank))
            ),
            Subject::It => "it is".to_string(),
        }
    }

    /// The pieces a fact of the turn counts, for a message: ` (the black spy on i10, by
    /// capture)`; empty for other numbers.
    fn items(&self, t: &Term) -> String {
        let c = self.c();
        let square = |sq: Sq| c.geometry.square_name(sq.square());
        let piece = |code: u8| {
            let kind = c
                .kind_at(code)
                .map_or("piece".to_string(), |k| c.kinds[k].name.clone());
            format!("{} {kind}", color_of(code))
        };
        let how = |h: How| How::WORDS[How::ALL.iter().position(|x| *x == h).unwrap_or(0)];
        let listed: Vec<String> = match &t.kind {
            TermKind::Removed(..) | TermKind::Captured(..) => {
                // The removals the term counts: those a term of one removal would count.
                self.facts
                    .removals
                    .iter()
                    .filter(|r| {
                        let alone = Facts {
                            actions: Vec::new(),
                            removals: vec![**r],
                        };
                        Ctx {
                            facts: &alone,
                            ..*self
                        }
                        .term(t)
                            > 0
                    })
                    .map(|r| {
                        format!(
                            "the {} on {}, by {}",
                            piece(r.code),
                            square(r.sq),
                            how(r.how)
                        )
                    })
                    .collect()
            }
            TermKind::Did { .. } => self
                .facts
                .actions
                .iter()
                .filter(|a| {
                    let alone = Facts {
                        actions: vec![**a],
                        removals: Vec::new(),
                    };
                    Ctx {
                        facts: &alone,
                        ..*self
                    }
                    .term(t)
                        > 0
                })
                .map(|a| match (a.from, a.to) {
                    (Some(f), Some(to)) => format!(
                        "the {} from {} to {}",
                        piece(a.mover),
                        square(f),
                        square(to)
                    ),
                    (None, Some(to)) => format!("the {} onto {}", piece(a.mover), square(to)),
                    _ => "a pass".to_string(),
                })
                .collect(),
            _ => Vec::new(),
        };
        match listed.is_empty() {
            true => String::new(),
            false => format!(" ({})", listed.join("; ")),
        }
    }

    /// The first piece or side of a quantifier that breaks `f`: one whose body holds (`hit`)
    /// or fails.
    fn witness(
        &self,
        f: &Formula,
        domain: &Domain,
        within: &Option<Place>,
        body: Option<&Formula>,
        hit: bool,
    ) -> String {
        for b in self.domain(domain, within) {
            let inner = self.with(b);
            let holds = body.is_none_or(|g| inner.holds(g));
            if holds == hit {
                let what = match body {
                    None => format!("breaks `{}`", f.text),
                    Some(g) if hit => format!("breaks `{}`: `{}` holds", f.text, g.text),
                    Some(g) => format!("breaks `{}`: {}", f.text, inner.why(g)),
                };
                return format!("{} {what}", self.name(b));
            }
        }
        format!("`{}` is false", f.text)
    }
}

/// A place as a message names it.
fn place_name(p: &Place) -> String {
    match p.outside {
        true => format!("outside {}", p.name),
        false => p.name.clone(),
    }
}

impl Position {
    /// Checks property `p` in this position, reached from `before` by a turn whose `facts` are
    /// given (`before` is this position itself, and the facts empty, where no turn reached
    /// it): `Err` quotes the clause and says what broke.
    pub(super) fn property(
        &self,
        p: &Property,
        before: &Position,
        facts: &Facts,
    ) -> Result<(), String> {
        let ctx = Ctx {
            pos: self,
            now: self,
            before,
            facts,
            bound: None,
        };
        for line in &p.lines {
            if !ctx.holds(line) {
                return Err(format!("\"{}\" does not hold: {}", p.clause, ctx.why(line)));
            }
        }
        Ok(())
    }
}
