//! Perft benchmarks for orthodox chess, Cypher Chess, csipgs chess and ChessXpanse.
//!
//! `cargo bench --bench perft` runs criterion on perft 5 of the start position, perft 4 of
//! Kiwipete, perft 4 of the Cypher Chess start, perft 4 of a full csipgs board and perft 3 of a
//! crowded 7x7 ChessXpanse position (both sides' Gatekeeper, Mage and Archer among their
//! pieces). `PERFT_DEEP=1 cargo bench --bench perft` instead times perft 6 of the start
//! position, perft 5 of Kiwipete and of the Cypher start, perft 6 of the csipgs board and
//! perft 4 of the ChessXpanse position once each and prints nodes per second;
//! then Cypher perft 5 with the fast generator against the reference one that plays every
//! candidate on a copy, alternately three times each, as a ratio of the two.
//! `PERFT_DEFINED=1 cargo bench --bench perft` instead times variants written as definitions,
//! played by the generic engine: three lines of Fairy-Stockfish's perft suite (capablanca, a
//! 10x8 board; grand, 10x10; atomic) once each, then orthodox chess as a definition against
//! the built-in, alternately three times each, as a ratio of the two.
//! `PERFT_THREADS=1,2,4 cargo bench --bench perft` instead runs the parallel perft (chess 6,
//! Cypher 5) on pools of those sizes and prints, per thread count, wall time and the CPU time
//! of the whole process (user + system, all threads) against one thread's: a shared cost per
//! node shows as CPU that grows with the threads.

use std::hint::black_box;
use std::time::Instant;

use arbiter::rules::chess::{Chess, START_FEN};
use arbiter::rules::csipgs::Csipgs;
use arbiter::rules::cypher::Cypher;
use arbiter::rules::xpanse::Xpanse;
use arbiter::rules::{perft, Geometry, Options, Rules};
use criterion::{criterion_group, Criterion};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// A crowded 7x7 ChessXpanse battle: each side's Magic Pieces in its second row, among its
/// Queens and Pawns, the chess pieces behind them.
const XPANSE_CROWDED: &str = "rnbkbnr/qpgmapq/7/7/7/QPGMAPQ/RNBKBNR w";

fn xpanse_crowded() -> Xpanse {
    let options = Options::defaults(Xpanse::options());
    let geometry = Xpanse::geometry_for(Some((7, 7))).expect("a ChessXpanse board");
    Xpanse::from_fen(geometry, XPANSE_CROWDED, &options).expect("valid FEN")
}

/// A full csipgs board: the chess army with two `WD` designs for the Knights, three zorkmids
/// each, so that purchases are candidates too.
const CSIPGS_FULL: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R(WD)BQKB(WD)R w 3/3 -/- R,N,B,Q,K,fmWfcF/R,N,B,Q,K,fmWfcF";

fn csipgs_full() -> Csipgs {
    let options = Options::defaults(Csipgs::options());
    Csipgs::from_fen(Geometry::lettered(8, 8), CSIPGS_FULL, &options).expect("valid FEN")
}

fn cypher_start() -> Cypher {
    let options = Options::defaults(Cypher::options());
    Cypher::start(Cypher::geometry(), &options).expect("the Cypher start")
}

fn position(fen: &str) -> Chess {
    let options = Options::defaults(Chess::options());
    Chess::from_fen(Geometry::lettered(8, 8), fen, &options).expect("valid FEN")
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = position(START_FEN);
    group.bench_function("start 5", |b| b.iter(|| perft(black_box(&start), 5)));
    let kiwipete = position(KIWIPETE);
    group.bench_function("kiwipete 4", |b| b.iter(|| perft(black_box(&kiwipete), 4)));
    let cypher = cypher_start();
    group.bench_function("cypher start 4", |b| {
        b.iter(|| perft(black_box(&cypher), 4))
    });
    let csipgs = csipgs_full();
    group.bench_function("csipgs full 4", |b| b.iter(|| perft(black_box(&csipgs), 4)));
    let crowded = xpanse_crowded();
    let capablanca = arbiter::rules::defined::load("capablanca").expect("bundled");
    arbiter::with_variant!(capablanca, R => {
        let start = R::start(R::geometry_for(None).expect("a board"), &Options::defaults(R::options()))
            .expect("the start");
        group.bench_function("capablanca definition start 3", |b| {
            b.iter(|| perft(black_box(&start), 3))
        });
    });
    group.bench_function("xpanse crowded 7x7 3", |b| {
        b.iter(|| perft(black_box(&crowded), 3))
    });
    group.finish();
}

criterion_group!(benches, bench_perft);

/// Times one perft and prints its rate, checking the count.
fn timed<R: Rules>(name: &str, pos: &R, depth: u32, expected: u64) {
    let t = Instant::now();
    let nodes = perft(pos, depth);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(nodes, expected, "{name} perft {depth}");
    println!(
        "{name} perft {depth}: {nodes} nodes in {secs:.3}s = {:.1} million nodes/s",
        nodes as f64 / secs / 1e6
    );
}

fn deep() {
    timed("start", &position(START_FEN), 6, 119_060_324);
    timed("kiwipete", &position(KIWIPETE), 5, 193_690_690);
    let cypher = cypher_start();
    timed("cypher start", &cypher, 5, 38_967_548);
    timed("csipgs full board", &csipgs_full(), 6, 7_357_898);
    timed("xpanse crowded 7x7", &xpanse_crowded(), 4, 6_195_275);
    // Paired runs, so that the ratio holds on a busy machine where one time alone would not.
    let (mut fast, mut reference) = (0.0, 0.0);
    for _ in 0..3 {
        let t = Instant::now();
        let n = perft(&cypher, 5);
        fast += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let m = cypher.perft_reference(5);
        reference += t.elapsed().as_secs_f64();
        assert_eq!(n, m, "cypher start perft 5, fast and reference");
    }
    println!(
        "cypher start perft 5, three runs each: fast generator {fast:.3}s, reference {reference:.3}s: {:.1} times faster",
        reference / fast
    );
}

/// Times a line of a defined variant once.
fn timed_definition(name: &str, fen: Option<&str>, depth: u32, expected: u64) -> f64 {
    let variant = arbiter::rules::defined::load(name).expect("a bundled definition");
    arbiter::with_variant!(variant, R => {
        let options = Options::defaults(R::options());
        let geometry = R::geometry_for(None).expect("a board");
        let pos = match fen {
            Some(f) => R::from_fen(geometry, f, &options),
            None => R::start(geometry, &options),
        }
        .expect("a position");
        let t = Instant::now();
        timed(name, &pos, depth, expected);
        t.elapsed().as_secs_f64()
    })
}

fn defined() {
    timed_definition("capablanca", None, 4, 805_128);
    timed_definition("grand", None, 3, 259_514);
    timed_definition(
        "atomic",
        Some("rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1"),
        4,
        1_434_825,
    );
    // Paired runs, so that the ratio holds on a busy machine.
    let (mut built_in, mut definition) = (0.0, 0.0);
    for _ in 0..3 {
        let t = Instant::now();
        assert_eq!(perft(&position(START_FEN), 5), 4_865_609);
        built_in += t.elapsed().as_secs_f64();
        definition += timed_definition("chess.def", None, 5, 4_865_609);
    }
    println!(
        "chess perft 5, three runs each: built-in {built_in:.3}s, definition {definition:.3}s: the definition takes {:.1} times as long",
        definition / built_in
    );
}

/// CPU seconds (user + system) the process has spent so far, all threads together, from
/// `/proc/self/stat` (clock ticks of 1/100 s on Linux).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat (Linux)");
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')').expect("a command name") + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

/// The parallel perft of `pos` on a pool of each size, three runs each; wall and CPU time.
fn scaling<R>(name: &str, pos: &R, depth: u32, expected: u64, threads: &[usize])
where
    R: Rules + Send + Sync,
    R::Move: Send + Sync,
{
    use arbiter::rules::parallel;
    use arbiter::rules::search::{Limits, Shared};
    let mut one = None;
    for &n in threads {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .expect("a thread pool");
        let (mut walls, mut cpus) = (Vec::new(), Vec::new());
        for _ in 0..3 {
            let (t, c) = (Instant::now(), cpu_seconds());
            let nodes =
                pool.install(|| parallel::perft(pos, depth, &Shared::new(Limits::unlimited())));
            cpus.push(cpu_seconds() - c);
            walls.push(t.elapsed().as_secs_f64());
            assert_eq!(nodes, Ok(expected), "{name} perft {depth} on {n} threads");
        }
        let min = |v: &[f64]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
        let base = *one.get_or_insert(min(&cpus));
        println!(
            "{name} perft {depth}, {n} thread{}: wall {:.2} to {:.2} s, CPU {:.2} to {:.2} s ({:.2} to {:.2} times one thread's best)",
            if n == 1 { "" } else { "s" },
            min(&walls),
            max(&walls),
            min(&cpus),
            max(&cpus),
            min(&cpus) / base,
            max(&cpus) / base,
        );
    }
}

fn main() {
    if let Some(list) = std::env::var_os("PERFT_THREADS") {
        let threads: Vec<usize> = list
            .to_string_lossy()
            .split(',')
            .map(|n| {
                n.trim()
                    .parse()
                    .expect("PERFT_THREADS: thread counts, as 1,2,4")
            })
            .collect();
        scaling("start", &position(START_FEN), 6, 119_060_324, &threads);
        scaling("cypher start", &cypher_start(), 5, 38_967_548, &threads);
        return;
    }
    if std::env::var_os("PERFT_DEFINED").is_some() {
        defined();
        return;
    }
    if std::env::var_os("PERFT_DEEP").is_some() {
        deep();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
