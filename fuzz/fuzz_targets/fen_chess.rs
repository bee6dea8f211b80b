//! Fuzz target `fen_chess`: the body is `arbiter::fuzzing::fen_chess`, shared with
//! `tests/it/fuzz_regressions.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter::fuzzing::fen_chess(data));
