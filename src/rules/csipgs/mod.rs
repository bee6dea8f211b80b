//! csipgs chess (Ralph Betza, 1996), as read from `csipgs-chess.txt` with the prices of
//! `csipgs-costs.md`.
//!
//! A position is the 8x8 board plus, for each player, a treasury in zorkmids, a reserve of
//! bought pieces and six designs ([`Slot`]s: the standard R N B Q K and pawn `fmWfcF`, or an
//! invented design). A turn ([`Move`]) is the credit of one zorkmid, one action (a step of a
//! piece, a drop from the reserve next to a King, or a purchase) and an optional design
//! change. Every piece moves by its design through the shared movement model; there is no
//! castling, double step, en passant or promotion. Legal turns come from one explorer that
//! tags every candidate it rejects with its rule, so legal turns and refusals agree
//! ([`crate::rules::refusal`]). Design changes are unbounded, so they are never enumerated:
//! `moves` and `perft` list moves, drops and purchases, and a written design change is
//! resolved on demand ([`Rules::resolve`]).
//!
//! # FEN dialect
//!
//! `<placement> <side> [<treasuries> <reserves> <designs>]`:
//! - placement as in chess, invented pieces as `(WD)` for White and `[WD]` for Black;
//! - treasuries `<white>/<black>`, e.g. `3/2`;
//! - reserves `<white>/<black>`, each the pieces run together (`N(WD)(WD)`) or `-`;
//! - designs `<white>/<black>`, each six slot names joined by commas
//!   (`R,N,B,Q,K,fmWfcF`).
//!
//! [`Rules::fen`] prints all five fields; [`Rules::from_fen`] also accepts the first two
//! alone (empty treasuries and reserves, the standard designs).

mod catalogue;
mod explain;
mod fast;
#[cfg(test)]
mod fast_agreement;
pub mod price;
mod refuse;
#[cfg(test)]
mod tests;

use std::fmt;
use std::hash::Hasher;
use std::sync::OnceLock;

use super::board::{cell::EMPTY, Board, Geometry, Sq, Square};
use super::chess::{attack_tables_with_designs, first_time, piece_movement, quoted, takes};
use super::consulted::Reading;
use super::design::{self, DesignId};
use super::key::KeyHasher;
use super::movement::{offset, walk, Landing};
use super::piece::{Color, Piece, Role};
use super::refusal::{Rejection, Stage, Verdicts};
use super::resolve::{LegalTurns, Named};
use super::setup_error::{SetupError, SetupErrorKind as Kind};
use super::turn::{Action, ActionPattern, Leg, Turn, TurnPattern};
use super::variants::VariantInfo;
use super::{
    InvariantDef, KeyDef, OptionDef, Options, Outcome, Reason, Refusal, RuleDef, Rules, Setup,
};
use price::Letters;

pub use catalogue::{INVARIANTS, OPTIONS, RULES, STATE_KEYS};

/// csipgs chess in the registry of variants.
pub const INFO: VariantInfo = VariantInfo {
    name: "csipgs",
    game: "csipgs chess: designed pieces bought from a treasury and dropped",
    boards: &[(8, 8)],
    pieces: &[
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ],
    designs: true,
    invented: true,
    zones: &[],
    check: true,
    reasons: &[
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::Resignation,
        Reason::Agreement,
    ],
    interpreted: true,
};

/// A player may hold at most this many pieces, on the board and in reserve (4.2).
pub const MAX_PIECES: usize = 16;
/// The largest treasury a position may be given: a game adds one zorkmid a turn.
pub const MAX_TREASURY: u32 = 1_000_000;

/// One of a player's six designs, and the kind of a piece made from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Slot {
    /// A standard design: King, Queen, Rook, Bishop, Knight or the pawn `fmWfcF`.
    Role(Role),
    /// An invented design.
    Design(DesignId),
}

/// The standard designs in their slot order at the start of a game.
pub const STANDARD: [Slot; 6] = [
    Slot::Role(Role::Rook),
    Slot::Role(Role::Knight),
    Slot::Role(Role::Bishop),
    Slot::Role(Role::Queen),
    Slot::Role(Role::King),
    Slot::Role(Role::Pawn),
];

impl Slot {
    /// The design a text names: a standard letter (`R N B Q K P`), or a design in Betza
    /// notation, which is the standard one where it moves as one (`fmWfcF` is the pawn).
    pub fn parse(text: &str) -> Result<Slot, String> {
        let text = text
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(text);
        if let Some(r) = match text {
            "K" => Some(Role::King),
            "P" => Some(Role::Pawn),
            _ => None,
        } {
            return Ok(Slot::Role(r));
        }
        // The standard designs are read without interning, so that they never take (or wait
        // for) one of the run's design ids.
        let design = crate::betza::Design::parse(text)
            .map_err(|e| format!("`{text}` is {}", design::DesignError::Syntax(e)))?;
        if let Some(r) = standard(&design) {
            return Ok(Slot::Role(r));
        }
        let id = design::intern(text).map_err(|e| format!("`{text}` is {e}"))?;
        Ok(Slot::of_design(id))
    }

    /// [`Slot::parse`] under the reading of direction letters: with `direction-letters =
    /// separate`, a spelling whose letters price otherwise than its canonical text's (`ffW`,
    /// `fbB`) is a design of its own, kept as written, so that it keeps its price; it moves as
    /// its canonical twin, and its pieces on the board are the twin's. The reading is asked
    /// only for such a spelling.
    pub(crate) fn parse_read(text: &str, separate: Reading<bool>) -> Result<Slot, String> {
        let bare = text
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(text);
        let slot = Slot::parse(bare)?;
        if matches!(bare, "K" | "P") || slot.betza() == bare {
            return Ok(slot);
        }
        let by_letters = |t: &str| price::price_text(t, false, Letters::Separate).map(|p| p.exact);
        if by_letters(bare) == by_letters(&slot.betza()) || !separate.get() {
            return Ok(slot);
        }
        let id = design::intern_spelled(bare).map_err(|e| format!("`{bare}` is {e}"))?;
        TWINS[usize::from(id.index())].get_or_init(|| slot);
        Ok(Slot::Design(id))
    }

    /// The design that moves as this one: itself, or for a spelling kept as written its
    /// canonical twin.
    pub fn canonical(self) -> Slot {
        match self {
            Slot::Design(d) => TWINS[usize::from(d.index())].get().copied().unwrap_or(self),
            s => s,
        }
    }

    /// An invented design, or the standard one it equals. A `K` design that is not the King's
    /// slot moves as a King but is not royal, so it stays a design; so does a spelling kept as
    /// written.
    pub fn of_design(id: DesignId) -> Slot {
        if TWINS[usize::from(id.index())].get().is_some() {
            return Slot::Design(id);
        }
        standard(&id.entry().design).map_or(Slot::Design(id), Slot::Role)
    }

    /// The design's text for pricing.
    fn betza(self) -> String {
        match self {
            Slot::Role(Role::Pawn) => "fmWfcF".into(),
            Slot::Role(Role::King) => "K".into(),
            Slot::Role(r) => r.letter().to_string(),
            Slot::Design(d) => d.text().to_string(),
        }
    }

    /// The price of a piece of this design in zorkmids (the King's is royal), under the
    /// reading of direction letters; the reading is asked only where the two prices differ. A
    /// design never changes once interned, so each is priced once per run and reading: move
    /// generation asks for the price of every buyable design at every node.
    pub fn price(self, separate: Reading<bool>) -> Result<u64, String> {
        const ROLES: usize = Role::Design.code() as usize;
        const N: usize = ROLES + design::MAX_DESIGNS;
        type Cache = [OnceLock<Result<u64, String>>; N];
        static PRICES: [Cache; 2] = [
            [const { OnceLock::new() }; N],
            [const { OnceLock::new() }; N],
        ];
        let i = match self {
            Slot::Role(r) => r.code() as usize,
            Slot::Design(d) => ROLES + usize::from(d.index()),
        };
        let [by_moves, by_letters] = [Letters::MoveSet, Letters::Separate]
            .map(|l| PRICES[l as usize][i].get_or_init(|| self.price_uncached(l)));
        if by_moves == by_letters || !separate.get() {
            by_moves.clone()
        } else {
            by_letters.clone()
        }
    }

    fn price_uncached(self, letters: Letters) -> Result<u64, String> {
        price::price_text(&self.betza(), self == Slot::Role(Role::King), letters)
            .map(|p| p.zorkmids)
    }

    /// A piece of this design for `color`.
    pub fn piece(self, color: Color) -> Piece {
        match self.canonical() {
            Slot::Role(r) => Piece::new(color, r),
            Slot::Design(d) => Piece::designed(color, d),
        }
    }

    /// The kind of a piece.
    pub fn of_piece(p: Piece) -> Slot {
        match p.design() {
            Some(d) => Slot::Design(d),
            None => Slot::Role(p.role()),
        }
    }

    /// The name a turn writes: a standard letter (`P` for the pawn) or the design's text; a
    /// non-royal design that moves as a King is `WF`, since `K` names the King's design.
    pub fn name(self) -> String {
        match self {
            Slot::Role(r) => r.letter().to_string(),
            Slot::Design(d) if d.text() == "K" => "WF".into(),
            Slot::Design(d) => d.text().to_string(),
        }
    }

    /// The name the `designs` key writes: the pawn as its design `fmWfcF`.
    pub fn design_name(self) -> String {
        match self {
            Slot::Role(Role::Pawn) => "fmWfcF".into(),
            s => s.name(),
        }
    }

    /// A reserve piece as the `reserve` key writes it: `N`, `(WD)`.
    pub fn piece_name(self) -> String {
        match self {
            Slot::Role(r) => r.letter().to_string(),
            s => format!("({})", s.name()),
        }
    }

    /// The canonical order of reserves: K Q R B N P, then designs by their text.
    fn order(self) -> (u8, String) {
        match self {
            Slot::Role(r) => ("KQRBNP".find(r.letter()).unwrap_or(6) as u8, String::new()),
            Slot::Design(d) => (7, d.text().to_string()),
        }
    }
}

/// For each design kept as written ([`Slot::parse_read`]), the canonical design it moves as.
static TWINS: [OnceLock<Slot>; design::MAX_DESIGNS] =
    [const { OnceLock::new() }; design::MAX_DESIGNS];

/// The standard design a design is, if any (not `K`: a design that moves as a King is not
/// royal). Atoms are compared as sets, so that `fcFfmW` is the pawn `fmWfcF`.
fn standard(design: &crate::betza::Design) -> Option<Role> {
    let same = |text: &str| {
        let other = crate::betza::Design::parse(text).expect("a standard design");
        let (a, b) = (design.atoms(), other.atoms());
        a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
    };
    [
        ("R", Role::Rook),
        ("N", Role::Knight),
        ("B", Role::Bishop),
        ("Q", Role::Queen),
        ("fmWfcF", Role::Pawn),
    ]
    .into_iter()
    .find(|(text, _)| same(text))
    .map(|(_, r)| r)
}

/// The action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Act {
    /// A piece moves (and captures what stands on `to`).
    Step { from: u16, to: u16 },
    /// A reserve piece is put on `to`.
    Drop { kind: Slot, to: u16 },
    /// A piece of the design in this slot is bought into the reserve.
    Buy { slot: u8 },
}

/// A csipgs turn: the action, and the design change that may follow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub act: Act,
    /// The slot replaced, and its new design.
    pub redesign: Option<(u8, Slot)>,
}

impl Move {
    fn plain(act: Act) -> Move {
        Move {
            act,
            redesign: None,
        }
    }
}

/// The readings in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Opts {
    all_mated: Reading<bool>,
    /// Kings counted when the turn starts (`kings-counted = before-turn`).
    kings_before: Reading<bool>,
    /// Direction letters priced one by one (`direction-letters = separate`).
    separate: Reading<bool>,
}

impl Opts {
    fn read(options: &Options) -> Opts {
        Opts {
            all_mated: options.reading("several-kings", |v| v == "all-mated"),
            kings_before: options.reading("kings-counted", |v| v == "before-turn"),
            separate: options.reading("direction-letters", |v| v == "separate"),
        }
    }
}

/// A csipgs position.
#[derive(Clone, Debug)]
pub struct Csipgs {
    board: Board,
    turn: Color,
    treasury: [u32; 2],
    /// In canonical order.
    reserve: [Vec<Slot>; 2],
    designs: [[Slot; 6]; 2],
    opts: Opts,
}

fn square(s: u16) -> Square {
    Sq(s).square()
}

fn name(s: u16) -> String {
    Csipgs::geometry().square_name(square(s))
}

impl Csipgs {
    fn geometry() -> Geometry {
        Geometry::lettered(8, 8)
    }

    /// The squares of the Kings of `color`, from the board.
    fn kings(&self, color: Color) -> Vec<Sq> {
        self.board
            .pieces()
            .filter(|(_, p)| *p == Piece::new(color, Role::King))
            .map(|(s, _)| Sq::of(s))
            .collect()
    }

    fn attacked(&self, s: Sq, by: Color) -> Option<Square> {
        attack_tables_with_designs()[by.index()]
            .attacker(&self.board, s, |_| true, |_, _| false)
            .map(|a| a.from.square())
    }

    /// Whether any King of `color` is attacked (4.3 and 7 call that being in check).
    fn in_check_any(&self, color: Color) -> bool {
        self.kings(color)
            .into_iter()
            .any(|k| self.attacked(k, color.other()).is_some())
    }

    /// Pieces of `color` on the board and in reserve.
    fn piece_count(&self, color: Color) -> usize {
        self.board
            .pieces()
            .filter(|(_, p)| p.color() == color)
            .count()
            + self.reserve[color.index()].len()
    }

    /// The slots whose pieces can be bought, each design once.
    fn buyable_slots(&self, color: Color) -> impl Iterator<Item = u8> + '_ {
        let designs = &self.designs[color.index()];
        (0..6u8).filter(|&i| !designs[..i as usize].contains(&designs[i as usize]))
    }

    /// Sends every candidate turn (without design changes) to `out`, legal or with the rule
    /// that rejects it. A move list (a sink that wants no refusals) gets its King-safety test
    /// from [`fast::Safety`]; refusals, which name the attacker, from [`Self::consider`].
    pub(crate) fn explore<V: Verdicts<Move>>(&self, out: &mut V) {
        self.candidates(out, !V::REJECTED);
    }

    /// The legal turns (without design changes), the fast way or the reference's: none once
    /// the game is over, so that every search (perft, its split, `win`) stops where `moves`
    /// and the result say the game has ended. The only end the candidates themselves do not
    /// show is all-kings-mated: several Kings, every one attacked, and no turn saving one.
    fn legal_into(&self, out: &mut Vec<Move>, fast: bool) {
        let start = out.len();
        let all_attacked = self.candidates(out, fast);
        if all_attacked
            && out.len() > start
            && !self.saves_a_king(&out[start..])
            && self.opts.all_mated.get()
        {
            out.truncate(start);
        }
    }

    /// [`Self::explore`], testing King safety the fast way or the reference's. Returns whether
    /// the mover has several Kings and every one of them is attacked.
    fn candidates<V: Verdicts<Move>>(&self, out: &mut V, fast: bool) -> bool {
        let us = self.turn;
        let own: Vec<(Square, Piece)> = self
            .board
            .pieces()
            .filter(|(_, p)| p.color() == us)
            .collect();
        // As `kings` and `piece_count` find them, from the one look at the board.
        let king = Piece::new(us, Role::King);
        let kings: Vec<Sq> = own
            .iter()
            .filter(|(_, p)| *p == king)
            .map(|(s, _)| Sq::of(*s))
            .collect();
        let count = own.len() + self.reserve[us.index()].len();
        // Each King's attacker, found once for drops, purchases and the move list's test.
        let attackers: Vec<Option<Square>> = kings
            .iter()
            .map(|k| self.attacked(*k, us.other()))
            .collect();
        let checked = attackers.iter().any(Option::is_some);
        let mut safety = fast.then(|| fast::Safety::new(self, &kings, checked));
        for (from, piece) in own {
            let f = Sq::of(from);
            let mut reached = 0u64;
            walk(
                piece_movement(piece),
                &self.board,
                f,
                us,
                V::REJECTED,
                |t, landing| {
                    // Two atoms of a design may reach one square (`WbR`): one move.
                    if takes(landing, us as u8) && !first_time(&mut reached, t) {
                        return;
                    }
                    let m = Move::plain(Act::Step { from: f.0, to: t.0 });
                    match landing {
                        Landing::Blocked { by } => {
                            out.rejected(m, Rejection::at("blocked", Stage::Blocked, by.square()))
                        }
                        Landing::Piece { code, .. } if code & 1 == us as u8 => {
                            if V::REJECTED {
                                out.rejected(
                                    m,
                                    Rejection::new("own-piece-on-target", Stage::Target),
                                )
                            }
                        }
                        Landing::Empty { moves: true } | Landing::Piece { captures: true, .. } => {
                            match &mut safety {
                                Some(safety) => {
                                    if safety.step(piece, f, t) {
                                        out.legal(m)
                                    }
                                }
                                None => self.consider(m, out),
                            }
                        }
                        _ => {
                            if V::REJECTED {
                                out.rejected(m, Rejection::new("design-move", Stage::Target))
                            }
                        }
                    }
                },
            );
        }
        // Drops next to a King (3), and next to none in check (5; with several Kings too: 7).
        let reserve = &self.reserve[us.index()];
        if !reserve.is_empty() {
            let mut targets: Vec<(u16, Option<Square>)> = Vec::new();
            for (k, &checked) in kings.iter().zip(&attackers) {
                for step in super::movement::KING_STEPS {
                    let t = k.offset(offset(step, Color::White));
                    if self.board.cell(t) != EMPTY {
                        continue;
                    }
                    match targets.iter_mut().find(|(s, _)| *s == t.0) {
                        // The first King in check beside the square names the refusal.
                        Some(entry) => {
                            if entry.1.is_none() {
                                entry.1 = checked;
                            }
                        }
                        None => targets.push((t.0, checked)),
                    }
                }
            }
            targets.sort_unstable();
            // The reserve is in canonical order: each kind once.
            let kinds = reserve
                .iter()
                .enumerate()
                .filter(|&(i, k)| i == 0 || reserve[i - 1] != *k)
                .map(|(_, k)| *k);
            for kind in kinds {
                for &(to, checked) in &targets {
                    let m = Move::plain(Act::Drop { kind, to });
                    match (checked, &mut safety) {
                        (None, Some(safety)) => {
                            if safety.drop(kind.piece(us), Sq(to)) {
                                out.legal(m)
                            }
                        }
                        (None, None) => self.consider(m, out),
                        (Some(a), _) => {
                            out.rejected(m, Rejection::at("drop-king-in-check", Stage::Target, a))
                        }
                    }
                }
            }
        }
        // Purchases (4).
        let money = u64::from(self.treasury[us.index()]) + 1;
        for slot in self.buyable_slots(us) {
            let m = Move::plain(Act::Buy { slot });
            let price = self.designs[us.index()][slot as usize].price(self.opts.separate);
            let why = if checked {
                Some("buy-in-check")
            } else if count >= MAX_PIECES {
                Some("buy-sixteen")
            } else if price.map_or(true, |p| p > money) {
                Some("buy-afford")
            } else {
                None
            };
            match why {
                Some(rule) => out.rejected(m, Rejection::new(rule, Stage::Target)),
                None => out.legal(m),
            }
        }
        kings.len() > 1 && attackers.iter().all(Option::is_some)
    }

    /// A candidate the board allows: legal unless it leaves the mover's only King attacked
    /// (with several Kings, check may be ignored: 7; see [`Self::second_king_drop`]).
    fn consider<V: Verdicts<Move>>(&self, m: Move, out: &mut V) {
        let mut next = self.clone();
        next.apply(m);
        let kings = next.kings(self.turn);
        let tested = match kings[..] {
            [k] => next.attacked(k, self.turn.other()),
            _ if self.second_king_drop(m) => kings
                .iter()
                .find_map(|k| next.attacked(*k, self.turn.other()))
                .filter(|_| self.opts.kings_before.get()),
            _ => None,
        };
        match tested {
            Some(a) => out.rejected(m, Rejection::at("own-king-in-check", Stage::Final, a)),
            None => out.legal(m),
        }
    }

    /// Whether `m` drops a King beside the mover's only one: the one turn whose King safety
    /// depends on when Kings are counted (`kings-counted`). Counted before the turn, the mover
    /// has one King and may leave none attacked; counted after, it has two and may ignore check.
    fn second_king_drop(&self, m: Move) -> bool {
        matches!(
            m.act,
            Act::Drop {
                kind: Slot::Role(Role::King),
                ..
            }
        ) && self.kings(self.turn).len() == 1
    }

    fn apply(&mut self, m: Move) {
        let us = self.turn;
        let i = us.index();
        self.treasury[i] = self.treasury[i].saturating_add(1);
        match m.act {
            Act::Step { from, to } => {
                let p = self.board.piece_at(Sq(from));
                self.board.set(Sq(to), p);
                self.board.set(Sq(from), None);
            }
            Act::Drop { kind, to } => {
                if let Some(at) = self.reserve[i].iter().position(|k| *k == kind) {
                    self.reserve[i].remove(at);
                }
                self.board.set(Sq(to), Some(kind.piece(us)));
            }
            Act::Buy { slot } => {
                let kind = self.designs[i][slot as usize];
                let price = kind.price(self.opts.separate).unwrap_or(u64::MAX);
                self.treasury[i] =
                    self.treasury[i].saturating_sub(price.min(u64::from(u32::MAX)) as u32);
                self.reserve[i].push(kind);
                self.reserve[i].sort_by_key(|k| k.order());
            }
        }
        if let Some((slot, design)) = m.redesign {
            self.designs[i][slot as usize] = design;
        }
        self.turn = us.other();
    }

    /// Checks a written design change after the action `m`: which slot it replaces and with
    /// what, or why it cannot.
    fn redesign(&self, from: &str, to: &str) -> Result<(u8, Slot), Refusal> {
        let us = self.turn;
        let designs = &self.designs[us.index()];
        let old = Slot::parse_read(from, self.opts.separate).ok();
        let slot = designs
            .iter()
            .position(|s| Some(*s) == old || s.name() == from || s.design_name() == from)
            .ok_or_else(|| {
                let names: Vec<String> = designs.iter().map(|s| s.name()).collect();
                Refusal::new(
                    "redesign",
                    format!(
                        "{us} has no design {from}; its designs are {}",
                        names.join(" ")
                    ),
                )
            })?;
        if designs[slot] == Slot::Role(Role::King) {
            return Err(Refusal::new(
                "king-design-fixed",
                "the King's design is kept: the royal pieces are the Kings",
            ));
        }
        let new = Slot::parse_read(to, self.opts.separate)
            .map_err(|e| Refusal::new("redesign-priced", e))?;
        if new == Slot::Role(Role::King) {
            return Err(Refusal::new(
                "king-design-fixed",
                "a second King's design would make another royal design; write the design `WF` for a non-royal piece that moves as a King",
            ));
        }
        new.price(self.opts.separate)
            .map_err(|e| Refusal::new("redesign-priced", format!("`{to}` has no price: {e}")))?;
        Ok((slot as u8, new))
    }

    fn reserve_text(&self, c: Color, sep: &str) -> String {
        let r = &self.reserve[c.index()];
        if r.is_empty() {
            return "-".into();
        }
        r.iter()
            .map(|k| k.piece_name())
            .collect::<Vec<_>>()
            .join(sep)
    }

    fn designs_text(&self, c: Color, sep: &str) -> String {
        self.designs[c.index()]
            .iter()
            .map(|s| s.design_name())
            .collect::<Vec<_>>()
            .join(sep)
    }

    /// Builds and validates a position from its parts.
    fn build(
        board: Board,
        turn: Color,
        treasury: [u32; 2],
        reserve: [Vec<Slot>; 2],
        designs: [[Slot; 6]; 2],
        options: &Options,
    ) -> Result<Csipgs, SetupError> {
        let g = *board.geometry();
        INFO.check_board(g.files, g.ranks)?;
        for c in Color::ALL {
            if !board.pieces().any(|(_, p)| p == Piece::new(c, Role::King)) {
                return Err(SetupError::new(
                    Kind::Kings,
                    format!("{c} has no king; each side needs at least one"),
                ));
            }
            for (sq, p) in board.pieces().filter(|(_, p)| p.color() == c) {
                if !INFO.pieces.contains(&p.role()) && p.design().is_none() {
                    return Err(SetupError::new(
                        Kind::Piece,
                        format!(
                            "the {} on {} is not a csipgs piece",
                            p.role().word(),
                            g.square_name(sq)
                        ),
                    ));
                }
            }
            let kings = designs[c.index()]
                .iter()
                .filter(|s| **s == Slot::Role(Role::King))
                .count();
            if kings != 1 {
                return Err(SetupError::key(format!(
                    "{c}'s designs must include the King's design K exactly once (rule king-design-fixed)"
                )));
            }
            for s in designs[c.index()] {
                s.price(Opts::read(options).separate).map_err(|e| {
                    SetupError::key(format!("{c}'s design {} has no price: {e}", s.name()))
                })?;
            }
            if treasury[c.index()] > MAX_TREASURY {
                return Err(SetupError::key(format!(
                    "{c}'s treasury {} is larger than {MAX_TREASURY}",
                    treasury[c.index()]
                )));
            }
        }
        let pos = Csipgs {
            board,
            turn,
            treasury,
            reserve,
            designs,
            opts: Opts::read(options),
        };
        for c in Color::ALL {
            if pos.piece_count(c) > MAX_PIECES {
                return Err(SetupError::new(
                    Kind::Placement,
                    format!(
                        "{c} has {} pieces on the board and in reserve; at most {MAX_PIECES}",
                        pos.piece_count(c)
                    ),
                ));
            }
        }
        let them = turn.other();
        if let [k] = pos.kings(them)[..] {
            if pos.attacked(k, turn).is_some() {
                return Err(SetupError::new(
                    Kind::OppositeCheck,
                    format!("{them} is in check, but it is {turn}'s turn"),
                ));
            }
        }
        Ok(pos)
    }

    /// Whether one of `moves` leaves one of the mover's Kings unattacked.
    fn saves_a_king(&self, moves: &[Move]) -> bool {
        let us = self.turn;
        moves.iter().any(|&m| {
            let mut next = self.clone();
            next.apply(m);
            next.kings(us)
                .into_iter()
                .any(|k| next.attacked(k, us.other()).is_none())
        })
    }
}

fn win(color: Color, reason: Reason, rule: &'static str) -> Outcome {
    Outcome {
        winner: Some(color),
        reason,
        rule,
    }
}

fn parse_treasury(text: &str) -> Result<u32, String> {
    super::chess::parse_counter(text, "treasury", 0..=MAX_TREASURY)
}

fn parse_reserve(text: &str, separate: Reading<bool>) -> Result<Vec<Slot>, String> {
    let mut out = Vec::new();
    if text != "-" {
        let mut rest = text.trim();
        while !rest.is_empty() {
            let (token, tail) = if rest.starts_with('(') {
                let mut depth = 0;
                let end = rest
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '(' => 1,
                            ')' => -1,
                            _ => 0,
                        };
                        depth == 0
                    })
                    .map(|(i, _)| i + 1)
                    .ok_or_else(|| format!("unbalanced design in the reserve {}", quoted(text)))?;
                rest.split_at(end)
            } else {
                rest.split_at(rest.chars().next().map_or(0, char::len_utf8))
            };
            rest = tail.trim_start();
            let token = token.trim();
            let kind = match token {
                "K" | "Q" | "R" | "B" | "N" | "P" => {
                    Slot::Role(Role::from_letter(token.chars().next().unwrap_or('?')).unwrap_or(Role::Pawn))
                }
                t if t.starts_with('(') => Slot::parse_read(t, separate)?,
                t => {
                    return Err(format!(
                        "{} is not a reserve piece: write K Q R B N P or a design in parentheses, `(WD)`",
                        quoted(t)
                    ))
                }
            };
            out.push(kind);
        }
    }
    out.sort_by_key(|k| k.order());
    Ok(out)
}

fn parse_designs(text: &str, sep: char, separate: Reading<bool>) -> Result<[Slot; 6], String> {
    let parts: Vec<&str> = text
        .split(sep)
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() != 6 {
        return Err(format!(
            "a player has exactly six designs; {} names {}",
            quoted(text),
            parts.len()
        ));
    }
    let mut out = STANDARD;
    for (i, p) in parts.iter().enumerate() {
        out[i] = Slot::parse_read(p, separate)?;
    }
    Ok(out)
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Rules for Csipgs {
    type Move = Move;
    fn info() -> &'static VariantInfo {
        &INFO
    }

    fn rules() -> &'static [RuleDef] {
        RULES
    }

    fn options() -> &'static [OptionDef] {
        OPTIONS
    }

    fn state_keys() -> &'static [KeyDef] {
        STATE_KEYS
    }

    fn invariants() -> &'static [InvariantDef] {
        INVARIANTS
    }

    fn geometry_for(size: Option<(u8, u8)>) -> Result<Geometry, SetupError> {
        if let Some((files, ranks)) = size {
            INFO.check_board(files, ranks)?;
        }
        Ok(Self::geometry())
    }

    fn start(_geometry: Geometry, options: &Options) -> Result<Self, SetupError> {
        Self::from_fen(Self::geometry(), START_FEN, options)
    }

    fn from_setup(setup: &Setup, options: &Options) -> Result<Self, SetupError> {
        let mut treasury = [0u32; 2];
        let mut reserve = [Vec::new(), Vec::new()];
        let mut designs = [STANDARD; 2];
        let separate = Opts::read(options).separate;
        for ((key, color), value) in &setup.keys {
            match (key.as_str(), color) {
                ("treasury", Some(c)) => {
                    treasury[c.index()] = parse_treasury(value).map_err(SetupError::key)?
                }
                ("reserve", Some(c)) => {
                    reserve[c.index()] = parse_reserve(value, separate).map_err(SetupError::key)?
                }
                ("designs", Some(c)) => {
                    designs[c.index()] =
                        parse_designs(value, ' ', separate).map_err(SetupError::key)?
                }
                ("treasury" | "reserve" | "designs", None) => {
                    return Err(SetupError::key(format!(
                        "the state key `{key}` needs a colour: `{key} white`"
                    )))
                }
                ("fen", _) => {
                    return Err(SetupError::key(
                        "the state key `fen` is read-only; give the position as a FEN instead",
                    ))
                }
                _ => {
                    let names: Vec<_> = STATE_KEYS.iter().map(|k| k.name).collect();
                    return Err(SetupError::key(format!(
                        "csipgs has no state key `{key}`; keys: {}",
                        names.join(", ")
                    )));
                }
            }
        }
        Self::build(
            setup.board.clone(),
            setup.turn,
            treasury,
            reserve,
            designs,
            options,
        )
    }

    fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(Self::geometry());
        setup.board = self.board.clone();
        setup.turn = self.turn;
        for c in Color::ALL {
            setup.keys.insert(
                ("treasury".into(), Some(c)),
                self.treasury[c.index()].to_string(),
            );
            setup
                .keys
                .insert(("reserve".into(), Some(c)), self.reserve_text(c, " "));
            setup
                .keys
                .insert(("designs".into(), Some(c)), self.designs_text(c, " "));
        }
        setup
    }

    fn from_fen(geometry: Geometry, fen: &str, options: &Options) -> Result<Self, SetupError> {
        INFO.check_board(geometry.files, geometry.ranks)?;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 2 && fields.len() != 5 {
            return Err(SetupError::fen(format!(
                "a csipgs FEN has 5 fields (placement, side, treasuries, reserves, designs) or the first 2; this one has {}",
                fields.len()
            )));
        }
        let board =
            Board::from_fen_placement(Self::geometry(), fields[0]).map_err(SetupError::fen)?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            t => {
                return Err(SetupError::fen(format!(
                    "the side to move {} is neither w nor b",
                    quoted(t)
                )))
            }
        };
        let pair = |field: &str, what: &str| -> Result<(String, String), SetupError> {
            field
                .split_once('/')
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .ok_or_else(|| {
                    SetupError::fen(format!(
                        "the {what} field {} is `<white>/<black>`",
                        quoted(field)
                    ))
                })
        };
        let (mut treasury, mut reserve, mut designs) =
            ([0u32; 2], [Vec::new(), Vec::new()], [STANDARD; 2]);
        if fields.len() == 5 {
            let separate = Opts::read(options).separate;
            let (w, b) = pair(fields[2], "treasuries")?;
            treasury = [
                parse_treasury(&w).map_err(SetupError::fen)?,
                parse_treasury(&b).map_err(SetupError::fen)?,
            ];
            let (w, b) = pair(fields[3], "reserves")?;
            reserve = [
                parse_reserve(&w, separate).map_err(SetupError::fen)?,
                parse_reserve(&b, separate).map_err(SetupError::fen)?,
            ];
            let (w, b) = pair(fields[4], "designs")?;
            designs = [
                parse_designs(&w, ',', separate).map_err(SetupError::fen)?,
                parse_designs(&b, ',', separate).map_err(SetupError::fen)?,
            ];
        }
        Self::build(board, turn, treasury, reserve, designs, options)
    }

    fn fen(&self) -> String {
        format!(
            "{} {} {}/{} {}/{} {}/{}",
            self.board.fen_placement(),
            if self.turn == Color::White { "w" } else { "b" },
            self.treasury[0],
            self.treasury[1],
            self.reserve_text(Color::White, ""),
            self.reserve_text(Color::Black, ""),
            self.designs_text(Color::White, ","),
            self.designs_text(Color::Black, ",")
        )
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.legal_into(out, true);
    }

    fn play(&mut self, m: Move) {
        self.apply(m);
    }

    fn describe(&self, m: Move) -> Turn {
        let first = match m.act {
            Act::Step { from, to } => {
                let p = self.board.piece_at(Sq(from));
                Action::Move {
                    role: p.map_or(Role::Pawn, Piece::role),
                    design: p.and_then(Piece::design),
                    from: square(from),
                    legs: vec![Leg::onto(square(to), self.board.piece_at(Sq(to)))],
                    promotion: None,
                    castle: None,
                }
            }
            Act::Drop { kind, to } => {
                let p = kind.piece(self.turn);
                Action::Drop {
                    role: p.role(),
                    design: p.design(),
                    to: square(to),
                }
            }
            Act::Buy { slot } => Action::Buy {
                design: self.designs[self.turn.index()][slot as usize].name(),
            },
        };
        let mut actions = vec![first];
        if let Some((slot, new)) = m.redesign {
            actions.push(Action::Redesign {
                from_design: self.designs[self.turn.index()][slot as usize].name(),
                to_design: new.name(),
            });
        }
        Turn { actions }
    }

    fn in_check(&self) -> Option<bool> {
        Some(self.in_check_any(self.turn))
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        self.outcome_with(!moves.is_empty())
    }

    /// `has_legal_turn` as [`Rules::legal_moves`] lists them: none once all Kings are mated.
    fn outcome_with(&self, has_legal_turn: bool) -> Option<Outcome> {
        if has_legal_turn {
            return None;
        }
        let them = self.turn.other();
        if !self.in_check_any(self.turn) {
            return Some(win(them, Reason::Stalemate, "stalemate-loses"));
        }
        // Candidates the move list dropped: every King attacked and none saved (7).
        let mut candidates = Vec::new();
        self.explore(&mut candidates);
        Some(if candidates.is_empty() {
            win(them, Reason::Checkmate, "checkmate")
        } else {
            win(them, Reason::Checkmate, "all-kings-mated")
        })
    }

    fn explain_legal(&self, m: Move) -> Vec<crate::rules::explain::Step> {
        explain::legal(self, m)
    }

    fn explain_refused(&self, pattern: &TurnPattern) -> Vec<crate::rules::explain::Step> {
        explain::refused(self, pattern)
    }

    fn refusal(&self, pattern: &TurnPattern) -> Refusal {
        refuse::refusal(self, pattern)
    }

    /// The action resolves among the legal turns; a design change after it is checked on its
    /// own (design changes are unbounded, so they are not enumerated).
    fn resolve_in(
        &self,
        pattern: &TurnPattern,
        legal: &LegalTurns<Move>,
    ) -> Result<Vec<Named<Move>>, Refusal> {
        let TurnPattern::Actions { actions, claim } = pattern else {
            return Err(self.refusal(pattern));
        };
        let (first, change) = match &actions[..] {
            [a] => (a, None),
            [a, ActionPattern::Redesign {
                from_design,
                to_design,
            }] => (a, Some((from_design, to_design))),
            _ => return Err(self.refusal(pattern)),
        };
        // A purchase names its design as written; compare canonical names.
        let first = match first {
            ActionPattern::Buy { design } => ActionPattern::Buy {
                design: Slot::parse_read(design, self.opts.separate)
                    .map_or_else(|_| design.clone(), Slot::name),
            },
            a => a.clone(),
        };
        let single = TurnPattern::Actions {
            actions: vec![first],
            claim: *claim,
        };
        let mut found: Vec<Named<Move>> = legal
            .resolve(&single)
            .into_iter()
            .map(|i| Named::listed(legal, i))
            .collect();
        if found.is_empty() {
            return match change {
                None => Ok(found),
                Some(_) => Err(self.refusal(&single)),
            };
        }
        // The turn keeps the designs as written (`buy WW` is the purchase of an R): one design
        // has several spellings, and the turn played is the one the player wrote.
        if let ActionPattern::Buy { design } = &actions[0] {
            for n in &mut found {
                n.turn.actions[0] = Action::Buy {
                    design: design.clone(),
                };
            }
        }
        let Some((from, to)) = change else {
            return Ok(found);
        };
        let redesign = self.redesign(from, to)?;
        Ok(found
            .into_iter()
            .map(|n| {
                let mut actions = n.turn.actions;
                actions.push(Action::Redesign {
                    from_design: from.clone(),
                    to_design: to.clone(),
                });
                Named {
                    m: Move {
                        redesign: Some(redesign),
                        ..n.m
                    },
                    turn: Turn { actions },
                    listed: None,
                }
            })
            .collect())
    }

    fn repetition_key(&self) -> u64 {
        let mut h = KeyHasher::default();
        for (sq, p) in self.board.pieces() {
            h.write_u16(Sq::of(sq).0);
            h.write_u8(p.code());
        }
        h.write_u8(self.turn as u8);
        for c in Color::ALL {
            h.write_u32(self.treasury[c.index()]);
            h.write(self.reserve_text(c, "").as_bytes());
            h.write(self.designs_text(c, ",").as_bytes());
        }
        h.finish()
    }

    /// None: every turn credits a zorkmid, so a position (treasuries included) recurs only
    /// after purchases spend exactly what was credited; the texts give no repetition rule of
    /// their own, and arbiter claims none.
    fn repetition_draw(&self, _seen: usize) -> Option<&'static str> {
        None
    }

    fn resignation_rule() -> &'static str {
        "resignation"
    }

    fn agreement_rule() -> &'static str {
        "agreement"
    }

    fn state_key(&self, key: &str, color: Option<Color>) -> String {
        let c = color.unwrap_or(Color::White);
        match key {
            "treasury" => self.treasury[c.index()].to_string(),
            "reserve" => self.reserve_text(c, " "),
            "designs" => self.designs_text(c, " "),
            "fen" => self.fen(),
            _ => String::new(),
        }
    }

    fn check_invariant(&self, name: &str) -> Result<(), String> {
        invariant(self, name)
    }

    /// As turns name designs: `K` is the King's design (royal), `WF` a piece that moves as
    /// one; every other design by its text.
    fn cost(design: &str) -> Result<u64, String> {
        Self::cost_with(design, &Options::defaults(OPTIONS))
    }

    fn cost_with(design: &str, options: &Options) -> Result<u64, String> {
        let separate = Opts::read(options).separate;
        Slot::parse_read(design, separate)?.price(separate)
    }
}

/// The start: the two Kings, nothing else (2).
pub const START_FEN: &str = "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF";

/// Each invariant read by a mechanism apart from the one that keeps it: the FEN text for the
/// treasuries, the board for the counts and the Kings.
fn invariant(pos: &Csipgs, name: &str) -> Result<(), String> {
    match name {
        "treasury-in-range" => {
            let fen = pos.fen();
            let field = fen.split_whitespace().nth(2).unwrap_or("");
            for (c, t) in Color::ALL.iter().zip(field.split('/')) {
                match t.parse::<i64>() {
                    Ok(n) if (0..=i64::from(MAX_TREASURY) + 100_000).contains(&n) => {}
                    _ => return Err(format!("{c}'s treasury reads {t}")),
                }
            }
            Ok(())
        }
        "at-most-sixteen" => {
            for c in Color::ALL {
                let on_board = pos.board.pieces().filter(|(_, p)| p.color() == c).count();
                let n = on_board + pos.reserve[c.index()].len();
                if n > MAX_PIECES {
                    return Err(format!("{c} has {n} pieces on the board and in reserve"));
                }
            }
            Ok(())
        }
        "six-designs" => {
            for c in Color::ALL {
                let text = pos.state_key("designs", Some(c));
                let names: Vec<&str> = text.split(' ').collect();
                if names.len() != 6 || names.iter().filter(|n| **n == "K").count() != 1 {
                    return Err(format!("{c}'s designs are {text}"));
                }
                for n in names {
                    let separate = pos.opts.separate;
                    if let Err(e) = Slot::parse_read(n, separate).and_then(|s| s.price(separate)) {
                        return Err(format!("{c}'s design {n} has no price: {e}"));
                    }
                }
            }
            Ok(())
        }
        "a-king-each" => {
            for c in Color::ALL {
                if !pos
                    .board
                    .pieces()
                    .any(|(_, p)| p == Piece::new(c, Role::King))
                {
                    return Err(format!("{c} has no King on the board"));
                }
            }
            Ok(())
        }
        _ => Err(format!("unknown invariant {name}")),
    }
}
