//! Turns and their actions: moves, castling, drops, csipgs purchases and redesigns, Cypher
//! coups, ChessXpanse rebirths and passes.

use pest::iterators::Pair;

use super::{Builder, Res};
use crate::rules::{CastleSide, Claim, LegKind, Style};
use crate::scenario::ast::{
    ActionSyntax, Design, LegSyntax, OriginSyntax, PieceName, TurnSyntax, TurnText,
};
use crate::scenario::diagnostic::Problem;
use crate::scenario::parse::grammar::Rule;

impl Builder {
    /// `turn = ${ (kw_resign | kw_draw) ~ end_of_turn | action ~ claim? ~ (";" ~ action ~
    /// claim?)* ~ end_of_turn }`
    pub(crate) fn turn(&mut self, pair: Pair<Rule>) -> Res<TurnText> {
        let span = self.span(&pair);
        let text = pair.as_str().to_string();
        let mut actions = Vec::new();
        let mut claim = None;
        let mut special = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::kw_resign => special = Some(TurnSyntax::Resign),
                Rule::kw_draw => special = Some(TurnSyntax::Draw),
                Rule::kw_timeout => special = Some(TurnSyntax::Timeout),
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
    pub(crate) fn action(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::castle => Ok(self.castle(p)),
            Rule::pass => Ok(ActionSyntax::Pass),
            Rule::coup => self.coup(p),
            Rule::reborn => self.reborn(p),
            Rule::vanish => self.vanish(p),
            Rule::buy => self.buy(p),
            Rule::drop => self.drop(p),
            Rule::redesign => self.redesign(p),
            Rule::coordinate_move => self.coordinate_move(p),
            Rule::short_move => self.short_move(p),
            _ => Err(self.bug(&p)),
        }
    }

    /// `castle = { "O-O-O" | "O-O" }`
    pub(crate) fn castle(&mut self, pair: Pair<Rule>) -> ActionSyntax {
        match pair.as_str() {
            "O-O-O" => ActionSyntax::Castle(CastleSide::Queen),
            _ => ActionSyntax::Castle(CastleSide::King),
        }
    }

    /// `coup = { kw_coup ~ sp+ ~ piece ~ square }`
    pub(crate) fn coup(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let whole = pair.clone();
        let (piece, square) = self.piece_and_square(pair)?;
        let piece = piece.ok_or_else(|| self.missing("piece", &whole))?;
        Ok(ActionSyntax::Coup { piece, square })
    }

    /// `reborn = { kw_reborn ~ sp+ ~ (square ~ "-")? ~ square }`
    pub(crate) fn reborn(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let mut squares: Vec<_> = pair
            .clone()
            .into_inner()
            .filter(|p| p.as_rule() == Rule::square)
            .map(|p| self.square(p))
            .collect();
        let square = squares.pop().ok_or_else(|| self.missing("square", &pair))?;
        Ok(ActionSyntax::Reborn {
            from: squares.pop(),
            square,
        })
    }

    /// `vanish = { kw_vanish ~ sp+ ~ square }`
    pub(crate) fn vanish(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let p = pair
            .clone()
            .into_inner()
            .find(|p| p.as_rule() == Rule::square)
            .ok_or_else(|| self.missing("square", &pair))?;
        Ok(ActionSyntax::Vanish {
            square: self.square(p),
        })
    }

    /// `buy = { kw_buy ~ sp+ ~ (design | design_name) }`
    pub(crate) fn buy(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let mut designs = self.designs_of(&pair)?;
        match designs.pop() {
            Some(design) => Ok(ActionSyntax::Buy { design }),
            None => Err(self.missing("design", &pair)),
        }
    }

    /// `drop = { piece ~ "@" ~ square }`
    pub(crate) fn drop(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let whole = pair.clone();
        let (piece, to) = self.piece_and_square(pair)?;
        let piece = piece.ok_or_else(|| self.missing("piece", &whole))?;
        Ok(ActionSyntax::Drop { piece, to })
    }

    /// `redesign = { (design | design_name) ~ "=" ~ (design | design_name) }`
    pub(crate) fn redesign(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let designs = self.designs_of(&pair)?;
        match <[Design; 2]>::try_from(designs) {
            Ok([from_design, to_design]) => Ok(ActionSyntax::Redesign {
                from_design,
                to_design,
            }),
            Err(_) => Err(self.missing("two designs", &pair)),
        }
    }

    /// The designs a `buy` or `redesign` names, with or without parentheses.
    pub(crate) fn designs_of(&mut self, pair: &Pair<Rule>) -> Res<Vec<Design>> {
        pair.clone()
            .into_inner()
            .filter(|p| matches!(p.as_rule(), Rule::design | Rule::design_name))
            .map(|p| self.any_design(p))
            .collect()
    }

    /// `coordinate_move = { piece? ~ square ~ (step ~ square)+ ~ promotion? }`
    pub(crate) fn coordinate_move(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
        let whole = pair.clone();
        let mut piece = None;
        let mut from = None;
        let mut legs = Vec::new();
        let mut mark = None;
        let mut promotion = None;
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::piece => piece = Some(self.piece(p)?),
                Rule::square => {
                    let square = self.square(p);
                    match mark.take() {
                        Some(kind) => legs.push(LegSyntax { kind, to: square }),
                        None => from = Some(square),
                    }
                }
                Rule::step => mark = Some(self.step(p)?),
                Rule::promotion => promotion = Some(self.promotion(p)?),
                _ => {}
            }
        }
        let from = from.ok_or_else(|| self.missing("square", &whole))?;
        if legs.is_empty() {
            return Err(self.missing("leg", &whole));
        }
        Ok(ActionSyntax::Move {
            style: Style::Coordinate,
            piece,
            from: OriginSyntax::Exact(from),
            legs,
            promotion,
        })
    }

    /// `step = { "-" | "x" | "^" | "~" }`: what happens on the square that follows.
    pub(crate) fn step(&mut self, pair: Pair<Rule>) -> Res<LegKind> {
        let mark = pair.as_str().chars().next();
        mark.and_then(LegKind::from_mark)
            .ok_or_else(|| self.bug(&pair))
    }

    /// `short_move = { piece? ~ origin? ~ capture? ~ square ~ promotion? }`
    pub(crate) fn short_move(&mut self, pair: Pair<Rule>) -> Res<ActionSyntax> {
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
        let kind = if capture {
            LegKind::Kill(None)
        } else {
            LegKind::Step
        };
        Ok(ActionSyntax::Move {
            style: Style::Short,
            piece,
            from,
            legs: vec![LegSyntax { kind, to }],
            promotion,
        })
    }

    /// `origin = { origin_square | origin_file | origin_rank }`
    pub(crate) fn origin(&mut self, pair: Pair<Rule>) -> Res<OriginSyntax> {
        let p = self.only(&pair)?;
        match p.as_rule() {
            Rule::origin_square => self.origin_square(p),
            Rule::origin_file => Ok(OriginSyntax::File(p.as_str().to_string())),
            Rule::origin_rank => Ok(OriginSyntax::Rank(p.as_str().to_string())),
            _ => Err(self.bug(&p)),
        }
    }

    /// `origin_square = { square ~ &(capture? ~ square) }`
    pub(crate) fn origin_square(&mut self, pair: Pair<Rule>) -> Res<OriginSyntax> {
        let p = self.only(&pair)?;
        Ok(OriginSyntax::Exact(self.square(p)))
    }

    /// `promotion = { "=" ~ piece }`
    pub(crate) fn promotion(&mut self, pair: Pair<Rule>) -> Res<PieceName> {
        let p = self.only(&pair)?;
        self.piece(p)
    }

    /// `claim = { "+" | "#" }`
    pub(crate) fn claim(&mut self, pair: Pair<Rule>) -> Claim {
        match pair.as_str() {
            "#" => Claim::Mate,
            _ => Claim::Check,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::{CastleSide, Claim, Role, Style};
    use crate::scenario::ast::{ActionSyntax, OriginSyntax, PieceName, StatementKind, TurnSyntax};
    use crate::scenario::parse::parse_turn;
    use crate::scenario::parse::test_util::*;

    fn turn(text: &str) -> TurnSyntax {
        match parse_turn(text) {
            Ok(t) => {
                assert_eq!(t.text, text.trim());
                t.turn
            }
            Err(p) => panic!(
                "{text}: {}",
                crate::scenario::diagnostic::render(&p, "turn", text)
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

    /// A move's style, piece, origin, legs (each mark and square: `-c3xe5`) and promotion.
    fn mv(a: &ActionSyntax) -> (Style, Option<String>, String, String, Option<String>) {
        match a {
            ActionSyntax::Move {
                style,
                piece,
                from,
                legs,
                promotion,
            } => {
                let origin = match from {
                    OriginSyntax::Any => String::new(),
                    OriginSyntax::File(f) => format!("file {f}"),
                    OriginSyntax::Rank(r) => format!("rank {r}"),
                    OriginSyntax::Exact(s) => s.text(),
                };
                let legs = legs
                    .iter()
                    .map(|l| format!("{}{}", l.kind.mark(), l.to.text()))
                    .collect();
                let text = |p: &Option<PieceName>| p.as_ref().map(PieceName::text);
                (*style, text(piece), origin, legs, text(promotion))
            }
            other => panic!("not a move: {other:?}"),
        }
    }

    fn role(r: Role) -> Option<String> {
        Some(r.letter().to_string())
    }

    /// A design as the text of a piece: `(WD)`.
    fn design(d: &str) -> Option<String> {
        Some(format!("({d})"))
    }

    /// The designs of a `buy` or a redesign, as written.
    fn designs(a: &ActionSyntax) -> Vec<&str> {
        match a {
            ActionSyntax::Buy { design } => vec![&design.text],
            ActionSyntax::Redesign {
                from_design,
                to_design,
            } => vec![&from_design.text, &to_design.text],
            other => panic!("not a design action: {other:?}"),
        }
    }

    #[test]
    fn bad_turns_are_refused() {
        for bad in [
            "", "e2-e4e5", "e2-", "Kx", "e2-e4;", "O-O-O-O", "passe", "resign x", "e2 e4", "Z1-z2",
        ] {
            assert!(parse_turn(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn turns_with_several_actions_and_claims() {
        let (a, c) = actions("Kd2; P=WbRbmHfB");
        assert_eq!(a.len(), 2);
        assert_eq!(c, None);
        assert_eq!(designs(&a[1]), ["P", "WbRbmHfB"]);
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
    fn coordinate_moves() {
        use Style::Coordinate as C;
        assert_eq!(
            mv(&action("Bc3-d4")),
            (C, role(Role::Bishop), sq("c3"), sq("-d4"), None)
        );
        assert_eq!(
            mv(&action("Bc3xe5")),
            (C, role(Role::Bishop), sq("c3"), sq("xe5"), None)
        );
        assert_eq!(mv(&action("e3-e4")), (C, None, sq("e3"), sq("-e4"), None));
        assert_eq!(
            mv(&action("e7-e8=Q")),
            (C, None, sq("e7"), sq("-e8"), role(Role::Queen))
        );
        assert_eq!(
            mv(&action("Sd0-d4")),
            (C, role(Role::Spy), sq("d0"), sq("-d4"), None)
        );
        assert_eq!(
            mv(&action("Qd2-z4")),
            (C, role(Role::Queen), sq("d2"), sq("-z4"), None)
        );
        assert_eq!(mv(&action("z9-z10")), (C, None, sq("z9"), sq("-z10"), None));
        assert_eq!(
            mv(&action("Ac1-c3-e5")),
            (C, role(Role::Archer), sq("c1"), sq("-c3-e5"), None)
        );
        assert_eq!(
            mv(&action("Ga1-a4-d4")),
            (C, role(Role::Gatekeeper), sq("a1"), sq("-a4-d4"), None)
        );
        assert_eq!(
            mv(&action("(WD)c3xe5")),
            (C, design("WD"), sq("c3"), sq("xe5"), None)
        );
    }

    #[test]
    fn each_leg_keeps_its_own_mark() {
        use Style::Coordinate as C;
        let archer = role(Role::Archer);
        for (text, legs) in [
            ("Ac1-c3xe5", "-c3xe5"),
            ("Ac1xc3-e5", "xc3-e5"),
            ("Ac1xc3xe5", "xc3xe5"),
            ("Ac1^c3xe5", "^c3xe5"),
            ("Ac1^c3^e5~e6", "^c3^e5~e6"),
        ] {
            assert_eq!(
                mv(&action(text)),
                (C, archer.clone(), sq("c1"), sq(legs), None),
                "{text}"
            );
        }
        // The marks make different turns of the same squares.
        assert_ne!(action("Ac1-c3xe5"), action("Ac1xc3-e5"));
        assert_ne!(action("Ac1xc3-e5"), action("Ac1xc3xe5"));
    }

    #[test]
    fn short_moves() {
        use Style::Short as S;
        assert_eq!(
            mv(&action("Kd2")),
            (S, role(Role::King), String::new(), sq("-d2"), None)
        );
        assert_eq!(
            mv(&action("Nxe5")),
            (S, role(Role::Knight), String::new(), sq("xe5"), None)
        );
        assert_eq!(
            mv(&action("Nbd7")),
            (S, role(Role::Knight), sq("file b"), sq("-d7"), None)
        );
        assert_eq!(
            mv(&action("R1a3")),
            (S, role(Role::Rook), sq("rank 1"), sq("-a3"), None)
        );
        assert_eq!(
            mv(&action("R10xa3")),
            (S, role(Role::Rook), sq("rank 10"), sq("xa3"), None)
        );
        assert_eq!(
            mv(&action("Nb1d2")),
            (S, role(Role::Knight), sq("b1"), sq("-d2"), None)
        );
        assert_eq!(
            mv(&action("exd5")),
            (S, None, sq("file e"), sq("xd5"), None)
        );
        assert_eq!(mv(&action("e4")), (S, None, String::new(), sq("-e4"), None));
        assert_eq!(
            mv(&action("e8=Q")),
            (S, None, String::new(), sq("-e8"), role(Role::Queen))
        );
        assert_eq!(
            mv(&action("e8=(WD)")),
            (S, None, String::new(), sq("-e8"), design("WD"))
        );
        assert_eq!(
            mv(&action("(WD)xe5")),
            (S, design("WD"), String::new(), sq("xe5"), None)
        );
        assert_eq!(
            mv(&action("(WA)cd4")),
            (S, design("WA"), sq("file c"), sq("-d4"), None)
        );
    }

    #[test]
    fn csipgs_designs_lex_generically_with_nested_groups() {
        let drop = action("(Wfc(DNFA)scDsHbmH)@d6");
        assert!(
            matches!(&drop, ActionSyntax::Drop { piece: PieceName::Design(d), to } if d.text == "Wfc(DNFA)scDsHbmH" && to.text() == "d6"),
            "{drop:?}"
        );
        assert_eq!(
            designs(&action("buy Wfc(DNFA)scDsHbmH")),
            ["Wfc(DNFA)scDsHbmH"]
        );
        assert_eq!(designs(&action("FbDbcA=fc(DF)")), ["FbDbcA", "fc(DF)"]);
        assert_eq!(designs(&action("WD=WF")), ["WD", "WF"]);
        assert_eq!(designs(&action("(WD)=(WF)")), ["WD", "WF"]);
        assert_eq!(
            designs(&action("sWbmD=Wfc(DNFA)scDsHbmH")),
            ["sWbmD", "Wfc(DNFA)scDsHbmH"]
        );
        // A promotion is not a redesign.
        assert_eq!(
            mv(&action("e8=Q")),
            (
                Style::Short,
                None,
                String::new(),
                sq("-e8"),
                role(Role::Queen)
            )
        );
        assert_eq!(
            mv(&action("(Wfc(DNFA)scDsHbmH)c6")),
            (
                Style::Short,
                design("Wfc(DNFA)scDsHbmH"),
                String::new(),
                sq("-c6"),
                None
            )
        );
        // Any capital letter lexes as a piece; the variant says whether it has one.
        assert_eq!(
            mv(&action("Xe4")),
            (
                Style::Short,
                Some("X".into()),
                String::new(),
                sq("-e4"),
                None
            )
        );
        // The design's span covers its parentheses.
        let text = "Kd2; (W(DF))@e5";
        match parse_turn(text).map(|t| t.turn) {
            Ok(TurnSyntax::Actions(a, _)) => match &a[1] {
                ActionSyntax::Drop { piece, .. } => {
                    assert_eq!(&text[piece.span().clone()], "(W(DF))")
                }
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
        for bad in ["(WD@e5", "(W(DF)@e5", "(WD))@e5", "buy W(D", "()@e5"] {
            assert!(parse_turn(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn other_actions() {
        assert_eq!(action("O-O"), ActionSyntax::Castle(CastleSide::King));
        assert_eq!(action("O-O-O"), ActionSyntax::Castle(CastleSide::Queen));
        assert!(
            matches!(action("P@c5"), ActionSyntax::Drop { piece, to } if piece.text() == "P" && to.text() == "c5")
        );
        assert!(
            matches!(action("(WD)@e5"), ActionSyntax::Drop { piece: PieceName::Design(d), .. } if d.text == "WD")
        );
        assert_eq!(designs(&action("buy WD")), ["WD"]);
        assert_eq!(designs(&action("buy (WD)")), ["WD"]);
        assert_eq!(designs(&action("Q=BL")), ["Q", "BL"]);
        assert_eq!(action("pass"), ActionSyntax::Pass);
        assert!(
            matches!(action("reborn c1"), ActionSyntax::Reborn { from: None, square } if square.text() == "c1")
        );
        assert!(
            matches!(action("reborn e5-c1"), ActionSyntax::Reborn { from: Some(f), square } if f.text() == "e5" && square.text() == "c1")
        );
        assert!(
            matches!(action("vanish e5"), ActionSyntax::Vanish { square } if square.text() == "e5")
        );
        assert!(matches!(
            action("coup Nf9"),
            ActionSyntax::Coup { piece, square } if piece.text() == "N" && square.text() == "f9"
        ));
    }
}
