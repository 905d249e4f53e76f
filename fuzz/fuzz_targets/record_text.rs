//! Fuzz target: see `kulami_tests::fuzzing::record_text`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kulami_tests::fuzzing::record_text(data));
