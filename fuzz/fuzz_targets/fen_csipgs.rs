//! Fuzz target `fen_csipgs`: the body is `arbiter::fuzzing::fen_csipgs`, shared with
//! `tests/it/fuzz_regressions.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter::fuzzing::fen_csipgs(data));
