//! The rule, option, state-key and invariant catalogue of orthodox chess.

use crate::rules::{rule, InvariantDef, KeyDef, OptionDef, RuleDef};

pub static RULES: &[RuleDef] = &[
    // Whose move, and what a move is.
    rule("not-your-turn", "FIDE Laws of Chess 1.1, 1.2", "the players move alternately; a player moves only pieces of their own colour")
        .quote("The game of chess is played between two opponents who move their pieces on a square board called a 'chessboard'. [...] The player with the light-coloured pieces (White) makes the first move, then the players move alternately, with the player with the dark-coloured pieces (Black) making the next move."),
    rule("no-piece-there", "FIDE Laws of Chess 1.1", "a move starts from a square holding a piece of the player's colour")
        .quote("The game of chess is played between two opponents who move their pieces on a square board called a 'chessboard'."),
    rule("no-such-piece", "FIDE Laws of Chess 2.2, Appendix C.8", "the piece named by the move must be one of the player's pieces able to go there")
        .quote("At the beginning of the game White has 16 light-coloured pieces (the 'white' pieces); Black has 16 dark-coloured pieces (the 'black' pieces) [...] Each move of a piece is indicated by the abbreviation of the name of the piece in question and the square of arrival."),
    rule("turn-length", "FIDE Laws of Chess 1.2", "a chess turn is exactly one move")
        .quote("The player with the light-coloured pieces (White) makes the first move, then the players move alternately, with the player with the dark-coloured pieces (Black) making the next move."),
    rule("no-such-action", "FIDE Laws of Chess 1.1", "the only action of a chess turn is a move of a piece on the board; there is no drop, pass, coup, rebirth, purchase or redesign")
        .quote("The game of chess is played between two opponents who move their pieces on a square board called a 'chessboard'."),
    // Piece movement.
    rule("own-piece-on-target", "FIDE Laws of Chess 3.1", "a piece may not move to a square occupied by a piece of the same colour")
        .quote("It is not permitted to move a piece to a square occupied by a piece of the same colour."),
    rule("bishop-move", "FIDE Laws of Chess 3.2", "the bishop moves any number of squares along a diagonal")
        .quote("The bishop may move to any square along a diagonal on which it stands."),
    rule("rook-move", "FIDE Laws of Chess 3.3", "the rook moves any number of squares along a file or a rank")
        .quote("The rook may move to any square along the file or the rank on which it stands."),
    rule("queen-move", "FIDE Laws of Chess 3.4", "the queen moves any number of squares along a file, a rank or a diagonal")
        .quote("The queen may move to any square along the file, the rank or a diagonal on which it stands."),
    rule("blocked", "FIDE Laws of Chess 3.5, 3.7.2", "the queen, rook, bishop and a pawn's double step cannot move over any intervening piece")
        .quote("When making these moves, the bishop, rook or queen may not move over any intervening pieces. [...] on its first move the pawn may move as in 3.7.1 or alternatively it may advance two squares along the same file, provided that both squares are unoccupied"),
    rule("knight-move", "FIDE Laws of Chess 3.6", "the knight moves to one of the nearest squares not on its own rank, file or diagonal")
        .quote("The knight may move to one of the squares nearest to that on which it stands but not on the same rank, file or diagonal."),
    rule("pawn-move", "FIDE Laws of Chess 3.7.1-3.7.2", "a pawn moves straight forward to the unoccupied square in front, or two squares from its starting square")
        .quote("The pawn may move forward to the square immediately in front of it on the same file, provided that this square is unoccupied, or [...] on its first move the pawn may move as in 3.7.1 or alternatively it may advance two squares along the same file, provided that both squares are unoccupied"),
    rule("pawn-capture", "FIDE Laws of Chess 3.7.3", "a pawn captures an opponent's piece diagonally in front of it, and moves diagonally only to capture")
        .quote("the pawn may move to a square occupied by an opponent's piece diagonally in front of it on an adjacent file, capturing that piece."),
    rule("en-passant", "FIDE Laws of Chess 3.7.3.1-3.7.3.2", "a pawn captures en passant only on the move right after the opponent's pawn passed over that square with a double step")
        .quote("A pawn occupying a square on the same rank as and on an adjacent file to an opponent's pawn which has just advanced two squares in one move from its original square may capture this opponent's pawn as though the latter had been moved only one square. [...] This capture is only legal on the move following this advance and is called an 'en passant' capture."),
    rule("promotion", "FIDE Laws of Chess 3.7.3.3", "a pawn reaching the last rank is exchanged, as part of the same move, for a queen, rook, bishop or knight; no other move promotes")
        .quote("When a player, having the move, plays a pawn to the rank furthest from its starting position, he/she must exchange that pawn as part of the same move for a new queen, rook, bishop or knight of the same colour on the intended square of arrival."),
    rule("invented-piece", "Betza's funny notation (csipgs-costs.md, Notation notes), as the scenario language reads it", "an invented piece, written as its Betza design, moves by its atoms: each leaps, or rides over empty squares, in its directions; an `n` (lame) leap is blocked by a piece on its path, a `p` hopper passes exactly one piece on its line and then moves on to empty squares or takes the first piece beyond, a `g` grasshopper lands right behind the first piece on its line; an `m` atom only moves to an empty square and a `c` atom only captures; it never castles, double-steps, takes en passant or promotes, and no pawn promotes to it")
        .quote("m (move only) / c (capture only) [...] Concatenation is union: BR is B plus R. [...] A doubled atom is a rider: NN is the nightrider; R = WW and B = FF."),
    rule("king-move", "FIDE Laws of Chess 3.8, 3.8.1", "the king moves to an adjoining square, or castles")
        .quote("There are two different ways of moving the king: [...] by moving to an adjoining square [...] by 'castling'."),
    rule("castling", "FIDE Laws of Chess 3.8.2", "castling is a move of the king two squares towards a rook on its first rank, the rook then crossing to the square the king passed over")
        .quote("This is a move of the king and either rook of the same colour along the player's first rank, counting as a single move of the king and executed as follows: the king is transferred from its original square two squares towards the rook on its original square, then that rook is transferred to the square the king has just crossed."),
    rule("castling-rights", "FIDE Laws of Chess 3.8.2.1", "castling is permanently lost once the king or that rook has moved (or the rook was captured)")
        .quote("The right to castle has been lost: 1) If the king has already moved, or 2) With a rook that has already moved."),
    rule("castling-blocked", "FIDE Laws of Chess 3.8.2.2", "castling is prevented while any piece stands between the king and the rook")
        .quote("Castling is prevented temporarily: [...] 4) If there is any piece between the king and the rook with which castling is to be effected."),
    rule("castling-out-of-check", "FIDE Laws of Chess 3.8.2.2", "a king in check cannot castle")
        .quote("Castling is prevented temporarily: 3) If the square on which the king stands, or the square which it must cross, or the square which it is to occupy, is attacked by one or more of the opponent's pieces"),
    rule("castling-through-check", "FIDE Laws of Chess 3.8.2.2", "the king cannot castle across or onto a square attacked by an opponent's piece")
        .quote("Castling is prevented temporarily: 3) If the square on which the king stands, or the square which it must cross, or the square which it is to occupy, is attacked by one or more of the opponent's pieces"),
    rule("own-king-in-check", "FIDE Laws of Chess 3.9.2", "no move may expose the player's own king to check or leave it in check")
        .quote("No piece can be moved that will either expose the king of the same colour to check or leave that king in check."),
    rule("capture-mark", "FIDE Laws of Chess Appendix C.9", "`x` marks a capture and `-` a move to an empty square")
        .quote("When a piece makes a capture, an x may be inserted between: [...] the abbreviation of the name of the piece in question and [...] the square of arrival."),
    // Claims and the end of the game.
    rule("check-claim", "FIDE Laws of Chess Appendix C.13", "`+` claims that the move gives check and `#` that it mates")
        .quote("+ = check [...] ++ or # = checkmate"),
    rule("game-over", "FIDE Laws of Chess 5.1, 5.2", "once the game has ended no further move is played")
        .quote("The game is won by the player who has checkmated his/her opponent's king. This immediately ends the game [...] The game is said to end in 'stalemate'. This immediately ends the game"),
    rule("checkmate", "FIDE Laws of Chess 5.1.1", "the player who checkmates the opponent's king wins")
        .quote("The game is won by the player who has checkmated his/her opponent's king."),
    rule("resignation", "FIDE Laws of Chess 5.1.2", "the player whose opponent resigns wins; arbiter does not apply the article's exception (a draw where the opponent could not checkmate by any series of legal moves)")
        .quote("The game is lost by the player who declares he/she resigns (this immediately ends the game), unless the position is such that the opponent cannot checkmate the player's king by any possible series of legal moves. In this case the result of the game is a draw."),
    rule("stalemate", "FIDE Laws of Chess 5.2.1", "the game is drawn when the player to move has no legal move and is not in check")
        .quote("The game is drawn when the player to move has no legal move and his/her king is not in check. The game is said to end in 'stalemate'."),
    rule("insufficient-material", "FIDE Laws of Chess 5.2.2", "the game is drawn when no series of legal moves can mate (here: K v K, K+minor v K, or bishops all on one square colour)")
        .quote("The game is drawn when a position has arisen in which neither player can checkmate the opponent's king with any series of legal moves. The game is said to end in a 'dead position'."),
    rule("agreement", "FIDE Laws of Chess 5.2.3, 9.1", "the game is drawn by agreement of both players (arbiter does not check the article's proviso that both have made a move: a scenario may start mid-game)")
        .quote("The game is drawn upon agreement between the two players during the game, provided both players have made at least one move. This immediately ends the game."),
    rule("repetition", "FIDE Laws of Chess 9.2, 9.6.1", "the game is drawn when the same position occurs for the third time (claimable, 9.2) or, under the fivefold reading, the fifth (automatic, 9.6.1)")
        .quote("The game is drawn, upon a correct claim by a player having the move, when the same position for at least the third time (not necessarily by a repetition of moves): [...] has just appeared, and the player claiming the draw has the move. [...] the same position has appeared, as in 9.2.2 at least five times."),
    rule("fifty-move", "FIDE Laws of Chess 9.3, 9.6.2", "the game is drawn after fifty moves by each player without a pawn move or a capture (claimable, 9.3) or, under the seventy-five-move reading, seventy-five (automatic, 9.6.2); a mate on the last move takes precedence")
        .quote("The game is drawn, upon a correct claim by a player having the move, if: [...] the last 50 moves by each player have been completed without the movement of any pawn and without any capture. [...] any series of at least 75 moves have been made by each player without the movement of any pawn and without any capture. If the last move resulted in checkmate, that shall take precedence."),
];

pub static OPTIONS: &[OptionDef] = &[
    OptionDef {
        name: "repetition-draw",
        values: &["threefold", "fivefold"],
        default: "threefold",
        reason: "FIDE 9.2 lets a player claim a draw when a position occurs for the third time, and 9.6.1 ends the game by itself on the fifth; a verifier reports the draw as soon as it may be claimed",
    },
    OptionDef {
        name: "move-rule-draw",
        values: &["fifty", "seventy-five"],
        default: "fifty",
        reason: "FIDE 9.3 lets a player claim a draw after fifty moves by each side without a pawn move or capture, and 9.6.2 ends the game by itself after seventy-five; a verifier reports the draw as soon as it may be claimed",
    },
];

pub static STATE_KEYS: &[KeyDef] = &[
    KeyDef {
        name: "castling",
        per_color: false,
        values: "a subset of KQkq, or -",
        summary: "the castling rights still held (FEN field 3); no key means none",
    },
    KeyDef {
        name: "en-passant",
        per_color: false,
        values: "a square on rank 3 or 6, or -",
        summary: "the square a pawn just passed over with a double step (FEN field 4)",
    },
    KeyDef {
        name: "halfmove-clock",
        per_color: false,
        values: "a number from 0 to 150",
        summary: "half-moves since the last capture or pawn move, for the fifty-move rule",
    },
    KeyDef {
        name: "fullmove-number",
        per_color: false,
        values: "a number from 1 to 10000",
        summary: "the number of the current move, increased after Black moves",
    },
    KeyDef {
        name: "fen",
        per_color: false,
        values: "a FEN (read-only)",
        summary: "the whole position in Forsyth-Edwards Notation",
    },
];

pub static INVARIANTS: &[InvariantDef] = &[
    InvariantDef {
        name: "one-king-each",
        summary: "each side has exactly one king",
    },
    InvariantDef {
        name: "mover-not-in-check",
        summary: "the side that just moved is not in check",
    },
    InvariantDef {
        name: "no-pawn-on-back-rank",
        summary: "no pawn stands on the first or last rank",
    },
    InvariantDef {
        name: "castling-rights-consistent",
        summary: "a castling right implies the king and that rook stand on their starting squares",
    },
];
