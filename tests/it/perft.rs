//! Perft counts from `tests/data/perft-<variant>.txt`, one reader and one runner generic over
//! every variant.
//!
//! The normal run checks every count up to [`FAST_LIMIT`] nodes; the ignored `perft_deep` test
//! checks the deeper ones up to [`DEEP_LIMIT`] and prints nodes per second
//! (`cargo test --release --test it -- perft:: --ignored --nocapture`).
//!
//! Cypher's counts are the built-in's, recorded so that they outlive it: every line is also
//! counted by `variants/cypher.def` on the generic engine, the small ones in every run.

use std::time::Instant;

use arbiter::rules::chess::Chess;
use arbiter::rules::cypher::Cypher;
use arbiter::rules::defined::Position;
use arbiter::rules::{perft, Options, Rules, Variant};

const FAST_LIMIT: u64 = 5_000_000;
const DEEP_LIMIT: u64 = 250_000_000;

struct Case {
    id: String,
    fen: String,
    depth: u32,
    nodes: u64,
}

fn cases(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let (mut id, mut fen) = (String::new(), String::new());
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "id" => id = rest.to_string(),
            "fen" => fen = rest.to_string(),
            "perft" => {
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|d| d.parse().ok());
                let nodes = it.next().and_then(|d| d.parse().ok());
                match (depth, nodes) {
                    (Some(depth), Some(nodes)) => out.push(Case {
                        id: id.clone(),
                        fen: fen.clone(),
                        depth,
                        nodes,
                    }),
                    _ => panic!("line {}: bad perft line `{line}`", n + 1),
                }
            }
            _ => panic!("line {}: unknown line `{line}`", n + 1),
        }
    }
    out
}

fn position<R: Rules>(fen: &str) -> R {
    let options = Options::defaults(R::options());
    let geometry = R::geometry_for(None).expect("a default board");
    match R::from_fen(geometry, fen, &options) {
        Ok(p) => p,
        Err(e) => panic!("bad FEN `{fen}`: {e}"),
    }
}

/// Every count of one variant's file between `min` (exclusive) and `max` nodes.
fn run<R: Rules>(text: &str, min: u64, max: u64) -> (u64, f64) {
    let mut failures = Vec::new();
    let mut total = 0;
    let mut secs = 0.0;
    for c in cases(text)
        .into_iter()
        .filter(|c| c.nodes > min && c.nodes <= max)
    {
        let pos = position::<R>(&c.fen);
        let t = Instant::now();
        let got = perft(&pos, c.depth);
        let dt = t.elapsed().as_secs_f64();
        total += got;
        secs += dt;
        if min > 0 {
            println!(
                "{:>20} perft {} = {:>11} in {:>7.3}s: {:>6.1} Mnps",
                c.id,
                c.depth,
                got,
                dt,
                got as f64 / dt / 1e6
            );
        }
        if got != c.nodes {
            failures.push(format!(
                "{} perft {}: expected {}, got {}",
                c.id, c.depth, c.nodes, got
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    (total, secs)
}

const CHESS: &str = include_str!("../data/perft-chess.txt");
const CYPHER: &str = include_str!("../data/perft-cypher.txt");
/// Chess with invented pieces: moves come from the slow generator of the movement model.
const CHESS_INVENTED: &str = include_str!("../data/perft-chess-invented.txt");
/// The invented pieces' counts checked in every run: the slow generator is about a tenth of
/// the orthodox one's speed.
const INVENTED_FAST_LIMIT: u64 = 1_000_000;

/// Cypher's counts checked by the definition in every run: the generic engine is some 25 times
/// slower per node than the built-in, so the normal run keeps to the lines up to this size
/// (1.7 million nodes in all) and the deep test counts the rest (213 million).
const DEFINED_FAST_LIMIT: u64 = 200_000;

/// Cypher's counts between `min` and `max`, by `variants/cypher.def`.
fn run_defined(min: u64, max: u64) -> (u64, f64) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/cypher.def");
    let Variant::Defined(id) = arbiter::rules::defined::load(path).expect("variants/cypher.def")
    else {
        panic!("a definition");
    };
    let _bound = arbiter::rules::defined::bind(id);
    run::<Position>(CYPHER, min, max)
}

/// Every file's counts between `min` and `max` (for the invented pieces, between
/// `invented.0` and `invented.1`; for Cypher by its definition, between `defined.0` and
/// `defined.1`), with the nodes and seconds of each.
fn run_all(
    min: u64,
    max: u64,
    invented: (u64, u64),
    defined: (u64, u64),
) -> [(&'static str, u64, f64); 4] {
    let (n, s) = run::<Chess>(CHESS, min, max);
    let (m, t) = run::<Cypher>(CYPHER, min, max);
    let (i, u) = run::<Chess>(CHESS_INVENTED, invented.0, invented.1);
    let (d, e) = run_defined(defined.0, defined.1);
    [
        ("chess", n, s),
        ("cypher", m, t),
        ("chess with invented pieces", i, u),
        ("cypher by variants/cypher.def", d, e),
    ]
}

#[test]
fn perft_fast() {
    for (variant, total, _) in run_all(
        0,
        FAST_LIMIT,
        (0, INVENTED_FAST_LIMIT),
        (0, DEFINED_FAST_LIMIT),
    ) {
        assert!(total > 0, "no {variant} counts checked");
    }
}

/// Cypher from the start to depth 5 in every run: the regression that matters most for the
/// game's move generator, and about 39 million nodes (seconds in the test profile).
#[test]
fn cypher_start_to_depth_five() {
    let start: String = CYPHER
        .split("\n\n")
        .find(|block| block.lines().any(|l| l == "id start"))
        .expect("the start block")
        .to_string();
    let (total, _) = run::<Cypher>(&start, 0, 40_000_000);
    assert!(total > 38_000_000, "depth 5 was not checked");
}

#[test]
#[ignore = "deep perft; run in release with --ignored --nocapture for nodes per second"]
fn perft_deep() {
    for (variant, total, secs) in run_all(
        FAST_LIMIT,
        DEEP_LIMIT,
        (INVENTED_FAST_LIMIT, DEEP_LIMIT),
        (DEFINED_FAST_LIMIT, DEEP_LIMIT),
    ) {
        println!(
            "{variant}: total {total} nodes in {secs:.3}s: {:.1} Mnps",
            total as f64 / secs / 1e6
        );
    }
}
