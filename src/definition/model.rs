//! What a variant definition means, once its text has been parsed and every name resolved: the
//! board, the pieces, the start position, the readings it declares and its rule components in
//! the order they judge a turn. The generic engine (`crate::rules::defined`) plays this and
//! nothing else; the syntax and its errors live beside it in this folder.

use crate::betza;
use crate::rules::board::Geometry;

/// A side, for settings given per side.
pub use crate::rules::Color;

/// A place in a definition's text: byte offsets, and the line and column (both from 1) where
/// it starts, so an engine refusal can point back at the clause that made it.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq, Default)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub line: u32,
    pub col: u32,
}

/// A square of a definition's board, by file and rank from zero at White's lower left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub file: u8,
    pub rank: u8,
}

impl Cell {
    /// The cell of a square that `geometry` names (`e4`, `z0`).
    pub fn named(geometry: &Geometry, text: &str) -> Option<Cell> {
        // A rank is written without leading zeros (`a1`, not `a01`): one name per square.
        let digits = text.trim_start_matches(|c: char| !c.is_ascii_digit());
        if digits.len() > 1 && digits.starts_with('0') {
            return None;
        }
        let sq = geometry.parse_square(text)?;
        Some(Cell {
            file: sq.file,
            rank: sq.rank,
        })
    }

    /// Its name under `geometry`.
    pub fn name(self, geometry: &Geometry) -> String {
        geometry.square_name(crate::rules::Square::new(self.file, self.rank))
    }
}

/// The letter that stands for every invented piece where a setting names kinds (`by K Q
/// invented`): no piece of a definition has it.
pub const INVENTED: char = '(';

/// A set of squares of the board, for one side.
#[derive(Clone, Debug, PartialEq, Hash, Eq, Default)]
pub struct Region {
    /// The squares, sorted, without duplicates.
    pub cells: Vec<Cell>,
}

impl Region {
    pub fn contains(&self, cell: Cell) -> bool {
        self.cells.binary_search(&cell).is_ok()
    }
}

/// A region per side: `[white, black]`.
pub type Sides<T> = [T; 2];

/// A whole definition.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Definition {
    /// The name scenario files and the command line use (`capablanca`).
    pub name: String,
    /// The game, in a few words.
    pub title: String,
    /// Where its rules come from (a book, a web page, "the designer").
    pub source: String,
    /// The definition it started from (`from chess`), if any.
    pub parent: Option<String>,
    pub files: u8,
    pub ranks: u8,
    /// How its squares are named: the `files` and `first-rank` of its `board` block (files
    /// `a`, `b`, ... and ranks from 1 when not given), the same size as `files` and `ranks`.
    /// Every square the definition writes, and every square the engine names, reads by it.
    pub geometry: Geometry,
    /// Squares that are not part of the board (`*` in a FEN).
    pub holes: Vec<Cell>,
    /// The piece kinds, in the order the definition lists them.
    pub pieces: Vec<PieceDef>,
    /// The start position, as a FEN in the definition's layout.
    pub start: String,
    /// The fields of its FENs (`fen`); `None`: Fairy-Stockfish's, with the state it has no
    /// field for (`retake`) after them.
    pub fen: Option<Vec<super::layout::Field>>,
    /// The readings the definition leaves open.
    pub options: Vec<OptionDecl>,
    /// The rule components, in the order they judge a turn.
    pub rules: Vec<Rule>,
    /// The designer's words for rules the engine applies (`rule not-your-turn "..."`).
    pub words: Vec<Words>,
    /// Its own invariants (`property`), in the order written.
    pub properties: Vec<super::property::Property>,
}

/// The words of an engine rule: its clause, and where it comes from.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Words {
    pub id: String,
    pub clause: String,
    pub source: Option<String>,
}

/// One kind of piece.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct PieceDef {
    /// Its letter, `A` to `Z`: upper case for White in a FEN, lower case for Black.
    pub letter: char,
    /// Its name (`archbishop`); the rule id of its movement is `<name>-move`.
    pub name: String,
    /// Its movement as written (`BN`).
    pub betza: String,
    pub design: betza::Design,
    /// Losing it (or leaving it attacked, under a `check` component) is what the royalty
    /// components judge.
    pub royal: bool,
    /// A pawn is written without its letter in a turn (`e4`, `exd5`), and is what
    /// double-step, en passant and promotion components name by default.
    pub pawn: bool,
    /// The designer's sentence for how it moves, quoted by `explain`.
    pub clause: String,
    /// The designer's sentence for how it captures, when given apart: its captures are then
    /// the rule `<name>-capture`, quoting it, rather than `<name>-move`.
    pub capture_clause: Option<String>,
    /// `as RULE-ID`: the rule id of its movement, in place of `<name>-move`.
    pub rule: Option<String>,
    pub span: Span,
}

impl PieceDef {
    /// The rule id of its movement: `<name>-move`, or the one its line gives.
    pub fn move_rule(&self) -> String {
        self.rule
            .clone()
            .unwrap_or_else(|| format!("{}-move", self.name))
    }
}

/// A reading the rules leave open, which components read through `when`.
#[derive(Clone, Debug, PartialEq, Hash, Eq)]
pub struct OptionDecl {
    pub name: String,
    pub values: Vec<String>,
    pub default: String,
    pub reason: String,
    pub span: Span,
}

/// One rule component: what it does, its rule id and the clause it enforces.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Rule {
    /// The rule id that refusals and explanations name; defaults to the component's name.
    pub id: String,
    /// The designer's words for the rule, quoted by `explain`.
    pub clause: String,
    /// Where the rule comes from (an article, a page); defaults to the definition's source.
    pub source: String,
    /// The readings under which the component applies: every `(option, value)` must hold.
    /// Empty: always.
    pub when: Vec<(String, String)>,
    pub component: Component,
    /// Parts of the component with words of their own (`part choice "..."`): each is the
    /// rule `<id>-<part>` of the catalogue, quoting its clause.
    pub parts: Vec<Part>,
    pub span: Span,
}

impl Rule {
    /// The rule id of the part `name`: as the definition names it, else `<id>-<name>`.
    pub fn part_id(&self, name: &str) -> String {
        self.parts
            .iter()
            .find(|p| p.name == name)
            .and_then(|p| p.id.clone())
            .unwrap_or_else(|| format!("{}-{name}", self.id))
    }
}

/// A part of a component named as a rule of its own ([`Rule::parts`]).
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Part {
    /// The part's name.
    pub name: String,
    /// Its rule id (`part NAME as ID`); the component's id, `-`, the name when not given.
    pub id: Option<String>,
    pub clause: String,
    /// Where its words come from; the component's source when not given.
    pub source: Option<String>,
}

/// Who a game-ending rule is good for, seen from the side it happens to (the side that is
/// mated, stalemated, loses its last piece of a kind, or reaches a goal).
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Value {
    Win,
    Loss,
    Draw,
    /// Decided by counting: the side with more pieces on the board wins, equal numbers draw
    /// (ataxx, othello).
    Count,
}

/// Where a drop may go besides its region (Fairy-Stockfish's enclosing drops).
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Onto {
    /// Any empty square of the region.
    Anywhere,
    /// A square next to (one of the eight neighbours of) a piece of the dropping side: the
    /// ataxx clone.
    NextToOwn,
    /// A square from which a line (rank, file or diagonal) runs over one or more enemy pieces
    /// and then a piece of the dropping side: an othello move.
    Enclosing,
}

/// Which enemy pieces a `flip` turns over.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum FlipPattern {
    /// Every enemy piece next to the square the piece lands on (ataxx).
    Neighbours,
    /// Every run of enemy pieces on a line from that square to a piece of the mover's
    /// (othello).
    Lines,
}

/// How royal pieces must be kept safe.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Safety {
    /// No move may leave any royal piece of the mover attacked (orthodox chess; coregal).
    All,
    /// A move may leave royal pieces attacked as long as one is not (Spartan duple check: a
    /// move that leaves every royal attacked is illegal).
    AnyOne,
    /// While a side has two or more royal pieces, any may be left attacked (and captured);
    /// its last one may not (sho shogi's king and crown prince).
    LastOne,
}

/// When reaching a goal decides the game.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Timing {
    /// As soon as the piece stands there.
    AtOnce,
    /// If the piece still stands there when its side is to move again (the other side has
    /// one turn to answer).
    AfterReply,
    /// At once, except that a second player whose opponent got there first may still move
    /// if it can reach its own goal with that move.
    UnlessMatched,
}

/// Where the capturers a sanctuary holds against stand, seen from the protected piece's
/// side's region.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Reach {
    /// Anywhere on the board.
    Anywhere,
    /// In the region too.
    Inside,
    /// Outside the region.
    Outside,
}

/// Whose pieces a contact component's `beside` (or `facing`) kinds are, seen from the side
/// that moved.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Whose {
    Own,
    Enemy,
}

/// Which move of the `pieces` piece a contact component asks for.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Moved {
    /// Wherever it came from: the contact counts whichever piece brought it about.
    Any,
    /// The piece is the one the turn moved.
    Yes,
    /// The turn moved it into the region from outside.
    Into,
    /// Anything but that: it stood still, or moved from inside the region.
    NotInto,
}

/// When a `defection` counts whether the other side is left bare.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Counted {
    /// Once the piece has changed sides.
    AfterSwitch,
    /// Before it does: only a side that had nothing to give is bare.
    BeforeSwitch,
}

/// What a contact does to the turn that leaves it, seen from the side that moved.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Effect {
    /// The turn may not be played.
    Illegal,
    /// The side that moved wins.
    Win,
    /// The side that moved loses.
    Loss,
}

/// Which of the two pieces of a contact must stand in the component's region.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Standing {
    Piece,
    Beside,
    Both,
}

/// The lines an `alignment` runs along.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq)]
pub enum Lines {
    Orthogonal,
    Diagonal,
    All,
}

/// Gives a setting's enumeration its words, in one table: the resolver reads them, the import
/// writes them, and the language server offers them.
macro_rules! worded {
    ($ty:ident { $($variant:ident => $word:literal),* $(,)? }) => {
        impl $ty {
            /// Every value, in the order of [`Self::WORDS`].
            pub const ALL: &'static [$ty] = &[$($ty::$variant),*];
            /// The word each value is written with.
            pub const WORDS: &'static [&'static str] = &[$($word),*];

            /// The word this value is written with.
            pub fn word(self) -> &'static str {
                match self {
                    $($ty::$variant => $word),*
                }
            }
        }
    };
}

worded!(Value { Win => "win", Loss => "loss", Draw => "draw", Count => "count" });
worded!(Onto { Anywhere => "anywhere", NextToOwn => "next-to-own", Enclosing => "enclosing" });
worded!(FlipPattern { Neighbours => "neighbours", Lines => "lines" });
worded!(Safety { All => "all", AnyOne => "any-one", LastOne => "last-one" });
worded!(Timing { AtOnce => "at-once", AfterReply => "after-reply", UnlessMatched => "unless-matched" });
worded!(Reach { Anywhere => "anywhere", Inside => "inside", Outside => "outside" });
worded!(Whose { Own => "own", Enemy => "enemy" });
worded!(Moved { Any => "any", Yes => "yes", Into => "into", NotInto => "not-into" });
worded!(Effect { Illegal => "illegal", Win => "win", Loss => "loss" });
worded!(Standing { Piece => "piece", Beside => "beside", Both => "both" });
worded!(Lines { Orthogonal => "orthogonal", Diagonal => "diagonal", All => "all" });
worded!(Counted { AfterSwitch => "after-switch", BeforeSwitch => "before-switch" });

/// The kinds of rule components. Each is generated and judged by the one engine; what each
/// setting means is in `docs/defining-variants.md`.
#[derive(Clone, Debug, PartialEq, Hash)]
pub enum Component {
    /// Pieces on their double-step squares may advance two (or up to `steps`) squares straight
    /// forward through empty squares, moving only; or, with `movement`, make that move
    /// (Betza, to an empty square) instead.
    DoubleStep {
        pieces: Vec<char>,
        region: Sides<Region>,
        /// The longest step, 2 or 3.
        steps: u8,
        /// The move made from the region instead of the straight steps (`mfnA`).
        movement: Option<String>,
    },
    /// A piece passed over by an enemy's double step may be taken on the square it passed,
    /// on the very next turn, by these pieces moving there as they capture, onto a square of
    /// the capturer's `region` (everywhere when it is empty).
    EnPassant {
        pieces: Vec<char>,
        region: Sides<Region>,
        /// Whether a capturer that could also step onto the passed square without capturing
        /// may take there en passant too (the rules: yes; Fairy-Stockfish only steps).
        where_it_steps: bool,
    },
    /// A piece of `pieces` that ends a move in its side's region is exchanged for one of
    /// `into` (optional unless `mandatory`, and always where it could never move again).
    Promotion {
        pieces: Vec<char>,
        region: Sides<Region>,
        /// The kinds each side promotes into, `[white, black]`.
        into: Sides<Vec<char>>,
        mandatory: bool,
        /// Only into a kind the side has fewer of on the board than at the start (grand
        /// chess: only to a piece that has been captured).
        captured_only: bool,
        /// Only into a kind while the side has fewer than this many of it.
        limits: Vec<(char, u8)>,
        /// Shogi-style: each of these pieces promotes into its own kind, `(piece, promoted)`;
        /// the promoted kind is written `+` and the piece's letter in a FEN, and goes back to
        /// the piece when captured into a hand.
        pairs: Vec<(char, char)>,
        /// A move that starts in the region may promote too, wherever it ends (shogi: into,
        /// within or out of the zone).
        leaving: bool,
        /// The promotion is a turn of its own instead of part of a move (sittuyin): a piece
        /// standing in the region (anywhere, when it is its side's last of its kind) becomes
        /// one of `into` where it stands or on an empty square the new kind could move to,
        /// where it attacks no enemy piece, and the turn may not give check.
        as_turn: bool,
        /// A promoted kind of `pairs` moving in the region turns back into its piece (Kyoto
        /// shogi: with `mandatory`, every piece flips at every move).
        demote: bool,
    },
    /// The king moves towards an unmoved rook on its first rank to `king_to`, the rook to
    /// `rook_to` (`[queenside, kingside]` files), neither having moved, the squares between
    /// them empty, and the king not in check nor passing or landing on an attacked square.
    Castling {
        king: char,
        rooks: Vec<char>,
        /// Destination files of the king, `[queenside, kingside]`.
        king_to: [u8; 2],
        /// Destination files of the rook, `[queenside, kingside]`.
        rook_to: [u8; 2],
        /// Castling rights name the rook's file (Chess960, Shredder-FEN): the king and rook
        /// may start anywhere on the first rank.
        chess960: bool,
        /// The rank castling happens on, counted from each side's own edge (1: the first).
        rank: u8,
        /// The files `[queenside, kingside]` from which `Q` and `K` in a FEN look inwards for
        /// the rook; `None`: from the edges (the outermost rook).
        rooks_from: Option<[u8; 2]>,
        /// Placement: a king dropped on this file of the castling rank gains the rights with
        /// the rooks in the corners, and a rook dropped in a corner gains one while the king
        /// stands there.
        drop_rights: Option<u8>,
    },
    /// Royal pieces may not be left attacked (a turn that does is refused).
    Check {
        safety: Safety,
    },
    /// A side to move with no legal turn that is in check.
    Checkmate {
        value: Value,
    },
    /// A side to move with no legal turn that is not in check.
    Stalemate {
        value: Value,
    },
    /// A side that has lost every piece of one of `pieces` (all its pieces when empty).
    Extinction {
        pieces: Vec<char>,
        value: Value,
    },
    /// A side whose piece of `pieces` stands in its goal region.
    Goal {
        pieces: Vec<char>,
        region: Sides<Region>,
        value: Value,
        timing: Timing,
        /// The piece counts as standing on its goal only where no enemy piece attacks it (and
        /// both sides standing there safe is a draw).
        safe: bool,
    },
    /// A side left with its one last piece (a bare king).
    BareKing {
        value: Value,
        /// The rule applies only while the other side has at least this many pieces.
        against: u8,
        /// A bare side whose turn it is still moves (it may bare the other side too) while
        /// the other side has no more than `against` pieces.
        reply: bool,
    },
    /// A piece of `pieces` standing on a square whose first-move right it still has (in a
    /// FEN, the file letters of the castling field) may make `movement` (Betza, to an empty
    /// square). The right goes when a piece leaves or is captured on that square.
    FirstMove {
        pieces: Vec<char>,
        movement: String,
        /// Whether the move may be made while in check.
        in_check: bool,
        /// A royal piece's right also goes when an enemy piece of these kinds ends a move on
        /// its rank or file.
        lost_on_line: Vec<char>,
    },
    /// A royal piece in check may only move to capture the piece that gives check.
    CheckedRoyalCaptures,
    /// A side that has given `checks` checks (the value is that side's, as the engine and
    /// `rules` read it).
    CheckCount {
        checks: u8,
        value: Value,
    },
    /// A side that can capture must capture.
    CompulsoryCapture,
    /// No turn may give check.
    NoGivingCheck,
    /// A capture removes every non-immune piece on the squares around the capture square, and
    /// the capturing piece.
    Explosion {
        immune: Vec<char>,
    },
    /// The position has occurred this many times: a draw.
    Repetition {
        times: u8,
    },
    /// This many moves by each side without a capture or a pawn move: a draw.
    MoveCount {
        moves: u16,
    },
    /// A draw when neither side can win by any series of moves, judged by material: besides
    /// the royal pieces, nothing but one piece of an `alone` kind, or nothing but pieces of
    /// `colour_bound` kinds all standing on squares of one colour.
    InsufficientMaterial {
        alone: Vec<char>,
        colour_bound: Vec<char>,
    },
    /// Pieces of `pieces` never leave their side's region: a move, or an attack, ends inside it.
    Confine {
        pieces: Vec<char>,
        region: Sides<Region>,
    },
    /// A piece of `pieces` standing in its side's region may also move (and capture) as
    /// `movement` (Betza); with `replace`, it moves only so there, its own movement set aside.
    RegionMove {
        pieces: Vec<char>,
        region: Sides<Region>,
        movement: String,
        /// The move must also end inside the region (the janggi palace's diagonal lines).
        within: bool,
        /// The movement replaces the piece's own while it stands in the region.
        replace: bool,
    },
    /// A piece of `pieces` standing in its side's region is not captured (nor attacked) by a
    /// piece of `by` (every kind when empty) standing where `from` says.
    Sanctuary {
        pieces: Vec<char>,
        region: Sides<Region>,
        by: Vec<char>,
        from: Reach,
        /// `from ZONE...`: the capturers must stand in these zones, by name, and their squares
        /// (each side's part of them).
        from_zones: Option<(Vec<String>, Sides<Region>)>,
        /// Whether it also keeps those pieces from attacking (`attacks no`: only from
        /// capturing, so a royal piece there may still be in check).
        attacks: bool,
    },
    /// A named zone of the board (`zone { name court ... }`): the names `expect zone` and
    /// `show` use, and region lines (`both zone court`) reuse.
    Zone {
        name: String,
        region: Sides<Region>,
    },
    /// Right after a piece of `pieces` standing where `from` says (seen from the region)
    /// captures a piece of `takes` (none: any) on a square of its side's region, a piece of
    /// `by` (none: any) may capture it there on the very next turn, whatever a `sanctuary`
    /// says; the window closes with that turn.
    Retake {
        pieces: Vec<char>,
        takes: Vec<char>,
        by: Vec<char>,
        from: Reach,
        region: Sides<Region>,
    },
    /// After a move of a piece of `by` that ends on its side's region, the same turn may put
    /// one of the side's pieces of `pieces`, from wherever it stands, on one of `targets`,
    /// removing what stands there (no capture: nothing is taken into a hand); removing an
    /// enemy royal piece wins. With `once`, each side does it once a game (the part `once`);
    /// with `alone`, also as a turn of its own while a `by` piece stands on the region.
    Infiltration {
        pieces: Vec<char>,
        by: Vec<char>,
        region: Sides<Region>,
        targets: Vec<Cell>,
        once: bool,
        alone: bool,
        /// Its win's place among the game's endings after one turn (`priority N`, as a
        /// contact's).
        priority: u8,
    },
    /// A piece of `pieces` that ends its move on its side's region leaves the board, and the
    /// other side's piece of the highest kind in `ranking` (first the highest) changes sides
    /// where it stands; among several, the mover names one (the part `choice`). With `bare`,
    /// a defection that leaves the other side nothing but pieces of those kinds wins (the
    /// part `bare-king`), counted as `counted` says.
    Defection {
        pieces: Vec<char>,
        ranking: Vec<char>,
        region: Sides<Region>,
        bare: Vec<char>,
        counted: Counted,
        /// The bare win's place among the game's endings after one turn (`priority N`, as a
        /// contact's).
        priority: u8,
    },
    /// Pieces of `pieces` standing in their side's region do not block attacks: a line of
    /// attack passes over them (they still attack themselves). Moves are not affected.
    Transparent {
        pieces: Vec<char>,
        region: Sides<Region>,
    },
    /// Pieces of `pieces` standing outside their side's region never move into it (nor attack
    /// its squares); those inside move within it and leave it freely.
    NoEntry {
        pieces: Vec<char>,
        region: Sides<Region>,
        /// `while`: it applies only while a piece of these kinds, of the moving piece's side
        /// (`Own`) or the other (`Enemy`), stands in the moving side's region.
        while_present: Option<(Whose, Vec<char>)>,
        /// `opened-by`: a piece of these kinds moving out of the region lets one piece of
        /// `pieces` in, as the second action of the same turn.
        opened_by: Vec<char>,
        /// `except-beside`: a piece landing next to an enemy piece of these kinds enters all
        /// the same.
        except_beside: Vec<char>,
    },
    /// Two royal pieces of opposite sides may not face each other on a file with no piece
    /// between: each attacks the other along it.
    FlyingRoyals,
    /// A piece of `pieces` of the side that moved standing next to (`Adjacency`) or lined up
    /// with (`Alignment`) a piece of `beside` of `of`'s side: the turn that leaves it is
    /// refused, won or lost, as `effect` says. Both share [`Contact`].
    Adjacency(Contact),
    Alignment(Contact),
    /// A piece in its side's hand may be put on an empty square as a whole turn (a drop): the
    /// pieces of `pieces` (none: every kind no other `drops` names), onto the side's `region`
    /// (empty: anywhere).
    Drops {
        pieces: Vec<char>,
        region: Sides<Region>,
        /// Not onto a file where the side already has a piece of that kind (shogi's nifu).
        no_doubled: bool,
        /// Not a drop that checkmates.
        no_mate: bool,
        /// Also onto squares from which the piece could never move again.
        immobile: bool,
        /// Pieces of these kinds must end up on squares of both colours: no drop may leave too
        /// few squares of a colour for those still in hand (placement's bishops).
        opposite_colours: Vec<char>,
        /// While the side holds pieces in hand, its turn is a drop (setup phases).
        must: bool,
        /// A piece may also be dropped as the kind it promotes into (`pairs`).
        promoted: bool,
        /// The kinds are dropped without being held: the hand is neither asked nor
        /// emptied (ataxx's clones).
        free: bool,
        /// Where a drop may go besides the region.
        onto: Onto,
        /// While any of these squares is empty, drops go only there, `onto` or not
        /// (othello's four centre squares).
        opening: Region,
        /// `onto enclosing` as Fairy-Stockfish tests it: a line runs over holes, so a drop
        /// next to an enemy piece may enclose nothing (the rules: a hole ends the line).
        through_holes: bool,
        /// A side in check may drop (`in-check no`: it must answer the check by a move).
        in_check: bool,
        /// A drop may give check (`gives-check no`: Fairy-Stockfish's `dropChecks = false`).
        gives_check: bool,
    },
    /// A captured piece of `pieces` is kept for its owner (a prisoner), who may release it
    /// instead of moving onto an empty square of the side's `region`, as a drop that
    /// `in_check` and `gives_check` bind as they bind `drops`.
    Prisoners {
        pieces: Vec<char>,
        region: Sides<Region>,
        in_check: bool,
        gives_check: bool,
    },
    /// After a move or a drop, the enemy pieces of the `pattern` change sides, keeping their
    /// kinds.
    Flip {
        pattern: FlipPattern,
    },
    /// When no square of the board is empty, the game ends with `value` (for the side to
    /// move).
    FullBoard {
        value: Value,
    },
    /// A captured piece goes into the capturer's hand, as the kind it was before any
    /// promotion.
    CapturesToHand,
    /// A piece leaving a first-rank square that keeps its gating right (in a FEN, the file
    /// letters and `KQ` of the castling field) may have a piece from the hand put on the
    /// square it leaves, in the same turn; castling may gate on the king's or the rook's
    /// square. The rights go once the side's hand is empty. `shields`: whether the piece put
    /// down counts as standing there when the move's check is judged (the rules: yes;
    /// Fairy-Stockfish judges the move without it).
    Gating {
        shields: bool,
    },
    /// Pieces of `pieces` may neither pass over a piece of the `immune` kinds on a straight
    /// line between where they start and where they land, nor capture one (the janggi cannon,
    /// which may not jump over or take another cannon).
    HopLimit {
        pieces: Vec<char>,
        immune: Vec<char>,
    },
    /// The player to move may pass instead of moving (a pass that leaves a royal piece
    /// attacked is refused by `check`); two passes in a row end the game with `value`.
    Pass {
        value: Value,
        /// Only a player with pieces on the board and no other legal turn may pass.
        stuck: bool,
    },
    /// Two royal pieces of opposite sides facing each other on a file with no piece between
    /// (bikjang) may be brought about, but the player who faces it must break it or pass; a
    /// pass, allowed then even in check, ends the game with `value`.
    Bikjang {
        value: Value,
    },
    /// Every turn is a move and then a neutral blocker placed on an empty square: written
    /// `*` in a FEN and `LETTER@square` as a turn's second action. With `shot`, it goes where
    /// the moved piece could move from where it landed (the amazons' arrow); else anywhere
    /// empty. With `keep`, blockers stay (arrows); else the one blocker moves each turn, to
    /// a square other than where it stood (the duck).
    Blocker {
        letter: char,
        name: String,
        shot: bool,
        keep: bool,
    },
}

/// The settings of a contact component ([`Component::Adjacency`], [`Component::Alignment`]).
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Contact {
    pub pieces: Vec<char>,
    pub beside: Vec<char>,
    pub of: Whose,
    pub moved: Moved,
    pub effect: Effect,
    /// Where the pieces stand (empty: anywhere), by the side that moved.
    pub region: Sides<Region>,
    pub standing: Standing,
    /// `alignment`: the lines, and the fewest empty squares between the two (all between are
    /// empty).
    pub lines: Lines,
    pub gap: u8,
    /// Of the contacts that end a game after one turn, those of the highest priority decide,
    /// then the first written (`priority N`, default 0).
    pub priority: u8,
    /// With `effect win`: the other piece's attacks do not count against the turn that wins
    /// (`disarms yes`).
    pub disarms: bool,
    /// `other-moved`: whether the second piece must be one the turn moved (`Some(true)`),
    /// must not be (`Some(false)`), or either (`None`).
    pub other_moved: Option<bool>,
    /// `elsewhere`: the effect of the contact where the pieces do not stand in the region as
    /// `standing` says; `None`: no contact there.
    pub elsewhere: Option<Effect>,
}

impl Component {
    /// Whether it makes turns of two actions: a region an exit opens (`no-entry` with
    /// `opened-by`), or an infiltration.
    pub fn makes_two_action_turns(&self) -> bool {
        match self {
            Component::Infiltration { .. } => true,
            Component::NoEntry { opened_by, .. } => !opened_by.is_empty(),
            _ => false,
        }
    }

    /// The component's name as a definition writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Component::DoubleStep { .. } => "double-step",
            Component::EnPassant { .. } => "en-passant",
            Component::Promotion { .. } => "promotion",
            Component::Castling { .. } => "castling",
            Component::Check { .. } => "check",
            Component::Checkmate { .. } => "checkmate",
            Component::Stalemate { .. } => "stalemate",
            Component::Extinction { .. } => "extinction",
            Component::Goal { .. } => "goal",
            Component::BareKing { .. } => "bare-king",
            Component::FirstMove { .. } => "first-move",
            Component::CheckedRoyalCaptures => "checked-royal-captures",
            Component::CheckCount { .. } => "check-count",
            Component::CompulsoryCapture => "compulsory-capture",
            Component::NoGivingCheck => "no-giving-check",
            Component::Explosion { .. } => "explosion",
            Component::Repetition { .. } => "repetition",
            Component::MoveCount { .. } => "move-count",
            Component::InsufficientMaterial { .. } => "insufficient-material",
            Component::Confine { .. } => "confine",
            Component::RegionMove { .. } => "region-move",
            Component::FlyingRoyals => "flying-royals",
            Component::Adjacency(_) => "adjacency",
            Component::Alignment(_) => "alignment",
            Component::Drops { .. } => "drops",
            Component::CapturesToHand => "captures-to-hand",
            Component::Prisoners { .. } => "prisoners",
            Component::Gating { .. } => "gating",
            Component::HopLimit { .. } => "hop-limit",
            Component::Pass { .. } => "pass",
            Component::Flip { .. } => "flip",
            Component::FullBoard { .. } => "full-board",
            Component::Bikjang { .. } => "bikjang",
            Component::Blocker { .. } => "blocker",
            Component::Sanctuary { .. } => "sanctuary",
            Component::Zone { .. } => "zone",
            Component::Retake { .. } => "retake",
            Component::Defection { .. } => "defection",
            Component::Infiltration { .. } => "infiltration",
            Component::Transparent { .. } => "transparent",
            Component::NoEntry { .. } => "no-entry",
        }
    }

    /// Whether positions with this component have hands: a drop of pieces held (not a free
    /// one), captures going to the hand, or gating.
    pub fn gives_hands(&self) -> bool {
        match self {
            Component::Drops { free, .. } => !free,
            Component::CapturesToHand | Component::Gating { .. } | Component::Prisoners { .. } => {
                true
            }
            _ => false,
        }
    }
}
