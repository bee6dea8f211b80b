//! Reading Fairy-Stockfish's `variants.ini`: each section becomes a [`Definition`], through
//! the text of an equivalent definition (`from` the bundled game it inherits from, then what
//! the section changes), which `arbiter import` writes and which is read back as any
//! definition is.
//!
//! A section `[name:parent]` starts from its parent: an earlier section of the file, or one of
//! Fairy-Stockfish's built-in games that a bundled definition covers (`chess`, `capablanca`,
//! ...); a section without a parent starts from Fairy-Stockfish's defaults (the rules of chess,
//! no pieces until it names them). Its settings are then applied through [`map::TABLE`], in
//! Fairy-Stockfish's order. A setting that is not supported, a value that is not, a line that
//! does not read, an unknown or uncovered parent and inheritance that loops are refusals at
//! their line and column; the docs list the settings (`docs/defining-variants.md`).

mod base_settings;
mod emit;
pub mod map;
pub mod pieces;
pub mod reader;

use std::path::Path;

use super::model::{Definition, Span};
use crate::scenario::diagnostic::{render_with, LineIndex, Problem};
pub use reader::{IniFile, Section};

/// Fairy-Stockfish's built-in games (`src/variant.cpp`), which a section may name as parent.
pub const FSF_GAMES: &[&str] = &[
    "chess",
    "normal",
    "fischerandom",
    "nocastle",
    "armageddon",
    "torpedo",
    "berolina",
    "pawnsideways",
    "pawnback",
    "legan",
    "fairy",
    "makruk",
    "makpong",
    "cambodian",
    "karouk",
    "asean",
    "ai-wok",
    "shatranj",
    "chaturanga",
    "amazon",
    "georgian",
    "nightrider",
    "grasshopper",
    "hoppelpoppel",
    "newzealand",
    "kingofthehill",
    "racingkings",
    "knightmate",
    "misere",
    "losers",
    "giveaway",
    "antichess",
    "suicide",
    "codrus",
    "extinction",
    "kinglet",
    "threekings",
    "horde",
    "petrified",
    "nocheckatomic",
    "atomic",
    "atomar",
    "isolation",
    "isolation7x7",
    "snailtrail",
    "fox-and-hounds",
    "duck",
    "joust",
    "3check",
    "5check",
    "crazyhouse",
    "loop",
    "chessgi",
    "bughouse",
    "koedem",
    "pocketknight",
    "placement",
    "sittuyin",
    "seirawan",
    "shouse",
    "dragon",
    "paradigm",
    "minishogi",
    "mini",
    "kyotoshogi",
    "micro",
    "dobutsu",
    "gorogoro",
    "judkins",
    "torishogi",
    "euroshogi",
    "losalamos",
    "gardner",
    "almost",
    "sortofalmost",
    "chigorin",
    "perfect",
    "spartan",
    "shatar",
    "coregal",
    "clobber",
    "breakthrough",
    "ataxx",
    "flipersi",
    "flipello",
    "minixiangqi",
    "raazuvaa",
    "shogi",
    "checkshogi",
    "shoshogi",
    "yarishogi",
    "okisakishogi",
    "capablanca",
    "capahouse",
    "caparandom",
    "gothic",
    "janus",
    "modern",
    "chancellor",
    "embassy",
    "centaur",
    "gustav3",
    "jesonmor",
    "courier",
    "grand",
    "opulent",
    "tencubed",
    "omicron",
    "troitzky",
    "wolf",
    "shako",
    "clobber10",
    "flipello10",
    "amazons",
    "xiangqi",
    "manchu",
    "supply",
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];

/// Fairy-Stockfish's own names for games that a bundled definition plays under another name.
const SAME_GAME: &[(&str, &str)] = &[("normal", "chess")];

/// Fairy-Stockfish's built-in games that are a bundled game with some settings changed,
/// written as the sections they would be (facts of its `src/variant.cpp`), so that a section
/// may start from them too.
const BUILT_INS: &str = "\
[fairy:chess]
silver = s
fers = f
archbishop = a
chancellor = c
commoner = m

[kingofthehill:chess]
flagPiece = k
flagRegion = d4 e4 d5 e5

[gardner:chess]
maxRank = 5
maxFile = e
startFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1
promotionRegionWhite = *5
promotionRegionBlack = *1
doubleStep = false
castling = false

[nocastle:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1
castling = false

[misere:chess]
checkmateValue = win

[nightrider:chess]
knight = -
customPiece1 = n:NN
promotionPieceTypes = qrbn

[nocheckatomic:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
blastOnCapture = true

[pocketknight:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1
pieceDrops = true
capturesToHand = false

[5check:3check]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 5+5 0 1
";

/// [`BUILT_INS`], read.
fn built_ins() -> &'static IniFile {
    static FILE: std::sync::OnceLock<IniFile> = std::sync::OnceLock::new();
    FILE.get_or_init(|| reader::read(BUILT_INS))
}

/// The sections of [`BUILT_INS`] a built-in game is (the game first, then its parents), and
/// the bundled game they start from.
fn built_in_chain(name: &str) -> Option<(Vec<&'static Section>, &'static str)> {
    let file = built_ins();
    let mut chain = Vec::new();
    let mut name = name;
    while chain.len() < MAX_DEPTH {
        let s = file.section(name)?;
        chain.push(s);
        let parent = s.parent.as_deref()?;
        if let Some(base) = covered(parent) {
            return Some((chain, base));
        }
        name = parent;
    }
    None
}

/// The built-in games a section may start from.
pub fn starting_games() -> Vec<&'static str> {
    FSF_GAMES
        .iter()
        .filter(|g| covered(g).is_some() || built_in_chain(g).is_some())
        .copied()
        .collect()
}

/// The most sections one chain of parents may hold: deeper is refused as too deep (a loop is
/// found before, as a loop). It keeps the import of a file linear in its size: each section
/// replays at most this many.
pub const MAX_DEPTH: usize = 64;

/// An imported section: its name, the text of its definition (in `arbiter fmt`'s layout) and
/// the definition that text reads as.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The section's name, the variant's.
    pub name: String,
    /// The definition's text.
    pub text: String,
    /// What the text reads as.
    pub definition: Definition,
}

/// A section that cannot be imported: the settings that stop it (for tallies) and every reason,
/// rendered at its line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The section refused.
    pub section: String,
    /// The names of the settings refused, or a word for what else stops it (`parent`,
    /// `line`, `definition`).
    pub settings: Vec<String>,
    /// Every reason, rendered at its place in the file (with [`Detail::Count`], one line).
    pub message: String,
    /// How many problems stop it.
    pub problems: usize,
}

/// The bundled definition that plays the built-in game `name`, if any.
pub fn covered(name: &str) -> Option<&'static str> {
    let name = SAME_GAME
        .iter()
        .find(|(a, _)| *a == name)
        .map_or(name, |(_, b)| b);
    super::load::bundled(name).map(|_| {
        super::load::bundled_names()
            .find(|n| *n == name)
            .expect("a bundled name")
    })
}

/// Whether a variant argument names a section of an INI file (`path/variants.ini:section`),
/// and which: the file's path and the section's name.
pub fn spec(spec: &str) -> Option<(&str, &str)> {
    let at = spec.rfind(".ini:")?;
    let (path, section) = (&spec[..at + 4], &spec[at + 5..]);
    (!path.is_empty() && !section.is_empty()).then_some((path, section))
}

/// Reads an INI file's text from disk (bounded, UTF-8).
pub fn read_text(path: &Path) -> Result<String, String> {
    let bytes = crate::files::read_bounded(path)
        .map_err(|e| format!("cannot read {}: {e}", crate::text::path(path)))?;
    String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", crate::text::path(path)))
}

/// The definition a `path.ini:section` argument stands for (`load` is how a `from` line's
/// bundled game is found).
pub fn load(spec_text: &str) -> Result<Definition, String> {
    let Some((path, section)) = spec(spec_text) else {
        return Err(format!("`{spec_text}` is not `FILE.ini:SECTION`"));
    };
    crate::paths::definition_file(Path::new(path), crate::paths::Kind::Ini)?;
    let text = read_text(Path::new(path))?;
    let file = reader::read(&text);
    import(path, &text, &file, section)
        .map(|i| i.definition)
        .map_err(|r| r.message)
}

/// At most this many problems of one section are shown, as for a definition
/// ([`super::resolve::MAX_ERRORS`]): a file that is not a variants.ini gives a screenful.
pub const MAX_PROBLEMS: usize = super::resolve::MAX_ERRORS;

/// The problems' rendering, in the INI file: the first [`MAX_PROBLEMS`], then how many more.
fn render(name: &str, text: &str, lines: &LineIndex, problems: &[Problem]) -> String {
    let mut shown: Vec<String> = problems
        .iter()
        .take(MAX_PROBLEMS)
        .map(|p| render_with(p, name, text, lines))
        .collect();
    if problems.len() > MAX_PROBLEMS {
        shown.push(format!(
            "  ... and {} more problems of this section, not shown",
            problems.len() - MAX_PROBLEMS
        ));
    }
    shown.join("\n")
}

/// How much a refusal says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Every problem, rendered at its place, with suggestions.
    Full,
    /// The first line only (the problems are counted, not rendered, and no suggestion is
    /// looked for): for refusals past what is shown, so that the cost stays that of the
    /// section, not of the file.
    Count,
}

/// Imports one section of a file read as `file` from `text` (named `file_name` in messages).
pub fn import(
    file_name: &str,
    text: &str,
    file: &IniFile,
    section: &str,
) -> Result<Imported, Refusal> {
    import_with(file_name, text, file, section, Detail::Full)
}

/// [`import`], saying as much as `detail` asks when the section is refused.
pub fn import_with(
    file_name: &str,
    text: &str,
    file: &IniFile,
    section: &str,
    detail: Detail,
) -> Result<Imported, Refusal> {
    let refuse = |settings: Vec<String>, problems: Vec<Problem>| Refusal {
        section: section.to_string(),
        settings,
        problems: problems.len(),
        message: match detail {
            Detail::Full => format!(
                "the section [{section}] of {file_name} cannot be imported:\n{}",
                render(file_name, text, &file.lines, &problems)
            ),
            Detail::Count => format!(
                "the section [{section}] of {file_name} cannot be imported ({} problems)",
                problems.len()
            ),
        },
    };
    let Some(index) = file.position(section) else {
        let names = file.sections.iter().map(|s| s.name.as_str());
        return Err(Refusal {
            section: section.to_string(),
            settings: vec!["section".into()],
            problems: 1,
            message: format!(
                "no section [{section}] in {file_name}{}",
                crate::suggest::did_you_mean(section, names)
            ),
        });
    };
    let own = &file.sections[index];
    if FSF_GAMES.contains(&section) {
        return Err(refuse(
            vec!["section".into()],
            vec![Problem::new(
                format!("[{section}] has the name of a built-in game of Fairy-Stockfish, which ignores this section"),
                own.span.clone(),
                "a built-in name",
            )],
        ));
    }
    if !valid_name(section) {
        return Err(refuse(
            vec!["section".into()],
            vec![Problem::new(
                format!(
                    "[{section}] cannot name a variant: names are small letters, digits and `-`"
                ),
                own.span.clone(),
                "not a variant name",
            )],
        ));
    }
    // The chain of sections, the section itself last, and the built-in game it starts from.
    let mut chain = vec![index];
    let mut base: Option<&str> = None;
    let mut below = None;
    let mut built_in: Vec<&Section> = Vec::new();
    // The game of Fairy-Stockfish the chain starts from, whose own settings a section may not
    // write over unless the import follows them.
    let mut game: Option<&str> = None;
    loop {
        let current = &file.sections[*chain.last().expect("one section at least")];
        let Some(parent) = current.parent.as_deref() else {
            break;
        };
        if FSF_GAMES.contains(&parent) {
            game = FSF_GAMES.iter().find(|g| **g == parent).copied();
            match covered(parent) {
                Some(b) => {
                    base = Some(b);
                    break;
                }
                None => {
                    if let Some((sections, b)) = built_in_chain(parent) {
                        built_in = sections;
                        base = Some(b);
                        break;
                    }
                    return Err(refuse(
                        vec![format!("parent {parent}")],
                        vec![Problem::new(
                            format!("the parent `{parent}` is a game of Fairy-Stockfish that no bundled definition covers yet"),
                            current.parent_span.clone(),
                            "not covered",
                        )
                        .with_help(format!(
                            "the built-in games a section may start from: {}",
                            starting_games().join(", ")
                        ))],
                    ));
                }
            }
        }
        let Some(p) = file.position(parent) else {
            // Suggestions scan every name: only for a refusal that is shown.
            let mean = match detail {
                Detail::Full => {
                    let names = file
                        .sections
                        .iter()
                        .map(|s| s.name.as_str())
                        .chain(FSF_GAMES.iter().copied());
                    crate::suggest::did_you_mean(parent, names)
                }
                Detail::Count => String::new(),
            };
            return Err(refuse(
                vec!["parent".into()],
                vec![Problem::new(
                    format!(
                        "unknown parent `{parent}`: no section of the file and no game of Fairy-Stockfish{mean}"
                    ),
                    current.parent_span.clone(),
                    "unknown parent",
                )],
            ));
        };
        let names = |chain: &[usize]| -> String {
            chain
                .iter()
                .map(|i| format!("[{}]", file.sections[*i].name))
                .collect::<Vec<_>>()
                .join(" -> ")
        };
        if chain.contains(&p) {
            return Err(refuse(
                vec!["parent".into()],
                vec![Problem::new(
                    format!("inheritance loops: {} -> [{parent}]", names(&chain)),
                    current.parent_span.clone(),
                    "loops back",
                )],
            ));
        }
        if chain.len() >= MAX_DEPTH {
            // The first sections and the last few say where it goes; all 64 would be a wall.
            let shown = if chain.len() > 6 {
                format!(
                    "{} -> ... -> {}",
                    names(&chain[..3]),
                    names(&chain[chain.len() - 3..])
                )
            } else {
                names(&chain)
            };
            return Err(refuse(
                vec!["parent".into()],
                vec![Problem::new(
                    format!(
                        "the chain of parents is too deep: {shown} -> [{parent}] goes on past {MAX_DEPTH} sections, the most the import follows"
                    ),
                    current.parent_span.clone(),
                    "too deep",
                )
                .with_help(format!(
                    "a section may start from another, which may start from another, at most {MAX_DEPTH} deep"
                ))],
            ));
        }
        // A loop is the worse fault, so the order is judged once the chain is known.
        if p > *chain.last().expect("one section at least") && below.is_none() {
            below = Some(Problem::new(
                format!("the parent [{parent}] comes after [{}]: Fairy-Stockfish reads a parent section only from above", current.name),
                current.parent_span.clone(),
                "defined below",
            ));
        }
        chain.push(p);
    }
    if let Some(problem) = below {
        return Err(refuse(vec!["parent".into()], vec![problem]));
    }
    chain.reverse();
    let base_name = base.unwrap_or("chess");
    let base_def = match bundled(base_name) {
        Ok(d) => d,
        Err(e) => {
            return Err(refuse(
                vec!["definition".into()],
                vec![Problem::new(e, own.span.clone(), "here")],
            ))
        }
    };
    let provenance = format!("Fairy-Stockfish's variants.ini, [{section}]");
    let mut def = base_def.clone();
    def.name = section.to_string();
    def.title = format!("{section} (from Fairy-Stockfish's variants.ini)");
    def.source = provenance.clone();
    let mut problems = Vec::new();
    let mut refused = Vec::new();
    // What one section leaves the next: the pieces' types, the drops and immobility as
    // Fairy-Stockfish holds them (for the first, the base game's).
    let mut carry = map::Carry::of_base(base_name, &def);
    // The built-in game's own sections first (root first), then the file's.
    let sections: Vec<(&Section, bool)> = built_in
        .iter()
        .rev()
        .map(|s| (*s, true))
        .chain(chain.iter().map(|i| (&file.sections[*i], false)))
        .collect();
    for (n, (s, internal)) in sections.iter().enumerate() {
        let before = problems.len();
        let reset = n == 0 && base.is_none();
        let mut state = map::State::new(&def, reset, provenance.clone(), carry);
        for bad in &s.bad_lines {
            problems.push(Problem::new(
                "this line is not `key = value`, a section header or a comment",
                bad.clone(),
                "does not read",
            ));
            refused.push("line".to_string());
        }
        // Fairy-Stockfish keeps the last of a setting given twice, and applies settings in its
        // own order, not the file's.
        let mut settings: Vec<(usize, &reader::Setting, map::Kind)> = Vec::new();
        let mut last = std::collections::HashMap::new();
        for (at, setting) in s.settings.iter().enumerate() {
            last.insert(setting.key.as_str(), at);
        }
        for (at, setting) in s.settings.iter().enumerate() {
            if last.get(setting.key.as_str()) != Some(&at) {
                continue;
            }
            let kind = map::kind(&setting.key);
            let order = match &kind {
                map::Kind::Piece(i) => *i,
                map::Kind::Table(i) => 1000 + i,
                _ => 0,
            };
            // Past what is shown, a suggestion (a scan of every setting's name) is not looked
            // for: a section of a hundred thousand unknown keys costs their count, not more.
            let suggest = detail == Detail::Full && problems.len() < MAX_PROBLEMS;
            if let Some(p) = unsupported(setting, &kind, game.filter(|_| !*internal), suggest) {
                problems.push(p);
                refused.push(setting.key.clone());
                continue;
            }
            settings.push((order, setting, kind));
        }
        settings.sort_by_key(|(order, _, _)| *order);
        for (_, setting, kind) in &settings {
            if let Err(p) = state.apply(setting, kind) {
                problems.push(p);
                refused.push(setting.key.clone());
            }
        }
        if problems.is_empty() {
            if let Err(why) = state.finish() {
                problems.push(Problem::new(why, s.span.clone(), "in this section"));
                refused.push("definition".into());
            }
        }
        carry = state.carry();
        def = state.def;
        if *internal && problems.len() > before {
            // A built-in game's settings are this program's: an error there is its own.
            let why: Vec<String> = problems.drain(before..).map(|p| p.message).collect();
            return Err(refuse(
                vec!["definition".into()],
                vec![Problem::new(
                    format!(
                        "internal error: the built-in game [{}] does not import: {}",
                        s.name,
                        why.join("; ")
                    ),
                    own.span.clone(),
                    "this section",
                )],
            ));
        }
    }
    if !problems.is_empty() {
        let mut seen = std::collections::HashSet::new();
        refused.retain(|s| seen.insert(s.clone()));
        return Err(refuse(refused, problems));
    }
    write(&def, &base_def, base_name).map_err(|why| {
        refuse(
            vec!["definition".into()],
            vec![Problem::new(why, own.span.clone(), "this section")],
        )
    })
}

fn valid_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The problem of a setting that is not mapped, if it is one. One written at Fairy-Stockfish's
/// default is taken (it changes nothing), unless the section starts from a built-in `game`
/// whose own rules set it: then the default would change that game, which the import cannot
/// follow.
fn unsupported(
    setting: &reader::Setting,
    kind: &map::Kind,
    game: Option<&str>,
    suggest: bool,
) -> Option<Problem> {
    let key = &setting.key;
    match kind {
        map::Kind::Piece(_) | map::Kind::Table(_) => None,
        map::Kind::Unsupported(default) if setting.value.trim() == *default => {
            let game = game?;
            let set = base_settings::BASE_SETTINGS
                .binary_search_by_key(&game, |(g, _)| g)
                .is_ok_and(|i| base_settings::BASE_SETTINGS[i].1.contains(&key.as_str()));
            set.then(|| {
                Problem::new(
                    format!("the setting `{key}` is not supported yet, and `{game}` sets it: written here, even at Fairy-Stockfish's default (`{default}`), it changes that game's rule"),
                    setting.key_span.clone(),
                    "not supported",
                )
            })
        }
        map::Kind::Unsupported(default) => Some(Problem::new(
            format!("the setting `{key}` is not supported yet (only its default, `{default}`, is accepted)"),
            setting.key_span.clone(),
            "not supported",
        )),
        map::Kind::UnsupportedPiece(why) => Some(Problem::new(
            format!("the piece type `{key}` is not supported yet: {why}"),
            setting.key_span.clone(),
            "not supported",
        )),
        map::Kind::Mobility => (!setting.value.trim().is_empty() && setting.value.trim() != "-").then(|| {
            Problem::new(
                format!("the setting `{key}` is not supported yet (regions that confine a piece)"),
                setting.key_span.clone(),
                "not supported",
            )
        }),
        map::Kind::Unknown => Some(
            Problem::new(
                format!(
                    "unknown setting `{key}`{}",
                    if suggest {
                        crate::suggest::did_you_mean(key, map::known_names())
                    } else {
                        String::new()
                    }
                ),
                setting.key_span.clone(),
                "not a setting of Fairy-Stockfish",
            )
            .with_help("the supported settings are listed in docs/defining-variants.md, \"Importing Fairy-Stockfish's variants.ini\""),
        ),
    }
}

/// The bundled definition `name`, read.
fn bundled(name: &str) -> Result<Definition, String> {
    let text =
        super::load::bundled(name).ok_or_else(|| format!("no bundled definition `{name}`"))?;
    super::parse(name, text, &super::load::source)
        .map_err(|e| format!("the bundled definition `{name}` does not read:\n{e}"))
}

/// A definition with its places and provenance left out, to compare what two say.
fn meaning(d: &Definition) -> Definition {
    let mut d = d.clone();
    d.parent = None;
    d.pieces.iter_mut().for_each(|p| p.span = Span::default());
    d.options.iter_mut().for_each(|o| o.span = Span::default());
    d.rules.iter_mut().for_each(|r| {
        r.span = Span::default();
        r.source.clear();
    });
    d
}

/// The text of `def` as a child of the bundled `base_name`, formatted, read back, and checked
/// to mean what `def` means (else every component is written out; an error if even that reads
/// differently).
fn write(def: &Definition, base: &Definition, base_name: &str) -> Result<Imported, String> {
    // `from` keeps an inherited piece or component in its place when it is replaced, and adds
    // the new ones after: the definition meant is in that order.
    let mut def = def.clone();
    let place = |found: Option<usize>, at: usize| found.map_or((1, at), |i| (0, i));
    let mut pieces: Vec<_> = def.pieces.drain(..).enumerate().collect();
    pieces.sort_by_key(|(at, p)| place(base.pieces.iter().position(|q| q.letter == p.letter), *at));
    def.pieces = pieces.into_iter().map(|(_, p)| p).collect();
    let mut rules: Vec<_> = def.rules.drain(..).enumerate().collect();
    rules.sort_by_key(|(at, r)| place(base.rules.iter().position(|q| q.id == r.id), *at));
    def.rules = rules.into_iter().map(|(_, r)| r).collect();
    let mut options: Vec<_> = def.options.drain(..).enumerate().collect();
    options.sort_by_key(|(at, o)| place(base.options.iter().position(|q| q.name == o.name), *at));
    def.options = options.into_iter().map(|(_, o)| o).collect();
    let def = &def;
    let mut last = String::new();
    for full in [false, true] {
        let raw = emit::child_text(def, base, base_name, full);
        let text = super::fmt::format(&raw).map_err(|p| {
            format!(
                "internal error: the written definition does not read: {}",
                p.first().map_or("", |p| p.message.as_str())
            )
        })?;
        match super::parse(&def.name, &text, &super::load::source) {
            Ok(read) if meaning(&read) == meaning(def) => {
                return Ok(Imported {
                    name: def.name.clone(),
                    text,
                    definition: read,
                })
            }
            Ok(read) => {
                last = format!(
                    "internal error: the written definition reads differently ({})",
                    difference(&meaning(&read), &meaning(def))
                )
            }
            Err(e) => {
                return Err(format!(
                    "the definition it maps to is not valid: {}",
                    e.messages().join("; ")
                ))
            }
        }
    }
    Err(last)
}

/// What first differs between two definitions, in a few words.
fn difference(a: &Definition, b: &Definition) -> String {
    if (a.files, a.ranks, &a.holes) != (b.files, b.ranks, &b.holes) {
        return "the board".into();
    }
    for (x, y) in a.pieces.iter().zip(&b.pieces) {
        if x != y {
            return format!("the piece {}: {x:?} / {y:?}", x.letter);
        }
    }
    if a.pieces.len() != b.pieces.len() {
        return "the pieces".into();
    }
    if a.start != b.start {
        return "the start".into();
    }
    for (x, y) in a.rules.iter().zip(&b.rules) {
        if x != y {
            return format!("the rule {}: {x:?} / {y:?}", x.id);
        }
    }
    if a.rules.len() != b.rules.len() {
        let ids = |d: &Definition| {
            d.rules
                .iter()
                .map(|r| r.id.clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        return format!("the rules: {} / {}", ids(a), ids(b));
    }
    if a.options != b.options {
        return "the options".into();
    }
    "the title or source".into()
}

#[cfg(test)]
mod tests;
