//! Every ChessXpanse invariant has a case that breaks it (being written).
