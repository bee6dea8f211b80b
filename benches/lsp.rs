//! What a keystroke costs in `arbiter lsp`: the live diagnostics (parse, syntax errors,
//! unknown names, each converted to an LSP range) of a generated 2,000-line scenario file,
//! with a misspelt rule id in one scenario of ten. The evaluation is not measured here: it
//! runs on the server's worker thread, after a pause, and never delays a keystroke.
//!
//! `cargo bench --bench lsp`.

use std::hint::black_box;

use arbiter::lsp::diagnostics::on_change;
use arbiter::lsp::text::{Kind, Lines};
use criterion::{criterion_group, criterion_main, Criterion};

/// A chess file of `lines` lines: scenarios of ten lines each.
fn generated(lines: usize) -> String {
    let mut src = String::from("variant chess\noption repetition-draw = fivefold\n\n");
    let mut i = 0;
    while src.lines().count() + 10 <= lines {
        let rule = if i % 10 == 9 { "castlin" } else { "castling" };
        src.push_str(&format!(
            "scenario \"castling {i}\" {{\n  rule {rule}\n  fen \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\"\n  expect legal O-O\n  play e1-g1 e8-g8\n  expect g1 = white king\n  expect castling = -\n  expect moves from f1 count 10\n}}\n\n"
        ));
        i += 1;
    }
    src
}

fn bench_live(c: &mut Criterion) {
    let src = generated(2_000);
    let lines = src.lines().count();
    let mut group = c.benchmark_group("lsp");
    group.sample_size(20);
    group.bench_function(format!("live diagnostics, {lines} lines"), |b| {
        b.iter(|| {
            let text = black_box(src.as_str());
            let (file, diagnostics, _) = on_change(Kind::Scenario, text, &Lines::new(text), None);
            assert!(file.is_some());
            assert_eq!(diagnostics.len(), src.matches("rule castlin\n").count());
            black_box(diagnostics)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_live);
criterion_main!(benches);
