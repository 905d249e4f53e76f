//! What the app shows, as data: the hook a test drives the browser edition with (the page hands
//! it out as JSON), and the same on the desktop. It says which screen is up, the game on it, and
//! where on the screen its holes and a few buttons are, so that a test clicks like a player.

use egui::Pos2;
use kulami_core::Color;
use serde::Serialize;

use super::KulamiApp;
use crate::board_view::drawn_board;

/// The app at one frame.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Probe {
    /// Which screen is up ([`KulamiApp::screen`]).
    pub screen: &'static str,
    /// The moves of the local game, in order.
    pub moves: Vec<String>,
    /// Who moves next in the local game; `None` once it is over.
    pub to_move: Option<Color>,
    /// The holes the side to move may fill in the local game.
    pub legal: Vec<String>,
    /// Whether the engine is thinking about its move.
    pub thinking: bool,
    /// The holes of the board drawn last, with their centres in points (CSS pixels in a page).
    pub holes: Vec<Spot>,
    /// The buttons noted with [`note_control`] this frame.
    pub controls: Vec<Spot>,
    /// The online side: who is signed in and the game on the screen.
    pub online: OnlineProbe,
    /// The moves of the table game (Kalah or GORami), in its notation.
    pub table_moves: Vec<String>,
}

/// A named place on the screen, in points.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spot {
    /// A hole's name (`d4`) or a button's text.
    pub name: String,
    /// Across, from the left.
    pub x: f32,
    /// Down, from the top.
    pub y: f32,
}

/// The online side of [`Probe`].
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct OnlineProbe {
    /// The signed-in player.
    pub user: Option<String>,
    /// Invites waiting for the player.
    pub incoming: usize,
    /// The online game open, if any: its id.
    pub game: Option<String>,
    /// Its moves.
    pub moves: Vec<String>,
    /// Whether it is the player's turn in it.
    pub my_turn: bool,
    /// How it ended, in words.
    pub result: Option<String>,
}

/// The key of this frame's noted controls in the context's memory.
const CONTROLS: &str = "kulami.probe-controls";

/// Notes where the button `name` was drawn this frame (for [`Probe::controls`]).
pub fn note_control(ui: &egui::Ui, name: &str, response: &egui::Response) {
    let centre = response.rect.center();
    ui.ctx().data_mut(|data| {
        data.get_temp_mut_or_default::<Vec<(String, Pos2)>>(egui::Id::unique(CONTROLS)).push((name.to_owned(), centre))
    });
}

/// Forgets the controls noted last frame (at the start of each frame).
pub(super) fn forget_controls(ctx: &egui::Context) {
    ctx.data_mut(|data| data.remove::<Vec<(String, Pos2)>>(egui::Id::unique(CONTROLS)));
}

fn spot(name: String, at: Pos2) -> Spot {
    Spot { name, x: at.x, y: at.y }
}

impl KulamiApp {
    /// What the app showed in its last frame in `ctx`.
    #[must_use]
    pub fn probe(&self, ctx: &egui::Context) -> Probe {
        let position = self.state.game().position();
        let holes = drawn_board(ctx).map_or_else(Vec::new, |board| {
            board.holes.into_iter().map(|(cell, at)| spot(cell.to_string(), at)).collect()
        });
        let controls: Vec<(String, Pos2)> =
            ctx.data(|data| data.get_temp(egui::Id::unique(CONTROLS))).unwrap_or_default();
        let game = self.online_game.as_ref();
        Probe {
            screen: self.screen(),
            moves: position.moves().map(|played| played.to_string()).collect(),
            to_move: (!position.is_game_over()).then(|| position.side_to_move()),
            legal: position.legal_moves().iter().map(|cell| cell.to_string()).collect(),
            thinking: self.thinking(),
            holes,
            controls: controls.into_iter().map(|(name, at)| spot(name, at)).collect(),
            online: OnlineProbe {
                user: self.lobby.account().map(|account| account.username.clone()),
                incoming: self.lobby.incoming().len(),
                game: game.map(|game| game.id().to_owned()),
                moves: game
                    .and_then(|game| game.position())
                    .map(|position| position.moves().map(|played| played.to_string()).collect())
                    .unwrap_or_default(),
                my_turn: game.is_some_and(crate::online_game::OnlineGame::my_turn),
                result: game.and_then(crate::online_game::OnlineGame::result),
            },
            table_moves: self.table.as_ref().map(crate::table::TableScreen::moves).unwrap_or_default(),
        }
    }
}
