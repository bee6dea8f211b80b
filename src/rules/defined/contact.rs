//! Contacts between pieces: `adjacency` (a piece of the side that moved next to a piece of some
//! kinds) and `alignment` (lined up with one, nothing between). The turn that leaves such a
//! contact is refused, won or lost, as the component's `effect` says. One search finds the
//! contact for the legality test, for the result of a position and for the judge's words.

use super::compile::{KindSet, SqSet, Tag};
use super::position::{is_of, Move, Position, Special};
use crate::definition::model::{Effect, Lines, Moved, Standing, Value, Whose};
use crate::rules::board::{cell, delta, Board, Sq};
use crate::rules::explain::Step;
use crate::rules::movement::KING_STEPS;
use crate::rules::piece::Color;

/// A compiled `adjacency` or `alignment` component.
#[derive(Clone, Debug)]
pub struct Contact {
    pub tag: Tag,
    /// `alignment`: along lines, with at least `gap` empty squares between; else next to.
    pub line: bool,
    pub pieces: KindSet,
    pub beside: KindSet,
    pub of: Whose,
    pub moved: Moved,
    pub effect: Effect,
    /// Where the pieces stand, by the side that moved; `None`: anywhere.
    pub region: Option<[SqSet; 2]>,
    pub standing: Standing,
    /// The mailbox steps it looks along.
    pub steps: Vec<i32>,
    pub gap: u8,
    /// Of the contacts ending a game, the highest priority decides (then the first written).
    pub priority: u8,
    /// A winning contact whose other piece's attacks do not count against the turn.
    pub disarms: bool,
    /// Whether the second piece must (or must not) be one the turn moved.
    pub other_moved: Option<bool>,
    /// The effect of a contact where the pieces do not stand as the region says
    /// (`elsewhere`); `None`: there is no contact there.
    pub elsewhere: Option<Effect>,
}

/// Where the piece a turn moved came from (`None`: from the hand) and where it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    pub from: Option<Sq>,
    pub to: Sq,
}

/// The squares of the pieces of the kinds some contact looks at, found once for a board: the
/// contacts then look at those alone (most boards hold a few).
pub struct Spots {
    squares: SqSet,
}

impl Spots {
    pub fn of(c: &super::Compiled, board: &Board) -> Spots {
        let mut squares = SqSet::default();
        for &sq in &c.squares {
            if c.kind_at(board.cell(sq))
                .is_some_and(|k| c.contact_kinds.has(k))
            {
                squares.add(sq);
            }
        }
        Spots { squares }
    }

    /// These spots after a move that changed the cells `changed` (each with what it holds
    /// now, on the board after it): [`Spots::of`] that board, without reading the rest.
    pub fn after(&self, c: &super::Compiled, changed: impl Iterator<Item = (Sq, u8)>) -> Spots {
        let mut squares = self.squares;
        for (sq, code) in changed {
            if c.kind_at(code).is_some_and(|k| c.contact_kinds.has(k)) {
                squares.add(sq);
            } else {
                squares.remove(sq);
            }
        }
        Spots { squares }
    }

    fn iter(&self) -> impl Iterator<Item = Sq> + '_ {
        self.squares.iter()
    }
}

/// The squares a turn changed, on a board where no contact stood before it (which
/// [`Danger`] being found says): a contact after it has one of them between its two pieces
/// or under one, so only the lines through them need be walked. At most eight; a turn that
/// changes more is searched whole.
#[derive(Clone, Copy)]
pub struct Near {
    at: [Sq; 8],
    len: u8,
}

impl Near {
    pub fn of(squares: impl Iterator<Item = Sq>) -> Option<Near> {
        let mut near = Near {
            at: [Sq(0); 8],
            len: 0,
        };
        for sq in squares {
            *near.at.get_mut(near.len as usize)? = sq;
            near.len += 1;
        }
        Some(near)
    }

    fn list(&self) -> &[Sq] {
        &self.at[..self.len as usize]
    }

    fn has(&self, sq: Sq) -> bool {
        self.list().contains(&sq)
    }

    /// Whether a walk from `sq` along the step `d` (one step unless `line`) may meet one of
    /// them. The mailbox's walls stop a walk before it wraps, so a square a multiple of `d`
    /// away may not be met; the walk itself says.
    fn may_meet(&self, sq: Sq, d: i32, line: bool) -> bool {
        self.list().iter().any(|&x| {
            let diff = i32::from(x.0) - i32::from(sq.0);
            if line {
                diff % d == 0 && diff / d > 0
            } else {
                diff == d
            }
        })
    }
}

/// Where, on a board where no contact stands, one could arise: for each piece some contact
/// looks at, the squares next to it (or on its open lines, for an `alignment`) and the first
/// piece on each of those lines. A plain move of a piece arriving on none of another's
/// squares, and leaving none of its lines, makes no contact with it.
pub struct Danger {
    near: Vec<(Sq, SqSet, SqSet)>,
}

impl Danger {
    pub fn of(c: &super::Compiled, board: &Board, spots: &Spots) -> Danger {
        let mut near = Vec::new();
        for sq in spots.iter() {
            let Some(kind) = c.kind_at(board.cell(sq)) else {
                continue;
            };
            let mut to = SqSet::default();
            let mut from = SqSet::default();
            for k in c.contacts.iter().filter(|k| k.kinds().has(kind)) {
                // Both pieces must stand in the region: only its squares can hold a contact.
                // Read for either side, where the region is the same for both.
                let region = k
                    .region
                    .as_ref()
                    .filter(|r| {
                        k.elsewhere.is_none() && k.standing == Standing::Both && r[0] == r[1]
                    })
                    .map(|r| &r[0]);
                if region.is_some_and(|r| !r.has(sq)) {
                    continue;
                }
                if !k.line {
                    to.add_all(&c.neighbours[sq.index()], region);
                    continue;
                }
                for &d in &k.steps {
                    let mut at = sq.offset(d);
                    loop {
                        let code = board.cell(at);
                        if code == cell::WALL {
                            break;
                        }
                        if region.is_none_or(|r| r.has(at)) {
                            to.add(at);
                        }
                        if code != cell::EMPTY {
                            if k.line {
                                from.add(at);
                            }
                            break;
                        }
                        if !k.line {
                            break;
                        }
                        at = at.offset(d);
                    }
                }
            }
            near.push((sq, to, from));
        }
        Danger { near }
    }

    /// Whether no two of the pieces stand where a contact between them could: then none
    /// stands on the board.
    pub fn apart(&self, spots: &Spots) -> bool {
        self.near.iter().all(|(sq, near, _)| {
            let mut others = spots.squares;
            others.remove(*sq);
            !near.intersects(&others)
        })
    }

    /// Whether a piece leaving `sq` may open a line some contact looks along: it is the
    /// first piece on one from another piece a contact looks at.
    #[inline]
    pub fn lined(&self, sq: Sq) -> bool {
        self.near
            .iter()
            .any(|(at, _, lines)| *at != sq && lines.has(sq))
    }

    /// Whether a plain move from `from` (`None`: a drop) to `to` of a piece some contact
    /// looks at may make a contact.
    #[inline]
    pub fn touches(&self, from: Option<Sq>, to: Sq) -> bool {
        self.near.iter().any(|(sq, near, lines)| {
            Some(*sq) != from && (near.has(to) || from.is_some_and(|f| lines.has(f)))
        })
    }
}

/// The pieces a turn moved: a turn of two actions moves two.
pub type Arrivals = [Option<Arrival>; 2];

/// An ending's place among those one turn brings about: its component's `priority` (the
/// highest decides) and where it is written (then the first).
pub type Rank = (u8, usize);

impl Arrival {
    /// The pieces `m` moves: none for a pass.
    pub fn of(m: Move) -> Arrivals {
        let second = m.then.map(|(from, to)| Arrival {
            from: Some(from),
            to,
        });
        [Self::first(m), second]
    }

    /// The piece the first action of `m` moves.
    fn first(m: Move) -> Option<Arrival> {
        match m.special {
            Special::Pass => None,
            Special::Drop { .. } => Some(Arrival {
                from: None,
                to: m.to,
            }),
            _ => Some(Arrival {
                from: Some(m.from),
                to: m.to,
            }),
        }
    }
}

impl Contact {
    pub fn new(
        tag: Tag,
        line: bool,
        k: &crate::definition::model::Contact,
        set: impl Fn(&[char]) -> KindSet,
        region: [SqSet; 2],
    ) -> Contact {
        let steps = KING_STEPS
            .iter()
            .filter(|(df, dr)| {
                let diagonal = *df != 0 && *dr != 0;
                match k.lines {
                    Lines::All => true,
                    Lines::Orthogonal => !diagonal,
                    Lines::Diagonal => diagonal,
                }
            })
            .map(|&(df, dr)| delta(df as i32, dr as i32))
            .collect();
        Contact {
            tag,
            line,
            pieces: set(&k.pieces),
            beside: set(&k.beside),
            of: k.of,
            moved: k.moved,
            effect: k.effect,
            region: (!region.iter().all(SqSet::is_empty)).then_some(region),
            standing: k.standing,
            steps: if line {
                steps
            } else {
                KING_STEPS
                    .iter()
                    .map(|&(df, dr)| delta(df as i32, dr as i32))
                    .collect()
            },
            gap: if line { k.gap } else { 0 },
            priority: k.priority,
            disarms: k.disarms,
            other_moved: k.other_moved,
            elsewhere: k.elsewhere,
        }
    }

    /// The effects this component may have: its own, and where the pieces stand otherwise.
    pub fn effects(&self) -> impl Iterator<Item = Effect> + '_ {
        std::iter::once(self.effect).chain(self.elsewhere.filter(|e| *e != self.effect))
    }

    /// The first contact on `board` after a turn of `mover` whose moved pieces are `arrival`,
    /// among the pieces on `spots` (the board's [`Spots`]), whose effect, by where its pieces
    /// stand, is `want`: the square of the piece of `pieces`, and of the piece it touches or
    /// faces.
    #[inline]
    pub fn find_effect(
        &self,
        c: &super::Compiled,
        board: &Board,
        spots: &Spots,
        mover: Color,
        arrival: Arrivals,
        want: Effect,
    ) -> Option<(Sq, Sq)> {
        self.find_effect_where(c, board, spots, mover, arrival, want, None, |_, _| true)
    }

    /// [`Self::find_effect`] among the pairs of squares `keep` accepts.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn find_effect_where(
        &self,
        c: &super::Compiled,
        board: &Board,
        spots: &Spots,
        mover: Color,
        arrival: Arrivals,
        want: Effect,
        near: Option<&Near>,
        keep: impl Fn(Sq, Sq) -> bool,
    ) -> Option<(Sq, Sq)> {
        // A new contact has a changed square under one of its pieces, or between them.
        if near.is_some_and(|n| {
            !n.list().iter().any(|&sq| {
                let code = board.cell(sq);
                if code == cell::EMPTY {
                    self.line
                } else {
                    c.kind_at(code).is_some_and(|k| self.kinds().has(k))
                }
            })
        }) {
            return None;
        }
        let region = self.region.as_ref().map(|r| &r[mover.index()]);
        let inside = |sq: Sq, who: Standing| {
            let applies = self.standing == Standing::Both || self.standing == who;
            !applies || region.is_none_or(|r| r.has(sq))
        };
        let other = match self.of {
            Whose::Own => mover,
            Whose::Enemy => mover.other(),
        };
        for sq in spots.iter() {
            let code = board.cell(sq);
            if !is_of(code, mover) || !c.kind_at(code).is_some_and(|k| self.pieces.has(k)) {
                continue;
            }
            if !self.moved_ok(sq, region, arrival) {
                continue;
            }
            let piece_inside = inside(sq, Standing::Piece);
            if !piece_inside && self.elsewhere.is_none() {
                continue;
            }
            let moved = near.is_none_or(|n| n.has(sq));
            for &d in &self.steps {
                if !moved && near.is_some_and(|n| !n.may_meet(sq, d, self.line)) {
                    continue;
                }
                let mut at = sq.offset(d);
                let mut empty = 0u32;
                loop {
                    let code = board.cell(at);
                    if code == cell::WALL {
                        break;
                    }
                    if code == cell::EMPTY {
                        if !self.line {
                            break;
                        }
                        empty += 1;
                        at = at.offset(d);
                        continue;
                    }
                    let touches = is_of(code, other)
                        && c.kind_at(code).is_some_and(|k| self.beside.has(k))
                        && empty >= u32::from(self.gap)
                        && at != sq
                        && self.other_moved.is_none_or(|must| {
                            arrival.iter().flatten().any(|a| a.to == at) == must
                        });
                    let effect = if piece_inside && inside(at, Standing::Beside) {
                        Some(self.effect)
                    } else {
                        self.elsewhere
                    };
                    if touches && effect == Some(want) && keep(sq, at) {
                        return Some((sq, at));
                    }
                    break;
                }
            }
        }
        None
    }

    /// Adds to `into` each piece that alone stands on a line of this (an `alignment`'s) between
    /// one of its `pieces` and one of its `beside`, of either side: a move that takes no such
    /// piece away opens none of its lines.
    pub(super) fn line_blockers(
        &self,
        c: &super::Compiled,
        board: &Board,
        spots: &Spots,
        into: &mut SqSet,
    ) {
        let ours = |code: u8, kinds: KindSet| c.kind_at(code).is_some_and(|k| kinds.has(k));
        for sq in spots.iter() {
            if !ours(board.cell(sq), self.pieces) {
                continue;
            }
            for &d in &self.steps {
                let mut blocker = None;
                let mut at = sq.offset(d);
                loop {
                    let code = board.cell(at);
                    if code == cell::WALL {
                        break;
                    }
                    if code != cell::EMPTY {
                        match blocker {
                            None => blocker = Some(at),
                            Some(b) => {
                                if ours(code, self.beside) {
                                    into.add(b);
                                }
                                break;
                            }
                        }
                    }
                    at = at.offset(d);
                }
            }
        }
    }

    /// Whether the piece on `sq` moved as `moved` asks.
    fn moved_ok(&self, sq: Sq, region: Option<&SqSet>, arrival: Arrivals) -> bool {
        let here = arrival.into_iter().flatten().find(|a| a.to == sq);
        let entered = here.is_some_and(|a| {
            region.is_some_and(|r| r.has(a.to) && a.from.is_none_or(|f| !r.has(f)))
        });
        match self.moved {
            Moved::Any => true,
            Moved::Yes => here.is_some(),
            Moved::Into => entered,
            Moved::NotInto => !entered,
        }
    }

    /// The kinds whose pieces it looks at.
    pub fn kinds(&self) -> KindSet {
        KindSet(self.pieces.0 | self.beside.0)
    }
}

impl super::Compiled {
    /// The contact components that refuse, in the order written: `before` those written
    /// before `check` (asked before it), else those after.
    fn refusing(&self, before: bool) -> impl Iterator<Item = (usize, &Contact)> {
        let check = self.check.map_or(usize::MAX, |(t, _)| t.index);
        self.contacts.iter().enumerate().filter(move |(_, k)| {
            k.effects().any(|e| e == Effect::Illegal) && (k.tag.index < check) == before
        })
    }
}

impl Position {
    /// Why this set-up is refused by its contacts, if it is: whatever the side that just
    /// moved moved last (nothing a contact looks at, or one of its contact pieces, into a
    /// region or within it), a contact refuses or loses that turn, or one stood before it
    /// that refused or lost the other side's turn before (an adjacency among the other side's
    /// pieces and whatever it moved then, apart from the piece the last turn moved). A loss
    /// whose pieces a win of the other side shows (the same line, seen from the Spy) is that
    /// game's end, which the position shows. The sentence names
    /// the contact standing.
    pub(super) fn contact_setup_refusal(&self) -> Option<String> {
        let c = self.c;
        if c.contacts.is_empty() {
            return None;
        }
        let spots = Spots::of(c, &self.board);
        let last = self.turn.other();
        // The pairs a win shows decided, as a set-up shows one (asking nothing of what
        // moved): the loss the same pair is to the other side is that game's end.
        let mut wins = Vec::new();
        for color in [last, self.turn] {
            for k in c.contacts.iter().filter(|k| k.moved == Moved::Any) {
                if k.effects().any(|e| e == Effect::Win) {
                    if let Some((a, b)) =
                        k.find_effect(c, &self.board, &spots, color, [None, None], Effect::Win)
                    {
                        wins.push((a.min(b), a.max(b)));
                    }
                }
            }
        }
        let histories = |color: Color| {
            let mut out = vec![None];
            for sq in spots.iter() {
                if is_of(self.board.cell(sq), color) {
                    out.push(Some(Arrival { from: None, to: sq }));
                    out.push(Some(Arrival {
                        from: Some(sq),
                        to: sq,
                    }));
                }
            }
            out
        };
        // Before the last turn, only an adjacency is sure to have stood: the turn may have
        // opened a line.
        // A contact that refuses or loses: a set-up does not say what its last turn moved,
        // so it does not show a loss that turn made (a win for either side it shows, where
        // the contact asks nothing of what moved).
        let refusal = |color: Color, moved: Option<Arrival>, except: Option<Sq>| {
            let effects: &[Effect] = &[Effect::Illegal, Effect::Loss];
            c.contacts
                .iter()
                .filter(|k| color == last || !k.line)
                .find_map(|k| {
                    effects.iter().find_map(|&want| {
                        k.find_effect_where(
                            c,
                            &self.board,
                            &spots,
                            color,
                            [moved, None],
                            want,
                            None,
                            |a, b| {
                                except.is_none_or(|e| a != e && b != e)
                                    && !(want == Effect::Loss
                                        && wins.contains(&(a.min(b), a.max(b))))
                            },
                        )
                        .map(|pair| (k, pair))
                    })
                })
        };
        let mut standing = None;
        for moved in histories(last) {
            let found = refusal(last, moved, None).or_else(|| {
                let except = moved.map(|a| a.to);
                let mut first = None;
                for before in histories(self.turn) {
                    let found = refusal(self.turn, before, except)?;
                    first.get_or_insert(found);
                }
                first
            });
            let found = found?;
            standing.get_or_insert(found);
        }
        let (k, (a, b)) = standing?;
        let name = |sq: Sq| {
            let code = self.board.cell(sq);
            let color = super::position::color_of(code);
            let kind = c
                .kind_at(code)
                .map_or("piece", |k| c.kinds[k].name.as_str());
            format!(
                "the {color} {kind} on {}",
                c.geometry.square_name(sq.square())
            )
        };
        let relation = if k.line {
            "stands in line with"
        } else {
            "stands next to"
        };
        Some(format!(
            "{} {relation} {}, which {} forbids: no turn leaves them so",
            name(a),
            name(b),
            k.tag.rule
        ))
    }

    /// The first contact component, among those asked `before` the check test or after it,
    /// that refuses `m` played into `board`: its index in [`super::Compiled::contacts`].
    /// `near`: the squares `m` changed, when no contact stood before it.
    pub(super) fn contact_refusal(
        &self,
        m: Move,
        board: &Board,
        spots: &Spots,
        before: bool,
        near: Option<&Near>,
    ) -> Option<usize> {
        let c = self.c;
        let arrival = Arrival::of(m);
        let illegal = Effect::Illegal;
        c.refusing(before)
            .find(|(_, k)| {
                k.find_effect_where(
                    c,
                    board,
                    spots,
                    self.turn,
                    arrival,
                    illegal,
                    near,
                    |_, _| true,
                )
                .is_some()
            })
            .map(|(i, _)| i)
    }

    /// The square of the piece a winning contact with `disarms yes` after `m` (played into
    /// `board`) takes out of play: the turn that flips it is not judged by its attacks.
    pub(super) fn flipped_after(&self, m: Move, board: &Board, spots: &Spots) -> Option<Sq> {
        let c = self.c;
        let arrival = Arrival::of(m);
        c.contacts
            .iter()
            .filter(|k| k.disarms && k.effects().any(|e| e == Effect::Win))
            .find_map(|k| k.find_effect(c, board, spots, self.turn, arrival, Effect::Win))
            .map(|(_, other)| other)
    }

    /// The game's end by a contact: after a turn, the first winning or losing contact (in the
    /// order written) of the side that moved; in a position set up without a last turn, a
    /// winning contact of either side (the side that moved looked at first), as a loss
    /// belongs to the turn that brought it about. The value is the side's it happens to.
    pub(super) fn contact_ending(&self) -> Option<(Color, Value, &'static str)> {
        self.contact_ending_ranked().map(|(_, end)| end)
    }

    /// [`Self::contact_ending`] with its component's place among the endings: its priority
    /// and where it is written.
    pub(super) fn contact_ending_ranked(&self) -> Option<(Rank, (Color, Value, &'static str))> {
        let c = self.c;
        let last = self.turn.other();
        let value = |e: Effect| {
            if e == Effect::Win {
                Value::Win
            } else {
                Value::Loss
            }
        };
        let spots = Spots::of(c, &self.board);
        // The first component, by priority then in the order written, with a deciding
        // contact of `color`.
        let decided = |color: Color, arrival: Arrivals, wins_only: bool| {
            c.contact_endings
                .iter()
                .map(|&k| &c.contacts[k])
                .find_map(|k| {
                    if wins_only && k.moved != Moved::Any {
                        return None;
                    }
                    k.effects()
                        .filter(|&e| e == Effect::Win || e == Effect::Loss && !wins_only)
                        .find(|&e| {
                            k.find_effect(c, &self.board, &spots, color, arrival, e)
                                .is_some()
                        })
                        .map(|e| ((k.priority, k.tag.index), (color, value(e), k.tag.rule)))
                })
        };
        if self.arrival.iter().any(Option::is_some) {
            return decided(last, self.arrival, false);
        }
        [last, self.turn]
            .into_iter()
            .find_map(|color| decided(color, [None, None], true))
    }

    /// The refusal of `m` by the contact component `index`, played into `next`.
    pub(super) fn contact_step(&self, index: usize, m: Move, next: &Position) -> Step {
        let k = &self.c.contacts[index];
        let spots = Spots::of(self.c, &next.board);
        let arrival = Arrival::of(m);
        let found = k.find_effect(
            self.c,
            &next.board,
            &spots,
            self.turn,
            arrival,
            Effect::Illegal,
        );
        let note = match found {
            Some((a, b)) => format!(
                "{}: a turn may not leave it",
                next.contact_words(k, a, b, self.turn)
            ),
            None => "the turn would leave a contact this rule forbids".into(),
        };
        Step::forbids(k.tag.rule, note)
    }

    /// What a legal `m` played into `next` brings about by contact: the step that ends the game.
    pub(super) fn contact_effect_step(&self, m: Move, next: &Position) -> Option<Step> {
        let (color, value, rule) = next.contact_ending()?;
        let k = self.c.contacts.iter().find(|k| k.tag.rule == rule)?;
        let effect = if value == Value::Win {
            Effect::Win
        } else {
            Effect::Loss
        };
        let spots = Spots::of(self.c, &next.board);
        let (a, b) = k.find_effect(self.c, &next.board, &spots, color, Arrival::of(m), effect)?;
        let outcome = match value {
            Value::Win => "the side that moved wins",
            _ => "the side that moved loses",
        };
        Some(Step::effect(
            rule,
            format!("{}: {outcome}", next.contact_words(k, a, b, color)),
        ))
    }

    /// `the spy on d5 stands next to the enemy king on e6`.
    fn contact_words(&self, k: &Contact, a: Sq, b: Sq, mover: Color) -> String {
        let whose = match k.of {
            Whose::Own => format!("{mover}'s own"),
            Whose::Enemy => "the enemy".into(),
        };
        let relation = if k.line {
            "is lined up, with nothing between, with"
        } else {
            "stands next to"
        };
        format!(
            "the {} on {} {relation} {whose} {} on {}",
            self.kind_name(a),
            self.square_name(a),
            self.kind_name(b),
            self.square_name(b)
        )
    }
}

/// The summary of a contact component for the catalogue; `name` gives a kind's name.
pub fn summary(
    k: &crate::definition::model::Contact,
    line: bool,
    name: impl Fn(char) -> String,
) -> String {
    let kinds = |l: &[char]| {
        let names: Vec<String> = l.iter().map(|&c| name(c)).collect();
        match names.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    };
    let (p, b) = (kinds(&k.pieces), kinds(&k.beside));
    let first = match k.moved {
        Moved::Any => format!("a {p} of the mover's"),
        Moved::Yes => format!("the {p} it moves"),
        Moved::Into => format!("a {p} it moves into the region"),
        Moved::NotInto => format!("a {p} of the mover's, unless just moved into the region,"),
    };
    let second = match k.of {
        Whose::Own => format!("a {b} of the mover's"),
        Whose::Enemy => format!("an enemy {b}"),
    };
    let relation = if line {
        let lines = match k.lines {
            Lines::All => "a file, rank or diagonal",
            Lines::Orthogonal => "a file or rank",
            Lines::Diagonal => "a diagonal",
        };
        let gap = match k.gap {
            0 => String::new(),
            1 => ", at least one empty square between".into(),
            n => format!(", at least {n} empty squares between"),
        };
        format!("lined up on {lines}, nothing between{gap}, with")
    } else {
        "next to".into()
    };
    let region = if k.region.iter().all(|r| r.cells.is_empty()) {
        ""
    } else {
        match k.standing {
            Standing::Both => ", both in the region",
            Standing::Piece => ", the first in the region",
            Standing::Beside => ", the second in the region",
        }
    };
    let effect = match k.effect {
        Effect::Illegal => "it may not be played",
        Effect::Win => "the mover wins",
        Effect::Loss => "the mover loses",
    };
    let elsewhere = match k.elsewhere {
        None => "",
        Some(Effect::Illegal) => "; standing otherwise, it may not be played",
        Some(Effect::Win) => "; standing otherwise, the mover wins",
        Some(Effect::Loss) => "; standing otherwise, the mover loses",
    };
    format!("a turn that leaves {first} {relation} {second}{region}: {effect}{elsewhere}")
}

#[cfg(test)]
mod tests {
    use super::super::position::Position as P;
    use crate::rules::{Color, Geometry, Options, Rules};

    /// The position `fen` of the definition `text`, and its legal turns as texts.
    fn at(text: &str, fen: &str) -> (P, Vec<String>) {
        let load = |name: &str| Err(format!("no definition named `{name}`"));
        let def = crate::definition::parse("t.def", text, &load).unwrap_or_else(|e| panic!("{e}"));
        let crate::rules::Variant::Defined(id) = super::super::register(def).expect("registered")
        else {
            panic!("a definition");
        };
        // The binding lives for the test: positions keep their compiled definition.
        std::mem::forget(super::super::bind(id));
        let o = Options::defaults(P::options());
        let pos = P::from_fen(Geometry::lettered(8, 8), fen, &o).expect("a FEN");
        let turns = texts(&pos);
        (pos, turns)
    }

    fn texts(pos: &P) -> Vec<String> {
        let g = Geometry::lettered(8, 8);
        let mut out: Vec<String> = pos
            .legal_turns()
            .into_iter()
            .map(|(_, t)| t.text(&g))
            .collect();
        out.sort();
        out
    }

    /// `pos` after the legal turn written `turn`.
    fn after(pos: &P, turn: &str) -> P {
        let g = Geometry::lettered(8, 8);
        let (m, _) = pos
            .legal_turns()
            .into_iter()
            .find(|(_, t)| t.text(&g) == turn)
            .unwrap_or_else(|| panic!("{turn} is not legal in {}", pos.fen()));
        let mut next = pos.clone();
        next.play(m);
        next
    }

    fn winner(pos: &P) -> Option<(Option<Color>, &'static str)> {
        pos.outcome().map(|o| (o.winner, o.rule))
    }

    const BASE: &str = "variant t\nboard 8x8\npiece K king K royal\npiece R rook R\n\
                        piece N knight N\nstart \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n";

    /// `moved into` counts the piece the turn moved into the region from outside; a piece
    /// moving within it, or a piece that stood still, does not.
    #[test]
    fn moved_into_asks_where_the_piece_came_from() {
        let text = format!(
            "{BASE}adjacency {{\n  clause \"c\"\n  pieces R\n  beside K\n  moved into\n  effect win\n  both rank 5\n}}\n"
        );
        let (pos, _) = at(&text, "8/8/8/4k3/R7/8/8/4K3 w - - 0 1");
        assert_eq!(winner(&after(&pos, "Ra4-a5")), None, "not next to the king");
        let (pos, _) = at(&text, "8/8/8/4k3/3R4/8/8/4K3 w - - 0 1");
        assert_eq!(
            winner(&after(&pos, "Rd4-d5")),
            Some((Some(Color::White), "adjacency"))
        );
        let (pos, _) = at(&text, "8/8/8/R3k3/8/8/8/4K3 w - - 0 1");
        assert_eq!(winner(&after(&pos, "Ra5-d5")), None, "within the region");
        let not_into = text.replace("moved into", "moved not-into");
        let (pos, _) = at(&not_into, "8/8/8/R3k3/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            winner(&after(&pos, "Ra5-d5")),
            Some((Some(Color::White), "adjacency"))
        );
        let (pos, _) = at(&not_into, "8/8/8/4k3/3R4/8/8/4K3 w - - 0 1");
        assert_eq!(winner(&after(&pos, "Rd4-d5")), None);
    }

    /// `standing` narrows the region to one of the two pieces.
    #[test]
    fn standing_names_the_piece_the_region_holds() {
        let text = |standing: &str| {
            format!(
                "{BASE}adjacency {{\n  clause \"c\"\n  pieces N\n  beside K\n  standing {standing}\n  both rank 5\n}}\n"
            )
        };
        // The knight would land on d5 (on rank 5), next to the king on e6 (off it).
        let fen = "8/8/4k3/8/8/2N5/8/4K3 w - - 0 1";
        let lands = |s: &str| at(&text(s), fen).1.contains(&"Nc3-d5".to_string());
        assert!(!lands("piece"), "the knight stands in the region");
        assert!(lands("beside"), "the king does not");
        assert!(lands("both"), "only one of them does");
    }

    /// An alignment needs every square between empty and at least `gap` of them, on its
    /// lines; a hole ends a line.
    #[test]
    fn alignment_counts_the_empty_squares_between() {
        let text = |lines: &str, gap: u8| {
            format!(
                "{BASE}alignment {{\n  clause \"c\"\n  pieces R\n  facing K\n  lines {lines}\n  gap {gap}\n  moved yes\n  effect win\n}}\n"
            )
        };
        let fen = "8/8/8/4k3/8/8/R7/4K3 w - - 0 1";
        let wins = |t: &str, turn: &str| winner(&after(&at(t, fen).0, turn)).is_some();
        assert!(
            wins(&text("orthogonal", 1), "Ra2-a5"),
            "three empty squares between"
        );
        assert!(!wins(&text("orthogonal", 4), "Ra2-a5"), "fewer than four");
        assert!(
            !wins(&text("diagonal", 0), "Ra2-a5"),
            "a rank is no diagonal"
        );
        assert!(
            wins(&text("orthogonal", 0), "Ra2-e2"),
            "e3 and e4 are empty"
        );
        assert!(
            !wins(&text("orthogonal", 3), "Ra2-e2"),
            "only two empty squares"
        );
        let blocked = "8/8/8/4k3/8/8/R7/4K3 w - - 0 1".replace("8/8/R7", "8/2N5/R7");
        let (pos, _) = at(&text("all", 0), &blocked);
        assert!(winner(&after(&pos, "Ra2-a1")).is_none());
        // A hole on c5 ends the rank line from a5.
        let holed = text("orthogonal", 1).replace("board 8x8\n", "board 8x8\nholes c5\n");
        let (pos, _) = at(&holed, fen);
        assert!(winner(&after(&pos, "Ra2-a5")).is_none());
    }

    /// Refusals: a contact written before `check` refuses before it, one written after it
    /// refuses only what `check` lets through.
    #[test]
    fn contacts_refuse_in_the_order_written() {
        let contact = "adjacency {\n  id kings-apart\n  clause \"c\"\n  pieces K\n  beside R\n}\n";
        let check = "check {\n  clause \"k\"\n}\n";
        let fen = "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1";
        for (text, rule) in [
            (format!("{BASE}{contact}{check}"), "kings-apart"),
            (format!("{BASE}{check}{contact}"), "check"),
        ] {
            let (pos, turns) = at(&text, fen);
            assert!(!turns.contains(&"Ke1-e2".to_string()), "{turns:?}");
            assert!(turns.contains(&"Ke1xd2".to_string()), "{turns:?}");
            let g = Geometry::lettered(8, 8);
            let turn = crate::scenario::parse::parse_turn("Ke1-e2").expect("a turn");
            let lowered = crate::scenario::evaluate::Lowering::<P>::new(g)
                .turn(&turn)
                .expect("lowers");
            let refused = pos.refusal(&lowered);
            assert_eq!(refused.rule, rule, "{}", refused.reason);
        }
    }

    /// The legality test's shortcut (a move of a piece no contact looks at needs no test)
    /// agrees with the full test along random games of `spies.def`.
    #[test]
    fn the_shortcut_agrees_with_the_full_test() {
        let text = include_str!("../../../scenarios/definitions/spies.def");
        let (start, _) = at(
            text,
            "rnsbkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNSBKBNR w - - 0 1",
        );
        let mut rng = super::super::agreement::Rng(0x2545_f491_4f6c_dd1d);
        let mut positions = 0;
        for _game in 0..40 {
            let mut pos = start.clone();
            for _ply in 0..60 {
                let mut fast = Vec::new();
                pos.legal_moves(&mut fast);
                let mut pseudo = Vec::new();
                pos.pseudo_moves(&mut pseudo);
                let full: Vec<_> = if pos.decided().is_some() {
                    Vec::new()
                } else {
                    pseudo
                        .into_iter()
                        .filter(|&m| {
                            let mut next = pos.clone();
                            next.apply(m);
                            pos.legal_after(m, &next)
                        })
                        .collect()
                };
                let key = |v: &[super::Move]| {
                    let mut v: Vec<String> = v.iter().map(|m| format!("{m:?}")).collect();
                    v.sort();
                    v
                };
                assert_eq!(key(&fast), key(&full), "{}", pos.fen());
                positions += 1;
                if fast.is_empty() {
                    break;
                }
                let m = fast[rng.below(fast.len())];
                pos.apply(m);
            }
        }
        assert!(positions > 1000, "{positions}");
    }
}
