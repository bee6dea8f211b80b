//! Refusals agree with the generator (being written).
