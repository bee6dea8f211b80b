//! Every broken input in `tests/broken/` gives readable problems: one snapshot per input in
//! `snapshots/`, each problem rendered as the command line shows it.

use arbiter::scenario::diagnostic::render;
use arbiter::scenario::parse::parse_file;

#[test]
fn broken_inputs() {
    insta::glob!("../broken", "*.scn", |path| {
        let src = std::fs::read_to_string(path).expect("broken inputs are UTF-8");
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let problems = match parse_file(&src) {
            Ok(_) => panic!("{name} parsed without problems"),
            Err(problems) => problems,
        };
        assert!(!problems.is_empty(), "{name}: an error without problems");
        let rendered: Vec<String> = problems.iter().map(|p| render(p, &name, &src)).collect();
        let report = rendered.join("\n");
        assert!(
            !report.contains('\u{1b}'),
            "{name}: ANSI escape codes in the report"
        );
        insta::with_settings!({
            snapshot_path => "../../snapshots",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(report);
        });
    });
}
