//! Fuzz target `definition_text`: the body is `arbiter::fuzzing::definition_text`, shared with
//! `tests/it/fuzz_regressions.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter::fuzzing::definition_text(data));
