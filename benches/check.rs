//! How `arbiter check` scales with the size of a file: a generated file of 20,000 scenarios
//! (and one of 10,000, to see that twice the scenarios cost twice the time), parsed,
//! evaluated and reported as `check` does; and the HTML report of one scenario with 5,000
//! failing expectations (and 2,500), which drew each diagram by replaying the scenario from its
//! start (quadratic) before failures kept their pictures.
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

criterion_group!(benches, bench_check, bench_html);
criterion_main!(benches);
