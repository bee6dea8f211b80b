//! Every ChessXpanse invariant can fail: for each one a position or a turn that breaks it
//! (built past the validating constructor by editing the board or the counters, played past
//! the move generator with [`Xpanse::apply`], or with a faked result), and a test that the table
//! of those cases covers the catalogue. And none fails in legal play: random playouts from
//! random crowded positions and from fixed crowded ones, on each of the six boards, under
//! random combinations of every option, keep every invariant after every turn.

use super::*;
use crate::fuzzing::{xpanse_paths_within, XPANSE_FENS, XPANSE_PATH_LEGS};
use crate::rules::testing::Rng;
use crate::rules::turn::Action;
use crate::rules::violations::{check_table, Case};

const W: Color = Color::White;
const B: Color = Color::Black;

fn geometry(files: u8, ranks: u8) -> Geometry {
    Xpanse::geometry_for(Some((files, ranks))).expect("a ChessXpanse board")
}

/// A position through the validating constructor, under the default readings.
fn at(size: (u8, u8), fen: &str) -> Xpanse {
    Xpanse::from_fen(geometry(size.0, size.1), fen, &Options::defaults(OPTIONS))
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(pos: &Xpanse, name: &str) -> Sq {
    Sq::of(pos.geometry().parse_square(name).expect("a square"))
}

fn put(pos: &mut Xpanse, name: &str, piece: Option<Piece>) {
    let s = sq(pos, name);
    pos.board.set(s, piece);
}

/// A path from `from` along `legs` (square, [`leg`] kind), with nothing following it.
fn path(pos: &Xpanse, from: &str, legs: &[(&str, u8)]) -> Move {
    legs.iter().fold(Move::path(sq(pos, from)), |m, (to, k)| {
        m.with_leg(sq(pos, to), *k)
    })
}

/// Whether the move generator offers `m`.
fn offered(pos: &Xpanse, m: &Move) -> bool {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.contains(m)
}

/// Plays a move with `apply`, whatever the move generator would offer; requires that the
/// generator does not offer it.
fn forced(mut pos: Xpanse, m: Move) -> Xpanse {
    assert!(!offered(&pos, &m), "the generator offers {m:?}");
    pos.apply(m);
    pos
}

// ---- no-magic-kills-its-kind ---------------------------------------------------------------

/// The Gatekeeper on a1 leaps the knight on a2 onto the black Gatekeeper on a3
/// (gatekeeper-no-kill-gatekeeper).
fn gatekeeper_kills_gatekeeper() -> Result<(), String> {
    let p = at((5, 5), "k4/5/g4/N4/G3K w");
    let m = path(&p, "a1", &[("a3", leg::KILL)]);
    forced(p, m).check_invariant("no-magic-kills-its-kind")
}

/// The Mage's (1,3) leap from a1 onto the black Mage on b4 (mage-no-kill-mage).
fn mage_kills_mage() -> Result<(), String> {
    let p = at((5, 5), "k4/1m3/5/5/M3K w");
    let m = path(&p, "a1", &[("b4", leg::KILL)]);
    forced(p, m).check_invariant("no-magic-kills-its-kind")
}

/// The Archer ricochets off its knight on c3 and kills the black Archer on e5 at the end of a
/// compound move (archer-no-kill-archer).
fn archer_kills_archer_after_a_ricochet() -> Result<(), String> {
    let p = at((5, 5), "k3a/5/2N2/5/A3K w");
    let m = path(&p, "a1", &[("c3", leg::RICOCHET), ("e5", leg::KILL)]);
    forced(p, m).check_invariant("no-magic-kills-its-kind")
}

/// Black's Archer kills White's Archer in the first leg of a path that goes on to kill a rook
/// (a kill that goes on, which only option archer-kill-continues = always allows).
fn black_archer_kills_archer_mid_path() -> Result<(), String> {
    let p = at((6, 6), "k5/6/2a3/6/A1R3/5K b");
    let m = path(&p, "c4", &[("a2", leg::KILL), ("c2", leg::KILL)]);
    forced(p, m).check_invariant("no-magic-kills-its-kind")
}

// ---- pawns-never-rest-on-far-row -----------------------------------------------------------

/// A Pawn steps onto its far row and is neither reborn nor vanishes (no follow-up).
fn pawn_stays_on_far_row() -> Result<(), String> {
    let p = at((5, 5), "k4/2P2/5/5/K4 w");
    let m = path(&p, "c4", &[("c5", leg::STEP)]);
    forced(p, m).check_invariant("pawns-never-rest-on-far-row")
}

/// A second Pawn joins the dormant Pawn of the set-up on the far row, and the dormant one is
/// not reborn in its place.
fn pawn_joins_a_dormant_pawn() -> Result<(), String> {
    let p = at((5, 5), "P3k/2P2/5/5/K4 w");
    assert_eq!(p.dormant_at_setup, [1, 0]);
    let m = path(&p, "c4", &[("c5", leg::STEP)]);
    forced(p, m).check_invariant("pawns-never-rest-on-far-row")
}

/// Ghost Mode: Black's Pawns move up, so its far row is the top one; a black Pawn put there
/// past the constructor (a black Pawn on the bottom row would be on its first row).
fn ghost_pawn_on_far_row() -> Result<(), String> {
    let mut p = at((4, 5), "k3/4/4/4/K2p w 0/0 0/0 -/- up/up");
    assert_eq!(p.check_invariant("pawns-never-rest-on-far-row"), Ok(()));
    put(&mut p, "c5", Some(Piece::new(B, Role::Pawn)));
    p.check_invariant("pawns-never-rest-on-far-row")
}

// ---- passes-at-most-two --------------------------------------------------------------------

/// A third pass in one battle (the generator offers none once two are used).
fn third_pass() -> Result<(), String> {
    let p = at((5, 5), "k3r/5/5/5/K3R w 2/0 0/0 -/- up/down");
    forced(p, Move::pass(MoveKind::Pass)).check_invariant("passes-at-most-two")
}

/// A pass counter past the constructor's bound.
fn passes_overflow() -> Result<(), String> {
    let mut p = at((6, 7), "k5/6/6/6/6/6/K5 b");
    p.state.passes[1] = 255;
    p.check_invariant("passes-at-most-two")
}

// ---- battle-ends-when-last-king-dies -------------------------------------------------------

/// Black's only King taken off the board, and the battle goes on.
fn king_gone_battle_goes_on() -> Result<(), String> {
    let mut p = at((5, 5), "k4/5/5/5/K3R w");
    put(&mut p, "a5", None);
    p.check_invariant("battle-ends-when-last-king-dies")
}

/// Black's last King gone, and the battle recorded as won by Black on the 10 Kill Rule.
fn last_king_gone_wrong_result() -> Result<(), String> {
    let mut p = at((6, 6), "k5/6/6/6/6/K4R w");
    p.result = Some(win(B, Reason::KillRule, "kill-rule"));
    put(&mut p, "a6", None);
    p.check_invariant("battle-ends-when-last-king-dies")
}

/// A battle recorded as won by extinction while the loser still has a King.
fn extinction_with_a_king_left() -> Result<(), String> {
    let mut p = at((5, 6), "kk3/5/5/5/5/K3R b");
    p.result = Some(win(W, Reason::Extinction, "extinction"));
    p.check_invariant("battle-ends-when-last-king-dies")
}

// ---- piece-limits --------------------------------------------------------------------------

fn fourth_king() -> Result<(), String> {
    let mut p = at((5, 5), "k4/5/5/5/KKK2 w");
    put(&mut p, "e1", Some(Piece::new(W, Role::King)));
    p.check_invariant("piece-limits")
}

fn second_archer() -> Result<(), String> {
    let mut p = at((7, 7), "k5a/7/7/7/7/7/K6 b");
    put(&mut p, "d4", Some(Piece::new(B, Role::Archer)));
    p.check_invariant("piece-limits")
}

/// A fourth Pawn reborn onto the first row (a rebirth that copied the Pawn).
fn fourth_pawn() -> Result<(), String> {
    let mut p = at((6, 6), "k5/6/6/6/PPP3/K5 w");
    put(&mut p, "f2", Some(Piece::new(W, Role::Pawn)));
    p.check_invariant("piece-limits")
}

fn spy_on_the_board() -> Result<(), String> {
    let mut p = at((5, 5), "k4/5/5/5/K4 w");
    put(&mut p, "c3", Some(Piece::new(W, Role::Spy)));
    p.check_invariant("piece-limits")
}

fn invented_piece_on_the_board() -> Result<(), String> {
    let mut p = at((5, 6), "k4/5/5/5/5/K4 w");
    let wd = crate::rules::design::intern("WD").expect("a design");
    put(&mut p, "d4", Some(Piece::designed(B, wd)));
    p.check_invariant("piece-limits")
}

// ---- pieces-never-gained -------------------------------------------------------------------

/// A black knight appears on the board along with a legal white turn.
fn piece_appears_with_a_turn() -> Result<(), String> {
    let mut p = at((5, 5), "k3n/5/5/5/K3R w");
    let m = path(&p, "e1", &[("e2", leg::STEP)]);
    assert!(offered(&p, &m));
    p.apply(m);
    assert_eq!(p.check_invariant("pieces-never-gained"), Ok(()));
    put(&mut p, "c3", Some(Piece::new(B, Role::Knight)));
    p.check_invariant("pieces-never-gained")
}

/// A rebirth that leaves the arriving Pawn on the far row as well as putting one on the
/// first row: one Pawn becomes two.
fn rebirth_copies_the_pawn() -> Result<(), String> {
    let mut p = at((4, 5), "k3/1P2/4/4/K3 w");
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let reborn = *moves
        .iter()
        .find(|m| matches!(m.follow, Follow::Reborn { .. }))
        .expect("a rebirth");
    p.apply(reborn);
    assert_eq!(p.check_invariant("pieces-never-gained"), Ok(()));
    put(&mut p, "b5", Some(Piece::new(W, Role::Pawn)));
    p.check_invariant("pieces-never-gained")
}

/// Each invariant, a fragment of what it reports, and a case that breaks it.
const VIOLATIONS: &[Case] = &[
    (
        "no-magic-kills-its-kind",
        "the white gatekeeper killed the black gatekeeper",
        gatekeeper_kills_gatekeeper,
    ),
    (
        "no-magic-kills-its-kind",
        "the white mage killed the black mage",
        mage_kills_mage,
    ),
    (
        "no-magic-kills-its-kind",
        "the white archer killed the black archer",
        archer_kills_archer_after_a_ricochet,
    ),
    (
        "no-magic-kills-its-kind",
        "the black archer killed the white archer",
        black_archer_kills_archer_mid_path,
    ),
    (
        "pawns-never-rest-on-far-row",
        "white has 1 pawns on its far row, and had 0 dormant ones at the set-up",
        pawn_stays_on_far_row,
    ),
    (
        "pawns-never-rest-on-far-row",
        "white has 2 pawns on its far row, and had 1 dormant ones at the set-up",
        pawn_joins_a_dormant_pawn,
    ),
    (
        "pawns-never-rest-on-far-row",
        "black has 1 pawns on its far row, and had 0 dormant",
        ghost_pawn_on_far_row,
    ),
    (
        "passes-at-most-two",
        "white has passed 3 times",
        third_pass,
    ),
    (
        "passes-at-most-two",
        "black has passed 255 times",
        passes_overflow,
    ),
    (
        "battle-ends-when-last-king-dies",
        "black has no King, and the battle's result is none",
        king_gone_battle_goes_on,
    ),
    (
        "battle-ends-when-last-king-dies",
        "black has no King, and the battle's result is black wins by kill-rule",
        last_king_gone_wrong_result,
    ),
    (
        "battle-ends-when-last-king-dies",
        "the battle ended by extinction (white wins by extinction (rule extinction)), but the loser still has a King",
        extinction_with_a_king_left,
    ),
    ("piece-limits", "white has 4 kings; at most 3", fourth_king),
    ("piece-limits", "black has 2 archers; at most 1", second_archer),
    ("piece-limits", "white has 4 pawns; at most 3", fourth_pawn),
    (
        "piece-limits",
        "a white spy stands on c3, and ChessXpanse has no such piece",
        spy_on_the_board,
    ),
    (
        "piece-limits",
        "a black (WD) stands on d4, and ChessXpanse has no such piece",
        invented_piece_on_the_board,
    ),
    (
        "pieces-never-gained",
        "black had 2 pieces before the last turn and has 3 after it",
        piece_appears_with_a_turn,
    ),
    (
        "pieces-never-gained",
        "white had 2 pieces before the last turn and has 3 after it",
        rebirth_copies_the_pawn,
    ),
    (
        "no-check",
        "the white King on c2 may not step to b1",
        king_steps_dropped,
    ),
];

/// `no-check` reads the move generator's own output, so only a generator broken on purpose
/// breaks it: with the King's moves dropped (`BREAK_KING_STEPS`), the King on c2 has steps
/// the geometry allows and no legal turn makes them.
fn king_steps_dropped() -> Result<(), String> {
    let pos = Xpanse::from_fen(
        Geometry::lettered(4, 5),
        "k3/4/4/1RK1/4 w",
        &Options::defaults(OPTIONS),
    )
    .expect("a position");
    assert_eq!(pos.check_invariant("no-check"), Ok(()));
    BREAK_KING_STEPS.with(|b| b.set(true));
    let found = pos.check_invariant("no-check");
    BREAK_KING_STEPS.with(|b| b.set(false));
    found
}

#[test]
fn every_invariant_reports_its_violations_and_the_table_covers_the_catalogue() {
    check_table(VIOLATIONS, INVARIANTS);
}

/// What `no-check` asserts, in positions built for it: a King stands among eight enemy
/// pieces that attack it and each other's squares, its side has spent its passes, and each of
/// its eight steps (each a kill) is a legal turn.
#[test]
fn no_check_is_kept_where_kings_stand_attacked() {
    for (size, fen) in [
        ((5, 5), "k4/5/1rqr1/1nKb1/1pgm1 w 2/2 0/0 -/- up/down"),
        ((4, 5), "k3/4/qrr1/1K2/nb2 w 2/0 0/0 -/- up/down"),
        ((7, 7), "k6/7/2qrq2/2aKb2/2nmg2/7/7 w 2/2 0/0 -/- up/down"),
    ] {
        let p = at(size, fen);
        assert_eq!(p.check_invariant("no-check"), Ok(()), "{fen}");
        let kings = p
            .legal_turns()
            .iter()
            .filter(|(_, t)| {
                matches!(
                    t.actions.first(),
                    Some(Action::Move {
                        role: Role::King,
                        ..
                    })
                )
            })
            .count();
        assert_eq!(kings, 8, "{fen}");
    }
}

// ---- None fails in legal play ----------------------------------------------------------------

/// A number from the environment, or a default (for longer runs of the random tests:
/// `ARBITER_INVARIANT_POSITIONS=2000 ARBITER_INVARIANT_SEED=7 cargo test --lib xpanse`).
fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
}

/// Random values for every option.
fn random_options(rng: &mut Rng) -> Options {
    let mut options = Options::defaults(OPTIONS);
    for d in OPTIONS {
        let v = d.values[rng.below(d.values.len())];
        options
            .set(OPTIONS, "xpanse", d.name, v)
            .expect("a value of the option");
    }
    options
}

/// A random valid battle on a `files` x `ranks` board: one to three Kings a side and up to the
/// Nine Pieces limits of everything else, filling about `fill` percent of the board; random
/// pawn directions, side to move, passes, moves without a kill and timeouts. Positions whose
/// Magic Pieces have more paths than the fuzz targets list ([`XPANSE_PATH_LEGS`]) are drawn
/// again.
fn random_position(
    rng: &mut Rng,
    (files, ranks): (u8, u8),
    fill: usize,
    options: &Options,
) -> Xpanse {
    let g = geometry(files, ranks);
    let squares = usize::from(files) * usize::from(ranks);
    loop {
        let mut s = Setup::empty(g);
        let mut empty: Vec<Square> = g.squares().collect();
        let mut place = |rng: &mut Rng, piece: Piece| {
            if !empty.is_empty() {
                let at = empty.swap_remove(rng.below(empty.len()));
                s.board.put(at, Some(piece));
            }
        };
        let budget = squares * fill / 100 / 2;
        for c in Color::ALL {
            let mut pool: Vec<Role> = Vec::new();
            for (role, most) in LIMITS {
                let extra = if role == Role::King { most - 1 } else { most };
                pool.extend(std::iter::repeat_n(role, usize::from(extra)));
            }
            place(rng, Piece::new(c, Role::King));
            // The Magic Pieces often, the others at random.
            for role in [Role::Gatekeeper, Role::Mage, Role::Archer] {
                if rng.below(3) > 0 {
                    place(rng, Piece::new(c, role));
                    pool.retain(|r| *r != role);
                }
            }
            for _ in 0..rng.below(budget.max(1) + 1) {
                if pool.is_empty() {
                    break;
                }
                let role = pool.swap_remove(rng.below(pool.len()));
                place(rng, Piece::new(c, role));
            }
            let key = |k: &str| (k.to_string(), Some(c));
            let up = if rng.below(2) == 0 { "up" } else { "down" };
            s.keys.insert(key("pawn-direction"), up.into());
            s.keys.insert(
                key("passes"),
                rng.below(usize::from(MAX_PASSES) + 1).to_string(),
            );
            s.keys
                .insert(key("moves-without-kill"), rng.below(6).to_string());
            s.keys.insert(key("timeouts"), rng.below(2).to_string());
        }
        if rng.below(2) == 0 {
            s.turn = Color::Black;
        }
        if let Ok(p) = Xpanse::from_setup(&s, options) {
            if xpanse_paths_within(&p, XPANSE_PATH_LEGS) {
                return p;
            }
        }
    }
}

/// What the playouts met, so that a test cannot pass by meeting nothing.
#[derive(Default, Debug)]
struct Seen {
    turns: usize,
    kills: usize,
    multiple_kills: usize,
    rebirths: usize,
    vanishings: usize,
    passes: usize,
    ricochets: usize,
    switches: usize,
    /// Playouts stopped at a position with more paths than [`XPANSE_PATH_LEGS`].
    stopped: usize,
    /// Battles ended, by extinction, challenge, the 10 Kill Rule and no legal move.
    ended: [usize; 4],
}

/// The invariants that list the legal turns (`no-check`) or look for one (the outcome that
/// `battle-ends-when-last-king-dies` reads).
const LISTING: [&str; 2] = ["no-check", "battle-ends-when-last-king-dies"];

/// Plays up to `turns` random legal turns from `start`, checking every invariant before the
/// first turn and after each one. A position whose Magic Pieces have more paths than
/// [`XPANSE_PATH_LEGS`] ends the playout, with the invariants that do not list its turns
/// checked.
fn playout_keeps_invariants(rng: &mut Rng, start: Xpanse, turns: usize, seen: &mut Seen) {
    let first = start.fen();
    let mut pos = start;
    let mut played: Vec<String> = Vec::new();
    let check = |pos: &Xpanse, played: &[String]| {
        let listable = xpanse_paths_within(pos, XPANSE_PATH_LEGS);
        for inv in INVARIANTS {
            if !listable && LISTING.contains(&inv.name) {
                continue;
            }
            if let Err(e) = pos.check_invariant(inv.name) {
                panic!(
                    "{}: {e}\nafter {} from {first} ({:?})",
                    inv.name,
                    played.join(" "),
                    pos.opts
                );
            }
        }
    };
    check(&pos, &played);
    for _ in 0..turns {
        if !xpanse_paths_within(&pos, XPANSE_PATH_LEGS) {
            seen.stopped += 1;
            break;
        }
        if let Some(o) = pos.outcome() {
            let i = match o.reason {
                Reason::Extinction => 0,
                Reason::Challenge => 1,
                Reason::KillRule => 2,
                _ => 3,
            };
            seen.ended[i] += 1;
            break;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        // Far-row arrivals and kills now and then more often than at random, so that Pawns
        // are reborn and Kings die.
        let m = match rng.below(8) {
            0 => {
                let eventful: Vec<&Move> = moves
                    .iter()
                    .filter(|m| m.kills() || m.follow != Follow::None)
                    .collect();
                if eventful.is_empty() {
                    moves[rng.below(moves.len())]
                } else {
                    *eventful[rng.below(eventful.len())]
                }
            }
            _ => moves[rng.below(moves.len())],
        };
        seen.turns += 1;
        let kinds: Vec<u8> = m.legs().map(|(_, k)| k).collect();
        let kills = kinds.iter().filter(|k| **k == leg::KILL).count();
        seen.kills += usize::from(kills > 0);
        seen.multiple_kills += usize::from(kills > 1);
        seen.ricochets += usize::from(kinds.contains(&leg::RICOCHET));
        seen.switches += usize::from(kinds.contains(&leg::SWITCH));
        seen.passes += usize::from(m.kind != MoveKind::Path);
        match m.follow {
            Follow::Reborn { .. } => seen.rebirths += 1,
            Follow::Vanish { .. } => seen.vanishings += 1,
            Follow::None => {}
        }
        played.push(pos.describe(m).text(pos.geometry()));
        pos.play(m);
        check(&pos, &played);
    }
}

#[test]
fn no_random_playout_on_any_board_breaks_an_invariant() {
    let mut rng = Rng(knob("ARBITER_INVARIANT_SEED", 0x00C4_E55A_1D5E_ED11).max(1));
    let positions = knob("ARBITER_INVARIANT_POSITIONS", 240) as usize;
    let mut seen = Seen::default();
    let mut per_board = [0usize; 6];
    for i in 0..positions {
        let b = i % INFO.boards.len();
        let options = random_options(&mut rng);
        let fill = 25 + rng.below(50);
        let start = random_position(&mut rng, INFO.boards[b], fill, &options);
        let before = seen.turns;
        playout_keeps_invariants(&mut rng, start, 80, &mut seen);
        per_board[b] += seen.turns - before;
    }
    eprintln!("{positions} random positions, turns by board {per_board:?}: {seen:?}");
    // Every board plays about as many turns as there are positions, or more.
    assert!(per_board.iter().all(|n| *n > positions), "{per_board:?}");
    assert!(
        seen.rebirths > 10
            && seen.vanishings > 10
            && seen.multiple_kills > 10
            && seen.switches > 10
            && seen.passes > 50
            && seen.ended[..3].iter().all(|n| *n > 10),
        "{seen:?}"
    );
}

#[test]
fn no_random_playout_from_a_crowded_position_breaks_an_invariant() {
    let mut rng = Rng(knob("ARBITER_INVARIANT_SEED", 0x5EED_C20E_DED0_0001).max(1));
    let mut seen = Seen::default();
    for _ in 0..knob("ARBITER_INVARIANT_ROUNDS", 10) {
        for (size, fen) in XPANSE_FENS {
            let options = random_options(&mut rng);
            let start = Xpanse::from_fen(geometry(size.0, size.1), fen, &options)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            playout_keeps_invariants(&mut rng, start, 80, &mut seen);
        }
    }
    eprintln!("from the crowded positions: {seen:?}");
    assert!(
        seen.turns > 1500 && seen.rebirths > 10 && seen.switches > 50,
        "{seen:?}"
    );
}

/// The fixed positions of `turn_text` and of the crowded playouts set up under every
/// combination of the readings that shape the Magic Pieces' paths (the others change no
/// path), and their paths stay within what the fuzz targets list.
#[test]
fn the_crowded_positions_parse_and_are_listable_under_every_reading() {
    for (size, fen) in XPANSE_FENS {
        for o in super::oracle::every_path_reading() {
            let p = Xpanse::from_fen(geometry(size.0, size.1), fen, &o)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert!(xpanse_paths_within(&p, XPANSE_PATH_LEGS), "{fen} {o:?}");
        }
    }
}
