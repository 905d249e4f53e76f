//! Drawing of the online lobby: the server and account, who is online, the invite form, and
//! the invites to and from the player. It returns what the player did; the [`Lobby`] does it.

use egui::{RichText, Ui};
use kulami_core::Scoring;

use crate::online::{InviteForm, Lobby, OnlineAction};
use crate::state::Tone;

/// What the lobby's fields hold between frames (the password only until it is sent).
#[derive(Clone, Debug, Default)]
pub struct LobbyForm {
    /// The name to sign in with.
    pub name: String,
    /// The password, cleared once sent.
    pub password: String,
    /// The invite being written.
    pub invite: InviteForm,
}

/// What the lobby screen asks of the window besides the lobby's own actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyExit {
    /// Stay.
    Stay,
    /// Back to the start screen.
    Back,
    /// Show this game.
    Open(String),
}

/// Draws the lobby; the player's actions and whether they left.
pub fn show(ui: &mut Ui, lobby: &mut Lobby, form: &mut LobbyForm) -> (Vec<OnlineAction>, LobbyExit) {
    let mut actions = Vec::new();
    let mut exit = LobbyExit::Stay;
    egui::ScrollArea::vertical().show(ui, |ui| {
        ui.horizontal(|ui| {
            ui.heading("Play online");
            if ui.button("Back").clicked() {
                exit = LobbyExit::Back;
            }
            if lobby.busy() {
                ui.spinner();
            }
        });
        if let Some((tone, text)) = lobby.message() {
            let color = match tone {
                Tone::Good => ui.visuals().text_color(),
                Tone::Problem => ui.visuals().warn_fg_color,
            };
            ui.label(RichText::new(text).color(color));
        }
        ui.separator();
        account(ui, lobby, form, &mut actions);
        if lobby.account().is_some() {
            ui.separator();
            players(ui, lobby, form);
            ui.separator();
            invite_form(ui, &mut form.invite, &mut actions);
            ui.separator();
            invites(ui, lobby, &mut actions);
            if !lobby.started().is_empty() {
                ui.separator();
                ui.label(RichText::new("Games started").strong());
                for game in lobby.started() {
                    if ui.button(format!("Open game {game}")).clicked() {
                        exit = LobbyExit::Open(game.clone());
                    }
                }
            }
        }
    });
    (actions, exit)
}

fn account(ui: &mut Ui, lobby: &mut Lobby, form: &mut LobbyForm, actions: &mut Vec<OnlineAction>) {
    if let Some(account) = lobby.account() {
        let signed_in = format!("Signed in as {} on {}", account.username, account.server);
        ui.horizontal(|ui| {
            ui.label(signed_in);
            if ui.button("Log out").clicked() {
                actions.push(OnlineAction::Logout);
            }
        });
        return;
    }
    egui::Grid::new("account").num_columns(2).show(ui, |ui| {
        labelled(ui, "Server", egui::TextEdit::singleline(&mut lobby.server));
        labelled(ui, "Name", egui::TextEdit::singleline(&mut form.name));
        labelled(ui, "Password", egui::TextEdit::singleline(&mut form.password).password(true));
    });
    ui.horizontal(|ui| {
        let ready = !form.name.trim().is_empty() && !form.password.is_empty();
        let name = form.name.trim().to_owned();
        if ui.add_enabled(ready, egui::Button::new("Register")).clicked() {
            actions.push(OnlineAction::Register { name: name.clone(), password: std::mem::take(&mut form.password) });
        }
        if ui.add_enabled(ready, egui::Button::new("Log in")).clicked() {
            actions.push(OnlineAction::Login { name, password: std::mem::take(&mut form.password) });
        }
    });
}

/// A grid row: a label and its text field, which screen readers (and tests) find by the label.
fn labelled(ui: &mut Ui, label: &str, field: egui::TextEdit<'_>) {
    let label = ui.label(label);
    ui.add(field.desired_width(260.0)).labelled_by(label.id);
    ui.end_row();
}

fn players(ui: &mut Ui, lobby: &mut Lobby, form: &mut LobbyForm) {
    ui.horizontal(|ui| {
        ui.label(RichText::new("Players online").strong());
        if ui.small_button("Refresh").clicked() {
            lobby.refresh();
        }
    });
    if lobby.players().is_empty() {
        ui.label("Nobody else is online.");
    }
    for player in lobby.players() {
        ui.horizontal(|ui| {
            let doing = if player.playing { ", playing" } else { "" };
            let bot = if player.bot { " (bot)" } else { "" };
            ui.label(format!("{}{bot}  {:.0}{doing}", player.username, player.rating));
            let invite_text = format!("Invite {}", player.username);
            let invite = ui.small_button(&invite_text);
            crate::app::note_control(ui, &invite_text, &invite);
            if invite.clicked() {
                form.invite.to.clone_from(&player.username);
            }
        });
    }
}

fn invite_form(ui: &mut Ui, invite: &mut InviteForm, actions: &mut Vec<OnlineAction>) {
    ui.label(RichText::new("Invite a player").strong());
    egui::Grid::new("invite").num_columns(2).show(ui, |ui| {
        labelled(ui, "Player", egui::TextEdit::singleline(&mut invite.to));
        ui.label("Board");
        egui::ComboBox::from_id_salt("invite board").selected_text(invite.board.clone()).show_ui(ui, |ui| {
            for name in kulami_layouts::preset_names() {
                ui.selectable_value(&mut invite.board, name.to_owned(), name);
            }
        });
        ui.end_row();
        ui.label("Scoring");
        egui::ComboBox::from_id_salt("invite scoring").selected_text(invite.scoring.to_string()).show_ui(ui, |ui| {
            for scoring in Scoring::ALL {
                ui.selectable_value(&mut invite.scoring, scoring, scoring.to_string());
            }
        });
        ui.end_row();
        ui.label("You play");
        ui.horizontal(|ui| {
            for color in ["random", "red", "black"] {
                ui.radio_value(&mut invite.color, color.to_owned(), color);
            }
        });
        ui.end_row();
        ui.label("Swap rule");
        ui.checkbox(&mut invite.swap, "the second player may take over the first marble");
        ui.end_row();
        ui.label("Clock");
        ui.horizontal(|ui| {
            let mut timed = invite.clock.is_some();
            ui.checkbox(&mut timed, "timed");
            match (timed, &mut invite.clock) {
                (true, Some((minutes, increment))) => {
                    ui.add(egui::DragValue::new(minutes).range(1..=180).suffix(" min"));
                    ui.add(egui::DragValue::new(increment).range(0..=60).prefix("+ ").suffix(" s"));
                }
                (true, clock @ None) => *clock = Some((5, 3)),
                (false, clock) => *clock = None,
            }
        });
        ui.end_row();
    });
    let ready = !invite.to.trim().is_empty();
    let send = ui.add_enabled(ready, egui::Button::new("Send invite"));
    crate::app::note_control(ui, "Send invite", &send);
    if send.clicked() {
        actions.push(OnlineAction::Invite(invite.clone()));
    }
}

fn invites(ui: &mut Ui, lobby: &Lobby, actions: &mut Vec<OnlineAction>) {
    ui.label(RichText::new("Invites to you").strong());
    if lobby.incoming().is_empty() {
        ui.label("None.");
    }
    for invite in lobby.incoming() {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("From {}: {}", invite.from, invite.summary));
            let accept_text = format!("Accept {}'s invite", invite.from);
            let accept = ui.button(&accept_text);
            crate::app::note_control(ui, &accept_text, &accept);
            if accept.clicked() {
                actions.push(OnlineAction::Accept(invite.id.clone()));
            }
            if ui.button(format!("Decline {}'s invite", invite.from)).clicked() {
                actions.push(OnlineAction::Decline(invite.id.clone()));
            }
        });
    }
    ui.label(RichText::new("Invites you sent").strong());
    if lobby.outgoing().is_empty() {
        ui.label("None.");
    }
    for invite in lobby.outgoing() {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("To {}: {}", invite.to, invite.summary));
            if ui.button(format!("Cancel the invite to {}", invite.to)).clicked() {
                actions.push(OnlineAction::Cancel(invite.id.clone()));
            }
        });
    }
}
