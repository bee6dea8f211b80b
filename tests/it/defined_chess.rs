//! The bundled orthodox chess scenarios, played under the chess DEFINITION
//! (`variants/chess.def`) by the generic engine: the ones listed here pass and must keep
//! passing. The others fail for reasons the definition does not share with the built-in
//! chess: rule ids the built-in names and the definition does not (`own-king-in-check` is the
//! definition's `check`; `pawn-capture`, `capture-mark`, `check-claim`, `turn-length`,
//! `fifty-move`), the built-in's invariants and its options. Invented pieces such as `(WD)`
//! stand on a definition's board as on the built-in's.

use std::path::Path;

use arbiter::scenario::report::FileCheck;

/// (file, scenario title) of every scenario that passes under `chess.def`.
const PASSING: &[(&str, &str)] = &[
    (
        "castling.scn",
        "Castling on both wings when the way is free and safe",
    ),
    (
        "castling.scn",
        "A king that has moved has lost its castling rights",
    ),
    (
        "castling.scn",
        "A rook that has moved or been captured takes its side's right with it",
    ),
    (
        "castling.scn",
        "The squares between king and rook must be empty",
    ),
    (
        "castling.scn",
        "The king may not pass over or land on an attacked square",
    ),
    (
        "castling.scn",
        "Castling queen side is fine when only the rook's path is attacked",
    ),
    ("castling.scn", "A king in check may not castle"),
    (
        "en-passant.scn",
        "A pawn that stepped two squares can be taken as if it stepped one",
    ),
    (
        "en-passant.scn",
        "En passant is possible only on the very next turn",
    ),
    ("en-passant.scn", "The en-passant key and a FEN agree"),
    ("movement.scn", "A bishop moves along diagonals only"),
    ("movement.scn", "A rook moves along ranks and files only"),
    (
        "movement.scn",
        "A queen combines rook and bishop, but does not leap",
    ),
    (
        "movement.scn",
        "A knight leaps to the nearest squares not on its rank, file or diagonal",
    ),
    ("movement.scn", "A king steps to an adjacent square"),
    (
        "movement.scn",
        "A pawn steps forward, two squares from its first rank only",
    ),
    (
        "movement.scn",
        "Line pieces and the pawn's double step do not pass over pieces",
    ),
    (
        "movement.scn",
        "No piece may land on a piece of its own side",
    ),
    ("movement.scn", "The players move alternately"),
    ("movement.scn", "A move starts from a square with a piece"),
    (
        "movement.scn",
        "A short move needs a piece of that kind that can get there",
    ),
    (
        "notation.scn",
        "Short moves resolve against the legal moves",
    ),
    (
        "notation.scn",
        "A short move with several candidates needs its file or rank",
    ),
    ("notation.scn", "Chess has no drops"),
    ("notation.scn", "Chess has no passes, coups or rebirths"),
    ("perft.scn", "Initial position"),
    (
        "perft.scn",
        "Position 4: promotions with capture, castling rights lost",
    ),
    (
        "perft.scn",
        "Position 4 mirrored: the same counts with colours swapped",
    ),
    (
        "perft.scn",
        "Position 5: a promotion that gives check, castling next to it",
    ),
    (
        "promotion.scn",
        "A pawn reaching the last rank becomes a queen, rook, bishop or knight",
    ),
    (
        "promotion.scn",
        "The pawn must be exchanged, and not for a king or a pawn",
    ),
    ("promotion.scn", "Black promotes on the first rank"),
    (
        "results.scn",
        "Fool's mate: the king is attacked and has no legal move",
    ),
    (
        "results.scn",
        "A player with no legal move and not in check is stalemated",
    ),
    (
        "results.scn",
        "A stalemate ends the game only when the player to move has no move",
    ),
    (
        "results.scn",
        "The same position three times draws by repetition",
    ),
    ("results.scn", "A player may resign"),
    ("results.scn", "The players may agree to a draw"),
    ("search.scn", "Mate in one with the rook"),
    (
        "search.scn",
        "Mate in two: the king takes the opposition first",
    ),
    (
        "invented.scn",
        "An invented piece moves by its design's atoms, and only by them",
    ),
    ("invented.scn", "Move-only and capture-only atoms"),
    ("invented.scn", "Riders are blocked, leapers are not"),
    (
        "invented.scn",
        "A pawn promotes to a queen, rook, bishop or knight, never to an invented piece",
    ),
    (
        "invented.scn",
        "A design reaching the last rank is not promoted",
    ),
    (
        "invented.scn",
        "Perft with invented pieces agrees with Fairy-Stockfish",
    ),
    ("invented.scn", "Two atoms reaching one square make one move"),
    (
        "invented.scn",
        "A lame leaper is blocked on its path, a cannon hops one screen, a grasshopper lands behind it",
    ),
    ("state.scn", "A board and four keys make a FEN"),
    (
        "state.scn",
        "Without a castling key a board has no castling rights",
    ),
    ("state.scn", "Black to move, from a board"),
];

#[test]
fn bundled_chess_scenarios_pass_under_the_chess_definition() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/chess");
    let mut missing = Vec::new();
    let mut files: Vec<&str> = PASSING.iter().map(|(f, _)| *f).collect();
    files.dedup();
    for file in files {
        let src = std::fs::read_to_string(dir.join(file)).expect("scenario file readable");
        let src: String = src
            .lines()
            .map(|l| match l.strip_prefix("variant chess") {
                Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
                    format!("variant chess.def{rest}\n")
                }
                _ => format!("{l}\n"),
            })
            .collect();
        let text = FileCheck::run(file, src).text();
        for (f, title) in PASSING.iter().filter(|(f, _)| *f == file) {
            let ok = text
                .lines()
                .any(|l| l.starts_with("ok") && l.ends_with(&format!("  {title}")));
            if !ok {
                missing.push(format!("{f}: {title}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "no longer passing under chess.def:\n{}",
        missing.join("\n")
    );
}

/// Every scenario of `invented.scn` passes under the chess definition once its `check`
/// component goes by the built-in's id, `own-king-in-check`: the four that name that id are
/// the only ones [`PASSING`] leaves out.
#[test]
fn invented_pieces_stand_on_the_chess_definition_as_on_the_built_in() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let def = std::fs::read_to_string(root.join("variants/chess.def")).expect("chess.def");
    let def = def
        .replace("variant chess\n", "variant chess-ids\n")
        .replace("check {\n", "check {\n  id own-king-in-check\n");
    assert!(
        def.contains("id own-king-in-check"),
        "chess.def has a check component"
    );
    let scn =
        std::fs::read_to_string(root.join("scenarios/chess/invented.scn")).expect("invented.scn");
    let scn = scn.replace("\nvariant chess\n", "\nvariant chess-ids.def\n");
    assert!(
        scn.contains("variant chess-ids.def"),
        "invented.scn names chess"
    );
    let dir = std::env::temp_dir().join(format!("arbiter-defined-invented-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("chess-ids.def"), def).unwrap();
    let path = dir.join("invented.scn");
    std::fs::write(&path, &scn).unwrap();
    let check = FileCheck::run(path.to_str().unwrap(), scn.clone());
    let text = check.text();
    let scenarios = scn.lines().filter(|l| l.starts_with("scenario ")).count();
    assert_eq!(scenarios, 12);
    assert_eq!(check.counts(), (scenarios, 0), "{text}");
}
