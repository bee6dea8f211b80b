//! The typed syntax tree of a scenario file. Every node keeps the byte span it came from, so
//! evaluation can point back at the scenario text. Squares stay as written until evaluation
//! resolves them against the variant's board.

use std::ops::Range;

use crate::rules::{CastleSide, Claim, Color, LegKind, Style};

/// Byte offsets into the source text.
pub type Span = Range<usize>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Spanned<T> {
        Spanned { node, span }
    }
}

/// A whole `.scn` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    pub variant: Spanned<String>,
    /// `<files>x<ranks>` after the variant name.
    pub size: Option<Spanned<(u8, u8)>>,
    pub options: Vec<OptionSetting>,
    pub scenarios: Vec<Scenario>,
}

/// `option <name> = <value>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSetting {
    pub name: Spanned<String>,
    pub value: Spanned<String>,
    pub span: Span,
}

/// `scenario "<title>" { ... }`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub title: Spanned<String>,
    pub statements: Vec<Statement>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub kind: StatementKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatementKind {
    /// `rule <rule-id>+`
    Rule(Vec<Spanned<String>>),
    /// `pending "<reason>"`
    Pending(Spanned<String>),
    Option(OptionSetting),
    Start,
    /// `board { white: Ke2 ... black: ... }`
    Board(Vec<Placement>),
    /// `fen "<text>"`
    Fen(Spanned<String>),
    /// `white to move`
    ToMove(Color),
    /// `set <key> [<color>] = <value>`
    Set(KeyValue),
    /// `play <turn>+`
    Play(Vec<TurnText>),
    Expect(Assertion),
}

/// A square as written: `e4`, `z10`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareName {
    pub file: String,
    pub rank: String,
    pub span: Span,
}

impl SquareName {
    pub fn text(&self) -> String {
        format!("{}{}", self.file, self.rank)
    }
}

/// A piece as written, without colour. Which piece it is depends on the variant, so it is
/// resolved when the scenario is lowered (`evaluate::Lowering::piece_ref`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PieceName {
    /// A letter (`K`) or a word (`king`).
    Name(Spanned<String>),
    /// A design in parentheses: `(WD)`.
    Design(Design),
}

impl PieceName {
    pub fn span(&self) -> &Span {
        match self {
            PieceName::Name(n) => &n.span,
            PieceName::Design(d) => &d.span,
        }
    }

    /// The piece as written: `K`, `king`, `(WD)`.
    pub fn text(&self) -> String {
        match self {
            PieceName::Name(n) => n.node.clone(),
            PieceName::Design(d) => format!("({})", d.text),
        }
    }
}

/// A csipgs design as written: its Betza notation without the outer parentheses
/// (`Wfc(DNFA)scDsHbmH`) and where it stands, parentheses included when it has them. No
/// variant turns a design into a piece yet; that plugs in at `evaluate::Lowering::piece_ref`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Design {
    pub text: String,
    pub span: Span,
}

/// One piece in a `board` block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub color: Color,
    /// `None` for a bare square, which places a pawn.
    pub piece: Option<PieceName>,
    pub square: SquareName,
    pub span: Span,
}

/// A state key with its value, in `set` and in `expect`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyValue {
    pub key: Spanned<String>,
    pub color: Option<Color>,
    pub value: Spanned<Value>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A bare word or number: `KQkq`, `-`, `3`, `yes`, `e3`.
    Word(String),
    /// A quoted string.
    Text(String),
    /// csipgs designs: `(WD) (WD)`.
    Designs(Vec<String>),
}

impl Value {
    /// The value as one string: designs in parentheses, separated by spaces.
    pub fn text(&self) -> String {
        match self {
            Value::Word(w) | Value::Text(w) => w.clone(),
            Value::Designs(d) => d
                .iter()
                .map(|d| format!("({d})"))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// A turn as written, with its source text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnText {
    pub turn: TurnSyntax,
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TurnSyntax {
    /// One or more actions joined by `;`, with a `+`/`#` claim glued to any of them.
    Actions(Vec<ActionSyntax>, Option<Claim>),
    Resign,
    Draw,
    /// `timeout`: the side to move ran out of time (xpanse).
    Timeout,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionSyntax {
    /// A move: its legs as written, each with its own mark (one leg for short notation).
    Move {
        style: Style,
        piece: Option<PieceName>,
        from: OriginSyntax,
        legs: Vec<LegSyntax>,
        promotion: Option<PieceName>,
    },
    /// `O-O` (king side) or `O-O-O`.
    Castle(CastleSide),
    /// `P@c5`
    Drop {
        piece: PieceName,
        to: SquareName,
    },
    /// `coup Nf9`
    Coup {
        piece: PieceName,
        square: SquareName,
    },
    /// `reborn c1`, `reborn e5-c1` (the dormant pawn on e5)
    Reborn {
        from: Option<SquareName>,
        square: SquareName,
    },
    /// `vanish e5`
    Vanish {
        square: SquareName,
    },
    Pass,
    /// `buy WD`
    Buy {
        design: Design,
    },
    /// `Q=BL`, `FbDbcA=fc(DF)`
    Redesign {
        from_design: Design,
        to_design: Design,
    },
}

/// One leg of a move as written: its mark (`-`, `x`, `^`, `~`; a kill names no victim) and
/// the square it ends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegSyntax {
    pub kind: LegKind,
    pub to: SquareName,
}

/// The origin of a move as written: nothing, a file (`Nbd7`), a rank (`R1a3`) or a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OriginSyntax {
    Any,
    File(String),
    Rank(String),
    Exact(SquareName),
}

/// The result an `expect result` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectedResult {
    Wins(Color),
    Draw,
    None,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assertion {
    /// `legal <turn>`
    Legal(TurnText),
    /// `illegal <turn> [because <rule-id>]`
    Illegal(TurnText, Option<Spanned<String>>),
    /// `moves = { <turn>* }`
    Moves(Vec<TurnText>),
    /// `moves from <square> = { <square>* }`
    MovesFrom(SquareName, Vec<SquareName>),
    /// `moves count <n>`
    MovesCount(u64),
    /// `moves from <square> count <n>`
    MovesFromCount(SquareName, u64),
    /// `check` (true) or `no check` (false)
    Check(bool),
    /// `result <...> [by <reason>]`
    Result(ExpectedResult, Option<Spanned<String>>),
    /// `<square> = <color> <piece>` or `<square> = empty` (`None`)
    Occupant(SquareName, Option<(Color, PieceName)>),
    /// `zone <square> = <zone>`
    Zone(SquareName, Spanned<String>),
    /// `perft <depth> = <n>`
    Perft(u32, u64),
    /// `win in <n> for <color>`
    WinIn(u32, Color),
    /// `cost <design> = <n>`
    Cost(Spanned<String>, u64),
    /// `<key> [<color>] = <value>`
    Key(KeyValue),
    /// `invariant <name> to depth <n>`
    Invariant(Spanned<String>, u32),
}
