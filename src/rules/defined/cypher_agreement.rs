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
