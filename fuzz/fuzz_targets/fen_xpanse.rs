//! Fuzz target `fen_xpanse`: the body is `arbiter::fuzzing::fen_xpanse`, shared with
//! `tests/it/fuzz_regressions.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter::fuzzing::fen_xpanse(data));
