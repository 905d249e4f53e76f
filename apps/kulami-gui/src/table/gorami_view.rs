//! The GORami screen: the board of triangles, the disc to place, and the side panel. A new disc
//! and the discs it turned are marked for a moment.

use std::time::Duration;

use egui::{Color32, Pos2, Rect, RichText, Sense, Stroke, Ui, Vec2, WidgetInfo};
use gorami::{Move, Player, Position};
use web_time::Instant;

use super::Session;
use super::gorami::GoramiSetup;
use super::view::{self, SeatChoice, Shown, TableInput};
use crate::board_view::TABLE;

const FIELD: Color32 = Color32::from_rgb(214, 196, 160);
const MIDDLE: Color32 = Color32::from_rgb(190, 168, 124);
const YELLOW: Color32 = Color32::from_rgb(242, 196, 48);
const BLUE: Color32 = Color32::from_rgb(58, 112, 206);
const MARK: Color32 = Color32::from_rgb(255, 255, 255);
const HINT: Color32 = Color32::from_rgb(120, 200, 255);

/// How long a new disc and the discs it turned stay marked before the next move shows.
const MOVE_TIME: Duration = Duration::from_millis(450);

/// The GORami screen: the game, the choices for the next one, the disc the person places next
/// and how far the board has shown the moves.
#[derive(Debug)]
pub struct GoramiScreen {
    /// The game.
    pub session: Session<GoramiSetup>,
    /// The board of the next new game.
    pub setup: GoramiSetup,
    /// Who plays the next new game.
    pub choice: SeatChoice,
    /// The number (1-3) on the disc a click places.
    pub disc: u8,
    shown: Shown,
}

impl GoramiScreen {
    /// A new game on `setup` with `choice`'s seats.
    #[must_use]
    pub fn new(setup: GoramiSetup, choice: SeatChoice) -> GoramiScreen {
        GoramiScreen { session: Session::new(setup, choice.seats()), setup, choice, disc: 1, shown: Shown::default() }
    }

    /// `session`, as it was left, with `choice` for the next new game.
    #[must_use]
    pub fn resume(session: Session<GoramiSetup>, choice: SeatChoice) -> GoramiScreen {
        let shown = Shown::all(session.moves().len());
        GoramiScreen { setup: session.rules(), session, choice, disc: 1, shown }
    }

    /// Whether the board is still marking a move (the engine waits for it).
    #[must_use]
    pub fn animating(&self) -> bool {
        self.shown.behind(self.session.moves().len())
    }

    /// Draws the screen and applies the player's clicks; `true` when they asked for the menu.
    pub fn show(&mut self, ui: &mut Ui) -> bool {
        // A move shown to its end this frame needs one frame more: the logic before it lets
        // the engine move.
        let behind = self.animating();
        let marked = self.move_marked(Instant::now());
        let position = *self.session.position();
        let player = position.to_move();
        // A disc the person has none of left, or that fits nowhere, gives way to one that fits.
        let fits = |disc: u8| position.placements(player).0[usize::from(disc - 1)] != 0;
        if !fits(self.disc) {
            self.disc = (1..=3).find(|&disc| fits(disc)).unwrap_or(self.disc);
        }
        let mut inputs = Vec::new();
        egui::Panel::right("gorami side").exact_size(330.0).show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let (setup, disc) = (&mut self.setup, &mut self.disc);
                let moves = |ui: &mut Ui, inputs: &mut Vec<TableInput<Move>>| {
                    disc_choice(ui, &self.session, disc, inputs);
                };
                inputs = view::side_panel(ui, &self.session, &mut self.choice, moves, |ui| {
                    ui.horizontal_wrapped(|ui| {
                        ui.label("Board:");
                        for board in GoramiSetup::ALL {
                            ui.selectable_value(setup, board, board.describe());
                        }
                    });
                });
            });
        });
        egui::CentralPanel::default().show(ui, |ui| {
            let person = self.session.person_to_move() && marked.is_none();
            let hints: Vec<Move> = self.session.hints().iter().map(|&(mv, _)| mv).collect();
            let view = BoardView { disc: self.disc, person, hints: &hints, marked: marked.unwrap_or_default() };
            if let Some(field) = board(ui, &position, &view) {
                inputs.push(TableInput::Play(Move::Place { field, disc: self.disc }));
            }
        });
        if behind || self.animating() {
            ui.ctx().request_repaint_after(Duration::from_millis(30));
        }
        view::apply(&mut self.session, inputs, self.setup, self.choice)
    }

    /// The fields to mark now (the move being shown: its disc and those it turned); moves the
    /// board on once a move has shown long enough.
    fn move_marked(&mut self, now: Instant) -> Option<Marked> {
        let (number, elapsed) = self.shown.current(self.session.moves().len(), now)?;
        if elapsed >= MOVE_TIME {
            self.shown.next(now);
            return self.move_marked(now);
        }
        let before = self.session.position_before(number)?;
        let after = self.session.position_before(number + 1)?;
        let placed = match self.session.moves()[number] {
            Move::Place { field, .. } => Some(field),
            Move::Pass => None,
        };
        let turned = (1..=before.shape().board().len() as u8)
            .filter(|&field| matches!((before.disc(field), after.disc(field)), (Some((a, _)), Some((b, _))) if a != b))
            .collect();
        Some(Marked { placed, turned })
    }
}

/// The move a board marks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Marked {
    placed: Option<u8>,
    turned: Vec<u8>,
}

/// The person's discs to choose from, with what is left of each, and the pass when it is the
/// only move.
fn disc_choice(ui: &mut Ui, session: &Session<GoramiSetup>, disc: &mut u8, inputs: &mut Vec<TableInput<Move>>) {
    let position = session.position();
    for player in Player::BOTH {
        let left: Vec<String> = (1..=3).map(|number| format!("{}×{number}", position.supply(player, number))).collect();
        ui.label(format!("{player}'s discs: {}", left.join(", ")));
    }
    if position.is_over() {
        ui.label("The board marks each stripe's end in its winner's colour (grey: equal sums).");
    }
    if !session.person_to_move() {
        return;
    }
    let player = position.to_move();
    if position.legal_moves() == [Move::Pass] {
        ui.label("No disc fits anywhere: you pass.");
        let pass = ui.button("Pass");
        crate::app::note_control(ui, "Pass", &pass);
        if pass.clicked() {
            inputs.push(TableInput::Play(Move::Pass));
        }
        return;
    }
    ui.horizontal(|ui| {
        ui.label(RichText::new("Place a").strong());
        for number in 1..=3 {
            let fits = position.placements(player).0[usize::from(number - 1)] != 0;
            let text = format!("{number} ({} left)", position.supply(player, number));
            let choice = ui.add_enabled(fits, egui::Button::selectable(*disc == number, text));
            crate::app::note_control(ui, &format!("disc {number}"), &choice);
            if choice.clicked() {
                *disc = number;
            }
        }
    });
}

/// What the board shows besides the position.
struct BoardView<'a> {
    /// The disc a click places.
    disc: u8,
    /// Whether the person may click a field.
    person: bool,
    hints: &'a [Move],
    marked: Marked,
}

/// Draws the board and returns the field the person clicked, if they may and the disc fits there.
fn board(ui: &mut Ui, position: &Position, view: &BoardView<'_>) -> Option<u8> {
    let board = position.shape().board();
    let (rect, _) = ui.allocate_exact_size(ui.available_size(), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, TABLE);
    // The lattice point (x, y) lies x + y/2 fields across and y rows of √3/2 up.
    let page = |(x, y): (i8, i8)| Vec2::new(f32::from(x) + f32::from(y) / 2.0, -f32::from(y) * 0.866_025_4);
    let corners: Vec<[Vec2; 3]> = (0..board.len()).map(|i| board.triangle(i).corners().map(page)).collect();
    let bounds = corners
        .iter()
        .flatten()
        .fold(Rect::NOTHING, |bounds, &corner| bounds.union(Rect::from_min_size(corner.to_pos2(), Vec2::ZERO)));
    let scale = (rect.width() / bounds.width()).min(rect.height() / bounds.height()) * 0.9;
    let to_screen = |corner: Vec2| rect.center() + (corner - bounds.center().to_vec2()) * scale;
    let placeable = position.placements(position.to_move()).0[usize::from(view.disc.clamp(1, 3) - 1)];
    let centres: Vec<Pos2> = corners
        .iter()
        .map(|triangle| {
            (to_screen(triangle[0]) + to_screen(triangle[1]).to_vec2() + to_screen(triangle[2]).to_vec2()) / 3.0
        })
        .collect();
    let mut clicked = None;
    for (index, triangle) in corners.iter().enumerate() {
        let field = index as u8 + 1;
        let points = triangle.map(to_screen);
        let centre = centres[index];
        let inset = points.map(|point| centre + (point - centre) * 0.92);
        let disc = position.disc(field);
        let fill = match disc {
            Some((Player::Yellow, _)) => YELLOW,
            Some((Player::Blue, _)) => BLUE,
            None if board.middle() & 1 << index != 0 => MIDDLE,
            None => FIELD,
        };
        let legal = view.person && placeable & 1 << index != 0;
        let marked = view.marked.placed == Some(field) || view.marked.turned.contains(&field);
        let hinted = view.hints.iter().any(|mv| matches!(mv, Move::Place { field: hint, .. } if *hint == field));
        let stroke = if marked {
            Stroke::new(scale * 0.06, MARK)
        } else if hinted {
            Stroke::new(scale * 0.05, HINT)
        } else {
            Stroke::new(scale * 0.015, TABLE)
        };
        painter.add(egui::Shape::convex_polygon(inset.to_vec(), fill, stroke));
        let (text, size, color) = match disc {
            Some((Player::Yellow, number)) => (number.to_string(), 0.3, Color32::BLACK),
            Some((Player::Blue, number)) => (number.to_string(), 0.3, Color32::WHITE),
            None => (field.to_string(), 0.14, Color32::from_gray(110)),
        };
        painter.text(centre, egui::Align2::CENTER_CENTER, text, egui::FontId::proportional(scale * size), color);
        // Clicks land on the triangle's inner box (a triangle is no rectangle).
        let target = Rect::from_center_size(centre, Vec2::splat(scale * 0.38)).intersect(ui.clip_rect());
        let response = ui.interact(target, ui.scope_id().with(("field", field)), Sense::click());
        response.widget_info(|| {
            let what = match disc {
                Some((player, number)) => format!("{player} {number}"),
                None if legal => format!("empty, {} fits", view.disc),
                None => "empty".to_owned(),
            };
            WidgetInfo::labeled(egui::Role::Button, legal, format!("field {field} {what}"))
        });
        if legal && response.hovered() {
            painter.add(egui::Shape::closed_line(inset.to_vec(), Stroke::new(scale * 0.04, MARK)));
        }
        if legal && response.clicked() {
            clicked = Some(field);
        }
    }
    if position.is_over() {
        draw_stripes(&painter, position, &centres, scale);
    }
    clicked
}

/// The end's summary: beyond an end of every stripe, a short stub along it in its winner's
/// colour (grey for equal sums), outside the board so that the discs stay readable.
fn draw_stripes(painter: &egui::Painter, position: &Position, centres: &[Pos2], scale: f32) {
    let middle = centres.iter().fold(Vec2::ZERO, |sum, centre| sum + centre.to_vec2()) / centres.len() as f32;
    for &stripe in position.shape().board().stripes() {
        let points: Vec<Pos2> = gorami::board::bits(stripe).map(|index| centres[index]).collect();
        // The stripe runs between its two fields farthest apart.
        let mut ends = (points[0], points[0]);
        for &a in &points {
            for &b in &points {
                if a.distance(b) > ends.0.distance(ends.1) {
                    ends = (a, b);
                }
            }
        }
        // A lone field's stripe points away from the board's middle.
        let span = ends.1 - ends.0;
        let along = if span.length() > 0.0 { span.normalized() } else { (ends.1 - middle.to_pos2()).normalized() };
        let color = match position.leader_of(stripe) {
            Some(Player::Yellow) => YELLOW,
            Some(Player::Blue) => BLUE,
            None => Color32::GRAY,
        };
        let (from, to) = (ends.1 + along * scale * 0.42, ends.1 + along * scale * 0.62);
        painter.line_segment([from, to], Stroke::new(scale * 0.05, color));
        painter.circle_filled(to, scale * 0.06, color);
    }
}
