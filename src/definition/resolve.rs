//! From syntax trees to a [`Definition`]: inheritance (`from`, `without`), then every name and
//! value resolved and checked, with every problem collected at its place in the text it was
//! written in (the definition, or one it inherits from).
//!
//! Inheritance works on statements: the parent's statements (themselves resolved through their
//! own parent) come first, and each of the child's statements replaces the parent's statement
//! with the same key (the same piece letter, rule id or option name; `board`, `start`, `title`
//! and `source` are single; a child's `holes` lines replace all of the parent's) or is added
//! after them. Only then is the whole resolved, so defaults (the pawn kinds, the royal kind) and
//! checks (a letter that is not a piece) see the final definition, and an error in an inherited
//! statement points at the parent's text.

use std::collections::{HashMap, HashSet};

use super::error::{Error, Errors, Source};
use super::fen;
use super::layout::Field;
use super::model::{
    Cell, Component, Contact, Counted, Definition, Effect, FlipPattern, Lines, Moved, Onto,
    OptionDecl, Part, PieceDef, Reach, Region, Rule, Safety, Sides, Span, Standing, Timing, Value,
    Whose, Words, INVENTED,
};
use super::parse::parse_tree;
use super::syntax::{self, Statement, Value as SynValue};
use crate::betza::Design;
use crate::rules::board::Geometry;
use crate::scenario::diagnostic::{LineIndex, Problem};
use crate::suggest::did_you_mean;

/// Finds the text of a definition a `from` line names: `Ok((source name, text))`, where the
/// source name is what errors in that text are reported under (a path, or `chess` for a
/// bundled definition), or `Err(why not)`.
pub type Loader<'a> = dyn Fn(&str) -> Result<(String, String), String> + 'a;

/// The largest board side.
pub const MAX_BOARD_SIDE: u8 = 16;

/// At most this many errors are reported for one definition: a text that is not a definition
/// at all (a pasted file) gives a screenful, not a million lines.
pub const MAX_ERRORS: usize = 100;

/// How deep `from` may nest: deeper is reported as too deep, never followed.
const MAX_DEPTH: usize = 16;

/// What a definition's name stands for when looking for a loop: a file by its canonical path
/// (an INI section by its file's), so that two spellings of one file are one; a bundled name as
/// it is.
fn identity(name: &str) -> String {
    use crate::definition::load::is_path;
    if !is_path(name) {
        return name.to_string();
    }
    let canonical = |p: &str| {
        std::fs::canonicalize(p)
            .map_or_else(|_| p.to_string(), |c| c.to_string_lossy().into_owned())
    };
    match crate::definition::ini::spec(name) {
        Some((file, section)) => format!("{}:{section}", canonical(file)),
        None => canonical(name),
    }
}

/// The statements a definition's top level may hold (components aside).
pub const STATEMENTS: &[&str] = &[
    "variant", "from", "title", "source", "board", "holes", "piece", "without", "start", "fen",
    "option", "property",
];

/// The component names, as [`Component::name`] gives them.
pub const COMPONENTS: &[&str] = &[
    "double-step",
    "en-passant",
    "promotion",
    "castling",
    "check",
    "checkmate",
    "stalemate",
    "extinction",
    "goal",
    "check-count",
    "compulsory-capture",
    "no-giving-check",
    "explosion",
    "repetition",
    "move-count",
    "bare-king",
    "first-move",
    "checked-royal-captures",
    "insufficient-material",
    "confine",
    "region-move",
    "flying-royals",
    "drops",
    "captures-to-hand",
    "prisoners",
    "gating",
    "hop-limit",
    "pass",
    "bikjang",
    "blocker",
    "zone",
    "sanctuary",
    "retake",
    "defection",
    "infiltration",
    "no-entry",
    "adjacency",
    "alignment",
    "transparent",
    "flip",
    "full-board",
];

/// The settings a `board` block takes: how the definition names its squares. They belong to
/// `board` rather than to a statement of their own so that whatever replaces the board (a
/// child's `board` line) replaces its names with it: names made for one size never outlive it.
pub const BOARD_SETTINGS: &[&str] = &["files", "first-rank"];

/// The rules the engine applies to every definition, which `rule ID "CLAUSE"` gives words;
/// `action-by-action` only where a turn may have two actions.
pub const ENGINE_RULES: &[&str] = &[
    "not-your-turn",
    "no-piece-there",
    "own-piece-on-target",
    "no-such-piece",
    "no-such-action",
    "blocked",
    "turn-length",
    "capture-mark",
    "check-claim",
    "game-over",
    "resignation",
    "agreement",
    "start-position",
    "invented-piece",
    "action-by-action",
];

/// The components a rule may be written in several statements of (one `id` written in each):
/// those a definition holds any number of, each judging where its region says.
const MANY: &[&str] = &[
    "zone",
    "sanctuary",
    "no-entry",
    "transparent",
    "region-move",
    "adjacency",
    "alignment",
    "retake",
];

/// The settings every component takes.
pub const COMMON_SETTINGS: &[&str] = &["id", "clause", "source", "when"];

/// The settings whose values are piece letters, one a value.
const LETTER_LISTS: &[&str] = &[
    "pieces",
    "into",
    "rooks",
    "immune",
    "white-into",
    "black-into",
    "lost-on-line",
    "alone",
    "colour-bound",
    "opposite-colours",
    "by",
    "beside",
    "facing",
    "opened-by",
    "except-beside",
    "takes",
    "ranking",
    "bare",
];

/// Whether a setting names pieces: the lists of letters, `king`, and `limit` (`Q1`) and
/// `pairs` (`P:T`), whose values hold a letter and more.
pub fn names_pieces(setting: &str) -> bool {
    LETTER_LISTS.contains(&setting) || matches!(setting, "king" | "limit" | "pairs")
}

/// The settings that take `yes` or `no`.
pub const YES_NO_SETTINGS: &[&str] = &[
    "chess960",
    "mandatory",
    "captured-only",
    "reply",
    "in-check",
    "leaving",
    "no-doubled",
    "no-mate",
    "immobile",
    "must",
    "safe",
    "as-turn",
    "demote",
    "promoted",
    "within",
    "shot",
    "keep",
    "replace",
    "free",
    "stuck",
    "shields",
    "take-where-it-steps",
    "through-holes",
    "disarms",
    "gives-check",
    "once",
    "attacks",
];
const YES_NO: &[&str] = &["yes", "no"];
/// The words of `other-moved`, in the order the resolver reads them.
const OTHER_MOVED: &[&str] = &["any", "yes", "no"];
/// The word after a region line's side: what the places are.
pub const REGION_KINDS: &[&str] = &[
    "rank", "ranks", "file", "files", "square", "squares", "area", "areas", "zone", "zones",
];

/// The words a setting takes, for the settings that take one of a list (as the resolver
/// checks them); a region line's side takes its kinds.
pub fn setting_choices(setting: &str) -> Option<&'static [&'static str]> {
    Some(match setting {
        s if YES_NO_SETTINGS.contains(&s) => YES_NO,
        "value" => Value::WORDS,
        "safety" => Safety::WORDS,
        "onto" => Onto::WORDS,
        "pattern" => FlipPattern::WORDS,
        "from" => Reach::WORDS,
        "timing" => Timing::WORDS,
        "of" => Whose::WORDS,
        "moved" => Moved::WORDS,
        "other-moved" => OTHER_MOVED,
        "effect" | "elsewhere" => Effect::WORDS,
        "standing" => Standing::WORDS,
        "lines" => Lines::WORDS,
        "counted" => Counted::WORDS,
        s if REGION_SIDES.contains(&s) => REGION_KINDS,
        _ => return None,
    })
}

/// The settings (of which component) that may name `invented`, every invented piece: the
/// rules of zones, of re-takes, infiltration and defection, where a designer's invented piece
/// plays as the game's other pieces do.
const INVENTED_IN: &[(&str, &str)] = &[
    ("sanctuary", "pieces"),
    ("sanctuary", "by"),
    ("retake", "pieces"),
    ("retake", "takes"),
    ("retake", "by"),
    ("no-entry", "pieces"),
    ("infiltration", "pieces"),
    ("defection", "ranking"),
];

/// The words a region line starts with.
const REGION_SIDES: &[&str] = &["white", "black", "both"];

/// The parts of a component that `part` may give words of their own (each a rule of the
/// catalogue, `<id>-<part>`).
pub fn component_parts(component: &str) -> &'static [&'static str] {
    match component {
        "castling" => &["rights", "blocked", "out-of-check", "through-check"],
        "defection" => &["choice", "bare-king"],
        "infiltration" => &["once"],
        "no-entry" => &["one-entry", "own-movement", "crossing"],
        _ => &[],
    }
}

/// The settings a component takes besides [`COMMON_SETTINGS`]; `white`, `black` and `both`
/// stand for its region lines.
pub fn component_settings(component: &str) -> &'static [&'static str] {
    match component {
        "double-step" => &["pieces", "steps", "move", "white", "black", "both"],
        "en-passant" => &["pieces", "take-where-it-steps", "white", "black", "both"],
        "promotion" => &[
            "pieces",
            "into",
            "mandatory",
            "captured-only",
            "limit",
            "white-into",
            "black-into",
            "pairs",
            "leaving",
            "as-turn",
            "demote",
            "white",
            "black",
            "both",
        ],
        "drops" => &[
            "pieces",
            "no-doubled",
            "no-mate",
            "immobile",
            "opposite-colours",
            "promoted",
            "must",
            "free",
            "onto",
            "opening",
            "through-holes",
            "in-check",
            "gives-check",
            "white",
            "black",
            "both",
        ],
        "prisoners" => &[
            "pieces",
            "in-check",
            "gives-check",
            "white",
            "black",
            "both",
        ],
        "castling" => &[
            "king",
            "rooks",
            "king-to",
            "rook-to",
            "rooks-from",
            "drop-rights",
            "chess960",
            "rank",
            "part",
        ],
        "check" => &["safety"],
        "checkmate" | "stalemate" => &["value"],
        "extinction" => &["pieces", "value"],
        "goal" => &[
            "pieces", "value", "timing", "safe", "white", "black", "both",
        ],
        "bare-king" => &["value", "against", "reply"],
        "first-move" => &["pieces", "move", "in-check", "lost-on-line"],
        "check-count" => &["checks", "value"],
        "explosion" => &["immune"],
        "repetition" => &["times"],
        "move-count" => &["moves"],
        "insufficient-material" => &["alone", "colour-bound"],
        "confine" => &["pieces", "white", "black", "both"],
        "region-move" => &[
            "pieces", "move", "within", "replace", "white", "black", "both",
        ],
        "hop-limit" => &["pieces", "immune"],
        "pass" => &["value", "stuck"],
        "bikjang" | "full-board" => &["value"],
        "flip" => &["pattern"],
        "gating" => &["shields"],
        "blocker" => &["letter", "name", "shot", "keep"],
        "sanctuary" => &["pieces", "by", "from", "attacks", "white", "black", "both"],
        "zone" => &["name", "white", "black", "both"],
        "retake" => &["pieces", "takes", "by", "from", "white", "black", "both"],
        "defection" => &[
            "pieces", "ranking", "bare", "counted", "priority", "part", "white", "black", "both",
        ],
        "infiltration" => &[
            "pieces", "by", "targets", "once", "as-turn", "priority", "part", "white", "black",
            "both",
        ],
        "transparent" => &["pieces", "white", "black", "both"],
        "no-entry" => &[
            "pieces",
            "while",
            "opened-by",
            "except-beside",
            "part",
            "white",
            "black",
            "both",
        ],
        "adjacency" => &[
            "pieces",
            "beside",
            "of",
            "moved",
            "other-moved",
            "effect",
            "elsewhere",
            "standing",
            "disarms",
            "priority",
            "white",
            "black",
            "both",
        ],
        "alignment" => &[
            "pieces",
            "facing",
            "of",
            "moved",
            "other-moved",
            "effect",
            "elsewhere",
            "standing",
            "lines",
            "gap",
            "disarms",
            "priority",
            "white",
            "black",
            "both",
        ],
        _ => &[],
    }
}

/// The settings an option's block takes.
const OPTION_SETTINGS: &[&str] = &["values", "default", "reason"];

/// Reads a definition: `name` is what errors call its text (a path, or the bundled name),
/// `text` the definition, and `load` finds the text of the definition a `from` line names.
/// Every problem found is returned, each at its line and column (in `text` or in an inherited
/// text); nothing panics, and inheritance that loops back is an error, not a hang.
pub fn parse(name: &str, text: &str, load: &Loader) -> Result<Definition, Errors> {
    let mut r = Resolver {
        sources: Vec::new(),
        lines: Vec::new(),
        errors: Vec::new(),
        layer_source: Vec::new(),
        loaded_by: Vec::new(),
        not_a_definition: false,
        load,
        continued: None,
        zones: Vec::new(),
    };
    let root = r.add_source(name, text);
    let items = r.layer(root, &mut Vec::new(), 0);
    let definition = match items {
        // Errors of inheritance (a `without` that drops nothing, a letter given twice) leave
        // a consistent list of statements: resolving it finds the other errors too. A text
        // that is no definition at all (no `variant` line) is not resolved.
        Some(layer) if !r.not_a_definition => r.resolve(root, &layer),
        _ => None,
    };
    match definition {
        Some(d) if r.errors.is_empty() => Ok(d),
        _ => {
            // An error in an inherited text says which definition inherits it.
            for e in &mut r.errors {
                if let Some((child, pos)) = r.loaded_by.get(e.source).copied().flatten() {
                    let note = format!(
                        "`{}` is inherited: `from` at {}",
                        r.sources[e.source].name,
                        location(&r.sources[child], &r.lines[child], pos)
                    );
                    e.problem.help = Some(match e.problem.help.take() {
                        Some(help) => format!("{help}\n{note}"),
                        None => note,
                    });
                }
            }
            // Sorted by text, then place: the order a reader meets them.
            r.errors
                .sort_by_key(|e| (e.source, e.problem.span.start, e.problem.span.end));
            r.errors.dedup();
            Err(Errors {
                sources: r.sources,
                errors: r.errors,
            })
        }
    }
}

/// A statement as inheritance sees it: where it was written, and what it replaces.
#[derive(Clone, Debug)]
struct Item {
    src: usize,
    key: Key,
    stmt: Statement,
}

/// What a statement replaces in the definition it inherits from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Variant,
    Title,
    Source,
    Board,
    Start,
    Fen,
    Holes,
    Piece(String),
    Option(String),
    /// `rule ID "clause"`: the words of one of the engine's rules.
    Words(String),
    /// `property NAME "clause" { ... }`: one of the definition's own invariants.
    Property(String),
    Rule(String),
    /// A further statement of the rule of that id (its `n`-th, from 1): one rule written in
    /// several components of one kind.
    More(String, usize),
    /// A statement with an unknown head or a malformed one: kept to be reported once.
    Other(usize, usize),
}

/// A layer: one text's statements after its parent's were applied, and its `from` line.
struct Layer {
    items: Vec<Item>,
    parent: Option<String>,
}

struct Resolver<'a> {
    sources: Vec<Source>,
    lines: Vec<LineIndex>,
    errors: Vec<Error>,
    /// Per text read: the `source` of the definition it holds (inherited when it gives none),
    /// which its rules default to.
    layer_source: Vec<String>,
    /// Per text read: the text whose `from` line read it, and where that line's value is.
    loaded_by: Vec<Option<(usize, usize)>>,
    /// Some text read does not start with `variant`: its other errors would be noise.
    not_a_definition: bool,
    load: &'a Loader<'a>,
    /// The clause of the rule a further statement of it continues, for one that gives none.
    continued: Option<String>,
    /// The zones declared so far (`zone` components), which region lines and `from` name.
    zones: Vec<(String, Sides<Vec<Cell>>)>,
}

/// A piece letter named in a setting, with where it was written.
#[derive(Clone, Copy)]
struct Letter {
    letter: char,
    src: usize,
    span: (usize, usize),
}

impl<'a> Resolver<'a> {
    fn add_source(&mut self, name: &str, text: &str) -> usize {
        self.sources.push(Source {
            name: name.to_string(),
            text: text.to_string(),
        });
        self.lines.push(LineIndex::new(text));
        self.layer_source.push(String::new());
        self.loaded_by.push(None);
        self.sources.len() - 1
    }

    /// An error at `span` of source `src`: its message and the label under the span.
    fn fail(
        &mut self,
        src: usize,
        span: std::ops::Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
    ) {
        self.error(src, Problem::new(message, span, label));
    }

    /// [`Self::fail`] with a help line.
    fn fail_help(
        &mut self,
        src: usize,
        span: std::ops::Range<usize>,
        message: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.error(src, Problem::new(message, span, label).with_help(help));
    }

    fn error(&mut self, src: usize, problem: Problem) {
        if self.errors.len() >= MAX_ERRORS {
            return;
        }
        self.errors.push(Error {
            source: src,
            problem,
        });
    }

    fn text(&self, src: usize) -> &str {
        &self.sources[src].text
    }

    fn model_span(&self, src: usize, span: &syntax::Span) -> Span {
        let (line, col) = self.lines[src].line_col(self.text(src), span.start);
        Span {
            start: span.start,
            end: span.end,
            line: line as u32,
            col: col as u32,
        }
    }

    /// `line:col` of a place, for messages that point at a second place.
    fn at(&self, src: usize, pos: usize) -> String {
        let (line, col) = self.lines[src].line_col(self.text(src), pos);
        if src == 0 {
            format!("{line}:{col}")
        } else {
            format!("{}:{line}:{col}", self.sources[src].name)
        }
    }

    // ------------------------------------------------------------------------------------------
    // Inheritance
    // ------------------------------------------------------------------------------------------

    /// The statements of text `src` with its parents' applied first. `stack` holds the source
    /// names being read, to find cycles.
    fn layer(&mut self, src: usize, stack: &mut Vec<String>, depth: usize) -> Option<Layer> {
        // An inherited text is parsed once while it stays the same (every keystroke in a
        // definition resolves its parents again); the text itself is parsed each time.
        let tree = match if src == 0 {
            parse_tree(self.text(src)).map(std::sync::Arc::new)
        } else {
            super::cache::parse_inherited(self.text(src))
        } {
            Ok(tree) => tree,
            Err(problems) => {
                for p in problems {
                    self.error(src, p);
                }
                return None;
            }
        };
        stack.push(self.sources[src].name.clone());
        let own = self.own_items(src, &tree.statements);
        let mut parent_name = None;
        let mut inherited: Vec<Item> = Vec::new();
        let mut has_parent = false;
        if let Some(from) = tree.statements.iter().find(|s| s.head.text == "from") {
            if let Some(value) = self.single_value(src, from, "the definition to start from") {
                parent_name = Some(value.text.clone());
                match self.parent(src, value, stack, depth) {
                    Some((psrc, layer)) => {
                        inherited = layer.items;
                        has_parent = true;
                        self.layer_source[src] = self.layer_source[psrc].clone();
                    }
                    None => {
                        stack.pop();
                        return None;
                    }
                }
            }
        }
        // Slots, emptied when dropped, and where each key stands: one pass, however long.
        let mut slots: Vec<Option<Item>> = inherited.into_iter().map(Some).collect();
        let mut index: HashMap<Key, usize> = HashMap::new();
        for (k, item) in slots.iter().enumerate() {
            if let Some(item) = item {
                index.insert(item.key.clone(), k);
            }
        }
        let mut child_holes = false;
        for (stmt, own) in tree.statements.iter().zip(own) {
            if stmt.head.text == "without" {
                self.without(src, stmt, &mut slots, &mut index, has_parent);
                continue;
            }
            let Some(item) = own else {
                continue;
            };
            if item.key == Key::Holes {
                if !child_holes {
                    for slot in &mut slots {
                        if slot.as_ref().is_some_and(|i| i.key == Key::Holes) {
                            *slot = None;
                        }
                    }
                    child_holes = true;
                }
                slots.push(Some(item));
                continue;
            }
            match index.get(&item.key) {
                Some(&k) if slots[k].is_some() => slots[k] = Some(item),
                _ => {
                    index.insert(item.key.clone(), slots.len());
                    slots.push(Some(item));
                }
            }
        }
        let items: Vec<Item> = slots.into_iter().flatten().collect();
        if let Some(source) = items.iter().find(|i| i.key == Key::Source) {
            if let Some(v) = source.stmt.values.first() {
                self.layer_source[src] = v.text.clone();
            }
        }
        stack.pop();
        Some(Layer {
            items,
            parent: parent_name,
        })
    }

    /// Loads and reads the parent a `from` line names.
    fn parent(
        &mut self,
        src: usize,
        value: &SynValue,
        stack: &mut Vec<String>,
        depth: usize,
    ) -> Option<(usize, Layer)> {
        let name = value.text.as_str();
        // A relative path names a file beside the definition that names it, as a scenario's
        // `variant` does, so a definition and its parent move together.
        let asking = &self.sources[src].name;
        let spec = if crate::definition::load::is_path(asking) {
            crate::definition::load::beside(name, std::path::Path::new(asking))
        } else {
            Ok(name.to_string())
        };
        let (pname, ptext) = match spec.and_then(|spec| (self.load)(&spec)) {
            Ok(found) => found,
            Err(why) => {
                self.fail(
                    src,
                    value.span.clone(),
                    format!("cannot read the definition `{name}`: {why}"),
                    "named here",
                );
                return None;
            }
        };
        // The same file however its path is spelt (`a.def`, `./a.def`, `../x/a.def`).
        let same = identity(&pname);
        let looped = stack.iter().any(|n| identity(n) == same);
        if looped || depth >= MAX_DEPTH {
            let mut chain = stack.clone();
            chain.push(pname);
            let chain: Vec<String> = chain.iter().map(|n| format!("`{n}`")).collect();
            let help = format!(
                "a definition may start from another (`from`), at most {MAX_DEPTH} deep, \
                 never from itself"
            );
            let problem = if looped {
                Problem::new(
                    format!(
                        "inheritance loops back: {} again",
                        chain.join(", which starts from ")
                    ),
                    value.span.clone(),
                    "starts from a definition that starts from this one",
                )
            } else {
                let shown = if chain.len() > 6 {
                    format!(
                        "{}, ..., {}",
                        chain[..3].join(", "),
                        chain[chain.len() - 3..].join(", ")
                    )
                } else {
                    chain.join(", ")
                };
                Problem::new(
                    format!(
                        "inheritance is too deep: {shown} go on past {MAX_DEPTH} definitions, \
                         the most followed"
                    ),
                    value.span.clone(),
                    "too deep",
                )
            };
            self.error(src, problem.with_help(help));
            return None;
        }
        let psrc = self.add_source(&pname, &ptext);
        self.loaded_by[psrc] = Some((src, value.span.start));
        let layer = self.layer(psrc, stack, depth + 1)?;
        Some((psrc, layer))
    }

    /// The keys of one text's own statements, checking that each is given once in it and
    /// that `variant` comes first.
    fn own_items(&mut self, src: usize, statements: &[Statement]) -> Vec<Option<Item>> {
        if statements.first().is_none_or(|s| s.head.text != "variant") {
            self.not_a_definition = true;
        }
        match statements.first() {
            Some(first) if first.head.text == "variant" => {}
            Some(first) => self.error(
                src,
                Problem::new(
                    "a definition starts with `variant <name>`",
                    first.head.span.clone(),
                    "expected `variant` here",
                ),
            ),
            None => self.error(
                src,
                Problem::new(
                    "the definition is empty: it starts with `variant <name>`",
                    0..0,
                    "here",
                ),
            ),
        }
        let mut items: Vec<Option<Item>> = Vec::with_capacity(statements.len());
        let mut seen: HashMap<Key, usize> = HashMap::new();
        // Each rule id's component kind and how many statements write it.
        let mut written: HashMap<String, (String, usize)> = HashMap::new();
        let mut from_seen: Option<usize> = None;
        for (k, stmt) in statements.iter().enumerate() {
            let head = stmt.head.text.as_str();
            let key = match head {
                "from" => {
                    if let Some(first) = from_seen {
                        let at = self.at(src, first);
                        self.fail(
                            src,
                            stmt.head.span.clone(),
                            format!("`from` is given twice (first at {at})"),
                            "given again",
                        );
                    }
                    from_seen = Some(stmt.span.start);
                    items.push(None);
                    continue;
                }
                "without" => {
                    items.push(None);
                    continue;
                }
                "variant" => Key::Variant,
                "title" => Key::Title,
                "source" => Key::Source,
                "board" => Key::Board,
                "start" => Key::Start,
                "fen" => Key::Fen,
                "holes" => Key::Holes,
                "piece" => match stmt.values.first() {
                    Some(v) => Key::Piece(v.text.clone()),
                    None => Key::Other(src, k),
                },
                "option" => match stmt.values.first() {
                    Some(v) => Key::Option(v.text.clone()),
                    None => Key::Other(src, k),
                },
                "rule" => match stmt.values.first() {
                    Some(v) => Key::Words(v.text.clone()),
                    None => Key::Other(src, k),
                },
                // A malformed one is still a property: its reader says what is wrong.
                "property" => match stmt.values.first() {
                    Some(v) => Key::Property(v.text.clone()),
                    None => Key::Other(src, k),
                },
                h if COMPONENTS.contains(&h) => {
                    let id = rule_id(stmt);
                    match written.get_mut(&id) {
                        // One rule in several statements of one kind, each a component: for
                        // the kinds a definition may hold many of, under an id written out.
                        Some((kind, n)) if kind == h && MANY.contains(&h) && id != h => {
                            *n += 1;
                            Key::More(id, *n - 1)
                        }
                        _ => {
                            written.insert(id.clone(), (h.to_string(), 1));
                            Key::Rule(id)
                        }
                    }
                }
                _ => Key::Other(src, k),
            };
            if key != Key::Holes {
                if let Some(&first) = seen.get(&key) {
                    let at = self.at(src, first);
                    let problem = match &key {
                        Key::Piece(letter) => Problem::new(
                            format!("piece letter `{letter}` is used twice (first at {at})"),
                            stmt.values[0].span.clone(),
                            "used again",
                        )
                        .with_help("each kind of piece has a letter of its own"),
                        Key::Option(name) => Problem::new(
                            format!("option `{name}` is declared twice (first at {at})"),
                            stmt.values[0].span.clone(),
                            "declared again",
                        ),
                        Key::Words(id) => Problem::new(
                            format!("the words of rule `{id}` are given twice (first at {at})"),
                            stmt.values[0].span.clone(),
                            "given again",
                        ),
                        Key::Property(name) => Problem::new(
                            format!("property `{name}` is stated twice (first at {at})"),
                            stmt.values[0].span.clone(),
                            "stated again",
                        )
                        .with_help("each property has a name of its own"),
                        Key::Rule(id) => Problem::new(
                            format!("rule id `{id}` is used twice (first at {at})"),
                            stmt.head.span.clone(),
                            "used again",
                        )
                        .with_help(format!(
                            "a rule id names one rule: several statements write it only as \
                             components of one kind of {}, each with its `id` line; else give \
                             one of them another `id`",
                            MANY.join(", ")
                        )),
                        _ => Problem::new(
                            format!("`{head}` is given twice (first at {at})"),
                            stmt.head.span.clone(),
                            "given again",
                        ),
                    };
                    self.error(src, problem);
                    items.push(None);
                    continue;
                }
                seen.insert(key.clone(), stmt.span.start);
            }
            items.push(Some(Item {
                src,
                key,
                stmt: stmt.clone(),
            }));
        }
        items
    }

    /// `without piece <letter>`, `without option <name>` or `without <rule-id>`: drops an
    /// inherited statement.
    fn without(
        &mut self,
        src: usize,
        stmt: &Statement,
        slots: &mut [Option<Item>],
        index: &mut HashMap<Key, usize>,
        has_parent: bool,
    ) {
        let usage = "write `without piece <letter>`, `without option <name>`, \
                     `without property <name>` or `without <rule-id>`";
        if stmt.block.is_some() {
            self.no_block(src, stmt);
        }
        let (key, value, what) = match stmt.values.as_slice() {
            [kind, v] if kind.text == "piece" => (Key::Piece(v.text.clone()), v, "piece"),
            [kind, v] if kind.text == "option" => (Key::Option(v.text.clone()), v, "option"),
            [kind, v] if kind.text == "property" => (Key::Property(v.text.clone()), v, "property"),
            [v] => (Key::Rule(v.text.clone()), v, "rule"),
            _ => {
                self.fail_help(
                    src,
                    stmt.span.clone(),
                    "`without` names one inherited piece, option or rule",
                    "here",
                    usage,
                );
                return;
            }
        };
        if !has_parent {
            self.error(
                src,
                Problem::new(
                    "`without` drops a part of the definition this one starts from, but it \
                     starts from none",
                    stmt.head.span.clone(),
                    "nothing to drop from",
                )
                .with_help("start from another definition with `from <name>` first"),
            );
            return;
        }
        if let Some(slot) = index.get(&key).and_then(|&k| slots.get_mut(k)) {
            if slot.take().is_some() {
                // The further statements of the rule go with it.
                if let Key::Rule(id) = &key {
                    for slot in slots.iter_mut() {
                        if matches!(slot.as_ref().map(|i| &i.key), Some(Key::More(m, _)) if m == id)
                        {
                            *slot = None;
                        }
                    }
                }
                return;
            }
        }
        if self.errors.len() >= MAX_ERRORS {
            return;
        }
        let known: Vec<String> = slots
            .iter()
            .flatten()
            .filter_map(|i| match (&i.key, what) {
                (Key::Piece(l), "piece")
                | (Key::Option(l), "option")
                | (Key::Property(l), "property") => Some(l.clone()),
                (Key::Rule(l), "rule") => Some(l.clone()),
                _ => None,
            })
            .collect();
        let mean = did_you_mean(&value.text, known.iter().map(String::as_str));
        self.error(
            src,
            Problem::new(
                format!(
                    "there is no inherited {what} `{}` to drop{mean}",
                    value.text
                ),
                value.span.clone(),
                "not inherited",
            )
            .with_help(format!("the inherited {what}s: {}", list(&known))),
        );
    }

    // ------------------------------------------------------------------------------------------
    // Resolution
    // ------------------------------------------------------------------------------------------

    fn resolve(&mut self, root: usize, layer: &Layer) -> Option<Definition> {
        let items = &layer.items;
        let find = |key: Key| items.iter().find(|i| i.key == key);
        let mut name = String::new();
        if let Some(item) = find(Key::Variant) {
            if let Some(v) = self.single_value(item.src, &item.stmt, "the variant's name") {
                self.check_name(item.src, v, "a variant name");
                name = v.text.clone();
            }
        }
        let text_of = |r: &mut Self, key: Key, what: &str| -> Option<String> {
            let item = find(key)?;
            r.single_value(item.src, &item.stmt, what)
                .map(|v| v.text.clone())
        };
        let title = text_of(self, Key::Title, "the title").unwrap_or_else(|| name.clone());
        let source = text_of(self, Key::Source, "where the rules come from").unwrap_or_default();
        let (files, ranks, geometry) = match find(Key::Board) {
            Some(item) => self.board(item)?,
            None => {
                self.error(
                    root,
                    Problem::new(
                        "the definition has no `board`",
                        0..0,
                        "expected `board <files>x<ranks>`",
                    )
                    .with_help("add a line such as `board 8x8` (1x1 to 16x16)"),
                );
                return None;
            }
        };
        let mut holes = Vec::new();
        for item in items.iter().filter(|i| i.key == Key::Holes) {
            self.holes(item, &geometry, &mut holes);
        }
        holes.sort();
        let mut pieces = Vec::new();
        for item in items.iter().filter(|i| matches!(i.key, Key::Piece(_))) {
            if let Some(p) = self.piece(item, &pieces) {
                pieces.push(p);
            }
        }
        let mut options = Vec::new();
        for item in items.iter().filter(|i| matches!(i.key, Key::Option(_))) {
            if let Some(o) = self.option(item) {
                options.push(o);
            }
        }
        let board = BoardInfo {
            files,
            ranks,
            geometry,
            holes: &holes,
            pieces: &pieces,
            options: &options,
            option_index: options
                .iter()
                .enumerate()
                .map(|(k, o)| (o.name.as_str(), k))
                .collect(),
        };
        let mut rules = Vec::new();
        for item in items {
            match &item.key {
                Key::Rule(_) => rules.extend(self.rules(item, &board)),
                Key::More(id, _) => {
                    self.continued = rules.iter().find(|r| r.id == *id).map(|r| r.clause.clone());
                    rules.extend(self.rules(item, &board));
                    self.continued = None;
                }
                Key::Other(..) => self.unknown_statement(item),
                _ => {}
            }
        }
        let mut words = Vec::new();
        for item in items.iter().filter(|i| matches!(i.key, Key::Words(_))) {
            if let Some(w) = self.words(item, &rules) {
                words.push(w);
            }
        }
        let mut properties = Vec::new();
        for item in items.iter().filter(|i| matches!(i.key, Key::Property(_))) {
            if let Some(p) = self.property(item, &board, &rules) {
                properties.push(p);
            }
        }
        let layout = match find(Key::Fen) {
            Some(item) => Some(self.layout(item, &rules)?),
            None => None,
        };
        let start = match find(Key::Start) {
            Some(item) => self.start(item, &geometry, &holes, &pieces, &rules, layout.as_deref()),
            None => {
                self.error(
                    root,
                    Problem::new(
                        "the definition has no `start` position",
                        0..0,
                        "expected `start \"<FEN>\"`",
                    ),
                );
                None
            }
        };
        let start = start?;
        Some(Definition {
            name,
            title,
            source,
            parent: layer.parent.clone(),
            files,
            ranks,
            geometry,
            holes,
            pieces,
            start,
            fen: layout,
            options,
            rules,
            words,
            properties,
        })
    }

    /// `property NAME "CLAUSE" { FORMULA... }`, read by [`super::property::read`] against the
    /// pieces, zones and state the definition has.
    fn property(
        &mut self,
        item: &Item,
        board: &BoardInfo,
        rules: &[Rule],
    ) -> Option<super::property::Property> {
        use super::property::read::{property, Context, Keeps};
        let has = |f: &dyn Fn(&Component) -> bool| rules.iter().any(|r| f(&r.component));
        let keeps = Keeps {
            prisoners: has(&|c| matches!(c, Component::Prisoners { .. })),
            infiltration_used: has(&|c| matches!(c, Component::Infiltration { once: true, .. })),
            castling: has(&|c| matches!(c, Component::Castling { .. })),
            retake: has(&|c| matches!(c, Component::Retake { .. })),
            check_count: has(&|c| matches!(c, Component::CheckCount { .. })),
            en_passant: has(&|c| matches!(c, Component::EnPassant { .. })),
            hand: rules.iter().any(|r| r.component.gives_hands()),
        };
        let src = item.src;
        let text = self.sources[src].text.clone();
        let ctx = Context {
            src: &text,
            geometry: &board.geometry,
            holes: board.holes,
            pieces: board.pieces,
            zones: &self.zones,
            keeps,
        };
        match property(&ctx, &item.stmt) {
            Ok(mut p) => {
                p.span = self.model_span(src, &item.stmt.span);
                Some(p)
            }
            Err(problems) => {
                for p in problems {
                    self.error(src, p);
                }
                None
            }
        }
    }

    /// `rule ID "CLAUSE" ["SOURCE"]`: the designer's words for a rule the engine applies to
    /// every game (or to every game with turns of two actions).
    fn words(&mut self, item: &Item, rules: &[Rule]) -> Option<Words> {
        let (src, stmt) = (item.src, &item.stmt);
        if stmt.block.is_some() {
            self.no_block(src, stmt);
            return None;
        }
        let usage = "write `rule <engine-rule-id> \"<clause>\"`, with a quoted source after the \
                     clause if need be";
        let (id, clause, source) = match stmt.values.as_slice() {
            [id, c] if !id.quoted && c.quoted => (id, c, None),
            [id, c, so] if !id.quoted && c.quoted && so.quoted => (id, c, Some(so)),
            _ => {
                self.fail_help(
                    src,
                    stmt.span.clone(),
                    "`rule` takes a rule id and a clause",
                    "here",
                    usage,
                );
                return None;
            }
        };
        let compound = rules.iter().any(|r| r.component.makes_two_action_turns());
        let known: Vec<&str> = ENGINE_RULES
            .iter()
            .copied()
            .filter(|r| *r != "action-by-action" || compound)
            .collect();
        if !known.contains(&id.text.as_str()) {
            let mean = did_you_mean(&id.text, known.iter().copied());
            self.fail_help(
                src,
                id.span.clone(),
                format!("`{}` is no rule of the engine's here{mean}", id.text),
                "not an engine rule",
                format!(
                    "a component's or a piece's clause is written with it; the engine's rules: {}",
                    known.join(", ")
                ),
            );
            return None;
        }
        Some(Words {
            id: id.text.clone(),
            clause: clause.text.clone(),
            source: source.map(|s| s.text.clone()),
        })
    }

    /// The `fen` statement: the fields of the definition's FENs, `placement` and `side`
    /// first, each named once, each kept by a component of the definition, and every state
    /// a component keeps among them.
    fn layout(&mut self, item: &Item, rules: &[Rule]) -> Option<Vec<Field>> {
        use super::layout::Field;
        let src = item.src;
        if item.stmt.block.is_some() {
            self.no_block(src, &item.stmt);
            return None;
        }
        let has = |f: &dyn Fn(&Component) -> bool| rules.iter().any(|r| f(&r.component));
        let kept = |f: Field| match f {
            Field::Placement | Field::Side | Field::HalfmoveClock | Field::FullmoveNumber => true,
            Field::Castling => has(&|c| matches!(c, Component::Castling { .. })),
            Field::EnPassant => has(&|c| matches!(c, Component::EnPassant { .. })),
            Field::CheckCount => has(&|c| matches!(c, Component::CheckCount { .. })),
            Field::Prisoners => has(&|c| matches!(c, Component::Prisoners { .. })),
            Field::Retake => has(&|c| matches!(c, Component::Retake { .. })),
            Field::InfiltrationUsed => {
                has(&|c| matches!(c, Component::Infiltration { once: true, .. }))
            }
        };
        let mut out: Vec<Field> = Vec::new();
        let mut ok = true;
        for v in &item.stmt.values {
            let Some(k) = self.choice(src, v, Field::WORDS) else {
                ok = false;
                continue;
            };
            let f = Field::ALL[k];
            let problem = if out.contains(&f) {
                Some(format!("the field `{}` is named twice", f.word()))
            } else if out.len() < 2 && f != [Field::Placement, Field::Side][out.len()] {
                // Once: the second field is out of place because the first was.
                (ok || out.is_empty())
                    .then(|| "a FEN starts with `placement`, then `side`".to_string())
            } else if !kept(f) {
                Some(format!(
                    "no component of this definition keeps `{}`, so its FEN has no such field",
                    f.word()
                ))
            } else {
                None
            };
            if let Some(p) = problem {
                self.fail(src, v.span.clone(), p, "here");
                ok = false;
            }
            out.push(f);
        }
        let prisoner_kinds: usize = rules
            .iter()
            .map(|r| match &r.component {
                Component::Prisoners { pieces, .. } => pieces.len(),
                _ => 0,
            })
            .sum();
        if out.contains(&Field::Prisoners) && prisoner_kinds > 1 {
            self.fail_help(
                src,
                item.stmt.span.clone(),
                "the `prisoners` field counts one kind, and this definition keeps several",
                "here",
                "leave `prisoners` out of the layout: the prisoners then stand in the pocket",
            );
            ok = false;
        }
        let missing: Vec<&str> = [
            Field::Castling,
            Field::EnPassant,
            Field::CheckCount,
            Field::Retake,
            Field::InfiltrationUsed,
        ]
        .into_iter()
        .filter(|&f| kept(f) && !out.contains(&f))
        .map(Field::word)
        .collect();
        if ok && !missing.is_empty() {
            self.fail_help(
                src,
                item.stmt.span.clone(),
                format!(
                    "the layout leaves out {}, which this definition keeps",
                    missing.join(", ")
                ),
                "here",
                "a FEN holds all of a position: add the fields",
            );
            ok = false;
        }
        if out.len() < 2 && ok {
            self.fail_help(
                src,
                item.stmt.span.clone(),
                "a FEN layout names at least `placement` and `side`",
                "here",
                "write `fen placement side ...`",
            );
            ok = false;
        }
        ok.then_some(out)
    }

    fn unknown_statement(&mut self, item: &Item) {
        let head = &item.stmt.head;
        let known = STATEMENTS.iter().chain(COMPONENTS).copied();
        let mean = did_you_mean(&head.text, known);
        let problem = if head.text == "piece" {
            Problem::new(
                "a piece needs a letter, a name and its move in Betza notation",
                item.stmt.span.clone(),
                "incomplete",
            )
            .with_help(PIECE_USAGE)
        } else if head.text == "option" {
            Problem::new(
                format!("`{}` needs a name after it", head.text),
                item.stmt.span.clone(),
                "incomplete",
            )
            .with_help(OPTION_USAGE)
        } else if let Some(owner) = setting_owner(&head.text) {
            Problem::new(
                format!(
                    "`{}` is a setting, not a statement: it goes in the block of {owner}",
                    head.text
                ),
                head.span.clone(),
                "a setting out of its block",
            )
            .with_help(format!(
                "write it inside `<component> {{ ... }}`; the components: {}",
                COMPONENTS.join(", ")
            ))
        } else {
            Problem::new(
                format!("unknown statement `{}`{mean}", head.text),
                head.span.clone(),
                "not a statement",
            )
            .with_help(format!(
                "the statements: {}; the components: {}",
                STATEMENTS.join(", "),
                COMPONENTS.join(", ")
            ))
        };
        self.error(item.src, problem);
    }

    /// The one value of a statement that takes one, or an error.
    fn single_value<'s>(
        &mut self,
        src: usize,
        stmt: &'s Statement,
        what: &str,
    ) -> Option<&'s SynValue> {
        if stmt.block.is_some() {
            self.no_block(src, stmt);
        }
        match stmt.values.as_slice() {
            [v] => Some(v),
            [] => {
                self.fail(
                    src,
                    stmt.head.span.clone(),
                    format!("`{}` needs a value: {what}", stmt.head.text),
                    "value missing",
                );
                None
            }
            [_, extra, ..] => {
                let quote = if stmt.values.iter().any(|v| !v.quoted)
                    && matches!(stmt.head.text.as_str(), "title" | "source" | "clause")
                {
                    "; a text of several words is quoted: \"...\""
                } else {
                    ""
                };
                self.fail(
                    src,
                    extra.span.start..stmt.values.last().map_or(extra.span.end, |v| v.span.end),
                    format!("`{}` takes one value: {what}{quote}", stmt.head.text),
                    "one value too many",
                );
                None
            }
        }
    }

    fn no_block(&mut self, src: usize, stmt: &Statement) {
        if let Some(block) = &stmt.block {
            self.fail(
                src,
                block.span.start..block.span.start + 1,
                format!("`{}` takes no block", stmt.head.text),
                "no block expected",
            );
        }
    }

    /// Names that scenario files and the command line write: `[a-z][a-z0-9-]*`.
    fn check_name(&mut self, src: usize, v: &SynValue, what: &str) -> bool {
        let ok = v
            .text
            .starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
            && v.text
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !ok {
            self.fail_help(
                src,
                v.span.clone(),
                format!("`{}` is not {what}", v.text),
                "not a name",
                "names are written in small letters, digits and `-`, starting with a \
                     letter or a digit (`grand-chess`, `3check`)",
            );
        }
        ok
    }

    /// `board FILESxRANKS`, maybe with a block naming the squares: the size and the names.
    fn board(&mut self, item: &Item) -> Option<(u8, u8, Geometry)> {
        // The block holds the names (read below), so the size is read without it.
        let size_only = Statement {
            block: None,
            ..item.stmt.clone()
        };
        let v = self.single_value(item.src, &size_only, "the size, `<files>x<ranks>`")?;
        let size = v.text.split_once('x').and_then(|(f, r)| {
            let digits =
                |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
            (digits(f) && digits(r) && !v.quoted)
                .then(|| (f.parse::<u32>().ok(), r.parse::<u32>().ok()))
        });
        match size {
            Some((Some(f), Some(r)))
                if (1..=u32::from(MAX_BOARD_SIDE)).contains(&f)
                    && (1..=u32::from(MAX_BOARD_SIDE)).contains(&r) =>
            {
                let (files, ranks) = (f as u8, r as u8);
                let geometry =
                    self.coordinates(item.src, item.stmt.block.as_ref(), files, ranks)?;
                Some((files, ranks, geometry))
            }
            Some(_) => {
                self.error(
                    item.src,
                    Problem::new(
                        format!(
                            "board {} is out of range: boards are 1x1 to {MAX_BOARD_SIDE}x{MAX_BOARD_SIDE}",
                            v.text
                        ),
                        v.span.clone(),
                        "out of range",
                    ),
                );
                None
            }
            None => {
                self.error(
                    item.src,
                    Problem::new(
                        format!(
                            "expected a board size `<files>x<ranks>`, found `{}`",
                            v.text
                        ),
                        v.span.clone(),
                        "not a size",
                    )
                    .with_help("write it as files x ranks, as in `board 10x8`"),
                );
                None
            }
        }
    }

    /// A square's name on this board (`e4`, `j10`, `z0` under its own names), or an error.
    fn square(&mut self, src: usize, v: &SynValue, g: &Geometry) -> Option<Cell> {
        let cell = if v.quoted {
            None
        } else {
            Cell::named(g, &v.text)
        };
        if cell.is_none() {
            self.fail_help(
                src,
                v.span.clone(),
                format!(
                    "`{}` is not a square of this {}x{} board",
                    v.text, g.files, g.ranks
                ),
                "not a square",
                format!(
                    "a square is {}, as in `{}`",
                    places(g),
                    Cell { file: 0, rank: 0 }.name(g)
                ),
            );
        }
        cell
    }

    /// The `files` and `first-rank` of a `board` block: the names of the board's files, left
    /// to right, and the number of its first rank. Without them, files are `a`, `b`, ... and
    /// ranks count from 1. `None` after an error: the rest of the definition would be read
    /// by names it does not mean, each of its squares a second, misleading error.
    fn coordinates(
        &mut self,
        src: usize,
        block: Option<&syntax::Block>,
        files: u8,
        ranks: u8,
    ) -> Option<Geometry> {
        let lettered = Geometry::lettered(files, ranks);
        let Some(block) = block else {
            return Some(lettered);
        };
        let mut labels = lettered.file_labels();
        let mut first_rank = 1;
        let mut broken = false;
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for st in &block.statements {
            let head = st.head.text.as_str();
            if !BOARD_SETTINGS.contains(&head) {
                let mean = did_you_mean(head, BOARD_SETTINGS.iter().copied());
                self.fail_help(
                    src,
                    st.head.span.clone(),
                    format!("unknown setting `{head}` of `board`{mean}"),
                    "not a setting here",
                    "a `board` block names the squares: `files` (a small letter for each \
                     file, left to right) and `first-rank` (the number of the first rank)",
                );
                broken = true;
                continue;
            }
            if let Some(&(_, first)) = seen.iter().find(|(h, _)| *h == head) {
                let at = self.at(src, first);
                self.fail(
                    src,
                    st.head.span.clone(),
                    format!("`{head}` is given twice (first at {at})"),
                    "given again",
                );
                broken = true;
                continue;
            }
            seen.push((head, st.span.start));
            if st.block.is_some() {
                self.no_block(src, st);
                broken = true;
            }
            if head == "first-rank" {
                // One digit (boards in use start at 0 or 1): every rank's name stays at most
                // two digits even on 16 ranks, as squares in turns and FENs are read.
                let n = self
                    .single_value(src, st, "the number of the first rank, 0 to 9")
                    .and_then(|v| self.number(src, v, 0, 9));
                match n {
                    Some(n) => first_rank = n as u8,
                    None => broken = true,
                }
                continue;
            }
            match self.file_labels(src, st, files, ranks) {
                Some(table) => labels = table,
                None => broken = true,
            }
        }
        (!broken).then(|| Geometry::labelled(labels, ranks, first_rank))
    }

    /// `files z a b ...`: one small letter for each file, all different, or an error.
    fn file_labels(
        &mut self,
        src: usize,
        st: &Statement,
        files: u8,
        ranks: u8,
    ) -> Option<&'static [&'static str]> {
        let why = "a square is written as its file's label then its rank's number (`z0`, \
                   `e4`), so each label is one small letter `a` to `z`, each file has its \
                   own, and every file has one";
        if st.values.is_empty() {
            self.fail_help(
                src,
                st.head.span.clone(),
                format!(
                    "`files` needs a label for each of the board's {files} files, left to right"
                ),
                "labels missing",
                why,
            );
            return None;
        }
        let mut ok = true;
        for (k, v) in st.values.iter().enumerate() {
            let letter =
                !v.quoted && v.text.len() == 1 && v.text.bytes().all(|b| b.is_ascii_lowercase());
            if !letter {
                self.fail_help(
                    src,
                    v.span.clone(),
                    format!(
                        "`{}` is not a file label: a label is one small letter `a` to `z`",
                        v.text
                    ),
                    "not a label",
                    why,
                );
                ok = false;
            } else if let Some(j) = st.values[..k].iter().position(|w| w.text == v.text) {
                self.fail_help(
                    src,
                    v.span.clone(),
                    format!(
                        "file label `{}` is given twice (files {} and {} from the left)",
                        v.text,
                        j + 1,
                        k + 1
                    ),
                    "given again",
                    why,
                );
                ok = false;
            }
        }
        if st.values.len() != usize::from(files) {
            let n = st.values.len();
            let span = st.values[0].span.start..st.values[n - 1].span.end;
            self.fail_help(
                src,
                span,
                format!(
                    "`files` gives {n} label{}, but the board ({files}x{ranks}) has {files} files",
                    if n == 1 { "" } else { "s" }
                ),
                format!("{n} label{}", if n == 1 { "" } else { "s" }),
                why,
            );
            return None;
        }
        if !ok {
            return None;
        }
        let letters: String = st.values.iter().map(|v| v.text.as_str()).collect();
        crate::rules::board::file_labels(&letters)
    }

    fn holes(&mut self, item: &Item, g: &Geometry, holes: &mut Vec<Cell>) {
        if item.stmt.block.is_some() {
            self.no_block(item.src, &item.stmt);
        }
        if item.stmt.values.is_empty() {
            self.error(
                item.src,
                Problem::new(
                    "`holes` needs the squares that are not part of the board",
                    item.stmt.head.span.clone(),
                    "squares missing",
                ),
            );
        }
        for v in &item.stmt.values {
            if let Some(cell) = self.square(item.src, v, g) {
                if holes.contains(&cell) {
                    self.error(
                        item.src,
                        Problem::new(
                            format!("hole {} is given twice", v.text),
                            v.span.clone(),
                            "given again",
                        ),
                    );
                } else {
                    holes.push(cell);
                }
            }
        }
    }

    fn piece(&mut self, item: &Item, earlier: &[PieceDef]) -> Option<PieceDef> {
        let (src, stmt) = (item.src, &item.stmt);
        if stmt.block.is_some() {
            self.no_block(src, stmt);
        }
        let values = &stmt.values;
        if values.len() < 3 || values[..3].iter().any(|v| v.quoted) {
            self.fail_help(
                src,
                stmt.span.clone(),
                "a piece needs a letter, a name and its move in Betza notation",
                "incomplete",
                PIECE_USAGE,
            );
            return None;
        }
        let mut ok = true;
        let lv = &values[0];
        let mut chars = lv.text.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            (Some(c), None) if c.is_ascii_lowercase() => {
                self.error(
                    src,
                    Problem::new(
                        format!(
                            "piece letters are capitals: `{}` (the FEN writes Black's in small \
                             letters)",
                            c.to_ascii_uppercase()
                        ),
                        lv.span.clone(),
                        "small letter",
                    ),
                );
                return None;
            }
            _ => {
                self.error(
                    src,
                    Problem::new(
                        format!(
                            "a piece letter is one capital letter A to Z, not `{}`",
                            lv.text
                        ),
                        lv.span.clone(),
                        "not a letter",
                    )
                    .with_help(PIECE_USAGE),
                );
                return None;
            }
        };
        let nv = &values[1];
        ok &= self.check_name(src, nv, "a piece name");
        if let Some(other) = earlier.iter().find(|p| p.name == nv.text) {
            self.error(
                src,
                Problem::new(
                    format!(
                        "piece name `{}` is used twice (first for `{}`)",
                        nv.text, other.letter
                    ),
                    nv.span.clone(),
                    "used again",
                )
                .with_help(
                    "each kind has a name of its own: its movement's rule id is `<name>-move`",
                ),
            );
            ok = false;
        }
        let bv = &values[2];
        let design = match Design::parse(&bv.text) {
            Ok(d) => Some(d),
            // Not Betza (`o` and `e` are no letters of it): a piece that never moves.
            Err(_) if bv.text == IMMOBILE => Some(Design::immobile()),
            Err(e) => {
                let at = bv.span.start + e.offset().min(bv.text.len());
                let end = at
                    + bv.text[e.offset().min(bv.text.len())..]
                        .chars()
                        .next()
                        .map_or(0, char::len_utf8);
                self.error(
                    src,
                    Problem::new(
                        format!(
                            "the move `{}` does not read as Betza notation: {e}",
                            bv.text
                        ),
                        at..end.max(at + 1).min(bv.span.end.max(at + 1)),
                        "here",
                    )
                    .with_help(
                        "see docs/defining-variants.md for the Betza notation arbiter reads; \
                         `none` is a piece that never moves",
                    ),
                );
                None
            }
        };
        let (mut royal, mut pawn) = (false, false);
        let (mut clause, mut capture) = (None::<&SynValue>, None::<&SynValue>);
        // `as RULE-ID`: its movement's rule id, in place of `<name>-move`. A wrong one is
        // reported, and the letter still stands for a piece, so the lines that name it are
        // not reported as naming no piece.
        let mut rule = None;
        let mut rest: Vec<&SynValue> = values[3..].iter().collect();
        if let Some(at) = rest.iter().position(|v| v.text == "as" && !v.quoted) {
            match rest.get(at + 1) {
                Some(id) if !id.quoted => {
                    if self.check_name(src, id, "a rule id") {
                        rule = Some(id.text.clone());
                    }
                }
                _ => {
                    self.fail_help(
                        src,
                        rest[at].span.clone(),
                        "`as` names the rule id of the piece's movement",
                        "id missing",
                        "as in `piece N knight N as knight-field \"...\"`",
                    );
                }
            }
            rest.drain(at..(at + 2).min(rest.len()));
        }
        for v in rest {
            if let Some(c) = capture.or(clause.filter(|_| !v.quoted)) {
                self.error(
                    src,
                    Problem::new(
                        if capture.is_some() {
                            "the piece's clauses end its line: one for its moves, one for its \
                             captures"
                        } else {
                            "the piece's clause ends its line"
                        },
                        v.span.clone(),
                        "after the clause",
                    )
                    .with_help(format!("the clause is at {}", self.at(src, c.span.start))),
                );
                ok = false;
                continue;
            }
            if v.quoted {
                match clause {
                    None => clause = Some(v),
                    Some(_) => capture = Some(v),
                }
                continue;
            }
            let flag = match v.text.as_str() {
                "royal" => &mut royal,
                "pawn" => &mut pawn,
                other => {
                    let mean = did_you_mean(other, ["royal", "pawn"]);
                    self.fail_help(
                        src,
                        v.span.clone(),
                        format!("unknown piece flag `{other}`{mean}"),
                        "not a flag",
                        "after the move come `royal`, `pawn`, then the clause in quotes",
                    );
                    ok = false;
                    continue;
                }
            };
            if *flag {
                self.fail(
                    src,
                    v.span.clone(),
                    format!("`{}` is given twice", v.text),
                    "given again",
                );
            }
            *flag = true;
        }
        // A move that does not read is reported above; the letter still stands for a piece,
        // so the lines that name it are not reported as naming no piece.
        let design = design.unwrap_or_else(Design::immobile);
        ok.then(|| PieceDef {
            letter,
            name: nv.text.clone(),
            betza: bv.text.clone(),
            design,
            royal,
            pawn,
            clause: clause.map(|c| c.text.clone()).unwrap_or_default(),
            capture_clause: capture.map(|c| c.text.clone()),
            rule,
            span: self.model_span(src, &stmt.span),
        })
    }

    fn option(&mut self, item: &Item) -> Option<OptionDecl> {
        let (src, stmt) = (item.src, &item.stmt);
        let nv = &stmt.values[0];
        self.check_name(src, nv, "an option name");
        if let Some(extra) = stmt.values.get(1) {
            self.fail_help(
                src,
                extra.span.clone(),
                "an option's settings go in its block, one a line",
                "not expected here",
                OPTION_USAGE,
            );
        }
        let Some(block) = &stmt.block else {
            self.fail_help(
                src,
                stmt.span.clone(),
                format!("option `{}` needs a block with its values", nv.text),
                "block missing",
                OPTION_USAGE,
            );
            return None;
        };
        let mut values: Option<(Vec<String>, &Statement)> = None;
        let mut default: Option<&SynValue> = None;
        let mut reason: Option<String> = None;
        let mut seen: Vec<(&str, usize)> = Vec::new();
        // A misspelt setting is reported once, not also as missing.
        let mut misspelt = false;
        for s in &block.statements {
            let head = s.head.text.as_str();
            if !OPTION_SETTINGS.contains(&head) {
                let mean = did_you_mean(head, OPTION_SETTINGS.iter().copied());
                self.fail_help(
                    src,
                    s.head.span.clone(),
                    format!("unknown option setting `{head}`{mean}"),
                    "not a setting",
                    format!("an option's settings: {}", OPTION_SETTINGS.join(", ")),
                );
                misspelt = true;
                continue;
            }
            if let Some(&(_, first)) = seen.iter().find(|(h, _)| *h == head) {
                let at = self.at(src, first);
                self.fail(
                    src,
                    s.head.span.clone(),
                    format!("`{head}` is given twice (first at {at})"),
                    "given again",
                );
                continue;
            }
            seen.push((head, s.span.start));
            if s.block.is_some() {
                self.no_block(src, s);
            }
            match head {
                "values" => {
                    let mut list: Vec<String> = Vec::new();
                    let mut listed: HashSet<&str> = HashSet::new();
                    for v in &s.values {
                        if !listed.insert(v.text.as_str()) {
                            self.fail(
                                src,
                                v.span.clone(),
                                format!("value `{}` is given twice", v.text),
                                "given again",
                            );
                        } else {
                            list.push(v.text.clone());
                        }
                    }
                    if list.is_empty() {
                        self.fail(
                            src,
                            s.head.span.clone(),
                            "`values` needs the values the option may take",
                            "values missing",
                        );
                    }
                    values = Some((list, s));
                }
                "default" => default = self.single_value(src, s, "one of the option's values"),
                _ => {
                    reason = self
                        .single_value(src, s, "why the rules leave this open, in quotes")
                        .map(|v| v.text.clone())
                }
            }
        }
        for (setting, given) in [
            ("values", values.is_some()),
            (
                "default",
                default.is_some() || seen.iter().any(|s| s.0 == "default"),
            ),
            (
                "reason",
                reason.is_some() || seen.iter().any(|s| s.0 == "reason"),
            ),
        ] {
            if !given && !misspelt {
                self.fail_help(
                    src,
                    stmt.head.span.start..nv.span.end,
                    format!("option `{}` needs `{setting}`", nv.text),
                    format!("`{setting}` missing"),
                    OPTION_USAGE,
                );
            }
        }
        // A broken option is still declared, so that `when` lines naming it are not reported
        // as well (the definition fails on the error reported here).
        let (values, _) = values?;
        let Some(default) = default else {
            return Some(OptionDecl {
                name: nv.text.clone(),
                // `values` with no value is reported above; the option still stands.
                default: values.first().cloned().unwrap_or_default(),
                values,
                reason: reason.unwrap_or_default(),
                span: self.model_span(src, &stmt.span),
            });
        };
        if !values.contains(&default.text) {
            let mean = did_you_mean(&default.text, values.iter().map(String::as_str));
            self.error(
                src,
                Problem::new(
                    format!(
                        "the default `{}` is not among the option's values{mean}",
                        default.text
                    ),
                    default.span.clone(),
                    "not a value",
                )
                .with_help(format!("the values: {}", values.join(", "))),
            );
        }
        Some(OptionDecl {
            name: nv.text.clone(),
            values,
            default: default.text.clone(),
            reason: reason.unwrap_or_default(),
            span: self.model_span(src, &stmt.span),
        })
    }

    fn start(
        &mut self,
        item: &Item,
        geometry: &Geometry,
        holes: &[Cell],
        pieces: &[PieceDef],
        rules: &[Rule],
        layout: Option<&[Field]>,
    ) -> Option<String> {
        let blockers = rules
            .iter()
            .any(|r| matches!(r.component, Component::Blocker { .. }));
        let v = self.single_value(
            item.src,
            &item.stmt,
            "the start position as a FEN, in quotes",
        )?;
        let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
        let (promoted, pockets) = hand_shape(rules);
        let shape = fen::Shape {
            files: geometry.files,
            ranks: geometry.ranks,
            names: Some(*geometry),
            holes,
            letters: &letters,
            promoted: &promoted,
            pockets,
            blockers,
        };
        let kept = rules.iter().find_map(|r| match &r.component {
            Component::Prisoners { pieces, .. } if pieces.len() == 1 => Some(pieces[0]),
            _ => None,
        });
        let read = match layout {
            Some(l) => super::layout::standard(&v.text, l, kept)
                .and_then(|s| fen::parse(&s.text, &shape).map_err(|e| s.locate(e))),
            None => fen::parse(&v.text, &shape),
        };
        match read {
            Ok(_) => Some(v.text.clone()),
            Err(e) => {
                let text = self.text(item.src);
                let start = v.offset_of(text, e.column);
                let end = v.offset_of(text, e.column + e.width).max(start + 1);
                self.error(
                    item.src,
                    Problem::new(
                        format!("the start position does not fit the board: {}", e.message),
                        start..end.min(v.span.end),
                        "here",
                    ),
                );
                None
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // Components
    // ------------------------------------------------------------------------------------------

    /// A component statement as rules: one, or, when setting lines end with `when OPTION
    /// VALUE`, one per reading of those options, each applying under its reading (`when`
    /// added) with the lines of that reading in place of the unconditional ones. They share
    /// the id: to the catalogue and every verdict they are one rule.
    fn rules(&mut self, item: &Item, board: &BoardInfo) -> Vec<Rule> {
        let Some(block) = &item.stmt.block else {
            return self.rule(item, board, None, &[]).into_iter().collect();
        };
        let src = item.src;
        // The conditional lines, as (statement index, option, value), after checking each.
        let mut conditional: Vec<(usize, String, String)> = Vec::new();
        let mut broken = false;
        for (k, st) in block.statements.iter().enumerate() {
            let Some(at) = st.values.iter().position(|v| v.text == "when" && !v.quoted) else {
                continue;
            };
            let head = st.head.text.as_str();
            if head == "when" {
                continue;
            }
            let usage = "end a setting line with `when <option> <value>`, as in `effect loss when \
                         reading loses`";
            let rest = &st.values[at + 1..];
            if matches!(head, "id" | "clause" | "source") || at == 0 || rest.len() != 2 {
                let message = if matches!(head, "id" | "clause" | "source") {
                    format!("`{head}` is the same under every reading: it takes no `when`")
                } else {
                    "`when` at the end of a setting names an option and one of its values, after \
                     the setting's own values"
                        .to_string()
                };
                self.fail_help(src, st.values[at].span.clone(), message, "here", usage);
                broken = true;
                continue;
            }
            let (o, v) = (&rest[0], &rest[1]);
            match board
                .option_index
                .get(o.text.as_str())
                .map(|&i| &board.options[i])
            {
                None => {
                    let mean = did_you_mean(&o.text, board.options.iter().map(|o| o.name.as_str()));
                    let names: Vec<String> = board.options.iter().map(|o| o.name.clone()).collect();
                    self.fail_help(
                        src,
                        o.span.clone(),
                        format!("`when` names an unknown option `{}`{mean}", o.text),
                        "not an option",
                        format!("the options declared: {}", list(&names)),
                    );
                    broken = true;
                }
                Some(opt) if !opt.values.contains(&v.text) => {
                    let mean = did_you_mean(&v.text, opt.values.iter().map(String::as_str));
                    self.fail_help(
                        src,
                        v.span.clone(),
                        format!("option `{}` has no value `{}`{mean}", o.text, v.text),
                        "not a value",
                        format!("its values: {}", opt.values.join(", ")),
                    );
                    broken = true;
                }
                Some(_) => conditional.push((k, o.text.clone(), v.text.clone())),
            }
        }
        if broken {
            return Vec::new();
        }
        if conditional.is_empty() {
            return self.rule(item, board, None, &[]).into_iter().collect();
        }
        // Every reading of the options named, the default reading first.
        let mut names: Vec<&str> = conditional.iter().map(|(_, o, _)| o.as_str()).collect();
        names.dedup();
        names.sort();
        names.dedup();
        let decls: Vec<&OptionDecl> = names
            .iter()
            .map(|n| &board.options[board.option_index[n]])
            .collect();
        let mut readings: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for d in &decls {
            let values =
                std::iter::once(&d.default).chain(d.values.iter().filter(|v| **v != d.default));
            let values: Vec<&String> = values.collect();
            readings = readings
                .into_iter()
                .flat_map(|r| {
                    values.iter().map(move |v| {
                        let mut r = r.clone();
                        r.push((d.name.clone(), (*v).clone()));
                        r
                    })
                })
                .collect();
        }
        // A reading the component's own `when` lines exclude makes no rule.
        let own: Vec<(&str, &str)> = block
            .statements
            .iter()
            .filter(|st| st.head.text == "when" && st.values.len() == 2)
            .map(|st| (st.values[0].text.as_str(), st.values[1].text.as_str()))
            .collect();
        readings.retain(|r| {
            r.iter()
                .all(|(o, v)| own.iter().all(|(wo, wv)| wo != o || wv == v))
        });
        let mut out = Vec::new();
        for reading in readings {
            let holds = |o: &str, v: &str| reading.iter().any(|(n, w)| n == o && w == v);
            // The heads a line of this reading replaces.
            let replaced: Vec<&str> = conditional
                .iter()
                .filter(|(_, o, v)| holds(o, v))
                .map(|(k, _, _)| block.statements[*k].head.text.as_str())
                .collect();
            let statements: Vec<Statement> = block
                .statements
                .iter()
                .enumerate()
                .filter_map(
                    |(k, st)| match conditional.iter().find(|(i, _, _)| *i == k) {
                        Some((_, o, v)) if holds(o, v) => {
                            let mut st = st.clone();
                            let at = st.values.len() - 3;
                            st.values.truncate(at);
                            Some(st)
                        }
                        Some(_) => None,
                        None if replaced.contains(&st.head.text.as_str()) => None,
                        None => Some(st.clone()),
                    },
                )
                .collect();
            match self.rule(item, board, Some(&statements), &reading) {
                Some(rule) => out.push(rule),
                None => return Vec::new(),
            }
        }
        out
    }

    fn rule(
        &mut self,
        item: &Item,
        board: &BoardInfo,
        statements: Option<&[Statement]>,
        reading: &[(String, String)],
    ) -> Option<Rule> {
        let (src, stmt) = (item.src, &item.stmt);
        let kind = stmt.head.text.as_str();
        if let Some(v) = stmt.values.first() {
            self.fail_help(
                src,
                v.span.clone(),
                format!("`{kind}` takes no values: its settings go in its block"),
                "not expected here",
                format!("write `{kind} {{`, then one setting a line, then `}}`"),
            );
        }
        let Some(block) = &stmt.block else {
            self.fail_help(
                src,
                stmt.head.span.clone(),
                format!("`{kind}` needs a block with its settings, at least its `clause`"),
                "block missing",
                format!(
                    "write `{kind} {{`, then `clause \"...\"` and its other settings, one a \
                     line, then `}}`"
                ),
            );
            return None;
        };
        let allowed = component_settings(kind);
        let mut s = Settings {
            kind: kind.to_string(),
            ..Settings::default()
        };
        let mut seen: Vec<(&str, usize)> = Vec::new();
        for setting in statements.unwrap_or(&block.statements) {
            let head = setting.head.text.as_str();
            let known = COMMON_SETTINGS.contains(&head) || allowed.contains(&head);
            if !known {
                self.unknown_setting(src, kind, setting);
                s.broken = true;
                s.misspelt = true;
                continue;
            }
            let repeatable = matches!(head, "when" | "part") || REGION_SIDES.contains(&head);
            if !repeatable {
                if let Some(&(_, first)) = seen.iter().find(|(h, _)| *h == head) {
                    let at = self.at(src, first);
                    self.fail(
                        src,
                        setting.head.span.clone(),
                        format!("`{head}` is given twice (first at {at})"),
                        "given again",
                    );
                    s.broken = true;
                    continue;
                }
                seen.push((head, setting.span.start));
            }
            if setting.block.is_some() {
                self.no_block(src, setting);
                s.broken = true;
            }
            s.given.push(head.to_string());
            if head == "part" {
                self.part(src, setting, kind, &mut s);
                continue;
            }
            self.setting(src, setting, board, &mut s);
        }
        let span = self.model_span(src, &stmt.span);
        let id = s.id.clone().unwrap_or_else(|| kind.to_string());
        let Some(clause) = s.clause.clone().or_else(|| self.continued.clone()) else {
            if s.misspelt {
                return None;
            }
            self.fail_help(
                src,
                stmt.head.span.clone(),
                format!("`{kind}` needs a `clause`: the designer's words for the rule"),
                "clause missing",
                "add a line `clause \"...\"` to its block",
            );
            return None;
        };
        for (option, value, ospan, vspan) in s.when_raw.clone() {
            match board
                .option_index
                .get(option.as_str())
                .map(|&k| &board.options[k])
            {
                None => {
                    let mean = did_you_mean(&option, board.options.iter().map(|o| o.name.as_str()));
                    let names: Vec<String> = board.options.iter().map(|o| o.name.clone()).collect();
                    self.fail_help(
                        src,
                        ospan,
                        format!("`when` names an unknown option `{option}`{mean}"),
                        "not an option",
                        format!("the options declared: {}", list(&names)),
                    );
                    s.broken = true;
                }
                Some(o) if !o.values.contains(&value) => {
                    let mean = did_you_mean(&value, o.values.iter().map(String::as_str));
                    self.fail_help(
                        src,
                        vspan,
                        format!("option `{option}` has no value `{value}`{mean}"),
                        "not a value",
                        format!("its values: {}", o.values.join(", ")),
                    );
                    s.broken = true;
                }
                Some(_) => s.when.push((option, value)),
            }
        }
        for (option, value) in reading {
            if !s.when.iter().any(|(o, _)| o == option) {
                s.when.push((option.clone(), value.clone()));
            }
        }
        let component = self.component(src, stmt, kind, &mut s, board)?;
        if s.broken {
            return None;
        }
        Some(Rule {
            id,
            clause,
            source: s
                .source
                .clone()
                .unwrap_or_else(|| self.layer_source[src].clone()),
            when: s.when.clone(),
            component,
            parts: s.parts.clone(),
            span,
        })
    }

    /// `part NAME "clause" ["source"]`: words of their own for a part of the component,
    /// which the catalogue lists as the rule `<id>-<NAME>`.
    fn part(&mut self, src: usize, st: &Statement, kind: &str, s: &mut Settings) {
        let names = component_parts(kind);
        let usage = "write `part <name> \"<clause>\"`, with `as <rule-id>` after the name to give \
                     the part an id of its own and a quoted source after the clause if need be";
        let (name, id, clause, source) = match st.values.as_slice() {
            [n, a, id, c] if a.text == "as" && !a.quoted && c.quoted => (n, Some(id), c, None),
            [n, a, id, c, so] if a.text == "as" && !a.quoted && c.quoted && so.quoted => {
                (n, Some(id), c, Some(so))
            }
            [n, c] if c.quoted => (n, None, c, None),
            [n, c, so] if c.quoted && so.quoted => (n, None, c, Some(so)),
            _ => {
                self.fail_help(
                    src,
                    st.span.clone(),
                    "`part` takes a name and a clause",
                    "here",
                    usage,
                );
                s.broken = true;
                return;
            }
        };
        if self.choice(src, name, names).is_none() {
            s.broken = true;
            return;
        }
        if s.parts.iter().any(|p| p.name == name.text) {
            self.fail(
                src,
                name.span.clone(),
                format!("the part `{}` is given twice", name.text),
                "again",
            );
            s.broken = true;
            return;
        }
        if let Some(id) = id {
            if !self.check_name(src, id, "a rule id") {
                s.broken = true;
                return;
            }
        }
        s.parts.push(Part {
            name: name.text.clone(),
            id: id.map(|v| v.text.clone()),
            clause: clause.text.clone(),
            source: source.map(|v| v.text.clone()),
        });
    }

    fn unknown_setting(&mut self, src: usize, kind: &str, setting: &Statement) {
        let head = setting.head.text.as_str();
        let allowed: Vec<&str> = COMMON_SETTINGS
            .iter()
            .chain(component_settings(kind))
            .copied()
            .collect();
        let elsewhere = COMPONENTS
            .iter()
            .filter(|c| component_settings(c).contains(&head))
            .map(|c| format!("`{c}`"))
            .collect::<Vec<_>>();
        if STATEMENTS.contains(&head) || COMPONENTS.contains(&head) {
            self.fail_help(
                src,
                setting.head.span.clone(),
                format!("`{head}` is a top-level statement, not a setting of `{kind}`"),
                "inside a block",
                format!(
                    "close the block of `{kind}` with `}}` before it; the settings of `{kind}`: {}",
                    allowed.join(", ")
                ),
            );
            return;
        }
        let message = if elsewhere.is_empty() {
            let mean = did_you_mean(head, allowed.iter().copied());
            format!("unknown setting `{head}` of `{kind}`{mean}")
        } else {
            format!(
                "`{head}` is not a setting of `{kind}` (it is one of {})",
                elsewhere.join(", ")
            )
        };
        self.error(
            src,
            Problem::new(message, setting.head.span.clone(), "not a setting here")
                .with_help(format!("the settings of `{kind}`: {}", allowed.join(", "))),
        );
    }

    /// Reads one setting into `s`.
    fn setting(&mut self, src: usize, st: &Statement, board: &BoardInfo, s: &mut Settings) {
        let head = st.head.text.as_str();
        match head {
            "id" => {
                if let Some(v) = self.single_value(src, st, "the rule id") {
                    if self.check_name(src, v, "a rule id") {
                        s.id = Some(v.text.clone());
                    } else {
                        s.broken = true;
                    }
                }
            }
            "clause" => {
                s.clause = self
                    .single_value(src, st, "the designer's words for the rule, in quotes")
                    .map(|v| v.text.clone())
            }
            "source" => {
                s.source = self
                    .single_value(src, st, "where the rule comes from, in quotes")
                    .map(|v| v.text.clone())
            }
            "when" => match st.values.as_slice() {
                [o, v] => s.when_raw.push((
                    o.text.clone(),
                    v.text.clone(),
                    o.span.clone(),
                    v.span.clone(),
                )),
                _ => {
                    self.fail_help(
                        src,
                        st.span.clone(),
                        "`when` takes an option and one of its values",
                        "here",
                        "write `when <option> <value>`; repeat the line for more",
                    );
                    s.broken = true;
                }
            },
            list if LETTER_LISTS.contains(&list) => {
                let invented = INVENTED_IN.contains(&(s.kind.as_str(), list));
                let letters = self.letters(src, st, board.pieces, invented);
                match letters {
                    Some(l) => {
                        let slot = match head {
                            "pieces" => &mut s.pieces,
                            "into" => &mut s.into,
                            "rooks" => &mut s.rooks,
                            "white-into" => &mut s.white_into,
                            "black-into" => &mut s.black_into,
                            "lost-on-line" => &mut s.lost_on_line,
                            "alone" => &mut s.alone,
                            "colour-bound" => &mut s.colour_bound,
                            "opposite-colours" => &mut s.opposite_colours,
                            "by" => &mut s.by,
                            "beside" | "facing" => &mut s.beside,
                            "opened-by" => &mut s.opened_by,
                            "except-beside" => &mut s.except_beside,
                            "takes" => &mut s.takes,
                            "ranking" => &mut s.ranking,
                            "bare" => &mut s.bare,
                            _ => &mut s.immune,
                        };
                        *slot = Some(l);
                    }
                    None => s.broken = true,
                }
            }
            "letter" => match self.single_value(src, st, "the blocker's capital letter") {
                Some(v) => match self.blocker_letter(src, v, board.pieces) {
                    Some(l) => s.blocker_letter = Some(l),
                    None => s.broken = true,
                },
                None => s.broken = true,
            },
            "name" => match self.single_value(src, st, "the name") {
                Some(v) if self.check_name(src, v, "a name") => s.name = Some(v.text.clone()),
                _ => s.broken = true,
            },
            "king" => match self.single_value(src, st, "the royal piece that castles") {
                Some(v) => match self.letter(src, v, board.pieces) {
                    Some(l) => s.king = Some(l),
                    None => s.broken = true,
                },
                None => s.broken = true,
            },
            "king-to" | "rook-to" | "rooks-from" => match st.values.as_slice() {
                [q, k] => {
                    let q = self.file(src, q, &board.geometry);
                    let k = self.file(src, k, &board.geometry);
                    match (q, k) {
                        (Some(q), Some(k)) => {
                            if head == "king-to" {
                                s.king_to = Some([q, k]);
                            } else if head == "rook-to" {
                                s.rook_to = Some([q, k]);
                            } else {
                                s.rooks_from = Some([q, k]);
                            }
                        }
                        _ => s.broken = true,
                    }
                }
                _ => {
                    self.fail_help(
                        src,
                        st.span.clone(),
                        format!("`{head}` takes two files: queenside, then kingside"),
                        "here",
                        format!("as in `{head} c g`"),
                    );
                    s.broken = true;
                }
            },
            flag if YES_NO_SETTINGS.contains(&flag) => {
                match self.single_value(src, st, &quoted_or(YES_NO)) {
                    Some(v) => match self.choice(src, v, YES_NO) {
                        Some(k) => {
                            let b = Some(k == 0);
                            match head {
                                "chess960" => s.chess960 = b,
                                "mandatory" => s.mandatory = b,
                                "reply" => s.reply = b,
                                "in-check" => s.in_check = b,
                                "leaving" => s.leaving = b,
                                "no-doubled" => s.no_doubled = b,
                                "no-mate" => s.no_mate = b,
                                "immobile" => s.immobile = b,
                                "must" => s.must = b,
                                "safe" => s.safe = b,
                                "as-turn" => s.as_turn = b,
                                "demote" => s.demote = b,
                                "promoted" => s.promoted = b,
                                "within" => s.within = b,
                                "shot" => s.shot = b,
                                "keep" => s.keep = b,
                                "replace" => s.replace = b,
                                "free" => s.free = b,
                                "stuck" => s.stuck = b,
                                "shields" => s.shields = b,
                                "take-where-it-steps" => s.where_it_steps = b,
                                "through-holes" => s.through_holes = b,
                                "disarms" => s.disarms = b,
                                "gives-check" => s.gives_check = b,
                                "once" => s.once = b,
                                "attacks" => s.attacks = b,
                                _ => s.captured_only = b,
                            }
                        }
                        None => s.broken = true,
                    },
                    None => s.broken = true,
                }
            }
            "value" => match self.worded(src, st, Value::WORDS, Value::ALL) {
                Some(w) => s.value = Some(w),
                None => s.broken = true,
            },
            "safety" => match self.worded(src, st, Safety::WORDS, Safety::ALL) {
                Some(w) => s.safety = Some(w),
                None => s.broken = true,
            },
            "steps" | "checks" | "times" | "moves" => {
                let (lo, hi, what) = match head {
                    "steps" => (2, 3, "the longest step"),
                    "checks" => (1, 255, "the number of checks"),
                    "times" => (2, 255, "how many times the position occurs"),
                    _ => (1, 65535, "the number of moves by each side"),
                };
                match self.single_value(src, st, what) {
                    Some(v) => match self.number(src, v, lo, hi) {
                        Some(n) => match head {
                            "steps" => s.steps = Some(n as u8),
                            "checks" => s.checks = Some(n as u8),
                            "times" => s.times = Some(n as u8),
                            _ => s.moves = Some(n as u16),
                        },
                        None => s.broken = true,
                    },
                    None => s.broken = true,
                }
            }
            "move" => match self.single_value(src, st, "a move in Betza notation") {
                Some(v) => match Design::parse(&v.text) {
                    Ok(_) => s.movement = Some(v.text.clone()),
                    Err(e) => {
                        self.fail_help(
                            src,
                            v.span.clone(),
                            format!("`{}` is not a move in Betza notation: {e}", v.text),
                            "not Betza",
                            "as in `move mfnA` (a lame two-square diagonal step)",
                        );
                        s.broken = true;
                    }
                },
                None => s.broken = true,
            },
            "drop-rights" => match self.single_value(src, st, "the file the king starts on") {
                Some(v) => match self.file(src, v, &board.geometry) {
                    Some(f) => s.drop_rights = Some(f),
                    None => s.broken = true,
                },
                None => s.broken = true,
            },
            "onto" => match self.worded(src, st, Onto::WORDS, Onto::ALL) {
                Some(w) => s.onto = Some(w),
                None => s.broken = true,
            },
            "targets" => {
                let mut cells = Vec::new();
                for v in &st.values {
                    match self.board_square(src, v, board) {
                        Some(c) => cells.push(c),
                        None => s.broken = true,
                    }
                }
                if st.values.is_empty() {
                    self.fail_help(
                        src,
                        st.span.clone(),
                        "`targets` needs the squares a piece infiltrates",
                        "squares missing",
                        "as in `targets d1 d8`",
                    );
                    s.broken = true;
                }
                cells.sort();
                cells.dedup();
                s.targets = Some(cells);
            }
            "opening" => {
                if st.values.is_empty() {
                    self.fail_help(
                        src,
                        st.span.clone(),
                        "`opening` needs the squares the first drops go on",
                        "squares missing",
                        "as in `opening d4 e4 d5 e5`",
                    );
                    s.broken = true;
                }
                let mut cells = Vec::new();
                for v in &st.values {
                    match self.board_square(src, v, board) {
                        Some(c) => cells.push(c),
                        None => s.broken = true,
                    }
                }
                cells.sort();
                cells.dedup();
                s.opening = Some(cells);
            }
            "pattern" => match self.worded(src, st, FlipPattern::WORDS, FlipPattern::ALL) {
                Some(w) => s.pattern = Some(w),
                None => s.broken = true,
            },
            // `from` takes a word, or (for a sanctuary) the zones the capturers stand in.
            "from" => match st.values.as_slice() {
                [v] if Reach::WORDS.contains(&v.text.as_str()) || self.zones.is_empty() => {
                    match self.worded(src, st, Reach::WORDS, Reach::ALL) {
                        Some(w) => s.from = Some(w),
                        None => s.broken = true,
                    }
                }
                [] => {
                    self.fail_help(
                        src,
                        st.span.clone(),
                        "`from` needs a value",
                        "here",
                        format!(
                            "{}, or the zones the capturers stand in",
                            quoted_or(Reach::WORDS)
                        ),
                    );
                    s.broken = true;
                }
                values => {
                    let mut zones: Sides<Vec<Cell>> = [Vec::new(), Vec::new()];
                    for v in values {
                        match self.zone_named(src, v) {
                            Some(z) => {
                                zones[0].extend(z[0].iter().copied());
                                zones[1].extend(z[1].iter().copied());
                            }
                            None => s.broken = true,
                        }
                    }
                    let names = values.iter().map(|v| v.text.clone()).collect();
                    s.from_zones = Some((names, zones));
                }
            },
            "while" => {
                let usage = "write `while own|enemy LETTER...`, as in `while enemy S` (only while \
                             an enemy S stands in the region)";
                match st.values.split_first() {
                    Some((side, rest)) if !rest.is_empty() => {
                        let whose = self.choice(src, side, Whose::WORDS);
                        let mut letters = Vec::new();
                        for v in rest {
                            match self.letter(src, v, board.pieces) {
                                Some(l) => letters.push(l),
                                None => s.broken = true,
                            }
                        }
                        match whose {
                            Some(k) => s.while_present = Some((Whose::ALL[k], letters)),
                            None => s.broken = true,
                        }
                    }
                    _ => {
                        self.fail_help(
                            src,
                            st.span.clone(),
                            "`while` takes a side (`own` or `enemy`) and the kinds that must stand in the region",
                            "here",
                            usage,
                        );
                        s.broken = true;
                    }
                }
            }
            "of" => match self.worded(src, st, Whose::WORDS, Whose::ALL) {
                Some(w) => s.of = Some(w),
                None => s.broken = true,
            },
            "moved" => match self.worded(src, st, Moved::WORDS, Moved::ALL) {
                Some(w) => s.moved = Some(w),
                None => s.broken = true,
            },
            "effect" | "elsewhere" => match self.worded(src, st, Effect::WORDS, Effect::ALL) {
                Some(w) if head == "elsewhere" => s.elsewhere = Some(w),
                Some(w) => s.effect = Some(w),
                None => s.broken = true,
            },
            "standing" => match self.worded(src, st, Standing::WORDS, Standing::ALL) {
                Some(w) => s.standing = Some(w),
                None => s.broken = true,
            },
            "lines" => match self.worded(src, st, Lines::WORDS, Lines::ALL) {
                Some(w) => s.lines = Some(w),
                None => s.broken = true,
            },
            "counted" => match self.worded(src, st, Counted::WORDS, Counted::ALL) {
                Some(w) => s.counted = Some(w),
                None => s.broken = true,
            },
            "other-moved" => match self.single_value(src, st, &quoted_or(OTHER_MOVED)) {
                Some(v) => match self.choice(src, v, OTHER_MOVED) {
                    Some(k) => s.other_moved = Some([None, Some(true), Some(false)][k]),
                    None => s.broken = true,
                },
                None => s.broken = true,
            },
            "priority" => match self.single_value(src, st, "the ending's priority") {
                Some(v) => match self.number(src, v, 0, 255) {
                    Some(n) => s.priority = Some(n as u8),
                    None => s.broken = true,
                },
                None => s.broken = true,
            },
            "gap" => match self.single_value(src, st, "the fewest empty squares between") {
                Some(v) => match self.number(src, v, 0, 255) {
                    Some(n) => s.gap = Some(n as u8),
                    None => s.broken = true,
                },
                None => s.broken = true,
            },
            "timing" => match self.worded(src, st, Timing::WORDS, Timing::ALL) {
                Some(w) => s.timing = Some(w),
                None => s.broken = true,
            },
            "rank" | "against" => {
                let (lo, hi, what) = if head == "rank" {
                    (
                        1,
                        u32::from(board.ranks),
                        "the rank, counted from each side's own edge",
                    )
                } else {
                    (0, 255, "how many pieces the other side must have")
                };
                match self.single_value(src, st, what) {
                    Some(v) => match self.number(src, v, lo, hi) {
                        Some(n) if head == "rank" => s.rank = Some(n as u8),
                        Some(n) => s.against = Some(n as u8),
                        None => s.broken = true,
                    },
                    None => s.broken = true,
                }
            }
            "limit" => {
                let mut limits = Vec::new();
                for v in &st.values {
                    let mut chars = v.text.chars();
                    let letter = chars.next().unwrap_or(' ');
                    let n: Option<u8> = chars.as_str().parse().ok();
                    match n {
                        Some(n) if board.pieces.iter().any(|p| p.letter == letter) => {
                            limits.push((letter, n))
                        }
                        _ => {
                            self.fail_help(src, v.span.clone(), format!("`{}` is not a piece letter and a number", v.text), "not a limit", format!(
                                    "as in `limit Q1 R2`: at most one queen, two rooks; the pieces: {}",
                                    piece_list(board.pieces)
                                ));
                            s.broken = true;
                        }
                    }
                }
                s.limits = Some(limits);
            }
            "pairs" => {
                let mut pairs: Vec<(char, char)> = Vec::new();
                for v in &st.values {
                    let is_piece = |c: char| board.pieces.iter().any(|p| p.letter == c);
                    let mut chars = v.text.chars();
                    let pair = match (chars.next(), chars.next(), chars.next(), chars.next()) {
                        (Some(a), Some(':'), Some(b), None) if is_piece(a) && is_piece(b) => {
                            Some((a, b))
                        }
                        _ => None,
                    };
                    match pair {
                        Some((a, b)) if a != b && !pairs.iter().any(|p| p.0 == a || p.1 == b) => {
                            pairs.push((a, b))
                        }
                        Some(_) => {
                            self.fail_help(
                                src,
                                v.span.clone(),
                                format!("`{}` repeats a piece or promotes it into itself", v.text),
                                "not a pair",
                                "each piece promotes into one kind of its own, which no other \
                                 piece promotes into",
                            );
                            s.broken = true;
                        }
                        None => {
                            self.fail_help(
                                src,
                                v.span.clone(),
                                format!(
                                    "`{}` is not a piece and the kind it promotes into",
                                    v.text
                                ),
                                "not a pair",
                                format!(
                                    "as in `pairs P:T S:V` (the pawn becomes a T, the silver a V); \
                                     the pieces: {}",
                                    piece_list(board.pieces)
                                ),
                            );
                            s.broken = true;
                        }
                    }
                }
                s.pairs = Some(pairs);
            }
            "white" | "black" | "both" => {
                s.region_given = true;
                if !self.region_line(src, st, board, &mut s.region) {
                    s.broken = true;
                }
            }
            _ => {}
        }
    }

    /// `<side> rank|ranks N...`, `<side> file|files F...`, `<side> square|squares SQ...` or
    /// `<side> area|areas SQ-SQ...` (the rectangles with those corners).
    fn region_line(
        &mut self,
        src: usize,
        st: &Statement,
        board: &BoardInfo,
        region: &mut [Vec<Cell>; 2],
    ) -> bool {
        let sides: &[usize] = match st.head.text.as_str() {
            "white" => &[0],
            "black" => &[1],
            _ => &[0, 1],
        };
        let usage = "write `white rank 8`, `black ranks 1 2`, `both files d e`, `white squares \
                     d4 e5`, `both area b2 i5` or `both zone court`";
        let Some((kind, items)) = st.values.split_first() else {
            self.fail_help(
                src,
                st.span.clone(),
                "a region line needs `rank`, `file`, `square`, `area` or `zone` and the places",
                "incomplete",
                usage,
            );
            return false;
        };
        let Some(k) = REGION_KINDS.iter().position(|k| *k == kind.text) else {
            let mean = did_you_mean(&kind.text, REGION_KINDS.iter().copied());
            self.error(
                src,
                Problem::new(
                    format!(
                        "expected `rank`, `file`, `square`, `area` or `zone`, found `{}`{mean}",
                        kind.text
                    ),
                    kind.span.clone(),
                    "not a kind of region",
                )
                .with_help(usage),
            );
            return false;
        };
        if items.is_empty() {
            self.fail_help(
                src,
                kind.span.clone(),
                format!("`{}` needs at least one place after it", kind.text),
                "places missing",
                usage,
            );
            return false;
        }
        let mut ok = true;
        let mut cells = Vec::new();
        for v in items {
            match k / 2 {
                0 => match self.rank(src, v, &board.geometry) {
                    Some(r) => cells.extend((0..board.files).map(|f| Cell { file: f, rank: r })),
                    None => ok = false,
                },
                1 => match self.file(src, v, &board.geometry) {
                    Some(f) => cells.extend((0..board.ranks).map(|r| Cell { file: f, rank: r })),
                    None => ok = false,
                },
                3 => match self.area(src, v, board) {
                    Some((a, b)) => {
                        cells.extend((a.file.min(b.file)..=a.file.max(b.file)).flat_map(|f| {
                            (a.rank.min(b.rank)..=a.rank.max(b.rank))
                                .map(move |r| Cell { file: f, rank: r })
                        }))
                    }
                    None => ok = false,
                },
                4 => match self.zone_named(src, v) {
                    Some(z) => {
                        for &side in sides {
                            region[side].extend(z[side].iter().copied());
                        }
                    }
                    None => ok = false,
                },
                _ => match self.board_square(src, v, board) {
                    Some(c) => cells.push(c),
                    None => ok = false,
                },
            }
        }
        cells.retain(|c| !board.holes.contains(c));
        for &side in sides {
            region[side].extend(cells.iter().copied());
        }
        ok
    }

    /// A zone declared by an earlier `zone` component, or an error naming those declared.
    fn zone_named(&mut self, src: usize, v: &SynValue) -> Option<Sides<Vec<Cell>>> {
        if let Some((_, z)) = self.zones.iter().find(|(n, _)| *n == v.text) {
            return Some(z.clone());
        }
        let names: Vec<String> = self.zones.iter().map(|(n, _)| n.clone()).collect();
        let mean = did_you_mean(&v.text, names.iter().map(String::as_str));
        self.fail_help(
            src,
            v.span.clone(),
            format!("no zone named `{}`{mean}", v.text),
            "not a zone",
            format!(
                "a zone is declared by a `zone` component before it is named; the zones declared: {}",
                list(&names)
            ),
        );
        None
    }

    /// A square of the board that is not a hole, or an error.
    fn board_square(&mut self, src: usize, v: &SynValue, board: &BoardInfo) -> Option<Cell> {
        let c = self.square(src, v, &board.geometry)?;
        if board.holes.contains(&c) {
            self.fail(
                src,
                v.span.clone(),
                format!("{} is a hole, not part of the board", v.text),
                "a hole",
            );
            return None;
        }
        Some(c)
    }

    /// `b2-i5`: two corner squares of a rectangle of the board.
    fn area(&mut self, src: usize, v: &SynValue, board: &BoardInfo) -> Option<(Cell, Cell)> {
        let g = &board.geometry;
        let corners = v
            .text
            .split_once('-')
            .and_then(|(a, b)| Some((Cell::named(g, a)?, Cell::named(g, b)?)));
        if corners.is_none() || v.quoted {
            let last = Cell {
                file: board.files - 1,
                rank: board.ranks - 1,
            };
            self.fail_help(
                src,
                v.span.clone(),
                format!("`{}` is not two squares of the board joined by `-`", v.text),
                "not an area",
                format!(
                    "an area is written by two opposite corners, as in `{}-{}`; a square is {}",
                    Cell { file: 0, rank: 0 }.name(g),
                    last.name(g),
                    places(g)
                ),
            );
            return None;
        }
        corners
    }

    /// Piece letters, each a piece of the definition.
    fn letters(
        &mut self,
        src: usize,
        st: &Statement,
        pieces: &[PieceDef],
        invented: bool,
    ) -> Option<Vec<Letter>> {
        if st.values.is_empty() {
            self.fail_help(
                src,
                st.head.span.clone(),
                format!("`{}` needs piece letters", st.head.text),
                "letters missing",
                format!("the pieces: {}", piece_list(pieces)),
            );
            return None;
        }
        let mut out: Vec<Letter> = Vec::new();
        let mut ok = true;
        for v in &st.values {
            let letter = if v.text == "invented" && !v.quoted {
                if !invented {
                    let takes: Vec<String> = INVENTED_IN
                        .iter()
                        .map(|(c, s)| format!("`{s}` of `{c}`"))
                        .collect();
                    self.fail_help(
                        src,
                        v.span.clone(),
                        format!("`{}` does not take `invented`", st.head.text),
                        "not here",
                        format!(
                            "`invented` (every invented piece) is taken by {}",
                            takes.join(", ")
                        ),
                    );
                    ok = false;
                    continue;
                }
                Some(Letter {
                    letter: INVENTED,
                    src,
                    span: (v.span.start, v.span.end),
                })
            } else {
                self.letter(src, v, pieces)
            };
            match letter {
                Some(l) if out.iter().any(|o| o.letter == l.letter) => {
                    self.fail(
                        src,
                        v.span.clone(),
                        format!("`{}` is named twice", l.letter),
                        "named again",
                    );
                    ok = false;
                }
                Some(l) => out.push(l),
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// A piece letter of the definition.
    /// A blocker's letter: a capital letter that no piece of the definition has.
    fn blocker_letter(&mut self, src: usize, v: &SynValue, pieces: &[PieceDef]) -> Option<char> {
        let mut chars = v.text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => {
                match pieces.iter().find(|p| p.letter == c) {
                    Some(p) => {
                        self.fail_help(
                            src,
                            v.span.clone(),
                            format!("`{c}` is the letter of the {}", p.name),
                            "taken",
                            format!(
                                "give the blocker a capital letter no piece has; the pieces: {}",
                                piece_list(pieces)
                            ),
                        );
                        None
                    }
                    None => Some(c),
                }
            }
            _ => {
                self.fail_help(
                    src,
                    v.span.clone(),
                    format!("expected a capital letter, found `{}`", v.text),
                    "not a capital letter",
                    "as in `letter D`: turns then write the blocker's placement `D@d5`",
                );
                None
            }
        }
    }

    fn letter(&mut self, src: usize, v: &SynValue, pieces: &[PieceDef]) -> Option<Letter> {
        let mut chars = v.text.chars();
        let c = match (chars.next(), chars.next()) {
            (Some(c), None) => c,
            _ => {
                let by_name = pieces.iter().find(|p| p.name == v.text);
                let hint = by_name
                    .map(|p| format!("; `{}` is written `{}`", p.name, p.letter))
                    .unwrap_or_default();
                self.fail_help(
                    src,
                    v.span.clone(),
                    format!("expected a piece letter, found `{}`{hint}", v.text),
                    "not a letter",
                    format!("the pieces: {}", piece_list(pieces)),
                );
                return None;
            }
        };
        if pieces.iter().any(|p| p.letter == c) {
            return Some(Letter {
                letter: c,
                src,
                span: (v.span.start, v.span.end),
            });
        }
        let upper = c.to_ascii_uppercase();
        let hint = if upper != c && pieces.iter().any(|p| p.letter == upper) {
            format!("; pieces are named by their capital letter: `{upper}`")
        } else {
            String::new()
        };
        self.fail_help(
            src,
            v.span.clone(),
            format!("`{c}` is not a piece of this definition{hint}"),
            "not a piece",
            format!("the pieces: {}", piece_list(pieces)),
        );
        None
    }

    /// A file letter of the board, `a` first.
    /// A file of the board by its label, or an error naming the labels.
    fn file(&mut self, src: usize, v: &SynValue, g: &Geometry) -> Option<u8> {
        if let Some(f) = g.file_of(&v.text).filter(|_| !v.quoted) {
            return Some(f);
        }
        self.fail(
            src,
            v.span.clone(),
            format!("expected {}, found `{}`", file_choices(g), v.text),
            "not a file of the board",
        );
        None
    }

    /// A rank of the board by its number (from the board's `first-rank`), or an error.
    fn rank(&mut self, src: usize, v: &SynValue, g: &Geometry) -> Option<u8> {
        let first = u32::from(g.first_rank());
        let n = self.number(src, v, first, first + u32::from(g.ranks) - 1)?;
        Some((n - first) as u8)
    }

    fn number(&mut self, src: usize, v: &SynValue, lo: u32, hi: u32) -> Option<u32> {
        let n =
            (!v.text.is_empty() && v.text.len() <= 6 && v.text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| v.text.parse::<u32>().ok())
                .flatten();
        match n {
            Some(n) if (lo..=hi).contains(&n) => Some(n),
            _ => {
                self.fail(
                    src,
                    v.span.clone(),
                    format!("expected a number from {lo} to {hi}, found `{}`", v.text),
                    "out of range",
                );
                None
            }
        }
    }

    /// The index of `v` among `choices`, or an error that lists them.
    /// The setting's one value, a word of `words`, as its value in `all` (the enumeration in
    /// the same order); `None` once the problem is reported.
    fn worded<T: Copy>(
        &mut self,
        src: usize,
        st: &Statement,
        words: &[&str],
        all: &[T],
    ) -> Option<T> {
        let v = self.single_value(src, st, &quoted_or(words))?;
        self.choice(src, v, words).map(|k| all[k])
    }

    fn choice(&mut self, src: usize, v: &SynValue, choices: &[&str]) -> Option<usize> {
        if let Some(k) = choices.iter().position(|c| *c == v.text) {
            return Some(k);
        }
        let mean = did_you_mean(&v.text, choices.iter().copied());
        self.fail(
            src,
            v.span.clone(),
            format!("expected {}, found `{}`{mean}", quoted_or(choices), v.text),
            "not one of these",
        );
        None
    }

    /// The component itself, with defaults filled in and the settings it needs checked.
    fn component(
        &mut self,
        src: usize,
        stmt: &Statement,
        kind: &str,
        s: &mut Settings,
        board: &BoardInfo,
    ) -> Option<Component> {
        let head = stmt.head.span.clone();
        let letters = |l: &Option<Vec<Letter>>| -> Option<Vec<char>> {
            l.as_ref().map(|l| l.iter().map(|l| l.letter).collect())
        };
        let pawns: Vec<char> = board
            .pieces
            .iter()
            .filter(|p| p.pawn)
            .map(|p| p.letter)
            .collect();
        let royals: Vec<char> = board
            .pieces
            .iter()
            .filter(|p| p.royal)
            .map(|p| p.letter)
            .collect();
        // Settings that are required, or whose default does not apply: (what, why).
        let mut missing: Vec<(&str, &str)> = Vec::new();
        let pawn_pieces =
            |given: &Option<Vec<Letter>>, missing: &mut Vec<(&str, &str)>| match letters(given) {
                Some(l) => l,
                None if !pawns.is_empty() => pawns.clone(),
                None => {
                    missing.push((
                        "`pieces`",
                        "it applies to the pawn kinds by default, and no piece is marked `pawn`",
                    ));
                    Vec::new()
                }
            };
        let region = |s: &Settings| regions(s.region.clone());
        let component = match kind {
            "double-step" => {
                let pieces = pawn_pieces(&s.pieces, &mut missing);
                if !s.region_given {
                    missing.push((
                        "a region",
                        "say where the double step may start: `white rank 2` and `black rank 7`",
                    ));
                }
                Component::DoubleStep {
                    pieces,
                    region: region(s),
                    steps: s.steps.unwrap_or(2),
                    movement: s.movement.clone(),
                }
            }
            "en-passant" => Component::EnPassant {
                pieces: pawn_pieces(&s.pieces, &mut missing),
                region: region(s),
                where_it_steps: s.where_it_steps.unwrap_or(true),
            },
            "promotion" => {
                let pairs = s.pairs.clone().unwrap_or_default();
                let pieces = match &s.pieces {
                    None if !pairs.is_empty() => pairs.iter().map(|p| p.0).collect(),
                    _ => pawn_pieces(&s.pieces, &mut missing),
                };
                if !s.region_given {
                    missing.push((
                        "a region",
                        "say where pieces promote: `white rank 8` and `black rank 1`",
                    ));
                }
                let both = letters(&s.into);
                let white = letters(&s.white_into).or_else(|| both.clone());
                let black = letters(&s.black_into).or_else(|| both.clone());
                if (white.is_none() || black.is_none()) && pairs.is_empty() {
                    missing.push((
                        "`into`",
                        "list the kinds a piece may promote into: `into Q R B N` (or \
                         `white-into` and `black-into` when the sides differ)",
                    ));
                }
                Component::Promotion {
                    pieces,
                    region: region(s),
                    into: [white.unwrap_or_default(), black.unwrap_or_default()],
                    mandatory: s.mandatory.unwrap_or(true),
                    captured_only: s.captured_only.unwrap_or(false),
                    limits: s.limits.clone().unwrap_or_default(),
                    pairs,
                    leaving: s.leaving.unwrap_or(false),
                    as_turn: s.as_turn.unwrap_or(false),
                    demote: s.demote.unwrap_or(false),
                }
            }
            "drops" => {
                if s.through_holes == Some(true) && s.onto != Some(Onto::Enclosing) {
                    missing.push((
                        "`onto enclosing` for `through-holes yes`",
                        "`through-holes` is a reading of the enclosing test, and says nothing without it",
                    ));
                }
                Component::Drops {
                    pieces: letters(&s.pieces).unwrap_or_default(),
                    region: region(s),
                    no_doubled: s.no_doubled.unwrap_or(false),
                    no_mate: s.no_mate.unwrap_or(false),
                    immobile: s.immobile.unwrap_or(false),
                    opposite_colours: letters(&s.opposite_colours).unwrap_or_default(),
                    must: s.must.unwrap_or(false),
                    promoted: s.promoted.unwrap_or(false),
                    free: s.free.unwrap_or(false),
                    onto: s.onto.unwrap_or(Onto::Anywhere),
                    opening: Region {
                        cells: s.opening.clone().unwrap_or_default(),
                    },
                    through_holes: s.through_holes.unwrap_or(false),
                    in_check: s.in_check.unwrap_or(true),
                    gives_check: s.gives_check.unwrap_or(true),
                }
            }
            "prisoners" => {
                if s.pieces.is_none() {
                    missing.push((
                        "`pieces`",
                        "name the kinds kept for their owner when captured: `pieces P`",
                    ));
                }
                Component::Prisoners {
                    pieces: letters(&s.pieces).unwrap_or_default(),
                    region: region(s),
                    in_check: s.in_check.unwrap_or(true),
                    gives_check: s.gives_check.unwrap_or(true),
                }
            }
            "captures-to-hand" => Component::CapturesToHand,
            "gating" => Component::Gating {
                shields: s.shields.unwrap_or(true),
            },
            "castling" => {
                let king = match s.king {
                    Some(l) => l.letter,
                    None if royals.len() == 1 => royals[0],
                    None => {
                        missing.push((
                            "`king`",
                            "it defaults to the royal kind, and the definition has none or \
                             several: name the piece that castles, `king K`",
                        ));
                        ' '
                    }
                };
                let rooks = match letters(&s.rooks) {
                    Some(r) => r,
                    None if board.pieces.iter().any(|p| p.letter == 'R') => vec!['R'],
                    None => {
                        missing.push((
                            "`rooks`",
                            "it defaults to `R`, which is not a piece here: name the pieces the \
                             king castles with, `rooks R`",
                        ));
                        Vec::new()
                    }
                };
                let files = board.files;
                let king_to = s
                    .king_to
                    .unwrap_or([2.min(files - 1), files.saturating_sub(2)]);
                let rook_to = s.rook_to.unwrap_or([
                    (king_to[0] + 1).min(files - 1),
                    king_to[1].saturating_sub(1),
                ]);
                Component::Castling {
                    king,
                    rooks,
                    king_to,
                    rook_to,
                    chess960: s.chess960.unwrap_or(false),
                    rank: s.rank.unwrap_or(1),
                    rooks_from: s.rooks_from,
                    drop_rights: s.drop_rights,
                }
            }
            "check" => Component::Check {
                safety: s.safety.unwrap_or(Safety::All),
            },
            "checkmate" => Component::Checkmate {
                value: s.value.unwrap_or(Value::Loss),
            },
            "stalemate" => Component::Stalemate {
                value: s.value.unwrap_or(Value::Draw),
            },
            "extinction" => Component::Extinction {
                pieces: letters(&s.pieces).unwrap_or_default(),
                value: s.value.unwrap_or(Value::Loss),
            },
            "goal" => {
                let pieces = match letters(&s.pieces) {
                    Some(p) => p,
                    None if !royals.is_empty() => royals.clone(),
                    None => {
                        missing.push((
                            "`pieces`",
                            "it defaults to the royal kinds, and no piece is marked `royal`",
                        ));
                        Vec::new()
                    }
                };
                if !s.region_given {
                    missing.push((
                        "a region",
                        "say where the goal is: `both squares d4 e4 d5 e5`",
                    ));
                }
                Component::Goal {
                    pieces,
                    region: region(s),
                    value: s.value.unwrap_or(Value::Win),
                    timing: s.timing.unwrap_or(Timing::AtOnce),
                    safe: s.safe.unwrap_or(false),
                }
            }
            "check-count" => {
                if s.checks.is_none() {
                    missing.push(("`checks`", "say how many checks end the game: `checks 3`"));
                }
                // The value is the checking side's: giving the checks wins by default.
                Component::CheckCount {
                    checks: s.checks.unwrap_or(1),
                    value: s.value.unwrap_or(Value::Win),
                }
            }
            "bare-king" => Component::BareKing {
                value: s.value.unwrap_or(Value::Loss),
                against: s.against.unwrap_or(0),
                reply: s.reply.unwrap_or(false),
            },
            "first-move" => {
                let pieces = letters(&s.pieces).unwrap_or_else(|| {
                    missing.push(("`pieces`", "name the pieces with a first move: `pieces K`"));
                    Vec::new()
                });
                let movement = s.movement.clone().unwrap_or_else(|| {
                    missing.push(("`move`", "give the first move in Betza: `move fsN`"));
                    String::new()
                });
                Component::FirstMove {
                    pieces,
                    movement,
                    in_check: s.in_check.unwrap_or(true),
                    lost_on_line: letters(&s.lost_on_line).unwrap_or_default(),
                }
            }
            "checked-royal-captures" => Component::CheckedRoyalCaptures,
            "compulsory-capture" => Component::CompulsoryCapture,
            "no-giving-check" => Component::NoGivingCheck,
            "explosion" => Component::Explosion {
                immune: letters(&s.immune).unwrap_or_default(),
            },
            "repetition" => Component::Repetition {
                times: s.times.unwrap_or(3),
            },
            "confine" | "region-move" => {
                let pieces = letters(&s.pieces).unwrap_or_else(|| {
                    missing.push(("`pieces`", "name the pieces it binds: `pieces K A`"));
                    Vec::new()
                });
                if !s.region_given {
                    missing.push((
                        "a region",
                        "say where: `white ranks 1 2 3` and `black ranks 8 9 10`",
                    ));
                }
                if kind == "confine" {
                    Component::Confine {
                        pieces,
                        region: region(s),
                    }
                } else {
                    let movement = s.movement.clone().unwrap_or_else(|| {
                        missing.push(("`move`", "give the move in Betza: `move sW`"));
                        String::new()
                    });
                    Component::RegionMove {
                        pieces,
                        region: region(s),
                        movement,
                        within: s.within.unwrap_or(false),
                        replace: s.replace.unwrap_or(false),
                    }
                }
            }
            "infiltration" => {
                for (given, what, help) in [
                    (
                        s.pieces.is_some(),
                        "`pieces`",
                        "name the pieces that may infiltrate: `pieces N B R Q`",
                    ),
                    (
                        s.by.is_some(),
                        "`by`",
                        "name the pieces whose arrival opens it: `by K`",
                    ),
                    (
                        s.targets.is_some(),
                        "`targets`",
                        "name the squares it goes to: `targets d1 d8`",
                    ),
                    (
                        s.region_given,
                        "a region",
                        "say where the `by` piece arrives: `both rank 5`",
                    ),
                ] {
                    if !given {
                        missing.push((what, help));
                    }
                }
                Component::Infiltration {
                    pieces: letters(&s.pieces).unwrap_or_default(),
                    by: letters(&s.by).unwrap_or_default(),
                    region: region(s),
                    targets: s.targets.clone().unwrap_or_default(),
                    once: s.once.unwrap_or(false),
                    alone: s.as_turn.unwrap_or(false),
                    priority: s.priority.unwrap_or(0),
                }
            }
            "defection" => {
                if s.pieces.is_none() {
                    missing.push((
                        "`pieces`",
                        "name the pieces whose arrival makes a piece defect: `pieces P`",
                    ));
                }
                if s.ranking.is_none() {
                    missing.push((
                        "`ranking`",
                        "list the kinds that may change sides, the highest first: `ranking Q N B R P`",
                    ));
                }
                if !s.region_given {
                    missing.push((
                        "a region",
                        "say where the pieces arrive: `white rank 9` and `black rank 1`",
                    ));
                }
                if s.counted.is_some() && s.bare.is_none() {
                    missing.push((
                        "`bare` for `counted`",
                        "`counted` says when a side left bare is counted, and says nothing without `bare`",
                    ));
                }
                Component::Defection {
                    pieces: letters(&s.pieces).unwrap_or_default(),
                    ranking: letters(&s.ranking).unwrap_or_default(),
                    region: region(s),
                    bare: letters(&s.bare).unwrap_or_default(),
                    counted: s.counted.unwrap_or(Counted::AfterSwitch),
                    priority: s.priority.unwrap_or(0),
                }
            }
            "retake" => {
                if s.from_zones.is_some() {
                    missing.push((
                        "`from` as a word",
                        "a re-take's capturer stands `inside` or `outside` the region, or `anywhere`",
                    ));
                }
                if s.pieces.is_none() {
                    missing.push((
                        "`pieces`",
                        "name the capturers that may be re-taken: `pieces Q R B N`",
                    ));
                }
                Component::Retake {
                    pieces: letters(&s.pieces).unwrap_or_default(),
                    takes: letters(&s.takes).unwrap_or_default(),
                    by: letters(&s.by).unwrap_or_default(),
                    from: s.from.unwrap_or(Reach::Anywhere),
                    region: region(s),
                }
            }
            "sanctuary" | "no-entry" => {
                if !s.region_given {
                    missing.push((
                        "a region",
                        "say where: `both files a j` or `white area b2 i5`",
                    ));
                }
                if kind == "sanctuary" {
                    // Every kind by default: a sanctuary with no `pieces` protects all pieces.
                    let all: Vec<char> = board.pieces.iter().map(|p| p.letter).collect();
                    Component::Sanctuary {
                        pieces: letters(&s.pieces).unwrap_or_else(|| all.clone()),
                        region: region(s),
                        by: letters(&s.by).unwrap_or_default(),
                        from: s.from.unwrap_or(Reach::Anywhere),
                        from_zones: s.from_zones.clone().map(|(n, z)| (n, regions(z))),
                        attacks: s.attacks.unwrap_or(true),
                    }
                } else {
                    let pieces = letters(&s.pieces).unwrap_or_else(|| {
                        missing.push(("`pieces`", "name the pieces kept out: `pieces Q R B N`"));
                        Vec::new()
                    });
                    Component::NoEntry {
                        pieces,
                        region: region(s),
                        while_present: s
                            .while_present
                            .as_ref()
                            .map(|(w, l)| (*w, l.iter().map(|l| l.letter).collect())),
                        opened_by: letters(&s.opened_by).unwrap_or_default(),
                        except_beside: letters(&s.except_beside).unwrap_or_default(),
                    }
                }
            }
            "zone" => {
                if !s.region_given {
                    missing.push((
                        "a region",
                        "say where: `both files z i` or `both area a5-h5`",
                    ));
                }
                let name = s.name.clone().unwrap_or_else(|| {
                    missing.push(("`name`", "name the zone as players say it: `name court`"));
                    String::new()
                });
                let region = region(s);
                let cells = region.clone().map(|r| r.cells);
                match self.zones.iter().find(|(n, _)| *n == name) {
                    // A zone resolved again under another reading is the same zone.
                    Some((_, declared)) if *declared != cells => {
                        self.fail(
                            src,
                            head.clone(),
                            format!("the zone `{name}` is declared twice"),
                            "again",
                        );
                        s.broken = true;
                    }
                    Some(_) => {}
                    None if !name.is_empty() => self.zones.push((name.clone(), cells)),
                    None => {}
                }
                Component::Zone { name, region }
            }
            "flying-royals" => Component::FlyingRoyals,
            "transparent" => {
                let pieces = letters(&s.pieces).unwrap_or_else(|| {
                    missing.push(("`pieces`", "name the kinds attacks pass over: `pieces S`"));
                    Vec::new()
                });
                // No region: the pieces are transparent anywhere.
                let mut r = region(s);
                if !s.region_given {
                    let all: Vec<Cell> = board
                        .geometry
                        .squares()
                        .map(|q| Cell {
                            file: q.file,
                            rank: q.rank,
                        })
                        .filter(|c| !board.holes.contains(c))
                        .collect();
                    r = [Region { cells: all.clone() }, Region { cells: all }];
                }
                Component::Transparent { pieces, region: r }
            }
            "adjacency" | "alignment" => {
                let pieces = letters(&s.pieces).unwrap_or_else(|| {
                    missing.push((
                        "`pieces`",
                        "name the kinds of the side that moved it looks at: `pieces K`",
                    ));
                    Vec::new()
                });
                let beside = letters(&s.beside).unwrap_or_else(|| {
                    missing.push(if kind == "adjacency" {
                        ("`beside`", "name the kinds next to them: `beside S`")
                    } else {
                        ("`facing`", "name the kinds lined up with them: `facing K`")
                    });
                    Vec::new()
                });
                let moved = s.moved.unwrap_or(Moved::Any);
                if matches!(moved, Moved::Into | Moved::NotInto) && !s.region_given {
                    self.fail_help(
                        src,
                        head.clone(),
                        format!("`moved {}` needs a region to move into", moved.word()),
                        "no region",
                        "add the region's lines (`both files a h`), or write `moved yes`",
                    );
                    s.broken = true;
                }
                if s.standing.is_some() && !s.region_given {
                    self.fail_help(
                        src,
                        head.clone(),
                        "`standing` says which piece stands in the region, and there is none",
                        "no region",
                        "add the region's lines (`both rank 5`), or leave `standing` out",
                    );
                    s.broken = true;
                }
                let contact = Contact {
                    pieces,
                    beside,
                    of: s.of.unwrap_or(Whose::Enemy),
                    moved,
                    effect: s.effect.unwrap_or(Effect::Illegal),
                    region: region(s),
                    standing: s.standing.unwrap_or(Standing::Both),
                    lines: s.lines.unwrap_or(Lines::All),
                    gap: s.gap.unwrap_or(1),
                    priority: s.priority.unwrap_or(0),
                    disarms: s.disarms.unwrap_or(false),
                    other_moved: s.other_moved.flatten(),
                    elsewhere: s.elsewhere,
                };
                if contact.elsewhere.is_some() && !s.region_given {
                    self.fail_help(
                        src,
                        head.clone(),
                        "`elsewhere` is the effect outside the region, and there is none",
                        "no region",
                        "add the region's lines (`both files z i`), or leave `elsewhere` out",
                    );
                    s.broken = true;
                }
                if contact.disarms && contact.effect != Effect::Win {
                    self.fail_help(
                        src,
                        head.clone(),
                        "`disarms yes` is for a contact that wins: only a winning turn sets the other piece's attacks aside",
                        "not a win",
                        "write `effect win`, or leave `disarms` out",
                    );
                    s.broken = true;
                }
                if kind == "adjacency" {
                    Component::Adjacency(contact)
                } else {
                    Component::Alignment(contact)
                }
            }
            "hop-limit" => {
                let pieces = letters(&s.pieces).unwrap_or_else(|| {
                    missing.push(("`pieces`", "name the pieces it limits: `pieces C`"));
                    Vec::new()
                });
                let immune = letters(&s.immune).unwrap_or_else(|| {
                    missing.push((
                        "`immune`",
                        "name the kinds they may neither pass over nor capture: `immune C`",
                    ));
                    Vec::new()
                });
                Component::HopLimit { pieces, immune }
            }
            "pass" => Component::Pass {
                value: s.value.unwrap_or(Value::Draw),
                stuck: s.stuck.unwrap_or(false),
            },
            "full-board" => Component::FullBoard {
                value: s.value.unwrap_or(Value::Count),
            },
            "flip" => Component::Flip {
                pattern: s.pattern.unwrap_or_else(|| {
                    missing.push((
                        "`pattern`",
                        "say which enemy pieces change sides: `pattern neighbours` (ataxx) or \
                         `pattern lines` (othello)",
                    ));
                    FlipPattern::Lines
                }),
            },
            "bikjang" => Component::Bikjang {
                value: s.value.unwrap_or(Value::Draw),
            },
            "blocker" => {
                let letter = s.blocker_letter.unwrap_or_else(|| {
                    missing.push((
                        "`letter`",
                        "give the blocker a capital letter for turns: `letter D` (`e2-e4; D@d5`)",
                    ));
                    ' '
                });
                Component::Blocker {
                    letter,
                    name: s.name.clone().unwrap_or_else(|| "blocker".into()),
                    shot: s.shot.unwrap_or(false),
                    keep: s.keep.unwrap_or(false),
                }
            }
            "insufficient-material" => {
                if s.alone.is_none() && s.colour_bound.is_none() {
                    missing.push((
                        "`alone`",
                        "name the kinds that cannot win: `alone N B` (one of them beside the \
                         royal pieces) or `colour-bound B` (any number, all on one square \
                         colour)",
                    ));
                }
                Component::InsufficientMaterial {
                    alone: letters(&s.alone).unwrap_or_default(),
                    colour_bound: letters(&s.colour_bound).unwrap_or_default(),
                }
            }
            _ => Component::MoveCount {
                moves: s.moves.unwrap_or(50),
            },
        };
        // `(what, why)`: what is the setting's name in backquotes, or "a region".
        missing.retain(|(what, _)| !s.given.iter().any(|g| what.trim_matches('`') == g));
        if s.misspelt {
            missing.clear();
        }
        for (what, why) in missing {
            self.error(
                src,
                Problem::new(format!("`{kind}` needs {what}"), head.clone(), "incomplete")
                    .with_help(why),
            );
            s.broken = true;
        }
        if matches!(kind, "check" | "checkmate") && royals.is_empty() {
            self.fail_help(
                src,
                head.clone(),
                format!("`{kind}` needs a royal piece, and no piece is marked `royal`"),
                "no royal kind",
                format!(
                    "mark the piece whose loss or capture this is about: `piece K king K royal`; \
                     the pieces: {}",
                    piece_list(board.pieces)
                ),
            );
            s.broken = true;
        }
        if let (Component::Castling { king, rooks, .. }, Some(l)) = (&component, s.king) {
            if rooks.contains(king) {
                self.error(
                    l.src,
                    Problem::new(
                        format!("the castling king `{king}` is also one of its rooks"),
                        l.span.0..l.span.1,
                        "king and rook",
                    )
                    .with_help("the king castles with a piece of another kind: `rooks R`"),
                );
                s.broken = true;
            }
        }
        Some(component)
    }
}

/// What the FEN of a definition with `rules` may hold beyond pieces: the shogi-style promoted
/// kinds (`+P`), and whether there are pockets (any hand component).
pub fn hand_shape(rules: &[Rule]) -> (Vec<(char, char)>, bool) {
    let mut promoted = Vec::new();
    let mut pockets = false;
    for r in rules {
        match &r.component {
            Component::Promotion { pairs, .. } => promoted.extend(pairs.iter().copied()),
            c if c.gives_hands() => pockets = true,
            _ => {}
        }
    }
    (promoted, pockets)
}

/// The board, pieces and options a component's settings are read against.
struct BoardInfo<'a> {
    files: u8,
    ranks: u8,
    /// How the definition names its squares.
    geometry: Geometry,
    holes: &'a [Cell],
    pieces: &'a [PieceDef],
    options: &'a [OptionDecl],
    /// Where each option stands in `options`, by name.
    option_index: HashMap<&'a str, usize>,
}

/// A component's settings as read, before defaults.
#[derive(Default)]
struct Settings {
    /// The component whose settings these are.
    kind: String,
    id: Option<String>,
    clause: Option<String>,
    source: Option<String>,
    when_raw: Vec<(String, String, syntax::Span, syntax::Span)>,
    when: Vec<(String, String)>,
    pieces: Option<Vec<Letter>>,
    into: Option<Vec<Letter>>,
    rooks: Option<Vec<Letter>>,
    immune: Option<Vec<Letter>>,
    king: Option<Letter>,
    king_to: Option<[u8; 2]>,
    rook_to: Option<[u8; 2]>,
    rooks_from: Option<[u8; 2]>,
    drop_rights: Option<u8>,
    opposite_colours: Option<Vec<Letter>>,
    chess960: Option<bool>,
    mandatory: Option<bool>,
    captured_only: Option<bool>,
    steps: Option<u8>,
    value: Option<Value>,
    safety: Option<Safety>,
    checks: Option<u8>,
    times: Option<u8>,
    moves: Option<u16>,
    movement: Option<String>,
    white_into: Option<Vec<Letter>>,
    black_into: Option<Vec<Letter>>,
    lost_on_line: Option<Vec<Letter>>,
    alone: Option<Vec<Letter>>,
    colour_bound: Option<Vec<Letter>>,
    limits: Option<Vec<(char, u8)>>,
    rank: Option<u8>,
    timing: Option<Timing>,
    against: Option<u8>,
    reply: Option<bool>,
    in_check: Option<bool>,
    pairs: Option<Vec<(char, char)>>,
    leaving: Option<bool>,
    no_doubled: Option<bool>,
    no_mate: Option<bool>,
    immobile: Option<bool>,
    must: Option<bool>,
    safe: Option<bool>,
    as_turn: Option<bool>,
    demote: Option<bool>,
    promoted: Option<bool>,
    within: Option<bool>,
    shot: Option<bool>,
    keep: Option<bool>,
    blocker_letter: Option<char>,
    name: Option<String>,
    replace: Option<bool>,
    free: Option<bool>,
    stuck: Option<bool>,
    shields: Option<bool>,
    where_it_steps: Option<bool>,
    through_holes: Option<bool>,
    onto: Option<Onto>,
    opening: Option<Vec<Cell>>,
    pattern: Option<FlipPattern>,
    by: Option<Vec<Letter>>,
    from: Option<Reach>,
    from_zones: Option<(Vec<String>, Sides<Vec<Cell>>)>,
    beside: Option<Vec<Letter>>,
    while_present: Option<(Whose, Vec<Letter>)>,
    opened_by: Option<Vec<Letter>>,
    except_beside: Option<Vec<Letter>>,
    takes: Option<Vec<Letter>>,
    ranking: Option<Vec<Letter>>,
    once: Option<bool>,
    attacks: Option<bool>,
    targets: Option<Vec<Cell>>,
    bare: Option<Vec<Letter>>,
    counted: Option<Counted>,
    parts: Vec<Part>,
    disarms: Option<bool>,
    gives_check: Option<bool>,
    other_moved: Option<Option<bool>>,
    elsewhere: Option<Effect>,
    of: Option<Whose>,
    moved: Option<Moved>,
    effect: Option<Effect>,
    standing: Option<Standing>,
    lines: Option<Lines>,
    gap: Option<u8>,
    priority: Option<u8>,
    region: [Vec<Cell>; 2],
    region_given: bool,
    /// The settings written, valid or not: one that is wrong is reported once, not also as
    /// missing.
    given: Vec<String>,
    /// A setting's name was not known (and reported): a required one missing may be it.
    misspelt: bool,
    /// Some setting was wrong (and reported): the rule is not built.
    broken: bool,
}

/// The movement of a piece that never moves, in place of its Betza design.
pub const IMMOBILE: &str = "none";

const PIECE_USAGE: &str = "write `piece <letter> <name> <betza> [royal] [pawn] [as <rule-id>] \
                           [\"<clause>\"] [\"<capture clause>\"]`, as in `piece N knight N \"The knight leaps.\"`";

const OPTION_USAGE: &str = "write `option <name> {`, then `values <v>...`, `default <v>` and \
                            `reason \"...\"` one a line, then `}`";

/// What takes a setting of this name: "a component" (any), "`castling`" (one kind) or "an
/// `option`"; `None` when no block takes it.
fn setting_owner(head: &str) -> Option<String> {
    if COMMON_SETTINGS.contains(&head) {
        return Some("a component".to_string());
    }
    if OPTION_SETTINGS.contains(&head) {
        return Some("an `option`".to_string());
    }
    let kinds: Vec<String> = COMPONENTS
        .iter()
        .filter(|c| component_settings(c).contains(&head))
        .map(|c| format!("`{c}`"))
        .collect();
    match kinds.len() {
        0 => None,
        1 => Some(kinds[0].clone()),
        _ => Some(format!("a component ({})", kinds.join(", "))),
    }
}

/// `name:line:col` of a place in a text.
fn location(source: &Source, lines: &LineIndex, pos: usize) -> String {
    let (line, col) = lines.line_col(&source.text, pos);
    format!("{}:{line}:{col}", source.name)
}

/// Each side's squares as a region: sorted, each once.
fn regions(cells: Sides<Vec<Cell>>) -> Sides<Region> {
    cells.map(|mut cells| {
        cells.sort();
        cells.dedup();
        Region { cells }
    })
}

/// A component's rule id: its `id` setting, or its name.
fn rule_id(stmt: &Statement) -> String {
    stmt.block
        .as_ref()
        .and_then(|b| b.statements.iter().find(|s| s.head.text == "id"))
        .and_then(|s| s.values.first())
        .map_or_else(|| stmt.head.text.clone(), |v| v.text.clone())
}

/// The files of a board, for an error: `a file `a` to `h``, or its labels when it names them.
fn file_choices(g: &Geometry) -> String {
    let labels = g.file_labels();
    let lettered = Geometry::lettered(g.files, g.ranks);
    if labels == lettered.file_labels() {
        format!("a file `a` to `{}`", labels[labels.len() - 1])
    } else {
        format!(
            "a file of this board, `{}` from left to right",
            labels.join(" ")
        )
    }
}

/// The squares of a board, for an error: its files and its ranks by their names.
fn places(g: &Geometry) -> String {
    let first = u32::from(g.first_rank());
    format!(
        "{} and a rank {first} to {}",
        file_choices(g),
        first + u32::from(g.ranks) - 1
    )
}

fn piece_list(pieces: &[PieceDef]) -> String {
    if pieces.is_empty() {
        return "none".to_string();
    }
    pieces
        .iter()
        .map(|p| format!("{} ({})", p.letter, p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// `` `a`, `b` or `c` ``.
fn quoted_or(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    or_list(&quoted)
}

fn or_list(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} or {}", items[..n - 1].join(", "), items[n - 1]),
    }
}
