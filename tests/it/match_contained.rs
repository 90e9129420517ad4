//! `othello match` against engines behind wrapper scripts: the engine's CPU time is that of its
//! whole process tree (a script that does not `exec` its engine is not 0.0 s), and the whole tree
//! is killed after a forfeit and at the end of the match, nothing left running.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::support::{contains_whole_trees, othello, processes_with_argument, scratch, script};

/// This build's `othello` under a name of its own in `dir` (a link), so that its processes can
/// be told from those of other tests.
fn engine_binary(dir: &Path, name: &str) -> PathBuf {
    let link = dir.join(name);
    let _ = std::fs::remove_file(&link);
    #[cfg(unix)]
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_othello"), &link).unwrap();
    link
}

/// The engine's CPU seconds from the match's `CPU time: A x s (...), B y s (...)` line.
fn engine_cpu(stdout: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|line| line.starts_with("CPU time: "))
        .unwrap_or_else(|| panic!("no CPU time in {stdout}"));
    let engine_part = line.rsplit_once("), ").unwrap().1;
    let words: Vec<&str> = engine_part.split_whitespace().collect();
    let at = words.iter().position(|&word| word == "s").unwrap();
    words[at - 1].parse().unwrap()
}

#[cfg(unix)]
#[test]
fn a_wrapper_scripts_engine_is_counted_and_ended_with_the_match() {
    let dir = scratch("match_contained", "wrapper");
    for protocol in ["nboard", "gtp"] {
        let binary = engine_binary(&dir, &format!("engine-{protocol}"));
        // The script runs the engine as its child, without exec: the script itself uses
        // almost no CPU.
        let wrapper = script(
            &dir,
            &format!("wrapper-{protocol}.sh"),
            &format!(
                "{} {protocol} --depth 4\necho done >/dev/null\n",
                binary.display()
            ),
        );
        let output = othello()
            .args(["match", "self:1"])
            .arg(format!("{protocol}:{}", wrapper.display()))
            .args(["--games", "2"])
            .timeout(Duration::from_secs(120))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{protocol}: {stdout}");
        assert!(!stdout.contains("forfeit"), "{protocol}: {stdout}");
        // Counted by its cgroup, or through /proc as the wrapper's child: the engine searched
        // at depth 4 for two games.
        #[cfg(target_os = "linux")]
        assert!(engine_cpu(&stdout) > 0.0, "{protocol}: {stdout}");
        let binary = binary.to_str().unwrap();
        assert_eq!(processes_with_argument(binary), 0, "{protocol}");
        assert_eq!(
            processes_with_argument(wrapper.to_str().unwrap()),
            0,
            "{protocol}"
        );
    }
}

#[cfg(unix)]
#[test]
fn an_engine_that_forfeits_leaves_nothing_running() {
    let dir = scratch("match_contained", "forfeit");
    // A GTP engine that starts a helper, in the background and (where it can) in a session of
    // its own, then answers every genmove with an illegal move: it forfeits every game, is
    // restarted for the next, and each time its helper must go with it.
    let helper = if contains_whole_trees() {
        "setsid sleep 336.5 </dev/null >/dev/null 2>&1 &"
    } else {
        "sleep 336.5 </dev/null >/dev/null 2>&1 &"
    };
    let illegal = script(
        &dir,
        "illegal.sh",
        &format!(
            "{helper}\nwhile read -r line; do\n  case \"$line\" in\n    genmove*) printf '= A1\\n\\n' ;;\n    *) printf '=\\n\\n' ;;\n  esac\ndone\n"
        ),
    );
    let output = othello()
        .args(["match", "self:nodes=100"])
        .arg(format!("gtp:{}", illegal.display()))
        .args(["--games", "2", "--timeout", "1"])
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("forfeits: illegal move a1"), "{stdout}");
    assert_eq!(processes_with_argument("336.5"), 0, "{stdout}");
    assert_eq!(processes_with_argument(illegal.to_str().unwrap()), 0);
}
