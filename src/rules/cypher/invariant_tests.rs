//! Every invariant of Cypher Chess can fail: for each one a position or a turn that breaks it
//! (built past the validating constructor, played past the move generator with [`Cypher::apply`],
//! or played with a rule broken on purpose through [`Broken`]), and a test that the table of
//! those cases covers the catalogue. And none fails in legal play: every legal turn of many
//! random positions, under random options, keeps every invariant.

use super::tests::{opts, setup, sq};
use super::*;
use crate::rules::game::Game;
use crate::rules::Budget;

/// A position from placements such as `Ke2 Qd2 Sd0 a3`, through the validating constructor.
fn position(
    white: &str,
    black: &str,
    black_to_move: bool,
    keys: &[(&str, Option<Color>, &str)],
) -> Cypher {
    let s = setup(white, black, black_to_move, keys);
    Cypher::from_setup(&s, &opts(&[])).unwrap_or_else(|e| panic!("{white} / {black}: {e}"))
}

/// The mailbox index of a square name.
fn mbx(s: &str) -> i32 {
    Sq::of(sq(s)).0 as i32
}

/// Plays a turn with `apply`, whatever the move generator would offer, and requires that no rule
/// checked after the movement refused it.
fn forced(mut pos: Cypher, m: Move) -> Cypher {
    assert_eq!(pos.apply(m), Ok(()), "{m:?}");
    pos
}

fn put(pos: &mut Cypher, s: &str, piece: Option<Piece>) {
    pos.board.put(sq(s), piece);
}

/// Breaks a rule for the current test thread until dropped.
struct Break;

impl Break {
    fn rule(rule: Broken) -> Break {
        BROKEN.with(|b| b.set(rule));
        Break
    }
}

impl Drop for Break {
    fn drop(&mut self) {
        BROKEN.with(|b| b.set(Broken::None));
    }
}

const W: Color = Color::White;
const B: Color = Color::Black;

/// White's King stands in Court on z3, on the z file with a black Court rook on z10 that, zones
/// aside, would attack it. White to move, with quiet moves that leave the King where it is.
fn court_king_on_an_open_file() -> Cypher {
    let p = position("Kz3 Sh0 b3", "Kb8 Sh10 Rz10", false, &[]);
    assert_eq!(p.in_check(), Some(false));
    assert!(p.check_invariant("court-king-never-in-check").is_ok());
    p
}

/// The side that just moved (White) left its Field King in check: a black Court rook on e10
/// put there past the constructor, on the open e file.
fn mover_left_in_check() -> Result<(), String> {
    let mut p = forced(
        position("Ke3 Sh0 b3", "Kb8 Sh10", false, &[]),
        Move::new(mbx("e3"), mbx("e4"), K_NORMAL),
    );
    put(&mut p, "e10", Some(Piece::new(B, Role::Rook)));
    p.check_invariant("court-king-never-in-check")
}

/// `king_in_check` broken so that it forgets Court: the Court King is reported in check.
fn court_king_reported_in_check() -> Result<(), String> {
    let p = court_king_on_an_open_file();
    let _broken = Break::rule(Broken::InCheckCourtGuard);
    p.check_invariant("court-king-never-in-check")
}

/// `judge` broken so that it forgets Court when it looks for the mover's King in check: the
/// Court King's quiet turns are refused with own-king-in-check (`in_check` is still right).
fn court_king_turns_refused() -> Result<(), String> {
    let p = court_king_on_an_open_file();
    let _broken = Break::rule(Broken::JudgeCourtGuard);
    assert_eq!(p.in_check(), Some(false));
    p.check_invariant("court-king-never-in-check")
}

/// The same broken `judge` lets an invariant search find the break from a position one turn
/// away: Black's rook steps onto the z file.
fn court_king_break_found_by_search() -> Result<(), String> {
    let p = position("Kz3 Sh0 b3", "Kb8 Sh10 Rc10", true, &[]);
    let _broken = Break::rule(Broken::JudgeCourtGuard);
    let game = Game::new(p, opts(&[]));
    match game.invariant_violation("court-king-never-in-check", 1, &mut Budget::unlimited()) {
        Ok(Some((path, broke))) => Err(format!("{}: {broke}", path.join(" "))),
        Ok(None) => Ok(()),
        Err(stop) => panic!("{stop}"),
    }
}

fn pawn_on_court() -> Result<(), String> {
    let mut p = position("Ke3 Sh0", "Kb8 Sh10", false, &[]);
    put(&mut p, "c10", Some(Piece::new(W, Role::Pawn)));
    p.check_invariant("no-pawn-on-court")
}

/// A Court queen takes the enemy Spy, which the move generator never offers (spy-immunity).
fn spy_captured() -> Result<(), String> {
    let p = forced(
        position("Ke3 Sh0 Qz4", "Kb8 Sd4", false, &[]),
        Move::new(mbx("z4"), mbx("d4"), K_NORMAL),
    );
    p.check_invariant("spy-removed-only-by-flip-or-infiltration")
}

/// The Spy vanishes from the board with no turn to account for it.
fn spy_vanished() -> Result<(), String> {
    let mut p = position("Ke3 Sh0", "Kb8 Sd4", false, &[]);
    put(&mut p, "d4", None);
    p.check_invariant("spy-removed-only-by-flip-or-infiltration")
}

/// A Court rook takes a Border queen, which court-reach forbids.
fn border_major_taken_by_a_rook() -> Result<(), String> {
    let p = forced(
        position("Ke3 Sh0 Rz5", "Kb8 Sh10 Qd5", false, &[]),
        Move::new(mbx("z5"), mbx("d5"), K_NORMAL),
    );
    p.check_invariant("border-major-captured-only-by-pawn")
}

/// A Field queen steps into Court by its own move, with no Spy's exit.
fn untriggered_court_entry() -> Result<(), String> {
    let p = forced(
        position("Ke3 Sh0 Qd2", "Kb8 Sh10", false, &[]),
        Move::new(mbx("d2"), mbx("d0"), K_NORMAL),
    );
    p.check_invariant("court-entry-by-trigger-or-king-step")
}

/// A Field knight leaps into Court by its own move, with no Spy's exit.
fn knight_leaps_into_court() -> Result<(), String> {
    let p = forced(
        position("Ke3 Sh0 Nc2", "Kb8 Sh10", false, &[]),
        Move::new(mbx("c2"), mbx("b0"), K_NORMAL),
    );
    p.check_invariant("court-entry-by-trigger-or-king-step")
}

/// White infiltrates although its infiltration is used (an infiltration turn of its own, which
/// `alone_candidates` would not offer).
fn second_infiltration() -> Result<(), String> {
    let p = forced(
        position(
            "Ke5 Sh0 Qd2",
            "Kb8 Sh10",
            false,
            &[("infiltration-used", Some(W), "yes")],
        ),
        Move::new(mbx("d2"), mbx("d10"), K_INFIL_ALONE),
    );
    p.check_invariant("one-infiltration-per-side")
}

/// Two infiltrations in one game, the first a legal one.
fn two_infiltrations() -> Result<(), String> {
    let p = forced(
        position("Ke4 Sh0 Qd2 Rb2", "Kg8 Sh10 b7", false, &[]),
        Move::new(mbx("e4"), mbx("e5"), K_NORMAL).with2(mbx("d2"), mbx("d10"), K_INFIL),
    );
    assert!(p.check_invariant("one-infiltration-per-side").is_ok());
    let p = forced(p, Move::new(mbx("b7"), mbx("b6"), K_NORMAL));
    let p = forced(p, Move::new(mbx("b2"), mbx("d0"), K_INFIL_ALONE));
    p.check_invariant("one-infiltration-per-side")
}

/// A piece appears on the board with no turn to account for it.
fn piece_appeared() -> Result<(), String> {
    let mut p = forced(
        position("Ke3 Sh0 b3", "Kb8 Sh10", false, &[]),
        Move::new(mbx("b3"), mbx("b4"), K_NORMAL),
    );
    put(&mut p, "g7", Some(Piece::new(B, Role::Knight)));
    p.check_invariant("piece-count-changes-only-by-capture-coup-infiltration-or-release")
}

/// A piece is removed along with a turn that took nothing (the engine's count kept in step).
fn piece_vanished_in_a_turn() -> Result<(), String> {
    let mut p = forced(
        position("Ke3 Sh0 b3", "Kb8 Sh10 Ng7", false, &[]),
        Move::new(mbx("b3"), mbx("b4"), K_NORMAL),
    );
    put(&mut p, "g7", None);
    p.count -= 1;
    p.check_invariant("piece-count-changes-only-by-capture-coup-infiltration-or-release")
}

/// Each invariant, a fragment of what it reports, and a case that breaks it.
use crate::rules::violations::{check_table, Case};

const VIOLATIONS: &[Case] = &[
    (
        "court-king-never-in-check",
        "white moved and its king on e4 is in check from e10",
        mover_left_in_check,
    ),
    (
        "court-king-never-in-check",
        "king in Court on z3 is reported in check",
        court_king_reported_in_check,
    ),
    (
        "court-king-never-in-check",
        "Sh0-h1 is refused with own-king-in-check",
        court_king_turns_refused,
    ),
    (
        "court-king-never-in-check",
        "Rc10-z10: the white king in Court on z3 is treated as in check",
        court_king_break_found_by_search,
    ),
    (
        "no-pawn-on-court",
        "a white pawn stands on the Court square c10",
        pawn_on_court,
    ),
    (
        "spy-removed-only-by-flip-or-infiltration",
        "the black spy on d4 left the board other than by infiltration",
        spy_captured,
    ),
    (
        "spy-removed-only-by-flip-or-infiltration",
        "the black spy is not where it was last seen",
        spy_vanished,
    ),
    (
        "border-major-captured-only-by-pawn",
        "the black queen on the Border square d5 was captured by a rook",
        border_major_taken_by_a_rook,
    ),
    (
        "court-entry-by-trigger-or-king-step",
        "entered Court on d0 by its own move",
        untriggered_court_entry,
    ),
    (
        "court-entry-by-trigger-or-king-step",
        "entered Court on b0 by its own move",
        knight_leaps_into_court,
    ),
    (
        "one-infiltration-per-side",
        "white infiltrated a second time",
        second_infiltration,
    ),
    (
        "one-infiltration-per-side",
        "white infiltrated 2 times",
        two_infiltrations,
    ),
    (
        "piece-count-changes-only-by-capture-coup-infiltration-or-release",
        "6 pieces stand on the board, but the turns account for 5",
        piece_appeared,
    ),
    (
        "piece-count-changes-only-by-capture-coup-infiltration-or-release",
        "from 6 to 5 pieces with 0 removals",
        piece_vanished_in_a_turn,
    ),
];

#[test]
fn every_invariant_reports_its_violations_and_the_table_covers_the_catalogue() {
    check_table(VIOLATIONS, INVARIANTS);
}

pub(super) use crate::rules::testing::Rng;

/// The designs of the invented pieces the random positions with designs take: leapers, riders
/// (one of them along knight lines, one of limited range), move-only and capture-only atoms, a
/// lame leaper (the xiangqi horse), a cannon and a grasshopper.
pub(super) const TEST_DESIGNS: [&str; 9] = [
    "WD", "NN", "fmWfcF", "mBcR", "R4", "cKmN", "nN", "mRcpR", "gQ",
];

/// A random valid position under random options: Kings often in Court or beside the Border,
/// Spies often in Court, a few other pieces anywhere; with one or two invented pieces per side
/// among `designs` when there are any.
pub(super) fn random_position_with(rng: &mut Rng, designs: &[&str]) -> (Cypher, Options) {
    let mut options = Options::defaults(Cypher::options());
    for d in Cypher::options() {
        let v = d.values[rng.below(d.values.len())];
        options
            .set(Cypher::options(), "cypher", d.name, v)
            .expect("a value of the option");
    }
    (random_position_under(rng, designs, &options), options)
}

/// [`random_position_with`] under the options given.
pub(super) fn random_position_under(rng: &mut Rng, designs: &[&str], options: &Options) -> Cypher {
    let designs: Vec<crate::rules::design::DesignId> = designs
        .iter()
        .map(|d| crate::rules::design::intern(d).expect("a design"))
        .collect();
    let g = Cypher::geometry();
    loop {
        let mut s = Setup::empty(g);
        let mut place = |rng: &mut Rng, piece: Piece, court: bool, near_border: bool| loop {
            let (file, rank) = if court && rng.below(2) == 0 {
                match rng.below(4) {
                    0 => (0, rng.below(11)),
                    1 => (9, rng.below(11)),
                    2 => (rng.below(10), 0),
                    _ => (rng.below(10), 10),
                }
            } else if near_border && rng.below(2) == 0 {
                (1 + rng.below(8), 4 + rng.below(3))
            } else {
                (rng.below(10), rng.below(11))
            };
            let at = Square::new(file as u8, rank as u8);
            if s.board.get(at).is_none() {
                s.board.put(at, Some(piece));
                return;
            }
        };
        for c in Color::ALL {
            place(rng, Piece::new(c, Role::King), true, true);
            if rng.below(5) > 0 {
                place(rng, Piece::new(c, Role::Spy), true, false);
            }
            for role in [
                Role::Queen,
                Role::Rook,
                Role::Bishop,
                Role::Knight,
                Role::Pawn,
            ] {
                for _ in 0..rng.below(3) {
                    place(rng, Piece::new(c, role), role != Role::Pawn, true);
                }
            }
            if !designs.is_empty() {
                for _ in 0..1 + rng.below(2) {
                    let d = designs[rng.below(designs.len())];
                    place(rng, Piece::designed(c, d), true, true);
                }
            }
            let key = |k: &str| (k.to_string(), Some(c));
            s.keys.insert(key("prisoners"), rng.below(2).to_string());
            let used = if rng.below(3) == 0 { "yes" } else { "no" };
            s.keys.insert(key("infiltration-used"), used.to_string());
        }
        if rng.below(2) == 0 {
            s.turn = Color::Black;
        }
        if let Ok(p) = Cypher::from_setup(&s, options) {
            return p;
        }
    }
}

/// A number from the environment, or a default (for longer runs of the random tests:
/// `ARBITER_INVARIANT_POSITIONS=20000 ARBITER_INVARIANT_SEED=7 cargo test --lib random_positions`).
fn knob(name: &str, default: u64) -> u64 {
    std::env::var(name).map_or(default, |v| v.parse().expect("a number"))
}

#[test]
fn no_legal_turn_of_random_positions_breaks_an_invariant() {
    random_positions_keep_the_invariants(&[], 300);
}

#[test]
fn no_legal_turn_of_random_positions_with_invented_pieces_breaks_an_invariant() {
    random_positions_keep_the_invariants(&TEST_DESIGNS, 200);
}

fn random_positions_keep_the_invariants(designs: &[&str], positions: u64) {
    let mut rng = Rng(knob("ARBITER_INVARIANT_SEED", 0x9E37_79B9_7F4A_7C15).max(1));
    let mut court_kings = 0;
    for _ in 0..knob("ARBITER_INVARIANT_POSITIONS", positions) {
        let (p, _) = random_position_with(&mut rng, designs);
        for inv in INVARIANTS {
            assert_eq!(
                p.check_invariant(inv.name),
                Ok(()),
                "{} in {}",
                inv.name,
                p.fen()
            );
        }
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        for m in moves {
            let mut next = p.clone();
            next.play(m);
            if find_king(&next.board, next.turn, sq("z0"))
                .is_some_and(|k| witness::area(k) == Area::Court)
            {
                court_kings += 1;
            }
            for inv in INVARIANTS {
                assert_eq!(
                    next.check_invariant(inv.name),
                    Ok(()),
                    "{} after {:?} in {}",
                    inv.name,
                    m,
                    p.fen()
                );
            }
        }
        // And a few turns on from there, for what only a later turn can break (a second
        // infiltration, a release after a capture).
        let mut pos = p.clone();
        let mut played = Vec::new();
        for _ in 0..8 {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.play(m);
            played.push(m);
            for inv in INVARIANTS {
                assert_eq!(
                    pos.check_invariant(inv.name),
                    Ok(()),
                    "{} after {:?} from {}",
                    inv.name,
                    played,
                    p.fen()
                );
            }
        }
    }
    // The sample must reach the case the first invariant is about.
    assert!(court_kings > 100, "{court_kings}");
}
