//! Cypher Chess's board as a definition (`variants/cypher-board.def`: zones, the knight by
//! zone, the sanctuaries) against the built-in `cypher`, on positions without Spies: the same
//! legal turns and the same check, along random games from the start without Spies and on
//! random placements, both generated from fixed seeds. Then a Kings-and-Spies subset, and
//! last the whole of `variants/cypher.def` (`the_cypher_definition_plays_as_the_built_in_*`):
//! under the defaults, each option flipped alone and 200 random settings, on games from the
//! start and random FENs with every state field, the same legal turns, check, outcome, FEN and
//! outcome after each played turn, and refusal of written turns neither engine allows. Its
//! differences are counted by kind, the first few of each printed; any fails it (none is
//! tolerated). A long version is ignored: run it in release with
//! `cargo test --release --lib cypher_agreement -- --ignored --nocapture`.
//!
//! In the first comparison, what the board definition does not write is kept out, exactly so:
//!
//! - Spies and every flip rule: no position has a Spy (the start has none, placements put none,
//!   and no turn makes one), and every flip involves a Spy.
//! - Infiltration (VI.i), prisoner release (VI.iii) and re-take (V.xiii): each compared built-in
//!   position is set up with both infiltrations used, no prisoners and no re-take square (the
//!   games themselves play on with them), so neither side has such a turn.
//! - Coup d'etat (VI.ii): a pawn's move onto its last Field row (Cypher's row 9 for White, 1
//!   for Black) is left out of both lists: the built-in removes the pawn and switches a piece,
//!   the definition plays it as a plain pawn move.

use crate::rules::cypher::Cypher;
use crate::rules::{Action, Color, Options, Role, Rules, Turn};

use super::agreement::Rng;

/// Cypher's start without its Spies (d0 and d10).
const START: &str = "10/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/10";

/// Whether `turn` of `color` is a pawn's move onto its coup row (rank index 9 for White, 1
/// for Black), which the comparison leaves out.
fn coup_row(turn: &Turn, color: Color) -> bool {
    let row = if color == Color::White { 9 } else { 1 };
    matches!(turn.actions.first(), Some(Action::Move { role: Role::Pawn, legs, .. })
        if legs.last().is_some_and(|l| l.to.rank == row))
}

/// The texts of `x` that `y` does not have, joined by spaces.
fn only(x: &[String], y: &[String]) -> String {
    x.iter()
        .filter(|t| !y.contains(t))
        .cloned()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The legal turns of `pos` but the coup-row pawn moves, as texts in each engine's own
/// coordinates: the definition names Cypher's squares as the built-in does (its `board`
/// block), so the texts compare as they stand.
fn texts<R: Rules>(pos: &R) -> Vec<String> {
    let g = *pos.board().geometry();
    let mut out: Vec<String> = pos
        .legal_turns()
        .into_iter()
        .filter(|(_, t)| !coup_row(t, pos.turn()))
        .map(|(_, t)| t.text(&g))
        .collect();
    out.sort();
    out
}

/// A random placement without Spies: a King each anywhere, and up to 14 other pieces, pawns
/// off Court and off their coup row.
fn placement(rng: &mut Rng) -> String {
    let mut board = [[' '; 10]; 11];
    let court = |f: usize, r: usize| f == 0 || f == 9 || r == 0 || r == 10;
    let mut put = |rng: &mut Rng, piece: char| loop {
        let (f, r) = (rng.below(10), rng.below(11));
        let pawn_ok = match piece {
            'P' => !court(f, r) && r != 9,
            'p' => !court(f, r) && r != 1,
            _ => true,
        };
        if board[r][f] == ' ' && pawn_ok {
            board[r][f] = piece;
            break;
        }
    };
    put(rng, 'K');
    put(rng, 'k');
    for _ in 0..rng.below(15) {
        let piece = b"QRBNPPPqrbnppp"[rng.below(14)] as char;
        put(rng, piece);
    }
    placement_of(&board)
}

/// The FEN placement of `board`, its top rank (the last) first.
fn placement_of(board: &[[char; 10]; 11]) -> String {
    let ranks: Vec<String> = board
        .iter()
        .rev()
        .map(|rank| {
            let mut s = String::new();
            let mut empty = 0;
            for &square in rank {
                match square {
                    ' ' => empty += 1,
                    p => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(p);
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    ranks.join("/")
}

/// The refusals of every move of a piece of the side to move to a square it does not reach
/// legally, by the built-in and by the definition: `(turn, built-in rule, definition rule)`.
fn refusals(
    built_in: &Cypher,
    defined: &super::Position,
) -> Vec<(String, &'static str, &'static str)> {
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;
    let (cg, dg) = (Cypher::geometry(), *defined.board().geometry());
    assert_eq!(
        cg, dg,
        "the definition names Cypher's squares as the built-in does"
    );
    let legal = texts(defined);
    let board = built_in.board();
    let mut out = Vec::new();
    for (from, piece) in board.pieces() {
        if piece.color() != built_in.turn() {
            continue;
        }
        let letter = match piece.role() {
            Role::Pawn => String::new(),
            r => r.letter().to_string(),
        };
        for to in cg.squares().filter(|s| *s != from) {
            let mark = if board.get(to).is_some() { "x" } else { "-" };
            let ct = format!(
                "{letter}{}{mark}{}",
                cg.square_name(from),
                cg.square_name(to)
            );
            let dt = ct.clone();
            if legal.iter().any(|l| l.starts_with(&dt))
                || (letter.is_empty() && (to.rank == 9 || to.rank == 1))
            {
                continue;
            }
            let want = built_in.refusal(
                &Lowering::<Cypher>::new(cg)
                    .turn(&parse_turn(&ct).expect("a move parses"))
                    .expect("lowers"),
            );
            let got = defined.refusal(
                &Lowering::<super::Position>::new(dg)
                    .turn(&parse_turn(&dt).expect("a move parses"))
                    .expect("lowers"),
            );
            out.push((dt, want.rule, got.rule));
        }
    }
    out
}

/// The rule ids the definition's zone components share with the built-in.
const ZONE_RULES: &[&str] = &[
    "field-sanctuary",
    "field-reach",
    "court-reach",
    "border-sanctuary",
    "court-sanctuary",
    "knight-court-exit",
    "court-entry-trigger",
];

/// Whether the built-in's refusal `want` and the definition's `got` agree where a zone rule
/// is one of them. They word three cases apart, each for a reason the definition states: the
/// built-in refuses a move onto a King by `no-king-capture` where the definition's sanctuary
/// protects the King; a knight entering Court by `knight-court-entry` (classical L only, a
/// rule of the Spy's trigger) where, without Spies, nothing but the King enters; and any move
/// onto a piece of the mover's by `own-piece-on-target`, which the definition names only
/// where the piece's movement reaches it.
fn zone_refusals_agree(want: &str, got: &str) -> bool {
    let sanctuary = [
        "field-sanctuary",
        "field-reach",
        "court-reach",
        "border-sanctuary",
        "court-sanctuary",
    ];
    want == got
        || !ZONE_RULES.contains(&want) && !ZONE_RULES.contains(&got)
        || want == "no-king-capture" && sanctuary.contains(&got)
        || want == "knight-court-entry" && ["court-entry-trigger", "court-sanctuary"].contains(&got)
        || want == "own-piece-on-target"
}

/// What the comparison found.
#[derive(Default)]
struct Tally {
    /// Positions compared, from games and from placements.
    positions: usize,
    /// Refusals compared, and how many each zone rule gave alike.
    refusals: usize,
    zone_rules: std::collections::BTreeMap<&'static str, usize>,
    failures: Vec<String>,
}

/// Compares the two engines on `placement`/// Compares the two engines on `placement` with `side` to move; `false` when the position
/// is not one to compare (the side not to move is in check under the definition); with
/// `refusals_too`, also every refusal of a move of the mover's pieces.
fn agree(placement: &str, side: &str, refusals_too: bool, tally: &mut Tally) -> bool {
    // A placement whose side not to move is in check is refused, and not compared.
    let defined = match super::Position::from_fen(
        Cypher::geometry(),
        &format!("{placement} {side} - - 0 1"),
        &Options::defaults(super::Position::options()),
    ) {
        Ok(p) => p,
        Err(e) if e.kind() == crate::rules::SetupErrorKind::OppositeCheck => return false,
        Err(e) => panic!("a placement the definition reads: {e}"),
    };
    let fen = format!("{placement} {side} WB 0/0 -");
    let built_in = Cypher::from_fen(
        Cypher::geometry(),
        &fen,
        &Options::defaults(Cypher::options()),
    )
    .expect("a placement the built-in reads");
    let (a, b) = (texts(&built_in), texts(&defined));
    if a != b {
        tally.failures.push(format!(
            "{fen}: built-in only [{}], definition only [{}]",
            only(&a, &b),
            only(&b, &a)
        ));
    } else if built_in.in_check() != defined.in_check() {
        tally.failures.push(format!(
            "{fen}: in check {:?} built-in, {:?} definition",
            built_in.in_check(),
            defined.in_check()
        ));
    } else if refusals_too {
        for (turn, want, got) in refusals(&built_in, &defined) {
            tally.refusals += 1;
            if !zone_refusals_agree(want, got) {
                tally.failures.push(format!(
                    "{turn} in {fen}: built-in {want}, definition {got}"
                ));
            } else if want == got && ZONE_RULES.contains(&got) {
                *tally.zone_rules.entry(got).or_insert(0) += 1;
            }
        }
    }
    tally.positions += 1;
    true
}

#[test]
fn the_cypher_board_definition_moves_as_the_built_in_without_spies() {
    let variant = crate::rules::defined::load("cypher-board").expect("bundled");
    let crate::rules::Variant::Defined(id) = variant else {
        panic!("a definition");
    };
    let _bound = super::bind(id);
    let mut rng = Rng(0xC1_F4E5_B0A2_D5E7);
    let mut tally = Tally::default();
    let options = Options::defaults(Cypher::options());
    for _game in 0..12 {
        let mut game = Cypher::from_fen(Cypher::geometry(), &format!("{START} w"), &options)
            .expect("the start without Spies");
        for ply in 0..120 {
            let fen = game.fen();
            let mut fields = fen.split_whitespace();
            let (placement, side) = (fields.next().unwrap_or(""), fields.next().unwrap_or(""));
            agree(placement, side, ply % 16 == 5, &mut tally);
            let legal = game.legal_turns();
            if legal.is_empty() {
                break;
            }
            let (m, _) = legal[rng.below(legal.len())].clone();
            game.play(m);
        }
    }
    let from_games = tally.positions;
    for n in 0..3000 {
        let p = placement(&mut rng);
        let side = ["w", "b"][rng.below(2)];
        agree(&p, side, n % 16 == 0, &mut tally);
    }
    let failures = &tally.failures;
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(12)].join("\n")
    );
    assert!(
        from_games > 1000 && tally.positions - from_games > 1500 && tally.refusals > 50_000,
        "{from_games} positions from games, {} in all, {} refusals",
        tally.positions,
        tally.refusals
    );
    // Every zone rule refused some move, as the built-in did.
    let used: Vec<&str> = tally.zone_rules.keys().copied().collect();
    let mut all = ZONE_RULES.to_vec();
    all.sort();
    assert_eq!(used, all, "{:?}", tally.zone_rules);
}

/// Cypher's Kings and Spies as a definition: `cypher-board` with the Spy, its immunity and
/// its check powers, the rules of touching and lining up (`adjacency`, `alignment`), the
/// transparent Spy and the King's Court entry (`no-entry` `while`), each under the built-in's
/// default reading and with its rule id. Compared on positions of Kings and Spies alone,
/// where no piece is ever captured and no compound turn arises (no major piece but the King
/// to let in).
const KINGS_AND_SPIES: &str = r#"variant cypher-kings-and-spies
from cypher-board
piece S spy Q "The Spy moves like the Queen in classical chess."

option king-beside-own-spy {
  values illegal loses
  default illegal
  reason "main III.ii.a forbids it; flipping VII.d.3 makes that side lose"
}

option spy-beside-enemy-spy {
  values illegal loses
  default illegal
  reason "main III.ii.b forbids it; flipping VII.d.4 makes the Spy that landed lose"
}

option spy-beside-own-king {
  values illegal loses
  default illegal
  reason "main III.ii.c forbids the Spy's step; flipping VII.d.3 flips the King"
}

option spy-beside-enemy-king {
  values illegal loses
  default illegal
  reason "main III.ii.c: the Spy cannot move next to either King; flipping VII.d.2 flips a Spy next to a King outside Court"
}

option king-into-spy-line {
  values loses illegal
  default loses
  reason "flipping VII.d.1 flips a Court King lined up 'no matter how that situation arose'"
}

option field-spy-checks {
  values no yes
  default no
  reason "main IV.v.b-c name the Court and Border Spy among the checking pieces, not the Field Spy"
}

sanctuary {
  id spy-immunity
  clause "The Spy cannot be captured."
  pieces S
  both area z0-i10
}

sanctuary {
  id field-sanctuary
  clause "Sanctuary in the Field: Major pieces have sanctuary from attack by other major Field pieces."
  pieces K Q R B N
  by K Q R B N S
  by K Q R B N when field-spy-checks yes
  from inside
  both area a1-h4
  both area a6-h9
}

sanctuary {
  id field-reach
  clause "Major Field pieces cannot capture major pieces on the Border or in Court."
  pieces K Q R B N
  by K Q R B N S
  by K Q R B N when field-spy-checks yes
  from outside
  both area a5-h5
  both files z i
  both ranks 0 10
}

without own-king-in-check

no-entry {
  id king-court-entry
  clause "the King enters Court by its own movement, as long as the opposing Spy is not present in Court."
  pieces K
  while enemy S
  both files z i
  both ranks 0 10
}

transparent {
  id spy-transparent
  clause "The Border or Field Spy of either color is transparent when standing in between the King and a checking piece."
  pieces S
  both area a1-h9
}

adjacency {
  id border-kings-apart
  clause "If both Kings are on the Border, they cannot stand next to each other."
  pieces K
  beside K
  both area a5-h5
}

adjacency {
  id court-king-beside-court-spy
  clause "The Court King cannot move to a square next to either the opposing Court Spy or its own Spy."
  pieces K
  beside S
  both files z i
  both ranks 0 10
}

adjacency {
  id spy-beside-king
  clause "The Spy cannot move to a square next to either King, anywhere on the board."
  pieces S
  beside K
  moved yes
  elsewhere illegal
  elsewhere loss when spy-beside-enemy-king loses
  standing beside
  both files z i
  both ranks 0 10
}

adjacency {
  id spy-beside-enemy-spy
  clause "The Spy can never stand next to the opposing Spy, anywhere on the board."
  pieces S
  beside S
  effect loss when spy-beside-enemy-spy loses
}

adjacency {
  id spy-beside-own-king
  clause "The Spy cannot move to a square next to either King, anywhere on the board."
  pieces S
  beside K
  of own
  moved yes
  effect loss when spy-beside-own-king loses
}

adjacency {
  id king-beside-own-spy
  clause "The King can never stand next to its own Spy, anywhere on the board."
  pieces K
  beside S
  of own
  other-moved no
  effect loss when king-beside-own-spy loses
}

check {
  id own-king-in-check
  clause "The Court King cannot be checked or mated."
}

alignment {
  id king-into-spy-line
  clause "If a Court Spy lines itself up with a Court King, and there are no other pieces standing between them, the game is over, in the Spy's favor."
  pieces K
  facing S
  effect loss
  effect illegal when king-into-spy-line illegal
  both files z i
  both ranks 0 10
}

adjacency {
  id king-flips-spy
  clause "If, when the King is outside of Court, and it moves or otherwise winds up next to the opposing Spy, the King has flipped the Spy and won the game."
  pieces K
  beside S
  effect win
  disarms yes
}

alignment {
  id spy-flips-king
  clause "If the Court Spy lines itself up with the opposing Court King, moving to a position at least one empty square away from it, then the Court Spy flips the opposing Court King."
  pieces S
  facing K
  effect win
  both files z i
  both ranks 0 10
}
"#;

/// A random placement of the two Kings and, each with its chance, the two Spies.
fn kings_and_spies(rng: &mut Rng) -> String {
    let mut board = [[' '; 10]; 11];
    // One placement in four keeps to Court, where the rules of lining up and of the Court
    // King apply.
    let court_only = rng.below(4) == 0;
    let mut put = |rng: &mut Rng, piece: char| loop {
        let (f, r) = (rng.below(10), rng.below(11));
        let court = f == 0 || f == 9 || r == 0 || r == 10;
        if board[r][f] == ' ' && (court || !court_only) {
            board[r][f] = piece;
            break;
        }
    };
    for piece in ['K', 'k', 'S', 's'] {
        if piece.is_ascii_uppercase() && piece == 'S' && rng.below(8) == 0
            || piece == 's' && rng.below(8) == 0
        {
            continue;
        }
        put(rng, piece);
    }
    placement_of(&board)
}

#[test]
fn kings_and_spies_as_a_definition_play_as_the_built_in() {
    let (ended, rules) = kings_and_spies_agree(None, 120);
    // Every rule of touching, lining up and entering refused a turn or ended a game, as the
    // built-in's did.
    for rule in [
        "border-kings-apart",
        "court-king-beside-court-spy",
        "king-beside-own-spy",
        "king-court-entry",
        "spy-beside-enemy-spy",
        "spy-beside-king",
        "spy-beside-own-king",
        "own-king-in-check",
    ] {
        assert!(rules.contains_key(rule), "no refusal by {rule}: {rules:?}");
    }
    for rule in ["king-flips-spy", "spy-flips-king", "king-into-spy-line"] {
        assert!(
            ended.contains_key(rule),
            "no game ended by {rule}: {ended:?}"
        );
    }
}

/// Under each reading flipped alone, the same agreement: the definition's per-reading lines
/// against the built-in's options.
#[test]
fn kings_and_spies_agree_under_each_reading() {
    for (option, value, rule) in [
        ("king-beside-own-spy", "loses", "king-beside-own-spy"),
        ("spy-beside-enemy-spy", "loses", "spy-beside-enemy-spy"),
        ("spy-beside-own-king", "loses", "spy-beside-own-king"),
        ("spy-beside-enemy-king", "loses", "spy-beside-king"),
        ("king-into-spy-line", "illegal", "king-into-spy-line"),
        ("field-spy-checks", "yes", "own-king-in-check"),
    ] {
        let (ended, rules) = kings_and_spies_agree(Some((option, value)), 24);
        assert!(
            ended.contains_key(rule) || rules.contains_key(rule),
            "{option} = {value}: {rule} decided nothing: {ended:?} {rules:?}"
        );
    }
}

/// The games ended and the refusals made, by rule.
type Tallies = (
    std::collections::BTreeMap<&'static str, usize>,
    std::collections::BTreeMap<&'static str, usize>,
);

/// The Kings-and-Spies comparison from `games` random placements, under the defaults or one
/// option pinned.
fn kings_and_spies_agree(reading: Option<(&str, &str)>, games: usize) -> Tallies {
    let load = |name: &str| {
        crate::definition::load::bundled(name)
            .map(|t| (name.to_string(), t.to_string()))
            .ok_or_else(|| format!("no definition named `{name}`"))
    };
    let def = crate::definition::parse("kings-and-spies", KINGS_AND_SPIES, &load)
        .unwrap_or_else(|e| panic!("{e}"));
    let crate::rules::Variant::Defined(id) = super::register(def).expect("registered") else {
        panic!("a definition");
    };
    let _bound = super::bind(id);
    let mut rng = Rng(0x5EED_C1F4_E5B0_A2D5);
    let mut options = Options::defaults(Cypher::options());
    let mut defined_options = Options::defaults(super::Position::options());
    if let Some((name, value)) = reading {
        options
            .set(Cypher::options(), "cypher", name, value)
            .expect("a built-in option");
        defined_options
            .set(super::Position::options(), "definition", name, value)
            .expect("a definition option");
    }
    let (mut compared, mut outcomes, mut failures) = (0, 0, Vec::new());
    let (mut refused, mut rules) = (0, std::collections::BTreeMap::new());
    let mut ended = std::collections::BTreeMap::new();
    let outcome = |o: Option<crate::rules::Outcome>| o.map(|o| (o.winner, o.rule));
    for _ in 0..games {
        let placement = kings_and_spies(&mut rng);
        let side = ["w", "b"][rng.below(2)];
        let Ok(mut built_in) = Cypher::from_fen(
            Cypher::geometry(),
            &format!("{placement} {side} WB 0/0 -"),
            &options,
        ) else {
            continue;
        };
        for ply in 0..40 {
            let fen = built_in.fen();
            let mut fields = fen.split_whitespace();
            let (p, s) = (fields.next().unwrap_or(""), fields.next().unwrap_or(""));
            let Ok(defined) = super::Position::from_fen(
                Cypher::geometry(),
                &format!("{p} {s} - - 0 1"),
                &defined_options,
            ) else {
                break;
            };
            let (a, b) = (texts(&built_in), texts(&defined));
            compared += 1;
            if a != b {
                failures.push(format!(
                    "{fen}: built-in only [{}], definition only [{}]",
                    only(&a, &b),
                    only(&b, &a)
                ));
                break;
            }
            if built_in.in_check() != defined.in_check() {
                failures.push(format!(
                    "{fen}: in check {:?} / {:?}",
                    built_in.in_check(),
                    defined.in_check()
                ));
                break;
            }
            // A decided position's turns are refused by `game-over` before any variant is
            // asked (the scenario's evaluator says so), so only open positions compare.
            // A move onto a piece of the mover's is named by each engine its own way (the
            // built-in: what is in the way, or the target; the definition: the movement).
            let open = built_in.outcome().is_none() && ply % 4 == 0;
            // A move onto a King is refused by the built-in's `no-king-capture` (or by what
            // stands in the way first); the definition has no such rule, the King being kept
            // from capture by the sanctuaries and check.
            let own_target = |turn: &str| {
                let to = turn.rsplit(['x', '-']).next().unwrap_or("");
                Cypher::geometry()
                    .parse_square(to)
                    .and_then(|sq| built_in.board().get(sq))
                    .is_some_and(|p| p.color() == built_in.turn() || p.role() == Role::King)
            };
            for (turn, want, got) in refusals(&built_in, &defined)
                .into_iter()
                .filter(|(t, _, _)| open && !own_target(t))
            {
                refused += 1;
                if want != got {
                    failures.push(format!("{turn} in {fen}: refused by {want} / {got}"));
                } else {
                    *rules.entry(want).or_insert(0usize) += 1;
                }
            }
            let legal = built_in.legal_turns();
            if legal.is_empty() {
                break;
            }
            let (m, t) = legal[rng.below(legal.len())].clone();
            built_in.play(m);
            // The same turn on the definition, then the outcome of both.
            let g = Cypher::geometry();
            let Some((dm, _)) = defined
                .legal_turns()
                .into_iter()
                .find(|(_, dt)| dt.text(&g) == t.text(&g))
            else {
                failures.push(format!("{fen}: {} not found", t.text(&g)));
                break;
            };
            let mut next = defined.clone();
            next.play(dm);
            let (want, got) = (outcome(built_in.outcome()), outcome(next.outcome()));
            if want != got {
                failures.push(format!(
                    "{fen} then {}: outcome {want:?} / {got:?}",
                    t.text(&g)
                ));
                break;
            }
            if let Some((_, rule)) = want {
                *ended.entry(rule).or_insert(0usize) += 1;
                outcomes += 1;
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{reading:?}: {} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(12)].join("\n")
    );
    eprintln!("{reading:?}: {compared} positions, {outcomes} outcomes {ended:?}, {refused} refusals {rules:?}");
    assert!(
        compared > games * 8 && outcomes > games / 8,
        "{compared} positions, {outcomes} outcomes"
    );
    (ended, rules)
}

// The whole of `variants/cypher.def` against the built-in: every rule, every option.

use crate::rules::resolve::LegalTurns;
use crate::rules::Reason;

/// Cypher's start, with its Spies and the five FEN fields.
const FULL_START: &str =
    "4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - 0/0 -";

/// `variants/cypher.def` registered, and bound to the running thread while the guard lives.
fn full_definition() -> super::Bound {
    let def = super::tests::bundled_cypher();
    let crate::rules::Variant::Defined(id) = super::register(def).expect("registered") else {
        panic!("a definition");
    };
    super::bind(id)
}

/// One setting of the options, for both engines.
struct Setting {
    /// `default`, `name=value`, or `combo N`.
    label: String,
    pairs: Vec<(&'static str, &'static str)>,
    built_in: Options,
    defined: Options,
}

impl Setting {
    fn new(label: String, pairs: Vec<(&'static str, &'static str)>) -> Setting {
        let mut built_in = Options::defaults(Cypher::options());
        let mut defined = Options::defaults(super::Position::options());
        for &(name, value) in &pairs {
            built_in
                .set(Cypher::options(), "cypher", name, value)
                .expect("a built-in option");
            defined
                .set(super::Position::options(), "definition", name, value)
                .expect("a definition option");
        }
        Setting {
            label,
            pairs,
            built_in,
            defined,
        }
    }

    /// The pairs that differ from the defaults, for a message.
    fn describe(&self) -> String {
        let set: Vec<String> = self
            .pairs
            .iter()
            .filter(|(n, v)| {
                Cypher::options()
                    .iter()
                    .any(|o| o.name == *n && o.default != *v)
            })
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        if set.is_empty() {
            "defaults".to_string()
        } else {
            set.join(" ")
        }
    }
}

/// The default, each option's every other value alone, then `combos` random settings.
fn settings(combos: usize, rng: &mut Rng) -> Vec<Setting> {
    let defs = Cypher::options();
    // The definition offers the built-in's options, with the same values and defaults.
    let defined: Vec<_> = super::Position::options()
        .iter()
        .map(|o| (o.name, o.values, o.default))
        .collect();
    let built_in: Vec<_> = defs.iter().map(|o| (o.name, o.values, o.default)).collect();
    assert_eq!(defined, built_in, "the options of the two engines");
    let mut out = vec![Setting::new("default".into(), Vec::new())];
    for o in defs {
        for v in o.values.iter().filter(|v| **v != o.default) {
            out.push(Setting::new(format!("{}={v}", o.name), vec![(o.name, *v)]));
        }
    }
    for n in 0..combos {
        let pairs = defs
            .iter()
            .map(|o| (o.name, o.values[rng.below(o.values.len())]))
            .collect();
        out.push(Setting::new(format!("combo {n}"), pairs));
    }
    out
}

/// An outcome as compared: who won, why, and by which rule.
type Out = Option<(Option<Color>, Reason, &'static str)>;

fn out_of(o: Option<crate::rules::Outcome>) -> Out {
    o.map(|o| (o.winner, o.reason, o.rule))
}

/// What a written turn came to: the legal turns it names, or the rule that refuses it.
type Written = Result<Vec<String>, &'static str>;

/// `text` written in `pos` whose legal turns are `legal`; `None` when it does not lower.
fn written<R: Rules>(
    pos: &R,
    legal: &LegalTurns<R::Move>,
    text: &crate::scenario::ast::TurnText,
) -> Option<Written> {
    let g = *pos.board().geometry();
    let pattern = crate::scenario::evaluate::Lowering::<R>::new(g)
        .turn(text)
        .ok()?;
    Some(match pos.resolve_in(&pattern, legal) {
        Ok(found) if !found.is_empty() => Ok(found.iter().map(|n| n.turn.text(&g)).collect()),
        Ok(_) => Err(pos.refusal(&pattern).rule),
        Err(r) => Err(r.rule),
    })
}

/// How much of each position the full comparison looks at.
#[derive(Clone, Copy)]
struct Scale {
    /// Games from the start, and their length in plies.
    games: usize,
    plies: usize,
    /// Random placements, and the random plies played on from each.
    placements: usize,
    onward: usize,
    /// Of each position's legal turns, how many are played for their FEN (all, when
    /// larger) and how many of those also for their outcome.
    played: usize,
    decided: usize,
    /// Written turns that are not legal, compared for their refusal.
    refused: usize,
}

/// What the full comparison counted.
#[derive(Default)]
struct FullTally {
    positions: usize,
    /// Played turns whose FEN (and, for some, outcome) were compared.
    turns: usize,
    outcomes_after: usize,
    refusals: usize,
    /// Placements that both engines refuse, and those both accept.
    rejected: usize,
    accepted: usize,
    /// Per setting: positions, turns, refusals.
    per_setting: Vec<(String, usize, usize, usize)>,
    /// Outcomes of compared positions, and refusals, by rule.
    ended: std::collections::BTreeMap<&'static str, usize>,
    refused: std::collections::BTreeMap<&'static str, usize>,
    differences: usize,
    /// The differences by what differed (for a refusal, the two rules).
    kinds: std::collections::BTreeMap<String, usize>,
    first: Vec<String>,
}

impl FullTally {
    fn differ(&mut self, setting: &Setting, fen: &str, kind: String, what: String) {
        self.differences += 1;
        let seen = self.kinds.entry(kind).or_insert(0);
        *seen += 1;
        // The first few of each kind, so that a common one hides no other.
        if *seen <= 3 && self.first.len() < 40 {
            self.first.push(format!(
                "[{} | {}]\n  fen {fen}\n  {what}",
                setting.label,
                setting.describe()
            ));
        }
    }
}

/// The pseudo-turns of a position: texts to write that are likely refused.
fn pseudo_turns(
    built_in: &Cypher,
    setting: &Setting,
    other: &Setting,
    rng: &mut Rng,
    want: usize,
) -> Vec<String> {
    let fen = built_in.fen();
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut out = Vec::new();
    // Every legal turn of the placement with the other side to move.
    let side = if fields[1] == "w" { "b" } else { "w" };
    let flipped = format!("{} {side} {} {} -", fields[0], fields[2], fields[3]);
    if let Ok(p) = Cypher::from_fen(Cypher::geometry(), &flipped, &setting.built_in) {
        out.extend(texts_all(&p));
    }
    // The legal turns under another setting.
    if let Ok(p) = Cypher::from_fen(Cypher::geometry(), &fen, &other.built_in) {
        out.extend(texts_all(&p));
    }
    // Any piece, or an empty square, to a random square, and a pawn released anywhere.
    let g = Cypher::geometry();
    let squares: Vec<_> = g.squares().collect();
    let board = built_in.board();
    for _ in 0..want / 3 + 4 {
        let from = squares[rng.below(squares.len())];
        let to = squares[rng.below(squares.len())];
        // A move to the square it starts from is no move of any piece: each engine names
        // another rule for it, and neither is wrong.
        if from == to {
            continue;
        }
        let letter = match board.get(from) {
            Some(p) if p.role() == Role::Pawn => String::new(),
            Some(p) => p.role().letter().to_string(),
            None => ["", "K", "Q", "R", "B", "N", "S"][rng.below(7)].to_string(),
        };
        let mark = if board.get(to).is_some() { "x" } else { "-" };
        out.push(format!(
            "{letter}{}{mark}{}",
            g.square_name(from),
            g.square_name(to)
        ));
        if rng.below(4) == 0 {
            out.push(format!("P@{}", g.square_name(to)));
        }
    }
    // A sample, in a fixed order.
    let mut sample = Vec::new();
    while !out.is_empty() && sample.len() < want {
        sample.push(out.swap_remove(rng.below(out.len())));
    }
    sample
}

/// The texts of `turns`, in Cypher's coordinates (the definition's `board` block names its
/// squares as the built-in does).
fn turn_texts<M>(turns: &[(M, Turn)]) -> Vec<String> {
    let g = Cypher::geometry();
    turns.iter().map(|(_, t)| t.text(&g)).collect()
}

/// Every legal turn of `pos` as text, sorted.
fn texts_all<R: Rules>(pos: &R) -> Vec<String> {
    let g = *pos.board().geometry();
    pos.legal_turns()
        .into_iter()
        .map(|(_, t)| t.text(&g))
        .collect()
}

/// Compares one position as both engines hold it; `false` on a difference (the game that
/// reached it stops there).
#[allow(clippy::too_many_arguments)]
fn compare_full(
    built_in: &Cypher,
    defined: &super::Position,
    setting: &Setting,
    other: &Setting,
    scale: Scale,
    rng: &mut Rng,
    tally: &mut FullTally,
    counts: &mut (usize, usize, usize),
) -> bool {
    let _g = 0;
    let fen = built_in.fen();
    if defined.fen() != fen {
        tally.differ(
            setting,
            &fen,
            "FEN".into(),
            format!("FEN: definition {}", defined.fen()),
        );
        return false;
    }
    tally.positions += 1;
    counts.0 += 1;
    let (bl, dl) = (
        LegalTurns::new(built_in.legal_turns()),
        LegalTurns::new(defined.legal_turns()),
    );
    let (a, b) = (turn_texts(bl.turns()), turn_texts(dl.turns()));
    if a != b {
        tally.differ(
            setting,
            &fen,
            "legal turns".into(),
            format!(
                "legal turns: built-in only [{}], definition only [{}]",
                only(&a, &b),
                only(&b, &a)
            ),
        );
        return false;
    }
    if built_in.in_check() != defined.in_check() {
        tally.differ(
            setting,
            &fen,
            "check".into(),
            format!(
                "in check: built-in {:?}, definition {:?}",
                built_in.in_check(),
                defined.in_check()
            ),
        );
        return false;
    }
    let (ob, od) = (
        out_of(built_in.outcome_with(!bl.is_empty())),
        out_of(defined.outcome_with(!dl.is_empty())),
    );
    if ob != od {
        tally.differ(
            setting,
            &fen,
            "outcome".into(),
            format!("outcome: built-in {ob:?}, definition {od:?}"),
        );
        return false;
    }
    if let Some((_, _, rule)) = ob {
        *tally.ended.entry(rule).or_insert(0) += 1;
        // A decided position's turns are refused by `game-over` before either engine is
        // asked.
        return true;
    }
    // Legal turns played on both: a sample of them, in a fixed order, for the FEN; the first
    // few of those also for the outcome.
    let mut order: Vec<usize> = (0..a.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    for (n, &i) in order.iter().take(scale.played).enumerate() {
        let (mut nb, mut nd) = (built_in.clone(), defined.clone());
        nb.play(bl.turns()[i].0);
        nd.play(dl.turns()[i].0);
        tally.turns += 1;
        counts.1 += 1;
        let (fb, fd) = (nb.fen(), nd.fen());
        if fb != fd {
            tally.differ(
                setting,
                &fen,
                "FEN after a turn".into(),
                format!("after {}: built-in {fb}, definition {fd}", a[i]),
            );
            return false;
        }
        let (ob, od) = if n < scale.decided {
            tally.outcomes_after += 1;
            (out_of(nb.outcome()), out_of(nd.outcome()))
        } else {
            // Decided by the turn itself (a flip, a coup, an infiltration), not by mate.
            (out_of(nb.outcome_with(true)), out_of(nd.outcome_with(true)))
        };
        if ob != od {
            tally.differ(
                setting,
                &fen,
                "outcome after a turn".into(),
                format!("after {}: outcome built-in {ob:?}, definition {od:?}", a[i]),
            );
            return false;
        }
    }
    // Written turns that are not legal: the same refusal.
    let mut ok = true;
    for text in pseudo_turns(built_in, setting, other, rng, scale.refused) {
        if a.binary_search(&text).is_ok() {
            continue;
        }
        let Ok(parsed) = crate::scenario::parse::parse_turn(&text) else {
            continue;
        };
        let (wb, wd) = (
            written(built_in, &bl, &parsed),
            written(defined, &dl, &parsed),
        );
        if wb.is_none() && wd.is_none() {
            continue;
        }
        tally.refusals += 1;
        counts.2 += 1;
        if wb != wd {
            let rule = |w: &Option<Written>| match w {
                Some(Err(r)) => r.to_string(),
                Some(Ok(_)) => "legal".into(),
                None => "unwritten".into(),
            };
            tally.differ(
                setting,
                &fen,
                format!("refusal: built-in {}, definition {}", rule(&wb), rule(&wd)),
                format!("{text}: built-in {wb:?}, definition {wd:?}"),
            );
            ok = false;
        } else if let Some(Err(rule)) = wb {
            *tally.refused.entry(rule).or_insert(0) += 1;
        }
    }
    ok
}

/// A random Cypher FEN: a King each, a Spy each (mostly; in Court or out), up to 16 other
/// pieces with pawns often one step from their coup row, prisoners, infiltrations used, and a
/// re-take square mostly on a piece it may name; now and then a pawn, Spy or re-take that
/// breaks a rule, so that the set-ups refused are compared too.
fn full_placement(rng: &mut Rng) -> String {
    let mut board = [[' '; 10]; 11];
    let court = |f: usize, r: usize| f == 0 || f == 9 || r == 0 || r == 10;
    let lawless = rng.below(12) == 0;
    let mut put = |rng: &mut Rng, piece: char, in_court: Option<bool>| loop {
        let (f, r) = match piece {
            // One step from the coup row, now and then.
            'P' if rng.below(3) == 0 => (1 + rng.below(8), 8),
            'p' if rng.below(3) == 0 => (1 + rng.below(8), 2),
            _ => (rng.below(10), rng.below(11)),
        };
        let fits = lawless
            || match piece {
                'P' => !court(f, r) && r != 9,
                'p' => !court(f, r) && r != 1,
                _ => in_court.is_none_or(|c| c == court(f, r)),
            };
        if board[r][f] == ' ' && fits {
            board[r][f] = piece;
            return (f, r);
        }
    };
    for king in ['K', 'k'] {
        let in_court = rng.below(3) == 0;
        put(rng, king, Some(in_court));
    }
    for spy in ['S', 's'] {
        let in_court = rng.below(2) == 0;
        if rng.below(8) != 0 {
            put(rng, spy, Some(in_court));
        }
    }
    let mut majors = Vec::new();
    for _ in 0..rng.below(17) {
        let piece = b"QRBNPPPPqrbnpppp"[rng.below(16)] as char;
        let at = put(rng, piece, None);
        if "QRBNqrbn".contains(piece) {
            majors.push((piece, at));
        }
    }
    let white = rng.below(2) == 0;
    let side = if white { "w" } else { "b" };
    let used = ["-", "W", "B", "WB"][rng.below(4)];
    let mut prisoners = || {
        if rng.below(2) == 0 {
            0
        } else {
            1 + rng.below(3)
        }
    };
    let (pw, pb) = (prisoners(), prisoners());
    // The re-take square holds a major piece of the side not to move, in the Field.
    let field = |(f, r): (usize, usize)| !court(f, r) && r != 5;
    let g = Cypher::geometry();
    let name =
        |(f, r): (usize, usize)| g.square_name(crate::rules::board::Square::new(f as u8, r as u8));
    let retake = match rng.below(6) {
        0 | 1 => majors
            .iter()
            .find(|(p, at)| p.is_ascii_uppercase() != white && field(*at))
            .map_or("-".to_string(), |(_, at)| name(*at)),
        2 if lawless => name((rng.below(10), rng.below(11))),
        _ => "-".to_string(),
    };
    format!("{} {side} {used} {pw}/{pb} {retake}", placement_of(&board))
}

/// Plays on from both engines' positions, `plies` random legal turns, comparing each
/// position reached.
#[allow(clippy::too_many_arguments)]
fn play_on(
    mut built_in: Cypher,
    mut defined: super::Position,
    plies: usize,
    setting: &Setting,
    other: &Setting,
    scale: Scale,
    rng: &mut Rng,
    tally: &mut FullTally,
    counts: &mut (usize, usize, usize),
) {
    let g = Cypher::geometry();
    for _ in 0..plies {
        if !compare_full(
            &built_in, &defined, setting, other, scale, rng, tally, counts,
        ) || built_in.outcome().is_some()
        {
            return;
        }
        let legal = built_in.legal_turns();
        let (m, t) = legal[rng.below(legal.len())].clone();
        let text = t.text(&g);
        let Some((dm, _)) = defined
            .legal_turns()
            .into_iter()
            .find(|(_, dt)| dt.text(&g) == text)
        else {
            unreachable!("the legal turns were compared");
        };
        built_in.play(m);
        defined.play(dm);
    }
}

/// The full comparison under every setting: at `scales[0]` for the defaults, `scales[1]`
/// for each option flipped alone, and `scales[2]` for each of `combos` random settings.
fn full_agreement(scales: [Scale; 3], combos: usize) -> FullTally {
    let _bound = full_definition();
    let mut rng = Rng(0xC1F4_E5B0_A2D5_E7C3);
    let settings = settings(combos, &mut rng);
    let mut tally = FullTally::default();
    for (i, setting) in settings.iter().enumerate() {
        let scale = scales[(i > 0) as usize + setting.label.starts_with("combo") as usize];
        let other = &settings[(i + 1 + rng.below(settings.len() - 1)) % settings.len()];
        let mut counts = (0, 0, 0);
        for _ in 0..scale.games {
            let b = Cypher::from_fen(Cypher::geometry(), FULL_START, &setting.built_in)
                .expect("the start");
            let d = super::Position::from_fen(Cypher::geometry(), FULL_START, &setting.defined)
                .expect("the start");
            play_on(
                b,
                d,
                scale.plies,
                setting,
                other,
                scale,
                &mut rng,
                &mut tally,
                &mut counts,
            );
        }
        for _ in 0..scale.placements {
            let fen = full_placement(&mut rng);
            let b = Cypher::from_fen(Cypher::geometry(), &fen, &setting.built_in);
            let d = super::Position::from_fen(Cypher::geometry(), &fen, &setting.defined);
            match (b, d) {
                (Err(_), Err(_)) => tally.rejected += 1,
                (Ok(b), Ok(d)) => {
                    tally.accepted += 1;
                    play_on(
                        b,
                        d,
                        scale.onward,
                        setting,
                        other,
                        scale,
                        &mut rng,
                        &mut tally,
                        &mut counts,
                    );
                }
                (b, d) => tally.differ(
                    setting,
                    &fen,
                    "a set-up one engine alone refuses".into(),
                    format!(
                        "set-up: built-in {}, definition {}",
                        b.map_or_else(|e| format!("refuses ({e})"), |_| "accepts".into()),
                        d.map_or_else(|e| format!("refuses ({e})"), |_| "accepts".into())
                    ),
                ),
            }
        }
        tally
            .per_setting
            .push((setting.label.clone(), counts.0, counts.1, counts.2));
    }
    tally
}

/// Prints the tallies and asserts that the engines never differed.
fn report(tally: &FullTally) {
    println!(
        "cypher.def against the built-in: {} positions ({} placements accepted by both, {} refused by both), {} turns played ({} with their outcome), {} refusals, {} settings",
        tally.positions,
        tally.accepted,
        tally.rejected,
        tally.turns,
        tally.outcomes_after,
        tally.refusals,
        tally.per_setting.len()
    );
    let mut combos = (0, 0, 0, 0, usize::MAX);
    for (label, p, t, r) in &tally.per_setting {
        if label.starts_with("combo") {
            combos = (
                combos.0 + 1,
                combos.1 + p,
                combos.2 + t,
                combos.3 + r,
                combos.4.min(*p),
            );
        } else {
            println!("  {label:<40} {p:>6} positions {t:>8} turns {r:>7} refusals");
        }
    }
    println!(
        "  {} random settings: {} positions (at least {} each), {} turns, {} refusals",
        combos.0, combos.1, combos.4, combos.2, combos.3
    );
    println!("  outcomes by rule: {:?}", tally.ended);
    println!("  refusals by rule: {:?}", tally.refused);
    println!("  differences by kind: {:?}", tally.kinds);
    assert!(
        tally.differences == 0,
        "{} differences; the first:\n{}",
        tally.differences,
        tally.first.join("\n")
    );
}

/// The coverage a run must reach, so that a generator gone wrong cannot pass by comparing
/// nothing: positions, turns and refusals by each setting, and the rules that decided and
/// refused.
fn assert_covered(tally: &FullTally, min_positions: usize) {
    for (label, p, t, r) in &tally.per_setting {
        assert!(
            *p >= min_positions && *t > 0 && *r > 0,
            "{label}: {p} positions, {t} turns, {r} refusals"
        );
    }
    assert!(tally.accepted > 0 && tally.rejected > 0);
    for rule in [
        "own-king-in-check",
        "prisoner-release",
        "spy-capture-powers",
        "spy-beside-king",
    ] {
        assert!(
            tally.refused.contains_key(rule),
            "no refusal by {rule}: {:?}",
            tally.refused
        );
    }
    assert!(tally.ended.len() >= 3, "games ended by {:?}", tally.ended);
}

#[test]
fn the_cypher_definition_plays_as_the_built_in_under_every_option() {
    let scale = Scale {
        games: 1,
        plies: 30,
        placements: 20,
        onward: 3,
        played: 40,
        decided: 4,
        refused: 24,
    };
    let combo = Scale {
        games: 1,
        plies: 3,
        placements: 2,
        onward: 2,
        played: 16,
        ..scale
    };
    let tally = full_agreement([scale, scale, combo], 200);
    report(&tally);
    assert_covered(&tally, 2);
}

#[test]
#[ignore = "thousands of positions under every option; run in release with --ignored --nocapture"]
fn the_cypher_definition_plays_as_the_built_in_under_every_option_at_length() {
    let default = Scale {
        games: 8,
        plies: 150,
        placements: 400,
        onward: 8,
        played: usize::MAX,
        decided: usize::MAX,
        refused: 120,
    };
    let flipped = Scale {
        games: 2,
        plies: 120,
        placements: 100,
        onward: 6,
        ..default
    };
    let combo = Scale {
        games: 1,
        plies: 30,
        placements: 6,
        onward: 4,
        ..default
    };
    let tally = full_agreement([default, flipped, combo], 200);
    report(&tally);
    assert_covered(&tally, 5);
}
