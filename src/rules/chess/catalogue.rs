//! The rule, option, state-key and invariant catalogue of orthodox chess.

use crate::rules::{rule, InvariantDef, KeyDef, OptionDef, RuleDef};

pub static RULES: &[RuleDef] = &[
    // Whose move, and what a move is.
    rule("not-your-turn", "FIDE Laws of Chess 1.1", "the players move alternately; a player moves only pieces of their own colour"),
    rule("no-piece-there", "FIDE Laws of Chess 1.1", "a move starts from a square holding a piece of the player's colour"),
    rule("no-such-piece", "FIDE Laws of Chess 2.2, Appendix C.8", "the piece named by the move must be one of the player's pieces able to go there"),
    rule("turn-length", "FIDE Laws of Chess 1.1", "a chess turn is exactly one move"),
    rule("no-such-action", "FIDE Laws of Chess 1.1", "the only action of a chess turn is a move of a piece on the board; there is no drop, pass, coup, rebirth, purchase or redesign"),
    // Piece movement.
    rule("own-piece-on-target", "FIDE Laws of Chess 3.1", "a piece may not move to a square occupied by a piece of the same colour"),
    rule("bishop-move", "FIDE Laws of Chess 3.2", "the bishop moves any number of squares along a diagonal"),
    rule("rook-move", "FIDE Laws of Chess 3.3", "the rook moves any number of squares along a file or a rank"),
    rule("queen-move", "FIDE Laws of Chess 3.4", "the queen moves any number of squares along a file, a rank or a diagonal"),
    rule("blocked", "FIDE Laws of Chess 3.5", "the queen, rook, bishop and a pawn's double step cannot move over any intervening piece"),
    rule("knight-move", "FIDE Laws of Chess 3.6", "the knight moves to one of the nearest squares not on its own rank, file or diagonal"),
    rule("pawn-move", "FIDE Laws of Chess 3.7.a-b", "a pawn moves straight forward to the unoccupied square in front, or two squares from its starting square"),
    rule("pawn-capture", "FIDE Laws of Chess 3.7.c", "a pawn captures an opponent's piece diagonally in front of it, and moves diagonally only to capture"),
    rule("en-passant", "FIDE Laws of Chess 3.7.d", "a pawn captures en passant only on the move right after the opponent's pawn passed over that square with a double step"),
    rule("promotion", "FIDE Laws of Chess 3.7.e", "a pawn reaching the last rank is exchanged, as part of the same move, for a queen, rook, bishop or knight; no other move promotes"),
    rule("invented-piece", "Betza's funny notation, as the scenario language reads it", "an invented piece, written as its Betza design, moves by its atoms: each leaps, or rides over empty squares, in its directions; an `m` atom only moves to an empty square and a `c` atom only captures; it never castles, double-steps, takes en passant or promotes, and no pawn promotes to it"),
    rule("king-move", "FIDE Laws of Chess 3.8.a", "the king moves to an adjoining square, or castles"),
    rule("castling", "FIDE Laws of Chess 3.8.b", "castling is a move of the king two squares towards a rook on its first rank, the rook then crossing to the square the king passed over"),
    rule("castling-rights", "FIDE Laws of Chess 3.8.b.1", "castling is permanently lost once the king or that rook has moved (or the rook was captured)"),
    rule("castling-blocked", "FIDE Laws of Chess 3.8.b.2", "castling is prevented while any piece stands between the king and the rook"),
    rule("castling-out-of-check", "FIDE Laws of Chess 3.8.b.2", "a king in check cannot castle"),
    rule("castling-through-check", "FIDE Laws of Chess 3.8.b.2", "the king cannot castle across or onto a square attacked by an opponent's piece"),
    rule("own-king-in-check", "FIDE Laws of Chess 3.9", "no move may expose the player's own king to check or leave it in check"),
    rule("capture-mark", "FIDE Laws of Chess Appendix C.9", "`x` marks a capture and `-` a move to an empty square"),
    // Claims and the end of the game.
    rule("check-claim", "FIDE Laws of Chess Appendix C.13", "`+` claims that the move gives check and `#` that it mates"),
    rule("game-over", "FIDE Laws of Chess 5.1, 5.2", "once the game has ended no further move is played"),
    rule("checkmate", "FIDE Laws of Chess 5.1.a", "the player who checkmates the opponent's king wins"),
    rule("resignation", "FIDE Laws of Chess 5.1.b", "the player whose opponent resigns wins"),
    rule("stalemate", "FIDE Laws of Chess 5.2.a", "the game is drawn when the player to move has no legal move and is not in check"),
    rule("insufficient-material", "FIDE Laws of Chess 5.2.b", "the game is drawn when no series of legal moves can mate (here: K v K, K+minor v K, or bishops all on one square colour)"),
    rule("agreement", "FIDE Laws of Chess 5.2.c, 9.1", "the game is drawn by agreement of both players"),
    rule("repetition", "FIDE Laws of Chess 9.2, 9.6.1", "the game is drawn when the same position occurs for the third time (claimable, 9.2) or, under the fivefold reading, the fifth (automatic, 9.6.1)"),
    rule("fifty-move", "FIDE Laws of Chess 9.3, 9.6.2", "the game is drawn after fifty moves by each player without a pawn move or a capture (claimable, 9.3) or, under the seventy-five-move reading, seventy-five (automatic, 9.6.2); a mate on the last move takes precedence"),
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
