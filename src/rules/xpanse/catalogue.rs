//! The rule, option, state-key and invariant catalogue of ChessXpanse. The text has no
//! numbered clauses, so each rule cites `chessxpanse-rules.txt` by its section heading (and,
//! for the three Pawn Reborn rules, which the text numbers "1." each, by the rule's title).

use crate::rules::{rule, InvariantDef, KeyDef, OptionDef, RuleDef};

pub static RULES: &[RuleDef] = &[
    // The board and the set-up.
    rule("board-sizes", "chessxpanse-rules.txt General", "battles are played on six boards: 4x5, 5x5, 5x6, 6x6, 6x7 and 7x7 (files x ranks)")
        .quote("ChessXpanse Battles are played on six different game-board sizes (4 x 5 square, 5 x 5 square, 5 x 6 square, 6 x 6 square, 6 x 7 square, and 7 x 7 square)."),
    rule("piece-limits", "chessxpanse-rules.txt Nine Pieces", "a side has at most one Gatekeeper, one Mage and one Archer, 3 Kings, 3 Pawns, 4 Rooks, 5 Bishops, 5 Knights and 3 Queens, and at least one King; the starting arrays are not published, so a position is given by `board` or `fen`, and only these upper limits are checked")
        .quote("In any given Battle, there may be between 1-3 Pawns, 2-4 Rooks, 1-5 Bishops, 2-5 Knights, 2-3 Queens, and/or 1-3 Kings on each side. There can only be one Gatekeeper, one Archer and one Mage per side in any given Battle."),
    // Whose piece, which action.
    rule("not-your-turn", "chessxpanse-rules.txt General", "players alternate; a player moves only pieces of their own colour (Gold is white, Blue is black)")
        .quote("The less advanced player goes first, after which players alternate."),
    rule("no-piece-there", "FIDE Laws of Chess 1.1 (chess's rule: the ChessXpanse text has none)", "a move starts from a square holding one of the player's pieces")
        .quote("The game of chess is played between two opponents who move their pieces on a square board called a 'chessboard'."),
    rule("no-such-piece", "chessxpanse-rules.txt Nine Pieces", "the piece named by the move must be one of the player's pieces able to go there")
        .quote("There are nine pieces that appear throughout the game, including the six standard Chess pieces (Pawn, King, Queen, Bishop, Knight, and Rook) and three new Magic Pieces™: The Gatekeeper™, The Mage™ and The Archer™."),
    rule("no-such-action", "chessxpanse-rules.txt Other Moves and Rules", "a turn is a move (followed by a pawn's rebirth where one is due) or a pass; there are no drops, coups, purchases or design changes")
        .quote("Pass: Players may use the “Pass” button and transfer their move to the opponent but only twice in one Battle."),
    rule("turn-length", "chessxpanse-rules.txt Pawn Reborn Rules", "a turn is one move, or a move and the rebirth (`reborn c1`) or vanishing (`vanish e5`) it brings")
        .quote("As the Pawn reaches the far row, the player is prompted to select an empty space in the first row in order to complete the two-part move."),
    // Movement of the chess pieces.
    rule("chess-moves", "chessxpanse-rules.txt Nine Pieces", "the King, Queen, Bishop, Knight and Rook keep their characteristic moves from chess")
        .quote("The King, Queen, Bishop, Knight, and Rook each keep their characteristic moves from the game of Chess but their placement on the board is different."),
    rule("blocked", "chessxpanse-rules.txt Nine Pieces", "a Queen, Rook or Bishop cannot move over an intervening piece, as in chess")
        .quote("The King, Queen, Bishop, Knight, and Rook each keep their characteristic moves from the game of Chess [...] Like the Knight in Chess, the three Magic Pieces have the ability to leap over other pieces."),
    rule("own-piece-on-target", "chessxpanse-rules.txt Nine Pieces", "a piece may not move onto a piece of its own side (only a Magic Piece's ricochet goes on from one)")
        .quote("The King, Queen, Bishop, Knight, and Rook each keep their characteristic moves from the game of Chess [...] In addition, the Magic Pieces can ricochet off pieces of the same color and start their characteristic move over again, often in a different direction."),
    rule("kill-mark", "chessxpanse-rules.txt Other Moves and Rules", "`x` marks a kill and `-` a step, a ricochet or a switch: the written leg must say what the move does there")
        .quote("When a piece is taken, it is referred to as having been killed, or it “vanishes” in the case of the Pawn Reborn rules."),
    rule("pawn-move", "chessxpanse-rules.txt The Pawn", "a Pawn moves one square forward onto an empty square and kills one square diagonally forward, as in chess")
        .quote("The Pawn always moves by one, not by two as it can in a first move in Chess."),
    rule("no-double-step", "chessxpanse-rules.txt The Pawn", "the Pawn always moves by one, never by two, not even on its first move")
        .quote("The Pawn always moves by one, not by two as it can in a first move in Chess."),
    rule("pawn-direction", "chessxpanse-rules.txt Ghost Mode", "a side's Pawns move up the board, or, in Ghost Mode, toward their own side (state key `pawn-direction`); forward, far row and first row follow that direction")
        .quote("Pawns normally move forward and up the board unless you are playing in “Ghost Mode.”  In Ghost Mode, the Pawn moves seemingly backwards and towards you (as if a ghost is playing on the other side of the board)."),
    rule("no-castling", "chessxpanse-rules.txt Other Moves and Rules", "there is no castling")
        .quote("There are no “Castling,” “En Passant,” “Promotion” or Stalemate” rules."),
    rule("no-en-passant", "chessxpanse-rules.txt Other Moves and Rules", "there is no en passant")
        .quote("There are no “Castling,” “En Passant,” “Promotion” or Stalemate” rules."),
    rule("no-promotion", "chessxpanse-rules.txt Pawn Reborn Rules, Pawn Reaches Far Row", "a Pawn reaching the far row is not promoted; it is reborn or vanishes")
        .quote("If a Pawn reaches the far row, it may not be promoted to another piece as it can in Chess. In ChessXpanse, when a Pawn reaches the last row, it is either reborn or it vanishes."),
    // The Magic Pieces.
    rule("gatekeeper-move", "chessxpanse-rules.txt The Gatekeeper", "the Gatekeeper moves along a straight line, leaps over the first piece on it, and then lands on the next empty square, kills the next enemy, or ricochets off the next piece of its own colour (options gatekeeper-lines and gatekeeper-landing)")
        .quote("Moves in a straight line and leaps over the next available piece.  It then either 1. Lands in the next available space 2. Makes the next available kill or 3. Makes the next available ricochet off a same-color piece"),
    rule("gatekeeper-ricochet", "chessxpanse-rules.txt The Gatekeeper", "after a ricochet the Gatekeeper turns 90 degrees and repeats the move: it leaps over the next piece and lands or kills")
        .quote("If it ricochets, the Gatekeeper turns 90 degrees perpendicular in a straight line and repeats the same move and leaps over the next available piece and either Lands in the next available space or 1. Makes the next available kill."),
    rule("gatekeeper-no-leap-gatekeeper", "chessxpanse-rules.txt The Gatekeeper", "a Gatekeeper may not leap over another Gatekeeper")
        .quote("A Gatekeeper may not leap over another Gatekeeper."),
    rule("gatekeeper-no-kill-gatekeeper", "chessxpanse-rules.txt The Gatekeeper", "a Gatekeeper may not kill another Gatekeeper")
        .quote("A Gatekeeper may not kill another Gatekeeper."),
    rule("mage-move", "chessxpanse-rules.txt The Mage", "the Mage leaps 3 + 1 squares (a (1,3) leap) in any direction, never four in a straight line, and lands, kills, or ricochets off a piece of its own colour")
        .quote("Moves 3 + 1 spaces (or 1 + 3 spaces) in any direction* and leaps over the spaces in between the start and end of its move and either 1. Lands in a space 2. Makes a kill or 3. Makes a ricochet off a same-color piece which starts a Compound Move. *But not four spaces in a straight line"),
    rule("mage-ricochet", "chessxpanse-rules.txt The Mage", "after a ricochet the Mage leaps again in any direction, and lands or kills")
        .quote("If it ricochets, the Mage moves in any direction and repeats the same move and either 1. Lands in a space or 2. Makes a kill."),
    rule("mage-no-kill-mage", "chessxpanse-rules.txt The Mage", "a Mage may not kill another Mage")
        .quote("A Mage may not kill another Mage."),
    rule("no-second-ricochet", "chessxpanse-rules.txt The Gatekeeper, The Mage", "multiple ricochets are not allowed for the Gatekeeper and the Mage: their second leg must land or kill")
        .quote("Makes the next available kill. Note: multiple ricochets are not allowed. [...] Makes a kill. Note: multiple ricochets are not allowed"),
    rule("archer-move", "chessxpanse-rules.txt The Archer", "the Archer leaps two squares in any of the eight directions and lands, kills, or ricochets off a piece of its own colour")
        .quote("Moves by 2 spaces in any direction and lands in a space or 1. Makes a kill or 2. Makes a ricochet."),
    rule("archer-ricochet", "chessxpanse-rules.txt The Archer", "after a ricochet the Archer leaps two squares again in any direction and lands, kills, or goes on: multiple ricochets and multiple kills in one move (option archer-kill-continues)")
        .quote("If it ricochets, the Archer moves by 2 spaces in any direction and repeats the same move, and either 1. Lands in a Space or 2. Makes a Kill. Or it continues the same Compound Move further and 1. Makes Multiple Ricochets and Lands in a Space or 2. Makes Multiple Ricochets and Makes a Kill or 3. Makes Multiple Ricochets Multiple Kills or 4. Make Multiple Kills."),
    rule("archer-switch", "chessxpanse-rules.txt The Archer, Switch Move", "after one or more ricochets the Archer may end its move on an empty square next to the square of its last ricochet (`Ac1^c3~d3`; option switch-reach)")
        .quote("Switch Move™:  The Archer can switch directions after one or more ricochets by landing in any adjacent empty space which is one space away from its last ricochet."),
    rule("archer-no-kill-archer", "chessxpanse-rules.txt The Archer", "an Archer may not kill another Archer")
        .quote("An Archer May Not Kill Another Archer."),
    rule("ricochet-goes-on", "chessxpanse-rules.txt The Magic Pieces", "a ricochet starts a compound move: a move never ends on the piece it ricochets off")
        .quote("Makes the next available ricochet off a same-color piece which starts a Compound Move: If it ricochets, the Gatekeeper turns 90 degrees perpendicular in a straight line and repeats the same move [...] Makes a ricochet off a same-color piece which starts a Compound Move."),
    rule("path-no-revisit", "chessxpanse-rules.txt The Magic Pieces (silent)", "a Magic Piece's path never stops twice on one square, its starting square included: a ricochet is off a piece once, a piece is killed once, and a move cannot end where it began. The text sets no other bound; this one keeps every move finite and changes no reach, since a path that came back could have stopped the first time")
        .quote("Or it continues the same Compound Move further and 1. Makes Multiple Ricochets and Lands in a Space or 2. Makes Multiple Ricochets and Makes a Kill or 3. Makes Multiple Ricochets Multiple Kills or 4. Make Multiple Kills."),
    // Pawn Reborn.
    rule("pawn-reborn", "chessxpanse-rules.txt Pawn Reborn Rules, Pawn Reaches Far Row", "a Pawn reaching its far row (by a step or a kill) is reborn on an empty square of its first row chosen by the player (`c4-c5; reborn c1`), or vanishes (`c4-c5`); with no empty square on the first row it vanishes")
        .quote("In ChessXpanse, when a Pawn reaches the last row, it is either reborn or it vanishes. For a Pawn to be reborn, there must be an empty space in the first row for it to fill. As the Pawn reaches the far row, the player is prompted to select an empty space in the first row in order to complete the two-part move. [...] If there is no empty space(s) on the first row, or the player chooses not to have the Pawn reborn, then the Pawn will vanish automatically."),
    rule("dormant-pawn", "chessxpanse-rules.txt Pawn Reborn Rules, Dormant Pawn Reborn", "a Pawn standing on its far row is dormant: it cannot move. When another Pawn of its side reaches the far row, the dormant Pawn is reborn (or vanishes) instead, and the arriving Pawn stays. With several dormant Pawns the player names the one concerned (`reborn e5-c1`, `vanish e5`)")
        .quote("If a Pawn’s starting position is on the far row, it is called a “dormant” pawn because it cannot move on its own.  If another Pawn reaches an empty space in the far row, the Pawn Reborn Rule may be enacted, but it is the Dormant Pawnthat will be reborn, not the Pawn that reached the far row. If there is no empty space on the first row, or the player chooses not to have the Dormant Pawn Reborn, then the Dormant Pawn will vanish automatically."),
    rule("dormant-vacate", "chessxpanse-rules.txt Pawn Reborn Rules, Vacating a Space on the First Row", "when a piece leaves a square of its side's first row while that side has a dormant Pawn, the dormant Pawn is reborn on the square just vacated (`Rc1-c3; reborn c1`) or vanishes (`Rc1-c3`)")
        .quote("A special rule exists where if there is a Dormant Pawn on the far row, and a piece of the same color vacates a space on the first row, the player has a choice: Select the empty space on the first row from which it vacated, and the Dormant Pawnwill be reborn to that space. If the player chooses not to have the Dormant Pawn reborn, then the Dormant Pawn will vanish automatically."),
    // No check; the end of a battle.
    rule("no-check", "chessxpanse-rules.txt Other Moves and Rules", "there is no check: a King may stand attacked and may move into attack; `+` and `#` claims and `expect check` do not apply")
        .quote("There Is no “check” in ChessXpanse, only the death of the opponent’s last King wins the battle. A player may move in and out of “check” and may be part of a strategy and is a legal move."),
    rule("check-claim", "chessxpanse-rules.txt Other Moves and Rules", "a `+` or `#` claim is refused: there is no check in ChessXpanse")
        .quote("There Is no “check” in ChessXpanse, only the death of the opponent’s last King wins the battle."),
    rule("extinction", "chessxpanse-rules.txt The Game, General", "the first player to kill the opponent's last King wins the battle")
        .quote("The battle is a fight to the death of the opponent’s last King. [...] The first player to kill the opponent’s last King wins the Battle."),
    rule("no-draws", "chessxpanse-rules.txt General", "there are no draws: `draw` is not a turn")
        .quote("There are no draws."),
    rule("no-legal-move", "chessxpanse-rules.txt Other Moves and Rules (silent)", "a player with no legal move and no pass left: there is no stalemate and no draw, so the battle must end (option no-legal-move)")
        .quote("Pass: Players may use the “Pass” button and transfer their move to the opponent but only twice in one Battle. [...] There are no “Castling,” “En Passant,” “Promotion” or Stalemate” rules."),
    rule("pass", "chessxpanse-rules.txt Other Moves and Rules, Pass", "a player may pass, transferring the move to the opponent, at most twice in one battle (state key `passes`)")
        .quote("Pass: Players may use the “Pass” button and transfer their move to the opponent but only twice in one Battle."),
    rule("resignation", "chessxpanse-rules.txt Other Moves and Rules, Surrender", "a player may surrender the battle (`resign`); the opponent wins it")
        .quote("Surrender: Players may use the “Surrender” button to surrender either that Battle or the overall War."),
    rule("challenge", "chessxpanse-rules.txt Other Moves and Rules, Challenge", "a player reduced to two pieces (or fewer) must kill the opponent's last King within two of their own turns (passes count), or loses the battle (state key `challenge-moves`)")
        .quote("Challenge: If a player’s piece count is reduced to two pieces, then that player is challenged to win in two moves or to surrender. If that player does not take his opponent’s last king in two moves, he loses the Battle."),
    rule("kill-rule", "chessxpanse-rules.txt Other Moves and Rules, 10 Kill Rule", "the first player to move ten times without making a kill loses the battle (state key `moves-without-kill`; options kill-rule-count and pass-counts)")
        .quote("10 Kill Rule: The first player to move ten times without making a kill loses the Battle."),
    rule("game-over", "chessxpanse-rules.txt The Game", "once a battle is decided no further turn is played in it")
        .quote("The battle is a fight to the death of the opponent’s last King."),
    // Wars and timeouts.
    rule("war", "chessxpanse-rules.txt General", "a war is 3, 5, 7, 9 or 11 battles, and the player who wins the majority wins it (state keys `war-length`, `battles-won`, `war-winner`)")
        .quote("Wars consist of either 3, 5, 7, 9 or 11 Battles and the player to win the majority of Battles, wins the War."),
    rule("timeout", "chessxpanse-rules.txt Timeouts", "a player who times out (`timeout`) loses the battle")
        .quote("When a player times-out, that player loses the Battle."),
    rule("timeout-war", "chessxpanse-rules.txt Timeouts", "a player who times out two moves in a row, the first move of the next battle included, loses the war (state key `timeouts`)")
        .quote("When a player times-out wo moves in a row (including the first move of a second Battle), that player loses the War."),
    rule("presentation", "chessxpanse-rules.txt Board Rotation, Levels, Ranking, Etiquette, Timed Moves, Pre-Game Negotiation", "out of scope: board rotation, levels, ranking and Rank Points, etiquette, the clock's length, the choice of boards and rotations, and match negotiation are the app's presentation, not rules of play; arbiter does not model them")
        .quote("As the gameboard changes or rotates, your Pawns’ orientation will adjust accordingly. [...] There are eleven levels of play. Each level is defined by board size(s). [...] The following systems of rank combine in a player’s Infinity Score (1 through 11). [...] Fair play and a positive playing environment are encouraged. [...] Individual moves are timed, but not Battles and/or Wars. [...] Design Your Match: gives players a chance to influence the app on the specifications of War played."),
];

pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        name: "gatekeeper-lines",
        values: &["orthogonal", "all"],
        default: "orthogonal",
        reason: "\"moves in a straight line\" and \"turns 90 degrees perpendicular\": in chess writing a straight line is a rank or a file, as against a diagonal, and the one example (`Ga1-a4-d4`) is orthogonal; all reads a diagonal as a straight line too, turning onto the other diagonal after a ricochet",
    },
    OptionDef {
        name: "gatekeeper-landing",
        values: &["next-square", "next-piece"],
        default: "next-square",
        reason: "\"lands in the next available space, makes the next available kill, or makes the next available ricochet\": the square right after the leaped piece decides, like a grasshopper (empty: it lands; enemy: it kills; friend: it ricochets), so the three outcomes are the three things that square can hold. next-piece lets it also go on over empty squares to the first piece beyond, and kill it or ricochet off it",
    },
    OptionDef {
        name: "ricochet-from",
        values: &["piece", "before"],
        default: "piece",
        reason: "the contract's paths write the friendly piece's square as a stop where the next leg begins (`Ac1-c3-e5`, `Ga1-a4-d4`); before starts the next leg from the square just before that piece on the line of the leg (the Archer's middle square, the Gatekeeper's square before the piece), as a ball bounces off a wall. The Mage's (1,3) leap has no such square, so it always goes on from the piece",
    },
    OptionDef {
        name: "archer-kill-continues",
        values: &["after-ricochet", "always", "never"],
        default: "after-ricochet",
        reason: "multiple kills are listed only as ways to continue the Compound Move, which a ricochet starts; the first leg's list (\"lands in a space or makes a kill or makes a ricochet\") ends the move at a kill. always lets a kill go on even without a ricochet before it; never ends every move at its first kill (multiple kills then never happen)",
    },
    OptionDef {
        name: "switch-reach",
        values: &["adjacent", "orthogonal"],
        default: "adjacent",
        reason: "\"any adjacent empty space which is one space away from its last ricochet\": any of the eight neighbours; orthogonal reads \"one space away\" as a rook's step",
    },
    OptionDef {
        name: "kill-rule-count",
        values: &["since-last-kill", "from-start"],
        default: "since-last-kill",
        reason: "\"the first player to move ten times without making a kill\" reads as ten moves in a row without a kill, like chess's fifty-move rule counting from the last capture; from-start counts every move without a kill since the battle began",
    },
    OptionDef {
        name: "pass-counts",
        values: &["no", "yes"],
        default: "no",
        reason: "a pass \"transfers the move to the opponent\": a player who passes has not moved, so it is not one of the ten moves; yes counts a pass as a move without a kill",
    },
    OptionDef {
        name: "no-legal-move",
        values: &["loses", "passes"],
        default: "loses",
        reason: "there is no stalemate and there are no draws, so a player who can neither move nor pass cannot go on and loses the battle; passes lets them hand the move back without using one of their two passes",
    },
    OptionDef {
        name: "last-king-kill",
        values: &["goes-on", "ends-move"],
        default: "goes-on",
        reason: "the Archer's Compound Move may \"make multiple kills\" with no exception for a King, and \"the first player to kill the opponent's last King wins the Battle\" decides the battle once the turn is made, not in the middle of it: a path may go on after the last King's kill (and the battle is still won by it). ends-move ends the move at that kill, since the battle is won there",
    },
    OptionDef {
        name: "dormant-on-kill",
        values: &["yes", "no"],
        default: "yes",
        reason: "\"If a Pawn reaches the far row, it may not be promoted [...] it is either reborn or it vanishes\" treats every arrival alike, a kill included, and the Dormant Pawn rule says only whose rebirth it is (\"it is the Dormant Pawn that will be reborn, not the Pawn that reached the far row\"); its \"reaches an empty space in the far row\" describes where a Pawn's forward step goes. no reads \"an empty space\" literally: a Pawn arriving by a kill leaves the dormant Pawn where it is and is itself reborn or vanishes",
    },
    OptionDef {
        name: "switch-from",
        values: &["piece", "leg-start"],
        default: "piece",
        reason: "\"landing in any adjacent empty space which is one space away from its last ricochet\": a ricochet is made \"off a same-color piece\", so its place is that piece's square. leg-start puts it where the next leg starts, which differs only under ricochet-from = before (the square before the piece, where the ball turns)",
    },
    OptionDef {
        name: "same-board-paths",
        values: &["distinct", "one-turn"],
        default: "distinct",
        reason: "a Magic Piece's move is its path (\"their overall move will often take place in two parts\"; a ricochet is a Compound Move), and a turn is written with every stop (`Ac1-c3-e5`), so two paths are two moves even where they leave the same board (a direct leap and a ricochet path to one square, a leap and a switch). one-turn counts them as one turn, the one with the fewest legs (then the first by its text), as a list of positions would; any of its paths, written, names that turn",
    },
    OptionDef {
        name: "dormant-choice",
        values: &["player", "nearest"],
        default: "player",
        reason: "the text speaks of one Dormant Pawn (\"it is the Dormant Pawn that will be reborn\") and leaves the choice of a rebirth to the player (\"the player has a choice\", \"prompted to select\"), so with several dormant Pawns the player also chooses which (`reborn e5-c1`). nearest takes the dormant Pawn whose file is nearest the arriving Pawn (or the square vacated), the player choosing only between two equally near",
    },
];

pub static STATE_KEYS: &[KeyDef] = &[
    KeyDef {
        name: "passes",
        per_color: true,
        values: "0, 1 or 2",
        summary: "the passes the player has used in this battle",
    },
    KeyDef {
        name: "moves-without-kill",
        per_color: true,
        values: "0 to 9, or 10 for the side that moved last (the battle is then over)",
        summary: "the player's moves without a kill, as the 10 Kill Rule counts them",
    },
    KeyDef {
        name: "challenge-moves",
        per_color: true,
        values: "- (not challenged), 0 or 1, or 2 for the side that moved last (the battle is then over)",
        summary: "the turns the player has played since being reduced to two pieces",
    },
    KeyDef {
        name: "pawn-direction",
        per_color: true,
        values: "up or down",
        summary: "which way the player's Pawns move: up (toward the higher ranks) or down; White's down and Black's up are Ghost Mode",
    },
    KeyDef {
        name: "timeouts",
        per_color: true,
        values: "0, 1 or 2",
        summary: "the player's timeouts in a row (the last move of the previous battle included); 2 loses the war",
    },
    KeyDef {
        name: "war-length",
        per_color: false,
        values: "1 (a single battle), 3, 5, 7, 9 or 11",
        summary: "the number of battles of the war",
    },
    KeyDef {
        name: "battles-won",
        per_color: true,
        values: "a number below the majority",
        summary: "the battles the player has won in this war, this one included once it is decided",
    },
    KeyDef {
        name: "war-winner",
        per_color: false,
        values: "white, black or none (read-only)",
        summary: "who has won the war: by the majority of battles, or because the other timed out twice in a row",
    },
    KeyDef {
        name: "fen",
        per_color: false,
        values: "a ChessXpanse FEN (read-only)",
        summary: "the whole battle position: placement, side, passes, moves without a kill, challenges, pawn directions",
    },
];

pub static INVARIANTS: &[InvariantDef] = &[
    InvariantDef {
        name: "no-magic-kills-its-kind",
        summary: "no Gatekeeper, Mage or Archer ever kills an enemy piece of its own kind (read from the pieces on the board before and after the turn)",
    },
    InvariantDef {
        name: "pawns-never-rest-on-far-row",
        summary: "a Pawn that reaches its far row never stays there on its own: a side's Pawns on its far row are never more than its dormant Pawns of the set-up",
    },
    InvariantDef {
        name: "passes-at-most-two",
        summary: "no player has passed more than twice in the battle (read from the FEN)",
    },
    InvariantDef {
        name: "battle-ends-when-last-king-dies",
        summary: "a side with no King on the board has lost by extinction, and a battle with Kings on both sides has not ended by extinction",
    },
    InvariantDef {
        name: "piece-limits",
        summary: "no side ever has more pieces of a kind than the Nine Pieces limits, nor a piece that ChessXpanse does not have (counted from the board)",
    },
    InvariantDef {
        name: "pieces-never-gained",
        summary: "no turn adds a piece to either side: rebirths move a pawn, they never make one (counted from the board before and after the turn)",
    },
    InvariantDef {
        name: "no-check",
        summary: "whatever attacks a King, the side to move always has a legal turn unless the battle is over or both passes are spent, and a King's moves are never limited by attack: every King move the geometry allows onto a square not of its own side is legal",
    },
];
