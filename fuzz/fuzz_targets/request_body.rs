//! Fuzz target: see `kulami_server::fuzzing::request_body`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| kulami_tests::fuzzing::request_body(data));
