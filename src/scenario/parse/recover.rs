//! Error recovery: after a syntax error the parser resumes at the next line that starts with
//! `scenario`, so several broken scenarios give several problems, in time linear in the file.

use pest::error::{Error as PestError, InputLocation};
use pest::Parser;

use super::build::Builder;
use super::grammar::{Rule, ScenarioParser};
use super::messages::syntax_problem;
use crate::scenario::ast::File;
use crate::scenario::diagnostic::Problem;

/// The UTF-8 byte-order mark, which a file may start with.
const BOM: char = '\u{FEFF}';

/// Collects the first syntax error, the semantic problems of the header, then the problems of
/// the rest of the file, resuming at each next `scenario` line after an error.
pub(crate) fn recover(src: &str, first: &PestError<Rule>) -> (Option<File>, Vec<Problem>) {
    let mut problems = vec![syntax_problem(first, src, 0)];
    let mut file: Option<File> = None;
    let error_at = error_pos(first);
    // The `scenario` lines are found once: resuming after each error then costs a binary
    // search, not a scan from the start of the file.
    let lines: Vec<usize> = scenario_lines(src).collect();
    // The scenarios before the broken one parse on their own: check them too. Failing that,
    // the header alone may parse when the error lies beyond it.
    let before = last_scenario_line(&lines, error_at);
    let prefix = before.and_then(|end| ScenarioParser::parse(Rule::file, &src[..end]).ok());
    if let Some(pair) = prefix.and_then(|mut pairs| pairs.next()) {
        let mut builder = Builder::new(0);
        match builder.file(pair) {
            Ok(f) => file = Some(f),
            Err(p) => builder.problems.push(p),
        }
        problems.extend(builder.problems);
    } else if let Ok(mut pairs) = ScenarioParser::parse(Rule::header, src) {
        if let Some(pair) = pairs.next() {
            if pair.as_span().end() <= error_at {
                let mut builder = Builder::new(0);
                match builder.header(pair) {
                    Ok(f) => file = Some(f),
                    Err(p) => builder.problems.push(p),
                }
                problems.extend(builder.problems);
            }
        }
    }
    // Each scenario after the error is parsed on its own, from its `scenario` line to the
    // next: pest's work on a broken input grows with the length of the input, so parsing
    // the whole rest of the file after each error would be quadratic. A scenario cannot run
    // across a line that starts with `scenario` (nothing in a scenario can start with that
    // word), so the pieces give the same problems as the whole.
    let first = lines.partition_point(|&k| k < error_at || k == 0);
    for (i, &start) in lines.iter().enumerate().skip(first) {
        let end = lines.get(i + 1).copied().unwrap_or(src.len());
        match ScenarioParser::parse(Rule::scenario_tail, &src[start..end]) {
            Ok(mut pairs) => {
                let mut builder = Builder::new(start);
                if let Some(pair) = pairs.next() {
                    match builder.scenario_tail(pair) {
                        Ok(scenarios) => {
                            if let Some(f) = file.as_mut() {
                                f.scenarios.extend(scenarios);
                            }
                        }
                        Err(p) => builder.problems.push(p),
                    }
                }
                problems.extend(builder.problems);
            }
            Err(error) => problems.push(syntax_problem(&error, src, start)),
        }
    }
    (file, problems)
}

/// A file as an editor needs it while it is being typed: the header and the scenario around
/// one place, with every line that does not parse blanked out.
#[derive(Debug)]
pub struct Outline {
    /// The header and that scenario (none when the place is in the header).
    pub file: File,
    /// The lines blanked out, in the text's offsets.
    pub blanked: Vec<std::ops::Range<usize>>,
}

/// At most this many lines are blanked out for one outline: each costs a parse of the header
/// and one scenario, never of the whole file.
const MAX_REPAIRS: usize = 16;

/// The header and the scenario around `offset`, as far as their statements parse: each line
/// a syntax error stands on is blanked out (its offsets kept) and the rest parsed again, and a
/// scenario not closed yet is closed. The other scenarios are blanked out too, so the work is
/// that of the header and one scenario, at most [`MAX_REPAIRS`] times. `None` when nothing
/// around `offset` parses.
pub fn outline(src: &str, offset: usize) -> Option<Outline> {
    let lines: Vec<usize> = scenario_lines(src).collect();
    let header_end = lines.first().copied().unwrap_or(src.len());
    let (start, end) = if lines.is_empty() || offset < header_end {
        (src.len(), src.len())
    } else {
        let i = lines.partition_point(|&k| k <= offset).saturating_sub(1);
        (lines[i], lines.get(i + 1).copied().unwrap_or(src.len()))
    };
    let mut text = String::with_capacity(end + 32);
    text.push_str(&src[..header_end.min(start)]);
    // Blanked with spaces byte for byte: the offsets stay those of `src`, and the text UTF-8.
    text.extend(
        src.as_bytes()[header_end.min(start)..start]
            .iter()
            .map(|&b| if b == b'\n' { '\n' } else { ' ' }),
    );
    text.push_str(&src[start..end]);
    let base = text.len();
    if start == end {
        // A header parses as a file only with a scenario after it.
        text.push_str("\nscenario \"\" {}\n");
    }
    let mut closed = start == end;
    let mut blanked = Vec::new();
    for _ in 0..=MAX_REPAIRS {
        let at = match ScenarioParser::parse(Rule::file, &text) {
            Ok(mut pairs) => {
                let mut builder = Builder::new(0);
                match builder.file(pairs.next()?) {
                    Ok(mut file) => {
                        file.scenarios.retain(|s| s.span.start < base);
                        return Some(Outline { file, blanked });
                    }
                    Err(p) => p.span.start,
                }
            }
            Err(error) => error_pos(&error),
        };
        if at >= base && !closed {
            text.push_str("\n}\n");
            closed = true;
            continue;
        }
        // The line the error stands on, or the last one with something on it before it when
        // the error is only noticed further on (at a `}` or the end).
        let bytes = &text.as_bytes()[..base];
        let line_of = |at: usize| {
            let from = bytes[..at.min(base)]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let to = bytes[from..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(base, |i| from + i);
            from..to
        };
        // A scenario's error never blanks the header: the walk back stops at its start.
        let floor = if at >= start { start } else { 0 };
        let mut line = line_of(at);
        loop {
            let t = text[line.clone()].trim();
            if !(t.is_empty() || t == "}") {
                break;
            }
            if line.start <= floor {
                return None;
            }
            line = line_of(line.start - 1);
        }
        // Spaces byte for byte, as above.
        let spaces = " ".repeat(line.len());
        text.replace_range(line.clone(), &spaces);
        blanked.push(line);
    }
    None
}

/// How many scenarios a text holds, counted by the lines that start with `scenario`: also
/// for a text that does not parse.
pub fn count_scenarios(src: &str) -> usize {
    scenario_lines(src).count()
}

/// The byte offsets of the `scenario` keywords that start a line, in order.
pub(crate) fn scenario_lines(src: &str) -> impl Iterator<Item = usize> + '_ {
    src.split_inclusive('\n')
        .scan(0, |line_start, line| {
            let start = *line_start;
            *line_start += line.len();
            Some((start, line))
        })
        .filter_map(|(start, line)| {
            let indent = line.len() - line.trim_start_matches([' ', '\t', '\r', BOM]).len();
            let rest = &line[indent..];
            let is_scenario = rest.starts_with("scenario")
                && !rest["scenario".len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            is_scenario.then_some(start + indent)
        })
}

/// Where each scenario starts: the `scenario` keywords that start a line, in order.
pub fn scenario_starts(src: &str) -> impl Iterator<Item = usize> + '_ {
    scenario_lines(src)
}

/// The start of the last `scenario` line before `error_at`: where the broken scenario starts.
fn last_scenario_line(lines: &[usize], error_at: usize) -> Option<usize> {
    let i = lines.partition_point(|&k| k < error_at);
    i.checked_sub(1).map(|i| lines[i])
}

pub(crate) fn error_pos(error: &PestError<Rule>) -> usize {
    match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
}
#[cfg(test)]
mod tests {
    use crate::scenario::parse::parse_file;
    use crate::scenario::parse::test_util::*;

    #[test]
    fn recovery_reports_one_problem_per_broken_scenario() {
        let src = "variant chess\nscenario \"a\" {\n  strat\n}\nscenario \"b\" { start }\nscenario \"c\" {\n  expect e9 = wite king\n}\nscenario \"d\" {\n  start\n";
        let p = problems(src);
        assert_eq!(p.len(), 3, "{p:#?}");
        assert!(p[0].span.start < p[1].span.start && p[1].span.start < p[2].span.start);
        assert!(
            p[2].message.contains("found the end of the file"),
            "{}",
            p[2].message
        );
    }

    #[test]
    fn semantic_problems() {
        let p = problems("variant xpanse 17x0\nscenario \"a\" { start }");
        assert_eq!(p.len(), 2, "{p:#?}");
        assert!(p[0].message.contains("out of range"));
        let p =
            problems("variant chess\nscenario \"a\" { expect perft 1 = 99999999999999999999999 }");
        assert!(p[0].message.contains("too large"));
        let p = problems("variant chess\nscenario \"a\" { expect perft 4294967296 = 1 }");
        assert!(p[0].message.contains("too large"));
        assert!(
            parse_file("variant chess\nscenario \"a\" { expect result draw by boredom }").is_ok()
        );
        // Header problems are reported along with syntax errors further down.
        let p = problems("variant xpanse 99x5\nscenario \"a\" { strat }");
        assert_eq!(p.len(), 2, "{p:#?}");
        // And so are problems of scenarios before and after a broken one.
        let src = "variant xpanse 99x5\nscenario \"a\" { expect perft 1 = 99999999999999999999999 }\nscenario \"b\" { strat }\nscenario \"c\" { expect perft 9999999999 = 1 }\n";
        let p = problems(src);
        assert_eq!(p.len(), 4, "{p:#?}");
        assert!(p.windows(2).all(|w| w[0].span.start <= w[1].span.start));
    }

    #[test]
    fn recovery_is_linear_in_the_file() {
        // Thousands of broken scenarios: each resumes with a binary search, not a rescan.
        const N: usize = 20_000;
        let mut src = String::from("variant chess\n");
        for i in 0..N {
            src.push_str(&format!("scenario \"s{i}\" {{\n  strat\n}}\n"));
        }
        let p = problems(&src);
        assert_eq!(p.len(), N);
    }

    /// The statements that parse around a place, while another line of its scenario is
    /// broken: the broken line is blanked out, the offsets stay, the other scenarios are not
    /// parsed at all.
    #[test]
    fn an_outline_keeps_what_parses() {
        use crate::scenario::ast::StatementKind;
        use crate::scenario::parse::outline;
        let src = "variant chess\n\nscenario \"a\" {\n  expect legl O-O\n}\nscenario \"castling\" {\n  rule castling\n  expect legl O-O\n  start\n}\n";
        let at = src.find("castling\n").unwrap();
        let o = outline(src, at).unwrap();
        assert_eq!(o.file.scenarios.len(), 1);
        let s = &o.file.scenarios[0];
        assert_eq!(s.title.node, "castling");
        assert!(
            matches!(&s.statements[0].kind, StatementKind::Rule(ids) if ids[0].node == "castling" && ids[0].span.start == at)
        );
        assert!(matches!(s.statements[1].kind, StatementKind::Start));
        assert_eq!(o.blanked.len(), 1);
        assert_eq!(&src[o.blanked[0].clone()], "  expect legl O-O");
        assert!(o.blanked[0].start > src.find("scenario \"castling").unwrap());
        // A scenario not closed yet, and a place in the header of a file whose header alone
        // stands.
        let open = "variant chess\nscenario \"a\" {\n  rule castling\n  expect legl\n";
        let o = outline(open, open.find("castling").unwrap()).unwrap();
        assert_eq!(o.file.scenarios[0].statements.len(), 1);
        let o = outline(open, 3).unwrap();
        assert!(o.file.scenarios.is_empty());
        assert_eq!(o.file.variant.node, "chess");
        // Nothing to keep: no answer, and never a loop.
        assert!(outline("scenario {{{{", 3).is_none());
        // A place at the very end of a file without scenarios is in its header.
        assert!(outline("\u{1d11e}\u{e9}", 6).is_none());
        assert!(outline("variant chess\n", 14).is_some());
        let many: String = (0..100).map(|i| format!("  expect legl {i}\n")).collect();
        let broken = format!("variant chess\nscenario \"a\" {{\n{many}  rule castling\n}}\n");
        let _ = outline(&broken, broken.find("castling").unwrap());
    }
}
