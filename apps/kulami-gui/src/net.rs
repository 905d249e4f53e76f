//! Network work off the UI thread, through `ehttp` (threads on the desktop, the browser's fetch
//! on the web): requests and NDJSON streams, each known by the [`Ticket`] it was sent with, so
//! that an answer belongs to exactly the request that asked. Every arrival wakes the window.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::Value;

use crate::background::Wake;

/// The name of one request or stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ticket(u64);

/// What came back.
#[derive(Debug)]
pub enum Arrival {
    /// A request's answer: its JSON, or the server's `{"error"}` sentence (or why it failed).
    Answer {
        /// The request.
        ticket: Ticket,
        /// The answer.
        result: Result<Value, String>,
    },
    /// One object of a stream.
    Line {
        /// The stream.
        ticket: Ticket,
        /// The object.
        value: Value,
    },
    /// A stream ended, with the reason if it broke.
    Ended {
        /// The stream.
        ticket: Ticket,
        /// Why, if it failed.
        error: Option<String>,
    },
}

/// An open stream; dropping it closes it (at its next line or keep-alive).
#[derive(Debug)]
pub struct Stream {
    ticket: Ticket,
    closed: Arc<AtomicBool>,
}

impl Stream {
    /// The stream's ticket.
    #[must_use]
    pub fn ticket(&self) -> Ticket {
        self.ticket
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        self.closed.store(true, Ordering::Relaxed);
    }
}

/// The network: sends requests and opens streams, and hands over what arrived.
pub struct Net {
    sender: Sender<Arrival>,
    receiver: Receiver<Arrival>,
    next: u64,
    wake: Wake,
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Net").field("next", &self.next).finish_non_exhaustive()
    }
}

/// The server's error sentence of a refused request, or the transport's failure.
fn refusal(response: &ehttp::Response) -> String {
    serde_json::from_slice::<Value>(&response.bytes)
        .ok()
        .and_then(|answer| answer["error"].as_str().map(str::to_owned))
        .unwrap_or_else(|| format!("the server answered {} {}", response.status, response.status_text))
}

impl Net {
    /// A network whose arrivals call `wake`.
    #[must_use]
    pub fn new(wake: Wake) -> Net {
        let (sender, receiver) = channel();
        Net { sender, receiver, next: 0, wake }
    }

    /// Sets what arrivals wake (the window, once there is one).
    pub fn set_wake(&mut self, wake: Wake) {
        self.wake = wake;
    }

    fn ticket(&mut self) -> Ticket {
        self.next += 1;
        Ticket(self.next)
    }

    fn request(method: &str, url: &str, token: Option<&str>, body: Option<&Value>) -> ehttp::Request {
        let mut request = match body {
            Some(body) => ehttp::Request::post_json(url, body).expect("a JSON value serializes"),
            None if method == "POST" => ehttp::Request::post(url, Vec::new()),
            None => ehttp::Request::get(url),
        };
        if method == "DELETE" {
            request.method = ehttp::Method::DELETE;
        }
        if let Some(token) = token {
            request.headers.insert("Authorization", format!("Bearer {token}"));
        }
        request
    }

    /// Sends `method url` with a bearer token and a JSON body.
    pub fn call(&mut self, method: &str, url: &str, token: Option<&str>, body: Option<&Value>) -> Ticket {
        let ticket = self.ticket();
        let (sender, wake) = (self.sender.clone(), Arc::clone(&self.wake));
        ehttp::fetch(Self::request(method, url, token, body), move |response| {
            let result = match response {
                Ok(response) if response.ok => {
                    serde_json::from_slice(&response.bytes).map_err(|e| format!("the server's answer is not JSON: {e}"))
                }
                Ok(response) => Err(refusal(&response)),
                Err(error) => Err(format!("cannot reach the server: {error}")),
            };
            if sender.send(Arrival::Answer { ticket, result }).is_ok() {
                wake();
            }
        });
        ticket
    }

    /// Opens the NDJSON stream at `url`: each object arrives as a [`Arrival::Line`], and its end
    /// (or failure) as [`Arrival::Ended`].
    pub fn stream(&mut self, url: &str, token: Option<&str>) -> Stream {
        let ticket = self.ticket();
        let closed = Arc::new(AtomicBool::new(false));
        let (sender, wake, stop) = (self.sender.clone(), Arc::clone(&self.wake), Arc::clone(&closed));
        let buffer = Mutex::new(Vec::<u8>::new());
        let mut request = Self::request("GET", url, token, None);
        request.timeout = None;
        let send = move |arrival: Arrival| {
            let sent = sender.send(arrival).is_ok();
            if sent {
                wake();
            }
            sent
        };
        ehttp::streaming::fetch(request, move |part| {
            if stop.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            let chunk = match part {
                Err(error) => {
                    send(Arrival::Ended { ticket, error: Some(format!("cannot reach the server: {error}")) });
                    return ControlFlow::Break(());
                }
                Ok(ehttp::streaming::Part::Response(response)) if !response.ok => {
                    let error = format!("the server answered {} {}", response.status, response.status_text);
                    send(Arrival::Ended { ticket, error: Some(error) });
                    return ControlFlow::Break(());
                }
                Ok(ehttp::streaming::Part::Response(_)) => return ControlFlow::Continue(()),
                Ok(ehttp::streaming::Part::Chunk(chunk)) => chunk,
            };
            if chunk.is_empty() {
                send(Arrival::Ended { ticket, error: None });
                return ControlFlow::Break(());
            }
            let mut buffer = buffer.lock().unwrap_or_else(PoisonError::into_inner);
            buffer.extend_from_slice(&chunk);
            while let Some(end) = buffer.iter().position(|&byte| byte == b'\n') {
                let line: Vec<u8> = buffer.drain(..=end).collect();
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let Ok(value) = serde_json::from_slice(&line) else {
                    send(Arrival::Ended { ticket, error: Some("the server sent a line that is not JSON".to_owned()) });
                    return ControlFlow::Break(());
                };
                if !send(Arrival::Line { ticket, value }) {
                    return ControlFlow::Break(());
                }
            }
            ControlFlow::Continue(())
        });
        Stream { ticket, closed }
    }

    /// What has arrived since the last call.
    pub fn arrivals(&self) -> Vec<Arrival> {
        self.receiver.try_iter().collect()
    }
}
