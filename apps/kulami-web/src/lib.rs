//! The Kulami game in a browser: `kulami_gui`'s app on eframe's web runner. The page
//! (`web/index.html`) calls `start`; the engine's web worker (`web/worker.js`) loads this same
//! program and calls `answer`; a test reads the app through `probe`. Build the site with
//! `cargo xtask web`. (Plain names, not links: on any other target the crate is empty, and its
//! documentation is built there.)
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;

use kulami_gui::KulamiApp;
use kulami_gui::autosave::Autosave;
use kulami_gui::background::Work;
use wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::{JsError, JsValue, wasm_bindgen};

/// How many recent frames [`probe`] reports the drawing time of.
const FRAMES_KEPT: usize = 240;

thread_local! {
    /// The app's state at its last frame, as [`probe`] hands it out.
    static LAST_FRAME: RefCell<FrameReport> = RefCell::new(FrameReport::default());
}

/// The app at its last frame and how the page has drawn so far.
#[derive(Default)]
struct FrameReport {
    probe: Option<kulami_gui::app::Probe>,
    frames: u64,
    /// When the first frame was drawn, in milliseconds since the page's navigation began.
    first_frame_ms: Option<f64>,
    /// When a board was first drawn, in milliseconds since the page's navigation began.
    first_board_ms: Option<f64>,
    /// How long each recent frame took to compute, in milliseconds, oldest first.
    frame_ms: std::collections::VecDeque<f64>,
}

/// Starts the game in the canvas with id `canvas_id`.
///
/// # Errors
/// If there is no such canvas, or WebGL cannot start.
#[wasm_bindgen]
pub async fn start(canvas_id: &str) -> Result<(), JsValue> {
    let canvas = web_sys::window()
        .and_then(|window| window.document())
        .and_then(|document| document.get_element_by_id(canvas_id))
        .ok_or_else(|| JsValue::from_str(&format!("the page has no element `{canvas_id}`")))?
        .dyn_into::<web_sys::HtmlCanvasElement>()
        .map_err(|_| JsValue::from_str(&format!("`{canvas_id}` is not a canvas")))?;
    eframe::WebRunner::new()
        .start(
            canvas,
            eframe::WebOptions::default(),
            Box::new(|_| Ok(Box::new(WebApp { app: KulamiApp::new(Autosave::in_page_storage()), frame_began: 0.0 }))),
        )
        .await
}

/// The engine's work, run in the web worker: a [`Work`] as JSON in, its answer as JSON out.
///
/// # Errors
/// If `work` is not a piece of work of this app.
#[wasm_bindgen]
pub fn answer(work: &str) -> Result<String, JsError> {
    let work: Work = serde_json::from_str(work)?;
    let answer = work.run(&std::sync::atomic::AtomicBool::new(false))?;
    Ok(serde_json::to_string(&answer)?)
}

/// The test hook: the app at its last frame ([`kulami_gui::app::Probe`]) with the page's frame
/// count, when it first drew a frame and a board, and how long its recent frames took, as JSON.
#[wasm_bindgen]
#[must_use]
pub fn probe() -> String {
    LAST_FRAME.with_borrow(|report| {
        serde_json::json!({
            "app": report.probe,
            "frames": report.frames,
            "first_frame_ms": report.first_frame_ms,
            "first_board_ms": report.first_board_ms,
            "frame_ms": report.frame_ms,
        })
        .to_string()
    })
}

/// Milliseconds since the page's navigation began.
fn now_ms() -> f64 {
    web_sys::window().and_then(|window| window.performance()).map_or(0.0, |performance| performance.now())
}

/// The desktop game's app, reporting each frame to [`probe`].
struct WebApp {
    app: KulamiApp,
    /// When the frame being computed began (its logic, before its drawing).
    frame_began: f64,
}

impl eframe::App for WebApp {
    fn logic(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        self.frame_began = now_ms();
        eframe::App::logic(&mut self.app, ctx, frame);
    }

    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        eframe::App::ui(&mut self.app, ui, frame);
        let probe = self.app.probe(ui.ctx());
        let ended = now_ms();
        LAST_FRAME.with_borrow_mut(|report| {
            report.frames += 1;
            report.first_frame_ms.get_or_insert(ended);
            if report.first_board_ms.is_none() && !probe.holes.is_empty() {
                report.first_board_ms = Some(ended);
            }
            if report.frame_ms.len() == FRAMES_KEPT {
                report.frame_ms.pop_front();
            }
            report.frame_ms.push_back(ended - self.frame_began);
            report.probe = Some(probe);
        });
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::App::save(&mut self.app, storage);
    }
}
