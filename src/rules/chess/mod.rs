//! Orthodox chess under the FIDE Laws of Chess.
//!
//! The position is the shared padded mailbox plus the castling rights, the en-passant square,
//! the clocks and both king squares. Move generation is fully legal: checkers and pinned pieces
//! are found once per node by walking the eight lines and the knight and pawn squares around the
//! king, so only king moves, en passant and castling need an attack test.

#[cfg(test)]
mod attack_check;
mod candidates;
pub(crate) mod explain;
pub(crate) use candidates::{first_time, takes};
mod catalogue;
#[cfg(test)]
mod invariant_tests;
#[cfg(test)]
mod refusal_agreement;
mod refuse;
#[cfg(test)]
mod tests;

use std::fmt;
use std::hash::Hasher;
#[cfg(test)]
use std::sync::OnceLock;

use crate::rules::key::KeyHasher;

use super::attacks::{DIAGONAL, KNIGHT as KNIGHT_STEPS, ORTHOGONAL, QUEEN as QUEEN_STEPS};
use super::board::{Board, Geometry, Sq, Square, CELLS, STRIDE};
use super::consulted::Reading;
#[cfg(test)]
use super::movement::AttackTable;
use super::movement::{self, Movement};
use super::piece::{Color, Piece, Role};
use super::reach::{find_king, reach, Reach};
use super::setup_error::{SetupError, SetupErrorKind as Kind};
use super::turn::{Action, CastleSide, Leg, Turn, TurnPattern};
use super::variants::VariantInfo;
use super::{
    InvariantDef, KeyDef, OptionDef, Options, Outcome, Reason, Refusal, RuleDef, Rules, Setup,
};

pub use catalogue::{INVARIANTS, OPTIONS, RULES, STATE_KEYS};

use super::board::cell::{BISHOP, EMPTY, KING, KNIGHT, PAWN, QUEEN, ROOK, WALL};

const UP: i32 = STRIDE;

// Castling rights bits.
const WK: u8 = 1;
const WQ: u8 = 2;
const BK: u8 = 4;
const BQ: u8 = 8;

const fn mb(file: i32, rank: i32) -> i32 {
    super::board::mailbox(file, rank)
}

const A1: i32 = mb(0, 0);
const E1: i32 = mb(4, 0);
const H1: i32 = mb(7, 0);
const A8: i32 = mb(0, 7);
const E8: i32 = mb(4, 7);
const H8: i32 = mb(7, 7);
/// From White's back rank to Black's.
const BACK: i32 = 7 * STRIDE;

/// Mailbox index to 0..64 (64 off the board).
static SQ64: [u8; CELLS] = {
    let mut t = [64u8; CELLS];
    let mut r = 0;
    while r < 8 {
        let mut f = 0;
        while f < 8 {
            t[mb(f, r) as usize] = (r * 8 + f) as u8;
            f += 1;
        }
        r += 1;
    }
    t
};

/// The 64 playing squares as mailbox indices.
static SQUARES: [i32; 64] = {
    let mut t = [0i32; 64];
    let mut i = 0;
    while i < 64 {
        t[i] = mb((i % 8) as i32, (i / 8) as i32);
        i += 1;
    }
    t
};

/// The rights that survive a move touching each square.
static CASTLE_KEEP: [u8; CELLS] = {
    let mut t = [15u8; CELLS];
    t[A1 as usize] = 15 & !WQ;
    t[H1 as usize] = 15 & !WK;
    t[E1 as usize] = 15 & !(WK | WQ);
    t[A8 as usize] = 15 & !BQ;
    t[H8 as usize] = 15 & !BK;
    t[E8 as usize] = 15 & !(BK | BQ);
    t
};

#[inline(always)]
fn bit(s: i32) -> u64 {
    1u64 << SQ64[s as usize]
}

#[inline(always)]
fn rank_of(s: i32) -> u8 {
    SQ64[s as usize] >> 3
}

#[inline(always)]
fn code(color: u8, role: u8) -> u8 {
    (role << 1) | color
}

const KIND_NORMAL: u8 = 0;
const KIND_DOUBLE: u8 = 1;
const KIND_EP: u8 = 2;
const KIND_CASTLE: u8 = 3;

/// A chess move: mailbox squares, a kind, and the promotion role code (0 for none).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: u16,
    to: u16,
    kind: u8,
    promo: u8,
}

impl Move {
    #[inline(always)]
    fn new(from: i32, to: i32, kind: u8) -> Move {
        Move {
            from: from as u16,
            to: to as u16,
            kind,
            promo: 0,
        }
    }

    pub fn from(self) -> Square {
        Sq(self.from).square()
    }

    pub fn to(self) -> Square {
        Sq(self.to).square()
    }

    pub fn promotion(self) -> Option<Role> {
        Role::from_code(self.promo)
    }

    pub fn is_castle(self) -> bool {
        self.kind == KIND_CASTLE
    }

    pub fn is_en_passant(self) -> bool {
        self.kind == KIND_EP
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = Geometry::lettered(8, 8);
        write!(
            f,
            "{}{}",
            g.square_name(self.from()),
            g.square_name(self.to())
        )?;
        if let Some(p) = self.promotion() {
            write!(f, "={}", p.letter())?;
        }
        Ok(())
    }
}

/// Where generated moves go: a list, or just a count.
trait Sink {
    fn push(&mut self, m: Move);
    #[inline(always)]
    fn push_promotions(&mut self, from: i32, to: i32) {
        for role in [QUEEN, ROOK, BISHOP, KNIGHT] {
            self.push(Move {
                promo: role,
                ..Move::new(from, to, KIND_NORMAL)
            });
        }
    }
}

impl Sink for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
}

struct Counter(u64);

impl super::refusal::Verdicts<Move> for Counter {
    const REJECTED: bool = false;

    fn legal(&mut self, _m: Move) {
        self.0 += 1;
    }
}

impl Sink for Counter {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_promotions(&mut self, _from: i32, _to: i32) {
        self.0 += 4;
    }
}

/// Orthodox chess in the registry of variants.
pub const INFO: VariantInfo = VariantInfo {
    name: "chess",
    game: "orthodox chess, the FIDE laws",
    boards: &[(8, 8)],
    pieces: &[
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ],
    designs: false,
    invented: true,
    zones: &[],
    check: true,
    reasons: &[
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::Repetition,
        Reason::FiftyMove,
        Reason::InsufficientMaterial,
        Reason::Resignation,
        Reason::Agreement,
    ],
    interpreted: true,
};

/// How a chess piece moves (castling, double steps, en passant and promotion aside).
pub(crate) fn movement_of(role: Role) -> &'static Movement {
    movement::orthodox(role).unwrap_or(&movement::PAWN)
}

/// The orthodox pieces in the shared attack test, by attacking colour (pawns, knights and the
/// king first, then the riders). The generator keeps its own [`attacked`] for speed; the tests
/// check one against the other.
#[cfg(test)]
pub(crate) fn attack_tables() -> &'static [AttackTable; 2] {
    static TABLES: OnceLock<[AttackTable; 2]> = OnceLock::new();
    TABLES
        .get_or_init(|| AttackTable::for_both(&movement::ATTACK_ORDER.map(|r| (r, movement_of(r)))))
}

/// The shared attack test for the orthodox pieces and every design interned so far, for
/// positions with invented pieces.
pub(crate) fn attack_tables_with_designs() -> super::design::Tables {
    thread_local! {
        static TABLES: super::design::TableCache = const { std::cell::RefCell::new(None) };
    }
    let kinds = movement::ATTACK_ORDER.map(|r| (r, movement_of(r)));
    super::design::tables_with_designs(&TABLES, &kinds)
}

/// How a piece moves: its role's movement, or its design's.
pub(crate) fn piece_movement(p: Piece) -> &'static Movement {
    p.design()
        .map_or_else(|| movement_of(p.role()), |d| d.movement())
}

/// Whether `s` is attacked by a piece of colour `them`, treating `ignore` as empty (the king
/// that is moving away along a line of attack).
#[inline]
fn attacked(b: &Board, s: i32, them: u8, ignore: i32) -> bool {
    let at = |x: i32| b.cell(Sq(x as u16));
    let pawn = code(them, PAWN);
    let pd = if them == 1 { UP } else { -UP };
    if at(s + pd - 1) == pawn || at(s + pd + 1) == pawn {
        return true;
    }
    let knight = code(them, KNIGHT);
    for d in KNIGHT_STEPS {
        if at(s + d) == knight {
            return true;
        }
    }
    let king = code(them, KING);
    for d in QUEEN_STEPS {
        if at(s + d) == king {
            return true;
        }
    }
    let queen = code(them, QUEEN);
    let rook = code(them, ROOK);
    for d in ORTHOGONAL {
        let mut t = s + d;
        let mut c = at(t);
        while c == EMPTY || t == ignore {
            t += d;
            c = at(t);
        }
        if c == rook || c == queen {
            return true;
        }
    }
    let bishop = code(them, BISHOP);
    for d in DIAGONAL {
        let mut t = s + d;
        let mut c = at(t);
        while c == EMPTY || t == ignore {
            t += d;
            c = at(t);
        }
        if c == bishop || c == queen {
            return true;
        }
    }
    false
}

/// How a repetition and the move-count rule end the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct DrawRules {
    fivefold: Reading<bool>,
    seventy_five: Reading<bool>,
}

impl DrawRules {
    fn from_options(options: &Options) -> DrawRules {
        DrawRules {
            fivefold: options.reading("repetition-draw", |v| v == "fivefold"),
            seventy_five: options.reading("move-rule-draw", |v| v == "seventy-five"),
        }
    }
}

/// A chess position with the rules options in force.
#[derive(Clone, Debug)]
pub struct Chess {
    board: Board,
    turn: Color,
    castling: u8,
    /// The square a pawn passed over on the last move (mailbox index), 0 for none.
    ep: u16,
    halfmove: u32,
    fullmove: u32,
    kings: [u16; 2],
    /// How many invented pieces stand on the board: while there are any, moves come from the
    /// movement model ([`Chess::explore`]) instead of the orthodox generator.
    designed: u8,
    draws: DrawRules,
}

pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Chess {
    #[inline(always)]
    fn at(&self, s: i32) -> u8 {
        self.board.cell(Sq(s as u16))
    }

    #[inline(always)]
    fn put(&mut self, s: i32, c: u8) {
        self.board.set(Sq(s as u16), Piece::from_code(c));
    }

    fn geometry() -> Geometry {
        Geometry::lettered(8, 8)
    }

    fn name(s: i32) -> String {
        Self::geometry().square_name(Sq(s as u16).square())
    }

    /// The castling rights as FEN writes them.
    pub fn castling_text(&self) -> String {
        let mut s = String::new();
        for (b, c) in [(WK, 'K'), (WQ, 'Q'), (BK, 'k'), (BQ, 'q')] {
            if self.castling & b != 0 {
                s.push(c);
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    fn ep_text(&self) -> String {
        if self.ep == 0 {
            "-".into()
        } else {
            Self::name(self.ep as i32)
        }
    }

    /// Whether the king of `color` is attacked.
    fn king_attacked(&self, color: Color) -> bool {
        let k = self.kings[color.index()] as i32;
        if self.designed > 0 {
            return attack_tables_with_designs()[color.other().index()]
                .attacker(&self.board, Sq(k as u16), |_| true, |_, _| false)
                .is_some();
        }
        attacked(&self.board, k, color.other() as u8, -1)
    }

    /// Generates every legal move into `out`.
    #[inline(always)]
    fn generate<S: Sink>(&self, out: &mut S) {
        let us = self.turn as u8;
        let them = us ^ 1;
        let k = self.kings[us as usize] as i32;

        // Checkers, the squares that answer a check, and pinned pieces.
        let mut checkers = 0u32;
        let mut mask = 0u64;
        let mut pinned = 0u64;
        let mut pins = [(0i32, 0i32); 8];
        let mut npins = 0usize;
        for (i, &d) in QUEEN_STEPS.iter().enumerate() {
            let slider = if i < 4 { ROOK } else { BISHOP };
            let mut s = k + d;
            let mut c = self.at(s);
            while c == EMPTY {
                s += d;
                c = self.at(s);
            }
            if c == WALL {
                continue;
            }
            if c & 1 == them {
                let r = c >> 1;
                if r == QUEEN || r == slider {
                    checkers += 1;
                    let mut t = k + d;
                    loop {
                        mask |= bit(t);
                        if t == s {
                            break;
                        }
                        t += d;
                    }
                }
            } else {
                let p = s;
                s += d;
                c = self.at(s);
                while c == EMPTY {
                    s += d;
                    c = self.at(s);
                }
                if c != WALL && c & 1 == them && (c >> 1 == QUEEN || c >> 1 == slider) {
                    pinned |= bit(p);
                    pins[npins] = (p, d);
                    npins += 1;
                }
            }
        }
        let enemy_knight = code(them, KNIGHT);
        for d in KNIGHT_STEPS {
            if self.at(k + d) == enemy_knight {
                checkers += 1;
                mask |= bit(k + d);
            }
        }
        let fwd = if us == 0 { UP } else { -UP };
        let enemy_pawn = code(them, PAWN);
        for s in [k + fwd - 1, k + fwd + 1] {
            if self.at(s) == enemy_pawn {
                checkers += 1;
                mask |= bit(s);
            }
        }
        if checkers == 0 {
            mask = !0;
        }

        // King steps.
        for d in QUEEN_STEPS {
            let t = k + d;
            let c = self.at(t);
            if c == WALL || (c != EMPTY && c & 1 == us) {
                continue;
            }
            if !attacked(&self.board, t, them, k) {
                out.push(Move::new(k, t, KIND_NORMAL));
            }
        }
        if checkers >= 2 {
            return;
        }

        // Castling: the king is not in check; the squares between are empty; the squares the
        // king passes over and lands on are not attacked.
        if checkers == 0 && self.castling != 0 {
            let base = if us == 0 { 0 } else { BACK };
            let (kb, qb) = if us == 0 { (WK, WQ) } else { (BK, BQ) };
            let e = E1 + base;
            if self.castling & kb != 0
                && self.at(e + 1) == EMPTY
                && self.at(e + 2) == EMPTY
                && !attacked(&self.board, e + 1, them, -1)
                && !attacked(&self.board, e + 2, them, -1)
            {
                out.push(Move::new(e, e + 2, KIND_CASTLE));
            }
            if self.castling & qb != 0
                && self.at(e - 1) == EMPTY
                && self.at(e - 2) == EMPTY
                && self.at(e - 3) == EMPTY
                && !attacked(&self.board, e - 1, them, -1)
                && !attacked(&self.board, e - 2, them, -1)
            {
                out.push(Move::new(e, e - 2, KIND_CASTLE));
            }
        }

        let pin_dir = |s: i32| -> i32 {
            for &(p, d) in &pins[..npins] {
                if p == s {
                    return d;
                }
            }
            0
        };
        let start_rank = if us == 0 { 1 } else { 6 };
        let last_but_one = if us == 0 { 6 } else { 1 };

        for &s in SQUARES.iter() {
            let c = self.at(s);
            if c == EMPTY || c & 1 != us {
                continue;
            }
            let role = c >> 1;
            let pd = if pinned & bit(s) != 0 { pin_dir(s) } else { 0 };
            match role {
                PAWN => {
                    let promo = rank_of(s) == last_but_one;
                    let t = s + fwd;
                    if self.at(t) == EMPTY && (pd == 0 || pd == fwd || pd == -fwd) {
                        if mask & bit(t) != 0 {
                            if promo {
                                out.push_promotions(s, t);
                            } else {
                                out.push(Move::new(s, t, KIND_NORMAL));
                            }
                        }
                        if rank_of(s) == start_rank {
                            let t2 = t + fwd;
                            if self.at(t2) == EMPTY && mask & bit(t2) != 0 {
                                out.push(Move::new(s, t2, KIND_DOUBLE));
                            }
                        }
                    }
                    for cd in [fwd - 1, fwd + 1] {
                        let t = s + cd;
                        let c2 = self.at(t);
                        if c2 != EMPTY
                            && c2 != WALL
                            && c2 & 1 == them
                            && (pd == 0 || pd == cd || pd == -cd)
                            && mask & bit(t) != 0
                        {
                            if promo {
                                out.push_promotions(s, t);
                            } else {
                                out.push(Move::new(s, t, KIND_NORMAL));
                            }
                        }
                    }
                }
                KNIGHT => {
                    if pd != 0 {
                        continue;
                    }
                    for d in KNIGHT_STEPS {
                        let t = s + d;
                        let c2 = self.at(t);
                        if (c2 == EMPTY || (c2 != WALL && c2 & 1 == them)) && mask & bit(t) != 0 {
                            out.push(Move::new(s, t, KIND_NORMAL));
                        }
                    }
                }
                KING => {}
                _ => {
                    let dirs: &[i32] = match role {
                        BISHOP => &DIAGONAL,
                        ROOK => &ORTHOGONAL,
                        _ => &QUEEN_STEPS,
                    };
                    for &d in dirs {
                        if pd != 0 && d != pd && d != -pd {
                            continue;
                        }
                        let mut t = s + d;
                        loop {
                            let c2 = self.at(t);
                            if c2 == EMPTY {
                                if mask & bit(t) != 0 {
                                    out.push(Move::new(s, t, KIND_NORMAL));
                                }
                                t += d;
                                continue;
                            }
                            if c2 != WALL && c2 & 1 == them && mask & bit(t) != 0 {
                                out.push(Move::new(s, t, KIND_NORMAL));
                            }
                            break;
                        }
                    }
                }
            }
        }

        // En passant, tested in full: it removes two pieces from the lines around the king.
        if self.ep != 0 {
            let e = self.ep as i32;
            let victim = e - fwd;
            let pawn = code(us, PAWN);
            for s in [victim - 1, victim + 1] {
                if self.at(s) == pawn && self.en_passant_is_legal(s, e) {
                    out.push(Move::new(s, e, KIND_EP));
                }
            }
        }
    }

    fn en_passant_is_legal(&self, from: i32, to: i32) -> bool {
        let us = self.turn as u8;
        let fwd = if us == 0 { UP } else { -UP };
        let mut b = self.board.clone();
        b.set(Sq((to - fwd) as u16), None);
        b.set(Sq(from as u16), None);
        b.set(Sq(to as u16), Piece::from_code(code(us, PAWN)));
        !attacked(&b, self.kings[us as usize] as i32, us ^ 1, -1)
    }

    /// Whether an en-passant capture is legal now (FIDE 9.2.2 counts the square only then).
    fn en_passant_capturable(&self) -> bool {
        if self.ep == 0 {
            return false;
        }
        let mut v = Vec::new();
        self.generate(&mut v);
        v.iter().any(|m| m.kind == KIND_EP)
    }

    fn apply(&mut self, m: Move) {
        let us = self.turn as u8;
        let from = m.from as i32;
        let to = m.to as i32;
        let piece = self.at(from);
        let captured = self.at(to);
        // Invented pieces have the cell codes from the first design's up.
        if captured >= Role::Design.code() << 1 {
            self.designed -= 1;
        }
        // Saturating, though the clock stays at most MAX_HALFMOVE in a game (see there); only
        // perft plays on past a decided position, and it cannot play four billion plies.
        self.halfmove = self.halfmove.saturating_add(1);
        if piece >> 1 == PAWN || captured != EMPTY {
            self.halfmove = 0;
        }
        self.ep = 0;
        let placed = if m.promo != 0 {
            code(us, m.promo)
        } else {
            piece
        };
        self.put(to, placed);
        self.put(from, EMPTY);
        match m.kind {
            KIND_DOUBLE => self.ep = ((from + to) / 2) as u16,
            KIND_EP => {
                let fwd = if us == 0 { UP } else { -UP };
                self.put(to - fwd, EMPTY);
            }
            KIND_CASTLE => {
                let (rook_from, rook_to) = if to > from {
                    (to + 1, to - 1)
                } else {
                    (to - 2, to + 1)
                };
                let rook = self.at(rook_from);
                self.put(rook_to, rook);
                self.put(rook_from, EMPTY);
            }
            _ => {}
        }
        if piece >> 1 == KING {
            self.kings[us as usize] = to as u16;
        }
        self.castling &= CASTLE_KEEP[from as usize] & CASTLE_KEEP[to as usize];
        if us == 1 {
            // At most MAX_FULLMOVE plus a game's length: never near u32::MAX (see there).
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = self.turn.other();
    }

    /// Dead position by material (FIDE 5.2.b): no pawns, rooks or queens, and either at most one
    /// minor piece in all, or only bishops, all on squares of one colour.
    fn insufficient_material(&self) -> bool {
        let mut knights = 0;
        let mut bishops = 0;
        let mut colours = [false; 2];
        for &s in SQUARES.iter() {
            let c = self.at(s);
            if c == EMPTY {
                continue;
            }
            match c >> 1 {
                KING => {}
                KNIGHT => knights += 1,
                // Any other piece, invented ones included, may still mate.
                BISHOP => {
                    bishops += 1;
                    let i = SQ64[s as usize];
                    colours[((i >> 3) + (i & 7)) as usize & 1] = true;
                }
                _ => return false,
            }
        }
        knights + bishops <= 1 || (knights == 0 && !(colours[0] && colours[1]))
    }

    /// Builds and validates a position from its parts.
    fn build(
        board: Board,
        turn: Color,
        castling: u8,
        ep: Option<Square>,
        halfmove: u32,
        fullmove: u32,
        options: &Options,
    ) -> Result<Chess, SetupError> {
        let g = *board.geometry();
        INFO.check_board(g.files, g.ranks)?;
        let mut kings = [0u16; 2];
        let mut count = [0; 2];
        let mut designed = 0u8;
        for (sq, p) in board.pieces() {
            match p.role() {
                Role::King => {
                    count[p.color().index()] += 1;
                    kings[p.color().index()] = Sq::of(sq).0;
                }
                Role::Pawn if sq.rank == 0 || sq.rank == 7 => {
                    return Err(SetupError::new(
                        Kind::Pawns,
                        format!(
                            "a {} pawn stands on {}; pawns cannot stand on the first or last rank",
                            p.color(),
                            g.square_name(sq)
                        ),
                    ))
                }
                Role::Queen | Role::Rook | Role::Bishop | Role::Knight | Role::Pawn => {}
                // An invented piece is an ordinary non-royal piece.
                Role::Design => designed += 1,
                r => {
                    return Err(SetupError::new(
                        Kind::Piece,
                        format!(
                            "the {} on {} is not a chess piece",
                            p.design().map_or(r.word().to_string(), |d| d.to_string()),
                            g.square_name(sq)
                        ),
                    ))
                }
            }
        }
        for c in Color::ALL {
            if count[c.index()] != 1 {
                return Err(SetupError::new(
                    Kind::Kings,
                    format!(
                        "{c} has {} kings; chess needs exactly one king per side",
                        count[c.index()]
                    ),
                ));
            }
        }
        for (b, color, rook_sq, side) in [
            (WK, Color::White, H1, "kingside"),
            (WQ, Color::White, A1, "queenside"),
            (BK, Color::Black, H8, "kingside"),
            (BQ, Color::Black, A8, "queenside"),
        ] {
            if castling & b == 0 {
                continue;
            }
            let king_sq = if color == Color::White { E1 } else { E8 };
            if kings[color.index()] as i32 != king_sq {
                return Err(SetupError::new(
                    Kind::Castling,
                    format!(
                        "{color} cannot have the right to castle {side}: its king is not on {}",
                        Self::name(king_sq)
                    ),
                ));
            }
            if board.cell(Sq(rook_sq as u16)) != code(color as u8, ROOK) {
                return Err(SetupError::new(
                    Kind::Castling,
                    format!(
                        "{color} cannot have the right to castle {side}: there is no {color} rook on {}",
                        Self::name(rook_sq)
                    ),
                ));
            }
        }
        let mut ep_cell = 0u16;
        if let Some(sq) = ep {
            let name = g.square_name(sq);
            let (rank, behind, front) = match turn {
                Color::White => (5, 6, 4),
                Color::Black => (2, 1, 3),
            };
            if sq.rank != rank {
                return Err(SetupError::new(
                    Kind::EnPassant,
                    format!(
                        "the en-passant square {name} is not on rank {}, where {} just passed over",
                        rank + 1,
                        turn.other()
                    ),
                ));
            }
            let front_sq = Square::new(sq.file, front);
            if board.get(sq).is_some() || board.get(Square::new(sq.file, behind)).is_some() {
                return Err(SetupError::new(
                    Kind::EnPassant,
                    format!(
                        "the en-passant square {name} cannot follow a double step: {name} or the square behind it is occupied"
                    ),
                ));
            }
            if board.get(front_sq) != Some(Piece::new(turn.other(), Role::Pawn)) {
                return Err(SetupError::new(
                    Kind::EnPassant,
                    format!(
                        "the en-passant square {name} needs a {} pawn on {}",
                        turn.other(),
                        g.square_name(front_sq)
                    ),
                ));
            }
            ep_cell = Sq::of(sq).0;
        }
        if fullmove == 0 {
            return Err(SetupError::new(
                Kind::Counter,
                "the fullmove number starts at 1",
            ));
        }
        let pos = Chess {
            board,
            turn,
            castling,
            ep: ep_cell,
            halfmove,
            fullmove,
            kings,
            designed,
            draws: DrawRules::from_options(options),
        };
        if pos.king_attacked(turn.other()) {
            return Err(SetupError::new(
                Kind::OppositeCheck,
                format!("{} is in check, but it is {}'s turn", turn.other(), turn),
            ));
        }
        Ok(pos)
    }
}

fn parse_castling(text: &str) -> Result<u8, String> {
    if text == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    if text.is_empty() {
        return Err("the castling rights are empty; write a subset of KQkq or -".into());
    }
    for c in text.chars() {
        let b = match c {
            'K' => WK,
            'Q' => WQ,
            'k' => BK,
            'q' => BQ,
            _ => {
                return Err(format!(
                    "`{c}` is not a castling right; write a subset of KQkq or -"
                ))
            }
        };
        if rights & b != 0 {
            return Err(format!("the castling right `{c}` appears twice"));
        }
        rights |= b;
    }
    Ok(rights)
}

fn parse_ep(text: &str) -> Result<Option<Square>, String> {
    if text == "-" {
        return Ok(None);
    }
    Chess::geometry()
        .parse_square(text)
        .map(Some)
        .ok_or_else(|| {
            format!(
                "the en-passant square {} is not a square (a1 to h8) or -",
                quoted(text)
            )
        })
}

/// The largest halfmove clock: the game is drawn when the clock reaches 100 (150 under
/// `move-rule-draw = seventy-five`) and a game refuses every turn once it is over, so play
/// never takes the clock past 150.
pub const MAX_HALFMOVE: u32 = 150;

/// The largest fullmove number a position may be given. No game from the start position
/// reaches move 9,000 (the move-count draw ends it first), and from any position play adds
/// fewer than 10,000 moves: far from where a `u32` would wrap.
pub const MAX_FULLMOVE: u32 = 10_000;

/// A value as a message quotes it: long hostile input is cut, not echoed in full.
pub(crate) fn quoted(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("`{}…`", &text[..i]),
        None => format!("`{text}`"),
    }
}

/// Reads a counter written as decimal digits and checks it against `range`, the values the
/// game can use; the error says whether the text is no number or a number out of range, and
/// what is accepted.
pub(crate) fn parse_counter(
    text: &str,
    what: &str,
    range: std::ops::RangeInclusive<u32>,
) -> Result<u32, String> {
    let accepted = format!("the accepted range is {} to {}", range.start(), range.end());
    let shown = quoted(text);
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "the {what} {shown} is not a number; write a whole number ({accepted})"
        ));
    }
    if text.starts_with('-') {
        return Err(format!("the {what} {shown} is negative; {accepted}"));
    }
    // Digits that do not fit in a u32 are too large for every range.
    match text.parse::<u32>() {
        Ok(n) if n < *range.start() => Err(format!("the {what} {shown} is too small; {accepted}")),
        Ok(n) if n <= *range.end() => Ok(n),
        _ => Err(format!("the {what} {shown} is too large; {accepted}")),
    }
}

fn parse_halfmove(text: &str) -> Result<u32, String> {
    parse_counter(text, "halfmove clock", 0..=MAX_HALFMOVE)
}

fn parse_fullmove(text: &str) -> Result<u32, String> {
    parse_counter(text, "fullmove number", 1..=MAX_FULLMOVE)
}

impl Rules for Chess {
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
        let mut castling = 0;
        let mut ep = None;
        let mut halfmove = 0;
        let mut fullmove = 1;
        for ((name, color), value) in &setup.keys {
            if color.is_some() {
                return Err(SetupError::key(format!(
                    "the chess state key `{name}` takes no colour"
                )));
            }
            match name.as_str() {
                "castling" => castling = parse_castling(value).map_err(SetupError::key)?,
                "en-passant" => ep = parse_ep(value).map_err(SetupError::key)?,
                "halfmove-clock" => halfmove = parse_halfmove(value).map_err(SetupError::key)?,
                "fullmove-number" => fullmove = parse_fullmove(value).map_err(SetupError::key)?,
                "fen" => {
                    return Err(SetupError::key(
                        "the state key `fen` is read-only; give the position as a FEN instead",
                    ))
                }
                _ => {
                    let names: Vec<_> = STATE_KEYS.iter().map(|k| k.name).collect();
                    return Err(SetupError::key(format!(
                        "chess has no state key `{name}`; keys: {}",
                        names.join(", ")
                    )));
                }
            }
        }
        Self::build(
            setup.board.clone(),
            setup.turn,
            castling,
            ep,
            halfmove,
            fullmove,
            options,
        )
    }

    fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(Self::geometry());
        setup.board = self.board.clone();
        setup.turn = self.turn;
        for (k, v) in [
            ("castling", self.castling_text()),
            ("en-passant", self.ep_text()),
            ("halfmove-clock", self.halfmove.to_string()),
            ("fullmove-number", self.fullmove.to_string()),
        ] {
            setup.keys.insert((k.to_string(), None), v);
        }
        setup
    }

    fn from_fen(geometry: Geometry, fen: &str, options: &Options) -> Result<Self, SetupError> {
        INFO.check_board(geometry.files, geometry.ranks)?;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(SetupError::fen(format!(
                "a chess FEN has 6 fields (or 4 without the clocks); this one has {}",
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
        let castling = parse_castling(fields[2]).map_err(SetupError::fen)?;
        let ep = parse_ep(fields[3]).map_err(SetupError::fen)?;
        let (halfmove, fullmove) = if fields.len() == 6 {
            (
                parse_halfmove(fields[4]).map_err(SetupError::fen)?,
                parse_fullmove(fields[5]).map_err(SetupError::fen)?,
            )
        } else {
            (0, 1)
        };
        Self::build(board, turn, castling, ep, halfmove, fullmove, options)
    }

    fn fen(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.board.fen_placement(),
            if self.turn == Color::White { "w" } else { "b" },
            self.castling_text(),
            self.ep_text(),
            self.halfmove,
            self.fullmove
        )
    }

    fn board(&self) -> &Board {
        &self.board
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.designed > 0 {
            self.explore(out);
        } else {
            self.generate(out);
        }
    }

    fn count_legal(&self) -> u64 {
        let mut c = Counter(0);
        if self.designed > 0 {
            self.explore(&mut c);
        } else {
            self.generate(&mut c);
        }
        c.0
    }

    fn play(&mut self, m: Move) {
        self.apply(m);
    }

    fn describe(&self, m: Move) -> Turn {
        let piece = self.board.piece_at(Sq(m.from));
        let role = piece.map_or(Role::Pawn, Piece::role);
        let castle = if m.kind == KIND_CASTLE {
            Some(if m.to > m.from {
                CastleSide::King
            } else {
                CastleSide::Queen
            })
        } else {
            None
        };
        let victim = if m.kind == KIND_EP {
            Some(Piece::new(self.turn.other(), Role::Pawn))
        } else {
            self.board.piece_at(Sq(m.to))
        };
        Turn::single(Action::Move {
            role,
            design: piece.and_then(Piece::design),
            from: m.from(),
            legs: vec![Leg::onto(m.to(), victim)],
            promotion: m.promotion(),
            castle,
        })
    }

    fn in_check(&self) -> Option<bool> {
        Some(self.king_attacked(self.turn))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome_with(self.count_legal() > 0)
    }

    fn outcome_with(&self, has_legal_turn: bool) -> Option<Outcome> {
        if !has_legal_turn {
            return Some(if self.king_attacked(self.turn) {
                Outcome {
                    winner: Some(self.turn.other()),
                    reason: Reason::Checkmate,
                    rule: "checkmate",
                }
            } else {
                Outcome {
                    winner: None,
                    reason: Reason::Stalemate,
                    rule: "stalemate",
                }
            });
        }
        // The reading is asked only between the two counts, where it decides.
        if self.halfmove >= 150 || (self.halfmove >= 100 && !self.draws.seventy_five.get()) {
            return Some(Outcome {
                winner: None,
                reason: Reason::FiftyMove,
                rule: "fifty-move",
            });
        }
        if self.insufficient_material() {
            return Some(Outcome {
                winner: None,
                reason: Reason::InsufficientMaterial,
                rule: "insufficient-material",
            });
        }
        None
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
        for &s in SQUARES.iter() {
            h.write_u8(self.at(s));
        }
        h.write_u8(self.turn as u8);
        h.write_u8(self.castling);
        if self.en_passant_capturable() {
            h.write_u16(self.ep);
        }
        h.finish()
    }

    fn repetition_draw(&self, seen: usize) -> Option<&'static str> {
        (seen >= 5 || (seen >= 3 && !self.draws.fivefold.get())).then_some("repetition")
    }

    fn resignation_rule() -> &'static str {
        "resignation"
    }

    fn agreement_rule() -> &'static str {
        "agreement"
    }

    fn castling_moves(color: Color, side: CastleSide) -> Option<[(Square, Square); 2]> {
        let king = candidates::castle_move(color, side);
        let (e, to) = (king.from(), king.to());
        // The rook stands in the corner the King moves toward and lands on the square it crosses.
        let (corner, crossed) = match side {
            CastleSide::King => (Self::geometry().files - 1, e.file + 1),
            CastleSide::Queen => (0, e.file - 1),
        };
        let rook = (Square::new(corner, e.rank), Square::new(crossed, e.rank));
        Some([(e, to), rook])
    }

    fn state_key(&self, key: &str, _color: Option<Color>) -> String {
        match key {
            "castling" => self.castling_text(),
            "en-passant" => self.ep_text(),
            "halfmove-clock" => self.halfmove.to_string(),
            "fullmove-number" => self.fullmove.to_string(),
            "fen" => self.fen(),
            _ => String::new(),
        }
    }

    /// Each invariant is checked by a mechanism other than the one that enforces it (see each
    /// arm): the board is read square by square, never through the cached king squares.
    fn check_invariant(&self, name: &str) -> Result<(), String> {
        let g = Self::geometry();
        match name {
            // Enforced by the move generator, which never offers a king capture (kings are
            // found by `build`, and only ever move). Checked by counting the board.
            "one-king-each" => {
                for c in Color::ALL {
                    let n = self
                        .board
                        .pieces()
                        .filter(|(_, p)| *p == Piece::new(c, Role::King))
                        .count();
                    if n != 1 {
                        return Err(format!("{c} has {n} kings"));
                    }
                }
                Ok(())
            }
            // Enforced by `generate` (checkers, pins, and `attacked` for king moves, en passant
            // and castling). Checked by the zone-blind geometry of `reach`, from each enemy piece
            // to the mover's king as found on the board: FIDE 3.9, a king is in check when an
            // opposing piece could capture it (a knight by the classical L only).
            "mover-not-in-check" => {
                let mover = self.turn.other();
                let hint = Sq(self.kings[mover.index()]).square();
                let Some(k) = find_king(&self.board, mover, hint) else {
                    return Ok(());
                };
                let checker = self.board.pieces().find(|&(x, p)| {
                    p.color() != mover
                        && reach(&self.board, x, p, k, |_, _| false)
                            .is_some_and(|how| how != Reach::Leap13)
                });
                match checker {
                    Some((x, p)) => Err(format!(
                        "{mover} moved and its king on {} is in check from the {} on {}",
                        g.square_name(k),
                        p.role(),
                        g.square_name(x)
                    )),
                    None => Ok(()),
                }
            }
            // Enforced by promotion in `generate` (every pawn move to the last rank promotes)
            // and by `build`. Checked on the board.
            "no-pawn-on-back-rank" => {
                match self
                    .board
                    .pieces()
                    .find(|(s, p)| p.role() == Role::Pawn && (s.rank == 0 || s.rank == 7))
                {
                    Some((s, p)) => Err(format!(
                        "a {} pawn stands on {}",
                        p.color(),
                        g.square_name(s)
                    )),
                    None => Ok(()),
                }
            }
            // Enforced by `apply`, which clears a right when its king or rook square is left or
            // captured on (CASTLE_KEEP), and by `build`. Checked against the board: the rights
            // are the witness of what `apply` kept, the board of where the pieces stand.
            "castling-rights-consistent" => {
                for (b, color, side, king_sq, rook_sq) in [
                    (WK, Color::White, "kingside", "e1", "h1"),
                    (WQ, Color::White, "queenside", "e1", "a1"),
                    (BK, Color::Black, "kingside", "e8", "h8"),
                    (BQ, Color::Black, "queenside", "e8", "a8"),
                ] {
                    if self.castling & b == 0 {
                        continue;
                    }
                    let on = |s: &str, role: Role| {
                        g.parse_square(s)
                            .and_then(|s| self.board.get(s))
                            .is_some_and(|p| p == Piece::new(color, role))
                    };
                    if !on(king_sq, Role::King) {
                        return Err(format!(
                            "{color} may castle {side} but its king is not on {king_sq}"
                        ));
                    }
                    if !on(rook_sq, Role::Rook) {
                        return Err(format!(
                            "{color} may castle {side} but there is no {color} rook on {rook_sq}"
                        ));
                    }
                }
                Ok(())
            }
            _ => Err(format!("chess has no invariant `{name}`")),
        }
    }
}
