//! `kulami-gui`: the desktop game.

fn main() -> eframe::Result {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("Kulami")
            .with_inner_size([1000.0, 720.0])
            .with_min_inner_size([520.0, 400.0]),
        ..Default::default()
    };
    eframe::run_native(
        "Kulami",
        options,
        Box::new(|creation| Ok(Box::new(kulami_gui::KulamiApp::new(creation.storage)))),
    )
}
