//! Drawing the board editor: the 10x10 frame with its tiles, the shape palette and the live
//! check. Returns what the player asked for; the editor's state changes only through its methods.

use egui::{Color32, CornerRadius, Rect, RichText, Sense, Stroke, StrokeKind, Ui, Vec2, WidgetInfo};
use kulami_core::{FRAME, Layout, TileShape};

use crate::editor::Editor;

const FRAME_COLOR: Color32 = Color32::from_rgb(38, 52, 44);
const WOOD: Color32 = Color32::from_rgb(196, 152, 98);
const WOOD_EDGE: Color32 = Color32::from_rgb(120, 82, 44);
const PICKED: Color32 = Color32::from_rgb(250, 215, 90);

/// What the player asked of the editor window besides editing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EditorRequest {
    /// Play a game on this board.
    Play(Layout),
    /// Save this board as a layout file at this path.
    Save(Layout, String),
    /// Ask where to save this board, in the desktop's file dialog.
    SaveAs(Layout),
}

/// Draws the editor; `path` is the text of the save field.
pub fn show(ui: &mut Ui, editor: &mut Editor, path: &mut String) -> Option<EditorRequest> {
    let mut request = None;
    ui.horizontal_wrapped(|ui| {
        let (next, upright) = editor.next_shape();
        for shape in TileShape::ALL {
            let (short, long) = shape.sides();
            let text = format!("{short}x{long} ({}/{})", editor.count(shape), shape.standard_count());
            if ui.selectable_label(next == shape && editor.selected().is_none(), text).clicked() {
                editor.choose_shape(shape);
            }
        }
        let turn = if upright { "Turn (upright)" } else { "Turn (flat)" };
        if ui.button(turn).on_hover_text("R: turn the picked-up tile, or the shape to lay").clicked() {
            editor.rotate();
        }
        if ui.add_enabled(editor.selected().is_some(), egui::Button::new("Remove")).clicked() {
            editor.remove();
        }
        if ui.button("Clear").clicked() {
            editor.clear();
        }
        if ui.add_enabled(editor.can_undo_clear(), egui::Button::new("Undo clear")).clicked() {
            editor.undo_clear();
        }
    });
    if ui.input(|input| input.key_pressed(egui::Key::R) && !input.modifiers.any()) {
        editor.rotate();
    }
    if ui.input(|input| input.key_pressed(egui::Key::Delete)) {
        editor.remove();
    }
    ui.label("Click a free cell to lay the shape there (its top-left corner); click a tile to pick it up, then a free cell to move it.");
    draw_frame(ui, editor);
    if let Some(message) = editor.message() {
        ui.colored_label(Color32::LIGHT_RED, message);
    }
    match editor.layout() {
        Ok(layout) => {
            let standard = if layout.uses_standard_set() { ", the standard set" } else { "" };
            ui.label(
                RichText::new(format!(
                    "A valid board: {} tiles, {} holes{standard}, {} marbles each.",
                    layout.tiles().len(),
                    layout.holes().len(),
                    layout.marbles_per_player()
                ))
                .color(Color32::LIGHT_GREEN),
            );
            ui.horizontal(|ui| {
                if ui.button("Play on this board").clicked() {
                    request = Some(EditorRequest::Play(layout.clone()));
                }
                let label = ui.label("File");
                ui.add(egui::TextEdit::singleline(path).desired_width(200.0)).labelled_by(label.id);
                if ui.add_enabled(!path.trim().is_empty(), egui::Button::new("Save board")).clicked() {
                    request = Some(EditorRequest::Save(layout.clone(), path.trim().to_owned()));
                }
                if ui.button("Save as…").on_hover_text("Choose where to save the board").clicked() {
                    request = Some(EditorRequest::SaveAs(layout));
                }
            });
        }
        Err(problems) => {
            for problem in problems {
                ui.colored_label(Color32::LIGHT_RED, problem);
            }
        }
    }
    request
}

fn draw_frame(ui: &mut Ui, editor: &mut Editor) {
    let side = ui.available_width().min(420.0);
    let cell = side / FRAME as f32;
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, CornerRadius::ZERO, FRAME_COLOR);
    let cell_rect = |row: usize, column: usize| {
        Rect::from_min_size(rect.min + Vec2::new(column as f32, row as f32) * cell, Vec2::splat(cell))
    };
    for row in 0..FRAME {
        for column in 0..FRAME {
            painter.rect_stroke(
                cell_rect(row, column),
                CornerRadius::ZERO,
                Stroke::new(1.0, Color32::from_gray(70)),
                StrokeKind::Inside,
            );
        }
    }
    for (index, tile) in editor.tiles().iter().enumerate() {
        let area =
            cell_rect(tile.row, tile.column).union(cell_rect(tile.row + tile.height - 1, tile.column + tile.width - 1));
        let fill = if editor.selected() == Some(index) { PICKED } else { WOOD };
        painter.rect(
            area.shrink(cell * 0.05),
            CornerRadius::same((cell * 0.12) as u8),
            fill,
            Stroke::new(2.0, WOOD_EDGE),
            StrokeKind::Inside,
        );
        for row in tile.row..tile.row + tile.height {
            for column in tile.column..tile.column + tile.width {
                painter.circle_filled(cell_rect(row, column).center(), cell * 0.22, Color32::from_rgb(74, 50, 28));
            }
        }
    }
    let mut clicked = None;
    for row in 0..FRAME {
        for column in 0..FRAME {
            let response =
                ui.interact(cell_rect(row, column), ui.scope_id().with(("editor", row, column)), Sense::click());
            let name = kulami_core::Cell::new(row, column).map_or_else(String::new, |cell| cell.to_string());
            let what = match editor.tile_at(row, column) {
                Some(index) => format!("tile {}", index + 1),
                None => "free".to_owned(),
            };
            response.widget_info(|| WidgetInfo::labeled(egui::Role::Button, true, format!("frame {name} {what}")));
            if response.clicked() {
                clicked = Some((row, column));
            }
        }
    }
    if let Some((row, column)) = clicked {
        editor.click(row, column);
    }
}
