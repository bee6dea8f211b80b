//! Pieces as data: how a piece kind moves and captures, as a list of atoms, and the one attack
//! test every variant shares.
//!
//! An [`Atom`] is a set of step vectors (written for White: a positive rank step is forward;
//! Black's are turned half round, so a piece's left is its owner's left), how far the piece
//! goes along each ([`Reach`]: a single leap, a lame leap that a piece on its path blocks, a
//! ride of any or a limited length, or a hop over one screen, cannon-like or landing right
//! behind it as the grasshopper does), and whether the atom moves, captures or both. A
//! [`Movement`] is a list of atoms; the orthodox pieces are defined this way ([`KING`],
//! [`QUEEN`], ...), and so is any designed piece.
//!
//! [`AttackTable`] turns the movements of the pieces that may attack into reverse lookups from
//! the attacked square: the cells a leaper would stand on (with the squares a lame leaper needs
//! empty), and the rays along which a rider would be the first piece, or a hopper the second.
//! A variant adds its own conditions (zones, transparent pieces) through the `admit` and
//! `passes` callbacks of [`AttackTable::attacker`], so the geometry is written once. The orthodox chess generator keeps a specialised attack test for speed; the
//! tests check it against this one.

use std::borrow::Cow;

use super::board::{delta, Board, Sq, Square};
use super::piece::{Color, Piece, Role};
use crate::betza::lame_path;

/// Whether an atom moves to empty squares, captures, or both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modality {
    Move,
    Capture,
    Both,
}

impl Modality {
    #[inline]
    pub fn moves(self) -> bool {
        self != Modality::Capture
    }

    #[inline]
    pub fn captures(self) -> bool {
        self != Modality::Move
    }
}

/// How far a piece goes along one step vector of an atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reach {
    /// One step, jumping over whatever stands between.
    Leap,
    /// One step that a piece on a square of its path blocks (Betza `n`): the squares of
    /// [`crate::betza::lame_path`] for the step as the board has it (turned for Black), so
    /// the xiangqi horse `nN` is blocked by the orthogonal neighbour in its long direction.
    Lame,
    /// Repeated steps over empty squares: at most this many, 0 for no limit.
    Ride(u8),
    /// Like a ride, but it first passes exactly one piece, the screen, anywhere along the
    /// line, and then moves to an empty square or captures the first piece beyond, at most
    /// this many squares beyond the screen, 0 for no limit (Betza `p`: Xiangqi's cannon is a
    /// rider that moves and a hopper that captures, `mRcpR`); 1 is the grasshopper (`g`),
    /// which lands right behind its screen.
    Hop(u8),
}

/// One atom of a movement: step vectors, reach and modality.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// Step vectors `(files, ranks)` for White; Black's are negated.
    pub steps: Cow<'static, [(i8, i8)]>,
    pub reach: Reach,
    pub modality: Modality,
}

/// How one piece kind moves: its atoms.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Movement {
    pub atoms: Cow<'static, [Atom]>,
}

const fn atom(steps: &'static [(i8, i8)], reach: Reach, modality: Modality) -> Atom {
    Atom {
        steps: Cow::Borrowed(steps),
        reach,
        modality,
    }
}

const fn movement(atoms: &'static [Atom]) -> Movement {
    Movement {
        atoms: Cow::Borrowed(atoms),
    }
}

/// The orthogonal one-square steps (Betza `W`).
pub const WAZIR: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// The diagonal one-square steps (Betza `F`).
pub const FERZ: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
/// The eight one-square steps (`K` = `WF`), orthogonal first.
pub const KING_STEPS: [(i8, i8); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];
/// The knight's leaps (Betza `N`).
pub const KNIGHT_LEAPS: [(i8, i8); 8] = [
    (1, 2),
    (-1, 2),
    (2, 1),
    (-2, 1),
    (1, -2),
    (-1, -2),
    (2, -1),
    (-2, -1),
];
/// The (1,3) leaps (Betza `L`, the camel; Cypher Chess's extended knight).
pub const CAMEL_LEAPS: [(i8, i8); 8] = [
    (1, 3),
    (-1, 3),
    (3, 1),
    (-3, 1),
    (1, -3),
    (-1, -3),
    (3, -1),
    (-3, -1),
];

/// A movement made of static atoms.
macro_rules! movement {
    ($(#[$doc:meta])* $name:ident = $($atom:expr),+) => {
        $(#[$doc])*
        pub static $name: Movement = {
            static ATOMS: &[Atom] = &[$($atom),+];
            movement(ATOMS)
        };
    };
}

movement!(
    /// `K`: one square any way.
    KING = atom(&KING_STEPS, Reach::Leap, Modality::Both)
);
movement!(
    /// `Q` = `RB`.
    QUEEN = atom(&KING_STEPS, Reach::Ride(0), Modality::Both)
);
movement!(
    /// `R` = `WW`.
    ROOK = atom(&WAZIR, Reach::Ride(0), Modality::Both)
);
movement!(
    /// `B` = `FF`.
    BISHOP = atom(&FERZ, Reach::Ride(0), Modality::Both)
);
movement!(
    /// `N`.
    KNIGHT = atom(&KNIGHT_LEAPS, Reach::Leap, Modality::Both)
);
movement!(
    /// `fmWfcF`: the pawn's step and capture (double steps, promotion and en passant are a
    /// variant's own rules).
    PAWN = atom(&[(0, 1)], Reach::Leap, Modality::Move),
        atom(&[(1, 1), (-1, 1)], Reach::Leap, Modality::Capture)
);
movement!(
    /// Cypher Chess's knight, `NL`: the classical L and the extended (1,3) L; which of them a
    /// knight may use depends on its zone, which the variant decides (atom 0 is `N`, atom 1 `L`).
    CYPHER_KNIGHT = atom(&KNIGHT_LEAPS, Reach::Leap, Modality::Both),
        atom(&CAMEL_LEAPS, Reach::Leap, Modality::Both)
);

/// The orthodox roles in the order attack tables list them: the leapers (pawn, knight, king)
/// first, then the riders, so that a lookup finds the cheap attacks first.
pub const ATTACK_ORDER: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
];

/// The movement of an orthodox role (`K Q R B N P`); `None` for the others, which variants
/// define themselves (Cypher's Spy moves as a queen, its knight by both Ls).
pub fn orthodox(role: Role) -> Option<&'static Movement> {
    Some(match role {
        Role::King => &KING,
        Role::Queen => &QUEEN,
        Role::Rook => &ROOK,
        Role::Bishop => &BISHOP,
        Role::Knight => &KNIGHT,
        Role::Pawn => &PAWN,
        _ => return None,
    })
}

/// A step vector as the board has it for `color`: White's as written, Black's turned.
#[inline]
fn turned(step: (i8, i8), color: Color) -> (i32, i32) {
    let (f, r) = (step.0 as i32, step.1 as i32);
    if color == Color::White {
        (f, r)
    } else {
        (-f, -r)
    }
}

/// The mailbox offsets, from the start of a lame leap by `(df, dr)` (as the board has it), of
/// the squares that must be empty, and how many there are.
#[inline]
fn lame_offsets(df: i32, dr: i32) -> ([i32; 2], u8) {
    let (path, n) = lame_path(df, dr);
    (
        [delta(path[0].0, path[0].1), delta(path[1].0, path[1].1)],
        n as u8,
    )
}

/// A step vector as a mailbox offset for `color`.
#[inline]
pub fn offset(step: (i8, i8), color: Color) -> i32 {
    let d = delta(step.0 as i32, step.1 as i32);
    if color == Color::White {
        d
    } else {
        -d
    }
}

/// What a walk along a step of an atom finds on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    /// An empty square; `moves` says whether the atom may move there (a capture-only atom
    /// may not).
    Empty { moves: bool },
    /// The first piece on the line, with its cell code; `captures` says whether the atom may
    /// capture (whether the piece is an enemy is the caller's to say).
    Piece { code: u8, captures: bool },
    /// A square beyond the first piece `by` on the line, visited only when asked for.
    Blocked { by: Sq },
}

/// Walks every atom of `movement` from `from` for `color`, in atom and step order, calling
/// `visit` for every square a step reaches: empty squares and the first piece on each line
/// (for a hopper, those beyond its screen), and with `past_blockers` the squares beyond that
/// piece too, so that a refusal can say what blocks them. Move generators, refusals and tests
/// share this one walk; what a landing means is theirs.
pub fn walk(
    movement: &Movement,
    board: &Board,
    from: Sq,
    color: Color,
    past_blockers: bool,
    mut visit: impl FnMut(Sq, Landing),
) {
    use super::board::cell::{EMPTY, WALL};
    let landing = |a: &Atom, c: u8| {
        if c == EMPTY {
            Landing::Empty {
                moves: a.modality.moves(),
            }
        } else {
            Landing::Piece {
                code: c,
                captures: a.modality.captures(),
            }
        }
    };
    for a in movement.atoms.iter() {
        for &step in a.steps.iter() {
            let d = offset(step, color);
            if a.reach == Reach::Lame {
                let t = from.offset(d);
                let c = board.cell(t);
                if c == WALL {
                    continue;
                }
                let (dx, dy) = turned(step, color);
                let (path, n) = lame_offsets(dx, dy);
                let blocker = path[..n as usize]
                    .iter()
                    .map(|&p| from.offset(p))
                    .find(|&s| board.cell(s) != EMPTY);
                match blocker {
                    None => visit(t, landing(a, c)),
                    // A hole on the path blocks too, but is no piece to name.
                    Some(by) if past_blockers && board.cell(by) != WALL => {
                        visit(t, Landing::Blocked { by })
                    }
                    Some(_) => {}
                }
                continue;
            }
            let mut t = from.offset(d);
            // Squares reached: from the start for a ride, beyond the screen for a hop.
            let mut n = 0u8;
            let mut blocker: Option<Sq> = None;
            // A hopper's first piece on the line is its screen, not a target.
            let mut screened = !matches!(a.reach, Reach::Hop(_));
            loop {
                let c = board.cell(t);
                if c == WALL {
                    break;
                }
                if !screened {
                    screened = c != EMPTY;
                    t = t.offset(d);
                    continue;
                }
                n = n.saturating_add(1);
                if let Some(by) = blocker {
                    visit(t, Landing::Blocked { by });
                } else {
                    visit(t, landing(a, c));
                    if c != EMPTY {
                        blocker = Some(t);
                    }
                }
                let done = match a.reach {
                    Reach::Leap | Reach::Lame => true,
                    Reach::Ride(limit) | Reach::Hop(limit) => limit != 0 && n >= limit,
                };
                if done || (blocker.is_some() && !past_blockers) {
                    break;
                }
                t = t.offset(d);
            }
        }
    }
}

/// Where a piece with this movement may go from `from`: `(target, captures)` for every
/// destination its atoms reach, before any variant rule (check, zones) is applied. `is_enemy`
/// says whether an occupied cell may be captured.
pub fn destinations(
    movement: &Movement,
    board: &Board,
    from: Sq,
    color: Color,
    is_enemy: impl Fn(u8) -> bool,
    mut out: impl FnMut(Sq, bool),
) {
    walk(
        movement,
        board,
        from,
        color,
        false,
        |t, landing| match landing {
            Landing::Empty { moves: true } => out(t, false),
            Landing::Piece {
                code,
                captures: true,
            } if is_enemy(code) => out(t, true),
            _ => {}
        },
    );
}

impl Movement {
    /// The first atom (by index) whose geometry takes a piece of `color` from `from` to `to`
    /// on an empty board: one leap, or a ride of a whole number of steps within its range.
    /// Blockers, modality and a variant's own rules are the caller's; this answers only
    /// "could this piece ever go there in one move".
    pub fn could_reach(&self, from: Square, to: Square, color: Color) -> Option<usize> {
        let (df, dr) = (
            to.file as i32 - from.file as i32,
            to.rank as i32 - from.rank as i32,
        );
        if (df, dr) == (0, 0) {
            return None;
        }
        let turn = if color == Color::White { 1 } else { -1 };
        self.atoms.iter().position(|a| {
            a.steps.iter().any(|&(sf, sr)| {
                let (sf, sr) = (sf as i32 * turn, sr as i32 * turn);
                if (sf, sr) == (0, 0) {
                    return false;
                }
                // `to - from` must be k times the step, k >= 1.
                let k = if sf != 0 { df / sf } else { dr / sr };
                k >= 1
                    && df == k * sf
                    && dr == k * sr
                    && match a.reach {
                        Reach::Leap | Reach::Lame => k == 1,
                        Reach::Ride(limit) => limit == 0 || k <= limit as i32,
                        // The screen may stand right before the destination.
                        Reach::Hop(_) => k >= 2,
                    }
            })
        })
    }
}

/// A leap that attacks the square it is looked up from: a piece `code` standing `offset`
/// away attacks by its atom `atom`, if the first `path_len` squares of `path` (offsets from
/// the attacked square: a lame leap's path) are empty.
#[derive(Clone, Copy, Debug)]
struct LeapEntry {
    offset: i32,
    code: u8,
    atom: u8,
    path: [i32; 2],
    path_len: u8,
}

/// A piece that attacks along a ray when it is the first piece met from the attacked square.
#[derive(Clone, Copy, Debug)]
struct RideEntry {
    code: u8,
    atom: u8,
    /// 0 for no limit; for a hopper, the squares beyond its screen.
    range: u8,
    hop: bool,
}

/// A ray to walk from the attacked square, and who attacks along it.
#[derive(Clone, Debug)]
struct Ray {
    dir: i32,
    riders: Vec<RideEntry>,
    /// The cell codes of `riders`, as a 256-bit set, to pass over other pieces quickly.
    codes: [u64; 4],
    /// Whether some rider hops (so the ray goes on past a first piece).
    hops: bool,
    /// The cell codes of the riders that hop.
    hop_codes: [u64; 4],
}

/// The squares an attack on a square can come from, for one attacking side, built from the
/// movements of its piece kinds (capturing atoms only).
#[derive(Clone, Debug, Default)]
pub struct AttackTable {
    leaps: Vec<LeapEntry>,
    rays: Vec<Ray>,
    /// Whether some leap is lame (so emptying a square off the rays can open an attack).
    lame: bool,
}

/// Where an attack was found: the attacker's square, its cell code and the index of the atom
/// (in its kind's movement) that attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attack {
    pub from: Sq,
    pub code: u8,
    pub atom: u8,
}

impl AttackTable {
    /// The table for pieces of `color`: each entry of `kinds` is a cell code and its kind's
    /// movement. Lookups try the leaps in the order of `kinds` and their atoms, then the rays in
    /// the order they first appear.
    pub fn new(color: Color, kinds: &[(u8, &Movement)]) -> AttackTable {
        let mut table = AttackTable::default();
        for &(code, movement) in kinds {
            for (i, a) in movement.atoms.iter().enumerate() {
                if !a.modality.captures() {
                    continue;
                }
                // The attacker stands against its own step from the square. A step set that is
                // its own mirror image is looked up in the order written, so that the first
                // attacker found does not depend on the side.
                // (A left-right symmetric set, such as the pawn's captures, is Black's mirrored
                // as well as turned: mirroring keeps the written order.)
                let symmetric = a.steps.iter().all(|&(f, r)| a.steps.contains(&(-f, -r)));
                let sideways = a.steps.iter().all(|&(f, r)| a.steps.contains(&(-f, r)));
                for &step in a.steps.iter() {
                    let (f, r) = (step.0 as i32, step.1 as i32);
                    // From the attacked square to the attacker, as the board has it.
                    let back_vec = if symmetric {
                        (f, r)
                    } else if sideways && color == Color::Black {
                        (-f, r)
                    } else {
                        let (tf, tr) = turned(step, color);
                        (-tf, -tr)
                    };
                    let back = delta(back_vec.0, back_vec.1);
                    match a.reach {
                        Reach::Leap => table.leaps.push(LeapEntry {
                            offset: back,
                            code,
                            atom: i as u8,
                            path: [0; 2],
                            path_len: 0,
                        }),
                        Reach::Lame => {
                            // The attacker leaps by -back_vec; its path, from the target.
                            let (path, path_len) = lame_offsets(-back_vec.0, -back_vec.1);
                            table.lame |= path_len > 0;
                            table.leaps.push(LeapEntry {
                                offset: back,
                                code,
                                atom: i as u8,
                                path: path.map(|p| back + p),
                                path_len,
                            });
                        }
                        Reach::Ride(range) => table.ray(
                            back,
                            RideEntry {
                                code,
                                atom: i as u8,
                                range,
                                hop: false,
                            },
                        ),
                        Reach::Hop(range) => table.ray(
                            back,
                            RideEntry {
                                code,
                                atom: i as u8,
                                range,
                                hop: true,
                            },
                        ),
                    }
                }
            }
        }
        table
    }

    /// Whether some leap of the table is lame.
    pub fn lame(&self) -> bool {
        self.lame
    }

    /// The pieces that alone stand between `target` and a rider of this table on one of its
    /// rays, or alone block the path of a lame leaper of this table that would otherwise
    /// attack it: the only pieces whose leaving could open an attack on `target` (a pinned
    /// piece, whichever side it is on). `None` when a hopper stands on one of its rays from
    /// `target`, since then a piece that moves can also open an attack by becoming or ceasing
    /// to be a screen. Conservative: a rider's range is not counted.
    pub fn screens(&self, board: &Board, target: Sq) -> Option<Vec<Sq>> {
        self.screens_through(board, target, |_| false)
    }

    /// [`AttackTable::screens`] where the pieces on the squares `lifted` says do not block
    /// (a `transparent` component's) but still attack: a piece alone between `target` and a
    /// lifted attacker shields it too.
    pub fn screens_through(
        &self,
        board: &Board,
        target: Sq,
        lifted: impl Fn(Sq) -> bool,
    ) -> Option<Vec<Sq>> {
        use super::board::cell::{EMPTY, WALL};
        let mut out = Vec::new();
        for e in self.leaps.iter().filter(|e| e.path_len > 0) {
            if board.cell(target.offset(e.offset)) != e.code {
                continue;
            }
            let mut occupied = e.path[..e.path_len as usize]
                .iter()
                .map(|&p| target.offset(p))
                .filter(|&s| board.cell(s) != EMPTY && !lifted(s));
            if let (Some(only), None) = (occupied.next(), occupied.next()) {
                if board.cell(only) != WALL {
                    out.push(only);
                }
            }
        }
        for ray in &self.rays {
            if ray.hops && Self::hopper_on(ray, board, target) {
                return None;
            }
            let attacks = |c: u8| ray.codes[c as usize >> 6] & (1 << (c & 63)) != 0;
            let mut first = None;
            let mut s = target.offset(ray.dir);
            loop {
                let c = board.cell(s);
                if c == WALL {
                    break;
                }
                if c != EMPTY {
                    if lifted(s) {
                        if first.is_some() && attacks(c) {
                            out.extend(first);
                            break;
                        }
                    } else if first.is_none() {
                        first = Some(s);
                    } else {
                        if attacks(c) {
                            out.extend(first);
                        }
                        break;
                    }
                }
                s = s.offset(ray.dir);
            }
        }
        Some(out)
    }

    /// Whether a hopper of `ray` stands anywhere on it from `target`: without one, no move
    /// can open a hop along it (the attacking side's pieces stand still).
    fn hopper_on(ray: &Ray, board: &Board, target: Sq) -> bool {
        use super::board::cell::WALL;
        let mut s = target.offset(ray.dir);
        loop {
            let c = board.cell(s);
            if c == WALL {
                return false;
            }
            if ray.hop_codes[c as usize >> 6] >> (c & 63) & 1 != 0 {
                return true;
            }
            s = s.offset(ray.dir);
        }
    }

    /// The tables of both colours for pieces of these roles, in this order.
    pub fn for_both(kinds: &[(Role, &Movement)]) -> [AttackTable; 2] {
        Color::ALL.map(|c| {
            let coded: Vec<(u8, &Movement)> = kinds
                .iter()
                .map(|&(role, m)| (Piece::new(c, role).code(), m))
                .collect();
            AttackTable::new(c, &coded)
        })
    }

    fn ray(&mut self, dir: i32, entry: RideEntry) {
        let i = match self.rays.iter().position(|r| r.dir == dir) {
            Some(i) => i,
            None => {
                self.rays.push(Ray {
                    dir,
                    riders: Vec::new(),
                    codes: [0; 4],
                    hops: false,
                    hop_codes: [0; 4],
                });
                self.rays.len() - 1
            }
        };
        let ray = &mut self.rays[i];
        ray.codes[entry.code as usize >> 6] |= 1 << (entry.code & 63);
        ray.hops |= entry.hop;
        if entry.hop {
            ray.hop_codes[entry.code as usize >> 6] |= 1 << (entry.code & 63);
        }
        ray.riders.push(entry);
    }

    /// The first attack on `target` found (leaps first, then rays in table order), if any.
    ///
    /// `admit(attack)` says whether a piece that reaches `target` by geometry really attacks it
    /// (a variant's zone rules, or a piece to treat as gone; `|_| true` for none).
    /// `passes(sq, code)` says whether a ray goes on through an occupied cell that did not
    /// attack (a transparent piece, or a piece treated as gone, such as a king moving away
    /// along the ray).
    #[inline]
    pub fn attacker(
        &self,
        board: &Board,
        target: Sq,
        mut admit: impl FnMut(Attack) -> bool,
        mut passes: impl FnMut(Sq, u8) -> bool,
    ) -> Option<Attack> {
        for e in &self.leaps {
            if let Some(hit) = Self::leap_attacker(e, board, target, &mut admit, &mut passes) {
                return Some(hit);
            }
        }
        for ray in &self.rays {
            if let Some(hit) = Self::ray_attacker(ray, board, target, &mut admit, &mut passes) {
                return Some(hit);
            }
        }
        None
    }

    /// [`Self::attacker`] on the rays leaving `target` in direction `dir` only, and the lame
    /// leaps (no other leaps): the only attacks that emptying a square in that direction can
    /// open, for a caller that knows `target` was not attacked before. A lame leap's path need
    /// not lie on a line from `target` (the camel's does not): where [`Self::has_lame`], a
    /// caller that empties a square off every line from `target` must use [`Self::attacker`].
    /// Where a piece hops, filling a square of a ray can open an attack too (a new screen).
    #[inline]
    pub fn attacker_along(
        &self,
        board: &Board,
        target: Sq,
        dir: i32,
        mut admit: impl FnMut(Attack) -> bool,
        mut passes: impl FnMut(Sq, u8) -> bool,
    ) -> Option<Attack> {
        if self.lame {
            for e in self.leaps.iter().filter(|e| e.path_len > 0) {
                if let Some(hit) = Self::leap_attacker(e, board, target, &mut admit, &mut passes) {
                    return Some(hit);
                }
            }
        }
        self.rays
            .iter()
            .filter(|r| r.dir == dir)
            .find_map(|ray| Self::ray_attacker(ray, board, target, &mut admit, &mut passes))
    }

    /// Whether some leap of this table is lame, so that emptying a square can open an attack
    /// off the rays.
    pub fn has_lame(&self) -> bool {
        self.lame
    }

    /// The attack of one leap entry, if its piece stands there, its path is clear (a piece
    /// that `passes` is as good as gone) and `admit` agrees.
    #[inline(always)]
    fn leap_attacker(
        e: &LeapEntry,
        board: &Board,
        target: Sq,
        admit: &mut impl FnMut(Attack) -> bool,
        passes: &mut impl FnMut(Sq, u8) -> bool,
    ) -> Option<Attack> {
        use super::board::cell::{EMPTY, WALL};
        let from = target.offset(e.offset);
        let c = board.cell(from);
        if c != e.code {
            return None;
        }
        for &p in &e.path[..e.path_len as usize] {
            let s = target.offset(p);
            let pc = board.cell(s);
            if pc != EMPTY && (pc == WALL || !passes(s, pc)) {
                return None;
            }
        }
        let hit = Attack {
            from,
            code: c,
            atom: e.atom,
        };
        admit(hit).then_some(hit)
    }

    /// Whether a rider or hopper of this table stands anywhere on the rays leaving `target` in
    /// direction `dir`, whatever stands between: where none does, no move that empties
    /// squares there can open an attack on `target`. Always true when a leap of the table is
    /// lame, since emptying a square of its path opens it.
    pub fn rides_along(&self, board: &Board, target: Sq, dir: i32) -> bool {
        use super::board::cell::{EMPTY, WALL};
        self.lame
            || self.rays.iter().filter(|r| r.dir == dir).any(|ray| {
                let mut t = target.offset(dir);
                loop {
                    let c = board.cell(t);
                    if c == WALL {
                        return false;
                    }
                    if c != EMPTY && ray.codes[c as usize >> 6] >> (c & 63) & 1 != 0 {
                        return true;
                    }
                    t = t.offset(dir);
                }
            })
    }

    /// The first attack along one ray.
    #[inline(always)]
    fn ray_attacker(
        ray: &Ray,
        board: &Board,
        target: Sq,
        admit: &mut impl FnMut(Attack) -> bool,
        passes: &mut impl FnMut(Sq, u8) -> bool,
    ) -> Option<Attack> {
        use super::board::cell::{EMPTY, WALL};
        let mut t = target;
        let mut n = 0u8;
        // The first occupied cell that stops the ray, then (for hoppers) the one behind it.
        let mut screened = false;
        // How far the screen is from `target`: the squares a hopper goes beyond it.
        let mut beyond = 0u8;
        loop {
            t = t.offset(ray.dir);
            n = n.saturating_add(1);
            let c = board.cell(t);
            if c == EMPTY {
                continue;
            }
            if c == WALL {
                return None;
            }
            if ray.codes[c as usize >> 6] >> (c & 63) & 1 != 0 {
                for e in &ray.riders {
                    let far = if e.hop { beyond } else { n };
                    if e.code == c && e.hop == screened && (e.range == 0 || far <= e.range) {
                        let hit = Attack {
                            from: t,
                            code: c,
                            atom: e.atom,
                        };
                        if admit(hit) {
                            return Some(hit);
                        }
                    }
                }
            }
            if passes(t, c) {
                continue;
            }
            if screened || !ray.hops {
                return None;
            }
            screened = true;
            beyond = n;
        }
    }
}

/// The greatest common divisor: a step `(dx, dy)` is that many whole steps of one square's
/// line (`gcd(|dx|, |dy|)`), for the lines of atoms and the squares a move passes.
pub fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::{Geometry, Square};
    use crate::rules::piece::{Piece, Role};

    fn board(pieces: &[(&str, Color, Role)]) -> Board {
        let g = Geometry::lettered(8, 8);
        let mut b = Board::empty(g);
        for &(s, c, r) in pieces {
            b.put(g.parse_square(s).unwrap(), Some(Piece::new(c, r)));
        }
        b
    }

    fn names(b: &Board, from: &str, m: &Movement, c: Color) -> Vec<String> {
        let g = *b.geometry();
        let mut out = Vec::new();
        let from = Sq::of(g.parse_square(from).unwrap());
        destinations(
            m,
            b,
            from,
            c,
            |cell| cell & 1 != c as u8,
            |t, x| {
                out.push(format!(
                    "{}{}",
                    if x { "x" } else { "" },
                    g.square_name(t.square())
                ))
            },
        );
        out.sort();
        out
    }

    #[test]
    fn could_reach_answers_by_geometry_alone() {
        let sq = |s: &str| Square::new(s.as_bytes()[0] - b'a', s.as_bytes()[1] - b'1');
        assert_eq!(ROOK.could_reach(sq("a1"), sq("a8"), Color::White), Some(0));
        assert_eq!(ROOK.could_reach(sq("a1"), sq("b3"), Color::White), None);
        assert_eq!(
            BISHOP.could_reach(sq("c1"), sq("h6"), Color::Black),
            Some(0)
        );
        assert_eq!(
            KNIGHT.could_reach(sq("g1"), sq("f3"), Color::White),
            Some(0)
        );
        assert_eq!(KNIGHT.could_reach(sq("g1"), sq("g3"), Color::White), None);
        assert_eq!(KING.could_reach(sq("e1"), sq("e3"), Color::White), None);
        // The pawn's step and captures are its own side's forward.
        assert_eq!(PAWN.could_reach(sq("e2"), sq("e3"), Color::White), Some(0));
        assert_eq!(PAWN.could_reach(sq("e2"), sq("d3"), Color::White), Some(1));
        assert_eq!(PAWN.could_reach(sq("e7"), sq("e6"), Color::Black), Some(0));
        assert_eq!(PAWN.could_reach(sq("e7"), sq("e8"), Color::Black), None);
        assert_eq!(
            CYPHER_KNIGHT.could_reach(sq("b1"), sq("c4"), Color::White),
            Some(1)
        );
        assert_eq!(QUEEN.could_reach(sq("d4"), sq("d4"), Color::White), None);
        // A lame leap reaches what its leap does; a hopper needs room for a screen.
        let horse = design("nN");
        assert_eq!(horse.could_reach(sq("b1"), sq("c3"), Color::White), Some(0));
        assert_eq!(horse.could_reach(sq("b1"), sq("d5"), Color::White), None);
        let cannon = design("mRcpR");
        assert_eq!(
            cannon.could_reach(sq("a1"), sq("a2"), Color::White),
            Some(0)
        );
        assert_eq!(
            cannon.could_reach(sq("a1"), sq("a3"), Color::White),
            Some(0)
        );
        assert_eq!(
            design("cpR").could_reach(sq("a1"), sq("a2"), Color::White),
            None
        );
        assert_eq!(
            design("cpR").could_reach(sq("a1"), sq("a3"), Color::White),
            Some(0)
        );
        assert_eq!(
            design("gQ").could_reach(sq("a1"), sq("h8"), Color::White),
            Some(1)
        );
    }

    #[test]
    fn riders_stop_at_the_first_piece_and_capture_only_enemies() {
        let b = board(&[
            ("a1", Color::White, Role::Rook),
            ("a3", Color::Black, Role::Pawn),
            ("c1", Color::White, Role::Pawn),
        ]);
        assert_eq!(names(&b, "a1", &ROOK, Color::White), ["a2", "b1", "xa3"]);
    }

    #[test]
    fn pawns_step_forward_for_their_side_and_capture_diagonally() {
        let b = board(&[
            ("d4", Color::White, Role::Pawn),
            ("e5", Color::Black, Role::Knight),
            ("c3", Color::White, Role::Knight),
        ]);
        assert_eq!(names(&b, "d4", &PAWN, Color::White), ["d5", "xe5"]);
        assert_eq!(names(&b, "d4", &PAWN, Color::Black), ["d3", "xc3"]);
    }

    #[test]
    fn limited_riders_and_hoppers() {
        let b = board(&[
            ("a1", Color::White, Role::Rook),
            ("a4", Color::Black, Role::Pawn),
        ]);
        let r2 = Movement {
            atoms: Cow::Owned(vec![Atom {
                steps: Cow::Borrowed(&WAZIR),
                reach: Reach::Ride(2),
                modality: Modality::Both,
            }]),
        };
        assert_eq!(names(&b, "a1", &r2, Color::White), ["a2", "a3", "b1", "c1"]);
        let b = board(&[
            ("a1", Color::White, Role::Rook),
            ("a3", Color::White, Role::Pawn),
            ("a6", Color::Black, Role::Pawn),
        ]);
        let cannon = Movement {
            atoms: Cow::Owned(vec![
                Atom {
                    steps: Cow::Borrowed(&WAZIR),
                    reach: Reach::Ride(0),
                    modality: Modality::Move,
                },
                Atom {
                    steps: Cow::Borrowed(&WAZIR),
                    reach: Reach::Hop(0),
                    modality: Modality::Capture,
                },
            ]),
        };
        let got = names(&b, "a1", &cannon, Color::White);
        assert!(got.contains(&"xa6".to_string()), "{got:?}");
        assert!(got.contains(&"a2".to_string()) && !got.contains(&"a4".to_string()));
    }

    #[test]
    fn the_attack_table_finds_leapers_riders_and_respects_blockers() {
        let kinds: Vec<(u8, &Movement)> = vec![
            (Piece::new(Color::Black, Role::Rook).code(), &ROOK),
            (Piece::new(Color::Black, Role::Knight).code(), &KNIGHT),
            (Piece::new(Color::Black, Role::Pawn).code(), &PAWN),
        ];
        let table = AttackTable::new(Color::Black, &kinds);
        let b = board(&[
            ("e1", Color::White, Role::King),
            ("e8", Color::Black, Role::Rook),
            ("e4", Color::White, Role::Pawn),
            ("f3", Color::Black, Role::Knight),
            ("d2", Color::Black, Role::Pawn),
        ]);
        let at = |s: &str| Sq::of(Square::new(s.as_bytes()[0] - b'a', s.as_bytes()[1] - b'1'));
        // The knight on f3 attacks e1; the rook is blocked by e4.
        let hit = table
            .attacker(&b, at("e1"), |_| true, |_, _| false)
            .unwrap();
        assert_eq!(hit.from, at("f3"));
        // The rook attacks e6; a pawn on d2 attacks c1 and e1 (Black captures downwards).
        assert_eq!(
            table
                .attacker(&b, at("e6"), |_| true, |_, _| false)
                .map(|h| h.from),
            Some(at("e8"))
        );
        assert_eq!(
            table
                .attacker(&b, at("c1"), |_| true, |_, _| false)
                .map(|h| h.from),
            Some(at("d2"))
        );
        // Seen through the pawn on e4 (as if it were gone), the rook attacks e3; a knight
        // treated as gone does not attack.
        assert_eq!(
            table
                .attacker(&b, at("e3"), |_| true, |s, _| s == at("e4"))
                .map(|h| h.from),
            Some(at("e8"))
        );
        assert_eq!(
            table
                .attacker(&b, at("e1"), |h| h.from != at("f3"), |_, _| false)
                .map(|h| h.from),
            Some(at("d2"))
        );
        assert_eq!(table.attacker(&b, at("h1"), |_| true, |_, _| false), None);
    }

    fn design(text: &str) -> Movement {
        crate::rules::design::movement_of(&text.parse().unwrap())
    }

    fn sq(s: &str) -> Sq {
        Sq::of(Square::new(s.as_bytes()[0] - b'a', s.as_bytes()[1] - b'1'))
    }

    /// Every square the walk visits past blockers, as `square:what`.
    fn walked(b: &Board, from: &str, m: &Movement, c: Color) -> Vec<String> {
        let g = *b.geometry();
        let mut out = Vec::new();
        walk(m, b, sq(from), c, true, |t, l| {
            let what = match l {
                Landing::Empty { moves } => {
                    format!("empty{}", if moves { "" } else { "-only-capture" })
                }
                Landing::Piece { captures, .. } => {
                    format!("piece{}", if captures { "" } else { "-no-capture" })
                }
                Landing::Blocked { by } => format!("blocked-by-{}", g.square_name(by.square())),
            };
            out.push(format!("{}:{what}", g.square_name(t.square())));
        });
        out.sort();
        out
    }

    #[test]
    fn a_lame_leap_is_blocked_by_a_piece_on_its_path() {
        let b = board(&[
            ("e4", Color::White, Role::Knight),
            ("e5", Color::White, Role::Pawn),
            ("f4", Color::Black, Role::Pawn),
            ("d5", Color::Black, Role::Pawn),
        ]);
        // The horse: e5 blocks d6 and f6, f4 blocks g5 and g3; d5 is on no path.
        let horse = design("nN");
        assert_eq!(
            names(&b, "e4", &horse, Color::White),
            ["c3", "c5", "d2", "f2"]
        );
        let w = walked(&b, "e4", &horse, Color::White);
        for blocked in [
            "d6:blocked-by-e5",
            "f6:blocked-by-e5",
            "g5:blocked-by-f4",
            "g3:blocked-by-f4",
        ] {
            assert!(w.contains(&blocked.to_string()), "{w:?}");
        }
        // Without the blockers it is the knight.
        let open = board(&[("e4", Color::White, Role::Knight)]);
        assert_eq!(
            names(&open, "e4", &horse, Color::White),
            names(&open, "e4", &KNIGHT, Color::White)
        );
        // The elephant: the diagonal middle square; the dabbaba and threeleaper: the squares
        // between; the camel (1,3): the two orthogonal squares (0,1), (0,2).
        let b = board(&[("f5", Color::Black, Role::Pawn)]);
        assert_eq!(
            names(&b, "e4", &design("nA"), Color::White),
            ["c2", "c6", "g2"]
        );
        let b = board(&[("e3", Color::White, Role::Pawn)]);
        assert!(names(&b, "e2", &design("fmnD"), Color::White).is_empty());
        assert_eq!(names(&b, "e7", &design("fmnD"), Color::Black), ["e5"]);
        let b = board(&[("e6", Color::White, Role::Pawn)]);
        assert_eq!(
            names(&b, "e4", &design("fnH"), Color::White),
            Vec::<String>::new()
        );
        assert_eq!(
            names(&b, "e4", &design("fnL"), Color::White),
            Vec::<String>::new()
        );
        assert_eq!(names(&b, "e4", &design("fL"), Color::White), ["d7", "f7"]);
        // Captures: a lame leap takes what stands on its destination, never its blocker.
        let b = board(&[("f6", Color::Black, Role::Rook)]);
        assert_eq!(names(&b, "e4", &design("fnN"), Color::White), ["d6", "xf6"]);
    }

    #[test]
    fn a_cannon_hops_exactly_one_screen() {
        let b = board(&[
            ("a1", Color::White, Role::Rook),
            ("a3", Color::White, Role::Pawn),
            ("a6", Color::Black, Role::Pawn),
            ("a8", Color::Black, Role::Knight),
        ]);
        let cannon = design("mRcpR");
        // Moves as a rook; captures only over a3, the first piece beyond (a6), not a8.
        assert_eq!(
            names(&b, "a1", &cannon, Color::White),
            ["a2", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "xa6"]
        );
        // Capture only: no screen on the first rank, nothing to take there.
        assert_eq!(names(&b, "a1", &design("cpR"), Color::White), ["xa6"]);
        // The janggi-style cannon moves beyond its screen too.
        assert_eq!(
            names(&b, "a1", &design("pR"), Color::White),
            ["a4", "a5", "xa6"]
        );
        // The model also holds a hopper of limited range (Betza has none): at most two
        // squares beyond the screen.
        let two = Movement {
            atoms: Cow::Owned(vec![Atom {
                steps: Cow::Borrowed(&WAZIR),
                reach: Reach::Hop(2),
                modality: Modality::Both,
            }]),
        };
        assert_eq!(names(&b, "a1", &two, Color::White), ["a4", "a5"]);
        // Diagonal and both.
        let b = board(&[
            ("c3", Color::White, Role::Pawn),
            ("f6", Color::Black, Role::Pawn),
            ("b2", Color::White, Role::Bishop),
        ]);
        assert_eq!(
            names(&b, "b2", &design("pB"), Color::White),
            ["d4", "e5", "xf6"]
        );
        // From a1 the bishop on b2 is the screen and the own pawn on c3 stops the hop.
        assert!(names(&b, "a1", &design("pQ"), Color::White).is_empty());
        assert_eq!(
            names(&b, "b2", &design("pQ"), Color::White),
            ["d4", "e5", "xf6"]
        );
        // Zero screens: nothing.
        assert!(names(&board(&[]), "a1", &design("pQ"), Color::White).is_empty());
    }

    #[test]
    fn a_grasshopper_lands_right_behind_its_screen() {
        let b = board(&[
            ("d3", Color::White, Role::Pawn),
            ("f3", Color::Black, Role::Pawn),
            ("b1", Color::Black, Role::Pawn),
            ("b3", Color::Black, Role::Pawn),
        ]);
        // Over d3 to d4, over f3 to g4, over b1 to a1; b3 has a4 behind, and c2 before it.
        assert_eq!(
            names(&b, "d1", &design("gQ"), Color::White),
            ["a1", "a4", "d4", "g4"]
        );
        assert_eq!(names(&b, "d1", &design("gR"), Color::White), ["a1", "d4"]);
        assert_eq!(names(&b, "d1", &design("gB"), Color::White), ["a4", "g4"]);
        // It takes the piece right behind the screen, and goes no further.
        let b = board(&[
            ("d3", Color::White, Role::Pawn),
            ("d4", Color::Black, Role::Rook),
        ]);
        assert_eq!(names(&b, "d1", &design("gR"), Color::White), ["xd4"]);
        assert!(!walked(&b, "d1", &design("gR"), Color::White)
            .iter()
            .any(|w| w.starts_with("d5")));
    }

    #[test]
    fn lame_leaps_open_attacks_off_the_rays_and_hoppers_on_them() {
        let horse = design("nN");
        let code = Piece::new(Color::Black, Role::Knight).code();
        let table = AttackTable::new(Color::Black, &[(code, &horse)]);
        assert!(table.has_lame());
        // d3's horse reaches e1 over d2 only.
        let b = board(&[
            ("e1", Color::White, Role::King),
            ("d2", Color::White, Role::Bishop),
            ("d3", Color::Black, Role::Knight),
        ]);
        assert_eq!(table.attacker(&b, sq("e1"), |_| true, |_, _| false), None);
        assert_eq!(table.screens(&b, sq("e1")), Some(vec![sq("d2")]));
        // A bishop treated as gone does not block; emptied, the leap attacks along any line.
        let through = table.attacker(&b, sq("e1"), |_| true, |s, _| s == sq("d2"));
        assert_eq!(through.map(|a| a.from), Some(sq("d3")));
        let mut open = b.clone();
        open.put(sq("d2").square(), None);
        let north = delta(0, 1);
        assert!(table.rides_along(&open, sq("e1"), north));
        let along = table.attacker_along(&open, sq("e1"), north, |_| true, |_, _| false);
        assert_eq!(along.map(|a| a.from), Some(sq("d3")));
        // A cannon's screens: none listed while a cannon stands on a ray from the target.
        let cannon = design("mRcpR");
        let code = Piece::new(Color::Black, Role::Rook).code();
        let table = AttackTable::new(Color::Black, &[(code, &cannon)]);
        let b = board(&[
            ("e1", Color::White, Role::King),
            ("e8", Color::Black, Role::Rook),
        ]);
        assert_eq!(table.screens(&b, sq("e1")), None);
        let b = board(&[
            ("e1", Color::White, Role::King),
            ("d8", Color::Black, Role::Rook),
        ]);
        assert_eq!(table.screens(&b, sq("e1")), Some(vec![]));
    }

    /// Designs for the agreement tests: lame leapers, hoppers, grasshoppers and plain atoms.
    const MIXED: [&str; 12] = [
        "nN", "nA", "fmnDfcF", "nH", "nL", "nZ", "mRcpR", "pB", "gQ", "cpQ", "gR", "N",
    ];

    fn random_board(cells: &[(u8, u8)], ids: &[crate::rules::design::DesignId]) -> Board {
        let g = Geometry::lettered(8, 8);
        let mut b = Board::empty(g);
        for (i, &(kind, colour)) in cells.iter().enumerate() {
            if kind as usize >= ids.len() {
                continue;
            }
            let c = if colour & 1 == 0 {
                Color::White
            } else {
                Color::Black
            };
            b.put(
                Square::new((i % 8) as u8, (i / 8) as u8),
                Some(Piece::designed(c, ids[kind as usize])),
            );
        }
        b
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// The table finds an attack on an occupied square exactly when the walk of some piece
        /// of that colour captures there, and names one of those pieces.
        #[test]
        fn the_attack_table_agrees_with_the_walk(
            cells in proptest::collection::vec((0u8..30, 0u8..2), 64),
            designs in proptest::sample::subsequence(MIXED.to_vec(), 1..=MIXED.len()),
        ) {
            use crate::rules::design::intern;
            let ids: Vec<_> = designs.iter().map(|d| intern(d).unwrap()).collect();
            let b = random_board(&cells, &ids);
            for color in Color::ALL {
                let kinds: Vec<(u8, &Movement)> = ids
                    .iter()
                    .map(|&d| (Piece::designed(color, d).code(), d.movement()))
                    .collect();
                let table = AttackTable::new(color, &kinds);
                let mut walked_hits: Vec<(Sq, Sq)> = Vec::new();
                for i in 0..64u8 {
                    let from = Sq::of(Square::new(i % 8, i / 8));
                    let c = b.cell(from);
                    let Some(&(_, m)) = kinds.iter().find(|k| k.0 == c) else { continue };
                    walk(m, &b, from, color, false, |t, l| {
                        if let Landing::Piece { captures: true, .. } = l {
                            walked_hits.push((t, from));
                        }
                    });
                }
                for i in 0..64u8 {
                    let t = Sq::of(Square::new(i % 8, i / 8));
                    if b.cell(t) == crate::rules::board::cell::EMPTY {
                        continue;
                    }
                    let hit = table.attacker(&b, t, |_| true, |_, _| false);
                    let by_walk: Vec<Sq> =
                        walked_hits.iter().filter(|h| h.0 == t).map(|h| h.1).collect();
                    proptest::prop_assert_eq!(hit.is_some(), !by_walk.is_empty(), "{:?} {:?}", color, t);
                    if let Some(h) = hit {
                        proptest::prop_assert!(by_walk.contains(&h.from));
                    }
                    // Screens: where they are listed and `t` is not attacked, emptying any other
                    // occupied square not listed leaves `t` unattacked.
                    if hit.is_none() {
                        if let Some(screens) = table.screens(&b, t) {
                            for j in 0..64u8 {
                                let x = Sq::of(Square::new(j % 8, j / 8));
                                if x == t || screens.contains(&x) || b.cell(x) == crate::rules::board::cell::EMPTY {
                                    continue;
                                }
                                let mut emptied = b.clone();
                                emptied.put(x.square(), None);
                                proptest::prop_assert!(
                                    table.attacker(&emptied, t, |_| true, |_, _| false).is_none(),
                                    "emptying {:?} opens {:?}", x, t
                                );
                            }
                            // Nor does filling an empty square (a new screen for a hopper).
                            for j in 0..64u8 {
                                let y = Sq::of(Square::new(j % 8, j / 8));
                                if b.cell(y) != crate::rules::board::cell::EMPTY {
                                    continue;
                                }
                                let mut filled = b.clone();
                                filled.put(y.square(), Some(Piece::new(Color::White, Role::Pawn)));
                                proptest::prop_assert!(
                                    table.attacker(&filled, t, |_| true, |_, _| false).is_none(),
                                    "filling {:?} opens {:?}", y, t
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
