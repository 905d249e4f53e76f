//! Terminal drawing: the core's plain drawing, coloured when the output is a terminal.

use std::io::IsTerminal as _;

use clap::ValueEnum;
use kulami_core::{Color, Position};

/// When to colour the output.
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal and NO_COLOR is not set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

impl ColorChoice {
    fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        }
    }
}

const RED: &str = "\x1b[1;31m";
const BLUE: &str = "\x1b[1;36m";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

/// The board drawing, with red marbles in red and black ones in cyan (black is unreadable on
/// dark terminals) when colour is on.
pub fn board(position: &Position, color: ColorChoice) -> String {
    let plain = position.to_string();
    if !color.enabled() {
        return plain;
    }
    let mut out = String::with_capacity(plain.len() * 2);
    for character in plain.chars() {
        match character {
            'X' => out.push_str(&format!("{RED}X{RESET}")),
            'O' => out.push_str(&format!("{BLUE}O{RESET}")),
            '+' | '-' | '|' => out.push_str(&format!("{DIM}{character}{RESET}")),
            other => out.push(other),
        }
    }
    out
}

/// "red to move (7 legal holes, 20 marbles left)" or "game over".
pub fn status(position: &Position) -> String {
    let legal = position.legal_moves().len();
    if legal == 0 {
        return "game over".to_owned();
    }
    let side = position.side_to_move();
    format!(
        "{side} to move ({legal} legal hole{}, {} marble{} left; {} has {})",
        if legal == 1 { "" } else { "s" },
        position.marbles_left(side),
        if position.marbles_left(side) == 1 { "" } else { "s" },
        side.other(),
        position.marbles_left(side.other()),
    )
}

/// The colour's name with a capital, for sentences.
pub fn title(color: Color) -> &'static str {
    match color {
        Color::Red => "Red (X)",
        Color::Black => "Black (O)",
    }
}
