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
