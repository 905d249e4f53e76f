//! The Kulami desktop game, as a library so that tests can drive it without a window.
//!
//! - [`state`]: the game, the players and every change to them as an [`state::Action`]; no
//!   drawing, no threads.
//! - [`background`]: the engine's moves and the hints on their own threads.
//! - [`board_view`]: draws a position and reports the hole clicked.
//! - [`rules_view`]: how to play, with small example boards.
//! - [`editor`] and [`editor_view`]: the board editor's state and its window.
//! - [`analysis_view`]: the graph of a game's analysis.
//! - [`files`]: game records and boards on disk, written atomically.
//! - [`daily`]: the daily puzzle screen's state and the streak.
//! - [`saved`]: the game and settings kept between runs, and [`autosave`], the file that keeps
//!   them, written atomically after every change.
//! - [`table`]: the other games of the table, Kalah and GORami: one session (seats, undo, the
//!   engine and hints) for both, their boards drawn by [`table::kalah_view`] and
//!   [`table::gorami_view`].
//! - [`app`]: the window that puts them together.

pub mod analysis_view;
pub mod app;
pub mod autosave;
pub mod background;
pub mod board_view;
pub mod daily;
pub mod editor;
pub mod editor_view;
pub mod files;
pub mod net;
pub mod online;
pub mod online_game;
pub mod online_game_view;
pub mod online_view;
pub mod rules_view;
pub mod saved;
pub mod sound;
pub mod state;
pub mod table;
#[cfg(target_arch = "wasm32")]
mod web_worker;

pub use app::KulamiApp;
