//! What the server answers outside the API: the browser edition's files with `--web`, a short
//! page without, and JSON 404s under `/api` either way.

mod server;

use reqwest::StatusCode;
use server::Server;

async fn get(server: &Server, path: &str) -> (StatusCode, String, String) {
    let response = reqwest::get(format!("{}{path}", server.base)).await.unwrap();
    let status = response.status();
    let content_type =
        response.headers().get(reqwest::header::CONTENT_TYPE).map_or("", |value| value.to_str().unwrap()).to_owned();
    (status, content_type, response.text().await.unwrap())
}

/// With `name.br` and `name.gz` beside a file (as `cargo xtask web` writes them), a browser that
/// accepts brotli gets the first, one that accepts only gzip the second, and any other the file.
async fn assert_compressed_forms_are_sent(server: &Server, web: &std::path::Path) {
    std::fs::write(web.join("kulami_gui_bg.wasm.br"), b"brotli form").unwrap();
    std::fs::write(web.join("kulami_gui_bg.wasm.gz"), b"gzip form").unwrap();
    let http = reqwest::Client::new();
    for (accepted, encoding, body) in [
        ("gzip, deflate, br", Some("br"), "brotli form"),
        ("gzip", Some("gzip"), "gzip form"),
        ("identity", None, "\0asm\x01\0\0\0"),
    ] {
        let url = format!("{}/kulami_gui_bg.wasm", server.base);
        let response = http.get(url).header(reqwest::header::ACCEPT_ENCODING, accepted).send().await.unwrap();
        let header = |name| response.headers().get(name).map(|value| value.to_str().unwrap().to_owned());
        assert_eq!(header(reqwest::header::CONTENT_ENCODING).as_deref(), encoding, "{accepted}");
        assert_eq!(header(reqwest::header::CONTENT_TYPE).as_deref(), Some("application/wasm"), "{accepted}");
        assert_eq!(response.bytes().await.unwrap(), body.as_bytes(), "{accepted}");
    }
}

#[tokio::test]
async fn with_web_the_bundle_is_served_at_the_root_and_the_api_stays_json() {
    let directory = tempfile::tempdir().unwrap();
    let web = directory.path().join("web");
    std::fs::create_dir(&web).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html><title>Kulami</title><canvas></canvas>").unwrap();
    std::fs::write(web.join("kulami_gui_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    let database = &server::databases(directory.path())[0];
    let server = Server::start(database, &["--web", web.to_str().unwrap()]).await;

    let (status, content_type, body) = get(&server, "/").await;
    assert_eq!((status, content_type.as_str()), (StatusCode::OK, "text/html"));
    assert!(body.contains("<canvas>"), "{body}");
    let (status, content_type, _) = get(&server, "/kulami_gui_bg.wasm").await;
    assert_eq!((status, content_type.as_str()), (StatusCode::OK, "application/wasm"));
    assert_eq!(get(&server, "/missing.js").await.0, StatusCode::NOT_FOUND);
    assert_compressed_forms_are_sent(&server, &web).await;
    let (status, content_type, body) = get(&server, "/api/no/such/thing").await;
    assert_eq!((status, content_type.as_str()), (StatusCode::NOT_FOUND, "application/json"));
    assert!(body.contains("no such endpoint"), "{body}");
    assert_eq!(get(&server, "/api/users/online").await.0, StatusCode::OK);
    server.terminate().await;

    let plain = Server::start(database, &[]).await;
    let (status, content_type, body) = get(&plain, "/").await;
    assert_eq!(status, StatusCode::OK);
    assert!(content_type.starts_with("text/html") && body.contains("kulami online register"), "{body}");
    assert_eq!(get(&plain, "/missing.js").await.0, StatusCode::NOT_FOUND);
    plain.terminate().await;
}
