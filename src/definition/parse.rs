//! Reading a definition's text into its syntax tree ([`super::syntax`]): the pest binding of
//! `grammar/definition.pest`, the tree builder, and syntax errors in words. After a syntax
//! error the reader resumes at the next line that starts a statement at its first column, so
//! several broken statements give several problems. Nothing here panics, whatever the input.

use pest::error::{Error as PestError, ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use super::syntax::{read_string, Block, Comment, File, Statement, Value, Word};
use crate::scenario::diagnostic::{line_col, string_problem, Problem};

/// The pest parser generated from `grammar/definition.pest`.
#[derive(Parser)]
#[grammar = "../grammar/definition.pest"]
pub struct DefinitionParser;

/// How deep blocks may nest (one level is all the language uses).
const MAX_NESTING: usize = 8;

/// At most this many syntax errors are reported for one text: each costs a parse of the rest.
const MAX_SYNTAX_ERRORS: usize = 10;

/// Reads a definition's text into its syntax tree, or every syntax error found.
pub fn parse_tree(src: &str) -> Result<File, Vec<Problem>> {
    // The parser and the builder recurse into blocks: nesting is bounded before either runs.
    if let Some(at) = too_deep(src) {
        return Err(vec![Problem::new(
            format!("blocks nest more than {MAX_NESTING} deep"),
            at..at + 1,
            "too deep",
        )
        .with_help(
            "only components and options have a block, and their settings have none",
        )]);
    }
    match DefinitionParser::parse(Rule::file, src) {
        Ok(mut pairs) => {
            let mut file = File {
                statements: Vec::new(),
                comments: Vec::new(),
            };
            if let Some(pair) = pairs.next() {
                build_file(pair, 0, &mut file);
            }
            Ok(file)
        }
        Err(error) => Err(recover(src, &error)),
    }
}

/// The first syntax error, then those found by resuming at each next line that starts a
/// statement after the error.
fn recover(src: &str, first: &PestError<Rule>) -> Vec<Problem> {
    let mut problems = vec![syntax_problem(first, src, 0)];
    let mut at = error_pos(first);
    while problems.len() < MAX_SYNTAX_ERRORS {
        let Some(start) = next_statement_line(src, at) else {
            break;
        };
        match DefinitionParser::parse(Rule::file, &src[start..]) {
            Ok(_) => break,
            Err(error) => {
                problems.push(syntax_problem(&error, src, start));
                at = start + error_pos(&error);
            }
        }
    }
    problems
}

/// The start of the first line after the one holding `pos` that starts with a word at its first
/// column, outside any string.
fn next_statement_line(src: &str, pos: usize) -> Option<usize> {
    let mut in_string = false;
    let mut line_start = true;
    let mut chars = src.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if in_string {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_string = false,
                _ => {}
            }
            line_start = false;
            continue;
        }
        let starts_word = !(c.is_whitespace() || "\"{}#".contains(c));
        if line_start && i > pos && starts_word {
            return Some(i);
        }
        match c {
            '"' => in_string = true,
            '#' => while chars.next_if(|&(_, c)| c != '\n' && c != '\r').is_some() {},
            _ => {}
        }
        line_start = c == '\n' || c == '\r';
    }
    None
}

fn error_pos(error: &PestError<Rule>) -> usize {
    match error.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    }
}

fn build_file(pair: Pair<Rule>, offset: usize, file: &mut File) {
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::statement => {
                let s = build_statement(p, offset, &mut file.comments);
                file.statements.push(s);
            }
            Rule::COMMENT => file.comments.push(comment(&p, offset)),
            _ => {}
        }
    }
}

fn comment(pair: &Pair<Rule>, offset: usize) -> Comment {
    let text = pair.as_str().trim_end();
    let start = pair.as_span().start() + offset;
    Comment {
        text: text.to_string(),
        span: start..start + text.len(),
    }
}

fn build_statement(pair: Pair<Rule>, offset: usize, comments: &mut Vec<Comment>) -> Statement {
    let start = pair.as_span().start() + offset;
    let mut end = start;
    let mut head = Word {
        text: String::new(),
        span: start..start,
    };
    let mut values = Vec::new();
    let mut block = None;
    for p in pair.into_inner() {
        let span = p.as_span().start() + offset..p.as_span().end() + offset;
        match p.as_rule() {
            Rule::head => {
                end = span.end;
                head = Word {
                    text: p.as_str().to_string(),
                    span,
                };
            }
            Rule::word => {
                end = span.end;
                values.push(Value {
                    text: p.as_str().to_string(),
                    quoted: false,
                    span,
                });
            }
            Rule::string => {
                end = span.end;
                values.push(Value {
                    text: read_string(p.as_str()),
                    quoted: true,
                    span,
                });
            }
            Rule::block => {
                let mut statements = Vec::new();
                let mut block_end = span.end;
                for inner in p.into_inner() {
                    match inner.as_rule() {
                        Rule::statement => {
                            statements.push(build_statement(inner, offset, comments))
                        }
                        Rule::COMMENT => comments.push(comment(&inner, offset)),
                        Rule::rbrace => block_end = inner.as_span().end() + offset,
                        _ => {}
                    }
                }
                end = block_end;
                block = Some(Block {
                    statements,
                    span: span.start..block_end,
                });
            }
            Rule::COMMENT => comments.push(comment(&p, offset)),
            _ => {}
        }
    }
    Statement {
        head,
        values,
        block,
        span: start..end,
    }
}

/// Turns a pest error on `src[offset..]` into a problem with a span in `src`.
fn syntax_problem(error: &PestError<Rule>, src: &str, offset: usize) -> Problem {
    let pos = (offset + error_pos(error)).min(src.len());
    let here = pos..next_char_end(src, pos);
    let positives = match &error.variant {
        ErrorVariant::ParsingError { positives, .. } => positives.clone(),
        ErrorVariant::CustomError { message } => {
            return Problem::new(message.clone(), here, "here");
        }
    };
    let rest = &src[pos..];
    if rest.starts_with('"') {
        if let Some(problem) = string_problem(src, pos, false) {
            return problem;
        }
    }
    if rest.starts_with('}') && !positives.contains(&Rule::rbrace) {
        return Problem::new("`}` closes no block", here, "no `{` is open here")
            .with_help("a block opens with `{` at the end of its statement's line");
    }
    if rest.starts_with('{') && !positives.contains(&Rule::block) {
        return Problem::new(
            "a `{` must stand on the line of its statement",
            here,
            "not expected here",
        )
        .with_help("write `castling {` on one line, then the settings, then `}`");
    }
    let expected = describe(&positives);
    if pos >= src.trim_end().len() {
        let end = src.trim_end().len();
        let last = src[..end].chars().next_back().map_or(0, char::len_utf8);
        let mut problem = Problem::new(
            format!("expected {expected}, found the end of the file"),
            end - last..end,
            "the file ends after this",
        );
        if positives.contains(&Rule::rbrace) {
            if let Some(open) = unclosed_brace(src) {
                let (line, col) = line_col(src, open);
                problem = problem.with_help(format!(
                    "the block opened at {line}:{col} is never closed with `}}`"
                ));
            }
        }
        return problem;
    }
    let found = found_at(src, pos);
    Problem::new(
        format!("expected {expected}, found {found}"),
        here,
        "not expected here",
    )
}

/// The expected tokens in words, in a fixed order.
fn describe(positives: &[Rule]) -> String {
    let mut words: Vec<&str> = Vec::new();
    let order = [
        (Rule::statement, "a statement"),
        (Rule::head, "a statement"),
        (Rule::word, "a value"),
        (Rule::string, "a value"),
        (Rule::block, "`{`"),
        (Rule::lbrace, "`{`"),
        (Rule::nl, "the end of the line"),
        (Rule::rbrace, "`}`"),
        (Rule::EOI, "the end of the file"),
    ];
    for (rule, word) in order {
        if positives.contains(&rule) && !words.contains(&word) {
            words.push(word);
        }
    }
    match words.len() {
        0 => "something else".to_string(),
        1 => words[0].to_string(),
        n => format!("{} or {}", words[..n - 1].join(", "), words[n - 1]),
    }
}

/// What stands at `pos`, for a message: a word, a character, a line end.
fn found_at(src: &str, pos: usize) -> String {
    let rest = &src[pos..];
    match rest.chars().next() {
        None => "the end of the file".to_string(),
        Some('\n' | '\r') => "the end of the line".to_string(),
        Some(c) if c.is_whitespace() => "a blank".to_string(),
        Some(c) => {
            let len = rest
                .find(|c: char| c.is_whitespace() || "\"{}#".contains(c))
                .unwrap_or(rest.len());
            if len == 0 {
                format!("`{c}`")
            } else {
                format!("`{}`", &rest[..len])
            }
        }
    }
}

fn next_char_end(src: &str, pos: usize) -> usize {
    pos + src[pos..].chars().next().map_or(0, char::len_utf8)
}

/// The `{` of the innermost block still open at the end of the text, outside strings and
/// comments.
fn unclosed_brace(src: &str) -> Option<usize> {
    braces(src, |_| false).1
}

/// The first `{` that opens a block deeper than [`MAX_NESTING`], if any.
fn too_deep(src: &str) -> Option<usize> {
    braces(src, |depth| depth > MAX_NESTING).0
}

/// Scans the braces outside strings and comments: the first `{` at which `stop(depth)` holds,
/// and the innermost `{` still open at the end.
fn braces(src: &str, stop: impl Fn(usize) -> bool) -> (Option<usize>, Option<usize>) {
    let mut open = Vec::new();
    let mut chars = src.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => {
                while let Some((_, c)) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '#' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' || c == '\r' {
                        break;
                    }
                }
            }
            '{' => {
                open.push(i);
                if stop(open.len()) {
                    return (Some(i), None);
                }
            }
            '}' => {
                open.pop();
            }
            _ => {}
        }
    }
    (None, open.pop())
}
