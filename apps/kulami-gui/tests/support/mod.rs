//! What the window tests share: a frame as eframe runs it, and waiting for what the app's
//! threads bring.

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use kulami_gui::KulamiApp;

/// One frame as eframe runs it: the app's logic, then its drawing.
pub fn frame(ui: &mut egui::Ui, app: &mut KulamiApp) {
    app.logic(ui.ctx());
    app.show(ui);
}

/// Runs frames until a widget whose label contains `text` shows (the engine and the network
/// answer on their own threads, a sowing is drawn seed by seed), for at most `seconds`.
///
/// # Panics
/// If it never shows.
pub fn wait_for(harness: &mut Harness<'static, KulamiApp>, text: &str, seconds: u64) {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        harness.step();
        if harness.query_all_by_label_contains(text).next().is_some() {
            return;
        }
        assert!(Instant::now() < deadline, "`{text}` never showed");
        std::thread::sleep(Duration::from_millis(15));
    }
}
