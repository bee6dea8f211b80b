//! Pieces as data: how a piece kind moves and captures, as a list of atoms, and the one attack
//! test every variant shares.
//!
//! An [`Atom`] is a set of step vectors (written for White: a positive rank step is forward;
//! Black's are turned half round, so a piece's left is its owner's left), how far the piece goes along each (a single leap, a ride of any or a
//! limited length, or a cannon-like hop over one screen), and whether the atom moves, captures
//! or both. A [`Movement`] is a list of atoms; the orthodox pieces are defined this way
//! ([`KING`], [`QUEEN`], ...), and so is any designed piece.
//!
//! [`AttackTable`] turns the movements of the pieces that may attack into reverse lookups from
//! the attacked square: the cells a leaper would stand on, and the rays along which a rider
//! would be the first piece. A variant adds its own conditions (zones, transparent pieces)
//! through the `admit` and `passes` callbacks of [`AttackTable::attacker`], so the geometry is
//! written once. The orthodox chess generator keeps a specialised attack test for speed; the
//! tests check it against this one.

use std::borrow::Cow;

use super::board::{delta, Board, Sq, Square};
use super::piece::{Color, Piece, Role};

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
    /// Repeated steps over empty squares: at most this many, 0 for no limit.
    Ride(u8),
    /// Like a ride, but it first jumps exactly one piece, the screen, anywhere along the line,
    /// and then moves to an empty square or captures the first piece beyond (Betza `p` on a
    /// rider; Xiangqi's cannon is a rider that moves and a hopper that captures).
    Hop,
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
    for a in movement.atoms.iter() {
        for &step in a.steps.iter() {
            let d = offset(step, color);
            let mut t = from.offset(d);
            let mut n = 0u8;
            let mut blocker: Option<Sq> = None;
            // A hopper's first piece on the line is its screen, not a target.
            let mut screened = a.reach != Reach::Hop;
            loop {
                let c = board.cell(t);
                if c == WALL {
                    break;
                }
                n = n.saturating_add(1);
                if !screened {
                    screened = c != EMPTY;
                } else if let Some(by) = blocker {
                    visit(t, Landing::Blocked { by });
                } else if c == EMPTY {
                    visit(
                        t,
                        Landing::Empty {
                            moves: a.modality.moves(),
                        },
                    );
                } else {
                    visit(
                        t,
                        Landing::Piece {
                            code: c,
                            captures: a.modality.captures(),
                        },
                    );
                    blocker = Some(t);
                }
                let done = match a.reach {
                    Reach::Leap => true,
                    Reach::Ride(limit) => limit != 0 && n >= limit,
                    Reach::Hop => false,
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
                        Reach::Leap => k == 1,
                        Reach::Ride(limit) => limit == 0 || k <= limit as i32,
                        Reach::Hop => k >= 2,
                    }
            })
        })
    }
}

/// A leap that attacks the square it is looked up from: a piece `code` standing `offset`
/// away attacks by its atom `atom`.
#[derive(Clone, Copy, Debug)]
struct LeapEntry {
    offset: i32,
    code: u8,
    atom: u8,
}

/// A piece that attacks along a ray when it is the first piece met from the attacked square.
#[derive(Clone, Copy, Debug)]
struct RideEntry {
    code: u8,
    atom: u8,
    /// 0 for no limit.
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
}

/// The squares an attack on a square can come from, for one attacking side, built from the
/// movements of its piece kinds (capturing atoms only).
#[derive(Clone, Debug, Default)]
pub struct AttackTable {
    leaps: Vec<LeapEntry>,
    rays: Vec<Ray>,
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
                    let back = if symmetric {
                        delta(step.0 as i32, step.1 as i32)
                    } else if sideways && color == Color::Black {
                        -delta(step.0 as i32, -(step.1 as i32))
                    } else {
                        -offset(step, color)
                    };
                    match a.reach {
                        Reach::Leap => table.leaps.push(LeapEntry {
                            offset: back,
                            code,
                            atom: i as u8,
                        }),
                        Reach::Ride(range) => table.ray(
                            back,
                            RideEntry {
                                code,
                                atom: i as u8,
                                range,
                                hop: false,
                            },
                        ),
                        Reach::Hop => table.ray(
                            back,
                            RideEntry {
                                code,
                                atom: i as u8,
                                range: 0,
                                hop: true,
                            },
                        ),
                    }
                }
            }
        }
        table
    }

    /// The pieces that alone stand between `target` and a rider of this table on one of its
    /// rays: the only pieces whose leaving could open an attack on `target` (a pinned piece,
    /// whichever side it is on). `None` when a rider hops, since then a piece that moves can
    /// also open an attack by becoming or ceasing to be a screen. Conservative: a rider's
    /// range is not counted.
    pub fn screens(&self, board: &Board, target: Sq) -> Option<Vec<Sq>> {
        use super::board::cell::{EMPTY, WALL};
        let mut out = Vec::new();
        for ray in &self.rays {
            if ray.hops {
                return None;
            }
            let mut s = target.offset(ray.dir);
            while board.cell(s) == EMPTY {
                s = s.offset(ray.dir);
            }
            if board.cell(s) == WALL {
                continue;
            }
            let first = s;
            s = s.offset(ray.dir);
            while board.cell(s) == EMPTY {
                s = s.offset(ray.dir);
            }
            let c = board.cell(s);
            if c != WALL && ray.codes[c as usize >> 6] & (1 << (c & 63)) != 0 {
                out.push(first);
            }
        }
        Some(out)
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
                });
                self.rays.len() - 1
            }
        };
        let ray = &mut self.rays[i];
        ray.codes[entry.code as usize >> 6] |= 1 << (entry.code & 63);
        ray.hops |= entry.hop;
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
            let from = target.offset(e.offset);
            let c = board.cell(from);
            if c == e.code {
                let hit = Attack {
                    from,
                    code: c,
                    atom: e.atom,
                };
                if admit(hit) {
                    return Some(hit);
                }
            }
        }
        for ray in &self.rays {
            if let Some(hit) = Self::ray_attacker(ray, board, target, &mut admit, &mut passes) {
                return Some(hit);
            }
        }
        None
    }

    /// [`Self::attacker`] on the rays leaving `target` in direction `dir` only (no leaps): the
    /// only attacks that emptying a square in that direction can open, for a caller that
    /// knows `target` was not attacked before.
    #[inline]
    pub fn attacker_along(
        &self,
        board: &Board,
        target: Sq,
        dir: i32,
        mut admit: impl FnMut(Attack) -> bool,
        mut passes: impl FnMut(Sq, u8) -> bool,
    ) -> Option<Attack> {
        self.rays
            .iter()
            .filter(|r| r.dir == dir)
            .find_map(|ray| Self::ray_attacker(ray, board, target, &mut admit, &mut passes))
    }

    /// Whether a rider or hopper of this table stands anywhere on the rays leaving `target` in
    /// direction `dir`, whatever stands between: where none does, no move that empties
    /// squares there can open an attack on `target`.
    pub fn rides_along(&self, board: &Board, target: Sq, dir: i32) -> bool {
        use super::board::cell::{EMPTY, WALL};
        self.rays.iter().filter(|r| r.dir == dir).any(|ray| {
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
                    if e.code == c && e.hop == screened && (e.range == 0 || n <= e.range) {
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
        }
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
                    reach: Reach::Hop,
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
}
