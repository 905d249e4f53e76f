//! The Kalah screen: the board of pits and stores, each sowing shown seed by seed, and the side
//! panel. North's pits run along the top (its pit 1 on the right, as it sows), South's along
//! the bottom, each store at its owner's end: North's on the left, South's on the right.

use egui::{Color32, Pos2, Rect, RichText, Sense, Stroke, Ui, Vec2, WidgetInfo};
use kalah::{Hole, Move, Position, Side};
use web_time::Instant;

use super::Session;
use super::kalah::{KalahSetup, SEED_TIME, Sowing};
use super::view::{self, SeatChoice, Shown, TableInput};
use crate::board_view::TABLE;

const WOOD: Color32 = Color32::from_rgb(176, 128, 76);
const PIT: Color32 = Color32::from_rgb(120, 80, 42);
const SEED: Color32 = Color32::from_rgb(236, 226, 200);
const MARK: Color32 = Color32::from_rgb(255, 214, 92);
const HINT: Color32 = Color32::from_rgb(120, 200, 255);

/// Seed times a finished sowing stays on the board before the next move shows.
const HOLD: u32 = 3;

/// The Kalah screen: the game, the choices for the next one, and how far the board has shown
/// the moves.
#[derive(Debug)]
pub struct KalahScreen {
    /// The game.
    pub session: Session<KalahSetup>,
    /// The variant of the next new game.
    pub setup: KalahSetup,
    /// Who plays the next new game.
    pub choice: SeatChoice,
    shown: Shown,
}

impl KalahScreen {
    /// A new game of `setup` with `choice`'s seats.
    #[must_use]
    pub fn new(setup: KalahSetup, choice: SeatChoice) -> KalahScreen {
        KalahScreen { session: Session::new(setup, choice.seats()), setup, choice, shown: Shown::default() }
    }

    /// `session`, as it was left, with `choice` for the next new game.
    #[must_use]
    pub fn resume(session: Session<KalahSetup>, choice: SeatChoice) -> KalahScreen {
        let shown = Shown::all(session.moves().len());
        KalahScreen { setup: session.rules(), session, choice, shown }
    }

    /// Whether the board is still showing a move (the engine waits for it).
    #[must_use]
    pub fn animating(&self) -> bool {
        self.shown.behind(self.session.moves().len())
    }

    /// Draws the screen and applies the player's clicks; `true` when they asked for the menu.
    pub fn show(&mut self, ui: &mut Ui) -> bool {
        let now = Instant::now();
        // A move shown to its end this frame needs one frame more: the logic before it lets
        // the engine move.
        let behind = self.animating();
        let sowing = self.sowing_shown(now);
        let mut inputs = Vec::new();
        egui::Panel::right("kalah side").exact_size(330.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let setup = &mut self.setup;
                inputs = view::side_panel(ui, &self.session, &mut self.choice, swap_button(&self.session), |ui| {
                    rule_choices(ui, setup);
                });
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            let person = self.session.person_to_move() && sowing.is_none();
            let hints: Vec<Move> = self.session.hints().iter().map(|&(mv, _)| mv).collect();
            if let Some(pit) = board(ui, self.session.position(), sowing.as_ref(), person, &hints) {
                inputs.push(TableInput::Play(Move::Pit(pit)));
            }
        });
        if behind || self.animating() {
            ui.ctx().request_repaint_after(std::time::Duration::from_millis(30));
        }
        view::apply(&mut self.session, inputs, self.setup, self.choice)
    }

    /// The sowing on the board now and how many of its seeds are down; moves the board on to
    /// the next move once one has been shown.
    fn sowing_shown(&mut self, now: Instant) -> Option<(Sowing, usize)> {
        loop {
            let (number, elapsed) = self.shown.current(self.session.moves().len(), now)?;
            let before = self.session.position_before(number)?;
            let sowing = Sowing::of(before, self.session.moves()[number]);
            let dropped = (elapsed.as_secs_f32() / SEED_TIME.as_secs_f32()) as usize;
            let seeds = sowing.as_ref().map_or(0, Sowing::seeds);
            if dropped < seeds + HOLD as usize {
                return sowing.map(|sowing| (sowing, dropped));
            }
            self.shown.next(now);
        }
    }
}

/// The pie rule's swap, when it is the person's move.
fn swap_button(session: &Session<KalahSetup>) -> impl FnOnce(&mut Ui, &mut Vec<TableInput<Move>>) + '_ {
    move |ui, inputs| {
        if session.person_to_move() && session.position().legal_moves().contains(&Move::Swap) {
            let swap = ui.button("Swap sides (pie rule)").on_hover_text("Take over the opening turn's seeds");
            crate::app::note_control(ui, "Swap sides", &swap);
            if swap.clicked() {
                inputs.push(TableInput::Play(Move::Swap));
            }
        }
    }
}

/// The variant's choices for the next new game.
fn rule_choices(ui: &mut Ui, setup: &mut KalahSetup) {
    ui.horizontal(|ui| {
        ui.label("A side:");
        for pits in 4..=6 {
            ui.selectable_value(&mut setup.pits, pits, format!("{pits} pits"));
        }
    });
    ui.horizontal(|ui| {
        ui.label("A pit:");
        for seeds in 3..=6 {
            ui.selectable_value(&mut setup.seeds, seeds, format!("{seeds} seeds"));
        }
    });
    ui.checkbox(&mut setup.empty_capture, "Empty capture")
        .on_hover_text("A last seed in an empty pit of your own captures even when the opposite pit is empty");
    ui.checkbox(&mut setup.site_end, "End when the mover has no seeds")
        .on_hover_text("As the site plays; otherwise the game ends as soon as either side is empty");
    ui.checkbox(&mut setup.pie, "Pie rule").on_hover_text("The second player may take over the opening turn");
    ui.label(RichText::new(setup.describe()).weak());
}

/// Where each hole is drawn in `rect` for `pits` pits a side, and its radius.
fn layout(rect: Rect, pits: u8) -> (impl Fn(Hole) -> Rect, f32) {
    let columns = f32::from(pits) + 2.0;
    let cell = (rect.width() / columns).min(rect.height() / 2.6).max(10.0);
    let origin = rect.center() - Vec2::new(cell * columns, cell * 2.0) / 2.0;
    let place = move |hole: Hole| {
        let (column, row, tall) = match hole {
            Hole::Store(Side::North) => (0.0, 0.0, true),
            Hole::Store(Side::South) => (columns - 1.0, 0.0, true),
            Hole::Pit(Side::North, pit) => (f32::from(pits - pit) + 1.0, 0.0, false),
            Hole::Pit(Side::South, pit) => (f32::from(pit), 1.0, false),
        };
        let size = Vec2::new(cell, if tall { 2.0 * cell } else { cell });
        Rect::from_min_size(origin + Vec2::new(column, row) * cell, size).shrink(cell * 0.06)
    };
    (place, cell)
}

/// Draws the board (part way through `sowing` if one is shown) and returns the pit the person
/// clicked, if `person` is to move; `hints` are ringed.
fn board(
    ui: &mut Ui,
    position: &Position,
    sowing: Option<&(Sowing, usize)>,
    person: bool,
    hints: &[Move],
) -> Option<u8> {
    let pits = position.rules().pits();
    let (rect, _) = ui.allocate_exact_size(ui.available_size(), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, TABLE);
    let (place, cell) = layout(rect, pits);
    let whole = place(Hole::Store(Side::North)).union(place(Hole::Store(Side::South)));
    painter.rect_filled(whole.expand(cell * 0.08), cell * 0.5, WOOD);
    let mover = position.to_move();
    let mut clicked = None;
    let holes = [Side::North, Side::South]
        .into_iter()
        .flat_map(|side| (1..=pits).map(move |pit| Hole::Pit(side, pit)).chain([Hole::Store(side)]));
    for hole in holes {
        let area = place(hole);
        let (seeds, fresh) = match sowing {
            Some((sowing, dropped)) => sowing.seeds_in(hole, *dropped),
            None => (seeds_in(position, hole), false),
        };
        let radius = area.width().min(area.height()) / 2.0;
        painter.rect_filled(area, radius, PIT);
        draw_seeds(&painter, area, seeds, cell);
        painter.text(
            area.center_bottom() - Vec2::new(0.0, cell * 0.05),
            egui::Align2::CENTER_BOTTOM,
            seeds.to_string(),
            egui::FontId::proportional(cell * 0.22),
            Color32::WHITE,
        );
        if fresh {
            painter.rect_stroke(area, radius, Stroke::new(cell * 0.05, MARK), egui::StrokeKind::Outside);
        }
        if sowing.is_some_and(|(sowing, _)| sowing.from() == hole) {
            painter.rect_stroke(area, radius, Stroke::new(cell * 0.03, SEED), egui::StrokeKind::Outside);
        }
        let Hole::Pit(side, pit) = hole else { continue };
        if hints.contains(&Move::Pit(pit)) && mover == Some(side) {
            painter.rect_stroke(
                area.expand(cell * 0.04),
                radius,
                Stroke::new(cell * 0.05, HINT),
                egui::StrokeKind::Outside,
            );
        }
        caption(&painter, area, side, &pit.to_string(), cell * 0.12);
        let playable = person && mover == Some(side) && seeds > 0;
        let response = ui.interact(
            area.intersect(ui.clip_rect()),
            ui.scope_id().with(("pit", side == Side::North, pit)),
            Sense::click(),
        );
        response.widget_info(|| {
            let label = format!("{side}'s pit {pit}, {seeds} seeds{}", if playable { ", playable" } else { "" });
            WidgetInfo::labeled(egui::Role::Button, playable, label)
        });
        if playable {
            crate::app::note_control(ui, &format!("{side}'s pit {pit}"), &response);
        }
        if playable && response.hovered() {
            painter.rect_stroke(area, radius, Stroke::new(cell * 0.04, Color32::WHITE), egui::StrokeKind::Outside);
        }
        if playable && response.clicked() {
            clicked = Some(pit);
        }
    }
    for side in [Side::North, Side::South] {
        caption(&painter, place(Hole::Store(side)), side, &side.to_string(), cell * 0.15);
    }
    clicked
}

/// `text` just outside `area` on `side`'s edge of the board (North's above, South's below),
/// `gap` away from it.
fn caption(painter: &egui::Painter, area: Rect, side: Side, text: &str, gap: f32) {
    let at = match side {
        Side::North => area.center_top() - Vec2::new(0.0, gap),
        Side::South => area.center_bottom() + Vec2::new(0.0, gap),
    };
    let size = area.width().min(area.height()) * 0.19;
    painter.text(at, egui::Align2::CENTER_CENTER, text, egui::FontId::proportional(size), Color32::GRAY);
}

fn seeds_in(position: &Position, hole: Hole) -> u8 {
    match hole {
        Hole::Pit(side, pit) => position.pit(side, pit),
        Hole::Store(side) => position.store(side),
    }
}

/// `seeds` small seeds in `area`, on a sunflower spiral so that they never overlap much.
fn draw_seeds(painter: &egui::Painter, area: Rect, seeds: u8, cell: f32) {
    let seed = cell * 0.055;
    let reach = (area.width().min(area.height()) / 2.0 - 2.0 * seed).max(seed);
    let centre = area.center() - Vec2::new(0.0, cell * 0.06);
    let count = f32::from(seeds.min(60));
    for index in 0..seeds.min(60) {
        let i = f32::from(index) + 0.5;
        let angle = i * 2.399_963;
        let distance = reach * (i / count.max(1.0)).sqrt() * (count / 24.0).clamp(0.45, 1.0);
        let at: Pos2 = centre + Vec2::angled(angle) * distance;
        painter.circle_filled(at, seed, SEED);
    }
}
