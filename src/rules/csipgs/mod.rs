//! csipgs chess (Ralph Betza, 1996), as read from `csipgs-chess.txt` with the prices of
//! `csipgs-costs.md`. So far: the prices of designs ([`price`]).

pub mod price;
