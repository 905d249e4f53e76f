//! Kalah and GORami in the window, driven like a player: chosen on the start screen, pits and
//! fields found by their accessible labels and clicked, the engine answering on its thread.

mod support;

use std::time::{Duration, Instant};

use egui_kittest::{
    Harness,
    kittest::{NodeT as _, Queryable as _},
};
use kulami_gui::KulamiApp;
use kulami_gui::table::TableScreen;
use support::frame;
use support::wait_for;

fn harness() -> Harness<'static, KulamiApp> {
    let mut harness =
        Harness::builder().with_size(egui::vec2(1100.0, 760.0)).build_ui_state(frame, KulamiApp::new(None));
    harness.run_steps(3);
    harness
}

/// Clicks the widget labelled `label` and lets a few frames pass.
fn click(harness: &mut Harness<'static, KulamiApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.run_steps(3);
}

/// The labels of every widget whose label contains `text`.
fn labels(harness: &Harness<'static, KulamiApp>, text: &str) -> Vec<String> {
    harness
        .query_all_by_label_contains(text)
        .map(|node| {
            let node = node.accesskit_node();
            // A button's text is its label, a plain text's its value.
            node.label().or_else(|| node.value()).unwrap_or_default().to_string()
        })
        .collect()
}

fn kalah_moves(harness: &Harness<'static, KulamiApp>) -> Vec<String> {
    match harness.state().table() {
        Some(TableScreen::Kalah(screen)) => screen.session.moves().iter().map(ToString::to_string).collect(),
        other => panic!("not a Kalah game: {other:?}"),
    }
}

fn gorami_moves(harness: &Harness<'static, KulamiApp>) -> Vec<String> {
    match harness.state().table() {
        Some(TableScreen::Gorami(screen)) => screen.session.moves().iter().map(ToString::to_string).collect(),
        other => panic!("not a GORami game: {other:?}"),
    }
}

#[test]
fn kalah_is_chosen_at_the_start_sown_seed_by_seed_answered_by_the_engine_and_undone() {
    let mut harness = harness();
    assert_eq!(harness.state().screen(), "start");
    click(&mut harness, "Kalah");
    assert_eq!(harness.state().screen(), "kalah");
    harness.get_by_label_contains("South: a person");
    harness.get_by_label_contains("North: the computer (Club)");
    // Pit 3's four seeds: the last falls in South's store, so South sows again.
    click(&mut harness, "South's pit 3, 4 seeds, playable");
    assert_eq!(kalah_moves(&harness), ["3"]);
    // Part way: pit 3 is empty and the first seed is in pit 4; no pit takes a click meanwhile.
    harness.get_by_label("South's pit 3, 0 seeds");
    assert!(labels(&harness, "playable").is_empty(), "no click while the seeds fall");
    wait_for(&mut harness, "South's pit 6, 5 seeds, playable", 30);
    harness.get_by_label("South's pit 4, 5 seeds, playable");
    click(&mut harness, "South's pit 6, 5 seeds, playable");
    // The engine's turn comes once the sowing is shown, and ends back at South's.
    wait_for(&mut harness, "playable", 30);
    let played = kalah_moves(&harness);
    assert!(played.len() >= 3 && played[..2] == ["3", "6"], "{played:?}");
    harness.get_by_label("South to move");
    // Undo takes back the engine's sowings and South's last, back to South's turn after "3".
    click(&mut harness, "Undo");
    assert_eq!(kalah_moves(&harness), ["3"]);
    wait_for(&mut harness, "South's pit 6, 5 seeds, playable", 30);
    // Hints: the engine's three strongest sowings, with their values.
    click(&mut harness, "Hints");
    wait_for(&mut harness, "1. ", 30);
    let hints = labels(&harness, ". ");
    let ranked =
        hints.iter().filter(|label| label.get(1..3) == Some(". ") && label.starts_with(|c: char| c.is_ascii_digit()));
    assert_eq!(ranked.count(), 3, "{hints:?}");
    // The menu keeps the game to go on with.
    click(&mut harness, "Menu");
    assert_eq!(harness.state().screen(), "start");
    click(&mut harness, "Continue the Kalah game");
    assert_eq!(harness.state().screen(), "kalah");
    assert_eq!(kalah_moves(&harness), ["3"]);
}

#[test]
fn two_people_play_kalah_to_the_end_and_see_the_result() {
    let mut harness = harness();
    click(&mut harness, "Kalah");
    click(&mut harness, "A friend");
    click(&mut harness, "4 pits");
    click(&mut harness, "3 seeds");
    click(&mut harness, "Start a new game");
    harness.get_by_label_contains("North: a person");
    // Kalah(4,3): always the lowest playable pit, until the game ends.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !harness.state().table().is_some_and(TableScreen::is_over) {
        assert!(Instant::now() < deadline, "the game did not end: {:?}", kalah_moves(&harness));
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
        if let Some(pit) = labels(&harness, ", playable").iter().min().cloned() {
            click(&mut harness, &pit);
        }
    }
    wait_for(&mut harness, "Stores: South", 30);
    let result = labels(&harness, "Stores: South").remove(0);
    assert!(
        result.starts_with("South wins.") || result.starts_with("North wins.") || result.starts_with("A draw."),
        "{result}"
    );
    let Some(TableScreen::Kalah(screen)) = harness.state().table() else { panic!("a Kalah game") };
    let position = screen.session.position();
    assert!(position.is_over());
    let stores =
        format!("Stores: South {}, North {}.", position.store(kalah::Side::South), position.store(kalah::Side::North));
    assert!(result.ends_with(&stores), "{result}");
    assert_eq!(position.store(kalah::Side::South) + position.store(kalah::Side::North), 24, "every seed in a store");
}

#[test]
fn gorami_places_the_chosen_disc_and_the_engine_answers() {
    let mut harness = harness();
    click(&mut harness, "GORami");
    assert_eq!(harness.state().screen(), "gorami");
    harness.get_by_label_contains("Yellow: a person");
    // Disc 1 is chosen first: field 7 takes it.
    click(&mut harness, "field 7 empty, 1 fits");
    assert_eq!(gorami_moves(&harness), ["1@7"]);
    wait_for(&mut harness, "fits", 30);
    let played = gorami_moves(&harness);
    assert_eq!(played.len(), 2, "{played:?}");
    harness.get_by_label("field 7 Yellow 1");
    // Disc 3 now: the fields that fit it are offered, and a click places it.
    click(&mut harness, "3 (3 left)");
    let offered = labels(&harness, "empty, 3 fits");
    assert!(!offered.is_empty());
    let field = offered[0].clone();
    click(&mut harness, &field);
    let played = gorami_moves(&harness);
    let number = field.trim_start_matches("field ").split(' ').next().unwrap();
    assert_eq!(played[2], format!("3@{number}"));
    wait_for(&mut harness, "fits", 30);
    // Undo against the engine goes back to the person's turn before their disc 3.
    click(&mut harness, "Undo");
    assert_eq!(gorami_moves(&harness).len(), 2);
    harness.get_by_label(&format!("field {number} empty, 3 fits"));
}

#[test]
fn a_gorami_game_against_the_engine_runs_to_the_end_and_the_result_shows() {
    let mut harness = harness();
    click(&mut harness, "GORami");
    click(&mut harness, "Beginner");
    click(&mut harness, "I move second");
    click(&mut harness, "Start a new game");
    // The person (blue) always places the first disc that fits on the first field offered.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !harness.state().table().is_some_and(TableScreen::is_over) {
        assert!(Instant::now() < deadline, "the game did not end: {:?}", gorami_moves(&harness));
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
        if let Some(field) = labels(&harness, " fits").first().cloned() {
            click(&mut harness, &field);
        } else if harness.query_by_label("Pass").is_some() {
            click(&mut harness, "Pass");
        }
    }
    wait_for(&mut harness, "Stripes: Yellow", 30);
    let result = labels(&harness, "Stripes: Yellow").remove(0);
    assert!(
        result.starts_with("You (Blue) win.")
            || result.starts_with("Level 1 (Yellow) wins.")
            || result.starts_with("A draw."),
        "{result}"
    );
    harness.get_by_label_contains("marks each stripe's end");
    let Some(TableScreen::Gorami(screen)) = harness.state().table() else { panic!("a GORami game") };
    assert!(screen.session.position().legal_moves().is_empty(), "neither player can place");
}

/// Frames as eframe draws them: only when the window asked for one (a delay, a click, an
/// answer's wake), until `done` or `seconds` pass.
fn frames_when_asked(harness: &mut Harness<'static, KulamiApp>, seconds: u64, done: impl Fn(&KulamiApp) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    while !done(harness.state()) && Instant::now() < deadline {
        if harness.ctx.has_requested_repaint() {
            harness.step();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_engine_moves_when_the_sowing_is_shown_with_no_input_from_the_player() {
    let mut harness = harness();
    click(&mut harness, "Kalah");
    click(&mut harness, "South's pit 1, 4 seeds, playable");
    // Nothing else happens in the window: the sowing's frames, and then the engine's answer,
    // come only from what the app asked for.
    frames_when_asked(
        &mut harness,
        20,
        |app| matches!(app.table(), Some(TableScreen::Kalah(screen)) if screen.session.moves().len() >= 2),
    );
    assert!(kalah_moves(&harness).len() >= 2, "the engine never moved: {:?}", kalah_moves(&harness));
    let mut harness = self::harness();
    click(&mut harness, "GORami");
    click(&mut harness, "field 1 empty, 1 fits");
    frames_when_asked(
        &mut harness,
        20,
        |app| matches!(app.table(), Some(TableScreen::Gorami(screen)) if screen.session.moves().len() >= 2),
    );
    assert_eq!(gorami_moves(&harness).len(), 2, "the engine answered");
}

#[test]
fn a_table_game_survives_a_restart_and_a_damaged_one_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("autosave.json");
    let app = KulamiApp::new(Some(kulami_gui::autosave::Autosave::new(path.clone())));
    let mut harness = Harness::builder().with_size(egui::vec2(1100.0, 760.0)).build_ui_state(frame, app);
    harness.run_steps(3);
    click(&mut harness, "Kalah");
    click(&mut harness, "A friend");
    click(&mut harness, "Start a new game");
    click(&mut harness, "South's pit 3, 4 seeds, playable");
    // Every move is saved at once: no clean shutdown is needed.
    drop(harness);
    let restored = KulamiApp::new(Some(kulami_gui::autosave::Autosave::new(path.clone())));
    let Some(TableScreen::Kalah(screen)) = restored.table() else { panic!("the Kalah game is back") };
    assert_eq!(screen.session.moves(), [kalah::Move::Pit(3)]);
    assert_eq!(screen.session.seats(), [kulami_gui::table::Seat::Person; 2]);
    assert!(!screen.animating(), "a resumed game does not replay its moves");
    let mut harness = Harness::builder().with_size(egui::vec2(1100.0, 760.0)).build_ui_state(frame, restored);
    harness.run_steps(3);
    click(&mut harness, "Continue the Kalah game");
    harness.get_by_label("South's pit 6, 5 seeds, playable");
    drop(harness);

    // A save whose moves do not replay: the message says which, and the window opens as usual.
    let mut saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    saved["table"]["moves"] = serde_json::json!(["3", "3"]);
    std::fs::write(&path, saved.to_string()).unwrap();
    let damaged = KulamiApp::new(Some(kulami_gui::autosave::Autosave::new(path)));
    assert!(damaged.table().is_none());
    let message = damaged.state().message().unwrap_or_default().to_owned();
    assert_eq!(message, "The saved table game could not be resumed: move 2 (3): South's pit 3 is empty.");
}
