//! The rule, option, state-key and invariant catalogue of Cypher Chess.
//!
//! Sources: `cypher-chess-rules.txt` (the main text), `cypher-chess-major-pieces-retake.txt`
//! (clauses IV.a-IV.g) and `cypher-chess-flipping.txt` (VII.d rules 1-4).

use crate::rules::{rule, InvariantDef, KeyDef, OptionDef, RuleDef};

pub static RULES: &[RuleDef] = &[
    // Whose turn, and what a turn is.
    rule("not-your-turn", "cypher-chess-rules.txt III.i", "the players move alternately, as in classical chess; a player moves only their own pieces"),
    rule("no-piece-there", "cypher-chess-rules.txt II.i", "a move starts from a square holding one of the player's pieces"),
    rule("no-such-piece", "cypher-chess-rules.txt I.iii", "the piece named must be one of the player's pieces (K Q R B N P S) able to make that move"),
    rule("turn-length", "cypher-chess-rules.txt V.v.ii, VI.i.a", "a turn is one action, or two when a Court Spy's exit lets a piece in, an infiltration follows a King's move onto the Border, or a coup names its piece"),
    rule("no-such-action", "cypher-chess-rules.txt II.i", "a Cypher turn moves pieces, releases a prisoner or names a coup's piece; there are no passes, rebirths, purchases, designs or castling"),
    rule("start-position", "cypher-chess-rules.txt I.iv", "the initial position: Spies on d0 and d10, the other pieces on ranks 1-3 and 7-9, White moves first"),
    rule("zones", "cypher-chess-rules.txt III.i-iii", "Court is the perimeter (files z and i, ranks 0 and 10), the Border is a5-h5, the Field is the rest; a piece's zone is its square's"),
    // Movement.
    rule("own-piece-on-target", "cypher-chess-rules.txt II.i", "a piece may not move onto a square held by its own side"),
    rule("queen-move", "cypher-chess-rules.txt II.i", "the queen moves any distance along a file, rank or diagonal"),
    rule("rook-move", "cypher-chess-rules.txt II.i", "the rook moves any distance along a file or rank"),
    rule("bishop-move", "cypher-chess-rules.txt II.i", "the bishop moves any distance along a diagonal"),
    rule("king-move", "cypher-chess-rules.txt II.i", "the king moves one square in any direction; there is no castling"),
    rule("spy-move", "cypher-chess-rules.txt II.ii", "the Spy moves like a queen"),
    rule("pawn-move", "cypher-chess-rules.txt II.i", "a pawn moves one square straight forward to an empty square; no double step, en passant or promotion"),
    rule("pawn-capture", "cypher-chess-rules.txt II.i", "a pawn captures one square diagonally forward, and moves diagonally only to capture"),
    rule("pawn-not-on-court", "cypher-chess-rules.txt IV.iii.a", "pawns cannot land on Court squares"),
    rule("blocked", "cypher-chess-rules.txt V.viii, cypher-chess-major-pieces-retake.txt IV.g", "sliding pieces cannot pass over another piece (Spies are transparent only for check)"),
    rule("knight-field", "cypher-chess-rules.txt II.iii.b", "a Field knight moves only by the classical L (1,2)"),
    rule("knight-border", "cypher-chess-rules.txt II.iii.a, II.iii.c", "a Border knight moves by the classical L (1,2) or the extended L (1,3)"),
    rule("knight-court-entry", "cypher-chess-rules.txt II.iii.d", "a knight entering Court from outside must move by the classical L"),
    rule("knight-court-exit", "cypher-chess-rules.txt II.iii.e, cypher-chess-major-pieces-retake.txt IV.a", "a Court knight, leaving Court or moving to another Court square, moves only by the extended L (1,3)"),
    rule("invented-piece", "Betza's funny notation, as the scenario language reads it; Cypher Chess III-V for major pieces", "an invented piece, written as its Betza design (`(WD)e4`), is a non-royal major piece: it moves by its design's atoms (`m` only moves, `c` only captures, riders are blocked by pieces; Spies are transparent only for check, as for the other majors) and every rule of major pieces applies to it: the zone capture rules and sanctuaries, Court entry only after the Court Spy's exit, re-take, checking by the zone rules of majors, infiltration; reading: in the coup d'etat order it ranks below every named piece (queen, knight, bishop, rook, pawn)"),
    // Captures.
    rule("no-king-capture", "cypher-chess-rules.txt III.i", "a King is never captured: it is checked, mated or flipped (decision: moving onto a King is refused with this id)"),
    rule("spy-immunity", "cypher-chess-rules.txt IV.iii.d, VI.i.e", "no piece captures a Spy by moving onto it; a Spy leaves the board only by infiltration (and is otherwise flipped)"),
    rule("spy-capture-powers", "cypher-chess-rules.txt IV.iv.a, IV.iv.b, V.ix", "the Spy captures only opposing major pieces standing in Court, and only from another Court square; it takes pawns only under spy-captures-pawns = yes"),
    rule("field-sanctuary", "cypher-chess-rules.txt IV.i.a", "major pieces in the Field cannot be captured by major Field pieces (except by re-take)"),
    rule("field-reach", "cypher-chess-rules.txt IV.i.b", "major Field pieces cannot capture major pieces on the Border or in Court"),
    rule("border-sanctuary", "cypher-chess-rules.txt IV.ii.a, V.ii", "a major piece (other than the King) on the Border can be captured only by a pawn; Border majors cannot take each other"),
    rule("court-reach", "cypher-chess-rules.txt IV.ii.c, IV.iii.c", "Court pieces cannot capture major pieces on the Border"),
    rule("court-sanctuary", "cypher-chess-rules.txt IV.iii.b, V.ix", "only the Spy, from another Court square, captures major pieces in Court; no other piece can"),
    rule("retake", "cypher-chess-rules.txt V.xiii-V.xiv.ii, cypher-chess-major-pieces-retake.txt IV.b, IV.e, IV.f", "right after a non-King major from Court or Border captures a major in the Field, a major Field piece (King included) may capture it on the very next turn only; a re-take enables no other"),
    // Check and the Kings.
    rule("own-king-in-check", "cypher-chess-rules.txt III.i, IV.v, V.iii, V.iv, V.xii", "no turn may leave the mover's King in check; Field and Border Kings are checked by Field pawns, Border pawns (option), Border and Court majors (King and Spy included), Field Spies (option); Border and Field Spies are transparent"),
    rule("border-kings-apart", "cypher-chess-rules.txt III.ii.d", "two Kings on the Border may never stand next to each other"),
    rule("king-court-entry", "cypher-chess-rules.txt V.vi, III.iii.a", "a King enters Court by its own step only while the opposing Spy is not in Court"),
    rule("court-entry-trigger", "cypher-chess-rules.txt V.v.i-V.v.iii, V.vii", "a major piece other than the King enters Court from outside only as the second action of a turn whose first action moves the Court Spy out of Court, by its own (knight: classical) movement, without capturing"),
    rule("action-by-action", "cypher-chess-rules.txt V.v.iii, VI.i.a, cypher-chess-flipping.txt VII.d.1", "a two-action turn is judged action by action: the first (the Court Spy's exit, V.v.iii 'first assumes its new position'; the King's step onto the Border, VI.i.a 'manages to move onto a Border square') must be legal by itself under the Spy and King rules (III.ii, III.iii, VII.d), and if it decides the game the turn ends there (game-over); the second is judged on the board it leaves; only whether the mover's King is left in check (III.i, IV.v) is judged once, at the end of the turn"),
    rule("one-entry-per-exit", "cypher-chess-rules.txt V.v.iv", "one Spy exit lets in exactly one piece: a turn has at most two actions"),
    rule("court-crossing", "cypher-chess-rules.txt V.viii, V.x, cypher-chess-major-pieces-retake.txt IV.g", "a Court piece may cross the Field and Border to another Court square without a trigger"),
    // Spies and Kings.
    rule("king-beside-own-spy", "cypher-chess-rules.txt III.ii.a, cypher-chess-flipping.txt VII.d.3", "a King may never move (or be left) next to its own Spy (option king-beside-own-spy: illegal, or that side loses by flip); the Spy's own step there is spy-beside-own-king"),
    rule("spy-beside-enemy-spy", "cypher-chess-rules.txt III.ii.b, cypher-chess-flipping.txt VII.d.4", "a Spy may never land next to the opposing Spy (option spy-beside-enemy-spy: illegal, or the Spy that landed loses by flip)"),
    rule("spy-beside-king", "cypher-chess-rules.txt III.ii.c, cypher-chess-flipping.txt VII.d.2", "a Spy cannot move next to the opposing King (next to a King outside Court, option spy-beside-enemy-king: illegal, or the Spy's side loses by flip)"),
    rule("spy-beside-own-king", "cypher-chess-rules.txt III.ii.c, cypher-chess-flipping.txt VII.d.3", "a Spy cannot move next to its own King (option spy-beside-own-king: illegal, or that side loses by flip)"),
    rule("king-flips-spy", "cypher-chess-rules.txt III.iii.a-c, cypher-chess-flipping.txt VII.d.2", "a King that ends its move next to the opposing Spy, unless both stand in Court, flips the Spy and wins (the flipped Spy's own attack does not count against that move)"),
    rule("court-king-beside-court-spy", "cypher-chess-rules.txt III.iii.a", "a Court King cannot move next to the opposing Court Spy"),
    rule("spy-flips-king", "cypher-chess-rules.txt III.iii.a, cypher-chess-flipping.txt VII.d.1", "a Court Spy on one line with the opposing Court King, no piece between and at least one empty square between, flips the King and wins"),
    rule("king-into-spy-line", "cypher-chess-flipping.txt VII.d.1, cypher-chess-rules.txt III.iii.a", "a turn that leaves the mover's own Court King on the line of the opposing Court Spy: loses by flip (option king-into-spy-line), or is illegal"),
    // Other rules.
    rule("infiltration", "cypher-chess-rules.txt VI.i.a-c", "after a King's move onto the Border, the same turn may move one own knight, bishop, rook, queen or Spy to d0 or d10, removing what stands there; removing the enemy King wins"),
    rule("infiltration-once", "cypher-chess-rules.txt VI.i.d", "each side infiltrates at most once per game"),
    rule("coup", "cypher-chess-rules.txt VI.ii.a-c", "a pawn landing on its last Field row (9 for White, 1 for Black) is removed and the highest opposing piece (queen, knight, bishop, rook, pawn) changes sides"),
    rule("coup-choice", "cypher-chess-rules.txt VI.ii.b", "with several opposing pieces of the highest rank the coup maker names one (`coup Nf9`); with one or none, nothing is named"),
    rule("coup-bare-king", "cypher-chess-rules.txt VI.ii.d", "a coup that leaves the opponent with only King and Spy (or King) wins (option coup-bare-king)"),
    rule("prisoner-release", "cypher-chess-rules.txt VI.iii.a-c", "instead of moving, a player not in check may put one of their captured pawns on an empty Border square, if it gives no check"),
    // Claims and the end of the game.
    rule("capture-mark", "cypher-chess-rules.txt II.i", "`x` marks a capture by movement and `-` a move to an empty square (and an infiltration placement)"),
    rule("check-claim", "cypher-chess-rules.txt III.i", "`+` claims that the turn gives check and `#` that it mates"),
    rule("game-over", "cypher-chess-rules.txt III.i, VI.iv", "once the game is decided no further turn is played, and no further action of the turn that decided it"),
    rule("checkmate", "cypher-chess-rules.txt III.i", "the side to move, in check with no legal turn, loses"),
    rule("stalemate", "cypher-chess-rules.txt III.i", "the side to move, not in check with no legal turn: a draw, or a loss under stalemate = loss"),
    rule("resignation", "cypher-chess-rules.txt III.i", "as in classical chess, the player whose opponent resigns wins"),
    rule("agreement", "cypher-chess-rules.txt VI.iv", "a draw occurs by agreement"),
    rule("repetition", "cypher-chess-rules.txt VI.iv", "a draw occurs when the same position appears three times with the same player to move"),
];

pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        name: "king-beside-own-spy",
        values: &["illegal", "loses"],
        default: "illegal",
        reason: "main III.ii.a says the King can never stand next to its own Spy, which reads as a movement rule; flipping VII.d.3 says that a King who winds up there has been flipped and loses. The main text is the rule list the other texts elaborate, so the turn is illegal by default; `loses` plays it and that side loses by flip",
    },
    OptionDef {
        name: "spy-beside-enemy-spy",
        values: &["illegal", "loses"],
        default: "illegal",
        reason: "main III.ii.b says a Spy can never stand next to the opposing Spy; flipping VII.d.4 says a Spy that lands there has been flipped and loses. Default illegal, following the main text; `loses` plays it and the Spy's side loses by flip",
    },
    OptionDef {
        name: "king-into-spy-line",
        values: &["loses", "illegal"],
        default: "loses",
        reason: "flipping VII.d.1 flips a Court King lined up with the opposing Court Spy 'no matter how that situation arose', and main III.iii.a forbids the Court King only to step next to a Spy, not onto its line; so a turn that leaves the mover's own Court King on that line loses by flip by default; `illegal` treats it like moving into check",
    },
    OptionDef {
        name: "field-spy-checks",
        values: &["no", "yes"],
        default: "no",
        reason: "main IV.v.b-c and V.xii list the Court and Border Spy among the pieces that check a Field or Border King and do not name the Field Spy, and IV.i.a/V.xv deny Field pieces attacking powers; IV.iv.b says only 'the Spy can check the Border and Field King'. Default no; `yes` lets a Field Spy check",
    },
    OptionDef {
        name: "spy-captures-pawns",
        values: &["no", "yes"],
        default: "no",
        reason: "main IV.iv.a-b and V.ix give the Spy only the capture of major Court pieces, and retake IV.c calls every piece but the Spy subject to pawns without saying the Spy takes them; no text grants the Spy a pawn capture, so by default it has none; `yes` reads II.ii (moves like the Queen) as including the queen's capture of pawns",
    },
    OptionDef {
        name: "stalemate",
        values: &["draw", "loss"],
        default: "draw",
        reason: "the texts never mention stalemate; main III.i and II.i refer to classical chess for everything they do not change, where stalemate is a draw. `loss` makes the stalemated side lose",
    },
    OptionDef {
        name: "coup-bare-king",
        values: &["after-switch", "before-switch"],
        default: "after-switch",
        reason: "main VI.ii.d: 'if a player achieves Coup d'etat and the only pieces remaining on the opposing side are the Spy and King or just the King' counts what remains once the coup is achieved, i.e. after the switch; `before-switch` wins only when the opponent had nothing but King (and Spy) before it",
    },
    OptionDef {
        name: "field-king-beside-court-spy",
        values: &["illegal", "flips"],
        default: "illegal",
        reason: "a King outside Court stepping into Court next to the opposing Court Spy: main V.vi forbids the King to enter Court while the opposing Spy is there and III.iii.a forbids a Court King next to the Court Spy, so it is illegal by default; flipping VII.d.2 ('when the King is outside of Court, and it moves ... next to the opposing Spy') would make the step flip the Spy, which `flips` allows",
    },
    OptionDef {
        name: "border-king-beside-field-king",
        values: &["check", "allowed"],
        default: "check",
        reason: "main IV.ii.b and V.xii say Border majors including the King check the Field King, so a Field King next to the opposing Border King is in check; III.ii.e lets opposing Kings touch in the Field and III.ii.d forbids touching only for two Border Kings, which `allowed` follows (the Border King then gives no check to a Field King)",
    },
    OptionDef {
        name: "border-pawn-checks",
        values: &["yes", "no"],
        default: "yes",
        reason: "main IV.v.b-c name only 'the field Pawns' among the pieces that check a King, but II.i gives every pawn its diagonal capture, IV.ii.b lets pawns threaten Border pieces and V.iii says the Border King can be forced off its square by pawns; default yes: a Border pawn checks like any pawn; `no` follows the letter of IV.v",
    },
    OptionDef {
        name: "infiltration-timing",
        values: &["same-turn", "later-turn"],
        default: "same-turn",
        reason: "main VI.i.a ties infiltration to the King's move onto the Border ('a player whose King manages to move onto a Border square has the option of moving...'), and the compound notation makes it part of that turn; `later-turn` also allows it as a turn of its own while the King stands on the Border",
    },
    OptionDef {
        name: "spy-beside-enemy-king",
        values: &["illegal", "loses"],
        default: "illegal",
        reason: "main III.ii.c: the Spy cannot move to a square next to either King; flipping VII.d.2 says a King outside Court that 'otherwise winds up' next to the opposing Spy flips it. Default illegal (III.ii.c is explicit); under `loses` a Spy moving next to an enemy King outside Court is flipped and its side loses; next to a Court King it stays illegal (III.ii.c: 'he must be at least 1 empty square away')",
    },
    OptionDef {
        name: "spy-beside-own-king",
        values: &["illegal", "loses"],
        default: "illegal",
        reason: "a Spy stepping next to its own King: main III.ii.c, 'the Spy cannot move to a square next to either King', is the clause about the Spy's move and says it cannot; flipping VII.d.3 flips a King that 'winds up next to his own Spy'. The move rule is the more specific, so the step is illegal by default, whatever king-beside-own-spy says about the King's step; `loses` plays it and that side loses by flip",
    },
    OptionDef {
        name: "win-and-loss",
        values: &["loss", "win"],
        default: "loss",
        reason: "one action that both flips the opponent (VII.d.1-2, a coup that bares the King) and flips the mover (VII.d.3-4, a Spy next to a King, the mover's Court King on a Spy's line, under the `loses` readings): the texts are silent. They state each losing condition without exception ('anywhere on the board', 'no matter how that situation arose'), and in the classical chess they defer to (III.i) what a move does to the mover's own King is judged before what it does to the opponent's; so by default the mover loses. `win` lets the mover's flip count first",
    },
];

pub static STATE_KEYS: &[KeyDef] = &[
    KeyDef {
        name: "prisoners",
        per_color: true,
        values: "a number from 0 to 110 (with the pawns on the board, at most 110 in all)",
        summary: "captured pawns of that colour that its player may release onto the Border (VI.iii)",
    },
    KeyDef {
        name: "infiltration-used",
        per_color: true,
        values: "yes or no",
        summary: "whether that side has already infiltrated (VI.i.d)",
    },
    KeyDef {
        name: "retake",
        per_color: false,
        values: "a square or -",
        summary: "the square of a piece the side to move may re-take with a major Field piece (V.xiii-xiv), or -",
    },
    KeyDef {
        name: "fen",
        per_color: false,
        values: "a Cypher FEN (read-only)",
        summary: "the whole position: placement, side to move, infiltrations used, prisoners, re-take square",
    },
];

pub static INVARIANTS: &[InvariantDef] = &[
    InvariantDef {
        name: "court-king-never-in-check",
        summary: "a King standing in Court is never in check, and the side that just moved is not in check",
    },
    InvariantDef {
        name: "no-pawn-on-court",
        summary: "no pawn stands on a Court square",
    },
    InvariantDef {
        name: "spy-removed-only-by-flip-or-infiltration",
        summary: "a Spy leaves the board only by infiltration (a flipped Spy ends the game where it stands)",
    },
    InvariantDef {
        name: "border-major-captured-only-by-pawn",
        summary: "a major piece other than the King captured on the Border was taken by a pawn",
    },
    InvariantDef {
        name: "court-entry-by-trigger-or-king-step",
        summary: "a piece that moved into Court from outside is a Spy, a King by its own step, or the piece let in by its Spy's exit (infiltration places, it does not move)",
    },
    InvariantDef {
        name: "one-infiltration-per-side",
        summary: "no side infiltrates twice; a side that infiltrated has infiltration-used = yes",
    },
    InvariantDef {
        name: "piece-count-changes-only-by-capture-coup-infiltration-or-release",
        summary: "the number of pieces changes only by captures, the coup's removed pawn, infiltration removals and prisoner releases",
    },
];
