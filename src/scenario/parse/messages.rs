//! Syntax errors in words: what was expected, what was found, a suggestion for a misspelt
//! word, and help that lists the forms a statement, assertion or turn may take.

use pest::error::{Error as PestError, ErrorVariant};

use super::grammar::Rule;
use super::recover::error_pos;
use crate::scenario::diagnostic::{string_problem, Problem};
use crate::suggest::did_you_mean;

/// Turns a pest error on `src[offset..]` into a problem with a span in `src`.
pub(crate) fn syntax_problem(error: &PestError<Rule>, src: &str, offset: usize) -> Problem {
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
    let mut found = found_at(src, pos);
    match &error.variant {
        ErrorVariant::CustomError { message } => Problem::new(message.clone(), here, "here"),
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            if positives.contains(&Rule::string) && src[pos..].starts_with('"') {
                if let Some(problem) = string_problem(src, pos, true) {
                    return problem;
                }
            }
            if let Some(problem) = design_problem(src, pos) {
                return problem;
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
            if let Some(problem) = misread_key(positives, src, pos) {
                return problem;
            }
            let label = if at_end {
                "the file ends here".to_string()
            } else {
                short_expected(positives)
            };
            let word = word_at(src, pos);
            let mut hint = word_hint(positives, word);
            if let Some((at, notation)) = notation_hint(src, pos) {
                found = quoted(&src[at.clone()]);
                here = at;
                hint = notation;
            } else if !hint.is_empty() {
                // The whole word is what was misspelt.
                here = pos..pos + word.len();
            } else if let Some((at, turn_hint)) = turn_word_hint(positives, src, pos) {
                here = at;
                hint = turn_hint;
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

/// A hint for the notation of other tools that newcomers write: castling with zeros (`0-0`,
/// as some programs print it) and pieces in small letters for Black (`ke8`, as in a FEN). The
/// token around `pos` and the hint, when it is one of those.
fn notation_hint(src: &str, pos: usize) -> Option<(std::ops::Range<usize>, String)> {
    let pos = pos.min(src.len());
    if !src.is_char_boundary(pos) {
        return None;
    }
    let stop = |c: char| c.is_whitespace() || "'\"{;:".contains(c);
    let start = src[..pos]
        .char_indices()
        .rev()
        .find(|&(_, c)| stop(c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let len = src[start..]
        .find(|c: char| c.is_whitespace() || "'\"};".contains(c))
        .unwrap_or(src.len() - start);
    let token = &src[start..start + len];
    let bare = token.trim_end_matches(['+', '#', '!', '?']);
    let at = start..start + len;
    if bare == "0-0" || bare == "0-0-0" {
        let castle = bare.replace('0', "O");
        return Some((
            at,
            format!("; castling is written with the letter O, not zeros: `{castle}`"),
        ));
    }
    let mut chars = bare.chars();
    let (first, file, rest) = (chars.next()?, chars.next()?, chars.as_str());
    let square =
        file.is_ascii_lowercase() && !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit());
    if first.is_ascii_lowercase() && first != 'x' && square {
        let capital = format!("{}{file}{rest}", first.to_ascii_uppercase());
        return Some((
            at,
            format!(
                "; pieces are written with capital letters for both colours: `{capital}` (a bare square such as `{file}{rest}` is a pawn)"
            ),
        ));
    }
    None
}

/// Words that start a statement.
const STATEMENT_WORDS: [&str; 11] = [
    "rule", "pending", "option", "start", "board", "fen", "white", "black", "set", "play", "expect",
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
            Rule::piece_word | Rule::piece_name => words.extend([
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

/// The words the grammar takes at the end of `src`, a file cut where a word is to be written
/// (what an editor completes): the words a syntax error there would offer, without repeats.
/// Read from the whole file, or else from the last scenario (an earlier one may be broken);
/// `None` when neither parses up to the end.
pub fn words_at_end(src: &str) -> Option<Vec<&'static str>> {
    use pest::Parser;
    let expected = |rule: Rule, text: &str| -> Option<Vec<&'static str>> {
        // A character no token takes: the parse stops there and says what it expected.
        let probe = format!("{text}\u{1}");
        let error = super::grammar::ScenarioParser::parse(rule, &probe).err()?;
        if error_pos(&error) != text.len() {
            return None;
        }
        let ErrorVariant::ParsingError { positives, .. } = &error.variant else {
            return None;
        };
        let mut words = expected_words(positives);
        let mut seen = Vec::new();
        words.retain(|w| {
            let new = !seen.contains(w);
            seen.push(*w);
            new
        });
        Some(words)
    };
    expected(Rule::file, src).or_else(|| {
        let last = super::recover::scenario_lines(src).last()?;
        expected(Rule::scenario_tail, &src[last..])
    })
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

/// `play rezign` reads `r` as a file and fails at `e`: when a square was expected inside a
/// word of letters, the whole word is compared with the words that are turns.
fn turn_word_hint(
    rules: &[Rule],
    src: &str,
    pos: usize,
) -> Option<(std::ops::Range<usize>, String)> {
    if !rules.contains(&Rule::square) {
        return None;
    }
    let start = src[..pos]
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_ascii_lowercase())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = pos + word_at(src, pos).len();
    let before = src[..start].chars().next_back();
    if start == pos || !before.is_none_or(char::is_whitespace) {
        return None;
    }
    let word = &src[start..end];
    let hint = did_you_mean(word, ["resign", "draw", "pass"]);
    (!hint.is_empty()).then_some((start..end, hint))
}

/// The state key of an `expect` whose `=` is missing: the error is where `=` (or a colour)
/// should follow the key.
fn expected_key(rules: &[Rule], src: &str, pos: usize) -> Option<std::ops::Range<usize>> {
    let key_continuation = !rules.is_empty()
        && rules
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
fn misread_key(rules: &[Rule], src: &str, pos: usize) -> Option<Problem> {
    let key = expected_key(rules, src, pos)?;
    let word = &src[key.clone()];
    let hint = did_you_mean(word, ASSERTION_WORDS);
    if hint.is_empty() {
        return None;
    }
    Some(
        Problem::new(
            format!("`{word}` is not an assertion, nor a state key (no `=` follows it){hint}"),
            key,
            "not an assertion",
        )
        .with_help(ASSERTION_HELP),
    )
}

/// A closer look at a token with unbalanced parentheses around an error: a design whose `(`
/// is never closed, or a `)` that closes none. Pest would only say what may follow the part
/// that parsed.
fn design_problem(src: &str, pos: usize) -> Option<Problem> {
    // Whitespace may be wider than a byte (a no-break space): start after the whole char.
    let start = src[..pos]
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = src[pos..]
        .find(char::is_whitespace)
        .map_or(src.len(), |i| pos + i);
    let token = &src[start..end];
    if token.starts_with(['"', '#']) {
        return None;
    }
    let mut open = Vec::new();
    for (i, c) in token.char_indices() {
        match c {
            '(' => open.push(start + i),
            ')' if open.pop().is_none() => {
                return Some(
                    Problem::new(
                        format!(
                            "unbalanced parentheses: expected a design, found a `)` that closes no `(` in {}",
                            quoted(token)
                        ),
                        start + i..start + i + 1,
                        "closes nothing",
                    )
                    .with_help(DESIGN_HELP),
                );
            }
            _ => {}
        }
    }
    // The outermost `(` left open is the design's own.
    let at = *open.first()?;
    Some(
        Problem::new(
            format!(
                "unbalanced parentheses: expected a `)` to close this `(` of the design {}",
                quoted(token)
            ),
            at..at + 1,
            "never closed",
        )
        .with_help(DESIGN_HELP),
    )
}

const DESIGN_HELP: &str = "a design is Betza notation in parentheses, such as `(WD)`; groups inside it nest, and each `(` is closed by a `)`: `(Wfc(DNFA)scDsHbmH)`";

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
        Rule::piece_word => "a piece word such as `king`",
        Rule::design => "a design in parentheses such as `(WD)`",
        Rule::design_name => "a design such as `WD`",
        Rule::square | Rule::lone_square | Rule::origin_square => "a square such as `e4`",
        Rule::color => "`white` or `black`",
        Rule::name => "a kebab-case name such as `field-sanctuary`",
        Rule::variant_ref => {
            "a variant name such as `chess`, or a definition's path such as `./my-game.def`"
        }
        Rule::rule_id => "a rule id such as `field-sanctuary`",
        Rule::word => "a word such as `yes` or `3`",
        Rule::string | Rule::string_inner => "a string in double quotes",
        Rule::number => "a number",
        Rule::eq => "`=`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::colon => "`:`",
        Rule::semicolon => "`;`",
        Rule::board_flag_part => {
            "a board side (`white: Ke1 Qd1`), `black to move` or `set <key> = <value>`"
        }
        Rule::size_only => "a board size such as `5x6`",
        Rule::EOI => "the end of the file",
        _ => return keyword(rule),
    })
}

/// Keywords read as themselves.
fn keyword(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::kw_rule => "`rule`",
        Rule::kw_pending => "`pending`",
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
        Rule::kw_vanish => "`vanish`",
        Rule::kw_timeout => "`timeout`",
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
    } else if rules
        .iter()
        .any(|r| matches!(r, Rule::variant_line | Rule::kw_variant))
    {
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
        Some(' ') => "a space".to_string(),
        Some('\t') => "a tab".to_string(),
        Some(c) if c.is_whitespace() => format!("the space character `{}`", c.escape_unicode()),
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
pub(crate) fn quoted(text: &str) -> String {
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
#[cfg(test)]
mod tests {
    use super::{words_at_end, ASSERTION_WORDS, STATEMENT_WORDS};
    use crate::scenario::parse::parse_file;
    use crate::scenario::parse::test_util::*;

    #[test]
    fn a_design_after_a_wide_space_is_pointed_at_without_panicking() {
        // A no-break space is two bytes: the token starts after all of them (found by fuzzing).
        for text in [
            "e2\u{a0}(WD",
            "x\u{2003}(WD))",
            "#¦\u{a0}¦o#¦¦#¦\u{9d}¦o#\u{0}!\u{0}\u{0}\u{0}o-pa#¦\u{9d}¦\u{0}!\u{0}\u{0}\u{0}o-paw\u{1}",
        ] {
            let _ = crate::scenario::parse::parse_turn(text);
        }
        let src = "variant chess\nscenario \"t\" {\n  play e4\u{a0}(WD\n}\n";
        let p = problems(src);
        assert!(!p.is_empty());
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

    #[test]
    fn a_misspelt_assertion_word_is_suggested_at_the_word() {
        let (p, at) = one_problem("expect legl e4");
        assert_eq!(at, "legl");
        assert!(
            p.message.contains("`legl` is not an assertion"),
            "{}",
            p.message
        );
        assert!(
            p.message.contains("nor a state key (no `=` follows it)"),
            "{}",
            p.message
        );
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
    fn the_words_the_grammar_takes_at_the_end() {
        let file = "variant chess\nscenario \"t\" {\n  start\n  expect ";
        assert_eq!(words_at_end(file), Some(ASSERTION_WORDS.to_vec()));
        assert_eq!(
            words_at_end("variant chess\n"),
            Some(vec!["option", "scenario"])
        );
        assert_eq!(
            words_at_end(&format!("{file}result ")),
            Some(vec!["white", "black", "draw", "none"])
        );
        // A broken scenario before the last one does not matter; a broken line before the
        // end does.
        let broken = "variant chess\nscenario \"a\" {\n  expect\n}\nscenario \"b\" {\n  ";
        assert_eq!(words_at_end(broken), Some(STATEMENT_WORDS.to_vec()));
        assert_eq!(words_at_end(&format!("{file}= =\n  ")), None);
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
            ("expect moves cuont 3", "cuont", "count"),
            ("expect no chek", "chek", "check"),
            (
                "expect illegal e2-e5 becuase castling",
                "becuase",
                "because",
            ),
            ("expect result draw bye agreement", "bye", "by"),
            ("rul castling", "rul", "rule"),
            ("sett halfmove-clock = 3", "sett", "set"),
            ("expect win inn 2 for white", "inn", "in"),
            ("expect e4 = whte pawn", "whte", "white"),
            ("expect e4 = emtpy", "emtpy", "empty"),
            ("play e2-e4 rezign", "rezign", "resign"),
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
}
