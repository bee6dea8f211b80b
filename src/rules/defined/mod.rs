//! The generic engine: one [`Rules`] implementation that plays any variant written as a
//! definition ([`crate::definition`]). Each component of the definition is written once, in
//! [`position`]: the generator produces what it allows and the legality test asks the ones
//! that forbid, so legal turns, refusals and explanations come from the same code.
//!
//! A definition is read once per run and kept ([`register`], [`registry`]);
//! [`Variant::Defined`](crate::rules::Variant::Defined) names it by id. The [`Rules`] trait asks some things of a variant without a position (its catalogue,
//! its options, its start): for a defined variant those come from the definition that
//! [`with_variant!`](crate::with_variant) binds to the running thread ([`bind`]).

#[cfg(test)]
mod agreement;
mod compile;
mod contact;
#[cfg(test)]
mod cypher_agreement;
mod defection;
mod en_passant;
mod endings;
mod infiltration;
mod invariants;
mod judge;
mod position;
mod properties;
mod registry;
mod retake;
#[cfg(test)]
mod tests;
mod zones;

use std::cell::Cell;
use std::hash::Hash;
use std::sync::Mutex;

pub use compile::Compiled;
pub use position::{Move, Position, Special};
pub use registry::{entry, find, load, loaded, register};

use super::design::DesignId;
use super::explain::Step;
use super::{Action, CastleSide, Color, Leg, Role, Turn, TurnPattern};
use super::{
    Geometry, InvariantDef, KeyDef, OptionDef, Options, Outcome, Reason, Refusal, RuleDef, Rules,
    Setup, SetupError, VariantInfo,
};
use crate::definition::model::{FlipPattern, Onto, Value};
use crate::definition::Definition;

/// A definition read in this run, with what the shared vocabulary needs as `'static` data.
pub struct Entry {
    pub def: Definition,
    pub info: VariantInfo,
    pub rules: Vec<RuleDef>,
    pub options: Vec<OptionDef>,
    /// The state keys its components keep.
    pub keys: Vec<KeyDef>,
    /// The invariants its components and pieces offer.
    pub invariants: Vec<InvariantDef>,
    /// The definition compiled under each set of readings asked for so far.
    compiled: Mutex<Vec<Reading>>,
}

/// The definition compiled under one set of readings (the option values, in declaration
/// order), with the piece counts of its start position.
type Reading = (
    Vec<&'static str>,
    &'static Compiled,
    &'static [[u16; 64]; 2],
);

/// A registered definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefId(u32);

fn leak_strs(v: &[String]) -> &'static [&'static str] {
    Box::leak(
        v.iter()
            .map(|s| compile::leak(s))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    )
}

fn entry_of(def: Definition) -> Entry {
    let l = compile::leak;
    let mut rules = vec![
        super::rule(
            "not-your-turn",
            "the players move alternately",
            "a player moves only pieces of their own colour, on their own turn",
        ),
        super::rule(
            "no-piece-there",
            "the players move alternately",
            "a move starts from a square holding a piece of the player's colour",
        ),
        super::rule(
            "own-piece-on-target",
            "the pieces' movements",
            "a piece may not move to a square occupied by a piece of its own colour",
        ),
        super::rule(
            "no-such-piece",
            "the players move alternately",
            "a move names a piece of the player's that stands where it says",
        ),
        super::rule(
            "no-such-action",
            "the pieces' movements",
            "a turn is one move of a piece, written as going straight to its destination",
        ),
        super::rule(
            "blocked",
            "the pieces' movements",
            "a piece that moves along a line may not pass over another piece",
        ),
        super::rule(
            "turn-length",
            "the players move alternately",
            "a turn is exactly one move",
        ),
        super::rule(
            "capture-mark",
            "the notation of turns",
            "`x` marks a capture and `-` a move to an empty square",
        ),
        super::rule(
            "check-claim",
            "the notation of turns",
            "`+` claims that the move gives check and `#` that it mates",
        ),
        super::rule(
            "game-over",
            "the end of the game",
            "once the game has ended no further move is played",
        ),
        super::rule("resignation", "the players", "a player who resigns loses"),
        super::rule(
            "agreement",
            "the players",
            "the players may agree to a draw",
        ),
        super::rule(
            "start-position",
            "the definition's `start`",
            "the game starts from the definition's start position, White to move unless it says otherwise",
        ),
    ];
    if def
        .rules
        .iter()
        .any(|r| r.component.makes_two_action_turns())
    {
        rules.push(super::rule(
            "action-by-action",
            "the turns of two actions",
            "a turn of two actions is judged action by action: the first must be legal by itself (only whether the mover's royal pieces are left attacked waits for the turn's end), a first action that ends the game ends the turn, and the second is judged on the board the first leaves",
        ));
    }
    let source = l(&def.source);
    for p in &def.pieces {
        rules.push(
            super::rule(
                l(&p.move_rule()),
                source,
                l(&match p.design.atoms().is_empty() {
                    true => format!("the {} never moves once on the board", p.name),
                    false => format!("the {} moves as `{}`", p.name, p.betza),
                }),
            )
            .quote(l(&p.clause)),
        );
        if let Some(capture) = &p.capture_clause {
            rules.push(
                super::rule(
                    l(&format!("{}-capture", p.name)),
                    source,
                    l(&format!(
                        "the {} captures as the capturing parts of `{}` allow",
                        p.name, p.betza
                    )),
                )
                .quote(l(capture)),
            );
        }
    }
    rules.push(invented_piece());
    // The designer's words for the engine's rules.
    for w in &def.words {
        if let Some(r) = rules.iter_mut().find(|r| r.id == w.id) {
            if let Some(so) = &w.source {
                r.source = l(so);
            }
            r.quote = l(&w.clause);
        }
    }
    for (at, r) in def.rules.iter().enumerate() {
        // A component written with per-reading lines is one rule: the first (its default
        // reading) says what it does, with how each other reading changes it.
        if def.rules[..at].iter().any(|e| e.id == r.id) {
            continue;
        }
        let mut text = summary(&r.component, &def);
        for other in def.rules[at + 1..].iter().filter(|e| e.id == r.id) {
            let under = other.when.iter().filter(|w| !r.when.contains(w));
            let under: Vec<String> = under.map(|(o, v)| format!("{o} = {v}")).collect();
            let said = summary(&other.component, &def);
            if said != text && !under.is_empty() {
                text.push_str(&format!("; under {}: {said}", under.join(", ")));
            }
        }
        rules.push(super::rule(l(&r.id), l(&r.source), l(&text)).quote(l(&r.clause)));
        // Each part is a rule of its own, quoting its own words where the definition gives
        // them, else the component's.
        let part = |name: &str, what: &'static str| {
            let own = r.parts.iter().find(|p| p.name == name);
            let source = own.and_then(|p| p.source.as_deref()).unwrap_or(&r.source);
            let clause = own.map_or(r.clause.as_str(), |p| p.clause.as_str());
            super::rule(l(&r.part_id(name)), l(source), what).quote(l(clause))
        };
        match &r.component {
            crate::definition::Component::Castling { .. } => {
                for (name, what) in [
                    ("rights", "castling needs a right left on that side: neither the king nor that rook has moved"),
                    ("blocked", "the squares between the king and the rook, and where they go, are empty"),
                    ("out-of-check", "a king in check may not castle"),
                    ("through-check", "the king may not pass over an attacked square"),
                ] {
                    rules.push(part(name, what));
                }
            }
            crate::definition::Component::NoEntry { opened_by, .. } => {
                rules.push(part("crossing", "a piece standing in the region may cross the squares outside it, on a line with nothing in the way, to another square of the region"));
                if !opened_by.is_empty() {
                    rules.push(part("one-entry", "one piece leaving the region lets one piece in: a turn has at most two actions"));
                    rules.push(part("own-movement", "the piece let in enters by its own movement, not by one a region gives it where it stands"));
                }
            }
            crate::definition::Component::Infiltration { once: true, .. } => {
                rules.push(part("once", "each side infiltrates at most once a game"));
            }
            crate::definition::Component::Defection { bare, .. } => {
                rules.push(part("choice", "where several of the other side's pieces share the highest rank, the turn names the one that changes sides, as `coup Nc6`; with one or none, nothing is named"));
                if !bare.is_empty() {
                    rules.push(part("bare-king", "a defection that leaves the other side nothing but pieces of the `bare` kinds wins for the side that made it"));
                }
            }
            _ => {}
        }
    }
    let options = def
        .options
        .iter()
        .map(|o| OptionDef {
            name: l(&o.name),
            values: leak_strs(&o.values),
            default: l(&o.default),
            reason: l(&o.reason),
        })
        .collect();
    let mut reasons = vec![Reason::Resignation, Reason::Agreement];
    for r in &def.rules {
        let Some(reason) = reason_of(&r.component) else {
            continue;
        };
        if !reasons.contains(&reason) {
            reasons.push(reason);
        }
    }
    let info = VariantInfo {
        name: l(&def.name),
        game: l(&def.title),
        boards: Box::leak(vec![(def.files, def.ranks)].into_boxed_slice()),
        pieces: Box::leak(
            def.pieces
                .iter()
                .map(|p| compile::role_of(p.letter))
                .chain(blocker_role(&def))
                .collect::<Vec<_>>()
                .into_boxed_slice(),
        ),
        designs: false,
        invented: true,
        zones: leak_strs(
            &regions_of(&def)
                .into_iter()
                .map(|(n, _)| n)
                .collect::<Vec<_>>(),
        ),
        check: def
            .rules
            .iter()
            .any(|r| matches!(r.component, crate::definition::Component::Check { .. })),
        reasons: Box::leak(reasons.into_boxed_slice()),
        interpreted: true,
    };
    let keys = keys_of(&def);
    let invariants = invariants::catalogue(&def);
    Entry {
        def,
        info,
        rules,
        options,
        keys,
        invariants,
        compiled: Mutex::new(Vec::new()),
    }
}

/// The role turns name a `blocker` by (`D` in `D@d5`), if the definition has one.
fn blocker_role(def: &Definition) -> Option<Role> {
    def.rules.iter().find_map(|r| match &r.component {
        crate::definition::Component::Blocker { letter, .. } => Some(Role::Kind(*letter)),
        _ => None,
    })
}

/// The rule of the invented pieces every definition's board takes besides its own kinds
/// ([`Compiled::with_designs`]).
fn invented_piece() -> RuleDef {
    super::rule(
        "invented-piece",
        "Betza's funny notation, as the scenario language reads it",
        "an invented piece, written as its Betza design (`(WD)d4` for White, `[WD]` for Black in a FEN), stands on the board besides the definition's own kinds: it moves by its design's atoms, each leaping, or riding over empty squares, in its directions (an `n` leap is blocked by a piece on its path, a `p` atom hops over exactly one piece, a `g` atom lands right behind it), an `m` atom only moves to an empty square and a `c` atom only captures; it is not royal, and no component names it, so it never castles, double-steps, takes en passant or promotes, and nothing promotes into it",
    )
}

/// The state keys a definition's components keep, as the built-in chess names them; the
/// clocks and `fen` are in every FEN, so every definition has them.
fn keys_of(def: &Definition) -> Vec<KeyDef> {
    use crate::definition::Component as C;
    let has = |f: &dyn Fn(&C) -> bool| def.rules.iter().any(|r| f(&r.component));
    let key = |name, per_color, values, summary| KeyDef {
        name,
        per_color,
        values,
        summary,
    };
    let mut keys = Vec::new();
    if has(&|c| matches!(c, C::Castling { .. })) {
        keys.push(key(
            "castling",
            false,
            "castling rights as a FEN writes them (KQkq, or rook files), or -",
            "the castling rights still held (FEN field 3); no key means none",
        ));
    }
    if has(&|c| matches!(c, C::EnPassant { .. })) {
        keys.push(key(
            "en-passant",
            false,
            "a square, or -",
            "the square a double step just passed over (FEN field 4)",
        ));
    }
    keys.push(key(
        "halfmove-clock",
        false,
        "a number",
        "half-moves since the last capture or pawn move, for the move-count rule",
    ));
    keys.push(key(
        "fullmove-number",
        false,
        "a number from 1",
        "the number of the current move, increased after Black moves",
    ));
    if has(&|c| matches!(c, C::CheckCount { .. })) {
        keys.push(key(
            "check-count",
            true,
            "a number",
            "the checks the side has given, for the check-count rule",
        ));
    }
    if has(&|c| matches!(c, C::Drops { .. } | C::CapturesToHand | C::Gating { .. })) {
        keys.push(key(
            "hand",
            true,
            "piece letters, or -",
            "the pieces in the side's hand, by letter (upper case), or - for none",
        ));
    }
    if has(&|c| matches!(c, C::Infiltration { once: true, .. })) {
        keys.push(key(
            "infiltration-used",
            true,
            "yes or no",
            "whether the side has made its one infiltration",
        ));
    }
    if has(&|c| matches!(c, C::Retake { .. })) {
        keys.push(key(
            "retake",
            false,
            "a square, or -",
            "the square of a capturer the side to move may re-take, as `retake` opens it",
        ));
    }
    if has(&|c| matches!(c, C::Prisoners { .. })) {
        keys.push(key(
            "prisoners",
            true,
            "a number (piece letters where several kinds are kept)",
            "the side's captured pieces it may release, as `prisoners` keeps them",
        ));
    }
    keys.push(key(
        "fen",
        false,
        "a FEN (read-only)",
        "the whole position in Fairy-Stockfish's FEN conventions",
    ));
    keys
}

/// The named regions of a definition's components, in the order they are written: each
/// side's region of a double step, en passant, promotion or goal, named `<rule id>-<side>`
/// (`promotion-white`). They are the definition's zones: `show` shades them and `expect zone`
/// names them; a square in several has the first, and a region with no square of its own is
/// left out.
fn regions_of(def: &Definition) -> Vec<(String, &crate::definition::model::Region)> {
    use crate::definition::Component as C;
    let mut out: Vec<(String, &crate::definition::model::Region)> = Vec::new();
    // Zones declared by name are the zones, each side's part under the one name.
    let named = def.rules.iter().filter_map(|r| match &r.component {
        C::Zone { name, region } => Some((name, region)),
        _ => None,
    });
    for (name, region) in named {
        for r in region {
            if !out.iter().any(|(n, o)| n == name && *o == r) {
                out.push((name.clone(), r));
            }
        }
    }
    if !out.is_empty() {
        return out;
    }
    for r in &def.rules {
        let region = match &r.component {
            C::DoubleStep { region, .. }
            | C::EnPassant { region, .. }
            | C::Promotion { region, .. }
            | C::Goal { region, .. }
            | C::Confine { region, .. }
            | C::RegionMove { region, .. }
            | C::Drops { region, .. }
            | C::Sanctuary { region, .. }
            | C::NoEntry { region, .. } => region,
            _ => continue,
        };
        for (color, region) in Color::ALL.iter().zip(region) {
            let name = format!("{}-{color}", r.id);
            // A region whose every square an earlier one holds is never a square's zone.
            let covered =
                |c: &crate::definition::model::Cell| out.iter().any(|(_, r)| r.contains(*c));
            if !region.cells.iter().all(covered) && !out.iter().any(|(n, _)| *n == name) {
                out.push((name, region));
            }
        }
    }
    out
}

/// The parts of a component the catalogue lists as rules of their own (`<id>-<part>`).
fn part_names(c: &crate::definition::Component) -> &'static [&'static str] {
    crate::definition::resolve::component_parts(c.name())
}

/// The reason a game ends for under a component, for those that end games.
fn reason_of(c: &crate::definition::Component) -> Option<Reason> {
    use crate::definition::Component as C;
    Some(match c {
        C::Checkmate { .. } => Reason::Checkmate,
        C::Stalemate { .. } => Reason::Stalemate,
        C::Extinction { .. } | C::Explosion { .. } => Reason::Extinction,
        C::Goal { .. } => Reason::Goal,
        C::BareKing { .. } => Reason::BareKing,
        C::CheckCount { .. } => Reason::CheckCount,
        C::InsufficientMaterial { .. } => Reason::InsufficientMaterial,
        C::Repetition { .. } => Reason::Repetition,
        C::MoveCount { .. } => Reason::FiftyMove,
        C::Pass { .. } | C::Bikjang { .. } => Reason::NoMove,
        C::FullBoard { .. } => Reason::FullBoard,
        C::Defection { .. } => Reason::Coup,
        C::Infiltration { .. } => Reason::Infiltration,
        C::Adjacency(k) | C::Alignment(k)
            if k.effect != crate::definition::model::Effect::Illegal
                || k.elsewhere
                    .is_some_and(|e| e != crate::definition::model::Effect::Illegal) =>
        {
            Reason::Flip
        }
        _ => return None,
    })
}

/// Kind letters as a summary writes them: `invented` for every invented piece.
fn letter_words(letters: &[char]) -> String {
    letters
        .iter()
        .map(|&l| match l {
            crate::definition::model::INVENTED => "invented".to_string(),
            l => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A component's summary for the catalogue, in the engine's words.
fn summary(c: &crate::definition::Component, def: &Definition) -> String {
    use crate::definition::Component as C;
    match c {
        C::DoubleStep { .. } | C::EnPassant { .. } => en_passant::summary(c).expect("a double step or en passant"),
        C::Promotion { .. } => "a piece ending its move in its promotion zone is exchanged for one of the named kinds".into(),
        C::Castling { .. } => "the king and an unmoved rook castle, with the squares between them empty and the king not in check nor passing an attacked square".into(),
        C::Check { .. } => "no move may leave the mover's royal pieces attacked".into(),
        C::Checkmate { value } => format!("a side in check with no legal move: {}", value_word(*value)),
        C::Stalemate { value } => format!("a side not in check with no legal move: {}", value_word(*value)),
        C::Extinction { value, .. } => format!("a side that has lost every piece of a named kind: {}", value_word(*value)),
        C::Goal { value, .. } => format!("a side whose named piece reaches its goal: {}", value_word(*value)),
        C::CheckCount { checks, value } => format!("a side that has given {checks} checks: {}", value_word(*value)),
        C::CompulsoryCapture => "a side that can capture must capture".into(),
        C::NoGivingCheck => "no move may give check".into(),
        C::Explosion { .. } => "a capture removes the capturing piece and every non-immune piece around the capture square".into(),
        C::Repetition { times } => format!("the same position for the {} time: a draw", ordinal(*times)),
        C::MoveCount { moves } => format!("{moves} moves by each side without a capture or a pawn move: a draw"),
        C::BareKing { value, .. } => format!("a side left with one piece: {}", value_word(*value)),
        C::FirstMove { movement, .. } => format!("a piece on a square it keeps a first-move right on may also move `{movement}`"),
        C::CheckedRoyalCaptures => "a royal piece in check moves only to capture a piece that gives check".into(),
        C::Confine { .. } => "pieces of the named kinds never leave their side's region".into(),
        C::RegionMove { movement, replace: false, .. } => format!("a piece of the named kinds standing in its side's region may also move `{movement}`"),
        C::RegionMove { movement, replace: true, .. } => format!("a piece of the named kinds standing in its side's region moves only as `{movement}`, its own movement set aside"),
        C::Retake { from, .. } => retake::summary(*from),
        C::Defection { .. } => defection::summary(),
        C::Infiltration { once, alone, .. } => infiltration::summary(*once, *alone),
        C::Transparent { .. } => "a piece of the named kinds standing in its side's region does not block attacks: lines of attack pass over it".into(),
        C::Zone { .. } => {
            // One rule may name several zones, each in a statement of its own.
            let id = def.rules.iter().find(|r| r.component == *c).map(|r| r.id.as_str());
            let names: Vec<String> = def
                .rules
                .iter()
                .filter(|r| Some(r.id.as_str()) == id)
                .filter_map(|r| match &r.component {
                    C::Zone { name, .. } => Some(format!("`{name}`")),
                    _ => None,
                })
                .collect();
            match names.len() {
                1 => format!("the squares of the region are the zone {}", names[0]),
                _ => format!("the board's zones, each the squares of its region: {}", names.join(", ")),
            }
        }
        C::Sanctuary { by, from, from_zones, attacks, .. } => {
            let by = if by.is_empty() { "any piece".to_string() } else { format!("a piece of {}", letter_words(by)) };
            let whence = match from {
                crate::definition::model::Reach::Anywhere => "",
                crate::definition::model::Reach::Inside => " standing in the region too",
                crate::definition::model::Reach::Outside => " standing outside the region",
            };
            let zones = from_zones.as_ref().map(|(names, _)| format!(" standing in {} {}", if names.len() == 1 { "the zone" } else { "the zones" }, names.join(", ")));
            let whence = zones.as_deref().unwrap_or(whence);
            let nor = if *attacks { ", nor attacked," } else { " (though it may be attacked)" };
            format!("a piece of the named kinds standing in its side's region is not captured{nor} by {by}{whence}")
        }
        C::NoEntry { while_present: None, .. } => "pieces of the named kinds standing outside their side's region never move into it".into(),
        C::NoEntry { while_present: Some((whose, kinds)), .. } => format!(
            "pieces of the named kinds standing outside their side's region never move into it while {} piece of {} stands there",
            if *whose == crate::definition::model::Whose::Own { "one of their own side's" } else { "an enemy" },
            letter_words(kinds)
        ),
        C::FlyingRoyals => "two opposing royal pieces may not face each other on a file with nothing between".into(),
        C::Adjacency(k) | C::Alignment(k) => {
            let line = matches!(c, C::Alignment(_));
            contact::summary(k, line, |l| {
                def.pieces.iter().find(|p| p.letter == l).map_or_else(|| l.to_string(), |p| p.name.clone())
            })
        }
        C::Drops { no_doubled, no_mate, must, free, onto, opening, through_holes, in_check, gives_check, .. } => {
            let mut s = String::from(if *free {
                "a piece of the named kinds, held or not, may be put on an empty square of the side's region as a whole turn"
            } else {
                "a piece in hand may be put on an empty square of the side's region as a whole turn"
            });
            match onto {
                Onto::Anywhere => {}
                Onto::NextToOwn => s.push_str(", next to a piece of the side's"),
                Onto::Enclosing if *through_holes => s.push_str(", next to an enemy piece, where a line over enemy pieces and holes runs from it to a piece of the side's"),
                Onto::Enclosing => s.push_str(", where a line of enemy pieces runs from it to a piece of the side's"),
            }
            if !opening.cells.is_empty() {
                s.push_str("; but while a square of the opening is empty, only there");
            }
            if *no_doubled {
                s.push_str(", not on a file holding the side's own piece of that kind");
            }
            if !*gives_check {
                s.push_str(", and not to give check");
            }
            if *no_mate {
                s.push_str(", and not to checkmate");
            }
            if !*in_check {
                s.push_str("; never while the side is in check");
            }
            if *must {
                s.push_str("; while such a drop is possible, the turn must be one");
            }
            s
        }
        C::Prisoners { pieces, in_check, gives_check, .. } => {
            let mut s = format!(
                "a captured {} is kept for its owner, who may release it instead of moving onto an empty square of the side's region",
                pieces
                    .iter()
                    .map(|&l| def.pieces.iter().find(|p| p.letter == l).map_or_else(|| l.to_string(), |p| p.name.clone()))
                    .collect::<Vec<_>>()
                    .join(" or ")
            );
            if !*gives_check {
                s.push_str(", if it gives no check");
            }
            if !*in_check {
                s.push_str("; never while the side is in check");
            }
            s
        }
        C::CapturesToHand => "a captured piece goes into the capturer's hand, as the piece it was before any promotion".into(),
        C::Gating { shields: true } => "a piece leaving a first-rank square with a gating right may have a piece from the hand put on the square it leaves".into(),
        C::Gating { shields: false } => "a piece leaving a first-rank square with a gating right may have a piece from the hand put on the square it leaves; the move is judged for check without that piece".into(),
        C::HopLimit { .. } => "a piece of the named kinds may neither pass over nor capture a piece of the immune kinds".into(),
        C::Pass { value, stuck: false } => format!("a player may pass instead of moving, unless in check; two passes in a row end the game: {}", value_word(*value)),
        C::Pass { value, stuck: true } => format!("a player with pieces on the board and no other legal turn must pass; two passes in a row end the game: {}", value_word(*value)),
        C::Flip { pattern: FlipPattern::Neighbours } => "after a move or a drop, every enemy piece next to the square it lands on changes sides".into(),
        C::Flip { pattern: FlipPattern::Lines } => "after a move or a drop, every line of enemy pieces running from the square it lands on to a piece of the mover's changes sides".into(),
        C::FullBoard { value } => format!("when no square of the board is empty, the game ends: {}", value_word(*value)),
        C::Blocker { name, shot, keep, .. } => format!(
            "every move is followed by placing the {name}, a neutral piece nothing may capture or pass, on {}{}",
            if *shot { "a square the moved piece could move to from where it landed" } else { "any empty square" },
            if *keep { "; it stays there for the rest of the game" } else { " other than where it stood" }
        ),
        C::Bikjang { value } => format!("a player whose royal piece faces the enemy one on a file with nothing between must part them or pass, even in check; that pass ends the game: {}", value_word(*value)),
        C::InsufficientMaterial { alone, colour_bound } => {
            let letters = |l: &[char]| l.iter().map(char::to_string).collect::<Vec<_>>().join(" ");
            let mut cases = Vec::new();
            if !alone.is_empty() {
                cases.push(format!("nothing but one piece of {} beside the royal pieces", letters(alone)));
            }
            if !colour_bound.is_empty() {
                cases.push(format!("nothing but pieces of {} on squares of one colour", letters(colour_bound)));
            }
            format!("neither side can win with the material left ({}): a draw", cases.join(", or "))
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`.
fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn value_word(v: Value) -> &'static str {
    match v {
        Value::Win => "it wins",
        Value::Loss => "it loses",
        Value::Draw => "a draw",
        Value::Count => "the side with more pieces on the board wins, equal numbers draw",
    }
}

impl Entry {
    /// The definition compiled under `options`, once per run and readings.
    pub fn compiled(
        &'static self,
        options: &Options,
    ) -> (&'static Compiled, &'static [[u16; 64]; 2]) {
        match self.compiled_with(options, &[]) {
            Ok(c) => c,
            Err(_) => unreachable!("a definition without invented pieces always compiles"),
        }
    }

    /// The definition compiled under `options` with a kind for each invented piece of
    /// `designs` (sorted, without repeats), once per run, readings and designs.
    fn compiled_with(
        &'static self,
        options: &Options,
        designs: &[DesignId],
    ) -> Result<(&'static Compiled, &'static [[u16; 64]; 2]), SetupError> {
        // The designs' texts follow the readings, so keys of one length never mix the two.
        let key: Vec<&'static str> = self
            .options
            .iter()
            .map(|o| options.get(o.name))
            .chain(designs.iter().map(|d| d.text()))
            .collect();
        let mut cache = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, c, s)) = cache.iter().find(|(k, _, _)| *k == key) {
            return Ok((c, s));
        }
        let reading = |name: &str| -> String {
            self.options
                .iter()
                .position(|o| o.name == name)
                .map(|i| key[i].to_string())
                .unwrap_or_default()
        };
        let c = Compiled::new(self.def.clone(), &reading).with_designs(designs)?;
        let c: &'static Compiled = Box::leak(Box::new(c));
        static NO_COUNTS: [[u16; 64]; 2] = [[0; 64]; 2];
        let start = Position::read_fen(c, &self.def.start, &NO_COUNTS)
            .map(|p| p.counts)
            .unwrap_or([[0; 64]; 2]);
        let s: &'static [[u16; 64]; 2] = Box::leak(Box::new(start));
        cache.push((key, c, s));
        Ok((c, s))
    }

    /// The position a FEN gives, on the definition compiled for the invented pieces in it.
    fn read(&'static self, fen: &str, options: &Options) -> Result<Position, SetupError> {
        let designs = designs_in(fen);
        let (c, s) = self.compiled_with(options, &designs)?;
        Position::read_fen(c, fen, s)
    }

    /// [`Self::read`] for a FEN in Fairy-Stockfish's conventions, whatever the definition's
    /// layout (a scenario's board and keys are written so).
    fn read_standard(&'static self, fen: &str, options: &Options) -> Result<Position, SetupError> {
        let designs = designs_in(fen);
        let (c, s) = self.compiled_with(options, &designs)?;
        Position::read_standard(c, fen, s, None)
    }
}

/// The pieces a `prisoners` state key's value stands for, as upper-case letters: a number
/// of the one kind kept, or the letters of kinds kept (`-` for none).
fn prisoner_letters(c: &Compiled, value: &str) -> Result<String, SetupError> {
    let kept: Vec<char> = (0..c.kinds.len())
        .filter(|&k| c.kept.has(k))
        .map(|k| c.kinds[k].letter)
        .collect();
    if let [one] = kept[..] {
        let limit = c.squares.len();
        return match value.parse::<usize>() {
            Ok(n) if n <= limit => Ok(std::iter::repeat_n(one, n).collect()),
            _ => Err(SetupError::key(format!(
                "`prisoners` is a number from 0 to {limit} (one a square), not `{value}`"
            ))),
        };
    }
    let letters: String = value.chars().filter(|&ch| ch != '-').collect();
    match letters.chars().find(|ch| !kept.contains(ch)) {
        Some(ch) => Err(SetupError::key(format!(
            "`prisoners` lists the kinds kept, {}, in upper case, not `{ch}`",
            kept.iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ))),
        None => Ok(letters),
    }
}

/// The invented pieces a FEN's placement names (`(WD)`, `[WD]`), sorted, without repeats; up
/// to the first that is not a design, which reading the FEN then reports.
fn designs_in(fen: &str) -> Vec<DesignId> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let mut designs = Vec::new();
    let mut at = 0;
    while let Some(c) = placement[at..].chars().next() {
        if c == '(' || c == '[' {
            let Ok((piece, len)) = super::board::design_in_fen(&placement[at..], "") else {
                break;
            };
            designs.extend(piece.design());
            at += len;
        } else {
            at += c.len_utf8();
        }
    }
    designs.sort();
    designs.dedup();
    designs
}

thread_local! {
    static BOUND: Cell<Option<&'static Entry>> = const { Cell::new(None) };
}

/// Keeps a definition bound to the thread until dropped, then restores the one before.
pub struct Bound(Option<&'static Entry>);

impl Drop for Bound {
    fn drop(&mut self) {
        BOUND.with(|b| b.set(self.0));
    }
}

/// Binds definition `id` to the running thread, for the [`Rules`] functions that have no
/// position to ask.
pub fn bind(id: DefId) -> Bound {
    let e = entry(id);
    Bound(BOUND.with(|b| b.replace(Some(e))))
}

fn bound() -> &'static Entry {
    BOUND
        .with(|b| b.get())
        .expect("a defined variant's rules are asked for inside with_variant!, which binds it")
}

impl Rules for Position {
    type Move = Move;

    fn info() -> &'static VariantInfo {
        &bound().info
    }

    fn rules() -> &'static [RuleDef] {
        &bound().rules
    }

    fn options() -> &'static [OptionDef] {
        &bound().options
    }

    fn state_keys() -> &'static [KeyDef] {
        &bound().keys
    }

    fn invariants() -> &'static [InvariantDef] {
        &bound().invariants
    }

    fn geometry_for(size: Option<(u8, u8)>) -> Result<Geometry, SetupError> {
        let e = bound();
        if let Some((f, r)) = size {
            e.info.check_board(f, r)?;
        }
        Ok(e.def.geometry)
    }

    fn start(_geometry: Geometry, options: &Options) -> Result<Self, SetupError> {
        let e = bound();
        let (c, s) = e.compiled(options);
        Position::read_fen(c, &e.def.start, s)
    }

    fn from_setup(setup: &Setup, options: &Options) -> Result<Self, SetupError> {
        let e = bound();
        let (c, _) = e.compiled(options);
        let mut fen = setup.board.fen_placement();
        if c.hands {
            let mut pocket = String::new();
            for color in Color::ALL {
                let mut held = setup
                    .keys
                    .get(&("hand".to_string(), Some(color)))
                    .map_or("", |h| h.as_str())
                    .to_string();
                if let Some(n) = setup.keys.get(&("prisoners".to_string(), Some(color))) {
                    held.push_str(&prisoner_letters(c, n)?);
                }
                for ch in held.chars().filter(|&c| c != '-') {
                    if !ch.is_ascii_uppercase() {
                        return Err(SetupError::key(format!(
                            "`hand` lists piece letters in upper case, not `{ch}`"
                        )));
                    }
                    pocket.push(match color {
                        Color::White => ch,
                        Color::Black => ch.to_ascii_lowercase(),
                    });
                }
            }
            fen.push_str(&format!("[{pocket}]"));
        }
        fen.push_str(if setup.turn == Color::White {
            " w"
        } else {
            " b"
        });
        let mut checks = [0u32; 2];
        for ((name, color), value) in setup.keys.iter() {
            let Some(def) = e.keys.iter().find(|k| k.name == name) else {
                let names: Vec<_> = e.keys.iter().map(|k| k.name).collect();
                return Err(SetupError::key(format!(
                    "{} has no state key `{name}`; keys: {}",
                    e.def.name,
                    names.join(", ")
                )));
            };
            if def.per_color != color.is_some() {
                return Err(SetupError::key(if def.per_color {
                    format!("the state key `{name}` takes a colour (`{name} white`)")
                } else {
                    format!("the state key `{name}` takes no colour")
                }));
            }
            match name.as_str() {
                "fen" => {
                    return Err(SetupError::key(
                        "the state key `fen` is read-only; give the position as a FEN instead",
                    ))
                }
                "halfmove-clock" | "fullmove-number" if value.parse::<u32>().is_err() => {
                    return Err(SetupError::key(format!(
                        "`{name}` is a number, not `{value}`"
                    )))
                }
                "check-count" => {
                    let n = value.parse::<u32>().map_err(|_| {
                        SetupError::key(format!("`check-count` is a number, not `{value}`"))
                    })?;
                    checks[color.unwrap_or(Color::White).index()] = n;
                }
                _ => {}
            }
        }
        let key = |k: &str| setup.keys.get(&(k.to_string(), None)).cloned();
        fen.push_str(&format!(
            " {} {} {} {}",
            key("castling").unwrap_or_else(|| "-".into()),
            key("en-passant").unwrap_or_else(|| "-".into()),
            key("halfmove-clock").unwrap_or_else(|| "0".into()),
            key("fullmove-number").unwrap_or_else(|| "1".into()),
        ));
        if c.check_count.is_some() {
            fen.push_str(&format!(" +{}+{}", checks[0], checks[1]));
        }
        let mut pos = e.read_standard(&fen, options)?;
        for color in Color::ALL {
            match setup
                .keys
                .get(&("infiltration-used".to_string(), Some(color)))
                .map(String::as_str)
            {
                None | Some("no") => {}
                Some("yes") => pos.used[color.index()] = true,
                Some(v) => {
                    return Err(SetupError::key(format!(
                        "`infiltration-used` is yes or no, not `{v}`"
                    )))
                }
            }
        }
        if let Some(sq) = key("retake").filter(|s| s != "-") {
            pos.retake = Some(pos.window_at(&sq).map_err(SetupError::key)?);
        }
        Ok(pos)
    }

    fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(self.c.geometry);
        setup.board = self.board.clone();
        setup.turn = self.turn;
        for k in &bound().keys {
            match (k.name, k.per_color) {
                ("fen", _) => {}
                (name, false) => {
                    setup
                        .keys
                        .insert((name.to_string(), None), self.state_key(name, None));
                }
                (name, true) => {
                    for color in Color::ALL {
                        setup.keys.insert(
                            (name.to_string(), Some(color)),
                            self.state_key(name, Some(color)),
                        );
                    }
                }
            }
        }
        setup
    }

    fn from_fen(_geometry: Geometry, fen: &str, options: &Options) -> Result<Self, SetupError> {
        bound().read(fen, options)
    }

    fn fen(&self) -> String {
        Position::fen(self)
    }

    fn board(&self) -> &super::Board {
        &self.board
    }

    fn turn(&self) -> Color {
        self.turn
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.consult();
        Position::legal_moves(self, out)
    }

    fn play(&mut self, m: Move) {
        self.apply(m)
    }

    fn describe(&self, m: Move) -> Turn {
        if m.special == Special::Pass {
            return Turn::single(Action::Pass);
        }
        let g = self.c.geometry;
        if let Some(k) = m.dropped() {
            return Turn::single(Action::Drop {
                role: self.c.kinds[k].role,
                design: None,
                to: m.to.square(),
            });
        }
        let piece = self.board.piece_at(m.from);
        let role = piece.map_or(Role::Kind('?'), |p| p.role());
        let victim = match m.special {
            Special::EnPassant { victim } => self.board.piece_at(victim),
            Special::Castle { .. } | Special::Promote | Special::Place => None,
            _ => self.board.piece_at(m.to),
        };
        let (to, castle) = match m.special {
            Special::Castle { rook, side, .. } => {
                let chess960 = self.c.castling.as_ref().is_some_and(|c| c.chess960);
                let side = if side == 1 {
                    CastleSide::King
                } else {
                    CastleSide::Queen
                };
                (if chess960 { rook } else { m.to }, Some(side))
            }
            _ => (m.to, None),
        };
        let _ = g;
        let moved = Action::Move {
            role,
            design: piece.and_then(|p| p.design()),
            from: m.from.square(),
            legs: vec![Leg::onto(to.square(), victim)],
            promotion: m.promotion().map(|k| self.c.kinds[k].role),
            castle,
        };
        let mut turn = Turn::single(moved);
        // The gated piece is put from the hand: a drop after the move.
        if let Some((k, at)) = m.gated() {
            turn.actions.push(Action::Drop {
                role: self.c.kinds[k].role,
                design: None,
                to: at.square(),
            });
        }
        if let Some((from, to)) = m.then {
            // The second action is read on the board the first leaves.
            let mut after = self.clone();
            after.apply(Move { then: None, ..m });
            let second = after.board.piece_at(from);
            turn.actions.push(Action::Move {
                role: second.map_or(Role::Kind('?'), |p| p.role()),
                design: second.and_then(|p| p.design()),
                from: from.square(),
                // A placement removes what stands there; it captures nothing (`-`).
                legs: vec![Leg::onto(
                    to.square(),
                    after.board.piece_at(to).filter(|_| !m.placed),
                )],
                promotion: None,
                castle: None,
            });
        }
        if let (Some(b), Some(sq)) = (&self.c.blocker, m.block) {
            turn.actions.push(Action::Drop {
                role: Role::Kind(b.letter),
                design: None,
                to: sq.square(),
            });
        }
        // The piece that changes sides is named only where the mover chooses it.
        if let Some(t) = m.turned.filter(|_| self.names_defector(m)) {
            let piece = self.board.piece_at(t);
            turn.actions.push(Action::Coup {
                role: piece.map_or(Role::Kind('?'), |p| p.role()),
                design: piece.and_then(|p| p.design()),
                square: t.square(),
            });
        }
        turn
    }

    fn in_check(&self) -> Option<bool> {
        Position::in_check(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        self.outcome_with(!moves.is_empty())
    }

    fn outcome_with(&self, has_legal_turn: bool) -> Option<Outcome> {
        self.consult();
        self.ending(has_legal_turn)
    }

    fn refusal(&self, pattern: &TurnPattern) -> Refusal {
        self.consult();
        let steps = self.judge(pattern);
        match steps
            .into_iter()
            .find(|s| s.verdict == super::explain::StepVerdict::Forbids)
        {
            Some(s) => Refusal::new(s.rule, s.note),
            None => Refusal::new(
                "no-such-action",
                "the written turn names no single move of this game",
            ),
        }
    }

    fn explain_refused(&self, pattern: &TurnPattern) -> Vec<Step> {
        self.consult();
        self.judge(pattern)
    }

    fn explain_legal(&self, m: Move) -> Vec<Step> {
        self.consult();
        self.judge_move(m)
    }

    fn repetition_key(&self) -> u64 {
        self.key()
    }

    fn repetition_draw(&self, seen: usize) -> Option<&'static str> {
        let (asked, fewest) = self.c.readings.repetition;
        if seen >= fewest as usize {
            super::consulted::note(asked);
        }
        let (t, times) = self.c.repetition?;
        (seen >= times as usize).then_some(t.rule)
    }

    fn zone(&self, square: super::Square) -> Option<&'static str> {
        let cell = crate::definition::model::Cell {
            file: square.file,
            rank: square.rank,
        };
        let (name, _) = regions_of(&self.c.def)
            .into_iter()
            .find(|(_, r)| r.contains(cell))?;
        bound().info.zones.iter().copied().find(|z| *z == name)
    }

    fn word_of(role: Role) -> &'static str {
        match role {
            Role::Kind(c) => bound()
                .def
                .pieces
                .iter()
                .find(|p| p.letter == c)
                .map_or(role.word(), |p| p.name.as_str()),
            _ => role.word(),
        }
    }

    fn role_of_word(word: &str) -> Option<Role> {
        bound()
            .def
            .pieces
            .iter()
            .find(|p| p.name == word)
            .map(|p| compile::role_of(p.letter))
    }

    fn resignation_rule() -> &'static str {
        "resignation"
    }

    fn agreement_rule() -> &'static str {
        "agreement"
    }

    fn state_key(&self, key: &str, color: Option<Color>) -> String {
        let standard = self.standard_fen();
        let field = |i: usize| standard.split(' ').nth(i).unwrap_or("-").to_string();
        match key {
            "castling" => field(2),
            "en-passant" => field(3),
            "halfmove-clock" => self.halfmove.to_string(),
            "fullmove-number" => self.fullmove.to_string(),
            "check-count" => self.checks[color.unwrap_or(Color::White).index()].to_string(),
            "hand" | "prisoners" => {
                let kept = key == "prisoners";
                let hand = &self.hand[color.unwrap_or(Color::White).index()];
                let held = hand
                    .iter()
                    .zip(&self.c.kinds)
                    .enumerate()
                    .filter(|(k, _)| self.c.kept.has(*k) == kept);
                if kept && self.c.kept.0.count_ones() == 1 {
                    return held
                        .map(|(_, (&n, _))| u32::from(n))
                        .sum::<u32>()
                        .to_string();
                }
                let letters: String = held
                    .flat_map(|(_, (&n, k))| std::iter::repeat_n(k.letter, n as usize))
                    .collect();
                if letters.is_empty() {
                    "-".into()
                } else {
                    letters
                }
            }
            "retake" => self.retake_text(),
            "infiltration-used" => match self.used[color.unwrap_or(Color::White).index()] {
                true => "yes".into(),
                false => "no".into(),
            },
            "fen" => Position::fen(self),
            _ => String::new(),
        }
    }

    fn check_invariant(&self, name: &str) -> Result<(), String> {
        self.invariant(name)
    }

    fn check_invariant_after(&self, before: &Self, m: Move, name: &str) -> Result<(), String> {
        self.invariant_after(before, m, name)
    }
}
