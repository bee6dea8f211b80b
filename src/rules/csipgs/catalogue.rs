//! The rule, option, state-key and invariant catalogue of csipgs chess. Clause numbers are
//! those of the numbered list in `csipgs-chess.txt` ("1." to "10."); prices cite
//! `csipgs-costs.md`.

use crate::rules::{rule, InvariantDef, KeyDef, OptionDef, RuleDef};

pub static RULES: &[RuleDef] = &[
    // The turn.
    rule("turn-structure", "csipgs-chess.txt 3", "a turn is credit (one zorkmid into the treasury), one action (a move, a drop or a purchase), then at most one design change; `Kd2; P=WbRbmHfB`")
        .quote("Each player's turn consists of credit (one zorkmid is added to the treasury), action (moving a piece on the board, transferring a piece from the reserves to an empty square adjacent to one of his kings, or buying a new reserve), and design (optionally changing one of his piece designs)."),
    rule("not-your-turn", "csipgs-chess.txt (standard chess, FIDE 1.1)", "a player moves only pieces of their own colour")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences:"),
    rule("no-piece-there", "csipgs-chess.txt (standard chess, FIDE 1.1)", "a move starts from a square holding one of the player's pieces")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences:"),
    rule("no-such-piece", "csipgs-chess.txt (standard chess, FIDE 2.2)", "the piece named by the move must be one of the player's pieces able to go there")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences:"),
    rule("no-such-action", "csipgs-chess.txt 3, 10", "the actions are a move, a drop and a purchase; there is no castling, pass, coup or rebirth")
        .quote("action (moving a piece on the board, transferring a piece from the reserves to an empty square adjacent to one of his kings, or buying a new reserve) [...] Pawn promotion and castling are also illegal."),
    // Movement.
    rule("design-move", "csipgs-chess.txt 1-2, csipgs-costs.md", "every piece moves as its design says in Betza's funny notation: the standard designs as in chess (the King one step, the pawn fmWfcF), an invented design by its atoms; an `m` atom only moves to an empty square, a `c` atom only captures")
        .quote("the six piece designs are the standard chess pieces (rook, knight, bishop, queen, king, and pawn). [...] m (move only) / c (capture only) [...] Concatenation is union: BR is B plus R."),
    rule("own-piece-on-target", "csipgs-chess.txt (standard chess, FIDE 3.1)", "a piece may not move to a square occupied by a piece of its own side")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences:"),
    rule("blocked", "csipgs-chess.txt (standard chess, FIDE 3.5)", "a riding piece cannot move over an intervening piece")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences:"),
    rule("no-double-step", "csipgs-chess.txt 10", "pawns cannot move two squares on their first move, so there is no en passant")
        .quote("Pawns cannot move two squares on their first move (thus, en passant is impossible)."),
    rule("no-castling", "csipgs-chess.txt 10", "castling is illegal")
        .quote("Pawn promotion and castling are also illegal."),
    rule("no-promotion", "csipgs-chess.txt 10", "pawn promotion is illegal: a pawn that reaches the last rank stays a pawn there, with no move left")
        .quote("Pawn promotion and castling are also illegal."),
    rule("own-king-in-check", "csipgs-chess.txt 7 (standard chess, FIDE 3.9)", "a player with one royal piece may not leave it in check")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences: [...] A player with two or more kings (royal pieces) may ignore check"),
    rule("several-kings", "csipgs-chess.txt 7", "a player with two or more royal pieces may ignore check: a move may leave them attacked, and one may be captured")
        .quote("A player with two or more kings (royal pieces) may ignore check, but the restrictions on bringing in reserve pieces and buying new pieces above still apply."),
    rule("capture-mark", "csipgs-chess.txt (standard chess, FIDE Appendix C.9), as its sample game writes captures", "`x` marks a capture and `-` (or nothing) a move to an empty square")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences: [...] 13.(WD)xe5+; WbRbmHfB=WD 14.Kxe5"),
    rule("check-claim", "csipgs-chess.txt sample game", "`+` claims that the turn gives check and `#` that it mates")
        .quote("This move is the only other possibility, given that 21.(WA)c4+ is check."),
    // Drops.
    rule("drop-reserve", "csipgs-chess.txt 1, 3", "only a piece of the player's own reserve can be dropped")
        .quote("White and Black both have their own set of reserve pieces, a treasury (containing money in zorkmids), and six piece designs. [...] transferring a piece from the reserves to an empty square adjacent to one of his kings"),
    rule("drop-next-to-king", "csipgs-chess.txt 3", "a reserve piece is transferred to an empty square adjacent to one of the player's kings")
        .quote("transferring a piece from the reserves to an empty square adjacent to one of his kings"),
    rule("drop-king-in-check", "csipgs-chess.txt 5, 7", "a reserve piece may not be transferred to a square next to a friendly king that is in check (with several kings too)")
        .quote("Reserve pieces may not be transferred to a square next to a friendly king that is in check. [...] A player with two or more kings (royal pieces) may ignore check, but the restrictions on bringing in reserve pieces and buying new pieces above still apply."),
    rule("no-leaving-board", "csipgs-chess.txt 6", "pieces on the board cannot leave it to become reserve pieces")
        .quote("Pieces on the board cannot leave the board to become reserve pieces."),
    // Purchases and designs.
    rule("buy-design", "csipgs-chess.txt 2, Designs", "only a piece of one of the player's six current designs can be bought; it goes into the reserve")
        .quote("Only pieces that are in your current set of designs can be bought, so that it takes at least two turns to get any fairy chess piece on the board. [...] This notation refers to buying a WD and placing it into the reserves"),
    rule("buy-afford", "csipgs-chess.txt 4.1, csipgs-costs.md", "a piece is bought only if the treasury, after this turn's credit, holds its price (the design's price rounded up; a King's design is royal, times 4)")
        .quote("New pieces may not be bought if: [...] The player cannot afford them; or [...] price = ceil(whole-piece multipliers x sum over atoms of (base x that atom's modifiers))."),
    rule("buy-sixteen", "csipgs-chess.txt 4.2", "a player with 16 pieces, on the board and in reserve together, cannot buy another")
        .quote("New pieces may not be bought if: [...] The player already has 16 pieces (this includes both pieces on the board and reserve pieces); or"),
    rule("buy-in-check", "csipgs-chess.txt 4.3, 7", "a player in check cannot buy (with several kings too: any royal piece attacked)")
        .quote("New pieces may not be bought if: [...] The player is in check. [...] A player with two or more kings (royal pieces) may ignore check, but the restrictions on bringing in reserve pieces and buying new pieces above still apply."),
    rule("redesign", "csipgs-chess.txt 3, Designs", "at the end of a turn one of the player's six designs may be replaced by a new one (`Q=BL`, the old design named by its letter or its text); pieces already made, on the board or in reserve, keep their design. Design changes are unbounded, so `moves`, `perft` and searches never list them: a written one is checked when it is played or asked about")
        .quote("design (optionally changing one of his piece designs) [...] A player can have no more than six piece designs at any one time, so new designs can only be created by removing old designs. [...] Removing an old design does not affect pieces of that design already on the board or in the reserves of that design."),
    rule("redesign-priced", "csipgs-costs.md", "a new design must have a price in the table: its atoms and modifiers must all be priced")
        .quote("price = ceil(whole-piece multipliers x sum over atoms of (base x that atom's modifiers))."),
    rule("king-design-fixed", "csipgs-chess.txt 2, 7 (silent)", "the texts never show the King's design replaced, and a replaced one would make royal pieces the notation cannot name; arbiter keeps the King's design, so the royal pieces are exactly the Kings")
        .quote("the six piece designs are the standard chess pieces (rook, knight, bishop, queen, king, and pawn). [...] A player with two or more kings (royal pieces) may ignore check"),
    rule("full-knowledge", "csipgs-chess.txt 8", "treasuries, reserves and designs of both players are public: state keys and the FEN show them")
        .quote("Players have full knowledge of each player's reserves, treasury, and designs."),
    // The end of the game.
    rule("game-over", "csipgs-chess.txt (standard chess, FIDE 5.1)", "once the game has ended no further turn is played")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences:"),
    rule("checkmate", "csipgs-chess.txt (standard chess, FIDE 5.1.1), 7", "the player to move who has no legal turn while in check loses")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences: [...] A player with two or more kings (royal pieces) may ignore check"),
    rule("stalemate-loses", "csipgs-chess.txt 9", "stalemate is a loss for the stalemated player: no legal turn (no move, drop or purchase) and not in check")
        .quote("Stalemate is a loss for the stalemated player."),
    rule("all-kings-mated", "csipgs-chess.txt 7", "under `several-kings = all-mated`, a player with several royal pieces loses when all of them are attacked and no turn leaves one of them safe")
        .quote("A player with two or more kings (royal pieces) may ignore check, but the restrictions on bringing in reserve pieces and buying new pieces above still apply."),
    rule("resignation", "csipgs-chess.txt (standard chess, FIDE 5.1.2)", "the player whose opponent resigns wins; arbiter does not apply FIDE 5.1.2's exception (a draw where the opponent could not checkmate by any series of legal moves)")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences:"),
    rule("agreement", "csipgs-chess.txt (standard chess, FIDE 5.2.3)", "the game is drawn by agreement (arbiter does not check FIDE 5.2.3's proviso that both players have made a move)")
        .quote("The game follows all the rules and conventions of standard chess, with the following differences:"),
];

pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        name: "several-kings",
        values: &["last-king", "all-mated"],
        default: "last-king",
        reason: "rule 7 lets a player with two or more kings ignore check and says nothing more; read literally, a check then has no consequence, a King may be captured, and the ordinary rules return when one King is left (last-king). all-mated reads \"ignore check\" as ignoring a check of some but not all Kings, so that mating every King at once still wins",
    },
    OptionDef {
        name: "kings-counted",
        values: &["after-turn", "before-turn"],
        default: "after-turn",
        reason: "rule 7 (\"a player with two or more kings may ignore check\") does not say when the Kings are counted, which matters only when a player with one King drops a second: counted on the position the turn leaves, the player then has two and may ignore check, so the new King may be dropped onto an attacked square (after-turn, the reading of every other turn's King safety); counted when the turn starts, the player has one King while playing it, may not ignore check, and no King may be left attacked, the dropped one included (before-turn)",
    },
    OptionDef {
        name: "direction-letters",
        values: &["move-set", "separate"],
        default: "move-set",
        reason: "csipgs-costs.md prices \"several direction letters on one atom (fbD) ... as separate powers: fD + bD\", which settles letters that select different moves but not letters that repeat or together cover the atom: read by the moves they select, ffW is fW and fbB is B, so that two spellings of one piece cost the same (move-set); read letter by letter, each written letter (or pair such as fs) is a power of its own, ffW = fW + fW and fbB = fB + bB (separate), and a spelling that prices otherwise than its canonical form is then a design of its own, kept as written",
    },
];

pub static STATE_KEYS: &[KeyDef] = &[
    KeyDef {
        name: "treasury",
        per_color: true,
        values: "a number of zorkmids, 0 to 1000000",
        summary: "the zorkmids in the player's treasury (before the credit of their next turn)",
    },
    KeyDef {
        name: "reserve",
        per_color: true,
        values: "pieces separated by spaces, e.g. `N (WD) (WD)`, or -",
        summary: "the player's reserve pieces, in canonical order (K Q R B N P, then designs by their text)",
    },
    KeyDef {
        name: "designs",
        per_color: true,
        values: "six designs separated by spaces, e.g. `R N B Q K fmWfcF`",
        summary: "the player's six designs in slot order; the standard ones by their letter, the pawn as fmWfcF",
    },
    KeyDef {
        name: "fen",
        per_color: false,
        values: "a csipgs FEN (read-only)",
        summary: "the whole position: placement, side, treasuries, reserves, designs",
    },
];

pub static INVARIANTS: &[InvariantDef] = &[
    InvariantDef {
        name: "treasury-in-range",
        summary: "no treasury is negative or beyond what credits could have brought (read from the key text)",
    },
    InvariantDef {
        name: "at-most-sixteen",
        summary: "no player has more than 16 pieces on the board and in reserve together, counted from the board",
    },
    InvariantDef {
        name: "six-designs",
        summary: "each player has exactly six designs, the King's among them, every one priced",
    },
    InvariantDef {
        name: "a-king-each",
        summary: "each player has at least one King on the board",
    },
];
