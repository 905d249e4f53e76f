//! The engine's work in a browser: a web worker (`worker.js` beside the page, which loads this
//! same program and calls its `answer` export) runs each [`Work`], so that the page's own thread
//! only draws. A worker does one piece of work at a time; a task dropped while its worker is busy
//! ends that worker at once (a search cannot be told to stop across threads without shared
//! memory), and the next task starts a fresh one.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::JsCast as _;
use wasm_bindgen::prelude::{Closure, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::background::{Answer, Work};

/// The worker script, relative to the page.
const WORKER_SCRIPT: &str = "./worker.js";

thread_local! {
    /// Workers that finished their work, kept to start the next task without loading the program
    /// again.
    static IDLE: RefCell<Vec<Worker>> = const { RefCell::new(Vec::new()) };
}

/// A task's worker, and its handlers (kept alive as long as the task).
#[derive(Debug)]
pub(crate) struct Runner {
    worker: Option<Worker>,
    /// Whether the worker answered (then it is free for the next task).
    answered: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(JsValue)>,
}

impl Runner {
    /// Posts `work` to an idle worker or a new one; `deliver` gets its answer. A worker that
    /// cannot start, or fails, leaves the task without an answer (lost).
    pub(crate) fn start(work: Work, deliver: impl FnOnce(Answer) + 'static) -> Runner {
        let answer_to = Rc::new(RefCell::new(Some(Box::new(deliver) as Box<dyn FnOnce(Answer)>)));
        let answered = Rc::new(Cell::new(false));
        let on_message = {
            let (answer_to, answered) = (Rc::clone(&answer_to), Rc::clone(&answered));
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let answer = event.data().as_string().and_then(|text| serde_json::from_str(&text).ok());
                // Anything else is the worker's `{error}`: the task is lost (its callback
                // dropped) and the worker, which may be broken, is not used again.
                let answer_to = answer_to.borrow_mut().take();
                if let (Some(answer), Some(answer_to)) = (answer, answer_to) {
                    answered.set(true);
                    answer_to(answer);
                }
            })
        };
        // Dropping the callback drops the task's sender: the window sees the task lost.
        let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_| drop(answer_to.borrow_mut().take()));
        let worker = IDLE.with_borrow_mut(Vec::pop).or_else(new_worker);
        if let Some(worker) = &worker {
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            let text = serde_json::to_string(&work).expect("work always serializes");
            if worker.post_message(&JsValue::from_str(&text)).is_err() {
                worker.terminate();
            }
        }
        Runner { worker, answered, _on_message: on_message, _on_error: on_error }
    }

    /// Frees the worker: back to the idle ones if it answered, ended if it is still busy.
    pub(crate) fn cancel(&mut self) {
        let Some(worker) = self.worker.take() else { return };
        worker.set_onmessage(None);
        worker.set_onerror(None);
        if self.answered.get() {
            IDLE.with_borrow_mut(|idle| idle.push(worker));
        } else {
            worker.terminate();
        }
    }
}

/// A worker running [`WORKER_SCRIPT`] as a module (it imports the program's JavaScript glue).
fn new_worker() -> Option<Worker> {
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    Worker::new_with_options(WORKER_SCRIPT, &options).ok()
}
