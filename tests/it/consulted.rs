//! The record of consulted options is sound: an option that a scenario's evaluation did not
//! consult cannot change what the scenario comes to. Every bundled scenario is evaluated under
//! the defaults, then once more under each other value of each option it did not consult and
//! does not pin; the expectations' verdicts, the status and the result must be the same.
//! (`dispute` relies on this: it varies only the consulted options.)

use std::time::{Duration, Instant};

use arbiter::rules::Variant;
use arbiter::scenario::ast::{File, StatementKind};
use arbiter::scenario::evaluate::{evaluate_with, ScenarioReport, Settings};
use arbiter::scenario::parse::parse_file;

/// Scenarios slower than this under the defaults (deep searches) are left to `dispute`'s own
/// tests, to keep this one to seconds in a debug build.
const SLOW: Duration = Duration::from_millis(150);

fn summary(r: &ScenarioReport) -> String {
    format!(
        "{:?} {:?} {:?}",
        r.status(),
        r.expectations
            .iter()
            .map(|(_, held)| *held)
            .collect::<Vec<_>>(),
        r.result
    )
}

#[test]
fn options_not_consulted_change_nothing() {
    let mut files = Vec::new();
    for dir in [
        "scenarios/chess",
        "scenarios/cypher",
        "scenarios/csipgs",
        "scenarios/xpanse",
    ] {
        for e in std::fs::read_dir(dir).unwrap() {
            files.push(e.unwrap().path());
        }
    }
    files.sort();
    let (mut checked, mut skipped) = (0, 0);
    let mut wrong = Vec::new();
    for path in files {
        let src = std::fs::read_to_string(&path).unwrap();
        let file = parse_file(&src).expect("bundled scenarios parse");
        let variant: Variant = file.variant.node.parse().unwrap();
        for scenario in &file.scenarios {
            let alone = File {
                variant: file.variant.clone(),
                size: file.size.clone(),
                options: file.options.clone(),
                scenarios: vec![scenario.clone()],
            };
            let run = |overrides: Vec<(String, String)>| {
                let settings = Settings {
                    overrides,
                    ..Settings::default()
                };
                evaluate_with(&alone, &src, &settings)
                    .unwrap()
                    .pop()
                    .unwrap()
            };
            let start = Instant::now();
            let base = run(Vec::new());
            if start.elapsed() > SLOW {
                skipped += 1;
                continue;
            }
            let pinned = |name: &str| {
                file.options.iter().any(|o| o.name.node == name)
                    || scenario
                        .statements
                        .iter()
                        .any(|s| matches!(&s.kind, StatementKind::Option(o) if o.name.node == name))
            };
            for def in variant.options() {
                if pinned(def.name) || base.consulted.iter().any(|(n, _)| *n == def.name) {
                    continue;
                }
                for value in def.values.iter().filter(|v| **v != def.default) {
                    let other = run(vec![(def.name.to_string(), value.to_string())]);
                    checked += 1;
                    if summary(&other) != summary(&base) {
                        wrong.push(format!(
                            "{} \"{}\": {} = {value} was not consulted, yet it changes {} into {}",
                            path.display(),
                            scenario.title.node,
                            def.name,
                            summary(&base),
                            summary(&other)
                        ));
                    }
                }
            }
        }
    }
    eprintln!("{checked} unconsulted readings compared, {skipped} slow scenarios left out");
    assert!(checked > 500, "only {checked} readings were compared");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
