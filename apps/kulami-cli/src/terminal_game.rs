//! What the commands of the games other than Kulami share (`kulami kalah`, `kulami gorami`): who
//! sits in a seat, a person's move read from stdin, and perft's output.

use std::fmt::Display;
use std::io::Lines;
use std::str::FromStr;

use anyhow::Context as _;

use crate::output::outln;

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// Someone at the keyboard.
    Human,
    /// The engine at a level, 1-5.
    Engine(u8),
}

impl FromStr for Player {
    type Err = String;

    fn from_str(text: &str) -> Result<Player, String> {
        match text {
            "human" => Ok(Player::Human),
            _ => match text.parse::<u8>() {
                Ok(level @ 1..=5) => Ok(Player::Engine(level)),
                _ => Err(format!("`{text}` is not a player: expected `human` or a level 1-5")),
            },
        }
    }
}

/// A person's move: asks `who` to choose among `legal`, again after a word that is not a move
/// or a move that is not legal; `None` when the person types `quit`.
///
/// # Errors
/// When the input ends or cannot be read.
pub fn ask_move<M>(input: &mut Lines<impl std::io::BufRead>, who: &str, legal: &[M]) -> anyhow::Result<Option<M>>
where
    M: FromStr + Display + PartialEq,
    M::Err: Display,
{
    let listed = legal.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    loop {
        outln!("{who} to move: {listed} (or quit)");
        let line = input.next().context("the input ended before the game did")??;
        let line = line.trim();
        if line == "quit" {
            return Ok(None);
        }
        match line.parse::<M>() {
            Ok(mv) if legal.contains(&mv) => return Ok(Some(mv)),
            Ok(mv) => outln!("{mv} is not legal here"),
            Err(error) => outln!("{error}"),
        }
    }
}

/// A perft's time, then its count on the last line (as formats.md pins it for Kalah).
///
/// # Errors
/// When stdout cannot be written.
pub fn print_perft(depth: u32, perft: impl FnOnce(u32) -> u64) -> anyhow::Result<()> {
    let start = std::time::Instant::now();
    let count = perft(depth);
    outln!("depth {depth}: {:.3} s", start.elapsed().as_secs_f64());
    outln!("{count}");
    Ok(())
}

/// The line a game left early ends with.
pub fn left_after(played: usize) -> String {
    format!("Left the game after {played} move{}.", if played == 1 { "" } else { "s" })
}
