//! A position of a defined variant, its moves and how they are played. Every component of the
//! definition takes part here once: the generator produces what a component allows, and the
//! legality test asks the components that forbid.

use std::hash::{Hash, Hasher};
use std::sync::Mutex;

use super::compile::{Compiled, KindSet};
use crate::definition::fen;
use crate::definition::model::Cell;
use crate::definition::model::{Safety, Timing, Value};
use crate::rules::board::{cell, Board, Sq, Square};
use crate::rules::movement::{destinations, offset, Reach, KING_STEPS};
use crate::rules::piece::Color;
use crate::rules::SetupError;

/// What is special about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    None,
    /// A double (or triple) step: the squares passed over become en passant targets.
    Step,
    /// An en passant capture of the piece on `victim`.
    EnPassant {
        victim: Sq,
    },
    /// Castling with the rook on `rook`; `side` 0 is queenside, 1 kingside.
    Castle {
        rook: Sq,
        side: u8,
    },
}

/// Which component forbids a move, as [`Position::forbidder`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forbid {
    /// `checked-royal-captures`: a royal piece in check moved without taking a checker.
    CheckedRoyal,
    /// `explosion`: the capture blew up the mover's own royal piece.
    OwnRoyalExploded,
    /// `check`: a royal piece of the mover is left attacked.
    Check,
    /// `no-giving-check`: the move gives check.
    GivesCheck,
}

/// Why castling to one side is not generated, as [`Position::castlings_judged`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastleBar {
    /// No right to castle on that side is left.
    Rights,
    /// A square between the king and the rook, or where they go, is occupied.
    Blocked,
    /// The king is in check.
    OutOfCheck,
    /// The king would pass over an attacked square.
    ThroughCheck,
}

/// A move of a defined variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Sq,
    pub to: Sq,
    /// The kind promoted into, plus one; 0 for none.
    pub promo: u8,
    pub special: Special,
}

impl Move {
    pub fn promotion(self) -> Option<usize> {
        (self.promo > 0).then(|| self.promo as usize - 1)
    }
}

/// A position: the board, whose turn, castling rights, en passant squares, clocks and checks.
#[derive(Clone)]
pub struct Position {
    pub c: &'static Compiled,
    pub board: Board,
    pub turn: Color,
    /// Files of the rooks each side may still castle with.
    pub castle: [u16; 2],
    /// Files of each side's first-rank squares whose pieces keep a first-move right.
    pub gates: [u16; 2],
    /// Squares a double step passed over on the last move, and the piece that made it.
    pub ep: [Option<Sq>; 2],
    pub ep_victim: Option<Sq>,
    pub halfmove: u32,
    pub fullmove: u32,
    /// Checks given by each side.
    pub checks: [u8; 2],
    /// How many pieces of each kind each side has, for extinction and promotion limits.
    pub counts: [[u16; 64]; 2],
    /// The counts of the start position, for `captured-only` promotions.
    pub start_counts: &'static [[u16; 64]; 2],
    /// The definition's movements laid out for the generator.
    gen: &'static Gen,
}

/// One step vector of a leaping or riding atom, as the generator walks it for one side.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// The mailbox offset of one step.
    delta: i32,
    /// The most steps taken: 1 for a leap, 0 for no limit.
    limit: u8,
    moves: bool,
    captures: bool,
}

/// The movements of a compiled definition laid out for the generator, built once per
/// definition and readings ([`gen_for`]).
struct Gen {
    /// By side, then kind: its steps in atom and step order, or `None` for a kind with a lame
    /// or hopping atom, which the shared walk ([`destinations`]) generates.
    lines: [Vec<Option<Vec<Line>>>; 2],
    /// The kinds some promotion component names.
    promoting: KindSet,
}

impl Gen {
    fn new(c: &Compiled) -> Gen {
        let lines = Color::ALL.map(|color| {
            c.kinds
                .iter()
                .map(|k| {
                    // Atoms that reach one square twice take the shared walk, which makes one
                    // move of them.
                    if k.overlaps {
                        return None;
                    }
                    let mut out = Vec::new();
                    for a in k.movement.atoms.iter() {
                        let limit = match a.reach {
                            Reach::Leap => 1,
                            Reach::Ride(n) => n,
                            Reach::Lame | Reach::Hop(_) => return None,
                        };
                        for &step in a.steps.iter() {
                            out.push(Line {
                                delta: offset(step, color),
                                limit,
                                moves: a.modality.moves(),
                                captures: a.modality.captures(),
                            });
                        }
                    }
                    Some(out)
                })
                .collect()
        });
        let promoting = KindSet(c.promotions.iter().fold(0, |acc, p| acc | p.kinds.0));
        Gen { lines, promoting }
    }
}

/// The generator's layout of `c`, built on first use: a compiled definition lives for the run
/// (it is leaked), so its address names it, and the layouts are bounded by the definitions and
/// readings a run compiles.
fn gen_for(c: &'static Compiled) -> &'static Gen {
    static GENS: Mutex<Vec<(usize, &'static Gen)>> = Mutex::new(Vec::new());
    let key = c as *const Compiled as usize;
    let mut gens = GENS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, g)) = gens.iter().find(|(k, _)| *k == key) {
        return g;
    }
    let g: &'static Gen = Box::leak(Box::new(Gen::new(c)));
    gens.push((key, g));
    g
}

/// The rank `r` (from 0) counted from `color`'s own edge of the board.
fn rank_of(c: &Compiled, color: Color, r: u8) -> u8 {
    match color {
        Color::White => r,
        Color::Black => c.geometry.ranks - 1 - r,
    }
}

/// The rank `color` castles on.
fn back_rank(c: &Compiled, color: Color) -> u8 {
    rank_of(c, color, c.castling.as_ref().map_or(0, |k| k.rank))
}

impl Position {
    /// Reads a FEN in Fairy-Stockfish's conventions.
    pub fn read_fen(
        c: &'static Compiled,
        text: &str,
        start_counts: &'static [[u16; 64]; 2],
    ) -> Result<Position, SetupError> {
        let g = c.geometry;
        let letters = c.letters();
        let holes: Vec<Cell> = c
            .holes
            .iter()
            .map(|s| Cell {
                file: s.file,
                rank: s.rank,
            })
            .collect();
        let shape = fen::Shape {
            files: g.files,
            ranks: g.ranks,
            holes: &holes,
            letters: &letters,
        };
        let fen = fen::parse_with_designs(text.trim(), &shape)
            .map_err(|e| SetupError::fen(e.to_string()))?;
        let mut board = Board::empty(g);
        for h in &c.holes {
            board.remove_square(*h);
        }
        let mut counts = [[0u16; 64]; 2];
        for sq in g.squares() {
            let cell = Cell {
                file: sq.file,
                rank: sq.rank,
            };
            if let Some((color, kind)) = c.kind_placed(fen.at(cell))? {
                counts[color.index()][kind] += 1;
                board.put(sq, Some(c.piece(color, kind)));
            }
        }
        let mut pos = Position {
            c,
            board,
            turn: fen.side,
            castle: [0, 0],
            gates: [0, 0],
            ep: [None, None],
            ep_victim: None,
            halfmove: fen.halfmove,
            fullmove: fen.fullmove.max(1),
            checks: [0, 0],
            counts,
            start_counts,
            gen: gen_for(c),
        };
        pos.read_castling(&fen.castling);
        pos.read_en_passant(&fen.en_passant);
        match (fen.checks, c.check_count) {
            (Some(fen::CheckCounters::Given(given)), _) => {
                pos.checks = given.map(|n| n.min(255) as u8);
            }
            (Some(fen::CheckCounters::Remaining(left)), Some((_, n))) => {
                pos.checks = left.map(|l| (n as u32).saturating_sub(l) as u8);
            }
            _ => {}
        }
        Ok(pos)
    }

    /// En passant squares as Fairy-Stockfish writes them: the squares a double step passed
    /// (empty: where a capturer goes) and, for some pieces, the square it stopped on (the
    /// piece taken). A single empty square names the piece beyond it, as in orthodox FENs.
    fn read_en_passant(&mut self, squares: &[Cell]) {
        let them = self.turn.other();
        let mut targets = Vec::new();
        let mut victim = None;
        for cell in squares {
            let sq = Sq::of(Square::new(cell.file, cell.rank));
            if self.board.cell(sq) == cell::EMPTY {
                targets.push(sq);
            } else if self.mine(self.board.cell(sq), them) {
                victim = Some(sq);
            }
        }
        if victim.is_none() {
            let fwd = offset((0, 1), them);
            victim = targets.iter().map(|t| t.offset(fwd)).find(|v| {
                !targets.contains(v)
                    && !board_is_wall(&self.board, *v)
                    && self.mine(self.board.cell(*v), them)
            });
        }
        if victim.is_some() && !targets.is_empty() {
            for (i, t) in targets.iter().take(2).enumerate() {
                self.ep[i] = Some(*t);
            }
            self.ep_victim = victim;
        }
    }

    fn read_castling(&mut self, rights: &[fen::CastlingRight]) {
        // Without castling, file letters are first-move rights (Fairy-Stockfish's gates).
        if !self.c.first_moves.is_empty() {
            for right in rights {
                if let fen::RookRef::File(f) = right.rook {
                    if self.c.castling.is_none() && f < self.c.geometry.files {
                        self.gates[right.color.index()] |= 1 << f;
                    }
                }
            }
        }
        let Some(castling) = &self.c.castling else {
            return;
        };
        for right in rights {
            let color = right.color;
            let rank = back_rank(self.c, color);
            let Some(king) = self.king_file(color) else {
                continue;
            };
            let is_rook = |f: u8| {
                let code = self.board.cell(Sq::of(Square::new(f, rank)));
                self.mine(code, color)
                    && self.c.kind_at(code).is_some_and(|k| castling.rooks.has(k))
            };
            let files = self.c.geometry.files;
            let [qfrom, kfrom] = castling.rooks_from.unwrap_or([0, files - 1]);
            let file = match right.rook {
                fen::RookRef::Kingside => (king + 1..=kfrom.min(files - 1))
                    .rev()
                    .find(|&f| is_rook(f)),
                fen::RookRef::Queenside => (qfrom..king).find(|&f| is_rook(f)),
                fen::RookRef::File(f) => (f < files && is_rook(f)).then_some(f),
            };
            if let Some(f) = file {
                self.castle[color.index()] |= 1 << f;
            }
        }
    }

    /// The file of `color`'s castling king on its first rank.
    fn king_file(&self, color: Color) -> Option<u8> {
        let castling = self.c.castling.as_ref()?;
        let rank = back_rank(self.c, color);
        let king = self.c.piece(color, castling.king).code();
        (0..self.c.geometry.files).find(|&f| self.board.cell(Sq::of(Square::new(f, rank))) == king)
    }

    /// The FEN of the position, in Fairy-Stockfish's conventions.
    pub fn fen(&self) -> String {
        let g = self.c.geometry;
        let mut out = String::new();
        for rank in (0..g.ranks).rev() {
            let mut empty = 0;
            for file in 0..g.files {
                let sq = Square::new(file, rank);
                let ch = if self.c.holes.contains(&sq) {
                    Some('*')
                } else {
                    self.board.get(sq).map(|p| p.fen_char())
                };
                match ch {
                    None => empty += 1,
                    Some(ch) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        match self.board.get(sq).filter(|p| p.design().is_some()) {
                            Some(p) => out.push_str(&p.fen_text()),
                            None => out.push(ch),
                        }
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.turn == Color::White {
            " w "
        } else {
            " b "
        });
        let mut rights = String::new();
        for color in Color::ALL {
            let king = self.king_file(color).unwrap_or(0);
            let mut files: Vec<u8> = (0..16)
                .filter(|f| self.castle[color.index()] >> f & 1 != 0)
                .collect();
            files.sort_by_key(|&f| std::cmp::Reverse(f));
            for f in files {
                let letter = if f > king { 'K' } else { 'Q' };
                let ch = if self.c.castling.as_ref().is_some_and(|c| c.chess960) {
                    (b'A' + f) as char
                } else {
                    letter
                };
                rights.push(if color == Color::White {
                    ch
                } else {
                    ch.to_ascii_lowercase()
                });
            }
        }
        // Without castling the field holds the first-move rights, by file (as read).
        if self.c.castling.is_none() {
            for color in Color::ALL {
                for f in (0..g.files).filter(|f| self.gates[color.index()] >> f & 1 != 0) {
                    let ch = (b'A' + f) as char;
                    rights.push(if color == Color::White {
                        ch
                    } else {
                        ch.to_ascii_lowercase()
                    });
                }
            }
        }
        out.push_str(if rights.is_empty() { "-" } else { &rights });
        out.push(' ');
        match self.ep[0] {
            Some(sq) => out.push_str(&g.square_name(sq.square())),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        if self.c.check_count.is_some() {
            out.push_str(&format!(" +{}+{}", self.checks[0], self.checks[1]));
        }
        out
    }

    #[inline]
    fn mine(&self, code: u8, color: Color) -> bool {
        is_of(code, color)
    }

    /// Whether a piece of `by` attacks `target` (could capture there).
    pub fn attacked(&self, target: Sq, by: Color) -> bool {
        attacked_on(self.c, &self.board, target, by)
    }

    /// The squares of `color`'s royal pieces.
    pub fn royals(&self, color: Color) -> impl Iterator<Item = Sq> + '_ {
        self.c
            .squares
            .iter()
            .copied()
            .filter(move |&sq| royal_of(self.c, self.board.cell(sq), color))
    }

    /// Whether `color` has a royal piece attacked.
    pub fn royal_attacked(&self, color: Color) -> bool {
        self.royals(color)
            .any(|sq| self.attacked(sq, color.other()))
    }

    pub(super) fn royal_count(&self, color: Color) -> u32 {
        (0..self.c.kinds.len())
            .filter(|&k| self.c.royal.has(k))
            .map(|k| self.counts[color.index()][k] as u32)
            .sum()
    }

    /// Whether the side to move is in check; `None` in a variant without a check rule.
    pub fn in_check(&self) -> Option<bool> {
        self.c.check.map(|_| self.royal_attacked(self.turn))
    }

    /// Appends the moves the pieces' movements and the generating components allow, before
    /// any component forbids one.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        self.generate(out, &mut Royals::default());
    }

    /// [`Self::pseudo_moves`], noting on the way the squares of the mover's royal pieces.
    fn generate(&self, out: &mut Vec<Move>, royals: &mut Royals) {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        let lines = &self.gen.lines[us.index()];
        for &from in &c.squares {
            let code = self.board.cell(from);
            if !self.mine(code, us) {
                continue;
            }
            let Some(kind) = c.kind_at(code) else {
                continue;
            };
            if c.royal.has(kind) {
                royals.push(from);
            }
            let first = out.len();
            match &lines[kind] {
                Some(lines) => self.walk_lines(out, lines, kind, from),
                None => {
                    let k = &c.kinds[kind];
                    destinations(
                        &k.movement,
                        &self.board,
                        from,
                        us,
                        |t| self.mine(t, them),
                        |to, _| {
                            // Two atoms reaching one square make one move.
                            if !k.overlaps || !out[first..].iter().any(|m| m.to == to) {
                                self.push(out, kind, from, to, Special::None)
                            }
                        },
                    )
                }
            }
            if c.replaced(kind, us, from).is_some() {
                out.truncate(first);
            }
            for rm in &c.region_moves {
                if !rm.kinds.has(kind) || !rm.region[us.index()].has(from) {
                    continue;
                }
                destinations(
                    &rm.movement,
                    &self.board,
                    from,
                    us,
                    |t| self.mine(t, them),
                    |to, _| {
                        if !out[first..].iter().any(|m| m.to == to) {
                            self.push(out, kind, from, to, Special::None)
                        }
                    },
                );
            }
            if let Some(region) = c.confine_of(kind, us) {
                let mut kept = first;
                for i in first..out.len() {
                    if region.has(out[i].to) {
                        out[kept] = out[i];
                        kept += 1;
                    }
                }
                out.truncate(kept);
            }
            for ds in &c.double_steps {
                if !ds.kinds.has(kind) || !ds.region[us.index()].has(from) {
                    continue;
                }
                if let Some(m) = &ds.movement {
                    destinations(
                        m,
                        &self.board,
                        from,
                        us,
                        |_| false,
                        |to, _| self.push(out, kind, from, to, Special::Step),
                    );
                    continue;
                }
                let fwd = offset((0, 1), us);
                let mut t = from;
                for n in 1..=ds.steps {
                    t = t.offset(fwd);
                    if self.board.cell(t) != cell::EMPTY {
                        break;
                    }
                    if n >= 2 {
                        self.push(out, kind, from, t, Special::Step);
                    }
                }
            }
            if let (Some(ep), Some(victim)) = (&c.en_passant, self.ep_victim) {
                if ep.kinds.has(kind) {
                    let region = &ep.region[us.index()];
                    for target in self.ep.iter().flatten() {
                        if (region.is_empty() || region.has(*target))
                            && self.captures_onto(kind, from, *target)
                        {
                            self.push(out, kind, from, *target, Special::EnPassant { victim });
                        }
                    }
                }
            }
            if c.bars_moves() {
                self.drop_barred(out, first, kind, from);
            }
        }
        self.first_moves(out);
        self.castlings(out);
    }

    /// The moves of a piece of `kind` on `from` along its leaping and riding lines, in the
    /// order of the shared walk ([`destinations`]).
    #[inline]
    fn walk_lines(&self, out: &mut Vec<Move>, lines: &[Line], kind: usize, from: Sq) {
        let them = self.turn.other();
        let plain = !self.gen.promoting.has(kind);
        for l in lines {
            let mut t = from;
            let mut n = 0u8;
            loop {
                t = t.offset(l.delta);
                let code = self.board.cell(t);
                let to = if code == cell::EMPTY {
                    l.moves
                } else {
                    l.captures && self.mine(code, them)
                };
                if to {
                    if plain {
                        out.push(Move {
                            from,
                            to: t,
                            promo: 0,
                            special: Special::None,
                        });
                    } else {
                        self.push(out, kind, from, t, Special::None);
                    }
                }
                n += 1;
                if code != cell::EMPTY || n == l.limit {
                    break;
                }
            }
        }
    }

    /// The first moves of pieces on squares that keep their right.
    fn first_moves(&self, out: &mut Vec<Move>) {
        let us = self.turn;
        let gates = self.gates[us.index()];
        if gates == 0 {
            return;
        }
        let rank = rank_of(self.c, us, 0);
        let mut checked = None;
        for fm in &self.c.first_moves {
            for f in 0..self.c.geometry.files {
                if gates >> f & 1 == 0 {
                    continue;
                }
                let from = Sq::of(Square::new(f, rank));
                let code = self.board.cell(from);
                let Some(kind) = self.c.kind_at(code) else {
                    continue;
                };
                if !self.mine(code, us) || !fm.kinds.has(kind) {
                    continue;
                }
                if !fm.in_check && *checked.get_or_insert_with(|| self.royal_attacked(us)) {
                    continue;
                }
                destinations(
                    &fm.movement,
                    &self.board,
                    from,
                    us,
                    |_| false,
                    |to, _| {
                        if !out.iter().any(|m| m.from == from && m.to == to) {
                            self.push(out, kind, from, to, Special::None)
                        }
                    },
                );
            }
        }
    }

    /// Whether a piece of `kind` on `from` could capture on the empty square `target`.
    fn captures_onto(&self, kind: usize, from: Sq, target: Sq) -> bool {
        let mut board = self.board.clone();
        let them = self.turn.other();
        board.set_cell(target, self.c.piece(them, 0).code());
        let mut hit = false;
        destinations(
            &self.c.kinds[kind].movement,
            &board,
            from,
            self.turn,
            |t| self.mine(t, them),
            |to, capture| hit |= capture && to == target,
        );
        hit
    }

    /// Pushes a move of a piece of `kind`, as each promotion it may or must make.
    fn push(&self, out: &mut Vec<Move>, kind: usize, from: Sq, to: Sq, special: Special) {
        let us = self.turn;
        let plain = Move {
            from,
            to,
            promo: 0,
            special,
        };
        let promotion = self.gen.promoting.has(kind).then(|| {
            self.c
                .promotions
                .iter()
                .find(|p| p.kinds.has(kind) && p.region[us.index()].has(to))
        });
        let Some(p) = promotion.flatten() else {
            out.push(plain);
            return;
        };
        for &into in &p.into[us.index()] {
            let have = self.counts[us.index()][into];
            if p.captured_only && have >= self.start_counts[us.index()][into] {
                continue;
            }
            if p.limits
                .iter()
                .any(|&(k, n)| k == into && have >= u16::from(n))
            {
                continue;
            }
            out.push(Move {
                promo: into as u8 + 1,
                ..plain
            });
        }
        if !p.mandatory && self.could_move_from(kind, to) {
            out.push(plain);
        }
    }

    /// Whether a piece of `kind` standing on `sq` would have any square to go to on an empty
    /// board: a piece that would not may not stay unpromoted there.
    fn could_move_from(&self, kind: usize, sq: Sq) -> bool {
        self.c.kinds[kind].movement.atoms.iter().any(|a| {
            a.steps
                .iter()
                .any(|&s| !board_is_wall(&self.board, sq.offset(offset(s, self.turn))))
        })
    }

    fn castlings(&self, out: &mut Vec<Move>) {
        self.castlings_judged(out, |_, _| {});
    }

    /// Appends the castlings the castling component allows, and tells `barred` for each side
    /// (0 queenside, 1 kingside) it bars and why.
    #[inline]
    pub fn castlings_judged(&self, out: &mut Vec<Move>, mut barred: impl FnMut(u8, CastleBar)) {
        let Some(castling) = &self.c.castling else {
            return;
        };
        let us = self.turn;
        let rights = self.castle[us.index()];
        let Some(kf) = self.king_file(us).filter(|_| rights != 0) else {
            barred(0, CastleBar::Rights);
            barred(1, CastleBar::Rights);
            return;
        };
        for side in 0..2u8 {
            let files = if side == 1 {
                u32::from(rights) >> (kf + 1)
            } else {
                u32::from(rights) & ((1u32 << kf) - 1)
            };
            if files == 0 {
                barred(side, CastleBar::Rights);
            }
        }
        let rank = back_rank(self.c, us);
        let at = |f: u8| Sq::of(Square::new(f, rank));
        let ks = at(kf);
        let guarded = self.c.check.is_some() && self.c.royal.has(castling.king);
        for rf in 0..self.c.geometry.files {
            if rights >> rf & 1 == 0 {
                continue;
            }
            let side = u8::from(rf > kf);
            let kto = castling.king_to[side as usize];
            let rto = castling.rook_to[side as usize];
            let lo = kf.min(rf).min(kto).min(rto);
            let hi = kf.max(rf).max(kto).max(rto);
            if (lo..=hi).any(|f| f != kf && f != rf && self.board.cell(at(f)) != cell::EMPTY) {
                barred(side, CastleBar::Blocked);
                continue;
            }
            // A royal king may not castle out of check, nor pass over an attacked square;
            // where it lands the legality test looks, with the rook moved. A king that is not
            // royal castles through attacks. The origin is looked at even when the king stays
            // on it (Chess960): castling out of check is never allowed. The squares it passes
            // are looked at with the king lifted off its origin, as it will have left it: a
            // king that is safe where it stands (atomic: next to the enemy king) may still be
            // attacked through that square on its way.
            let them = us.other();
            let (a, b) = (kf.min(kto), kf.max(kto));
            if guarded {
                if self.attacked(ks, them) {
                    barred(side, CastleBar::OutOfCheck);
                    continue;
                }
                let mut lifted = self.board.clone();
                lifted.set_cell(ks, cell::EMPTY);
                let c = self.c;
                if (a..=b).any(|f| f != kto && f != kf && attacked_on(c, &lifted, at(f), them)) {
                    barred(side, CastleBar::ThroughCheck);
                    continue;
                }
            }
            out.push(Move {
                from: ks,
                to: at(kto),
                promo: 0,
                special: Special::Castle { rook: at(rf), side },
            });
        }
    }

    /// Plays a move, legal or not (the judge plays each move it judges).
    pub fn apply(&mut self, m: Move) {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        let moving = self.board.cell(m.from);
        let kind = c.kind_at(moving).unwrap_or(0);
        let mut changes = Changes::default();
        let captured = play_on(c, &mut self.board, us, m, &mut changes);
        for &(_, old, new) in changes.list() {
            if let Some(k) = c.kind_at(old) {
                self.counts[(old & 1) as usize][k] -= 1;
            }
            if let Some(k) = c.kind_at(new) {
                self.counts[(new & 1) as usize][k] += 1;
            }
        }
        // Castling rights go with a king that moved and with rooks no longer at home.
        if let Some(castling) = &c.castling {
            if kind == castling.king && c.kind_at(moving).is_some() {
                self.castle[us.index()] = 0;
            }
            for color in Color::ALL {
                let rank = back_rank(c, color);
                let mut rights = self.castle[color.index()];
                // Rights hold a king and rooks at home on the castling rank: only a change
                // there can take one.
                if rights == 0 || !changes.list().iter().any(|e| e.0.square().rank == rank) {
                    continue;
                }
                if self.king_file(color).is_none() {
                    rights = 0;
                }
                for f in 0..16u8 {
                    if rights >> f & 1 == 0 {
                        continue;
                    }
                    let sq = Sq::of(Square::new(f, rank));
                    let code = self.board.cell(sq);
                    let home = self.mine(code, color)
                        && c.kind_at(code).is_some_and(|k| castling.rooks.has(k));
                    if !home
                        || (sq == m.from || sq == m.to)
                            && !matches!(m.special, Special::Castle { .. })
                    {
                        rights &= !(1 << f);
                    }
                }
                self.castle[color.index()] = rights;
            }
        }
        self.ep = [None, None];
        self.ep_victim = None;
        if m.special == Special::Step && c.en_passant.is_some() {
            // The squares passed over: the whole steps between the two ends.
            let (a, b) = (m.from.square(), m.to.square());
            let (df, dr) = (b.file as i32 - a.file as i32, b.rank as i32 - a.rank as i32);
            let g = gcd(df.unsigned_abs(), dr.unsigned_abs()) as i32;
            if g > 1 {
                let step = crate::rules::board::delta(df / g, dr / g);
                for i in 1..g.min(3) {
                    self.ep[i as usize - 1] = Some(m.from.offset(step * i));
                }
                self.ep_victim = Some(m.to);
            }
        }
        if self.gates != [0, 0] {
            self.update_gates(m, us);
        }
        let pawn = c.kinds[kind].pawn;
        self.halfmove = if captured || pawn {
            0
        } else {
            self.halfmove + 1
        };
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.turn = them;
        if c.check_count.is_some() && self.royal_attacked(them) {
            self.checks[us.index()] = self.checks[us.index()].saturating_add(1);
        }
    }

    /// First-move rights go when a piece leaves their square or is captured there, and a
    /// royal piece's when an enemy piece of the named kinds stops on its rank or file.
    fn update_gates(&mut self, m: Move, us: Color) {
        let c = self.c;
        let them = us.other();
        for color in Color::ALL {
            let rank = rank_of(c, color, 0);
            for f in 0..c.geometry.files {
                let sq = Sq::of(Square::new(f, rank));
                if sq == m.from || sq == m.to && color == them {
                    self.gates[color.index()] &= !(1 << f);
                }
            }
        }
        let Some(mover) = c.kind_at(self.board.cell(m.to)) else {
            return;
        };
        let rank = rank_of(c, them, 0);
        let to = m.to.square();
        for fm in &c.first_moves {
            if !fm.lost_on_line.has(mover) {
                continue;
            }
            for f in 0..c.geometry.files {
                let sq = Sq::of(Square::new(f, rank));
                let code = self.board.cell(sq);
                let holder = c
                    .kind_at(code)
                    .filter(|&k| self.mine(code, them) && fm.kinds.has(k));
                if holder.is_some() && (to.file == f || to.rank == rank) {
                    self.gates[them.index()] &= !(1 << f);
                }
            }
        }
    }

    /// Whether the mover, having played into `next`, broke no component that forbids.
    #[inline]
    pub fn legal_after(&self, m: Move, next: &Position) -> bool {
        self.forbidder(m, next).is_none()
    }

    /// The first component that forbids `m`, played into `next`, in the order they judge:
    /// the judge of written turns asks here, and the generator's legality test asks the same
    /// evaluation ([`Self::forbidder_on`]) of the board alone.
    #[inline]
    pub fn forbidder(&self, m: Move, next: &Position) -> Option<Forbid> {
        self.forbidder_on(
            m,
            &next.board,
            |color| next.royal_count(color),
            |color| next.royals(color),
        )
    }

    /// [`Self::forbidder`] asked of `board`, the board after `m`: `royal_count` and `royals`
    /// say how many royal pieces a side has there and where (a square may come twice).
    #[inline]
    fn forbidder_on<I: Iterator<Item = Sq>>(
        &self,
        m: Move,
        board: &Board,
        royal_count: impl Fn(Color) -> u32,
        royals: impl Fn(Color) -> I,
    ) -> Option<Forbid> {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        if c.checked_royal_captures.is_some() && !self.royal_escape_allowed(m) {
            return Some(Forbid::CheckedRoyal);
        }
        if c.explosion.is_some() {
            if self.royal_count(us) > 0 && royal_count(us) == 0 {
                return Some(Forbid::OwnRoyalExploded);
            }
            if self.royal_count(them) > 0 && royal_count(them) == 0 {
                return None;
            }
        }
        if let Some((_, safety)) = c.check {
            let mut left = royals(us);
            let safe = match safety {
                Safety::All => left.all(|sq| !attacked_on(c, board, sq, them)),
                Safety::AnyOne => {
                    let mut any = false;
                    let mut safe = false;
                    for sq in left {
                        any = true;
                        if !attacked_on(c, board, sq, them) {
                            safe = true;
                            break;
                        }
                    }
                    !any || safe
                }
            };
            if !safe {
                return Some(Forbid::Check);
            }
        }
        if c.no_giving_check.is_some() && royals(them).any(|sq| attacked_on(c, board, sq, us)) {
            return Some(Forbid::GivesCheck);
        }
        None
    }

    /// Appends the legal moves.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.decided().is_some() {
            return;
        }
        let c = self.c;
        let start = out.len();
        let mut royals = Royals::default();
        self.generate(out, &mut royals);
        let forbidding = c.check.is_some()
            || c.explosion.is_some()
            || c.no_giving_check.is_some()
            || c.checked_royal_captures.is_some();
        if forbidding {
            let tester = Tester::new(self, royals);
            // One scratch board for the node: each tested move is played on it and taken back.
            let mut scratch: Option<Board> = None;
            let mut kept = start;
            for i in start..out.len() {
                let m = out[i];
                if tester.admits(self, m)
                    || tester.allows(self, m, scratch.get_or_insert_with(|| self.board.clone()))
                {
                    out[kept] = m;
                    kept += 1;
                }
            }
            out.truncate(kept);
        }
        if c.compulsory_capture.is_some() {
            let captures = out[start..].iter().any(|m| self.is_capture(*m));
            if captures {
                let mut i = start;
                while i < out.len() {
                    if self.is_capture(out[i]) {
                        i += 1;
                    } else {
                        out.swap_remove(i);
                    }
                }
            }
        }
    }

    /// Under `checked-royal-captures`: a royal piece in check moves only to take a checker.
    pub(super) fn royal_escape_allowed(&self, m: Move) -> bool {
        let c = self.c;
        let us = self.turn;
        let moving = self.board.cell(m.from);
        if !c.kind_at(moving).is_some_and(|k| c.royal.has(k)) || !self.royal_attacked(us) {
            return true;
        }
        let victim = self.board.cell(m.to);
        let Some(kind) = c.kind_at(victim) else {
            return false;
        };
        if !self.mine(victim, us.other()) {
            return false;
        }
        let mut checks = false;
        for royal in self.royals(us) {
            destinations(
                &c.kinds[kind].movement,
                &self.board,
                m.to,
                us.other(),
                |t| self.mine(t, us),
                |to, capture| checks |= capture && to == royal,
            );
        }
        checks
    }

    pub fn is_capture(&self, m: Move) -> bool {
        matches!(m.special, Special::EnPassant { .. })
            || !matches!(m.special, Special::Castle { .. }) && self.board.cell(m.to) != cell::EMPTY
    }

    /// A game end that the position shows before any move is generated: a side without the
    /// pieces an extinction rule counts, a piece on its goal, the last check given. The
    /// value is the side's it happens to; the rule is the component's.
    pub fn decided(&self) -> Option<(Color, Value, &'static str)> {
        let c = self.c;
        let mover = self.turn;
        let last = mover.other();
        for e in &c.extinctions {
            for color in [mover, last] {
                let counts = &self.counts[color.index()];
                let gone = if e.kinds.0 == 0 {
                    counts.iter().all(|&n| n == 0)
                } else {
                    (0..c.kinds.len()).any(|k| e.kinds.has(k) && counts[k] == 0)
                };
                if gone {
                    return Some((color, e.ending.value, e.ending.tag.rule));
                }
            }
        }
        if let Some(b) = c.bare_king {
            let total = |color: Color| -> u32 {
                self.counts[color.index()].iter().map(|&n| n as u32).sum()
            };
            for color in [last, mover] {
                let other = total(color.other());
                if total(color) <= 1 && other >= b.against as u32 {
                    // A bare side to move may still bare the other side, if that has no more
                    // than `against` pieces.
                    if b.reply && color == mover && other <= b.against as u32 {
                        continue;
                    }
                    return Some((color, b.ending.value, b.ending.tag.rule));
                }
            }
        }
        for g in &c.goals {
            let reached = |color: Color| {
                c.squares.iter().any(|&sq| {
                    let code = self.board.cell(sq);
                    g.region[color.index()].has(sq)
                        && self.mine(code, color)
                        && c.kind_at(code).is_some_and(|k| g.kinds.has(k))
                })
            };
            let decided = |color: Color| Some((color, g.ending.value, g.ending.tag.rule));
            if reached(mover) {
                // The second player matched the first: neither got there first.
                if g.timing == Timing::UnlessMatched && reached(last) {
                    return Some((mover, Value::Draw, g.ending.tag.rule));
                }
                return decided(mover);
            }
            match g.timing {
                Timing::AfterReply => {}
                Timing::AtOnce if reached(last) => return decided(last),
                Timing::UnlessMatched if reached(last) => {
                    if mover == Color::Black && !self.royal_attacked(mover) && self.can_reach(g) {
                        continue;
                    }
                    return decided(last);
                }
                _ => {}
            }
        }
        // Only the side that just moved can have given its last check; the rule happens to
        // the side it checked, the side to move.
        if let Some((e, n)) = c.check_count {
            if self.checks[last.index()] >= n {
                return Some((last, e.value, e.tag.rule));
            }
        }
        None
    }

    /// Whether the side to move has a legal move of a goal piece onto its goal.
    fn can_reach(&self, g: &super::compile::Goal) -> bool {
        let mut pseudo = Vec::new();
        self.pseudo_moves(&mut pseudo);
        pseudo.into_iter().any(|m| {
            let kind = self.c.kind_at(self.board.cell(m.from));
            kind.is_some_and(|k| g.kinds.has(k)) && g.region[self.turn.index()].has(m.to) && {
                let mut next = self.clone();
                next.apply(m);
                self.legal_after(m, &next)
            }
        })
    }

    /// The repetition identity: the board, whose turn, castling and en passant.
    pub fn key(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.board.hash(&mut h);
        self.turn.hash(&mut h);
        self.castle.hash(&mut h);
        self.gates.hash(&mut h);
        self.ep.hash(&mut h);
        self.checks.hash(&mut h);
        h.finish()
    }
}

/// Whether `code` is a piece of `color`.
#[inline]
fn is_of(code: u8, color: Color) -> bool {
    code != cell::EMPTY && code != cell::WALL && (code & 1) == color as u8
}

/// Whether `code` is a royal piece of `color`.
#[inline]
fn royal_of(c: &Compiled, code: u8, color: Color) -> bool {
    is_of(code, color) && c.kind_at(code).is_some_and(|k| c.royal.has(k))
}

/// Whether a piece of `by` attacks `target` on `board` (could capture there).
fn attacked_on(c: &Compiled, board: &Board, target: Sq, by: Color) -> bool {
    if (c.flying.is_some() || !c.region_moves.is_empty())
        && attacked_by_region(c, board, target, by)
    {
        return true;
    }
    match c.explosion {
        None if c.confined.is_empty() && !c.zoned() => c.tables[by.index()]
            .attacker(board, target, |_| true, |_, _| false)
            .is_some(),
        // A confined piece attacks only inside its region.
        None => c.tables[by.index()]
            .attacker(
                board,
                target,
                |a| {
                    c.kind_at(a.code)
                        .and_then(|k| c.confine_of(k, by))
                        .is_none_or(|r| r.has(target))
                        && c.kind_at(a.code)
                            .is_none_or(|k| c.zone_admits(board, k, by, a.from, target, true))
                },
                |_, _| false,
            )
            .is_some(),
        Some(_) => {
            // A capture that would blow up the capturer's own royal piece is no threat;
            // nor is a royal piece's capture, since the capturer always explodes.
            if royal_near(c, board, target, by) {
                return false;
            }
            c.tables[by.index()]
                .attacker(
                    board,
                    target,
                    |a| {
                        c.kind_at(a.code).is_some_and(|k| {
                            !c.royal.has(k) && c.zone_admits(board, k, by, a.from, target, true)
                        })
                    },
                    |_, _| false,
                )
                .is_some()
        }
    }
}

/// The attacks the attack tables do not hold: a piece's movement gained in a region
/// (`region-move`), and a royal piece facing `target` along an open file (`flying-royals`).
fn attacked_by_region(c: &Compiled, board: &Board, target: Sq, by: Color) -> bool {
    if c.flying.is_some() {
        for dir in [1, -1] {
            let step = crate::rules::board::delta(0, dir);
            let mut sq = target.offset(step);
            while !board_is_wall(board, sq) && board.cell(sq) == cell::EMPTY {
                sq = sq.offset(step);
            }
            if !board_is_wall(board, sq) && royal_of(c, board.cell(sq), by) {
                return true;
            }
        }
    }
    for rm in &c.region_moves {
        let region = &rm.region[by.index()];
        for &from in &c.squares {
            if !region.has(from) {
                continue;
            }
            let code = board.cell(from);
            let theirs = code != cell::EMPTY && code != cell::WALL && (code & 1) == by as u8;
            let Some(kind) = c.kind_at(code).filter(|&k| theirs && rm.kinds.has(k)) else {
                continue;
            };
            if !c.zone_admits(board, kind, by, from, target, false) {
                continue;
            }
            let mut hit = false;
            destinations(
                &rm.movement,
                board,
                from,
                by,
                |_| true,
                |to, _| hit |= to == target,
            );
            if hit {
                return true;
            }
        }
    }
    false
}

/// Whether a royal piece of `color` stands on a square next to `sq`.
fn royal_near(c: &Compiled, board: &Board, sq: Sq, color: Color) -> bool {
    KING_STEPS.iter().any(|&(f, r)| {
        let code = board.cell(sq.offset(crate::rules::board::delta(f as i32, r as i32)));
        royal_of(c, code, color)
    })
}

fn board_is_wall(board: &Board, sq: Sq) -> bool {
    sq.index() >= crate::rules::board::CELLS || board.cell(sq) == cell::WALL
}

/// The legality test of one node's moves: what every forbidding component asks of the
/// board a move leaves, found once for the node.
struct Tester {
    /// The mover's royal pieces, where they stand before the move.
    royals: Royals,
    /// The other side's, where `no-giving-check` looks at them.
    theirs: Royals,
    /// The squares of the pieces that shield a royal piece of the mover, when none is
    /// attacked: any other non-royal piece's plain move (under `explosion`, one that captures
    /// nothing) leaves no royal piece attacked and needs no test. `None`: every move is tested.
    shields: Option<Vec<Sq>>,
}

impl Tester {
    fn new(pos: &Position, royals: Royals) -> Tester {
        let c = pos.c;
        let us = pos.turn;
        let them = us.other();
        let mut theirs = Royals::default();
        if c.no_giving_check.is_some() {
            for sq in pos.royals(them) {
                theirs.push(sq);
            }
        }
        let shields = Self::shields(pos, &royals);
        Tester {
            royals,
            theirs,
            shields,
        }
    }

    /// [`Tester::shields`] of the mover's royal pieces on `royals`.
    fn shields(pos: &Position, royals: &Royals) -> Option<Vec<Sq>> {
        let c = pos.c;
        let them = pos.turn.other();
        // Only `check` (and `explosion`, for moves that capture nothing) judge by what a
        // move leaves attacked, which only a shield's leaving can change.
        // Nor do the attack tables see the lines of a movement gained in a region: a rider's
        // there may be opened by any piece.
        if c.no_giving_check.is_some()
            || c.checked_royal_captures.is_some()
            || c.check.is_none()
            || c.flying.is_some()
            || c.region_moves.iter().any(|rm| {
                rm.movement
                    .atoms
                    .iter()
                    .any(|a| !matches!(a.reach, Reach::Leap))
            })
        {
            return None;
        }
        let mut shields = Vec::new();
        for royal in royals.list() {
            if pos.attacked(royal, them) {
                return None;
            }
            // `None` where a hopper could be screened: then any move may open an attack.
            shields.extend(c.tables[them.index()].screens(&pos.board, royal)?);
        }
        Some(shields)
    }

    /// Whether `m` is legal without a test.
    #[inline]
    fn admits(&self, pos: &Position, m: Move) -> bool {
        let Some(shields) = &self.shields else {
            return false;
        };
        let c = pos.c;
        let royal = |k: usize| c.royal.has(k);
        // A piece that is or becomes royal is judged where it lands.
        let moves_royal = c.kind_at(pos.board.cell(m.from)).is_some_and(royal)
            || m.promotion().is_some_and(royal);
        !moves_royal
            && matches!(m.special, Special::None | Special::Step)
            && (c.explosion.is_none() || pos.board.cell(m.to) == cell::EMPTY)
            && !shields.contains(&m.from)
    }

    /// Whether no component forbids `m` ([`Position::forbidder_on`]), asked of the board the
    /// move leaves: played on `scratch` (the position's board) and taken back.
    fn allows(&self, pos: &Position, m: Move, scratch: &mut Board) -> bool {
        let c = pos.c;
        let mut changes = Changes::default();
        play_on(c, scratch, pos.turn, m, &mut changes);
        let count = |color: Color| {
            let before = pos.royal_count(color) as i64;
            let changed: i64 = changes
                .list()
                .iter()
                .map(|&(_, old, new)| {
                    i64::from(royal_of(c, new, color)) - i64::from(royal_of(c, old, color))
                })
                .sum();
            (before + changed).max(0) as u32
        };
        let board: &Board = scratch;
        let royals = |color: Color| {
            let before = if color == pos.turn {
                &self.royals
            } else {
                &self.theirs
            };
            after_move(c, board, &changes, before, color)
        };
        let allowed = pos.forbidder_on(m, board, count, royals).is_none();
        changes.undo(scratch);
        allowed
    }
}

/// The squares of `color`'s royal pieces on `board` after the move that made `changes`, from
/// where they stood before (`before`): those still there, and those the move put down. A
/// square may come twice; the callers ask whether any or all are attacked.
fn after_move<'a>(
    c: &'a Compiled,
    board: &'a Board,
    changes: &'a Changes,
    before: &'a Royals,
    color: Color,
) -> impl Iterator<Item = Sq> + 'a {
    let stayed = before
        .list()
        .filter(move |&sq| royal_of(c, board.cell(sq), color));
    let came = changes
        .list()
        .iter()
        .map(|e| e.0)
        .filter(move |&sq| royal_of(c, board.cell(sq), color) && !before.contains(sq));
    stayed.chain(came)
}

/// The squares of one side's royal pieces, most often one or two.
struct Royals {
    first: [Sq; 4],
    len: usize,
    more: Vec<Sq>,
}

impl Default for Royals {
    fn default() -> Royals {
        Royals {
            first: [Sq(0); 4],
            len: 0,
            more: Vec::new(),
        }
    }
}

impl Royals {
    #[inline]
    fn push(&mut self, sq: Sq) {
        if self.len < self.first.len() {
            self.first[self.len] = sq;
            self.len += 1;
        } else {
            self.more.push(sq);
        }
    }

    #[inline]
    fn list(&self) -> impl Iterator<Item = Sq> + Clone + '_ {
        self.first[..self.len]
            .iter()
            .chain(self.more.iter())
            .copied()
    }

    #[inline]
    fn contains(&self, sq: Sq) -> bool {
        self.list().any(|r| r == sq)
    }
}

/// The cells a move changed, in order, each with what it held and what it holds: enough to
/// count the pieces it took or made, and to take it back.
struct Changes {
    at: [(Sq, u8, u8); 16],
    len: usize,
}

impl Default for Changes {
    fn default() -> Changes {
        Changes {
            at: [(Sq(0), 0, 0); 16],
            len: 0,
        }
    }
}

impl Changes {
    #[inline]
    fn set(&mut self, board: &mut Board, sq: Sq, code: u8) {
        self.at[self.len] = (sq, board.cell(sq), code);
        self.len += 1;
        board.set_cell(sq, code);
    }

    #[inline]
    fn list(&self) -> &[(Sq, u8, u8)] {
        &self.at[..self.len]
    }

    /// Puts back what the cells held, latest change first.
    #[inline]
    fn undo(&self, board: &mut Board) {
        for &(sq, old, _) in self.list().iter().rev() {
            board.set_cell(sq, old);
        }
    }
}

/// Plays `m` of `us` on the board alone, noting each cell it changes; whether it captured.
/// [`Position::apply`] plays every move through here, and the legality test plays and takes
/// back each move it tests on one scratch board: both see the same board after the move.
fn play_on(c: &Compiled, board: &mut Board, us: Color, m: Move, changes: &mut Changes) -> bool {
    let moving = board.cell(m.from);
    if let Special::Castle { rook, side } = m.special {
        let rook_code = board.cell(rook);
        let rank = back_rank(c, us);
        let castling = c.castling.as_ref().expect("castling move without castling");
        changes.set(board, m.from, cell::EMPTY);
        changes.set(board, rook, cell::EMPTY);
        let kto = Sq::of(Square::new(castling.king_to[side as usize], rank));
        changes.set(board, kto, moving);
        let rto = Sq::of(Square::new(castling.rook_to[side as usize], rank));
        changes.set(board, rto, rook_code);
        return false;
    }
    let mut captured = false;
    if let Special::EnPassant { victim } = m.special {
        changes.set(board, victim, cell::EMPTY);
        captured = true;
    } else if board.cell(m.to) != cell::EMPTY {
        changes.set(board, m.to, cell::EMPTY);
        captured = true;
    }
    changes.set(board, m.from, cell::EMPTY);
    let placed = match m.promotion() {
        Some(p) => c.piece(us, p).code(),
        None => moving,
    };
    changes.set(board, m.to, placed);
    if captured {
        if let Some((_, immune)) = c.explosion {
            changes.set(board, m.to, cell::EMPTY);
            for &(f, r) in KING_STEPS.iter() {
                let sq = m.to.offset(crate::rules::board::delta(f as i32, r as i32));
                let code = board.cell(sq);
                if code != cell::EMPTY
                    && code != cell::WALL
                    && !c.kind_at(code).is_some_and(|k| immune.has(k))
                {
                    changes.set(board, sq, cell::EMPTY);
                }
            }
        }
    }
    captured
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
