//! How `arbiter check` scales with the size of a file: a generated file of 20,000 scenarios
//! (and one of 10,000, to see that twice the scenarios cost twice the time), parsed,
//! evaluated and reported as `check` does.
//!
//! `cargo bench --bench check`.

use std::hint::black_box;

use arbiter::scenario::report::FileCheck;
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

criterion_group!(benches, bench_check);
criterion_main!(benches);
