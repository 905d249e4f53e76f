//! Support for the workspace's cross-crate tests: a deliberately simple reference implementation
//! of the rules, and random boards.

pub mod random_board;
pub mod reference;
