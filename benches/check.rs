//! How `arbiter check` scales with the size of a file: a generated file of 20,000 scenarios
//! (and one of 10,000, to see that twice the scenarios cost twice the time), parsed,
//! evaluated and reported as `check` does; with the length of a move list: every legal
//! turn of a crowded ChessXpanse board listed in `expect moves = { ... }`, on two boards with
//! about 30,000 and 57,000 turns (twice the turns listed among twice the legal turns cost
//! about twice the time; matching each entry against every legal turn cost four times); and
//! the HTML report of one scenario with 5,000 failing expectations (and 2,500), which drew
//! each diagram by replaying the scenario from its start (quadratic) before failures kept
//! their pictures.
//!
//! `cargo bench --bench check`.

use std::hint::black_box;

use arbiter::scenario::evaluate::Settings;
use arbiter::scenario::html_report::{self, MAX_DIAGRAMS};
use arbiter::scenario::report::{FileCheck, Totals};
use criterion::{criterion_group, criterion_main, Criterion};

/// A chess file of `n` small scenarios, each a position, a move and an expectation.
fn generated(n: usize) -> String {
    let mut src = String::from("variant chess\n\n");
    for i in 0..n {
        src.push_str(&format!(
            "scenario \"pawn {i}\" {{\n  start\n  play e2-e4\n  expect e4 = white pawn\n}}\n\n"
        ));
    }
    src
}

fn bench_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    group.sample_size(10);
    for n in [10_000, 20_000] {
        let src = generated(n);
        group.bench_function(format!("{n} scenarios"), |b| {
            b.iter(|| {
                let check = FileCheck::run("generated.scn", black_box(src.clone()));
                assert_eq!(check.counts(), (n, 0));
                black_box(check.text())
            })
        });
    }
    group.finish();
}

/// A ChessXpanse file whose one scenario lists every legal turn of `fen` (a 7x7 board), as
/// `check --bless` writes it, and the number of turns.
fn listed(fen: &str) -> (String, usize) {
    use arbiter::rules::xpanse::Xpanse;
    use arbiter::rules::{Game, Options, Rules};
    let options = Options::defaults(Xpanse::options());
    let g = Xpanse::geometry_for(Some((7, 7))).expect("a 7x7 board");
    let pos = Xpanse::from_fen(g, fen, &options).expect("the position sets up");
    let turns = Game::new(pos, options).legal_turns();
    let texts: Vec<String> = turns.iter().map(|(_, t)| t.text(&g)).collect();
    let src = format!(
        "variant xpanse 7x7\n\nscenario \"every turn\" {{\n  fen \"{fen}\"\n  expect moves = {{ {} }}\n}}\n",
        texts.join(" ")
    );
    (src, texts.len())
}

fn bench_moves_list(c: &mut Criterion) {
    let mut group = c.benchmark_group("moves list");
    group.sample_size(10);
    for fen in [
        "B1B1B2/1k5/R1R1R2/7/Q1A1Q2/7/K1K4 w",
        "B1B1B2/1k5/R1R1R2/7/Q1A1Q2/7/K1K1K2 w",
    ] {
        let (src, n) = listed(fen);
        group.bench_function(format!("{n} turns listed"), |b| {
            b.iter(|| {
                let check = FileCheck::run("listed.scn", black_box(src.clone()));
                assert_eq!(check.counts(), (1, 0));
                black_box(check.text())
            })
        });
    }
    group.finish();
}

/// One chess scenario whose `n` expectations all fail (`html-quadratic.sh`).
fn failing(n: usize) -> String {
    let mut src = String::from("variant chess\n\nscenario \"r\" {\n  start\n");
    for _ in 0..n {
        src.push_str("  expect e4 = white pawn\n");
    }
    src.push_str("}\n");
    src
}

fn bench_html(c: &mut Criterion) {
    let mut group = c.benchmark_group("check --format html");
    group.sample_size(10);
    let settings = Settings {
        diagrams: MAX_DIAGRAMS,
        ..Settings::default()
    };
    for n in [2_500, 5_000] {
        let src = failing(n);
        group.bench_function(format!("{n} failures"), |b| {
            b.iter(|| {
                let check = FileCheck::run_with("failing.scn", black_box(src.clone()), &settings);
                let mut totals = Totals::default();
                totals.add(&check);
                let checks = [check];
                let run = html_report::Run {
                    inputs: &[],
                    totals: &totals,
                    interrupted: false,
                };
                let page = html_report::html(&checks, &run);
                assert_eq!(
                    page.matches("<figure class=\"diagram\">").count(),
                    MAX_DIAGRAMS
                );
                black_box(page)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_check, bench_moves_list, bench_html);
criterion_main!(benches);
