//! Fairy-Stockfish's built-in piece types, as `variants.ini` names them (`knight = n`), with
//! their movement in the Betza notation `src/betza/` reads.

/// One built-in piece type: its setting name, the name an imported definition gives it, its
/// movement, and whether it is written as a pawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceType {
    /// The setting that letters it (`knight`).
    pub setting: &'static str,
    /// The name an imported definition gives it (`knight`, `shogi-pawn`).
    pub name: &'static str,
    /// Its movement.
    pub betza: &'static str,
    /// Whether it is written as a pawn (and double-steps, takes en passant, promotes).
    pub pawn: bool,
}

const fn t(setting: &'static str, name: &'static str, betza: &'static str) -> PieceType {
    PieceType {
        setting,
        name,
        betza,
        pawn: false,
    }
}

/// The built-in types whose movement the generic engine plays as Fairy-Stockfish does, in
/// Fairy-Stockfish's order of types (the order its settings are applied in). The king is last
/// and royal. Types whose moves depend on rules the engine does not have yet (the janggi cannon
/// and elephant) are in [`UNSUPPORTED`]. The immobile piece moves as `none`.
pub const TYPES: &[PieceType] = &[
    PieceType {
        setting: "pawn",
        name: "pawn",
        betza: "fmWfcF",
        pawn: true,
    },
    t("knight", "knight", "N"),
    t("bishop", "bishop", "B"),
    t("rook", "rook", "R"),
    t("queen", "queen", "Q"),
    t("fers", "fers", "F"),
    t("alfil", "alfil", "A"),
    t("fersAlfil", "fers-alfil", "FA"),
    t("silver", "silver", "FfW"),
    t("aiwok", "aiwok", "RNF"),
    t("bers", "bers", "RF"),
    t("archbishop", "archbishop", "BN"),
    t("chancellor", "chancellor", "RN"),
    t("amazon", "amazon", "QN"),
    t("knibis", "knibis", "mNcB"),
    t("biskni", "biskni", "mBcN"),
    t("kniroo", "kniroo", "mNcR"),
    t("rookni", "rookni", "mRcN"),
    t("shogiPawn", "shogi-pawn", "fW"),
    t("lance", "lance", "fR"),
    t("shogiKnight", "shogi-knight", "fN"),
    t("gold", "gold", "WfF"),
    t("dragonHorse", "dragon-horse", "BW"),
    t("clobber", "clobber", "cW"),
    t("breakthrough", "breakthrough", "fmWfF"),
    t("immobile", "immobile", crate::definition::resolve::IMMOBILE),
    t("cannon", "cannon", "mRcpR"),
    // Sideways too only from `soldierPromotionRank`, which is 1 (everywhere) unless a xiangqi
    // game sets it: the importer refuses the type there.
    t("soldier", "soldier", "fsW"),
    t("horse", "horse", "nN"),
    t("elephant", "elephant", "nA"),
    t("banner", "banner", "RcpRnN"),
    t("wazir", "wazir", "W"),
    t("commoner", "commoner", "K"),
    t("centaur", "centaur", "KN"),
];

/// Fairy-Stockfish's other names for the same types (`met` is the fers, `khon` the silver,
/// `dragon` the bers).
pub const ALIASES: &[(&str, &str)] = &[("met", "fers"), ("khon", "silver"), ("dragon", "bers")];

/// Built-in types the engine does not play yet, each with why.
pub const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "janggiCannon",
        "the janggi cannon may not jump or take cannons, a rule of the type itself",
    ),
    (
        "janggiElephant",
        "the janggi elephant's blocked path is a rule of the type itself",
    ),
];

/// The number of `customPieceN` settings (`customPiece1` to `customPiece25`).
pub const CUSTOM_PIECES: usize = 25;

/// The built-in type a setting names (aliases included).
pub fn by_setting(setting: &str) -> Option<&'static PieceType> {
    let setting = ALIASES
        .iter()
        .find(|(a, _)| *a == setting)
        .map_or(setting, |(_, s)| s);
    TYPES.iter().find(|t| t.setting == setting)
}
