//! The library side of the `kulami` command: the engine protocol, shared by the binary, the
//! tests and the fuzz targets.

pub mod protocol;
