//! The analysis window's graph: the evaluation after each move, with the costliest moves marked.

use egui::{Color32, CornerRadius, Pos2, Sense, Stroke, Ui, Vec2};
use kulami_ai::analysis::MoveReview;

/// Evaluations beyond this many points are drawn at the edge.
const SCALE_POINTS: f32 = 20.0;
/// A move that loses less than this (hundredths of a point) is no mistake.
const MISTAKE: i32 = 100;

/// The `count` moves that lost the most, at least a point each, costliest first.
#[must_use]
pub fn costliest(reviews: &[MoveReview], count: usize) -> Vec<MoveReview> {
    let mut mistakes: Vec<MoveReview> = reviews.iter().copied().filter(|review| review.loss >= MISTAKE).collect();
    mistakes.sort_by_key(|review| (std::cmp::Reverse(review.loss), review.number));
    mistakes.truncate(count);
    mistakes
}

/// Draws the evaluation after each move from red's side (up is good for red), marking the
/// costliest moves with a dot of the mover's colour.
pub fn graph(ui: &mut Ui, reviews: &[MoveReview]) {
    let size = Vec2::new(ui.available_width().max(200.0), 160.0);
    let (rect, _) = ui.allocate_exact_size(size, Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, CornerRadius::same(4), Color32::from_gray(30));
    painter.line_segment([rect.left_center(), rect.right_center()], Stroke::new(1.0, Color32::from_gray(90)));
    if reviews.is_empty() {
        return;
    }
    let point = |index: usize, value: i32| {
        let x = rect.left() + rect.width() * (index as f32 + 1.0) / (reviews.len() as f32 + 1.0);
        let points = (value as f32 / 100.0).clamp(-SCALE_POINTS, SCALE_POINTS);
        Pos2::new(x, rect.center().y - points / SCALE_POINTS * (rect.height() / 2.0 - 6.0))
    };
    let line: Vec<Pos2> =
        reviews.iter().enumerate().map(|(index, review)| point(index, review.value_for_red)).collect();
    painter.add(egui::Shape::line(line, Stroke::new(2.0, Color32::from_rgb(230, 200, 120))));
    for mistake in costliest(reviews, 5) {
        let index = mistake.number - 1;
        let color = match mistake.mover {
            kulami_core::Color::Red => Color32::from_rgb(220, 50, 50),
            kulami_core::Color::Black => Color32::from_gray(10),
        };
        let at = point(index, reviews[index].value_for_red);
        painter.circle(at, 5.0, color, Stroke::new(1.5, Color32::WHITE));
    }
    painter.text(
        rect.left_top() + Vec2::new(6.0, 4.0),
        egui::Align2::LEFT_TOP,
        format!("red +{SCALE_POINTS}"),
        egui::FontId::proportional(11.0),
        Color32::from_gray(160),
    );
    painter.text(
        rect.left_bottom() + Vec2::new(6.0, -4.0),
        egui::Align2::LEFT_BOTTOM,
        format!("black +{SCALE_POINTS}"),
        egui::FontId::proportional(11.0),
        Color32::from_gray(160),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use kulami_core::Color;

    fn review(number: usize, loss: i32) -> MoveReview {
        let cell = "a1".parse().unwrap();
        let mover = if number % 2 == 1 { Color::Red } else { Color::Black };
        MoveReview { number, mover, played: cell, value_for_red: 0, best: cell, loss, exact: false }
    }

    #[test]
    fn costliest_moves_are_the_big_losses_largest_first() {
        let reviews = [review(1, 0), review(2, 350), review(3, 99), review(4, 120), review(5, 350)];
        let numbers: Vec<usize> = costliest(&reviews, 5).iter().map(|r| r.number).collect();
        assert_eq!(numbers, [2, 5, 4]);
        assert_eq!(costliest(&reviews, 1).len(), 1);
    }
}
