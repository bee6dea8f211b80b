//! The binding of `grammar/scenario.pest` and the builder of the typed syntax tree
//! ([`super::ast`]).
//!
//! The builder has one function per grammar rule. Every node keeps its byte span in the whole
//! file, also when a part of the file was parsed on its own during error recovery.
//!
//! Syntax errors become [`Problem`]s that say in words what was expected. After a syntax error
//! the parser resumes at the next line that starts with `scenario`, so several broken
//! scenarios give several problems. Checks that need no variant (board sizes, numbers that do
//! not fit) are made here too. Nothing here panics, whatever the input.

use pest::error::{Error as PestError, ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use super::ast::{
    ActionSyntax, Assertion, ExpectedResult, File, KeyValue, OptionSetting, OriginSyntax,
    PieceName, Placement, Scenario, Span, Spanned, SquareName, Statement, StatementKind,
    TurnSyntax, TurnText, Value,
};
use super::diagnostic::Problem;
use crate::rules::{CastleSide, Claim, Color, Role, Style};
use crate::suggest::did_you_mean;

/// The pest parser generated from `grammar/scenario.pest`.
#[derive(Parser)]
#[grammar = "../grammar/scenario.pest"]
pub struct ScenarioParser;

/// The UTF-8 byte-order mark, which a file may start with.
const BOM: char = '\u{FEFF}';

/// The largest board side `<files>x<ranks>` may name.
pub const MAX_BOARD_SIDE: u64 = 16;

/// Parses a whole scenario file. On failure, every problem found: each syntax error (the
/// parser resumes at the next `scenario` line after one) and each semantic problem that needs
/// no variant.
pub fn parse_file(src: &str) -> Result<File, Vec<Problem>> {
    match ScenarioParser::parse(Rule::file, src) {
        Ok(mut pairs) => {
            let mut builder = Builder::new(0);
            let built = match pairs.next() {
                Some(pair) => builder.file(pair),
                None => Err(Problem::new("internal error: empty parse", 0..0, "here")),
            };
            match built {
                Ok(file) if builder.problems.is_empty() => Ok(file),
                Ok(_) => Err(builder.problems),
                Err(p) => {
                    builder.problems.push(p);
                    Err(sorted(builder.problems))
                }
            }
        }
        Err(error) => Err(sorted(recover(src, &error))),
    }
}

/// Parses one turn, as written on the command line or in a scenario (`Nbd7`, `O-O`,
/// `Sd0-d4; Qd2-z4`, `resign`). Whitespace around it is allowed.
pub fn parse_turn(text: &str) -> Result<TurnText, Problem> {
    let pair = match ScenarioParser::parse(Rule::turn_only, text) {
        Ok(mut pairs) => pairs.next(),
        Err(error) => return Err(syntax_problem(&error, text, 0)),
    };
    let mut builder = Builder::new(0);
    let turn = pair
        .and_then(|p| p.into_inner().find(|p| p.as_rule() == Rule::turn))
        .ok_or_else(|| Problem::new("internal error: no turn in the parse", 0..0, "here"))
        .and_then(|p| builder.turn(p))?;
    match builder.problems.into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(turn),
    }
}

fn sorted(mut problems: Vec<Problem>) -> Vec<Problem> {
    problems.sort_by_key(|p| p.span.start);
    problems
}

// ----------------------------------------------------------------------------------------------
// Error recovery
// ----------------------------------------------------------------------------------------------

/// Collects the first syntax error, the semantic problems of the header, then the problems of
/// the rest of the file, resuming at each next `scenario` line after an error.
fn recover(src: &str, first: &PestError<Rule>) -> Vec<Problem> {
    let mut problems = vec![syntax_problem(first, src, 0)];
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
        if let Err(p) = builder.file(pair) {
            builder.problems.push(p);
        }
        problems.extend(builder.problems);
    } else if let Ok(mut pairs) = ScenarioParser::parse(Rule::header, src) {
        if let Some(pair) = pairs.next() {
            if pair.as_span().end() <= error_at {
                let mut builder = Builder::new(0);
                if let Err(p) = builder.header(pair) {
                    builder.problems.push(p);
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
                    if let Err(p) = builder.scenario_tail(pair) {
                        builder.problems.push(p);
                    }
                }
                problems.extend(builder.problems);
            }
            Err(error) => problems.push(syntax_problem(&error, src, start)),
        }
    }
    problems
}

/// The byte offsets of the `scenario` keywords that start a line, in order.
fn scenario_lines(src: &str) -> impl Iterator<Item = usize> + '_ {
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

/// The start of the last `scenario` line before `error_at`: where the broken scenario starts.
fn last_scenario_line(lines: &[usize], error_at: usize) -> Option<usize> {
    let i = lines.partition_point(|&k| k < error_at);
    i.checked_sub(1).map(|i| lines[i])
}

fn error_pos(error: &PestError<Rule>) -> usize {
    match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
}

// ----------------------------------------------------------------------------------------------
// Syntax errors in words
// ----------------------------------------------------------------------------------------------

/// Turns a pest error on `src[offset..]` into a problem with a span in `src`.
fn syntax_problem(error: &PestError<Rule>, src: &str, offset: usize) -> Problem {
    let pos = (offset + error_pos(error)).min(src.len());
    let mut here = pos..next_char_end(src, pos);
    let at_end = pos == src.len();
    if at_end {
        // Nothing to underline at the end of the file: point at the whitespace just after the
        // last token, or at its last character when the file ends right there.
        let end = src.trim_end().len();
        here = end..next_char_end(src, end);
        if here.is_empty() {
            let last = src[..end].chars().next_back().map_or(0, char::len_utf8);
            here = end - last..end;
        }
    }
    let found = found_at(src, pos);
    match &error.variant {
        ErrorVariant::CustomError { message } => Problem::new(message.clone(), here, "here"),
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            if positives.contains(&Rule::string) && src[pos..].starts_with('"') {
                if let Some(problem) = string_problem(src, pos) {
                    return problem;
                }
            }
            let expected = describe_all(positives);
            if expected.is_empty() {
                let unexpected = describe_all(negatives);
                let message = if unexpected.is_empty() {
                    format!("unexpected {found}")
                } else {
                    format!("unexpected {unexpected}")
                };
                return Problem::new(message, here, "not expected here");
            }
            if let Some(problem) = misread_key(positives, src, pos, &found) {
                return problem;
            }
            let label = if at_end {
                "the file ends here".to_string()
            } else {
                short_expected(positives)
            };
            let word = word_at(src, pos);
            let hint = word_hint(positives, word);
            if !hint.is_empty() {
                // The whole word is what was misspelt.
                here = pos..pos + word.len();
            }
            let problem = Problem::new(
                format!("expected {expected}, found {found}{hint}"),
                here,
                label,
            );
            if let Some(key) = expected_key(positives, src, pos) {
                return problem.with_help(format!(
                    "`{}` is not an assertion word, so it is read as a state key: `<key> [<colour>] = <value>`",
                    &src[key]
                ));
            }
            match help_for(positives) {
                Some(help) => problem.with_help(help),
                None => problem,
            }
        }
    }
}

/// Words that start a statement.
const STATEMENT_WORDS: [&str; 10] = [
    "rule", "option", "start", "board", "fen", "white", "black", "set", "play", "expect",
];

/// Words that start a specific assertion.
const ASSERTION_WORDS: [&str; 11] = [
    "legal",
    "illegal",
    "moves",
    "check",
    "no",
    "result",
    "zone",
    "perft",
    "win",
    "cost",
    "invariant",
];

const ASSERTION_HELP: &str = "assertions: legal <turn>, illegal <turn> [because <rule-id>], moves = { ... }, moves from <square> = { ... }, moves [from <square>] count <n>, check, no check, result <outcome> [by <reason>], <square> = <colour> <piece> | empty, zone <square> = <zone>, perft <depth> = <n>, win in <n> for <colour>, cost <design> = <n>, invariant <name> to depth <n>, <key> [<colour>] = <value>";

/// The word (letters, digits, `-`, `_`) that starts at `pos`, maybe empty.
fn word_at(src: &str, pos: usize) -> &str {
    let rest = &src[pos.min(src.len())..];
    let len = rest.find(|c: char| !is_word_char(c)).unwrap_or(rest.len());
    &rest[..len]
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

/// The word that ends before `pos`, skipping whitespace and comments: its byte range.
fn word_before(src: &str, pos: usize) -> Option<std::ops::Range<usize>> {
    let mut end = pos.min(src.len());
    loop {
        end = src[..end].trim_end().len();
        let line_start = src[..end].rfind('\n').map_or(0, |i| i + 1);
        // A `#` at the start of the line or after a space starts a comment (a glued one is a
        // mate claim).
        let line = &src[line_start..end];
        let comment = line.char_indices().find(|&(i, c)| {
            c == '#'
                && line[..i]
                    .chars()
                    .next_back()
                    .is_none_or(char::is_whitespace)
        });
        match comment {
            Some((i, _)) => end = line_start + i,
            None => break,
        }
    }
    let start = src[..end].trim_end_matches(is_word_char).len();
    (start < end).then_some(start..end)
}

/// The words a person may have meant where `rules` were expected.
fn expected_words(rules: &[Rule]) -> Vec<&'static str> {
    let mut words: Vec<&'static str> = Vec::new();
    for rule in rules {
        match rule {
            Rule::statement => words.extend(STATEMENT_WORDS),
            Rule::assertion => words.extend(ASSERTION_WORDS),
            Rule::file | Rule::header | Rule::variant_line | Rule::kw_variant => {
                words.push("variant")
            }
            Rule::scenario_tail | Rule::scenario | Rule::kw_scenario => words.push("scenario"),
            Rule::option_setting | Rule::kw_option => words.push("option"),
            Rule::color => words.extend(["white", "black"]),
            Rule::outcome => words.extend(["white", "black", "draw", "none"]),
            Rule::occupant => words.extend(["white", "black"]),
            Rule::turn | Rule::turn_only => words.extend(["resign", "draw", "pass"]),
            Rule::role_word | Rule::piece_name => words.extend([
                "king",
                "queen",
                "rook",
                "bishop",
                "knight",
                "pawn",
                "spy",
                "gatekeeper",
                "mage",
                "archer",
            ]),
            other => {
                if let Some(k) = keyword(*other) {
                    words.push(k.trim_matches('`'));
                }
            }
        }
    }
    words
}

/// `; did you mean ...?` when the word found is close to a word that was expected, or names
/// the statement an assertion word needs; empty otherwise.
fn word_hint(rules: &[Rule], found: &str) -> String {
    if found.is_empty() {
        return String::new();
    }
    if rules.contains(&Rule::statement)
        && ASSERTION_WORDS.contains(&found)
        && !STATEMENT_WORDS.contains(&found)
    {
        return format!("; did you mean `expect {found}`?");
    }
    did_you_mean(found, expected_words(rules))
}

/// The state key of an `expect` whose `=` is missing: the error is where `=` (or a colour)
/// should follow the key.
fn expected_key(rules: &[Rule], src: &str, pos: usize) -> Option<std::ops::Range<usize>> {
    let key_continuation = rules
        .iter()
        .all(|r| matches!(r, Rule::color | Rule::eq | Rule::kw_white | Rule::kw_black));
    if !key_continuation {
        return None;
    }
    let mut key = word_before(src, pos)?;
    if matches!(&src[key.clone()], "white" | "black") {
        key = word_before(src, key.start)?;
    }
    let statement = word_before(src, key.start)?;
    (&src[statement] == "expect").then_some(key)
}

/// `expect legl e4`: `legl` is no assertion word, so it was read as a state key, and the error
/// is where `=` should follow. When the key is close to an assertion word, that word is what
/// was meant: say so at the key instead.
fn misread_key(rules: &[Rule], src: &str, pos: usize, found: &str) -> Option<Problem> {
    let key = expected_key(rules, src, pos)?;
    let word = &src[key.clone()];
    let hint = did_you_mean(word, ASSERTION_WORDS);
    if hint.is_empty() {
        return None;
    }
    Some(
        Problem::new(
            format!(
                "`{word}` is not an assertion, nor a state key (a state key is followed by `=`, not by {found}){hint}"
            ),
            key,
            "not an assertion",
        )
        .with_help(ASSERTION_HELP),
    )
}

/// A closer look at a string that failed to parse: an unknown escape or a missing `"`.
fn string_problem(src: &str, open: usize) -> Option<Problem> {
    let line_end = src[open..].find('\n').map_or(src.len(), |i| open + i);
    let mut chars = src[open + 1..line_end].char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return None,
            '\\' => match chars.next() {
                Some((_, '"' | '\\')) => {}
                Some((j, e)) => {
                    let at = open + 1 + i;
                    let end = open + 1 + j + e.len_utf8();
                    return Some(
                        Problem::new(
                            format!("unknown escape `\\{e}` in a string"),
                            at..end,
                            "unknown escape",
                        )
                        .with_help("a string knows two escapes: `\\\"` and `\\\\`"),
                    );
                }
                None => break,
            },
            _ => {}
        }
    }
    Some(
        Problem::new(
            "unterminated string: expected a closing `\"` on the same line",
            open..open + 1,
            "this string is not closed",
        )
        .with_help("strings are double-quoted and end on the line they start on"),
    )
}

/// The readable name of what a rule would have matched, or `None` to leave it unsaid.
fn describe(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::file | Rule::header | Rule::variant_line | Rule::kw_variant => {
            "a `variant` line such as `variant chess`"
        }
        Rule::scenario_tail | Rule::scenario | Rule::kw_scenario => {
            "a scenario (`scenario \"<title>\" { ... }`)"
        }
        Rule::option_setting | Rule::kw_option => "an `option <name> = <value>` line",
        Rule::board_size | Rule::digits => "a board size such as `5x6`",
        Rule::option_value => "an option value (a word or a quoted string)",
        Rule::statement => {
            "a statement (rule, option, start, board, fen, white/black to move, set, play, expect)"
        }
        Rule::board_side => "`white:` or `black:`",
        Rule::placement => "a placement such as `Ke2`, `a3` or `(WD)e4`",
        Rule::key_value | Rule::key | Rule::key_assert => "a state key such as `treasury`",
        Rule::value => {
            "a value (a word such as `3` or `yes`, a quoted string, or designs such as `(WD) (WD)`)"
        }
        Rule::designs => "designs such as `(WD) (WD)`",
        Rule::assertion => {
            "an assertion (legal, illegal, moves, check, no check, result, <square> =, zone, \
             perft, win in, cost, invariant, or a state key)"
        }
        Rule::outcome => "`white wins`, `black wins`, `draw` or `none`",
        Rule::reason => "a reason such as `checkmate`",
        Rule::occupant => "a colour and a piece, such as `white king`",
        Rule::turn | Rule::turn_only | Rule::action => {
            "a turn such as `e2-e4`, `Nf3`, `O-O`, `P@c5` or `pass`"
        }
        Rule::move_number => return None,
        Rule::castle => "`O-O` or `O-O-O`",
        Rule::step => "a step (`-` or `x`)",
        Rule::capture => "`x`",
        Rule::promotion => "a promotion such as `=Q`",
        Rule::claim => "a claim (`+` or `#`)",
        Rule::piece | Rule::piece_letter | Rule::piece_name | Rule::role_letter => {
            "a piece (a letter such as `K`, a word such as `king`, or a design such as `(WD)`)"
        }
        Rule::role_word => "a piece word such as `king`",
        Rule::design => "a design in parentheses such as `(WD)`",
        Rule::design_name => "a design such as `WD`",
        Rule::square | Rule::lone_square | Rule::origin_square => "a square such as `e4`",
        Rule::color => "`white` or `black`",
        Rule::name => "a kebab-case name such as `field-sanctuary`",
        Rule::rule_id => "a rule id such as `field-sanctuary`",
        Rule::word => "a word such as `yes` or `3`",
        Rule::string | Rule::string_inner => "a string in double quotes",
        Rule::number => "a number",
        Rule::eq => "`=`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::colon => "`:`",
        Rule::EOI => "the end of the file",
        _ => return keyword(rule),
    })
}

/// Keywords read as themselves.
fn keyword(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::kw_rule => "`rule`",
        Rule::kw_start => "`start`",
        Rule::kw_board => "`board`",
        Rule::kw_fen => "`fen`",
        Rule::kw_to => "`to`",
        Rule::kw_move => "`move`",
        Rule::kw_set => "`set`",
        Rule::kw_play => "`play`",
        Rule::kw_expect => "`expect`",
        Rule::kw_white => "`white`",
        Rule::kw_black => "`black`",
        Rule::kw_legal => "`legal`",
        Rule::kw_illegal => "`illegal`",
        Rule::kw_because => "`because`",
        Rule::kw_moves => "`moves`",
        Rule::kw_from => "`from`",
        Rule::kw_count => "`count`",
        Rule::kw_check => "`check`",
        Rule::kw_no => "`no`",
        Rule::kw_result => "`result`",
        Rule::kw_wins => "`wins`",
        Rule::kw_draw => "`draw`",
        Rule::kw_none => "`none`",
        Rule::kw_by => "`by`",
        Rule::kw_zone => "`zone`",
        Rule::kw_perft => "`perft`",
        Rule::kw_win => "`win`",
        Rule::kw_in => "`in`",
        Rule::kw_for => "`for`",
        Rule::kw_cost => "`cost`",
        Rule::kw_invariant => "`invariant`",
        Rule::kw_depth => "`depth`",
        Rule::kw_empty => "`empty`",
        Rule::kw_resign => "`resign`",
        Rule::kw_coup => "`coup`",
        Rule::kw_reborn => "`reborn`",
        Rule::kw_buy => "`buy`",
        Rule::pass => "`pass`",
        _ => return None,
    })
}

/// Rules that only continue a token glued to what precedes them (`x`, `=Q`, `+`): when a
/// whole new token was also possible there, they are left unsaid.
fn is_glued(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::capture | Rule::promotion | Rule::claim | Rule::step | Rule::origin_square
    )
}

/// Rules that start a whole new token: statements, turns, braces.
fn is_whole(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::statement
            | Rule::rbrace
            | Rule::turn
            | Rule::action
            | Rule::assertion
            | Rule::scenario
            | Rule::EOI
            | Rule::option_setting
            | Rule::placement
            | Rule::board_side
    )
}

/// The readable names of what was expected, without repeats.
fn expected_names(rules: &[Rule]) -> Vec<&'static str> {
    let drop_glued = rules.iter().any(|r| is_whole(*r));
    // `x` is only ever a prefix of what comes next: when a square or a step is also expected,
    // naming those is enough.
    let drop_capture = rules.iter().any(|r| matches!(r, Rule::step | Rule::square));
    let mut names: Vec<&str> = Vec::new();
    for rule in rules {
        if (drop_glued && is_glued(*rule)) || (drop_capture && *rule == Rule::capture) {
            continue;
        }
        if let Some(name) = describe(*rule) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The readable list of what was expected: `a, b or c`.
fn describe_all(rules: &[Rule]) -> String {
    let names = expected_names(rules);
    match names.len() {
        0 => String::new(),
        1 => names[0].to_string(),
        n => format!("{} or {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// A short label for the caret.
fn short_expected(rules: &[Rule]) -> String {
    let names = expected_names(rules);
    if rules.contains(&Rule::statement) {
        "expected a statement or `}` here".to_string()
    } else if rules.contains(&Rule::assertion) {
        "expected an assertion here".to_string()
    } else if rules.iter().any(|r| matches!(r, Rule::turn | Rule::action)) {
        "expected a turn here".to_string()
    } else if names.len() == 1 {
        let name = names[0];
        // The part before any explanation in parentheses.
        let short = name.split(" (").next().unwrap_or(name);
        format!("expected {short} here")
    } else {
        "unexpected here".to_string()
    }
}

fn help_for(rules: &[Rule]) -> Option<&'static str> {
    if rules.contains(&Rule::statement) {
        Some("statements: rule, option, start, board { ... }, fen \"...\", white to move, black to move, set <key> = <value>, play <turn>+, expect <assertion>")
    } else if rules.iter().any(|r| matches!(r, Rule::turn | Rule::action)) {
        Some("turns: coordinate moves (`e2-e4`, `Bc3xe5`), short moves (`Nf3`, `exd5`, `e8=Q`), `O-O`, drops (`P@c5`), `pass`, `resign`, `draw`; actions of one turn are joined by `;`")
    } else if rules.contains(&Rule::variant_line) {
        Some("a scenario file starts with the variant it is about, such as `variant chess`")
    } else {
        None
    }
}

/// What stands at `pos`, for `found ...`.
fn found_at(src: &str, pos: usize) -> String {
    let rest = &src[pos.min(src.len())..];
    match rest.chars().next() {
        None => "the end of the file".to_string(),
        Some('\n') | Some('\r') => "the end of the line".to_string(),
        Some(_) => {
            let token: String = rest
                .chars()
                .take_while(|c| !c.is_whitespace())
                .take(20)
                .collect();
            format!("`{}`", token.replace('`', "'"))
        }
    }
}

/// Text from the input as a message quotes it: a long one is cut, not echoed in full.
fn quoted(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("`{}…`", &text[..i]),
        None => format!("`{text}`"),
    }
}

fn next_char_end(src: &str, pos: usize) -> usize {
    src[pos.min(src.len())..]
        .chars()
        .next()
        .map_or(pos, |c| pos + c.len_utf8())
}

// ----------------------------------------------------------------------------------------------
// The builder: one function per grammar rule
// ----------------------------------------------------------------------------------------------

type Res<T> = Result<T, Problem>;

/// Builds syntax-tree nodes from pest pairs of `src[offset..]`, collecting semantic problems.
struct Builder {
    offset: usize,
    problems: Vec<Problem>,
}

impl Builder {
    fn new(offset: usize) -> Builder {
        Builder {
            offset,
            problems: Vec::new(),
        }
    }

    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        s.start() + self.offset..s.end() + self.offset
    }

    fn spanned_text(&self, pair: &Pair<Rule>) -> Spanned<String> {
        Spanned::new(pair.as_str().to_string(), self.span(pair))
    }

    /// The syntax tree does not have the shape the grammar promises: a bug, reported, not a
    /// panic.
    fn bug(&self, pair: &Pair<Rule>) -> Problem {
        Problem::new(
            format!(
                "internal error: unexpected {:?} in the syntax tree",
                pair.as_rule()
            ),
            self.span(pair),
            "here",
        )
    }

    fn missing(&self, what: &str, pair: &Pair<Rule>) -> Problem {
        Problem::new(
            format!("internal error: no {what} in {:?}", pair.as_rule()),
            self.span(pair),
            "here",
        )
    }

    /// The only meaningful child of a pair.
    fn only<'i>(&self, pair: &Pair<'i, Rule>) -> Res<Pair<'i, Rule>> {
        pair.clone()
            .into_inner()
            .next()
            .ok_or_else(|| self.missing("child", pair))
    }

    // ---- Entry points ----------------------------------------------------------------------

    /// `file = { file_start ~ variant_line ~ option_setting* ~ scenario+ ~ EOI }`
    fn file(&mut self, pair: Pair<Rule>) -> Res<File> {
        let whole = pair.clone();
        let mut variant = None;
        let mut size = None;
        let mut options = Vec::new();
        let mut scenarios = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::variant_line => {
                    let (v, s) = self.variant_line(p)?;
                    variant = Some(v);
                    size = s;
                }
                Rule::option_setting => options.push(self.option_setting(p)?),
                Rule::scenario => scenarios.push(self.scenario(p)?),
                _ => {}
            }
        }
        let variant = variant.ok_or_else(|| self.missing("variant line", &whole))?;
        Ok(File {
            variant,
            size,
            options,
            scenarios,
        })
    }

    /// `header = { file_start ~ variant_line ~ option_setting* }`, only checked during
    /// recovery.
    fn header(&mut self, pair: Pair<Rule>) -> Res<()> {
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::variant_line => {
                    self.variant_line(p)?;
                }
                Rule::option_setting => {
                    self.option_setting(p)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `scenario_tail = { SOI ~ scenario+ ~ EOI }`
    fn scenario_tail(&mut self, pair: Pair<Rule>) -> Res<Vec<Scenario>> {
        pair.into_inner()
            .filter(|p| p.as_rule() == Rule::scenario)
            .map(|p| self.scenario(p))
            .collect()
    }

    // ---- File header -----------------------------------------------------------------------

    /// `variant_line = { kw_variant ~ name ~ board_size? }`
    #[allow(clippy::type_complexity)]
    fn variant_line(
        &mut self,
        pair: Pair<Rule>,
    ) -> Res<(Spanned<String>, Option<Spanned<(u8, u8)>>)> {
        let whole = pair.clone();
        let mut name = None;
        let mut size = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::name => name = Some(self.spanned_text(&p)),
                Rule::board_size => size = self.board_size(p),
                _ => {}
            }
        }
        let name = name.ok_or_else(|| self.missing("variant name", &whole))?;
        Ok((name, size))
    }

    /// `board_size = ${ digits ~ "x" ~ digits ~ !name_char }`; each side in 1..=16.
    fn board_size(&mut self, pair: Pair<Rule>) -> Option<Spanned<(u8, u8)>> {
        let span = self.span(&pair);
        let mut sides = Vec::new();
        for p in pair.into_inner().filter(|p| p.as_rule() == Rule::digits) {
            let value = p
                .as_str()
                .parse::<u64>()
                .ok()
                .filter(|v| (1..=MAX_BOARD_SIDE).contains(v));
            match value {
                Some(v) => sides.push(v as u8),
                None => {
                    self.problems.push(
                        Problem::new(
                            format!(
                                "board side {} out of range: a board has 1 to {MAX_BOARD_SIDE} files and ranks",
                                quoted(p.as_str())
                            ),
                            self.span(&p),
                            "out of range",
                        )
                        .with_help("the size is `<files>x<ranks>`, as in `variant xpanse 5x6`"),
                    );
                }
            }
        }
        match sides[..] {
            [files, ranks] => Some(Spanned::new((files, ranks), span)),
            _ => None,
        }
    }

    /// `option_setting = { kw_option ~ name ~ eq ~ option_value }`
    fn option_setting(&mut self, pair: Pair<Rule>) -> Res<OptionSetting> {
        let span = self.span(&pair);
        let whole = pair.clone();
        let mut name = None;
        let mut value = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::name => name = Some(self.spanned_text(&p)),
                Rule::option_value => value = Some(self.option_value(p)?),
                _ => {}
            }
        }
        Ok(OptionSetting {
            name: name.ok_or_else(|| self.missing("option name", &whole))?,
            value: value.ok_or_else(|| self.missing("option value", &whole))?,
            span,
        })
    }

    /// `option_value = { string | word }`
    fn option_value(&mut self, pair: Pair<Rule>) -> Res<Spanned<String>> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        let text = match p.as_rule() {
            Rule::string => self.string(p)?.node,
            Rule::word => p.as_str().to_string(),
            _ => return Err(self.bug(&p)),
        };
        Ok(Spanned::new(text, span))
    }

    // ---- Scenarios and statements ----------------------------------------------------------

    /// `scenario = { kw_scenario ~ string ~ lbrace ~ statement* ~ rbrace }`
    fn scenario(&mut self, pair: Pair<Rule>) -> Res<Scenario> {
        let span = self.span(&pair);
        let whole = pair.clone();
        let mut title = None;
        let mut statements = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::string => title = Some(self.string(p)?),
                Rule::statement => statements.push(self.statement(p)?),
                _ => {}
            }
        }
        let title = title.ok_or_else(|| self.missing("title", &whole))?;
        Ok(Scenario {
            title,
            statements,
            span,
        })
    }

    /// `statement = { rule_stmt | option_stmt | ... | expect_stmt }`
    fn statement(&mut self, pair: Pair<Rule>) -> Res<Statement> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        let kind = match p.as_rule() {
            Rule::rule_stmt => self.rule_stmt(p),
            Rule::option_stmt => self.option_stmt(p)?,
            Rule::start_stmt => self.start_stmt(p),
            Rule::board_stmt => self.board_stmt(p)?,
            Rule::fen_stmt => self.fen_stmt(p)?,
            Rule::side_to_move_stmt => self.side_to_move_stmt(p)?,
            Rule::set_stmt => self.set_stmt(p)?,
            Rule::play_stmt => self.play_stmt(p)?,
            Rule::expect_stmt => self.expect_stmt(p)?,
            _ => return Err(self.bug(&p)),
        };
        Ok(Statement { kind, span })
    }

    /// `rule_stmt = { kw_rule ~ rule_id+ }`
    fn rule_stmt(&mut self, pair: Pair<Rule>) -> StatementKind {
        StatementKind::Rule(
            pair.into_inner()
                .filter(|p| p.as_rule() == Rule::rule_id)
                .map(|p| self.rule_id(p))
                .collect(),
        )
    }

    /// `rule_id = @{ !(statement_word ~ !name_char) ~ name }`
    fn rule_id(&mut self, pair: Pair<Rule>) -> Spanned<String> {
        self.spanned_text(&pair)
    }

    /// `option_stmt = { option_setting }`
    fn option_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = self.only(&pair)?;
        Ok(StatementKind::Option(self.option_setting(p)?))
    }

    /// `start_stmt = { kw_start }`
    fn start_stmt(&mut self, _pair: Pair<Rule>) -> StatementKind {
        StatementKind::Start
    }

    /// `board_stmt = { kw_board ~ lbrace ~ board_side* ~ rbrace }`
    fn board_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let mut placements = Vec::new();
        for p in pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::board_side)
        {
            placements.extend(self.board_side(p)?);
        }
        Ok(StatementKind::Board(placements))
    }

    /// `board_side = { color ~ colon ~ placement* }`
    fn board_side(&mut self, pair: Pair<Rule>) -> Res<Vec<Placement>> {
        let mut color = None;
        let mut placements = Vec::new();
        for p in pair.clone().into_inner() {
            match p.as_rule() {
                Rule::color => color = Some(self.color(p)?),
                Rule::placement => {
                    let c = color.ok_or_else(|| self.missing("colour", &pair))?;
                    placements.push(self.placement(p, c)?);
                }
                _ => {}
            }
        }
        Ok(placements)
    }

    /// `placement = ${ piece? ~ square ~ !name_char }`
    fn placement(&mut self, pair: Pair<Rule>, color: Color) -> Res<Placement> {
        let span = self.span(&pair);
        let whole = pair.clone();
        let mut piece = None;
        let mut square = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::piece => piece = Some(self.piece(p)?),
                Rule::square => square = Some(self.square(p)),
                _ => {}
            }
        }
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        Ok(Placement {
            color,
            piece,
            square,
            span,
        })
    }

    /// `fen_stmt = { kw_fen ~ string }`
    fn fen_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::string)
            .ok_or_else(|| self.missing("string", &pair))?;
        Ok(StatementKind::Fen(self.string(p)?))
    }

    /// `side_to_move_stmt = { color ~ kw_to ~ kw_move }`
    fn side_to_move_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = self.only(&pair)?;
        Ok(StatementKind::ToMove(self.color(p)?))
    }

    /// `set_stmt = { kw_set ~ key_value }`
    fn set_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::key_value)
            .ok_or_else(|| self.missing("key", &pair))?;
        Ok(StatementKind::Set(self.key_value(p)?))
    }

    /// `play_stmt = { kw_play ~ (move_number | turn)+ }`
    fn play_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let turns = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::turn)
            .map(|p| self.turn(p))
            .collect::<Res<Vec<_>>>()?;
        Ok(StatementKind::Play(turns))
    }

    /// `expect_stmt = { kw_expect ~ assertion }`
    fn expect_stmt(&mut self, pair: Pair<Rule>) -> Res<StatementKind> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::assertion)
            .ok_or_else(|| self.missing("assertion", &pair))?;
        Ok(StatementKind::Expect(self.assertion(p)?))
    }

    /// `key_value = { key ~ color? ~ eq ~ value }`
    fn key_value(&mut self, pair: Pair<Rule>) -> Res<KeyValue> {
        let whole = pair.clone();
        let mut key = None;
        let mut color = None;
        let mut value = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::key => key = Some(self.spanned_text(&p)),
                Rule::color => color = Some(self.color(p)?),
                Rule::value => value = Some(self.value(p)?),
                _ => {}
            }
        }
        Ok(KeyValue {
            key: key.ok_or_else(|| self.missing("key", &whole))?,
            color,
            value: value.ok_or_else(|| self.missing("value", &whole))?,
        })
    }

    /// `value = { designs | string | word }`
    fn value(&mut self, pair: Pair<Rule>) -> Res<Spanned<Value>> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        let value = match p.as_rule() {
            Rule::designs => Value::Designs(self.designs(p)?),
            Rule::string => Value::Text(self.string(p)?.node),
            Rule::word => Value::Word(p.as_str().to_string()),
            _ => return Err(self.bug(&p)),
        };
        Ok(Spanned::new(value, span))
    }

    /// `designs = { design+ }`
    fn designs(&mut self, pair: Pair<Rule>) -> Res<Vec<String>> {
        pair.into_inner()
            .filter(|p| p.as_rule() == Rule::design)
            .map(|p| self.design(p))
            .collect()
    }

    // ---- Assertions ------------------------------------------------------------------------

    /// `assertion = { legal_assert | illegal_assert | ... | key_assert }`
    fn assertion(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::legal_assert => self.legal_assert(p),
            Rule::illegal_assert => self.illegal_assert(p),
            Rule::moves_from_list => self.moves_from_list(p),
            Rule::moves_from_count => self.moves_from_count(p),
            Rule::moves_count => self.moves_count(p),
            Rule::moves_list => self.moves_list(p),
            Rule::check_assert => Ok(self.check_assert(p)),
            Rule::no_check_assert => Ok(self.no_check_assert(p)),
            Rule::result_assert => self.result_assert(p),
            Rule::zone_assert => self.zone_assert(p),
            Rule::perft_assert => self.perft_assert(p),
            Rule::win_assert => self.win_assert(p),
            Rule::cost_assert => self.cost_assert(p),
            Rule::invariant_assert => self.invariant_assert(p),
            Rule::occupant_assert => self.occupant_assert(p),
            Rule::key_assert => self.key_assert(p),
            _ => Err(self.bug(&p)),
        }
    }

    /// `legal_assert = { kw_legal ~ turn }`
    fn legal_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::turn)
            .ok_or_else(|| self.missing("turn", &pair))?;
        Ok(Assertion::Legal(self.turn(p)?))
    }

    /// `illegal_assert = { kw_illegal ~ turn ~ (kw_because ~ rule_id)? }`
    fn illegal_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut turn = None;
        let mut because = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::turn => turn = Some(self.turn(p)?),
                Rule::rule_id => because = Some(self.rule_id(p)),
                _ => {}
            }
        }
        let turn = turn.ok_or_else(|| self.missing("turn", &whole))?;
        Ok(Assertion::Illegal(turn, because))
    }

    /// `moves_list = { kw_moves ~ eq ~ lbrace ~ (move_number | turn)* ~ rbrace }`
    fn moves_list(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let turns = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::turn)
            .map(|p| self.turn(p))
            .collect::<Res<Vec<_>>>()?;
        Ok(Assertion::Moves(turns))
    }

    /// `moves_from_list = { kw_moves ~ kw_from ~ lone_square ~ eq ~ lbrace ~ lone_square* ~
    /// rbrace }`
    fn moves_from_list(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut squares = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::lone_square)
            .map(|p| self.lone_square(p))
            .collect::<Res<Vec<_>>>()?;
        if squares.is_empty() {
            return Err(self.missing("square", &whole));
        }
        let from = squares.remove(0);
        Ok(Assertion::MovesFrom(from, squares))
    }

    /// `moves_from_count = { kw_moves ~ kw_from ~ lone_square ~ kw_count ~ number }`
    fn moves_from_count(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut square = None;
        let mut n = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::lone_square => square = Some(self.lone_square(p)?),
                Rule::number => n = Some(self.number(p)),
                _ => {}
            }
        }
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        let n = n.ok_or_else(|| self.missing("number", &whole))?;
        Ok(Assertion::MovesFromCount(square, n))
    }

    /// `moves_count = { kw_moves ~ kw_count ~ number }`
    fn moves_count(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::number)
            .ok_or_else(|| self.missing("number", &pair))?;
        Ok(Assertion::MovesCount(self.number(p)))
    }

    /// `check_assert = { kw_check }`
    fn check_assert(&mut self, _pair: Pair<Rule>) -> Assertion {
        Assertion::Check(true)
    }

    /// `no_check_assert = { kw_no ~ kw_check }`
    fn no_check_assert(&mut self, _pair: Pair<Rule>) -> Assertion {
        Assertion::Check(false)
    }

    /// `result_assert = { kw_result ~ outcome ~ (kw_by ~ reason)? }`
    fn result_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut outcome = None;
        let mut reason = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::outcome => outcome = Some(self.outcome(p)?),
                Rule::reason => reason = Some(self.reason(p)),
                _ => {}
            }
        }
        let outcome = outcome.ok_or_else(|| self.missing("outcome", &whole))?;
        Ok(Assertion::Result(outcome, reason))
    }

    /// `outcome = { color ~ kw_wins | kw_draw | kw_none }`
    fn outcome(&mut self, pair: Pair<Rule>) -> Res<ExpectedResult> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::color => Ok(ExpectedResult::Wins(self.color(p)?)),
            Rule::kw_draw => Ok(ExpectedResult::Draw),
            Rule::kw_none => Ok(ExpectedResult::None),
            _ => Err(self.bug(&p)),
        }
    }

    /// `reason = @{ name }`.
    fn reason(&mut self, pair: Pair<Rule>) -> Spanned<String> {
        // Checked against the reasons in evaluation, with the other names a file uses.
        self.spanned_text(&pair)
    }

    /// `zone_assert = { kw_zone ~ lone_square ~ eq ~ name }`
    fn zone_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut square = None;
        let mut zone = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::lone_square => square = Some(self.lone_square(p)?),
                Rule::name => zone = Some(self.spanned_text(&p)),
                _ => {}
            }
        }
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        let zone = zone.ok_or_else(|| self.missing("zone", &whole))?;
        Ok(Assertion::Zone(square, zone))
    }

    /// `perft_assert = { kw_perft ~ number ~ eq ~ number }`
    fn perft_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let numbers: Vec<Pair<Rule>> = pair
            .into_inner()
            .filter(|p| p.as_rule() == Rule::number)
            .collect();
        match &numbers[..] {
            [depth, n] => {
                let depth = self.number_u32(depth.clone());
                let n = self.number(n.clone());
                Ok(Assertion::Perft(depth, n))
            }
            _ => Err(self.missing("numbers", &whole)),
        }
    }

    /// `win_assert = { kw_win ~ kw_in ~ number ~ kw_for ~ color }`
    fn win_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut n = None;
        let mut color = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::number => n = Some(self.number_u32(p)),
                Rule::color => color = Some(self.color(p)?),
                _ => {}
            }
        }
        let n = n.ok_or_else(|| self.missing("number", &whole))?;
        let color = color.ok_or_else(|| self.missing("colour", &whole))?;
        Ok(Assertion::WinIn(n, color))
    }

    /// `cost_assert = { kw_cost ~ (design | design_name) ~ eq ~ number }`
    fn cost_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut design = None;
        let mut n = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::design => {
                    let span = self.span(&p);
                    design = Some(Spanned::new(self.design(p)?, span));
                }
                Rule::design_name => design = Some(self.design_name(p)),
                Rule::number => n = Some(self.number(p)),
                _ => {}
            }
        }
        let design = design.ok_or_else(|| self.missing("design", &whole))?;
        let n = n.ok_or_else(|| self.missing("number", &whole))?;
        Ok(Assertion::Cost(design, n))
    }

    /// `invariant_assert = { kw_invariant ~ name ~ kw_to ~ kw_depth ~ number }`
    fn invariant_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut name = None;
        let mut depth = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::name => name = Some(self.spanned_text(&p)),
                Rule::number => depth = Some(self.number_u32(p)),
                _ => {}
            }
        }
        let name = name.ok_or_else(|| self.missing("name", &whole))?;
        let depth = depth.ok_or_else(|| self.missing("depth", &whole))?;
        Ok(Assertion::Invariant(name, depth))
    }

    /// `occupant_assert = { lone_square ~ eq ~ (kw_empty | occupant) }`
    fn occupant_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let whole = pair.clone();
        let mut square = None;
        let mut occupant = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::lone_square => square = Some(self.lone_square(p)?),
                Rule::occupant => occupant = Some(self.occupant(p)?),
                _ => {}
            }
        }
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        Ok(Assertion::Occupant(square, occupant))
    }

    /// `occupant = { color ~ piece_name }`
    fn occupant(&mut self, pair: Pair<Rule>) -> Res<(Color, PieceName)> {
        let whole = pair.clone();
        let mut color = None;
        let mut piece = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::color => color = Some(self.color(p)?),
                Rule::piece_name => piece = Some(self.piece_name(p)?),
                _ => {}
            }
        }
        let color = color.ok_or_else(|| self.missing("colour", &whole))?;
        let piece = piece.ok_or_else(|| self.missing("piece", &whole))?;
        Ok((color, piece))
    }

    /// `key_assert = { key_value }`
    fn key_assert(&mut self, pair: Pair<Rule>) -> Res<Assertion> {
        let p = self.only(&pair)?;
        Ok(Assertion::Key(self.key_value(p)?))
    }

    // ---- Turns -----------------------------------------------------------------------------

    /// `turn = ${ (kw_resign | kw_draw) ~ end_of_turn | action ~ claim? ~ (";" ~ action ~
    /// claim?)* ~ end_of_turn }`
    fn turn(&mut self, pair: Pair<Rule>) -> Res<TurnText> {
        let span = self.span(&pair);
        let text = pair.as_str().to_string();
        let mut actions = Vec::new();
        let mut claim = None;
        let mut special = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::kw_resign => special = Some(TurnSyntax::Resign),
                Rule::kw_draw => special = Some(TurnSyntax::Draw),
                Rule::action => actions.push(self.action(p)?),
                Rule::claim => {
                    if claim.is_some() {
                        self.problems.push(Problem::new(
                            "a turn claims check or mate once, after any of its actions",
                            self.span(&p),
                            "second claim",
                        ));
                    }
                    claim = Some(self.claim(p));
                }
                _ => {}
            }
        }
        let turn = special.unwrap_or(TurnSyntax::Actions(actions, claim));
        Ok(TurnText { turn, text, span })
    }

    /// `action = { castle | pass | coup | reborn | buy | drop | redesign | coordinate_move |
    /// short_move }`
    fn action(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::castle => Ok(self.castle(p)),
            Rule::pass => Ok(ActionSyntax::Pass),
            Rule::coup => self.coup(p),
            Rule::reborn => self.reborn(p),
            Rule::buy => self.buy(p),
            Rule::drop => self.drop(p),
            Rule::redesign => self.redesign(p),
            Rule::coordinate_move => self.coordinate_move(p),
            Rule::short_move => self.short_move(p),
            _ => Err(self.bug(&p)),
        }
    }

    /// `castle = { "O-O-O" | "O-O" }`
    fn castle(&mut self, pair: Pair<Rule>) -> ActionSyntax {
        match pair.as_str() {
            "O-O-O" => ActionSyntax::Castle(CastleSide::Queen),
            _ => ActionSyntax::Castle(CastleSide::King),
        }
    }

    /// `coup = { kw_coup ~ sp+ ~ piece ~ square }`
    fn coup(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let whole = pair.clone();
        let mut piece = None;
        let mut square = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::piece => piece = Some(self.piece(p)?),
                Rule::square => square = Some(self.square(p)),
                _ => {}
            }
        }
        let piece = piece.ok_or_else(|| self.missing("piece", &whole))?;
        let square = square.ok_or_else(|| self.missing("square", &whole))?;
        Ok(ActionSyntax::Coup { piece, square })
    }

    /// `reborn = { kw_reborn ~ sp+ ~ square }`
    fn reborn(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::square)
            .ok_or_else(|| self.missing("square", &pair))?;
        Ok(ActionSyntax::Reborn {
            square: self.square(p),
        })
    }

    /// `buy = { kw_buy ~ sp+ ~ (design | design_name) }`
    fn buy(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let design = self.design_of(&pair)?;
        Ok(ActionSyntax::Buy { design })
    }

    /// `drop = { piece ~ "@" ~ square }`
    fn drop(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let whole = pair.clone();
        let mut piece = None;
        let mut square = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::piece => piece = Some(self.piece(p)?),
                Rule::square => square = Some(self.square(p)),
                _ => {}
            }
        }
        let piece = piece.ok_or_else(|| self.missing("piece", &whole))?;
        let to = square.ok_or_else(|| self.missing("square", &whole))?;
        Ok(ActionSyntax::Drop { piece, to })
    }

    /// `redesign = { piece ~ "=" ~ (design | design_name) }`
    fn redesign(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::piece)
            .ok_or_else(|| self.missing("piece", &pair))?;
        let from = self.piece(p)?;
        let to = self.design_of(&pair)?;
        Ok(ActionSyntax::Redesign { from, to })
    }

    /// The design a `buy` or `redesign` names, with or without parentheses.
    fn design_of(&mut self, pair: &Pair<Rule>) -> Res<String> {
        for p in pair.clone().into_inner() {
            match p.as_rule() {
                Rule::design => return self.design(p),
                Rule::design_name => return Ok(self.design_name(p).node),
                _ => {}
            }
        }
        Err(self.missing("design", pair))
    }

    /// `coordinate_move = { piece? ~ square ~ (step ~ square)+ ~ promotion? }`
    fn coordinate_move(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let whole = pair.clone();
        let mut piece = None;
        let mut squares = Vec::new();
        let mut capture = false;
        let mut promotion = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::piece => piece = Some(self.piece(p)?),
                Rule::square => squares.push(self.square(p)),
                Rule::step => capture |= self.step(p),
                Rule::promotion => promotion = Some(self.promotion(p)?),
                _ => {}
            }
        }
        if squares.len() < 2 {
            return Err(self.missing("two squares", &whole));
        }
        let from = squares.remove(0);
        let to = squares
            .pop()
            .ok_or_else(|| self.missing("square", &whole))?;
        Ok(ActionSyntax::Move {
            style: Style::Coordinate,
            piece,
            from: OriginSyntax::Exact(from),
            via: squares,
            to,
            capture,
            promotion,
        })
    }

    /// `step = { "-" | "x" }`: true for a capture.
    fn step(&mut self, pair: Pair<Rule>) -> bool {
        pair.as_str() == "x"
    }

    /// `short_move = { piece? ~ origin? ~ capture? ~ square ~ promotion? }`
    fn short_move(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let whole = pair.clone();
        let mut piece = None;
        let mut from = OriginSyntax::Any;
        let mut capture = false;
        let mut to = None;
        let mut promotion = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::piece => piece = Some(self.piece(p)?),
                Rule::origin => from = self.origin(p)?,
                Rule::capture => capture = true,
                Rule::square => to = Some(self.square(p)),
                Rule::promotion => promotion = Some(self.promotion(p)?),
                _ => {}
            }
        }
        let to = to.ok_or_else(|| self.missing("square", &whole))?;
        Ok(ActionSyntax::Move {
            style: Style::Short,
            piece,
            from,
            via: Vec::new(),
            to,
            capture,
            promotion,
        })
    }

    /// `origin = { origin_square | origin_file | origin_rank }`
    fn origin(&mut self, pair: Pair<Rule>) -> Res<OriginSyntax> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::origin_square => self.origin_square(p),
            Rule::origin_file => Ok(OriginSyntax::File(p.as_str().to_string())),
            Rule::origin_rank => Ok(OriginSyntax::Rank(p.as_str().to_string())),
            _ => Err(self.bug(&p)),
        }
    }

    /// `origin_square = { square ~ &(capture? ~ square) }`
    fn origin_square(&mut self, pair: Pair<Rule>) -> Res<OriginSyntax> {
        let p = self.only(&pair)?;
        Ok(OriginSyntax::Exact(self.square(p)))
    }

    /// `promotion = { "=" ~ piece }`
    fn promotion(&mut self, pair: Pair<Rule>) -> Res<PieceName> {
        let p = self.only(&pair)?;
        self.piece(p)
    }

    /// `claim = { "+" | "#" }`
    fn claim(&mut self, pair: Pair<Rule>) -> Claim {
        match pair.as_str() {
            "#" => Claim::Mate,
            _ => Claim::Check,
        }
    }

    // ---- Pieces and squares ----------------------------------------------------------------

    /// `piece = { piece_letter | design }`
    fn piece(&mut self, pair: Pair<Rule>) -> Res<PieceName> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::piece_letter => Ok(PieceName::Role(self.piece_letter(p)?)),
            Rule::design => Ok(PieceName::Design(self.design(p)?)),
            _ => Err(self.bug(&p)),
        }
    }

    /// `piece_letter = { "K" | "Q" | ... }`
    fn piece_letter(&mut self, pair: Pair<Rule>) -> Res<Role> {
        pair.as_str()
            .chars()
            .next()
            .and_then(Role::from_letter)
            .ok_or_else(|| self.bug(&pair))
    }

    /// `piece_name = { design | role_word | role_letter }`
    fn piece_name(&mut self, pair: Pair<Rule>) -> Res<PieceName> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::design => Ok(PieceName::Design(self.design(p)?)),
            Rule::role_word => Ok(PieceName::Role(self.role_word(p)?)),
            Rule::role_letter => Ok(PieceName::Role(self.role_letter(p)?)),
            _ => Err(self.bug(&p)),
        }
    }

    /// `role_word = @{ ("king" | ...) ~ !name_char }`
    fn role_word(&mut self, pair: Pair<Rule>) -> Res<Role> {
        Role::from_word(pair.as_str()).ok_or_else(|| self.bug(&pair))
    }

    /// `role_letter = @{ piece_letter ~ !name_char }`
    fn role_letter(&mut self, pair: Pair<Rule>) -> Res<Role> {
        pair.as_str()
            .chars()
            .next()
            .and_then(Role::from_letter)
            .ok_or_else(|| self.bug(&pair))
    }

    /// `design = ${ "(" ~ design_name ~ ")" }`: the design without parentheses.
    fn design(&mut self, pair: Pair<Rule>) -> Res<String> {
        let p = self.only(&pair)?;
        Ok(self.design_name(p).node)
    }

    /// `design_name = @{ ASCII_ALPHANUMERIC+ }`
    fn design_name(&mut self, pair: Pair<Rule>) -> Spanned<String> {
        self.spanned_text(&pair)
    }

    /// `square = @{ ASCII_ALPHA_LOWER ~ ASCII_DIGIT+ }`
    fn square(&mut self, pair: Pair<Rule>) -> SquareName {
        let text = pair.as_str();
        let split = text.char_indices().nth(1).map_or(text.len(), |(i, _)| i);
        SquareName {
            file: text[..split].to_string(),
            rank: text[split..].to_string(),
            span: self.span(&pair),
        }
    }

    /// `lone_square = ${ square ~ !name_char }`
    fn lone_square(&mut self, pair: Pair<Rule>) -> Res<SquareName> {
        let p = self.only(&pair)?;
        Ok(self.square(p))
    }

    /// `color = { kw_white | kw_black }`
    fn color(&mut self, pair: Pair<Rule>) -> Res<Color> {
        pair.as_str().parse::<Color>().map_err(|_| self.bug(&pair))
    }

    // ---- Tokens ----------------------------------------------------------------------------

    /// `string = ${ "\"" ~ string_inner ~ "\"" }`: the text with escapes resolved; the span
    /// covers the quotes.
    fn string(&mut self, pair: Pair<Rule>) -> Res<Spanned<String>> {
        let span = self.span(&pair);
        let p = self.only(&pair)?;
        let mut text = String::new();
        let mut chars = p.as_str().chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(e) = chars.next() {
                    text.push(e);
                }
            } else {
                text.push(c);
            }
        }
        Ok(Spanned::new(text, span))
    }

    /// `number = @{ ASCII_DIGIT+ ~ !name_char }`; a number that does not fit is a problem
    /// (and reads as 0).
    fn number(&mut self, pair: Pair<Rule>) -> u64 {
        match pair.as_str().parse::<u64>() {
            Ok(n) => n,
            Err(_) => {
                self.problems.push(Problem::new(
                    format!(
                        "number {} is too large (the largest is {})",
                        quoted(pair.as_str()),
                        u64::MAX
                    ),
                    self.span(&pair),
                    "too large",
                ));
                0
            }
        }
    }

    /// A `number` used as a depth or a count of turns, which must fit in 32 bits.
    fn number_u32(&mut self, pair: Pair<Rule>) -> u32 {
        match pair.as_str().parse::<u32>() {
            Ok(n) => n,
            Err(_) => {
                self.problems.push(Problem::new(
                    format!(
                        "number {} is too large here (the largest is {})",
                        quoted(pair.as_str()),
                        u32::MAX
                    ),
                    self.span(&pair),
                    "too large",
                ));
                0
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASTE: &str = r#"variant cypher
option king-beside-own-spy = illegal      # pin an interpretation for the whole file

scenario "A Field bishop cannot capture a Field queen" {
  rule field-sanctuary
  board {
    white: Ke2 Bc3 Sd0
    black: Ke8 Qd4 Sd10
  }
  white to move
  expect illegal Bc3xd4 because field-sanctuary
  expect legal Bc3-b4
}

scenario "From the start, a pawn steps one square" {
  start
  play e3-e4 e7-e6
  expect e4 = white pawn
  expect zone d0 = court
  expect moves from d0 count 9             # along the back row; d1 and e1 touch the king
  expect result none
}
"#;

    fn file(src: &str) -> File {
        match parse_file(src) {
            Ok(f) => f,
            Err(problems) => {
                let rendered: Vec<String> = problems
                    .iter()
                    .map(|p| super::super::diagnostic::render(p, "test.scn", src))
                    .collect();
                panic!("parse failed:\n{}", rendered.join("\n"))
            }
        }
    }

    /// The statements of a one-scenario file around `body`.
    fn statements(body: &str) -> Vec<StatementKind> {
        let src = format!("variant chess\nscenario \"t\" {{\n{body}\n}}\n");
        let f = file(&src);
        f.scenarios[0]
            .statements
            .iter()
            .map(|s| s.kind.clone())
            .collect()
    }

    fn one(body: &str) -> StatementKind {
        let mut s = statements(body);
        assert_eq!(s.len(), 1, "{s:?}");
        s.remove(0)
    }

    fn assertion(text: &str) -> Assertion {
        match one(&format!("expect {text}")) {
            StatementKind::Expect(a) => a,
            other => panic!("not an expectation: {other:?}"),
        }
    }

    fn turn(text: &str) -> TurnSyntax {
        match parse_turn(text) {
            Ok(t) => {
                assert_eq!(t.text, text.trim());
                t.turn
            }
            Err(p) => panic!(
                "{text}: {}",
                super::super::diagnostic::render(&p, "turn", text)
            ),
        }
    }

    fn actions(text: &str) -> (Vec<ActionSyntax>, Option<Claim>) {
        match turn(text) {
            TurnSyntax::Actions(a, c) => (a, c),
            other => panic!("{other:?}"),
        }
    }

    fn action(text: &str) -> ActionSyntax {
        let (mut a, claim) = actions(text);
        assert_eq!(a.len(), 1);
        assert_eq!(claim, None);
        a.remove(0)
    }

    fn sq(text: &str) -> String {
        text.to_string()
    }

    fn square_text(s: &SquareName) -> String {
        s.text()
    }

    /// A move's style, piece, origin, via squares, target, capture and promotion, as text.
    fn mv(
        a: &ActionSyntax,
    ) -> (
        Style,
        Option<PieceName>,
        String,
        Vec<String>,
        String,
        bool,
        Option<PieceName>,
    ) {
        match a {
            ActionSyntax::Move {
                style,
                piece,
                from,
                via,
                to,
                capture,
                promotion,
            } => {
                let origin = match from {
                    OriginSyntax::Any => String::new(),
                    OriginSyntax::File(f) => format!("file {f}"),
                    OriginSyntax::Rank(r) => format!("rank {r}"),
                    OriginSyntax::Exact(s) => s.text(),
                };
                (
                    *style,
                    piece.clone(),
                    origin,
                    via.iter().map(square_text).collect(),
                    to.text(),
                    *capture,
                    promotion.clone(),
                )
            }
            other => panic!("not a move: {other:?}"),
        }
    }

    fn role(r: Role) -> Option<PieceName> {
        Some(PieceName::Role(r))
    }

    #[test]
    fn the_taste_example_parses() {
        let f = file(TASTE);
        assert_eq!(f.variant.node, "cypher");
        assert_eq!(&TASTE[f.variant.span.clone()], "cypher");
        assert_eq!(f.size, None);
        assert_eq!(f.options.len(), 1);
        assert_eq!(f.options[0].name.node, "king-beside-own-spy");
        assert_eq!(f.options[0].value.node, "illegal");
        assert_eq!(f.scenarios.len(), 2);
        let s0 = &f.scenarios[0];
        assert_eq!(s0.title.node, "A Field bishop cannot capture a Field queen");
        assert_eq!(s0.statements.len(), 5);
        assert!(TASTE[s0.span.clone()].starts_with("scenario \"A Field"));
        assert!(TASTE[s0.span.clone()].ends_with('}'));
        match &s0.statements[1].kind {
            StatementKind::Board(p) => {
                assert_eq!(p.len(), 6);
                assert_eq!(p[2].piece, role(Role::Spy));
                assert_eq!(p[2].square.text(), "d0");
                assert_eq!(p[5].color, Color::Black);
                assert_eq!(p[5].square.text(), "d10");
                assert_eq!(&TASTE[p[5].span.clone()], "Sd10");
            }
            other => panic!("{other:?}"),
        }
        match &s0.statements[3].kind {
            StatementKind::Expect(Assertion::Illegal(t, Some(because))) => {
                assert_eq!(t.text, "Bc3xd4");
                assert_eq!(&TASTE[t.span.clone()], "Bc3xd4");
                assert_eq!(because.node, "field-sanctuary");
            }
            other => panic!("{other:?}"),
        }
        let s1 = &f.scenarios[1];
        let kinds: Vec<_> = s1.statements.iter().map(|s| &s.kind).collect();
        assert_eq!(kinds[0], &StatementKind::Start);
        match kinds[1] {
            StatementKind::Play(t) => {
                assert_eq!(
                    t.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
                    ["e3-e4", "e7-e6"]
                )
            }
            other => panic!("{other:?}"),
        }
        match kinds[4] {
            StatementKind::Expect(Assertion::MovesFromCount(s, 9)) => assert_eq!(s.text(), "d0"),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            kinds[5],
            &StatementKind::Expect(Assertion::Result(ExpectedResult::None, None))
        );
        // Statement spans stop before trailing comments.
        assert_eq!(
            &TASTE[s1.statements[4].span.clone()],
            "expect moves from d0 count 9"
        );
    }

    #[test]
    fn header_with_size_and_string_option() {
        let f = file(
            "variant xpanse 5x6\noption a-b = \"x \\\" y\"\noption n = 3\nscenario \"s\" { start }",
        );
        assert_eq!(f.size.as_ref().map(|s| s.node), Some((5, 6)));
        assert_eq!(f.options[0].value.node, "x \" y");
        assert_eq!(f.options[1].value.node, "3");
    }

    #[test]
    fn rule_statement_takes_several_ids_and_stops_at_statement_words() {
        let s = statements("rule a-b c1 white-pawns\nboard { white: Ke1 }");
        match &s[0] {
            StatementKind::Rule(ids) => assert_eq!(
                ids.iter().map(|i| i.node.as_str()).collect::<Vec<_>>(),
                ["a-b", "c1", "white-pawns"]
            ),
            other => panic!("{other:?}"),
        }
        assert!(matches!(s[1], StatementKind::Board(_)));
    }

    #[test]
    fn option_statement() {
        match one("option king-beside-own-spy = legal") {
            StatementKind::Option(o) => {
                assert_eq!(o.name.node, "king-beside-own-spy");
                assert_eq!(o.value.node, "legal");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn board_with_pawns_and_designs() {
        match one("board {\n white: Ke2 a3 (WD)e4 (WbRbmHfB)z10\n black:\n Ke8 }") {
            StatementKind::Board(p) => {
                assert_eq!(p.len(), 5);
                assert_eq!(p[1].piece, None);
                assert_eq!(p[1].square.text(), "a3");
                assert_eq!(p[2].piece, Some(PieceName::Design("WD".into())));
                assert_eq!(p[3].piece, Some(PieceName::Design("WbRbmHfB".into())));
                assert_eq!(p[3].square.file, "z");
                assert_eq!(p[3].square.rank, "10");
                assert_eq!(p[4].color, Color::Black);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(one("board { }"), StatementKind::Board(vec![]));
    }

    #[test]
    fn fen_and_side_to_move() {
        match one(r#"fen "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1""#) {
            StatementKind::Fen(f) => assert!(f.node.starts_with("rnbqkbnr/8")),
            other => panic!("{other:?}"),
        }
        assert_eq!(one("black to move"), StatementKind::ToMove(Color::Black));
        assert_eq!(one("white to move"), StatementKind::ToMove(Color::White));
    }

    #[test]
    fn set_statements() {
        let cases = [
            (
                "set treasury white = 3",
                "treasury",
                Some(Color::White),
                Value::Word("3".into()),
            ),
            (
                "set reserve black = (WD) (WD)",
                "reserve",
                Some(Color::Black),
                Value::Designs(vec!["WD".into(), "WD".into()]),
            ),
            (
                "set infiltration-used black = yes",
                "infiltration-used",
                Some(Color::Black),
                Value::Word("yes".into()),
            ),
            (
                "set castling = KQkq",
                "castling",
                None,
                Value::Word("KQkq".into()),
            ),
            (
                "set en-passant = -",
                "en-passant",
                None,
                Value::Word("-".into()),
            ),
            (
                "set en-passant = e3",
                "en-passant",
                None,
                Value::Word("e3".into()),
            ),
            (
                "set note = \"a b\"",
                "note",
                None,
                Value::Text("a b".into()),
            ),
            (
                "set checks white = 2",
                "checks",
                Some(Color::White),
                Value::Word("2".into()),
            ),
        ];
        for (text, key, color, value) in cases {
            match one(text) {
                StatementKind::Set(kv) => {
                    assert_eq!(kv.key.node, key, "{text}");
                    assert_eq!(kv.color, color, "{text}");
                    assert_eq!(kv.value.node, value, "{text}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }

    #[test]
    fn play_skips_move_numbers() {
        match one("play 1. e2-e4 e7-e5 2. Nf3 2... Nc6 3.Bb5") {
            StatementKind::Play(t) => assert_eq!(
                t.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
                ["e2-e4", "e7-e5", "Nf3", "Nc6", "Bb5"]
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn statements_follow_each_other_without_terminators() {
        let s = statements("start play e2-e4 expect check expect no check white to move");
        assert_eq!(s.len(), 5);
    }

    #[test]
    fn assertion_forms() {
        assert!(matches!(assertion("legal Bc3-b4"), Assertion::Legal(t) if t.text == "Bc3-b4"));
        assert!(matches!(assertion("illegal O-O"), Assertion::Illegal(t, None) if t.text == "O-O"));
        match assertion("moves = { 1. e2-e4 Nf3 O-O; P=WD }") {
            Assertion::Moves(t) => assert_eq!(
                t.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
                ["e2-e4", "Nf3", "O-O; P=WD"]
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(assertion("moves = {}"), Assertion::Moves(vec![]));
        match assertion("moves from d0 = { d1 z0 e10 }") {
            Assertion::MovesFrom(from, to) => {
                assert_eq!(from.text(), "d0");
                assert_eq!(
                    to.iter().map(|s| s.text()).collect::<Vec<_>>(),
                    ["d1", "z0", "e10"]
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(assertion("moves count 20"), Assertion::MovesCount(20));
        assert!(
            matches!(assertion("moves from e2 count 2"), Assertion::MovesFromCount(s, 2) if s.text() == "e2")
        );
        assert_eq!(assertion("check"), Assertion::Check(true));
        assert_eq!(assertion("no check"), Assertion::Check(false));
        assert!(matches!(
            assertion("result white wins by checkmate"),
            Assertion::Result(ExpectedResult::Wins(Color::White), Some(r)) if r.node == "checkmate"
        ));
        assert!(matches!(
            assertion("result black wins by kill-rule"),
            Assertion::Result(ExpectedResult::Wins(Color::Black), Some(r)) if r.node == "kill-rule"
        ));
        assert!(matches!(
            assertion("result draw by stalemate"),
            Assertion::Result(ExpectedResult::Draw, Some(_))
        ));
        assert_eq!(
            assertion("result none"),
            Assertion::Result(ExpectedResult::None, None)
        );
        assert!(matches!(
            assertion("e4 = white pawn"),
            Assertion::Occupant(s, Some((Color::White, PieceName::Role(Role::Pawn)))) if s.text() == "e4"
        ));
        assert!(matches!(
            assertion("z10 = black S"),
            Assertion::Occupant(_, Some((Color::Black, PieceName::Role(Role::Spy))))
        ));
        assert!(matches!(
            assertion("e4 = black (WD)"),
            Assertion::Occupant(_, Some((Color::Black, PieceName::Design(d)))) if d == "WD"
        ));
        assert!(matches!(
            assertion("a1 = white gatekeeper"),
            Assertion::Occupant(_, Some((Color::White, PieceName::Role(Role::Gatekeeper))))
        ));
        assert!(matches!(
            assertion("e4 = empty"),
            Assertion::Occupant(_, None)
        ));
        assert!(
            matches!(assertion("zone d0 = court"), Assertion::Zone(s, z) if s.text() == "d0" && z.node == "court")
        );
        assert_eq!(assertion("perft 3 = 8902"), Assertion::Perft(3, 8902));
        assert_eq!(
            assertion("win in 2 for black"),
            Assertion::WinIn(2, Color::Black)
        );
        assert!(matches!(assertion("cost (WD) = 5"), Assertion::Cost(d, 5) if d.node == "WD"));
        assert!(matches!(assertion("cost BL = 7"), Assertion::Cost(d, 7) if d.node == "BL"));
        assert!(matches!(
            assertion("invariant one-king-each to depth 3"),
            Assertion::Invariant(n, 3) if n.node == "one-king-each"
        ));
        match assertion("treasury white = 3") {
            Assertion::Key(kv) => {
                assert_eq!(kv.key.node, "treasury");
                assert_eq!(kv.color, Some(Color::White));
                assert_eq!(kv.value.node, Value::Word("3".into()));
            }
            other => panic!("{other:?}"),
        }
        // Keywords end at word boundaries: `checks` is a key, not `check` + `s`.
        assert!(
            matches!(assertion("checks white = 2"), Assertion::Key(kv) if kv.key.node == "checks")
        );
        assert!(matches!(assertion("results = 1"), Assertion::Key(kv) if kv.key.node == "results"));
        assert!(
            matches!(assertion("reserve black = (WD) (BL)"), Assertion::Key(kv) if kv.value.node.text() == "(WD) (BL)")
        );
    }

    #[test]
    fn coordinate_moves() {
        use Style::Coordinate as C;
        assert_eq!(
            mv(&action("Bc3-d4")),
            (
                C,
                role(Role::Bishop),
                sq("c3"),
                vec![],
                sq("d4"),
                false,
                None
            )
        );
        assert_eq!(
            mv(&action("Bc3xe5")),
            (
                C,
                role(Role::Bishop),
                sq("c3"),
                vec![],
                sq("e5"),
                true,
                None
            )
        );
        assert_eq!(
            mv(&action("e3-e4")),
            (C, None, sq("e3"), vec![], sq("e4"), false, None)
        );
        assert_eq!(
            mv(&action("e7-e8=Q")),
            (
                C,
                None,
                sq("e7"),
                vec![],
                sq("e8"),
                false,
                role(Role::Queen)
            )
        );
        assert_eq!(
            mv(&action("Sd0-d4")),
            (C, role(Role::Spy), sq("d0"), vec![], sq("d4"), false, None)
        );
        assert_eq!(
            mv(&action("Qd2-z4")),
            (
                C,
                role(Role::Queen),
                sq("d2"),
                vec![],
                sq("z4"),
                false,
                None
            )
        );
        assert_eq!(
            mv(&action("z9-z10")),
            (C, None, sq("z9"), vec![], sq("z10"), false, None)
        );
        assert_eq!(
            mv(&action("Ac1-c3-e5")),
            (
                C,
                role(Role::Archer),
                sq("c1"),
                vec![sq("c3")],
                sq("e5"),
                false,
                None
            )
        );
        assert_eq!(
            mv(&action("Ga1-a4-d4")),
            (
                C,
                role(Role::Gatekeeper),
                sq("a1"),
                vec![sq("a4")],
                sq("d4"),
                false,
                None
            )
        );
        assert_eq!(
            mv(&action("(WD)c3xe5")),
            (
                C,
                Some(PieceName::Design("WD".into())),
                sq("c3"),
                vec![],
                sq("e5"),
                true,
                None
            )
        );
    }

    #[test]
    fn short_moves() {
        use Style::Short as S;
        assert_eq!(
            mv(&action("Kd2")),
            (
                S,
                role(Role::King),
                String::new(),
                vec![],
                sq("d2"),
                false,
                None
            )
        );
        assert_eq!(
            mv(&action("Nxe5")),
            (
                S,
                role(Role::Knight),
                String::new(),
                vec![],
                sq("e5"),
                true,
                None
            )
        );
        assert_eq!(
            mv(&action("Nbd7")),
            (
                S,
                role(Role::Knight),
                sq("file b"),
                vec![],
                sq("d7"),
                false,
                None
            )
        );
        assert_eq!(
            mv(&action("R1a3")),
            (
                S,
                role(Role::Rook),
                sq("rank 1"),
                vec![],
                sq("a3"),
                false,
                None
            )
        );
        assert_eq!(
            mv(&action("R10xa3")),
            (
                S,
                role(Role::Rook),
                sq("rank 10"),
                vec![],
                sq("a3"),
                true,
                None
            )
        );
        assert_eq!(
            mv(&action("Nb1d2")),
            (
                S,
                role(Role::Knight),
                sq("b1"),
                vec![],
                sq("d2"),
                false,
                None
            )
        );
        assert_eq!(
            mv(&action("exd5")),
            (S, None, sq("file e"), vec![], sq("d5"), true, None)
        );
        assert_eq!(
            mv(&action("e4")),
            (S, None, String::new(), vec![], sq("e4"), false, None)
        );
        assert_eq!(
            mv(&action("e8=Q")),
            (
                S,
                None,
                String::new(),
                vec![],
                sq("e8"),
                false,
                role(Role::Queen)
            )
        );
        assert_eq!(
            mv(&action("e8=(WD)")),
            (
                S,
                None,
                String::new(),
                vec![],
                sq("e8"),
                false,
                Some(PieceName::Design("WD".into()))
            )
        );
        assert_eq!(
            mv(&action("(WD)xe5")),
            (
                S,
                Some(PieceName::Design("WD".into())),
                String::new(),
                vec![],
                sq("e5"),
                true,
                None
            )
        );
        assert_eq!(
            mv(&action("(WA)cd4")),
            (
                S,
                Some(PieceName::Design("WA".into())),
                sq("file c"),
                vec![],
                sq("d4"),
                false,
                None
            )
        );
    }

    #[test]
    fn other_actions() {
        assert_eq!(action("O-O"), ActionSyntax::Castle(CastleSide::King));
        assert_eq!(action("O-O-O"), ActionSyntax::Castle(CastleSide::Queen));
        assert!(
            matches!(action("P@c5"), ActionSyntax::Drop { piece: PieceName::Role(Role::Pawn), to } if to.text() == "c5")
        );
        assert!(
            matches!(action("(WD)@e5"), ActionSyntax::Drop { piece: PieceName::Design(d), .. } if d == "WD")
        );
        assert_eq!(
            action("buy WD"),
            ActionSyntax::Buy {
                design: "WD".into()
            }
        );
        assert_eq!(
            action("buy (WD)"),
            ActionSyntax::Buy {
                design: "WD".into()
            }
        );
        assert_eq!(
            action("Q=BL"),
            ActionSyntax::Redesign {
                from: PieceName::Role(Role::Queen),
                to: "BL".into()
            }
        );
        assert_eq!(action("pass"), ActionSyntax::Pass);
        assert!(
            matches!(action("reborn c1"), ActionSyntax::Reborn { square } if square.text() == "c1")
        );
        assert!(matches!(
            action("coup Nf9"),
            ActionSyntax::Coup { piece: PieceName::Role(Role::Knight), square } if square.text() == "f9"
        ));
    }

    #[test]
    fn turns_with_several_actions_and_claims() {
        let (a, c) = actions("Kd2; P=WbRbmHfB");
        assert_eq!(a.len(), 2);
        assert_eq!(c, None);
        assert_eq!(
            a[1],
            ActionSyntax::Redesign {
                from: PieceName::Role(Role::Pawn),
                to: "WbRbmHfB".into()
            }
        );
        assert_eq!(actions("Sd0-d4; Qd2-z4").0.len(), 2);
        assert_eq!(actions("Ke4-e5; Qd2-d10").0.len(), 2);
        assert!(matches!(
            &actions("g8-g9; coup Nf9").0[1],
            ActionSyntax::Coup { .. }
        ));
        assert!(matches!(
            &actions("c4-c5; reborn c1").0[1],
            ActionSyntax::Reborn { .. }
        ));
        assert_eq!(actions("c4-c5;reborn c1").0.len(), 2);
        assert_eq!(actions("Qxf7#").1, Some(Claim::Mate));
        assert_eq!(actions("Nf3+").1, Some(Claim::Check));
        assert_eq!(actions("e7-e8=Q+").1, Some(Claim::Check));
        assert_eq!(actions("O-O-O#").1, Some(Claim::Mate));
        assert_eq!(actions("Sd0-d4+; Qd2-z4").1, Some(Claim::Check));
        assert_eq!(turn("resign"), TurnSyntax::Resign);
        assert_eq!(turn("draw"), TurnSyntax::Draw);
        assert_eq!(
            parse_turn("  e2-e4  ").map(|t| t.text),
            Ok("e2-e4".to_string())
        );
    }

    #[test]
    fn mate_mark_is_not_a_comment_but_a_spaced_hash_is() {
        match one("play Qxf7# # mate in one\n") {
            StatementKind::Play(t) => {
                assert_eq!(t.len(), 1);
                assert_eq!(t[0].text, "Qxf7#");
                assert!(matches!(
                    t[0].turn,
                    TurnSyntax::Actions(_, Some(Claim::Mate))
                ));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_turns_are_refused() {
        for bad in [
            "", "e2-e4e5", "e2-", "Kx", "e2-e4;", "O-O-O-O", "passe", "resign x", "e2 e4", "X@e4",
            "Z1-z2",
        ] {
            assert!(parse_turn(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn spans_are_byte_offsets_in_the_file() {
        let src = "variant chess\nscenario \"t\" {\n  start\n  play e2-e4 Nf3\n}\n";
        let f = file(src);
        match &f.scenarios[0].statements[1].kind {
            StatementKind::Play(t) => {
                assert_eq!(&src[t[1].span.clone()], "Nf3");
                match &t[1].turn {
                    TurnSyntax::Actions(a, _) => match &a[0] {
                        ActionSyntax::Move { to, .. } => assert_eq!(&src[to.span.clone()], "f3"),
                        other => panic!("{other:?}"),
                    },
                    other => panic!("{other:?}"),
                }
            }
            other => panic!("{other:?}"),
        }
    }

    fn problems(src: &str) -> Vec<Problem> {
        match parse_file(src) {
            Ok(f) => panic!("parsed: {f:?}"),
            Err(p) => p,
        }
    }

    #[test]
    fn syntax_errors_say_what_was_expected() {
        let src = "variant chess\nscenario \"t\" {\n  strat\n}\n";
        let p = problems(src);
        assert_eq!(p.len(), 1);
        assert!(
            p[0].message
                .starts_with("expected a statement (rule, option"),
            "{}",
            p[0].message
        );
        assert!(p[0].message.contains("or `}`"), "{}", p[0].message);
        assert!(
            p[0].message
                .ends_with("found `strat`; did you mean `start`?"),
            "{}",
            p[0].message
        );
        assert_eq!(&src[p[0].span.clone()], "strat");

        let p = problems("variant chess\nscenario \"t\" {\n  expect moves from e 4 count 3\n}\n");
        assert!(
            p[0].message.starts_with("expected a square such as `e4`"),
            "{}",
            p[0].message
        );
    }

    #[test]
    fn recovery_reports_one_problem_per_broken_scenario() {
        let src = "variant chess\nscenario \"a\" {\n  strat\n}\nscenario \"b\" { start }\nscenario \"c\" {\n  expect e9 = white kong\n}\nscenario \"d\" {\n  start\n";
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
    fn string_problems() {
        let p = problems("variant chess\nscenario \"abc {\n start\n}\n");
        assert!(
            p[0].message.starts_with("unterminated string"),
            "{}",
            p[0].message
        );
        let p = problems("variant chess\nscenario \"a\\nb\" { start }\n");
        assert!(
            p[0].message.starts_with("unknown escape `\\n`"),
            "{}",
            p[0].message
        );
    }

    /// The problem for one statement in an otherwise fine chess scenario, and the text its
    /// span covers.
    fn one_problem(statement: &str) -> (Problem, String) {
        let src = format!("variant chess\nscenario \"t\" {{\n  start\n  {statement}\n}}\n");
        let p = problems(&src);
        assert_eq!(p.len(), 1, "{p:#?}");
        let covered = src[p[0].span.clone()].to_string();
        (p[0].clone(), covered)
    }

    #[test]
    fn a_misspelt_assertion_word_is_suggested_at_the_word() {
        let (p, at) = one_problem("expect legl e4");
        assert_eq!(at, "legl");
        assert!(
            p.message.contains("`legl` is not an assertion"),
            "{}",
            p.message
        );
        assert!(p.message.contains("not by `e4`"), "{}", p.message);
        assert!(
            p.message.ends_with("did you mean `legal`?"),
            "{}",
            p.message
        );
        // A colour after the key, a comment, the end of the line: the same.
        let (p, at) = one_problem("expect resutl white wins");
        assert_eq!(at, "resutl");
        assert!(
            p.message.ends_with("did you mean `result`?"),
            "{}",
            p.message
        );
        let (p, at) = one_problem("expect chek # the king is attacked");
        assert_eq!(at, "chek");
        assert!(
            p.message.ends_with("did you mean `check`?"),
            "{}",
            p.message
        );
        // A key that is close to no assertion word stays a key missing its `=`.
        let (p, at) = one_problem("expect treasury 3");
        assert_eq!(at, "3");
        assert!(
            p.message.starts_with("expected `white` or `black` or `=`"),
            "{}",
            p.message
        );
        assert!(
            p.help
                .as_deref()
                .is_some_and(|h| h.contains("read as a state key")),
            "{p:?}"
        );
    }

    #[test]
    fn misspelt_keywords_are_suggested() {
        for (statement, word, meant) in [
            ("expct legal e2-e4", "expct", "expect"),
            ("plya e2-e4", "plya", "play"),
            ("boad { white: Ke1 }", "boad", "board"),
            ("white to mvoe", "mvoe", "move"),
            ("expect moves form e2 count 2", "form", "from"),
            ("expect result whte wins", "whte", "white"),
        ] {
            let (p, at) = one_problem(statement);
            assert_eq!(at.chars().next(), word.chars().next(), "{statement}: {p:?}");
            assert!(
                p.message.ends_with(&format!("did you mean `{meant}`?")),
                "{statement}: {}",
                p.message
            );
        }
        let (p, _) = one_problem("legal e2-e4");
        assert!(
            p.message.ends_with("did you mean `expect legal`?"),
            "{}",
            p.message
        );
        let p = problems("varient chess\nscenario \"t\" { start }\n");
        assert!(
            p[0].message.ends_with("did you mean `variant`?"),
            "{}",
            p[0].message
        );
        let p = problems("variant chess\nsenario \"t\" { start }\n");
        assert!(
            p[0].message.ends_with("did you mean `scenario`?"),
            "{}",
            p[0].message
        );
    }

    #[test]
    fn a_byte_order_mark_starts_a_file() {
        let src = "\u{FEFF}variant chess\nscenario \"t\" { start }\n";
        let f = file(src);
        assert_eq!(f.variant.node, "chess");
        assert_eq!(&src[f.variant.span.clone()], "chess");
        // Spans stay offsets into the file as read.
        let p = problems("\u{FEFF}variant chess\nscenario \"t\" { strat }\n");
        assert_eq!(
            p[0].span.start,
            "\u{FEFF}variant chess\nscenario \"t\" { ".len()
        );
        // Only at the start: elsewhere it is a stray character.
        assert!(parse_file("variant chess\n\u{FEFF}scenario \"t\" { start }\n").is_err());
    }

    #[test]
    fn long_numbers_are_quoted_cut() {
        let digits = "9".repeat(100_000);
        let p = problems(&format!(
            "variant xpanse {digits}x5\nscenario \"a\" {{ expect perft 1 = {digits} }}"
        ));
        assert_eq!(p.len(), 2, "{p:#?}");
        for problem in &p {
            assert!(problem.message.len() < 200, "{}", problem.message);
            assert!(problem.message.contains("9999…`"), "{}", problem.message);
        }
    }

    #[test]
    fn recovery_is_linear_in_the_file() {
        // Thousands of broken scenarios: each resumes with a binary search, not a rescan.
        const N: usize = 20_000;
        let mut src = String::from("variant chess\n");
        for i in 0..N {
            src.push_str(&format!("scenario \"s{i}\" {{\n  strat\n}}\n"));
        }
        let t = std::time::Instant::now();
        let p = problems(&src);
        assert_eq!(p.len(), N);
        assert!(t.elapsed().as_secs() < 20, "{:?}", t.elapsed());
    }
}
