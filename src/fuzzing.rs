//! The bodies of the fuzz targets (`fuzz/`), shared with the regression test
//! `tests/it/fuzz_regressions.rs` so that a saved input runs through exactly the code the fuzzer
//! ran. Each target takes raw bytes and must never panic, whatever they are; the checks that do
//! panic here are properties the library promises (a FEN it writes parses back, the canonical
//! text of a legal turn resolves to that turn, every refusal names a catalogued rule).
//!
//! The grammar-aware generator of `check_structured` needs the `arbitrary` crate and is built
//! only with the `fuzzing` feature.

use crate::rules::chess::Chess;
use crate::rules::csipgs::Csipgs;
use crate::rules::cypher::Cypher;
use crate::rules::game::{PlayError, Resolved};
use crate::rules::search::Limits;
use crate::rules::xpanse::{self, Xpanse};
use crate::rules::{Color, Game, Geometry, Options, Rules};
use crate::scenario::diagnostic::render;
use crate::scenario::evaluate::{describe_error, Lowering, Settings};
use crate::scenario::parse::parse_turn;
use crate::scenario::report::{summary, FileCheck};

/// The name the fuzz targets give every scenario file.
pub const FILE_NAME: &str = "fuzz.scn";

/// Chess positions the `turn_text` target plays turns in (the start position is the first).
pub const CHESS_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "4k3/8/8/KPp4r/8/8/8/8 w - c6 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "k7/8/1K6/8/8/8/8/7R w - - 99 80",
    "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
];

/// Cypher positions the `turn_text` target plays turns in (the start position is the first).
pub const CYPHER_FENS: &[&str] = &[
    "4s5/2rn2nr2/3bqkb3/1pppppppp1/10/10/10/1PPPPPPPP1/3BQKB3/2RN2NR2/4S5 w - 0/0 -",
    "4s5/10/4k5/10/10/3Q6/10/10/10/1K8/4S5 b WB 2/1 -",
    "4s5/10/5k4/10/10/10/10/10/10/1K8/4S5 w - 0/0 -",
    "10/8k1/10/10/10/10/5K4/10/10/10/10 w W 2/1 -",
    "4s5/2rn2nr2/3bqkb3/1ppp1pppp1/10/4p5/4P5/1PPP1PPPP1/3BQKB3/2RN2NR2/4S5 w - 0/0 -",
];

/// csipgs positions for `turn_text`: the start, money to spend, reserves and invented designs,
/// several Kings.
pub const CSIPGS_FENS: &[&str] = &[
    "4k3/8/8/8/8/8/8/4K3 w 0/0 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF",
    "4k3/8/8/8/8/8/8/4K3 w 12/9 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF",
    "4k3/8/8/8/8/8/8/4K3 w 3/3 N(WD)(WD)/P(sWbmD) R,WD,B,BL,K,WbRbmHfB/R,N,fc(DF),sWbmD,K,WD",
    "r3k3/pp6/8/3(WD)4/4[WD]3/8/PP6/R3K3 b 6/4 P/N R,N,B,Q,K,fmWfcF/RbcBbN,N,B,Q,K,NbR",
    "k2R3k/3R4/8/8/8/8/8/4K3 b",
];

/// Crowded ChessXpanse positions, two on each of the six boards, with every kind of piece
/// (Magic Pieces next to their own pieces, so that they ricochet), Pawns one step from their
/// far rows, dormant Pawns and Ghost Mode; for `turn_text` and the invariant tests. Each has at
/// most a few thousand turns under every reading.
pub const XPANSE_FENS: &[((u8, u8), &str)] = &[
    ((4, 5), "rkbn/pgap/4/PGAP/RKBN w"),
    ((4, 5), "nmka/bP1r/4/Rp1B/AKMN b 0/1 3/4 -/- up/down"),
    ((5, 5), "rnkmq/pgap1/5/1PAGP/QMKNR w"),
    ((5, 5), "bqkgn/ar1pp/5/PP1RA/NGKQB w 1/1 0/0 -/- down/up"),
    ((5, 6), "rbkgn/pmap1/5/5/1PAMP/NGKBR w"),
    (
        (5, 6),
        "q1k1a/npgpb/1r3/3R1/BPGPN/A1K1Q b 0/0 2/2 -/- up/down",
    ),
    ((6, 6), "rnmkbr/pgqap1/6/6/1PAQGP/RBKMNR w"),
    ((6, 6), "k1k2k/6/1pap2/2PAP1/6/K1K2K w 0/0 0/0 -/- down/up"),
    ((6, 7), "rnkmbr/pgqap1/6/6/6/1PAQGP/RBMKNR w"),
    ((6, 7), "1kbbk1/rgn1ar/1mp1q1/6/1QP1M1/RA1NGR/1KBBK1 b"),
    ((7, 7), "rnbkqmr/pgabp1n/7/7/7/N1PBAGP/RMQKBNR w"),
    (
        (7, 7),
        "rkb1bkr/1pqm1p1/2gap2/7/2PAG2/1P1MQP1/RKB1BKR w 0/0 0/0 -/- down/up",
    ),
];

/// How many path legs the ChessXpanse targets let the Magic Pieces of the side to move have
/// before they skip listing its turns ([`xpanse_paths_within`]).
pub const XPANSE_PATH_LEGS: u64 = 4_000;

/// Whether the Magic Pieces of the side to move have at most `cap` path legs in all, counted
/// by the leg function the move generator follows (`xpanse::paths::next_legs`) but
/// stopping at `cap`. Their paths multiply with every ricochet (a random crowded 7x7 position
/// under `ricochet-from = before` has 17 million legal turns), and the generator has no
/// bound of its own, so whoever lists every turn of an arbitrary position asks this first.
pub fn xpanse_paths_within(pos: &Xpanse, cap: u64) -> bool {
    use crate::rules::board::Sq;
    use crate::rules::piece::Role;
    use xpanse::paths::{next_legs, PathState};

    fn extend(pos: &Xpanse, st: &PathState, left: &mut u64) -> bool {
        for (t, dir, res) in next_legs(pos, st).iter() {
            let Ok(kind) = res else { continue };
            if *left == 0 {
                return false;
            }
            *left -= 1;
            let goes_on = match kind {
                xpanse::leg::RICOCHET => true,
                xpanse::leg::KILL => st.goes_on_after_kill(pos, t),
                _ => false,
            };
            if goes_on && !extend(pos, &st.after(pos, t, kind, dir), left) {
                return false;
            }
        }
        true
    }

    let mut left = cap;
    pos.board()
        .pieces()
        .filter(|(_, p)| {
            p.color() == pos.turn()
                && matches!(p.role(), Role::Gatekeeper | Role::Mage | Role::Archer)
        })
        .all(|(s, p)| extend(pos, &PathState::new(p.role(), Sq::of(s)), &mut left))
}

/// Options from bits: bit `i` picks the second value of the variant's option `i`; with
/// `third`, bit `8 + i` picks its third value where it has one.
fn options_from_bits<R: Rules>(bits: u16, third: bool) -> Options {
    let mut options = Options::defaults(R::options());
    for (i, def) in R::options().iter().enumerate().take(16) {
        let pick = if third && i < 8 && bits & (1 << (8 + i)) != 0 && def.values.len() > 2 {
            2
        } else if bits & (1 << i) != 0 && def.values.len() > 1 {
            1
        } else {
            continue;
        };
        options
            .set(R::options(), R::name(), def.name, def.values[pick])
            .expect("a catalogued option value");
    }
    options
}

/// `check_text`: the bytes as a scenario file, through everything `arbiter check` does with one
/// file (parse, evaluate, the text report, the rendered problems, the JSON report, the summary).
pub fn check_text(data: &[u8]) {
    check_source(String::from_utf8_lossy(data).into_owned());
}

/// The node budget of every search (`perft`, `invariant`, `win in`) a fuzz input starts: small,
/// so that no input runs long.
pub const MAX_NODES: u64 = 20_000;

/// The settings `arbiter check --max-nodes 20000` would use.
pub fn settings() -> Settings {
    Settings {
        limits: Limits {
            max_nodes: MAX_NODES,
            ..Limits::unlimited()
        },
        ..Settings::default()
    }
}

/// What `arbiter check` does with the text of one file.
pub fn check_source(src: String) {
    let check = FileCheck::run_with(FILE_NAME, src, &settings());
    let (passed, failed) = check.counts();
    let text = check.text();
    let _ = check.problems_text();
    let json = check.json();
    let _ = serde_json::to_string(&json).expect("a report always serialises");
    let pending = check.pending();
    let (last, code) = summary(std::slice::from_ref(&check));
    // The report, its JSON and the summary agree on the numbers.
    let mut expected = format!("{passed} passed, {failed} failed");
    if pending > 0 {
        expected.push_str(&format!(", {pending} pending"));
    }
    assert_eq!(last, expected);
    // A scenario that could not run (its syntax was broken) counts as failed; a pending one
    // that fails counts apart.
    assert_eq!(
        passed + failed + pending,
        check.scenarios.len() + check.unrun
    );
    assert_eq!(json.scenarios.len(), check.scenarios.len());
    assert_eq!(json.errors.len(), check.problems.len());
    let expected_code = if !check.usable() {
        2
    } else if failed > 0 {
        1
    } else {
        0
    };
    assert_eq!(code, expected_code);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok    ")).count(),
        passed,
        "one `ok` line per passed scenario"
    );
    if !check.problems.is_empty() {
        assert!(!check.usable());
        assert!(text.starts_with("ERROR "));
    }
}

/// `definition_text`: the bytes as a variant definition (a `from` line may name a bundled
/// one). Its errors must render; the formatter must keep a definition that reads, and one
/// that reads is registered, its start position written as a FEN that reads back to the same
/// FEN, and its perft 2 counted within a small budget.
pub fn definition_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let bundled = |name: &str| {
        crate::definition::load::bundled(name)
            .map(|t| (name.to_string(), t.to_string()))
            .ok_or_else(|| format!("no bundled definition `{name}`"))
    };
    let def = match crate::definition::parse("fuzz.def", text, &bundled) {
        Ok(def) => def,
        Err(e) => {
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    if let Ok(formatted) = crate::definition::fmt::format(text) {
        let again = crate::definition::parse("fuzz.def", &formatted, &bundled);
        // Formatting moves text (a piece table is realigned), so places may differ.
        let unplaced = |mut d: crate::definition::Definition| {
            d.pieces
                .iter_mut()
                .for_each(|p| p.span = Default::default());
            d.rules.iter_mut().for_each(|r| r.span = Default::default());
            d.options
                .iter_mut()
                .for_each(|o| o.span = Default::default());
            d
        };
        assert_eq!(
            again.ok().map(unplaced),
            Some(unplaced(def.clone())),
            "formatting kept the meaning"
        );
    }
    let Ok(variant) = crate::rules::defined::register(def) else {
        return;
    };
    crate::with_variant!(variant, R => {
        let options = Options::defaults(R::options());
        let Ok(geometry) = R::geometry_for(None) else {
            return;
        };
        let Ok(pos) = R::start(geometry, &options) else {
            return;
        };
        let fen = pos.fen();
        let back = R::from_fen(geometry, &fen, &options).expect("a position's FEN reads back");
        assert_eq!(back.fen(), fen);
        let _ = crate::rules::perft_within(
            &pos,
            2,
            &mut Limits::unlimited().with_max_nodes(200_000).budget(),
        );
    })
}

/// `fen_chess`: the bytes as a chess FEN.
pub fn fen_chess(data: &[u8]) {
    fen::<Chess>(data);
}

/// `fen_cypher`: the bytes as a Cypher FEN.
pub fn fen_cypher(data: &[u8]) {
    fen::<Cypher>(data);
}

/// `fen_csipgs`: the bytes as a csipgs FEN (treasuries, reserves and designs included).
pub fn fen_csipgs(data: &[u8]) {
    fen::<crate::rules::csipgs::Csipgs>(data);
}

/// `fen_xpanse`: the first byte picks the board (modulo six: 4x5 to 7x7), the next two the
/// readings as in [`turn_text`] (bit `i`: option `i`'s second value; bit `8 + i`: its third),
/// the rest is a ChessXpanse FEN. A position whose Magic Pieces have more paths than
/// [`XPANSE_PATH_LEGS`] is only read and written back; of the others, at most 48 turns
/// (spread evenly) are played and resolved.
pub fn fen_xpanse(data: &[u8]) {
    let [size, o1, o2, rest @ ..] = data else {
        return;
    };
    let (files, ranks) = xpanse::INFO.boards[usize::from(*size) % xpanse::INFO.boards.len()];
    let geometry = Xpanse::geometry_for(Some((files, ranks))).expect("a ChessXpanse board");
    let options = options_from_bits::<Xpanse>(u16::from_le_bytes([*o1, *o2]), true);
    fen_in::<Xpanse>(
        rest,
        geometry,
        options,
        &Scope {
            sample: 48,
            listable: |p| xpanse_paths_within(p, XPANSE_PATH_LEGS),
        },
    );
}

/// How much of a position [`fen_in`] works through.
struct Scope<R> {
    /// The most legal turns played, and resolved from their canonical text (spread evenly
    /// over the list); every turn when the list is no longer.
    sample: usize,
    /// Whether listing the position's turns is cheap enough to do.
    listable: fn(&R) -> bool,
}

/// Every turn of every position.
fn everything<R>() -> Scope<R> {
    Scope {
        sample: usize::MAX,
        listable: |_| true,
    }
}

/// At most `n` of `items`, spread evenly, the first included.
fn spread<T: Clone>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|i| items[i * items.len() / n].clone()).collect()
}

/// A FEN of the variant's default board, under the default readings.
fn fen<R: Rules>(data: &[u8]) {
    let geometry = R::geometry_for(None).expect("every variant has a default board");
    fen_in::<R>(
        data,
        geometry,
        Options::defaults(R::options()),
        &everything(),
    );
}

/// A FEN through the parser; when it parses, the round trips, the legal turns and their texts.
fn fen_in<R: Rules>(data: &[u8], geometry: Geometry, options: Options, scope: &Scope<R>) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = R::from_fen(geometry, text, &options) else {
        return;
    };
    let written = pos.fen();
    let again = R::from_fen(geometry, &written, &options)
        .unwrap_or_else(|e| panic!("the FEN {written:?} written for {text:?} does not parse: {e}"));
    assert_eq!(again.fen(), written, "FEN round trip of {text:?}");
    let back = R::from_setup(&pos.to_setup(), &options)
        .unwrap_or_else(|e| panic!("to_setup of {written:?} is refused by from_setup: {e}"));
    assert_eq!(back.fen(), written, "setup round trip of {text:?}");
    for key in R::state_keys() {
        if key.per_color {
            let _ = pos.state_key(key.name, Some(Color::White));
            let _ = pos.state_key(key.name, Some(Color::Black));
        } else {
            let _ = pos.state_key(key.name, None);
        }
    }
    if !(scope.listable)(&pos) {
        return;
    }
    for inv in R::invariants() {
        let _ = pos.check_invariant(inv.name);
    }
    let _ = (pos.in_check(), pos.outcome(), pos.repetition_key());
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(
        pos.count_legal(),
        moves.len() as u64,
        "count_legal in {written:?}"
    );
    for m in spread(&moves, scope.sample) {
        let turn = pos.describe(m);
        let _ = turn.text(&geometry);
        let mut next = pos.clone();
        next.play(m);
        let _ = (next.fen(), next.in_check());
        if (scope.listable)(&next) {
            let _ = next.outcome();
        }
    }
    // Every legal turn's canonical text resolves back to that turn.
    let game = Game::new(pos, options);
    let lowering = Lowering::<R>::new(geometry);
    for (_, turn) in spread(&game.legal_turns(), scope.sample) {
        let text = turn.text(&geometry);
        let parsed = parse_turn(&text)
            .unwrap_or_else(|p| panic!("canonical turn {text:?} in {written:?}: {}", p.message));
        let pattern = lowering
            .turn(&parsed)
            .unwrap_or_else(|p| panic!("canonical turn {text:?} in {written:?}: {}", p.message));
        match game.resolve(&pattern) {
            Ok(Resolved::Move(_, t)) => assert_eq!(t, turn, "{text:?} in {written:?}"),
            other => panic!("canonical turn {text:?} in {written:?} resolves to {other:?}"),
        }
    }
}

/// `turn_text`: the first byte picks the variant and a position from [`CHESS_FENS`],
/// [`CYPHER_FENS`] (an even or odd byte), [`CSIPGS_FENS`] (0x80 to 0xBF) or [`XPANSE_FENS`]
/// (0xC0 to 0xDF), the next two pick option values (bit i set: the option's second value; for
/// ChessXpanse, bit 8 + i: its third), the rest is a turn as written on the command line or in
/// a scenario.
pub fn turn_text(data: &[u8]) {
    let [pick, o1, o2, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let option_bits = u16::from_le_bytes([*o1, *o2]);
    let at = |fens: &[&'static str], i: u8| fens[usize::from(i) % fens.len()];
    // csipgs and xpanse came later: their ranges leave the meaning of older saved inputs
    // unchanged.
    match *pick {
        0x80..=0xBF => turn::<Csipgs>(
            Csipgs::geometry_for(None).expect("a default board"),
            at(CSIPGS_FENS, pick & 0x3F),
            options_from_bits::<Csipgs>(option_bits, false),
            text,
        ),
        0xC0..=0xDF => {
            let ((files, ranks), fen) = XPANSE_FENS[usize::from(pick & 0x1F) % XPANSE_FENS.len()];
            turn::<Xpanse>(
                Xpanse::geometry_for(Some((files, ranks))).expect("a ChessXpanse board"),
                fen,
                options_from_bits::<Xpanse>(option_bits, true),
                text,
            )
        }
        p if p & 1 == 0 => turn::<Chess>(
            Chess::geometry_for(None).expect("a default board"),
            at(CHESS_FENS, p >> 1),
            options_from_bits::<Chess>(option_bits, false),
            text,
        ),
        p => turn::<Cypher>(
            Cypher::geometry_for(None).expect("a default board"),
            at(CYPHER_FENS, p >> 1),
            options_from_bits::<Cypher>(option_bits, false),
            text,
        ),
    }
}

fn turn<R: Rules>(geometry: Geometry, fen: &str, options: Options, text: &str) {
    let pos = R::from_fen(geometry, fen, &options)
        .unwrap_or_else(|e| panic!("fixed FEN {fen:?} does not parse: {e}"));
    let parsed = match parse_turn(text) {
        Ok(t) => t,
        Err(p) => {
            let _ = render(&p, "<turn>", text);
            return;
        }
    };
    let pattern = match Lowering::<R>::new(geometry).turn(&parsed) {
        Ok(p) => p,
        Err(p) => {
            let _ = render(&p, "<turn>", text);
            return;
        }
    };
    let game = Game::new(pos, options);
    let known = |rule: &str| R::rules().iter().any(|r| r.id == rule);
    let resolved = game.resolve(&pattern);
    match &resolved {
        Ok(Resolved::Move(_, t)) => {
            assert!(
                pattern.matches(t),
                "{text:?} resolved to a turn it does not match"
            );
            let _ = t.text(&geometry);
        }
        Ok(_) => {}
        Err(e @ PlayError::Refused(r)) => {
            assert!(known(r.rule), "refusal names an uncatalogued rule: {r}");
            let _ = describe_error(e);
        }
        Err(e @ PlayError::Ambiguous(c)) => {
            assert!(c.len() > 1, "ambiguous between {c:?}");
            let _ = describe_error(e);
        }
        Err(e @ PlayError::TooManyTurns(_)) => {
            let _ = describe_error(e);
        }
    }
    let mut after = game.clone();
    match after.play(&pattern) {
        Ok(_) => {
            assert!(resolved.is_ok(), "{text:?} played but did not resolve");
            let _ = after.outcome();
            let _ = after.legal_turns();
            let _ = after.position().fen();
        }
        Err(e) => {
            if let PlayError::Refused(r) = &e {
                assert!(known(r.rule), "refusal names an uncatalogued rule: {r}");
            }
            let _ = describe_error(&e);
        }
    }
}

#[cfg(feature = "fuzzing")]
pub mod structured {
    //! A grammar-aware generator of scenario files for `variant chess`, `variant cypher` and
    //! `variant xpanse <size>` (whose board is the generator's, and which has no start).
    //! It keeps a shadow [`Game`] of the position the scenario sets up, so that most turns it
    //! writes are legal there and most expectations name real squares, counts and outcomes:
    //! evaluation runs deep instead of stopping at the first refused `play`. A small share of
    //! every choice is off the grammar's happy path (unknown names, squares off the board,
    //! numbers that do not fit, junk FENs) so that error paths are reached too.

    use arbitrary::{Result, Unstructured};

    use super::{xpanse_paths_within, CHESS_FENS, CYPHER_FENS, XPANSE_FENS, XPANSE_PATH_LEGS};
    use crate::rules::chess::Chess;
    use crate::rules::cypher::Cypher;
    use crate::rules::turn::straight;
    use crate::rules::xpanse::{self, Xpanse};
    use crate::rules::{Action, Color, Game, Geometry, Options, Role, Rules, Sq, Square, Turn};
    use crate::scenario::evaluate::Lowering;
    use crate::scenario::parse::parse_turn;

    /// The scenario file the bytes stand for. Running out of bytes ends the file early, in a
    /// well-formed place.
    pub fn scenario_file(data: &[u8]) -> String {
        let mut u = Unstructured::new(data);
        let pick = u.int_in_range(0u8..=47).unwrap_or(0);
        let mut out = String::new();
        match pick {
            0..=18 => Gen::<Chess>::new(&mut u, &mut out, CHESS_FENS.to_vec()).file("chess"),
            19..=37 => Gen::<Cypher>::new(&mut u, &mut out, CYPHER_FENS.to_vec()).file("cypher"),
            38 => Gen::<Chess>::new(&mut u, &mut out, CHESS_FENS.to_vec()).file("chess 8x8"),
            40..=47 => {
                let (files, ranks) = *u.choose(xpanse::INFO.boards).unwrap_or(&(5, 5));
                let fens = XPANSE_FENS
                    .iter()
                    .filter(|(size, _)| *size == (files, ranks))
                    .map(|(_, fen)| *fen)
                    .collect();
                let geometry =
                    Xpanse::geometry_for(Some((files, ranks))).expect("a ChessXpanse board");
                let mut gen = Gen::<Xpanse>::new(&mut u, &mut out, fens);
                gen.geometry = geometry;
                gen.listable = |p| xpanse_paths_within(p, XPANSE_PATH_LEGS);
                gen.file(&format!("xpanse {files}x{ranks}"))
            }
            _ => {
                let name = *u
                    .choose(&[
                        "csipgs",
                        "xpanse 5x6",
                        "xpanse 99x99",
                        "cypher 10x11",
                        "ches",
                    ])
                    .unwrap_or(&"csipgs");
                Gen::<Chess>::new(&mut u, &mut out, CHESS_FENS.to_vec()).file(name)
            }
        }
        out
    }

    /// Numbers around the limits of the integer types the evaluator might use.
    const EDGE_NUMBERS: &[&str] = &[
        "0",
        "1",
        "255",
        "256",
        "65535",
        "65536",
        "2147483647",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "18446744073709551615",
        "18446744073709551616",
        "340282366920938463463374607431768211456",
        "0000000000000000000000000000000000000001",
    ];

    const RESULT_REASONS: &[&str] = &[
        "checkmate",
        "stalemate",
        "flip",
        "infiltration",
        "coup",
        "repetition",
        "agreement",
        "extinction",
        "challenge",
        "kill-rule",
        "resignation",
        "fifty-move",
        "insufficient-material",
        "bogus-reason",
    ];

    struct Gen<'a, 'b, R: Rules> {
        u: &'a mut Unstructured<'b>,
        out: &'a mut String,
        /// The board the file's header names (the variant's default unless set).
        geometry: Geometry,
        fens: Vec<&'static str>,
        options: Options,
        shadow: Option<Game<R>>,
        /// Whether the shadow may list a position's turns (ChessXpanse's Magic Pieces can
        /// have millions of paths; such a position gets no shadow).
        listable: fn(&R) -> bool,
    }

    impl<'a, 'b, R: Rules> Gen<'a, 'b, R> {
        fn new(u: &'a mut Unstructured<'b>, out: &'a mut String, fens: Vec<&'static str>) -> Self {
            Gen {
                u,
                out,
                geometry: R::geometry_for(None).unwrap_or_else(|_| Geometry::lettered(8, 8)),
                fens,
                options: Options::defaults(R::options()),
                shadow: None,
                listable: |_| true,
            }
        }

        fn file(mut self, variant: &str) {
            // Errors only say that the bytes ran out: the file so far is the file.
            let _ = self.write_file(variant);
        }

        fn write_file(&mut self, variant: &str) -> Result<()> {
            self.out.push_str("variant ");
            self.out.push_str(variant);
            self.out.push('\n');
            for _ in 0..self.u.int_in_range(0u8..=2)? {
                self.option_line(true)?;
                self.out.push('\n');
            }
            let file_options = self.options.clone();
            for _ in 0..self.u.int_in_range(1u8..=4)? {
                self.options = file_options.clone();
                self.shadow = None;
                self.scenario()?;
            }
            Ok(())
        }

        fn percent(&mut self, p: u8) -> Result<bool> {
            Ok(self.u.int_in_range(0u8..=99)? < p)
        }

        fn sep(&mut self) -> Result<()> {
            let s = match self.u.int_in_range(0u8..=39)? {
                0 => " ",
                1 => "\t",
                2 => "\n  # a comment; with { braces } and \"quotes\"\n  ",
                3 => "\r\n  ",
                4 => "\n\n",
                _ => "\n  ",
            };
            self.out.push_str(s);
            Ok(())
        }

        fn number(&mut self) -> Result<String> {
            Ok(match self.u.int_in_range(0u8..=19)? {
                0..=14 => self.u.int_in_range(0u32..=120)?.to_string(),
                15..=17 => self.u.choose(EDGE_NUMBERS)?.to_string(),
                _ => self.u.arbitrary::<u64>()?.to_string(),
            })
        }

        /// A search depth: mostly small, sometimes one no search could finish.
        fn depth(&mut self) -> Result<String> {
            Ok(match self.u.int_in_range(0u8..=19)? {
                0..=15 => self.u.int_in_range(0u32..=2)?.to_string(),
                16..=17 => self.u.int_in_range(3u32..=6)?.to_string(),
                _ => self.u.choose(EDGE_NUMBERS)?.to_string(),
            })
        }

        /// A kebab-case name: one of `names` or, sometimes, a near miss or junk.
        fn name_from(&mut self, names: &[&str]) -> Result<String> {
            if names.is_empty() || self.percent(8)? {
                let junk = [
                    "no-such-name",
                    "x",
                    "a-",
                    "z9",
                    "check",
                    "white",
                    "e4",
                    "ok-ok-",
                ];
                return Ok(self.u.choose(&junk)?.to_string());
            }
            let mut name = self.u.choose(names)?.to_string();
            if self.percent(5)? && name.len() > 1 {
                // A typo, for the did-you-mean suggestions.
                let at = self.u.int_in_range(0..=name.len() - 1)?;
                if name.is_char_boundary(at) && name.is_char_boundary(at + 1) {
                    let c = *self.u.choose(&['a', 'e', 'z', '-', '0'])?;
                    name.replace_range(at..at + 1, &c.to_string());
                }
            }
            Ok(name)
        }

        fn color(&mut self) -> Result<Color> {
            Ok(if self.u.arbitrary()? {
                Color::White
            } else {
                Color::Black
            })
        }

        fn square_name(&mut self) -> Result<String> {
            let g = self.geometry;
            Ok(match self.u.int_in_range(0u8..=19)? {
                0..=16 => {
                    let f = self.u.int_in_range(0..=g.files - 1)?;
                    let r = self.u.int_in_range(0..=g.ranks - 1)?;
                    g.square_name(Square::new(f, r))
                }
                17..=18 => {
                    let f = self.u.int_in_range(b'a'..=b'z')? as char;
                    format!("{f}{}", self.u.int_in_range(0u8..=20)?)
                }
                _ => format!("a{}", self.u.choose(EDGE_NUMBERS)?),
            })
        }

        fn piece_letter(&mut self) -> Result<char> {
            let common = match R::name() {
                "cypher" => "KQRBNPS",
                "xpanse" => "KQRBNPGMA",
                _ => "KQRBNP",
            };
            if self.percent(5)? {
                return Ok(*self.u.choose(&['S', 'G', 'M', 'A'])?);
            }
            let i = self.u.int_in_range(0..=common.len() - 1)?;
            Ok(common.as_bytes()[i] as char)
        }

        fn option_line(&mut self, header: bool) -> Result<()> {
            let defs = R::options();
            let names: Vec<&str> = defs.iter().map(|d| d.name).collect();
            let name = self.name_from(&names)?;
            let values: Vec<&str> = defs
                .iter()
                .find(|d| d.name == name)
                .map(|d| d.values.to_vec())
                .unwrap_or_default();
            let value = if self.percent(5)? {
                "\"quoted value\"".to_string()
            } else {
                self.name_from(&values)?
            };
            let _ = self.options.set(defs, R::name(), &name, &value);
            if !header {
                self.out.push_str("  ");
            }
            self.out.push_str(&format!("option {name} = {value}"));
            Ok(())
        }

        fn title(&mut self) -> Result<String> {
            let parts = [
                "a scenario",
                "\\\"escaped\\\"",
                "back\\\\slash",
                "ünïcödé ♞",
                "",
                "{ not a brace }",
                "# not a comment",
            ];
            let mut t = String::new();
            for _ in 0..self.u.int_in_range(1u8..=3)? {
                t.push_str(self.u.choose(&parts)?);
            }
            Ok(t)
        }

        fn scenario(&mut self) -> Result<()> {
            let title = self.title()?;
            self.out.push_str(&format!("\nscenario \"{title}\" {{"));
            // Most scenarios set up a position first, as the contract asks.
            if !self.percent(5)? {
                self.sep()?;
                self.setup()?;
            }
            for _ in 0..self.u.int_in_range(0u8..=14)? {
                self.sep()?;
                self.statement()?;
            }
            self.out.push_str("\n}\n");
            Ok(())
        }

        fn statement(&mut self) -> Result<()> {
            match self.u.int_in_range(0u8..=99)? {
                0..=4 => self.rule_stmt(),
                5..=7 => {
                    self.option_line(false)?;
                    self.rebuild_shadow();
                    Ok(())
                }
                8..=11 => self.setup(),
                12..=14 => self.side_to_move(),
                15..=19 => self.set_stmt(),
                20..=44 => self.play(),
                _ => self.expect(),
            }
        }

        fn rule_stmt(&mut self) -> Result<()> {
            let ids: Vec<&str> = R::rules().iter().map(|r| r.id).collect();
            self.out.push_str("rule");
            for _ in 0..self.u.int_in_range(1u8..=3)? {
                let id = self.name_from(&ids)?;
                self.out.push(' ');
                self.out.push_str(&id);
            }
            Ok(())
        }

        /// After an option changes, the shadow plays by the new options.
        fn rebuild_shadow(&mut self) {
            if let Some(game) = &self.shadow {
                let g = *game.position().board().geometry();
                let fen = game.position().fen();
                self.shadow = R::from_fen(g, &fen, &self.options)
                    .ok()
                    .map(|p| Game::new(p, self.options.clone()));
            }
            self.drop_unlistable_shadow();
        }

        fn set_shadow_fen(&mut self, fen: &str) {
            let g = self.geometry;
            self.shadow = R::from_fen(g, fen, &self.options)
                .ok()
                .map(|p| Game::new(p, self.options.clone()));
            self.drop_unlistable_shadow();
        }

        /// A shadow whose turns are too many to list is no help: the scenario goes on
        /// without one.
        fn drop_unlistable_shadow(&mut self) {
            if let Some(game) = &self.shadow {
                if !(self.listable)(game.position()) {
                    self.shadow = None;
                }
            }
        }

        fn setup(&mut self) -> Result<()> {
            let g = self.geometry;
            let start = R::start(g, &self.options).ok();
            match self.u.int_in_range(0u8..=9)? {
                // A variant without a start (ChessXpanse) still has `start` written now and
                // then, for its error.
                0..=3 if start.is_some() || self.percent(10)? => {
                    self.out.push_str("start");
                    self.shadow = start.map(|p| Game::new(p, self.options.clone()));
                    self.drop_unlistable_shadow();
                }
                0..=3 if !self.fens.is_empty() && self.percent(50)? => {
                    let fen = self.u.choose(&self.fens)?.to_string();
                    self.out.push_str(&format!("fen \"{fen}\""));
                    self.set_shadow_fen(&fen);
                }
                4..=6 => {
                    let fen = self.fen_text()?;
                    self.out.push_str(&format!("fen \"{fen}\""));
                    self.set_shadow_fen(&fen);
                }
                _ => self.board()?,
            }
            Ok(())
        }

        /// A FEN: a fixed one, the shadow's, or one of those broken in some way.
        fn fen_text(&mut self) -> Result<String> {
            let mut fen = match (&self.shadow, self.u.int_in_range(0u8..=9)?) {
                (Some(game), 0..=2) => game.position().fen(),
                _ if self.fens.is_empty() => "8/8 w".to_string(),
                _ => self.u.choose(&self.fens)?.to_string(),
            };
            if self.percent(15)? {
                let cuts = [
                    "",
                    " w",
                    " b",
                    " w - 0/0 -",
                    " w - - 0 1",
                    " x",
                    " w KQkq e3 0 1",
                    " w WB 99999999999999999999/0 e5",
                    " b - - 18446744073709551616 1",
                ];
                let keep = fen.find(' ').unwrap_or(fen.len());
                let mut placement = fen[..keep].to_string();
                match self.u.int_in_range(0u8..=3)? {
                    0 => {}
                    1 => placement.push_str("/8"),
                    2 => placement = placement.replacen('/', "", 1),
                    _ => placement = placement.replacen('1', "99999999999", 1),
                }
                fen = format!("{placement}{}", self.u.choose(&cuts)?);
            }
            Ok(fen)
        }

        /// A random board with a king each (mostly), written as `board { }` or as a FEN.
        fn board(&mut self) -> Result<()> {
            let g = self.geometry;
            let mut cells: Vec<Option<(Color, char)>> = vec![None; (g.files * g.ranks) as usize];
            let mut put = |this: &mut Self, color: Color, letter: char| -> Result<()> {
                let f = this.u.int_in_range(0..=g.files - 1)?;
                let r = this.u.int_in_range(0..=g.ranks - 1)?;
                cells[(r * g.files + f) as usize] = Some((color, letter));
                Ok(())
            };
            if !self.percent(5)? {
                put(self, Color::White, 'K')?;
                put(self, Color::Black, 'K')?;
            }
            for _ in 0..self.u.int_in_range(0u8..=10)? {
                let color = self.color()?;
                let letter = self.piece_letter()?;
                put(self, color, letter)?;
            }
            let turn = self.color()?;
            if self.percent(30)? {
                // The same placement as a FEN.
                let mut placement = String::new();
                for r in (0..g.ranks).rev() {
                    let mut run = 0;
                    for f in 0..g.files {
                        match cells[(r * g.files + f) as usize] {
                            None => run += 1,
                            Some((c, l)) => {
                                if run > 0 {
                                    placement.push_str(&run.to_string());
                                    run = 0;
                                }
                                placement.push(if c == Color::White {
                                    l
                                } else {
                                    l.to_ascii_lowercase()
                                });
                            }
                        }
                    }
                    if run > 0 {
                        placement.push_str(&run.to_string());
                    }
                    if r > 0 {
                        placement.push('/');
                    }
                }
                let side = if turn == Color::White { 'w' } else { 'b' };
                let rest = match R::name() {
                    "cypher" => " - 0/0 -",
                    // The two-field form; the counters take their defaults.
                    "xpanse" => "",
                    _ => " - - 0 1",
                };
                let fen = format!("{placement} {side}{rest}");
                self.out.push_str(&format!("fen \"{fen}\""));
                self.set_shadow_fen(&fen);
                return Ok(());
            }
            self.out.push_str("board {");
            for color in [Color::White, Color::Black] {
                self.out.push_str(&format!("\n    {color}:"));
                for sq in g.squares() {
                    if let Some((c, l)) = cells[(sq.rank * g.files + sq.file) as usize] {
                        if c == color {
                            self.out.push(' ');
                            if l != 'P' || self.u.arbitrary()? {
                                self.out.push(l);
                            }
                            self.out.push_str(&g.square_name(sq));
                        }
                    }
                }
            }
            self.out.push_str("\n  }");
            self.shadow = None;
            if turn == Color::Black {
                self.out.push_str("\n  black to move");
            }
            Ok(())
        }

        fn side_to_move(&mut self) -> Result<()> {
            let color = self.color()?;
            self.out.push_str(&format!("{color} to move"));
            if let Some(game) = &self.shadow {
                let fen = game.position().fen();
                let side = if color == Color::White { "w" } else { "b" };
                let mut fields: Vec<&str> = fen.split(' ').collect();
                if fields.len() > 1 {
                    fields[1] = side;
                }
                let fen = fields.join(" ");
                self.set_shadow_fen(&fen);
            }
            Ok(())
        }

        /// A state key of the variant (or not), with a plausible value.
        fn key_value(&mut self) -> Result<String> {
            let keys: Vec<&str> = R::state_keys().iter().map(|k| k.name).collect();
            let key = self.name_from(&keys)?;
            let per_color = R::state_keys()
                .iter()
                .find(|k| k.name == key)
                .is_some_and(|k| k.per_color);
            let color = if per_color != self.percent(5)? {
                Some(self.color()?)
            } else {
                None
            };
            let real = match (&self.shadow, color, per_color) {
                (Some(game), c, true) if c.is_some() && keys.contains(&key.as_str()) => {
                    Some(game.position().state_key(&key, c))
                }
                (Some(game), None, false) if keys.contains(&key.as_str()) => {
                    Some(game.position().state_key(&key, None))
                }
                _ => None,
            };
            let value = match (real, self.u.int_in_range(0u8..=9)?) {
                (Some(v), 0..=4) => v,
                (_, 5) => self.number()?,
                (_, 6) => self.square_name()?,
                (_, 7) => {
                    let fen = self.fen_text()?;
                    format!("\"{fen}\"")
                }
                _ => self
                    .u
                    .choose(&[
                        "yes", "no", "-", "KQkq", "Kq", "KQkqKQkq", "e3", "0", "1", "(WD)",
                    ])?
                    .to_string(),
            };
            let value = if value.contains(' ') && !value.starts_with('"') {
                format!("\"{value}\"")
            } else if value.is_empty() {
                "-".to_string()
            } else {
                value
            };
            Ok(match color {
                Some(c) => format!("{key} {c} = {value}"),
                None => format!("{key} = {value}"),
            })
        }

        fn set_stmt(&mut self) -> Result<()> {
            let kv = self.key_value()?;
            self.out.push_str(&format!("set {kv}"));
            // The evaluator applies the key; the shadow does not know what it did.
            if self.percent(50)? {
                self.shadow = None;
            }
            Ok(())
        }

        fn legal(&self) -> Vec<(String, Turn)> {
            match &self.shadow {
                Some(game) => {
                    let g = *game.position().board().geometry();
                    game.legal_turns()
                        .into_iter()
                        .map(|(_, t)| (t.text(&g), t))
                        .collect()
                }
                None => Vec::new(),
            }
        }

        /// A turn: a legal one of the shadow (as written canonically or in short notation, with
        /// or without a claim), or a made-up one.
        fn turn(&mut self, legal: &[(String, Turn)], p_legal: u8) -> Result<String> {
            if !legal.is_empty() && self.percent(p_legal)? {
                let (text, turn) = self.u.choose(legal)?.clone();
                return Ok(match self.u.int_in_range(0u8..=19)? {
                    0..=11 => text,
                    12..=17 => self.short(&turn).unwrap_or(text),
                    18 => format!("{text}+"),
                    _ => format!("{text}#"),
                });
            }
            self.made_up_turn()
        }

        /// A single-action move in short notation: `Nf3`, `exd5`, `e8=Q`.
        fn short(&mut self, turn: &Turn) -> Option<String> {
            let g = self.geometry;
            let [Action::Move {
                role,
                design: None,
                from,
                legs,
                promotion,
                castle: None,
            }] = turn.actions.as_slice()
            else {
                return None;
            };
            let (to, capture) = straight(legs)?;
            let mut s = String::new();
            if *role == Role::Pawn {
                if capture {
                    s.push_str(g.file_label(from.file));
                }
            } else {
                s.push(role.letter());
            }
            if capture {
                s.push('x');
            }
            s.push_str(&g.square_name(to));
            if let Some(p) = promotion {
                s.push('=');
                s.push(p.letter());
            }
            Some(s)
        }

        fn made_up_turn(&mut self) -> Result<String> {
            let mut t = String::new();
            match self.u.int_in_range(0u8..=19)? {
                0..=6 => {
                    if self.u.arbitrary()? {
                        t.push(self.piece_letter()?);
                    }
                    t.push_str(&self.square_name()?);
                    for _ in 0..self.u.int_in_range(1u8..=3)? {
                        t.push(*self.u.choose(&['-', 'x', '^', '~'])?);
                        t.push_str(&self.square_name()?);
                    }
                }
                7..=10 => {
                    if self.u.arbitrary()? {
                        t.push(self.piece_letter()?);
                    }
                    match self.u.int_in_range(0u8..=3)? {
                        0 => t.push(self.u.int_in_range(b'a'..=b'i')? as char),
                        1 => t.push_str(&self.u.int_in_range(0u8..=10)?.to_string()),
                        2 => t.push_str(&self.square_name()?),
                        _ => {}
                    }
                    if self.u.arbitrary()? {
                        t.push('x');
                    }
                    t.push_str(&self.square_name()?);
                }
                11 => t.push_str(self.u.choose(&["O-O", "O-O-O"])?),
                12 => t.push_str(&format!("{}@{}", self.piece_letter()?, self.square_name()?)),
                13 => {
                    let (a, b) = (self.square_name()?, self.square_name()?);
                    let (c, d) = (self.square_name()?, self.square_name()?);
                    t.push_str(&format!("S{a}-{b}; {}{c}-{d}", self.piece_letter()?));
                }
                14 => {
                    let (a, b) = (self.square_name()?, self.square_name()?);
                    t.push_str(&format!(
                        "{a}-{b}; coup {}{}",
                        self.piece_letter()?,
                        self.square_name()?
                    ));
                }
                15 => t.push_str(self.u.choose(&["resign", "draw"])?),
                16 => t.push_str(self.u.choose(&[
                    "pass",
                    "reborn c1",
                    "buy WD",
                    "Q=BL",
                    "(WD)@e5",
                    "buy Wfc(DNFA)scDsHbmH",
                    "FbDbcA=fc(DF)",
                    "(Wfc(DNFA)scDsHbmH)@d6",
                    "(WD)xe5",
                    "(W(D)e4",
                    "timeout",
                    "vanish e5",
                    "reborn e5-c1",
                    "c4-c5; reborn c1",
                    "Ac1^c3~d3",
                    "Ga1-a4-d4",
                ])?),
                _ => {
                    t.push_str(&self.square_name()?);
                    t.push('-');
                    t.push_str(&self.square_name()?);
                    t.push('=');
                    t.push(self.piece_letter()?);
                }
            }
            if self.percent(10)? {
                t.push(*self.u.choose(&['+', '#'])?);
            }
            Ok(t)
        }

        fn play(&mut self) -> Result<()> {
            self.out.push_str("play");
            for i in 0..self.u.int_in_range(1u8..=5)? {
                let legal = self.legal();
                if self.percent(5)? {
                    let n = i / 2 + 1;
                    self.out
                        .push_str(&format!(" {n}{}", if i % 2 == 0 { "." } else { "..." }));
                }
                let text = self.turn(&legal, 96)?;
                self.out.push(' ');
                self.out.push_str(&text);
                self.shadow_play(&text);
            }
            Ok(())
        }

        /// Plays a written turn in the shadow; a turn it refuses stops the scenario, so the
        /// shadow is dropped then.
        fn shadow_play(&mut self, text: &str) {
            let Some(game) = &mut self.shadow else {
                return;
            };
            let g = *game.position().board().geometry();
            let pattern = parse_turn(text)
                .ok()
                .and_then(|t| Lowering::<R>::new(g).turn(&t).ok());
            let played = pattern.is_some_and(|p| game.play(&p).is_ok());
            if !played {
                self.shadow = None;
            }
            self.drop_unlistable_shadow();
        }

        fn expect(&mut self) -> Result<()> {
            let legal = self.legal();
            let g = self.geometry;
            let assertion = match self.u.int_in_range(0u8..=24)? {
                0..=3 => format!("legal {}", self.turn(&legal, 85)?),
                4..=6 => {
                    let turn = if self.u.arbitrary()? {
                        self.made_up_turn()?
                    } else {
                        self.turn(&legal, 85)?
                    };
                    let refusal = self.refusal_rule(&turn);
                    match (refusal, self.u.int_in_range(0u8..=3)?) {
                        (_, 0) => format!("illegal {turn}"),
                        (Some(rule), 1..=2) => format!("illegal {turn} because {rule}"),
                        _ => {
                            let ids: Vec<&str> = R::rules().iter().map(|r| r.id).collect();
                            format!("illegal {turn} because {}", self.name_from(&ids)?)
                        }
                    }
                }
                7 => {
                    let mut texts: Vec<String> = legal.iter().map(|(t, _)| t.clone()).collect();
                    if !texts.is_empty() && self.u.arbitrary()? {
                        let i = self.u.int_in_range(0..=texts.len() - 1)?;
                        texts.remove(i);
                    }
                    if self.percent(20)? {
                        texts.push(self.made_up_turn()?);
                    }
                    format!("moves = {{ {} }}", texts.join(" "))
                }
                8..=9 => {
                    let from = self.origin_square(&legal)?;
                    let mut to: Vec<String> = legal
                        .iter()
                        .filter(|(_, t)| {
                            t.first_origin().map(|s| g.square_name(s)) == Some(from.clone())
                        })
                        .filter_map(|(_, t)| t.first_destination().map(|s| g.square_name(s)))
                        .collect();
                    to.sort();
                    to.dedup();
                    if self.percent(20)? {
                        to.push(self.square_name()?);
                    }
                    format!("moves from {from} = {{ {} }}", to.join(" "))
                }
                10 => {
                    let from = self.origin_square(&legal)?;
                    let n = legal
                        .iter()
                        .filter(|(_, t)| {
                            t.first_origin().map(|s| g.square_name(s)) == Some(from.clone())
                        })
                        .count();
                    let n = if self.percent(70)? {
                        n.to_string()
                    } else {
                        self.number()?
                    };
                    format!("moves from {from} count {n}")
                }
                11 => {
                    let n = if self.percent(70)? {
                        legal.len().to_string()
                    } else {
                        self.number()?
                    };
                    format!("moves count {n}")
                }
                12 => {
                    let check = self.shadow.as_ref().and_then(|g| g.position().in_check());
                    match (check, self.u.int_in_range(0u8..=3)?) {
                        (Some(true), 0..=2) => "check".to_string(),
                        (Some(false), 0..=2) => "no check".to_string(),
                        (_, 0..=1) => "check".to_string(),
                        _ => "no check".to_string(),
                    }
                }
                13..=14 => self.result_assertion()?,
                15 => format!("zone {} = {}", self.square_name()?, {
                    let zones = R::zones().to_vec();
                    self.name_from(&zones)?
                }),
                16 => format!("perft {} = {}", self.depth()?, self.number()?),
                17 => format!("win in {} for {}", self.depth()?, self.color()?),
                18 => {
                    let design = *self.u.choose(&["(WD)", "WD", "(WbRbmHfB)", "(W)", "BL"])?;
                    format!("cost {design} = {}", self.number()?)
                }
                19 => {
                    let names: Vec<&str> = R::invariants().iter().map(|i| i.name).collect();
                    format!(
                        "invariant {} to depth {}",
                        self.name_from(&names)?,
                        self.depth()?
                    )
                }
                20..=22 => self.occupant_assertion()?,
                _ => self.key_value()?,
            };
            self.out.push_str("expect ");
            self.out.push_str(&assertion);
            Ok(())
        }

        fn origin_square(&mut self, legal: &[(String, Turn)]) -> Result<String> {
            let g = self.geometry;
            let origins: Vec<Square> = legal.iter().filter_map(|(_, t)| t.first_origin()).collect();
            if !origins.is_empty() && self.percent(80)? {
                return Ok(g.square_name(*self.u.choose(&origins)?));
            }
            self.square_name()
        }

        /// The rule the shadow refuses a turn with, if it does.
        fn refusal_rule(&self, text: &str) -> Option<&'static str> {
            let game = self.shadow.as_ref()?;
            let g = *game.position().board().geometry();
            let pattern = Lowering::<R>::new(g).turn(&parse_turn(text).ok()?).ok()?;
            match game.resolve(&pattern) {
                Err(crate::rules::game::PlayError::Refused(r)) => Some(r.rule),
                _ => None,
            }
        }

        fn result_assertion(&mut self) -> Result<String> {
            let real = self.shadow.as_ref().and_then(|g| g.outcome());
            if let (Some(o), true) = (real, self.percent(60)?) {
                let who = match o.winner {
                    Some(c) => format!("{c} wins"),
                    None => "draw".to_string(),
                };
                return Ok(format!("result {who} by {}", o.reason));
            }
            let who = *self
                .u
                .choose(&["white wins", "black wins", "draw", "none"])?;
            Ok(if self.u.arbitrary()? {
                format!("result {who}")
            } else {
                format!("result {who} by {}", self.name_from(RESULT_REASONS)?)
            })
        }

        fn occupant_assertion(&mut self) -> Result<String> {
            let g = self.geometry;
            let real = self.percent(70)?;
            if let (Some(game), true) = (&self.shadow, real) {
                let squares: Vec<Square> = g.squares().collect();
                let sq = *self.u.choose(&squares)?;
                let name = g.square_name(sq);
                return Ok(match game.position().board().piece_at(Sq::of(sq)) {
                    Some(p) => format!("{name} = {} {}", p.color(), p.role().word()),
                    None => format!("{name} = empty"),
                });
            }
            let sq = self.square_name()?;
            if self.percent(20)? {
                return Ok(format!("{sq} = empty"));
            }
            let color = self.color()?;
            let piece = match self.u.int_in_range(0u8..=2)? {
                0 => self.piece_letter()?.to_string(),
                1 => {
                    let words = [
                        "king", "queen", "rook", "bishop", "knight", "pawn", "spy", "mage",
                    ];
                    self.u.choose(&words)?.to_string()
                }
                _ => "(WD)".to_string(),
            };
            Ok(format!("{sq} = {color} {piece}"))
        }
    }
}

/// `check_structured`: the bytes drive a grammar-aware generator ([`structured::scenario_file`])
/// whose scenario file then runs like [`check_text`].
#[cfg(feature = "fuzzing")]
pub fn check_structured(data: &[u8]) {
    check_source(structured::scenario_file(data));
}
