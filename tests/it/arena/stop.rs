//! A short match against `GRhino` (where installed), and Ctrl-C stopping a match and every
//! engine with the totals so far.

use std::path::Path;
use std::time::Duration;

use crate::support::{othello, scratch, script};

use super::external::gtp_fake_running;

/// `GRhino` (`gtp-rhino`, Debian package `grhino`), a pattern engine speaking GTP: a short
/// match at its weakest level, with no forfeit (it refuses a pass, "? syntax error": it is then
/// told the moves alone). `.ci/run` installs it and runs this test.
#[test]
#[ignore = "needs gtp-rhino (Debian package grhino)"]
fn a_short_match_against_grhino_has_no_forfeit() {
    let rhino = ["/usr/games/gtp-rhino", "gtp-rhino"]
        .into_iter()
        .find(|path| Path::new(path).exists() || which(path))
        .expect("gtp-rhino is installed");
    let name = format!("gtp:{rhino} -l 1");
    let output = othello()
        .args([
            "match",
            "self:1",
            &name,
            "--games",
            "4",
            "--random-plies",
            "20",
            "--timeout",
            "30",
        ])
        .timeout(Duration::from_secs(300))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("of 4 games: "), "{stdout}");
    assert!(!stdout.contains("forfeit"), "{stdout}");
}

/// Whether `program` is found on the path.
pub(super) fn which(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_stops_the_match_and_every_engine_with_the_totals_so_far() {
    use std::process::{Command, Stdio};
    use std::time::Instant;

    let dir = scratch("arena", "interrupt");
    let (pids, answered, waiting) = (dir.join("pids"), dir.join("answered"), dir.join("waiting"));
    for file in [&pids, &answered, &waiting] {
        let _ = std::fs::remove_file(file);
    }
    // An engine that says where it runs, answers its first move ever with an illegal one
    // (forfeiting the first game; an engine that answers is kept), then never answers again.
    let engine = script(
        &dir,
        "once.sh",
        &format!(
            "echo $$ >> '{}'\n{}",
            pids.display(),
            gtp_fake_running(&format!(
                "if [ ! -e '{0}' ]; then : > '{0}'; printf '= A1\\n\\n'; else : > '{1}'; fi",
                answered.display(),
                waiting.display()
            ))
        ),
    );
    let mut running = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_othello"))
            .args(["match", "self:nodes=100"])
            .arg(format!("gtp:{}", engine.display()))
            .args(["--games", "4", "--timeout", "600"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    // The second game has started (the first one ended with the illegal move) when the engine
    // is asked to move again.
    let started = Instant::now();
    while !waiting.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the engine was never asked to move"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let (status, stderr) = crate::support::interrupt(&mut running.0);
    assert_eq!(status, Some(130), "{stderr}");
    assert!(
        stderr.ends_with("othello: interrupted; stopped 1 engine process\n"),
        "{stderr}"
    );
    // The totals of the games finished so far.
    let mut stdout = String::new();
    std::io::Read::read_to_string(&mut running.0.stdout.take().unwrap(), &mut stdout).unwrap();
    assert!(
        stdout.contains(&format!(
            "self:nodes=100 against gtp:{}: 1 won, 0 drawn, 0 lost of 1 game: 100.0% of the points\n",
            engine.display()
        )),
        "{stdout}"
    );
    // The engine runs in a PID namespace of its own where the host allows: followed by its
    // script's path, not by the pid it wrote.
    crate::support::assert_gone_by_argument(engine.to_str().unwrap());
}

/// A running match, killed if the test fails before it ends.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
