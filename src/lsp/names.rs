//! The names a variant knows, gathered once per request from the tables the checker itself
//! consults (the rule catalogue, the options, the state keys, the invariants, the zones, the
//! pieces and the board): completion offers and hover explains exactly what `check` accepts.

use std::path::Path;

use crate::rules::{InvariantDef, KeyDef, OptionDef, Reason, RuleDef, Rules, Variant, VariantInfo};
use crate::with_variant;

/// One variant's names.
pub struct Names {
    /// The variant's name.
    pub variant: &'static str,
    pub info: &'static VariantInfo,
    pub rules: &'static [RuleDef],
    pub options: &'static [OptionDef],
    pub keys: &'static [KeyDef],
    pub invariants: &'static [InvariantDef],
    pub zones: &'static [&'static str],
    /// Each piece's letter and word.
    pub pieces: Vec<(char, &'static str)>,
    /// The squares of the file's board, in the board's order (none when its size is not one
    /// the variant is played on).
    pub squares: Vec<String>,
}

impl Names {
    /// The names of `variant` on a board of `size` (the variant's own when `None`).
    pub fn of(variant: Variant, size: Option<(u8, u8)>) -> Names {
        with_variant!(variant, R => Names {
            variant: R::name(),
            info: R::info(),
            rules: R::rules(),
            options: R::options(),
            keys: R::state_keys(),
            invariants: R::invariants(),
            zones: R::zones(),
            pieces: R::info().pieces.iter().map(|r| (r.letter(), R::word_of(*r))).collect(),
            squares: R::geometry_for(size)
                .map(|g| g.squares().map(|s| g.square_name(s)).collect())
                .unwrap_or_default(),
        })
    }

    pub fn rule(&self, id: &str) -> Option<&'static RuleDef> {
        self.rules.iter().find(|r| r.id == id)
    }

    pub fn option(&self, name: &str) -> Option<&'static OptionDef> {
        self.options.iter().find(|o| o.name == name)
    }

    pub fn key(&self, name: &str) -> Option<&'static KeyDef> {
        self.keys.iter().find(|k| k.name == name)
    }

    pub fn invariant(&self, name: &str) -> Option<&'static InvariantDef> {
        self.invariants.iter().find(|i| i.name == name)
    }

    /// The pieces, each its letter and word: `K king, Q queen`.
    pub fn words(&self) -> String {
        let pieces: Vec<String> = self
            .pieces
            .iter()
            .map(|(letter, word)| format!("{letter} {word}"))
            .collect();
        pieces.join(", ")
    }

    /// The reasons a game of this variant can end for.
    pub fn reasons(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.info.reasons.iter().map(|r: &Reason| r.name())
    }
}

/// The variant named on a file's `variant` line, found by a look at the text alone (the file
/// need not parse: completion works in a file being written), with a definition's path read
/// beside the file at `path`.
pub fn variant_in(text: &str, path: Option<&Path>) -> Option<(Variant, Option<(u8, u8)>)> {
    let line = text
        .lines()
        .map(|l| l.trim_start_matches('\u{feff}').trim())
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    let mut words = line.strip_prefix("variant")?.split_whitespace();
    let spec = words.next()?;
    let size = words.next().and_then(|s| {
        let (f, r) = s.split_once('x')?;
        Some((f.parse().ok()?, r.parse().ok()?))
    });
    variant_named(spec, path).map(|v| (v, size))
}

/// The variant `spec` names in a file at `path`; none for a definition whose chain is over the
/// live limit (it is not read as you type).
pub fn variant_named(spec: &str, path: Option<&Path>) -> Option<Variant> {
    let spec = match path {
        Some(p) => crate::definition::load::beside(spec, p).ok()?,
        None => spec.to_string(),
    };
    let chain = crate::definition::cache::chain(&spec);
    if chain.bytes > super::diagnostics::MAX_LIVE_BYTES as u64 {
        return None;
    }
    spec.parse().ok()
}

/// Every variant name a `variant` line may hold: the interpreted variants, then the bundled
/// definitions.
pub fn variant_names() -> Vec<&'static str> {
    Variant::ALL
        .iter()
        .map(|v| v.name())
        .chain(crate::definition::load::bundled_names())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_variant() {
        let (variant, size) = variant_in("# x\nvariant chess\n", None).unwrap();
        assert_eq!(size, None);
        let names = Names::of(variant, size);
        assert_eq!(names.squares.len(), 64);
        assert!(names.rule("castling").is_some());
        assert!(names.pieces.contains(&('N', "knight")));
        assert!(variant_in("scenario \"x\" {", None).is_none());
        assert!(variant_names().contains(&"xpanse"));
    }
}
