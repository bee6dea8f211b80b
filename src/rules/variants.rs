//! The registry of variants: what each game is, as data, and the enum that dispatches to its
//! rules. Adding a variant means its own folder under `src/rules/` (with its [`VariantInfo`])
//! plus its lines here: one arm of [`Variant`], one of [`with_variant!`](crate::with_variant)
//! and one entry of [`REGISTRY`].

use std::fmt;
use std::str::FromStr;

use super::piece::Role;
use super::setup_error::SetupError;
use super::{chess, csipgs, cypher, defined, xpanse, Reason};

/// What a variant is, for the language and the messages: the scenario language asks the
/// registry which variant has zones, designs or check instead of naming variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The name scenario files and the command line use.
    pub name: &'static str,
    /// The game, in a few words.
    pub game: &'static str,
    /// The board sizes it is played on, as `<files>x<ranks>`.
    pub boards: &'static [(u8, u8)],
    /// The fixed pieces it has.
    pub pieces: &'static [Role],
    /// Whether pieces are designed in Betza notation (and have prices).
    pub designs: bool,
    /// Whether invented pieces, written as Betza designs (`(WD)e4`), may stand on its board.
    pub invented: bool,
    /// The names of its board zones, if it has any.
    pub zones: &'static [&'static str],
    /// Whether a King can be in check.
    pub check: bool,
    /// The reasons a game of it can end for.
    pub reasons: &'static [Reason],
    /// Whether `arbiter` interprets it yet (the others parse, for the language).
    pub interpreted: bool,
}

impl VariantInfo {
    /// The board sizes as people write them: `8x8`, `4x5, 5x5, ...`.
    pub fn boards_text(&self) -> String {
        let sizes: Vec<String> = self
            .boards
            .iter()
            .map(|(f, r)| format!("{f}x{r}"))
            .collect();
        sizes.join(", ")
    }

    /// Whether the variant is played on a board of `files` x `ranks`; the error names the
    /// sizes it is played on.
    pub fn check_board(&self, files: u8, ranks: u8) -> Result<(), SetupError> {
        if self.boards.contains(&(files, ranks)) {
            Ok(())
        } else {
            Err(SetupError::size(format!(
                "{} is played on {}",
                self.name,
                self.boards_text()
            )))
        }
    }

    /// The piece letters, `K Q R B N P`.
    pub fn letters(&self) -> String {
        let letters: Vec<String> = self.pieces.iter().map(|r| r.letter().to_string()).collect();
        letters.join(" ")
    }
}

/// Every variant of the scenario language, interpreted or not, in the order they are listed.
pub static REGISTRY: &[VariantInfo] = &[chess::INFO, cypher::INFO, csipgs::INFO, xpanse::INFO];

/// The variants `arbiter` interprets: enum dispatch to their [`super::Rules`] types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    Chess,
    Cypher,
    Csipgs,
    Xpanse,
    /// A variant written as a definition, read in this run.
    Defined(defined::DefId),
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Chess,
        Variant::Cypher,
        Variant::Csipgs,
        Variant::Xpanse,
    ];

    pub fn info(self) -> &'static VariantInfo {
        match self {
            Variant::Chess => &chess::INFO,
            Variant::Cypher => &cypher::INFO,
            Variant::Csipgs => &csipgs::INFO,
            Variant::Xpanse => &xpanse::INFO,
            Variant::Defined(id) => &defined::entry(id).info,
        }
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The rule catalogue.
    pub fn rules(self) -> &'static [super::RuleDef] {
        crate::with_variant!(self, R => <R as super::Rules>::rules())
    }

    /// The interpretation options.
    pub fn options(self) -> &'static [super::OptionDef] {
        crate::with_variant!(self, R => <R as super::Rules>::options())
    }
}

/// The names of the registered variants for which `has` holds, for messages
/// ("`expect zone` is for cypher").
pub fn names_where(has: impl Fn(&VariantInfo) -> bool) -> String {
    let names: Vec<&str> = REGISTRY.iter().filter(|v| has(v)).map(|v| v.name).collect();
    names.join(", ")
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(v) = Variant::ALL.iter().find(|v| v.name() == s) {
            return Ok(*v);
        }
        if let Some(v) = defined::find(s) {
            return Ok(v);
        }
        if crate::definition::load::is_path(s) || crate::definition::load::bundled(s).is_some() {
            return crate::rules::defined::loaded(s);
        }
        let known: Vec<_> = Variant::ALL.iter().map(|v| v.name()).collect();
        if REGISTRY.iter().any(|v| v.name == s) {
            Err(format!(
                "variant `{s}` has no interpreter yet; variants: {}",
                known.join(", ")
            ))
        } else {
            // Variants without an interpreter are suggested too: a misspelt `xpanse` should
            // hear of `xpanse`.
            let names = REGISTRY
                .iter()
                .map(|v| v.name)
                .chain(crate::definition::load::bundled_names());
            Err(format!(
                "unknown variant {}; variants: {}; bundled definitions: {}; or the path of a definition (`./my-game.def`){}",
                chess::quoted(s),
                known.join(", "),
                crate::definition::load::bundled_names()
                    .collect::<Vec<_>>()
                    .join(", "),
                crate::suggest::did_you_mean(s, names)
            ))
        }
    }
}

/// Runs `$body` with `$R` bound to the rules type of `$variant`: enum dispatch, monomorphised.
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $R:ident => $body:expr) => {
        match $variant {
            $crate::rules::Variant::Chess => {
                type $R = $crate::rules::chess::Chess;
                $body
            }
            $crate::rules::Variant::Cypher => {
                type $R = $crate::rules::cypher::Cypher;
                $body
            }
            $crate::rules::Variant::Csipgs => {
                type $R = $crate::rules::csipgs::Csipgs;
                $body
            }
            $crate::rules::Variant::Xpanse => {
                type $R = $crate::rules::xpanse::Xpanse;
                $body
            }
            $crate::rules::Variant::Defined(id) => {
                let _bound = $crate::rules::defined::bind(id);
                type $R = $crate::rules::defined::Position;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn every_interpreted_variant_is_registered_under_its_rules_name() {
        for v in Variant::ALL {
            assert!(v.info().interpreted, "{v}");
            assert!(REGISTRY.contains(v.info()), "{v}");
            let name = crate::with_variant!(v, R => R::name());
            assert_eq!(name, v.name());
        }
        let mut names: Vec<_> = REGISTRY.iter().map(|v| v.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), REGISTRY.len(), "names are unique");
    }

    #[test]
    fn misspelt_variants_get_suggestions() {
        assert!("xpanze".parse::<Variant>().unwrap_err().contains("xpanse"));
        assert_eq!(names_where(|v| !v.zones.is_empty()), "cypher");
        assert_eq!(names_where(|v| v.designs), "csipgs");
    }
}
