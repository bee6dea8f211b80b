//! Writing a definition as text: the statements by which an imported definition differs from
//! the bundled one it starts from (`from BASE`, then replaced or added pieces and components,
//! and `without` for what it drops), or every component in full.

use crate::definition::model::{Cell, Component, Definition, Onto, PieceDef, Region, Rule, Sides};
use crate::definition::syntax::quote;

/// The text of `def` as a child of `base` (named `base_name`): only what differs is written.
/// With `full`, every component is written out, so none depends on how the base's text would
/// read in the child's context.
pub fn child_text(def: &Definition, base: &Definition, base_name: &str, full: bool) -> String {
    let mut out = String::new();
    let mut line = |s: String| {
        out.push_str(&s);
        out.push('\n');
    };
    line(format!("variant {}", def.name));
    line(format!("from {base_name}"));
    line(format!("title {}", quote(&def.title)));
    line(format!("source {}", quote(&def.source)));
    if (def.files, def.ranks) != (base.files, base.ranks) {
        line(format!("board {}x{}", def.files, def.ranks));
    }
    if def.holes != base.holes && !def.holes.is_empty() {
        let names: Vec<String> = def.holes.iter().map(|c| square(*c)).collect();
        line(format!("holes {}", names.join(" ")));
    }
    line(String::new());
    for p in &base.pieces {
        if !def.pieces.iter().any(|q| q.letter == p.letter) {
            line(format!("without piece {}", p.letter));
        }
    }
    for o in &base.options {
        if !def.options.iter().any(|q| q.name == o.name) {
            line(format!("without option {}", o.name));
        }
    }
    for r in &base.rules {
        if !def.rules.iter().any(|q| q.id == r.id) {
            line(format!("without {}", r.id));
        }
    }
    line(String::new());
    for p in &def.pieces {
        let same = base
            .pieces
            .iter()
            .any(|q| q.letter == p.letter && same_piece(p, q));
        if !same {
            line(piece_line(p));
        }
    }
    if def.start != base.start {
        line(String::new());
        line(format!("start {}", quote(&def.start)));
    }
    for r in &def.rules {
        let same = base.rules.iter().any(|q| {
            q.id == r.id && q.component == r.component && q.clause == r.clause && q.when == r.when
        });
        if full || !same {
            line(String::new());
            out_rule(&mut line, r, def);
        }
    }
    out
}

/// Whether two pieces say the same, their places aside.
pub fn same_piece(a: &PieceDef, b: &PieceDef) -> bool {
    a.letter == b.letter
        && a.name == b.name
        && a.design == b.design
        && a.royal == b.royal
        && a.pawn == b.pawn
        && a.clause == b.clause
        && a.capture_clause == b.capture_clause
}

fn piece_line(p: &PieceDef) -> String {
    let mut s = format!("piece {} {} {}", p.letter, p.name, p.betza);
    if p.royal {
        s.push_str(" royal");
    }
    if p.pawn {
        s.push_str(" pawn");
    }
    s.push(' ');
    s.push_str(&quote(&p.clause));
    if let Some(c) = &p.capture_clause {
        s.push(' ');
        s.push_str(&quote(c));
    }
    s
}

/// The name of a square (`e4`).
pub fn square(c: Cell) -> String {
    format!("{}{}", (b'a' + c.file) as char, c.rank + 1)
}

fn file_name(f: u8) -> String {
    ((b'a' + f) as char).to_string()
}

fn letters(l: &[char]) -> String {
    l.iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// The region lines of a component: whole ranks where a side has one, squares for the rest.
fn region_lines(sides: &Sides<Region>, def: &Definition) -> Vec<String> {
    let side = |r: &Region| -> Vec<String> {
        let mut parts = Vec::new();
        let mut ranks = Vec::new();
        let mut rest = Vec::new();
        for rank in 0..def.ranks {
            let cells: Vec<Cell> = (0..def.files)
                .map(|file| Cell { file, rank })
                .filter(|c| !def.holes.contains(c))
                .collect();
            if !cells.is_empty() && cells.iter().all(|c| r.contains(*c)) {
                ranks.push((rank + 1).to_string());
            } else {
                rest.extend(cells.into_iter().filter(|c| r.contains(*c)).map(square));
            }
        }
        if !ranks.is_empty() {
            parts.push(format!(
                "{} {}",
                if ranks.len() == 1 { "rank" } else { "ranks" },
                ranks.join(" ")
            ));
        }
        if !rest.is_empty() {
            parts.push(format!(
                "{} {}",
                if rest.len() == 1 { "square" } else { "squares" },
                rest.join(" ")
            ));
        }
        parts
    };
    let mut out = Vec::new();
    if sides[0] == sides[1] {
        for p in side(&sides[0]) {
            out.push(format!("both {p}"));
        }
    } else {
        for (name, r) in [("white", &sides[0]), ("black", &sides[1])] {
            for p in side(r) {
                out.push(format!("{name} {p}"));
            }
        }
    }
    out
}

fn out_rule(line: &mut impl FnMut(String), r: &Rule, def: &Definition) {
    let c = &r.component;
    line(format!("{} {{", c.name()));
    if r.id != c.name() {
        line(format!("  id {}", r.id));
    }
    for (o, v) in &r.when {
        line(format!("  when {o} {v}"));
    }
    line(format!("  clause {}", quote(&r.clause)));
    let mut set = |s: String| line(format!("  {s}"));
    for p in &r.parts {
        let name = match &p.id {
            Some(id) => format!("{} as {id}", p.name),
            None => p.name.clone(),
        };
        match &p.source {
            Some(so) => set(format!("part {name} {} {}", quote(&p.clause), quote(so))),
            None => set(format!("part {name} {}", quote(&p.clause))),
        }
    }
    match c {
        Component::DoubleStep {
            pieces,
            region,
            steps,
            movement,
        } => {
            set(format!("pieces {}", letters(pieces)));
            region_lines(region, def).into_iter().for_each(&mut set);
            if *steps != 2 {
                set(format!("steps {steps}"));
            }
            if let Some(m) = movement {
                set(format!("move {m}"));
            }
        }
        Component::EnPassant {
            pieces,
            region,
            where_it_steps,
        } => {
            set(format!("pieces {}", letters(pieces)));
            if !where_it_steps {
                set("take-where-it-steps no".into());
            }
            if region.iter().any(|r| !r.cells.is_empty()) {
                region_lines(region, def).into_iter().for_each(&mut set);
            }
        }
        Component::Promotion {
            pieces,
            region,
            into,
            mandatory,
            captured_only,
            limits,
            pairs,
            leaving,
            as_turn,
            demote,
        } => {
            set(format!("pieces {}", letters(pieces)));
            if !pairs.is_empty() {
                let p: Vec<String> = pairs.iter().map(|(a, b)| format!("{a}:{b}")).collect();
                set(format!("pairs {}", p.join(" ")));
            }
            for (name, on) in [
                ("leaving", leaving),
                ("as-turn", as_turn),
                ("demote", demote),
            ] {
                if *on {
                    set(format!("{name} yes"));
                }
            }
            region_lines(region, def).into_iter().for_each(&mut set);
            if into[0] == into[1] && into[0].is_empty() && !pairs.is_empty() {
                // A pairs promotion names its kinds in `pairs`.
            } else if into[0] == into[1] {
                set(format!("into {}", letters(&into[0])));
            } else {
                set(format!("white-into {}", letters(&into[0])));
                set(format!("black-into {}", letters(&into[1])));
            }
            set(format!("mandatory {}", yes(*mandatory)));
            if *captured_only {
                set("captured-only yes".into());
            }
            if !limits.is_empty() {
                let l: Vec<String> = limits.iter().map(|(p, n)| format!("{p}{n}")).collect();
                set(format!("limit {}", l.join(" ")));
            }
        }
        Component::Castling {
            king,
            rooks,
            king_to,
            rook_to,
            chess960,
            rank,
            rooks_from,
            drop_rights,
        } => {
            set(format!("king {king}"));
            if let Some(f) = drop_rights {
                set(format!("drop-rights {}", file_name(*f)));
            }
            set(format!("rooks {}", letters(rooks)));
            set(format!(
                "king-to {} {}",
                file_name(king_to[0]),
                file_name(king_to[1])
            ));
            set(format!(
                "rook-to {} {}",
                file_name(rook_to[0]),
                file_name(rook_to[1])
            ));
            if *chess960 {
                set("chess960 yes".into());
            }
            if *rank != 1 {
                set(format!("rank {rank}"));
            }
            if let Some(f) = rooks_from {
                set(format!(
                    "rooks-from {} {}",
                    file_name(f[0]),
                    file_name(f[1])
                ));
            }
        }
        Component::Check { safety } => set(format!("safety {}", safety.word())),
        Component::Checkmate { value: v } | Component::Stalemate { value: v } => {
            set(format!("value {}", v.word()))
        }
        Component::Extinction { pieces, value: v } => {
            if !pieces.is_empty() {
                set(format!("pieces {}", letters(pieces)));
            }
            set(format!("value {}", v.word()));
        }
        Component::Goal {
            pieces,
            region,
            value: v,
            timing,
            safe,
        } => {
            set(format!("pieces {}", letters(pieces)));
            if *safe {
                set("safe yes".into());
            }
            region_lines(region, def).into_iter().for_each(&mut set);
            set(format!("value {}", v.word()));
            set(format!("timing {}", timing.word()));
        }
        Component::BareKing {
            value: v,
            against,
            reply,
        } => {
            set(format!("value {}", v.word()));
            set(format!("against {against}"));
            set(format!("reply {}", yes(*reply)));
        }
        Component::FirstMove {
            pieces,
            movement,
            in_check,
            lost_on_line,
        } => {
            set(format!("pieces {}", letters(pieces)));
            set(format!("move {movement}"));
            set(format!("in-check {}", yes(*in_check)));
            if !lost_on_line.is_empty() {
                set(format!("lost-on-line {}", letters(lost_on_line)));
            }
        }
        Component::CheckCount { checks, value: v } => {
            set(format!("checks {checks}"));
            set(format!("value {}", v.word()));
        }
        Component::Explosion { immune } => {
            if !immune.is_empty() {
                set(format!("immune {}", letters(immune)));
            }
        }
        Component::Repetition { times } => set(format!("times {times}")),
        Component::MoveCount { moves } => set(format!("moves {moves}")),
        Component::InsufficientMaterial {
            alone,
            colour_bound,
        } => {
            if !alone.is_empty() {
                set(format!("alone {}", letters(alone)));
            }
            if !colour_bound.is_empty() {
                set(format!("colour-bound {}", letters(colour_bound)));
            }
        }
        Component::Confine { pieces, region } => {
            set(format!("pieces {}", letters(pieces)));
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::RegionMove {
            pieces,
            region,
            movement,
            within,
            replace,
        } => {
            set(format!("pieces {}", letters(pieces)));
            set(format!("move {movement}"));
            if *within {
                set("within yes".into());
            }
            if *replace {
                set("replace yes".into());
            }
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::Drops {
            pieces,
            region,
            no_doubled,
            no_mate,
            immobile,
            opposite_colours,
            must,
            promoted,
            free,
            onto,
            opening,
            through_holes,
            in_check,
            gives_check,
        } => {
            if !pieces.is_empty() {
                set(format!("pieces {}", letters(pieces)));
            }
            for (name, on) in [("in-check", in_check), ("gives-check", gives_check)] {
                if !*on {
                    set(format!("{name} no"));
                }
            }
            let flags = [
                ("no-doubled", no_doubled),
                ("no-mate", no_mate),
                ("immobile", immobile),
                ("must", must),
                ("promoted", promoted),
                ("free", free),
                ("through-holes", through_holes),
            ];
            for (name, on) in flags {
                if *on {
                    set(format!("{name} yes"));
                }
            }
            if !opposite_colours.is_empty() {
                set(format!("opposite-colours {}", letters(opposite_colours)));
            }
            if *onto != Onto::Anywhere {
                set(format!("onto {}", onto.word()));
            }
            if !opening.cells.is_empty() {
                let names: Vec<String> = opening
                    .cells
                    .iter()
                    .map(|c| crate::definition::fen::square_name(*c))
                    .collect();
                set(format!("opening {}", names.join(" ")));
            }
            if region.iter().any(|r| !r.cells.is_empty()) {
                region_lines(region, def).into_iter().for_each(&mut set);
            }
        }
        Component::Prisoners {
            pieces,
            region,
            in_check,
            gives_check,
        } => {
            set(format!("pieces {}", letters(pieces)));
            for (name, on) in [("in-check", in_check), ("gives-check", gives_check)] {
                if !*on {
                    set(format!("{name} no"));
                }
            }
            if region.iter().any(|r| !r.cells.is_empty()) {
                region_lines(region, def).into_iter().for_each(&mut set);
            }
        }
        Component::HopLimit { pieces, immune } => {
            set(format!("pieces {}", letters(pieces)));
            set(format!("immune {}", letters(immune)));
        }
        Component::Pass { value: v, stuck } => {
            set(format!("value {}", v.word()));
            if *stuck {
                set("stuck yes".into());
            }
        }
        Component::Bikjang { value: v } | Component::FullBoard { value: v } => {
            set(format!("value {}", v.word()))
        }
        Component::Flip { pattern } => set(format!("pattern {}", pattern.word())),
        Component::Blocker {
            letter,
            name,
            shot,
            keep,
        } => {
            set(format!("letter {letter}"));
            set(format!("name {name}"));
            set(format!("shot {}", yes(*shot)));
            set(format!("keep {}", yes(*keep)));
        }
        // A section never declares zones, so no sanctuary it makes stands `from` one.
        Component::Sanctuary {
            pieces,
            region,
            by,
            from,
            attacks,
            from_zones: _,
        } => {
            set(format!("pieces {}", letters(pieces)));
            if !by.is_empty() {
                set(format!("by {}", letters(by)));
            }
            set(format!("from {}", from.word()));
            if !attacks {
                set("attacks no".into());
            }
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::Infiltration {
            pieces,
            by,
            region,
            targets,
            once,
            alone,
            priority,
        } => {
            set(format!("pieces {}", letters(pieces)));
            set(format!("by {}", letters(by)));
            let names: Vec<String> = targets
                .iter()
                .map(|c| crate::definition::fen::square_name(*c))
                .collect();
            set(format!("targets {}", names.join(" ")));
            if *once {
                set("once yes".into());
            }
            if *alone {
                set("alone yes".into());
            }
            if *priority != 0 {
                set(format!("priority {priority}"));
            }
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::Defection {
            pieces,
            ranking,
            region,
            bare,
            counted,
            priority,
        } => {
            set(format!("pieces {}", letters(pieces)));
            set(format!("ranking {}", letters(ranking)));
            if !bare.is_empty() {
                set(format!("bare {}", letters(bare)));
                set(format!("counted {}", counted.word()));
            }
            if *priority != 0 {
                set(format!("priority {priority}"));
            }
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::Retake {
            pieces,
            takes,
            by,
            from,
            region,
        } => {
            set(format!("pieces {}", letters(pieces)));
            if !takes.is_empty() {
                set(format!("takes {}", letters(takes)));
            }
            if !by.is_empty() {
                set(format!("by {}", letters(by)));
            }
            set(format!("from {}", from.word()));
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::Transparent { pieces, region } => {
            set(format!("pieces {}", letters(pieces)));
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::NoEntry {
            pieces,
            region,
            while_present,
            opened_by,
            except_beside,
        } => {
            set(format!("pieces {}", letters(pieces)));
            if !opened_by.is_empty() {
                set(format!("opened-by {}", letters(opened_by)));
            }
            if !except_beside.is_empty() {
                set(format!("except-beside {}", letters(except_beside)));
            }
            if let Some((whose, kinds)) = while_present {
                set(format!("while {} {}", whose.word(), letters(kinds)));
            }
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::Adjacency(k) | Component::Alignment(k) => {
            set(format!("pieces {}", letters(&k.pieces)));
            let word = if matches!(c, Component::Adjacency(_)) {
                "beside"
            } else {
                "facing"
            };
            set(format!("{word} {}", letters(&k.beside)));
            set(format!("of {}", k.of.word()));
            set(format!("moved {}", k.moved.word()));
            set(format!("effect {}", k.effect.word()));
            if matches!(c, Component::Alignment(_)) {
                set(format!("lines {}", k.lines.word()));
                set(format!("gap {}", k.gap));
            }
            if k.disarms {
                set("disarms yes".into());
            }
            if let Some(e) = k.elsewhere {
                set(format!("elsewhere {}", e.word()));
            }
            if k.priority != 0 {
                set(format!("priority {}", k.priority));
            }
            if let Some(m) = k.other_moved {
                set(format!("other-moved {}", yes(m)));
            }
            let lines = region_lines(&k.region, def);
            if !lines.is_empty() {
                set(format!("standing {}", k.standing.word()));
            }
            lines.into_iter().for_each(&mut set);
        }
        Component::CheckedRoyalCaptures
        | Component::CompulsoryCapture
        | Component::NoGivingCheck
        | Component::FlyingRoyals
        | Component::CapturesToHand => {}
        Component::Zone { name, region } => {
            set(format!("name {name}"));
            region_lines(region, def).into_iter().for_each(&mut set);
        }
        Component::Gating { shields } => {
            if !shields {
                set("shields no".into());
            }
        }
    }
    line("}".into());
}
