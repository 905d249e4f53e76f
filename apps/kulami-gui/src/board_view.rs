//! Drawing the board: wooden tiles, holes, marbles, the coordinates around it, the guides of the
//! current constraint and a preview of the hovered move. Returns the hole the player clicked;
//! the caller decides what that means.

use egui::{Color32, CornerRadius, Pos2, Rect, Sense, Stroke, StrokeKind, Ui, Vec2, WidgetInfo};
use kulami_core::{Cell, CellSet, Color, Position};

/// The felt round every board, the table games' too.
pub(crate) const TABLE: Color32 = Color32::from_rgb(38, 52, 44);
const WOOD: Color32 = Color32::from_rgb(196, 152, 98);
const WOOD_EDGE: Color32 = Color32::from_rgb(120, 82, 44);
const HOLE: Color32 = Color32::from_rgb(74, 50, 28);
const RED: Color32 = Color32::from_rgb(200, 30, 36);
const BLACK: Color32 = Color32::from_rgb(28, 28, 32);
const LEGAL: Color32 = Color32::from_rgb(120, 230, 140);
const HINT: Color32 = Color32::from_rgb(250, 215, 90);
const GUIDE: Color32 = Color32::from_rgba_premultiplied(60, 60, 20, 40);
/// Where the opponent could answer the previewed move.
const REPLY: Color32 = Color32::from_rgb(150, 190, 255);
const COORDINATE: Color32 = Color32::from_rgb(205, 215, 200);

/// What to draw besides the position.
#[derive(Debug)]
pub struct View<'a> {
    /// The row and column guides of the constraint and the dimmed forbidden tiles.
    pub guide: bool,
    /// Holes to mark as hints, strongest first.
    pub hints: &'a [Cell],
    /// Draw the largest groups and the lines (the end-of-game summary).
    pub summary: bool,
    /// A marble still dropping into its hole, and how far it is (0 to 1).
    pub fresh_marble: Option<(Cell, f32)>,
    /// Column letters and row numbers around the board, as every message names cells.
    pub coordinates: bool,
    /// Hovering a legal hole shows the marble and the holes the opponent could then answer in.
    pub preview: bool,
    /// The move the review found better than the one played here, marked with a gold diamond.
    pub better: Option<Cell>,
}

impl View<'_> {
    /// A plain board: guides on, nothing else.
    #[must_use]
    pub fn plain() -> View<'static> {
        View {
            guide: true,
            hints: &[],
            summary: false,
            fresh_marble: None,
            coordinates: false,
            preview: false,
            better: None,
        }
    }
}

/// Where the board drawn last is on the screen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawnBoard {
    /// Each hole and its centre, in points.
    pub holes: Vec<(Cell, Pos2)>,
}

/// The key of [`DrawnBoard`] in the context's memory.
const DRAWN: &str = "kulami.drawn-board";

/// The board [`show`] drew last in `ctx` (for the page's test hook, which clicks its holes).
#[must_use]
pub fn drawn_board(ctx: &egui::Context) -> Option<DrawnBoard> {
    ctx.data(|data| data.get_temp(egui::Id::unique(DRAWN)))
}

/// The margin around the grid, in cells, that holds the coordinates.
const COORDINATE_MARGIN: f32 = 0.6;

/// The size of one cell for a board of `rows` x `columns` in `available` space, leaving room
/// for the coordinates when they are drawn.
#[must_use]
pub fn cell_size(available: Vec2, rows: usize, columns: usize, coordinates: bool) -> f32 {
    let margin = if coordinates { 2.0 * COORDINATE_MARGIN } else { 0.0 };
    (available.x / (columns as f32 + margin)).min(available.y / (rows as f32 + margin)).max(12.0)
}

/// What hovering `cell` previews: the holes the opponent could answer in, if `cell` is legal.
#[must_use]
pub fn preview_of(position: &Position, cell: Cell) -> Option<CellSet> {
    position.legal_moves().contains(cell).then(|| position.legal_moves_after(cell))
}

/// Draws `position` filling the space available and returns the hole clicked this frame, if any.
///
/// # Panics
/// Never: every tile of a layout has cells.
pub fn show(ui: &mut Ui, position: &Position, view: &View<'_>) -> Option<Cell> {
    let layout = position.layout();
    let (rows, columns) = layout.extent();
    let available = ui.available_size();
    let cell_size = cell_size(available, rows, columns, view.coordinates);
    let board_size = Vec2::new(cell_size * columns as f32, cell_size * rows as f32);
    let (board_rect, _) = ui.allocate_exact_size(available.max(board_size), Sense::hover());
    let origin = board_rect.center() - board_size / 2.0;
    let cell_rect = |cell: Cell| {
        Rect::from_min_size(
            origin + Vec2::new(cell.column() as f32, cell.row() as f32) * cell_size,
            Vec2::splat(cell_size),
        )
    };
    let holes = layout.holes().iter().map(|cell| (cell, cell_rect(cell).center())).collect();
    ui.ctx().data_mut(|data| data.insert_temp(egui::Id::unique(DRAWN), DrawnBoard { holes }));
    let painter = ui.painter_at(board_rect);
    painter.rect_filled(board_rect, CornerRadius::ZERO, TABLE);
    if view.coordinates {
        draw_coordinates(&painter, origin, cell_size, rows, columns);
    }
    let hovered = ui
        .ctx()
        .pointer_hover_pos()
        .filter(|pos| ui.clip_rect().contains(*pos))
        .and_then(|pos| layout.holes().iter().find(|&cell| cell_rect(cell).contains(pos)));
    let preview =
        hovered.filter(|_| view.preview).and_then(|cell| preview_of(position, cell).map(|replies| (cell, replies)));

    let legal = position.legal_moves();
    let forbidden = if view.guide { position.forbidden_tiles() } else { CellSet::EMPTY };
    for (index, tile) in layout.tiles().iter().enumerate() {
        let rect = tile.cells().iter().map(cell_rect).reduce(|a, b| a.union(b)).expect("a tile has cells");
        let holder = tile_holder(position.tile_count(index, Color::Red), position.tile_count(index, Color::Black));
        let barred = forbidden.contains(tile.top_left());
        let fill = tint(WOOD, holder);
        let fill = if barred { fill.gamma_multiply(0.55) } else { fill };
        let inset = rect.shrink(cell_size * 0.04);
        painter.rect(
            inset,
            CornerRadius::same((cell_size * 0.12) as u8),
            fill,
            Stroke::new(cell_size * 0.03, WOOD_EDGE),
            StrokeKind::Inside,
        );
        if barred {
            draw_forbidden(&painter, inset, cell_size);
        }
        if let Some(holder) = holder {
            draw_holder_mark(&painter, inset, cell_size, holder);
        }
    }
    if let Some(last) = position.last_move().filter(|_| view.guide) {
        let row = Rect::from_min_max(
            Pos2::new(origin.x, cell_rect(last).min.y),
            Pos2::new(origin.x + board_size.x, cell_rect(last).max.y),
        );
        let column = Rect::from_min_max(
            Pos2::new(cell_rect(last).min.x, origin.y),
            Pos2::new(cell_rect(last).max.x, origin.y + board_size.y),
        );
        painter.rect_filled(row, CornerRadius::ZERO, GUIDE);
        painter.rect_filled(column, CornerRadius::ZERO, GUIDE);
    }

    if view.summary {
        draw_summary(&painter, position, cell_size, &cell_rect);
    }

    let mut clicked = None;
    for cell in layout.holes() {
        let rect = cell_rect(cell);
        let center = rect.center();
        let radius = cell_size * 0.3;
        let occupant = position.color_at(cell);
        match occupant {
            Some(color) => {
                let scale = match view.fresh_marble {
                    Some((fresh, progress)) if fresh == cell => marble_scale(progress),
                    _ => 1.0,
                };
                draw_marble(&painter, center, radius * scale, color);
            }
            None => {
                painter.circle_filled(center, radius * 0.8, HOLE);
                match preview {
                    Some((previewed, _)) if previewed == cell => {
                        draw_marble(&painter, center, radius, position.side_to_move());
                        painter.circle_filled(center, radius, TABLE.gamma_multiply(0.35));
                    }
                    Some((_, replies)) if replies.contains(cell) => {
                        painter.circle_stroke(center, radius * 0.95, Stroke::new(cell_size * 0.04, REPLY));
                    }
                    Some(_) => {}
                    None if legal.contains(cell) => {
                        painter.circle_stroke(center, radius * 0.95, Stroke::new(cell_size * 0.05, LEGAL));
                    }
                    None => {}
                }
            }
        }
        if position.last_move() == Some(cell) || position.previous_own_move() == Some(cell) {
            painter.circle_stroke(center, radius * 1.2, Stroke::new(cell_size * 0.04, Color32::WHITE));
        }
        if let Some(rank) = view.hints.iter().position(|&hint| hint == cell) {
            painter.circle_filled(center, radius * 0.75, HINT.gamma_multiply(1.0 - 0.25 * rank as f32));
            painter.text(
                center,
                egui::Align2::CENTER_CENTER,
                (rank + 1).to_string(),
                egui::FontId::proportional(radius),
                Color32::BLACK,
            );
        }
        // Only the part of a hole inside the board's area takes clicks, never what lies under a
        // neighbouring panel.
        if view.better == Some(cell) {
            painter.circle_stroke(center, radius * 1.15, Stroke::new(cell_size * 0.06, HINT));
            let r = radius * 0.45;
            let diamond = [Vec2::new(0.0, -r), Vec2::new(r, 0.0), Vec2::new(0.0, r), Vec2::new(-r, 0.0)];
            painter.add(egui::Shape::convex_polygon(
                diamond.map(|corner| center + corner).to_vec(),
                HINT,
                Stroke::NONE,
            ));
        }
        let response = ui.interact(rect.intersect(ui.clip_rect()), ui.scope_id().with(("hole", cell)), Sense::click());
        let is_legal = legal.contains(cell);
        response.widget_info(|| {
            let mut label = hole_label(cell, occupant, is_legal);
            if view.better == Some(cell) {
                label.push_str(", the better move");
            }
            WidgetInfo::labeled(egui::Role::Button, is_legal, label)
        });
        if response.clicked() {
            clicked = Some(cell);
        }
    }
    clicked
}

/// Outlines each colour's largest group and strokes its lines of five or more.
fn draw_summary(painter: &egui::Painter, position: &Position, cell_size: f32, cell_rect: &impl Fn(Cell) -> Rect) {
    for color in Color::BOTH {
        let marbles = position.marbles(color);
        let tint = match color {
            Color::Red => Color32::from_rgba_unmultiplied(255, 90, 80, 110),
            Color::Black => Color32::from_rgba_unmultiplied(40, 40, 60, 130),
        };
        for cell in kulami_core::largest_group(marbles) {
            painter.rect_filled(
                cell_rect(cell).shrink(cell_size * 0.08),
                CornerRadius::same((cell_size * 0.2) as u8),
                tint,
            );
        }
        let stroke = Stroke::new(cell_size * 0.12, tint.gamma_multiply(1.6));
        for (direction, cells) in kulami_core::Direction::LINES.into_iter().zip(kulami_core::line_cells(marbles)) {
            for cell in cells {
                let next = CellSet::from_cell(cell).shift(direction) & cells;
                if let Some(next) = next.first() {
                    painter.line_segment([cell_rect(cell).center(), cell_rect(next).center()], stroke);
                }
            }
        }
    }
}

/// The size of a marble dropping into its hole, `progress` (0 to 1) into the animation: it grows
/// from a third of its size to full, fast at first and settling gently (a cubic ease-out).
#[must_use]
pub fn marble_scale(progress: f32) -> f32 {
    let eased = 1.0 - (1.0 - progress.clamp(0.0, 1.0)).powi(3);
    0.35 + 0.65 * eased
}

/// The accessible name of a hole: its cell, then what is in it, e.g. `d4 red` or `d4 empty, legal`.
#[must_use]
pub fn hole_label(cell: Cell, occupant: Option<Color>, legal: bool) -> String {
    match (occupant, legal) {
        (Some(color), _) => format!("{cell} {color}"),
        (None, true) => format!("{cell} empty, legal"),
        (None, false) => format!("{cell} empty"),
    }
}

/// Column letters above and below the grid, row numbers left and right of it.
fn draw_coordinates(painter: &egui::Painter, origin: Pos2, cell_size: f32, rows: usize, columns: usize) {
    let font = egui::FontId::proportional(cell_size * 0.3);
    let offset = cell_size * COORDINATE_MARGIN / 2.0;
    let (width, height) = (cell_size * columns as f32, cell_size * rows as f32);
    for column in 0..columns {
        let x = origin.x + (column as f32 + 0.5) * cell_size;
        let letter = char::from(b'a' + column as u8).to_string();
        for y in [origin.y - offset, origin.y + height + offset] {
            painter.text(Pos2::new(x, y), egui::Align2::CENTER_CENTER, &letter, font.clone(), COORDINATE);
        }
    }
    for row in 0..rows {
        let y = origin.y + (row as f32 + 0.5) * cell_size;
        let number = (row + 1).to_string();
        for x in [origin.x - offset, origin.x + width + offset] {
            painter.text(Pos2::new(x, y), egui::Align2::CENTER_CENTER, &number, font.clone(), COORDINATE);
        }
    }
}

/// The wood tinted toward the colour that holds the tile.
fn tint(wood: Color32, holder: Option<Color>) -> Color32 {
    let toward = match holder {
        Some(Color::Red) => Color32::from_rgb(232, 120, 110),
        Some(Color::Black) => Color32::from_rgb(120, 110, 110),
        None => return wood,
    };
    wood.lerp_to_gamma(toward, 0.45)
}

/// Who holds a tile with these marbles: the colour with strictly more.
#[must_use]
pub fn tile_holder(red: usize, black: usize) -> Option<Color> {
    match red.cmp(&black) {
        std::cmp::Ordering::Greater => Some(Color::Red),
        std::cmp::Ordering::Less => Some(Color::Black),
        std::cmp::Ordering::Equal => None,
    }
}

/// A mark in the tile's corner that tells its holder by shape as well as by colour (for
/// players who do not tell red from black easily): a dot for red, a square for black.
fn draw_holder_mark(painter: &egui::Painter, tile: Rect, cell_size: f32, holder: Color) {
    let size = cell_size * 0.13;
    let center = Pos2::new(tile.max.x - cell_size * 0.2, tile.min.y + cell_size * 0.2);
    let outline = Stroke::new(cell_size * 0.02, Color32::from_white_alpha(160));
    match holder {
        Color::Red => {
            painter.circle(center, size, RED, outline);
        }
        Color::Black => {
            let square = Rect::from_center_size(center, Vec2::splat(size * 1.8));
            painter.rect(square, CornerRadius::ZERO, BLACK, outline, StrokeKind::Inside);
        }
    }
}

/// Diagonal hatching over a tile the side to move may not play on: a pattern, not a shade alone.
fn draw_forbidden(painter: &egui::Painter, tile: Rect, cell_size: f32) {
    let stroke = Stroke::new(cell_size * 0.025, Color32::from_black_alpha(70));
    let step = cell_size * 0.25;
    let painter = painter.with_clip_rect(tile.intersect(painter.clip_rect()));
    let mut offset = 0.0;
    while offset < tile.width() + tile.height() {
        let start = Pos2::new(tile.min.x + offset, tile.min.y);
        painter.line_segment([start, start + Vec2::new(-tile.height(), tile.height())], stroke);
        offset += step;
    }
}

fn draw_marble(painter: &egui::Painter, center: Pos2, radius: f32, color: Color) {
    let base = match color {
        Color::Red => RED,
        Color::Black => BLACK,
    };
    painter.circle_filled(center + Vec2::splat(radius * 0.08), radius, Color32::from_black_alpha(90));
    painter.circle_filled(center, radius, base);
    // A soft highlight up and to the left, so the marble reads as a sphere.
    let highlight = center - Vec2::splat(radius * 0.35);
    painter.circle_filled(highlight, radius * 0.35, Color32::from_white_alpha(70));
    painter.circle_filled(highlight, radius * 0.18, Color32::from_white_alpha(110));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_is_held_by_the_colour_with_more_marbles_on_it() {
        assert_eq!(tile_holder(2, 1), Some(Color::Red));
        assert_eq!(tile_holder(0, 1), Some(Color::Black));
        assert_eq!(tile_holder(1, 1), None);
        assert_eq!(tile_holder(0, 0), None);
    }

    #[test]
    fn the_coordinates_get_room_around_the_grid() {
        let square = Vec2::new(500.0, 500.0);
        assert_eq!(cell_size(square, 8, 8, false), 62.5);
        let with = cell_size(square, 8, 8, true);
        assert!((with * (8.0 + 2.0 * COORDINATE_MARGIN) - 500.0).abs() < 1e-3, "{with}");
        assert_eq!(cell_size(Vec2::new(50.0, 50.0), 10, 10, true), 12.0, "never smaller than a click");
    }

    #[test]
    fn hovering_a_legal_hole_previews_where_the_opponent_may_answer() {
        let layout = std::sync::Arc::new(kulami_layouts::preset("classic").unwrap().into_layout());
        let position = Position::from_moves(layout, &[kulami_core::Move::Place("d4".parse().unwrap())]).unwrap();
        let d7: Cell = "d7".parse().unwrap();
        let replies = preview_of(&position, d7).unwrap();
        assert_eq!(replies, position.legal_moves_after(d7));
        assert!(replies.iter().all(|cell| cell.row() == d7.row() || cell.column() == d7.column()));
        assert_eq!(preview_of(&position, "e5".parse().unwrap()), None, "an illegal hole previews nothing");
    }

    #[test]
    fn a_placed_marble_grows_to_full_size_and_stays_there() {
        assert!((marble_scale(0.0) - 0.35).abs() < 1e-6);
        assert!((marble_scale(1.0) - 1.0).abs() < 1e-6);
        assert!((marble_scale(7.0) - 1.0).abs() < 1e-6, "after the animation");
        let steps: Vec<f32> = (0..=10).map(|step| marble_scale(step as f32 / 10.0)).collect();
        assert!(steps.windows(2).all(|pair| pair[0] < pair[1]), "{steps:?}");
        assert!(steps[5] > 0.9, "most of the growth comes first: {steps:?}");
    }
}
