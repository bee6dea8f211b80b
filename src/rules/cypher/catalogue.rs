//! The rule, option, state-key and invariant catalogue of Cypher Chess.
//!
//! Sources: `cypher-chess-rules.txt` (the main text), `cypher-chess-major-pieces-retake.txt`
//! (clauses IV.a-IV.g) and `cypher-chess-flipping.txt` (VII.d rules 1-4).

use crate::rules::{rule, InvariantDef, KeyDef, OptionDef, RuleDef};

pub static RULES: &[RuleDef] = &[
    // Whose turn, and what a turn is.
    rule("not-your-turn", "FIDE Laws of Chess 1.1, 1.2 (classical chess's rule: the Cypher texts have none)", "the players move alternately, as in classical chess; a player moves only their own pieces").quote("The game of chess is played between two opponents who move their pieces on a square board called a 'chessboard'. [...] The player with the light-coloured pieces (White) makes the first move, then the players move alternately, with the player with the dark-coloured pieces (Black) making the next move."),
    rule("no-piece-there", "FIDE Laws of Chess 1.1 (classical chess's rule: the Cypher texts have none)", "a move starts from a square holding one of the player's pieces").quote("The game of chess is played between two opponents who move their pieces on a square board called a 'chessboard'."),
    rule("no-such-piece", "cypher-chess-rules.txt I.iii", "the piece named must be one of the player's pieces (K Q R B N P S) able to make that move").quote("In total, there are 17 pieces for each opponent. The pieces include all the pieces of classical chess plus a Cypher (or “Spy”) for each side."),
    rule("turn-length", "cypher-chess-rules.txt V.v.ii, VI.i.a", "a turn is one action, or two when a Court Spy's exit lets a piece in, an infiltration follows a King's move onto the Border, or a coup names its piece").quote("If a player moves the Court Spy onto a Field or Border square, then he or she has the option of also moving a major piece (except the King) onto a Court square via its default movements. [...] A player whose King manages to move onto a Border square has the option of moving one of its own major pieces other than itself (i.e. the Knight, Bishop, Rook, Queen or Spy) to either d0 or d10."),
    rule("no-such-action", "cypher-chess-rules.txt II.i, VI.ii.b, VI.iii.a", "a Cypher turn moves pieces, releases a prisoner or names a coup's piece; there are no passes, rebirths, purchases, designs or castling").quote("Except for the Spy and Knight, all the pieces move as they do in classical chess. [...] If the attacked color has two of same type of piece remaining, the player who initiated the coup chooses which piece to bring under his or her banner. [...] The player can reclaim the pawn in lieu of taking a normal turn;"),
    rule("start-position", "cypher-chess-rules.txt I.iv", "the initial position: Spies on d0 and d10, the other pieces on ranks 1-3 and 7-9, White moves first").quote("Here are the starting positions for the pieces, white and black respectively: Spies: d0 (white) and d10 (black). [...] Pawns: 3a, 3b, 3c, 3d, 3e, 3f, 3g, and 3h (white); also 7a, 7b, 7c, 7d, 7e, 7f, 7g, and 7h (black)."),
    rule("zones", "cypher-chess-rules.txt III.i-iii", "Court is the perimeter (files z and i, ranks 0 and 10), the Border is a5-h5, the Field is the rest; a piece's zone is its square's").quote("The area of the board designated as “the Court,” which is the board’s perimeter, includes squares [...] The area of the board designated as “the Border,” which is the middle row, includes squares a5, b5, c5, d5, e5, f5, g5, h5. [...] The eight rows of squares outside of the Court and Border comprise “the Field.”"),
    // Movement.
    rule("own-piece-on-target", "cypher-chess-rules.txt II.i (classical chess's movement, FIDE Laws of Chess 3.1)", "a piece may not move onto a square held by its own side").quote("Except for the Spy and Knight, all the pieces move as they do in classical chess."),
    rule("queen-move", "cypher-chess-rules.txt II.i", "the queen moves any distance along a file, rank or diagonal").quote("Except for the Spy and Knight, all the pieces move as they do in classical chess. For example, Queens move horizontally, vertically and diagonally;"),
    rule("rook-move", "cypher-chess-rules.txt II.i", "the rook moves any distance along a file or rank").quote("Except for the Spy and Knight, all the pieces move as they do in classical chess. [...] Rooks move horizontally and vertically;"),
    rule("bishop-move", "cypher-chess-rules.txt II.i", "the bishop moves any distance along a diagonal").quote("Except for the Spy and Knight, all the pieces move as they do in classical chess. [...] Bishops move on a diagonal;"),
    rule("king-move", "cypher-chess-rules.txt II.i", "the king moves one square in any direction; there is no castling").quote("Except for the Spy and Knight, all the pieces move as they do in classical chess. [...] Kings move one space in any direction;"),
    rule("spy-move", "cypher-chess-rules.txt II.ii", "the Spy moves like a queen").quote("The Spy moves like the Queen in classical chess."),
    rule("pawn-move", "cypher-chess-rules.txt II.i", "a pawn moves one square straight forward to an empty square; no double step, en passant or promotion").quote("Except for the Spy and Knight, all the pieces move as they do in classical chess. [...] pawns move forward one square, never backwards,"),
    rule("pawn-capture", "cypher-chess-rules.txt II.i", "a pawn captures one square diagonally forward, and moves diagonally only to capture").quote("Except for the Spy and Knight, all the pieces move as they do in classical chess. [...] pawns move forward one square, never backwards, and capture by moving forward one square on a diagonal."),
    rule("pawn-not-on-court", "cypher-chess-rules.txt IV.iii.a", "pawns cannot land on Court squares").quote("Sanctuary in Court: Pawns cannot land on Court squares. Only the Spy and major pieces are permitted to land on Court squares."),
    rule("blocked", "cypher-chess-rules.txt V.viii, cypher-chess-major-pieces-retake.txt IV.g", "sliding pieces cannot pass over another piece (Spies are transparent only for check)").quote("A Court Spy or other major Court piece can cross areas outside of Court to reach another Court square as long as no piece stands in its way, thus remaining in Court. [...] A major piece, according to its natural movements, can cross the board from one side of Court to another, as long as no piece stands it its way."),
    rule("knight-field", "cypher-chess-rules.txt II.iii.b", "a Field knight moves only by the classical L (1,2)").quote("The Field Knight moves in the same way as a knight in classical chess."),
    rule("knight-border", "cypher-chess-rules.txt II.iii.a, II.iii.c", "a Border knight moves by the classical L (1,2) or the extended L (1,3)").quote("The extended “L” involves adding one square to the longer portion of the “L,” for a total of 4 squares up, down, left or right. [...] The Border Knight (i.e. a Knight on a Border square) can move either in the classical or extended “L” pattern."),
    rule("knight-court-entry", "cypher-chess-rules.txt II.iii.d", "a knight entering Court from outside must move by the classical L").quote("When entering Court, the Knight must move in a classical L” pattern."),
    rule("knight-court-exit", "cypher-chess-rules.txt II.iii.e, cypher-chess-major-pieces-retake.txt IV.a", "a Court knight, leaving Court or moving to another Court square, moves only by the extended L (1,3)").quote("When a Court Knight exits Court or moves to another Court square, it must move in an extended “L” pattern. [...] However, once in Court, knights exit and attack from Court by moving one extra square forward."),
    rule("invented-piece", "Betza's funny notation, as the scenario language reads it; cypher-chess-rules.txt III-V for major pieces", "an invented piece, written as its Betza design (`(WD)e4`), is a non-royal major piece: it moves by its design's atoms (`m` only moves, `c` only captures, riders are blocked by pieces; Spies are transparent only for check, as for the other majors) and every rule of major pieces applies to it: the zone capture rules and sanctuaries, Court entry only after the Court Spy's exit, re-take, checking by the zone rules of majors, infiltration; reading: in the coup d'etat order it ranks below every named piece (queen, knight, bishop, rook, pawn)").quote("Each area of the board bestows a varying degree of sanctuary — immunity from attack — on the major pieces (the back row of pieces in classical chess, i.e. King, Queen, Bishop, Knight, and Rook):"),
    // Captures.
    rule("no-king-capture", "cypher-chess-rules.txt III.i", "a King is never captured: it is checked, mated or flipped (decision: moving onto a King is refused with this id)").quote("As in classical chess, victory goes to the color who manages to checkmate the opposing King. But one side can also claim victory through what is termed “flipping.”"),
    rule("spy-immunity", "cypher-chess-rules.txt IV.iii.d, VI.i.e", "no piece captures a Spy by moving onto it; a Spy leaves the board only by infiltration (and is otherwise flipped)").quote("Major Court pieces cannot capture the Court Spy, Border Spy or Field Spy. [...] Note that outside of the King flipping the Spy, infiltration is the only means by which a Spy can be captured."),
    rule("spy-capture-powers", "cypher-chess-rules.txt IV.iv.a, IV.iv.b, V.ix", "the Spy captures only opposing major pieces standing in Court, and only from another Court square; it takes pawns only under spy-captures-pawns = yes").quote("Sanctuary and the Spy: The Spy cannot capture major pieces in the Border and Field areas. [...] The Spy can capture major opposing pieces that are on Court squares, it can flip the Court King, and it can check the Border and Field King. [...] To capture a major piece that sits on a Court square, the Spy must do so from another Court square."),
    rule("field-sanctuary", "cypher-chess-rules.txt IV.i.a", "major pieces in the Field cannot be captured by major Field pieces (except by re-take)").quote("Sanctuary in the Field: Major pieces have sanctuary from attack by other major Field pieces, but they can be captured by and capture pawns."),
    rule("field-reach", "cypher-chess-rules.txt IV.i.b", "major Field pieces cannot capture major pieces on the Border or in Court").quote("Major Field pieces cannot capture major pieces on the Border or in Court, but they can capture Border pawns."),
    rule("border-sanctuary", "cypher-chess-rules.txt IV.ii.a, V.ii", "a major piece (other than the King) on the Border can be captured only by a pawn; Border majors cannot take each other").quote("Sanctuary on the Border: Major pieces (except the King) have sanctuary from attack by other major pieces on the Border. [...] Once a major piece, except the King, occupies a Border square, only an opposing pawn can threaten it with capture."),
    rule("court-reach", "cypher-chess-rules.txt IV.ii.c, IV.iii.c", "Court pieces cannot capture major pieces on the Border").quote("Major Border pieces, other than the King, cannot be captured by Court pieces. [...] Major Court pieces can capture the major pieces in the Field but not major pieces on the Border;"),
    rule("court-sanctuary", "cypher-chess-rules.txt IV.iii.b, V.ix", "only the Spy, from another Court square, captures major pieces in Court; no other piece can").quote("Neither pawns nor major Field and Border pieces can attack Court pieces, but major Court pieces can be captured by the Court Spy. [...] Only the Spy can capture major pieces (except the King) in Court. To capture a major piece that sits on a Court square, the Spy must do so from another Court square."),
    rule("retake", "cypher-chess-rules.txt V.xiii-V.xiv.ii, cypher-chess-major-pieces-retake.txt IV.b, IV.e, IV.f", "right after a non-King major from Court or Border captures a major in the Field, a major Field piece (King included) may capture it on the very next turn only; a re-take enables no other").quote("If a major piece from the Court (or Border) other than the King captures a major piece in the Field, the capturing piece can be immediately re-taken by an opposing major Field piece, including the King. [...] When this occurs, yet another major Field piece cannot respond to the re-take with another retake. The re-take must done immediately, not on some future turn. [...] The “re-taking” rule only applies to captures of major pieces ex-ecuted by other major pieces launched from Border or Court squares."),
    // Check and the Kings.
    rule("own-king-in-check", "cypher-chess-rules.txt III.i, IV.v, V.iii, V.iv, V.xii", "no turn may leave the mover's King in check; Field and Border Kings are checked by Field pawns, Border pawns (option), Border and Court majors (King and Spy included), Field Spies (option); Border and Field Spies are transparent").quote("As in classical chess, victory goes to the color who manages to checkmate the opposing King. [...] The Court King cannot be checked or mated. [...] The Border King: The field Pawns, major pieces on the Border and at Court, including the Court and Border Spy. [...] The Border or Field Spy of either color is transparent when standing in between the King and a checking piece. [...] From Court (and Border) squares, major pieces, including the King and Spy, can check the Field or Border King."),
    rule("border-kings-apart", "cypher-chess-rules.txt III.ii.d", "two Kings on the Border may never stand next to each other").quote("If both Kings are on the Border, they cannot stand next to each other."),
    rule("king-court-entry", "cypher-chess-rules.txt V.vi, III.iii.a", "a King enters Court by its own step only while the opposing Spy is not in Court").quote("While the major pieces need the Spy to trigger their entry into Court, the King enters Court by its own movement, as long as the opposing Spy is not present in Court. [...] The Court King cannot move to a square next to either the opposing Court Spy or its own Spy."),
    rule("court-entry-trigger", "cypher-chess-rules.txt V.v.i-V.v.iii, V.vii", "a major piece other than the King enters Court from outside only as the second action of a turn whose first action moves the Court Spy out of Court, by its own (knight: classical) movement, without capturing").quote("Instead, a major piece’s movement into Court must be triggered by the Spy that shares the piece’s color. [...] If a player moves the Court Spy onto a Field or Border square, then he or she has the option of also moving a major piece (except the King) onto a Court square via its default movements. Recall that the rules dictate that the Knight must enter using the classical “L” pattern. [...] For triggering entry of a major piece into Court, the Court Spy first assumes its new position outside of Court, then the major piece goes to its new Court square. [...] If, after a major piece leaves Court, re-entry to Court must be triggered by the Spy."),
    rule("action-by-action", "cypher-chess-rules.txt V.v.iii, VI.i.a, cypher-chess-flipping.txt VII.d.1", "a two-action turn is judged action by action: the first (the Court Spy's exit, V.v.iii 'first assumes its new position'; the King's step onto the Border, VI.i.a 'manages to move onto a Border square') must be legal by itself under the Spy and King rules (III.ii, III.iii, VII.d), and if it decides the game the turn ends there (game-over); the second is judged on the board it leaves; only whether the mover's King is left in check (III.i, IV.v) is judged once, at the end of the turn").quote("For triggering entry of a major piece into Court, the Court Spy first assumes its new position outside of Court, then the major piece goes to its new Court square. [...] A player whose King manages to move onto a Border square has the option of moving one of its own major pieces other than itself (i.e. the Knight, Bishop, Rook, Queen or Spy) to either d0 or d10. [...] If a Court Spy lines itself up with a Court King, and there are no other pieces standing between them, the game is over, in the Spy's favor."),
    rule("one-entry-per-exit", "cypher-chess-rules.txt V.v.iv", "one Spy exit lets in exactly one piece: a turn has at most two actions").quote("The Spy cannot trigger the entry of an additional piece to Court until first re-entering Court then exiting."),
    rule("court-crossing", "cypher-chess-rules.txt V.viii, V.x, cypher-chess-major-pieces-retake.txt IV.g", "a Court piece may cross the Field and Border to another Court square without a trigger").quote("A Court Spy or other major Court piece can cross areas outside of Court to reach another Court square as long as no piece stands in its way, thus remaining in Court. [...] The Court Spy can capture any opposing major Court piece (except the King), even when the two pieces are on opposite sides of the board, by crossing the Field/Border area, as long as there are no blocking pieces. [...] A major piece, according to its natural movements, can cross the board from one side of Court to another, as long as no piece stands it its way."),
    // Spies and Kings.
    rule("king-beside-own-spy", "cypher-chess-rules.txt III.ii.a, cypher-chess-flipping.txt VII.d.3", "a King may never move (or be left) next to its own Spy (option king-beside-own-spy: illegal, or that side loses by flip); the Spy's own step there is spy-beside-own-king").quote("The King can never stand next to its own Spy, anywhere on the board. [...] If, anywhere on the board, the King winds up next to his own Spy, he has been flipped and loses the game."),
    rule("spy-beside-enemy-spy", "cypher-chess-rules.txt III.ii.b, cypher-chess-flipping.txt VII.d.4", "a Spy may never land next to the opposing Spy (option spy-beside-enemy-spy: illegal, or the Spy that landed loses by flip)").quote("The Spy can never stand next to the opposing Spy, anywhere on the board. [...] If the Spy lands next to the opposing Spy, he has been flipped by the opposition, thus losing the game."),
    rule("spy-beside-king", "cypher-chess-rules.txt III.ii.c, cypher-chess-flipping.txt VII.d.2", "a Spy cannot move next to the opposing King (next to a King outside Court, option spy-beside-enemy-king: illegal, or the Spy's side loses by flip)").quote("The Spy cannot move to a square next to either King, anywhere on the board. (At Court, he can capture [i.e. \"flip\"] the opposing King, but he must be at least 1 empty square away.) [...] If, when the King is outside of Court, and it moves or otherwise winds up next to the opposing Spy, no matter in what sector it stands, the King has flipped the Spy and won the game."),
    rule("spy-beside-own-king", "cypher-chess-rules.txt III.ii.c, cypher-chess-flipping.txt VII.d.3", "a Spy cannot move next to its own King (option spy-beside-own-king: illegal, or that side loses by flip)").quote("The Spy cannot move to a square next to either King, anywhere on the board. [...] If, anywhere on the board, the King winds up next to his own Spy, he has been flipped and loses the game."),
    rule("king-flips-spy", "cypher-chess-rules.txt III.iii.a-c, cypher-chess-flipping.txt VII.d.2", "a King that ends its move next to the opposing Spy, unless both stand in Court, flips the Spy and wins (the flipped Spy's own attack does not count against that move)").quote("If the Court King moves next to an opposing Border Spy or Field Spy, then it flips the Border or Field Spy. [...] the Border King CAN move to a square next to an opposing Court Spy, Border Spy or Field Spy. If the Border King moves next to an opposing Court Spy, Border Spy or Field Spy, then it flips the Court, Border or Field Spy. [...] If the Field King moves next to an opposing Court Spy, Border Spy or Field Spy, then it flips the Court, Border or Field Spy. [...] If, when the King is outside of Court, and it moves or otherwise winds up next to the opposing Spy, no matter in what sector it stands, the King has flipped the Spy and won the game. [...] then the King can move next to the Spy, thereby escaping check and flipping him and ending the game."),
    rule("court-king-beside-court-spy", "cypher-chess-rules.txt III.iii.a", "a Court King cannot move next to the opposing Court Spy").quote("The Court King cannot move to a square next to either the opposing Court Spy or its own Spy."),
    rule("spy-flips-king", "cypher-chess-rules.txt III.iii.a, cypher-chess-flipping.txt VII.d.1", "a Court Spy on one line with the opposing Court King, no piece between and at least one empty square between, flips the King and wins").quote("If the Court Spy lines itself up with the opposing Court King, moving to a position at least one empty square away from it, then the Court Spy flips the opposing Court King. Even when the Court Spy and opposing Court King are each standing at opposite ends of the board, the Court Spy can flip it, as long as they both stand on the same horizontal, vertical or diagonal line relative to each other and there are no blocking pieces. [...] If a Court Spy lines itself up with a Court King, and there are no other pieces standing between them, the game is over, in the Spy's favor."),
    rule("king-into-spy-line", "cypher-chess-flipping.txt VII.d.1, cypher-chess-rules.txt III.iii.a", "a turn that leaves the mover's own Court King on the line of the opposing Court Spy: loses by flip (option king-into-spy-line), or is illegal").quote("If a Court Spy lines itself up with a Court King, and there are no other pieces standing between them, the game is over, in the Spy's favor. No matter how that situation arose and no matter how many squares are between them or whether they stand at opposite sides of the board from each other, we say the Spy has flipped the King. [...] The Court King cannot move to a square next to either the opposing Court Spy or its own Spy."),
    // Other rules.
    rule("infiltration", "cypher-chess-rules.txt VI.i.a-c", "after a King's move onto the Border, the same turn may move one own knight, bishop, rook, queen or Spy to d0 or d10, removing what stands there; removing the enemy King wins").quote("Infiltration: A player whose King manages to move onto a Border square has the option of moving one of its own major pieces other than itself (i.e. the Knight, Bishop, Rook, Queen or Spy) to either d0 or d10. [...] Any piece already occupying the square is removed from the board. [...] If infiltration leads to the opposing King being removed from d0 or d10, then the game ends in victory for the infiltrating color."),
    rule("infiltration-once", "cypher-chess-rules.txt VI.i.d", "each side infiltrates at most once per game").quote("Each side can complete infiltration once per game no matter how many times its King lands on the Border."),
    rule("coup", "cypher-chess-rules.txt VI.ii.a-c", "a pawn landing on its last Field row (9 for White, 1 for Black) is removed and the highest opposing piece (queen, knight, bishop, rook, pawn) changes sides").quote("Coup d’état: If a pawn lands on the last row of Field squares (row 9 for White; row 1 for Black), a Coup d’état ensues— the pawn is removed from the board and the highest ranking piece (excluding the King and the Spy) of the opposing color switches allegiance, effective immediately. [...] When applying this rule, players should use the following ranking order of major pieces, from highest to lowest: Queen, Knight, Bishop, Rook, pawn."),
    rule("coup-choice", "cypher-chess-rules.txt VI.ii.b", "with several opposing pieces of the highest rank the coup maker names one (`coup Nf9`); with one or none, nothing is named").quote("If the attacked color has two of same type of piece remaining, the player who initiated the coup chooses which piece to bring under his or her banner."),
    rule("coup-bare-king", "cypher-chess-rules.txt VI.ii.d", "a coup that leaves the opponent with only King and Spy (or King) wins (option coup-bare-king)").quote("If a player achieves Coup d’état and the only pieces remaining on the opposing side are the Spy and King or just the King, the game ends in favor of the player who created the coup."),
    rule("prisoner-release", "cypher-chess-rules.txt VI.iii.a-c", "instead of moving, a player not in check may put one of their captured pawns on an empty Border square, if it gives no check").quote("The player can reclaim the pawn in lieu of taking a normal turn; [...] the player must not be in check anywhere on the board; [...] and the player can place the pawn on any available Border square, as long such placement does not put the opposing King in check."),
    // Claims and the end of the game.
    rule("capture-mark", "FIDE Laws of Chess Appendix C.9 (chess's notation: the Cypher texts have none)", "`x` marks a capture by movement and `-` a move to an empty square (and an infiltration placement)").quote("When a piece makes a capture, an x may be inserted between: [...] the abbreviation of the name of the piece in question and [...] the square of arrival."),
    rule("check-claim", "FIDE Laws of Chess Appendix C.13 (chess's notation: the Cypher texts have none)", "`+` claims that the turn gives check and `#` that it mates").quote("+ = check [...] ++ or # = checkmate"),
    rule("game-over", "cypher-chess-rules.txt III.i, VI.i.c, VI.ii.d", "once the game is decided no further turn is played, and no further action of the turn that decided it").quote("As in classical chess, victory goes to the color who manages to checkmate the opposing King. [...] If infiltration leads to the opposing King being removed from d0 or d10, then the game ends in victory for the infiltrating color. [...] If a player achieves Coup d’état and the only pieces remaining on the opposing side are the Spy and King or just the King, the game ends in favor of the player who created the coup."),
    rule("checkmate", "cypher-chess-rules.txt III.i", "the side to move, in check with no legal turn, loses").quote("As in classical chess, victory goes to the color who manages to checkmate the opposing King."),
    rule("stalemate", "FIDE Laws of Chess 5.2.1 (classical chess's rule: the Cypher texts never mention stalemate; option stalemate)", "the side to move, not in check with no legal turn: a draw, or a loss under stalemate = loss").quote("The game is drawn when the player to move has no legal move and his/her king is not in check. The game is said to end in 'stalemate'."),
    rule("resignation", "FIDE Laws of Chess 5.1.2 (classical chess's rule: the Cypher texts never mention resigning)", "as in classical chess, the player whose opponent resigns wins").quote("The game is lost by the player who declares he/she resigns (this immediately ends the game)"),
    rule("agreement", "cypher-chess-rules.txt VI.iv", "a draw occurs by agreement").quote("A draw occurs by agreement"),
    rule("repetition", "cypher-chess-rules.txt VI.iv", "a draw occurs when the same position appears three times with the same player to move").quote("as in standard chess, a draw occurs when the same board position has appeared three times in the game, with the same player to move."),
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
