//! A position of a defined variant, its moves and how they are played. Every component of the
//! definition takes part here once: the generator produces what a component allows, and the
//! legality test asks the components that forbid.

use std::hash::{Hash, Hasher};

use super::compile::Compiled;
use crate::definition::fen;
use crate::definition::model::Cell;
use crate::definition::model::{Safety, Timing, Value};
use crate::rules::board::{cell, Board, Sq, Square};
use crate::rules::movement::{destinations, offset};
use crate::rules::piece::{Color, Piece};
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
        code != cell::EMPTY && code != cell::WALL && (code & 1) == color as u8
    }

    /// Whether a piece of `by` attacks `target` (could capture there).
    pub fn attacked(&self, target: Sq, by: Color) -> bool {
        let c = self.c;
        match c.explosion {
            None => c.tables[by.index()]
                .attacker(&self.board, target, |_| true, |_, _| false)
                .is_some(),
            Some(_) => {
                // A capture that would blow up the capturer's own royal piece is no threat;
                // nor is a royal piece's capture, since the capturer always explodes.
                if self.royal_near(target, by) {
                    return false;
                }
                c.tables[by.index()]
                    .attacker(
                        &self.board,
                        target,
                        |a| c.kind_at(a.code).is_some_and(|k| !c.royal.has(k)),
                        |_, _| false,
                    )
                    .is_some()
            }
        }
    }

    /// Whether a royal piece of `color` stands on a square next to `sq`.
    fn royal_near(&self, sq: Sq, color: Color) -> bool {
        crate::rules::movement::KING_STEPS.iter().any(|&(f, r)| {
            let code = self
                .board
                .cell(sq.offset(crate::rules::board::delta(f as i32, r as i32)));
            self.mine(code, color) && self.c.kind_at(code).is_some_and(|k| self.c.royal.has(k))
        })
    }

    /// The squares of `color`'s royal pieces.
    pub fn royals(&self, color: Color) -> impl Iterator<Item = Sq> + '_ {
        self.c.squares.iter().copied().filter(move |&sq| {
            let code = self.board.cell(sq);
            self.mine(code, color) && self.c.kind_at(code).is_some_and(|k| self.c.royal.has(k))
        })
    }

    /// Whether `color` has a royal piece attacked.
    pub fn royal_attacked(&self, color: Color) -> bool {
        self.royals(color)
            .any(|sq| self.attacked(sq, color.other()))
    }

    /// Whether `color`'s royal pieces are safe as the check component demands.
    fn royals_safe(&self, color: Color, safety: Safety) -> bool {
        match safety {
            Safety::All => !self.royal_attacked(color),
            Safety::AnyOne => {
                let mut any = false;
                let mut safe = false;
                for sq in self.royals(color) {
                    any = true;
                    safe |= !self.attacked(sq, color.other());
                }
                !any || safe
            }
        }
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
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        for &from in &c.squares {
            let code = self.board.cell(from);
            if !self.mine(code, us) {
                continue;
            }
            let Some(kind) = c.kind_at(code) else {
                continue;
            };
            let k = &c.kinds[kind];
            let first = out.len();
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
            );
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
        }
        self.first_moves(out);
        self.castlings(out);
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
        let Some(p) = self
            .c
            .promotions
            .iter()
            .find(|p| p.kinds.has(kind) && p.region[us.index()].has(to))
        else {
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
                let mut lifted = self.clone();
                lifted.board.set_cell(ks, cell::EMPTY);
                if (a..=b).any(|f| f != kto && f != kf && lifted.attacked(at(f), them)) {
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

    /// Plays a move, legal or not (the legality test plays each move it judges).
    pub fn apply(&mut self, m: Move) {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        let moving = self.board.cell(m.from);
        let kind = c.kind_at(moving).unwrap_or(0);
        let mut captured = false;
        let mut capture_sq = m.to;
        match m.special {
            Special::Castle { rook, side } => {
                let rook_code = self.board.cell(rook);
                let rank = back_rank(c, us);
                let castling = c.castling.as_ref().expect("castling move without castling");
                self.board.set_cell(m.from, cell::EMPTY);
                self.board.set_cell(rook, cell::EMPTY);
                self.board.set_cell(
                    Sq::of(Square::new(castling.king_to[side as usize], rank)),
                    moving,
                );
                self.board.set_cell(
                    Sq::of(Square::new(castling.rook_to[side as usize], rank)),
                    rook_code,
                );
            }
            _ => {
                if let Special::EnPassant { victim } = m.special {
                    self.remove(victim);
                    captured = true;
                    capture_sq = m.to;
                } else if self.board.cell(m.to) != cell::EMPTY {
                    self.remove(m.to);
                    captured = true;
                }
                self.board.set_cell(m.from, cell::EMPTY);
                let placed = match m.promotion() {
                    Some(p) => {
                        self.counts[us.index()][kind] -= 1;
                        self.counts[us.index()][p] += 1;
                        c.piece(us, p).code()
                    }
                    None => moving,
                };
                self.board.set_cell(m.to, placed);
            }
        }
        if captured {
            if let Some((_, immune)) = c.explosion {
                self.remove(capture_sq);
                for &(f, r) in crate::rules::movement::KING_STEPS.iter() {
                    let sq = capture_sq.offset(crate::rules::board::delta(f as i32, r as i32));
                    let code = self.board.cell(sq);
                    if code != cell::EMPTY
                        && code != cell::WALL
                        && !c.kind_at(code).is_some_and(|k| immune.has(k))
                    {
                        self.remove(sq);
                    }
                }
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

    fn remove(&mut self, sq: Sq) {
        let code = self.board.cell(sq);
        if let (Some(p), Some(k)) = (Piece::from_code(code), self.c.kind_at(code)) {
            self.counts[p.color().index()][k] -= 1;
        }
        self.board.set_cell(sq, cell::EMPTY);
    }

    /// Whether the mover, having played into `next`, broke no component that forbids.
    #[inline]
    pub fn legal_after(&self, m: Move, next: &Position) -> bool {
        self.forbidder(m, next).is_none()
    }

    /// The first component that forbids `m`, played into `next`, in the order they judge:
    /// the one evaluation both the generator's legality test and the judge of written turns
    /// use.
    #[inline]
    pub fn forbidder(&self, m: Move, next: &Position) -> Option<Forbid> {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        if c.checked_royal_captures.is_some() && !self.royal_escape_allowed(m) {
            return Some(Forbid::CheckedRoyal);
        }
        if c.explosion.is_some() {
            if self.royal_count(us) > 0 && next.royal_count(us) == 0 {
                return Some(Forbid::OwnRoyalExploded);
            }
            if self.royal_count(them) > 0 && next.royal_count(them) == 0 {
                return None;
            }
        }
        if let Some((_, safety)) = c.check {
            if !next.royals_safe(us, safety) {
                return Some(Forbid::Check);
            }
        }
        if c.no_giving_check.is_some() && next.royal_attacked(them) {
            return Some(Forbid::GivesCheck);
        }
        None
    }

    /// Appends the legal moves.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        if self.decided().is_some() {
            return;
        }
        let start = out.len();
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_moves(&mut pseudo);
        let unpinned = self.unpinned();
        for m in pseudo {
            if unpinned.as_ref().is_some_and(|u| u.admits(self, m)) {
                out.push(m);
                continue;
            }
            let mut next = self.clone();
            next.apply(m);
            if self.legal_after(m, &next) {
                out.push(m);
            }
        }
        if self.c.compulsory_capture.is_some() {
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

    /// What lets a move skip the legality test: where the only forbidding component is
    /// `check` (or none is), a non-royal piece that no royal piece needs as a shield, moving
    /// while no royal piece is attacked, can leave none attacked. `None` where every move is
    /// tested.
    fn unpinned(&self) -> Option<Unpinned> {
        let c = self.c;
        if c.explosion.is_some()
            || c.no_giving_check.is_some()
            || c.checked_royal_captures.is_some()
        {
            return None;
        }
        if c.check.is_none() {
            return Some(Unpinned { shields: None });
        }
        let us = self.turn;
        let them = us.other();
        let mut shields = Vec::new();
        for royal in self.royals(us) {
            if self.attacked(royal, them) {
                return None;
            }
            // `None` where a hopper could be screened: then any move may open an attack.
            shields.extend(c.tables[them.index()].screens(&self.board, royal)?);
        }
        Some(Unpinned {
            shields: Some(shields),
        })
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

fn board_is_wall(board: &Board, sq: Sq) -> bool {
    sq.index() >= crate::rules::board::CELLS || board.cell(sq) == cell::WALL
}

/// The pieces whose moves need no legality test ([`Position::unpinned`]).
struct Unpinned {
    /// The squares of the pieces that shield a royal piece; `None`: no test at all (no
    /// component forbids a move for what it leaves behind).
    shields: Option<Vec<Sq>>,
}

impl Unpinned {
    fn admits(&self, pos: &Position, m: Move) -> bool {
        let Some(shields) = &self.shields else {
            return true;
        };
        let royal = |k: usize| pos.c.royal.has(k);
        // A piece that is or becomes royal is judged where it lands.
        let moves_royal = pos.c.kind_at(pos.board.cell(m.from)).is_some_and(royal)
            || m.promotion().is_some_and(royal);
        !moves_royal
            && matches!(m.special, Special::None | Special::Step)
            && !shields.contains(&m.from)
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
