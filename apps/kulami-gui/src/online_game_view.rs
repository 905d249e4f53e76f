//! Drawing of an online game: the same board view as a local game, and beside it both players
//! with their clocks, whose turn it is, resign and abort, and the result.

use std::time::Duration;

use web_time::Instant;

use egui::{RichText, Ui};
use kulami_core::{Color, Move};

use crate::board_view;
use crate::online_game::OnlineGame;
use crate::state::Tone;

/// What the player did on the game screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameInput {
    /// Plays a move.
    Play(Move),
    /// Resigns.
    Resign,
    /// Calls the game off.
    Abort,
    /// Back to the lobby.
    Leave,
}

fn clock_text(left: Option<Duration>) -> String {
    left.map_or_else(String::new, |left| {
        let tenths = left.as_millis() / 100;
        format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
    })
}

/// Draws the game at `now`; what the player did.
pub fn show(ui: &mut Ui, game: &OnlineGame, now: Instant) -> Vec<GameInput> {
    let mut inputs = Vec::new();
    egui::Panel::right("online side").exact_size(330.0).show(ui, |ui| {
        ui.heading(format!("Online game {}", game.id()));
        if ui.button("Back to the lobby").clicked() {
            inputs.push(GameInput::Leave);
        }
        ui.separator();
        for color in [Color::Black, Color::Red] {
            let name = game.player(color).unwrap_or("...");
            let to_move = game.running() && game.position().map(|p| p.side_to_move()) == Some(color);
            let text = format!(
                "{} ({name}) {}{}",
                crate::state::color_name(color),
                clock_text(game.time_left(color, now)),
                if to_move { "  to move" } else { "" }
            );
            ui.label(if to_move { RichText::new(text).strong() } else { RichText::new(text) });
        }
        ui.separator();
        if let Some(result) = game.result() {
            ui.label(RichText::new(result).strong());
        } else if game.my_turn() {
            ui.label("Your move.");
        } else if game.my_color().is_some() {
            ui.label("Waiting for your opponent's move.");
        }
        if game.reconnecting() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Reconnecting...");
            });
        }
        if let Some((tone, text)) = game.message() {
            let color = match tone {
                Tone::Good => ui.visuals().text_color(),
                Tone::Problem => ui.visuals().warn_fg_color,
            };
            ui.label(RichText::new(text).color(color));
        }
        if game.my_color().is_some() && game.running() {
            ui.separator();
            ui.horizontal(|ui| {
                if game.position().is_some_and(kulami_core::Position::can_swap)
                    && game.my_turn()
                    && ui.button("Swap").clicked()
                {
                    inputs.push(GameInput::Play(Move::Swap));
                }
                if game.position().is_some_and(|p| p.move_count() < 2) && ui.button("Abort").clicked() {
                    inputs.push(GameInput::Abort);
                }
                if ui.button("Resign").clicked() {
                    inputs.push(GameInput::Resign);
                }
            });
        }
    });
    egui::CentralPanel::default().show(ui, |ui| match game.position() {
        Some(position) => {
            let view = board_view::View {
                guide: game.my_turn(),
                hints: &[],
                summary: !game.running(),
                fresh_marble: None,
                coordinates: true,
                preview: game.my_turn(),
                better: None,
            };
            if let Some(cell) = board_view::show(ui, position, &view).filter(|_| game.my_turn()) {
                inputs.push(GameInput::Play(Move::Place(cell)));
            }
        }
        None => {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("Loading the game...");
            });
        }
    });
    inputs
}
