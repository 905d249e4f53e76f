//! The library side of the `kulami` command: the engine protocol, shared by the binary, the
//! tests and the fuzz targets, and bounded line reading.

pub mod lines;
pub mod protocol;
