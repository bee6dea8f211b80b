//! Which rule ids and option values the scenarios of some files exercise.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::ast::{OptionSetting, Scenario, StatementKind};
use super::parse::parse_file;
use crate::files::{read_bounded, scenario_files};
use crate::rules::Rules;

/// What `arbiter rules --coverage` found under its paths.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Per rule id, how many scenarios of the variant name it in a `rule` line.
    pub counts: BTreeMap<String, usize>,
    /// Per option and value, how many scenarios play a turn or check an expectation under
    /// that value (pinned in the file or the scenario, or the default where nothing pins it).
    pub option_values: BTreeMap<(String, String), usize>,
    /// The scenarios of the variant that were read.
    pub scenarios: usize,
    /// What was read but not counted, and why (other variants, unreadable or broken files).
    pub notes: Vec<String>,
}

/// How many scenarios of this variant under the paths name each rule id in a `rule` line.
pub fn rule_coverage<R: Rules>(paths: &[PathBuf]) -> Result<Coverage, String> {
    let mut coverage = Coverage::default();
    let mut other_variants: BTreeMap<String, usize> = BTreeMap::new();
    let found = scenario_files(paths)?;
    coverage.notes.extend(found.skipped);
    for f in found.files {
        let read = read_bounded(&f).and_then(|b| {
            String::from_utf8(b).map_err(|_| std::io::Error::other("it is not UTF-8 text"))
        });
        let src = match read {
            Ok(src) => src,
            Err(e) => {
                coverage.notes.push(format!(
                    "{} not counted: cannot read it: {e}",
                    crate::text::path(&f)
                ));
                continue;
            }
        };
        let file = match parse_file(&src) {
            Ok(file) => file,
            Err(problems) => {
                coverage.notes.push(format!(
                    "{} not counted: it does not parse ({}; `arbiter check` shows them)",
                    crate::text::path(&f),
                    crate::text::count(problems.len(), "problem")
                ));
                continue;
            }
        };
        if file.variant.node != R::name() {
            *other_variants.entry(file.variant.node.clone()).or_insert(0) += 1;
            continue;
        }
        for s in &file.scenarios {
            coverage.scenarios += 1;
            let mut ids: Vec<&str> = s
                .statements
                .iter()
                .filter_map(|st| match &st.kind {
                    StatementKind::Rule(ids) => Some(ids),
                    _ => None,
                })
                .flatten()
                .map(|id| id.node.as_str())
                .collect();
            ids.sort();
            ids.dedup();
            for id in ids {
                *coverage.counts.entry(id.to_string()).or_insert(0) += 1;
            }
            for (name, value) in values_in_force::<R>(&file.options, s) {
                *coverage.option_values.entry((name, value)).or_insert(0) += 1;
            }
        }
    }
    for (variant, n) in other_variants {
        coverage.notes.push(format!(
            "{} of variant {variant} not counted",
            crate::text::count(n, "file")
        ));
    }
    Ok(coverage)
}

/// The values of the variant's options under which a scenario plays or expects something: the
/// file's pin or the default, changed by the scenario's own `option` lines as they come.
fn values_in_force<R: Rules>(
    file_options: &[OptionSetting],
    scenario: &Scenario,
) -> BTreeSet<(String, String)> {
    let mut current: BTreeMap<&str, &str> = R::options()
        .iter()
        .map(|o| {
            let pinned = file_options.iter().rev().find(|s| s.name.node == o.name);
            (o.name, pinned.map_or(o.default, |s| s.value.node.as_str()))
        })
        .collect();
    let mut used = BTreeSet::new();
    for st in &scenario.statements {
        match &st.kind {
            StatementKind::Option(s) => {
                if let Some(v) = current.get_mut(s.name.node.as_str()) {
                    *v = s.value.node.as_str();
                }
            }
            StatementKind::Play(_) | StatementKind::Expect(_) => {
                for (name, value) in &current {
                    used.insert((name.to_string(), value.to_string()));
                }
            }
            _ => {}
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::xpanse::Xpanse;

    #[test]
    fn an_option_value_counts_where_a_turn_or_an_expectation_runs_under_it() {
        let src = r#"variant xpanse 4x5
option switch-reach = orthogonal
scenario "a" {
  board { white: Ka1 black: Kd5 }
  option pass-counts = yes
  expect moves count 4
  option pass-counts = no
}
"#;
        let file = parse_file(src).expect("parses");
        let used = values_in_force::<Xpanse>(&file.options, &file.scenarios[0]);
        let has = |o: &str, v: &str| used.contains(&(o.to_string(), v.to_string()));
        assert!(has("switch-reach", "orthogonal") && !has("switch-reach", "adjacent"));
        // Pinned before the expectation: the default is not exercised; pinned after it, the
        // new value is not either.
        assert!(has("pass-counts", "yes") && !has("pass-counts", "no"));
        assert!(has("gatekeeper-lines", "orthogonal"));
    }
}
