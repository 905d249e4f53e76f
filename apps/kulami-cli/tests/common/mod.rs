//! What every test of the `kulami` binary needs: running it, reading what it printed, and
//! checking that bad input fails with one line. Each test file uses part of it.
#![allow(dead_code)]

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub const CLASSIC: &str = "AABBCCCD/AABBCCCD/EEFFGGHD/EEFFIIHJ/KKLMMMHJ/NNLMMMOO/NNLPPPOO/QQQPPPOO";

pub fn kulami(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kulami")).args(args).output().unwrap()
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

pub fn json(args: &[&str]) -> Value {
    let output = kulami(args);
    assert!(output.status.success(), "{args:?}: {}", stderr(&output));
    serde_json::from_str(&stdout(&output)).unwrap()
}

/// Bad input: the given exit code, nothing on stdout, exactly one line on stderr.
pub fn fails(args: &[&str], code: i32) -> String {
    let output = kulami(args);
    assert_eq!(output.status.code(), Some(code), "{args:?}");
    assert!(output.stdout.is_empty(), "{args:?} printed {}", stdout(&output));
    let message = stderr(&output);
    assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
    message
}

pub fn with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kulami"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

/// The processor time a process has used so far, user and system, in clock ticks (Linux's
/// `/proc/PID/stat`, fields 14 and 15).
pub fn processor_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // After the command name's closing parenthesis the fields count from the third.
    let fields: Vec<&str> = stat.rsplit_once(')').unwrap().1.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}
