//! Every rule id of every variant is exercised by at least one bundled scenario (`rule` lines).

use std::path::PathBuf;

use arbiter::rules::{Rules, Variant};
use arbiter::scenario::coverage::rule_coverage;
use arbiter::with_variant;

fn uncovered<R: Rules>() -> Vec<&'static str> {
    let scenarios = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let counts = rule_coverage::<R>(&[scenarios])
        .expect("scenarios readable")
        .counts;
    R::rules()
        .iter()
        .map(|r| r.id)
        .filter(|id| !counts.contains_key(*id))
        .collect()
}

#[test]
fn every_rule_id_has_a_scenario() {
    for variant in Variant::ALL {
        let missing = with_variant!(variant, R => uncovered::<R>());
        assert!(
            missing.is_empty(),
            "{variant}: rule ids without a scenario: {missing:?}"
        );
    }
}

fn unexercised<R: Rules>() -> Vec<String> {
    let scenarios = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let values = rule_coverage::<R>(&[scenarios])
        .expect("scenarios readable")
        .option_values;
    R::options()
        .iter()
        .flat_map(|o| o.values.iter().map(move |v| (o.name, *v)))
        .filter(|(o, v)| !values.contains_key(&(o.to_string(), v.to_string())))
        .map(|(o, v)| format!("{o} = {v}"))
        .collect()
}

#[test]
fn every_option_value_is_exercised_by_a_scenario() {
    for variant in Variant::ALL {
        let missing = with_variant!(variant, R => unexercised::<R>());
        assert!(
            missing.is_empty(),
            "{variant}: option values no scenario plays or expects under: {missing:?}"
        );
    }
}
