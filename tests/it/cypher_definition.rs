//! `variants/cypher.def`, Cypher Chess written as a definition, against the built-in `cypher`:
//! every bundled Cypher scenario gives the same report under both, line for line, with the same
//! rule ids, results and options consulted; the invariants' too, which the built-in checks in
//! Rust and the definition by its `property` statements. Each property is also shown to break
//! under a copy of the definition with the rule it guards broken.

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

const CYPHER_DEF: &str = include_str!("../../variants/cypher.def");

/// `text` with the block that starts with `head` (a whole line, `{` included) removed.
fn without_block(text: &str, head: &str) -> String {
    let start = text.find(head).unwrap_or_else(|| panic!("no `{head}`"));
    let end = start + text[start..].find("\n}\n").expect("the block ends") + 3;
    format!("{}{}", &text[..start], &text[end..])
}

/// The report of `scenario` (a scenario block) under `def`, a copy of cypher.def, both written
/// to a folder of their own.
fn under(tag: &str, def: &str, scenario: &str) -> (String, i32) {
    let dir = std::env::temp_dir().join(format!("arbiter-prop-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    std::fs::write(dir.join("broken.def"), def).expect("written");
    let scn = dir.join("broken.scn");
    let src = format!("variant broken.def\n\n{scenario}\n");
    std::fs::write(&scn, &src).expect("written");
    let out = report(&scn.to_string_lossy(), src);
    std::fs::remove_dir_all(&dir).ok();
    out
}

/// Each of the seven properties breaks, within a depth or two, under a copy of the definition
/// with the rule it guards taken out or weakened, and the failure says which piece on which
/// square broke it.
#[test]
fn each_cypher_property_breaks_when_its_rule_is_broken() {
    let court_king = {
        let k = CYPHER_DEF
            .find("  id court-sanctuary")
            .expect("court-sanctuary");
        let at = k + CYPHER_DEF[k..]
            .find("  pieces K\n  both zone court\n")
            .expect("its K");
        format!(
            "{}  pieces K\n  both area z0-z0\n{}",
            &CYPHER_DEF[..at],
            &CYPHER_DEF[at + "  pieces K\n  both zone court\n".len()..]
        )
    };
    let cases = [
        (
            "court-king",
            court_king,
            "board {\n    white: Kh1 Rz10 Qz9\n    black: Ke10 Bc7\n  }\n  black to move",
            "court-king-never-in-check 2",
            "in the current position: \"a King standing in Court is never in check, and the side \
             that just moved is not in check\" does not hold: the black king on e10 breaks \
             `every K in court is not in-check`: it is in check",
        ),
        // The coup takes a pawn off on the last Field row, so only without it too does one
        // step on into Court (a set-up with a pawn on that row is refused: no game has one).
        (
            "pawn",
            without_block(
                &without_block(CYPHER_DEF, "confine {\n  id pawn-not-on-court\n"),
                "defection {\n  id coup\n",
            ),
            "board {\n    white: Kh1 c8\n    black: Ke7\n  }",
            "no-pawn-on-court 3",
            "\"no pawn stands on a Court square\" does not hold: the white pawn on c10 breaks \
             `no P in court`",
        ),
        (
            "spy",
            without_block(CYPHER_DEF, "sanctuary {\n  id spy-immunity\n"),
            "board {\n    white: Ke4 Qd2 Rb1 Sb3\n    black: Kh8 Sd10 Re9\n  }",
            "spy-removed-only-by-flip-or-infiltration 3",
            "`removed S` is 1 (the black spy on i10, by capture) and `removed S by infiltration` \
             is 0",
        ),
        (
            "border",
            without_block(CYPHER_DEF, "sanctuary {\n  id border-sanctuary\n"),
            "board {\n    white: Kh1 Rg5 Qz5 c4 Sf3\n    black: Kh9 Rd5 h5 Nb6\n  }",
            "border-major-captured-only-by-pawn 2",
            "`captured Q|R|B|N in border` is 1 (the white rook on g5, by capture) and \
             `captured Q|R|B|N in border by P` is 0",
        ),
        (
            "entry",
            without_block(CYPHER_DEF, "no-entry {\n  id court-entry-trigger\n"),
            "board {\n    white: Kh1 Sd0 Qc3 Rg2 Na5\n    black: Kh9 Sd6 Nc8\n  }",
            "court-entry-by-trigger-or-king-step 2",
            "`did move from outside court to court` is 1 (the black knight from c8 to d10)",
        ),
        (
            "once",
            CYPHER_DEF.replacen(
                "  once yes\n",
                "  once no\n  once yes when infiltration-timing later-turn\n",
                1,
            ),
            "board {\n    white: Ke4 Qd2 Rb1\n    black: Ke6 Qd8 Rb9\n  }",
            "one-infiltration-per-side 3",
            "`did infiltration` holds, but `infiltration-used mover` is false",
        ),
        (
            "count",
            format!("{CYPHER_DEF}\nexplosion {{\n  clause \"A capture explodes (a break for the test).\"\n}}\n"),
            "board {\n    white: Kh1 Rg5 Qz5 c4 Sf3\n    black: Kh9 Rd5 h5 Nb6\n  }",
            "piece-count-changes-only-by-capture-coup-infiltration-or-release 2",
            "`removed piece` is 3 (the white pawn on c4, by capture; the black knight on c4, by \
             explosion; the black rook on d5, by explosion)",
        ),
    ];
    for (tag, def, board, expect, found) in cases {
        assert_ne!(def, CYPHER_DEF, "{tag}: the copy is broken");
        let (name, depth) = expect.split_once(' ').expect("name and depth");
        // Under the intact definition the property holds from the same position.
        let scenario = format!(
            "scenario \"{tag}\" {{\n  {board}\n  expect invariant {name} to depth {depth}\n}}"
        );
        let (intact, code) = under(&format!("{tag}-intact"), CYPHER_DEF, &scenario);
        assert_eq!(code, 0, "{tag} under cypher.def:\n{intact}");
        let (out, code) = under(tag, &def, &scenario);
        assert_ne!(code, 0, "{tag} breaks:\n{out}");
        assert!(out.contains(found), "{tag}: {found}\n{out}");
    }
}
