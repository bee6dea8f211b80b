//! A position of a defined variant, its moves and how they are played. Every component of the
//! definition takes part here once: the generator produces what a component allows, and the
//! legality test asks the components that forbid.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{LazyLock, Mutex};

use super::compile::{Compiled, Drops, KindSet, SqSet, MAX_KINDS};
use crate::definition::fen;
use crate::definition::model::Cell;
use crate::definition::model::{FlipPattern, Onto, Safety, Timing, Value};
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
    /// Castling with the rook on `rook`; `side` 0 is queenside, 1 kingside. `gate`: 0, or
    /// the kind put from the hand on the king's square plus one, with [`ROOK_GATE`] added
    /// when it goes on the rook's square instead (`gating`).
    Castle {
        rook: Sq,
        side: u8,
        gate: u8,
    },
    /// A move whose piece leaves a gate, where a piece of `kind` from the hand is put.
    Gate {
        kind: u8,
    },
    /// A piece of `kind` from the mover's hand put on `to` (`from` is `to` too).
    Drop {
        kind: u8,
    },
    /// A promotion that is a turn of its own: the piece on `from` becomes the promoted kind
    /// on `to`, which may be `from`.
    Promote,
    /// A pass (`pass`): nothing moves; `from` and `to` are the square of a royal piece of the
    /// mover, or of its first piece.
    Pass,
    /// An infiltration (`infiltration`): the piece on `from` is put on `to`, whatever stands
    /// there removed, not captured.
    Place,
}

/// In [`Special::Castle`]'s `gate`: the piece from the hand goes on the rook's square.
pub const ROOK_GATE: u8 = 0x80;

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
    /// `drops` with `no-mate`: the drop checkmates.
    DropMate,
    /// `drops` or `prisoners` with `gives-check no`: the drop gives check.
    DropCheck,
    /// `promotion` with `as-turn`: the promotion gives check.
    PromotionCheck,
    /// `bikjang`: the royal pieces faced each other and still do after the move.
    Bikjang,
    /// `adjacency` or `alignment` with `effect illegal`: the contact component of that index
    /// in [`Compiled::contacts`] forbids what the move leaves.
    Contact(usize),
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

/// A move of a defined variant. Aligned to 8 (32 bytes): at its packed 26 the move lists'
/// copies overlap their 16-byte halves and stall (perft of chess.def 22% slower).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(align(8))]
pub struct Move {
    pub from: Sq,
    pub to: Sq,
    /// The kind promoted into, plus one; 0 for none.
    pub promo: u8,
    pub special: Special,
    /// Under `blocker`: where the neutral blocker is placed after the move.
    pub block: Option<Sq>,
    /// A second action of the same turn, a plain move from and to: the entry a `no-entry`
    /// region's `opened-by` piece let in by leaving it.
    pub then: Option<(Sq, Sq)>,
    /// Under `defection`: the piece of the other side that changes sides.
    pub turned: Option<Sq>,
    /// The second action is a placement (`infiltration`), not a move.
    pub placed: bool,
}

impl Move {
    /// A plain move from `from` to `to`: nothing special, no second action.
    pub fn plain(from: Sq, to: Sq) -> Move {
        Move {
            from,
            to,
            promo: 0,
            special: Special::None,
            block: None,
            then: None,
            turned: None,
            placed: false,
        }
    }

    /// The second action of a turn of two, as a move of its own.
    pub fn second(self) -> Option<Move> {
        self.then.map(|(from, to)| Move {
            special: match self.placed {
                true => Special::Place,
                false => Special::None,
            },
            ..Move::plain(from, to)
        })
    }

    /// One action of a piece from square to square: nothing special, no promotion, no
    /// second action.
    #[inline]
    pub fn is_single_plain(self) -> bool {
        matches!(self.special, Special::None | Special::Step)
            && self.promo == 0
            && self.then.is_none()
            && self.turned.is_none()
            && self.block.is_none()
    }

    pub fn promotion(self) -> Option<usize> {
        (self.promo > 0).then(|| self.promo as usize - 1)
    }

    /// The kind a gating move puts from the hand, and where.
    pub fn gated(self) -> Option<(usize, Sq)> {
        match self.special {
            Special::Gate { kind } => Some((kind as usize, self.from)),
            Special::Castle { rook, gate, .. } if gate != 0 => {
                let at = if gate & ROOK_GATE != 0 {
                    rook
                } else {
                    self.from
                };
                Some(((gate & !ROOK_GATE) as usize - 1, at))
            }
            _ => None,
        }
    }

    /// The kind a drop puts down.
    #[inline]
    pub fn dropped(self) -> Option<usize> {
        match self.special {
            Special::Drop { kind } => Some(kind as usize),
            _ => None,
        }
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
    /// By side and kind, how many pieces are in hand.
    pub hand: [[u8; MAX_KINDS]; 2],
    /// The squares of pieces made by a promotion (`~` in a FEN), which go back to the piece
    /// that promoted when captured into a hand.
    pub promoted: SqSet,
    /// Passes made in a row just before this position (`pass`).
    pub passes: u8,
    /// The piece the last turn moved (none in a position set up from a FEN), which contact
    /// components may ask about.
    pub arrival: super::contact::Arrivals,
    /// The capturer the side to move may re-take (`retake`).
    pub retake: super::retake::Window,
    /// The `defection` (its index) whose move of the last turn left the side to move bare.
    pub bared: Option<u8>,
    /// Whether each side has infiltrated (`infiltration` with `once`).
    pub used: [bool; 2],
    /// The `infiltration` (its index) whose placement of the last turn removed a royal piece.
    pub infiltrated: Option<u8>,
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
    /// By side, then kind: the squares from which a piece of it could never move (no step
    /// of its stays on the board), where it may not be dropped.
    stuck: [Vec<SqSet>; 2],
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
        let mut board = Board::empty(c.geometry);
        for h in &c.holes {
            board.remove_square(*h);
        }
        let stuck = Color::ALL.map(|color| {
            (0..c.kinds.len())
                .map(|k| {
                    let mut set = SqSet::default();
                    for &sq in &c.squares {
                        if !could_move(c, &board, k, sq, color) {
                            set.add(sq);
                        }
                    }
                    set
                })
                .collect()
        });
        Gen {
            lines,
            promoting,
            stuck,
        }
    }
}

/// The generator's layout of `c`, built on first use: a compiled definition lives for the run
/// (it is leaked), so its address names it, and the layouts are bounded by the definitions and
/// readings a run compiles.
fn gen_for(c: &'static Compiled) -> &'static Gen {
    static GENS: LazyLock<Mutex<HashMap<usize, &'static Gen>>> = LazyLock::new(Default::default);
    let key = c as *const Compiled as usize;
    let mut gens = GENS.lock().unwrap_or_else(|e| e.into_inner());
    gens.entry(key)
        .or_insert_with(|| Box::leak(Box::new(Gen::new(c))))
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
    /// The position a FEN in the definition's layout gives.
    pub fn read_fen(
        c: &'static Compiled,
        text: &str,
        start_counts: &'static [[u16; 64]; 2],
    ) -> Result<Position, SetupError> {
        let Some(layout) = &c.fen_layout else {
            return Self::read_standard(c, text, start_counts, None);
        };
        let standard = crate::definition::layout::standard(text, layout, c.kept_letter())
            .map_err(|e| SetupError::fen(e.to_string()))?;
        let mut pos = Self::read_standard(c, &standard.text, start_counts, Some(&standard))?;
        pos.used = standard.used;
        if let Some((name, col)) = &standard.retake {
            let window = pos
                .window_at(name)
                .map_err(|m| SetupError::fen(format!("{m} (column {})", col + 1)))?;
            pos.retake = Some(window);
        }
        Ok(pos)
    }

    /// The position a FEN in Fairy-Stockfish's conventions gives; `layout`, the text it was
    /// rewritten from, places its errors.
    pub fn read_standard(
        c: &'static Compiled,
        text: &str,
        start_counts: &'static [[u16; 64]; 2],
        layout: Option<&crate::definition::layout::Standard>,
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
        let promoted: Vec<(char, char)> = (0..c.kinds.len())
            .filter_map(|k| Some((c.promoted_from(k)?, c.kinds[k].letter)))
            .collect();
        let shape = fen::Shape {
            files: g.files,
            ranks: g.ranks,
            names: Some(g),
            holes: &holes,
            letters: &letters,
            promoted: &promoted,
            pockets: c.hands,
            blockers: c.blocker.is_some(),
        };
        let fen = fen::parse_with_designs(text.trim(), &shape)
            .map_err(|e| SetupError::fen(layout.map_or(e.clone(), |l| l.locate(e)).to_string()))?;
        let mut board = Board::empty(g);
        for h in &c.holes {
            board.remove_square(*h);
        }
        let mut counts = [[0u16; 64]; 2];
        let mut promoted = SqSet::default();
        for sq in g.squares() {
            let cell = Cell {
                file: sq.file,
                rank: sq.rank,
            };
            // A `*` off the definition's holes is a blocker standing there.
            if fen.at(cell) == fen::Placed::Hole && !c.holes.contains(&sq) {
                board.remove_square(sq);
            }
            let placed = fen.at(cell);
            if let Some((color, kind)) = c.kind_placed(placed)? {
                counts[color.index()][kind] += 1;
                board.put(sq, Some(c.piece(color, kind)));
                if matches!(placed, fen::Placed::Piece { promoted: true, .. }) {
                    promoted.add(Sq::of(sq));
                }
            }
        }
        let mut hand = [[0u8; MAX_KINDS]; 2];
        for &(letter, color) in &fen.hand {
            if let Some(k) = c.kind_of_letter(letter) {
                let n = &mut hand[color.index()][k];
                *n = n.checked_add(1).ok_or_else(|| {
                    SetupError::fen(format!(
                        "a hand holds at most {} pieces of one kind (`{letter}`)",
                        u8::MAX
                    ))
                })?;
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
            hand,
            promoted,
            passes: 0,
            arrival: [None, None],
            retake: None,
            bared: None,
            used: [false, false],
            infiltrated: None,
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
        // As the built-in games refuse it: the side that just moved cannot have left its own
        // royal piece attacked, and a position where it has would let its king be taken.
        // Under `explosion`, a capture that blows up the enemy's royal piece may leave the
        // mover's own attacked: the game is then over, and the position stands.
        let blown = c.explosion.is_some() && pos.royal_count(pos.turn) == 0;
        if let (Some((_, safety)), false) = (c.check, blown) {
            let them = pos.turn.other();
            if !royals_safe(
                c,
                &pos.board,
                safety,
                pos.royals(them),
                pos.royal_count(them),
                pos.turn,
                None,
            ) {
                return Err(SetupError::new(
                    crate::rules::SetupErrorKind::OppositeCheck,
                    format!("{them} is in check, but it is {}'s turn", pos.turn),
                ));
            }
        }
        // A set-up no game reaches, as the components say: a piece where it may never stand,
        // one that would have defected, a contact no turn leaves.
        if let Some(why) = pos
            .confine_setup_refusal()
            .or_else(|| pos.defection_setup_refusal())
            .or_else(|| pos.contact_setup_refusal())
        {
            return Err(SetupError::new(
                crate::rules::SetupErrorKind::Placement,
                why,
            ));
        }
        Ok(pos)
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
            if let (Some(_), fen::RookRef::File(f)) = (self.c.gating, right.rook) {
                // A file letter is a gate, and a castling right where a rook stands on it.
                let code = self.board.cell(Sq::of(Square::new(f.min(15), rank)));
                if f < self.c.geometry.files && self.mine(code, color) {
                    self.gates[color.index()] |= 1 << f;
                }
            }
            let Some(king) = self.king_file(color) else {
                continue;
            };
            // With pieces to gate, a file letter is a gate only, not a Chess960 castling right
            // (Fairy-Stockfish's S-chess: `H` when the king has moved and that rook has not).
            if self.c.gating.is_some()
                && matches!(right.rook, fen::RookRef::File(_))
                && self.may_gate(color)
            {
                continue;
            }
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
                if self.c.gating.is_some() {
                    self.gates[color.index()] |= 1 << f | 1 << king;
                }
            }
        }
        // Gates on the king and on rooks, and no castling right named: the rights of a
        // Chess960 array with gating (Fairy-Stockfish's `EH` for a king on e and a rook on h).
        // With nothing to gate, no gate is kept, as after a move that empties the hand (a
        // rook's gate written would read back as a castling right).
        if self.c.gating.is_some() {
            for color in Color::ALL {
                let i = color.index();
                if !self.may_gate(color) {
                    self.gates[i] = 0;
                    continue;
                }
                let Some(king) = self.king_file(color) else {
                    continue;
                };
                if self.castle[i] != 0 || self.gates[i] >> king & 1 == 0 {
                    continue;
                }
                let rank = back_rank(self.c, color);
                for f in 0..self.c.geometry.files.min(16) {
                    let code = self.board.cell(Sq::of(Square::new(f, rank)));
                    if f != king
                        && self.gates[i] >> f & 1 != 0
                        && self.mine(code, color)
                        && self.c.kind_at(code).is_some_and(|k| castling.rooks.has(k))
                    {
                        self.castle[i] |= 1 << f;
                    }
                }
            }
        }
    }

    /// Whether `color` has, or may come to have, a piece in hand to gate.
    fn may_gate(&self, color: Color) -> bool {
        self.c.captures_to_hand.is_some() || self.hand[color.index()].iter().any(|&n| n > 0)
    }

    /// The file of `color`'s castling king on its first rank.
    fn king_file(&self, color: Color) -> Option<u8> {
        let castling = self.c.castling.as_ref()?;
        let rank = back_rank(self.c, color);
        let king = self.c.piece(color, castling.king).code();
        (0..self.c.geometry.files).find(|&f| self.board.cell(Sq::of(Square::new(f, rank))) == king)
    }

    /// The FEN of the position, in the definition's layout.
    pub fn fen(&self) -> String {
        use crate::definition::layout::Field;
        let Some(layout) = &self.c.fen_layout else {
            return self.standard_fen();
        };
        let standard = self.standard_fen();
        let fields: Vec<&str> = standard.split(' ').collect();
        let field = |i: usize| fields.get(i).copied().unwrap_or("-").to_string();
        let counted = layout.contains(&Field::Prisoners);
        let out: Vec<String> = layout
            .iter()
            .map(|f| match f {
                Field::Placement => {
                    let board = field(0);
                    let board = board.split('[').next().unwrap_or("").to_string();
                    match self.pocket(counted) {
                        Some(p) => format!("{board}[{p}]"),
                        None => board,
                    }
                }
                Field::Side => field(1),
                Field::Castling => field(2),
                Field::EnPassant => field(3),
                Field::HalfmoveClock => self.halfmove.to_string(),
                Field::FullmoveNumber => self.fullmove.to_string(),
                Field::CheckCount => format!("+{}+{}", self.checks[0], self.checks[1]),
                Field::Prisoners => {
                    let n = |c: usize| -> u32 {
                        (0..self.c.kinds.len())
                            .filter(|&k| self.c.kept.has(k))
                            .map(|k| u32::from(self.hand[c][k]))
                            .sum()
                    };
                    format!("{}/{}", n(0), n(1))
                }
                Field::Retake => self.retake_text(),
                Field::InfiltrationUsed => crate::definition::layout::used_text(self.used).into(),
            })
            .collect();
        out.join(" ")
    }

    /// The pocket a FEN writes, without the brackets: every piece in hand, or, where the
    /// layout counts the prisoners in a field of their own (`counted`), those not kept;
    /// `None` where the position has no hands, or holds nothing but counted prisoners.
    fn pocket(&self, counted: bool) -> Option<String> {
        let c = self.c;
        if !c.hands || counted && !c.plain_hands {
            return None;
        }
        let mut out = String::new();
        for color in Color::ALL {
            for (k, &n) in self.hand[color.index()].iter().enumerate() {
                let Some(kind) = c.kinds.get(k) else {
                    break;
                };
                if counted && c.kept.has(k) {
                    continue;
                }
                let letter = match color {
                    Color::White => kind.letter,
                    Color::Black => kind.letter.to_ascii_lowercase(),
                };
                (0..n).for_each(|_| out.push(letter));
            }
        }
        Some(out)
    }

    /// The FEN of the position in Fairy-Stockfish's conventions, the state it has no field
    /// for aside.
    pub fn standard_fen(&self) -> String {
        let g = self.c.geometry;
        let mut out = String::new();
        for rank in (0..g.ranks).rev() {
            let mut empty = 0;
            for file in 0..g.files {
                let sq = Square::new(file, rank);
                let ch = if self.c.holes.contains(&sq) || self.board.is_wall(Sq::of(sq)) {
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
                        let piece = self.board.get(sq);
                        let kind = piece.and_then(|p| self.c.kind_at(p.code()));
                        match piece.filter(|p| p.design().is_some()) {
                            Some(p) => out.push_str(&p.fen_text()),
                            None => match kind.and_then(|k| self.c.promoted_from(k)) {
                                Some(base) => {
                                    out.push('+');
                                    out.push(if ch.is_ascii_uppercase() {
                                        base
                                    } else {
                                        base.to_ascii_lowercase()
                                    });
                                }
                                None => out.push(ch),
                            },
                        }
                        if self.promoted.has(Sq::of(sq)) {
                            out.push('~');
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
        if let Some(pocket) = self.pocket(false) {
            out.push_str(&format!("[{pocket}]"));
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
        // Without castling the field holds the first-move rights, by file (as read); with
        // gating, the gates that castling rights do not already name.
        if self.c.castling.is_none() || self.c.gating.is_some() {
            for color in Color::ALL {
                let named =
                    self.castle[color.index()] | self.king_file(color).map_or(0, |k| 1 << k);
                let shown = |f: &u8| {
                    self.gates[color.index()] >> f & 1 != 0
                        && (self.castle[color.index()] == 0 || named >> f & 1 == 0)
                };
                for f in (0..g.files).filter(shown) {
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
        let ep = self.en_passant_squares();
        if ep.is_empty() {
            out.push('-');
        }
        for sq in ep {
            out.push_str(&g.square_name(sq));
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        if self.c.check_count.is_some() {
            out.push_str(&format!(" +{}+{}", self.checks[0], self.checks[1]));
        }
        out
    }

    #[inline]
    pub(super) fn mine(&self, code: u8, color: Color) -> bool {
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

    /// How many pieces `color` has on the board.
    pub(super) fn piece_total(&self, color: Color) -> u32 {
        self.counts[color.index()]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
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

    /// The pieces on the board: each one's square, side and kind, in square order.
    pub(super) fn placed(&self) -> impl Iterator<Item = (Sq, Color, usize)> + '_ {
        let c = self.c;
        c.squares.iter().copied().filter_map(move |sq| {
            let code = self.board.cell(sq);
            c.kind_at(code).map(|k| (sq, color_of(code), k))
        })
    }

    /// The moves of the mover's pieces of `kinds` (a kind set's bits) on the squares `which`
    /// takes (by kind and square), for a component that a move of one of them sets off: their
    /// own moves, or every move where a component reshapes moves after they are made.
    pub(super) fn moves_of_kinds(
        &self,
        out: &mut Vec<Move>,
        kinds: u64,
        which: impl Fn(usize, Sq) -> bool,
    ) {
        let c = self.c;
        let us = self.turn;
        if c.gating.is_some()
            || !c.first_moves.is_empty()
            || c.defections.iter().any(|d| d.kinds.0 & kinds != 0)
        {
            self.pseudo_moves(out);
            return;
        }
        for &from in &c.squares {
            let code = self.board.cell(from);
            if let Some(kind) = c
                .kind_at(code)
                .filter(|&k| is_of(code, us) && kinds >> k & 1 != 0 && which(k, from))
            {
                self.piece_moves(out, kind, from);
            }
        }
    }

    /// [`Self::pseudo_moves`], noting on the way the squares of the mover's royal pieces.
    fn generate(&self, out: &mut Vec<Move>, royals: &mut Royals) {
        let c = self.c;
        let begin = out.len();
        let us = self.turn;
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
            self.moves_of(out, kind, from);
        }
        self.first_moves(out);
        self.castlings(out);
        if !c.drops.is_empty() {
            self.drops(out);
        }
        for p in c.promotions.iter().filter(|p| p.as_turn) {
            self.turn_promotions(p, out);
        }
        if c.gating.is_some() {
            self.gatings(out, begin);
        }
        if !c.defections.is_empty() {
            self.defections(out, begin);
        }
        if self.c.pass.is_some() {
            self.pass(out, royals);
        }
    }

    /// The moves of the piece of `kind` of the side to move on `from`, by its movement and
    /// what the components add to or take from it there (the part of [`Self::generate`]
    /// that is one piece's).
    pub(super) fn piece_moves(&self, out: &mut Vec<Move>, kind: usize, from: Sq) {
        self.moves_of(out, kind, from)
    }

    /// [`Self::piece_moves`], inlined into the generator's loop.
    #[inline(always)]
    fn moves_of(&self, out: &mut Vec<Move>, kind: usize, from: Sq) {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        let lines = &self.gen.lines[us.index()];
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
                    let inside = !rm.within || rm.region[us.index()].has(to);
                    if inside && !out[first..].iter().any(|m| m.to == to) {
                        self.push(out, kind, from, to, Special::None)
                    }
                },
            );
        }
        if !c.hop_limits.is_empty() {
            self.keep_hops(out, first, kind);
        }
        if let Some(region) = c.confine_of(kind, us) {
            keep_from(out, first, |m| region.has(m.to));
        }
        self.double_steps(out, kind, from);
        self.en_passant_captures(out, kind, from);
        if c.bars_moves() {
            self.drop_barred(out, first, kind, from);
        }
    }

    /// The gating forms of the moves from `begin` on: each piece in hand put on a gate the
    /// move leaves (castling: the king's or the rook's, if neither lands there).
    fn gatings(&self, out: &mut Vec<Move>, begin: usize) {
        let c = self.c;
        let us = self.turn;
        let gates = self.gates[us.index()];
        let hand = &self.hand[us.index()];
        if gates == 0 || hand.iter().all(|&n| n == 0) {
            return;
        }
        let rank = rank_of(c, us, 0);
        let gate = |sq: Sq| sq.square().rank == rank && gates >> sq.square().file & 1 != 0;
        let kinds: Vec<u8> = (0..c.kinds.len())
            .filter(|&k| hand[k] > 0)
            .map(|k| k as u8)
            .collect();
        for i in begin..out.len() {
            let m = out[i];
            match m.special {
                Special::None if m.promo == 0 && gate(m.from) => {
                    for &kind in &kinds {
                        out.push(Move {
                            special: Special::Gate { kind },
                            ..m
                        });
                    }
                }
                Special::Castle { rook, side, .. } => {
                    let Some(castling) = &c.castling else {
                        continue;
                    };
                    let at = |f: u8| Sq::of(Square::new(f, rank));
                    let kto = at(castling.king_to[side as usize]);
                    let rto = at(castling.rook_to[side as usize]);
                    for (sq, flag) in [(m.from, 0), (rook, ROOK_GATE)] {
                        if !gate(sq) || sq == kto || sq == rto {
                            continue;
                        }
                        for &kind in &kinds {
                            out.push(Move {
                                special: Special::Castle {
                                    rook,
                                    side,
                                    gate: (kind + 1) | flag,
                                },
                                ..m
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The promotions of `p`, a promotion that is a turn of its own.
    fn turn_promotions(&self, p: &super::compile::Promotion, out: &mut Vec<Move>) {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        for kind in (0..c.kinds.len()).filter(|&k| p.kinds.has(k)) {
            let own = c.piece(us, kind).code();
            let last = self.counts[us.index()][kind] == 1;
            for &from in &c.squares {
                if self.board.cell(from) != own || !last && !p.region[us.index()].has(from) {
                    continue;
                }
                let mut board = self.board.clone();
                board.set_cell(from, cell::EMPTY);
                for &into in p.targets(kind, us) {
                    if !self.may_promote_into(p, into) {
                        continue;
                    }
                    let movement = &c.kinds[into].movement;
                    let mut tos = vec![from];
                    destinations(
                        movement,
                        &board,
                        from,
                        us,
                        |_| false,
                        |to, _| {
                            if !tos.contains(&to) {
                                tos.push(to)
                            }
                        },
                    );
                    for to in tos {
                        let mut hits = false;
                        destinations(
                            movement,
                            &board,
                            to,
                            us,
                            |t| self.mine(t, them),
                            |_, capture| hits |= capture,
                        );
                        if !hits {
                            out.push(Move {
                                promo: into as u8 + 1,
                                special: Special::Promote,
                                ..Move::plain(from, to)
                            });
                        }
                    }
                }
            }
        }
    }

    /// Whether the mover may promote into `into` under `p`'s limits.
    pub(super) fn may_promote_into(&self, p: &super::compile::Promotion, into: usize) -> bool {
        let us = self.turn.index();
        let have = self.counts[us][into];
        !(p.captured_only && have >= self.start_counts[us][into]
            || p.limits
                .iter()
                .any(|&(k, n)| k == into && have >= u16::from(n)))
    }

    /// The drops of the pieces in the mover's hand (or dropped without being held), each as
    /// its drop component allows: every one [`Self::drop_bar`] finds nothing against.
    pub(super) fn drops(&self, out: &mut Vec<Move>) {
        let c = self.c;
        let us = self.turn;
        // Most positions of a game with prisoners or hands have nothing to drop: the check
        // test and the colours wait for a piece that may be.
        let held = |k: usize| {
            c.drop_component(k)
                .is_some_and(|d| d.free || self.hand[us.index()][k] > 0)
        };
        if !(0..c.kinds.len()).any(held) {
            return;
        }
        let colours = Colours::new(self);
        let checked = self.checked_for_drops();
        for k in 0..c.kinds.len() {
            let Some(d) = c.drop_component(k) else {
                continue;
            };
            if !d.free && self.hand[us.index()][k] == 0 || checked && !d.in_check {
                continue;
            }
            let taken = self.doubled_files(d, k);
            // The kind itself, and the kinds it promotes into where it may be dropped so.
            let faces = std::iter::once(k).chain(
                c.promotions
                    .iter()
                    .flat_map(|p| p.pairs.iter())
                    .filter(|p| d.promoted && p.0 == k)
                    .map(|p| p.1),
            );
            for face in faces {
                for &sq in &c.squares {
                    if self
                        .drop_bar(d, k, face, sq, taken, &colours, checked)
                        .is_none()
                    {
                        out.push(Move {
                            special: Special::Drop { kind: face as u8 },
                            ..Move::plain(sq, sq)
                        });
                    }
                }
            }
        }
    }

    /// Whether the mover is in check, where some drop component forbids dropping in check
    /// (else `false`, not asked).
    pub(super) fn checked_for_drops(&self) -> bool {
        self.c.drops.iter().any(|d| !d.in_check) && self.royal_attacked(self.turn)
    }

    /// The files where the mover already has a piece of `kind`, if `d` forbids doubling it.
    #[inline]
    pub(super) fn doubled_files(&self, d: &Drops, kind: usize) -> u32 {
        if d.no_doubled {
            self.files_holding(kind)
        } else {
            0
        }
    }

    /// What keeps the mover from dropping a `held` piece (from the hand) as a `face` (itself
    /// or its promoted kind) on `sq` under `d`, if anything: the one test the generator leaves
    /// drops out by and the judge names a refusal by. `taken` is [`Self::doubled_files`],
    /// `checked` [`Self::checked_for_drops`].
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn drop_bar(
        &self,
        d: &Drops,
        held: usize,
        face: usize,
        sq: Sq,
        taken: u32,
        colours: &Colours,
        checked: bool,
    ) -> Option<DropBar> {
        let us = self.turn;
        let region = &d.region[us.index()];
        Some(if !d.free && self.hand[us.index()][held] == 0 {
            DropBar::NotHeld
        } else if checked && !d.in_check {
            DropBar::InCheck
        } else if face != held && !(d.promoted && self.c.demoted[face] == held) {
            DropBar::Unpromoted
        } else if self.board.cell(sq) != cell::EMPTY {
            DropBar::Occupied
        } else if !region.is_empty() && !region.has(sq) {
            DropBar::Region
        } else if taken >> sq.square().file & 1 != 0 {
            DropBar::Doubled
        } else if !d.immobile && self.gen.stuck[us.index()][face].has(sq) {
            DropBar::Immobile
        } else if !colours.allow(face, sq) {
            DropBar::Colours
        } else if d.opening.iter().any(|&t| self.board.cell(t) == cell::EMPTY) {
            if d.opening.contains(&sq) {
                return None;
            }
            DropBar::Opening
        } else {
            match d.onto {
                Onto::Anywhere => return None,
                Onto::NextToOwn if next_to(&self.board, sq, us) => return None,
                Onto::Enclosing
                    if match d.through_holes {
                        true => enclosed_through_holes(&self.board, sq, us),
                        false => enclosed(&self.board, sq, us, |_| {}),
                    } =>
                {
                    return None
                }
                Onto::NextToOwn => DropBar::NotNextToOwn,
                Onto::Enclosing => DropBar::NotEnclosing,
            }
        })
    }

    /// Under `pass` with `stuck`: a turn of `legal` other than the pass, which bars passing.
    pub(super) fn bars_pass(&self, legal: &[Move]) -> Option<Move> {
        if !self.c.pass_stuck {
            return None;
        }
        legal.iter().copied().find(|m| m.special != Special::Pass)
    }

    /// Under a `drops` component with `must`: whether `legal` holds a drop it makes, which
    /// makes every other turn illegal.
    pub(super) fn must_drop(&self, legal: &[Move]) -> bool {
        self.c.drops.iter().any(|d| d.must) && legal.iter().any(|m| self.forced_drop(*m))
    }

    /// Whether `m` is a drop of a `drops` component with `must`.
    pub(super) fn forced_drop(&self, m: Move) -> bool {
        m.dropped()
            .and_then(|k| self.c.drop_component(k))
            .is_some_and(|d| d.must)
    }

    /// The files (a bit each) where the mover has a piece of `kind`.
    pub(super) fn files_holding(&self, kind: usize) -> u32 {
        let own = self.c.piece(self.turn, kind).code();
        self.c
            .squares
            .iter()
            .filter(|&&sq| self.board.cell(sq) == own)
            .fold(0, |acc, sq| acc | 1 << sq.square().file)
    }

    /// Whether `m` is judged by what it leaves, beyond the shared legality test: a drop that
    /// `no-mate` or `gives-check no` binds, or a promotion that is a turn of its own.
    fn judged_after(&self, m: Move) -> bool {
        m.special == Special::Promote
            || m.dropped()
                .and_then(|k| self.c.drop_component(k))
                .is_some_and(|d| d.no_mate || !d.gives_check)
    }

    /// What forbids `m`, played into `next`, besides the shared legality test: a promotion
    /// that is a turn of its own, or a drop under `gives-check no`, may not give check, and a
    /// drop that `no-mate` binds may not checkmate.
    fn forbidden_after(&self, m: Move, next: &Position) -> Option<Forbid> {
        if !self.judged_after(m) || !next.royal_attacked(next.turn) {
            return None;
        }
        if m.special == Special::Promote {
            return Some(Forbid::PromotionCheck);
        }
        if m.dropped()
            .and_then(|k| self.c.drop_component(k))
            .is_some_and(|d| !d.gives_check)
        {
            return Some(Forbid::DropCheck);
        }
        let mut replies = Vec::new();
        next.legal_moves(&mut replies);
        replies.is_empty().then_some(Forbid::DropMate)
    }

    /// Drops from `out[first..]` the moves of a piece of `kind` that a `hop-limit` forbids.
    fn keep_hops(&self, out: &mut Vec<Move>, first: usize, kind: usize) {
        keep_from(out, first, |m| {
            hop_allowed(self.c, &self.board, kind, m.from, m.to)
        });
    }

    /// Appends the pass (`pass`), made on the square of the mover's first royal piece, or of
    /// its first piece; a side with no piece has none.
    fn pass(&self, out: &mut Vec<Move>, royals: &Royals) {
        let us = self.turn;
        let at = royals.list().next().or_else(|| {
            self.c
                .squares
                .iter()
                .copied()
                .find(|&sq| self.mine(self.board.cell(sq), us))
        });
        if let Some(sq) = at {
            out.push(Move {
                special: Special::Pass,
                ..Move::plain(sq, sq)
            });
        }
    }

    /// Whether the royal pieces face each other (`bikjang`): a royal piece of the side to
    /// move and an enemy one on a file with nothing between.
    pub(super) fn bikjang_now(&self) -> bool {
        let us = self.turn;
        self.royals(us)
            .any(|sq| facing_on(self.c, &self.board, sq, us).is_some())
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
                        out.push(Move::plain(from, t));
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

    /// Pushes a move of a piece of `kind`, as each promotion it may or must make.
    pub(super) fn push(
        &self,
        out: &mut Vec<Move>,
        kind: usize,
        from: Sq,
        to: Sq,
        special: Special,
    ) {
        let us = self.turn;
        let plain = Move {
            promo: 0,
            special,
            ..Move::plain(from, to)
        };
        let promotion = self.gen.promoting.has(kind).then(|| {
            self.c.promotions.iter().find(|p| {
                let region = &p.region[us.index()];
                !p.as_turn && p.kinds.has(kind) && (region.has(to) || p.leaving && region.has(from))
            })
        });
        let Some(p) = promotion.flatten() else {
            out.push(plain);
            return;
        };
        for &into in p.targets(kind, us) {
            if !self.may_promote_into(p, into) {
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
        could_move(self.c, &self.board, kind, sq, self.turn)
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
                promo: 0,
                special: Special::Castle {
                    rook: at(rf),
                    side,
                    gate: 0,
                },
                ..Move::plain(ks, at(kto))
            });
        }
    }

    /// Plays a move, legal or not (the judge plays each move it judges): a turn of two
    /// actions plays both, as one turn.
    pub fn apply(&mut self, m: Move) {
        let Some(second) = m.second() else {
            return self.apply_one(m);
        };
        let us = self.turn;
        let (fullmove, checks) = (self.fullmove, self.checks);
        self.apply_one(Move { then: None, ..m });
        let (halfmove, first, window) = (self.halfmove, self.arrival[0], self.retake);
        self.turn = us;
        self.fullmove = fullmove;
        self.checks = checks;
        self.apply_one(second);
        // Either action's capture may open the window; it closes after the reply.
        self.retake = self.retake.or(window);
        // One turn: its clock is reset by either action, else counts one.
        if self.halfmove != 0 {
            self.halfmove = halfmove;
        }
        self.arrival = [first, self.arrival[0]];
    }

    /// Plays one action as a whole turn.
    fn apply_one(&mut self, m: Move) {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        self.infiltrated = None;
        let moving = self.board.cell(m.from);
        let kind = m.dropped().or(c.kind_at(moving)).unwrap_or(0);
        let victim = match m.special {
            Special::EnPassant { victim } => victim,
            _ => m.to,
        };
        let taken = match m.special {
            Special::Castle { .. }
            | Special::Drop { .. }
            | Special::Promote
            | Special::Pass
            | Special::Place => cell::EMPTY,
            _ => self.board.cell(victim),
        };
        if m.special == Special::Place {
            self.place(m);
        }
        let window = self.window_of(m);
        let defected = self.defection_made(m);
        let mut changes = Changes::default();
        let captured = play_on(c, &mut self.board, us, m, &mut changes);
        self.retake = window;
        self.bared = defected.and_then(|d| self.bared_by(d, m, us));
        if c.hands {
            self.update_hand(m, kind, victim, taken);
        }
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
                if rights == 0 || !changes.list().any(|e| e.0.square().rank == rank) {
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
        if let (Some(k), Some(castling)) = (m.dropped(), &c.castling) {
            if let Some(kf) = castling.drop_rights {
                self.gain_drop_rights(m, k, kf);
            }
        }
        self.mark_passed(m);
        if self.gates != [0, 0] && m.special != Special::Pass {
            self.update_gates(m, us);
            if c.gating.is_some() {
                if let Special::Castle { rook, .. } = m.special {
                    self.gates[us.index()] &= !(1 << rook.square().file);
                }
                // Gates are for pieces from the hand: none left, none kept.
                if self.hand[us.index()].iter().all(|&n| n == 0) {
                    self.gates[us.index()] = 0;
                }
            }
        }
        if let (Some(b), Some(sq)) = (&c.blocker, m.block) {
            self.place_blocker(b, sq);
        }
        self.passes = match m.special {
            Special::Pass => self.passes.saturating_add(1),
            _ => 0,
        };
        self.arrival = super::contact::Arrival::of(m);
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

    /// Castling rights a drop gains (`drop-rights`): the king dropped on its file of the
    /// castling rank, with the rooks in the corners; a rook dropped in a corner, while the
    /// king stands there.
    fn gain_drop_rights(&mut self, m: Move, kind: usize, king_file: u8) {
        let c = self.c;
        let Some(castling) = &c.castling else {
            return;
        };
        let us = self.turn;
        let rank = back_rank(c, us);
        let to = m.to.square();
        if to.rank != rank {
            return;
        }
        let corners = [0, c.geometry.files - 1];
        let holds = |f: u8, kinds: KindSet| {
            let code = self.board.cell(Sq::of(Square::new(f, rank)));
            is_of(code, us) && c.kind_at(code).is_some_and(|k| kinds.has(k))
        };
        let king = KindSet(1 << castling.king);
        if kind == castling.king && to.file == king_file {
            for f in corners {
                if holds(f, castling.rooks) {
                    self.castle[us.index()] |= 1 << f;
                }
            }
        } else if castling.rooks.has(kind) && corners.contains(&to.file) && holds(king_file, king) {
            self.castle[us.index()] |= 1 << to.file;
        }
    }

    /// The hand and the promoted marks after `m`, a move of a piece of `kind` that took
    /// `taken` (a cell code) on `victim`.
    fn update_hand(&mut self, m: Move, kind: usize, victim: Sq, taken: u8) {
        let c = self.c;
        let us = self.turn;
        if let Some(k) = m.dropped() {
            if !c.drop_component(k).is_some_and(|d| d.free) {
                let n = &mut self.hand[us.index()][c.demoted.get(k).copied().unwrap_or(k)];
                *n = n.saturating_sub(1);
            }
            return;
        }
        if let Some((k, _)) = m.gated() {
            let n = &mut self.hand[us.index()][k];
            *n = n.saturating_sub(1);
        }
        let was_promoted = self.promoted.has(victim);
        if let Some(k) = c.kind_at(taken) {
            let back = match c.unpromoted.filter(|_| was_promoted) {
                Some(pawn) => pawn,
                None => c.demoted.get(k).copied().unwrap_or(k),
            };
            // A prisoner is kept for its owner; any other capture goes to the capturer.
            let keeper = match c.kept.has(back) {
                true => Some(us.other()),
                false => c.captures_to_hand.map(|_| us),
            };
            if let Some(keeper) = keeper {
                let n = &mut self.hand[keeper.index()][back];
                *n = n.saturating_add(1);
            }
        }
        if was_promoted {
            self.promoted.remove(victim);
        }
        if self.promoted.has(m.from) {
            self.promoted.remove(m.from);
            self.promoted.add(m.to);
        }
        // A piece made by a promotion that is not shogi-style is marked, to go back.
        if m.promotion().is_some() && c.unpromoted == Some(kind) {
            self.promoted.add(m.to);
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
            Seen::default(),
        )
        .or_else(|| self.forbidden_after(m, next))
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
        seen: Seen,
    ) -> Option<Forbid> {
        let c = self.c;
        let us = self.turn;
        let them = us.other();
        if c.bikjang.is_some() && self.bikjang_now() {
            // Facing royal pieces: a pass is always allowed, any other move must part them.
            if m.special == Special::Pass {
                return None;
            }
            if royals(us).any(|sq| facing_on(c, board, sq, us).is_some()) {
                return Some(Forbid::Bikjang);
            }
        }
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
        // The pieces the contact components look at, found once for the three questions.
        let spots = (!c.contacts.is_empty() && !seen.no_contact).then(|| {
            seen.spots
                .unwrap_or_else(|| super::contact::Spots::of(c, board))
        });
        if let Some(spots) = &spots {
            if let Some(k) = self.contact_refusal(m, board, spots, true, seen.near.as_ref()) {
                return Some(Forbid::Contact(k));
            }
        }
        if let Some((_, safety)) = c.check {
            // A gated piece that does not shield is lifted for the test (Fairy-Stockfish's),
            // and so is a piece a winning contact flips: the turn that flips it is not judged
            // by its attack.
            let gated = m.gated().filter(|_| !c.gate_shields).map(|(_, at)| at);
            let flipped = spots
                .as_ref()
                .and_then(|spots| self.flipped_after(m, board, spots));
            let lifted = (gated.is_some() || flipped.is_some()).then(|| {
                let mut b = board.clone();
                for sq in gated.into_iter().chain(flipped) {
                    b.put(sq.square(), None);
                }
                b
            });
            let judged = lifted.as_ref().unwrap_or(board);
            let among = seen.transparent.as_ref();
            if !royals_safe(c, judged, safety, royals(us), royal_count(us), them, among) {
                return Some(Forbid::Check);
            }
        }
        if c.no_giving_check.is_some() && royals(them).any(|sq| attacked_on(c, board, sq, us)) {
            return Some(Forbid::GivesCheck);
        }
        if let Some(spots) = &spots {
            if let Some(k) = self.contact_refusal(m, board, spots, false, seen.near.as_ref()) {
                return Some(Forbid::Contact(k));
            }
        }
        None
    }

    /// Puts the blocker on `sq`, taking the one that stood elsewhere off unless blockers
    /// stay; a blocker on the square a double step passed leaves nothing to take en passant.
    fn place_blocker(&mut self, b: &super::compile::Blocker, sq: Sq) {
        if !b.keep {
            for &s in &self.c.squares {
                if self.board.is_wall(s) {
                    self.board.restore_square(s.square());
                }
            }
        }
        self.board.remove_square(sq.square());
        if self.ep.contains(&Some(sq)) {
            self.ep = [None, None];
            self.ep_victim = None;
        }
    }

    /// Under `blocker`: each move of `out[start..]` once for every square the blocker may
    /// then go to, in the board's square order; a move after which it has none is dropped.
    fn with_blocks(&self, out: &mut Vec<Move>, start: usize) {
        let Some(b) = &self.c.blocker else {
            return;
        };
        let base: Vec<Move> = out.drain(start..).collect();
        let mut scratch = self.board.clone();
        for m in base {
            let mut changes = Changes::default();
            play_on(self.c, &mut scratch, self.turn, m, &mut changes);
            for sq in self.block_squares(b, &scratch, m) {
                out.push(Move {
                    block: Some(sq),
                    then: None,
                    ..m
                });
            }
            changes.undo(&mut scratch);
        }
    }

    /// The squares the blocker may go to after `m`, on `board` (the board after it): any
    /// empty square, or with `shot` those the moved piece's movement reaches from where it
    /// landed (moving only, as an arrow flies).
    fn block_squares(&self, b: &super::compile::Blocker, board: &Board, m: Move) -> Vec<Sq> {
        if !b.shot {
            return self
                .c
                .squares
                .iter()
                .copied()
                .filter(|&sq| board.cell(sq) == cell::EMPTY)
                .collect();
        }
        let Some(kind) = self.c.kind_at(self.board.cell(m.from)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        destinations(
            &self.c.kinds[kind].movement,
            board,
            m.to,
            self.turn,
            |_| false,
            |to, _| {
                if !out.contains(&to) {
                    out.push(to)
                }
            },
        );
        out
    }

    /// Appends the legal moves.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        let c = self.c;
        // The contacts' pieces, and where a contact could arise, found once for the node.
        let spots = (!c.contacts.is_empty()).then(|| super::contact::Spots::of(c, &self.board));
        let danger = spots
            .as_ref()
            .map(|spots| super::contact::Danger::of(c, &self.board, spots));
        let apart = danger
            .as_ref()
            .zip(spots.as_ref())
            .is_some_and(|(d, spots)| d.apart(spots));
        if self.decided_with(apart).is_some() {
            return;
        }
        let start = out.len();
        let mut royals = Royals::default();
        self.generate(out, &mut royals);
        let forbidding = c.check.is_some()
            || !c.contacts.is_empty()
            || c.explosion.is_some()
            || c.no_giving_check.is_some()
            || c.checked_royal_captures.is_some();
        let tester = forbidding.then(|| Tester::new(self, royals, spots, danger, apart));
        // The first actions of turns of two, among the moves before any is judged.
        let firsts: Vec<(Move, usize)> = if c.opens() {
            out[start..]
                .iter()
                .filter_map(|&m| self.exit_opened(m).map(|opened| (m, opened)))
                .collect()
        } else {
            Vec::new()
        };
        // And those that may set off an infiltration.
        let triggers: Vec<Move> = if !c.infiltrations.is_empty() && !self.infiltrations_spent() {
            out[start..]
                .iter()
                .copied()
                .filter(|&m| self.trigger(m).is_some())
                .collect()
        } else {
            Vec::new()
        };
        // One scratch board for the node: each tested move is played on it and taken back.
        let mut scratch: Option<Board> = None;
        if let Some(tester) = &tester {
            // A piece's moves come together: whether all its plain ones are quiet is asked
            // once, of its square.
            let mut piece: Option<(Sq, bool)> = None;
            keep_from(out, start, |m| {
                if tester.shields.is_some() && m.is_single_plain() {
                    let quiet = match piece {
                        Some((from, quiet)) if from == m.from => quiet,
                        _ => {
                            let quiet = tester.quiet_piece(self, m.from);
                            piece = Some((m.from, quiet));
                            quiet
                        }
                    };
                    if quiet {
                        return true;
                    }
                }
                tester.admits(self, m)
                    || tester.allows(self, m, scratch.get_or_insert_with(|| self.board.clone()))
            });
        }
        if c.drops.iter().any(|d| d.no_mate || !d.gives_check)
            || c.promotions.iter().any(|p| p.as_turn)
        {
            keep_from(out, start, |m| {
                !self.judged_after(m) || {
                    let mut next = self.clone();
                    next.apply(m);
                    self.forbidden_after(m, &next).is_none()
                }
            });
        }
        if self.must_drop(&out[start..]) {
            keep_from(out, start, |m| self.forced_drop(m));
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
        if c.opens() {
            // A turn of two actions is judged whole, as one move is: on the scratch board.
            let quiet = |m: Move| tester.as_ref().is_some_and(|t| t.leaves_apart(self, m));
            let scratch = std::cell::RefCell::new(scratch);
            let board = || {
                std::cell::RefMut::map(scratch.borrow_mut(), |s| {
                    s.get_or_insert_with(|| self.board.clone())
                })
            };
            let refused = |m: Move| {
                tester
                    .as_ref()
                    .is_some_and(|t| t.contact_refuses(self, m, &mut board()))
            };
            self.with_entries(out, &firsts, quiet, refused, |m| match &tester {
                Some(tester) => tester.admits(self, m) || tester.allows(self, m, &mut board()),
                None => {
                    let mut end = self.clone();
                    end.apply(m);
                    self.legal_after(m, &end)
                }
            });
        }
        if !c.infiltrations.is_empty() {
            self.infiltrations(out, true, Some(&triggers));
        }
        if self.bars_pass(&out[start..]).is_some() {
            keep_from(out, start, |m| m.special != Special::Pass);
        }
        if c.blocker.is_some() {
            self.with_blocks(out, start);
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
        // Only the one piece that gives check may be taken: in double check a king cannot
        // take both, so it does not move (Fairy-Stockfish's makpong rule).
        let victim = self.board.cell(m.to);
        if !self.mine(victim, us.other()) || !self.gives_check(m.to) {
            return false;
        }
        !c.squares.iter().any(|&sq| {
            sq != m.to && self.mine(self.board.cell(sq), us.other()) && self.gives_check(sq)
        })
    }

    /// Whether the enemy piece on `from` attacks a royal piece of the side to move.
    fn gives_check(&self, from: Sq) -> bool {
        let c = self.c;
        let us = self.turn;
        let Some(kind) = c.kind_at(self.board.cell(from)) else {
            return false;
        };
        let mut checks = false;
        for royal in self.royals(us) {
            destinations(
                &c.kinds[kind].movement,
                &self.board,
                from,
                us.other(),
                |t| self.mine(t, us),
                |to, capture| checks |= capture && to == royal,
            );
        }
        checks
    }

    pub fn is_capture(&self, m: Move) -> bool {
        matches!(m.special, Special::EnPassant { .. })
            || !matches!(
                m.special,
                Special::Castle { .. } | Special::Promote | Special::Pass
            ) && self.board.cell(m.to) != cell::EMPTY
    }

    /// A game end that the position shows before any move is generated: a side without the
    /// pieces an extinction rule counts, a piece on its goal, the last check given. The
    /// value is the side's it happens to; the rule is the component's.
    pub fn decided(&self) -> Option<(Color, Value, &'static str)> {
        self.decided_with(false)
    }

    /// [`Self::decided`], told whether the board's contact pieces stand apart, so that no
    /// contact ends the game.
    pub(super) fn decided_with(&self, apart: bool) -> Option<(Color, Value, &'static str)> {
        let c = self.c;
        let mover = self.turn;
        let last = mover.other();
        // The endings a turn brings about together (a defection's bare win, an
        // infiltration's, contacts) are ranked alike: the highest priority, then the first
        // written, decides.
        let mut first: Option<(super::contact::Rank, (Color, Value, &'static str))> = None;
        let mut rank = |r: super::contact::Rank, end| {
            if first.is_none_or(|(f, _)| r.0 > f.0 || r.0 == f.0 && r.1 < f.1) {
                first = Some((r, end));
            }
        };
        if let Some(d) = self.bared {
            let d = &c.defections[d as usize];
            rank((d.priority, d.tag.index), (last, Value::Win, d.bare_rule));
        }
        if let Some(i) = self.infiltrated {
            let i = &c.infiltrations[i as usize];
            rank((i.priority, i.tag.index), (last, Value::Win, i.tag.rule));
        }
        if !c.contacts.is_empty() && !apart {
            if let Some((r, end)) = self.contact_ending_ranked() {
                rank(r, end);
            }
        }
        if let Some((_, end)) = first {
            return Some(end);
        }
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
            for color in [last, mover] {
                let other = self.piece_total(color.other());
                if self.piece_total(color) <= 1 && other >= b.against as u32 {
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
                        && !(g.safe && self.attacked(sq, color.other()))
                })
            };
            let decided = |color: Color| Some((color, g.ending.value, g.ending.tag.rule));
            if reached(mover) {
                // The second player matched the first: neither got there first.
                if (g.timing == Timing::UnlessMatched || g.safe) && reached(last) {
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
        if let Some(end) = self.pass_ending() {
            return Some(end);
        }
        if let Some(e) = c.full_board {
            if c.squares
                .iter()
                .all(|&sq| self.board.cell(sq) != cell::EMPTY)
            {
                return Some((mover, e.value, e.tag.rule));
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

    /// The game ends by passing: the royal pieces still face each other after a pass
    /// (`bikjang`), or two passes in a row (`pass`). The value is the side's to move.
    fn pass_ending(&self) -> Option<(Color, Value, &'static str)> {
        if self.passes == 0 {
            return None;
        }
        if let Some(b) = self.c.bikjang.filter(|_| self.bikjang_now()) {
            return Some((self.turn, b.value, b.tag.rule));
        }
        let p = self.c.pass.filter(|_| self.passes >= 2)?;
        Some((self.turn, p.value, p.tag.rule))
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
        if self.c.hands {
            self.hand.hash(&mut h);
            self.promoted.hash(&mut h);
        }
        self.checks.hash(&mut h);
        self.retake.hash(&mut h);
        self.used.hash(&mut h);
        h.finish()
    }
}

/// What `opposite-colours` asks of the mover's drops: by bound kind, how many of its pieces
/// the side has in all, stand on each square colour, and how many empty squares of each
/// colour its drops may still use.
pub(super) struct Colours {
    bound: Vec<Bound>,
}

/// One bound kind of [`Colours`].
struct Bound {
    kind: usize,
    /// The side's pieces of it, on the board and in hand.
    total: u16,
    /// On dark and light squares.
    on: [u16; 2],
    /// Empty squares of each colour it may be dropped on.
    free: [u16; 2],
    region: SqSet,
}

impl Colours {
    pub(super) fn new(pos: &Position) -> Colours {
        let c = pos.c;
        let us = pos.turn;
        let Some((_, kinds)) = c.opposite_colours else {
            return Colours { bound: Vec::new() };
        };
        let bound = (0..c.kinds.len())
            .filter(|&k| kinds.has(k))
            .map(|k| {
                let total = pos.counts[us.index()][k] + u16::from(pos.hand[us.index()][k]);
                let region = c
                    .drop_component(k)
                    .map(|d| d.region[us.index()])
                    .unwrap_or_default();
                let own = c.piece(us, k).code();
                let (mut on, mut free) = ([0u16; 2], [0u16; 2]);
                for &sq in &c.squares {
                    let code = pos.board.cell(sq);
                    if code == own {
                        on[shade(sq)] += 1;
                    } else if code == cell::EMPTY && (region.is_empty() || region.has(sq)) {
                        free[shade(sq)] += 1;
                    }
                }
                Bound {
                    kind: k,
                    total,
                    on,
                    free,
                    region,
                }
            })
            .collect();
        Colours { bound }
    }

    /// Whether dropping a piece of `kind` on `to` leaves each bound kind room on both
    /// colours: a bound piece goes where its side has no more than half of them, and any
    /// other drop must leave enough free squares of each colour for those still in hand.
    fn allow(&self, kind: usize, to: Sq) -> bool {
        self.bound.iter().all(|b| {
            let Bound {
                kind: k,
                total,
                on,
                free,
                region,
            } = *b;
            if k == kind {
                on[shade(to)] < total.div_ceil(2)
            } else {
                let used = usize::from(region.is_empty() || region.has(to));
                (0..2).all(|s| {
                    let left = free[s] - if s == shade(to) { used as u16 } else { 0 };
                    on[s] + left >= total / 2
                })
            }
        })
    }
}

/// The colour of a square: 0 for dark (a1), 1 for light.
fn shade(sq: Sq) -> usize {
    let s = sq.square();
    usize::from((s.file + s.rank) % 2 == 1)
}

/// Keeps, of `out[start..]`, the moves `keep` holds, in their order.
pub(super) fn keep_from(out: &mut Vec<Move>, start: usize, mut keep: impl FnMut(Move) -> bool) {
    let mut kept = start;
    for i in start..out.len() {
        let m = out[i];
        if keep(m) {
            out[kept] = m;
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// Whether a piece of `kind` of `color` on `sq` of `board` has a step that stays on the board.
fn could_move(c: &Compiled, board: &Board, kind: usize, sq: Sq, color: Color) -> bool {
    c.kinds[kind].movement.atoms.iter().any(|a| {
        a.steps
            .iter()
            .any(|&s| !board_is_wall(board, sq.offset(offset(s, color))))
    })
}

/// Why a drop may not go on a square ([`Position::drop_bar`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropBar {
    /// The side holds no such piece.
    NotHeld,
    /// The side is in check, and the component does not drop in check (`in-check no`).
    InCheck,
    /// The piece is written promoted, and its drop component drops pieces as themselves.
    Unpromoted,
    /// The square is not empty.
    Occupied,
    /// The square is outside the side's region for the kind.
    Region,
    /// The side has a piece of the kind on the file (`no-doubled`).
    Doubled,
    /// The piece could never move from there.
    Immobile,
    /// Too few squares of a colour would be left for the colour-bound pieces in hand.
    Colours,
    /// A square of the `opening` is still empty, and this is not one.
    Opening,
    /// No piece of the side stands next to the square (`onto next-to-own`).
    NotNextToOwn,
    /// No line of enemy pieces runs from the square to one of the side's (`onto enclosing`).
    NotEnclosing,
}

/// What stands on the eight neighbours of `sq` (a wall off the board).
pub(super) fn neighbour_cells(board: &Board, sq: Sq) -> impl Iterator<Item = u8> + '_ {
    KING_STEPS
        .iter()
        .map(move |&(f, r)| board.cell(sq.offset(crate::rules::board::delta(f as i32, r as i32))))
}

/// Whether a piece of `us` stands on one of the eight neighbours of `sq`.
fn next_to(board: &Board, sq: Sq, us: Color) -> bool {
    neighbour_cells(board, sq).any(|code| is_of(code, us))
}

/// Whether a piece of `us` on `sq` would enclose enemy pieces: a run of one or more of them on
/// a rank, file or diagonal from `sq`, ended by a piece of `us`. `each` is given every square
/// of every such run (othello's flips).
fn enclosed(board: &Board, sq: Sq, us: Color, mut each: impl FnMut(Sq)) -> bool {
    let them = us.other();
    let mut any = false;
    for &s in KING_STEPS.iter() {
        let step = offset(s, us);
        let mut t = sq.offset(step);
        let mut run = 0;
        while is_of(board.cell(t), them) {
            t = t.offset(step);
            run += 1;
        }
        if run > 0 && is_of(board.cell(t), us) {
            any = true;
            let mut f = sq.offset(step);
            for _ in 0..run {
                each(f);
                f = f.offset(step);
            }
        }
    }
    any
}

/// `onto enclosing` under `through-holes yes`, Fairy-Stockfish's test: the square is next to an
/// enemy piece, and along some line the first board square past enemy pieces and holes, two or
/// more steps away, holds a piece of the side's. A line may so run over holes alone.
fn enclosed_through_holes(board: &Board, sq: Sq, us: Color) -> bool {
    let them = us.other();
    let hole = |t: Sq| board.is_wall(t) && board.geometry().contains(t.square());
    let next_to_enemy = KING_STEPS
        .iter()
        .any(|&s| is_of(board.cell(sq.offset(offset(s, us))), them));
    next_to_enemy
        && KING_STEPS.iter().any(|&s| {
            let step = offset(s, us);
            let mut t = sq.offset(step);
            let mut steps = 1;
            while is_of(board.cell(t), them) || hole(t) {
                t = t.offset(step);
                steps += 1;
            }
            steps >= 2 && is_of(board.cell(t), us)
        })
}

/// Whether `code` is a piece of `color`.
#[inline]
pub(super) fn is_of(code: u8, color: Color) -> bool {
    code != cell::EMPTY && code != cell::WALL && (code & 1) == color as u8
}

/// The side of the piece `code` (a piece's code, not an empty cell's).
#[inline]
pub(super) fn color_of(code: u8) -> Color {
    Color::ALL[(code & 1) as usize]
}

/// Whether royal pieces on `royals` (`count` of them) are safe from `by` as `safety` asks:
/// none attacked, or not the last one, or at least one not attacked.
fn royals_safe(
    c: &Compiled,
    board: &Board,
    safety: Safety,
    mut royals: impl Iterator<Item = Sq>,
    count: u32,
    by: Color,
    among: Option<&SqSet>,
) -> bool {
    let attacked = |sq: Sq| attacked_among(c, board, sq, by, among);
    match safety {
        Safety::All => royals.all(|sq| !attacked(sq)),
        Safety::LastOne => count >= 2 || royals.all(|sq| !attacked(sq)),
        Safety::AnyOne => {
            let mut any = false;
            for sq in royals {
                any = true;
                if !attacked(sq) {
                    return true;
                }
            }
            !any
        }
    }
}

/// Whether `code` is a royal piece of `color`.
#[inline]
fn royal_of(c: &Compiled, code: u8, color: Color) -> bool {
    is_of(code, color) && c.kind_at(code).is_some_and(|k| c.royal.has(k))
}

/// Whether a piece of `by` attacks `target` on `board` (could capture there). The attack
/// tables give every attacker; each component that narrows attacks is asked once of each:
/// under `explosion` a royal piece never captures, nor does a piece whose capture would blow
/// up its own royal piece; a confined piece attacks only inside its region; a zone admits the
/// capture or not; a `hop-limit` bars passing over or taking its immune kinds.
pub(super) fn attacked_on(c: &Compiled, board: &Board, target: Sq, by: Color) -> bool {
    attacked_among(c, board, target, by, None)
}

/// [`attacked_on`], where the transparent pieces stand among `among` when it is given (a set
/// kept from the position before a move, with the squares the move changed).
fn attacked_among(
    c: &Compiled,
    board: &Board,
    target: Sq,
    by: Color,
    among: Option<&SqSet>,
) -> bool {
    let Some((mut open, lifted)) = opened_among(c, board, target, among) else {
        return attacked_plain(c, board, target, by);
    };
    if attacked_plain(c, &open, target, by) {
        return true;
    }
    // A transparent piece does not block, but it attacks: each of `by`'s, put back alone.
    for sq in lifted.iter() {
        let code = board.cell(sq);
        if !is_of(code, by) {
            continue;
        }
        open.set_cell(sq, code);
        let hit = attacked_plain(c, &open, target, by);
        open.set_cell(sq, cell::EMPTY);
        if hit {
            return true;
        }
    }
    false
}

/// Whether the piece on `sq` is one a `transparent` component lets attacks pass over.
#[inline]
fn transparent_at(c: &Compiled, board: &Board, sq: Sq) -> bool {
    let code = board.cell(sq);
    c.kind_at(code).is_some_and(|kind| {
        let side = (code & 1) as usize;
        c.transparent
            .iter()
            .any(|(_, kinds, region)| kinds.has(kind) && region[side].has(sq))
    })
}

/// `board` with the pieces a `transparent` component lets attacks pass over lifted (but the
/// one on `target`), and their squares; `None` when there are none.
pub(super) fn opened(c: &Compiled, board: &Board, target: Sq) -> Option<(Board, SqSet)> {
    opened_among(c, board, target, None)
}

/// [`opened`], the transparent pieces looked for among `among` when it is given, else on
/// every square.
fn opened_among(
    c: &Compiled,
    board: &Board,
    target: Sq,
    among: Option<&SqSet>,
) -> Option<(Board, SqSet)> {
    if c.transparent.is_empty() {
        return None;
    }
    let mut lifted = SqSet::default();
    let mut any = false;
    let mut lift = |sq: Sq| {
        if sq != target && transparent_at(c, board, sq) {
            lifted.add(sq);
            any = true;
        }
    };
    match among {
        Some(among) => among.iter().for_each(&mut lift),
        None => c.squares.iter().copied().for_each(&mut lift),
    }
    if !any {
        return None;
    }
    let mut open = board.clone();
    for sq in lifted.iter() {
        open.set_cell(sq, cell::EMPTY);
    }
    Some((open, lifted))
}

/// [`attacked_on`] on `board` as it stands, every piece blocking.
fn attacked_plain(c: &Compiled, board: &Board, target: Sq, by: Color) -> bool {
    if (c.flying.is_some() || !c.region_moves.is_empty())
        && attacked_by_region(c, board, target, by)
    {
        return true;
    }
    let exploding = c.explosion.is_some();
    if exploding && royal_near(c, board, target, by) {
        return false;
    }
    let tables = &c.tables[by.index()];
    if !exploding && c.confined.is_empty() && !c.zoned() && c.hop_limits.is_empty() {
        return tables
            .attacker(board, target, |_| true, |_, _| false)
            .is_some();
    }
    tables
        .attacker(
            board,
            target,
            |a| {
                // An invented piece is narrowed by no component.
                let Some(k) = c.kind_at(a.code) else {
                    return true;
                };
                !(exploding && c.royal.has(k))
                    && c.confine_of(k, by).is_none_or(|r| r.has(target))
                    && c.zone_admits(board, k, by, a.from, target, true)
                    && hop_allowed(c, board, k, a.from, target)
            },
            |_, _| false,
        )
        .is_some()
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
        let attacks_from = |from: Sq| {
            if !region.has(from) {
                return false;
            }
            let code = board.cell(from);
            let theirs = code != cell::EMPTY && code != cell::WALL && (code & 1) == by as u8;
            let Some(kind) = c.kind_at(code).filter(|&k| theirs && rm.kinds.has(k)) else {
                return false;
            };
            if !c.zone_admits(board, kind, by, from, target, false) {
                return false;
            }
            let mut hit = false;
            destinations(
                &rm.movement,
                board,
                from,
                by,
                |_| true,
                |to, _| {
                    hit |= to == target
                        && (!rm.within || region.has(to))
                        && hop_allowed(c, board, kind, from, to)
                },
            );
            hit
        };
        // A leaper attacks from the squares its leaps lead back to, and from no other.
        let hit = if rm
            .movement
            .atoms
            .iter()
            .all(|a| matches!(a.reach, Reach::Leap))
        {
            rm.movement
                .atoms
                .iter()
                .flat_map(|a| a.steps.iter())
                .filter_map(|&step| {
                    let at = target.0 as i32 - offset(step, by);
                    (0..crate::rules::board::CELLS as i32)
                        .contains(&at)
                        .then_some(Sq(at as u16))
                })
                .any(attacks_from)
        } else {
            // A rider gained in a region attacks only from a square of the region.
            region.iter().any(attacks_from)
        };
        if hit {
            return true;
        }
    }
    false
}

/// Whether a move of a piece of `kind` from `from` to `to` keeps every `hop-limit` that
/// names the kind: no piece of an immune kind on `to`, nor on a square strictly between
/// `from` and `to` along a straight line (a leap off the lines passes over nothing).
pub(super) fn hop_allowed(c: &Compiled, board: &Board, kind: usize, from: Sq, to: Sq) -> bool {
    c.hop_limits
        .iter()
        .filter(|h| h.kinds.has(kind))
        .all(|h| hop_limit_blocker(c, board, h, from, to).is_none())
}

/// The square of the first piece of `h`'s immune kinds that a move from `from` to `to` passes
/// over or takes, if any.
pub(super) fn hop_limit_blocker(
    c: &Compiled,
    board: &Board,
    h: &super::compile::HopLimit,
    from: Sq,
    to: Sq,
) -> Option<Sq> {
    let immune = |sq: Sq| c.kind_at(board.cell(sq)).is_some_and(|k| h.immune.has(k));
    let (a, b) = (from.square(), to.square());
    let (df, dr) = (b.file as i32 - a.file as i32, b.rank as i32 - a.rank as i32);
    if df == 0 || dr == 0 || df.abs() == dr.abs() {
        let step = crate::rules::board::delta(df.signum(), dr.signum());
        let n = df.abs().max(dr.abs());
        if let Some(sq) = (1..n).map(|i| from.offset(step * i)).find(|&sq| immune(sq)) {
            return Some(sq);
        }
    }
    immune(to).then_some(to)
}

/// The square of an enemy royal piece facing `color`'s royal piece on `royal` along its file
/// with nothing between, on `board`.
pub(super) fn facing_on(c: &Compiled, board: &Board, royal: Sq, color: Color) -> Option<Sq> {
    for dir in [1, -1] {
        let step = crate::rules::board::delta(0, dir);
        let mut sq = royal.offset(step);
        while !board_is_wall(board, sq) && board.cell(sq) == cell::EMPTY {
            sq = sq.offset(step);
        }
        if !board_is_wall(board, sq) && royal_of(c, board.cell(sq), color.other()) {
            return Some(sq);
        }
    }
    None
}

/// Whether a royal piece of `color` stands on a square next to `sq`.
fn royal_near(c: &Compiled, board: &Board, sq: Sq, color: Color) -> bool {
    neighbour_cells(board, sq).any(|code| royal_of(c, code, color))
}

pub(super) fn board_is_wall(board: &Board, sq: Sq) -> bool {
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
    /// No two contact pieces stand where a contact between them could.
    apart: bool,
    /// A royal piece of the mover stands in a region a `no-entry` with `while` or
    /// `except-beside` bars to the enemy: moving its kinds may change what attacks there.
    guarded: bool,
    /// The pieces that alone stand between two an `alignment` looks at: leaving, one may
    /// open a line.
    line_blockers: SqSet,
    /// The contacts' pieces on the board, when there are contacts.
    spots: Option<super::contact::Spots>,
    /// Where a contact could arise, when no contact that refuses or flips stands on the
    /// board (`None` when one does: every move of a contact piece is then tested).
    danger: Option<super::contact::Danger>,
    /// The squares of the pieces of kinds a `transparent` component names, wherever they
    /// stand, when there is one.
    transparent: Option<SqSet>,
}

/// What the legality test of a move takes from the position before it, with the squares the
/// move changed, instead of reading the whole board after it; `None`: read the board.
#[derive(Default)]
pub(super) struct Seen {
    spots: Option<super::contact::Spots>,
    /// The move makes no contact: the contact components need not look.
    no_contact: bool,
    /// A superset of the squares of the transparent pieces.
    transparent: Option<SqSet>,
    /// The squares the move changed, when no contact stood before it.
    near: Option<super::contact::Near>,
}

impl Tester {
    /// The test of `pos`'s moves; `spots` and `danger` are the board's, `apart` whether its
    /// contact pieces stand apart ([`super::contact::Danger::apart`]).
    fn new(
        pos: &Position,
        royals: Royals,
        spots: Option<super::contact::Spots>,
        danger: Option<super::contact::Danger>,
        apart: bool,
    ) -> Tester {
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
        let mut line_blockers = SqSet::default();
        let contacts_quiet = spots.as_ref().is_none_or(|spots| {
            use crate::definition::model::Effect;
            c.contacts.iter().all(|k| {
                if k.line {
                    k.line_blockers(c, &pos.board, spots, &mut line_blockers);
                }
                apart
                    || [Effect::Illegal, Effect::Win].iter().all(|&e| {
                        k.find_effect(c, &pos.board, spots, us, [None, None], e)
                            .is_none()
                    })
            })
        });
        let danger = danger.filter(|_| contacts_quiet);
        let transparent = (!c.transparent.is_empty()).then(|| {
            let kinds = c.transparent.iter().fold(0, |acc, t| acc | t.1 .0);
            let mut set = SqSet::default();
            for &sq in &c.squares {
                if c.kind_at(pos.board.cell(sq))
                    .is_some_and(|k| kinds >> k & 1 != 0)
                {
                    set.add(sq);
                }
            }
            set
        });
        let guarded = c.while_kinds.0 != 0
            && c.no_entries.iter().any(|n| {
                (n.while_present.is_some() || n.except_beside.0 != 0)
                    && royals.list().any(|r| n.region[them.index()].has(r))
            });
        Tester {
            royals,
            theirs,
            shields,
            apart,
            guarded,
            line_blockers,
            spots,
            danger,
            transparent,
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
            || !c.hop_limits.is_empty()
            || c.bikjang.is_some()
        {
            return None;
        }
        let table = &c.tables[them.index()];
        // A transparent piece does not block a line, but it attacks along one; a lame
        // leaper's path is not read through it.
        if !c.transparent.is_empty() && table.lame() {
            return None;
        }
        let mut shields = Vec::new();
        for royal in royals.list() {
            if pos.attacked(royal, them) {
                return None;
            }
            // `None` where a hopper could be screened: then any move may open an attack.
            shields.extend(if c.transparent.is_empty() {
                table.screens(&pos.board, royal)?
            } else {
                table.screens_through(&pos.board, royal, |sq| transparent_at(c, &pos.board, sq))?
            });
        }
        Some(shields)
    }

    /// Whether `m` is legal without a test: each of its actions is quiet
    /// ([`Tester::quiet_action`]), and a turn of two moves a piece no contact looks at second,
    /// from a line of no royal piece the first left.
    #[inline(always)]
    fn admits(&self, pos: &Position, m: Move) -> bool {
        let Some(shields) = &self.shields else {
            return false;
        };
        let c = pos.c;
        if !matches!(
            m.special,
            Special::None | Special::Step | Special::Drop { .. }
        ) {
            return false;
        }
        if c.plain_quiet {
            // No component but check looks at a plain move of a piece that is not royal.
            let royal = |k: usize| c.royal.has(k);
            return !(c.kind_at(pos.board.cell(m.from)).is_some_and(royal)
                || m.promotion().is_some_and(royal)
                || m.dropped().is_some_and(royal))
                && m.then.is_none()
                && (c.explosion.is_none() || pos.board.cell(m.to) == cell::EMPTY)
                && !shields.contains(&m.from);
        }
        self.admits_zoned(pos, m, shields)
    }

    /// Whether every plain move of one action of the piece on `from` that promotes nothing
    /// is legal without a test ([`Tester::admits`] of each): what makes one of them need a
    /// test depends on the piece alone (a royal or contact kind, a shield, a line blocker, a
    /// kind a defection, a transparency or a guarded region looks at), not on its target.
    fn quiet_piece(&self, pos: &Position, from: Sq) -> bool {
        let c = pos.c;
        let Some(shields) = &self.shields else {
            return false;
        };
        let Some(kind) = c.kind_at(pos.board.cell(from)) else {
            return false;
        };
        if c.royal.has(kind) || c.explosion.is_some() || shields.contains(&from) {
            return false;
        }
        c.plain_quiet
            || !c.defections.iter().any(|d| d.kinds.has(kind))
                && (c.contacts.is_empty()
                    || self.danger.is_some()
                        && !self.line_blockers.has(from)
                        && !c.contact_kinds.has(kind))
                && !c.transparent_kinds.has(kind)
                && !self.guarded
    }

    /// [`Tester::admits`] where contacts, zones, transparency or defections may look.
    fn admits_zoned(&self, pos: &Position, m: Move, shields: &[Sq]) -> bool {
        let c = pos.c;
        if pos.defection_made(m).is_some() {
            return false;
        }
        let from = m.dropped().is_none().then_some(m.from);
        let moving = m.dropped().or(c.kind_at(pos.board.cell(m.from)));
        let two = m.then.is_some();
        if !self.quiet_action(pos, shields, from, moving, m.promotion(), m.to, two) {
            return false;
        }
        let Some((second, to)) = m.then else {
            return true;
        };
        // Two pieces leaving one line may open it where neither alone does.
        let kind = c.kind_at(pos.board.cell(second));
        !m.placed
            && kind.is_some_and(|k| !c.contact_kinds.has(k))
            && from.is_some_and(|first| {
                !self
                    .royals
                    .list()
                    .any(|royal| same_ray(royal, first, second))
            })
            && self.quiet_action(pos, shields, Some(second), kind, None, to, true)
    }

    /// Whether one action, a piece of `moving` from `from` (`None`: a drop) to `to`, becoming
    /// `became`, leaves the mover's royal pieces unattacked and makes no contact, judged on
    /// the position before it: no royal piece moves, none was attacked, the piece leaves no
    /// shield, nothing it moves or takes changes what zones or transparency admit where a
    /// royal piece stands, and no contact could arise where it lands or along a line it
    /// leaves. `two`: one of two actions, whose lines are read as if the other's piece stood.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn quiet_action(
        &self,
        pos: &Position,
        shields: &[Sq],
        from: Option<Sq>,
        moving: Option<usize>,
        became: Option<usize>,
        to: Sq,
        two: bool,
    ) -> bool {
        let c = pos.c;
        let us = pos.turn;
        let royal = |k: usize| c.royal.has(k);
        // A piece that is or becomes royal is judged where it lands.
        if moving.is_some_and(royal) || became.is_some_and(royal) {
            return false;
        }
        if from.is_some_and(|f| shields.contains(&f)) {
            return false;
        }
        let code = pos.board.cell(to);
        let taken = from
            .filter(|_| is_of(code, us.other()))
            .and_then(|_| c.kind_at(code));
        if c.explosion.is_some() && code != cell::EMPTY {
            return false;
        }
        let any_of =
            |set: KindSet| moving.is_some_and(|k| set.has(k)) || became.is_some_and(|k| set.has(k));
        // A piece a contact looks at is judged where it lands if it lands where one could
        // arise, or leaves a line one looks along.
        if !c.contacts.is_empty() {
            let Some(danger) = &self.danger else {
                return false;
            };
            if from.is_some_and(|f| self.line_blockers.has(f) || two && danger.lined(f))
                || any_of(c.contact_kinds) && danger.touches(from, to)
            {
                return false;
            }
        }
        // A piece whose moving or being taken changes what zones or transparency admit is
        // judged on the board it leaves.
        !(taken.is_some() && any_of(c.transparent_kinds)
            || self.guarded
                && c.while_changed(
                    us,
                    |region| self.royals.list().any(|r| region.has(r)),
                    moving,
                    became,
                    from,
                    to,
                    taken,
                ))
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
        let changed = || changes.list().map(|&(sq, _, new)| (sq, new));
        let no_contact = self.makes_no_contact(pos, m, &changes, board);
        let seen = Seen {
            no_contact,
            spots: self
                .spots
                .as_ref()
                .filter(|_| !no_contact)
                .map(|spots| spots.after(c, changed())),
            transparent: self.transparent.map(|mut set| {
                changed().for_each(|(sq, _)| set.add(sq));
                set
            }),
            near: self
                .danger
                .as_ref()
                .and_then(|_| super::contact::Near::of(changed().map(|(sq, _)| sq))),
        };
        let allowed = pos.forbidder_on(m, board, count, royals, seen).is_none();
        changes.undo(scratch);
        allowed
    }
}

impl Tester {
    /// Whether a contact component refuses the one action `m` (a turn's first, check left
    /// for the end of the turn), asked of the board it leaves: played on `scratch` (the
    /// position's board) and taken back.
    fn contact_refuses(&self, pos: &Position, m: Move, scratch: &mut Board) -> bool {
        let c = pos.c;
        let Some(spots) = &self.spots else {
            return false;
        };
        let mut changes = Changes::default();
        play_on(c, scratch, pos.turn, m, &mut changes);
        let changed = || changes.list().map(|&(sq, _, new)| (sq, new));
        let after = spots.after(c, changed());
        let near = self
            .danger
            .as_ref()
            .and_then(|_| super::contact::Near::of(changed().map(|(sq, _)| sq)));
        let refused = [true, false].into_iter().any(|before| {
            pos.contact_refusal(m, scratch, &after, before, near.as_ref())
                .is_some()
        });
        changes.undo(scratch);
        refused
    }

    /// Whether the plain move `m` leaves the contact pieces apart, as they were: it empties
    /// no cell on a contact's line and its piece, if a contact looks at it, lands where none
    /// could arise.
    fn leaves_apart(&self, pos: &Position, m: Move) -> bool {
        let c = pos.c;
        let Some(danger) = self.danger.as_ref().filter(|_| self.apart) else {
            return false;
        };
        let kind = c.kind_at(pos.board.cell(m.from));
        matches!(m.special, Special::None | Special::Step)
            && m.then.is_none()
            && m.promotion().is_none()
            && !self.line_blockers.has(m.from)
            && !danger.lined(m.from)
            && !(kind.is_some_and(|k| c.contact_kinds.has(k)) && danger.touches(Some(m.from), m.to))
    }

    /// Whether the move that made `changes` (now on `board`) provably makes no contact: none
    /// stood before it, no cell it empties opens a line a contact looks along, and the one
    /// piece of a contact's kinds it puts down (if any) lands where none could arise.
    fn makes_no_contact(&self, pos: &Position, m: Move, changes: &Changes, board: &Board) -> bool {
        let c = pos.c;
        let Some(danger) = &self.danger else {
            return false;
        };
        let arrivals = super::contact::Arrival::of(m);
        let mut placed = 0;
        changes.list().all(|&(sq, _, new)| {
            if new == cell::EMPTY {
                return !self.line_blockers.has(sq) && !danger.lined(sq);
            }
            if !c
                .kind_at(board.cell(sq))
                .is_some_and(|k| c.contact_kinds.has(k))
            {
                return true;
            }
            placed += 1;
            let Some(a) = arrivals.iter().flatten().find(|a| a.to == sq) else {
                return false;
            };
            placed == 1 && !danger.touches(a.from, sq)
        })
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
        .map(|e| e.0)
        .filter(move |&sq| royal_of(c, board.cell(sq), color) && !before.contains(sq));
    stayed.chain(came)
}

/// Whether `a` and `b` stand on one ray from `origin`: the same direction, any distance.
fn same_ray(origin: Sq, a: Sq, b: Sq) -> bool {
    let (o, a, b) = (origin.square(), a.square(), b.square());
    let d = |s: crate::rules::board::Square| {
        (
            i32::from(s.file) - i32::from(o.file),
            i32::from(s.rank) - i32::from(o.rank),
        )
    };
    let ((af, ar), (bf, br)) = (d(a), d(b));
    af * br == ar * bf && af.signum() == bf.signum() && ar.signum() == br.signum()
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
/// count the pieces it took or made, and to take it back. Most moves change a few cells; an
/// othello flip may change many, which go on in `more`.
pub(super) struct Changes {
    at: [(Sq, u8, u8); 16],
    len: usize,
    more: Vec<(Sq, u8, u8)>,
}

impl Default for Changes {
    fn default() -> Changes {
        Changes {
            at: [(Sq(0), 0, 0); 16],
            len: 0,
            more: Vec::new(),
        }
    }
}

impl Changes {
    #[inline]
    pub(super) fn set(&mut self, board: &mut Board, sq: Sq, code: u8) {
        let change = (sq, board.cell(sq), code);
        if self.len < self.at.len() {
            self.at[self.len] = change;
            self.len += 1;
        } else {
            self.more.push(change);
        }
        board.set_cell(sq, code);
    }

    #[inline]
    fn list(&self) -> impl DoubleEndedIterator<Item = &(Sq, u8, u8)> + Clone {
        self.at[..self.len].iter().chain(self.more.iter())
    }

    /// Puts back what the cells held, latest change first.
    #[inline]
    fn undo(&self, board: &mut Board) {
        for &(sq, old, _) in self.list().rev() {
            board.set_cell(sq, old);
        }
    }
}

/// Plays `m` of `us` on the board alone, noting each cell it changes; whether it captured.
/// [`Position::apply`] plays every move through here, and the legality test plays and takes
/// back each move it tests on one scratch board: both see the same board after the move.
fn play_on(c: &Compiled, board: &mut Board, us: Color, m: Move, changes: &mut Changes) -> bool {
    let captured = play_one(c, board, us, m, changes);
    match m.second() {
        Some(second) => play_one(c, board, us, second, changes) || captured,
        None => captured,
    }
}

/// [`play_one`] of a placement (`infiltration`): the piece goes to `m.to`, whatever stands
/// there removed. Whether one was: a piece gone for good starts the move clock again, as a
/// capture does. Out of line, as most games never place.
#[cold]
#[inline(never)]
fn place_on(board: &mut Board, m: Move, moving: u8, changes: &mut Changes) -> bool {
    let removed = board.cell(m.to) != cell::EMPTY;
    changes.set(board, m.from, cell::EMPTY);
    changes.set(board, m.to, moving);
    removed
}

/// [`play_on`] of one action.
#[inline]
fn play_one(c: &Compiled, board: &mut Board, us: Color, m: Move, changes: &mut Changes) -> bool {
    if let Special::Drop { kind } = m.special {
        changes.set(board, m.to, c.piece(us, kind as usize).code());
        flip(c, board, us, m.to, changes);
        return false;
    }
    if let (Special::Promote, Some(into)) = (m.special, m.promotion()) {
        changes.set(board, m.from, cell::EMPTY);
        changes.set(board, m.to, c.piece(us, into).code());
        return false;
    }
    if m.special == Special::Pass {
        return false;
    }
    let moving = board.cell(m.from);
    if let Special::Place = m.special {
        return place_on(board, m, moving, changes);
    }
    if let Special::Castle { rook, side, .. } = m.special {
        let rook_code = board.cell(rook);
        let rank = back_rank(c, us);
        let castling = c.castling.as_ref().expect("castling move without castling");
        changes.set(board, m.from, cell::EMPTY);
        changes.set(board, rook, cell::EMPTY);
        let kto = Sq::of(Square::new(castling.king_to[side as usize], rank));
        changes.set(board, kto, moving);
        let rto = Sq::of(Square::new(castling.rook_to[side as usize], rank));
        changes.set(board, rto, rook_code);
        if let Some((kind, at)) = m.gated() {
            changes.set(board, at, c.piece(us, kind).code());
        }
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
    if let Some((kind, at)) = m.gated() {
        changes.set(board, at, c.piece(us, kind).code());
    }
    flip(c, board, us, m.to, changes);
    if !c.defections.is_empty() {
        super::defection::defect(c, board, us, m, changes);
    }
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

/// Under `flip`: the enemy pieces that change sides when a piece of `us` lands on `to`.
#[inline]
fn flip(c: &Compiled, board: &mut Board, us: Color, to: Sq, changes: &mut Changes) {
    let Some((_, pattern)) = c.flip else {
        return;
    };
    let mut turned: Vec<Sq> = Vec::new();
    match pattern {
        FlipPattern::Neighbours => {
            for &s in KING_STEPS.iter() {
                let t = to.offset(offset(s, us));
                if is_of(board.cell(t), us.other()) {
                    turned.push(t);
                }
            }
        }
        FlipPattern::Lines => {
            enclosed(board, to, us, |t| turned.push(t));
        }
    }
    for t in turned {
        let code = board.cell(t);
        // A piece is its kind's code with the colour in the low bit.
        changes.set(board, t, code ^ 1);
    }
}

/// Plays one action `m` of `us` (a move without a second action) on `board` as
/// [`Position::apply`] plays it, and returns the cells it changed, in order: what a
/// definition's properties read of a turn (`properties`). Off the hot paths: only an invariant
/// search about a turn calls it, through `play_on`, so `play_one` keeps its callers.
#[cold]
#[inline(never)]
pub(super) fn replay_action(
    c: &Compiled,
    board: &mut Board,
    us: Color,
    m: Move,
) -> Vec<(Sq, u8, u8)> {
    let mut changes = Changes::default();
    play_on(c, board, us, Move { then: None, ..m }, &mut changes);
    changes.list().copied().collect()
}
