//! `variants/cypher.def`, Cypher Chess written as a definition, against the built-in `cypher`:
//! every bundled Cypher scenario but the invariants' (which the built-in's own invariants
//! check, and the definition does not offer yet) gives the same report under both, line for
//! line, with the same rule ids, results and options consulted.

use std::path::Path;

use arbiter::scenario::report::{summary, FileCheck};

fn report(name: &str, src: String) -> (String, i32) {
    let check = FileCheck::run(name, src);
    let mut out = check.text();
    out.push_str(&check.problems_text());
    let (last, code) = summary(std::slice::from_ref(&check));
    out.push_str(&last);
    (out, code)
}

#[test]
fn every_cypher_scenario_reads_the_same_under_the_definition() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(root.join("scenarios/cypher"))
        .expect("scenarios/cypher")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scn"))
        .collect();
    files.sort();
    let mut compared = 0;
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if file == "invariants.scn" {
            continue;
        }
        let name = format!("scenarios/cypher/{file}");
        let src = std::fs::read_to_string(&path).expect("readable");
        assert!(
            src.contains("\nvariant cypher\n"),
            "{name} names the built-in"
        );
        let defined = src.replace(
            "\nvariant cypher\n",
            "\nvariant ../../variants/cypher.def\n",
        );
        let (built_in, code) = report(&name, src);
        assert_eq!(code, 0, "{name} under the built-in:\n{built_in}");
        let (by_definition, code) = report(&name, defined);
        assert_eq!(
            code, 0,
            "{name} under variants/cypher.def:\n{by_definition}"
        );
        assert_eq!(by_definition, built_in, "{name}");
        compared += built_in.lines().filter(|l| l.starts_with("ok ")).count();
    }
    assert!(compared > 180, "{compared} scenarios compared");
}
