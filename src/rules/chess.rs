//! Orthodox chess (skeleton; the implementation replaces this file).
use super::*;

#[derive(Clone, Debug)]
pub struct Chess {
    board: Board,
    turn: Color,
}

impl Rules for Chess {
    type Move = u32;
    const NAME: &'static str = "chess";
    fn rules() -> &'static [RuleDef] { &[] }
    fn options() -> &'static [OptionDef] { &[] }
    fn state_keys() -> &'static [KeyDef] { &[] }
    fn invariants() -> &'static [InvariantDef] { &[] }
    fn geometry_for(_size: Option<(u8, u8)>) -> Result<Geometry, String> { Ok(Geometry::lettered(8, 8)) }
    fn start(_geometry: Geometry, _options: &Options) -> Self { unimplemented!() }
    fn from_setup(_setup: &Setup, _options: &Options) -> Result<Self, String> { unimplemented!() }
    fn to_setup(&self) -> Setup { unimplemented!() }
    fn from_fen(_geometry: Geometry, _fen: &str, _options: &Options) -> Result<Self, String> { unimplemented!() }
    fn fen(&self) -> String { unimplemented!() }
    fn board(&self) -> &Board { &self.board }
    fn turn(&self) -> Color { self.turn }
    fn legal_moves(&self, _out: &mut Vec<Self::Move>) { unimplemented!() }
    fn play(&mut self, _m: Self::Move) { unimplemented!() }
    fn describe(&self, _m: Self::Move) -> Turn { unimplemented!() }
    fn in_check(&self) -> Option<bool> { unimplemented!() }
    fn outcome(&self) -> Option<Outcome> { unimplemented!() }
    fn refusal(&self, _pattern: &TurnPattern) -> Refusal { unimplemented!() }
    fn repetition_key(&self) -> u64 { unimplemented!() }
    fn repetition_limit(&self) -> Option<(usize, &'static str)> { unimplemented!() }
    fn resignation_rule() -> &'static str { unimplemented!() }
    fn agreement_rule() -> &'static str { unimplemented!() }
    fn state_key(&self, _key: &str, _color: Option<Color>) -> String { unimplemented!() }
    fn check_invariant(&self, _name: &str) -> Result<(), String> { unimplemented!() }
}
