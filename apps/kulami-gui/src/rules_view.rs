//! "How to play": the rules in short, with small boards that show them.

use std::sync::{Arc, OnceLock};

use egui::{RichText, Ui};
use kulami_core::{Layout, Position, notation::parse_moves};

use crate::board_view;

/// A small example position: a layout and moves.
fn example(layout: &str, moves: &str) -> Position {
    let layout = Arc::new(Layout::parse(layout).expect("example layouts are valid"));
    Position::from_moves(layout, &parse_moves(moves).expect("example moves parse")).expect("example moves are legal")
}

struct Examples {
    reply: Position,
    own_tile: Position,
    scoring: Position,
}

fn examples() -> &'static Examples {
    static EXAMPLES: OnceLock<Examples> = OnceLock::new();
    EXAMPLES.get_or_init(|| Examples {
        reply: example("AABBCC/AABBCC/DDEEFF/GGHHII", "c2"),
        own_tile: example("AABBCC/AABBCC/DDEEFF/GGHHII", "c2 c4 a4"),
        scoring: example("AABB/CCDD/EEFF", "a1 a3 c3 c1 c2 b2"),
    })
}

fn picture(ui: &mut Ui, position: &Position, id: &str) {
    ui.push_id(id, |ui| {
        ui.allocate_ui(egui::vec2(240.0, 170.0), |ui| {
            board_view::show(ui, position, &board_view::View::plain());
        });
    });
}

/// The rules window's contents.
pub fn show(ui: &mut Ui) {
    let examples = examples();
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.label(RichText::new("The goal").strong());
        ui.label(
            "Red and Black take turns placing marbles in the holes of the wooden tiles. At the end, \
             whoever has more marbles on a tile wins all its holes as points. Equal counts win nothing.",
        );
        ui.label(RichText::new("Where you may play").strong());
        ui.label(
            "The first marble goes anywhere. After that, you must play in the same row or column as \
             your opponent's last marble (gaps do not matter), but not on the tile it lies on. Here \
             Red played c2: Black's choices have green rings, and Red's tile is dimmed.",
        );
        picture(ui, &examples.reply, "reply");
        ui.label(
            "Nor may you play on the tile of your own previous marble. Here Black must answer Red's \
             a4 in row 4 or column a, but neither on a4's tile nor on the tile of Black's own c4.",
        );
        picture(ui, &examples.own_tile, "own");
        ui.label(RichText::new("The end").strong());
        ui.label(
            "The game ends when all marbles are placed or the player to move has no legal hole. \
             Empty holes still count for the tile's owner; tinted tiles show who holds them now.",
        );
        picture(ui, &examples.scoring, "scoring");
        let score = examples.scoring.score(kulami_core::Scoring::Standard);
        ui.label(format!("Here Red holds {} points of tiles and Black {}.", score.red.tiles, score.black.tiles));
        ui.label(RichText::new("Variants").strong());
        ui.label(
            "Largest area: the player whose largest group of edge-connected marbles is larger scores \
             the difference. Lines: each run of 5 or more marbles in a row, column or diagonal counts \
             its length; the player with the larger sum scores the difference.",
        );
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_examples_are_legal_games() {
        let examples = super::examples();
        assert!(examples.reply.legal_moves().len() > 3);
        assert_eq!(examples.own_tile.move_count(), 3);
        assert!(!examples.scoring.is_game_over());
    }
}
