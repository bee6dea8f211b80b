//! The mapping of Fairy-Stockfish's settings onto the definition model: [`TABLE`] holds every
//! supported setting and what it does, in the order Fairy-Stockfish applies them (pieces
//! first, then the rest, whatever their order in the file). A section starts from the
//! definition of its base game and each setting edits it; what a setting touches that spans
//! several components (promotion, double steps, en passant, extinction, goals) is gathered in
//! a view and written back once, when the section is done.

use std::ops::Range;

use super::pieces;
use super::reader::Setting;
use crate::betza::Design;
use crate::definition::model::{
    Cell, Component, Definition, PieceDef, Region, Rule, Sides, Span, Timing, Value,
};
use crate::scenario::diagnostic::Problem;

/// What a supported setting does to the definition.
type Apply = fn(&mut State, &Arg<'_>) -> Result<(), Problem>;

/// A setting's value, where it stands, and the key it came under.
pub struct Arg<'a> {
    /// The setting's name.
    pub key: &'a str,
    /// Its value as written.
    pub value: &'a str,
    /// Where the value stands in the file.
    pub span: Range<usize>,
}

impl Arg<'_> {
    fn bad(&self, why: impl std::fmt::Display) -> Problem {
        Problem::new(
            format!(
                "unsupported value `{}` of `{}`: {why}",
                self.value, self.key
            ),
            self.span.clone(),
            "not supported",
        )
    }
}

/// Every supported setting, in Fairy-Stockfish's order of application, with what it maps to
/// (the sentence is the documentation's). The piece settings (`knight = n`, `customPiece1 =
/// x:BETZA`, `king = k`) come first and are matched by [`piece_setting`]; adding a setting is
/// one line here and its function.
pub const TABLE: &[(&str, Apply, &str)] = &[
    ("maxRank", max_rank, "`board`: the number of ranks"),
    (
        "maxFile",
        max_file,
        "`board`: the number of files (a letter or a number)",
    ),
    (
        "pawnTypes",
        pawn_types,
        "the pieces of `promotion`, `en-passant` and the `pawn` flag",
    ),
    (
        "variantTemplate",
        no_rule,
        "nothing: it picks a user interface",
    ),
    (
        "pieceToCharTable",
        no_rule,
        "nothing: it picks a user interface",
    ),
    ("pieceValueMg", no_rule, "nothing: engine evaluation"),
    ("pieceValueEg", no_rule, "nothing: engine evaluation"),
    (
        "chess960",
        chess960,
        "only `false` (shuffled starts are not imported)",
    ),
    (
        "startFen",
        start_fen,
        "`start` (pockets `[...]` are refused)",
    ),
    (
        "promotionRegionWhite",
        |s, a| promo_region(s, a, 0),
        "`promotion`: White's region",
    ),
    (
        "promotionRegionBlack",
        |s, a| promo_region(s, a, 1),
        "`promotion`: Black's region",
    ),
    (
        "promotionPawnTypes",
        |s, a| promo_pawns(s, a, &[0, 1]),
        "`promotion`: `pieces`",
    ),
    (
        "promotionPawnTypesWhite",
        |s, a| promo_pawns(s, a, &[0]),
        "`promotion`: `pieces` (both sides alike)",
    ),
    (
        "promotionPawnTypesBlack",
        |s, a| promo_pawns(s, a, &[1]),
        "`promotion`: `pieces` (both sides alike)",
    ),
    (
        "promotionPieceTypes",
        |s, a| promo_into(s, a, &[0, 1]),
        "`promotion`: `into`",
    ),
    (
        "promotionPieceTypesWhite",
        |s, a| promo_into(s, a, &[0]),
        "`promotion`: `white-into`",
    ),
    (
        "promotionPieceTypesBlack",
        |s, a| promo_into(s, a, &[1]),
        "`promotion`: `black-into`",
    ),
    ("promotionLimit", promo_limit, "`promotion`: `limit`"),
    (
        "mandatoryPawnPromotion",
        promo_mandatory,
        "`promotion`: `mandatory`",
    ),
    (
        "promotedPieceType",
        promoted_type,
        "`promotion` with `pairs` and `leaving yes`, a component of its own",
    ),
    (
        "mandatoryPiecePromotion",
        piece_mandatory,
        "that component's `mandatory`",
    ),
    (
        "blastOnCapture",
        blast,
        "`explosion` (pawns and `blastImmuneTypes` immune)",
    ),
    ("blastImmuneTypes", blast_immune, "`explosion`: `immune`"),
    ("doubleStep", double_step, "`double-step` on or off"),
    (
        "doubleStepRegionWhite",
        |s, a| ds_region(s, a, 0, false),
        "`double-step`: White's region",
    ),
    (
        "doubleStepRegionBlack",
        |s, a| ds_region(s, a, 1, false),
        "`double-step`: Black's region",
    ),
    (
        "tripleStepRegionWhite",
        |s, a| ds_region(s, a, 0, true),
        "`double-step` with `steps 3`: White's region",
    ),
    (
        "tripleStepRegionBlack",
        |s, a| ds_region(s, a, 1, true),
        "`double-step` with `steps 3`: Black's region",
    ),
    (
        "enPassantRegion",
        |s, a| ep_region(s, a, &[0, 1]),
        "`en-passant`: region",
    ),
    (
        "enPassantRegionWhite",
        |s, a| ep_region(s, a, &[0]),
        "`en-passant`: White's region",
    ),
    (
        "enPassantRegionBlack",
        |s, a| ep_region(s, a, &[1]),
        "`en-passant`: Black's region",
    ),
    ("enPassantTypes", ep_types, "`en-passant`: `pieces`"),
    ("castling", castling, "`castling` on or off"),
    (
        "castlingKingsideFile",
        |s, a| castling_file(s, a, 1),
        "`castling`: `king-to` and `rook-to`, kingside",
    ),
    (
        "castlingQueensideFile",
        |s, a| castling_file(s, a, 0),
        "`castling`: `king-to` and `rook-to`, queenside",
    ),
    ("castlingRank", castling_rank, "`castling`: `rank`"),
    ("castlingKingPiece", castling_king, "`castling`: `king`"),
    ("castlingRookPieces", castling_rooks, "`castling`: `rooks`"),
    ("checking", checking, "`no-giving-check` when `false`"),
    ("mustCapture", must_capture, "`compulsory-capture`"),
    ("flyingGeneral", flying_general, "`flying-royals`"),
    ("nMoveRule", n_move_rule, "`move-count`: `moves` (0: none)"),
    ("nFoldRule", n_fold_rule, "`repetition`: `times` (0: none)"),
    ("stalemateValue", stalemate_value, "`stalemate`: `value`"),
    ("checkmateValue", checkmate_value, "`checkmate`: `value`"),
    (
        "extinctionValue",
        extinction_value,
        "`extinction`: `value` (`none`: no extinction)",
    ),
    ("extinctionPseudoRoyal", pseudo_royal, "only `false`"),
    (
        "extinctionPieceTypes",
        extinction_types,
        "`extinction`: `pieces` (`*`: all pieces)",
    ),
    (
        "extinctionPieceCount",
        extinction_count,
        "only `0` (every piece of the kind lost)",
    ),
    (
        "extinctionOpponentPieceCount",
        extinction_opponent,
        "only `0`",
    ),
    (
        "flagPiece",
        |s, a| flag_piece(s, a, &[0, 1]),
        "`goal`: `pieces` (`*`: any piece)",
    ),
    (
        "flagPieceWhite",
        |s, a| flag_piece(s, a, &[0]),
        "`goal`: `pieces` (both sides alike)",
    ),
    (
        "flagPieceBlack",
        |s, a| flag_piece(s, a, &[1]),
        "`goal`: `pieces` (both sides alike)",
    ),
    (
        "flagRegion",
        |s, a| flag_region(s, a, &[0, 1]),
        "`goal`: region",
    ),
    (
        "flagRegionWhite",
        |s, a| flag_region(s, a, &[0]),
        "`goal`: White's region",
    ),
    (
        "flagRegionBlack",
        |s, a| flag_region(s, a, &[1]),
        "`goal`: Black's region",
    ),
    (
        "flagMove",
        flag_move,
        "`goal`: `timing unless-matched` (kept as inherited only)",
    ),
    (
        "checkCounting",
        check_counting,
        "`check-count` (the checks from the start FEN's `N+N`)",
    ),
    (
        "enclosingDropStart",
        enclosing_drop_start,
        "`drops`: `opening` (on a base game's own drops)",
    ),
    (
        "enclosingDrop",
        |s, a| as_base(s, a, enclosing_now),
        "`drops`: `onto` (`none`, `ataxx`, `reversi`), kept as the base game has it",
    ),
    (
        "flipEnclosedPieces",
        |s, a| as_base(s, a, flip_now),
        "`flip` (`none`, `ataxx`, `reversi`), kept as the base game has it",
    ),
    (
        "freeDrops",
        |s, a| as_base(s, a, free_now),
        "`drops`: `free`, kept as the base game has it",
    ),
    (
        "passOnStalemate",
        |s, a| as_base(s, a, stuck_pass_now),
        "`pass`: `stuck yes`, kept as the base game has it",
    ),
    (
        "passOnStalemateWhite",
        |s, a| as_base(s, a, stuck_pass_now),
        "`pass`: `stuck yes` (White's), kept as the base game has it",
    ),
    (
        "passOnStalemateBlack",
        |s, a| as_base(s, a, stuck_pass_now),
        "`pass`: `stuck yes` (Black's), kept as the base game has it",
    ),
    (
        "adjudicateFullBoard",
        |s, a| as_base(s, a, full_board_now),
        "`full-board`, kept as the base game has it",
    ),
    (
        "materialCounting",
        |s, a| as_base(s, a, counting_now),
        "`value count` of `pass` and `full-board` (`none`, `unweighted`), kept as the base game has it",
    ),
    (
        "stalematePieceCount",
        |s, a| as_base(s, a, stalemate_count_now),
        "`stalemate`: `value count`, kept as the base game has it",
    ),
    ("capturesToHand", captures_to_hand, "`captures-to-hand`"),
    (
        "pieceDrops",
        piece_drops,
        "`drops`, and `pawn-drops` keeping the pawn off its first rank and its promotion zone",
    ),
    (
        "pocketSize",
        no_rule,
        "nothing: it sizes the pockets a user interface shows",
    ),
    (
        "mustDrop",
        must_drop,
        "`drops`: `must` (every `drops` component)",
    ),
    (
        "dropChecks",
        drop_checks,
        "`drops`: `gives-check` (every `drops` component)",
    ),
    (
        "firstRankPawnDrops",
        first_rank_pawn_drops,
        "`pawn-drops`: the pawn may be dropped on its first rank",
    ),
    (
        "promotionZonePawnDrops",
        zone_pawn_drops,
        "`pawn-drops`: the pawn may be dropped in its promotion zone",
    ),
    (
        "whiteDropRegion",
        |s, a| drop_region(s, a, 0),
        "`drops`: White's region (an old name of `dropRegionWhite`)",
    ),
    (
        "blackDropRegion",
        |s, a| drop_region(s, a, 1),
        "`drops`: Black's region (an old name of `dropRegionBlack`)",
    ),
    (
        "dropRegionWhite",
        |s, a| drop_region(s, a, 0),
        "`drops`: White's region (every `drops` component)",
    ),
    (
        "dropRegionBlack",
        |s, a| drop_region(s, a, 1),
        "`drops`: Black's region (every `drops` component)",
    ),
    (
        "dropNoDoubled",
        drop_no_doubled,
        "`drops`: `no-doubled` for that piece (with `dropNoDoubledCount` only `1`)",
    ),
    (
        "immobilityIllegal",
        immobility_illegal,
        "`drops`: `immobile no`; moves onto such squares must then promote (else refused)",
    ),
];

/// Fairy-Stockfish settings the engine cannot play yet, each with the value that means "not
/// used" (a section may write that value; any other is refused naming the setting).
pub const UNSUPPORTED: &[(&str, &str)] = &[
    ("dropLoop", "false"),
    ("dropPromoted", "false"),
    ("sittuyinPromotion", "false"),
    ("sittuyinRookDrop", "false"),
    ("dropOppositeColoredBishop", "false"),
    ("shogiPawnDropMateIllegal", "false"),
    ("piecePromotionOnCapture", "false"),
    ("pieceDemotion", "false"),
    ("gating", "false"),
    ("seirawanGating", "false"),
    ("cambodianMoves", "false"),
    ("makpongRule", "false"),
    ("bikjangRule", "false"),
    ("shatarMateRule", "false"),
    ("perpetualCheckIllegal", "false"),
    ("moveRepetitionIllegal", "false"),
    ("pass", "false"),
    ("passWhite", "false"),
    ("passBlack", "false"),
    ("dupleCheck", "false"),
    ("extinctionClaim", "false"),
    ("flagPieceSafe", "false"),
    ("flagPieceBlockedWin", "false"),
    ("flagPieceCount", "1"),
    ("connectN", "0"),
    ("connectNxN", "0"),
    ("collinearN", "0"),
    ("connectPieceTypes", "*"),
    ("connectHorizontal", "true"),
    ("connectVertical", "true"),
    ("connectDiagonal", "true"),
    ("connectValue", "win"),
    ("countingRule", "none"),
    ("castlingWins", "-"),
    ("castlingDroppedPiece", "false"),
    ("castlingKingFile", "e"),
    ("castlingRookKingsideFile", ""),
    ("castlingRookQueensideFile", "a"),
    ("oppositeCastling", "false"),
    ("wallingRule", "none"),
    ("wallOrMove", "false"),
    ("petrifyOnCaptureTypes", "-"),
    ("petrifyBlastPieces", "false"),
    ("mutuallyImmuneTypes", "-"),
    ("nFoldValue", "draw"),
    ("nFoldValueAbsolute", "false"),
    ("chasingRule", "none"),
    ("soldierPromotionRank", "1"),
    ("diagonalLines", "-"),
    ("twoBoards", "false"),
    ("dropNoDoubledCount", "1"),
    ("mustDropType", "*"),
    ("nMoveRuleTypes", "p"),
    ("nMoveRuleTypesWhite", "p"),
    ("nMoveRuleTypesBlack", "p"),
    ("castlingKingPieceWhite", ""),
    ("castlingKingPieceBlack", ""),
    ("castlingRookPiecesWhite", ""),
    ("castlingRookPiecesBlack", ""),
    ("enPassantTypesWhite", ""),
    ("enPassantTypesBlack", ""),
    ("wallingRegion", ""),
    ("wallingRegionWhite", ""),
    ("wallingRegionBlack", ""),
    ("connectRegion1White", ""),
    ("connectRegion1Black", ""),
    ("connectRegion2White", ""),
    ("connectRegion2Black", ""),
    ("promotionRank", ""),
    ("doubleStepRank", ""),
    ("doubleStepRankMin", ""),
    ("whiteFlag", ""),
    ("blackFlag", ""),
    ("castlingRookPiece", ""),
    ("dropOnTop", "false"),
];

/// Every setting name the importer knows, supported or not (for "did you mean").
pub fn known_names() -> impl Iterator<Item = &'static str> {
    TABLE
        .iter()
        .map(|(k, _, _)| *k)
        .chain(UNSUPPORTED.iter().map(|(k, _)| *k))
        .chain(pieces::TYPES.iter().map(|t| t.setting))
        .chain(pieces::ALIASES.iter().map(|(a, _)| *a))
        .chain(pieces::UNSUPPORTED.iter().map(|(k, _)| *k))
        .chain(["king", "customPiece1"])
}

/// How a setting is taken: a piece type or custom piece (with its place in the order pieces
/// are applied), a table entry, a known setting that is not supported, or an unknown name.
pub enum Kind {
    /// A piece type or custom piece, by its place in the order pieces apply.
    Piece(usize),
    /// An entry of [`TABLE`].
    Table(usize),
    /// A known setting not supported yet, with the value that means "not used".
    Unsupported(&'static str),
    /// A built-in piece type not supported yet, with why.
    UnsupportedPiece(&'static str),
    /// A `mobilityRegion...` setting (a region confining a piece).
    Mobility,
    /// No setting of Fairy-Stockfish's.
    Unknown,
}

/// How the key of a setting is taken.
pub fn kind(key: &str) -> Kind {
    if let Some(i) = pieces::TYPES
        .iter()
        .position(|t| Some(t.setting) == pieces::by_setting(key).map(|p| p.setting))
    {
        return Kind::Piece(i);
    }
    if let Some(n) = custom_number(key) {
        return Kind::Piece(pieces::TYPES.len() + n - 1);
    }
    if key == "king" {
        return Kind::Piece(pieces::TYPES.len() + pieces::CUSTOM_PIECES);
    }
    if let Some(i) = TABLE.iter().position(|(k, _, _)| *k == key) {
        return Kind::Table(i);
    }
    if let Some((_, d)) = UNSUPPORTED.iter().find(|(k, _)| *k == key) {
        return Kind::Unsupported(d);
    }
    if let Some((_, why)) = pieces::UNSUPPORTED.iter().find(|(k, _)| *k == key) {
        return Kind::UnsupportedPiece(why);
    }
    if key.starts_with("mobilityRegion") {
        return Kind::Mobility;
    }
    Kind::Unknown
}

fn custom_number(key: &str) -> Option<usize> {
    let n: usize = key.strip_prefix("customPiece")?.parse().ok()?;
    (1..=pieces::CUSTOM_PIECES).contains(&n).then_some(n)
}

// ---- the state a section edits ---------------------------------------------------------------

/// The promotion rules, as Fairy-Stockfish holds them.
#[derive(Clone, Debug, PartialEq)]
struct Promo {
    pieces: Vec<char>,
    region: Sides<Region>,
    into: Sides<Vec<char>>,
    mandatory: bool,
    captured_only: bool,
    limits: Vec<(char, u8)>,
    /// `promotedPieceType`: each piece's own promoted kind.
    pairs: Vec<(char, char)>,
    /// `mandatoryPiecePromotion`.
    piece_mandatory: bool,
}

/// Extinction, as Fairy-Stockfish holds it: `None` pieces is `*`, every piece.
#[derive(Clone, Debug, PartialEq)]
struct Extinct {
    value: Option<Value>,
    pieces: Option<Vec<char>>,
}

/// The flag (goal) rule: `None` pieces is `*`, any piece.
#[derive(Clone, Debug, PartialEq)]
struct Flag {
    pieces: Option<Vec<char>>,
    region: Sides<Region>,
    timing: Timing,
}

/// The drop rules, as Fairy-Stockfish holds them; written back as `drops` components when a
/// section is done.
#[derive(Clone, Debug, PartialEq)]
pub struct DropView {
    /// `pieceDrops`.
    on: bool,
    /// `dropRegionWhite`, `dropRegionBlack`: where each side drops (empty: anywhere).
    region: Sides<Region>,
    /// `firstRankPawnDrops`.
    first_rank: bool,
    /// `promotionZonePawnDrops`.
    zone: bool,
    /// `dropNoDoubled`: the piece never dropped onto a file holding one of its side's.
    no_doubled: Option<char>,
    /// `mustDrop`.
    must: bool,
    /// `dropChecks`: a drop may give check.
    checks: bool,
    /// `dropOppositeColoredBishop`, as the bundled placement has it.
    opposite: Vec<char>,
}

impl DropView {
    fn off() -> DropView {
        DropView {
            on: false,
            region: Default::default(),
            first_rank: false,
            zone: false,
            no_doubled: None,
            must: false,
            checks: true,
            opposite: Vec::new(),
        }
    }
}

/// What one section leaves the next (its child): the pieces' Fairy-Stockfish types, the drop
/// rules and `immobilityIllegal`.
pub struct Carry {
    types: Option<Vec<(char, String)>>,
    /// `None`: drops the settings cannot change (a bundled game's shogi-style drops).
    drops: Option<DropView>,
    immobility: bool,
    /// `soldierPromotionRank` is not 1: a soldier moves sideways only across the river.
    river: bool,
}

impl Carry {
    /// What the bundled game `base` starts a section with: its drop settings and
    /// `immobilityIllegal` as Fairy-Stockfish sets them for that game (facts of its
    /// `src/variant.cpp`).
    pub fn of_base(base: &str, def: &Definition) -> Carry {
        let has_drops = def
            .rules
            .iter()
            .any(|r| matches!(r.component, Component::Drops { .. }));
        let immobility = matches!(base, "shogi" | "minishogi" | "shoshogi" | "grand");
        let drops = match base {
            "crazyhouse" => Some(DropView {
                on: true,
                ..DropView::off()
            }),
            "placement" => Some(DropView {
                on: true,
                region: [rank_region(def, 0), rank_region(def, def.ranks - 1)],
                must: true,
                opposite: vec!['B'],
                ..DropView::off()
            }),
            _ if has_drops => None,
            _ => Some(DropView::off()),
        };
        Carry {
            types: None,
            drops,
            immobility,
            river: base == "xiangqi",
        }
    }
}

/// A definition being imported, with the views of the rules that several settings share.
pub struct State {
    /// The definition as the settings so far make it.
    pub def: Definition,
    /// The Fairy-Stockfish type of each piece, by letter (`knight`, `customPiece1`, `king`;
    /// empty when the base's piece is none of them).
    pub types: Vec<(char, String)>,
    /// A section without a parent starts with no pieces: the types it declares.
    declared: Option<Vec<String>>,
    promo: Option<Promo>,
    promo_dirty: bool,
    ds_region: Sides<Region>,
    ts_region: Sides<Region>,
    ds_dirty: bool,
    initial: Vec<(char, String)>,
    ep: Option<(Vec<char>, Sides<Region>)>,
    ep_dirty: bool,
    extinct: Extinct,
    extinct_dirty: bool,
    flag: Flag,
    flag_dirty: bool,
    blast_immune: Vec<char>,
    check_counting: bool,
    counting_dirty: bool,
    checkmate: Value,
    /// Castling rules whose king was removed, kept for a `castlingKingPiece` naming another.
    parked: Vec<Rule>,
    drops: Option<DropView>,
    /// `immobilityIllegal`.
    immobility: bool,
    /// A soldier moves sideways only across the river (`soldierPromotionRank` is not 1).
    river: bool,
    /// The base's clauses are the designer's words for its rules: a rule rewritten here says
    /// where its settings came from instead.
    pub provenance: String,
}

fn all_cells(def: &Definition) -> Region {
    let mut cells = Vec::new();
    for file in 0..def.files {
        for rank in 0..def.ranks {
            cells.push(Cell { file, rank });
        }
    }
    cells.sort();
    Region { cells }
}

fn rank_region(def: &Definition, rank: u8) -> Region {
    let mut cells: Vec<Cell> = (0..def.files).map(|file| Cell { file, rank }).collect();
    cells.sort();
    Region { cells }
}

/// The Fairy-Stockfish type a base's piece is: by its name and movement, or its movement alone.
fn infer_type(p: &PieceDef) -> String {
    let canonical = |b: &str| b.parse::<Design>().ok();
    if p.royal && p.betza == "K" && p.name == "king" {
        return "king".into();
    }
    let by_name = p.name.replace('-', "");
    for t in pieces::TYPES {
        let alias = pieces::ALIASES
            .iter()
            .find(|(a, s)| *s == t.setting && *a == by_name)
            .is_some();
        if (t.setting.eq_ignore_ascii_case(&by_name) || alias)
            && canonical(t.betza).as_ref() == Some(&p.design)
            && !p.royal
        {
            return t.setting.into();
        }
    }
    if p.royal {
        return if p.betza == "K" {
            "king".into()
        } else {
            String::new()
        };
    }
    pieces::TYPES
        .iter()
        .find(|t| !t.pawn && canonical(t.betza).as_ref() == Some(&p.design))
        .map_or(String::new(), |t| t.setting.into())
}

impl State {
    /// The state of a section starting from `base` (`reset`: a section without a parent,
    /// which declares its pieces).
    pub fn new(base: &Definition, reset: bool, provenance: String, carry: Carry) -> State {
        let def = base.clone();
        let types = carry.types.unwrap_or_else(|| {
            def.pieces
                .iter()
                .map(|p| (p.letter, infer_type(p)))
                .collect()
        });
        let promos: Vec<Component> = def
            .rules
            .iter()
            .map(|r| r.component.clone())
            .filter(|c| matches!(c, Component::Promotion { .. }))
            .collect();
        let mut s = State {
            def,
            types,
            declared: reset.then(Vec::new),
            promo: None,
            promo_dirty: false,
            ds_region: Default::default(),
            ts_region: Default::default(),
            ds_dirty: false,
            initial: Vec::new(),
            ep: None,
            ep_dirty: false,
            extinct: Extinct {
                value: None,
                pieces: Some(Vec::new()),
            },
            extinct_dirty: false,
            flag: Flag {
                pieces: None,
                region: Default::default(),
                timing: Timing::AtOnce,
            },
            flag_dirty: false,
            blast_immune: Vec::new(),
            check_counting: false,
            counting_dirty: false,
            checkmate: Value::Loss,
            parked: Vec::new(),
            drops: carry.drops,
            immobility: carry.immobility,
            river: carry.river,
            provenance,
        };
        s.promo = match promos.as_slice() {
            [] => Some(Promo {
                pieces: s.letters_of("pawn"),
                region: [rank_region(&s.def, 7), rank_region(&s.def, 0)],
                into: {
                    let l: Vec<char> = ["queen", "rook", "bishop", "knight"]
                        .iter()
                        .flat_map(|t| s.letters_of(t))
                        .collect();
                    [l.clone(), l]
                },
                mandatory: true,
                captured_only: false,
                limits: Vec::new(),
                pairs: Vec::new(),
                piece_mandatory: false,
            }),
            // A shogi-style promotion (pairs, a turn of its own, demotion) is not one the
            // imported settings rebuild: a section that changes it is refused.
            [Component::Promotion {
                pairs,
                as_turn,
                demote,
                ..
            }] if !pairs.is_empty() || *as_turn || *demote => None,
            [Component::Promotion {
                pieces,
                region,
                into,
                mandatory,
                captured_only,
                limits,
                ..
            }] => Some(Promo {
                pieces: pieces.clone(),
                region: region.clone(),
                into: into.clone(),
                mandatory: *mandatory,
                captured_only: *captured_only,
                limits: limits.clone(),
                pairs: Vec::new(),
                piece_mandatory: false,
            }),
            _ => None,
        };
        for r in &s.def.rules {
            match &r.component {
                Component::DoubleStep {
                    pieces,
                    region,
                    steps,
                    movement,
                } => match movement {
                    None => {
                        // A triple step's squares have the double step too.
                        for (side, r) in region.iter().enumerate() {
                            let mut targets = vec![&mut s.ds_region[side]];
                            if *steps == 3 {
                                targets.push(&mut s.ts_region[side]);
                            }
                            for target in targets {
                                target.cells.extend(r.cells.iter().copied());
                                target.cells.sort();
                                target.cells.dedup();
                            }
                        }
                    }
                    Some(m) => s.initial.extend(pieces.iter().map(|p| (*p, m.clone()))),
                },
                Component::EnPassant { pieces, region, .. } if s.ep.is_none() => {
                    s.ep = Some((pieces.clone(), region.clone()))
                }
                Component::Extinction { pieces, value } if r.when.is_empty() => {
                    s.extinct = Extinct {
                        value: Some(*value),
                        pieces: (!pieces.is_empty()).then(|| pieces.clone()),
                    }
                }
                Component::Goal {
                    pieces,
                    region,
                    timing,
                    ..
                } => {
                    s.flag = Flag {
                        pieces: Some(pieces.clone()),
                        region: region.clone(),
                        timing: *timing,
                    }
                }
                Component::Explosion { immune } => s.blast_immune = immune.clone(),
                Component::CheckCount { .. } => s.check_counting = true,
                Component::Checkmate { value } if r.when.is_empty() => s.checkmate = *value,
                _ => {}
            }
        }
        // The `i` moves of the base apply from the double-step region too.
        if s.ds_region.iter().all(|r| r.cells.is_empty()) {
            if let Some(r) = s.def.rules.iter().find_map(|r| match &r.component {
                Component::DoubleStep {
                    region,
                    movement: Some(_),
                    ..
                } => Some(region.clone()),
                _ => None,
            }) {
                s.ds_region = r;
            }
        }
        if s.ep.is_none() {
            s.ep = Some((s.letters_of("pawn"), Default::default()));
        }
        s
    }

    /// What this section leaves its child.
    pub fn carry(&self) -> Carry {
        Carry {
            types: Some(self.types.clone()),
            drops: self.drops.clone(),
            immobility: self.immobility,
            river: self.river,
        }
    }

    fn letters_of(&self, fsf_type: &str) -> Vec<char> {
        self.types
            .iter()
            .filter(|(_, t)| t == fsf_type)
            .map(|(l, _)| *l)
            .collect()
    }

    /// The letters a piece-set value names (`qrbn`, `q r`, `*` for every piece, `-` for none).
    fn piece_set(&self, arg: &Arg<'_>) -> Result<Option<Vec<char>>, Problem> {
        let mut out = Vec::new();
        for c in arg.value.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '-' => break,
                '*' => return Ok(None),
                c => {
                    let l = c.to_ascii_uppercase();
                    if !self.def.pieces.iter().any(|p| p.letter == l) {
                        return Err(arg.bad(format!(
                            "no piece is written `{c}` here (the pieces: {})",
                            self.def
                                .pieces
                                .iter()
                                .map(|p| p.letter.to_ascii_lowercase().to_string())
                                .collect::<Vec<_>>()
                                .join(" ")
                        )));
                    }
                    if !out.contains(&l) {
                        out.push(l);
                    }
                }
            }
        }
        Ok(Some(out))
    }

    fn all_letters(&self) -> Vec<char> {
        self.def.pieces.iter().map(|p| p.letter).collect()
    }

    /// Renames or drops a letter everywhere it is named.
    fn map_letters(&mut self, f: &dyn Fn(char) -> Option<char>) {
        let list = |v: &mut Vec<char>| *v = v.iter().filter_map(|c| f(*c)).collect();
        let mut keep = Vec::new();
        let dropping = self.def.pieces.iter().any(|p| f(p.letter).is_none())
            || self.types.iter().any(|(l, _)| f(*l).is_none());
        for mut r in std::mem::take(&mut self.def.rules) {
            let before = r.component.clone();
            let ok = match &mut r.component {
                Component::FirstMove {
                    pieces,
                    lost_on_line,
                    ..
                } => {
                    list(pieces);
                    list(lost_on_line);
                    !pieces.is_empty()
                }
                Component::DoubleStep { pieces, .. }
                | Component::EnPassant { pieces, .. }
                | Component::Confine { pieces, .. }
                | Component::RegionMove { pieces, .. } => {
                    list(pieces);
                    !pieces.is_empty()
                }
                Component::Promotion {
                    pieces,
                    into,
                    limits,
                    pairs,
                    ..
                } => {
                    list(pieces);
                    into.iter_mut().for_each(list);
                    *limits = limits
                        .iter()
                        .filter_map(|(c, n)| f(*c).map(|c| (c, *n)))
                        .collect();
                    *pairs = pairs.iter().filter_map(|(a, b)| f(*a).zip(f(*b))).collect();
                    !pieces.is_empty() && into.iter().any(|i| !i.is_empty()) || !pairs.is_empty()
                }
                Component::Castling { king, rooks, .. } => {
                    list(rooks);
                    match f(*king) {
                        Some(k) => {
                            *king = k;
                            !rooks.is_empty()
                        }
                        None => false,
                    }
                }
                Component::Extinction { pieces, .. } | Component::Goal { pieces, .. } => {
                    let had = !pieces.is_empty();
                    list(pieces);
                    !had || !pieces.is_empty()
                }
                Component::Explosion { immune } => {
                    list(immune);
                    true
                }
                Component::InsufficientMaterial {
                    alone,
                    colour_bound,
                } => {
                    list(alone);
                    list(colour_bound);
                    !alone.is_empty() || !colour_bound.is_empty()
                }
                _ => true,
            };
            // The base's words name the pieces it had: a rule that loses some says what it
            // does instead.
            if ok && dropping && r.component != before {
                r.clause = format!(
                    "{} (imported from {})",
                    describe(&r.component),
                    self.provenance
                );
            }
            if ok {
                keep.push(r);
            } else if matches!(r.component, Component::Castling { .. }) {
                // Castling without its king waits for `castlingKingPiece` to name another.
                self.parked.push(r);
            }
        }
        self.def.rules = keep;
        if let Some(p) = &mut self.promo {
            list(&mut p.pieces);
            p.into.iter_mut().for_each(list);
            p.limits = p
                .limits
                .iter()
                .filter_map(|(c, n)| f(*c).map(|c| (c, *n)))
                .collect();
            p.pairs = p
                .pairs
                .iter()
                .filter_map(|(a, b)| f(*a).zip(f(*b)))
                .collect();
        }
        if let Some((p, _)) = &mut self.ep {
            list(p);
        }
        if let Some(p) = &mut self.extinct.pieces {
            list(p);
        }
        if let Some(p) = &mut self.flag.pieces {
            list(p);
        }
        list(&mut self.blast_immune);
        if let Some(d) = &mut self.drops {
            d.no_doubled = d.no_doubled.and_then(f);
            list(&mut d.opposite);
        }
        self.initial = self
            .initial
            .iter()
            .filter_map(|(c, m)| f(*c).map(|c| (c, m.clone())))
            .collect();
        for (l, _) in &mut self.types {
            if let Some(n) = f(*l) {
                *l = n;
            }
        }
    }

    fn remove_piece(&mut self, letter: char) {
        // A promotion the settings cannot rebuild (shogi-style) stays as it is when it does not
        // name the piece.
        let promoted = self.promo.is_some()
            || self.def.rules.iter().any(|r| match &r.component {
                Component::Promotion {
                    pieces,
                    into,
                    limits,
                    pairs,
                    ..
                } => {
                    pieces.contains(&letter)
                        || into.iter().any(|i| i.contains(&letter))
                        || limits.iter().any(|(l, _)| *l == letter)
                        || pairs.iter().any(|(a, b)| *a == letter || *b == letter)
                }
                _ => false,
            });
        self.map_letters(&|c| (c != letter).then_some(c));
        self.def.pieces.retain(|p| p.letter != letter);
        self.types.retain(|(l, _)| *l != letter);
        // Every set that named it changes: they are written again.
        self.promo_dirty |= promoted;
        self.ep_dirty = true;
        self.ds_dirty |= self.initial.iter().any(|(l, _)| *l == letter);
    }

    fn rule_mut(&mut self, f: impl Fn(&Component) -> bool) -> impl Iterator<Item = &mut Rule> {
        self.def.rules.iter_mut().filter(move |r| f(&r.component))
    }

    fn drop_rules(&mut self, f: impl Fn(&Component) -> bool) {
        self.def.rules.retain(|r| !f(&r.component));
    }

    fn add_rule(&mut self, id: &str, clause: String, component: Component) {
        let mut id = id.to_string();
        let mut n = 2;
        while self.def.rules.iter().any(|r| r.id == id) {
            id = format!("{}-{n}", component.name());
            n += 1;
        }
        self.def.rules.push(Rule {
            id,
            clause,
            source: self.def.source.clone(),
            when: Vec::new(),
            component,
            parts: Vec::new(),
            span: Span::default(),
        });
    }

    fn clause(&self, what: &str) -> String {
        format!("{what} (imported from {})", self.provenance)
    }

    /// Applies one setting of a section.
    pub fn apply(&mut self, setting: &Setting, kind: &Kind) -> Result<(), Problem> {
        let arg = Arg {
            key: &setting.key,
            value: &setting.value,
            span: setting.value_span.clone(),
        };
        match kind {
            Kind::Piece(i) => self.piece(*i, &arg),
            Kind::Table(i) => (TABLE[*i].1)(self, &arg),
            _ => Ok(()),
        }
    }

    // ---- pieces -----------------------------------------------------------------------------

    fn piece(&mut self, index: usize, arg: &Arg<'_>) -> Result<(), Problem> {
        let (fsf_type, name, betza, pawn, royal) = if index < pieces::TYPES.len() {
            let t = &pieces::TYPES[index];
            (
                t.setting.to_string(),
                t.name.to_string(),
                Some(t.betza.to_string()),
                t.pawn,
                false,
            )
        } else if index < pieces::TYPES.len() + pieces::CUSTOM_PIECES {
            let n = index - pieces::TYPES.len() + 1;
            (
                format!("customPiece{n}"),
                format!("custom-{n}"),
                None,
                false,
                false,
            )
        } else {
            (
                "king".into(),
                "king".into(),
                Some("K".to_string()),
                false,
                true,
            )
        };
        if let Some(d) = &mut self.declared {
            d.push(fsf_type.clone());
        }
        if fsf_type == "soldier" && self.river {
            return Err(arg.bad(
                "here the soldier moves sideways only across the river (`soldierPromotionRank`), which is not imported",
            ));
        }
        let value = arg.value.trim();
        let first = value.chars().next().unwrap_or('-');
        if !first.is_ascii_alphabetic() {
            if first != '-' {
                return Err(arg.bad("a piece is a letter, `x:BETZA` or `-`"));
            }
            for l in self.letters_of(&fsf_type) {
                self.remove_piece(l);
            }
            return Ok(());
        }
        let letter = first.to_ascii_uppercase();
        let written = match value[1..].strip_prefix(':') {
            Some(b) => Some(b.trim().to_string()),
            None if value.len() == 1 => None,
            None => return Err(arg.bad("a piece is a letter, `x:BETZA` or `-`")),
        };
        let Some(raw) = written.or(betza) else {
            return Err(arg.bad("a custom piece needs its movement (`x:BETZA`)"));
        };
        // Fairy-Stockfish marks en-passant capturers with `e` and initial moves with `i`: the
        // first becomes `en-passant` pieces, the second a `double-step` move of the piece.
        let immobile = raw == crate::definition::resolve::IMMOBILE;
        let (plain, initial) = match immobile {
            true => (raw.clone(), String::new()),
            false => split_initial(&raw.replace('e', "")),
        };
        let design: Design = match plain.parse() {
            Ok(d) => d,
            Err(_) if plain == crate::definition::resolve::IMMOBILE => Design::immobile(),
            Err(e) => return Err(arg.bad(format!("the movement does not read: {e}"))),
        };
        if raw.contains('e') && !immobile {
            if let Some((p, _)) = &mut self.ep {
                if !p.contains(&letter) {
                    p.push(letter);
                }
            }
            self.ep_dirty = true;
        }
        let existing = self.letters_of(&fsf_type);
        // A letter names one type: whatever had it goes.
        if !existing.contains(&letter) && self.def.pieces.iter().any(|p| p.letter == letter) {
            self.remove_piece(letter);
        }
        let clause = format!(
            "{}{}.",
            match design.atoms().is_empty() {
                true => "It never moves".to_string(),
                false => format!("It moves as `{plain}`"),
            },
            if initial.is_empty() {
                String::new()
            } else {
                format!(", and as `{initial}` from its double-step region")
            }
        );
        let setting_clause = self.clause(&format!("{clause} `{} = {value}`", arg.key));
        self.initial
            .retain(|(l, _)| !existing.contains(l) && *l != letter);
        if !initial.is_empty() {
            initial
                .parse::<Design>()
                .map_err(|e| arg.bad(format!("the initial move does not read: {e}")))?;
            self.initial.push((letter, initial));
        }
        self.ds_dirty = true;
        if let Some(old) = existing.first().copied() {
            for extra in existing.iter().skip(1) {
                self.remove_piece(*extra);
            }
            let Some(p) = self.def.pieces.iter_mut().find(|p| p.letter == old) else {
                return Err(arg.bad("internal error: the piece of this type is not on the list"));
            };
            let changed = p.design != design;
            p.letter = letter;
            if changed || p.royal != royal {
                p.betza = plain.clone();
                p.design = design;
                p.royal = royal;
                p.clause = setting_clause;
                p.capture_clause = None;
            }
            if old != letter {
                self.map_letters(&|c| Some(if c == old { letter } else { c }));
            }
            return Ok(());
        }
        let mut unique = name.clone();
        if self.def.pieces.iter().any(|p| p.name == unique) {
            unique = format!("{name}-{}", letter.to_ascii_lowercase());
        }
        self.def.pieces.push(PieceDef {
            letter,
            name: unique,
            betza: plain,
            design,
            royal,
            pawn,
            clause: setting_clause,
            capture_clause: None,
            rule: None,
            span: Span::default(),
        });
        self.types.push((letter, fsf_type.clone()));
        if fsf_type == "pawn" {
            self.promo_dirty = true;
            if let Some(p) = &mut self.promo {
                if !p.pieces.contains(&letter) {
                    p.pieces.push(letter);
                }
            }
            if let Some((p, _)) = &mut self.ep {
                if !p.contains(&letter) {
                    p.push(letter);
                }
            }
            self.ep_dirty = true;
        }
        Ok(())
    }

    // ---- the end of a section ---------------------------------------------------------------

    /// Writes the views back into the definition's components, once a section's settings are
    /// all applied. The errors are the settings' combinations that cannot be written.
    pub fn finish(&mut self) -> Result<(), String> {
        let has = |f: &dyn Fn(&Component) -> bool| self.def.rules.iter().any(|r| f(&r.component));
        if has(&|c| matches!(c, Component::Explosion { .. }))
            && has(&|c| matches!(c, Component::CapturesToHand))
        {
            return Err(
                "`capturesToHand` with explosions is not supported yet: Fairy-Stockfish \
                        also puts the pieces a blast removes into the hands, which \
                        `captures-to-hand` does not"
                    .into(),
            );
        }
        if let Some(declared) = self.declared.take() {
            let gone: Vec<char> = self
                .types
                .iter()
                .filter(|(_, t)| !declared.contains(t))
                .map(|(l, _)| *l)
                .collect();
            for l in gone {
                self.remove_piece(l);
            }
        }
        let letters = self.all_letters();
        let pawn_letters = self.letters_of("pawn");
        if self.promo_dirty {
            let Some(p) = self.promo.clone() else {
                return Err(
                    "the base game's promotion is not one imported settings can change (several \
                     promotion components, or a shogi-style one)"
                        .into(),
                );
            };
            let existing = self
                .def
                .rules
                .iter()
                .find(|r| matches!(r.component, Component::Promotion { .. }))
                .map(|r| r.id.clone());
            let component = Component::Promotion {
                pieces: p.pieces.clone(),
                region: p.region.clone(),
                into: p.into.clone(),
                mandatory: p.mandatory,
                captured_only: p.captured_only,
                limits: p.limits.clone(),
                pairs: Vec::new(),
                leaving: false,
                as_turn: false,
                demote: false,
            };
            let same = self.def.rules.iter().any(|r| r.component == component);
            if !same {
                self.drop_rules(
                    |c| matches!(c, Component::Promotion { pairs, .. } if pairs.is_empty()),
                );
                let live = !p.pieces.is_empty()
                    && p.region.iter().any(|r| !r.cells.is_empty())
                    && p.into.iter().any(|i| !i.is_empty());
                if live {
                    let clause = self.clause("A piece of `pieces` ending a move in its side's promotion region is exchanged for one of `into`.");
                    self.add_rule(
                        existing.as_deref().unwrap_or("promotion"),
                        clause,
                        component,
                    );
                }
            }
            let pairs = self.piece_promotion(&p)?;
            let same = pairs
                .as_ref()
                .is_some_and(|c| self.def.rules.iter().any(|r| &r.component == c));
            if !same {
                self.drop_rules(
                    |c| matches!(c, Component::Promotion { pairs, .. } if !pairs.is_empty()),
                );
                if let Some(c) = pairs {
                    let clause = self.clause("A piece of `pairs` that moves into, within or out of its side's promotion region may become its own promoted kind (`PIECE:PROMOTED`).");
                    self.add_rule("piece-promotion", clause, c);
                }
            }
        }
        if self.ds_dirty {
            let before: Vec<Rule> = self
                .def
                .rules
                .iter()
                .filter(|r| matches!(r.component, Component::DoubleStep { .. }))
                .cloned()
                .collect();
            let rules_before = self.def.rules.clone();
            self.drop_rules(|c| matches!(c, Component::DoubleStep { .. }));
            let ts = self.ts_region.clone();
            if (0..2).any(|side| {
                ts[side]
                    .cells
                    .iter()
                    .any(|c| !self.ds_region[side].contains(*c))
            }) {
                return Err(
                    "a triple-step square that is not a double-step square is not supported".into(),
                );
            }
            let ds = self.ds_region.clone();
            // The squares of the triple step have the two steps in its component.
            let mut ds_only = ds.clone();
            for side in 0..2 {
                ds_only[side].cells.retain(|c| !ts[side].contains(*c));
            }
            if ds_only.iter().any(|r| !r.cells.is_empty()) && !pawn_letters.is_empty() {
                let clause = self.clause("A pawn on its double-step region may advance two squares straight forward through empty squares.");
                self.add_rule(
                    "double-step",
                    clause,
                    Component::DoubleStep {
                        pieces: pawn_letters.clone(),
                        region: ds_only,
                        steps: 2,
                        movement: None,
                    },
                );
            }
            if ts.iter().any(|r| !r.cells.is_empty()) && !pawn_letters.is_empty() {
                let clause = self.clause("A pawn on its triple-step region may advance up to three squares straight forward through empty squares.");
                self.add_rule(
                    "triple-step",
                    clause,
                    Component::DoubleStep {
                        pieces: pawn_letters.clone(),
                        region: ts,
                        steps: 3,
                        movement: None,
                    },
                );
            }
            if ds.iter().any(|r| !r.cells.is_empty()) {
                for (l, m) in self.initial.clone() {
                    let clause = self.clause(&format!("A piece `{l}` on its double-step region may also move as `{m}`, to an empty square."));
                    let id = format!("initial-{}", l.to_ascii_lowercase());
                    self.add_rule(
                        &id,
                        clause,
                        Component::DoubleStep {
                            pieces: vec![l],
                            region: ds.clone(),
                            steps: 2,
                            movement: Some(m),
                        },
                    );
                }
            }
            // The same double steps as before keep their words.
            let after: Vec<&Component> = self
                .def
                .rules
                .iter()
                .map(|r| &r.component)
                .filter(|c| matches!(c, Component::DoubleStep { .. }))
                .collect();
            if after.len() == before.len()
                && after.iter().zip(&before).all(|(a, b)| **a == b.component)
            {
                self.def.rules = rules_before;
            } else {
                self.ep_dirty = true;
            }
        }
        if self.ep_dirty {
            let (pieces, region) = self.ep.clone().unwrap_or_default();
            let any_double = self
                .def
                .rules
                .iter()
                .any(|r| matches!(r.component, Component::DoubleStep { .. }));
            let component = Component::EnPassant {
                pieces: pieces.clone(),
                region: region.clone(),
                where_it_steps: true,
            };
            if !self.def.rules.iter().any(|r| r.component == component) {
                let id = self
                    .def
                    .rules
                    .iter()
                    .find(|r| matches!(r.component, Component::EnPassant { .. }))
                    .map_or("en-passant".to_string(), |r| r.id.clone());
                self.drop_rules(|c| matches!(c, Component::EnPassant { .. }));
                if any_double && !pieces.is_empty() {
                    let clause = self.clause("A piece passed over by an enemy's double step may be taken on the square it passed, on the very next turn, by a piece of `pieces` moving there as it captures.");
                    self.add_rule(&id, clause, component);
                }
            }
        }
        if self.extinct_dirty {
            let e = self.extinct.clone();
            let component = e.value.map(|value| Component::Extinction {
                pieces: e.pieces.clone().unwrap_or_default(),
                value,
            });
            let live = e.pieces.as_ref().is_none_or(|p| !p.is_empty());
            let same = component
                .as_ref()
                .is_some_and(|c| self.def.rules.iter().any(|r| &r.component == c));
            if !same {
                self.drop_rules(|c| matches!(c, Component::Extinction { .. }));
                if let (Some(c), true) = (component, live) {
                    let clause = self.clause("A side that has lost every piece of one of `pieces` (of all its pieces when none are named) ends the game with `value`.");
                    self.add_rule("extinction", clause, c);
                }
            }
        }
        if self.flag_dirty {
            let f = self.flag.clone();
            let pieces = f.pieces.clone().unwrap_or_else(|| letters.clone());
            let component = Component::Goal {
                pieces: pieces.clone(),
                region: f.region.clone(),
                value: Value::Win,
                timing: f.timing,
                safe: false,
            };
            if !self.def.rules.iter().any(|r| r.component == component) {
                self.drop_rules(|c| matches!(c, Component::Goal { .. }));
                if !pieces.is_empty() && f.region.iter().any(|r| !r.cells.is_empty()) {
                    let clause = self
                        .clause("A side whose piece of `pieces` stands in its goal region wins.");
                    self.add_rule("goal", clause, component);
                }
            }
        }
        if self.counting_dirty || self.check_counting {
            let checks = fen_checks(&self.def.start)?;
            let component = Component::CheckCount {
                checks,
                value: Value::Win,
            };
            if !self.check_counting {
                self.drop_rules(|c| matches!(c, Component::CheckCount { .. }));
            } else if !self.def.rules.iter().any(|r| r.component == component) {
                self.drop_rules(|c| matches!(c, Component::CheckCount { .. }));
                let clause = self.clause("A side that has given `checks` checks wins.");
                self.add_rule("check-count", clause, component);
            }
        }
        if let Some(view) = self.drops.clone() {
            self.write_drops(&view)?;
        }
        self.judge_immobility()?;
        // Royalty: the check rules need a royal kind, and a game that gains one gets them.
        let royal = self.def.pieces.iter().any(|p| p.royal);
        if !royal {
            self.drop_rules(|c| {
                matches!(
                    c,
                    Component::Check { .. }
                        | Component::Checkmate { .. }
                        | Component::CheckedRoyalCaptures
                        | Component::FlyingRoyals
                )
            });
        } else if !self
            .def
            .rules
            .iter()
            .any(|r| matches!(r.component, Component::Check { .. }))
        {
            let clause = self.clause("No move may leave the mover's royal piece attacked.");
            self.add_rule(
                "check",
                clause,
                Component::Check {
                    safety: crate::definition::model::Safety::All,
                },
            );
            if !self
                .def
                .rules
                .iter()
                .any(|r| matches!(r.component, Component::Checkmate { .. }))
            {
                let clause = self.clause("A side to move with no legal turn that is in check ends the game with `value`.");
                let value = self.checkmate;
                self.add_rule("checkmate", clause, Component::Checkmate { value });
            }
        }
        // A hole is no square of any region.
        let holes = self.def.holes.clone();
        for r in &mut self.def.rules {
            match &mut r.component {
                Component::DoubleStep { region, .. }
                | Component::Promotion { region, .. }
                | Component::Goal { region, .. }
                | Component::Confine { region, .. }
                | Component::RegionMove { region, .. }
                | Component::EnPassant { region, .. } => {
                    for side in region.iter_mut() {
                        side.cells.retain(|c| !holes.contains(c));
                    }
                }
                _ => {}
            }
        }
        // The pawn flag follows the pieces that promote.
        let promoting: Vec<char> = self
            .def
            .rules
            .iter()
            .flat_map(|r| match &r.component {
                // Pieces with a promoted kind of their own are no pawns.
                Component::Promotion { pieces, pairs, .. } if pairs.is_empty() => pieces.clone(),
                _ => Vec::new(),
            })
            .collect();
        if self.promo_dirty {
            for p in &mut self.def.pieces {
                p.pawn = promoting.contains(&p.letter) || pawn_letters.contains(&p.letter);
            }
        }
        Ok(())
    }

    /// The component `promotedPieceType` makes (shogi-style pairs, promoting on moves into,
    /// within or out of the zone), if any; an error where Fairy-Stockfish's rules for it are
    /// not the component's.
    fn piece_promotion(&self, p: &Promo) -> Result<Option<Component>, String> {
        if p.pairs.is_empty() {
            return Ok(None);
        }
        let pawn_types = self.letters_of("pawn");
        let lefts: Vec<char> = p.pairs.iter().map(|(a, _)| *a).collect();
        let rights: Vec<char> = p.pairs.iter().map(|(_, b)| *b).collect();
        let live_into = p.into.iter().any(|i| !i.is_empty());
        let why = |w: String| Err(format!("`promotedPieceType`: {w}, which is not supported"));
        if let Some((_, r)) = rights
            .iter()
            .enumerate()
            .find(|(i, r)| rights[..*i].contains(r))
        {
            return why(format!(
                "two pieces promote into `{}`",
                r.to_ascii_lowercase()
            ));
        }
        if let Some(l) = lefts.iter().find(|l| rights.contains(l)) {
            return why(format!(
                "`{}` is both promoted and promotes",
                l.to_ascii_lowercase()
            ));
        }
        // Another piece of `promotionPawnTypes` moves as a pawn into the zone whatever
        // `promotionPieceTypes` holds.
        if let Some(l) = lefts
            .iter()
            .find(|l| p.pieces.contains(l) && !pawn_types.contains(l))
        {
            return why(format!(
                "`{}` promotes both as a pawn and into a kind of its own",
                l.to_ascii_lowercase()
            ));
        }
        if live_into {
            if let Some(l) = lefts.iter().find(|l| p.pieces.contains(l)) {
                return why(format!(
                    "`{}` promotes both as a pawn and into a kind of its own",
                    l.to_ascii_lowercase()
                ));
            }
            if let Some(r) = rights.iter().find(|r| p.into.iter().any(|i| i.contains(r))) {
                return why(format!(
                    "a pawn promotes into `{}`, which is also a promoted kind",
                    r.to_ascii_lowercase()
                ));
            }
        }
        // A promoted kind is only ever made by promotion: one that starts on the board
        // unpromoted or in hand would go back to the hand as itself in Fairy-Stockfish.
        let placement = self.def.start.split_whitespace().next().unwrap_or("");
        let mut plus = false;
        for c in placement.chars() {
            if c.is_ascii_alphabetic() && !plus && rights.contains(&c.to_ascii_uppercase()) {
                return why(format!(
                    "the start has an unpromoted `{}`, a promoted kind",
                    c.to_ascii_lowercase()
                ));
            }
            plus = c == '+';
        }
        // The pawn type promotes only on moves into the zone, and its promoted kind knows no
        // limit; it moves under `mandatoryPawnPromotion`, the others under
        // `mandatoryPiecePromotion`.
        let pawns: Vec<char> = lefts
            .iter()
            .filter(|l| pawn_types.contains(l))
            .copied()
            .collect();
        if !pawns.is_empty() {
            if pawns.len() < lefts.len() && p.mandatory != p.piece_mandatory {
                return why(
                    "the pawn and the other pieces promote one mandatorily, one not".into(),
                );
            }
            for (a, b) in &p.pairs {
                if pawns.contains(a) && p.limits.iter().any(|(l, _)| l == b) {
                    return why(format!(
                        "the pawn's promoted kind `{}` has a `promotionLimit`",
                        b.to_ascii_lowercase()
                    ));
                }
            }
            for piece in self.def.pieces.iter().filter(|x| pawns.contains(&x.letter)) {
                for side in 0..2 {
                    let steps = piece.design.steps(if side == 0 {
                        crate::betza::Side::White
                    } else {
                        crate::betza::Side::Black
                    });
                    let zone = &p.region[side].cells;
                    for c in zone {
                        for st in &steps {
                            let (f, r) = (i32::from(c.file) + st.dx, i32::from(c.rank) + st.dy);
                            let on = (0..i32::from(self.def.files)).contains(&f)
                                && (0..i32::from(self.def.ranks)).contains(&r);
                            if on
                                && !zone.contains(&Cell {
                                    file: f as u8,
                                    rank: r as u8,
                                })
                            {
                                return why("the pawn may move out of its promotion zone".into());
                            }
                        }
                    }
                    let forward = if side == 0 { 1 } else { -1 };
                    let far = |c: &Cell, n: i32| {
                        let r = i32::from(c.rank) + forward * n;
                        (0..i32::from(self.def.ranks)).contains(&r)
                            && zone.contains(&Cell {
                                file: c.file,
                                rank: r as u8,
                            })
                    };
                    if self.ds_region[side].cells.iter().any(|c| far(c, 2))
                        || self.ts_region[side]
                            .cells
                            .iter()
                            .any(|c| far(c, 2) || far(c, 3))
                    {
                        return why("the pawn's double step may reach its promotion zone".into());
                    }
                    // Fairy-Stockfish's en-passant capture never promotes: it must not land in
                    // the zone, on a square an enemy double step passes over.
                    let takes = self
                        .ep
                        .as_ref()
                        .filter(|(pieces, _)| pieces.contains(&piece.letter));
                    if let Some((_, region)) = takes {
                        let passed = |c: &Cell, n: i32| {
                            let r = i32::from(c.rank) - forward * n;
                            let cell = Cell {
                                file: c.file,
                                rank: r.clamp(0, 255) as u8,
                            };
                            (0..i32::from(self.def.ranks)).contains(&r)
                                && zone.contains(&cell)
                                && (region[side].cells.is_empty()
                                    || region[side].cells.contains(&cell))
                        };
                        let other = 1 - side;
                        if self.ds_region[other].cells.iter().any(|c| passed(c, 1))
                            || self.ts_region[other]
                                .cells
                                .iter()
                                .any(|c| passed(c, 1) || passed(c, 2))
                        {
                            return why("the pawn may take en passant into its promotion zone, where Fairy-Stockfish does not let it promote".into());
                        }
                    }
                }
            }
        }
        let mandatory = if pawns.len() == lefts.len() {
            p.mandatory
        } else {
            p.piece_mandatory
        };
        let limits: Vec<(char, u8)> = p
            .limits
            .iter()
            .filter(|(l, _)| rights.contains(l))
            .copied()
            .collect();
        if mandatory && !limits.is_empty() {
            return why("a mandatory promotion into a limited kind (Fairy-Stockfish then lets the piece move unpromoted)".into());
        }
        Ok(Some(Component::Promotion {
            pieces: lefts,
            region: p.region.clone(),
            into: Default::default(),
            mandatory,
            captured_only: false,
            limits,
            pairs: p.pairs.clone(),
            leaving: true,
            as_turn: false,
            demote: false,
        }))
    }

    /// The squares of the board (holes left out), sorted.
    fn board_cells(&self) -> Vec<Cell> {
        all_cells(&self.def)
            .cells
            .into_iter()
            .filter(|c| !self.def.holes.contains(c))
            .collect()
    }

    /// The squares from which a piece of `p` of `side` could never move on an empty board:
    /// as this program judges it (no step of its stays on the board) and as Fairy-Stockfish
    /// does (no step of a move that is not only a capture nor a hop).
    fn stuck(&self, p: &PieceDef, side: usize) -> (Vec<Cell>, Vec<Cell>) {
        let steps = p.design.steps(if side == 0 {
            crate::betza::Side::White
        } else {
            crate::betza::Side::Black
        });
        let cells = self.board_cells();
        let lands = |c: &Cell, dx: i32, dy: i32| {
            let (f, r) = (i32::from(c.file) + dx, i32::from(c.rank) + dy);
            u8::try_from(f)
                .ok()
                .zip(u8::try_from(r).ok())
                .is_some_and(|(file, rank)| {
                    file < self.def.files
                        && rank < self.def.ranks
                        && !self.def.holes.contains(&Cell { file, rank })
                })
        };
        let ours = cells
            .iter()
            .filter(|c| !steps.iter().any(|s| lands(c, s.dx, s.dy)))
            .copied()
            .collect();
        let theirs = cells
            .iter()
            .filter(|c| {
                !steps.iter().any(|s| {
                    s.modality.can_move()
                        && s.kind != crate::betza::Kind::Hopper
                        && lands(c, s.dx, s.dy)
                })
            })
            .copied()
            .collect();
        (ours, theirs)
    }

    /// Fairy-Stockfish's promotion zone of each side, which also bounds pawn drops.
    fn promotion_zone(&self) -> Sides<Region> {
        match &self.promo {
            Some(p) => p.region.clone(),
            None => self
                .def
                .rules
                .iter()
                .find_map(|r| match &r.component {
                    Component::Promotion { region, .. } => Some(region.clone()),
                    _ => None,
                })
                .unwrap_or_default(),
        }
    }

    /// Writes the drop rules of `view` as `drops` components (the ones there are kept when
    /// they say the same): one for every piece, one for the pawns kept off their first rank
    /// and promotion zone, and one for a piece never dropped onto a file holding its like.
    fn write_drops(&mut self, view: &DropView) -> Result<(), String> {
        let cells = self.board_cells();
        let within = |r: &Region| -> Region {
            let mut r = r.clone();
            r.cells.retain(|c| cells.contains(c));
            r
        };
        let region: Sides<Region> = [within(&view.region[0]), within(&view.region[1])];
        // A side's region written empty is every square: both are written, or neither.
        let region: Sides<Region> = if region.iter().all(|r| r.cells.is_empty()) {
            region
        } else {
            [0, 1].map(|side| {
                if region[side].cells.is_empty() {
                    Region {
                        cells: cells.clone(),
                    }
                } else {
                    region[side].clone()
                }
            })
        };
        let component = |pieces: Vec<char>,
                         region: Sides<Region>,
                         no_doubled: bool,
                         opposite: Vec<char>| Component::Drops {
            pieces,
            region,
            no_doubled,
            no_mate: false,
            immobile: false,
            opposite_colours: opposite,
            must: view.must,
            promoted: false,
            free: false,
            onto: crate::definition::model::Onto::Anywhere,
            opening: Region::default(),
            through_holes: false,
            in_check: true,
            gives_check: view.checks,
        };
        let mut new: Vec<(&str, String, Component)> = Vec::new();
        if view.on {
            let where_ = if region.iter().all(|r| r.cells.is_empty()) {
                "any empty square"
            } else {
                "an empty square of its side's drop region"
            };
            new.push((
                "drops",
                format!("Instead of moving, a player may put a piece from the hand on {where_}."),
                component(Vec::new(), region.clone(), false, view.opposite.clone()),
            ));
            let pawns = self.letters_of("pawn");
            let doubled = view.no_doubled.filter(|l| pawns.contains(l));
            if !pawns.is_empty() && (!view.first_rank || !view.zone || doubled.is_some()) {
                if doubled.is_some() && pawns.len() > 1 {
                    return Err(
                        "`dropNoDoubled` naming one of several pawn types is not supported".into(),
                    );
                }
                let zone = self.promotion_zone();
                let ranks = self.def.ranks;
                let pawn_region: Sides<Region> = [0usize, 1].map(|side| {
                    let first = if side == 0 { 0 } else { ranks - 1 };
                    let base = if region[side].cells.is_empty() {
                        &cells
                    } else {
                        &region[side].cells
                    };
                    Region {
                        cells: base
                            .iter()
                            .filter(|c| view.first_rank || c.rank != first)
                            .filter(|c| view.zone || !zone[side].cells.contains(c))
                            .copied()
                            .collect(),
                    }
                });
                let never = pawn_region.iter().any(|r| r.cells.is_empty());
                let in_hand = self
                    .def
                    .rules
                    .iter()
                    .any(|r| r.component == Component::CapturesToHand)
                    || pocket(&self.def.start)
                        .is_none_or(|p| p.iter().any(|c| pawns.contains(&c.to_ascii_uppercase())));
                if never && in_hand {
                    return Err("a pawn type that may be held could be dropped nowhere, which drops cannot say".into());
                }
                if !never {
                    let everywhere = pawn_region.iter().all(|r| r.cells == cells);
                    let pawn_region = if everywhere {
                        Default::default()
                    } else {
                        pawn_region
                    };
                    let mut nots = Vec::new();
                    if !view.first_rank {
                        nots.push("on its first rank");
                    }
                    if !view.zone {
                        nots.push("in its promotion zone");
                    }
                    if doubled.is_some() {
                        nots.push("on a file holding another of its side's pawns");
                    }
                    let what = format!("A pawn is not dropped {}.", nots.join(", nor "));
                    new.push((
                        "pawn-drops",
                        what,
                        component(pawns.clone(), pawn_region, doubled.is_some(), Vec::new()),
                    ));
                }
            }
            if let Some(l) = view.no_doubled.filter(|l| !pawns.contains(l)) {
                new.push((
                    "doubled-drops",
                    format!(
                        "A piece `{l}` is not dropped on a file holding another of its side's."
                    ),
                    component(vec![l], region.clone(), true, Vec::new()),
                ));
            }
        }
        // `immobile` matters only where a piece a component drops could be stuck: elsewhere
        // the default (`no`) is written.
        let named: Vec<char> = new
            .iter()
            .flat_map(|(_, _, c)| match c {
                Component::Drops { pieces, .. } => pieces.clone(),
                _ => Vec::new(),
            })
            .collect();
        for (_, _, c) in &mut new {
            if let Component::Drops {
                pieces,
                region,
                immobile,
                ..
            } = c
            {
                let stuck = self.def.pieces.iter().any(|p| {
                    let dropped = if pieces.is_empty() {
                        !named.contains(&p.letter)
                    } else {
                        pieces.contains(&p.letter)
                    };
                    dropped
                        && (0..2).any(|side| {
                            let (ours, theirs) = self.stuck(p, side);
                            ours.iter().chain(&theirs).any(|c| {
                                region[side].cells.is_empty() || region[side].cells.contains(c)
                            })
                        })
                });
                *immobile = stuck && !self.immobility;
            }
        }
        let old: Vec<&Component> = self
            .def
            .rules
            .iter()
            .map(|r| &r.component)
            .filter(|c| matches!(c, Component::Drops { .. }))
            .collect();
        if old.len() == new.len() && old.iter().zip(&new).all(|(a, (_, _, b))| *a == b) {
            return Ok(());
        }
        self.drop_rules(|c| matches!(c, Component::Drops { .. }));
        for (id, what, c) in new {
            let clause = self.clause(&what);
            self.add_rule(id, clause, c);
        }
        Ok(())
    }

    /// Fairy-Stockfish's `immobilityIllegal` refuses a move or drop onto a square from which
    /// the piece could never move again; this program forbids such drops under `immobile no`
    /// and makes a piece that may promote there promote. An error where the two differ.
    fn judge_immobility(&self) -> Result<(), String> {
        let pawns: Vec<char> = self
            .def
            .pieces
            .iter()
            .filter(|p| p.pawn)
            .map(|p| p.letter)
            .collect();
        // A promotion's pieces: those named, else the left sides of its pairs, else the pawns.
        let promotions: Vec<(Vec<char>, &Sides<Region>, bool)> = self
            .def
            .rules
            .iter()
            .filter_map(|r| match &r.component {
                Component::Promotion {
                    pieces,
                    region,
                    mandatory,
                    pairs,
                    as_turn: false,
                    ..
                } => {
                    let named = if !pieces.is_empty() {
                        pieces.clone()
                    } else if !pairs.is_empty() {
                        pairs.iter().map(|(a, _)| *a).collect()
                    } else {
                        pawns.clone()
                    };
                    Some((named, region, *mandatory))
                }
                _ => None,
            })
            .collect();
        let name = |c: &Cell| format!("{}{}", (b'a' + c.file) as char, c.rank + 1);
        for p in &self.def.pieces {
            for side in 0..2 {
                let (ours, theirs) = self.stuck(p, side);
                if ours.is_empty() && theirs.is_empty() {
                    continue;
                }
                let promotes = |c: &Cell, optional_only: bool| {
                    promotions.iter().any(|(pieces, region, mandatory)| {
                        pieces.contains(&p.letter)
                            && region[side].cells.contains(c)
                            && !(optional_only && *mandatory)
                    })
                };
                let l = p.letter.to_ascii_lowercase();
                if self.immobility {
                    if ours != theirs {
                        return Err(format!("`immobilityIllegal` with the piece `{l}`, whose captures or hops leave squares its other moves cannot, is not supported"));
                    }
                    if let Some(c) = theirs.iter().find(|c| !promotes(c, false)) {
                        return Err(format!("under `immobilityIllegal` a piece `{l}` may not move onto {}, from which it could never move, where it does not promote: no component says so", name(c)));
                    }
                } else if let Some(c) = ours.iter().find(|c| promotes(c, true)) {
                    return Err(format!("a piece `{l}` that stays unpromoted on {} could never move again: this program makes it promote there, Fairy-Stockfish (without `immobilityIllegal`) does not", name(c)));
                }
            }
        }
        Ok(())
    }

    /// Fits the components' regions to a new board size, as Fairy-Stockfish's regions, which
    /// are whole ranks and files of the largest board, fit it: a rank (or file) that a region
    /// held whole stays whole, and squares off the board go. A component whose region empties
    /// is dropped, as its Fairy-Stockfish region then holds no square.
    fn resize(&mut self, old_files: u8, old_ranks: u8) {
        let (files, ranks) = (self.def.files, self.def.ranks);
        let fit = |r: &mut Region| {
            if r.cells.is_empty() {
                return;
            }
            let whole_rank = |rank: u8| (0..old_files).all(|file| r.contains(Cell { file, rank }));
            let whole_file = |file: u8| (0..old_ranks).all(|rank| r.contains(Cell { file, rank }));
            let mut cells: Vec<Cell> = r.cells.clone();
            for rank in (0..old_ranks).filter(|k| whole_rank(*k)) {
                cells.extend((old_files..files).map(|file| Cell { file, rank }));
            }
            for file in (0..old_files).filter(|f| whole_file(*f)) {
                cells.extend((old_ranks..ranks).map(|rank| Cell { file, rank }));
            }
            cells.retain(|c| c.file < files && c.rank < ranks);
            cells.sort();
            cells.dedup();
            r.cells = cells;
        };
        let mut rules = std::mem::take(&mut self.def.rules);
        let before: Vec<Component> = rules.iter().map(|r| r.component.clone()).collect();
        rules.retain_mut(|r| match &mut r.component {
            Component::DoubleStep { region, .. }
            | Component::Promotion { region, .. }
            | Component::Goal { region, .. }
            | Component::Confine { region, .. }
            | Component::RegionMove { region, .. } => {
                region.iter_mut().for_each(fit);
                region.iter().any(|r| !r.cells.is_empty())
            }
            Component::EnPassant { region, .. } => {
                let had = region.iter().any(|r| !r.cells.is_empty());
                region.iter_mut().for_each(fit);
                !had || region.iter().any(|r| !r.cells.is_empty())
            }
            _ => true,
        });
        // A region that grew or shrank is no longer what the base's words describe.
        for r in &mut rules {
            if !before.contains(&r.component) {
                r.clause = format!(
                    "{} (imported from {})",
                    describe(&r.component),
                    self.provenance
                );
            }
        }
        self.def.rules = rules;
        for r in self
            .ds_region
            .iter_mut()
            .chain(self.ts_region.iter_mut())
            .chain(self.flag.region.iter_mut())
        {
            fit(r);
        }
        if let Some(p) = &mut self.promo {
            p.region.iter_mut().for_each(fit);
        }
        if let Some((_, r)) = &mut self.ep {
            r.iter_mut().for_each(fit);
        }
        self.def.holes.retain(|c| c.file < files && c.rank < ranks);
    }
}

/// A sentence for what a component does, in its settings' terms.
fn describe(c: &Component) -> &'static str {
    match c {
        Component::DoubleStep { .. } => "A piece of `pieces` on its double-step region may advance two squares straight forward through empty squares.",
        Component::EnPassant { .. } => "A piece passed over by an enemy's double step may be taken on the square it passed, on the very next turn, by a piece of `pieces` moving there as it captures.",
        Component::Promotion { .. } => "A piece of `pieces` ending a move in its side's promotion region is exchanged for one of `into`.",
        Component::Castling { .. } => "The `king` moves from its first rank towards an unmoved piece of `rooks` to `king-to`, that piece to `rook-to`, neither having moved, with the squares between empty and a royal king not in check nor passing or landing on an attacked square.",
        Component::Extinction { .. } => "A side that has lost every piece of one of `pieces` ends the game with `value`.",
        Component::Goal { .. } => "A side whose piece of `pieces` stands in its goal region ends the game with `value`.",
        Component::Explosion { .. } => "A capture removes the capturing piece and every piece but the `immune` kinds on the squares around the capture square.",
        Component::InsufficientMaterial { .. } => "The game is drawn when, besides the royal pieces, nothing is left but one piece of an `alone` kind, or pieces of `colour-bound` kinds on squares of one colour.",
        Component::FirstMove { .. } => "A piece of `pieces` on a square whose first-move right it still has may make `move`.",
        Component::Confine { .. } => "Pieces of `pieces` never leave their side's region.",
        Component::RegionMove { .. } => "A piece of `pieces` standing in its side's region may also move as `move`.",
        _ => "The rule of the base game, with the pieces the section removes left out.",
    }
}

/// The letters of a FEN's pocket (`[...]` after the placement), if it has one.
fn pocket(fen: &str) -> Option<Vec<char>> {
    let placement = fen.split_whitespace().next()?;
    let open = placement.find('[')?;
    let inside = &placement[open + 1..];
    let close = inside.find(']')?;
    Some(
        inside[..close]
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .collect(),
    )
}

/// Splits a Fairy-Stockfish movement into its moves and its initial (`i`) moves.
fn split_initial(betza: &str) -> (String, String) {
    if betza.contains('(') || !betza.contains('i') {
        return (betza.to_string(), String::new());
    }
    let (mut plain, mut initial) = (String::new(), String::new());
    let mut prefix = String::new();
    let chars: Vec<char> = betza.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_lowercase() {
            prefix.push(c);
            i += 1;
            continue;
        }
        let mut atom = c.to_string();
        i += 1;
        while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == c) {
            atom.push(chars[i]);
            i += 1;
        }
        if prefix.contains('i') {
            initial.push_str(&prefix.replace('i', ""));
            initial.push_str(&atom);
        } else {
            plain.push_str(&prefix);
            plain.push_str(&atom);
        }
        prefix.clear();
    }
    plain.push_str(&prefix);
    (plain, initial)
}

/// The checks each side must give, from a FEN's `N+N` field (1 when there is none, as
/// Fairy-Stockfish counts).
fn fen_checks(fen: &str) -> Result<u8, String> {
    for field in fen.split_whitespace().skip(1) {
        if let Some((a, b)) = field.split_once('+') {
            if let (Ok(a), Ok(b)) = (a.parse::<u8>(), b.parse::<u8>()) {
                if a != b || a == 0 {
                    return Err(format!(
                        "the start position gives the sides different check counts (`{field}`)"
                    ));
                }
                return Ok(a);
            }
        }
    }
    Ok(1)
}

// ---- values ----------------------------------------------------------------------------------

fn boolean(arg: &Arg<'_>) -> Result<bool, Problem> {
    match arg.value.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(arg.bad("the value is `true` or `false`")),
    }
}

fn number(arg: &Arg<'_>, max: u32) -> Result<u32, Problem> {
    arg.value
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|n| *n <= max)
        .ok_or_else(|| arg.bad(format!("the value is a number from 0 to {max}")))
}

fn game_value(arg: &Arg<'_>) -> Result<Option<Value>, Problem> {
    match arg.value.trim() {
        "win" => Ok(Some(Value::Win)),
        "loss" => Ok(Some(Value::Loss)),
        "draw" => Ok(Some(Value::Draw)),
        "none" => Ok(None),
        _ => Err(arg.bad("the value is `win`, `loss`, `draw` or `none`")),
    }
}

/// A region in Fairy-Stockfish's notation: `*3` a rank, `c*` a file, `d4` a square, `-` none.
fn region(s: &State, arg: &Arg<'_>) -> Result<Region, Problem> {
    let mut cells = Vec::new();
    let (files, ranks) = (s.def.files, s.def.ranks);
    for token in arg.value.split_whitespace() {
        if token == "-" {
            break;
        }
        let bad = || arg.bad(format!("`{token}` is not `*RANK`, `FILE*` or a square"));
        if let Some(r) = token.strip_prefix('*') {
            let r: u8 = r.parse().map_err(|_| bad())?;
            if r == 0 {
                return Err(bad());
            }
            cells.extend((0..files).map(|file| Cell { file, rank: r - 1 }));
        } else if let Some(f) = token.strip_suffix('*') {
            let f = f
                .chars()
                .next()
                .filter(|c| c.is_ascii_alphabetic() && f.len() == 1)
                .ok_or_else(bad)?;
            let file = f.to_ascii_lowercase() as u8 - b'a';
            cells.extend((0..ranks).map(|rank| Cell { file, rank }));
        } else {
            let mut chars = token.chars();
            let f = chars
                .next()
                .filter(|c| c.is_ascii_alphabetic())
                .ok_or_else(bad)?;
            let r: u8 = chars.as_str().parse().map_err(|_| bad())?;
            if r == 0 {
                return Err(bad());
            }
            cells.push(Cell {
                file: f.to_ascii_lowercase() as u8 - b'a',
                rank: r - 1,
            });
        }
    }
    cells.retain(|c| c.file < files && c.rank < ranks);
    cells.sort();
    cells.dedup();
    Ok(Region { cells })
}

fn file_value(arg: &Arg<'_>) -> Result<u8, Problem> {
    let v = arg.value.trim();
    let n = if v.starts_with(|c: char| c.is_ascii_digit()) {
        v.parse::<u8>().ok()
    } else if v.len() == 1 && v.as_bytes()[0].is_ascii_lowercase() {
        Some(v.as_bytes()[0] - b'a' + 1)
    } else {
        None
    };
    n.filter(|n| (1..=crate::definition::resolve::MAX_BOARD_SIDE).contains(n))
        .ok_or_else(|| arg.bad("the value is a file letter or a number of files from 1 to 16"))
}

// ---- the settings ----------------------------------------------------------------------------

fn no_rule(_: &mut State, _: &Arg<'_>) -> Result<(), Problem> {
    Ok(())
}

fn resize(s: &mut State, files: u8, ranks: u8) {
    let old = (s.def.files, s.def.ranks);
    s.def.files = files;
    s.def.ranks = ranks;
    // A board of another size is lettered, as a definition's `board` line without a block is.
    s.def.geometry = crate::rules::board::Geometry::lettered(files, ranks);
    s.resize(old.0, old.1);
}

fn max_rank(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let n = number(a, 16)? as u8;
    if n == 0 {
        return Err(a.bad("the board has at least one rank"));
    }
    resize(s, s.def.files, n);
    Ok(())
}

fn max_file(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let n = file_value(a)?;
    resize(s, n, s.def.ranks);
    Ok(())
}

fn pawn_types(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let set = s.piece_set(a)?.unwrap_or_else(|| s.all_letters());
    if let Some(p) = &mut s.promo {
        p.pieces = set.clone();
    }
    if let Some((p, _)) = &mut s.ep {
        *p = set;
    }
    s.promo_dirty = true;
    s.ep_dirty = true;
    Ok(())
}

fn chess960(_: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    if boolean(a)? {
        return Err(a.bad("shuffled start positions are not imported"));
    }
    Ok(())
}

fn start_fen(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let fen = a.value.trim();
    // Fairy-Stockfish reads a FEN without castling and en-passant fields (`w 0 1`, `w 3+3 0
    // 1`): they are written `- -`.
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() >= 3 && fields[2].starts_with(|c: char| c.is_ascii_digit()) {
        fields.splice(2..2, ["-", "-"]);
    }
    s.def.start = fields.join(" ");
    s.def.holes = holes(fields.first().copied().unwrap_or(""), s.def.ranks);
    s.counting_dirty = true;
    Ok(())
}

/// The squares a FEN's placement marks `*` (walls in Fairy-Stockfish: not part of the board).
fn holes(placement: &str, ranks: u8) -> Vec<Cell> {
    let mut out = Vec::new();
    for (i, row) in placement.split('/').enumerate() {
        let Some(rank) = (ranks as usize).checked_sub(i + 1) else {
            break;
        };
        let (mut file, mut run) = (0usize, 0usize);
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            file += run;
            run = 0;
            match c {
                '*' => {
                    if let (Ok(f), Ok(r)) = (u8::try_from(file), u8::try_from(rank)) {
                        out.push(Cell { file: f, rank: r });
                    }
                    file += 1;
                }
                c if c.is_ascii_alphabetic() => file += 1,
                _ => {}
            }
        }
    }
    out.sort();
    out
}

fn promo(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    s.promo_dirty = true;
    if s.promo.is_none() {
        return Err(a.bad(
            "the base game has several promotion components, which one setting cannot change",
        ));
    }
    Ok(())
}

fn promo_region(s: &mut State, a: &Arg<'_>, side: usize) -> Result<(), Problem> {
    promo(s, a)?;
    let r = region(s, a)?;
    if let Some(p) = &mut s.promo {
        p.region[side] = r;
    }
    Ok(())
}

fn promo_pawns(s: &mut State, a: &Arg<'_>, sides: &[usize]) -> Result<(), Problem> {
    promo(s, a)?;
    let set = s.piece_set(a)?.unwrap_or_else(|| s.all_letters());
    if sides.len() == 1 {
        let same = s.promo.as_ref().is_some_and(|p| p.pieces == set);
        if !same {
            return Err(a.bad("the sides' promoting pieces must be the same"));
        }
    }
    if let Some(p) = &mut s.promo {
        p.pieces = set;
    }
    Ok(())
}

fn promo_into(s: &mut State, a: &Arg<'_>, sides: &[usize]) -> Result<(), Problem> {
    promo(s, a)?;
    let set = s.piece_set(a)?.unwrap_or_else(|| s.all_letters());
    if let Some(p) = &mut s.promo {
        for side in sides {
            p.into[*side] = set.clone();
        }
    }
    Ok(())
}

fn promo_limit(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    promo(s, a)?;
    let mut limits = Vec::new();
    for token in a.value.split_whitespace() {
        let bad = || a.bad(format!("`{token}` is not `LETTER:COUNT`"));
        let (l, n) = token.split_once(':').ok_or_else(bad)?;
        let l = l
            .chars()
            .next()
            .filter(|_| l.len() == 1)
            .ok_or_else(bad)?
            .to_ascii_uppercase();
        let n: u8 = n.parse().map_err(|_| bad())?;
        if !s.def.pieces.iter().any(|p| p.letter == l) {
            return Err(a.bad(format!(
                "no piece is written `{}` here",
                l.to_ascii_lowercase()
            )));
        }
        if n > 0 {
            limits.push((l, n));
        }
    }
    if let Some(p) = &mut s.promo {
        p.limits = limits;
    }
    Ok(())
}

fn promo_mandatory(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    promo(s, a)?;
    let b = boolean(a)?;
    if let Some(p) = &mut s.promo {
        p.mandatory = b;
    }
    Ok(())
}

fn promoted_type(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    promo(s, a)?;
    let mut pairs: Vec<(char, char)> = Vec::new();
    for token in a.value.split_whitespace() {
        if token == "-" {
            break;
        }
        let bad = || a.bad(format!("`{token}` is not `PIECE:PROMOTED`"));
        let (x, y) = token.split_once(':').ok_or_else(bad)?;
        let letter = |t: &str| -> Result<char, Problem> {
            let l = t
                .chars()
                .next()
                .filter(|_| t.len() == 1)
                .ok_or_else(bad)?
                .to_ascii_uppercase();
            if !s.def.pieces.iter().any(|p| p.letter == l) {
                return Err(a.bad(format!(
                    "no piece is written `{}` here",
                    l.to_ascii_lowercase()
                )));
            }
            Ok(l)
        };
        let (x, y) = (letter(x)?, letter(y)?);
        // A piece has one promoted kind: the last named.
        pairs.retain(|(p, _)| *p != x);
        pairs.push((x, y));
    }
    if let Some(p) = &mut s.promo {
        p.pairs = pairs;
    }
    Ok(())
}

fn piece_mandatory(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    promo(s, a)?;
    let b = boolean(a)?;
    if let Some(p) = &mut s.promo {
        p.piece_mandatory = b;
    }
    Ok(())
}

fn blast(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    let has = s
        .def
        .rules
        .iter()
        .any(|r| matches!(r.component, Component::Explosion { .. }));
    if on && !has {
        let mut immune = s.letters_of("pawn");
        for l in &s.blast_immune {
            if !immune.contains(l) {
                immune.push(*l);
            }
        }
        let clause = s.clause("A capture removes the capturing piece and every piece but the `immune` kinds on the squares around the capture square.");
        s.add_rule("explosion", clause, Component::Explosion { immune });
    } else if !on {
        s.drop_rules(|c| matches!(c, Component::Explosion { .. }));
    }
    Ok(())
}

fn blast_immune(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let set = s.piece_set(a)?.unwrap_or_else(|| s.all_letters());
    let mut immune = s.letters_of("pawn");
    immune.extend(
        set.iter()
            .filter(|l| !immune.contains(l))
            .copied()
            .collect::<Vec<_>>(),
    );
    s.blast_immune = set;
    for r in s.rule_mut(|c| matches!(c, Component::Explosion { .. })) {
        r.component = Component::Explosion {
            immune: immune.clone(),
        };
    }
    Ok(())
}

fn double_step(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    if !boolean(a)? {
        s.ds_region = Default::default();
        s.ts_region = Default::default();
        s.ds_dirty = true;
    }
    Ok(())
}

fn ds_region(s: &mut State, a: &Arg<'_>, side: usize, triple: bool) -> Result<(), Problem> {
    let r = region(s, a)?;
    if triple {
        s.ts_region[side] = r;
    } else {
        s.ds_region[side] = r;
    }
    s.ds_dirty = true;
    Ok(())
}

fn ep_region(s: &mut State, a: &Arg<'_>, sides: &[usize]) -> Result<(), Problem> {
    let mut r = region(s, a)?;
    if r == all_cells(&s.def) {
        r = Region::default();
    } else if r.cells.is_empty() {
        // No square: no en passant at all.
        if let Some((p, _)) = &mut s.ep {
            p.clear();
        }
    }
    if let Some((_, region)) = &mut s.ep {
        for side in sides {
            region[*side] = r.clone();
        }
    }
    s.ep_dirty = true;
    Ok(())
}

fn ep_types(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let set = s.piece_set(a)?.unwrap_or_else(|| s.all_letters());
    if let Some((p, _)) = &mut s.ep {
        *p = set;
    }
    s.ep_dirty = true;
    Ok(())
}

fn castling(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    let has = s
        .def
        .rules
        .iter()
        .any(|r| matches!(r.component, Component::Castling { .. }));
    if !on {
        s.drop_rules(|c| matches!(c, Component::Castling { .. }));
        s.parked.clear();
    } else if !has {
        let king = s.letters_of("king").first().copied();
        let rooks = s.letters_of("rook");
        if let (Some(king), false) = (king, rooks.is_empty()) {
            let clause = s.clause("The king moves towards an unmoved rook on its first rank, the rook crossing over it, neither having moved, with the squares between empty and the king not in check nor passing or landing on an attacked square.");
            s.add_rule(
                "castling",
                clause,
                Component::Castling {
                    king,
                    rooks,
                    king_to: [2, 6],
                    rook_to: [3, 5],
                    chess960: false,
                    rank: 1,
                    rooks_from: None,
                    drop_rights: None,
                },
            );
        }
    }
    Ok(())
}

fn castling_edit(s: &mut State, edit: impl Fn(&mut Component)) {
    let clause = s.clause("The king moves from its first rank towards an unmoved rook to `king-to`, the rook to `rook-to`, neither having moved, with the squares between empty and the king not in check nor passing or landing on an attacked square.");
    for r in s.rule_mut(|c| matches!(c, Component::Castling { .. })) {
        let before = r.component.clone();
        edit(&mut r.component);
        // The base's words describe its own castling: changed, they would mislead.
        if r.component != before {
            r.clause = clause.clone();
        }
    }
}

fn castling_file(s: &mut State, a: &Arg<'_>, side: usize) -> Result<(), Problem> {
    let f = file_value(a)? - 1;
    if f == 0 && side == 1 || f + 1 >= s.def.files && side == 0 {
        return Err(a.bad("the rook would land off the board"));
    }
    castling_edit(s, |c| {
        if let Component::Castling {
            king_to, rook_to, ..
        } = c
        {
            king_to[side] = f;
            rook_to[side] = if side == 1 { f - 1 } else { f + 1 };
        }
    });
    Ok(())
}

fn castling_rank(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let n = number(a, 16)? as u8;
    if n == 0 || n > s.def.ranks {
        return Err(a.bad("the rank is on the board"));
    }
    castling_edit(s, |c| {
        if let Component::Castling { rank, .. } = c {
            *rank = n;
        }
    });
    Ok(())
}

fn castling_king(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let set = s.piece_set(a)?.unwrap_or_default();
    let [k] = set.as_slice() else {
        return Err(a.bad("one piece castles"));
    };
    let k = *k;
    // A castling whose king went comes back with the one named, in its place.
    if !s.parked.is_empty()
        && !s
            .def
            .rules
            .iter()
            .any(|r| matches!(r.component, Component::Castling { .. }))
    {
        let parked = std::mem::take(&mut s.parked);
        let letters = s.all_letters();
        for mut r in parked {
            if let Component::Castling { rooks, .. } = &mut r.component {
                rooks.retain(|l| letters.contains(l));
                if rooks.is_empty() {
                    continue;
                }
            }
            s.def.rules.push(r);
        }
    }
    castling_edit(s, |c| {
        if let Component::Castling { king, .. } = c {
            *king = k;
        }
    });
    Ok(())
}

fn castling_rooks(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let set = s.piece_set(a)?.unwrap_or_else(|| s.all_letters());
    if set.is_empty() {
        s.drop_rules(|c| matches!(c, Component::Castling { .. }));
        return Ok(());
    }
    // A castling whose rooks went (a `customPiece` took the rook's letter) comes back with the
    // pieces named, where its king is still there.
    if !s
        .def
        .rules
        .iter()
        .any(|r| matches!(r.component, Component::Castling { .. }))
    {
        let letters = s.all_letters();
        let (back, kept): (Vec<Rule>, Vec<Rule>) =
            std::mem::take(&mut s.parked).into_iter().partition(|r| {
                matches!(&r.component, Component::Castling { king, rooks, .. }
                    if rooks.is_empty() && letters.contains(king))
            });
        s.parked = kept;
        s.def.rules.extend(back);
    }
    castling_edit(s, |c| {
        if let Component::Castling { rooks, .. } = c {
            *rooks = set.clone();
        }
    });
    Ok(())
}

/// Adds a component without settings when `on`, or drops it.
fn toggle(s: &mut State, on: bool, c: Component, what: &str) {
    let has = s.def.rules.iter().any(|r| r.component == c);
    if on && !has {
        let clause = s.clause(what);
        s.add_rule(c.name(), clause, c);
    } else if !on {
        s.drop_rules(|x| *x == c);
    }
}

fn checking(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = !boolean(a)?;
    toggle(s, on, Component::NoGivingCheck, "No move may give check.");
    Ok(())
}

fn captures_to_hand(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    toggle(
        s,
        on,
        Component::CapturesToHand,
        "A captured piece goes into the hand of the side that captured it, as the piece it was before any promotion.",
    );
    Ok(())
}

/// The drop rules a drop setting changes: an error when the base game's drops are not ones
/// the settings rebuild (shogi-style drops).
fn drops<'a>(s: &'a mut State, a: &Arg<'_>) -> Result<&'a mut DropView, Problem> {
    s.drops.as_mut().ok_or_else(|| {
        a.bad("the base game's drops are not ones imported settings can change (shogi-style drops)")
    })
}

/// Drops, as Fairy-Stockfish makes them by default: any piece in hand on any empty square, but
/// a pawn neither on its first rank nor in its promotion zone (written when the section is
/// done).
fn piece_drops(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    drops(s, a)?.on = on;
    Ok(())
}

fn must_drop(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    drops(s, a)?.must = on;
    Ok(())
}

fn drop_checks(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    drops(s, a)?.checks = on;
    Ok(())
}

fn first_rank_pawn_drops(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    drops(s, a)?.first_rank = on;
    Ok(())
}

fn zone_pawn_drops(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    drops(s, a)?.zone = on;
    Ok(())
}

fn drop_region(s: &mut State, a: &Arg<'_>, side: usize) -> Result<(), Problem> {
    let mut r = region(s, a)?;
    r.cells.retain(|c| !s.def.holes.contains(c));
    if r.cells.is_empty() {
        return Err(a.bad("a drop region without a square of the board is not imported"));
    }
    drops(s, a)?.region[side] = r;
    Ok(())
}

fn drop_no_doubled(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let set = s.piece_set(a)?;
    let letter = match set.as_deref() {
        Some([]) => None,
        Some([l]) => Some(*l),
        _ => return Err(a.bad("one piece, or `-` for none")),
    };
    drops(s, a)?.no_doubled = letter;
    Ok(())
}

fn immobility_illegal(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    s.immobility = boolean(a)?;
    Ok(())
}

fn must_capture(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    toggle(
        s,
        on,
        Component::CompulsoryCapture,
        "A side that can capture must capture.",
    );
    Ok(())
}

fn flying_general(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    toggle(s, on, Component::FlyingRoyals, "Two royal pieces of opposite sides may not face each other on a file with no piece between.");
    Ok(())
}

/// The value of the repeatable component that applies under the default readings.
fn default_reading<T>(s: &State, pick: impl Fn(&Component) -> Option<T>) -> Option<T> {
    s.def.rules.iter().find_map(|r| {
        let applies = r.when.iter().all(|(o, v)| {
            s.def
                .options
                .iter()
                .any(|d| &d.name == o && &d.default == v)
        });
        if applies {
            pick(&r.component)
        } else {
            None
        }
    })
}

/// Replaces every component `is` picks (and the options only they read) by `new`.
fn replace_all(s: &mut State, is: impl Fn(&Component) -> bool, new: Option<(Component, &str)>) {
    let options: Vec<String> = s
        .def
        .rules
        .iter()
        .filter(|r| is(&r.component))
        .flat_map(|r| r.when.iter().map(|(o, _)| o.clone()))
        .collect();
    s.drop_rules(&is);
    for o in options {
        if !s
            .def
            .rules
            .iter()
            .any(|r| r.when.iter().any(|(x, _)| *x == o))
        {
            s.def.options.retain(|d| d.name != o);
        }
    }
    if let Some((c, what)) = new {
        let clause = s.clause(what);
        s.add_rule(c.name(), clause, c);
    }
}

fn n_move_rule(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let n = number(a, u16::MAX as u32)? as u16;
    let is = |c: &Component| matches!(c, Component::MoveCount { .. });
    let now = default_reading(s, |c| match c {
        Component::MoveCount { moves } => Some(*moves),
        _ => None,
    });
    if now.unwrap_or(0) != n {
        replace_all(s, is, (n > 0).then_some((Component::MoveCount { moves: n }, "The game is drawn after `moves` moves by each side without a capture or a pawn move.")));
    }
    Ok(())
}

fn n_fold_rule(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let n = number(a, 255)? as u8;
    if n == 1 {
        return Err(a.bad("a position occurs at least twice to repeat"));
    }
    let is = |c: &Component| matches!(c, Component::Repetition { .. });
    let now = default_reading(s, |c| match c {
        Component::Repetition { times } => Some(*times),
        _ => None,
    });
    if now.unwrap_or(0) != n {
        replace_all(
            s,
            is,
            (n > 0).then_some((
                Component::Repetition { times: n },
                "The game is drawn when the same position occurs for the `times`-th time.",
            )),
        );
    }
    Ok(())
}

fn stalemate_value(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let v = game_value(a)?.ok_or_else(|| a.bad("a stalemate always ends the game here"))?;
    let now = default_reading(s, |c| match c {
        Component::Stalemate { value } => Some(*value),
        _ => None,
    });
    if now != Some(v) {
        replace_all(s, |c| matches!(c, Component::Stalemate { .. }), Some((Component::Stalemate { value: v }, "A side to move with no legal turn that is not in check ends the game with `value`.")));
    }
    Ok(())
}

fn checkmate_value(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let v = game_value(a)?.ok_or_else(|| a.bad("a checkmate always ends the game here"))?;
    s.checkmate = v;
    let now = default_reading(s, |c| match c {
        Component::Checkmate { value } => Some(*value),
        _ => None,
    });
    if now.is_some() && now != Some(v) {
        replace_all(
            s,
            |c| matches!(c, Component::Checkmate { .. }),
            Some((
                Component::Checkmate { value: v },
                "A side to move with no legal turn that is in check ends the game with `value`.",
            )),
        );
    }
    Ok(())
}

fn extinction_value(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    s.extinct.value = game_value(a)?;
    s.extinct_dirty = true;
    Ok(())
}

fn pseudo_royal(_: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    if boolean(a)? {
        return Err(
            a.bad("pieces royal only while they are the last of their kind are not imported yet")
        );
    }
    Ok(())
}

fn extinction_types(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    s.extinct.pieces = s.piece_set(a)?;
    s.extinct_dirty = true;
    Ok(())
}

fn extinction_count(_: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    if number(a, 64)? != 0 {
        return Err(a.bad("only the loss of every piece of a kind (`0`) is imported"));
    }
    Ok(())
}

fn extinction_opponent(_: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    if number(a, 64)? != 0 {
        return Err(a.bad("only `0` is imported"));
    }
    Ok(())
}

fn flag_piece(s: &mut State, a: &Arg<'_>, sides: &[usize]) -> Result<(), Problem> {
    let set = s.piece_set(a)?;
    if sides.len() == 1 && s.flag.pieces != set {
        return Err(a.bad("the sides' goal pieces must be the same"));
    }
    s.flag.pieces = set;
    s.flag_dirty = true;
    Ok(())
}

fn flag_region(s: &mut State, a: &Arg<'_>, sides: &[usize]) -> Result<(), Problem> {
    let r = region(s, a)?;
    for side in sides {
        s.flag.region[*side] = r.clone();
    }
    s.flag_dirty = true;
    Ok(())
}

fn flag_move(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let on = boolean(a)?;
    let now = s.flag.timing == Timing::UnlessMatched;
    if on != now {
        if on {
            return Err(
                a.bad("the extra move after a goal is imported only as inherited (racing kings)")
            );
        }
        s.flag.timing = Timing::AtOnce;
        s.flag_dirty = true;
    }
    Ok(())
}

fn check_counting(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    s.check_counting = boolean(a)?;
    s.counting_dirty = true;
    Ok(())
}

// ---- conversions (ataxx, othello) ------------------------------------------------------------
//
// The engine has these rules, but an import does not rewrite them yet: a setting is taken where
// it says what the definition (its base game's) already does, and refused where it would
// change it. This also keeps a setting written at Fairy-Stockfish's default from passing
// silently over a base game that sets it otherwise.

/// Takes a setting whose value, as Fairy-Stockfish writes it, must be what `now` reads off the
/// definition.
fn as_base(
    s: &mut State,
    a: &Arg<'_>,
    now: fn(&Definition) -> &'static str,
) -> Result<(), Problem> {
    let want = now(&s.def);
    if a.value.trim() == want {
        return Ok(());
    }
    Err(a.bad(format!(
        "the base game has `{want}`, and changing it on import is not supported yet"
    )))
}

fn drop_rules(def: &Definition) -> impl Iterator<Item = &Component> {
    def.rules
        .iter()
        .map(|r| &r.component)
        .filter(|c| matches!(c, Component::Drops { .. }))
}

fn enclosing_now(def: &Definition) -> &'static str {
    use crate::definition::model::Onto;
    match drop_rules(def).find_map(|c| match c {
        Component::Drops { onto, .. } => Some(*onto),
        _ => None,
    }) {
        Some(Onto::NextToOwn) => "ataxx",
        Some(Onto::Enclosing) => "reversi",
        _ => "none",
    }
}

fn flip_now(def: &Definition) -> &'static str {
    use crate::definition::model::FlipPattern;
    match def.rules.iter().find_map(|r| match r.component {
        Component::Flip { pattern } => Some(pattern),
        _ => None,
    }) {
        Some(FlipPattern::Neighbours) => "ataxx",
        Some(FlipPattern::Lines) => "reversi",
        None => "none",
    }
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}

fn free_now(def: &Definition) -> &'static str {
    yes_no(drop_rules(def).any(|c| matches!(c, Component::Drops { free: true, .. })))
}

fn stuck_pass_now(def: &Definition) -> &'static str {
    yes_no(
        def.rules
            .iter()
            .any(|r| matches!(r.component, Component::Pass { stuck: true, .. })),
    )
}

fn full_board_now(def: &Definition) -> &'static str {
    yes_no(
        def.rules
            .iter()
            .any(|r| matches!(r.component, Component::FullBoard { .. })),
    )
}

fn counting_now(def: &Definition) -> &'static str {
    let counts = def.rules.iter().any(|r| {
        matches!(
            r.component,
            Component::Pass {
                value: Value::Count,
                ..
            } | Component::FullBoard {
                value: Value::Count
            }
        )
    });
    if counts {
        "unweighted"
    } else {
        "none"
    }
}

fn stalemate_count_now(def: &Definition) -> &'static str {
    yes_no(def.rules.iter().any(|r| {
        matches!(
            r.component,
            Component::Stalemate {
                value: Value::Count
            }
        )
    }))
}

/// `enclosingDropStart`: the squares the first drops go on, set on the base game's own drops.
fn enclosing_drop_start(s: &mut State, a: &Arg<'_>) -> Result<(), Problem> {
    let opening = region(s, a)?;
    let own = s.drops.is_none() && drop_rules(&s.def).next().is_some();
    if !own {
        if opening.cells.is_empty() {
            return Ok(());
        }
        return Err(
            a.bad("only a base game's own drops (ataxx, flipello) take an opening on import")
        );
    }
    for r in &mut s.def.rules {
        if let Component::Drops { opening: o, .. } = &mut r.component {
            *o = opening.clone();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initial_moves_split_off() {
        assert_eq!(
            split_initial("mWfceFifmnD"),
            ("mWfceF".into(), "fmnD".into())
        );
        assert_eq!(split_initial("fmFfcWimA"), ("fmFfcW".into(), "mA".into()));
        assert_eq!(split_initial("QN"), ("QN".into(), String::new()));
    }

    #[test]
    fn check_counts_from_the_fen() {
        assert_eq!(fen_checks("8/8 w KQkq - 3+3 0 1"), Ok(3));
        assert_eq!(fen_checks("8/8 w 7+7 0 1"), Ok(7));
        assert_eq!(fen_checks("8/8 w - - 0 1"), Ok(1));
        assert!(fen_checks("8/8 w - - 3+2 0 1").is_err());
    }

    #[test]
    fn every_table_key_is_known_once() {
        let mut names: Vec<&str> = known_names().collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "a setting is listed twice");
    }
}
