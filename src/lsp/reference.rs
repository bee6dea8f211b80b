//! The language reference a hover in a definition quotes: `docs/defining-variants.md`, built
//! into the binary and read by heading and by table row, so a hover and the documentation
//! never say different things.

const REFERENCE: &str = include_str!("../../docs/defining-variants.md");

/// The text under `heading` (a whole heading line, `### castling`) up to the next heading of
/// level two or three, headings inside code blocks aside.
fn raw_section(heading: &str) -> Option<&'static str> {
    let mut start = None;
    let mut at = 0;
    let mut fenced = false;
    for line in REFERENCE.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && (trimmed.starts_with("## ") || trimmed.starts_with("### ")) {
            if let Some(s) = start {
                return Some(REFERENCE[s..at].trim());
            }
            if trimmed == heading {
                start = Some(at + line.len());
            }
        }
        at += line.len();
    }
    start.map(|s| REFERENCE[s..].trim())
}

/// The section of a statement, a component or a part of the language (`### name`), as
/// Markdown with its links to other sections left as their words (they point into the
/// document, not the editor).
pub fn section(name: &str) -> Option<String> {
    raw_section(&format!("### {name}")).map(unlink)
}

/// `[words](#anchor)` as `words`.
fn unlink(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(mid) = rest.find("](#") {
        let open = rest[..mid].rfind('[');
        let close = rest[mid..].find(')').map(|c| mid + c);
        match (open, close) {
            (Some(open), Some(close)) => {
                out.push_str(&rest[..open]);
                out.push_str(&rest[open + 1..mid]);
                rest = &rest[close + 1..];
            }
            _ => {
                out.push_str(&rest[..mid + 3]);
                rest = &rest[mid + 3..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The settings a table row's first cell names: the first word of each quoted part, its
/// alternatives split (`` `white\|black\|both ...` `` names `white`, `black` and `both`;
/// `` `moved any\|yes\|into` `` names `moved`, not its values).
fn first_cell_words(row: &str) -> Vec<&str> {
    let cell = row
        .trim_start()
        .trim_start_matches('|')
        .split(" | ")
        .next()
        .unwrap_or("");
    let mut words: Vec<&str> = cell
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|part| part.split_whitespace().next())
        .flat_map(|first| first.split("\\|"))
        .filter(|w| !w.is_empty())
        .collect();
    // A component's own table writes its region lines as "a region", unquoted.
    if cell
        .split('`')
        .step_by(2)
        .any(|text| text.contains("region"))
    {
        words.push("region");
    }
    words
}

/// Each table in `section` with only the rows whose first cell names `word`: the header and
/// those rows, as Markdown.
fn rows_naming(section: &str, word: &str) -> Vec<String> {
    let mut tables = Vec::new();
    let mut table: Vec<&str> = Vec::new();
    let mut flush = |table: &mut Vec<&str>| {
        if table.len() > 2 {
            let hits: Vec<&str> = table[2..]
                .iter()
                .copied()
                .filter(|row| first_cell_words(row).contains(&word))
                .collect();
            if !hits.is_empty() {
                let mut t = vec![table[0], table[1]];
                t.extend(hits);
                tables.push(unlink(&t.join("\n")));
            }
        }
        table.clear();
    };
    for line in section.lines() {
        if line.trim_start().starts_with('|') {
            table.push(line.trim());
        } else {
            flush(&mut table);
        }
    }
    flush(&mut table);
    tables
}

/// What the reference says of `setting` inside a block of `component`: its row of the
/// component's own table (its default), then its row of the settings table (its values and
/// which components take it), or of the settings every component takes. A region line
/// (`white`, `black`, `both`) is the component's `region`, and the regions' section says how
/// one is written.
pub fn setting(component: &str, setting: &str) -> Option<String> {
    let region = matches!(setting, "white" | "black" | "both");
    let mut parts = Vec::new();
    if let Some(own) = raw_section(&format!("### {component}")) {
        parts.extend(rows_naming(own, if region { "region" } else { setting }));
    }
    for heading in ["### Settings every component takes", "## Settings"] {
        if let Some(s) = raw_section(heading) {
            parts.extend(rows_naming(s, setting));
        }
    }
    if region {
        parts.extend(section("Regions"));
    }
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_statement_and_component_has_a_section() {
        let names = crate::definition::resolve::STATEMENTS
            .iter()
            .chain(crate::definition::resolve::COMPONENTS);
        for name in names {
            let s = section(name).unwrap_or_else(|| panic!("no section `### {name}`"));
            assert!(!s.is_empty() && !s.contains("\n## "), "{name}: {s}");
        }
    }

    #[test]
    fn every_setting_of_every_component_is_in_a_table() {
        for component in crate::definition::resolve::COMPONENTS {
            let settings = crate::definition::resolve::component_settings(component);
            for setting in settings
                .iter()
                .chain(crate::definition::resolve::COMMON_SETTINGS)
            {
                assert!(
                    super::setting(component, setting).is_some_and(|s| s.contains('|')),
                    "`{setting}` of `{component}` is in no table of the reference"
                );
            }
        }
    }

    #[test]
    fn sections_end_at_the_next_heading_and_keep_code_blocks() {
        let s = section("double-step").unwrap();
        assert!(s.starts_with("Pieces on their double-step squares"));
        assert!(s.contains("```\ndouble-step {"));
        assert!(!s.contains("### en-passant"));
        let steps = setting("double-step", "steps").unwrap();
        assert!(steps.contains("| `steps` | 2 |"), "{steps}");
        assert!(
            steps.contains("| `steps N` | 2 or 3 | double-step |"),
            "{steps}"
        );
        let region = setting("promotion", "white").unwrap();
        assert!(region.contains("A region is a set of squares per side"));
        assert_eq!(
            unlink("see [`check`](#check) and [x](y)"),
            "see `check` and [x](y)"
        );
    }
}
