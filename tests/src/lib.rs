//! Support for the workspace's cross-crate tests: a deliberately simple reference implementation
//! of the rules, random boards, and the fuzz targets' bodies.

// Test helpers panic by design: a panic is a failed check.
#![allow(clippy::missing_panics_doc)]

pub mod fuzzing;
pub mod kalah_reference;
pub mod random_board;
pub mod reference;
