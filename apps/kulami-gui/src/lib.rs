//! The Kulami desktop game, as a library so that tests can drive it without a window.
//!
//! - [`state`]: the game and every change to it as an [`state::Action`]; no drawing.
//! - [`board_view`]: draws a position and reports the hole clicked.
//! - [`app`]: the window that puts both together.

pub mod app;
pub mod board_view;
pub mod state;

pub use app::KulamiApp;
