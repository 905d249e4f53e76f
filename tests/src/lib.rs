//! Support for the workspace's cross-crate tests: a deliberately simple reference implementation
//! of the rules, random boards, and the fuzz targets' bodies.

pub mod fuzzing;
pub mod random_board;
pub mod reference;
