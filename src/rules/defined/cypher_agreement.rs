//! Cypher Chess's board as a definition (`variants/cypher-board.def`: zones, the knight by
//! zone, the sanctuaries) against the built-in `cypher`, on positions without Spies: the same
//! legal turns and the same check, along random games from the start without Spies and on
//! random placements, both generated from fixed seeds.
//!
//! What the definition does not write is kept out of the comparison, exactly so:
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
        let only = |x: &[String], y: &[String]| {
            x.iter()
                .filter(|t| !y.contains(t))
                .cloned()
                .collect::<Vec<_>>()
                .join(" ")
        };
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
                let only = |x: &[String], y: &[String]| {
                    x.iter()
                        .filter(|t| !y.contains(t))
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(" ")
                };
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
