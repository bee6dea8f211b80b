//! Two-action Cypher turns are judged action by action (main V.v.iii, VI.i.a): on random
//! positions under random combinations of every option, the first action of each legal compound
//! turn (a Spy's exit from Court, a King's step onto the Border) must leave a board on which no
//! flipping configuration of the texts stands (so it neither broke a Spy or King rule nor
//! decided the game), and played alone it must be a legal turn that decides nothing, or be
//! refused only because the mover's King is in check, which the end of the turn may repair.
//!
//! The flipping configurations are checked here from the board alone, independently of the
//! engine: any King next to any Spy, two Spies side by side, two Border Kings side by side, and
//! a Court Spy on an open line with the opposing Court King. Under every reading each of them
//! is either illegal or decides the game, so none may follow a first action that is continued.

use arbiter::rules::cypher::Cypher;
use arbiter::rules::piece::{Color, Role};
use arbiter::rules::turn::Action;
use arbiter::rules::{Game, Options, Reason, Rules, Square};
use arbiter::scenario::evaluate::Lowering;
use arbiter::scenario::parse::parse_turn;

/// A small deterministic generator (xorshift64*), so that a failure names a reproducible case.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const FILES: u8 = 10;
const RANKS: u8 = 11;

fn is_court(s: Square) -> bool {
    s.file == 0 || s.file == FILES - 1 || s.rank == 0 || s.rank == RANKS - 1
}

fn is_border(s: Square) -> bool {
    s.rank == 5 && !is_court(s)
}

fn adjacent(a: Square, b: Square) -> bool {
    a != b && a.file.abs_diff(b.file) <= 1 && a.rank.abs_diff(b.rank) <= 1
}

/// A square the generator likes for a piece: anywhere, or (for Kings) next to the Border, or
/// (for Spies) in Court, where the compound turns start.
fn square(rng: &mut Rng, near: Option<&[u8]>) -> Square {
    match near {
        Some(ranks) if rng.below(3) > 0 => Square {
            file: 1 + rng.below(8) as u8,
            rank: ranks[rng.below(ranks.len() as u64) as usize],
        },
        _ => Square {
            file: rng.below(FILES as u64) as u8,
            rank: rng.below(RANKS as u64) as u8,
        },
    }
}

/// A Court square.
fn court_square(rng: &mut Rng) -> Square {
    loop {
        let s = square(rng, None);
        if is_court(s) {
            return s;
        }
    }
}

/// A random placement as a Cypher FEN: both Kings and Spies, and a few other pieces.
fn random_fen(rng: &mut Rng) -> String {
    let mut grid = [['.'; FILES as usize]; RANKS as usize];
    let place = |s: Square, c: char, grid: &mut [[char; 10]; 11]| {
        let cell = &mut grid[s.rank as usize][s.file as usize];
        if *cell == '.' {
            *cell = c;
        }
    };
    place(square(rng, Some(&[4, 6])), 'K', &mut grid);
    place(square(rng, Some(&[4, 6])), 'k', &mut grid);
    for c in ['S', 's'] {
        let s = if rng.below(3) > 0 {
            court_square(rng)
        } else {
            square(rng, None)
        };
        place(s, c, &mut grid);
    }
    for _ in 0..rng.below(9) {
        let c = b"QRBNPqrbnp"[rng.below(10) as usize] as char;
        let s = square(rng, None);
        place(s, c, &mut grid);
    }
    let ranks: Vec<String> = (0..RANKS)
        .rev()
        .map(|r| {
            let mut out = String::new();
            let mut empty = 0;
            for &c in &grid[r as usize] {
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let side = if rng.below(2) == 0 { 'w' } else { 'b' };
    format!("{} {side} - 0/0 -", ranks.join("/"))
}

/// Every option at a random one of its values.
fn random_options(rng: &mut Rng) -> (Options, Vec<String>) {
    let mut o = Options::defaults(Cypher::options());
    let mut chosen = Vec::new();
    for d in Cypher::options() {
        let v = d.values[rng.below(d.values.len() as u64) as usize];
        o.set(Cypher::options(), "cypher", d.name, v).unwrap();
        chosen.push(format!("{}={v}", d.name));
    }
    (o, chosen)
}

/// The flipping configurations (see the file's head) standing on `pieces`.
fn flipping_configurations(pieces: &[(Square, Color, Role)]) -> Vec<String> {
    let find = |role: Role| -> Vec<(Square, Color)> {
        pieces
            .iter()
            .filter(|p| p.2 == role)
            .map(|p| (p.0, p.1))
            .collect()
    };
    let (kings, spies) = (find(Role::King), find(Role::Spy));
    let occupied = |s: Square| pieces.iter().any(|p| p.0 == s);
    let mut found = Vec::new();
    for &(k, kc) in &kings {
        for &(s, sc) in &spies {
            if adjacent(k, s) {
                found.push(format!("{kc:?} king {k:?} next to the {sc:?} spy {s:?}"));
            }
            if kc != sc && is_court(k) && is_court(s) && open_line(s, k, &occupied) {
                found.push(format!(
                    "{sc:?} Court spy {s:?} on a line with the Court king {k:?}"
                ));
            }
        }
        for &(k2, _) in &kings {
            if is_border(k) && is_border(k2) && adjacent(k, k2) {
                found.push(format!("Border kings {k:?} and {k2:?} side by side"));
            }
        }
    }
    if spies.len() == 2 && adjacent(spies[0].0, spies[1].0) {
        found.push("the spies side by side".into());
    }
    found
}

/// One file, rank or diagonal from `a` to `b`, at least one square between, all of them empty.
fn open_line(a: Square, b: Square, occupied: &dyn Fn(Square) -> bool) -> bool {
    let (df, dr) = (b.file as i32 - a.file as i32, b.rank as i32 - a.rank as i32);
    if (df != 0 && dr != 0 && df.abs() != dr.abs()) || df.abs().max(dr.abs()) < 2 {
        return false;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let (mut f, mut r) = (a.file as i32 + sf, a.rank as i32 + sr);
    while (f, r) != (b.file as i32, b.rank as i32) {
        if occupied(Square {
            file: f as u8,
            rank: r as u8,
        }) {
            return false;
        }
        f += sf;
        r += sr;
    }
    true
}

fn pieces_of(pos: &Cypher) -> Vec<(Square, Color, Role)> {
    pos.board()
        .pieces()
        .map(|(s, p)| (s, p.color(), p.role()))
        .collect()
}

/// What one position shows; counts what was checked.
#[derive(Default)]
struct Tally {
    positions: usize,
    compounds: usize,
    openings_in_check: usize,
}

fn check_position(
    pos: &Cypher,
    options: &Options,
    tally: &mut Tally,
    case: &str,
) -> Result<(), String> {
    let g = *pos.board().geometry();
    let game = Game::new(pos.clone(), options.clone());
    let turns = game.legal_turns();
    tally.positions += 1;
    for (_, turn) in &turns {
        if turn.actions.len() != 2 || !matches!(turn.actions[1], Action::Move { .. }) {
            continue;
        }
        tally.compounds += 1;
        let text = turn.text(&g);
        let (Action::Move { from, .. }, Some(to)) =
            (turn.actions[0].clone(), turn.actions[0].destination())
        else {
            return Err(format!("{case}: {text} does not open with a move"));
        };
        // The board after the first action alone (nothing is captured by a compound's opening
        // that matters here: a captured piece is neither a King nor a Spy).
        let mut after = pieces_of(pos);
        after.retain(|p| p.0 != to);
        for p in after.iter_mut() {
            if p.0 == from {
                p.0 = to;
            }
        }
        let configurations = flipping_configurations(&after);
        if !configurations.is_empty() {
            return Err(format!(
                "{case}: the legal turn {text} goes on after a first action that leaves {}",
                configurations.join(", ")
            ));
        }
        // The first action alone: a legal turn deciding nothing, or refused for check only.
        let opening = arbiter::rules::turn::Turn::single(turn.actions[0].clone());
        match turns.iter().find(|(_, t)| *t == opening) {
            Some((m, _)) => {
                let mut next = pos.clone();
                next.play(*m);
                // Mate and stalemate are judged when the opponent is to move, after the whole
                // turn; what a first action can decide is a flip, an infiltration or a coup.
                if let Some(o) = next
                    .outcome()
                    .filter(|o| !matches!(o.reason, Reason::Checkmate | Reason::Stalemate))
                {
                    return Err(format!(
                        "{case}: {text} is legal, but its first action alone decides the game ({o})"
                    ));
                }
            }
            None => {
                let alone = opening.text(&g);
                let parsed = parse_turn(&alone).map_err(|p| format!("{alone}: {}", p.message))?;
                let pattern = Lowering::<Cypher>::new(g)
                    .turn(&parsed)
                    .map_err(|p| format!("{alone}: {}", p.message))?;
                let refusal = pos.refusal(&pattern);
                if refusal.rule != "own-king-in-check" {
                    return Err(format!(
                        "{case}: {text} is legal, but its first action alone is refused by {}: {}",
                        refusal.rule, refusal.reason
                    ));
                }
                tally.openings_in_check += 1;
            }
        }
    }
    Ok(())
}

#[test]
fn a_compound_turn_goes_on_only_after_a_legal_undecided_first_action() {
    let mut rng = Rng(0x5eed_c0de_2026_1124);
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    for i in 0..3000 {
        let fen = random_fen(&mut rng);
        let (options, chosen) = random_options(&mut rng);
        let Ok(pos) = Cypher::from_fen(Cypher::geometry(), &fen, &options) else {
            continue;
        };
        // Only undecided positions that show no flipping configuration already.
        if pos.outcome().is_some() || !flipping_configurations(&pieces_of(&pos)).is_empty() {
            continue;
        }
        let case = format!("case {i}, fen \"{fen}\", options {}", chosen.join(" "));
        if let Err(e) = check_position(&pos, &options, &mut tally, &case) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, the first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(5)].join("\n")
    );
    eprintln!(
        "{} positions, {} compound turns, {} openings refused alone for check",
        tally.positions, tally.compounds, tally.openings_in_check
    );
    // The sample must reach the cases the property is about.
    assert!(tally.positions >= 500, "only {} positions", tally.positions);
    assert!(
        tally.compounds >= 2000,
        "only {} compound turns",
        tally.compounds
    );
}
