//! How `arbiter import` scales with the size of a variants.ini: a chain `[s0:chess]`,
//! `[s1:s0]`, ... of 5,000 and of 40,000 sections, read and every section imported as the
//! command imports them (eight times the sections should cost about eight times the time; the
//! import that scanned the file for each parent cost sixty-four times). Sections more than 64
//! parents deep are refused as too deep, and counted, not rendered, as past the command's
//! first thousand problems.
//!
//! `cargo bench --bench import`.

use std::hint::black_box;

use arbiter::definition::ini::{self, Detail};
use criterion::{criterion_group, criterion_main, Criterion};

/// A chain of `n` sections on top of chess.
fn chain(n: usize) -> String {
    let mut text = String::from("[s0:chess]\n");
    for i in 1..=n {
        text.push_str(&format!("[s{i}:s{}]\n", i - 1));
    }
    text
}

fn bench_import(c: &mut Criterion) {
    let mut group = c.benchmark_group("import");
    group.sample_size(10);
    for n in [5_000usize, 40_000] {
        let text = chain(n);
        group.bench_function(format!("a chain of {n} sections"), |b| {
            b.iter(|| {
                let file = ini::reader::read(&text);
                let imported = file
                    .sections
                    .iter()
                    .filter(|s| {
                        ini::import_with("chain.ini", &text, &file, &s.name, Detail::Count).is_ok()
                    })
                    .count();
                black_box(imported)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_import);
criterion_main!(benches);
