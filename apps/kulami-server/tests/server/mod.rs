//! The real `kulami-server` binary on a free loopback port with a fresh database, and HTTP
//! clients for its players.

#![allow(dead_code, reason = "each test file uses a part")]

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt as _;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::process::{Child, Command};

/// How long a test waits for anything the server should do at once.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// The databases every scenario runs on: SQLite always, PostgreSQL at the server named by
/// `KULAMI_TEST_POSTGRES` (`postgres://USER:PASSWORD@HOST:PORT`), unless that is set to `skip`.
///
/// # Panics
/// When `KULAMI_TEST_POSTGRES` is not set at all: leaving PostgreSQL out must be asked for.
pub fn databases(directory: &std::path::Path) -> Vec<String> {
    let mut databases = vec![format!("sqlite:{}", directory.join("kulami.sqlite").display())];
    match std::env::var("KULAMI_TEST_POSTGRES").as_deref() {
        Ok("skip") => eprintln!("note: PostgreSQL left out (KULAMI_TEST_POSTGRES=skip): SQLite only"),
        Ok(server) => databases.push(format!("{}/kulami_test_{}", server.trim_end_matches('/'), unique())),
        Err(_) => panic!(
            "set KULAMI_TEST_POSTGRES=postgres://USER:PASSWORD@HOST:PORT to run the server tests on PostgreSQL as well \
             (`cargo xtask ci` starts one), or KULAMI_TEST_POSTGRES=skip to leave PostgreSQL out"
        ),
    }
    databases
}

fn unique() -> String {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    format!("{:016x}", hasher.finish())
}

/// A running server.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The database it runs on.
    pub database: String,
    /// Everything it printed after its first line.
    pub output: Arc<Mutex<String>>,
}

impl Server {
    /// Starts the binary on `database` with `extra` arguments and waits for its first line.
    pub async fn start(database: &str, extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kulami-server"))
            .args(["--listen", "127.0.0.1:0", "--database", database])
            .args(extra)
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the server binary starts");
        let mut lines = BufReader::new(child.stdout.take().expect("piped stdout")).lines();
        let first = tokio::time::timeout(PATIENCE, lines.next_line())
            .await
            .expect("the server says where it listens in time")
            .expect("stdout readable")
            .expect("a first line");
        let base = first.strip_prefix("listening on ").unwrap_or_else(|| panic!("first line: {first}")).to_owned();
        let output = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&output);
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                sink.lock().unwrap().push_str(&(line + "\n"));
            }
        });
        Server { child, base, database: database.to_owned(), output }
    }

    /// SIGKILL: no chance to tidy up.
    pub async fn kill(mut self) {
        self.child.kill().await.expect("the server can be killed");
    }

    /// SIGTERM, and waits for a clean exit (open streams end, the exit status is 0).
    pub async fn terminate(mut self) {
        let pid = self.child.id().expect("running");
        std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status().expect("kill runs");
        let status =
            tokio::time::timeout(PATIENCE, self.child.wait()).await.expect("shuts down in time").expect("exit status");
        assert!(status.success(), "the server exited with {status} on SIGTERM");
    }

    /// A client without a token.
    pub fn anonymous(&self) -> Client {
        Client { http: reqwest::Client::new(), base: self.base.clone(), token: None, name: String::new() }
    }

    /// Registers `name` (password `password-of-NAME`) and gives their client.
    pub async fn register(&self, name: &str) -> Client {
        let mut client = self.anonymous();
        let (status, body) = client
            .send(Method::POST, "/api/account/register", Some(json!({"username": name, "password": password(name)})))
            .await;
        assert_eq!(status, StatusCode::CREATED, "register {name}: {body}");
        client.token = Some(body["token"].as_str().expect("a token").to_owned());
        client.name = name.to_owned();
        client
    }
}

/// The test password of a player.
pub fn password(name: &str) -> String {
    format!("password-of-{name}")
}

/// A player's (or an anonymous) HTTP client.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    /// The bearer token.
    pub token: Option<String>,
    /// The player's name.
    pub name: String,
}

impl Client {
    /// The same player with another token.
    pub fn with_token(&self, token: &str) -> Client {
        Client { token: Some(token.to_owned()), ..self.clone() }
    }

    /// The same player on another server (sharing the database).
    pub fn on(&self, server: &Server) -> Client {
        Client { base: server.base.clone(), ..self.clone() }
    }

    fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        let request = self.http.request(method, format!("{}{path}", self.base));
        match &self.token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    }

    /// Sends a request with an optional JSON body; the status and the JSON answer.
    pub async fn send(&self, method: Method, path: &str, body: Option<Value>) -> (StatusCode, Value) {
        let request = self.request(method, path);
        let request = match body {
            Some(body) => request.json(&body),
            None => request,
        };
        let response = request.send().await.expect("the server answers");
        let status = response.status();
        let text = response.text().await.expect("a body");
        let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{status}: not JSON: {text}"));
        (status, value)
    }

    /// Sends raw bytes as the body.
    pub async fn send_raw(&self, method: Method, path: &str, body: Vec<u8>) -> (StatusCode, Value) {
        let response = self.request(method, path).body(body).send().await.expect("the server answers");
        let status = response.status();
        (status, response.json().await.expect("a JSON answer"))
    }

    /// GET, expecting 200.
    pub async fn get(&self, path: &str) -> Value {
        let (status, body) = self.send(Method::GET, path, None).await;
        assert_eq!(status, StatusCode::OK, "GET {path}: {body}");
        body
    }

    /// POST with a body, expecting `expected`.
    pub async fn post(&self, path: &str, body: Value, expected: StatusCode) -> Value {
        let (status, answer) = self.send(Method::POST, path, Some(body)).await;
        assert_eq!(status, expected, "POST {path} as {}: {answer}", self.name);
        answer
    }

    /// GET of a text resource.
    pub async fn text(&self, path: &str) -> (StatusCode, String) {
        let response = self.request(Method::GET, path).send().await.expect("the server answers");
        (response.status(), response.text().await.expect("a body"))
    }

    /// Opens an NDJSON stream.
    pub async fn stream(&self, path: &str) -> Stream {
        let response = self.request(Method::GET, path).send().await.expect("the server answers");
        assert_eq!(response.status(), StatusCode::OK, "stream {path}");
        let content_type = response.headers()[reqwest::header::CONTENT_TYPE].to_str().unwrap().to_owned();
        assert_eq!(content_type, "application/x-ndjson");
        Stream { body: Box::pin(response.bytes_stream()), buffer: Vec::new() }
    }

    /// Invites `to` with `settings`; the invite's id.
    pub async fn invite(&self, to: &str, settings: Value) -> String {
        let answer = self.post(&format!("/api/challenge/{to}"), settings, StatusCode::CREATED).await;
        assert_eq!(answer["status"], "created");
        answer["id"].as_str().expect("an id").to_owned()
    }

    /// Accepts an invite; the game's id.
    pub async fn accept(&self, invite: &str) -> String {
        let answer = self.post(&format!("/api/challenge/{invite}/accept"), json!({}), StatusCode::OK).await;
        answer["game"].as_str().expect("a game id").to_owned()
    }

    /// Plays a move, expecting `expected`; the answer.
    pub async fn play(&self, game: &str, played: &str, expected: StatusCode) -> Value {
        let path = format!("/api/board/game/{game}/move/{played}");
        let (status, answer) = self.send(Method::POST, &path, None).await;
        assert_eq!(status, expected, "{} plays {played}: {answer}", self.name);
        answer
    }
}

type ByteStream = std::pin::Pin<Box<dyn futures_util::Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>>;

/// An open NDJSON stream.
pub struct Stream {
    body: ByteStream,
    buffer: Vec<u8>,
}

impl Stream {
    /// The next line, keep-alive empty lines included (as `Value::Null`); `None` when the stream
    /// has ended.
    pub async fn next_raw(&mut self) -> Option<Value> {
        loop {
            if let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let line = std::str::from_utf8(&line).expect("UTF-8").trim();
                return Some(if line.is_empty() {
                    Value::Null
                } else {
                    serde_json::from_str(line).expect("a JSON line")
                });
            }
            let chunk = tokio::time::timeout(PATIENCE, self.body.next()).await.expect("a line in time")?;
            self.buffer.extend_from_slice(&chunk.expect("the stream reads"));
        }
    }

    /// The next JSON object, skipping keep-alives.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            match self.next_raw().await? {
                Value::Null => {}
                value => return Some(value),
            }
        }
    }

    /// The next object, which must be there.
    pub async fn expect(&mut self) -> Value {
        self.next().await.expect("the stream goes on")
    }

    /// Whether the stream ends with no more objects.
    pub async fn ends(&mut self) -> bool {
        self.next().await.is_none()
    }
}
