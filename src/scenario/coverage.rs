//! Which scenario files there are, and which rule ids their scenarios exercise.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::ast::StatementKind;
use super::parse::parse_file;
use crate::rules::Rules;

/// Every `*.scn` file under the paths, sorted, so output order never depends on the file system.
pub fn scenario_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
        let entries =
            std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry
                .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
                .path();
            if path.is_dir() {
                walk(&path, out)?;
            } else if path.extension().is_some_and(|e| e == "scn") {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut files)?;
        } else if p.exists() {
            files.push(p.clone());
        } else {
            return Err(format!("{} does not exist", p.display()));
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// How many scenarios of this variant under the paths name each rule id in a `rule` line.
pub fn rule_coverage<R: Rules>(paths: &[PathBuf]) -> Result<BTreeMap<String, usize>, String> {
    let mut counts = BTreeMap::new();
    for f in scenario_files(paths)? {
        let src =
            std::fs::read_to_string(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        let Ok(file) = parse_file(&src) else { continue };
        if file.variant.node != R::NAME {
            continue;
        }
        for s in &file.scenarios {
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
                *counts.entry(id.to_string()).or_insert(0) += 1;
            }
        }
    }
    Ok(counts)
}
