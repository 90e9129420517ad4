//! `othello serve --export DIR` (the page as static files) and `--wasm DIR` (the WebAssembly
//! build), through the real binary: what is written, and the one-line failures.

use predicates::prelude::*;

use crate::support::othello;

#[test]
fn the_export_writes_the_page_and_the_wasm_build() {
    let wasm = tempfile::tempdir().unwrap();
    std::fs::write(wasm.path().join("othello_wasm.js"), "export default 1;").unwrap();
    std::fs::write(wasm.path().join("othello_wasm_bg.wasm"), b"\0asm").unwrap();
    let site = tempfile::tempdir().unwrap();
    let out = site.path().join("site");
    othello()
        .args(["serve", "--wasm"])
        .arg(wasm.path())
        .arg("--export")
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::starts_with("Wrote 15 files in "));
    for name in [
        "index.html",
        "app.js",
        "local.js",
        "worker.js",
        "sw.js",
        "wasm/othello_wasm_bg.wasm",
    ] {
        assert!(out.join(name).is_file(), "{name}");
    }
    assert_eq!(
        std::fs::read(out.join("wasm/othello_wasm_bg.wasm")).unwrap(),
        b"\0asm"
    );
    // A directory that is not empty is not written into.
    othello()
        .args(["serve", "--export"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not empty"));
}

#[test]
fn a_missing_wasm_build_is_named() {
    let dir = tempfile::tempdir().unwrap();
    othello()
        .args(["serve", "--addr", "127.0.0.1:0", "--wasm"])
        .arg(dir.path())
        .assert()
        .code(1)
        .stderr(predicate::str::contains("othello_wasm.js"));
}

/// Every file under `dir`, by its path inside it, with its bytes.
fn files_under(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                files.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

#[cfg(unix)]
#[test]
fn an_export_cut_by_a_file_size_limit_leaves_whole_files_only() {
    let wasm = tempfile::tempdir().unwrap();
    std::fs::write(wasm.path().join("othello_wasm.js"), "export default 1;").unwrap();
    std::fs::write(
        wasm.path().join("othello_wasm_bg.wasm"),
        vec![7u8; 512 << 10],
    )
    .unwrap();
    let site = tempfile::tempdir().unwrap();
    let whole = site.path().join("whole");
    othello()
        .args(["serve", "--wasm"])
        .arg(wasm.path())
        .arg("--export")
        .arg(&whole)
        .assert()
        .success();
    let whole = files_under(&whole);
    // 128 KiB: the page's files fit, the WebAssembly file does not.
    let cut = site.path().join("cut");
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 256 && exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("othello"))
        .args(["serve", "--wasm"])
        .arg(wasm.path())
        .arg("--export")
        .arg(&cut)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("othello_wasm_bg.wasm"), "{stderr}");
    let cut = files_under(&cut);
    assert!(!cut.contains_key("wasm/othello_wasm_bg.wasm"));
    for (name, bytes) in &cut {
        assert!(
            whole.get(name) == Some(bytes),
            "{name} is cut or not the page's"
        );
    }
}
