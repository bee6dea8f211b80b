//! ChessXpanse, as read from `chessxpanse-rules.txt`.
//!
//! A battle is played on one of six boards (4x5 to 7x7) with the chess pieces (no castling,
//! no double step, no en passant, no promotion) and three Magic Pieces whose moves are paths
//! ([`paths`]): the Gatekeeper leaps the next piece on a line, the Mage leaps (1,3), the
//! Archer leaps two squares, and each may ricochet off a piece of its own colour and go on.
//! There is no check: a battle is won by killing the opponent's last King, or lost by the
//! Challenge, the 10 Kill Rule, a surrender or a timeout. Gold plays as white, Blue as black.
//!
//! A Pawn that reaches its far row is reborn on its first row or vanishes; a Pawn standing on
//! its far row is dormant and is reborn (or vanishes) in place of an arriving Pawn, or when a
//! piece of its side leaves a first-row square. Forward, far row and first row follow each
//! side's pawn direction (Ghost Mode).
//!
//! # FEN dialect
//!
//! `<placement> <side> [<passes> <moves-without-kill> <challenge-moves> <pawn-directions>]`,
//! each of the last four `<white>/<black>`: `0/1 3/0 -/0 up/down` (a challenge is `-` when the
//! side is not challenged). [`Rules::fen`] prints all six fields; the first two alone give
//! the defaults (no passes, no moves counted, White's pawns up and Black's down). The war
//! (`war-length`, `battles-won`, `timeouts`) is not part of a battle's position and is set by
//! state keys only.

mod catalogue;
mod explain;
#[cfg(test)]
mod invariant_tests;
mod invariants;
#[cfg(test)]
mod oracle;
pub(crate) mod paths;
#[cfg(test)]
mod refusal_agreement;
mod refuse;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::hash::Hasher;

use super::board::{cell::WALL, delta, Board, Geometry, Sq, Square};
use super::chess::{first_time, quoted};
use super::consulted::Reading;
use super::key::KeyHasher;
use super::movement::{self, walk, Landing};
use super::piece::{Color, Piece, Role};
use super::refusal::{Rejection, Stage, Verdicts};
use super::resolve::{LegalTurns, Named};
use super::setup_error::{SetupError, SetupErrorKind as Kind};
use super::turn::{Action, Leg, LegKind, Turn, TurnPattern};
use super::variants::VariantInfo;
use super::{
    InvariantDef, KeyDef, OptionDef, Options, Outcome, Reason, Refusal, RuleDef, Rules, Setup,
};

pub use catalogue::{INVARIANTS, OPTIONS, RULES, STATE_KEYS};

/// ChessXpanse in the registry of variants.
pub const INFO: VariantInfo = VariantInfo {
    name: "xpanse",
    game: "ChessXpanse: six boards, Gatekeeper, Mage and Archer, no check",
    boards: &[(4, 5), (5, 5), (5, 6), (6, 6), (6, 7), (7, 7)],
    pieces: &[
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
        Role::Gatekeeper,
        Role::Mage,
        Role::Archer,
    ],
    designs: false,
    invented: false,
    zones: &[],
    check: false,
    reasons: &[
        Reason::Extinction,
        Reason::Challenge,
        Reason::KillRule,
        Reason::Resignation,
        Reason::Timeout,
        Reason::NoMove,
    ],
    interpreted: true,
};

/// The most of each piece a side may have (Nine Pieces), and at least one King.
pub const LIMITS: [(Role, u8); 9] = [
    (Role::King, 3),
    (Role::Queen, 3),
    (Role::Rook, 4),
    (Role::Bishop, 5),
    (Role::Knight, 5),
    (Role::Pawn, 3),
    (Role::Gatekeeper, 1),
    (Role::Mage, 1),
    (Role::Archer, 1),
];

/// Passes allowed per battle.
pub const MAX_PASSES: u8 = 2;
/// Moves without a kill that lose the battle.
pub const KILL_RULE: u8 = 10;
/// Turns a challenged side has to kill the last King.
pub const CHALLENGE_TURNS: u8 = 2;
/// The lengths a war may have (1: a single battle).
pub const WAR_LENGTHS: [u8; 6] = [1, 3, 5, 7, 9, 11];

/// The most legs a path can have: every leg stops on a square not stopped on before, and the
/// largest board has 49.
pub const MAX_LEGS: usize = 48;

/// What a leg does where it ends, as [`Move`] stores it.
pub mod leg {
    use crate::rules::turn::LegKind;

    pub const STEP: u8 = 0;
    pub const KILL: u8 = 1;
    pub const RICOCHET: u8 = 2;
    pub const SWITCH: u8 = 3;

    /// The kind a stored leg is, its kill's victim left open.
    pub fn kind(code: u8) -> LegKind {
        match code {
            KILL => LegKind::Kill(None),
            RICOCHET => LegKind::Ricochet,
            SWITCH => LegKind::Switch,
            _ => LegKind::Step,
        }
    }
}

/// What follows a move that brings a Pawn's rebirth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Follow {
    None,
    /// The Pawn on `pawn` is reborn on `to`; `named` when the turn must say which Pawn (the
    /// side has several dormant ones).
    Reborn {
        pawn: u16,
        to: u16,
        named: bool,
    },
    /// The Pawn on `pawn` vanishes.
    Vanish {
        pawn: u16,
        named: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Path,
    /// One of the two passes of a battle.
    Pass,
    /// The turn handed back by a side with no legal move and no pass left (option
    /// `no-legal-move = passes`); it uses no pass.
    FreePass,
}

/// A ChessXpanse turn: a move along its legs (one for the chess pieces), with what follows
/// it, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub kind: MoveKind,
    pub from: u16,
    n: u8,
    legs: [u16; MAX_LEGS],
    kinds: [u8; MAX_LEGS],
    pub follow: Follow,
}

impl Move {
    fn path(from: Sq) -> Move {
        Move {
            kind: MoveKind::Path,
            from: from.0,
            n: 0,
            legs: [0; MAX_LEGS],
            kinds: [0; MAX_LEGS],
            follow: Follow::None,
        }
    }

    fn pass(kind: MoveKind) -> Move {
        Move {
            kind,
            ..Move::path(Sq(0))
        }
    }

    fn with_leg(mut self, to: Sq, kind: u8) -> Move {
        self.legs[self.n as usize] = to.0;
        self.kinds[self.n as usize] = kind;
        self.n += 1;
        self
    }

    /// The legs: the square each ends on and what happens there ([`leg`]).
    pub fn legs(&self) -> impl Iterator<Item = (Sq, u8)> + '_ {
        (0..self.n as usize).map(|i| (Sq(self.legs[i]), self.kinds[i]))
    }

    /// Where the moving piece stays.
    pub fn destination(&self) -> Option<Sq> {
        (self.n > 0).then(|| Sq(self.legs[self.n as usize - 1]))
    }

    pub fn kills(&self) -> bool {
        self.legs().any(|(_, k)| k == leg::KILL)
    }

    /// What the turn leaves on the board, as far as the move decides it: its kind, where it
    /// starts and ends, the squares it kills on, and what follows it. Two paths with one key
    /// leave the same position (ricochets and switches change nothing).
    fn board_key(&self) -> (MoveKind, u16, Option<Sq>, Vec<u16>, Follow) {
        let mut kills: Vec<u16> = self
            .legs()
            .filter(|&(_, k)| k == leg::KILL)
            .map(|(s, _)| s.0)
            .collect();
        kills.sort_unstable();
        (self.kind, self.from, self.destination(), kills, self.follow)
    }
}

/// Whether a kill lets the Archer go on (option `archer-kill-continues`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum KillGoesOn {
    AfterRicochet,
    Always,
    Never,
}

/// The readings in force; each use records that the option was consulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Opts {
    gatekeeper_all_lines: Reading<bool>,
    gatekeeper_next_piece: Reading<bool>,
    ricochet_from_before: Reading<bool>,
    archer_kill: Reading<KillGoesOn>,
    switch_orthogonal: Reading<bool>,
    kill_rule_from_start: Reading<bool>,
    pass_counts: Reading<bool>,
    no_move_passes: Reading<bool>,
    last_king_ends_move: Reading<bool>,
    dormant_on_kill: Reading<bool>,
    switch_from_leg_start: Reading<bool>,
    one_turn_per_board: Reading<bool>,
    nearest_dormant: Reading<bool>,
}

impl Opts {
    fn read(o: &Options) -> Opts {
        Opts {
            gatekeeper_all_lines: o.reading("gatekeeper-lines", |v| v == "all"),
            gatekeeper_next_piece: o.reading("gatekeeper-landing", |v| v == "next-piece"),
            ricochet_from_before: o.reading("ricochet-from", |v| v == "before"),
            archer_kill: o.reading("archer-kill-continues", |v| match v {
                "always" => KillGoesOn::Always,
                "never" => KillGoesOn::Never,
                _ => KillGoesOn::AfterRicochet,
            }),
            switch_orthogonal: o.reading("switch-reach", |v| v == "orthogonal"),
            kill_rule_from_start: o.reading("kill-rule-count", |v| v == "from-start"),
            pass_counts: o.reading("pass-counts", |v| v == "yes"),
            no_move_passes: o.reading("no-legal-move", |v| v == "passes"),
            last_king_ends_move: o.reading("last-king-kill", |v| v == "ends-move"),
            dormant_on_kill: o.reading("dormant-on-kill", |v| v == "yes"),
            switch_from_leg_start: o.reading("switch-from", |v| v == "leg-start"),
            one_turn_per_board: o.reading("same-board-paths", |v| v == "one-turn"),
            nearest_dormant: o.reading("dormant-choice", |v| v == "nearest"),
        }
    }
}

/// What the last turn changed, for the invariants that judge a turn: the piece that moved
/// and how many pieces of each kind each side had before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Last {
    pub mover: Option<Piece>,
    pub before: Counts,
}

/// Pieces per side and role code.
pub(crate) type Counts = [[u8; 12]; 2];

/// A ChessXpanse battle position, with the war it belongs to.
#[derive(Clone, Debug)]
pub struct Xpanse {
    board: Board,
    turn: Color,
    /// The counters of the battle and the war.
    state: State,
    /// The battle's result, once decided.
    result: Option<Outcome>,
    /// Pawns on each side's far row when the position was set up (the dormant Pawns).
    dormant_at_setup: [u8; 2],
    last: Option<Last>,
    opts: Opts,
}

fn win(c: Color, reason: Reason, rule: &'static str) -> Outcome {
    Outcome {
        winner: Some(c),
        reason,
        rule,
    }
}

/// Counts pieces per side and role from the board.
pub(crate) fn counts(board: &Board) -> Counts {
    let mut n = [[0u8; 12]; 2];
    for (_, p) in board.pieces() {
        let r = (p.role().code() as usize).min(11);
        n[p.color().index()][r] = n[p.color().index()][r].saturating_add(1);
    }
    n
}

impl Xpanse {
    pub fn geometry(&self) -> &Geometry {
        self.board.geometry()
    }

    fn name(&self, s: Sq) -> String {
        self.geometry().square_name(s.square())
    }

    /// The rank a side's pawns move toward, and the one they are reborn on.
    fn far_rank(&self, c: Color) -> u8 {
        if self.state.up[c.index()] {
            self.geometry().ranks - 1
        } else {
            0
        }
    }

    fn first_rank(&self, c: Color) -> u8 {
        if self.state.up[c.index()] {
            0
        } else {
            self.geometry().ranks - 1
        }
    }

    fn forward(&self, c: Color) -> i32 {
        if self.state.up[c.index()] {
            delta(0, 1)
        } else {
            delta(0, -1)
        }
    }

    fn has_king(&self, c: Color) -> bool {
        self.board
            .pieces()
            .any(|(_, p)| p == Piece::new(c, Role::King))
    }

    fn piece_count(&self, c: Color) -> usize {
        self.board.pieces().filter(|(_, p)| p.color() == c).count()
    }

    /// A side's dormant Pawns: its Pawns on its far row, in board order.
    fn dormant(board: &Board, c: Color, far: u8) -> Vec<Sq> {
        board
            .pieces()
            .filter(|(s, p)| *p == Piece::new(c, Role::Pawn) && s.rank == far)
            .map(|(s, _)| Sq::of(s))
            .collect()
    }

    /// Sends every legal turn to `out`, and, for a sink that wants them, the candidates of
    /// the chess pieces with the rule that rejects each. The Magic Pieces' refusals are read
    /// leg by leg from [`paths::next_legs`], the function their generator follows.
    pub(crate) fn explore<V: Verdicts<Move>>(&self, out: &mut V) {
        if self.result.is_some() {
            return;
        }
        let us = self.turn;
        let mut sink = Counting { inner: out, n: 0 };
        let own: Vec<(Square, Piece)> = self
            .board
            .pieces()
            .filter(|(_, p)| p.color() == us)
            .collect();
        for (from, piece) in own {
            if sink.full() {
                return;
            }
            let f = Sq::of(from);
            match piece.role() {
                Role::Pawn => self.pawn_moves(f, &mut sink),
                Role::Gatekeeper | Role::Mage | Role::Archer => {
                    paths::explore(self, f, piece.role(), &mut sink)
                }
                role => {
                    #[cfg(test)]
                    if role == Role::King && BREAK_KING_STEPS.with(|b| b.get()) {
                        continue;
                    }
                    let Some(movement) = movement::orthodox(role) else {
                        continue;
                    };
                    let mut reached = 0u64;
                    walk(movement, &self.board, f, us, V::REJECTED, |t, landing| {
                        let m = Move::path(f);
                        match landing {
                            Landing::Blocked { by } => sink.rejected(
                                m.with_leg(t, leg::STEP),
                                Rejection::at("blocked", Stage::Blocked, by.square()),
                            ),
                            Landing::Piece { code, .. } if code & 1 == us as u8 => {
                                if V::REJECTED {
                                    sink.rejected(
                                        m.with_leg(t, leg::STEP),
                                        Rejection::new("own-piece-on-target", Stage::Target),
                                    )
                                }
                            }
                            Landing::Piece { .. } => {
                                if first_time(&mut reached, t) {
                                    self.finish(m.with_leg(t, leg::KILL), &mut sink)
                                }
                            }
                            Landing::Empty { .. } => {
                                if first_time(&mut reached, t) {
                                    self.finish(m.with_leg(t, leg::STEP), &mut sink)
                                }
                            }
                        }
                    });
                }
            }
        }
        if self.state.passes[us.index()] < MAX_PASSES {
            sink.legal(Move::pass(MoveKind::Pass));
        } else {
            if V::REJECTED {
                sink.rejected(
                    Move::pass(MoveKind::Pass),
                    Rejection::new("pass", Stage::Target),
                );
            }
            if sink.n == 0 && self.opts.no_move_passes.get() {
                sink.legal(Move::pass(MoveKind::FreePass));
            }
        }
    }

    fn pawn_moves<V: Verdicts<Move>>(&self, f: Sq, out: &mut V) {
        let us = self.turn;
        if f.square().rank == self.far_rank(us) {
            // A dormant pawn cannot move on its own.
            return;
        }
        let fwd = self.forward(us);
        let t = f.offset(fwd);
        let m = Move::path(f);
        match self.board.piece_at(t) {
            None if self.board.cell(t) != WALL => self.finish(m.with_leg(t, leg::STEP), out),
            Some(_) if V::REJECTED => out.rejected(
                m.with_leg(t, leg::KILL),
                Rejection::at("pawn-move", Stage::Target, t.square()),
            ),
            _ => {}
        }
        for side in [delta(1, 0), delta(-1, 0)] {
            let t = f.offset(fwd + side);
            if self.board.cell(t) == WALL {
                continue;
            }
            match self.board.piece_at(t) {
                Some(p) if p.color() != us => self.finish(m.with_leg(t, leg::KILL), out),
                Some(_) if V::REJECTED => out.rejected(
                    m.with_leg(t, leg::KILL),
                    Rejection::new("own-piece-on-target", Stage::Target),
                ),
                None if V::REJECTED => out.rejected(
                    m.with_leg(t, leg::STEP),
                    Rejection::new("pawn-move", Stage::Target),
                ),
                _ => {}
            }
        }
    }

    /// The board after a move's legs, before what follows it.
    fn board_after(&self, m: &Move) -> Board {
        let mut b = self.board.clone();
        let mover = b.piece_at(Sq(m.from));
        b.set(Sq(m.from), None);
        for (s, k) in m.legs() {
            if k == leg::KILL {
                b.set(s, None);
            }
        }
        if let Some(d) = m.destination() {
            b.set(d, mover);
        }
        b
    }

    /// A complete move: legal as it is, or once for each rebirth or vanishing it brings
    /// (Pawn Reborn Rules).
    pub(crate) fn finish<V: Verdicts<Move>>(&self, m: Move, out: &mut V) {
        let us = self.turn;
        let Some(dest) = m.destination() else {
            return out.legal(m);
        };
        let mover = self.board.piece_at(Sq(m.from));
        let arrival =
            mover.map(Piece::role) == Some(Role::Pawn) && dest.square().rank == self.far_rank(us);
        let vacate = Sq(m.from).square().rank == self.first_rank(us);
        if !arrival && !vacate {
            return out.legal(m);
        }
        let after = self.board_after(&m);
        let far = self.far_rank(us);
        let mut dormant: Vec<Sq> = Self::dormant(&after, us, far)
            .into_iter()
            .filter(|s| !arrival || *s != dest)
            .collect();
        // "If another Pawn reaches an empty space in the far row": one that arrives by a kill
        // may leave the dormant Pawns be (option dormant-on-kill).
        if arrival && !dormant.is_empty() && m.kills() && !self.opts.dormant_on_kill.get() {
            dormant.clear();
        }
        // With several dormant Pawns, the player's choice or the nearest by file to where the
        // rule is enacted (option dormant-choice).
        if dormant.len() > 1 && self.opts.nearest_dormant.get() {
            let file = if arrival { dest } else { Sq(m.from) }.square().file;
            let away = |s: &Sq| s.square().file.abs_diff(file);
            let nearest = dormant.iter().map(away).min();
            dormant.retain(|s| Some(away(s)) == nearest);
        }
        // The pawn concerned: a dormant one (named when there are several), or else the
        // arriving pawn itself.
        let named = dormant.len() > 1;
        let concerned = match (dormant.is_empty(), arrival) {
            (false, _) => dormant,
            (true, true) => vec![dest],
            (true, false) => return out.legal(m),
        };
        let targets: Vec<Sq> = if arrival {
            let first = self.first_rank(us);
            (0..self.geometry().files)
                .map(|f| Sq::of(Square::new(f, first)))
                .filter(|s| after.piece_at(*s).is_none())
                .collect()
        } else {
            vec![Sq(m.from)]
        };
        for d in concerned {
            for &to in &targets {
                out.legal(Move {
                    follow: Follow::Reborn {
                        pawn: d.0,
                        to: to.0,
                        named,
                    },
                    ..m
                });
            }
            out.legal(Move {
                follow: Follow::Vanish { pawn: d.0, named },
                ..m
            });
        }
    }

    fn apply(&mut self, m: Move) {
        let us = self.turn;
        let them = us.other();
        let i = us.index();
        let before = counts(&self.board);
        let mover = self.board.piece_at(Sq(m.from));
        let counted = match m.kind {
            MoveKind::Path => {
                self.board = self.board_after(&m);
                match m.follow {
                    Follow::None => {}
                    Follow::Reborn { pawn, to, .. } => {
                        let p = self.board.piece_at(Sq(pawn));
                        self.board.set(Sq(pawn), None);
                        self.board.set(Sq(to), p);
                    }
                    Follow::Vanish { pawn, .. } => self.board.set(Sq(pawn), None),
                }
                true
            }
            MoveKind::Pass => {
                self.state.passes[i] += 1;
                self.opts.pass_counts.get()
            }
            MoveKind::FreePass => self.opts.pass_counts.get(),
        };
        if m.kills() {
            if !self.opts.kill_rule_from_start.get() {
                self.state.without_kill[i] = 0;
            }
        } else if counted {
            self.state.without_kill[i] = self.state.without_kill[i].saturating_add(1);
        }
        self.state.timeouts[i] = 0;
        if let Some(n) = &mut self.state.challenge[i] {
            *n += 1;
        }
        self.turn = them;
        self.result = self.decided();
        for c in Color::ALL {
            if self.state.challenge[c.index()].is_none() && self.piece_count(c) <= 2 {
                self.state.challenge[c.index()] = Some(0);
            }
        }
        self.last = Some(Last {
            mover: if m.kind == MoveKind::Path {
                mover
            } else {
                None
            },
            before,
        });
    }

    /// What the last move decided, read from the position: the opponent's last King killed,
    /// the mover's tenth move without a kill, or the mover's second turn under challenge.
    fn decided(&self) -> Option<Outcome> {
        let (mover, to_move) = (self.turn.other(), self.turn);
        let i = mover.index();
        if !self.has_king(to_move) {
            Some(win(mover, Reason::Extinction, "extinction"))
        } else if self.state.without_kill[i] >= KILL_RULE {
            Some(win(to_move, Reason::KillRule, "kill-rule"))
        } else if self.state.challenge[i] >= Some(CHALLENGE_TURNS) {
            Some(win(to_move, Reason::Challenge, "challenge"))
        } else {
            None
        }
    }

    /// The battle's result by itself, or the result of the war: who has won it, if anyone.
    fn war_winner(&self) -> Option<(Color, &'static str)> {
        for c in Color::ALL {
            if self.state.timeouts[c.index()] >= 2 {
                return Some((c.other(), "timeout-war"));
            }
        }
        let w = self.result.and_then(|o| o.winner)?;
        let majority = self.state.war_length / 2 + 1;
        (self.state.battles_won[w.index()] + 1 >= majority).then_some((w, "war"))
    }

    fn battles_won_now(&self, c: Color) -> u8 {
        let won_this = self.result.and_then(|o| o.winner) == Some(c);
        self.state.battles_won[c.index()] + u8::from(won_this)
    }

    /// Checks a position's parts and makes it; a position with more legal turns than one
    /// position may have ([`Rules::MAX_TURNS`]) is refused.
    fn build(
        board: Board,
        turn: Color,
        state: State,
        options: &Options,
    ) -> Result<Xpanse, SetupError> {
        let pos = Self::build_unbounded(board, turn, state, options)?;
        let mut tally = Tally(0);
        pos.explore(&mut tally);
        if tally.0 > Xpanse::MAX_TURNS {
            return Err(SetupError::new(
                Kind::Placement,
                format!(
                    "this position has more than {} legal turns (the Magic Pieces' paths multiply on a crowded board), more than arbiter lists for one position",
                    Xpanse::MAX_TURNS
                ),
            ));
        }
        Ok(pos)
    }

    /// [`Xpanse::build`] without the bound on the number of turns, for tests that bound the
    /// Magic Pieces' paths themselves before listing any.
    pub(crate) fn build_unbounded(
        board: Board,
        turn: Color,
        state: State,
        options: &Options,
    ) -> Result<Xpanse, SetupError> {
        let g = *board.geometry();
        INFO.check_board(g.files, g.ranks)?;
        let n = counts(&board);
        for c in Color::ALL {
            for (s, p) in board.pieces().filter(|(_, p)| p.color() == c) {
                if !INFO.pieces.contains(&p.role()) || p.design().is_some() {
                    return Err(SetupError::new(
                        Kind::Piece,
                        format!(
                            "the {} on {} is not a ChessXpanse piece; pieces: {}",
                            p.design()
                                .map_or_else(|| p.role().word().to_string(), |d| d.to_string()),
                            g.square_name(s),
                            INFO.letters()
                        ),
                    ));
                }
            }
            // A side to move without a King has lost its last one: the battle is over.
            if n[c.index()][Role::King.code() as usize] == 0 && c != turn {
                return Err(SetupError::new(
                    Kind::Kings,
                    format!("{c} has no king; each side needs at least one (rule piece-limits)"),
                ));
            }
            for (role, most) in LIMITS {
                let have = n[c.index()][role.code() as usize];
                if have > most {
                    return Err(SetupError::new(
                        Kind::Placement,
                        format!(
                            "{c} has {have} {}s; a side has at most {most} (rule piece-limits)",
                            role.word()
                        ),
                    ));
                }
            }
        }
        // A count at its end decides the battle on the move that reached it, so only the side
        // that moved last can have reached it.
        let i = turn.index();
        if state.without_kill[i] >= KILL_RULE || state.challenge[i] >= Some(CHALLENGE_TURNS) {
            return Err(SetupError::key(format!(
                "{turn} is to move, but its count would have ended the battle on its own last move (moves-without-kill reaches {KILL_RULE}, challenge-moves {CHALLENGE_TURNS} only for the side that moved last)"
            )));
        }
        let majority = state.war_length / 2 + 1;
        for c in Color::ALL {
            let i = c.index();
            if state.battles_won[i] >= majority {
                return Err(SetupError::key(format!(
                    "{c} has won {} battles of a war of {}: the war is already over (a majority is {majority})",
                    state.battles_won[i], state.war_length
                )));
            }
        }
        if u16::from(state.battles_won[0]) + u16::from(state.battles_won[1])
            >= u16::from(state.war_length)
        {
            return Err(SetupError::key(format!(
                "{} battles won leave no battle to play in a war of {}",
                state.battles_won[0] + state.battles_won[1],
                state.war_length
            )));
        }
        let mut pos = Xpanse {
            board,
            turn,
            state,
            result: None,
            dormant_at_setup: [0; 2],
            last: None,
            opts: Opts::read(options),
        };
        pos.result = pos.decided();
        for c in Color::ALL {
            let i = c.index();
            let count = pos.piece_count(c);
            match pos.state.challenge[i] {
                None if count <= 2 => pos.state.challenge[i] = Some(0),
                Some(_) if count > 2 => {
                    return Err(SetupError::key(format!(
                        "{c} has {count} pieces and is not challenged: the challenge begins at two (`challenge-moves {c} = -`)"
                    )))
                }
                _ => {}
            }
            pos.dormant_at_setup[i] = Self::dormant(&pos.board, c, pos.far_rank(c)).len() as u8;
        }
        Ok(pos)
    }

    fn key_text(&self, key: &str, c: Color) -> String {
        let i = c.index();
        match key {
            "passes" => self.state.passes[i].to_string(),
            "moves-without-kill" => self.state.without_kill[i].to_string(),
            "challenge-moves" => self.state.challenge[i].map_or("-".into(), |n| n.to_string()),
            "pawn-direction" => if self.state.up[i] { "up" } else { "down" }.into(),
            "timeouts" => self.state.timeouts[i].to_string(),
            "battles-won" => self.battles_won_now(c).to_string(),
            _ => String::new(),
        }
    }

    fn pair(&self, key: &str) -> String {
        format!(
            "{}/{}",
            self.key_text(key, Color::White),
            self.key_text(key, Color::Black)
        )
    }
}

#[cfg(test)]
thread_local! {
    /// Breaks the King's moves on purpose for the current test thread, so that the invariant
    /// `no-check`, which reads the generator's own output, can be shown to fail.
    pub(crate) static BREAK_KING_STEPS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// A sink that counts the legal turns it passes on.
struct Counting<'a, V> {
    inner: &'a mut V,
    n: usize,
}

impl<V: Verdicts<Move>> Verdicts<Move> for Counting<'_, V> {
    const REJECTED: bool = V::REJECTED;

    fn legal(&mut self, m: Move) {
        self.n += 1;
        self.inner.legal(m);
    }

    fn rejected(&mut self, m: Move, why: Rejection) {
        self.inner.rejected(m, why);
    }

    fn full(&self) -> bool {
        self.n > Xpanse::MAX_TURNS || self.inner.full()
    }
}

/// Counts legal turns without keeping them, up to one past [`Rules::MAX_TURNS`].
struct Tally(usize);

impl Verdicts<Move> for Tally {
    const REJECTED: bool = false;

    fn legal(&mut self, _: Move) {
        self.0 += 1;
    }

    fn full(&self) -> bool {
        self.0 > Xpanse::MAX_TURNS
    }
}

/// The counters of a battle and of the war it belongs to.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    /// Whether each side's pawns move up the board.
    up: [bool; 2],
    passes: [u8; 2],
    without_kill: [u8; 2],
    /// Turns played since the side was reduced to two pieces.
    challenge: [Option<u8>; 2],
    timeouts: [u8; 2],
    war_length: u8,
    /// Battles won before this one.
    battles_won: [u8; 2],
}

impl Default for State {
    fn default() -> State {
        State {
            up: [true, false],
            passes: [0; 2],
            without_kill: [0; 2],
            challenge: [None; 2],
            timeouts: [0; 2],
            war_length: 1,
            battles_won: [0; 2],
        }
    }
}

impl State {
    /// Reads one per-colour value of a key.
    fn set(&mut self, key: &str, c: Color, value: &str) -> Result<(), String> {
        let i = c.index();
        let number = |most: u8, what: &str| -> Result<u8, String> {
            value
                .parse::<u8>()
                .ok()
                .filter(|n| *n <= most)
                .ok_or_else(|| {
                    format!("{what} is a number from 0 to {most}, not {}", quoted(value))
                })
        };
        match key {
            "passes" => self.passes[i] = number(MAX_PASSES, "passes")?,
            "moves-without-kill" => self.without_kill[i] = number(KILL_RULE, "moves-without-kill")?,
            "challenge-moves" => {
                self.challenge[i] = match value {
                    "-" => None,
                    _ => Some(number(CHALLENGE_TURNS, "challenge-moves (or -)")?),
                }
            }
            "pawn-direction" => {
                self.up[i] = match value {
                    "up" => true,
                    "down" => false,
                    _ => {
                        return Err(format!(
                            "pawn-direction is up or down, not {}",
                            quoted(value)
                        ))
                    }
                }
            }
            "timeouts" => self.timeouts[i] = number(1, "timeouts (before this turn)")?,
            "battles-won" => self.battles_won[i] = number(5, "battles-won")?,
            _ => return Err(format!("unknown key {}", quoted(key))),
        }
        Ok(())
    }
}

fn parse_color(text: &str) -> Result<Color, SetupError> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        t => Err(SetupError::fen(format!(
            "the side to move {} is neither w nor b",
            quoted(t)
        ))),
    }
}

const PER_COLOR_FEN_KEYS: [&str; 4] = [
    "passes",
    "moves-without-kill",
    "challenge-moves",
    "pawn-direction",
];

impl Rules for Xpanse {
    type Move = Move;
    fn info() -> &'static VariantInfo {
        &INFO
    }
    /// A million turns (150 MB of moves): the most crowded boards give more, since the
    /// Archer's ricochet paths multiply (rule `path-no-revisit` bounds their length, not
    /// their number).
    const MAX_TURNS: usize = 1_000_000;

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
        let Some((files, ranks)) = size else {
            return Err(SetupError::size(format!(
                "xpanse needs a board size, as in `variant xpanse 5x6` (files x ranks); sizes: {}",
                INFO.boards_text()
            )));
        };
        INFO.check_board(files, ranks)?;
        Ok(Geometry::lettered(files, ranks))
    }

    fn start(_geometry: Geometry, _options: &Options) -> Result<Self, SetupError> {
        Err(SetupError::new(
            Kind::Placement,
            "ChessXpanse publishes no starting arrays (they vary with the board and the app's design); give the position with `board { ... }` or `fen \"...\"` in a scenario, or `--fen` on the command line",
        ))
    }

    fn from_setup(setup: &Setup, options: &Options) -> Result<Self, SetupError> {
        let mut state = State::default();
        for ((key, color), value) in &setup.keys {
            match (key.as_str(), color) {
                ("war-length", None) => {
                    state.war_length = value
                        .parse::<u8>()
                        .ok()
                        .filter(|n| WAR_LENGTHS.contains(n))
                        .ok_or_else(|| {
                            SetupError::key(format!(
                                "war-length is 1 (a single battle), 3, 5, 7, 9 or 11, not {}",
                                quoted(value)
                            ))
                        })?
                }
                ("war-winner" | "fen", _) => {
                    return Err(SetupError::key(format!(
                        "the state key `{key}` is read-only"
                    )))
                }
                (k, Some(c)) => state.set(k, *c, value).map_err(SetupError::key)?,
                (k, None) => {
                    return Err(SetupError::key(format!(
                        "the state key `{k}` needs a colour: `{k} white`"
                    )))
                }
            }
        }
        Self::build(setup.board.clone(), setup.turn, state, options)
    }

    fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(*self.geometry());
        setup.board = self.board.clone();
        setup.turn = self.turn;
        for c in Color::ALL {
            for key in PER_COLOR_FEN_KEYS.iter().chain(&["timeouts"]) {
                setup
                    .keys
                    .insert((key.to_string(), Some(c)), self.key_text(key, c));
            }
            setup.keys.insert(
                ("battles-won".into(), Some(c)),
                self.state.battles_won[c.index()].to_string(),
            );
        }
        setup.keys.insert(
            ("war-length".into(), None),
            self.state.war_length.to_string(),
        );
        setup
    }

    fn from_fen(geometry: Geometry, fen: &str, options: &Options) -> Result<Self, SetupError> {
        INFO.check_board(geometry.files, geometry.ranks)?;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 2 && fields.len() != 6 {
            return Err(SetupError::fen(format!(
                "a ChessXpanse FEN has 6 fields (placement, side, passes, moves without a kill, challenges, pawn directions) or the first 2; this one has {}",
                fields.len()
            )));
        }
        let board = Board::from_fen_placement(geometry, fields[0]).map_err(SetupError::fen)?;
        let turn = parse_color(fields[1])?;
        let mut state = State::default();
        for (key, field) in PER_COLOR_FEN_KEYS.iter().zip(fields.iter().skip(2)) {
            let (w, b) = field.split_once('/').ok_or_else(|| {
                SetupError::fen(format!(
                    "the {key} field {} is `<white>/<black>`",
                    quoted(field)
                ))
            })?;
            state.set(key, Color::White, w).map_err(SetupError::fen)?;
            state.set(key, Color::Black, b).map_err(SetupError::fen)?;
        }
        Self::build(board, turn, state, options)
    }

    fn fen(&self) -> String {
        let mut out = format!(
            "{} {}",
            self.board.fen_placement(),
            if self.turn == Color::White { "w" } else { "b" }
        );
        for key in PER_COLOR_FEN_KEYS {
            out.push(' ');
            out.push_str(&self.pair(key));
        }
        out
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.explore(out);
    }

    /// Under `same-board-paths = one-turn` a written path names the turn of the board it
    /// leaves, whichever of that board's paths it writes: the pattern is resolved among every
    /// path, as under `distinct`, and each path found stands for its board's turn in `legal`.
    fn resolve_in(
        &self,
        pattern: &TurnPattern,
        legal: &LegalTurns<Move>,
    ) -> Result<Vec<Named<Move>>, Refusal> {
        let places = if self.opts.one_turn_per_board.peek() {
            let mut every = self.clone();
            every.opts.one_turn_per_board = self.opts.one_turn_per_board.with(false);
            let paths = LegalTurns::new(every.legal_turns());
            let boards: HashMap<_, usize> = legal
                .turns()
                .iter()
                .enumerate()
                .map(|(i, (m, _))| (m.board_key(), i))
                .collect();
            let mut places: Vec<usize> = paths
                .resolve(pattern)
                .into_iter()
                .filter_map(|i| boards.get(&paths.turns()[i].0.board_key()).copied())
                .collect();
            // `legal` is sorted by canonical text, so its places sort the turns the same way.
            places.sort_unstable();
            places.dedup();
            places
        } else {
            legal.resolve(pattern)
        };
        Ok(places
            .into_iter()
            .map(|i| Named::listed(legal, i))
            .collect())
    }

    fn play(&mut self, m: Move) {
        self.apply(m);
    }

    fn describe(&self, m: Move) -> Turn {
        let square = |s: u16| Sq(s).square();
        if m.kind != MoveKind::Path {
            return Turn::single(Action::Pass);
        }
        let p = self.board.piece_at(Sq(m.from));
        let legs = m
            .legs()
            .map(|(s, k)| {
                let kind = match leg::kind(k) {
                    LegKind::Kill(_) => LegKind::Kill(self.board.piece_at(s)),
                    kind => kind,
                };
                Leg::new(s.square(), kind)
            })
            .collect();
        let mut actions = vec![Action::Move {
            role: p.map_or(Role::Pawn, Piece::role),
            design: None,
            from: square(m.from),
            legs,
            promotion: None,
            castle: None,
        }];
        match m.follow {
            Follow::None | Follow::Vanish { named: false, .. } => {}
            Follow::Reborn { pawn, to, named } => actions.push(Action::Reborn {
                from: named.then(|| square(pawn)),
                square: square(to),
            }),
            Follow::Vanish { pawn, named: true } => actions.push(Action::Vanish {
                square: square(pawn),
            }),
        }
        Turn { actions }
    }

    fn in_check(&self) -> Option<bool> {
        None
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.result.is_some() {
            return self.result;
        }
        let mut moves = Vec::new();
        self.explore(&mut moves);
        self.outcome_with(!moves.is_empty())
    }

    fn outcome_with(&self, has_legal_turn: bool) -> Option<Outcome> {
        if self.result.is_some() {
            return self.result;
        }
        (!has_legal_turn).then(|| win(self.turn.other(), Reason::NoMove, "no-legal-move"))
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

    fn repetition_key(&self) -> u64 {
        let mut h = KeyHasher::default();
        for (sq, p) in self.board.pieces() {
            h.write_u16(Sq::of(sq).0);
            h.write_u8(p.code());
        }
        h.write_u8(self.turn as u8);
        h.write(self.fen().as_bytes());
        h.finish()
    }

    /// None: there are no draws (General), and the 10 Kill Rule ends every battle that
    /// stops killing, so no position can recur forever.
    fn repetition_draw(&self, _seen: usize) -> Option<&'static str> {
        None
    }

    fn resignation_rule() -> &'static str {
        "resignation"
    }

    fn agreement_rule() -> &'static str {
        "no-draws"
    }

    fn draw_refusal() -> Option<Refusal> {
        Some(Refusal::new(
            "no-draws",
            "there are no draws in ChessXpanse: a battle ends only when a side wins it",
        ))
    }

    fn time_out(&self) -> Result<Outcome, Refusal> {
        Ok(win(self.turn.other(), Reason::Timeout, "timeout"))
    }

    fn declare(&mut self, outcome: Outcome) {
        if outcome.reason == Reason::Timeout {
            let i = self.turn.index();
            self.state.timeouts[i] = self.state.timeouts[i].saturating_add(1);
        }
        self.result = Some(outcome);
    }

    fn state_key(&self, key: &str, color: Option<Color>) -> String {
        let c = color.unwrap_or(Color::White);
        match key {
            "war-length" => self.state.war_length.to_string(),
            "war-winner" => self
                .war_winner()
                .map_or("none".into(), |(c, _)| c.to_string()),
            "fen" => self.fen(),
            k => self.key_text(k, c),
        }
    }

    fn check_invariant(&self, name: &str) -> Result<(), String> {
        invariants::check(self, name)
    }
}
