//! `othello serve` whose standard output is closed after its address line (a script read it
//! and went away): its later status lines are dropped, and Ctrl-C still stops it with status 0.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

#[cfg(unix)]
#[test]
fn serve_with_its_output_closed_stops_at_ctrl_c_without_a_panic() {
    let data = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_othello"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir"])
        .arg(data.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("othello serve starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let addr = lines
        .find_map(|line| {
            let line = line.ok()?;
            let rest = line.strip_prefix("Open http://")?;
            Some(rest.split('/').next()?.to_owned())
        })
        .expect("othello serve prints its address");
    // The reader goes away: the pipe's only reading end closes.
    drop(lines);
    // One answered request: the server is serving (and waiting for Ctrl-C).
    let mut stream = TcpStream::connect(&addr).unwrap();
    write!(
        stream,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 "), "{answer}");
    thread::sleep(Duration::from_millis(200));
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: a signal to the child this test started and has not waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(output.status.code(), Some(0), "{stderr}");
}
