//! One snapshot per bundled scenario file: the report `arbiter check` prints for it. Every
//! bundled scenario must also pass.

use std::path::Path;

use arbiter::scenario::report::{summary, FileCheck};

fn relative(path: &Path) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

fn report(path: &Path) -> (String, i32) {
    let src = std::fs::read_to_string(path).expect("scenario file readable");
    let check = FileCheck::run(&relative(path), src);
    let mut out = check.text();
    out.push_str(&check.problems_text());
    let (last, code) = summary(std::slice::from_ref(&check));
    out.push_str(&last);
    out.push('\n');
    (out, code)
}

#[test]
fn bundled_scenarios() {
    insta::glob!("../../scenarios", "**/*.scn", |path| {
        let (out, code) = report(path);
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(out);
        });
        assert_eq!(code, 0, "{} does not pass:\n{out}", relative(path));
    });
}

#[test]
fn failing_scenarios() {
    insta::glob!("../failing", "*.scn", |path| {
        let (out, code) = report(path);
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(out);
        });
        assert_ne!(code, 0, "{} was meant to fail:\n{out}", relative(path));
    });
}
