//! A definition made ready to play under one set of readings: piece kinds by cell code, attack
//! tables, squares as bit sets, and the components that apply under those readings, each with
//! its rule id. Built once per definition and readings, and kept for the whole run.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

pub use super::en_passant::{DoubleStep, EnPassant};
use crate::definition::fen::Placed;
use crate::definition::model::{
    self, Component, Definition, FlipPattern, Onto, Safety, Timing, Value,
};
use crate::rules::board::{Geometry, Sq, Square, CELLS};
use crate::rules::consulted::{self, Asked};
use crate::rules::design::{movement_of, DesignId};
use crate::rules::movement::{gcd, AttackTable, Movement};
use crate::rules::piece::{Color, Piece, Role};
use crate::rules::SetupError;

/// A set of mailbox cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct SqSet([u64; CELLS.div_ceil(64)]);

impl SqSet {
    #[inline]
    pub fn has(&self, sq: Sq) -> bool {
        self.0[sq.index() >> 6] >> (sq.index() & 63) & 1 != 0
    }

    pub fn add(&mut self, sq: Sq) {
        self.0[sq.index() >> 6] |= 1 << (sq.index() & 63);
    }

    pub fn remove(&mut self, sq: Sq) {
        self.0[sq.index() >> 6] &= !(1 << (sq.index() & 63));
    }

    fn of_region(region: &model::Region) -> SqSet {
        let mut s = SqSet::default();
        for c in &region.cells {
            s.add(Sq::of(Square::new(c.file, c.rank)));
        }
        s
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// Adds the squares of `other`, only those of `within` where it is given.
    #[inline]
    pub fn add_all(&mut self, other: &SqSet, within: Option<&SqSet>) {
        for (i, w) in self.0.iter_mut().enumerate() {
            *w |= other.0[i] & within.map_or(!0, |r| r.0[i]);
        }
    }

    #[inline]
    pub fn intersects(&self, other: &SqSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }

    /// The squares in the set, in the board's square order (the mailbox's).
    #[inline]
    pub fn iter(&self) -> SqIter<'_> {
        SqIter {
            words: &self.0,
            word: 0,
            bits: self.0[0],
        }
    }
}

/// The squares of a [`SqSet`], lowest first.
pub struct SqIter<'a> {
    words: &'a [u64; CELLS.div_ceil(64)],
    word: usize,
    bits: u64,
}

impl Iterator for SqIter<'_> {
    type Item = Sq;

    #[inline]
    fn next(&mut self) -> Option<Sq> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.words.get(self.word)?;
        }
        let i = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Sq((self.word * 64 + i) as u16))
    }
}

/// The most piece kinds a board holds, its own and invented ones: a [`KindSet`] has a bit
/// for each.
pub const MAX_KINDS: usize = 64;

/// A set of piece kinds, by index in the definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct KindSet(pub u64);

impl KindSet {
    #[inline]
    pub fn has(self, kind: usize) -> bool {
        self.0 >> kind & 1 != 0
    }
}

/// One kind of piece, as the engine plays it.
#[derive(Clone, Debug)]
pub struct Kind {
    pub letter: char,
    /// The role its pieces have on the board and in turns ([`role_of`]).
    pub role: Role,
    pub name: String,
    pub movement: Movement,
    pub royal: bool,
    pub pawn: bool,
    /// The rule id of its movement, `<name>-move`.
    pub move_rule: &'static str,
    /// The rule id of its captures: `<name>-capture` when the definition gives them a clause
    /// of their own, else its movement's.
    pub capture_rule: &'static str,
    pub clause: String,
    /// The design of an invented piece standing on this board (rule `invented-piece`); its
    /// role is [`Role::Design`].
    pub design: Option<DesignId>,
    /// Whether two of its atoms may reach one square (`WR`, `RD`), so that the generator
    /// keeps one move of the two.
    pub overlaps: bool,
}

impl Kind {
    /// The rule that allows or refuses a move of this kind, by whether it captures.
    pub fn rule(&self, capture: bool) -> &'static str {
        if capture {
            self.capture_rule
        } else {
            self.move_rule
        }
    }
}

/// A movement a kind gains in a region ([`Component::RegionMove`]).
#[derive(Clone, Debug)]
pub struct RegionMove {
    pub tag: Tag,
    pub kinds: KindSet,
    pub region: [SqSet; 2],
    pub movement: Movement,
    /// The movement as written, for refusals.
    pub betza: String,
    /// The piece moves only so in the region, its own movement set aside (`replace yes`).
    pub replace: bool,
    /// The move must also end inside the region.
    pub within: bool,
}

/// Kinds that may neither pass over nor capture some others ([`Component::HopLimit`]).
#[derive(Clone, Copy, Debug)]
pub struct HopLimit {
    pub tag: Tag,
    pub kinds: KindSet,
    pub immune: KindSet,
}

/// A neutral blocker placed after every move ([`Component::Blocker`]).
#[derive(Clone, Debug)]
pub struct Blocker {
    pub tag: Tag,
    /// The letter turns write its placement with (`D@d5`).
    pub letter: char,
    pub name: String,
    /// Placed where the moved piece could move from where it landed.
    pub shot: bool,
    /// Blockers stay; else the one blocker moves.
    pub keep: bool,
}

/// A draw by material ([`Component::InsufficientMaterial`]).
#[derive(Clone, Copy, Debug)]
pub struct Material {
    pub tag: Tag,
    pub alone: KindSet,
    pub colour_bound: KindSet,
}

/// A rule id and the component's index in the definition, for explanations.
#[derive(Clone, Copy, Debug)]
pub struct Tag {
    pub rule: &'static str,
    pub index: usize,
}

#[derive(Clone, Debug)]
pub struct FirstMove {
    pub tag: Tag,
    pub kinds: KindSet,
    pub movement: Movement,
    pub in_check: bool,
    pub lost_on_line: KindSet,
}

#[derive(Clone, Copy, Debug)]
pub struct BareKing {
    pub ending: Ending,
    pub against: u8,
    pub reply: bool,
}

#[derive(Clone, Debug)]
pub struct Promotion {
    pub tag: Tag,
    pub kinds: KindSet,
    pub region: [SqSet; 2],
    /// The kinds each side promotes into, by index.
    pub into: [Vec<usize>; 2],
    pub mandatory: bool,
    pub captured_only: bool,
    /// `(kind, n)`: only while the side has fewer than `n` of the kind.
    pub limits: Vec<(usize, u8)>,
    /// Shogi-style: by kind, the kind it promotes into, for the kinds of `pairs`.
    pub pairs: Vec<(usize, usize)>,
    /// A move that starts in the region may promote too.
    pub leaving: bool,
    /// A promotion is a turn of its own ([`Component::Promotion`]'s `as_turn`).
    pub as_turn: bool,
    /// Promoted kinds of `pairs` turn back into their pieces.
    pub demote: bool,
}

impl Promotion {
    /// The kinds a piece of `kind` of `color` may promote into.
    pub fn targets(&self, kind: usize, color: Color) -> &[usize] {
        if let Some(p) = self.pairs.iter().find(|p| p.0 == kind) {
            return std::slice::from_ref(&p.1);
        }
        match self.pairs.iter().find(|p| self.demote && p.1 == kind) {
            Some(p) => std::slice::from_ref(&p.0),
            None => &self.into[color.index()],
        }
    }
}

/// Drops of some kinds ([`Component::Drops`]).
#[derive(Clone, Debug)]
pub struct Drops {
    pub tag: Tag,
    /// Where each side may drop; empty: anywhere.
    pub region: [SqSet; 2],
    pub no_doubled: bool,
    pub no_mate: bool,
    pub immobile: bool,
    pub must: bool,
    /// Pieces may also be dropped promoted.
    pub promoted: bool,
    /// Dropped without being held.
    pub free: bool,
    /// Where a drop may go besides the region.
    pub onto: Onto,
    /// While any of these squares is empty, drops go only there (a few squares).
    pub opening: Vec<Sq>,
    /// `onto enclosing` read as Fairy-Stockfish reads it: lines run over holes.
    pub through_holes: bool,
    /// A side in check may drop.
    pub in_check: bool,
    /// A drop may give check.
    pub gives_check: bool,
    /// The drop releases a prisoner (`prisoners`): the same test, worded as a release.
    pub release: bool,
}

#[derive(Clone, Debug)]
pub struct Castling {
    pub tag: Tag,
    pub king: usize,
    pub rooks: KindSet,
    pub king_to: [u8; 2],
    pub rook_to: [u8; 2],
    pub chess960: bool,
    /// The rank castling happens on, from each side's own edge, from 0.
    pub rank: u8,
    /// Where `Q` and `K` start looking for their rook, `[queenside, kingside]`.
    pub rooks_from: Option<[u8; 2]>,
    /// The king's file for rights gained by dropping (placement).
    pub drop_rights: Option<u8>,
    /// The rule ids of its parts: `rights`, `blocked`, `out-of-check`, `through-check`.
    pub parts: [&'static str; 4],
}

impl Castling {
    /// The rule id of the part that refuses a castling for `bar`.
    pub fn part(&self, bar: super::position::CastleBar) -> &'static str {
        use super::position::CastleBar as B;
        self.parts[match bar {
            B::Rights => 0,
            B::Blocked => 1,
            B::OutOfCheck => 2,
            B::ThroughCheck => 3,
        }]
    }
}

/// A game-ending rule's value and rule.
#[derive(Clone, Copy, Debug)]
pub struct Ending {
    pub tag: Tag,
    pub value: Value,
}

#[derive(Clone, Debug)]
pub struct Goal {
    pub ending: Ending,
    pub kinds: KindSet,
    pub region: [SqSet; 2],
    pub timing: Timing,
    /// Only a piece no enemy piece attacks counts.
    pub safe: bool,
}

#[derive(Clone, Debug)]
pub struct Extinction {
    pub ending: Ending,
    /// Empty: every piece of the side.
    pub kinds: KindSet,
}

/// A definition under one set of readings.
pub struct Compiled {
    pub def: Definition,
    pub geometry: Geometry,
    pub kinds: Vec<Kind>,
    /// Cell code to kind index + 1 (0: no kind of this definition).
    kind_of: [u8; 256],
    pub tables: [AttackTable; 2],
    /// The squares of the board (holes left out), in [`Geometry::squares`] order.
    pub squares: Vec<Sq>,
    /// By mailbox index: the board's squares next to each square.
    pub neighbours: Vec<SqSet>,
    pub holes: Vec<Square>,
    pub royal: KindSet,
    pub double_steps: Vec<DoubleStep>,
    pub en_passant: Option<EnPassant>,
    pub first_moves: Vec<FirstMove>,
    pub bare_king: Option<BareKing>,
    pub checked_royal_captures: Option<Tag>,
    pub promotions: Vec<Promotion>,
    pub castling: Option<Castling>,
    pub check: Option<(Tag, Safety)>,
    pub checkmate: Option<Ending>,
    pub stalemate: Option<Ending>,
    pub extinctions: Vec<Extinction>,
    pub goals: Vec<Goal>,
    pub check_count: Option<(Ending, u8)>,
    pub compulsory_capture: Option<Tag>,
    pub no_giving_check: Option<Tag>,
    pub explosion: Option<(Tag, KindSet)>,
    pub repetition: Option<(Tag, u8)>,
    pub move_count: Option<(Tag, u16)>,
    pub material: Option<Material>,
    /// By kind: the region each side's pieces of it never leave (`confine`).
    pub confined: Vec<Option<(Tag, [SqSet; 2])>>,
    /// Movements pieces gain in a region (`region-move`).
    pub region_moves: Vec<RegionMove>,
    /// `flying-royals`: opposing royal pieces attack each other along an open file.
    pub flying: Option<Tag>,
    /// The drop components, and by kind the one that drops it.
    pub drops: Vec<Drops>,
    pub drop_of: Vec<Option<usize>>,
    /// `captures-to-hand`.
    pub captures_to_hand: Option<Tag>,
    /// `prisoners`: the kinds a capture keeps for their owner, not the capturer.
    pub kept: KindSet,
    /// Whether a component other than `prisoners` gives the positions hands.
    pub plain_hands: bool,
    /// The fields of the definition's FENs: its `fen` statement; else Fairy-Stockfish's, with
    /// `retake` after them where the definition has one; `None`: Fairy-Stockfish's alone.
    pub fen_layout: Option<Vec<crate::definition::layout::Field>>,
    /// `gating`.
    pub gating: Option<Tag>,
    /// `gating`'s `shields`: a piece put down counts when the move's check is judged.
    pub gate_shields: bool,
    /// The kinds drops must leave room for on both square colours, and the rule.
    pub opposite_colours: Option<(Tag, KindSet)>,
    /// Whether positions have hands (some drop or hand component).
    pub hands: bool,
    /// By kind: the kind it goes back to when captured into a hand (a shogi-style promoted
    /// kind's piece).
    pub demoted: Vec<usize>,
    /// The kind a piece marked promoted (`~`) goes back to: the first promotion's piece.
    pub unpromoted: Option<usize>,
    /// `hop-limit`: kinds that may not pass over or capture others.
    pub hop_limits: Vec<HopLimit>,
    /// `pass`: a side may pass; two passes in a row end the game.
    pub pass: Option<Ending>,
    /// `pass` with `stuck`: only a side with pieces and no other legal turn may pass.
    pub pass_stuck: bool,
    /// `flip`: the enemy pieces a move or a drop turns over.
    pub flip: Option<(Tag, FlipPattern)>,
    /// `full-board`: the game ends when no square is empty.
    pub full_board: Option<Ending>,
    /// `bikjang`: facing royal pieces must be parted, or a pass ends the game.
    pub bikjang: Option<Ending>,
    /// `blocker`: every move is followed by a neutral blocker's placement.
    pub blocker: Option<Blocker>,
    /// Whether some region-move replaces a piece's own movement ([`Compiled::replaced`]).
    pub replacing: bool,
    /// `sanctuary` components, in the order written.
    pub sanctuaries: Vec<super::zones::Sanctuary>,
    /// `retake` components, in the order written.
    pub retakes: Vec<super::retake::Retake>,
    /// `defection` components, in the order written.
    pub defections: Vec<super::defection::Defection>,
    /// `infiltration` components, in the order written.
    pub infiltrations: Vec<super::infiltration::Infiltration>,
    /// `no-entry` components, in the order written.
    pub no_entries: Vec<super::zones::NoEntry>,
    /// `transparent` components: kinds that do not block attacks where they stand.
    pub transparent: Vec<(Tag, KindSet, [SqSet; 2])>,
    /// `adjacency` and `alignment` components, in the order written.
    pub contacts: Vec<super::contact::Contact>,
    /// The kinds some contact component looks at: a move of another kind leaves contacts as
    /// they were.
    pub contact_kinds: KindSet,
    /// The kinds a `no-entry`'s `while` looks for, and its `except-beside` kinds: moved or
    /// taken, one may change where the other side's pieces may enter, so what they attack
    /// there ([`Compiled::while_changed`]). With `transparent_kinds` and the contacts, what
    /// keeps a plain move from passing the legality test unasked ([`Tester`]).
    ///
    /// [`Tester`]: super::position
    pub while_kinds: KindSet,
    /// The kinds some `no-entry` is `opened-by`: only their moves may begin a turn of two.
    pub openers: KindSet,
    /// The kinds some `no-entry` bars: another kind's move is barred only as a capture.
    pub entry_kinds: KindSet,
    /// No contact, `while` or `except-beside`, transparency or defection: the legality test
    /// of a plain move asks only whether it leaves a shield or moves a royal piece.
    pub plain_quiet: bool,
    /// The kinds a `transparent` component names: one that captures leaves a line open
    /// through the square the captured piece blocked.
    pub transparent_kinds: KindSet,
    /// The contacts in the order they decide a game's end: by `priority`, highest first,
    /// then as written.
    pub contact_endings: Vec<usize>,
    /// The options whose readings choose among the components, by what they decide.
    pub readings: Readings,
}

/// Which options' readings decide which components apply, grouped by where the engine asks:
/// an option is consulted when a verdict looks at a component of the family its `when`
/// chooses in, present under this reading or not.
#[derive(Clone, Copy, Debug, Default)]
pub struct Readings {
    /// Castling components: consulted by a side that holds a castling right.
    pub castling: Asked,
    /// Repetition components, and the fewest times any of them counts.
    pub repetition: (Asked, u8),
    /// Move-count components, and the fewest moves any of them counts.
    pub move_count: (Asked, u16),
    /// Every other component: consulted by every verdict.
    pub other: Asked,
}

/// A `&'static str` for the rule ids, names and clauses the shared vocabulary uses. Each
/// distinct text is kept once, so a definition read again and again (each saved version a
/// language server sees) costs only the texts that changed.
pub fn leak(s: &str) -> &'static str {
    static TEXTS: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Default::default);
    let mut texts = TEXTS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&t) = texts.get(s) {
        return t;
    }
    let t: &'static str = Box::leak(s.to_string().into_boxed_str());
    texts.insert(t);
    t
}

impl Compiled {
    /// The definition under the readings `reading(option) = value`.
    pub fn new(def: Definition, reading: &dyn Fn(&str) -> String) -> Compiled {
        let geometry = def.geometry;
        let kinds: Vec<Kind> = def
            .pieces
            .iter()
            .map(|p| {
                let move_rule = leak(&p.move_rule());
                Kind {
                    letter: p.letter,
                    role: role_of(p.letter),
                    name: p.name.clone(),
                    movement: movement_of(&p.design),
                    royal: p.royal,
                    pawn: p.pawn,
                    move_rule,
                    capture_rule: match p.capture_clause {
                        Some(_) => leak(&format!("{}-capture", p.name)),
                        None => move_rule,
                    },
                    clause: p.clause.clone(),
                    design: None,
                    overlaps: overlaps(&movement_of(&p.design)),
                }
            })
            .collect();
        let mut kind_of = [0u8; 256];
        for (i, k) in kinds.iter().enumerate() {
            for color in Color::ALL {
                kind_of[Piece::new(color, k.role).code() as usize] = i as u8 + 1;
            }
        }
        let tables = Color::ALL.map(|color| {
            let coded: Vec<(u8, &Movement)> = kinds
                .iter()
                .map(|k| (Piece::new(color, k.role).code(), &k.movement))
                .collect();
            AttackTable::new(color, &coded)
        });
        let holes: Vec<Square> = def
            .holes
            .iter()
            .map(|c| Square::new(c.file, c.rank))
            .collect();
        let squares: Vec<Sq> = geometry
            .squares()
            .filter(|s| !holes.contains(s))
            .map(Sq::of)
            .collect();
        let mut neighbours = vec![SqSet::default(); crate::rules::board::CELLS];
        for &sq in &squares {
            for &(df, dr) in crate::rules::movement::KING_STEPS.iter() {
                let next = sq.offset(crate::rules::board::delta(df as i32, dr as i32));
                if squares.contains(&next) {
                    neighbours[sq.index()].add(next);
                }
            }
        }
        let index = |letter: &char| def.pieces.iter().position(|p| p.letter == *letter);
        // The invented pieces a board may hold take the kinds after the definition's own
        // (`with_designs`), so `invented` is every kind from there on.
        let invented = !0u64 << def.pieces.len().min(MAX_KINDS - 1);
        let set = |letters: &[char]| {
            KindSet(letters.iter().fold(0, |acc, l| match index(l) {
                Some(i) => acc | 1 << i,
                None if *l == crate::definition::model::INVENTED => acc | invented,
                None => acc,
            }))
        };
        let royal = KindSet(
            kinds
                .iter()
                .enumerate()
                .filter(|(_, k)| k.royal)
                .fold(0, |acc, (i, _)| acc | 1 << i),
        );
        let mut c = Compiled {
            geometry,
            kinds,
            kind_of,
            tables,
            squares,
            neighbours,
            holes,
            royal,
            double_steps: Vec::new(),
            en_passant: None,
            first_moves: Vec::new(),
            bare_king: None,
            checked_royal_captures: None,
            promotions: Vec::new(),
            castling: None,
            check: None,
            checkmate: None,
            stalemate: None,
            extinctions: Vec::new(),
            goals: Vec::new(),
            check_count: None,
            compulsory_capture: None,
            no_giving_check: None,
            explosion: None,
            repetition: None,
            move_count: None,
            material: None,
            confined: Vec::new(),
            region_moves: Vec::new(),
            flying: None,
            drops: Vec::new(),
            drop_of: Vec::new(),
            captures_to_hand: None,
            kept: KindSet::default(),
            plain_hands: false,
            fen_layout: None,
            gating: None,
            gate_shields: true,
            opposite_colours: None,
            hands: false,
            demoted: Vec::new(),
            unpromoted: None,
            hop_limits: Vec::new(),
            pass: None,
            pass_stuck: false,
            flip: None,
            full_board: None,
            bikjang: None,
            blocker: None,
            replacing: false,
            sanctuaries: Vec::new(),
            retakes: Vec::new(),
            defections: Vec::new(),
            infiltrations: Vec::new(),
            no_entries: Vec::new(),
            contacts: Vec::new(),
            transparent: Vec::new(),
            contact_kinds: KindSet::default(),
            while_kinds: KindSet::default(),
            openers: KindSet::default(),
            entry_kinds: KindSet::default(),
            plain_quiet: false,
            transparent_kinds: KindSet::default(),
            contact_endings: Vec::new(),
            readings: readings_of(&def),
            def: def.clone(),
        };
        for (at, rule) in def.rules.iter().enumerate() {
            if !rule.when.iter().all(|(o, v)| reading(o) == *v) {
                continue;
            }
            let tag = Tag {
                rule: leak(&rule.id),
                index: at,
            };
            let ending = |value| Ending { tag, value };
            let sides = |r: &[model::Region; 2]| [SqSet::of_region(&r[0]), SqSet::of_region(&r[1])];
            match &rule.component {
                Component::DoubleStep {
                    pieces,
                    region,
                    steps,
                    movement,
                } => c.double_steps.push(DoubleStep {
                    tag,
                    kinds: set(pieces),
                    region: sides(region),
                    steps: *steps,
                    movement: movement.as_deref().and_then(betza_movement),
                }),
                Component::EnPassant {
                    pieces,
                    region,
                    where_it_steps,
                } => {
                    c.en_passant = Some(EnPassant {
                        tag,
                        kinds: set(pieces),
                        region: sides(region),
                        where_it_steps: *where_it_steps,
                    })
                }
                Component::FirstMove {
                    pieces,
                    movement,
                    in_check,
                    lost_on_line,
                } => {
                    if let Some(m) = betza_movement(movement) {
                        c.first_moves.push(FirstMove {
                            tag,
                            kinds: set(pieces),
                            movement: m,
                            in_check: *in_check,
                            lost_on_line: set(lost_on_line),
                        })
                    }
                }
                Component::BareKing {
                    value,
                    against,
                    reply,
                } => {
                    c.bare_king = Some(BareKing {
                        ending: ending(*value),
                        against: *against,
                        reply: *reply,
                    })
                }
                Component::CheckedRoyalCaptures => c.checked_royal_captures = Some(tag),
                Component::Promotion {
                    pieces,
                    region,
                    into,
                    mandatory,
                    captured_only,
                    limits,
                    pairs,
                    leaving,
                    as_turn,
                    demote,
                } => c.promotions.push(Promotion {
                    tag,
                    // Demoting kinds change too.
                    kinds: KindSet(
                        set(pieces).0
                            | pairs
                                .iter()
                                .filter(|_| *demote)
                                .filter_map(|(_, b)| index(b))
                                .fold(0, |acc, k| acc | 1 << k),
                    ),
                    region: sides(region),
                    into: [
                        into[0].iter().filter_map(index).collect(),
                        into[1].iter().filter_map(index).collect(),
                    ],
                    mandatory: *mandatory,
                    captured_only: *captured_only,
                    limits: limits
                        .iter()
                        .filter_map(|(l, n)| index(l).map(|k| (k, *n)))
                        .collect(),
                    pairs: pairs
                        .iter()
                        .filter_map(|(a, b)| Some((index(a)?, index(b)?)))
                        .collect(),
                    leaving: *leaving,
                    as_turn: *as_turn,
                    demote: *demote,
                }),
                Component::Castling {
                    king,
                    rooks,
                    king_to,
                    rook_to,
                    chess960,
                    rank,
                    rooks_from,
                    drop_rights,
                } => {
                    c.castling = index(king).map(|king| Castling {
                        tag,
                        king,
                        rooks: set(rooks),
                        king_to: *king_to,
                        rook_to: *rook_to,
                        chess960: *chess960,
                        rank: rank.saturating_sub(1),
                        rooks_from: *rooks_from,
                        drop_rights: *drop_rights,
                        parts: ["rights", "blocked", "out-of-check", "through-check"]
                            .map(|p| leak(&rule.part_id(p))),
                    })
                }
                Component::Check { safety } => c.check = Some((tag, *safety)),
                Component::Checkmate { value } => c.checkmate = Some(ending(*value)),
                Component::Stalemate { value } => c.stalemate = Some(ending(*value)),
                Component::Extinction { pieces, value } => c.extinctions.push(Extinction {
                    ending: ending(*value),
                    kinds: set(pieces),
                }),
                Component::Goal {
                    pieces,
                    region,
                    value,
                    timing,
                    safe,
                } => c.goals.push(Goal {
                    ending: ending(*value),
                    kinds: set(pieces),
                    region: sides(region),
                    timing: *timing,
                    safe: *safe,
                }),
                Component::CheckCount { checks, value } => {
                    c.check_count = Some((ending(*value), *checks))
                }
                Component::CompulsoryCapture => c.compulsory_capture = Some(tag),
                Component::NoGivingCheck => c.no_giving_check = Some(tag),
                Component::Explosion { immune } => c.explosion = Some((tag, set(immune))),
                Component::Repetition { times } => c.repetition = Some((tag, *times)),
                Component::MoveCount { moves } => c.move_count = Some((tag, *moves)),
                Component::Confine { pieces, region } => {
                    c.confined.resize(c.kinds.len(), None);
                    for k in pieces.iter().filter_map(index) {
                        c.confined[k] = Some((tag, sides(region)));
                    }
                }
                Component::RegionMove {
                    pieces,
                    region,
                    movement,
                    within,
                    replace,
                } => {
                    if let Some(m) = betza_movement(movement) {
                        c.replacing |= *replace;
                        c.region_moves.push(RegionMove {
                            tag,
                            kinds: set(pieces),
                            region: sides(region),
                            movement: m,
                            within: *within,
                            betza: movement.clone(),
                            replace: *replace,
                        })
                    }
                }
                Component::Transparent { pieces, region } => {
                    c.transparent.push((tag, set(pieces), sides(region)))
                }
                Component::Sanctuary {
                    pieces,
                    region,
                    by,
                    from,
                    from_zones,
                    attacks,
                } => c.sanctuaries.push(super::zones::Sanctuary {
                    tag,
                    kinds: set(pieces),
                    region: sides(region),
                    by: (!by.is_empty()).then(|| set(by)),
                    from: *from,
                    from_zones: from_zones.as_ref().map(|(_, z)| sides(z)),
                    attacks: *attacks,
                }),
                Component::Infiltration {
                    pieces,
                    by,
                    region,
                    targets,
                    once,
                    alone,
                    priority,
                } => c.infiltrations.push(super::infiltration::Infiltration {
                    tag,
                    kinds: set(pieces),
                    by: set(by),
                    region: sides(region),
                    targets: targets
                        .iter()
                        .map(|c| Sq::of(Square::new(c.file, c.rank)))
                        .collect(),
                    once: *once,
                    once_rule: leak(&rule.part_id("once")),
                    alone: *alone,
                    priority: *priority,
                }),
                Component::Defection {
                    pieces,
                    ranking,
                    region,
                    bare,
                    counted,
                    priority,
                } => c.defections.push(super::defection::Defection {
                    tag,
                    kinds: set(pieces),
                    ranking: ranking
                        .iter()
                        .map(|l| set(std::slice::from_ref(l)))
                        .collect(),
                    region: sides(region),
                    bare: (!bare.is_empty()).then(|| set(bare)),
                    before: *counted == model::Counted::BeforeSwitch,
                    choice_rule: leak(&rule.part_id("choice")),
                    bare_rule: leak(&rule.part_id("bare-king")),
                    priority: *priority,
                }),
                Component::Retake {
                    pieces,
                    takes,
                    by,
                    from,
                    region,
                } => c.retakes.push(super::retake::Retake {
                    tag,
                    kinds: set(pieces),
                    takes: (!takes.is_empty()).then(|| set(takes)),
                    by: (!by.is_empty()).then(|| set(by)),
                    from: *from,
                    region: sides(region),
                }),
                Component::NoEntry {
                    pieces,
                    region,
                    while_present,
                    opened_by,
                    except_beside,
                } => c.no_entries.push(super::zones::NoEntry {
                    opened_by: set(opened_by),
                    except_beside: set(except_beside),
                    one_entry: leak(&rule.part_id("one-entry")),
                    own_movement: leak(&rule.part_id("own-movement")),
                    crossing: leak(&rule.part_id("crossing")),
                    tag,
                    kinds: set(pieces),
                    region: sides(region),
                    while_present: while_present
                        .as_ref()
                        .map(|(w, l)| (*w == model::Whose::Own, set(l))),
                }),
                Component::FlyingRoyals => c.flying = Some(tag),
                // A zone names squares; it judges nothing.
                Component::Zone { .. } => {}
                Component::Adjacency(k) | Component::Alignment(k) => {
                    let line = matches!(rule.component, Component::Alignment(_));
                    let contact = super::contact::Contact::new(tag, line, k, set, sides(&k.region));
                    c.contact_kinds.0 |= contact.kinds().0;
                    c.contacts.push(contact);
                }
                Component::Drops {
                    pieces,
                    region,
                    no_doubled,
                    no_mate,
                    immobile,
                    must,
                    opposite_colours,
                    promoted,
                    free,
                    onto,
                    opening,
                    through_holes,
                    in_check,
                    gives_check,
                } => {
                    if !opposite_colours.is_empty() {
                        c.opposite_colours = Some((tag, set(opposite_colours)));
                    }
                    let at = c.drops.len();
                    c.drop_of.resize(c.kinds.len(), None);
                    c.hands |= rule.component.gives_hands();
                    for k in 0..c.kinds.len() {
                        // A component naming the kind drops it; one naming none drops the
                        // kinds no other names.
                        if set(pieces).has(k) || pieces.is_empty() && c.drop_of[k].is_none() {
                            c.drop_of[k] = Some(at);
                        }
                    }
                    c.drops.push(Drops {
                        tag,
                        region: sides(region),
                        no_doubled: *no_doubled,
                        no_mate: *no_mate,
                        immobile: *immobile,
                        must: *must,
                        promoted: *promoted,
                        free: *free,
                        onto: *onto,
                        opening: opening
                            .cells
                            .iter()
                            .map(|c| Sq::of(Square::new(c.file, c.rank)))
                            .collect(),
                        through_holes: *through_holes,
                        in_check: *in_check,
                        gives_check: *gives_check,
                        release: false,
                    })
                }
                Component::Prisoners {
                    pieces,
                    region,
                    in_check,
                    gives_check,
                } => {
                    c.kept.0 |= set(pieces).0;
                    c.hands = true;
                    c.drops.push(Drops {
                        tag,
                        region: sides(region),
                        no_doubled: false,
                        no_mate: false,
                        immobile: true,
                        must: false,
                        promoted: false,
                        free: false,
                        onto: Onto::Anywhere,
                        opening: Vec::new(),
                        through_holes: false,
                        in_check: *in_check,
                        gives_check: *gives_check,
                        release: true,
                    })
                }
                Component::Gating { shields } => {
                    c.gating = Some(tag);
                    c.gate_shields = *shields;
                    c.hands = true;
                }
                Component::CapturesToHand => {
                    c.captures_to_hand = Some(tag);
                    c.hands = true;
                }
                Component::HopLimit { pieces, immune } => c.hop_limits.push(HopLimit {
                    tag,
                    kinds: set(pieces),
                    immune: set(immune),
                }),
                Component::Pass { value, stuck } => {
                    c.pass = Some(ending(*value));
                    c.pass_stuck = *stuck;
                }
                Component::Flip { pattern } => c.flip = Some((tag, *pattern)),
                Component::FullBoard { value } => c.full_board = Some(ending(*value)),
                Component::Bikjang { value } => c.bikjang = Some(ending(*value)),
                Component::Blocker {
                    letter,
                    name,
                    shot,
                    keep,
                } => {
                    c.blocker = Some(Blocker {
                        tag,
                        letter: *letter,
                        name: name.clone(),
                        shot: *shot,
                        keep: *keep,
                    })
                }
                Component::InsufficientMaterial {
                    alone,
                    colour_bound,
                } => {
                    c.material = Some(Material {
                        tag,
                        alone: set(alone),
                        colour_bound: set(colour_bound),
                    })
                }
            }
        }
        // An `opened-by` piece's leaving opens a region for the turn's second action only:
        // what either side attacks does not change.
        c.while_kinds = KindSet(c.no_entries.iter().fold(0, |acc, n| {
            acc | n.while_present.map_or(0, |w| w.1 .0) | n.except_beside.0
        }));
        c.openers = KindSet(c.no_entries.iter().fold(0, |acc, n| acc | n.opened_by.0));
        c.entry_kinds = KindSet(c.no_entries.iter().fold(0, |acc, n| acc | n.kinds.0));
        c.transparent_kinds = KindSet(c.transparent.iter().fold(0, |acc, t| acc | t.1 .0));
        c.plain_quiet = c.contacts.is_empty()
            && c.while_kinds.0 == 0
            && c.transparent_kinds.0 == 0
            && c.defections.is_empty();
        c.contact_endings = (0..c.contacts.len()).collect();
        c.contact_endings
            .sort_by_key(|&k| std::cmp::Reverse(c.contacts[k].priority));
        // A component naming a kind wins over one naming none, wherever it is written; a
        // prisoner is released by its `prisoners`, whatever drops say.
        c.drop_of.resize(c.kinds.len(), None);
        for prisoners in [false, true] {
            for (at, rule) in def.rules.iter().enumerate() {
                let pieces = match &rule.component {
                    Component::Drops { pieces, .. } if !prisoners => pieces,
                    Component::Prisoners { pieces, .. } if prisoners => pieces,
                    _ => continue,
                };
                let Some(d) = c.drops.iter().position(|d| d.tag.index == at) else {
                    continue;
                };
                for k in pieces.iter().filter_map(index) {
                    c.drop_of[k] = Some(d);
                }
            }
        }
        c.plain_hands = def.rules.iter().any(|r| {
            r.component.gives_hands() && !matches!(r.component, Component::Prisoners { .. })
        });
        c.fen_layout = def.fen.clone().or_else(|| {
            use crate::definition::layout::Field as F;
            let mut implicit = vec![
                F::Placement,
                F::Side,
                F::Castling,
                F::EnPassant,
                F::HalfmoveClock,
                F::FullmoveNumber,
            ];
            if c.check_count.is_some() {
                implicit.push(F::CheckCount);
            }
            let once = c.infiltrations.iter().any(|i| i.once);
            if once {
                implicit.push(F::InfiltrationUsed);
            }
            if !c.retakes.is_empty() {
                implicit.push(F::Retake);
            }
            (!c.retakes.is_empty() || once).then_some(implicit)
        });
        c.demoted = (0..c.kinds.len()).collect();
        for p in &c.promotions {
            for &(from, to) in &p.pairs {
                c.demoted[to] = from;
                // A piece dropped promoted is dropped by its piece's drop component.
                if let Some(d) = c.drop_of.get(from).copied().flatten() {
                    if c.drops[d].promoted {
                        c.drop_of[to] = Some(d);
                    }
                }
            }
        }
        c.unpromoted = c.promotions.first().and_then(|p| {
            (0..c.kinds.len())
                .find(|&k| p.kinds.has(k) && !p.pairs.iter().any(|x| x.0 == k || x.1 == k))
        });
        c
    }

    /// The letter of the one kind `prisoners` keeps, if it keeps one.
    pub fn kept_letter(&self) -> Option<char> {
        let mut kept = (0..self.kinds.len()).filter(|&k| self.kept.has(k));
        match (kept.next(), kept.next()) {
            (Some(k), None) => Some(self.kinds[k].letter),
            _ => None,
        }
    }

    /// The drop component that drops pieces of `kind`, if any.
    #[inline]
    pub fn drop_component(&self, kind: usize) -> Option<&Drops> {
        self.drop_of
            .get(kind)
            .copied()
            .flatten()
            .map(|d| &self.drops[d])
    }

    /// The letter a FEN writes after `+` for a shogi-style promoted kind: its piece's.
    pub fn promoted_from(&self, kind: usize) -> Option<char> {
        self.promotions
            .iter()
            .flat_map(|p| p.pairs.iter())
            .find(|p| p.1 == kind)
            .map(|p| self.kinds[p.0].letter)
    }

    /// The kind index of a cell code, if it holds a piece of this definition.
    #[inline]
    pub fn kind_at(&self, code: u8) -> Option<usize> {
        match self.kind_of[code as usize] {
            0 => None,
            k => Some(k as usize - 1),
        }
    }

    /// The piece of kind `kind` for `color`.
    #[inline]
    pub fn piece(&self, color: Color, kind: usize) -> Piece {
        let k = &self.kinds[kind];
        match k.design {
            None => Piece::new(color, k.role),
            Some(d) => Piece::designed(color, d),
        }
    }

    /// The definition's piece letters, upper case (invented pieces have none).
    pub fn letters(&self) -> Vec<char> {
        self.def.pieces.iter().map(|p| p.letter).collect()
    }

    /// The colour and kind of what a FEN places on a square; `None` for no piece.
    pub fn kind_placed(&self, placed: Placed) -> Result<Option<(Color, usize)>, SetupError> {
        let kind = match placed {
            Placed::Piece { letter, color, .. } => self
                .kind_of_letter(letter)
                .map(|k| (color, k))
                .ok_or_else(|| SetupError::fen(format!("`{letter}` is not a piece"))),
            Placed::Design { design, color } => self
                .kinds
                .iter()
                .position(|k| k.design == Some(design))
                .map(|k| (color, k))
                .ok_or_else(|| SetupError::fen(format!("{design} is not on this board"))),
            Placed::Empty | Placed::Hole => return Ok(None),
        };
        kind.map(Some)
    }

    /// The definition with a kind for each of `designs`, the invented pieces on a board of it:
    /// each moves by its design's atoms (rule `invented-piece`), is neither royal nor a pawn,
    /// and no component names it, so it never castles, double-steps, takes en passant or
    /// promotes, and nothing promotes into it.
    pub fn with_designs(mut self, designs: &[DesignId]) -> Result<Compiled, SetupError> {
        if designs.is_empty() {
            return Ok(self);
        }
        if self.kinds.len() + designs.len() > MAX_KINDS {
            return Err(SetupError::fen(format!(
                "a board of {} holds at most {} distinct invented pieces besides its own {} kinds",
                self.def.name,
                MAX_KINDS - self.kinds.len(),
                self.kinds.len()
            )));
        }
        for &d in designs {
            let i = self.kinds.len();
            self.kinds.push(Kind {
                letter: '(',
                role: Role::Design,
                name: d.to_string(),
                movement: d.movement().clone(),
                royal: false,
                pawn: false,
                move_rule: "invented-piece",
                capture_rule: "invented-piece",
                clause: String::new(),
                design: Some(d),
                overlaps: overlaps(d.movement()),
            });
            for color in Color::ALL {
                self.kind_of[Piece::designed(color, d).code() as usize] = i as u8 + 1;
            }
        }
        self.tables = Color::ALL.map(|color| {
            let coded: Vec<(u8, &Movement)> = (0..self.kinds.len())
                .map(|k| (self.piece(color, k).code(), &self.kinds[k].movement))
                .collect();
            AttackTable::new(color, &coded)
        });
        Ok(self)
    }

    /// The movement of `kind` as its `piece` line writes it (an invented piece has none).
    pub fn betza(&self, kind: usize) -> &str {
        self.def
            .pieces
            .get(kind)
            .map_or("its design", |p| p.betza.as_str())
    }

    /// The region a piece of `kind` of `color` is confined to, if any.
    #[inline]
    pub fn confine_of(&self, kind: usize, color: Color) -> Option<&SqSet> {
        match self.confined.get(kind) {
            Some(Some((_, r))) => Some(&r[color.index()]),
            _ => None,
        }
    }

    /// Records the options a verdict in a position with `castling_right` consults.
    pub fn consult(&self, castling_right: bool) {
        let r = &self.readings;
        consulted::note(r.other);
        if castling_right {
            consulted::note(r.castling);
        }
    }

    /// The kind a written piece names: one of the definition's own by its role (a design
    /// names none of them).
    pub fn kind_of_ref(&self, piece: &crate::rules::turn::PieceRef) -> Option<usize> {
        match piece {
            crate::rules::turn::PieceRef::Role(r) => self
                .kinds
                .iter()
                .position(|k| k.design.is_none() && k.role == *r),
            crate::rules::turn::PieceRef::Design(_) => None,
        }
    }

    pub fn kind_of_letter(&self, letter: char) -> Option<usize> {
        self.kinds
            .iter()
            .position(|k| k.design.is_none() && k.letter == letter.to_ascii_uppercase())
    }
}

/// Whether two atoms of `m` have steps along one line from the piece, the only way two atoms
/// reach one square.
fn overlaps(m: &Movement) -> bool {
    let line = |(dx, dy): (i8, i8)| {
        let g = gcd(dx.unsigned_abs().into(), dy.unsigned_abs().into()).max(1) as i8;
        (dx / g, dy / g)
    };
    let lines: Vec<Vec<(i8, i8)>> = m
        .atoms
        .iter()
        .map(|a| a.steps.iter().map(|&s| line(s)).collect())
        .collect();
    lines.iter().enumerate().any(|(i, a)| {
        lines[i + 1..]
            .iter()
            .any(|b| a.iter().any(|s| b.contains(s)))
    })
}

/// The options each family of components is chosen by ([`Readings`]).
fn readings_of(def: &Definition) -> Readings {
    let mut r = Readings {
        repetition: (Asked::default(), u8::MAX),
        move_count: (Asked::default(), u16::MAX),
        ..Readings::default()
    };
    for rule in &def.rules {
        let asked = Asked(rule.when.iter().fold(0, |acc, (option, _)| {
            match def.options.iter().position(|o| o.name == *option) {
                Some(i) if i < 64 => acc | 1 << i,
                _ => acc,
            }
        }));
        if asked.is_empty() {
            continue;
        }
        match &rule.component {
            Component::Castling { .. } => r.castling = r.castling.union(asked),
            Component::Repetition { times } => {
                r.repetition = (r.repetition.0.union(asked), r.repetition.1.min(*times))
            }
            Component::MoveCount { moves } => {
                r.move_count = (r.move_count.0.union(asked), r.move_count.1.min(*moves))
            }
            _ => r.other = r.other.union(asked),
        }
    }
    r
}

/// The movement a Betza text gives (already checked by the definition's reader).
fn betza_movement(text: &str) -> Option<Movement> {
    crate::betza::Design::parse(text)
        .ok()
        .map(|d| movement_of(&d))
}

/// The role a definition's letter plays: the orthodox letters `K Q R B N P` are the orthodox
/// roles (so turns read and print as in chess, `e4` and `Nf3`, and the pieces get their
/// glyphs), every other letter a [`Role::Kind`]. What a piece does is always the definition's.
pub fn role_of(letter: char) -> Role {
    match letter {
        'K' | 'Q' | 'R' | 'B' | 'N' | 'P' => {
            Role::from_letter(letter).unwrap_or(Role::Kind(letter))
        }
        _ => Role::Kind(letter),
    }
}
