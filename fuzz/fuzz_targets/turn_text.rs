//! Fuzz target `turn_text`: the body is `arbiter::fuzzing::turn_text`, shared with
//! `tests/it/fuzz_regressions.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter::fuzzing::turn_text(data));
